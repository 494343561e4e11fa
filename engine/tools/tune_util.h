/* tune_util.h: what both of bin/tune's files use (tune.c, tune_shapes.c). */
#ifndef GOMOKU_TUNE_UTIL_H
#define GOMOKU_TUNE_UTIL_H

#include "engine/board.h"

#include <math.h>
#include <stdint.h>

static inline uint32_t
tune_xorshift(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

/* A position the static value should judge: no five to make or stop, no
 * open-four cell, no four-three for the side to move. */
static inline int
tune_quiet(const board_t *b)
{
	int stm = board_to_move(b) - 1;

	for (int c = 0; c < 2; c++)
		if (b->cnt[c][T_FIVE] || b->cnt[c][T_F4])
			return 0;
	return !b->cnt[stm][T_B4F3];
}

static inline double
tune_sigmoid(double x)
{
	return 1 / (1 + exp(-x));
}

#endif
