/*
 * bots.h: the pool of worker threads that run engine searches for the bots.
 * The event loop submits a job (a copy of the position, the rule, the level
 * and the time budget) and gets the result, and throttled previews of the
 * search, back through callbacks run on the loop thread; it never waits.
 * Each worker owns one engine instance and reuses it from job to job.
 *
 * Fairness: a room (the job's owner) has at most one job in flight, and the
 * queue is first come first served, so between two searches of one room
 * every other waiting room gets one.
 */
#ifndef GOMOKUD_BOTS_H
#define GOMOKUD_BOTS_H

#include <stdint.h>

#include "engine/engine.h"

struct event_base;
typedef struct bots bots_t;

typedef struct {
	uint64_t owner; /* the room; one job in flight per owner */
	rule_t rule;
	int size;
	int nmoves;
	move_t moves[RULES_CELLS]; /* the game so far, black first */
	int level;                 /* 1..10 */
	int soft_ms, hard_ms;      /* this move's budget; 0 = none */
	int clock_ms, inc_ms;      /* the bot's game clock; 0 = none */
	int max_depth;             /* 0 = none */
	int nbest;                 /* candidates in the previews */
	uint32_t seed;
} bots_job_t;

/* The search's best so far at a completed depth (at most one per preview_ms). */
typedef void (*bots_preview_fn)(uint64_t job, const engine_result_t *r, void *arg);
/* The end of a job: status 0 with r filled, or -1 when the engine found no
 * move (illegal position, game over). Never called for a cancelled job. */
typedef void (*bots_done_fn)(uint64_t job, int status, const engine_result_t *r, void *arg);

enum { BOTS_FULL = -1, BOTS_OWNER_BUSY = -2, BOTS_NICE = 10 };

/* A pool of `threads` workers and room for `queue_max` waiting jobs, its
 * wakeup event on base. NULL on failure. */
bots_t *bots_new(struct event_base *base, int threads, int queue_max, int hash_mb, int preview_ms);
/* Stops every search, joins the workers; no callback runs after it. */
void bots_free(bots_t *b);
/* Queues a job. Returns its id (> 0), BOTS_FULL when every worker is busy
 * and the queue is full (tell the player the server is busy), or
 * BOTS_OWNER_BUSY when the owner already has a job in flight. */
int64_t bots_submit(
    bots_t *b, const bots_job_t *job, bots_done_fn done, bots_preview_fn preview, void *arg);
/* Drops a job: removed if waiting, stopped if running. Its callbacks are not
 * called after this returns. Unknown or finished ids are ignored. */
void bots_cancel(bots_t *b, int64_t job);
/* Jobs waiting and running now. */
void bots_load(bots_t *b, int *queued, int *running);

#endif
