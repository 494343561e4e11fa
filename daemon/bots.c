/*
 * bots.c: engine searches on the work queue. Each worker's context is an
 * engine instance; a job's progress is the search's best so far, published
 * at most once per preview_ms.
 */
#include "daemon/bots.h"

#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "daemon/clock.h"
#include "daemon/workq.h"

struct bots {
	workq_t *q;
	int hash_mb;
	int preview_ms;
};

struct search {
	bots_t *b;
	bots_job_t spec;
	bots_done_fn done;
	bots_preview_fn preview;
	void *arg;
	int status;
	engine_result_t result;
	int64_t last_preview_ms; /* worker thread only */
	workq_job_t *job;        /* while running */
};

static void *
engine_ctx_new(void *arg)
{
	return engine_new(*(const int *)arg);
}

static void
engine_ctx_free(void *ctx)
{
	engine_free(ctx);
}

/* Runs on the searching thread after each completed depth. */
static void
on_info(const engine_result_t *r, void *arg)
{
	struct search *s = arg;
	int64_t t = clock_now_ms();

	if (s->preview == NULL || t - s->last_preview_ms < s->b->preview_ms)
		return;
	s->last_preview_ms = t;
	workq_progress(s->job, r);
}

static void
run_search(workq_job_t *job, void *ctx, void *arg)
{
	struct search *s = arg;
	engine_limits_t lim = engine_default_limits();

	/* searches yield the CPU to the event loop: players' moves come first
	 * (raising one's own nice needs no privilege; failure costs only that) */
	(void)setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), BOTS_NICE);
	lim.soft_ms = s->spec.soft_ms;
	lim.hard_ms = s->spec.hard_ms;
	lim.clock_ms = s->spec.clock_ms;
	lim.inc_ms = s->spec.inc_ms;
	lim.max_depth = s->spec.max_depth;
	lim.level = s->spec.level;
	lim.seed = s->spec.seed;
	lim.nbest = s->spec.nbest > 0 ? s->spec.nbest : 1;
	lim.stop = workq_stop_flag(job);
	s->job = job;
	s->last_preview_ms = clock_now_ms() - s->b->preview_ms;
	s->status = engine_search(ctx, s->spec.rule, s->spec.size, s->spec.moves, s->spec.nmoves,
			&lim, on_info, s, &s->result) == 0
	    ? 0
	    : -1;
}

static void
on_progress(int64_t id, const void *data, void *arg)
{
	struct search *s = arg;

	s->preview((uint64_t)id, data, s->arg);
}

static void
on_done(int64_t id, int cancelled, void *arg)
{
	struct search *s = arg;

	if (!cancelled)
		s->done((uint64_t)id, s->status, &s->result, s->arg);
	free(s);
}

bots_t *
bots_new(struct event_base *base, int threads, int queue_max, int hash_mb, int preview_ms)
{
	bots_t *b = calloc(1, sizeof *b);

	if (b == NULL)
		return NULL;
	b->hash_mb = hash_mb;
	b->preview_ms = preview_ms;
	b->q = workq_new(base, threads, queue_max, engine_ctx_new, engine_ctx_free, &b->hash_mb,
	    sizeof(engine_result_t));
	if (b->q == NULL) {
		free(b);
		return NULL;
	}
	return b;
}

void
bots_free(bots_t *b)
{
	if (b == NULL)
		return;
	workq_free(b->q);
	free(b);
}

int64_t
bots_submit(
    bots_t *b, const bots_job_t *spec, bots_done_fn done, bots_preview_fn preview, void *arg)
{
	struct search *s = calloc(1, sizeof *s);
	int64_t id;

	if (s == NULL)
		return BOTS_FULL;
	s->b = b;
	s->spec = *spec;
	s->done = done;
	s->preview = preview;
	s->arg = arg;
	id = workq_submit(b->q, spec->owner, run_search, on_done, preview ? on_progress : NULL, s);
	if (id < 0) {
		free(s);
		return id == WORKQ_OWNER_BUSY ? BOTS_OWNER_BUSY : BOTS_FULL;
	}
	return id;
}

void
bots_cancel(bots_t *b, int64_t job)
{
	workq_cancel(b->q, job);
}

void
bots_load(bots_t *b, int *queued, int *running)
{
	workq_load(b->q, queued, running);
}
