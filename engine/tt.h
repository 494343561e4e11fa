/* tt.h: transposition table, per engine instance, sized from a memory budget. */
#ifndef GOMOKU_TT_H
#define GOMOKU_TT_H

#include <stddef.h>
#include <stdint.h>

enum { TT_NONE = 0, TT_UPPER = 1, TT_LOWER = 2, TT_EXACT = 3 };

typedef struct {
	uint32_t check; /* high key bits */
	int16_t move;   /* board cell, -1 none */
	int16_t score;
	int16_t eval;
	int8_t depth;
	uint8_t bound; /* TT_* | generation << 2 */
} tt_entry_t;

typedef struct {
	tt_entry_t *e;
	size_t mask; /* buckets - 1; a bucket holds two entries */
	uint8_t gen;
} tt_t;

/* Allocates about mb megabytes (at least 1); returns 0 or -1. */
int tt_init(tt_t *t, size_t mb);
void tt_free(tt_t *t);
void tt_clear(tt_t *t);
void tt_new_search(tt_t *t);
/* Returns the entry for key or NULL. */
const tt_entry_t *tt_probe(const tt_t *t, uint64_t key);
void tt_store(tt_t *t, uint64_t key, int move, int score, int eval, int depth, int bound);

#endif
