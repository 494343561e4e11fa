/*
 * bots.c: worker threads for engine searches, and the way back to the loop.
 *
 * Workers take jobs from a FIFO under one mutex. A finished job, or a new
 * preview of a running one, is put on a list and a byte is written to a
 * nonblocking socketpair; the loop's read event drains the lists and runs
 * the callbacks. Jobs are freed only on the loop thread, and cancelling sets
 * a flag there (and the worker's stop flag), so a callback never runs for a
 * job after bots_cancel returns.
 */
#include "daemon/bots.h"

#include "daemon/clock.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/event.h>
#include <event2/util.h>

enum job_state { J_QUEUED, J_RUNNING, J_FINISHED };

struct job {
	int64_t id;
	bots_job_t spec;
	bots_done_fn done;
	bots_preview_fn preview;
	void *arg;
	enum job_state state;
	int cancelled;           /* set on the loop thread, under the lock */
	int status;
	engine_result_t result;
	engine_result_t latest;  /* newest preview not yet delivered */
	int in_previews;
	int64_t last_preview_ms; /* worker thread only */
	struct worker *worker;
	struct job *next;        /* queue, or finished list */
	struct job *pnext;       /* previews list */
	struct job *fnext;       /* in-flight list (queued, running, finished) */
};

struct worker {
	bots_t *pool;
	pthread_t thread;
	engine_t *engine;
	atomic_int stop;
	struct job *job;         /* under the lock */
};

/* One preview copied out under the lock, to deliver after it. */
struct delivery {
	struct job *job;
	engine_result_t r;
};

struct bots {
	pthread_mutex_t lock;
	pthread_cond_t more;
	struct job *qhead, *qtail;
	int nqueued, queue_max, nrunning, quit;
	struct job *finished;    /* newest first; reversed on delivery */
	struct job *previews;
	struct job *inflight;
	int64_t next_id;
	int preview_ms;
	int nworkers;
	struct worker *workers;
	struct delivery *scratch; /* nworkers previews */
	evutil_socket_t wake[2];
	struct event *ev;
};

static void
wake_loop(bots_t *b)
{
	char c = 1;

	/* EAGAIN means a wakeup is already pending: enough */
	if (send(b->wake[1], &c, 1, MSG_NOSIGNAL) < 0 && errno != EAGAIN && errno != EINTR)
		return;
}

/* Runs on the searching thread after each completed depth. */
static void
on_info(const engine_result_t *r, void *arg)
{
	struct worker *w = arg;
	bots_t *b = w->pool;
	struct job *j = w->job; /* set before the search, stable during it */
	int64_t t = clock_now_ms();

	if (j->preview == NULL || t - j->last_preview_ms < b->preview_ms)
		return;
	j->last_preview_ms = t;
	pthread_mutex_lock(&b->lock);
	if (!j->cancelled) {
		j->latest = *r;
		if (!j->in_previews) {
			j->in_previews = 1;
			j->pnext = b->previews;
			b->previews = j;
		}
	}
	pthread_mutex_unlock(&b->lock);
	wake_loop(b);
}

static void *
worker_main(void *arg)
{
	struct worker *w = arg;
	bots_t *b = w->pool;

	for (;;) {
		pthread_mutex_lock(&b->lock);
		while (!b->quit && b->qhead == NULL)
			pthread_cond_wait(&b->more, &b->lock);
		if (b->quit) {
			pthread_mutex_unlock(&b->lock);
			break;
		}
		struct job *j = b->qhead;
		b->qhead = j->next;
		if (b->qhead == NULL)
			b->qtail = NULL;
		b->nqueued--;
		b->nrunning++;
		j->state = J_RUNNING;
		j->worker = w;
		w->job = j;
		atomic_store(&w->stop, 0);
		pthread_mutex_unlock(&b->lock);

		engine_limits_t lim = engine_default_limits();
		lim.soft_ms = j->spec.soft_ms;
		lim.hard_ms = j->spec.hard_ms;
		lim.clock_ms = j->spec.clock_ms;
		lim.inc_ms = j->spec.inc_ms;
		lim.max_depth = j->spec.max_depth;
		lim.level = j->spec.level;
		lim.seed = j->spec.seed;
		lim.nbest = j->spec.nbest > 0 ? j->spec.nbest : 1;
		lim.stop = &w->stop;
		j->last_preview_ms = clock_now_ms() - b->preview_ms;
		engine_result_t r;
		memset(&r, 0, sizeof r);
		int status = engine_search(w->engine, j->spec.rule, j->spec.size, j->spec.moves,
		    j->spec.nmoves, &lim, on_info, w, &r);

		pthread_mutex_lock(&b->lock);
		j->status = status == 0 ? 0 : -1;
		j->result = r;
		j->state = J_FINISHED;
		j->next = b->finished;
		b->finished = j;
		w->job = NULL;
		b->nrunning--;
		pthread_mutex_unlock(&b->lock);
		wake_loop(b);
	}
	return NULL;
}

/* Unlinks j from the in-flight list (lock held). */
static void
inflight_remove(bots_t *b, struct job *j)
{
	for (struct job **p = &b->inflight; *p != NULL; p = &(*p)->fnext)
		if (*p == j) {
			*p = j->fnext;
			return;
		}
}

/* The loop side: deliver previews, then finished jobs. */
static void
on_wake(evutil_socket_t fd, short what, void *arg)
{
	bots_t *b = arg;
	char buf[256];
	int n = 0;

	(void)what;
	while (recv(fd, buf, sizeof buf, 0) > 0)
		;
	pthread_mutex_lock(&b->lock);
	for (struct job *j = b->previews; j != NULL; j = j->pnext) {
		j->in_previews = 0;
		/* a finished job's preview is stale: its result follows */
		if (!j->cancelled && j->state == J_RUNNING && n < b->nworkers) {
			b->scratch[n].job = j;
			b->scratch[n].r = j->latest;
			n++;
		}
	}
	b->previews = NULL;
	struct job *fin = NULL;
	while (b->finished != NULL) { /* oldest first */
		struct job *j = b->finished;
		b->finished = j->next;
		j->next = fin;
		fin = j;
	}
	pthread_mutex_unlock(&b->lock);

	/* A callback may cancel a later job: that sets its flag, on this thread. */
	for (int i = 0; i < n; i++) {
		struct job *j = b->scratch[i].job;
		if (!j->cancelled)
			j->preview(j->id, &b->scratch[i].r, j->arg);
	}
	while (fin != NULL) {
		struct job *j = fin;
		fin = j->next;
		pthread_mutex_lock(&b->lock);
		inflight_remove(b, j);
		pthread_mutex_unlock(&b->lock);
		if (!j->cancelled)
			j->done(j->id, j->status, &j->result, j->arg);
		free(j);
	}
}

bots_t *
bots_new(struct event_base *base, int threads, int queue_max, int hash_mb, int preview_ms)
{
	bots_t *b = calloc(1, sizeof *b);

	if (b == NULL || threads < 1 || queue_max < 0)
		goto fail_alloc;
	pthread_mutex_init(&b->lock, NULL);
	pthread_cond_init(&b->more, NULL);
	b->queue_max = queue_max;
	b->preview_ms = preview_ms;
	b->next_id = 1;
	b->wake[0] = b->wake[1] = -1;
	b->workers = calloc((size_t)threads, sizeof *b->workers);
	b->scratch = calloc((size_t)threads, sizeof *b->scratch);
	if (b->workers == NULL || b->scratch == NULL ||
	    evutil_socketpair(AF_UNIX, SOCK_STREAM, 0, b->wake) != 0 ||
	    evutil_make_socket_nonblocking(b->wake[0]) != 0 ||
	    evutil_make_socket_nonblocking(b->wake[1]) != 0 ||
	    evutil_make_socket_closeonexec(b->wake[0]) != 0 ||
	    evutil_make_socket_closeonexec(b->wake[1]) != 0)
		goto fail;
	b->ev = event_new(base, b->wake[0], EV_READ | EV_PERSIST, on_wake, b);
	if (b->ev == NULL || event_add(b->ev, NULL) != 0)
		goto fail;
	for (int i = 0; i < threads; i++) {
		struct worker *w = &b->workers[i];
		w->pool = b;
		atomic_init(&w->stop, 0);
		w->engine = engine_new(hash_mb);
		if (w->engine == NULL || pthread_create(&w->thread, NULL, worker_main, w) != 0) {
			engine_free(w->engine);
			w->engine = NULL;
			goto fail;
		}
		b->nworkers++;
	}
	return b;
fail:
	bots_free(b);
	return NULL;
fail_alloc:
	free(b);
	return NULL;
}

void
bots_free(bots_t *b)
{
	if (b == NULL)
		return;
	pthread_mutex_lock(&b->lock);
	b->quit = 1;
	for (int i = 0; i < b->nworkers; i++)
		atomic_store(&b->workers[i].stop, 1);
	pthread_cond_broadcast(&b->more);
	pthread_mutex_unlock(&b->lock);
	for (int i = 0; i < b->nworkers; i++) {
		pthread_join(b->workers[i].thread, NULL);
		engine_free(b->workers[i].engine);
	}
	while (b->inflight != NULL) {
		struct job *j = b->inflight;
		b->inflight = j->fnext;
		free(j);
	}
	if (b->ev != NULL)
		event_free(b->ev);
	if (b->wake[0] >= 0)
		evutil_closesocket(b->wake[0]);
	if (b->wake[1] >= 0)
		evutil_closesocket(b->wake[1]);
	pthread_cond_destroy(&b->more);
	pthread_mutex_destroy(&b->lock);
	free(b->workers);
	free(b->scratch);
	free(b);
}

int64_t
bots_submit(bots_t *b, const bots_job_t *spec, bots_done_fn done, bots_preview_fn preview,
    void *arg)
{
	struct job *j;
	int64_t id;

	pthread_mutex_lock(&b->lock);
	for (j = b->inflight; j != NULL; j = j->fnext)
		if (j->spec.owner == spec->owner && !j->cancelled) {
			pthread_mutex_unlock(&b->lock);
			return BOTS_OWNER_BUSY;
		}
	if (b->nqueued >= b->queue_max + (b->nworkers - b->nrunning)) {
		pthread_mutex_unlock(&b->lock);
		return BOTS_FULL;
	}
	j = calloc(1, sizeof *j);
	if (j == NULL) {
		pthread_mutex_unlock(&b->lock);
		return BOTS_FULL;
	}
	j->id = id = b->next_id++;
	j->spec = *spec;
	j->done = done;
	j->preview = preview;
	j->arg = arg;
	j->state = J_QUEUED;
	if (b->qtail != NULL)
		b->qtail->next = j;
	else
		b->qhead = j;
	b->qtail = j;
	b->nqueued++;
	j->fnext = b->inflight;
	b->inflight = j;
	pthread_cond_signal(&b->more);
	pthread_mutex_unlock(&b->lock);
	return id;
}

void
bots_cancel(bots_t *b, int64_t id)
{
	struct job *j;

	pthread_mutex_lock(&b->lock);
	for (j = b->inflight; j != NULL && j->id != id; j = j->fnext)
		;
	if (j == NULL || j->cancelled) {
		pthread_mutex_unlock(&b->lock);
		return;
	}
	j->cancelled = 1;
	if (j->state == J_QUEUED) {
		struct job **p;
		for (p = &b->qhead; *p != j; p = &(*p)->next)
			;
		*p = j->next;
		if (b->qtail == j) {
			b->qtail = NULL;
			for (struct job *q = b->qhead; q != NULL; q = q->next)
				b->qtail = q;
		}
		b->nqueued--;
		inflight_remove(b, j);
		free(j);
	} else if (j->state == J_RUNNING) {
		atomic_store(&j->worker->stop, 1);
	}
	/* a finished job is freed, without its callback, when delivered */
	pthread_mutex_unlock(&b->lock);
}

void
bots_load(bots_t *b, int *queued, int *running)
{
	pthread_mutex_lock(&b->lock);
	*queued = b->nqueued;
	*running = b->nrunning;
	pthread_mutex_unlock(&b->lock);
}
