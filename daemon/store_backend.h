/*
 * store_backend.h: what the store's front (store.c) and its backends
 * (store_sqlite.c, store_pg.c) share, and nothing else includes: the
 * handle every store_* verb takes, and one table of the verbs per backend.
 * A backend keeps its connection behind be, sets msg when a call fails and
 * unavailable when it failed because the database cannot be reached; it
 * calls store_fault at its write points. The verbs mean what store.h says.
 */
#ifndef GOMOKUD_STORE_BACKEND_H
#define GOMOKUD_STORE_BACKEND_H

#include "daemon/store.h"

/* A fault to inject (GOMOKUD_FAULTS builds): see store.h. */
struct store_fault_at {
	char when[8], point[32], action[8];
	int nth, seen;
};

struct store {
	const struct store_ops *ops;
	void *be; /* the backend's connection and statements */
	char msg[256];
	char path[512];
	int unavailable;             /* the last failure: the database could not be reached */
	struct store_fault_at fault; /* point[0] == 0: none */
};

struct store_ops {
	/* Opens path into s; on failure err says why and close follows. */
	int (*open)(store_t *s, const char *path, char *err, size_t errlen);
	void (*close)(store_t *s);
	const char *(*error)(store_t *s);
	int (*schema_version)(store_t *s);
	int (*manual_checkpoints)(store_t *s);
	int (*begin)(store_t *s);
	int (*commit)(store_t *s);
	void (*rollback)(store_t *s);
	int (*savepoint)(store_t *s);
	int (*release)(store_t *s);
	void (*rollback_to)(store_t *s);
	int (*user_create)(store_t *s, const char *name, const char *pwhash, int64_t now);
	int (*user_get)(store_t *s, const char *name, char out_name[STORE_NAME_MAX + 1],
	    char *pwhash, size_t hashlen);
	int (*session_put)(store_t *s, const char *digest, const char *name, int64_t expires);
	int (*session_get)(
	    store_t *s, const char *digest, int64_t now, char name[STORE_NAME_MAX + 1]);
	int (*session_drop)(store_t *s, const char *digest);
	int (*session_expire)(store_t *s, int64_t now);
	int (*session_names)(
	    store_t *s, int64_t now, void (*fn)(void *arg, const char *name), void *arg);
	int (*login_put)(
	    store_t *s, const char *digest, const char *name, int64_t created, int64_t expires);
	/* drops name's tokens but the newest keep, and those expired by now */
	int (*login_trim)(store_t *s, const char *name, int keep, int64_t now);
	int (*login_get)(
	    store_t *s, const char *digest, int64_t now, char name[STORE_NAME_MAX + 1]);
	int (*login_drop)(store_t *s, const char *digest);
	int (*login_drop_user)(store_t *s, const char *name);
	int (*user_bot)(store_t *s, const char *name, int64_t *since);
	/* since 0: a person again; STORE_NOT_FOUND when no such account */
	int (*user_bot_set)(store_t *s, const char *name, int64_t since);
	int (*bots)(store_t *s, void (*fn)(void *arg, const char *name, int64_t since), void *arg);
	int (*user_nobots)(store_t *s, const char *name, int *no);
	int (*user_nobots_set)(store_t *s, const char *name, int no);
	int (*bot_token_put)(
	    store_t *s, const char *digest, const char *name, int64_t created, int64_t expires);
	/* drops the tokens expired by now */
	int (*bot_token_expire)(store_t *s, int64_t now);
	/* the token's row gone: its account and end (STORE_NOT_FOUND: none) */
	int (*bot_token_take)(
	    store_t *s, const char *digest, char name[STORE_NAME_MAX + 1], int64_t *expires);
	int (*bot_token_drop_user)(store_t *s, const char *name);
	int (*rating_get)(store_t *s, const char *name, rule_t rule, store_rating_t *out);
	int (*rating_put)(store_t *s, rule_t rule, const store_rating_t *r);
	int (*top)(store_t *s, rule_t rule, int bots, int page, store_rating_t *out, int *total);
	int (*game_begin)(store_t *s, store_game_t *g);
	int (*game_move)(store_t *s, int64_t game_id, int ply, const store_move_t *m);
	int (*game_colours)(store_t *s, int64_t game_id, const char *black, const char *white,
	    int opening_plies, const char *log);
	int (*game_truncate)(store_t *s, int64_t game_id, int from);
	int (*game_end)(store_t *s, const store_game_t *g);
	int (*game_load)(store_t *s, int64_t id, store_game_t *g, store_move_t *moves);
	int (*games_unfinished)(store_t *s, int64_t *ids, int max);
	int (*games_open)(store_t *s, store_open_game_t *out, int max);
	int (*open_stones)(store_t *s, const char *owner, store_stone_fn *fn, void *arg);
	int (*game_claim)(store_t *s, int64_t id, const char *owner);
	int (*game_fence)(store_t *s, int64_t id, const char *owner);
	int (*game_move_owned)(
	    store_t *s, int64_t game_id, int ply, const store_move_t *m, const char *owner);
	int (*history)(store_t *s, const char *name, int page, store_game_t *out, int *total);
	int (*sanction_put)(store_t *s, const store_sanction_t *x);
	int (*sanction_drop)(store_t *s, int kind, const char *target);
	int (*sanctions)(
	    store_t *s, int64_t now, void (*fn)(void *arg, const store_sanction_t *x), void *arg);
	int (*puzzle_put)(store_t *s, store_puzzle_t *p);
	int (*puzzle_get)(store_t *s, int64_t id, store_puzzle_t *out);
	int (*puzzle_pick)(store_t *s, const char *name, double rating, int64_t *id);
	int (*puzzle_count)(store_t *s, int64_t *n);
	int (*puzzle_nth)(store_t *s, int64_t k, int64_t *id);
	int (*puzzle_try)(
	    store_t *s, const char *name, int64_t id, int solved, int64_t at, const glicko_t *g);
	int (*review_put)(store_t *s, int64_t game_id, int64_t made, const char *body);
	int (*review_get)(store_t *s, int64_t game_id, char *out, size_t cap);
	int (*tourney_new)(store_t *s, store_tourney_t *t);
	int (*tourney_set)(store_t *s, const store_tourney_t *t);
	int (*tourney_get)(store_t *s, int64_t id, store_tourney_t *out);
	int (*tourneys)(
	    store_t *s, int64_t since, void (*fn)(void *arg, const store_tourney_t *t), void *arg);
	int (*tplayer_put)(store_t *s, int64_t tourney, const store_tplayer_t *p);
	int (*tplayer_drop)(store_t *s, int64_t tourney, const char *name);
	int (*tplayers)(store_t *s, int64_t tourney,
	    void (*fn)(void *arg, const store_tplayer_t *p), void *arg);
	/* its own transaction, or a savepoint of its own in the caller's */
	int (*tround_put)(store_t *s, int64_t tourney, int round, store_tgame_t *g, int n);
	int (*tgame_result)(store_t *s, int64_t tgame, int result);
	int (*tgame_room)(store_t *s, int64_t tgame, const char *room);
	int (*tgames)(
	    store_t *s, int64_t tourney, void (*fn)(void *arg, const store_tgame_t *g), void *arg);
	int (*tgame_linked)(store_t *s, int64_t tgame, store_game_t *out);
	int (*user_league)(store_t *s, const char *name, int *yes);
	int (*user_league_set)(store_t *s, const char *name, int yes);
	/* its own transaction, or a savepoint of its own in the caller's */
	int (*league_event)(store_t *s, const char *league, int n, store_tourney_t *t,
	    const store_tplayer_t *p, int np);
	int (*league_events)(store_t *s, const char *league,
	    void (*fn)(void *arg, int n, const store_tourney_t *t), void *arg);
	int (*setting_get)(store_t *s, const char *key, char *out, size_t cap);
	int (*setting_put)(store_t *s, const char *key, const char *value);
};

extern const struct store_ops store_sqlite_ops;
extern const struct store_ops store_pg_ops;
/* SQLite's settings for the whole process (store_process_init). */
void store_sqlite_process_init(void);

/* Moves as the store keeps them: cells (move_t), comma-separated, "-"
 * for none. text returns the length or -1 (does not fit); read the count
 * or -1 (not such a list, more than max, a cell off a size board). */
int store_cells_text(const move_t *m, int n, char *buf, size_t cap);
int store_cells_read(const char *text, int size, move_t *m, int max);

#endif
