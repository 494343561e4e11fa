/*
 * test_allowance: daemon/allowance.h: a name's requests an hour from its
 * first; a full table gives the stalest window away; a request given back
 * is not counted.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "daemon/allowance.h"

enum { HOUR = 3600000 };

static void
test_hour(void **st)
{
	(void)st;
	struct allowance *a = allowance_new(2);
	assert_non_null(a);
	assert_int_equal(allowance_check(a, "ann", 2, 1000), 0);
	allowance_take(a, "ann", 1000);
	allowance_take(a, "ann", 2000);
	assert_int_equal(allowance_check(a, "ann", 2, 3000), 60); /* the next in an hour */
	assert_int_equal(allowance_check(a, "ann", 3, 3000), 0);
	/* given back: one more */
	allowance_give_back(a, "ann", 4000);
	assert_int_equal(allowance_check(a, "ann", 2, 4000), 0);
	allowance_take(a, "ann", 4000);
	assert_true(allowance_check(a, "ann", 2, 1000 + HOUR - 60001) > 0);
	assert_int_equal(allowance_check(a, "ann", 2, 1000 + HOUR), 0); /* a new hour */
	/* two others fill the table: ann's window, the stalest, goes */
	allowance_take(a, "bob", 1000 + HOUR);
	allowance_take(a, "cy", 1000 + HOUR + 1);
	allowance_give_back(a, "dee", 1000 + HOUR + 2); /* nothing to give back */
	assert_int_equal(allowance_check(a, "dee", 1, 1000 + HOUR + 3), 0);
	allowance_free(a);
	assert_null(allowance_new(0));
}

int
main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(test_hour) };
	return cmocka_run_group_tests(tests, NULL, NULL);
}
