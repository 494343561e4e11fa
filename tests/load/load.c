/*
 * load: a load generator for gomokud on libevent + OpenSSL. It starts the
 * real daemon on a loopback port (with limits raised for the test), then
 *   1. opens N idle TLS connections (HELLO only): handshakes per second and
 *      the daemon's RSS per held connection; then closes them and opens
 *      them again with the session each was given (its ticket): how many
 *      resumed and the daemon's CPU per such handshake;
 *   2. pairs 2*G guests into G concurrent games and plays them for S seconds:
 *      moves relayed per second and move-to-opponent latency (the time from
 *      one player's MOVE write to the opponent reading the * MOVE event,
 *      both in this process) at p50, p99 and p99.9; first saturated (every
 *      player answers at once, so latency is queueing), then paced (each
 *      player thinks think-ms before answering).
 * Figures only; never pass/fail.
 *
 *   load [-n idle-conns] [-g games] [-s seconds] [-t think-ms] [-b gomokud-binary]
 *        [-c 'config line'] (e.g. -c 'database none': no persistence)
 *        [-B bot-players]: that many more players each play a level-10 bot
 *        and answer its every move, keeping the bot workers searching while
 *        the games are measured (with -c 'bot-think-ms N' for long searches)
 *        [-W]: the games a second time with every player on a WebSocket (ALPN
 *        http/1.1, GET /ws, one text message a line), beside the TLS lines
 *        in the same run and against the same daemon
 *        [-a port:pid]: no daemon of its own, the one running there (a
 *        cluster's node, started by tests/load/cluster.c with its limits)
 *        [-z 19|20] [-r freestyle|standard] [-p letter]: the games' board,
 *        rule and players' names (l<letter><n>), so that loads on several
 *        nodes of one cluster never pair with each other
 *        [-P]: the paced games only, no saturated run first
 *        [-R port:pid]: no gomokud at all: the same G pairs of connections
 *        and the same pacing against a redis-server with TLS there, each
 *        "move" a SET answered +OK, so that a paced tail or a CPU figure of
 *        gomokud's stands beside the one this client, this machine and
 *        redis-server give in the same run (tests/load/bench_redis.sh)
 */
#include <getopt.h>
#include <stdarg.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <errno.h>
#include <event2/buffer.h>
#include <event2/event.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <netinet/tcp.h>
#include <openssl/err.h>
#include <openssl/ssl.h>

#include "daemon/tlsio.h"
#include "rules/rules.h"
#include "proto/proto.h"
#include "tests/daemon/tclient.h"
#include "tests/daemon/wsframe.h"

enum { SEQ_LEN = 120, MAX_ROOMS = 1 << 20, INFLIGHT = 200 };

struct lconn;

struct game {
	struct lconn *p[2]; /* black, white */
	int ply;
	int64_t t0; /* µs: when the last MOVE was written */
	char room[16];
	struct lconn *next; /* who moves when the think timer fires */
	struct event *think;
};

struct load {
	struct event_base *base;
	struct tlsio_base *tb; /* the daemon's own TLS stream, as a client */
	SSL_CTX *ctx;
	int port;
	struct lconn *conns;
	int nconns, started, connected, failed, ready;
	int mode; /* 0 idle, 1 games */
	/* the idle connections' TLS sessions, kept at their close to come back
	 * with (their tickets); how many handshakes resumed one */
	SSL_SESSION **sessions;
	int keep_sessions, resumed;
	int games_ready, ngames;
	int nbotplayers;     /* connections after the 2*ngames players */
	int64_t botmoves;    /* bot moves seen by them */
	struct game **rooms; /* by room number */
	char seq[SEQ_LEN][4];
	int measuring;
	int think_ms; /* 0: answer at once (saturation) */
	int ws;       /* players on WebSockets, not TLS lines */
	int redis;    /* -R: the connections speak RESP to a redis-server */
	int size;     /* the board's side */
	char tag;     /* the second letter of the players' guest names */
	char rule[16];
	int64_t moves;
	int64_t *lat;
	size_t nlat, caplat;
	struct event *tick;
};

struct lconn {
	struct load *L;
	struct tlsio *io;
	int idx;
	int up;
	int ws;                        /* 1: upgrade asked, 2: a WebSocket */
	char room[PROTO_ROOM_MAX + 1]; /* a bot player's game */
	int next;                      /* its next point in the sequence */
};

static int64_t
now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static long
rss_kib(pid_t pid)
{
	char path[64], line[256];
	snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
	FILE *f = fopen(path, "r");
	long v = -1;
	while (f && fgets(line, sizeof line, f))
		if (sscanf(line, "VmRSS: %ld", &v) == 1)
			break;
	if (f)
		fclose(f);
	return v;
}

/* A legal freestyle sequence that never ends the game (the rules core judges). */
static void
make_sequence(struct load *L)
{
	position_t p;
	pos_init(&p, RULE_FREESTYLE, L->size); /* no five: no win under standard either */
	unsigned x = 7;
	for (int i = 0; i < SEQ_LEN;) {
		x = x * 1103515245u + 12345u;
		int cx = 3 + (int)((x >> 16) % (unsigned)(L->size - 6)),
		    cy = 3 + (int)((x >> 8) % (unsigned)(L->size - 6));
		move_t m = rules_move(cx, cy);
		position_t t = p;
		if (pos_play(&t, m) != LEGAL_OK || t.outcome.kind != RESULT_ONGOING)
			continue;
		p = t;
		notation_format(m, L->size, L->seq[i++]);
	}
}

static void sendf(struct lconn *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void
sendf(struct lconn *c, const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, sizeof buf - 1, fmt, ap);
	va_end(ap);
	if (c->ws) { /* one masked text frame, no LF */
		unsigned char f[300];
		evbuffer_add(tlsio_output(c->io), f, wsf_encode(f, 1, WS_TEXT, buf, (size_t)n));
		return;
	}
	buf[n++] = '\n';
	evbuffer_add(tlsio_output(c->io), buf, (size_t)n);
}

static void connect_more(struct load *L);

static void send_move(struct lconn *c, struct game *g, const char *room);

static void
think_cb(evutil_socket_t fd, short what, void *arg)
{
	struct game *g = arg;
	(void)fd;
	(void)what;
	send_move(g->next, g, g->room);
}

static struct game *
game_of(struct load *L, const char *room)
{
	long n = strtol(room + 1, NULL, 10);
	if (n <= 0 || n >= MAX_ROOMS)
		return NULL;
	if (!L->rooms[n]) {
		struct game *g = calloc(1, sizeof *g);
		snprintf(g->room, sizeof g->room, "%s", room);
		g->think = evtimer_new(L->base, think_cb, g);
		L->rooms[n] = g;
	}
	return L->rooms[n];
}

static int
me_side(const struct game *g, const struct lconn *c)
{
	return g->p[0] == c ? 0 : g->p[1] == c ? 1 : -1;
}

static void
send_move(struct lconn *c, struct game *g, const char *room)
{
	g->t0 = now_us();
	if (c->L->redis) { /* SET <room> <ply>, as RESP */
		char buf[96], val[16];
		int vn = snprintf(val, sizeof val, "%d", g->ply);
		int n = snprintf(buf, sizeof buf, "*3\r\n$3\r\nSET\r\n$%zu\r\n%s\r\n$%d\r\n%s\r\n",
		    strlen(room), room, vn, val);
		evbuffer_add(tlsio_output(c->io), buf, (size_t)n);
		return;
	}
	sendf(c, "MOVE %s %s", room, c->L->seq[g->ply]);
}

/* -R: a reply from redis-server to c's SET: the "move" arrived; the other
 * connection of the pair answers, at once or after its think. */
static void
redis_line(struct lconn *c, const char *line, size_t n)
{
	struct load *L = c->L;
	struct game *g = L->rooms[c->idx / 2 + 1];
	if (n < 3 || memcmp(line, "+OK", 3) != 0) {
		fprintf(stderr, "load: redis: %.*s\n", (int)n, line);
		return;
	}
	if (L->measuring) {
		L->moves++;
		if (L->nlat < L->caplat)
			L->lat[L->nlat++] = now_us() - g->t0;
	}
	g->ply++;
	struct lconn *o = g->p[g->p[0] == c];
	if (L->think_ms) {
		long us = L->think_ms * 500L + (long)(rand() % (L->think_ms * 1000 + 1));
		struct timeval tv = { us / 1000000, us % 1000000 };
		g->next = o;
		evtimer_add(g->think, &tv);
	} else
		send_move(o, g, g->room);
}

/* A player against a bot: answer every bot move, start again when it ends. */
static void
bot_player_line(struct lconn *c, const proto_msg_t *m)
{
	switch (m->id) {
	case PE_SERVER:
		sendf(c, "HELLO 1 load");
		sendf(c, "GUEST bp%d", c->idx);
		sendf(c, "BOT play 10 freestyle %d none black none", c->L->size);
		break;
	case PE_START:
		snprintf(c->room, sizeof c->room, "%s", m->room);
		c->next = 0;
		sendf(c, "MOVE %s %s", c->room, c->L->seq[c->next++]);
		break;
	case PE_MOVE:
		if (m->side == SIDE_WHITE && c->next < SEQ_LEN) {
			c->L->botmoves++;
			sendf(c, "MOVE %s %s", c->room, c->L->seq[c->next++]);
		}
		break;
	case PX_ERR: /* the bot took that point: the next one */
		if (m->ecode == ERR_OCCUPIED && c->next < SEQ_LEN)
			sendf(c, "MOVE %s %s", c->room, c->L->seq[c->next++]);
		break;
	case PE_OVER:
		sendf(c, "LEAVE %s", c->room);
		sendf(c, "BOT play 10 freestyle %d none black none", c->L->size);
		break;
	default:
		break;
	}
}

static void
on_line(struct lconn *c, const char *line, size_t n)
{
	struct load *L = c->L;
	proto_msg_t m;
	if (proto_parse(line, n, PROTO_SERVER, &m, NULL, 0) != 0) {
		fprintf(stderr, "load: bad line: %.*s\n", (int)n, line);
		return;
	}
	if (L->mode == 1 && c->idx >= 2 * L->ngames) {
		bot_player_line(c, &m);
		return;
	}
	struct game *g;
	switch (m.id) {
	case PE_SERVER:
		sendf(c, "HELLO 1 load");
		if (L->mode == 1) {
			sendf(c, "GUEST l%c%d", L->ws ? 'w' : L->tag, c->idx);
			sendf(c, "SEEK %s %d none any casual none", L->rule, L->size);
		}
		break;
	case PO_HELLO:
		if (!c->up) {
			c->up = 1;
			L->connected++;
			if (SSL_session_reused(tlsio_ssl(c->io)))
				L->resumed++;
			connect_more(L);
		}
		break;
	case PE_START:
		if (!(g = game_of(L, m.room)))
			break;
		if (atoi(m.user + 2) >= L->nconns || atoi(m.user2 + 2) >= L->nconns)
			break; /* not a game of this load's players */
		g->p[0] = &L->conns[atoi(m.user + 2)];
		g->p[1] = &L->conns[atoi(m.user2 + 2)];
		if (me_side(g, c) == 0) {
			g->ply = 0;
			if (L->games_ready < L->ngames)
				L->games_ready++;
			if (L->measuring)
				send_move(c, g, m.room);
		}
		break;
	case PE_MOVE:
		if (!(g = game_of(L, m.room)))
			break;
		if (me_side(g, c) == (int)m.side)
			break; /* my own move coming back */
		g->ply++;
		if (L->measuring) {
			L->moves++;
			if (L->nlat < L->caplat)
				L->lat[L->nlat++] = now_us() - g->t0;
		}
		if (g->ply < SEQ_LEN && L->think_ms) {
			/* 50%..150% of think_ms, so games do not move in lockstep */
			long us = L->think_ms * 500L + (long)(rand() % (L->think_ms * 1000 + 1));
			struct timeval tv = { us / 1000000, us % 1000000 };
			g->next = c;
			evtimer_add(g->think, &tv);
		} else if (g->ply < SEQ_LEN)
			send_move(c, g, m.room);
		else
			sendf(c, "OFFER %s draw", m.room);
		break;
	case PE_OFFER:
		if (atoi(m.user + 2) != c->idx)
			sendf(c, "ACCEPT %s %lld", m.room, (long long)m.ident);
		break;
	case PE_OVER:
		if ((g = game_of(L, m.room)) && me_side(g, c) == 0)
			sendf(c, "OFFER %s rematch", m.room);
		break;
	case PX_ERR:
		fprintf(stderr, "load: conn %d: %.*s\n", c->idx, (int)n, line);
		break;
	default:
		break;
	}
}

/* A WebSocket's input: the 101 first, then one line per text frame. */
static void
read_ws(struct lconn *c, struct evbuffer *in)
{
	if (c->ws == 1) {
		struct evbuffer_ptr p = evbuffer_search(in, "\r\n\r\n", 4, NULL);
		if (p.pos < 0)
			return;
		char head[16] = "";
		evbuffer_copyout(in, head, sizeof head - 1);
		evbuffer_drain(in, (size_t)p.pos + 4);
		if (strncmp(head, "HTTP/1.1 101", 12) != 0) {
			fprintf(stderr, "load: upgrade refused: %s\n", head);
			return;
		}
		c->ws = 2;
	}
	for (;;) {
		size_t len = evbuffer_get_length(in), off, n;
		const unsigned char *b = evbuffer_pullup(in, (ssize_t)(len < 600 ? len : 600));
		int fin, op;
		long total = wsf_decode(b, len < 600 ? len : 600, &fin, &op, &off, &n);
		if (total <= 0)
			return;
		char line[PROTO_LINE_MAX];
		if (op == WS_TEXT && n < sizeof line) {
			memcpy(line, b + off, n);
			evbuffer_drain(in, (size_t)total);
			on_line(c, line, n);
		} else {
			evbuffer_drain(in, (size_t)total);
		}
	}
}

static void
read_cb(struct tlsio *io, void *arg)
{
	struct lconn *c = arg;
	struct evbuffer *in = tlsio_input(io);
	char buf[PROTO_LINE_MAX];
	if (c->ws) {
		read_ws(c, in);
		return;
	}
	for (;;) {
		size_t eol;
		struct evbuffer_ptr p = evbuffer_search_eol(in, NULL, &eol, EVBUFFER_EOL_LF);
		if (p.pos < 0 || (size_t)p.pos >= sizeof buf)
			return;
		evbuffer_remove(in, buf, (size_t)p.pos);
		evbuffer_drain(in, 1);
		if (c->L->redis)
			redis_line(c, buf, (size_t)p.pos);
		else
			on_line(c, buf, (size_t)p.pos);
	}
}

static void
event_cb(struct tlsio *io, int what, void *arg)
{
	struct lconn *c = arg;
	if ((what & TLSIO_UP) && c->ws) {
		static const char up[] =
		    "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
		    "Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
		    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n";
		evbuffer_add(tlsio_output(io), up, sizeof up - 1);
		return;
	}
	if ((what & TLSIO_UP) && c->L->redis) { /* no greeting in RESP */
		c->up = 1;
		c->L->connected++;
		connect_more(c->L);
		return;
	}
	if (what & (TLSIO_ERROR | TLSIO_EOF | TLSIO_TIMEOUT)) {
		tlsio_stop(io); /* freed with the others (close_all) */
		if (!c->up) {
			c->L->failed++;
			connect_more(c->L);
		}
		c->up = 0;
	}
}

static void
connect_one(struct load *L, struct lconn *c)
{
	struct sockaddr_in a = { 0 };
	a.sin_family = AF_INET;
	a.sin_port = htons((uint16_t)L->port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	SSL *ssl = SSL_new(L->ctx);
	if (L->sessions && L->sessions[c->idx])
		SSL_set_session(ssl, L->sessions[c->idx]);
	if (L->ws && L->mode == 1) {
		static const unsigned char http[] = "\x08http/1.1";
		SSL_set_alpn_protos(ssl, http, sizeof http - 1);
		c->ws = 1;
	}
	int one = 1, fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0 || setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one) != 0 ||
	    (connect(fd, (struct sockaddr *)&a, sizeof a) != 0 && errno != EINPROGRESS) ||
	    !(c->io = tlsio_connect(L->tb, ssl, fd))) {
		if (fd >= 0)
			close(fd);
		SSL_free(ssl);
		L->failed++;
		return;
	}
	tlsio_setcb(c->io, read_cb, NULL, event_cb, NULL, c);
}

/* Keeps INFLIGHT handshakes going until every connection is up. */
static void
connect_more(struct load *L)
{
	while (L->started < L->nconns && L->started - L->connected - L->failed < INFLIGHT) {
		struct lconn *c = &L->conns[L->started];
		c->L = L;
		c->idx = L->started++;
		connect_one(L, c);
	}
	if (L->connected + L->failed >= L->nconns)
		event_base_loopbreak(L->base);
}

static void
stop_cb(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	event_base_loopbreak(arg);
}

static void
run_for(struct load *L, int ms)
{
	struct event *ev = evtimer_new(L->base, stop_cb, L->base);
	struct timeval tv = { ms / 1000, (ms % 1000) * 1000 };
	evtimer_add(ev, &tv);
	event_base_dispatch(L->base);
	event_free(ev);
}

static int
cmp64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

static void
close_all(struct load *L)
{
	if (L->keep_sessions && !L->sessions)
		L->sessions = calloc((size_t)L->started, sizeof *L->sessions);
	for (int i = 0; i < L->started; i++)
		if (L->conns[i].io) {
			SSL *ssl = tlsio_ssl(L->conns[i].io);
			if (L->keep_sessions && L->sessions && !L->sessions[i] && ssl) {
				L->sessions[i] = SSL_get1_session(ssl);
				/* a close without close_notify marks the session not
				 * resumable: a client keeping its ticket says it is done */
				SSL_set_shutdown(ssl, SSL_SENT_SHUTDOWN | SSL_RECEIVED_SHUTDOWN);
			}
			tlsio_free(L->conns[i].io);
		}
	free(L->conns);
	L->conns = NULL;
	L->started = L->connected = L->failed = 0;
}

/* Runs the games for secs and prints throughput and latency. */
static void
measure(struct load *L, pid_t pid, int secs, const char *what)
{
	run_for(L, 1000); /* warm-up: let the previous phase's queue drain */
	L->moves = 0;
	L->nlat = 0;
	int64_t t = now_us();
	double cpu0 = tc_cpu_ms(pid);
	run_for(L, secs * 1000);
	double cpu = tc_cpu_ms(pid) - cpu0;
	double el = (now_us() - t) / 1e6;
	qsort(L->lat, L->nlat, sizeof *L->lat, cmp64);
	const char *games = L->redis ? "redis" : "games",
		   *done = L->redis ? "SETs answered" : "moves relayed",
		   *per = L->redis ? "SETs/s" : "moves/s",
		   *one = L->redis ? "SET answered" : "move relayed",
		   *lat = L->redis ? "SET-to-reply" : "move-to-opponent";
	printf("%s (%s): %lld %s in %.1f s with %d concurrent games: %.0f %s\n", games, what,
	    (long long)L->moves, done, el, L->games_ready, L->moves / el, per);
	if (L->moves)
		printf("%s (%s): %s CPU %.0f%% of a core, %.1f us per %s\n", games, what,
		    L->redis ? "redis-server" : "daemon", cpu / 10 / el, cpu * 1000 / L->moves,
		    one);
	if (L->nlat)
		printf("%s (%s): %s latency p50 %.3f ms, p99 %.3f ms, "
		       "p99.9 %.3f ms, max %.3f ms\n",
		    games, what, lat, L->lat[L->nlat / 2] / 1e3, L->lat[L->nlat * 99 / 100] / 1e3,
		    L->lat[L->nlat * 999 / 1000] / 1e3, L->lat[L->nlat - 1] / 1e3);
	fflush(stdout);
}

/* Opens n connections (mode 0 idle, 1 players); returns the seconds taken. */
static double
open_conns(struct load *L, int n, int mode)
{
	L->conns = calloc((size_t)n, sizeof *L->conns);
	L->nconns = n;
	L->mode = mode;
	int64_t t = now_us();
	connect_more(L);
	run_for(L, 120000);
	return (now_us() - t) / 1e6;
}

/* G games (and bot players) for secs saturated, then paced (paced_only:
 * only paced). */
static void
run_games(struct load *L, pid_t pid, int games, int botplayers, int secs, int think, int paced_only)
{
	const char *via = L->redis ? "RESP over TLS" : L->ws ? "WebSocket" : "TLS lines";
	L->rooms = calloc(MAX_ROOMS, sizeof *L->rooms);
	L->ngames = games;
	L->games_ready = 0;
	L->think_ms = 0;
	L->nbotplayers = botplayers;
	L->caplat = 20000000;
	L->lat = malloc(L->caplat * sizeof *L->lat);
	open_conns(L, 2 * games + botplayers, 1);
	if (L->redis) /* a "game" is a pair of connections taking turns */
		for (int i = 0; i < games && 2 * i + 1 < L->nconns; i++) {
			char key[16];
			snprintf(key, sizeof key, "r%d", i + 1);
			struct game *g = game_of(L, key);
			g->p[0] = &L->conns[2 * i];
			g->p[1] = &L->conns[2 * i + 1];
			L->games_ready++;
		}
	for (int i = 0; i < 100 && L->games_ready < games; i++)
		run_for(L, 100);
	printf("games over %s: %d players connected, %d games started%s\n", via, L->connected,
	    L->games_ready, botplayers ? ", and bot games keeping the bot workers busy" : "");
	/* every black opens its game, then the loop relays for secs */
	L->measuring = 1;
	if (paced_only)
		L->think_ms = think;
	for (int r = 0; r < MAX_ROOMS; r++) {
		struct game *g = L->rooms[r];
		if (g && g->p[0] && g->p[0]->io)
			send_move(g->p[0], g, g->room);
	}
	char what[96];
	snprintf(what, sizeof what, "%s, saturated, every reply at once", via);
	if (!paced_only)
		measure(L, pid, secs, what);
	L->think_ms = think;
	snprintf(what, sizeof what, "%s, paced, %d ms think on average", via, think);
	measure(L, pid, secs, what);
	L->measuring = 0;
	if (botplayers)
		printf("games: %lld bot moves made meanwhile by %d bot games\n",
		    (long long)L->botmoves, botplayers);
	close_all(L);
	for (int r = 0; r < MAX_ROOMS; r++)
		if (L->rooms[r]) {
			event_free(L->rooms[r]->think);
			free(L->rooms[r]);
		}
	free(L->rooms);
	L->rooms = NULL;
	free(L->lat);
	run_for(L, 500);
}

int
main(int argc, char **argv)
{
	int idle = 10000, games = 1000, secs = 10, think = 200, ch, size = 19;
	const char *bin = "bin/gomokud", *extra = "", *rule = "freestyle";
	int botplayers = 0, ws = 0, port = 0, paced = 0;
	pid_t pid = 0;
	char tag = 'd';
	int redis = 0;
	while ((ch = getopt(argc, argv, "n:g:s:t:b:c:B:Wa:z:r:p:PR:")) != -1) {
		switch (ch) {
		case 'n':
			idle = atoi(optarg);
			break;
		case 'g':
			games = atoi(optarg);
			break;
		case 's':
			secs = atoi(optarg);
			break;
		case 't':
			think = atoi(optarg);
			break;
		case 'b':
			bin = optarg;
			break;
		case 'c':
			extra = optarg;
			break;
		case 'B':
			botplayers = atoi(optarg);
			break;
		case 'W':
			ws = 1;
			break;
		case 'a': {
			int p, d;
			if (sscanf(optarg, "%d:%d", &p, &d) != 2 || p <= 0 || d <= 0) {
				fprintf(stderr, "load: -a wants port:pid\n");
				return 2;
			}
			port = p;
			pid = (pid_t)d;
			break;
		}
		case 'z':
			size = atoi(optarg);
			break;
		case 'r':
			rule = optarg;
			break;
		case 'p':
			tag = optarg[0];
			break;
		case 'P':
			paced = 1;
			break;
		case 'R': {
			int p, d;
			if (sscanf(optarg, "%d:%d", &p, &d) != 2 || p <= 0 || d <= 0) {
				fprintf(stderr, "load: -R wants port:pid\n");
				return 2;
			}
			port = p;
			pid = (pid_t)d;
			redis = 1;
			break;
		}
		default:
			fprintf(stderr,
			    "usage: load [-n idle] [-g games] [-s seconds] [-t think-ms] [-b "
			    "gomokud]"
			    " [-c config-line] [-B bot-players] [-W] [-a port:pid] [-z size]"
			    " [-r rule] [-p letter] [-P] [-R port:pid]\n");
			return 2;
		}
	}
	if (size < 19 || size > 20 || !(tag >= 'a' && tag <= 'z') || tag == 'w' ||
	    (strcmp(rule, "freestyle") != 0 && strcmp(rule, "standard") != 0)) {
		fprintf(stderr,
		    "load: -z 19 or 20, -r freestyle or standard, -p a letter "
		    "but w\n");
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	struct daemon d;
	memset(&d, 0, sizeof d);
	char conf[1024];
	snprintf(conf, sizeof conf,
	    "log-level info\nmax-connections %d\nmax-per-address %d\nrate-burst 1000\n"
	    "rate-per-second 1000\nidle-timeout 600\nhandshake-timeout 60\n"
	    "max-seeks-per-address %d\n%s\n",
	    idle + 2 * games + 100, idle + 2 * games + 100, games + 100, extra);
	if (port) {
		/* a daemon someone else started and stops (tests/load/cluster.c) */
		d.port = port;
		d.pid = pid;
	} else if (daemon_start(&d, bin, conf)) {
		fprintf(stderr, "load: cannot start %s\n", bin);
		return 1;
	}
	struct load L;
	memset(&L, 0, sizeof L);
	L.port = d.port;
	L.size = size;
	L.tag = tag;
	L.redis = redis;
	snprintf(L.rule, sizeof L.rule, "%s", rule);
	L.base = event_base_new();
	L.tb = tlsio_base_new(L.base);
	L.ctx = SSL_CTX_new(TLS_client_method());
	SSL_CTX_set_min_proto_version(L.ctx, TLS1_2_VERSION);
	make_sequence(&L);
	printf("load: %s %s pid %d on 127.0.0.1:%d\n", redis ? "redis-server" : "gomokud",
	    port ? "(attached)" : bin, (int)d.pid, d.port);
	if (redis)
		idle = 0; /* the games alone: the idle figures are gomokud's */

	/* 1. idle connections */
	if (idle > 0) {
		long before = rss_kib(d.pid);
		double cpu0 = tc_cpu_ms(d.pid);
		double s = open_conns(&L, idle, 0);
		double cpu = tc_cpu_ms(d.pid) - cpu0;
		sleep(1);
		long after = rss_kib(d.pid);
		printf(
		    "idle: %d of %d TLS connections up (%d failed) in %.2f s: %.0f handshakes/s\n",
		    L.connected, idle, L.failed, s, L.connected / s);
		if (L.connected)
			printf("idle: daemon CPU %.0f ms for them: %.0f us per handshake "
			       "(%.0f handshakes/s per core of server time)\n",
			    cpu, cpu * 1000 / L.connected, L.connected / (cpu / 1000));
		printf("idle: daemon RSS %ld KiB -> %ld KiB: %.1f KiB per connection\n", before,
		    after, L.connected ? (double)(after - before) / L.connected : 0.0);
		L.keep_sessions = 1;
		close_all(&L);
		run_for(&L, 500);
		/* the same clients again, each with the session (ticket) it was
		 * given: a phone coming back after a network change */
		L.resumed = 0;
		cpu0 = tc_cpu_ms(d.pid);
		s = open_conns(&L, idle, 0);
		cpu = tc_cpu_ms(d.pid) - cpu0;
		if (L.connected)
			printf(
			    "idle, back with their tickets: %d of %d resumed in %.2f s; daemon CPU "
			    "%.0f us per handshake\n",
			    L.resumed, L.connected, s, cpu * 1000 / L.connected);
		L.keep_sessions = 0;
		close_all(&L);
		for (int i = 0; i < idle; i++)
			SSL_SESSION_free(L.sessions[i]);
		free(L.sessions);
		L.sessions = NULL;
		run_for(&L, 500);
	}

	/* 2. games, over TLS lines and then (-W) over WebSockets */
	if (games > 0) {
		run_games(&L, d.pid, games, botplayers, secs, think, paced);
		if (ws) {
			L.ws = 1;
			run_games(&L, d.pid, games, botplayers, secs, think, paced);
		}
	}
	if (!port) {
		int st = daemon_stop(&d, SIGTERM, 10000);
		printf("load: daemon exit status %d\n", st);
		char cmd[200];
		snprintf(cmd, sizeof cmd, "rm -rf %s", d.dir);
		if (system(cmd) != 0)
			fprintf(stderr, "load: could not remove %s\n", d.dir);
	}
	SSL_CTX_free(L.ctx);
	tlsio_base_free(L.tb);
	event_base_free(L.base);
	return 0;
}
