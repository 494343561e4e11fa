/*
 * net.c: TLS connection with certificate policy, line framing, backoff.
 */
#include "client/net.h"
#include "client/i18n.h"
#include "proto/keyprint.h"

#include <arpa/inet.h>
#include <errno.h>
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
#include <openssl/evp.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include "client/pin.h"
#include "proto/proto.h"

struct net {
	struct event_base *base;
	net_opts_t o;
	char pin_path[512];
	net_cbs_t cb;
	void *arg;
	SSL_CTX *ctx;
	struct bufferevent *bev;
	struct event *retry, *guard; /* guard: connect/greeting deadline */
	int up, backoff, heard;
	struct addrinfo *ai, *ai_next; /* addresses left to try */
	char hostport[320];
	char host[256], port[16]; /* after net_move: o.host and o.port point here */
};

static void
set_err(char *err, size_t len, const char *what)
{
	unsigned long e = ERR_get_error();
	if (e)
		snprintf(err, len, "%s: %s", what, ERR_reason_error_string(e));
	else
		snprintf(err, len, "%s", what);
}

static void guard_cb(evutil_socket_t fd, short ev, void *arg);

static void
retry_cb(evutil_socket_t fd, short ev, void *arg)
{
	(void)fd;
	(void)ev;
	net_connect(arg);
}

net_t *
net_new(struct event_base *base, const net_opts_t *o, const net_cbs_t *cb, void *arg, char *err,
    size_t errlen)
{
	net_t *n = calloc(1, sizeof *n);
	if (!n) {
		snprintf(err, errlen, "%s", TR("main.nomem", "out of memory"));
		return NULL;
	}
	n->base = base;
	n->o = *o;
	n->cb = *cb;
	n->arg = arg;
	if (strchr(o->host, ':'))
		snprintf(n->hostport, sizeof n->hostport, "[%s]:%s", o->host, o->port);
	else
		snprintf(n->hostport, sizeof n->hostport, "%s:%s", o->host, o->port);
	if (o->pin_file)
		snprintf(n->pin_path, sizeof n->pin_path, "%s", o->pin_file);
	else if (pin_default_path(n->pin_path, sizeof n->pin_path) != 0)
		n->pin_path[0] = '\0';
	n->ctx = SSL_CTX_new(TLS_client_method());
	if (!n->ctx) {
		set_err(err, errlen, TR("net.tls_context", "cannot set up TLS"));
		goto fail;
	}
	SSL_CTX_set_min_proto_version(n->ctx, TLS1_2_VERSION);
	/* The handshake always completes; the policy is applied in event_cb,
	 * where a self-signed server can still be pinned. */
	SSL_CTX_set_verify(n->ctx, SSL_VERIFY_NONE, NULL);
	if (o->ca_file) {
		if (SSL_CTX_load_verify_locations(n->ctx, o->ca_file, NULL) != 1) {
			set_err(err, errlen, TR("net.ca", "cannot load the --ca file"));
			goto fail;
		}
	} else {
		SSL_CTX_set_default_verify_paths(n->ctx);
	}
	n->retry = evtimer_new(base, retry_cb, n);
	n->guard = evtimer_new(base, guard_cb, n);
	if (!n->retry || !n->guard) {
		snprintf(err, errlen, "%s", TR("main.nomem", "out of memory"));
		goto fail;
	}
	return n;
fail:
	net_free(n);
	return NULL;
}

static void
drop(net_t *n)
{
	if (n->bev) {
		bufferevent_free(n->bev); /* frees the SSL and closes the socket */
		n->bev = NULL;
	}
	n->up = 0;
}

void
net_free(net_t *n)
{
	if (!n)
		return;
	drop(n);
	if (n->retry)
		event_free(n->retry);
	if (n->guard)
		event_free(n->guard);
	if (n->ai)
		freeaddrinfo(n->ai);
	if (n->ctx)
		SSL_CTX_free(n->ctx);
	free(n);
}

int
net_is_up(const net_t *n)
{
	return n->up;
}

static void
down(net_t *n, int fatal, const char *why)
{
	evtimer_del(n->guard);
	drop(n);
	n->cb.down(n->arg, fatal, why);
}

static void
guard_cb(evutil_socket_t fd, short ev, void *arg)
{
	net_t *n = arg;
	char why[400];
	(void)fd;
	(void)ev;
	if (!n->up)
		snprintf(
		    why, sizeof why, TR("net.timeout", "timed out connecting to %s"), n->hostport);
	else
		snprintf(why, sizeof why,
		    TR("net.silent",
			"%s sent nothing after the TLS handshake (not a gomokud server?)"),
		    n->hostport);
	down(n, 0, why);
}

/* Applies the certificate policy. Returns 0 to go on, or -1 with why. */
static int
check_peer(net_t *n, char *why, size_t len)
{
	if (n->o.insecure)
		return 0;
	SSL *ssl = bufferevent_openssl_get_ssl(n->bev);
	X509 *cert = SSL_get1_peer_certificate(ssl);
	if (!cert) {
		snprintf(why, len, "%s", TR("net.nocert", "the server sent no certificate"));
		return -1;
	}
	long vr = SSL_get_verify_result(ssl);
	if (vr == X509_V_OK) {
		X509_free(cert);
		return 0;
	}
	if (n->o.ca_file) {
		snprintf(why, len,
		    TR("net.untrusted_ca", "certificate of %s not trusted by --ca %s: %s"),
		    n->hostport, n->o.ca_file, X509_verify_cert_error_string(vr));
		X509_free(cert);
		return -1;
	}
	char fp[128], old[256] = "";
	int r = keyprint(cert, fp, sizeof fp);
	X509_free(cert);
	if (r != 0) {
		snprintf(why, len, "%s", TR("net.nokey", "cannot read the server's public key"));
		return -1;
	}
	if (!n->pin_path[0]) {
		snprintf(why, len,
		    TR("net.nohome", "certificate not trusted (%s) and no HOME to keep a pin in"),
		    X509_verify_cert_error_string(vr));
		return -1;
	}
	switch (pin_check(n->pin_path, n->hostport, fp, old, sizeof old)) {
	case PIN_MATCH:
		return 0;
	case PIN_NEW: {
		if (pin_add(n->pin_path, n->hostport, fp) != 0) {
			snprintf(why, len, TR("net.pin_write", "cannot write the pin file %s"),
			    n->pin_path);
			return -1;
		}
		char msg[4096];
		/* the fingerprint on a line of its own: the same string gomokud logs */
		snprintf(msg, sizeof msg,
		    TR("net.pin_new",
			"WARNING: first connection to %s: its certificate is not signed by a CA "
			"you "
			"trust (%s).\nThe server's key fingerprint is\n%s\nCompare it with the "
			"one its operator publishes (gomokud logs it when it starts). It is now "
			"pinned in %s; if it does not match, quit now."),
		    n->hostport, X509_verify_cert_error_string(vr), fp, n->pin_path);
		n->cb.notice(n->arg, msg);
		return 0;
	}
	case PIN_CHANGED:
		snprintf(why, len,
		    TR("net.pin_changed",
			"@@@ WARNING: THE SERVER KEY OF %s HAS CHANGED! @@@ "
			"Someone may be intercepting the connection, or the server got a new key. "
			"Pinned %s, offered %s. Refusing to connect; if the change is expected, "
			"remove the line for %s from %s."),
		    n->hostport, old, fp, n->hostport, n->pin_path);
		return -1;
	case PIN_ERROR:
	default:
		snprintf(why, len, TR("net.pin_read", "cannot read the pin file %s"), n->pin_path);
		return -1;
	}
}

static void
read_cb(struct bufferevent *bev, void *arg)
{
	net_t *n = arg;
	struct evbuffer *in = bufferevent_get_input(bev);
	char line[PROTO_LINE_MAX + 1];
	while (n->bev == bev) {
		struct evbuffer_ptr p = evbuffer_search_eol(in, NULL, NULL, EVBUFFER_EOL_LF);
		if (p.pos < 0) {
			if (evbuffer_get_length(in) >= PROTO_LINE_MAX)
				down(n, 0,
				    TR("net.long_line",
					"the server sent a line over 512 bytes; disconnected"));
			return;
		}
		if ((size_t)p.pos + 1 > PROTO_LINE_MAX) {
			down(n, 0,
			    TR("net.long_line",
				"the server sent a line over 512 bytes; disconnected"));
			return;
		}
		evbuffer_remove(in, line, (size_t)p.pos + 1);
		line[p.pos] = '\0';
		if (!n->heard) {
			n->heard = 1;
			evtimer_del(n->guard);
		}
		n->cb.line(n->arg, line, (size_t)p.pos);
	}
}

static void try_connect(net_t *n);

static void
event_cb(struct bufferevent *bev, short what, void *arg)
{
	net_t *n = arg;
	(void)bev;
	char why[4096];
	if (what & BEV_EVENT_CONNECTED) {
		if (check_peer(n, why, sizeof why) != 0) {
			down(n, 1, why);
			return;
		}
		n->up = 1;
		n->cb.up(n->arg);
		return;
	}
	if (!(what & (BEV_EVENT_EOF | BEV_EVENT_ERROR)))
		return;
	if (!n->up && n->ai_next) {
		/* this address failed; try the next one */
		drop(n);
		try_connect(n);
		return;
	}
	size_t left = evbuffer_get_length(bufferevent_get_input(n->bev));
	unsigned long e = bufferevent_get_openssl_error(n->bev);
	int serr = EVUTIL_SOCKET_ERROR();
	if (!n->up && serr && serr != EAGAIN)
		snprintf(why, sizeof why, TR("net.connect_err", "cannot connect to %s: %s"),
		    n->hostport, evutil_socket_error_to_string(serr));
	else if (!n->up && e)
		snprintf(why, sizeof why, TR("net.tls_failed", "TLS handshake with %s failed: %s"),
		    n->hostport, ERR_reason_error_string(e));
	else if (!n->up)
		snprintf(why, sizeof why,
		    TR("net.tls_closed", "cannot connect to %s: closed during the TLS handshake"),
		    n->hostport);
	else if (left)
		snprintf(why, sizeof why,
		    TR("net.partial",
			"connection lost in the middle of a line (%zu bytes discarded)"),
		    left);
	else if (what & BEV_EVENT_EOF)
		snprintf(
		    why, sizeof why, "%s", TR("net.closed", "the server closed the connection"));
	else if (e)
		snprintf(why, sizeof why, TR("net.lost", "connection lost: %s"),
		    ERR_reason_error_string(e));
	else
		snprintf(why, sizeof why, TR("net.lost", "connection lost: %s"),
		    evutil_socket_error_to_string(serr));
	down(n, 0, why);
}

static void
try_connect(net_t *n)
{
	struct addrinfo *a = n->ai_next;
	n->ai_next = a->ai_next;
	SSL *ssl = SSL_new(n->ctx);
	if (!ssl) {
		down(n, 1, TR("net.no_session", "cannot create a TLS session"));
		return;
	}
	struct in6_addr ip;
	int literal = inet_pton(AF_INET, n->o.host, &ip) == 1 ||
	    inet_pton(AF_INET6, n->o.host, &ip) == 1;
	X509_VERIFY_PARAM *vp = SSL_get0_param(ssl);
	if (literal) {
		X509_VERIFY_PARAM_set1_ip_asc(vp, n->o.host);
	} else {
		SSL_set_tlsext_host_name(ssl, n->o.host);
		SSL_set1_host(ssl, n->o.host);
	}
	n->bev = bufferevent_openssl_socket_new(
	    n->base, -1, ssl, BUFFEREVENT_SSL_CONNECTING, BEV_OPT_CLOSE_ON_FREE);
	if (!n->bev) {
		SSL_free(ssl);
		down(n, 1, TR("net.no_conn", "cannot create a connection"));
		return;
	}
	bufferevent_openssl_set_allow_dirty_shutdown(n->bev, 1);
	bufferevent_setcb(n->bev, read_cb, NULL, event_cb, n);
	bufferevent_enable(n->bev, EV_READ | EV_WRITE);
	if (bufferevent_socket_connect(n->bev, a->ai_addr, (int)a->ai_addrlen) != 0) {
		if (n->ai_next) {
			drop(n);
			try_connect(n);
		} else {
			down(n, 0, TR("net.cannot", "cannot connect"));
		}
	}
}

int
net_connect(net_t *n)
{
	drop(n);
	if (n->ai)
		freeaddrinfo(n->ai);
	n->ai = NULL;
	struct addrinfo hints = { 0 };
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	int r = getaddrinfo(n->o.host, n->o.port, &hints, &n->ai);
	if (r != 0) {
		char why[512];
		snprintf(why, sizeof why, TR("net.resolve", "cannot resolve %s: %s"), n->o.host,
		    gai_strerror(r));
		n->ai = NULL;
		down(n, 0, why);
		return -1;
	}
	n->ai_next = n->ai;
	n->heard = 0;
	struct timeval tv = { n->o.timeout > 0 ? n->o.timeout : 20, 0 };
	evtimer_add(n->guard, &tv);
	try_connect(n);
	return 0;
}

int
net_reconnect_later(net_t *n)
{
	n->backoff = n->backoff ? n->backoff * 2 : 1;
	if (n->backoff > 30)
		n->backoff = 30;
	struct timeval tv = { n->backoff, 0 };
	evtimer_add(n->retry, &tv);
	return n->backoff;
}

void
net_backoff_reset(net_t *n)
{
	n->backoff = 0;
}

int
net_send(net_t *n, const char *line, size_t len)
{
	if (!n->up || !n->bev)
		return -1;
	struct evbuffer *out = bufferevent_get_output(n->bev);
	evbuffer_add(out, line, len);
	if (len == 0 || line[len - 1] != '\n')
		evbuffer_add(out, "\n", 1);
	return 0;
}

void
net_close(net_t *n)
{
	evtimer_del(n->retry);
	evtimer_del(n->guard);
	drop(n);
}

int
net_move(net_t *n, const char *hostport)
{
	const char *colon = strrchr(hostport, ':'), *h = hostport;
	size_t hl = colon ? (size_t)(colon - hostport) : 0;
	if (hl >= 2 && h[0] == '[' && h[hl - 1] == ']') {
		h++;
		hl -= 2;
	}
	if (!colon || hl == 0 || hl >= sizeof n->host || !colon[1] ||
	    strlen(colon + 1) >= sizeof n->port ||
	    strspn(colon + 1, "0123456789") != strlen(colon + 1))
		return -1;
	memcpy(n->host, h, hl);
	n->host[hl] = '\0';
	snprintf(n->port, sizeof n->port, "%s", colon + 1);
	n->o.host = n->host;
	n->o.port = n->port;
	if (strchr(n->host, ':'))
		snprintf(n->hostport, sizeof n->hostport, "[%s]:%s", n->host, n->port);
	else
		snprintf(n->hostport, sizeof n->hostport, "%s:%s", n->host, n->port);
	/* closed now; connected on the next loop turn, since this may run
	 * inside the old connection's read callback */
	net_close(n);
	n->backoff = 0;
	struct timeval now = { 0, 0 };
	evtimer_add(n->retry, &now);
	return 0;
}

const char *
net_where(const net_t *n)
{
	return n->hostport;
}
