/*
 * fuzz_ws: libFuzzer target for the WebSocket frame path: daemon/wsline.c
 * itself, on one end of a libevent bufferevent pair, after a valid upgrade
 * request. The input's first byte picks the output cap (small or large)
 * and whether the peer reads what the daemon sends; the rest arrives as
 * the client's bytes (frames: masked or not, fragmented, control frames,
 * oversized, closes of any payload). The connection's upcalls are this
 * harness's own, small ones that echo each line back (the send path) and stop the transport when it
 * is lost, as conn.c does. No sanitizer report and no leak.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>

#include "daemon/config.h"
#include "daemon/transport.h"
#include "daemon/wsline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The one connection: its transport, and whether it was let go. */
static struct transport *cur;
static int gone;

static void
lose(void)
{
	if (!gone && cur)
		cur->ops->stop(cur);
	gone = 1;
}

void
conn_switch(struct conn *c, struct transport *t)
{
	(void)c;
	cur = t;
}
void
conn_up(struct conn *c)
{
	(void)c;
	if (!gone)
		cur->ops->send(
		    cur, "* SERVER gomokud fuzz 1\n", strlen("* SERVER gomokud fuzz 1\n"));
}
int
conn_input(struct conn *c, const char *line, size_t n)
{
	(void)c;
	if (gone)
		return 1;
	if (n >= 4 && memcmp(line, "QUIT", 4) == 0) { /* the closing path */
		cur->ops->reading(cur, 0);
		if (cur->ops->closing)
			cur->ops->closing(cur);
		return 1;
	}
	if (n >= 4 && memcmp(line, "HOLD", 4) == 0) { /* a held connection, released */
		cur->ops->reading(cur, 0);
		cur->ops->reading(cur, 1);
		return gone;
	}
	cur->ops->send(cur, line, n);
	(void)cur->ops->pending(cur);
	return 0;
}
void
conn_overlong(struct conn *c)
{
	(void)c;
	lose();
}
void
conn_drained(struct conn *c)
{
	(void)c;
}
void
conn_timeout(struct conn *c, int writing)
{
	(void)c;
	(void)writing;
	lose();
}
void
conn_overfull(struct conn *c)
{
	(void)c;
	lose();
}
void
conn_lost(struct conn *c, const char *why)
{
	(void)c;
	(void)why;
	lose();
}

static const char upgrade[] = "GET /ws HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\n"
			      "Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
			      "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n";

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	static struct config cfg;
	cfg.handshake_s = 10;
	cfg.outq_kib = data[0] & 1 ? 16 : 256;
	int reads = !(data[0] & 2);
	struct event_base *base = event_base_new();
	struct bufferevent *pair[2];
	if (!base || bufferevent_pair_new(base, 0, pair)) {
		if (base)
			event_base_free(base);
		return 0;
	}
	gone = 0;
	cur = wsline_new(pair[0], NULL, &cfg);
	if (!cur) {
		bufferevent_free(pair[0]);
		bufferevent_free(pair[1]);
		event_base_free(base);
		return 0;
	}
	bufferevent_enable(pair[0], EV_READ | EV_WRITE);
	bufferevent_enable(pair[1], EV_READ | EV_WRITE);
	bufferevent_write(pair[1], upgrade, sizeof upgrade - 1);
	event_base_loop(base, EVLOOP_NONBLOCK);
	/* the client's bytes, in a few writes so that frames split */
	size_t off = 1, step = size / 3 + 1;
	while (off < size) {
		size_t n = size - off < step ? size - off : step;
		bufferevent_write(pair[1], data + off, n);
		off += n;
		for (int i = 0; i < 4; i++) {
			event_base_loop(base, EVLOOP_NONBLOCK);
			if (reads) {
				struct evbuffer *in = bufferevent_get_input(pair[1]);
				evbuffer_drain(in, evbuffer_get_length(in));
			}
		}
	}
	lose();
	cur->ops->free(cur); /* frees pair[0] */
	cur = NULL;
	bufferevent_free(pair[1]);
	event_base_free(base);
	return 0;
}
