/*
 * vcf.h: threat-sequence solvers. VCF: the attacker wins by fours only, each
 * answered by the defender's one block. VCT: fours and open threes, the
 * defender trying every reply that stops the open four.
 */
#ifndef GOMOKU_VCF_H
#define GOMOKU_VCF_H

#include "engine/board.h"

#include <stdatomic.h>

enum { VCF_CACHE = 1 << 18, VCF_MAXLINE = 64 };

/*
 * A known result: for the depth-first searches, an attacker node's failure
 * or win and its move; for the proof-number VCT, a node's proof and
 * disproof numbers, and once proven the plies to the five and the move.
 */
typedef struct {
	uint64_t key;
	union {
		struct {
			int16_t rem;  /* failed with this many plies left */
			int16_t win;  /* or won in this many plies; 0 for a failure */
			int16_t move; /* the win's first move */
		} d;
		struct {
			uint32_t pn;
			uint32_t dn; /* once proven (pn 0): plies | move << 8 */
		} p;
	} u;
} vcf_slot_t;

typedef struct {
	board_t *b;
	int att;
	uint64_t nodes, budget;
	int out; /* budget or stop hit: a failure proves nothing */
	const atomic_int *stop[2];
	int64_t deadline_us;       /* tm_now_us() limit, 0 for none */
	vcf_slot_t *cache;         /* VCF_CACHE slots of known results, or NULL */
	uint64_t salt;             /* new per solve: older cache entries never match */
	int16_t line[VCF_MAXLINE]; /* the winning line from the root, cells */
	int len;
} vcf_t;

/* Attacker is the side to move. Returns plies to the five (odd) or 0. */
int vcf_solve(vcf_t *v, int maxply);
/*
 * The same with open threes as well as fours (not as the reply to a five),
 * within the one node budget: a proof-number search to maxply, then, if it
 * disproved the win, the depth-first search deepening from 5 plies by 4.
 * Without a cache, only the depth-first search.
 */
int vct_solve(vcf_t *v, int maxply);
/*
 * The defender to move, just after the attacker's move: the plies from
 * here to the attacker's five (even: the defender's reply counted) when
 * every defence loses within maxply by the rules of vcf_solve (threes 0)
 * or vct_solve's depth-first search (threes 1), else 0. line[0] is then
 * the defence that holds out longest (len 0: none stops the five).
 */
int vcf_defend(vcf_t *v, int maxply, int threes);

#endif
