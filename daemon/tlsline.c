/* tlsline.c: TLS line transport through bufferevent_openssl (see tlsline.h). */
#include "daemon/tlsline.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/bufferevent_ssl.h>
#include <event2/bufferevent_struct.h>
#include <event2/event.h>
#include <openssl/err.h>

#include "daemon/config.h"
#include "daemon/transport.h"
#include "daemon/wsline.h"
#include "proto/proto.h"

struct tlsline {
	struct transport t; /* first: the transport is the tlsline */
	struct bufferevent *bev;
	const struct config *web;
	struct event *handshake; /* the handshake's total time from accept */
	int web_only;
	int reading;
	int failed;          /* the link broke or the peer left: no close_notify then */
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

void
tlsline_pull(struct bufferevent *bev)
{
	SSL *ssl = bufferevent_openssl_get_ssl(bev);
	/* bufferevent_openssl reads the socket only when it is readable, so
	 * bytes OpenSSL already took off it (left when the read watermark or a
	 * disable stopped it) would wait for the peer's next write: its read
	 * event runs now instead, which reads what OpenSSL holds and no more */
	if (ssl && SSL_has_pending(ssl) && (bufferevent_get_enabled(bev) & EV_READ))
		event_active(&bev->ev_read, EV_READ, 1);
}

/* Hands every complete line up while the connection takes them. */
static void
read_cb(struct bufferevent *bev, void *arg)
{
	struct tlsline *l = arg;
	struct evbuffer *in = bufferevent_get_input(bev);
	char buf[PROTO_LINE_MAX];

	while (l->reading) {
		size_t eol;
		struct evbuffer_ptr p = evbuffer_search_eol(in, NULL, &eol, EVBUFFER_EOL_LF);
		if (p.pos < 0) {
			if (evbuffer_get_length(in) >= PROTO_LINE_MAX)
				conn_overlong(l->t.conn);
			else
				tlsline_pull(bev);
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
write_cb(struct bufferevent *bev, void *arg)
{
	struct tlsline *l = arg;

	if (evbuffer_get_length(bufferevent_get_output(bev)) == 0)
		conn_drained(l->t.conn);
}

/* Whether the handshake's ALPN chose HTTP (a browser) over the lines. */
static int
chose_http(struct bufferevent *bev)
{
	const unsigned char *p;
	unsigned n = 0;
	SSL_get0_alpn_selected(bufferevent_openssl_get_ssl(bev), &p, &n);
	return n == 8 && memcmp(p, "http/1.1", 8) == 0;
}

/* The stream goes on as HTTP and WebSocket (wsline.c); l is freed. */
static void
to_web(struct tlsline *l)
{
	struct conn *c = l->t.conn;
	struct transport *w = wsline_new(l->bev, c, l->web);
	if (!w) {
		conn_lost(c, "out of memory");
		return;
	}
	l->bev = NULL; /* the WebSocket transport's now */
	conn_switch(c, w);
}

static void
event_cb(struct bufferevent *bev, short what, void *arg)
{
	struct tlsline *l = arg;

	if (what & BEV_EVENT_CONNECTED) {
		evtimer_del(l->handshake);
		if (l->web_only || chose_http(bev)) {
			to_web(l);
			return;
		}
		conn_up(l->t.conn);
		return;
	}
	if (what & BEV_EVENT_TIMEOUT) {
		conn_timeout(l->t.conn, (what & BEV_EVENT_WRITING) != 0);
		return;
	}
	if (what & BEV_EVENT_ERROR) {
		unsigned long e = bufferevent_get_openssl_error(bev);
		char buf[160] = "connection error";
		if (e)
			ERR_error_string_n(e, buf, sizeof buf);
		while (bufferevent_get_openssl_error(bev))
			;
		l->failed = 1;
		conn_lost(l->t.conn, buf);
		return;
	}
	if (what & BEV_EVENT_EOF) {
		l->failed = 1;
		conn_lost(l->t.conn, NULL);
	}
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
	bufferevent_write(tl(t)->bev, line, n);
}

static size_t
tl_pending(const struct transport *t)
{
	return evbuffer_get_length(bufferevent_get_output(ctl(t)->bev));
}

/* The timeouts as set, the read (idle) one only while lines go up: a
 * held connection waits for our answer, not the peer's bytes. */
static void
set_timeouts(struct tlsline *l)
{
	struct timeval rd = { l->read_s, 0 }, wr = { l->write_s, 0 };

	bufferevent_set_timeouts(l->bev, l->reading ? &rd : NULL, &wr);
}

static void
tl_reading(struct transport *t, int on)
{
	struct tlsline *l = tl(t);

	l->reading = on > 0;
	if (on < 0) {                                 /* closing */
		bufferevent_disable(l->bev, EV_READ); /* the kernel buffers meanwhile */
		return;
	}
	set_timeouts(l);
	/* held (0): no line goes up, but reading goes on into the input, up to
	 * its watermark (four lines), so the peer's close is seen at once: a
	 * player who goes while the game's start is stored is gone then */
	bufferevent_enable(l->bev, EV_READ);
	if (on)
		read_cb(l->bev, l); /* the lines that waited */
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
	return SSL_get_version(bufferevent_openssl_get_ssl(ctl(t)->bev));
}

/* Ends the TLS session properly: a close_notify alert after the last line,
 * so the peer can tell a planned close from a cut link. Best effort: the
 * socket does not block, and what it cannot take now is not waited for. */
static void
close_notify(struct tlsline *l)
{
	SSL *ssl = bufferevent_openssl_get_ssl(l->bev);

	if (l->failed || !ssl || !SSL_is_init_finished(ssl))
		return;
	SSL_shutdown(ssl);
	ERR_clear_error();
}

static void
tl_stop(struct transport *t)
{
	struct tlsline *l = tl(t);

	close_notify(l);
	l->reading = 0;
	evtimer_del(l->handshake);
	bufferevent_disable(l->bev, EV_READ | EV_WRITE);
	bufferevent_setcb(l->bev, NULL, NULL, NULL, NULL);
}

static void
tl_free(struct transport *t)
{
	if (tl(t)->bev)
		bufferevent_free(tl(t)->bev);
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
tlsline_new(struct event_base *base, SSL_CTX *ctx, int fd, struct conn *c, const struct config *web,
    int web_only)
{
	struct tlsline *l = calloc(1, sizeof *l);
	SSL *ssl = l ? SSL_new(ctx) : NULL;

	if (ssl)
		l->handshake = evtimer_new(base, handshake_cb, l);
	if (l && l->handshake)
		l->bev = bufferevent_openssl_socket_new(base, fd, ssl, BUFFEREVENT_SSL_ACCEPTING,
		    BEV_OPT_CLOSE_ON_FREE | BEV_OPT_DEFER_CALLBACKS);
	if (!l || !l->bev) {
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
	bufferevent_openssl_set_allow_dirty_shutdown(l->bev, 1);
	bufferevent_setcb(l->bev, read_cb, write_cb, event_cb, l);
	bufferevent_setwatermark(l->bev, EV_READ, 0, 4 * PROTO_LINE_MAX);
	bufferevent_enable(l->bev, EV_READ | EV_WRITE);
	return &l->t;
}
