/* test_loginlimit.c: the failed-login table (issue 41): counts in their
 * window, a right password's forget, and a full table that a flood of new
 * keys from many addresses cannot flush of the counts that refuse or slow
 * logins. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "daemon/loginlimit.h"

static void
test_window(void **state)
{
	(void)state;
	struct loginlimit *ll = loginlimit_new(8, 300);
	assert_non_null(ll);
	assert_int_equal(loginlimit_fails(ll, "u:frank", 1000), 0);
	for (int i = 0; i < 3; i++)
		loginlimit_fail(ll, "u:frank", 1000 + i);
	assert_int_equal(loginlimit_fails(ll, "u:frank", 1100), 3);
	assert_int_equal(loginlimit_fails(ll, "u:other", 1100), 0);
	/* the window runs from the first failure */
	assert_int_equal(loginlimit_fails(ll, "u:frank", 1299), 3);
	assert_int_equal(loginlimit_fails(ll, "u:frank", 1300), 0);
	loginlimit_fail(ll, "u:frank", 1300);
	assert_int_equal(loginlimit_fails(ll, "u:frank", 1301), 1);
	loginlimit_forget(ll, "u:frank");
	assert_int_equal(loginlimit_fails(ll, "u:frank", 1301), 0);
	loginlimit_free(ll);
}

/* A victim's account and an attacker's address have counts; then keys
 * with one failure each, from thousands of addresses, in the same window:
 * the counts stay (an oldest-first table lost them after 2048 keys). */
static void
test_flood_keeps_counts(void **state)
{
	(void)state;
	enum { SLOTS = 2048 };
	struct loginlimit *ll = loginlimit_new(SLOTS, 300);
	assert_non_null(ll);
	for (int i = 0; i < 12; i++)
		loginlimit_fail(ll, "u:victim", 1000);
	for (int i = 0; i < 5; i++)
		loginlimit_fail(ll, "p:2001:db8:1::/64 victim", 1000);
	char key[LOGINLIMIT_KEY];
	for (int i = 0; i < 4 * SLOTS; i++) {
		snprintf(key, sizeof key, "p:2001:db8:%x::/64 someone%d", i, i);
		loginlimit_fail(ll, key, 1001 + i / 100);
	}
	assert_int_equal(loginlimit_fails(ll, "u:victim", 1200), 12);
	assert_int_equal(loginlimit_fails(ll, "p:2001:db8:1::/64 victim", 1200), 5);
	/* the newest single failures are there too: the flood evicted its own */
	assert_int_equal(loginlimit_fails(ll, key, 1200), 1);
	/* once the window is over, the slots are free again */
	assert_int_equal(loginlimit_fails(ll, "u:victim", 1300), 0);
	loginlimit_fail(ll, "u:new", 1400);
	assert_int_equal(loginlimit_fails(ll, "u:new", 1400), 1);
	loginlimit_free(ll);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_window),
		cmocka_unit_test(test_flood_keeps_counts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
