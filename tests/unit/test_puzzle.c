/*
 * test_puzzle: engine/puzzle.h on positions made for it.
 * - a double four set up twice: the VCF is proven in three plies, both
 *   points are accepted as first moves (not only the one kept), the
 *   defence blocks, and the second four's point makes five; a quiet move
 *   fails; a VCT is no VCF;
 * - a double three (freestyle): no VCF, a VCT within the stated plies,
 *   solved to the five by playing the solver's line against the defence's
 *   replies;
 * - a position that is not a game is refused.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "engine/puzzle.h"

static int
parse(const char *list, move_t *mv)
{
	char buf[1024], *save = NULL;
	int n = 0;
	snprintf(buf, sizeof buf, "%s", list);
	for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save))
		if (notation_parse(t, 15, &mv[n++]) != 0)
			fail_msg("bad move %s", t);
	return n;
}

static move_t
at(const char *s)
{
	move_t m;
	assert_int_equal(notation_parse(s, 15, &m), 0);
	return m;
}

/* black's closed threes h8-j8 (g8 white) and k9-k11 (k12 white) meet at
 * k8; c13-e13 (b13) and f10-f12 (f9) at f13: two double fours */
#define FOURS "h8,g8,i8,k12,j8,a1,k9,a3,k10,a5,k11,o15,c13,b13,d13,f9,e13,o1,f10,o3,f11,o5,f12,a15"

enum { BUDGET = 2000000 };

static void
test_vcf(void **st)
{
	(void)st;
	move_t mv[RULES_CELLS], line[PUZZLE_LINE_MAX], reply;
	int len, left, n = parse(FOURS, mv);
	int r = puzzle_prove(
	    RULE_FREESTYLE, 15, mv, n, PUZZLE_VCF, PUZZLE_VCF_PLIES, BUDGET, line, &len);
	assert_int_equal(r, 3);
	assert_true(len >= 1 && (line[0] == at("k8") || line[0] == at("f13")));
	/* both double fours are accepted, whichever the solver kept */
	const char *firsts[] = { "k8", "f13" };
	for (int i = 0; i < 2; i++) {
		assert_int_equal(puzzle_answer(RULE_FREESTYLE, 15, mv, n, PUZZLE_VCF,
				     PUZZLE_VCF_PLIES, BUDGET, at(firsts[i]), &reply, &left),
		    PUZZLE_HOLDS);
		assert_true(reply != MOVE_NONE);
		assert_int_equal(left, 1);
	}
	/* k8, a block, and the other five point */
	mv[n] = at("k8");
	assert_int_equal(puzzle_answer(RULE_FREESTYLE, 15, mv, n, PUZZLE_VCF, PUZZLE_VCF_PLIES,
			     BUDGET, mv[n], &reply, &left),
	    PUZZLE_HOLDS);
	assert_true(reply == at("l8") || reply == at("k7"));
	mv[n + 1] = reply;
	move_t five = reply == at("l8") ? at("k7") : at("l8");
	assert_int_equal(puzzle_answer(RULE_FREESTYLE, 15, mv, n + 2, PUZZLE_VCF,
			     PUZZLE_VCF_PLIES - 2, BUDGET, five, &reply, &left),
	    PUZZLE_FIVE);
	/* a quiet move gives the win away */
	assert_int_equal(puzzle_answer(RULE_FREESTYLE, 15, mv, n, PUZZLE_VCF, PUZZLE_VCF_PLIES,
			     BUDGET, at("h3"), &reply, &left),
	    PUZZLE_FAILS);
	/* a longer way is a win too: the four at l8, its block at k8, then
	 * the other double four */
	assert_int_equal(puzzle_answer(RULE_FREESTYLE, 15, mv, n, PUZZLE_VCF, PUZZLE_VCF_PLIES,
			     BUDGET, at("l8"), &reply, &left),
	    PUZZLE_HOLDS);
	assert_int_equal(reply, at("k8"));
	assert_int_equal(left, 3);
	/* but not within a limit too short for it */
	assert_int_equal(puzzle_answer(RULE_FREESTYLE, 15, mv, n, PUZZLE_VCF, 3, BUDGET, at("l8"),
			     &reply, &left),
	    PUZZLE_FAILS);
}

/* black's open twos h8-i8 and j9-j10 meet at j8: a double three */
#define THREES "h8,a1,i8,a15,j9,o1,j10,o15"

static void
test_vct(void **st)
{
	(void)st;
	move_t mv[RULES_CELLS], line[PUZZLE_LINE_MAX], reply;
	int len, left, n = parse(THREES, mv);
	assert_int_equal(puzzle_prove(RULE_FREESTYLE, 15, mv, n, PUZZLE_VCF, PUZZLE_VCF_PLIES,
			     BUDGET, line, &len),
	    0);
	int r = puzzle_prove(
	    RULE_FREESTYLE, 15, mv, n, PUZZLE_VCT, PUZZLE_VCT_PLIES, BUDGET, line, &len);
	assert_true(r >= PUZZLE_MIN_PLIES && r <= PUZZLE_VCT_PLIES && len >= 1);
	/* played out: the solver's first move each time, the defence's reply,
	 * until the five, within the stated plies */
	int plies = PUZZLE_VCT_PLIES, verdict;
	for (int step = 0;; step++) {
		assert_true(step < 6);
		assert_true(puzzle_prove(RULE_FREESTYLE, 15, mv, n, PUZZLE_VCT, plies, BUDGET, line,
				&len) > 0);
		verdict = puzzle_answer(
		    RULE_FREESTYLE, 15, mv, n, PUZZLE_VCT, plies, BUDGET, line[0], &reply, &left);
		if (verdict == PUZZLE_FIVE)
			break;
		assert_int_equal(verdict, PUZZLE_HOLDS);
		assert_true(left < plies && reply != MOVE_NONE);
		mv[n++] = line[0];
		mv[n++] = reply;
		plies -= 2;
	}
	/* the whole solution at once: five plies, the solver's moves the
	 * ones just played */
	move_t sol[PUZZLE_LINE_MAX], again[RULES_CELLS];
	int k = parse(THREES, again);
	int plies_to_five = puzzle_solution(
	    RULE_FREESTYLE, 15, again, k, PUZZLE_VCT, PUZZLE_VCT_PLIES, BUDGET, sol, &len);
	assert_int_equal(plies_to_five, len);
	assert_true(len >= PUZZLE_MIN_PLIES && len % 2 == 1 && len == n - k + 1);
	for (int i = 0; i + 1 < len; i++)
		assert_int_equal(sol[i], mv[k + i]);
	/* the same first move judged as a VCF: an open three is no four */
	n = parse(THREES, mv);
	assert_int_equal(puzzle_answer(RULE_FREESTYLE, 15, mv, n, PUZZLE_VCF, PUZZLE_VCF_PLIES,
			     BUDGET, at("j8"), &reply, &left),
	    PUZZLE_FAILS);
}

static void
test_bad(void **st)
{
	(void)st;
	move_t mv[4], line[PUZZLE_LINE_MAX], reply;
	int len, left, n = parse("h8,h8", mv);
	assert_int_equal(
	    puzzle_prove(RULE_FREESTYLE, 15, mv, n, PUZZLE_VCF, 31, BUDGET, line, &len), -1);
	assert_int_equal(puzzle_answer(RULE_FREESTYLE, 15, mv, 1, PUZZLE_VCF, 31, BUDGET, at("h8"),
			     &reply, &left),
	    -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vcf),
		cmocka_unit_test(test_vct),
		cmocka_unit_test(test_bad),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
