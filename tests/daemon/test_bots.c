/*
 * test_bots.c: the server's bots on the real gomokud. A game against a bot
 * is played to the end under each rule and level band (the bot's moves
 * carry their reason, THINK previews come); bots answer offers (undo in a
 * casual game, a draw they are winning declined, a rematch accepted); swap2
 * with a bot on either side; a bot for the free seat of a private room and
 * for a SEEK nobody answered; with one worker and no queue a second BOT is
 * told the server is busy, and resigning the first game frees the worker
 * (its search is cancelled); 50 bot games at once all finish; a bot plays
 * each opening rule's stages to the game's start (issue 46: place, swap,
 * declare, offer, choose, branch), the human taking the other side.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define LINE_MS 20000 /* bots think, and under TSan slowly */
#include "tests/daemon/check.h"
#include "tests/daemon/spiral.h"
#include "tests/daemon/tclient.h"

#ifndef GOMOKUD_BIN
#define GOMOKUD_BIN "bin/gomokud"
#endif

static struct daemon d, d1;

/* test_fifty's moves: points spiralling out from the centre, in order. */
static int spiral[225][2];

/* A bot game in room on c from its start, the human black or white, played
 * to its end (tc_bot_play_out): 0, or -1 with the failure said. */
static int
bot_game(struct tc *c, const char *room, int human_black, int renju, struct tc_botgame *g)
{
	tc_bot_init(g, c, room, human_black);
	g->renju = renju;
	if (tc_bot_play_out(g) == 0)
		return 0;
	CHECK(0, "%s", tc_why);
	return -1;
}

static void
test_games_to_the_end(void)
{
	static const char *rules[] = { "freestyle", "standard", "renju" };
	static const int levels[] = { 2, 6, 10 };
	struct tc *c = tc_guest(d.port, "human");
	char room[24];

	REQUIRE(c, "connect");
	for (int r = 0; r < 3; r++)
		for (int b = 0; b < 3; b++) {
			struct tc_botgame g;
			int black = (r + b) % 2;
			tc_send(c, "BOT play %d %s 15 none %s none", levels[b], rules[r],
			    black ? "black" : "white");
			REQUIRE_LINE(c, "* START");
			REQUIRE_LINE(c, "OK BOT");
			REQUIRE(sscanf(c->line, "OK BOT %23s", room) == 1, "%s", c->line);
			if (bot_game(c, room, black, r == 2, &g) != 0)
				return;
			REQUIRE(g.over, "%s level %d: no end", rules[r], levels[b]);
			REQUIRE(g.bot_moves > 0 && g.reasons == g.bot_moves,
			    "%s level %d: %d of %d bot"
			    " moves had a reason",
			    rules[r], levels[b], g.reasons, g.bot_moves);
			printf("%-9s level %2d, human %s: %3d moves, %s (%d THINK previews)\n",
			    rules[r], levels[b], black ? "black" : "white", g.moves, g.over_line,
			    g.thinks);
			tc_send(c, "LEAVE %s", room);
			REQUIRE_LINE(c, "OK LEAVE");
		}
	tc_send(c, "WHO");
	REQUIRE_LINE(c, "OK WHO");
	tc_close(c);
	printf("a bot game played to the end under each rule and level band; every bot move"
	       " says why\n");
}

static void
test_offers_and_rematch(void)
{
	struct tc *c = tc_guest(d.port, "offerer");
	char room[24];

	REQUIRE(c, "connect");
	tc_send(c, "BOT play 3 freestyle 15 none black none");
	REQUIRE_LINE(c, "OK BOT");
	sscanf(c->line, "OK BOT %23s", room);
	tc_send(c, "MOVE %s h8", room);
	REQUIRE_LINE(c, "OK MOVE"); /* our own * MOVE came before it */
	REQUIRE_LINE(c, "* MOVE");  /* the bot's */
	tc_send(c, "WHO %s", room);
	REQUIRE_LINE(c, "= USER bot3");
	tc_send(c, "OFFER %s undo", room);
	REQUIRE_LINE(c, "OK OFFER");
	REQUIRE_LINE(c, "* OFFEREND");
	REQUIRE(strstr(c->line, "accepted"), "undo in a casual game: %s", c->line);
	REQUIRE_LINE(c, "* UNDO");
	printf("a bot accepts an undo in a casual game\n");
	tc_send(c, "RESIGN %s", room);
	REQUIRE_LINE(c, "* OVER");
	tc_send(c, "OFFER %s rematch", room);
	REQUIRE_LINE(c, "OK OFFER");
	REQUIRE_LINE(c, "* START");
	printf("a bot accepts a rematch (colours swapped)\n");
	/* the bot is black now and moves first */
	REQUIRE_LINE(c, "* MOVE");
	tc_send(c, "RESIGN %s", room);
	REQUIRE_LINE(c, "* OVER");
	tc_send(c, "LEAVE %s", room);
	REQUIRE_LINE(c, "OK LEAVE");
	tc_close(c);
}

static void
test_swap2_and_seats(void)
{
	struct tc *c = tc_guest(d.port, "opener");
	char room[24], code[64];

	REQUIRE(c, "connect");
	/* the human opens: three stones, the bot chooses a colour */
	tc_send(c, "BOT play 5 freestyle 15 none black swap2");
	REQUIRE_LINE(c, "OK BOT");
	sscanf(c->line, "OK BOT %23s", room);
	tc_send(c, "SWAP2 %s put h8,h9,i9", room);
	REQUIRE_LINE(c, "OK SWAP2");
	REQUIRE_LINE(c, "* COLOURS");
	tc_send(c, "RESIGN %s", room);
	REQUIRE_LINE(c, "* OVER");
	tc_send(c, "LEAVE %s", room);
	REQUIRE_LINE(c, "OK LEAVE");
	/* the bot opens: the human is asked to choose */
	tc_send(c, "BOT play 5 standard 15 none white swap2");
	REQUIRE_LINE(c, "OK BOT");
	sscanf(c->line, "OK BOT %23s", room);
	REQUIRE_LINE(c, "* SWAP2");
	REQUIRE(strstr(c->line, " choose opener"), "after the bot's opening: %s", c->line);
	tc_send(c, "SWAP2 %s black", room);
	REQUIRE_LINE(c, "* COLOURS");
	tc_send(c, "RESIGN %s", room);
	REQUIRE_LINE(c, "* OVER");
	tc_send(c, "LEAVE %s", room);
	REQUIRE_LINE(c, "OK LEAVE");
	printf("swap2 with a bot: it chooses after a human opening, and opens for a human\n");

	/* a bot takes the free seat of a private room */
	tc_send(c, "CREATE renju 15 none black casual none");
	REQUIRE_LINE(c, "OK CREATE");
	sscanf(c->line, "OK CREATE %23s %63s", room, code);
	tc_send(c, "BOT seat %s 4", room);
	REQUIRE_LINE(c, "* START");
	REQUIRE_LINE(c, "OK BOT");
	tc_send(c, "RESIGN %s", room);
	REQUIRE_LINE(c, "* OVER");
	tc_send(c, "LEAVE %s", room);
	REQUIRE_LINE(c, "OK LEAVE");
	printf("BOT seat gives a bot the free seat of a private room\n");

	/* a seek that allows it falls back to a bot */
	tc_send(c, "SEEK freestyle 15 none any casual none bot");
	REQUIRE_LINE(c, "OK SEEK");
	REQUIRE_LINE(c, "* START");
	REQUIRE(strstr(c->line, "bot5"), "fallback game: %s", c->line);
	tc_close(c);
	printf("a SEEK with bot fallback gets a bot after the wait\n");
}

/* BOT play with args until the one worker is free (a cancelled search
 * releases it within moments); the OK BOT line, or NULL. */
static const char *
bot_play_when_free(struct tc *c, const char *args)
{
	const char *l = NULL;

	for (int i = 0; i < 50; i++) {
		tc_send(c, "BOT play %s", args);
		while ((l = tc_read(c, 5000)) && strncmp(l, "OK BOT", 6) && strncmp(l, "ERR", 3))
			;
		if (l && strncmp(l, "OK BOT", 6) == 0)
			return l;
		usleep(100000);
	}
	return NULL;
}

static void
test_busy_and_cancel(void)
{
	char room[24];
	const char *l = NULL;

	/* one worker, no queue, long thoughts */
	REQUIRE(
	    daemon_start(&d1, GOMOKUD_BIN, "bot-threads 1\nbot-queue 0\nbot-think-ms 20000") == 0,
	    "daemon");
	struct tc *a = tc_guest(d1.port, "first"), *b = tc_guest(d1.port, "second");
	REQUIRE(a && b, "connect");
	tc_send(a, "BOT play 10 freestyle 15 none black none");
	REQUIRE_LINE(a, "OK BOT");
	sscanf(a->line, "OK BOT %23s", room);
	tc_send(a, "MOVE %s h8", room);
	REQUIRE_LINE(a, "* THINK"); /* its answer's search is running */
	tc_send(b, "BOT play 10 freestyle 15 none white none");
	REQUIRE_LINE(b, "ERR 506 server-busy");
	printf("one worker busy and no queue: another BOT is told 506 server-busy\n");
	tc_send(a, "RESIGN %s", room);
	REQUIRE_LINE(a, "* OVER");
	/* the cancelled search frees the worker: the next game gets it */
	l = bot_play_when_free(b, "10 freestyle 15 none white none");
	REQUIRE(l, "the worker was not freed: %s", b->line);
	sscanf(l, "OK BOT %23s", room);
	tc_send(b, "RESIGN %s", room);
	REQUIRE_LINE(b, "* OVER");
	tc_send(b, "LEAVE %s", room);
	REQUIRE_LINE(b, "OK LEAVE");
	tc_close(a);
	printf("resigning cancels the bot's search at once: the only worker takes the next game\n");

	/* 20 s a move by config, 10 s on its clock: the clock wins, it never flags */
	struct tc_botgame g;
	l = bot_play_when_free(b, "10 freestyle 15 10+0 black none");
	REQUIRE(l, "no timed bot game: %s", b->line);
	sscanf(l, "OK BOT %23s", room);
	if (bot_game(b, room, 1, 0, &g) != 0)
		return;
	REQUIRE(
	    g.over && !strstr(g.over_line, " time "), "the timed bot game ended: %s", g.over_line);
	printf("a bot on a 10 s clock with 20 s a move by config budgets from its clock: %d moves,"
	       " %s\n",
	    g.moves, g.over_line);
	tc_close(b);
	REQUIRE(daemon_stop(&d1, SIGTERM, 10000) == 0, "daemon exit");
}

static void
test_fifty(void)
{
	enum { N = 50 };
	struct tc *c[N];
	char room[N][24];
	int over = 0;

	for (int i = 0; i < N; i++) {
		char name[16];
		snprintf(name, sizeof name, "many%d", i);
		c[i] = tc_guest(d.port, name);
		REQUIRE(c[i], "connect %d", i);
		tc_send(c[i], "BOT play %d %s 15 none black none", 1 + i % 10,
		    i % 3 == 0       ? "freestyle"
			: i % 3 == 1 ? "standard"
				     : "renju");
		REQUIRE_LINE(c[i], "OK BOT");
		sscanf(c[i]->line, "OK BOT %23s", room[i]);
	}
	/* every game: ten human moves (each waits for the bot's answer), then resign */
	for (int k = 0; k < 10; k++)
		for (int i = 0; i < N; i++) {
			char mv[16];
			snprintf(
			    mv, sizeof mv, "%c%d", 'a' + spiral[k * 3][0], 15 - spiral[k * 3][1]);
			tc_send(c[i], "MOVE %s %s", room[i], mv);
		}
	for (int i = 0; i < N; i++) {
		tc_send(c[i], "RESIGN %s", room[i]);
		if (tc_expect(c[i], "* OVER", 60000))
			over++;
		tc_close(c[i]);
	}
	REQUIRE(over == N, "%d of %d bot games ended", over, N);
	printf("50 bot games at once (3 rules, levels 1-10) all played and ended\n");
}

/* The point (x, y) from the top left, in notation (a15 top left). */
static void
point_name(int x, int y, char *out, size_t n)
{
	snprintf(out, n, "%c%d", 'a' + x, 15 - y);
}

/* The first point of area a human would place on that is not in taken
 * (the central areas from the centre out, the others from the far corner
 * in): 0, or -1 when there is none. */
static int
area_point(const char *area, const char *taken, char *out, size_t n)
{
	int r = !strcmp(area, "centre") ? 0
	    : !strcmp(area, "in3")      ? 1
	    : !strcmp(area, "in5")      ? 2
	    : !strcmp(area, "in7")      ? 3
	    : !strcmp(area, "in9")      ? 4
					: -1;
	int out_of = !strcmp(area, "out5") ? 3 : !strcmp(area, "out7") ? 4 : 0;
	for (int y = 0; y < 15; y++)
		for (int x = 0; x < 15; x++) {
			int px = r >= 0 ? 7 + (x % 2 ? (x + 1) / 2 : -x / 2) : 14 - x;
			int py = r >= 0 ? 7 + (y % 2 ? (y + 1) / 2 : -y / 2) : 14 - y;
			int dx = abs(px - 7), dy = abs(py - 7), ring = dx > dy ? dx : dy;
			char name[8], key[10];
			if ((r >= 0 && ring > r) || ring < out_of)
				continue;
			point_name(px, py, name, sizeof name);
			snprintf(key, sizeof key, " %s ", name);
			if (!strstr(taken, key)) {
				snprintf(out, n, "%s", name);
				return 0;
			}
		}
	return -1;
}

/* One opening against a bot: the human (name) answers its own stages
 * simply (stones on the first free point, colour per colour_pick, declare 2, far
 * offers no symmetry can pair, the first offer), the bot the rest, up to
 * * COLOURS. The bot's stages are counted in asked[]. 0, or -1. */
static const char *const stage_names[] = { "place", "swap", "declare", "offer", "choose",
	"branch" };

static int
bot_opening(struct tc *c, const char *name, const char *spec, const char *colour_pick, int asked[6])
{
	/* offers: points whose distances from the centre differ as pairs */
	static const char *const far[] = { "a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "c2",
		"d2" };
	char room[24], stage[16], user[32], side[8], area[8], canon[8], offers[64], mv[8];
	char taken[512] = " "; /* the stones, " h8 i9 " */
	int count;
	unsigned seq;

	/* the first * OPENING may come before OK BOT: its events first */
	room[0] = '\0';
	tc_send(c, "BOT play 4 %s", spec);
	for (;;) {
		const char *l = tc_read(c, 30000);
		if (!l) {
			CHECK(0, "%s: nothing for 30 s (last %s)", spec, c->line);
			return -1;
		}
		if (!strncmp(l, "* COLOURS", 9) && room[0])
			break;
		if (!strncmp(l, "* OVER", 6) || !strncmp(l, "ERR", 3)) {
			CHECK(0, "%s: %s", spec, l);
			return -1;
		}
		if (!strncmp(l, "* MOVE ", 7) && sscanf(l, "* MOVE %*s %*u %*s %7s", mv) == 1 &&
		    strlen(taken) + 8 < sizeof taken)
			snprintf(taken + strlen(taken), sizeof taken - strlen(taken), "%s ", mv);
		if (!strncmp(l, "OK BOT", 6))
			sscanf(l, "OK BOT %23s", room);
		if (strncmp(l, "* OPENING ", 10) ||
		    sscanf(l, "* OPENING %23s %u %15s %31s %7s %7s %d %7s %63s", room, &seq, stage,
			user, side, area, &count, canon, offers) != 9) {
			continue;
		}
		if (strcmp(user, name) != 0) {
			for (int k = 0; k < 6; k++)
				asked[k] += !strcmp(stage, stage_names[k]);
			continue;
		}
		if (!strcmp(stage, "place")) {
			if (area_point(area, taken, mv, sizeof mv) != 0) {
				CHECK(0, "%s: no point left in %s", spec, area);
				return -1;
			}
			tc_send(c, "OPENING place %s %s", room, mv);
		} else if (!strcmp(stage, "swap")) {
			tc_send(c, "OPENING colour %s %s", room, colour_pick);
		} else if (!strcmp(stage, "declare")) {
			tc_send(c, "OPENING declare %s 2", room);
		} else if (!strcmp(stage, "offer")) {
			char list[64] = "";
			for (int k = 0; k < count && k < 10; k++)
				snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s",
				    k ? "," : "", far[k]);
			tc_send(c, "OPENING offer %s %s", room, list);
		} else if (!strcmp(stage, "choose")) {
			char *comma = strchr(offers, ',');
			if (comma)
				*comma = '\0';
			tc_send(c, "OPENING choose %s %s", room, offers);
		} else if (!strcmp(stage, "branch")) {
			tc_send(c, "OPENING branch %s one", room);
		}
	}
	tc_send(c, "RESIGN %s", room);
	if (!tc_expect(c, "* OVER", 20000)) {
		CHECK(0, "%s: no * OVER after resigning", spec);
		return -1;
	}
	tc_send(c, "LEAVE %s", room);
	CHECK_LINE(c, "OK LEAVE");
	return 0;
}

static void
test_openings(void)
{
	static const struct {
		const char *spec, *colour;
	} games[] = {
		{ "renju 15 none white rif", "black" },
		{ "renju 15 none black rif", "white" },
		{ "renju 15 none white yamaguchi", "white" },
		{ "renju 15 none black yamaguchi", "black" },
		{ "renju 15 none black soosorv8", "white" },
		{ "renju 15 none white soosorv8", "black" },
		{ "renju 15 none white taraguchi10", "white" },
		{ "renju 15 none black taraguchi10", "black" },
		{ "freestyle 15 none black swap", "white" },
		{ "standard 15 none white swap", "black" },
		{ "freestyle 15 none white pro", "white" },
		{ "freestyle 15 none black longpro", "white" },
	};
	struct tc *c = tc_guest(d.port, "opener2");
	int asked[6] = { 0 };

	REQUIRE(c, "connect");
	for (size_t i = 0; i < sizeof games / sizeof games[0]; i++)
		if (bot_opening(c, "opener2", games[i].spec, games[i].colour, asked) != 0)
			return;
	tc_close(c);
	printf("a bot plays every opening rule to the game (asked: place %d, swap %d, declare "
	       "%d, offer %d, choose %d, branch %d)\n",
	    asked[0], asked[1], asked[2], asked[3], asked[4], asked[5]);
	for (int k = 0; k < 5; k++)
		CHECK(asked[k] > 0, "the bot was never asked to %s", stage_names[k]);
}

int
main(void)
{
	make_spiral(spiral);
	if (daemon_start(&d, GOMOKUD_BIN,
		"bot-think-ms 150\nbot-preview-ms 0\nbot-fallback 1\nrate-burst "
		"1000\nrate-per-second 1000") != 0) {
		printf("FAIL: gomokud did not start\n");
		return 1;
	}
	test_games_to_the_end();
	if (!failures)
		test_offers_and_rematch();
	if (!failures)
		test_swap2_and_seats();
	if (!failures)
		test_openings();
	if (!failures)
		test_busy_and_cancel();
	if (!failures)
		test_fifty();
	if (daemon_stop(&d, SIGTERM, 10000) != 0) {
		printf("FAIL: gomokud did not exit cleanly\n");
		failures++;
	}
	if (!failures) {
		char cmd[300];
		snprintf(cmd, sizeof cmd, "rm -rf %s %s", d.dir, d1.dir);
		if (system(cmd) != 0)
			printf("could not remove the test directories\n");
	}
	printf("bots: %d passed, %d failed\n", failures ? 0 : 1, failures ? 1 : 0);
	return failures ? 1 : 0;
}
