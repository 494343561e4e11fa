/*
 * botplay.h: the server's bots at the table. A bot is a session without a
 * connection, seated like a player; its sink is this module's state for its
 * game, so every event of the room reaches it. It looks at the room on the
 * loop once the change is complete, and acts through the room's verbs like
 * a human: its searches run on the bot pool (bots.c). BOT play starts a game
 * against one, BOT seat gives one the free seat of a private room, and a
 * SEEK that allows it falls back to one after a wait.
 */
#ifndef GOMOKUD_BOTPLAY_H
#define GOMOKUD_BOTPLAY_H

#include <stddef.h>
#include <stdint.h>

#include "daemon/game.h"

struct botplay;
struct room;
struct server;
struct session;

/* A bot's pick where a level goes: 1..10 a level of our engine, from
 * BOTPLAY_ENGINE on one of the config's hosted engines, from BOTPLAY_FAR
 * on an engine of other nodes of a cluster, whose moves their workers
 * play (world.h; botplay_engine). */
#define BOTPLAY_ENGINE 100
#define BOTPLAY_FAR 200

/* The pool from the config; NULL (logged) when it cannot start. */
struct botplay *botplay_new(struct server *srv);
/* Stops every search and frees every bot's state. */
void botplay_free(struct botplay *bp);
/* The pick of the hosted engine named name (hosted.h): this node's, or
 * one a live node of the cluster serves (this node's first, unless it
 * has bot-threads none and another serves it); -1 when none has it. */
int botplay_engine(struct botplay *bp, const char *name);
/* The names of the engines a bot here can play, comma-separated, into
 * buf ("" for none): this node's, then those live nodes serve. */
const char *botplay_engines(const struct botplay *bp, char *buf, size_t len);
/* The config's hosted engines (hosted.h), NULL: none; the cluster serves
 * other nodes' moves of them on it. */
struct hosted *botplay_hosted(struct botplay *bp);
/* A new game between s and a bot of level (a pick, as above; casual): *room on success (and
 * on GERR_PENDING, its start being stored: room_pair); GERR_SERVER_BUSY
 * (with *why) when every bot is thinking. */
game_err_t botplay_game(struct botplay *bp, struct session *s, const struct gamespec *g, int level,
    struct room **room, const char **why);
/* A bot of level takes the free seat of r, a private room s waits in
 * (GERR_PENDING: as room_join). */
game_err_t botplay_seat(
    struct botplay *bp, struct room *r, struct session *s, int level, const char **why);
/* Whether a bot can take the seat of a game restored from the store that
 * name held ("botN"): its session, or NULL. botplay_attach then starts it. */
struct session *botplay_restored(struct botplay *bp, const char *name);
void botplay_attach(struct botplay *bp, struct session *bot, struct room *r);
/* A bot of level for a table another module makes (a tournament's
 * pairing): seat it, then botplay_attach once the game started, or
 * botplay_drop when it did not. NULL when out of memory. */
struct session *botplay_new_player(struct botplay *bp, int level);
/* A bot from botplay_restored that found no table goes away. */
void botplay_drop(struct botplay *bp, struct session *bot);
/* Searches waiting for a worker and running now. */
void botplay_load(struct botplay *bp, int *queued, int *running);
/* The bots' search pool (remote with bot-threads none), for the cluster
 * to serve other nodes' jobs on and to carry this node's. */
struct bots *botplay_bots(struct botplay *bp);
/* A write of r that no connection waits for (a bot's stones) was refused
 * after its commit was queued: r's bots look again (a second later when
 * the store refused it, GERR_STORE, GERR_STORE_DOWN or GERR_FENCED). */
void botplay_refused(struct botplay *bp, struct room *r, game_err_t e);
/* A lobby_wait_fn: the seek waited in vain, a bot plays s instead. */
void botplay_fallback(struct server *srv, struct session *s, const struct gamespec *g, uint32_t id);

#endif
