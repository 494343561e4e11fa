/*
 * test_analysis: ANALYSE <rule> <size> <moves> [n] (capability `analysis`,
 * PROTOCOL.md section 5.18) on the real bin/gomokud and its bot workers:
 * - a forced win is said as one (its score, its first move), a quiet
 *   position gives the lines asked, each with a score, and the best line;
 * - a position POSITION refuses is refused the same way, and one whose
 *   game is over is 440;
 * - fair play: a player seated in an unfinished game gets no analysis of
 *   any position while it runs, and nobody gets one of the position of a
 *   game under way (452, told why); once the game is over, both may;
 * - the allowance an hour: a guest a third of an account's (453);
 * - one worker, no queue: a second asker meanwhile is 506; an asker who
 *   goes mid-search frees the worker for the next one.
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

enum { ANSWER_MS = 15000 };

/* Sends ANALYSE args; its OK or ERR line into out. 0, or -1 for none. */
static int
analyse(struct tc *c, const char *args, char *out, size_t n)
{
	const char *l;
	tc_send(c, "ANALYSE %s", args);
	while ((l = tc_read(c, ANSWER_MS)))
		if (!strncmp(l, "OK ANALYSE", 10) || !strncmp(l, "ERR", 3)) {
			snprintf(out, n, "%s", l);
			return 0;
		}
	snprintf(out, n, "(nothing)");
	return -1;
}

static void
test_answers(int port)
{
	char out[512], reason[32], cands[256], pv[512];
	int depth;
	struct tc *c = tc_guest(port, "student");
	REQUIRE(c, "guest");
	/* black to move, three in a row open: an open four wins */
	analyse(c, "freestyle 15 h8,a1,h9,a2,h10,a3", out, sizeof out);
	CHECK(sscanf(out, "OK ANALYSE %d %31s %255s %511s", &depth, reason, cands, pv) == 4,
	    "a won position: %s", out);
	int score = 0;
	char first[8] = "";
	sscanf(cands, "%7[a-t0-9]:%d", first, &score);
	CHECK(score >= 29000 && (!strcmp(first, "h11") || !strcmp(first, "h7")),
	    "the win is not said as one: %s", out);
	CHECK(!strncmp(pv, first, strlen(first)), "the line starts elsewhere: %s", out);

	/* a quiet position: the three lines asked, each with a score */
	analyse(c, "freestyle 15 h8,i9,j8 3", out, sizeof out);
	CHECK(sscanf(out, "OK ANALYSE %d %31s %255s %511s", &depth, reason, cands, pv) == 4,
	    "a quiet position: %s", out);
	int lines = 1;
	for (const char *p = cands; (p = strchr(p, ',')); p++)
		lines++;
	CHECK(lines == 3 && depth >= 1 && strchr(cands, ':'), "three lines asked: %s", out);

	analyse(c, "freestyle 15 h8,h8", out, sizeof out);
	CHECK(!strncmp(out, "ERR 432 ", 8) && strstr(out, "move 2 (h8)"), "occupied: %s", out);
	analyse(c, "freestyle 15 h8,a1,h9,a2,h10,a3,h11,a4,h12", out, sizeof out);
	CHECK(!strncmp(out, "ERR 440 ", 8), "a game over: %s", out);
	analyse(c, "freestyle 15 h8 9", out, sizeof out);
	CHECK(!strncmp(out, "ERR 402 ", 8), "nine lines: %s", out);
	tc_close(c);
	printf("ok ANALYSE: a win said as a win, the lines asked, POSITION's refusals\n");
}

static void
test_fair_play(int port)
{
	char out[512], room[24];
	struct tc *b, *w, *x = tc_guest(port, "kibitz");
	REQUIRE(x, "guest");
	REQUIRE(tc_pair_guests(
		    port, "fairb", "fairw", "freestyle 15 none", &b, &w, room, sizeof room) == 0,
	    "%s", tc_why);
	static const char *const mv[] = { "h8", "i9", "j10" };
	for (int i = 0; i < 3; i++) {
		struct tc *p = i % 2 ? w : b;
		tc_send(p, "MOVE %s %s", room, mv[i]);
		REQUIRE(tc_move_answer(p, LINE_MS) && !strncmp(p->line, "OK MOVE", 7), "move: %s",
		    p->line);
	}
	/* a player, of any position at all */
	analyse(w, "standard 19 a1", out, sizeof out);
	CHECK(!strncmp(out, "ERR 452 ", 8) && strstr(out, room), "a player's analysis: %s", out);
	analyse(b, "freestyle 15 h8,i9,j10", out, sizeof out);
	CHECK(!strncmp(out, "ERR 452 ", 8), "a player's own game: %s", out);
	/* anyone, of the game's position as it stands */
	analyse(x, "freestyle 15 h8,i9,j10", out, sizeof out);
	CHECK(!strncmp(out, "ERR 452 ", 8) && strstr(out, "under way") && strstr(out, room),
	    "the running game's position: %s", out);
	analyse(x, "freestyle 15 h8,i9", out, sizeof out);
	CHECK(!strncmp(out, "OK ANALYSE", 10), "another position: %s", out);
	/* the same, mirrored (columns) or turned a quarter: the same game */
	analyse(x, "freestyle 15 h8,g9,f10", out, sizeof out);
	CHECK(!strncmp(out, "ERR 452 ", 8) && strstr(out, room), "its position mirrored: %s", out);
	analyse(x, "freestyle 15 h8,g7,f6", out, sizeof out);
	CHECK(!strncmp(out, "ERR 452 ", 8) && strstr(out, room), "its position turned: %s", out);
	/* a short game moved elsewhere is another position (openings are shared) */
	struct tc *z = tc_guest(port, "kibitz3"); /* a guest's allowance is 2 */
	REQUIRE(z, "guest");
	analyse(z, "freestyle 15 i8,j9,k10", out, sizeof out);
	CHECK(!strncmp(out, "OK ANALYSE", 10), "three stones moved: %s", out);
	tc_close(z);
	/* three stones are an opening many positions share: one beyond is another's */
	analyse(x, "freestyle 15 h8,i9,j10,k11", out, sizeof out);
	CHECK(!strncmp(out, "OK ANALYSE", 10), "beyond a three-stone game: %s", out);
	/* from six stones on, a position holding all of a running game's
	 * stones, each of its colour, is its continuation: refused */
	static const char *const more[] = { "a1", "a3", "a5" };
	for (int i = 0; i < 3; i++) {
		struct tc *p = i % 2 ? b : w;
		tc_send(p, "MOVE %s %s", room, more[i]);
		REQUIRE(tc_move_answer(p, LINE_MS) && !strncmp(p->line, "OK MOVE", 7), "move: %s",
		    p->line);
	}
	struct tc *y = tc_guest(port, "kibitz2");
	REQUIRE(y, "guest");
	analyse(y, "freestyle 15 h8,i9,j10,a1,a3,a5,o15,o14", out, sizeof out);
	CHECK(!strncmp(out, "ERR 452 ", 8) && strstr(out, "follows") && strstr(out, room),
	    "two moves beyond the running game: %s", out);
	analyse(y, "freestyle 15 a3,a1,h8,i9,o15,a5,j10,o14", out, sizeof out);
	CHECK(!strncmp(out, "ERR 452 ", 8) && strstr(out, room), "its stones in another order: %s",
	    out);
	/* moved a column right, mirrored, or on a bigger board: the same game */
	static const char *const moved[] = {
		"freestyle 15 i8,j9,k10,b1,b3,b5,o15,o14",   /* one column right */
		"freestyle 15 h8,g9,f10,o1,o3,o5,a15,a14",   /* mirrored */
		"freestyle 19 h8,i9,j10,a1,a3,a5,s19,s18",   /* on 19x19 */
		"freestyle 19 j10,i11,h12,q3,q5,q7,a19,a18", /* mirrored, moved, on 19x19 */
	};
	for (int i = 0; i < 4; i++) {
		analyse(y, moved[i], out, sizeof out);
		CHECK(!strncmp(out, "ERR 452 ", 8) && strstr(out, room), "%s: %s", moved[i], out);
	}
	/* the same points, a stone of another colour: not that game */
	analyse(y, "freestyle 15 i9,h8,j10,a1,a3,a5,o15,o14", out, sizeof out);
	CHECK(!strncmp(out, "OK ANALYSE", 10), "a stone of the other colour: %s", out);
	tc_close(y);
	/* over: both may */
	tc_send(b, "RESIGN %s", room);
	REQUIRE(tc_expect(w, "* OVER", LINE_MS), "no * OVER: %s", w->line);
	analyse(w, "freestyle 15 h8,i9,j10", out, sizeof out);
	CHECK(!strncmp(out, "OK ANALYSE", 10), "after the game: %s", out);
	tc_close(b);
	tc_close(w);
	tc_close(x);
	printf("ok ANALYSE: no analysis for a player while the game runs, nor of its position "
	       "(also turned or mirrored) or (from six stones) a continuation of it for anyone, "
	       "also turned, mirrored or moved, on any board; after it, both\n");
}

static void
test_allowance(int port)
{
	char out[512];
	/* analysis-per-hour 6: a guest gets 2 */
	struct tc *g = tc_guest(port, "thrifty");
	REQUIRE(g, "guest");
	analyse(g, "freestyle 15 h8", out, sizeof out);
	CHECK(!strncmp(out, "OK ANALYSE", 10), "the first: %s", out);
	analyse(g, "freestyle 15 h8,i9", out, sizeof out);
	CHECK(!strncmp(out, "OK ANALYSE", 10), "the second: %s", out);
	analyse(g, "freestyle 15 h8,i9,j8", out, sizeof out);
	CHECK(!strncmp(out, "ERR 453 ", 8) && strstr(out, "2 analyses an hour for a guest"),
	    "the third: %s", out);
	/* the position is judged before the allowance */
	analyse(g, "freestyle 15 h8,h8", out, sizeof out);
	CHECK(!strncmp(out, "ERR 432 ", 8), "judged before the allowance: %s", out);
	tc_close(g);
	printf("ok ANALYSE: a guest's allowance, a third of an account's, then 453\n");
}

static void
test_busy(void)
{
	static struct daemon d;
	char out[512];
	REQUIRE(daemon_start(&d, GOMOKUD_BIN,
		    "bot-threads 1\nbot-queue 0\nanalysis-ms 4000\nanalysis-per-hour 30\n") == 0,
	    "gomokud did not start");
	struct tc *a = tc_guest(d.port, "first"), *b = tc_guest(d.port, "second");
	REQUIRE(a && b, "guests");
	tc_send(a, "ANALYSE freestyle 15 h8,i9,j8,k10");
	usleep(300 * 1000); /* a's search holds the one worker */
	analyse(b, "freestyle 15 h8", out, sizeof out);
	CHECK(!strncmp(out, "ERR 506 ", 8), "the worker was free: %s", out);
	/* a goes mid-search: its search stops, and the worker is b's at once */
	tc_close(a);
	usleep(300 * 1000);
	analyse(b, "freestyle 15 h8", out, sizeof out);
	CHECK(!strncmp(out, "OK ANALYSE", 10), "the worker still searched for a: %s", out);
	tc_close(b);
	CHECK(daemon_alive(&d), "the daemon died");
	CHECK(daemon_stop(&d, SIGTERM, 10000) == 0, "daemon exit");
	printf("ok ANALYSE: one worker and no queue, the second asker is 506; a gone asker's "
	       "search stops\n");
}

static void
run(void)
{
	static struct daemon d;
	REQUIRE(daemon_start(&d, GOMOKUD_BIN, "analysis-ms 300\nanalysis-per-hour 6\n") == 0,
	    "gomokud did not start");
	struct tc *anon = tc_open(d.port, 0); /* its last line: the greeting */
	REQUIRE(anon, "connect");
	CHECK(!strncmp(anon->line, "* SERVER ", 9) && strstr(anon->line, " analysis"),
	    "no analysis capability: %s", anon->line);
	tc_close(anon);
	test_answers(d.port);
	test_fair_play(d.port);
	test_allowance(d.port);
	CHECK(daemon_stop(&d, SIGTERM, 10000) == 0, "daemon exit");
	test_busy();
}

int
main(void)
{
	run();
	printf("analysis: %d failed\n", failures);
	return failures ? 1 : 0;
}
