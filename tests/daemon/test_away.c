/*
 * test_away: a session outlives its connection while it holds anything
 * (issue 43, item 1; PROTOCOL.md 5.2 and 5.9). A phone that switches apps
 * drops its connection: its private room waits for a friend, who may take
 * the seat meanwhile and plays when the creator is back; the room closes
 * when the creator never comes back (away-keep), and says so. An open seek
 * and a challenge wait too, are not paired or accepted while their player
 * is away, and come back with them (RESUME <token> -). Sessions kept that
 * way are capped per address. The same file runs against a cluster node
 * (tests/pg/test_pg.sh, withredis).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/daemon/check.h"
#include "tests/daemon/tclient.h"

#ifndef GOMOKUD_BIN
#define GOMOKUD_BIN "bin/gomokud"
#endif

enum { AWAY_KEEP_S = 3, GRACE_S = 2 };

/* CREATE on c: the room and code into room and code; 0 or -1. */
static int
create(struct tc *c, const char *args, char *room, char *code)
{
	tc_send(c, "CREATE %s", args);
	if (!tc_expect(c, "OK CREATE ", 3000))
		return -1;
	return sscanf(c->line, "OK CREATE %23s %63s", room, code) == 2 ? 0 : -1;
}

/* A new connection that RESUMEs token (in room, or "-"): the line that
 * ended the reply in c->line; the connection, or NULL. */
static struct tc *
resume(int port, const char *token, const char *room)
{
	struct tc *c = tc_open(port, 1);
	if (!c)
		return NULL;
	tc_send(c, "RESUME %s %s 0", token, room);
	while (tc_read(c, 3000))
		if (!strncmp(c->line, "OK RESUME", 9) || !strncmp(c->line, "ERR", 3))
			break;
	return c;
}

/* Reads c's lines until one starts with prefix, remembering whether a line
 * starting with seen came before it. */
static const char *
expect_after(struct tc *c, const char *seen, const char *prefix, int *was)
{
	*was = 0;
	while (tc_read(c, 3000)) {
		if (!strncmp(c->line, seen, strlen(seen)))
			*was = 1;
		if (!strncmp(c->line, prefix, strlen(prefix)))
			return c->line;
	}
	return NULL;
}

/* The creator drops while waiting; the friend joins meanwhile and is told
 * the creator is away; the game starts when the creator is back. */
static void
test_friend_joins_while_away(int port)
{
	struct tc *a = tc_guest(port, "amy"), *b = tc_guest(port, "bo");
	char room[24], code[64], token[80], pre[64];
	REQUIRE(a && b, "cannot connect");
	REQUIRE(create(a, "freestyle 15 60+0 black casual none", room, code) == 0, "CREATE: %s",
	    a->line);
	snprintf(token, sizeof token, "%s", a->token);
	tc_close(a);
	usleep(300 * 1000);

	tc_send(b, "JOIN %s", code);
	CHECK(tc_expect(b, "OK JOIN ", 3000), "the friend's JOIN while the creator is away: %s",
	    b->line);
	tc_send(b, "STATE %s", room);
	int was;
	snprintf(pre, sizeof pre, "= SEAT %s black amy gone ", room);
	const char *l = expect_after(b, pre, "OK STATE", &was);
	CHECK(l && was, "the friend's snapshot does not say the creator is away");
	snprintf(pre, sizeof pre, "* START %s", room);
	CHECK(!tc_expect(b, pre, 300), "the game started without its creator: %s", b->line);
	ok("a friend takes the seat of a private room whose creator is away, and sees them away");

	a = resume(port, token, room);
	REQUIRE(a, "cannot connect");
	CHECK(!strncmp(a->line, "OK RESUME", 9), "the creator's RESUME: %s", a->line);
	snprintf(pre, sizeof pre, "* START %s ", room);
	l = tc_expect(b, pre, 3000);
	CHECK(l && strstr(l, " amy bo freestyle "), "the friend's START: %s", l ? l : b->line);
	tc_send(a, "STATE %s", room);
	snprintf(pre, sizeof pre, "= ROOM %s playing ", room);
	CHECK(tc_expect(a, pre, 3000), "the creator's room after the RESUME: %s", a->line);
	tc_send(a, "MOVE %s h8", room);
	CHECK(tc_expect(a, "OK MOVE", 3000), "the creator's first move: %s", a->line);
	tc_close(a);
	tc_close(b);
	ok("the game starts when the creator is back, and is played");
}

/* The creator comes back alone: the snapshot has the code; a friend who
 * comes then starts the game at once. */
static void
test_resume_waiting_room(int port)
{
	struct tc *a = tc_guest(port, "cy");
	char room[24], code[64], token[80], pre[96];
	REQUIRE(a, "cannot connect");
	REQUIRE(
	    create(a, "freestyle 15 none any casual none", room, code) == 0, "CREATE: %s", a->line);
	snprintf(token, sizeof token, "%s", a->token);
	tc_close(a);
	usleep(300 * 1000);
	struct tc *a2 = tc_open(port, 1);
	REQUIRE(a2, "cannot connect");
	tc_send(a2, "RESUME %s %s 0", token, room);
	int was;
	snprintf(pre, sizeof pre, "= CODE %s %s", room, code);
	const char *l = expect_after(a2, pre, "OK RESUME", &was);
	CHECK(l && was, "the RESUMEd waiting room's snapshot has no = CODE line: %s", a2->line);
	struct tc *b = tc_guest(port, "dee");
	REQUIRE(b, "cannot connect");
	tc_send(b, "JOIN %s", code);
	snprintf(pre, sizeof pre, "* START %s ", room);
	CHECK(tc_expect(b, pre, 3000), "the friend's START: %s", b->line);
	CHECK(tc_expect(a2, pre, 3000), "the creator's START: %s", a2->line);
	tc_close(a2);
	tc_close(b);
	ok("RESUME puts the creator back in the waiting room with its code; the friend starts it");
}

/* Nobody comes back: at away-keep the room closes, the friend is told why,
 * the code is dead and the creator's token too. */
static void
test_room_closes(int port)
{
	struct tc *a = tc_guest(port, "eve"), *b = tc_guest(port, "fay");
	char room[24], code[64], token[80], pre[64];
	REQUIRE(a && b, "cannot connect");
	REQUIRE(create(a, "freestyle 15 none black casual none", room, code) == 0, "CREATE: %s",
	    a->line);
	snprintf(token, sizeof token, "%s", a->token);
	tc_close(a);
	usleep(300 * 1000);
	tc_send(b, "JOIN %s", code);
	REQUIRE(tc_expect(b, "OK JOIN ", 3000), "JOIN: %s", b->line);
	snprintf(pre, sizeof pre, "* CLOSED %s ", room);
	const char *l = tc_expect(b, pre, (AWAY_KEEP_S + 3) * 1000);
	CHECK(l && strstr(l, " away"), "the friend was not told the room closed: %s",
	    l ? l : b->line);
	tc_send(b, "SEEK freestyle 15 none any casual none");
	CHECK(tc_expect(b, "OK SEEK", 3000), "the friend is still seated somewhere: %s", b->line);
	tc_send(b, "CANCEL");
	CHECK(tc_expect(b, "OK CANCEL", 3000), "CANCEL: %s", b->line);
	struct tc *c = tc_guest(port, "gil");
	REQUIRE(c, "cannot connect");
	tc_send(c, "JOIN %s", code);
	CHECK(tc_expect(c, "ERR 422", 3000), "the closed room's code: %s", c->line);
	a = resume(port, token, room);
	REQUIRE(a, "cannot connect");
	CHECK(!strncmp(a->line, "ERR 448", 7), "the creator's RESUME after the room closed: %s",
	    a->line);
	tc_close(a);
	tc_close(b);
	tc_close(c);
	ok("a room whose creator never comes back closes at away-keep: the friend told, the code "
	   "dead");
}

/* A seek waits for its player: not listed or paired while away, back with
 * RESUME <token> - (its = SEEK line), then paired; at away-keep it ends. */
static void
test_seek(int port)
{
	struct tc *a = tc_guest(port, "hal"), *b = tc_guest(port, "ivy");
	char token[80];
	REQUIRE(a && b, "cannot connect");
	tc_send(a, "SEEK renju 15 none any casual none");
	REQUIRE(tc_expect(a, "OK SEEK", 3000), "SEEK: %s", a->line);
	snprintf(token, sizeof token, "%s", a->token);
	tc_close(a);
	usleep(300 * 1000);
	/* back alone: its seek is told as a = SEEK line of the reply */
	a = tc_open(port, 1);
	REQUIRE(a, "cannot connect");
	tc_send(a, "RESUME %s - 0", token);
	int was;
	const char *l = expect_after(a, "= SEEK ", "OK RESUME", &was);
	CHECK(l && !strcmp(l, "OK RESUME - 0") && was, "RESUME of a session with a seek: %s",
	    a->line);
	CHECK(strstr(a->line, "OK RESUME - 0") != NULL, "the reply: %s", a->line);
	tc_close(a);
	usleep(300 * 1000);

	tc_send(b, "SEEKS 1");
	l = expect_after(b, "= SEEK", "OK SEEKS", &was);
	CHECK(l && !was, "a seek whose player is away is listed: %s", b->line);
	tc_send(b, "SEEK renju 15 none any casual none");
	CHECK(tc_expect(b, "OK SEEK", 3000), "SEEK: %s", b->line);
	CHECK(!tc_expect(b, "* START", 300), "paired with a player away: %s", b->line);
	ok("a seek whose player is away is neither listed nor paired");

	/* back with a partner waiting: paired at once (* START before or after
	 * the OK, as the game's start is stored at once or on the store's
	 * thread) */
	a = tc_open(port, 1);
	REQUIRE(a, "cannot connect");
	tc_send(a, "RESUME %s - 0", token);
	int started = 0, resumed = 0;
	while ((!started || !resumed) && tc_read(a, 3000)) {
		started |= !strncmp(a->line, "* START", 7);
		resumed |= !strcmp(a->line, "OK RESUME - 0");
	}
	CHECK(started && resumed, "the seek back did not pair: %s", a->line);
	CHECK(tc_expect(b, "* START", 3000), "the other seek was not paired: %s", b->line);
	tc_close(a);
	tc_close(b);
	ok("RESUME <token> - brings the seek back (= SEEK), and it pairs");

	a = tc_guest(port, "jo");
	REQUIRE(a, "cannot connect");
	tc_send(a, "SEEK renju 15 none any casual none");
	REQUIRE(tc_expect(a, "OK SEEK", 3000), "SEEK: %s", a->line);
	snprintf(token, sizeof token, "%s", a->token);
	tc_close(a);
	usleep((AWAY_KEEP_S + 1) * 1000 * 1000);
	a = resume(port, token, "-");
	REQUIRE(a, "cannot connect");
	CHECK(!strncmp(a->line, "ERR 448", 7), "a session whose seek ended at away-keep: %s",
	    a->line);
	tc_close(a);
	ok("a seek left away past away-keep ends, and its session with it");
}

/* A challenge waits too: accepting it while the challenger is away is 450;
 * the challenger back is told it again, and it is accepted. */
static void
test_challenge(int port)
{
	struct tc *a = tc_guest(port, "kim"), *b = tc_guest(port, "lou");
	char token[80], id[16];
	REQUIRE(a && b, "cannot connect");
	tc_send(a, "CHALLENGE lou freestyle 15 none any casual none");
	REQUIRE(tc_expect(a, "OK CHALLENGE ", 3000), "CHALLENGE: %s", a->line);
	sscanf(a->line, "OK CHALLENGE %15s", id);
	REQUIRE(tc_expect(b, "* CHALLENGE ", 3000), "not told: %s", b->line);
	snprintf(token, sizeof token, "%s", a->token);
	tc_close(a);
	usleep(300 * 1000);
	tc_send(b, "ANSWER %s accept", id);
	CHECK(tc_expect(b, "ERR 450 away", 3000), "accepting while the challenger is away: %s",
	    b->line);
	a = tc_open(port, 1);
	REQUIRE(a, "cannot connect");
	tc_send(a, "RESUME %s - 0", token);
	int was;
	char pre[48];
	snprintf(pre, sizeof pre, "* CHALLENGE %s kim lou ", id);
	const char *l = expect_after(a, pre, "OK RESUME", &was);
	CHECK(l && was, "the challenge was not told again: %s", a->line);
	tc_send(b, "ANSWER %s accept", id);
	CHECK(tc_expect(b, "* START", 3000), "accepting once the challenger is back: %s", b->line);
	CHECK(tc_expect(a, "* START", 3000), "the challenger's START: %s", a->line);
	tc_close(a);
	tc_close(b);
	ok("a challenge waits for a challenger away (450), and is accepted when they are back");
}

/* An account's LOGIN on a new connection takes its waiting room back. */
static void
test_login_takes_room(int port)
{
	struct tc *a = tc_open(port, 1);
	char room[24], code[64], pre[48];
	REQUIRE(a, "cannot connect");
	tc_send(a, "REGISTER mona s3cret-pass");
	REQUIRE(tc_expect(a, "OK REGISTER", 5000), "REGISTER: %s", a->line);
	REQUIRE(
	    create(a, "standard 15 none any casual none", room, code) == 0, "CREATE: %s", a->line);
	tc_close(a);
	usleep(300 * 1000);
	a = tc_open(port, 1);
	REQUIRE(a, "cannot connect");
	tc_send(a, "LOGIN mona s3cret-pass");
	int was;
	snprintf(pre, sizeof pre, "* SEATED %s", room);
	const char *l = expect_after(a, pre, "OK LOGIN", &was);
	CHECK(l && was, "LOGIN did not bring the waiting room back: %s", a->line);
	struct tc *b = tc_guest(port, "ned");
	REQUIRE(b, "cannot connect");
	tc_send(b, "JOIN %s", code);
	snprintf(pre, sizeof pre, "* START %s ", room);
	CHECK(tc_expect(a, pre, 3000), "the game after the LOGIN: %s", a->line);
	tc_close(a);
	tc_close(b);
	ok("a LOGIN takes the account's waiting room back (* SEATED), and it starts");
}

/* WHO on c lists name, connected. */
static int
online(struct tc *c, const char *name)
{
	char want[64];
	snprintf(want, sizeof want, "= USER %s ", name);
	tc_send(c, "WHO");
	int seen = 0;
	while (tc_read(c, 3000) && strncmp(c->line, "OK WHO", 6) != 0)
		seen |= strncmp(c->line, want, strlen(want)) == 0;
	return seen;
}

/* A guest that held nothing keeps its name for the grace period after a
 * drop: RESUME <token> - takes it back (a reload, a network blip); a new
 * guest gets another name meanwhile; a GUEST or REGISTER of that name
 * takes it over; after the grace it is gone. */
static void
test_name_hold(int port)
{
	struct tc *a = tc_guest(port, "quin"), *w = tc_guest(port, "watcher");
	char token[80], name[32], pre[64];
	REQUIRE(a && w, "cannot connect");
	snprintf(token, sizeof token, "%s", a->token);
	tc_close(a);
	usleep(300 * 1000);
	a = resume(port, token, "-");
	REQUIRE(a, "cannot connect");
	CHECK(!strcmp(a->line, "OK RESUME - 0"), "quin's reconnect: %s", a->line);
	CHECK(online(w, "quin"), "quin is not online again");
	tc_close(a);
	usleep(300 * 1000);
	struct tc *b = tc_guest(port, "quin");
	CHECK(b != NULL, "a GUEST of a name held for a reconnect is refused");
	a = resume(port, token, "-");
	REQUIRE(a, "cannot connect");
	CHECK(!strncmp(a->line, "ERR 448", 7), "the held name, taken by GUEST, still resumed: %s",
	    a->line);
	tc_close(a);
	if (b)
		tc_close(b);
	ok("a guest's name waits for its reconnect (RESUME <token> -); a GUEST of it takes it "
	   "over");

	a = tc_open(port, 1);
	REQUIRE(a, "cannot connect");
	tc_send(a, "GUEST");
	REQUIRE(tc_expect(a, "OK GUEST ", 3000), "GUEST: %s", a->line);
	sscanf(a->line, "OK GUEST %31s %79s", name, token);
	tc_close(a);
	usleep(300 * 1000);
	b = tc_open(port, 1);
	REQUIRE(b, "cannot connect");
	tc_send(b, "GUEST");
	snprintf(pre, sizeof pre, "OK GUEST %s ", name);
	CHECK(tc_expect(b, "OK GUEST ", 3000) && strncmp(b->line, pre, strlen(pre)) != 0,
	    "a new guest got the held name %s: %s", name, b->line);
	a = resume(port, token, "-");
	REQUIRE(a, "cannot connect");
	CHECK(!strcmp(a->line, "OK RESUME - 0") && online(w, name), "%s's reconnect: %s", name,
	    a->line);
	tc_close(a);
	tc_close(b);
	usleep((GRACE_S + 1) * 1000 * 1000);
	a = resume(port, token, "-");
	REQUIRE(a, "cannot connect");
	CHECK(!strncmp(a->line, "ERR 448", 7), "a name held past the grace: %s", a->line);
	tc_close(a);
	tc_close(w);
	ok("a made-up guest name waits too: a new guest gets another; after the grace it is free");
}

/* A guest's name outlives a restart: its token takes it back
 * (RESUME <token> -), and a new guest after the restart is not given it. */
static void
test_guest_restart(void)
{
	static struct daemon d1, d2;
	char conf[300], token[80], name[32], token2[80], pre[64];
	REQUIRE(daemon_start(&d1, GOMOKUD_BIN, "") == 0, "no daemon (%s)", d1.log);
	struct tc *a = tc_guest(d1.port, "rhea"), *b = tc_open(d1.port, 1);
	REQUIRE(a && b, "cannot connect");
	snprintf(token, sizeof token, "%s", a->token);
	tc_send(b, "GUEST");
	REQUIRE(tc_expect(b, "OK GUEST ", 3000), "GUEST: %s", b->line);
	sscanf(b->line, "OK GUEST %31s %79s", name, token2);
	CHECK(daemon_stop(&d1, SIGTERM, 5000) == 0, "SIGTERM: not a clean exit");
	tc_close(a);
	tc_close(b);
	snprintf(conf, sizeof conf, "state-dir %s/state", d1.dir);
	REQUIRE(daemon_start(&d2, GOMOKUD_BIN, conf) == 0, "restart failed (%s)", d2.log);
	struct tc *n = tc_open(d2.port, 1);
	REQUIRE(n, "cannot connect");
	tc_send(n, "GUEST");
	snprintf(pre, sizeof pre, "OK GUEST %s ", name);
	CHECK(tc_expect(n, "OK GUEST ", 3000) && strncmp(n->line, pre, strlen(pre)) != 0,
	    "a new guest after the restart got %s's name: %s", name, n->line);
	a = resume(d2.port, token, "-");
	REQUIRE(a, "cannot connect");
	CHECK(!strcmp(a->line, "OK RESUME - 0") && online(n, "rhea"), "rhea after the restart: %s",
	    a->line);
	b = resume(d2.port, token2, "-");
	REQUIRE(b, "cannot connect");
	CHECK(!strcmp(b->line, "OK RESUME - 0") && online(n, name), "%s after the restart: %s",
	    name, b->line);
	tc_close(a);
	tc_close(b);
	tc_close(n);
	daemon_stop(&d2, SIGTERM, 5000);
	ok("guests keep their names across a restart (RESUME <token> -); a new guest gets another");
}

/* max-away-per-address 2: the third session of one address to drop with a
 * seek is not kept. */
static void
test_cap(void)
{
	static struct daemon d;
	REQUIRE(daemon_start(&d, GOMOKUD_BIN, "away-keep 30\nmax-away-per-address 2") == 0,
	    "no daemon (%s)", d.log);
	char tokens[3][80], name[8];
	for (int i = 0; i < 3; i++) {
		snprintf(name, sizeof name, "cap%d", i);
		struct tc *c = tc_guest(d.port, name);
		REQUIRE(c, "cannot connect");
		tc_send(c, "SEEK freestyle %d none any casual none", 10 + i);
		REQUIRE(tc_expect(c, "OK SEEK", 3000), "SEEK: %s", c->line);
		snprintf(tokens[i], sizeof tokens[i], "%s", c->token);
		tc_close(c);
		usleep(200 * 1000);
	}
	for (int i = 0; i < 3; i++) {
		struct tc *c = resume(d.port, tokens[i], "-");
		REQUIRE(c, "cannot connect");
		if (i < 2)
			CHECK(!strcmp(c->line, "OK RESUME - 0"), "session %d kept: %s", i, c->line);
		else
			CHECK(!strncmp(c->line, "ERR 448", 7), "the third was kept: %s", c->line);
		tc_close(c);
	}
	daemon_stop(&d, SIGTERM, 5000);
	ok("sessions kept away are capped per address (max-away-per-address)");
}

int
main(void)
{
	static struct daemon d;
	char conf[64];
	signal(SIGPIPE, SIG_IGN);
	snprintf(conf, sizeof conf, "away-keep %d\ngrace %d", AWAY_KEEP_S, GRACE_S);
	if (daemon_start(&d, GOMOKUD_BIN, conf) != 0) {
		printf("FAIL: the daemon did not start (%s)\n", d.log);
		return 1;
	}
	test_friend_joins_while_away(d.port);
	test_resume_waiting_room(d.port);
	test_room_closes(d.port);
	test_seek(d.port);
	test_challenge(d.port);
	test_login_takes_room(d.port);
	test_name_hold(d.port);
	daemon_stop(&d, SIGTERM, 5000);
	test_cap();
	test_guest_restart();
	printf("%s\n", failures ? "test_away: FAILED" : "test_away: all passed");
	return failures ? 1 : 0;
}
