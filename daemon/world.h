/* world.h: this node among others (issue 40). The contract between the
 * core and any way of joining nodes, as Redis's cluster.h is: the core
 * asks where a room or a user is, for the other nodes' lines of WHO,
 * ROOMS and SEEKS, and hands over what only another node can do (a TELL,
 * a CHALLENGE or its ANSWER with a user there, a WATCH of a room there,
 * a JOIN code no room here has); it tells the world the facts another
 * node may need (a seek here found no partner, an account signed in, a
 * session or a connection gone).
 *
 * A world is a table of operations and the state behind it. The server
 * always holds one: world_alone() until the composition root (server.c)
 * attaches another, and again once it detached it. "alone" is one node:
 * every answer is what a server with no cluster configured answers, and
 * the core's unit tests use it. The Redis cluster (daemon/cluster/) is
 * the other; the core never includes it or calls it by name.
 *
 * Answers are domain values: a place (here, there, nowhere) and
 * game_err_t, never wire codes. The listings hand on the other nodes'
 * data lines as those nodes published them (proto_msg_t, the protocol's
 * own value: = USER, = ROOM, = SEEK). A world changes the core's state
 * only through its owners' verbs (session_await, lobby_hold,
 * challenge_next_id, conn_hold, ...), never by writing their fields.
 *
 * Adding an operation (a later capability: "where is tournament T", a
 * review job, the games of a bot account on other nodes): append a member
 * to struct world_ops in domain terms; give world.c's alone table the
 * one-node answer (a lone server must behave as if the operation were not
 * there); add a world_* verb below that calls it; implement it in
 * daemon/cluster/. No member is ever NULL, so no caller tests for one.
 * Everything runs on the loop thread. */
#ifndef GOMOKUD_WORLD_H
#define GOMOKUD_WORLD_H

#include <stdint.h>

#include "daemon/config.h"
#include "daemon/game.h"
#include "proto/proto.h"

struct conn;
struct room;
struct session;

/* Where a room or a user is. */
enum world_at {
	WORLD_HERE,    /* this node's (a room it does not have exists nowhere) */
	WORLD_THERE,   /* on node `node`, which takes players at `addr` */
	WORLD_NOWHERE, /* no node has it, as far as the world heard */
};

struct world_place {
	enum world_at at;
	char node[CONFIG_NODE_MAX + 1]; /* WORLD_THERE: the node's name */
	/* WORLD_THERE: host:port where the node takes players; "" while it is
	 * not heard from */
	char addr[CONFIG_ADVERTISE_MAX + 1];
	char name[PROTO_NAME_MAX + 1]; /* a user: the name as its node spells it */
	int away; /* the other nodes cannot be reached now (what was heard may be old) */
};

/* A data line of another node's, for a listing. */
typedef void world_line_fn(void *arg, const proto_msg_t *m);
/* A seat here for another node's player (seat_far), or NULL. */
typedef void world_seat_fn(void *arg, struct session *s);

/* A hosted engine's move another node's worker is asked for (issue 49):
 * the whole position, so that any worker with the engine can take it,
 * starting a brain for the game from it (BOARD) when it has none. */
struct world_engine_job {
	const char *game;   /* the game's key: its room's id and the seat, "<room>.<seat>" */
	const char *engine; /* the engine's name (hosted.h) */
	rule_t rule;
	int size;
	const move_t *moves; /* the game so far, black first; the engine is to move */
	int n;
	int time_left_ms; /* its clock, 0: none */
	int inc_ms;
};
/* A move's end: status 0 with m, or one of these with why. */
enum {
	WORLD_ENGINE_FORFEIT = -1, /* the brain failed its game (hosted.h's HOSTED_FORFEIT) */
	WORLD_ENGINE_FULL = -2,    /* the worker holds no brain more now: ask again soon */
	WORLD_ENGINE_LOST = -3,    /* no worker answered (Redis went, ...): ask again */
};
/* A node of the world as this one last heard it, for the admin
 * (gomokuctl nodes). */
struct world_node {
	char name[CONFIG_NODE_MAX + 1];
	char addr[CONFIG_ADVERTISE_MAX + 1]; /* where its players connect */
	/* the engines it serves to others, "<name>:<hash>,..." as its
	 * presence says them (the hash: of the engine's config line), "" none */
	char engines[240];
	int users;        /* its users online, as its presence listed them */
	int64_t heard_ms; /* since its presence was last heard */
};
typedef void world_node_fn(void *arg, const struct world_node *n);
typedef void world_engine_fn(void *arg, int status, move_t m, const char *why);
typedef void world_engine_name_fn(void *arg, const char *name);

struct world_ops {
	const char *name; /* for logs: "alone", "cluster" */

	/* --- questions --- */
	/* Where the room with this id is, when no room here has it: HERE
	 * (this node would own it, so there is no such room), THERE, or
	 * NOWHERE (an id no node could own). */
	void (*room_where)(void *w, const char *room, struct world_place *p);
	/* Where the user of this name (any case) is online on another node,
	 * as far as the world heard last (a second or so old): THERE or
	 * NOWHERE. */
	void (*user_where)(void *w, const char *name, struct world_place *p);
	/* The other nodes' = ROOM lines (public rooms), = USER lines
	 * (everyone at a table or in their lobby) or = SEEK lines (their
	 * claimable seeks), to fn, at most max of them; the number given. */
	int (*each_line)(void *w, proto_id_t kind, int max, world_line_fn *fn, void *arg);
	/* WHO of a room elsewhere: its players, then its watchers, on every
	 * node (c's own watch among them), at most max: the number given, or
	 * -1 when no node lists the room and c does not watch it. */
	int (*room_users)(
	    void *w, struct conn *c, const char *room, int max, world_line_fn *fn, void *arg);
	/* The room elsewhere that c watches (the first, once its snapshot
	 * came), or NULL: WHO says "watching" it. */
	const char *(*watching)(void *w, const struct conn *c);
	/* Whether c watches the room elsewhere named room. */
	int (*watches)(void *w, const struct conn *c, const char *room);
	/* Whether s has a challenge open to a user of another node. */
	int (*challenge_open)(void *w, const struct session *s);

	/* --- what only another node can do --- */
	/* A TELL from `from` here to `to` (the name as user_where spelt it). */
	game_err_t (*tell)(
	    void *w, const char *from, const char *to, const char *text, const char **why);
	/* from challenges to, a user of no session here: GERR_OK with *id (the
	 * numbering of challenge_next_id), GERR_NO_USER when no node has them,
	 * or the refusal with *why. */
	game_err_t (*challenge)(void *w, struct session *from, const char *to,
	    const struct gamespec *g, uint32_t *id, const char **why);
	/* s answers challenge id with a user elsewhere: GERR_NO_OFFER when s
	 * has none such (as challenge_answer). */
	game_err_t (*answer)(void *w, struct session *s, uint32_t id, int accept);
	/* WATCH or STATE (request m) of a room elsewhere from c: GERR_PENDING
	 * when asked (c is held, and the world sends the snapshot and the OK,
	 * or the error, itself), else the refusal with *why. */
	game_err_t (*watch)(void *w, struct conn *c, const proto_msg_t *m, const char **why);
	/* c stops watching room elsewhere: GERR_NOT_IN_ROOM when it did not. */
	game_err_t (*leave)(void *w, struct conn *c, const char *room);
	/* JOIN (request m) from c with a code no room here has: GERR_PENDING
	 * when the other nodes are asked (c is held until the world answers
	 * it), else GERR_NO_CODE, GERR_BUSY, ... with *why. */
	game_err_t (*join_code)(void *w, struct conn *c, const proto_msg_t *m, const char **why);
	/* TAKE (request m) from c of a seek no seek here is: GERR_PENDING when
	 * the seek's node is asked (c is held until the world answers it: the
	 * game made there, * MOVED, then the OK), else GERR_NO_SEEK (no node
	 * lists it), GERR_ACCOUNT_ONLY, ... with *why. */
	game_err_t (*take_seek)(void *w, struct conn *c, const proto_msg_t *m, const char **why);

	/* --- facts --- */
	/* s's seek found no partner here (s->seek is open). */
	void (*seek_unpaired)(void *w, struct session *s);
	/* s, an account, signed in here (LOGIN, REGISTER). */
	void (*signed_in)(void *w, struct session *s);
	/* s goes away (freed now, or its connection gone and nothing kept). */
	void (*session_gone)(void *w, struct session *s);
	/* s's connection is gone and the session is kept (session.h): what the
	 * world holds of it waits (its challenges across nodes); back: a
	 * connection took it back (they are told again); holds: whether the
	 * world holds something of s that keeps it. */
	void (*session_away)(void *w, struct session *s);
	void (*session_back)(void *w, struct session *s);
	int (*session_holds)(void *w, const struct session *s);
	/* c goes away. */
	void (*conn_gone)(void *w, struct conn *c);

	/* --- tournaments (issue 48) --- */
	/* Whether this node runs tournament id now: its start, pairings,
	 * games' starts and forfeits (one node at a time; the others answer
	 * its requests from the store, tourneys.h). Asked each second for
	 * every event not over: asking is wanting it (a free event is taken,
	 * one held kept); an event no longer asked for is let go. Alone:
	 * always. */
	int (*tourney_runs)(void *w, int64_t id);
	/* This node stored a change of tournament id (an entrant, a
	 * pairing, a result, its state; 0: of one it does not know): the
	 * other nodes read it again (tourneys_stale). */
	void (*tourney_changed)(void *w, int64_t id);
	/* A tournament's game here wants name, a player online on another
	 * node (user_where: THERE): that node is asked whether its player
	 * can play now (connected, at no game) and for its token; fn(arg, s)
	 * once, with a seat here awaiting the player's RESUME
	 * (session_await), or NULL (it cannot, no answer within a few
	 * seconds, or the world stops). GERR_PENDING when asked, else the
	 * refusal with *why (fn never comes). */
	game_err_t (*seat_far)(
	    void *w, const char *name, world_seat_fn *fn, void *arg, const char **why);
	/* s, a seat from seat_far: its game started in room r (its player is
	 * sent there, * MOVED, with a grace to come), or did not (r NULL: s
	 * goes). */
	void (*seat_far_done)(void *w, struct session *s, struct room *r);

	/* --- hosted engines on other nodes (issue 49) --- */
	/* Whether a live node serves the hosted engine name to this one (its
	 * bot workers take that engine's moves). Alone: never. */
	int (*engine_live)(void *w, const char *name);
	/* The name of each engine live nodes serve, once each, to fn. */
	void (*each_engine)(void *w, world_engine_name_fn *fn, void *arg);
	/* The move of engine j->engine in game j->game, asked of a live node
	 * that serves it (the same program as the game's moves before, as
	 * long as one serves it): GERR_OK, and fn(arg, ...) comes once on the
	 * loop (never inside this call) unless engine_end comes first;
	 * GERR_ARGUMENT when no live node serves it, GERR_UNAVAILABLE when
	 * the other nodes cannot be reached now (fn never comes). */
	game_err_t (*engine_move)(
	    void *w, const struct world_engine_job *j, world_engine_fn *fn, void *arg);
	/* game's move in flight is no longer wanted (its fn never comes);
	 * over: the game is over for its engine too, and the worker that
	 * holds its brain ends it. */
	void (*engine_end)(void *w, const char *game, int over);

	/* --- for the admin --- */
	/* Each other node as last heard (one unheard for a few seconds is
	 * forgotten) to fn: how many, or -1 when the other nodes cannot be
	 * reached now (fn never comes). Alone: 0. */
	int (*each_node)(void *w, world_node_fn *fn, void *arg);

	/* --- its life: only the composition root (server.c) calls these --- */
	/* Shutdown, first: the world lets go of the connections and rooms it
	 * holds (its relays leave the rooms); the core no longer asks it. */
	void (*stop)(void *w);
	/* Last, once the store thread stopped (its answers may still come
	 * to the world until then): the rest of its state goes. */
	void (*release)(void *w);
};

struct world {
	const struct world_ops *ops;
	void *state;
};

/* The one-node world: what a server with no cluster answers. */
struct world world_alone(void);
/* The composition root's: w stops, then goes (see stop and release). */
static inline void
world_stop(const struct world *w)
{
	w->ops->stop(w->state);
}
static inline void
world_release(const struct world *w)
{
	w->ops->release(w->state);
}

static inline void
world_room_where(const struct world *w, const char *room, struct world_place *p)
{
	w->ops->room_where(w->state, room, p);
}
static inline void
world_user_where(const struct world *w, const char *name, struct world_place *p)
{
	w->ops->user_where(w->state, name, p);
}
static inline int
world_each_line(const struct world *w, proto_id_t kind, int max, world_line_fn *fn, void *arg)
{
	return max > 0 ? w->ops->each_line(w->state, kind, max, fn, arg) : 0;
}
static inline int
world_room_users(
    const struct world *w, struct conn *c, const char *room, int max, world_line_fn *fn, void *arg)
{
	return w->ops->room_users(w->state, c, room, max, fn, arg);
}
static inline const char *
world_watching(const struct world *w, const struct conn *c)
{
	return w->ops->watching(w->state, c);
}
static inline int
world_watches(const struct world *w, const struct conn *c, const char *room)
{
	return w->ops->watches(w->state, c, room);
}
static inline int
world_challenge_open(const struct world *w, const struct session *s)
{
	return w->ops->challenge_open(w->state, s);
}
static inline game_err_t
world_tell(
    const struct world *w, const char *from, const char *to, const char *text, const char **why)
{
	return w->ops->tell(w->state, from, to, text, why);
}
static inline game_err_t
world_challenge(const struct world *w, struct session *from, const char *to,
    const struct gamespec *g, uint32_t *id, const char **why)
{
	return w->ops->challenge(w->state, from, to, g, id, why);
}
static inline game_err_t
world_answer(const struct world *w, struct session *s, uint32_t id, int accept)
{
	return w->ops->answer(w->state, s, id, accept);
}
static inline game_err_t
world_watch(const struct world *w, struct conn *c, const proto_msg_t *m, const char **why)
{
	return w->ops->watch(w->state, c, m, why);
}
static inline game_err_t
world_leave(const struct world *w, struct conn *c, const char *room)
{
	return w->ops->leave(w->state, c, room);
}
static inline game_err_t
world_join_code(const struct world *w, struct conn *c, const proto_msg_t *m, const char **why)
{
	return w->ops->join_code(w->state, c, m, why);
}
static inline game_err_t
world_take_seek(const struct world *w, struct conn *c, const proto_msg_t *m, const char **why)
{
	return w->ops->take_seek(w->state, c, m, why);
}
static inline void
world_seek_unpaired(const struct world *w, struct session *s)
{
	w->ops->seek_unpaired(w->state, s);
}
static inline void
world_signed_in(const struct world *w, struct session *s)
{
	w->ops->signed_in(w->state, s);
}
static inline void
world_session_gone(const struct world *w, struct session *s)
{
	w->ops->session_gone(w->state, s);
}
static inline void
world_session_away(const struct world *w, struct session *s)
{
	w->ops->session_away(w->state, s);
}
static inline void
world_session_back(const struct world *w, struct session *s)
{
	w->ops->session_back(w->state, s);
}
static inline int
world_session_holds(const struct world *w, const struct session *s)
{
	return w->ops->session_holds(w->state, s);
}
static inline void
world_conn_gone(const struct world *w, struct conn *c)
{
	w->ops->conn_gone(w->state, c);
}

static inline int
world_tourney_runs(const struct world *w, int64_t id)
{
	return w->ops->tourney_runs(w->state, id);
}
static inline void
world_tourney_changed(const struct world *w, int64_t id)
{
	w->ops->tourney_changed(w->state, id);
}
static inline game_err_t
world_seat_far(
    const struct world *w, const char *name, world_seat_fn *fn, void *arg, const char **why)
{
	return w->ops->seat_far(w->state, name, fn, arg, why);
}
static inline void
world_seat_far_done(const struct world *w, struct session *s, struct room *r)
{
	w->ops->seat_far_done(w->state, s, r);
}

static inline int
world_engine_live(const struct world *w, const char *name)
{
	return w->ops->engine_live(w->state, name);
}
static inline void
world_each_engine(const struct world *w, world_engine_name_fn *fn, void *arg)
{
	w->ops->each_engine(w->state, fn, arg);
}
static inline int
world_each_node(const struct world *w, world_node_fn *fn, void *arg)
{
	return w->ops->each_node(w->state, fn, arg);
}
static inline game_err_t
world_engine_move(
    const struct world *w, const struct world_engine_job *j, world_engine_fn *fn, void *arg)
{
	return w->ops->engine_move(w->state, j, fn, arg);
}
static inline void
world_engine_end(const struct world *w, const char *game, int over)
{
	w->ops->engine_end(w->state, game, over);
}

#endif
