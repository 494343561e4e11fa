/* review.c: a finished game gone through by the engine (see review.h). */
#include "engine/review.h"

#include <stdlib.h>
#include <string.h>

/* What the search said of one position, the side to move's view. */
struct seen {
	move_t best;
	int score;
	int nline;
	move_t line[REVIEW_LINE_MAX];
};

static int
forced(int score)
{
	return score >= ENGINE_WIN_MIN || score <= -ENGINE_WIN_MIN;
}

static void
add_mark(review_t *out, review_kind_t kind, int ply, const move_t *moves, const struct seen *s)
{
	if (out->nmarks == REVIEW_MARKS_MAX)
		return;
	review_mark_t *m = &out->mark[out->nmarks++];
	memset(m, 0, sizeof *m);
	m->kind = kind;
	m->ply = ply;
	m->side = ply % 2 == 0 ? STONE_BLACK : STONE_WHITE;
	m->played = moves[ply];
	m->before = s[ply].score;
	m->after = -s[ply + 1].score;
	m->better = s[ply].best;
	m->nline = s[ply].nline;
	memcpy(m->line, s[ply].line, sizeof m->line);
}

/* The marks by ply (the turning point after a mark of the same ply). */
static void
sort_marks(review_t *out)
{
	for (int i = 1; i < out->nmarks; i++) {
		review_mark_t m = out->mark[i];
		int j = i;
		for (; j > 0 &&
		     (out->mark[j - 1].ply > m.ply ||
			 (out->mark[j - 1].ply == m.ply && out->mark[j - 1].kind > m.kind));
		     j--)
			out->mark[j] = out->mark[j - 1];
		out->mark[j] = m;
	}
}

/* The move that did most for the winner: the largest rise of its score
 * from the position before a move to the one after it (a blunder of the
 * loser, or the winner's best find). */
static int
turning_ply(const review_t *out, stone_t winner)
{
	int t = -1, best = 0;
	for (int k = 0; k < out->plies; k++) {
		int rise = out->score[k + 1] - out->score[k];
		if (winner == STONE_WHITE)
			rise = -rise;
		if (t < 0 || rise > best) {
			t = k;
			best = rise;
		}
	}
	return t;
}

int
review_game(engine_t *e, rule_t rule, int size, const move_t *moves, int n,
    const engine_limits_t *lim, int drop, review_progress_fn progress, void *arg, review_t *out)
{
	position_t p;
	memset(out, 0, sizeof *out);
	if (n < 0 || n > RULES_CELLS || pos_init(&p, rule, size) != 0)
		return -1;
	for (int i = 0; i < n; i++)
		if (pos_play(&p, moves[i]) != LEGAL_OK)
			return -1;
	struct seen *s = calloc((size_t)n + 1, sizeof *s);
	if (!s)
		return -1;
	out->plies = n;
	for (int i = 0; i <= n; i++) {
		engine_result_t r;
		if (i == n && p.outcome.kind != RESULT_ONGOING) {
			/* the last move ended it: a five for its mover, or a full board */
			s[i].score = p.outcome.kind == RESULT_WIN ? -ENGINE_WIN : 0;
			s[i].best = MOVE_NONE;
		} else if (engine_search(e, rule, size, moves, i, lim, NULL, NULL, &r) == 0) {
			s[i].best = r.best;
			s[i].score = r.score;
			for (int k = 0; k < r.pvlen && k < REVIEW_LINE_MAX; k++)
				s[i].line[s[i].nline++] = r.pv[k];
		} else {
			s[i].best = MOVE_NONE; /* no move left: nothing to say of it */
		}
		out->score[i] = i % 2 == 0 ? s[i].score : -s[i].score;
		if (progress)
			progress(i + 1, n + 1, arg);
	}
	for (int i = 0; i < n; i++) {
		int before = s[i].score, after = -s[i + 1].score;
		if (moves[i] == s[i].best || s[i].best == MOVE_NONE)
			continue; /* the engine's own move, or no view of it */
		if (before >= ENGINE_WIN_MIN && after < ENGINE_WIN_MIN)
			add_mark(out, REVIEW_MISSED_WIN, i, moves, s);
		else if (before > -ENGINE_WIN_MIN && after <= -ENGINE_WIN_MIN)
			add_mark(out, REVIEW_BLUNDER, i, moves, s);
		else if (!forced(before) && !forced(after) && before - after >= drop)
			add_mark(out, REVIEW_BLUNDER, i, moves, s);
	}
	if (p.outcome.kind == RESULT_WIN) {
		int t = turning_ply(out, p.outcome.winner);
		if (t >= 0 && t < n)
			add_mark(out, REVIEW_TURNING, t, moves, s);
	}
	sort_marks(out);
	free(s);
	return 0;
}
