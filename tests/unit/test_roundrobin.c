/*
 * test_roundrobin.c: the Berger tables (tourney/roundrobin.h). The tables
 * for 4, 5 and 6 players are written out by hand, from the rule FIDE's
 * tables follow (roundrobin.c): player N (the dummy for an odd n) meets
 * a = 1 + (r-1)*N/2 mod (N-1), second in odd rounds and first in even
 * ones, and the others pair outward from a: a+1 (first) with a-1, a+2 with
 * a-2, counted round 1..N-1. Then properties for n = 2..20: every player
 * meets every other exactly once, once a round, and "first" comes as
 * evenly as roundrobin.h promises; the second cycle swaps the roles; and
 * the refusals.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "tourney/roundrobin.h"

/* A round as Berger numbers: pairs "first second" (second 0 = bye). */
static void
want_round(int n, int round, const int (*pairs)[2], int npairs)
{
	struct tourney_game g[TOURNEY_PLAYERS_MAX];
	assert_int_equal(rr_round(n, round, g, TOURNEY_PLAYERS_MAX), npairs);
	for (int i = 0; i < npairs; i++) {
		assert_int_equal(g[i].round, round);
		assert_int_equal(g[i].first, pairs[i][0] - 1);
		if (pairs[i][1] == 0) {
			assert_int_equal(g[i].second, TOURNEY_BYE);
			assert_int_equal(g[i].result, TR_BYE);
		} else {
			assert_int_equal(g[i].second, pairs[i][1] - 1);
			assert_int_equal(g[i].result, TR_PENDING);
		}
	}
}

/* 4 players, N = 4: a = 1, 3, 2 in rounds 1..3 (1 + (r-1)*2 mod 3).
 * Round 1: 1-4 (4 second, odd round), then 2-3 (a+1, a-1 = 0 -> 3).
 * Round 2: 4-3 (4 first), then 1-2 (3+1 = 4 -> 1, 3-1 = 2).
 * Round 3: 2-4, then 3-1. */
static void
test_four(void **state)
{
	(void)state;
	assert_int_equal(rr_rounds(4), 3);
	static const int r1[][2] = { { 1, 4 }, { 2, 3 } };
	static const int r2[][2] = { { 4, 3 }, { 1, 2 } };
	static const int r3[][2] = { { 2, 4 }, { 3, 1 } };
	want_round(4, 1, r1, 2);
	want_round(4, 2, r2, 2);
	want_round(4, 3, r3, 2);
}

/* 5 players with the dummy 6: the table for 6 (below) with 6's opponent
 * given the bye: a = 1, 4, 2, 5, 3. Round 1: 1 bye, 2-5, 3-4. Round 2: 4 bye,
 * 5-3, 1-2. Round 3: 2 bye, 3-1, 4-5. Round 4: 5 bye, 1-4, 2-3. Round 5:
 * 3 bye, 4-2, 5-1. Each player: one bye, first twice, second twice. */
static void
test_five(void **state)
{
	(void)state;
	assert_int_equal(rr_rounds(5), 5);
	static const int r[5][3][2] = {
		{ { 1, 0 }, { 2, 5 }, { 3, 4 } },
		{ { 4, 0 }, { 5, 3 }, { 1, 2 } },
		{ { 2, 0 }, { 3, 1 }, { 4, 5 } },
		{ { 5, 0 }, { 1, 4 }, { 2, 3 } },
		{ { 3, 0 }, { 4, 2 }, { 5, 1 } },
	};
	for (int i = 0; i < 5; i++)
		want_round(5, i + 1, r[i], 3);
}

/* 6 players, N = 6: a = 1 + (r-1)*3 mod 5 = 1, 4, 2, 5, 3. Round 1: 1-6,
 * 2-5, 3-4. Round 2: 6-4, 5-3, 1-2 (4+2 = 6 -> 1). Round 3: 2-6, 3-1, 4-5
 * (2-2 = 0 -> 5). Round 4: 6-5, 1-4, 2-3. Round 5: 3-6, 4-2, 5-1. Players 1,
 * 2, 3 are first 3 times, 4, 5, 6 twice: (n-2)/2 or n/2. */
static void
test_six(void **state)
{
	(void)state;
	assert_int_equal(rr_rounds(6), 5);
	static const int r[5][3][2] = {
		{ { 1, 6 }, { 2, 5 }, { 3, 4 } },
		{ { 6, 4 }, { 5, 3 }, { 1, 2 } },
		{ { 2, 6 }, { 3, 1 }, { 4, 5 } },
		{ { 6, 5 }, { 1, 4 }, { 2, 3 } },
		{ { 3, 6 }, { 4, 2 }, { 5, 1 } },
	};
	for (int i = 0; i < 5; i++)
		want_round(6, i + 1, r[i], 3);
}

/* The second cycle of 4: round 4 is round 1 with the roles swapped. */
static void
test_second_cycle(void **state)
{
	(void)state;
	static const int r4[][2] = { { 4, 1 }, { 3, 2 } };
	static const int r6[][2] = { { 4, 2 }, { 1, 3 } };
	want_round(4, 4, r4, 2);
	want_round(4, 6, r6, 2);
	static const int five7[][2] = { { 2, 0 }, { 1, 3 }, { 5, 4 } };
	want_round(5, 8, five7, 3);
}

/* For n = 2..20, over all rounds: each pair meets exactly once, every
 * player is in exactly one game (or bye) a round, each has exactly one bye
 * when n is odd, and the firsts are (n-2)/2 or n/2 (n even) or exactly
 * (n-1)/2 (n odd); over two cycles every player meets every other once
 * as first and once as second. */
static void
test_properties(void **state)
{
	(void)state;
	for (int n = 2; n <= 20; n++) {
		static int met[20][20], asfirst[20][20];
		int firsts[20] = { 0 }, byes[20] = { 0 };
		memset(met, 0, sizeof met);
		memset(asfirst, 0, sizeof asfirst);
		int rounds = rr_rounds(n);
		assert_int_equal(rounds, n % 2 ? n : n - 1);
		for (int r = 1; r <= 2 * rounds; r++) {
			struct tourney_game g[10];
			int seen[20] = { 0 };
			int k = rr_round(n, r, g, 10);
			assert_int_equal(k, (n + 1) / 2);
			for (int i = 0; i < k; i++) {
				int f = g[i].first, s = g[i].second;
				assert_true(f >= 0 && f < n);
				assert_int_equal(seen[f]++, 0);
				if (s == TOURNEY_BYE) {
					assert_int_equal(g[i].result, TR_BYE);
					if (r <= rounds)
						byes[f]++;
					continue;
				}
				assert_true(s >= 0 && s < n && s != f);
				assert_int_equal(seen[s]++, 0);
				asfirst[f][s]++;
				if (r <= rounds) {
					met[f][s]++;
					met[s][f]++;
					firsts[f]++;
				}
			}
			for (int p = 0; p < n; p++)
				assert_int_equal(seen[p], 1);
		}
		for (int p = 0; p < n; p++) {
			for (int q = 0; q < n; q++) {
				assert_int_equal(met[p][q], p != q);
				assert_int_equal(asfirst[p][q], p != q);
			}
			assert_int_equal(byes[p], n % 2);
			if (n % 2)
				assert_int_equal(firsts[p], (n - 1) / 2);
			else
				assert_true(firsts[p] == (n - 2) / 2 || firsts[p] == n / 2);
		}
	}
}

static void
test_refusals(void **state)
{
	(void)state;
	struct tourney_game g[4];
	assert_int_equal(rr_rounds(1), -1);
	assert_int_equal(rr_rounds(0), -1);
	assert_int_equal(rr_rounds(TOURNEY_ROUNDS_MAX + 2), -1);
	assert_int_equal(rr_rounds(TOURNEY_ROUNDS_MAX), TOURNEY_ROUNDS_MAX - 1);
	assert_int_equal(rr_round(4, 0, g, 4), -1);
	assert_int_equal(rr_round(4, 7, g, 4), -1);
	assert_int_equal(rr_round(8, 1, g, 3), -1);
	assert_int_equal(rr_round(1, 1, g, 4), -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_four),
		cmocka_unit_test(test_five),
		cmocka_unit_test(test_six),
		cmocka_unit_test(test_second_cycle),
		cmocka_unit_test(test_properties),
		cmocka_unit_test(test_refusals),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
