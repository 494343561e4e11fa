/*
 * test_arena.c: an arena's points and pairings (tourney/arena.h). Points
 * are worked by hand from the rule (a win 2, a draw 1, on fire after two
 * wins in a row over the board: a win 4, a draw 2; forfeits as arena.h
 * says), each case's sum written out beside it. Pairings are hand-made
 * waiting rooms: the order by points then rating, the last-opponent rule
 * with 2, 3 and 4 waiting, the roles, the odd one out; then 1,000 waiting
 * players, timed, with the properties every pairing must keep.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "tourney/arena.h"

#define G(f, s, r)               \
	{                        \
		0, (f), (s), (r) \
	}

/* Player 0 against player 1: W W W D W W W W L, in alternating roles.
 * 0 scores 2 (run 1), 2 (run 2), 4 (on fire, run 3), 2 (a draw on fire,
 * run 0): 10; then 2, 2, 4, 4 (runs 1..4): 22 after the eighth game,
 * streak 4; the loss adds 0: 22, streak 0. Player 1 loses all but the draw
 * (1: 1 was on no streak) and the last win (2): 1 after eight, then 3,
 * streak 1. */
static void
test_fire(void **state)
{
	(void)state;
	const struct tourney_game g[] = {
		G(0, 1, TR_FIRST_WINS),
		G(1, 0, TR_SECOND_WINS),
		G(0, 1, TR_FIRST_WINS),
		G(1, 0, TR_DRAW),
		G(0, 1, TR_FIRST_WINS),
		G(1, 0, TR_SECOND_WINS),
		G(0, 1, TR_FIRST_WINS),
		G(1, 0, TR_SECOND_WINS),
		G(0, 1, TR_SECOND_WINS),
	};
	int pts[2], st[2];
	assert_int_equal(arena_scores(g, 8, 2, pts, st), 0);
	assert_int_equal(pts[0], 22);
	assert_int_equal(st[0], 4);
	assert_int_equal(pts[1], 1);
	assert_int_equal(st[1], 0);
	assert_int_equal(arena_scores(g, 9, 2, pts, st), 0);
	assert_int_equal(pts[0], 22);
	assert_int_equal(st[0], 0);
	assert_int_equal(pts[1], 3);
	assert_int_equal(st[1], 1);
	/* the streak is optional */
	assert_int_equal(arena_scores(g, 9, 2, pts, NULL), 0);
	assert_int_equal(pts[0], 22);
}

/* Forfeits. Player 0: W W (2 + 2, on fire), a forfeit win 2 (not 4: the
 * streak stays 2 but is not extended), W 4 (still on fire, run 3), a
 * forfeit loss 0 (run 0), W 2: 2+2+2+4+0+2 = 12, streak 1. Player 2 first wins twice
 * by forfeit (2 + 2, no streak), then W W over the board (2 + 2, run 2),
 * then W 4 = 12, streak 3. */
static void
test_forfeits(void **state)
{
	(void)state;
	const struct tourney_game g[] = {
		G(0, 1, TR_FIRST_WINS),
		G(1, 0, TR_SECOND_WINS),
		G(1, 0, TR_FIRST_FORFEIT),
		G(0, 1, TR_FIRST_WINS),
		G(0, 1, TR_FIRST_FORFEIT),
		G(1, 0, TR_SECOND_WINS),
		G(3, 2, TR_FIRST_FORFEIT),
		G(2, 3, TR_SECOND_FORFEIT),
		G(2, 3, TR_FIRST_WINS),
		G(3, 2, TR_SECOND_WINS),
		G(2, 3, TR_PENDING), /* not over: no points, no streak change */
		G(2, 3, TR_FIRST_WINS),
	};
	int pts[4], st[4];
	assert_int_equal(arena_scores(g, 12, 4, pts, st), 0);
	assert_int_equal(pts[0], 12);
	assert_int_equal(st[0], 1);
	/* 1: L, L, a forfeit loss, L, a forfeit win (2), L = 2 */
	assert_int_equal(pts[1], 2);
	assert_int_equal(pts[2], 12);
	assert_int_equal(st[2], 3);
	assert_int_equal(pts[3], 0);
	assert_int_equal(st[3], 0);
}

/* Both forfeit: 2 and 3 are each on fire (two wins over 4 and 5: 2 + 2),
 * both forfeit their game (0 each, both streaks end), then draw (1 each,
 * not 2) = 5 each, streaks 0. A bye counts as a forfeit win: 4 had lost
 * twice (0), takes a bye (2) = 2. */
static void
test_both_forfeit(void **state)
{
	(void)state;
	const struct tourney_game g[] = {
		G(2, 4, TR_FIRST_WINS),
		G(5, 3, TR_SECOND_WINS),
		G(4, 2, TR_SECOND_WINS),
		G(3, 5, TR_FIRST_WINS),
		G(2, 3, TR_BOTH_FORFEIT),
		G(3, 2, TR_DRAW),
		G(4, TOURNEY_BYE, TR_BYE),
	};
	int pts[6], st[6];
	assert_int_equal(arena_scores(g, 7, 6, pts, st), 0);
	assert_int_equal(pts[2], 5);
	assert_int_equal(pts[3], 5);
	assert_int_equal(st[2], 0);
	assert_int_equal(st[3], 0);
	assert_int_equal(pts[4], 2);
	assert_int_equal(pts[5], 0);
	assert_int_equal(pts[0], 0);
}

static void
test_scores_refused(void **state)
{
	(void)state;
	const struct tourney_game bad[] = { G(0, 2, TR_DRAW) };
	const struct tourney_game self[] = { G(1, 1, TR_DRAW) };
	int pts[2];
	assert_int_equal(arena_scores(bad, 1, 2, pts, NULL), -1);
	assert_int_equal(arena_scores(self, 1, 2, pts, NULL), -1);
	assert_int_equal(arena_scores(bad, 1, 0, pts, NULL), -1);
	assert_int_equal(arena_scores(bad, 1, TOURNEY_PLAYERS_MAX + 1, pts, NULL), -1);
	assert_int_equal(arena_scores(NULL, 0, 2, pts, NULL), 0);
	assert_int_equal(pts[0] + pts[1], 0);
}

/* Waiting player p: points, rating, last opponent, firsts, seconds. */
#define W(p, pts, r, last, f, s)                  \
	{                                         \
		(p), (pts), (r), (last), (f), (s) \
	}
#define NONE TOURNEY_BYE

static void
want_game(const struct tourney_game *g, int first, int second)
{
	assert_int_equal(g->round, 0);
	assert_int_equal(g->result, TR_PENDING);
	assert_int_equal(g->first, first);
	assert_int_equal(g->second, second);
}

/* Points first: 12 (player 3), 8 (0), 6 (1, though rated lowest), 4 (2,
 * rated highest): 3 meets 0, 1 meets 2. Roles all even: the lower rated
 * is first (0 at 1500 under 3 at 1600; 1 at 1200 under 2 at 2000). */
static void
test_pair_points(void **state)
{
	(void)state;
	const struct arena_waiting w[] = {
		W(0, 8, 1500, NONE, 0, 0),
		W(1, 6, 1200, NONE, 0, 0),
		W(2, 4, 2000, NONE, 0, 0),
		W(3, 12, 1600, NONE, 0, 0),
	};
	struct tourney_game g[2];
	assert_int_equal(arena_pair(w, 4, g, 2), 2);
	want_game(&g[0], 0, 3);
	want_game(&g[1], 1, 2);
}

/* Equal points: by rating, 1700 (1), 1600 (2), 1500 (0), 1400 (3): 1 meets
 * 2 and 0 meets 3; the lower rated is first: 2, then 3. Equal ratings too
 * (players 4 and 5 alone): the lower index is first. */
static void
test_pair_rating(void **state)
{
	(void)state;
	const struct arena_waiting w[] = {
		W(0, 0, 1500, NONE, 0, 0),
		W(1, 0, 1700, NONE, 0, 0),
		W(2, 0, 1600, NONE, 0, 0),
		W(3, 0, 1400, NONE, 0, 0),
	};
	struct tourney_game g[2];
	assert_int_equal(arena_pair(w, 4, g, 2), 2);
	want_game(&g[0], 2, 1);
	want_game(&g[1], 3, 0);
	const struct arena_waiting tie[] = {
		W(5, 2, 1500, NONE, 0, 0),
		W(4, 2, 1500, NONE, 0, 0),
	};
	assert_int_equal(arena_pair(tie, 2, g, 1), 1);
	want_game(&g[0], 4, 5);
}

/* Roles: 0 (first 3 times, second once: +2) and 1 (first once, second
 * twice: -1): 1 is first, though rated higher. 2 and 3 both +1: 2, rated
 * lower, is first. */
static void
test_pair_roles(void **state)
{
	(void)state;
	const struct arena_waiting w[] = {
		W(0, 4, 1500, NONE, 3, 1),
		W(1, 4, 1900, NONE, 1, 2),
		W(2, 2, 1500, NONE, 2, 1),
		W(3, 2, 1800, NONE, 3, 2),
	};
	struct tourney_game g[2];
	assert_int_equal(arena_pair(w, 4, g, 2), 2);
	want_game(&g[0], 1, 0);
	want_game(&g[1], 2, 3);
}

/* Last opponents with 3 waiting: 0 (6 points), 1 (4), 2 (2); 0 last met 1:
 * 0 meets 2, 1 waits. The same when only 1 names 0 as its last opponent
 * (0 has played someone since). */
static void
test_pair_last_three(void **state)
{
	(void)state;
	struct tourney_game g[1];
	const struct arena_waiting w[] = {
		W(0, 6, 1500, 1, 0, 0),
		W(1, 4, 1500, 0, 0, 0),
		W(2, 2, 1500, NONE, 0, 0),
	};
	assert_int_equal(arena_pair(w, 3, g, 1), 1);
	want_game(&g[0], 0, 2);
	const struct arena_waiting w2[] = {
		W(0, 6, 1500, 7, 0, 0),
		W(1, 4, 1500, 0, 0, 0),
		W(2, 2, 1500, NONE, 0, 0),
	};
	assert_int_equal(arena_pair(w2, 3, g, 1), 1);
	want_game(&g[0], 0, 2);
	/* three who last met each other in a ring: all wait */
	const struct arena_waiting ring[] = {
		W(0, 6, 1500, 1, 0, 0),
		W(1, 4, 1500, 2, 0, 0),
		W(2, 2, 1500, 0, 0, 0),
	};
	assert_int_equal(arena_pair(ring, 3, g, 1), 0);
}

/* Last opponents with 4 waiting, 0 (8), 1 (6), 2 (4), 3 (2). When 0 and 1
 * last met: 0 meets 2, 1 meets 3. When 2 and 3 last met: the walk pairs
 * 0-1 and leaves 2 and 3; the swap seats them: 0 meets 2, 1 meets 3 (all
 * firsts even, equal ratings: the lower index first). With only 2 and 3
 * waiting, they wait. */
static void
test_pair_last_four(void **state)
{
	(void)state;
	struct tourney_game g[2];
	const struct arena_waiting top[] = {
		W(0, 8, 1500, 1, 0, 0),
		W(1, 6, 1500, 0, 0, 0),
		W(2, 4, 1500, NONE, 0, 0),
		W(3, 2, 1500, NONE, 0, 0),
	};
	assert_int_equal(arena_pair(top, 4, g, 2), 2);
	want_game(&g[0], 0, 2);
	want_game(&g[1], 1, 3);
	const struct arena_waiting bottom[] = {
		W(0, 8, 1500, NONE, 0, 0),
		W(1, 6, 1500, NONE, 0, 0),
		W(2, 4, 1500, 3, 0, 0),
		W(3, 2, 1500, 2, 0, 0),
	};
	assert_int_equal(arena_pair(bottom, 4, g, 2), 2);
	want_game(&g[0], 0, 2);
	want_game(&g[1], 1, 3);
	assert_int_equal(arena_pair(bottom + 2, 2, g, 2), 0);
	/* 2 and 3 last met, and 0 last met 2 before that: the walk pairs 0-1
	 * and leaves 2 and 3; 0-2 would be a rematch, so the swap seats them
	 * the other way: 0 meets 3, 1 meets 2. */
	const struct arena_waiting cross[] = {
		W(0, 8, 1500, 2, 0, 0),
		W(1, 6, 1500, NONE, 0, 0),
		W(2, 4, 1500, 3, 0, 0),
		W(3, 2, 1500, 2, 0, 0),
	};
	assert_int_equal(arena_pair(cross, 4, g, 2), 2);
	want_game(&g[0], 0, 3);
	want_game(&g[1], 1, 2);
}

/* Five waiting, no constraints: 0-1, 2-3 by points; 4 (the lowest) waits.
 * One waiting, or none: no game. */
static void
test_pair_odd(void **state)
{
	(void)state;
	struct tourney_game g[2];
	const struct arena_waiting w[] = {
		W(4, 0, 1500, NONE, 0, 0),
		W(3, 2, 1500, NONE, 0, 0),
		W(2, 4, 1500, NONE, 0, 0),
		W(1, 6, 1500, NONE, 0, 0),
		W(0, 8, 1500, NONE, 0, 0),
	};
	assert_int_equal(arena_pair(w, 5, g, 2), 2);
	want_game(&g[0], 0, 1);
	want_game(&g[1], 2, 3);
	assert_int_equal(arena_pair(w, 1, g, 0), 0);
	assert_int_equal(arena_pair(NULL, 0, NULL, 0), 0);
}

static void
test_pair_refused(void **state)
{
	(void)state;
	struct tourney_game g[2];
	const struct arena_waiting twice[] = {
		W(1, 0, 1500, NONE, 0, 0),
		W(1, 0, 1500, NONE, 0, 0),
	};
	assert_int_equal(arena_pair(twice, 2, g, 2), -1);
	const struct arena_waiting w[] = {
		W(0, 0, 1500, NONE, 0, 0),
		W(1, 0, 1500, NONE, 0, 0),
		W(2, 0, 1500, NONE, 0, 0),
		W(3, 0, 1500, NONE, 0, 0),
	};
	assert_int_equal(arena_pair(w, 4, g, 1), -1);
	assert_int_equal(arena_pair(w, -1, g, 2), -1);
	assert_int_equal(arena_pair(w, TOURNEY_PLAYERS_MAX + 1, g, 2), -1);
	const struct arena_waiting neg[] = { W(-1, 0, 1500, NONE, 0, 0) };
	assert_int_equal(arena_pair(neg, 1, g, 2), -1);
}

/* Pairs w[0..n-1] RUNS times, timed (printed, named by what), and checks
 * what every pairing keeps: every game pairs two waiting players, no one
 * twice, no rematch, the first has the lower or equal firsts - seconds;
 * at most two wait; the same input gives the same games. */
static void
check_many(const char *what, const struct arena_waiting *w, int n)
{
	enum { RUNS = 200 };
	static struct tourney_game g[TOURNEY_PLAYERS_MAX / 2], again[TOURNEY_PLAYERS_MAX / 2];
	static int at[TOURNEY_PLAYERS_MAX], used[TOURNEY_PLAYERS_MAX];
	struct timespec t0, t1;
	int k = 0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (int r = 0; r < RUNS; r++)
		k = arena_pair(w, n, g, n / 2);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double us = ((double)(t1.tv_sec - t0.tv_sec) * 1e6 +
			(double)(t1.tv_nsec - t0.tv_nsec) / 1e3) /
	    RUNS;
	printf("arena_pair (%s): %d waiting, %d games, %.1f us a pairing\n", what, n, k, us);
	assert_true(us < 1e6);
	assert_true(k >= n / 2 - 1);
	for (int i = 0; i < TOURNEY_PLAYERS_MAX; i++)
		at[i] = -1;
	for (int i = 0; i < n; i++)
		at[w[i].player] = i;
	memset(used, 0, sizeof used);
	for (int i = 0; i < k; i++) {
		assert_true(g[i].first >= 0 && at[g[i].first] >= 0);
		assert_true(g[i].second >= 0 && at[g[i].second] >= 0);
		assert_int_equal(used[g[i].first]++, 0);
		assert_int_equal(used[g[i].second]++, 0);
		const struct arena_waiting *f = &w[at[g[i].first]], *s = &w[at[g[i].second]];
		assert_int_not_equal(f->last_opponent, s->player);
		assert_int_not_equal(s->last_opponent, f->player);
		assert_true(f->firsts - f->seconds <= s->firsts - s->seconds);
	}
	assert_int_equal(arena_pair(w, n, again, n / 2), k);
	assert_memory_equal(g, again, sizeof(g[0]) * (size_t)k);
}

/* 1,000 waiting players, twice. Scattered: points 0..30, ratings
 * 1000..2499, roles 0..4 each (from a fixed LCG), a third of them last
 * met another in mutual pairs. Adjacent: all on 0 points, ratings falling
 * so the order is the array's, and each two neighbours in that order last
 * met each other: every player the walk takes must skip its neighbour. */
static void
test_pair_thousand(void **state)
{
	(void)state;
	enum { N = 1000 };
	static struct arena_waiting w[N];
	uint32_t x = 12345;
	for (int i = 0; i < N; i++) {
		x = x * 1103515245u + 12345u;
		w[i].player = (int)((i * 7 + 3) % N) + 100;
		w[i].points = (int)(x >> 16) % 31;
		x = x * 1103515245u + 12345u;
		w[i].rating = 1000 + (int)(x >> 16) % 1500;
		w[i].firsts = (int)(x >> 8) % 5;
		w[i].seconds = (int)(x >> 12) % 5;
		w[i].last_opponent = NONE;
	}
	for (int i = 0; i + 1 < N; i += 3) {
		w[i].last_opponent = w[i + 1].player;
		w[i + 1].last_opponent = w[i].player;
	}
	check_many("scattered", w, N);
	for (int i = 0; i < N; i++) {
		w[i].player = i;
		w[i].points = 0;
		w[i].rating = 2500 - i;
		w[i].last_opponent = i ^ 1;
	}
	check_many("adjacent rematches", w, N);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fire),
		cmocka_unit_test(test_forfeits),
		cmocka_unit_test(test_both_forfeit),
		cmocka_unit_test(test_scores_refused),
		cmocka_unit_test(test_pair_points),
		cmocka_unit_test(test_pair_rating),
		cmocka_unit_test(test_pair_roles),
		cmocka_unit_test(test_pair_last_three),
		cmocka_unit_test(test_pair_last_four),
		cmocka_unit_test(test_pair_odd),
		cmocka_unit_test(test_pair_refused),
		cmocka_unit_test(test_pair_thousand),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
