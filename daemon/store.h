/*
 * store.h: the store: accounts, sessions, ratings and every game, in
 * progress and finished. Two backends with one schema meaning: SQLite, a
 * file under the state directory (WAL mode, synchronous=NORMAL: a killed
 * process loses nothing committed; a power cut may lose the last moments),
 * and PostgreSQL, named by a postgresql:// URL (libpq; a lost connection is
 * tried again, with backoff, at the next call). Each call that writes
 * commits before it returns. One store belongs to one thread; it blocks
 * that thread while the database answers.
 */
#ifndef GOMOKUD_STORE_H
#define GOMOKUD_STORE_H

#include <stddef.h>
#include <stdatomic.h>
#include <stdint.h>

#include "daemon/glicko.h"
#include "rules/rules.h"

enum {
	STORE_NAME_MAX = 20,
	STORE_ROOM_MAX = 16,
	STORE_SCHEMA_VERSION = 14,
	STORE_OPENING_LOG_MAX = 255, /* rules/opening.h's OPENING_LOG_MAX, without its NUL */
	STORE_OWNER_MAX = 16,        /* a game's owner: the node-name of the node that plays it */
	STORE_TARGET_MAX = 48,       /* a sanction's target: a name key, an address or CIDR */
	STORE_REASON_MAX = 400,
	STORE_PAGE = 20,            /* rows a page of HISTORY and TOP */
	STORE_LOGINS_PER_USER = 10, /* login tokens an account keeps: the oldest goes */
	STORE_PUZZLE_LINE_MAX = 64, /* a puzzle's solution, moves */
	STORE_RULE_PUZZLE = 100,    /* ratings' rule for a player's puzzle rating */
	STORE_BOT_TOKEN_S = 86400,  /* a bot token's life (issue 49) */
};

/* Return codes besides 0 (done) and -1 (error: see store_error). */
enum { STORE_NOT_FOUND = 1, STORE_EXISTS = 2 };

typedef struct store store_t;

typedef struct {
	int64_t id;
	char room[STORE_ROOM_MAX + 1];
	int rule, size, opening, rated;
	int tc_base, tc_inc; /* seconds; 0 base = no clock */
	int private_room;    /* joined by invite code only */
	char code[33];       /* that code */
	int opening_plies;   /* an opening rule: -1 until its machine is done */
	char opening_log[STORE_OPENING_LOG_MAX + 1]; /* its acts that place no stone */
	char black[STORE_NAME_MAX + 1], white[STORE_NAME_MAX + 1];
	int64_t started, ended;           /* unix seconds; ended 0 = in progress */
	int result, reason;               /* game.h's values; -1 in progress */
	double black_before, black_after; /* ratings; 0 when unrated */
	double white_before, white_after;
	int nmoves;                      /* filled by reads */
	char owner[STORE_OWNER_MAX + 1]; /* the node that writes it ("" alone) */
	int moved_both; /* both sides had moved before an undo (ABORT is too late) */
	int64_t tpair;  /* the tournament pairing it is played for (store_tgame_t.id), or 0 */
} store_game_t;

/* An unfinished game as the adoption scan sees it (store_games_open). */
typedef struct {
	int64_t id;
	char room[STORE_ROOM_MAX + 1];
	char owner[STORE_OWNER_MAX + 1];
} store_open_game_t;

typedef struct {
	move_t move;
	int64_t used_ms;            /* time the mover spent on it */
	int64_t black_ms, white_ms; /* both clocks after it */
} store_move_t;

typedef struct {
	char name[STORE_NAME_MAX + 1];
	glicko_t g;
	int wins, losses, draws;
} store_rating_t;

/*
 * Opens path: a postgresql:// (or postgres://) URL, or a SQLite file,
 * created only when no file is there. An existing file must pass SQLite's
 * quick_check, or store_open fails with a message in err and leaves the
 * file untouched. Applies pending schema migrations, each in one
 * transaction (PostgreSQL counts them in its schema_version table).
 */
int store_open(const char *path, store_t **out, char *err, size_t errlen);
void store_close(store_t *s);
/* The file this store opened. */
const char *store_path(store_t *s);
/* Stops SQLite checkpointing on this connection's commits (they would copy
 * the WAL into the database and fsync on the caller's thread); the owner
 * then calls store_checkpoint, from any thread, now and then. */
int store_manual_checkpoints(store_t *s);
/* Copies what it can of the WAL into the database on a connection of its
 * own, without blocking writers (a passive checkpoint). 0 or -1. */
int store_checkpoint(const char *path);
const char *store_error(store_t *s);
/* Whether the last call failed because the database could not be reached
 * (PostgreSQL down or the connection lost), not because it refused. */
int store_unavailable(store_t *s);
/* Whether path names a PostgreSQL database rather than a SQLite file. */
int store_is_remote(const char *path);
/* path as it may be logged: a PostgreSQL URL's password (user:PASSWORD@,
 * password=...) as "***"; a file's path as it is. */
void store_redacted(const char *path, char *out, size_t cap);
int store_schema_version(store_t *s);

/* Accounts; names compare case-insensitively (STORE_EXISTS on a clash). */
int store_user_create(store_t *s, const char *name, const char *pwhash, int64_t now);
/* The stored spelling of name and its password hash (STORE_NOT_FOUND). */
int store_user_get(
    store_t *s, const char *name, char out_name[STORE_NAME_MAX + 1], char *pwhash, size_t hashlen);

/* Sessions are stored under the token's digest, never the token. */
int store_session_put(store_t *s, const char *digest, const char *name, int64_t expires);
/* The session's name if it exists and expires after now (STORE_NOT_FOUND). */
int store_session_get(store_t *s, const char *digest, int64_t now, char name[STORE_NAME_MAX + 1]);
int store_session_drop(store_t *s, const char *digest);
int store_session_expire(store_t *s, int64_t now);
/* fn(arg, name) for the name of each session kept and not expired at now
 * (at start: the guests' names a restart must not give away); how many,
 * or -1. */
int store_session_names(
    store_t *s, int64_t now, void (*fn)(void *arg, const char *name), void *arg);

/* Login tokens (REMEMBER, AUTH), stored under the token's digest with the
 * account's name, when made and when they end. store_login_put keeps at
 * most STORE_LOGINS_PER_USER of an account (the oldest go, with those
 * expired by created), in one transaction. */
int store_login_put(
    store_t *s, const char *digest, const char *name, int64_t created, int64_t expires);
/* The account of a login token that expires after now (STORE_NOT_FOUND). */
int store_login_get(store_t *s, const char *digest, int64_t now, char name[STORE_NAME_MAX + 1]);
int store_login_drop(store_t *s, const char *digest);
/* Every login token of the account name (a ban). */
int store_login_drop_user(store_t *s, const char *name);

/* Bot accounts (issue 49). An account's mark: since gets the unix
 * seconds it became a bot, 0 for a person (STORE_NOT_FOUND: no such
 * account). */
int store_user_bot(store_t *s, const char *name, int64_t *since);
/* An account's refusal of challenges from bot accounts (issue 49): *no 1
 * when it refuses them; STORE_NOT_FOUND when no such account. */
int store_user_nobots(store_t *s, const char *name, int *no);
int store_user_nobots_set(store_t *s, const char *name, int no);
/* fn for each bot account (its spelling, since), by name; the count or -1. */
int store_bots(store_t *s, void (*fn)(void *arg, const char *name, int64_t since), void *arg);
/* A bot token, kept as its digest, for the account name until expires
 * (one use). The account must exist (STORE_NOT_FOUND); tokens expired by
 * created go in the same transaction. */
int store_bot_token_put(
    store_t *s, const char *digest, const char *name, int64_t created, int64_t expires);
/* BOTUPGRADE, in one transaction: the token of digest is used up whoever
 * presents it; when it had not expired at now and was issued for name
 * (any case), name is a bot from now (a bot already: since as it was). 0, or STORE_NOT_FOUND (no such
 * token, expired, or another account's: nothing marked), or -1. */
int store_bot_upgrade(store_t *s, const char *digest, const char *name, int64_t now);
/* The mark taken away and every unused bot token of name dropped, in one
 * transaction: 0, or STORE_NOT_FOUND when name is no account. */
int store_bot_revoke(store_t *s, const char *name);

/* Ratings per rule: 0, or STORE_NOT_FOUND with the starting rating filled in
 * for a player never rated under that rule. */
int store_rating_get(store_t *s, const char *name, rule_t rule, store_rating_t *out);
/* Saves both players' ratings after a game, counting the result. */
int store_rating_put(store_t *s, rule_t rule, const store_rating_t *r);
/* One page (from 1) of the leaderboard of a rule: up to STORE_PAGE rows into
 * out; *total gets the number of rated players. bots 0: everyone but bot
 * accounts (the people's, with the server's botN under rate-bots); 1: the
 * bot accounts alone (their own, PROTOCOL.md 5.22). Returns the rows or -1. */
int store_top(store_t *s, rule_t rule, int bots, int page, store_rating_t *out, int *total);

/*
 * Transactions: between store_begin and store_commit the writes are one
 * transaction, on disk all together or not at all (store_rollback, or a
 * crash before the commit). Without store_begin each write commits alone.
 */
int store_begin(store_t *s);
int store_commit(store_t *s);
void store_rollback(store_t *s);
/*
 * Inside a transaction, one write's own part of it (a group commit: many
 * rooms' writes in one transaction, archive.c): store_savepoint marks
 * where it starts, store_release keeps it, store_rollback_to undoes it
 * alone (the transaction goes on, as it was at the savepoint). One level:
 * each savepoint is released or rolled back before the next.
 */
int store_savepoint(store_t *s);
int store_release(store_t *s);
void store_rollback_to(store_t *s);

/*
 * Fault points, for tests only: in a build with -DGOMOKUD_FAULTS,
 * GOMOKUD_FAULT=WHEN:POINT:N:ACTION in the environment of store_open makes
 * the N-th pass (from 1) before or after POINT fail (the call returns -1,
 * "injected fault"), kill the process at once (SIGKILL) or take two seconds
 * and go on (slow). WHEN is before or
 * after; POINT is a write's name with dashes (save-move, save-rating,
 * end-game, begin-game, save-colours, undo-moves, commit, migration; the
 * tournaments' tourney-new, tourney-set, tplayer-put, tplayer-drop,
 * tround-put (each pairing and the round), tgame-result, tgame-room); ACTION
 * is fail, die or slow. Other builds ignore the variable. store_fault lets the
 * store's callers name points of their own (it returns -1 to fail).
 */
int store_fault(store_t *s, const char *when, const char *point);

/* Once in a process, before any store is opened: the database
 * libraries' settings for the whole process (SQLite keeps no memory
 * statistics, which would take a global mutex at every allocation). */
void store_process_init(void);

/* Games. begin fills g->id. */
int store_game_begin(store_t *s, store_game_t *g);
/* Appends ply (0-based); plies must come in order. */
int store_game_move(store_t *s, int64_t game_id, int ply, const store_move_t *m);
/* An opening's act that places no stone: who plays which colour (the
 * opener black until it is done), how many plies the opening took (-1
 * while it goes on) and its log (opening_log_append). */
int store_game_colours(store_t *s, int64_t game_id, const char *black, const char *white,
    int opening_plies, const char *log);
/* Drops every ply from `from` on (an accepted undo). */
int store_game_truncate(store_t *s, int64_t game_id, int from);
/* Records the end: g->ended, result, reason and the ratings; STORE_NOT_FOUND
 * when there is no such game or it has ended already (never twice). */
int store_game_end(store_t *s, const store_game_t *g);
/* A game and its moves; moves must hold RULES_CELLS entries. */
int store_game_load(store_t *s, int64_t id, store_game_t *g, store_move_t *moves);
/* Ids of the games without an end, oldest first; returns the count (at most
 * max) or -1. */
int store_games_unfinished(store_t *s, int64_t *ids, int max);
/* Unfinished games with their rooms and owners, oldest first, at most max
 * into out; the count or -1. */
int store_games_open(store_t *s, store_open_game_t *out, int max);
/* fn for each stone of each unfinished game not owned by owner (a
 * cluster's other nodes' games: ANALYSE's fair play), in order of game and
 * ply, with the game's board size; the count of stones or -1. */
typedef void store_stone_fn(void *arg, int64_t game, const char *room, int size, move_t move);
int store_open_stones(store_t *s, const char *owner, store_stone_fn *fn, void *arg);
/*
 * Fencing (a cluster's room leases): a game is written only by its owner.
 * claim makes owner the game's owner (adoption; PostgreSQL waits at most
 * a second for a row lock, then fails: try again); fence, inside the
 * caller's transaction, locks the game's row (PostgreSQL: FOR UPDATE, so a
 * claim waits for that transaction to end) and says whether owner still
 * owns it unfinished. Both STORE_NOT_FOUND when not (ended, or another's).
 */
int store_game_claim(store_t *s, int64_t id, const char *owner);
int store_game_fence(store_t *s, int64_t id, const char *owner);
/* store_game_move fenced in one statement (a transaction of its own, the
 * row locked only while it runs): STORE_NOT_FOUND, nothing written, when
 * owner does not own the game unfinished. */
int store_game_move_owned(
    store_t *s, int64_t game_id, int ply, const store_move_t *m, const char *owner);
/* One page (from 1) of a player's finished games, newest first; *total gets
 * their number. Returns the rows or -1. */
int store_history(store_t *s, const char *name, int page, store_game_t *out, int *total);

/* Bans (no play) and mutes (no chat), kept across restarts. */
enum { STORE_BAN = 0, STORE_MUTE = 1 };
typedef struct {
	int kind;                          /* STORE_BAN or STORE_MUTE */
	char target[STORE_TARGET_MAX + 1]; /* lower-cased name, or canonical address/CIDR */
	char by[STORE_NAME_MAX + 1];       /* who imposed it */
	char reason[STORE_REASON_MAX + 1];
	int64_t created, expires; /* unix seconds; expires 0: never */
} store_sanction_t;

/* Adds or replaces the sanction of that kind on that target. */
int store_sanction_put(store_t *s, const store_sanction_t *x);
/* Lifts it: 0, or STORE_NOT_FOUND when there was none. */
int store_sanction_drop(store_t *s, int kind, const char *target);
/* Calls fn for every sanction that has not expired at now; the count or -1. */
int store_sanctions(
    store_t *s, int64_t now, void (*fn)(void *arg, const store_sanction_t *x), void *arg);
/* A puzzle (issue 47): a position of a public game where the side to
 * move missed a forced win of its class (engine/puzzle.h), with the
 * solution kept when it was made and its own Glicko-2 rating. */
typedef struct {
	int64_t id, game_id;
	int ply; /* the position: the game's first ply moves */
	int rule, size;
	int cls, plies; /* puzzle_class_t; the plies of the kept solution */
	int nmoves;
	move_t moves[RULES_CELLS];
	int nline;
	move_t line[STORE_PUZZLE_LINE_MAX];
	glicko_t g;
	int tries, solved; /* first tries of players, and those solved */
	int64_t made;      /* unix seconds */
} store_puzzle_t;
/* Keeps p (its g as given), p->id its row: 0, or STORE_EXISTS when its
 * game's ply has one already. */
int store_puzzle_put(store_t *s, store_puzzle_t *p);
int store_puzzle_get(store_t *s, int64_t id, store_puzzle_t *out);
/* The puzzle rated nearest rating that name has not tried ("" tried
 * none): 0 with *id, or STORE_NOT_FOUND. */
int store_puzzle_pick(store_t *s, const char *name, double rating, int64_t *id);
/* How many puzzles there are, and the k-th by id (from 0). */
int store_puzzle_count(store_t *s, int64_t *n);
int store_puzzle_nth(store_t *s, int64_t k, int64_t *id);
/* name's first try of puzzle id, solved or not, at (unix seconds): kept
 * with the puzzle's rating after it (g) and its counts; STORE_EXISTS
 * (nothing changed) when name tried it before. */
int store_puzzle_try(
    store_t *s, const char *name, int64_t id, int solved, int64_t at, const glicko_t *g);
/* A finished game's engine review (issue 47), as engine/review.h's
 * review_text: put keeps the first one made (a second is not an error:
 * two nodes may make it at once); get STORE_NOT_FOUND when there is none,
 * -1 also when it does not fit cap. */
int store_review_put(store_t *s, int64_t game_id, int64_t made, const char *body);
int store_review_get(store_t *s, int64_t game_id, char *out, size_t cap);
/*
 * Tournaments (issue 48): an event, its players and its pairings. The
 * numbers are the wire's orders (proto.h): kind proto_tkind_t, state
 * proto_tstate_t, entrants proto_entrants_t, a pairing's result
 * proto_tresult_t; rule, opening and the clock as store_game_t's.
 */
enum { STORE_TOURNEY_NAME_MAX = 120 }; /* bytes of UTF-8 */
typedef struct {
	int64_t id;
	int kind, state, entrants;
	int rule, size, opening, rated;
	int tc_base, tc_inc;
	int64_t starts; /* unix seconds */
	int length;     /* an arena's minutes, a Swiss's rounds, a round robin's cycles */
	int round;      /* the last round paired (an arena: its pairing waves); 0 before */
	char creator[STORE_NAME_MAX + 1];      /* "" the server (an admin's schedule) */
	char name[STORE_TOURNEY_NAME_MAX + 1]; /* "" none */
	char owner[STORE_OWNER_MAX + 1];       /* the node that runs it ("" alone) */
	int64_t created, ended;                /* unix seconds; ended 0 until over or cancelled */
} store_tourney_t;
typedef struct {
	char name[STORE_NAME_MAX + 1];
	int seq;       /* the order of joining, from 1 (kept when a player leaves) */
	int rating;    /* when joining; pairing numbers follow it, then seq */
	int bot_level; /* 1..10 a server bot, 100 a hosted engine (bot-<name>), 0 a person */
	int withdrawn; /* 1: paired no more (after the start; before it a leaver is dropped) */
} store_tplayer_t;
typedef struct {
	int64_t id; /* the pairing's row; a game played for it names it (store_game_t.tpair) */
	int round, board;
	char first[STORE_NAME_MAX + 1];
	char second[STORE_NAME_MAX + 1]; /* "" for a bye */
	int result;                      /* 0 pending */
	char room[STORE_ROOM_MAX + 1];   /* "" while no game was made for it */
} store_tgame_t;
/* A new event, t->id its row (t->created, t->state as given). */
int store_tourney_new(store_t *s, store_tourney_t *t);
/* Its state, round, ended and owner as in t (the rest is fixed):
 * STORE_NOT_FOUND when there is no event t->id. */
int store_tourney_set(store_t *s, const store_tourney_t *t);
/* STORE_NOT_FOUND when there is no such event. */
int store_tourney_get(store_t *s, int64_t id, store_tourney_t *out);
/* fn for each event not over nor cancelled, and each that ended at or
 * after since, oldest first; the count or -1. */
int store_tourneys(
    store_t *s, int64_t since, void (*fn)(void *arg, const store_tourney_t *t), void *arg);
/* Adds the player (p->seq 0: the next after the event's highest), or,
 * when it is in (by name, any case), changes its withdrawn and rating
 * only (its spelling, seq and bot_level kept). STORE_NOT_FOUND when there
 * is no such event. */
int store_tplayer_put(store_t *s, int64_t tourney, const store_tplayer_t *p);
/* Takes the player out (a leave before the start): STORE_NOT_FOUND when not in. */
int store_tplayer_drop(store_t *s, int64_t tourney, const char *name);
/* fn for each player, by seq; the count or -1. */
int store_tplayers(
    store_t *s, int64_t tourney, void (*fn)(void *arg, const store_tplayer_t *p), void *arg);
/* A round's pairings g[0..n), all at once with the event's round set to
 * round, in one transaction: each g[i].id its row, g[i].round round
 * (their result and room as given). STORE_EXISTS, nothing written, when
 * the event has that round paired already (its round >= round, or a
 * pairing of that round is there: a round is never paired twice,
 * whoever asks; on PostgreSQL the event's row is locked, so a second
 * asker waits and then finds it), or when two of g share a board;
 * STORE_NOT_FOUND when there is no such event; -1 for a round below 1.
 * Inside the caller's transaction (store_begin) it is a savepoint of its
 * own in it: refused, it leaves that transaction as it was. */
int store_tround_put(store_t *s, int64_t tourney, int round, store_tgame_t *g, int n);
/* A pairing's result, from pending only: STORE_EXISTS when it has one,
 * STORE_NOT_FOUND when there is no such pairing. */
int store_tgame_result(store_t *s, int64_t tgame, int result);
/* The room of the game made for a pairing: STORE_NOT_FOUND when there is
 * no such pairing. */
int store_tgame_room(store_t *s, int64_t tgame, const char *room);
/* fn for each pairing of the event, by round then board; the count or -1. */
int store_tgames(
    store_t *s, int64_t tourney, void (*fn)(void *arg, const store_tgame_t *g), void *arg);
/* The game played for pairing tgame (store_game_t.tpair; the newest when
 * several were begun): its row without moves (nmoves their count, as
 * store_game_load gives it), or STORE_NOT_FOUND when none was begun. */
int store_tgame_linked(store_t *s, int64_t tgame, store_game_t *out);

/*
 * The engine league (issue 49, league.h): a bot account's opt-in
 * (users.league, schema step 14; get is STORE_NOT_FOUND for an account
 * that is not a bot), and each league's events, numbered from 1.
 */
int store_user_league(store_t *s, const char *name, int *yes);
int store_user_league_set(store_t *s, const char *name, int yes);
/* League league's event n: the event t (t->id its row) with its players
 * p[0..np), linked as (league, n), in one transaction (a savepoint of its
 * own inside the caller's): STORE_EXISTS, nothing written, when the league
 * has an event n already (the pair is a unique key: of two nodes making
 * it at once, one does). */
int store_league_event(
    store_t *s, const char *league, int n, store_tourney_t *t, const store_tplayer_t *p, int np);
/* fn for each event of league with its number, by number; the count or -1. */
int store_league_events(store_t *s, const char *league,
    void (*fn)(void *arg, int n, const store_tourney_t *t), void *arg);

/* Server settings that persist (the MOTD): STORE_NOT_FOUND when unset. */
int store_setting_get(store_t *s, const char *key, char *out, size_t cap);
/* Sets a setting (value NULL: removes it). */
int store_setting_put(store_t *s, const char *key, const char *value);

/*
 * (SQLite only: a PostgreSQL store is backed up with pg_dump, and
 * store_checkpoint does nothing for it.)
 * An online backup of the database at src into dst (replaced only when the
 * copy is whole: it is written beside dst and renamed), on connections of
 * its own, so a worker thread may run it while the owner's connection
 * writes: SQLite's backup API, some pages a step, inside one read
 * transaction (a consistent snapshot; writers go on in WAL mode). *stop
 * (may be NULL) set by another thread gives up between steps. The copy is
 * a self-contained file (rollback journal, not WAL) that passed
 * quick_check. Returns its size in bytes, or -1 with err.
 */
int64_t store_backup(
    const char *src, const char *dst, const atomic_int *stop, char *err, size_t errlen);

#endif
