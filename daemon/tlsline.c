/* tlsline.c: the TLS line transport on a tlsio stream (see tlsline.h). */
#include "daemon/tlsline.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/event.h>

#include "daemon/config.h"
#include "daemon/tlsio.h"
#include "daemon/transport.h"
#include "daemon/wsline.h"
#include "proto/proto.h"

struct tlsline {
	struct transport t; /* first: the transport is the tlsline */
	struct tlsio *io;
	const struct config *web;
	struct event *handshake; /* the handshake's total time from accept; then freed */
	int web_only;
	int reading;
	int read_s, write_s; /* the timeouts as set (tl_timeouts) */
};

static struct tlsline *
tl(struct transport *t)
{
	return (struct tlsline *)t;
}

static const struct tlsline *
ctl(const struct transport *t)
{
	return (const struct tlsline *)t;
}

/* Lines straight from the bytes just read, while the connection takes
 * them; a partial line and what follows a hold go to the input. */
static size_t
take(struct tlsio *io, const char *p, size_t n, void *arg)
{
	struct tlsline *l = arg;
	size_t used = 0;
	(void)io;

	while (l->reading && used < n) {
		const char *nl = memchr(p + used, '\n', n - used);
		size_t len = nl ? (size_t)(nl - (p + used)) : n - used;
		if (len + 1 > PROTO_LINE_MAX) {
			conn_overlong(l->t.conn); /* the end of the connection */
			return n;
		}
		if (!nl)
			break;
		int held = conn_input(l->t.conn, p + used, len);
		used += len + 1;
		if (held)
			break;
	}
	return used;
}

/* Hands every complete line in the input up while the connection takes
 * them. */
static void
read_cb(struct tlsio *io, void *arg)
{
	struct tlsline *l = arg;
	struct evbuffer *in = tlsio_input(io);
	char buf[PROTO_LINE_MAX];

	while (l->reading) {
		size_t eol;
		struct evbuffer_ptr p = evbuffer_search_eol(in, NULL, &eol, EVBUFFER_EOL_LF);
		if (p.pos < 0) {
			if (evbuffer_get_length(in) >= PROTO_LINE_MAX)
				conn_overlong(l->t.conn);
			return;
		}
		if ((size_t)p.pos + 1 > PROTO_LINE_MAX) {
			conn_overlong(l->t.conn);
			return;
		}
		evbuffer_remove(in, buf, (size_t)p.pos);
		evbuffer_drain(in, 1);
		if (conn_input(l->t.conn, buf, (size_t)p.pos))
			return;
	}
}

static void
write_cb(struct tlsio *io, void *arg)
{
	struct tlsline *l = arg;

	if (tlsio_pending(io) == 0)
		conn_drained(l->t.conn);
}

/* Whether the handshake's ALPN chose HTTP (a browser) over the lines. */
static int
chose_http(const struct tlsio *io)
{
	const unsigned char *p;
	unsigned n = 0;
	SSL_get0_alpn_selected(tlsio_ssl(io), &p, &n);
	return n == 8 && memcmp(p, "http/1.1", 8) == 0;
}

/* The stream goes on as HTTP and WebSocket (wsline.c); l is freed. */
static void
to_web(struct tlsline *l)
{
	struct conn *c = l->t.conn;
	struct transport *w = wsline_new(l->io, c, l->web);
	if (!w) {
		conn_lost(c, "out of memory");
		return;
	}
	l->io = NULL; /* the WebSocket transport's now */
	conn_switch(c, w);
}

static void
event_cb(struct tlsio *io, int what, void *arg)
{
	struct tlsline *l = arg;

	if (what & TLSIO_UP) {
		event_free(l->handshake);
		l->handshake = NULL;
		if (l->web_only || chose_http(io)) {
			to_web(l);
			return;
		}
		conn_up(l->t.conn);
		return;
	}
	if (what & TLSIO_TIMEOUT) {
		conn_timeout(l->t.conn, (what & TLSIO_WRITING) != 0);
		return;
	}
	if (what & TLSIO_ERROR) {
		char buf[160];
		const char *why = tlsio_error(io, buf, sizeof buf);
		conn_lost(l->t.conn, why ? why : "connection error");
		return;
	}
	if (what & TLSIO_EOF)
		conn_lost(l->t.conn, NULL);
}

/* The handshake's total time is up, however its bytes trickled in. */
static void
handshake_cb(evutil_socket_t fd, short what, void *arg)
{
	struct tlsline *l = arg;
	(void)fd;
	(void)what;
	conn_timeout(l->t.conn, 0);
}

static void
tl_send(struct transport *t, const char *line, size_t n)
{
	evbuffer_add(tlsio_output(tl(t)->io), line, n);
}

static size_t
tl_pending(const struct transport *t)
{
	return tlsio_pending(ctl(t)->io);
}

/* The timeouts as set, the read (idle) one only while lines go up: a
 * held connection waits for our answer, not the peer's bytes. */
static void
set_timeouts(struct tlsline *l)
{
	tlsio_timeouts(l->io, l->reading ? l->read_s : 0, l->write_s);
}

static void
tl_reading(struct transport *t, int on)
{
	struct tlsline *l = tl(t);

	l->reading = on > 0;
	if (on < 0) {                    /* closing */
		tlsio_reading(l->io, 0); /* the kernel buffers meanwhile */
		return;
	}
	set_timeouts(l);
	/* held (0): no line goes up, but reading goes on into the input, up to
	 * its mark (four lines), so the peer's close is seen at once: a player
	 * who goes while the game's start is stored is gone then */
	tlsio_reading(l->io, 1);
	if (on)
		read_cb(l->io, l); /* the lines that waited */
}

static void
tl_timeouts(struct transport *t, int read_s, int write_s)
{
	struct tlsline *l = tl(t);

	l->read_s = read_s;
	l->write_s = write_s;
	set_timeouts(l);
}

static const char *
tl_describe(const struct transport *t)
{
	return SSL_get_version(tlsio_ssl(ctl(t)->io));
}

static void
tl_stop(struct transport *t)
{
	struct tlsline *l = tl(t);

	/* a close_notify after the last line, so the peer can tell a planned
	 * close from a cut link */
	tlsio_close_notify(l->io);
	l->reading = 0;
	if (l->handshake)
		evtimer_del(l->handshake);
	tlsio_stop(l->io);
}

static void
tl_free(struct transport *t)
{
	tlsio_free(tl(t)->io);
	if (tl(t)->handshake)
		event_free(tl(t)->handshake);
	free(tl(t));
}

static const struct transport_ops tlsline_ops = {
	"tls",
	tl_send,
	tl_pending,
	tl_reading,
	tl_timeouts,
	tl_describe,
	NULL,
	tl_stop,
	tl_free,
};

struct transport *
tlsline_new(struct tlsio_base *b, SSL_CTX *ctx, int fd, struct conn *c, const struct config *web,
    int web_only)
{
	struct tlsline *l = calloc(1, sizeof *l);
	SSL *ssl = l ? SSL_new(ctx) : NULL;

	if (ssl)
		l->handshake = evtimer_new(tlsio_base_loop(b), handshake_cb, l);
	if (l && l->handshake)
		l->io = tlsio_new(b, ssl, fd);
	if (!l || !l->io) {
		if (ssl)
			SSL_free(ssl);
		if (l && l->handshake)
			event_free(l->handshake);
		close(fd);
		free(l);
		return NULL;
	}
	struct timeval hs = { web->handshake_s, 0 };
	evtimer_add(l->handshake, &hs);
	l->t.ops = &tlsline_ops;
	l->t.conn = c;
	l->web = web;
	l->web_only = web_only;
	l->reading = 1;
	tlsio_setcb(l->io, read_cb, write_cb, event_cb, web_only ? NULL : take, l);
	tlsio_read_mark(l->io, 4 * PROTO_LINE_MAX);
	return &l->t;
}
