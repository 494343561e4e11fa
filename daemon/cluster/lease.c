/* lease.c: room leases, the adoption of a dead node's games and the
 * directory of adopted rooms (lease.h). Nothing here waits: Redis answers
 * through cluster_command, the store through the store thread. */
#include "daemon/cluster/lease.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/event.h>
#include <hiredis/hiredis.h>

#include "daemon/archive.h"
#include "daemon/botplay.h"
#include "daemon/clock.h"
#include "daemon/cluster/cluster.h"
#include "daemon/cluster/clustermsg.h"
#include "daemon/roomid.h"
#include "daemon/conn.h"
#include "daemon/log.h"
#include "daemon/restore.h"
#include "daemon/room.h"
#include "daemon/core.h"
#include "daemon/session.h"

#define DIRECTORY "gomoku:owners"
enum { KEY_MAX = PROTO_ROOM_MAX + 16 };

/* Each key (a lease; ARGV[2 + i] its room, ARGV[2 + #KEYS + i] the node
 * its id names, by roomid_parse: the script never reads an id itself) is
 * taken when it is free or this node's already, and renewed; the answer
 * per key is "" (held) or the node holding it. A room another node's id
 * names is put in the directory as this node's (again after a Redis
 * restart). */
static const char take_script[] =
    "local out = {}\n"
    "for i, k in ipairs(KEYS) do\n"
    "  local v = redis.call('GET', k)\n"
    "  if v == ARGV[1] then redis.call('PEXPIRE', k, ARGV[2]) out[i] = ''\n"
    "  elseif not v then redis.call('SET', k, ARGV[1], 'PX', ARGV[2]) out[i] = ''\n"
    "  else out[i] = v end\n"
    "  local room = ARGV[2 + i]\n"
    "  if out[i] == '' and ARGV[2 + #KEYS + i] ~= ARGV[1] and\n"
    "      redis.call('HGET', '" DIRECTORY "', room) ~= ARGV[1] then\n"
    "    redis.call('HSET', '" DIRECTORY "', room, ARGV[1]) end\n"
    "end\n"
    "return out\n";

/* This node's leases of ended rooms go, and their directory entries. */
static const char release_script[] =
    "for i, k in ipairs(KEYS) do\n"
    "  if redis.call('GET', k) == ARGV[1] then redis.call('DEL', k) end\n"
    "  if redis.call('HGET', '" DIRECTORY "', ARGV[i + 1]) == ARGV[1] then\n"
    "    redis.call('HDEL', '" DIRECTORY "', ARGV[i + 1]) end\n"
    "end\n"
    "return 0\n";

struct entry {
	char room[PROTO_ROOM_MAX + 1];
	char node[CONFIG_NODE_MAX + 1];
	int64_t game; /* adopting: the game's row */
};

/* A growing list of entries. */
struct entries {
	struct entry *v;
	int n, cap;
};

struct lease {
	struct server *srv;
	struct cluster *cl; /* its Redis (cluster_command) */
	struct event *tick;
	int64_t up_since;        /* ms: Redis up since (0: down) */
	int scanning;            /* a scan of the open games at the store thread */
	int64_t scan_at;         /* ms: the last scan asked */
	int64_t scan_until;      /* ms: scans every second till then (a node was forgotten) */
	unsigned forgotten;      /* cluster_forgotten as last seen */
	int taking;              /* a take of candidates' leases at Redis */
	struct entries held;     /* rooms whose leases this node renews */
	struct entries adopting; /* leases taken, games at the store thread */
	struct entries dir;      /* the directory as last read */
};

static struct entry *
entries_add(struct entries *e, const char *room, const char *node, int64_t game)
{
	if (e->n == e->cap) {
		int cap = e->cap ? e->cap * 2 : 16;
		struct entry *v = realloc(e->v, (size_t)cap * sizeof *v);
		if (!v)
			return NULL;
		e->v = v;
		e->cap = cap;
	}
	struct entry *x = &e->v[e->n++];
	snprintf(x->room, sizeof x->room, "%s", room);
	snprintf(x->node, sizeof x->node, "%s", node);
	x->game = game;
	return x;
}

static struct entry *
entries_find(const struct entries *e, const char *room)
{
	for (int i = 0; i < e->n; i++)
		if (strcmp(e->v[i].room, room) == 0)
			return &e->v[i];
	return NULL;
}

static void
entries_del(struct entries *e, struct entry *x)
{
	*x = e->v[--e->n];
}

const char *
lease_owner(const struct lease *l, const char *room)
{
	const struct entry *x = l ? entries_find(&l->dir, room) : NULL;
	return x ? x->node : NULL;
}

/* A script on n keys gomoku:lease:<room>: ARGV this node's name, then
 * (take) the lease time, then the rooms, then (take) the node each room's
 * id names. -1 when it cannot be sent. */
static int
send_script(
    struct lease *l, const char *script, const struct entries *e, cluster_reply_fn *fn, void *priv)
{
	int n = e->n, take = script == take_script, rc = -1;
	const char **argv = calloc((size_t)(3 + 3 * n + 2), sizeof *argv);
	char(*keys)[KEY_MAX] = calloc((size_t)(n ? n : 1), KEY_MAX);
	char(*named)[CONFIG_NODE_MAX + 1] = calloc((size_t)(n ? n : 1), CONFIG_NODE_MAX + 1);
	char nkeys[16], px[16];
	if (!argv || !keys || !named)
		goto out;
	snprintf(nkeys, sizeof nkeys, "%d", n);
	snprintf(px, sizeof px, "%d", (int)LEASE_MS);
	int a = 0;
	argv[a++] = "EVAL";
	argv[a++] = script;
	argv[a++] = nkeys;
	for (int i = 0; i < n; i++) {
		snprintf(keys[i], KEY_MAX, "gomoku:lease:%s", e->v[i].room);
		argv[a++] = keys[i];
	}
	argv[a++] = l->srv->cfg.node_name;
	if (take)
		argv[a++] = px;
	for (int i = 0; i < n; i++)
		argv[a++] = e->v[i].room;
	for (int i = 0; take && i < n; i++) {
		if (roomid_parse(e->v[i].room, named[i], NULL) != 0)
			named[i][0] = '\0'; /* no node's: the directory keeps it */
		argv[a++] = named[i];
	}
	rc = cluster_command(l->cl, fn, priv, a, argv, NULL);
out:
	free(argv);
	free(keys);
	free(named);
	return rc;
}

/* --- this node's rooms --- */

struct renewal {
	struct lease *l;
	struct entries keys;
};

/* A member of a room left to another node: sent there, a bot let go. */
struct leaving {
	struct server *srv;
	const char *room, *addr;
	struct session *bots[2];
	int nbots;
};

static void
leave_member(void *arg, struct session *s)
{
	struct leaving *lv = arg;
	if (s->kind == SESSION_BOT && lv->nbots < 2) {
		lv->bots[lv->nbots++] = s;
		return;
	}
	session_check(s); /* away, it lived for its seat only */
	if (s->conn && lv->addr) {
		proto_msg_t e;
		proto_init(&e, PE_MOVED, NULL);
		snprintf(e.room, sizeof e.room, "%s", lv->room);
		snprintf(e.word, sizeof e.word, "%s", lv->addr);
		conn_send(s->conn, &e);
	}
}

/* Another node holds the lease of room: the room is its now. */
static void
lost(struct lease *l, const char *room, const char *holder)
{
	struct room *r = room_find(l->srv, room);
	if (!r || room_busy(r))
		return; /* its commit at the store is fenced; next second again */
	struct leaving lv = { l->srv, room, cluster_node_addr(l->cl, holder), { 0 }, 0 };
	log_warn(&l->srv->log, "room %s: its lease is node %s's now; the room is left to it", room,
	    holder);
	room_abandon(r, leave_member, &lv);
	for (int i = 0; i < lv.nbots; i++)
		botplay_drop(l->srv->botplay, lv.bots[i]);
}

static void
on_renewed(void *reply, void *priv)
{
	struct renewal *w = priv;
	redisReply *r = reply;
	if (r && r->type == REDIS_REPLY_ARRAY && (int)r->elements == w->keys.n && w->l->srv->rooms)
		for (int i = 0; i < w->keys.n; i++)
			if (r->element[i]->type == REDIS_REPLY_STRING && r->element[i]->str[0])
				lost(w->l, w->keys.v[i].room, r->element[i]->str);
	free(w->keys.v);
	free(w);
}

static void on_ignore(void *reply, void *priv);

/* Renews the leases of this node's unfinished rooms (and of the games it
 * is adopting); releases those of rooms that ended here. */
static void
renew(struct lease *l)
{
	struct entries gone = { 0 };
	for (int i = 0; i < l->held.n;) {
		struct room *r = room_find(l->srv, l->held.v[i].room);
		if (r && room_unfinished(r)) {
			i++;
			continue;
		}
		entries_add(&gone, l->held.v[i].room, "", 0);
		entries_del(&l->held, &l->held.v[i]);
	}
	if (gone.n && send_script(l, release_script, &gone, on_ignore, NULL) != 0)
		log_warn(&l->srv->log, "cluster: cannot release %d room lease%s now", gone.n,
		    gone.n == 1 ? "" : "s");
	free(gone.v);

	struct renewal *w = calloc(1, sizeof *w);
	if (!w)
		return;
	w->l = l;
	for (struct room *r = rooms_first(l->srv->rooms); r; r = rooms_next(r))
		if (room_unfinished(r)) {
			entries_add(&w->keys, room_id(r), "", 0);
			if (!entries_find(&l->held, room_id(r)))
				entries_add(&l->held, room_id(r), "", 0);
		}
	for (int i = 0; i < l->adopting.n; i++)
		entries_add(&w->keys, l->adopting.v[i].room, "", 0);
	if (w->keys.n == 0 || send_script(l, take_script, &w->keys, on_renewed, w) != 0) {
		free(w->keys.v);
		free(w);
	}
}

/* --- the directory --- */

static void
on_directory(void *reply, void *priv)
{
	struct lease *l = priv;
	redisReply *r = reply;
	if (!r || r->type != REDIS_REPLY_ARRAY)
		return;
	l->dir.n = 0;
	for (size_t i = 0; i + 1 < r->elements; i += 2)
		if (r->element[i]->type == REDIS_REPLY_STRING &&
		    r->element[i + 1]->type == REDIS_REPLY_STRING &&
		    r->element[i]->len <= PROTO_ROOM_MAX &&
		    r->element[i + 1]->len <= CONFIG_NODE_MAX)
			entries_add(&l->dir, r->element[i]->str, r->element[i + 1]->str, 0);
}

static void
on_ignore(void *reply, void *priv)
{
	(void)reply;
	(void)priv;
}

/* --- adoption --- */

/* One game being adopted: its lease is this node's. */
struct adoption {
	struct lease *l;
	char room[PROTO_ROOM_MAX + 1];
	char from[STORE_OWNER_MAX + 1];
	int64_t t0; /* ms: the lease taken */
};

/* Lets go of an adoption's lease (the game ended meanwhile, or failed). */
static void
give_up(struct lease *l, const char *room)
{
	struct entries one = { 0 };
	struct entry *x = entries_find(&l->adopting, room);
	if (x)
		entries_del(&l->adopting, x);
	if (entries_add(&one, room, "", 0))
		send_script(l, release_script, &one, on_ignore, NULL);
	free(one.v);
}

static void
adopted(void *arg, const struct archive_saved *sv, const char *why)
{
	struct adoption *a = arg;
	struct lease *l = a->l;
	struct room *r = NULL;
	if (sv && !room_find(l->srv, sv->room) && restore_game(l->srv, sv, &r, &why) == 0) {
		struct entry *x = entries_find(&l->adopting, a->room);
		if (x)
			entries_del(&l->adopting, x);
		entries_add(&l->held, a->room, "", 0);
		cluster_adopted(l->cl, r); /* watchers elsewhere go on */
		log_info(&l->srv->log,
		    "room %s: adopted from node %s with %d move%s, %lld ms after its lease was "
		    "taken",
		    a->room, a->from[0] ? a->from : "?", sv->nmoves, sv->nmoves == 1 ? "" : "s",
		    (long long)(clock_now_ms() - a->t0));
	} else {
		log_warn(&l->srv->log, "room %s: not adopted: %s", a->room,
		    why ? why : "it is here already");
		give_up(l, a->room);
	}
	free(a);
}

struct taking {
	struct lease *l;
	struct entries games; /* room, its owner, its game row */
};

static void
on_taken(void *reply, void *priv)
{
	struct taking *t = priv;
	struct lease *l = t->l;
	redisReply *r = reply;
	l->taking = 0;
	if (r && r->type == REDIS_REPLY_ARRAY && (int)r->elements == t->games.n && l->srv->rooms)
		for (int i = 0; i < t->games.n; i++) {
			const struct entry *g = &t->games.v[i];
			if (r->element[i]->type != REDIS_REPLY_STRING || r->element[i]->str[0])
				continue; /* another node holds it */
			struct adoption *a = calloc(1, sizeof *a);
			if (!a || !entries_add(&l->adopting, g->room, g->node, g->game)) {
				free(a);
				give_up(l, g->room);
				continue;
			}
			a->l = l;
			snprintf(a->room, sizeof a->room, "%s", g->room);
			snprintf(a->from, sizeof a->from, "%s", g->node);
			a->t0 = clock_now_ms();
			log_info(&l->srv->log, "room %s: node %s is gone; adopting game %lld",
			    g->room, g->node[0] ? g->node : "?", (long long)g->game);
			if (archive_adopt_async(l->srv, g->game, adopted, a) != 0) {
				free(a);
				give_up(l, g->room);
			}
		}
	free(t->games.v);
	free(t);
}

/* The open games: those of nodes not heard from, not here and not being
 * adopted, are candidates; their leases are taken where free. */
static void
scanned(void *arg, const store_open_game_t *g, int n)
{
	struct lease *l = arg;
	l->scanning = 0;
	if (n < 0 || !l->srv->rooms || l->taking)
		return;
	struct taking *t = calloc(1, sizeof *t);
	if (!t)
		return;
	t->l = l;
	for (int i = 0; i < n; i++) {
		char node[CONFIG_NODE_MAX + 1];
		const char *owner = g[i].owner;
		if (!owner[0] && roomid_parse(g[i].room, node, NULL) == 0)
			owner = node; /* a game from before owners were kept */
		if (room_find(l->srv, g[i].room) || entries_find(&l->adopting, g[i].room) ||
		    (strcmp(owner, l->srv->cfg.node_name) != 0 && cluster_node_addr(l->cl, owner)))
			continue;
		entries_add(&t->games, g[i].room, owner, g[i].id);
	}
	if (t->games.n && send_script(l, take_script, &t->games, on_taken, t) == 0) {
		l->taking = 1;
		return;
	}
	free(t->games.v);
	free(t);
}

static void
tick_cb(evutil_socket_t fd, short what, void *arg)
{
	struct lease *l = arg;
	int64_t now = clock_now_ms();
	(void)fd;
	(void)what;
	if (!cluster_up(l->cl)) {
		l->up_since = 0;
		return;
	}
	if (!l->up_since)
		l->up_since = now;
	renew(l);
	const char *argv[2] = { "HGETALL", DIRECTORY };
	cluster_command(l->cl, on_directory, l, 2, argv, NULL);
	/* scans: every second for a lease time after a node was forgotten
	 * (its leases run out meanwhile), else every LEASE_SCAN_MS */
	unsigned f = cluster_forgotten(l->cl);
	if (f != l->forgotten) {
		l->forgotten = f;
		l->scan_until = now + LEASE_MS + LEASE_RENEW_MS;
	}
	int due = now <= l->scan_until || !l->scan_at || now - l->scan_at >= LEASE_SCAN_MS;
	/* only once the other nodes' presence is heard, and their leases
	 * renewed since Redis came back: a live node's games are never taken */
	if (due && now - l->up_since >= LEASE_MS + LEASE_RENEW_MS && !l->scanning && !l->taking &&
	    archive_open_async(l->srv, scanned, l) == 0) {
		l->scanning = 1;
		l->scan_at = now;
	}
}

struct lease *
lease_new(struct server *srv, struct cluster *cl)
{
	if (!archive_fence(srv))
		return NULL;
	struct lease *l = calloc(1, sizeof *l);
	struct timeval every = { LEASE_RENEW_MS / 1000, LEASE_RENEW_MS % 1000 * 1000 };
	if (!l)
		return NULL;
	l->srv = srv;
	l->cl = cl;
	if (!(l->tick = event_new(srv->base, -1, EV_PERSIST, tick_cb, l)) ||
	    event_add(l->tick, &every) != 0) {
		lease_free(l);
		return NULL;
	}
	return l;
}

void
lease_free(struct lease *l)
{
	if (!l)
		return;
	if (l->tick)
		event_free(l->tick);
	free(l->held.v);
	free(l->adopting.v);
	free(l->dir.v);
	free(l);
}
