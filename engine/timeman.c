/*
 * timeman.c: with a game clock the move budget is a share of the time left
 * plus most of the increment; the hard limit stays well inside the clock.
 * The root solvers get the first 30% of the move's time; a search whose
 * move is checked afterwards gives up the end of it.
 */
#include "engine/timeman.h"

#include <time.h>

int64_t
tm_now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

void
tm_start(timeman_t *t, int soft_ms, int hard_ms, int clock_ms, int inc_ms, int nmoves)
{
	int64_t soft = soft_ms > 0 ? (int64_t)soft_ms * 1000 : INT64_MAX;
	int64_t hard = hard_ms > 0 ? (int64_t)hard_ms * 1000 : INT64_MAX;

	t->start_us = tm_now_us();
	if (clock_ms > 0) {
		int left = 40 - nmoves / 4;
		if (left < 12)
			left = 12;
		int64_t c = (int64_t)clock_ms * 1000, inc = inc_ms > 0 ? (int64_t)inc_ms * 1000 : 0;
		int64_t share = c / left + inc * 3 / 4;
		int64_t cap = c / 4 + inc / 2;
		if (cap > c - 50000)
			cap = c - 50000;
		if (cap < 1000)
			cap = 1000;
		if (share > cap)
			share = cap;
		if (share < soft)
			soft = share;
		if (cap < hard)
			hard = cap;
	}
	if (soft > hard)
		soft = hard;
	if (soft != INT64_MAX && hard / 3 > soft)
		hard = soft * 3;
	t->soft_us = t->move_soft_us = soft;
	t->hard_us = t->move_hard_us = hard;
}

int64_t
tm_elapsed_us(const timeman_t *t)
{
	return tm_now_us() - t->start_us;
}

int
tm_may_deepen(const timeman_t *t)
{
	if (t->soft_us == INT64_MAX)
		return 1;
	/* soft == hard asks for the whole budget: deepen until the hard limit */
	return tm_elapsed_us(t) < (t->soft_us == t->hard_us ? t->hard_us : t->soft_us * 3 / 5);
}

int
tm_over_hard(const timeman_t *t)
{
	return t->hard_us != INT64_MAX && tm_elapsed_us(t) >= t->hard_us;
}

int
tm_timed(const timeman_t *t)
{
	return t->hard_us != INT64_MAX;
}

int
tm_at_least(const timeman_t *t, int ms)
{
	return t->soft_us >= (int64_t)ms * 1000;
}

int64_t
tm_soft_ms(const timeman_t *t)
{
	return t->soft_us == INT64_MAX ? 0 : t->soft_us / 1000;
}

int64_t
tm_solver_deadline(const timeman_t *t)
{
	if (t->soft_us != INT64_MAX)
		return t->start_us + t->soft_us * 3 / 10;
	if (t->hard_us != INT64_MAX)
		return t->start_us + t->hard_us * 3 / 10;
	return 0;
}

void
tm_keep_for_check(timeman_t *t, int big)
{
	t->hard_us = big ? t->move_hard_us / 4 * 3 : t->move_hard_us / 10 * 9;
	if (t->move_soft_us == t->move_hard_us)
		t->soft_us = t->move_hard_us / 20 * 17;
}

int64_t
tm_check_deadline(timeman_t *t, int big)
{
	int64_t end = t->move_hard_us / 20 * 19;

	t->soft_us = t->move_soft_us;
	t->hard_us = t->move_hard_us;
	if (!big && t->soft_us != t->hard_us) {
		int64_t least = tm_elapsed_us(t) + t->soft_us / 10;
		int64_t want = t->soft_us > least ? t->soft_us : least;
		if (want < end)
			end = want;
	}
	return t->start_us + end;
}
