/* clock.h: game clocks in milliseconds on the monotonic clock. */
#ifndef GOMOKUD_CLOCK_H
#define GOMOKUD_CLOCK_H

#include <stdint.h>

int64_t clock_now_ms(void);

/* Two players' clocks: the running side's time is charged when it stops. */
struct gclock {
	int timed;       /* 0: no time control */
	int64_t left[2]; /* ms, black and white */
	int64_t inc;     /* ms added after each move */
	int running;     /* 0 black, 1 white, -1 stopped */
	int64_t since;   /* when the running side started */
};

void gclock_init(struct gclock *c, int base_s, int inc_s);
/* Starts (or switches to) side's clock at now. */
void gclock_start(struct gclock *c, int side, int64_t now);
/* Charges the running side up to now and stops; returns its time left. */
int64_t gclock_stop(struct gclock *c, int64_t now);
/* side has moved at now: its time is charged, the increment added, and the
 * other side's clock starts. */
void gclock_moved(struct gclock *c, int side, int64_t now);
/* Sets both sides' time left (a game restored as its last move left it). */
void gclock_set(struct gclock *c, int64_t black_ms, int64_t white_ms);
/* The time side has left at now (running or not); -1 when untimed. */
int64_t gclock_left(const struct gclock *c, int side, int64_t now);

#endif
