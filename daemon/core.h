/* core.h: what the core's modules share, struct server: the event base,
 * the configuration and the log, and each owner's handle (its state stays
 * behind the owner's verbs). The composition root (server.c, server.h)
 * fills it in; every module reads it. One thread. */
#ifndef GOMOKUD_CORE_H
#define GOMOKUD_CORE_H

#include <stdint.h>
#include <sys/queue.h>

#include <event2/event.h>
#include <event2/listener.h>
#include <openssl/ssl.h>

#include "daemon/config.h"
#include "daemon/log.h"
#include "daemon/store.h"
#include "daemon/workq.h"
#include "daemon/world.h"
#include "rules/version.h"

#define GOMOKUD_VERSION GOMOKU_VERSION
/* Capabilities every server serves; conn_up adds "accounts history ratings" with a
 * database and "bots" with bots (PROTOCOL.md section 3). */
#define GOMOKUD_CAPS "swap2 chat resume lobby seekpages chatlog take away openings position"

struct session;
struct lobby;
struct conns;
struct sessions;
struct cmd;
struct challenges;
struct room_registry;
struct botplay;
struct addrcount;
struct gc;
struct root;
struct metrics;
struct admin;
struct control;
struct front;
struct tlsio_base;
struct analysis;
struct reviews;
struct puzzles;
struct tourneys;
struct leagues;

struct server {
	struct event_base *base;
	struct config cfg;
	const char *config_path; /* NULL: defaults and flags only */
	struct config flags;     /* flag overrides, re-applied on reload */
	unsigned flag_mask;      /* which flags were given */
	struct logger log;
	struct root *root; /* the composition root's own: listeners, signals, timers */
	SSL_CTX *ssl;
	struct tlsio_base *tlsio;    /* the connections' flush queue (tlsio.h) */
	struct gc *gc;               /* the gc pass: gc_soon (gc.h) */
	store_t *store;              /* accounts, ratings, games; NULL: not kept */
	workq_t *work;               /* password checks, off the loop */
	struct cmd *cmd;             /* the requests waiting for a room or the store (cmd.h) */
	workq_t *storeq;             /* PostgreSQL: one thread with a connection of its own
	                    that commits the moves (archive_moves_async) */
	struct loopq *loopq;         /* SQLite: the writes of a loop turn, committed together
	                    at its end (archive.c) */
	struct login_limits *logins; /* failed logins by address and account */
	struct botplay *botplay;     /* the bots at the tables; NULL: none */
	struct analysis *analysis;   /* ANALYSE on the bots' workers; NULL: none */
	struct reviews *reviews;     /* REVIEW, MARKS: games reviewed on them; NULL: none */
	struct puzzles *puzzles;     /* PUZZLE, SOLVE: puzzles from reviews; NULL: none */
	struct tourneys *tourneys;   /* tournaments; NULL: none (no store) */
	struct leagues *leagues;     /* the engine leagues (league.h); NULL: none */
	struct metrics *metrics;     /* counters, and GET /metrics when configured */
	struct admin *admin;         /* bans, mutes, MOTD, drain (admin.h) */
	struct control *control;     /* gomokuctl's socket; NULL: none */
	struct front *front;         /* PROXY headers read from proxy-from's fronts */
	struct world world;          /* the other nodes (world.h); world_alone() when none */
	int draining;

	struct conns *conns;     /* every connection (conn.h) */
	struct addrcount *addrs; /* connections per address (addrcount.h) */

	struct sessions *sessions; /* every named user (session.h) */

	struct room_registry *rooms;

	struct lobby *lobby;           /* the seeks (lobby.h) */
	struct challenges *challenges; /* challenges of one user by another (challenge.h) */
};

#endif
