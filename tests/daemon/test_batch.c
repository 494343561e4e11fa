/*
 * test_batch.c: group commit on the store thread (issue 45, item 4). On
 * PostgreSQL the store thread takes the game writes queued behind the one
 * it runs and commits them in one transaction, a savepoint each. Real
 * daemons, real TLS clients, tests/pg/test_pg.sh's PostgreSQL and a Redis
 * of redisrun.c's own:
 * - a cluster node (its writes fenced) with PostgreSQL's backends paused
 *   while one room's move is stored: the moves of seven more rooms queue,
 *   one of them a game another node owns now (its owner changed in the
 *   database). Resumed, the seven are one transaction (the metrics say a
 *   group of seven); the fenced room's mover is refused (500, see
 *   * MOVED) and its opponent hears nothing, the six others are answered
 *   and published, and the database has their moves and not the fenced
 *   one's;
 * - a lone node, the moves of four rooms in one transaction (the metrics
 *   say a group of four) that waits mid-way on a row the test locks (a
 *   prepared transaction: a fast shutdown ends sessions newest first, and
 *   a psql session holding the row would be ended before the group's,
 *   which could then commit), the first room's move already written in
 *   it: PostgreSQL stopped then (fast shutdown), every move of the group
 *   is refused with 508 and none is said (the first one's either);
 *   nothing of the group is in the database; started again, the same
 *   moves are taken;
 * - a lone node killed (SIGKILL, the fault build's before:commit:1:die)
 *   just before its first group's COMMIT, the group held on a locked row
 *   until the move before it is answered: none of the group's moves was
 *   said, none is in the database; the move committed before it alone
 *   is, and a restart on the database resumes the games.
 * Only under tests/pg/test_pg.sh, in the cluster's pass: without
 * PostgreSQL or redis-server it fails (never a skip). Every process it
 * started is stopped by its pid, also on failure.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "tests/daemon/check.h"
#include "tests/daemon/redisrun.h"
#include "tests/daemon/tclient.h"

#ifndef GOMOKUD_BIN
#define GOMOKUD_BIN "bin/gomokud"
#endif
#ifndef GOMOKUD_FAULTS_BIN
#define GOMOKUD_FAULTS_BIN "build/default-cc/tests/daemon/gomokud-faults"
#endif

enum { ROOMS = 8, GROUP = 4, FENCED = 5 };

static struct daemon node, lone, doomed, again;
static struct redisrun redis;
static char db[300], db2[300], db3[300];
static int mport;

/* The first value psql prints for sql on url, as a number; -1 when none. */
static long
sql_value(const char *url, const char *sql)
{
	char cmd[1200], out[64] = "";
	snprintf(cmd, sizeof cmd, "psql -X -tAq -d '%s' -c \"%s\" 2>&1", url, sql);
	FILE *p = popen(cmd, "r");
	if (!p)
		return -1;
	char *got = fgets(out, sizeof out, p);
	pclose(p);
	char *end;
	long v = got ? strtol(out, &end, 10) : -1;
	return got && end != out ? v : -1;
}

/* The moves the database holds of the unfinished game in room. */
static long
moves_of(const char *url, const char *room)
{
	char sql[300];
	snprintf(sql, sizeof sql,
	    "SELECT count(*) FROM moves m JOIN games g ON g.id = m.game_id"
	    " WHERE g.room = '%s' AND g.ended IS NULL",
	    room);
	return sql_value(url, sql);
}

/* Runs sql on url in one psql session, each statement in turn, stopping
 * at the first error: 0 when every one ran. */
static int
sql_ok(const char *url, const char *sql)
{
	char cmd[1200];
	snprintf(
	    cmd, sizeof cmd, "psql -X -q -v ON_ERROR_STOP=1 -d '%s' %s >/dev/null 2>&1", url, sql);
	return system(cmd) == 0 ? 0 : -1;
}

/* A transaction of the test's own holding the row of room's game (FOR
 * UPDATE), prepared (two-phase commit) as gid until lock_free: a write to
 * that game waits for it. Prepared, it belongs to no session, so a fast
 * shutdown does not end it: PostgreSQL ends its sessions one by one,
 * newest first, and a psql session holding the row would be ended (and
 * the row given to the waiting write, whose session may then commit)
 * before the write's own session is. 0 once the row is held. */
static int
lock_game(const char *url, const char *room, const char *gid)
{
	char sql[400];
	snprintf(sql, sizeof sql,
	    "-c 'BEGIN' -c \"SELECT 1 / count(*) FROM (SELECT 1 FROM games WHERE room = '%s'"
	    " AND ended IS NULL FOR UPDATE) g\" -c \"PREPARE TRANSACTION '%s'\"",
	    room, gid);
	return sql_ok(url, sql);
}

static int
lock_free(const char *url, const char *gid)
{
	char sql[200];
	snprintf(sql, sizeof sql, "-c \"ROLLBACK PREPARED '%s'\"", gid);
	return sql_ok(url, sql);
}

/* Waits until the store thread's group transaction is held mid-way: its
 * session waits on a lock (a row lock_game holds) in a transaction that
 * has written (it has a transaction id). 0, or -1 after 20 s. */
static int
group_waits(const char *url)
{
	for (int t = 0; t < 200; t++) {
		if (sql_value(url,
			"SELECT count(*) FROM pg_stat_activity WHERE datname = "
			"current_database() AND wait_event_type = 'Lock' AND backend_xid IS "
			"NOT NULL") == 1)
			return 0;
		usleep(100 * 1000);
	}
	return -1;
}

/* Waits until the store thread runs one job with queued others behind it
 * (its gauges on the metrics port): 0, or -1 after 20 s. A sleep instead
 * would guess how soon a loaded machine runs the thread. */
static int
store_holds(int port, long queued)
{
	for (int t = 0; t < 400; t++) {
		if (tc_metric(port, "gomokud_store_jobs_running") == 1 &&
		    tc_metric(port, "gomokud_store_jobs_queued") == queued)
			return 0;
		usleep(50 * 1000);
	}
	return -1;
}

static void
test_fenced(void)
{
	struct tc *black[ROOMS], *white[ROOMS];
	char room[ROOMS][24], sql[300];
	REQUIRE(tc_pair_rooms(node.port, ROOMS, black, white, room, "f") == 0, "no games");
	/* another node adopted this game meanwhile, as far as the database goes */
	snprintf(sql, sizeof sql,
	    "UPDATE games SET owner = 'elsewhere' WHERE room = '%s' AND ended IS NULL"
	    " RETURNING 1",
	    room[FENCED]);
	REQUIRE(sql_value(db, sql) == 1, "cannot give room %s's game away", room[FENCED]);
	long batches = tc_metric(mport, "gomokud_store_batches_total"),
	     jobs = tc_metric(mport, "gomokud_store_batch_jobs_total");
	REQUIRE(batches >= 0 && jobs >= 0, "no store batch metrics on :%d", mport);

	REQUIRE(tc_pg_ctl("pause") == 0, "cannot pause PostgreSQL");
	tc_send(black[0], "MOVE %s h8", room[0]);
	/* the store thread waits on it: the others queue */
	REQUIRE(store_holds(mport, 0) == 0, "the store thread did not take room 0's move");
	for (int i = 1; i < ROOMS; i++)
		tc_send(black[i], "MOVE %s h8", room[i]);
	REQUIRE(store_holds(mport, ROOMS - 1) == 0, "the other rooms' moves did not queue");
	CHECK(!tc_read(black[ROOMS - 1], 500), "answered while the store is paused: %s",
	    black[ROOMS - 1]->line);
	REQUIRE(tc_pg_ctl("resume") == 0, "cannot resume PostgreSQL");

	for (int i = 0; i < ROOMS; i++) {
		const char *l = tc_move_answer(black[i], 5000);
		if (i == FENCED) {
			CHECK(l && strncmp(l, "ERR 500", 7) == 0 && strstr(l, "another node"),
			    "the fenced room's move: %s", black[i]->line);
			CHECK(!tc_expect(white[i], "* MOVE", 500),
			    "the fenced room's opponent heard the refused move");
			continue;
		}
		CHECK(l && strncmp(l, "OK MOVE", 7) == 0, "room %d's move: %s", i, black[i]->line);
		CHECK(tc_expect(white[i], "* MOVE", 3000), "room %d's opponent: %s", i,
		    white[i]->line);
	}
	long nb = tc_metric(mport, "gomokud_store_batches_total"),
	     nj = tc_metric(mport, "gomokud_store_batch_jobs_total"),
	     most = tc_metric(mport, "gomokud_store_batch_jobs_max");
	CHECK(nb - batches == 2 && nj - jobs == ROOMS && most == ROOMS - 1,
	    "not one write alone then one group of %d: %ld transactions, %ld writes, the "
	    "largest %ld",
	    ROOMS - 1, nb - batches, nj - jobs, most);
	for (int i = 0; i < ROOMS; i++)
		CHECK(moves_of(db, room[i]) == (i == FENCED ? 0 : 1),
		    "room %d's game has %ld moves in the database", i, moves_of(db, room[i]));
	CHECK(daemon_log_count(&node, "not this node's") >= 1, "the fence is not logged (log %s)",
	    node.log);
	ok("seven rooms' moves in one transaction: the fenced room's refused (500) and not "
	   "said, the six others committed and published");
	for (int i = 0; i < ROOMS; i++) {
		tc_close(black[i]);
		tc_close(white[i]);
	}
}

static void
test_outage(void)
{
	struct tc *black[GROUP + 1], *white[GROUP + 1];
	char room[GROUP + 1][24];
	char conf[400], first[40], mid[40];
	int lport = tc_free_port();
	snprintf(conf, sizeof conf, "database %s\nmetrics-listen 127.0.0.1:%d\n", db2, lport);
	REQUIRE(daemon_start(&lone, GOMOKUD_BIN, conf) == 0, "no daemon (log %s)", lone.log);
	REQUIRE(tc_pair_rooms(lone.port, GROUP + 1, black, white, room, "o") == 0, "no games");
	long batches = tc_metric(lport, "gomokud_store_batches_total"),
	     jobs = tc_metric(lport, "gomokud_store_batch_jobs_total");
	REQUIRE(batches >= 0 && jobs >= 0, "no store batch metrics on :%d", lport);

	/* room 0's write waits on the first lock; rooms 1.. queue behind it.
	 * The second lock stops the group after room 1's move, written in it. */
	snprintf(first, sizeof first, "gbatch%ld-first", (long)getpid());
	snprintf(mid, sizeof mid, "gbatch%ld-mid", (long)getpid());
	REQUIRE(lock_game(db2, room[0], first) == 0 && lock_game(db2, room[2], mid) == 0,
	    "the test cannot lock its rows (psql, max_prepared_transactions in pg.sh)");
	tc_send(black[0], "MOVE %s h8", room[0]);
	REQUIRE(store_holds(lport, 0) == 0, "the store thread did not take room 0's move");
	for (int i = 1; i <= GROUP; i++)
		tc_send(black[i], "MOVE %s h8", room[i]);
	REQUIRE(store_holds(lport, GROUP) == 0, "the other rooms' moves did not queue");
	REQUIRE(lock_free(db2, first) == 0, "cannot free the first room's row");
	const char *l = tc_move_answer(black[0], 5000);
	CHECK(l && strncmp(l, "OK MOVE", 7) == 0, "the first room's move: %s", black[0]->line);
	CHECK(tc_expect(white[0], "* MOVE", 3000), "the first room's opponent: %s", white[0]->line);
	/* the group is begun, room 1's move in it, room 2's waiting */
	REQUIRE(group_waits(db2) == 0, "the group does not wait on room 2's row");
	CHECK(!tc_read(black[1], 300), "a move said before its group's commit: %s", black[1]->line);
	CHECK(!tc_read(white[1], 100), "a move published before its group's commit: %s",
	    white[1]->line);

	/* a fast shutdown: the group's session is ended waiting, the row
	 * still held (the prepared transaction outlives the stop) */
	REQUIRE(tc_pg_ctl("stop") == 0, "cannot stop PostgreSQL");
	for (int i = 1; i <= GROUP; i++) {
		l = tc_move_answer(black[i], 8000);
		CHECK(l && strncmp(l, "ERR 508", 7) == 0,
		    "room %d's move with the group cut off: %s", i, black[i]->line);
		CHECK(!tc_expect(white[i], "* MOVE", 300),
		    "room %d's opponent heard a move of a "
		    "group that did not commit",
		    i);
	}
	long nb = tc_metric(lport, "gomokud_store_batches_total"),
	     nj = tc_metric(lport, "gomokud_store_batch_jobs_total"),
	     most = tc_metric(lport, "gomokud_store_batch_jobs_max");
	CHECK(nb - batches == 2 && nj - jobs == GROUP + 1 && most == GROUP,
	    "not one write alone then one group of %d: %ld transactions, %ld writes, the "
	    "largest %ld",
	    GROUP, nb - batches, nj - jobs, most);
	REQUIRE(tc_pg_ctl("start") == 0, "cannot start PostgreSQL again");
	REQUIRE(lock_free(db2, mid) == 0, "cannot free room 2's row after the restart");
	for (int i = 0; i <= GROUP; i++)
		CHECK(moves_of(db2, room[i]) == (i == 0 ? 1 : 0),
		    "room %d's game has %ld moves in the database", i, moves_of(db2, room[i]));
	ok("PostgreSQL gone mid-group: every move of the group refused with 508, none said, "
	   "none in the database (the one written in it either)");

	for (int i = 1; i <= GROUP; i++) {
		for (int t = 0; t < 40; t++) {
			tc_send(black[i], "MOVE %s h8", room[i]);
			l = tc_move_answer(black[i], 5000);
			if (!l || strncmp(l, "ERR 508", 7) != 0)
				break;
			usleep(250 * 1000);
		}
		CHECK(l && strncmp(l, "OK MOVE", 7) == 0, "room %d's move again: %s", i,
		    black[i]->line);
		CHECK(tc_expect(white[i], "* MOVE", 3000), "room %d's opponent: %s", i,
		    white[i]->line);
		CHECK(moves_of(db2, room[i]) == 1, "room %d's move is not in the database", i);
	}
	ok("PostgreSQL back: the same moves taken, said and stored");
	for (int i = 0; i <= GROUP; i++) {
		tc_close(black[i]);
		tc_close(white[i]);
	}
	CHECK(daemon_stop(&lone, SIGTERM, 10000) == 0, "the lone node did not stop cleanly");
}

static void
test_killed(void)
{
	struct tc *black[GROUP], *white[GROUP];
	char room[GROUP][24], conf[400];
	int kport = tc_free_port();
	snprintf(conf, sizeof conf, "database %s\nmetrics-listen 127.0.0.1:%d\n", db3, kport);
	/* the store thread's first COMMIT is its first group's: a lone move
	 * is one statement, a game's row too */
	setenv("GOMOKUD_FAULT", "before:commit:1:die", 1);
	int rc = daemon_start(&doomed, GOMOKUD_FAULTS_BIN, conf);
	unsetenv("GOMOKUD_FAULT");
	REQUIRE(rc == 0, "no daemon (log %s)", doomed.log);
	REQUIRE(tc_pair_rooms(doomed.port, GROUP, black, white, room, "k") == 0, "no games");

	/* the group waits on room 2's row until room 0's answer is out: else
	 * the store thread may reach the group's COMMIT, and die, before the
	 * loop has sent that answer */
	char mid[40];
	snprintf(mid, sizeof mid, "gbatch%ld-kmid", (long)getpid());
	REQUIRE(lock_game(db3, room[2], mid) == 0, "the test cannot lock room 2's row");
	REQUIRE(tc_pg_ctl("pause") == 0, "cannot pause PostgreSQL");
	tc_send(black[0], "MOVE %s h8", room[0]);
	REQUIRE(store_holds(kport, 0) == 0, "the store thread did not take room 0's move");
	for (int i = 1; i < GROUP; i++)
		tc_send(black[i], "MOVE %s h8", room[i]);
	REQUIRE(store_holds(kport, GROUP - 1) == 0, "the other rooms' moves did not queue");
	REQUIRE(tc_pg_ctl("resume") == 0, "cannot resume PostgreSQL");
	const char *l = tc_move_answer(black[0], 5000);
	CHECK(l && strncmp(l, "OK MOVE", 7) == 0, "the first room's move: %s", black[0]->line);
	CHECK(tc_expect(white[0], "* MOVE", 3000), "the first room's opponent: %s", white[0]->line);
	REQUIRE(group_waits(db3) == 0, "the group does not wait on room 2's row");
	REQUIRE(lock_free(db3, mid) == 0, "cannot free room 2's row");
	CHECK(daemon_stop(&doomed, 0, 5000) == 128 + SIGKILL,
	    "the daemon did not die before its group's commit (log %s)", doomed.log);
	for (int i = 1; i < GROUP; i++) {
		while ((l = tc_read(black[i], 300)) != NULL)
			CHECK(strncmp(l, "OK MOVE", 7) != 0 && strncmp(l, "* MOVE", 6) != 0,
			    "room %d's mover heard of an uncommitted move: %s", i, l);
		while ((l = tc_read(white[i], 100)) != NULL)
			CHECK(strncmp(l, "* MOVE", 6) != 0,
			    "room %d's opponent heard of an uncommitted move: %s", i, l);
	}
	for (int i = 0; i < GROUP; i++)
		CHECK(moves_of(db3, room[i]) == (i == 0 ? 1 : 0),
		    "room %d's game has %ld moves in the database after the kill", i,
		    moves_of(db3, room[i]));
	REQUIRE(daemon_start(&again, GOMOKUD_BIN, conf) == 0, "no restart (log %s)", again.log);
	CHECK(daemon_wait_log(&again, "resumed 4 games", 0, 5000),
	    "the restart did not resume the four games (log %s)", again.log);
	ok("killed before a group's COMMIT: none of its moves said or stored, the move "
	   "acknowledged before it kept, the games resumed");
	for (int i = 0; i < GROUP; i++) {
		tc_close(black[i]);
		tc_close(white[i]);
	}
	CHECK(daemon_stop(&again, SIGTERM, 10000) == 0, "the restart did not stop cleanly");
}

int
main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	int code;
	if (redis_guard(&redis, &code) != 0)
		return code;
	char name[32], conf[400];
	snprintf(name, sizeof name, "gbatch%ld", (long)getpid());
	int rc = tc_pg_database(name, db, sizeof db);
	snprintf(name, sizeof name, "gbatchl%ld", (long)getpid());
	char url[300];
	if (rc == 0)
		rc = tc_pg_database(name, url, sizeof url);
	if (rc != 0) {
		printf(rc > 0 ? "FAIL: no PostgreSQL: run me under tests/pg/test_pg.sh\n"
			      : "FAIL: cannot create the databases\n");
		return 1;
	}
	snprintf(db2, sizeof db2, "%s", url);
	snprintf(name, sizeof name, "gbatchk%ld", (long)getpid());
	if (tc_pg_database(name, db3, sizeof db3) != 0) {
		printf("FAIL: cannot create the databases\n");
		return 1;
	}
	if (redis_start(&redis) != 0) {
		printf("FAIL: no redis-server\n");
		return 1;
	}
	mport = tc_free_port();
	snprintf(conf, sizeof conf, "database %s\nmetrics-listen 127.0.0.1:%d\n", db, mport);
	if (redis_node(&node, GOMOKUD_BIN, &redis, "a", conf) != 0) {
		printf("FAIL: the node did not start (%s)\n", node.log);
		redis_finish(&redis, &node, 0, 1, 1);
		return 1;
	}
	test_fenced();
	test_outage();
	test_killed();
	return redis_finish(&redis, &node, 1, 1, failures);
}
