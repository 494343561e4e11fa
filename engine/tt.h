/*
 * tt.h: transposition table sized from a memory budget, one per engine
 * instance, which the instance's helper threads share: entries are two
 * atomic words, the data and the data XOR the key's check, so a probe never
 * returns a half-written entry and no lock is taken.
 */
#ifndef GOMOKU_TT_H
#define GOMOKU_TT_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

enum { TT_NONE = 0, TT_UPPER = 1, TT_LOWER = 2, TT_EXACT = 3 };

typedef struct {
	int16_t move; /* board cell, -1 none */
	int16_t score;
	int16_t eval;
	int8_t depth;
	uint8_t bound; /* TT_* | generation << 2 */
} tt_entry_t;

typedef struct {
	_Atomic uint64_t lock; /* data ^ check */
	_Atomic uint64_t data; /* the tt_entry_t packed */
} tt_slot_t;

typedef struct {
	tt_slot_t *e;
	size_t mask; /* buckets - 1; a bucket holds two entries */
	uint8_t gen;
} tt_t;

/* Allocates about mb megabytes (at least 1); returns 0 or -1. */
int tt_init(tt_t *t, size_t mb);
/* The bytes tt_init(mb) allocates. */
size_t tt_bytes(size_t mb);
void tt_free(tt_t *t);
/* Not while another thread uses the table. */
void tt_clear(tt_t *t);
void tt_new_search(tt_t *t);
/* Copies the entry for key into *out: returns 1, or 0 when there is none. */
int tt_probe(const tt_t *t, uint64_t key, tt_entry_t *out);
void tt_store(tt_t *t, uint64_t key, int move, int score, int eval, int depth, int bound);

#endif
