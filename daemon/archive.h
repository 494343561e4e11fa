/*
 * archive.h: games in the store. Every call commits before it returns, so
 * an event is sent only for what is already on disk; after a crash the
 * games in progress come back from the store with all their moves, and no
 * end is half written. The archive knows games by the values a room gives it
 * (struct archive_game), never by the room itself. Without a store
 * (database none) these do nothing and succeed.
 */
#ifndef GOMOKUD_ARCHIVE_H
#define GOMOKUD_ARCHIVE_H

#include <stdint.h>

#include "daemon/game.h"
#include "daemon/store.h"
#include "proto/proto.h"
#include "rules/rules.h"

struct server;
struct store;

/* Who holds a seat, as far as ratings go. */
/* A seat's player: a guest, an account (a person), the server's bot, or
 * a bot account (PROTOCOL.md 5.22, rated apart: rate-bot-accounts). */
enum archive_player { PLAYER_GUEST, PLAYER_ACCOUNT, PLAYER_BOT, PLAYER_BOTACCT };

/* A seat's rating for the game's rule as the store had it when the game
 * started (* RATINGS): value -1 for a player with none (a guest; a bot
 * unless rate-bots). Rounded to an integer, as STATS says it. */
struct archive_rating {
	int value;
	int provisional;
};

/* What an end did to the ratings (* RATED): changed 0 when it changed
 * none (casual, a guest, aborted); before and after per seat. */
struct archive_change {
	int changed;
	int before[2], after[2];
};

/* A game as a room describes it (room.c fills it). */
struct archive_game {
	int64_t id; /* its row; 0: not kept */
	const char *room;
	struct gamespec spec;
	int private_room;
	const char *code;
	int opening_plies; /* an opening rule: -1 until its machine is done */
	int64_t tpair;     /* the tournament pairing it is played for, or 0 */
	const char *names[2];
	enum archive_player players[2];
	game_result_t result;
	game_reason_t reason;
	/* an end: where to say what it did to the ratings, once committed
	 * (on the loop); NULL: not wanted */
	struct archive_change *change;
};

/* A game in progress as the store kept it (archive_restore). */
struct archive_saved {
	int64_t id;
	char room[PROTO_ROOM_MAX + 1];
	struct gamespec spec;
	int private_room;
	char code[PROTO_CODE_MAX + 1];
	int opening_plies;
	char opening_log[STORE_OPENING_LOG_MAX + 1]; /* the opening's acts with no stone */
	int moved_both; /* both sides moved before an undo took stones back */
	int64_t tpair;  /* the tournament pairing it is played for, or 0 */
	char names[2][PROTO_NAME_MAX + 1];
	char owner[STORE_OWNER_MAX + 1]; /* the node that writes it; "": none named */
	int account[2];                  /* each name is a registered account */
	int bot[2];                      /* ... a bot account's (PROTOCOL.md 5.22) */
	struct archive_rating rating[2]; /* the accounts' ratings for the rule now */
	int nmoves;
	move_t moves[RULES_CELLS];
	int64_t left[2]; /* both clocks after the last move (ms) */
};

/* A stone as the archive keeps it: the time it took, both clocks after it. */
struct archive_move {
	move_t move;
	int64_t used_ms, black_ms, white_ms;
};

/*
 * Each call below is one transaction: on disk whole or not at all (the
 * async writes on PostgreSQL's store thread: a savepoint each in a group
 * transaction with the writes queued beside them, answered after its
 * commit; a refused one rolls back itself alone). -1 (the
 * reason logged) when the store refused it: nothing was written and the
 * caller must change nothing, in memory or on the wire.
 */
/* The game starts: its row, with players and settings; *id is its row (0
 * when no store keeps games), and rating[] both seats' ratings for its
 * rule as they stand (read before the row is written: a refused read
 * starts nothing). */
int archive_begin(
    struct server *srv, const struct archive_game *g, int64_t *id, struct archive_rating rating[2]);
/* Stones from ply first on (one move, or the stones of a swap2 step), and,
 * when they end the game, the end (end non-NULL: as archive_end). */
int archive_moves(struct server *srv, int64_t id, int first, const struct archive_move *mv, int n,
    const struct archive_game *end);
/*
 * PostgreSQL: the moves are committed by one store thread with its own
 * connection, so the event loop never waits for the network. Whether this
 * server's moves go that way (SQLite's commit on the loop is a local write
 * that takes microseconds: archive_moves).
 */
int archive_async(struct server *srv);
/*
 * Whether the writes of a game (stones, an undo, an opening's act, the
 * end) are answered later, through the _async verbs below: on
 * PostgreSQL's store thread, and with SQLite at the end of the loop turn,
 * where the writes of every room that turn are one group transaction (one
 * set of WAL locks and frames for all of them). A game's start and the
 * reads are not: archive_async says where they go.
 */
int archive_writes_async(struct server *srv);
/* Called on the loop once the write is committed (GERR_OK) or refused
 * (GERR_STORE, GERR_STORE_DOWN, GERR_FENCED: nothing was written). */
typedef void (*archive_done_fn)(void *arg, game_err_t e);
/* As archive_moves, answered later through done (n 0 with end: the end
 * alone, as archive_end); -1 at once when it cannot be queued (done is
 * then never called). */
int archive_moves_async(struct server *srv, int64_t id, int first, const struct archive_move *mv,
    int n, const struct archive_game *end, archive_done_fn done, void *arg);
/* archive_truncate and archive_colours, answered later as
 * archive_moves_async. */
int archive_truncate_async(
    struct server *srv, int64_t id, int nmoves, archive_done_fn done, void *arg);
int archive_colours_async(struct server *srv, int64_t id, const char *black, const char *white,
    int opening_plies, const char *log, archive_done_fn done, void *arg);
/* As archive_begin, on the store thread: done(arg, e, id, rating) on the
 * loop, id the game's row and rating both seats' ratings when e is GERR_OK
 * (refused: GERR_STORE, GERR_STORE_DOWN, nothing written); -1 at once when
 * it cannot be queued (done is then never called). */
typedef void (*archive_begun_fn)(
    void *arg, game_err_t e, int64_t id, const struct archive_rating *rating);
int archive_begin_async(
    struct server *srv, const struct archive_game *g, archive_begun_fn done, void *arg);
/* A stored session looked up on the store thread (RESUME after a
 * restart): the token's name if the store holds it unexpired, and whether
 * that name is an account (1; 2 a bot account, PROTOCOL.md 5.22). */
struct archive_lookup {
	char token[40];
	int found, account;
	char name[PROTO_NAME_MAX + 1];
};
/* Queues the lookup of l->token; done(arg, l) on the loop (l NULL: the
 * queue was freed first, at shutdown). -1 when it cannot be queued. */
int archive_lookup_async(struct server *srv, const char *token,
    void (*done)(void *arg, const struct archive_lookup *l), void *arg);
/*
 * Any other work on the store, one path for both backends: run(st, arg)
 * with the store thread's own connection (PostgreSQL), then back(arg, 0) on
 * the loop when it is done; with SQLite both at once, on the loop with the
 * server's store (a local read or write of microseconds). back(arg, 1)
 * instead of both when the queue was freed first (shutdown). run touches
 * nothing but st and arg. -1 when it cannot be queued (neither is called).
 */
typedef void (*archive_run_fn)(struct store *st, void *arg);
int archive_call(
    struct server *srv, archive_run_fn run, void (*back)(void *arg, int cancelled), void *arg);
/* Starts the store thread for a PostgreSQL store (nothing for SQLite);
 * archive_stop joins it, dropping answers not yet delivered. */
int archive_start(struct server *srv);
void archive_stop(struct server *srv);
/* An accepted undo: the store keeps the first nmoves. */
int archive_truncate(struct server *srv, int64_t id, int nmoves);
/* An opening's act that places no stone (a colour taken, a declaration,
 * offers, a branch): the seats' names as black and white (the opener black
 * while it goes on), the opening's plies once it is done (-1 before) and
 * its log (rules/opening.h), from which a restart plays it back. */
int archive_colours(struct server *srv, int64_t id, const char *black, const char *white,
    int opening_plies, const char *log);
/* The game is over: result, reason and, for a rated game between rated
 * players, both players' Glicko-2 ratings, all at once; a game is rated once
 * only (a game that has ended already is refused). g->change, when given,
 * says what the end did to the ratings once it is committed (with the
 * async writes too: before their done is called). */
int archive_end(struct server *srv, const struct archive_game *g);
/* The refusal for the write that just failed: GERR_STORE_DOWN when the
 * database could not be reached, else GERR_STORE. */
game_err_t archive_refusal(struct server *srv);
/* Whether this server keeps ratings (it has a store): the capability
 * `ratings`, and a room's * RATINGS lines. */
int archive_rates(struct server *srv);
/* Whether name is a registered account: 0, 1, or 2 for a bot account. */
int archive_is_account(struct server *srv, const char *name);
/* At start: play(srv, saved, arg) for every game the store holds
 * unfinished; a game play refuses (-1, with *why) ends as aborted, one it
 * passes over (1: another node's) stays as it is. Returns the number
 * taken, or -1. */
int archive_restore(struct server *srv,
    int (*play)(struct server *srv, const struct archive_saved *sv, const char **why));

/*
 * A cluster on one shared database (PostgreSQL) fences its writes: each
 * commit of a game checks, in its transaction, that this node still owns
 * the game (store_game_fence), so a node that lost a room's lease (paused,
 * cut off) cannot write to the game another node adopted. archive_fence is
 * this node's name when it fences, else NULL.
 */
const char *archive_fence(struct server *srv);
enum { ARCHIVE_OPEN_MAX = 4096 }; /* unfinished games one scan sees */
/* On the store thread: every unfinished game with its room and owner;
 * done(arg, g, n) on the loop (n -1: the store failed). -1 when it cannot
 * be queued. */
int archive_open_async(
    struct server *srv, void (*done)(void *arg, const store_open_game_t *g, int n), void *arg);
/* The adoption's answer: the game as restore takes it, or NULL with why. */
typedef void (*archive_adopted_fn)(void *arg, const struct archive_saved *sv, const char *why);
/* On the store thread: makes this node the owner of game id (the claim
 * commits first), then reads it whole; done on the loop. -1 when it cannot
 * be queued (done is then never called). */
int archive_adopt_async(struct server *srv, int64_t id, archive_adopted_fn done, void *arg);

#endif
