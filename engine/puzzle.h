/*
 * puzzle.h: a puzzle is a position of a real game where the side to move
 * had a forced win of a stated class and missed it (issue 47): VCF (fours
 * only) or VCT (fours and open threes) within a stated number of plies.
 * The threat solvers (vcf.h) prove it when it is made, and judge each move
 * of whoever solves it: any move after which the win of the class still
 * holds is accepted, not only the one kept, and the defence answers with
 * the reply that holds out longest.
 */
#ifndef GOMOKU_PUZZLE_H
#define GOMOKU_PUZZLE_H

#include <stdint.h>

#include "rules/rules.h"

typedef enum { PUZZLE_VCF = 1, PUZZLE_VCT = 2 } puzzle_class_t;

enum {
	PUZZLE_VCF_PLIES = 31, /* a VCF puzzle's win: at most this many plies to the five */
	PUZZLE_VCT_PLIES = 11, /* a VCT puzzle's */
	PUZZLE_MIN_PLIES = 3,  /* a five in one is no puzzle */
	PUZZLE_LINE_MAX = 64,
};

/* The stated limit of cls's wins. */
int puzzle_plies(puzzle_class_t cls);

/*
 * Whether the side to move in moves[0..n) (a legal game under rule on a
 * size board, not over) wins by cls within maxply, proven within budget
 * nodes: the plies to the five (odd) with the winning line in line (len
 * moves), or 0 when not proven; -1 for a bad position or out of memory.
 */
int puzzle_prove(rule_t rule, int size, const move_t *moves, int n, puzzle_class_t cls, int maxply,
    uint64_t budget, move_t line[PUZZLE_LINE_MAX], int *len);

typedef enum {
	PUZZLE_FIVE = 1,  /* the move made five: solved */
	PUZZLE_HOLDS = 2, /* the win of the class holds after it: *reply answers */
	PUZZLE_FAILS = 3, /* it does not (or is no move of the class): failed */
} puzzle_verdict_t;

/*
 * The side to move in moves[0..n) plays m (legal: the caller asked the
 * rules core) in a puzzle of class cls with maxply plies left: its
 * verdict, and for PUZZLE_HOLDS the defence's reply (the one that holds
 * out longest) and *left, the plies the win then needs at most. -1 for a
 * bad position or out of memory.
 */
int puzzle_answer(rule_t rule, int size, const move_t *moves, int n, puzzle_class_t cls, int maxply,
    uint64_t budget, move_t m, move_t *reply, int *left);

/*
 * The whole solution of a puzzle: the solver's move, the defence's reply
 * (puzzle_answer's), and so on to the five, into line (len moves). The
 * plies to the five, or 0 when the win is not proven at some step (within
 * budget nodes each); -1 as above.
 */
int puzzle_solution(rule_t rule, int size, const move_t *moves, int n, puzzle_class_t cls,
    int maxply, uint64_t budget, move_t line[PUZZLE_LINE_MAX], int *len);

#endif
