/*
 * engine.h: the Gomoku/Renju AI. Any number of instances may search at once
 * (no shared mutable state); each searches in the caller's thread, plus the
 * helper threads engine_set_threads gives it.
 *
 *   engine_t *e = engine_new(64);
 *   engine_limits_t lim = engine_default_limits();
 *   lim.soft_ms = 1000;
 *   engine_result_t r;
 *   if (engine_search(e, RULE_RENJU, 15, moves, n, &lim, NULL, NULL, &r) == 0)
 *       play(r.best);   // r.reason says why, r.score/r.mate how good
 *   engine_free(e);
 */
#ifndef GOMOKU_ENGINE_H
#define GOMOKU_ENGINE_H

#include "rules/rules.h"

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

enum {
	ENGINE_MAX_PV = 64,
	ENGINE_MAX_NBEST = 16,
	ENGINE_WIN = 30000,     /* score of a five now; a win in n plies is WIN - n */
	ENGINE_WIN_MIN = 29000, /* scores beyond +-this are forced wins/losses */
	ENGINE_MAX_THREADS = 64,
};

/* Evaluations: the fitted line weights (weights.h), or the learned value and
 * policy per combination of four line patterns (shapes.h). */
enum { ENGINE_EVAL_LINES = 0, ENGINE_EVAL_SHAPES = 1 };

typedef struct engine engine_t;

typedef struct {
	int soft_ms, hard_ms;   /* time for this move; 0 = none; equal: use it all */
	int clock_ms, inc_ms;   /* game clock left and increment; 0 = none */
	int max_depth;          /* 0 = none */
	uint64_t max_nodes;     /* 0 = none */
	int nbest;              /* candidates reported per depth, 1..ENGINE_MAX_NBEST */
	int level;              /* 1 (weakest) .. 10 (full strength) */
	uint32_t seed;          /* for the noise of levels below 10 */
	uint64_t vct_nodes;     /* root VCT budget; 0 = default, -1 (max) = off */
	int eval;               /* ENGINE_EVAL_*; 0, the default, is LINES */
	const atomic_int *stop; /* optional: nonzero ends the search */
	/* optional: the root plays only these nonly moves (an opening's area,
	 * its offered fifth moves); NULL, the default, is every move. Points
	 * off the board, taken or forbidden to the side to move are left out,
	 * and so are the root's threat solvers; engine_search returns -1 when
	 * none is left. nbest then reports up to that many of these. */
	const move_t *only;
	int nonly;
} engine_limits_t;

typedef struct {
	move_t move;
	int score;
} engine_cand_t;

typedef struct {
	move_t best;
	int score; /* side to move's view */
	int mate;  /* plies to a five: > 0 win, < 0 loss, 0 none */
	int depth, seldepth;
	uint64_t nodes; /* of every thread */
	uint64_t nps;
	int threads; /* that searched: 1, or more under a time limit */
	int time_ms;
	int pvlen;
	move_t pv[ENGINE_MAX_PV];
	int ncand;
	engine_cand_t cand[ENGINE_MAX_NBEST];
	char reason[24]; /* five, block-five, open-four, four-three,
	                             vcf N, vct N, block-open-three, positional */
} engine_result_t;

/* Called from the searching thread after every completed depth. */
typedef void (*engine_info_fn)(const engine_result_t *r, void *arg);

/* An instance with a hash table of engine_hash_bytes(hash_mb). */
engine_t *engine_new(int hash_mb);
/* The bytes of the hash table for hash_mb: a power of two, at most half
 * of hash_mb megabytes (exactly half for a power of two). */
size_t engine_hash_bytes(int hash_mb);
void engine_free(engine_t *e);
/*
 * Searches with n threads (1..ENGINE_MAX_THREADS; 1, the default, is one
 * thread and deterministic): n - 1 helpers search the same root beside the
 * caller's thread, sharing the transposition table (Lazy SMP); the move is
 * still the caller's thread's. Not during a search. Returns 0, or -1 when a
 * helper could not be made (those made are kept).
 */
int engine_set_threads(engine_t *e, int n);
/* Forgets everything learnt (transposition table, history). */
void engine_clear(engine_t *e);
engine_limits_t engine_default_limits(void);
/*
 * Searches the position after moves[0..n) (black first). Returns 0 with *out
 * filled, or -1 when the moves are illegal, the game is over or no move is
 * left. Fixed depth/node limits without a time limit are deterministic.
 */
int engine_search(engine_t *e, rule_t rule, int size, const move_t *moves, int n,
    const engine_limits_t *lim, engine_info_fn info, void *arg, engine_result_t *out);
/*
 * Ends a running search of e: engine_search returns within 50 ms of this call
 * (it polls the flag at every node; the rest is the searching thread getting a
 * CPU). Callable from any thread. tests/promises.h holds the number.
 */
void engine_stop(engine_t *e);

#endif
