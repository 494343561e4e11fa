/*
 * test_winchance: engine/winchance.h, the score as a chance of winning:
 * - the two sides' chances of one position add up to 1000 over every score
 *   from below -ENGINE_WIN to above it;
 * - the chance never falls as the score rises, and rises through the
 *   unforced range;
 * - forced results are certain: 1000 from ENGINE_WIN_MIN on, 0 from
 *   -ENGINE_WIN_MIN down, whatever the fit;
 * - an even score is 500;
 * - at +-K and +-2K the chance is the logistic's, 1/(1+e^-1) and
 *   1/(1+e^-2) per mille (so another formula, or a K the header does not
 *   state, fails);
 * - the constants are in range: K positive, the blunder's fall a chance.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "engine/engine.h"
#include "engine/winchance.h"

enum { SPAN = ENGINE_WIN + 2000 };

static void
test_symmetry(void **state)
{
	(void)state;
	for (int s = -SPAN; s <= SPAN; s++)
		if (winchance_permille(s) + winchance_permille(-s) != 1000)
			fail_msg(
			    "score %d: %d + %d", s, winchance_permille(s), winchance_permille(-s));
}

static void
test_monotone(void **state)
{
	(void)state;
	int prev = winchance_permille(-SPAN), distinct = 1;
	for (int s = -SPAN + 1; s <= SPAN; s++) {
		int p = winchance_permille(s);
		if (p < prev)
			fail_msg("score %d: %d after %d", s, p, prev);
		assert_true(p >= 0 && p <= 1000);
		distinct += p != prev;
		prev = p;
	}
	/* every per mille from 0 to 1000 is reached on the way */
	assert_int_equal(distinct, 1001);
	assert_true(winchance_permille(-WINCHANCE_K) < winchance_permille(-1));
	assert_true(winchance_permille(1) < winchance_permille(WINCHANCE_K));
}

static void
test_forced(void **state)
{
	(void)state;
	assert_int_equal(winchance_permille(ENGINE_WIN_MIN), 1000);
	assert_int_equal(winchance_permille(ENGINE_WIN), 1000);
	assert_int_equal(winchance_permille(ENGINE_WIN - 7), 1000);
	assert_int_equal(winchance_permille(-ENGINE_WIN_MIN), 0);
	assert_int_equal(winchance_permille(-ENGINE_WIN), 0);
	assert_int_equal(winchance_permille(-(ENGINE_WIN - 7)), 0);
}

static void
test_even(void **state)
{
	(void)state;
	assert_int_equal(winchance_permille(0), 500);
}

static void
test_logistic(void **state)
{
	(void)state;
	/* 1000/(1+e^-1) = 731.06, 1000/(1+e^-2) = 880.80 */
	assert_int_equal(winchance_permille(WINCHANCE_K), 731);
	assert_int_equal(winchance_permille(-WINCHANCE_K), 269);
	assert_int_equal(winchance_permille(2 * WINCHANCE_K), 881);
	assert_int_equal(winchance_permille(-2 * WINCHANCE_K), 119);
	/* 1000/(1+e^-ln 3) = 750, K ln 3 rounded moves it by less than 0.5 */
	assert_int_equal(winchance_permille((int)(WINCHANCE_K * 1.0986123 + 0.5)), 750);
}

static void
test_constants(void **state)
{
	(void)state;
	assert_true(WINCHANCE_K > 0 && (int)WINCHANCE_K < (int)ENGINE_WIN_MIN);
	assert_true(WINCHANCE_BLUNDER_DROP > 0 && WINCHANCE_BLUNDER_DROP < 1000);
}

/* Each rule on its own fitted scale: a score of K is 73.1% on each; the
 * same score is worth more under standard (K 620) than renju (814) than
 * freestyle (888); forced results are certain on every scale; the
 * function for a rule is that rule's, and freestyle's is the default. */
static void
test_rules(void **state)
{
	(void)state;
	static const rule_t rules[3] = { RULE_FREESTYLE, RULE_STANDARD, RULE_RENJU };
	static const int k[3] = { WINCHANCE_K, WINCHANCE_K_STANDARD, WINCHANCE_K_RENJU };
	for (int i = 0; i < 3; i++) {
		assert_int_equal(winchance_k(rules[i]), k[i]);
		assert_int_equal(winchance_rule(rules[i], k[i]), 731);
		assert_int_equal(winchance_rule(rules[i], -k[i]), 269);
		assert_int_equal(winchance_rule(rules[i], ENGINE_WIN_MIN), 1000);
		assert_int_equal(winchance_rule(rules[i], -ENGINE_WIN_MIN), 0);
		for (int s = -3000; s <= 3000; s += 7)
			assert_int_equal(winchance_of(rules[i])(s), winchance_rule(rules[i], s));
	}
	assert_true(winchance_rule(RULE_STANDARD, 600) > winchance_rule(RULE_RENJU, 600));
	assert_true(winchance_rule(RULE_RENJU, 600) > winchance_rule(RULE_FREESTYLE, 600));
	for (int s = -2000; s <= 2000; s += 13)
		assert_int_equal(winchance_permille(s), winchance_rule(RULE_FREESTYLE, s));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_symmetry),
		cmocka_unit_test(test_monotone),
		cmocka_unit_test(test_forced),
		cmocka_unit_test(test_even),
		cmocka_unit_test(test_logistic),
		cmocka_unit_test(test_constants),
		cmocka_unit_test(test_rules),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
