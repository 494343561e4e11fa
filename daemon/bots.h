/*
 * bots.h: the pool of worker threads that run engine searches for the bots.
 * The event loop submits a job (a copy of the position, the rule, the level
 * and the time budget) and gets the result, and throttled previews of the
 * search, back through callbacks run on the loop thread; it never waits.
 * Each worker owns one engine instance and reuses it from job to job.
 *
 * Fairness: a room (the job's owner) has at most one job in flight, and the
 * queue is first come first served, so between two searches of one room
 * every other waiting room gets one. A review's positions wait behind
 * every bot's move.
 *
 * A pool of no threads is remote: its jobs go to the transport set with
 * bots_set_remote (cluster.c: other nodes' workers through Redis) and come
 * back through bots_remote_done, to the same callbacks, on the loop. A
 * remote job unanswered for BOTS_REMOTE_WAIT_MS(hard_ms) ends with
 * BOTS_LOST; so does one the transport cannot send. No previews come.
 *
 * An opening job (issue 46) asks for a player's act in an opening rule's
 * machine instead of a move: the worker rebuilds the machine from the
 * rule, the log of its acts and the stones, and decides with
 * engine/openbot.h; the act comes back through a bots_act_fn.
 */
#ifndef GOMOKUD_BOTS_H
#define GOMOKUD_BOTS_H

#include <stdint.h>

#include "engine/engine.h"
#include "proto/proto.h"
#include "rules/opening.h"

/* THINK's scores are the engine's, whose forced wins the clients read. */
_Static_assert((int)ENGINE_WIN == (int)PROTO_SCORE_WIN, "THINK's win scores are the engine's");

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
	/* An opening job: opening nonzero; the machine is opening_init(orule,
	 * rule, size) then opening_replay(olog, moves); the bot acts as its
	 * player actor. soft_ms is the whole decision's time. */
	int opening;
	int orule;                  /* opening_rule_t */
	int actor;                  /* 0 or 1 */
	char olog[OPENING_LOG_MAX]; /* opening_log_append's, "" for none */
	/* A review's position (issue 47): it waits behind every other job
	 * (workq_submit_background), so a bot's move waits for reviews at most
	 * until a worker ends the search it runs; and its result carries the
	 * line from a remote worker too (a local pool's results always do). */
	int review;
} bots_job_t;

/* The search's best so far at a completed depth (at most one per preview_ms). */
typedef void (*bots_preview_fn)(uint64_t job, const engine_result_t *r, void *arg);
/* The end of a job: status 0 with r filled, -1 when the engine found no
 * move (illegal position, game over), or BOTS_LOST (remote pools: no
 * worker answered in time, r NULL; ask again). Never called for a
 * cancelled job. */
typedef void (*bots_done_fn)(uint64_t job, int status, const engine_result_t *r, void *arg);

/* The end of an opening job: status 0 with the act (the machine takes
 * it) and why, a short phrase for the log; -1 when the machine could not
 * be rebuilt or waits for no act of that player; BOTS_LOST as above (a
 * NULL). Never called for a cancelled job. */
typedef void (*bots_act_fn)(
    uint64_t job, int status, const opening_act_t *a, const char *why, void *arg);

enum { BOTS_FULL = -1, BOTS_OWNER_BUSY = -2, BOTS_LOST = -3, BOTS_NICE = 10 };

/* A remote job's search may take hard_ms; a worker that took it and said
 * nothing for BOTS_CLAIM_MS(hard_ms) is taken for dead and another takes
 * it; its owner waits for two such tries. */
#define BOTS_GRACE_MS 3000
#define BOTS_CLAIM_MS(hard_ms) ((hard_ms) + BOTS_GRACE_MS)
#define BOTS_REMOTE_WAIT_MS(hard_ms) (2 * BOTS_CLAIM_MS(hard_ms) + BOTS_GRACE_MS)

/* Where a remote pool's jobs go. */
struct bots_remote {
	/* Sends job id: 0, or -1 when it cannot now. */
	int (*send)(void *arg, int64_t id, const bots_job_t *job);
	/* Job id is no longer wanted (cancelled or given up). */
	void (*drop)(void *arg, int64_t id);
	void *arg;
};

/* A pool of `threads` workers (0: remote) and room for `queue_max` waiting
 * jobs (remote: jobs in flight), its wakeup event on base. NULL on failure. */
bots_t *bots_new(struct event_base *base, int threads, int queue_max, int hash_mb, int preview_ms);
/* Stops every search, joins the workers; no callback runs after it. */
void bots_free(bots_t *b);
/* Queues a move's job (job->opening 0; an opening job is refused here
 * with BOTS_FULL: bots_submit_opening). Returns its id (> 0), BOTS_FULL
 * when every worker is busy
 * and the queue is full (tell the player the server is busy), or
 * BOTS_OWNER_BUSY when the owner already has a job in flight. */
int64_t bots_submit(
    bots_t *b, const bots_job_t *job, bots_done_fn done, bots_preview_fn preview, void *arg);
/*
 * Fills j's opening fields for actor's act in o (the rest of j is the
 * caller's): the rule, the board, the stones and log, o's log of the acts
 * that placed no stone (room_opening_log), which opening_replay plays back
 * to o. 0, or -1 when it does not (or would not fit).
 */
int bots_opening_job(bots_job_t *j, const opening_t *o, const char *log, int actor);
/* Queues an opening job (job->opening set): as bots_submit, its end
 * through done. */
int64_t bots_submit_opening(bots_t *b, const bots_job_t *job, bots_act_fn done, void *arg);
/* Drops a job: removed if waiting, stopped if running. Its callbacks are not
 * called after this returns. Unknown or finished ids are ignored. */
void bots_cancel(bots_t *b, int64_t job);
/* Jobs waiting and running now (remote: all in flight are queued). */
void bots_load(bots_t *b, int *queued, int *running);
/* Whether the pool has no workers of its own. */
int bots_remote(const bots_t *b);
/* A remote pool's transport, or NULL: none (its jobs are lost). The
 * transport's jobs in flight are not dropped through it. */
void bots_set_remote(bots_t *b, const struct bots_remote *r);
/* A remote job's result (bots_done_fn): 0, or -1 when id is not in flight
 * (cancelled, given up, never sent: the result is stale, dropped). */
int bots_remote_done(bots_t *b, int64_t id, int status, const engine_result_t *r);
/* A remote opening job's act (bots_act_fn): as bots_remote_done; also -1
 * when id is a move's job (and a move's result for an opening job is -1
 * from bots_remote_done). */
int bots_remote_act_done(bots_t *b, int64_t id, int status, const opening_act_t *a);

#endif
