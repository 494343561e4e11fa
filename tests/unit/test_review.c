/*
 * test_review: engine/review.h on games made for it, with a fixed search
 * depth (deterministic):
 * - white leaves black's four unblocked: a blunder, the better move the
 *   block, its line starting there;
 * - black then plays elsewhere instead of the five: a missed win, the
 *   better move the five;
 * - the engine's own moves are not marked; no turning point without a
 *   winner; in the game black wins, the turning point is one of white's
 *   blunders;
 * - the scores: a won end is the winner's;
 * - an illegal game is refused.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "engine/review.h"

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

static engine_limits_t
limits(void)
{
	engine_limits_t l = engine_default_limits();
	l.max_depth = 6;
	l.nbest = 1;
	return l;
}

static const review_mark_t *
find(const review_t *r, review_kind_t kind, int ply)
{
	for (int i = 0; i < r->nmarks; i++)
		if (r->mark[i].kind == kind && r->mark[i].ply == ply)
			return &r->mark[i];
	return NULL;
}

static int calls;

static void
count(int done, int total, void *arg)
{
	(void)arg;
	assert_true(done >= 1 && done <= total);
	calls++;
}

/* black's four h8-h11 (h12 white): white must block h7, plays a5 (a
 * blunder: black has a five); black then plays o15 (a missed win: the
 * five at h7) and white blocks */
#define GAME "h8,h12,h9,a1,h10,a3,h11,a5"

static void
test_blunder_and_missed_win(void **st)
{
	(void)st;
	engine_t *e = engine_new(4);
	move_t mv[64];
	static review_t r;
	engine_limits_t l = limits();
	int n = parse(GAME ",o15,h7", mv);
	calls = 0;
	assert_int_equal(review_game(e, RULE_FREESTYLE, 15, mv, n, &l, 3000, count, NULL, &r), 0);
	assert_int_equal(calls, n + 1);
	assert_int_equal(r.plies, n);

	const review_mark_t *m = find(&r, REVIEW_BLUNDER, 7);
	assert_non_null(m);
	assert_int_equal(m->side, STONE_WHITE);
	assert_int_equal(m->played, at("a5"));
	assert_int_equal(m->better, at("h7"));
	assert_true(m->before > -ENGINE_WIN_MIN && m->after <= -ENGINE_WIN_MIN);
	assert_true(m->nline >= 1 && m->line[0] == at("h7"));

	m = find(&r, REVIEW_MISSED_WIN, 8);
	assert_non_null(m);
	assert_int_equal(m->side, STONE_BLACK);
	assert_int_equal(m->played, at("o15"));
	assert_int_equal(m->better, at("h7"));
	assert_int_equal(m->before, ENGINE_WIN - 1); /* a five there */
	assert_true(m->after < ENGINE_WIN_MIN);
	/* black's view: won before its o15, not after it */
	assert_int_equal(r.score[8], ENGINE_WIN - 1);
	assert_true(r.score[9] < ENGINE_WIN_MIN);
	/* the last move, white's block, was the engine's: no mark */
	for (int i = 0; i < r.nmarks; i++)
		assert_true(r.mark[i].ply != 9);
	/* marks come by ply; no turning point without a winner */
	for (int i = 0; i < r.nmarks; i++) {
		assert_true(i == 0 || r.mark[i - 1].ply <= r.mark[i].ply);
		assert_true(r.mark[i].kind != REVIEW_TURNING);
	}
	engine_free(e);
}

static void
test_turning(void **st)
{
	(void)st;
	engine_t *e = engine_new(4);
	move_t mv[64];
	static review_t r;
	engine_limits_t l = limits();
	int n = parse(GAME ",h7", mv); /* black's five */
	assert_int_equal(review_game(e, RULE_FREESTYLE, 15, mv, n, &l, 3000, NULL, NULL, &r), 0);
	assert_int_equal(r.score[n], ENGINE_WIN); /* the end: black's five */
	const review_mark_t *t = NULL;
	for (int i = 0; i < r.nmarks; i++)
		if (r.mark[i].kind == REVIEW_TURNING) {
			assert_null(t); /* one */
			t = &r.mark[i];
		}
	assert_non_null(t);
	/* the move that gave black the game: one of white's that let it win */
	assert_int_equal(t->side, STONE_WHITE);
	assert_non_null(find(&r, REVIEW_BLUNDER, t->ply));
	engine_free(e);
}

static void
test_illegal(void **st)
{
	(void)st;
	engine_t *e = engine_new(4);
	move_t mv[64];
	static review_t r;
	engine_limits_t l = limits();
	int n = parse("h8,h8", mv);
	assert_int_equal(review_game(e, RULE_FREESTYLE, 15, mv, n, &l, 3000, NULL, NULL, &r), -1);
	n = parse("h8,a1,h9,a2,h10,a3,h11,a4,h12,a5", mv); /* a move after the five */
	assert_int_equal(review_game(e, RULE_FREESTYLE, 15, mv, n, &l, 3000, NULL, NULL, &r), -1);
	engine_free(e);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_blunder_and_missed_win),
		cmocka_unit_test(test_turning),
		cmocka_unit_test(test_illegal),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
