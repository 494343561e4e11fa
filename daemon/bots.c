/*
 * bots.c: engine searches on the work queue. Each worker's context is an
 * engine instance; a job's progress is the search's best so far, published
 * at most once per preview_ms. An opening job runs engine/openbot.h on the
 * machine it rebuilds, with no previews.
 */
#include "daemon/bots.h"

#include <sys/queue.h>

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <event2/event.h>

#include "daemon/clock.h"
#include "daemon/workq.h"
#include "engine/openbot.h"

/* A job sent to a remote pool's transport. */
struct rjob {
	TAILQ_ENTRY(rjob) link;
	bots_t *b;
	int64_t id;
	uint64_t owner;
	bots_done_fn done;    /* a move's job */
	bots_act_fn act_done; /* or an opening job */
	void *arg;
	struct event *timer; /* gives up on it */
};

struct bots {
	workq_t *q; /* NULL: remote */
	int hash_mb;
	int preview_ms;
	struct event_base *base;
	int queue_max;
	struct bots_remote remote; /* send NULL: none */
	TAILQ_HEAD(, rjob) rjobs;
	int nrjobs;
	int64_t next_id;
};

struct search {
	bots_t *b;
	bots_job_t spec;
	bots_done_fn done;
	bots_act_fn act_done; /* an opening job's, instead of done */
	bots_preview_fn preview;
	void *arg;
	int status;
	engine_result_t result;
	opening_act_t act; /* an opening job's */
	const char *why;
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

/* Whether machine m has reached target t: the same step, colours, swaps,
 * number, offers, branch and stones. */
static int
same_machine(const opening_t *m, const opening_t *t)
{
	return m->step == t->step && m->stage == t->stage && m->actor == t->actor &&
	    m->black == t->black && m->swaps == t->swaps && m->declared == t->declared &&
	    m->branch == t->branch && m->noffers == t->noffers &&
	    memcmp(m->offers, t->offers, sizeof m->offers) == 0 && m->chosen == t->chosen &&
	    m->pos.nmoves == t->pos.nmoves;
}

int
bots_opening_job(bots_job_t *j, const opening_t *o, const char *log, int actor)
{
	opening_t m;
	int used;

	/* the log must play o back, as the worker will */
	if (strlen(log) >= sizeof j->olog ||
	    opening_init(&m, (opening_rule_t)o->rule, (rule_t)o->pos.rule, o->pos.size) !=
		OERR_OK ||
	    opening_replay(&m, log, o->pos.moves, o->pos.nmoves, &used) != OERR_OK ||
	    used != o->pos.nmoves || !same_machine(&m, o))
		return -1;
	snprintf(j->olog, sizeof j->olog, "%s", log);
	j->opening = 1;
	j->orule = o->rule;
	j->actor = actor;
	j->rule = (rule_t)o->pos.rule;
	j->size = o->pos.size;
	j->nmoves = o->pos.nmoves;
	memcpy(j->moves, o->pos.moves, sizeof j->moves[0] * (size_t)o->pos.nmoves);
	return 0;
}

/* An opening job: the machine rebuilt from the job, the act decided on
 * it. Its time: soft_ms, and no more than a tenth of the clock left. */
static void
run_opening(workq_job_t *job, void *ctx, struct search *s)
{
	const bots_job_t *j = &s->spec;
	openbot_limits_t l = openbot_default_limits();
	opening_t o;
	char log[OPENING_LOG_MAX];
	int used;

	s->status = -1;
	memcpy(log, j->olog, sizeof log);
	log[sizeof log - 1] = '\0';
	if (j->orule < 0 || j->orule >= ORULE_COUNT ||
	    opening_init(&o, (opening_rule_t)j->orule, j->rule, j->size) != OERR_OK ||
	    opening_replay(&o, log, j->moves, j->nmoves, &used) != OERR_OK)
		return;
	l.level = j->level;
	l.seed = j->seed;
	l.soft_ms = j->soft_ms;
	if (j->clock_ms > 0 && (l.soft_ms <= 0 || l.soft_ms > j->clock_ms / 10))
		l.soft_ms = j->clock_ms / 10 > 0 ? j->clock_ms / 10 : 1;
	l.max_depth = j->max_depth;
	l.stop = workq_stop_flag(job);
	if (openbot_decide(ctx, &o, j->actor, &l, &s->act, &s->why) == 0)
		s->status = 0;
}

static void
run_search(workq_job_t *job, void *ctx, void *arg)
{
	struct search *s = arg;
	engine_limits_t lim = engine_default_limits();

	/* searches yield the CPU to the event loop: players' moves come first
	 * (raising one's own nice needs no privilege; failure costs only that) */
	(void)setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), BOTS_NICE);
	if (s->spec.opening) {
		run_opening(job, ctx, s);
		return;
	}
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

	if (!cancelled && s->act_done)
		s->act_done(
		    (uint64_t)id, s->status, s->status == 0 ? &s->act : NULL, s->why, s->arg);
	else if (!cancelled)
		s->done((uint64_t)id, s->status, &s->result, s->arg);
	free(s);
}

static void
rjob_free(struct rjob *j)
{
	TAILQ_REMOVE(&j->b->rjobs, j, link);
	j->b->nrjobs--;
	if (j->timer)
		event_free(j->timer);
	free(j);
}

static struct rjob *
rjob_find(bots_t *b, int64_t id)
{
	struct rjob *j;
	TAILQ_FOREACH (j, &b->rjobs, link)
		if (j->id == id)
			return j;
	return NULL;
}

/* No result came in time: the job is dropped and its owner told. */
static void
rjob_expired(evutil_socket_t fd, short what, void *arg)
{
	struct rjob *j = arg;
	bots_t *b = j->b;
	(void)fd;
	(void)what;
	if (b->remote.drop)
		b->remote.drop(b->remote.arg, j->id);
	if (j->act_done)
		bots_remote_act_done(b, j->id, BOTS_LOST, NULL);
	else
		bots_remote_done(b, j->id, BOTS_LOST, NULL);
}

/* A job for the transport: its id, or BOTS_FULL / BOTS_OWNER_BUSY. A job
 * the transport cannot send is in flight all the same and ends BOTS_LOST
 * soon, so its owner retries at its own pace. */
static int64_t
remote_submit(bots_t *b, const bots_job_t *spec, bots_done_fn done, bots_act_fn act_done, void *arg)
{
	struct rjob *j;
	TAILQ_FOREACH (j, &b->rjobs, link)
		if (j->owner == spec->owner)
			return BOTS_OWNER_BUSY;
	if (b->nrjobs >= (b->queue_max > 0 ? b->queue_max : 1) || !(j = calloc(1, sizeof *j)))
		return BOTS_FULL;
	j->b = b;
	j->id = ++b->next_id;
	j->owner = spec->owner;
	j->done = done;
	j->act_done = act_done;
	j->arg = arg;
	if (!(j->timer = evtimer_new(b->base, rjob_expired, j))) {
		free(j);
		return BOTS_FULL;
	}
	TAILQ_INSERT_TAIL(&b->rjobs, j, link);
	b->nrjobs++;
	int sent = b->remote.send && b->remote.send(b->remote.arg, j->id, spec) == 0;
	int ms = sent ? BOTS_REMOTE_WAIT_MS(spec->hard_ms) : BOTS_GRACE_MS / 3;
	struct timeval tv = { ms / 1000, ms % 1000 * 1000 };
	evtimer_add(j->timer, &tv);
	return j->id;
}

int
bots_remote_done(bots_t *b, int64_t id, int status, const engine_result_t *r)
{
	struct rjob *j = rjob_find(b, id);
	if (!j || !j->done)
		return -1;
	bots_done_fn done = j->done;
	void *arg = j->arg;
	rjob_free(j); /* first: done may submit the owner's next job */
	done((uint64_t)id, status, r, arg);
	return 0;
}

int
bots_remote_act_done(bots_t *b, int64_t id, int status, const opening_act_t *a)
{
	struct rjob *j = rjob_find(b, id);
	if (!j || !j->act_done || (status == 0 && !a))
		return -1;
	bots_act_fn done = j->act_done;
	void *arg = j->arg;
	rjob_free(j); /* first: done may submit the owner's next job */
	done((uint64_t)id, status, status == 0 ? a : NULL, "remote", arg);
	return 0;
}

int
bots_remote(const bots_t *b)
{
	return b->q == NULL;
}

void
bots_set_remote(bots_t *b, const struct bots_remote *r)
{
	if (r)
		b->remote = *r;
	else
		memset(&b->remote, 0, sizeof b->remote);
}

bots_t *
bots_new(struct event_base *base, int threads, int queue_max, int hash_mb, int preview_ms)
{
	bots_t *b = calloc(1, sizeof *b);

	if (b == NULL)
		return NULL;
	b->hash_mb = hash_mb;
	b->preview_ms = preview_ms;
	b->base = base;
	b->queue_max = queue_max;
	TAILQ_INIT(&b->rjobs);
	/* ids from the wall clock: a restarted owner takes no result of its
	 * last life's jobs for one of this one's */
	b->next_id = (int64_t)time(NULL) * 1000000;
	if (threads == 0)
		return b;
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
	while (!TAILQ_EMPTY(&b->rjobs))
		rjob_free(TAILQ_FIRST(&b->rjobs));
	workq_free(b->q);
	free(b);
}

/* A job of either kind: done for a move's, act_done for an opening's. */
static int64_t
submit(bots_t *b, const bots_job_t *spec, bots_done_fn done, bots_act_fn act_done,
    bots_preview_fn preview, void *arg)
{
	struct search *s;
	int64_t id;

	if (b->q == NULL)
		return remote_submit(b, spec, done, act_done, arg);
	if ((s = calloc(1, sizeof *s)) == NULL)
		return BOTS_FULL;
	s->b = b;
	s->spec = *spec;
	s->spec.opening = act_done != NULL;
	s->done = done;
	s->act_done = act_done;
	s->preview = act_done ? NULL : preview;
	s->arg = arg;
	id = (spec->review ? workq_submit_background : workq_submit)(
	    b->q, spec->owner, run_search, on_done, s->preview ? on_progress : NULL, s);
	if (id < 0) {
		free(s);
		return id == WORKQ_OWNER_BUSY ? BOTS_OWNER_BUSY : BOTS_FULL;
	}
	return id;
}

int64_t
bots_submit(
    bots_t *b, const bots_job_t *spec, bots_done_fn done, bots_preview_fn preview, void *arg)
{
	if (spec->opening)
		return BOTS_FULL; /* an opening job's end is an act: bots_submit_opening */
	return submit(b, spec, done, NULL, preview, arg);
}

int64_t
bots_submit_opening(bots_t *b, const bots_job_t *spec, bots_act_fn done, void *arg)
{
	bots_job_t j = *spec;
	j.opening = 1;
	return submit(b, &j, NULL, done, NULL, arg);
}

void
bots_cancel(bots_t *b, int64_t job)
{
	struct rjob *j;

	if (b->q) {
		workq_cancel(b->q, job);
		return;
	}
	if ((j = rjob_find(b, job)) != NULL) {
		if (b->remote.drop)
			b->remote.drop(b->remote.arg, job);
		rjob_free(j);
	}
}

void
bots_load(bots_t *b, int *queued, int *running)
{
	if (b->q) {
		workq_load(b->q, queued, running);
		return;
	}
	*queued = b->nrjobs;
	*running = 0;
}
