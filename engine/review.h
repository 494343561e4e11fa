/*
 * review.h: a finished game gone through by the engine (issue 47's
 * post-game review): the score of every position, and marks on the moves
 * where the game turned.
 *
 *   missed win  the mover had a forced win (the engine's score said so,
 *               a five, an open four, a VCF or a VCT it proved) and played
 *               a move after which it had none;
 *   blunder     the move changed the game's expected result: the mover's
 *               win chance fell by at least the given drop (a forced loss
 *               counted as 0, a forced win as 1000), from a position not
 *               already lost (a chance of REVIEW_LOST or more before it)
 *               to one no longer won (less than REVIEW_WON after it);
 *               review_judge_t says how, review_judge the default;
 *   turning     the move that did most for the game's winner: the largest
 *               rise of its win chance across one move (a won game only).
 *
 * Every missed win and blunder carries the engine's move in the position
 * before it and that move's line. Scores are the engine's, in its units
 * (engine.h: from +-ENGINE_WIN_MIN on, forced results); a win chance is
 * the caller's function of a score (the daemon's: engine/winchance.h),
 * per mille, 1000 and 0 kept for forced results.
 *
 * The searches and the marking are apart, so the positions may be
 * searched anywhere (the daemon's bot workers, another node's) and marked
 * where their answers meet: review_mark. review_game does both here, each
 * position with the limits given; with a fixed depth or node budget and
 * no time limit it is deterministic.
 */
#ifndef GOMOKU_REVIEW_H
#define GOMOKU_REVIEW_H

#include <stddef.h>

#include "engine/engine.h"

enum {
	REVIEW_MARKS_MAX = 64,
	REVIEW_LINE_MAX = 16,
	REVIEW_REASON_MAX = 23,
	REVIEW_TEXT_MAX = 16384, /* review_text's longest */
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
	char reason[REVIEW_REASON_MAX + 1]; /* the engine's word for better */
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

/* What the search said of one position, the side to move's view. */
typedef struct {
	move_t best; /* MOVE_NONE: no view of it (no move left) */
	int score;
	char reason[REVIEW_REASON_MAX + 1]; /* the engine's first word for best */
	int nline;
	move_t line[REVIEW_LINE_MAX]; /* best first; may be best alone */
} review_seen_t;

/* The chance, per mille, that the side whose view score is wins. */
typedef int (*review_chance_fn)(int score);
/* chance(score), with forced results 1000 and 0 and any other score 1..999. */
int review_chance(review_chance_fn chance, int score);

/*
 * How a blunder is judged, from the mover's chance per mille
 * (review_chance: a forced loss 0, a forced win 1000) before its move, b,
 * and after it, a (a move the engine would have played, or a missed win,
 * is never a blunder):
 *   b - a >= drop, b >= lost and a < won;
 * or, with forced set (the rule before issue 47's second look), a move
 * into a forced loss from anything but one, whatever b.
 */
typedef struct {
	int drop;
	int lost;   /* 0: a blunder from a lost position too */
	int won;    /* 1001: a blunder into a position still won too */
	int forced; /* a move into a forced loss a blunder whatever the fall */
} review_judge_t;

enum {
	REVIEW_LOST = 100, /* below 10%: the game was lost already */
	REVIEW_WON = 900,  /* from 90% on: the game is still won */
};

/* The default judge of a fall of drop: review_judge_t's drop, REVIEW_LOST,
 * REVIEW_WON, forced 0. */
review_judge_t review_judge(int drop);
/* Whether j judges a move from the mover's score before (its view) to
 * after (its view, the next position's negated) a blunder. */
int review_blunder(const review_judge_t *j, review_chance_fn chance, int before, int after);

/* Called after each position is searched (done of total). */
typedef void (*review_progress_fn)(int done, int total, void *arg);

/*
 * The game moves[0..n) (black first) under rule on a size board: -1 when
 * it is not a legal game; 1 when its last move ended it, with *end the
 * view of the last position (nothing to search); 0 when it did not (all
 * n + 1 positions are searched).
 */
int review_end(rule_t rule, int size, const move_t *moves, int n, review_seen_t *end);
/*
 * Marks the game from seen[0..n], the view of each position (the one
 * before move i, and seen[n] the last: review_end's when it ended the
 * game). drop: the fall of the mover's win chance (per mille) that makes
 * a blunder, judged by review_judge(drop). Returns 0, or -1 when the
 * moves are not a legal game.
 */
int review_mark(rule_t rule, int size, const move_t *moves, int n, const review_seen_t *seen,
    review_chance_fn chance, int drop, review_t *out);
/* The same with the blunders judged by j. */
int review_mark_judged(rule_t rule, int size, const move_t *moves, int n, const review_seen_t *seen,
    review_chance_fn chance, const review_judge_t *j, review_t *out);
/* Every position of the game searched with lim, its view into
 * seen[0..n] (review_end's for the last when the game ended there): 0, or
 * -1 when the moves are not a legal game. */
int review_search(engine_t *e, rule_t rule, int size, const move_t *moves, int n,
    const engine_limits_t *lim, review_progress_fn progress, void *arg, review_seen_t *seen);
/* Both: every position searched with lim, then marked. */
int review_game(engine_t *e, rule_t rule, int size, const move_t *moves, int n,
    const engine_limits_t *lim, review_chance_fn chance, int drop, review_progress_fn progress,
    void *arg, review_t *out);

/*
 * A review as text, as the store keeps it: its plies, every score, the
 * marks with their moves as cell numbers. review_text returns the length
 * (at most REVIEW_TEXT_MAX - 1) or -1; review_read 0, or -1 when text is
 * not one (or names a cell off a size board).
 */
int review_text(const review_t *r, char *buf, size_t cap);
int review_read(const char *text, int size, review_t *r);

#endif
