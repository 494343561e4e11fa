/*
 * test_reviews: REVIEW and MARKS (capability `review`, PROTOCOL.md section
 * 5.19) on the real bin/gomokud, its bot workers and its SQLite store:
 * - a finished game is reviewed: OK REVIEW, * REVIEWING from 0 to every
 *   position, * REVIEWED ok; MARKS gives black's chance for every
 *   position (the five's end at 1000) and marks white's blunders, each
 *   with a better move and a line starting with it, and the turning point;
 * - asked again, the stored review answers at once (no search), and it
 *   is read back the same after a restart;
 * - two askers of one review under way both get its end; an asker who
 *   goes does not stop it;
 * - the refusals: no such game (402), a game still being played and an
 *   asker seated in one (452), a private game asked by a stranger (454),
 *   MARKS before any review (455), a guest's hour used up (453), the
 *   review queue full (506);
 * - the metrics count a review once, with its positions' waits;
 * - a review the store refuses (gomokud-faults): * REVIEWED failed,
 *   nothing kept, the asker's hour not spent; asked again, it is made.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/daemon/check.h"
#include "tests/daemon/tclient.h"

#ifndef GOMOKUD_FAULTS_BIN
#define GOMOKUD_FAULTS_BIN "build/default-cc/tests/daemon/gomokud-faults"
#endif
#ifndef GOMOKUD_BIN
#define GOMOKUD_BIN "bin/gomokud"
#endif

enum { REVIEW_MS = 30000 };

/* A finished game: black's five on row 8 (white a1 to a4), its id
 * into *id. */
static void
play_game(int port, const char *bn, const char *wn, long *id)
{
	struct tc *b, *w;
	char room[24];
	REQUIRE(tc_pair_guests(port, bn, wn, "freestyle 15 none", &b, &w, room, sizeof room) == 0,
	    "%s", tc_why);
	REQUIRE(tc_play_five(b, w, room, NULL) == 0, "%s", tc_why);
	tc_send(b, "HISTORY");
	REQUIRE(tc_expect(b, "= GAME", LINE_MS), "no game in HISTORY: %s", b->line);
	REQUIRE(sscanf(b->line, "= GAME %ld", id) == 1, "%s", b->line);
	tc_close(b);
	tc_close(w);
}

/* black and white play mv in turn in room (the last ends the game). */
static void
play_moves(struct tc *b, struct tc *w, const char *room, const char *const *mv, int n)
{
	for (int i = 0; i < n; i++) {
		struct tc *p = i % 2 ? w : b;
		tc_send(p, "MOVE %s %s", room, mv[i]);
		REQUIRE(tc_move_answer(p, LINE_MS) && !strncmp(p->line, "OK MOVE", 7),
		    "move %s: %s", mv[i], p->line);
	}
	REQUIRE(tc_expect(w, "* OVER", LINE_MS), "no * OVER: %s", w->line);
}

/* A game with a blunder no search can miss: black's four h8-k8 (g8 is
 * white's), and white's eighth move a3 instead of the block at l8, after
 * which black's five is forced; black plays it. Its id into *id. */
static void
blunder_game(int port, long *id)
{
	static const char *const mv[] = { "h8", "g8", "i8", "a1", "j8", "a2", "k8", "a3", "l8" };
	struct tc *b, *w;
	char room[24];
	REQUIRE(tc_pair_guests(
		    port, "blunb", "blunw", "freestyle 15 none", &b, &w, room, sizeof room) == 0,
	    "%s", tc_why);
	play_moves(b, w, room, mv, 9);
	tc_send(b, "HISTORY");
	REQUIRE(tc_expect(b, "= GAME", LINE_MS), "no game in HISTORY: %s", b->line);
	REQUIRE(sscanf(b->line, "= GAME %ld", id) == 1, "%s", b->line);
	tc_close(b);
	tc_close(w);
}

static long
finished_game(int port, const char *bn, const char *wn)
{
	long id = 0;
	play_game(port, bn, wn, &id);
	return id;
}

/* Reads c's lines to * REVIEWED of game: its line; the * REVIEWING seen
 * (first and last done, how many) into the counters. */
static const char *
reviewed(struct tc *c, long game, int *first, int *last, int *n)
{
	char want[64], prog[64];
	snprintf(want, sizeof want, "* REVIEWED %ld ", game);
	snprintf(prog, sizeof prog, "* REVIEWING %ld ", game);
	*first = *last = -1;
	*n = 0;
	const char *l;
	while ((l = tc_read(c, REVIEW_MS))) {
		if (!strncmp(l, prog, strlen(prog))) {
			int done = atoi(l + strlen(prog));
			if (*first < 0)
				*first = done;
			*last = done;
			(*n)++;
		} else if (!strncmp(l, want, strlen(want))) {
			return l;
		}
	}
	return NULL;
}

struct marks {
	int nevals, evals[256];
	int nmarks, blunders, turning;
	char blunder8[160]; /* white's a3 */
	char ok[128];
	char mark[8][160];
};

static void
read_marks(struct tc *c, long game, struct marks *m)
{
	memset(m, 0, sizeof *m);
	tc_send(c, "MARKS %ld", game);
	const char *l;
	while ((l = tc_read(c, LINE_MS))) {
		long id;
		int index, off;
		if (sscanf(l, "= EVAL %ld %d %n", &id, &index, &off) == 2) {
			CHECK(id == game && index == m->nevals, "EVAL out of order: %s", l);
			for (const char *p = l + off; *p && m->nevals < 256;) {
				m->evals[m->nevals++] = atoi(p);
				p += strcspn(p, ",");
				if (*p == ',')
					p++;
			}
		} else if (!strncmp(l, "= MARK ", 7)) {
			if (m->nmarks < 8)
				snprintf(m->mark[m->nmarks], sizeof m->mark[0], "%s", l);
			m->nmarks++;
			m->blunders += strstr(l, " blunder white ") != NULL;
			if (strstr(l, " blunder white 8 a3 "))
				snprintf(m->blunder8, sizeof m->blunder8, "%s", l);
			m->turning += strstr(l, " turning ") != NULL;
		} else if (!strncmp(l, "OK ", 3) || !strncmp(l, "ERR ", 4)) {
			snprintf(m->ok, sizeof m->ok, "%s", l);
			return;
		}
	}
}

static void
test_review(int port, long game, const struct daemon *d)
{
	char out[256];
	int first, last, n;
	struct tc *a = tc_guest(port, "student");
	REQUIRE(a, "guest");
	tc_ask(a, "MARKS 999999", out, sizeof out, LINE_MS);
	CHECK(!strncmp(out, "ERR 402 ", 8), "no such game: %s", out);
	char line[64];
	snprintf(line, sizeof line, "MARKS %ld", game);
	tc_ask(a, line, out, sizeof out, LINE_MS);
	CHECK(!strncmp(out, "ERR 455 ", 8), "MARKS before a review: %s", out);

	snprintf(line, sizeof line, "REVIEW %ld", game);
	tc_ask(a, line, out, sizeof out, LINE_MS);
	char ok[64];
	snprintf(ok, sizeof ok, "OK REVIEW %ld", game);
	CHECK(!strcmp(out, ok), "REVIEW: %s", out);
	const char *end = reviewed(a, game, &first, &last, &n);
	REQUIRE(end, "no * REVIEWED");
	CHECK(first == 0 && last == 10 && n >= 2, "progress %d..%d in %d events", first, last, n);
	(void)d;
	char want[64];
	snprintf(want, sizeof want, "* REVIEWED %ld ok 9 ", game);
	CHECK(!strncmp(end, want, strlen(want)), "the end: %s", end);

	struct marks m;
	read_marks(a, game, &m);
	snprintf(want, sizeof want, "OK MARKS %ld 9 ", game);
	CHECK(!strncmp(m.ok, want, strlen(want)), "MARKS: %s", m.ok);
	CHECK(m.nevals == 10, "%d chances for 10 positions", m.nevals);
	CHECK(m.evals[9] == 1000, "black's five is not a win: %d", m.evals[9]);
	for (int i = 0; i < m.nevals; i++)
		CHECK(m.evals[i] >= 0 && m.evals[i] <= 1000, "chance %d: %d", i, m.evals[i]);
	CHECK(m.blunders >= 1 && m.turning == 1, "%d white blunders, %d turning points", m.blunders,
	    m.turning);
	for (int i = 0; i < m.nmarks && i < 8; i++) {
		char kind[16], side[8], played[4], better[4], reason[24], pv[256];
		int ply, before, after;
		long id;
		CHECK(sscanf(m.mark[i], "= MARK %ld %15s %7s %d %3s %3s %d %d %23s %255s", &id,
			  kind, side, &ply, played, better, &before, &after, reason, pv) == 10,
		    "a mark: %s", m.mark[i]);
		CHECK(!strcmp(side, ply % 2 ? "black" : "white"), "side and ply: %s", m.mark[i]);
		if (!strcmp(kind, "blunder")) {
			CHECK(strcmp(better, "-") && !strncmp(pv, better, strlen(better)),
			    "a blunder's better move and line: %s", m.mark[i]);
			CHECK(before > after, "a blunder that lost nothing: %s", m.mark[i]);
		}
	}

	/* asked again: at once, from the store */
	tc_ask(a, line, out, sizeof out, LINE_MS);
	CHECK(!strcmp(out, ok), "REVIEW again: %s", out);
	end = reviewed(a, game, &first, &last, &n);
	CHECK(end && n == 0 && strstr(end, " ok 9 "), "a stored review searched again: %d, %s", n,
	    end ? end : "-");
	tc_close(a);
	printf("ok REVIEW: progress to every position, black's chances, white's blunders with "
	       "their lines, the turning point; asked again, the stored one at once\n");
}

/* After test_review's one review (asked twice): the metrics count it once,
 * with a wait for each of its positions that was searched. */
static void
test_metrics(int mport)
{
	long ok = tc_metric(mport, "gomokud_reviews_total{result=\"ok\"}");
	long failed = tc_metric(mport, "gomokud_reviews_total{result=\"failed\"}");
	long took = tc_metric(mport, "gomokud_review_seconds_count");
	long waits = tc_metric(mport, "gomokud_review_position_wait_seconds_count");
	long running = tc_metric(mport, "gomokud_reviews_running");
	CHECK(ok == 1 && failed == 0 && took == 1, "reviews %ld ok, %ld failed, %ld timed", ok,
	    failed, took);
	/* ten positions, the last (black's five) known without a search */
	CHECK(waits >= 1 && waits <= 9, "%ld positions' waits", waits);
	CHECK(running == 0, "%ld reviews running after the end", running);
	printf("ok metrics: a review counted once, its positions' waits, none running after\n");
}

/* Two ask for one review: both get its end; the first goes mid-way. */
static void
test_join(int port, long game)
{
	char out[256], line[64];
	int first, last, n;
	struct tc *a = tc_guest(port, "joiner1"), *b = tc_guest(port, "joiner2"),
		  *c = tc_guest(port, "joiner3");
	REQUIRE(a && b && c, "guests");
	snprintf(line, sizeof line, "REVIEW %ld", game);
	tc_ask(a, line, out, sizeof out, LINE_MS);
	CHECK(!strncmp(out, "OK REVIEW", 9), "a: %s", out);
	tc_ask(b, line, out, sizeof out, LINE_MS);
	CHECK(!strncmp(out, "OK REVIEW", 9), "b joins: %s", out);
	tc_close(a); /* it goes on */
	const char *end = reviewed(b, game, &first, &last, &n);
	CHECK(end && strstr(end, " ok "), "b: %s", end ? end : "nothing");
	/* once stored, anyone gets it at once */
	tc_ask(c, line, out, sizeof out, LINE_MS);
	CHECK(!strncmp(out, "OK REVIEW", 9), "c: %s", out);
	end = reviewed(c, game, &first, &last, &n);
	CHECK(end && n == 0, "c: stored: %s", end ? end : "nothing");
	tc_close(b);
	tc_close(c);
	printf("ok REVIEW: two askers of one review both get its end; the first went mid-way\n");
}

static void
test_refusals(int port, long private_game)
{
	char out[256], line[64];
	struct tc *b, *w;
	char room[24];
	/* seated in a game: no review of anything */
	REQUIRE(tc_pair_guests(
		    port, "seatb", "seatw", "freestyle 15 none", &b, &w, room, sizeof room) == 0,
	    "%s", tc_why);
	snprintf(line, sizeof line, "REVIEW %ld", private_game);
	tc_ask(b, line, out, sizeof out, LINE_MS);
	CHECK(!strncmp(out, "ERR 452 ", 8) && strstr(out, room), "seated: %s", out);
	snprintf(line, sizeof line, "MARKS %ld", private_game);
	tc_ask(w, line, out, sizeof out, LINE_MS);
	CHECK(!strncmp(out, "ERR 452 ", 8), "seated, MARKS: %s", out);
	/* the game under way: the newest row, one after the private game's */
	struct tc *x = tc_guest(port, "stranger");
	REQUIRE(x, "guest");
	snprintf(line, sizeof line, "REVIEW %ld", private_game + 1);
	tc_ask(x, line, out, sizeof out, LINE_MS);
	CHECK(
	    !strncmp(out, "ERR 452 ", 8) && strstr(out, "still being played"), "running: %s", out);
	/* a private room's game: not for a stranger */
	snprintf(line, sizeof line, "REVIEW %ld", private_game);
	tc_ask(x, line, out, sizeof out, LINE_MS);
	CHECK(!strncmp(out, "ERR 454 ", 8), "a stranger, a private game: %s", out);
	snprintf(line, sizeof line, "MARKS %ld", private_game);
	tc_ask(x, line, out, sizeof out, LINE_MS);
	CHECK(!strncmp(out, "ERR 454 ", 8), "a stranger's MARKS: %s", out);
	tc_send(b, "RESIGN %s", room);
	REQUIRE(tc_expect(w, "* OVER", LINE_MS), "no * OVER: %s", w->line);
	tc_close(b);
	tc_close(w);
	tc_close(x);
	printf("ok REVIEW: 452 for a seated asker and a running game, 454 for a stranger\n");
}

/* A guest's hour (review-per-hour 3: a guest 1), and the queue (1). */
static void
test_limits(int port, long g1, long g2, long g3)
{
	char out[256], line[64];
	struct tc *a = tc_guest(port, "thrifty"), *b = tc_guest(port, "queued");
	REQUIRE(a && b, "guests");
	snprintf(line, sizeof line, "REVIEW %ld", g1);
	tc_ask(a, line, out, sizeof out, LINE_MS);
	CHECK(!strncmp(out, "OK REVIEW", 9), "the first: %s", out);
	snprintf(line, sizeof line, "REVIEW %ld", g2);
	tc_ask(b, line, out, sizeof out, LINE_MS);
	CHECK(!strncmp(out, "ERR 506 ", 8) && strstr(out, "queue"), "the queue of one: %s", out);
	int first, last, n;
	CHECK(reviewed(a, g1, &first, &last, &n) != NULL, "the first's end");
	snprintf(line, sizeof line, "REVIEW %ld", g3);
	tc_ask(a, line, out, sizeof out, LINE_MS);
	CHECK(!strncmp(out, "ERR 453 ", 8) && strstr(out, "a guest may start 1 review an hour"),
	    "the second of a guest: %s", out);
	/* a stored one is free */
	snprintf(line, sizeof line, "REVIEW %ld", g1);
	tc_ask(a, line, out, sizeof out, LINE_MS);
	CHECK(!strncmp(out, "OK REVIEW", 9), "a stored one: %s", out);
	tc_close(a);
	tc_close(b);
	printf("ok REVIEW: a guest's hour (453), the queue full (506), a stored review free\n");
}

static void
run(void)
{
	static struct daemon d;
	static char dir[] = "/tmp/gomokud-reviews.XXXXXX";
	char conf[256];
	REQUIRE(tc_mkdtemp(dir), "mkdtemp");
	int mport = tc_free_port();
	snprintf(conf, sizeof conf,
	    "state-dir %s\nreview-ms 150\nreview-per-hour 30\nbot-threads 1\n"
	    "metrics-listen 127.0.0.1:%d\n",
	    dir, mport);
	REQUIRE(daemon_start(&d, GOMOKUD_BIN, conf) == 0, "gomokud did not start");
	struct tc *anon = tc_open(d.port, 0);
	REQUIRE(anon, "connect");
	CHECK(strstr(anon->line, " review") != NULL, "no review capability: %s", anon->line);
	tc_close(anon);

	long game = 0;
	blunder_game(d.port, &game);
	test_review(d.port, game, &d);
	test_metrics(mport);
	test_join(d.port, finished_game(d.port, "joinb", "joinw"));

	/* a private room's game, for the refusals */
	struct tc *b = tc_guest(d.port, "privb"), *w = tc_guest(d.port, "privw");
	REQUIRE(b && w, "guests");
	char out[256], room[24], code[40];
	tc_ask(b, "CREATE freestyle 15 none black casual none", out, sizeof out, LINE_MS);
	REQUIRE(sscanf(out, "OK CREATE %23s %39s", room, code) == 2, "%s", out);
	tc_send(w, "JOIN %s", code);
	REQUIRE(tc_expect(w, "OK JOIN", LINE_MS), "join: %s", w->line);
	REQUIRE(tc_play_five(b, w, room, NULL) == 0, "%s", tc_why);
	tc_send(b, "HISTORY");
	REQUIRE(tc_expect(b, "= GAME", LINE_MS), "%s", b->line);
	long priv = atol(b->line + 7);
	char line[64];
	snprintf(line, sizeof line, "REVIEW %ld", priv);
	tc_ask(w, line, out, sizeof out, LINE_MS); /* a player of it may */
	CHECK(!strncmp(out, "OK REVIEW", 9), "a player, a private game: %s", out);
	int first, last, n;
	CHECK(reviewed(w, priv, &first, &last, &n) != NULL, "the private game's review");
	tc_close(b);
	tc_close(w);
	test_refusals(d.port, priv);

	/* after a restart: the same review */
	struct marks before, after;
	struct tc *r = tc_guest(d.port, "reader");
	REQUIRE(r, "guest");
	read_marks(r, game, &before);
	tc_close(r);
	CHECK(daemon_stop(&d, SIGTERM, 10000) == 0, "daemon exit");
	snprintf(conf, sizeof conf,
	    "state-dir %s\nreview-ms 150\nreview-per-hour 3\nreview-queue 1\nbot-threads 1\n", dir);
	REQUIRE(daemon_start(&d, GOMOKUD_BIN, conf) == 0, "gomokud did not restart");
	r = tc_guest(d.port, "reader");
	REQUIRE(r, "guest");
	read_marks(r, game, &after);
	tc_close(r);
	CHECK(!strncmp(after.ok, "OK MARKS", 8) && !strcmp(before.ok, after.ok) &&
		before.nevals == after.nevals &&
		!memcmp(before.evals, after.evals, sizeof before.evals) &&
		!memcmp(before.mark, after.mark, sizeof before.mark),
	    "after a restart: %s, before: %s", after.ok, before.ok);
	printf("ok REVIEW: the same review read after a restart\n");

	long g1 = finished_game(d.port, "l1b", "l1w");
	long g2 = finished_game(d.port, "l2b", "l2w");
	long g3 = finished_game(d.port, "l3b", "l3w");
	test_limits(d.port, g1, g2, g3);
	CHECK(daemon_alive(&d), "the daemon died");
	CHECK(daemon_stop(&d, SIGTERM, 10000) == 0, "daemon exit");
}

/* The store refuses the review (gomokud-faults, the first "save review"
 * fails): * REVIEWED failed, nothing stored (455), the asker's hour not
 * spent (a guest's one review), and asked again it is made and stored;
 * the metrics count one of each. */
static void
test_failed(void)
{
	static struct daemon d;
	static char dir[] = "/tmp/gomokud-reviews-fault.XXXXXX";
	char conf[256], out[256], line[64];
	REQUIRE(tc_mkdtemp(dir), "mkdtemp");
	int mport = tc_free_port();
	snprintf(conf, sizeof conf,
	    "state-dir %s\nreview-ms 150\nreview-per-hour 3\nbot-threads 1\n"
	    "metrics-listen 127.0.0.1:%d\n",
	    dir, mport);
	setenv("GOMOKUD_FAULT", "before:save-review:1:fail", 1);
	int rc = daemon_start(&d, GOMOKUD_FAULTS_BIN, conf);
	unsetenv("GOMOKUD_FAULT");
	REQUIRE(rc == 0, "gomokud-faults did not start");
	long game = finished_game(d.port, "faultb", "faultw");
	struct tc *a = tc_guest(d.port, "unlucky");
	REQUIRE(a, "guest");
	snprintf(line, sizeof line, "REVIEW %ld", game);
	tc_ask(a, line, out, sizeof out, LINE_MS);
	CHECK(!strncmp(out, "OK REVIEW", 9), "REVIEW: %s", out);
	int first, last, n;
	const char *end = reviewed(a, game, &first, &last, &n);
	char want[64];
	snprintf(want, sizeof want, "* REVIEWED %ld failed 0 0", game);
	CHECK(end && !strcmp(end, want), "a refused review's end: %s", end ? end : "none");
	snprintf(line, sizeof line, "MARKS %ld", game);
	tc_ask(a, line, out, sizeof out, LINE_MS);
	CHECK(!strncmp(out, "ERR 455 ", 8), "MARKS of a failed review: %s", out);
	snprintf(line, sizeof line, "REVIEW %ld", game);
	tc_ask(a, line, out, sizeof out, LINE_MS); /* a guest's one an hour, given back */
	CHECK(!strncmp(out, "OK REVIEW", 9), "asked again: %s", out);
	end = reviewed(a, game, &first, &last, &n);
	CHECK(end && strstr(end, " ok "), "made the second time: %s", end ? end : "none");
	snprintf(line, sizeof line, "MARKS %ld", game);
	tc_ask(a, line, out, sizeof out, LINE_MS);
	CHECK(!strncmp(out, "OK MARKS", 8), "MARKS after: %s", out);
	long ok = tc_metric(mport, "gomokud_reviews_total{result=\"ok\"}");
	long failed = tc_metric(mport, "gomokud_reviews_total{result=\"failed\"}");
	CHECK(ok == 1 && failed == 1, "metrics: %ld ok, %ld failed", ok, failed);
	tc_close(a);
	CHECK(daemon_alive(&d), "the daemon died");
	CHECK(daemon_stop(&d, SIGTERM, 10000) == 0, "daemon exit");
	printf("ok REVIEW: the store refused it: failed, nothing kept, the hour not spent; asked "
	       "again, made\n");
}

enum { FLOOD = 80, FLOOD_WAITERS = 64 }; /* reviews.c's WAITERS_MAX */

/* FLOOD connections ask for one review under way (review-ms 1000, so it
 * outlasts their asking): the first FLOOD_WAITERS wait for it and all get
 * its end, the rest are refused (506, nothing kept for them); one of
 * those asks again once it is stored and reads it at once. */
static void
test_flood(void)
{
	static struct daemon d;
	static char dir[] = "/tmp/gomokud-reviews-flood.XXXXXX";
	static struct tc *c[FLOOD];
	char conf[256], out[256], line[64];
	REQUIRE(tc_mkdtemp(dir), "mkdtemp");
	snprintf(conf, sizeof conf,
	    "state-dir %s\nreview-ms 1000\nreview-per-hour 300\nbot-threads 1\n"
	    "max-per-address 200\n",
	    dir);
	REQUIRE(daemon_start(&d, GOMOKUD_BIN, conf) == 0, "gomokud did not start");
	/* a short game, resigned: three positions for the engine */
	struct tc *b, *w;
	char room[24];
	REQUIRE(tc_pair_guests(d.port, "floodb", "floodw", "freestyle 15 none", &b, &w, room,
		    sizeof room) == 0,
	    "%s", tc_why);
	tc_send(b, "MOVE %s h8", room);
	REQUIRE(tc_move_answer(b, LINE_MS) && !strncmp(b->line, "OK MOVE", 7), "%s", b->line);
	tc_send(w, "MOVE %s i9", room);
	REQUIRE(tc_move_answer(w, LINE_MS) && !strncmp(w->line, "OK MOVE", 7), "%s", w->line);
	tc_send(b, "RESIGN %s", room);
	REQUIRE(tc_expect(w, "* OVER", LINE_MS), "no * OVER: %s", w->line);
	tc_send(b, "HISTORY");
	REQUIRE(tc_expect(b, "= GAME", LINE_MS), "no game in HISTORY: %s", b->line);
	long game = atol(b->line + 7);
	tc_close(b);
	tc_close(w);
	for (int i = 0; i < FLOOD; i++) {
		char name[16];
		snprintf(name, sizeof name, "flood%d", i);
		REQUIRE((c[i] = tc_guest(d.port, name)), "guest %d", i);
	}
	snprintf(line, sizeof line, "REVIEW %ld", game);
	for (int i = 0; i < FLOOD; i++)
		tc_send(c[i], "%s", line);
	int waiting = 0, busy = 0, ended = 0;
	int refused[FLOOD] = { 0 };
	for (int i = 0; i < FLOOD; i++) {
		const char *l;
		while (
		    (l = tc_read(c[i], LINE_MS)) && strncmp(l, "OK ", 3) && strncmp(l, "ERR ", 4))
			;
		if (l && !strncmp(l, "OK REVIEW", 9))
			waiting++;
		else if (l && !strncmp(l, "ERR 506 ", 8))
			busy += refused[i] = 1;
	}
	CHECK(waiting == FLOOD_WAITERS && busy == FLOOD - FLOOD_WAITERS,
	    "%d waiting and %d refused of %d", waiting, busy, FLOOD);
	for (int i = 0; i < FLOOD; i++) {
		int first, last, n;
		if (!refused[i] && reviewed(c[i], game, &first, &last, &n) &&
		    strstr(c[i]->line, " ok "))
			ended++;
	}
	CHECK(ended == FLOOD_WAITERS, "%d of %d waiting got the end", ended, FLOOD_WAITERS);
	int last = FLOOD - 1;
	while (last > 0 && !refused[last])
		last--;
	tc_ask(c[last], line, out, sizeof out, LINE_MS);
	int first, lastdone, n;
	CHECK(!strncmp(out, "OK REVIEW", 9) && reviewed(c[last], game, &first, &lastdone, &n) &&
		n == 0,
	    "refused, then asked again: %s", out);
	for (int i = 0; i < FLOOD; i++)
		tc_close(c[i]);
	CHECK(daemon_alive(&d), "the daemon died");
	CHECK(daemon_stop(&d, SIGTERM, 10000) == 0, "daemon exit");
	printf("ok REVIEW: %d ask for one review at once: %d wait and get its end, %d are refused "
	       "(506) and read it stored later\n",
	    FLOOD, waiting, busy);
}

int
main(void)
{
	run();
	test_failed();
	test_flood();
	printf("reviews: %d failed\n", failures);
	return failures ? 1 : 0;
}
