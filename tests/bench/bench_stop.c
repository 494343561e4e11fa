/*
 * bench_stop: how long engine_stop takes to end a running search, the time
 * from the call to engine_search's return, which engine.h promises within
 * PROMISE_ENGINE_STOP_MS (tests/promises.h; test_threads_stop checks that
 * the stop is honoured, never how fast). An unlimited search of a middle
 * game with 1 and with 2 threads, stopped RUNS times each, after its first
 * depth and then 0 to 400 ms more: min, median and max. Figures only,
 * never a pass or a fail (a busy machine makes them longer: the searching
 * thread waits for a CPU).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "engine/engine.h"
#include "tests/promises.h"

enum { RUNS = 15 };

/* The middle game of test_engine's stop test, black first. */
static const int midgame[][2] = { { 7, 7 }, { 8, 8 }, { 8, 7 }, { 6, 7 }, { 7, 8 }, { 7, 6 },
	{ 9, 6 }, { 6, 9 }, { 6, 8 }, { 8, 6 } };

struct run {
	engine_t *e;
	engine_result_t r;
	int rc;
	atomic_int depths;
	atomic_int done;
	double returned_us; /* when engine_search returned */
};

static double
now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static void
count_depth(const engine_result_t *r, void *arg)
{
	struct run *s = arg;
	(void)r;
	atomic_fetch_add(&s->depths, 1);
}

static void *
search(void *arg)
{
	struct run *s = arg;
	enum { N = sizeof midgame / sizeof midgame[0] };
	move_t mv[N];
	for (int i = 0; i < N; i++)
		mv[i] = rules_move(midgame[i][0], midgame[i][1]);
	engine_limits_t l = engine_default_limits();
	s->rc = engine_search(s->e, RULE_FREESTYLE, 15, mv, N, &l, count_depth, s, &s->r);
	s->returned_us = now_us();
	atomic_store(&s->done, 1);
	return NULL;
}

static int
cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* One stop, nap_ms after the search's first depth: its ms, or -1 when the
 * search failed or ended by itself. */
static double
one_stop(engine_t *e, int nap_ms)
{
	struct run s = { .e = e, .rc = -1 };
	struct timespec tick = { 0, 1000000L }, nap = { nap_ms / 1000, nap_ms % 1000 * 1000000L };
	pthread_t t;
	atomic_init(&s.depths, 0);
	atomic_init(&s.done, 0);
	if (pthread_create(&t, NULL, search, &s) != 0)
		return -1;
	while (atomic_load(&s.depths) == 0 && !atomic_load(&s.done))
		nanosleep(&tick, NULL);
	nanosleep(&nap, NULL);
	int running = !atomic_load(&s.done);
	double t0 = now_us();
	engine_stop(e);
	pthread_join(t, NULL);
	return s.rc == 0 && running ? (s.returned_us - t0) / 1e3 : -1;
}

int
main(void)
{
	printf("engine_stop to engine_search's return, an unlimited search stopped %d times "
	       "after its first depth and 0-400 ms more (engine.h promises %d ms):\n",
	    RUNS, PROMISE_ENGINE_STOP_MS);
	for (int threads = 1; threads <= 2; threads++) {
		double ms[RUNS];
		engine_t *e = engine_new(8);
		if (!e || engine_set_threads(e, threads) != 0) {
			printf("bench_stop: no engine with %d threads\n", threads);
			return 1;
		}
		for (int i = 0; i < RUNS; i++)
			if ((ms[i] = one_stop(e, i * 400 / (RUNS - 1))) < 0) {
				printf("bench_stop: the search failed or ended by itself\n");
				return 1;
			}
		engine_free(e);
		qsort(ms, RUNS, sizeof ms[0], cmp);
		printf("  %d thread(s): min %.3f ms, median %.3f ms, max %.3f ms\n", threads, ms[0],
		    ms[RUNS / 2], ms[RUNS - 1]);
	}
	return 0;
}
