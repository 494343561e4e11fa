/* presence.c: this node's presence out each second, the other nodes' as
 * last heard (presence.h), and the queries on them (cluster.h): WHO,
 * ROOMS and SEEKS of the other nodes, the node of a name, a room listed,
 * the users in a room, a node's address. A node's P message is parsed
 * once, when it comes, into its roster (roster.h); the queries read the
 * rosters, in the order of the nodes and of their lines. */
#include "daemon/cluster/presence.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>

#include "daemon/clock.h"
#include "daemon/cluster/link.h"
#include "daemon/cluster/roster.h"
#include "daemon/log.h"
#include "daemon/room.h"
#include "daemon/core.h"
#include "daemon/session.h"

/* Another node as last heard: its P message parsed once (roster.h), the
 * lines it repeats from the one before taken from that one's roster. */
struct peer {
	char name[CONFIG_NODE_MAX + 1];
	char addr[CMSG_ADDR_MAX + 1];
	int64_t seen;                       /* ms, clock_now_ms */
	struct roster *roster;              /* its last P message's lines; NULL: none kept */
	char engines[CMSG_ENGINES_MAX + 1]; /* the engines it serves: "<name>:<hash>,..." */
};

static void
peer_free(struct peer *p)
{
	roster_free(p->roster);
	free(p);
}

static struct peer *
peer_named(struct cluster *cl, const char *name)
{
	for (int i = 0; i < cl->npeers; i++)
		if (strcmp(cl->peers[i]->name, name) == 0)
			return cl->peers[i];
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
		if (!(p = calloc(1, sizeof *p)))
			return;
		cl->peers[cl->npeers++] = p;
		snprintf(p->name, sizeof p->name, "%s", m->node);
		log_info(&cl->srv->log, "cluster: node %s heard at %s", m->node, m->addr);
	}
	struct roster *r = roster_parse(m->body, m->bodylen, p->roster);
	if (!r)
		return;
	roster_free(p->roster);
	p->roster = r;
	snprintf(p->addr, sizeof p->addr, "%s", m->addr);
	if (strcmp(p->engines, m->engines) != 0)
		log_info(&cl->srv->log, "cluster: node %s serves engines %s", m->node,
		    m->engines[0] ? m->engines : "none");
	snprintf(p->engines, sizeof p->engines, "%s", m->engines);
	p->seen = clock_now_ms();
}

void
presence_got(struct cluster *cl, const struct cmsg *m)
{
	if (strcmp(m->node, cl->node) != 0)
		peer_heard(cl, m);
	else if (strcmp(m->addr, cl->addr) != 0 && !cl->twin_said++)
		log_error(&cl->srv->log,
		    "cluster: another node at %s calls itself %s too: node names must be unique",
		    m->addr, cl->node);
}

void
presence_forget(struct cluster *cl)
{
	for (int i = 0; i < cl->npeers; i++)
		peer_free(cl->peers[i]);
	cl->npeers = 0;
}

static void
peers_expire(struct cluster *cl, int64_t now)
{
	for (int i = 0; i < cl->npeers;) {
		if (now - cl->peers[i]->seen <= NODE_TTL_MS) {
			i++;
			continue;
		}
		log_info(&cl->srv->log, "cluster: node %s not heard from; forgotten",
		    cl->peers[i]->name);
		peer_free(cl->peers[i]);
		cl->peers[i] = cl->peers[--cl->npeers];
		cl->forgotten++;
	}
}

unsigned
cluster_forgotten(const struct cluster *cl)
{
	return cl ? cl->forgotten : 0;
}

/* = BOT before the = USER line j of r when it is a bot's and this node
 * marks bots (botaccounts: with a store), as WHO says it of a user here. */
static void
bot_mark(const struct cluster *cl, const struct roster *r, int j,
    void (*fn)(void *arg, const proto_msg_t *m), void *arg)
{
	const char *name;
	proto_msg_t b;
	if (!cl->srv->store || !roster_user_bot(r, j))
		return;
	roster_user_at(r, j, &name, NULL);
	proto_init(&b, PD_BOT, NULL);
	snprintf(b.user, sizeof b.user, "%s", name);
	fn(arg, &b);
}

int
cluster_each(struct cluster *cl, proto_id_t id, int max,
    void (*fn)(void *arg, const proto_msg_t *m), void *arg)
{
	int n = 0;
	proto_msg_t m;
	if (!cluster_up(cl))
		return 0;
	proto_init(&m, id, NULL);
	for (int i = 0; i < cl->npeers; i++) {
		const struct roster *r = cl->peers[i]->roster;
		for (int j = 0, k = roster_count(r, id); n < max && j < k; j++) {
			roster_line(r, id, j, &m);
			if (id == PD_USER)
				bot_mark(cl, r, j, fn, arg);
			fn(arg, &m);
			n++;
		}
	}
	return n;
}

/* The node where name is online (the first that lists it), with its name
 * as that node spells it. */
const char *
cluster_user_node(struct cluster *cl, const char *name, char canon[PROTO_NAME_MAX + 1])
{
	for (int i = 0; i < cl->npeers; i++) {
		const struct roster *r = cl->peers[i]->roster;
		const char *spelt;
		int j = roster_user(r, name);
		if (j >= 0) {
			roster_user_at(r, j, &spelt, NULL);
			memcpy(canon, spelt, PROTO_NAME_MAX + 1);
			return cl->peers[i]->name;
		}
	}
	return NULL;
}

const char *
cluster_node_addr(const struct cluster *cl, const char *node)
{
	if (!cluster_up(cl))
		return NULL;
	for (int i = 0; i < cl->npeers; i++)
		if (strcmp(cl->peers[i]->name, node) == 0)
			return cl->peers[i]->addr;
	return NULL;
}

int
cluster_lobby_all(struct cluster *cl, const char *text)
{
	int n = 0;
	if (!cluster_up(cl))
		return 0;
	for (int i = 0; i < cl->npeers; i++)
		n += cluster_send_lobby(cl, cl->peers[i]->name, text) == 0;
	return n;
}

int
cluster_each_of(struct cluster *cl, proto_id_t id,
    int (*fn)(void *arg, const char *node, const proto_msg_t *m), void *arg)
{
	proto_msg_t m;
	if (!cluster_up(cl))
		return 0;
	proto_init(&m, id, NULL);
	for (int i = 0; i < cl->npeers; i++) {
		const struct roster *r = cl->peers[i]->roster;
		for (int j = 0, k = roster_count(r, id); j < k; j++) {
			roster_line(r, id, j, &m);
			if (fn(arg, cl->peers[i]->name, &m))
				return 1;
		}
	}
	return 0;
}

/* The other nodes' users in state in room, to fn while *n < max. */
static void
users_in(struct cluster *cl, const char *room, proto_ustate_t state, int max, int *n,
    void (*fn)(void *arg, const proto_msg_t *m), void *arg)
{
	proto_msg_t m;
	proto_init(&m, PD_USER, NULL);
	for (int i = 0; i < cl->npeers; i++) {
		const struct roster *r = cl->peers[i]->roster;
		const char *in;
		for (int j = 0, k = roster_count(r, PD_USER); j < k; j++)
			if (roster_user_at(r, j, NULL, &in) == state && strcmp(in, room) == 0) {
				roster_line(r, PD_USER, j, &m);
				bot_mark(cl, r, j, fn, arg);
				fn(arg, &m);
				if (++*n >= max)
					return;
			}
	}
}

int
cluster_each_in(struct cluster *cl, const char *room, int max,
    void (*fn)(void *arg, const proto_msg_t *m), void *arg)
{
	int n = 0;
	if (!cl || max <= 0 || !cluster_up(cl))
		return 0;
	users_in(cl, room, USER_PLAYING, max, &n, fn, arg);
	if (n < max)
		users_in(cl, room, USER_WATCHING, max, &n, fn, arg);
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

/* --- the engines other nodes serve --- */

/* Each "<name>:<hash>" of engines (well formed: clustermsg.c checked it)
 * to fn until it returns nonzero: then 1, else 0. */
static int
each_served(
    const char *engines, int (*fn)(const char *name, size_t n, uint32_t hash, void *arg), void *arg)
{
	for (const char *p = engines; *p;) {
		const char *colon = strchr(p, ':');
		if (!colon)
			return 0;
		uint32_t h = (uint32_t)strtoul(colon + 1, NULL, 16);
		if (fn(p, (size_t)(colon - p), h, arg))
			return 1;
		p = colon + 9;
		p += *p == ',';
	}
	return 0;
}

struct want {
	const char *name;
	uint32_t hash; /* 0: any */
	uint32_t found;
};

static int
is_wanted(const char *name, size_t n, uint32_t hash, void *arg)
{
	struct want *w = arg;
	if (strlen(w->name) != n || memcmp(w->name, name, n) != 0 || (w->hash && hash != w->hash))
		return 0;
	w->found = hash;
	return 1;
}

const char *
presence_engine_node(const struct cluster *cl, const char *name, uint32_t *hash)
{
	struct want w = { name, *hash, 0 };
	if (!cluster_up(cl))
		return NULL;
	for (int i = 0; i < cl->npeers; i++)
		if (each_served(cl->peers[i]->engines, is_wanted, &w)) {
			*hash = w.found;
			return cl->peers[i]->name;
		}
	return NULL;
}

int
presence_engine_nodes(const struct cluster *cl, const char *name, uint32_t hash,
    void (*fn)(struct cluster *cl, const char *node, void *arg), void *arg)
{
	int n = 0;
	struct want w = { name, hash, 0 };
	for (int i = 0; cluster_up(cl) && i < cl->npeers; i++)
		if (each_served(cl->peers[i]->engines, is_wanted, &w)) {
			fn((struct cluster *)cl, cl->peers[i]->name, arg);
			n++;
		}
	return n;
}

struct names {
	void (*fn)(void *arg, const char *name);
	void *arg;
};

static int
give_name(const char *name, size_t n, uint32_t hash, void *arg)
{
	struct names *l = arg;
	char s[CMSG_ENGINE_MAX + 1];
	(void)hash;
	if (n < sizeof s) {
		memcpy(s, name, n);
		s[n] = '\0';
		l->fn(l->arg, s);
	}
	return 0;
}

int
cluster_each_node(const struct cluster *cl, world_node_fn *fn, void *arg)
{
	if (!cluster_up(cl))
		return -1;
	int64_t now = clock_now_ms();
	for (int i = 0; i < cl->npeers; i++) {
		const struct peer *p = cl->peers[i];
		struct world_node n;
		memset(&n, 0, sizeof n);
		snprintf(n.name, sizeof n.name, "%s", p->name);
		snprintf(n.addr, sizeof n.addr, "%.*s", (int)sizeof n.addr - 1, p->addr);
		snprintf(n.engines, sizeof n.engines, "%s", p->engines);
		n.users = p->roster ? roster_count(p->roster, PD_USER) : 0;
		n.heard_ms = now - p->seen;
		fn(arg, &n);
	}
	return cl->npeers;
}

void
presence_each_engine(const struct cluster *cl, void (*fn)(void *arg, const char *name), void *arg)
{
	struct names l = { fn, arg };
	for (int i = 0; cluster_up(cl) && i < cl->npeers; i++)
		each_served(cl->peers[i]->engines, give_name, &l);
}

/* --- this node's presence --- */

/* A = USER line of s (session_info's) that says idle says watching when
 * s's connection watches another node's room. */
static void
user_info(const struct cluster *cl, const struct session *s, proto_msg_t *m)
{
	const char *far;
	if (s->conn && m->ustate == USER_IDLE && (far = cl->parts.watched(cl, s->conn))) {
		m->ustate = USER_WATCHING;
		snprintf(m->room, sizeof m->room, "%s", far);
	}
}

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
	char head[CMSG_ADDR_MAX + CMSG_ENGINES_MAX + 32];
	struct lines u = { evbuffer_new(), 0 }, rm = { u.b, 0 };
	if (!u.b)
		return;
	int n = cmsg_format_presence(head, sizeof head, cl->node, cl->addr, cl->served_engines);
	if (n < 0) {
		evbuffer_free(u.b);
		return;
	}
	evbuffer_add(u.b, head, (size_t)n);
	proto_msg_t m;
	struct session *s;
	for (s = sessions_first(cl->srv); s; s = sessions_next(s))
		if (session_present(s)) {
			if (session_is_bot(s)) { /* the others mark it as WHO here does */
				proto_init(&m, PD_BOT, NULL);
				snprintf(m.user, sizeof m.user, "%s", s->name);
				add_line(&u, &m);
			}
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
	cl->parts.seek_lines(cl, seek_line, &sk);
	size_t len = evbuffer_get_length(u.b);
	const char *data = (const char *)evbuffer_pullup(u.b, -1);
	if (data)
		link_publish(
		    cl, CHAN_PRESENCE, data, data[len - 1] == '\n' ? len - 1 : len, NULL, NULL);
	evbuffer_free(u.b);
}

void
presence_tick(struct cluster *cl, int64_t now)
{
	if (cluster_up(cl))
		publish_presence(cl);
	peers_expire(cl, now);
}
