/* tlease.c: one node runs each tournament; changes are announced
 * (tlease.h). Nothing here waits: Redis answers through cluster_command. */
#include "daemon/cluster/tlease.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hiredis/hiredis.h>

#include "daemon/archive.h"
#include "daemon/clock.h"
#include "daemon/cluster/cluster.h"
#include "daemon/cluster/clustermsg.h"
#include "daemon/cluster/link.h"
#include "daemon/core.h"
#include "daemon/log.h"
#include "daemon/tourneys.h"

enum { KEY_MAX = 48 };

/* Each key is taken when free or this node's already, and renewed; the
 * answer per key is "" (held) or the node holding it. ARGV: the node,
 * the lease time. */
static const char take_script[] =
    "local out = {}\n"
    "for i, k in ipairs(KEYS) do\n"
    "  local v = redis.call('GET', k)\n"
    "  if v == ARGV[1] then redis.call('PEXPIRE', k, ARGV[2]) out[i] = ''\n"
    "  elseif not v then redis.call('SET', k, ARGV[1], 'PX', ARGV[2]) out[i] = ''\n"
    "  else out[i] = v end\n"
    "end\n"
    "return out\n";

/* This node's leases of events it runs no more go. */
static const char release_script[] =
    "for i, k in ipairs(KEYS) do\n"
    "  if redis.call('GET', k) == ARGV[1] then redis.call('DEL', k) end\n"
    "end\n"
    "return 0\n";

struct tentry {
	int64_t id;
	int64_t asked_ms;   /* the core asked last */
	int64_t held_until; /* ms: this node runs it until then */
};

struct tlease {
	struct server *srv;
	struct cluster *cl;
	struct tentry *v;
	int n, cap;
	int taking;      /* a take at Redis */
	int64_t scan_at; /* ms: every event read again last */
};

/* The ids of one script's keys, and when it was sent. */
struct taking {
	struct tlease *tl;
	int64_t sent_ms;
	int n;
	int64_t ids[];
};

static struct tentry *
find(struct tlease *tl, int64_t id)
{
	for (int i = 0; i < tl->n; i++)
		if (tl->v[i].id == id)
			return &tl->v[i];
	return NULL;
}

int
tlease_runs(struct tlease *tl, int64_t id)
{
	if (!tl)
		return 1;
	int64_t now = clock_now_ms();
	struct tentry *e = find(tl, id);
	if (!e) {
		if (tl->n == tl->cap) {
			int cap = tl->cap ? tl->cap * 2 : 16;
			struct tentry *v = realloc(tl->v, (size_t)cap * sizeof *v);
			if (!v)
				return 0;
			tl->v = v;
			tl->cap = cap;
		}
		e = &tl->v[tl->n++];
		e->id = id;
		e->held_until = 0;
	}
	e->asked_ms = now;
	return now < e->held_until;
}

void
tlease_changed(struct tlease *tl, int64_t id)
{
	char buf[CONFIG_NODE_MAX + 32];
	if (!tl)
		return;
	int n = cmsg_format_tourney(buf, sizeof buf, cluster_node(tl->cl), (uint64_t)id);
	if (n > 0)
		link_publish(tl->cl, CHAN_TOURNEYS, buf, (size_t)n, NULL, NULL);
}

void
tlease_got(struct tlease *tl, const struct cmsg *m)
{
	if (!tl || strcmp(m->node, cluster_node(tl->cl)) == 0)
		return;
	if (tl->srv->tourneys)
		tourneys_stale(tl->srv->tourneys, (int64_t)m->job);
}

/* A script over ids[0..n): ARGV the node, then (take) the lease time. */
static int
send_script(struct tlease *tl, const char *script, const int64_t *ids, int n, cluster_reply_fn *fn,
    void *priv)
{
	const char **argv = calloc((size_t)n + 5, sizeof *argv);
	char(*keys)[KEY_MAX] = calloc((size_t)n + 1, KEY_MAX);
	char nkeys[16], px[16];
	int a = 0, rc = -1;
	if (!argv || !keys)
		goto out;
	snprintf(nkeys, sizeof nkeys, "%d", n);
	snprintf(px, sizeof px, "%d", (int)TLEASE_MS);
	argv[a++] = "EVAL";
	argv[a++] = script;
	argv[a++] = nkeys;
	for (int i = 0; i < n; i++) {
		snprintf(keys[i], KEY_MAX, "gomoku:tlease:%lld", (long long)ids[i]);
		argv[a++] = keys[i];
	}
	argv[a++] = cluster_node(tl->cl);
	if (script == take_script)
		argv[a++] = px;
	rc = cluster_command(tl->cl, fn, priv, a, argv, NULL);
out:
	free(argv);
	free(keys);
	return rc;
}

static void
taken(void *reply, void *priv)
{
	struct taking *tk = priv;
	struct tlease *tl = tk->tl;
	redisReply *r = reply;
	tl->taking = 0;
	if (r && r->type == REDIS_REPLY_ARRAY && (int)r->elements == tk->n) {
		for (int i = 0; i < tk->n; i++) {
			struct tentry *e = find(tl, tk->ids[i]);
			redisReply *x = r->element[i];
			if (!e || x->type != REDIS_REPLY_STRING)
				continue;
			int mine = x->len == 0;
			if (mine && e->held_until <= tk->sent_ms)
				log_info(&tl->srv->log, "tournament %lld: run by this node",
				    (long long)e->id);
			e->held_until = mine ? tk->sent_ms + TLEASE_MS - TLEASE_MARGIN_MS : 0;
		}
	}
	free(tk);
}

void
tlease_tick(struct tlease *tl, int64_t now)
{
	if (!tl)
		return;
	if (now - tl->scan_at >= TLEASE_SCAN_MS) {
		tl->scan_at = now;
		if (tl->srv->tourneys)
			tourneys_stale(tl->srv->tourneys, 0);
	}
	/* the events asked about no more: this node's leases of them go */
	int64_t gone[64];
	int ngone = 0;
	for (int i = 0; i < tl->n;) {
		struct tentry *e = &tl->v[i];
		if (now - e->asked_ms < TLEASE_FORGET_MS) {
			i++;
			continue;
		}
		if (e->held_until > now && ngone < 64)
			gone[ngone++] = e->id;
		*e = tl->v[--tl->n];
	}
	if (ngone)
		send_script(tl, release_script, gone, ngone, NULL, NULL);
	if (tl->taking || tl->n == 0 || !cluster_up(tl->cl))
		return;
	struct taking *tk = malloc(sizeof *tk + (size_t)tl->n * sizeof tk->ids[0]);
	if (!tk)
		return;
	tk->tl = tl;
	tk->sent_ms = now;
	tk->n = tl->n;
	for (int i = 0; i < tl->n; i++)
		tk->ids[i] = tl->v[i].id;
	if (send_script(tl, take_script, tk->ids, tk->n, taken, tk) != 0) {
		free(tk);
		return;
	}
	tl->taking = 1;
}

struct tlease *
tlease_new(struct server *srv, struct cluster *cl)
{
	if (!archive_fence(srv))
		return NULL;
	struct tlease *tl = calloc(1, sizeof *tl);
	if (!tl)
		return NULL;
	tl->srv = srv;
	tl->cl = cl;
	tl->scan_at = clock_now_ms();
	return tl;
}

void
tlease_free(struct tlease *tl)
{
	if (!tl)
		return;
	free(tl->v);
	free(tl);
}
