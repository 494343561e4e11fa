/* session.c: named users, their tokens and room memberships. */
#include "daemon/session.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <time.h>

#include <openssl/crypto.h>

#include "daemon/addrcount.h"
#include "daemon/archive.h"
#include "daemon/auth.h"
#include "daemon/room.h"
#include "daemon/core.h"
#include "daemon/gc.h"
#include "daemon/sink.h"
#include "daemon/store.h"

/* The sessions' state: srv->sessions. */
struct sessions {
	LIST_HEAD(, session) list;
	struct session *check; /* to free if idle, at the gc pass */
	uint64_t next_guest;
	struct { /* who holds something of a session (sessions_add_owner), in order */
		struct session_owner o;
		void *arg;
	} owner[SESSION_OWNERS_MAX];
	int nowners;
	struct addrcount *away;  /* sessions away that hold something, by address */
	struct addrcount *names; /* guests' names waiting for a reconnect, by address */
};

/* Everyone who holds something of s hears that it goes. */
static void
tell_gone(struct session *s)
{
	const struct sessions *ss = s->srv->sessions;
	for (int i = 0; i < ss->nowners; i++)
		if (ss->owner[i].o.gone)
			ss->owner[i].o.gone(ss->owner[i].arg, s);
}

/* ... that it is away, and kept; or back. */
static void
tell_away(struct session *s, int back)
{
	const struct sessions *ss = s->srv->sessions;
	for (int i = 0; i < ss->nowners; i++) {
		void (*fn)(void *, struct session *) = back ? ss->owner[i].o.back
							    : ss->owner[i].o.away;
		if (fn)
			fn(ss->owner[i].arg, s);
	}
}

/* What s counts in at its address: nothing, the sessions kept away for
 * what they hold, or the guests' names waiting for a reconnect. Each is
 * capped apart (max-away-per-address), so names cannot crowd out rooms. */
enum { COUNT_NONE, COUNT_AWAY, COUNT_NAME };

/* s counted as kind from now (COUNT_NONE: in nothing); 0 when its
 * address has max-away-per-address of that kind already. */
static int
count_away(struct session *s, int kind)
{
	struct sessions *ss = s->srv->sessions;
	size_t len = s->unit.family == AF_INET6 ? 16 : 4;
	if (kind == s->away_counted || s->unit.family == 0)
		return 1;
	if (s->away_counted != COUNT_NONE)
		addrcount_add(
		    s->away_counted == COUNT_AWAY ? ss->away : ss->names, s->unit.net, len, -1);
	s->away_counted = COUNT_NONE;
	if (kind == COUNT_NONE)
		return 1;
	struct addrcount *ac = kind == COUNT_AWAY ? ss->away : ss->names;
	if (addrcount_add(ac, s->unit.net, len, +1) > s->srv->cfg.max_away_per_addr) {
		addrcount_add(ac, s->unit.net, len, -1);
		return 0;
	}
	s->away_counted = kind;
	return 1;
}

struct session *
session_named_first(struct server *srv, const char *name)
{
	struct session *s;
	LIST_FOREACH (s, &srv->sessions->list, link)
		if (strcasecmp(s->name, name) == 0)
			return s;
	return NULL;
}

struct session *
session_named_next(const struct session *s)
{
	for (struct session *o = LIST_NEXT(s, link); o; o = LIST_NEXT(o, link))
		if (strcasecmp(o->name, s->name) == 0)
			return o;
	return NULL;
}

int
session_named_count(struct server *srv, const char *name)
{
	int n = 0;
	for (struct session *s = session_named_first(srv, name); s; s = session_named_next(s))
		n++;
	return n;
}

struct session *
session_by_name(struct server *srv, const char *name)
{
	struct session *first = session_named_first(srv, name);
	for (struct session *s = first; s; s = session_named_next(s))
		if (s->conn)
			return s; /* a bot account's connected one first */
	return first;
}

struct session *
session_by_token(struct server *srv, const char *token)
{
	size_t n = strlen(token);
	if (n != SESSION_TOKEN_LEN)
		return NULL;
	struct session *s;
	LIST_FOREACH (s, &srv->sessions->list, link)
		if (CRYPTO_memcmp(s->token, token, n) == 0)
			return s;
	char digest[AUTH_DIGEST_LEN + 1] = "";
	LIST_FOREACH (s, &srv->sessions->list, link)
		if (s->await[0]) {
			if (!digest[0])
				auth_token_digest(token, digest);
			if (CRYPTO_memcmp(s->await, digest, AUTH_DIGEST_LEN) == 0) {
				memcpy(s->token, token, n + 1);
				s->await[0] = '\0';
				return s;
			}
		}
	return NULL;
}

/* Puts a new session on the server's list. */

static struct session *
session_link(struct server *srv, struct session *s)
{
	s->srv = srv;
	LIST_INSERT_HEAD(&srv->sessions->list, s, link);
	return s;
}

/* Whether another node has a user of this name online (world.h). */
static int
user_elsewhere(struct server *srv, const char *name)
{
	struct world_place p;
	world_user_where(&srv->world, name, &p);
	return p.at == WORLD_THERE;
}

int
session_prepare(struct server *srv, const char *name, char out[PROTO_NAME_MAX + 1],
    char token[SESSION_TOKEN_LEN + 1], char digest[AUTH_DIGEST_LEN + 1])
{
	if (!name) {
		/* in a cluster every node counts its own guests: its name after
		 * the number keeps guest7 of a and of b apart */
		const char *node = srv->cfg.cluster_host[0] ? srv->cfg.node_name : "";
		do
			snprintf(out, PROTO_NAME_MAX + 1, "guest%llu%s%s",
			    (unsigned long long)++srv->sessions->next_guest, node[0] ? "-" : "",
			    node);
		while (session_by_name(srv, out));
	} else if ((!session_release_hold(srv, name) && session_by_name(srv, name)) ||
	    user_elsewhere(srv, name)) {
		return ERR_NAME_TAKEN; /* here, or on another node */
	} else {
		snprintf(out, PROTO_NAME_MAX + 1, "%s", name);
	}
	return auth_token_new(token, digest) != 0 ? ERR_INTERNAL : 0;
}

int
session_store(struct store *st, const char *digest, const char *name)
{
	return st ? store_session_put(st, digest, name, (int64_t)time(NULL) + SESSION_LIFETIME_S)
		  : 0;
}

int
session_stored_name(struct server *srv, const char *token, char name[PROTO_NAME_MAX + 1])
{
	char digest[AUTH_DIGEST_LEN + 1];
	if (!srv->store || strlen(token) != SESSION_TOKEN_LEN)
		return -1;
	auth_token_digest(token, digest);
	if (store_session_get(srv->store, digest, (int64_t)time(NULL), name) != 0 ||
	    session_by_name(srv, name))
		return -1;
	return 0;
}

struct session *
session_adopt(struct server *srv, const char *name, const char *token, enum session_kind kind)
{
	struct session *s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	snprintf(s->token, sizeof s->token, "%s", token);
	snprintf(s->name, sizeof s->name, "%s", name);
	s->kind = kind;
	return session_link(srv, s);
}

struct session *
session_await(struct server *srv, const char *name, const char *digest, enum session_kind kind)
{
	_Static_assert(sizeof((struct session *)0)->await == AUTH_DIGEST_LEN + 1, "a digest");
	if (strlen(digest) != AUTH_DIGEST_LEN)
		return NULL;
	struct session *s = session_adopt(srv, name, "", kind);
	if (s)
		memcpy(s->await, digest, AUTH_DIGEST_LEN + 1);
	return s;
}

void
session_reserve_name(struct server *srv, const char *name)
{
	unsigned long long n;
	if (sscanf(name, "guest%llu", &n) == 1 && n > srv->sessions->next_guest)
		srv->sessions->next_guest = n;
}

struct session *
session_bot(struct server *srv, int level, struct sink *sink)
{
	struct session *s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	snprintf(s->name, sizeof s->name, "bot%d", level);
	s->kind = SESSION_BOT;
	s->bot_level = level;
	s->sink = sink;
	return session_link(srv, s);
}

struct session *
session_bot_engine(struct server *srv, int engine, const char *name, struct sink *sink)
{
	struct session *s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	snprintf(s->name, sizeof s->name, "%s", name);
	s->kind = SESSION_BOT;
	s->bot_level = 10;
	s->bot_engine = engine + 1;
	s->sink = sink;
	return session_link(srv, s);
}

void
session_attach(struct session *s, struct conn *c, struct sink *k, const struct cidr *unit)
{
	s->conn = c;
	s->sink = c ? k : NULL;
	if (unit) {
		count_away(s, COUNT_NONE); /* counted by the address it was away from */
		s->unit = *unit;
	}
}

void
session_deliver(struct session *s, struct room *r, const proto_msg_t *m, const char *line, size_t n)
{
	if (s->sink)
		s->sink->ops->deliver(s->sink, r, m, line, n);
}

_Static_assert(
    (int)SESSION_BOT_GAMES_MAX == (int)CONFIG_BOT_GAMES_MAX, "bot-max-games fits the list");

int
session_games_max(const struct session *s)
{
	return s->botacct ? s->srv->cfg.bot_max_games : 1;
}

int
session_games(const struct session *s, struct room **out, int max)
{
	int n = 0;
	for (int i = 0; i < s->nrooms; i++) {
		struct room *r = s->rooms[i];
		if ((room_unfinished(r) || room_busy(r)) && room_seat_of(r, s) >= 0) {
			if (out && n < max)
				out[n] = r;
			n++;
		}
	}
	return n;
}

int
session_at_cap(const struct session *s)
{
	int n = session_games(s, NULL, 0);
	if (s->botacct) /* its other connections' games too: one budget */
		for (struct session *o = session_named_first(s->srv, s->name); o;
		     o = session_named_next(o))
			if (o != s)
				n += session_games(o, NULL, 0);
	return n >= session_games_max(s);
}

int
session_busy(const struct session *s)
{
	if (s->seek)
		return 1;
	for (int i = 0; i < s->nrooms; i++)
		if (room_status(s->rooms[i]) == GAME_WAITING && room_seat_of(s->rooms[i], s) >= 0)
			return 1;
	return session_at_cap(s);
}

struct room *
session_starting(const struct session *s)
{
	/* the last one: a bot account's newest start, which its request waits for */
	for (int i = s->nrooms; i-- > 0;)
		if (room_busy(s->rooms[i]) && !room_unfinished(s->rooms[i]) &&
		    room_seat_of(s->rooms[i], s) >= 0)
			return s->rooms[i];
	return NULL;
}

struct room *
session_game(const struct session *s)
{
	for (int i = 0; i < s->nrooms; i++)
		if (room_unfinished(s->rooms[i]) && room_seat_of(s->rooms[i], s) >= 0)
			return s->rooms[i];
	return NULL;
}

const char *
session_playing(const struct session *s)
{
	const struct room *g = session_game(s);
	return g ? room_id(g) : s->moved[0] ? s->moved : NULL;
}

int
session_in_room(const struct session *s, const struct room *r)
{
	for (int i = 0; i < s->nrooms; i++)
		if (s->rooms[i] == r)
			return 1;
	return 0;
}

/* The rooms s may be in: a person's SESSION_MAX_ROOMS, a bot account's
 * as many more as the games it may play beyond one. */
static int
rooms_max(const struct session *s)
{
	return SESSION_MAX_ROOMS - 1 + session_games_max(s);
}

int
session_make_room(struct session *s)
{
	int max = rooms_max(s);
	for (int i = 0; s->nrooms >= max && i < s->nrooms; i++) {
		struct room *r = s->rooms[i];
		if (room_seat_of(r, s) < 0 || room_status(r) == GAME_OVER) {
			room_leave(r, s);
			return 0;
		}
	}
	return s->nrooms < max ? 0 : -1;
}

void
session_add_room(struct session *s, struct room *r)
{
	if (session_in_room(s, r))
		return;
	session_make_room(s);
	/* a seat the list cannot hold would outlive the session: never */
	if (s->nrooms < SESSION_ROOMS_CAP)
		s->rooms[s->nrooms++] = r;
	else
		log_error(&s->srv->log, "session %s: room list full", s->name);
}

void
session_del_room(struct session *s, struct room *r)
{
	for (int i = 0; i < s->nrooms; i++)
		if (s->rooms[i] == r) {
			s->rooms[i] = s->rooms[--s->nrooms];
			return;
		}
}

static void
hold_over(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	session_check(arg);
}

/* Its name waits for its guest for the grace period (the gc pass leaves
 * it while the timer runs). */
static void
hold_name(struct session *s)
{
	if (!s->hold && !(s->hold = evtimer_new(s->srv->base, hold_over, s)))
		return;
	struct timeval tv = { s->srv->cfg.grace_s, 0 };
	evtimer_add(s->hold, &tv);
}

static int
holding_name(const struct session *s)
{
	return s->hold && evtimer_pending(s->hold, NULL);
}

int
session_release_hold(struct server *srv, const char *name)
{
	struct session *s = session_by_name(srv, name);
	if (!s || s->conn || !holding_name(s) || session_holds(s))
		return 0;
	session_free(s);
	return 1;
}

struct room *
session_waiting(const struct session *s)
{
	for (int i = 0; i < s->nrooms; i++)
		if (room_private(s->rooms[i]) && room_status(s->rooms[i]) == GAME_WAITING &&
		    room_creator(s->rooms[i]) == s)
			return s->rooms[i];
	return NULL;
}

void
session_tell_seats(struct session *s)
{
	for (int i = 0; i < s->nrooms; i++) {
		struct room *r = s->rooms[i];
		if (room_seat_of(r, s) < 0 || (!room_unfinished(r) && room_creator(r) != s))
			continue;
		proto_msg_t e;
		proto_init(&e, PE_SEATED, NULL);
		snprintf(e.room, sizeof e.room, "%s", room_id(r));
		session_send(s, &e);
	}
}

int
session_holds(const struct session *s)
{
	if (session_game(s) || session_waiting(s))
		return 1;
	const struct sessions *ss = s->srv->sessions;
	for (int i = 0; i < ss->nowners; i++)
		if (ss->owner[i].o.holds && ss->owner[i].o.holds(ss->owner[i].arg, s))
			return 1;
	return 0;
}

void
session_disconnected(struct session *s)
{
	/* a game's seat is always kept (section 5.9); anything else only while
	 * its address has fewer than max-away-per-address sessions away */
	int holds = session_holds(s);
	int keep = session_game(s) || (holds && count_away(s, COUNT_AWAY));
	if (keep) {
		tell_away(s, 0);
	} else {
		tell_gone(s);
		struct room *w = session_waiting(s);
		if (w)
			room_leave(w, s);
		/* a guest that held nothing keeps its name a while, for a
		 * reconnect (RESUME <token> -), counted as one away */
		if (!holds && s->kind == SESSION_GUEST && count_away(s, COUNT_NAME))
			hold_name(s);
	}
	struct room *rooms[SESSION_ROOMS_CAP];
	int n = s->nrooms;
	memcpy(rooms, s->rooms, sizeof rooms);
	for (int i = 0; i < n; i++)
		if (session_in_room(s, rooms[i]))
			room_gone(rooms[i], s);
	session_check(s);
}

void
session_back(struct session *s)
{
	count_away(s, COUNT_NONE);
	if (s->hold)
		evtimer_del(s->hold);
	struct room *rooms[SESSION_ROOMS_CAP];
	int n = s->nrooms;
	memcpy(rooms, s->rooms, sizeof rooms);
	for (int i = 0; i < n; i++)
		if (session_in_room(s, rooms[i]))
			room_back(rooms[i], s);
	tell_away(s, 1);
}

void
session_check(struct session *s)
{
	if (s->checking)
		return;
	s->checking = 1;
	s->check_next = s->srv->sessions->check;
	s->srv->sessions->check = s;
	gc_soon(s->srv->gc);
}

/* A stored session dropped by the store (on its thread with PostgreSQL);
 * nobody waits for it: a row left behind only expires. */
struct token_drop {
	struct server *srv;
	char digest[AUTH_DIGEST_LEN + 1];
	int rc;
	char err[256];
};

static void
drop_run(struct store *st, void *arg)
{
	struct token_drop *d = arg;
	if ((d->rc = store_session_drop(st, d->digest)) < 0)
		snprintf(d->err, sizeof d->err, "%s", store_error(st));
}

static void
drop_back(void *arg, int cancelled)
{
	struct token_drop *d = arg;
	if (!cancelled && d->rc < 0)
		log_warn(&d->srv->log, "a session not dropped from the store: %s", d->err);
	free(d);
}

static void
forget_token(struct server *srv, const char *token)
{
	struct token_drop *d = calloc(1, sizeof *d);
	if (!d)
		return;
	d->srv = srv;
	auth_token_digest(token, d->digest);
	if (archive_call(srv, drop_run, drop_back, d) != 0)
		free(d);
}

void
session_revoke(struct session *s)
{
	if (s->srv->store && !s->bot_level && s->token[0])
		forget_token(s->srv, s->token);
	memset(s->token, 0, sizeof s->token);
	s->await[0] = '\0';
}

void
session_free(struct session *s)
{
	struct server *srv = s->srv;
	count_away(s, COUNT_NONE);
	tell_gone(s);
	s->checking = 1; /* the owners' session_check must not queue it now */
	while (s->nrooms > 0) {
		int before = s->nrooms;
		room_leave(s->rooms[0], s);
		if (s->nrooms == before)
			session_del_room(s, s->rooms[0]);
	}
	if (s->conn) /* its connection speaks for nobody now */
		s->sink->ops->drop(s->sink);
	/* through a shutdown, tokens stay: players of kept games resume with them */
	if (srv->store && !s->bot_level && !srv->draining && s->token[0] && !s->keep_token)
		forget_token(srv, s->token);
	/* a freed session must not stay queued for the gc */
	for (struct session **p = &srv->sessions->check; *p; p = &(*p)->check_next)
		if (*p == s) {
			*p = s->check_next;
			break;
		}
	if (s->hold)
		event_free(s->hold);
	LIST_REMOVE(s, link);
	free(s);
}

void
session_send(struct session *s, const proto_msg_t *m)
{
	if (s->conn)
		s->sink->ops->say(s->sink, m);
}

/* The room s watches, for WHO: in when given (WHO <room>), else any room s
 * is in without a seat (the last of its list); NULL when it watches none. */
static const struct room *
watched(const struct session *s, const struct room *in)
{
	if (in)
		return room_seat_of(in, s) < 0 ? in : NULL;
	for (int i = s->nrooms; i-- > 0;)
		if (room_seat_of(s->rooms[i], s) < 0)
			return s->rooms[i];
	return NULL;
}

void
session_info(const struct session *s, const struct room *in, proto_msg_t *r)
{
	proto_init(r, PD_USER, NULL);
	snprintf(r->user, sizeof r->user, "%s", s->name);
	/* WHO <room> of a bot account's seat there: that game, of its several */
	const struct room *w, *g = session_game(s);
	if (in && room_unfinished(in) && room_seat_of(in, s) >= 0)
		g = in;
	if (g) {
		r->ustate = USER_PLAYING;
		snprintf(r->room, sizeof r->room, "%s", room_private(g) ? "" : room_id(g));
	} else if (s->seek) {
		r->ustate = USER_SEEKING;
	} else if ((w = watched(s, in)) != NULL) {
		r->ustate = USER_WATCHING;
		snprintf(r->room, sizeof r->room, "%s", room_private(w) && !in ? "" : room_id(w));
	} else {
		r->ustate = USER_IDLE;
	}
}

void
session_moved(struct session *s, const char *room)
{
	s->keep_token = 1;
	snprintf(s->moved, sizeof s->moved, "%s", room);
}

struct sessions *
sessions_new(void)
{
	struct sessions *ss = calloc(1, sizeof *ss);
	if (!ss)
		return NULL;
	LIST_INIT(&ss->list);
	if (!(ss->away = addrcount_new()) || !(ss->names = addrcount_new())) {
		if (ss->away)
			addrcount_free(ss->away);
		free(ss);
		return NULL;
	}
	return ss;
}

void
sessions_free(struct server *srv)
{
	if (!srv->sessions)
		return;
	while (!LIST_EMPTY(&srv->sessions->list))
		session_free(LIST_FIRST(&srv->sessions->list));
	addrcount_free(srv->sessions->away);
	addrcount_free(srv->sessions->names);
	free(srv->sessions);
	srv->sessions = NULL;
}

int
sessions_gc(struct server *srv)
{
	int freed = 0;
	while (srv->sessions->check) {
		struct session *s = srv->sessions->check;
		srv->sessions->check = s->check_next;
		s->checking = 0;
		if (!s->conn && !session_holds(s) && !holding_name(s))
			session_free(s);
		freed = 1;
	}
	return freed;
}

int
sessions_add_owner(struct server *srv, const struct session_owner *o, void *arg)
{
	struct sessions *ss = srv->sessions;
	if (ss->nowners == SESSION_OWNERS_MAX)
		return -1;
	ss->owner[ss->nowners].o = *o;
	ss->owner[ss->nowners++].arg = arg;
	return 0;
}

struct session *
sessions_first(struct server *srv)
{
	return LIST_FIRST(&srv->sessions->list);
}

struct session *
sessions_next(struct session *s)
{
	return LIST_NEXT(s, link);
}

int
sessions_count(struct server *srv)
{
	int n = 0;
	for (struct session *s = sessions_first(srv); s; s = sessions_next(s))
		n++;
	return n;
}

/* What a room reads of its members. */
static const char *
member_name(const struct session *s)
{
	return s->name;
}

static enum archive_player
member_player(const struct session *s)
{
	return s->kind == SESSION_BOT    ? PLAYER_BOT
	    : s->kind == SESSION_ACCOUNT ? (s->botacct ? PLAYER_BOTACCT : PLAYER_ACCOUNT)
					 : PLAYER_GUEST;
}

static int
member_seeking(const struct session *s)
{
	return s->seek != NULL;
}

static int
member_present(const struct session *s)
{
	return session_present(s);
}

static int
member_awaited(const struct session *s)
{
	return session_awaited(s);
}

static int
member_full(const struct session *s)
{
	return s->nrooms >= rooms_max(s);
}

/* Its unfinished game when it may start no other (a person's one, a bot
 * account's last below bot-max-games): a rematch would be one more. */
static struct room *
member_game(const struct session *s)
{
	return session_at_cap(s) ? session_game(s) : NULL;
}

static int
member_bot(const struct session *s)
{
	return session_is_bot(s);
}

const struct room_members session_members = {
	.joined = session_add_room,
	.left = session_del_room,
	.deliver = session_deliver,
	.idle = session_check,
	.game = member_game,
	.bot = member_bot,
	.name = member_name,
	.player = member_player,
	.seeking = member_seeking,
	.present = member_present,
	.awaited = member_awaited,
	.full = member_full,
	.busy = session_busy,
};
