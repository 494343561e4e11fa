/* store_sqlite.c: the SQLite backend of the store: schema migrations,
 * prepared statements, rows (store_backend.h). */
#include "daemon/store_backend.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include <sqlite3.h>

#include "daemon/auth.h"

/* Schema steps; migration i takes user_version i to i + 1. Never edit a
 * step that has shipped: add one. */
static const char *const migrations[STORE_SCHEMA_VERSION] = {
	/* 0 -> 1: accounts, sessions, games and their moves */
	"CREATE TABLE users ("
	"  id INTEGER PRIMARY KEY,"
	"  name TEXT NOT NULL,"
	"  name_key TEXT NOT NULL UNIQUE,"
	"  pwhash TEXT NOT NULL,"
	"  created INTEGER NOT NULL);"
	"CREATE TABLE sessions ("
	"  digest TEXT PRIMARY KEY,"
	"  name TEXT NOT NULL,"
	"  expires INTEGER NOT NULL);"
	"CREATE TABLE games ("
	"  id INTEGER PRIMARY KEY,"
	"  room TEXT NOT NULL,"
	"  rule INTEGER NOT NULL, size INTEGER NOT NULL, opening INTEGER NOT NULL,"
	"  rated INTEGER NOT NULL, tc_base INTEGER NOT NULL, tc_inc INTEGER NOT NULL,"
	"  black TEXT NOT NULL, white TEXT NOT NULL,"
	"  started INTEGER NOT NULL, ended INTEGER,"
	"  result INTEGER NOT NULL DEFAULT -1, reason INTEGER NOT NULL DEFAULT -1);"
	"CREATE TABLE moves ("
	"  game_id INTEGER NOT NULL REFERENCES games(id),"
	"  ply INTEGER NOT NULL,"
	"  move INTEGER NOT NULL,"
	"  used_ms INTEGER NOT NULL,"
	"  black_ms INTEGER NOT NULL, white_ms INTEGER NOT NULL,"
	"  PRIMARY KEY (game_id, ply)) WITHOUT ROWID;",
	/* 1 -> 2: ratings per rule, ratings around each game, history lookups */
	"CREATE TABLE ratings ("
	"  name_key TEXT NOT NULL, rule INTEGER NOT NULL, name TEXT NOT NULL,"
	"  rating REAL NOT NULL, deviation REAL NOT NULL, volatility REAL NOT NULL,"
	"  wins INTEGER NOT NULL, losses INTEGER NOT NULL, draws INTEGER NOT NULL,"
	"  PRIMARY KEY (name_key, rule)) WITHOUT ROWID;"
	"CREATE INDEX ratings_top ON ratings (rule, rating DESC);"
	"ALTER TABLE games ADD COLUMN black_key TEXT NOT NULL DEFAULT '';"
	"ALTER TABLE games ADD COLUMN white_key TEXT NOT NULL DEFAULT '';"
	"UPDATE games SET black_key = lower(black), white_key = lower(white);"
	"ALTER TABLE games ADD COLUMN black_before REAL NOT NULL DEFAULT 0;"
	"ALTER TABLE games ADD COLUMN black_after REAL NOT NULL DEFAULT 0;"
	"ALTER TABLE games ADD COLUMN white_before REAL NOT NULL DEFAULT 0;"
	"ALTER TABLE games ADD COLUMN white_after REAL NOT NULL DEFAULT 0;"
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
	"  by TEXT NOT NULL, reason TEXT NOT NULL,"
	"  created INTEGER NOT NULL, expires INTEGER NOT NULL,"
	"  PRIMARY KEY (kind, target)) WITHOUT ROWID;"
	"CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;",
	/* 4 -> 5: the node that owns a game (cluster leases: fencing) */
	"ALTER TABLE games ADD COLUMN owner TEXT NOT NULL DEFAULT '';",
	/* 5 -> 6: both sides have moved in the game, which an undo back to
	 * one stone does not change (ABORT stays too late after a restart);
	 * the moves kept cannot say it, the undo deleted them */
	"ALTER TABLE games ADD COLUMN moved_both INTEGER NOT NULL DEFAULT 0;",
	/* 6 -> 7: login tokens (REMEMBER, AUTH) as digests, oldest first by id */
	"CREATE TABLE login_tokens ("
	"  id INTEGER PRIMARY KEY,"
	"  digest TEXT NOT NULL UNIQUE,"
	"  name TEXT NOT NULL, name_key TEXT NOT NULL,"
	"  created INTEGER NOT NULL, expires INTEGER NOT NULL);"
	"CREATE INDEX login_tokens_user ON login_tokens (name_key, id);",
	/* 7 -> 8: an opening rule's acts that place no stone (colour choices,
	 * declarations, offers, Taraguchi's branch), so a restart mid-opening
	 * resumes at the same stage (rules/opening.h, opening_replay) */
	"ALTER TABLE games ADD COLUMN opening_log TEXT NOT NULL DEFAULT '';",
	/* 8 -> 9: a finished game's engine review (REVIEW, MARKS), made once */
	"CREATE TABLE reviews ("
	"  game_id INTEGER PRIMARY KEY REFERENCES games (id),"
	"  made INTEGER NOT NULL, body TEXT NOT NULL);",
	/* 9 -> 10: puzzles from public games' missed wins, each with its own
	 * rating, and who tried which (a player's puzzle rating is a ratings
	 * row of rule STORE_RULE_PUZZLE) */
	"CREATE TABLE puzzles ("
	"  id INTEGER PRIMARY KEY,"
	"  game_id INTEGER NOT NULL REFERENCES games (id), ply INTEGER NOT NULL,"
	"  rule INTEGER NOT NULL, size INTEGER NOT NULL, moves TEXT NOT NULL,"
	"  class INTEGER NOT NULL, plies INTEGER NOT NULL, line TEXT NOT NULL,"
	"  rating REAL NOT NULL, deviation REAL NOT NULL, volatility REAL NOT NULL,"
	"  tries INTEGER NOT NULL DEFAULT 0, solved INTEGER NOT NULL DEFAULT 0,"
	"  made INTEGER NOT NULL, UNIQUE (game_id, ply));"
	"CREATE INDEX puzzles_rating ON puzzles (rating);"
	"CREATE TABLE puzzle_tries ("
	"  name_key TEXT NOT NULL, puzzle_id INTEGER NOT NULL REFERENCES puzzles (id),"
	"  solved INTEGER NOT NULL, at INTEGER NOT NULL,"
	"  PRIMARY KEY (name_key, puzzle_id)) WITHOUT ROWID;",
	/* 10 -> 11: tournaments (issue 48): events, their players (by name
	 * key; seq the order of joining), their pairings (a round's board
	 * once), and the pairing a game is played for (0: none) */
	"CREATE TABLE tourneys ("
	"  id INTEGER PRIMARY KEY,"
	"  kind INTEGER NOT NULL, state INTEGER NOT NULL, entrants INTEGER NOT NULL,"
	"  rule INTEGER NOT NULL, size INTEGER NOT NULL, opening INTEGER NOT NULL,"
	"  rated INTEGER NOT NULL, tc_base INTEGER NOT NULL, tc_inc INTEGER NOT NULL,"
	"  starts INTEGER NOT NULL, length INTEGER NOT NULL, round INTEGER NOT NULL DEFAULT 0,"
	"  creator TEXT NOT NULL, name TEXT NOT NULL, owner TEXT NOT NULL DEFAULT '',"
	"  created INTEGER NOT NULL, ended INTEGER NOT NULL DEFAULT 0);"
	"CREATE TABLE tourney_players ("
	"  tourney_id INTEGER NOT NULL REFERENCES tourneys (id),"
	"  name TEXT NOT NULL, name_key TEXT NOT NULL, seq INTEGER NOT NULL,"
	"  rating INTEGER NOT NULL, bot_level INTEGER NOT NULL DEFAULT 0,"
	"  withdrawn INTEGER NOT NULL DEFAULT 0,"
	"  PRIMARY KEY (tourney_id, name_key)) WITHOUT ROWID;"
	"CREATE TABLE tourney_games ("
	"  id INTEGER PRIMARY KEY,"
	"  tourney_id INTEGER NOT NULL REFERENCES tourneys (id),"
	"  round INTEGER NOT NULL, board INTEGER NOT NULL,"
	"  first TEXT NOT NULL, second TEXT NOT NULL,"
	"  result INTEGER NOT NULL DEFAULT 0, room TEXT NOT NULL DEFAULT '',"
	"  UNIQUE (tourney_id, round, board));"
	"ALTER TABLE games ADD COLUMN tpair INTEGER NOT NULL DEFAULT 0;"
	"CREATE INDEX games_tpair ON games (tpair) WHERE tpair <> 0;",
	/* 11 -> 12: bot accounts (issue 49): when an account became a bot
	 * (0: a person), and the admin's one-time bot tokens as digests */
	"ALTER TABLE users ADD COLUMN bot_since INTEGER NOT NULL DEFAULT 0;"
	"CREATE TABLE bot_tokens ("
	"  digest TEXT PRIMARY KEY,"
	"  name TEXT NOT NULL, name_key TEXT NOT NULL,"
	"  created INTEGER NOT NULL, expires INTEGER NOT NULL);"
	"CREATE INDEX bot_tokens_user ON bot_tokens (name_key);",
	/* 12 -> 13: an account refuses challenges from bot accounts (1) */
	"ALTER TABLE users ADD COLUMN no_bots INTEGER NOT NULL DEFAULT 0;",
	/* 13 -> 14: the engine league (issue 49): a bot account's opt-in (1),
	 * and each league's events, numbered: (league, n) once, so two nodes
	 * never make one event twice */
	"ALTER TABLE users ADD COLUMN league INTEGER NOT NULL DEFAULT 0;"
	"CREATE TABLE league_events ("
	"  league TEXT NOT NULL, n INTEGER NOT NULL,"
	"  tourney_id INTEGER NOT NULL UNIQUE REFERENCES tourneys (id),"
	"  PRIMARY KEY (league, n)) WITHOUT ROWID;",
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
	S_BOT_TOKEN_GET,
	S_BOT_TOKEN_DROP,
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
	S_BEGIN,
	S_COMMIT,
	S_SAVEPOINT,
	S_RELEASE,
	S_GAME_GET,
	S_MOVES_GET,
	S_UNFINISHED,
	S_OPEN,
	S_OPEN_STONES,
	S_CLAIM,
	S_FENCE,
	S_MOVE_OWNED,
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
	    "INSERT INTO users (name, name_key, pwhash, created) VALUES (?1, ?2, ?3, ?4)",
	[S_USER_GET] = "SELECT name, pwhash FROM users WHERE name_key = ?1",
	[S_SESS_PUT] =
	    "INSERT OR REPLACE INTO sessions (digest, name, expires) VALUES (?1, ?2, ?3)",
	[S_SESS_GET] = "SELECT name FROM sessions WHERE digest = ?1 AND expires > ?2",
	[S_SESS_DROP] = "DELETE FROM sessions WHERE digest = ?1",
	[S_SESS_EXPIRE] = "DELETE FROM sessions WHERE expires <= ?1",
	[S_SESS_NAMES] = "SELECT name FROM sessions WHERE expires > ?1",
	[S_LOGIN_PUT] = "INSERT INTO login_tokens (digest, name, name_key, created, expires)"
			" VALUES (?1, ?2, ?3, ?4, ?5)",
	[S_LOGIN_TRIM] =
	    "DELETE FROM login_tokens WHERE name_key = ?1 AND (expires <= ?3 OR id NOT IN"
	    " (SELECT id FROM login_tokens WHERE name_key = ?1 ORDER BY id DESC"
	    " LIMIT ?2))",
	[S_LOGIN_GET] = "SELECT name FROM login_tokens WHERE digest = ?1 AND expires > ?2",
	[S_LOGIN_DROP] = "DELETE FROM login_tokens WHERE digest = ?1",
	[S_LOGIN_DROP_USER] = "DELETE FROM login_tokens WHERE name_key = ?1",
	[S_USER_BOT] = "SELECT bot_since FROM users WHERE name_key = ?1",
	[S_USER_NOBOTS] = "SELECT no_bots FROM users WHERE name_key = ?1",
	[S_USER_NOBOTS_SET] = "UPDATE users SET no_bots = ?2 WHERE name_key = ?1",
	[S_USER_BOT_SET] = "UPDATE users SET bot_since = ?2 WHERE name_key = ?1",
	[S_BOTS] = "SELECT name, bot_since FROM users WHERE bot_since <> 0 ORDER BY name_key",
	[S_BOT_TOKEN_PUT] = "INSERT INTO bot_tokens (digest, name, name_key, created, expires)"
			    " VALUES (?1, ?2, ?3, ?4, ?5)",
	[S_BOT_TOKEN_EXPIRE] = "DELETE FROM bot_tokens WHERE expires <= ?1",
	[S_BOT_TOKEN_GET] = "SELECT name, expires FROM bot_tokens WHERE digest = ?1",
	[S_BOT_TOKEN_DROP] = "DELETE FROM bot_tokens WHERE digest = ?1",
	[S_BOT_TOKEN_DROP_USER] = "DELETE FROM bot_tokens WHERE name_key = ?1",
	[S_RATING_GET] = "SELECT name, rating, deviation, volatility, wins, losses, draws"
			 " FROM ratings WHERE name_key = ?1 AND rule = ?2",
	[S_RATING_PUT] =
	    "INSERT OR REPLACE INTO ratings (name_key, rule, name, rating, deviation,"
	    " volatility, wins, losses, draws) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
	/* ?4: 0 everyone but bot accounts, 1 bot accounts alone */
	[S_TOP] = "SELECT name, rating, deviation, volatility, wins, losses, draws FROM ratings r"
		  " WHERE rule = ?1 AND EXISTS (SELECT 1 FROM users u WHERE u.name_key ="
		  " r.name_key AND u.bot_since <> 0) = ?4"
		  " ORDER BY rating DESC, name_key LIMIT ?2 OFFSET ?3",
	[S_TOP_COUNT] = "SELECT count(*) FROM ratings r WHERE rule = ?1 AND EXISTS (SELECT 1"
			" FROM users u WHERE u.name_key = r.name_key AND u.bot_since <> 0) = ?2",
	[S_GAME_NEW] =
	    "INSERT INTO games (room, rule, size, opening, rated, tc_base, tc_inc,"
	    " black, white, black_key, white_key, started, black_before, white_before,"
	    " private, code, opening_plies, owner, tpair) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7,"
	    " ?8, ?9, lower(?8), lower(?9), ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)",
	[S_GAME_COLOURS] = "UPDATE games SET black = ?2, white = ?3, black_key = lower(?2),"
			   " white_key = lower(?3), opening_plies = ?4, opening_log = ?5"
			   " WHERE id = ?1",
	[S_MOVE_NEW] = "INSERT INTO moves (game_id, ply, move, used_ms, black_ms, white_ms)"
		       " VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
	[S_MOVE_TRUNC] = "DELETE FROM moves WHERE game_id = ?1 AND ply >= ?2",
	[S_MOVED_BOTH] = "UPDATE games SET moved_both = 1 WHERE id = ?1"
			 " AND (SELECT count(*) FROM moves WHERE game_id = ?1) >= 2",
	[S_GAME_END] = "UPDATE games SET ended = ?2, result = ?3, reason = ?4, black_before = ?5,"
		       " black_after = ?6, white_before = ?7, white_after = ?8"
		       " WHERE id = ?1 AND ended IS NULL",
	[S_BEGIN] = "BEGIN IMMEDIATE",
	[S_COMMIT] = "COMMIT",
	[S_SAVEPOINT] = "SAVEPOINT w",
	[S_RELEASE] = "RELEASE w",
	[S_GAME_GET] = "SELECT " GAME_COLS " FROM games WHERE id = ?1",
	[S_MOVES_GET] = "SELECT ply, move, used_ms, black_ms, white_ms FROM moves"
			" WHERE game_id = ?1 ORDER BY ply",
	[S_UNFINISHED] = "SELECT id FROM games WHERE ended IS NULL ORDER BY id LIMIT ?1",
	[S_OPEN] = "SELECT id, room, owner FROM games WHERE ended IS NULL ORDER BY id LIMIT ?1",
	[S_OPEN_STONES] = "SELECT g.id, g.room, g.size, m.move FROM games g JOIN moves m ON"
			  " m.game_id = g.id WHERE g.ended IS NULL AND g.owner <> ?1"
			  " ORDER BY g.id, m.ply",
	[S_CLAIM] = "UPDATE games SET owner = ?2 WHERE id = ?1 AND ended IS NULL",
	[S_FENCE] = "SELECT 1 FROM games WHERE id = ?1 AND owner = ?2 AND ended IS NULL",
	[S_MOVE_OWNED] = "INSERT INTO moves (game_id, ply, move, used_ms, black_ms, white_ms)"
			 " SELECT id, ?2, ?3, ?4, ?5, ?6 FROM games WHERE id = ?1 AND owner = ?7"
			 " AND ended IS NULL",
	[S_HISTORY] = "SELECT id FROM games WHERE ended IS NOT NULL AND"
		      " (black_key = lower(?1) OR white_key = lower(?1))"
		      " ORDER BY ended DESC, id DESC LIMIT ?2 OFFSET ?3",
	[S_HISTORY_COUNT] = "SELECT count(*) FROM games WHERE ended IS NOT NULL AND"
			    " (black_key = lower(?1) OR white_key = lower(?1))",
	[S_SANCTION_PUT] = "INSERT OR REPLACE INTO sanctions (kind, target, by, reason, created,"
			   " expires) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
	[S_SANCTION_DROP] = "DELETE FROM sanctions WHERE kind = ?1 AND target = ?2",
	[S_SANCTIONS] = "SELECT kind, target, by, reason, created, expires FROM sanctions"
			" WHERE expires = 0 OR expires > ?1 ORDER BY kind, target",
	[S_PUZZLE_PUT] = "INSERT INTO puzzles (game_id, ply, rule, size, moves, class, plies, line,"
			 " rating, deviation, volatility, made)"
			 " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
	[S_PUZZLE_GET] = "SELECT game_id, ply, rule, size, moves, class, plies, line, rating,"
			 " deviation, volatility, tries, solved, made FROM puzzles WHERE id = ?1",
	[S_PUZZLE_PICK] =
	    "SELECT id FROM puzzles WHERE id NOT IN (SELECT puzzle_id FROM"
	    " puzzle_tries WHERE name_key = ?1) ORDER BY abs(rating - ?2), id LIMIT 1",
	[S_PUZZLE_COUNT] = "SELECT count(*) FROM puzzles",
	[S_PUZZLE_NTH] = "SELECT id FROM puzzles ORDER BY id LIMIT 1 OFFSET ?1",
	[S_PUZZLE_TRY] = "INSERT INTO puzzle_tries (name_key, puzzle_id, solved, at)"
			 " VALUES (?1, ?2, ?3, ?4)",
	[S_PUZZLE_RATE] = "UPDATE puzzles SET rating = ?2, deviation = ?3, volatility = ?4,"
			  " tries = tries + 1, solved = solved + ?5 WHERE id = ?1",
	[S_REVIEW_PUT] = "INSERT OR IGNORE INTO reviews (game_id, made, body) VALUES (?1, ?2, ?3)",
	[S_REVIEW_GET] = "SELECT body FROM reviews WHERE game_id = ?1",
	[S_TOURNEY_NEW] = "INSERT INTO tourneys (kind, state, entrants, rule, size, opening, rated,"
			  " tc_base, tc_inc, starts, length, round, creator, name, owner, created,"
			  " ended) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13,"
			  " ?14, ?15, ?16, ?17)",
	[S_TOURNEY_SET] =
	    "UPDATE tourneys SET state = ?2, round = ?3, ended = ?4, owner = ?5 WHERE id = ?1",
	[S_TOURNEY_GET] = "SELECT " TOURNEY_COLS " FROM tourneys WHERE id = ?1",
	/* states 0 and 1: proto.h's TSTATE_SOON and TSTATE_RUNNING */
	[S_TOURNEYS] = "SELECT " TOURNEY_COLS " FROM tourneys"
		       " WHERE state IN (0, 1) OR ended >= ?1 ORDER BY id",
	[S_TPLAYER_PUT] =
	    "INSERT INTO tourney_players (tourney_id, name, name_key, seq, rating, bot_level,"
	    " withdrawn) VALUES (?1, ?2, ?3, CASE WHEN ?4 > 0 THEN ?4 ELSE (SELECT"
	    " coalesce(max(seq), 0) + 1 FROM tourney_players WHERE tourney_id = ?1) END,"
	    " ?5, ?6, ?7) ON CONFLICT (tourney_id, name_key) DO UPDATE SET"
	    " rating = excluded.rating, withdrawn = excluded.withdrawn",
	[S_TPLAYER_DROP] = "DELETE FROM tourney_players WHERE tourney_id = ?1 AND name_key = ?2",
	[S_TPLAYERS] = "SELECT name, seq, rating, bot_level, withdrawn FROM tourney_players"
		       " WHERE tourney_id = ?1 ORDER BY seq, name_key",
	[S_TROUND_CHECK] = "SELECT round, EXISTS (SELECT 1 FROM tourney_games WHERE"
			   " tourney_id = ?1 AND round = ?2) FROM tourneys WHERE id = ?1",
	[S_TGAME_NEW] = "INSERT INTO tourney_games (tourney_id, round, board, first, second,"
			" result, room) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
	[S_TROUND_SET] = "UPDATE tourneys SET round = ?2 WHERE id = ?1",
	[S_TGAME_RESULT] = "UPDATE tourney_games SET result = ?2 WHERE id = ?1 AND result = 0",
	[S_TGAME_THERE] = "SELECT 1 FROM tourney_games WHERE id = ?1",
	[S_TGAME_ROOM] = "UPDATE tourney_games SET room = ?2 WHERE id = ?1",
	[S_TGAMES] = "SELECT id, round, board, first, second, result, room FROM tourney_games"
		     " WHERE tourney_id = ?1 ORDER BY round, board",
	/* tpair <> 0 as the partial index games_tpair has it (and no pairing 0) */
	[S_TGAME_LINKED] = "SELECT " GAME_COLS " FROM games WHERE tpair = ?1 AND tpair <> 0"
			   " ORDER BY id DESC LIMIT 1",
	[S_USER_LEAGUE] = "SELECT league FROM users WHERE name_key = ?1 AND bot_since <> 0",
	[S_USER_LEAGUE_SET] = "UPDATE users SET league = ?2 WHERE name_key = ?1",
	[S_LEAGUE_LINK] = "INSERT INTO league_events (league, n, tourney_id) VALUES (?1, ?2, ?3)",
	[S_LEAGUE_EVENTS] = "SELECT " TOURNEY_COLS ", e.n FROM tourneys JOIN league_events e ON"
			    " e.tourney_id = tourneys.id WHERE e.league = ?1 ORDER BY e.n",
	[S_SETTING_GET] = "SELECT value FROM settings WHERE key = ?1",
	[S_SETTING_PUT] = "INSERT OR REPLACE INTO settings (key, value) VALUES (?1, ?2)",
	[S_SETTING_DROP] = "DELETE FROM settings WHERE key = ?1",
};

/* The backend's connection, behind store_t's be. */
struct sq {
	sqlite3 *db;
	sqlite3_stmt *st[S_COUNT];
};

static struct sq *
sq(store_t *s)
{
	return s->be;
}

static void
set_msg(store_t *s, const char *what)
{
	snprintf(s->msg, sizeof s->msg, "%s: %s", what, sqlite3_errmsg(sq(s)->db));
}

static const char *
sq_error(store_t *s)
{
	return s->msg[0] ? s->msg : sqlite3_errmsg(sq(s)->db);
}

/* The prepared statement for k, reset and unbound, or NULL (message set). */
static sqlite3_stmt *
stmt(store_t *s, enum stmt k)
{
	if (sq(s)->st[k] == NULL) {
		if (sqlite3_prepare_v3(sq(s)->db, sql[k], -1, SQLITE_PREPARE_PERSISTENT,
			&sq(s)->st[k], NULL) != SQLITE_OK) {
			set_msg(s, "prepare");
			return NULL;
		}
	} else {
		sqlite3_reset(sq(s)->st[k]);
		sqlite3_clear_bindings(sq(s)->st[k]);
	}
	return sq(s)->st[k];
}

/* Runs a statement that returns no rows. */
static int
done(store_t *s, sqlite3_stmt *q, const char *what)
{
	if (store_fault(s, "before", what) != 0) {
		sqlite3_reset(q);
		return -1;
	}
	int rc = sqlite3_step(q);

	sqlite3_reset(q);
	if (rc == SQLITE_DONE)
		return store_fault(s, "after", what);
	if (rc == SQLITE_CONSTRAINT)
		return STORE_EXISTS;
	set_msg(s, what);
	return -1;
}

static int
exec(store_t *s, const char *text, const char *what)
{
	char *e = NULL;

	if (store_fault(s, "before", what) != 0)
		return -1;
	if (sqlite3_exec(sq(s)->db, text, NULL, NULL, &e) == SQLITE_OK)
		return store_fault(s, "after", what);
	snprintf(s->msg, sizeof s->msg, "%s: %s", what, e ? e : sqlite3_errmsg(sq(s)->db));
	sqlite3_free(e);
	return -1;
}

static int
pragma_int(store_t *s, const char *text, int *out)
{
	sqlite3_stmt *q;
	int rc;

	if (sqlite3_prepare_v2(sq(s)->db, text, -1, &q, NULL) != SQLITE_OK) {
		set_msg(s, text);
		return -1;
	}
	rc = sqlite3_step(q);
	if (rc == SQLITE_ROW)
		*out = sqlite3_column_int(q, 0);
	else
		set_msg(s, text);
	sqlite3_finalize(q);
	return rc == SQLITE_ROW ? 0 : -1;
}

/* quick_check must answer exactly one row, "ok". */
static int
check_integrity(store_t *s)
{
	sqlite3_stmt *q;
	int rc, ok = 0, rows = 0;

	if (sqlite3_prepare_v2(sq(s)->db, "PRAGMA quick_check", -1, &q, NULL) != SQLITE_OK) {
		set_msg(s, "integrity check");
		return -1;
	}
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		const char *t = (const char *)sqlite3_column_text(q, 0);
		rows++;
		if (rows == 1 && t != NULL && strcmp(t, "ok") == 0)
			ok = 1;
		else if (rows <= 1)
			snprintf(s->msg, sizeof s->msg, "integrity check: %s", t ? t : "?");
	}
	if (rc != SQLITE_DONE)
		set_msg(s, "integrity check");
	sqlite3_finalize(q);
	return rc == SQLITE_DONE && ok && rows == 1 ? 0 : -1;
}

static int
migrate(store_t *s)
{
	int v;

	if (pragma_int(s, "PRAGMA user_version", &v) != 0)
		return -1;
	if (v > STORE_SCHEMA_VERSION) {
		snprintf(s->msg, sizeof s->msg,
		    "schema version %d is newer than this gomokud knows (%d)", v,
		    STORE_SCHEMA_VERSION);
		return -1;
	}
	for (; v < STORE_SCHEMA_VERSION; v++) {
		char bump[64];
		snprintf(bump, sizeof bump, "PRAGMA user_version = %d;", v + 1);
		if (exec(s, "BEGIN IMMEDIATE", "migration") != 0)
			return -1;
		if (exec(s, migrations[v], "migration") != 0 || exec(s, bump, "migration") != 0 ||
		    exec(s, "COMMIT", "migration") != 0) {
			sqlite3_exec(sq(s)->db, "ROLLBACK", NULL, NULL, NULL);
			return -1;
		}
	}
	return 0;
}

/* Creates path empty and 0600 (the fchmod: whatever the umask), before
 * SQLite opens it: it holds password hashes, and SQLite gives the -wal,
 * -shm and -journal files it makes the mode of the database file. */
static int
create_private(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return -1;
	int rc = fchmod(fd, 0600);
	int e = errno;
	close(fd);
	errno = e;
	return rc;
}

/* Opens path into s (the front has set up s): see store_open. */
static int
sq_open(store_t *s, const char *path, char *err, size_t errlen)
{
	struct stat sb;
	int exists = stat(path, &sb) == 0, flags = SQLITE_OPEN_READWRITE;

	if ((s->be = calloc(1, sizeof(struct sq))) == NULL) {
		snprintf(err, errlen, "%s: out of memory", path);
		return -1;
	}
	if (!exists) {
		if (create_private(path) != 0) {
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			return -1;
		}
		flags |= SQLITE_OPEN_CREATE;
	}
	/* one thread uses the connection (the loop): no mutex of its own */
	if (sqlite3_open_v2(path, &sq(s)->db, flags | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "%s: %s", path,
		    sq(s)->db ? sqlite3_errmsg(sq(s)->db) : "cannot open");
		return -1;
	}
	sqlite3_extended_result_codes(sq(s)->db, 0);
	sqlite3_busy_timeout(sq(s)->db, 2000);
	/* Check before anything writes: a damaged file is refused as it is. */
	if (exists && check_integrity(s) != 0) {
		snprintf(err, errlen,
		    "%s is damaged or not a gomokud database (%s); "
		    "refusing to start: restore it from a backup or move it aside",
		    path, s->msg);
		return -1;
	}
	if (exec(s,
		"PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;"
		" PRAGMA foreign_keys = ON;",
		"pragmas") != 0 ||
	    migrate(s) != 0) {
		snprintf(err, errlen, "%s: %s", path, s->msg);
		return -1;
	}
	return 0;
}

static int
sq_manual_checkpoints(store_t *s)
{
	return exec(s, "PRAGMA wal_autocheckpoint = 0;", "checkpoint setting");
}

int
store_checkpoint(const char *path)
{
	if (store_is_remote(path))
		return 0; /* PostgreSQL checkpoints itself */
	sqlite3 *db = NULL;
	int rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL);

	if (rc == SQLITE_OK) {
		sqlite3_busy_timeout(db, 1000);
		rc = sqlite3_wal_checkpoint_v2(db, NULL, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
	}
	sqlite3_close(db);
	return rc == SQLITE_OK ? 0 : -1;
}

void
store_sqlite_process_init(void)
{
	sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

static void
sq_close(store_t *s)
{
	if (sq(s) == NULL)
		return;
	for (int i = 0; i < S_COUNT; i++)
		sqlite3_finalize(sq(s)->st[i]);
	sqlite3_close(sq(s)->db);
	free(sq(s));
}

static int
sq_schema_version(store_t *s)
{
	int v = -1;

	pragma_int(s, "PRAGMA user_version", &v);
	return v;
}

static int
sq_begin(store_t *s)
{
	sqlite3_stmt *q = stmt(s, S_BEGIN);
	return q ? done(s, q, "begin") : -1;
}

static void sq_rollback(store_t *s);

static int
sq_commit(store_t *s)
{
	sqlite3_stmt *q = stmt(s, S_COMMIT);
	if (q && done(s, q, "commit") == 0)
		return 0;
	sq_rollback(s);
	return -1;
}

static void
sq_rollback(store_t *s)
{
	if (!sqlite3_get_autocommit(sq(s)->db))
		sqlite3_exec(sq(s)->db, "ROLLBACK", NULL, NULL, NULL);
}

/* A write's part of a transaction (store.h): the savepoint w, one for
 * each room's writes of a loop turn's group. Prepared once: parsing the
 * text again each time cost more allocations than the rest of a move. */
static int
sq_savepoint(store_t *s)
{
	sqlite3_stmt *q = stmt(s, S_SAVEPOINT);
	return q ? done(s, q, "savepoint") : -1;
}

static int
sq_release(store_t *s)
{
	sqlite3_stmt *q = stmt(s, S_RELEASE);
	return q ? done(s, q, "release") : -1;
}

/* An error here (no savepoint w) leaves the transaction as it is. */
static void
sq_rollback_to(store_t *s)
{
	if (!sqlite3_get_autocommit(sq(s)->db))
		sqlite3_exec(sq(s)->db, "ROLLBACK TO w; RELEASE w", NULL, NULL, NULL);
}

static void
copy_text(char *dst, size_t cap, sqlite3_stmt *q, int col)
{
	const char *t = (const char *)sqlite3_column_text(q, col);

	snprintf(dst, cap, "%s", t ? t : "");
}

static int
sq_user_create(store_t *s, const char *name, const char *pwhash, int64_t now)
{
	char key[AUTH_NAME_MAX + 1];
	sqlite3_stmt *q = stmt(s, S_USER_NEW);

	if (q == NULL)
		return -1;
	auth_name_key(name, key);
	sqlite3_bind_text(q, 1, name, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(q, 2, key, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(q, 3, pwhash, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(q, 4, now);
	return done(s, q, "create user");
}

static int
sq_user_get(
    store_t *s, const char *name, char out_name[STORE_NAME_MAX + 1], char *pwhash, size_t hashlen)
{
	char key[AUTH_NAME_MAX + 1];
	sqlite3_stmt *q = stmt(s, S_USER_GET);
	int rc;

	if (q == NULL)
		return -1;
	auth_name_key(name, key);
	sqlite3_bind_text(q, 1, key, -1, SQLITE_TRANSIENT);
	rc = sqlite3_step(q);
	if (rc == SQLITE_ROW) {
		copy_text(out_name, STORE_NAME_MAX + 1, q, 0);
		copy_text(pwhash, hashlen, q, 1);
	} else if (rc != SQLITE_DONE) {
		set_msg(s, "get user");
	}
	sqlite3_reset(q);
	return rc == SQLITE_ROW ? 0 : rc == SQLITE_DONE ? STORE_NOT_FOUND : -1;
}

static int
sq_session_put(store_t *s, const char *digest, const char *name, int64_t expires)
{
	sqlite3_stmt *q = stmt(s, S_SESS_PUT);

	if (q == NULL)
		return -1;
	sqlite3_bind_text(q, 1, digest, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(q, 2, name, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(q, 3, expires);
	return done(s, q, "save session");
}

/* The name a token's digest stands for (statement id: a session's or a
 * login token's), if it expires after now. */
static int
name_of_digest(store_t *s, int id, const char *digest, int64_t now, char name[STORE_NAME_MAX + 1],
    const char *what)
{
	sqlite3_stmt *q = stmt(s, id);
	int rc;

	if (q == NULL)
		return -1;
	sqlite3_bind_text(q, 1, digest, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(q, 2, now);
	rc = sqlite3_step(q);
	if (rc == SQLITE_ROW)
		copy_text(name, STORE_NAME_MAX + 1, q, 0);
	else if (rc != SQLITE_DONE)
		set_msg(s, what);
	sqlite3_reset(q);
	return rc == SQLITE_ROW ? 0 : rc == SQLITE_DONE ? STORE_NOT_FOUND : -1;
}

static int
sq_session_get(store_t *s, const char *digest, int64_t now, char name[STORE_NAME_MAX + 1])
{
	return name_of_digest(s, S_SESS_GET, digest, now, name, "get session");
}

static int
sq_session_names(store_t *s, int64_t now, void (*fn)(void *arg, const char *name), void *arg)
{
	sqlite3_stmt *q = stmt(s, S_SESS_NAMES);
	int rc, n = 0;

	if (q == NULL)
		return -1;
	sqlite3_bind_int64(q, 1, now);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		char name[STORE_NAME_MAX + 1];
		copy_text(name, sizeof name, q, 0);
		fn(arg, name);
		n++;
	}
	if (rc != SQLITE_DONE)
		set_msg(s, "list sessions");
	sqlite3_reset(q);
	return rc == SQLITE_DONE ? n : -1;
}

static int
sq_session_drop(store_t *s, const char *digest)
{
	sqlite3_stmt *q = stmt(s, S_SESS_DROP);

	if (q == NULL)
		return -1;
	sqlite3_bind_text(q, 1, digest, -1, SQLITE_TRANSIENT);
	return done(s, q, "drop session");
}

static int
sq_session_expire(store_t *s, int64_t now)
{
	sqlite3_stmt *q = stmt(s, S_SESS_EXPIRE);

	if (q == NULL)
		return -1;
	sqlite3_bind_int64(q, 1, now);
	return done(s, q, "expire sessions");
}

static int
sq_login_put(store_t *s, const char *digest, const char *name, int64_t created, int64_t expires)
{
	char key[AUTH_NAME_MAX + 1];
	sqlite3_stmt *q = stmt(s, S_LOGIN_PUT);

	if (q == NULL)
		return -1;
	auth_name_key(name, key);
	sqlite3_bind_text(q, 1, digest, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(q, 2, name, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(q, 3, key, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(q, 4, created);
	sqlite3_bind_int64(q, 5, expires);
	return done(s, q, "save login");
}

static int
sq_login_trim(store_t *s, const char *name, int keep, int64_t now)
{
	char key[AUTH_NAME_MAX + 1];
	sqlite3_stmt *q = stmt(s, S_LOGIN_TRIM);

	if (q == NULL)
		return -1;
	auth_name_key(name, key);
	sqlite3_bind_text(q, 1, key, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(q, 2, keep);
	sqlite3_bind_int64(q, 3, now);
	return done(s, q, "trim logins");
}

static int
sq_login_get(store_t *s, const char *digest, int64_t now, char name[STORE_NAME_MAX + 1])
{
	return name_of_digest(s, S_LOGIN_GET, digest, now, name, "get login");
}

static int
sq_login_drop(store_t *s, const char *digest)
{
	sqlite3_stmt *q = stmt(s, S_LOGIN_DROP);

	if (q == NULL)
		return -1;
	sqlite3_bind_text(q, 1, digest, -1, SQLITE_TRANSIENT);
	return done(s, q, "drop login");
}

static int
sq_login_drop_user(store_t *s, const char *name)
{
	char key[AUTH_NAME_MAX + 1];
	sqlite3_stmt *q = stmt(s, S_LOGIN_DROP_USER);

	if (q == NULL)
		return -1;
	auth_name_key(name, key);
	sqlite3_bind_text(q, 1, key, -1, SQLITE_TRANSIENT);
	return done(s, q, "drop logins");
}

static int
sq_user_bot(store_t *s, const char *name, int64_t *since)
{
	char key[AUTH_NAME_MAX + 1];
	sqlite3_stmt *q = stmt(s, S_USER_BOT);
	int rc;

	if (q == NULL)
		return -1;
	auth_name_key(name, key);
	sqlite3_bind_text(q, 1, key, -1, SQLITE_TRANSIENT);
	rc = sqlite3_step(q);
	if (rc == SQLITE_ROW)
		*since = sqlite3_column_int64(q, 0);
	else if (rc != SQLITE_DONE)
		set_msg(s, "get bot mark");
	sqlite3_reset(q);
	return rc == SQLITE_ROW ? 0 : rc == SQLITE_DONE ? STORE_NOT_FOUND : -1;
}

static int
sq_user_bot_set(store_t *s, const char *name, int64_t since)
{
	char key[AUTH_NAME_MAX + 1];
	sqlite3_stmt *q = stmt(s, S_USER_BOT_SET);

	if (q == NULL)
		return -1;
	auth_name_key(name, key);
	sqlite3_bind_text(q, 1, key, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(q, 2, since);
	int rc = done(s, q, "set bot mark");
	return rc == 0 && sqlite3_changes(sq(s)->db) == 0 ? STORE_NOT_FOUND : rc;
}

/* An account's yes/no column (no_bots, league): read by q, or set by q
 * with the value as its second parameter. STORE_NOT_FOUND: no account. */
static int
user_flag(store_t *s, enum stmt which, const char *name, int *v, const char *what)
{
	char key[AUTH_NAME_MAX + 1];
	sqlite3_stmt *q = stmt(s, which);
	int rc;

	if (q == NULL)
		return -1;
	auth_name_key(name, key);
	sqlite3_bind_text(q, 1, key, -1, SQLITE_TRANSIENT);
	rc = sqlite3_step(q);
	if (rc == SQLITE_ROW)
		*v = sqlite3_column_int(q, 0) != 0;
	else if (rc != SQLITE_DONE)
		set_msg(s, what);
	sqlite3_reset(q);
	return rc == SQLITE_ROW ? 0 : rc == SQLITE_DONE ? STORE_NOT_FOUND : -1;
}

static int
user_flag_set(store_t *s, enum stmt which, const char *name, int v, const char *what)
{
	char key[AUTH_NAME_MAX + 1];
	sqlite3_stmt *q = stmt(s, which);

	if (q == NULL)
		return -1;
	auth_name_key(name, key);
	sqlite3_bind_text(q, 1, key, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(q, 2, v != 0);
	int rc = done(s, q, what);
	return rc == 0 && sqlite3_changes(sq(s)->db) == 0 ? STORE_NOT_FOUND : rc;
}

static int
sq_user_nobots(store_t *s, const char *name, int *no)
{
	return user_flag(s, S_USER_NOBOTS, name, no, "get no_bots");
}

static int
sq_user_nobots_set(store_t *s, const char *name, int no)
{
	return user_flag_set(s, S_USER_NOBOTS_SET, name, no, "set no_bots");
}

static int
sq_bots(store_t *s, void (*fn)(void *arg, const char *name, int64_t since), void *arg)
{
	sqlite3_stmt *q = stmt(s, S_BOTS);
	int rc, n = 0;

	if (q == NULL)
		return -1;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		char name[STORE_NAME_MAX + 1];
		copy_text(name, sizeof name, q, 0);
		fn(arg, name, sqlite3_column_int64(q, 1));
		n++;
	}
	if (rc != SQLITE_DONE)
		set_msg(s, "list bots");
	sqlite3_reset(q);
	return rc == SQLITE_DONE ? n : -1;
}

static int
sq_bot_token_put(store_t *s, const char *digest, const char *name, int64_t created, int64_t expires)
{
	char key[AUTH_NAME_MAX + 1];
	sqlite3_stmt *q = stmt(s, S_BOT_TOKEN_PUT);

	if (q == NULL)
		return -1;
	auth_name_key(name, key);
	sqlite3_bind_text(q, 1, digest, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(q, 2, name, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(q, 3, key, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(q, 4, created);
	sqlite3_bind_int64(q, 5, expires);
	return done(s, q, "save bot token");
}

static int
sq_bot_token_expire(store_t *s, int64_t now)
{
	sqlite3_stmt *q = stmt(s, S_BOT_TOKEN_EXPIRE);

	if (q == NULL)
		return -1;
	sqlite3_bind_int64(q, 1, now);
	return done(s, q, "expire bot tokens");
}

static int
sq_bot_token_take(store_t *s, const char *digest, char name[STORE_NAME_MAX + 1], int64_t *expires)
{
	sqlite3_stmt *q = stmt(s, S_BOT_TOKEN_GET);
	int rc;

	if (q == NULL)
		return -1;
	sqlite3_bind_text(q, 1, digest, -1, SQLITE_TRANSIENT);
	rc = sqlite3_step(q);
	if (rc == SQLITE_ROW) {
		copy_text(name, STORE_NAME_MAX + 1, q, 0);
		*expires = sqlite3_column_int64(q, 1);
	} else if (rc != SQLITE_DONE) {
		set_msg(s, "get bot token");
	}
	sqlite3_reset(q);
	if (rc != SQLITE_ROW)
		return rc == SQLITE_DONE ? STORE_NOT_FOUND : -1;
	if ((q = stmt(s, S_BOT_TOKEN_DROP)) == NULL)
		return -1;
	sqlite3_bind_text(q, 1, digest, -1, SQLITE_TRANSIENT);
	return done(s, q, "use bot token");
}

static int
sq_bot_token_drop_user(store_t *s, const char *name)
{
	char key[AUTH_NAME_MAX + 1];
	sqlite3_stmt *q = stmt(s, S_BOT_TOKEN_DROP_USER);

	if (q == NULL)
		return -1;
	auth_name_key(name, key);
	sqlite3_bind_text(q, 1, key, -1, SQLITE_TRANSIENT);
	return done(s, q, "drop bot tokens");
}

static void
read_rating(sqlite3_stmt *q, store_rating_t *r)
{
	copy_text(r->name, sizeof r->name, q, 0);
	r->g.rating = sqlite3_column_double(q, 1);
	r->g.deviation = sqlite3_column_double(q, 2);
	r->g.volatility = sqlite3_column_double(q, 3);
	r->wins = sqlite3_column_int(q, 4);
	r->losses = sqlite3_column_int(q, 5);
	r->draws = sqlite3_column_int(q, 6);
}

static int
sq_rating_get(store_t *s, const char *name, rule_t rule, store_rating_t *out)
{
	char key[AUTH_NAME_MAX + 1];
	sqlite3_stmt *q = stmt(s, S_RATING_GET);
	int rc;

	if (q == NULL)
		return -1;
	memset(out, 0, sizeof *out);
	snprintf(out->name, sizeof out->name, "%s", name);
	glicko_init(&out->g);
	auth_name_key(name, key);
	sqlite3_bind_text(q, 1, key, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(q, 2, (int)rule);
	rc = sqlite3_step(q);
	if (rc == SQLITE_ROW)
		read_rating(q, out);
	else if (rc != SQLITE_DONE)
		set_msg(s, "get rating");
	sqlite3_reset(q);
	return rc == SQLITE_ROW ? 0 : rc == SQLITE_DONE ? STORE_NOT_FOUND : -1;
}

static int
sq_rating_put(store_t *s, rule_t rule, const store_rating_t *r)
{
	char key[AUTH_NAME_MAX + 1];
	sqlite3_stmt *q = stmt(s, S_RATING_PUT);

	if (q == NULL)
		return -1;
	auth_name_key(r->name, key);
	sqlite3_bind_text(q, 1, key, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(q, 2, (int)rule);
	sqlite3_bind_text(q, 3, r->name, -1, SQLITE_TRANSIENT);
	sqlite3_bind_double(q, 4, r->g.rating);
	sqlite3_bind_double(q, 5, r->g.deviation);
	sqlite3_bind_double(q, 6, r->g.volatility);
	sqlite3_bind_int(q, 7, r->wins);
	sqlite3_bind_int(q, 8, r->losses);
	sqlite3_bind_int(q, 9, r->draws);
	return done(s, q, "save rating");
}

/* A single integer from a statement with its parameters bound. */
static int
count_of(store_t *s, sqlite3_stmt *q, int *out)
{
	int rc = sqlite3_step(q);

	if (rc == SQLITE_ROW)
		*out = sqlite3_column_int(q, 0);
	else
		set_msg(s, "count");
	sqlite3_reset(q);
	return rc == SQLITE_ROW ? 0 : -1;
}

static int
sq_top(store_t *s, rule_t rule, int bots, int page, store_rating_t *out, int *total)
{
	sqlite3_stmt *q = stmt(s, S_TOP_COUNT);
	int n = 0, rc;

	if (q == NULL || page < 1)
		return -1;
	sqlite3_bind_int(q, 1, (int)rule);
	sqlite3_bind_int(q, 2, bots != 0);
	if (count_of(s, q, total) != 0 || (q = stmt(s, S_TOP)) == NULL)
		return -1;
	sqlite3_bind_int(q, 1, (int)rule);
	sqlite3_bind_int(q, 2, STORE_PAGE);
	sqlite3_bind_int64(q, 3, (int64_t)(page - 1) * STORE_PAGE);
	sqlite3_bind_int(q, 4, bots != 0);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW && n < STORE_PAGE)
		read_rating(q, &out[n++]);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		set_msg(s, "top");
		n = -1;
	}
	sqlite3_reset(q);
	return n;
}

static int
sq_game_begin(store_t *s, store_game_t *g)
{
	sqlite3_stmt *q = stmt(s, S_GAME_NEW);
	int rc;

	if (q == NULL)
		return -1;
	sqlite3_bind_text(q, 1, g->room, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(q, 2, g->rule);
	sqlite3_bind_int(q, 3, g->size);
	sqlite3_bind_int(q, 4, g->opening);
	sqlite3_bind_int(q, 5, g->rated);
	sqlite3_bind_int(q, 6, g->tc_base);
	sqlite3_bind_int(q, 7, g->tc_inc);
	sqlite3_bind_text(q, 8, g->black, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(q, 9, g->white, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(q, 10, g->started);
	sqlite3_bind_double(q, 11, g->black_before);
	sqlite3_bind_double(q, 12, g->white_before);
	sqlite3_bind_int(q, 13, g->private_room);
	sqlite3_bind_text(q, 14, g->code, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(q, 15, g->opening_plies);
	sqlite3_bind_text(q, 16, g->owner, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(q, 17, g->tpair);
	rc = done(s, q, "begin game");
	if (rc == 0)
		g->id = sqlite3_last_insert_rowid(sq(s)->db);
	return rc;
}

static int
sq_game_move(store_t *s, int64_t game_id, int ply, const store_move_t *m)
{
	sqlite3_stmt *q = stmt(s, S_MOVE_NEW);

	if (q == NULL)
		return -1;
	sqlite3_bind_int64(q, 1, game_id);
	sqlite3_bind_int(q, 2, ply);
	sqlite3_bind_int(q, 3, m->move);
	sqlite3_bind_int64(q, 4, m->used_ms);
	sqlite3_bind_int64(q, 5, m->black_ms);
	sqlite3_bind_int64(q, 6, m->white_ms);
	return done(s, q, "save move");
}

static int
sq_game_colours(store_t *s, int64_t game_id, const char *black, const char *white,
    int opening_plies, const char *log)
{
	sqlite3_stmt *q = stmt(s, S_GAME_COLOURS);

	if (q == NULL)
		return -1;
	sqlite3_bind_int64(q, 1, game_id);
	sqlite3_bind_text(q, 2, black, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(q, 3, white, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(q, 4, opening_plies);
	sqlite3_bind_text(q, 5, log ? log : "", -1, SQLITE_TRANSIENT);
	return done(s, q, "save colours");
}

static int
sq_game_truncate(store_t *s, int64_t game_id, int from)
{
	/* before the moves go: with two or more kept, both sides had moved */
	sqlite3_stmt *q = stmt(s, S_MOVED_BOTH);

	if (q == NULL)
		return -1;
	sqlite3_bind_int64(q, 1, game_id);
	if (done(s, q, "keep that both moved") != 0)
		return -1;
	if ((q = stmt(s, S_MOVE_TRUNC)) == NULL)
		return -1;
	sqlite3_bind_int64(q, 1, game_id);
	sqlite3_bind_int(q, 2, from);
	return done(s, q, "undo moves");
}

static int
sq_game_end(store_t *s, const store_game_t *g)
{
	sqlite3_stmt *q = stmt(s, S_GAME_END);

	if (q == NULL)
		return -1;
	sqlite3_bind_int64(q, 1, g->id);
	sqlite3_bind_int64(q, 2, g->ended);
	sqlite3_bind_int(q, 3, g->result);
	sqlite3_bind_int(q, 4, g->reason);
	sqlite3_bind_double(q, 5, g->black_before);
	sqlite3_bind_double(q, 6, g->black_after);
	sqlite3_bind_double(q, 7, g->white_before);
	sqlite3_bind_double(q, 8, g->white_after);
	if (done(s, q, "end game") != 0)
		return -1;
	return sqlite3_changes(sq(s)->db) == 1 ? 0 : STORE_NOT_FOUND;
}

static void
read_game(sqlite3_stmt *q, store_game_t *g)
{
	memset(g, 0, sizeof *g);
	g->id = sqlite3_column_int64(q, 0);
	copy_text(g->room, sizeof g->room, q, 1);
	g->rule = sqlite3_column_int(q, 2);
	g->size = sqlite3_column_int(q, 3);
	g->opening = sqlite3_column_int(q, 4);
	g->rated = sqlite3_column_int(q, 5);
	g->tc_base = sqlite3_column_int(q, 6);
	g->tc_inc = sqlite3_column_int(q, 7);
	copy_text(g->black, sizeof g->black, q, 8);
	copy_text(g->white, sizeof g->white, q, 9);
	g->started = sqlite3_column_int64(q, 10);
	g->ended = sqlite3_column_int64(q, 11);
	g->result = sqlite3_column_int(q, 12);
	g->reason = sqlite3_column_int(q, 13);
	g->black_before = sqlite3_column_double(q, 14);
	g->black_after = sqlite3_column_double(q, 15);
	g->white_before = sqlite3_column_double(q, 16);
	g->white_after = sqlite3_column_double(q, 17);
	g->nmoves = sqlite3_column_int(q, 18);
	g->private_room = sqlite3_column_int(q, 19);
	copy_text(g->code, sizeof g->code, q, 20);
	g->opening_plies = sqlite3_column_int(q, 21);
	copy_text(g->owner, sizeof g->owner, q, 22);
	g->moved_both = sqlite3_column_int(q, 23);
	copy_text(g->opening_log, sizeof g->opening_log, q, 24);
	g->tpair = sqlite3_column_int64(q, 25);
}

static int
sq_game_load(store_t *s, int64_t id, store_game_t *g, store_move_t *moves)
{
	sqlite3_stmt *q = stmt(s, S_GAME_GET);
	int rc, n = 0;

	if (q == NULL)
		return -1;
	sqlite3_bind_int64(q, 1, id);
	rc = sqlite3_step(q);
	if (rc == SQLITE_ROW)
		read_game(q, g);
	else if (rc != SQLITE_DONE)
		set_msg(s, "load game");
	sqlite3_reset(q);
	if (rc != SQLITE_ROW)
		return rc == SQLITE_DONE ? STORE_NOT_FOUND : -1;
	if (moves == NULL || (q = stmt(s, S_MOVES_GET)) == NULL)
		return moves == NULL ? 0 : -1;
	sqlite3_bind_int64(q, 1, id);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW && n < RULES_CELLS) {
		if (sqlite3_column_int(q, 0) != n)
			break; /* plies are stored in order from 0; a gap is damage */
		moves[n].move = (move_t)sqlite3_column_int(q, 1);
		moves[n].used_ms = sqlite3_column_int64(q, 2);
		moves[n].black_ms = sqlite3_column_int64(q, 3);
		moves[n].white_ms = sqlite3_column_int64(q, 4);
		n++;
	}
	sqlite3_reset(q);
	if (n != g->nmoves) {
		snprintf(s->msg, sizeof s->msg, "game %lld: moves are not a sequence from 0",
		    (long long)id);
		return -1;
	}
	return 0;
}

static int
sq_games_unfinished(store_t *s, int64_t *ids, int max)
{
	sqlite3_stmt *q = stmt(s, S_UNFINISHED);
	int n = 0, rc;

	if (q == NULL)
		return -1;
	sqlite3_bind_int(q, 1, max);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW && n < max)
		ids[n++] = sqlite3_column_int64(q, 0);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		set_msg(s, "unfinished games");
		n = -1;
	}
	sqlite3_reset(q);
	return n;
}

static int
sq_games_open(store_t *s, store_open_game_t *out, int max)
{
	sqlite3_stmt *q = stmt(s, S_OPEN);
	int n = 0, rc;

	if (q == NULL)
		return -1;
	sqlite3_bind_int(q, 1, max);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW && n < max) {
		out[n].id = sqlite3_column_int64(q, 0);
		copy_text(out[n].room, sizeof out[n].room, q, 1);
		copy_text(out[n].owner, sizeof out[n].owner, q, 2);
		n++;
	}
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		set_msg(s, "open games");
		n = -1;
	}
	sqlite3_reset(q);
	return n;
}

static int
sq_open_stones(store_t *s, const char *owner, store_stone_fn *fn, void *arg)
{
	sqlite3_stmt *q = stmt(s, S_OPEN_STONES);
	int n = 0, rc;
	char room[STORE_ROOM_MAX + 1];

	if (q == NULL)
		return -1;
	sqlite3_bind_text(q, 1, owner, -1, SQLITE_TRANSIENT);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		copy_text(room, sizeof room, q, 1);
		fn(arg, sqlite3_column_int64(q, 0), room, sqlite3_column_int(q, 2),
		    (move_t)sqlite3_column_int(q, 3));
		n++;
	}
	if (rc != SQLITE_DONE) {
		set_msg(s, "open games' stones");
		n = -1;
	}
	sqlite3_reset(q);
	return n;
}

static int
sq_game_claim(store_t *s, int64_t id, const char *owner)
{
	sqlite3_stmt *q = stmt(s, S_CLAIM);

	if (q == NULL)
		return -1;
	sqlite3_bind_int64(q, 1, id);
	sqlite3_bind_text(q, 2, owner, -1, SQLITE_TRANSIENT);
	if (done(s, q, "claim game") != 0)
		return -1;
	return sqlite3_changes(sq(s)->db) == 1 ? 0 : STORE_NOT_FOUND;
}

/* SQLite has one writer at a time: the caller's transaction is the lock. */
static int
sq_game_fence(store_t *s, int64_t id, const char *owner)
{
	sqlite3_stmt *q = stmt(s, S_FENCE);

	if (q == NULL)
		return -1;
	sqlite3_bind_int64(q, 1, id);
	sqlite3_bind_text(q, 2, owner, -1, SQLITE_TRANSIENT);
	int rc = sqlite3_step(q);
	sqlite3_reset(q);
	if (rc == SQLITE_ROW)
		return 0;
	if (rc != SQLITE_DONE) {
		set_msg(s, "fence game");
		return -1;
	}
	snprintf(s->msg, sizeof s->msg, "game %lld: not this node's (another owns it now)",
	    (long long)id);
	return STORE_NOT_FOUND;
}

static int
sq_game_move_owned(store_t *s, int64_t game_id, int ply, const store_move_t *m, const char *owner)
{
	sqlite3_stmt *q = stmt(s, S_MOVE_OWNED);

	if (q == NULL)
		return -1;
	sqlite3_bind_int64(q, 1, game_id);
	sqlite3_bind_int(q, 2, ply);
	sqlite3_bind_int(q, 3, m->move);
	sqlite3_bind_int64(q, 4, m->used_ms);
	sqlite3_bind_int64(q, 5, m->black_ms);
	sqlite3_bind_int64(q, 6, m->white_ms);
	sqlite3_bind_text(q, 7, owner, -1, SQLITE_TRANSIENT);
	int rc = done(s, q, "save move");
	if (rc != 0 || sqlite3_changes(sq(s)->db) == 1)
		return rc;
	snprintf(s->msg, sizeof s->msg, "game %lld: not this node's (another owns it now)",
	    (long long)game_id);
	return STORE_NOT_FOUND;
}

static int
sq_history(store_t *s, const char *name, int page, store_game_t *out, int *total)
{
	sqlite3_stmt *q = stmt(s, S_HISTORY_COUNT);
	int64_t ids[STORE_PAGE];
	int n = 0, rc;

	if (q == NULL || page < 1)
		return -1;
	sqlite3_bind_text(q, 1, name, -1, SQLITE_TRANSIENT);
	if (count_of(s, q, total) != 0 || (q = stmt(s, S_HISTORY)) == NULL)
		return -1;
	sqlite3_bind_text(q, 1, name, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(q, 2, STORE_PAGE);
	sqlite3_bind_int64(q, 3, (int64_t)(page - 1) * STORE_PAGE);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW && n < STORE_PAGE)
		ids[n++] = sqlite3_column_int64(q, 0);
	sqlite3_reset(q);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		set_msg(s, "history");
		return -1;
	}
	for (int i = 0; i < n; i++)
		if (sq_game_load(s, ids[i], &out[i], NULL) != 0)
			return -1;
	return n;
}

static int
sq_sanction_put(store_t *s, const store_sanction_t *x)
{
	sqlite3_stmt *q = stmt(s, S_SANCTION_PUT);

	if (q == NULL)
		return -1;
	sqlite3_bind_int(q, 1, x->kind);
	sqlite3_bind_text(q, 2, x->target, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(q, 3, x->by, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(q, 4, x->reason, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(q, 5, x->created);
	sqlite3_bind_int64(q, 6, x->expires);
	return done(s, q, "save sanction");
}

static int
sq_sanction_drop(store_t *s, int kind, const char *target)
{
	sqlite3_stmt *q = stmt(s, S_SANCTION_DROP);
	int rc;

	if (q == NULL)
		return -1;
	sqlite3_bind_int(q, 1, kind);
	sqlite3_bind_text(q, 2, target, -1, SQLITE_TRANSIENT);
	rc = done(s, q, "drop sanction");
	if (rc == 0 && sqlite3_changes(sq(s)->db) == 0)
		return STORE_NOT_FOUND;
	return rc;
}

static int
sq_sanctions(store_t *s, int64_t now, void (*fn)(void *arg, const store_sanction_t *x), void *arg)
{
	sqlite3_stmt *q = stmt(s, S_SANCTIONS);
	int rc, n = 0;

	if (q == NULL)
		return -1;
	sqlite3_bind_int64(q, 1, now);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		store_sanction_t x;
		x.kind = sqlite3_column_int(q, 0);
		copy_text(x.target, sizeof x.target, q, 1);
		copy_text(x.by, sizeof x.by, q, 2);
		copy_text(x.reason, sizeof x.reason, q, 3);
		x.created = sqlite3_column_int64(q, 4);
		x.expires = sqlite3_column_int64(q, 5);
		fn(arg, &x);
		n++;
	}
	if (rc != SQLITE_DONE)
		set_msg(s, "list sanctions");
	sqlite3_reset(q);
	return rc == SQLITE_DONE ? n : -1;
}

static int
sq_puzzle_put(store_t *s, store_puzzle_t *p)
{
	char moves[RULES_CELLS * 4 + 2], line[STORE_PUZZLE_LINE_MAX * 4 + 2];
	sqlite3_stmt *q = stmt(s, S_PUZZLE_PUT);

	if (q == NULL)
		return -1;
	if (store_cells_text(p->moves, p->nmoves, moves, sizeof moves) < 0 ||
	    store_cells_text(p->line, p->nline, line, sizeof line) < 0) {
		sqlite3_reset(q);
		snprintf(s->msg, sizeof s->msg, "save puzzle: moves");
		return -1;
	}
	sqlite3_bind_int64(q, 1, p->game_id);
	sqlite3_bind_int(q, 2, p->ply);
	sqlite3_bind_int(q, 3, p->rule);
	sqlite3_bind_int(q, 4, p->size);
	sqlite3_bind_text(q, 5, moves, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(q, 6, p->cls);
	sqlite3_bind_int(q, 7, p->plies);
	sqlite3_bind_text(q, 8, line, -1, SQLITE_TRANSIENT);
	sqlite3_bind_double(q, 9, p->g.rating);
	sqlite3_bind_double(q, 10, p->g.deviation);
	sqlite3_bind_double(q, 11, p->g.volatility);
	sqlite3_bind_int64(q, 12, p->made);
	int rc = done(s, q, "save puzzle");
	if (rc == 0)
		p->id = sqlite3_last_insert_rowid(sq(s)->db);
	return rc;
}

static int
sq_puzzle_get(store_t *s, int64_t id, store_puzzle_t *out)
{
	sqlite3_stmt *q = stmt(s, S_PUZZLE_GET);
	int rc;

	if (q == NULL)
		return -1;
	memset(out, 0, sizeof *out);
	sqlite3_bind_int64(q, 1, id);
	rc = sqlite3_step(q);
	if (rc == SQLITE_ROW) {
		out->id = id;
		out->game_id = sqlite3_column_int64(q, 0);
		out->ply = sqlite3_column_int(q, 1);
		out->rule = sqlite3_column_int(q, 2);
		out->size = sqlite3_column_int(q, 3);
		out->cls = sqlite3_column_int(q, 5);
		out->plies = sqlite3_column_int(q, 6);
		out->g.rating = sqlite3_column_double(q, 8);
		out->g.deviation = sqlite3_column_double(q, 9);
		out->g.volatility = sqlite3_column_double(q, 10);
		out->tries = sqlite3_column_int(q, 11);
		out->solved = sqlite3_column_int(q, 12);
		out->made = sqlite3_column_int64(q, 13);
		const char *m = (const char *)sqlite3_column_text(q, 4);
		const char *l = (const char *)sqlite3_column_text(q, 7);
		out->nmoves = m ? store_cells_read(m, out->size, out->moves, RULES_CELLS) : -1;
		out->nline = l ? store_cells_read(l, out->size, out->line, STORE_PUZZLE_LINE_MAX)
			       : -1;
		if (out->nmoves < 0 || out->nline < 0) {
			snprintf(s->msg, sizeof s->msg, "get puzzle %lld: its moves do not read",
			    (long long)id);
			rc = SQLITE_CORRUPT;
		}
	} else if (rc != SQLITE_DONE) {
		set_msg(s, "get puzzle");
	}
	sqlite3_reset(q);
	return rc == SQLITE_ROW ? 0 : rc == SQLITE_DONE ? STORE_NOT_FOUND : -1;
}

/* A statement that gives one integer (a count, an id): 0 with *v, or
 * STORE_NOT_FOUND, or -1. Its parameters are bound. */
static int
one_int(store_t *s, sqlite3_stmt *q, const char *what, int64_t *v)
{
	int rc = sqlite3_step(q);
	if (rc == SQLITE_ROW)
		*v = sqlite3_column_int64(q, 0);
	else if (rc != SQLITE_DONE)
		set_msg(s, what);
	sqlite3_reset(q);
	return rc == SQLITE_ROW ? 0 : rc == SQLITE_DONE ? STORE_NOT_FOUND : -1;
}

static int
sq_puzzle_pick(store_t *s, const char *name, double rating, int64_t *id)
{
	char key[AUTH_NAME_MAX + 1];
	sqlite3_stmt *q = stmt(s, S_PUZZLE_PICK);

	if (q == NULL)
		return -1;
	auth_name_key(name, key);
	sqlite3_bind_text(q, 1, key, -1, SQLITE_TRANSIENT);
	sqlite3_bind_double(q, 2, rating);
	return one_int(s, q, "pick puzzle", id);
}

static int
sq_puzzle_count(store_t *s, int64_t *n)
{
	sqlite3_stmt *q = stmt(s, S_PUZZLE_COUNT);
	return q ? one_int(s, q, "count puzzles", n) : -1;
}

static int
sq_puzzle_nth(store_t *s, int64_t k, int64_t *id)
{
	sqlite3_stmt *q = stmt(s, S_PUZZLE_NTH);

	if (q == NULL)
		return -1;
	sqlite3_bind_int64(q, 1, k);
	return one_int(s, q, "puzzle by number", id);
}

static int
sq_puzzle_try(store_t *s, const char *name, int64_t id, int solved, int64_t at, const glicko_t *g)
{
	char key[AUTH_NAME_MAX + 1];
	sqlite3_stmt *q = stmt(s, S_PUZZLE_TRY);

	if (q == NULL)
		return -1;
	auth_name_key(name, key);
	sqlite3_bind_text(q, 1, key, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(q, 2, id);
	sqlite3_bind_int(q, 3, solved);
	sqlite3_bind_int64(q, 4, at);
	int rc = done(s, q, "save puzzle try");
	if (rc != 0 || !(q = stmt(s, S_PUZZLE_RATE)))
		return rc ? rc : -1;
	sqlite3_bind_int64(q, 1, id);
	sqlite3_bind_double(q, 2, g->rating);
	sqlite3_bind_double(q, 3, g->deviation);
	sqlite3_bind_double(q, 4, g->volatility);
	sqlite3_bind_int(q, 5, solved);
	return done(s, q, "rate puzzle");
}

static int
sq_review_put(store_t *s, int64_t game_id, int64_t made, const char *body)
{
	sqlite3_stmt *q = stmt(s, S_REVIEW_PUT);

	if (q == NULL)
		return -1;
	sqlite3_bind_int64(q, 1, game_id);
	sqlite3_bind_int64(q, 2, made);
	sqlite3_bind_text(q, 3, body, -1, SQLITE_TRANSIENT);
	return done(s, q, "save review");
}

static int
sq_review_get(store_t *s, int64_t game_id, char *out, size_t cap)
{
	sqlite3_stmt *q = stmt(s, S_REVIEW_GET);
	int rc;

	if (q == NULL)
		return -1;
	sqlite3_bind_int64(q, 1, game_id);
	rc = sqlite3_step(q);
	if (rc == SQLITE_ROW) {
		if ((size_t)sqlite3_column_bytes(q, 0) >= cap) {
			set_msg(s, "review too long");
			sqlite3_reset(q);
			return -1;
		}
		copy_text(out, cap, q, 0);
	} else if (rc != SQLITE_DONE) {
		set_msg(s, "get review");
	}
	sqlite3_reset(q);
	return rc == SQLITE_ROW ? 0 : rc == SQLITE_DONE ? STORE_NOT_FOUND : -1;
}

static int
sq_setting_get(store_t *s, const char *key, char *out, size_t cap)
{
	sqlite3_stmt *q = stmt(s, S_SETTING_GET);
	int rc;

	if (q == NULL)
		return -1;
	sqlite3_bind_text(q, 1, key, -1, SQLITE_TRANSIENT);
	rc = sqlite3_step(q);
	if (rc == SQLITE_ROW)
		copy_text(out, cap, q, 0);
	else if (rc != SQLITE_DONE)
		set_msg(s, "get setting");
	sqlite3_reset(q);
	return rc == SQLITE_ROW ? 0 : rc == SQLITE_DONE ? STORE_NOT_FOUND : -1;
}

static int
sq_setting_put(store_t *s, const char *key, const char *value)
{
	sqlite3_stmt *q = stmt(s, value ? S_SETTING_PUT : S_SETTING_DROP);

	if (q == NULL)
		return -1;
	sqlite3_bind_text(q, 1, key, -1, SQLITE_TRANSIENT);
	if (value)
		sqlite3_bind_text(q, 2, value, -1, SQLITE_TRANSIENT);
	return done(s, q, "save setting");
}

/* A tourneys row (TOURNEY_COLS). */
static void
read_tourney(sqlite3_stmt *q, store_tourney_t *t)
{
	memset(t, 0, sizeof *t);
	t->id = sqlite3_column_int64(q, 0);
	t->kind = sqlite3_column_int(q, 1);
	t->state = sqlite3_column_int(q, 2);
	t->entrants = sqlite3_column_int(q, 3);
	t->rule = sqlite3_column_int(q, 4);
	t->size = sqlite3_column_int(q, 5);
	t->opening = sqlite3_column_int(q, 6);
	t->rated = sqlite3_column_int(q, 7);
	t->tc_base = sqlite3_column_int(q, 8);
	t->tc_inc = sqlite3_column_int(q, 9);
	t->starts = sqlite3_column_int64(q, 10);
	t->length = sqlite3_column_int(q, 11);
	t->round = sqlite3_column_int(q, 12);
	copy_text(t->creator, sizeof t->creator, q, 13);
	copy_text(t->name, sizeof t->name, q, 14);
	copy_text(t->owner, sizeof t->owner, q, 15);
	t->created = sqlite3_column_int64(q, 16);
	t->ended = sqlite3_column_int64(q, 17);
}

static int
sq_tourney_new(store_t *s, store_tourney_t *t)
{
	sqlite3_stmt *q = stmt(s, S_TOURNEY_NEW);

	if (q == NULL)
		return -1;
	sqlite3_bind_int(q, 1, t->kind);
	sqlite3_bind_int(q, 2, t->state);
	sqlite3_bind_int(q, 3, t->entrants);
	sqlite3_bind_int(q, 4, t->rule);
	sqlite3_bind_int(q, 5, t->size);
	sqlite3_bind_int(q, 6, t->opening);
	sqlite3_bind_int(q, 7, t->rated);
	sqlite3_bind_int(q, 8, t->tc_base);
	sqlite3_bind_int(q, 9, t->tc_inc);
	sqlite3_bind_int64(q, 10, t->starts);
	sqlite3_bind_int(q, 11, t->length);
	sqlite3_bind_int(q, 12, t->round);
	sqlite3_bind_text(q, 13, t->creator, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(q, 14, t->name, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(q, 15, t->owner, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(q, 16, t->created);
	sqlite3_bind_int64(q, 17, t->ended);
	int rc = done(s, q, "tourney new");
	if (rc == 0)
		t->id = sqlite3_last_insert_rowid(sq(s)->db);
	return rc;
}

static int
sq_tourney_set(store_t *s, const store_tourney_t *t)
{
	sqlite3_stmt *q = stmt(s, S_TOURNEY_SET);

	if (q == NULL)
		return -1;
	sqlite3_bind_int64(q, 1, t->id);
	sqlite3_bind_int(q, 2, t->state);
	sqlite3_bind_int(q, 3, t->round);
	sqlite3_bind_int64(q, 4, t->ended);
	sqlite3_bind_text(q, 5, t->owner, -1, SQLITE_TRANSIENT);
	int rc = done(s, q, "tourney set");
	return rc == 0 && sqlite3_changes(sq(s)->db) == 0 ? STORE_NOT_FOUND : rc;
}

static int
sq_tourney_get(store_t *s, int64_t id, store_tourney_t *out)
{
	sqlite3_stmt *q = stmt(s, S_TOURNEY_GET);
	int rc;

	if (q == NULL)
		return -1;
	sqlite3_bind_int64(q, 1, id);
	rc = sqlite3_step(q);
	if (rc == SQLITE_ROW)
		read_tourney(q, out);
	else if (rc != SQLITE_DONE)
		set_msg(s, "get tourney");
	sqlite3_reset(q);
	return rc == SQLITE_ROW ? 0 : rc == SQLITE_DONE ? STORE_NOT_FOUND : -1;
}

static int
sq_tourneys(store_t *s, int64_t since, void (*fn)(void *arg, const store_tourney_t *t), void *arg)
{
	sqlite3_stmt *q = stmt(s, S_TOURNEYS);
	int rc, n = 0;

	if (q == NULL)
		return -1;
	sqlite3_bind_int64(q, 1, since);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		store_tourney_t t;
		read_tourney(q, &t);
		fn(arg, &t);
		n++;
	}
	if (rc != SQLITE_DONE)
		set_msg(s, "list tourneys");
	sqlite3_reset(q);
	return rc == SQLITE_DONE ? n : -1;
}

static int
sq_tplayer_put(store_t *s, int64_t tourney, const store_tplayer_t *p)
{
	char key[AUTH_NAME_MAX + 1];
	sqlite3_stmt *q = stmt(s, S_TPLAYER_PUT);

	if (q == NULL)
		return -1;
	auth_name_key(p->name, key);
	sqlite3_bind_int64(q, 1, tourney);
	sqlite3_bind_text(q, 2, p->name, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(q, 3, key, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(q, 4, p->seq);
	sqlite3_bind_int(q, 5, p->rating);
	sqlite3_bind_int(q, 6, p->bot_level);
	sqlite3_bind_int(q, 7, p->withdrawn);
	/* the name's row is updated in place: a refusal is the event's key */
	int rc = done(s, q, "tplayer put");
	return rc == STORE_EXISTS ? STORE_NOT_FOUND : rc;
}

static int
sq_tplayer_drop(store_t *s, int64_t tourney, const char *name)
{
	char key[AUTH_NAME_MAX + 1];
	sqlite3_stmt *q = stmt(s, S_TPLAYER_DROP);

	if (q == NULL)
		return -1;
	auth_name_key(name, key);
	sqlite3_bind_int64(q, 1, tourney);
	sqlite3_bind_text(q, 2, key, -1, SQLITE_TRANSIENT);
	int rc = done(s, q, "tplayer drop");
	return rc == 0 && sqlite3_changes(sq(s)->db) == 0 ? STORE_NOT_FOUND : rc;
}

static int
sq_tplayers(store_t *s, int64_t tourney, void (*fn)(void *arg, const store_tplayer_t *p), void *arg)
{
	sqlite3_stmt *q = stmt(s, S_TPLAYERS);
	int rc, n = 0;

	if (q == NULL)
		return -1;
	sqlite3_bind_int64(q, 1, tourney);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		store_tplayer_t p;
		memset(&p, 0, sizeof p);
		copy_text(p.name, sizeof p.name, q, 0);
		p.seq = sqlite3_column_int(q, 1);
		p.rating = sqlite3_column_int(q, 2);
		p.bot_level = sqlite3_column_int(q, 3);
		p.withdrawn = sqlite3_column_int(q, 4);
		fn(arg, &p);
		n++;
	}
	if (rc != SQLITE_DONE)
		set_msg(s, "list tplayers");
	sqlite3_reset(q);
	return rc == SQLITE_DONE ? n : -1;
}

/* Whether round may be paired: 0, STORE_EXISTS (paired already) or
 * STORE_NOT_FOUND (no such event), inside tround_put's transaction. */
static int
tround_free(store_t *s, int64_t tourney, int round)
{
	sqlite3_stmt *q = stmt(s, S_TROUND_CHECK);
	int rc;

	if (q == NULL)
		return -1;
	sqlite3_bind_int64(q, 1, tourney);
	sqlite3_bind_int(q, 2, round);
	rc = sqlite3_step(q);
	int paired = rc == SQLITE_ROW &&
	    (sqlite3_column_int(q, 0) >= round || sqlite3_column_int(q, 1) != 0);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		set_msg(s, "tround put");
	sqlite3_reset(q);
	if (rc == SQLITE_DONE || paired)
		snprintf(s->msg, sizeof s->msg, "tourney %lld: %s", (long long)tourney,
		    paired ? "that round is paired already" : "none such");
	return rc == SQLITE_DONE ? STORE_NOT_FOUND
	    : rc != SQLITE_ROW   ? -1
	    : paired             ? STORE_EXISTS
				 : 0;
}

static int
tgame_new(store_t *s, int64_t tourney, int round, store_tgame_t *g)
{
	sqlite3_stmt *q = stmt(s, S_TGAME_NEW);

	if (q == NULL)
		return -1;
	sqlite3_bind_int64(q, 1, tourney);
	sqlite3_bind_int(q, 2, round);
	sqlite3_bind_int(q, 3, g->board);
	sqlite3_bind_text(q, 4, g->first, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(q, 5, g->second, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(q, 6, g->result);
	sqlite3_bind_text(q, 7, g->room, -1, SQLITE_TRANSIENT);
	int rc = done(s, q, "tround put");
	if (rc == 0)
		g->id = sqlite3_last_insert_rowid(sq(s)->db);
	return rc;
}

/* One transaction of its own (BEGIN IMMEDIATE: the write lock first, so a
 * second connection's check waits for this one's commit), or inside the
 * caller's a savepoint of its own that a refusal rolls back alone. */
static int
sq_tround_put(store_t *s, int64_t tourney, int round, store_tgame_t *g, int n)
{
	int nested = !sqlite3_get_autocommit(sq(s)->db), rc;
	sqlite3_stmt *q;

	if ((nested ? exec(s, "SAVEPOINT tround", "savepoint") : sq_begin(s)) != 0)
		return -1;
	rc = tround_free(s, tourney, round);
	for (int i = 0; rc == 0 && i < n; i++) {
		g[i].round = round;
		rc = tgame_new(s, tourney, round, &g[i]);
	}
	if (rc == 0 && (q = stmt(s, S_TROUND_SET)) == NULL)
		rc = -1;
	if (rc == 0) {
		sqlite3_bind_int64(q, 1, tourney);
		sqlite3_bind_int(q, 2, round);
		rc = done(s, q, "tround put");
	}
	if (rc == 0 && (rc = nested ? exec(s, "RELEASE tround", "release") : sq_commit(s)) == 0)
		return 0;
	if (nested)
		sqlite3_exec(sq(s)->db, "ROLLBACK TO tround; RELEASE tround", NULL, NULL, NULL);
	else
		sq_rollback(s);
	for (int i = 0; i < n; i++)
		g[i].id = 0;
	return rc;
}

static int
sq_tgame_result(store_t *s, int64_t tgame, int result)
{
	sqlite3_stmt *q = stmt(s, S_TGAME_RESULT);

	if (q == NULL)
		return -1;
	sqlite3_bind_int64(q, 1, tgame);
	sqlite3_bind_int(q, 2, result);
	int rc = done(s, q, "tgame result");
	if (rc != 0 || sqlite3_changes(sq(s)->db) == 1)
		return rc;
	/* nothing changed: it has its result, or there is no such pairing */
	if ((q = stmt(s, S_TGAME_THERE)) == NULL)
		return -1;
	sqlite3_bind_int64(q, 1, tgame);
	int64_t one;
	rc = one_int(s, q, "tgame result", &one);
	return rc == 0 ? STORE_EXISTS : rc;
}

static int
sq_tgame_room(store_t *s, int64_t tgame, const char *room)
{
	sqlite3_stmt *q = stmt(s, S_TGAME_ROOM);

	if (q == NULL)
		return -1;
	sqlite3_bind_int64(q, 1, tgame);
	sqlite3_bind_text(q, 2, room, -1, SQLITE_TRANSIENT);
	int rc = done(s, q, "tgame room");
	return rc == 0 && sqlite3_changes(sq(s)->db) == 0 ? STORE_NOT_FOUND : rc;
}

static int
sq_tgames(store_t *s, int64_t tourney, void (*fn)(void *arg, const store_tgame_t *g), void *arg)
{
	sqlite3_stmt *q = stmt(s, S_TGAMES);
	int rc, n = 0;

	if (q == NULL)
		return -1;
	sqlite3_bind_int64(q, 1, tourney);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		store_tgame_t g;
		memset(&g, 0, sizeof g);
		g.id = sqlite3_column_int64(q, 0);
		g.round = sqlite3_column_int(q, 1);
		g.board = sqlite3_column_int(q, 2);
		copy_text(g.first, sizeof g.first, q, 3);
		copy_text(g.second, sizeof g.second, q, 4);
		g.result = sqlite3_column_int(q, 5);
		copy_text(g.room, sizeof g.room, q, 6);
		fn(arg, &g);
		n++;
	}
	if (rc != SQLITE_DONE)
		set_msg(s, "list tgames");
	sqlite3_reset(q);
	return rc == SQLITE_DONE ? n : -1;
}

static int
sq_tgame_linked(store_t *s, int64_t tgame, store_game_t *out)
{
	sqlite3_stmt *q = stmt(s, S_TGAME_LINKED);
	int rc;

	if (q == NULL)
		return -1;
	sqlite3_bind_int64(q, 1, tgame);
	rc = sqlite3_step(q);
	if (rc == SQLITE_ROW)
		read_game(q, out);
	else if (rc != SQLITE_DONE)
		set_msg(s, "tgame linked");
	sqlite3_reset(q);
	return rc == SQLITE_ROW ? 0 : rc == SQLITE_DONE ? STORE_NOT_FOUND : -1;
}

enum { BACKUP_PAGES_PER_STEP = 256 };

/* The backup proper: a snapshot of from copied into to in steps. */
static int
backup_copy(sqlite3 *from, sqlite3 *to, const atomic_int *stop, char *err, size_t errlen)
{
	/* one read transaction around every step: a snapshot that writers on
	 * other connections do not restart */
	if (sqlite3_exec(from, "BEGIN; SELECT count(*) FROM sqlite_master;", NULL, NULL, NULL) !=
	    SQLITE_OK) {
		snprintf(err, errlen, "cannot read the database: %s", sqlite3_errmsg(from));
		return -1;
	}
	sqlite3_backup *b = sqlite3_backup_init(to, "main", from, "main");
	if (!b) {
		snprintf(err, errlen, "backup: %s", sqlite3_errmsg(to));
		sqlite3_exec(from, "ROLLBACK", NULL, NULL, NULL);
		return -1;
	}
	int rc;
	do {
		rc = sqlite3_backup_step(b, BACKUP_PAGES_PER_STEP);
		if (stop && *stop) {
			rc = SQLITE_INTERRUPT;
			break;
		}
	} while (rc == SQLITE_OK || rc == SQLITE_BUSY || rc == SQLITE_LOCKED);
	sqlite3_backup_finish(b);
	sqlite3_exec(from, "ROLLBACK", NULL, NULL, NULL);
	if (rc != SQLITE_DONE) {
		snprintf(err, errlen, "backup: %s",
		    rc == SQLITE_INTERRUPT ? "cancelled" : sqlite3_errstr(rc));
		return -1;
	}
	return 0;
}

int64_t
store_backup(const char *src, const char *dst, const atomic_int *stop, char *err, size_t errlen)
{
	char tmp[600];
	sqlite3 *from = NULL, *to = NULL;
	int64_t size = -1;
	struct stat sb;

	if (store_is_remote(src)) {
		snprintf(err, errlen, "a PostgreSQL store is backed up with pg_dump, not here");
		return -1;
	}

	if (snprintf(tmp, sizeof tmp, "%s.partial", dst) >= (int)sizeof tmp) {
		snprintf(err, errlen, "%s: path too long", dst);
		return -1;
	}
	unlink(tmp);
	if (create_private(tmp) != 0) { /* its journal is born 0600 too */
		snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
		return -1;
	}
	if (sqlite3_open_v2(src, &from, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "%s: %s", src, from ? sqlite3_errmsg(from) : "cannot open");
		goto out;
	}
	sqlite3_busy_timeout(from, 2000);
	if (sqlite3_open_v2(tmp, &to, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) !=
	    SQLITE_OK) {
		snprintf(err, errlen, "%s: %s", tmp, to ? sqlite3_errmsg(to) : "cannot create");
		goto out;
	}
	if (backup_copy(from, to, stop, err, errlen) != 0)
		goto out;
	/* one file, whole in itself: no WAL beside it */
	char *e = NULL;
	if (sqlite3_exec(to, "PRAGMA journal_mode = DELETE;", NULL, NULL, &e) != SQLITE_OK) {
		snprintf(err, errlen, "%s: %s", tmp, e ? e : sqlite3_errmsg(to));
		sqlite3_free(e);
		goto out;
	}
	sqlite3_stmt *q = NULL;
	int good = sqlite3_prepare_v2(to, "PRAGMA quick_check", -1, &q, NULL) == SQLITE_OK &&
	    sqlite3_step(q) == SQLITE_ROW && sqlite3_column_text(q, 0) &&
	    strcmp((const char *)sqlite3_column_text(q, 0), "ok") == 0;
	sqlite3_finalize(q);
	if (!good) {
		snprintf(err, errlen, "%s: the copy fails quick_check", tmp);
		goto out;
	}
	sqlite3_close(to);
	to = NULL;
	/* it holds password hashes: the owner's alone, whatever the umask */
	if (chmod(tmp, 0600) != 0 || stat(tmp, &sb) != 0 || rename(tmp, dst) != 0) {
		snprintf(err, errlen, "%s: %s", dst, strerror(errno));
		goto out;
	}
	size = (int64_t)sb.st_size;
out:
	sqlite3_close(to);
	sqlite3_close(from);
	if (size < 0)
		unlink(tmp);
	return size;
}

static int
sq_user_league(store_t *s, const char *name, int *yes)
{
	return user_flag(s, S_USER_LEAGUE, name, yes, "get league");
}

static int
sq_user_league_set(store_t *s, const char *name, int yes)
{
	return user_flag_set(s, S_USER_LEAGUE_SET, name, yes, "set league");
}

static int
league_link(store_t *s, const char *league, int n, int64_t tourney)
{
	sqlite3_stmt *q = stmt(s, S_LEAGUE_LINK);

	if (q == NULL)
		return -1;
	sqlite3_bind_text(q, 1, league, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(q, 2, n);
	sqlite3_bind_int64(q, 3, tourney);
	return done(s, q, "league link");
}

static int
sq_league_event(
    store_t *s, const char *league, int n, store_tourney_t *t, const store_tplayer_t *p, int np)
{
	int nested = !sqlite3_get_autocommit(sq(s)->db);

	if ((nested ? exec(s, "SAVEPOINT league", "savepoint") : sq_begin(s)) != 0)
		return -1;
	int rc = sq_tourney_new(s, t);
	if (rc == 0)
		rc = league_link(s, league, n, t->id);
	for (int i = 0; rc == 0 && i < np; i++)
		rc = sq_tplayer_put(s, t->id, &p[i]);
	if (rc == 0 && (rc = nested ? exec(s, "RELEASE league", "release") : sq_commit(s)) == 0)
		return 0;
	if (nested)
		sqlite3_exec(sq(s)->db, "ROLLBACK TO league; RELEASE league", NULL, NULL, NULL);
	else
		sq_rollback(s);
	t->id = 0;
	return rc;
}

static int
sq_league_events(store_t *s, const char *league,
    void (*fn)(void *arg, int n, const store_tourney_t *t), void *arg)
{
	sqlite3_stmt *q = stmt(s, S_LEAGUE_EVENTS);
	int rc, k = 0;

	if (q == NULL)
		return -1;
	sqlite3_bind_text(q, 1, league, -1, SQLITE_TRANSIENT);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		store_tourney_t t;
		read_tourney(q, &t);
		fn(arg, sqlite3_column_int(q, 18), &t);
		k++;
	}
	if (rc != SQLITE_DONE)
		set_msg(s, "list league events");
	sqlite3_reset(q);
	return rc == SQLITE_DONE ? k : -1;
}

const struct store_ops store_sqlite_ops = {
	.open = sq_open,
	.close = sq_close,
	.error = sq_error,
	.schema_version = sq_schema_version,
	.manual_checkpoints = sq_manual_checkpoints,
	.begin = sq_begin,
	.commit = sq_commit,
	.rollback = sq_rollback,
	.savepoint = sq_savepoint,
	.release = sq_release,
	.rollback_to = sq_rollback_to,
	.user_create = sq_user_create,
	.user_get = sq_user_get,
	.session_put = sq_session_put,
	.session_get = sq_session_get,
	.session_drop = sq_session_drop,
	.session_expire = sq_session_expire,
	.session_names = sq_session_names,
	.login_put = sq_login_put,
	.login_trim = sq_login_trim,
	.login_get = sq_login_get,
	.login_drop = sq_login_drop,
	.login_drop_user = sq_login_drop_user,
	.user_bot = sq_user_bot,
	.user_bot_set = sq_user_bot_set,
	.user_nobots = sq_user_nobots,
	.user_nobots_set = sq_user_nobots_set,
	.bots = sq_bots,
	.bot_token_put = sq_bot_token_put,
	.bot_token_expire = sq_bot_token_expire,
	.bot_token_take = sq_bot_token_take,
	.bot_token_drop_user = sq_bot_token_drop_user,
	.rating_get = sq_rating_get,
	.rating_put = sq_rating_put,
	.top = sq_top,
	.game_begin = sq_game_begin,
	.game_move = sq_game_move,
	.game_colours = sq_game_colours,
	.game_truncate = sq_game_truncate,
	.game_end = sq_game_end,
	.game_load = sq_game_load,
	.games_unfinished = sq_games_unfinished,
	.games_open = sq_games_open,
	.open_stones = sq_open_stones,
	.game_claim = sq_game_claim,
	.game_fence = sq_game_fence,
	.game_move_owned = sq_game_move_owned,
	.history = sq_history,
	.sanction_put = sq_sanction_put,
	.sanction_drop = sq_sanction_drop,
	.sanctions = sq_sanctions,
	.puzzle_put = sq_puzzle_put,
	.puzzle_get = sq_puzzle_get,
	.puzzle_pick = sq_puzzle_pick,
	.puzzle_count = sq_puzzle_count,
	.puzzle_nth = sq_puzzle_nth,
	.puzzle_try = sq_puzzle_try,
	.review_put = sq_review_put,
	.review_get = sq_review_get,
	.tourney_new = sq_tourney_new,
	.tourney_set = sq_tourney_set,
	.tourney_get = sq_tourney_get,
	.tourneys = sq_tourneys,
	.tplayer_put = sq_tplayer_put,
	.tplayer_drop = sq_tplayer_drop,
	.tplayers = sq_tplayers,
	.tround_put = sq_tround_put,
	.tgame_result = sq_tgame_result,
	.tgame_room = sq_tgame_room,
	.tgames = sq_tgames,
	.tgame_linked = sq_tgame_linked,
	.user_league = sq_user_league,
	.user_league_set = sq_user_league_set,
	.league_event = sq_league_event,
	.league_events = sq_league_events,
	.setting_get = sq_setting_get,
	.setting_put = sq_setting_put,
};
