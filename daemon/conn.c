/* conn.c: a client connection above its transport: the greeting, the
 * request and chat rate buckets, the output cap, timeouts, parsing each line
 * and handing it to the command table, and its session's events out. */
#include "daemon/conn.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemon/admin.h"
#include "daemon/botplay.h"
#include "daemon/cidr.h"
#include "daemon/clock.h"
#include "daemon/cmd.h"
#include "daemon/metrics.h"
#include "daemon/core.h"
#include "daemon/gc.h"
#include "daemon/addrcount.h"
#include "daemon/session.h"
#include "daemon/tlsline.h"
#include "daemon/transport.h"

/* The connections' state: srv->conns. */
struct conns {
	struct conn_list list; /* every live connection */
	int n;
	struct conn *dead; /* killed, freed by the next gc pass */
	uint64_t next_id;
	struct { /* told when a connection goes (conns_on_gone), in order */
		conn_gone_fn *fn;
		void *arg;
	} gone[CONN_GONE_MAX];
	int ngone;
};

static void
deliver(struct sink *k, struct room *r, const proto_msg_t *m, const char *line, size_t n)
{
	struct conn *c = (struct conn *)(void *)((char *)k - offsetof(struct conn, sink));
	(void)r;
	(void)m;
	conn_send_raw(c, line, n);
}

static void
say(struct sink *k, const proto_msg_t *m)
{
	conn_send((struct conn *)(void *)((char *)k - offsetof(struct conn, sink)), m);
}

static void
drop(struct sink *k)
{
	conn_bind((struct conn *)(void *)((char *)k - offsetof(struct conn, sink)), NULL);
}

static const struct sink_ops conn_sink_ops = { deliver, say, drop };

void
conn_bind(struct conn *c, struct session *s)
{
	if (c->sess && c->sess != s)
		session_attach(c->sess, NULL, NULL, NULL);
	c->sess = s;
	if (!s)
		return;
	if (s->conn && s->conn != c) {
		struct conn *old = s->conn;
		old->sess = NULL;
		log_info(&c->srv->log, "conn %llu %s: %s taken over by conn %llu",
		    (unsigned long long)old->id, old->peer, s->name, (unsigned long long)c->id);
		conn_bye(old, "takeover", "your session continues on another connection");
	}
	session_attach(s, c, &c->sink, &c->unit);
}

void
conn_hold(struct conn *c, int64_t job)
{
	c->job = job;
	c->t->ops->reading(c->t, 0);
}

void
conn_release(struct conn *c)
{
	c->job = 0;
	if (c->dead || c->closing)
		return;
	c->t->ops->reading(c->t, 1);
}

/* The address bytes a per-address limit counts by: an IPv4 address (4
 * bytes), or an IPv6 network of ipv6-prefix bits (16, host bits cleared). */
static const void *
addr_key(const struct conn *c, size_t *len)
{
	*len = c->unit.family == AF_INET6 ? 16 : 4;
	return c->unit.net;
}

enum { WRITE_TIMEOUT_S = 30 };

static void
set_timeout(struct conn *c, int read_s)
{
	c->t->ops->timeouts(c->t, read_s, WRITE_TIMEOUT_S);
}

void
conn_accept(struct server *srv, int fd, const struct sockaddr *sa, int salen, int web)
{
	struct conn *c = calloc(1, sizeof *c);
	if (!c) {
		close(fd);
		return;
	}
	c->srv = srv;
	c->id = ++srv->conns->next_id;
	/* ::ffff:198.51.100.9 is 198.51.100.9 for the caps, bans, logs and who */
	c->addrlen = cidr_unmap(sa, (socklen_t)salen, &c->addr);
	sa = (const struct sockaddr *)&c->addr;
	cidr_addr_name(sa, c->peer, sizeof c->peer);
	cidr_unit(sa, srv->cfg.ipv6_prefix, &c->unit);
	size_t klen;
	const void *key = addr_key(c, &klen);
	int per = addrcount_add(srv->addrs, key, klen, +1);
	/* far over the limits: no handshake at all */
	if (srv->conns->n >= srv->cfg.max_conns + 64 || per > srv->cfg.max_per_addr + 16) {
		log_warn(&srv->log, "conn %s: refused, too many connections", c->peer);
		addrcount_add(srv->addrs, key, klen, -1);
		close(fd);
		free(c);
		return;
	}
	if (srv->conns->n >= srv->cfg.max_conns || per > srv->cfg.max_per_addr)
		c->reject = ERR_FULL;
	int one = 1; /* lines are small and latency matters: no Nagle */
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	if (!(c->t = tlsline_new(srv->tlsio, srv->ssl, fd, c, &srv->cfg, web))) { /* it closed fd */
		addrcount_add(srv->addrs, key, klen, -1);
		free(c);
		return;
	}
	set_timeout(c, srv->cfg.handshake_s);
	c->state = CS_HANDSHAKE;
	c->tokens = srv->cfg.rate_burst;
	c->tokens_at = clock_now_ms();
	c->chat = srv->cfg.chat_burst;
	c->chat_at = c->tokens_at;
	c->sink.ops = &conn_sink_ops;
	LIST_INSERT_HEAD(&srv->conns->list, c, link);
	srv->conns->n++;
	log_debug(&srv->log, "conn %llu %s: accepted", (unsigned long long)c->id, c->peer);
}

void
conn_send_raw(struct conn *c, const char *line, size_t n)
{
	if (c->dead || c->state == CS_HANDSHAKE)
		return;
	c->t->ops->send(c->t, line, n);
	metrics_bytes_out(c->srv->metrics, n);
	if (c->t->ops->pending(c->t) > (size_t)c->srv->cfg.outq_kib * 1024)
		conn_kill(c, "output queue over the cap (slow reader)");
}

void
conn_send(struct conn *c, const proto_msg_t *m)
{
	char line[PROTO_LINE_MAX];
	int n = proto_format(m, line, sizeof line);
	if (n < 0) {
		log_error(&c->srv->log, "conn %llu: cannot format %s", (unsigned long long)c->id,
		    proto_name(m->id));
		return;
	}
	conn_send_raw(c, line, (size_t)n);
}

void
conn_error(struct conn *c, const char *tag, int code, const char *fmt, ...)
{
	char text[PROTO_TEXT_MAX + 1] = "", out[PROTO_LINE_MAX];
	if (fmt) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(text, sizeof text, fmt, ap);
		va_end(ap);
	}
	proto_msg_t m;
	proto_error(&m, tag, (proto_err_t)code, text[0] ? text : NULL);
	metrics_error(c->srv->metrics, code);
	if (proto_format(&m, out, sizeof out) < 0) /* text not printable: drop it */
		m.text[0] = '\0';
	conn_send(c, &m);
	if (proto_err_fatal(code))
		conn_close(c);
}

void
conn_close(struct conn *c)
{
	if (c->dead || c->closing)
		return; /* lines sent while closing still go out before the end */
	c->closing = 1;
	c->t->ops->reading(c->t, -1);
	if (c->t->ops->closing)
		c->t->ops->closing(c->t);
	if (c->t->ops->pending(c->t) == 0)
		conn_kill(c, NULL);
}

void
conn_send_bye(struct conn *c, const char *reason, const char *text)
{
	proto_msg_t m;
	proto_init(&m, PE_BYE, NULL);
	snprintf(m.word, sizeof m.word, "%s", reason);
	snprintf(m.text, sizeof m.text, "%s", text ? text : "");
	conn_send(c, &m);
}

void
conn_bye(struct conn *c, const char *reason, const char *text)
{
	conn_send_bye(c, reason, text);
	conn_close(c);
}

void
conn_kill(struct conn *c, const char *why)
{
	if (c->dead)
		return;
	struct server *srv = c->srv;
	if (why)
		log_info(&srv->log, "conn %llu %s: dropped: %s", (unsigned long long)c->id, c->peer,
		    why);
	c->dead = 1;
	if (c->job > 0) /* its answer would have nowhere to go */
		workq_cancel(srv->work, c->job);
	/* everyone who holds something of c (a parked request, a watch of a
	 * room elsewhere) lets go of it */
	for (int i = 0; i < srv->conns->ngone; i++)
		srv->conns->gone[i].fn(srv->conns->gone[i].arg, c);
	c->job = 0;
	c->t->ops->stop(c->t);
	LIST_REMOVE(c, link);
	srv->conns->n--;
	c->dead_next = srv->conns->dead;
	srv->conns->dead = c;
	gc_soon(srv->gc);
}

void
conn_free(struct conn *c)
{
	size_t klen;
	const void *key = addr_key(c, &klen);
	addrcount_add(c->srv->addrs, key, klen, -1);
	if (c->sess) {
		struct session *s = c->sess;
		session_attach(s, NULL, NULL, NULL);
		c->sess = NULL;
		session_disconnected(s);
	}
	c->t->ops->free(c->t);
	free(c);
}

static int
take_token(double *tokens, int64_t *at, double burst, double per_ms)
{
	int64_t now = clock_now_ms();
	*tokens += (double)(now - *at) * per_ms;
	if (*tokens > burst)
		*tokens = burst;
	*at = now;
	if (*tokens < 1.0)
		return 0;
	*tokens -= 1.0;
	return 1;
}

int
conn_chat_ok(struct conn *c)
{
	const struct config *cfg = &c->srv->cfg;
	int ok = take_token(&c->chat, &c->chat_at, cfg->chat_burst,
	    (double)cfg->chat_burst / (cfg->chat_window_s * 1000.0));
	if (!ok)
		metrics_rate_limited(c->srv->metrics, METRIC_RATE_CHAT);
	return ok;
}

void
conn_switch(struct conn *c, struct transport *t)
{
	struct transport *old = c->t;
	c->t = t;
	old->ops->free(old);
}

int
conn_refused(const struct conn *c)
{
	return c->reject != 0;
}

void
conn_up(struct conn *c)
{
	metrics_handshake(c->srv->metrics, c->t->ops->name); /* a refused one too */
	if (c->reject) {
		c->state = CS_GREETED;
		conn_error(c, NULL, c->reject, "too many connections");
		conn_close(c);
		return;
	}
	c->state = CS_GREETED;
	set_timeout(c, c->srv->cfg.idle_s);
	proto_msg_t m;
	proto_init(&m, PE_SERVER, NULL);
	snprintf(m.word, sizeof m.word, "gomokud");
	snprintf(m.word2, sizeof m.word2, "%s", GOMOKUD_VERSION);
	m.version = PROTO_VERSION;
	/* only what this server serves: no accounts or history without a store */
	char fallback[64 + 8 * 18] = "", engines[8 * 18] = "";
	if (c->srv->botplay) { /* SEEK ... bot: how long a seek waits for a human */
		botplay_engines(c->srv->botplay, engines, sizeof engines);
		snprintf(fallback, sizeof fallback, " bots bot-fallback=%d%s%s%s%s%s",
		    c->srv->cfg.bot_fallback_s, c->srv->analysis ? " analysis" : "",
		    c->srv->reviews ? " review" : "", c->srv->puzzles ? " puzzles" : "",
		    engines[0] ? " engines=" : "", engines);
	}
	/* a bot account's connections at once (PROTOCOL.md 5.22) */
	char accounts[80] = "";
	if (c->srv->store)
		snprintf(accounts, sizeof accounts,
		    " accounts history ratings remember botaccounts botconns=%d",
		    c->srv->cfg.bot_max_conns);
	snprintf(m.text, sizeof m.text, "%s%s%s%s%s", GOMOKUD_CAPS, accounts, fallback,
	    c->srv->tourneys ? " tournaments" : "", c->srv->leagues ? " league" : "");
	conn_send(c, &m);
	const char *motd = admin_motd(c->srv->admin);
	if (motd) { /* PROTOCOL.md section 3: right after the greeting */
		proto_init(&m, PE_MOTD, NULL);
		snprintf(m.text, sizeof m.text, "%s", motd);
		conn_send(c, &m);
	}
	log_debug(&c->srv->log, "conn %llu %s: up (%s)", (unsigned long long)c->id, c->peer,
	    c->t->ops->describe(c->t));
}

int
conn_input(struct conn *c, const char *buf, size_t n)
{
	const struct config *cfg = &c->srv->cfg;
	proto_msg_t m;
	char err[128];
	metrics_line_begin(c->srv->metrics);
	metrics_bytes_in(c->srv->metrics, n + 1);
	int rc = proto_parse(buf, n, PROTO_CLIENT, &m, err, sizeof err);
	if (!take_token(&c->tokens, &c->tokens_at, cfg->rate_burst, cfg->rate_per_s / 1000.0)) {
		metrics_rate_limited(c->srv->metrics, METRIC_RATE_LINES);
		conn_error(c, m.tag, ERR_RATE, "at most %d lines a second", cfg->rate_per_s);
	} else if (rc) {
		conn_error(c, m.tag, rc, "%s", err);
	} else {
		cmd_dispatch(c, &m);
	}
	metrics_line_end(c->srv->metrics);
	return c->dead || c->closing || c->job;
}

void
conn_overlong(struct conn *c)
{
	conn_error(c, NULL, ERR_TOO_LONG, "lines are at most %d bytes", PROTO_LINE_MAX);
}

void
conn_drained(struct conn *c)
{
	if (c->closing)
		conn_kill(c, NULL);
}

void
conn_timeout(struct conn *c, int writing)
{
	if (c->state == CS_HANDSHAKE)
		conn_kill(c, "TLS handshake timeout");
	else if (c->closing || writing)
		conn_kill(c, "write timeout");
	else
		conn_error(c, NULL, ERR_IDLE, "closed after %d s of silence", c->srv->cfg.idle_s);
}

void
conn_overfull(struct conn *c)
{
	conn_kill(c, "output queue over the cap past its deadline (slow reader)");
}

void
conn_lost(struct conn *c, const char *why)
{
	/* a failed handshake is worth a line; a peer going away is not */
	conn_kill(c, c->state == CS_HANDSHAKE ? why : NULL);
}

struct conns *
conns_new(void)
{
	struct conns *cs = calloc(1, sizeof *cs);
	if (cs)
		LIST_INIT(&cs->list);
	return cs;
}

int
conns_gc(struct server *srv)
{
	int freed = 0;
	while (srv->conns->dead) {
		struct conn *c = srv->conns->dead;
		srv->conns->dead = c->dead_next;
		conn_free(c);
		freed = 1;
	}
	return freed;
}

void
conns_free(struct server *srv)
{
	if (!srv->conns)
		return;
	while (!LIST_EMPTY(&srv->conns->list))
		conn_kill(LIST_FIRST(&srv->conns->list), NULL);
	conns_gc(srv);
	free(srv->conns);
	srv->conns = NULL;
}

int
conns_on_gone(struct server *srv, conn_gone_fn *fn, void *arg)
{
	struct conns *cs = srv->conns;
	if (cs->ngone == CONN_GONE_MAX)
		return -1;
	cs->gone[cs->ngone].fn = fn;
	cs->gone[cs->ngone++].arg = arg;
	return 0;
}

struct conn *
conns_first(struct server *srv)
{
	return LIST_FIRST(&srv->conns->list);
}

struct conn *
conns_next(struct conn *c)
{
	return LIST_NEXT(c, link);
}

int
conns_count(const struct server *srv)
{
	return srv->conns->n;
}
