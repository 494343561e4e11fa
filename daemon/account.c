/*
 * account.c: REGISTER and LOGIN, with scrypt on the work queue while the
 * connection holds its later requests, failed logins limited per address
 * and per account from an address, an account's failures from anywhere
 * slowing its logins down, and the archive's queries.
 */
#include "daemon/account.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/queue.h>
#include <time.h>

#include <event2/event.h>
#include <openssl/crypto.h>

#include "daemon/admin.h"
#include "daemon/auth.h"
#include "daemon/cidr.h"
#include "daemon/cmd.h"
#include "daemon/conn.h"
#include "daemon/export.h"
#include "daemon/room.h"
#include "daemon/core.h"
#include "daemon/loginlimit.h"
#include "daemon/session.h"
#include "daemon/store.h"
#include "daemon/wire.h"

/* The failed-login table's size (loginlimit.h): 3 keys a failure, so at
 * least 680 failures from as many addresses before a slot is taken from a
 * count that matters. */
enum { LIMIT_SLOTS = 2048 };

/* A LOGIN for an account that failed from elsewhere, waiting out its
 * delay; its connection is held meanwhile (as for scrypt). */
struct slow {
	LIST_ENTRY(slow) link;
	struct event *ev;
	struct conn *c;
	struct check *k;
};

/* A login token a connection signed in with (AUTH) or was given
 * (REMEMBER), as its digest: LOGOUT revokes it. */
struct kept {
	LIST_ENTRY(kept) link;
	struct conn *c;
	char digest[AUTH_DIGEST_LEN + 1];
};

/* The login tokens held, by connection id: every connection that goes
 * looks in one bucket. */
enum { KEPT_BUCKETS = 1024 };
LIST_HEAD(kept_list, kept);

/* Failed logins (loginlimit.h), the LOGINs waiting out a delay, and the
 * login tokens of each connection. */
struct login_limits {
	struct loginlimit *tab;
	LIST_HEAD(, slow) slow;
	struct kept_list kept[KEPT_BUCKETS];
	int hooked; /* conn_gone is a conns_on_gone hook */
};

/* srv's limits, made at the first login; NULL when out of memory. */
static struct login_limits *
limits(struct server *srv)
{
	if (!srv->logins) {
		struct login_limits *l = calloc(1, sizeof *l);
		if (!l || !(l->tab = loginlimit_new(LIMIT_SLOTS, ACCOUNT_FAIL_WINDOW_S))) {
			free(l);
			return NULL;
		}
		LIST_INIT(&l->slow);
		for (int i = 0; i < KEPT_BUCKETS; i++)
			LIST_INIT(&l->kept[i]);
		srv->logins = l;
	}
	return srv->logins;
}

static int
fails_of(struct server *srv, const char *key)
{
	struct login_limits *l = limits(srv);
	return l ? loginlimit_fails(l->tab, key, (int64_t)time(NULL)) : 0;
}

static void
count_failure(struct server *srv, const char *key)
{
	struct login_limits *l = limits(srv);
	if (l)
		loginlimit_fail(l->tab, key, (int64_t)time(NULL));
}

static void
forget(struct server *srv, const char *key)
{
	struct login_limits *l = limits(srv);
	if (l)
		loginlimit_forget(l->tab, key);
}

int
account_delay_ms(int fails)
{
	if (fails < ACCOUNT_SLOW_AFTER)
		return 0;
	int64_t ms = (int64_t)ACCOUNT_DELAY_MS
	    << (fails - ACCOUNT_SLOW_AFTER < 16 ? fails - ACCOUNT_SLOW_AFTER : 16);
	return ms < ACCOUNT_DELAY_MAX_MS ? (int)ms : ACCOUNT_DELAY_MAX_MS;
}

static void discard(struct check *k);

static void
slow_free(struct slow *w)
{
	LIST_REMOVE(w, link);
	event_free(w->ev);
	if (w->k)
		discard(w->k);
	free(w);
}

/* The bucket of c's login tokens. */
static struct kept_list *
kept_of(struct login_limits *l, const struct conn *c)
{
	return &l->kept[c->id % KEPT_BUCKETS];
}

static void
kept_free_list(struct kept_list *list, const struct conn *c)
{
	struct kept *t = LIST_FIRST(list), *next;
	for (; t; t = next) {
		next = LIST_NEXT(t, link);
		if (!c || t->c == c) {
			LIST_REMOVE(t, link);
			OPENSSL_cleanse(t, sizeof *t);
			free(t);
		}
	}
}

/* Forgets the login tokens c holds, or every connection's (c NULL); they
 * stay valid in the store. */
static void
kept_clear(struct server *srv, const struct conn *c)
{
	if (!srv->logins)
		return;
	if (c)
		kept_free_list(kept_of(srv->logins, c), c);
	else
		for (int i = 0; i < KEPT_BUCKETS; i++)
			kept_free_list(&srv->logins->kept[i], NULL);
}

/* A connection that goes while its LOGIN waits: the wait goes too, and
 * the login tokens it held are its no more. */
static void
conn_gone(void *arg, struct conn *c)
{
	struct server *srv = arg;
	if (!srv->logins)
		return;
	struct slow *w = LIST_FIRST(&srv->logins->slow), *next;
	for (; w; w = next) {
		next = LIST_NEXT(w, link);
		if (w->c == c)
			slow_free(w);
	}
	kept_clear(srv, c);
}

/* srv's limits with conn_gone hooked; NULL when that cannot be. */
static struct login_limits *
hooked(struct server *srv)
{
	struct login_limits *l = limits(srv);
	if (l && !l->hooked && conns_on_gone(srv, conn_gone, srv) == 0)
		l->hooked = 1;
	return l && l->hooked ? l : NULL;
}

/* c holds the login token of digest from now (LOGOUT revokes it). */
static void
kept_add(struct conn *c, const char *digest)
{
	struct login_limits *l = hooked(c->srv);
	struct kept *t = l ? calloc(1, sizeof *t) : NULL;
	if (!t) {
		log_error(&c->srv->log,
		    "conn %llu: out of memory: LOGOUT will not revoke its token",
		    (unsigned long long)c->id);
		return;
	}
	t->c = c;
	snprintf(t->digest, sizeof t->digest, "%s", digest);
	LIST_INSERT_HEAD(kept_of(l, c), t, link);
}

void
account_free_limits(struct server *srv)
{
	if (!srv->logins)
		return;
	while (!LIST_EMPTY(&srv->logins->slow))
		slow_free(LIST_FIRST(&srv->logins->slow));
	kept_clear(srv, NULL);
	loginlimit_free(srv->logins->tab);
	free(srv->logins);
	srv->logins = NULL;
}

/* The keys of c's address and of name: "a:<unit>", "p:<unit> <name>",
 * "u:<name>", the unit being the address or its IPv6 /64 (conn.h). */
static void
keys_of(const struct conn *c, const char *name, char akey[LOGINLIMIT_KEY],
    char pkey[LOGINLIMIT_KEY], char ukey[LOGINLIMIT_KEY])
{
	char unit[INET6_ADDRSTRLEN + 8] = "?", lower[AUTH_NAME_MAX + 1];

	if (c->unit.family && cidr_format(&c->unit, unit, sizeof unit) != 0)
		snprintf(unit, sizeof unit, "?");
	auth_name_key(name, lower);
	snprintf(akey, LOGINLIMIT_KEY, "a:%s", unit);
	snprintf(pkey, LOGINLIMIT_KEY, "p:%s %s", unit, lower);
	snprintf(ukey, LOGINLIMIT_KEY, "u:%s", lower);
}

/* A sign-in under way: a GUEST, or a REGISTER or LOGIN whose password a
 * worker checks; its store work on the store thread (cmd_store). */
struct check {
	struct conn *c; /* valid until the job is cancelled (conn_kill) */
	int registering, guest;
	int authing; /* AUTH: login is the digest of the login token it came with */
	char login[AUTH_DIGEST_LEN + 1];
	char tag[PROTO_TAG_MAX + 1];
	char want[PROTO_NAME_MAX + 1]; /* the name asked for */
	char name[PROTO_NAME_MAX + 1]; /* the account's spelling, or the guest's name */
	char password[PROTO_PASS_MAX + 1];
	char stored[AUTH_HASH_MAX];
	char token[SESSION_TOKEN_LEN + 1], digest[AUTH_DIGEST_LEN + 1];
	int known;     /* the account exists */
	int bot;       /* ... and is a bot account (PROTOCOL.md 5.22) */
	int nobots;    /* ... and refuses challenges from bot accounts */
	int league;    /* ... and, a bot, plays in the engine league */
	int taken;     /* a GUEST's name is an account's */
	int rc, down;  /* the store's answer: -1 refused (down: unreachable) */
	int unstored;  /* the session's digest was not stored */
	int verdict;   /* 1 match / hashed, 0 no, -1 error */
	char err[256]; /* the store's message */
};

static void
discard(struct check *k)
{
	OPENSSL_cleanse(k, sizeof *k);
	free(k);
}

/* The wire code for a store call that failed. */
static int
store_code(int down)
{
	return down ? ERR_STORE_DOWN : ERR_INTERNAL;
}

/* The store failed k's call: its code and message kept for the loop. */
static void
store_failed(struct check *k, struct store *st)
{
	k->rc = -1;
	k->down = store_unavailable(st);
	snprintf(k->err, sizeof k->err, "%s", store_error(st));
}

static void
run_check(workq_job_t *job, void *ctx, void *arg)
{
	struct check *k = arg;
	char scratch[AUTH_HASH_MAX];

	(void)job;
	(void)ctx;
	if (k->registering)
		k->verdict = auth_hash_password(k->password, &AUTH_COST_DEFAULT, k->stored) == 0;
	else if (k->known)
		k->verdict = auth_verify_password(k->password, k->stored);
	else /* no such account: the same work, so the answer takes as long */
		k->verdict = auth_hash_password(k->password, &AUTH_COST_DEFAULT, scratch) == 0 ? 0
											       : -1;
	OPENSSL_cleanse(k->password, sizeof k->password);
}

/* The account's seats come to its new connection: seats of its live
 * session (a takeover: its games and its waiting private room) and seats
 * of games kept through a restart that wait for its name. Each is
 * announced (* SEATED, before the reply) and the room sees the player
 * back, then its seek and challenges are its again (session_back). */
static void
take_seats(struct conn *c, struct session *s)
{
	for (struct room *r = rooms_first(c->srv->rooms); r; r = rooms_next(r)) {
		int seat = room_awaiting(r, s->name);
		if (seat >= 0 && !session_in_room(s, r))
			room_resume(r, seat, s);
	}
	session_tell_seats(s);
	session_back(s); /* its rooms see it back; its seek and challenges come back */
}

/* Whether guest g may not become an account now: seated at an unfinished
 * game, its start being stored, or waiting in its own private room (a
 * seek does not hold it: the seek ends with the guest). */
static int
guest_held(const struct session *g)
{
	if (session_game(g) || session_starting(g))
		return 1;
	for (int i = 0; i < g->nrooms; i++)
		if (room_status(g->rooms[i]) == GAME_WAITING && room_seat_of(g->rooms[i], g) >= 0)
			return 1;
	return 0;
}

int
account_guest_held(const struct conn *c)
{
	return c->sess && c->sess->kind == SESSION_GUEST && guest_held(c->sess);
}

/* Whether k's sign-in (LOGIN or AUTH of a bot account) makes a session
 * of its own beside the account's others (PROTOCOL.md 5.22): each of them
 * has a connection, and they are fewer than bot-max-conns. */
static int
bot_sibling(struct server *srv, const struct check *k)
{
	int n = 0;
	if (!k->bot || k->guest || k->registering)
		return 0;
	for (struct session *s = session_named_first(srv, k->name); s; s = session_named_next(s)) {
		if (s->kind != SESSION_ACCOUNT || !s->conn)
			return 0; /* one away (or not an account's): taken over as before */
		n++;
	}
	return n > 0 && n < srv->cfg.bot_max_conns;
}

/* The session k's sign-in takes over: a bot account's one without a
 * connection first (its seats come back), else the name's. */
static struct session *
session_of(struct server *srv, const struct check *k)
{
	if (k->bot && !k->guest && !k->registering)
		for (struct session *s = session_named_first(srv, k->name); s;
		     s = session_named_next(s))
			if (s->kind == SESSION_ACCOUNT && !s->conn)
				return s;
	return session_by_name(srv, k->name);
}

/* Names the connection's session and sends OK GUEST/REGISTER/LOGIN/AUTH.
 * A session the account already has (another connection, or one away
 * from its game) is taken over, seat and clock as they are; its old
 * connection is told and closed. Otherwise the session is made with k's
 * token, whose digest the store has by now. A guest the connection was
 * is replaced at once, and only when nothing refuses: its seek and
 * challenges end, it leaves the rooms it watches and its token is
 * forgotten, as when its session ends. A bot account signed in on all its
 * sessions gets one more instead, up to bot-max-conns (its token new). */
static int
sign_in(struct conn *c, struct check *k)
{
	struct session *old = c->sess;  /* a guest (cmd.c lets no account here) */
	if (k->guest || k->registering) /* a name held for a reconnect meanwhile */
		session_release_hold(c->srv, k->name);
	int sibling = k->token[0] && bot_sibling(c->srv, k);
	struct session *s = sibling ? NULL : session_of(c->srv, k);
	enum session_kind kind = k->guest ? SESSION_GUEST : SESSION_ACCOUNT;

	if (s && s == old)
		s = NULL; /* a guest that registers its own name */
	if (s && (k->guest || s->kind != SESSION_ACCOUNT))
		return ERR_NAME_TAKEN; /* a guest took it meanwhile */
	if (old && guest_held(old))
		return ERR_BUSY; /* seated while the password was checked */
	if (!s && !k->token[0])
		return ERR_INTERNAL;
	if (s && !s->token[0] && !k->token[0])
		return ERR_INTERNAL;
	if (old) {
		log_info(&c->srv->log, "conn %llu %s: guest %s signs in as %s",
		    (unsigned long long)c->id, c->peer, old->name, k->name);
		session_free(old); /* also unbinds c */
	}
	if (!s && !(s = session_adopt(c->srv, k->name, k->token, kind)))
		return ERR_INTERNAL;
	/* a session whose token a kick or ban revoked goes on with this one's */
	if (!s->token[0])
		snprintf(s->token, sizeof s->token, "%s", k->token);
	if (!k->guest && !k->registering) {
		s->botacct = k->bot; /* as the store has it now */
		s->nobots = k->nobots;
		s->league = k->bot && k->league;
	}
	conn_bind(c, s);
	if (k->authing)
		kept_add(c, k->login);
	if (!k->guest)
		take_seats(c, s);
	proto_msg_t r;
	proto_init(&r,
	    k->guest             ? PO_GUEST
		: k->registering ? PO_REGISTER
		: k->authing     ? PO_AUTH
				 : PO_LOGIN,
	    k->tag);
	snprintf(r.user, sizeof r.user, "%s", s->name);
	snprintf(r.token, sizeof r.token, "%s", s->token);
	conn_send(c, &r);
	/* and its session on another node, after the OK (a bot's connection
	 * beside its others takes none over) */
	if (!k->guest && !k->registering && !sibling)
		world_signed_in(&c->srv->world, s);
	if (sibling)
		log_info(&c->srv->log, "conn %llu %s: bot account %s's connection %d of %d",
		    (unsigned long long)c->id, c->peer, s->name,
		    session_named_count(c->srv, s->name), c->srv->cfg.bot_max_conns);
	log_info(&c->srv->log, "conn %llu %s: %s %s", (unsigned long long)c->id, c->peer,
	    k->guest             ? "guest"
		: k->registering ? "registered"
		: k->authing     ? "logged in by token as"
				 : "logged in as",
	    s->name);
	return 0;
}

/* On the store: the account's row (a REGISTER's new one), a GUEST's name
 * checked against the accounts, and the new session's digest. */
static void
enter_run(struct store *st, void *arg)
{
	struct check *k = arg;
	char spelled[STORE_NAME_MAX + 1], hash[AUTH_HASH_MAX];

	if (!st)
		return;
	if (k->registering) {
		k->rc = store_user_create(st, k->name, k->stored, (int64_t)time(NULL));
		if (k->rc < 0)
			store_failed(k, st);
	} else if (k->guest && k->want[0]) {
		int rc = store_user_get(st, k->want, spelled, hash, sizeof hash);
		k->taken = rc == 0;
		if (rc < 0)
			store_failed(k, st);
	}
	if (k->rc == 0 && !k->taken && k->token[0] && session_store(st, k->digest, k->name) != 0) {
		k->unstored = 1;
		snprintf(k->err, sizeof k->err, "%s", store_error(st));
	}
}

/* Back on the loop: the sign-in is answered. */
static int
enter_reply(struct conn *c, void *arg, const char **why)
{
	struct check *k = arg;
	int rc = 0;

	if (!c) {
		discard(k);
		return 0;
	}
	if (k->rc < 0) {
		log_error(
		    &c->srv->log, "%s %s: %s", k->guest ? "guest" : "register", k->name, k->err);
		rc = store_code(k->down);
	} else if (k->rc == STORE_EXISTS) {
		rc = ERR_NAME_TAKEN;
	} else if (k->taken) {
		*why = "that name belongs to an account: LOGIN";
		rc = ERR_NAME_TAKEN;
	} else {
		/* kept in memory all the same: only a RESUME after a restart needs it */
		if (k->unstored)
			log_error(&c->srv->log, "session for %s not stored: %s", k->name, k->err);
		rc = sign_in(c, k);
		if (rc == ERR_NAME_TAKEN)
			*why = k->registering ? "registered, but a guest uses that name now: LOGIN "
						"when it is free"
			    : k->guest        ? NULL
					      : "a guest uses that name now";
	}
	discard(k);
	return rc;
}

/* The password is right (or hashed): the account's row and the session
 * are stored, then the reply; an account's live session is taken over at
 * once (nothing new to store). */
static int
enter(struct conn *c, struct check *k, const char **why)
{
	if (!k->registering) {
		char akey[LOGINLIMIT_KEY], pkey[LOGINLIMIT_KEY], ukey[LOGINLIMIT_KEY];
		keys_of(c, k->name, akey, pkey, ukey);
		forget(c->srv, pkey);
		forget(c->srv, ukey);
		struct session *s = session_of(c->srv, k);
		/* a revoked token (a kick, a ban) gets a new one, stored first; so
		 * does a bot account's new connection beside its others */
		if (s && s->kind == SESSION_ACCOUNT && s->token[0] && !bot_sibling(c->srv, k)) {
			int rc = sign_in(c, k);
			discard(k);
			return rc;
		}
	}
	if (auth_token_new(k->token, k->digest) != 0) {
		discard(k);
		return ERR_INTERNAL;
	}
	return cmd_store(c, k->tag, enter_run, enter_reply, k, why);
}

static void
check_done(int64_t id, int cancelled, void *arg)
{
	struct check *k = arg;
	const char *why = NULL;
	char tag[PROTO_TAG_MAX + 1];
	int rc;

	(void)id;
	snprintf(tag, sizeof tag, "%s", k->tag);
	if (cancelled) {
		discard(k);
		return;
	}
	struct conn *c = k->c;
	c->job = 0;
	if (k->verdict == 1) {
		rc = enter(c, k, &why); /* k is enter's now */
	} else if (k->registering) {
		rc = ERR_INTERNAL;
		discard(k);
	} else {
		char akey[LOGINLIMIT_KEY], pkey[LOGINLIMIT_KEY], ukey[LOGINLIMIT_KEY];
		keys_of(c, k->name, akey, pkey, ukey);
		count_failure(c->srv, akey);
		count_failure(c->srv, pkey);
		count_failure(c->srv, ukey);
		log_info(&c->srv->log, "conn %llu %s: failed login for %s",
		    (unsigned long long)c->id, c->peer, k->name);
		rc = ERR_CREDENTIALS;
		discard(k);
	}
	if (rc)
		conn_error(c, tag, rc, why ? "%s" : NULL, why);
	if (!c->job)
		conn_release(c);
}
/* Queues the check; the connection waits for it. */
static int
submit(struct conn *c, struct check *k, const char **why)
{
	int64_t job = workq_submit(c->srv->work, c->id, run_check, check_done, NULL, k);

	if (job < 0) {
		discard(k);
		*why = "too many logins at once; try again in a moment";
		return ERR_SERVER_BUSY;
	}
	conn_hold(c, job);
	return 0;
}

static struct check *
new_check(struct conn *c, const proto_msg_t *m, int registering)
{
	struct check *k = calloc(1, sizeof *k);

	if (!k)
		return NULL;
	k->c = c;
	k->registering = registering;
	snprintf(k->tag, sizeof k->tag, "%s", m->tag);
	snprintf(k->want, sizeof k->want, "%s", m->user);
	snprintf(k->name, sizeof k->name, "%s", m->user);
	snprintf(k->password, sizeof k->password, "%s", m->pass);
	return k;
}

/* On the store: whether k's account is a bot account. */
static void
bot_mark(struct store *st, struct check *k)
{
	int64_t since = 0;
	int no = 0;
	int rc = store_user_bot(st, k->name, &since);
	if (rc == 0)
		rc = store_user_nobots(st, k->name, &no);
	if (rc < 0)
		store_failed(k, st);
	k->bot = rc == 0 && since != 0;
	k->nobots = rc == 0 && no;
	int yes = 0;
	if (k->bot && store_user_league(st, k->name, &yes) < 0)
		store_failed(k, st);
	k->league = k->bot && yes;
}

/* On the store: the account asked for (LOGIN's spelling and hash). */
static void
lookup_run(struct store *st, void *arg)
{
	struct check *k = arg;
	int rc = store_user_get(st, k->want, k->name, k->stored, sizeof k->stored);
	k->known = rc == 0;
	if (rc < 0)
		store_failed(k, st);
	else if (k->known && !k->registering)
		bot_mark(st, k);
}

/* Back on the loop: a known name is taken for REGISTER; the password
 * goes to a worker. */
static int
lookup_reply(struct conn *c, void *arg, const char **why)
{
	struct check *k = arg;
	int rc = -1;

	if (!c)
		rc = 0;
	else if (k->rc < 0)
		rc = store_code(k->down);
	else if (k->registering && k->known)
		rc = ERR_NAME_TAKEN;
	if (rc >= 0) {
		if (c && k->rc < 0)
			log_error(&c->srv->log, "%s %s: %s", k->registering ? "register" : "login",
			    k->want, k->err);
		discard(k);
		return rc;
	}
	if (k->registering)
		snprintf(k->name, sizeof k->name, "%s", k->want);
	return submit(c, k, why);
}

int
account_register(struct conn *c, const proto_msg_t *m, const char **why)
{
	struct server *srv = c->srv;
	auth_name_t n = auth_name_check(m->user);

	if (!srv->store) {
		*why = "this server keeps no accounts (database none); use GUEST";
		return ERR_UNAVAILABLE;
	}
	if (n != NAME_OK) {
		*why = auth_name_reason(n);
		return ERR_ARGUMENT;
	}
	if (strlen(m->pass) < ACCOUNT_PASSWORD_MIN) {
		*why = "passwords are at least 6 characters";
		return ERR_ARGUMENT;
	}
	session_release_hold(srv, m->user); /* a guest's name waiting for a reconnect */
	struct session *named = session_by_name(srv, m->user);
	if (named && named != c->sess)
		return ERR_NAME_TAKEN;
	if (account_guest_held(c))
		return ERR_BUSY;
	struct check *k = new_check(c, m, 1);
	return k ? cmd_store(c, m->tag, lookup_run, lookup_reply, k, why) : ERR_INTERNAL;
}

/* The delay is over: the LOGIN goes on to its lookup and scrypt. */
static void
slow_done(evutil_socket_t fd, short what, void *arg)
{
	struct slow *w = arg;
	struct conn *c = w->c;
	struct check *k = w->k;
	const char *why = NULL;
	char tag[PROTO_TAG_MAX + 1];

	(void)fd;
	(void)what;
	w->k = NULL;
	slow_free(w);
	c->job = 0;
	if (c->dead || c->closing) {
		discard(k);
		return;
	}
	snprintf(tag, sizeof tag, "%s", k->tag);
	int rc = cmd_store(c, tag, lookup_run, lookup_reply, k, &why);
	if (rc)
		conn_error(c, tag, rc, why ? "%s" : NULL, why);
	if (!c->job)
		conn_release(c);
}

/* k waits ms before its lookup, c held. 0, or -1 when it cannot wait (it
 * goes on at once then: a delay is a brake, not a lock). */
static int
slow_down(struct conn *c, struct check *k, int ms)
{
	struct server *srv = c->srv;
	struct login_limits *l = limits(srv);

	if (!l)
		return -1;
	struct slow *w = hooked(srv) ? calloc(1, sizeof *w) : NULL;
	if (!w || !(w->ev = evtimer_new(srv->base, slow_done, w))) {
		free(w);
		return -1;
	}
	w->c = c;
	w->k = k;
	LIST_INSERT_HEAD(&l->slow, w, link);
	struct timeval tv = { ms / 1000, (ms % 1000) * 1000 };
	evtimer_add(w->ev, &tv);
	conn_hold(c, CONN_HELD);
	return 0;
}

int
account_login(struct conn *c, const proto_msg_t *m, const char **why)
{
	struct server *srv = c->srv;
	char akey[LOGINLIMIT_KEY], pkey[LOGINLIMIT_KEY], ukey[LOGINLIMIT_KEY];

	if (!srv->store) {
		*why = "this server keeps no accounts (database none); use GUEST";
		return ERR_UNAVAILABLE;
	}
	/* the address that failed is refused; the account only slows down,
	 * so that guesses from elsewhere never lock its owner out */
	keys_of(c, m->user, akey, pkey, ukey);
	if (fails_of(srv, akey) >= ACCOUNT_FAILS_PER_ADDR ||
	    fails_of(srv, pkey) >= ACCOUNT_FAILS_PER_PAIR) {
		*why = "too many failed logins; wait a few minutes";
		return ERR_RATE;
	}
	if (account_guest_held(c))
		return ERR_BUSY;
	struct check *k = new_check(c, m, 0);
	if (!k)
		return ERR_INTERNAL;
	int fails = fails_of(srv, ukey), ms = account_delay_ms(fails);
	if (ms > 0 && slow_down(c, k, ms) == 0) {
		log_info(&srv->log, "conn %llu %s: login for %s waits %d ms (%d failed)",
		    (unsigned long long)c->id, c->peer, m->user, ms, fails);
		return 0;
	}
	return cmd_store(c, m->tag, lookup_run, lookup_reply, k, why);
}

/* On the store: the account of AUTH's login token. */
static void
auth_run(struct store *st, void *arg)
{
	struct check *k = arg;
	int rc = store_login_get(st, k->login, (int64_t)time(NULL), k->name);
	k->known = rc == 0;
	if (rc < 0)
		store_failed(k, st);
	else if (k->known)
		bot_mark(st, k);
}

/* Back on the loop: a token the store does not know (or no more) is a
 * failed login for the address; a known one signs in as its account,
 * exactly as LOGIN's right password does. */
static int
auth_reply(struct conn *c, void *arg, const char **why)
{
	struct check *k = arg;

	if (!c) {
		discard(k);
		return 0;
	}
	if (k->rc < 0) {
		log_error(&c->srv->log, "auth: %s", k->err);
		int rc = store_code(k->down);
		discard(k);
		return rc;
	}
	if (!k->known) {
		char akey[LOGINLIMIT_KEY], pkey[LOGINLIMIT_KEY], ukey[LOGINLIMIT_KEY];
		keys_of(c, "-", akey, pkey, ukey);
		count_failure(c->srv, akey);
		log_info(&c->srv->log, "conn %llu %s: failed login by token",
		    (unsigned long long)c->id, c->peer);
		discard(k);
		return ERR_CREDENTIALS;
	}
	game_err_t e = admin_entry(c->srv->admin, k->name, (const struct sockaddr *)&c->addr);
	if (e) {
		*why = admin_why(c->srv->admin);
		discard(k);
		return wire_err(e, LEGAL_OK);
	}
	return enter(c, k, why); /* k is enter's now */
}

int
account_auth(struct conn *c, const proto_msg_t *m, const char **why)
{
	struct server *srv = c->srv;
	char akey[LOGINLIMIT_KEY], pkey[LOGINLIMIT_KEY], ukey[LOGINLIMIT_KEY];

	if (!srv->store) {
		*why = "this server keeps no accounts (database none); use GUEST";
		return ERR_UNAVAILABLE;
	}
	/* a wrong token counts as a failed login for the address: no guessing */
	keys_of(c, "-", akey, pkey, ukey);
	if (fails_of(srv, akey) >= ACCOUNT_FAILS_PER_ADDR) {
		*why = "too many failed logins; wait a few minutes";
		return ERR_RATE;
	}
	if (account_guest_held(c))
		return ERR_BUSY;
	struct check *k = calloc(1, sizeof *k);
	if (!k)
		return ERR_INTERNAL;
	k->c = c;
	k->authing = 1;
	snprintf(k->tag, sizeof k->tag, "%s", m->tag);
	auth_token_digest(m->token, k->login);
	return cmd_store(c, m->tag, auth_run, auth_reply, k, why);
}

/* A login token being made (REMEMBER) or revoked (LOGOUT). */
struct remember {
	char tag[PROTO_TAG_MAX + 1];
	char name[PROTO_NAME_MAX + 1];
	char token[AUTH_TOKEN_LEN + 1];
	char digest[STORE_LOGINS_PER_USER][AUTH_DIGEST_LEN + 1];
	int n; /* LOGOUT's digests */
	int64_t now, expires;
	int rc, down;
	char err[256];
};

static void
remember_free(struct remember *t)
{
	OPENSSL_cleanse(t, sizeof *t);
	free(t);
}

static void
remember_run(struct store *st, void *arg)
{
	struct remember *t = arg;
	if ((t->rc = store_login_put(st, t->digest[0], t->name, t->now, t->expires)) != 0) {
		t->down = store_unavailable(st);
		snprintf(t->err, sizeof t->err, "%s", store_error(st));
	}
}

static int
remember_reply(struct conn *c, void *arg, const char **why)
{
	struct remember *t = arg;
	int rc = 0;

	(void)why;
	if (c && t->rc != 0) {
		log_error(&c->srv->log, "remember %s: %s", t->name, t->err);
		rc = store_code(t->down);
	} else if (c) {
		kept_add(c, t->digest[0]);
		proto_msg_t r;
		proto_init(&r, PO_REMEMBER, t->tag);
		snprintf(r.token, sizeof r.token, "%s", t->token);
		r.when = t->expires;
		conn_send(c, &r);
		log_info(&c->srv->log, "conn %llu %s: a login token for %s",
		    (unsigned long long)c->id, c->peer, t->name);
	}
	remember_free(t);
	return rc;
}

int
account_remember(struct conn *c, const proto_msg_t *m, const char **why)
{
	struct server *srv = c->srv;

	if (!srv->store) {
		*why = "this server keeps no accounts (database none)";
		return ERR_UNAVAILABLE;
	}
	if (c->sess->kind != SESSION_ACCOUNT) {
		*why = "a guest's name is not kept: REGISTER or LOGIN first";
		return ERR_ACCOUNT_ONLY;
	}
	struct remember *t = calloc(1, sizeof *t);
	if (!t || auth_token_new(t->token, t->digest[0]) != 0) {
		free(t);
		return ERR_INTERNAL;
	}
	snprintf(t->tag, sizeof t->tag, "%s", m->tag);
	snprintf(t->name, sizeof t->name, "%s", c->sess->name);
	t->now = (int64_t)time(NULL);
	t->expires = t->now + srv->cfg.remember_s;
	return cmd_store(c, m->tag, remember_run, remember_reply, t, why);
}

/* A BOTUPGRADE at the store: the token's digest and the account. */
struct upgrade {
	char tag[PROTO_TAG_MAX + 1];
	char name[PROTO_NAME_MAX + 1];
	char digest[AUTH_DIGEST_LEN + 1];
	int rc, down;
	char err[256];
};

static void
upgrade_run(struct store *st, void *arg)
{
	struct upgrade *u = arg;
	u->rc = store_bot_upgrade(st, u->digest, u->name, (int64_t)time(NULL));
	if (u->rc < 0) {
		u->down = store_unavailable(st);
		snprintf(u->err, sizeof u->err, "%s", store_error(st));
	}
}

static int
upgrade_reply(struct conn *c, void *arg, const char **why)
{
	struct upgrade *u = arg;
	int rc = 0;
	(void)why;
	if (!c) {
		/* the connection went: what the store did stands, and the
		 * account's next login reads the mark */
	} else if (u->rc < 0) {
		log_error(&c->srv->log, "botupgrade %s: %s", u->name, u->err);
		rc = store_code(u->down);
	} else if (u->rc != 0) {
		char akey[LOGINLIMIT_KEY], pkey[LOGINLIMIT_KEY], ukey[LOGINLIMIT_KEY];
		keys_of(c, "-", akey, pkey, ukey);
		count_failure(c->srv, akey);
		log_info(&c->srv->log, "conn %llu %s: a bad bot token for %s",
		    (unsigned long long)c->id, c->peer, u->name);
		rc = ERR_CREDENTIALS;
	} else {
		for (struct session *s = session_named_first(c->srv, u->name); s;
		     s = session_named_next(s))
			if (s->kind == SESSION_ACCOUNT)
				s->botacct = 1;
		proto_msg_t r;
		proto_init(&r, PO_BOTUPGRADE, u->tag);
		snprintf(r.user, sizeof r.user, "%s", u->name);
		conn_send(c, &r);
		log_info(&c->srv->log, "conn %llu %s: %s is a bot account from now",
		    (unsigned long long)c->id, c->peer, u->name);
	}
	OPENSSL_cleanse(u, sizeof *u);
	free(u);
	return rc;
}

int
account_botupgrade(struct conn *c, const proto_msg_t *m, const char **why)
{
	struct server *srv = c->srv;
	struct session *s = c->sess;
	char akey[LOGINLIMIT_KEY], pkey[LOGINLIMIT_KEY], ukey[LOGINLIMIT_KEY];

	if (!srv->store) {
		*why = "this server keeps no accounts (database none)";
		return ERR_UNAVAILABLE;
	}
	if (s->kind != SESSION_ACCOUNT) {
		*why = "only an account becomes a bot: REGISTER or LOGIN first";
		return ERR_ACCOUNT_ONLY;
	}
	/* a wrong token counts as a failed login for the address: no guessing */
	keys_of(c, "-", akey, pkey, ukey);
	if (fails_of(srv, akey) >= ACCOUNT_FAILS_PER_ADDR) {
		*why = "too many failed logins; wait a few minutes";
		return ERR_RATE;
	}
	/* a bot's own changes nothing: it may come at any time */
	if (!s->botacct && (s->seek || session_games(s, NULL, 0) > 0 || session_waiting(s))) {
		*why = "a person becomes a bot between games: finish, CANCEL or LEAVE first";
		return ERR_BUSY;
	}
	struct upgrade *u = calloc(1, sizeof *u);
	if (!u)
		return ERR_INTERNAL;
	snprintf(u->tag, sizeof u->tag, "%s", m->tag);
	snprintf(u->name, sizeof u->name, "%s", s->name);
	auth_token_digest(m->token, u->digest);
	return cmd_store(c, m->tag, upgrade_run, upgrade_reply, u, why);
}

/* SET bot-challenges yes|no: an account's on the store, a guest's for
 * its session (PROTOCOL.md 5.22); SET league yes|no: a bot account's, on
 * the store (5.23). */
enum { SET_BOT_CHALLENGES, SET_LEAGUE };

struct setting {
	char tag[PROTO_TAG_MAX + 1];
	char name[PROTO_NAME_MAX + 1];
	int key, no, rc, down;
	char err[256];
};

static void
setting_run(struct store *st, void *arg)
{
	struct setting *t = arg;
	t->rc = t->key == SET_LEAGUE ? store_user_league_set(st, t->name, !t->no)
				     : store_user_nobots_set(st, t->name, t->no);
	if (t->rc < 0) {
		t->down = store_unavailable(st);
		snprintf(t->err, sizeof t->err, "%s", store_error(st));
	}
}

/* The = SET line (id PD_SET) or the OK (PO_SET) of setting key. */
static void
setting_line(struct conn *c, proto_id_t id, const char *tag, int key, int no)
{
	proto_msg_t r;
	proto_init(&r, id, tag);
	snprintf(r.word, sizeof r.word, "%s", key == SET_LEAGUE ? "league" : "bot-challenges");
	snprintf(r.word2, sizeof r.word2, "%s", no ? "no" : "yes");
	conn_send(c, &r);
}

static int
setting_reply(struct conn *c, void *arg, const char **why)
{
	struct setting *t = arg;
	int rc = 0;
	(void)why;
	if (c && t->rc < 0) {
		log_error(&c->srv->log, "set %s: %s", t->name, t->err);
		rc = store_code(t->down);
	} else if (c) {
		for (struct session *s = session_named_first(c->srv, t->name); s;
		     s = session_named_next(s))
			if (t->key == SET_LEAGUE)
				s->league = !t->no;
			else
				s->nobots = t->no;
		setting_line(c, PO_SET, t->tag, t->key, t->no);
	}
	free(t);
	return rc;
}

int
account_set(struct conn *c, const proto_msg_t *m, const char **why)
{
	struct session *s = c->sess;
	int key = strcmp(m->word, "league") == 0 ? SET_LEAGUE : SET_BOT_CHALLENGES;
	if ((key == SET_BOT_CHALLENGES && strcmp(m->word, "bot-challenges") != 0) ||
	    (strcmp(m->word2, "yes") != 0 && strcmp(m->word2, "no") != 0)) {
		*why = "settings: bot-challenges yes|no, and a bot account's league yes|no";
		return ERR_ARGUMENT;
	}
	if (key == SET_LEAGUE && !s->botacct) {
		*why = "league: a bot account's setting (the engine league is for bots)";
		return ERR_ARGUMENT;
	}
	int no = strcmp(m->word2, "no") == 0;
	if (s->kind != SESSION_ACCOUNT || !c->srv->store) { /* for this session */
		s->nobots = no;
		setting_line(c, PO_SET, m->tag, key, no);
		return 0;
	}
	struct setting *t = calloc(1, sizeof *t);
	if (!t)
		return ERR_INTERNAL;
	snprintf(t->tag, sizeof t->tag, "%s", m->tag);
	snprintf(t->name, sizeof t->name, "%s", s->name);
	t->key = key;
	t->no = no;
	return cmd_store(c, m->tag, setting_run, setting_reply, t, why);
}

int
account_settings(struct conn *c, const proto_msg_t *m, const char **why)
{
	proto_msg_t r;
	(void)why;
	setting_line(c, PD_SET, NULL, SET_BOT_CHALLENGES, c->sess->nobots);
	if (c->sess->botacct)
		setting_line(c, PD_SET, NULL, SET_LEAGUE, !c->sess->league);
	proto_init(&r, PO_SETTINGS, m->tag);
	r.count = c->sess->botacct ? 2 : 1;
	conn_send(c, &r);
	return 0;
}

static void
logout_run(struct store *st, void *arg)
{
	struct remember *t = arg;
	for (int i = 0; i < t->n && t->rc == 0; i++)
		if (store_login_drop(st, t->digest[i]) != 0) {
			t->rc = -1;
			t->down = store_unavailable(st);
			snprintf(t->err, sizeof t->err, "%s", store_error(st));
		}
}

/* The name goes: the connection is nobody's, and holds no login token. */
static int
logout_reply(struct conn *c, void *arg, const char **why)
{
	struct remember *t = arg;
	int rc = 0;

	(void)why;
	if (c && t->rc != 0) {
		log_error(&c->srv->log, "logout %s: %s", t->name, t->err);
		rc = store_code(t->down);
	} else if (c && c->sess && (session_busy(c->sess) || session_games(c->sess, NULL, 0))) {
		rc = ERR_BUSY; /* seated meanwhile: the tokens are revoked all the same */
		kept_clear(c->srv, c);
	} else if (c) {
		kept_clear(c->srv, c);
		if (c->sess)
			session_free(c->sess); /* also unbinds c */
		proto_msg_t r;
		proto_init(&r, PO_LOGOUT, t->tag);
		conn_send(c, &r);
	}
	remember_free(t);
	return rc;
}

int
account_logout(struct conn *c, const proto_msg_t *m, const char **why)
{
	struct remember *t = calloc(1, sizeof *t);
	if (!t)
		return ERR_INTERNAL;
	snprintf(t->tag, sizeof t->tag, "%s", m->tag);
	snprintf(t->name, sizeof t->name, "%s", c->sess->name);
	if (c->srv->logins && c->srv->store) {
		struct kept *k;
		LIST_FOREACH (k, kept_of(c->srv->logins, c), link)
			if (k->c == c && t->n < STORE_LOGINS_PER_USER)
				snprintf(t->digest[t->n++], sizeof t->digest[0], "%s", k->digest);
	}
	if (t->n == 0)
		return logout_reply(c, t, why);
	return cmd_store(c, m->tag, logout_run, logout_reply, t, why);
}

int
account_guest(struct conn *c, const proto_msg_t *m, const char **why)
{
	const char *name = m->user[0] ? m->user : NULL;

	if (name && auth_name_check(name) == NAME_RESERVED) {
		*why = "that name is reserved";
		return ERR_NAME_TAKEN;
	}
	struct check *k = calloc(1, sizeof *k);
	if (!k)
		return ERR_INTERNAL;
	k->c = c;
	k->guest = 1;
	snprintf(k->tag, sizeof k->tag, "%s", m->tag);
	snprintf(k->want, sizeof k->want, "%s", m->user);
	int rc = session_prepare(c->srv, name, k->name, k->token, k->digest);
	if (rc) {
		struct session *s = rc == ERR_NAME_TAKEN ? session_by_name(c->srv, name) : NULL;
		if (s && s->kind == SESSION_ACCOUNT)
			*why = "that name belongs to an account: LOGIN";
		else if (rc == ERR_NAME_TAKEN && !s)
			*why = "that name is online on another node";
		discard(k);
		return rc;
	}
	return cmd_store(c, m->tag, enter_run, enter_reply, k, why);
}

/* STATS, TOP, HISTORY or EXPORT: the request copied, and the rows the
 * store answered with (read on the store thread, sent from the loop). */
struct query {
	proto_msg_t m;
	char name[PROTO_NAME_MAX + 1];    /* the user it is about */
	char spelled[PROTO_NAME_MAX + 1]; /* STATS: an account's spelling */
	int rc, down;                     /* -1: the store failed (down: unreachable) */
	int account;                      /* STATS: the name is an account's */
	int bot;                          /* ... a bot account's */
	int have[3];                      /* STATS: rated under each rule */
	int n, total;                     /* rows of the page, of all */
	store_rating_t r[STORE_PAGE];
	store_game_t g[STORE_PAGE];
	store_move_t moves[RULES_CELLS]; /* EXPORT's */
};

static int
query_stats(struct store *st, struct query *q)
{
	char spelled[STORE_NAME_MAX + 1], hash[AUTH_HASH_MAX];
	int rc = store_user_get(st, q->name, spelled, hash, sizeof hash);
	if (rc < 0)
		return -1;
	q->account = rc == 0;
	int64_t since = 0;
	if (q->account && store_user_bot(st, spelled, &since) < 0)
		return -1;
	/* a bot account, or the server's own (botN, bot-<engine>: no account) */
	q->bot = since != 0 ||
	    (!q->account && strncmp(q->name, "bot", 3) == 0 &&
		(isdigit((unsigned char)q->name[3]) || q->name[3] == '-'));
	snprintf(q->spelled, sizeof q->spelled, "%s", q->account ? spelled : q->name);
	for (int i = 0; i < 3; i++) {
		rc = store_rating_get(st, q->account ? spelled : q->name, (rule_t)i, &q->r[i]);
		if (rc < 0)
			return -1;
		/* accounts show every rule; bots and guests the ones they were rated in */
		q->have[i] = q->account || rc == 0;
		q->n += q->have[i];
	}
	return 0;
}

/* On the store: the rows the query asks for. */
static void
query_run(struct store *st, void *arg)
{
	struct query *q = arg;
	int page = q->m.page ? (int)q->m.page : 1;
	switch (q->m.id) {
	case PR_STATS:
		q->rc = query_stats(st, q);
		break;
	case PR_TOP:
		q->rc = q->n = store_top(st, q->m.rule, 0, page, q->r, &q->total);
		break;
	case PR_TOPBOTS:
		q->rc = q->n = store_top(st, q->m.rule, 1, page, q->r, &q->total);
		break;
	case PR_HISTORY:
		q->rc = q->n = store_history(st, q->name, page, q->g, &q->total);
		break;
	default:
		q->rc = store_game_load(st, q->m.ident, &q->g[0], q->moves);
		break;
	}
	if (q->rc < 0)
		q->down = store_unavailable(st);
}

static void
stat_line(struct conn *c, const store_rating_t *r, rule_t rule)
{
	proto_msg_t d;

	proto_init(&d, PD_STAT, NULL);
	snprintf(d.user, sizeof d.user, "%s", r->name);
	d.rule = rule;
	d.rating = (int64_t)(r->g.rating + 0.5);
	d.deviation = (int64_t)(r->g.deviation + 0.5);
	d.provisional = glicko_provisional(&r->g) ? RATING_PROVISIONAL : RATING_ESTABLISHED;
	d.wins = r->wins;
	d.losses = r->losses;
	d.draws = r->draws;
	conn_send(c, &d);
}

/* Ends a paged answer: n rows sent of total. */
static void
send_page_end(struct conn *c, proto_id_t type, const char *tag, int n, int total)
{
	proto_msg_t ok;

	proto_init(&ok, type, tag);
	ok.count = n;
	ok.count2 = total;
	conn_send(c, &ok);
}

static int
reply_stats(struct conn *c, const struct query *q)
{
	if (q->n == 0)
		return ERR_NO_USER;
	if (q->bot) { /* botaccounts: a bot account's STATS says so first */
		proto_msg_t b;
		proto_init(&b, PD_BOT, NULL);
		snprintf(b.user, sizeof b.user, "%s", q->spelled);
		conn_send(c, &b);
	}
	for (int i = 0; i < 3; i++)
		if (q->have[i])
			stat_line(c, &q->r[i], (rule_t)i);
	proto_msg_t ok;
	proto_init(&ok, PO_STATS, q->m.tag);
	ok.count = q->n;
	conn_send(c, &ok);
	return 0;
}

static int
reply_history(struct conn *c, const struct query *q)
{
	for (int i = 0; i < q->n; i++) {
		const store_game_t *g = &q->g[i];
		proto_msg_t d;
		proto_init(&d, PD_GAME, NULL);
		d.ident = g->id;
		d.rule = (rule_t)g->rule;
		d.size = g->size;
		snprintf(d.user, sizeof d.user, "%s", g->black);
		snprintf(d.user2, sizeof d.user2, "%s", g->white);
		d.result = wire_result((game_result_t)g->result);
		d.reason = wire_reason((game_reason_t)g->reason);
		d.depth = g->nmoves;
		d.when = g->ended;
		conn_send(c, &d);
	}
	send_page_end(c, PO_HISTORY, q->m.tag, q->n, q->total);
	return 0;
}

static int
reply_export(struct conn *c, const struct query *q, const char **why)
{
	char text[EXPORT_MAX];

	if (q->rc == STORE_NOT_FOUND || q->g[0].ended == 0) {
		*why = "no finished game with that id";
		return ERR_ARGUMENT;
	}
	int n = q->m.format == EXPORT_PSQ ? export_psq(&q->g[0], q->moves, text, sizeof text)
					  : export_text(&q->g[0], q->moves, text, sizeof text);
	if (n < 0 || n >= (int)sizeof text)
		return ERR_INTERNAL;
	/* every line must fit before the first goes out: a reply is whole */
	for (const char *line = text, *end; *line; line = end + 1)
		if (!(end = strchr(line, '\n')) || end - line > PROTO_TEXT_MAX)
			return ERR_INTERNAL;
	for (const char *line = text, *end; *line; line = end + 1) {
		end = strchr(line, '\n');
		proto_msg_t d;
		proto_init(&d, PD_RECORD, NULL);
		memcpy(d.text, line, (size_t)(end - line));
		d.text[end - line] = '\0';
		conn_send(c, &d);
	}
	proto_msg_t ok;
	proto_init(&ok, PO_EXPORT, q->m.tag);
	ok.ident = q->m.ident;
	ok.format = q->m.format;
	conn_send(c, &ok);
	return 0;
}

/* Back on the loop: the rows go out. */
static int
query_reply(struct conn *c, void *arg, const char **why)
{
	struct query *q = arg;
	int rc = 0;

	if (!c) /* nobody to answer */
		rc = 0;
	else if (q->rc < 0)
		rc = store_code(q->down);
	else if (q->m.id == PR_STATS)
		rc = reply_stats(c, q);
	else if (q->m.id == PR_TOP || q->m.id == PR_TOPBOTS) {
		for (int i = 0; i < q->n; i++)
			stat_line(c, &q->r[i], q->m.rule);
		send_page_end(c, q->m.id == PR_TOP ? PO_TOP : PO_TOPBOTS, q->m.tag, q->n, q->total);
	} else if (q->m.id == PR_HISTORY)
		rc = reply_history(c, q);
	else
		rc = reply_export(c, q, why);
	free(q);
	return rc;
}

/* The user a query names, or the connection's own. */
static const char *
subject(struct conn *c, const proto_msg_t *m)
{
	return m->user[0] ? m->user : c->sess ? c->sess->name : NULL;
}

int
account_query(struct conn *c, const proto_msg_t *m, const char **why)
{
	const char *name = subject(c, m);

	if (!c->srv->store) {
		*why = m->id == PR_STATS || m->id == PR_TOP || m->id == PR_TOPBOTS
		    ? "this server keeps no ratings (database none)"
		    : "this server keeps no games (database none)";
		return ERR_UNAVAILABLE;
	}
	if (!name && (m->id == PR_STATS || m->id == PR_HISTORY))
		return ERR_LOGIN_FIRST;
	struct query *q = calloc(1, sizeof *q);
	if (!q)
		return ERR_INTERNAL;
	q->m = *m;
	snprintf(q->name, sizeof q->name, "%s", name ? name : "");
	return cmd_store(c, m->tag, query_run, query_reply, q, why);
}
