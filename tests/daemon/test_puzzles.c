/*
 * test_puzzles: PUZZLE and SOLVE (capability `puzzles`, PROTOCOL.md
 * section 5.20) on the real bin/gomokud, its workers and its SQLite store:
 * - a public game where black missed a double four (a VCF in three plies)
 *   becomes a puzzle once it is reviewed; the same game in a private room
 *   does not;
 * - an account's first try: a wrong move fails, with the kept solution,
 *   and lowers its puzzle rating; another account solves it (the block,
 *   then the five) and gains; a second try is not rated; a guest's never;
 * - PUZZLE next gives a puzzle not tried (456 once all are), daily the
 *   same one to everyone;
 * - the refusals: SOLVE of a puzzle not open (441), an occupied point
 *   (432), PUZZLE of no such id (402) or of a word (402), a player seated
 *   in a game (452);
 * - a second device taking the session over mid-puzzle: the puzzle
 *   opened there and solved is the account's first try, rated;
 * - 48 guests' first moves at once: every one answered, judged or refused
 *   (506) while 32 are being judged.
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

enum { REVIEW_MS = 30000 };

/* black's closed threes h8-j8 (g8 white) and k9-k11 (k12 white) meet at
 * k8, a double four that wins before white's open three c3-e3 can; black
 * plays n2 instead, white makes its open four (f3) and black resigns */
static const char *const missed[] = { "h8", "g8", "i8", "k12", "j8", "c3", "k9", "d3", "k10", "e3",
	"k11", "o15", "n2", "f3" };
#define POSITION "h8,g8,i8,k12,j8,c3,k9,d3,k10,e3,k11,o15"

/* The game above in a public room (or a private one), black resigning at
 * the end; reviewed; its id into *id. */
static void
missed_game(int port, int private_room, long *id)
{
	struct tc *b = tc_guest(port, private_room ? "privb" : "missb"),
		  *w = tc_guest(port, private_room ? "privw" : "missw");
	char room[24], code[40], out[256];
	REQUIRE(b && w, "guests");
	if (private_room) {
		tc_ask(b, "CREATE freestyle 15 none black casual none", out, sizeof out, REVIEW_MS);
		REQUIRE(sscanf(out, "OK CREATE %23s %39s", room, code) == 2, "%s", out);
		tc_send(w, "JOIN %s", code);
		REQUIRE(tc_expect(w, "OK JOIN", LINE_MS), "join: %s", w->line);
	} else {
		tc_send(b, "SEEK freestyle 15 none black casual none");
		tc_send(w, "SEEK freestyle 15 none white casual none");
		REQUIRE(tc_expect(b, "* START ", LINE_MS), "no start: %s", b->line);
		REQUIRE(sscanf(b->line, "* START %23s", room) == 1, "%s", b->line);
	}
	for (int i = 0; i < 14; i++) {
		struct tc *p = i % 2 ? w : b;
		tc_send(p, "MOVE %s %s", room, missed[i]);
		REQUIRE(tc_move_answer(p, LINE_MS) && !strncmp(p->line, "OK MOVE", 7),
		    "move %s: %s", missed[i], p->line);
	}
	tc_send(b, "RESIGN %s", room);
	REQUIRE(tc_expect(w, "* OVER", LINE_MS), "no * OVER: %s", w->line);
	tc_send(b, "HISTORY");
	REQUIRE(tc_expect(b, "= GAME", LINE_MS), "%s", b->line);
	REQUIRE(sscanf(b->line, "= GAME %ld", id) == 1, "%s", b->line);
	REQUIRE(tc_expect(b, "OK HISTORY", LINE_MS), "%s", b->line);
	char line[64];
	snprintf(line, sizeof line, "REVIEW %ld", *id);
	tc_ask(b, line, out, sizeof out, REVIEW_MS);
	REQUIRE(!strncmp(out, "OK REVIEW", 9), "%s", out);
	REQUIRE(tc_expect(b, "* REVIEWED ", REVIEW_MS) && strstr(b->line, " ok "), "%s", b->line);
	tc_close(b);
	tc_close(w);
}

/* A new account's connection (NULL when it could not register). */
static struct tc *
account(int port, const char *name)
{
	struct tc *c = tc_open(port, 1);
	char out[256], line[64];
	if (!c)
		return NULL;
	snprintf(line, sizeof line, "REGISTER %s s3cret-pass", name);
	tc_ask(c, line, out, sizeof out, REVIEW_MS);
	if (strncmp(out, "OK REGISTER", 11) != 0) {
		tc_close(c);
		return NULL;
	}
	return c;
}

/* OK PUZZLE's id, class and moves, from out. */
static long
puzzle_of(const char *out, char *cls, char *moves)
{
	long id = 0;
	if (sscanf(out, "OK PUZZLE %ld freestyle 15 %7s %*d %*d %511s", &id, cls, moves) != 3)
		return 0;
	return id;
}

/* The puzzle made from game's move (from 1), by the daemon's log. */
static long
puzzle_made(const struct daemon *d, long game, int move)
{
	char want[64], l[512];
	long id = 0;
	snprintf(want, sizeof want, " made from game %ld, move %d ", game, move);
	FILE *f = fopen(d->log, "r");
	while (f && fgets(l, sizeof l, f)) {
		const char *p = strstr(l, "info puzzle ");
		if (p && strstr(l, want))
			id = atol(p + strlen("info puzzle "));
	}
	if (f)
		fclose(f);
	return id;
}

/* c opens puzzle id and plays it to the five: k8, the double four, then
 * the point the defence left; the last answer into out. */
static void
solve(struct tc *c, long id, char *out, size_t n)
{
	char line[64];
	snprintf(line, sizeof line, "PUZZLE %ld", id);
	tc_ask(c, line, out, n, REVIEW_MS);
	snprintf(line, sizeof line, "SOLVE %ld k8", id);
	tc_ask(c, line, out, n, REVIEW_MS);
	snprintf(line, sizeof line, "SOLVE %ld %s", id, strstr(out, " l8 ") ? "k7" : "l8");
	tc_ask(c, line, out, n, REVIEW_MS);
}

static void
test_solving(int port, long id, int made)
{
	char out[512], cls[8], moves[512], line[64];
	struct tc *a = account(port, "ann"), *b = account(port, "ben");
	REQUIRE(a && b, "accounts");
	snprintf(line, sizeof line, "PUZZLE %ld", id);
	tc_ask(a, line, out, sizeof out, REVIEW_MS);
	CHECK(puzzle_of(out, cls, moves) == id && !strcmp(cls, "vcf") && !strcmp(moves, POSITION),
	    "the puzzle: %s", out);

	/* a's first try: a quiet move fails, with the solution, rated down */
	snprintf(line, sizeof line, "SOLVE %ld h8", id);
	tc_ask(a, line, out, sizeof out, REVIEW_MS);
	CHECK(!strncmp(out, "ERR 432 ", 8), "an occupied point: %s", out);
	snprintf(line, sizeof line, "SOLVE %ld n2", id);
	tc_ask(a, line, out, sizeof out, REVIEW_MS);
	int rating = 0;
	char sol[128] = "";
	CHECK(sscanf(out, "OK SOLVE %*d failed - %d%*[?] %127s", &rating, sol) == 2 &&
		rating < 1500 && !strncmp(sol, "k8,", 3),
	    "a failed try: %s", out);
	tc_ask(a, line, out, sizeof out, REVIEW_MS);
	CHECK(!strncmp(out, "ERR 441 ", 8), "a move after the end: %s", out);

	/* b solves it: k8, the block, the other point */
	snprintf(line, sizeof line, "PUZZLE %ld", id);
	tc_ask(b, line, out, sizeof out, REVIEW_MS);
	CHECK(puzzle_of(out, cls, moves) == id, "b opens it: %s", out);
	snprintf(line, sizeof line, "SOLVE %ld k8", id);
	tc_ask(b, line, out, sizeof out, REVIEW_MS);
	char reply[4] = "";
	CHECK(sscanf(out, "OK SOLVE %*d more %3s - -", reply) == 1 &&
		(!strcmp(reply, "l8") || !strcmp(reply, "k7")),
	    "the double four: %s", out);
	snprintf(line, sizeof line, "SOLVE %ld %s", id, !strcmp(reply, "l8") ? "k7" : "l8");
	tc_ask(b, line, out, sizeof out, REVIEW_MS);
	CHECK(sscanf(out, "OK SOLVE %*d solved - %d", &rating) == 1 && rating > 1500,
	    "the five: %s", out);
	/* again: not rated */
	solve(b, id, out, sizeof out);
	CHECK(strstr(out, " solved - - -") != NULL, "a second try rated: %s", out);
	/* next: each puzzle once, then none */
	long seen[8] = { id };
	int n = 1;
	for (;; n++) {
		tc_ask(b, "PUZZLE next", out, sizeof out, REVIEW_MS);
		long next = puzzle_of(out, cls, moves);
		if (!next || n == 8)
			break;
		for (int i = 0; i < n; i++)
			CHECK(seen[i] != next, "puzzle %ld given twice: %s", next, out);
		seen[n] = next;
		snprintf(line, sizeof line, "SOLVE %ld n2", next); /* no win there */
		tc_ask(b, line, out, sizeof out, REVIEW_MS);
		CHECK(strstr(out, " failed ") != NULL, "a quiet move in puzzle %ld: %s", next, out);
	}
	CHECK(!strncmp(out, "ERR 456 ", 8) && n == made, "after %d of %d: %s", n, made, out);
	/* a guest: never rated */
	struct tc *g = tc_guest(port, "visitor");
	REQUIRE(g, "guest");
	snprintf(line, sizeof line, "PUZZLE %ld", id);
	tc_ask(g, line, out, sizeof out, REVIEW_MS);
	snprintf(line, sizeof line, "SOLVE %ld n2", id);
	tc_ask(g, line, out, sizeof out, REVIEW_MS);
	CHECK(strstr(out, " failed - - k8,") != NULL, "a guest rated: %s", out);
	tc_ask(g, "PUZZLE next", out, sizeof out, REVIEW_MS);
	CHECK(puzzle_of(out, cls, moves) > 0, "a guest's next: %s", out);
	/* daily: one for everyone */
	char d1[512], d2[512];
	tc_ask(a, "PUZZLE daily", d1, sizeof d1, REVIEW_MS);
	tc_ask(g, "PUZZLE daily", d2, sizeof d2, REVIEW_MS);
	CHECK(puzzle_of(d1, cls, moves) > 0 && !strcmp(d1, d2), "daily: %s / %s", d1, d2);
	/* refusals */
	tc_ask(g, "PUZZLE 99999", out, sizeof out, REVIEW_MS);
	CHECK(!strncmp(out, "ERR 402 ", 8), "no such puzzle: %s", out);
	tc_ask(g, "PUZZLE soon", out, sizeof out, REVIEW_MS);
	CHECK(!strncmp(out, "ERR 402 ", 8), "a word: %s", out);
	snprintf(line, sizeof line, "SOLVE %ld k8", 99999L);
	tc_ask(g, line, out, sizeof out, REVIEW_MS);
	CHECK(!strncmp(out, "ERR 441 ", 8), "not open: %s", out);
	tc_close(a);
	tc_close(b);
	tc_close(g);
	printf("ok PUZZLE: a failed first try rated down with the solution, a solved one up, "
	       "later tries and guests unrated; next once each, daily, the refusals\n");
}

/* A second device: an account's puzzle half played on one connection (its
 * first move sent, still being judged) when it signs in on another, which
 * takes the session over (* BYE takeover); on the new one the account
 * opens the puzzle again and solves it, and that is its first try, rated;
 * a later try is not. */
static void
test_second_device(int port, long id)
{
	char out[512], line[64];
	struct tc *one = account(port, "dev"), *two = tc_open(port, 1);
	REQUIRE(one && two, "connections");
	snprintf(line, sizeof line, "PUZZLE %ld", id);
	tc_ask(one, line, out, sizeof out, REVIEW_MS);
	REQUIRE(!strncmp(out, "OK PUZZLE", 9), "%s", out);
	tc_send(one, "SOLVE %ld k8", id); /* not waited for */
	tc_ask(two, "LOGIN dev s3cret-pass", out, sizeof out, REVIEW_MS);
	CHECK(!strncmp(out, "OK LOGIN dev ", 13), "the second device's login: %s", out);
	CHECK(tc_expect(one, "* BYE takeover", LINE_MS) != NULL, "the first device: %s", one->line);
	snprintf(line, sizeof line, "SOLVE %ld k8", id);
	tc_ask(two, line, out, sizeof out, REVIEW_MS);
	CHECK(!strncmp(out, "ERR 441 ", 8), "a puzzle the new connection never opened: %s", out);
	solve(two, id, out, sizeof out);
	int rating = 0;
	CHECK(sscanf(out, "OK SOLVE %*d solved - %d", &rating) == 1 && rating > 1500,
	    "solved on the second device, the first try: %s", out);
	snprintf(line, sizeof line, "PUZZLE %ld", id);
	tc_ask(two, line, out, sizeof out, REVIEW_MS);
	snprintf(line, sizeof line, "SOLVE %ld n2", id);
	tc_ask(two, line, out, sizeof out, REVIEW_MS);
	CHECK(strstr(out, " failed - - ") != NULL, "a later try rated: %s", out);
	tc_close(one);
	tc_close(two);
	printf("ok PUZZLE: a second device takes the session over mid-puzzle; the puzzle opened "
	       "there, solved, is the first try and rated\n");
}

enum { FLOOD = 48, JUDGES = 32 }; /* puzzles.c's JUDGES_MAX */

/* FLOOD guests with puzzle id open send their first move at once: each
 * gets its answer, judged (at least JUDGES: that many are judged at
 * once) or refused while the judges are busy (506). */
static void
test_flood(int port, long id)
{
	static struct tc *c[FLOOD];
	char out[256], line[64];
	int judged = 0, busy = 0;
	snprintf(line, sizeof line, "PUZZLE %ld", id);
	for (int i = 0; i < FLOOD; i++) {
		char name[16];
		snprintf(name, sizeof name, "rush%d", i);
		REQUIRE((c[i] = tc_guest(port, name)), "guest %d", i);
		tc_ask(c[i], line, out, sizeof out, REVIEW_MS);
		REQUIRE(!strncmp(out, "OK PUZZLE", 9), "%s", out);
	}
	for (int i = 0; i < FLOOD; i++)
		tc_send(c[i], "SOLVE %ld k8", id);
	for (int i = 0; i < FLOOD; i++) {
		const char *l;
		while (
		    (l = tc_read(c[i], LINE_MS)) && strncmp(l, "OK ", 3) && strncmp(l, "ERR ", 4))
			;
		if (l && !strncmp(l, "OK SOLVE ", 9) && strstr(l, " more "))
			judged++;
		else if (l && !strncmp(l, "ERR 506 ", 8))
			busy++;
		else
			CHECK(0, "guest %d's SOLVE: %s", i, l ? l : "no answer");
	}
	CHECK(judged >= JUDGES && judged + busy == FLOOD, "%d judged, %d refused of %d", judged,
	    busy, FLOOD);
	for (int i = 0; i < FLOOD; i++)
		tc_close(c[i]);
	printf(
	    "ok SOLVE: %d first moves at once: %d judged, %d refused (506)\n", FLOOD, judged, busy);
}

static void
run(void)
{
	static struct daemon d;
	REQUIRE(daemon_start(
		    &d, GOMOKUD_BIN, "review-ms 150\nbot-threads 1\nmax-per-address 100\n") == 0,
	    "gomokud did not start");
	struct tc *anon = tc_open(d.port, 0);
	REQUIRE(anon, "connect");
	CHECK(strstr(anon->line, " puzzles") != NULL, "no puzzles capability: %s", anon->line);
	tc_close(anon);
	struct tc *early = tc_guest(d.port, "early");
	REQUIRE(early, "guest");
	char out[256];
	tc_ask(early, "PUZZLE next", out, sizeof out, REVIEW_MS);
	CHECK(!strncmp(out, "ERR 456 ", 8), "a puzzle before any: %s", out);
	tc_ask(early, "PUZZLE daily", out, sizeof out, REVIEW_MS);
	CHECK(!strncmp(out, "ERR 456 ", 8), "a daily puzzle before any: %s", out);
	tc_close(early);

	long priv = 0, pub = 0;
	missed_game(d.port, 1, &priv);
	missed_game(d.port, 0, &pub);
	CHECK(daemon_wait_log(&d, "made from game", 0, REVIEW_MS), "no puzzle made");
	usleep(1000 * 1000); /* all of them, the private game's too if it made any */
	char want[64];
	snprintf(want, sizeof want, "made from game %ld,", priv);
	CHECK(daemon_log_count(&d, want) == 0, "a private game made puzzles");
	int made = daemon_log_count(&d, "made from game");
	long id = puzzle_made(&d, pub, 13); /* black's n2 */
	REQUIRE(id > 0, "black's missed double four is no puzzle");
	test_solving(d.port, id, made);
	test_flood(d.port, id);
	test_second_device(d.port, id);

	/* seated in a game: no puzzles */
	struct tc *b, *w;
	char room[24];
	REQUIRE(tc_pair_guests(
		    d.port, "seatb", "seatw", "freestyle 15 none", &b, &w, room, sizeof room) == 0,
	    "%s", tc_why);
	tc_ask(b, "PUZZLE next", out, sizeof out, REVIEW_MS);
	CHECK(!strncmp(out, "ERR 452 ", 8) && strstr(out, room), "seated: %s", out);
	tc_close(b);
	tc_close(w);
	CHECK(daemon_alive(&d), "the daemon died");
	CHECK(daemon_stop(&d, SIGTERM, 10000) == 0, "daemon exit");
}

int
main(void)
{
	run();
	printf("puzzles: %d failed\n", failures);
	return failures ? 1 : 0;
}
