/* eval.h: static evaluation and move-ordering scores from the board's patterns. */
#ifndef GOMOKU_EVAL_H
#define GOMOKU_EVAL_H

#include "engine/board.h"
#include "engine/shapes.h"
#include "engine/weights.h"

/* Score of the position for the side to move. Not const: renju verdicts
 * on black's suspect cells are asked for (and cached). */
int evaluate(board_t *b);
/* Ordering value of the empty cell for colour c (attack plus defence):
 * from the cell scores, or the learned table's policy scores. */
static inline int
eval_move(const board_t *b, int cell, int c)
{
	if (b->shapes)
		return b->sh[cell][c - 1].pol[0] + b->sh[cell][2 - c].pol[1];
	return b->score[cell][c - 1] * 5 + b->score[cell][2 - c] * 4;
}

#endif
