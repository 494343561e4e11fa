/*
 * test_position: POSITION <rule> <size> <moves> (capability `position`,
 * PROTOCOL.md section 5.17), the rules core's judgement of a position of
 * no game, for an analysis board, on the real bin/gomokud:
 * - the side to move, the result and the five, for an empty board, a
 *   game under way and a won one;
 * - the first refused move is the error (432, 433, 434, 440), its number
 *   and point in the text;
 * - renju's forbidden points for black, none for white or under another
 *   rule, and the same points as FORBIDDEN names for a room holding the
 *   same position;
 * - a name first (410).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/daemon/check.h"
#include "tests/daemon/tclient.h"

#ifndef GOMOKUD_BIN
#define GOMOKUD_BIN "bin/gomokud"
#endif

static int port;

/* Sends POSITION args and reads its answer: the = FORBIDDEN points joined
 * with spaces into pts (" h8 j8 "), and the OK or ERR line into out. 0, or
 * -1 when no answer came. */
static int
position(struct tc *c, const char *args, char *pts, size_t npts, char *out, size_t nout)
{
	const char *l;
	snprintf(pts, npts, " ");
	tc_send(c, "POSITION %s", args);
	while ((l = tc_read(c, LINE_MS))) {
		if (!strncmp(l, "= FORBIDDEN - ", 14)) {
			char list[512];
			snprintf(list, sizeof list, "%s", l + 14);
			for (char *t = strtok(list, ","); t; t = strtok(NULL, ","))
				snprintf(pts + strlen(pts), npts - strlen(pts), "%s ", t);
			continue;
		}
		if (!strncmp(l, "OK POSITION", 11) || !strncmp(l, "ERR", 3)) {
			snprintf(out, nout, "%s", l);
			return 0;
		}
	}
	return -1;
}

static void
test_results(struct tc *c)
{
	char pts[1024], out[512];
	REQUIRE(position(c, "freestyle 15 -", pts, sizeof pts, out, sizeof out) == 0, "no answer");
	CHECK(!strcmp(out, "OK POSITION black none 0 -"), "empty board: %s", out);
	position(c, "freestyle 15 h8,i9", pts, sizeof pts, out, sizeof out);
	CHECK(!strcmp(out, "OK POSITION black none 0 -"), "two stones: %s", out);
	position(c, "standard 15 h8,i9,j10", pts, sizeof pts, out, sizeof out);
	CHECK(!strcmp(out, "OK POSITION white none 0 -"), "three stones: %s", out);

	/* black's five down the h file: over, the five named */
	position(c, "freestyle 15 h8,a1,h9,a2,h10,a3,h11,a4,h12", pts, sizeof pts, out, sizeof out);
	CHECK(!strncmp(out, "OK POSITION none black 0 ", 25), "a five: %s", out);
	static const char *const five[] = { "h8", "h9", "h10", "h11", "h12" };
	for (int i = 0; i < 5; i++) {
		char w[8];
		snprintf(w, sizeof w, "%s", five[i]);
		CHECK(strstr(out + 25, w) != NULL, "the five lacks %s: %s", w, out);
	}
	printf("ok POSITION: the side to move, the result and the five\n");
}

static void
test_refusals(struct tc *c)
{
	char pts[1024], out[512];
	position(
	    c, "freestyle 15 h8,a1,h9,a2,h10,a3,h11,a4,h12,a5", pts, sizeof pts, out, sizeof out);
	CHECK(strstr(out, "ERR 440 ") && strstr(out, "move 10 (a5)"), "after the five: %s", out);
	position(c, "freestyle 15 h8,h8", pts, sizeof pts, out, sizeof out);
	CHECK(strstr(out, "ERR 432 ") && strstr(out, "move 2 (h8)"), "occupied: %s", out);
	position(c, "freestyle 9 a1,j10", pts, sizeof pts, out, sizeof out);
	CHECK(strstr(out, "ERR 433 ") && strstr(out, "move 2 (j10)"), "off the board: %s", out);
	position(c, "gomoku 15 -", pts, sizeof pts, out, sizeof out);
	CHECK(!strncmp(out, "ERR 402 ", 8), "no such rule: %s", out);
	printf("ok POSITION: the first refused move is the error, its number and point said\n");
}

/* Black h8 i8 j9 j10 (white far off): j8 would make two open threes. */
#define RENJU_MOVES "h8,a1,i8,a3,j9,a5,j10,a7"

static void
test_renju(struct tc *c)
{
	char pts[1024], out[512];
	position(c, "renju 15 " RENJU_MOVES, pts, sizeof pts, out, sizeof out);
	int n = -1;
	CHECK(sscanf(out, "OK POSITION black none %d -", &n) == 1, "renju: %s", out);
	CHECK(strstr(pts, " j8 ") != NULL, "j8 is not named forbidden:%s", pts);
	int listed = 0;
	for (const char *p = pts; (p = strchr(p + 1, ' ')) != NULL;)
		listed++;
	CHECK(listed == n, "the count %d is not the %d points listed", n, listed);
	position(c, "renju 15 " RENJU_MOVES ",j8", pts, sizeof pts, out, sizeof out);
	CHECK(strstr(out, "ERR 434 ") && strstr(out, "move 9 (j8): double-three"), "j8 played: %s",
	    out);
	/* white to move, or another rule: none */
	position(c, "renju 15 " RENJU_MOVES ",o15", pts, sizeof pts, out, sizeof out);
	CHECK(!strcmp(pts, " ") && !strcmp(out, "OK POSITION white none 0 -"),
	    "white to move: %s%s", pts, out);
	position(c, "freestyle 15 " RENJU_MOVES, pts, sizeof pts, out, sizeof out);
	CHECK(!strcmp(pts, " ") && !strcmp(out, "OK POSITION black none 0 -"), "freestyle: %s%s",
	    pts, out);
	printf("ok POSITION: renju's forbidden points for black (%d), none for white or "
	       "freestyle\n",
	    n);
}

/* A renju room with the same position: FORBIDDEN names what POSITION
 * names, since both ask the rules core the same question. */
static void
test_same_as_room(struct tc *c)
{
	struct tc *b, *w;
	char room[24], pts[1024], out[512];
	REQUIRE(
	    tc_pair_guests(port, "posb", "posw", "renju 15 none", &b, &w, room, sizeof room) == 0,
	    "%s", tc_why);
	static const char *const mv[] = { "h8", "a1", "i8", "a3", "j9", "a5", "j10", "a7" };
	for (int i = 0; i < 8; i++) {
		struct tc *p = i % 2 ? w : b;
		tc_send(p, "MOVE %s %s", room, mv[i]);
		REQUIRE(tc_move_answer(p, LINE_MS) && !strncmp(p->line, "OK MOVE", 7),
		    "move %s: %s", mv[i], p->line);
	}
	char roomed[1024] = " ", pre[64];
	snprintf(pre, sizeof pre, "= FORBIDDEN %s ", room);
	tc_send(w, "FORBIDDEN %s", room);
	const char *l;
	while ((l = tc_read(w, LINE_MS)) && strncmp(l, "OK FORBIDDEN", 12)) {
		if (strncmp(l, pre, strlen(pre)))
			continue;
		char list[512];
		snprintf(list, sizeof list, "%s", l + strlen(pre));
		for (char *t = strtok(list, ","); t; t = strtok(NULL, ","))
			snprintf(roomed + strlen(roomed), sizeof roomed - strlen(roomed), "%s ", t);
	}
	position(c, "renju 15 " RENJU_MOVES, pts, sizeof pts, out, sizeof out);
	CHECK(!strcmp(roomed, pts), "FORBIDDEN %s named%s, POSITION%s", room, roomed, pts);
	tc_close(b);
	tc_close(w);
	printf("ok POSITION names the points FORBIDDEN names for a room in that position\n");
}

static void
run(void)
{
	static struct daemon d;
	REQUIRE(daemon_start(&d, GOMOKUD_BIN, NULL) == 0, "gomokud did not start");
	port = d.port;

	struct tc *anon = tc_open(port, 0); /* its last line: the greeting */
	REQUIRE(anon, "connect");
	CHECK(!strncmp(anon->line, "* SERVER ", 9) && strstr(anon->line, " position"),
	    "no position capability: %s", anon->line);
	tc_send(anon, "HELLO 1");
	REQUIRE_LINE(anon, "OK HELLO");
	tc_send(anon, "POSITION freestyle 15 -");
	CHECK(tc_expect(anon, "ERR 410 ", LINE_MS), "POSITION before a name: %s", anon->line);
	tc_close(anon);

	struct tc *c = tc_guest(port, "analyst");
	REQUIRE(c, "guest");
	test_results(c);
	test_refusals(c);
	test_renju(c);
	test_same_as_room(c);
	tc_close(c);
	CHECK(daemon_stop(&d, SIGTERM, 10000) == 0, "daemon exit");
}

int
main(void)
{
	run();
	printf("position: %d failed\n", failures);
	return failures ? 1 : 0;
}
