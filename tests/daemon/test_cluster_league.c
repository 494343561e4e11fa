/*
 * test_cluster_league.c: an engine league on a cluster (issue 49,
 * PROTOCOL.md 5.23). Two gomokud nodes on one Redis and one PostgreSQL
 * database (tests/pg/test_pg.sh's server; redisrun.c's redis-server), the
 * same league line on both: both are up and have read the league (no
 * event yet) before its first event is due, so both try to make it; the
 * database's key (league, n) lets one do it and the other's attempt
 * change nothing (its log says so). Both nodes then show the same event
 * and, once its one game is played, the same table; TLIST has one event
 * of the league. Only under tests/pg/test_pg.sh, in the cluster's pass.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LINE_MS 10000
#include "tests/daemon/check.h"
#include "tests/daemon/redisrun.h"
#include "tests/daemon/tclient.h"

#ifndef GOMOKUD_BIN
#define GOMOKUD_BIN "bin/gomokud"
#endif

enum { NODES = 2 };

static struct daemon node[NODES];
static struct redisrun redis;
static char db[256];

static const struct redis_nodes cl = { GOMOKUD_BIN, &redis, node, db,
	"bot-threads 1\nleague duo freestyle 15 30+0 members=level1,level2 first=12\n", NULL };

/* LEAGUES on c: duo's line into line; 0, or -1. */
static int
duo_line(struct tc *c, char *line, size_t n)
{
	int found = -1;
	tc_send(c, "LEAGUES");
	for (;;) {
		const char *l = tc_read(c, LINE_MS);
		if (!l)
			return -1;
		if (!strncmp(l, "= LEAGUE duo ", 13)) {
			snprintf(line, n, "%s", l);
			found = 0;
		}
		if (!strncmp(l, "OK LEAGUES", 10) || !strncmp(l, "ERR ", 4))
			return found;
	}
}

/* LEAGUE duo on c, its lines joined into out. */
static int
duo_table(struct tc *c, char *out, size_t n)
{
	size_t used = 0;
	out[0] = '\0';
	tc_send(c, "LEAGUE duo");
	for (;;) {
		const char *l = tc_read(c, LINE_MS);
		if (!l || !strncmp(l, "ERR ", 4))
			return -1;
		if (!strncmp(l, "= LRATING ", 10)) {
			int k = snprintf(out + used, n - used, "%s|", l);
			if (k > 0 && (size_t)k < n - used)
				used += (size_t)k;
		}
		if (!strncmp(l, "OK LEAGUE ", 10))
			return 0;
	}
}

static void
test_one_event(void)
{
	const char *made = "league duo: event 1 is tournament";
	const char *taken = "league duo: event 1 not made: it was made already";
	long long until = tc_now_ms() + 30000;
	while (tc_now_ms() < until &&
	    daemon_log_count(&node[0], made) + daemon_log_count(&node[1], made) == 0)
		usleep(200 * 1000);
	usleep(2000 * 1000); /* the other node's attempt, a tick later at most */
	int ma = daemon_log_count(&node[0], made), mb = daemon_log_count(&node[1], made);
	int ta = daemon_log_count(&node[0], taken), tb = daemon_log_count(&node[1], taken);
	CHECK(ma + mb == 1, "event 1 made %d times on a, %d on b", ma, mb);
	CHECK(ta + tb == 1 && (ma ? tb : ta) == 1, "the other node's attempt: a %d, b %d", ta, tb);
	ok("both nodes try to make the league's first event; the database lets one");

	struct tc *c[NODES];
	char line[NODES][200], table[NODES][600];
	for (int i = 0; i < NODES; i++) {
		c[i] = tc_guest(node[i].port, i ? "watcher-b" : "watcher-a");
		REQUIRE(c[i], "a guest on node %d", i);
	}
	for (int i = 0; i < NODES; i++) {
		int games = 0;
		char tour[16] = "", next[24] = "";
		for (long long end = tc_now_ms() + 90000; tc_now_ms() < end;) {
			char name[32], rule[16], tc_[16];
			int size, players;
			if (duo_line(c[i], line[i], sizeof line[i]) == 0 &&
			    sscanf(line[i], "= LEAGUE %31s %15s %d %15s %d %d %15s %23s", name,
				rule, &size, tc_, &players, &games, tour, next) == 8 &&
			    games >= 1 && strcmp(next, "-") != 0)
				break;
			usleep(500 * 1000);
		}
		CHECK(games == 1 && strcmp(next, "-") != 0, "node %d: %s", i, line[i]);
		CHECK(duo_table(c[i], table[i], sizeof table[i]) == 0, "LEAGUE duo on node %d", i);
		printf("# node %d: %s; %s\n", i, line[i], table[i]);
	}
	CHECK(!strcmp(line[0], line[1]), "LEAGUES: a says %s, b %s", line[0], line[1]);
	CHECK(
	    !strcmp(table[0], table[1]) && strstr(table[0], " bot1 ") && strstr(table[0], " bot2 "),
	    "LEAGUE duo: a %s, b %s", table[0], table[1]);
	ok("both nodes show the same event and, its game played, the same table");

	int events = 0;
	tc_send(c[1], "TLIST");
	for (;;) {
		const char *l = tc_read(c[1], LINE_MS);
		REQUIRE(l, "TLIST");
		events += !strncmp(l, "= TOURNEY ", 10) && strstr(l, " league duo ") != NULL;
		if (!strncmp(l, "OK TLIST", 8))
			break;
	}
	CHECK(events == 1, "TLIST: %d events of duo", events);
	ok("one event of the league in TLIST");
	for (int i = 0; i < NODES; i++)
		tc_close(c[i]);
}

int
main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	int code;
	if (redis_guard(&redis, &code) != 0)
		return code;
	char dbname[32];
	snprintf(dbname, sizeof dbname, "gleague%ld", (long)getpid());
	int rc = tc_pg_database(dbname, db, sizeof db);
	if (rc != 0) {
		printf(rc > 0 ? "FAIL: no PostgreSQL: run me under tests/pg/test_pg.sh\n"
			      : "FAIL: cannot create the database\n");
		return 1;
	}
	if (redis_nodes_up(&cl, NODES) != 0)
		return 1;
	test_one_event();
	return redis_finish(&redis, node, NODES, 1, failures);
}
