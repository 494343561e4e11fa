/*
 * test_lock.c: one gomokud per state directory. While a daemon serves games
 * from a state directory, a second one started on it must stop at once,
 * non-zero, before it opens the store or listens, with a message naming the
 * directory and the first one's pid; the first keeps serving its games as
 * if nothing happened. After kill -9 of the first (the kernel drops its
 * lock), a new daemon starts on the same directory, the players RESUME and
 * every move is there; that daemon holds the lock in its turn.
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

static struct daemon d1, d2, d3, d4;

enum { GAMES = 2, MAXMOVES = 12 };

/* Moves that never make five. */
static const char *const black_moves[] = { "a1", "c1", "e1", "g1", "i1", "k1" };
static const char *const white_moves[] = { "a3", "c3", "e3", "g3", "i3", "k3" };

struct game {
	struct tc *a, *b; /* black, white */
	char token_a[80], token_b[80];
	char room[24];
	int n;          /* moves acknowledged */
	char list[128]; /* those moves, "a1,a3,..." */
	long seq;       /* the last seq seen */
};

static struct game games[GAMES];

/* The next move of g, by the side to move; both must see it. 0 or -1. */
static int
next_move(struct game *g)
{
	struct tc *p = g->n % 2 ? g->b : g->a, *o = g->n % 2 ? g->a : g->b;
	const char *mv = g->n % 2 ? white_moves[g->n / 2] : black_moves[g->n / 2];
	char want[64], ok[64];
	const char *l;

	tc_send(p, "MOVE %s %s", g->room, mv);
	snprintf(ok, sizeof ok, "OK MOVE %s ", g->room);
	if (!(l = tc_expect(p, ok, 3000)) || sscanf(l + strlen(ok), "%ld", &g->seq) != 1)
		return -1;
	snprintf(want, sizeof want, " %s %s ", g->n % 2 ? "white" : "black", mv);
	while ((l = tc_expect(o, "* MOVE", 3000)) && !strstr(l, want))
		;
	if (!l)
		return -1;
	snprintf(g->list + strlen(g->list), sizeof g->list - strlen(g->list), "%s%s",
	    g->n ? "," : "", mv);
	g->n++;
	return 0;
}

static void
start_game(int port, struct game *g, int i, int moves)
{
	char na[16], nb[16], code[64];
	const char *l;

	snprintf(na, sizeof na, "la%d", i);
	snprintf(nb, sizeof nb, "lb%d", i);
	g->a = tc_guest(port, na);
	g->b = tc_guest(port, nb);
	REQUIRE(g->a && g->b, "game %d: cannot connect", i);
	snprintf(g->token_a, sizeof g->token_a, "%s", g->a->token);
	snprintf(g->token_b, sizeof g->token_b, "%s", g->b->token);
	tc_send(g->a, "CREATE freestyle 15 none black casual none");
	l = tc_expect(g->a, "OK CREATE", 3000);
	REQUIRE(l && sscanf(l, "OK CREATE %23s %63s", g->room, code) == 2, "game %d: CREATE", i);
	tc_send(g->b, "JOIN %s", code);
	REQUIRE(tc_expect(g->b, "* START", 3000), "game %d: no START", i);
	REQUIRE(tc_expect(g->a, "* START", 3000), "game %d: no START for black", i);
	for (int k = 0; k < moves; k++)
		REQUIRE(next_move(g) == 0, "game %d: move %d refused: %s", i, k + 1, g->a->line);
}

/* RESUMEs one player of g on port; the snapshot must hold g's moves. */
static struct tc *
resume(int port, struct game *g, const char *token)
{
	struct tc *c = tc_open(port, 1);
	char moves[256] = "", room[24], list[200];
	int idx;

	if (!c)
		return NULL;
	tc_send(c, "RESUME %s %s %ld", token, g->room, g->seq);
	for (;;) {
		const char *l = tc_read(c, 5000);
		if (!l || strncmp(l, "ERR", 3) == 0) {
			CHECK(0, "RESUME in %s: %s", g->room, l ? l : "no answer");
			tc_close(c);
			return NULL;
		}
		if (sscanf(l, "= MOVES %23s %d %199s", room, &idx, list) == 3 &&
		    strcmp(list, "-") != 0)
			snprintf(moves + strlen(moves), sizeof moves - strlen(moves), "%s%s",
			    moves[0] ? "," : "", list);
		if (strncmp(l, "OK RESUME", 9) == 0)
			break;
	}
	CHECK(strcmp(moves, g->list) == 0, "%s after the restart: moves '%s', acknowledged '%s'",
	    g->room, moves, g->list);
	return c;
}

/* Starts d on state (a running daemon's directory) and expects a refusal
 * naming state and holder's pid, before the store and the listeners. */
static void
expect_refused(struct daemon *d, const char *state, const struct daemon *holder)
{
	char conf[300], pid[32];
	long long t0 = tc_now_ms();

	snprintf(conf, sizeof conf, "state-dir %s", state);
	int started = daemon_start(d, GOMOKUD_BIN, conf) == 0;
	CHECK(!started, "a second daemon started on %s (log %s)", state, d->log);
	int st = daemon_stop(d, started ? SIGKILL : 0, 5000);
	long long took = tc_now_ms() - t0;
	CHECK(!started && st > 0 && st < 128, "the second daemon's exit status: %d", st);
	CHECK(took < 3000, "the second daemon took %lld ms to give up", took);
	snprintf(pid, sizeof pid, "pid %d", (int)holder->pid);
	CHECK(daemon_log_count(d, state) >= 1 && daemon_log_count(d, pid) >= 1,
	    "no message naming %s and %s in %s", state, pid, d->log);
	CHECK(daemon_log_count(d, "listening on") == 0, "the second daemon listened (log %s)",
	    d->log);
	CHECK(daemon_log_count(d, "database") == 0, "the second daemon opened the store (log %s)",
	    d->log);
}

static void
test_lock(void)
{
	char state[200], conf[300], lockpath[260], cmd[800];

	REQUIRE(daemon_start(&d1, GOMOKUD_BIN, "grace 300") == 0, "first daemon did not start");
	snprintf(state, sizeof state, "%s/state", d1.dir);
	for (int i = 0; i < GAMES; i++) {
		start_game(d1.port, &games[i], i, 3 + i);
		if (failures)
			return;
	}

	expect_refused(&d2, state, &d1);
	snprintf(lockpath, sizeof lockpath, "%s/gomokud.lock", state);
	FILE *f = fopen(lockpath, "r");
	int held = 0;
	CHECK(f && fscanf(f, "%d", &held) == 1 && held == (int)d1.pid,
	    "%s does not hold the first daemon's pid %d (%d)", lockpath, (int)d1.pid, held);
	if (f)
		fclose(f);
	ok("a second daemon on the same state directory stops at once, non-zero, naming the"
	   " directory and the holder's pid, before the store and the listeners");

	/* the first one carries on: the open connections, every game */
	REQUIRE(daemon_alive(&d1), "the first daemon died");
	for (int i = 0; i < GAMES; i++) {
		tc_send(games[i].a, "PING still");
		CHECK_LINE(games[i].a, "OK PING still");
		CHECK(next_move(&games[i]) == 0 && next_move(&games[i]) == 0,
		    "game %d: no moves after the refused start", i);
	}
	CHECK(daemon_log_count(&d1, " error ") == 0, "the first daemon logged errors (log %s)",
	    d1.log);
	if (failures)
		return;
	ok("the first daemon keeps serving its games: connections open, moves accepted");

	/* kill -9: the lock goes with the process, a restart takes over */
	REQUIRE(daemon_stop(&d1, SIGKILL, 5000) == 128 + SIGKILL, "first daemon not killed");
	for (int i = 0; i < GAMES; i++) {
		tc_close(games[i].a);
		tc_close(games[i].b);
		games[i].a = games[i].b = NULL;
	}
	snprintf(conf, sizeof conf, "state-dir %s", state);
	REQUIRE(daemon_start(&d3, GOMOKUD_BIN, conf) == 0,
	    "no restart on the state directory after kill -9 (log %s)", d3.log);
	for (int i = 0; i < GAMES; i++) {
		games[i].a = resume(d3.port, &games[i], games[i].token_a);
		games[i].b = resume(d3.port, &games[i], games[i].token_b);
		REQUIRE(games[i].a && games[i].b, "game %d: the players did not resume", i);
		CHECK(next_move(&games[i]) == 0, "game %d: no move after the restart", i);
	}
	if (failures)
		return;
	ok("after kill -9 a new daemon starts on the directory; both games resume with every"
	   " move, and play goes on");

	expect_refused(&d4, state, &d3);
	CHECK(daemon_alive(&d3), "the restarted daemon died");
	for (int i = 0; i < GAMES; i++) {
		tc_close(games[i].a);
		tc_close(games[i].b);
	}
	CHECK(daemon_stop(&d3, SIGTERM, 10000) == 0, "the restarted daemon did not exit cleanly");
	if (failures)
		return;
	ok("the restarted daemon holds the lock in its turn");
	snprintf(cmd, sizeof cmd, "rm -rf %s %s %s %s", d1.dir, d2.dir, d3.dir, d4.dir);
	if (system(cmd) != 0)
		printf("could not remove the test directories\n");
}

int
main(void)
{
	test_lock();
	printf("lock: %d passed, %d failed\n", failures ? 0 : 1, failures ? 1 : 0);
	return failures ? 1 : 0;
}
