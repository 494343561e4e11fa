/*
 * test_tourneys: tournaments (capability `tournaments`, PROTOCOL.md
 * section 5.21) on the real bin/gomokud, its bots and its SQLite store:
 * - the refusals: a guest's TCREATE (417), no clock (402), an unknown
 *   event (457), a person in a bots' event and a guest in a rated one
 *   (459), bots added by another (416) or to a people's event (459), an
 *   account over its events (453), a cancel by its creator;
 * - a round robin of 4 bots: each round's pairings and roles as the
 *   Berger table for 4 gives them (written out below), every game played,
 *   the standings' points the sum of the results;
 * - a Swiss of 7 players over 3 rounds, a bye each round: the players play
 *   the results written below; the pairings of every round, the bye and
 *   the final standings (points, Buchholz Cut-1 and Buchholz, ranks) equal
 *   the fixtures worked out by hand;
 * - kill -9 mid-round: after the restart the round is the same (nothing
 *   paired twice), the games in progress are restored and finished, and
 *   the event goes on to its end;
 * - tourney-daily: the server makes the day's event an hour ahead, its
 *   start the line's time, and after a restart does not make it again;
 * - an event over before the restart's load window (its end moved back 8
 *   days in the database) is not listed, and TWATCH still reads its
 *   final standings back.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "tests/daemon/check.h"
#include "tests/daemon/tclient.h"

#ifndef GOMOKUD_BIN
#define GOMOKUD_BIN "bin/gomokud"
#endif

enum { EVENT_MS = 120000, NGAMES = 64 };

/* TCREATE ...: the new event's id, or -1 (out says why). */
static long
create(struct tc *c, const char *args, char *out, size_t n)
{
	char line[256];
	long id = -1;
	snprintf(line, sizeof line, "TCREATE %s", args);
	tc_ask(c, line, out, n, LINE_MS);
	if (sscanf(out, "OK TCREATE %ld", &id) != 1)
		return -1;
	return id;
}

/* The pairings and results a watcher saw, by (round, board). */
struct seen {
	int n;
	struct {
		int round, board;
		char room[24], first[24], second[24], result[24];
	} g[NGAMES];
	int over;
};

/* Takes one * TGAME or * TOURNEY line of event id into s. */
static void
take(struct seen *s, long id, const char *l)
{
	long tid;
	int round, board;
	char room[24], first[24], second[24], result[24], kind[16], state[16];
	if (sscanf(l, "* TGAME %ld %d %d %23s %23s %23s %23s", &tid, &round, &board, room, first,
		second, result) == 7 &&
	    tid == id) {
		int i;
		for (i = 0; i < s->n; i++)
			if (s->g[i].round == round && s->g[i].board == board)
				break;
		if (i == s->n && s->n < NGAMES)
			s->n++;
		if (i >= NGAMES)
			return;
		s->g[i].round = round;
		s->g[i].board = board;
		snprintf(s->g[i].room, sizeof s->g[i].room, "%s", room);
		snprintf(s->g[i].first, sizeof s->g[i].first, "%s", first);
		snprintf(s->g[i].second, sizeof s->g[i].second, "%s", second);
		snprintf(s->g[i].result, sizeof s->g[i].result, "%s", result);
	} else if (sscanf(l, "* TOURNEY %ld %15s %15s", &tid, kind, state) == 3 && tid == id &&
	    (!strcmp(state, "over") || !strcmp(state, "cancelled"))) {
		s->over = 1;
	}
}

/* The pairing first-second of round in s, or NULL. */
static const char *
result_of(const struct seen *s, int round, const char *first, const char *second)
{
	for (int i = 0; i < s->n; i++)
		if (s->g[i].round == round && !strcmp(s->g[i].first, first) &&
		    !strcmp(s->g[i].second, second))
			return s->g[i].result;
	return NULL;
}

static int
in_round(const struct seen *s, int round)
{
	int n = 0;
	for (int i = 0; i < s->n; i++)
		n += s->g[i].round == round;
	return n;
}

/* Reads w until the event is over (or ms pass), taking what it says. */
static int
follow(struct tc *w, long id, struct seen *s, int ms)
{
	long long end = tc_now_ms() + ms;
	const char *l;
	while (!s->over && tc_now_ms() < end)
		if ((l = tc_read(w, 1000)))
			take(s, id, l);
	return s->over;
}

static void
test_refusals(int port)
{
	char out[256];
	struct tc *g = tc_guest(port, "visitor"), *a = tc_account(port, "maker", "s3cret-pass"),
		  *b = tc_account(port, "other", "s3cret-pass");
	REQUIRE(g && a && b, "connect");
	create(g, "swiss freestyle 15 300+0 none casual people 60 3", out, sizeof out);
	CHECK(!strncmp(out, "ERR 417 ", 8), "a guest's TCREATE: %s", out);
	create(a, "swiss freestyle 15 none none casual people 60 3", out, sizeof out);
	CHECK(!strncmp(out, "ERR 402 ", 8), "no clock: %s", out);
	create(a, "swiss freestyle 15 300+0 none casual people 2 3", out, sizeof out);
	CHECK(!strncmp(out, "ERR 402 ", 8), "a start 2 s away: %s", out);
	create(a, "swiss freestyle 15 300+0 none casual people 60 99", out, sizeof out);
	CHECK(!strncmp(out, "ERR 402 ", 8), "99 rounds: %s", out);
	tc_ask(g, "TJOIN 99999", out, sizeof out, LINE_MS);
	CHECK(!strncmp(out, "ERR 457 ", 8), "an unknown event: %s", out);
	long bots = create(
	    a, "robin freestyle 15 60+0 none casual bots 600 1 bots only", out, sizeof out);
	REQUIRE(bots > 0, "TCREATE: %s", out);
	char line[64];
	snprintf(line, sizeof line, "TJOIN %ld", bots);
	tc_ask(b, line, out, sizeof out, LINE_MS);
	CHECK(!strncmp(out, "ERR 459 ", 8), "a person in a bots' event: %s", out);
	snprintf(line, sizeof line, "TBOT %ld 3", bots);
	tc_ask(b, line, out, sizeof out, LINE_MS);
	CHECK(!strncmp(out, "ERR 416 ", 8), "bots added by another: %s", out);
	long rated = create(
	    a, "swiss renju 15 600+5 none rated people 600 3 Rated", out, sizeof out);
	REQUIRE(rated > 0, "TCREATE: %s", out);
	snprintf(line, sizeof line, "TJOIN %ld", rated);
	tc_ask(g, line, out, sizeof out, LINE_MS);
	CHECK(!strncmp(out, "ERR 459 ", 8), "a guest in a rated event: %s", out);
	snprintf(line, sizeof line, "TBOT %ld 3", rated);
	tc_ask(a, line, out, sizeof out, LINE_MS);
	CHECK(!strncmp(out, "ERR 459 ", 8), "a bot in a people's event: %s", out);
	create(a, "arena freestyle 15 60+0 none casual both 600 10", out, sizeof out);
	CHECK(!strncmp(out, "ERR 453 ", 8), "a third event not over (2 an account): %s", out);
	/* its creator cancels one: said to its watchers, and a third may come */
	snprintf(line, sizeof line, "TCANCEL %ld", rated);
	tc_ask(a, line, out, sizeof out, LINE_MS);
	CHECK(!strncmp(out, "OK TCANCEL ", 11), "a cancel by its creator: %s", out);
	char want[64];
	snprintf(want, sizeof want, "* TOURNEY %ld swiss cancelled ", rated);
	CHECK(tc_expect(a, want, LINE_MS), "no %s (last: %s)", want, a->line);
	snprintf(line, sizeof line, "TJOIN %ld", rated);
	tc_ask(b, line, out, sizeof out, LINE_MS);
	CHECK(!strncmp(out, "ERR 458 ", 8), "joining a cancelled event: %s", out);
	tc_close(g);
	tc_close(a);
	tc_close(b);
	ok("TCREATE, TJOIN, TBOT, TCANCEL: each refusal with its code; a cancel said");
}

/*
 * Four bots of levels 1..4 join a round robin: pairing numbers go by
 * rating (a bot's is 900 + 100 a level), so bot4 is 1, bot3 2, bot2 3 and
 * bot1 4. The Berger table for 4 (FIDE's): round 1: 1-4, 2-3; round 2:
 * 4-3, 1-2; round 3: 2-4, 3-1 (the first named takes the first role).
 */
static void
test_robin_bots(int port)
{
	static const char *const want[3][2][2] = {
		{ { "bot4", "bot1" }, { "bot3", "bot2" } },
		{ { "bot1", "bot2" }, { "bot4", "bot3" } },
		{ { "bot3", "bot1" }, { "bot2", "bot4" } },
	};
	char out[256], line[64];
	struct tc *a = tc_account(port, "boss", "s3cret-pass");
	REQUIRE(a, "connect");
	long id = create(a, "robin freestyle 15 60+0 none casual bots 5 1 Bots", out, sizeof out);
	REQUIRE(id > 0, "TCREATE: %s", out);
	for (int level = 1; level <= 4; level++) {
		/* a reply sent after the store's write keeps the request's tag */
		snprintf(line, sizeof line, "#b%d TBOT %ld %d", level, id, level);
		tc_ask(a, line, out, sizeof out, LINE_MS);
		char tagged[64];
		snprintf(tagged, sizeof tagged, "OK #b%d TBOT %ld bot%d", level, id, level);
		CHECK(!strcmp(out, tagged), "TBOT %d: %s", level, out);
	}
	static struct seen s;
	memset(&s, 0, sizeof s);
	CHECK(follow(a, id, &s, EVENT_MS), "the round robin did not end");
	for (int r = 0; r < 3; r++) {
		CHECK(in_round(&s, r + 1) == 2, "round %d: %d games", r + 1, in_round(&s, r + 1));
		for (int k = 0; k < 2; k++) {
			const char *res = result_of(&s, r + 1, want[r][k][0], want[r][k][1]);
			CHECK(res &&
				(!strcmp(res, "first") || !strcmp(res, "second") ||
				    !strcmp(res, "draw")),
			    "round %d: %s-%s: %s", r + 1, want[r][k][0], want[r][k][1],
			    res ? res : "not paired");
		}
	}
	/* the standings: each bot's points are what its results give */
	snprintf(line, sizeof line, "TWATCH %ld", id);
	tc_send(a, "%s", line);
	int total = 0, lines = 0;
	const char *l;
	while ((l = tc_read(a, LINE_MS)) && strncmp(l, "OK TWATCH", 9) != 0) {
		char name[24];
		int rank, points;
		long tid;
		if (sscanf(l, "= TPLAYER %ld %d %23s %*s %d", &tid, &rank, name, &points) != 4)
			continue;
		int mine = 0;
		for (int i = 0; i < s.n; i++) {
			int first = !strcmp(s.g[i].first, name),
			    second = !strcmp(s.g[i].second, name);
			if (!strcmp(s.g[i].result, "draw") && (first || second))
				mine += 1;
			else if ((first && !strcmp(s.g[i].result, "first")) ||
			    (second && !strcmp(s.g[i].result, "second")))
				mine += 2;
		}
		CHECK(points == mine, "%s: %d points, its results give %d", name, points, mine);
		total += points;
		lines++;
	}
	CHECK(lines == 4 && total == 12, "%d players, %d points in all", lines, total);
	tc_close(a);
	ok("a round robin of 4 bots: the Berger table's pairings and roles, every game played, "
	   "points as the results give them");
}

/* The player named name among p[0..n). */
static struct tc *
by_name(struct tc **p, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(p[i]->name, name))
			return p[i];
	return NULL;
}

/* Plays round r's game first-second in room to the result res ("first",
 * "second", "draw"): the loser resigns; a draw is offered and accepted. */
static void
play_result(
    struct tc **p, int n, const char *room, const char *first, const char *second, const char *res)
{
	struct tc *f = by_name(p, n, first), *s = by_name(p, n, second);
	REQUIRE(f && s, "no player %s or %s", first, second);
	if (!strcmp(res, "draw")) {
		tc_send(f, "OFFER %s draw", room);
		char want[48], *l;
		snprintf(want, sizeof want, "* OFFER %s ", room);
		l = (char *)tc_expect(s, want, LINE_MS);
		unsigned seq, offer;
		REQUIRE(l && sscanf(l + strlen(want), "%u %u", &seq, &offer) == 2,
		    "no draw offer to %s (last: %s)", second, s->line);
		tc_send(s, "ACCEPT %s %u", room, offer);
	} else {
		tc_send(!strcmp(res, "first") ? s : f, "RESIGN %s", room);
	}
}

/* The game of round r whose first is name: its room, once it has one. */
static int
room_for(struct tc *w, long id, struct seen *s, int r, const char *first, char *room, int ms)
{
	long long end = tc_now_ms() + ms;
	for (;;) {
		for (int i = 0; i < s->n; i++)
			if (s->g[i].round == r && !strcmp(s->g[i].first, first) &&
			    strcmp(s->g[i].room, "-") != 0) {
				strcpy(room, s->g[i].room);
				return 0;
			}
		if (tc_now_ms() >= end)
			return -1;
		const char *l = tc_read(w, 1000);
		if (l)
			take(s, id, l);
	}
}

/* Swiss of 7, the fixture of tests/unit/test_swiss.c's test_seven (worked
 * out there by hand from the Dutch rules) with the same results, played:
 * players p1..p7 join in order at the same rating, so their pairing
 * numbers are 1..7. */
static const struct {
	const char *first, *second, *result; /* second "-": the bye */
} swiss7[3][4] = {
	{ { "p1", "p4", "first" }, { "p5", "p2", "second" }, { "p3", "p6", "draw" },
	    { "p7", "-", "bye" } },
	{ { "p7", "p1", "draw" }, { "p2", "p3", "first" }, { "p6", "p5", "second" },
	    { "p4", "-", "bye" } },
	{ { "p1", "p2", "draw" }, { "p4", "p7", "first" }, { "p5", "p3", "second" },
	    { "p6", "-", "bye" } },
};

/*
 * The final standings by hand (points and Buchholz in halves; a bye
 * counts for Buchholz as a dummy opponent with the player's own points,
 * FIDE C.07 16.4, and is no voluntarily unplayed round, so Cut-1 drops the
 * lowest value):
 *   p2: 2+2+1 = 5; opponents p5 2, p3 3, p1 4: BH 9, Cut-1 7      rank 1
 *   p1: 2+1+1 = 4; p4 4, p7 3, p2 5: BH 12, Cut-1 9                rank 2
 *   p4: 0+2+2 = 4; p1 4, bye (4), p7 3: BH 11, Cut-1 8             rank 3
 *   p7: 2+1+0 = 3; bye (3), p1 4, p4 4: BH 11, Cut-1 8             rank 4
 *   p3: 1+0+2 = 3; p6 3, p2 5, p5 2: BH 10, Cut-1 8                rank 5
 *   p6: 1+0+2 = 3; p3 3, p5 2, bye (3): BH 8, Cut-1 6              rank 6
 *   p5: 0+2+0 = 2; p2 5, p6 3, p3 3: BH 11, Cut-1 8                rank 7
 * (p7 and p3 tie on Cut-1; Buchholz, next, puts p7 ahead.)
 */
static const struct {
	const char *name;
	int rank, points, cut1, bh;
} swiss7_final[7] = {
	{ "p2", 1, 5, 7, 9 },
	{ "p1", 2, 4, 9, 12 },
	{ "p4", 3, 4, 8, 11 },
	{ "p7", 4, 3, 8, 11 },
	{ "p3", 5, 3, 8, 10 },
	{ "p6", 6, 3, 6, 8 },
	{ "p5", 7, 2, 8, 11 },
};

static void
test_swiss7(int port)
{
	char out[256], line[64], room[24];
	struct tc *host = tc_account(port, "host", "s3cret-pass"), *p[7];
	REQUIRE(host, "connect");
	long id = create(
	    host, "swiss freestyle 15 300+0 none casual people 5 3 Seven", out, sizeof out);
	REQUIRE(id > 0, "TCREATE: %s", out);
	snprintf(line, sizeof line, "TJOIN %ld", id);
	for (int i = 0; i < 7; i++) {
		char name[8];
		snprintf(name, sizeof name, "p%d", i + 1);
		p[i] = tc_guest(port, name);
		REQUIRE(p[i], "guest %s", name);
		tc_ask(p[i], line, out, sizeof out, LINE_MS);
		REQUIRE(!strncmp(out, "OK TJOIN ", 9), "%s: %s", name, out);
	}
	static struct seen s;
	memset(&s, 0, sizeof s);
	for (int r = 0; r < 3; r++) {
		for (int k = 0; k < 3; k++) {
			REQUIRE(room_for(host, id, &s, r + 1, swiss7[r][k].first, room, 20000) == 0,
			    "round %d: no game for %s-%s", r + 1, swiss7[r][k].first,
			    swiss7[r][k].second);
			CHECK(result_of(&s, r + 1, swiss7[r][k].first, swiss7[r][k].second),
			    "round %d: %s-%s not paired so", r + 1, swiss7[r][k].first,
			    swiss7[r][k].second);
			play_result(p, 7, room, swiss7[r][k].first, swiss7[r][k].second,
			    swiss7[r][k].result);
		}
		/* the bye's line comes after the games' */
		long long end = tc_now_ms() + LINE_MS;
		const char *l;
		while (!result_of(&s, r + 1, swiss7[r][3].first, "-") && tc_now_ms() < end)
			if ((l = tc_read(host, 500)))
				take(&s, id, l);
		const char *bye = result_of(&s, r + 1, swiss7[r][3].first, "-");
		CHECK(bye && !strcmp(bye, "bye"), "round %d: %s's bye: %s", r + 1,
		    swiss7[r][3].first, bye ? bye : "none");
		CHECK(
		    in_round(&s, r + 1) == 4, "round %d: %d pairings", r + 1, in_round(&s, r + 1));
	}
	CHECK(follow(host, id, &s, 20000), "the Swiss did not end");
	for (int r = 0; r < 3; r++)
		for (int k = 0; k < 3; k++) {
			const char *res = result_of(
			    &s, r + 1, swiss7[r][k].first, swiss7[r][k].second);
			CHECK(res && !strcmp(res, swiss7[r][k].result),
			    "round %d %s-%s: %s, not %s", r + 1, swiss7[r][k].first,
			    swiss7[r][k].second, res ? res : "-", swiss7[r][k].result);
		}
	snprintf(line, sizeof line, "TWATCH %ld", id);
	tc_send(host, "%s", line);
	const char *l;
	int n = 0;
	while ((l = tc_read(host, LINE_MS)) && strncmp(l, "OK TWATCH", 9) != 0) {
		char name[24], rating[16];
		int rank, points, cut1, bh;
		long tid;
		if (sscanf(l, "= TPLAYER %ld %d %23s %15s %d %d,%d", &tid, &rank, name, rating,
			&points, &cut1, &bh) != 7)
			continue;
		CHECK(n < 7 && !strcmp(name, swiss7_final[n].name) &&
			rank == swiss7_final[n].rank && points == swiss7_final[n].points &&
			cut1 == swiss7_final[n].cut1 && bh == swiss7_final[n].bh,
		    "standing %d: %s (want %s rank %d, %d points, Cut-1 %d, BH %d, in halves)",
		    n + 1, l, n < 7 ? swiss7_final[n].name : "-", n < 7 ? swiss7_final[n].rank : 0,
		    n < 7 ? swiss7_final[n].points : 0, n < 7 ? swiss7_final[n].cut1 : 0,
		    n < 7 ? swiss7_final[n].bh : 0);
		n++;
	}
	CHECK(n == 7, "%d standings", n);
	for (int i = 0; i < 7; i++)
		tc_close(p[i]);
	tc_close(host);
	ok("a Swiss of 7 over 3 rounds: every pairing, bye and result as the hand-made fixture, "
	   "the final standings too");
}

/*
 * kill -9 mid-round. Four accounts kk1..kk4 (the same rating: pairing
 * numbers by the order of joining) in a round robin: round 1 is k1-k4 and
 * k2-k3 (the Berger table for 4), each game with a stone, when the daemon
 * is killed. After the restart the round is the same (the same rooms, no
 * second round 1), its games restored with their stones; the players
 * RESUME and the second players resign, then rounds 2 (k4-k3, k1-k2) and
 * 3 (k2-k4, k3-k1) follow, each paired once, and every first player wins:
 * k1 4 points, k2 4, k3 2, k4 2 (halves).
 */
static void
test_kill(void)
{
	static const char *const rounds[3][2][2] = {
		{ { "kk1", "kk4" }, { "kk2", "kk3" } },
		{ { "kk4", "kk3" }, { "kk1", "kk2" } },
		{ { "kk2", "kk4" }, { "kk3", "kk1" } },
	};
	static char state[] = "/tmp/gomokud-tourney.XXXXXX";
	REQUIRE(tc_mkdtemp(state), "state dir");
	char conf[256], out[256], line[96], room[24], rooms[2][24];
	snprintf(conf, sizeof conf, "state-dir %s\ngrace 300\nmax-per-address 100\n", state);
	static struct daemon d1, d2;
	REQUIRE(daemon_start(&d1, GOMOKUD_BIN, conf) == 0, "gomokud did not start");
	struct tc *host = tc_account(d1.port, "khost", "s3cret-pass"), *k[4];
	REQUIRE(host, "host");
	long id = create(
	    host, "robin freestyle 15 300+0 none casual people 5 1 Kill", out, sizeof out);
	REQUIRE(id > 0, "TCREATE: %s", out);
	snprintf(line, sizeof line, "TJOIN %ld", id);
	for (int i = 0; i < 4; i++) {
		char name[8];
		snprintf(name, sizeof name, "kk%d", i + 1);
		REQUIRE((k[i] = tc_account(d1.port, name, "s3cret-pass")), "%s", name);
		tc_ask(k[i], line, out, sizeof out, LINE_MS);
		REQUIRE(!strncmp(out, "OK TJOIN ", 9), "%s: %s", name, out);
	}
	static struct seen s;
	memset(&s, 0, sizeof s);
	for (int g = 0; g < 2; g++) {
		REQUIRE(room_for(host, id, &s, 1, rounds[0][g][0], rooms[g], 20000) == 0,
		    "round 1: no game for %s", rounds[0][g][0]);
		struct tc *f = by_name(k, 4, rounds[0][g][0]);
		tc_send(f, "MOVE %s h8", rooms[g]);
		CHECK(tc_move_answer(f, LINE_MS) && !strncmp(f->line, "OK MOVE", 7),
		    "%s's first stone: %s", f->name, f->line);
	}
	char tokens[4][80];
	REQUIRE(daemon_stop(&d1, SIGKILL, 5000) >= 0, "kill -9");
	for (int i = 0; i < 4; i++) {
		snprintf(tokens[i], sizeof tokens[i], "%s", k[i]->token);
		tc_close(k[i]);
	}
	tc_close(host);

	REQUIRE(daemon_start(&d2, GOMOKUD_BIN, conf) == 0, "gomokud did not start again");
	host = tc_open(d2.port, 1);
	REQUIRE(host, "connect");
	tc_ask(host, "LOGIN khost s3cret-pass", out, sizeof out, LINE_MS);
	REQUIRE(!strncmp(out, "OK LOGIN", 8), "LOGIN: %s", out);
	snprintf(line, sizeof line, "TWATCH %ld", id);
	tc_send(host, "%s", line);
	int same = 0, other = 0;
	const char *l;
	while ((l = tc_read(host, LINE_MS)) && strncmp(l, "OK TWATCH", 9) != 0) {
		long tid;
		int r, b;
		char rm[24], f[24], sc[24], res[24];
		if (sscanf(l, "= TGAME %ld %d %d %23s %23s %23s %23s", &tid, &r, &b, rm, f, sc,
			res) != 7)
			continue;
		if (r == 1 && !strcmp(res, "pending") &&
		    ((!strcmp(rm, rooms[0]) && !strcmp(f, "kk1") && !strcmp(sc, "kk4")) ||
			(!strcmp(rm, rooms[1]) && !strcmp(f, "kk2") && !strcmp(sc, "kk3"))))
			same++;
		else
			other++;
	}
	CHECK(same == 2 && other == 0, "after the restart round 1 is %d the same, %d else", same,
	    other);
	/* the players come back to their seats, the games with their stones */
	for (int i = 0; i < 4; i++) {
		REQUIRE((k[i] = tc_open(d2.port, 1)), "connect");
		snprintf(k[i]->name, sizeof k[i]->name, "kk%d", i + 1);
		int g = !strcmp(rounds[0][0][0], k[i]->name) || !strcmp(rounds[0][0][1], k[i]->name)
		    ? 0
		    : 1;
		tc_send(k[i], "RESUME %s %s 0", tokens[i], rooms[g]);
		char want[48];
		snprintf(want, sizeof want, "= MOVES %s ", rooms[g]);
		l = tc_expect(k[i], want, LINE_MS);
		CHECK(l && strstr(l, "h8"), "%s's game lost its stone: %s", k[i]->name,
		    l ? l : k[i]->line);
		CHECK(tc_expect(k[i], "OK RESUME", LINE_MS), "%s's RESUME: %s", k[i]->name,
		    k[i]->line);
	}
	memset(&s, 0, sizeof s);
	for (int r = 0; r < 3; r++)
		for (int g = 0; g < 2; g++) {
			if (r == 0)
				memcpy(room, rooms[g], sizeof room);
			else
				REQUIRE(room_for(
					    host, id, &s, r + 1, rounds[r][g][0], room, 20000) == 0,
				    "round %d: no game for %s", r + 1, rounds[r][g][0]);
			tc_send(by_name(k, 4, rounds[r][g][1]), "RESIGN %s", room);
		}
	CHECK(follow(host, id, &s, 20000), "the round robin did not end after the restart");
	for (int r = 1; r < 3; r++)
		CHECK(
		    in_round(&s, r + 1) == 2, "round %d: %d pairings", r + 1, in_round(&s, r + 1));
	CHECK(daemon_log_count(&d2, "was paired already") == 0, "a round asked to be paired twice");
	snprintf(line, sizeof line, "TWATCH %ld", id);
	tc_send(host, "%s", line);
	static const int want_points[4] = { 4, 4, 2, 2 };
	int n = 0;
	while ((l = tc_read(host, LINE_MS)) && strncmp(l, "OK TWATCH", 9) != 0) {
		long tid;
		int rank, points;
		char name[24];
		if (sscanf(l, "= TPLAYER %ld %d %23s %*s %d", &tid, &rank, name, &points) != 4 ||
		    strncmp(name, "kk", 2) != 0)
			continue;
		int i = name[2] - '1';
		CHECK(i >= 0 && i < 4 && points == want_points[i], "%s: %d points", name, points);
		n++;
	}
	CHECK(n == 4, "%d standings", n);
	for (int i = 0; i < 4; i++)
		tc_close(k[i]);
	tc_close(host);
	daemon_stop(&d2, SIGTERM, 5000);
	ok("kill -9 mid-round: the round kept as it was, its games restored with their stones, "
	   "the next rounds paired once each, the standings as played");

	/* eight days later: not loaded at start, read back when watched */
	sqlite3 *db;
	char path[200], sql[128];
	snprintf(path, sizeof path, "%s/gomokud.db", state);
	REQUIRE(sqlite3_open(path, &db) == SQLITE_OK, "cannot open %s", path);
	snprintf(
	    sql, sizeof sql, "UPDATE tourneys SET ended = ended - 8 * 86400 WHERE id = %ld", id);
	CHECK(sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK && sqlite3_changes(db) == 1,
	    "cannot age the event: %s", sqlite3_errmsg(db));
	sqlite3_close(db);
	static struct daemon d3;
	REQUIRE(daemon_start(&d3, GOMOKUD_BIN, conf) == 0, "gomokud did not start a third time");
	struct tc *v = tc_guest(d3.port, "viewer");
	REQUIRE(v, "connect");
	tc_send(v, "TLIST");
	int listed = -1;
	while ((l = tc_read(v, LINE_MS)))
		if (sscanf(l, "OK TLIST %d", &listed) == 1)
			break;
	CHECK(listed == 0, "an event over 8 days ago listed at start: %d", listed);
	tc_send(v, "TWATCH %ld", id);
	n = 0;
	int head = 0;
	while ((l = tc_read(v, LINE_MS)) && strncmp(l, "OK TWATCH", 9) != 0 &&
	    strncmp(l, "ERR", 3) != 0) {
		long tid;
		int rank, points;
		char name[24];
		head |= !strncmp(l, "= TOURNEY ", 10) && strstr(l, " robin over ");
		if (sscanf(l, "= TPLAYER %ld %d %23s %*s %d", &tid, &rank, name, &points) == 4 &&
		    !strncmp(name, "kk", 2) && points == want_points[name[2] - '1'])
			n++;
	}
	CHECK(l && !strncmp(l, "OK TWATCH", 9) && head && n == 4,
	    "the old event's standings: %d of 4 (last: %s)", n, l ? l : "nothing");
	tc_close(v);
	daemon_stop(&d3, SIGTERM, 5000);
	ok("an event over 8 days ago: not listed at start, its final standings read back by "
	   "TWATCH");
}

/* The = TOURNEY lines of TLIST: their count; the start of the first whose
 * name is name into *starts. */
static int
listed(struct tc *c, const char *name, long long *starts)
{
	const char *l;
	int n = 0;
	tc_send(c, "TLIST");
	while ((l = tc_read(c, LINE_MS)) && strncmp(l, "OK TLIST", 8) != 0) {
		long id;
		long long st;
		char kind[16], state[16];
		if (sscanf(l, "= TOURNEY %ld %15s %15s %*s %*s %*s %*s %*s %*s %lld", &id, kind,
			state, &st) != 4)
			continue;
		n++;
		if (strstr(l, name))
			*starts = st;
	}
	return n;
}

static void
test_daily(void)
{
	static char state[] = "/tmp/gomokud-daily.XXXXXX";
	REQUIRE(tc_mkdtemp(state), "state dir");
	time_t at = time(NULL) + 600;
	at -= at % 60;
	struct tm tm;
	gmtime_r(&at, &tm);
	char conf[300];
	snprintf(conf, sizeof conf,
	    "state-dir %s\ntourney-daily %02d:%02d arena freestyle 15 60+0 none casual both 30 "
	    "Daily arena\n",
	    state, tm.tm_hour, tm.tm_min);
	static struct daemon d1, d2;
	REQUIRE(daemon_start(&d1, GOMOKUD_BIN, conf) == 0, "gomokud did not start");
	struct tc *c = tc_guest(d1.port, "early");
	REQUIRE(c, "connect");
	long long starts = 0;
	int n = 0;
	for (int i = 0; i < 30 && (n = listed(c, "Daily arena", &starts)) == 0; i++)
		usleep(100 * 1000);
	CHECK(n == 1 && starts == (long long)at,
	    "the day's event: %d listed, starts %lld, not %lld", n, starts, (long long)at);
	tc_close(c);
	daemon_stop(&d1, SIGTERM, 5000);
	REQUIRE(daemon_start(&d2, GOMOKUD_BIN, conf) == 0, "gomokud did not start again");
	usleep(2500 * 1000); /* two ticks of the schedule */
	c = tc_guest(d2.port, "later");
	REQUIRE(c, "connect");
	starts = 0;
	n = listed(c, "Daily arena", &starts);
	CHECK(n == 1 && starts == (long long)at, "after a restart: %d listed", n);
	tc_close(c);
	daemon_stop(&d2, SIGTERM, 5000);
	ok("tourney-daily: the day's event made an hour ahead at its time; not again after a "
	   "restart");
}

static void
run(void)
{
	static struct daemon d;
	REQUIRE(daemon_start(&d, GOMOKUD_BIN,
		    "bot-threads 2\nbot-think-ms 30\nmax-per-address 100\nadmins boss\n") == 0,
	    "gomokud did not start");
	struct tc *anon = tc_open(d.port, 0);
	REQUIRE(anon, "connect");
	CHECK(strstr(anon->line, " tournaments") != NULL, "no tournaments capability: %s",
	    anon->line);
	tc_close(anon);
	test_refusals(d.port);
	test_robin_bots(d.port);
	test_swiss7(d.port);
	daemon_stop(&d, SIGTERM, 5000);
	test_kill();
	test_daily();
}

int
main(void)
{
	run();
	printf("tourneys: %d failed\n", failures);
	return failures ? 1 : 0;
}
