/*
 * test_abandon: abandoned games end, as PROTOCOL.md section 5.9 says
 * (issue 43, item 5). A game in which every seat held by a person has
 * been away past its grace ends `none abandoned`, unrated: a game against
 * a bot whose human went; a rated game without clocks that both players
 * left (the one who left last keeps his seat until his own grace ends);
 * games kept in the store through a kill -9, whose players are away from
 * the restart (a bot game whose human never comes back, and a game
 * between two bots that nobody watches, which ends after bot-alone); and
 * `gomokuctl drain`, which finishes once such a game has ended.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "tests/daemon/check.h"
#include "tests/daemon/tclient.h"

#ifndef GOMOKUD_BIN
#define GOMOKUD_BIN "bin/gomokud"
#endif
#ifndef GOMOKUCTL_BIN
#define GOMOKUCTL_BIN "bin/gomokuctl"
#endif

/* BOT play on c: the room into room; 0 or -1. */
static int
bot_game(struct tc *c, const char *args, char *room, size_t n)
{
	char fmt[16];
	tc_send(c, "BOT play %s", args);
	if (!tc_expect(c, "OK BOT ", 5000))
		return -1;
	snprintf(fmt, sizeof fmt, "OK BOT %%%zus", n - 1);
	return sscanf(c->line, fmt, room) == 1 ? 0 : -1;
}

/* A new account on port (REGISTER), or NULL. */
static struct tc *
account(int port, const char *name)
{
	struct tc *c = tc_open(port, 1);
	if (!c)
		return NULL;
	tc_send(c, "REGISTER %s s3cret-pass", name);
	if (!tc_expect(c, "OK REGISTER ", 5000)) {
		tc_close(c);
		return NULL;
	}
	sscanf(c->line, "OK REGISTER %31s %79s", c->name, c->token);
	return c;
}

/* A game against a bot whose human goes: when his grace ends the game
 * ends none/abandoned (the bot's seat is nobody away). */
static void
test_bot_game(int port)
{
	struct tc *h = tc_guest(port, "hana"), *w = tc_guest(port, "wes");
	char room[24], pre[64];
	REQUIRE(h && w, "cannot connect");
	/* a clock: the grace (2 s, more than a tenth of the base) ends before
	 * the human's 15 s could run out */
	REQUIRE(bot_game(h, "1 freestyle 15 15+0 black none", room, sizeof room) == 0,
	    "BOT play: %s", h->line);
	tc_send(h, "MOVE %s h8", room);
	REQUIRE(tc_expect(h, "OK MOVE", 3000), "MOVE: %s", h->line);
	tc_send(w, "WATCH %s", room);
	REQUIRE(tc_expect(w, "OK WATCH", 3000), "WATCH: %s", w->line);
	tc_close(h);
	snprintf(pre, sizeof pre, "* PRESENCE %s ", room);
	const char *l = tc_expect(w, pre, 3000);
	CHECK(l && strstr(l, "hana gone"), "the human's going: %s", w->line);
	snprintf(pre, sizeof pre, "* OVER %s ", room);
	/* grace 2 s: a wide bound */
	l = tc_expect(w, pre, 10000);
	CHECK(l && strstr(l, " none abandoned "), "the bot game's end: %s", l ? l : "none came");
	tc_close(w);
	ok("a bot game whose human stays away past the grace ends 'none abandoned'");
}

/* A rated game without clocks between two accounts that both leave, ben
 * later than ann: at ann's deadline ben is still within his own grace, so
 * he comes back to his seat; when he goes again and his grace ends too,
 * the game ends none/abandoned, and nobody's rating moved. */
static void
test_no_clock_both(int port)
{
	struct tc *a = account(port, "ann"), *b = account(port, "ben"), *w = tc_guest(port, "vic");
	char room[24], pre[64], token[80];
	REQUIRE(a && b && w, "cannot connect or register");
	REQUIRE(tc_pair(a, b, "freestyle 15 none", "rated", room, sizeof room) == 0, "%s", tc_why);
	tc_send(a, "MOVE %s h8", room);
	REQUIRE(tc_expect(a, "OK MOVE", 3000), "MOVE: %s", a->line);
	tc_send(w, "WATCH %s", room);
	REQUIRE(tc_expect(w, "OK WATCH", 3000), "WATCH: %s", w->line);
	snprintf(token, sizeof token, "%s", b->token);
	snprintf(pre, sizeof pre, "* PRESENCE %s ", room);

	tc_close(a);
	long long t0 = tc_now_ms();
	const char *l = tc_expect(w, pre, 3000);
	CHECK(l && strstr(l, "ann gone"), "ann's going: %s", w->line);
	usleep(2000 * 1000); /* grace 4 s: ann's ends at t0 + 4, ben's at t0 + 6 */
	tc_close(b);
	l = tc_expect(w, pre, 3000);
	CHECK(l && strstr(l, "ben gone"), "ben's going: %s", w->line);
	long long wait = t0 + 5000 - tc_now_ms();
	if (wait > 0)
		usleep((useconds_t)wait * 1000);
	b = tc_open(port, 1);
	REQUIRE(b, "cannot connect");
	tc_send(b, "RESUME %s %s 0", token, room);
	l = tc_expect(b, "OK RESUME", 3000);
	CHECK(l, "ben, back within his own grace after ann's ended: %s", b->line);
	snprintf(pre, sizeof pre, "* OVER %s ", room);
	CHECK(
	    !tc_expect(w, pre, 200), "the game ended while ben was within his grace: %s", w->line);
	ok("a game both players left ends only when the last one's grace is over: he may come back "
	   "before");

	tc_close(b);
	l = tc_expect(w, pre, 12000);
	CHECK(l && strstr(l, " none abandoned "), "the end: %s", l ? l : "none came");
	tc_send(w, "STATS ann");
	l = tc_expect(w, "= STAT ann freestyle ", 3000);
	CHECK(l && strstr(l, " 1500 ") && strstr(l, " 0 0 0"), "ann's rating: %s", w->line);
	tc_send(w, "STATS ben");
	l = tc_expect(w, "= STAT ben freestyle ", 3000);
	CHECK(l && strstr(l, " 1500 ") && strstr(l, " 0 0 0"), "ben's rating: %s", w->line);
	tc_close(w);
	ok("a rated game without clocks that both players left ends 'none abandoned', unrated");
}

/* gomokuctl drain on d's socket; its output into out. Its exit status. */
static int
drain(const struct daemon *d, char *out, size_t n)
{
	char cmd[400];
	snprintf(
	    cmd, sizeof cmd, "%s --socket %s/state/gomokud.ctl drain 2>&1", GOMOKUCTL_BIN, d->dir);
	FILE *p = popen(cmd, "r");
	if (!p)
		return -1;
	size_t got = fread(out, 1, n - 1, p);
	out[got] = '\0';
	return pclose(p);
}

/* A drain waits for the games in progress: a bot game whose human went
 * ends at his grace, and the drain is done. */
static void
test_drain(void)
{
	static struct daemon e;
	char room[24], out[512];
	REQUIRE(
	    daemon_start(&e, GOMOKUD_BIN, "grace 2\nbot-threads 1") == 0, "no daemon (%s)", e.log);
	struct tc *h = tc_guest(e.port, "dora");
	REQUIRE(h, "cannot connect");
	REQUIRE(bot_game(h, "1 freestyle 15 none white none", room, sizeof room) == 0,
	    "BOT play: %s", h->line);
	CHECK(drain(&e, out, sizeof out) == 0 && strstr(out, "1 in progress"), "drain: %s", out);
	tc_close(h);
	CHECK(daemon_wait_log(&e, "drained: no game in progress", 0, 10000),
	    "the drain did not finish after the human's grace");
	CHECK(daemon_log_count(&e, "game over, none abandoned") == 1, "the game did not end so");
	CHECK(daemon_stop(&e, SIGTERM, 5000) == 0, "SIGTERM after the drain: not a clean exit");
	ok("gomokuctl drain finishes once the bot game its human left has ended");
}

/* The same games kept in the store through a kill -9: their players are
 * away from the restart. A bot game whose human does not come back ends
 * at his grace; a game between two bots (a bot game whose human's seat
 * the test hands to a second bot in the store) that nobody watches ends
 * after bot-alone. */
static void
test_restart(void)
{
	static struct daemon d1, d2;
	char room1[24], room2[24], conf[300], state[200], path[260];
	REQUIRE(daemon_start(&d1, GOMOKUD_BIN, "grace 300\nbot-threads 1") == 0, "no daemon (%s)",
	    d1.log);
	snprintf(state, sizeof state, "%s/state", d1.dir);
	struct tc *h = tc_guest(d1.port, "ivo"), *k = tc_guest(d1.port, "kai");
	REQUIRE(h && k, "cannot connect");
	REQUIRE(bot_game(h, "1 freestyle 15 none black none", room1, sizeof room1) == 0,
	    "BOT play: %s", h->line);
	tc_send(h, "MOVE %s h8", room1);
	REQUIRE(tc_expect(h, "OK MOVE", 3000), "MOVE: %s", h->line);
	/* black is the human: no move, so no search runs when it is killed */
	REQUIRE(bot_game(k, "10 freestyle 15 none black none", room2, sizeof room2) == 0,
	    "BOT play: %s", k->line);
	REQUIRE(daemon_stop(&d1, SIGKILL, 5000) >= 0 || !daemon_alive(&d1), "not killed");
	tc_close(h);
	tc_close(k);

	/* kai's seat to a second bot: a game between two bots in the store */
	sqlite3 *db;
	char sql[200];
	snprintf(path, sizeof path, "%s/gomokud.db", state);
	REQUIRE(sqlite3_open(path, &db) == SQLITE_OK, "cannot open %s", path);
	snprintf(sql, sizeof sql,
	    "UPDATE games SET black = 'bot10', black_key = 'bot10' WHERE room = '%s'", room2);
	CHECK(sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK && sqlite3_changes(db) == 1,
	    "cannot seat a bot for kai: %s", sqlite3_errmsg(db));
	sqlite3_close(db);

	/* bots think 5 s a move: the two-bot game is far from its end when
	 * bot-alone (2 s) ends it */
	snprintf(conf, sizeof conf,
	    "state-dir %s\ngrace 2\nbot-alone 2\nbot-threads 1\n"
	    "bot-think-ms 5000",
	    state);
	REQUIRE(daemon_start(&d2, GOMOKUD_BIN, conf) == 0, "restart failed (%s)", d2.log);
	struct tc *w = tc_guest(d2.port, "wim");
	REQUIRE(w, "cannot connect");
	char pre[64];
	tc_send(w, "WATCH %s", room1);
	CHECK(tc_expect(w, "OK WATCH", 3000), "WATCH after the restart: %s", w->line);
	snprintf(pre, sizeof pre, "* OVER %s ", room1);
	const char *l = tc_expect(w, pre, 10000);
	CHECK(l && strstr(l, " none abandoned "), "the restored bot game's end: %s",
	    l ? l : "none came");
	ok("a bot game kept through a restart whose human does not come back ends 'none "
	   "abandoned' at the grace");
	char want[64];
	snprintf(want, sizeof want, "room %s: game over, none abandoned", room2);
	CHECK(daemon_wait_log(&d2, want, 0, 10000), "the two bots' game did not end");
	tc_send(w, "ROOMS");
	CHECK(tc_expect(w, "OK ROOMS", 3000), "ROOMS: %s", w->line);
	tc_close(w);
	CHECK(daemon_stop(&d2, SIGTERM, 5000) == 0, "SIGTERM: not a clean exit");
	ok("a game between two bots that nobody watches ends 'none abandoned' after bot-alone");
}

int
main(void)
{
	static struct daemon d;
	signal(SIGPIPE, SIG_IGN);
	if (daemon_start(&d, GOMOKUD_BIN, "grace 2\nbot-threads 1") != 0) {
		printf("FAIL: the daemon did not start (%s)\n", d.log);
		return 1;
	}
	test_bot_game(d.port);
	daemon_stop(&d, SIGTERM, 5000);
	if (daemon_start(&d, GOMOKUD_BIN, "grace 4") != 0) {
		printf("FAIL: the daemon did not start (%s)\n", d.log);
		return 1;
	}
	test_no_clock_both(d.port);
	daemon_stop(&d, SIGTERM, 5000);
	test_drain();
	test_restart();
	printf("%s\n", failures ? "test_abandon: FAILED" : "test_abandon: all passed");
	return failures ? 1 : 0;
}
