/*
 * eval.c: the value of a position is what each side could make on the empty
 * cells (the sum of their cell scores), the side to move weighted higher
 * because it plays first.
 */
#include "engine/eval.h"

int
evaluate(const board_t *b)
{
	int s = board_to_move(b) - 1;
	int v = (b->sum[s] * 6 - b->sum[1 - s] * 5) / 5 + 20;

	if (v > 20000)
		v = 20000;
	if (v < -20000)
		v = -20000;
	return v;
}
