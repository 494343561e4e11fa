/* admin.c: bans, mutes, the MOTD, announcements, kicks and drain: the
 * verbs gomokuctl and the protocol's admins share, the checks at the door
 * (GUEST, LOGIN, REGISTER, RESUME) and at chat. Sanctions live in the
 * store and, for the checks, in a small array here (a community has few). */
#include "daemon/admin.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "daemon/auth.h"
#include "daemon/cidr.h"
#include "daemon/conn.h"
#include "daemon/lobby.h"
#include "daemon/notify.h"
#include "daemon/core.h"
#include "daemon/session.h"

/* One sanction in force; a ban on an address keeps its parsed prefix. */
struct sanction {
	store_sanction_t x;
	int addr; /* a ban on an address or network (net), not a name */
	struct cidr net;
};

struct admin {
	struct server *srv;
	struct sanction *v;
	int n, cap;
	char motd[ADMIN_TEXT_MAX + 1];
	int drain;
	int drained; /* the drain's "no game left" was said */
	char why[ADMIN_TEXT_MAX + 1];
};

const char *
admin_why(const struct admin *a)
{
	return a->why[0] ? a->why : NULL;
}

static game_err_t
refuse(struct admin *a, game_err_t e, const char *fmt, const char *arg)
{
	snprintf(a->why, sizeof a->why, fmt, arg);
	return e;
}

int64_t
admin_duration(const char *s)
{
	static const struct {
		char unit;
		int64_t secs;
	} units[] = { { 's', 1 }, { 'm', 60 }, { 'h', 3600 }, { 'd', 86400 }, { 'w', 7 * 86400 } };
	if (strcmp(s, "forever") == 0)
		return 0;
	int64_t v = 0;
	const char *p = s;
	for (; isdigit((unsigned char)*p) && p - s < 6; p++)
		v = v * 10 + (*p - '0');
	if (p == s || v == 0 || p[0] == '\0' || p[1] != '\0')
		return -1;
	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
		if (units[i].unit == *p && v * units[i].secs <= 3650 * 86400LL)
			return v * units[i].secs;
	return -1;
}

int
admin_cidr(const char *s, char *out, size_t cap)
{
	struct cidr c;
	return cidr_parse(s, &c) == 0 ? cidr_format(&c, out, cap) : -1;
}

static int
in_force(const struct sanction *s, int64_t now)
{
	return s->x.expires == 0 || s->x.expires > now;
}

static struct sanction *
find(struct admin *a, int kind, const char *target)
{
	for (int i = 0; i < a->n; i++)
		if (a->v[i].x.kind == kind && strcmp(a->v[i].x.target, target) == 0)
			return &a->v[i];
	return NULL;
}

/* Adds or replaces a sanction in the array. -1: out of memory. */
static int
keep(struct admin *a, const store_sanction_t *x)
{
	struct sanction *s = find(a, x->kind, x->target);
	if (!s) {
		if (a->n == a->cap) {
			int cap = a->cap ? a->cap * 2 : 16;
			struct sanction *v = realloc(a->v, (size_t)cap * sizeof *v);
			if (!v)
				return -1;
			a->v = v;
			a->cap = cap;
		}
		s = &a->v[a->n++];
	}
	memset(s, 0, sizeof *s);
	s->x = *x;
	s->addr = cidr_parse(x->target, &s->net) == 0;
	if (s->addr) /* an address stored before ipv6-prefix: it covers the /64 */
		cidr_widen(&s->net, a->srv->cfg.ipv6_prefix);
	return 0;
}

static void
drop(struct admin *a, struct sanction *s)
{
	*s = a->v[--a->n];
}

static void
load_one(void *arg, const store_sanction_t *x)
{
	keep(arg, x);
}

struct admin *
admin_new(struct server *srv, char *err, size_t errlen)
{
	struct admin *a = calloc(1, sizeof *a);
	if (!a) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	a->srv = srv;
	if (srv->store) {
		if (store_sanctions(srv->store, (int64_t)time(NULL), load_one, a) < 0 ||
		    store_setting_get(srv->store, "motd", a->motd, sizeof a->motd) < 0) {
			snprintf(err, errlen, "bans and MOTD: %s", store_error(srv->store));
			admin_free(a);
			return NULL;
		}
	}
	return a;
}

void
admin_free(struct admin *a)
{
	if (!a)
		return;
	free(a->v);
	free(a);
}

int
admin_is(const struct admin *a, const struct session *s)
{
	return s && s->kind == SESSION_ACCOUNT && config_is_admin(&a->srv->cfg, s->name);
}

/* "until 2026-12-08 10:00 UTC" or "for good". */
static void
until(int64_t expires, char *out, size_t cap)
{
	if (expires == 0) {
		snprintf(out, cap, "for good");
		return;
	}
	time_t t = (time_t)expires;
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(out, cap, "until %Y-%m-%d %H:%M UTC", &tm);
}

/* The refusal text of a sanction: "banned until ...: reason". */
static void
explain(struct admin *a, const char *what, const struct sanction *s)
{
	char u[64];
	until(s->x.expires, u, sizeof u);
	snprintf(a->why, sizeof a->why, "%.30s %.40s%s%.300s", what, u, s->x.reason[0] ? ": " : "",
	    s->x.reason);
}

game_err_t
admin_entry(struct admin *a, const char *name, const struct sockaddr *sa)
{
	char key[AUTH_NAME_MAX + 1] = "";
	int64_t now = (int64_t)time(NULL);
	a->why[0] = '\0';
	if (name)
		auth_name_key(name, key);
	for (int i = 0; i < a->n; i++) {
		struct sanction *s = &a->v[i];
		if (s->x.kind != STORE_BAN || !in_force(s, now))
			continue;
		if (s->addr ? cidr_match(&s->net, sa) : key[0] && strcmp(s->x.target, key) == 0) {
			explain(a, s->addr ? "this address is banned" : "banned", s);
			return GERR_BANNED;
		}
	}
	return GERR_OK;
}

game_err_t
admin_chat(struct admin *a, const char *name)
{
	char key[AUTH_NAME_MAX + 1];
	auth_name_key(name, key);
	a->why[0] = '\0';
	struct sanction *s = find(a, STORE_MUTE, key);
	if (s && in_force(s, (int64_t)time(NULL))) {
		explain(a, "muted", s);
		return GERR_MUTED;
	}
	return GERR_OK;
}

int
admin_draining(const struct admin *a)
{
	return a->drain;
}

const char *
admin_motd(const struct admin *a)
{
	return a->motd[0] ? a->motd : NULL;
}

/* Tells c why and closes it after the line is out. */
static void
send_off(struct conn *c, const char *text)
{
	proto_msg_t m;
	proto_init(&m, PE_KICKED, NULL);
	snprintf(m.text, sizeof m.text, "%s", text);
	conn_send(c, &m);
	/* its token ends with it: coming back takes a new name, at the door */
	if (c->sess)
		session_revoke(c->sess);
	conn_close(c);
}

/* Disconnects every connection the sanction matches; returns how many. */
static int
send_off_matching(struct admin *a, const struct sanction *s, const char *text)
{
	struct conn *c, *next;
	int n = 0;
	for (c = conns_first(a->srv); c; c = next) {
		next = conns_next(c);
		char key[AUTH_NAME_MAX + 1] = "";
		if (c->sess)
			auth_name_key(c->sess->name, key);
		if (c->closing ||
		    (s->addr ? !cidr_match(&s->net, (const struct sockaddr *)&c->addr)
			     : !key[0] || strcmp(key, s->x.target) != 0))
			continue;
		send_off(c, text);
		n++;
	}
	return n;
}

game_err_t
admin_kick(struct admin *a, const char *who, const char *user, const char *reason)
{
	struct session *s = session_by_name(a->srv, user);
	a->why[0] = '\0';
	if (!s || !s->conn)
		return refuse(a, GERR_NO_USER, "%s is not online", user);
	char text[ADMIN_TEXT_MAX + 1];
	snprintf(
	    text, sizeof text, "kicked%s%s", reason && reason[0] ? ": " : "", reason ? reason : "");
	log_info(&a->srv->log, "admin %s: kick %s%s%s", who, s->name, reason ? ": " : "",
	    reason ? reason : "");
	/* every connection of the name: a bot account may have several */
	for (s = session_named_first(a->srv, user); s; s = session_named_next(s))
		if (s->conn && !s->conn->closing)
			send_off(s->conn, text);
	return GERR_OK;
}

/* The sanction for a target: a name's key, or an address's canonical form;
 * names must be an account or online. */
static game_err_t
target_of(struct admin *a, const char *target, char out[STORE_TARGET_MAX + 1], int name_only)
{
	if (!name_only && (strchr(target, '.') || strchr(target, ':'))) {
		/* canonical: ::ffff:192.0.2.7 is 192.0.2.7, an IPv6 address its /64 */
		struct cidr net;
		int bad = cidr_parse(target, &net) != 0;
		if (!bad)
			cidr_widen(&net, a->srv->cfg.ipv6_prefix);
		if (bad || cidr_format(&net, out, STORE_TARGET_MAX + 1) != 0)
			return refuse(a, GERR_ARGUMENT,
			    "%s is not an IPv4 or IPv6 address or CIDR (192.0.2.0/24, "
			    "2001:db8::/32)",
			    target);
		return GERR_OK;
	}
	size_t n = strlen(target), i = 0;
	while (i < n && (isalnum((unsigned char)target[i]) || target[i] == '_' || target[i] == '-'))
		i++;
	if (i != n || n == 0 || n > AUTH_NAME_MAX || !isalpha((unsigned char)target[0]))
		return refuse(a, GERR_ARGUMENT, "%s is not a user name", target);
	auth_name_key(target, out);
	return GERR_OK;
}

/* A verb's write to the store, made on the store thread with PostgreSQL
 * (on the loop with SQLite): the values copied, the answer filled in. */
struct admin_write {
	struct admin *a;
	enum { W_BAN, W_MUTE, W_UNBAN, W_UNMUTE, W_MOTD } verb;
	char who[STORE_NAME_MAX + 1];
	store_sanction_t x;            /* W_BAN, W_MUTE: the sanction; W_UN*: kind and target */
	int lookup;                    /* the target must be an account (it is not online) */
	char name[STORE_NAME_MAX + 1]; /* that account's name as asked */
	char motd[ADMIN_TEXT_MAX + 1]; /* W_MOTD */
	int no_motd;                   /* W_MOTD: none */
	int ran;                       /* admin_write_run ran */
	int rc;                        /* 0, 1 (no such account), -1 (the store refused) */
	int unavailable;               /* -1 because it could not be reached */
	char err[256];
};

static struct admin_write *
write_new(struct admin *a, int verb, const char *who, game_err_t *e)
{
	struct admin_write *w = calloc(1, sizeof *w);
	if (!w) {
		*e = refuse(a, GERR_NOMEM, "%s", "out of memory");
		return NULL;
	}
	w->a = a;
	w->verb = verb;
	snprintf(w->who, sizeof w->who, "%s", who);
	return w;
}

void
admin_write_free(struct admin_write *w)
{
	free(w);
}

static struct admin_write *
sanction_begin(struct admin *a, int kind, const char *who, const char *target, const char *duration,
    const char *reason, game_err_t *e)
{
	int name_only = kind == STORE_MUTE;
	store_sanction_t x;
	a->why[0] = '\0';
	memset(&x, 0, sizeof x);
	/* a guest's name is the server's to give again, and its address may be
	 * a carrier's NAT: without a duration its ban ends (ADMIN_GUEST_BAN_S) */
	struct session *guest = session_by_name(a->srv, target);
	if (guest && guest->kind != SESSION_GUEST)
		guest = NULL;
	int64_t secs = duration          ? admin_duration(duration)
	    : kind == STORE_BAN && guest ? ADMIN_GUEST_BAN_S
					 : 0;
	if (secs < 0) {
		*e = refuse(a, GERR_ARGUMENT,
		    "bad duration %s: a number and s, m, h, d or w (30m, 2h, 7d), or forever",
		    duration);
		return NULL;
	}
	if ((*e = target_of(a, target, x.target, name_only)) != GERR_OK)
		return NULL;
	struct admin_write *w = write_new(a, kind == STORE_BAN ? W_BAN : W_MUTE, who, e);
	if (!w)
		return NULL;
	/* a name must be someone: online now, or an account (asked of the store) */
	if (!strchr(target, '.') && !strchr(target, ':') && !session_by_name(a->srv, target)) {
		w->lookup = 1;
		snprintf(w->name, sizeof w->name, "%s", target);
	}
	x.kind = kind;
	snprintf(x.by, sizeof x.by, "%s", who);
	snprintf(x.reason, sizeof x.reason, "%s", reason ? reason : "");
	x.created = (int64_t)time(NULL);
	x.expires = secs ? x.created + secs : 0;
	w->x = x;
	return w;
}

struct admin_write *
admin_ban_begin(struct admin *a, const char *who, const char *target, const char *duration,
    const char *reason, game_err_t *e)
{
	return sanction_begin(a, STORE_BAN, who, target, duration, reason, e);
}

struct admin_write *
admin_mute_begin(
    struct admin *a, const char *who, const char *user, const char *duration, game_err_t *e)
{
	return sanction_begin(a, STORE_MUTE, who, user, duration, NULL, e);
}

static struct admin_write *
lift_begin(struct admin *a, int kind, const char *who, const char *target, game_err_t *e)
{
	char key[STORE_TARGET_MAX + 1];
	a->why[0] = '\0';
	if ((*e = target_of(a, target, key, kind == STORE_MUTE)) != GERR_OK)
		return NULL;
	/* a ban stored as the admin spelled it before addresses were made
	 * canonical (::ffff:192.0.2.7, 2001:db8::7) lifts by that spelling */
	if (!find(a, kind, key) && kind == STORE_BAN && find(a, kind, target))
		snprintf(key, sizeof key, "%s", target);
	if (!find(a, kind, key)) {
		*e = refuse(a, GERR_NO_USER,
		    kind == STORE_BAN ? "%s is not banned" : "%s is not muted", target);
		return NULL;
	}
	struct admin_write *w = write_new(a, kind == STORE_BAN ? W_UNBAN : W_UNMUTE, who, e);
	if (w) {
		w->x.kind = kind;
		snprintf(w->x.target, sizeof w->x.target, "%s", key);
	}
	return w;
}

struct admin_write *
admin_unban_begin(struct admin *a, const char *who, const char *target, game_err_t *e)
{
	return lift_begin(a, STORE_BAN, who, target, e);
}

struct admin_write *
admin_unmute_begin(struct admin *a, const char *who, const char *user, game_err_t *e)
{
	return lift_begin(a, STORE_MUTE, who, user, e);
}

struct admin_write *
admin_motd_begin(struct admin *a, const char *who, const char *text, game_err_t *e)
{
	a->why[0] = '\0';
	if (text && strcmp(text, "-") == 0)
		text = NULL;
	if (text && (strlen(text) > ADMIN_TEXT_MAX || !proto_utf8_ok(text, strlen(text)))) {
		*e = refuse(a, GERR_ARGUMENT, "%s", "the MOTD is at most 400 bytes of UTF-8");
		return NULL;
	}
	struct admin_write *w = write_new(a, W_MOTD, who, e);
	if (w) {
		w->no_motd = !text;
		snprintf(w->motd, sizeof w->motd, "%s", text ? text : "");
	}
	return w;
}

void
admin_write_run(struct store *st, void *arg)
{
	struct admin_write *w = arg;
	int rc = 0;
	w->ran = 1;
	if (!st)
		return; /* no store: nothing to keep but memory */
	if (w->lookup) {
		char spelled[STORE_NAME_MAX + 1], hash[AUTH_HASH_MAX];
		if ((rc = store_user_get(st, w->name, spelled, hash, sizeof hash)) > 0) {
			w->rc = 1;
			return;
		}
	}
	if (rc == 0) {
		if (w->verb == W_BAN || w->verb == W_MUTE) {
			rc = store_sanction_put(st, &w->x) != 0 ? -1 : 0;
			/* a banned account's login tokens (REMEMBER) end with the ban */
			if (rc == 0 && w->verb == W_BAN && !strchr(w->x.target, '.') &&
			    !strchr(w->x.target, ':'))
				rc = store_login_drop_user(st, w->x.target) != 0 ? -1 : 0;
		} else if (w->verb == W_MOTD)
			rc = store_setting_put(st, "motd", w->no_motd ? NULL : w->motd) != 0 ? -1
											     : 0;
		else
			rc = store_sanction_drop(st, w->x.kind, w->x.target) < 0 ? -1 : 0;
	}
	if (rc < 0) {
		w->rc = -1;
		w->unavailable = store_unavailable(st);
		snprintf(w->err, sizeof w->err, "%s", store_error(st));
	}
}

game_err_t
admin_write_end(struct admin_write *w)
{
	struct admin *a = w->a;
	struct sanction *s;
	game_err_t e = GERR_OK;
	char text[sizeof a->why], u[64];
	a->why[0] = '\0';
	if (!w->ran) {
		e = refuse(a, GERR_STORE, "%s", "not stored: the database is busy; try again");
	} else if (w->rc > 0) {
		e = refuse(a, GERR_NO_USER, "no account or online user named %s", w->name);
	} else if (w->rc < 0) {
		/* nothing changed: 508 when the database could not be reached */
		e = refuse(a, w->unavailable ? GERR_STORE_DOWN : GERR_STORE,
		    "the store refused it: %s", w->err);
	} else if (w->verb == W_BAN || w->verb == W_MUTE) {
		if (keep(a, &w->x) != 0) {
			e = refuse(a, GERR_NOMEM, "%s", "out of memory");
		} else if (w->verb == W_BAN) {
			s = find(a, STORE_BAN, w->x.target);
			explain(a, "banned", s);
			snprintf(text, sizeof text, "%s", a->why);
			int n = send_off_matching(a, s, text);
			log_info(&a->srv->log, "admin %s: ban %s %s (%d connection%s closed)",
			    w->who, w->x.target, text, n, n == 1 ? "" : "s");
		} else {
			until(w->x.expires, u, sizeof u);
			log_info(&a->srv->log, "admin %s: mute %s %s", w->who, w->x.target, u);
		}
	} else if (w->verb == W_MOTD) {
		snprintf(a->motd, sizeof a->motd, "%s", w->motd);
		log_info(
		    &a->srv->log, "admin %s: motd %s", w->who, w->no_motd ? "(none)" : w->motd);
	} else {
		if ((s = find(a, w->x.kind, w->x.target)) != NULL) /* not lifted meanwhile */
			drop(a, s);
		log_info(&a->srv->log, "admin %s: %s %s", w->who,
		    w->verb == W_UNBAN ? "unban" : "unmute", w->x.target);
	}
	free(w);
	return e;
}

const char *
admin_write_target(const struct admin_write *w)
{
	return w->x.target;
}

static int
by_kind_target(const void *p, const void *q)
{
	const struct sanction *x = p, *y = q;
	return x->x.kind != y->x.kind ? x->x.kind - y->x.kind : strcmp(x->x.target, y->x.target);
}

void
admin_each(struct admin *a, void (*fn)(void *arg, const store_sanction_t *x), void *arg)
{
	int64_t now = (int64_t)time(NULL);
	if (a->n > 1) /* none yet: no array at all, and qsort wants one */
		qsort(a->v, (size_t)a->n, sizeof *a->v, by_kind_target);
	for (int i = 0; i < a->n; i++)
		if (in_force(&a->v[i], now))
			fn(arg, &a->v[i].x);
}

game_err_t
admin_announce(struct admin *a, const char *who, const char *text, int *n)
{
	proto_msg_t m;
	struct conn *c;
	a->why[0] = '\0';
	*n = 0;
	if (!text || !text[0] || strlen(text) > ADMIN_TEXT_MAX ||
	    !proto_utf8_ok(text, strlen(text)))
		return refuse(a, GERR_ARGUMENT, "%s", "say something: at most 400 bytes of UTF-8");
	proto_init(&m, PE_ANNOUNCE, NULL);
	snprintf(m.text, sizeof m.text, "%s", text);
	for (c = conns_first(a->srv); c; c = conns_next(c))
		if (c->state == CS_READY && !c->closing) {
			conn_send(c, &m);
			(*n)++;
		}
	log_info(&a->srv->log, "admin %s: announce to %d: %s", who, *n, text);
	return GERR_OK;
}

void
admin_drain_check(struct admin *a, int games)
{
	if (!a->drain || a->drained || games > 0)
		return;
	a->drained = 1;
	log_info(&a->srv->log, "drained: no game in progress; a restart now interrupts no one");
	notify_send("STATUS=drained: no game in progress");
}

static void
seek_drained(struct session *s)
{
	proto_msg_t m;
	proto_init(&m, PE_ANNOUNCE, NULL);
	snprintf(
	    m.text, sizeof m.text, "the server is draining for a restart: your seek was cancelled");
	session_send(s, &m);
}

void
admin_drain(struct admin *a, const char *who, int on)
{
	a->drain = on;
	a->drained = 0;
	log_info(&a->srv->log, "admin %s: %s", who,
	    on ? "drain: no new games; the running ones play on" : "undrain: new games again");
	notify_send(on ? "STATUS=draining: no new games" : "STATUS=");
	if (on)
		lobby_cancel_all(a->srv, seek_drained);
}
