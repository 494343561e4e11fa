/* attach.c: the Redis cluster as the core's world (world.h, attach.h).
 * Each operation answers from cluster.c (presence, watches, TELL) or
 * clusterlobby.c (seeks, challenges, JOIN codes); this file only
 * translates between the contract and them. */
#include "daemon/cluster/attach.h"

#include <stdio.h>
#include <string.h>

#include "daemon/cluster/cluster.h"
#include "daemon/cluster/clusterlobby.h"
#include "daemon/cluster/tlease.h"
#include "daemon/room.h"
#include "daemon/core.h"

static void
room_where(void *w, const char *room, struct world_place *p)
{
	struct cluster *cl = w;
	char node[CONFIG_NODE_MAX + 1];
	memset(p, 0, sizeof *p);
	if (cluster_owner(cl, room, node) != 0) {
		p->at = WORLD_NOWHERE; /* not an id: no node has it */
		return;
	}
	if (strcmp(node, cluster_node(cl)) == 0) {
		p->at = WORLD_HERE;
		return;
	}
	const char *addr = cluster_node_addr(cl, node);
	p->at = WORLD_THERE;
	snprintf(p->node, sizeof p->node, "%s", node);
	snprintf(p->addr, sizeof p->addr, "%s", addr ? addr : "");
	p->away = !cluster_up(cl);
}

static void
user_where(void *w, const char *name, struct world_place *p)
{
	struct cluster *cl = w;
	memset(p, 0, sizeof *p);
	const char *node = cluster_user_node(cl, name, p->name);
	p->away = !cluster_up(cl);
	if (!node) {
		p->at = WORLD_NOWHERE;
		p->name[0] = '\0';
		return;
	}
	const char *addr = cluster_node_addr(cl, node);
	p->at = WORLD_THERE;
	snprintf(p->node, sizeof p->node, "%s", node);
	snprintf(p->addr, sizeof p->addr, "%s", addr ? addr : "");
}

static int
each_line(void *w, proto_id_t kind, int max, world_line_fn *fn, void *arg)
{
	return cluster_each(w, kind, max, fn, arg);
}

static int
room_users(void *w, struct conn *c, const char *room, int max, world_line_fn *fn, void *arg)
{
	struct cluster *cl = w;
	if (!room_find(cluster_server(cl), room) && !cluster_room_listed(cl, room) &&
	    !cluster_watching(cl, c, room))
		return -1;
	int n = cluster_each_in(cl, room, max, fn, arg);
	return n + cluster_watchers_here(cl, room, max - n, fn, arg);
}

static const char *
watching(void *w, const struct conn *c)
{
	return cluster_watched(w, c);
}

static int
watches(void *w, const struct conn *c, const char *room)
{
	return cluster_watching(w, c, room);
}

static int
challenge_open(void *w, const struct session *s)
{
	return clobby_pending(cluster_lobby(w), s);
}

static game_err_t
tell(void *w, const char *from, const char *to, const char *text, const char **why)
{
	return cluster_tell(w, from, to, text, why);
}

static game_err_t
challenge(void *w, struct session *from, const char *to, const struct gamespec *g, uint32_t *id,
    const char **why)
{
	return clobby_challenge(cluster_lobby(w), from, to, g, id, why);
}

static game_err_t
answer(void *w, struct session *s, uint32_t id, int accept)
{
	return clobby_answer(cluster_lobby(w), s, id, accept);
}

static game_err_t
watch(void *w, struct conn *c, const proto_msg_t *m, const char **why)
{
	return cluster_watch(w, c, m, why);
}

static game_err_t
leave(void *w, struct conn *c, const char *room)
{
	return cluster_leave(w, c, room);
}

static game_err_t
join_code(void *w, struct conn *c, const proto_msg_t *m, const char **why)
{
	return clobby_join(cluster_lobby(w), c, m, why);
}

static game_err_t
take_seek(void *w, struct conn *c, const proto_msg_t *m, const char **why)
{
	return clobby_take(cluster_lobby(w), c, m, why);
}

static void
seek_unpaired(void *w, struct session *s)
{
	clobby_seek(cluster_lobby(w), s);
}

static void
signed_in(void *w, struct session *s)
{
	clobby_signed_in(cluster_lobby(w), s);
}

static void
session_gone(void *w, struct session *s)
{
	clobby_gone(cluster_lobby(w), s);
}

static void
session_away(void *w, struct session *s)
{
	clobby_away(cluster_lobby(w), s);
}

static void
session_back(void *w, struct session *s)
{
	clobby_back(cluster_lobby(w), s);
}

static int
session_holds(void *w, const struct session *s)
{
	return clobby_holds(cluster_lobby(w), s);
}

static void
conn_gone(void *w, struct conn *c)
{
	clobby_conn_gone(cluster_lobby(w), c); /* its JOIN asked of the others */
	cluster_conn_gone(w, c);               /* its watches of rooms elsewhere */
}

static int
tourney_runs(void *w, int64_t id)
{
	return tlease_runs(cluster_tlease(w), id);
}

static void
tourney_changed(void *w, int64_t id)
{
	tlease_changed(cluster_tlease(w), id);
}

static game_err_t
seat_far(void *w, const char *name, world_seat_fn *fn, void *arg, const char **why)
{
	return clobby_seat(cluster_lobby(w), name, fn, arg, why);
}

static void
seat_far_done(void *w, struct session *s, struct room *r)
{
	clobby_seated(cluster_lobby(w), s, r);
}

static int
engine_live(void *w, const char *name)
{
	return cluster_engine_live(w, name);
}

static void
each_engine(void *w, world_engine_name_fn *fn, void *arg)
{
	cluster_each_engine(w, fn, arg);
}

static int
each_node(void *w, world_node_fn *fn, void *arg)
{
	return cluster_each_node(w, fn, arg);
}

static game_err_t
engine_move(void *w, const struct world_engine_job *j, world_engine_fn *fn, void *arg)
{
	return cluster_engine_move(w, j, fn, arg);
}

static void
engine_end(void *w, const char *game, int over)
{
	cluster_engine_end(w, game, over);
}

static void
stop(void *w)
{
	cluster_stop(w);
}

static void
release(void *w)
{
	cluster_release(w);
}

static const struct world_ops cluster_world = {
	.name = "cluster",
	.room_where = room_where,
	.user_where = user_where,
	.each_line = each_line,
	.room_users = room_users,
	.watching = watching,
	.watches = watches,
	.challenge_open = challenge_open,
	.tell = tell,
	.challenge = challenge,
	.answer = answer,
	.watch = watch,
	.leave = leave,
	.join_code = join_code,
	.take_seek = take_seek,
	.seek_unpaired = seek_unpaired,
	.signed_in = signed_in,
	.session_gone = session_gone,
	.session_away = session_away,
	.session_back = session_back,
	.session_holds = session_holds,
	.conn_gone = conn_gone,
	.tourney_runs = tourney_runs,
	.tourney_changed = tourney_changed,
	.seat_far = seat_far,
	.seat_far_done = seat_far_done,
	.engine_live = engine_live,
	.each_engine = each_engine,
	.each_node = each_node,
	.engine_move = engine_move,
	.engine_end = engine_end,
	.stop = stop,
	.release = release,
};

int
cluster_attach(struct server *srv, struct world *w, char *err, size_t errlen)
{
	struct cluster *cl = cluster_new(srv, err, errlen);
	if (!cl)
		return err[0] ? -1 : 1;
	*w = (struct world){ &cluster_world, cl };
	return 0;
}
