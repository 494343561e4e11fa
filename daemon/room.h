/*
 * room.h: one game table: two seats, spectators, the position (judged by the
 * rules core), clocks, offers, the swap2 opening, the room's event sequence
 * and its game in the archive. struct room is this module's alone: others
 * use its verbs and queries. Every change goes out as one event line, stamped
 * with the room's sequence number and handed to every member's sink.
 */
#ifndef GOMOKUD_ROOM_H
#define GOMOKUD_ROOM_H

#include <stdint.h>

#include "daemon/archive.h"
#include "daemon/game.h"
#include "proto/proto.h"
#include "rules/rules.h"

struct server;
struct session;
struct room;
struct room_registry;
struct sink;

/* What a verb did: the seq its reply names, the offer it made, and why it
 * was refused. */
struct room_act {
	uint32_t seq;     /* MOVE: its * MOVE; others: the room's last event */
	uint32_t offer;   /* OFFER: the new offer's id */
	legality_t legal; /* GERR_ILLEGAL: the rules core's verdict */
	const char *why;  /* a short explanation of a refusal, or NULL */
};

/* A room's members are sessions (session.h). What the room asks and tells
 * them goes through this table, which the composition root hands
 * rooms_new (session.c's session_members), so the room calls no function
 * of theirs and sits below them: rooms and sessions are in no cycle, and
 * a unit test links the rooms with any members it likes. No member of the
 * table is NULL. */
struct room_members {
	/* s sits or watches in r from now; s no longer is in r */
	void (*joined)(struct session *s, struct room *r);
	void (*left)(struct session *s, struct room *r);
	/* one event line of r for s: m the message, line its text with the LF */
	void (*deliver)(
	    struct session *s, struct room *r, const proto_msg_t *m, const char *line, size_t n);
	/* s may be idle now (the next gc pass looks) */
	void (*idle)(struct session *s);
	/* the unfinished game s is seated in when it may start no other (a
	 * person's one; a bot account's at its bot-max-games), or NULL */
	struct room *(*game)(const struct session *s);
	/* whether s is a bot: the server's own, or a bot account (* KINDS) */
	int (*bot)(const struct session *s);
	/* what the room reads of s: its name; the archive's kind of player;
	 * whether it seeks a game; whether it is at the table (connected, or a
	 * bot); whether it is a seat still awaiting its player's token; whether
	 * its list of rooms is full; whether it is busy otherwise (a seek, an
	 * unfinished game, a private room of its own that waits, a start in
	 * flight: one game at a time) */
	const char *(*name)(const struct session *s);
	enum archive_player (*player)(const struct session *s);
	int (*seeking)(const struct session *s);
	int (*present)(const struct session *s);
	int (*awaited)(const struct session *s);
	int (*full)(const struct session *s);
	int (*busy)(const struct session *s);
};

/* The registry of a server's rooms: ids, invite codes, the gc queue. Room
 * ids are prefix (letters: "r", or a cluster's node name) and a number
 * (roomid.h); members says what the members are (above). */
struct room_registry *rooms_new(const char *prefix, const struct room_members *members);
/* A verb that returned GERR_PENDING (its stones wait for their commit at
 * the store thread) is answered later through fn: e and act as the verb
 * would have returned them. */
typedef void (*room_reply_fn)(void *arg, struct room *r, game_err_t e, const struct room_act *act);
void rooms_on_reply(struct room_registry *reg, room_reply_fn fn, void *arg);
/* fn(arg, r) once each game of a room ends (after its * OVER is said): a
 * tournament's results (tourneys.c). One listener; NULL: none. */
typedef void (*room_over_fn)(void *arg, struct room *r);
void rooms_on_over(struct room_registry *reg, room_over_fn fn, void *arg);
/* Frees every room, then the registry. */
void rooms_free(struct room_registry *reg);
/* Frees the rooms queued by room_check that are empty now; the number done. */
int rooms_gc(struct room_registry *reg);
/* Shutdown: ends every unfinished game that the store does not keep for the
 * restart; returns the number kept. */
int rooms_drain(struct room_registry *reg);
struct room *rooms_first(struct room_registry *reg);
struct room *rooms_next(struct room *r);

struct room *room_new(struct server *srv, const struct gamespec *g, int private_room);
/* The game a saved record describes, its players away (grace running)
 * except the sessions in present[] (bots), which sit at once; NULL with *why
 * when the record cannot be played. */
struct room *room_restore(struct server *srv, const struct archive_saved *sv,
    struct session *const present[2], const char **why);
/* The room of that id here: this node's own, or another node's it adopted. */
struct room *room_find(struct server *srv, const char *id);
/* A restart: this registry's new rooms are numbered past id (one of its
 * unfinished games, kept for whichever node adopts it). */
void rooms_reserve(struct room_registry *reg, const char *id);
/* A room whose lease another node holds now: fn(arg, s) for each member,
 * then r is gone, its game left as the store has it (never ended here).
 * Not while room_busy(r). */
void room_abandon(struct room *r, void (*fn)(void *arg, struct session *s), void *arg);
struct room *room_by_code(struct server *srv, const char *code);
/* Queue r for freeing at the next gc pass if it is then empty. */
void room_check(struct room *r);

/* Queries. */
const char *room_id(const struct room *r);
uint32_t room_num(const struct room *r);
int room_private(const struct room *r);
const char *room_code(const struct room *r);
game_status_t room_status(const struct room *r);
game_stage_t room_stage(const struct room *r);
const struct gamespec *room_spec(const struct room *r);
const position_t *room_position(const struct room *r);
uint32_t room_seq(const struct room *r);
int room_unfinished(const struct room *r);
/* The tournament pairing the room's next (or current) game is played
 * for: set before its start, it is kept with the game (the store's
 * games.tpair) and comes back with it after a restart; 0: none. */
void room_set_tpair(struct room *r, int64_t tpair);
int64_t room_tpair(const struct room *r);
/* The name in seat (0 black, 1 white, as they stand), "" when empty. */
const char *room_seat_name(const struct room *r, int seat);
/* A game that is over: 0 with its result and reason; -1 otherwise. */
int room_result(const struct room *r, game_result_t *res, game_reason_t *reason);
/* The server ends the unfinished game: aborted, no result, unrated (a
 * tournament's forfeit). Said as any end (* OVER). */
void room_stop(struct room *r);
/* Whether a write of r (stones, an undo, the colours, an end, its game's
 * start) waits for its commit: its requests wait too. */
int room_busy(const struct room *r);
/* The seat whose action the game waits for (a move, a swap2 step), or -1. */
int room_actor(const struct room *r);
/* The seat s holds in r (0 black, 1 white), or -1. */
int room_seat_of(const struct room *r, const struct session *s);
struct session *room_seated(const struct room *r, int seat);
int room_is_member(const struct room *r, const struct session *s);
/* Spectators: how many, and each in turn. */
int room_watchers(const struct room *r);
void room_each_watcher(const struct room *r, void (*fn)(void *arg, struct session *s), void *arg);
/* The time seat has left (ms), or -1 without a clock. */
int64_t room_clock_left(const struct room *r, int seat);
/* The first offer open to seat (made by the other): 0 with its id and kind,
 * or -1. */
int room_offer_to(const struct room *r, int seat, uint32_t *id, game_offer_t *kind);

/* Seating. A private room's creator sits at its wish; room_join gives the
 * free seat of a waiting room to s and starts the game; room_pair seats two
 * players and starts it. Colours: the first wish that is not "any", else a
 * coin. The game's row is stored before anything is said (* START): with
 * SQLite at once, with PostgreSQL on the store thread, the verb returning
 * GERR_PENDING and the room busy meanwhile (its requests, and those of
 * both players, wait; the request that started it is answered through the
 * registry's reply function). Either way fn(arg, r, e) hears the answer
 * once (NULL: nobody): GERR_OK, the game on; else (GERR_STORE,
 * GERR_STORE_DOWN, GERR_SERVER_BUSY, GERR_NOMEM, GERR_ROOM_FULL, or
 * GERR_BUSY when a player left while the row was stored, which then ends
 * aborted) the seats are as before and nothing was said. fn(arg, NULL, ...)
 * at shutdown, the answer dropped: only arg is to be let go. */
typedef void (*room_started_fn)(void *arg, struct room *r, game_err_t e);
game_err_t room_open(struct room *r, struct session *creator);
/* The creator of a private room that waits for its game (seated, here or
 * away), or NULL for any other room. While the creator is away the room
 * waits for them until away-keep ends (* PRESENCE gone with that time),
 * then closes (* CLOSED away); the creator's LEAVE closes it too (* CLOSED
 * left). A friend who takes the free seat meanwhile (room_join: fn hears
 * GERR_OK for the seat) plays when the creator is back (room_back starts
 * the game). */
struct session *room_creator(const struct room *r);
/* Whether room_join would seat a player (else a JOIN by code watches). */
int room_joinable(const struct room *r);
game_err_t room_join(struct room *r, struct session *s, room_started_fn fn, void *arg);
game_err_t room_pair(struct room *r, struct session *a, game_wish_t a_wish, struct session *b,
    game_wish_t b_wish, room_started_fn fn, void *arg);
/* The seat (of a game restored after a restart) that name held, if it
 * awaits its player; -1 otherwise. room_resume gives it to s. */
int room_awaiting(const struct room *r, const char *name);
void room_resume(struct room *r, int seat, struct session *s);

/* Requests by a session in the room. Each returns GERR_OK and fills *act,
 * or a refusal (with act->why); room_move, room_swap2_put, room_swap2_choose,
 * room_opening_act, room_resign,
 * room_abort, room_claim and room_answer may return GERR_PENDING instead (a
 * PostgreSQL store): the answer comes through the
 * registry's reply function once the commit is back, and until then the
 * room takes no other request (room_busy). move is in notation ("h8"); reason is why a
 * bot plays it (NULL for people). */
game_err_t room_move(
    struct room *r, struct session *s, const char *move, const char *reason, struct room_act *act);
game_err_t room_swap2_put(
    struct room *r, struct session *s, const char *const *moves, int n, struct room_act *act);
game_err_t room_swap2_choose(
    struct room *r, struct session *s, stone_t colour, struct room_act *act);
/* r's opening machine while its status is GAME_OPENING (swap2's too), or
 * NULL. Seat 0 holds its tentative black: its actor sits in room_actor. */
const opening_t *room_opening(const struct room *r);
/* Its log of the acts that placed no stone (opening_log_append's form,
 * as the store keeps it; "" before any), with which the machine is played
 * back from the position's stones (opening_replay). */
const char *room_opening_log(const struct room *r);
/* An opening act of s (an OPENING request; a bot's act) under any rule but
 * swap2 (SWAP2: the two verbs above), as room_move. The machine's refusal
 * comes back as GERR_NOT_TURN, GERR_PHASE, GERR_OFF_BOARD, GERR_ILLEGAL
 * (occupied, or the rules core's), GERR_OUTSIDE_AREA, GERR_WRONG_COUNT,
 * GERR_SYMMETRIC, GERR_NOT_OFFERED or GERR_ARGUMENT. */
game_err_t room_opening_act(
    struct room *r, struct session *s, const opening_act_t *a, struct room_act *act);
game_err_t room_resign(struct room *r, struct session *s, struct room_act *act);
game_err_t room_offer(struct room *r, struct session *s, game_offer_t kind, struct room_act *act);
game_err_t room_answer(
    struct room *r, struct session *s, uint32_t id, int accept, struct room_act *act);
game_err_t room_abort(struct room *r, struct session *s, struct room_act *act);
game_err_t room_claim(struct room *r, struct session *s, struct room_act *act);
game_err_t room_say(struct room *r, struct session *s, const char *text, struct room_act *act);
/* A bot's preview: its best candidates at a depth (* THINK). */
void room_think(
    struct room *r, struct session *bot, int depth, const move_t *moves, const int *scores, int n);
/* Adds s as a spectator (GERR_BUSY: its room list is full). */
game_err_t room_watch(struct room *r, struct session *s);
/* s leaves (resigning an unfinished game); the room sees PRESENCE left. */
void room_leave(struct room *r, struct session *s);
/* s's connection went away / came back. */
void room_gone(struct room *r, struct session *s);
void room_back(struct room *r, struct session *s);

/* One more sink for every event of r besides its members' (a relay to the
 * cluster's other nodes), or none (NULL). */
void room_set_relay(struct room *r, struct sink *k);
/* The spectators other nodes count for r (as they said last): the = ROOM
 * line's count is its own spectators and these. */
void room_set_far_watchers(struct room *r, int n);

/* The = ROOM line for r (ROOMS and snapshots). */
void room_info(const struct room *r, proto_msg_t *m);
/* The snapshot's lines (= ROOM ... = RESULT), each handed to emit; the
 * caller ends it with its OK and room_seq. */
void room_snapshot(const struct room *r, void (*emit)(void *arg, const proto_msg_t *m), void *arg);

#endif
