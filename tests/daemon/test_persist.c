/*
 * test_persist.c: games survive the daemon being killed. Many games are in
 * progress (plain, timed, a swap2 opening) when gomokud gets SIGKILL; it is
 * started again on the same state directory, every player RESUMEs with the
 * token from before, and each snapshot must hold every move the server had
 * acknowledged, in order, the clocks as they stood and the swap2 stage.
 * Play then goes on, a claim after the grace period works, and a damaged
 * database stops the start with a clear message and the file untouched.
 */
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/daemon/check.h"
#include "tests/daemon/tclient.h"

#ifndef GOMOKUD_BIN
#define GOMOKUD_BIN "bin/gomokud"
#endif

static struct daemon *running[3];

enum { GAMES = 24, MAXMOVES = 16 };

/* Moves that never make five: black and white on alternate rows, gapped. */
static const char *const black_moves[] = { "a1", "c1", "e1", "g1", "i1", "k1", "m1", "o1" };
static const char *const white_moves[] = { "a3", "c3", "e3", "g3", "i3", "k3", "m3", "o3" };

struct game {
	struct tc *a, *b; /* black (creator), white */
	char token_a[80], token_b[80];
	char name_a[24], name_b[24];
	char room[24];
	int kind;   /* 0 plain, 1 timed, 2 swap2 opening */
	int nacked; /* moves the server acknowledged */
	char acked[MAXMOVES][4];
	long long bms, wms; /* clocks after the last acknowledged move */
	long seq;           /* the last sequence number seen */
};

static struct game games[GAMES];

/* "* MOVE r1 2 black h8 59800 60000": the clocks and seq. */
static void
note_move(struct game *g, const char *line)
{
	char room[24], side[8], mv[8], bms[24], wms[24];
	long seq;

	if (sscanf(line, "* MOVE %23s %ld %7s %7s %23s %23s", room, &seq, side, mv, bms, wms) ==
	    6) {
		g->seq = seq;
		g->bms = bms[0] == '-' ? -1 : atoll(bms);
		g->wms = wms[0] == '-' ? -1 : atoll(wms);
	}
}

static void
start_game(int port, struct game *g, int i)
{
	char line[160], code[64];

	snprintf(g->name_a, sizeof g->name_a, "pa%d", i);
	snprintf(g->name_b, sizeof g->name_b, "pb%d", i);
	g->kind = i % 8 == 1 ? 1 : i % 8 == 2 ? 2 : 0;
	g->a = tc_guest(port, g->name_a);
	g->b = tc_guest(port, g->name_b);
	REQUIRE(g->a && g->b, "game %d: cannot connect", i);
	snprintf(g->token_a, sizeof g->token_a, "%s", g->a->token);
	snprintf(g->token_b, sizeof g->token_b, "%s", g->b->token);
	tc_send(g->a, "CREATE freestyle 15 %s black casual %s", g->kind == 1 ? "600+5" : "none",
	    g->kind == 2 ? "swap2" : "none");
	const char *l = tc_expect(g->a, "OK CREATE", 3000);
	REQUIRE(l && sscanf(l, "OK CREATE %23s %63s", g->room, code) == 2, "game %d: CREATE", i);
	tc_send(g->b, "JOIN %s", code);
	REQUIRE(tc_expect(g->b, "* START", 3000), "game %d: no START", i);
	REQUIRE(tc_expect(g->a, "* START", 3000), "game %d: no START for black", i);
	if (g->kind == 2) {
		/* the opener puts three stones; the chooser has not chosen yet */
		tc_send(g->a, "SWAP2 %s put h8,h9,i9", g->room);
		REQUIRE(tc_expect(g->a, "OK SWAP2", 3000), "game %d: swap2 put: %s", i, g->a->line);
		snprintf(g->acked[0], 4, "h8");
		snprintf(g->acked[1], 4, "h9");
		snprintf(g->acked[2], 4, "i9");
		g->nacked = 3;
		return;
	}
	int n = 3 + i % 12;
	for (int k = 0; k < n; k++) {
		struct tc *p = k % 2 ? g->b : g->a;
		const char *mv = k % 2 ? white_moves[k / 2] : black_moves[k / 2];
		tc_send(p, "MOVE %s %s", g->room, mv);
		snprintf(line, sizeof line, "OK MOVE %s", g->room);
		/* this move's event (the mover also has the opponent's in its
		 * buffer) comes before the reply: note its clocks */
		char want[64];
		const char *ev;
		snprintf(want, sizeof want, " %s %s ", k % 2 ? "white" : "black", mv);
		while ((ev = tc_expect(p, "* MOVE", 3000)) && !strstr(ev, want))
			;
		REQUIRE(ev, "game %d: no MOVE event for %s", i, mv);
		note_move(g, ev);
		REQUIRE(tc_expect(p, line, 3000), "game %d: move %s refused: %s", i, mv, p->line);
		snprintf(g->acked[g->nacked++], 4, "%s", mv);
	}
}

/* RESUMEs a player; checks the snapshot against what was acknowledged. */
static struct tc *
resume(int port, struct game *g, const char *token, int i)
{
	struct tc *c = tc_open(port, 1);
	char moves[2048] = "", want[2048] = "";

	if (!c) {
		printf("FAIL: game %d: cannot reconnect\n", i);
		failures++;
		return NULL;
	}
	tc_send(c, "RESUME %s %s %ld", token, g->room, g->seq);
	for (;;) {
		const char *l = tc_read(c, 5000);
		if (!l) {
			printf("FAIL: game %d: no snapshot (last: %s)\n", i, c->line);
			failures++;
			tc_close(c);
			return NULL;
		}
		if (strncmp(l, "ERR", 3) == 0) {
			printf("FAIL: game %d: RESUME refused: %s\n", i, l);
			failures++;
			tc_close(c);
			return NULL;
		}
		char room[24], list[1500];
		int idx;
		long long b, w;
		if (sscanf(l, "= MOVES %23s %d %1499s", room, &idx, list) == 3 &&
		    strcmp(list, "-") != 0) {
			if (moves[0])
				strcat(moves, ",");
			strncat(moves, list, sizeof moves - strlen(moves) - 1);
		}
		if (g->kind == 1 && sscanf(l, "= CLOCK %23s %lld %lld", room, &b, &w) == 3) {
			/* the clock to move runs again from the restart, not during it */
			if (b > g->bms || b < g->bms - 5000 || w > g->wms || w < g->wms - 5000) {
				printf(
				    "FAIL: game %d: clocks %lld/%lld, before the kill %lld/%lld\n",
				    i, b, w, g->bms, g->wms);
				failures++;
			}
		}
		if (g->kind == 2 && strncmp(l, "= SWAP2", 7) == 0 && !strstr(l, " choose ")) {
			printf("FAIL: game %d: swap2 stage lost: %s\n", i, l);
			failures++;
		}
		if (strncmp(l, "OK RESUME", 9) == 0)
			break;
	}
	for (int k = 0; k < g->nacked; k++) {
		if (k)
			strcat(want, ",");
		strcat(want, g->acked[k]);
	}
	if (strcmp(moves, want) != 0) {
		printf("FAIL: game %d: moves after restart '%s', acknowledged before '%s'\n", i,
		    moves, want);
		failures++;
	}
	return c;
}

static int
file_equals(const char *path, const char *data, size_t n)
{
	FILE *f = fopen(path, "rb");
	char buf[8192];
	size_t got;

	if (!f)
		return 0;
	got = fread(buf, 1, sizeof buf, f);
	fclose(f);
	return got == n && memcmp(buf, data, n) == 0;
}

static void
test_kill_and_resume(void)
{
	static struct daemon d1, d2, d3;
	char conf[300], state[200];
	int total = 0;

	running[0] = &d1;
	running[1] = &d2;
	running[2] = &d3;
	REQUIRE(daemon_start(&d1, GOMOKUD_BIN, "grace 300") == 0, "first daemon did not start");
	snprintf(state, sizeof state, "%s/state", d1.dir);
	for (int i = 0; i < GAMES; i++) {
		start_game(d1.port, &games[i], i);
		if (failures)
			return;
		total += games[i].nacked;
	}
	REQUIRE(daemon_stop(&d1, SIGKILL, 5000) >= 0 || !daemon_alive(&d1), "daemon not killed");
	for (int i = 0; i < GAMES; i++) {
		tc_close(games[i].a);
		tc_close(games[i].b);
	}
	printf("killed gomokud (SIGKILL) with %d games in progress, %d moves acknowledged\n", GAMES,
	    total);

	/* the same state directory; a short grace for the claim below */
	snprintf(conf, sizeof conf, "state-dir %s\ngrace 4", state);
	REQUIRE(daemon_start(&d2, GOMOKUD_BIN, conf) == 0, "restart failed (log %s)", d2.log);
	/* a token offered for the wrong room is refused, and still works after */
	struct tc *wrong = tc_open(d2.port, 1);
	REQUIRE(wrong, "cannot connect");
	tc_send(wrong, "RESUME %s %s 0", games[5].token_a, games[6].room);
	REQUIRE(tc_expect(wrong, "ERR 448", 3000), "RESUME into another room: %s", wrong->line);
	tc_close(wrong);
	struct tc *keep_a[GAMES] = { 0 }, *keep_b[GAMES] = { 0 };
	for (int i = 1; i < GAMES; i++) { /* game 0 is left for the claim */
		keep_a[i] = resume(d2.port, &games[i], games[i].token_a, i);
		keep_b[i] = resume(d2.port, &games[i], games[i].token_b, i);
		if (!keep_a[i] || !keep_b[i])
			return;
	}
	if (failures)
		return;
	printf("every player resumed: all %d acknowledged moves back in order, clocks as they"
	       " stood, the swap2 opening at its stage\n",
	    total - games[0].nacked);

	/* play goes on: the next move in game 3, and the swap2 choice in game 2 */
	struct game *g = &games[3];
	const char *mv = g->nacked % 2 ? white_moves[g->nacked / 2] : black_moves[g->nacked / 2];
	struct tc *p = g->nacked % 2 ? keep_b[3] : keep_a[3];
	tc_send(p, "MOVE %s %s", g->room, mv);
	REQUIRE(tc_expect(p, "OK MOVE", 3000), "no move after the restart: %s", p->line);
	REQUIRE(tc_expect(g->nacked % 2 ? keep_a[3] : keep_b[3], "* MOVE", 3000),
	    "the opponent did not see the move");
	tc_send(keep_b[2], "SWAP2 %s white", games[2].room);
	REQUIRE(tc_expect(keep_b[2], "* COLOURS", 3000), "swap2 choice after restart: %s",
	    keep_b[2]->line);
	printf("play continues after the restart (a move, a swap2 choice)\n");

	/* game 0: only black comes back; after the grace period it may claim */
	struct tc *a0 = resume(d2.port, &games[0], games[0].token_a, 0);
	REQUIRE(a0, "game 0: black could not resume");
	tc_send(a0, "CLAIM %s", games[0].room);
	REQUIRE(tc_expect(a0, "ERR 447", 3000), "a claim inside the grace period: %s", a0->line);
	sleep(5);
	tc_send(a0, "CLAIM %s", games[0].room);
	REQUIRE(tc_expect(a0, "* OVER", 3000), "no OVER after the claim: %s", a0->line);
	REQUIRE(strstr(a0->line, "black abandoned"), "claim result: %s", a0->line);
	printf("a player whose opponent never came back claims the game after the grace period\n");
	tc_close(a0);
	for (int i = 1; i < GAMES; i++) {
		tc_close(keep_a[i]);
		tc_close(keep_b[i]);
	}
	REQUIRE(daemon_stop(&d2, SIGTERM, 10000) == 0, "second daemon did not exit cleanly");

	/* a graceful restart keeps the games too: game 3 resumes, one move on */
	struct daemon d2b;
	running[1] = &d2b;
	REQUIRE(daemon_start(&d2b, GOMOKUD_BIN, conf) == 0, "restart after SIGTERM failed");
	games[3].acked[games[3].nacked][0] = '\0';
	snprintf(games[3].acked[games[3].nacked++], 4, "%s", mv);
	struct tc *again = resume(d2b.port, &games[3], games[3].token_a, 3);
	REQUIRE(again, "no resume after a graceful restart");
	tc_close(again);
	REQUIRE(daemon_stop(&d2b, SIGTERM, 10000) == 0, "third daemon did not exit cleanly");
	printf("SIGTERM keeps games in progress: after the restart they resume, moves intact\n");

	char db[300], junk[4096], cmd[700];
	if (getenv("GOMOKU_PG_URL")) { /* a damaged file is SQLite's case alone */
		snprintf(cmd, sizeof cmd, "rm -rf %s %s %s", d1.dir, d2.dir, d2b.dir);
		if (system(cmd) != 0)
			printf("could not remove the test directories\n");
		return;
	}
	/* a damaged database: no start, a clear message, the file as it was */
	snprintf(db, sizeof db, "%s/gomokud.db", state);
	for (size_t k = 0; k < sizeof junk; k++)
		junk[k] = (char)('a' + k % 26);
	FILE *f = fopen(db, "wb");
	REQUIRE(f && fwrite(junk, 1, sizeof junk, f) == sizeof junk, "cannot damage the database");
	fclose(f);
	snprintf(cmd, sizeof cmd, "rm -f %s-wal %s-shm", db, db);
	REQUIRE(system(cmd) == 0, "cleanup");
	REQUIRE(daemon_start(&d3, GOMOKUD_BIN, conf) != 0, "started on a damaged database");
	daemon_stop(&d3, SIGKILL, 2000);
	snprintf(cmd, sizeof cmd, "grep -q 'refusing to start' %s", d3.log);
	REQUIRE(system(cmd) == 0, "no clear message in %s", d3.log);
	REQUIRE(file_equals(db, junk, sizeof junk), "the damaged database was changed");
	printf("a damaged database stops the start with a clear message and is left untouched\n");
	snprintf(cmd, sizeof cmd, "rm -rf %s %s %s %s", d1.dir, d2.dir, d2b.dir, d3.dir);
	if (system(cmd) != 0)
		printf("could not remove the test directories\n");
}

/* An undo back to one stone after both sides moved leaves ABORT too late
 * (PROTOCOL.md 5.6), and so it stays after a kill -9 and a restart: the
 * store keeps that both sides moved (issue 43). */
static void
test_undo_then_abort(void)
{
	static struct daemon d1, d2;
	char room[24], conf[300], state[200], token[80];
	struct tc *a, *b;
	unsigned id = 0;

	REQUIRE(daemon_start(&d1, GOMOKUD_BIN, "grace 300") == 0, "no daemon (log %s)", d1.log);
	snprintf(state, sizeof state, "%s/state", d1.dir);
	REQUIRE(tc_pair_guests(
		    d1.port, "una", "uno", "freestyle 15 none", &a, &b, room, sizeof room) == 0,
	    "%s", tc_why);
	snprintf(token, sizeof token, "%s", a->token);
	const char *mv[] = { "h8", "i9", "j10" };
	for (int i = 0; i < 3; i++) {
		struct tc *p = i % 2 ? b : a;
		tc_send(p, "MOVE %s %s", room, mv[i]);
		REQUIRE(tc_expect(p, "OK MOVE", 3000), "MOVE %s: %s", mv[i], p->line);
	}
	/* white, to move, asks to take back its move and black's: one stone left */
	tc_send(b, "OFFER %s undo", room);
	REQUIRE(tc_expect(b, "OK OFFER", 3000), "OFFER undo: %s", b->line);
	sscanf(b->line, "OK OFFER %*s %u", &id);
	tc_send(a, "ACCEPT %s %u", room, id);
	REQUIRE(tc_expect(a, "* UNDO", 3000), "no * UNDO: %s", a->line);
	REQUIRE(tc_expect(a, "OK ACCEPT", 3000), "ACCEPT: %s", a->line);
	tc_send(a, "ABORT %s", room);
	CHECK(tc_expect(a, "ERR 443", 3000), "ABORT after the undo: %s", a->line);
	REQUIRE(daemon_stop(&d1, SIGKILL, 5000) >= 0 || !daemon_alive(&d1), "daemon not killed");
	tc_close(a);
	tc_close(b);

	snprintf(conf, sizeof conf, "state-dir %s\ngrace 300", state);
	REQUIRE(daemon_start(&d2, GOMOKUD_BIN, conf) == 0, "restart failed (log %s)", d2.log);
	a = tc_open(d2.port, 1);
	REQUIRE(a, "cannot connect");
	tc_send(a, "RESUME %s %s 0", token, room);
	REQUIRE(tc_expect(a, "OK RESUME", 3000), "RESUME: %s", a->line);
	tc_send(a, "ABORT %s", room);
	CHECK(tc_expect(a, "ERR 443", 3000), "ABORT after the undo and a restart: %s", a->line);
	tc_close(a);
	daemon_stop(&d2, SIGTERM, 5000);
	printf("an undo back to one stone leaves ABORT too late, across a restart too\n");
}

int
main(void)
{
	test_undo_then_abort();
	test_kill_and_resume();
	printf("persist: %d passed, %d failed\n", failures ? 0 : 1, failures ? 1 : 0);
	return failures ? 1 : 0;
}
