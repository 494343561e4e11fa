/*
 * test_standings.c: standings and tie-breaks (tourney/standings.h), on
 * small tournaments worked by hand; each value's sum is written out beside
 * it, in points (1, 1/2, 0), then in the units standings.h gives: halves
 * for points and Buchholz, quarters for Sonneborn-Berger.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "tourney/standings.h"

#define G(r, f, s, res)              \
	{                            \
		(r), (f), (s), (res) \
	}
#define BYE(r, p)                             \
	{                                     \
		(r), (p), TOURNEY_BYE, TR_BYE \
	}

/* One row of the expected standings: player, rank, shared, points,
 * Buchholz, Cut-1, Median1, Sonneborn-Berger, wins. */
struct row {
	int player, rank, shared, points, bh, cut1, median, sb, wins;
};

static void
want(const struct standing *got, const struct row *rows, int n)
{
	for (int i = 0; i < n; i++) {
		const struct row *w = &rows[i];
		const struct standing *s = &got[i];
		if (s->player != w->player || s->rank != w->rank || s->shared != w->shared ||
		    s->points != w->points || s->buchholz != w->bh || s->bh_cut1 != w->cut1 ||
		    s->bh_median != w->median || s->sb != w->sb || s->wins != w->wins)
			printf("  row %d: player %d rank %d%s points %d bh %d cut1 %d median %d sb "
			       "%d wins %d\n",
			    i, s->player, s->rank, s->shared ? "=" : "", s->points, s->buchholz,
			    s->bh_cut1, s->bh_median, s->sb, s->wins);
		assert_int_equal(s->player, w->player);
		assert_int_equal(s->rank, w->rank);
		assert_int_equal(s->shared, w->shared);
		assert_int_equal(s->points, w->points);
		assert_int_equal(s->buchholz, w->bh);
		assert_int_equal(s->bh_cut1, w->cut1);
		assert_int_equal(s->bh_median, w->median);
		assert_int_equal(s->sb, w->sb);
		assert_int_equal(s->wins, w->wins);
	}
}

/*
 * A Swiss of five, A..E (0..4), three rounds:
 *   round 1: A beats B, C draws D, E has the bye;
 *   round 2: A draws C, D wins by forfeit (E did not come), B has the bye;
 *   round 3: A beats D, C beats B, E has no game (withdrew).
 * Points: A 1 + 1/2 + 1 = 2 1/2; B 0 + 1 + 0 = 1; C 1/2 + 1/2 + 1 = 2;
 * D 1/2 + 1 + 0 = 1 1/2; E 1 + 0 + 0 = 1.
 * Opponents' scores (16.3): as they are, but E was last there in round 1
 * (the bye; round 2 is a forfeit lost, round 3 no game): round 3, with no
 * game, counts as a draw: E's score as an opponent is 1 1/2. No one met E
 * over the board (D's round 2 is unplayed and counts a dummy), so that
 * score shows in no one's tie-breaks here; test_swiss_withdrawn has some.
 * Buchholz values by round (own unplayed rounds: a dummy with the
 * player's own points, 16.4; "v" marks a voluntarily unplayed round):
 *   A: B 1, C 2, D 1 1/2 = 4 1/2; Cut-1 drops 1: 3 1/2; Median1 then
 *      drops 2: 1 1/2.
 *   B: A 2 1/2, dummy 1 (the bye), C 2 = 5 1/2; Cut-1 drops 1: 4 1/2;
 *      Median1 drops 2 1/2: 2.
 *   C: D 1 1/2, A 2 1/2, B 1 = 5; Cut-1 4; Median1 1 1/2.
 *   D: C 2, dummy 1 1/2 (the forfeit won), A 2 1/2 = 6; Cut-1 drops
 *      1 1/2: 4 1/2; Median1 drops 2 1/2: 2.
 *   E: dummy 1 (bye), dummy 1 v (forfeit lost), dummy 1 v (no game) = 3;
 *      Cut-1 drops a v (16.5): 2; Median1 drops 1: 1.
 * Sonneborn-Berger (opponent's score times the result):
 *   A: 1 x 1 + 2 x 1/2 + 1 1/2 x 1 = 3 1/2;
 *   B: 2 1/2 x 0 + 1 x 1 (dummy, bye) + 2 x 0 = 1;
 *   C: 1 1/2 x 1/2 + 2 1/2 x 1/2 + 1 x 1 = 3;
 *   D: 2 x 1/2 + 1 1/2 x 1 (dummy, forfeit won) + 2 1/2 x 0 = 2 1/2;
 *   E: 1 x 1 (bye) + 1 x 0 + 1 x 0 = 1.
 * Order: A (2 1/2), C (2), D (1 1/2), then B and E on 1: B's Cut-1 4 1/2
 * beats E's 2. Wins: A 2, B 0 (a bye is not a win), C 1, D 1 (by
 * forfeit), E 0.
 * In halves: points A 5, C 4, D 3, B 2, E 2; Buchholz A 9/7/3, B 11/9/4,
 * C 10/8/3, D 12/9/4, E 6/4/2. SB in quarters: A 14, B 4, C 12, D 10, E 4.
 */
static const struct tourney_game swiss5[] = {
	G(1, 0, 1, TR_FIRST_WINS),
	G(1, 2, 3, TR_DRAW),
	BYE(1, 4),
	G(2, 0, 2, TR_DRAW),
	G(2, 4, 3, TR_FIRST_FORFEIT),
	BYE(2, 1),
	G(3, 3, 0, TR_SECOND_WINS),
	G(3, 1, 2, TR_SECOND_WINS),
};

static const struct tourney_player five[5] = {
	{ 1800, 0 },
	{ 1700, 0 },
	{ 1600, 0 },
	{ 1500, 0 },
	{ 1400, 1 },
};

static void
test_swiss(void **state)
{
	(void)state;
	struct standing s[5];
	static const struct row rows[] = {
		{ 0, 1, 0, 5, 9, 7, 3, 14, 2 },
		{ 2, 2, 0, 4, 10, 8, 3, 12, 1 },
		{ 3, 3, 0, 3, 12, 9, 4, 10, 1 },
		{ 1, 4, 0, 2, 11, 9, 4, 4, 0 },
		{ 4, 5, 0, 2, 6, 4, 2, 4, 0 },
	};
	assert_int_equal(standings(STANDINGS_SWISS, five, 5, swiss5, 8, 3, s), 5);
	want(s, rows, 5);
	/* rounds 0: the last round with a finished game, 3 */
	memset(s, 0, sizeof s);
	assert_int_equal(standings(STANDINGS_SWISS, five, 5, swiss5, 8, 0, s), 5);
	want(s, rows, 5);
}

/*
 * The same Swiss after round 1 only (rounds = 1): A 1, C 1/2, D 1/2, E 1
 * (the bye), B 0. Buchholz: A: B 0; C: D 1/2; D: C 1/2; E: dummy 1; B: A
 * 1. One value each: Cut-1 cuts it (0), Median1 needs two (0).
 * SB: A 0 x 1 = 0; C 1/2 x 1/2; D 1/2 x 1/2; E 1 x 1 = 1; B 0.
 * A and E: 1 each, Cut-1 0 and 0, Buchholz A 0 < E 1: E first. C and D:
 * equal on everything (1/2, 0, 1/2, 0, 1/4): both 3=, C (2) before D (3).
 * In halves: A 2, E 2, C 1, D 1, B 0; Buchholz A 0, E 2, C 1, D 1, B 2;
 * SB quarters A 0, E 4, C 1, D 1, B 0.
 */
static void
test_swiss_round_one(void **state)
{
	(void)state;
	struct standing s[5];
	static const struct row rows[] = {
		{ 4, 1, 0, 2, 2, 0, 0, 4, 0 },
		{ 0, 2, 0, 2, 0, 0, 0, 0, 1 },
		{ 2, 3, 1, 1, 1, 0, 0, 1, 0 },
		{ 3, 3, 1, 1, 1, 0, 0, 1, 0 },
		{ 1, 5, 0, 0, 2, 0, 0, 0, 0 },
	};
	assert_int_equal(standings(STANDINGS_SWISS, five, 5, swiss5, 8, 1, s), 5);
	want(s, rows, 5);
}

/*
 * A withdrawal seen from the opponents (16.3): four players, three
 * rounds. Round 1: 0 beats 1, 2 beats 3. Round 2: 0 beats 2, 3 beats 1.
 * Round 3: 0 draws 3; 1 and 2 have no game (both withdrew).
 * Points: 0 2 1/2; 1 0; 2 1; 3 1 1/2.
 * As opponents: 1 was last there in round 2 (a game): round 3 counts a
 * draw: 1/2. 2 likewise: 1 + 1/2 = 1 1/2. 0 and 3 as they are.
 * Buchholz: 0: 1/2 + 1 1/2 + 1 1/2 = 3 1/2 (Cut-1 3, Median1 1 1/2);
 *   3: 1 1/2 + 1/2 + 2 1/2 = 4 1/2 (Cut-1 4, Median1 1 1/2);
 *   2: 1 1/2 + 2 1/2 + dummy 1 v = 5 (Cut-1 drops the VUR: 4; Median1
 *   drops 2 1/2: 1 1/2); 1: 2 1/2 + 1 1/2 + dummy 0 v = 4 (Cut-1 4,
 *   Median1 1 1/2).
 * SB: 0: 1/2 x 1 + 1 1/2 x 1 + 1 1/2 x 1/2 = 2 3/4;
 *   3: 1 1/2 x 0 + 1/2 x 1 + 2 1/2 x 1/2 = 1 3/4; 2: 1 1/2 x 1 + 0 + 1 x 0
 *   = 1 1/2; 1: 0.
 * Order: 0, 3, 2, 1. Halves: points 5, 3, 2, 0; Buchholz 7/6/3, 9/8/3,
 * 10/8/3, 8/8/3; SB quarters 11, 7, 6, 0.
 */
static void
test_swiss_withdrawn(void **state)
{
	(void)state;
	static const struct tourney_game g[] = {
		G(1, 0, 1, TR_FIRST_WINS),
		G(1, 2, 3, TR_FIRST_WINS),
		G(2, 2, 0, TR_SECOND_WINS),
		G(2, 1, 3, TR_SECOND_WINS),
		G(3, 3, 0, TR_DRAW),
	};
	static const struct tourney_player p[4] = { { 1500, 0 }, { 1500, 1 }, { 1500, 1 },
		{ 1500, 0 } };
	static const struct row rows[] = {
		{ 0, 1, 0, 5, 7, 6, 3, 11, 2 },
		{ 3, 2, 0, 3, 9, 8, 3, 7, 1 },
		{ 2, 3, 0, 2, 10, 8, 3, 6, 1 },
		{ 1, 4, 0, 0, 8, 8, 3, 0, 0 },
	};
	struct standing s[4];
	assert_int_equal(standings(STANDINGS_SWISS, p, 4, g, 5, 3, s), 4);
	want(s, rows, 4);
}

static const struct tourney_player four[4] = {
	{ 1500, 0 },
	{ 1500, 0 },
	{ 1500, 0 },
	{ 1500, 0 },
};

/*
 * Round robins of four on the Berger table (1-4 2-3 / 4-3 1-2 / 2-4 3-1),
 * players 1..4 being 0..3.
 * First: 4 draws everyone, 1 beats 2, 2 beats 3, 3 beats 1. Every player
 * has 1 1/2; Sonneborn-Berger: 1: 2's 1 1/2 x 1 + 4's 1 1/2 x 1/2 = 2 1/4,
 * and 2 and 3 the same (the cycle); 4: (1 1/2 x 3) x 1/2 = 2 1/4. Wins: 1,
 * 2, 3 one each, 4 none. So 1, 2, 3 share rank 1 ("1="), 4 is 4th.
 * Halves: 3 each; SB quarters 9 each.
 */
static void
test_roundrobin_ties(void **state)
{
	(void)state;
	static const struct tourney_game g[] = {
		G(1, 0, 3, TR_DRAW),
		G(1, 1, 2, TR_FIRST_WINS),
		G(2, 3, 2, TR_DRAW),
		G(2, 0, 1, TR_FIRST_WINS),
		G(3, 1, 3, TR_DRAW),
		G(3, 2, 0, TR_FIRST_WINS),
	};
	static const struct row rows[] = {
		{ 0, 1, 1, 3, 0, 0, 0, 9, 1 },
		{ 1, 1, 1, 3, 0, 0, 0, 9, 1 },
		{ 2, 1, 1, 3, 0, 0, 0, 9, 1 },
		{ 3, 4, 0, 3, 0, 0, 0, 9, 0 },
	};
	struct standing s[4];
	assert_int_equal(standings(STANDINGS_ROUNDROBIN, four, 4, g, 6, 0, s), 4);
	want(s, rows, 4);
}

/*
 * Second: 1 beats 4, 2 beats 3; 3 beats 4, 1 draws 2; 4 beats 2, 1 beats
 * 3. Points: 1 2 1/2; 2 1 1/2; 3 1; 4 1. SB: 1: 4's 1 + 2's 1 1/2 x 1/2 +
 * 3's 1 = 2 3/4; 2: 1's 2 1/2 x 1/2 + 3's 1 = 2 1/4; 3: 4's 1 = 1; 4: 2's
 * 1 1/2 = 1 1/2. 3 and 4 tie on points; 4's SB is higher: 1, 2, 4, 3.
 * Halves: 5, 3, 2, 2; SB quarters 11, 9, 6, 4. With a forfeit in place of
 * 4's win over 2 (2 did not come), the same: a round robin counts it as
 * the game against 2, and wins counts a forfeit win (FIDE's WIN).
 */
static void
test_roundrobin_sb(void **state)
{
	(void)state;
	struct tourney_game g[] = {
		G(1, 0, 3, TR_FIRST_WINS),
		G(1, 1, 2, TR_FIRST_WINS),
		G(2, 3, 2, TR_SECOND_WINS),
		G(2, 0, 1, TR_DRAW),
		G(3, 1, 3, TR_SECOND_WINS),
		G(3, 2, 0, TR_SECOND_WINS),
	};
	static const struct row rows[] = {
		{ 0, 1, 0, 5, 0, 0, 0, 11, 2 },
		{ 1, 2, 0, 3, 0, 0, 0, 9, 1 },
		{ 3, 3, 0, 2, 0, 0, 0, 6, 1 },
		{ 2, 4, 0, 2, 0, 0, 0, 4, 1 },
	};
	struct standing s[4];
	assert_int_equal(standings(STANDINGS_ROUNDROBIN, four, 4, g, 6, 3, s), 4);
	want(s, rows, 4);
	g[4].result = TR_FIRST_FORFEIT;
	assert_int_equal(standings(STANDINGS_ROUNDROBIN, four, 4, g, 6, 3, s), 4);
	want(s, rows, 4);
}

/*
 * A round robin of three with its byes (the Berger dummy's games): 1 bye,
 * 2 beats 3; 3 bye, 1 beats 2; 2 bye, 3 draws 1. The byes score nothing:
 * 1 1 1/2, 2 1, 3 1/2. SB: 1: 2's 1 + 3's 1/2 x 1/2 = 1 1/4; 2: 3's 1/2;
 * 3: 1's 1 1/2 x 1/2 = 3/4. Halves 3, 2, 1; quarters 5, 2, 3.
 */
static void
test_roundrobin_byes(void **state)
{
	(void)state;
	static const struct tourney_game g[] = {
		BYE(1, 0),
		G(1, 1, 2, TR_FIRST_WINS),
		BYE(2, 2),
		G(2, 0, 1, TR_FIRST_WINS),
		BYE(3, 1),
		G(3, 2, 0, TR_DRAW),
	};
	static const struct row rows[] = {
		{ 0, 1, 0, 3, 0, 0, 0, 5, 1 },
		{ 1, 2, 0, 2, 0, 0, 0, 2, 1 },
		{ 2, 3, 0, 1, 0, 0, 0, 3, 0 },
	};
	struct standing s[3];
	assert_int_equal(standings(STANDINGS_ROUNDROBIN, four, 3, g, 6, 0, s), 3);
	want(s, rows, 3);
}

/*
 * An arena of five, the games in this order: 0 beats 1, 0 beats 2, 0
 * beats 3 (2 + 2 + 4 on fire = 8), 1 beats 3 (2), 2 beats 3 (2), and a
 * pending game 3-4. Ratings 1500, 1600, 1700, 1400, 1400. Points: 0 8, 1 2,
 * 2 2, 3 0, 4 0. 1 and 2 tie on points: 2 is rated higher. 3 and 4 tie on
 * points and rating: both 4=, 3 first.
 */
static void
test_arena(void **state)
{
	(void)state;
	static const struct tourney_game g[] = {
		G(0, 0, 1, TR_FIRST_WINS),
		G(0, 2, 0, TR_SECOND_WINS),
		G(0, 0, 3, TR_FIRST_WINS),
		G(0, 3, 1, TR_SECOND_WINS),
		G(0, 2, 3, TR_FIRST_WINS),
		G(0, 3, 4, TR_PENDING),
	};
	static const struct tourney_player p[5] = {
		{ 1500, 0 },
		{ 1600, 0 },
		{ 1700, 0 },
		{ 1400, 0 },
		{ 1400, 0 },
	};
	static const struct row rows[] = {
		{ 0, 1, 0, 8, 0, 0, 0, 0, 3 },
		{ 2, 2, 0, 2, 0, 0, 0, 0, 1 },
		{ 1, 3, 0, 2, 0, 0, 0, 0, 1 },
		{ 3, 4, 1, 0, 0, 0, 0, 0, 0 },
		{ 4, 4, 1, 0, 0, 0, 0, 0, 0 },
	};
	struct standing s[5];
	assert_int_equal(standings(STANDINGS_ARENA, p, 5, g, 6, 0, s), 5);
	want(s, rows, 5);
}

static void
test_refused(void **state)
{
	(void)state;
	struct standing s[5];
	const struct tourney_game self[] = { G(1, 1, 1, TR_DRAW) };
	const struct tourney_game out[] = { G(1, 0, 5, TR_DRAW) };
	const struct tourney_game round0[] = { G(0, 0, 1, TR_DRAW) };
	const struct tourney_game byeless[] = { G(1, 0, TOURNEY_BYE, TR_DRAW) };
	const struct tourney_game twice[] = { G(1, 0, 1, TR_DRAW), G(1, 0, 2, TR_DRAW) };
	assert_int_equal(standings(STANDINGS_SWISS, five, 5, self, 1, 0, s), -1);
	assert_int_equal(standings(STANDINGS_SWISS, five, 5, out, 1, 0, s), -1);
	assert_int_equal(standings(STANDINGS_SWISS, five, 5, round0, 1, 0, s), -1);
	assert_int_equal(standings(STANDINGS_ARENA, five, 5, round0, 1, 0, s), 5);
	assert_int_equal(standings(STANDINGS_SWISS, five, 5, byeless, 1, 0, s), -1);
	assert_int_equal(standings(STANDINGS_SWISS, five, 5, twice, 2, 0, s), -1);
	assert_int_equal(standings(STANDINGS_SWISS, five, 0, swiss5, 8, 0, s), -1);
	assert_int_equal(
	    standings(STANDINGS_SWISS, five, 5, swiss5, 8, TOURNEY_ROUNDS_MAX + 1, s), -1);
	assert_int_equal(standings((enum standings_kind)7, five, 5, swiss5, 8, 0, s), -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_swiss),
		cmocka_unit_test(test_swiss_round_one),
		cmocka_unit_test(test_swiss_withdrawn),
		cmocka_unit_test(test_roundrobin_ties),
		cmocka_unit_test(test_roundrobin_sb),
		cmocka_unit_test(test_roundrobin_byes),
		cmocka_unit_test(test_arena),
		cmocka_unit_test(test_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
