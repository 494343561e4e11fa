/*
 * workq.c: worker threads, and the way back to the loop.
 *
 * Workers take jobs from a FIFO under one mutex. A finished job, or new
 * progress of a running one, is put on a list and a byte is written to a
 * nonblocking socketpair; the loop's read event drains the lists and runs
 * the callbacks. Jobs are freed only on the loop thread; cancelling sets a
 * flag there (and the worker's stop flag), so progress never reaches the
 * loop for a job after workq_cancel returns.
 */
#include "daemon/workq.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/event.h>
#include <event2/util.h>

enum job_state { J_QUEUED, J_RUNNING, J_FINISHED };

struct workq_job {
	int64_t id;
	uint64_t owner;
	workq_run_fn run;
	workq_batch_fn batch; /* instead of run: taken with its neighbours */
	workq_done_fn done;
	workq_progress_fn progress;
	void *arg;
	enum job_state state;
	int background;  /* queued behind every other job */
	int cancelled;   /* set on the loop thread, under the lock */
	int in_progress; /* on the progress list */
	struct worker *worker;
	struct workq_job *next;  /* queue, or finished list */
	struct workq_job *pnext; /* progress list */
	struct workq_job *fnext; /* in flight: queued, running or undelivered */
	unsigned char latest[];  /* newest progress not yet delivered */
};

struct worker {
	workq_t *q;
	pthread_t thread;
	void *ctx;
	atomic_int stop;
	int started;
};

struct workq {
	pthread_mutex_t lock;
	pthread_cond_t more;
	/* the queue: the other jobs first come first served, then the
	 * background ones; qfg is the last of the others (NULL: none) */
	struct workq_job *qhead, *qtail, *qfg;
	int nqueued, nbackground, queue_max, nrunning, quit;
	int nbusy;                  /* workers running a job or a batch (nrunning counts jobs) */
	struct workq_job *finished; /* newest first */
	struct workq_job *progress;
	struct workq_job *inflight;
	int64_t next_id;
	size_t progress_size;
	void (*ctx_free)(void *);
	int nworkers;
	struct worker *workers;
	unsigned char *scratch; /* nworkers progress copies, for delivery */
	struct workq_job **scratch_job;
	evutil_socket_t wake[2];
	struct event *ev;
};

static void
wake_loop(workq_t *q)
{
	char c = 1;

	/* EAGAIN means a wakeup is already pending: enough */
	(void)send(q->wake[1], &c, 1, MSG_NOSIGNAL);
}

void
workq_progress(workq_job_t *j, const void *data)
{
	workq_t *q = j->worker->q;

	if (j->progress == NULL || q->progress_size == 0)
		return;
	pthread_mutex_lock(&q->lock);
	if (!j->cancelled) {
		memcpy(j->latest, data, q->progress_size);
		if (!j->in_progress) {
			j->in_progress = 1;
			j->pnext = q->progress;
			q->progress = j;
		}
	}
	pthread_mutex_unlock(&q->lock);
	wake_loop(q);
}

const atomic_int *
workq_stop_flag(workq_job_t *j)
{
	return &j->worker->stop;
}

static void
finish(workq_t *q, struct workq_job *j)
{
	j->state = J_FINISHED;
	j->next = q->finished;
	q->finished = j;
}

static void *
worker_main(void *arg)
{
	struct worker *w = arg;
	workq_t *q = w->q;

	for (;;) {
		pthread_mutex_lock(&q->lock);
		while (!q->quit && q->qhead == NULL)
			pthread_cond_wait(&q->more, &q->lock);
		if (q->quit) {
			pthread_mutex_unlock(&q->lock);
			break;
		}
		/* the head, and with a batch job the jobs of its kind right behind it */
		struct workq_job *take[WORKQ_BATCH_MAX];
		void *args[WORKQ_BATCH_MAX];
		int n = 0;
		do {
			struct workq_job *j = q->qhead;
			q->qhead = j->next;
			if (q->qhead == NULL)
				q->qtail = NULL;
			if (q->qfg == j)
				q->qfg = NULL;
			q->nqueued--;
			q->nbackground -= j->background;
			q->nrunning++;
			j->state = J_RUNNING;
			j->worker = w;
			args[n] = j->arg;
			take[n++] = j;
		} while (take[0]->batch != NULL && n < WORKQ_BATCH_MAX && q->qhead != NULL &&
		    q->qhead->batch == take[0]->batch);
		q->nbusy++;
		atomic_store(&w->stop, 0);
		pthread_mutex_unlock(&q->lock);

		if (take[0]->batch != NULL)
			take[0]->batch(w->ctx, args, n);
		else
			take[0]->run(take[0], w->ctx, take[0]->arg);

		pthread_mutex_lock(&q->lock);
		q->nbusy--;
		for (int i = 0; i < n; i++) { /* delivered oldest first: queue order */
			q->nrunning--;
			finish(q, take[i]);
		}
		pthread_mutex_unlock(&q->lock);
		wake_loop(q);
	}
	return NULL;
}

/* Unlinks j from the in-flight list (lock held). */
static void
inflight_remove(workq_t *q, struct workq_job *j)
{
	for (struct workq_job **p = &q->inflight; *p != NULL; p = &(*p)->fnext)
		if (*p == j) {
			*p = j->fnext;
			return;
		}
}

/* The loop side: deliver progress, then finished jobs, oldest first. */
static void
on_wake(evutil_socket_t fd, short what, void *arg)
{
	workq_t *q = arg;
	char buf[256];
	int n = 0;

	(void)what;
	while (recv(fd, buf, sizeof buf, 0) > 0)
		;
	pthread_mutex_lock(&q->lock);
	for (struct workq_job *j = q->progress; j != NULL; j = j->pnext) {
		j->in_progress = 0;
		/* a finished job's progress is stale: its end follows */
		if (!j->cancelled && j->state == J_RUNNING && n < q->nworkers) {
			q->scratch_job[n] = j;
			memcpy(
			    q->scratch + (size_t)n * q->progress_size, j->latest, q->progress_size);
			n++;
		}
	}
	q->progress = NULL;
	struct workq_job *fin = NULL;
	while (q->finished != NULL) {
		struct workq_job *j = q->finished;
		q->finished = j->next;
		j->next = fin;
		fin = j;
	}
	pthread_mutex_unlock(&q->lock);

	/* A callback may cancel another job: that only sets its flag, here. */
	for (int i = 0; i < n; i++) {
		struct workq_job *j = q->scratch_job[i];
		if (!j->cancelled)
			j->progress(j->id, q->scratch + (size_t)i * q->progress_size, j->arg);
	}
	while (fin != NULL) {
		struct workq_job *j = fin;
		fin = j->next;
		pthread_mutex_lock(&q->lock);
		inflight_remove(q, j);
		pthread_mutex_unlock(&q->lock);
		j->done(j->id, j->cancelled, j->arg);
		free(j);
	}
}

workq_t *
workq_new(struct event_base *base, int threads, int queue_max, void *(*ctx_new)(void *),
    void (*ctx_free)(void *), void *ctx_arg, size_t progress_size)
{
	workq_t *q;

	if (threads < 1 || queue_max < 0 || (q = calloc(1, sizeof *q)) == NULL)
		return NULL;
	pthread_mutex_init(&q->lock, NULL);
	pthread_cond_init(&q->more, NULL);
	q->queue_max = queue_max;
	q->progress_size = progress_size;
	q->ctx_free = ctx_free;
	q->next_id = 1;
	q->wake[0] = q->wake[1] = -1;
	q->workers = calloc((size_t)threads, sizeof *q->workers);
	q->scratch = calloc((size_t)threads, progress_size > 0 ? progress_size : 1);
	q->scratch_job = calloc((size_t)threads, sizeof *q->scratch_job);
	if (q->workers == NULL || q->scratch == NULL || q->scratch_job == NULL ||
	    evutil_socketpair(AF_UNIX, SOCK_STREAM, 0, q->wake) != 0 ||
	    evutil_make_socket_nonblocking(q->wake[0]) != 0 ||
	    evutil_make_socket_nonblocking(q->wake[1]) != 0 ||
	    evutil_make_socket_closeonexec(q->wake[0]) != 0 ||
	    evutil_make_socket_closeonexec(q->wake[1]) != 0)
		goto fail;
	q->ev = event_new(base, q->wake[0], EV_READ | EV_PERSIST, on_wake, q);
	if (q->ev == NULL || event_add(q->ev, NULL) != 0)
		goto fail;
	for (int i = 0; i < threads; i++) {
		struct worker *w = &q->workers[i];
		w->q = q;
		atomic_init(&w->stop, 0);
		q->nworkers++;
		if (ctx_new != NULL && (w->ctx = ctx_new(ctx_arg)) == NULL)
			goto fail;
		if (pthread_create(&w->thread, NULL, worker_main, w) != 0)
			goto fail;
		w->started = 1;
	}
	return q;
fail:
	workq_free(q);
	return NULL;
}

void
workq_free(workq_t *q)
{
	if (q == NULL)
		return;
	pthread_mutex_lock(&q->lock);
	q->quit = 1;
	for (int i = 0; i < q->nworkers; i++)
		atomic_store(&q->workers[i].stop, 1);
	pthread_cond_broadcast(&q->more);
	pthread_mutex_unlock(&q->lock);
	for (int i = 0; i < q->nworkers; i++) {
		if (q->workers[i].started)
			pthread_join(q->workers[i].thread, NULL);
		if (q->workers[i].ctx != NULL && q->ctx_free != NULL)
			q->ctx_free(q->workers[i].ctx);
	}
	/* Every job still in flight ends now, as cancelled. */
	while (q->inflight != NULL) {
		struct workq_job *j = q->inflight;
		q->inflight = j->fnext;
		j->done(j->id, 1, j->arg);
		free(j);
	}
	if (q->ev != NULL)
		event_free(q->ev);
	if (q->wake[0] >= 0)
		evutil_closesocket(q->wake[0]);
	if (q->wake[1] >= 0)
		evutil_closesocket(q->wake[1]);
	pthread_cond_destroy(&q->more);
	pthread_mutex_destroy(&q->lock);
	free(q->workers);
	free(q->scratch);
	free(q->scratch_job);
	free(q);
}

static int64_t
submit(workq_t *q, uint64_t owner, int background, workq_run_fn run, workq_batch_fn batch,
    workq_done_fn done, workq_progress_fn progress, void *arg)
{
	struct workq_job *j;
	int64_t id;

	pthread_mutex_lock(&q->lock);
	for (j = q->inflight; j != NULL; j = j->fnext)
		if (j->owner == owner && !j->cancelled) {
			pthread_mutex_unlock(&q->lock);
			return WORKQ_OWNER_BUSY;
		}
	/* each kind has room of its own: background jobs never fill the
	 * others' */
	int waiting = background ? q->nbackground : q->nqueued - q->nbackground;
	if (waiting >= q->queue_max + (q->nworkers - q->nbusy) ||
	    (j = calloc(1, sizeof *j + q->progress_size)) == NULL) {
		pthread_mutex_unlock(&q->lock);
		return WORKQ_FULL;
	}
	j->id = id = q->next_id++;
	j->owner = owner;
	j->run = run;
	j->batch = batch;
	j->done = done;
	j->progress = progress;
	j->arg = arg;
	j->state = J_QUEUED;
	j->background = background;
	if (background || q->qfg == q->qtail) { /* at the end */
		if (q->qtail != NULL)
			q->qtail->next = j;
		else
			q->qhead = j;
		q->qtail = j;
	} else if (q->qfg != NULL) { /* behind the last of its kind */
		j->next = q->qfg->next;
		q->qfg->next = j;
	} else { /* ahead of every background job */
		j->next = q->qhead;
		q->qhead = j;
	}
	if (!background)
		q->qfg = j;
	q->nqueued++;
	q->nbackground += background;
	j->fnext = q->inflight;
	q->inflight = j;
	pthread_cond_signal(&q->more);
	pthread_mutex_unlock(&q->lock);
	return id;
}

int64_t
workq_submit(workq_t *q, uint64_t owner, workq_run_fn run, workq_done_fn done,
    workq_progress_fn progress, void *arg)
{
	return submit(q, owner, 0, run, NULL, done, progress, arg);
}

int64_t
workq_submit_background(workq_t *q, uint64_t owner, workq_run_fn run, workq_done_fn done,
    workq_progress_fn progress, void *arg)
{
	return submit(q, owner, 1, run, NULL, done, progress, arg);
}

int64_t
workq_submit_batch(workq_t *q, uint64_t owner, workq_batch_fn batch, workq_done_fn done, void *arg)
{
	return submit(q, owner, 0, NULL, batch, done, NULL, arg);
}

void
workq_cancel(workq_t *q, int64_t id)
{
	struct workq_job *j;

	pthread_mutex_lock(&q->lock);
	for (j = q->inflight; j != NULL && j->id != id; j = j->fnext)
		;
	if (j == NULL || j->cancelled) {
		pthread_mutex_unlock(&q->lock);
		return;
	}
	j->cancelled = 1;
	if (j->state == J_QUEUED) {
		/* out of the queue; its done (cancelled) comes from the loop */
		struct workq_job **p, *last = NULL;
		for (p = &q->qhead; *p != j; p = &(*p)->next)
			last = *p;
		*p = j->next;
		if (q->qtail == j)
			q->qtail = last;
		if (q->qfg == j) /* the one before it is of its kind, or none */
			q->qfg = last;
		q->nqueued--;
		q->nbackground -= j->background;
		finish(q, j);
		pthread_mutex_unlock(&q->lock);
		wake_loop(q);
		return;
	}
	if (j->state == J_RUNNING)
		atomic_store(&j->worker->stop, 1);
	pthread_mutex_unlock(&q->lock);
}

void
workq_load(workq_t *q, int *queued, int *running)
{
	pthread_mutex_lock(&q->lock);
	*queued = q->nqueued;
	*running = q->nrunning;
	pthread_mutex_unlock(&q->lock);
}
