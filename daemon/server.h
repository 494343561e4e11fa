/* server.h: the daemon's one owner of everything: the event base, listeners,
 * TLS context, connections, sessions, rooms and the lobby. One thread. */
#ifndef GOMOKUD_SERVER_H
#define GOMOKUD_SERVER_H

#include <stdint.h>
#include <sys/queue.h>

#include <event2/event.h>
#include <event2/listener.h>
#include <openssl/ssl.h>

#include "daemon/config.h"
#include "daemon/conn.h"
#include "daemon/challenge.h"
#include "daemon/lobby.h"
#include "daemon/log.h"
#include "daemon/store.h"
#include "daemon/workq.h"
#include "daemon/world.h"
#include "rules/version.h"

#define GOMOKUD_VERSION GOMOKU_VERSION
/* Capabilities every server serves; conn_up adds "accounts history" with a
 * database and "bots" with bots (PROTOCOL.md section 3). */
#define GOMOKUD_CAPS "swap2 chat resume lobby"

struct session;
struct room_registry;
struct botplay;
struct addrcount;
struct statelock;
struct metrics;
struct admin;
struct control;
struct front;

enum { ADDR_BUCKETS = 4096 };

struct server {
	struct event_base *base;
	struct config cfg;
	const char *config_path; /* NULL: defaults and flags only */
	struct config flags;     /* flag overrides, re-applied on reload */
	unsigned flag_mask;      /* which flags were given */
	struct logger log;
	struct statelock *statelock; /* this daemon's hold on cfg.state_dir */
	SSL_CTX *ssl;
	char cert[CONFIG_PATH_MAX], key[CONFIG_PATH_MAX];
	struct evconnlistener *lev[CONFIG_MAX_LISTEN + 1]; /* the last may be web-listen's */
	int nlev;
	int accept_paused;
	struct event *resume_accept_ev;
	struct event *sig_ev[3];
	struct event *gc_ev;
	struct event *drain_ev;
	struct event *watchdog_ev;              /* systemd WatchdogSec= pings, when asked */
	store_t *store;                         /* accounts, ratings, games; NULL: not kept */
	workq_t *work;                          /* password checks, off the loop */
	TAILQ_HEAD(parked_list, parked) parked; /* requests waiting for a room (cmd.c) */
	const struct archive_lookup *cmd_ahead; /* a RESUME's lookup while it runs again */
	workq_t *storeq;             /* PostgreSQL: one thread with a connection of its own
	                    that commits the moves (archive_moves_async) */
	struct login_limits *logins; /* failed logins by address and account */
	struct event *checkpoint_ev; /* WAL checkpoints, run by a worker */
	struct botplay *botplay;     /* the bots at the tables; NULL: none */
	struct metrics *metrics;     /* counters, and GET /metrics when configured */
	struct admin *admin;         /* bans, mutes, MOTD, drain (admin.h) */
	struct control *control;     /* gomokuctl's socket; NULL: none */
	struct front *front;         /* PROXY headers read from proxy-from's fronts */
	struct world world;          /* the other nodes (world.h); world_alone() when none */
	int checkpointing;
	int draining;

	struct conn_list conns; /* every live connection */
	int nconns;
	struct conn *dead; /* killed, freed by the next gc pass */
	struct addrcount *addrs[ADDR_BUCKETS];
	uint64_t next_conn_id;

	LIST_HEAD(, session) sessions;
	struct session *check; /* sessions to free if idle, at gc */
	uint64_t next_guest;

	struct room_registry *rooms;

	struct seek_list seeks; /* oldest first */
	uint32_t next_seek;
	struct challenge_list challenges; /* oldest first */
	uint32_t next_challenge;
};

/* Sets up the base, TLS and listeners from srv->cfg. 0 or -1 (logged). */
int server_init(struct server *srv);
int server_run(struct server *srv);
void server_free(struct server *srv);
/* SIGHUP's work: the config file again (flags win), certificate and key; a
 * bad file changes nothing. 0, or -1 (logged). */
int server_reload(struct server *srv);
/* Asks for a gc pass soon (frees dead connections, idle sessions, empty rooms). */
void server_gc_soon(struct server *srv);
/* The per-address connection count (for limits); delta +1 or -1. */
int server_addr_count(struct server *srv, const void *addr, size_t len, int delta);

#endif
