/* test_core.c: rooms, sessions, the lobby and challenges linked alone
 * (issue 40): with the one-node world (world_alone), no store, and no
 * network code at all (no connection, command table, transport or
 * cluster object is linked; tests/module.mk names the objects). A
 * session's connection is a stand-in: the session only asks whether it
 * has one, and speaks to it through its sink, which records every line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>
#include <event2/event.h>

#include "daemon/challenge.h"
#include "daemon/core.h"
#include "daemon/gc.h"
#include "daemon/lobby.h"
#include "daemon/metrics.h"
#include "daemon/room.h"
#include "daemon/session.h"
#include "daemon/sink.h"
#include "daemon/world.h"

enum { LINES_MAX = 256 };

/* A user's end: every line its session's sink was handed, and whether the
 * session let go of it. */
struct phone {
	struct sink sink;
	char lines[LINES_MAX][PROTO_LINE_MAX];
	int n;
	int dropped;
};

static void
record(struct phone *p, const char *line, size_t n)
{
	if (p->n < LINES_MAX) {
		snprintf(p->lines[p->n], sizeof p->lines[0], "%.*s",
		    (int)(n && line[n - 1] == '\n' ? n - 1 : n), line);
		p->n++;
	}
}

static void
phone_deliver(struct sink *k, struct room *r, const proto_msg_t *m, const char *line, size_t n)
{
	(void)r;
	(void)m;
	record((struct phone *)(void *)k, line, n);
}

static void
phone_say(struct sink *k, const proto_msg_t *m)
{
	char line[PROTO_LINE_MAX];
	int n = proto_format(m, line, sizeof line);
	assert_true(n > 0);
	record((struct phone *)(void *)k, line, (size_t)n);
}

static void
phone_drop(struct sink *k)
{
	((struct phone *)(void *)k)->dropped = 1;
}

static const struct sink_ops phone_ops = { phone_deliver, phone_say, phone_drop };

/* The last line of p that starts with prefix, or NULL. */
static const char *
heard(const struct phone *p, const char *prefix)
{
	for (int i = p->n - 1; i >= 0; i--)
		if (strncmp(p->lines[i], prefix, strlen(prefix)) == 0)
			return p->lines[i];
	return NULL;
}

static void
gc_pass(void *arg)
{
	struct server *srv = arg;
	for (int more = 1; more;)
		more = sessions_gc(srv) | (rooms_gc(srv->rooms) > 0);
}

static void
world_session_hook(void *arg, struct session *s)
{
	struct server *srv = arg;
	world_session_gone(&srv->world, s);
}

/* A server of the core's owners alone, as server.c puts it together. */
static struct server *
core_new(void)
{
	static struct server srv;
	memset(&srv, 0, sizeof srv);
	config_defaults(&srv.cfg);
	log_init(&srv.log, LOGL_ERROR);
	srv.world = world_alone();
	assert_non_null(srv.base = event_base_new());
	assert_non_null(srv.gc = gc_new(srv.base, gc_pass, &srv));
	assert_non_null(srv.metrics = metrics_new());
	assert_non_null(srv.lobby = lobby_new());
	assert_non_null(srv.challenges = challenges_new());
	assert_non_null(srv.sessions = sessions_new());
	assert_non_null(srv.rooms = rooms_new("r", &session_members));
	static const struct session_owner world_owner = {
		.away = world_session_hook,
		.gone = world_session_hook,
	};
	assert_int_equal(sessions_add_owner(&srv, &lobby_owner, &srv), 0);
	assert_int_equal(sessions_add_owner(&srv, &challenge_owner, &srv), 0);
	assert_int_equal(sessions_add_owner(&srv, &world_owner, &srv), 0);
	return &srv;
}

static void
core_free(struct server *srv)
{
	rooms_free(srv->rooms);
	sessions_free(srv);
	lobby_free(srv);
	challenge_free_all(srv);
	metrics_free(srv->metrics);
	gc_free(srv->gc);
	event_base_free(srv->base);
}

/* The next loop turn: the gc pass, deferred timers. */
static void
turn(struct server *srv)
{
	event_base_loop(srv->base, EVLOOP_NONBLOCK);
}

/* A connected user named name whose lines go to p. */
static struct session *
user(struct server *srv, const char *name, struct phone *p)
{
	char out[PROTO_NAME_MAX + 1], token[SESSION_TOKEN_LEN + 1], digest[AUTH_DIGEST_LEN + 1];
	memset(p, 0, sizeof *p);
	p->sink.ops = &phone_ops;
	assert_int_equal(session_prepare(srv, name, out, token, digest), 0);
	struct session *s = session_adopt(srv, out, token, SESSION_GUEST);
	assert_non_null(s);
	/* the connection stand-in: a session only tests it for NULL */
	session_attach(s, (struct conn *)(void *)p, &p->sink, NULL);
	return s;
}

static int
any_seek(void *arg, const struct seek *k)
{
	(void)arg;
	(void)k;
	return 0;
}

static const struct gamespec casual = { RULE_FREESTYLE, 15, 0, 0, WISH_ANY, 0, OPEN_FREE };

static void
move(struct room *r, struct session *s, const char *mv)
{
	struct room_act act;
	assert_int_equal(room_move(r, s, mv, NULL, &act), GERR_OK);
}

/* The world alone answers as a server with no cluster. */
static void
test_world_alone(void **st)
{
	(void)st;
	struct server *srv = core_new();
	struct world_place p;
	const char *why = NULL;
	uint32_t id = 0;
	world_room_where(&srv->world, "b12", &p);
	assert_int_equal(p.at, WORLD_HERE);
	world_user_where(&srv->world, "nobody", &p);
	assert_int_equal(p.at, WORLD_NOWHERE);
	assert_false(p.away);
	assert_int_equal(world_each_line(&srv->world, PD_USER, 100, NULL, NULL), 0);
	assert_int_equal(world_tell(&srv->world, "a", "b", "hi", &why), GERR_NO_USER);
	assert_int_equal(world_challenge(&srv->world, NULL, "b", &casual, &id, &why), GERR_NO_USER);
	assert_int_equal(world_answer(&srv->world, NULL, 7, 1), GERR_NO_OFFER);
	assert_int_equal(world_join_code(&srv->world, NULL, NULL, &why), GERR_NO_CODE);
	assert_int_equal(world_leave(&srv->world, NULL, "r1"), GERR_NOT_IN_ROOM);
	assert_null(world_watching(&srv->world, NULL));
	core_free(srv);
}

/* Two seeks pair into a room whose game starts; the room's events reach
 * both players and a spectator through the sessions' sinks; five ends it. */
static void
test_seek_play_five(void **st)
{
	(void)st;
	struct server *srv = core_new();
	static struct phone pa, pb, pc;
	struct session *a = user(srv, "ann", &pa), *b = user(srv, "bob", &pb);
	struct session *c = user(srv, "cat", &pc);
	struct gamespec black = casual, white = casual, renju = casual;
	black.colour = WISH_BLACK;
	white.colour = WISH_WHITE;
	renju.rule = RULE_RENJU;
	uint32_t id;
	assert_int_equal(lobby_seek(srv, a, &black, 1, 0, NULL, &id), GERR_OK);
	assert_non_null(a->seek);
	assert_int_equal(
	    lobby_seek(srv, c, &renju, 1, 0, NULL, &id), GERR_OK); /* no match: waits */
	assert_int_equal(lobby_seek(srv, b, &white, 1, 0, NULL, &id), GERR_OK);
	assert_null(a->seek);
	assert_null(b->seek);
	assert_non_null(c->seek);
	struct room *r = session_game(a);
	assert_non_null(r);
	assert_ptr_equal(session_game(b), r);
	assert_int_equal(room_status(r), GAME_PLAYING);
	assert_int_equal(room_seat_of(r, a), 0);
	assert_int_equal(room_seat_of(r, b), 1);
	assert_non_null(heard(&pa, "* START "));
	assert_non_null(heard(&pb, "* START "));
	assert_int_equal(lobby_cancel(srv, c, 0), GERR_OK);
	assert_int_equal(room_watch(r, c), GERR_OK);
	struct room_act act;
	assert_int_equal(room_move(r, b, "h8", NULL, &act), GERR_NOT_TURN);
	move(r, a, "h8");
	assert_int_equal(room_move(r, b, "h8", NULL, &act), GERR_ILLEGAL);
	static const char *const rest[] = { "a1", "i8", "a2", "j8", "a3", "k8", "a4", "l8" };
	for (int i = 0; i < 8; i++)
		move(r, i % 2 ? a : b, rest[i]);
	assert_int_equal(room_status(r), GAME_OVER);
	char over[64];
	snprintf(over, sizeof over, "* OVER %s ", room_id(r));
	for (struct phone *p = &pa; p; p = p == &pa ? &pb : p == &pb ? &pc : NULL) {
		const char *l = heard(p, over);
		assert_non_null(l);
		assert_non_null(strstr(l, " black five "));
	}
	assert_non_null(heard(&pc, "* MOVE "));
	assert_null(session_game(a));
	core_free(srv);
}

/* A challenge: the one challenged hears it through the session's sink,
 * accepting seats both in a new room; a second while one is open, and
 * oneself, are refused; a declined one ends for both. */
static void
test_challenge(void **st)
{
	(void)st;
	struct server *srv = core_new();
	static struct phone pa, pb, pc;
	struct session *a = user(srv, "ann", &pa), *b = user(srv, "bob", &pb);
	struct session *c = user(srv, "cat", &pc);
	uint32_t id, id2;
	assert_int_equal(challenge_new(srv, a, a, &casual, &id), GERR_ARGUMENT);
	assert_int_equal(challenge_new(srv, a, b, &casual, &id), GERR_OK);
	assert_non_null(heard(&pb, "* CHALLENGE "));
	assert_true(challenge_pending(srv, a));
	assert_int_equal(challenge_new(srv, a, c, &casual, &id2), GERR_OFFER_PENDING);
	assert_int_equal(challenge_answer(srv, a, id, 1), GERR_NOT_PLAYER);
	assert_int_equal(challenge_answer(srv, b, id, 1), GERR_OK);
	struct room *r = session_game(a);
	assert_non_null(r);
	assert_ptr_equal(session_game(b), r);
	assert_false(challenge_pending(srv, a));
	assert_non_null(heard(&pa, "* START "));
	/* busy players cannot be challenged */
	assert_int_equal(challenge_new(srv, c, a, &casual, &id2), GERR_BUSY);
	assert_int_equal(challenge_new(srv, a, c, &casual, &id2), GERR_BUSY);
	core_free(srv);
}

/* One clean-up path: a session whose connection goes leaves the lobby and
 * its challenges through the hooks; its seat is kept for the grace time;
 * once idle, the gc pass frees it. */
static void
test_session_gone(void **st)
{
	(void)st;
	struct server *srv = core_new();
	static struct phone pa, pb, pc;
	struct session *a = user(srv, "ann", &pa), *b = user(srv, "bob", &pb);
	struct session *c = user(srv, "cat", &pc);
	uint32_t id;
	assert_int_equal(lobby_seek(srv, c, &casual, 1, 0, NULL, &id), GERR_OK);
	assert_int_equal(challenge_new(srv, a, b, &casual, &id), GERR_OK);
	/* cat goes away: its seek waits for it, untakeable; the session stays */
	session_attach(c, NULL, NULL, NULL);
	session_disconnected(c);
	assert_non_null(c->seek);
	assert_true(lobby_away(c->seek) && lobby_held(c->seek));
	/* ann goes away: her challenge waits too, and bob hears nothing */
	session_attach(a, NULL, NULL, NULL);
	session_disconnected(a);
	assert_true(challenge_pending(srv, a));
	assert_null(heard(&pb, "* CHALLENGEEND "));
	turn(srv); /* the gc pass: both hold something, both stay */
	assert_int_equal(sessions_count(srv), 3);
	/* cat is back: its seek is listed again */
	session_attach(c, (struct conn *)(void *)&pc, &pc.sink, NULL);
	session_back(c);
	assert_false(lobby_away(c->seek) || lobby_held(c->seek));
	assert_int_equal(lobby_each(srv, any_seek, NULL), 1);
	/* ann's session ends: her challenge ends for bob; cat's, its seek */
	session_free(a);
	assert_non_null(heard(&pb, "* CHALLENGEEND "));
	session_free(c);
	assert_int_equal(lobby_each(srv, any_seek, NULL), 0);
	turn(srv);
	assert_int_equal(sessions_count(srv), 1);
	assert_ptr_equal(sessions_first(srv), b);
	/* bob's session freed with its connection still there lets go of it */
	session_free(b);
	assert_true(pb.dropped);
	core_free(srv);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_world_alone),
		cmocka_unit_test(test_seek_play_five),
		cmocka_unit_test(test_challenge),
		cmocka_unit_test(test_session_gone),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
