/*
 * tt.c: two-entry buckets; a new result replaces the entry of the same key,
 * else the shallower or older of the two. An entry is valid when its lock
 * word XOR its data word is the key's check (the high half of the key, odd,
 * so that an empty slot never matches); a store racing another thread's
 * leaves at worst an entry that matches no key. Relaxed atomics: on x86-64
 * plain loads and stores.
 */
#include "engine/tt.h"

#include <stdlib.h>
#include <string.h>

static size_t
buckets(size_t mb)
{
	size_t n = 1;

	if (mb < 1)
		mb = 1;
	while (n * 2 * 2 * sizeof(tt_slot_t) <= mb * 1024 * 1024)
		n *= 2;
	return n;
}

size_t
tt_bytes(size_t mb)
{
	return buckets(mb) * 2 * sizeof(tt_slot_t);
}

int
tt_init(tt_t *t, size_t mb)
{
	size_t n = buckets(mb);

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

static uint64_t
check_of(uint64_t key)
{
	return (key >> 32) | 1;
}

static uint64_t
pack(const tt_entry_t *x)
{
	return (uint64_t)(uint16_t)x->move | (uint64_t)(uint16_t)x->score << 16 |
	    (uint64_t)(uint16_t)x->eval << 32 | (uint64_t)(uint8_t)x->depth << 48 |
	    (uint64_t)x->bound << 56;
}

static tt_entry_t
unpack(uint64_t d)
{
	tt_entry_t x;

	x.move = (int16_t)(uint16_t)d;
	x.score = (int16_t)(uint16_t)(d >> 16);
	x.eval = (int16_t)(uint16_t)(d >> 32);
	x.depth = (int8_t)(uint8_t)(d >> 48);
	x.bound = (uint8_t)(d >> 56);
	return x;
}

/* Loads slot s: its data in *d, whether it holds chk. */
static int
load(const tt_slot_t *s, uint64_t chk, uint64_t *d)
{
	*d = atomic_load_explicit(&s->data, memory_order_relaxed);
	return (atomic_load_explicit(&s->lock, memory_order_relaxed) ^ *d) == chk;
}

int
tt_probe(const tt_t *t, uint64_t key, tt_entry_t *out)
{
	const tt_slot_t *b = &t->e[(key & t->mask) * 2];
	uint64_t chk = check_of(key), d;

	if (load(&b[0], chk, &d) || load(&b[1], chk, &d)) {
		*out = unpack(d);
		return 1;
	}
	return 0;
}

void
tt_store(tt_t *t, uint64_t key, int move, int score, int eval, int depth, int bound)
{
	tt_slot_t *b = &t->e[(key & t->mask) * 2], *r;
	uint64_t chk = check_of(key), d0, d1 = 0;
	int h0 = load(&b[0], chk, &d0), h1 = !h0 && load(&b[1], chk, &d1);
	tt_entry_t x;

	if (h0)
		r = &b[0];
	else if (h1)
		r = &b[1];
	else {
		tt_entry_t x0 = unpack(d0), x1 = unpack(d1);
		int v0 = x0.depth - ((t->gen - (x0.bound >> 2)) & 63) * 4;
		int v1 = x1.depth - ((t->gen - (x1.bound >> 2)) & 63) * 4;
		r = v0 <= v1 ? &b[0] : &b[1];
	}
	if ((h0 || h1) && move < 0)
		move = unpack(h0 ? d0 : d1).move;
	x.move = (int16_t)move;
	x.score = (int16_t)score;
	x.eval = (int16_t)eval;
	x.depth = (int8_t)(depth > 127 ? 127 : depth);
	x.bound = (uint8_t)(bound | t->gen << 2);
	uint64_t d = pack(&x);
	atomic_store_explicit(&r->data, d, memory_order_relaxed);
	atomic_store_explicit(&r->lock, d ^ chk, memory_order_relaxed);
}
