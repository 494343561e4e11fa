/*
 * test_bot_conf.c: gomoku-bot's config file (bot/conf.h) and challenge
 * filters (bot/filter.h): every key read, defaults, each kind of bad
 * value named with its line, and each filter accepting and declining at
 * its edges.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "bot/conf.h"
#include "bot/filter.h"

static char path[64];

/* Writes text to a temporary file and reads it as a config: conf_load's
 * result; its error in err. */
static int
load(const char *text, bot_conf_t *c, char *err, size_t n)
{
	snprintf(path, sizeof path, "/tmp/test_bot_conf.XXXXXX");
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	err[0] = '\0';
	int rc = conf_load(path, c, err, n);
	unlink(path);
	return rc;
}

static const char *const base = "server 127.0.0.1:5555\n"
				"name robo\n"
				"password s3cret-pass\n"
				"brain bin/pbrain-gomoku --threads 1\n";

static void
test_defaults(void **state)
{
	(void)state;
	static bot_conf_t c;
	char err[256];
	assert_int_equal(load(base, &c, err, sizeof err), 0);
	assert_string_equal(c.host, "127.0.0.1");
	assert_string_equal(c.port, "5555");
	assert_string_equal(c.name, "robo");
	assert_string_equal(c.password, "s3cret-pass");
	assert_string_equal(c.bot_token, ""); /* none: the account stays as it is */
	assert_string_equal(c.brain_argv[0], "bin/pbrain-gomoku");
	assert_string_equal(c.brain_argv[1], "--threads");
	assert_string_equal(c.brain_argv[2], "1");
	assert_null(c.brain_argv[3]);
	assert_int_equal(c.brain_failures, 3);
	assert_int_equal(c.turn_ms, 5000);
	assert_int_equal(c.max_games, 1);
	assert_int_equal(c.league, -1); /* unsaid: the server's setting as it is */
	assert_int_equal(c.brain_swap2, 0);
	assert_int_equal(c.brain_sandbox, 1);
	assert_int_equal(c.insecure, 0);
	assert_true(c.untimed && c.rated && c.casual);
	for (int s = 5; s <= 20; s++)
		assert_true(c.sizes & 1u << s);
	assert_int_equal(c.rules, 7u);
}

static void
test_every_key(void **state)
{
	(void)state;
	static bot_conf_t c;
	char err[256], text[2048];
	snprintf(text, sizeof text,
	    "%s"
	    "  # a comment line\n"
	    "server [::1]:7000   # the server\n"
	    "ca /tmp/ca.pem\n"
	    "pin sha256:%064d\n"
	    "insecure no\n"
	    "state-file /tmp/bot.token\n"
	    "bot-token 0123456789abcdef0123456789abcdef\n"
	    "brain-memory 256\n"
	    "brain-failures 5\n"
	    "brain-swap2 yes\n"
	    "brain-sandbox no\n"
	    "turn-ms 1500\n"
	    "rules standard,renju\n"
	    "sizes 9-11,15\n"
	    "untimed no\n"
	    "base-seconds 60-600\n"
	    "increment-seconds 2\n"
	    "rated casual\n"
	    "allow alice,Bob\n"
	    "block mallory\n"
	    "max-games 4\n"
	    "league yes\n",
	    base, 0);
	assert_int_equal(load(text, &c, err, sizeof err), 0);
	assert_string_equal(c.host, "::1");
	assert_string_equal(c.port, "7000");
	assert_string_equal(c.ca, "/tmp/ca.pem");
	assert_int_equal(strlen(c.pin), 71);
	assert_string_equal(c.state_file, "/tmp/bot.token");
	assert_string_equal(c.bot_token, "0123456789abcdef0123456789abcdef");
	assert_int_equal(c.brain_memory_mib, 256);
	assert_int_equal(c.brain_failures, 5);
	assert_int_equal(c.brain_swap2, 1);
	assert_int_equal(c.brain_sandbox, 0);
	assert_int_equal(c.turn_ms, 1500);
	assert_int_equal(c.rules, 1u << RULE_STANDARD | 1u << RULE_RENJU);
	assert_int_equal(c.sizes, 1u << 9 | 1u << 10 | 1u << 11 | 1u << 15);
	assert_int_equal(c.untimed, 0);
	assert_int_equal(c.base_min, 60);
	assert_int_equal(c.base_max, 600);
	assert_int_equal(c.inc_min, 2);
	assert_int_equal(c.inc_max, 2);
	assert_int_equal(c.rated, 0);
	assert_int_equal(c.casual, 1);
	assert_int_equal(c.nallow, 2);
	assert_string_equal(c.allow[1], "Bob");
	assert_int_equal(c.nblock, 1);
	assert_int_equal(c.max_games, 4);
	assert_int_equal(c.league, 1);
}

static void
test_bad(void **state)
{
	(void)state;
	static const struct {
		const char *line, *want;
	} bad[] = {
		{ "colour black\n", ":5: colour: unknown key" },
		{ "server localhost\n", ":5: server: want host:port" },
		{ "server h:70000\n", ":5: server: want host:port" },
		{ "pin sha256:abc\n", ":5: pin: want" },
		{ "insecure maybe\n", ":5: insecure: want yes or no" },
		{ "name 9lives\n", ":5: name: not an account name" },
		{ "password two words\n", ":5: password:" },
		{ "brain-failures 0\n", ":5: brain-failures: want 1 to 100" },
		{ "turn-ms 50\n", ":5: turn-ms:" },
		{ "rules gomoku\n", ":5: rules:" },
		{ "sizes 4\n", ":5: sizes:" },
		{ "sizes 15-9\n", ":5: sizes:" },
		{ "base-seconds 0-60\n", ":5: base-seconds:" },
		{ "increment-seconds 5-1\n", ":5: increment-seconds:" },
		{ "rated sometimes\n", ":5: rated:" },
		{ "block bad name!\n", ":5: block:" },
		{ "max-games 0\n", ":5: max-games:" },
		{ "max-games 65\n", ":5: max-games: want 1 to 64" },
		{ "max-games\n", ":5: max-games: no value" },
		{ "bot-token 0123456789abcdef\n", ":5: bot-token: want the 32" },
		{ "bot-token 0123456789ABCDEF0123456789ABCDEF\n", ":5: bot-token: want the 32" },
		{ "league maybe\n", ":5: league: want yes or no" },
	};
	static bot_conf_t c;
	char err[256], text[1024];
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		snprintf(text, sizeof text, "%s%s", base, bad[i].line);
		assert_int_equal(load(text, &c, err, sizeof err), -1);
		if (!strstr(err, bad[i].want))
			fail_msg("%s: \"%s\" does not say \"%s\"", bad[i].line, err, bad[i].want);
	}
	/* a key missing that has no default */
	assert_int_equal(
	    load("server h:1\nname robo\npassword secret1\n", &c, err, sizeof err), -1);
	assert_non_null(strstr(err, "no brain"));
	assert_int_equal(conf_load("/nonexistent/bot.conf", &c, err, sizeof err), -1);
}

/* A challenge from `from` to robo. */
static proto_msg_t
chal(const char *from, rule_t rule, int size, int base_s, int inc, int rated, proto_opening_t o)
{
	proto_msg_t m;
	proto_init(&m, PE_CHALLENGE, NULL);
	m.ident = 1;
	snprintf(m.user, sizeof m.user, "%s", from);
	snprintf(m.user2, sizeof m.user2, "robo");
	m.rule = rule;
	m.size = size;
	m.tc_base = base_s;
	m.tc_inc = inc;
	m.rated = rated;
	m.opening = o;
	return m;
}

static void
test_filters(void **state)
{
	(void)state;
	static bot_conf_t c;
	char err[256], text[1024];
	snprintf(text, sizeof text,
	    "%srules freestyle,renju\nsizes 15\nuntimed no\nbase-seconds 60-600\n"
	    "increment-seconds 0-5\nrated rated\nblock Mallory\nmax-games 2\n",
	    base);
	assert_int_equal(load(text, &c, err, sizeof err), 0);
	proto_msg_t m = chal("alice", RULE_FREESTYLE, 15, 60, 0, 1, OPENING_NONE);
	assert_null(filter_challenge(&c, &m, 0));
	assert_null(filter_challenge(&c, &m, 1));
	assert_string_equal(filter_challenge(&c, &m, 2), "max-games reached");
	m = chal("alice", RULE_FREESTYLE, 15, 600, 5, 1, OPENING_NONE); /* the edges */
	assert_null(filter_challenge(&c, &m, 0));
	m = chal("alice", RULE_RENJU, 15, 60, 0, 1, OPENING_NONE);
	assert_null(filter_challenge(&c, &m, 0));
	m = chal("alice", RULE_STANDARD, 15, 60, 0, 1, OPENING_NONE);
	assert_string_equal(filter_challenge(&c, &m, 0), "rule not accepted");
	m = chal("alice", RULE_FREESTYLE, 19, 60, 0, 1, OPENING_NONE);
	assert_string_equal(filter_challenge(&c, &m, 0), "size not accepted");
	m = chal("alice", RULE_FREESTYLE, 15, 0, 0, 1, OPENING_NONE);
	assert_string_equal(filter_challenge(&c, &m, 0), "untimed games not accepted");
	m = chal("alice", RULE_FREESTYLE, 15, 59, 0, 1, OPENING_NONE);
	assert_string_equal(filter_challenge(&c, &m, 0), "time control out of range");
	m = chal("alice", RULE_FREESTYLE, 15, 601, 0, 1, OPENING_NONE);
	assert_string_equal(filter_challenge(&c, &m, 0), "time control out of range");
	m = chal("alice", RULE_FREESTYLE, 15, 60, 6, 1, OPENING_NONE);
	assert_string_equal(filter_challenge(&c, &m, 0), "time control out of range");
	m = chal("alice", RULE_FREESTYLE, 15, 60, 0, 0, OPENING_NONE);
	assert_string_equal(filter_challenge(&c, &m, 0), "casual games not accepted");
	m = chal("mallory", RULE_FREESTYLE, 15, 60, 0, 1, OPENING_NONE); /* any case */
	assert_string_equal(filter_challenge(&c, &m, 0), "opponent blocked");

	/* the opening rules: none, swap2 only when declared, the rest never */
	for (int o = OPENING_NONE; o <= OPENING_TARAGUCHI10; o++) {
		m = chal("alice", o >= OPENING_RIF ? RULE_RENJU : RULE_FREESTYLE, 15, 60, 0, 1,
		    (proto_opening_t)o);
		const char *why = filter_challenge(&c, &m, 0);
		if (o == OPENING_NONE)
			assert_null(why);
		else
			assert_string_equal(why, "opening rule the brain cannot play");
	}
	c.brain_swap2 = 1;
	m = chal("alice", RULE_FREESTYLE, 15, 60, 0, 1, OPENING_SWAP2);
	assert_null(filter_challenge(&c, &m, 0));
	m = chal("alice", RULE_FREESTYLE, 15, 60, 0, 1, OPENING_SWAP);
	assert_non_null(filter_challenge(&c, &m, 0));

	/* allow: only those named */
	snprintf(text, sizeof text, "%sallow alice,bob\n", base);
	assert_int_equal(load(text, &c, err, sizeof err), 0);
	m = chal("BOB", RULE_FREESTYLE, 15, 0, 0, 0, OPENING_NONE);
	assert_null(filter_challenge(&c, &m, 0));
	m = chal("carol", RULE_FREESTYLE, 15, 0, 0, 0, OPENING_NONE);
	assert_string_equal(filter_challenge(&c, &m, 0), "opponent not allowed");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_every_key),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_filters),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
