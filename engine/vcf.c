/*
 * vcf.c: depth-first threat search with a cache of proven failures (keyed by
 * position and remaining depth) and wins.
 */
#include "engine/vcf.h"

#include "engine/movegen.h"
#include "engine/timeman.h"

#include <string.h>

enum { VCT_NEAR = 3 };

static int
aborted(vcf_t *v)
{
	if (v->out)
		return 1;
	if (++v->nodes > v->budget ||
	    (v->stop[0] && atomic_load_explicit(v->stop[0], memory_order_relaxed)) ||
	    (v->stop[1] && atomic_load_explicit(v->stop[1], memory_order_relaxed)) ||
	    (v->deadline_us && (v->nodes & 255) == 0 && tm_now_us() >= v->deadline_us))
		v->out = 1;
	return v->out;
}

static void
sort_moves(const board_t *b, int c, int16_t *m, int n)
{
	int key[MAX_MOVES];

	for (int i = 0; i < n; i++)
		key[i] = b->cls[m[i]][c - 1] * 16384 + b->score[m[i]][c - 1];
	for (int i = 1; i < n; i++) {
		int16_t x = m[i];
		int k = key[i], j = i;
		for (; j > 0 && key[j - 1] < k; j--) {
			m[j] = m[j - 1];
			key[j] = key[j - 1];
		}
		m[j] = x;
		key[j] = k;
	}
}

static vcf_slot_t *
slot(vcf_t *v, uint64_t key)
{
	return v->cache ? &v->cache[key & (VCF_CACHE - 1)] : NULL;
}

/*
 * Up to two five points of colour c. Past the root a side's five points
 * can only be new, made by the move just played (an older one would have
 * ended the line), so only that move's lines are scanned.
 */
static int
five_points(const board_t *b, int c, int ply, int16_t *f)
{
	if (ply == 0)
		return board_find(b, c, T_FIVE, f, 2);
	return board_find_near(b, b->moves[b->nmoves - 1], c, T_FIVE, f, 2);
}

/*
 * Whether cell c is within VCT_NEAR (on both axes) of the attacker's
 * previous move. A three far from the attack under way seldom joins it,
 * and trying such threes was most of the cost of a failing VCT: with this
 * rule, a 256k-slot cache and cached wins, a 25-ply VCT of a sparring game
 * takes 226k nodes instead of 1.17M, and 229 of the 306 puzzles are proven
 * within 100k nodes instead of 214 (235 against 233 within 400k).
 */
static int
near_last(const board_t *b, int c)
{
	int last = b->moves[b->nmoves - 2];
	int dx = c % BW - last % BW, dy = c / BW - last / BW;

	return dx >= -VCT_NEAR && dx <= VCT_NEAR && dy >= -VCT_NEAR && dy <= VCT_NEAR;
}

static int def_node(vcf_t *v, int ply, int maxply, int threes);

/* Attacker to move: a five, the forced block, or a four (or open three). */
static int
att_node(vcf_t *v, int ply, int maxply, int threes)
{
	board_t *b = v->b;
	int a = v->att, d = 3 - a, n, forced = 0, res = 0;
	int16_t mv[MAX_MOVES], f[2];
	uint64_t key = b->hash ^ v->salt ^ (threes ? 0x5bd1e995u : 0x1b873593u) * (uint64_t)a;
	vcf_slot_t *s;

	if (aborted(v))
		return 0;
	if (b->cnt[a - 1][T_FIVE]) {
		board_find(b, a, T_FIVE, f, 1);
		v->line[ply] = f[0];
		v->len = ply + 1;
		return 1;
	}
	if (ply + 3 > maxply || ply + 3 > VCF_MAXLINE)
		return 0;
	s = slot(v, key);
	if (s && s->key == key) {
		if (s->win && s->win <= maxply - ply) {
			v->line[ply] = s->move; /* the line ends here: the rest is not kept */
			v->len = ply + 1;
			return s->win;
		}
		if (!s->win && s->rem >= maxply - ply)
			return 0;
	}
	if (b->cnt[d - 1][T_FIVE]) {
		if (five_points(b, d, ply, f) >= 2 || board_forbidden(b, f[0], a))
			return 0;
		mv[0] = f[0];
		n = forced = 1;
	} else {
		n = find_real(b, a, T_B4, mv, MAX_MOVES);
		if (threes) {
			int16_t t[MAX_MOVES];
			int nt = find_real(b, a, T_F3, t, MAX_MOVES);
			for (int i = 0; i < nt; i++)
				if (b->cls[t[i]][a - 1] < T_B4 && (ply < 2 || near_last(b, t[i])))
					mv[n++] = t[i];
		}
		sort_moves(b, a, mv, n);
	}
	for (int i = 0; i < n && !res; i++) {
		int m = mv[i];
		if (!forced && b->cls[m][a - 1] >= T_F4) {
			res = 3;
			v->len = ply + 1;
		} else {
			board_play(b, m, a);
			int r = def_node(v, ply + 1, maxply, threes);
			board_undo(b);
			if (r)
				res = r + 1;
		}
		if (res)
			v->line[ply] = (int16_t)m;
	}
	if (s && !v->out && (res || s->key != key || !s->win)) {
		s->key = key;
		s->rem = (int16_t)(res ? 0 : maxply - ply);
		s->win = (int16_t)res;
		s->move = res ? v->line[ply] : 0;
	}
	return res;
}

/* Defender to move after the attacker's move; the attacker must threaten. */
static int
def_node(vcf_t *v, int ply, int maxply, int threes)
{
	board_t *b = v->b;
	int a = v->att, d = 3 - a, worst = 0, bestlen = 0;
	int16_t f[2], dm[MAX_MOVES], best[VCF_MAXLINE];

	if (b->cnt[d - 1][T_FIVE])
		return 0;
	if (b->cnt[a - 1][T_FIVE]) {
		if (five_points(b, a, ply, f) >= 2 || board_forbidden(b, f[0], d)) {
			v->len = ply;
			return 2;
		}
		board_play(b, f[0], d);
		int r = att_node(v, ply + 1, maxply, threes);
		board_undo(b);
		if (r)
			v->line[ply] = f[0];
		return r ? r + 1 : 0;
	}
	if (!threes || !has_real(b, a, T_F4))
		return 0;
	int nd = gen_defences(b, d, dm);
	if (nd == 0) {
		v->len = ply;
		return 4;
	}
	for (int k = 0; k < nd; k++) {
		board_play(b, dm[k], d);
		int r = att_node(v, ply + 1, maxply, threes);
		board_undo(b);
		if (!r)
			return 0;
		if (r > worst) {
			worst = r;
			v->line[ply] = dm[k];
			bestlen = v->len;
			memcpy(best, v->line, sizeof best);
		}
	}
	memcpy(v->line, best, sizeof best);
	v->len = bestlen;
	return worst + 1;
}

int
vcf_solve(vcf_t *v, int maxply)
{
	v->nodes = 0;
	v->out = 0;
	v->len = 0;
	return att_node(v, 0, maxply, 0);
}

/* Deepening finds short wins first; failures cached by depth carry over. */
int
vct_solve(vcf_t *v, int maxply)
{
	v->nodes = 0;
	v->out = 0;
	for (int mp = 5; mp <= maxply; mp += 4) {
		v->len = 0;
		int r = att_node(v, 0, mp, 1);
		if (r || v->out)
			return r;
	}
	return 0;
}
