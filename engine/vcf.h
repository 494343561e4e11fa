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

/* A known result of an attacker node: a failure, or a win and its move. */
typedef struct {
	uint64_t key;
	int16_t rem;               /* failed with this many plies left */
	int16_t win;               /* or won in this many plies; 0 for a failure */
	int16_t move;              /* the win's first move */
} vcf_slot_t;

typedef struct {
	board_t *b;
	int att;
	uint64_t nodes, budget;
	int out;                   /* budget or stop hit: a failure proves nothing */
	const atomic_int *stop[2];
	int64_t deadline_us;       /* tm_now_us() limit, 0 for none */
	vcf_slot_t *cache;         /* VCF_CACHE slots of known results, or NULL */
	uint64_t salt;             /* new per solve: older cache entries never match */
	int16_t line[VCF_MAXLINE]; /* the winning line from the root, cells */
	int len;
} vcf_t;

/* Attacker is the side to move. Returns plies to the five (odd) or 0. */
int vcf_solve(vcf_t *v, int maxply);
/* The same with open threes as well as fours (not as the reply to a five),
 * deepening from 5 plies by 4 up to maxply within the one node budget. */
int vct_solve(vcf_t *v, int maxply);

#endif
