/*
 * test_cluster.c: three gomokud nodes on one Redis (issue 26, the nodes):
 * the test starts its own redis-server (a temp dir, a free loopback port,
 * no persistence) and three daemons, each with its own state directory,
 * and drives them with real TLS clients: WHO and TELL across nodes, ROOMS
 * across nodes, a spectator on node c who sees every move of a game on
 * node a in order (and one on node a beside him), counted by a's ROOMS
 * line as seen on b, a request for a seat on
 * another node's room, Redis killed and started again mid-game (the game
 * goes on, cross-node requests are refused with 501 meanwhile and work
 * again after), and garbage published on every channel (no node falls).
 * Under tests/pg/test_pg.sh (GOMOKU_PG_URL set) the three nodes share one
 * PostgreSQL database, and the test also checks what sharing gives: an
 * account made on one node logs in on another, a node's restart leaves
 * another node's game alone, and a node killed mid-game and restarted gets
 * its game back from the database. Without redis-server the test says so and
 * skips, unless GOMOKU_REQUIRE_SHARED=1 (CI): then it fails.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tests/daemon/check.h"
#include "tests/daemon/redisrun.h"
#include "tests/daemon/tclient.h"

#ifndef GOMOKUD_BIN
#define GOMOKUD_BIN "bin/gomokud"
#endif
#ifndef GOMOKU_BIN
#define GOMOKU_BIN "bin/gomoku"
#endif

enum { NODES = 3, WAIT_MS = 8000 };

static struct daemon node[NODES];
static struct redisrun redis;
static char shared_db[256]; /* the one database of every node, or "" */

/* on the one database when there is one */
static const struct redis_nodes cl = { GOMOKUD_BIN, &redis, node, shared_db, NULL, NULL };

/* One move by p; its seq from OK MOVE, or 0. */
static unsigned
move(struct tc *p, const char *room, const char *mv)
{
	unsigned seq = 0;
	char want[64];
	tc_send(p, "MOVE %s %s", room, mv);
	snprintf(want, sizeof want, "OK MOVE %s ", room);
	const char *l = tc_expect(p, want, LINE_MS);
	if (l)
		sscanf(l + strlen(want), "%u", &seq);
	return seq;
}

/* WATCH room from c: the snapshot's seq from its OK, or 0. */
static unsigned
watch(struct tc *c, const char *room)
{
	char want[64];
	unsigned seq = 0;
	tc_send(c, "WATCH %s", room);
	snprintf(want, sizeof want, "OK WATCH %s ", room);
	const char *l = tc_expect(c, want, LINE_MS);
	if (l)
		sscanf(l + strlen(want), "%u", &seq);
	return seq;
}

static struct tc *alice, *bob, *carol;
static long long started_ms; /* when the last node came up */

/* alice on a, bob on b, carol on c: each sees the others in WHO. */
static void
test_who(void)
{
	alice = tc_guest(node[0].port, "alice");
	bob = tc_guest(node[1].port, "bob");
	carol = tc_guest(node[2].port, "carol");
	REQUIRE(alice && bob && carol, "guests could not connect");
	CHECK(
	    redis_lists(carol, "WHO", "= USER alice idle", WAIT_MS), "c's WHO never listed alice");
	CHECK(redis_lists(carol, "WHO", "= USER bob idle", WAIT_MS), "c's WHO never listed bob");
	CHECK(
	    redis_lists(alice, "WHO", "= USER carol idle", WAIT_MS), "a's WHO never listed carol");
	CHECK(redis_lists(bob, "WHO", "= USER carol", WAIT_MS), "b's WHO never listed carol");
	ok("WHO lists the users of every node");
}

/* Guest names are the cluster's: a name online on another node is taken,
 * and the names a node makes up are its own (every node counts guests). */
static void
test_guest_names(void)
{
	REQUIRE(alice && bob, "no guests");
	struct tc *x = tc_open(node[1].port, 1);
	REQUIRE(x, "connect to b");
	tc_send(x, "GUEST Alice");
	CHECK_LINE(x, "ERR 412 ");
	CHECK(strstr(x->line, "another node"), "the refusal does not say where: %s", x->line);
	char got[2][24] = { "", "" };
	for (int i = 0; i < 2; i++) {
		struct tc *g = tc_open(node[i].port, 1);
		REQUIRE(g, "connect to %s", redis_names[i]);
		tc_send(g, "GUEST");
		const char *l = tc_expect(g, "OK GUEST ", LINE_MS);
		CHECK(l && sscanf(l, "OK GUEST %20s", got[i]) == 1, "GUEST on %s: %s",
		    redis_names[i], g->line);
		char suffix[16];
		snprintf(suffix, sizeof suffix, "-%s", redis_names[i]);
		CHECK(strlen(got[i]) > strlen(suffix) &&
			strcmp(got[i] + strlen(got[i]) - strlen(suffix), suffix) == 0,
		    "node %s named its guest %s", redis_names[i], got[i]);
		tc_close(g);
	}
	CHECK(strcmp(got[0], got[1]) != 0, "both nodes named a guest %s", got[0]);
	tc_close(x);
	ok("a guest name online on another node is taken; each node's made-up names are its own");
}

static void
test_tell(void)
{
	REQUIRE(alice && bob && carol, "no guests");
	tc_send(bob, "TELL ALICE hello from b");
	CHECK_LINE(bob, "OK TELL alice");
	CHECK(tc_expect(alice, "* TELL bob hello from b", LINE_MS), "alice got no TELL (last: %s)",
	    alice->line);
	tc_send(alice, "TELL carol and back");
	CHECK_LINE(alice, "OK TELL carol");
	CHECK_LINE(carol, "* TELL alice and back");
	tc_send(carol, "TELL nobody hi");
	CHECK_LINE(carol, "ERR 421 ");
	if (!shared_db[0]) { /* games across nodes need the one database */
		tc_send(bob, "CHALLENGE alice freestyle 15 none any casual none");
		CHECK_LINE(bob, "ERR 501 ");
		tc_send(bob, "CHALLENGE nobody freestyle 15 none any casual none");
		CHECK_LINE(bob, "ERR 421 ");
	}
	ok("TELL reaches a user on another node; an unknown name is 421");
}

static char game[17];
static struct tc *black, *white;

/* A game on node a: listed in ROOMS on b and c; carol on c and erin on a
 * watch it and see every move in order, each with the next seq. */
static void
test_rooms_and_spectators(void)
{
	REQUIRE(tc_pair_guests(node[0].port, "dave", "ed", "freestyle 15 none", &black, &white,
		    game, sizeof game) == 0,
	    "no game on a: %s", tc_why);
	CHECK(game[0] == 'a', "a's room id %s does not name node a", game);
	char want[64];
	snprintf(want, sizeof want, "= ROOM %s playing", game);
	CHECK(redis_lists(carol, "ROOMS", want, WAIT_MS), "c's ROOMS never listed %s", game);
	CHECK(redis_lists(bob, "ROOMS", want, WAIT_MS), "b's ROOMS never listed %s", game);
	struct tc *erin = tc_guest(node[0].port, "erin");
	REQUIRE(erin, "erin could not connect");
	/* erin's watch is an event of the room (* PRESENCE joined) */
	unsigned s0 = watch(carol, game), e0 = watch(erin, game);
	CHECK(s0 > 0 && e0 == s0 + 1, "snapshots disagree: c's seq %u, a's %u", s0, e0);
	snprintf(want, sizeof want, "* PRESENCE %s %u erin joined", game, e0);
	CHECK(tc_expect(carol, want, LINE_MS), "carol missed \"%s\" (last: %s)", want, carol->line);
	s0 = e0;
	/* a's count of spectators (erin) holds c's (carol) too, on every node */
	CHECK(redis_lists(bob, "ROOMS", " dave ed 2 0", WAIT_MS),
	    "b's ROOMS never counted both spectators of %s", game);
	/* who watches, on every node: WHO on b (carol watches from c), WHO of
	 * the room on its own node (a) and on a watcher's node (c) */
	char who[64];
	snprintf(want, sizeof want, "= USER carol watching %s", game);
	CHECK(redis_lists(bob, "WHO", want, WAIT_MS), "b's WHO never said \"%s\"", want);
	snprintf(who, sizeof who, "WHO %s", game);
	CHECK(redis_lists(erin, who, want, WAIT_MS), "a's %s never listed carol", who);
	static const char *const in_room[] = { "dave playing", "ed playing", "erin watching",
		"carol watching" };
	for (int i = 0; i < 4; i++) {
		snprintf(want, sizeof want, "= USER %s %s", in_room[i], game);
		CHECK(
		    redis_lists(carol, who, want, WAIT_MS), "c's %s never said \"%s\"", who, want);
	}
	tc_send(carol, "WHO a999");
	CHECK_LINE(carol, "ERR 420 ");
	static const char *const mv[] = { "h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4", "l8" };
	for (int i = 0; i < 9; i++) {
		unsigned seq = move(i % 2 ? white : black, game, mv[i]);
		CHECK(seq == s0 + 1 + (unsigned)i, "move %s got seq %u", mv[i], seq);
		char ev[80];
		snprintf(ev, sizeof ev, "* MOVE %s %u %s %s ", game, seq, i % 2 ? "white" : "black",
		    mv[i]);
		CHECK(tc_expect(carol, ev, LINE_MS), "carol on c missed \"%s\" (last: %s)", ev,
		    carol->line);
		CHECK(tc_expect(erin, ev, LINE_MS), "erin on a missed \"%s\" (last: %s)", ev,
		    erin->line);
	}
	snprintf(want, sizeof want, "* OVER %s ", game);
	CHECK(tc_expect(carol, want, LINE_MS), "carol saw no OVER (last: %s)", carol->line);
	tc_send(carol, "STATE %s", game);
	snprintf(want, sizeof want, "= RESULT %s black five", game);
	CHECK(
	    tc_expect(carol, want, LINE_MS), "carol's STATE has no result (last: %s)", carol->line);
	snprintf(want, sizeof want, "OK STATE %s ", game);
	CHECK_LINE(carol, want);
	tc_send(carol, "LEAVE %s", game);
	snprintf(want, sizeof want, "OK LEAVE %s", game);
	CHECK_LINE(carol, want);
	tc_send(carol, "STATE %s", game);
	CHECK_LINE(carol, "ERR 446 ");
	tc_send(carol, "WATCH a999");
	CHECK_LINE(carol, "ERR 420 ");
	/* a room of a node no one has heard of: at once, not after the wait
	 * for an owner's answer (501 after CLUSTER_ASK_S), once the node has
	 * been up long enough to have heard every live node (3.5 s) */
	long long up = tc_now_ms() - started_ms;
	if (up < 4000)
		usleep((useconds_t)(4000 - up) * 1000);
	tc_send(carol, "WATCH zz999");
	CHECK_LINE(carol, "ERR 420 ");
	tc_close(erin);
	ok("ROOMS lists every node's rooms, WHO <room> its watchers on every node; a spectator "
	   "on c sees a game on a move by move");
}

/* A seat in another node's room: * MOVED names where it is played, and a
 * client that follows it (RESUME there with its token) is back. */
static void
test_moved(void)
{
	char want[128], addr[32];
	int port = 0;
	REQUIRE(black, "no game");
	snprintf(addr, sizeof addr, "127.0.0.1:%d", node[0].port);
	tc_send(carol, "MOVE %s m8", game);
	snprintf(want, sizeof want, "* MOVED %s %s", game, addr);
	CHECK_LINE(carol, want);
	CHECK_LINE(carol, "ERR 420 ");
	tc_send(carol, "WATCH %s", game);
	snprintf(want, sizeof want, "OK WATCH %s ", game);
	CHECK_LINE(carol, want);
	tc_send(carol, "MOVE %s m8", game);
	snprintf(want, sizeof want, "* MOVED %s %s", game, addr);
	CHECK_LINE(carol, want);
	CHECK_LINE(carol, "ERR 430 ");
	tc_send(carol, "SAY %s hi", game); /* needs the room's node, no seat */
	const char *l = tc_read(carol, LINE_MS);
	CHECK(l && strncmp(l, "ERR 430 ", 8) == 0, "SAY elsewhere: %s", l ? l : "(nothing)");
	tc_send(carol, "LEAVE %s", game);
	CHECK_LINE(carol, "OK LEAVE ");

	/* dave's client lands on node c (say, through a front) and resumes */
	struct tc *lost = tc_open(node[2].port, 1);
	REQUIRE(lost, "no connection to c");
	tc_send(lost, "RESUME %s %s 0", black->token, game);
	snprintf(want, sizeof want, "* MOVED %s ", game);
	l = tc_expect(lost, want, LINE_MS);
	CHECK(l && sscanf(l + strlen(want), "127.0.0.1:%d", &port) == 1 && port == node[0].port,
	    "RESUME on c: no * MOVED to a (last: %s)", lost->line);
	CHECK_LINE(lost, "ERR 448 ");
	tc_close(lost);
	struct tc *there = port > 0 ? tc_open(port, 1) : NULL;
	REQUIRE(there, "cannot follow * MOVED to port %d", port);
	tc_send(there, "RESUME %s %s 0", black->token, game);
	snprintf(want, sizeof want, "OK RESUME %s ", game);
	CHECK(tc_expect(there, want, LINE_MS), "RESUME after MOVED: %s", there->line);
	tc_close(black);
	black = there;
	ok("* MOVED sends a seat's requests and RESUME to the room's node; following it works");
}

static char room[17]; /* the second game, unfinished: its players stay away */
static char away[80]; /* the token of its black player */

static void
test_redis_restart(void)
{
	struct tc *b2, *w2;
	char want[80];
	tc_close(black);
	tc_close(white);
	REQUIRE(tc_pair_guests(node[0].port, "fay", "gus", "freestyle 15 none", &b2, &w2, room,
		    sizeof room) == 0,
	    "no second game on a: %s", tc_why);
	unsigned s0 = watch(carol, room);
	REQUIRE(s0 > 0, "carol could not watch %s (last: %s)", room, carol->line);
	unsigned seq = move(b2, room, "h8");
	snprintf(want, sizeof want, "* MOVE %s %u black h8 ", room, seq);
	CHECK(tc_expect(carol, want, LINE_MS), "carol missed h8 (last: %s)", carol->line);

	int lost = daemon_log_count(&node[2], "cluster: Redis");
	redis_kill(&redis);
	CHECK(daemon_wait_log(&node[2], "cluster: Redis", lost, WAIT_MS),
	    "c did not notice Redis going");
	CHECK(move(w2, room, "a1") == seq + 1, "a's game stopped without Redis");
	CHECK(move(b2, room, "i8") == seq + 2, "a's game stopped without Redis");
	tc_send(carol, "TELL alice are you there");
	CHECK_LINE(carol, "ERR 501 ");
	tc_send(carol, "WATCH a1");
	CHECK_LINE(carol, "ERR 501 ");
	CHECK(redis_lists(carol, "WHO", "= USER carol", 1000), "c's WHO lost its own users");

	int back = daemon_log_count(&node[2], "cluster: node c on Redis");
	REQUIRE(redis_start(&redis) == 0, "Redis did not start again");
	CHECK(daemon_wait_log(&node[2], "cluster: node c on Redis", back, 20000),
	    "c did not reconnect to Redis");
	CHECK(redis_lists(carol, "WHO", "= USER alice", 20000), "c's WHO never listed alice again");
	tc_send(carol, "TELL alice back again");
	CHECK_LINE(carol, "OK TELL alice");
	CHECK_LINE(alice, "* TELL carol back again");
	/* the moves played meanwhile never reached c: its client asks for a
	 * snapshot, then follows the events again */
	tc_send(carol, "STATE %s", room);
	snprintf(want, sizeof want, "= MOVES %s 0 h8,a1,i8", room);
	CHECK(tc_expect(carol, want, WAIT_MS), "carol's STATE lacks the moves (last: %s)",
	    carol->line);
	snprintf(want, sizeof want, "OK STATE %s %u", room, seq + 2);
	CHECK_LINE(carol, want);
	/* that STATE asked a again, so its relay goes on to the new Redis */
	unsigned s4 = move(w2, room, "a2");
	CHECK(s4 == seq + 3, "a2 got seq %u", s4);
	snprintf(want, sizeof want, "* MOVE %s %u white a2 ", room, s4);
	CHECK(tc_expect(carol, want, WAIT_MS), "carol missed a2 after the restart (last: %s)",
	    carol->line);
	snprintf(away, sizeof away, "%s", b2->token);
	tc_close(b2);
	tc_close(w2);
	ok("Redis killed and restarted mid-game: the game went on, the cluster came back");
}

/* The terminal client (script mode) asks node c for the seat of a game
 * on node a, follows * MOVED there, takes the seat back and moves. */
static void
test_client_follows(void)
{
	char dir[64], in[96], out[96], cmd[1024], want[128];
	REQUIRE(away[0], "no game to go back to");
	snprintf(dir, sizeof dir, "/tmp/gomoku-client.XXXXXX");
	REQUIRE(tc_mkdtemp(dir), "no temp dir");
	snprintf(in, sizeof in, "%s/in", dir);
	snprintf(out, sizeof out, "%s/out", dir);
	FILE *f = fopen(in, "w");
	REQUIRE(f, "cannot write %s", in);
	fprintf(f, "RESUME %s %s 0\nMOVE %s j8\n", away, room, room);
	fclose(f);
	snprintf(cmd, sizeof cmd,
	    "HOME=%s XDG_STATE_HOME=%s XDG_CONFIG_HOME=%s timeout 20 %s --script --insecure "
	    "127.0.0.1:%d < %s > %s 2> %s/err",
	    dir, dir, dir, GOMOKU_BIN, node[2].port, in, out, dir);
	int rc = system(cmd);
	CHECK(rc == 0, "the client exited with %d (%s/err)", rc, dir);
	char buf[8192] = "";
	f = fopen(out, "r");
	if (f) {
		buf[fread(buf, 1, sizeof buf - 1, f)] = '\0';
		fclose(f);
	}
	snprintf(want, sizeof want, "* MOVED %s 127.0.0.1:%d\n", room, node[0].port);
	const char *moved = strstr(buf, want);
	CHECK(moved, "the client saw no \"%s\": %s", want, buf);
	snprintf(want, sizeof want, "OK RESUME %s ", room);
	const char *resumed = strstr(buf, want);
	CHECK(resumed && resumed > moved, "the client did not RESUME after MOVED: %s", buf);
	snprintf(want, sizeof want, "OK MOVE %s ", room);
	CHECK(resumed && strstr(resumed, want), "the client's move after MOVED: %s", buf);
	CHECK(
	    strstr(buf, "ERR 448") == NULL, "the refusal after MOVED reached the client: %s", buf);
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	if (!failures)
		CHECK(system(cmd) == 0, "cannot remove %s", dir);
	ok("the terminal client follows * MOVED to the room's node and plays on");
}

/* Nodes on one PostgreSQL database: accounts are everyone's; a node's
 * start ends no game (node b's restart must not end node a's); node a
 * killed mid-game and restarted: its game comes back with every move, on a
 * once its lease is free (test_lease covers adoption by another node). */
static void
test_shared_store(void)
{
	char want[96];
	REQUIRE(away[0], "no game to go back to");
	struct tc *d = tc_open(node[0].port, 1);
	REQUIRE(d, "no connection to a");
	tc_send(d, "REGISTER dana sesame-dana");
	CHECK_LINE(d, "OK REGISTER dana");
	tc_close(d);
	d = tc_open(node[1].port, 1);
	REQUIRE(d, "no connection to b");
	tc_send(d, "LOGIN dana sesame-dana");
	CHECK_LINE(d, "OK LOGIN dana");
	tc_close(d);

	REQUIRE(daemon_stop(&node[1], SIGKILL, 2000) == 128 + SIGKILL, "b did not die");
	REQUIRE(redis_nodes_start(&cl, 1) == 0, "b did not start again (%s)", node[1].log);
	CHECK(daemon_log_count(&node[1], "cannot be resumed") == 0, "b's start ended a game: %s",
	    node[1].log);
	REQUIRE(daemon_stop(&node[0], SIGKILL, 2000) == 128 + SIGKILL, "a did not die");
	REQUIRE(redis_nodes_start(&cl, 0) == 0, "a did not start again (%s)", node[0].log);
	/* the game comes back once its lease (lease.h) is free: on a, or on
	 * the node that adopted it if a was away longer than a lease */
	int port = node[0].port, back = 0;
	for (long long end = tc_now_ms() + 20000; !back && tc_now_ms() < end;) {
		struct tc *p = tc_open(port, 1);
		REQUIRE(p, "no connection to port %d", port);
		tc_send(p, "RESUME %s %s 0", away, room);
		const char *l;
		int moved = 0, saw = 0;
		snprintf(want, sizeof want, "* MOVED %s 127.0.0.1:", room);
		while ((l = tc_read(p, LINE_MS)) && strncmp(l, "ERR ", 4) != 0 &&
		    strncmp(l, "OK RESUME ", 10) != 0) {
			if (strncmp(l, want, strlen(want)) == 0)
				moved = atoi(l + strlen(want));
			if (strstr(l, " 0 h8,a1,i8,a2,j8") && strncmp(l, "= MOVES ", 8) == 0)
				saw = 1;
		}
		back = l && strncmp(l, "OK RESUME ", 10) == 0;
		CHECK(!back || saw, "a's game after both restarts lacks its moves");
		tc_close(p);
		if (moved)
			port = moved;
		else if (!back)
			usleep(300000);
	}
	CHECK(back, "a's game did not come back after a's restart");
	ok("one database: an account works on every node; a killed node's game comes back");
}

/* Garbage on every channel the nodes listen to: dropped, the first with a
 * log line and the rest counted (one line 10 s on says how many), and
 * every node still serves. */
static void
test_garbage(void)
{
	static const char bin[] = { 'P', ' ', 0, 1, 2, (char)0xff, '\n', 'x' };
	char big[70000];
	memset(big, 'E', sizeof big);
	big[1] = ' ';
	static const char *const bad[] = {
		"",
		"P",
		"P a 127.0.0.1:1",              /* a's own name from elsewhere: said once */
		"P zz 127.0.0.1:1\n= USER",     /* a line that does not parse */
		"P zz 127.0.0.1:1\n* TELL x y", /* not a USER or ROOM line */
		"P ZZ 127.0.0.1:1",
		"P toolongname 127.0.0.1:1",
		"T bob",
		"T bob alice",
		"T 1bob alice hi",
		"W a1",
		"W r1 c",
		"W a1 c extra",
		"S a1 x\n= ROOM",
		"S a1 1\n* MOVE a1 1 black h8 - -",
		"E * MOVE",
		"E = ROOM a1",
		"E * MOVE a1 0 black h8 - -",
		"X whatever",
		"C a1 c",
		"C a1 c -1",
		"C zz1 c 1",
		"L",
		"L 1x hi",
		"L b claim 1 2 guest short = SEEK",
		"L b nonsense",
	};
	char rchan[64], want[64];
	snprintf(rchan, sizeof rchan, "gomoku:room:%s", room);
	/* c listens to the room's channel while carol watches */
	REQUIRE(watch(carol, room) > 0, "carol could not watch %s (last: %s)", room, carol->line);
	int drops = daemon_log_count(&node[0], "dropped"),
	    cdrops = daemon_log_count(&node[2], "dropped"),
	    summed = daemon_log_count(&node[0], "more messages dropped in"),
	    lines = daemon_log_count(&node[0], "dropped: "), counted = redis_drops(&node[0]);
	const char *chans[] = { "gomoku:presence", "gomoku:node:a", rchan };
	for (size_t c = 0; c < 3; c++) {
		for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
			CHECK(redis_publish(&redis, chans[c], bad[i], strlen(bad[i])) == ':',
			    "could not publish");
		CHECK(redis_publish(&redis, chans[c], bin, sizeof bin) == ':', "could not publish");
		CHECK(redis_publish(&redis, chans[c], big, sizeof big) == ':', "could not publish");
	}
	CHECK(daemon_wait_log(&node[0], "dropped", drops, WAIT_MS), "a logged no dropped message");
	/* not a line each: the first, then, 10 s on, how many more */
	CHECK(daemon_wait_log(&node[0], "more messages dropped in", summed, WAIT_MS + 10000),
	    "a never said how many more messages it dropped");
	int said = daemon_log_count(&node[0], "dropped: ") - lines;
	CHECK(said >= 1 && said <= 3, "a logged %d dropped messages one by one", said);
	printf("# a dropped %d of the %d messages, %d logged one by one\n",
	    redis_drops(&node[0]) - counted, (int)(3 * (sizeof bad / sizeof bad[0] + 2)), said);
	/* 48 of them do not parse (the rest are well-formed messages for
	 * another channel, ignored there) */
	CHECK(redis_drops(&node[0]) - counted >= 40, "a counted %d dropped messages of %d",
	    redis_drops(&node[0]) - counted, (int)(3 * (sizeof bad / sizeof bad[0] + 2)));
	CHECK(daemon_log_count(&node[0], "calls itself a too") == 1,
	    "a did not say once that another node took its name");
	CHECK(daemon_wait_log(&node[2], "dropped", cdrops, WAIT_MS), "c logged no dropped message");
	/* nothing of it reached the spectator */
	tc_send(carol, "PING after");
	const char *l = tc_read(carol, LINE_MS);
	CHECK(l && strcmp(l, "OK PING after") == 0, "carol got \"%s\" before her PING's reply",
	    l ? l : "(nothing)");
	tc_send(carol, "LEAVE %s", room);
	snprintf(want, sizeof want, "OK LEAVE %s", room);
	CHECK_LINE(carol, want);
	for (int i = 0; i < NODES; i++)
		CHECK(daemon_alive(&node[i]), "node %s died of garbage", redis_names[i]);
	CHECK(
	    redis_lists(carol, "WHO", "= USER alice", WAIT_MS), "c's WHO lost alice after garbage");
	CHECK(!redis_lists(carol, "WHO", "zz", 1500), "a garbage node's users were listed");
	tc_send(bob, "TELL alice still here");
	CHECK_LINE(bob, "OK TELL alice");
	CHECK_LINE(alice, "* TELL bob still here");
	ok("garbage on every channel is dropped; no node falls");
}

/* A node whose Redis is not there at all: it says so once, serves its
 * own players, and refuses what needs another node with 501. */
static void
test_no_redis(void)
{
	struct daemon lone;
	char conf[256];
	int p = tc_free_port(), dead = tc_free_port();
	snprintf(conf, sizeof conf,
	    "listen 127.0.0.1:%d\ncluster redis://127.0.0.1:%d\nnode-name d\n"
	    "advertise 127.0.0.1:%d\n",
	    p, dead, p);
	REQUIRE(daemon_start(&lone, GOMOKUD_BIN, conf) == 0, "node d did not start (%s)", lone.log);
	struct tc *x = tc_guest(lone.port, "xena"), *y = tc_guest(lone.port, "yuri");
	if (x && y) {
		CHECK(redis_lists(x, "WHO", "= USER yuri idle", WAIT_MS),
		    "d's WHO lacks its own user");
		tc_send(x, "TELL yuri local");
		CHECK_LINE(x, "OK TELL yuri");
		CHECK_LINE(y, "* TELL xena local");
		tc_send(x, "TELL alice far away");
		CHECK_LINE(x, "ERR 501 ");
		tc_send(x, "WATCH a1");
		CHECK_LINE(x, "ERR 501 ");
	} else {
		CHECK(0, "guests could not connect to d");
	}
	tc_close(x);
	tc_close(y);
	CHECK(daemon_wait_log(&lone, "cannot reach Redis", 0, WAIT_MS),
	    "d did not say Redis is away");
	usleep(2500000); /* a retry or two */
	CHECK(daemon_log_count(&lone, "cannot reach Redis") == 1, "d said it more than once");
	CHECK(daemon_stop(&lone, SIGTERM, 5000) == 0, "d did not stop cleanly");
	ok("a node without its Redis says so once and serves its own players");
}

int
main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	int code;
	if (redis_guard(&redis, &code) != 0)
		return code;
	if (tc_pg_database("gcluster", shared_db, sizeof shared_db) < 0) {
		printf("FAIL: cannot create the cluster's database\n");
		return 1;
	}
	if (redis_nodes_up(&cl, NODES) != 0)
		return 1;
	started_ms = tc_now_ms();
	test_who();
	test_guest_names();
	test_tell();
	test_rooms_and_spectators();
	test_moved();
	test_redis_restart();
	test_client_follows();
	test_garbage();
	if (shared_db[0]) /* last: it kills nodes a and b */
		test_shared_store();
	test_no_redis();
	tc_close(alice);
	tc_close(bob);
	tc_close(carol);
	return redis_finish(&redis, node, NODES, 0, failures);
}
