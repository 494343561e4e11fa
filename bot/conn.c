/*
 * conn.c: gomoku-bot's TLS connection.
 */
#include "bot/conn.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/bufferevent_ssl.h>
#include <event2/event.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include "proto/keyprint.h"
#include "proto/proto.h"

struct conn {
	struct event_base *base;
	conn_opts_t o;
	conn_cbs_t cb;
	void *arg;
	SSL_CTX *ctx;
	struct bufferevent *bev;
	struct event *guard; /* connect and first-line deadline */
	int up, heard;
	struct addrinfo *ai, *next;
};

static void
drop(conn_t *c)
{
	if (c->bev)
		bufferevent_free(c->bev);
	c->bev = NULL;
	c->up = 0;
	if (c->guard)
		evtimer_del(c->guard);
}

static void
down(conn_t *c, int fatal, const char *why)
{
	drop(c);
	c->cb.down(c->arg, fatal, why);
}

static void
guard_cb(evutil_socket_t fd, short ev, void *arg)
{
	(void)fd;
	(void)ev;
	conn_t *c = arg;
	down(c, 0, c->up ? "no greeting from the server" : "timed out connecting");
}

conn_t *
conn_new(struct event_base *base, const conn_opts_t *o, const conn_cbs_t *cb, void *arg, char *err,
    size_t errlen)
{
	conn_t *c = calloc(1, sizeof *c);
	if (!c) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	c->base = base;
	c->o = *o;
	c->cb = *cb;
	c->arg = arg;
	c->ctx = SSL_CTX_new(TLS_client_method());
	c->guard = evtimer_new(base, guard_cb, c);
	if (!c->ctx || !c->guard) {
		snprintf(err, errlen, "cannot set up TLS");
		conn_free(c);
		return NULL;
	}
	SSL_CTX_set_min_proto_version(c->ctx, TLS1_2_VERSION);
	/* the policy is applied once connected (check_peer) */
	SSL_CTX_set_verify(c->ctx, SSL_VERIFY_NONE, NULL);
	if (o->ca && *o->ca) {
		if (SSL_CTX_load_verify_locations(c->ctx, o->ca, NULL) != 1) {
			snprintf(err, errlen, "cannot load the CA file %s", o->ca);
			conn_free(c);
			return NULL;
		}
	} else {
		SSL_CTX_set_default_verify_paths(c->ctx);
	}
	return c;
}

void
conn_free(conn_t *c)
{
	if (!c)
		return;
	drop(c);
	if (c->guard)
		event_free(c->guard);
	if (c->ai)
		freeaddrinfo(c->ai);
	if (c->ctx)
		SSL_CTX_free(c->ctx);
	free(c);
}

int
conn_up(const conn_t *c)
{
	return c->up;
}

/* The certificate policy: 0, or -1 with why. */
static int
check_peer(conn_t *c, char *why, size_t len)
{
	if (c->o.insecure)
		return 0;
	SSL *ssl = bufferevent_openssl_get_ssl(c->bev);
	X509 *cert = SSL_get1_peer_certificate(ssl);
	if (!cert) {
		snprintf(why, len, "the server sent no certificate");
		return -1;
	}
	int pinned = c->o.pin && *c->o.pin;
	int ca = c->o.ca && *c->o.ca;
	long vr = SSL_get_verify_result(ssl);
	if ((ca || !pinned) && vr != X509_V_OK) {
		snprintf(why, len, "the server's certificate is not trusted by %s: %s",
		    ca ? c->o.ca : "the system's CA store", X509_verify_cert_error_string(vr));
		X509_free(cert);
		return -1;
	}
	if (pinned) {
		char fp[KEYPRINT_LEN];
		int r = keyprint(cert, fp, sizeof fp);
		if (r != 0 || strcmp(fp, c->o.pin) != 0) {
			snprintf(why, len, "the server's key %s is not the pinned %s",
			    r ? "(unreadable)" : fp, c->o.pin);
			X509_free(cert);
			return -1;
		}
	}
	X509_free(cert);
	return 0;
}

static void
read_cb(struct bufferevent *bev, void *arg)
{
	conn_t *c = arg;
	struct evbuffer *in = bufferevent_get_input(bev);
	char line[PROTO_LINE_MAX + 1];
	while (c->bev == bev) {
		struct evbuffer_ptr p = evbuffer_search_eol(in, NULL, NULL, EVBUFFER_EOL_LF);
		if (p.pos < 0) {
			if (evbuffer_get_length(in) >= PROTO_LINE_MAX)
				down(c, 0, "the server sent a line over 512 bytes");
			return;
		}
		if ((size_t)p.pos + 1 > PROTO_LINE_MAX) {
			down(c, 0, "the server sent a line over 512 bytes");
			return;
		}
		evbuffer_remove(in, line, (size_t)p.pos + 1);
		line[p.pos] = '\0';
		if (!c->heard) {
			c->heard = 1;
			evtimer_del(c->guard);
		}
		c->cb.line(c->arg, line, (size_t)p.pos);
	}
}

static void try_next(conn_t *c);

static void
event_cb(struct bufferevent *bev, short what, void *arg)
{
	(void)bev;
	conn_t *c = arg;
	char why[1024];
	if (what & BEV_EVENT_CONNECTED) {
		if (check_peer(c, why, sizeof why) != 0) {
			down(c, 1, why);
			return;
		}
		c->up = 1;
		return;
	}
	if (!(what & (BEV_EVENT_EOF | BEV_EVENT_ERROR)))
		return;
	if (!c->up && c->next) {
		drop(c);
		try_next(c);
		return;
	}
	unsigned long e = bufferevent_get_openssl_error(c->bev);
	if (!c->up)
		snprintf(why, sizeof why, "cannot connect to %s:%s: %s", c->o.host, c->o.port,
		    e ? ERR_reason_error_string(e)
		      : evutil_socket_error_to_string(EVUTIL_SOCKET_ERROR()));
	else if (what & BEV_EVENT_EOF)
		snprintf(why, sizeof why, "the server closed the connection");
	else
		snprintf(why, sizeof why, "connection lost: %s",
		    e ? ERR_reason_error_string(e)
		      : evutil_socket_error_to_string(EVUTIL_SOCKET_ERROR()));
	down(c, 0, why);
}

static void
try_next(conn_t *c)
{
	struct addrinfo *a = c->next;
	c->next = a->ai_next;
	SSL *ssl = SSL_new(c->ctx);
	if (!ssl) {
		down(c, 1, "cannot create a TLS session");
		return;
	}
	struct in6_addr ip;
	X509_VERIFY_PARAM *vp = SSL_get0_param(ssl);
	if (inet_pton(AF_INET, c->o.host, &ip) == 1 || inet_pton(AF_INET6, c->o.host, &ip) == 1) {
		X509_VERIFY_PARAM_set1_ip_asc(vp, c->o.host);
	} else {
		SSL_set_tlsext_host_name(ssl, c->o.host);
		SSL_set1_host(ssl, c->o.host);
	}
	c->bev = bufferevent_openssl_socket_new(
	    c->base, -1, ssl, BUFFEREVENT_SSL_CONNECTING, BEV_OPT_CLOSE_ON_FREE);
	if (!c->bev) {
		SSL_free(ssl);
		down(c, 1, "cannot create a connection");
		return;
	}
	bufferevent_openssl_set_allow_dirty_shutdown(c->bev, 1);
	bufferevent_setcb(c->bev, read_cb, NULL, event_cb, c);
	bufferevent_enable(c->bev, EV_READ | EV_WRITE);
	if (bufferevent_socket_connect(c->bev, a->ai_addr, (int)a->ai_addrlen) != 0) {
		if (c->next) {
			drop(c);
			try_next(c);
		} else {
			down(c, 0, "cannot connect");
		}
	}
}

void
conn_open(conn_t *c)
{
	drop(c);
	if (c->ai)
		freeaddrinfo(c->ai);
	c->ai = NULL;
	struct addrinfo hints = { 0 };
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	int r = getaddrinfo(c->o.host, c->o.port, &hints, &c->ai);
	if (r != 0) {
		char why[512];
		snprintf(why, sizeof why, "cannot resolve %s: %s", c->o.host, gai_strerror(r));
		c->ai = NULL;
		c->cb.down(c->arg, 0, why);
		return;
	}
	c->next = c->ai;
	c->heard = 0;
	struct timeval tv = { c->o.timeout_s > 0 ? c->o.timeout_s : 20, 0 };
	evtimer_add(c->guard, &tv);
	try_next(c);
}

int
conn_send(conn_t *c, const char *line, size_t len)
{
	if (!c->up || !c->bev)
		return -1;
	struct evbuffer *out = bufferevent_get_output(c->bev);
	evbuffer_add(out, line, len);
	if (len == 0 || line[len - 1] != '\n')
		evbuffer_add(out, "\n", 1);
	return 0;
}

void
conn_close(conn_t *c)
{
	drop(c);
}
