/*
 * test_puzzle: engine/puzzle.h on positions made for it.
 * - a double four set up twice: the VCF is proven in three plies, both
 *   points are accepted as first moves (not only the one kept), the
 *   defence blocks, and the second four's point makes five; a quiet move
 *   fails; a VCT is no VCF;
 * - a double three (freestyle): no VCF, a VCT within the stated plies,
 *   solved to the five by playing the solver's line against the defence's
 *   replies;
 * - a position that is not a game is refused;
 * - a win through the defender's counter-four (bin/reviewfig's game 139,
 *   move 29, engine/EXPERIMENTS.md): the engine calls 5,8 a VCT win the
 *   prover cannot prove at once; checked without the engine's word:
 *   after 5,8 every reply of white's is answered by a proven VCT, or is a
 *   four whose forced block leaves every reply so answered.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "engine/engine.h"
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

/* Game 139 of bin/reviewfig's self-play before its move 29, as x,y. */
static const int G139[][2] = { { 7, 6 }, { 6, 6 }, { 9, 8 }, { 10, 10 }, { 7, 10 }, { 8, 7 },
	{ 8, 11 }, { 10, 7 }, { 7, 7 }, { 6, 9 }, { 7, 8 }, { 7, 9 }, { 8, 9 }, { 10, 8 },
	{ 10, 9 }, { 9, 10 }, { 6, 8 }, { 8, 8 }, { 5, 9 }, { 4, 10 }, { 8, 5 }, { 10, 5 },
	{ 9, 5 }, { 8, 6 }, { 9, 7 }, { 9, 4 }, { 6, 11 }, { 5, 12 } };

/* Whether white, to move in mv[0..n), loses to black whatever it plays:
 * each reply answered by a VCT the prover proves, or (depth left) a four
 * whose forced block, the engine's "block-five", leaves white lost again. */
static int
white_lost(engine_t *e, move_t *mv, int n, int depth)
{
	position_t p;
	pos_init(&p, RULE_FREESTYLE, 15);
	for (int i = 0; i < n; i++)
		assert_int_equal(pos_play(&p, mv[i]), LEGAL_OK);
	move_t line[PUZZLE_LINE_MAX];
	int len;
	for (move_t m = 0; m < RULES_CELLS; m++) {
		position_t q = p;
		if (rules_x(m) >= 15 || rules_y(m) >= 15 || pos_play(&q, m) != LEGAL_OK)
			continue;
		if (q.outcome.kind == RESULT_WIN)
			return 0;
		mv[n] = m;
		if (puzzle_prove(
			RULE_FREESTYLE, 15, mv, n + 1, PUZZLE_VCT, 31, 400000, line, &len) > 0)
			continue;
		engine_limits_t l = engine_default_limits();
		l.max_nodes = 20000;
		engine_result_t r;
		if (depth == 0 ||
		    engine_search(e, RULE_FREESTYLE, 15, mv, n + 1, &l, NULL, NULL, &r) != 0 ||
		    strncmp(r.reason, "block-five", 10) != 0)
			return 0;
		mv[n + 1] = r.best;
		if (!white_lost(e, mv, n + 2, depth - 1))
			return 0;
	}
	return 1;
}

static void
test_counter_four(void **st)
{
	(void)st;
	move_t mv[RULES_CELLS];
	int n = 0;
	for (size_t i = 0; i < sizeof G139 / sizeof G139[0]; i++)
		mv[n++] = rules_move(G139[i][0], G139[i][1]);
	engine_t *e = engine_new(16);
	assert_non_null(e);
	engine_limits_t l = engine_default_limits();
	l.max_nodes = 200000;
	engine_result_t r;
	assert_int_equal(engine_search(e, RULE_FREESTYLE, 15, mv, n, &l, NULL, NULL, &r), 0);
	assert_int_equal(r.best, rules_move(5, 8));
	assert_true(r.score >= ENGINE_WIN_MIN);
	mv[n] = r.best;
	assert_true(white_lost(e, mv, n + 1, 2));
	/* and a quiet move in its place wins nothing that way */
	mv[n] = rules_move(0, 14);
	assert_false(white_lost(e, mv, n + 1, 2));
	engine_free(e);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vcf),
		cmocka_unit_test(test_vct),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_counter_four),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
