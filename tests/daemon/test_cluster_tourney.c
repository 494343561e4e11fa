/*
 * test_cluster_tourney.c: a tournament on a cluster (issue 48, item 3).
 * Two gomokud nodes on one Redis and one PostgreSQL database, both
 * started by the test (tests/pg/test_pg.sh's server, GOMOKU_PG_URL;
 * redisrun.c's redis-server), real daemons and TLS clients:
 * - an account creates a round robin of four on one node; one node takes
 *   the event's lease and runs it (its log says so), the other answers
 *   for it: two players join through it and stay there, a guest follows
 *   the event there and sees every pairing, game and result the running
 *   node makes; round 1's games start on the running node, and the
 *   players of the other node are sent there (* MOVED);
 * - mid-round 1, each game with its stones, the running node is killed
 *   (-9); the other takes the event over (its log), adopts the games, the
 *   players RESUME there and finish round 1, and it pairs rounds 2 and 3
 *   (each once: two pairings a round) and ends the event;
 * - the standings are the results', on the follower's node.
 * Only under tests/pg/test_pg.sh, in the cluster's pass: without
 * PostgreSQL or redis-server it fails (never a skip). Every process it
 * started is stopped by its pid, also on failure (tclient.h, tc_child).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/daemon/check.h"
#include "tests/daemon/redisrun.h"
#include "tests/daemon/tclient.h"

#ifndef GOMOKUD_BIN
#define GOMOKUD_BIN "bin/gomokud"
#endif

enum { NODES = 2, WAIT_MS = 8000, ADOPT_MS = 30000, EVENT_MS = 60000, NGAMES = 16 };

static struct daemon node[NODES];
static struct redisrun redis;
static char db[256];

static const struct redis_nodes cl = { GOMOKUD_BIN, &redis, node, db, NULL, NULL };

/* The pairings and results a follower saw, by (round, board). */
struct seen {
	int n, over;
	struct {
		int round, board;
		char room[24], first[24], second[24], result[24];
	} g[NGAMES];
};

static void
take(struct seen *s, long id, const char *l)
{
	long tid;
	int round, board;
	char room[24], first[24], second[24], result[24], kind[16], state[16];
	if (sscanf(l, "* TGAME %ld %d %d %23s %23s %23s %23s", &tid, &round, &board, room, first,
		second, result) == 7 &&
	    tid == id) {
		int i;
		for (i = 0; i < s->n; i++)
			if (s->g[i].round == round && s->g[i].board == board)
				break;
		if (i == NGAMES)
			return;
		if (i == s->n)
			s->n++;
		s->g[i].round = round;
		s->g[i].board = board;
		snprintf(s->g[i].room, sizeof s->g[i].room, "%s", room);
		snprintf(s->g[i].first, sizeof s->g[i].first, "%s", first);
		snprintf(s->g[i].second, sizeof s->g[i].second, "%s", second);
		snprintf(s->g[i].result, sizeof s->g[i].result, "%s", result);
	} else if (sscanf(l, "* TOURNEY %ld %15s %15s", &tid, kind, state) == 3 && tid == id &&
	    !strcmp(state, "over")) {
		s->over = 1;
	}
}

/* Reads the follower until round's pairings all have a room (or a
 * result), or the event is over: whether they do. */
static int
rooms_of(struct tc *w, long id, struct seen *s, int round, int want, int ms)
{
	for (long long end = tc_now_ms() + ms; tc_now_ms() < end;) {
		int n = 0;
		for (int i = 0; i < s->n; i++)
			n += s->g[i].round == round && strcmp(s->g[i].room, "-") != 0;
		if (n == want)
			return 1;
		const char *l = tc_read(w, 500);
		if (l)
			take(s, id, l);
	}
	return 0;
}

static int
in_round(const struct seen *s, int round)
{
	int n = 0;
	for (int i = 0; i < s->n; i++)
		n += s->g[i].round == round;
	return n;
}

static struct tc *
by_name(struct tc **p, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (p[i] && !strcmp(p[i]->name, name))
			return p[i];
	return NULL;
}

/* Reads c until a line starting with prefix: it, or NULL. */
static const char *
wait_line(struct tc *c, const char *prefix, int ms)
{
	return tc_expect(c, prefix, ms);
}

/* RESUME of room with token at port: the connection with its seat. */
static struct tc *
resume(int port, const char *name, const char *token, const char *room)
{
	for (long long end = tc_now_ms() + ADOPT_MS; tc_now_ms() < end;) {
		struct tc *c = tc_open(port, 1);
		if (!c) {
			usleep(200000);
			continue;
		}
		snprintf(c->name, sizeof c->name, "%s", name);
		snprintf(c->token, sizeof c->token, "%s", token);
		tc_send(c, "RESUME %s %s 0", token, room);
		const char *l;
		while ((l = tc_read(c, LINE_MS)) != NULL) {
			if (strncmp(l, "OK RESUME ", 10) == 0)
				return c;
			if (strncmp(l, "ERR ", 4) == 0)
				break;
		}
		tc_close(c);
		usleep(300000); /* the room is not adopted yet */
	}
	return NULL;
}

/* The node whose log says it runs event id, waiting up to ms: its
 * index, or -1. */
static int
runner(long id, const int before[NODES], int ms)
{
	char what[64];
	snprintf(what, sizeof what, "tournament %ld: run by this node", id);
	for (long long end = tc_now_ms() + ms; tc_now_ms() < end; usleep(50000))
		for (int i = 0; i < NODES; i++)
			if (daemon_log_count(&node[i], what) > before[i])
				return i;
	return -1;
}

static void
test_owner_killed(void)
{
	char out[256], line[128];
	struct tc *host = tc_account(node[1].port, "tboss", "s3cret-pass");
	REQUIRE(host, "tboss could not register on b");
	long id = -1;
	tc_ask(host, "TCREATE robin freestyle 15 300+0 none casual people 12 1 Cluster", out,
	    sizeof out, LINE_MS);
	REQUIRE(sscanf(out, "OK TCREATE %ld", &id) == 1, "TCREATE on b: %s", out);
	int none[NODES] = { 0, 0 };
	int own = runner(id, none, WAIT_MS);
	REQUIRE(own >= 0, "no node runs tournament %ld (%s, %s)", id, node[0].log, node[1].log);
	int other = 1 - own;
	printf("# node %s runs it\n", redis_names[own]);
	char what[64];
	snprintf(what, sizeof what, "tournament %ld: run by this node", id);
	CHECK(daemon_log_count(&node[other], what) == 0, "both nodes run it");

	/* a guest follows it on the node that does not run it */
	struct tc *w = tc_guest(node[other].port, "tfan");
	REQUIRE(w, "the follower could not connect");
	snprintf(line, sizeof line, "TWATCH %ld", id);
	tc_ask(w, line, out, sizeof out, LINE_MS);
	snprintf(line, sizeof line, "OK TWATCH %ld", id);
	CHECK(!strcmp(out, line), "TWATCH on %s: %s", redis_names[other], out);

	/* four players: two join on the running node, two through the other
	 * (where they stay: their games are played on the running node) */
	struct tc *p[4];
	char tok[4][80];
	static const char *const names[4] = { "cc1", "cc2", "cc3", "cc4" };
	for (int i = 0; i < 4; i++) {
		int at = i >= 2 ? other : own;
		p[i] = tc_account(node[at].port, names[i], "s3cret-pass");
		REQUIRE(p[i], "%s could not register", names[i]);
		snprintf(tok[i], sizeof tok[i], "%s", p[i]->token);
		snprintf(line, sizeof line, "TJOIN %ld", id);
		tc_ask(p[i], line, out, sizeof out, LINE_MS);
		snprintf(line, sizeof line, "OK TJOIN %ld", id);
		CHECK(!strcmp(out, line), "%s TJOIN on %s: %s", names[i], redis_names[at], out);
	}
	/* round 1 starts: each game gets a stone from each side */
	static struct seen s;
	memset(&s, 0, sizeof s);
	REQUIRE(rooms_of(w, id, &s, 1, 2, 20000), "round 1's games not seen on %s (%d pairings)",
	    redis_names[other], s.n);
	/* the players of the other node are sent to the game's (* MOVED) */
	for (int j = 2; j < 4; j++) {
		const char *l = tc_expect(p[j], "* MOVED ", WAIT_MS);
		char room[24];
		int port = 0;
		REQUIRE(l && sscanf(l, "* MOVED %23s 127.0.0.1:%d", room, &port) == 2 &&
			port == node[own].port,
		    "%s on %s was not sent to its game on %s: %s", names[j], redis_names[other],
		    redis_names[own], p[j]->line);
		tc_close(p[j]);
		p[j] = resume(port, names[j], tok[j], room);
		REQUIRE(p[j], "%s could not RESUME %s on %s", names[j], room, redis_names[own]);
	}
	for (int i = 0; i < s.n; i++) {
		struct tc *f = by_name(p, 4, s.g[i].first), *sc = by_name(p, 4, s.g[i].second);
		REQUIRE(f && sc, "round 1 pairs %s and %s", s.g[i].first, s.g[i].second);
		static const char *const mv[2][2] = { { "h8", "a1" }, { "j10", "a15" } };
		for (int k = 0; k < 2; k++) {
			struct tc *c = k ? sc : f;
			char want[48];
			snprintf(want, sizeof want, "OK MOVE %s ", s.g[i].room);
			tc_send(c, "MOVE %s %s", s.g[i].room, mv[i][k]);
			CHECK(wait_line(c, want, LINE_MS), "%s's move in %s: %s", c->name,
			    s.g[i].room, c->line);
		}
	}
	usleep(1500000); /* a renewal has taken the rooms' leases */
	int before[NODES];
	for (int i = 0; i < NODES; i++)
		before[i] = daemon_log_count(&node[i], what);
	long long t_kill = tc_now_ms();
	REQUIRE(daemon_stop(&node[own], SIGKILL, 2000) == 128 + SIGKILL, "the runner did not die");
	for (int i = 0; i < 4; i++) {
		tc_close(p[i]);
		p[i] = NULL;
	}
	int next = runner(id, before, ADOPT_MS);
	REQUIRE(next == other, "node %s did not take the event over (%s)", redis_names[other],
	    node[other].log);
	printf("# taken over %lld ms after the kill (leases last 3000 ms)\n", tc_now_ms() - t_kill);

	/* the players come back there and finish round 1: the second resigns */
	for (int i = 0; i < 2; i++)
		for (int k = 0; k < 2; k++) {
			const char *name = k ? s.g[i].second : s.g[i].first;
			int j = name[2] - '1';
			p[j] = resume(node[other].port, name, tok[j], s.g[i].room);
			REQUIRE(p[j], "%s could not RESUME %s on %s", name, s.g[i].room,
			    redis_names[other]);
		}
	for (int i = 0; i < 2; i++)
		tc_send(by_name(p, 4, s.g[i].second), "RESIGN %s", s.g[i].room);

	/* rounds 2 and 3, by the node that took it over */
	for (int r = 2; r <= 3; r++) {
		REQUIRE(rooms_of(w, id, &s, r, 2, EVENT_MS), "round %d's games not seen", r);
		for (int i = 0; i < s.n; i++) {
			if (s.g[i].round != r)
				continue;
			struct tc *f = by_name(p, 4, s.g[i].first);
			struct tc *sc = by_name(p, 4, s.g[i].second);
			REQUIRE(
			    f && sc, "round %d pairs %s and %s", r, s.g[i].first, s.g[i].second);
			char want[48];
			snprintf(want, sizeof want, "* START %s ", s.g[i].room);
			CHECK(wait_line(sc, want, WAIT_MS), "%s got no START of %s: %s", sc->name,
			    s.g[i].room, sc->line);
			tc_send(sc, "RESIGN %s", s.g[i].room);
		}
	}
	for (long long end = tc_now_ms() + EVENT_MS; !s.over && tc_now_ms() < end;) {
		const char *l = tc_read(w, 500);
		if (l)
			take(&s, id, l);
	}
	CHECK(s.over, "the event did not end on %s", redis_names[other]);
	for (int r = 1; r <= 3; r++)
		CHECK(in_round(&s, r) == 2, "round %d: %d pairings", r, in_round(&s, r));
	CHECK(s.n == 6, "%d pairings in all", s.n);
	for (int i = 0; i < s.n; i++)
		CHECK(!strcmp(s.g[i].result, "first"), "round %d %s-%s: %s", s.g[i].round,
		    s.g[i].first, s.g[i].second, s.g[i].result);

	/* the standings, on the follower's node: each player's results */
	snprintf(line, sizeof line, "TWATCH %ld", id);
	tc_send(w, "%s", line);
	int total = 0, lines = 0;
	const char *l;
	while ((l = tc_read(w, LINE_MS)) && strncmp(l, "OK TWATCH", 9) != 0) {
		char name[24];
		int rank, points;
		long tid;
		if (sscanf(l, "= TPLAYER %ld %d %23s %*s %d", &tid, &rank, name, &points) != 4)
			continue;
		int mine = 0;
		for (int i = 0; i < s.n; i++)
			mine += !strcmp(s.g[i].first, name) ? 2 : 0;
		CHECK(points == mine, "%s: %d points, its results give %d", name, points, mine);
		total += points;
		lines++;
	}
	CHECK(lines == 4 && total == 12, "%d players, %d points in all", lines, total);
	for (int i = 0; i < 4; i++)
		tc_close(p[i]);
	tc_close(w);
	tc_close(host);
	ok("a round robin on two nodes: run by one, joined and followed through the other, "
	   "whose players were sent to their games; its runner killed mid-round, the other "
	   "took it over, finished round 1's games and paired rounds 2 and 3 once each; the "
	   "standings as played");
}

int
main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	int code;
	if (redis_guard(&redis, &code) != 0)
		return code;
	char dbname[32];
	snprintf(dbname, sizeof dbname, "gtourney%ld", (long)getpid());
	int rc = tc_pg_database(dbname, db, sizeof db);
	if (rc != 0) {
		printf(rc > 0 ? "FAIL: no PostgreSQL: run me under tests/pg/test_pg.sh\n"
			      : "FAIL: cannot create the database\n");
		return 1;
	}
	if (redis_nodes_up(&cl, NODES) != 0)
		return 1;
	test_owner_killed();
	return redis_finish(&redis, node, NODES, 1, failures);
}
