/*
 * test_lease.c: a node dies, the games live (issue 26, item 3). Three
 * gomokud nodes on one Redis and one PostgreSQL database, both started by
 * the tests (tests/pg/test_pg.sh's server, GOMOKU_PG_URL; redisrun.c's
 * redis-server), real daemons and TLS clients:
 * - a rated game on node a with a few moves, a spectator on node c, and a
 *   bot's game on a; a is killed (-9); one other node adopts each game;
 *   a player RESUMEs through node c and is sent to the adopter (* MOVED)
 *   when it is not c; every acknowledged move is there, and the clocks did
 *   not run while no node owned the room; node a restarted does not take
 *   the room back: it sends the other player's RESUME to the adopter and
 *   relays a new spectator's WATCH from it; the game is finished there,
 *   both spectators see it, and it is rated once (HISTORY, STATS); the
 *   bot plays on in its adopted game, and so does a hosted engine's seat
 *   (issue 49: a's game against engine ours, which only node b has and
 *   serves; adopted by b, the brain is b's own, by c, b's worker plays);
 * - a paused (SIGSTOP) owner whose game another node adopts, continued
 *   (SIGCONT) with a move waiting in its socket: that move is never
 *   committed, and the room is left to the adopter;
 * - PostgreSQL stopped and started mid-game on node b: moves are refused
 *   (508) meanwhile, never accepted and lost, nobody adopts the game, and
 *   play goes on there when the database is back, watched from node c.
 * Only under tests/pg/test_pg.sh, in the plain gcc build: without
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
#include "tests/sanitized.h"

#ifndef GOMOKUD_BIN
#define GOMOKUD_BIN "bin/gomokud"
#endif
#ifndef PBRAIN
#define PBRAIN "bin/pbrain-gomoku"
#endif

enum { NODES = 3, WAIT_MS = 8000, ADOPT_MS = 30000 };

static struct daemon node[NODES];
static struct redisrun redis;
static char db[256];

/* every node on the one database; b hosts (and serves) engine ours */
static char engine[512];
static const char *const conf_of[NODES] = { "", engine, "" };
static const struct redis_nodes cl = { GOMOKUD_BIN, &redis, node, db, NULL, conf_of };

/* A new account on port: its connection, the token in c->token. */
static struct tc *
account(int port, const char *name)
{
	struct tc *c = tc_open(port, 1);
	char want[64];
	if (!c)
		return NULL;
	tc_send(c, "REGISTER %s pass-%s", name, name);
	snprintf(want, sizeof want, "OK REGISTER %s ", name);
	const char *l = tc_expect(c, want, LINE_MS);
	if (!l || sscanf(l + strlen(want), "%79s", c->token) != 1) {
		tc_close(c);
		return NULL;
	}
	return c;
}

/* Every line of the answer to req from a new connection to port, the OK
 * line last, into out: 0, or -1 without an OK. */
static int
answer_lines(int port, const char *req, char *out, size_t n)
{
	struct tc *c = tc_open(port, 1);
	size_t len = 0;
	int rc = -1;
	const char *l;
	out[0] = '\0';
	if (!c)
		return -1;
	tc_send(c, "%s", req);
	while ((l = tc_read(c, LINE_MS)) != NULL) {
		int w = snprintf(out + len, n - len, "%s\n", l);
		if (w < 0 || (size_t)w >= n - len)
			break;
		len += (size_t)w;
		if (strncmp(l, "OK ", 3) == 0 || strncmp(l, "ERR ", 4) == 0) {
			rc = l[0] == 'O' ? 0 : -1;
			break;
		}
	}
	tc_close(c);
	return rc;
}

/* One move by p, acknowledged: both clocks after it from its * MOVE. */
static int
move(struct tc *p, const char *room, const char *mv, long long *bms, long long *wms)
{
	char want[64], m[8] = "";
	tc_send(p, "MOVE %s %s", room, mv);
	snprintf(want, sizeof want, "* MOVE %s ", room);
	while (strcmp(m, mv) != 0) { /* the opponent's move may come first */
		const char *l = tc_expect(p, want, LINE_MS);
		unsigned seq;
		char side[8], b[24], w[24];
		if (!l ||
		    sscanf(l + strlen(want), "%u %7s %7s %23s %23s", &seq, side, m, b, w) != 5)
			return -1;
		*bms = strtoll(b, NULL, 10); /* "-" (no clock): 0 */
		*wms = strtoll(w, NULL, 10);
	}
	snprintf(want, sizeof want, "OK MOVE %s ", room);
	return tc_expect(p, want, LINE_MS) ? 0 : -1;
}

/* Waits for the first node of mask (bits) whose log has more lines with
 * what than before[i]; its index, or -1. *before_ms gets the time of the
 * last look that found none (when it happened, at the latest). */
static int
wait_any_log(int mask, const char *what, const int before[NODES], int ms, long long *before_ms)
{
	for (long long end = tc_now_ms() + ms; tc_now_ms() < end;) {
		long long t = tc_now_ms();
		for (int i = 0; i < NODES; i++)
			if ((mask >> i & 1) && daemon_log_count(&node[i], what) > before[i])
				return i;
		*before_ms = t;
		usleep(20000);
	}
	return -1;
}

/* RESUME of room with token on node `at`, following * MOVED (a front may
 * send a client anywhere; the directory may be a second old, so a refusal
 * without * MOVED is tried again, and so is a * MOVED to a node that has
 * just died, from the first node): the connection that has the seat back,
 * with the snapshot's = MOVES line in moves and = CLOCK's in clocks; *hops
 * counts the * MOVED followed. */
static struct tc *
resume(int at, const char *token, const char *room, char *moves, size_t mcap, long long clocks[2],
    int *hops)
{
	int port = node[at].port;
	*hops = 0;
	for (long long end = tc_now_ms() + WAIT_MS; tc_now_ms() < end;) {
		struct tc *c = tc_open(port, 1);
		if (!c) { /* sent to a node just gone: back to the first */
			port = node[at].port;
			usleep(200000);
			continue;
		}
		tc_send(c, "RESUME %s %s 0", token, room);
		const char *l;
		int moved = 0;
		char want[64];
		while ((l = tc_read(c, LINE_MS)) != NULL) {
			int p;
			snprintf(want, sizeof want, "* MOVED %s 127.0.0.1:", room);
			if (strncmp(l, want, strlen(want)) == 0 &&
			    sscanf(l + strlen(want), "%d", &p) == 1) {
				moved = p;
				continue;
			}
			snprintf(want, sizeof want, "= MOVES %s 0 ", room);
			if (strncmp(l, want, strlen(want)) == 0)
				snprintf(moves, mcap, "%s", l + strlen(want));
			snprintf(want, sizeof want, "= CLOCK %s ", room);
			if (strncmp(l, want, strlen(want)) == 0)
				sscanf(l + strlen(want), "%lld %lld", &clocks[0], &clocks[1]);
			if (strncmp(l, "OK RESUME ", 10) == 0)
				return c;
			if (strncmp(l, "ERR ", 4) == 0)
				break;
		}
		tc_close(c);
		if (moved) {
			port = moved;
			(*hops)++;
		} else {
			usleep(300000);
		}
	}
	return NULL;
}

static char room[17];
static int adopter = -1;

/* The first of a few points near the centre that is not in moves (a
 * comma-separated list): an engine's answer may be any of them. */
static const char *
free_point(const char *moves)
{
	static const char *const near[] = { "i9", "g7", "j10", "f6", "i7", "g9" };
	for (size_t i = 0; i < sizeof near / sizeof near[0]; i++) {
		size_t n = strlen(near[i]);
		const char *p = moves;
		int taken = 0;
		while (*p && !taken) {
			taken = strncmp(p, near[i], n) == 0 && (p[n] == ',' || p[n] == '\0');
			p = strchr(p, ',');
			p = p ? p + 1 : "";
		}
		if (!taken)
			return near[i];
	}
	return "a1";
}

/* Reads c's lines until one starts with "OK MOVE " or "ERR ": it, or NULL. */
static const char *
answer(struct tc *c, int ms)
{
	const char *l;
	while ((l = tc_read(c, ms)) != NULL)
		if (strncmp(l, "OK MOVE ", 8) == 0 || strncmp(l, "ERR ", 4) == 0)
			return l;
	return NULL;
}

/* kill -9 of a game's node: another adopts it; nothing lost, no time
 * charged for the time without an owner, rated once. */
static void
test_killed(void)
{
	struct tc *ann = account(node[0].port, "ann"), *ben = account(node[0].port, "ben");
	struct tc *carol = tc_guest(node[2].port, "carol");
	char want[96], annt[80], bent[80];
	REQUIRE(ann && ben && carol, "players could not connect");
	snprintf(annt, sizeof annt, "%s", ann->token);
	snprintf(bent, sizeof bent, "%s", ben->token);
	REQUIRE(tc_pair(ann, ben, "freestyle 15 300+0", "rated", room, sizeof room) == 0,
	    "no game on a: %s", tc_why);
	REQUIRE(room[0] == 'a', "a's room %s", room);
	tc_send(carol, "WATCH %s", room);
	snprintf(want, sizeof want, "OK WATCH %s ", room);
	REQUIRE(
	    tc_expect(carol, want, LINE_MS), "carol on c cannot watch %s: %s", room, carol->line);
	static const char *const mv[] = { "h8", "a1", "i8", "a2" };
	long long bms = 0, wms = 0;
	for (int i = 0; i < 4; i++)
		REQUIRE(move(i % 2 ? ben : ann, room, mv[i], &bms, &wms) == 0, "move %s: %s", mv[i],
		    (i % 2 ? ben : ann)->line);
	long long t_last = tc_now_ms(), abms = bms, awms = wms;
	snprintf(want, sizeof want, "* MOVE %s ", room);
	for (int i = 0; i < 4; i++)
		CHECK(tc_expect(carol, want, LINE_MS), "carol saw no move %s", mv[i]);
	/* and fred's game against a bot on a, the bot's first answer played */
	char bgame[17], fredt[80], adopted[64], badopted[64];
	struct tc *fred = tc_guest(node[0].port, "fred");
	REQUIRE(fred, "fred could not connect");
	snprintf(fredt, sizeof fredt, "%s", fred->token);
	tc_send(fred, "BOT play 1 freestyle 15 none black none");
	const char *l = tc_expect(fred, "OK BOT ", LINE_MS);
	REQUIRE(l && sscanf(l, "OK BOT %16s", bgame) == 1, "no bot game: %s", fred->line);
	REQUIRE(move(fred, bgame, "h8", &bms, &wms) == 0, "fred's move: %s", fred->line);
	CHECK(tc_expect(fred, "* MOVE ", WAIT_MS) && strstr(fred->line, " white "),
	    "the bot did not answer: %s", fred->line);
	/* and ike's game on a against engine ours, which b's worker plays */
	char egame[17], iket[80], eadopted[64];
	struct tc *ike = tc_guest(node[0].port, "ike");
	REQUIRE(ike, "ike could not connect");
	snprintf(iket, sizeof iket, "%s", ike->token);
	/* a heard b's engines (its presence, once a second) */
	for (long long end = tc_now_ms() + WAIT_MS; tc_now_ms() < end; usleep(200000))
		if (daemon_log_count(&node[0], "cluster: node b serves engines ours:") > 0)
			break;
	tc_send(ike, "BOT play ours freestyle 15 none black none");
	l = tc_expect(ike, "OK BOT ", LINE_MS);
	REQUIRE(l && sscanf(l, "OK BOT %16s", egame) == 1, "no engine game: %s", ike->line);
	REQUIRE(move(ike, egame, "h8", &bms, &wms) == 0, "ike's move: %s", ike->line);
	CHECK(tc_expect(ike, "* MOVE ", WAIT_MS) && strstr(ike->line, " white "),
	    "the engine did not answer: %s", ike->line);
	CHECK(daemon_log_count(&node[1], "cluster: engine ours played") == 1,
	    "b did not play the engine's move");
	snprintf(eadopted, sizeof eadopted, "room %s: adopted from node a", egame);
	int ebefore[NODES];
	for (int i = 0; i < NODES; i++)
		ebefore[i] = daemon_log_count(&node[i], eadopted);
	usleep(1500000); /* a renewal has taken the leases */
	snprintf(adopted, sizeof adopted, "room %s: adopted from node a", room);
	snprintf(badopted, sizeof badopted, "room %s: adopted from node a", bgame);
	int before[NODES], bbefore[NODES];
	for (int i = 0; i < NODES; i++) {
		before[i] = daemon_log_count(&node[i], adopted);
		bbefore[i] = daemon_log_count(&node[i], badopted);
	}
	long long t_kill = tc_now_ms();
	REQUIRE(daemon_stop(&node[0], SIGKILL, 2000) == 128 + SIGKILL, "a did not die");
	tc_close(ann);
	tc_close(ben);
	tc_close(fred);
	tc_close(ike);
	long long t_none = t_kill;
	adopter = wait_any_log(6, adopted, before, ADOPT_MS, &t_none);
	REQUIRE(adopter > 0, "no node adopted %s (%s, %s)", room, node[1].log, node[2].log);
	printf("# adopted by node %s %lld ms after the kill (leases last 3000 ms)\n",
	    redis_names[adopter], tc_now_ms() - t_kill);

	/* ann comes back through node c, sent on when c is not the adopter */
	char moves[256] = "";
	long long clk[2] = { -1, -1 };
	int hops;
	ann = resume(2, annt, room, moves, sizeof moves, clk, &hops);
	REQUIRE(ann, "ann could not RESUME %s on any node", room);
	long long t_reply = tc_now_ms();
	CHECK(
	    adopter == 2 || hops >= 1, "ann followed no * MOVED to node %s", redis_names[adopter]);
	CHECK(strcmp(moves, "h8,a1,i8,a2") == 0, "the adopted game's moves: %s", moves);
	/* black is to move: his clock may have run only while a node owned
	 * the room, before the kill (since the last move) and after the
	 * adoption (at the earliest after t_none, the last look without it) */
	long long owned = (t_kill - t_last) + (t_reply - t_none) + 250;
	CHECK(clk[0] >= abms - owned && clk[0] <= abms,
	    "black's clock %lld, %lld before the kill, owned %lld ms", clk[0], abms, owned);
	CHECK(clk[1] == awms, "white's clock %lld, %lld before the kill", clk[1], awms);
	printf("# black's clock %lld ms before the kill, %lld after the adoption; %lld ms passed "
	       "in all, at most %lld owned\n",
	    abms, clk[0], t_reply - t_last, owned);

	/* node a again: it leaves the room to the adopter, and sends ben there */
	REQUIRE(redis_nodes_start(&cl, 0) == 0, "a did not start again (%s)", node[0].log);
	REQUIRE(daemon_wait_log(&node[0], "on Redis", 0, WAIT_MS), "a found no Redis");
	usleep(6000000); /* a lease time and more: a scan has run on a */
	CHECK(daemon_log_count(&node[0], "adopting") == 0, "the restarted node a took a game: %s",
	    node[0].log);
	CHECK(daemon_log_count(&node[3 - adopter], adopted) == before[3 - adopter],
	    "both b and c adopted %s", room);
	int badopter = wait_any_log(6, badopted, bbefore, ADOPT_MS, &t_none);
	CHECK(badopter > 0 &&
		daemon_log_count(&node[3 - badopter], badopted) == bbefore[3 - badopter],
	    "the bot's game %s was adopted by %d nodes", bgame, badopter > 0 ? 2 : 0);
	/* the bot plays on there */
	fred = resume(2, fredt, bgame, moves, sizeof moves, clk, &hops);
	CHECK(fred, "fred could not RESUME %s", bgame);
	if (fred) {
		CHECK(strncmp(moves, "h8,", 3) == 0, "the bot game's moves: %s", moves);
		tc_send(fred, "MOVE %s %s", bgame, free_point(moves));
		const char *a = answer(fred, LINE_MS);
		CHECK(a && strncmp(a, "OK MOVE ", 8) == 0, "fred's move there: %s", a ? a : "-");
		snprintf(want, sizeof want, "* MOVE %s ", bgame);
		const char *e = NULL;
		for (long long end = tc_now_ms() + WAIT_MS; tc_now_ms() < end;)
			if ((e = tc_expect(fred, want, WAIT_MS)) && strstr(e, " white "))
				break;
		CHECK(e && strstr(e, " white "), "the adopted bot did not move: %s", fred->line);
		tc_close(fred);
	}
	/* the engine's seat plays on: b's own brain, or b's worker for c */
	int eadopter = wait_any_log(6, eadopted, ebefore, ADOPT_MS, &t_none);
	CHECK(eadopter > 0, "nobody adopted the engine's game %s", egame);
	int played = daemon_log_count(&node[1], "engine ours played");
	ike = eadopter > 0 ? resume(2, iket, egame, moves, sizeof moves, clk, &hops) : NULL;
	CHECK(ike, "ike could not RESUME %s", egame);
	if (ike) {
		CHECK(strncmp(moves, "h8,", 3) == 0, "the engine game's moves: %s", moves);
		tc_send(ike, "MOVE %s %s", egame, free_point(moves));
		const char *a = answer(ike, LINE_MS);
		CHECK(a && strncmp(a, "OK MOVE ", 8) == 0, "ike's move there: %s", a ? a : "-");
		snprintf(want, sizeof want, "* MOVE %s ", egame);
		const char *e = NULL;
		for (long long end = tc_now_ms() + WAIT_MS; tc_now_ms() < end;)
			if ((e = tc_expect(ike, want, WAIT_MS)) && strstr(e, " white "))
				break;
		CHECK(e && strstr(e, " white "), "the adopted engine did not move: %s", ike->line);
		CHECK(eadopter == 1 || daemon_log_count(&node[1], "engine ours played") > played,
		    "c adopted the engine's game, and b's worker did not play its move");
		CHECK(daemon_log_count(&node[eadopter], "forfeits") == 0,
		    "the engine forfeited on the adopter");
		printf("# the engine's game adopted by %s, its seat played on\n",
		    redis_names[eadopter]);
		tc_close(ike);
	}
	ben = resume(0, bent, room, moves, sizeof moves, clk, &hops);
	REQUIRE(ben, "ben could not RESUME %s through a", room);
	CHECK(hops == 1, "ben's RESUME on a followed %d * MOVED", hops);
	ok("node a killed: another node adopted its game, every move there, no time charged "
	   "meanwhile; restarted, a sent the players there");

	/* a new spectator on the restarted a is relayed from the adopter */
	struct tc *dora = tc_guest(node[0].port, "dora");
	REQUIRE(dora, "dora could not connect to a");
	tc_send(dora, "WATCH %s", room);
	snprintf(want, sizeof want, "= MOVES %s 0 h8,a1,i8,a2", room);
	CHECK(tc_expect(dora, want, LINE_MS), "dora's WATCH on a: %s", dora->line);
	snprintf(want, sizeof want, "OK WATCH %s ", room);
	CHECK(tc_expect(dora, want, LINE_MS), "dora's WATCH on a: %s", dora->line);

	/* the game goes on at the adopter; carol on c and dora on a see it */
	static const char *const rest[] = { "j8", "a3", "k8", "a4", "l8" };
	for (int i = 0; i < 5; i++) {
		struct tc *p = i % 2 ? ben : ann;
		tc_send(p, "MOVE %s %s", room, rest[i]);
		const char *a = answer(p, LINE_MS);
		CHECK(a && strncmp(a, "OK MOVE ", 8) == 0, "move %s on the adopter: %s", rest[i],
		    a ? a : "(nothing)");
		char ev[64];
		snprintf(ev, sizeof ev, " %s %s ", i % 2 ? "white" : "black", rest[i]);
		const char *e = tc_expect(carol, "* MOVE ", LINE_MS);
		CHECK(e && strstr(e, ev), "carol on c missed %s: %s", rest[i], e ? e : "(nothing)");
	}
	snprintf(want, sizeof want, "* OVER %s ", room);
	CHECK(tc_expect(carol, want, LINE_MS), "carol saw no end");
	CHECK(strstr(carol->line, "black five"), "the end: %s", carol->line);
	CHECK(tc_expect(dora, want, LINE_MS) && strstr(dora->line, "black five"),
	    "dora on a saw no end: %s", dora->line);
	tc_close(dora);

	/* rated once, recorded once with all nine moves */
	struct tc *q = tc_open(node[1].port, 1);
	REQUIRE(q, "no connection to b");
	tc_send(q, "HISTORY ann");
	l = tc_expect(q, "= GAME ", LINE_MS);
	CHECK(l && strstr(l, " ann ben black five 9 "), "ann's history: %s", l ? l : "(nothing)");
	CHECK_LINE(q, "OK HISTORY 1 1");
	int rating, dev, w = -1, lo = -1, dr = -1;
	char prov[16];
	tc_send(q, "STATS ann");
	l = tc_expect(q, "= STAT ann freestyle ", LINE_MS);
	CHECK(l &&
		sscanf(l, "= STAT ann freestyle %d %d %15s %d %d %d", &rating, &dev, prov, &w, &lo,
		    &dr) == 6 &&
		w == 1 && lo == 0 && dr == 0,
	    "ann's stats: %s", l ? l : "(nothing)");
	tc_send(q, "STATS ben");
	l = tc_expect(q, "= STAT ben freestyle ", LINE_MS);
	CHECK(l &&
		sscanf(l, "= STAT ben freestyle %d %d %15s %d %d %d", &rating, &dev, prov, &w, &lo,
		    &dr) == 6 &&
		w == 0 && lo == 1 && dr == 0,
	    "ben's stats: %s", l ? l : "(nothing)");
	tc_close(q);
	/* and the same answers on every node, the restarted one too */
	static const char *const asks[] = { "HISTORY ann", "STATS ben", "TOP freestyle" };
	for (int k = 0; k < 3; k++) {
		char first[2048] = "", got[2048];
		for (int i = 0; i < NODES; i++) {
			CHECK(answer_lines(node[i].port, asks[k], got, sizeof got) == 0,
			    "node %s did not answer %s", redis_names[i], asks[k]);
			if (i == 0)
				snprintf(first, sizeof first, "%s", got);
			else
				CHECK(strcmp(first, got) == 0,
				    "%s on a and on %s differ:\n%s---\n%s", asks[k], redis_names[i],
				    first, got);
		}
	}
	ok("the adopted game finished on its adopter, watched from c, rated once; HISTORY, STATS "
	   "and TOP the same on every node");
	tc_close(ann);
	tc_close(ben);
	tc_close(carol);
}

/* A paused owner (SIGSTOP) loses its lease; continued with a move in its
 * socket, it commits nothing to the adopted game and leaves the room. */
static void
test_paused(void)
{
	struct tc *dee = account(node[0].port, "dee"), *eve = account(node[0].port, "eve");
	char game[17], moves[256] = "", evet[80];
	long long bms, wms, clk[2];
	int hops;
	REQUIRE(dee && eve, "players could not connect to a");
	snprintf(evet, sizeof evet, "%s", eve->token);
	REQUIRE(tc_pair(dee, eve, "freestyle 15 300+0", "rated", game, sizeof game) == 0,
	    "no game on a: %s", tc_why);
	REQUIRE(move(dee, game, "h8", &bms, &wms) == 0 && move(eve, game, "a1", &bms, &wms) == 0,
	    "moves on a");
	usleep(1500000);
	int before[NODES], left = daemon_log_count(&node[0], "the room is left to it");
	for (int i = 0; i < NODES; i++)
		before[i] = daemon_log_count(&node[i], "adopted from node a");
	REQUIRE(kill(node[0].pid, SIGSTOP) == 0, "cannot stop a");
	long long t0 = tc_now_ms(), t_none = t0;
	int by = wait_any_log(6, "adopted from node a", before, ADOPT_MS, &t_none);
	CHECK(by > 0, "no node adopted the paused node's game");
	printf("# the paused node's game adopted by %s %lld ms after SIGSTOP\n",
	    by > 0 ? redis_names[by] : "-", tc_now_ms() - t0);
	/* a move waits in the paused node's socket */
	tc_send(dee, "MOVE %s i8", game);
	REQUIRE(kill(node[0].pid, SIGCONT) == 0, "cannot continue a");
	const char *l = answer(dee, WAIT_MS);
	/* refused by the database's fence, or, when the lease's renewal came
	 * first, by a node that no longer has the room */
	CHECK(l && strncmp(l, "ERR ", 4) == 0, "the paused node's answer: %s", l ? l : "(none)");
	CHECK(!l || strncmp(l, "ERR 500 ", 8) != 0 || strstr(l, "another node plays this game"),
	    "a fenced move's refusal does not say why: %s", l);
	printf("# the continued node answered the move: %s\n", l ? l : "(nothing)");
	CHECK(daemon_wait_log(&node[0], "the room is left to it", left, WAIT_MS),
	    "a kept the room it lost");
	struct tc *e = resume(2, evet, game, moves, sizeof moves, clk, &hops);
	CHECK(e, "eve could not RESUME the adopted game");
	CHECK(strcmp(moves, "h8,a1") == 0, "the adopted game's moves after a went on: %s", moves);
	tc_close(e);
	tc_close(dee);
	tc_close(eve);
	ok("a paused owner lost its lease: continued, it committed nothing and left the room");
}

/* PostgreSQL stopped and started mid-game on a cluster node: moves refused
 * meanwhile, none lost, the game stays where it is and goes on. */
static void
test_pg_restart(void)
{
	struct tc *fay = account(node[1].port, "fay"), *gus = account(node[1].port, "gus");
	struct tc *hal = tc_guest(node[2].port, "hal");
	char game[17], want[96], moves[256] = "", gust[80];
	long long bms, wms, clk[2];
	int hops;
	REQUIRE(fay && gus && hal, "players could not connect");
	snprintf(gust, sizeof gust, "%s", gus->token);
	REQUIRE(tc_pair(fay, gus, "freestyle 15 300+0", "rated", game, sizeof game) == 0,
	    "no game on b: %s", tc_why);
	REQUIRE(move(fay, game, "h8", &bms, &wms) == 0 && move(gus, game, "a1", &bms, &wms) == 0,
	    "moves on b");
	tc_send(hal, "WATCH %s", game);
	snprintf(want, sizeof want, "OK WATCH %s ", game);
	REQUIRE(tc_expect(hal, want, LINE_MS), "hal on c cannot watch b's game: %s", hal->line);
	int before[NODES];
	for (int i = 0; i < NODES; i++)
		before[i] = daemon_log_count(&node[i], "adopted from node b");
	REQUIRE(tc_pg_ctl("stop") == 0, "cannot stop PostgreSQL");
	tc_send(fay, "MOVE %s i8", game);
	const char *l = answer(fay, WAIT_MS);
	CHECK(l && strncmp(l, "ERR 508 ", 8) == 0, "a move with the database down: %s",
	    l ? l : "(nothing)");
	sleep(4); /* more than a lease: nobody may adopt a game whose node lives */
	int restarted = tc_pg_ctl("start") == 0;
	CHECK(restarted, "cannot start PostgreSQL again");
	/* the same move, until the store is back */
	int ok_move = 0;
	for (long long end = tc_now_ms() + 30000; restarted && tc_now_ms() < end && !ok_move;) {
		tc_send(fay, "MOVE %s i8", game);
		l = answer(fay, WAIT_MS);
		if (l && strncmp(l, "OK MOVE ", 8) == 0)
			ok_move = 1;
		else
			usleep(500000);
	}
	CHECK(ok_move, "no move on b after PostgreSQL came back: %s", l ? l : "(nothing)");
	snprintf(want, sizeof want, "* MOVE %s ", game);
	CHECK(tc_expect(hal, want, LINE_MS) && strstr(hal->line, " i8 "),
	    "hal on c did not see the move after the restart: %s", hal->line);
	for (int i = 0; i < NODES; i++)
		CHECK(daemon_log_count(&node[i], "adopted from node b") == before[i],
		    "node %s adopted a live node's game during the outage", redis_names[i]);
	tc_close(gus); /* gus comes back: the refused move is not there twice */
	struct tc *g = resume(1, gust, game, moves, sizeof moves, clk, &hops);
	CHECK(g && hops == 0, "gus could not RESUME on b (%d hops)", hops);
	CHECK(strcmp(moves, "h8,a1,i8") == 0, "the moves after the restart: %s", moves);
	tc_close(g);
	tc_close(fay);
	tc_close(hal);
	ok("PostgreSQL restarted mid-game on a node: refused meanwhile, nothing lost, play went "
	   "on");
}

int
main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	int code;
	if (redis_guard(&redis, &code) != 0)
		return code;
	/* a database of this run's own: its accounts are new names each time */
	char dbname[32];
	snprintf(dbname, sizeof dbname, "glease%ld", (long)getpid());
	int rc = tc_pg_database(dbname, db, sizeof db);
	if (rc != 0) {
		printf(rc > 0 ? "FAIL: no PostgreSQL: run me under tests/pg/test_pg.sh\n"
			      : "FAIL: cannot create the database\n");
		return 1;
	}
	/* no memory limit in a sanitizer's build (test_engines.c says why) */
	snprintf(engine, sizeof engine, "engine ours %s turn-ms=200 memory=%d\n", PBRAIN,
	    TESTS_SANITIZED ? 0 : 256);
	if (redis_nodes_up(&cl, NODES) != 0)
		return 1;
	test_killed();
	test_paused();
	test_pg_restart();
	return redis_finish(&redis, node, NODES, 1, failures);
}
