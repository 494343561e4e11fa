/*
 * test_ltable.c: an engine league's table (tourney/ltable.h): a round
 * robin of three whose points order the Elo, points and draws counted in
 * halves over the board, forfeits and byes left out, error bars above 0,
 * the Elo's mean 0, and more games narrowing the bars.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "tourney/ltable.h"

static struct tourney_game
game(int first, int second, enum tourney_result r)
{
	struct tourney_game g = { 1, first, second, r };
	return g;
}

/* Three players: 0 beats 1 and 2, 1 draws 2; a bye and a forfeit beside. */
static void
test_three(void **state)
{
	(void)state;
	struct tourney_game g[] = {
		game(0, 1, TR_FIRST_WINS),
		game(2, 0, TR_SECOND_WINS),
		game(1, 2, TR_DRAW),
		game(1, TOURNEY_BYE, TR_BYE),
		game(2, 1, TR_FIRST_FORFEIT),
	};
	struct ltable_row rows[3];
	assert_int_equal(ltable_make(3, g, 5, rows), 0);
	assert_int_equal(rows[0].player, 0);
	assert_int_equal(rows[0].points, 4);
	assert_int_equal(rows[0].games, 2);
	assert_int_equal(rows[0].draws, 0);
	int sum = 0, elo = 0;
	for (int i = 0; i < 3; i++) {
		sum += rows[i].points;
		elo += rows[i].elo;
		assert_true(rows[i].minus > 0 && rows[i].plus > 0);
		if (rows[i].player != 0) {
			assert_int_equal(rows[i].games, 2);
			assert_int_equal(rows[i].points, 1);
			assert_int_equal(rows[i].draws, 1);
		}
	}
	assert_int_equal(sum, 6);           /* three games, two halves each */
	assert_true(elo >= -2 && elo <= 2); /* centred (rounding aside) */
	assert_true(rows[0].elo > rows[1].elo && rows[0].elo > rows[2].elo);
}

/* The same results four times over: narrower bars, the same order. */
static void
test_more_games(void **state)
{
	(void)state;
	struct tourney_game g[12];
	for (int k = 0; k < 4; k++) {
		g[3 * k] = game(0, 1, TR_FIRST_WINS);
		g[3 * k + 1] = game(2, 0, TR_SECOND_WINS);
		g[3 * k + 2] = game(1, 2, TR_DRAW);
	}
	struct ltable_row few[3], many[3];
	assert_int_equal(ltable_make(3, g, 3, few), 0);
	assert_int_equal(ltable_make(3, g, 12, many), 0);
	assert_int_equal(many[0].player, 0);
	assert_int_equal(many[0].games, 8);
	assert_true(many[0].plus < few[0].plus);
	assert_true(many[0].elo > few[0].elo);
}

/* No games yet: everyone 0, in the order given; bad arguments refused. */
static void
test_empty(void **state)
{
	(void)state;
	struct ltable_row rows[2];
	assert_int_equal(ltable_make(2, NULL, 0, rows), 0);
	assert_int_equal(rows[0].player, 0);
	assert_int_equal(rows[0].elo, 0);
	assert_int_equal(rows[1].games, 0);
	assert_int_equal(ltable_make(0, NULL, 0, rows), -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_three),
		cmocka_unit_test(test_more_games),
		cmocka_unit_test(test_empty),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
