/* world.c: the one-node world (world.h): no other node has any room,
 * user, seek or challenge, and nothing is told to anyone. Each answer is
 * the one a server without a cluster gives. */
#include "daemon/world.h"

#include <string.h>

static void
alone_room_where(void *w, const char *room, struct world_place *p)
{
	(void)w;
	(void)room;
	memset(p, 0, sizeof *p);
	p->at = WORLD_HERE; /* every id is this node's: a room not here is none */
}

static void
alone_user_where(void *w, const char *name, struct world_place *p)
{
	(void)w;
	(void)name;
	memset(p, 0, sizeof *p);
	p->at = WORLD_NOWHERE;
}

static int
alone_each_line(void *w, proto_id_t kind, int max, world_line_fn *fn, void *arg)
{
	(void)w;
	(void)kind;
	(void)max;
	(void)fn;
	(void)arg;
	return 0;
}

static int
alone_room_users(void *w, struct conn *c, const char *room, int max, world_line_fn *fn, void *arg)
{
	(void)w;
	(void)c;
	(void)room;
	(void)max;
	(void)fn;
	(void)arg;
	return -1;
}

static const char *
alone_watching(void *w, const struct conn *c)
{
	(void)w;
	(void)c;
	return NULL;
}

static int
alone_watches(void *w, const struct conn *c, const char *room)
{
	(void)w;
	(void)c;
	(void)room;
	return 0;
}

static int
alone_challenge_open(void *w, const struct session *s)
{
	(void)w;
	(void)s;
	return 0;
}

static game_err_t
alone_tell(void *w, const char *from, const char *to, const char *text, const char **why)
{
	(void)w;
	(void)from;
	(void)to;
	(void)text;
	(void)why;
	return GERR_NO_USER;
}

static game_err_t
alone_challenge(void *w, struct session *from, const char *to, const struct gamespec *g,
    uint32_t *id, const char **why)
{
	(void)w;
	(void)from;
	(void)to;
	(void)g;
	(void)id;
	(void)why;
	return GERR_NO_USER;
}

static game_err_t
alone_answer(void *w, struct session *s, uint32_t id, int accept)
{
	(void)w;
	(void)s;
	(void)id;
	(void)accept;
	return GERR_NO_OFFER;
}

static game_err_t
alone_watch(void *w, struct conn *c, const proto_msg_t *m, const char **why)
{
	(void)w;
	(void)c;
	(void)m;
	(void)why;
	return GERR_NO_ROOM;
}

static game_err_t
alone_leave(void *w, struct conn *c, const char *room)
{
	(void)w;
	(void)c;
	(void)room;
	return GERR_NOT_IN_ROOM;
}

static game_err_t
alone_join_code(void *w, struct conn *c, const proto_msg_t *m, const char **why)
{
	(void)w;
	(void)c;
	(void)m;
	(void)why;
	return GERR_NO_CODE;
}

static game_err_t
alone_take_seek(void *w, struct conn *c, const proto_msg_t *m, const char **why)
{
	(void)w;
	(void)c;
	(void)m;
	(void)why;
	return GERR_NO_SEEK;
}

static void
alone_session(void *w, struct session *s)
{
	(void)w;
	(void)s;
}

static void
alone_conn(void *w, struct conn *c)
{
	(void)w;
	(void)c;
}

static void
alone_life(void *w)
{
	(void)w;
}

static int
alone_holds(void *w, const struct session *s)
{
	(void)w;
	(void)s;
	return 0;
}

static int
alone_tourney_runs(void *w, int64_t id)
{
	(void)w;
	(void)id;
	return 1;
}

static void
alone_tourney_changed(void *w, int64_t id)
{
	(void)w;
	(void)id;
}

static game_err_t
alone_seat_far(void *w, const char *name, world_seat_fn *fn, void *arg, const char **why)
{
	(void)w;
	(void)name;
	(void)fn;
	(void)arg;
	(void)why;
	return GERR_NO_USER;
}

static void
alone_seat_far_done(void *w, struct session *s, struct room *r)
{
	(void)w;
	(void)s;
	(void)r;
}

static int
alone_engine_live(void *w, const char *name)
{
	(void)w;
	(void)name;
	return 0;
}

static void
alone_each_engine(void *w, world_engine_name_fn *fn, void *arg)
{
	(void)w;
	(void)fn;
	(void)arg;
}

static int
alone_each_node(void *w, world_node_fn *fn, void *arg)
{
	(void)w;
	(void)fn;
	(void)arg;
	return 0;
}

static game_err_t
alone_engine_move(void *w, const struct world_engine_job *j, world_engine_fn *fn, void *arg)
{
	(void)w;
	(void)j;
	(void)fn;
	(void)arg;
	return GERR_ARGUMENT; /* no other node serves any engine */
}

static void
alone_engine_end(void *w, const char *game, int over)
{
	(void)w;
	(void)game;
	(void)over;
}

static const struct world_ops alone = {
	.name = "alone",
	.room_where = alone_room_where,
	.user_where = alone_user_where,
	.each_line = alone_each_line,
	.room_users = alone_room_users,
	.watching = alone_watching,
	.watches = alone_watches,
	.challenge_open = alone_challenge_open,
	.tell = alone_tell,
	.challenge = alone_challenge,
	.answer = alone_answer,
	.watch = alone_watch,
	.leave = alone_leave,
	.join_code = alone_join_code,
	.take_seek = alone_take_seek,
	.seek_unpaired = alone_session,
	.signed_in = alone_session,
	.session_gone = alone_session,
	.session_away = alone_session,
	.session_back = alone_session,
	.session_holds = alone_holds,
	.conn_gone = alone_conn,
	.tourney_runs = alone_tourney_runs,
	.tourney_changed = alone_tourney_changed,
	.seat_far = alone_seat_far,
	.seat_far_done = alone_seat_far_done,
	.engine_live = alone_engine_live,
	.each_engine = alone_each_engine,
	.engine_move = alone_engine_move,
	.engine_end = alone_engine_end,
	.each_node = alone_each_node,
	.stop = alone_life,
	.release = alone_life,
};

struct world
world_alone(void)
{
	return (struct world){ &alone, NULL };
}
