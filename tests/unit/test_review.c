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
 * - an illegal game is refused;
 * - marking apart from searching (review_mark, as the daemon does with
 *   its workers' answers): a drop of the win chance makes a blunder, a
 *   smaller one does not; a remote answer's line is the best move alone;
 * - the judge (review_judge_t): a move in a position already lost (below
 *   10%), even into a forced loss, and a move that keeps a won game won
 *   (90% on) are not blunders, where the rule before marked the first
 *   and a judge without the guards the second; a move into a forced loss
 *   from an even position is one;
 * - a quiet game (neither side has a threat), reviewed on the daemon's
 *   scale and threshold (engine/winchance.h), has no marks at all;
 * - the text the store keeps reads back to the same review, and a
 *   damaged one is refused.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "engine/review.h"
#include "engine/winchance.h"

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

/* A win chance of the test's own (the daemon's is engine/winchance.h):
 * 20 units a per mille. */
static int
linear(int score)
{
	return 500 + score / 20;
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
	assert_int_equal(
	    review_game(e, RULE_FREESTYLE, 15, mv, n, &l, linear, 150, count, NULL, &r), 0);
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
	assert_int_equal(
	    review_game(e, RULE_FREESTYLE, 15, mv, n, &l, linear, 150, NULL, NULL, &r), 0);
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
	assert_int_equal(
	    review_game(e, RULE_FREESTYLE, 15, mv, n, &l, linear, 150, NULL, NULL, &r), -1);
	n = parse("h8,a1,h9,a2,h10,a3,h11,a4,h12,a5", mv); /* a move after the five */
	assert_int_equal(
	    review_game(e, RULE_FREESTYLE, 15, mv, n, &l, linear, 150, NULL, NULL, &r), -1);
	engine_free(e);
}

/* The views of a short game as workers might answer them: black's
 * chance 50%, then white's move drops white by `fall` per mille. */
static void
seen_of(review_seen_t *s, int fall)
{
	memset(s, 0, 5 * sizeof *s);
	const char *best[] = { "h8", "i9", "g7", "j10", "f6" };
	for (int i = 0; i < 5; i++) {
		s[i].best = at(best[i]);
		s[i].nline = 1;
		s[i].line[0] = s[i].best;
		snprintf(s[i].reason, sizeof s[i].reason, "positional");
	}
	/* before white's move 2 (ply 1) white stands at 0; after it, black to
	 * move stands at fall * 20 units */
	s[1].score = 0;
	s[2].score = fall * 20;
}

static void
test_mark_apart(void **st)
{
	(void)st;
	move_t mv[4];
	review_seen_t s[5];
	static review_t r;
	int n = parse("h8,a1,g7,j10", mv);
	seen_of(s, 150);
	assert_int_equal(review_mark(RULE_FREESTYLE, 15, mv, n, s, linear, 150, &r), 0);
	const review_mark_t *m = find(&r, REVIEW_BLUNDER, 1);
	assert_non_null(m);
	assert_int_equal(m->better, at("i9"));
	assert_int_equal(m->nline, 1); /* the best alone */
	assert_int_equal(m->line[0], at("i9"));
	assert_string_equal(m->reason, "positional");
	assert_int_equal(m->before, 0);
	assert_int_equal(m->after, -3000);
	assert_int_equal(r.nmarks, 1); /* the others played the engine's move */
	seen_of(s, 149);
	assert_int_equal(review_mark(RULE_FREESTYLE, 15, mv, n, s, linear, 150, &r), 0);
	assert_null(find(&r, REVIEW_BLUNDER, 1));
	/* a forced result is 1000 or 0, anything else 1..999 */
	assert_int_equal(review_chance(linear, ENGINE_WIN_MIN), 1000);
	assert_int_equal(review_chance(linear, -ENGINE_WIN_MIN), 0);
	assert_int_equal(review_chance(linear, ENGINE_WIN_MIN - 1), 999);
	assert_int_equal(review_chance(linear, -(ENGINE_WIN_MIN - 1)), 1);
	assert_int_equal(review_chance(linear, 0), 500);
}

/* The views of h8,a1,g7,j10 where white's move (ply 1) takes white from
 * `before` to `after` (white's view, engine units). */
static void
seen_fall(review_seen_t *s, int before, int after)
{
	seen_of(s, 0);
	s[1].score = before;
	s[2].score = -after;
}

static void
test_judge(void **st)
{
	(void)st;
	move_t mv[4];
	review_seen_t s[5];
	static review_t r;
	int n = parse("h8,a1,g7,j10", mv);
	const review_judge_t before_rule = { 150, 0, 1001, 1 }, unguarded = { 50, 0, 1001, 0 };
	review_judge_t j = review_judge(150);
	assert_int_equal(j.drop, 150);
	assert_int_equal(j.lost, REVIEW_LOST);
	assert_int_equal(j.won, REVIEW_WON);
	assert_int_equal(j.forced, 0);

	/* already lost: 8% (linear: -8400 is 80 per mille) into a forced loss */
	seen_fall(s, -8400, -ENGINE_WIN + 7);
	assert_int_equal(review_mark(RULE_FREESTYLE, 15, mv, n, s, linear, 150, &r), 0);
	assert_null(find(&r, REVIEW_BLUNDER, 1));
	assert_false(review_blunder(&j, linear, -8400, -ENGINE_WIN + 7));
	assert_true(review_blunder(&before_rule, linear, -8400, -ENGINE_WIN + 7));
	/* and from 9.9% by a fall of the chance alone */
	seen_fall(s, -8020, -9900);
	assert_int_equal(review_mark(RULE_FREESTYLE, 15, mv, n, s, linear, 50, &r), 0);
	assert_null(find(&r, REVIEW_BLUNDER, 1));
	/* from 10% it is one */
	seen_fall(s, -8000, -9900);
	assert_int_equal(review_mark(RULE_FREESTYLE, 15, mv, n, s, linear, 50, &r), 0);
	assert_non_null(find(&r, REVIEW_BLUNDER, 1));

	/* still won: 99.9% to 90.5% is no blunder, even for a small drop */
	seen_fall(s, 9980, 8100);
	assert_int_equal(review_mark(RULE_FREESTYLE, 15, mv, n, s, linear, 50, &r), 0);
	assert_null(find(&r, REVIEW_BLUNDER, 1));
	assert_true(review_blunder(&unguarded, linear, 9980, 8100));
	/* to 89.9% it is */
	seen_fall(s, 9980, 7980);
	assert_int_equal(review_mark(RULE_FREESTYLE, 15, mv, n, s, linear, 50, &r), 0);
	assert_non_null(find(&r, REVIEW_BLUNDER, 1));

	/* from an even position into a forced loss: a fall to 0, a blunder */
	seen_fall(s, 0, -ENGINE_WIN + 7);
	assert_int_equal(review_mark(RULE_FREESTYLE, 15, mv, n, s, linear, 150, &r), 0);
	assert_non_null(find(&r, REVIEW_BLUNDER, 1));
	/* on the daemon's scale and threshold too */
	assert_int_equal(review_mark(RULE_FREESTYLE, 15, mv, n, s, winchance_permille,
			     WINCHANCE_BLUNDER_DROP, &r),
	    0);
	assert_non_null(find(&r, REVIEW_BLUNDER, 1));
	/* a forced loss before and after: lost already, nothing to mark */
	seen_fall(s, -ENGINE_WIN + 9, -ENGINE_WIN + 7);
	assert_int_equal(review_mark(RULE_FREESTYLE, 15, mv, n, s, linear, 150, &r), 0);
	assert_null(find(&r, REVIEW_BLUNDER, 1));
}

/* Black and white on the two colours of ((x / 2) + y) % 2 along the
 * spiral from the centre: the first 20 moves of tests/daemon/quietgame.h's
 * game, where neither side has a threat (later in it one side gets a
 * forced win: a real blunder). */
#define QUIET "h8,i8,i7,h7,g8,g7,i9,g9,j9,h9,j7,j8,h6,j6,g6,i6,f7,f6,f9,f8"

static void
test_quiet(void **st)
{
	(void)st;
	engine_t *e = engine_new(4);
	move_t mv[64];
	static review_t r;
	engine_limits_t l = limits();
	l.max_depth = 4;
	int n = parse(QUIET, mv);
	assert_int_equal(n, 20);
	assert_int_equal(review_game(e, RULE_FREESTYLE, 15, mv, n, &l, winchance_permille,
			     WINCHANCE_BLUNDER_DROP, NULL, NULL, &r),
	    0);
	for (int i = 0; i < r.nmarks; i++)
		fail_msg("a mark in a quiet game: kind %d at ply %d (%d to %d)", r.mark[i].kind,
		    r.mark[i].ply, r.mark[i].before, r.mark[i].after);
	engine_free(e);
}

static void
test_text(void **st)
{
	(void)st;
	engine_t *e = engine_new(4);
	move_t mv[64];
	static review_t r, back;
	static char text[REVIEW_TEXT_MAX], again[REVIEW_TEXT_MAX];
	engine_limits_t l = limits();
	int n = parse(GAME ",o15,h7", mv);
	assert_int_equal(
	    review_game(e, RULE_FREESTYLE, 15, mv, n, &l, linear, 150, NULL, NULL, &r), 0);
	assert_true(r.nmarks >= 2);
	int len = review_text(&r, text, sizeof text);
	assert_true(len > 0 && (size_t)len == strlen(text));
	assert_int_equal(review_read(text, 15, &back), 0);
	assert_int_equal(back.plies, r.plies);
	assert_int_equal(back.nmarks, r.nmarks);
	assert_memory_equal(back.score, r.score, sizeof(int) * (size_t)(r.plies + 1));
	for (int i = 0; i < r.nmarks; i++) {
		const review_mark_t *a = &r.mark[i], *b = &back.mark[i];
		assert_int_equal(a->kind, b->kind);
		assert_int_equal(a->ply, b->ply);
		assert_int_equal(a->side, b->side);
		assert_int_equal(a->played, b->played);
		assert_int_equal(a->better, b->better);
		assert_int_equal(a->before, b->before);
		assert_int_equal(a->after, b->after);
		assert_string_equal(a->reason, b->reason);
		assert_int_equal(a->nline, b->nline);
		assert_memory_equal(a->line, b->line, sizeof(move_t) * (size_t)a->nline);
	}
	assert_int_equal(review_text(&back, again, sizeof again), len);
	assert_string_equal(again, text);
	assert_int_equal(review_text(&r, again, 20), -1); /* does not fit */
	/* damaged: a cut, a cell off a smaller board, a ply past the game */
	text[len - 3] = '\0';
	assert_int_equal(review_read(text, 15, &back), -1);
	assert_int_equal(review_read("v1 1\ns 0,0\nm 2 0 160 161 0 0 vcf 161\n", 15, &back), 0);
	assert_int_equal(review_read("v1 1\ns 0,0\nm 2 0 160 161 0 0 vcf 161\n", 8, &back), -1);
	assert_int_equal(review_read("v1 1\ns 0,0\nm 2 1 160 161 0 0 vcf 161\n", 15, &back), -1);
	assert_int_equal(review_read("v1 1\ns 0\n", 15, &back), -1);
	assert_int_equal(review_read("v2 1\ns 0,0\n", 15, &back), -1);
	engine_free(e);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_blunder_and_missed_win),
		cmocka_unit_test(test_turning),
		cmocka_unit_test(test_illegal),
		cmocka_unit_test(test_mark_apart),
		cmocka_unit_test(test_judge),
		cmocka_unit_test(test_quiet),
		cmocka_unit_test(test_text),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
