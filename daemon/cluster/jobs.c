/* jobs.c: bot searches across nodes on the Redis streams gomoku:bots and
 * gomoku:reviews with the consumer group workers (jobs.h): this node's
 * jobs sent there when its pool has no workers, other nodes' jobs served
 * here when it has, a waiting move before any review's position. */
#include "daemon/cluster/jobs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <hiredis/hiredis.h>

#include "daemon/botplay.h"
#include "daemon/bots.h"
#include "daemon/cluster/link.h"
#include "daemon/log.h"
#include "daemon/core.h"

#define JOBS_GROUP "workers"
/* The streams: the bots' moves (and openings' acts), then the reviews'
 * positions (bots_job_t's review). A move waiting on gomoku:bots is taken
 * before any review's position: a serving node first reads gomoku:bots
 * alone, without blocking, and only when no move waits there does it wait
 * on both streams; a review's position goes to its pool only when a worker
 * is idle (one read while none is stays held here, its entry pending,
 * until a read of gomoku:bots finds no move). A move therefore waits for
 * reviews at most until a worker ends the position it is on (review-ms),
 * and a position a worker has begun runs to its budget. */
static const char *const streams[] = { "gomoku:bots", "gomoku:reviews" };
enum {
	STREAM_MOVES = 0,
	STREAM_REVIEWS = 1,
	NSTREAMS = 2,
	ALL_GROUPS = (1 << NSTREAMS) - 1, /* group_ready: a bit a stream */
	JOBS_MAXLEN = 10000,              /* the stream is trimmed to about this */
	JOBS_BLOCK_MS = 2000,
	JOB_MSG_MAX = 4096,
	ENTRY_MAX = 48,
};

/* What the jobs connection is reading (cl->reading). */
enum { READ_NONE, READ_MOVES, READ_ANY };

/* A job of this node's sent to the stream: its entry, to drop it. */
struct sent {
	LIST_ENTRY(sent) link;
	int64_t id;
	int stream;
	char entry[ENTRY_MAX]; /* "" until XADD answers */
};

/* Another node's job this node searches. */
struct served {
	LIST_ENTRY(served) link;
	struct cluster *cl;
	int64_t bots_id;
	uint64_t job; /* the owner's id */
	int review;   /* a review's position: its R carries the line (J " l") */
	int stream;
	char owner[CONFIG_NODE_MAX + 1];
	char entry[ENTRY_MAX];
};

/* A review's position read while no worker of this node was idle (or
 * claimed from a dead worker): its entry stays pending in the group, and
 * it goes to the pool once a worker is idle and no move waits. */
struct held {
	TAILQ_ENTRY(held) link;
	char entry[ENTRY_MAX];
	char job[]; /* the entry's job field, NUL-terminated */
};

static void on_read(redisAsyncContext *ac, void *reply, void *priv);

/* What a reply about one entry (or one stream) needs. */
struct entryref {
	struct cluster *cl;
	int64_t id;
	int stream;
	char entry[ENTRY_MAX];
};

/* The stream's index, or -1. */
static int
stream_of(const char *name, size_t len)
{
	for (int k = 0; k < NSTREAMS; k++)
		if (strlen(streams[k]) == len && memcmp(streams[k], name, len) == 0)
			return k;
	return -1;
}

/* A reference to stream k of cl, for a reply's callback: NULL, or freed
 * there. */
static struct entryref *
ref_of(struct cluster *cl, int k)
{
	struct entryref *e = calloc(1, sizeof *e);
	if (e) {
		e->cl = cl;
		e->stream = k;
	}
	return e;
}

/* The group the workers read from, on each stream; made when the command
 * connection is up (BUSYGROUP: it is there already). */
static void
on_group(redisAsyncContext *ac, void *reply, void *priv)
{
	struct entryref *e = priv;
	struct cluster *cl = e->cl;
	int k = e->stream;
	redisReply *r = reply;
	free(e);
	if (ac != cl->cmd || !r)
		return;
	if (r->type == REDIS_REPLY_ERROR && strncmp(r->str, "BUSYGROUP", 9) != 0) {
		log_warn(&cl->srv->log, "cluster: bot jobs group on %s: %s", streams[k], r->str);
		return;
	}
	cl->group_ready |= 1 << k;
	jobs_read(cl);
}

void
jobs_group(struct cluster *cl)
{
	for (int k = 0; k < NSTREAMS && cl->serve && cl->cmd_up; k++) {
		struct entryref *e;
		if (cl->group_ready & 1 << k || !(e = ref_of(cl, k)))
			continue;
		if (redisAsyncCommand(cl->cmd, on_group, e, "XGROUP CREATE %s %s 0 MKSTREAM",
			streams[k], JOBS_GROUP) != REDIS_OK)
			free(e);
	}
}

/* Whether this node's pool has a free worker for another node's job. */
static int
jobs_room(struct cluster *cl)
{
	int queued, running;
	bots_load(cl->pool, &queued, &running);
	return queued + running < cl->workers;
}

static void
entry_ack(struct cluster *cl, int k, const char *entry)
{
	if (!cl->cmd_up)
		return;
	redisAsyncCommand(
	    cl->cmd, link_ignore, NULL, "XACK %s %s %s", streams[k], JOBS_GROUP, entry);
	redisAsyncCommand(cl->cmd, link_ignore, NULL, "XDEL %s %s", streams[k], entry);
}

/* The result is out on its owner's channel: the job is done (acknowledged).
 * Not out (Redis away): it stays pending, and a worker claims it again. */
static void
on_result_out(redisAsyncContext *ac, void *reply, void *priv)
{
	struct entryref *e = priv;
	(void)ac;
	if (reply && ((redisReply *)reply)->type == REDIS_REPLY_INTEGER)
		entry_ack(e->cl, e->stream, e->entry);
	free(e);
}

/* A served job's result line (R, either form) n bytes of buf, or n < 0:
 * out to its owner; the job is over here. */
static void
served_send(struct served *sv, const char *buf, int n)
{
	struct cluster *cl = sv->cl;
	struct entryref *e = malloc(sizeof *e);
	if (n > 0 && e) {
		e->cl = cl;
		e->stream = sv->stream;
		snprintf(e->entry, sizeof e->entry, "%s", sv->entry);
		link_to_node(cl, sv->owner, buf, (size_t)n, on_result_out, e);
	} else {
		free(e);
	}
	LIST_REMOVE(sv, link);
	free(sv);
	jobs_read(cl);
}

static void
served_done(uint64_t id, int status, const engine_result_t *r, void *arg)
{
	struct served *sv = arg;
	char buf[JOB_MSG_MAX];
	(void)id;
	log_debug(&sv->cl->srv->log, "cluster: bot job %s of node %s searched in %d ms", sv->entry,
	    sv->owner, status == 0 ? r->time_ms : -1);
	served_send(sv, buf, cmsg_format_result(buf, sizeof buf, sv->job, status, r, sv->review));
}

/* An opening job's end: its act goes back (R's act form). */
static void
served_act(uint64_t id, int status, const opening_act_t *a, const char *why, void *arg)
{
	struct served *sv = arg;
	char buf[JOB_MSG_MAX];
	(void)id;
	log_debug(&sv->cl->srv->log, "cluster: opening job %s of node %s decided (%s)", sv->entry,
	    sv->owner, status == 0 && why ? why : "no act");
	served_send(sv, buf, cmsg_format_act(buf, sizeof buf, sv->job, status, a));
}

/* The job text (len bytes) of entry on stream k searched on this node's
 * pool as a local bot's job is. Garbage is acknowledged and dropped: 0;
 * -1 when the pool cannot take it now (it stays pending for a worker to
 * claim). */
static int
job_take(struct cluster *cl, int k, const char *entry, const char *text, size_t len)
{
	struct cmsg m;
	const char *why = "it has no job field";
	if (!text || cmsg_parse(text, len, &m, &why) != 0 || m.kind != CMSG_JOB) {
		log_warn(&cl->srv->log, "cluster: bot job %s dropped: %s", entry,
		    text && why ? why : "it has no job field");
		entry_ack(cl, k, entry);
		return 0;
	}
	struct served *sv = calloc(1, sizeof *sv);
	if (!sv)
		return -1;
	sv->cl = cl;
	sv->job = m.job;
	sv->review = m.spec.review;
	sv->stream = k;
	snprintf(sv->owner, sizeof sv->owner, "%s", m.node);
	snprintf(sv->entry, sizeof sv->entry, "%s", entry);
	m.spec.owner = (uint64_t)1 << 63 | ++cl->served_seq; /* apart from the rooms here */
	sv->bots_id = m.spec.opening ? bots_submit_opening(cl->pool, &m.spec, served_act, sv)
				     : bots_submit(cl->pool, &m.spec, served_done, NULL, sv);
	if (sv->bots_id < 0) {
		free(sv);
		return -1;
	}
	LIST_INSERT_HEAD(&cl->served, sv, link);
	log_debug(&cl->srv->log, "cluster: bot job %s of node %s taken from %s", entry, m.node,
	    streams[k]);
	return 0;
}

/* A review's position onto the held queue (its entry stays pending). */
static void
hold(struct cluster *cl, const char *entry, const char *text, size_t len)
{
	struct held *h;
	TAILQ_FOREACH (h, &cl->held, link)
		if (strcmp(h->entry, entry) == 0)
			return; /* claimed back from this node */
	if (!(h = malloc(sizeof *h + len + 1)))
		return; /* pending: a worker claims it */
	snprintf(h->entry, sizeof h->entry, "%s", entry);
	memcpy(h->job, text, len);
	h->job[len] = '\0';
	TAILQ_INSERT_TAIL(&cl->held, h, link);
	log_debug(&cl->srv->log, "cluster: bot job %s held (a move first)", entry);
}

/* No move waits on gomoku:bots: the held positions go to idle workers, in
 * the order they were read. */
static void
held_release(struct cluster *cl)
{
	struct held *h;
	while ((h = TAILQ_FIRST(&cl->held)) != NULL && jobs_room(cl)) {
		if (job_take(cl, STREAM_REVIEWS, h->entry, h->job, strlen(h->job)) != 0)
			return;
		TAILQ_REMOVE(&cl->held, h, link);
		free(h);
	}
}

/* One entry of stream k (read or claimed). A move goes to the pool at
 * once. A review's position goes there only when direct (read while no
 * move waited), a worker is idle and none is held before it; otherwise it
 * is held. */
static void
take_entry(struct cluster *cl, int k, const redisReply *e, int direct)
{
	if (e->type != REDIS_REPLY_ARRAY || e->elements != 2 ||
	    e->element[0]->type != REDIS_REPLY_STRING || e->element[0]->len >= ENTRY_MAX)
		return;
	const char *entry = e->element[0]->str;
	const redisReply *f = e->element[1];
	const redisReply *job = NULL;
	if (f->type == REDIS_REPLY_ARRAY)
		for (size_t i = 0; i + 1 < f->elements; i += 2)
			if (f->element[i]->type == REDIS_REPLY_STRING &&
			    f->element[i + 1]->type == REDIS_REPLY_STRING &&
			    strcmp(f->element[i]->str, "job") == 0)
				job = f->element[i + 1];
	if (k == STREAM_REVIEWS && job && (!direct || !jobs_room(cl) || !TAILQ_EMPTY(&cl->held))) {
		hold(cl, entry, job->str, job->len);
		return;
	}
	job_take(cl, k, entry, job ? job->str : NULL, job ? job->len : 0);
}

/* The entries of stream want in XREADGROUP's answer r (an array of
 * [stream, entries]), taken: the number of them. */
static int
take_stream(struct cluster *cl, int want, const redisReply *r, int direct)
{
	int n = 0;
	if (r->type != REDIS_REPLY_ARRAY)
		return 0;
	for (size_t i = 0; i < r->elements; i++) {
		const redisReply *st = r->element[i];
		if (st->type == REDIS_REPLY_ARRAY && st->elements == 2 &&
		    st->element[0]->type == REDIS_REPLY_STRING &&
		    stream_of(st->element[0]->str, st->element[0]->len) == want &&
		    st->element[1]->type == REDIS_REPLY_ARRAY)
			for (size_t j = 0; j < st->element[1]->elements; j++, n++)
				take_entry(cl, want, st->element[1]->element[j], direct);
	}
	return n;
}

/* Waits on both streams for the next job (no move waits now). */
static void
read_any(struct cluster *cl)
{
	_Static_assert(NSTREAMS == 2, "the streams read");
	if (redisAsyncCommand(cl->jobs, on_read, cl,
		"XREADGROUP GROUP %s %s COUNT 1 BLOCK %d STREAMS %s %s > >", JOBS_GROUP, cl->node,
		JOBS_BLOCK_MS, streams[STREAM_MOVES], streams[STREAM_REVIEWS]) == REDIS_OK)
		cl->reading = READ_ANY;
}

/* XREADGROUP's answer: READ_MOVES's at once (nil: no move waits),
 * READ_ANY's nil after JOBS_BLOCK_MS without a job. */
static void
on_read(redisAsyncContext *ac, void *reply, void *priv)
{
	struct cluster *cl = priv;
	redisReply *r = reply;
	if (ac != cl->jobs || !r)
		return;
	int mode = cl->reading;
	cl->reading = READ_NONE;
	if (r->type == REDIS_REPLY_ERROR) {
		if (strncmp(r->str, "NOGROUP", 7) == 0) { /* Redis came back empty */
			cl->group_ready = 0;
			jobs_group(cl);
		} else {
			log_warn(&cl->srv->log, "cluster: reading bot jobs: %s", r->str);
		}
		return; /* the tick reads again */
	}
	/* at most one entry a stream: a move first */
	int took = take_stream(cl, STREAM_MOVES, r, 1);
	took += take_stream(cl, STREAM_REVIEWS, r, 1);
	if (mode == READ_MOVES && !took) {
		/* no move waits: the positions held, then a wait on both */
		held_release(cl);
		if (TAILQ_EMPTY(&cl->held) && jobs_room(cl))
			read_any(cl);
		return;
	}
	jobs_read(cl);
}

/* The next job on the jobs connection while a worker is free: first
 * whether a move waits (no blocking), and only then a wait on both
 * streams (on_read). */
void
jobs_read(struct cluster *cl)
{
	if (!cl->serve || !cl->jobs_up || cl->group_ready != ALL_GROUPS || cl->reading ||
	    !jobs_room(cl))
		return;
	if (redisAsyncCommand(cl->jobs, on_read, cl, "XREADGROUP GROUP %s %s COUNT 1 STREAMS %s >",
		JOBS_GROUP, cl->node, streams[STREAM_MOVES]) == REDIS_OK)
		cl->reading = READ_MOVES;
}

static void
on_claim(redisAsyncContext *ac, void *reply, void *priv)
{
	struct entryref *ref = priv;
	struct cluster *cl = ref->cl;
	int k = ref->stream;
	redisReply *r = reply;
	free(ref);
	if (ac != cl->cmd || !r)
		return;
	cl->claiming--;
	if (r->type == REDIS_REPLY_ARRAY && r->elements >= 2 &&
	    r->element[1]->type == REDIS_REPLY_ARRAY)
		for (size_t i = 0; i < r->element[1]->elements; i++) {
			const redisReply *e = r->element[1]->element[i];
			if (e->type == REDIS_REPLY_ARRAY && e->elements == 2 &&
			    e->element[0]->type == REDIS_REPLY_STRING)
				log_info(&cl->srv->log,
				    "cluster: bot job %s claimed (its worker went)",
				    e->element[0]->str);
			take_entry(cl, k, e, 0); /* a review's: held, a move first */
		}
	jobs_read(cl);
}

/* A job another worker took and never acknowledged (it died): this one
 * claims it, one of each stream, when it has a free worker. */
static void
jobs_claim(struct cluster *cl)
{
	if (!cl->serve || !cl->cmd_up || cl->group_ready != ALL_GROUPS || cl->claiming ||
	    !jobs_room(cl))
		return;
	for (int k = 0; k < NSTREAMS; k++) {
		struct entryref *e = ref_of(cl, k);
		if (e &&
		    redisAsyncCommand(cl->cmd, on_claim, e, "XAUTOCLAIM %s %s %s %lld 0-0 COUNT 1",
			streams[k], JOBS_GROUP, cl->node, (long long)cl->claim_ms) == REDIS_OK)
			cl->claiming++;
		else
			free(e);
	}
}

static struct sent *
sent_find(struct cluster *cl, int64_t id)
{
	struct sent *x;
	LIST_FOREACH (x, &cl->sent, link)
		if (x->id == id)
			return x;
	return NULL;
}

static void
sent_free(struct sent *x)
{
	LIST_REMOVE(x, link);
	free(x);
}

static void
on_added(redisAsyncContext *ac, void *reply, void *priv)
{
	struct entryref *e = priv;
	redisReply *r = reply;
	struct sent *x;
	(void)ac;
	if (r && r->type == REDIS_REPLY_STRING && r->len < ENTRY_MAX &&
	    (x = sent_find(e->cl, e->id)) != NULL)
		snprintf(x->entry, sizeof x->entry, "%s", r->str);
	free(e);
}

/* The remote pool's send: the job onto the stream. */
static int
job_send(void *arg, int64_t id, const bots_job_t *job)
{
	struct cluster *cl = arg;
	char buf[JOB_MSG_MAX];
	int n = cmsg_format_job(buf, sizeof buf, cl->node, (uint64_t)id, job);
	struct sent *x;
	struct entryref *e;
	if (!cl->cmd_up || n < 0)
		return -1;
	if (!(x = calloc(1, sizeof *x)) || !(e = calloc(1, sizeof *e))) {
		free(x);
		return -1;
	}
	x->id = id;
	x->stream = job->review != 0;
	e->cl = cl;
	e->id = id;
	if (redisAsyncCommand(cl->cmd, on_added, e, "XADD %s MAXLEN ~ %d * job %b",
		streams[x->stream], JOBS_MAXLEN, buf, (size_t)n) != REDIS_OK) {
		free(x);
		free(e);
		return -1;
	}
	LIST_INSERT_HEAD(&cl->sent, x, link);
	return 0;
}

/* The remote pool's drop: a job no longer wanted leaves the stream (a
 * worker that has it already searches on; its result is dropped). */
static void
job_drop(void *arg, int64_t id)
{
	struct cluster *cl = arg;
	struct sent *x = sent_find(cl, id);
	if (!x)
		return;
	if (x->entry[0] && cl->cmd_up)
		redisAsyncCommand(
		    cl->cmd, link_ignore, NULL, "XDEL %s %s", streams[x->stream], x->entry);
	sent_free(x);
}

void
jobs_result(struct cluster *cl, const struct cmsg *m)
{
	struct sent *x = sent_find(cl, (int64_t)m->job);
	if (x)
		sent_free(x);
	int r = !cl->remote ? -1
	    : m->is_act     ? bots_remote_act_done(cl->pool, (int64_t)m->job, m->status, &m->act)
			    : bots_remote_done(cl->pool, (int64_t)m->job, m->status, &m->result);
	if (r != 0)
		log_debug(&cl->srv->log, "cluster: a stale bot result %llu dropped",
		    (unsigned long long)m->job);
}

void
jobs_init(struct cluster *cl)
{
	const struct config *cfg = &cl->srv->cfg;
	LIST_INIT(&cl->sent);
	LIST_INIT(&cl->served);
	TAILQ_INIT(&cl->held);
	if ((cl->pool = botplay_bots(cl->srv->botplay)) != NULL) {
		cl->remote = bots_remote(cl->pool);
		cl->serve = !cl->remote && cfg->bot_serve;
		cl->workers = cfg->bot_threads > 0 ? cfg->bot_threads
						   : (int)sysconf(_SC_NPROCESSORS_ONLN);
		cl->claim_ms = BOTS_CLAIM_MS(2 * cfg->bot_think_ms);
		if (cl->remote) {
			struct bots_remote ops = { job_send, job_drop, cl };
			bots_set_remote(cl->pool, &ops);
		}
	}
}

void
jobs_down(struct cluster *cl)
{
	cl->group_ready = cl->reading = cl->claiming = 0;
	/* what was sent to the stream went with Redis, or will be claimed */
	while (!LIST_EMPTY(&cl->sent))
		sent_free(LIST_FIRST(&cl->sent));
}

/* The held positions' entries claimed again by this node (XCLAIM ...
 * JUSTID: their idle time starts again), so that no worker, this one
 * included, takes them for lost while they wait here for a move to end. */
static void
held_keep(struct cluster *cl)
{
	struct held *h;
	if (!cl->cmd_up)
		return;
	TAILQ_FOREACH (h, &cl->held, link)
		redisAsyncCommand(cl->cmd, link_ignore, NULL, "XCLAIM %s %s %s 0 %s JUSTID",
		    streams[STREAM_REVIEWS], JOBS_GROUP, cl->node, h->entry);
}

void
jobs_tick(struct cluster *cl)
{
	jobs_group(cl);
	held_keep(cl);
	jobs_read(cl);
	jobs_claim(cl);
}

void
jobs_stop(struct cluster *cl)
{
	if (cl->remote)
		bots_set_remote(cl->pool, NULL);
	while (!LIST_EMPTY(&cl->served)) {
		struct served *sv = LIST_FIRST(&cl->served);
		bots_cancel(cl->pool, sv->bots_id); /* its callback does not come */
		LIST_REMOVE(sv, link);
		free(sv);
	}
	while (!LIST_EMPTY(&cl->sent))
		sent_free(LIST_FIRST(&cl->sent));
	/* the held positions stay pending in the group: another worker claims them */
	struct held *h;
	while ((h = TAILQ_FIRST(&cl->held)) != NULL) {
		TAILQ_REMOVE(&cl->held, h, link);
		free(h);
	}
}
