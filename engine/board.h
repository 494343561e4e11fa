/*
 * board.h: the search board. Stones on a padded grid plus, per empty cell and
 * colour, line patterns in four directions, a threat class and a score, all
 * updated incrementally on play/undo. Per-instance; no shared mutable state.
 *
 * Cells are internal indices on a BW x BW grid with a margin of BPAD
 * off-board cells; board_cell/board_move convert from/to rules.h moves.
 */
#ifndef GOMOKU_BOARD_H
#define GOMOKU_BOARD_H

#include "engine/pattern.h"
#include "rules/rules.h"

#include <stdint.h>

enum {
	BPAD = 5,
	BW = RULES_MAX_SIZE + 2 * BPAD,
	BCELLS = BW * BW,
	WALL = 3,
	FCACHE = 1 << 12,
	BOARD_PASS = -1,
};

extern const int board_dir[4]; /* cell offsets of the four directions */

/* What a move changed at one empty cell (one direction), for its undo. */
typedef struct {
	int16_t cell;
	int16_t score[2];
	uint8_t dir, pat[2], cls[2], suspect;
} board_rec_t;

/* The board's totals before a move, for its undo. */
typedef struct {
	int16_t cnt[2][T_COUNT];
	int32_t sum[2];
	int32_t vsum[2][2];
	int nsuspect;
	int nrec; /* board_rec_t entries before the move */
} board_snap_t;

typedef struct {
	int size, rule;
	int nmoves;
	uint64_t hash;
	int32_t sum[2];          /* scores of empty cells, per colour */
	int16_t cnt[2][T_COUNT]; /* empty cells per colour and class */
	pattern_lines_t lt;      /* line patterns of both colours by key */
	const combo_t *ct;       /* pattern_combo_table() */
	int ncells;
	int nsuspect;                   /* empty cells with suspect set */
	int16_t cells[RULES_CELLS];     /* on-board cells in index order */
	int16_t moves[RULES_CELLS + 1]; /* cells played, BOARD_PASS for a pass */
	uint8_t stone[BCELLS];          /* 0 empty, 1 black, 2 white, WALL */
	uint8_t nb[BCELLS];             /* stones within two cells on its lines */
	uint8_t cls[BCELLS][2];         /* T_* for black, white */
	uint8_t suspect[BCELLS];        /* renju black may be forbidden here */
	int16_t score[BCELLS][2];
	uint8_t pat[BCELLS][4][2];
	uint32_t key[BCELLS][4];
	position_t pos; /* mirror for the rules core */
	struct {
		uint64_t key; /* position and cell; low bit the verdict */
	} fcache[FCACHE];     /* renju verdicts already asked for */
	/* the learned table (shapes.h), after the fields the line weights use */
	int shapes;            /* evaluate and order moves by it */
	const shape_t *st;     /* pattern_shape_table(rule) */
	int32_t vsum[2][2];    /* learned values of the empty cells, per colour:
	                           [0] that colour to move, [1] not; with shapes */
	shape_t sh[BCELLS][2]; /* the table's entry per colour, with shapes */
	/* undo: each move's totals (by stone, as pos counts them) and
	 * changed cells, so that taking it back restores rather than
	 * recomputes */
	int nrec;
	board_snap_t snap[RULES_CELLS];
	board_rec_t rec[RULES_CELLS * 40];
} board_t;

static inline int
board_cell(move_t m)
{
	return (rules_y(m) + BPAD) * BW + rules_x(m) + BPAD;
}
static inline move_t
board_move(int c)
{
	return rules_move(c % BW - BPAD, c / BW - BPAD);
}
static inline int
board_to_move(const board_t *b)
{
	return 1 + (b->nmoves & 1);
}

/* Empty cells where colour c has class >= mincls, from the class counts
 * (renju forbidden points included). */
static inline int
board_count(const board_t *b, int c, int mincls)
{
	int n = 0;

	for (int t = mincls; t < T_COUNT; t++)
		n += b->cnt[c - 1][t];
	return n;
}

/* Returns 0, or -1 for a bad rule or size. shapes: value and order moves
 * by the learned table (shapes.h) rather than the cell scores. */
int board_init(board_t *b, rule_t rule, int size, int shapes);
/* Plays colour c on the empty on-board cell. */
void board_play(board_t *b, int cell, int c);
void board_undo(board_t *b);
/* The side to move passes (one pass at a time): the other side moves next
 * on the same stones. Patterns, counts, scores and the hash (of the stones
 * alone) stay as they are; board_unpass takes it back, board_undo must not. */
void board_pass(board_t *b);
void board_unpass(board_t *b);
/* o's empty cells of class >= mincls if c played the empty cell i, without
 * playing it; renju forbidden points are not excluded. */
int board_count_after(const board_t *b, int i, int c, int o, int mincls);
/* o's class at the empty cell q if c played the empty cell i, without
 * playing it. */
int board_class_after(const board_t *b, int i, int c, int q, int o);
/* Whether colour c may not play the empty cell (renju black only). */
int board_forbidden(board_t *b, int cell, int c);
/* Empty cells where colour c has class >= mincls; returns the count. */
int board_find(const board_t *b, int c, int mincls, int16_t *out, int max);
/* The same on the four lines through cell i, five cells each way: where the
 * move just played at i can have made new threats. */
int board_find_near(const board_t *b, int i, int c, int mincls, int16_t *out, int max);
/* Recomputes everything from the stones; 0 when the incremental state agrees. */
int board_verify(const board_t *b);
uint64_t board_zobrist(int cell, int c);

#endif
