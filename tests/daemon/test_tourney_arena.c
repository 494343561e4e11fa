/*
 * test_tourney_arena: a 2-minute arena (PROTOCOL.md section 5.21) of 6
 * players, 3 of them bots, on the real bin/gomokud (about 2 minutes 10 s:
 * it runs in one pass of CI, .ci/run):
 * - the first wave, worked out by hand: everyone at 0 points, in the order
 *   of rating (three guests at 1500 by the order of joining, then bot3 at
 *   1200, bot2, bot1), paired neighbour with neighbour: p1-p2, p3-bot3,
 *   bot2-bot1, "first" to the lower rating (then the lower pairing
 *   number): p1-p2, bot3-p3, bot1-bot2;
 * - the guests resign every game at once (bots' games are played out), so
 *   players come free at different times and are paired again as soon as
 *   they are: every player plays more than one game;
 * - nobody is ever paired with the opponent of their last game (two who
 *   just met wait for someone else);
 * - every player's points at the end are the arena's scoring of its
 *   results in order (a win 2, a draw 1; after two wins in a row a win 4
 *   and a draw 2 until a game that is not a win), summed here from the
 *   * TGAME lines;
 * - the arena ends after its two minutes once its last games ended: no
 *   game starts after its end.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/daemon/check.h"
#include "tests/daemon/tclient.h"

#ifndef GOMOKUD_BIN
#define GOMOKUD_BIN "bin/gomokud"
#endif

enum { NG = 400, ARENA_S = 120 };

struct game {
	int round, board;
	char room[24], first[24], second[24], result[24];
	int ended; /* its result came, in this order */
	long long paired_ms;
};

static struct game games[NG];
static int ngames, nended;

/* One * TGAME line of event id. */
static void
take(long id, const char *l)
{
	long tid;
	int round, board;
	char room[24], first[24], second[24], result[24];
	if (sscanf(l, "* TGAME %ld %d %d %23s %23s %23s %23s", &tid, &round, &board, room, first,
		second, result) != 7 ||
	    tid != id)
		return;
	int i;
	for (i = 0; i < ngames; i++)
		if (games[i].round == round && games[i].board == board)
			break;
	if (i == ngames) {
		if (ngames == NG)
			return;
		ngames++;
		games[i].paired_ms = tc_now_ms();
	}
	struct game *g = &games[i];
	g->round = round;
	g->board = board;
	snprintf(g->room, sizeof g->room, "%s", room);
	snprintf(g->first, sizeof g->first, "%s", first);
	snprintf(g->second, sizeof g->second, "%s", second);
	snprintf(g->result, sizeof g->result, "%s", result);
	if (strcmp(result, "pending") != 0 && !g->ended)
		g->ended = ++nended;
}

/* Arena points of name from the games in the order they ended. */
static int
arena_points(const char *name)
{
	int points = 0, streak = 0;
	for (int k = 1; k <= nended; k++)
		for (int i = 0; i < ngames; i++) {
			const struct game *g = &games[i];
			if (g->ended != k)
				continue;
			int first = !strcmp(g->first, name), second = !strcmp(g->second, name);
			if (!first && !second)
				continue;
			const char *r = g->result;
			int won = (first && !strcmp(r, "first")) ||
			    (second && !strcmp(r, "second"));
			int fwon = (first && !strcmp(r, "second-forfeit")) ||
			    (second && !strcmp(r, "first-forfeit"));
			if (won) {
				points += streak >= 2 ? 4 : 2;
				streak++;
			} else if (!strcmp(r, "draw")) {
				points += streak >= 2 ? 2 : 1;
				streak = 0;
			} else if (fwon) {
				points += 2;
			} else {
				streak = 0;
			}
		}
	return points;
}

static void
run(void)
{
	static struct daemon d;
	REQUIRE(daemon_start(&d, GOMOKUD_BIN,
		    "bot-threads 2\nbot-think-ms 30\nmax-per-address 100\nadmins aboss\n") == 0,
	    "gomokud did not start");
	char out[256], line[96];
	struct tc *boss = tc_open(d.port, 1);
	REQUIRE(boss, "connect");
	tc_ask(boss, "REGISTER aboss s3cret-pass", out, sizeof out, LINE_MS);
	REQUIRE(!strncmp(out, "OK REGISTER", 11), "REGISTER: %s", out);
	snprintf(line, sizeof line, "TCREATE arena freestyle 15 60+0 none casual both 5 %d Arena",
	    ARENA_S / 60);
	tc_ask(boss, line, out, sizeof out, LINE_MS);
	long id;
	REQUIRE(sscanf(out, "OK TCREATE %ld", &id) == 1, "TCREATE: %s", out);
	struct tc *p[3];
	for (int i = 0; i < 3; i++) {
		char name[8];
		snprintf(name, sizeof name, "p%d", i + 1);
		REQUIRE((p[i] = tc_guest(d.port, name)), "guest %s", name);
		snprintf(line, sizeof line, "TJOIN %ld", id);
		tc_ask(p[i], line, out, sizeof out, LINE_MS);
		REQUIRE(!strncmp(out, "OK TJOIN", 8), "%s: %s", name, out);
	}
	for (int level = 1; level <= 3; level++) {
		snprintf(line, sizeof line, "TBOT %ld %d", id, level);
		tc_ask(boss, line, out, sizeof out, LINE_MS);
		REQUIRE(!strncmp(out, "OK TBOT", 7), "TBOT %d: %s", level, out);
	}
	/* the guests resign each game they get; the boss follows the arena */
	long long end = tc_now_ms() + (ARENA_S + 60) * 1000LL;
	int over = 0;
	char want[48];
	snprintf(want, sizeof want, "* TOURNEY %ld arena over ", id);
	while (!over && tc_now_ms() < end) {
		const char *l;
		while ((l = tc_read(boss, 50))) {
			take(id, l);
			if (!strncmp(l, want, strlen(want)))
				over = 1;
		}
		for (int i = 0; i < 3; i++)
			while ((l = tc_read(p[i], 10))) {
				char room[24];
				if (sscanf(l, "* START %23s", room) == 1)
					tc_send(p[i], "RESIGN %s", room);
			}
	}
	CHECK(over, "the arena did not end within its 2 minutes and 60 s");
	/* the first wave */
	static const char *const wave1[3][2] = { { "p1", "p2" }, { "bot3", "p3" },
		{ "bot1", "bot2" } };
	for (int k = 0; k < 3; k++) {
		int found = 0;
		for (int i = 0; i < ngames; i++)
			found |= games[i].round == 1 && !strcmp(games[i].first, wave1[k][0]) &&
			    !strcmp(games[i].second, wave1[k][1]);
		CHECK(found, "wave 1 has no %s-%s", wave1[k][0], wave1[k][1]);
	}
	/* nobody meets the last opponent again at once; everybody plays again */
	static const char *const names[6] = { "p1", "p2", "p3", "bot1", "bot2", "bot3" };
	for (int n = 0; n < 6; n++) {
		char last[24] = "";
		int played = 0;
		for (int r = 1; r <= 1000; r++)
			for (int i = 0; i < ngames; i++) {
				const struct game *g = &games[i];
				if (g->round != r)
					continue;
				const char *other = !strcmp(g->first, names[n]) ? g->second
				    : !strcmp(g->second, names[n])              ? g->first
										: NULL;
				if (!other)
					continue;
				CHECK(strcmp(other, last) != 0,
				    "%s met %s twice in a row (wave %d)", names[n], other, r);
				snprintf(last, sizeof last, "%s", other);
				played++;
			}
		CHECK(played >= 2, "%s played %d games", names[n], played);
	}
	int pending = 0;
	for (int i = 0; i < ngames; i++)
		pending += !strcmp(games[i].result, "pending");
	CHECK(pending == 0, "%d games without a result at the end", pending);
	/* the standings: points as the arena scores them */
	snprintf(line, sizeof line, "TWATCH %ld", id);
	tc_send(boss, "%s", line);
	const char *l;
	int lines = 0;
	while ((l = tc_read(boss, LINE_MS)) && strncmp(l, "OK TWATCH", 9) != 0) {
		long tid;
		int rank, points;
		char name[24];
		if (sscanf(l, "= TPLAYER %ld %d %23s %*s %d", &tid, &rank, name, &points) != 4)
			continue;
		CHECK(points == arena_points(name), "%s: %d points, its results give %d", name,
		    points, arena_points(name));
		lines++;
	}
	CHECK(lines == 6, "%d standings", lines);
	printf("# %d games in %d waves\n", ngames, games[ngames ? ngames - 1 : 0].round);
	for (int i = 0; i < 3; i++)
		tc_close(p[i]);
	tc_close(boss);
	daemon_stop(&d, SIGTERM, 5000);
	ok("a 2-minute arena of 3 guests and 3 bots: the first wave as worked out by hand, "
	   "everyone paired again when free and never with the last opponent, the points as "
	   "the arena scores the results, the end after its time");
}

int
main(void)
{
	run();
	printf("arena: %d failed\n", failures);
	return failures ? 1 : 0;
}
