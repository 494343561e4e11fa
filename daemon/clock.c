/* clock.c: monotonic time and the two-sided game clock. */
#include "daemon/clock.h"

#include <time.h>

int64_t
clock_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void
gclock_init(struct gclock *c, int base_s, int inc_s)
{
	c->timed = base_s > 0;
	c->left[0] = c->left[1] = (int64_t)base_s * 1000;
	c->inc = (int64_t)inc_s * 1000;
	c->running = -1;
	c->since = 0;
}

void
gclock_start(struct gclock *c, int side, int64_t now)
{
	gclock_stop(c, now);
	c->running = side;
	c->since = now;
}

int64_t
gclock_stop(struct gclock *c, int64_t now)
{
	if (c->running < 0)
		return 0;
	int s = c->running;
	c->left[s] -= now - c->since;
	if (c->left[s] < 0)
		c->left[s] = 0;
	c->running = -1;
	return c->left[s];
}

int64_t
gclock_left(const struct gclock *c, int side, int64_t now)
{
	if (!c->timed)
		return -1;
	int64_t v = c->left[side];
	if (c->running == side)
		v -= now - c->since;
	return v < 0 ? 0 : v;
}

void
gclock_moved(struct gclock *c, int side, int64_t now)
{
	gclock_stop(c, now);
	if (c->timed)
		c->left[side] += c->inc;
	gclock_start(c, 1 - side, now);
}

void
gclock_set(struct gclock *c, int64_t black_ms, int64_t white_ms)
{
	if (!c->timed)
		return;
	c->left[0] = black_ms;
	c->left[1] = white_ms;
}
