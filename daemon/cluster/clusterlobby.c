/* clusterlobby.c: seeks and challenges across nodes (clusterlobby.h).
 * The texts of its lobby messages (L <node> <text> on the receiver's
 * channel), one line each:
 *
 *   claim <ref> <seek> <kind> <digest> <= SEEK line>   for seek <seek> there
 *   placed <ref> <room>                               the claim won: room
 *   refused <ref>                                     it did not
 *   abort <room>                                      its player went: abort
 *   chal <id> <kind> <digest> <* CHALLENGE line>      to the one challenged
 *                                                     (kind botaccount: a bot account's)
 *   chalok <id> <room>                                accepted: room
 *   chalend <id> <end>                                to the challenger's node
 *   chalgone <id> <end>                               to the challenged's node
 *   chalaway <id> | chalback <id>                     its challenger away, or back
 *   join <ref> <kind> <digest> <code> <= USER line>   to every other node
 *   joined <ref> <room> | nocode <ref> | full <ref> | busy <ref>   its answers
 *   take <ref> <seek> <owner> <kind> <digest> <= SEEK line>   to the seek's node
 *   joined <ref> <room> | noseek <ref> | busy <ref>   its answers
 *   takeover <name>                                   to every other node
 *   seated <name> <room>                              its answer, a seat each
 *   tseat <ref> <name>                                a tournament's game wants name
 *   tseatok <ref> <kind> <digest> | tseatno <ref>     its answers
 *   tmoved <name> <room>                              the game started: name goes there
 *
 * <kind> is guest or account, <digest> the SHA-256 (hex) of the player's
 * token, <id> the challenger's node's id of the challenge, <end> a
 * * CHALLENGEEND word. */
#include "daemon/cluster/clusterlobby.h"

#include <sys/queue.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "daemon/admin.h"
#include "daemon/archive.h"
#include "daemon/auth.h"
#include "daemon/challenge.h"
#include "daemon/clock.h"
#include "daemon/conn.h"
#include "daemon/cluster/cluster.h"
#include "daemon/lobby.h"
#include "daemon/log.h"
#include "daemon/room.h"
#include "daemon/core.h"
#include "daemon/session.h"
#include "daemon/wire.h"

enum { TEXT_MAX = PROTO_LINE_MAX + 192, NODE_MAX = CONFIG_NODE_MAX + 1 };

/* A claim of this node's seek for another node's, in flight. */
struct claim {
	LIST_ENTRY(claim) link;
	uint32_t ref;
	struct session *s;
	uint32_t seek; /* s's seek, held meanwhile */
	char node[NODE_MAX];
	uint32_t their; /* the seek claimed there */
	int64_t at;
};

/* A challenge from a user here to one of another node. */
struct xout {
	LIST_ENTRY(xout) link;
	uint32_t id;
	struct session *from;
	char node[NODE_MAX];
	char to[PROTO_NAME_MAX + 1]; /* as that node spells the name */
	struct gamespec spec;        /* told again when its challenger is back */
	int64_t until;               /* a backstop: the other node's expiry decides */
};

/* A challenge from another node's user to one here. */
struct xin {
	LIST_ENTRY(xin) link;
	uint32_t id;  /* this node's, as its user sees it */
	uint32_t rid; /* the challenger's node's */
	char node[NODE_MAX];
	char from[PROTO_NAME_MAX + 1];
	enum session_kind kind;
	char digest[AUTH_DIGEST_LEN + 1];
	struct session *to;
	struct gamespec spec;
	int64_t until;
	int away;     /* its challenger's connection dropped (chalaway): not accepted now */
	int starting; /* accepted: its game's start is being stored */
};

/* A JOIN by a code no room here has, asked of every other node; or a
 * TAKE of a seek another node lists, asked of that node (m says which). */
struct join {
	LIST_ENTRY(join) link;
	uint32_t ref;
	struct conn *c; /* held; NULL: it went */
	struct session *s;
	proto_msg_t m; /* the request */
	int asked, nocode;
	int64_t at;
};

/* A tournament's seat for another node's player, asked there (tseat). */
struct tseat {
	LIST_ENTRY(tseat) link;
	uint32_t ref;
	char node[NODE_MAX];
	char name[PROTO_NAME_MAX + 1];
	void (*fn)(void *arg, struct session *s);
	void *arg;
	int64_t at;
};

struct clobby {
	struct server *srv;
	struct cluster *cl;
	uint32_t next_ref;
	LIST_HEAD(, claim) claims;
	LIST_HEAD(, join) joins;
	LIST_HEAD(, xout) xouts;
	LIST_HEAD(, xin) xins;
	LIST_HEAD(, tseat) tseats;
};

static const char *const end_words[] = { "accepted", "declined", "withdrawn", "expired" };

struct clobby *
clobby_new(struct server *srv, struct cluster *cl)
{
	struct clobby *lb = calloc(1, sizeof *lb);
	if (!lb)
		return NULL;
	lb->srv = srv;
	lb->cl = cl;
	LIST_INIT(&lb->claims);
	LIST_INIT(&lb->joins);
	LIST_INIT(&lb->xouts);
	LIST_INIT(&lb->xins);
	LIST_INIT(&lb->tseats);
	return lb;
}

static void
claim_free(struct claim *c)
{
	LIST_REMOVE(c, link);
	free(c);
}

void
clobby_free(struct clobby *lb)
{
	if (!lb)
		return;
	while (!LIST_EMPTY(&lb->claims))
		claim_free(LIST_FIRST(&lb->claims));
	while (!LIST_EMPTY(&lb->joins)) {
		struct join *j = LIST_FIRST(&lb->joins);
		LIST_REMOVE(j, link);
		free(j);
	}
	while (!LIST_EMPTY(&lb->xouts)) {
		struct xout *x = LIST_FIRST(&lb->xouts);
		LIST_REMOVE(x, link);
		free(x);
	}
	while (!LIST_EMPTY(&lb->xins)) {
		struct xin *x = LIST_FIRST(&lb->xins);
		LIST_REMOVE(x, link);
		free(x);
	}
	while (!LIST_EMPTY(&lb->tseats)) {
		struct tseat *t = LIST_FIRST(&lb->tseats);
		LIST_REMOVE(t, link);
		t->fn(t->arg, NULL);
		free(t);
	}
	free(lb);
}

int
clobby_on(const struct clobby *lb)
{
	return lb && cluster_up(lb->cl) && archive_async(lb->srv);
}

/* Sends the formatted text to node; 0 or -1. */
static int say(struct clobby *lb, const char *node, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int
say(struct clobby *lb, const char *node, const char *fmt, ...)
{
	char text[TEXT_MAX];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof text)
		return -1;
	return cluster_send_lobby(lb->cl, node, text);
}

static const char *
kind_word(const struct session *s)
{
	return s->kind == SESSION_ACCOUNT ? "account" : "guest";
}

static void
seek_msg(const struct seek *k, proto_msg_t *m)
{
	proto_init(m, PD_SEEK, NULL);
	m->ident = k->id;
	snprintf(m->user, sizeof m->user, "%s", k->sess->name);
	wire_gamespec_out(m, &k->spec);
	m->fallback = k->on_wait ? FALLBACK_BOT : FALLBACK_HUMAN;
}

/* s's token as its digest, what the other node's seat awaits. */
static void
digest_of(const struct session *s, char out[AUTH_DIGEST_LEN + 1])
{
	auth_token_digest(s->token, out);
}

/* * MOVED <room> <addr> to s, whose seat is there now. */
static int
send_moved(struct clobby *lb, struct session *s, const char *node, const char *room)
{
	const char *addr = cluster_node_addr(lb->cl, node);
	if (!addr || !s->conn)
		return -1;
	proto_msg_t e;
	proto_init(&e, PE_MOVED, NULL);
	snprintf(e.room, sizeof e.room, "%s", room);
	snprintf(e.word, sizeof e.word, "%s", addr);
	session_moved(s, room); /* it RESUMEs with its token there */
	session_send(s, &e);
	return 0;
}

static void
end_event(struct session *s, uint32_t id, proto_end_t how)
{
	proto_msg_t e;
	proto_init(&e, PE_CHALLENGEEND, NULL);
	e.ident = id;
	e.end = how;
	session_send(s, &e);
}

/* --- presence --- */

struct pres {
	void (*fn)(void *arg, const proto_msg_t *m);
	void *arg;
};

static int
pres_seek(void *arg, const struct seek *k)
{
	struct pres *p = arg;
	proto_msg_t m;
	if (!lobby_held(k)) {
		seek_msg(k, &m);
		p->fn(p->arg, &m);
	}
	return 0;
}

void
clobby_presence(struct clobby *lb, void (*fn)(void *arg, const proto_msg_t *m), void *arg)
{
	struct pres p = { fn, arg };
	if (clobby_on(lb))
		lobby_each(lb->srv, pres_seek, &p);
}

/* --- seeks --- */

struct find {
	struct clobby *lb;
	const struct seek *mine;
	int before; /* only nodes whose names sort before this one's */
	char node[NODE_MAX];
	uint32_t id;
};

static int
claimed(const struct clobby *lb, const char *node, uint32_t id)
{
	const struct claim *c;
	LIST_FOREACH (c, &lb->claims, link)
		if (c->their == id && strcmp(c->node, node) == 0)
			return 1;
	return 0;
}

static int
find_seek(void *arg, const char *node, const proto_msg_t *m)
{
	struct find *f = arg;
	struct gamespec g;
	if (f->before && strcmp(node, cluster_node(f->lb->cl)) >= 0)
		return 0;
	if (strcasecmp(m->user, f->mine->sess->name) == 0 || claimed(f->lb, node, m->ident))
		return 0;
	wire_gamespec(&g, m);
	if (!gamespec_compatible(&g, &f->mine->spec))
		return 0;
	snprintf(f->node, sizeof f->node, "%s", node);
	f->id = (uint32_t)m->ident;
	return 1;
}

/* k claims a compatible seek of another node, if one is published. */
static void
try_claim(struct clobby *lb, struct seek *k, int before)
{
	struct find f = { lb, k, before, "", 0 };
	char digest[AUTH_DIGEST_LEN + 1], line[PROTO_LINE_MAX];
	proto_msg_t m;
	if (lobby_held(k) || !clobby_on(lb) || admin_draining(lb->srv->admin) ||
	    !cluster_each_of(lb->cl, PD_SEEK, find_seek, &f))
		return;
	struct claim *c = calloc(1, sizeof *c);
	if (!c)
		return;
	c->ref = ++lb->next_ref;
	c->s = k->sess;
	c->seek = k->id;
	c->their = f.id;
	c->at = clock_now_ms();
	snprintf(c->node, sizeof c->node, "%s", f.node);
	seek_msg(k, &m);
	digest_of(k->sess, digest);
	int n = proto_format(&m, line, sizeof line);
	if (n <= 1 ||
	    say(lb, f.node, "claim %u %u %s %s %.*s", c->ref, f.id, kind_word(k->sess), digest,
		n - 1, line) != 0) {
		free(c);
		return;
	}
	lobby_hold(k, 1);
	LIST_INSERT_HEAD(&lb->claims, c, link);
	log_debug(&lb->srv->log, "cluster: seek %u of %s claims seek %u of node %s", k->id,
	    k->sess->name, f.id, f.node);
}

void
clobby_seek(struct clobby *lb, struct session *s)
{
	if (lb && s->seek)
		try_claim(lb, s->seek, 0);
}

struct by_id {
	uint32_t id;
	struct seek *k;
};

static int
seek_by_id(void *arg, const struct seek *k)
{
	struct by_id *b = arg;
	if (k->id != b->id)
		return 0;
	b->k = (struct seek *)(uintptr_t)k;
	return 1;
}

static struct seek *
local_seek(struct clobby *lb, uint32_t id)
{
	struct by_id b = { id, NULL };
	lobby_each(lb->srv, seek_by_id, &b);
	return b.k;
}

static int
kind_parse(const char *w, enum session_kind *kind, int *bot)
{
	if (bot)
		*bot = 0;
	if (strcmp(w, "guest") == 0)
		*kind = SESSION_GUEST;
	else if (strcmp(w, "account") == 0)
		*kind = SESSION_ACCOUNT;
	else if (strcmp(w, "botaccount") == 0 && bot) { /* a challenge's (chal) alone */
		*kind = SESSION_ACCOUNT;
		*bot = 1;
	} else
		return -1;
	return 0;
}

/* Whether name, a user of node, is seeking or playing there (as its
 * presence said last). */
struct busy {
	const char *node, *name;
	int busy;
};

static int
busy_user(void *arg, const char *node, const proto_msg_t *m)
{
	struct busy *b = arg;
	if (strcmp(node, b->node) != 0 || strcasecmp(m->user, b->name) != 0)
		return 0;
	b->busy = m->ustate == USER_PLAYING || m->ustate == USER_SEEKING;
	return 1;
}

/* What a placement for another node's player answers once its game's
 * start is stored or refused: a claim of a seek here (placed / refused),
 * a challenge accepted here (chalok), a JOIN of a room here (joined /
 * busy). */
enum place_kind { PLACE_CLAIM, PLACE_CHALLENGE, PLACE_JOIN, PLACE_TAKE };

struct placing {
	struct clobby *lb;
	enum place_kind kind;
	char node[NODE_MAX]; /* the other node, to answer */
	uint32_t ref;        /* its claim's or JOIN's ref, or its challenge id */
	uint32_t id;         /* the seek or the challenge (xin) here */
	struct session *away;
};

static struct xin *xin_by_id(struct clobby *lb, uint32_t id);
static void xin_end(struct clobby *lb, struct xin *x, proto_end_t how, int tell_node);

/* The start of a game with another node's player is answered: the seat
 * awaits its RESUME and the other node hears where, or (refused, or no
 * room r) the seat goes and the other node hears no. */
static void
place_answer(const struct placing *pl, struct room *r, game_err_t e)
{
	struct clobby *lb = pl->lb;
	struct seek *k = pl->kind == PLACE_CLAIM || pl->kind == PLACE_TAKE ? local_seek(lb, pl->id)
									   : NULL;
	struct xin *x = pl->kind == PLACE_CHALLENGE ? xin_by_id(lb, pl->id) : NULL;
	if (k)
		lobby_hold(k, 0);
	if (x)
		x->starting = 0;
	if (e != GERR_OK) {
		if (pl->away)
			session_free(pl->away);
		if (pl->kind == PLACE_CLAIM)
			say(lb, pl->node, "refused %u", pl->ref);
		else if (pl->kind == PLACE_JOIN || pl->kind == PLACE_TAKE)
			say(lb, pl->node, "busy %u", pl->ref);
		if (r && pl->kind != PLACE_JOIN)
			room_check(r);
		return;
	}
	room_gone(r, pl->away); /* it comes with RESUME; its grace runs till then */
	log_info(&lb->srv->log, "cluster: %s of node %s plays in %s", pl->away->name, pl->node,
	    room_id(r));
	if (pl->kind == PLACE_CLAIM) {
		if (k)
			lobby_cancel(lb->srv, k->sess, k->id);
		say(lb, pl->node, "placed %u %s", pl->ref, room_id(r));
	} else if (pl->kind == PLACE_CHALLENGE) {
		say(lb, pl->node, "chalok %u %s", pl->ref, room_id(r));
		if (x)
			xin_end(lb, x, END_ACCEPTED, 0);
	} else if (pl->kind == PLACE_TAKE) {
		if (k)
			lobby_cancel(lb->srv, k->sess, k->id);
		say(lb, pl->node, "joined %u %s", pl->ref, room_id(r));
	} else {
		say(lb, pl->node, "joined %u %s", pl->ref, room_id(r));
	}
}

/* room_started_fn of a placement; at shutdown (r NULL) only pl goes. */
static void
placed(void *arg, struct room *r, game_err_t e)
{
	if (r)
		place_answer(arg, r, e);
	free(arg);
}

/* A placement of another node's player (name, kind, digest: a seat
 * awaiting its RESUME) in r: with here in a new room (room_pair), or in
 * the free seat of a private room (room_join, here NULL). Whatever comes
 * of it, node hears it through place_answer (id: the seek or challenge
 * here, held until then). */
static game_err_t
place(struct clobby *lb, struct room *r, enum place_kind kind, const char *node, uint32_t ref,
    uint32_t id, struct session *here, game_wish_t here_wish, const char *name,
    enum session_kind skind, const char *digest, game_wish_t wish)
{
	struct placing tmp, *pl = calloc(1, sizeof *pl), *p = pl ? pl : &tmp;
	memset(p, 0, sizeof *p);
	p->lb = lb;
	p->kind = kind;
	snprintf(p->node, sizeof p->node, "%s", node);
	p->ref = ref;
	p->id = id;
	/* a name in use here: its seat could not be told apart */
	game_err_t e = session_by_name(lb->srv, name) ? GERR_BUSY : GERR_NOMEM;
	if (pl && r && e == GERR_NOMEM)
		p->away = session_await(lb->srv, name, digest, skind);
	if (!p->away) {
		place_answer(p, r, e);
		free(pl);
		return e;
	}
	return here ? room_pair(r, here, here_wish, p->away, wish, placed, pl)
		    : room_join(r, p->away, placed, pl);
}

/* Another node claims seek id here for its player (the = SEEK line): this
 * node decides, and pairs at once, or refuses. */
static void
got_claim(struct clobby *lb, const char *node, uint32_t ref, uint32_t id, const char *kw,
    const char *digest, const char *line)
{
	struct server *srv = lb->srv;
	struct seek *k = local_seek(lb, id);
	enum session_kind kind;
	proto_msg_t m;
	struct gamespec g;
	if (proto_parse(line, strlen(line), PROTO_SERVER, &m, NULL, 0) != 0 || m.id != PD_SEEK ||
	    kind_parse(kw, &kind, NULL) != 0 || strlen(digest) != AUTH_DIGEST_LEN) {
		log_warn(&srv->log, "cluster: a bad seek claim from node %s dropped", node);
		return;
	}
	wire_gamespec(&g, &m);
	const char *bad;
	if (gamespec_check(&g, &bad) != 0) {
		log_warn(&srv->log, "cluster: node %s claims with a bad seek: %s", node, bad);
		return;
	}
	if (!k || lobby_held(k) || !clobby_on(lb) || admin_draining(srv->admin) ||
	    !gamespec_compatible(&k->spec, &g) || strcasecmp(k->sess->name, m.user) == 0) {
		log_debug(&srv->log, "cluster: node %s's claim of seek %u refused", node, id);
		say(lb, node, "refused %u", ref);
		return;
	}
	/* held until the game's start is answered, which tells node */
	lobby_hold(k, 1);
	place(lb, room_new(srv, &k->spec, 0), PLACE_CLAIM, node, ref, id, k->sess, k->spec.colour,
	    m.user, kind, digest, g.colour);
}

static struct claim *
claim_of(struct clobby *lb, const char *node, uint32_t ref)
{
	struct claim *c;
	LIST_FOREACH (c, &lb->claims, link)
		if (c->ref == ref && strcmp(c->node, node) == 0)
			return c;
	return NULL;
}

/* The claim won: the seat is in room there. Its seeker goes there, or
 * (gone meanwhile) the room is aborted. */
static void
got_placed(struct clobby *lb, const char *node, uint32_t ref, const char *room)
{
	struct claim *c = claim_of(lb, node, ref);
	struct session *s = c ? c->s : NULL;
	int here = s && s->seek && s->seek->id == c->seek && lobby_held(s->seek);
	if (c)
		claim_free(c);
	if (here) {
		lobby_hold(s->seek, 0);
		lobby_cancel(lb->srv, s, s->seek->id);
		if (send_moved(lb, s, node, room) == 0)
			return;
	}
	log_info(
	    &lb->srv->log, "cluster: room %s of node %s: its player from here went", room, node);
	say(lb, node, "abort %s", room);
}

static void
got_refused(struct clobby *lb, const char *node, uint32_t ref)
{
	struct claim *c = claim_of(lb, node, ref);
	if (!c)
		return;
	struct session *s = c->s;
	uint32_t id = c->seek;
	claim_free(c);
	if (s->seek && s->seek->id == id)
		lobby_release(lb->srv, s->seek);
}

/* The player of another node seated in room never came: its game ends
 * unrated (nobody has moved for that seat). */
static void
got_abort(struct clobby *lb, const char *node, const char *room)
{
	struct room *r = room_find(lb->srv, room);
	for (int i = 0; r && i < 2; i++) {
		struct session *s = room_seated(r, i);
		struct room_act act;
		if (s && session_awaited(s) && !s->conn) {
			game_err_t e = room_abort(r, s, &act);
			log_info(&lb->srv->log, "cluster: room %s aborted for node %s: %s", room,
			    node, e == GERR_OK || e == GERR_PENDING ? "done" : "refused");
			return;
		}
	}
}

/* --- challenges --- */

struct user_at {
	const char *name;
	char node[NODE_MAX];
	proto_msg_t m;
};

static int
find_user(void *arg, const char *node, const proto_msg_t *m)
{
	struct user_at *u = arg;
	if (strcasecmp(m->user, u->name) != 0)
		return 0;
	snprintf(u->node, sizeof u->node, "%s", node);
	u->m = *m;
	return 1;
}

int
clobby_pending(const struct clobby *lb, const struct session *s)
{
	const struct xout *x;
	if (lb)
		LIST_FOREACH (x, &lb->xouts, link)
			if (x->from == s)
				return 1;
	return 0;
}

game_err_t
clobby_challenge(struct clobby *lb, struct session *from, const char *to, const struct gamespec *g,
    uint32_t *id, const char **why)
{
	struct server *srv = lb ? lb->srv : NULL;
	struct user_at u = { to, "", { 0 } };
	if (!lb || !cluster_up(lb->cl)) {
		if (lb)
			*why = "not on this node, and the cluster is unreachable now";
		return lb ? GERR_UNAVAILABLE : GERR_NO_USER;
	}
	if (!cluster_each_of(lb->cl, PD_USER, find_user, &u))
		return GERR_NO_USER;
	if (!clobby_on(lb)) {
		*why = "a game with a user of another node needs the cluster's shared PostgreSQL "
		       "database";
		return GERR_UNAVAILABLE;
	}
	if (session_busy(from) || u.m.ustate == USER_PLAYING || u.m.ustate == USER_SEEKING) {
		*why = session_busy(from) ? "you are seeking or playing"
					  : "they are seeking or playing";
		return GERR_BUSY;
	}
	if (challenge_pending(srv, from) || clobby_pending(lb, from)) {
		*why = "you have a challenge open already";
		return GERR_OFFER_PENDING;
	}
	struct xout *x = calloc(1, sizeof *x);
	char digest[AUTH_DIGEST_LEN + 1], line[PROTO_LINE_MAX];
	proto_msg_t e;
	if (!x)
		return GERR_NOMEM;
	x->id = challenge_next_id(srv);
	x->from = from;
	x->until = clock_now_ms() + (CHALLENGE_TTL_S + 5) * 1000;
	snprintf(x->node, sizeof x->node, "%s", u.node);
	snprintf(x->to, sizeof x->to, "%s", u.m.user);
	x->spec = *g;
	proto_init(&e, PE_CHALLENGE, NULL);
	e.ident = x->id;
	snprintf(e.user, sizeof e.user, "%s", from->name);
	snprintf(e.user2, sizeof e.user2, "%s", u.m.user);
	wire_gamespec_out(&e, g);
	digest_of(from, digest);
	int n = proto_format(&e, line, sizeof line);
	if (n <= 1 ||
	    say(lb, u.node, "chal %u %s %s %.*s", x->id,
		from->botacct ? "botaccount" : kind_word(from), digest, n - 1, line)) {
		free(x);
		*why = "the cluster is unreachable now";
		return GERR_UNAVAILABLE;
	}
	LIST_INSERT_HEAD(&lb->xouts, x, link);
	*id = x->id;
	log_debug(
	    &srv->log, "challenge %u: %s to %s of node %s", x->id, from->name, u.m.user, u.node);
	return GERR_OK;
}

static void
xin_end(struct clobby *lb, struct xin *x, proto_end_t how, int tell_node)
{
	struct session *s = x->to;
	end_event(s, x->id, how);
	if (tell_node)
		say(lb, x->node, "chalend %u %s", x->rid, end_words[how]);
	LIST_REMOVE(x, link);
	free(x);
	session_check(s); /* away, it may hold nothing now */
}

static void
xout_end(struct clobby *lb, struct xout *x, proto_end_t how, int tell_node)
{
	struct session *s = x->from;
	end_event(s, x->id, how);
	if (tell_node)
		say(lb, x->node, "chalgone %u %s", x->id, end_words[how]);
	LIST_REMOVE(x, link);
	free(x);
	session_check(s);
}

/* A challenge from node's user to one here: he hears * CHALLENGE with
 * this node's id, or it ends at once (he is not here, or busy). */
static void
got_chal(struct clobby *lb, const char *node, uint32_t rid, const char *kw, const char *digest,
    const char *line)
{
	struct server *srv = lb->srv;
	proto_msg_t m;
	enum session_kind kind;
	int bot = 0;
	if (proto_parse(line, strlen(line), PROTO_SERVER, &m, NULL, 0) != 0 ||
	    m.id != PE_CHALLENGE || kind_parse(kw, &kind, &bot) != 0 ||
	    strlen(digest) != AUTH_DIGEST_LEN) {
		log_warn(&srv->log, "cluster: a bad challenge from node %s dropped", node);
		return;
	}
	struct session *to = session_by_name(srv, m.user2);
	struct xin *x = NULL;
	struct gamespec g;
	const char *bad;
	wire_gamespec(&g, &m);
	if (gamespec_check(&g, &bad) != 0) {
		log_warn(&srv->log, "cluster: node %s challenges with bad settings: %s", node, bad);
		return;
	}
	/* a bot account's, to a person who refuses them (PROTOCOL.md 5.22):
	 * declined, never shown */
	if (to && bot && to->nobots && !to->botacct) {
		say(lb, node, "chalend %u %s", rid, end_words[END_DECLINED]);
		return;
	}
	if (!to || !to->conn || session_busy(to) || !(x = calloc(1, sizeof *x))) {
		say(lb, node, "chalend %u %s", rid,
		    end_words[to && to->conn ? END_DECLINED : END_WITHDRAWN]);
		return;
	}
	x->id = challenge_next_id(srv);
	x->rid = rid;
	x->to = to;
	x->kind = kind;
	x->until = clock_now_ms() + CHALLENGE_TTL_S * 1000;
	snprintf(x->node, sizeof x->node, "%s", node);
	snprintf(x->from, sizeof x->from, "%s", m.user);
	snprintf(x->digest, sizeof x->digest, "%s", digest);
	x->spec = g;
	LIST_INSERT_HEAD(&lb->xins, x, link);
	m.ident = x->id;
	snprintf(m.user2, sizeof m.user2, "%s", to->name);
	session_send(to, &m);
}

game_err_t
clobby_answer(struct clobby *lb, struct session *s, uint32_t id, int accept)
{
	struct xout *o;
	struct xin *x;
	if (!lb)
		return GERR_NO_OFFER;
	LIST_FOREACH (o, &lb->xouts, link)
		if (o->id == id && o->from == s) {
			if (accept)
				return GERR_NOT_PLAYER;
			xout_end(lb, o, END_WITHDRAWN, 1);
			return GERR_OK;
		}
	LIST_FOREACH (x, &lb->xins, link)
		if (x->id == id && x->to == s)
			break;
	if (!x)
		return GERR_NO_OFFER;
	if (!accept) {
		xin_end(lb, x, END_DECLINED, 1);
		return GERR_OK;
	}
	/* a rated game needs two accounts (PROTOCOL.md 4.2); the challenger's
	 * node could not tell that the one challenged here is a guest */
	if (x->spec.rated && (s->kind == SESSION_GUEST || x->kind == SESSION_GUEST))
		return GERR_ACCOUNT_ONLY;
	if (x->away) /* its challenger's connection dropped: it waits for them */
		return GERR_AWAY;
	struct busy b = { x->node, x->from, 0 };
	cluster_each_of(lb->cl, PD_USER, busy_user, &b);
	if (session_busy(s) || b.busy || session_make_room(s))
		return GERR_BUSY;
	/* it stays, its expiry waiting, until the game's start is answered */
	x->starting = 1;
	return place(lb, room_new(lb->srv, &x->spec, 0), PLACE_CHALLENGE, x->node, x->rid, x->id, s,
	    WISH_ANY, x->from, x->kind, x->digest, x->spec.colour);
}

static struct xin *
xin_by_id(struct clobby *lb, uint32_t id)
{
	struct xin *x;
	LIST_FOREACH (x, &lb->xins, link)
		if (x->id == id)
			return x;
	return NULL;
}

static struct xout *
xout_of(struct clobby *lb, const char *node, uint32_t id)
{
	struct xout *x;
	LIST_FOREACH (x, &lb->xouts, link)
		if (x->id == id && strcmp(x->node, node) == 0)
			return x;
	return NULL;
}

/* The challenge was accepted there: its challenger goes to room, or (gone
 * or busy meanwhile) the room is aborted. */
static void
got_chalok(struct clobby *lb, const char *node, uint32_t id, const char *room)
{
	struct xout *x = xout_of(lb, node, id);
	struct session *s = x ? x->from : NULL;
	if (x && !session_busy(s)) {
		end_event(s, x->id, END_ACCEPTED);
		LIST_REMOVE(x, link);
		free(x);
		if (send_moved(lb, s, node, room) == 0)
			return;
		session_check(s); /* away meanwhile: it may hold nothing now */
	} else if (x) {
		xout_end(lb, x, END_WITHDRAWN, 0);
	}
	say(lb, node, "abort %s", room);
}

static int
end_parse(const char *w, proto_end_t *how)
{
	for (int i = END_DECLINED; i <= END_EXPIRED; i++)
		if (strcmp(w, end_words[i]) == 0) {
			*how = (proto_end_t)i;
			return 0;
		}
	return -1;
}

static void
got_end(struct clobby *lb, const char *node, uint32_t id, const char *w, int to_challenger)
{
	proto_end_t how;
	if (end_parse(w, &how) != 0)
		return;
	if (to_challenger) {
		struct xout *x = xout_of(lb, node, id);
		if (x)
			xout_end(lb, x, how, 0);
		return;
	}
	struct xin *x;
	LIST_FOREACH (x, &lb->xins, link)
		if (x->rid == id && strcmp(x->node, node) == 0) {
			xin_end(lb, x, how, 0);
			return;
		}
}

/* --- JOIN <code> of another node's private room --- */

struct peers {
	struct clobby *lb;
	struct join *j;
	char text[TEXT_MAX];
	char last[NODE_MAX];
};

/* Each node once (a node's users come one line after another). */
static int
ask_node(void *arg, const char *node, const proto_msg_t *m)
{
	struct peers *p = arg;
	(void)m;
	if (strcmp(node, p->last) == 0)
		return 0;
	snprintf(p->last, sizeof p->last, "%s", node);
	if (cluster_send_lobby(p->lb->cl, node, p->text) == 0)
		p->j->asked++;
	return 0;
}

game_err_t
clobby_join(struct clobby *lb, struct conn *c, const proto_msg_t *m, const char **why)
{
	struct session *s = c->sess;
	char digest[AUTH_DIGEST_LEN + 1];
	if (!clobby_on(lb))
		return GERR_NO_CODE;
	if (session_busy(s))
		return GERR_BUSY;
	struct join *j = calloc(1, sizeof *j);
	if (!j)
		return GERR_NOMEM;
	j->ref = ++lb->next_ref;
	j->c = c;
	j->s = s;
	j->m = *m;
	j->at = clock_now_ms();
	digest_of(s, digest);
	struct peers p = { lb, j, "", "" };
	snprintf(p.text, sizeof p.text, "join %u %s %s %s = USER %s idle", j->ref, kind_word(s),
	    digest, m->code, s->name);
	/* every node with a user: a private room waits with its creator */
	cluster_each_of(lb->cl, PD_USER, ask_node, &p);
	if (!j->asked) {
		free(j);
		*why = NULL;
		return GERR_NO_CODE;
	}
	LIST_INSERT_HEAD(&lb->joins, j, link);
	conn_hold(c, CONN_HOLD_WORLD);
	return GERR_PENDING;
}

void
clobby_conn_gone(struct clobby *lb, struct conn *c)
{
	struct join *j;
	if (lb)
		LIST_FOREACH (j, &lb->joins, link)
			if (j->c == c)
				j->c = NULL;
}

/* Another node's JOIN: the seat of the private room with that code, if
 * this node has it. */
static void
got_join(struct clobby *lb, const char *node, uint32_t ref, const char *kw, const char *digest,
    const char *code, const char *line)
{
	struct server *srv = lb->srv;
	struct room *r = room_by_code(srv, code);
	enum session_kind kind;
	proto_msg_t u;
	if (proto_parse(line, strlen(line), PROTO_SERVER, &u, NULL, 0) != 0 || u.id != PD_USER) {
		log_warn(&srv->log, "cluster: a bad JOIN from node %s dropped", node);
		return;
	}
	const char *name = u.user;
	if (!r) {
		say(lb, node, "nocode %u", ref);
		return;
	}
	if (!room_joinable(r)) {
		say(lb, node, "full %u", ref);
		return;
	}
	if (kind_parse(kw, &kind, NULL) != 0 || !clobby_on(lb) || admin_draining(srv->admin)) {
		say(lb, node, "busy %u", ref);
		return;
	}
	place(lb, r, PLACE_JOIN, node, ref, 0, NULL, WISH_ANY, name, kind, digest, WISH_ANY);
}

/* --- TAKE of another node's seek --- */

struct far_seek {
	struct clobby *lb;
	uint32_t id;
	const char *user;
	char node[NODE_MAX];
	proto_msg_t m;
};

static int
find_take(void *arg, const char *node, const proto_msg_t *m)
{
	struct far_seek *f = arg;
	if ((uint32_t)m->ident != f->id || strcasecmp(m->user, f->user) != 0 ||
	    strcmp(node, cluster_node(f->lb->cl)) == 0)
		return 0;
	snprintf(f->node, sizeof f->node, "%s", node);
	f->m = *m;
	return 1;
}

game_err_t
clobby_take(struct clobby *lb, struct conn *c, const proto_msg_t *m, const char **why)
{
	struct session *s = c->sess;
	struct far_seek f = { lb, (uint32_t)m->ident, m->user, "", { 0 } };
	char digest[AUTH_DIGEST_LEN + 1], line[PROTO_LINE_MAX], text[TEXT_MAX];
	struct gamespec g;
	if (!clobby_on(lb) || !cluster_each_of(lb->cl, PD_SEEK, find_take, &f))
		return GERR_NO_SEEK;
	wire_gamespec(&g, &f.m);
	if (g.rated && s->kind == SESSION_GUEST) {
		*why = GAME_WHY_ACCOUNT_ONLY;
		return GERR_ACCOUNT_ONLY;
	}
	g.colour = WISH_ANY; /* the seeker's wish decides, as here */
	proto_msg_t k;
	proto_init(&k, PD_SEEK, NULL);
	k.ident = f.id;
	snprintf(k.user, sizeof k.user, "%s", s->name);
	wire_gamespec_out(&k, &g);
	k.fallback = FALLBACK_HUMAN;
	int n = proto_format(&k, line, sizeof line);
	struct join *j = n > 1 ? calloc(1, sizeof *j) : NULL;
	if (!j)
		return GERR_NOMEM;
	j->ref = ++lb->next_ref;
	j->c = c;
	j->s = s;
	j->m = *m;
	j->at = clock_now_ms();
	j->asked = 1;
	digest_of(s, digest);
	snprintf(text, sizeof text, "take %u %u %s %s %s %.*s", j->ref, f.id, f.m.user,
	    kind_word(s), digest, n - 1, line);
	if (cluster_send_lobby(lb->cl, f.node, text) != 0) {
		free(j);
		*why = "that seek's node cannot be reached now";
		return GERR_UNAVAILABLE;
	}
	LIST_INSERT_HEAD(&lb->joins, j, link);
	conn_hold(c, CONN_HOLD_WORLD);
	return GERR_PENDING;
}

/* Another node's TAKE of seek id here (owner's): paired at once with its
 * player, or refused. */
static void
got_take(struct clobby *lb, const char *node, uint32_t ref, uint32_t id, const char *owner,
    const char *kw, const char *digest, const char *line)
{
	struct server *srv = lb->srv;
	struct seek *k = local_seek(lb, id);
	enum session_kind kind;
	proto_msg_t m;
	if (proto_parse(line, strlen(line), PROTO_SERVER, &m, NULL, 0) != 0 || m.id != PD_SEEK ||
	    kind_parse(kw, &kind, NULL) != 0 || strlen(digest) != AUTH_DIGEST_LEN) {
		log_warn(&srv->log, "cluster: a bad TAKE from node %s dropped", node);
		return;
	}
	if (!k || lobby_held(k) || strcasecmp(k->sess->name, owner) != 0 ||
	    strcasecmp(k->sess->name, m.user) == 0 || (k->spec.rated && kind == SESSION_GUEST)) {
		say(lb, node, "noseek %u", ref);
		return;
	}
	if (!clobby_on(lb) || admin_draining(srv->admin)) {
		say(lb, node, "busy %u", ref);
		return;
	}
	/* held until the game's start is answered, which tells node */
	lobby_hold(k, 1);
	place(lb, room_new(srv, &k->spec, 0), PLACE_TAKE, node, ref, id, k->sess, k->spec.colour,
	    m.user, kind, digest, WISH_ANY);
}

static void
join_end(struct join *j, int code, const char *why)
{
	struct conn *c = j->c;
	LIST_REMOVE(j, link);
	if (c) {
		if (code)
			conn_error(c, j->m.tag, code, why ? "%s" : NULL, why);
		conn_release(c);
	}
	free(j);
}

/* An answer to a JOIN: the seat there (the joiner is sent there), or one
 * node more without the code. */
static void
got_join_answer(
    struct clobby *lb, const char *node, const char *verb, uint32_t ref, const char *room)
{
	struct join *j;
	LIST_FOREACH (j, &lb->joins, link)
		if (j->ref == ref)
			break;
	if (strcmp(verb, "joined") == 0) {
		if (j && j->c && j->s->conn == j->c && !session_busy(j->s) &&
		    send_moved(lb, j->s, node, room) == 0) {
			proto_msg_t ok;
			if (j->m.id == PR_TAKE) { /* OK TAKE <seek> */
				proto_init(&ok, PO_TAKE, j->m.tag);
				ok.ident = j->m.ident;
			} else {
				proto_init(&ok, PO_JOIN, j->m.tag);
				snprintf(ok.room, sizeof ok.room, "%s", room);
			}
			conn_send(j->c, &ok);
			join_end(j, 0, NULL);
			return;
		}
		say(lb, node, "abort %s", room);
		if (j)
			join_end(j, ERR_BUSY, NULL);
	} else if (!j) {
		return;
	} else if (strcmp(verb, "full") == 0) {
		join_end(j, ERR_ROOM_FULL,
		    "that room is on another node and both seats are taken: watch it there");
	} else if (strcmp(verb, "busy") == 0) {
		join_end(j, ERR_BUSY,
		    j->m.id == PR_TAKE ? "that seek's node cannot pair you now"
				       : "that room's node cannot seat you now");
	} else if (strcmp(verb, "noseek") == 0) {
		join_end(j, ERR_NO_SEEK, "that seek is not open any more");
	} else if (++j->nocode >= j->asked) {
		join_end(j, ERR_NO_CODE, NULL);
	}
}

/* --- the rest --- */

/* s's claims of other nodes' seeks go: a late placed finds none, and the
 * room there is aborted. */
static void
drop_claims(struct clobby *lb, const struct session *s)
{
	struct claim *c, *cn;
	for (c = LIST_FIRST(&lb->claims); c; c = cn) {
		cn = LIST_NEXT(c, link);
		if (c->s == s)
			claim_free(c);
	}
}

void
clobby_gone(struct clobby *lb, struct session *s)
{
	if (!lb)
		return;
	drop_claims(lb, s);
	struct xout *o, *on;
	for (o = LIST_FIRST(&lb->xouts); o; o = on) {
		on = LIST_NEXT(o, link);
		if (o->from == s)
			xout_end(lb, o, END_WITHDRAWN, 1);
	}
	struct xin *x, *xn;
	for (x = LIST_FIRST(&lb->xins); x; x = xn) {
		xn = LIST_NEXT(x, link);
		if (x->to == s)
			xin_end(lb, x, END_WITHDRAWN, 1);
	}
}

void
clobby_away(struct clobby *lb, struct session *s)
{
	if (!lb)
		return;
	drop_claims(lb, s);
	struct xout *o;
	LIST_FOREACH (o, &lb->xouts, link) /* not to be accepted meanwhile */
		if (o->from == s)
			say(lb, o->node, "chalaway %u", o->id);
}

/* Another node's challenger (of its challenge rid) is away, or back. */
static void
got_chalaway(struct clobby *lb, const char *node, uint32_t rid, int away)
{
	struct xin *x;
	LIST_FOREACH (x, &lb->xins, link)
		if (x->rid == rid && strcmp(x->node, node) == 0)
			x->away = away;
}

/* A challenge as told at first, to s. */
static void
tell_challenge(
    struct session *s, uint32_t id, const char *from, const char *to, const struct gamespec *g)
{
	proto_msg_t e;
	proto_init(&e, PE_CHALLENGE, NULL);
	e.ident = id;
	snprintf(e.user, sizeof e.user, "%s", from);
	snprintf(e.user2, sizeof e.user2, "%s", to);
	wire_gamespec_out(&e, g);
	session_send(s, &e);
}

void
clobby_back(struct clobby *lb, struct session *s)
{
	if (!lb)
		return;
	struct xout *o;
	LIST_FOREACH (o, &lb->xouts, link)
		if (o->from == s) {
			say(lb, o->node, "chalback %u", o->id);
			tell_challenge(s, o->id, s->name, o->to, &o->spec);
		}
	struct xin *x;
	LIST_FOREACH (x, &lb->xins, link)
		if (x->to == s)
			tell_challenge(s, x->id, x->from, s->name, &x->spec);
}

int
clobby_holds(const struct clobby *lb, const struct session *s)
{
	const struct xout *o;
	const struct xin *x;
	if (!lb)
		return 0;
	LIST_FOREACH (o, &lb->xouts, link)
		if (o->from == s)
			return 1;
	LIST_FOREACH (x, &lb->xins, link)
		if (x->to == s)
			return 1;
	return 0;
}

/* --- an account signed in here while it is on another node --- */

void
clobby_signed_in(struct clobby *lb, struct session *s)
{
	char text[64];
	if (!clobby_on(lb) || s->kind != SESSION_ACCOUNT)
		return;
	snprintf(text, sizeof text, "takeover %s", s->name);
	cluster_lobby_all(lb->cl, text);
}

/* Whether one of the sessions of first's name (a bot account may have
 * several, PROTOCOL.md 5.22) is seated in r. */
static int
seated_any(const struct room *r, struct session *first)
{
	for (struct session *s = first; s; s = session_named_next(s))
		if (room_seat_of(r, s) >= 0)
			return 1;
	return 0;
}

/* name signed in on node: its connections here are closed (their seats
 * wait for it with the grace, as after any drop) and node hears of each
 * seat here that is its, live or kept through a restart. */
static void
got_takeover(struct clobby *lb, const char *node, const char *name)
{
	struct server *srv = lb->srv;
	struct session *first = session_named_first(srv, name);
	if (first && first->kind != SESSION_ACCOUNT)
		return; /* a guest of that name here: not the account's */
	for (struct session *s = first; s; s = session_named_next(s))
		if (s->conn && !s->conn->closing) {
			log_info(&srv->log,
			    "cluster: %s signed in on node %s: its connection here closed", name,
			    node);
			conn_bye(s->conn, "takeover", "your session continues on another node");
		}
	for (struct room *r = rooms_first(srv->rooms); r; r = rooms_next(r))
		if (room_unfinished(r) &&
		    ((first && seated_any(r, first)) || (!first && room_awaiting(r, name) >= 0)))
			say(lb, node, "seated %s %s", name, room_id(r));
}

/* The account signed in here has a seat on node: it is sent there. */
static void
got_seated(struct clobby *lb, const char *node, const char *name, const char *room)
{
	struct session *s = session_by_name(lb->srv, name);
	if (s && s->kind == SESSION_ACCOUNT && s->conn)
		send_moved(lb, s, node, room);
}

/* --- a tournament's games with other nodes' players (issue 48) --- */

game_err_t
clobby_seat(struct clobby *lb, const char *name, void (*fn)(void *arg, struct session *s),
    void *arg, const char **why)
{
	char canon[PROTO_NAME_MAX + 1];
	const char *node = cluster_user_node(lb->cl, name, canon);
	if (!node || !clobby_on(lb)) {
		*why = "that player is on no other node";
		return GERR_NO_USER;
	}
	struct tseat *t = calloc(1, sizeof *t);
	if (!t)
		return GERR_NOMEM;
	t->ref = ++lb->next_ref;
	snprintf(t->node, sizeof t->node, "%s", node);
	snprintf(t->name, sizeof t->name, "%s", canon);
	t->fn = fn;
	t->arg = arg;
	t->at = clock_now_ms();
	if (say(lb, node, "tseat %u %s", t->ref, canon) != 0) {
		free(t);
		*why = "that player's node cannot be reached now";
		return GERR_UNAVAILABLE;
	}
	LIST_INSERT_HEAD(&lb->tseats, t, link);
	return GERR_PENDING;
}

void
clobby_seated(struct clobby *lb, struct session *s, struct room *r)
{
	char canon[PROTO_NAME_MAX + 1];
	if (!r) {
		session_free(s);
		return;
	}
	room_gone(r, s); /* it comes with RESUME; its grace runs till then */
	const char *node = cluster_user_node(lb->cl, s->name, canon);
	log_info(&lb->srv->log, "cluster: %s of node %s plays a tournament's game in %s", s->name,
	    node ? node : "-", room_id(r));
	if (node)
		say(lb, node, "tmoved %s %s", canon, room_id(r));
}

/* Another node's tournament wants name here: whether it can play now
 * (connected, at no game), and its token's digest to seat it there. */
static void
got_tseat(struct clobby *lb, const char *node, uint32_t ref, const char *name)
{
	struct server *srv = lb->srv;
	struct session *s = session_by_name(srv, name);
	char digest[AUTH_DIGEST_LEN + 1];
	if (!s || !s->conn || s->kind == SESSION_BOT || session_awaited(s) || session_at_cap(s) ||
	    !clobby_on(lb) || admin_draining(srv->admin)) {
		say(lb, node, "tseatno %u", ref);
		return;
	}
	if (s->seek) /* the tournament's game comes first */
		lobby_cancel(srv, s, s->seek->id);
	digest_of(s, digest);
	say(lb, node, "tseatok %u %s %s", ref, kind_word(s), digest);
}

static void
got_tseat_answer(
    struct clobby *lb, const char *node, uint32_t ref, const char *kw, const char *digest)
{
	struct tseat *t;
	LIST_FOREACH (t, &lb->tseats, link)
		if (t->ref == ref && strcmp(t->node, node) == 0)
			break;
	if (!t)
		return;
	LIST_REMOVE(t, link);
	enum session_kind kind;
	struct session *s = NULL;
	/* a name in use here: its seat could not be told apart */
	if (kw && kind_parse(kw, &kind, NULL) == 0 && strlen(digest) == AUTH_DIGEST_LEN &&
	    !session_by_name(lb->srv, t->name))
		s = session_await(lb->srv, t->name, digest, kind);
	t->fn(t->arg, s);
	free(t);
}

/* A tournament's game of name's started in room on node: name goes
 * there, unless it went, or sat down to another game meanwhile (its seat
 * there then waits out its grace). */
static void
got_tmoved(struct clobby *lb, const char *node, const char *name, const char *room)
{
	struct session *s = session_by_name(lb->srv, name);
	if (s && s->conn && !session_at_cap(s) && send_moved(lb, s, node, room) == 0)
		return;
	log_info(&lb->srv->log, "cluster: %s is not here for its tournament game %s of node %s",
	    name, room, node);
}

void
clobby_got(struct clobby *lb, const char *node, const char *text, size_t n)
{
	char buf[TEXT_MAX], verb[12], a[PROTO_ROOM_MAX + 1], kw[12], digest[AUTH_DIGEST_LEN + 2],
	    code[PROTO_CODE_MAX + 1], name[PROTO_NAME_MAX + 1];
	unsigned x, y;
	int off = 0;
	if (n >= sizeof buf)
		return;
	memcpy(buf, text, n);
	buf[n] = '\0';
	if (sscanf(buf, "%11s", verb) != 1)
		return;
	if (strcmp(verb, "claim") == 0 &&
	    sscanf(buf, "claim %u %u %11s %65s %n", &x, &y, kw, digest, &off) == 4 && off)
		got_claim(lb, node, x, y, kw, digest, buf + off);
	else if (strcmp(verb, "placed") == 0 && sscanf(buf, "placed %u %16s", &x, a) == 2)
		got_placed(lb, node, x, a);
	else if (strcmp(verb, "refused") == 0 && sscanf(buf, "refused %u", &x) == 1)
		got_refused(lb, node, x);
	else if (strcmp(verb, "abort") == 0 && sscanf(buf, "abort %16s", a) == 1)
		got_abort(lb, node, a);
	else if (strcmp(verb, "chal") == 0 &&
	    sscanf(buf, "chal %u %11s %65s %n", &x, kw, digest, &off) == 3 && off)
		got_chal(lb, node, x, kw, digest, buf + off);
	else if (strcmp(verb, "join") == 0 &&
	    sscanf(buf, "join %u %11s %65s %32s %n", &x, kw, digest, code, &off) == 4 && off)
		got_join(lb, node, x, kw, digest, code, buf + off);
	else if (strcmp(verb, "joined") == 0 && sscanf(buf, "joined %u %16s", &x, a) == 2)
		got_join_answer(lb, node, verb, x, a);
	else if (strcmp(verb, "take") == 0 &&
	    sscanf(buf, "take %u %u %20s %11s %65s %n", &x, &y, name, kw, digest, &off) == 5 && off)
		got_take(lb, node, x, y, name, kw, digest, buf + off);
	else if ((strcmp(verb, "nocode") == 0 || strcmp(verb, "full") == 0 ||
		     strcmp(verb, "busy") == 0 || strcmp(verb, "noseek") == 0) &&
	    sscanf(buf + strlen(verb), " %u", &x) == 1)
		got_join_answer(lb, node, verb, x, "");
	else if (strcmp(verb, "chalok") == 0 && sscanf(buf, "chalok %u %16s", &x, a) == 2)
		got_chalok(lb, node, x, a);
	else if (strcmp(verb, "chalend") == 0 && sscanf(buf, "chalend %u %16s", &x, a) == 2)
		got_end(lb, node, x, a, 1);
	else if (strcmp(verb, "chalgone") == 0 && sscanf(buf, "chalgone %u %16s", &x, a) == 2)
		got_end(lb, node, x, a, 0);
	else if ((strcmp(verb, "chalaway") == 0 || strcmp(verb, "chalback") == 0) &&
	    sscanf(buf + strlen(verb), " %u", &x) == 1)
		got_chalaway(lb, node, x, verb[4] == 'a');
	else if (strcmp(verb, "takeover") == 0 && sscanf(buf, "takeover %20s", name) == 1)
		got_takeover(lb, node, name);
	else if (strcmp(verb, "seated") == 0 && sscanf(buf, "seated %20s %16s", name, a) == 2)
		got_seated(lb, node, name, a);
	else if (strcmp(verb, "tseat") == 0 && sscanf(buf, "tseat %u %20s", &x, name) == 2)
		got_tseat(lb, node, x, name);
	else if (strcmp(verb, "tseatok") == 0 &&
	    sscanf(buf, "tseatok %u %11s %65s", &x, kw, digest) == 3)
		got_tseat_answer(lb, node, x, kw, digest);
	else if (strcmp(verb, "tseatno") == 0 && sscanf(buf, "tseatno %u", &x) == 1)
		got_tseat_answer(lb, node, x, NULL, "");
	else if (strcmp(verb, "tmoved") == 0 && sscanf(buf, "tmoved %20s %16s", name, a) == 2)
		got_tmoved(lb, node, name, a);
	else
		log_warn(&lb->srv->log, "cluster: a lobby message from node %s dropped", node);
}

static int
tick_seek(void *arg, const struct seek *k)
{
	try_claim(arg, (struct seek *)(uintptr_t)k, 1);
	return 0;
}

void
clobby_tick(struct clobby *lb, int64_t now)
{
	struct claim *c, *cn;
	for (c = LIST_FIRST(&lb->claims); c; c = cn) {
		cn = LIST_NEXT(c, link);
		if (now - c->at < CLOBBY_WAIT_MS)
			continue;
		/* a late placed finds none: that room is aborted */
		struct session *s = c->s;
		uint32_t id = c->seek;
		claim_free(c);
		if (s->seek && s->seek->id == id)
			lobby_release(lb->srv, s->seek);
	}
	struct join *j, *jn;
	for (j = LIST_FIRST(&lb->joins); j; j = jn) {
		jn = LIST_NEXT(j, link);
		if (now - j->at >= CLOBBY_WAIT_MS) /* a late joined: that room is aborted */
			join_end(j, j->m.id == PR_TAKE ? ERR_NO_SEEK : ERR_NO_CODE, NULL);
	}
	struct xout *o, *on;
	for (o = LIST_FIRST(&lb->xouts); o; o = on) {
		on = LIST_NEXT(o, link);
		if (now >= o->until)
			xout_end(lb, o, END_EXPIRED, 1);
	}
	struct xin *x, *xn;
	for (x = LIST_FIRST(&lb->xins); x; x = xn) {
		xn = LIST_NEXT(x, link);
		if (now >= x->until && !x->starting)
			xin_end(lb, x, END_EXPIRED, 1);
	}
	struct tseat *t, *tn;
	for (t = LIST_FIRST(&lb->tseats); t; t = tn) {
		tn = LIST_NEXT(t, link);
		if (now - t->at >= CLOBBY_WAIT_MS) { /* a late answer finds none */
			LIST_REMOVE(t, link);
			t->fn(t->arg, NULL);
			free(t);
		}
	}
	/* a seek open here claims the other nodes' seeks each second too,
	 * only those of nodes named before this one, so two nodes never
	 * claim each other's seeks at once forever */
	lobby_each(lb->srv, tick_seek, lb);
}
