/*
 * vcf.c: threat-space solvers sharing one cache. The VCF and the VCT's
 * fallback are depth-first searches caching failures (by position and
 * remaining depth) and wins; the VCT first runs a depth-first proof-number
 * search (df-pn) caching proof and disproof numbers.
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
 * and trying such threes is most of the cost of a failing VCT.
 */
static int
near_last(const board_t *b, int c)
{
	int last = b->moves[b->nmoves - 2];
	int dx = c % BW - last % BW, dy = c / BW - last / BW;

	return dx >= -VCT_NEAR && dx <= VCT_NEAR && dy >= -VCT_NEAR && dy <= VCT_NEAR;
}

/*
 * The one cell that stops colour c's five, or -1 when c has two or that
 * cell is forbidden for the other side: the five cannot be stopped.
 */
static int
five_block(board_t *b, int c, int ply)
{
	int16_t f[2];

	if (five_points(b, c, ply, f) >= 2 || board_forbidden(b, f[0], 3 - c))
		return -1;
	return f[0];
}

/*
 * The attacker's fours and, with threes, its open threes (past its first
 * attack only those near the previous one), best first: open fours and
 * double fours, which win at once, lead.
 */
static int
attack_moves(vcf_t *v, int ply, int threes, int16_t *mv)
{
	board_t *b = v->b;
	int a = v->att, n = find_real(b, a, T_B4, mv, MAX_MOVES);

	if (threes) {
		int16_t t[MAX_MOVES];
		int nt = find_real(b, a, T_F3, t, MAX_MOVES);
		for (int i = 0; i < nt; i++)
			if (b->cls[t[i]][a - 1] < T_B4 && (ply < 2 || near_last(b, t[i])))
				mv[n++] = t[i];
	}
	sort_moves(b, a, mv, n);
	return n;
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
		if (s->u.d.win && s->u.d.win <= maxply - ply) {
			v->line[ply] = s->u.d.move; /* the line ends here: the rest is not kept */
			v->len = ply + 1;
			return s->u.d.win;
		}
		if (!s->u.d.win && s->u.d.rem >= maxply - ply)
			return 0;
	}
	if (b->cnt[d - 1][T_FIVE]) {
		int blk = five_block(b, d, ply);
		if (blk < 0)
			return 0;
		mv[0] = (int16_t)blk;
		n = forced = 1;
	} else
		n = attack_moves(v, ply, threes, mv);
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
	if (s && !v->out && (res || s->key != key || !s->u.d.win)) {
		s->key = key;
		s->u.d.rem = (int16_t)(res ? 0 : maxply - ply);
		s->u.d.win = (int16_t)res;
		s->u.d.move = res ? v->line[ply] : 0;
	}
	return res;
}

/* Defender to move after the attacker's move; the attacker must threaten. */
static int
def_node(vcf_t *v, int ply, int maxply, int threes)
{
	board_t *b = v->b;
	int a = v->att, d = 3 - a, worst = 0, bestlen = 0;
	int16_t dm[MAX_MOVES], best[VCF_MAXLINE];

	if (b->cnt[d - 1][T_FIVE])
		return 0;
	if (b->cnt[a - 1][T_FIVE]) {
		int blk = five_block(b, a, ply);
		if (blk < 0) {
			v->len = ply;
			return 2;
		}
		board_play(b, blk, d);
		int r = att_node(v, ply + 1, maxply, threes);
		board_undo(b);
		if (r)
			v->line[ply] = (int16_t)blk;
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

int
vcf_defend(vcf_t *v, int maxply, int threes)
{
	v->nodes = 0;
	v->out = 0;
	v->len = 0;
	return def_node(v, 0, maxply, threes);
}

enum { PN_INF = 1 << 28 };

/*
 * A proof-number node's moves, or its value without them: 1 proven (plies
 * to the five in *len, the winning move in *win for the attacker), -1
 * disproven, 0 open with the moves in mv. The rules are the depth-first
 * solver's: the attacker plays fours and open threes (near its previous
 * attack past the first) or the forced block; the defender the forced
 * block or every reply that stops the open four.
 */
static int
pn_moves(vcf_t *v, int ply, int maxply, int att, int16_t *mv, int *n, int *len, int *win)
{
	board_t *b = v->b;
	int a = v->att, d = 3 - a;
	int16_t f[2];

	*n = 0;
	if (att) {
		if (b->cnt[a - 1][T_FIVE]) {
			board_find(b, a, T_FIVE, f, 1);
			*len = 1;
			*win = f[0];
			return 1;
		}
		if (ply + 3 > maxply || ply + 3 > VCF_MAXLINE)
			return -1;
		if (b->cnt[d - 1][T_FIVE]) {
			if ((mv[0] = (int16_t)five_block(b, d, ply)) < 0)
				return -1;
			*n = 1;
			return 0;
		}
		int k = attack_moves(v, ply, 1, mv);
		if (k > 0 && b->cls[mv[0]][a - 1] >= T_F4) {
			*len = 3;
			*win = mv[0];
			return 1;
		}
		*n = k;
		return k ? 0 : -1;
	}
	if (b->cnt[d - 1][T_FIVE])
		return -1;
	if (b->cnt[a - 1][T_FIVE]) {
		if ((mv[0] = (int16_t)five_block(b, a, ply)) < 0) {
			*len = 2;
			return 1;
		}
		*n = 1;
		return 0;
	}
	if (!has_real(b, a, T_F4))
		return -1;
	if ((*n = gen_defences(b, d, mv)) == 0) {
		*len = 4;
		return 1;
	}
	return 0;
}

static uint32_t
pn_add(uint32_t x, uint32_t y)
{
	return x + y >= PN_INF ? PN_INF : x + y;
}

static uint64_t
pn_key(const vcf_t *v, uint64_t hash)
{
	return hash ^ v->salt ^ 0x9e3779b97f4a7c15ull;
}

/* A node's numbers from the cache; 1, 1 when unknown. */
static void
pn_get(const vcf_t *v, uint64_t key, uint32_t *pn, uint32_t *dn, int *len)
{
	const vcf_slot_t *s = &v->cache[key & (VCF_CACHE - 1)];

	*pn = *dn = 1;
	*len = 0;
	if (s->key != key)
		return;
	*pn = s->u.p.pn;
	*dn = *pn ? s->u.p.dn : PN_INF;
	if (!*pn)
		*len = (int)(s->u.p.dn & 255);
}

static void
pn_put(vcf_t *v, uint64_t key, uint32_t pn, uint32_t dn, int len, int move)
{
	vcf_slot_t *s = &v->cache[key & (VCF_CACHE - 1)];

	s->key = key;
	s->u.p.pn = pn;
	s->u.p.dn = pn ? dn : (uint32_t)len | (uint32_t)move << 8;
}

/*
 * Depth-first proof-number search (df-pn) of the node with the side
 * att (1 the attacker) to move: expands the most proving child until the
 * node's proof number reaches thpn or its disproof number thdn.
 */
static void
pn_mid(vcf_t *v, int ply, int maxply, int att, uint32_t thpn, uint32_t thdn)
{
	board_t *b = v->b;
	uint64_t key = pn_key(v, b->hash);
	int16_t mv[MAX_MOVES];
	int n, len = 0, win = 0, c = att ? v->att : 3 - v->att;
	uint32_t pn = 1, dn = 1;

	if (aborted(v))
		return;
	int st = pn_moves(v, ply, maxply, att, mv, &n, &len, &win);
	if (st) {
		pn_put(v, key, st > 0 ? 0 : PN_INF, st > 0 ? PN_INF : 0, len, win);
		return;
	}
	for (;;) {
		uint32_t best = PN_INF + 1, second = PN_INF + 1, sum = 0, other = 0;
		int bi = 0, blen = 0, wlen = 0;
		for (int i = 0; i < n; i++) {
			uint32_t cp, cd;
			int cl;
			pn_get(v, pn_key(v, b->hash ^ board_zobrist(mv[i], c)), &cp, &cd, &cl);
			/* the attacker minimises the proof number, the defender the disproof */
			uint32_t mine = att ? cp : cd, theirs = att ? cd : cp;
			if (mine < best) {
				second = best;
				best = mine;
				bi = i;
				other = theirs;
				blen = cl;
			} else if (mine < second)
				second = mine;
			sum = pn_add(sum, theirs);
			if (!att && cl > wlen)
				wlen = cl;
		}
		pn = att ? best : sum;
		dn = att ? sum : best;
		if (pn == 0) {
			len = (att ? blen : wlen) + 1;
			win = att ? mv[bi] : 0;
			break;
		}
		if (dn == 0 || pn >= thpn || dn >= thdn)
			break;
		uint32_t th1 = second >= PN_INF ? PN_INF : second + 1 + second / 2;
		uint32_t mthr = att ? thpn : thdn, othr = att ? thdn : thpn;
		uint32_t cm = mthr < th1 ? mthr : th1;
		uint32_t co = othr >= PN_INF ? PN_INF : othr - (att ? dn : pn) + other;
		board_play(b, mv[bi], c);
		pn_mid(v, ply + 1, maxply, !att, att ? cm : co, att ? co : cm);
		board_undo(b);
		if (v->out)
			break;
	}
	pn_put(v, key, pn, dn, len, win);
}

/*
 * Follows a proof in the cache from the root into v->line: the attacker's
 * stored winning move, the defender's longest proven reply. The line stops
 * where an entry was overwritten; the first move is always there.
 */
static void
pn_line(vcf_t *v)
{
	board_t *b = v->b;
	int ply = 0, att = 1, played = 0;

	for (;;) {
		int16_t mv[MAX_MOVES];
		int n, len, win = 0, move = -1, c = att ? v->att : 3 - v->att;
		uint64_t key = pn_key(v, b->hash);
		const vcf_slot_t *s = &v->cache[key & (VCF_CACHE - 1)];
		if (ply >= VCF_MAXLINE || s->key != key || s->u.p.pn != 0)
			break;
		if (pn_moves(v, ply, VCF_MAXLINE, att, mv, &n, &len, &win) > 0) {
			if (att)
				v->line[ply++] = (int16_t)win;
			break;
		}
		if (att)
			move = (int)(s->u.p.dn >> 8);
		for (int i = 0, wl = -1; !att && i < n; i++) {
			uint32_t cp, cd;
			int cl;
			pn_get(v, pn_key(v, b->hash ^ board_zobrist(mv[i], c)), &cp, &cd, &cl);
			if (cp == 0 && cl > wl) {
				move = mv[i];
				wl = cl;
			}
		}
		if (move < 0)
			break;
		v->line[ply++] = (int16_t)move;
		board_play(b, move, c);
		played++;
		att = !att;
	}
	v->len = ply;
	while (played-- > 0)
		board_undo(b);
}

/* Proof-number VCT: one search to maxply, then the line from the cache. */
static int
vct_pn(vcf_t *v, int maxply)
{
	uint32_t pn, dn;
	int len;

	v->len = 0;
	pn_mid(v, 0, maxply, 1, PN_INF, PN_INF);
	pn_get(v, pn_key(v, v->b->hash), &pn, &dn, &len);
	if (pn != 0 || v->out)
		return 0;
	pn_line(v);
	return len;
}

/*
 * The proof-number search first: it follows the most promising attack to
 * any depth, where deepening by 4 plies pays for every shallower failure
 * again. Its proofs are sound, but a disproof may not be: the cache holds one result
 * for a position however it was reached, and the attacks tried depend on
 * the attacker's previous move. So after a disproof the depth-first
 * search, which finds short wins first, has the rest of the budget.
 */
int
vct_solve(vcf_t *v, int maxply)
{
	v->nodes = 0;
	v->out = 0;
	if (v->cache) {
		int r = vct_pn(v, maxply);
		if (r || v->out)
			return r;
	}
	for (int mp = 5; mp <= maxply; mp += 4) {
		v->len = 0;
		int r = att_node(v, 0, mp, 1);
		if (r || v->out)
			return r;
	}
	return 0;
}
