/* movegen.h: candidate moves, forced replies and threat queries. */
#ifndef GOMOKU_MOVEGEN_H
#define GOMOKU_MOVEGEN_H

#include "engine/board.h"

enum { MAX_MOVES = RULES_CELLS };

/* Whether colour c has an empty cell of class >= mincls it may play. */
int has_real(board_t *b, int c, int mincls);
/* Empty cells of class >= mincls for c that c may play; returns the count. */
int find_real(board_t *b, int c, int mincls, int16_t *out, int max);
/*
 * Replies for the side to move c when the opponent can make an open four or
 * a double four (and has no five): every move after which the opponent
 * cannot, plus c's own fours. Returns the count; 0 means lost.
 */
int gen_defences(board_t *b, int c, int16_t *out);
/* Ordinary candidates for c: empty cells within two of a stone (the centre
 * on an empty board), minus c's forbidden points. */
int gen_moves(board_t *b, int c, int16_t *out);

#endif
