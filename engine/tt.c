/*
 * tt.c: two-entry buckets; a new result replaces the entry of the same key,
 * else the shallower or older of the two.
 */
#include "engine/tt.h"

#include <stdlib.h>
#include <string.h>

int
tt_init(tt_t *t, size_t mb)
{
	size_t n = 1;

	if (mb < 1)
		mb = 1;
	while (n * 2 * 2 * sizeof(tt_entry_t) <= mb * 1024 * 1024)
		n *= 2;
	t->e = calloc(n * 2, sizeof *t->e);
	if (!t->e)
		return -1;
	t->mask = n - 1;
	t->gen = 0;
	return 0;
}

void
tt_free(tt_t *t)
{
	free(t->e);
	t->e = NULL;
}

void
tt_clear(tt_t *t)
{
	memset(t->e, 0, (t->mask + 1) * 2 * sizeof *t->e);
	t->gen = 0;
}

void
tt_new_search(tt_t *t)
{
	t->gen = (uint8_t)((t->gen + 1) & 63);
}

const tt_entry_t *
tt_probe(const tt_t *t, uint64_t key)
{
	const tt_entry_t *b = &t->e[(key & t->mask) * 2];
	uint32_t chk = (uint32_t)(key >> 32) | 1;

	if (b[0].check == chk)
		return &b[0];
	if (b[1].check == chk)
		return &b[1];
	return NULL;
}

void
tt_store(tt_t *t, uint64_t key, int move, int score, int eval, int depth, int bound)
{
	tt_entry_t *b = &t->e[(key & t->mask) * 2], *r;
	uint32_t chk = (uint32_t)(key >> 32) | 1;

	if (b[0].check == chk)
		r = &b[0];
	else if (b[1].check == chk)
		r = &b[1];
	else {
		int v0 = b[0].depth - ((t->gen - (b[0].bound >> 2)) & 63) * 4;
		int v1 = b[1].depth - ((t->gen - (b[1].bound >> 2)) & 63) * 4;
		r = v0 <= v1 ? &b[0] : &b[1];
	}
	if (r->check == chk && move < 0)
		move = r->move;
	r->check = chk;
	r->move = (int16_t)move;
	r->score = (int16_t)score;
	r->eval = (int16_t)eval;
	r->depth = (int8_t)(depth > 127 ? 127 : depth);
	r->bound = (uint8_t)(bound | t->gen << 2);
}
