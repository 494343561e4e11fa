/* store_pg.c: the PostgreSQL backend of the store (libpq): the same tables
 * and meaning as SQLite's, migrations counted in schema_version, statements
 * prepared once per connection, and a lost connection tried again with
 * backoff (store_backend.h). */
#include "daemon/store_backend.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libpq-fe.h>

#include "daemon/auth.h"

/* Schema steps, the same as SQLite's in meaning; migration i takes
 * schema_version i to i + 1. Never edit a step that has shipped: add one. */
static const char *const migrations[STORE_SCHEMA_VERSION] = {
	/* 0 -> 1: accounts, sessions, games and their moves */
	"CREATE TABLE users ("
	"  id BIGSERIAL PRIMARY KEY,"
	"  name TEXT NOT NULL,"
	"  name_key TEXT NOT NULL UNIQUE,"
	"  pwhash TEXT NOT NULL,"
	"  created BIGINT NOT NULL);"
	"CREATE TABLE sessions ("
	"  digest TEXT PRIMARY KEY,"
	"  name TEXT NOT NULL,"
	"  expires BIGINT NOT NULL);"
	"CREATE TABLE games ("
	"  id BIGSERIAL PRIMARY KEY,"
	"  room TEXT NOT NULL,"
	"  rule INTEGER NOT NULL, size INTEGER NOT NULL, opening INTEGER NOT NULL,"
	"  rated INTEGER NOT NULL, tc_base INTEGER NOT NULL, tc_inc INTEGER NOT NULL,"
	"  black TEXT NOT NULL, white TEXT NOT NULL,"
	"  started BIGINT NOT NULL, ended BIGINT,"
	"  result INTEGER NOT NULL DEFAULT -1, reason INTEGER NOT NULL DEFAULT -1);"
	"CREATE TABLE moves ("
	"  game_id BIGINT NOT NULL REFERENCES games(id),"
	"  ply INTEGER NOT NULL,"
	"  move INTEGER NOT NULL,"
	"  used_ms BIGINT NOT NULL,"
	"  black_ms BIGINT NOT NULL, white_ms BIGINT NOT NULL,"
	"  PRIMARY KEY (game_id, ply));",
	/* 1 -> 2: ratings per rule, ratings around each game, history lookups */
	"CREATE TABLE ratings ("
	"  name_key TEXT NOT NULL, rule INTEGER NOT NULL, name TEXT NOT NULL,"
	"  rating DOUBLE PRECISION NOT NULL, deviation DOUBLE PRECISION NOT NULL,"
	"  volatility DOUBLE PRECISION NOT NULL,"
	"  wins INTEGER NOT NULL, losses INTEGER NOT NULL, draws INTEGER NOT NULL,"
	"  PRIMARY KEY (name_key, rule));"
	"CREATE INDEX ratings_top ON ratings (rule, rating DESC);"
	"ALTER TABLE games ADD COLUMN black_key TEXT NOT NULL DEFAULT '';"
	"ALTER TABLE games ADD COLUMN white_key TEXT NOT NULL DEFAULT '';"
	"UPDATE games SET black_key = lower(black), white_key = lower(white);"
	"ALTER TABLE games ADD COLUMN black_before DOUBLE PRECISION NOT NULL DEFAULT 0;"
	"ALTER TABLE games ADD COLUMN black_after DOUBLE PRECISION NOT NULL DEFAULT 0;"
	"ALTER TABLE games ADD COLUMN white_before DOUBLE PRECISION NOT NULL DEFAULT 0;"
	"ALTER TABLE games ADD COLUMN white_after DOUBLE PRECISION NOT NULL DEFAULT 0;"
	"CREATE INDEX games_black ON games (black_key, ended);"
	"CREATE INDEX games_white ON games (white_key, ended);"
	"CREATE INDEX games_open ON games (ended) WHERE ended IS NULL;",
	/* 2 -> 3: what a restart needs to rebuild a room */
	"ALTER TABLE games ADD COLUMN private INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE games ADD COLUMN code TEXT NOT NULL DEFAULT '';"
	"ALTER TABLE games ADD COLUMN opening_plies INTEGER NOT NULL DEFAULT 0;",
	/* 3 -> 4: moderation (bans, mutes) and persistent settings (the MOTD) */
	"CREATE TABLE sanctions ("
	"  kind INTEGER NOT NULL, target TEXT NOT NULL,"
	"  \"by\" TEXT NOT NULL, reason TEXT NOT NULL,"
	"  created BIGINT NOT NULL, expires BIGINT NOT NULL,"
	"  PRIMARY KEY (kind, target));"
	"CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);",
	/* 4 -> 5: the node that owns a game (cluster leases: fencing) */
	"ALTER TABLE games ADD COLUMN owner TEXT NOT NULL DEFAULT '';",
	/* 5 -> 6: both sides have moved in the game, which an undo back to
	 * one stone does not change (ABORT stays too late after a restart);
	 * the moves kept cannot say it, the undo deleted them */
	"ALTER TABLE games ADD COLUMN moved_both INTEGER NOT NULL DEFAULT 0;",
	/* 6 -> 7: login tokens (REMEMBER, AUTH) as digests, oldest first by id */
	"CREATE TABLE login_tokens ("
	"  id BIGSERIAL PRIMARY KEY,"
	"  digest TEXT NOT NULL UNIQUE,"
	"  name TEXT NOT NULL, name_key TEXT NOT NULL,"
	"  created BIGINT NOT NULL, expires BIGINT NOT NULL);"
	"CREATE INDEX login_tokens_user ON login_tokens (name_key, id);",
	/* 7 -> 8: an opening rule's acts that place no stone (colour choices,
	 * declarations, offers, Taraguchi's branch), so a restart mid-opening
	 * resumes at the same stage (rules/opening.h, opening_replay) */
	"ALTER TABLE games ADD COLUMN opening_log TEXT NOT NULL DEFAULT '';",
	/* 8 -> 9: a finished game's engine review (REVIEW, MARKS), made once */
	"CREATE TABLE reviews ("
	"  game_id BIGINT PRIMARY KEY REFERENCES games (id),"
	"  made BIGINT NOT NULL, body TEXT NOT NULL);",
	/* 9 -> 10: puzzles from public games' missed wins, each with its own
	 * rating, and who tried which (a player's puzzle rating is a ratings
	 * row of rule STORE_RULE_PUZZLE) */
	"CREATE TABLE puzzles ("
	"  id BIGSERIAL PRIMARY KEY,"
	"  game_id BIGINT NOT NULL REFERENCES games (id), ply INTEGER NOT NULL,"
	"  rule INTEGER NOT NULL, size INTEGER NOT NULL, moves TEXT NOT NULL,"
	"  class INTEGER NOT NULL, plies INTEGER NOT NULL, line TEXT NOT NULL,"
	"  rating DOUBLE PRECISION NOT NULL, deviation DOUBLE PRECISION NOT NULL,"
	"  volatility DOUBLE PRECISION NOT NULL,"
	"  tries INTEGER NOT NULL DEFAULT 0, solved INTEGER NOT NULL DEFAULT 0,"
	"  made BIGINT NOT NULL, UNIQUE (game_id, ply));"
	"CREATE INDEX puzzles_rating ON puzzles (rating);"
	"CREATE TABLE puzzle_tries ("
	"  name_key TEXT NOT NULL, puzzle_id BIGINT NOT NULL REFERENCES puzzles (id),"
	"  solved INTEGER NOT NULL, at BIGINT NOT NULL,"
	"  PRIMARY KEY (name_key, puzzle_id));",
	/* 10 -> 11: tournaments (issue 48): events, their players (by name
	 * key; seq the order of joining), their pairings (a round's board
	 * once), and the pairing a game is played for (0: none) */
	"CREATE TABLE tourneys ("
	"  id BIGSERIAL PRIMARY KEY,"
	"  kind INTEGER NOT NULL, state INTEGER NOT NULL, entrants INTEGER NOT NULL,"
	"  rule INTEGER NOT NULL, size INTEGER NOT NULL, opening INTEGER NOT NULL,"
	"  rated INTEGER NOT NULL, tc_base INTEGER NOT NULL, tc_inc INTEGER NOT NULL,"
	"  starts BIGINT NOT NULL, length INTEGER NOT NULL, round INTEGER NOT NULL DEFAULT 0,"
	"  creator TEXT NOT NULL, name TEXT NOT NULL, owner TEXT NOT NULL DEFAULT '',"
	"  created BIGINT NOT NULL, ended BIGINT NOT NULL DEFAULT 0);"
	"CREATE TABLE tourney_players ("
	"  tourney_id BIGINT NOT NULL REFERENCES tourneys (id),"
	"  name TEXT NOT NULL, name_key TEXT NOT NULL, seq INTEGER NOT NULL,"
	"  rating INTEGER NOT NULL, bot_level INTEGER NOT NULL DEFAULT 0,"
	"  withdrawn INTEGER NOT NULL DEFAULT 0,"
	"  PRIMARY KEY (tourney_id, name_key));"
	"CREATE TABLE tourney_games ("
	"  id BIGSERIAL PRIMARY KEY,"
	"  tourney_id BIGINT NOT NULL REFERENCES tourneys (id),"
	"  round INTEGER NOT NULL, board INTEGER NOT NULL,"
	"  first TEXT NOT NULL, second TEXT NOT NULL,"
	"  result INTEGER NOT NULL DEFAULT 0, room TEXT NOT NULL DEFAULT '',"
	"  UNIQUE (tourney_id, round, board));"
	"ALTER TABLE games ADD COLUMN tpair BIGINT NOT NULL DEFAULT 0;"
	"CREATE INDEX games_tpair ON games (tpair) WHERE tpair <> 0;",
	/* 11 -> 12: bot accounts (issue 49): when an account became a bot
	 * (0: a person), and the admin's one-time bot tokens as digests */
	"ALTER TABLE users ADD COLUMN bot_since BIGINT NOT NULL DEFAULT 0;"
	"CREATE TABLE bot_tokens ("
	"  digest TEXT PRIMARY KEY,"
	"  name TEXT NOT NULL, name_key TEXT NOT NULL,"
	"  created BIGINT NOT NULL, expires BIGINT NOT NULL);"
	"CREATE INDEX bot_tokens_user ON bot_tokens (name_key);",
	/* 12 -> 13: an account refuses challenges from bot accounts (1) */
	"ALTER TABLE users ADD COLUMN no_bots INTEGER NOT NULL DEFAULT 0;",
	/* 13 -> 14: the engine league (issue 49): a bot account's opt-in (1),
	 * and each league's events, numbered: (league, n) once, so two nodes
	 * never make one event twice */
	"ALTER TABLE users ADD COLUMN league INTEGER NOT NULL DEFAULT 0;"
	"CREATE TABLE league_events ("
	"  league TEXT NOT NULL, n INTEGER NOT NULL,"
	"  tourney_id BIGINT NOT NULL UNIQUE REFERENCES tourneys (id),"
	"  PRIMARY KEY (league, n));",
};

enum stmt {
	S_USER_NEW,
	S_USER_GET,
	S_SESS_PUT,
	S_SESS_GET,
	S_SESS_DROP,
	S_SESS_EXPIRE,
	S_SESS_NAMES,
	S_LOGIN_PUT,
	S_LOGIN_TRIM,
	S_LOGIN_GET,
	S_LOGIN_DROP,
	S_LOGIN_DROP_USER,
	S_USER_BOT,
	S_USER_NOBOTS,
	S_USER_NOBOTS_SET,
	S_USER_BOT_SET,
	S_BOTS,
	S_BOT_TOKEN_PUT,
	S_BOT_TOKEN_EXPIRE,
	S_BOT_TOKEN_TAKE,
	S_BOT_TOKEN_DROP_USER,
	S_RATING_GET,
	S_RATING_PUT,
	S_TOP,
	S_TOP_COUNT,
	S_GAME_NEW,
	S_GAME_COLOURS,
	S_MOVE_NEW,
	S_MOVE_TRUNC,
	S_MOVED_BOTH,
	S_GAME_END,
	S_GAME_GET,
	S_MOVES_GET,
	S_UNFINISHED,
	S_OPEN,
	S_OPEN_STONES,
	S_CLAIM,
	S_FENCE,
	S_MOVE_OWNED,
	S_LOCK_WAIT,
	S_HISTORY,
	S_HISTORY_COUNT,
	S_SANCTION_PUT,
	S_SANCTION_DROP,
	S_SANCTIONS,
	S_PUZZLE_PUT,
	S_PUZZLE_GET,
	S_PUZZLE_PICK,
	S_PUZZLE_COUNT,
	S_PUZZLE_NTH,
	S_PUZZLE_TRY,
	S_PUZZLE_RATE,
	S_REVIEW_PUT,
	S_REVIEW_GET,
	S_TOURNEY_NEW,
	S_TOURNEY_SET,
	S_TOURNEY_GET,
	S_TOURNEYS,
	S_TPLAYER_PUT,
	S_TPLAYER_DROP,
	S_TPLAYERS,
	S_TROUND_CHECK,
	S_TGAME_NEW,
	S_TROUND_SET,
	S_TGAME_RESULT,
	S_TGAME_THERE,
	S_TGAME_ROOM,
	S_TGAMES,
	S_TGAME_LINKED,
	S_USER_LEAGUE,
	S_USER_LEAGUE_SET,
	S_LEAGUE_LINK,
	S_LEAGUE_EVENTS,
	S_SETTING_GET,
	S_SETTING_PUT,
	S_SETTING_DROP,
	S_COUNT
};

/* A games row as read_game reads it (store_game_load, store_tgame_linked). */
#define GAME_COLS                                                                            \
	"id, room, rule, size, opening, rated, tc_base, tc_inc, black, white,"               \
	" started, coalesce(ended, 0), result, reason, black_before, black_after,"           \
	" white_before, white_after, (SELECT count(*) FROM moves WHERE game_id = games.id)," \
	" private, code, opening_plies, owner, moved_both, opening_log, tpair"
/* A tourneys row as read_tourney reads it. */
#define TOURNEY_COLS                                                                      \
	"id, kind, state, entrants, rule, size, opening, rated, tc_base, tc_inc, starts," \
	" length, round, creator, name, owner, created, ended"

static const char *const sql[S_COUNT] = {
	[S_USER_NEW] =
	    "INSERT INTO users (name, name_key, pwhash, created) VALUES ($1, $2, $3, $4)",
	[S_USER_GET] = "SELECT name, pwhash FROM users WHERE name_key = $1",
	[S_SESS_PUT] = "INSERT INTO sessions (digest, name, expires) VALUES ($1, $2, $3)"
		       " ON CONFLICT (digest) DO UPDATE SET name = $2, expires = $3",
	[S_SESS_GET] = "SELECT name FROM sessions WHERE digest = $1 AND expires > $2",
	[S_SESS_DROP] = "DELETE FROM sessions WHERE digest = $1",
	[S_SESS_EXPIRE] = "DELETE FROM sessions WHERE expires <= $1",
	[S_SESS_NAMES] = "SELECT name FROM sessions WHERE expires > $1",
	[S_LOGIN_PUT] = "INSERT INTO login_tokens (digest, name, name_key, created, expires)"
			" VALUES ($1, $2, $3, $4, $5)",
	[S_LOGIN_TRIM] =
	    "DELETE FROM login_tokens WHERE name_key = $1 AND (expires <= $3 OR id NOT IN"
	    " (SELECT id FROM login_tokens WHERE name_key = $1 ORDER BY id DESC"
	    " LIMIT $2))",
	[S_LOGIN_GET] = "SELECT name FROM login_tokens WHERE digest = $1 AND expires > $2",
	[S_LOGIN_DROP] = "DELETE FROM login_tokens WHERE digest = $1",
	[S_LOGIN_DROP_USER] = "DELETE FROM login_tokens WHERE name_key = $1",
	[S_USER_BOT] = "SELECT bot_since FROM users WHERE name_key = $1",
	[S_USER_NOBOTS] = "SELECT no_bots FROM users WHERE name_key = $1",
	[S_USER_NOBOTS_SET] = "UPDATE users SET no_bots = $2 WHERE name_key = $1",
	[S_USER_BOT_SET] = "UPDATE users SET bot_since = $2 WHERE name_key = $1",
	[S_BOTS] = "SELECT name, bot_since FROM users WHERE bot_since <> 0 ORDER BY name_key",
	[S_BOT_TOKEN_PUT] = "INSERT INTO bot_tokens (digest, name, name_key, created, expires)"
			    " VALUES ($1, $2, $3, $4, $5)",
	[S_BOT_TOKEN_EXPIRE] = "DELETE FROM bot_tokens WHERE expires <= $1",
	[S_BOT_TOKEN_TAKE] = "DELETE FROM bot_tokens WHERE digest = $1 RETURNING name, expires",
	[S_BOT_TOKEN_DROP_USER] = "DELETE FROM bot_tokens WHERE name_key = $1",
	[S_RATING_GET] = "SELECT name, rating, deviation, volatility, wins, losses, draws"
			 " FROM ratings WHERE name_key = $1 AND rule = $2",
	[S_RATING_PUT] = "INSERT INTO ratings (name_key, rule, name, rating, deviation,"
			 " volatility, wins, losses, draws) VALUES ($1, $2, $3, $4, $5, $6, $7,"
			 " $8, $9) ON CONFLICT (name_key, rule) DO UPDATE SET name = $3,"
			 " rating = $4, deviation = $5, volatility = $6, wins = $7, losses = $8,"
			 " draws = $9",
	/* $2 (count) or $4: false everyone but bot accounts, true bot accounts */
	[S_TOP] = "SELECT name, rating, deviation, volatility, wins, losses, draws FROM ratings r"
		  " WHERE rule = $1 AND EXISTS (SELECT 1 FROM users u WHERE u.name_key ="
		  " r.name_key AND u.bot_since <> 0) = ($4::integer <> 0)"
		  " ORDER BY rating DESC, name_key LIMIT $2 OFFSET $3",
	[S_TOP_COUNT] = "SELECT count(*) FROM ratings r WHERE rule = $1 AND EXISTS (SELECT 1"
			" FROM users u WHERE u.name_key = r.name_key AND u.bot_since <> 0) ="
			" ($2::integer <> 0)",
	[S_GAME_NEW] =
	    "INSERT INTO games (room, rule, size, opening, rated, tc_base, tc_inc,"
	    " black, white, black_key, white_key, started, black_before, white_before,"
	    " private, code, opening_plies, owner, tpair) VALUES ($1, $2, $3, $4, $5, $6, $7,"
	    " $8, $9, lower($8), lower($9), $10, $11, $12, $13, $14, $15, $16, $17)"
	    " RETURNING id",
	[S_GAME_COLOURS] = "UPDATE games SET black = $2, white = $3, black_key = lower($2),"
			   " white_key = lower($3), opening_plies = $4, opening_log = $5"
			   " WHERE id = $1",
	[S_MOVE_NEW] = "INSERT INTO moves (game_id, ply, move, used_ms, black_ms, white_ms)"
		       " VALUES ($1, $2, $3, $4, $5, $6)",
	[S_MOVE_TRUNC] = "DELETE FROM moves WHERE game_id = $1 AND ply >= $2",
	[S_MOVED_BOTH] = "UPDATE games SET moved_both = 1 WHERE id = $1"
			 " AND (SELECT count(*) FROM moves WHERE game_id = $1) >= 2",
	[S_GAME_END] = "UPDATE games SET ended = $2, result = $3, reason = $4, black_before = $5,"
		       " black_after = $6, white_before = $7, white_after = $8"
		       " WHERE id = $1 AND ended IS NULL",
	[S_GAME_GET] = "SELECT " GAME_COLS " FROM games WHERE id = $1",
	[S_MOVES_GET] = "SELECT ply, move, used_ms, black_ms, white_ms FROM moves"
			" WHERE game_id = $1 ORDER BY ply",
	[S_UNFINISHED] = "SELECT id FROM games WHERE ended IS NULL ORDER BY id LIMIT $1",
	[S_OPEN] = "SELECT id, room, owner FROM games WHERE ended IS NULL ORDER BY id LIMIT $1",
	[S_OPEN_STONES] = "SELECT g.id, g.room, g.size, m.move FROM games g JOIN moves m ON"
			  " m.game_id = g.id WHERE g.ended IS NULL AND g.owner <> $1"
			  " ORDER BY g.id, m.ply",
	[S_CLAIM] = "UPDATE games SET owner = $2 WHERE id = $1 AND ended IS NULL",
	[S_FENCE] = "SELECT 1 FROM games WHERE id = $1 AND owner = $2 AND ended IS NULL FOR UPDATE",
	[S_MOVE_OWNED] = "WITH f AS (SELECT id FROM games WHERE id = $1 AND owner = $7 AND"
			 " ended IS NULL FOR UPDATE) INSERT INTO moves (game_id, ply, move,"
			 " used_ms, black_ms, white_ms) SELECT id, $2, $3, $4, $5, $6 FROM f",
	[S_LOCK_WAIT] = "SELECT set_config('lock_timeout', '1000', true)",
	[S_HISTORY] = "SELECT id FROM games WHERE ended IS NOT NULL AND"
		      " (black_key = lower($1) OR white_key = lower($1))"
		      " ORDER BY ended DESC, id DESC LIMIT $2 OFFSET $3",
	[S_HISTORY_COUNT] = "SELECT count(*) FROM games WHERE ended IS NOT NULL AND"
			    " (black_key = lower($1) OR white_key = lower($1))",
	[S_SANCTION_PUT] = "INSERT INTO sanctions (kind, target, \"by\", reason, created, expires)"
			   " VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (kind, target) DO UPDATE"
			   " SET \"by\" = $3, reason = $4, created = $5, expires = $6",
	[S_SANCTION_DROP] = "DELETE FROM sanctions WHERE kind = $1 AND target = $2",
	[S_SANCTIONS] = "SELECT kind, target, \"by\", reason, created, expires FROM sanctions"
			" WHERE expires = 0 OR expires > $1 ORDER BY kind, target",
	[S_PUZZLE_PUT] = "INSERT INTO puzzles (game_id, ply, rule, size, moves, class, plies, line,"
			 " rating, deviation, volatility, made)"
			 " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id",
	[S_PUZZLE_GET] = "SELECT game_id, ply, rule, size, moves, class, plies, line, rating,"
			 " deviation, volatility, tries, solved, made FROM puzzles WHERE id = $1",
	[S_PUZZLE_PICK] =
	    "SELECT id FROM puzzles WHERE id NOT IN (SELECT puzzle_id FROM"
	    " puzzle_tries WHERE name_key = $1) ORDER BY abs(rating - $2), id LIMIT 1",
	[S_PUZZLE_COUNT] = "SELECT count(*) FROM puzzles",
	[S_PUZZLE_NTH] = "SELECT id FROM puzzles ORDER BY id LIMIT 1 OFFSET $1",
	[S_PUZZLE_TRY] = "INSERT INTO puzzle_tries (name_key, puzzle_id, solved, at)"
			 " VALUES ($1, $2, $3, $4)",
	[S_PUZZLE_RATE] = "UPDATE puzzles SET rating = $2, deviation = $3, volatility = $4,"
			  " tries = tries + 1, solved = solved + $5 WHERE id = $1",
	[S_REVIEW_PUT] = "INSERT INTO reviews (game_id, made, body) VALUES ($1, $2, $3)"
			 " ON CONFLICT (game_id) DO NOTHING",
	[S_REVIEW_GET] = "SELECT body FROM reviews WHERE game_id = $1",
	[S_TOURNEY_NEW] = "INSERT INTO tourneys (kind, state, entrants, rule, size, opening, rated,"
			  " tc_base, tc_inc, starts, length, round, creator, name, owner, created,"
			  " ended) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13,"
			  " $14, $15, $16, $17) RETURNING id",
	[S_TOURNEY_SET] =
	    "UPDATE tourneys SET state = $2, round = $3, ended = $4, owner = $5 WHERE id = $1",
	[S_TOURNEY_GET] = "SELECT " TOURNEY_COLS " FROM tourneys WHERE id = $1",
	/* states 0 and 1: proto.h's TSTATE_SOON and TSTATE_RUNNING */
	[S_TOURNEYS] = "SELECT " TOURNEY_COLS " FROM tourneys"
		       " WHERE state IN (0, 1) OR ended >= $1 ORDER BY id",
	[S_TPLAYER_PUT] =
	    "INSERT INTO tourney_players (tourney_id, name, name_key, seq, rating, bot_level,"
	    " withdrawn) VALUES ($1, $2, $3, CASE WHEN $4 > 0 THEN $4 ELSE (SELECT"
	    " coalesce(max(seq), 0) + 1 FROM tourney_players WHERE tourney_id = $1) END,"
	    " $5, $6, $7) ON CONFLICT (tourney_id, name_key) DO UPDATE SET"
	    " rating = EXCLUDED.rating, withdrawn = EXCLUDED.withdrawn",
	[S_TPLAYER_DROP] = "DELETE FROM tourney_players WHERE tourney_id = $1 AND name_key = $2",
	[S_TPLAYERS] = "SELECT name, seq, rating, bot_level, withdrawn FROM tourney_players"
		       " WHERE tourney_id = $1 ORDER BY seq, name_key",
	/* the event's row locked until the round's transaction ends: a second
	 * asker waits here, then reads the round the first one set */
	[S_TROUND_CHECK] = "SELECT round, EXISTS (SELECT 1 FROM tourney_games WHERE"
			   " tourney_id = $1 AND round = $2) FROM tourneys WHERE id = $1"
			   " FOR UPDATE",
	[S_TGAME_NEW] = "INSERT INTO tourney_games (tourney_id, round, board, first, second,"
			" result, room) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id",
	[S_TROUND_SET] = "UPDATE tourneys SET round = $2 WHERE id = $1",
	[S_TGAME_RESULT] = "UPDATE tourney_games SET result = $2 WHERE id = $1 AND result = 0",
	[S_TGAME_THERE] = "SELECT 1 FROM tourney_games WHERE id = $1",
	[S_TGAME_ROOM] = "UPDATE tourney_games SET room = $2 WHERE id = $1",
	[S_TGAMES] = "SELECT id, round, board, first, second, result, room FROM tourney_games"
		     " WHERE tourney_id = $1 ORDER BY round, board",
	/* tpair <> 0 as the partial index games_tpair has it (and no pairing 0) */
	[S_TGAME_LINKED] = "SELECT " GAME_COLS " FROM games WHERE tpair = $1 AND tpair <> 0"
			   " ORDER BY id DESC LIMIT 1",
	[S_USER_LEAGUE] = "SELECT league FROM users WHERE name_key = $1 AND bot_since <> 0",
	[S_USER_LEAGUE_SET] = "UPDATE users SET league = $2 WHERE name_key = $1",
	[S_LEAGUE_LINK] = "INSERT INTO league_events (league, n, tourney_id) VALUES ($1, $2, $3)",
	[S_LEAGUE_EVENTS] = "SELECT " TOURNEY_COLS ", e.n FROM tourneys JOIN league_events e ON"
			    " e.tourney_id = tourneys.id WHERE e.league = $1 ORDER BY e.n",
	[S_SETTING_GET] = "SELECT value FROM settings WHERE key = $1",
	[S_SETTING_PUT] = "INSERT INTO settings (key, value) VALUES ($1, $2)"
			  " ON CONFLICT (key) DO UPDATE SET value = $2",
	[S_SETTING_DROP] = "DELETE FROM settings WHERE key = $1",
};

enum { BACKOFF_MIN_MS = 100, BACKOFF_MAX_MS = 2000, PARAMS_MAX = 20, PARAM_LEN = 32 };

struct pg {
	PGconn *conn;
	int prepared[S_COUNT]; /* on this connection */
	int64_t retry_at;      /* monotonic ms: no new connection before */
	int backoff_ms;
	int in_tx; /* between begin and commit or rollback */
	int in_sp; /* between savepoint and release or rollback_to */
};

/* Parameters of one statement, as text. */
struct params {
	const char *v[PARAMS_MAX];
	char buf[PARAMS_MAX][PARAM_LEN];
	int n;
};

static struct pg *
pg(store_t *s)
{
	return s->be;
}

static int64_t
mono_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void
p_text(struct params *p, const char *t)
{
	p->v[p->n++] = t;
}

static void
p_int(struct params *p, int64_t v)
{
	snprintf(p->buf[p->n], PARAM_LEN, "%lld", (long long)v);
	p->v[p->n] = p->buf[p->n];
	p->n++;
}

static void
p_real(struct params *p, double v)
{
	snprintf(p->buf[p->n], PARAM_LEN, "%.17g", v);
	p->v[p->n] = p->buf[p->n];
	p->n++;
}

/* The message of a failure; a connection that went bad marks the store
 * unavailable until a new one works. */
static void
set_msg(store_t *s, const char *what, const PGresult *r)
{
	PGconn *c = pg(s)->conn;
	const char *e = r ? PQresultErrorMessage(r) : "";
	if (!e[0])
		e = c ? PQerrorMessage(c) : "no connection";
	snprintf(s->msg, sizeof s->msg, "%s: %.*s", what, (int)strcspn(e, "\n"), e);
	if (!c || PQstatus(c) != CONNECTION_OK)
		s->unavailable = 1;
}

/* Notices ("already exists, skipping") are not errors: not printed. */
static void
quiet(void *arg, const char *message)
{
	(void)arg;
	(void)message;
}

/* A working connection, made again (with backoff) when the last one broke. */
static int
connected(store_t *s)
{
	struct pg *p = pg(s);
	if (p->conn && PQstatus(p->conn) == CONNECTION_OK)
		return 0;
	int64_t now = mono_ms();
	/* a transaction cut off is not taken up on a new connection: its
	 * remaining statements would commit alone */
	if ((p->conn && now < p->retry_at) || p->in_tx) {
		snprintf(s->msg, sizeof s->msg, "store unavailable: PostgreSQL is not reachable");
		s->unavailable = 1;
		return -1;
	}
	if (p->conn)
		PQreset(p->conn);
	else {
		/* a server that does not answer is given up after a few seconds
		 * (libpq waits forever by default); the URL may set its own */
		static const char *const keys[] = { "connect_timeout", "dbname", NULL };
		const char *const vals[] = { "3", s->path, NULL };
		p->conn = PQconnectdbParams(keys, vals, 1);
	}
	memset(p->prepared, 0, sizeof p->prepared);
	if (p->conn && PQstatus(p->conn) == CONNECTION_OK) {
		p->backoff_ms = 0;
		PQsetNoticeProcessor(p->conn, quiet, NULL);
		return 0;
	}
	p->backoff_ms = p->backoff_ms ? p->backoff_ms * 2 : BACKOFF_MIN_MS;
	if (p->backoff_ms > BACKOFF_MAX_MS)
		p->backoff_ms = BACKOFF_MAX_MS;
	p->retry_at = now + p->backoff_ms;
	set_msg(s, "store unavailable", NULL);
	s->unavailable = 1;
	return -1;
}

/* Runs statement k with p: the result (PGRES_COMMAND_OK or TUPLES_OK), or
 * NULL with the message set; *dup says a unique key refused it. */
static PGresult *
run(store_t *s, enum stmt k, const struct params *p, const char *what, int *dup)
{
	if (dup)
		*dup = 0;
	if (store_fault(s, "before", what) != 0 || connected(s) != 0)
		return NULL;
	struct pg *g = pg(s);
	if (!g->prepared[k]) {
		char name[16];
		snprintf(name, sizeof name, "s%d", (int)k);
		PGresult *r = PQprepare(g->conn, name, sql[k], 0, NULL);
		int good = PQresultStatus(r) == PGRES_COMMAND_OK;
		if (!good)
			set_msg(s, "prepare", r);
		PQclear(r);
		if (!good)
			return NULL;
		g->prepared[k] = 1;
	}
	char name[16];
	snprintf(name, sizeof name, "s%d", (int)k);
	PGresult *r = PQexecPrepared(g->conn, name, p->n, p->v, NULL, NULL, 0);
	ExecStatusType st = PQresultStatus(r);
	if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK) {
		if (store_fault(s, "after", what) != 0) {
			PQclear(r);
			return NULL;
		}
		return r;
	}
	const char *code = PQresultErrorField(r, PG_DIAG_SQLSTATE);
	if (dup && code && strncmp(code, "23", 2) == 0)
		*dup = 1;
	set_msg(s, what, r);
	PQclear(r);
	return NULL;
}

/* A statement that returns no rows: 0, STORE_EXISTS or -1; *changed gets
 * the rows it touched (may be NULL). */
static int
done(store_t *s, enum stmt k, const struct params *p, const char *what, int *changed)
{
	int dup;
	PGresult *r = run(s, k, p, what, &dup);
	if (!r)
		return dup ? STORE_EXISTS : -1;
	if (changed)
		*changed = atoi(PQcmdTuples(r));
	PQclear(r);
	return 0;
}

/* Text without parameters (migrations, transactions). */
static int
exec(store_t *s, const char *text, const char *what)
{
	if (store_fault(s, "before", what) != 0 || connected(s) != 0)
		return -1;
	PGresult *r = PQexec(pg(s)->conn, text);
	ExecStatusType st = PQresultStatus(r);
	if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
		set_msg(s, what, r);
		PQclear(r);
		return -1;
	}
	PQclear(r);
	return store_fault(s, "after", what);
}

static int64_t
col_int(const PGresult *r, int row, int col)
{
	return strtoll(PQgetvalue(r, row, col), NULL, 10);
}

static double
col_real(const PGresult *r, int row, int col)
{
	return strtod(PQgetvalue(r, row, col), NULL);
}

static void
col_text(char *dst, size_t cap, const PGresult *r, int row, int col)
{
	snprintf(dst, cap, "%s", PQgetvalue(r, row, col));
}

static const char *
pg_error(store_t *s)
{
	return s->msg[0] ? s->msg : "no error";
}

/* The applied steps, read inside the caller's transaction; -1 on error. */
static int
version_of(store_t *s)
{
	if (connected(s) != 0)
		return -1;
	PGresult *r = PQexec(pg(s)->conn, "SELECT version FROM schema_version");
	int v = -1;
	if (PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1)
		v = (int)col_int(r, 0, 0);
	else
		set_msg(s, "schema version", r);
	PQclear(r);
	return v;
}

/* Every pending step, each in its own transaction; the table lock makes a
 * second node starting at the same time wait, then find the steps done. */
static int
migrate(store_t *s)
{
	if (exec(s,
		"CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL);"
		" INSERT INTO schema_version SELECT 0"
		" WHERE NOT EXISTS (SELECT 1 FROM schema_version)",
		"migration") != 0)
		return -1;
	for (;;) {
		if (exec(s, "BEGIN; LOCK TABLE schema_version IN EXCLUSIVE MODE", "migration") != 0)
			return -1;
		int v = version_of(s);
		if (v < 0 || v > STORE_SCHEMA_VERSION) {
			if (v > STORE_SCHEMA_VERSION)
				snprintf(s->msg, sizeof s->msg,
				    "schema version %d is newer than this gomokud knows (%d)", v,
				    STORE_SCHEMA_VERSION);
			exec(s, "ROLLBACK", "rollback");
			return -1;
		}
		if (v == STORE_SCHEMA_VERSION)
			return exec(s, "COMMIT", "migration");
		char bump[64];
		snprintf(bump, sizeof bump, "UPDATE schema_version SET version = %d", v + 1);
		if (exec(s, migrations[v], "migration") != 0 || exec(s, bump, "migration") != 0 ||
		    exec(s, "COMMIT", "migration") != 0) {
			exec(s, "ROLLBACK", "rollback");
			return -1;
		}
	}
}

static int
pg_open(store_t *s, const char *path, char *err, size_t errlen)
{
	if ((s->be = calloc(1, sizeof(struct pg))) == NULL) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (connected(s) != 0 || migrate(s) != 0) {
		/* the URL may hold a password: name the database by its host only */
		snprintf(err, errlen, "PostgreSQL: %s", s->msg);
		return -1;
	}
	(void)path;
	return 0;
}

static void
pg_close(store_t *s)
{
	if (pg(s) == NULL)
		return;
	PQfinish(pg(s)->conn);
	free(pg(s));
}

static int
pg_schema_version(store_t *s)
{
	return version_of(s);
}

static int
pg_manual_checkpoints(store_t *s)
{
	(void)s;
	return 0;
}

static int
pg_begin(store_t *s)
{
	if (exec(s, "BEGIN", "begin") != 0)
		return -1;
	pg(s)->in_tx = 1;
	return 0;
}

static void
pg_rollback(store_t *s)
{
	PGconn *c = pg(s)->conn;
	pg(s)->in_tx = 0;
	pg(s)->in_sp = 0;
	if (c && PQstatus(c) == CONNECTION_OK && PQtransactionStatus(c) != PQTRANS_IDLE)
		PQclear(PQexec(c, "ROLLBACK"));
}

static int
pg_commit(store_t *s)
{
	/* PostgreSQL answers COMMIT in a failed transaction with a rollback,
	 * not an error: that must not pass for a commit */
	PGconn *c = pg(s)->conn;
	int rc = c && PQtransactionStatus(c) == PQTRANS_INERROR ? -1 : exec(s, "COMMIT", "commit");
	if (rc != 0 && !s->msg[0])
		snprintf(s->msg, sizeof s->msg, "commit: the transaction had failed");
	pg(s)->in_tx = 0;
	pg(s)->in_sp = 0;
	if (rc == 0)
		return 0;
	pg_rollback(s);
	return -1;
}

/* A write's part of a group transaction: the savepoint w, one level. */
static int
pg_savepoint(store_t *s)
{
	if (exec(s, "SAVEPOINT w", "savepoint") != 0)
		return -1;
	pg(s)->in_sp = 1;
	return 0;
}

static int
pg_release(store_t *s)
{
	if (exec(s, "RELEASE SAVEPOINT w", "release") != 0)
		return -1;
	pg(s)->in_sp = 0;
	return 0;
}

/* Back to the savepoint, which goes with it; the message of the failure is
 * kept. A connection that broke has nothing left to undo. */
static void
pg_rollback_to(store_t *s)
{
	PGconn *c = pg(s)->conn;
	if (!pg(s)->in_sp)
		return; /* none was made: the transaction is as it was */
	pg(s)->in_sp = 0;
	if (c && PQstatus(c) == CONNECTION_OK && PQtransactionStatus(c) != PQTRANS_IDLE)
		PQclear(PQexec(c, "ROLLBACK TO SAVEPOINT w; RELEASE SAVEPOINT w"));
}

static int
pg_user_create(store_t *s, const char *name, const char *pwhash, int64_t now)
{
	char key[AUTH_NAME_MAX + 1];
	struct params p = { .n = 0 };
	auth_name_key(name, key);
	p_text(&p, name);
	p_text(&p, key);
	p_text(&p, pwhash);
	p_int(&p, now);
	return done(s, S_USER_NEW, &p, "create user", NULL);
}

/* Runs a query expected to give at most one row: 0 with *out, STORE_NOT_FOUND,
 * or -1. The caller clears *out. */
static int
one_row(store_t *s, enum stmt k, const struct params *p, const char *what, PGresult **out)
{
	*out = run(s, k, p, what, NULL);
	if (!*out)
		return -1;
	if (PQntuples(*out) == 0) {
		PQclear(*out);
		*out = NULL;
		return STORE_NOT_FOUND;
	}
	return 0;
}

static int
pg_user_get(
    store_t *s, const char *name, char out_name[STORE_NAME_MAX + 1], char *pwhash, size_t hashlen)
{
	char key[AUTH_NAME_MAX + 1];
	struct params p = { .n = 0 };
	PGresult *r;
	auth_name_key(name, key);
	p_text(&p, key);
	int rc = one_row(s, S_USER_GET, &p, "get user", &r);
	if (rc == 0) {
		col_text(out_name, STORE_NAME_MAX + 1, r, 0, 0);
		col_text(pwhash, hashlen, r, 0, 1);
		PQclear(r);
	}
	return rc;
}

static int
pg_session_put(store_t *s, const char *digest, const char *name, int64_t expires)
{
	struct params p = { .n = 0 };
	p_text(&p, digest);
	p_text(&p, name);
	p_int(&p, expires);
	return done(s, S_SESS_PUT, &p, "save session", NULL);
}

static int
pg_session_get(store_t *s, const char *digest, int64_t now, char name[STORE_NAME_MAX + 1])
{
	struct params p = { .n = 0 };
	PGresult *r;
	p_text(&p, digest);
	p_int(&p, now);
	int rc = one_row(s, S_SESS_GET, &p, "get session", &r);
	if (rc == 0) {
		col_text(name, STORE_NAME_MAX + 1, r, 0, 0);
		PQclear(r);
	}
	return rc;
}

static int
pg_session_names(store_t *s, int64_t now, void (*fn)(void *arg, const char *name), void *arg)
{
	struct params p = { .n = 0 };
	p_int(&p, now);
	PGresult *r = run(s, S_SESS_NAMES, &p, "list sessions", NULL);
	if (!r)
		return -1;
	int n = PQntuples(r);
	for (int i = 0; i < n; i++) {
		char name[STORE_NAME_MAX + 1];
		col_text(name, sizeof name, r, i, 0);
		fn(arg, name);
	}
	PQclear(r);
	return n;
}

static int
pg_session_drop(store_t *s, const char *digest)
{
	struct params p = { .n = 0 };
	p_text(&p, digest);
	return done(s, S_SESS_DROP, &p, "drop session", NULL);
}

static int
pg_session_expire(store_t *s, int64_t now)
{
	struct params p = { .n = 0 };
	p_int(&p, now);
	return done(s, S_SESS_EXPIRE, &p, "expire sessions", NULL);
}

static int
pg_login_put(store_t *s, const char *digest, const char *name, int64_t created, int64_t expires)
{
	char key[AUTH_NAME_MAX + 1];
	struct params p = { .n = 0 };
	auth_name_key(name, key);
	p_text(&p, digest);
	p_text(&p, name);
	p_text(&p, key);
	p_int(&p, created);
	p_int(&p, expires);
	return done(s, S_LOGIN_PUT, &p, "save login", NULL);
}

static int
pg_login_trim(store_t *s, const char *name, int keep, int64_t now)
{
	char key[AUTH_NAME_MAX + 1];
	struct params p = { .n = 0 };
	auth_name_key(name, key);
	p_text(&p, key);
	p_int(&p, keep);
	p_int(&p, now);
	return done(s, S_LOGIN_TRIM, &p, "trim logins", NULL);
}

static int
pg_login_get(store_t *s, const char *digest, int64_t now, char name[STORE_NAME_MAX + 1])
{
	struct params p = { .n = 0 };
	PGresult *r;
	p_text(&p, digest);
	p_int(&p, now);
	int rc = one_row(s, S_LOGIN_GET, &p, "get login", &r);
	if (rc == 0) {
		col_text(name, STORE_NAME_MAX + 1, r, 0, 0);
		PQclear(r);
	}
	return rc;
}

static int
pg_login_drop(store_t *s, const char *digest)
{
	struct params p = { .n = 0 };
	p_text(&p, digest);
	return done(s, S_LOGIN_DROP, &p, "drop login", NULL);
}

static int
pg_login_drop_user(store_t *s, const char *name)
{
	char key[AUTH_NAME_MAX + 1];
	struct params p = { .n = 0 };
	auth_name_key(name, key);
	p_text(&p, key);
	return done(s, S_LOGIN_DROP_USER, &p, "drop logins", NULL);
}

static int
pg_user_bot(store_t *s, const char *name, int64_t *since)
{
	char key[AUTH_NAME_MAX + 1];
	struct params p = { .n = 0 };
	PGresult *r;
	auth_name_key(name, key);
	p_text(&p, key);
	int rc = one_row(s, S_USER_BOT, &p, "get bot mark", &r);
	if (rc == 0) {
		*since = col_int(r, 0, 0);
		PQclear(r);
	}
	return rc;
}

/* An account's yes/no column (no_bots, league): read by the statement
 * which, or set by it with the value as its second parameter.
 * STORE_NOT_FOUND: no account. */
static int
user_flag(store_t *s, enum stmt which, const char *name, int *v, const char *what)
{
	char key[AUTH_NAME_MAX + 1];
	struct params p = { .n = 0 };
	PGresult *r;
	auth_name_key(name, key);
	p_text(&p, key);
	int rc = one_row(s, which, &p, what, &r);
	if (rc == 0) {
		*v = col_int(r, 0, 0) != 0;
		PQclear(r);
	}
	return rc;
}

static int
user_flag_set(store_t *s, enum stmt which, const char *name, int v, const char *what)
{
	char key[AUTH_NAME_MAX + 1];
	struct params p = { .n = 0 };
	int changed = 0;
	auth_name_key(name, key);
	p_text(&p, key);
	p_int(&p, v != 0);
	int rc = done(s, which, &p, what, &changed);
	return rc == 0 && changed == 0 ? STORE_NOT_FOUND : rc;
}

static int
pg_user_nobots(store_t *s, const char *name, int *no)
{
	return user_flag(s, S_USER_NOBOTS, name, no, "get no_bots");
}

static int
pg_user_nobots_set(store_t *s, const char *name, int no)
{
	return user_flag_set(s, S_USER_NOBOTS_SET, name, no, "set no_bots");
}

static int
pg_user_bot_set(store_t *s, const char *name, int64_t since)
{
	char key[AUTH_NAME_MAX + 1];
	struct params p = { .n = 0 };
	int changed = 0;
	auth_name_key(name, key);
	p_text(&p, key);
	p_int(&p, since);
	int rc = done(s, S_USER_BOT_SET, &p, "set bot mark", &changed);
	return rc == 0 && changed == 0 ? STORE_NOT_FOUND : rc;
}

static int
pg_bots(store_t *s, void (*fn)(void *arg, const char *name, int64_t since), void *arg)
{
	struct params p = { .n = 0 };
	PGresult *r = run(s, S_BOTS, &p, "list bots", NULL);
	if (!r)
		return -1;
	int n = PQntuples(r);
	for (int i = 0; i < n; i++) {
		char name[STORE_NAME_MAX + 1];
		col_text(name, sizeof name, r, i, 0);
		fn(arg, name, col_int(r, i, 1));
	}
	PQclear(r);
	return n;
}

static int
pg_bot_token_put(store_t *s, const char *digest, const char *name, int64_t created, int64_t expires)
{
	char key[AUTH_NAME_MAX + 1];
	struct params p = { .n = 0 };
	auth_name_key(name, key);
	p_text(&p, digest);
	p_text(&p, name);
	p_text(&p, key);
	p_int(&p, created);
	p_int(&p, expires);
	return done(s, S_BOT_TOKEN_PUT, &p, "save bot token", NULL);
}

static int
pg_bot_token_expire(store_t *s, int64_t now)
{
	struct params p = { .n = 0 };
	p_int(&p, now);
	return done(s, S_BOT_TOKEN_EXPIRE, &p, "expire bot tokens", NULL);
}

static int
pg_bot_token_take(store_t *s, const char *digest, char name[STORE_NAME_MAX + 1], int64_t *expires)
{
	struct params p = { .n = 0 };
	PGresult *r;
	p_text(&p, digest);
	int rc = one_row(s, S_BOT_TOKEN_TAKE, &p, "use bot token", &r);
	if (rc == 0) {
		col_text(name, STORE_NAME_MAX + 1, r, 0, 0);
		*expires = col_int(r, 0, 1);
		PQclear(r);
	}
	return rc;
}

static int
pg_bot_token_drop_user(store_t *s, const char *name)
{
	char key[AUTH_NAME_MAX + 1];
	struct params p = { .n = 0 };
	auth_name_key(name, key);
	p_text(&p, key);
	return done(s, S_BOT_TOKEN_DROP_USER, &p, "drop bot tokens", NULL);
}

static void
read_rating(const PGresult *r, int row, store_rating_t *out)
{
	col_text(out->name, sizeof out->name, r, row, 0);
	out->g.rating = col_real(r, row, 1);
	out->g.deviation = col_real(r, row, 2);
	out->g.volatility = col_real(r, row, 3);
	out->wins = (int)col_int(r, row, 4);
	out->losses = (int)col_int(r, row, 5);
	out->draws = (int)col_int(r, row, 6);
}

static int
pg_rating_get(store_t *s, const char *name, rule_t rule, store_rating_t *out)
{
	char key[AUTH_NAME_MAX + 1];
	struct params p = { .n = 0 };
	PGresult *r;
	memset(out, 0, sizeof *out);
	snprintf(out->name, sizeof out->name, "%s", name);
	glicko_init(&out->g);
	auth_name_key(name, key);
	p_text(&p, key);
	p_int(&p, (int)rule);
	int rc = one_row(s, S_RATING_GET, &p, "get rating", &r);
	if (rc == 0) {
		read_rating(r, 0, out);
		PQclear(r);
	}
	return rc;
}

static int
pg_rating_put(store_t *s, rule_t rule, const store_rating_t *x)
{
	char key[AUTH_NAME_MAX + 1];
	struct params p = { .n = 0 };
	auth_name_key(x->name, key);
	p_text(&p, key);
	p_int(&p, (int)rule);
	p_text(&p, x->name);
	p_real(&p, x->g.rating);
	p_real(&p, x->g.deviation);
	p_real(&p, x->g.volatility);
	p_int(&p, x->wins);
	p_int(&p, x->losses);
	p_int(&p, x->draws);
	return done(s, S_RATING_PUT, &p, "save rating", NULL);
}

/* A count from a query with its parameters. */
static int
count_of(store_t *s, enum stmt k, const struct params *p, int *out)
{
	PGresult *r = run(s, k, p, "count", NULL);
	if (!r)
		return -1;
	*out = PQntuples(r) == 1 ? (int)col_int(r, 0, 0) : 0;
	PQclear(r);
	return 0;
}

static int
pg_top(store_t *s, rule_t rule, int bots, int page, store_rating_t *out, int *total)
{
	struct params p = { .n = 0 };
	if (page < 1)
		return -1;
	p_int(&p, (int)rule);
	p_int(&p, bots != 0);
	if (count_of(s, S_TOP_COUNT, &p, total) != 0)
		return -1;
	p.n = 1; /* the rule stays first */
	p_int(&p, STORE_PAGE);
	p_int(&p, (int64_t)(page - 1) * STORE_PAGE);
	p_int(&p, bots != 0);
	PGresult *r = run(s, S_TOP, &p, "top", NULL);
	if (!r)
		return -1;
	int n = PQntuples(r) < STORE_PAGE ? PQntuples(r) : STORE_PAGE;
	for (int i = 0; i < n; i++)
		read_rating(r, i, &out[i]);
	PQclear(r);
	return n;
}

static int
pg_game_begin(store_t *s, store_game_t *g)
{
	struct params p = { .n = 0 };
	p_text(&p, g->room);
	p_int(&p, g->rule);
	p_int(&p, g->size);
	p_int(&p, g->opening);
	p_int(&p, g->rated);
	p_int(&p, g->tc_base);
	p_int(&p, g->tc_inc);
	p_text(&p, g->black);
	p_text(&p, g->white);
	p_int(&p, g->started);
	p_real(&p, g->black_before);
	p_real(&p, g->white_before);
	p_int(&p, g->private_room);
	p_text(&p, g->code);
	p_int(&p, g->opening_plies);
	p_text(&p, g->owner);
	p_int(&p, g->tpair);
	PGresult *r = run(s, S_GAME_NEW, &p, "begin game", NULL);
	if (!r)
		return -1;
	g->id = col_int(r, 0, 0);
	PQclear(r);
	return 0;
}

static int
pg_game_move(store_t *s, int64_t game_id, int ply, const store_move_t *m)
{
	struct params p = { .n = 0 };
	p_int(&p, game_id);
	p_int(&p, ply);
	p_int(&p, m->move);
	p_int(&p, m->used_ms);
	p_int(&p, m->black_ms);
	p_int(&p, m->white_ms);
	return done(s, S_MOVE_NEW, &p, "save move", NULL);
}

static int
pg_game_colours(store_t *s, int64_t game_id, const char *black, const char *white,
    int opening_plies, const char *log)
{
	struct params p = { .n = 0 };
	p_int(&p, game_id);
	p_text(&p, black);
	p_text(&p, white);
	p_int(&p, opening_plies);
	p_text(&p, log ? log : "");
	return done(s, S_GAME_COLOURS, &p, "save colours", NULL);
}

static int
pg_game_truncate(store_t *s, int64_t game_id, int from)
{
	/* before the moves go: with two or more kept, both sides had moved */
	struct params b = { .n = 0 };
	p_int(&b, game_id);
	if (done(s, S_MOVED_BOTH, &b, "keep that both moved", NULL) != 0)
		return -1;
	struct params p = { .n = 0 };
	p_int(&p, game_id);
	p_int(&p, from);
	return done(s, S_MOVE_TRUNC, &p, "undo moves", NULL);
}

static int
pg_game_end(store_t *s, const store_game_t *g)
{
	struct params p = { .n = 0 };
	int changed = 0;
	p_int(&p, g->id);
	p_int(&p, g->ended);
	p_int(&p, g->result);
	p_int(&p, g->reason);
	p_real(&p, g->black_before);
	p_real(&p, g->black_after);
	p_real(&p, g->white_before);
	p_real(&p, g->white_after);
	if (done(s, S_GAME_END, &p, "end game", &changed) != 0)
		return -1;
	return changed == 1 ? 0 : STORE_NOT_FOUND;
}

static void
read_game(const PGresult *r, int row, store_game_t *g)
{
	memset(g, 0, sizeof *g);
	g->id = col_int(r, row, 0);
	col_text(g->room, sizeof g->room, r, row, 1);
	g->rule = (int)col_int(r, row, 2);
	g->size = (int)col_int(r, row, 3);
	g->opening = (int)col_int(r, row, 4);
	g->rated = (int)col_int(r, row, 5);
	g->tc_base = (int)col_int(r, row, 6);
	g->tc_inc = (int)col_int(r, row, 7);
	col_text(g->black, sizeof g->black, r, row, 8);
	col_text(g->white, sizeof g->white, r, row, 9);
	g->started = col_int(r, row, 10);
	g->ended = col_int(r, row, 11);
	g->result = (int)col_int(r, row, 12);
	g->reason = (int)col_int(r, row, 13);
	g->black_before = col_real(r, row, 14);
	g->black_after = col_real(r, row, 15);
	g->white_before = col_real(r, row, 16);
	g->white_after = col_real(r, row, 17);
	g->nmoves = (int)col_int(r, row, 18);
	g->private_room = (int)col_int(r, row, 19);
	col_text(g->code, sizeof g->code, r, row, 20);
	g->opening_plies = (int)col_int(r, row, 21);
	col_text(g->owner, sizeof g->owner, r, row, 22);
	g->moved_both = (int)col_int(r, row, 23);
	col_text(g->opening_log, sizeof g->opening_log, r, row, 24);
	g->tpair = col_int(r, row, 25);
}

static int
pg_game_load(store_t *s, int64_t id, store_game_t *g, store_move_t *moves)
{
	struct params p = { .n = 0 };
	PGresult *r;
	p_int(&p, id);
	int rc = one_row(s, S_GAME_GET, &p, "load game", &r);
	if (rc != 0)
		return rc;
	read_game(r, 0, g);
	PQclear(r);
	if (moves == NULL)
		return 0;
	if (!(r = run(s, S_MOVES_GET, &p, "load game", NULL)))
		return -1;
	int n = 0, rows = PQntuples(r);
	for (; n < rows && n < RULES_CELLS; n++) {
		if (col_int(r, n, 0) != n)
			break; /* plies are stored in order from 0; a gap is damage */
		moves[n].move = (move_t)col_int(r, n, 1);
		moves[n].used_ms = col_int(r, n, 2);
		moves[n].black_ms = col_int(r, n, 3);
		moves[n].white_ms = col_int(r, n, 4);
	}
	PQclear(r);
	if (n != g->nmoves) {
		snprintf(s->msg, sizeof s->msg, "game %lld: moves are not a sequence from 0",
		    (long long)id);
		return -1;
	}
	return 0;
}

static int
pg_games_unfinished(store_t *s, int64_t *ids, int max)
{
	struct params p = { .n = 0 };
	p_int(&p, max);
	PGresult *r = run(s, S_UNFINISHED, &p, "unfinished games", NULL);
	if (!r)
		return -1;
	int n = PQntuples(r) < max ? PQntuples(r) : max;
	for (int i = 0; i < n; i++)
		ids[i] = col_int(r, i, 0);
	PQclear(r);
	return n;
}

static int
pg_games_open(store_t *s, store_open_game_t *out, int max)
{
	struct params p = { .n = 0 };
	p_int(&p, max);
	PGresult *r = run(s, S_OPEN, &p, "open games", NULL);
	if (!r)
		return -1;
	int n = PQntuples(r) < max ? PQntuples(r) : max;
	for (int i = 0; i < n; i++) {
		out[i].id = col_int(r, i, 0);
		col_text(out[i].room, sizeof out[i].room, r, i, 1);
		col_text(out[i].owner, sizeof out[i].owner, r, i, 2);
	}
	PQclear(r);
	return n;
}

static int
pg_open_stones(store_t *s, const char *owner, store_stone_fn *fn, void *arg)
{
	struct params p = { .n = 0 };
	char room[STORE_ROOM_MAX + 1];
	p_text(&p, owner);
	PGresult *r = run(s, S_OPEN_STONES, &p, "open games' stones", NULL);
	if (!r)
		return -1;
	int n = PQntuples(r);
	for (int i = 0; i < n; i++) {
		col_text(room, sizeof room, r, i, 1);
		fn(arg, col_int(r, i, 0), room, (int)col_int(r, i, 2), (move_t)col_int(r, i, 3));
	}
	PQclear(r);
	return n;
}

/* In the caller's transaction: a node paused inside one of its own, the
 * game's row locked, is waited for a second, not for ever. */
static int
pg_game_claim(store_t *s, int64_t id, const char *owner)
{
	struct params p = { .n = 0 };
	int changed = 0;
	PGresult *r = pg(s)->in_tx ? run(s, S_LOCK_WAIT, &p, "claim game", NULL) : NULL;
	if (pg(s)->in_tx && !r)
		return -1;
	PQclear(r);
	p_int(&p, id);
	p_text(&p, owner);
	if (done(s, S_CLAIM, &p, "claim game", &changed) != 0)
		return -1;
	return changed == 1 ? 0 : STORE_NOT_FOUND;
}

static int
pg_game_fence(store_t *s, int64_t id, const char *owner)
{
	struct params p = { .n = 0 };
	p_int(&p, id);
	p_text(&p, owner);
	PGresult *r = run(s, S_FENCE, &p, "fence game", NULL);
	if (!r)
		return -1;
	int mine = PQntuples(r) == 1;
	PQclear(r);
	if (!mine)
		snprintf(s->msg, sizeof s->msg, "game %lld: not this node's (another owns it now)",
		    (long long)id);
	return mine ? 0 : STORE_NOT_FOUND;
}

static int
pg_game_move_owned(store_t *s, int64_t game_id, int ply, const store_move_t *m, const char *owner)
{
	struct params p = { .n = 0 };
	int changed = 0;
	p_int(&p, game_id);
	p_int(&p, ply);
	p_int(&p, m->move);
	p_int(&p, m->used_ms);
	p_int(&p, m->black_ms);
	p_int(&p, m->white_ms);
	p_text(&p, owner);
	int rc = done(s, S_MOVE_OWNED, &p, "save move", &changed);
	if (rc != 0 || changed == 1)
		return rc;
	snprintf(s->msg, sizeof s->msg, "game %lld: not this node's (another owns it now)",
	    (long long)game_id);
	return STORE_NOT_FOUND;
}

static int
pg_history(store_t *s, const char *name, int page, store_game_t *out, int *total)
{
	struct params p = { .n = 0 };
	int64_t ids[STORE_PAGE];
	if (page < 1)
		return -1;
	p_text(&p, name);
	if (count_of(s, S_HISTORY_COUNT, &p, total) != 0)
		return -1;
	p_int(&p, STORE_PAGE);
	p_int(&p, (int64_t)(page - 1) * STORE_PAGE);
	PGresult *r = run(s, S_HISTORY, &p, "history", NULL);
	if (!r)
		return -1;
	int n = PQntuples(r) < STORE_PAGE ? PQntuples(r) : STORE_PAGE;
	for (int i = 0; i < n; i++)
		ids[i] = col_int(r, i, 0);
	PQclear(r);
	for (int i = 0; i < n; i++)
		if (pg_game_load(s, ids[i], &out[i], NULL) != 0)
			return -1;
	return n;
}

static int
pg_sanction_put(store_t *s, const store_sanction_t *x)
{
	struct params p = { .n = 0 };
	p_int(&p, x->kind);
	p_text(&p, x->target);
	p_text(&p, x->by);
	p_text(&p, x->reason);
	p_int(&p, x->created);
	p_int(&p, x->expires);
	return done(s, S_SANCTION_PUT, &p, "save sanction", NULL);
}

static int
pg_sanction_drop(store_t *s, int kind, const char *target)
{
	struct params p = { .n = 0 };
	int changed = 0;
	p_int(&p, kind);
	p_text(&p, target);
	int rc = done(s, S_SANCTION_DROP, &p, "drop sanction", &changed);
	return rc == 0 && changed == 0 ? STORE_NOT_FOUND : rc;
}

static int
pg_sanctions(store_t *s, int64_t now, void (*fn)(void *arg, const store_sanction_t *x), void *arg)
{
	struct params p = { .n = 0 };
	p_int(&p, now);
	PGresult *r = run(s, S_SANCTIONS, &p, "list sanctions", NULL);
	if (!r)
		return -1;
	int n = PQntuples(r);
	for (int i = 0; i < n; i++) {
		store_sanction_t x;
		x.kind = (int)col_int(r, i, 0);
		col_text(x.target, sizeof x.target, r, i, 1);
		col_text(x.by, sizeof x.by, r, i, 2);
		col_text(x.reason, sizeof x.reason, r, i, 3);
		x.created = col_int(r, i, 4);
		x.expires = col_int(r, i, 5);
		fn(arg, &x);
	}
	PQclear(r);
	return n;
}

static int
pg_puzzle_put(store_t *s, store_puzzle_t *pz)
{
	char moves[RULES_CELLS * 4 + 2], line[STORE_PUZZLE_LINE_MAX * 4 + 2];
	struct params p = { .n = 0 };
	int dup;
	if (store_cells_text(pz->moves, pz->nmoves, moves, sizeof moves) < 0 ||
	    store_cells_text(pz->line, pz->nline, line, sizeof line) < 0) {
		snprintf(s->msg, sizeof s->msg, "save puzzle: moves");
		return -1;
	}
	p_int(&p, pz->game_id);
	p_int(&p, pz->ply);
	p_int(&p, pz->rule);
	p_int(&p, pz->size);
	p_text(&p, moves);
	p_int(&p, pz->cls);
	p_int(&p, pz->plies);
	p_text(&p, line);
	p_real(&p, pz->g.rating);
	p_real(&p, pz->g.deviation);
	p_real(&p, pz->g.volatility);
	p_int(&p, pz->made);
	PGresult *r = run(s, S_PUZZLE_PUT, &p, "save puzzle", &dup);
	if (!r)
		return dup ? STORE_EXISTS : -1;
	pz->id = col_int(r, 0, 0);
	PQclear(r);
	return 0;
}

static int
pg_puzzle_get(store_t *s, int64_t id, store_puzzle_t *out)
{
	struct params p = { .n = 0 };
	PGresult *r;
	memset(out, 0, sizeof *out);
	p_int(&p, id);
	int rc = one_row(s, S_PUZZLE_GET, &p, "get puzzle", &r);
	if (rc != 0)
		return rc;
	out->id = id;
	out->game_id = col_int(r, 0, 0);
	out->ply = (int)col_int(r, 0, 1);
	out->rule = (int)col_int(r, 0, 2);
	out->size = (int)col_int(r, 0, 3);
	out->cls = (int)col_int(r, 0, 5);
	out->plies = (int)col_int(r, 0, 6);
	out->g.rating = col_real(r, 0, 8);
	out->g.deviation = col_real(r, 0, 9);
	out->g.volatility = col_real(r, 0, 10);
	out->tries = (int)col_int(r, 0, 11);
	out->solved = (int)col_int(r, 0, 12);
	out->made = col_int(r, 0, 13);
	out->nmoves = store_cells_read(PQgetvalue(r, 0, 4), out->size, out->moves, RULES_CELLS);
	out->nline = store_cells_read(
	    PQgetvalue(r, 0, 7), out->size, out->line, STORE_PUZZLE_LINE_MAX);
	PQclear(r);
	if (out->nmoves < 0 || out->nline < 0) {
		snprintf(
		    s->msg, sizeof s->msg, "get puzzle %lld: its moves do not read", (long long)id);
		return -1;
	}
	return 0;
}

/* A query that gives one integer: 0 with *v, STORE_NOT_FOUND, or -1. */
static int
one_int(store_t *s, enum stmt k, const struct params *p, const char *what, int64_t *v)
{
	PGresult *r;
	int rc = one_row(s, k, p, what, &r);
	if (rc == 0) {
		*v = col_int(r, 0, 0);
		PQclear(r);
	}
	return rc;
}

static int
pg_puzzle_pick(store_t *s, const char *name, double rating, int64_t *id)
{
	char key[AUTH_NAME_MAX + 1];
	struct params p = { .n = 0 };
	auth_name_key(name, key);
	p_text(&p, key);
	p_real(&p, rating);
	return one_int(s, S_PUZZLE_PICK, &p, "pick puzzle", id);
}

static int
pg_puzzle_count(store_t *s, int64_t *n)
{
	struct params p = { .n = 0 };
	return one_int(s, S_PUZZLE_COUNT, &p, "count puzzles", n);
}

static int
pg_puzzle_nth(store_t *s, int64_t k, int64_t *id)
{
	struct params p = { .n = 0 };
	p_int(&p, k);
	return one_int(s, S_PUZZLE_NTH, &p, "puzzle by number", id);
}

static int
pg_puzzle_try(store_t *s, const char *name, int64_t id, int solved, int64_t at, const glicko_t *g)
{
	char key[AUTH_NAME_MAX + 1];
	struct params p = { .n = 0 };
	auth_name_key(name, key);
	p_text(&p, key);
	p_int(&p, id);
	p_int(&p, solved);
	p_int(&p, at);
	int rc = done(s, S_PUZZLE_TRY, &p, "save puzzle try", NULL);
	if (rc != 0)
		return rc;
	struct params q = { .n = 0 };
	p_int(&q, id);
	p_real(&q, g->rating);
	p_real(&q, g->deviation);
	p_real(&q, g->volatility);
	p_int(&q, solved);
	return done(s, S_PUZZLE_RATE, &q, "rate puzzle", NULL);
}

static int
pg_review_put(store_t *s, int64_t game_id, int64_t made, const char *body)
{
	struct params p = { .n = 0 };
	p_int(&p, game_id);
	p_int(&p, made);
	p_text(&p, body);
	return done(s, S_REVIEW_PUT, &p, "save review", NULL);
}

static int
pg_review_get(store_t *s, int64_t game_id, char *out, size_t cap)
{
	struct params p = { .n = 0 };
	PGresult *r;
	p_int(&p, game_id);
	int rc = one_row(s, S_REVIEW_GET, &p, "get review", &r);
	if (rc == 0) {
		if ((size_t)PQgetlength(r, 0, 0) >= cap) {
			snprintf(s->msg, sizeof s->msg, "get review: too long");
			rc = -1;
		} else {
			col_text(out, cap, r, 0, 0);
		}
		PQclear(r);
	}
	return rc;
}

/* A tourneys row (TOURNEY_COLS). */
static void
read_tourney(const PGresult *r, int row, store_tourney_t *t)
{
	memset(t, 0, sizeof *t);
	t->id = col_int(r, row, 0);
	t->kind = (int)col_int(r, row, 1);
	t->state = (int)col_int(r, row, 2);
	t->entrants = (int)col_int(r, row, 3);
	t->rule = (int)col_int(r, row, 4);
	t->size = (int)col_int(r, row, 5);
	t->opening = (int)col_int(r, row, 6);
	t->rated = (int)col_int(r, row, 7);
	t->tc_base = (int)col_int(r, row, 8);
	t->tc_inc = (int)col_int(r, row, 9);
	t->starts = col_int(r, row, 10);
	t->length = (int)col_int(r, row, 11);
	t->round = (int)col_int(r, row, 12);
	col_text(t->creator, sizeof t->creator, r, row, 13);
	col_text(t->name, sizeof t->name, r, row, 14);
	col_text(t->owner, sizeof t->owner, r, row, 15);
	t->created = col_int(r, row, 16);
	t->ended = col_int(r, row, 17);
}

static int
pg_tourney_new(store_t *s, store_tourney_t *t)
{
	struct params p = { .n = 0 };
	p_int(&p, t->kind);
	p_int(&p, t->state);
	p_int(&p, t->entrants);
	p_int(&p, t->rule);
	p_int(&p, t->size);
	p_int(&p, t->opening);
	p_int(&p, t->rated);
	p_int(&p, t->tc_base);
	p_int(&p, t->tc_inc);
	p_int(&p, t->starts);
	p_int(&p, t->length);
	p_int(&p, t->round);
	p_text(&p, t->creator);
	p_text(&p, t->name);
	p_text(&p, t->owner);
	p_int(&p, t->created);
	p_int(&p, t->ended);
	PGresult *r = run(s, S_TOURNEY_NEW, &p, "tourney new", NULL);
	if (!r)
		return -1;
	t->id = col_int(r, 0, 0);
	PQclear(r);
	return 0;
}

static int
pg_tourney_set(store_t *s, const store_tourney_t *t)
{
	struct params p = { .n = 0 };
	int changed = 0;
	p_int(&p, t->id);
	p_int(&p, t->state);
	p_int(&p, t->round);
	p_int(&p, t->ended);
	p_text(&p, t->owner);
	int rc = done(s, S_TOURNEY_SET, &p, "tourney set", &changed);
	return rc == 0 && changed == 0 ? STORE_NOT_FOUND : rc;
}

static int
pg_tourney_get(store_t *s, int64_t id, store_tourney_t *out)
{
	struct params p = { .n = 0 };
	PGresult *r;
	p_int(&p, id);
	int rc = one_row(s, S_TOURNEY_GET, &p, "get tourney", &r);
	if (rc == 0) {
		read_tourney(r, 0, out);
		PQclear(r);
	}
	return rc;
}

static int
pg_tourneys(store_t *s, int64_t since, void (*fn)(void *arg, const store_tourney_t *t), void *arg)
{
	struct params p = { .n = 0 };
	p_int(&p, since);
	PGresult *r = run(s, S_TOURNEYS, &p, "list tourneys", NULL);
	if (!r)
		return -1;
	int n = PQntuples(r);
	for (int i = 0; i < n; i++) {
		store_tourney_t t;
		read_tourney(r, i, &t);
		fn(arg, &t);
	}
	PQclear(r);
	return n;
}

static int
pg_tplayer_put(store_t *s, int64_t tourney, const store_tplayer_t *x)
{
	char key[AUTH_NAME_MAX + 1];
	struct params p = { .n = 0 };
	auth_name_key(x->name, key);
	p_int(&p, tourney);
	p_text(&p, x->name);
	p_text(&p, key);
	p_int(&p, x->seq);
	p_int(&p, x->rating);
	p_int(&p, x->bot_level);
	p_int(&p, x->withdrawn);
	/* the name's row is updated in place: a refusal is the event's key */
	int rc = done(s, S_TPLAYER_PUT, &p, "tplayer put", NULL);
	return rc == STORE_EXISTS ? STORE_NOT_FOUND : rc;
}

static int
pg_tplayer_drop(store_t *s, int64_t tourney, const char *name)
{
	char key[AUTH_NAME_MAX + 1];
	struct params p = { .n = 0 };
	int changed = 0;
	auth_name_key(name, key);
	p_int(&p, tourney);
	p_text(&p, key);
	int rc = done(s, S_TPLAYER_DROP, &p, "tplayer drop", &changed);
	return rc == 0 && changed == 0 ? STORE_NOT_FOUND : rc;
}

static int
pg_tplayers(store_t *s, int64_t tourney, void (*fn)(void *arg, const store_tplayer_t *x), void *arg)
{
	struct params p = { .n = 0 };
	p_int(&p, tourney);
	PGresult *r = run(s, S_TPLAYERS, &p, "list tplayers", NULL);
	if (!r)
		return -1;
	int n = PQntuples(r);
	for (int i = 0; i < n; i++) {
		store_tplayer_t x;
		memset(&x, 0, sizeof x);
		col_text(x.name, sizeof x.name, r, i, 0);
		x.seq = (int)col_int(r, i, 1);
		x.rating = (int)col_int(r, i, 2);
		x.bot_level = (int)col_int(r, i, 3);
		x.withdrawn = (int)col_int(r, i, 4);
		fn(arg, &x);
	}
	PQclear(r);
	return n;
}

/* Whether round may be paired, the event's row locked (FOR UPDATE) until
 * the transaction ends: 0, STORE_EXISTS (paired already) or
 * STORE_NOT_FOUND (no such event). */
static int
tround_free(store_t *s, int64_t tourney, int round)
{
	struct params p = { .n = 0 };
	PGresult *r;
	p_int(&p, tourney);
	p_int(&p, round);
	int rc = one_row(s, S_TROUND_CHECK, &p, "tround put", &r);
	if (rc < 0)
		return -1;
	int paired = rc == 0 && (col_int(r, 0, 0) >= round || PQgetvalue(r, 0, 1)[0] == 't');
	PQclear(r);
	if (rc == STORE_NOT_FOUND || paired)
		snprintf(s->msg, sizeof s->msg, "tourney %lld: %s", (long long)tourney,
		    paired ? "that round is paired already" : "none such");
	return rc == STORE_NOT_FOUND ? rc : paired ? STORE_EXISTS : 0;
}

static int
tgame_new(store_t *s, int64_t tourney, int round, store_tgame_t *g)
{
	struct params p = { .n = 0 };
	int dup;
	p_int(&p, tourney);
	p_int(&p, round);
	p_int(&p, g->board);
	p_text(&p, g->first);
	p_text(&p, g->second);
	p_int(&p, g->result);
	p_text(&p, g->room);
	PGresult *r = run(s, S_TGAME_NEW, &p, "tround put", &dup);
	if (!r)
		return dup ? STORE_EXISTS : -1;
	g->id = col_int(r, 0, 0);
	PQclear(r);
	return 0;
}

/* One transaction of its own, or inside the caller's a savepoint of its
 * own that a refusal rolls back alone (the caller's goes on). A second
 * node pairing the same round waits on the event's row and then finds it
 * paired; were the check passed by, the unique (tourney_id, round, board)
 * refuses the pairings (STORE_EXISTS all the same). */
static int
pg_tround_put(store_t *s, int64_t tourney, int round, store_tgame_t *g, int n)
{
	int nested = pg(s)->in_tx;
	if (nested ? exec(s, "SAVEPOINT tround", "savepoint") != 0 : pg_begin(s) != 0)
		return -1;
	int rc = tround_free(s, tourney, round);
	for (int i = 0; rc == 0 && i < n; i++) {
		g[i].round = round;
		rc = tgame_new(s, tourney, round, &g[i]);
	}
	if (rc == 0) {
		struct params p = { .n = 0 };
		p_int(&p, tourney);
		p_int(&p, round);
		rc = done(s, S_TROUND_SET, &p, "tround put", NULL);
	}
	if (rc == 0 &&
	    (rc = nested ? exec(s, "RELEASE SAVEPOINT tround", "release") : pg_commit(s)) == 0)
		return 0;
	PGconn *c = pg(s)->conn;
	if (!nested)
		pg_rollback(s);
	else if (c && PQstatus(c) == CONNECTION_OK && PQtransactionStatus(c) != PQTRANS_IDLE)
		PQclear(PQexec(c, "ROLLBACK TO SAVEPOINT tround; RELEASE SAVEPOINT tround"));
	for (int i = 0; i < n; i++)
		g[i].id = 0;
	return rc;
}

static int
pg_tgame_result(store_t *s, int64_t tgame, int result)
{
	struct params p = { .n = 0 };
	int changed = 0;
	p_int(&p, tgame);
	p_int(&p, result);
	int rc = done(s, S_TGAME_RESULT, &p, "tgame result", &changed);
	if (rc != 0 || changed == 1)
		return rc;
	/* nothing changed: it has its result, or there is no such pairing */
	struct params q = { .n = 0 };
	int64_t one;
	p_int(&q, tgame);
	rc = one_int(s, S_TGAME_THERE, &q, "tgame result", &one);
	return rc == 0 ? STORE_EXISTS : rc;
}

static int
pg_tgame_room(store_t *s, int64_t tgame, const char *room)
{
	struct params p = { .n = 0 };
	int changed = 0;
	p_int(&p, tgame);
	p_text(&p, room);
	int rc = done(s, S_TGAME_ROOM, &p, "tgame room", &changed);
	return rc == 0 && changed == 0 ? STORE_NOT_FOUND : rc;
}

static int
pg_tgames(store_t *s, int64_t tourney, void (*fn)(void *arg, const store_tgame_t *g), void *arg)
{
	struct params p = { .n = 0 };
	p_int(&p, tourney);
	PGresult *r = run(s, S_TGAMES, &p, "list tgames", NULL);
	if (!r)
		return -1;
	int n = PQntuples(r);
	for (int i = 0; i < n; i++) {
		store_tgame_t g;
		memset(&g, 0, sizeof g);
		g.id = col_int(r, i, 0);
		g.round = (int)col_int(r, i, 1);
		g.board = (int)col_int(r, i, 2);
		col_text(g.first, sizeof g.first, r, i, 3);
		col_text(g.second, sizeof g.second, r, i, 4);
		g.result = (int)col_int(r, i, 5);
		col_text(g.room, sizeof g.room, r, i, 6);
		fn(arg, &g);
	}
	PQclear(r);
	return n;
}

static int
pg_tgame_linked(store_t *s, int64_t tgame, store_game_t *out)
{
	struct params p = { .n = 0 };
	PGresult *r;
	p_int(&p, tgame);
	int rc = one_row(s, S_TGAME_LINKED, &p, "tgame linked", &r);
	if (rc == 0) {
		read_game(r, 0, out);
		PQclear(r);
	}
	return rc;
}

static int
pg_setting_get(store_t *s, const char *key, char *out, size_t cap)
{
	struct params p = { .n = 0 };
	PGresult *r;
	p_text(&p, key);
	int rc = one_row(s, S_SETTING_GET, &p, "get setting", &r);
	if (rc == 0) {
		col_text(out, cap, r, 0, 0);
		PQclear(r);
	}
	return rc;
}

static int
pg_setting_put(store_t *s, const char *key, const char *value)
{
	struct params p = { .n = 0 };
	p_text(&p, key);
	if (value)
		p_text(&p, value);
	return done(s, value ? S_SETTING_PUT : S_SETTING_DROP, &p, "save setting", NULL);
}

static int
pg_user_league(store_t *s, const char *name, int *yes)
{
	return user_flag(s, S_USER_LEAGUE, name, yes, "get league");
}

static int
pg_user_league_set(store_t *s, const char *name, int yes)
{
	return user_flag_set(s, S_USER_LEAGUE_SET, name, yes, "set league");
}

static int
pg_league_event(
    store_t *s, const char *league, int n, store_tourney_t *t, const store_tplayer_t *x, int np)
{
	int nested = pg(s)->in_tx;
	if (nested ? exec(s, "SAVEPOINT league", "savepoint") != 0 : pg_begin(s) != 0)
		return -1;
	int rc = pg_tourney_new(s, t);
	if (rc == 0) {
		struct params p = { .n = 0 };
		p_text(&p, league);
		p_int(&p, n);
		p_int(&p, t->id);
		rc = done(s, S_LEAGUE_LINK, &p, "league link", NULL);
	}
	for (int i = 0; rc == 0 && i < np; i++)
		rc = pg_tplayer_put(s, t->id, &x[i]);
	if (rc == 0 &&
	    (rc = nested ? exec(s, "RELEASE SAVEPOINT league", "release") : pg_commit(s)) == 0)
		return 0;
	PGconn *c = pg(s)->conn;
	if (!nested)
		pg_rollback(s);
	else if (c && PQstatus(c) == CONNECTION_OK && PQtransactionStatus(c) != PQTRANS_IDLE)
		PQclear(PQexec(c, "ROLLBACK TO SAVEPOINT league; RELEASE SAVEPOINT league"));
	t->id = 0;
	return rc;
}

static int
pg_league_events(store_t *s, const char *league,
    void (*fn)(void *arg, int n, const store_tourney_t *t), void *arg)
{
	struct params p = { .n = 0 };
	p_text(&p, league);
	PGresult *r = run(s, S_LEAGUE_EVENTS, &p, "list league events", NULL);
	if (!r)
		return -1;
	int k = PQntuples(r);
	for (int i = 0; i < k; i++) {
		store_tourney_t t;
		read_tourney(r, i, &t);
		fn(arg, (int)col_int(r, i, 18), &t);
	}
	PQclear(r);
	return k;
}

const struct store_ops store_pg_ops = {
	.open = pg_open,
	.close = pg_close,
	.error = pg_error,
	.schema_version = pg_schema_version,
	.manual_checkpoints = pg_manual_checkpoints,
	.begin = pg_begin,
	.commit = pg_commit,
	.rollback = pg_rollback,
	.savepoint = pg_savepoint,
	.release = pg_release,
	.rollback_to = pg_rollback_to,
	.user_create = pg_user_create,
	.user_get = pg_user_get,
	.session_put = pg_session_put,
	.session_get = pg_session_get,
	.session_drop = pg_session_drop,
	.session_expire = pg_session_expire,
	.session_names = pg_session_names,
	.login_put = pg_login_put,
	.login_trim = pg_login_trim,
	.login_get = pg_login_get,
	.login_drop = pg_login_drop,
	.login_drop_user = pg_login_drop_user,
	.user_bot = pg_user_bot,
	.user_bot_set = pg_user_bot_set,
	.user_nobots = pg_user_nobots,
	.user_nobots_set = pg_user_nobots_set,
	.bots = pg_bots,
	.bot_token_put = pg_bot_token_put,
	.bot_token_expire = pg_bot_token_expire,
	.bot_token_take = pg_bot_token_take,
	.bot_token_drop_user = pg_bot_token_drop_user,
	.rating_get = pg_rating_get,
	.rating_put = pg_rating_put,
	.top = pg_top,
	.game_begin = pg_game_begin,
	.game_move = pg_game_move,
	.game_colours = pg_game_colours,
	.game_truncate = pg_game_truncate,
	.game_end = pg_game_end,
	.game_load = pg_game_load,
	.games_unfinished = pg_games_unfinished,
	.games_open = pg_games_open,
	.open_stones = pg_open_stones,
	.game_claim = pg_game_claim,
	.game_fence = pg_game_fence,
	.game_move_owned = pg_game_move_owned,
	.history = pg_history,
	.sanction_put = pg_sanction_put,
	.sanction_drop = pg_sanction_drop,
	.sanctions = pg_sanctions,
	.puzzle_put = pg_puzzle_put,
	.puzzle_get = pg_puzzle_get,
	.puzzle_pick = pg_puzzle_pick,
	.puzzle_count = pg_puzzle_count,
	.puzzle_nth = pg_puzzle_nth,
	.puzzle_try = pg_puzzle_try,
	.review_put = pg_review_put,
	.review_get = pg_review_get,
	.tourney_new = pg_tourney_new,
	.tourney_set = pg_tourney_set,
	.tourney_get = pg_tourney_get,
	.tourneys = pg_tourneys,
	.tplayer_put = pg_tplayer_put,
	.tplayer_drop = pg_tplayer_drop,
	.tplayers = pg_tplayers,
	.tround_put = pg_tround_put,
	.tgame_result = pg_tgame_result,
	.tgame_room = pg_tgame_room,
	.tgames = pg_tgames,
	.tgame_linked = pg_tgame_linked,
	.user_league = pg_user_league,
	.user_league_set = pg_user_league_set,
	.league_event = pg_league_event,
	.league_events = pg_league_events,
	.setting_get = pg_setting_get,
	.setting_put = pg_setting_put,
};
