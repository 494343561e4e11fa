/*
 * test_hosted.c: the server's hosted engines (daemon/hosted.h) on a
 * libevent loop with real brains in the sandbox: a whole game between
 * bin/pbrain-gomoku and tests/bot/fixture_brain, every move judged again
 * by the rules core; an undo answered on the shorter position; a brain
 * that answers garbage failing and then forfeiting with why; the limit
 * on games at once; the refusals; a game ended while its brain thinks
 * (no answer after); the config's checks; and no brain process left.
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <event2/event.h>

#include "daemon/hosted.h"

#ifndef PBRAIN
#define PBRAIN "bin/pbrain-gomoku"
#endif
#ifndef FIXTURE
#define FIXTURE "build/default-cc/tests/bot/fixture_brain"
#endif

enum { LIMIT_MS = 60000 };

struct answer {
	int got, status, logs;
	move_t m;
	char why[200];
};

static struct event_base *base;
static struct answer ans;

static int64_t
now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void
on_move(uint64_t owner, int status, move_t m, const char *why, void *arg)
{
	(void)owner;
	(void)arg;
	ans.got++;
	ans.status = status;
	ans.m = m;
	snprintf(ans.why, sizeof ans.why, "%s", why);
}

static void
on_log(uint64_t owner, const char *why, void *arg)
{
	(void)owner;
	(void)arg;
	ans.logs++;
	printf("    failure: %s\n", why);
}

/* Runs the loop until an answer or the limit. */
static void
wait_answer(void)
{
	int64_t t0 = now_ms();
	ans.got = 0;
	while (!ans.got && now_ms() - t0 < LIMIT_MS) {
		struct timeval tv = { 0, 50000 };
		event_base_loopexit(base, &tv);
		event_base_loop(base, EVLOOP_ONCE);
	}
	assert_int_equal(ans.got, 1);
}

static void
run_ms(int ms)
{
	int64_t t0 = now_ms();
	while (now_ms() - t0 < ms) {
		struct timeval tv = { 0, 20000 };
		event_base_loopexit(base, &tv);
		event_base_loop(base, EVLOOP_ONCE);
	}
}

/* This process's children still there (brains not reaped or alive). */
static int
children(void)
{
	int n = 0;
	DIR *d = opendir("/proc");
	struct dirent *de;
	while (d && (de = readdir(d))) {
		char path[300], buf[512];
		snprintf(path, sizeof path, "/proc/%s/stat", de->d_name);
		FILE *f = fopen(path, "r");
		if (!f)
			continue;
		size_t k = fread(buf, 1, sizeof buf - 1, f);
		fclose(f);
		buf[k] = 0;
		char *rp = strrchr(buf, ')');
		int ppid = 0;
		char st = 0;
		if (rp && sscanf(rp + 2, "%c %d", &st, &ppid) == 2 && ppid == (int)getpid())
			n++;
	}
	if (d)
		closedir(d);
	return n;
}

static struct hosted_engine
engine(const char *name, const char *a0, const char *a1, const char *a2)
{
	struct hosted_engine e;
	memset(&e, 0, sizeof e);
	snprintf(e.name, sizeof e.name, "%s", name);
	e.argv[0] = a0;
	e.argv[1] = a1;
	e.argv[2] = a1 ? a2 : NULL;
	e.turn_ms = 300;
	e.sandbox = 1;
	return e;
}

static hosted_t *
make(int games_max)
{
	struct hosted_engine e[3] = {
		engine("ours", PBRAIN, NULL, NULL),
		engine("fixture", FIXTURE, "play", NULL),
		engine("garbage", FIXTURE, "garbage", NULL),
	};
	char err[200];
	hosted_t *h = hosted_new(base, e, 3, games_max, err, sizeof err);
	assert_non_null(h);
	hosted_set_log(h, on_log, NULL);
	return h;
}

static int
setup(void **state)
{
	(void)state;
	base = event_base_new();
	return base ? 0 : -1;
}

static int
teardown(void **state)
{
	(void)state;
	event_base_free(base);
	return 0;
}

static void
test_whole_game(void **state)
{
	(void)state;
	hosted_t *h = make(4);
	int ours = hosted_find(h, "ours"), fix = hosted_find(h, "fixture");
	assert_true(ours >= 0 && fix >= 0);
	assert_int_equal(hosted_find(h, "nobody"), -1);
	position_t p;
	int undone = 0, asked[2] = { 0, 0 }; /* of ours, of the fixture */
	pos_init(&p, RULE_FREESTYLE, 15);
	while (p.outcome.kind == RESULT_ONGOING && p.nmoves < 60) {
		int black = p.nmoves % 2 == 0;
		assert_int_equal(
		    hosted_move(h, black ? ours : fix, black ? 10 : 11, RULE_FREESTYLE, 15,
			black ? STONE_BLACK : STONE_WHITE, p.moves, p.nmoves, 0, 0, on_move, NULL),
		    0);
		wait_answer();
		asked[!black]++;
		assert_int_equal(ans.status, 0);
		assert_int_equal(pos_play(&p, ans.m), LEGAL_OK);
		if (p.nmoves == 8 && !undone++) {
			/* an undo of two plies: the same seat is asked again on the
			 * shorter game, and its answer is legal there */
			move_t keep[RULES_CELLS];
			memcpy(keep, p.moves, sizeof keep);
			position_t q;
			pos_init(&q, RULE_FREESTYLE, 15);
			for (int i = 0; i < 6; i++)
				assert_int_equal(pos_play(&q, keep[i]), LEGAL_OK);
			p = q;
		}
	}
	printf("  ours against the fixture: %d plies, outcome %d\n", p.nmoves, (int)p.outcome.kind);
	assert_int_not_equal(p.outcome.kind, RESULT_ONGOING);
	assert_int_equal(hosted_games(h), 2);
	/* each engine's moves and its one brain, nothing failed */
	struct hosted_stats st;
	hosted_stats(h, ours, &st);
	assert_true(st.moves == (uint64_t)asked[0] && st.brains == 1);
	assert_true(st.failures == 0 && st.forfeits == 0);
	hosted_stats(h, fix, &st);
	assert_true(st.moves == (uint64_t)asked[1] && st.brains == 1);
	hosted_end(h, 10);
	hosted_end(h, 11);
	assert_int_equal(hosted_games(h), 0);
	hosted_stats(h, ours, &st);
	assert_true(st.moves == (uint64_t)asked[0] && st.brains == 0);
	hosted_stats(h, -1, &st);
	assert_true(st.moves == 0 && st.brains == 0);
	hosted_free(h);
	run_ms(100);
	assert_int_equal(children(), 0);
}

static void
test_forfeit(void **state)
{
	(void)state;
	hosted_t *h = make(2);
	ans.logs = 0;
	move_t none[1];
	assert_int_equal(hosted_move(h, hosted_find(h, "garbage"), 5, RULE_FREESTYLE, 15,
			     STONE_BLACK, none, 0, 60000, 0, on_move, NULL),
	    0);
	wait_answer();
	printf(
	    "  garbage: status %d (%s) after %d failures logged\n", ans.status, ans.why, ans.logs);
	assert_int_equal(ans.status, HOSTED_FORFEIT);
	assert_true(ans.why[0] != '\0');
	assert_int_equal(ans.logs, 2); /* the third failure gives up */
	struct hosted_stats st;
	hosted_stats(h, hosted_find(h, "garbage"), &st);
	assert_true(st.moves == 0 && st.failures == 2 && st.forfeits == 1 && st.brains == 1);
	hosted_end(h, 5);
	hosted_free(h);
	run_ms(100);
	assert_int_equal(children(), 0);
}

static void
test_limits_and_refusals(void **state)
{
	(void)state;
	hosted_t *h = make(1);
	int ours = hosted_find(h, "ours");
	move_t m[2] = { rules_move(7, 7), rules_move(7, 7) };
	/* not its turn; not a legal game; an unknown engine */
	assert_int_equal(
	    hosted_move(h, ours, 1, RULE_FREESTYLE, 15, STONE_WHITE, m, 0, 0, 0, on_move, NULL),
	    HOSTED_BAD);
	assert_int_equal(
	    hosted_move(h, ours, 1, RULE_FREESTYLE, 15, STONE_BLACK, m, 2, 0, 0, on_move, NULL),
	    HOSTED_BAD);
	assert_int_equal(
	    hosted_move(h, 7, 1, RULE_FREESTYLE, 15, STONE_BLACK, m, 0, 0, 0, on_move, NULL),
	    HOSTED_BAD);
	assert_int_equal(hosted_games(h), 0);
	/* one game at most: a second owner waits for the first to end */
	assert_int_equal(
	    hosted_move(h, ours, 1, RULE_FREESTYLE, 15, STONE_BLACK, m, 0, 0, 0, on_move, NULL), 0);
	assert_int_equal(
	    hosted_move(h, ours, 1, RULE_FREESTYLE, 15, STONE_BLACK, m, 0, 0, 0, on_move, NULL),
	    HOSTED_BAD); /* it thinks already */
	assert_int_equal(
	    hosted_move(h, ours, 2, RULE_FREESTYLE, 15, STONE_BLACK, m, 0, 0, 0, on_move, NULL),
	    HOSTED_FULL);
	/* ended while it thinks: no answer comes */
	hosted_end(h, 1);
	ans.got = 0;
	run_ms(1500);
	assert_int_equal(ans.got, 0);
	assert_int_equal(
	    hosted_move(h, ours, 2, RULE_FREESTYLE, 15, STONE_BLACK, m, 0, 0, 0, on_move, NULL), 0);
	wait_answer();
	assert_int_equal(ans.status, 0);
	assert_true(hosted_can_play(h, ours, RULE_RENJU, 15, 0));
	assert_false(hosted_can_play(h, ours, RULE_FREESTYLE, 15, 1));
	hosted_free(h);
	run_ms(100);
	assert_int_equal(children(), 0);
}

static void
test_config_checks(void **state)
{
	(void)state;
	char err[200];
	struct hosted_engine e[2] = { engine("Rapfi", PBRAIN, NULL, NULL),
		engine("ours", PBRAIN, NULL, NULL) };
	assert_null(hosted_new(base, e, 1, 1, err, sizeof err));
	printf("  %s\n", err);
	e[0] = engine("ours", PBRAIN, NULL, NULL);
	assert_null(hosted_new(base, e, 2, 1, err, sizeof err));
	printf("  %s\n", err);
	e[1] = engine("x", "", NULL, NULL);
	assert_null(hosted_new(base, e, 2, 1, err, sizeof err));
	e[1] = engine("other", PBRAIN, NULL, NULL);
	hosted_t *h = hosted_new(base, e, 2, 1, err, sizeof err);
	assert_non_null(h);
	assert_int_equal(hosted_count(h), 2);
	assert_string_equal(hosted_name(h, 1), "other");
	hosted_free(h);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_whole_game),
		cmocka_unit_test(test_forfeit),
		cmocka_unit_test(test_limits_and_refusals),
		cmocka_unit_test(test_config_checks),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
