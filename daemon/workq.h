/*
 * workq.h: worker threads for work that must not run on the event loop
 * (engine searches, password hashing). Each worker keeps a context of its
 * own (an engine instance, say) from job to job. Results and progress come
 * back to the loop thread through a socketpair the loop watches; the loop
 * never waits.
 *
 * Fairness: an owner (a room, a connection) has at most one job in flight,
 * and jobs are served first come first served, so between two jobs of one
 * owner every other waiting owner gets one.
 *
 * Background jobs (workq_submit_background) wait behind every other job:
 * a worker takes one only when no other job waits, so another job waits
 * for a background one at most until a worker finishes what it runs. Each
 * kind has queue_max places of its own.
 *
 * Batches: jobs submitted with workq_submit_batch and the same batch
 * function are taken together when they wait next to each other: a worker
 * that takes one also takes those queued right behind it (up to
 * WORKQ_BATCH_MAX, never past a job of another kind, so the order stays
 * first come first served), runs them in one call, and their done
 * callbacks come in queue order once that call returned. The store thread
 * commits many rooms' writes in one transaction this way (archive.c).
 */
#ifndef GOMOKUD_WORKQ_H
#define GOMOKUD_WORKQ_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

struct event_base;
typedef struct workq workq_t;
typedef struct workq_job workq_job_t;

/* On a worker thread: do the job; ctx is that worker's context. */
typedef void (*workq_run_fn)(workq_job_t *job, void *ctx, void *arg);
/* On the loop thread, once for every accepted job, after run returned (or
 * instead of it, for a job cancelled while waiting): cancelled says whether
 * workq_cancel was called. The place to free arg. */
typedef void (*workq_done_fn)(int64_t id, int cancelled, void *arg);
/* On the loop thread: the newest progress published by a running job. */
typedef void (*workq_progress_fn)(int64_t id, const void *data, void *arg);

/* On a worker thread: do n jobs (1..WORKQ_BATCH_MAX) taken together, in
 * the order they were queued; args[i] is the i-th one's arg. */
typedef void (*workq_batch_fn)(void *ctx, void *const *args, int n);

enum { WORKQ_FULL = -1, WORKQ_OWNER_BUSY = -2, WORKQ_BATCH_MAX = 64 };

/* threads workers, each with ctx_new(ctx_arg) (NULL ctx_new: no context);
 * room for queue_max waiting jobs; progress data of progress_size bytes. */
workq_t *workq_new(struct event_base *base, int threads, int queue_max, void *(*ctx_new)(void *),
    void (*ctx_free)(void *), void *ctx_arg, size_t progress_size);
/* Raises every stop flag, joins the workers, and calls done (cancelled) for
 * every job not yet delivered. */
void workq_free(workq_t *q);
/* Returns the job's id (> 0), WORKQ_FULL when every worker is busy and the
 * queue is full, or WORKQ_OWNER_BUSY when owner has a job in flight. */
int64_t workq_submit(workq_t *q, uint64_t owner, workq_run_fn run, workq_done_fn done,
    workq_progress_fn progress, void *arg);
/* As workq_submit, for a job queued behind every other kind. */
int64_t workq_submit_background(workq_t *q, uint64_t owner, workq_run_fn run, workq_done_fn done,
    workq_progress_fn progress, void *arg);
/* As workq_submit, for a job run by batch with the jobs of the same batch
 * function queued right behind it (no progress). */
int64_t workq_submit_batch(
    workq_t *q, uint64_t owner, workq_batch_fn batch, workq_done_fn done, void *arg);
/* Marks a job cancelled: a waiting one is dropped, a running one has its
 * stop flag raised. Its progress callback is not called after this returns;
 * done comes with cancelled set. Unknown ids are ignored. */
void workq_cancel(workq_t *q, int64_t id);
void workq_load(workq_t *q, int *queued, int *running);

/* From run: publish progress (progress_size bytes, copied). */
void workq_progress(workq_job_t *job, const void *data);
/* From run: nonzero once the job is cancelled or the queue is freed. */
const atomic_int *workq_stop_flag(workq_job_t *job);

#endif
