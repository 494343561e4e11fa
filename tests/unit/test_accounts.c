/* test_accounts.c: Glicko-2 ratings, password hashes, tokens and names. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "daemon/auth.h"
#include "daemon/glicko.h"

static void
assert_near(double got, double want, double tol)
{
	if (got < want - tol || got > want + tol)
		fail_msg("got %.6f, want %.6f (+-%g)", got, want, tol);
}

/* The worked example in Glickman's "Example of the Glicko-2 system". */
static void
test_glicko_paper_example(void **state)
{
	(void)state;
	glicko_t p = { 1500, 200, 0.06 };
	glicko_game_t games[3] = { { 1400, 30, 1 }, { 1550, 100, 0 }, { 1700, 300, 0 } };

	glicko_update(&p, games, 3, 0.5);
	assert_near(p.rating, 1464.06, 0.01);
	assert_near(p.deviation, 151.52, 0.01);
	assert_near(p.volatility, 0.05999, 0.00001);
	print_message("  Glickman's example: 1464.06 / 151.52 / 0.05999\n");
}

static void
test_glicko_behaviour(void **state)
{
	(void)state;
	glicko_t a, b, idle = { 1500, 200, 0.06 };

	glicko_update(&idle, NULL, 0, GLICKO_TAU);
	assert_near(idle.deviation, 200.27, 0.01);
	assert_near(idle.rating, 1500, 0);
	glicko_init(&a);
	glicko_update(&a, NULL, 0, GLICKO_TAU);
	assert_near(a.deviation, 350, 0); /* never above the start */

	glicko_init(&a);
	glicko_init(&b);
	assert_true(glicko_provisional(&a));
	glicko_rate_game(&a, &b, 1.0, GLICKO_TAU);
	assert_true(a.rating > 1500 && b.rating < 1500);
	assert_near(a.rating - 1500, 1500 - b.rating, 1e-9);
	assert_true(a.deviation < 350 && b.deviation < 350);
	glicko_init(&a);
	glicko_init(&b);
	glicko_rate_game(&a, &b, 0.5, GLICKO_TAU);
	assert_near(a.rating, 1500, 1e-9);
	/* many games settle the deviation below the provisional bound */
	for (int i = 0; i < 40; i++) {
		glicko_t opp = { 1500, 80, 0.06 };
		glicko_rate_game(&a, &opp, i % 2 ? 1.0 : 0.0, GLICKO_TAU);
	}
	assert_false(glicko_provisional(&a));
	assert_near(a.rating, 1500, 60);
	print_message("  idle RD growth, cap at 350, symmetric single game, draw, provisional\n");
}

static void
test_passwords(void **state)
{
	(void)state;
	const auth_cost_t cheap = { 10, 8, 1 };
	char h1[AUTH_HASH_MAX], h2[AUTH_HASH_MAX];

	assert_int_equal(auth_hash_password("correct horse", &cheap, h1), 0);
	assert_int_equal(auth_hash_password("correct horse", &cheap, h2), 0);
	assert_int_equal(strncmp(h1, "scrypt$10$8$1$", 14), 0);
	assert_string_not_equal(h1, h2); /* a fresh salt each time */
	assert_null(strstr(h1, "correct"));
	assert_int_equal(auth_verify_password("correct horse", h1), 1);
	assert_int_equal(auth_verify_password("correct horse", h2), 1);
	assert_int_equal(auth_verify_password("correct hors", h1), 0);
	assert_int_equal(auth_verify_password("", h1), 0);
	/* a flipped bit in the stored key */
	h1[strlen(h1) - 1] = h1[strlen(h1) - 1] == '0' ? '1' : '0';
	assert_int_equal(auth_verify_password("correct horse", h1), 0);
	static const char *bad[] = { "", "scrypt$", "md5$x", "scrypt$10$8$1$zz$00",
		("scrypt$99$8$1$00000000000000000000000000000000$"
		 "0000000000000000000000000000000000000000000000000000000000000000") };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		assert_int_equal(auth_verify_password("x", bad[i]), -1);
	const auth_cost_t silly = { 30, 8, 1 };
	assert_int_equal(auth_hash_password("x", &silly, h2), -1);
	assert_int_equal(auth_hash_password("pw", &AUTH_COST_DEFAULT, h2), 0);
	assert_int_equal(auth_verify_password("pw", h2), 1);
	print_message(
	    "  scrypt hashes: salted, verify right/wrong/tampered/malformed, default cost\n");
}

static void
test_tokens(void **state)
{
	(void)state;
	char t1[AUTH_TOKEN_LEN + 1], t2[AUTH_TOKEN_LEN + 1];
	char d1[AUTH_DIGEST_LEN + 1], d2[AUTH_DIGEST_LEN + 1], again[AUTH_DIGEST_LEN + 1];

	assert_int_equal(auth_token_new(t1, d1), 0);
	assert_int_equal(auth_token_new(t2, d2), 0);
	assert_int_equal(strlen(t1), 32);
	assert_int_equal(strlen(d1), 64);
	assert_int_equal(strspn(t1, "0123456789abcdef"), 32);
	assert_string_not_equal(t1, t2);
	assert_string_not_equal(d1, d2);
	auth_token_digest(t1, again);
	assert_string_equal(again, d1);
	assert_null(strstr(d1, t1));
	/* SHA-256("abc") */
	auth_token_digest("abc", again);
	assert_string_equal(
	    again, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	print_message("  128-bit tokens, stored as their SHA-256\n");
}

static void
test_names(void **state)
{
	(void)state;
	static const struct {
		const char *name;
		auth_name_t want;
	} cases[] = {
		{ "alice", NAME_OK },
		{ "Bob_99", NAME_OK },
		{ "x-y-z", NAME_OK },
		{ "botany", NAME_OK },
		{ "guesthouse", NAME_OK },
		{ "al", NAME_LENGTH },
		{ "", NAME_LENGTH },
		{ "abcdefghijklmnopqrstu", NAME_LENGTH },
		{ "9lives", NAME_CHARACTERS },
		{ "_under", NAME_CHARACTERS },
		{ "sp ace", NAME_CHARACTERS },
		{ "caf\xc3\xa9", NAME_CHARACTERS },
		{ "semi;colon", NAME_CHARACTERS },
		{ "admin", NAME_RESERVED },
		{ "ADMIN", NAME_RESERVED },
		{ "Server", NAME_RESERVED },
		{ "bot3", NAME_RESERVED },
		{ "Bot-10", NAME_RESERVED },
		{ "guest", NAME_RESERVED },
		{ "guest17", NAME_RESERVED },
		{ "GomokuD", NAME_RESERVED },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		auth_name_t got = auth_name_check(cases[i].name);
		if (got != cases[i].want)
			fail_msg("'%s': %s, want %s", cases[i].name, auth_name_reason(got),
			    auth_name_reason(cases[i].want));
	}
	char k1[AUTH_NAME_MAX + 1], k2[AUTH_NAME_MAX + 1];
	auth_name_key("AliCe", k1);
	auth_name_key("alice", k2);
	assert_string_equal(k1, k2);
	print_message("  %zu names: length, characters, reserved, case-insensitive key\n",
	    sizeof cases / sizeof cases[0]);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_glicko_paper_example),
		cmocka_unit_test(test_glicko_behaviour),
		cmocka_unit_test(test_passwords),
		cmocka_unit_test(test_tokens),
		cmocka_unit_test(test_names),
	};
	return cmocka_run_group_tests_name("accounts", tests, NULL, NULL);
}
