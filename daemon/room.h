/* room.h: one game table: two seats, spectators, the position (judged by the
 * rules core), clocks, offers, the swap2 opening and the room's event
 * sequence. Every change goes out as an event to everyone in the room. */
#ifndef GOMOKUD_ROOM_H
#define GOMOKUD_ROOM_H

#include <stdint.h>

#include <event2/event.h>

#include "daemon/clock.h"
#include "daemon/lobby.h"
#include "daemon/store.h"
#include "rules/rules.h"
#include "proto/proto.h"

struct server;
struct session;
struct conn;

struct seat {
	struct session *sess;          /* NULL: empty, or its player left */
	char name[PROTO_NAME_MAX + 1]; /* kept for display after leaving */
	int gone;                      /* disconnected during the game */
	int64_t deadline;              /* when gone: grace ends (monotonic ms) */
	struct event *grace_ev;
};

struct offer {
	uint32_t id; /* 0: none pending */
	int from;    /* seat */
};

struct room {
	struct room *next, *prev, *hnext;
	struct room *check_next;
	int checking;
	struct server *srv;
	uint32_t num;
	char id[PROTO_ROOM_MAX + 1];
	int private;
	char code[PROTO_CODE_MAX + 1];
	struct gamespec spec;
	proto_status_t status;
	position_t pos;
	struct seat seat[2];        /* [0] black, [1] white */
	struct session **spec_list; /* spectators */
	int nspec, capspec;
	uint32_t seq;
	struct gclock clk;
	struct event *flag_ev;
	proto_stage_t stage;    /* swap2, while status is OPENING */
	int nopening;           /* stones placed by the swap2 opening */
	struct offer offers[3]; /* by proto_offer_t */
	uint32_t next_offer;
	proto_result_t result;
	proto_reason_t reason;
	int64_t game_id;      /* its row in the store; 0: not kept */
	int64_t turn_since;   /* when the side to move began (ms) */
	struct event *bot_ev; /* botplay's deferred look at the room */
	int64_t bot_job;      /* its search in flight, 0: none */
	int bot_key;          /* the state that search is for */
	int bot_eval;         /* the last search's score, bot's view */
	char move_reason[24]; /* why the bot plays the move being made */
	int ncells;
	move_t cells[RULES_MAX_SIZE];
};

struct room *room_new(struct server *srv, const struct gamespec *g, int private);
/* A game in progress from the store, its players away (grace running) until
 * they RESUME; NULL with *why when the record cannot be played. */
struct room *room_restore(
    struct server *srv, const store_game_t *g, const store_move_t *moves, const char **why);
struct room *room_find(struct server *srv, const char *id);
struct room *room_by_code(struct server *srv, const char *code);
void room_free(struct room *r);
/* Queue r for freeing at the next gc pass if it is then empty. */
void room_check(struct room *r);
int room_empty(const struct room *r);

/* Seat s (0 black, 1 white); the caller starts the game once both are in. */
void room_sit(struct room *r, int seat, struct session *s);
void room_start(struct room *r);
/* The seat whose action the game waits for (a move, a swap2 step), or -1. */
int room_actor(const struct room *r);
/* The seat s holds in r, or -1. */
int room_seat_of(const struct room *r, const struct session *s);
/* The unoccupied seat (restored after a restart) named name, or -1. */
int room_seat_name(const struct room *r, const char *name);
/* Gives that seat to s, still away until room_back. */
void room_seat_restored(struct room *r, int seat, struct session *s);
int room_unfinished(const struct room *r);

/* Sends the room's event to everyone in it, stamping room id and seq. */
void room_event(struct room *r, proto_msg_t *m);
/* Sends a full snapshot to c, ended by the OK of reply_id. */
void room_snapshot(struct room *r, struct conn *c, proto_id_t reply_id, const char *tag);
/* The = ROOM line for r (ROOMS and snapshots). */
void room_info(const struct room *r, proto_msg_t *m);

/* Requests by a session in the room. Return 0 or an error code; on error
 * *why may point at a short explanation. */
int room_move(struct room *r, struct session *s, const char *move, const char **why);
int room_swap2(struct room *r, struct session *s, const proto_msg_t *m, const char **why);
int room_resign(struct room *r, struct session *s);
int room_offer(
    struct room *r, struct session *s, proto_offer_t kind, uint32_t *id, const char **why);
int room_answer(struct room *r, struct session *s, uint32_t id, int accept);
int room_abort(struct room *r, struct session *s);
int room_claim(struct room *r, struct session *s);
int room_say(struct room *r, struct session *s, const char *text);
/* Adds s as a spectator. */
int room_watch(struct room *r, struct session *s);
/* s leaves (resigning an unfinished game); the room sees PRESENCE left. */
void room_leave(struct room *r, struct session *s);
/* s's connection went away / came back. */
void room_gone(struct room *r, struct session *s);
void room_back(struct room *r, struct session *s);
/* Ends an unfinished game with its result and reason (* OVER). */
void room_end(struct room *r, proto_result_t res, proto_reason_t reason);

#endif
