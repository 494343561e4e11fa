/*
 * swiss.c: one round of a Swiss by the FIDE Dutch system (swiss.h says
 * what of the rules it keeps and what it leaves out).
 *
 * The round is paired bracket by bracket from the top scoregroup down. In
 * each bracket the candidates are searched depth first in the rules'
 * order (exchanges outside, transpositions of S2 inside, the remainder of
 * a heterogeneous bracket inside its MDP-pairing), with a lower bound on
 * the quality vector so that the first best candidate is found without
 * visiting every one. A candidate is taken only if the players below it
 * can still all be paired (the completion criterion), which an exact
 * maximum matching (Edmonds' blossoms) decides; so no bracket is ever
 * undone and the round fails only when no pairing at all keeps the
 * absolute criteria, which the same matching says up front.
 *
 * Each bracket is searched in two passes: the first looks only for
 * candidates at the bracket's lower bound, then, when rematches and C3
 * put it out of reach, for ones ever further from it; the second keeps
 * the best in order from there, under a budget. Near the end of an event,
 * where the completion test refuses most candidates, a homogeneous
 * bracket asks it (a typed matching) at every step instead.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tourney/swiss.h"

/* The quality vector of a candidate, compared in this order, lower better:
 * the players left unpaired (C5: most pairs), then (kept apart, see cmpq)
 * the PSD (C6), the topscorers' colour differences past 2 (C8) and third
 * colours in a row (C9), colour preferences not granted (C10), strong or
 * absolute ones not granted (C11), downfloats and upfloats repeated from
 * the last round (C12, C13) and from the round before it (C14, C15). */
enum { Q_FLO, Q_C8, Q_C9, Q_C10, Q_C11, Q_C12, Q_C13, Q_C14, Q_C15, NQ };

/* The most work (bracket players times players below) for which a
 * homogeneous bracket with one floater first finds who may float. */
#define SWISS_OKF_WORK 40000L

/* The most players, a bracket and those below it, for which a homogeneous
 * bracket checks at every step that the round can still complete. */
#define SWISS_TIGHT 64

/* Exchanges of two players or more each way considered in a bracket, at
 * most (all of one size or none of it), and the largest bracket they are
 * considered in (positions in a 64-bit mask). */
#define EX_MAX 4096
#define EX_PLAYERS 64

/* An exchange: the S1 positions it moves to S2 (out), the S2 positions it
 * moves to S1 (in), how many each way, the difference of their sums. */
struct exch {
	uint64_t out, in;
	int k, d;
};

struct sp {
	int idx;      /* the caller's index; pairing number idx + 1 */
	int score;    /* half-points before this round */
	int cd;       /* colour difference: games as first minus games as second */
	int nplayed;  /* games played over the board */
	int pref;     /* +1 wants first, -1 second, 0 none */
	int strength; /* 0 none, 1 mild, 2 strong, 3 absolute */
	int byeok;    /* may have the pairing-allocated bye */
	int top;      /* topscorer (the last round only) */
	int fl1, fl2; /* float last round, the round before: +1 down, -1 up */
	signed char hist[TOURNEY_ROUNDS_MAX]; /* colours played, in order */
};

/* One level of the search: the MDP-pairing of a heterogeneous bracket
 * (0), or a homogeneous bracket or remainder (0 or 1). */
struct level {
	int *x; /* the level's players, rank positions, ascending */
	int m;  /* how many */
	int *s1, *s2;
	int n1, n2;
	char *used; /* per s2 */
	char *flag; /* per x: in S1 */
	/* for the lower bound: the S1 players from i on who want first,
	 * second; the same with a strong or absolute preference; the same
	 * bound to it (C3); and the S2 players not yet taken of each kind */
	int *sufw, *sufb, *sufws, *sufbs, *sufwa, *sufba;
	int freew, freeb, freews, freebs, freewa, freeba, freeq;
	int freeok; /* S2 players left who may float (w->okf) */
	struct exch *ex;
};

struct work {
	int n, nact, round, rounds;
	struct sp *p;       /* nact active players in rank order */
	unsigned char *met; /* n * n bits: played each other (caller indexes) */
	/* the matching */
	int *vs, *mt, *par, *base, *q;
	char *inq, *bl, *mark;
	int nv, bye, split;
	/* the bracket search */
	struct level lv[2];
	int hetero;
	int *limbo, nlimbo;
	int *cur, ncur;   /* the candidate's pairs, two rank positions each */
	int *flo, nflo;   /* its floaters, at a leaf */
	int *best, nbest; /* the best candidate's pairs */
	int *bestflo, nbestflo;
	int bestq[NQ], glb[NQ];
	int *psd, *bestpsd, *glbpsd, npsd; /* the MDPs' score differences */
	int have, confirmed, phase, slack, stop, gaveup;
	long nodes, limit;
	int rest_from; /* rank position of the first player below the bracket */
	/* a homogeneous bracket with one floater: whether each player (by
	 * rank position) may be it and the round still be completed */
	char *okf;
	int okf_on;
	/* a homogeneous bracket over a tight end (few players in all): every
	 * step of the search first asks whether the round can still complete,
	 * by a matching whose vertices have types (vtype, typed) */
	int tight, typed;
	char *vtype;
	int *rest, *mdp, *res;
};

static int
max_i(int a, int b)
{
	return a > b ? a : b;
}

/* Compares two candidates of a bracket by quality a, b and PSD pa, pb
 * (C6: the score differences of the MDPs, highest first, compared in
 * turn; it comes after the floaters, whose count fixes the rest of it). */
static int
cmpq(const struct work *w, const int *a, const int *pa, const int *b, const int *pb)
{
	if (a[Q_FLO] != b[Q_FLO])
		return a[Q_FLO] < b[Q_FLO] ? -1 : 1;
	for (int i = 0; i < w->npsd; i++)
		if (pa[i] != pb[i])
			return pa[i] < pb[i] ? -1 : 1;
	for (int i = Q_FLO + 1; i < NQ; i++)
		if (a[i] != b[i])
			return a[i] < b[i] ? -1 : 1;
	return 0;
}

static int
met(const struct work *w, int a, int b)
{
	long bit = (long)w->p[a].idx * w->n + w->p[b].idx;
	return (w->met[bit >> 3] >> (bit & 7)) & 1;
}

/* The absolute criteria between two players (rank positions): no
 * rematch, and two non-topscorers with the same absolute colour
 * preference do not meet (C1, C3). */
static int
compat(const struct work *w, int a, int b)
{
	const struct sp *x = &w->p[a], *y = &w->p[b];
	if (a == b || met(w, a, b))
		return 0;
	if (x->strength == 3 && y->strength == 3 && x->pref == y->pref && !x->top && !y->top)
		return 0;
	return 1;
}

/* Whether x has an absolute preference for c that C3 holds him to. */
static int
bound_abs(const struct sp *x, int c)
{
	return x->strength == 3 && x->pref == c && !x->top;
}

/*
 * The matching: Edmonds' blossoms over the vertices vs[0..nv) (rank
 * positions) and, when bye >= 0, a vertex bye standing for the bye (a
 * neighbour of every player who may have it). With split > 0, only the
 * edges between vs[0..split) and the rest (a bipartite matching).
 */
static int
adj(const struct work *w, int u, int v)
{
	if (u == v)
		return 0;
	if (w->typed) {
		/* 1: S1 players, who pair in the bracket, with 2 only; 2: S2
		 * players, who pair there or float; 3: the players below */
		int tu = u == w->bye ? 0 : w->vtype[u], tv = v == w->bye ? 0 : w->vtype[v];
		if ((tu == 1 || tv == 1) && tu + tv != 3)
			return 0;
	}
	if (u == w->bye)
		return w->p[w->vs[v]].byeok;
	if (v == w->bye)
		return w->p[w->vs[u]].byeok;
	if (w->split > 0 && (u < w->split) == (v < w->split))
		return 0;
	return compat(w, w->vs[u], w->vs[v]);
}

static int
lca(struct work *w, int a, int b)
{
	memset(w->mark, 0, (size_t)w->nv + 1);
	for (;;) {
		a = w->base[a];
		w->mark[a] = 1;
		if (w->mt[a] < 0)
			break;
		a = w->par[w->mt[a]];
	}
	for (;;) {
		b = w->base[b];
		if (w->mark[b])
			return b;
		b = w->par[w->mt[b]];
	}
}

static void
mark_path(struct work *w, int v, int b, int child)
{
	while (w->base[v] != b) {
		w->bl[w->base[v]] = w->bl[w->base[w->mt[v]]] = 1;
		w->par[v] = child;
		child = w->mt[v];
		v = w->par[w->mt[v]];
	}
}

/* An augmenting path from root: its free end, or -1. */
static int
find_path(struct work *w, int root)
{
	int nv = w->nv + (w->bye >= 0), head = 0, tail = 0;
	for (int i = 0; i < nv; i++) {
		w->par[i] = -1;
		w->base[i] = i;
		w->inq[i] = 0;
	}
	w->inq[root] = 1;
	w->q[tail++] = root;
	while (head < tail) {
		int v = w->q[head++];
		for (int to = 0; to < nv; to++) {
			if (w->base[v] == w->base[to] || w->mt[v] == to || !adj(w, v, to))
				continue;
			if (to == root || (w->mt[to] >= 0 && w->par[w->mt[to]] >= 0)) {
				int cb = lca(w, v, to);
				memset(w->bl, 0, (size_t)nv);
				mark_path(w, v, cb, to);
				mark_path(w, to, cb, v);
				for (int i = 0; i < nv; i++) {
					if (!w->bl[w->base[i]])
						continue;
					w->base[i] = cb;
					if (!w->inq[i]) {
						w->inq[i] = 1;
						w->q[tail++] = i;
					}
				}
			} else if (w->par[to] < 0) {
				w->par[to] = v;
				if (w->mt[to] < 0)
					return to;
				w->inq[w->mt[to]] = 1;
				w->q[tail++] = w->mt[to];
			}
		}
	}
	return -1;
}

/* The size of a maximum matching of the vertices set up in w (vs, nv, bye,
 * split); w->mt holds it. */
static int
matching(struct work *w)
{
	int nv = w->nv + (w->bye >= 0), size = 0;
	for (int i = 0; i < nv; i++)
		w->mt[i] = -1;
	for (int u = 0; u < nv; u++) /* greedy first, in rank order */
		for (int v = u + 1; v < nv && w->mt[u] < 0; v++)
			if (w->mt[v] < 0 && adj(w, u, v)) {
				w->mt[u] = v;
				w->mt[v] = u;
				size++;
			}
	for (int u = 0; u < nv; u++) {
		if (w->mt[u] >= 0)
			continue;
		int v = find_path(w, u);
		if (v < 0)
			continue;
		size++;
		while (v >= 0) {
			int pv = w->par[v], ppv = w->mt[pv];
			w->mt[v] = pv;
			w->mt[pv] = v;
			v = ppv;
		}
	}
	return size;
}

/* Whether the search at S1 position i of level L can still reach a
 * candidate that completes the round: the S1 players left paired with S2
 * players left, and those S2 players left over, as floaters, paired with
 * each other or the players below (or given the bye). */
static int
extendable(struct work *w, const struct level *L, int i)
{
	int k = 0;
	for (int t = i; t < L->n1; t++) {
		w->vs[k] = L->s1[t];
		w->vtype[k++] = 1;
	}
	for (int j = 0; j < L->n2; j++)
		if (!L->used[j]) {
			w->vs[k] = L->s2[j];
			w->vtype[k++] = 2;
		}
	for (int r = w->rest_from; r < w->nact; r++) {
		w->vs[k] = r;
		w->vtype[k++] = 3;
	}
	w->nv = k;
	w->split = 0;
	w->bye = k % 2 ? k : -1;
	w->typed = 1;
	int ok = 2 * matching(w) == k + k % 2;
	w->typed = 0;
	return ok;
}

/* Whether the players vs[0..k) can all be paired, one of them with the
 * bye when k is odd. */
static int
pairable(struct work *w, const int *vs, int k)
{
	if (vs != w->vs)
		memcpy(w->vs, vs, (size_t)k * sizeof *vs);
	w->nv = k;
	w->split = 0;
	w->bye = k % 2 ? k : -1;
	return 2 * matching(w) == k + (k % 2);
}

/* The most pairs among vs[0..k) (split > 0: only across the split). */
static int
max_pairs(struct work *w, const int *vs, int k, int split)
{
	memcpy(w->vs, vs, (size_t)k * sizeof *vs);
	w->nv = k;
	w->split = split;
	w->bye = -1;
	return matching(w);
}

/*
 * Colour allocation (E.1-E.5) for players a, b (rank positions): +1 when a
 * has first, -1 when a has second.
 */
static int
allocate(const struct work *w, int a, int b)
{
	const struct sp *x = &w->p[a], *y = &w->p[b];
	const struct sp *hi = a < b ? x : y;
	int sign = a < b ? 1 : -1; /* hi's colour times sign is a's */
	if (x->pref != y->pref) {  /* E.1: both granted (none takes either) */
		if (x->pref)
			return x->pref;
		return -y->pref;
	}
	if (x->pref) {
		if (x->strength != y->strength) /* E.2: the stronger */
			return x->strength > y->strength ? x->pref : -y->pref;
		if (x->strength == 3 && abs(x->cd) != abs(y->cd)) /* E.2: the wider */
			return abs(x->cd) > abs(y->cd) ? x->pref : -y->pref;
		for (int k = 1; k <= x->nplayed && k <= y->nplayed; k++) { /* E.3 */
			int cx = x->hist[x->nplayed - k], cy = y->hist[y->nplayed - k];
			if (cx != cy)
				return -cx;
		}
		return sign * hi->pref; /* E.4 */
	}
	/* E.5: no preferences (no games yet); the initial colour is first */
	return sign * ((hi->idx + 1) % 2 ? 1 : -1);
}

/* Adds what pairing a with b costs to q; mdp: a is an MDP, b a resident. */
static void
pair_cost(const struct work *w, int a, int b, int mdp, int *q)
{
	int ca = allocate(w, a, b);
	for (int s = 0; s < 2; s++) {
		const struct sp *x = &w->p[s ? b : a];
		int c = s ? -ca : ca;
		if (x->pref && c != x->pref) {
			q[Q_C10]++;
			if (x->strength >= 2)
				q[Q_C11]++;
		}
		if (w->p[a].top || w->p[b].top) {
			if (abs(x->cd + c) > 2)
				q[Q_C8]++;
			if (x->nplayed >= 2 && x->hist[x->nplayed - 1] == c &&
			    x->hist[x->nplayed - 2] == c)
				q[Q_C9]++;
		}
	}
	if (mdp) {
		q[Q_C13] += w->p[b].fl1 < 0;
		q[Q_C15] += w->p[b].fl2 < 0;
	}
}

/* Whether the search of a bracket stops: a quarter of its budget spent in
 * an attempt of the first pass, or all of it in the second with something
 * found; four times it with nothing found, it gives up. */
static int
spent(struct work *w)
{
	if (w->stop)
		return 1;
	if (w->phase == 1 ? w->nodes > w->limit / 4 : w->nodes > w->limit && w->have)
		w->stop = 1;
	else if (w->nodes > 4 * w->limit)
		w->stop = w->gaveup = 1;
	return w->stop;
}

/* Whether q is past the first pass's target: the bracket's lower bound;
 * or, with slack, that many more floaters, topscorer colour faults and
 * preferences not granted than the bound has (the rest not held). */
static int
over_target(const struct work *w, const int *q)
{
	if (w->slack == 0)
		return cmpq(w, q, w->psd, w->glb, w->glbpsd) > 0;
	return q[Q_FLO] - w->glb[Q_FLO] + q[Q_C8] + q[Q_C9] + q[Q_C10] - w->glb[Q_C10] > w->slack;
}

/* Whether the floaters flo and everyone below the bracket can be paired. */
static int
completes(struct work *w)
{
	int k = 0;
	if (w->rest_from == w->nact) /* the last bracket: one floater, the bye */
		return w->nflo == w->nact % 2 && (w->nflo == 0 || w->p[w->flo[0]].byeok);
	for (int i = 0; i < w->nflo; i++)
		w->rest[k++] = w->flo[i];
	for (int r = w->rest_from; r < w->nact; r++)
		w->rest[k++] = r;
	return pairable(w, w->rest, k);
}

/* A whole candidate of the bracket: the floaters are the limbo and the
 * final level's S2 players left over. */
static void
leaf_final(struct work *w, int lvl, const int *q0)
{
	struct level *L = &w->lv[lvl];
	int q[NQ];
	memcpy(q, q0, sizeof q);
	w->nflo = 0;
	for (int i = 0; i < w->nlimbo; i++)
		w->flo[w->nflo++] = w->limbo[i];
	for (int j = 0; j < L->n2; j++)
		if (!L->used[j])
			w->flo[w->nflo++] = L->s2[j];
	for (int i = 0; i < w->nflo; i++) {
		q[Q_C12] += w->p[w->flo[i]].fl1 > 0;
		q[Q_C14] += w->p[w->flo[i]].fl2 > 0;
	}
	int c = w->have ? cmpq(w, q, w->psd, w->bestq, w->bestpsd) : -1;
	if (w->phase == 2 && c == 0 && !w->confirmed)
		c = -1; /* the first of its quality in order, in the second pass */
	if (c >= 0)
		return;
	w->nodes += w->nact - w->rest_from + w->nflo;
	if (!completes(w))
		return;
	w->confirmed = w->phase == 2;
	memcpy(w->bestq, q, sizeof q);
	memcpy(w->bestpsd, w->psd, (size_t)w->npsd * sizeof *w->psd);
	memcpy(w->best, w->cur, (size_t)w->ncur * 2 * sizeof *w->cur);
	w->nbest = w->ncur;
	memcpy(w->bestflo, w->flo, (size_t)w->nflo * sizeof *w->flo);
	w->nbestflo = w->nflo;
	w->have = 1;
	if (cmpq(w, q, w->psd, w->glb, w->glbpsd) <= 0)
		w->stop = 1;
}

static void run_level(struct work *w, int lvl, const int *xs, int m, int n1, const int *q);

/* The MDP-pairing is made: the remainder, its most pairs first. */
static void
leaf_mdp(struct work *w, const int *q0)
{
	struct level *L = &w->lv[0], *R = &w->lv[1];
	int m = 0;
	for (int j = 0; j < L->n2; j++)
		if (!L->used[j])
			R->x[m++] = L->s2[j];
	w->nodes += m;
	int np = m > 1 ? max_pairs(w, R->x, m, 0) : 0;
	for (int n1 = np; n1 >= 0 && !w->stop; n1--) {
		/* fewer pairs only cost more: stop where they cannot win */
		int q[NQ];
		memcpy(q, q0, sizeof q);
		q[Q_FLO] = w->nlimbo + m - 2 * n1;
		int c = w->have ? cmpq(w, q, w->psd, w->bestq, w->bestpsd) : -1;
		if (c > 0 || (c == 0 && (w->phase == 1 || w->confirmed)))
			break;
		if (w->phase == 1 && over_target(w, q))
			break;
		run_level(w, 1, R->x, m, n1, q);
	}
}

static void
dfs(struct work *w, int lvl, int i, const int *q)
{
	struct level *L = &w->lv[lvl];
	w->nodes++;
	if (spent(w))
		return;
	/* C3 leaves the players of S1 bound to one colour only the S2
	 * players not bound to it: too few, and no candidate is below */
	if (L->sufwa[i] > L->freeq - L->freewa || L->sufba[i] > L->freeq - L->freeba)
		return;
	/* the floater, one of the S2 players left, must complete the round */
	if (w->okf_on && !w->hetero && L->freeok == 0)
		return;
	int lb[NQ];
	memcpy(lb, q, sizeof lb);
	lb[Q_C10] += max_i(0, L->sufw[i] - (L->freeq - L->freew)) +
	    max_i(0, L->sufb[i] - (L->freeq - L->freeb));
	lb[Q_C11] += max_i(0, L->sufws[i] - (L->freeq - L->freews)) +
	    max_i(0, L->sufbs[i] - (L->freeq - L->freebs));
	if (w->have) {
		int c = cmpq(w, lb, w->psd, w->bestq, w->bestpsd);
		if (c > 0 || (c == 0 && (w->phase == 1 || w->confirmed)))
			return;
	}
	if (w->phase == 1 && over_target(w, lb))
		return;
	if (w->tight && !w->hetero && !extendable(w, L, i))
		return;
	if (i == L->n1) {
		if (lvl == 0 && w->hetero)
			leaf_mdp(w, q);
		else
			leaf_final(w, lvl, q);
		return;
	}
	int a = L->s1[i];
	for (int j = 0; j < L->n2 && !w->stop; j++) {
		int b = L->s2[j];
		if (L->used[j] || !compat(w, a, b))
			continue;
		int nq[NQ], pb = w->p[b].pref, sb = w->p[b].strength >= 2;
		int ab = bound_abs(&w->p[b], pb);
		memcpy(nq, q, sizeof nq);
		pair_cost(w, a, b, lvl == 0 && w->hetero, nq);
		L->used[j] = 1;
		L->freeq--;
		L->freew -= pb > 0;
		L->freeb -= pb < 0;
		L->freews -= pb > 0 && sb;
		L->freebs -= pb < 0 && sb;
		L->freewa -= pb > 0 && ab;
		L->freeba -= pb < 0 && ab;
		L->freeok -= w->okf[b];
		w->cur[2 * w->ncur] = a;
		w->cur[2 * w->ncur + 1] = b;
		w->ncur++;
		dfs(w, lvl, i + 1, nq);
		w->ncur--;
		L->used[j] = 0;
		L->freeq++;
		L->freew += pb > 0;
		L->freeb += pb < 0;
		L->freews += pb > 0 && sb;
		L->freebs += pb < 0 && sb;
		L->freewa += pb > 0 && ab;
		L->freeba += pb < 0 && ab;
		L->freeok += w->okf[b];
	}
}

/* The counts the lower bound reads, for S1 and S2 as set: nothing of S2
 * taken yet. */
static void
count_prefs(const struct work *w, struct level *L)
{
	int n1 = L->n1;
	L->sufw[n1] = L->sufb[n1] = L->sufws[n1] = L->sufbs[n1] = L->sufwa[n1] = L->sufba[n1] = 0;
	for (int i = n1 - 1; i >= 0; i--) {
		const struct sp *x = &w->p[L->s1[i]];
		L->sufw[i] = L->sufw[i + 1] + (x->pref > 0);
		L->sufb[i] = L->sufb[i + 1] + (x->pref < 0);
		L->sufws[i] = L->sufws[i + 1] + (x->pref > 0 && x->strength >= 2);
		L->sufbs[i] = L->sufbs[i + 1] + (x->pref < 0 && x->strength >= 2);
		L->sufwa[i] = L->sufwa[i + 1] + bound_abs(x, 1);
		L->sufba[i] = L->sufba[i + 1] + bound_abs(x, -1);
	}
	L->freew = L->freeb = L->freews = L->freebs = L->freewa = L->freeba = L->freeok = 0;
	L->freeq = L->n2;
	for (int j = 0; j < L->n2; j++) {
		const struct sp *x = &w->p[L->s2[j]];
		L->used[j] = 0;
		L->freew += x->pref > 0;
		L->freeb += x->pref < 0;
		L->freews += x->pref > 0 && x->strength >= 2;
		L->freebs += x->pref < 0 && x->strength >= 2;
		L->freewa += bound_abs(x, 1);
		L->freeba += bound_abs(x, -1);
		L->freeok += w->okf[L->s2[j]];
	}
}

/* Splits x by L->flag into S1 and S2 (each in rank order) and searches. */
static void
search_split(struct work *w, int lvl, const int *q)
{
	struct level *L = &w->lv[lvl];
	L->n1 = L->n2 = 0;
	for (int i = 0; i < L->m; i++) {
		if (L->flag[i])
			L->s1[L->n1++] = L->x[i];
		else
			L->s2[L->n2++] = L->x[i];
	}
	count_prefs(w, L);
	w->nodes += L->m;
	int ncur = w->ncur;
	dfs(w, lvl, 0, q);
	w->ncur = ncur;
}

/* D.2's order of exchanges: fewest players; smallest difference of the
 * sums of the BSNs moved; the highest BSN, of those that differ, moved out
 * of S1; the lowest, of those that differ, moved out of S2. */
static int
cmp_exch(const void *va, const void *vb)
{
	const struct exch *a = va, *b = vb;
	if (a->k != b->k)
		return a->k < b->k ? -1 : 1;
	if (a->d != b->d)
		return a->d < b->d ? -1 : 1;
	uint64_t x = a->out ^ b->out;
	if (x) {
		uint64_t top = x;
		while (top & (top - 1))
			top &= top - 1;
		return a->out & top ? -1 : 1;
	}
	x = a->in ^ b->in;
	if (x)
		return a->in & (x & (~x + 1)) ? -1 : 1;
	return 0;
}

/* The next k-subset of a mask's bits after c, in increasing order. */
static uint64_t
next_subset(uint64_t c)
{
	uint64_t u = c & (~c + 1), v = c + u;
	return v + (((v ^ c) / u) >> 2);
}

/* n choose k, or more than cap. */
static long
choose(int n, int k, long cap)
{
	long c = 1;
	for (int i = 1; i <= k; i++) {
		c = c * (n - k + i) / i;
		if (c > cap)
			return cap + 1;
	}
	return c;
}

static int
mask_sum(uint64_t x)
{
	int s = 0;
	for (int i = 0; x; i++, x >>= 1)
		if (x & 1)
			s += i;
	return s;
}

/* The exchanges of two players or more between S1 = positions 0..n1-1
 * and S2 = n1..m-1, in order, as many sizes as fit in EX_MAX. */
static int
exchanges(struct level *L, int n1, int m)
{
	int n2 = m - n1, ne = 0;
	if (m > EX_PLAYERS)
		return 0;
	for (int k = 2; k <= n1 && k <= n2; k++) {
		long c1 = choose(n1, k, EX_MAX), c2 = choose(n2, k, EX_MAX);
		if (c1 * c2 > EX_MAX - ne)
			break;
		uint64_t first = (UINT64_C(1) << k) - 1;
		for (uint64_t a = first; a < UINT64_C(1) << n1; a = next_subset(a))
			for (uint64_t b = first; b < UINT64_C(1) << n2; b = next_subset(b)) {
				struct exch *e = &L->ex[ne++];
				e->out = a;
				e->in = b << n1;
				e->k = k;
				e->d = mask_sum(e->in) - mask_sum(e->out);
			}
	}
	qsort(L->ex, (size_t)ne, sizeof *L->ex, cmp_exch);
	return ne;
}

/* Sets L->flag for positions in x to v. */
static void
flag_mask(struct level *L, uint64_t x, char v)
{
	for (int i = 0; x; i++, x >>= 1)
		if (x & 1)
			L->flag[i] = v;
}

/*
 * A homogeneous bracket or remainder, xs[0..m) in rank order, n1 pairs:
 * S1 the first n1, then the exchanges in the rules' order (D.2: one for
 * one lazily, larger ones listed and sorted where few enough), each with
 * its transpositions. The level's S1 is the first n1 players of x; with
 * the flags an exchange puts others there.
 */
static void
run_level(struct work *w, int lvl, const int *xs, int m, int n1, const int *q)
{
	struct level *L = &w->lv[lvl];
	if (L->x != xs)
		memcpy(L->x, xs, (size_t)m * sizeof *xs);
	L->m = m;
	for (int i = 0; i < m; i++)
		L->flag[i] = i < n1;
	search_split(w, lvl, q);
	int n2 = m - n1;
	if (n1 == 0 || n2 == 0)
		return;
	/* one for one: the smallest BSN difference, the highest from S1 */
	for (int d = 1; d < m && !w->stop; d++)
		for (int i = n1 - 1; i >= 0 && !w->stop; i--) {
			int j = i + d;
			if (j < n1 || j >= m)
				continue;
			L->flag[i] = 0;
			L->flag[j] = 1;
			search_split(w, lvl, q);
			L->flag[i] = 1;
			L->flag[j] = 0;
		}
	/* more for more, where there are few enough */
	int ne = w->stop ? 0 : exchanges(L, n1, m);
	for (int e = 0; e < ne && !w->stop; e++) {
		flag_mask(L, L->ex[e].out, 0);
		flag_mask(L, L->ex[e].in, 1);
		search_split(w, lvl, q);
		flag_mask(L, L->ex[e].out, 1);
		flag_mask(L, L->ex[e].in, 0);
	}
}

/* The bracket's lower bound: the fewest floaters, and the colour
 * preferences (and the strong ones) that no pairing of that many pairs can
 * grant: of w players who want one colour, at most pairs + floaters can
 * have it. */
static void
bound(struct work *w, const int *bx, int bn, int pairs)
{
	int nw = 0, nb = 0, nws = 0, nbs = 0, f = bn - 2 * pairs;
	for (int i = 0; i < bn; i++) {
		const struct sp *x = &w->p[bx[i]];
		nw += x->pref > 0;
		nb += x->pref < 0;
		nws += x->pref > 0 && x->strength >= 2;
		nbs += x->pref < 0 && x->strength >= 2;
	}
	memset(w->glb, 0, sizeof w->glb);
	w->glb[Q_FLO] = f;
	w->glb[Q_C10] = max_i(0, max_i(nw - f - pairs, nb - f - pairs));
	w->glb[Q_C11] = max_i(0, max_i(nws - f - pairs, nbs - f - pairs));
}

static int
cmp_desc(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return x > y ? -1 : x < y;
}

/* The MDPs' part of the PSD (A.8) into psd: an MDP paired scores its
 * difference to the residents, one in the limbo (a downfloater) its
 * difference to a point under them; highest first. */
static void
mdp_psd(const struct work *w, const struct level *L, int r, int *psd)
{
	int k = 0;
	for (int i = 0; i < L->n1; i++)
		psd[k++] = w->p[L->s1[i]].score - r;
	for (int i = 0; i < w->nlimbo; i++)
		psd[k++] = w->p[w->limbo[i]].score - r + 2;
	qsort(psd, (size_t)k, sizeof *psd, cmp_desc);
}

/* A heterogeneous bracket: mdps[0..m0) over residents res[0..nr); n1 MDPs
 * in S1, the others in the limbo; MDP exchanges one for one (D.3). */
static void
run_hetero(struct work *w, const int *mdps, int m0, const int *res, int nr, int n1)
{
	struct level *L = &w->lv[0];
	int q[NQ] = { 0 };
	q[Q_FLO] = m0 - n1 + (nr - n1) % 2;
	memcpy(L->x, res, (size_t)nr * sizeof *res);
	L->m = nr;
	for (int e = -1; !w->stop; e++) {
		/* exchange e: -1 none, else the e-th by (difference, S1 BSN desc) */
		int ei = -1, ej = -1;
		if (e >= 0) {
			int c = 0;
			for (int d = 1; d < m0 && ei < 0; d++)
				for (int i = n1 - 1; i >= 0; i--)
					if (i + d >= n1 && i + d < m0 && c++ == e) {
						ei = i;
						ej = i + d;
						break;
					}
			if (ei < 0)
				return;
		}
		L->n1 = 0;
		w->nlimbo = 0;
		for (int i = 0; i < m0; i++) {
			int in = (i < n1) != (i == ei || i == ej);
			if (in)
				L->s1[L->n1++] = mdps[i];
			else
				w->limbo[w->nlimbo++] = mdps[i];
		}
		L->n2 = nr;
		memcpy(L->s2, res, (size_t)nr * sizeof *res);
		mdp_psd(w, L, w->p[res[0]].score, w->psd);
		if (e < 0)
			memcpy(w->glbpsd, w->psd, (size_t)m0 * sizeof *w->psd);
		count_prefs(w, L);
		w->nodes += m0 + nr;
		w->ncur = 0;
		dfs(w, 0, 0, q);
		if (n1 == 0 || n1 == m0)
			return;
	}
}

/* Writes a pair (rank positions) with its colours. */
static void
emit(const struct work *w, int a, int b, struct tourney_game *g)
{
	int c = allocate(w, a, b);
	g->round = w->round;
	g->first = w->p[c > 0 ? a : b].idx;
	g->second = w->p[c > 0 ? b : a].idx;
	g->result = TR_PENDING;
}

static void
emit_bye(const struct work *w, int a, struct tourney_game *g)
{
	g->round = w->round;
	g->first = w->p[a].idx;
	g->second = TOURNEY_BYE;
	g->result = TR_BYE;
}

/* One bracket: the most pairs first (MaxPairs, or M1 MDPs paired), fewer
 * only when no candidate completes the round; each in two passes, the
 * first held to the bracket's lower bound (or some slack past it), the
 * second not. w->have says whether it found a candidate. */
static void
search_bracket(struct work *w, const int *mdps, int m0, const int *res, int nr)
{
	int *both = w->rest, top;
	w->have = 0;
	w->gaveup = 0;
	w->hetero = m0 > 0;
	w->npsd = m0;
	if (m0 == 0) {
		top = nr > 1 ? max_pairs(w, res, nr, 0) : 0;
	} else {
		memcpy(both, mdps, (size_t)m0 * sizeof *mdps);
		memcpy(both + m0, res, (size_t)nr * sizeof *res);
		top = max_pairs(w, both, m0 + nr, m0);
	}
	w->tight = m0 == 0 && w->rest_from < w->nact && w->nact - w->rest_from + nr <= SWISS_TIGHT;
	for (int n1 = top; n1 >= 0; n1--) {
		w->okf_on = 0;
		if (m0 == 0 && nr - 2 * n1 == 1 &&
		    (long)nr * (w->nact - w->rest_from + 1) <= SWISS_OKF_WORK) {
			/* one floater: who may be it, each tried once */
			for (int i = 0; i < nr; i++) {
				w->flo[0] = res[i];
				w->nflo = 1;
				w->okf[res[i]] = (char)completes(w);
			}
			w->okf_on = 1;
		}
		if (m0 == 0) {
			bound(w, res, nr, n1);
		} else {
			memcpy(both, mdps, (size_t)m0 * sizeof *mdps);
			memcpy(both + m0, res, (size_t)nr * sizeof *res);
			bound(w, both, m0 + nr, n1 + (nr - n1) / 2);
		}
		w->confirmed = 0;
		for (w->phase = 1; w->phase <= 2; w->phase++) {
			/* the first pass aims at the bound, then ever further past
			 * it, until a candidate is found; the second keeps the best */
			for (w->slack = 0;; w->slack = w->slack ? 2 * w->slack : 1) {
				int q[NQ] = { 0 };
				w->stop = 0;
				w->nodes = 0;
				w->nlimbo = 0;
				w->ncur = 0;
				if (m0 == 0) {
					q[Q_FLO] = nr - 2 * n1;
					run_level(w, 0, res, nr, n1, q);
				} else {
					run_hetero(w, mdps, m0, res, nr, n1);
				}
				if (w->have || w->gaveup || w->phase == 2 || w->slack > m0 + nr)
					break;
			}
			if (w->gaveup ||
			    (w->have && cmpq(w, w->bestq, w->bestpsd, w->glb, w->glbpsd) <= 0))
				break;
		}
		if (w->okf_on)
			memset(w->okf, 0, (size_t)w->nact);
		w->okf_on = 0;
		if (w->have || w->gaveup)
			return;
	}
}

static int
cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return x < y ? -1 : x > y;
}

/* Pairs the round into out: the count, or SWISS_IMPOSSIBLE. */
static int
pair_round(struct work *w, struct tourney_game *out)
{
	int ng = 0, m0 = 0, start = 0;
	for (int r = 0; r < w->nact; r++)
		w->rest[r] = r;
	if (!pairable(w, w->rest, w->nact))
		return SWISS_IMPOSSIBLE;
	while (start < w->nact) {
		int end = start;
		while (end < w->nact && w->p[end].score == w->p[start].score)
			end++;
		int nr = end - start;
		for (int i = 0; i < nr; i++)
			w->res[i] = start + i;
		w->rest_from = end;
		search_bracket(w, w->mdp, m0, w->res, nr);
		if (!w->have && !w->gaveup && m0 > 0 && end == w->nact) {
			/* the last bracket cannot pair its MDPs with its residents
			 * alone: collapsed, paired as one homogeneous bracket */
			memmove(w->res + m0, w->res, (size_t)nr * sizeof *w->res);
			memcpy(w->res, w->mdp, (size_t)m0 * sizeof *w->mdp);
			nr += m0;
			m0 = 0;
			search_bracket(w, w->mdp, 0, w->res, nr);
		}
		if (!w->have) {
			/* past the budget with nothing: a maximum matching of the rest */
			int k = 0;
			for (int i = 0; i < m0; i++)
				w->rest[k++] = w->mdp[i];
			for (int r = start; r < w->nact; r++)
				w->rest[k++] = r;
			if (!pairable(w, w->rest, k))
				return SWISS_IMPOSSIBLE;
			for (int u = 0; u < k; u++) {
				int v = w->mt[u];
				if (v == w->bye)
					emit_bye(w, w->vs[u], &out[ng++]);
				else if (u < v)
					emit(w, w->vs[u], w->vs[v], &out[ng++]);
			}
			return ng;
		}
		for (int i = 0; i < w->nbest; i++)
			emit(w, w->best[2 * i], w->best[2 * i + 1], &out[ng++]);
		m0 = w->nbestflo;
		memcpy(w->mdp, w->bestflo, (size_t)m0 * sizeof *w->mdp);
		qsort(w->mdp, (size_t)m0, sizeof *w->mdp, cmp_int);
		start = end;
	}
	if (m0 > 1) /* the completion test keeps this from happening */
		return SWISS_IMPOSSIBLE;
	if (m0 == 1)
		emit_bye(w, w->mdp[0], &out[ng++]);
	return ng;
}

/* The scratch, laid out twice: to size it (base NULL), then to use it. */
struct arena {
	char *base;
	size_t off;
};

static void *
take(struct arena *a, size_t n, size_t size)
{
	size_t off = (a->off + 15) & ~(size_t)15;
	a->off = off + n * size;
	return a->base ? a->base + off : NULL;
}

/* Per player and earlier round: colour played, points, opponent played,
 * scored more than a loss without playing. */
struct rounds {
	signed char *col;
	unsigned char *pts, *free;
	short *opp;
};

static void
layout(struct work *w, struct arena *a, struct rounds *rd)
{
	size_t k = (size_t)w->nact + 2, nr = (size_t)w->n * TOURNEY_ROUNDS_MAX;
	w->p = take(a, (size_t)w->nact + 1, sizeof *w->p);
	w->met = take(a, ((size_t)w->n * w->n + 7) / 8, 1);
	w->vs = take(a, k, sizeof(int));
	w->mt = take(a, k, sizeof(int));
	w->par = take(a, k, sizeof(int));
	w->base = take(a, k, sizeof(int));
	w->q = take(a, k, sizeof(int));
	w->inq = take(a, k, 1);
	w->bl = take(a, k, 1);
	w->mark = take(a, k, 1);
	for (int l = 0; l < 2; l++) {
		struct level *L = &w->lv[l];
		L->x = take(a, k, sizeof(int));
		L->s1 = take(a, k, sizeof(int));
		L->s2 = take(a, k, sizeof(int));
		L->sufw = take(a, k, sizeof(int));
		L->sufb = take(a, k, sizeof(int));
		L->sufws = take(a, k, sizeof(int));
		L->sufbs = take(a, k, sizeof(int));
		L->sufwa = take(a, k, sizeof(int));
		L->sufba = take(a, k, sizeof(int));
		L->used = take(a, k, 1);
		L->flag = take(a, k, 1);
		L->ex = take(a, EX_MAX, sizeof *L->ex);
	}
	w->limbo = take(a, k, sizeof(int));
	w->flo = take(a, k, sizeof(int));
	w->bestflo = take(a, k, sizeof(int));
	w->rest = take(a, k, sizeof(int));
	w->okf = take(a, k, 1);
	w->vtype = take(a, k, 1);
	w->mdp = take(a, k, sizeof(int));
	w->res = take(a, k, sizeof(int));
	w->cur = take(a, 2 * k, sizeof(int));
	w->best = take(a, 2 * k, sizeof(int));
	w->psd = take(a, k, sizeof(int));
	w->bestpsd = take(a, k, sizeof(int));
	w->glbpsd = take(a, k, sizeof(int));
	rd->col = take(a, nr, 1);
	rd->pts = take(a, nr, 1);
	rd->free = take(a, nr, 1);
	rd->opp = take(a, nr, sizeof(short));
}

static int
by_rank(const void *va, const void *vb)
{
	const struct sp *a = va, *b = vb;
	if (a->score != b->score)
		return a->score > b->score ? -1 : 1;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

/* A player's float in round r (1-based): +1 down, -1 up, 0 none. */
static int
float_in(const struct work *w, const struct rounds *rd, int p, int r)
{
	if (r < 1)
		return 0;
	size_t at = (size_t)p * TOURNEY_ROUNDS_MAX + (size_t)(r - 1);
	if (rd->opp[at] < 0)
		return rd->free[at] ? 1 : 0;
	int sp = 0, so = 0, o = rd->opp[at];
	for (int i = 0; i < r - 1; i++) {
		sp += rd->pts[(size_t)p * TOURNEY_ROUNDS_MAX + (size_t)i];
		so += rd->pts[(size_t)o * TOURNEY_ROUNDS_MAX + (size_t)i];
	}
	(void)w;
	return sp > so ? 1 : sp < so ? -1 : 0;
}

/* Reads the earlier rounds into rd, w->met and the players w->p. */
static void
prepare(struct work *w, const struct tourney_player *pl, const struct tourney_game *games,
    int ngames, struct rounds *rd)
{
	size_t nr = (size_t)w->n * TOURNEY_ROUNDS_MAX;
	memset(rd->col, 0, nr);
	memset(rd->pts, 0, nr);
	memset(rd->free, 0, nr);
	for (size_t i = 0; i < nr; i++)
		rd->opp[i] = -1;
	memset(w->met, 0, ((size_t)w->n * w->n + 7) / 8);
	for (int i = 0; i < ngames; i++) {
		const struct tourney_game *g = &games[i];
		if (g->round < 1 || g->round >= w->round)
			continue;
		size_t r = (size_t)(g->round - 1);
		int pa = g->first, pb = g->second;
		size_t ia = (size_t)pa * TOURNEY_ROUNDS_MAX + r;
		rd->pts[ia] = (unsigned char)tourney_points(g, pa);
		if (g->result == TR_BYE || g->result == TR_SECOND_FORFEIT)
			rd->free[ia] = 1;
		if (pb == TOURNEY_BYE)
			continue;
		size_t ib = (size_t)pb * TOURNEY_ROUNDS_MAX + r;
		rd->pts[ib] = (unsigned char)tourney_points(g, pb);
		if (g->result == TR_FIRST_FORFEIT)
			rd->free[ib] = 1;
		if (!tourney_played(g))
			continue;
		rd->col[ia] = 1;
		rd->col[ib] = -1;
		rd->opp[ia] = (short)pb;
		rd->opp[ib] = (short)pa;
		long ab = (long)pa * w->n + pb, ba = (long)pb * w->n + pa;
		w->met[ab >> 3] |= (unsigned char)(1u << (ab & 7));
		w->met[ba >> 3] |= (unsigned char)(1u << (ba & 7));
	}
	int k = 0, last = w->round == w->rounds;
	for (int p = 0; p < w->n; p++) {
		if (pl[p].withdrawn)
			continue;
		struct sp *x = &w->p[k++];
		memset(x, 0, sizeof *x);
		x->idx = p;
		x->byeok = 1;
		for (int r = 0; r < w->round - 1; r++) {
			size_t at = (size_t)p * TOURNEY_ROUNDS_MAX + (size_t)r;
			x->score += rd->pts[at];
			/* a bye or a forfeit win bars the bye (C.04.1.d) */
			x->byeok &= !rd->free[at];
			if (rd->col[at]) {
				x->hist[x->nplayed++] = rd->col[at];
				x->cd += rd->col[at];
			}
		}
		x->fl1 = float_in(w, rd, p, w->round - 1);
		x->fl2 = float_in(w, rd, p, w->round - 2);
		/* topscorers: over half the most points, in the last round */
		x->top = last && x->score > w->round - 1;
		if (x->nplayed == 0) {
			x->pref = 0;
		} else if (x->cd > 1 || x->cd < -1) {
			x->pref = x->cd > 0 ? -1 : 1;
			x->strength = 3;
		} else if (x->nplayed >= 2 && x->hist[x->nplayed - 1] == x->hist[x->nplayed - 2]) {
			x->pref = -x->hist[x->nplayed - 1];
			x->strength = 3;
		} else if (x->cd != 0) {
			x->pref = -x->cd;
			x->strength = 2;
		} else {
			x->pref = -x->hist[x->nplayed - 1];
			x->strength = 1;
		}
	}
	qsort(w->p, (size_t)k, sizeof *w->p, by_rank);
}

int
swiss_pair(const struct tourney_player *pl, int n, const struct tourney_game *games, int ngames,
    int round, int rounds, struct tourney_game *out, int outmax)
{
	if (n < 0 || n > TOURNEY_PLAYERS_MAX || (n > 0 && !pl) || ngames < 0 ||
	    (ngames > 0 && !games) || rounds > TOURNEY_ROUNDS_MAX || round < 1 || round > rounds)
		return SWISS_EINVAL;
	for (int i = 0; i < ngames; i++) {
		const struct tourney_game *g = &games[i];
		if (g->round < 1 || g->round >= round)
			continue;
		if (g->first < 0 || g->first >= n || g->first == g->second)
			return SWISS_EINVAL;
		if (g->result == TR_BYE ? g->second != TOURNEY_BYE
					: g->second < 0 || g->second >= n)
			return SWISS_EINVAL;
	}
	int nact = 0;
	for (int i = 0; i < n; i++)
		nact += !pl[i].withdrawn;
	if (outmax < (nact + 1) / 2 || (nact > 0 && !out))
		return SWISS_EINVAL;
	if (nact == 0)
		return 0;
	struct work w;
	struct rounds rd;
	struct arena a = { NULL, 0 };
	memset(&w, 0, sizeof w);
	w.n = n;
	w.nact = nact;
	w.round = round;
	w.rounds = rounds;
	w.limit = SWISS_NODES;
	layout(&w, &a, &rd);
	a.base = malloc(a.off + 16);
	if (!a.base)
		return SWISS_EINVAL;
	a.off = 0;
	layout(&w, &a, &rd);
	memset(w.okf, 0, (size_t)nact + 2);
	prepare(&w, pl, games, ngames, &rd);
	int ng = pair_round(&w, out);
	free(a.base);
	return ng;
}
