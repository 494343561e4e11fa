/*
 * fuzz_ws: libFuzzer target for the WebSocket frame path: daemon/wsline.c
 * itself, over the daemon's own TLS stream (tlsio.c, by tlsline.c with
 * web-listen's "always the web") on one end of a socket pair, after a real
 * TLS handshake (tests/unit/tlspair.c) and a valid upgrade request. The input's first byte picks the output cap (small or large)
 * and whether the peer reads what the daemon sends; the rest arrives as
 * the client's bytes (frames: masked or not, fragmented, control frames,
 * oversized, closes of any payload). The connection's upcalls are this
 * harness's own, small ones that echo each line back (the send path) and stop the transport when it
 * is lost, as conn.c does. No sanitizer report and no leak.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/event.h>
#include <openssl/err.h>
#include <openssl/ssl.h>

#include "daemon/config.h"
#include "daemon/tlsio.h"
#include "daemon/tlsline.h"
#include "daemon/transport.h"
#include "daemon/wsline.h"
#include "tests/unit/tlspair.h"

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
	if (cur)
		cur->ops->free(cur); /* the TLS transport that handed its stream on */
	cur = t;
}
int
conn_refused(const struct conn *c)
{
	(void)c;
	return 0;
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

/* The client's side of a step: its handshake on, or what it was sent read
 * and dropped (reads), or left in the socket. */
static void
client_step(SSL *cl, int reads)
{
	char buf[4096];
	if (!SSL_is_init_finished(cl)) {
		SSL_do_handshake(cl);
		ERR_clear_error();
		return;
	}
	while (reads && SSL_read(cl, buf, sizeof buf) > 0)
		;
	ERR_clear_error();
}

/* Writes all of p through the client, the loop turning while the socket is
 * full (the daemon's side reads it); gives up after a while. */
static void
client_write(struct event_base *base, SSL *cl, const void *p, size_t n, int reads)
{
	for (int tries = 0; n > 0 && tries < 200; tries++) {
		int w = SSL_write(cl, p, (int)n);
		ERR_clear_error();
		if (w > 0) {
			p = (const char *)p + w;
			n -= (size_t)w;
			continue;
		}
		event_base_loop(base, EVLOOP_NONBLOCK);
		client_step(cl, reads);
		if (gone)
			return;
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	SSL_CTX *sctx, *cctx;
	if (size < 1 || tlspair_contexts(&sctx, &cctx) != 0)
		return 0;
	static struct config cfg;
	cfg.handshake_s = 10;
	cfg.outq_kib = data[0] & 1 ? 16 : 256;
	int reads = !(data[0] & 2);
	int sv[2];
	if (tlspair_sockets(sv) != 0)
		return 0;
	struct event_base *base = event_base_new();
	struct tlsio_base *b = base ? tlsio_base_new(base) : NULL;
	SSL *cl = SSL_new(cctx);
	gone = 0;
	cur = b && cl ? tlsline_new(b, sctx, sv[0], NULL, &cfg, 1) : NULL; /* owns sv[0] */
	if (!cur) {
		if (!b)
			close(sv[0]);
		goto out;
	}
	SSL_set_fd(cl, sv[1]);
	SSL_set_connect_state(cl);
	for (int i = 0; i < 50 && !SSL_is_init_finished(cl) && !gone; i++) {
		client_step(cl, reads);
		event_base_loop(base, EVLOOP_NONBLOCK);
	}
	client_write(base, cl, upgrade, sizeof upgrade - 1, 1);
	event_base_loop(base, EVLOOP_NONBLOCK);
	client_step(cl, 1);
	/* the client's bytes, in a few writes so that frames split */
	size_t off = 1, step = size / 3 + 1;
	while (off < size && !gone) {
		size_t n = size - off < step ? size - off : step;
		client_write(base, cl, data + off, n, reads);
		off += n;
		for (int i = 0; i < 4; i++) {
			event_base_loop(base, EVLOOP_NONBLOCK);
			client_step(cl, reads);
		}
	}
	lose();
	cur->ops->free(cur); /* its stream, the server's SSL and socket */
	cur = NULL;
out:
	if (cl)
		SSL_free(cl);
	close(sv[1]);
	tlsio_base_free(b);
	if (base)
		event_base_free(base);
	return 0;
}
