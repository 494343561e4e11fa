/*
 * review.h: a finished game gone through by the engine (issue 47's
 * post-game review): the score of every position, and marks on the moves
 * where the game turned.
 *
 *   missed win  the mover had a forced win (the engine's score said so,
 *               a five, an open four, a VCF or a VCT it proved) and played
 *               a move after which it had none;
 *   blunder     after the move the opponent has a forced win it did not
 *               have before, or the mover's score fell by at least the
 *               given drop (both scores short of a forced result);
 *   turning     the move that did most for the game's winner: the largest
 *               rise of its score across one move (a won game only).
 *
 * Every missed win and blunder carries the engine's move in the position
 * before it and that move's line. Scores are the engine's, in its units
 * (engine.h: from +-ENGINE_WIN_MIN on, forced results). The search of each
 * position takes the limits given; with a fixed depth or node budget and
 * no time limit a review is deterministic.
 */
#ifndef GOMOKU_REVIEW_H
#define GOMOKU_REVIEW_H

#include "engine/engine.h"

enum {
	REVIEW_MARKS_MAX = 64,
	REVIEW_LINE_MAX = 16,
};

typedef enum {
	REVIEW_MISSED_WIN = 1,
	REVIEW_BLUNDER = 2,
	REVIEW_TURNING = 3,
} review_kind_t;

typedef struct {
	review_kind_t kind;
	int ply;      /* the move marked, moves[ply] */
	stone_t side; /* who played it */
	move_t played;
	move_t better; /* the engine's move before it (MOVE_NONE when it had none) */
	int before;    /* the mover's score before the move (its view) */
	int after;     /* and after it */
	int nline;
	move_t line[REVIEW_LINE_MAX]; /* better's line, from the position before ply */
} review_mark_t;

typedef struct {
	int plies; /* the game's moves */
	int score[RULES_CELLS +
	    1]; /* black's view of the position before move i; [plies]: the end */
	int nmarks;
	review_mark_t mark[REVIEW_MARKS_MAX]; /* by ply; a ply has one mark at most but a turning */
} review_t;

/* Called after each position is searched (done of total). */
typedef void (*review_progress_fn)(int done, int total, void *arg);

/*
 * Reviews the game moves[0..n) (black first) under rule on a size board:
 * every position searched with lim, then marked. drop: the fall of the
 * mover's score that makes a blunder (engine units, > 0). Returns 0, or -1
 * when the moves are not a legal game.
 */
int review_game(engine_t *e, rule_t rule, int size, const move_t *moves, int n,
    const engine_limits_t *lim, int drop, review_progress_fn progress, void *arg, review_t *out);

#endif
