/* cmd.c: one handler per request of PROTOCOL.md. Each table row says what
 * its request needs (a greeting, a name, a room it may address, a seat in
 * it); cmd_dispatch checks that and resolves the room once. A handler either
 * sends its OK reply and returns 0, or returns the error code (and maybe a
 * reason) for the dispatcher to send. Game verbs answer in domain terms;
 * this file maps them to the wire (wire.h). */
#include "daemon/cmd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/account.h"
#include "daemon/admin.h"
#include "daemon/analysis.h"
#include "daemon/puzzles.h"
#include "daemon/tourneys.h"
#include "daemon/league.h"
#include "daemon/reviews.h"
#include "daemon/archive.h"
#include "daemon/botplay.h"
#include "daemon/challenge.h"
#include "daemon/conn.h"
#include "daemon/lobby.h"
#include "daemon/room.h"
#include "daemon/core.h"
#include "daemon/session.h"
#include "daemon/wire.h"
#include "daemon/world.h"

typedef int (*handler_fn)(struct conn *c, const proto_msg_t *m, struct room *rm, const char **why);

/* Who may send the request: anyone; anyone without a name yet (HELLO, which
 * needs no greeting); after HELLO; with a name; after HELLO without one;
 * after HELLO without a name or as a guest (a sign-in replaces the guest). */
enum need { NEED_NONE, NEED_UNNAMED, NEED_HELLO, NEED_NAME, NEED_ANON, NEED_SIGNIN };

/* What it addresses: m->room must be a room the session may address
 * (private rooms only by their members), maybe one it is in or seated at. */
enum target {
	AT_NONE,
	AT_ROOM_IF, /* a room when one is named (WHO) */
	AT_ROOM,
	AT_MEMBER, /* a room the session is in: ERR_NOT_IN_ROOM otherwise */
	AT_SEAT,   /* a room the session is seated in: ERR_NOT_PLAYER otherwise */
};

enum { LIST_MAX = 1000 }; /* lines in one ROOMS or WHO reply */

/* A handler's answer when its room answers later (GERR_PENDING), when it
 * runs again once the store thread has looked its session up, or when it
 * has parked itself (wait_start). */
enum { CMD_PENDING = -1, CMD_LOOKUP = -2, CMD_PARKED = -3 };

/* A request waiting for its room: the one whose commit is in flight
 * (answering), or a later one to run after it. */
struct parked {
	TAILQ_ENTRY(parked) link;
	struct conn *c;
	struct room *r; /* NULL: a request waiting for the store thread */
	int answering;
	proto_msg_t m;
	archive_run_fn run; /* cmd_store's */
	cmd_reply_fn reply;
	void *arg;
};

/* The command table's state: srv->cmd. */
struct cmd {
	TAILQ_HEAD(, parked) parked;        /* requests waiting for a room */
	const struct archive_lookup *ahead; /* a RESUME's lookup while it runs again */
};

static void
reply_init(proto_msg_t *r, const proto_msg_t *m)
{
	proto_init(r, proto_reply_of(m->id), m->tag);
}

/* OK <VERB> <room> */
static int
ok_room(struct conn *c, const proto_msg_t *m, const struct room *rm)
{
	proto_msg_t r;
	reply_init(&r, m);
	snprintf(r.room, sizeof r.room, "%s", room_id(rm));
	conn_send(c, &r);
	return 0;
}

/* OK <VERB> <room> <seq> */
static int
ok_seq(struct conn *c, const proto_msg_t *m, const struct room *rm, uint32_t seq)
{
	proto_msg_t r;
	reply_init(&r, m);
	snprintf(r.room, sizeof r.room, "%s", room_id(rm));
	r.seq = seq;
	conn_send(c, &r);
	return 0;
}

/* OK <VERB> <id> */
static int
ok_ident(struct conn *c, const proto_msg_t *m, int64_t id)
{
	proto_msg_t r;
	reply_init(&r, m);
	r.ident = id;
	conn_send(c, &r);
	return 0;
}

/* The wire error for a refused game verb. */
static int
refused(game_err_t e, const struct room_act *act, const char **why)
{
	if (act)
		*why = act->why;
	if (!*why && e == GERR_STORE)
		*why = "the game could not be saved; try again";
	return wire_err(e, act ? act->legal : LEGAL_OK);
}

/* Whether c's address and this name may come in (bans, admin.h). */
static int
admitted(struct conn *c, const char *name, const char **why)
{
	game_err_t e = admin_entry(c->srv->admin, name, (const struct sockaddr *)&c->addr);
	*why = admin_why(c->srv->admin);
	return e ? wire_err(e, LEGAL_OK) : 0;
}

/* A room the session may address: private rooms only by their members. */
static struct room *
lookup(struct conn *c, const char *id)
{
	struct room *r = room_find(c->srv, id);
	if (r && room_private(r) && !(c->sess && session_in_room(c->sess, r)))
		return NULL;
	return r;
}

/* * MOVED <room> <host:port>: room is played on another node, there
 * (p, from world_room_where). -1 while that node is not heard from. */
static int
moved(struct conn *c, const char *room, const struct world_place *p)
{
	if (p->at != WORLD_THERE || !p->addr[0])
		return -1;
	proto_msg_t e;
	proto_init(&e, PE_MOVED, NULL);
	snprintf(e.room, sizeof e.room, "%s", room);
	snprintf(e.word, sizeof e.word, "%s", p->addr);
	conn_send(c, &e);
	return 0;
}

/* Whether room, which no room here has, is another node's (p says where). */
static int
elsewhere(struct conn *c, const char *room, struct world_place *p)
{
	if (room_find(c->srv, room))
		return 0;
	world_room_where(&c->srv->world, room, p);
	return p->at == WORLD_THERE;
}

static int look_up(struct conn *c, const proto_msg_t *m);

/* c's request waits for rm (conn_hold: c reads no further line). */
static void
park(struct conn *c, const proto_msg_t *m, struct room *rm, int answering)
{
	struct parked *p = calloc(1, sizeof *p);
	if (!p) {
		conn_error(c, m->tag, ERR_INTERNAL, "out of memory");
		return;
	}
	p->c = c;
	p->r = rm;
	p->answering = answering;
	p->m = *m;
	TAILQ_INSERT_TAIL(&c->srv->cmd->parked, p, link);
	conn_hold(c, CONN_HELD);
}

/* A request that started a game whose row is being stored (GERR_PENDING
 * of a start): it waits for the room its session is seated at, and
 * room_replied answers it, naming ident (SEEK's id) where its OK does. */
static int
wait_start(struct conn *c, const proto_msg_t *m, int64_t ident)
{
	struct room *r = session_starting(c->sess);
	if (!r)
		return ERR_INTERNAL;
	proto_msg_t w = *m;
	w.ident = ident;
	park(c, &w, r, 1);
	return CMD_PARKED;
}

static int
cmd_hello(struct conn *c, const proto_msg_t *m, struct room *rm, const char **why)
{
	(void)rm;
	if (m->version != PROTO_VERSION) {
		*why = "this server speaks protocol 1";
		return ERR_VERSION;
	}
	/* a banned address is told why and until when at the door, and closed:
	 * it could take no name anyway (section 5.12) */
	int banned = admitted(c, NULL, why);
	if (banned) {
		conn_error(c, m->tag, banned, *why ? "%s" : NULL, *why);
		conn_close(c);
		return 0;
	}
	c->state = CS_READY;
	proto_msg_t r;
	reply_init(&r, m);
	r.version = PROTO_VERSION;
	conn_send(c, &r);
	return 0;
}

static int
cmd_ping(struct conn *c, const proto_msg_t *m, struct room *rm, const char **why)
{
	(void)rm;
	(void)why;
	proto_msg_t r;
	reply_init(&r, m);
	memcpy(r.word, m->word, sizeof r.word);
	conn_send(c, &r);
	return 0;
}

static int
cmd_quit(struct conn *c, const proto_msg_t *m, struct room *rm, const char **why)
{
	(void)rm;
	(void)why;
	/* the event before the reply it comes with, both before the close: a
	 * WebSocket's close frame is the last thing it sends */
	conn_send_bye(c, "quit", NULL);
	proto_msg_t r;
	reply_init(&r, m);
	conn_send(c, &r);
	conn_close(c);
	return 0;
}

static int
cmd_guest(struct conn *c, const proto_msg_t *m, struct room *rm, const char **why)
{
	(void)rm;
	int err = admitted(c, m->user[0] ? m->user : NULL, why);
	return err ? err : account_guest(c, m, why);
}

/* REGISTER, LOGIN, AUTH, REMEMBER, HISTORY, EXPORT, STATS, TOP: the
 * account module's. AUTH's account is known only after its lookup: the
 * address is checked here, the account there. */
static int
cmd_account(struct conn *c, const proto_msg_t *m, struct room *rm, const char **why)
{
	(void)rm;
	int err;
	if ((m->id == PR_REGISTER || m->id == PR_LOGIN) && (err = admitted(c, m->user, why)) != 0)
		return err;
	if (m->id == PR_AUTH && (err = admitted(c, NULL, why)) != 0)
		return err;
	switch (m->id) {
	case PR_REGISTER:
		return account_register(c, m, why);
	case PR_LOGIN:
		return account_login(c, m, why);
	case PR_AUTH:
		return account_auth(c, m, why);
	case PR_REMEMBER:
		return account_remember(c, m, why);
	case PR_BOTUPGRADE:
		return account_botupgrade(c, m, why);
	case PR_SET:
		return account_set(c, m, why);
	case PR_SETTINGS:
		return account_settings(c, m, why);
	default:
		return account_query(c, m, why);
	}
}

/* The name goes, and the login tokens the connection holds are revoked. */
static int
cmd_logout(struct conn *c, const proto_msg_t *m, struct room *rm, const char **why)
{
	(void)rm;
	if (session_busy(c->sess) || session_games(c->sess, NULL, 0) > 0)
		return ERR_BUSY; /* a bot account below its cap is seated all the same */
	return account_logout(c, m, why);
}

/* SEEK, CREATE and BOT play: the settings are sound and the player is free. */
static int
game_request(struct conn *c, const proto_msg_t *m, struct gamespec *g, const char **why)
{
	wire_gamespec(g, m);
	if (admin_draining(c->srv->admin)) {
		*why = "the server is draining for a restart: no new games";
		return ERR_DRAINING;
	}
	if (gamespec_check(g, why) != 0)
		return ERR_ARGUMENT;
	if (g->rated && c->sess->kind == SESSION_GUEST) {
		*why = GAME_WHY_ACCOUNT_ONLY;
		return ERR_ACCOUNT_ONLY;
	}
	return session_busy(c->sess) ? ERR_BUSY : 0;
}

/* Counts the open seeks here whose seeker is connected from c's address
 * (its unit: an IPv6 address by its /64), until the cap. */
struct seeks_from {
	const struct cidr *unit;
	int n, cap;
};

static int
seek_from(void *arg, const struct seek *k)
{
	struct seeks_from *f = arg;
	const struct conn *o = k->sess->conn;
	if (o && o->unit.family == f->unit->family && o->unit.bits == f->unit->bits &&
	    memcmp(o->unit.net, f->unit->net, sizeof o->unit.net) == 0)
		f->n++;
	return f->n >= f->cap;
}

static int
cmd_seek(struct conn *c, const proto_msg_t *m, struct room *rm, const char **why)
{
	(void)rm;
	struct gamespec g;
	int rc = game_request(c, m, &g, why);
	if (rc)
		return rc;
	if (c->sess->botacct && !c->srv->cfg.bot_seeks) {
		*why = "the lobby's seeks are for people here: bots play by challenge";
		return ERR_UNAVAILABLE;
	}
	int fallback = m->fallback == FALLBACK_BOT && c->srv->botplay;
	struct seeks_from f = { &c->unit, 0, c->srv->cfg.max_seeks_per_addr };
	lobby_each(c->srv, seek_from, &f);
	uint32_t id;
	game_err_t e = lobby_seek(c->srv, c->sess, &g, f.n < f.cap, c->srv->cfg.bot_fallback_s,
	    fallback ? botplay_fallback : NULL, &id);
	if (e == GERR_PENDING)
		return wait_start(c, m, id);
	if (e)
		return refused(e, NULL, why);
	rc = ok_ident(c, m, id);
	/* no partner here: another node's seek, if one fits */
	if (c->sess->seek)
		world_seek_unpaired(&c->srv->world, c->sess);
	return rc;
}

/* TAKE <seek-id> <user>: a listed seek of this node, taken as it is. */
static int
cmd_take(struct conn *c, const proto_msg_t *m, struct room *rm, const char **why)
{
	(void)rm;
	if (admin_draining(c->srv->admin)) {
		*why = "the server is draining for a restart: no new games";
		return ERR_DRAINING;
	}
	if (c->sess->seek && c->sess->seek->id == (uint32_t)m->ident) {
		*why = "that seek is your own";
		return ERR_ARGUMENT;
	}
	if (c->sess->botacct && !c->srv->cfg.bot_seeks) {
		*why = "the lobby's seeks are for people here: bots play by challenge";
		return ERR_UNAVAILABLE;
	}
	if (session_busy(c->sess)) {
		*why = "you are seeking or playing";
		return ERR_BUSY;
	}
	game_err_t e = lobby_take(c->srv, c->sess, (uint32_t)m->ident, m->user, why);
	if (e == GERR_PENDING)
		return wait_start(c, m, m->ident);
	if (e == GERR_NO_SEEK) { /* another node's seek: taken there */
		const char *far = NULL;
		game_err_t f = world_take_seek(&c->srv->world, c, m, &far);
		if (f == GERR_PENDING)
			return 0; /* the world answers it */
		if (f != GERR_NO_SEEK) {
			*why = far;
			e = f;
		}
	}
	return e ? refused(e, NULL, why) : ok_ident(c, m, m->ident);
}

static int
cmd_cancel(struct conn *c, const proto_msg_t *m, struct room *rm, const char **why)
{
	(void)rm;
	game_err_t e = lobby_cancel(c->srv, c->sess, (uint32_t)m->ident);
	if (e)
		return refused(e, NULL, why);
	proto_msg_t r;
	reply_init(&r, m);
	conn_send(c, &r);
	return 0;
}

static int
cmd_create(struct conn *c, const proto_msg_t *m, struct room *rm, const char **why)
{
	(void)rm;
	struct gamespec g;
	int rc = game_request(c, m, &g, why);
	if (rc)
		return rc;
	if (session_make_room(c->sess)) {
		*why = "in too many rooms";
		return ERR_BUSY;
	}
	struct room *r = room_new(c->srv, &g, 1);
	if (!r)
		return ERR_INTERNAL;
	if (room_open(r, c->sess) != GERR_OK) {
		room_check(r);
		return ERR_INTERNAL;
	}
	proto_msg_t ok;
	reply_init(&ok, m);
	snprintf(ok.room, sizeof ok.room, "%s", room_id(r));
	snprintf(ok.code, sizeof ok.code, "%s", room_code(r));
	conn_send(c, &ok);
	return 0;
}

static int
cmd_join(struct conn *c, const proto_msg_t *m, struct room *rm, const char **why)
{
	struct session *s = c->sess;
	if (!(rm = room_by_code(c->srv, m->code))) { /* another node's, perhaps */
		*why = NULL;
		game_err_t e = world_join_code(&c->srv->world, c, m, why);
		return e == GERR_PENDING ? 0 : refused(e, NULL, why);
	}
	if (room_busy(rm)) { /* a JOIN's start in flight: seated or watching after it */
		park(c, m, rm, 0);
		return CMD_PARKED;
	}
	if (session_in_room(s, rm)) {
		*why = "already in that room";
		return ERR_BUSY;
	}
	game_err_t e;
	if (room_joinable(rm)) {
		if (admin_draining(c->srv->admin)) {
			*why = "the server is draining for a restart: no new games";
			return ERR_DRAINING;
		}
		if (room_spec(rm)->rated && s->kind == SESSION_GUEST) {
			*why = GAME_WHY_ACCOUNT_ONLY;
			return ERR_ACCOUNT_ONLY;
		}
		if (session_busy(s))
			return ERR_BUSY;
		if (session_make_room(s)) {
			*why = "in too many rooms";
			return ERR_BUSY;
		}
		e = room_join(rm, s, NULL, NULL);
	} else {
		e = room_watch(rm, s);
	}
	if (e == GERR_PENDING)
		return wait_start(c, m, 0);
	return e ? refused(e, NULL, why) : ok_room(c, m, rm);
}

static int cmd_watch(struct conn *c, const proto_msg_t *m, struct room *rm, const char **why);

static int
cmd_leave(struct conn *c, const proto_msg_t *m, struct room *rm, const char **why)
{
	(void)why;
	room_leave(rm, c->sess);
	return ok_room(c, m, rm);
}

static void
emit(void *arg, const proto_msg_t *m)
{
	conn_send(arg, m);
}

static int
cmd_rooms(struct conn *c, const proto_msg_t *m, struct room *rm, const char **why)
{
	(void)why;
	proto_msg_t r;
	int n = 0;
	for (rm = rooms_first(c->srv->rooms); rm && n < LIST_MAX; rm = rooms_next(rm)) {
		if (room_private(rm))
			continue;
		room_info(rm, &r);
		conn_send(c, &r);
		n++;
	}
	n += world_each_line(&c->srv->world, PD_ROOM, LIST_MAX - n, emit, c);
	reply_init(&r, m);
	r.count = n;
	conn_send(c, &r);
	return 0;
}

/* The = USER line(s) of s for WHO (WHO <room> when in is given): a bot
 * account seated at several games has one for each (PROTOCOL.md 5.22),
 * and a server that marks bots (botaccounts: with a store) says = BOT
 * before a bot's. Returns the = USER lines sent. */
static int
user_line(struct conn *c, const struct session *s, const struct room *in)
{
	proto_msg_t r;
	if (c->srv->store && session_is_bot(s)) {
		proto_init(&r, PD_BOT, NULL);
		snprintf(r.user, sizeof r.user, "%s", s->name);
		conn_send(c, &r);
	}
	struct room *games[SESSION_BOT_GAMES_MAX];
	int n = in ? 0 : session_games(s, games, SESSION_BOT_GAMES_MAX);
	if (n > 1) {
		int sent = 0;
		for (int i = 0; i < n && i < SESSION_BOT_GAMES_MAX; i++) {
			if (!room_unfinished(games[i]))
				continue; /* its start is being stored: not yet a game */
			proto_init(&r, PD_USER, NULL);
			snprintf(r.user, sizeof r.user, "%s", s->name);
			r.ustate = USER_PLAYING;
			snprintf(r.room, sizeof r.room, "%s",
			    room_private(games[i]) ? "" : room_id(games[i]));
			conn_send(c, &r);
			sent++;
		}
		if (sent > 0)
			return sent;
	}
	session_info(s, in, &r);
	const char *far;
	if (!in && r.ustate == USER_IDLE && s->conn && /* watching another node's room? */
	    (far = world_watching(&c->srv->world, s->conn)) != NULL) {
		r.ustate = USER_WATCHING;
		snprintf(r.room, sizeof r.room, "%s", far);
	}
	conn_send(c, &r);
	return 1;
}

struct who {
	struct conn *c;
	const struct room *in;
	int n;
};

static void
who_watcher(void *arg, struct session *s)
{
	struct who *w = arg;
	if (w->n < LIST_MAX)
		w->n += user_line(w->c, s, w->in);
}

static int
cmd_who(struct conn *c, const proto_msg_t *m, struct room *rm, const char **why)
{
	(void)why;
	struct who w = { c, rm, 0 };
	if (rm) {
		for (int i = 0; i < 2; i++)
			if (room_seated(rm, i))
				w.n += user_line(c, room_seated(rm, i), rm);
		room_each_watcher(rm, who_watcher, &w);
		/* and its watchers on the cluster's other nodes */
		int far = world_room_users(&c->srv->world, c, room_id(rm), LIST_MAX - w.n, emit, c);
		w.n += far > 0 ? far : 0;
	} else {
		struct session *s;
		/* everyone at a table or in the lobby: bots too, not the players away */
		for (s = sessions_first(c->srv); s; s = sessions_next(s))
			if (session_present(s) && w.n < LIST_MAX)
				w.n += user_line(c, s, NULL);
		/* and everyone on the cluster's other nodes */
		w.n += world_each_line(&c->srv->world, PD_USER, LIST_MAX - w.n, emit, c);
	}
	proto_msg_t r;
	reply_init(&r, m);
	r.count = w.n;
	conn_send(c, &r);
	return 0;
}

/* SEEKS [page] (PROTOCOL.md section 5.1): the seeks the asker could pair
 * with first, then the others, then its own, oldest first within each (this
 * node's, then the other nodes'), SEEKS_PAGE a page; the total counts all. One the
 * asker could pair with is not its own and, when the asker has a seek open,
 * fits it (gamespec_compatible); without one, every other seek does. A
 * bare SEEKS (a client from before the seekpages capability) gets page 1
 * and OK SEEKS <n> without the total, which it would not parse. */
enum { SEEKS_PAGE = 50, SEEKS_FAR_MAX = 1000000 };

struct seeks_out {
	struct conn *c;
	const struct seek *own; /* the asker's open seek, or NULL */
	int counting;           /* the first walk: only n[] */
	int64_t n[3];           /* the seeks of each pass (seek_pass) */
	int pass;               /* the second walk's pass */
	int64_t lo, hi;         /* its lines to send, by index within the pass */
	int64_t seen;           /* its seeks so far */
	int sent;               /* lines sent */
};

/* The pass m is listed in: 0, one the asker could pair with; 1, another's;
 * 2, the asker's own. */
static int
seek_pass(const struct seeks_out *o, const proto_msg_t *m)
{
	if (o->c->sess && strcmp(m->user, o->c->sess->name) == 0)
		return 2;
	if (!o->own)
		return 0;
	struct gamespec g;
	wire_gamespec(&g, m);
	return gamespec_compatible(&o->own->spec, &g) ? 0 : 1;
}

/* Counts (the first walk) or sends (the second) a seek of pass p: whether
 * it is sent, by its index within the pass. */
static int
seek_take(struct seeks_out *o, int p)
{
	if (o->counting) {
		o->n[p]++;
		return 0;
	}
	if (p != o->pass)
		return 0;
	int64_t i = o->seen++;
	return i >= o->lo && i < o->hi;
}

/* Another node's seek. */
static void
seek_visit(void *arg, const proto_msg_t *m)
{
	struct seeks_out *o = arg;
	if (seek_take(o, seek_pass(o, m))) {
		conn_send(o->c, m);
		o->sent++;
	}
}

/* A seek here: its pass from the seek itself, its line only when sent. */
static int
seek_line(void *arg, const struct seek *k)
{
	struct seeks_out *o = arg;
	if (lobby_away(k)) /* it waits for its player: nobody may take it */
		return 0;
	int p = 2; /* the asker's own (a seek's session; c->sess may be NULL) */
	if (k->sess != o->c->sess)
		p = !o->own || gamespec_compatible(&o->own->spec, &k->spec) ? 0 : 1;
	if (seek_take(o, p)) {
		proto_msg_t r;
		proto_init(&r, PD_SEEK, NULL);
		r.ident = k->id;
		snprintf(r.user, sizeof r.user, "%s", k->sess->name);
		wire_gamespec_out(&r, &k->spec);
		r.fallback = k->on_wait ? FALLBACK_BOT : FALLBACK_HUMAN;
		conn_send(o->c, &r);
		o->sent++;
	}
	return !o->counting && o->seen >= o->hi; /* this node's part of the page is sent */
}

/* Two walks: the first counts each pass, so the page's place in the order
 * is known; the second goes only through the passes the page reaches. */
static int
cmd_seeks(struct conn *c, const proto_msg_t *m, struct room *rm, const char **why)
{
	(void)rm;
	(void)why;
	proto_msg_t r;
	struct seeks_out o = { .c = c, .own = c->sess ? c->sess->seek : NULL, .counting = 1 };
	lobby_each(c->srv, seek_line, &o);
	world_each_line(&c->srv->world, PD_SEEK, SEEKS_FAR_MAX, seek_visit, &o);
	o.counting = 0;
	int64_t from = ((m->page ? m->page : 1) - 1) * SEEKS_PAGE, start = 0;
	for (o.pass = 0; o.pass < 3; start += o.n[o.pass++]) {
		o.lo = from - start;
		o.hi = o.lo + SEEKS_PAGE;
		if (o.hi <= 0 || o.lo >= o.n[o.pass])
			continue; /* the page is not in this pass */
		o.seen = 0;
		lobby_each(c->srv, seek_line, &o);
		if (o.seen < o.hi)
			world_each_line(&c->srv->world, PD_SEEK, SEEKS_FAR_MAX, seek_visit, &o);
	}
	reply_init(&r, m);
	r.count = o.sent;
	r.count2 = m->page ? o.n[0] + o.n[1] + o.n[2] : 0; /* a bare SEEKS: OK SEEKS <n> */
	conn_send(c, &r);
	return 0;
}

static int
cmd_challenge(struct conn *c, const proto_msg_t *m, struct room *rm, const char **why)
{
	(void)rm;
	struct gamespec g;
	wire_gamespec(&g, m);
	if (gamespec_check(&g, why) != 0)
		return ERR_ARGUMENT;
	if (g.rated && c->sess->kind == SESSION_GUEST) {
		*why = GAME_WHY_ACCOUNT_ONLY;
		return ERR_ACCOUNT_ONLY;
	}
	struct session *to = session_by_name(c->srv, m->user);
	uint32_t id = 0;
	if (g.rated && to && to->conn && to->kind == SESSION_GUEST) {
		*why = "rated games need an account, and they play as a guest: challenge them "
		       "to a casual game";
		return ERR_ACCOUNT_ONLY;
	}
	if (!to || !to->conn) {
		/* a user of another node, if one has them */
		game_err_t e = world_challenge(&c->srv->world, c->sess, m->user, &g, &id, why);
		return e ? refused(e, NULL, why) : ok_ident(c, m, id);
	}
	game_err_t e = world_challenge_open(&c->srv->world, c->sess)
	    ? GERR_OFFER_PENDING
	    : challenge_new(c->srv, c->sess, to, &g, &id);
	if (e == GERR_BUSY)
		*why = session_busy(c->sess) ? "you are seeking or playing"
					     : "they are seeking or playing";
	else if (e == GERR_ARGUMENT)
		*why = "you cannot challenge yourself";
	else if (e == GERR_OFFER_PENDING)
		*why = "you have a challenge open already";
	return e ? refused(e, NULL, why) : ok_ident(c, m, id);
}

static int
cmd_answer_challenge(struct conn *c, const proto_msg_t *m, struct room *rm, const char **why)
{
	(void)rm;
	game_err_t e = challenge_answer(
	    c->srv, c->sess, (uint32_t)m->ident, m->answer == ANSWER_ACCEPT);
	if (e == GERR_NO_OFFER) /* one across nodes? */
		e = world_answer(
		    &c->srv->world, c->sess, (uint32_t)m->ident, m->answer == ANSWER_ACCEPT);
	if (e == GERR_PENDING)
		return wait_start(c, m, m->ident);
	if (e == GERR_NOT_PLAYER)
		*why = "only the one challenged can accept";
	else if (e == GERR_BUSY)
		*why = "one of you is seeking or playing";
	else if (e == GERR_NO_OFFER)
		*why = "no such challenge for you";
	else if (e == GERR_ACCOUNT_ONLY)
		*why = GAME_WHY_ACCOUNT_ONLY;
	return e ? refused(e, NULL, why) : ok_ident(c, m, m->ident);
}

static int
cmd_move(struct conn *c, const proto_msg_t *m, struct room *rm, const char **why)
{
	struct room_act act;
	game_err_t e = room_move(rm, c->sess, m->move, NULL, &act);
	if (e == GERR_PENDING)
		return CMD_PENDING;
	return e ? refused(e, &act, why) : ok_seq(c, m, rm, act.seq);
}

static int
cmd_swap2(struct conn *c, const proto_msg_t *m, struct room *rm, const char **why)
{
	struct room_act act;
	game_err_t e;
	if (m->choice == CHOICE_PUT) {
		const char *moves[PROTO_LIST_MAX];
		for (int i = 0; i < m->nmoves; i++)
			moves[i] = m->moves[i];
		e = room_swap2_put(rm, c->sess, moves, m->nmoves, &act);
	} else {
		e = room_swap2_choose(
		    rm, c->sess, m->choice == CHOICE_BLACK ? STONE_BLACK : STONE_WHITE, &act);
	}
	if (e == GERR_PENDING)
		return CMD_PENDING;
	return e ? refused(e, &act, why) : ok_seq(c, m, rm, act.seq);
}

/* OPENING requests (section 5.16): one act of the room's opening rule. */
static int
cmd_opening(struct conn *c, const proto_msg_t *m, struct room *rm, const char **why)
{
	struct room_act act;
	opening_act_t a;
	if (wire_opening_act(m, room_spec(rm)->size, &a) != 0)
		return ERR_OFF_BOARD;
	game_err_t e = room_opening_act(rm, c->sess, &a, &act);
	if (e == GERR_PENDING)
		return CMD_PENDING;
	return e ? refused(e, &act, why) : ok_seq(c, m, rm, act.seq);
}

/* RESIGN, ABORT, CLAIM: a room action with an OK <VERB> <room> reply. */
static int
cmd_room_action(struct conn *c, const proto_msg_t *m, struct room *rm, const char **why)
{
	struct room_act act;
	game_err_t e = m->id == PR_RESIGN ? room_resign(rm, c->sess, &act)
	    : m->id == PR_ABORT           ? room_abort(rm, c->sess, &act)
					  : room_claim(rm, c->sess, &act);
	if (e == GERR_PENDING)
		return CMD_PENDING;
	return e ? refused(e, &act, why) : ok_room(c, m, rm);
}

static int
cmd_offer(struct conn *c, const proto_msg_t *m, struct room *rm, const char **why)
{
	struct room_act act;
	if (m->offer == OFFER_REMATCH && admin_draining(c->srv->admin)) {
		*why = "the server is draining for a restart: no new games";
		return ERR_DRAINING;
	}
	game_err_t e = room_offer(rm, c->sess, wire_offer_in(m->offer), &act);
	if (e)
		return refused(e, &act, why);
	proto_msg_t r;
	reply_init(&r, m);
	snprintf(r.room, sizeof r.room, "%s", room_id(rm));
	r.ident = act.offer;
	conn_send(c, &r);
	return 0;
}

static int
cmd_answer(struct conn *c, const proto_msg_t *m, struct room *rm, const char **why)
{
	struct room_act act;
	game_err_t e = room_answer(rm, c->sess, (uint32_t)m->ident, m->id == PR_ACCEPT, &act);
	if (e == GERR_PENDING)
		return CMD_PENDING;
	if (e)
		return refused(e, &act, why);
	proto_msg_t r;
	reply_init(&r, m);
	snprintf(r.room, sizeof r.room, "%s", room_id(rm));
	r.ident = m->ident;
	conn_send(c, &r);
	return 0;
}

static int
cmd_say(struct conn *c, const proto_msg_t *m, struct room *rm, const char **why)
{
	struct room_act act;
	game_err_t e = admin_chat(c->srv->admin, c->sess->name);
	if (e) {
		*why = admin_why(c->srv->admin);
		return wire_err(e, LEGAL_OK);
	}
	if (!conn_chat_ok(c)) {
		*why = "too many chat lines";
		return ERR_RATE;
	}
	e = room_say(rm, c->sess, m->text, &act);
	return e ? refused(e, &act, why) : ok_room(c, m, rm);
}

static int
cmd_tell(struct conn *c, const proto_msg_t *m, struct room *rm, const char **why)
{
	(void)rm;
	struct session *to = session_by_name(c->srv, m->user);
	int remote = !(to && to->conn);
	struct world_place far;
	if (remote) { /* on another node, or (its nodes away now) perhaps */
		world_user_where(&c->srv->world, m->user, &far);
		if (far.at != WORLD_THERE && !far.away)
			return ERR_NO_USER;
	}
	game_err_t muted = admin_chat(c->srv->admin, c->sess->name);
	if (muted) {
		*why = admin_why(c->srv->admin);
		return wire_err(muted, LEGAL_OK);
	}
	if (!conn_chat_ok(c)) {
		*why = "too many chat lines";
		return ERR_RATE;
	}
	proto_msg_t r;
	reply_init(&r, m);
	if (remote) {
		/* a user on another node */
		const char *name = far.at == WORLD_THERE ? far.name : m->user;
		game_err_t e = world_tell(&c->srv->world, c->sess->name, name, m->text, why);
		if (e)
			return refused(e, NULL, why);
		snprintf(r.user, sizeof r.user, "%s", name);
	} else {
		proto_msg_t e;
		proto_init(&e, PE_TELL, NULL);
		snprintf(e.user, sizeof e.user, "%s", c->sess->name);
		memcpy(e.text, m->text, sizeof e.text);
		conn_send(to->conn, &e);
		snprintf(r.user, sizeof r.user, "%s", to->name);
	}
	conn_send(c, &r);
	return 0;
}

/* The room's snapshot to c, ended by the OK of the request. */
static int
snapshot(struct conn *c, const proto_msg_t *m, struct room *rm)
{
	room_snapshot(rm, emit, c);
	return ok_seq(c, m, rm, room_seq(rm));
}

static int
cmd_watch(struct conn *c, const proto_msg_t *m, struct room *rm, const char **why)
{
	if (room_seat_of(rm, c->sess) < 0) {
		game_err_t e = room_watch(rm, c->sess);
		if (e)
			return refused(e, NULL, why);
	}
	return snapshot(c, m, rm);
}

static int
cmd_state(struct conn *c, const proto_msg_t *m, struct room *rm, const char **why)
{
	(void)why;
	return snapshot(c, m, rm);
}

/* The points black may not play in p, each judged by the rules core as
 * MOVE would judge it, as = FORBIDDEN lines of up to 100 points for room
 * ("" for a position of no room: "-"); judge 0 names none. Their count. */
static int
send_forbidden(struct conn *c, const char *room, const position_t *p, int judge)
{
	proto_msg_t d;
	int n = 0;
	proto_init(&d, PD_FORBIDDEN, NULL);
	snprintf(d.room, sizeof d.room, "%s", room);
	if (judge && p->rule == RULE_RENJU && pos_to_move(p) == STONE_BLACK &&
	    p->outcome.kind == RESULT_ONGOING)
		for (int y = 0; y < p->size; y++)
			for (int x = 0; x < p->size; x++) {
				move_t mv = rules_move(x, y);
				if (p->cell[mv] != STONE_EMPTY ||
				    renju_forbidden(p, mv) == LEGAL_OK)
					continue;
				notation_format(mv, p->size, d.moves[d.nmoves++]);
				n++;
				if (d.nmoves == PROTO_LIST_MAX) {
					conn_send(c, &d);
					d.nmoves = 0;
				}
			}
	if (d.nmoves)
		conn_send(c, &d);
	return n;
}

/* FORBIDDEN: the points black may not play now, each judged by the rules
 * core; none unless it is renju with black to move in a game in progress.
 * The client marks what the server names and never judges a point itself. */
static int
cmd_forbidden(struct conn *c, const proto_msg_t *m, struct room *rm, const char **why)
{
	proto_msg_t r;
	(void)why;
	int n = send_forbidden(c, room_id(rm), room_position(rm), room_status(rm) == GAME_PLAYING);
	reply_init(&r, m);
	snprintf(r.room, sizeof r.room, "%s", room_id(rm));
	r.count = n;
	conn_send(c, &r);
	return 0;
}

/* POSITION <rule> <size> <moves>: a position of no game (an analysis
 * board's), judged by the rules core alone: each move in turn as MOVE would
 * judge it (the first refused one is the error, its number and point in
 * the text), then the points black may not play, the side to move, the
 * result and the five. Nothing is kept; the opening's areas are not
 * judged, as a position may come from any opening or none. */
/* m's position (POSITION, ANALYSE) into p, each move judged in turn: 0,
 * or the error code, said with the first refused move's number and point
 * (-1: said already), or ERR_ARGUMENT with *why. */
static int
replay(struct conn *c, const proto_msg_t *m, position_t *p, const char **why)
{
	if (pos_init(p, m->rule, m->size) != 0) {
		*why = "no such board for that rule";
		return ERR_ARGUMENT;
	}
	for (int i = 0; i < m->nmoves; i++) {
		move_t mv;
		legality_t l = notation_parse(m->moves[i], p->size, &mv) != 0 ? LEGAL_OFF_BOARD
									      : pos_play(p, mv);
		if (l != LEGAL_OK) {
			conn_error(c, m->tag, proto_err_of_legality(l), "move %d (%s): %s", i + 1,
			    m->moves[i], legality_name(l));
			return -1;
		}
	}
	return 0;
}

static int
cmd_position(struct conn *c, const proto_msg_t *m, struct room *rm, const char **why)
{
	position_t p;
	proto_msg_t r;
	(void)rm;
	int rc = replay(c, m, &p, why);
	if (rc)
		return rc < 0 ? 0 : rc;
	int n = send_forbidden(c, "", &p, 1);
	reply_init(&r, m);
	const outcome_t *o = &p.outcome;
	r.side = o->kind != RESULT_ONGOING   ? SIDE_NONE
	    : pos_to_move(&p) == STONE_BLACK ? SIDE_BLACK
					     : SIDE_WHITE;
	r.result = o->kind == RESULT_DRAW ? RES_DRAW
	    : o->kind != RESULT_WIN       ? RES_NONE
	    : o->winner == STONE_BLACK    ? RES_BLACK
					  : RES_WHITE;
	r.count = n;
	for (int i = 0; o->kind == RESULT_WIN && i < o->ncells && i < PROTO_LIST_MAX; i++)
		notation_format(o->cells[i], p.size, r.moves[r.nmoves++]);
	conn_send(c, &r);
	return 0;
}

/* ANALYSE <rule> <size> <moves> [n]: the engine's n best moves in a
 * position of no game, judged first as POSITION judges it; analysis.c
 * keeps the fair play and the allowances, and answers when the search is
 * done (the connection held until then). */
static int
cmd_analyse(struct conn *c, const proto_msg_t *m, struct room *rm, const char **why)
{
	position_t p;
	(void)rm;
	if (!c->srv->analysis) {
		*why = "this server has no analysis";
		return ERR_UNAVAILABLE;
	}
	int rc = replay(c, m, &p, why);
	if (rc)
		return rc < 0 ? 0 : rc;
	if (p.outcome.kind != RESULT_ONGOING) {
		*why = "the game is over in that position";
		return ERR_GAME_OVER;
	}
	return analysis_ask(c->srv->analysis, c, m, &p, why);
}

/* REVIEW <game-id> and MARKS <game-id>: a finished game's engine review,
 * made on the bot workers and kept with the game (reviews.c). */
static int
cmd_review(struct conn *c, const proto_msg_t *m, struct room *rm, const char **why)
{
	(void)rm;
	if (!c->srv->reviews) {
		*why = "this server makes no reviews";
		return ERR_UNAVAILABLE;
	}
	return reviews_ask(c->srv->reviews, c, m, why);
}

/* PUZZLE next|daily|<id> and SOLVE <id> <move>: puzzles from reviewed
 * games, judged by the solvers (puzzles.c). */
static int
cmd_puzzle(struct conn *c, const proto_msg_t *m, struct room *rm, const char **why)
{
	(void)rm;
	if (!c->srv->puzzles) {
		*why = "this server has no puzzles";
		return ERR_UNAVAILABLE;
	}
	return m->id == PR_PUZZLE ? puzzles_open(c->srv->puzzles, c, m, why)
				  : puzzles_solve(c->srv->puzzles, c, m, why);
}

/* TLIST, TCREATE, TWATCH, TUNWATCH, TJOIN, TLEAVE, TBOT, TCANCEL: the
 * tournaments (tourneys.c). */
static int
cmd_tourney(struct conn *c, const proto_msg_t *m, struct room *rm, const char **why)
{
	(void)rm;
	if (!c->srv->tourneys) {
		*why = "this server runs no tournaments";
		return ERR_UNAVAILABLE;
	}
	return tourneys_request(c->srv->tourneys, c, m, why);
}

/* LEAGUES, LEAGUE: the engine leagues (league.c). */
static int
cmd_league(struct conn *c, const proto_msg_t *m, struct room *rm, const char **why)
{
	(void)rm;
	if (!c->srv->leagues) {
		*why = "this server runs no leagues";
		return ERR_UNAVAILABLE;
	}
	return leagues_request(c->srv->leagues, c, m, why);
}

/* RESUME <token> -: the session alone (it holds no seat in the room the
 * client knows of, or the client knows of none): * SEATED for each room
 * it is seated in (an unfinished game, its waiting private room), its
 * challenges told again, then its open seek as a = SEEK line. */
/* The guest session the store keeps for token (from before a restart), if
 * its name is free and no account's: made again with that token, or NULL;
 * CMD_LOOKUP into *rc when the store thread must look first. */
static struct session *
stored_guest(struct conn *c, const proto_msg_t *m, int *rc)
{
	const struct archive_lookup *ahead = c->srv->cmd->ahead;
	char name[PROTO_NAME_MAX + 1];
	int found, account = -1;
	*rc = 0;
	if (!c->srv->store)
		return NULL;
	if (ahead && strcmp(ahead->token, m->token) == 0) { /* the store thread's answer */
		found = ahead->found;
		snprintf(name, sizeof name, "%s", ahead->name);
		account = ahead->account;
	} else if (archive_async(c->srv) && strlen(m->token) == SESSION_TOKEN_LEN) {
		*rc = CMD_LOOKUP;
		return NULL;
	} else {
		found = session_stored_name(c->srv, m->token, name) == 0;
	}
	if (!found || session_by_name(c->srv, name))
		return NULL;
	if (account < 0)
		account = archive_is_account(c->srv, name);
	/* an account signs in with its password or login token, not this */
	return account ? NULL : session_adopt(c->srv, name, m->token, SESSION_GUEST);
}

static int
resume_session(struct conn *c, const proto_msg_t *m, const char **why)
{
	struct session *s = session_by_token(c->srv, m->token);
	int made = 0;
	if (!s) { /* a guest from before a restart takes its name back */
		int rc;
		s = stored_guest(c, m, &rc);
		if (rc)
			return rc;
		made = s != NULL;
	}
	if (!s || s->bot_level) {
		*why = "no session for that token";
		return ERR_RESUME;
	}
	int err = admitted(c, s->name, why);
	if (err) {
		if (made)
			session_free(s);
		return err;
	}
	conn_bind(c, s);
	log_info(
	    &c->srv->log, "conn %llu %s: %s resumed", (unsigned long long)c->id, c->peer, s->name);
	session_tell_seats(s);
	session_back(s);
	proto_msg_t r;
	if (s->seek) {
		proto_init(&r, PD_SEEK, NULL);
		r.ident = s->seek->id;
		snprintf(r.user, sizeof r.user, "%s", s->name);
		wire_gamespec_out(&r, &s->seek->spec);
		r.fallback = s->seek->on_wait ? FALLBACK_BOT : FALLBACK_HUMAN;
		conn_send(c, &r);
	}
	reply_init(&r, m);
	r.seq = 0;
	conn_send(c, &r);
	return 0;
}

static int
cmd_resume(struct conn *c, const proto_msg_t *m, struct room *rm, const char **why)
{
	if (!m->room[0])
		return resume_session(c, m, why);
	struct session *s = session_by_token(c->srv, m->token);
	char name[PROTO_NAME_MAX + 1];
	int seat, stored = 0, account = -1;
	struct world_place far;
	if (elsewhere(c, m->room, &far)) {
		/* the seat is on the room's own node: go there */
		if (far.away) {
			*why = "that room is on another node, and the cluster is unreachable now";
			return ERR_UNAVAILABLE;
		}
		*why = moved(c, m->room, &far) == 0 ? "that room is on another node: see * MOVED"
						    : "that room's node is not in the cluster now";
		return ERR_RESUME;
	}
	rm = room_find(c->srv, m->room);
	const struct archive_lookup *ahead = c->srv->cmd->ahead;
	int found = 0; /* the store holds the token, for name */
	if (!s && rm && ahead && strcmp(ahead->token, m->token) == 0) {
		/* the replay after the store thread's lookup */
		found = ahead->found;
		snprintf(name, sizeof name, "%s", ahead->name);
		account = ahead->account;
	} else if (!s && rm && archive_async(c->srv) && strlen(m->token) == SESSION_TOKEN_LEN) {
		/* PostgreSQL: the lookup on the store thread, the request after it */
		return CMD_LOOKUP;
	} else if (!s && rm) {
		found = session_stored_name(c->srv, m->token, name) == 0;
	}
	struct session *held = found ? session_by_name(c->srv, name) : NULL;
	stored = found && !held;
	/* a banned name or address takes no seat back, before anything moves */
	int err = admitted(c, s ? s->name : found ? name : NULL, why);
	if (err)
		return err;
	/* after a restart: the token the store remembers, and the seat by its name */
	if (account < 0 && found)
		account = archive_is_account(c->srv, name);
	if (stored && (seat = room_awaiting(rm, name)) >= 0 &&
	    (s = session_adopt(
		 c->srv, name, m->token, account ? SESSION_ACCOUNT : SESSION_GUEST)) != NULL) {
		s->botacct = account == 2;
		room_resume(rm, seat, s);
	}
	/* another game kept through a restart that waits for the account's
	 * name (a bot account's: section 5.22), as LOGIN would take it */
	if (s && rm && s->kind == SESSION_ACCOUNT && !session_awaited(s) &&
	    room_seat_of(rm, s) < 0 && (seat = room_awaiting(rm, s->name)) >= 0)
		room_resume(rm, seat, s);
	/* another token of the account whose session holds the seat: made by a
	 * LOGIN on another node, which sent it here (world_signed_in); the
	 * session is taken over, as by a LOGIN here */
	if (!s && held && account > 0 && held->kind == SESSION_ACCOUNT &&
	    room_seat_of(rm, held) >= 0)
		s = held;
	if (!s || !rm || room_seat_of(rm, s) < 0) {
		*why = "no seat for that token in that room";
		return ERR_RESUME;
	}
	conn_bind(c, s);
	log_info(&c->srv->log, "conn %llu %s: %s resumed in %s", (unsigned long long)c->id, c->peer,
	    s->name, room_id(rm));
	session_back(s);
	return snapshot(c, m, rm);
}

/* BOT's level, or the hosted engine it names (PROTOCOL.md 5.10): the
 * pick botplay takes, or -1 with why. */
static int
bot_pick(struct conn *c, const proto_msg_t *m, int opening, const char **why)
{
	if (!m->engine[0])
		return (int)m->level;
	int pick = botplay_engine(c->srv->botplay, m->engine);
	if (pick < 0) {
		*why = "no engine of that name here (the greeting's engines= lists them)";
		return -1;
	}
	if (opening != 0) {
		*why = "a hosted engine plays no opening rule: none only";
		return -1;
	}
	return pick;
}

static int
cmd_bot_play(struct conn *c, const proto_msg_t *m, struct room *rm, const char **why)
{
	struct gamespec g;
	int rc = game_request(c, m, &g, why);
	if (rc)
		return rc;
	if (!c->srv->botplay) {
		*why = "this server has no bots";
		return ERR_UNAVAILABLE;
	}
	int pick = bot_pick(c, m, g.opening, why);
	if (pick < 0)
		return ERR_ARGUMENT;
	if (session_make_room(c->sess)) {
		*why = "in too many rooms";
		return ERR_BUSY;
	}
	game_err_t e = botplay_game(c->srv->botplay, c->sess, &g, pick, &rm, why);
	if (e == GERR_PENDING)
		return wait_start(c, m, 0);
	return e ? refused(e, NULL, why) : ok_room(c, m, rm);
}

static int
cmd_bot_seat(struct conn *c, const proto_msg_t *m, struct room *rm, const char **why)
{
	if (!c->srv->botplay) {
		*why = "this server has no bots";
		return ERR_UNAVAILABLE;
	}
	int pick = bot_pick(c, m, room_spec(rm)->opening, why);
	if (pick < 0)
		return ERR_ARGUMENT;
	game_err_t e = botplay_seat(c->srv->botplay, rm, c->sess, pick, why);
	if (e == GERR_PENDING)
		return CMD_PENDING;
	return e ? refused(e, NULL, why) : ok_room(c, m, rm);
}

struct listing {
	struct conn *c;
	int n;
};

static void
ban_line(void *arg, const store_sanction_t *x)
{
	struct listing *l = arg;
	proto_msg_t d;
	proto_init(&d, PD_BAN, NULL);
	d.sanction = x->kind == STORE_MUTE ? SANCTION_MUTE : SANCTION_BAN;
	snprintf(d.word, sizeof d.word, "%s", x->target);
	d.when = x->expires;
	snprintf(d.user2, sizeof d.user2, "%s", x->by);
	snprintf(d.text, sizeof d.text, "%s", x->reason);
	conn_send(l->c, &d);
	l->n++;
}

/* A moderation verb's write waiting for the store: the request, to answer. */
struct modreq {
	proto_msg_t m;
	struct admin_write *w;
};

/* OK <VERB> <user> <word> (count): a moderation verb's answer. */
static void
admin_ok(struct conn *c, const proto_msg_t *m, int n)
{
	proto_msg_t r;
	reply_init(&r, m);
	memcpy(r.user, m->user, sizeof r.user);
	memcpy(r.word, m->word, sizeof r.word);
	r.count = n;
	conn_send(c, &r);
}

/* On the store thread (or the loop, SQLite): the write itself. */
static void
admin_run(struct store *st, void *arg)
{
	struct modreq *q = arg;
	admin_write_run(st, q->w);
}

/* The store has the write (or refused it): what it did is kept, also when
 * the admin went meanwhile, and the admin (if still here) answered. */
static int
admin_stored(struct conn *c, void *arg, const char **why)
{
	struct modreq *q = arg;
	/* the answer names the target as kept (::ffff:192.0.2.7 as 192.0.2.7,
	 * an IPv6 address as its /64), as BANS and gomokuctl do */
	if (q->m.id == PR_BAN || q->m.id == PR_UNBAN)
		snprintf(q->m.word, sizeof q->m.word, "%s", admin_write_target(q->w));
	game_err_t e = admin_write_end(q->w);
	int rc = 0;
	if (c && e) {
		*why = admin_why(c->srv->admin);
		rc = wire_err(e, LEGAL_OK);
	} else if (c) {
		admin_ok(c, &q->m, 0);
	}
	free(q);
	return rc;
}

/* KICK, BAN, UNBAN, BANS, MUTE, UNMUTE, ANNOUNCE, MOTD: for the config's
 * admins, through the verbs gomokuctl uses (admin.h); the ones that write
 * the store answer when it has (cmd_store). */
static int
cmd_admin(struct conn *c, const proto_msg_t *m, struct room *rm, const char **why)
{
	struct admin *a = c->srv->admin;
	const char *who = c->sess->name, *text = m->text[0] ? m->text : NULL;
	game_err_t e = GERR_OK;
	struct admin_write *w = NULL;
	int n = 0;
	(void)rm;
	if (!admin_is(a, c->sess)) {
		*why = "only the server's admins (config: admins) may do that";
		return ERR_NOT_ADMIN;
	}
	switch (m->id) {
	case PR_KICK:
		e = admin_kick(a, who, m->user, text);
		break;
	case PR_BAN:
		w = admin_ban_begin(a, who, m->word, m->word2, text, &e);
		break;
	case PR_UNBAN:
		w = admin_unban_begin(a, who, m->word, &e);
		break;
	case PR_MUTE:
		w = admin_mute_begin(a, who, m->user, m->word2, &e);
		break;
	case PR_UNMUTE:
		w = admin_unmute_begin(a, who, m->user, &e);
		break;
	case PR_BANS: {
		struct listing l = { c, 0 };
		admin_each(a, ban_line, &l);
		n = l.n;
		break;
	}
	case PR_ANNOUNCE:
		e = admin_announce(a, who, text, &n);
		break;
	default:
		w = admin_motd_begin(a, who, text, &e);
		break;
	}
	if (e) {
		*why = admin_why(a);
		return wire_err(e, LEGAL_OK);
	}
	if (w) {
		struct modreq *q = calloc(1, sizeof *q);
		if (!q) {
			admin_write_free(w);
			return ERR_INTERNAL;
		}
		q->m = *m;
		q->w = w;
		return cmd_store(c, m->tag, admin_run, admin_stored, q, why);
	}
	admin_ok(c, m, n);
	return 0;
}

static const struct {
	handler_fn fn;
	enum need need;
	enum target at;
} table[PM_COUNT] = {
	[PR_HELLO] = { cmd_hello, NEED_UNNAMED, AT_NONE },
	[PR_PING] = { cmd_ping, NEED_NONE, AT_NONE },
	[PR_QUIT] = { cmd_quit, NEED_NONE, AT_NONE },
	[PR_GUEST] = { cmd_guest, NEED_ANON, AT_NONE },
	[PR_REGISTER] = { cmd_account, NEED_SIGNIN, AT_NONE },
	[PR_LOGIN] = { cmd_account, NEED_SIGNIN, AT_NONE },
	[PR_AUTH] = { cmd_account, NEED_SIGNIN, AT_NONE },
	[PR_REMEMBER] = { cmd_account, NEED_NAME, AT_NONE },
	[PR_BOTUPGRADE] = { cmd_account, NEED_NAME, AT_NONE },
	[PR_RESUME] = { cmd_resume, NEED_ANON, AT_NONE },
	[PR_ROOMS] = { cmd_rooms, NEED_HELLO, AT_NONE },
	[PR_WHO] = { cmd_who, NEED_HELLO, AT_ROOM_IF },
	[PR_LOGOUT] = { cmd_logout, NEED_NAME, AT_NONE },
	[PR_SEEK] = { cmd_seek, NEED_NAME, AT_NONE },
	[PR_CANCEL] = { cmd_cancel, NEED_NAME, AT_NONE },
	[PR_CREATE] = { cmd_create, NEED_NAME, AT_NONE },
	[PR_JOIN] = { cmd_join, NEED_NAME, AT_NONE },
	[PR_WATCH] = { cmd_watch, NEED_NAME, AT_ROOM },
	[PR_LEAVE] = { cmd_leave, NEED_NAME, AT_MEMBER },
	[PR_MOVE] = { cmd_move, NEED_NAME, AT_SEAT },
	[PR_SWAP2] = { cmd_swap2, NEED_NAME, AT_SEAT },
	[PR_OPENING_PLACE] = { cmd_opening, NEED_NAME, AT_SEAT },
	[PR_OPENING_COLOUR] = { cmd_opening, NEED_NAME, AT_SEAT },
	[PR_OPENING_DECLARE] = { cmd_opening, NEED_NAME, AT_SEAT },
	[PR_OPENING_OFFER] = { cmd_opening, NEED_NAME, AT_SEAT },
	[PR_OPENING_CHOOSE] = { cmd_opening, NEED_NAME, AT_SEAT },
	[PR_OPENING_BRANCH] = { cmd_opening, NEED_NAME, AT_SEAT },
	[PR_RESIGN] = { cmd_room_action, NEED_NAME, AT_SEAT },
	[PR_ABORT] = { cmd_room_action, NEED_NAME, AT_SEAT },
	[PR_CLAIM] = { cmd_room_action, NEED_NAME, AT_SEAT },
	[PR_OFFER] = { cmd_offer, NEED_NAME, AT_SEAT },
	[PR_ACCEPT] = { cmd_answer, NEED_NAME, AT_SEAT },
	[PR_DECLINE] = { cmd_answer, NEED_NAME, AT_SEAT },
	[PR_SAY] = { cmd_say, NEED_NAME, AT_MEMBER },
	[PR_TELL] = { cmd_tell, NEED_NAME, AT_NONE },
	[PR_STATE] = { cmd_state, NEED_NAME, AT_MEMBER },
	[PR_FORBIDDEN] = { cmd_forbidden, NEED_NAME, AT_MEMBER },
	[PR_POSITION] = { cmd_position, NEED_NAME, AT_NONE },
	[PR_ANALYSE] = { cmd_analyse, NEED_NAME, AT_NONE },
	[PR_REVIEW] = { cmd_review, NEED_NAME, AT_NONE },
	[PR_MARKS] = { cmd_review, NEED_NAME, AT_NONE },
	[PR_PUZZLE] = { cmd_puzzle, NEED_NAME, AT_NONE },
	[PR_SOLVE] = { cmd_puzzle, NEED_NAME, AT_NONE },
	[PR_TLIST] = { cmd_tourney, NEED_NAME, AT_NONE },
	[PR_TCREATE] = { cmd_tourney, NEED_NAME, AT_NONE },
	[PR_TWATCH] = { cmd_tourney, NEED_NAME, AT_NONE },
	[PR_TUNWATCH] = { cmd_tourney, NEED_NAME, AT_NONE },
	[PR_TJOIN] = { cmd_tourney, NEED_NAME, AT_NONE },
	[PR_TLEAVE] = { cmd_tourney, NEED_NAME, AT_NONE },
	[PR_TBOT] = { cmd_tourney, NEED_NAME, AT_NONE },
	[PR_TCANCEL] = { cmd_tourney, NEED_NAME, AT_NONE },
	[PR_LEAGUES] = { cmd_league, NEED_HELLO, AT_NONE },
	[PR_LEAGUE] = { cmd_league, NEED_HELLO, AT_NONE },
	[PR_BOT_PLAY] = { cmd_bot_play, NEED_NAME, AT_NONE },
	[PR_BOT_SEAT] = { cmd_bot_seat, NEED_NAME, AT_SEAT },
	[PR_HISTORY] = { cmd_account, NEED_HELLO, AT_NONE },
	[PR_EXPORT] = { cmd_account, NEED_HELLO, AT_NONE },
	[PR_STATS] = { cmd_account, NEED_HELLO, AT_NONE },
	[PR_TOP] = { cmd_account, NEED_HELLO, AT_NONE },
	[PR_TOPBOTS] = { cmd_account, NEED_HELLO, AT_NONE },
	[PR_SET] = { cmd_account, NEED_NAME, AT_NONE },
	[PR_SETTINGS] = { cmd_account, NEED_NAME, AT_NONE },
	[PR_KICK] = { cmd_admin, NEED_NAME, AT_NONE },
	[PR_BAN] = { cmd_admin, NEED_NAME, AT_NONE },
	[PR_UNBAN] = { cmd_admin, NEED_NAME, AT_NONE },
	[PR_BANS] = { cmd_admin, NEED_NAME, AT_NONE },
	[PR_MUTE] = { cmd_admin, NEED_NAME, AT_NONE },
	[PR_UNMUTE] = { cmd_admin, NEED_NAME, AT_NONE },
	[PR_ANNOUNCE] = { cmd_admin, NEED_NAME, AT_NONE },
	[PR_MOTD] = { cmd_admin, NEED_NAME, AT_NONE },
	[PR_SEEKS] = { cmd_seeks, NEED_HELLO, AT_NONE },
	[PR_CHALLENGE] = { cmd_challenge, NEED_NAME, AT_NONE },
	[PR_ANSWER] = { cmd_answer_challenge, NEED_NAME, AT_NONE },
	[PR_TAKE] = { cmd_take, NEED_NAME, AT_NONE },
};

/* WHO of another node's room, from the nodes' presence (a second old at
 * most): its players and watchers on every node. 420 for a room no node
 * lists (private rooms are not listed) and c does not watch. */
static int
who_remote(struct conn *c, const proto_msg_t *m)
{
	int n = world_room_users(&c->srv->world, c, m->room, LIST_MAX, emit, c);
	if (n < 0)
		return ERR_NO_ROOM;
	proto_msg_t r;
	reply_init(&r, m);
	r.count = n;
	conn_send(c, &r);
	return 0;
}

/* A request naming another node's room (world.h; far says where): WATCH
 * and STATE are answered from its owner, WHO from the presence, LEAVE
 * ends the watch here; a request for a seat there is sent there (* MOVED
 * before its refusal). */
static int
remote_room(struct conn *c, const proto_msg_t *m, enum target at, const struct world_place *far,
    const char **why)
{
	const struct world *w = &c->srv->world;
	game_err_t e;
	switch (m->id) {
	case PR_WATCH:
	case PR_STATE:
		e = world_watch(w, c, m, why);
		return e == GERR_PENDING ? 0 : refused(e, NULL, why);
	case PR_WHO:
		return who_remote(c, m);
	case PR_LEAVE:
		if (world_leave(w, c, m->room) != GERR_OK)
			return ERR_NOT_IN_ROOM;
		proto_msg_t r;
		reply_init(&r, m);
		snprintf(r.room, sizeof r.room, "%s", m->room);
		conn_send(c, &r);
		return 0;
	default:
		*why = "that room is on another node of the cluster";
		if (at == AT_SEAT && moved(c, m->room, far) == 0)
			*why = "that room is on another node: see * MOVED";
		return world_watches(w, c, m->room) ? ERR_NOT_PLAYER : ERR_NO_ROOM;
	}
}

/* The room a request addresses, by its row's target: 0 with *rm (NULL for
 * none), or the error code. A private room exists only for its members: to
 * anyone else it is 420, exactly as a room that does not exist. */
static int
resolve(struct conn *c, const proto_msg_t *m, enum target at, struct room **rm)
{
	*rm = NULL;
	if (at == AT_NONE || (at == AT_ROOM_IF && !m->room[0]))
		return 0;
	if (!(*rm = lookup(c, m->room)))
		return ERR_NO_ROOM;
	if (at == AT_MEMBER && !session_in_room(c->sess, *rm))
		return ERR_NOT_IN_ROOM;
	if (at == AT_SEAT && room_seat_of(*rm, c->sess) < 0)
		return ERR_NOT_PLAYER;
	return 0;
}

void
cmd_dispatch(struct conn *c, const proto_msg_t *m)
{
	if (m->id <= PM_NONE || m->id >= PM_COUNT || !table[m->id].fn) {
		conn_error(c, m->tag, ERR_UNKNOWN, NULL);
		return;
	}
	enum need need = table[m->id].need;
	struct room *rm = NULL;
	struct world_place far;
	int rc = 0;
	const char *why = NULL;
	if (c->srv->draining && m->id != PR_QUIT && m->id != PR_PING)
		rc = ERR_SHUTDOWN;
	else if (need != NEED_NONE && need != NEED_UNNAMED && c->state != CS_READY)
		rc = ERR_HELLO_FIRST;
	else if (need == NEED_NAME && !c->sess)
		rc = ERR_LOGIN_FIRST;
	else if ((need == NEED_ANON || need == NEED_UNNAMED) && c->sess)
		rc = ERR_LOGGED_IN; /* a named connection's HELLO could only close it (406) */
	else if (need == NEED_SIGNIN && c->sess && c->sess->kind != SESSION_GUEST)
		rc = ERR_LOGGED_IN; /* an account signs in again only after LOGOUT */
	else if (c->sess && (rm = session_starting(c->sess)) != NULL) {
		/* its game's start is being stored: after it, in order */
		park(c, m, rm, 0);
		return;
	} else if ((rc = resolve(c, m, table[m->id].at, &rm)) == ERR_NO_ROOM &&
	    elsewhere(c, m->room, &far)) {
		/* no such room here: asked of the world only then, so a request
		 * for a room here looks it up once */
		rc = remote_room(c, m, table[m->id].at, &far, &why);
	} else if (rc == 0) {
		if (rm && room_busy(rm)) {
			park(c, m, rm, 0);
			return;
		}
		rc = table[m->id].fn(c, m, rm, &why);
		if (rc == CMD_PARKED)
			return;
		if (rc == CMD_PENDING) {
			park(c, m, rm, 1);
			return;
		}
		if (rc == CMD_LOOKUP && (rc = look_up(c, m)) == 0)
			return;
	}
	if (rc)
		conn_error(c, m->tag, rc, why ? "%s" : NULL, why);
}

/* The room's late answer to its waiting request, then the requests that
 * waited behind it, in order, until one waits again. */
static void
room_replied(void *arg, struct room *r, game_err_t e, const struct room_act *act)
{
	struct server *srv = arg;
	struct parked *p, *next;
	TAILQ_FOREACH (p, &srv->cmd->parked, link)
		if (p->r == r && p->answering)
			break;
	if (p) {
		const char *why = NULL;
		TAILQ_REMOVE(&srv->cmd->parked, p, link);
		if (e) { /* refused sets why first: arguments have no order */
			int code = refused(e, act, &why);
			conn_error(p->c, p->m.tag, code, why ? "%s" : NULL, why);
		} else { /* OK <VERB> <room>, and the seq or the offer's id */
			proto_msg_t ok;
			reply_init(&ok, &p->m);
			snprintf(ok.room, sizeof ok.room, "%s", room_id(r));
			ok.seq = act->seq;
			ok.ident = p->m.ident;
			conn_send(p->c, &ok);
		}
		conn_release(p->c);
		free(p);
	} else if (e && srv->botplay) {
		botplay_refused(srv->botplay, r, e); /* nobody asked: a bot's stones */
	}
	for (p = TAILQ_FIRST(&srv->cmd->parked); p && !room_busy(r); p = next) {
		next = TAILQ_NEXT(p, link);
		if (p->r != r)
			continue;
		TAILQ_REMOVE(&srv->cmd->parked, p, link);
		struct conn *c = p->c;
		c->job = 0;
		if (!c->dead && !c->closing)
			cmd_dispatch(c, &p->m);
		if (!c->job)
			conn_release(c);
		free(p);
		next = TAILQ_FIRST(&srv->cmd->parked); /* the dispatch may have parked more */
	}
}

/* The store thread's answer to a waiting RESUME: it runs again with it. */
static void
looked_up(void *arg, const struct archive_lookup *l)
{
	struct parked *p = arg;
	if (!l) { /* shutdown: the connections went first */
		free(p);
		return;
	}
	if (!p->c) { /* the connection went meanwhile (cmd_forget) */
		free(p);
		return;
	}
	struct server *srv = p->c->srv;
	TAILQ_REMOVE(&srv->cmd->parked, p, link);
	struct conn *c = p->c;
	c->job = 0;
	struct archive_lookup copy = *l;
	srv->cmd->ahead = &copy;
	if (!c->dead && !c->closing)
		cmd_dispatch(c, &p->m);
	srv->cmd->ahead = NULL;
	if (!c->job)
		conn_release(c);
	free(p);
}

/* A RESUME's stored session, looked up off the loop: 0 with the request
 * waiting (c held), or an error code. */
static int
look_up(struct conn *c, const proto_msg_t *m)
{
	struct parked *p = calloc(1, sizeof *p);
	if (!p || archive_lookup_async(c->srv, m->token, looked_up, p) != 0) {
		free(p);
		return ERR_SERVER_BUSY;
	}
	p->c = c;
	p->m = *m;
	TAILQ_INSERT_TAIL(&c->srv->cmd->parked, p, link);
	conn_hold(c, CONN_HELD);
	return 0;
}

static void
stored_run(struct store *st, void *arg)
{
	struct parked *p = arg;
	p->run(st, p->arg);
}

/* Back from the store thread: the held connection gets its answer and
 * reads on (unless the answer holds it again). */
static void
stored_back(void *arg, int cancelled)
{
	struct parked *p = arg;
	struct conn *c = p->c;
	const char *why = NULL;
	if (cancelled || !c) { /* the connection went meanwhile (cmd_forget) */
		p->reply(NULL, p->arg, &why);
		free(p);
		return;
	}
	TAILQ_REMOVE(&c->srv->cmd->parked, p, link);
	c->job = 0;
	int rc = p->reply(c->dead || c->closing ? NULL : c, p->arg, &why);
	if (rc && !c->dead && !c->closing)
		conn_error(c, p->m.tag, rc, why ? "%s" : NULL, why);
	if (!c->job)
		conn_release(c);
	free(p);
}

int
cmd_store(struct conn *c, const char *tag, archive_run_fn run, cmd_reply_fn reply, void *arg,
    const char **why)
{
	if (!archive_async(c->srv)) { /* SQLite: at once, on the loop */
		run(c->srv->store, arg);
		return reply(c, arg, why);
	}
	struct parked *p = calloc(1, sizeof *p);
	if (p) { /* all set before the store thread sees it */
		p->c = c;
		snprintf(p->m.tag, sizeof p->m.tag, "%s", tag ? tag : "");
		p->run = run;
		p->reply = reply;
		p->arg = arg;
	}
	if (!p || archive_call(c->srv, stored_run, stored_back, p) != 0) {
		free(p);
		reply(NULL, arg, why);
		*why = "the database is busy; try again in a moment";
		return ERR_SERVER_BUSY;
	}
	TAILQ_INSERT_TAIL(&c->srv->cmd->parked, p, link);
	conn_hold(c, CONN_HELD);
	return 0;
}

int
cmd_start(struct server *srv)
{
	if (!(srv->cmd = calloc(1, sizeof *srv->cmd)))
		return -1;
	TAILQ_INIT(&srv->cmd->parked);
	rooms_on_reply(srv->rooms, room_replied, srv);
	return 0;
}

void
cmd_stop(struct server *srv)
{
	free(srv->cmd); /* every request parked went with its connection */
	srv->cmd = NULL;
}

void
cmd_forget(struct conn *c)
{
	struct parked *p, *next;
	for (p = TAILQ_FIRST(&c->srv->cmd->parked); p; p = next) {
		next = TAILQ_NEXT(p, link);
		if (p->c == c) {
			TAILQ_REMOVE(&c->srv->cmd->parked, p, link);
			if (p->r || p->answering)
				free(p);
			else
				p->c = NULL; /* a lookup in flight frees it when it is back */
		}
	}
}

void
cmd_conn_gone(void *srv, struct conn *c)
{
	(void)srv;
	cmd_forget(c);
}
