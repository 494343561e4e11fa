/*
 * timeman.h: turns soft/hard limits and a game clock into search deadlines,
 * and splits the move's time between the root solvers, the search and the
 * check of its move.
 */
#ifndef GOMOKU_TIMEMAN_H
#define GOMOKU_TIMEMAN_H

#include <stdint.h>

typedef struct {
	int64_t start_us;
	int64_t soft_us; /* no new depth after 60% of this (all of it if == hard) */
	int64_t hard_us; /* abort the search here; INT64_MAX when unlimited */
	int64_t move_soft_us, move_hard_us; /* the move's limits, as tm_start set them */
} timeman_t;

int64_t tm_now_us(void);
/* soft_ms, hard_ms, clock_ms, inc_ms: 0 or less means unset. */
void tm_start(timeman_t *t, int soft_ms, int hard_ms, int clock_ms, int inc_ms, int nmoves);
int64_t tm_elapsed_us(const timeman_t *t);
/* Whether an iteration may start after the last completed one. */
int tm_may_deepen(const timeman_t *t);
int tm_over_hard(const timeman_t *t);
/* Whether the move has a hard limit. */
int tm_timed(const timeman_t *t);
/* Whether the soft limit is at least ms, or there is none. */
int tm_at_least(const timeman_t *t, int ms);
/* The soft limit in ms; 0 when there is none. */
int64_t tm_soft_ms(const timeman_t *t);
/* When the root solvers stop (tm_now_us): after 30% of the move's time,
 * the rest being the search's; 0 when the move is untimed. */
int64_t tm_solver_deadline(const timeman_t *t);
/*
 * Ends the search early to keep time for checking its move: at 3/4 of the
 * hard limit when the check is big, 9/10 otherwise; given the whole budget
 * (soft == hard), new depths start until 85% of it.
 */
void tm_keep_for_check(timeman_t *t, int big);
/*
 * Gives the move its limits back and returns when the check of the
 * search's move ends (tm_now_us): at 95% of the hard limit when big or
 * given the whole budget; otherwise at the soft limit, but at least a
 * tenth of it from now, so that with a game clock the moves do not grow
 * longer.
 */
int64_t tm_check_deadline(timeman_t *t, int big);

#endif
