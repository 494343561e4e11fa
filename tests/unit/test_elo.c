/*
 * test_elo.c: a league's Bayesian Elo (tourney/elo.h) on results made to
 * measure: a known score gives the Elo difference the logistic curve says
 * (the prior's pull aside), the first player's advantage is found apart
 * from strength, orders are kept, a perfect score stays finite, error bars
 * narrow as the square root of the games, and forfeits say nothing.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "tourney/elo.h"

enum { GAMES_MAX = 4000 };

static struct tourney_game games[GAMES_MAX];
static int ng;

/* Elo difference of an expected score s (no draws). */
static double
elo_of(double s)
{
	return -400 * log10(1 / s - 1);
}

/* n games of a against b, colours taken in turn (a first in the even
 * ones): a wins the first w, then draws the next draws, then loses. */
static void
play(int a, int b, int n, int w, int draws)
{
	for (int i = 0; i < n && ng < GAMES_MAX; i++) {
		struct tourney_game *g = &games[ng++];
		g->round = 1;
		g->first = i % 2 ? b : a;
		g->second = i % 2 ? a : b;
		int a_first = g->first == a;
		if (i < w)
			g->result = a_first ? TR_FIRST_WINS : TR_SECOND_WINS;
		else if (i < w + draws)
			g->result = TR_DRAW;
		else
			g->result = a_first ? TR_SECOND_WINS : TR_FIRST_WINS;
	}
}

/* Spreads the wins over both colours: w of n games won by a, half of
 * them with each colour. */
static void
play_even(int a, int b, int n, int w)
{
	int half = n / 2, wa = w / 2;
	for (int c = 0; c < 2; c++) {
		for (int i = 0; i < half && ng < GAMES_MAX; i++) {
			struct tourney_game *g = &games[ng++];
			g->round = 1;
			g->first = c ? b : a;
			g->second = c ? a : b;
			int a_wins = i < (c ? w - wa : wa);
			g->result = (a_wins == (g->first == a)) ? TR_FIRST_WINS : TR_SECOND_WINS;
		}
	}
}

static void
fit(int n, struct elo_rating *r, double *adv, double *draw)
{
	struct elo_opts o = elo_defaults();
	assert_int_equal(elo_fit(n, games, ng, &o, r, adv, draw), 0);
}

static void
test_known_score(void **state)
{
	(void)state;
	struct elo_rating r[2];
	ng = 0;
	play_even(0, 1, 400, 300); /* 75% */
	fit(2, r, NULL, NULL);
	double diff = r[0].elo - r[1].elo, want = elo_of(0.75);
	printf("  75%% of 400 games: %.1f Elo apart (the curve: %.1f), +-%.1f\n", diff, want,
	    r[0].err95);
	assert_true(fabs(diff - want) < 15);
	assert_true(fabs(r[0].elo + r[1].elo) < 1e-6); /* centred */
	assert_true(r[0].err95 > 5 && r[0].err95 < 60);
	assert_int_equal(r[0].games, 400);
	assert_int_equal(r[0].points, 600);
}

static void
test_even(void **state)
{
	(void)state;
	struct elo_rating r[3];
	ng = 0;
	play_even(0, 1, 100, 50);
	play_even(1, 2, 100, 50);
	play_even(2, 0, 100, 50);
	fit(3, r, NULL, NULL);
	for (int i = 0; i < 3; i++)
		assert_true(fabs(r[i].elo) < 0.5);
	assert_true(fabs(r[0].err95 - r[1].err95) < 0.5 && fabs(r[1].err95 - r[2].err95) < 0.5);
}

static void
test_first_advantage(void **state)
{
	(void)state;
	struct elo_rating r[2];
	double adv, draw;
	ng = 0;
	/* equal players; the first wins 70% whoever it is */
	for (int i = 0; i < 200; i++) {
		struct tourney_game *g = &games[ng++];
		g->first = i % 2;
		g->second = 1 - i % 2;
		g->result = (i / 2) % 10 < 7 ? TR_FIRST_WINS : TR_SECOND_WINS;
	}
	fit(2, r, &adv, &draw);
	printf("  the first wins 70%%: advantage %.1f Elo (the curve: %.1f), ratings %.1f %.1f\n",
	    adv, elo_of(0.7), r[0].elo, r[1].elo);
	assert_true(fabs(r[0].elo - r[1].elo) < 1);
	assert_true(adv > elo_of(0.7) - 30 && adv < elo_of(0.7) + 10);
	/* not fitted, it stays as given */
	struct elo_opts o = elo_defaults();
	o.fit_adv = 0;
	o.adv = 25;
	assert_int_equal(elo_fit(2, games, ng, &o, r, &adv, NULL), 0);
	assert_true(adv == 25);
}

static void
test_order(void **state)
{
	(void)state;
	struct elo_rating r[3];
	ng = 0;
	play_even(0, 1, 200, 140); /* A 70% against B */
	play_even(1, 2, 200, 140); /* B 70% against C */
	play_even(0, 2, 200, 168); /* A 84% against C */
	fit(3, r, NULL, NULL);
	printf("  A %.1f, B %.1f, C %.1f\n", r[0].elo, r[1].elo, r[2].elo);
	assert_true(r[0].elo > r[1].elo && r[1].elo > r[2].elo);
	assert_true(fabs((r[0].elo - r[1].elo) - elo_of(0.7)) < 25);
	assert_true(fabs((r[1].elo - r[2].elo) - elo_of(0.7)) < 25);
}

static void
test_perfect_score(void **state)
{
	(void)state;
	struct elo_rating r[2], big[2];
	ng = 0;
	play_even(0, 1, 20, 20);
	fit(2, r, NULL, NULL);
	printf("  20-0: %.1f Elo apart, +-%.1f\n", r[0].elo - r[1].elo, r[0].err95);
	assert_true(isfinite(r[0].elo) && r[0].elo > r[1].elo + 200);
	assert_true(r[0].elo - r[1].elo < 1200);
	ng = 0;
	play_even(0, 1, 400, 300);
	fit(2, big, NULL, NULL);
	assert_true(r[0].err95 > big[0].err95);
}

static void
test_error_bars_narrow(void **state)
{
	(void)state;
	struct elo_rating small[2], big[2];
	ng = 0;
	play_even(0, 1, 40, 24);
	fit(2, small, NULL, NULL);
	ng = 0;
	play_even(0, 1, 400, 240);
	fit(2, big, NULL, NULL);
	double ratio = small[0].err95 / big[0].err95;
	printf("  60%% of 40 games +-%.1f, of 400 +-%.1f: %.2f times\n", small[0].err95,
	    big[0].err95, ratio);
	assert_true(ratio > 2.5 && ratio < 3.5); /* about sqrt(10) */
}

static void
test_draws(void **state)
{
	(void)state;
	struct elo_rating r[2], none[2];
	double draw, draw_none;
	ng = 0;
	play(0, 1, 200, 60, 120); /* 60 wins, 120 draws, 20 losses: 75% */
	fit(2, r, NULL, &draw);
	ng = 0;
	play(0, 1, 200, 140, 20); /* the same score with few draws */
	fit(2, none, NULL, &draw_none);
	printf("  many draws: width %.1f, %.1f apart; few: width %.1f, %.1f apart\n", draw,
	    r[0].elo - r[1].elo, draw_none, none[0].elo - none[1].elo);
	assert_true(draw > draw_none + 50);
	assert_true(r[0].elo > r[1].elo && none[0].elo > none[1].elo);
}

static void
test_forfeits_ignored(void **state)
{
	(void)state;
	struct elo_rating r[3], again[3];
	ng = 0;
	play_even(0, 1, 100, 60);
	play_even(1, 2, 100, 60);
	fit(3, r, NULL, NULL);
	int keep = ng;
	for (int i = 0; i < 50; i++) {
		struct tourney_game *g = &games[ng++];
		g->first = 2;
		g->second = i % 2 ? 0 : TOURNEY_BYE;
		g->result = i % 2 ? TR_SECOND_FORFEIT : TR_BYE;
	}
	games[ng++] = (struct tourney_game){ .first = 0, .second = 1, .result = TR_PENDING };
	fit(3, again, NULL, NULL);
	for (int i = 0; i < 3; i++) {
		assert_true(fabs(r[i].elo - again[i].elo) < 1e-9);
		assert_int_equal(r[i].games, again[i].games);
	}
	ng = keep;
}

static void
test_unplayed_player(void **state)
{
	(void)state;
	struct elo_rating r[3];
	ng = 0;
	play_even(0, 1, 100, 70);
	fit(3, r, NULL, NULL);
	/* the third has only the prior: between the others, the widest bar */
	assert_int_equal(r[2].games, 0);
	assert_true(r[2].elo < r[0].elo && r[2].elo > r[1].elo);
	assert_true(r[2].err95 > r[0].err95);
}

static void
test_bad_input(void **state)
{
	(void)state;
	struct elo_rating r[2];
	struct elo_opts o = elo_defaults();
	ng = 0;
	play_even(0, 1, 10, 5);
	assert_int_equal(elo_fit(0, games, ng, &o, r, NULL, NULL), -1);
	assert_int_equal(elo_fit(ELO_PLAYERS_MAX + 1, games, ng, &o, r, NULL, NULL), -1);
	games[3].second = 5;
	assert_int_equal(elo_fit(2, games, ng, &o, r, NULL, NULL), -1);
	games[3].second = games[3].first;
	assert_int_equal(elo_fit(2, games, ng, &o, r, NULL, NULL), -1);
	games[3].second = 1 - games[3].first;
	o.prior_draws = 0;
	assert_int_equal(elo_fit(2, games, ng, &o, r, NULL, NULL), -1);
	assert_int_equal(elo_fit(2, games, ng, NULL, r, NULL, NULL), 0); /* the defaults */
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_known_score),
		cmocka_unit_test(test_even),
		cmocka_unit_test(test_first_advantage),
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_perfect_score),
		cmocka_unit_test(test_error_bars_narrow),
		cmocka_unit_test(test_draws),
		cmocka_unit_test(test_forfeits_ignored),
		cmocka_unit_test(test_unplayed_player),
		cmocka_unit_test(test_bad_input),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
