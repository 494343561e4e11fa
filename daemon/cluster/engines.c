/* engines.c: hosted engines' moves across nodes (engines.h): asked from
 * here of the nodes that serve them, and served here for the others. */
#include "daemon/cluster/engines.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <hiredis/hiredis.h>

#include "daemon/botplay.h"
#include "daemon/clock.h"
#include "daemon/cluster/link.h"
#include "daemon/cluster/presence.h"
#include "daemon/core.h"
#include "daemon/hosted.h"
#include "daemon/log.h"
#include "daemon/metrics.h"

#define GROUP "workers"

enum {
	STREAM_MAX = 64,
	ENTRY_MAX = 48,
	MSG_MAX = 4096,
	MAXLEN = 10000,
	CLAIM_GRACE_MS = 3000,
	TURN_DEFAULT_MS = 5000, /* hosted.c's turn when the engine sets none */
	TRIES = 3,              /* a brain's failures in a game before it forfeits (bot/brain.h) */
};

/* A game here whose engine plays on other nodes. */
struct egame {
	LIST_ENTRY(egame) link;
	char game[CMSG_GAME_MAX + 1];
	char engine[CMSG_ENGINE_MAX + 1];
	uint32_t hash;                    /* the program its moves went to, 0: none yet */
	char worker[CONFIG_NODE_MAX + 1]; /* the node that answered its last move, "": none */
	/* the move in flight: id 0 when none */
	uint64_t id;
	char stream[STREAM_MAX];
	char entry[ENTRY_MAX]; /* "" until XADD answers */
	world_engine_fn *fn;
	void *arg;
	int64_t since; /* ms: when it was asked */
	int64_t gone;  /* ms: since when no live node serves its engine, 0: one does */
};

/* Another node's game whose moves a brain here plays. */
struct eserved {
	LIST_ENTRY(eserved) link;
	struct cluster *cl;
	char node[CONFIG_NODE_MAX + 1]; /* the game's node */
	char game[CMSG_GAME_MAX + 1];
	int engine;
	uint64_t howner; /* its game in hosted.h */
	int64_t last;    /* ms: its last move asked */
	/* the move in flight: job 0 when none */
	uint64_t job;
	char entry[ENTRY_MAX];
};

struct engines {
	hosted_t *hosted;
	int n;                             /* engines served: 0 when this node serves none */
	uint32_t hash[CONFIG_MAX_ENGINES]; /* each engine's config line's */
	char stream[CONFIG_MAX_ENGINES][STREAM_MAX];
	int64_t claim_ms[CONFIG_MAX_ENGINES];
	unsigned ready, reading, claiming; /* a bit an engine */
	uint64_t seq;                      /* the ids of moves asked from here */
	uint64_t owners;                   /* the hosted games of served ones */
	LIST_HEAD(, egame) games;
	LIST_HEAD(, eserved) served;
};

static uint32_t
fnv1a(const char *s)
{
	uint32_t h = 2166136261u;
	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 16777619u;
	return h ? h : 1; /* 0 stands for none */
}

static void
stream_name(char out[STREAM_MAX], const char *engine, uint32_t hash)
{
	snprintf(out, STREAM_MAX, "gomoku:engine:%s:%08x", engine, (unsigned)hash);
}

int
engines_init(struct cluster *cl)
{
	const struct config *cfg = &cl->srv->cfg;
	struct engines *e = calloc(1, sizeof *e);
	if (!e)
		return -1;
	LIST_INIT(&e->games);
	LIST_INIT(&e->served);
	/* ids from the wall clock: an answer meant for this node's life
	 * before (a restart) matches no move asked now */
	e->seq = (uint64_t)time(NULL) * 1000;
	cl->engines = e;
	cl->served_engines[0] = '\0';
	e->hosted = botplay_hosted(cl->srv->botplay);
	if (!cl->serve || !e->hosted)
		return 0;
	size_t used = 0;
	for (int i = 0; i < hosted_count(e->hosted) && i < cfg->nengines; i++) {
		const char *name = hosted_name(e->hosted, i);
		struct hosted_engine he;
		char line[sizeof cfg->engines[0]], err[200];
		int turn = TURN_DEFAULT_MS;
		snprintf(line, sizeof line, "%s", cfg->engines[i]);
		if (config_engine(line, &he, err, sizeof err) == 0 && he.turn_ms > 0)
			turn = he.turn_ms;
		e->hash[i] = fnv1a(cfg->engines[i]);
		stream_name(e->stream[i], name, e->hash[i]);
		/* a move takes its turn, and a brain that fails is started again
		 * up to its tries: only past that is its worker taken for dead */
		e->claim_ms[i] = (int64_t)TRIES * (turn + 1000) + CLAIM_GRACE_MS;
		int k = snprintf(cl->served_engines + used, sizeof cl->served_engines - used,
		    "%s%s:%08x", i ? "," : "", name, (unsigned)e->hash[i]);
		if (k < 0 || (size_t)k >= sizeof cl->served_engines - used) {
			cl->served_engines[used] = '\0';
			break;
		}
		used += (size_t)k;
		e->n = i + 1;
	}
	if (e->n > 0)
		log_info(&cl->srv->log, "cluster: serving engines %s to the other nodes",
		    cl->served_engines);
	return 0;
}

/* --- asked from here --- */

static struct egame *
egame_find(struct engines *e, const char *game)
{
	struct egame *g;
	LIST_FOREACH (g, &e->games, link)
		if (strcmp(g->game, game) == 0)
			return g;
	return NULL;
}

static struct egame *
egame_of_id(struct engines *e, uint64_t id)
{
	struct egame *g;
	LIST_FOREACH (g, &e->games, link)
		if (g->id == id)
			return g;
	return NULL;
}

/* g's move in flight leaves the stream (a worker that took it already
 * plays on; its answer is dropped). */
static void
egame_drop(struct cluster *cl, struct egame *g)
{
	if (g->id && g->entry[0] && cl->cmd_up)
		redisAsyncCommand(cl->cmd, link_ignore, NULL, "XDEL %s %s", g->stream, g->entry);
	g->id = 0;
	g->entry[0] = '\0';
	g->fn = NULL;
	g->arg = NULL;
}

/* g's move is over with status: its caller is told (last: it may ask again). */
static void
egame_answer(struct cluster *cl, struct egame *g, int status, move_t m, const char *why)
{
	world_engine_fn *fn = g->fn;
	void *arg = g->arg;
	egame_drop(cl, g);
	if (fn)
		fn(arg, status, m, why);
}

int
cluster_engine_live(const struct cluster *cl, const char *name)
{
	uint32_t hash = 0;
	return presence_engine_node(cl, name, &hash) != NULL;
}

void
cluster_each_engine(const struct cluster *cl, void (*fn)(void *arg, const char *name), void *arg)
{
	presence_each_engine(cl, fn, arg);
}

struct added {
	struct cluster *cl;
	uint64_t id;
};

static void
on_added(redisAsyncContext *ac, void *reply, void *priv)
{
	struct added *a = priv;
	redisReply *r = reply;
	struct egame *g = a->cl->engines ? egame_of_id(a->cl->engines, a->id) : NULL;
	(void)ac;
	if (g && r && r->type == REDIS_REPLY_STRING && r->len < ENTRY_MAX)
		snprintf(g->entry, sizeof g->entry, "%s", r->str);
	else if (g && r) /* refused: lost, asked again */
		egame_answer(a->cl, g, WORLD_ENGINE_LOST, MOVE_NONE, "Redis refused the move");
	free(a);
}

static void
wake(struct cluster *cl, const char *node, void *arg)
{
	const char *msg = arg;
	link_to_node(cl, node, msg, strlen(msg), NULL, NULL);
}

game_err_t
cluster_engine_move(
    struct cluster *cl, const struct world_engine_job *j, world_engine_fn *fn, void *arg)
{
	struct engines *e = cl->engines;
	char buf[MSG_MAX], waken[64];
	if (!cluster_up(cl) || !e)
		return GERR_UNAVAILABLE;
	if (strlen(j->game) > CMSG_GAME_MAX || strlen(j->engine) > CMSG_ENGINE_MAX || j->n < 0 ||
	    j->n > RULES_CELLS)
		return GERR_ARGUMENT;
	struct egame *g = egame_find(e, j->game);
	uint32_t hash = g && !strcmp(g->engine, j->engine) ? g->hash : 0;
	/* the program of its moves before while a node serves it, else any */
	if (!presence_engine_node(cl, j->engine, &hash)) {
		hash = 0;
		if (!presence_engine_node(cl, j->engine, &hash))
			return GERR_ARGUMENT;
	}
	if (!g) {
		if (!(g = calloc(1, sizeof *g)))
			return GERR_NOMEM;
		snprintf(g->game, sizeof g->game, "%s", j->game);
		LIST_INSERT_HEAD(&e->games, g, link);
	}
	egame_drop(cl, g);
	if (g->hash && g->hash != hash)
		log_warn(&cl->srv->log,
		    "cluster: game %s's engine %s: no node serves its program %08x now; "
		    "%08x plays on",
		    g->game, j->engine, (unsigned)g->hash, (unsigned)hash);
	snprintf(g->engine, sizeof g->engine, "%s", j->engine);
	g->hash = hash;
	stream_name(g->stream, g->engine, hash);
	bots_job_t spec;
	memset(&spec, 0, sizeof spec);
	spec.rule = j->rule;
	spec.size = j->size;
	spec.clock_ms = j->time_left_ms;
	spec.inc_ms = j->inc_ms;
	spec.nmoves = j->n;
	memcpy(spec.moves, j->moves, sizeof spec.moves[0] * (size_t)j->n);
	uint64_t id = ++e->seq;
	int n = cmsg_format_engine_job(
	    buf, sizeof buf, cl->node, id, g->game, g->engine, hash, &spec);
	struct added *a = malloc(sizeof *a);
	if (n < 0 || !a) {
		free(a);
		return GERR_NOMEM;
	}
	a->cl = cl;
	a->id = id;
	if (redisAsyncCommand(cl->cmd, on_added, a, "XADD %s MAXLEN ~ %d * job %b", g->stream,
		MAXLEN, buf, (size_t)n) != REDIS_OK) {
		free(a);
		return GERR_UNAVAILABLE;
	}
	g->id = id;
	g->fn = fn;
	g->arg = arg;
	g->since = clock_now_ms();
	g->gone = 0;
	/* every node that serves it looks at the stream now */
	if (cmsg_format_engine_wake(waken, sizeof waken, g->engine, hash) > 0)
		presence_engine_nodes(cl, g->engine, hash, wake, waken);
	return GERR_OK;
}

void
cluster_engine_end(struct cluster *cl, const char *game, int over)
{
	struct engines *e = cl->engines;
	struct egame *g = e ? egame_find(e, game) : NULL;
	char buf[128];
	if (!g)
		return;
	egame_drop(cl, g);
	if (!over)
		return;
	int n = cmsg_format_engine_end(buf, sizeof buf, cl->node, g->game);
	if (g->worker[0] && n > 0)
		link_to_node(cl, g->worker, buf, (size_t)n, NULL, NULL);
	LIST_REMOVE(g, link);
	free(g);
}

/* M: the answer to a move asked from here. */
static void
got_move(struct cluster *cl, const struct cmsg *m)
{
	struct egame *g = egame_of_id(cl->engines, m->job);
	if (!g) {
		log_debug(&cl->srv->log, "cluster: a stale engine move %llu from %s dropped",
		    (unsigned long long)m->job, m->node);
		return;
	}
	snprintf(g->worker, sizeof g->worker, "%s", m->node);
	log_debug(&cl->srv->log, "cluster: engine %s's move for game %s came from node %s",
	    g->engine, g->game, m->node);
	g->entry[0] = '\0'; /* the worker acknowledged it */
	egame_answer(cl, g,
	    m->status == 0        ? 0
		: m->status == -2 ? WORLD_ENGINE_FULL
				  : WORLD_ENGINE_FORFEIT,
	    m->move, m->why);
}

/* The moves asked that no node will answer: lost. */
static void
games_tick(struct cluster *cl, int64_t now)
{
	struct egame *g, *next;
	for (g = LIST_FIRST(&cl->engines->games); g; g = next) {
		next = LIST_NEXT(g, link);
		if (!g->id)
			continue;
		uint32_t hash = g->hash;
		if (presence_engine_node(cl, g->engine, &hash))
			g->gone = 0;
		else if (!g->gone)
			g->gone = now;
		if ((g->gone && now - g->gone >= ENGINES_GONE_MS) ||
		    now - g->since >= ENGINES_LOST_MS) {
			log_warn(&cl->srv->log, "cluster: game %s's move of engine %s unanswered",
			    g->game, g->engine);
			egame_answer(cl, g, WORLD_ENGINE_LOST, MOVE_NONE, "no worker answered");
			return; /* the list may have changed */
		}
	}
}

/* --- served here --- */

static void engines_read(struct cluster *cl, int k);

static struct eserved *
served_find(struct engines *e, const char *node, const char *game)
{
	struct eserved *sv;
	LIST_FOREACH (sv, &e->served, link)
		if (strcmp(sv->node, node) == 0 && strcmp(sv->game, game) == 0)
			return sv;
	return NULL;
}

static void
served_free(struct eserved *sv)
{
	hosted_end(sv->cl->engines->hosted, sv->howner);
	LIST_REMOVE(sv, link);
	free(sv);
}

static void
entry_ack(struct cluster *cl, int k, const char *entry)
{
	if (!cl->cmd_up || !entry[0] || !cl->engines)
		return;
	redisAsyncCommand(
	    cl->cmd, link_ignore, NULL, "XACK %s %s %s", cl->engines->stream[k], GROUP, entry);
	redisAsyncCommand(cl->cmd, link_ignore, NULL, "XDEL %s %s", cl->engines->stream[k], entry);
}

struct sentref {
	struct cluster *cl;
	int k;
	char entry[ENTRY_MAX];
};

/* The answer is out on its owner's channel: the entry is done. Not out
 * (Redis away): it stays pending, and a worker claims it again. */
static void
on_answer_out(redisAsyncContext *ac, void *reply, void *priv)
{
	struct sentref *s = priv;
	(void)ac;
	if (reply && ((redisReply *)reply)->type == REDIS_REPLY_INTEGER)
		entry_ack(s->cl, s->k, s->entry);
	free(s);
}

/* The answer of job (entry of engine k) to node. */
static void
answer(struct cluster *cl, int k, const char *entry, const char *node, uint64_t job, int status,
    move_t m, const char *why)
{
	char buf[512];
	int n = cmsg_format_engine_move(buf, sizeof buf, job, cl->node, status, m, why);
	struct sentref *s = malloc(sizeof *s);
	if (n < 0 || !s) {
		free(s);
		return;
	}
	s->cl = cl;
	s->k = k;
	snprintf(s->entry, sizeof s->entry, "%s", entry);
	link_to_node(cl, node, buf, (size_t)n, on_answer_out, s);
}

static void
on_played(uint64_t owner, int status, move_t m, const char *why, void *arg)
{
	struct eserved *sv = arg;
	struct cluster *cl = sv->cl;
	(void)owner;
	if (status == 0) {
		metrics_engine_served(
		    cl->srv->metrics, hosted_name(cl->engines->hosted, sv->engine));
		log_debug(&cl->srv->log, "cluster: engine %s played %d for game %s of node %s",
		    hosted_name(cl->engines->hosted, sv->engine), (int)m, sv->game, sv->node);
	} else
		log_warn(&cl->srv->log, "cluster: engine %s forfeits game %s of node %s: %s",
		    hosted_name(cl->engines->hosted, sv->engine), sv->game, sv->node, why);
	answer(cl, sv->engine, sv->entry, sv->node, sv->job, status == 0 ? 0 : -1, m, why);
	sv->job = 0;
	sv->entry[0] = '\0';
	sv->last = clock_now_ms();
	if (status != 0) /* its brain failed the game: it goes */
		served_free(sv);
}

/* One entry of engine k's stream (read, or claimed when claimed): its
 * move asked of the game's brain here. */
static void
take(struct cluster *cl, int k, const redisReply *e, int claimed)
{
	struct engines *en = cl->engines;
	if (e->type != REDIS_REPLY_ARRAY || e->elements != 2 ||
	    e->element[0]->type != REDIS_REPLY_STRING || e->element[0]->len >= ENTRY_MAX)
		return;
	const char *entry = e->element[0]->str;
	const redisReply *f = e->element[1], *job = NULL;
	if (f->type == REDIS_REPLY_ARRAY)
		for (size_t i = 0; i + 1 < f->elements; i += 2)
			if (f->element[i]->type == REDIS_REPLY_STRING &&
			    f->element[i + 1]->type == REDIS_REPLY_STRING &&
			    strcmp(f->element[i]->str, "job") == 0)
				job = f->element[i + 1];
	struct cmsg m;
	const char *why = "it has no job field";
	if (!job || cmsg_parse(job->str, job->len, &m, &why) != 0 || m.kind != CMSG_ENGINE_JOB ||
	    strcmp(m.engine, hosted_name(en->hosted, k)) != 0 || m.hash != en->hash[k]) {
		log_warn(&cl->srv->log, "cluster: engine job %s dropped: %s", entry,
		    job && why ? why : "not of this stream's engine");
		entry_ack(cl, k, entry);
		return;
	}
	struct eserved *sv = served_find(en, m.node, m.game);
	if (sv && strcmp(sv->entry, entry) == 0)
		return; /* this node's own, claimed back while its brain thinks */
	if (sv && sv->job) {
		/* a move the owner no longer waits for: the brain starts again */
		entry_ack(cl, k, sv->entry);
		served_free(sv);
		sv = NULL;
	}
	if (!sv) {
		if (!(sv = calloc(1, sizeof *sv)))
			return; /* pending: claimed later */
		sv->cl = cl;
		snprintf(sv->node, sizeof sv->node, "%s", m.node);
		snprintf(sv->game, sizeof sv->game, "%s", m.game);
		sv->engine = k;
		sv->howner = (uint64_t)1 << 62 | ++en->owners; /* apart from the games here */
		LIST_INSERT_HEAD(&en->served, sv, link);
	}
	if (claimed)
		log_info(&cl->srv->log, "cluster: engine job %s claimed (its worker went)", entry);
	log_debug(&cl->srv->log, "cluster: engine %s's move for game %s of node %s taken", m.engine,
	    m.game, m.node);
	const bots_job_t *j = &m.spec;
	sv->last = clock_now_ms();
	int rc = hosted_move(en->hosted, k, sv->howner, j->rule, j->size,
	    j->nmoves % 2 ? STONE_WHITE : STONE_BLACK, j->moves, j->nmoves, j->clock_ms, j->inc_ms,
	    on_played, sv);
	if (rc == 0) {
		sv->job = m.job;
		snprintf(sv->entry, sizeof sv->entry, "%s", entry);
		return;
	}
	answer(cl, k, entry, m.node, m.job, rc == HOSTED_FULL ? -2 : -1, MOVE_NONE,
	    rc == HOSTED_FULL ? "every brain of the worker is taken"
			      : "the engine cannot play this position");
	served_free(sv);
}

struct readref {
	struct cluster *cl;
	int k;
};

static struct readref *
readref(struct cluster *cl, int k)
{
	struct readref *r = malloc(sizeof *r);
	if (r) {
		r->cl = cl;
		r->k = k;
	}
	return r;
}

static void
on_read(redisAsyncContext *ac, void *reply, void *priv)
{
	struct readref *ref = priv;
	struct cluster *cl = ref->cl;
	int k = ref->k;
	redisReply *r = reply;
	free(ref);
	if (ac != cl->cmd || !r || !cl->engines)
		return;
	cl->engines->reading &= ~(1u << k);
	if (r->type == REDIS_REPLY_ERROR) {
		if (strncmp(r->str, "NOGROUP", 7) == 0)
			cl->engines->ready &= ~(1u << k);
		else
			log_warn(&cl->srv->log, "cluster: reading engine jobs: %s", r->str);
		return;
	}
	int took = 0;
	if (r->type == REDIS_REPLY_ARRAY)
		for (size_t i = 0; i < r->elements; i++) {
			const redisReply *st = r->element[i];
			if (st->type == REDIS_REPLY_ARRAY && st->elements == 2 &&
			    st->element[1]->type == REDIS_REPLY_ARRAY)
				for (size_t j = 0; j < st->element[1]->elements; j++, took++)
					take(cl, k, st->element[1]->element[j], 0);
		}
	if (took)
		engines_read(cl, k); /* another may wait */
}

/* Engine k's next entries, without waiting (N or the tick says when). */
static void
engines_read(struct cluster *cl, int k)
{
	struct engines *e = cl->engines;
	struct readref *ref;
	if (!cl->cmd_up || !(e->ready & 1u << k) || e->reading & 1u << k || !(ref = readref(cl, k)))
		return;
	if (redisAsyncCommand(cl->cmd, on_read, ref, "XREADGROUP GROUP %s %s COUNT 1 STREAMS %s >",
		GROUP, cl->node, e->stream[k]) == REDIS_OK)
		e->reading |= 1u << k;
	else
		free(ref);
}

static void
on_group(redisAsyncContext *ac, void *reply, void *priv)
{
	struct readref *ref = priv;
	struct cluster *cl = ref->cl;
	int k = ref->k;
	redisReply *r = reply;
	free(ref);
	if (ac != cl->cmd || !r || !cl->engines)
		return;
	if (r->type == REDIS_REPLY_ERROR && strncmp(r->str, "BUSYGROUP", 9) != 0) {
		log_warn(&cl->srv->log, "cluster: engine jobs group on %s: %s",
		    cl->engines->stream[k], r->str);
		return;
	}
	cl->engines->ready |= 1u << k;
	engines_read(cl, k);
}

static void
on_claim(redisAsyncContext *ac, void *reply, void *priv)
{
	struct readref *ref = priv;
	struct cluster *cl = ref->cl;
	int k = ref->k;
	redisReply *r = reply;
	free(ref);
	if (ac != cl->cmd || !r || !cl->engines)
		return;
	cl->engines->claiming &= ~(1u << k);
	if (r->type == REDIS_REPLY_ARRAY && r->elements >= 2 &&
	    r->element[1]->type == REDIS_REPLY_ARRAY)
		for (size_t i = 0; i < r->element[1]->elements; i++)
			take(cl, k, r->element[1]->element[i], 1);
}

/* Each served engine's group, a read, and a claim of a move whose worker
 * died (its entry idle past the engine's claim time). */
static void
serve_tick(struct cluster *cl, int64_t now)
{
	struct engines *e = cl->engines;
	struct readref *ref;
	for (int k = 0; k < e->n && cl->cmd_up; k++) {
		if (!(e->ready & 1u << k)) {
			if ((ref = readref(cl, k)) &&
			    redisAsyncCommand(cl->cmd, on_group, ref,
				"XGROUP CREATE %s %s 0 MKSTREAM", e->stream[k], GROUP) != REDIS_OK)
				free(ref);
			continue;
		}
		engines_read(cl, k);
		if (!(e->claiming & 1u << k) && (ref = readref(cl, k))) {
			if (redisAsyncCommand(cl->cmd, on_claim, ref,
				"XAUTOCLAIM %s %s %s %lld 0-0 COUNT 1", e->stream[k], GROUP,
				cl->node, (long long)e->claim_ms[k]) == REDIS_OK)
				e->claiming |= 1u << k;
			else
				free(ref);
		}
	}
	/* a brain idle too long goes: the game's next move starts one again */
	struct eserved *sv, *next;
	for (sv = LIST_FIRST(&e->served); sv; sv = next) {
		next = LIST_NEXT(sv, link);
		if (!sv->job && now - sv->last >= ENGINES_IDLE_MS) {
			log_debug(&cl->srv->log, "cluster: game %s of node %s idle; its brain ends",
			    sv->game, sv->node);
			served_free(sv);
		}
	}
}

void
engines_got(struct cluster *cl, const struct cmsg *m)
{
	struct engines *e = cl->engines;
	if (!e)
		return;
	if (m->kind == CMSG_ENGINE_MOVE) {
		got_move(cl, m);
	} else if (m->kind == CMSG_ENGINE_WAKE) {
		for (int k = 0; k < e->n; k++)
			if (e->hash[k] == m->hash && !strcmp(hosted_name(e->hosted, k), m->engine))
				engines_read(cl, k);
	} else if (m->kind == CMSG_ENGINE_END) {
		struct eserved *sv = served_find(e, m->node, m->game);
		if (sv) {
			log_debug(&cl->srv->log, "cluster: game %s of node %s over; its brain ends",
			    sv->game, sv->node);
			if (sv->job) /* a move no longer wanted: its entry is done */
				entry_ack(cl, sv->engine, sv->entry);
			served_free(sv);
		}
	}
}

void
engines_tick(struct cluster *cl, int64_t now)
{
	if (!cl->engines)
		return;
	serve_tick(cl, now);
	games_tick(cl, now);
}

void
engines_down(struct cluster *cl)
{
	struct engines *e = cl->engines;
	struct egame *g;
	if (!e)
		return;
	e->ready = e->reading = e->claiming = 0;
	/* each move in flight is lost; its caller asks again (once Redis is back) */
	for (;;) {
		LIST_FOREACH (g, &e->games, link)
			if (g->id)
				break;
		if (!g)
			break;
		g->entry[0] = '\0';
		egame_answer(cl, g, WORLD_ENGINE_LOST, MOVE_NONE, "Redis went");
	}
}

void
engines_stop(struct cluster *cl)
{
	struct engines *e = cl->engines;
	if (!e)
		return;
	while (!LIST_EMPTY(&e->served))
		served_free(LIST_FIRST(&e->served));
	while (!LIST_EMPTY(&e->games)) {
		struct egame *g = LIST_FIRST(&e->games);
		LIST_REMOVE(g, link);
		free(g);
	}
	free(e);
	cl->engines = NULL;
}
