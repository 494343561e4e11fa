/* cmd.c: one handler per request of PROTOCOL.md. A handler either sends its
 * OK reply and returns 0, or returns the error code (and maybe a reason)
 * for the dispatcher to send. */
#include "daemon/cmd.h"

#include <stdio.h>
#include <string.h>

#include <openssl/rand.h>

#include "daemon/account.h"
#include "daemon/botplay.h"
#include "daemon/conn.h"
#include "daemon/lobby.h"
#include "daemon/room.h"
#include "daemon/server.h"
#include "daemon/session.h"

typedef int (*handler_fn)(struct conn *c, const proto_msg_t *m, const char **why);

enum need { NEED_NONE, NEED_HELLO, NEED_NAME, NEED_ANON };

enum { LIST_MAX = 1000 }; /* lines in one ROOMS or WHO reply */

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
	snprintf(r.room, sizeof r.room, "%s", rm->id);
	conn_send(c, &r);
	return 0;
}

/* A room the session may address: private rooms only by their members. */
static struct room *
lookup(struct conn *c, const char *id)
{
	struct room *r = room_find(c->srv, id);
	if (r && r->private && !(c->sess && session_in_room(c->sess, r)))
		return NULL;
	return r;
}

static int
cmd_hello(struct conn *c, const proto_msg_t *m, const char **why)
{
	if (m->version != PROTO_VERSION) {
		*why = "this server speaks protocol 1";
		return ERR_VERSION;
	}
	c->state = CS_READY;
	proto_msg_t r;
	reply_init(&r, m);
	r.version = PROTO_VERSION;
	conn_send(c, &r);
	return 0;
}

static int
cmd_ping(struct conn *c, const proto_msg_t *m, const char **why)
{
	(void)why;
	proto_msg_t r;
	reply_init(&r, m);
	memcpy(r.word, m->word, sizeof r.word);
	conn_send(c, &r);
	return 0;
}

static int
cmd_quit(struct conn *c, const proto_msg_t *m, const char **why)
{
	(void)why;
	proto_msg_t r;
	reply_init(&r, m);
	conn_send(c, &r);
	conn_close(c);
	return 0;
}

static int
cmd_guest(struct conn *c, const proto_msg_t *m, const char **why)
{
	int err = 0;
	if (m->user[0] && (err = account_guest_name(c->srv, m->user, why)) != 0)
		return err;
	struct session *s = session_new(c->srv, m->user[0] ? m->user : NULL, &err);
	if (!s)
		return err;
	s->conn = c;
	c->sess = s;
	log_info(
	    &c->srv->log, "conn %llu %s: guest %s", (unsigned long long)c->id, c->peer, s->name);
	proto_msg_t r;
	reply_init(&r, m);
	snprintf(r.user, sizeof r.user, "%s", s->name);
	snprintf(r.token, sizeof r.token, "%s", s->token);
	conn_send(c, &r);
	return 0;
}

static int
cmd_logout(struct conn *c, const proto_msg_t *m, const char **why)
{
	(void)why;
	if (session_busy(c->sess))
		return ERR_BUSY;
	session_free(c->sess); /* also clears c->sess */
	proto_msg_t r;
	reply_init(&r, m);
	conn_send(c, &r);
	return 0;
}

/* SEEK and CREATE: the settings are sound and the player is free. */
static int
game_request(struct conn *c, const proto_msg_t *m, struct gamespec *g, const char **why)
{
	gamespec_from_msg(g, m);
	int rc = gamespec_check(g, why);
	if (rc)
		return rc;
	return session_busy(c->sess) ? ERR_BUSY : 0;
}

static int
cmd_seek(struct conn *c, const proto_msg_t *m, const char **why)
{
	struct gamespec g;
	int rc = game_request(c, m, &g, why);
	if (rc)
		return rc;
	uint32_t id;
	if ((rc = lobby_seek(c->srv, c->sess, &g, &id)))
		return rc;
	if (c->sess->seek && m->fallback == FALLBACK_BOT) /* not paired at once */
		botplay_seek_fallback(c->srv, c->sess->seek);
	proto_msg_t r;
	reply_init(&r, m);
	r.ident = id;
	conn_send(c, &r);
	return 0;
}

static int
cmd_cancel(struct conn *c, const proto_msg_t *m, const char **why)
{
	(void)why;
	int rc = lobby_cancel(c->srv, c->sess, (uint32_t)m->ident);
	if (rc)
		return rc;
	proto_msg_t r;
	reply_init(&r, m);
	conn_send(c, &r);
	return 0;
}

static int
cmd_create(struct conn *c, const proto_msg_t *m, const char **why)
{
	struct gamespec g;
	int rc = game_request(c, m, &g, why);
	if (rc)
		return rc;
	if (session_make_room(c->sess)) {
		*why = "in too many rooms";
		return ERR_BUSY;
	}
	struct room *rm = room_new(c->srv, &g, 1);
	if (!rm)
		return ERR_INTERNAL;
	room_sit(rm, g.colour == COLOUR_WHITE ? 1 : 0, c->sess);
	proto_msg_t r;
	reply_init(&r, m);
	snprintf(r.room, sizeof r.room, "%s", rm->id);
	snprintf(r.code, sizeof r.code, "%s", rm->code);
	conn_send(c, &r);
	return 0;
}

static int
cmd_join(struct conn *c, const proto_msg_t *m, const char **why)
{
	struct session *s = c->sess;
	struct room *rm = room_by_code(c->srv, m->code);
	if (!rm)
		return ERR_NO_CODE;
	if (session_in_room(s, rm)) {
		*why = "already in that room";
		return ERR_BUSY;
	}
	int free_seat = !rm->seat[0].sess && !rm->seat[0].name[0] ? 0
	    : !rm->seat[1].sess && !rm->seat[1].name[0]           ? 1
								  : -1;
	if (rm->status == ROOM_WAITING && free_seat >= 0) {
		if (session_busy(s))
			return ERR_BUSY;
		if (session_make_room(s)) {
			*why = "in too many rooms";
			return ERR_BUSY;
		}
		room_sit(rm, free_seat, s);
		if (rm->spec.colour == COLOUR_ANY) {
			unsigned char b = 0;
			RAND_bytes(&b, 1);
			if (b & 1) {
				struct seat t = rm->seat[0];
				rm->seat[0] = rm->seat[1];
				rm->seat[1] = t;
			}
		}
		room_start(rm);
	} else {
		int rc = room_watch(rm, s);
		if (rc)
			return rc;
	}
	return ok_room(c, m, rm);
}

static int
cmd_watch(struct conn *c, const proto_msg_t *m, const char **why)
{
	(void)why;
	struct room *rm = room_find(c->srv, m->room);
	if (!rm || rm->private)
		return ERR_NO_ROOM;
	if (room_seat_of(rm, c->sess) < 0) {
		int rc = room_watch(rm, c->sess);
		if (rc)
			return rc;
	}
	room_snapshot(rm, c, PO_WATCH, m->tag);
	return 0;
}

static int
cmd_leave(struct conn *c, const proto_msg_t *m, const char **why)
{
	(void)why;
	struct room *rm = lookup(c, m->room);
	if (!rm)
		return ERR_NO_ROOM;
	if (!session_in_room(c->sess, rm))
		return ERR_NOT_IN_ROOM;
	room_leave(rm, c->sess);
	return ok_room(c, m, rm);
}

static int
cmd_rooms(struct conn *c, const proto_msg_t *m, const char **why)
{
	(void)why;
	proto_msg_t r;
	int n = 0;
	for (struct room *rm = c->srv->rooms; rm && n < LIST_MAX; rm = rm->next) {
		if (rm->private)
			continue;
		room_info(rm, &r);
		conn_send(c, &r);
		n++;
	}
	reply_init(&r, m);
	r.count = n;
	conn_send(c, &r);
	return 0;
}

static void
user_line(struct conn *c, const struct session *s, const struct room *in)
{
	proto_msg_t r;
	proto_init(&r, PD_USER, NULL);
	snprintf(r.user, sizeof r.user, "%s", s->name);
	const struct room *g = session_game(s);
	if (g) {
		r.ustate = USER_PLAYING;
		snprintf(r.room, sizeof r.room, "%s", g->private ? "" : g->id);
	} else if (s->seek) {
		r.ustate = USER_SEEKING;
	} else if (in && room_seat_of(in, s) < 0) {
		r.ustate = USER_WATCHING;
		snprintf(r.room, sizeof r.room, "%s", in->id);
	} else {
		r.ustate = USER_IDLE;
	}
	conn_send(c, &r);
}

static int
cmd_who(struct conn *c, const proto_msg_t *m, const char **why)
{
	(void)why;
	int n = 0;
	if (m->room[0]) {
		struct room *rm = lookup(c, m->room);
		if (!rm)
			return ERR_NO_ROOM;
		for (int i = 0; i < 2; i++)
			if (rm->seat[i].sess) {
				user_line(c, rm->seat[i].sess, rm);
				n++;
			}
		for (int i = 0; i < rm->nspec && n < LIST_MAX; i++, n++)
			user_line(c, rm->spec_list[i], rm);
	} else {
		for (struct session *s = c->srv->sessions; s && n < LIST_MAX; s = s->next)
			if (s->conn) {
				user_line(c, s, NULL);
				n++;
			}
	}
	proto_msg_t r;
	reply_init(&r, m);
	r.count = n;
	conn_send(c, &r);
	return 0;
}

static int
cmd_move(struct conn *c, const proto_msg_t *m, const char **why)
{
	struct room *rm = lookup(c, m->room);
	if (!rm)
		return ERR_NO_ROOM;
	uint32_t seq = rm->seq + 1; /* the seq of the * MOVE it makes */
	int rc = room_move(rm, c->sess, m->move, why);
	if (rc)
		return rc;
	proto_msg_t r;
	reply_init(&r, m);
	snprintf(r.room, sizeof r.room, "%s", rm->id);
	r.seq = seq;
	conn_send(c, &r);
	return 0;
}

static int
cmd_swap2(struct conn *c, const proto_msg_t *m, const char **why)
{
	struct room *rm = lookup(c, m->room);
	if (!rm)
		return ERR_NO_ROOM;
	int rc = room_swap2(rm, c->sess, m, why);
	if (rc)
		return rc;
	proto_msg_t r;
	reply_init(&r, m);
	snprintf(r.room, sizeof r.room, "%s", rm->id);
	r.seq = rm->seq;
	conn_send(c, &r);
	return 0;
}

/* RESIGN, ABORT, CLAIM: a room action with an OK <VERB> <room> reply. */
static int
cmd_room_action(struct conn *c, const proto_msg_t *m, const char **why)
{
	(void)why;
	struct room *rm = lookup(c, m->room);
	if (!rm)
		return ERR_NO_ROOM;
	int rc = m->id == PR_RESIGN ? room_resign(rm, c->sess)
	    : m->id == PR_ABORT     ? room_abort(rm, c->sess)
				    : room_claim(rm, c->sess);
	return rc ? rc : ok_room(c, m, rm);
}

static int
cmd_offer(struct conn *c, const proto_msg_t *m, const char **why)
{
	struct room *rm = lookup(c, m->room);
	if (!rm)
		return ERR_NO_ROOM;
	uint32_t id;
	int rc = room_offer(rm, c->sess, m->offer, &id, why);
	if (rc)
		return rc;
	proto_msg_t r;
	reply_init(&r, m);
	snprintf(r.room, sizeof r.room, "%s", rm->id);
	r.ident = id;
	conn_send(c, &r);
	return 0;
}

static int
cmd_answer(struct conn *c, const proto_msg_t *m, const char **why)
{
	(void)why;
	struct room *rm = lookup(c, m->room);
	if (!rm)
		return ERR_NO_ROOM;
	int rc = room_answer(rm, c->sess, (uint32_t)m->ident, m->id == PR_ACCEPT);
	if (rc)
		return rc;
	proto_msg_t r;
	reply_init(&r, m);
	snprintf(r.room, sizeof r.room, "%s", rm->id);
	r.ident = m->ident;
	conn_send(c, &r);
	return 0;
}

static int
cmd_say(struct conn *c, const proto_msg_t *m, const char **why)
{
	struct room *rm = lookup(c, m->room);
	if (!rm)
		return ERR_NO_ROOM;
	if (!session_in_room(c->sess, rm))
		return ERR_NOT_IN_ROOM;
	if (!conn_chat_ok(c)) {
		*why = "too many chat lines";
		return ERR_RATE;
	}
	int rc = room_say(rm, c->sess, m->text);
	return rc ? rc : ok_room(c, m, rm);
}

static int
cmd_tell(struct conn *c, const proto_msg_t *m, const char **why)
{
	struct session *to = session_by_name(c->srv, m->user);
	if (!to || !to->conn)
		return ERR_NO_USER;
	if (!conn_chat_ok(c)) {
		*why = "too many chat lines";
		return ERR_RATE;
	}
	proto_msg_t e;
	proto_init(&e, PE_TELL, NULL);
	snprintf(e.user, sizeof e.user, "%s", c->sess->name);
	memcpy(e.text, m->text, sizeof e.text);
	conn_send(to->conn, &e);
	proto_msg_t r;
	reply_init(&r, m);
	snprintf(r.user, sizeof r.user, "%s", to->name);
	conn_send(c, &r);
	return 0;
}

static int
cmd_state(struct conn *c, const proto_msg_t *m, const char **why)
{
	(void)why;
	struct room *rm = lookup(c, m->room);
	if (!rm)
		return ERR_NO_ROOM;
	if (!session_in_room(c->sess, rm))
		return ERR_NOT_IN_ROOM;
	room_snapshot(rm, c, PO_STATE, m->tag);
	return 0;
}

static int
cmd_resume(struct conn *c, const proto_msg_t *m, const char **why)
{
	struct session *s = session_by_token(c->srv, m->token);
	struct room *rm = room_find(c->srv, m->room);
	char name[PROTO_NAME_MAX + 1];
	int seat;
	/* after a restart: the token the store remembers, and the seat by its name */
	if (!s && rm && session_stored_name(c->srv, m->token, name) == 0 &&
	    (seat = room_seat_name(rm, name)) >= 0 &&
	    (s = session_adopt(c->srv, name, m->token)) != NULL)
		room_seat_restored(rm, seat, s);
	if (!s || !rm || room_seat_of(rm, s) < 0) {
		*why = "no seat for that token in that room";
		return ERR_RESUME;
	}
	if (s->conn) {
		struct conn *old = s->conn;
		old->sess = NULL;
		s->conn = NULL;
		conn_kill(old, "its session was resumed on another connection");
	}
	s->conn = c;
	c->sess = s;
	log_info(&c->srv->log, "conn %llu %s: %s resumed in %s", (unsigned long long)c->id, c->peer,
	    s->name, rm->id);
	room_back(rm, s);
	room_snapshot(rm, c, PO_RESUME, m->tag);
	return 0;
}

static const struct {
	handler_fn fn;
	enum need need;
} table[PM_COUNT] = {
	[PR_HELLO] = { cmd_hello, NEED_NONE },
	[PR_PING] = { cmd_ping, NEED_NONE },
	[PR_QUIT] = { cmd_quit, NEED_NONE },
	[PR_GUEST] = { cmd_guest, NEED_ANON },
	[PR_REGISTER] = { account_register, NEED_ANON },
	[PR_LOGIN] = { account_login, NEED_ANON },
	[PR_RESUME] = { cmd_resume, NEED_ANON },
	[PR_ROOMS] = { cmd_rooms, NEED_HELLO },
	[PR_WHO] = { cmd_who, NEED_HELLO },
	[PR_LOGOUT] = { cmd_logout, NEED_NAME },
	[PR_SEEK] = { cmd_seek, NEED_NAME },
	[PR_CANCEL] = { cmd_cancel, NEED_NAME },
	[PR_CREATE] = { cmd_create, NEED_NAME },
	[PR_JOIN] = { cmd_join, NEED_NAME },
	[PR_WATCH] = { cmd_watch, NEED_NAME },
	[PR_LEAVE] = { cmd_leave, NEED_NAME },
	[PR_MOVE] = { cmd_move, NEED_NAME },
	[PR_SWAP2] = { cmd_swap2, NEED_NAME },
	[PR_RESIGN] = { cmd_room_action, NEED_NAME },
	[PR_ABORT] = { cmd_room_action, NEED_NAME },
	[PR_CLAIM] = { cmd_room_action, NEED_NAME },
	[PR_OFFER] = { cmd_offer, NEED_NAME },
	[PR_ACCEPT] = { cmd_answer, NEED_NAME },
	[PR_DECLINE] = { cmd_answer, NEED_NAME },
	[PR_SAY] = { cmd_say, NEED_NAME },
	[PR_TELL] = { cmd_tell, NEED_NAME },
	[PR_STATE] = { cmd_state, NEED_NAME },
	[PR_BOT_PLAY] = { botplay_play, NEED_NAME },
	[PR_BOT_SEAT] = { botplay_seat, NEED_NAME },
	[PR_HISTORY] = { account_history, NEED_HELLO },
	[PR_EXPORT] = { account_export, NEED_HELLO },
	[PR_STATS] = { account_stats, NEED_HELLO },
	[PR_TOP] = { account_top, NEED_HELLO },
};

void
cmd_dispatch(struct conn *c, const proto_msg_t *m)
{
	if (m->id <= PM_NONE || m->id >= PM_COUNT || !table[m->id].fn) {
		conn_error(c, m->tag, ERR_UNKNOWN, NULL);
		return;
	}
	enum need need = table[m->id].need;
	int rc = 0;
	const char *why = NULL;
	if (c->srv->draining && m->id != PR_QUIT && m->id != PR_PING)
		rc = ERR_SHUTDOWN;
	else if (need != NEED_NONE && c->state != CS_READY)
		rc = ERR_HELLO_FIRST;
	else if (need == NEED_NAME && !c->sess)
		rc = ERR_LOGIN_FIRST;
	else if (need == NEED_ANON && c->sess)
		rc = ERR_LOGGED_IN;
	else
		rc = table[m->id].fn(c, m, &why);
	if (rc)
		conn_error(c, m->tag, rc, why ? "%s" : NULL, why);
}
