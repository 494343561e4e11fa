/*
 * account.c: REGISTER and LOGIN, with scrypt on the work queue while the
 * connection holds its later requests, failed logins limited per address
 * and per account, and the archive's queries.
 */
#include "daemon/account.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/crypto.h>

#include "daemon/auth.h"
#include "daemon/conn.h"
#include "daemon/export.h"
#include "daemon/room.h"
#include "daemon/server.h"
#include "daemon/session.h"
#include "daemon/store.h"
#include "daemon/wire.h"

enum { LIMIT_SLOTS = 512 };

/* Failed logins counted per key ("a:" address, "u:" account) in a window. */
struct login_limits {
	struct {
		char key[64];
		int fails;
		int64_t since;
	} e[LIMIT_SLOTS];
};

static int
limit_slot(struct server *srv, const char *key, int create)
{
	int64_t now = (int64_t)time(NULL);
	int spare = -1, oldest = 0;

	if (!srv->logins && !(srv->logins = calloc(1, sizeof *srv->logins)))
		return -1;
	struct login_limits *l = srv->logins;
	for (int i = 0; i < LIMIT_SLOTS; i++) {
		int stale = now - l->e[i].since >= ACCOUNT_FAIL_WINDOW_S;
		if (l->e[i].key[0] && strcmp(l->e[i].key, key) == 0) {
			if (stale) {
				l->e[i].fails = 0;
				l->e[i].since = now;
			}
			return i;
		}
		if (spare < 0 && (!l->e[i].key[0] || stale))
			spare = i;
		if (l->e[i].since < l->e[oldest].since)
			oldest = i;
	}
	if (!create)
		return -1;
	int i = spare >= 0 ? spare : oldest;
	snprintf(l->e[i].key, sizeof l->e[i].key, "%s", key);
	l->e[i].fails = 0;
	l->e[i].since = now;
	return i;
}

static int
limited(struct server *srv, const char *key, int max)
{
	int i = limit_slot(srv, key, 0);
	return i >= 0 && srv->logins->e[i].fails >= max;
}

static void
count_failure(struct server *srv, const char *key)
{
	int i = limit_slot(srv, key, 1);
	if (i >= 0)
		srv->logins->e[i].fails++;
}

static void
forget(struct server *srv, const char *key)
{
	int i = limit_slot(srv, key, 0);
	if (i >= 0)
		srv->logins->e[i].key[0] = '\0';
}

void
account_free_limits(struct server *srv)
{
	free(srv->logins);
	srv->logins = NULL;
}

static void
keys_of(const struct conn *c, const char *name, char akey[64], char ukey[64])
{
	char ip[INET6_ADDRSTRLEN] = "?", lower[AUTH_NAME_MAX + 1];

	if (c->addr.ss_family == AF_INET6)
		inet_ntop(
		    AF_INET6, &((const struct sockaddr_in6 *)&c->addr)->sin6_addr, ip, sizeof ip);
	else if (c->addr.ss_family == AF_INET)
		inet_ntop(
		    AF_INET, &((const struct sockaddr_in *)&c->addr)->sin_addr, ip, sizeof ip);
	auth_name_key(name, lower);
	snprintf(akey, 64, "a:%s", ip);
	snprintf(ukey, 64, "u:%s", lower);
}

/* One password check or hash, done by a worker. */
struct check {
	struct conn *c; /* valid until the job is cancelled (conn_kill) */
	int registering;
	char tag[PROTO_TAG_MAX + 1];
	char name[PROTO_NAME_MAX + 1];
	char password[PROTO_PASS_MAX + 1];
	char stored[AUTH_HASH_MAX];
	int known;   /* login: the account exists */
	int verdict; /* 1 match / hashed, 0 no, -1 error */
};

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
 * session (a takeover) and seats of games kept through a restart that
 * wait for its name. Each is announced (* SEATED, before the reply) and
 * the room sees the player back. */
static void
take_seats(struct conn *c, struct session *s)
{
	for (struct room *r = rooms_first(c->srv->rooms); r; r = rooms_next(r)) {
		int seat = room_awaiting(r, s->name);
		if (seat >= 0 && !session_in_room(s, r))
			room_resume(r, seat, s);
		if (room_seat_of(r, s) < 0 || !room_unfinished(r))
			continue;
		room_back(r, s);
		proto_msg_t e;
		proto_init(&e, PE_SEATED, NULL);
		snprintf(e.room, sizeof e.room, "%s", room_id(r));
		conn_send(c, &e);
	}
}

/* Names the connection's session and sends OK REGISTER/LOGIN. A session
 * the account already has (another connection, or one away from its game)
 * is taken over, seat and clock as they are; its old connection is told
 * and closed. */
static int
sign_in(struct conn *c, struct check *k)
{
	int err = 0;
	struct session *s = session_by_name(c->srv, k->name);

	if (s && s->kind != SESSION_ACCOUNT)
		return ERR_NAME_TAKEN; /* a guest took it before it was registered */
	if (!s && !(s = session_new(c->srv, k->name, SESSION_ACCOUNT, &err)))
		return err;
	conn_bind(c, s);
	take_seats(c, s);
	proto_msg_t r;
	proto_init(&r, k->registering ? PO_REGISTER : PO_LOGIN, k->tag);
	snprintf(r.user, sizeof r.user, "%s", s->name);
	snprintf(r.token, sizeof r.token, "%s", s->token);
	conn_send(c, &r);
	log_info(&c->srv->log, "conn %llu %s: %s %s", (unsigned long long)c->id, c->peer,
	    k->registering ? "registered" : "logged in as", s->name);
	return 0;
}

static int
finish_register(struct conn *c, struct check *k, const char **why)
{
	if (k->verdict != 1)
		return ERR_INTERNAL;
	int rc = store_user_create(c->srv->store, k->name, k->stored, (int64_t)time(NULL));
	if (rc == STORE_EXISTS)
		return ERR_NAME_TAKEN;
	if (rc != 0) {
		log_error(&c->srv->log, "register %s: %s", k->name, store_error(c->srv->store));
		return ERR_INTERNAL;
	}
	rc = sign_in(c, k);
	if (rc == ERR_NAME_TAKEN)
		*why = "registered, but a guest uses that name now: LOGIN when it is free";
	return rc;
}

static int
finish_login(struct conn *c, struct check *k, const char **why)
{
	char akey[64], ukey[64];

	keys_of(c, k->name, akey, ukey);
	if (k->verdict != 1) {
		count_failure(c->srv, akey);
		count_failure(c->srv, ukey);
		log_info(&c->srv->log, "conn %llu %s: failed login for %s",
		    (unsigned long long)c->id, c->peer, k->name);
		return ERR_CREDENTIALS;
	}
	forget(c->srv, ukey);
	int rc = sign_in(c, k);
	if (rc == ERR_NAME_TAKEN)
		*why = "a guest uses that name now";
	return rc;
}

static void
check_done(int64_t id, int cancelled, void *arg)
{
	struct check *k = arg;
	const char *why = NULL;

	(void)id;
	if (!cancelled) {
		struct conn *c = k->c;
		int rc = k->registering ? finish_register(c, k, &why) : finish_login(c, k, &why);
		if (rc)
			conn_error(c, k->tag, rc, why ? "%s" : NULL, why);
		conn_release(c);
	}
	OPENSSL_cleanse(k, sizeof *k);
	free(k);
}

/* Queues the check; the connection waits for it. */
static int
submit(struct conn *c, struct check *k, const char **why)
{
	int64_t job = workq_submit(c->srv->work, c->id, run_check, check_done, NULL, k);

	if (job < 0) {
		OPENSSL_cleanse(k, sizeof *k);
		free(k);
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
	snprintf(k->name, sizeof k->name, "%s", m->user);
	snprintf(k->password, sizeof k->password, "%s", m->pass);
	return k;
}

int
account_register(struct conn *c, const proto_msg_t *m, const char **why)
{
	struct server *srv = c->srv;
	char spelled[STORE_NAME_MAX + 1], hash[AUTH_HASH_MAX];
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
	if (store_user_get(srv->store, m->user, spelled, hash, sizeof hash) == 0 ||
	    session_by_name(srv, m->user))
		return ERR_NAME_TAKEN;
	struct check *k = new_check(c, m, 1);
	return k ? submit(c, k, why) : ERR_INTERNAL;
}

int
account_login(struct conn *c, const proto_msg_t *m, const char **why)
{
	struct server *srv = c->srv;
	char akey[64], ukey[64];

	if (!srv->store) {
		*why = "this server keeps no accounts (database none); use GUEST";
		return ERR_UNAVAILABLE;
	}
	keys_of(c, m->user, akey, ukey);
	if (limited(srv, akey, ACCOUNT_FAILS_PER_ADDR) ||
	    limited(srv, ukey, ACCOUNT_FAILS_PER_NAME)) {
		*why = "too many failed logins; wait a few minutes";
		return ERR_RATE;
	}
	struct check *k = new_check(c, m, 0);
	if (!k)
		return ERR_INTERNAL;
	k->known = store_user_get(srv->store, m->user, k->name, k->stored, sizeof k->stored) == 0;
	return submit(c, k, why);
}

int
account_guest_name(struct server *srv, const char *name, const char **why)
{
	char spelled[STORE_NAME_MAX + 1], hash[AUTH_HASH_MAX];

	if (auth_name_check(name) == NAME_RESERVED) {
		*why = "that name is reserved";
		return ERR_NAME_TAKEN;
	}
	if (srv->store && store_user_get(srv->store, name, spelled, hash, sizeof hash) == 0) {
		*why = "that name belongs to an account: LOGIN";
		return ERR_NAME_TAKEN;
	}
	return 0;
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

/* The user a query names, or the connection's own. */
static const char *
subject(struct conn *c, const proto_msg_t *m)
{
	return m->user[0] ? m->user : c->sess ? c->sess->name : NULL;
}

int
account_stats(struct conn *c, const proto_msg_t *m, const char **why)
{
	store_t *st = c->srv->store;
	const char *name = subject(c, m);
	char spelled[STORE_NAME_MAX + 1], hash[AUTH_HASH_MAX];
	store_rating_t r[3];
	int have[3], n = 0;

	if (!st) {
		*why = "this server keeps no ratings (database none)";
		return ERR_UNAVAILABLE;
	}
	if (!name)
		return ERR_LOGIN_FIRST;
	int account = store_user_get(st, name, spelled, hash, sizeof hash) == 0;
	for (int i = 0; i < 3; i++) {
		int rc = store_rating_get(st, account ? spelled : name, (rule_t)i, &r[i]);
		if (rc < 0)
			return ERR_INTERNAL;
		/* accounts show every rule; bots and guests the ones they were rated in */
		have[i] = account || rc == 0;
		n += have[i];
	}
	if (n == 0)
		return ERR_NO_USER;
	for (int i = 0; i < 3; i++)
		if (have[i])
			stat_line(c, &r[i], (rule_t)i);
	proto_msg_t ok;
	proto_init(&ok, PO_STATS, m->tag);
	ok.count = n;
	conn_send(c, &ok);
	return 0;
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

int
account_top(struct conn *c, const proto_msg_t *m, const char **why)
{
	store_t *st = c->srv->store;
	store_rating_t rows[STORE_PAGE];
	int total = 0, n;

	if (!st) {
		*why = "this server keeps no ratings (database none)";
		return ERR_UNAVAILABLE;
	}
	n = store_top(st, m->rule, m->page ? (int)m->page : 1, rows, &total);
	if (n < 0)
		return ERR_INTERNAL;
	for (int i = 0; i < n; i++)
		stat_line(c, &rows[i], m->rule);
	send_page_end(c, PO_TOP, m->tag, n, total);
	return 0;
}

int
account_history(struct conn *c, const proto_msg_t *m, const char **why)
{
	store_t *st = c->srv->store;
	const char *name = subject(c, m);
	store_game_t rows[STORE_PAGE];
	int total = 0, n;

	if (!st) {
		*why = "this server keeps no games (database none)";
		return ERR_UNAVAILABLE;
	}
	if (!name)
		return ERR_LOGIN_FIRST;
	n = store_history(st, name, m->page ? (int)m->page : 1, rows, &total);
	if (n < 0)
		return ERR_INTERNAL;
	for (int i = 0; i < n; i++) {
		proto_msg_t d;
		proto_init(&d, PD_GAME, NULL);
		d.ident = rows[i].id;
		d.rule = (rule_t)rows[i].rule;
		d.size = rows[i].size;
		snprintf(d.user, sizeof d.user, "%s", rows[i].black);
		snprintf(d.user2, sizeof d.user2, "%s", rows[i].white);
		d.result = wire_result((game_result_t)rows[i].result);
		d.reason = wire_reason((game_reason_t)rows[i].reason);
		d.depth = rows[i].nmoves;
		d.when = rows[i].ended;
		conn_send(c, &d);
	}
	send_page_end(c, PO_HISTORY, m->tag, n, total);
	return 0;
}

int
account_export(struct conn *c, const proto_msg_t *m, const char **why)
{
	store_move_t moves[RULES_CELLS];
	char text[EXPORT_MAX];
	store_t *st = c->srv->store;
	store_game_t g;

	if (!st) {
		*why = "this server keeps no games (database none)";
		return ERR_UNAVAILABLE;
	}
	int rc = store_game_load(st, m->ident, &g, moves);
	if (rc < 0)
		return ERR_INTERNAL;
	if (rc == STORE_NOT_FOUND || g.ended == 0) {
		*why = "no finished game with that id";
		return ERR_ARGUMENT;
	}
	int n = m->format == EXPORT_PSQ ? export_psq(&g, moves, text, sizeof text)
					: export_text(&g, moves, text, sizeof text);
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
	proto_init(&ok, PO_EXPORT, m->tag);
	ok.ident = m->ident;
	ok.format = m->format;
	conn_send(c, &ok);
	return 0;
}
