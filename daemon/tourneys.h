/*
 * tourneys.h: tournaments (issue 48; PROTOCOL.md section 5.21): arenas,
 * Swiss events and round robins, created by an admin or an account,
 * joined by people and the server's bots, their games played in rooms of
 * the server's like any other and their results taken from those games.
 *
 * The module owns the events this node runs, their players, pairings,
 * watchers and timers. Every change is in the store before it is said or
 * acted on: an event, each player, each round's pairings (all at once,
 * never twice: store_tround_put), each result; a game played for a
 * pairing names it in its own row (games.tpair), so after a kill -9 the
 * module finds each pairing's game (finished: its result; unfinished: its
 * restored room) and starts only the pairings that have none. The pure
 * parts, pairings and standings, are tourney/'s.
 *
 * A server without a store runs none: tourneys_new returns NULL and the
 * requests are 501. On a cluster (world.h) every node keeps every event
 * and answers its requests; the world says which node runs each (its
 * start, pairings, games and forfeits), and which events another node
 * changed (tourneys_stale): those are read again from the store before
 * this node acts on them. A person connected to another node plays its
 * games here, seated through the world (seat_far).
 */
#ifndef GOMOKUD_TOURNEYS_H
#define GOMOKUD_TOURNEYS_H

#include <stdint.h>

#include "proto/proto.h"

struct conn;
struct server;
struct tourneys;

/* A tournament's kind, state and entrants as the store keeps them. */
enum tourney_kind { TK_ARENA = 0, TK_SWISS = 1, TK_ROBIN = 2 };
enum tourney_state { TS_SOON = 0, TS_RUNNING = 1, TS_OVER = 2, TS_CANCELLED = 3 };
enum tourney_entrants { TE_PEOPLE = 0, TE_BOTS = 1, TE_BOTH = 2 };

/* The limits of TCREATE (PROTOCOL.md section 5.21). */
enum {
	TOURNEY_START_MIN_S = 5,             /* the countdown's least */
	TOURNEY_START_MAX_S = 7 * 24 * 3600, /* and most */
	TOURNEY_ARENA_MAX_MIN = 720,         /* an arena's longest, minutes */
	TOURNEY_SWISS_MAX_ROUNDS = 20,
	TOURNEY_ROBIN_MAX_PLAYERS = 16, /* a round robin's players (15 or 30 rounds) */
	TOURNEY_LIST_OVER = 20,         /* finished events TLIST shows */
	TOURNEY_DAILY_AHEAD_S = 3600, /* a tourney-daily event is made this long before it starts */
};

/* The module, with the events the store holds (their rooms restored
 * already); NULL when it runs none (no store), or on failure (logged). */
struct tourneys *tourneys_new(struct server *srv);
void tourneys_free(struct tourneys *t);
/* A request of section 5.21 from c (m: TLIST ... TCANCEL): 0 when
 * answered (or the answer comes later, c held), else an error code with
 * *why. */
int tourneys_request(struct tourneys *t, struct conn *c, const proto_msg_t *m, const char **why);

/* The server's own event (gomokuctl's "tourney create", an admin at the
 * control socket): m a TCREATE as parsed, its creator the server (no
 * limit of events). done(arg, id, why) once stored (id 0: not, and why);
 * 0 while it is (with SQLite done came already), else the refusal's
 * code with *why, and done is never called. */
typedef void (*tourneys_made_fn)(void *arg, int64_t id, const char *why);
int tourneys_create(
    struct tourneys *t, const proto_msg_t *m, tourneys_made_fn done, void *arg, const char **why);
/* League league's event n (league.h): m a TCREATE as tourneys_create's,
 * its players the names players[0..np) (a level's botN, a hosted engine's
 * bot-<name>, a bot account's name), stored with it and its number in one
 * transaction (store_league_event): done(arg, 0, why) also when the league
 * has its event n already (another node made it). As tourneys_create
 * otherwise. */
int tourneys_league(struct tourneys *t, const proto_msg_t *m, const char *league, int n,
    const char *const *players, int np, tourneys_made_fn done, void *arg, const char **why);
/* fn(arg, m) with each event's = TOURNEY line, as TLIST gives them. */
void tourneys_each(struct tourneys *t, void (*fn)(void *arg, const proto_msg_t *m), void *arg);
/* An admin's cancel: 0, or ERR_NO_TOURNEY, ERR_TOURNEY_CLOSED with *why. */
int tourneys_cancel(struct tourneys *t, int64_t id, const char **why);
/* The world (world.h): the store may hold a newer state of event id than
 * this node's, another node's change (0: of any event, or one this node
 * has not heard of). It is read again before this node acts on it. */
void tourneys_stale(struct tourneys *t, int64_t id);

#endif
