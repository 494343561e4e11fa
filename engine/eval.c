/*
 * eval.c: the value of a position is what each side could make on the empty
 * cells (the sum of their cell scores), the side to move's counting more
 * (weights.h's factor) because it plays first. Under renju a cell forbidden
 * to black is worth nothing to black.
 */
#include "engine/eval.h"

/* Black's score on its forbidden cells: only suspect cells can be. */
static int32_t
forbidden_sum(board_t *b)
{
	int32_t s = 0;
	int left = b->nsuspect;

	for (int k = 0; k < b->ncells && left; k++) {
		int j = b->cells[k];
		if (b->stone[j] || !b->suspect[j])
			continue;
		left--;
		if (board_forbidden(b, j, STONE_BLACK))
			s += b->score[j][0];
	}
	return s;
}

int
evaluate(board_t *b)
{
	int s = board_to_move(b) - 1;
	int32_t sum[2] = { b->sum[0], b->sum[1] };

	if (b->nsuspect)
		sum[0] -= forbidden_sum(b);
	int v = (sum[s] * EVAL_STM - sum[1 - s] * EVAL_OTHER) / EVAL_DIV + 20;

	if (v > 20000)
		v = 20000;
	if (v < -20000)
		v = -20000;
	return v;
}
