/* timeman.h: turns soft/hard limits and a game clock into search deadlines. */
#ifndef GOMOKU_TIMEMAN_H
#define GOMOKU_TIMEMAN_H

#include <stdint.h>

typedef struct {
	int64_t start_us;
	int64_t soft_us; /* no new depth after 60% of this (all of it if == hard) */
	int64_t hard_us; /* abort the search here; INT64_MAX when unlimited */
} timeman_t;

int64_t tm_now_us(void);
/* soft_ms, hard_ms, clock_ms, inc_ms: 0 or less means unset. */
void tm_start(timeman_t *t, int soft_ms, int hard_ms, int clock_ms, int inc_ms, int nmoves);
int64_t tm_elapsed_us(const timeman_t *t);
/* Whether an iteration may start after the last completed one. */
int tm_may_deepen(const timeman_t *t);
int tm_over_hard(const timeman_t *t);

#endif
