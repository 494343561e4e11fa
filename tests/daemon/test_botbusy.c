/*
 * test_botbusy.c: a bot's answer that comes while its room waits for a
 * commit. The human resigns while the bot thinks; the fault build makes
 * the end's write slow (before:end-game:1:slow, two seconds), so on
 * PostgreSQL, where the store thread commits beside the loop, the bot's
 * move arrives while the resignation is in flight. The bot must wait for
 * that commit (the game is then over) instead of writing over the room's
 * write in flight, which killed the daemon. On SQLite the slow write holds
 * the loop, so the test walks the same path without the race. Run in both
 * passes by tests/pg/test_pg.sh.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/daemon/check.h"
#include "tests/daemon/tclient.h"

#ifndef GOMOKUD_FAULTS_BIN
#define GOMOKUD_FAULTS_BIN "gomokud-faults"
#endif

static void
test_resign_while_bot_thinks(void)
{
	static struct daemon d;
	setenv("GOMOKUD_FAULT", "before:end-game:1:slow", 1);
	/* the bot thinks longer than a resignation takes to arrive, and
	 * answers before the slow end is committed */
	int rc = daemon_start(&d, GOMOKUD_FAULTS_BIN, "bot-think-ms 400\n");
	unsetenv("GOMOKUD_FAULT");
	REQUIRE(rc == 0, "the fault build did not start");

	struct tc *c = tc_guest(d.port, "hasty");
	REQUIRE(c, "no guest");
	tc_send(c, "BOT play 10 freestyle 15 none black none");
	const char *l = tc_expect(c, "OK BOT", 10000);
	REQUIRE(l, "no bot game: %s", c->line);
	char room[24];
	sscanf(l, "OK BOT %23s", room);
	/* a few moves first: the bot's first answers come from its book, at
	 * once; later ones take their search time */
	static const char *const mv[] = { "h8", "a1", "a15", "o1" };
	for (int i = 0; i < 4; i++) {
		tc_send(c, "MOVE %s %s", room, mv[i]);
		REQUIRE(tc_expect(c, "OK MOVE", 10000), "the move %s: %s", mv[i], c->line);
		if (i < 3) /* the bot's answer (the mover's own event came first) */
			REQUIRE(tc_expect(c, "* MOVE", 10000), "the bot's move: %s", c->line);
	}
	tc_send(c, "RESIGN %s", room);
	l = tc_expect(c, "* OVER", 10000);
	CHECK(l && strstr(l, "resign"), "no * OVER after resigning: %s", c->line);
	/* the bot's move, answered meanwhile, changed nothing */
	tc_send(c, "PING");
	CHECK(tc_expect(c, "OK PING", 5000), "the daemon is gone: %s", c->line);
	CHECK(daemon_alive(&d), "the daemon died");
	/* the room refuses a second write in flight, and says so: the bot must
	 * not have asked for one */
	CHECK(daemon_log_count(&d, "while one is in flight") == 0,
	    "the bot moved while the resignation was being stored");
	tc_close(c);
	CHECK(daemon_stop(&d, SIGTERM, 10000) == 0, "daemon exit");
	printf(
	    "a resignation committed slowly while the bot thinks: the bot waits, the game ends\n");
}

int
main(void)
{
	test_resign_while_bot_thinks();
	printf("botbusy: %d failed\n", failures);
	return failures ? 1 : 0;
}
