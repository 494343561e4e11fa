/*
 * test_store.c: the SQLite store on real files in a temporary directory:
 * accounts, sessions, ratings and leaderboards, games and history,
 * tournaments (a round paired once, also by two connections at once), a
 * writer killed with SIGKILL, damaged files refused untouched, migration
 * from the first schema and to schemas 11 and 12, bot accounts' marks and
 * tokens, and exports. With GOMOKU_PG_URL (a PostgreSQL
 * server's URL without a database, as tests/pg/test_pg.sh starts one) the
 * tests that mean the same on both run again on PostgreSQL, each on a
 * database of its own, with PostgreSQL's own cases: migrations counted and
 * not run twice, and an unreachable server named as unavailable.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <libpq-fe.h>
#include <sqlite3.h>

#include "daemon/auth.h"
#include "daemon/export.h"
#include "daemon/store.h"
#include "proto/proto.h"

static char dir[64];

static int
setup(void **state)
{
	(void)state;
	strcpy(dir, "/tmp/gomokud-store-XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int
teardown(void **state)
{
	(void)state;
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static const char *pg_url; /* NULL: the SQLite pass */

/* A fresh PostgreSQL database for name ("users.db" -> t_users): its URL. */
static void
pg_fresh(char *out, size_t len, const char *name)
{
	char db[64], sql[200];
	snprintf(db, sizeof db, "t_%.*s", (int)strcspn(name, "."), name);
	snprintf(out, len, "%spostgres", pg_url);
	PGconn *c = PQconnectdb(out);
	if (PQstatus(c) != CONNECTION_OK)
		fail_msg("PostgreSQL at %s: %s", out, PQerrorMessage(c));
	PQclear(PQexec(c, "SET client_min_messages = warning"));
	snprintf(sql, sizeof sql, "DROP DATABASE IF EXISTS %s", db);
	PQclear(PQexec(c, sql));
	snprintf(sql, sizeof sql, "CREATE DATABASE %s", db);
	PGresult *r = PQexec(c, sql);
	if (PQresultStatus(r) != PGRES_COMMAND_OK)
		fail_msg("%s: %s", sql, PQerrorMessage(c));
	PQclear(r);
	PQfinish(c);
	snprintf(out, len, "%s%s", pg_url, db);
}

/* The store named name: a file in the test's directory, or a database. */
static void
path_of(char *out, size_t len, const char *name)
{
	if (pg_url)
		pg_fresh(out, len, name);
	else
		snprintf(out, len, "%s/%s", dir, name);
}

/* The store named name as it is (no fresh database). */
static store_t *
open_ok_again(const char *name)
{
	char path[256], err[512];
	store_t *s = NULL;

	if (pg_url)
		snprintf(path, sizeof path, "%st_%.*s", pg_url, (int)strcspn(name, "."), name);
	else
		snprintf(path, sizeof path, "%s/%s", dir, name);
	if (store_open(path, &s, err, sizeof err) != 0)
		fail_msg("store_open %s: %s", path, err);
	return s;
}

static store_t *
open_ok(const char *name)
{
	char path[256], err[512];
	store_t *s = NULL;

	path_of(path, sizeof path, name);
	if (store_open(path, &s, err, sizeof err) != 0)
		fail_msg("store_open %s: %s", path, err);
	return s;
}

static void
test_users_and_sessions(void **state)
{
	(void)state;
	store_t *s = open_ok("users.db");
	char name[STORE_NAME_MAX + 1], hash[200];

	assert_int_equal(store_schema_version(s), STORE_SCHEMA_VERSION);
	assert_int_equal(store_user_create(s, "Alice", "scrypt$hash-a", 1000), 0);
	assert_int_equal(store_user_create(s, "alice", "scrypt$other", 1001), STORE_EXISTS);
	assert_int_equal(store_user_create(s, "ALICE", "scrypt$other", 1001), STORE_EXISTS);
	assert_int_equal(store_user_create(s, "bob", "scrypt$hash-b", 1002), 0);
	assert_int_equal(store_user_get(s, "aLiCe", name, hash, sizeof hash), 0);
	assert_string_equal(name, "Alice");
	assert_string_equal(hash, "scrypt$hash-a");
	assert_int_equal(store_user_get(s, "carol", name, hash, sizeof hash), STORE_NOT_FOUND);

	assert_int_equal(store_session_put(s, "d1gest", "Alice", 2000), 0);
	assert_int_equal(store_session_get(s, "d1gest", 1999, name), 0);
	assert_string_equal(name, "Alice");
	assert_int_equal(store_session_get(s, "d1gest", 2000, name), STORE_NOT_FOUND);
	assert_int_equal(store_session_get(s, "nope", 0, name), STORE_NOT_FOUND);
	assert_int_equal(store_session_put(s, "d2", "bob", 5000), 0);
	assert_int_equal(store_session_expire(s, 3000), 0);
	assert_int_equal(store_session_get(s, "d1gest", 0, name), STORE_NOT_FOUND);
	assert_int_equal(store_session_drop(s, "d2"), 0);
	assert_int_equal(store_session_get(s, "d2", 0, name), STORE_NOT_FOUND);
	store_close(s);
	print_message("  accounts unique without case, sessions by digest with expiry\n");
}

/* Login tokens (REMEMBER): by digest until they expire, ten an account
 * (the oldest go), all of an account's dropped at once (a ban). */
static void
test_login_tokens(void **state)
{
	(void)state;
	store_t *s = open_ok("logins.db");
	char name[STORE_NAME_MAX + 1], d[16];

	assert_int_equal(store_login_put(s, "la", "Alice", 1000, 5000), 0);
	assert_int_equal(store_login_get(s, "la", 4999, name), 0);
	assert_string_equal(name, "Alice");
	assert_int_equal(store_login_get(s, "la", 5000, name), STORE_NOT_FOUND);
	assert_int_equal(store_login_get(s, "nope", 0, name), STORE_NOT_FOUND);
	/* eleven more for alice (any case): the oldest go, the expired one too */
	for (int i = 0; i < 11; i++) {
		snprintf(d, sizeof d, "a%d", i);
		assert_int_equal(
		    store_login_put(s, d, i % 2 ? "ALICE" : "alice", 6000 + i, 90000), 0);
	}
	assert_int_equal(store_login_get(s, "a0", 7000, name), STORE_NOT_FOUND);
	assert_int_equal(store_login_get(s, "la", 0, name), STORE_NOT_FOUND); /* expired: gone */
	for (int i = 1; i < 11; i++) {
		snprintf(d, sizeof d, "a%d", i);
		assert_int_equal(store_login_get(s, d, 7000, name), 0);
	}
	assert_int_equal(store_login_put(s, "b1", "bob", 7000, 90000), 0);
	assert_int_equal(store_login_drop(s, "a5"), 0);
	assert_int_equal(store_login_get(s, "a5", 7000, name), STORE_NOT_FOUND);
	assert_int_equal(store_login_drop_user(s, "Alice"), 0);
	for (int i = 1; i < 11; i++) {
		snprintf(d, sizeof d, "a%d", i);
		assert_int_equal(store_login_get(s, d, 7000, name), STORE_NOT_FOUND);
	}
	assert_int_equal(store_login_get(s, "b1", 7000, name), 0);
	assert_string_equal(name, "bob");
	store_close(s);
	print_message("  login tokens by digest with expiry, 10 an account, dropped one or all\n");
}

static void
test_ratings_and_top(void **state)
{
	(void)state;
	store_t *s = open_ok("ratings.db");
	store_rating_t r, page[STORE_PAGE];
	int total = -1;

	assert_int_equal(store_rating_get(s, "newbie", RULE_RENJU, &r), STORE_NOT_FOUND);
	assert_true(r.g.rating == 1500 && r.g.deviation == 350 && r.wins == 0);
	for (int i = 0; i < 45; i++) {
		memset(&r, 0, sizeof r);
		snprintf(r.name, sizeof r.name, "Player%02d", i);
		r.g.rating = 1000 + 10 * ((i * 7) % 45); /* a shuffled order */
		r.g.deviation = 60;
		r.g.volatility = 0.06;
		r.wins = i;
		assert_int_equal(store_rating_put(s, RULE_RENJU, &r), 0);
	}
	r.g.rating = 3000;
	snprintf(r.name, sizeof r.name, "other");
	assert_int_equal(store_rating_put(s, RULE_FREESTYLE, &r), 0);

	assert_int_equal(store_top(s, RULE_RENJU, 0, 1, page, &total), STORE_PAGE);
	assert_int_equal(total, 45);
	assert_true(page[0].g.rating == 1440);
	for (int i = 1; i < STORE_PAGE; i++)
		assert_true(page[i - 1].g.rating >= page[i].g.rating);
	assert_int_equal(store_top(s, RULE_RENJU, 0, 3, page, &total), 5);
	assert_true(page[4].g.rating == 1000);
	assert_int_equal(store_top(s, RULE_RENJU, 0, 4, page, &total), 0);
	assert_int_equal(store_top(s, RULE_STANDARD, 0, 1, page, &total), 0);
	assert_int_equal(total, 0);
	assert_int_equal(store_rating_get(s, "PLAYER07", RULE_RENJU, &r), 0);
	assert_string_equal(r.name, "Player07");
	assert_int_equal(r.wins, 7);
	store_close(s);
	print_message("  default rating, 45 players paged 20/20/5 in order, per rule\n");
}

static store_game_t
sample_game(const char *room, const char *black, const char *white)
{
	store_game_t g;

	memset(&g, 0, sizeof g);
	snprintf(g.room, sizeof g.room, "%s", room);
	g.rule = RULE_FREESTYLE;
	g.size = 15;
	g.opening = OPENING_NONE;
	g.rated = 1;
	g.tc_base = 300;
	g.tc_inc = 5;
	snprintf(g.black, sizeof g.black, "%s", black);
	snprintf(g.white, sizeof g.white, "%s", white);
	g.started = 1796000000;
	g.black_before = 1500;
	g.white_before = 1600;
	return g;
}

static store_tourney_t
sample_tourney(int kind, int state, int64_t ended)
{
	store_tourney_t t;
	memset(&t, 0, sizeof t);
	t.kind = kind;
	t.state = state;
	t.entrants = ENTRANTS_BOTH;
	t.rule = RULE_RENJU;
	t.size = 15;
	t.opening = OPENING_NONE;
	t.rated = 1;
	t.tc_base = 300;
	t.tc_inc = 5;
	t.starts = 1796003600;
	t.length = 3;
	snprintf(t.creator, sizeof t.creator, "Alice");
	snprintf(t.name, sizeof t.name, "Sunday Swiss \xe6\x97\xa5\xe6\x9b\x9c");
	snprintf(t.owner, sizeof t.owner, "a");
	t.created = 1796000000;
	t.ended = ended;
	return t;
}

static void
test_games_and_history(void **state)
{
	(void)state;
	store_t *s = open_ok("games.db");
	store_move_t moves[RULES_CELLS];
	store_game_t g = sample_game("r1", "Alice", "bob"), back, list[STORE_PAGE];
	g.private_room = 1;
	snprintf(g.code, sizeof g.code, "Inv1teC0de");
	g.opening_plies = -1;
	int64_t ids[8];
	int total;

	assert_int_equal(store_game_begin(s, &g), 0);
	assert_true(g.id > 0);
	for (int i = 0; i < 9; i++) {
		store_move_t m = { rules_move(i, i % 3), 100 + i, 300000 - i, 299000 - i };
		assert_int_equal(store_game_move(s, g.id, i, &m), 0);
	}
	assert_int_equal(store_game_colours(s, g.id, "bob", "Alice", 3, "3:cb"), 0); /* swap2 */
	assert_int_equal(store_game_truncate(s, g.id, 7), 0); /* an undo of two plies */
	assert_int_equal(store_game_load(s, g.id, &back, moves), 0);
	assert_int_equal(back.nmoves, 7);
	assert_int_equal(back.ended, 0);
	assert_int_equal(back.result, -1);
	assert_string_equal(back.black, "bob");
	assert_string_equal(back.white, "Alice");
	assert_int_equal(back.opening_plies, 3);
	assert_string_equal(back.opening_log, "3:cb");
	assert_int_equal(back.private_room, 1);
	assert_string_equal(back.code, "Inv1teC0de");
	assert_int_equal(moves[6].move, rules_move(6, 0));
	assert_int_equal(moves[6].black_ms, 300000 - 6);
	assert_int_equal(store_games_unfinished(s, ids, 8), 1);
	assert_int_equal(ids[0], g.id);

	g.ended = 1796000500;
	g.result = RES_WHITE;
	g.reason = REASON_RESIGN;
	g.black_after = 1490;
	g.white_after = 1610;
	assert_int_equal(store_game_end(s, &g), 0);
	assert_int_equal(store_games_unfinished(s, ids, 8), 0);
	store_game_t ghost = g;
	ghost.id = 999999;
	assert_int_equal(store_game_end(s, &ghost), STORE_NOT_FOUND);
	assert_int_equal(store_game_load(s, 424242, &back, moves), STORE_NOT_FOUND);

	/* 24 more finished games for Alice, one for someone else */
	for (int i = 0; i < 25; i++) {
		store_game_t h = sample_game(
		    "r2", i % 2 ? "alice" : "carol", i % 2 ? "dave" : "ALICE");
		if (i == 24)
			snprintf(h.white, sizeof h.white, "erin");
		assert_int_equal(store_game_begin(s, &h), 0);
		h.ended = 1796001000 + i;
		h.result = RES_DRAW;
		h.reason = REASON_DRAW_AGREED;
		assert_int_equal(store_game_end(s, &h), 0);
	}
	assert_int_equal(store_history(s, "aLICE", 1, list, &total), STORE_PAGE);
	assert_int_equal(total, 25);
	assert_true(list[0].ended == 1796001023); /* newest first */
	assert_int_equal(store_history(s, "alice", 2, list, &total), 5);
	assert_true(list[4].id == g.id);
	assert_int_equal(list[4].nmoves, 7);
	assert_int_equal(store_history(s, "nobody", 1, list, &total), 0);
	assert_int_equal(total, 0);
	store_close(s);
	print_message("  begin, moves, undo, end, unfinished list, history paged newest first\n");
}

/*
 * A child writes moves and reports each one committed through a pipe, then
 * is killed with SIGKILL mid-stream; every move it reported is on disk.
 */
/* The stones store_open_stones gave. */
struct stones {
	int n, size;
	int64_t game;
	char room[STORE_ROOM_MAX + 1];
	move_t moves[8];
};

static void
stone_seen(void *arg, int64_t game, const char *room, int size, move_t move)
{
	struct stones *st = arg;
	st->game = game;
	st->size = size;
	snprintf(st->room, sizeof st->room, "%s", room);
	if (st->n < 8)
		st->moves[st->n] = move;
	st->n++;
}

/* A cluster's games (lease.h): the owner is kept, the open games list it,
 * a write fenced for another owner changes nothing, a claim moves the
 * game to its new owner, and an ended game cannot be claimed. */
static void
test_owners(void **state)
{
	(void)state;
	store_t *s = open_ok("owners.db");
	store_game_t g = sample_game("a7", "ann", "ben"), back;
	store_move_t moves[RULES_CELLS], m = { rules_move(7, 7), 10, 299990, 300000 };
	store_open_game_t open[4];
	snprintf(g.owner, sizeof g.owner, "a");
	assert_int_equal(store_game_begin(s, &g), 0);
	assert_int_equal(store_games_open(s, open, 4), 1);
	assert_true(open[0].id == g.id);
	assert_string_equal(open[0].room, "a7");
	assert_string_equal(open[0].owner, "a");

	assert_int_equal(store_game_move_owned(s, g.id, 0, &m, "a"), 0);
	m.move = rules_move(0, 0);
	assert_int_equal(store_game_move_owned(s, g.id, 1, &m, "b"), STORE_NOT_FOUND);
	assert_int_equal(store_game_claim(s, g.id, "b"), 0);
	assert_int_equal(store_game_move_owned(s, g.id, 1, &m, "a"), STORE_NOT_FOUND);
	assert_int_equal(store_begin(s), 0);
	assert_int_equal(store_game_fence(s, g.id, "a"), STORE_NOT_FOUND);
	store_rollback(s);
	assert_int_equal(store_begin(s), 0);
	assert_int_equal(store_game_fence(s, g.id, "b"), 0);
	assert_int_equal(store_game_move(s, g.id, 1, &m), 0);
	assert_int_equal(store_commit(s), 0);
	assert_int_equal(store_game_load(s, g.id, &back, moves), 0);
	assert_int_equal(back.nmoves, 2); /* nothing of a's after the claim */
	assert_string_equal(back.owner, "b");
	assert_int_equal(moves[1].move, rules_move(0, 0));
	assert_int_equal(store_games_open(s, open, 4), 1);
	assert_string_equal(open[0].owner, "b");
	/* its stones for the other nodes (ANALYSE's fair play), not for b */
	struct stones st = { 0 };
	assert_int_equal(store_open_stones(s, "c", stone_seen, &st), 2);
	assert_int_equal(st.n, 2);
	assert_true(st.game == g.id && st.size == 15);
	assert_string_equal(st.room, "a7");
	assert_int_equal(st.moves[0], rules_move(7, 7));
	assert_int_equal(st.moves[1], rules_move(0, 0));
	assert_int_equal(store_open_stones(s, "b", stone_seen, &st), 0);

	back.ended = 1796000100;
	back.result = RES_BLACK;
	back.reason = REASON_RESIGN;
	assert_int_equal(store_game_end(s, &back), 0);
	assert_int_equal(store_game_claim(s, g.id, "c"), STORE_NOT_FOUND);
	assert_int_equal(store_game_move_owned(s, g.id, 2, &m, "b"), STORE_NOT_FOUND);
	assert_int_equal(store_games_open(s, open, 4), 0);
	st.n = 0;
	assert_int_equal(store_open_stones(s, "c", stone_seen, &st), 0); /* over */
	store_close(s);
}

/* PostgreSQL: a fenced transaction holds the game's row, so a claim from
 * another connection waits for it (a second at most, then fails) rather
 * than slip in between the fence and the commit. */
static void
test_pg_fence_blocks_claim(void **state)
{
	(void)state;
	char path[256], err[512];
	store_t *s = open_ok("fence.db"), *t = NULL;
	store_game_t g = sample_game("a8", "ann", "ben"), back;
	store_move_t m = { rules_move(7, 7), 10, 299990, 300000 };
	snprintf(g.owner, sizeof g.owner, "a");
	assert_int_equal(store_game_begin(s, &g), 0);
	snprintf(path, sizeof path, "%s", store_path(s));
	assert_int_equal(store_open(path, &t, err, sizeof err), 0);
	assert_int_equal(store_begin(s), 0);
	assert_int_equal(store_game_fence(s, g.id, "a"), 0);
	assert_int_equal(store_begin(t), 0);
	assert_int_equal(store_game_claim(t, g.id, "b"), -1); /* the lock's wait ran out */
	store_rollback(t);
	assert_int_equal(store_game_move(s, g.id, 0, &m), 0);
	assert_int_equal(store_commit(s), 0);
	assert_int_equal(store_begin(t), 0);
	assert_int_equal(store_game_claim(t, g.id, "b"), 0);
	assert_int_equal(store_commit(t), 0);
	assert_int_equal(store_game_load(t, g.id, &back, NULL), 0);
	assert_int_equal(back.nmoves, 1);
	store_close(t);
	store_close(s);
}

static void
test_kill_9(void **state)
{
	(void)state;
	int fds[2];
	char path[256], err[512];

	path_of(path, sizeof path, "kill.db");
	assert_int_equal(pipe(fds), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		store_t *s = NULL;
		close(fds[0]);
		if (store_open(path, &s, err, sizeof err) != 0)
			_exit(2);
		for (;;) { /* game after game until killed; never closes the store */
			store_game_t g = sample_game("k1", "ann", "ben");
			if (store_game_begin(s, &g) != 0)
				_exit(3);
			for (int i = 0; i < RULES_CELLS; i++) {
				store_move_t m = { (move_t)i, i, 1000000 - i, 1000000 - i };
				if (store_game_move(s, g.id, i, &m) != 0)
					_exit(4);
				unsigned char b = 1;
				if (write(fds[1], &b, 1) != 1)
					_exit(5);
			}
		}
	}
	close(fds[1]);
	int acked = 0;
	unsigned char b;
	while (acked < 1000 && read(fds[0], &b, 1) == 1)
		acked++;
	kill(pid, SIGKILL);
	int status;
	waitpid(pid, &status, 0);
	assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	while (read(fds[0], &b, 1) == 1)
		acked++; /* moves committed before the signal landed */
	close(fds[0]);

	store_t *s = NULL;
	assert_int_equal(store_open(path, &s, err, sizeof err), 0);
	static int64_t ids[1000];
	static store_move_t moves[RULES_CELLS];
	int ngames = store_games_unfinished(s, ids, 1000), stored = 0;
	assert_true(ngames >= 1);
	for (int k = 0; k < ngames; k++) {
		store_game_t g;
		assert_int_equal(store_game_load(s, ids[k], &g, moves), 0);
		for (int i = 0; i < g.nmoves; i++)
			assert_int_equal(moves[i].move, i);
		if (k < ngames - 1)
			assert_int_equal(g.nmoves, RULES_CELLS);
		stored += g.nmoves;
	}
	assert_true(stored >= acked);
	store_close(s);
	print_message("  SIGKILL mid-stream after %d acknowledged moves: %d on disk in %d games,"
		      " none lost\n",
	    acked, stored, ngames);
}

static void
read_file(const char *path, char **data, long *len)
{
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	*len = ftell(f);
	rewind(f);
	*data = malloc((size_t)*len + 1);
	assert_int_equal(fread(*data, 1, (size_t)*len, f), (size_t)*len);
	fclose(f);
}

/* Damaged files are refused with a message and left byte for byte as found. */
static void
test_damaged_files(void **state)
{
	(void)state;
	char path[128], err[512];
	store_t *s = NULL;

	/* not a database at all */
	path_of(path, sizeof path, "text.db");
	FILE *f = fopen(path, "w");
	for (int i = 0; i < 500; i++)
		fprintf(f, "this is not a database, line %d\n", i);
	fclose(f);
	char *before, *after;
	long nb, na;
	read_file(path, &before, &nb);
	assert_int_equal(store_open(path, &s, err, sizeof err), -1);
	assert_null(s);
	assert_non_null(strstr(err, "refusing to start"));
	read_file(path, &after, &na);
	assert_int_equal(na, nb);
	assert_memory_equal(before, after, (size_t)nb);
	free(before);
	free(after);
	print_message("  text file: %s\n", err);

	/* a real store with a page overwritten */
	s = open_ok("damaged.db");
	for (int i = 0; i < 300; i++) {
		char name[24];
		snprintf(name, sizeof name, "user%03d", i);
		assert_int_equal(
		    store_user_create(s, name, "scrypt$padding-padding-padding", i), 0);
	}
	store_close(s); /* checkpoints the WAL into the file */
	path_of(path, sizeof path, "damaged.db");
	struct stat sb;
	assert_int_equal(stat(path, &sb), 0);
	assert_true(sb.st_size >= 3 * 4096);
	f = fopen(path, "r+b");
	fseek(f, 4096, SEEK_SET); /* pages 2 and 3: the users table */
	for (int i = 0; i < 2 * 4096; i++)
		fputc((i * 37 + 11) & 0xff, f);
	fclose(f);
	read_file(path, &before, &nb);
	s = NULL;
	assert_int_equal(store_open(path, &s, err, sizeof err), -1);
	assert_null(s);
	assert_non_null(strstr(err, "damaged"));
	read_file(path, &after, &na);
	assert_int_equal(na, nb);
	assert_memory_equal(before, after, (size_t)nb);
	free(before);
	free(after);
	print_message("  overwritten page: %s\n", err);

	/* a schema from a newer gomokud */
	path_of(path, sizeof path, "future.db");
	sqlite3 *db;
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(
	    sqlite3_exec(db, "CREATE TABLE x (y); PRAGMA user_version = 99;", NULL, NULL, NULL),
	    SQLITE_OK);
	sqlite3_close(db);
	assert_int_equal(store_open(path, &s, err, sizeof err), -1);
	assert_non_null(strstr(err, "newer"));
	print_message("  newer schema: %s\n", err);
}

/* The first shipped schema, as a database made by that version holds it. */
static const char *const schema_v1 =
    "CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT NOT NULL,"
    "  name_key TEXT NOT NULL UNIQUE, pwhash TEXT NOT NULL, created INTEGER NOT NULL);"
    "CREATE TABLE sessions (digest TEXT PRIMARY KEY, name TEXT NOT NULL,"
    "  expires INTEGER NOT NULL);"
    "CREATE TABLE games (id INTEGER PRIMARY KEY, room TEXT NOT NULL,"
    "  rule INTEGER NOT NULL, size INTEGER NOT NULL, opening INTEGER NOT NULL,"
    "  rated INTEGER NOT NULL, tc_base INTEGER NOT NULL, tc_inc INTEGER NOT NULL,"
    "  black TEXT NOT NULL, white TEXT NOT NULL, started INTEGER NOT NULL, ended INTEGER,"
    "  result INTEGER NOT NULL DEFAULT -1, reason INTEGER NOT NULL DEFAULT -1);"
    "CREATE TABLE moves (game_id INTEGER NOT NULL REFERENCES games(id),"
    "  ply INTEGER NOT NULL, move INTEGER NOT NULL, used_ms INTEGER NOT NULL,"
    "  black_ms INTEGER NOT NULL, white_ms INTEGER NOT NULL,"
    "  PRIMARY KEY (game_id, ply)) WITHOUT ROWID;"
    "INSERT INTO users VALUES (1, 'Zed', 'zed', 'scrypt$z', 5);"
    "INSERT INTO games VALUES (1, 'r9', 2, 15, 0, 0, 0, 0, 'Zed', 'yan', 10, 20, 1, 0);"
    "INSERT INTO moves VALUES (1, 0, 147, 10, 0, 0);"
    "PRAGMA user_version = 1;";

static void
test_migration_from_v1(void **state)
{
	(void)state;
	char path[128], name[STORE_NAME_MAX + 1], hash[64];
	sqlite3 *db;
	store_game_t list[STORE_PAGE];
	int total;

	path_of(path, sizeof path, "v1.db");
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, schema_v1, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);

	store_t *s = open_ok("v1.db");
	assert_int_equal(store_schema_version(s), STORE_SCHEMA_VERSION);
	assert_int_equal(store_user_get(s, "ZED", name, hash, sizeof hash), 0);
	assert_string_equal(name, "Zed");
	assert_int_equal(store_history(s, "zed", 1, list, &total), 1);
	assert_int_equal(total, 1);
	assert_int_equal(list[0].rule, RULE_RENJU);
	assert_int_equal(list[0].nmoves, 1);
	assert_true(list[0].tpair == 0); /* step 11: played for no pairing */
	store_tourney_t t = sample_tourney(TKIND_SWISS, TSTATE_SOON, 0);
	assert_int_equal(store_tourney_new(s, &t), 0);
	assert_int_equal(store_tgame_linked(s, 1, &list[1]), STORE_NOT_FOUND);
	store_rating_t r;
	assert_int_equal(store_rating_get(s, "Zed", RULE_RENJU, &r), STORE_NOT_FOUND);
	assert_true(r.g.rating == 1500);
	store_close(s);
	s = open_ok("v1.db"); /* opening again applies nothing twice */
	assert_int_equal(store_schema_version(s), STORE_SCHEMA_VERSION);
	store_close(s);
	print_message("  a v1 database upgrades to v%d keeping users, games and moves\n",
	    STORE_SCHEMA_VERSION);
}

static void
test_exports(void **state)
{
	(void)state;
	store_game_t g = sample_game("r1", "Alice", "bob");
	store_move_t moves[3] = {
		{ rules_move(7, 7), 1200, 299000, 300000 },
		{ rules_move(8, 6), 3400, 299000, 296600 },
		{ rules_move(0, 14), 500, 298500, 296600 },
	};
	char buf[1024];

	g.nmoves = 3;
	g.ended = 1796000500;
	g.result = RES_WHITE;
	g.reason = REASON_TIME;
	g.black_after = 1490;
	g.white_after = 1610;
	int n = export_text(&g, moves, buf, sizeof buf);
	assert_int_equal(n, (int)strlen(buf));
	assert_string_equal(buf,
	    "rule freestyle\nsize 15\nmoves h8 i9 a1\nopening none\ntime 300+5\nrated yes\n"
	    "black Alice 1500 1490\nwhite bob 1600 1610\nresult white time\n"
	    "started 1796000000\nended 1796000500\nused-ms 1200 3400 500\n");
	position_t p;
	char err[64];
	assert_int_equal(record_parse(buf, &p, err, sizeof err), 0);
	assert_int_equal(p.nmoves, 3);
	assert_int_equal(p.moves[1], rules_move(8, 6));

	/* the last line is Piskvork's end code: 15 a flag, 0 a five, -1 unknown */
	n = export_psq(&g, moves, buf, sizeof buf);
	assert_string_equal(buf, "Piskvorky 15x15, 0:0, 0\n8,8,1200\n9,7,3400\n1,15,500\n15\n");
	char small[10];
	assert_int_equal(export_psq(&g, moves, small, sizeof small), n);
	g.reason = REASON_FIVE;
	export_psq(&g, moves, buf, sizeof buf);
	assert_string_equal(buf + strlen(buf) - 11, "1,15,500\n0\n");
	g.reason = REASON_RESIGN;
	export_psq(&g, moves, buf, sizeof buf);
	assert_string_equal(buf + strlen(buf) - 12, "1,15,500\n-1\n");
	g.reason = REASON_TIME;

	/* 225 moves (a pattern, not a game): every line fits a protocol line and
	 * the moves continue on 5 lines (reading them back: test_rules) */
	static store_move_t all[225];
	static char big[EXPORT_MAX];
	for (int i = 0; i < 225; i++) {
		all[i].move = rules_move(i % 15, i / 15);
		all[i].used_ms = 1234567;
	}
	g.nmoves = 225;
	n = export_text(&g, all, big, sizeof big);
	assert_true(n > 0 && n < (int)sizeof big);
	for (char *line = big, *end; *line; line = end + 1) {
		end = strchr(line, '\n');
		assert_non_null(end);
		assert_true(end - line <= PROTO_TEXT_MAX);
	}
	int moves_lines = 0;
	for (char *q = big; (q = strstr(q, "moves")) != NULL; q++)
		moves_lines++;
	assert_int_equal(moves_lines, 5);
	print_message("  text export reads back through the rules core; long games wrap to fit"
		      " protocol lines; .psq lines\n");
}

static void
sanction(store_sanction_t *x, int kind, const char *target, int64_t expires)
{
	memset(x, 0, sizeof *x);
	x->kind = kind;
	snprintf(x->target, sizeof x->target, "%s", target);
	snprintf(x->by, sizeof x->by, "root");
	snprintf(x->reason, sizeof x->reason, "why %s", target);
	x->created = 1000;
	x->expires = expires;
}

static int seen_sanctions;
static void
count_sanction(void *arg, const store_sanction_t *x)
{
	(void)arg;
	assert_string_equal(x->by, "root");
	seen_sanctions++;
}

/* Bans, mutes and settings (schema 4): put replaces, expired ones are not
 * listed, drop says when there was nothing. */
static void
test_sanctions_and_settings(void **state)
{
	(void)state;
	store_t *s = open_ok("mod.db");
	store_sanction_t x;
	char v[64];
	sanction(&x, STORE_BAN, "mallory", 0);
	assert_int_equal(store_sanction_put(s, &x), 0);
	snprintf(x.reason, sizeof x.reason, "replaced");
	assert_int_equal(store_sanction_put(s, &x), 0);
	sanction(&x, STORE_MUTE, "mallory", 2000000000);
	assert_int_equal(store_sanction_put(s, &x), 0);
	sanction(&x, STORE_BAN, "203.0.113.0/24", 1500);
	assert_int_equal(store_sanction_put(s, &x), 0);
	seen_sanctions = 0;
	assert_int_equal(store_sanctions(s, 1400, count_sanction, NULL), 3);
	seen_sanctions = 0;
	assert_int_equal(store_sanctions(s, 1600, count_sanction, NULL), 2); /* one expired */
	assert_int_equal(seen_sanctions, 2);
	assert_int_equal(store_sanction_drop(s, STORE_BAN, "mallory"), 0);
	assert_int_equal(store_sanction_drop(s, STORE_BAN, "mallory"), STORE_NOT_FOUND);
	assert_int_equal(store_sanctions(s, 1600, count_sanction, NULL), 1);
	assert_int_equal(store_setting_get(s, "motd", v, sizeof v), STORE_NOT_FOUND);
	assert_int_equal(store_setting_put(s, "motd", "hello"), 0);
	assert_int_equal(store_setting_get(s, "motd", v, sizeof v), 0);
	assert_string_equal(v, "hello");
	assert_int_equal(store_setting_put(s, "motd", NULL), 0);
	assert_int_equal(store_setting_get(s, "motd", v, sizeof v), STORE_NOT_FOUND);
	store_close(s);
	print_message("  sanctions replace, expire and drop; settings set and clear\n");
}

/* A game's review: the first one made is kept, a second is no error;
 * none for another game; one that does not fit the reader's buffer is
 * an error, not a cut text. */
static void
test_reviews(void **state)
{
	(void)state;
	store_t *s = open_ok("reviews.db");
	store_game_t g = sample_game("r1", "Alice", "bob");
	char body[64];
	assert_int_equal(store_game_begin(s, &g), 0);
	assert_int_equal(store_review_get(s, g.id, body, sizeof body), STORE_NOT_FOUND);
	assert_int_equal(store_review_put(s, g.id, 1796000000, "v1 0\ns 0\n"), 0);
	assert_int_equal(store_review_put(s, g.id, 1796000001, "v1 0\ns 5\n"), 0);
	assert_int_equal(store_review_get(s, g.id, body, sizeof body), 0);
	assert_string_equal(body, "v1 0\ns 0\n");
	assert_int_equal(store_review_get(s, g.id, body, 5), -1);
	assert_int_equal(store_review_get(s, g.id + 1, body, sizeof body), STORE_NOT_FOUND);
	store_close(s);
	s = open_ok_again("reviews.db");
	assert_int_equal(store_review_get(s, g.id, body, sizeof body), 0);
	assert_string_equal(body, "v1 0\ns 0\n");
	store_close(s);
	print_message("  reviews: the first kept, read back after a reopen\n");
}

/* Puzzles: kept once per game and ply, read back whole, picked nearest a
 * rating among those a name has not tried, counted and numbered; a try is
 * kept once with the puzzle's new rating. */
static void
test_puzzles(void **state)
{
	(void)state;
	store_t *s = open_ok("puzzles.db");
	store_game_t g = sample_game("r1", "Alice", "bob");
	assert_int_equal(store_game_begin(s, &g), 0);
	store_puzzle_t p, back;
	int64_t id, n;
	memset(&p, 0, sizeof p);
	p.game_id = g.id;
	p.rule = RULE_RENJU;
	p.size = 15;
	p.cls = 2;
	p.plies = 5;
	p.made = 1796000000;
	for (int i = 0; i < 20; i++)
		p.moves[p.nmoves++] = rules_move(i % 15, i / 15 + 3);
	p.line[p.nline++] = rules_move(14, 14);
	p.line[p.nline++] = rules_move(0, 0);
	int64_t ids[3];
	for (int i = 0; i < 3; i++) {
		p.ply = 10 + i;
		glicko_init(&p.g);
		p.g.rating = 1400 + 100 * i;
		assert_int_equal(store_puzzle_put(s, &p), 0);
		ids[i] = p.id;
	}
	assert_int_equal(store_puzzle_put(s, &p), STORE_EXISTS); /* the same game and ply */
	assert_int_equal(store_puzzle_get(s, ids[1], &back), 0);
	assert_int_equal(back.game_id, g.id);
	assert_int_equal(back.ply, 11);
	assert_int_equal(back.rule, RULE_RENJU);
	assert_int_equal(back.cls, 2);
	assert_int_equal(back.nmoves, 20);
	assert_memory_equal(back.moves, p.moves, 20 * sizeof p.moves[0]);
	assert_int_equal(back.nline, 2);
	assert_int_equal(back.line[1], rules_move(0, 0));
	assert_true(back.g.rating == 1500 && back.tries == 0 && back.made == 1796000000);
	assert_int_equal(store_puzzle_get(s, ids[2] + 1, &back), STORE_NOT_FOUND);
	assert_int_equal(store_puzzle_count(s, &n), 0);
	assert_int_equal(n, 3);
	assert_int_equal(store_puzzle_nth(s, 2, &id), 0);
	assert_int_equal(id, ids[2]);
	assert_int_equal(store_puzzle_nth(s, 3, &id), STORE_NOT_FOUND);
	assert_int_equal(store_puzzle_pick(s, "Carol", 1590, &id), 0);
	assert_int_equal(id, ids[2]);
	glicko_t after = back.g;
	after.rating = 1480;
	assert_int_equal(store_puzzle_try(s, "carol", ids[2], 1, 1796000100, &after), 0);
	assert_int_equal(store_puzzle_try(s, "CAROL", ids[2], 0, 1796000200, &after), STORE_EXISTS);
	assert_int_equal(store_puzzle_get(s, ids[2], &back), 0);
	assert_true(back.g.rating == 1480 && back.tries == 1 && back.solved == 1);
	assert_int_equal(store_puzzle_pick(s, "Carol", 1590, &id), 0); /* tried: the next */
	assert_int_equal(id, ids[1]);
	assert_int_equal(store_puzzle_pick(s, "dave", 1470, &id), 0); /* 1480 now */
	assert_int_equal(id, ids[2]);
	store_close(s);
	print_message("  puzzles: kept once, read back, picked by rating, tried once\n");
}

/* What the tournament listings give, in the order given. */
struct tlist {
	int n;
	store_tourney_t t[8];
	store_tplayer_t p[8];
	store_tgame_t g[16];
};

static void
on_tourney(void *arg, const store_tourney_t *t)
{
	struct tlist *l = arg;
	if (l->n < 8)
		l->t[l->n] = *t;
	l->n++;
}

static void
on_tplayer(void *arg, const store_tplayer_t *p)
{
	struct tlist *l = arg;
	if (l->n < 8)
		l->p[l->n] = *p;
	l->n++;
}

static void
on_tgame(void *arg, const store_tgame_t *g)
{
	struct tlist *l = arg;
	if (l->n < 16)
		l->g[l->n] = *g;
	l->n++;
}

static int
tgames_of(store_t *s, int64_t tourney, struct tlist *l)
{
	memset(l, 0, sizeof *l);
	int n = store_tgames(s, tourney, on_tgame, l);
	assert_int_equal(n, l->n);
	return n;
}

static store_tplayer_t
tplayer(const char *name, int seq, int rating, int bot_level, int withdrawn)
{
	store_tplayer_t p;
	memset(&p, 0, sizeof p);
	snprintf(p.name, sizeof p.name, "%s", name);
	p.seq = seq;
	p.rating = rating;
	p.bot_level = bot_level;
	p.withdrawn = withdrawn;
	return p;
}

static store_tgame_t
pairing(int board, const char *first, const char *second, int result)
{
	store_tgame_t g;
	memset(&g, 0, sizeof g);
	g.board = board;
	snprintf(g.first, sizeof g.first, "%s", first);
	snprintf(g.second, sizeof g.second, "%s", second);
	g.result = result;
	return g;
}

/* Tournaments (schema 11): an event read back whole, its players by name
 * in any case (seq given or the next, kept when one is dropped), rounds
 * paired once each (a second pairing of a round, or a round with a board
 * twice, writes nothing), inside a caller's transaction a savepoint of
 * its own, results set once, rooms, the listing by state and end, and the
 * games played for a pairing. */
static void
test_tourneys(void **state)
{
	(void)state;
	store_t *s = open_ok("tourneys.db");
	struct tlist l;
	store_tourney_t t = sample_tourney(TKIND_SWISS, TSTATE_SOON, 0), back;
	store_tourney_t old = sample_tourney(TKIND_ARENA, TSTATE_OVER, 1796000100);
	store_tourney_t off = sample_tourney(TKIND_ROBIN, TSTATE_CANCELLED, 1796005000);
	memset(off.creator, 0, sizeof off.creator); /* the server's */
	assert_int_equal(store_tourney_new(s, &old), 0);
	assert_int_equal(store_tourney_new(s, &t), 0);
	assert_int_equal(store_tourney_new(s, &off), 0);
	assert_true(old.id > 0 && t.id > old.id && off.id > t.id);
	assert_int_equal(store_tourney_get(s, t.id, &back), 0);
	assert_memory_equal(&back, &t, sizeof t);
	assert_int_equal(store_tourney_get(s, off.id + 1, &back), STORE_NOT_FOUND);

	/* players: seq the next when 0, a second put by any case changes
	 * rating and withdrawn only, a drop leaves the others' seq */
	store_tplayer_t p = tplayer("Alice", 0, 1700, 0, 0);
	assert_int_equal(store_tplayer_put(s, t.id, &p), 0);
	p = tplayer("bob", 0, 1600, 0, 0);
	assert_int_equal(store_tplayer_put(s, t.id, &p), 0);
	p = tplayer("Bot3", 0, 1800, 5, 0);
	assert_int_equal(store_tplayer_put(s, t.id, &p), 0);
	p = tplayer("carol", 0, 1500, 0, 0);
	assert_int_equal(store_tplayer_put(s, t.id, &p), 0);
	p = tplayer("ALICE", 7, 1750, 3, 0);
	assert_int_equal(store_tplayer_put(s, t.id, &p), 0);
	assert_int_equal(store_tplayer_drop(s, t.id, "CAROL"), 0);
	assert_int_equal(store_tplayer_drop(s, t.id, "carol"), STORE_NOT_FOUND);
	assert_int_equal(store_tplayer_drop(s, old.id, "Alice"), STORE_NOT_FOUND);
	p = tplayer("dave", 0, 1400, 0, 0);
	assert_int_equal(store_tplayer_put(s, t.id, &p), 0);
	p = tplayer("erin", 9, 1450, 0, 0);
	assert_int_equal(store_tplayer_put(s, t.id, &p), 0);
	p = tplayer("alice", 0, 1200, 0, 0); /* another event: its own seq */
	assert_int_equal(store_tplayer_put(s, old.id, &p), 0);
	assert_int_equal(store_tplayer_put(s, off.id + 1, &p), STORE_NOT_FOUND);
	p = tplayer("BOB", 0, 1610, 0, 1); /* withdrawn */
	assert_int_equal(store_tplayer_put(s, t.id, &p), 0);
	memset(&l, 0, sizeof l);
	assert_int_equal(store_tplayers(s, t.id, on_tplayer, &l), 5);
	static const char *const names[] = { "Alice", "bob", "Bot3", "dave", "erin" };
	static const int seqs[] = { 1, 2, 3, 4, 9 }, ratings[] = { 1750, 1610, 1800, 1400, 1450 };
	for (int i = 0; i < 5; i++) {
		assert_string_equal(l.p[i].name, names[i]);
		assert_int_equal(l.p[i].seq, seqs[i]);
		assert_int_equal(l.p[i].rating, ratings[i]);
		assert_int_equal(l.p[i].bot_level, i == 2 ? 5 : 0);
		assert_int_equal(l.p[i].withdrawn, i == 1);
	}
	memset(&l, 0, sizeof l);
	assert_int_equal(store_tplayers(s, old.id, on_tplayer, &l), 1);
	assert_int_equal(l.p[0].seq, 1);
	assert_int_equal(store_tplayers(s, off.id, on_tplayer, &l), 0);

	/* round 1, then round 1 again: refused, nothing written */
	store_tgame_t r1[2] = { pairing(1, "Alice", "dave", TRES_PENDING),
		pairing(2, "Bot3", "", TRES_BYE) };
	assert_int_equal(store_tround_put(s, t.id, 1, r1, 2), 0);
	assert_true(r1[0].id > 0 && r1[1].id > 0 && r1[0].id != r1[1].id);
	assert_int_equal(r1[1].round, 1);
	assert_int_equal(store_tourney_get(s, t.id, &back), 0);
	assert_int_equal(back.round, 1);
	store_tgame_t again[2] = { pairing(1, "erin", "Alice", 0), pairing(3, "dave", "Bot3", 0) };
	assert_int_equal(store_tround_put(s, t.id, 1, again, 2), STORE_EXISTS);
	assert_true(again[0].id == 0 && again[1].id == 0);
	assert_int_equal(tgames_of(s, t.id, &l), 2);
	/* the event's round set back (as a caller may): the round's rows
	 * still say it is paired */
	back.round = 0;
	assert_int_equal(store_tourney_set(s, &back), 0);
	assert_int_equal(store_tround_put(s, t.id, 1, again, 2), STORE_EXISTS);
	back.round = 1;
	assert_int_equal(store_tourney_set(s, &back), 0);
	/* a round with a board twice: the first pairing is not kept either */
	store_tgame_t twice[2] = { pairing(1, "erin", "Alice", 0), pairing(1, "dave", "Bot3", 0) };
	assert_int_equal(store_tround_put(s, t.id, 2, twice, 2), STORE_EXISTS);
	assert_true(twice[0].id == 0 && twice[1].id == 0);
	assert_int_equal(tgames_of(s, t.id, &l), 2);
	assert_int_equal(store_tourney_get(s, t.id, &back), 0);
	assert_int_equal(back.round, 1);
	assert_int_equal(store_tround_put(s, off.id + 1, 1, again, 2), STORE_NOT_FOUND);
	assert_int_equal(store_tround_put(s, t.id, 0, again, 2), -1);

	store_tgame_t r2[2] = { pairing(1, "erin", "Alice", 0), pairing(2, "dave", "Bot3", 0) };
	assert_int_equal(store_tround_put(s, t.id, 2, r2, 2), 0);
	/* inside the caller's transaction: a refused round leaves it going,
	 * a paired one goes with its rollback or its commit */
	store_tgame_t r3[1] = { pairing(1, "Alice", "Bot3", 0) };
	assert_int_equal(store_begin(s), 0);
	assert_int_equal(store_tround_put(s, t.id, 2, again, 2), STORE_EXISTS);
	assert_int_equal(store_tround_put(s, t.id, 3, r3, 1), 0);
	assert_true(r3[0].id > 0);
	store_rollback(s);
	assert_int_equal(tgames_of(s, t.id, &l), 4);
	assert_int_equal(store_tourney_get(s, t.id, &back), 0);
	assert_int_equal(back.round, 2);
	assert_int_equal(store_begin(s), 0);
	assert_int_equal(store_tround_put(s, t.id, 2, again, 2), STORE_EXISTS);
	p = tplayer("frank", 0, 1300, 0, 0);
	assert_int_equal(store_tplayer_put(s, t.id, &p), 0);
	assert_int_equal(store_tround_put(s, t.id, 3, r3, 1), 0);
	assert_int_equal(store_commit(s), 0);
	assert_int_equal(tgames_of(s, t.id, &l), 5);
	assert_int_equal(store_tplayers(s, t.id, on_tplayer, &l), 6);

	/* results from pending only; rooms */
	assert_int_equal(store_tgame_result(s, r1[0].id, TRES_FIRST), 0);
	assert_int_equal(store_tgame_result(s, r1[0].id, TRES_SECOND), STORE_EXISTS);
	assert_int_equal(store_tgame_result(s, r1[1].id, TRES_DRAW), STORE_EXISTS); /* a bye */
	assert_int_equal(store_tgame_result(s, r3[0].id + 100, TRES_DRAW), STORE_NOT_FOUND);
	assert_int_equal(store_tgame_room(s, r2[1].id, "t7b2"), 0);
	assert_int_equal(store_tgame_room(s, r3[0].id + 100, "t7b2"), STORE_NOT_FOUND);
	assert_int_equal(tgames_of(s, t.id, &l), 5);
	const store_tgame_t *want[] = { &r1[0], &r1[1], &r2[0], &r2[1], &r3[0] };
	static const int rounds[] = { 1, 1, 2, 2, 3 },
			 results[] = { TRES_FIRST, TRES_BYE, 0, 0, 0 };
	for (int i = 0; i < 5; i++) {
		assert_true(l.g[i].id == want[i]->id);
		assert_int_equal(l.g[i].round, rounds[i]);
		assert_int_equal(l.g[i].board, want[i]->board);
		assert_string_equal(l.g[i].first, want[i]->first);
		assert_string_equal(l.g[i].second, want[i]->second);
		assert_int_equal(l.g[i].result, results[i]);
		assert_string_equal(l.g[i].room, i == 3 ? "t7b2" : "");
	}
	assert_int_equal(tgames_of(s, old.id, &l), 0);

	/* the listing: those not over, and those ended since */
	memset(&l, 0, sizeof l);
	assert_int_equal(store_tourneys(s, 1796001000, on_tourney, &l), 2);
	assert_true(l.t[0].id == t.id && l.t[1].id == off.id);
	assert_string_equal(l.t[1].creator, "");
	memset(&l, 0, sizeof l);
	assert_int_equal(store_tourneys(s, 0, on_tourney, &l), 3);
	assert_true(l.t[0].id == old.id);
	t.state = TSTATE_OVER;
	t.round = 3;
	t.ended = 1796002000;
	snprintf(t.owner, sizeof t.owner, "b");
	t.kind = TKIND_ARENA; /* fixed: not written */
	assert_int_equal(store_tourney_set(s, &t), 0);
	assert_int_equal(store_tourney_get(s, t.id, &back), 0);
	assert_int_equal(back.state, TSTATE_OVER);
	assert_int_equal(back.ended, 1796002000);
	assert_string_equal(back.owner, "b");
	assert_int_equal(back.kind, TKIND_SWISS);
	memset(&l, 0, sizeof l);
	assert_int_equal(store_tourneys(s, 1796003000, on_tourney, &l), 1);
	assert_true(l.t[0].id == off.id);
	memset(&l, 0, sizeof l);
	assert_int_equal(store_tourneys(s, 1796002000, on_tourney, &l), 2);
	store_tourney_t ghost = t;
	ghost.id = off.id + 1;
	assert_int_equal(store_tourney_set(s, &ghost), STORE_NOT_FOUND);

	/* the games played for a pairing: the newest, its moves counted */
	store_game_t g = sample_game("t7b1", "Alice", "dave"), h, found;
	store_move_t m = { rules_move(7, 7), 10, 299990, 300000 }, moves[RULES_CELLS];
	assert_int_equal(store_tgame_linked(s, r1[0].id, &found), STORE_NOT_FOUND);
	g.tpair = r1[0].id;
	assert_int_equal(store_game_begin(s, &g), 0);
	h = g; /* played again (an abort, say) */
	assert_int_equal(store_game_begin(s, &h), 0);
	assert_int_equal(store_game_move(s, h.id, 0, &m), 0);
	store_game_t plain = sample_game("r1", "Alice", "dave");
	assert_int_equal(store_game_begin(s, &plain), 0);
	assert_int_equal(store_tgame_linked(s, r1[0].id, &found), 0);
	assert_true(found.id == h.id && found.tpair == r1[0].id);
	assert_int_equal(found.nmoves, 1);
	assert_string_equal(found.room, "t7b1");
	assert_int_equal(store_tgame_linked(s, r2[0].id, &found), STORE_NOT_FOUND);
	assert_int_equal(store_tgame_linked(s, 0, &found), STORE_NOT_FOUND); /* not plain games */
	assert_int_equal(store_game_load(s, g.id, &found, moves), 0);
	assert_true(found.tpair == r1[0].id);
	assert_int_equal(store_game_load(s, plain.id, &found, moves), 0);
	assert_true(found.tpair == 0);
	store_close(s);

	s = open_ok_again("tourneys.db");
	assert_int_equal(store_tourney_get(s, off.id, &back), 0);
	assert_memory_equal(&back, &off, sizeof off);
	assert_int_equal(tgames_of(s, t.id, &l), 5);
	store_close(s);
	print_message("  tournaments: events, players, rounds paired once, results once, rooms,"
		      " listing, linked games\n");
}

struct racer {
	store_t *s;
	int64_t tourney;
	atomic_int rc, finished;
};

static void *
pair_round_one(void *arg)
{
	struct racer *r = arg;
	store_tgame_t g[1] = { pairing(3, "zed", "yan", 0) }; /* a board of its own */
	atomic_store(&r->rc, store_tround_put(r->s, r->tourney, 1, g, 1));
	atomic_store(&r->finished, 1);
	return NULL;
}

/* Two connections pair the same round at once: the second waits for the
 * first's transaction (PostgreSQL: the event's row; SQLite: the write
 * lock), then finds the round paired and writes nothing. */
static void
test_tround_race(void **state)
{
	(void)state;
	char err[512];
	store_t *s = open_ok("race.db"), *t = NULL;
	store_tourney_t ev = sample_tourney(TKIND_SWISS, TSTATE_RUNNING, 0);
	assert_int_equal(store_tourney_new(s, &ev), 0);
	assert_int_equal(store_open(store_path(s), &t, err, sizeof err), 0);
	store_tgame_t g[2] = { pairing(1, "ann", "ben", 0), pairing(2, "cid", "dee", 0) };
	assert_int_equal(store_begin(s), 0);
	assert_int_equal(store_tround_put(s, ev.id, 1, g, 2), 0);
	struct racer r = { t, ev.id, 0, 0 };
	pthread_t th;
	assert_int_equal(pthread_create(&th, NULL, pair_round_one, &r), 0);
	usleep(300000);
	assert_int_equal(atomic_load(&r.finished), 0); /* waiting on the first */
	assert_int_equal(store_commit(s), 0);
	pthread_join(th, NULL);
	assert_int_equal(atomic_load(&r.rc), STORE_EXISTS);
	struct tlist l;
	assert_int_equal(tgames_of(s, ev.id, &l), 2);
	assert_string_equal(l.g[0].first, "ann");
	store_close(t);
	store_close(s);
}

/* A database at schema 10 (step 11 undone on a fresh one, its rows kept)
 * takes step 11 at open: its games are there with no pairing, and the
 * tournament tables work. */
static void
test_migration_to_11(void **state)
{
	(void)state;
	store_t *s = open_ok("mig11.db");
	store_game_t g = sample_game("r5", "Zed", "yan"), back;
	store_move_t m = { rules_move(7, 7), 10, 299990, 300000 }, moves[RULES_CELLS];
	assert_int_equal(store_game_begin(s, &g), 0);
	assert_int_equal(store_game_move(s, g.id, 0, &m), 0);
	assert_int_equal(store_user_create(s, "Zed", "scrypt$z", 5), 0);
	char path[256];
	snprintf(path, sizeof path, "%s", store_path(s));
	store_close(s);
	/* steps 12 to 14 undone too: the steps after 10 run again */
	static const char *const undo =
	    "DROP TABLE league_events; ALTER TABLE users DROP COLUMN league;"
	    "ALTER TABLE users DROP COLUMN no_bots; DROP TABLE bot_tokens; ALTER TABLE users DROP "
	    "COLUMN"
	    " bot_since; DROP INDEX games_tpair; ALTER TABLE games DROP COLUMN"
	    " tpair; DROP TABLE tourney_games; DROP TABLE"
	    " tourney_players; DROP TABLE tourneys;";
	if (pg_url) {
		PGconn *c = PQconnectdb(path);
		char sql[600];
		snprintf(sql, sizeof sql, "%s UPDATE schema_version SET version = 10", undo);
		PGresult *r = PQexec(c, sql);
		assert_int_equal(PQresultStatus(r), PGRES_COMMAND_OK);
		PQclear(r);
		PQfinish(c);
	} else {
		sqlite3 *db;
		char sql[600];
		snprintf(sql, sizeof sql, "%s PRAGMA user_version = 10;", undo);
		assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
		assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
		sqlite3_close(db);
	}
	s = open_ok_again("mig11.db");
	assert_int_equal(store_schema_version(s), STORE_SCHEMA_VERSION);
	assert_int_equal(store_game_load(s, g.id, &back, moves), 0);
	assert_int_equal(back.nmoves, 1);
	assert_string_equal(back.black, "Zed");
	assert_true(back.tpair == 0);
	assert_int_equal(store_tgame_linked(s, 1, &back), STORE_NOT_FOUND);
	store_tourney_t t = sample_tourney(TKIND_ARENA, TSTATE_SOON, 0);
	assert_int_equal(store_tourney_new(s, &t), 0);
	store_tgame_t pr[1] = { pairing(1, "Zed", "yan", 0) };
	assert_int_equal(store_tround_put(s, t.id, 1, pr, 1), 0);
	g = sample_game("r6", "Zed", "yan");
	g.tpair = pr[0].id;
	assert_int_equal(store_game_begin(s, &g), 0);
	assert_int_equal(store_tgame_linked(s, pr[0].id, &back), 0);
	assert_true(back.id == g.id);
	store_close(s);
	print_message("  a schema 10 database takes step 11 keeping its games\n");
}

static void
tplayer_none(void *arg, const store_tplayer_t *p)
{
	(void)arg;
	(void)p;
}

static void
count_event(void *arg, int n, const store_tourney_t *t)
{
	int64_t *ids = arg;
	assert_true(n >= 1 && n <= 2);
	ids[n - 1] = t->id;
}

/* The league's verbs (issue 49): a bot account's opt-in (a person has
 * none), an event made with its players and number once (the second of
 * that number refused, nothing written), the events listed by number. */
static void
test_leagues(void **state)
{
	(void)state;
	store_t *s = open_ok("league.db");
	assert_int_equal(store_user_create(s, "Rapfi", "scrypt$r", 5), 0);
	assert_int_equal(store_user_create(s, "Alice", "scrypt$a", 5), 0);
	int yes = -1;
	assert_int_equal(store_user_league(s, "rapfi", &yes), STORE_NOT_FOUND); /* a person */
	assert_int_equal(store_bot_token_put(s, "t1", "rapfi", 100, 200), 0);
	assert_int_equal(store_bot_upgrade(s, "t1", "rapfi", 150), 0);
	assert_int_equal(store_user_league(s, "RAPFI", &yes), 0);
	assert_int_equal(yes, 0);
	assert_int_equal(store_user_league_set(s, "rapfi", 1), 0);
	assert_int_equal(store_user_league(s, "rapfi", &yes), 0);
	assert_int_equal(yes, 1);
	assert_int_equal(store_user_league_set(s, "nobody", 1), STORE_NOT_FOUND);

	store_tplayer_t pl[3];
	memset(pl, 0, sizeof pl);
	snprintf(pl[0].name, sizeof pl[0].name, "bot3");
	pl[0].bot_level = 3;
	snprintf(pl[1].name, sizeof pl[1].name, "bot-ours");
	pl[1].bot_level = 100;
	snprintf(pl[2].name, sizeof pl[2].name, "Rapfi");
	for (int i = 0; i < 3; i++)
		pl[i].seq = i + 1;
	store_tourney_t t = sample_tourney(TKIND_ROBIN, TSTATE_SOON, 0), u = t;
	assert_int_equal(store_league_event(s, "main", 1, &t, pl, 3), 0);
	assert_true(t.id > 0);
	assert_int_equal(store_league_event(s, "main", 1, &u, pl, 2), STORE_EXISTS);
	assert_true(u.id == 0);
	int64_t ids[2] = { 0, 0 };
	assert_int_equal(store_league_events(s, "main", count_event, ids), 1);
	assert_true(ids[0] == t.id);
	assert_int_equal(store_tplayers(s, t.id, tplayer_none, NULL), 3);
	u = sample_tourney(TKIND_ROBIN, TSTATE_SOON, 0);
	assert_int_equal(store_league_event(s, "main", 2, &u, pl, 1), 0);
	assert_int_equal(store_league_event(s, "other", 1, &u, pl, 1), 0);
	assert_int_equal(store_league_events(s, "main", count_event, ids), 2);
	assert_true(ids[0] == t.id && ids[1] > t.id);
	assert_int_equal(store_league_events(s, "nosuch", count_event, ids), 0);
	store_close(s);
	print_message("  leagues: a bot's opt-in, an event made once a number, listed by number\n");
}

/* Step 12 (issue 49) on a schema 11 database: its accounts stay, each a
 * person, and bot tokens work from then on. */
static void
test_migration_to_12(void **state)
{
	(void)state;
	store_t *s = open_ok("mig12.db");
	assert_int_equal(store_user_create(s, "Zed", "scrypt$z", 5), 0);
	char path[256];
	snprintf(path, sizeof path, "%s", store_path(s));
	store_close(s);
	static const char *const undo =
	    "DROP TABLE league_events; ALTER TABLE users DROP COLUMN league;"
	    "ALTER TABLE users DROP COLUMN no_bots;"
	    "DROP TABLE bot_tokens; ALTER TABLE users DROP COLUMN bot_since;";
	if (pg_url) {
		PGconn *c = PQconnectdb(path);
		char sql[600];
		snprintf(sql, sizeof sql, "%s UPDATE schema_version SET version = 11", undo);
		PGresult *r = PQexec(c, sql);
		assert_int_equal(PQresultStatus(r), PGRES_COMMAND_OK);
		PQclear(r);
		PQfinish(c);
	} else {
		sqlite3 *db;
		char sql[600];
		snprintf(sql, sizeof sql, "%s PRAGMA user_version = 11;", undo);
		assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
		assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
		sqlite3_close(db);
	}
	s = open_ok_again("mig12.db");
	assert_int_equal(store_schema_version(s), STORE_SCHEMA_VERSION);
	int64_t since = -1;
	assert_int_equal(store_user_bot(s, "zed", &since), 0);
	assert_true(since == 0);
	assert_int_equal(store_bot_token_put(s, "t1", "zed", 100, 200), 0);
	assert_int_equal(store_bot_upgrade(s, "t1", "Zed", 150), 0);
	assert_int_equal(store_user_bot(s, "Zed", &since), 0);
	assert_true(since == 150);
	/* step 13: each account takes challenges from bots until it says no */
	int no = -1;
	assert_int_equal(store_user_nobots(s, "zed", &no), 0);
	assert_int_equal(no, 0);
	assert_int_equal(store_user_nobots_set(s, "ZED", 1), 0);
	assert_int_equal(store_user_nobots(s, "zed", &no), 0);
	assert_int_equal(no, 1);
	assert_int_equal(store_user_nobots_set(s, "nobody", 1), STORE_NOT_FOUND);
	assert_int_equal(store_user_nobots(s, "nobody", &no), STORE_NOT_FOUND);
	/* step 14: a bot account is out of the league until it says yes */
	int yes = -1;
	assert_int_equal(store_user_league(s, "zed", &yes), 0);
	assert_int_equal(yes, 0);
	store_close(s);
	print_message("  a schema 11 database takes steps 12 to 14: its accounts persons who take "
		      "bots' challenges, bot tokens work, bots out of the league\n");
}

struct botlist {
	int n;
	char names[4][STORE_NAME_MAX + 1];
	int64_t since[4];
};

static void
bot_seen(void *arg, const char *name, int64_t since)
{
	struct botlist *l = arg;
	if (l->n < 4) {
		snprintf(l->names[l->n], sizeof l->names[0], "%s", name);
		l->since[l->n] = since;
	}
	l->n++;
}

/* Bot accounts (issue 49): a token for an account only, kept as given
 * (the digest), one use whoever presents it, 24 h (here: its expires);
 * the mark until revoked, which voids the unused tokens. */
/* The leaderboards apart: a bot account's rating is on the bots' alone;
 * the people's keeps everyone else (the server's botN under rate-bots). */
static void
test_top_bots(void **state)
{
	(void)state;
	store_t *s = open_ok("topbots.db");
	store_rating_t r, page[STORE_PAGE];
	int total = -1;
	static const char *const names[] = { "alice", "Rapfi", "bot3", "wine" };

	assert_int_equal(store_user_create(s, "alice", "scrypt$a", 1), 0);
	assert_int_equal(store_user_create(s, "Rapfi", "scrypt$r", 1), 0);
	assert_int_equal(store_user_create(s, "wine", "scrypt$w", 1), 0);
	assert_int_equal(store_bot_token_put(s, "t1", "rapfi", 1000, 9000), 0);
	assert_int_equal(store_bot_upgrade(s, "t1", "rapfi", 1001), 0);
	assert_int_equal(store_bot_token_put(s, "t2", "wine", 1000, 9000), 0);
	assert_int_equal(store_bot_upgrade(s, "t2", "wine", 1001), 0);
	for (int i = 0; i < 4; i++) {
		memset(&r, 0, sizeof r);
		snprintf(r.name, sizeof r.name, "%s", names[i]);
		r.g.rating = 1500 + 100 * i;
		r.g.deviation = 60;
		r.g.volatility = 0.06;
		assert_int_equal(store_rating_put(s, RULE_FREESTYLE, &r), 0);
	}
	assert_int_equal(store_top(s, RULE_FREESTYLE, 0, 1, page, &total), 2);
	assert_int_equal(total, 2);
	assert_string_equal(page[0].name, "bot3");
	assert_string_equal(page[1].name, "alice");
	assert_int_equal(store_top(s, RULE_FREESTYLE, 1, 1, page, &total), 2);
	assert_int_equal(total, 2);
	assert_string_equal(page[0].name, "wine");
	assert_string_equal(page[1].name, "Rapfi");
	/* revoked: rapfi is a person's rating again */
	assert_int_equal(store_bot_revoke(s, "rapfi"), 0);
	assert_int_equal(store_top(s, RULE_FREESTYLE, 1, 1, page, &total), 1);
	assert_int_equal(store_top(s, RULE_FREESTYLE, 0, 1, page, &total), 3);
	store_close(s);
	print_message("  leaderboards: bot accounts on their own, everyone else on the people's\n");
}

static void
test_bot_accounts(void **state)
{
	(void)state;
	store_t *s = open_ok("bots.db");
	int64_t since = -1;
	struct botlist l = { 0 };

	assert_int_equal(store_user_create(s, "Rapfi", "scrypt$r", 1), 0);
	assert_int_equal(store_user_create(s, "alice", "scrypt$a", 1), 0);
	assert_int_equal(store_user_bot(s, "rapfi", &since), 0);
	assert_true(since == 0);
	assert_int_equal(store_user_bot(s, "nobody", &since), STORE_NOT_FOUND);
	/* no token for an account that does not exist */
	assert_int_equal(store_bot_token_put(s, "x0", "nobody", 1000, 2000), STORE_NOT_FOUND);
	assert_int_equal(store_bot_upgrade(s, "x0", "nobody", 1500), STORE_NOT_FOUND);
	/* an unknown token marks nobody */
	assert_int_equal(store_bot_upgrade(s, "zz", "rapfi", 1500), STORE_NOT_FOUND);
	/* rapfi's token shown by alice: used up, nobody marked */
	assert_int_equal(store_bot_token_put(s, "t1", "RAPFI", 1000, 2000), 0);
	assert_int_equal(store_bot_upgrade(s, "t1", "alice", 1500), STORE_NOT_FOUND);
	assert_int_equal(store_bot_upgrade(s, "t1", "rapfi", 1500), STORE_NOT_FOUND);
	assert_int_equal(store_user_bot(s, "alice", &since), 0);
	assert_true(since == 0);
	assert_int_equal(store_user_bot(s, "rapfi", &since), 0);
	assert_true(since == 0);
	/* expired at its end, and gone with it */
	assert_int_equal(store_bot_token_put(s, "t2", "rapfi", 1000, 2000), 0);
	assert_int_equal(store_bot_upgrade(s, "t2", "rapfi", 2000), STORE_NOT_FOUND);
	assert_int_equal(store_bot_token_put(s, "t3", "rapfi", 1000, 2000), 0);
	assert_int_equal(store_bot_token_put(s, "t4", "alice", 2500, 9000), 0); /* t3 expires */
	assert_int_equal(store_bot_upgrade(s, "t3", "rapfi", 1999), STORE_NOT_FOUND);
	/* a good one: once (any case of the name) */
	assert_int_equal(store_bot_token_put(s, "t5", "rapfi", 3000, 9000), 0);
	assert_int_equal(store_bot_upgrade(s, "t5", "RaPfI", 3001), 0);
	assert_int_equal(store_user_bot(s, "rapfi", &since), 0);
	assert_true(since == 3001);
	assert_int_equal(store_bot_upgrade(s, "t5", "rapfi", 3002), STORE_NOT_FOUND);
	/* a bot's own good token: spent, the mark's time kept */
	assert_int_equal(store_bot_token_put(s, "t7", "rapfi", 3000, 9000), 0);
	assert_int_equal(store_bot_upgrade(s, "t7", "rapfi", 3500), 0);
	assert_int_equal(store_user_bot(s, "rapfi", &since), 0);
	assert_true(since == 3001);
	assert_int_equal(store_bot_upgrade(s, "t7", "rapfi", 3501), STORE_NOT_FOUND);
	assert_int_equal(store_bots(s, bot_seen, &l), 1);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.names[0], "Rapfi");
	assert_true(l.since[0] == 3001);
	/* revoked: the mark goes, and alice's unused token too when hers is */
	assert_int_equal(store_bot_token_put(s, "t6", "rapfi", 3000, 9000), 0);
	assert_int_equal(store_bot_revoke(s, "rapfi"), 0);
	assert_int_equal(store_user_bot(s, "rapfi", &since), 0);
	assert_true(since == 0);
	assert_int_equal(store_bot_upgrade(s, "t6", "rapfi", 3100), STORE_NOT_FOUND);
	l.n = 0;
	assert_int_equal(store_bots(s, bot_seen, &l), 0);
	assert_int_equal(store_bot_revoke(s, "alice"), 0);
	assert_int_equal(store_bot_upgrade(s, "t4", "alice", 3100), STORE_NOT_FOUND);
	assert_int_equal(store_bot_revoke(s, "nobody"), STORE_NOT_FOUND);
	store_close(s);
	print_message(
	    "  bot tokens: an account's, once, until they expire; the mark until revoked\n");
}

struct writer {
	const char *path;
	atomic_int stop;
	atomic_int wrote; /* read by the test while the writer runs */
};

/* Another connection writing all along, as the daemon's loop does. */
static void *
write_on(void *arg)
{
	struct writer *w = arg;
	store_t *s;
	char err[256], name[32];
	if (store_open(w->path, &s, err, sizeof err) != 0)
		return NULL;
	while (!atomic_load(&w->stop)) {
		snprintf(name, sizeof name, "late%d", atomic_load(&w->wrote));
		if (store_user_create(s, name, "scrypt$x", 1) == 0)
			atomic_fetch_add(&w->wrote, 1);
	}
	store_close(s);
	return NULL;
}

static int
users_in(const char *path)
{
	sqlite3 *db;
	sqlite3_stmt *q;
	int n = -1;
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
	    sqlite3_prepare_v2(db, "SELECT count(*) FROM users", -1, &q, NULL) == SQLITE_OK) {
		if (sqlite3_step(q) == SQLITE_ROW)
			n = sqlite3_column_int(q, 0);
		sqlite3_finalize(q);
	}
	sqlite3_close(db);
	return n;
}

/* store_backup while another connection writes: it finishes (one snapshot,
 * never restarted), the copy opens as a store with every row of its moment,
 * is one file, 0600; a stop flag or a bad path leaves nothing behind. */
static void
test_backup(void **state)
{
	(void)state;
	char src[128], dst[128], part[160], err[512], big[120];
	path_of(src, sizeof src, "live.db");
	path_of(dst, sizeof dst, "copy.db");
	store_t *s = open_ok("live.db");
	memset(big, 'h', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	assert_int_equal(store_begin(s), 0);
	for (int i = 0; i < 3000; i++) { /* a few hundred pages: many steps */
		char name[32];
		snprintf(name, sizeof name, "user%d", i);
		assert_int_equal(store_user_create(s, name, big, 1), 0);
	}
	assert_int_equal(store_commit(s), 0);

	atomic_int stop = 1;
	assert_int_equal(store_backup(src, dst, &stop, err, sizeof err), -1);
	assert_non_null(strstr(err, "cancelled"));
	snprintf(part, sizeof part, "%s.partial", dst);
	assert_int_equal(access(dst, F_OK), -1);
	assert_int_equal(access(part, F_OK), -1);
	assert_int_equal(store_backup(src, "/nonexistent/dir/x.db", NULL, err, sizeof err), -1);

	struct writer w = { src, 0, 0 };
	pthread_t t;
	assert_int_equal(pthread_create(&t, NULL, write_on, &w), 0);
	while (atomic_load(&w.wrote) < 5)
		usleep(1000);
	int64_t size = store_backup(src, dst, NULL, err, sizeof err);
	atomic_store(&w.stop, 1);
	pthread_join(t, NULL);
	if (size < 0)
		fail_msg("backup: %s", err);
	struct stat sb;
	assert_int_equal(stat(dst, &sb), 0);
	assert_int_equal((int64_t)sb.st_size, size);
	assert_int_equal(sb.st_mode & 0777, 0600);
	int copied = users_in(dst), live = users_in(src);
	assert_true(copied >= 3005 && copied <= live);
	store_t *b;
	assert_int_equal(store_open(dst, &b, err, sizeof err), 0);
	char spelled[STORE_NAME_MAX + 1], hash[AUTH_HASH_MAX];
	assert_int_equal(store_user_get(b, "user2999", spelled, hash, sizeof hash), 0);
	assert_string_equal(hash, big);
	store_close(b);
	store_close(s);
	print_message("  backup of %d users while %d more were written: %lld bytes, whole\n",
	    copied, atomic_load(&w.wrote), (long long)size);
}

/* PostgreSQL: a second open finds the schema whole and counted; a server
 * that does not answer is refused at open and named unavailable. */
static void
test_pg_migrations_and_outage(void **state)
{
	(void)state;
	char path[256], err[512], bad[128];
	store_t *s = NULL, *t = NULL;
	path_of(path, sizeof path, "mig.db");
	assert_int_equal(store_open(path, &s, err, sizeof err), 0);
	assert_int_equal(store_schema_version(s), STORE_SCHEMA_VERSION);
	assert_int_equal(store_user_create(s, "Alice", "h", 1), 0);
	assert_int_equal(store_open(path, &t, err, sizeof err), 0); /* no step run twice */
	assert_int_equal(store_schema_version(t), STORE_SCHEMA_VERSION);
	char name[STORE_NAME_MAX + 1], hash[64];
	assert_int_equal(store_user_get(t, "alice", name, hash, sizeof hash), 0);
	store_close(t);
	store_close(s);
	/* port 1 on loopback: nothing listens there */
	snprintf(bad, sizeof bad, "postgresql://postgres@127.0.0.1:1/nothing?connect_timeout=2");
	assert_int_equal(store_open(bad, &s, err, sizeof err), -1);
	assert_non_null(strstr(err, "unavailable"));
	/* a server that takes the connection and never answers: given up (the
	 * store's own connect timeout; the URL names none) */
	int hang = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t alen = sizeof a;
	assert_true(hang >= 0 && bind(hang, (struct sockaddr *)&a, sizeof a) == 0 &&
	    listen(hang, 4) == 0 && getsockname(hang, (struct sockaddr *)&a, &alen) == 0);
	snprintf(bad, sizeof bad, "postgresql://postgres@127.0.0.1:%d/nothing", ntohs(a.sin_port));
	assert_int_equal(store_open(bad, &s, err, sizeof err), -1);
	assert_non_null(strstr(err, "unavailable"));
	close(hang);
	print_message(
	    "  migrations counted in schema_version, not run twice; no server: %s\n", err);
}

/* The database as logged: a password never, the rest as written. */
static void
test_redacted(void **state)
{
	(void)state;
	static const char *const cases[][2] = {
		{ "/var/lib/gomokud/gomokud.db", "/var/lib/gomokud/gomokud.db" },
		{ "postgresql://gomokud@127.0.0.1:5432/g",
		    "postgresql://gomokud@127.0.0.1:5432/g" },
		{ "postgresql://gomokud:s3cr:et@db:5432/g", "postgresql://gomokud:***@db:5432/g" },
		{ "postgres://u:p@[::1]:5432/g", "postgres://u:***@[::1]:5432/g" },
		{ "postgresql://db/g?user=u&password=hunter2&sslmode=require",
		    "postgresql://db/g?user=u&password=***&sslmode=require" },
		{ "postgresql://db/g?password=x", "postgresql://db/g?password=***" },
		{ "postgresql://host:5432/g", "postgresql://host:5432/g" },
	};
	char out[128];
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		store_redacted(cases[i][0], out, sizeof out);
		assert_string_equal(out, cases[i][1]);
	}
	store_redacted("postgresql://u:secretsecret@h/g", out, 18); /* cut short: still hidden */
	assert_null(strstr(out, "secret"));
}

int
main(void)
{
	pg_url = getenv("GOMOKU_PG_URL");
	if (pg_url && *pg_url) {
		const struct CMUnitTest pg[] = {
			cmocka_unit_test(test_users_and_sessions),
			cmocka_unit_test(test_login_tokens),
			cmocka_unit_test(test_ratings_and_top),
			cmocka_unit_test(test_games_and_history),
			cmocka_unit_test(test_owners),
			cmocka_unit_test(test_pg_fence_blocks_claim),
			cmocka_unit_test(test_kill_9),
			cmocka_unit_test(test_sanctions_and_settings),
			cmocka_unit_test(test_reviews),
			cmocka_unit_test(test_puzzles),
			cmocka_unit_test(test_tourneys),
			cmocka_unit_test(test_tround_race),
			cmocka_unit_test(test_migration_to_11),
			cmocka_unit_test(test_migration_to_12),
			cmocka_unit_test(test_leagues),
			cmocka_unit_test(test_bot_accounts),
			cmocka_unit_test(test_top_bots),
			cmocka_unit_test(test_pg_migrations_and_outage),
		};
		return cmocka_run_group_tests_name("store on PostgreSQL", pg, setup, teardown);
	}
	pg_url = NULL;
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_users_and_sessions),
		cmocka_unit_test(test_login_tokens),
		cmocka_unit_test(test_ratings_and_top),
		cmocka_unit_test(test_games_and_history),
		cmocka_unit_test(test_owners),
		cmocka_unit_test(test_kill_9),
		cmocka_unit_test(test_damaged_files),
		cmocka_unit_test(test_migration_from_v1),
		cmocka_unit_test(test_exports),
		cmocka_unit_test(test_sanctions_and_settings),
		cmocka_unit_test(test_reviews),
		cmocka_unit_test(test_puzzles),
		cmocka_unit_test(test_tourneys),
		cmocka_unit_test(test_tround_race),
		cmocka_unit_test(test_migration_to_11),
		cmocka_unit_test(test_migration_to_12),
		cmocka_unit_test(test_leagues),
		cmocka_unit_test(test_bot_accounts),
		cmocka_unit_test(test_top_bots),
		cmocka_unit_test(test_backup),
		cmocka_unit_test(test_redacted),
	};
	return cmocka_run_group_tests_name("store", tests, setup, teardown);
}
