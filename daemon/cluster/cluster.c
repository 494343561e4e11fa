/* cluster.c: the node's side of a cluster (cluster.h). Presence: every
 * second each node publishes its users and public rooms whole on
 * gomoku:presence, and each node keeps the others' last message (gone
 * after NODE_TTL_MS unheard), so WHO and ROOMS answer at once from memory
 * and a Redis restart heals with the next publication. A room belongs to
 * the node its id names; a watcher elsewhere subscribes to the room's
 * channel, then asks the owner (W), which answers with a snapshot (S) on
 * that channel and relays every event of the room there (E) through a
 * sink on the room; the subscription delivers them in order. */
#include "daemon/cluster/cluster.h"

#include <sys/queue.h>
#include <sys/socket.h>

#include <netdb.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/event.h>
#include <hiredis/adapters/libevent.h>
#include <hiredis/async.h>
#include <hiredis/hiredis.h>

#include "daemon/botplay.h"
#include "daemon/bots.h"
#include "daemon/clock.h"
#include "daemon/cluster/clusterlobby.h"
#include "daemon/cluster/clustermsg.h"
#include "daemon/roomid.h"
#include "daemon/conn.h"
#include "daemon/cluster/lease.h"
#include "daemon/log.h"
#include "daemon/room.h"
#include "daemon/core.h"
#include "daemon/session.h"
#include "daemon/sink.h"

enum {
	NODES_MAX = 64,
	TICK_MS = 1000,
	NODE_TTL_MS = 3500,
	BACKOFF_MAX_S = 16,
	PRESENCE_LINES_MAX = 20000, /* of each kind in one P message */
	CHAN_MAX = 64,
};

#define CHAN_PRESENCE "gomoku:presence"
#define JOBS_STREAM "gomoku:bots"
#define JOBS_GROUP "workers"
enum {
	JOBS_MAXLEN = 10000, /* the stream is trimmed to about this */
	JOBS_BLOCK_MS = 2000,
	JOB_MSG_MAX = 4096,
	ENTRY_MAX = 48,
};

/* A job of this node's sent to the stream: its entry, to drop it. */
struct sent {
	LIST_ENTRY(sent) link;
	int64_t id;
	char entry[ENTRY_MAX]; /* "" until XADD answers */
};

/* Another node's job this node searches. */
struct served {
	LIST_ENTRY(served) link;
	struct cluster *cl;
	int64_t bots_id;
	uint64_t job; /* the owner's id */
	char owner[CONFIG_NODE_MAX + 1];
	char entry[ENTRY_MAX];
};

/* What a reply about one entry needs. */
struct entryref {
	struct cluster *cl;
	int64_t id;
	char entry[ENTRY_MAX];
};

struct peer {
	char name[CONFIG_NODE_MAX + 1];
	char addr[CMSG_ADDR_MAX + 1];
	int64_t seen; /* ms, clock_now_ms */
	char *body;   /* its last P message's lines */
	size_t len;
};

struct rroom;

/* A connection here watching another node's room. */
struct rwatch {
	LIST_ENTRY(rwatch) link;
	struct conn *c; /* NULL: it went away, freed by the next tick */
	struct rroom *rr;
	int pending;   /* waits for its snapshot (c is held) */
	int64_t asked; /* ms */
	char tag[PROTO_TAG_MAX + 1];
	proto_id_t reply; /* PO_WATCH or PO_STATE */
};

/* Another node's room watched from here: its channel, its watchers. */
struct rroom {
	LIST_ENTRY(rroom) link;
	char id[PROTO_ROOM_MAX + 1];
	int subscribed; /* Redis confirmed the subscription */
	LIST_HEAD(, rwatch) watchers;
};

/* How many watch a relayed room from one node, as it said last (C). */
struct far {
	char node[CONFIG_NODE_MAX + 1];
	uint32_t n;
	int64_t at; /* ms */
};

/* This node's room relayed to the others' watchers. */
struct relay {
	LIST_ENTRY(relay) link;
	struct sink sink; /* the room hands its events to it */
	struct cluster *cl;
	char id[PROTO_ROOM_MAX + 1];
	unsigned gen; /* counts the owner's W requests */
	struct far far[NODES_MAX];
	int nfar;
};

/* What a PUBLISH of a relayed event carries to its reply. */
struct published {
	struct cluster *cl;
	char id[PROTO_ROOM_MAX + 1];
	unsigned gen;
};

struct cluster {
	struct server *srv;
	char ip[NI_MAXHOST];
	int port;
	char node[CONFIG_NODE_MAX + 1];
	char addr[CMSG_ADDR_MAX + 1];
	char chan_node[CHAN_MAX];
	redisAsyncContext *cmd, *sub;
	int cmd_up, sub_up;
	int64_t sub_since; /* ms: when the subscriptions' connection came up */
	int backoff_s;
	int64_t retry_at;
	struct event *tick;
	struct peer peers[NODES_MAX];
	int npeers;
	LIST_HEAD(, rroom) rrooms;
	LIST_HEAD(, relay) relays;
	int twin_said;      /* another node's presence came under this node's name */
	unsigned forgotten; /* nodes forgotten, unheard for NODE_TTL_MS */
	int said_down;      /* the outage is logged */
	/* bots: this node's jobs (pool remote) or other nodes' (serve) */
	struct bots *pool;
	int remote;              /* its pool has no workers: jobs go to the stream */
	int serve;               /* it searches jobs from the stream */
	int workers;             /* its pool's threads */
	int64_t claim_ms;        /* a job pending this long is taken for lost */
	redisAsyncContext *jobs; /* the blocking reads, apart from commands */
	int jobs_up, group_ready, reading, claiming;
	uint64_t served_seq;
	LIST_HEAD(, sent) sent;
	LIST_HEAD(, served) served;
	struct clobby *lobby; /* seeks and challenges across nodes */
	struct lease *lease;  /* room leases (on a shared PostgreSQL); NULL: none */
	int stopped;          /* cluster_stop: no Redis, no relays from now on */
};

static void start(struct cluster *cl);

static void
room_chan(char out[CHAN_MAX], const char *room)
{
	snprintf(out, CHAN_MAX, "gomoku:room:%s", room);
}

int
cluster_up(const struct cluster *cl)
{
	return cl->cmd_up && cl->sub_up;
}

/* One of the connections is gone: let go of the other, try again later. */
static void
down(struct cluster *cl, const char *why)
{
	if (cl->cmd_up && cl->sub_up)
		log_warn(&cl->srv->log, "cluster: Redis %s:%d lost: %s", cl->ip, cl->port, why);
	else if (!cl->said_down)
		log_warn(&cl->srv->log, "cluster: cannot reach Redis %s:%d (%s); trying again",
		    cl->ip, cl->port, why);
	cl->said_down = 1; /* until it is up again */
	cl->cmd_up = cl->sub_up = cl->jobs_up = 0;
	cl->group_ready = cl->reading = cl->claiming = 0;
	redisAsyncContext *a = cl->cmd, *b = cl->sub, *j = cl->jobs;
	cl->cmd = cl->sub = cl->jobs = NULL;
	if (a)
		redisAsyncDisconnect(a);
	if (b)
		redisAsyncDisconnect(b);
	if (j)
		redisAsyncDisconnect(j);
	/* what was sent to the stream went with Redis, or will be claimed */
	while (!LIST_EMPTY(&cl->sent)) {
		struct sent *x = LIST_FIRST(&cl->sent);
		LIST_REMOVE(x, link);
		free(x);
	}
	struct rroom *rr;
	LIST_FOREACH (rr, &cl->rrooms, link)
		rr->subscribed = 0;
	/* what was heard through Redis is stale now */
	for (int i = 0; i < cl->npeers; i++)
		free(cl->peers[i].body);
	cl->npeers = 0;
	cl->retry_at = clock_now_ms() + (int64_t)cl->backoff_s * 1000;
	cl->backoff_s = cl->backoff_s * 2 > BACKOFF_MAX_S ? BACKOFF_MAX_S : cl->backoff_s * 2;
}

static void jobs_group(struct cluster *cl);
static void jobs_read(struct cluster *cl);

static void
on_connect(const redisAsyncContext *ac, int status)
{
	struct cluster *cl = ac->data;
	if (ac != cl->cmd && ac != cl->sub && ac != cl->jobs)
		return;
	if (status != REDIS_OK) {
		/* hiredis frees ac after this callback */
		if (ac == cl->cmd)
			cl->cmd = NULL;
		else if (ac == cl->sub)
			cl->sub = NULL;
		else
			cl->jobs = NULL;
		down(cl, ac->errstr[0] ? ac->errstr : "cannot connect");
		return;
	}
	if (ac == cl->cmd)
		cl->cmd_up = 1;
	else if (ac == cl->sub) {
		cl->sub_up = 1;
		cl->sub_since = clock_now_ms();
	} else
		cl->jobs_up = 1;
	if (ac == cl->cmd)
		jobs_group(cl);
	if (ac == cl->jobs)
		jobs_read(cl);
	if (cluster_up(cl)) {
		cl->backoff_s = 1;
		cl->said_down = 0;
		log_info(
		    &cl->srv->log, "cluster: node %s on Redis %s:%d", cl->node, cl->ip, cl->port);
	}
}

static void
on_disconnect(const redisAsyncContext *ac, int status)
{
	struct cluster *cl = ac->data;
	(void)status;
	if (ac == cl->cmd)
		cl->cmd = NULL;
	else if (ac == cl->sub)
		cl->sub = NULL;
	else if (ac == cl->jobs)
		cl->jobs = NULL;
	else
		return; /* one we let go of */
	down(cl, ac->errstr[0] ? ac->errstr : "disconnected");
}

static redisAsyncContext *
open_one(struct cluster *cl)
{
	redisAsyncContext *ac = redisAsyncConnect(cl->ip, cl->port);
	if (!ac)
		return NULL;
	if (ac->err) {
		log_warn(&cl->srv->log, "cluster: Redis %s:%d: %s", cl->ip, cl->port, ac->errstr);
		redisAsyncFree(ac);
		return NULL;
	}
	ac->data = cl;
	if (redisLibeventAttach(ac, cl->srv->base) != REDIS_OK) {
		redisAsyncFree(ac);
		return NULL;
	}
	redisAsyncSetConnectCallback(ac, on_connect);
	redisAsyncSetDisconnectCallback(ac, on_disconnect);
	return ac;
}

/* A reply to a command whose answer does not matter (PUBLISH). */
static void
on_ignore(redisAsyncContext *ac, void *reply, void *priv)
{
	(void)ac;
	(void)reply;
	(void)priv;
}

static void
publish(struct cluster *cl, const char *chan, const char *buf, size_t n, redisCallbackFn *fn,
    void *priv)
{
	if (!cl->cmd_up ||
	    redisAsyncCommand(cl->cmd, fn ? fn : on_ignore, priv, "PUBLISH %s %b", chan, buf, n) !=
		REDIS_OK) {
		if (fn)
			fn(NULL, NULL, priv);
	}
}

static void on_message(redisAsyncContext *ac, void *reply, void *priv);

static void
subscribe(struct cluster *cl, const char *chan)
{
	if (cl->sub)
		redisAsyncCommand(cl->sub, on_message, cl, "SUBSCRIBE %s", chan);
}

/* (Re)connects both and subscribes to what this node listens to. */
static void
start(struct cluster *cl)
{
	if (!(cl->cmd = open_one(cl)) || !(cl->sub = open_one(cl)) ||
	    (cl->serve && !(cl->jobs = open_one(cl)))) {
		down(cl, "cannot connect");
		return;
	}
	subscribe(cl, CHAN_PRESENCE);
	subscribe(cl, cl->chan_node);
	char chan[CHAN_MAX];
	struct rroom *rr;
	LIST_FOREACH (rr, &cl->rrooms, link) {
		room_chan(chan, rr->id);
		subscribe(cl, chan);
	}
}

static struct peer *
peer_named(struct cluster *cl, const char *name)
{
	for (int i = 0; i < cl->npeers; i++)
		if (strcmp(cl->peers[i].name, name) == 0)
			return &cl->peers[i];
	return NULL;
}

static void
peer_heard(struct cluster *cl, const struct cmsg *m)
{
	struct peer *p = peer_named(cl, m->node);
	if (!p) {
		if (cl->npeers == NODES_MAX) {
			log_warn(&cl->srv->log, "cluster: more than %d nodes; %s ignored",
			    NODES_MAX, m->node);
			return;
		}
		p = &cl->peers[cl->npeers++];
		memset(p, 0, sizeof *p);
		snprintf(p->name, sizeof p->name, "%s", m->node);
		log_info(&cl->srv->log, "cluster: node %s heard at %s", m->node, m->addr);
	}
	char *body = malloc(m->bodylen + 1);
	if (!body)
		return;
	memcpy(body, m->body, m->bodylen);
	body[m->bodylen] = '\0';
	free(p->body);
	p->body = body;
	p->len = m->bodylen;
	snprintf(p->addr, sizeof p->addr, "%s", m->addr);
	p->seen = clock_now_ms();
}

static void
peers_expire(struct cluster *cl, int64_t now)
{
	for (int i = 0; i < cl->npeers;) {
		if (now - cl->peers[i].seen <= NODE_TTL_MS) {
			i++;
			continue;
		}
		log_info(
		    &cl->srv->log, "cluster: node %s not heard from; forgotten", cl->peers[i].name);
		free(cl->peers[i].body);
		cl->peers[i] = cl->peers[--cl->npeers];
		cl->forgotten++;
	}
}

unsigned
cluster_forgotten(const struct cluster *cl)
{
	return cl ? cl->forgotten : 0;
}

int
cluster_each(struct cluster *cl, proto_id_t id, int max,
    void (*fn)(void *arg, const proto_msg_t *m), void *arg)
{
	int n = 0;
	if (!cluster_up(cl))
		return 0;
	for (int i = 0; i < cl->npeers; i++) {
		const char *p = cl->peers[i].body, *end = p + cl->peers[i].len, *line;
		size_t len;
		proto_msg_t m;
		while (n < max && cmsg_next_line(&p, end, &line, &len))
			if (proto_parse(line, len, PROTO_SERVER, &m, NULL, 0) == 0 && m.id == id) {
				fn(arg, &m);
				n++;
			}
	}
	return n;
}

/* The node where name is online (the first that lists it), with its name
 * as that node spells it. */
static struct peer *
peer_of_user(struct cluster *cl, const char *name, char canon[PROTO_NAME_MAX + 1])
{
	for (int i = 0; i < cl->npeers; i++) {
		const char *p = cl->peers[i].body, *end = p + cl->peers[i].len, *line;
		size_t len;
		proto_msg_t m;
		while (cmsg_next_line(&p, end, &line, &len))
			if (proto_parse(line, len, PROTO_SERVER, &m, NULL, 0) == 0 &&
			    m.id == PD_USER && strcasecmp(m.user, name) == 0) {
				memcpy(canon, m.user, PROTO_NAME_MAX + 1);
				return &cl->peers[i];
			}
	}
	return NULL;
}

const char *
cluster_user_node(struct cluster *cl, const char *name, char canon[PROTO_NAME_MAX + 1])
{
	struct peer *p = peer_of_user(cl, name, canon);
	return p ? p->name : NULL;
}

game_err_t
cluster_tell(
    struct cluster *cl, const char *from, const char *to, const char *text, const char **why)
{
	char buf[PROTO_LINE_MAX + 64], chan[CHAN_MAX], canon[PROTO_NAME_MAX + 1];
	int n;
	if (!cluster_up(cl)) {
		*why = "not on this node, and the cluster is unreachable now";
		return GERR_UNAVAILABLE;
	}
	struct peer *p = peer_of_user(cl, to, canon);
	if (!p)
		return GERR_NO_USER;
	if ((n = cmsg_format_tell(buf, sizeof buf, from, canon, text)) < 0)
		return GERR_ARGUMENT;
	snprintf(chan, sizeof chan, "gomoku:node:%s", p->name);
	publish(cl, chan, buf, (size_t)n, NULL, NULL);
	return GERR_OK;
}

int
cluster_owner(const struct cluster *cl, const char *room, char node[CONFIG_NODE_MAX + 1])
{
	const char *holder = lease_owner(cl->lease, room);
	if (holder) {
		snprintf(node, CONFIG_NODE_MAX + 1, "%s", holder);
		return 0;
	}
	return roomid_parse(room, node, NULL);
}

/* Whether room is another node's: not here, and its owner is not this. */
static int
remote(const struct cluster *cl, const char *room)
{
	char node[CONFIG_NODE_MAX + 1];
	return !room_find(cl->srv, room) && cluster_owner(cl, room, node) == 0 &&
	    strcmp(node, cl->node) != 0;
}

const char *
cluster_node_addr(const struct cluster *cl, const char *node)
{
	if (!cluster_up(cl))
		return NULL;
	for (int i = 0; i < cl->npeers; i++)
		if (strcmp(cl->peers[i].name, node) == 0)
			return cl->peers[i].addr;
	return NULL;
}

/* What cluster_command's reply goes to. */
struct command {
	cluster_reply_fn *fn;
	void *priv;
};

static void
on_command(redisAsyncContext *ac, void *reply, void *priv)
{
	struct command *k = priv;
	(void)ac;
	k->fn(reply, k->priv);
	free(k);
}

int
cluster_command(struct cluster *cl, cluster_reply_fn *fn, void *priv, int argc, const char **argv,
    const size_t *argvlen)
{
	struct command *k;
	if (!cluster_up(cl) || !(k = malloc(sizeof *k)))
		return -1;
	k->fn = fn;
	k->priv = priv;
	if (redisAsyncCommandArgv(cl->cmd, on_command, k, argc, argv, argvlen) != REDIS_OK) {
		free(k);
		return -1;
	}
	return 0;
}

struct server *
cluster_server(const struct cluster *cl)
{
	return cl->srv;
}

const char *
cluster_node(const struct cluster *cl)
{
	return cl->node;
}

struct clobby *
cluster_lobby(const struct cluster *cl)
{
	return cl ? cl->lobby : NULL;
}

int
cluster_send_lobby(struct cluster *cl, const char *node, const char *text)
{
	char buf[PROTO_LINE_MAX + 256], chan[CHAN_MAX];
	int n = cmsg_format_lobby(buf, sizeof buf, cl->node, text);
	if (!cluster_up(cl) || n < 0)
		return -1;
	snprintf(chan, sizeof chan, "gomoku:node:%s", node);
	publish(cl, chan, buf, (size_t)n, NULL, NULL);
	return 0;
}

int
cluster_lobby_all(struct cluster *cl, const char *text)
{
	int n = 0;
	if (!cluster_up(cl))
		return 0;
	for (int i = 0; i < cl->npeers; i++)
		n += cluster_send_lobby(cl, cl->peers[i].name, text) == 0;
	return n;
}

int
cluster_each_of(struct cluster *cl, proto_id_t id,
    int (*fn)(void *arg, const char *node, const proto_msg_t *m), void *arg)
{
	if (!cluster_up(cl))
		return 0;
	for (int i = 0; i < cl->npeers; i++) {
		const char *p = cl->peers[i].body, *end = p + cl->peers[i].len, *line;
		size_t len;
		proto_msg_t m;
		while (cmsg_next_line(&p, end, &line, &len))
			if (proto_parse(line, len, PROTO_SERVER, &m, NULL, 0) == 0 && m.id == id &&
			    fn(arg, cl->peers[i].name, &m))
				return 1;
	}
	return 0;
}

/* --- watching another node's room --- */

static struct rroom *
rroom_find(const struct cluster *cl, const char *id)
{
	struct rroom *rr;
	LIST_FOREACH (rr, &cl->rrooms, link)
		if (strcmp(rr->id, id) == 0)
			return rr;
	return NULL;
}

/* Asks the owner of rr for a snapshot and its events. */
static void
ask_owner(struct cluster *cl, struct rroom *rr)
{
	char buf[64], node[CONFIG_NODE_MAX + 1], chan[CHAN_MAX];
	int n = cmsg_format_watch(buf, sizeof buf, rr->id, cl->node);
	if (n < 0 || cluster_owner(cl, rr->id, node) != 0)
		return;
	snprintf(chan, sizeof chan, "gomoku:node:%s", node);
	publish(cl, chan, buf, (size_t)n, NULL, NULL);
}

static void
rwatch_free(struct cluster *cl, struct rwatch *w)
{
	struct rroom *rr = w->rr;
	LIST_REMOVE(w, link);
	free(w);
	if (LIST_EMPTY(&rr->watchers)) {
		char chan[CHAN_MAX];
		room_chan(chan, rr->id);
		if (cl->sub && cl->sub_up)
			redisAsyncCommand(cl->sub, on_message, cl, "UNSUBSCRIBE %s", chan);
		LIST_REMOVE(rr, link);
		free(rr);
	}
}

/* A pending watch ends without its snapshot: the error, c reads again. */
static void
rwatch_refuse(struct cluster *cl, struct rwatch *w, int code, const char *why)
{
	struct conn *c = w->c;
	char tag[PROTO_TAG_MAX + 1];
	memcpy(tag, w->tag, sizeof tag);
	rwatch_free(cl, w);
	conn_error(c, tag, code, why ? "%s" : NULL, why);
	conn_release(c);
}

static struct rwatch *
rwatch_of(const struct cluster *cl, const struct conn *c, const char *room)
{
	struct rroom *rr = rroom_find(cl, room);
	struct rwatch *w;
	if (rr)
		LIST_FOREACH (w, &rr->watchers, link)
			if (w->c == c)
				return w;
	return NULL;
}

static int
watches_of(const struct cluster *cl, const struct conn *c)
{
	struct rroom *rr;
	struct rwatch *w;
	int n = 0;
	LIST_FOREACH (rr, &cl->rrooms, link)
		LIST_FOREACH (w, &rr->watchers, link)
			n += w->c == c;
	return n;
}

const char *
cluster_watched(const struct cluster *cl, const struct conn *c)
{
	struct rroom *rr;
	struct rwatch *w;
	LIST_FOREACH (rr, &cl->rrooms, link)
		LIST_FOREACH (w, &rr->watchers, link)
			if (w->c == c && !w->pending)
				return rr->id;
	return NULL;
}

/* A = USER line of s (session_info's) that says idle says watching when
 * s's connection watches another node's room. */
static void
user_info(const struct cluster *cl, const struct session *s, proto_msg_t *m)
{
	const char *far;
	if (s->conn && m->ustate == USER_IDLE && (far = cluster_watched(cl, s->conn))) {
		m->ustate = USER_WATCHING;
		snprintf(m->room, sizeof m->room, "%s", far);
	}
}

/* What cluster_each_in passes on. */
struct in_room {
	const char *room;
	proto_ustate_t state;
	int max, n;
	void (*fn)(void *arg, const proto_msg_t *m);
	void *arg;
};

static int
user_in_room(void *arg, const char *node, const proto_msg_t *m)
{
	struct in_room *q = arg;
	(void)node;
	if (m->ustate == q->state && strcmp(m->room, q->room) == 0) {
		q->fn(q->arg, m);
		q->n++;
	}
	return q->n >= q->max;
}

int
cluster_each_in(struct cluster *cl, const char *room, int max,
    void (*fn)(void *arg, const proto_msg_t *m), void *arg)
{
	struct in_room q = { room, USER_PLAYING, max, 0, fn, arg };
	if (!cl || max <= 0)
		return 0;
	cluster_each_of(cl, PD_USER, user_in_room, &q);
	q.state = USER_WATCHING;
	if (q.n < max)
		cluster_each_of(cl, PD_USER, user_in_room, &q);
	return q.n;
}

int
cluster_watchers_here(struct cluster *cl, const char *room, int max,
    void (*fn)(void *arg, const proto_msg_t *m), void *arg)
{
	struct rroom *rr = cl ? rroom_find(cl, room) : NULL;
	struct rwatch *w;
	int n = 0;
	if (!rr)
		return 0;
	LIST_FOREACH (w, &rr->watchers, link)
		if (w->c && w->c->sess && !w->pending && n < max) {
			proto_msg_t m;
			session_info(w->c->sess, NULL, &m);
			if (m.ustate == USER_IDLE || m.ustate == USER_WATCHING) {
				m.ustate = USER_WATCHING; /* in this room, as WHO <room> says */
				snprintf(m.room, sizeof m.room, "%s", rr->id);
			}
			fn(arg, &m);
			n++;
		}
	return n;
}

static int
room_listed(void *arg, const char *node, const proto_msg_t *m)
{
	(void)node;
	return strcmp(m->room, arg) == 0;
}

int
cluster_room_listed(struct cluster *cl, const char *room)
{
	return cl && cluster_each_of(cl, PD_ROOM, room_listed, (void *)room);
}

game_err_t
cluster_watch(struct cluster *cl, struct conn *c, const proto_msg_t *m, const char **why)
{
	if (!cluster_up(cl)) {
		*why = "that room is on another node, and the cluster is unreachable now";
		return GERR_UNAVAILABLE;
	}
	struct rwatch *w = rwatch_of(cl, c, m->room);
	if (!w && m->id == PR_STATE)
		return GERR_NOT_IN_ROOM;
	char node[CONFIG_NODE_MAX + 1];
	if (!w && clock_now_ms() - cl->sub_since > NODE_TTL_MS &&
	    (cluster_owner(cl, m->room, node) != 0 || !cluster_node_addr(cl, node))) {
		/* up long enough to have heard every live node, and no node has
		 * it: nobody would answer the ask, so no such room now, not later */
		*why = "no node of the cluster has that room now";
		return GERR_NO_ROOM;
	}
	if (!w && watches_of(cl, c) >= SESSION_MAX_ROOMS) {
		*why = "watching too many rooms of other nodes";
		return GERR_BUSY;
	}
	struct rroom *rr = w ? w->rr : rroom_find(cl, m->room);
	if (!rr) {
		if (!(rr = calloc(1, sizeof *rr)))
			return GERR_NOMEM;
		snprintf(rr->id, sizeof rr->id, "%s", m->room);
		LIST_INIT(&rr->watchers);
		LIST_INSERT_HEAD(&cl->rrooms, rr, link);
		char chan[CHAN_MAX];
		room_chan(chan, rr->id);
		subscribe(cl, chan); /* its confirmation asks the owner */
	} else if (rr->subscribed) {
		ask_owner(cl, rr);
	}
	if (!w) {
		if (!(w = calloc(1, sizeof *w))) {
			if (LIST_EMPTY(&rr->watchers)) {
				LIST_REMOVE(rr, link);
				free(rr);
			}
			return GERR_NOMEM;
		}
		w->c = c;
		w->rr = rr;
		LIST_INSERT_HEAD(&rr->watchers, w, link);
	}
	w->pending = 1;
	w->asked = clock_now_ms();
	w->reply = proto_reply_of(m->id);
	memcpy(w->tag, m->tag, sizeof w->tag);
	conn_hold(c, CONN_HOLD_WORLD);
	return GERR_PENDING;
}

int
cluster_watching(const struct cluster *cl, const struct conn *c, const char *room)
{
	return cl && rwatch_of(cl, c, room) != NULL;
}

game_err_t
cluster_leave(struct cluster *cl, struct conn *c, const char *room)
{
	struct rwatch *w = rwatch_of(cl, c, room);
	if (!w)
		return GERR_NOT_IN_ROOM;
	rwatch_free(cl, w);
	return GERR_OK;
}

/* A connection may be killed while a room's lines are handed out (a slow
 * reader): its watches are only marked here, and freed by the tick. */
void
cluster_conn_gone(struct cluster *cl, struct conn *c)
{
	struct rroom *rr;
	struct rwatch *w;
	if (!cl)
		return;
	clobby_conn_gone(cl->lobby, c);
	LIST_FOREACH (rr, &cl->rrooms, link)
		LIST_FOREACH (w, &rr->watchers, link)
			if (w->c == c)
				w->c = NULL;
}

/* The owner's snapshot: to every watcher waiting for one, then its OK. */
static void
got_snapshot(struct cluster *cl, const struct cmsg *m)
{
	struct rroom *rr = rroom_find(cl, m->room);
	struct rwatch *w, *next;
	if (!rr)
		return;
	for (w = LIST_FIRST(&rr->watchers); w; w = next) {
		next = LIST_NEXT(w, link);
		if (!w->pending || !w->c)
			continue;
		if (m->bodylen == 0) { /* no such public room there */
			rwatch_refuse(cl, w, ERR_NO_ROOM, NULL);
			continue;
		}
		const char *p = m->body, *end = m->body + m->bodylen, *line;
		size_t n;
		char out[PROTO_LINE_MAX + 1];
		while (cmsg_next_line(&p, end, &line, &n)) {
			memcpy(out, line, n);
			out[n] = '\n';
			conn_send_raw(w->c, out, n + 1);
		}
		proto_msg_t ok;
		proto_init(&ok, w->reply, w->tag);
		snprintf(ok.room, sizeof ok.room, "%s", m->room);
		ok.seq = m->seq;
		conn_send(w->c, &ok);
		w->pending = 0;
		conn_release(w->c);
	}
}

static void
got_event(struct cluster *cl, const struct cmsg *m)
{
	struct rroom *rr = rroom_find(cl, m->room);
	struct rwatch *w;
	char out[PROTO_LINE_MAX + 1];
	if (!rr)
		return;
	memcpy(out, m->body, m->bodylen);
	out[m->bodylen] = '\n';
	LIST_FOREACH (w, &rr->watchers, link)
		if (!w->pending && w->c)
			conn_send_raw(w->c, out, m->bodylen + 1);
}

/* Watches whose connection went, and owners that did not answer. */
static void
watchers_expire(struct cluster *cl, int64_t now)
{
	struct rroom *rr, *rnext;
	for (rr = LIST_FIRST(&cl->rrooms); rr; rr = rnext) {
		rnext = LIST_NEXT(rr, link);
		struct rwatch *w, *next;
		/* rr goes with its last watcher, which has no next */
		for (w = LIST_FIRST(&rr->watchers); w; w = next) {
			next = LIST_NEXT(w, link);
			if (!w->c)
				rwatch_free(cl, w);
			else if (w->pending && now - w->asked >= CLUSTER_ASK_S * 1000)
				rwatch_refuse(cl, w, ERR_UNAVAILABLE,
				    "the room's node did not answer; try again");
		}
	}
}

/* --- relaying this node's rooms --- */

static struct relay *
relay_find(const struct cluster *cl, const char *id)
{
	struct relay *k;
	LIST_FOREACH (k, &cl->relays, link)
		if (strcmp(k->id, id) == 0)
			return k;
	return NULL;
}

static void
relay_free(struct relay *k)
{
	struct room *r = room_find(k->cl->srv, k->id);
	if (r)
		room_set_relay(r, NULL);
	LIST_REMOVE(k, link);
	free(k);
}

/* No node listens to the room's channel any more (and none asked since the
 * event went out): the relay ends. */
static void
on_relayed(redisAsyncContext *ac, void *reply, void *priv)
{
	struct published *p = priv;
	redisReply *r = reply;
	(void)ac;
	if (r && r->type == REDIS_REPLY_INTEGER && r->integer == 0) {
		struct relay *k = relay_find(p->cl, p->id);
		if (k && k->gen == p->gen)
			relay_free(k);
	}
	free(p);
}

static void
relay_deliver(struct sink *s, struct room *r, const proto_msg_t *m, const char *line, size_t n)
{
	struct relay *k = (struct relay *)(void *)((char *)s - offsetof(struct relay, sink));
	char buf[PROTO_LINE_MAX + 8], chan[CHAN_MAX];
	(void)m;
	int len = cmsg_format_event(buf, sizeof buf, line, n);
	struct published *p = malloc(sizeof *p);
	if (len < 0 || !p) {
		free(p);
		return;
	}
	p->cl = k->cl;
	p->gen = k->gen;
	snprintf(p->id, sizeof p->id, "%s", room_id(r));
	room_chan(chan, k->id);
	publish(k->cl, chan, buf, (size_t)len, on_relayed, p);
}

/* A relay is a room's, never a user's. */
static void
relay_say(struct sink *k, const proto_msg_t *m)
{
	(void)k;
	(void)m;
}

static void
relay_drop(struct sink *k)
{
	(void)k;
}

static const struct sink_ops relay_ops = { relay_deliver, relay_say, relay_drop };

static void
snapshot_line(void *arg, const proto_msg_t *m)
{
	char line[PROTO_LINE_MAX];
	int n = proto_format(m, line, sizeof line);
	if (n > 0)
		evbuffer_add(arg, line, (size_t)n);
}

void
cluster_relay(struct cluster *cl, struct room *r)
{
	struct relay *k;
	if (cl->stopped)
		return;
	if (!(k = relay_find(cl, room_id(r))) && (k = calloc(1, sizeof *k)) != NULL) {
		k->sink.ops = &relay_ops;
		k->cl = cl;
		snprintf(k->id, sizeof k->id, "%s", room_id(r));
		LIST_INSERT_HEAD(&cl->relays, k, link);
		room_set_relay(r, &k->sink);
	}
	if (k)
		k->gen++;
}

/* Another node asks for one of this node's rooms: its snapshot on the
 * room's channel (empty: no such public room), then its events. */
static void
got_watch(struct cluster *cl, const struct cmsg *m)
{
	struct room *r = room_find(cl->srv, m->room);
	struct evbuffer *b = evbuffer_new();
	char head[64], chan[CHAN_MAX];
	if (!b)
		return;
	if (r && room_private(r))
		r = NULL;
	log_debug(&cl->srv->log, "cluster: node %s watches room %s%s", m->node, m->room,
	    r ? "" : " (none such)");
	int n = cmsg_format_snapshot(head, sizeof head, m->room, r ? room_seq(r) : 0);
	if (n > 0)
		evbuffer_add(b, head, (size_t)n);
	if (r) {
		cluster_relay(cl, r);
		room_snapshot(r, snapshot_line, b);
	}
	/* a snapshot is lines, each with its LF; the message drops the last */
	size_t len = evbuffer_get_length(b);
	const char *data = (const char *)evbuffer_pullup(b, -1);
	if (data && len > 0) {
		room_chan(chan, m->room);
		publish(cl, chan, data, data[len - 1] == '\n' ? len - 1 : len, NULL, NULL);
	}
	evbuffer_free(b);
}

/* Another node's count of the spectators of one of this node's rooms. */
static void
got_watchers(struct cluster *cl, const struct cmsg *m)
{
	struct relay *k = relay_find(cl, m->room);
	int i;
	if (!k)
		return;
	for (i = 0; i < k->nfar && strcmp(k->far[i].node, m->node) != 0; i++)
		;
	if (i == k->nfar) {
		if (k->nfar == NODES_MAX)
			return;
		snprintf(k->far[k->nfar++].node, sizeof k->far[0].node, "%s", m->node);
	}
	k->far[i].n = m->seq;
	k->far[i].at = clock_now_ms();
}

/* Every second: the owners hear how many watch their rooms from here, and
 * this node's rooms count the spectators the others said (gone when a
 * node stops saying). */
static void
watchers_count(struct cluster *cl, int64_t now)
{
	char buf[96], node[CONFIG_NODE_MAX + 1], chan[CHAN_MAX];
	struct rroom *rr;
	struct rwatch *w;
	LIST_FOREACH (rr, &cl->rrooms, link) {
		uint32_t n = 0;
		LIST_FOREACH (w, &rr->watchers, link)
			n += w->c && !w->pending;
		int len = cmsg_format_watchers(buf, sizeof buf, rr->id, cl->node, n);
		if (n && len > 0 && roomid_parse(rr->id, node, NULL) == 0) {
			snprintf(chan, sizeof chan, "gomoku:node:%s", node);
			publish(cl, chan, buf, (size_t)len, NULL, NULL);
		}
	}
	struct relay *k;
	LIST_FOREACH (k, &cl->relays, link) {
		struct room *r = room_find(cl->srv, k->id);
		int sum = 0;
		for (int i = 0; i < k->nfar;)
			if (now - k->far[i].at > NODE_TTL_MS) {
				k->far[i] = k->far[--k->nfar];
			} else {
				sum += (int)k->far[i].n;
				i++;
			}
		if (r)
			room_set_far_watchers(r, sum);
	}
}

static void
got_tell(struct cluster *cl, const struct cmsg *m)
{
	struct session *to = session_by_name(cl->srv, m->to);
	if (!to || !to->conn)
		return;
	proto_msg_t e;
	proto_init(&e, PE_TELL, NULL);
	snprintf(e.user, sizeof e.user, "%s", m->from);
	snprintf(e.text, sizeof e.text, "%.*s", (int)m->bodylen, m->body);
	conn_send(to->conn, &e);
}

/* --- bot searches across nodes: a Redis stream with a consumer group --- */

/* The group the workers read from; made when the command connection is up
 * (BUSYGROUP: it is there already). */
static void
on_group(redisAsyncContext *ac, void *reply, void *priv)
{
	struct cluster *cl = priv;
	redisReply *r = reply;
	if (ac != cl->cmd || !r)
		return;
	if (r->type == REDIS_REPLY_ERROR && strncmp(r->str, "BUSYGROUP", 9) != 0) {
		log_warn(&cl->srv->log, "cluster: bot jobs group: %s", r->str);
		return;
	}
	cl->group_ready = 1;
	jobs_read(cl);
}

static void
jobs_group(struct cluster *cl)
{
	if (cl->serve && cl->cmd_up && !cl->group_ready)
		redisAsyncCommand(cl->cmd, on_group, cl, "XGROUP CREATE %s %s 0 MKSTREAM",
		    JOBS_STREAM, JOBS_GROUP);
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
entry_ack(struct cluster *cl, const char *entry)
{
	if (!cl->cmd_up)
		return;
	redisAsyncCommand(
	    cl->cmd, on_ignore, NULL, "XACK %s %s %s", JOBS_STREAM, JOBS_GROUP, entry);
	redisAsyncCommand(cl->cmd, on_ignore, NULL, "XDEL %s %s", JOBS_STREAM, entry);
}

/* The result is out on its owner's channel: the job is done (acknowledged).
 * Not out (Redis away): it stays pending, and a worker claims it again. */
static void
on_result_out(redisAsyncContext *ac, void *reply, void *priv)
{
	struct entryref *e = priv;
	(void)ac;
	if (reply && ((redisReply *)reply)->type == REDIS_REPLY_INTEGER)
		entry_ack(e->cl, e->entry);
	free(e);
}

static void
served_done(uint64_t id, int status, const engine_result_t *r, void *arg)
{
	struct served *sv = arg;
	struct cluster *cl = sv->cl;
	char buf[JOB_MSG_MAX], chan[CHAN_MAX];
	struct entryref *e = malloc(sizeof *e);
	int n = cmsg_format_result(buf, sizeof buf, sv->job, status, r);
	(void)id;
	log_debug(&cl->srv->log, "cluster: bot job %s of node %s searched in %d ms", sv->entry,
	    sv->owner, status == 0 ? r->time_ms : -1);
	if (n > 0 && e) {
		e->cl = cl;
		snprintf(e->entry, sizeof e->entry, "%s", sv->entry);
		snprintf(chan, sizeof chan, "gomoku:node:%s", sv->owner);
		publish(cl, chan, buf, (size_t)n, on_result_out, e);
	} else {
		free(e);
	}
	LIST_REMOVE(sv, link);
	free(sv);
	jobs_read(cl);
}

/* One entry of the stream (read or claimed): searched on this node's pool
 * as a local bot's job is. Garbage is acknowledged and dropped; a job the
 * pool cannot take now stays pending for a worker to claim. */
static void
take_entry(struct cluster *cl, const redisReply *e)
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
	struct cmsg m;
	const char *why = "it has no job field";
	if (!job || cmsg_parse(job->str, job->len, &m, &why) != 0 || m.kind != CMSG_JOB) {
		log_warn(&cl->srv->log, "cluster: bot job %s dropped: %s", entry,
		    job && why ? why : "it has no job field");
		entry_ack(cl, entry);
		return;
	}
	struct served *sv = calloc(1, sizeof *sv);
	if (!sv)
		return;
	sv->cl = cl;
	sv->job = m.job;
	snprintf(sv->owner, sizeof sv->owner, "%s", m.node);
	snprintf(sv->entry, sizeof sv->entry, "%s", entry);
	m.spec.owner = (uint64_t)1 << 63 | ++cl->served_seq; /* apart from the rooms here */
	sv->bots_id = bots_submit(cl->pool, &m.spec, served_done, NULL, sv);
	if (sv->bots_id < 0) {
		free(sv);
		return;
	}
	LIST_INSERT_HEAD(&cl->served, sv, link);
	log_debug(&cl->srv->log, "cluster: bot job %s of node %s taken", entry, m.node);
}

/* XREADGROUP's answer: nil after JOBS_BLOCK_MS without a job. */
static void
on_read(redisAsyncContext *ac, void *reply, void *priv)
{
	struct cluster *cl = priv;
	redisReply *r = reply;
	if (ac != cl->jobs || !r)
		return;
	cl->reading = 0;
	if (r->type == REDIS_REPLY_ERROR) {
		if (strncmp(r->str, "NOGROUP", 7) == 0) { /* Redis came back empty */
			cl->group_ready = 0;
			jobs_group(cl);
		} else {
			log_warn(&cl->srv->log, "cluster: reading bot jobs: %s", r->str);
		}
		return; /* the tick reads again */
	}
	if (r->type == REDIS_REPLY_ARRAY)
		for (size_t i = 0; i < r->elements; i++) {
			const redisReply *st = r->element[i];
			if (st->type == REDIS_REPLY_ARRAY && st->elements == 2 &&
			    st->element[1]->type == REDIS_REPLY_ARRAY)
				for (size_t k = 0; k < st->element[1]->elements; k++)
					take_entry(cl, st->element[1]->element[k]);
		}
	jobs_read(cl);
}

/* Waits for the next job on the jobs connection while a worker is free. */
static void
jobs_read(struct cluster *cl)
{
	if (!cl->serve || !cl->jobs_up || !cl->group_ready || cl->reading || !jobs_room(cl))
		return;
	if (redisAsyncCommand(cl->jobs, on_read, cl,
		"XREADGROUP GROUP %s %s COUNT 1 BLOCK %d STREAMS %s >", JOBS_GROUP, cl->node,
		JOBS_BLOCK_MS, JOBS_STREAM) == REDIS_OK)
		cl->reading = 1;
}

static void
on_claim(redisAsyncContext *ac, void *reply, void *priv)
{
	struct cluster *cl = priv;
	redisReply *r = reply;
	if (ac != cl->cmd || !r)
		return;
	cl->claiming = 0;
	if (r->type == REDIS_REPLY_ARRAY && r->elements >= 2 &&
	    r->element[1]->type == REDIS_REPLY_ARRAY)
		for (size_t i = 0; i < r->element[1]->elements; i++) {
			const redisReply *e = r->element[1]->element[i];
			if (e->type == REDIS_REPLY_ARRAY && e->elements == 2 &&
			    e->element[0]->type == REDIS_REPLY_STRING)
				log_info(&cl->srv->log,
				    "cluster: bot job %s claimed (its worker went)",
				    e->element[0]->str);
			take_entry(cl, e);
		}
}

/* A job another worker took and never acknowledged (it died): this one
 * claims it, when it has a free worker. */
static void
jobs_claim(struct cluster *cl)
{
	if (!cl->serve || !cl->cmd_up || !cl->group_ready || cl->claiming || !jobs_room(cl))
		return;
	if (redisAsyncCommand(cl->cmd, on_claim, cl, "XAUTOCLAIM %s %s %s %lld 0-0 COUNT 1",
		JOBS_STREAM, JOBS_GROUP, cl->node, (long long)cl->claim_ms) == REDIS_OK)
		cl->claiming = 1;
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
	e->cl = cl;
	e->id = id;
	if (redisAsyncCommand(cl->cmd, on_added, e, "XADD %s MAXLEN ~ %d * job %b", JOBS_STREAM,
		JOBS_MAXLEN, buf, (size_t)n) != REDIS_OK) {
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
		redisAsyncCommand(cl->cmd, on_ignore, NULL, "XDEL %s %s", JOBS_STREAM, x->entry);
	sent_free(x);
}

/* A result for one of this node's jobs: to the pool, which drops a stale one. */
static void
got_result(struct cluster *cl, const struct cmsg *m)
{
	struct sent *x = sent_find(cl, (int64_t)m->job);
	if (x)
		sent_free(x);
	if (!cl->remote || bots_remote_done(cl->pool, (int64_t)m->job, m->status, &m->result) != 0)
		log_debug(&cl->srv->log, "cluster: a stale bot result %llu dropped",
		    (unsigned long long)m->job);
}

/* One message from a subscription (or its confirmation). */
static void
on_message(redisAsyncContext *ac, void *reply, void *priv)
{
	struct cluster *cl = priv;
	redisReply *r = reply;
	if (ac != cl->sub || !r || r->type != REDIS_REPLY_ARRAY || r->elements != 3 ||
	    r->element[0]->type != REDIS_REPLY_STRING || r->element[1]->type != REDIS_REPLY_STRING)
		return;
	const char *kind = r->element[0]->str, *chan = r->element[1]->str;
	if (strcmp(kind, "subscribe") == 0) {
		struct rroom *rr;
		if (strncmp(chan, "gomoku:room:", 12) == 0 && (rr = rroom_find(cl, chan + 12))) {
			rr->subscribed = 1;
			ask_owner(cl, rr);
		}
		return;
	}
	if (strcmp(kind, "message") != 0 || r->element[2]->type != REDIS_REPLY_STRING)
		return;
	struct cmsg m;
	const char *why;
	if (cmsg_parse(r->element[2]->str, r->element[2]->len, &m, &why) != 0) {
		log_warn(&cl->srv->log, "cluster: a message on %s dropped: %s", chan, why);
		return;
	}
	int on_room = strncmp(chan, "gomoku:room:", 12) == 0;
	if (on_room && strcmp(chan + 12, m.room) != 0) {
		log_warn(
		    &cl->srv->log, "cluster: a message on %s for room %s dropped", chan, m.room);
		return;
	}
	switch (m.kind) {
	case CMSG_PRESENCE:
		if (strcmp(chan, CHAN_PRESENCE) != 0)
			break;
		if (strcmp(m.node, cl->node) != 0)
			peer_heard(cl, &m);
		else if (strcmp(m.addr, cl->addr) != 0 && !cl->twin_said++)
			log_error(&cl->srv->log,
			    "cluster: another node at %s calls itself %s too: node names must be "
			    "unique",
			    m.addr, cl->node);
		break;
	case CMSG_TELL:
		if (strcmp(chan, cl->chan_node) == 0)
			got_tell(cl, &m);
		break;
	case CMSG_WATCH:
		if (strcmp(chan, cl->chan_node) == 0 && !remote(cl, m.room))
			got_watch(cl, &m);
		break;
	case CMSG_WATCHERS:
		if (strcmp(chan, cl->chan_node) == 0 && !remote(cl, m.room))
			got_watchers(cl, &m);
		break;
	case CMSG_SNAPSHOT:
		if (on_room)
			got_snapshot(cl, &m);
		break;
	case CMSG_EVENT:
		if (on_room)
			got_event(cl, &m);
		break;
	case CMSG_RESULT:
		if (strcmp(chan, cl->chan_node) == 0)
			got_result(cl, &m);
		break;
	case CMSG_LOBBY:
		if (strcmp(chan, cl->chan_node) == 0 && strcmp(m.node, cl->node) != 0)
			clobby_got(cl->lobby, m.node, m.body, m.bodylen);
		break;
	case CMSG_JOB: /* jobs come on the stream only */
		log_warn(&cl->srv->log, "cluster: a bot job on %s dropped", chan);
		break;
	}
}

/* --- the second's work --- */

struct lines {
	struct evbuffer *b;
	int n;
};

static void
add_line(struct lines *l, const proto_msg_t *m)
{
	char line[PROTO_LINE_MAX];
	int n = proto_format(m, line, sizeof line);
	if (n > 0 && l->n < PRESENCE_LINES_MAX) {
		evbuffer_add(l->b, line, (size_t)n);
		l->n++;
	}
}

static void
seek_line(void *arg, const proto_msg_t *m)
{
	add_line(arg, m);
}

/* This node's users (as WHO lists them), public rooms (as ROOMS) and the
 * seeks other nodes may claim (as SEEKS). */
static void
publish_presence(struct cluster *cl)
{
	char head[CMSG_ADDR_MAX + 32];
	struct lines u = { evbuffer_new(), 0 }, rm = { u.b, 0 };
	if (!u.b)
		return;
	int n = cmsg_format_presence(head, sizeof head, cl->node, cl->addr);
	if (n < 0) {
		evbuffer_free(u.b);
		return;
	}
	evbuffer_add(u.b, head, (size_t)n);
	proto_msg_t m;
	struct session *s;
	for (s = sessions_first(cl->srv); s; s = sessions_next(s))
		if (session_present(s)) {
			session_info(s, NULL, &m);
			user_info(cl, s, &m);
			add_line(&u, &m);
		}
	for (struct room *r = rooms_first(cl->srv->rooms); r; r = rooms_next(r))
		if (!room_private(r)) {
			room_info(r, &m);
			add_line(&rm, &m);
		}
	struct lines sk = { u.b, 0 };
	clobby_presence(cl->lobby, seek_line, &sk);
	size_t len = evbuffer_get_length(u.b);
	const char *data = (const char *)evbuffer_pullup(u.b, -1);
	if (data)
		publish(cl, CHAN_PRESENCE, data, data[len - 1] == '\n' ? len - 1 : len, NULL, NULL);
	evbuffer_free(u.b);
}

/* Relays of rooms that are gone. */
static void
relays_sweep(struct cluster *cl)
{
	struct relay *k, *next;
	for (k = LIST_FIRST(&cl->relays); k; k = next) {
		next = LIST_NEXT(k, link);
		if (!room_find(cl->srv, k->id)) {
			LIST_REMOVE(k, link);
			free(k);
		}
	}
}

static void
tick_cb(evutil_socket_t fd, short what, void *arg)
{
	struct cluster *cl = arg;
	int64_t now = clock_now_ms();
	(void)fd;
	(void)what;
	if (!cl->cmd && !cl->sub && now >= cl->retry_at)
		start(cl);
	if (cluster_up(cl))
		publish_presence(cl);
	peers_expire(cl, now);
	watchers_expire(cl, now);
	relays_sweep(cl);
	watchers_count(cl, now);
	clobby_tick(cl->lobby, now);
	jobs_group(cl);
	jobs_read(cl);
	jobs_claim(cl);
}

struct cluster *
cluster_new(struct server *srv, char *err, size_t errlen)
{
	const struct config *cfg = &srv->cfg;
	struct addrinfo hints = { 0 }, *res = NULL;
	err[0] = '\0';
	if (!cfg->cluster_host[0])
		return NULL;
	struct cluster *cl = calloc(1, sizeof *cl);
	if (!cl) {
		snprintf(err, errlen, "cluster: out of memory");
		return NULL;
	}
	cl->srv = srv;
	/* resolved once, here, so the loop never waits for a name */
	hints.ai_socktype = SOCK_STREAM;
	int rc = getaddrinfo(cfg->cluster_host, NULL, &hints, &res);
	if (rc != 0 || !res ||
	    getnameinfo(res->ai_addr, res->ai_addrlen, cl->ip, sizeof cl->ip, NULL, 0,
		NI_NUMERICHOST) != 0) {
		snprintf(err, errlen, "cluster: cannot resolve %s: %s", cfg->cluster_host,
		    rc ? gai_strerror(rc) : "no address");
		if (res)
			freeaddrinfo(res);
		free(cl);
		return NULL;
	}
	freeaddrinfo(res);
	cl->port = cfg->cluster_port;
	snprintf(cl->node, sizeof cl->node, "%s", cfg->node_name);
	snprintf(cl->addr, sizeof cl->addr, "%s", cfg->advertise);
	snprintf(cl->chan_node, sizeof cl->chan_node, "gomoku:node:%s", cl->node);
	LIST_INIT(&cl->rrooms);
	LIST_INIT(&cl->relays);
	LIST_INIT(&cl->sent);
	LIST_INIT(&cl->served);
	cl->backoff_s = 1;
	if ((cl->pool = botplay_bots(srv->botplay)) != NULL) {
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
	struct timeval every = { TICK_MS / 1000, TICK_MS % 1000 * 1000 };
	if (!(cl->tick = event_new(srv->base, -1, EV_PERSIST, tick_cb, cl)) ||
	    event_add(cl->tick, &every) != 0) {
		snprintf(err, errlen, "cluster: cannot start its timer");
		if (cl->tick)
			event_free(cl->tick);
		free(cl);
		return NULL;
	}
	if (!(cl->lobby = clobby_new(srv, cl))) {
		snprintf(err, errlen, "cluster: out of memory");
		event_free(cl->tick);
		free(cl);
		return NULL;
	}
	cl->lease = lease_new(srv, cl);
	start(cl);
	return cl;
}

void
cluster_stop(struct cluster *cl)
{
	cl->stopped = 1;
	event_free(cl->tick);
	cl->tick = NULL;
	clobby_free(cl->lobby);
	cl->lobby = NULL;
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
	while (!LIST_EMPTY(&cl->relays))
		relay_free(LIST_FIRST(&cl->relays));
	while (!LIST_EMPTY(&cl->rrooms)) {
		struct rroom *rr = LIST_FIRST(&cl->rrooms);
		while (!LIST_EMPTY(&rr->watchers)) {
			struct rwatch *w = LIST_FIRST(&rr->watchers);
			LIST_REMOVE(w, link);
			free(w);
		}
		LIST_REMOVE(rr, link);
		free(rr);
	}
	/* pending replies are called back with NULL; they need cl alive */
	redisAsyncContext *a = cl->cmd, *b = cl->sub, *j = cl->jobs;
	cl->cmd = cl->sub = cl->jobs = NULL;
	cl->cmd_up = cl->sub_up = cl->jobs_up = 0;
	if (a)
		redisAsyncFree(a);
	if (b)
		redisAsyncFree(b);
	if (j)
		redisAsyncFree(j);
	for (int i = 0; i < cl->npeers; i++)
		free(cl->peers[i].body);
	cl->npeers = 0;
}

void
cluster_release(struct cluster *cl)
{
	lease_free(cl->lease);
	free(cl);
}
