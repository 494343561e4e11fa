/*
 * search.c: the engine instance and its search: iterative deepening PVS with
 * aspiration windows, a transposition table, threat-driven move generation
 * (fives, forced blocks, answers to open threes), a quiescence search over
 * fours, late move reductions and pruning, the root's VCF/VCT solvers and
 * the check of the chosen move, and the reason given for it. The levels
 * are skill.c's, the split of the move's time timeman.c's.
 */
#include "engine/engine.h"

#include "engine/board.h"
#include "engine/eval.h"
#include "engine/movegen.h"
#include "engine/skill.h"
#include "engine/timeman.h"
#include "engine/tt.h"
#include "engine/vcf.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	MAX_PLY = 96,
	QMAX = 4,
	INF = 32000,
	DEFAULT_VCT_NODES = 30000,
	GUARD_NODES = 400000,
	CHECK_MIN_MS = 200, /* the opponent's VCT is looked for at the root, and
	                       the move checked, only with at least this */
};
#define WIN ENGINE_WIN
#define WIN_MIN ENGINE_WIN_MIN

struct engine {
	tt_t *tt; /* own_tt, or for a helper its main instance's */
	tt_t own_tt;
	board_t b;
	atomic_int stop_flag;
	const atomic_int *ext_stop;
	int aborted;
	uint64_t nodes, max_nodes;
	timeman_t tm;
	int seldepth;
	int16_t killer[MAX_PLY][2];
	int32_t hist[2][BCELLS];
	int16_t mv[MAX_PLY][MAX_MOVES];
	int32_t mvkey[MAX_PLY][MAX_MOVES];
	int16_t pv[MAX_PLY][MAX_PLY];
	int pvlen[MAX_PLY];
	int nroot;
	int16_t root[MAX_MOVES];
	int rootscore[MAX_MOVES];
	int nbest;
	uint64_t nsolves;
	uint64_t solver_cap;     /* the level's node cap on each root solver */
	int64_t solver_deadline; /* root solvers stop here (tm_now_us), 0 none */
	int8_t lmr[64][64];      /* late move reduction by depth and move number */
	vcf_slot_t vcache[VCF_CACHE];
	vcf_t v;
	/* Lazy SMP: the helpers search the same root beside this instance,
	 * sharing its table; only this one's result counts */
	int nhelpers;
	engine_t *helper[ENGINE_MAX_THREADS - 1];
	int id;      /* 0, or k for helper k */
	int maxd;    /* a helper's depth cap */
	int running; /* a helper's thread was started */
	pthread_t thread;
	uint64_t hnodes; /* the helpers' nodes in this search */
	int hthreads;    /* and how many searched */
	int fixed;       /* depth or node limits without a time limit */
	int only;        /* the root is kept to a list (engine_limits_t.only) */
	int checking;    /* the search's move will be checked after it */
};

/* An instance searching in table shared, or in its own of hash_mb if NULL. */
static engine_t *
instance_new(int hash_mb, tt_t *shared)
{
	engine_t *e = calloc(1, sizeof *e);

	if (!e)
		return NULL;
	e->tt = shared ? shared : &e->own_tt;
	if (!shared && tt_init(&e->own_tt, hash_mb > 0 ? (size_t)hash_mb : 16) < 0) {
		free(e);
		return NULL;
	}
	atomic_init(&e->stop_flag, 0);
	for (int d = 1; d < 64; d++)
		for (int i = 1; i < 64; i++)
			e->lmr[d][i] = (int8_t)(0.25 + log(d) * log(i) / 1.7);
	pattern_init();
	return e;
}

engine_t *
engine_new(int hash_mb)
{
	return instance_new(hash_mb, NULL);
}

size_t
engine_hash_bytes(int hash_mb)
{
	return tt_bytes(hash_mb > 0 ? (size_t)hash_mb : 16);
}

void
engine_free(engine_t *e)
{
	if (!e)
		return;
	engine_set_threads(e, 1);
	if (e->tt == &e->own_tt)
		tt_free(&e->own_tt);
	free(e);
}

int
engine_set_threads(engine_t *e, int n)
{
	if (n < 1)
		n = 1;
	if (n > ENGINE_MAX_THREADS)
		n = ENGINE_MAX_THREADS;
	while (e->nhelpers > n - 1)
		engine_free(e->helper[--e->nhelpers]);
	while (e->nhelpers < n - 1) {
		engine_t *h = instance_new(0, e->tt);
		if (!h)
			return -1;
		h->id = e->nhelpers + 1;
		e->helper[e->nhelpers++] = h;
	}
	return 0;
}

void
engine_clear(engine_t *e)
{
	tt_clear(e->tt);
	memset(e->hist, 0, sizeof e->hist);
	memset(e->vcache, 0, sizeof e->vcache);
	for (int k = 0; k < e->nhelpers; k++)
		memset(e->helper[k]->hist, 0, sizeof e->helper[k]->hist);
}

void
engine_stop(engine_t *e)
{
	atomic_store(&e->stop_flag, 1);
	/* the helpers wind down beside the main search, not after it */
	for (int k = 0; k < e->nhelpers; k++)
		atomic_store(&e->helper[k]->stop_flag, 1);
}

engine_limits_t
engine_default_limits(void)
{
	engine_limits_t l;

	memset(&l, 0, sizeof l);
	l.nbest = 1;
	l.level = 10;
	return l;
}

static int
stopped(engine_t *e)
{
	if (e->aborted)
		return 1;
	if (atomic_load_explicit(&e->stop_flag, memory_order_relaxed) ||
	    (e->ext_stop && atomic_load_explicit(e->ext_stop, memory_order_relaxed)) ||
	    (e->max_nodes && e->nodes >= e->max_nodes) ||
	    ((e->nodes & 255) == 0 && tm_over_hard(&e->tm)))
		e->aborted = 1;
	return e->aborted;
}

static int
to_tt(int v, int ply)
{
	return v >= WIN_MIN ? v + ply : v <= -WIN_MIN ? v - ply : v;
}

static int
from_tt(int v, int ply)
{
	return v >= WIN_MIN ? v - ply : v <= -WIN_MIN ? v + ply : v;
}

static void
pv_update(engine_t *e, int ply, int m)
{
	e->pv[ply][ply] = (int16_t)m;
	for (int k = ply + 1; k < e->pvlen[ply + 1]; k++)
		e->pv[ply][k] = e->pv[ply + 1][k];
	e->pvlen[ply] = e->pvlen[ply + 1] > ply + 1 ? e->pvlen[ply + 1] : ply + 1;
}

/* Picks the best remaining move at index i (selection sort step). */
static int
pick(engine_t *e, int ply, int i, int n)
{
	int16_t *m = e->mv[ply];
	int32_t *k = e->mvkey[ply];
	int bi = i;

	for (int j = i + 1; j < n; j++)
		if (k[j] > k[bi])
			bi = j;
	int16_t tm = m[i];
	int32_t tk = k[i];
	m[i] = m[bi];
	k[i] = k[bi];
	m[bi] = tm;
	k[bi] = tk;
	return m[i];
}

static int search(engine_t *e, int depth, int alpha, int beta, int ply, int pvnode);

/* Static value, then the side to move's fours (each forcing a block). */
static int
qsearch(engine_t *e, int depth, int alpha, int beta, int ply)
{
	board_t *b = &e->b;
	int stm = board_to_move(b);
	int best = evaluate(b), n;
	int16_t *m = e->mv[ply];

	if (best >= beta || depth <= -QMAX)
		return best;
	if (best > alpha)
		alpha = best;
	n = find_real(b, stm, T_B4, m, MAX_MOVES);
	for (int i = 0; i < n; i++)
		e->mvkey[ply][i] = b->cls[m[i]][stm - 1] * 65536 + eval_move(b, m[i], stm);
	for (int i = 0; i < n; i++) {
		int mv = pick(e, ply, i, n);
		board_play(b, mv, stm);
		int v = -search(e, depth - 1, -beta, -alpha, ply + 1, 0);
		board_undo(b);
		if (e->aborted)
			return 0;
		if (v > best) {
			best = v;
			if (v > alpha) {
				alpha = v;
				pv_update(e, ply, mv);
			}
			if (v >= beta)
				break;
		}
	}
	return best;
}

static int
search(engine_t *e, int depth, int alpha, int beta, int ply, int pvnode)
{
	board_t *b = &e->b;
	int stm = board_to_move(b), opp = 3 - stm;
	int16_t f[2];

	e->pvlen[ply] = ply;
	e->nodes++;
	if (ply > e->seldepth)
		e->seldepth = ply;
	if (stopped(e))
		return 0;
	if (b->cnt[stm - 1][T_FIVE])
		return WIN - (ply + 1);
	if (b->nmoves >= b->ncells)
		return 0;
	if (b->cnt[opp - 1][T_FIVE]) {
		/* a five point made by the opponent's last move (an older one
		 * would have been played), so on that move's lines; but a root
		 * kept to a list (engine_limits_t.only) may have left one */
		int k = e->only && ply == 1
		    ? board_find(b, opp, T_FIVE, f, 2)
		    : board_find_near(b, b->moves[b->nmoves - 1], opp, T_FIVE, f, 2);
		if (k >= 2 || board_forbidden(b, f[0], stm))
			return -(WIN - (ply + 2));
		board_play(b, f[0], stm);
		int v = -search(e, depth, -beta, -alpha, ply + 1, pvnode);
		board_undo(b);
		if (v > alpha)
			pv_update(e, ply, f[0]);
		return v;
	}
	if (has_real(b, stm, T_F4))
		return WIN - (ply + 3);
	if (ply >= MAX_PLY - 2)
		return evaluate(b);
	/* the best a side can still do from here */
	if (alpha < -(WIN - (ply + 4)))
		alpha = -(WIN - (ply + 4));
	if (beta > WIN - (ply + 3))
		beta = WIN - (ply + 3);
	if (alpha >= beta)
		return alpha;

	int threat = has_real(b, opp, T_F4);
	if (depth <= 0) {
		/* an open three at a leaf is answered, not stood pat on */
		if (!threat || depth <= -QMAX)
			return qsearch(e, depth, alpha, beta, ply);
	}

	tt_entry_t te;
	int ttmove = -1, ev;
	if (tt_probe(e->tt, b->hash, &te)) {
		ttmove = te.move;
		int tv = from_tt(te.score, ply), bd = te.bound & 3;
		if (!pvnode && te.depth >= depth &&
		    (bd == TT_EXACT || (bd == TT_LOWER && tv >= beta) ||
			(bd == TT_UPPER && tv <= alpha)))
			return tv;
		ev = te.eval;
	} else
		ev = evaluate(b);

	/* static null move: far above beta at low depth and nothing to fear */
	if (!pvnode && !threat && depth <= 3 && beta > -WIN_MIN && beta < WIN_MIN &&
	    ev - 90 * depth >= beta && !has_real(b, opp, T_B4))
		return ev;

	int16_t *m = e->mv[ply];
	int32_t *key = e->mvkey[ply];
	int n = threat ? gen_defences(b, stm, m) : gen_moves(b, stm, m);
	if (n == 0)
		return threat ? -(WIN - (ply + 4)) : 0;
	for (int i = 0; i < n; i++) {
		int c = m[i];
		if (c == ttmove)
			key[i] = 1 << 30;
		else if (c == e->killer[ply][0])
			key[i] = 1 << 28;
		else if (c == e->killer[ply][1])
			key[i] = (1 << 28) - 1;
		else
			key[i] = eval_move(b, c, stm) * 64 + (e->hist[stm - 1][c] >> 4);
	}

	int best = -INF, bestmove = -1, orig_alpha = alpha;
	for (int i = 0; i < n; i++) {
		int c = pick(e, ply, i, n);
		int cs = b->cls[c][stm - 1], co = b->cls[c][opp - 1];
		int quiet = cs < T_B4 && co < T_F3X2;
		if (!pvnode && !threat && quiet && best > -WIN_MIN) {
			/* late move pruning and futility at low depth */
			if (depth <= 8 && i >= 4 + depth * depth)
				continue;
			if (depth <= 4 && ev + 40 + 60 * depth + b->score[c][stm - 1] <= alpha)
				continue;
		}
		int r = 0;
		if (depth >= 2 && i >= 2 && quiet && !threat) {
			r = e->lmr[depth < 63 ? depth : 63][i < 63 ? i : 63];
			if (pvnode)
				r--;
			if (cs >= T_F3 || co >= T_F3)
				r--;
			if (c == e->killer[ply][0] || c == e->killer[ply][1])
				r--;
			if (r > depth - 2)
				r = depth - 2;
			if (r < 0)
				r = 0;
		}
		board_play(b, c, stm);
		int v;
		if (i == 0)
			v = -search(e, depth - 1, -beta, -alpha, ply + 1, pvnode);
		else {
			v = -search(e, depth - 1 - r, -alpha - 1, -alpha, ply + 1, 0);
			if (v > alpha && r)
				v = -search(e, depth - 1, -alpha - 1, -alpha, ply + 1, 0);
			/* also in wide-window non-PV calls (qsearch, forced
			 * blocks): a zero-window result is only a bound */
			if (v > alpha && v < beta)
				v = -search(e, depth - 1, -beta, -alpha, ply + 1, pvnode);
		}
		board_undo(b);
		if (e->aborted)
			return 0;
		if (v > best) {
			best = v;
			bestmove = c;
			if (v > alpha) {
				alpha = v;
				if (pvnode)
					pv_update(e, ply, c);
				if (v >= beta) {
					if (quiet && c != e->killer[ply][0]) {
						e->killer[ply][1] = e->killer[ply][0];
						e->killer[ply][0] = (int16_t)c;
					}
					e->hist[stm - 1][c] += depth * depth;
					if (e->hist[stm - 1][c] > (1 << 20))
						for (int k = 0; k < BCELLS; k++) {
							e->hist[0][k] /= 2;
							e->hist[1][k] /= 2;
						}
					break;
				}
			}
		}
	}
	if (best == -INF) /* everything pruned: cannot happen with i == 0 kept */
		best = alpha;
	tt_store(e->tt, b->hash, bestmove, to_tt(best, ply), ev, depth,
	    best >= beta            ? TT_LOWER
		: best > orig_alpha ? TT_EXACT
				    : TT_UPPER);
	return best;
}

/*
 * Moves root[k] to the front, the others keeping their order; unless it
 * was there already, its PV is the move alone. Returns its score.
 */
static int
root_to_front(engine_t *e, int k)
{
	int16_t m = e->root[k];
	int sc = e->rootscore[k];

	for (int j = k; j > 0; j--) {
		e->root[j] = e->root[j - 1];
		e->rootscore[j] = e->rootscore[j - 1];
	}
	e->root[0] = m;
	e->rootscore[0] = sc;
	if (k) {
		e->pvlen[0] = 1;
		e->pv[0][0] = m;
	}
	return sc;
}

/* One root iteration over the root moves; keeps nbest exact scores on top. */
static int
root_search(engine_t *e, int depth, int alpha, int beta)
{
	board_t *b = &e->b;
	int stm = board_to_move(b), best = -INF;
	int top[ENGINE_MAX_NBEST], ntop = 0;

	e->pvlen[0] = 0;
	for (int i = 0; i < e->nroot; i++) {
		int c = e->root[i], v;
		int a = alpha;
		if (e->nbest > 1)
			a = ntop < e->nbest ? -INF : top[e->nbest - 1];
		if (a < alpha)
			a = alpha;
		board_play(b, c, stm);
		if (i == 0)
			v = -search(e, depth - 1, -beta, -a, 1, 1);
		else {
			v = -search(e, depth - 1, -a - 1, -a, 1, 0);
			if (v > a && v < beta && !e->aborted)
				v = -search(e, depth - 1, -beta, -a, 1, 1);
		}
		board_undo(b);
		if (e->aborted)
			return best;
		e->rootscore[i] = v;
		if (v > a && v < beta) {
			int k = ntop < e->nbest ? ntop++ : e->nbest - 1;
			while (k > 0 && top[k - 1] < v) {
				top[k] = top[k - 1];
				k--;
			}
			top[k] = v;
		}
		if (v > best) {
			best = v;
			root_to_front(e, i);
			pv_update(e, 0, c);
			if (v >= beta)
				return v;
			if (v > alpha && e->nbest == 1)
				alpha = v;
		}
	}
	return best;
}

static void
sort_root(engine_t *e)
{
	/* stable insertion sort by score, best first */
	for (int i = 1; i < e->nroot; i++) {
		int16_t m = e->root[i];
		int s = e->rootscore[i], j = i;
		for (; j > 0 && e->rootscore[j - 1] < s; j--) {
			e->root[j] = e->root[j - 1];
			e->rootscore[j] = e->rootscore[j - 1];
		}
		e->root[j] = m;
		e->rootscore[j] = s;
	}
}

static int
mate_of(int score)
{
	if (score >= WIN_MIN)
		return WIN - score;
	if (score <= -WIN_MIN)
		return -(WIN + score);
	return 0;
}

static void
fill_result(engine_t *e, engine_result_t *r, int depth, int score)
{
	int64_t us = tm_elapsed_us(&e->tm);

	r->best = board_move(e->root[0]);
	r->score = score;
	r->mate = mate_of(score);
	r->depth = depth;
	r->seldepth = e->seldepth;
	r->nodes = e->nodes + e->hnodes;
	r->threads = 1 + e->hthreads;
	r->time_ms = (int)(us / 1000);
	r->nps = us > 0 ? r->nodes * 1000000 / (uint64_t)us : 0;
	r->pvlen = 0;
	for (int k = 0; k < e->pvlen[0] && k < ENGINE_MAX_PV; k++)
		r->pv[r->pvlen++] = board_move(e->pv[0][k]);
	if (r->pvlen == 0) {
		r->pv[0] = r->best;
		r->pvlen = 1;
	}
	r->ncand = 0;
	for (int i = 0; i < e->nroot && i < e->nbest && i < ENGINE_MAX_NBEST; i++) {
		r->cand[r->ncand].move = board_move(e->root[i]);
		r->cand[r->ncand++].score = e->rootscore[i];
	}
}

static void
set_reason(engine_result_t *r, const char *s, int n)
{
	if (n > 0)
		snprintf(r->reason, sizeof r->reason, "%s %d", s, n);
	else
		snprintf(r->reason, sizeof r->reason, "%s", s);
}

/* Why the move was played, judged on the position before it. */
static void
explain(engine_t *e, engine_result_t *r, int c, int solver, int solver_len)
{
	board_t *b = &e->b;
	int stm = board_to_move(b), opp = 3 - stm;
	int cls = b->cls[c][stm - 1];

	if (cls == T_FIVE)
		set_reason(r, "five", 0);
	else if (b->cnt[opp - 1][T_FIVE])
		set_reason(r, "block-five", 0);
	else if (cls >= T_F4)
		set_reason(r, "open-four", 0);
	else if (cls == T_B4F3)
		set_reason(r, "four-three", 0);
	else if (solver == 1)
		set_reason(r, "vcf", solver_len);
	else if (solver == 2 || r->mate > 0)
		set_reason(r, "vct", solver == 2 ? solver_len : r->mate);
	else if (has_real(b, opp, T_F4))
		set_reason(r, "block-open-three", 0);
	else
		set_reason(r, "positional", 0);
}

static int
load(engine_t *e, rule_t rule, int size, const move_t *moves, int n, int shapes)
{
	position_t p;

	if (pos_init(&p, rule, size) < 0 || board_init(&e->b, rule, size, shapes) < 0)
		return -1;
	/* trusted history (its order under renju is the caller's business):
	 * only on the board, on empty points and before a result */
	for (int i = 0; i < n; i++) {
		move_t m = moves[i];
		if (p.outcome.kind != RESULT_ONGOING || m < 0 || m >= RULES_CELLS ||
		    !pos_on_board(&p, rules_x(m), rules_y(m)) || p.cell[m] != STONE_EMPTY)
			return -1;
		pos_place(&p, m);
		board_play(&e->b, board_cell(m), 1 + (i & 1));
	}
	if (p.outcome.kind != RESULT_ONGOING)
		return -1;
	return 0;
}

/* Whether the root solvers must stop: a stop request or their deadline. */
static int
solvers_done(engine_t *e)
{
	return atomic_load_explicit(&e->stop_flag, memory_order_relaxed) ||
	    (e->ext_stop && atomic_load_explicit(e->ext_stop, memory_order_relaxed)) ||
	    (e->solver_deadline && tm_now_us() >= e->solver_deadline);
}

/* Runs a threat solver for the side to move; returns its plies or 0. */
static int
solve(engine_t *e, int threes, uint64_t budget, int maxply)
{
	vcf_t *v = &e->v;

	v->b = &e->b;
	v->att = board_to_move(&e->b);
	v->budget = budget;
	v->stop[0] = &e->stop_flag;
	v->stop[1] = e->ext_stop;
	v->cache = e->vcache;
	v->deadline_us = e->solver_deadline;
	e->nsolves++;
	v->salt = board_zobrist((int)(e->nsolves % BCELLS), 1) + e->nsolves;
	int r = threes ? vct_solve(v, maxply) : vcf_solve(v, maxply);
	e->nodes += v->nodes;
	return r;
}

/*
 * The opponent, given a free move, has a threat win: keeps the first limit
 * root moves after which it has none that budget nodes can prove. Moves
 * the solvers' deadline leaves unchecked are kept; if every move is proven
 * lost, all of them are.
 */
static void
filter_root(engine_t *e, int threes, uint64_t budget, int maxply, int limit)
{
	board_t *b = &e->b;
	int stm = board_to_move(b), kept = 0, i;
	int16_t keep[MAX_MOVES];

	for (i = 0; i < e->nroot && i < limit && !solvers_done(e); i++) {
		board_play(b, e->root[i], stm);
		int r = solve(e, threes, budget, maxply);
		board_undo(b);
		if (!r)
			keep[kept++] = e->root[i];
	}
	for (; i < e->nroot && i < limit; i++)
		keep[kept++] = e->root[i];
	if (kept > 0) {
		memcpy(e->root, keep, (size_t)kept * sizeof keep[0]);
		e->nroot = kept;
	}
}

/*
 * Checks the search's choice with the time kept back: if the opponent's VCT
 * is proven after it, the next moves in search order until the check's
 * deadline, playing the first that is not proven lost. An unproven move is
 * kept: only proofs change the move. Each move gets up to GUARD_NODES; big
 * when the opponent had a VCT before the search (the pre-search check gives
 * each move only a few thousand nodes, too few for the deep ones), which gets the check more time
 * (tm_check_deadline). Otherwise the check is for threats the null-move
 * check before the search did not see.
 */
static void
guard_move(engine_t *e, int big, int *score)
{
	board_t *b = &e->b;
	int stm = board_to_move(b), i;

	e->solver_deadline = tm_check_deadline(&e->tm, big);
	for (i = 0; i < e->nroot && !solvers_done(e); i++) {
		board_play(b, e->root[i], stm);
		int r = solve(e, 1, GUARD_NODES, 29);
		board_undo(b);
		if (!r)
			break;
	}
	if (i == 0 || i >= e->nroot)
		return;
	/* root[0..i-1] lose by force: play root[i], checked or not */
	*score = root_to_front(e, i);
}

/* Readies the instance for a search of the loaded position under l at the
 * level sk; returns the depth cap. */
static int
prepare(engine_t *e, const engine_limits_t *l, const skill_t *sk)
{
	int maxd = l->max_depth > 0 ? l->max_depth : MAX_PLY - 8;

	tm_start(&e->tm, l->soft_ms, l->hard_ms, l->clock_ms, l->inc_ms, e->b.nmoves);
	e->solver_deadline = tm_solver_deadline(&e->tm);
	atomic_store(&e->stop_flag, 0);
	e->ext_stop = l->stop;
	e->aborted = 0;
	e->nodes = 0;
	e->hnodes = 0;
	e->hthreads = 0;
	e->seldepth = 0;
	e->max_nodes = l->max_nodes;
	e->nbest = l->nbest < 1 ? 1 : l->nbest > ENGINE_MAX_NBEST ? ENGINE_MAX_NBEST : l->nbest;
	if (sk->depth && sk->depth < maxd)
		maxd = sk->depth;
	if (sk->nodes && (!e->max_nodes || sk->nodes < e->max_nodes))
		e->max_nodes = sk->nodes;
	e->solver_cap = sk->nodes ? sk->nodes / 4 : UINT64_MAX;
	if (e->nbest < sk->nbest)
		e->nbest = sk->nbest;
	memset(e->killer, -1, sizeof e->killer);
	for (int k = 0; k < BCELLS; k++) {
		e->hist[0][k] /= 4;
		e->hist[1][k] /= 4;
	}
	/* fixed limits without a clock must not depend on earlier searches */
	e->fixed = l->soft_ms <= 0 && l->hard_ms <= 0 && l->clock_ms <= 0 &&
	    (l->max_depth > 0 || l->max_nodes);
	if (e->fixed) {
		tt_clear(e->tt);
		memset(e->hist, 0, sizeof e->hist);
	}
	tt_new_search(e->tt);
	return maxd;
}

/*
 * The move when the side to move has a five, must block the opponent's or
 * has an open four: returns 1 with it alone at the root and *score, 0 when
 * there is none, -1 when no move is left.
 */
static int
root_forced(engine_t *e, int *score)
{
	board_t *b = &e->b;
	int stm = board_to_move(b), opp = 3 - stm;
	int16_t f[2];

	e->nroot = 0;
	if (b->cnt[stm - 1][T_FIVE]) {
		board_find(b, stm, T_FIVE, f, 1);
		e->root[e->nroot++] = f[0];
		*score = WIN - 1;
	} else if (b->cnt[opp - 1][T_FIVE]) {
		int k = board_find(b, opp, T_FIVE, f, 2);
		if (board_forbidden(b, f[0], stm)) {
			/* lost: any legal move */
			if ((e->nroot = gen_moves(b, stm, e->root)) == 0)
				return -1;
			*score = -(WIN - 2);
		} else {
			e->root[e->nroot++] = f[0];
			*score = k >= 2 ? -(WIN - 4) : evaluate(b);
		}
	} else if (find_real(b, stm, T_F4, f, 1)) {
		e->root[e->nroot++] = f[0];
		*score = WIN - 3;
	}
	if (!e->nroot)
		return 0;
	e->pvlen[0] = 1;
	e->pv[0][0] = e->root[0];
	return 1;
}

/* The root moves: the answers to an open three, else every candidate;
 * -1 when there is none. */
static int
root_moves(engine_t *e)
{
	board_t *b = &e->b;
	int stm = board_to_move(b);

	e->nroot = has_real(b, 3 - stm, T_F4) ? gen_defences(b, stm, e->root)
					      : gen_moves(b, stm, e->root);
	if (e->nroot == 0)
		e->nroot = gen_moves(b, stm, e->root);
	return e->nroot ? 0 : -1;
}

/*
 * The root restricted to l->only. Returns 1 when the forced move root_forced
 * found (forced) is among them: it alone stays. Otherwise the root is every
 * one of them the side to move may play, in the order given: 0, or -1 when
 * none is.
 */
static int
root_only(engine_t *e, const engine_limits_t *l, int forced)
{
	board_t *b = &e->b;
	int stm = board_to_move(b), n = 0;
	int16_t keep[MAX_MOVES];

	for (int i = 0; i < l->nonly && n < MAX_MOVES; i++) {
		move_t m = l->only[i];
		if (m < 0 || m >= RULES_CELLS || rules_x(m) >= b->size || rules_y(m) >= b->size)
			continue;
		int c = board_cell(m), dup = 0;
		if (forced && c == e->root[0])
			return 1;
		if (b->stone[c] != 0 || board_forbidden(b, c, stm))
			continue;
		for (int k = 0; k < n && !dup; k++)
			dup = keep[k] == c;
		if (!dup)
			keep[n++] = (int16_t)c;
	}
	memcpy(e->root, keep, (size_t)n * sizeof keep[0]);
	e->nroot = n;
	e->pvlen[0] = 0;
	return n ? 0 : -1;
}

/*
 * The root's threat solvers. A VCF, else a VCT, of the side to move: returns
 * its plies (its line the PV, *kind 1 for a VCF, 2 for a VCT). Otherwise 0,
 * the root moves kept to those after which the opponent, which given a free
 * move had a VCF (or a VCT), has none that the solvers prove; *guard set
 * when it had a VCT under a time limit, for the check after the search.
 */
static int
root_solvers(engine_t *e, const skill_t *sk, uint64_t vct_nodes, int *kind, int *guard)
{
	board_t *b = &e->b;
	int stm = board_to_move(b);
	uint64_t cap = e->solver_cap;
	int r = solve(e, 0, cap < 100000 ? cap : 100000, 40);

	if (r)
		*kind = 1;
	else if (vct_nodes != UINT64_MAX && sk->vct) {
		uint64_t vb = vct_nodes;
		if (!vb) {
			/* about a quarter of the move's time */
			int64_t ms = tm_soft_ms(&e->tm);
			vb = ms > 0 ? (uint64_t)ms * 90 : DEFAULT_VCT_NODES;
			if (vb < DEFAULT_VCT_NODES)
				vb = DEFAULT_VCT_NODES;
		}
		if ((r = solve(e, 1, vb < cap ? vb : cap, 29)))
			*kind = 2;
	}
	if (r) {
		e->root[0] = e->v.line[0];
		e->nroot = 1;
		e->pvlen[0] = e->v.len > 0 ? e->v.len : 1;
		for (int k = 0; k < e->pvlen[0] && k < MAX_PLY; k++)
			e->pv[0][k] = e->v.line[k];
		return r;
	}
	e->aborted = 0;
	board_pass(b);
	int opp_vcf = sk->defend ? solve(e, 0, 20000, 30) : 0;
	board_unpass(b);
	if (opp_vcf)
		filter_root(e, 0, 1500, 30, e->nroot);
	else if (sk->defend && tm_at_least(&e->tm, CHECK_MIN_MS)) {
		board_pass(b);
		int opp_vct = solve(e, 1, 20000, 17);
		board_unpass(b);
		if (opp_vct && !e->v.out) {
			/* only under a time limit: fixed-node searches stay cheap */
			*guard = tm_timed(&e->tm);
			for (int i = 0; i < e->nroot; i++)
				e->rootscore[i] = eval_move(b, e->root[i], stm);
			sort_root(e);
			filter_root(e, 1, 3000, 17, 24);
		}
	}
	e->aborted = 0;
	return 0;
}

/*
 * Iterative deepening up to maxd. From depth 5 (single-PV) each depth
 * starts with a window of 50 around the last score, widened threefold on
 * each side it fails, and fully past 2000. Stops at an abort, a proven
 * result or when the time manager allows no new depth. Returns the last
 * depth completed, its score in *score; 0 when none was, the ordering's
 * favourite then being the move.
 */
static int
iterate(engine_t *e, int maxd, engine_info_fn info, void *arg, int *score)
{
	int done = 0, sc = 0;

	/* half the helpers a depth ahead, so that they spread over two */
	for (int d = 1 + (e->id & 1); d <= maxd; d++) {
		int alpha = -INF, beta = INF, delta = 50, v;
		e->seldepth = 0;
		if (d >= 5 && e->nbest == 1 && sc > -WIN_MIN && sc < WIN_MIN) {
			alpha = sc - delta;
			beta = sc + delta;
		}
		for (;;) {
			v = root_search(e, d, alpha, beta);
			if (e->aborted)
				break;
			if (v <= alpha) {
				alpha = alpha - delta * 3 < -INF ? -INF : alpha - delta * 3;
				delta *= 3;
			} else if (v >= beta) {
				beta = beta + delta * 3 > INF ? INF : beta + delta * 3;
				delta *= 3;
			} else
				break;
			if (delta > 2000) {
				alpha = -INF;
				beta = INF;
			}
		}
		if (e->aborted)
			break;
		sc = v;
		done = d;
		sort_root(e);
		if (info) {
			engine_result_t tmp;
			fill_result(e, &tmp, d, sc);
			set_reason(&tmp, "thinking", 0);
			info(&tmp, arg);
		}
		/* a loss the search sees may be its pruning's: the check after
		 * it gets the time to find a move the solver cannot prove lost */
		if (sc <= -WIN_MIN && e->checking)
			break;
		if (sc >= WIN_MIN || sc <= -WIN_MIN) {
			if (d > mate_of(sc > 0 ? sc : -sc) + 2 || sc >= WIN_MIN)
				break;
		}
		if (!e->id && !tm_may_deepen(&e->tm))
			break;
	}
	if (done == 0) {
		sc = evaluate(&e->b);
		e->pvlen[0] = 1;
		e->pv[0][0] = e->root[0];
	}
	*score = sc;
	return done;
}

static void *
helper_main(void *arg)
{
	engine_t *h = arg;
	int score;

	iterate(h, h->maxd, NULL, NULL, &score);
	return NULL;
}

/* Starts each helper on e's root, unless the limits are fixed: the same
 * board, root moves, limits and deadlines, its own killers and history. A
 * helper whose thread cannot start is left out. */
static void
start_helpers(engine_t *e, int maxd)
{
	/* fixed depth and node limits stay single-threaded, so deterministic */
	if (e->fixed || e->max_nodes)
		return;
	for (int k = 0; k < e->nhelpers; k++) {
		engine_t *h = e->helper[k];
		h->b = e->b;
		h->tm = e->tm;
		/* stopped already if engine_stop came before this */
		atomic_store(&h->stop_flag, atomic_load(&e->stop_flag));
		h->ext_stop = e->ext_stop;
		h->aborted = 0;
		h->nodes = 0;
		h->seldepth = 0;
		h->max_nodes = e->max_nodes;
		h->nbest = 1;
		h->maxd = maxd;
		h->only = e->only;
		memset(h->killer, -1, sizeof h->killer);
		for (int c = 0; c < BCELLS; c++) {
			h->hist[0][c] /= 4;
			h->hist[1][c] /= 4;
		}
		h->nroot = e->nroot;
		memcpy(h->root, e->root, (size_t)e->nroot * sizeof e->root[0]);
		memcpy(h->rootscore, e->rootscore, (size_t)e->nroot * sizeof e->rootscore[0]);
		h->running = pthread_create(&h->thread, NULL, helper_main, h) == 0;
	}
}

/* Stops and joins the helpers, counting their nodes. */
static void
stop_helpers(engine_t *e)
{
	for (int k = 0; k < e->nhelpers; k++) {
		engine_t *h = e->helper[k];
		if (!h->running)
			continue;
		atomic_store(&h->stop_flag, 1);
		pthread_join(h->thread, NULL);
		h->running = 0;
		e->hnodes += h->nodes;
		e->hthreads++;
	}
}

/*
 * The search proper over the root moves: the iterations, the check of the
 * chosen move when the level defends and the move has the time, then the
 * level's noisy pick. Returns the depth completed, the score in *score.
 */
static int
think(engine_t *e, const skill_t *sk, const engine_limits_t *l, int maxd, int guard,
    engine_info_fn info, void *arg, int *score)
{
	board_t *b = &e->b;
	int stm = board_to_move(b), depth;

	for (int i = 0; i < e->nroot; i++)
		e->rootscore[i] = eval_move(b, e->root[i], stm);
	sort_root(e);
	if (e->nroot == 1 && sk->full && !l->max_depth && !l->max_nodes) {
		*score = 0;
		return 1;
	}
	int check = sk->defend && tm_timed(&e->tm) && tm_at_least(&e->tm, CHECK_MIN_MS);
	e->checking = check;
	if (check)
		tm_keep_for_check(&e->tm, guard);
	start_helpers(e, maxd);
	depth = iterate(e, maxd, info, arg, score);
	stop_helpers(e);
	if (check && depth > 0 && *score < WIN_MIN && e->nroot > 1) {
		int lost = *score <= -WIN_MIN;
		guard_move(e, guard || lost, score);
	}
	e->checking = 0;
	if (e->nroot > 1 && *score < WIN_MIN) {
		int n = e->nroot < e->nbest ? e->nroot : e->nbest;
		int k = skill_pick(sk, l->seed, b->nmoves, e->rootscore, n);
		if (k >= 0)
			*score = root_to_front(e, k);
	}
	return depth;
}

/* The root was decided without a search (a five, a forced block, an open
 * four, a solver's line): its moves' scores are that decision's, not those
 * left from the last search, so the candidates say a win as a win. */
static void
decided(engine_t *e, int score)
{
	for (int i = 0; i < e->nroot; i++)
		e->rootscore[i] = score;
}

/* Fills *out with the root's first move, never an unplayable one. */
static int
finish(engine_t *e, engine_result_t *out, int depth, int score, int solver, int plies)
{
	board_t *b = &e->b;

	if (e->nroot < 1 || b->stone[e->root[0]] != 0) {
		e->nroot = gen_moves(b, board_to_move(b), e->root);
		if (e->nroot == 0)
			return -1;
		e->pvlen[0] = 0;
	}
	fill_result(e, out, depth, score);
	if (e->pvlen[0] == 0 || e->pv[0][0] != e->root[0]) {
		out->pv[0] = out->best;
		out->pvlen = 1;
	}
	explain(e, out, e->root[0], solver, plies);
	return 0;
}

/*
 * The moves decided before any search, then the root solvers (from the
 * level that runs them), then the search; every move takes the first of
 * these that gives one.
 */
int
engine_search(engine_t *e, rule_t rule, int size, const move_t *moves, int n,
    const engine_limits_t *lim, engine_info_fn info, void *arg, engine_result_t *out)
{
	engine_limits_t l = lim ? *lim : engine_default_limits();
	const skill_t *sk = skill_of(l.level);
	int score = 0, depth = 1, solver = 0, plies = 0, guard = 0, forced;

	memset(out, 0, sizeof *out);
	if (load(e, rule, size, moves, n, l.eval == ENGINE_EVAL_SHAPES) < 0)
		return -1;
	int maxd = prepare(e, &l, sk);
	if ((forced = root_forced(e, &score)) < 0 || (!forced && !l.only && root_moves(e) < 0))
		return -1;
	e->only = l.only != NULL;
	if (l.only) { /* no solvers: their lines need not start in the list */
		int only = root_only(e, &l, forced && e->nroot == 1);
		if (only < 0)
			return -1;
		if (only == 0)
			depth = think(e, sk, &l, maxd, guard, info, arg, &score);
		else
			decided(e, score);
		return finish(e, out, depth, score, solver, plies);
	}
	if (!forced && sk->vcf && (plies = root_solvers(e, sk, l.vct_nodes, &solver, &guard)))
		score = WIN - plies;
	else if (!forced)
		depth = think(e, sk, &l, maxd, guard, info, arg, &score);
	if (forced || plies)
		decided(e, score);
	return finish(e, out, depth, score, solver, plies);
}
