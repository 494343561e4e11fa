/*
 * test_cluster_engines.c: hosted engines on a cluster (issue 49). Node a
 * has no engine; nodes b and c each have `engine ours` (our
 * pbrain-gomoku, sandboxed, the same line) and `engine junk` (a brain
 * that answers garbage) and a worker; all on a Redis the test starts (as
 * test_cluster_bots does). a's greeting lists engines=ours,junk once it
 * heard b's presence, and so does gomokuctl nodes on a; a player on a plays BOT play ours to a whole game's
 * end, every engine move played on b (b's log names each, a's says it
 * came from b, a started no brain, b's metrics count them as served to
 * another node) and b ends the game's brain at its end; with c up too, whichever worker took the engine's move is killed
 * (kill -9) mid-move: the other claims it, starts a brain from the
 * position and the game goes on to its end; junk's failures on the
 * worker forfeit its game on a, which logs why; the last worker stopped
 * mid-game, the engine's seat forfeits on a ("no node of the cluster has
 * engine ours"), a's greeting no longer lists any engine and BOT play
 * ours is refused (402) as for an unknown engine. Without redis-server
 * the test says so and skips, unless GOMOKU_REQUIRE_SHARED=1 (CI): then
 * it fails.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LINE_MS 20000
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
#ifndef FIXTURE
#define FIXTURE "build/default-cc/tests/bot/fixture_brain"
#endif
#ifndef GOMOKUCTL_BIN
#define GOMOKUCTL_BIN "bin/gomokuctl"
#endif

enum { NODES = 3, WAIT_MS = 8000, BOT_WAIT_MS = 30000 };

static struct daemon node[NODES];
static struct redisrun redis;
static char engines[2][1024]; /* b's and c's: the same engines, each its metrics port */
static int mport;             /* b's metrics */
static const char *conf_of[NODES] = { "bot-threads 1\n", engines[0], engines[1] };
static const struct redis_nodes cl = { GOMOKUD_BIN, &redis, node, NULL,
	"rate-burst 1000\nrate-per-second 1000\nlog-level debug\n", conf_of };

/* Whether a greeting of the node at port lists engines=want ("": none),
 * within ms. */
static int
greeting_says(int port, const char *want, int ms)
{
	for (long long end = tc_now_ms() + ms; tc_now_ms() < end; usleep(200000)) {
		struct tc *c = tc_open(port, 0);
		if (!c)
			continue;
		const char *e = strstr(c->line, " engines=");
		size_t n = strlen(want);
		int hit = n ? e && !strncmp(e + 9, want, n) && (e[9 + n] == ' ' || !e[9 + n]) : !e;
		tc_close(c);
		if (hit)
			return 1;
	}
	return 0;
}

/* A new game against engine on a, the human (name) black. */
static int
game_new(struct tc_botgame *g, const char *name, const char *engine)
{
	memset(g, 0, sizeof *g);
	g->human_black = 1;
	g->reply_ms = LINE_MS;
	g->bot_ms = BOT_WAIT_MS;
	if (!(g->c = tc_guest(node[0].port, name)))
		return -1;
	tc_send(g->c, "BOT play %s freestyle 15 none black none", engine);
	const char *l = tc_expect(g->c, "OK BOT ", LINE_MS);
	return l && sscanf(l, "OK BOT %23s", g->room) == 1 ? 0 : -1;
}

static void
test_engine_on_b(void)
{
	REQUIRE(greeting_says(node[0].port, "ours,junk", WAIT_MS),
	    "a's greeting never listed b's engines");
	ok("a, which has no engine, lists b's in its greeting (engines=ours,junk)");

	/* gomokuctl nodes on a: a itself, then b as a heard it, with its
	 * engines and their config lines' hashes */
	char out[2048];
	const char *const nodes[] = { "nodes", NULL };
	CHECK(tc_ctl(GOMOKUCTL_BIN, &node[0], out, sizeof out, nodes) == 0, "gomokuctl nodes: %s",
	    out);
	char here[64], there[64];
	snprintf(here, sizeof here, "node a 127.0.0.1:%d here\n", node[0].port);
	snprintf(there, sizeof there, "\nnode b 127.0.0.1:%d heard-ms ", node[1].port);
	const char *b = strstr(out, there);
	CHECK(strncmp(out, here, strlen(here)) == 0 && b && strstr(b, " engines ours:") &&
		strstr(b, ",junk:") && !strstr(out, "node c "),
	    "gomokuctl nodes on a:\n%s", out);
	long heard = b ? atol(b + strlen(there)) : -1;
	CHECK(heard >= 0 && heard < 5000, "b heard %ld ms ago", heard);
	printf("# gomokuctl nodes on a:\n%s", out);
	ok("gomokuctl nodes on a lists a, then b with its engines");

	int played = daemon_log_count(&node[1], "cluster: engine ours played");
	long served = tc_metric(mport, "gomokud_engine_moves_served_total{engine=\"ours\"}"),
	     moves = tc_metric(mport, "gomokud_engine_moves_total{engine=\"ours\"}");
	CHECK(served == 0 && moves == 0,
	    "b's engine metrics before any game: %ld served, %ld moves", served, moves);
	struct tc_botgame g;
	REQUIRE(game_new(&g, "alice", "ours") == 0, "no game against ours on a (last: %s)",
	    g.c ? g.c->line : "no connection");
	CHECK(tc_bot_play_out(&g) == 0, "the game stopped after %d engine moves: %s", g.bot_moves,
	    tc_why);
	CHECK(g.over && g.bot_moves >= 4, "over %d after %d engine moves", g.over, g.bot_moves);
	int on_b = daemon_log_count(&node[1], "cluster: engine ours played") - played;
	CHECK(on_b == g.bot_moves, "%d engine moves on a, %d played on b", g.bot_moves, on_b);
	CHECK(daemon_log_count(&node[0], "came from node b") >= g.bot_moves,
	    "a does not say its engine moves came from b");
	CHECK(daemon_log_count(&node[0], "hosted engines:") == 0, "a started hosted engines");
	CHECK(daemon_log_count(&node[0], "forfeits") == 0, "the engine forfeited on a");
	/* the game over, a tells b, whose brain for it ends */
	CHECK(daemon_wait_log(&node[1], "over; its brain ends", 0, WAIT_MS),
	    "b never ended the game's brain");
	/* b's metrics count each of them as served to another node */
	served = tc_metric(mport, "gomokud_engine_moves_served_total{engine=\"ours\"}");
	moves = tc_metric(mport, "gomokud_engine_moves_total{engine=\"ours\"}");
	CHECK(served == on_b && moves == on_b, "b's metrics: %ld served, %ld moves, %d played",
	    served, moves, on_b);
	CHECK(tc_metric(mport, "gomokud_engine_brains{engine=\"ours\"}") == 0,
	    "b still counts a brain of ours");
	tc_close(g.c);
	ok("a player on a plays b's engine to a whole game's end, each move played on b "
	   "(b's metrics: served to another node)");
}

/* b and c both serve ours; whichever takes the engine's next move is
 * killed mid-move; the other claims it and the game goes on. */
static void
test_worker_killed(void)
{
	struct tc_botgame g;
	REQUIRE(redis_nodes_start(&cl, 2) == 0, "node c did not start (%s)", node[2].log);
	REQUIRE(daemon_wait_log(&node[2], "cluster: node c on Redis", 0, WAIT_MS),
	    "c never reached Redis");
	REQUIRE(daemon_wait_log(&node[0], "cluster: node c serves engines", 0, WAIT_MS),
	    "a never heard that c serves engines");
	REQUIRE(game_new(&g, "bob", "ours") == 0, "no game against ours on a");
	REQUIRE(tc_bot_human(&g) == 0, "the human's move: %s", tc_why);
	REQUIRE(tc_bot_wait(&g) == 1, "the engine's move: %s", g.over ? g.over_line : tc_why);
	int taken[NODES], claimed[NODES];
	for (int i = 1; i < NODES; i++) {
		taken[i] = daemon_log_count(&node[i], "cluster: engine ours's move for game");
		claimed[i] = daemon_log_count(&node[i], "claimed (its worker went)");
	}
	REQUIRE(tc_bot_human(&g) == 0, "the human's move: %s", tc_why);
	int victim = 0;
	for (long long end = tc_now_ms() + WAIT_MS; !victim && tc_now_ms() < end; usleep(2000))
		for (int i = 1; i < NODES && !victim; i++)
			if (daemon_log_count(&node[i], "cluster: engine ours's move for game") >
			    taken[i])
				victim = i;
	REQUIRE(victim, "neither b nor c took the engine's move");
	int played = daemon_log_count(&node[victim], "cluster: engine ours played");
	daemon_stop(&node[victim], SIGKILL, 2000);
	int other = victim == 1 ? 2 : 1;
	CHECK(played == daemon_log_count(&node[victim], "cluster: engine ours played"),
	    "%s played the move before it was killed: test it again", redis_names[victim]);
	CHECK(tc_bot_wait(&g) == 1, "no engine move after %s was killed: %s", redis_names[victim],
	    g.over ? g.over_line : tc_why);
	CHECK(daemon_log_count(&node[other], "claimed (its worker went)") > claimed[other],
	    "%s did not claim %s's move", redis_names[other], redis_names[victim]);
	CHECK(tc_bot_play_out(&g) == 0, "the game stopped after %s went: %s", redis_names[victim],
	    tc_why);
	CHECK(g.over && !strstr(g.over_line, " resign"), "the game's end: %s", g.over_line);
	tc_close(g.c);
	if (other == 2) { /* the one left is node[1] from here on */
		struct daemon t = node[1];
		node[1] = node[2];
		node[2] = t;
	}
	ok("a worker killed mid-move: the other claims it, and the game goes on to its end");
}

/* junk answers garbage: its failures on the worker forfeit the game on a,
 * with the reason in a's log. */
static void
test_forfeit(void)
{
	struct tc_botgame g;
	int said = daemon_log_count(&node[0], "bot-junk forfeits");
	REQUIRE(game_new(&g, "carol", "junk") == 0, "no game against junk on a");
	REQUIRE(tc_bot_human(&g) == 0, "the human's move: %s", tc_why);
	const char *l = tc_expect(g.c, "* OVER", BOT_WAIT_MS);
	CHECK(l && strstr(l, " black resign"), "junk's end: %s", l ? l : g.c->line);
	CHECK(daemon_wait_log(&node[0], "bot-junk forfeits: answered \"hello\"", said, WAIT_MS),
	    "a's log does not say why junk forfeited");
	tc_close(g.c);
	ok("a brain that answers garbage on the worker forfeits its game on a, a's log says why");
}

/* The last worker stopped mid-game: the engine's seat forfeits on a;
 * then a lists no engine and refuses BOT play ours. */
static void
test_workers_gone(void)
{
	struct tc_botgame g;
	REQUIRE(game_new(&g, "dave", "ours") == 0, "no game against ours on a");
	REQUIRE(tc_bot_human(&g) == 0, "the human's move: %s", tc_why);
	REQUIRE(tc_bot_wait(&g) == 1, "the engine's move: %s", g.over ? g.over_line : tc_why);
	REQUIRE(daemon_stop(&node[1], SIGTERM, 10000) == 0, "the last worker did not stop cleanly");
	REQUIRE(tc_bot_human(&g) == 0, "the human's move: %s", tc_why);
	const char *l = tc_expect(g.c, "* OVER", BOT_WAIT_MS);
	CHECK(l && strstr(l, " black resign"), "the seat did not forfeit: %s", l ? l : g.c->line);
	CHECK(daemon_log_count(&node[0], "no node of the cluster has engine ours") > 0,
	    "a's log does not say why the seat forfeited");
	tc_close(g.c);
	ok("the last worker stopped mid-game: the engine's seat on a forfeits, and a says why");

	CHECK(greeting_says(node[0].port, "", WAIT_MS), "a still lists engines after b went");
	struct tc *c = tc_guest(node[0].port, "erin");
	REQUIRE(c, "connect to a");
	tc_send(c, "BOT play ours freestyle 15 none black none");
	CHECK_LINE(c, "ERR 402");
	tc_close(c);
	ok("no worker left: a lists no engine, and BOT play ours is refused (402)");
}

int
main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	int code;
	/* no memory limit in a sanitizer's build (test_engines.c says why);
	 * ours thinks a while, so that a worker can be killed mid-move */
	mport = tc_free_port();
	for (int i = 0; i < 2; i++)
		snprintf(engines[i], sizeof engines[i],
		    "bot-threads 1\nengine-games 4\n"
		    "engine ours %s turn-ms=700 memory=%d\n"
		    "engine junk %s garbage turn-ms=200 memory=%d\n"
		    "metrics-listen 127.0.0.1:%d\n",
		    PBRAIN, TESTS_SANITIZED ? 0 : 256, FIXTURE, TESTS_SANITIZED ? 0 : 256,
		    i ? tc_free_port() : mport);
	if (redis_guard(&redis, &code) != 0)
		return code;
	if (redis_nodes_up(&cl, 2) != 0)
		return 1;
	for (int i = 0; i < 2; i++)
		if (!daemon_wait_log(&node[i], "on Redis", 0, WAIT_MS)) {
			printf("FAIL: node %s never reached Redis (%s)\n", redis_names[i],
			    node[i].log);
			return 1;
		}
	test_engine_on_b();
	if (!failures)
		test_worker_killed();
	if (!failures)
		test_forfeit();
	if (!failures)
		test_workers_gone();
	return redis_finish(&redis, node, NODES, 1, failures);
}
