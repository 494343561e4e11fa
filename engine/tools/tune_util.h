/* tune_util.h: what both of bin/tune's files use (tune.c, tune_shapes.c). */
#ifndef GOMOKU_TUNE_UTIL_H
#define GOMOKU_TUNE_UTIL_H

#include "engine/board.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "engine/engine.h"

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

/* The samples file (appended to) and a 16 MB engine for self-play: 0,
 * or 1 with neither left open, said on stderr. The file is line
 * buffered, so a run stopped by a timeout leaves whole lines only. */
static inline int
tune_open(const char *path, FILE **out, engine_t **e)
{
	*out = fopen(path, "a");
	*e = engine_new(16);
	if (*out && *e && setvbuf(*out, NULL, _IOLBF, 0) == 0)
		return 0;
	fprintf(stderr, "tune: cannot open %s or make an engine\n", path);
	if (*out)
		fclose(*out);
	if (*e)
		engine_free(*e);
	return 1;
}

/* Value units per unit of the logistic that turns a search's score into a
 * label (gen DEEP, label/shapes). */
enum { TUNE_LABEL_SCALE = 400 };

static inline double
tune_sigmoid(double x)
{
	return 1 / (1 + exp(-x));
}

#endif
