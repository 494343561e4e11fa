/*
 * test_cluster_lobby.c: the lobby across nodes (issue 26, item 2): three
 * gomokud nodes on one redis-server and one PostgreSQL database (run by
 * tests/pg/test_pg.sh, which sets GOMOKU_PG_URL; without it the test
 * fails), real TLS clients. Two players on nodes a and b pair through
 * SEEK and play a game to its end, the one on b following * MOVED and
 * RESUMEing on a, while a spectator on node c sees every move; two seeks
 * from b and c racing for one seek on a pair exactly once; a cancelled
 * seek is not paired; a CHALLENGE from c to a user on a is accepted and
 * played; a challenge to a player in a game is refused (445); a JOIN
 * on b by the code of a private room on a seats the joiner there; a
 * claim of a stopped node's seek is given up, the claimer pairs on its
 * own node, and the stopped node's late pairing is aborted.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/daemon/check.h"
#include "tests/daemon/redisrun.h"
#include "tests/daemon/tclient.h"

#ifndef GOMOKUD_BIN
#define GOMOKUD_BIN "bin/gomokud"
#endif
#ifndef GOMOKUCTL_BIN
#define GOMOKUCTL_BIN "bin/gomokuctl"
#endif

enum { NODES = 3, WAIT_MS = 10000 };

enum { GRACE_S = 3 };

static struct daemon node[NODES];
static struct redisrun redis;
static char db[256];

static char grace[32]; /* "grace GRACE_S": test_never_came waits it out */
/* every node on the one database, with a short grace */
static const struct redis_nodes cl = { GOMOKUD_BIN, &redis, node, db, grace, NULL };

/* Reads c's lines until one starts with want or until stop: 1 for want,
 * 0 for stop (or nothing within ms). */
static int
before(struct tc *c, const char *want, const char *stop, int ms)
{
	const char *l;
	while ((l = tc_read(c, ms)) != NULL) {
		if (strncmp(l, want, strlen(want)) == 0)
			return 1;
		if (strncmp(l, stop, strlen(stop)) == 0)
			return 0;
	}
	return 0;
}

/* c follows * MOVED <room> <addr> (line): a new connection there that
 * RESUMEs with c's token; NULL on failure. room gets the room. */
static struct tc *
follow(struct tc *c, const char *line, char room[17])
{
	int port = 0;
	char want[64];
	if (sscanf(line, "* MOVED %16s 127.0.0.1:%d", room, &port) != 2)
		return NULL;
	struct tc *t = tc_open(port, 1);
	if (!t)
		return NULL;
	tc_send(t, "RESUME %s %s 0", c->token, room);
	snprintf(want, sizeof want, "OK RESUME %s ", room);
	if (!tc_expect(t, want, LINE_MS)) {
		printf("# RESUME after MOVED: %s\n", t->line);
		tc_close(t);
		return NULL;
	}
	snprintf(t->name, sizeof t->name, "%s", c->name);
	snprintf(t->token, sizeof t->token, "%s", c->token);
	return t;
}

/* who seeks (SEEK args); 1 once seer, on another node, lists the seek. */
static int
seek_seen(struct tc *who, const char *args, struct tc *seer)
{
	char want[48];
	tc_send(who, "SEEK %s", args);
	if (!tc_expect(who, "OK SEEK ", LINE_MS))
		return 0;
	snprintf(want, sizeof want, " %s ", who->name);
	return redis_lists(seer, "SEEKS", want, WAIT_MS);
}

/* One move by p; its seq, or 0. */
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

/* alice on a seeks; bob on b seeks the other colour: the room is on a,
 * bob is sent there and plays; carol on c watches every move. */
static void
test_seek_across(void)
{
	char room[17], moved_room[17], want[96];
	struct tc *alice = tc_guest(node[0].port, "alice"), *bob = tc_guest(node[1].port, "bob"),
		  *carol = tc_guest(node[2].port, "carol"), *jan = tc_guest(node[2].port, "jan");
	REQUIRE(alice && bob && carol && jan, "guests could not connect");
	CHECK(seek_seen(alice, "freestyle 15 none black casual none", bob),
	    "b's SEEKS never listed alice's seek on a");
	tc_send(bob, "SEEK freestyle 15 none white casual none");
	CHECK_LINE(bob, "OK SEEK ");
	const char *l = tc_expect(alice, "* START ", WAIT_MS);
	REQUIRE(
	    l && sscanf(l, "* START %16s", room) == 1, "alice not paired (last: %s)", alice->line);
	CHECK(room[0] == 'a', "the room %s is not on node a", room);
	snprintf(want, sizeof want, "* MOVED %s 127.0.0.1:%d", room, node[0].port);
	l = tc_expect(bob, want, WAIT_MS);
	REQUIRE(l, "bob got no \"%s\" (last: %s)", want, bob->line);
	struct tc *bob2 = follow(bob, l, moved_room);
	REQUIRE(bob2, "bob could not take his seat on a");
	tc_close(bob);
	snprintf(want, sizeof want, "* PRESENCE %s ", room);
	CHECK(tc_expect(alice, want, LINE_MS), "alice did not see bob arrive (last: %s)",
	    alice->line);
	/* a challenge to a player in a game is refused across nodes too */
	snprintf(want, sizeof want, "= USER alice playing %s", room);
	CHECK(redis_lists(jan, "WHO", want, WAIT_MS), "c's WHO never showed alice playing");
	tc_send(jan, "CHALLENGE alice freestyle 15 none any casual none");
	CHECK_LINE(jan, "ERR 445 ");
	tc_send(carol, "WATCH %s", room);
	snprintf(want, sizeof want, "OK WATCH %s ", room);
	CHECK_LINE(carol, want);
	/* the game's first stones, then a spectator on c asks the engine
	 * about its position: refused, as on a (ANALYSE's fair play) */
	static const char *const mv[] = { "h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4", "l8" };
	snprintf(want, sizeof want, "OK MOVE %s ", room);
	for (int i = 0; i < 9; i++) {
		struct tc *p = i % 2 ? bob2 : alice;
		char ev[64];
		tc_send(p, "MOVE %s %s", room, mv[i]);
		CHECK(tc_expect(p, want, LINE_MS), "move %s refused: %s", mv[i], p->line);
		snprintf(ev, sizeof ev, "* MOVE %s ", room);
		const char *e = tc_expect(carol, ev, LINE_MS);
		snprintf(ev, sizeof ev, " %s %s ", i % 2 ? "white" : "black", mv[i]);
		CHECK(e && strstr(e, ev), "carol missed%s: %s", ev, carol->line);
		if (i != 1)
			continue;
		char out[256];
		tc_ask(jan, "ANALYSE freestyle 15 h8,a1", out, sizeof out, WAIT_MS);
		CHECK(!strncmp(out, "ERR 452 ", 8) && strstr(out, room),
		    "c analysed a's game under way: %s", out);
		tc_ask(jan, "ANALYSE freestyle 15 h8,o1", out, sizeof out, WAIT_MS);
		CHECK(!strncmp(out, "ERR 452 ", 8) && strstr(out, room),
		    "c analysed a's game mirrored: %s", out);
		tc_ask(jan, "ANALYSE freestyle 15 h8,b1", out, sizeof out, WAIT_MS);
		CHECK(!strncmp(out, "OK ANALYSE", 10), "another position on c: %s", out);
	}
	snprintf(want, sizeof want, "* OVER %s ", room);
	CHECK(tc_expect(bob2, want, LINE_MS), "bob saw no OVER (last: %s)", bob2->line);
	CHECK(tc_expect(carol, want, LINE_MS), "carol saw no OVER (last: %s)", carol->line);
	tc_close(alice);
	tc_close(bob2);
	tc_close(carol);
	tc_close(jan);
	ok("SEEK pairs across nodes: b's player follows * MOVED to a and plays; c watches it, "
	   "and a spectator on c gets no analysis of it while it runs, mirrored or not");
}

/* pam seeks on a; quin on b takes that very seek from his list (TAKE):
 * the game is made on a, quin follows * MOVED there (then OK TAKE) and
 * they play; rex on c, taking it after, gets 424. */
static void
test_take_across(void)
{
	char room[17], moved_room[17], want[96], line[sizeof((struct tc *)0)->line];
	unsigned id = 0;
	struct tc *pam = tc_guest(node[0].port, "pam"), *quin = tc_guest(node[1].port, "quin"),
		  *rex = tc_guest(node[2].port, "rex");
	REQUIRE(pam && quin && rex, "guests could not connect");
	CHECK(seek_seen(pam, "renju 15 none black casual none human", quin),
	    "b's SEEKS never listed pam's seek on a");
	tc_send(quin, "SEEKS 1");
	const char *l;
	while ((l = tc_read(quin, LINE_MS)) && strncmp(l, "OK SEEKS", 8) != 0)
		if (strstr(l, " pam renju "))
			sscanf(l, "= SEEK %u", &id);
	REQUIRE(id, "no id for pam's seek in b's list");
	tc_send(quin, "TAKE %u pam", id);
	l = tc_expect(quin, "* MOVED ", WAIT_MS);
	REQUIRE(l, "quin was not sent to a (last: %s)", quin->line);
	snprintf(line, sizeof line, "%s", l);
	snprintf(want, sizeof want, "OK TAKE %u", id);
	CHECK_LINE(quin, want);
	l = tc_expect(pam, "* START ", WAIT_MS);
	REQUIRE(l && sscanf(l, "* START %16s", room) == 1, "pam's game did not start (last: %s)",
	    pam->line);
	CHECK(strstr(l, " pam quin renju 15 ") != NULL, "pam is not black as she asked: %s", l);
	snprintf(want, sizeof want, "* MOVED %s 127.0.0.1:%d", room, node[0].port);
	CHECK(strncmp(line, want, strlen(want)) == 0, "quin went elsewhere: %s", line);
	struct tc *quin2 = follow(quin, line, moved_room);
	REQUIRE(quin2, "quin could not take his seat on a");
	struct tc *const none[] = { NULL };
	CHECK(tc_play_five(pam, quin2, room, none) == 0, "%s", tc_why);
	tc_send(rex, "TAKE %u pam", id);
	CHECK_LINE(rex, "ERR 424 ");
	tc_close(pam);
	tc_close(quin);
	tc_close(quin2);
	tc_close(rex);
	ok("TAKE of another node's seek: the game made there, * MOVED then OK TAKE, played; a "
	   "seek gone is 424");
}

/* dave's seek on a; erin on b and fay on c seek for it at once: exactly
 * one is paired with dave, the other's seek stays open. */
static void
test_race(void)
{
	char want[96], room[17] = "";
	struct tc *dave = tc_guest(node[0].port, "dave"), *erin = tc_guest(node[1].port, "erin"),
		  *fay = tc_guest(node[2].port, "fay");
	REQUIRE(dave && erin && fay, "guests could not connect");
	tc_send(dave, "SEEK freestyle 15 none any casual none");
	CHECK_LINE(dave, "OK SEEK ");
	CHECK(redis_lists(erin, "SEEKS", " dave ", WAIT_MS), "b never listed dave's seek");
	CHECK(redis_lists(fay, "SEEKS", " dave ", WAIT_MS), "c never listed dave's seek");
	tc_send(erin, "SEEK freestyle 15 none any casual none");
	tc_send(fay, "SEEK freestyle 15 none any casual none");
	CHECK_LINE(erin, "OK SEEK ");
	CHECK_LINE(fay, "OK SEEK ");
	const char *l = tc_expect(dave, "* START ", WAIT_MS);
	REQUIRE(
	    l && sscanf(l, "* START %16s", room) == 1, "dave not paired (last: %s)", dave->line);
	/* the winner is sent to a; the loser's CANCEL finds its seek open */
	struct tc *won = NULL, *lost = NULL;
	snprintf(want, sizeof want, "* MOVED %s ", room);
	for (long long end = tc_now_ms() + WAIT_MS; !won && tc_now_ms() < end;) {
		if ((l = tc_read(erin, 100)) && strncmp(l, want, strlen(want)) == 0)
			won = erin, lost = fay;
		else if ((l = tc_read(fay, 100)) && strncmp(l, want, strlen(want)) == 0)
			won = fay, lost = erin;
	}
	REQUIRE(won, "neither erin nor fay was sent to %s", room);
	char line[sizeof won->line], moved_room[17];
	snprintf(line, sizeof line, "%s", won->line);
	tc_send(lost, "CANCEL");
	CHECK(!before(lost, "* MOVED ", "OK CANCEL", LINE_MS), "%s was paired too", lost->name);
	CHECK(strncmp(lost->line, "OK CANCEL", 9) == 0, "%s's CANCEL: %s", lost->name, lost->line);
	/* dave got one START only */
	tc_send(dave, "PING once");
	CHECK(!before(dave, "* START ", "OK PING once", LINE_MS), "dave was paired twice");
	struct tc *w2 = follow(won, line, moved_room);
	CHECK(w2, "%s could not take the seat on a", won->name);
	if (w2) {
		tc_send(w2, "RESIGN %s", room);
		snprintf(want, sizeof want, "OK RESIGN %s", room);
		CHECK_LINE(w2, want);
	}
	tc_close(w2);
	tc_close(dave);
	tc_close(erin);
	tc_close(fay);
	ok("two seeks from b and c racing for one seek on a: paired exactly once");
}

/* gus's seek on a, seen on b, is cancelled; hal's seek on b then is not
 * paired with it. */
static void
test_cancelled(void)
{
	struct tc *gus = tc_guest(node[0].port, "gus"), *hal = tc_guest(node[1].port, "hal");
	REQUIRE(gus && hal, "guests could not connect");
	CHECK(seek_seen(gus, "renju 15 none any casual none", hal), "b never listed gus's seek");
	tc_send(gus, "CANCEL");
	CHECK_LINE(gus, "OK CANCEL");
	tc_send(hal, "SEEK renju 15 none any casual none");
	CHECK_LINE(hal, "OK SEEK ");
	/* b may claim the listing it heard before the CANCEL: a refuses it */
	usleep(2500000);
	tc_send(hal, "CANCEL");
	CHECK(
	    !before(hal, "* MOVED ", "OK CANCEL", LINE_MS), "hal was paired with a cancelled seek");
	CHECK(strncmp(hal->line, "OK CANCEL", 9) == 0, "hal's CANCEL: %s", hal->line);
	tc_send(gus, "PING after");
	CHECK(!before(gus, "* START ", "OK PING after", LINE_MS), "gus was paired after CANCEL");
	tc_close(gus);
	tc_close(hal);
	ok("a cancelled seek is not paired across nodes");
}

/* jan on c challenges kim on a; kim accepts: the game is on a, jan is
 * sent there, and both play it out. */
static void
test_challenge(void)
{
	char want[128], room[17], moved_room[17];
	unsigned id = 0, kid = 0;
	struct tc *jan = tc_guest(node[2].port, "jan2"), *kim = tc_guest(node[0].port, "kim");
	REQUIRE(jan && kim, "guests could not connect");
	CHECK(redis_lists(jan, "WHO", "= USER kim idle", WAIT_MS), "c's WHO never listed kim");
	tc_send(jan, "CHALLENGE KIM freestyle 15 none black casual none");
	const char *l = tc_expect(jan, "OK CHALLENGE ", LINE_MS);
	REQUIRE(
	    l && sscanf(l, "OK CHALLENGE %u", &id) == 1, "no OK CHALLENGE (last: %s)", jan->line);
	l = tc_expect(kim, "* CHALLENGE ", WAIT_MS);
	REQUIRE(l && sscanf(l, "* CHALLENGE %u", &kid) == 1, "kim got no challenge (last: %s)",
	    kim->line);
	snprintf(
	    want, sizeof want, "* CHALLENGE %u jan2 kim freestyle 15 none black casual none", kid);
	CHECK(strcmp(l, want) == 0, "kim got \"%s\", not \"%s\"", l, want);
	tc_send(kim, "ANSWER %u accept", kid);
	l = tc_expect(kim, "* START ", LINE_MS);
	REQUIRE(l && sscanf(l, "* START %16s", room) == 1, "kim's game did not start (last: %s)",
	    kim->line);
	CHECK(room[0] == 'a', "the room %s is not on a", room);
	snprintf(want, sizeof want, "* CHALLENGEEND %u accepted", kid);
	CHECK_LINE(kim, want);
	snprintf(want, sizeof want, "OK ANSWER %u", kid);
	CHECK_LINE(kim, want);
	snprintf(want, sizeof want, "* CHALLENGEEND %u accepted", id);
	CHECK(tc_expect(jan, want, WAIT_MS), "jan: no \"%s\" (last: %s)", want, jan->line);
	snprintf(want, sizeof want, "* MOVED %s 127.0.0.1:%d", room, node[0].port);
	l = tc_expect(jan, want, LINE_MS);
	REQUIRE(l, "jan got no \"%s\" (last: %s)", want, jan->line);
	struct tc *jan2 = follow(jan, l, moved_room);
	REQUIRE(jan2, "jan could not take the seat on a");
	struct tc *const none[] = { NULL };
	CHECK(tc_play_five(jan2, kim, room, none) == 0, "%s", tc_why); /* jan asked for black */
	tc_close(jan);
	tc_close(jan2);
	tc_close(kim);
	ok("CHALLENGE/ANSWER across nodes: the game is on a, the challenger sent there, played");
}

/* A bot account on c (gomokuctl there, then BOTUPGRADE) challenges a
 * person on a who refuses bots' challenges (SET bot-challenges no): the
 * bot is told declined, she never sees it; she takes them again and the
 * next one reaches her (PROTOCOL.md 5.22). */
/* Whether req (WHO or WHO <room>) on c lists "= BOT name" right before
 * "= USER name ..." (bot 1), or that = USER line with no = BOT before it
 * (bot 0), within ms. */
static int
who_marks(struct tc *c, const char *req, const char *name, int bot, int ms)
{
	char mark[64], user[64];
	snprintf(mark, sizeof mark, "= BOT %s", name);
	snprintf(user, sizeof user, "= USER %s ", name);
	for (long long end = tc_now_ms() + ms; tc_now_ms() < end; usleep(200000)) {
		int marked = 0, hit = 0;
		const char *l;
		tc_send(c, "%s", req);
		while ((l = tc_read(c, 3000)) && strncmp(l, "OK WHO", 6) != 0) {
			if (!strncmp(l, user, strlen(user)) && marked == bot)
				hit = 1;
			marked = !strcmp(l, mark);
		}
		if (!l)
			return 0;
		if (hit)
			return 1;
	}
	return 0;
}

static void
test_bot_refused(void)
{
	char line[200], tok[80] = "";
	unsigned id = 0;
	struct tc *robo = tc_account(node[2].port, "robox", "secret99"),
		  *norah = tc_account(node[0].port, "norah", "secret99");
	REQUIRE(robo && norah, "accounts could not sign in");
	const char *const token[] = { "bot", "token", "robox", NULL };
	REQUIRE(tc_ctl(GOMOKUCTL_BIN, &node[2], line, sizeof line, token) == 0 &&
		sscanf(line, "%79s", tok) == 1,
	    "no bot token: %s", line);
	tc_send(robo, "BOTUPGRADE %s", tok);
	REQUIRE(tc_expect(robo, "OK BOTUPGRADE", LINE_MS), "no upgrade (last: %s)", robo->line);
	tc_send(norah, "SET bot-challenges no");
	REQUIRE(tc_expect(norah, "OK SET bot-challenges no", LINE_MS), "%s", norah->line);
	CHECK(redis_lists(robo, "WHO", "= USER norah idle", WAIT_MS), "c's WHO never listed norah");
	/* the bot account is marked on the other nodes too, she is not */
	CHECK(who_marks(norah, "WHO", "robox", 1, WAIT_MS), "a's WHO never marked robox a bot");
	CHECK(who_marks(robo, "WHO", "norah", 0, WAIT_MS), "c's WHO did not list norah unmarked");
	tc_send(robo, "CHALLENGE norah freestyle 15 none black casual none");
	const char *l = tc_expect(robo, "OK CHALLENGE ", LINE_MS);
	REQUIRE(
	    l && sscanf(l, "OK CHALLENGE %u", &id) == 1, "no OK CHALLENGE (last: %s)", robo->line);
	char want[80];
	snprintf(want, sizeof want, "* CHALLENGEEND %u declined", id);
	CHECK(tc_expect(robo, want, WAIT_MS), "the bot: no \"%s\" (last: %s)", want, robo->line);
	tc_send(norah, "PING");
	while ((l = tc_read(norah, LINE_MS)) && strncmp(l, "OK PING", 7) != 0)
		CHECK(strncmp(l, "* CHALLENGE", 11) != 0, "norah was shown it: %s", l);
	tc_send(norah, "SET bot-challenges yes");
	REQUIRE(tc_expect(norah, "OK SET bot-challenges yes", LINE_MS), "%s", norah->line);
	tc_send(robo, "CHALLENGE norah freestyle 15 none black casual none");
	CHECK(tc_expect(robo, "OK CHALLENGE ", LINE_MS), "no second OK (last: %s)", robo->line);
	CHECK(tc_expect(norah, "* CHALLENGE ", WAIT_MS), "norah got no challenge (last: %s)",
	    norah->line);
	tc_close(robo);
	tc_close(norah);
	ok("a bot account's CHALLENGE across nodes to someone who refuses bots: declined, unseen;"
	   " taken again, it reaches her; WHO on her node marks it = BOT");
}

/* The server's bot at a game on b: WHO and WHO <room> on a mark it
 * = BOT, the player beside it not. */
static void
test_who_bots(void)
{
	char room[24] = "", req[40];
	struct tc *p = tc_guest(node[1].port, "yann"), *q = tc_guest(node[0].port, "zed");
	REQUIRE(p && q, "guests could not connect");
	tc_send(p, "BOT play 1 freestyle 15 none black none");
	const char *l = tc_expect(p, "OK BOT ", LINE_MS);
	REQUIRE(l && sscanf(l, "OK BOT %23s", room) == 1, "no bot game on b (last: %s)", p->line);
	CHECK(who_marks(q, "WHO", "bot1", 1, WAIT_MS), "a's WHO never marked b's bot1");
	snprintf(req, sizeof req, "WHO %s", room);
	CHECK(who_marks(q, req, "bot1", 1, WAIT_MS), "a's WHO %s never marked bot1", room);
	CHECK(who_marks(q, req, "yann", 0, WAIT_MS), "a's WHO %s did not list yann unmarked", room);
	tc_send(p, "RESIGN %s", room);
	CHECK(tc_expect(p, "* OVER", LINE_MS), "no end (last: %s)", p->line);
	tc_close(p);
	tc_close(q);
	ok("WHO and WHO <room> on a mark the server's bot at b's game = BOT, its player not");
}

/* The bot account robox on two connections of c (a session each,
 * bot-max-conns): its LOGIN on a takes both over (* BYE takeover). */
static void
test_bot_conns_across(void)
{
	struct tc *r[2], *r3;
	for (int i = 0; i < 2; i++) {
		REQUIRE((r[i] = tc_open(node[2].port, 1)), "connect to c");
		tc_send(r[i], "LOGIN robox secret99");
		REQUIRE(tc_expect(r[i], "OK LOGIN robox ", LINE_MS), "LOGIN %d on c: %s", i + 1,
		    r[i]->line);
	}
	tc_send(r[0], "PING one");
	CHECK(tc_expect(r[0], "OK PING one", LINE_MS), "the second LOGIN took the first over: %s",
	    r[0]->line);
	REQUIRE((r3 = tc_open(node[0].port, 1)), "connect to a");
	tc_send(r3, "LOGIN robox secret99");
	CHECK(tc_expect(r3, "OK LOGIN robox ", LINE_MS), "LOGIN on a: %s", r3->line);
	for (int i = 0; i < 2; i++) {
		CHECK(tc_expect(r[i], "* BYE takeover", WAIT_MS), "c's connection %d: %s", i + 1,
		    r[i]->line);
		tc_close(r[i]);
	}
	tc_close(r3);
	ok("a bot account on two connections of c (a session each): its LOGIN on a takes both "
	   "over");
}

/* 1 once c's WHO no longer lists want (within ms). */
static int
unlisted(struct tc *c, const char *want, int ms)
{
	for (long long end = tc_now_ms() + ms; tc_now_ms() < end; usleep(200000)) {
		int seen = 0;
		const char *l;
		tc_send(c, "WHO");
		while ((l = tc_read(c, 3000)) && strncmp(l, "OK WHO ", 7) != 0)
			seen |= strstr(l, want) != NULL;
		if (!l)
			return 0;
		if (!seen)
			return 1;
	}
	return 0;
}

/* sol on b challenges toby on c and drops: the challenge waits for him
 * (toby's accept is 450 meanwhile); sol back (RESUME <token> -) is told
 * it again, and toby's accept starts their game on c, sol sent there. */
static void
test_challenge_away(void)
{
	unsigned id = 0, kid = 0;
	char want[96], token[80], room[17], moved_room[17];
	struct tc *sol = tc_guest(node[1].port, "sol"), *tom = tc_guest(node[2].port, "toby");
	REQUIRE(sol && tom, "guests could not connect");
	CHECK(redis_lists(sol, "WHO", "= USER toby idle", WAIT_MS), "b's WHO never listed tom");
	tc_send(sol, "CHALLENGE toby freestyle 15 none black casual none");
	const char *l = tc_expect(sol, "OK CHALLENGE ", LINE_MS);
	REQUIRE(l && sscanf(l, "OK CHALLENGE %u", &id) == 1, "no OK CHALLENGE (%s)", sol->line);
	l = tc_expect(tom, "* CHALLENGE ", WAIT_MS);
	REQUIRE(l && sscanf(l, "* CHALLENGE %u", &kid) == 1, "toby got none (%s)", tom->line);
	snprintf(token, sizeof token, "%s", sol->token);
	/* c has seen sol online, then sees him gone: b has kept his session
	 * away by then, and told c so before its presence without him */
	CHECK(redis_lists(tom, "WHO", "= USER sol idle", WAIT_MS), "c's WHO never listed sol");
	tc_close(sol);
	CHECK(unlisted(tom, "= USER sol ", WAIT_MS), "c's WHO still lists sol away");
	tc_send(tom, "ANSWER %u accept", kid);
	CHECK_LINE(tom, "ERR 450 away");
	sol = tc_open(node[1].port, 1);
	REQUIRE(sol, "could not connect to b");
	tc_send(sol, "RESUME %s - 0", token);
	snprintf(
	    want, sizeof want, "* CHALLENGE %u sol toby freestyle 15 none black casual none", id);
	CHECK_LINE(sol, want);
	CHECK_LINE(sol, "OK RESUME - 0");
	snprintf(sol->token, sizeof sol->token, "%s", token);
	CHECK(redis_lists(tom, "WHO", "= USER sol idle", WAIT_MS), "c's WHO never listed sol back");
	tc_send(tom, "ANSWER %u accept", kid);
	l = tc_expect(tom, "* START ", LINE_MS);
	REQUIRE(
	    l && sscanf(l, "* START %16s", room) == 1, "toby's game did not start (%s)", tom->line);
	snprintf(want, sizeof want, "* MOVED %s 127.0.0.1:%d", room, node[2].port);
	l = tc_expect(sol, want, WAIT_MS);
	REQUIRE(l, "sol got no \"%s\" (last: %s)", want, sol->line);
	struct tc *sol2 = follow(sol, l, moved_room);
	REQUIRE(sol2, "sol could not take his seat on c");
	struct tc *const none[] = { NULL };
	CHECK(tc_play_five(sol2, tom, room, none) == 0, "%s", tc_why); /* sol asked for black */
	tc_close(sol);
	tc_close(sol2);
	tc_close(tom);
	ok("a challenge across nodes waits for its challenger away (450), is told again when he is"
	   " back, and is accepted then");
}

/* A challenge across nodes declined, and one withdrawn: both sides hear
 * how it ended. */
static void
test_challenge_ends(void)
{
	unsigned id = 0, kid = 0;
	char want[64];
	struct tc *lea = tc_guest(node[1].port, "lea"), *max = tc_guest(node[2].port, "max");
	REQUIRE(lea && max, "guests could not connect");
	CHECK(redis_lists(lea, "WHO", "= USER max idle", WAIT_MS), "b's WHO never listed max");
	tc_send(lea, "CHALLENGE max standard 15 none any casual none");
	const char *l = tc_expect(lea, "OK CHALLENGE ", LINE_MS);
	REQUIRE(l && sscanf(l, "OK CHALLENGE %u", &id) == 1, "no OK CHALLENGE (%s)", lea->line);
	tc_send(lea, "CHALLENGE max standard 15 none any casual none");
	CHECK_LINE(lea, "ERR 442 ");
	l = tc_expect(max, "* CHALLENGE ", WAIT_MS);
	REQUIRE(l && sscanf(l, "* CHALLENGE %u", &kid) == 1, "max got none (%s)", max->line);
	tc_send(max, "ANSWER %u decline", kid);
	snprintf(want, sizeof want, "* CHALLENGEEND %u declined", kid);
	CHECK_LINE(max, want);
	snprintf(want, sizeof want, "* CHALLENGEEND %u declined", id);
	CHECK(tc_expect(lea, want, WAIT_MS), "lea: no \"%s\" (%s)", want, lea->line);
	tc_send(lea, "CHALLENGE max standard 15 none any casual none");
	l = tc_expect(lea, "OK CHALLENGE ", LINE_MS);
	REQUIRE(l && sscanf(l, "OK CHALLENGE %u", &id) == 1, "no OK CHALLENGE (%s)", lea->line);
	l = tc_expect(max, "* CHALLENGE ", WAIT_MS);
	REQUIRE(l && sscanf(l, "* CHALLENGE %u", &kid) == 1, "max got none (%s)", max->line);
	tc_send(lea, "ANSWER %u decline", id);
	snprintf(want, sizeof want, "* CHALLENGEEND %u withdrawn", id);
	CHECK_LINE(lea, want);
	snprintf(want, sizeof want, "* CHALLENGEEND %u withdrawn", kid);
	CHECK(tc_expect(max, want, WAIT_MS), "max: no \"%s\" (%s)", want, max->line);
	tc_send(max, "ANSWER %u accept", kid);
	CHECK_LINE(max, "ERR 423 ");
	/* a rated one from an account to max, a guest of another node: his
	 * accept is refused (417), the challenge stays open to decline */
	struct tc *ria = tc_open(node[1].port, 1);
	REQUIRE(ria, "could not connect to b");
	tc_send(ria, "REGISTER ria pass-of-ria");
	REQUIRE(tc_expect(ria, "OK REGISTER ria ", LINE_MS), "no account (last: %s)", ria->line);
	tc_send(ria, "CHALLENGE max freestyle 15 none any rated none");
	l = tc_expect(ria, "OK CHALLENGE ", LINE_MS);
	REQUIRE(l && sscanf(l, "OK CHALLENGE %u", &id) == 1, "no OK CHALLENGE (%s)", ria->line);
	l = tc_expect(max, "* CHALLENGE ", WAIT_MS);
	REQUIRE(l && sscanf(l, "* CHALLENGE %u", &kid) == 1, "max got none (%s)", max->line);
	tc_send(max, "ANSWER %u accept", kid);
	CHECK_LINE(max, "ERR 417 account-only ");
	tc_send(max, "ANSWER %u decline", kid);
	snprintf(want, sizeof want, "* CHALLENGEEND %u declined", id);
	CHECK(tc_expect(ria, want, WAIT_MS), "ria: no \"%s\" (%s)", want, ria->line);
	tc_close(ria);
	tc_close(lea);
	tc_close(max);
	ok("a challenge across nodes declined, or withdrawn: both sides hear it; a guest's accept"
	   " of a rated one is 417");
}

/* A private room on a, joined by its code from b: the joiner is sent
 * there and plays; a code no node has is 422. */
static void
test_join_code(void)
{
	char room[17], code[40], want[96], moved_room[17];
	struct tc *ned = tc_guest(node[0].port, "ned"), *ola = tc_guest(node[1].port, "ola");
	REQUIRE(ned && ola, "guests could not connect");
	CHECK(redis_lists(ola, "WHO", "= USER ned idle", WAIT_MS), "b's WHO never listed ned");
	tc_send(ned, "CREATE freestyle 15 none white casual none");
	const char *l = tc_expect(ned, "OK CREATE ", LINE_MS);
	REQUIRE(l && sscanf(l, "OK CREATE %16s %39s", room, code) == 2, "no room (%s)", ned->line);
	tc_send(ola, "JOIN %s", code);
	snprintf(want, sizeof want, "* MOVED %s 127.0.0.1:%d", room, node[0].port);
	l = tc_expect(ola, want, WAIT_MS);
	REQUIRE(l, "ola got no \"%s\" (last: %s)", want, ola->line);
	char line[sizeof ola->line];
	snprintf(line, sizeof line, "%s", l);
	snprintf(want, sizeof want, "OK JOIN %s", room);
	CHECK_LINE(ola, want);
	snprintf(want, sizeof want, "* START %s ", room);
	CHECK(tc_expect(ned, want, LINE_MS), "ned's game did not start (%s)", ned->line);
	struct tc *ola2 = follow(ola, line, moved_room);
	REQUIRE(ola2, "ola could not take the seat on a");
	struct tc *const none[] = { NULL };
	CHECK(tc_play_five(ola2, ned, room, none) == 0, "%s", tc_why); /* ned asked for white */
	tc_send(ola, "JOIN NoSuchCode12345");
	CHECK_LINE(ola, "ERR 422 ");
	tc_close(ola);
	tc_close(ola2);
	tc_close(ned);
	ok("JOIN by code of another node's private room: sent there, the game is played");
}

/* tom's seek on a pairs with uma's on b, and uma never takes her seat
 * (her client drops * MOVED, as when the claim's answer is lost and she
 * never hears of the game): when the grace ends, tom's game is aborted,
 * not his to claim as a win. */
static void
test_never_came(void)
{
	char room[17], want[64];
	struct tc *tom = tc_guest(node[0].port, "tom"), *uma = tc_guest(node[1].port, "uma");
	REQUIRE(tom && uma, "guests could not connect");
	REQUIRE(seek_seen(tom, "freestyle 15 none black casual none", uma),
	    "b never listed tom's seek");
	tc_send(uma, "SEEK freestyle 15 none white casual none");
	CHECK_LINE(uma, "OK SEEK ");
	const char *l = tc_expect(tom, "* START ", WAIT_MS);
	REQUIRE(l && sscanf(l, "* START %16s", room) == 1, "tom not paired (last: %s)", tom->line);
	CHECK(tc_expect(uma, "* MOVED ", WAIT_MS), "uma was not sent to a (last: %s)", uma->line);
	tc_close(uma);
	CHECK(move(tom, room, "h8") > 0, "tom's first move refused (last: %s)", tom->line);
	tc_send(tom, "CLAIM %s", room);
	CHECK_LINE(tom, "ERR ");
	snprintf(want, sizeof want, "* OVER %s ", room);
	l = tc_expect(tom, want, (GRACE_S + 3) * 1000);
	CHECK(l && strstr(l, " aborted"),
	    "the game of a player who never came was not aborted "
	    "(last: %s)",
	    tom->line);
	tc_close(tom);
	ok("a player paired across nodes who never takes his seat: the game is aborted after the "
	   "grace");
}

/* vic, an account, plays on a; his LOGIN on b takes his session over: a
 * closes his old connection (* BYE takeover), b sends him to his seat on a
 * (* MOVED), where the token of b's LOGIN resumes it, and he plays on. */
static void
test_login_elsewhere(void)
{
	char room[17], moved_room[17], want[64];
	struct tc *vic = tc_open(node[0].port, 1), *wyn = tc_guest(node[0].port, "wyn");
	REQUIRE(vic && wyn, "could not connect");
	tc_send(vic, "REGISTER vic pass-vic");
	REQUIRE(tc_expect(vic, "OK REGISTER vic ", LINE_MS), "no account (last: %s)", vic->line);
	tc_send(vic, "SEEK freestyle 15 none black casual none");
	CHECK_LINE(vic, "OK SEEK ");
	tc_send(wyn, "SEEK freestyle 15 none white casual none");
	CHECK_LINE(wyn, "OK SEEK ");
	const char *l = tc_expect(vic, "* START ", WAIT_MS);
	REQUIRE(l && sscanf(l, "* START %16s", room) == 1, "vic not paired (last: %s)", vic->line);
	CHECK(move(vic, room, "h8") > 0, "vic's move refused (last: %s)", vic->line);
	struct tc *away = tc_open(node[1].port, 1);
	REQUIRE(away, "could not connect to b");
	tc_send(away, "LOGIN vic pass-vic");
	l = tc_expect(away, "OK LOGIN vic ", LINE_MS);
	REQUIRE(l && sscanf(l, "OK LOGIN vic %79s", away->token) == 1, "no LOGIN on b (last: %s)",
	    away->line);
	snprintf(away->name, sizeof away->name, "vic");
	CHECK(tc_expect(vic, "* BYE takeover", WAIT_MS),
	    "vic's connection on a was not taken "
	    "over (last: %s)",
	    vic->line);
	snprintf(want, sizeof want, "* MOVED %s 127.0.0.1:%d", room, node[0].port);
	l = tc_expect(away, want, WAIT_MS);
	REQUIRE(l, "b did not send vic to his seat: no \"%s\" (last: %s)", want, away->line);
	char moved[128];
	snprintf(moved, sizeof moved, "%s", l);
	/* a client that stays on b, * MOVED or not, is seated for fair play */
	tc_send(away, "ANALYSE freestyle 15 h8");
	l = tc_expect(away, "ERR ", LINE_MS);
	CHECK(l && !strncmp(l, "ERR 452 ", 8) && strstr(l, room),
	    "b analysed for vic, seated on a (last: %s)", away->line);
	struct tc *back = follow(away, moved, moved_room);
	REQUIRE(back, "vic could not take his seat back on a with b's token");
	CHECK(move(wyn, room, "a1") > 0, "wyn's move refused (last: %s)", wyn->line);
	CHECK(move(back, room, "i8") > 0, "vic's move after the takeover refused (last: %s)",
	    back->line);
	snprintf(want, sizeof want, "* MOVE %s ", room);
	CHECK(tc_expect(wyn, want, LINE_MS) && strstr(wyn->line, " i8 "),
	    "wyn did not see vic's move (last: %s)", wyn->line);
	tc_close(vic);
	tc_close(away);
	tc_close(back);
	tc_close(wyn);
	ok("LOGIN on b of an account playing on a: a's connection taken over, * MOVED to the seat, "
	   "no analysis on b, play goes on");
}

/* Node a stops (SIGSTOP) with a seek open: quin's claim of it on b goes
 * unanswered, and rae's seek on b meanwhile does not pair with quin's
 * held seek; when the claim is given up, quin and rae pair on b. When a
 * wakes it pairs its seek with quin's claim, which b no longer wants: a
 * aborts that game. */
static void
test_dead_node(void)
{
	char want[64], r1[17] = "", r2[17] = "", pr[17] = "";
	struct tc *pia = tc_guest(node[0].port, "pia"), *quin = tc_guest(node[1].port, "quin"),
		  *rae = tc_guest(node[1].port, "rae");
	REQUIRE(pia && quin && rae, "guests could not connect");
	REQUIRE(
	    seek_seen(pia, "standard 15 none any casual none", quin), "b never listed pia's seek");
	REQUIRE(kill(node[0].pid, SIGSTOP) == 0, "cannot stop a");
	tc_send(quin, "SEEK standard 15 none any casual none");
	tc_send(rae, "SEEK standard 15 none any casual none");
	CHECK_LINE(quin, "OK SEEK ");
	CHECK_LINE(rae, "OK SEEK ");
	const char *l = tc_expect(quin, "* START ", WAIT_MS);
	CHECK(l && sscanf(l, "* START %16s", r1) == 1, "quin not paired (last: %s)", quin->line);
	l = tc_expect(rae, "* START ", LINE_MS);
	CHECK(l && sscanf(l, "* START %16s", r2) == 1, "rae not paired (last: %s)", rae->line);
	CHECK(r1[0] == 'b' && strcmp(r1, r2) == 0, "quin in %s, rae in %s: not one room on b", r1,
	    r2);
	CHECK(kill(node[0].pid, SIGCONT) == 0, "cannot wake a");
	l = tc_expect(pia, "* START ", WAIT_MS);
	CHECK(l && sscanf(l, "* START %16s", pr) == 1, "a did not pair the late claim (last: %s)",
	    pia->line);
	snprintf(want, sizeof want, "* OVER %s ", pr);
	l = tc_expect(pia, want, WAIT_MS);
	CHECK(l && strstr(l, " aborted"), "pia's game for quin was not aborted (last: %s)",
	    pia->line);
	tc_send(quin, "PING end");
	CHECK(!before(quin, "* MOVED ", "OK PING end", LINE_MS), "quin was sent to a too");
	tc_close(pia);
	tc_close(quin);
	tc_close(rae);
	ok("a stopped node's seek: the claim is given up, the seek pairs here, the late pairing "
	   "there aborted");
}

int
main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	int code;
	if (redis_guard(&redis, &code) != 0)
		return code;
	int rc = tc_pg_database("globby", db, sizeof db);
	if (rc != 0) {
		printf(rc > 0 ? "FAIL: the lobby across nodes needs the shared database: run it "
				"under tests/pg/test_pg.sh\n"
			      : "FAIL: cannot create the cluster's database\n");
		return 1;
	}
	snprintf(grace, sizeof grace, "grace %d\n", GRACE_S);
	if (redis_nodes_up(&cl, NODES) != 0)
		return 1;
	test_seek_across();
	test_race();
	test_cancelled();
	test_challenge();
	test_bot_refused();
	test_who_bots();
	test_bot_conns_across();
	test_challenge_ends();
	test_join_code();
	test_take_across();
	test_challenge_away();
	test_never_came();
	test_login_elsewhere();
	test_dead_node(); /* last: it stops node a for a while */
	return redis_finish(&redis, node, NODES, 0, failures);
}
