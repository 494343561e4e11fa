/*
 * eval.c: the value of a position is what each side could make on the empty
 * cells (the sum of their cell scores), the side to move's counting more
 * (weights.h's factor) because it plays first; or, with the learned table
 * (shapes.h), the side to move's to-move values less the other's
 * not-to-move values. Under renju a cell forbidden to black is worth
 * nothing to black.
 */
#include "engine/eval.h"

/* Black's score on its forbidden cells (or its learned value, [0] when
 * black is to move, [1] not, in v): only suspect cells can be. */
static int32_t
forbidden_sum(board_t *b, int32_t v[2])
{
	int32_t s = 0;
	int left = b->nsuspect;

	for (int k = 0; k < b->ncells && left; k++) {
		int j = b->cells[k];
		if (b->stone[j] || !b->suspect[j])
			continue;
		left--;
		if (board_forbidden(b, j, STONE_BLACK)) {
			const shape_t *h = &b->sh[j][0];
			s += b->score[j][0];
			v[0] += h->val[0];
			v[1] += h->val[1];
		}
	}
	return s;
}

int
evaluate(board_t *b)
{
	int s = board_to_move(b) - 1;
	int32_t sum[2] = { b->sum[0], b->sum[1] }, fv[2] = { 0, 0 };
	int v;

	if (b->nsuspect)
		sum[0] -= forbidden_sum(b, fv);
	if (b->shapes) {
		/* black's forbidden value: as the side to move (s == 0) or not */
		int32_t own = b->vsum[s][0] - (s == 0 ? fv[0] : 0);
		int32_t other = b->vsum[1 - s][1] - (s == 1 ? fv[1] : 0);
		v = (own - other) / SHAPE_RES + 20;
	} else
		v = (sum[s] * EVAL_STM - sum[1 - s] * EVAL_OTHER) / EVAL_DIV + 20;

	if (v > 20000)
		v = 20000;
	if (v < -20000)
		v = -20000;
	return v;
}
