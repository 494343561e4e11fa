/*
 * test_engines.c: hosted engines (issue 49) on the real gomokud: the
 * config's engine lines are listed in the greeting (engines=), BOT play
 * names one and plays a whole game against it (its brain in the sandbox,
 * driven by daemon/hosted.c), the seat named bot-<engine> and marked a
 * bot; an unknown engine and an opening rule are refused; a brain that
 * answers garbage, and one that sleeps past its time, forfeit the game
 * after its failures, and the server's log says why. GET /metrics counts
 * each engine's moves, failures and forfeits, and its brains alive.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LINE_MS 20000
#include "tests/daemon/check.h"
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

static struct daemon d;
static int mport; /* the daemon's metrics */

/* The sample of family fam for engine (gomokud_engine_*), or -1. */
static long
engine_metric(const char *fam, const char *engine)
{
	char name[128];
	snprintf(name, sizeof name, "gomokud_engine_%s{engine=\"%s\"}", fam, engine);
	return tc_metric(mport, name);
}

/* Whether engine's brains are n within ms (a brain ends after its game). */
static int
brains_become(const char *engine, long n, int ms)
{
	for (long long end = tc_now_ms() + ms; tc_now_ms() < end; usleep(50000))
		if (engine_metric("brains", engine) == n)
			return 1;
	return 0;
}

/* The engines' memory (MiB; their address space is twice that and 512
 * MiB more): none in a sanitizer's build, whose brain maps terabytes of
 * shadow memory at its start and would die of any limit before its
 * first line. */
#define ENGINE_MEMORY (TESTS_SANITIZED ? 0 : 256)

static void
test_greeting_and_game(void)
{
	struct tc *c = tc_open(d.port, 0);
	REQUIRE(c, "connect"); /* tc_open read the greeting */
	REQUIRE(
	    strstr(c->line, "* SERVER") == c->line && strstr(c->line, " engines=ours,junk,sleepy"),
	    "greeting: %s", c->line);
	tc_close(c);
	printf("the greeting lists the hosted engines (engines=ours,junk,sleepy)\n");

	c = tc_guest(d.port, "player");
	REQUIRE(c, "connect");
	tc_send(c, "BOT play nosuch freestyle 15 none black none");
	REQUIRE_LINE(c, "ERR 402");
	tc_send(c, "BOT play ours freestyle 15 none black swap2");
	REQUIRE_LINE(c, "ERR 402");
	printf("an unknown engine and an opening rule: 402\n");

	char room[24];
	tc_send(c, "BOT play ours freestyle 15 none black none");
	REQUIRE_LINE(c, "* START");
	REQUIRE(strstr(c->line, " player bot-ours "), "%s", c->line);
	REQUIRE_LINE(c, "OK BOT");
	REQUIRE(sscanf(c->line, "OK BOT %23s", room) == 1, "%s", c->line);
	tc_send(c, "WHO %s", room);
	REQUIRE_LINE(c, "= BOT bot-ours");
	REQUIRE_LINE(c, "OK WHO");
	struct tc_botgame g;
	tc_bot_init(&g, c, room, 1);
	REQUIRE(tc_bot_play_out(&g) == 0, "%s", tc_why);
	REQUIRE(g.over && g.bot_moves > 3, "no end: %d bot moves", g.bot_moves);
	printf("a whole game against the hosted engine 'ours' (pbrain-gomoku, sandboxed): %d "
	       "moves, %s\n",
	    g.moves, g.over_line);
	/* the metrics count its brain's moves, none served to another node */
	long moves = engine_metric("moves_total", "ours");
	REQUIRE(moves == g.bot_moves, "gomokud_engine_moves_total of ours: %ld, %d played", moves,
	    g.bot_moves);
	REQUIRE(engine_metric("moves_served_total", "ours") == 0 &&
		engine_metric("failures_total", "ours") == 0 &&
		engine_metric("forfeits_total", "ours") == 0,
	    "ours served, failed or forfeited in the metrics");
	REQUIRE(brains_become("ours", 0, 5000), "a brain of ours still counted after the game");
	printf("the metrics: %ld moves of ours, no failure, its brain gone before LEAVE\n", moves);
	/* a rematch: a new brain for the new game (the engine black now) */
	tc_send(c, "OFFER %s rematch", room);
	REQUIRE_LINE(c, "OK OFFER");
	REQUIRE_LINE(c, "* START");
	REQUIRE_LINE(c, "* MOVE");
	REQUIRE(strstr(c->line, " black "), "the engine's first move: %s", c->line);
	REQUIRE(engine_metric("brains", "ours") == 1, "no brain counted for the rematch");
	tc_send(c, "RESIGN %s", room);
	REQUIRE_LINE(c, "* OVER");
	REQUIRE(brains_become("ours", 0, 5000), "the rematch's brain still counted after it");
	printf("a rematch against the engine: a brain for it, gone at its end\n");
	tc_send(c, "LEAVE %s", room);
	REQUIRE_LINE(c, "OK LEAVE");
	tc_close(c);
}

/* A game against engine; the human's first move, then the engine's
 * failures end it: the * OVER line must say the engine resigned. */
static void
forfeit(const char *engine, const char *logged)
{
	struct tc *c = tc_guest(d.port, engine[0] == 'j' ? "victim" : "waiter");
	char room[24];
	REQUIRE(c, "connect");
	tc_send(c, "BOT play %s freestyle 15 none black none", engine);
	REQUIRE_LINE(c, "OK BOT");
	REQUIRE(sscanf(c->line, "OK BOT %23s", room) == 1, "%s", c->line);
	tc_send(c, "MOVE %s h8", room);
	REQUIRE_LINE(c, "OK MOVE");
	const char *l = tc_expect(c, "* OVER", 30000);
	REQUIRE(l, "no end after the brain's failures");
	REQUIRE(strstr(l, " black resign"), "%s", l);
	REQUIRE(daemon_wait_log(&d, logged, 0, 5000), "the log does not say '%s'", logged);
	/* two failures restarted the brain; the third gave the game up */
	long fails = engine_metric("failures_total", engine),
	     gave = engine_metric("forfeits_total", engine);
	REQUIRE(fails == 2 && gave == 1 && engine_metric("moves_total", engine) == 0,
	    "%s's metrics: %ld failures, %ld forfeits", engine, fails, gave);
	REQUIRE(brains_become(engine, 0, 5000), "a brain of %s still counted", engine);
	printf("engine '%s' forfeits (%s) and the log says why; the metrics count 2 failures "
	       "and the forfeit\n",
	    engine, l);
	tc_close(c);
}

int
main(void)
{
	char conf[2048];
	mport = tc_free_port();
	snprintf(conf, sizeof conf,
	    "rate-burst 1000\nrate-per-second 1000\nmetrics-listen 127.0.0.1:%d\n"
	    "engine ours %s turn-ms=200 memory=%d\n"
	    "engine junk %s garbage turn-ms=200 memory=%d\n"
	    "engine sleepy %s hang turn-ms=200 memory=%d\n"
	    "engine-games 4\n",
	    mport, PBRAIN, ENGINE_MEMORY, FIXTURE, ENGINE_MEMORY, FIXTURE, ENGINE_MEMORY);
	if (daemon_start(&d, GOMOKUD_BIN, conf) != 0) {
		printf("FAIL: gomokud did not start\n");
		return 1;
	}
	test_greeting_and_game();
	if (!failures)
		forfeit("junk", "bot-junk forfeits: answered \"hello\"");
	if (!failures)
		forfeit("sleepy", "bot-sleepy forfeits:");
	if (daemon_stop(&d, SIGTERM, 10000) != 0) {
		printf("FAIL: gomokud did not exit cleanly\n");
		failures++;
	}
	if (!failures) {
		char cmd[300];
		snprintf(cmd, sizeof cmd, "rm -rf %s", d.dir);
		if (system(cmd) != 0)
			printf("could not remove the test directory\n");
	}
	printf("engines: %d passed, %d failed\n", failures ? 0 : 1, failures ? 1 : 0);
	return failures ? 1 : 0;
}
