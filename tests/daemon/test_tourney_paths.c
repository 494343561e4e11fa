/*
 * test_tourney_paths: the ways people leave and come back in a
 * tournament's game (PROTOCOL.md sections 3, 5.9 and 5.21), on the real
 * bin/gomokud. Six accounts play a Swiss of 2 rounds, 30+0 (so the grace
 * is 3 s, a tenth of the base time); round 1's three games each take one
 * path:
 * - board 1: the first player LOGINs on a second device after a stone
 *   each: the first connection gets * BYE takeover and is closed, the
 *   new one * SEATED <room> before its OK LOGIN, then plays the game to
 *   its five; the pairing's result is "first";
 * - board 2: the first player's connection drops (no close_notify: a
 *   phone switching apps); the opponent sees * PRESENCE ... gone; the
 *   player RESUMEs with its token within the grace and plays to its
 *   five; the result is "first";
 * - board 3: the second player drops and never comes back: a CLAIM
 *   within the grace is 447, after it the claim ends the game
 *   "abandoned" and the pairing's result is "first".
 * Then round 2 is paired all the same: the player who left, not
 *   connected, forfeits its game there; the others' seconds resign; the
 *   event ends, and every player's points are what its results give.
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

enum { NP = 6, NG = 16, GRACE_MS = 3000 };

/* The pairings the host saw, by (round, board). */
static struct {
	int round, board;
	char room[24], first[24], second[24], result[24];
} g[NG];
static int ng, over;
static long tid;

static void
take(const char *l)
{
	long id;
	int round, board;
	char room[24], first[24], second[24], result[24], kind[16], state[16];
	if (sscanf(l, "* TGAME %ld %d %d %23s %23s %23s %23s", &id, &round, &board, room, first,
		second, result) == 7 &&
	    id == tid) {
		int i;
		for (i = 0; i < ng; i++)
			if (g[i].round == round && g[i].board == board)
				break;
		if (i == NG)
			return;
		if (i == ng)
			ng++;
		g[i].round = round;
		g[i].board = board;
		snprintf(g[i].room, sizeof g[i].room, "%s", room);
		snprintf(g[i].first, sizeof g[i].first, "%s", first);
		snprintf(g[i].second, sizeof g[i].second, "%s", second);
		snprintf(g[i].result, sizeof g[i].result, "%s", result);
	} else if (sscanf(l, "* TOURNEY %ld %15s %15s", &id, kind, state) == 3 && id == tid &&
	    !strcmp(state, "over")) {
		over = 1;
	}
}

/* The pairing of round r, board b, once it has a room (or a result, when
 * any is 1), read from host within ms: its index, or -1. */
static int
pairing(struct tc *host, int r, int b, int any, int ms)
{
	long long end = tc_now_ms() + ms;
	for (;;) {
		for (int i = 0; i < ng; i++)
			if (g[i].round == r && g[i].board == b &&
			    (strcmp(g[i].room, "-") != 0 ||
				(any && strcmp(g[i].result, "pending") != 0)))
				return i;
		if (tc_now_ms() >= end)
			return -1;
		const char *l = tc_read(host, 500);
		if (l)
			take(l);
	}
}

/* The result of pairing i once it has one, within ms: it, or "pending". */
static const char *
result(struct tc *host, int i, int ms)
{
	long long end = tc_now_ms() + ms;
	while (!strcmp(g[i].result, "pending") && tc_now_ms() < end) {
		const char *l = tc_read(host, 500);
		if (l)
			take(l);
	}
	return g[i].result;
}

static struct tc *p[NP];

static int
index_of(const char *name)
{
	for (int i = 0; i < NP; i++)
		if (!strcmp(p[i]->name, name))
			return i;
	return -1;
}

/* c's MOVE in room answered OK MOVE. */
static int
move(struct tc *c, const char *room, const char *point)
{
	tc_send(c, "MOVE %s %s", room, point);
	const char *a = tc_move_answer(c, LINE_MS);
	if (!a || strncmp(a, "OK MOVE", 7) != 0) {
		printf("# %s: MOVE %s %s: %s\n", c->name, room, point, a ? a : "nothing");
		return -1;
	}
	return 0;
}

/* Black plays i8 to l8 against white's a2 to a4 after h8 and a1: five. */
static int
to_five(struct tc *black, struct tc *white, const char *room)
{
	static const char *const b[] = { "i8", "j8", "k8", "l8" },
				 *const w[] = { "a2", "a3", "a4" };
	for (int k = 0; k < 4; k++)
		if (move(black, room, b[k]) != 0 || (k < 3 && move(white, room, w[k]) != 0))
			return -1;
	return 0;
}

static void
run(void)
{
	static struct daemon d;
	REQUIRE(daemon_start(&d, GOMOKUD_BIN, "grace 1\nmax-per-address 100\n") == 0,
	    "gomokud did not start");
	char out[256], line[96], want[64];
	struct tc *host = tc_account(d.port, "pathhost", "s3cret-pass");
	REQUIRE(host, "host");
	tc_ask(host, "TCREATE swiss freestyle 15 30+0 none casual people 5 2 Paths", out,
	    sizeof out, LINE_MS);
	REQUIRE(sscanf(out, "OK TCREATE %ld", &tid) == 1, "TCREATE: %s", out);
	snprintf(line, sizeof line, "TJOIN %ld", tid);
	for (int i = 0; i < NP; i++) {
		char name[8];
		snprintf(name, sizeof name, "pp%d", i + 1);
		REQUIRE((p[i] = tc_account(d.port, name, "s3cret-pass")), "%s", name);
		tc_ask(p[i], line, out, sizeof out, LINE_MS);
		REQUIRE(!strncmp(out, "OK TJOIN ", 9), "%s: %s", name, out);
	}
	int gi[3];
	for (int b = 0; b < 3; b++)
		REQUIRE((gi[b] = pairing(host, 1, b + 1, 0, 20000)) >= 0,
		    "round 1 board %d: no game", b + 1);
	int f[3], s[3];
	for (int b = 0; b < 3; b++) {
		f[b] = index_of(g[gi[b]].first);
		s[b] = index_of(g[gi[b]].second);
		REQUIRE(f[b] >= 0 && s[b] >= 0, "round 1 board %d: %s-%s", b + 1, g[gi[b]].first,
		    g[gi[b]].second);
		REQUIRE(move(p[f[b]], g[gi[b]].room, "h8") == 0 &&
			move(p[s[b]], g[gi[b]].room, "a1") == 0,
		    "round 1 board %d: the first stones", b + 1);
	}

	/* board 3: the second player goes for good */
	const char *room3 = g[gi[2]].room;
	struct tc *stayer = p[f[2]];
	char gone_name[32];
	snprintf(gone_name, sizeof gone_name, "%s", p[s[2]]->name);
	tc_close(p[s[2]]);
	p[s[2]] = NULL;
	long long gone_at = tc_now_ms();
	snprintf(want, sizeof want, "* PRESENCE %s ", room3);
	const char *l = tc_expect(stayer, want, LINE_MS);
	CHECK(
	    l && strstr(l, gone_name) && strstr(l, " gone "), "board 3: %s", l ? l : "no PRESENCE");
	snprintf(line, sizeof line, "CLAIM %s", room3);
	tc_ask(stayer, line, out, sizeof out, LINE_MS);
	CHECK(!strncmp(out, "ERR 447 ", 8), "a claim within the grace: %s", out);

	/* board 1: a second device takes the first player's session over */
	const char *room1 = g[gi[0]].room;
	struct tc *dev2 = tc_open(d.port, 1);
	REQUIRE(dev2, "second device");
	snprintf(dev2->name, sizeof dev2->name, "%s", p[f[0]]->name);
	snprintf(line, sizeof line, "LOGIN %s s3cret-pass", dev2->name);
	tc_send(dev2, "%s", line);
	int seated = 0;
	while ((l = tc_read(dev2, LINE_MS)) && strncmp(l, "OK LOGIN", 8) != 0 &&
	    strncmp(l, "ERR", 3) != 0) {
		snprintf(want, sizeof want, "* SEATED %s", room1);
		seated |= !strcmp(l, want);
	}
	CHECK(l && !strncmp(l, "OK LOGIN", 8) && seated,
	    "the second device's LOGIN: %s, * SEATED %s %s", l ? l : "nothing", room1,
	    seated ? "before it" : "not said");
	CHECK(tc_expect(p[f[0]], "* BYE takeover", LINE_MS),
	    "the first device: no * BYE takeover "
	    "(last: %s)",
	    p[f[0]]->line);
	CHECK(tc_closed(p[f[0]], LINE_MS), "the first device still connected");
	tc_close(p[f[0]]);
	p[f[0]] = dev2;
	CHECK(to_five(dev2, p[s[0]], room1) == 0,
	    "board 1: the game not played out on the "
	    "second device");
	CHECK(!strcmp(result(host, gi[0], LINE_MS), "first"), "board 1's result: %s",
	    g[gi[0]].result);
	ok("a second device's LOGIN mid-game: * BYE takeover to the first, * SEATED to the new "
	   "one, which plays it to its end; the result counts");

	/* board 2: the first player's connection drops, it comes back */
	const char *room2 = g[gi[1]].room;
	char token[80], name2[32];
	snprintf(token, sizeof token, "%s", p[f[1]]->token);
	snprintf(name2, sizeof name2, "%s", p[f[1]]->name);
	tc_close(p[f[1]]);
	snprintf(want, sizeof want, "* PRESENCE %s ", room2);
	l = tc_expect(p[s[1]], want, LINE_MS);
	CHECK(l && strstr(l, name2) && strstr(l, " gone "), "board 2: %s", l ? l : "no PRESENCE");
	usleep(500 * 1000);
	struct tc *back = tc_open(d.port, 1);
	REQUIRE(back, "reconnect");
	snprintf(back->name, sizeof back->name, "%s", name2);
	snprintf(back->token, sizeof back->token, "%s", token);
	snprintf(line, sizeof line, "RESUME %s %s 0", token, room2);
	tc_send(back, "%s", line);
	snprintf(want, sizeof want, "OK RESUME %s ", room2);
	CHECK(tc_expect(back, want, LINE_MS), "RESUME within the grace: %s", back->line);
	p[f[1]] = back;
	snprintf(want, sizeof want, "* PRESENCE %s ", room2);
	l = tc_expect(p[s[1]], want, LINE_MS);
	CHECK(l && strstr(l, name2) && strstr(l, " back "), "board 2: %s",
	    l ? l : "no PRESENCE back");
	CHECK(to_five(back, p[s[1]], room2) == 0,
	    "board 2: the game not played out after the "
	    "RESUME");
	CHECK(!strcmp(result(host, gi[1], LINE_MS), "first"), "board 2's result: %s",
	    g[gi[1]].result);
	ok("a connection dropped mid-game and RESUMEd within the grace: the game finished, its "
	   "result counts");

	/* board 3: after the grace the claim ends it */
	long long wait = gone_at + GRACE_MS + 200 - tc_now_ms();
	if (wait > 0)
		usleep((useconds_t)wait * 1000);
	long long end = tc_now_ms() + 5000;
	do {
		char claim[48];
		snprintf(claim, sizeof claim, "CLAIM %s", room3);
		tc_ask(stayer, claim, out, sizeof out, LINE_MS);
		if (!strncmp(out, "OK CLAIM", 8))
			break;
		usleep(300 * 1000);
	} while (tc_now_ms() < end);
	CHECK(!strncmp(out, "OK CLAIM", 8), "the claim after the grace: %s", out);
	CHECK(!strcmp(result(host, gi[2], LINE_MS), "first"), "board 3's result: %s",
	    g[gi[2]].result);
	ok("a player gone for good: a claim within the grace 447, after it the game is the "
	   "claimer's; the result counts");

	/* round 2: paired all the same; the one who left forfeits there */
	int r2[3], forfeits = 0;
	for (int b = 0; b < 3; b++) {
		REQUIRE((r2[b] = pairing(host, 2, b + 1, 1, 20000)) >= 0, "round 2 board %d: none",
		    b + 1);
		const char *fn = g[r2[b]].first, *sn = g[r2[b]].second;
		if (!strcmp(fn, gone_name) || !strcmp(sn, gone_name)) {
			const char *res = result(host, r2[b], 10000);
			int first_gone = !strcmp(fn, gone_name);
			CHECK(!strcmp(res, first_gone ? "first-forfeit" : "second-forfeit"),
			    "round 2: %s-%s, %s gone: %s", fn, sn, gone_name, res);
			forfeits++;
			continue;
		}
		int fi = index_of(fn), si = index_of(sn);
		REQUIRE(fi >= 0 && si >= 0, "round 2: %s-%s", fn, sn);
		snprintf(line, sizeof line, "RESIGN %s", g[r2[b]].room);
		tc_send(p[si], "%s", line);
	}
	CHECK(forfeits == 1, "round 2: %d pairings of the player who left", forfeits);
	end = tc_now_ms() + 20000;
	while (!over && tc_now_ms() < end)
		if ((l = tc_read(host, 500)))
			take(l);
	CHECK(over, "the Swiss did not end");
	for (int b = 0; b < 3; b++) {
		const char *res = g[r2[b]].result;
		CHECK(!strcmp(res, "first") || strstr(res, "forfeit"), "round 2 board %d: %s",
		    b + 1, res);
	}
	/* every player's points are its results' */
	snprintf(line, sizeof line, "TWATCH %ld", tid);
	tc_send(host, "%s", line);
	int n = 0, total = 0;
	while ((l = tc_read(host, LINE_MS)) && strncmp(l, "OK TWATCH", 9) != 0) {
		char name[24];
		int points;
		if (sscanf(l, "= TPLAYER %*d %*d %23s %*s %d", name, &points) != 2)
			continue;
		int mine = 0;
		for (int i = 0; i < ng; i++) {
			int first = !strcmp(g[i].first, name), second = !strcmp(g[i].second, name);
			if ((first &&
				(!strcmp(g[i].result, "first") ||
				    !strcmp(g[i].result, "second-forfeit"))) ||
			    (second &&
				(!strcmp(g[i].result, "second") ||
				    !strcmp(g[i].result, "first-forfeit"))))
				mine += 2;
		}
		CHECK(points == mine, "%s: %d points, its results give %d", name, points, mine);
		CHECK(strcmp(name, gone_name) != 0 || points == 0, "%s, who left: %d points", name,
		    points);
		total += points;
		n++;
	}
	CHECK(n == NP && total == 2 * 6, "%d standings, %d points in all", n, total);
	for (int i = 0; i < NP; i++)
		tc_close(p[i]);
	tc_close(host);
	CHECK(daemon_alive(&d), "gomokud died");
	daemon_stop(&d, SIGTERM, 5000);
	ok("the next round paired all the same: the player who left forfeits there, the event "
	   "ends, the points as the results give them");
}

int
main(void)
{
	long long t0 = tc_now_ms();
	run();
	printf("tourney paths: %d failed (%lld ms)\n", failures, tc_now_ms() - t0);
	return failures ? 1 : 0;
}
