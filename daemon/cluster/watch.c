/* watch.c: spectators across nodes (watch.h): other nodes' rooms watched
 * from here (a room's channel subscribed, its owner asked, its snapshot and
 * events handed to the watchers here), this node's rooms relayed to the
 * others (a sink on the room publishing every event on its channel), and
 * the spectator counts between them. */
#include "daemon/cluster/watch.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>
#include <hiredis/hiredis.h>

#include "daemon/clock.h"
#include "daemon/cluster/lease.h"
#include "daemon/cluster/link.h"
#include "daemon/conn.h"
#include "daemon/log.h"
#include "daemon/room.h"
#include "daemon/roomid.h"
#include "daemon/core.h"
#include "daemon/session.h"
#include "daemon/sink.h"

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
	char buf[64], node[CONFIG_NODE_MAX + 1];
	int n = cmsg_format_watch(buf, sizeof buf, rr->id, cl->node);
	if (n < 0 || cluster_owner(cl, rr->id, node) != 0)
		return;
	link_to_node(cl, node, buf, (size_t)n, NULL, NULL);
}

void
watch_resubscribe(struct cluster *cl)
{
	char chan[CHAN_MAX];
	struct rroom *rr;
	LIST_FOREACH (rr, &cl->rrooms, link) {
		link_room_chan(chan, rr->id);
		link_subscribe(cl, chan);
	}
}

void
watch_subscribed(struct cluster *cl, const char *room)
{
	struct rroom *rr = rroom_find(cl, room);
	if (rr) {
		rr->subscribed = 1;
		ask_owner(cl, rr);
	}
}

void
watch_down(struct cluster *cl)
{
	struct rroom *rr;
	LIST_FOREACH (rr, &cl->rrooms, link)
		rr->subscribed = 0;
}

static void
rwatch_free(struct cluster *cl, struct rwatch *w)
{
	struct rroom *rr = w->rr;
	LIST_REMOVE(w, link);
	free(w);
	if (LIST_EMPTY(&rr->watchers)) {
		char chan[CHAN_MAX];
		link_room_chan(chan, rr->id);
		link_unsubscribe(cl, chan);
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
			if (cl->srv->store && session_is_bot(w->c->sess)) { /* as WHO marks it */
				proto_init(&m, PD_BOT, NULL);
				snprintf(m.user, sizeof m.user, "%s", w->c->sess->name);
				fn(arg, &m);
			}
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
		link_room_chan(chan, rr->id);
		link_subscribe(cl, chan); /* its confirmation asks the owner */
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
	link_room_chan(chan, k->id);
	link_publish(k->cl, chan, buf, (size_t)len, on_relayed, p);
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
		link_room_chan(chan, m->room);
		link_publish(cl, chan, data, data[len - 1] == '\n' ? len - 1 : len, NULL, NULL);
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

void
watch_got(struct cluster *cl, const struct cmsg *m)
{
	switch (m->kind) {
	case CMSG_WATCH:
		if (!remote(cl, m->room))
			got_watch(cl, m);
		break;
	case CMSG_WATCHERS:
		if (!remote(cl, m->room))
			got_watchers(cl, m);
		break;
	case CMSG_SNAPSHOT:
		got_snapshot(cl, m);
		break;
	case CMSG_EVENT:
		got_event(cl, m);
		break;
	default:
		break;
	}
}

/* Every second: the owners hear how many watch their rooms from here, and
 * this node's rooms count the spectators the others said (gone when a
 * node stops saying). */
static void
watchers_count(struct cluster *cl, int64_t now)
{
	char buf[96], node[CONFIG_NODE_MAX + 1];
	struct rroom *rr;
	struct rwatch *w;
	LIST_FOREACH (rr, &cl->rrooms, link) {
		uint32_t n = 0;
		LIST_FOREACH (w, &rr->watchers, link)
			n += w->c && !w->pending;
		int len = cmsg_format_watchers(buf, sizeof buf, rr->id, cl->node, n);
		if (n && len > 0 && roomid_parse(rr->id, node, NULL) == 0)
			link_to_node(cl, node, buf, (size_t)len, NULL, NULL);
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

void
watch_tick(struct cluster *cl, int64_t now)
{
	watchers_expire(cl, now);
	relays_sweep(cl);
	watchers_count(cl, now);
}

void
watch_stop(struct cluster *cl)
{
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
}
