/*
 * test_crash.c: every state change is one transaction, committed before any
 * event. The test build of the daemon (gomokud-faults) makes the store fail,
 * or the process die as with kill -9, at a named point (GOMOKUD_FAULT, see
 * daemon/store.h): before and after each write of a rated game's end, between
 * the stones of a swap2 put, in an undo, the swap2 colours, a game's start
 * and mid-migration. For every point: a refused request changes nothing (the
 * snapshot is what it was, no event went out), and after a restart no
 * acknowledged move is lost, what the clients were told is what the server's
 * snapshot says, and a game is rated exactly once. The release binary
 * ignores GOMOKUD_FAULT.
 */
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LINE_MS 5000
#include "tests/daemon/check.h"
#include "tests/daemon/tclient.h"

#ifndef GOMOKUD_BIN
#define GOMOKUD_BIN "bin/gomokud"
#endif
#ifndef GOMOKUD_FAULTS_BIN
#define GOMOKUD_FAULTS_BIN "gomokud-faults"
#endif

/* One scenario's world: a state directory that outlives its daemons. */
struct world {
	struct daemon d;
	char state[128];
	struct tc *a, *b; /* alice (black, the creator), bob */
	char ta[80], tb[80];
	char room[24];
	int nacked; /* moves the server acknowledged */
	char acked[32][4];
};

/* Starts a daemon on w's state directory; fault "": none. */
static int
start(struct world *w, const char *bin, const char *fault)
{
	char conf[256];

	if (fault[0])
		setenv("GOMOKUD_FAULT", fault, 1);
	else
		unsetenv("GOMOKUD_FAULT");
	snprintf(
	    conf, sizeof conf, "state-dir %s\ngrace 300\nbot-threads 1\nbot-hash-mb 1", w->state);
	int rc = daemon_start(&w->d, bin, conf);
	unsetenv("GOMOKUD_FAULT");
	return rc;
}

/* Waits until the daemon has died of its fault (SIGKILL). */
static int
died(struct world *w)
{
	for (int i = 0; i < 100 && daemon_alive(&w->d); i++)
		usleep(30 * 1000);
	return !daemon_alive(&w->d);
}

static int
world_new(struct world *w)
{
	memset(w, 0, sizeof *w);
	snprintf(w->state, sizeof w->state, "/tmp/gomokud-crash.XXXXXX");
	return tc_mkdtemp(w->state) ? 0 : -1;
}

static void
world_end(struct world *w)
{
	char cmd[200];

	tc_close(w->a);
	tc_close(w->b);
	w->a = w->b = NULL;
	if (daemon_alive(&w->d))
		daemon_stop(&w->d, SIGTERM, 5000);
	snprintf(cmd, sizeof cmd, "rm -rf %s", w->state);
	if (system(cmd) != 0)
		printf("note: could not remove %s\n", w->state);
}

/* alice and bob register and log in on the running daemon. */
static void
accounts(struct world *w)
{
	w->a = tc_open(w->d.port, 1);
	w->b = tc_open(w->d.port, 1);
	REQUIRE(w->a && w->b, "connect");
	snprintf(w->a->name, sizeof w->a->name, "alice");
	snprintf(w->b->name, sizeof w->b->name, "bob");
	tc_send(w->a, "REGISTER alice alices-pass");
	REQUIRE_LINE(w->a, "OK REGISTER alice ");
	sscanf(w->a->line, "OK REGISTER alice %79s", w->ta);
	tc_send(w->b, "REGISTER bob bobs-pass");
	REQUIRE_LINE(w->b, "OK REGISTER bob ");
	sscanf(w->b->line, "OK REGISTER bob %79s", w->tb);
}

/* A private room of alice's, joined by bob: the game starts. */
static void
game(struct world *w, const char *settings)
{
	char code[64];

	tc_send(w->a, "CREATE %s", settings);
	REQUIRE_LINE(w->a, "OK CREATE");
	REQUIRE(sscanf(w->a->line, "OK CREATE %23s %63s", w->room, code) == 2, "%s", w->a->line);
	tc_send(w->b, "JOIN %s", code);
	REQUIRE_LINE(w->b, "* START");
	REQUIRE_LINE(w->a, "* START");
}

/* Plays moves, each acknowledged. */
static void
play(struct world *w, const char *const *moves, int n)
{
	for (int i = 0; i < n; i++) {
		struct tc *p = w->nacked % 2 ? w->b : w->a;
		tc_send(p, "MOVE %s %s", w->room, moves[i]);
		REQUIRE_LINE(p, "OK MOVE");
		snprintf(w->acked[w->nacked++], 4, "%s", moves[i]);
	}
}

/* Reads and drops whatever c has been sent, until it is quiet. */
static void
drain(struct tc *c)
{
	while (tc_read(c, 200))
		;
}

/* Both clients read up, so what comes next is news. */
static void
quiet(struct world *w)
{
	drain(w->a);
	drain(w->b);
}

/* Reads what c is sent for ms: whether a line starting with prefix came. */
static int
sent(struct tc *c, const char *prefix, int ms)
{
	return tc_expect(c, prefix, ms) != NULL;
}

/* The snapshot a RESUME or STATE gives c: its moves joined by commas, its
 * status word and swap2 stage ("" when none); 0 or -1. */
static int
snapshot(struct tc *c, const char *verb, char *moves, size_t n, char *status, char *stage)
{
	char room[24], st[16];
	int idx;

	moves[0] = stage[0] = '\0';
	if (!tc_expect(c, "= ROOM", LINE_MS) || sscanf(c->line, "= ROOM %23s %15s", room, st) != 2)
		return -1;
	snprintf(status, 16, "%s", st);
	if (!tc_expect(c, "= MOVES", LINE_MS) ||
	    sscanf(c->line, "= MOVES %23s %d %511s", room, &idx, moves) != 3)
		return -1;
	if (strcmp(moves, "-") == 0)
		moves[0] = '\0';
	(void)n;
	for (;;) {
		const char *l = tc_read(c, LINE_MS);
		if (!l)
			return -1;
		if (strncmp(l, "= SWAP2 ", 8) == 0)
			sscanf(l, "= SWAP2 %23s %15s", room, stage);
		if (strncmp(l, "OK ", 3) == 0)
			return strncmp(l + 3, verb, strlen(verb)) == 0 ? 0 : -1;
		if (strncmp(l, "ERR", 3) == 0)
			return -1;
	}
}

/* The acknowledged moves joined as a snapshot lists them. */
static void
acked_list(const struct world *w, char *out, size_t n)
{
	out[0] = '\0';
	for (int i = 0; i < w->nacked; i++) {
		size_t len = strlen(out);
		snprintf(out + len, n - len, "%s%s", i ? "," : "", w->acked[i]);
	}
}

/* After a restart: both take their seats back with their tokens, and the
 * snapshot holds exactly the acknowledged moves, still in play. */
static void
resume_both(struct world *w, const char *want_status, const char *want_stage)
{
	char moves[512], status[16], stage[16], want[512];

	tc_close(w->a);
	tc_close(w->b);
	w->a = tc_open(w->d.port, 1);
	w->b = tc_open(w->d.port, 1);
	REQUIRE(w->a && w->b, "connect after the restart");
	snprintf(w->a->name, sizeof w->a->name, "alice");
	snprintf(w->b->name, sizeof w->b->name, "bob");
	tc_send(w->b, "RESUME %s %s 0", w->tb, w->room);
	REQUIRE(snapshot(w->b, "RESUME", moves, sizeof moves, status, stage) == 0,
	    "bob's RESUME: %s", w->b->line);
	tc_send(w->a, "RESUME %s %s 0", w->ta, w->room);
	REQUIRE(snapshot(w->a, "RESUME", moves, sizeof moves, status, stage) == 0,
	    "alice's RESUME: %s", w->a->line);
	acked_list(w, want, sizeof want);
	CHECK(strcmp(moves, want) == 0, "moves after the restart '%s', acknowledged '%s'", moves,
	    want);
	CHECK(strcmp(status, want_status) == 0, "status after the restart %s, want %s", status,
	    want_status);
	CHECK(strcmp(stage, want_stage) == 0, "swap2 stage after the restart '%s', want '%s'",
	    stage, want_stage);
}

/* The state of c's room now, as STATE says it. */
static void
expect_state(struct world *w, struct tc *c, const char *want_status, const char *want_stage)
{
	char moves[512], status[16], stage[16], want[512];

	tc_send(c, "STATE %s", w->room);
	REQUIRE(
	    snapshot(c, "STATE", moves, sizeof moves, status, stage) == 0, "STATE: %s", c->line);
	acked_list(w, want, sizeof want);
	CHECK(strcmp(moves, want) == 0, "moves '%s', acknowledged '%s'", moves, want);
	CHECK(strcmp(status, want_status) == 0, "status %s, want %s", status, want_status);
	CHECK(strcmp(stage, want_stage) == 0, "swap2 stage '%s', want '%s'", stage, want_stage);
}

/* STATS of name under freestyle: rating and results; 0 or -1. */
static int
stats(struct tc *c, const char *name, int *rating, int *w, int *l, int *d)
{
	char prefix[64], prov[16];
	int dev;

	tc_send(c, "STATS %s", name);
	snprintf(prefix, sizeof prefix, "= STAT %s freestyle ", name);
	if (!tc_expect(c, prefix, LINE_MS))
		return -1;
	if (sscanf(c->line + strlen(prefix), "%d %d %15s %d %d %d", rating, &dev, prov, w, l, d) !=
	    6)
		return -1;
	return tc_expect(c, "OK STATS", LINE_MS) ? 0 : -1;
}

/* Exactly one game between them, won by alice, counted once each way, at
 * the ratings one such game gives (*ref, from the run without faults). */
static void
rated_once(struct world *w, int ref[2])
{
	int ra, rb, aw, al, ad, bw, bl, bd;

	REQUIRE(stats(w->a, "alice", &ra, &aw, &al, &ad) == 0, "STATS alice: %s", w->a->line);
	REQUIRE(stats(w->a, "bob", &rb, &bw, &bl, &bd) == 0, "STATS bob: %s", w->a->line);
	CHECK(aw == 1 && al == 0 && ad == 0, "alice counted %d-%d-%d, want 1-0-0", aw, al, ad);
	CHECK(bw == 0 && bl == 1 && bd == 0, "bob counted %d-%d-%d, want 0-1-0", bw, bl, bd);
	if (ref[0] == 0) {
		ref[0] = ra;
		ref[1] = rb;
	}
	CHECK(ra == ref[0] && rb == ref[1], "ratings %d/%d, one game gives %d/%d", ra, rb, ref[0],
	    ref[1]);
	tc_send(w->a, "HISTORY alice");
	CHECK_LINE(w->a, "OK HISTORY 1 1");
}

static const char *const opening8[] = { "h8", "a1", "i8", "a3", "j8", "a5", "k8", "a7" };

/* A rated game to alice's five, the fault on the winning move: it kills
 * the daemon (dies 1), makes the store refuse (0), or there is none (-1). */
static void
five(const char *fault, int dies, int ref[2])
{
	struct world w;

	REQUIRE(world_new(&w) == 0, "state dir");
	REQUIRE(start(&w, GOMOKUD_FAULTS_BIN, fault) == 0, "daemon start (%s)", fault);
	accounts(&w);
	game(&w, "freestyle 15 none black rated none");
	play(&w, opening8, 8);
	quiet(&w);
	tc_send(w.a, "MOVE %s l8", w.room);
	if (dies > 0) {
		REQUIRE(died(&w), "%s: the daemon did not die", fault);
		CHECK(!sent(w.a, "OK MOVE", 300), "%s: a move acknowledged that was not stored",
		    fault);
		CHECK(!sent(w.b, "* OVER", 100), "%s: an end sent that was not stored", fault);
		REQUIRE(start(&w, GOMOKUD_FAULTS_BIN, "") == 0, "restart after %s", fault);
		resume_both(&w, "playing", "");
		tc_send(w.a, "MOVE %s l8", w.room);
	} else if (dies == 0) {
		CHECK_LINE(w.a, "ERR 500");
		CHECK(!sent(w.b, "* MOVE", 300), "%s: bob was told of a move not stored", fault);
		expect_state(&w, w.b, "playing", "");
		tc_send(w.a, "MOVE %s l8", w.room);
	}
	CHECK_LINE(w.a, "OK MOVE");
	CHECK_LINE(w.b, "* OVER");
	snprintf(w.acked[w.nacked++], 4, "l8");
	rated_once(&w, ref);
	world_end(&w);
}

/* A rated game bob resigns after four moves, the fault on the resignation. */
static void
resign(const char *fault, int dies, int ref[2])
{
	struct world w;

	REQUIRE(world_new(&w) == 0, "state dir");
	REQUIRE(start(&w, GOMOKUD_FAULTS_BIN, fault) == 0, "daemon start (%s)", fault);
	accounts(&w);
	game(&w, "freestyle 15 none black rated none");
	play(&w, opening8, 4);
	quiet(&w);
	tc_send(w.b, "RESIGN %s", w.room);
	if (dies) {
		REQUIRE(died(&w), "%s: the daemon did not die", fault);
		CHECK(!sent(w.b, "OK RESIGN", 300), "%s: a resignation acknowledged, not stored",
		    fault);
		REQUIRE(start(&w, GOMOKUD_FAULTS_BIN, "") == 0, "restart after %s", fault);
		resume_both(&w, "playing", "");
	} else {
		CHECK_LINE(w.b, "ERR 500");
		CHECK(!sent(w.a, "* OVER", 300), "%s: alice was told of an end not stored", fault);
		expect_state(&w, w.a, "playing", "");
	}
	tc_send(w.b, "RESIGN %s", w.room);
	CHECK_LINE(w.b, "OK RESIGN");
	rated_once(&w, ref);
	world_end(&w);
}

/* Swap2: alice's three opening stones are stored together or not at all. */
static void
swap2_put(const char *fault, int dies)
{
	struct world w;

	REQUIRE(world_new(&w) == 0, "state dir");
	REQUIRE(start(&w, GOMOKUD_FAULTS_BIN, fault) == 0, "daemon start (%s)", fault);
	accounts(&w);
	game(&w, "freestyle 15 none black casual swap2");
	quiet(&w);
	tc_send(w.a, "SWAP2 %s put h8,i9,j10", w.room);
	if (dies) {
		REQUIRE(died(&w), "%s: the daemon did not die", fault);
		REQUIRE(start(&w, GOMOKUD_FAULTS_BIN, "") == 0, "restart after %s", fault);
		resume_both(&w, "opening", "put3");
	} else {
		CHECK_LINE(w.a, "ERR 500");
		CHECK(!sent(w.b, "* MOVE", 300), "%s: a stone was announced, none stored", fault);
		expect_state(&w, w.b, "opening", "put3");
	}
	tc_send(w.a, "SWAP2 %s put h8,i9,j10", w.room);
	CHECK_LINE(w.a, "OK SWAP2");
	snprintf(w.acked[w.nacked++], 4, "h8");
	snprintf(w.acked[w.nacked++], 4, "i9");
	snprintf(w.acked[w.nacked++], 4, "j10");
	expect_state(&w, w.b, "opening", "choose");
	world_end(&w);
}

/* A refused undo, colour choice or start changes nothing and can be tried
 * again. */
static void
refusals(void)
{
	struct world w;
	char code[64], id[24];

	REQUIRE(world_new(&w) == 0, "state dir");
	REQUIRE(start(&w, GOMOKUD_FAULTS_BIN, "before:undo-moves:1:fail") == 0, "daemon start");
	accounts(&w);
	game(&w, "freestyle 15 none black casual none");
	play(&w, opening8, 2);
	tc_send(w.a, "OFFER %s undo", w.room);
	REQUIRE_LINE(w.a, "OK OFFER");
	REQUIRE(sscanf(w.a->line, "OK OFFER %*s %23s", id) == 1, "%s", w.a->line);
	quiet(&w);
	tc_send(w.b, "ACCEPT %s %s", w.room, id);
	CHECK_LINE(w.b, "ERR 500");
	CHECK(!sent(w.a, "* UNDO", 300), "an undo announced that was not stored");
	expect_state(&w, w.a, "playing", "");
	tc_send(w.b, "ACCEPT %s %s", w.room, id);
	CHECK_LINE(w.b, "OK ACCEPT");
	CHECK_LINE(w.a, "* UNDO");
	w.nacked = 0; /* alice offered with herself to move: both plies back */
	expect_state(&w, w.a, "playing", "");
	world_end(&w);
	printf("ok an undo the store refuses changes nothing; accepted again, it is taken back\n");

	REQUIRE(world_new(&w) == 0, "state dir");
	REQUIRE(start(&w, GOMOKUD_FAULTS_BIN, "before:save-colours:1:fail") == 0, "daemon start");
	accounts(&w);
	game(&w, "freestyle 15 none black casual swap2");
	tc_send(w.a, "SWAP2 %s put h8,i9,j10", w.room);
	REQUIRE_LINE(w.a, "OK SWAP2");
	snprintf(w.acked[w.nacked++], 4, "h8");
	snprintf(w.acked[w.nacked++], 4, "i9");
	snprintf(w.acked[w.nacked++], 4, "j10");
	quiet(&w);
	tc_send(w.b, "SWAP2 %s white", w.room);
	CHECK_LINE(w.b, "ERR 500");
	CHECK(!sent(w.a, "* COLOURS", 300), "colours announced that were not stored");
	expect_state(&w, w.a, "opening", "choose");
	tc_send(w.b, "SWAP2 %s white", w.room);
	CHECK_LINE(w.b, "OK SWAP2");
	CHECK_LINE(w.a, "* COLOURS");
	world_end(&w);
	printf("ok a swap2 colour choice the store refuses changes nothing; the next is taken\n");

	REQUIRE(world_new(&w) == 0, "state dir");
	REQUIRE(start(&w, GOMOKUD_FAULTS_BIN, "before:begin-game:1:fail") == 0, "daemon start");
	accounts(&w);
	tc_send(w.a, "CREATE freestyle 15 none black rated none");
	REQUIRE_LINE(w.a, "OK CREATE");
	REQUIRE(sscanf(w.a->line, "OK CREATE %23s %63s", w.room, code) == 2, "%s", w.a->line);
	quiet(&w);
	tc_send(w.b, "JOIN %s", code);
	CHECK_LINE(w.b, "ERR 500");
	CHECK(!sent(w.a, "* START", 300), "a game announced that was not stored");
	tc_send(w.b, "JOIN %s", code);
	CHECK_LINE(w.b, "OK JOIN");
	CHECK_LINE(w.a, "* START");
	world_end(&w);
	printf("ok a game the store cannot start is refused; the room waits and the next JOIN "
	       "starts it\n");
}

/* Killed mid-migration, the next start finds a sound database. */
static void
migration(const char *fault)
{
	struct world w;

	REQUIRE(world_new(&w) == 0, "state dir");
	CHECK(start(&w, GOMOKUD_FAULTS_BIN, fault) != 0, "%s: started anyway", fault);
	REQUIRE(died(&w), "%s: the daemon did not die", fault);
	REQUIRE(
	    start(&w, GOMOKUD_FAULTS_BIN, "") == 0, "restart after %s (log %s)", fault, w.d.log);
	accounts(&w);
	world_end(&w);
}

/* A bot whose move the store refuses does not resign: it looks again a
 * second later, searches again and moves (pass 2 of save-move is the
 * bot's first stone; pass 1 is the player's). */
static void
bot_refused(void)
{
	struct world w;
	char want[64], room[17] = "";

	REQUIRE(world_new(&w) == 0, "state dir");
	REQUIRE(start(&w, GOMOKUD_FAULTS_BIN, "before:save-move:2:fail") == 0, "daemon start");
	struct tc *c = tc_guest(w.d.port, "hana");
	REQUIRE(c, "connect");
	tc_send(c, "BOT play 1 freestyle 15 none black none");
	const char *l = tc_expect(c, "OK BOT ", 5000);
	REQUIRE(l && sscanf(l, "OK BOT %16s", room) == 1, "BOT play: %s", c->line);
	tc_send(c, "MOVE %s h8", room);
	snprintf(want, sizeof want, "OK MOVE %s ", room);
	REQUIRE(tc_expect(c, want, 5000), "h8: %s", c->line);
	snprintf(want, sizeof want, "* MOVE %s ", room);
	while ((l = tc_read(c, 10000)) && strncmp(l, "* OVER ", 7) != 0 &&
	    !(strncmp(l, want, strlen(want)) == 0 && strstr(l, " white ")))
		;
	CHECK(l && strncmp(l, want, strlen(want)) == 0,
	    "the bot did not move after its refused stone (last: %s)", l ? l : "nothing");
	CHECK(daemon_log_count(&w.d, "injected fault") >= 1, "the fault was not hit: %s", w.d.log);
	tc_send(c, "STATE %s", room);
	snprintf(want, sizeof want, "= ROOM %s playing ", room);
	CHECK(tc_expect(c, want, 5000), "the game is not in play: %s", c->line);
	tc_close(c);
	world_end(&w);
	printf("ok a bot's stone refused by the store: the bot moves again a second later, no "
	       "resignation\n");
}

/* The release build knows no fault points. */
static void
release_ignores(void)
{
	struct world w;

	REQUIRE(world_new(&w) == 0, "state dir");
	REQUIRE(start(&w, GOMOKUD_BIN, "before:begin-game:1:fail") == 0, "daemon start");
	accounts(&w);
	game(&w, "freestyle 15 none black casual none");
	world_end(&w);
	printf("ok the release build ignores GOMOKUD_FAULT\n");
}

int
main(void)
{
	int ref[2] = { 0, 0 };
	static const char *const end_points[] = {
		"before:save-rating:1",
		"after:save-rating:1",
		"before:save-rating:2",
		"after:save-rating:2",
		"before:end-game:1",
		"after:end-game:1",
	};
	char fault[64];

	five("", -1, ref); /* the reference: no fault at all */
	printf("ok a rated game to five: one game counted, ratings %d/%d\n", ref[0], ref[1]);
	for (size_t i = 0; i < sizeof end_points / sizeof end_points[0]; i++) {
		snprintf(fault, sizeof fault, "%s:die", end_points[i]);
		five(fault, 1, ref);
		snprintf(fault, sizeof fault, "%s:fail", end_points[i]);
		five(fault, 0, ref);
	}
	printf("ok killed or refused at each write of a rated game's end (ratings, result):"
	       " nothing acknowledged is lost, nothing is rated twice\n");
	resign("after:save-rating:2:die", 1, ref);
	resign("before:end-game:1:die", 1, ref);
	resign("before:save-rating:1:fail", 0, ref);
	printf("ok killed or refused in a resignation: the game comes back in play, rated once "
	       "when resigned again\n");
	swap2_put("before:next-stone:1:die", 1);
	swap2_put("before:next-stone:2:die", 1);
	swap2_put("before:next-stone:1:fail", 0);
	printf("ok a swap2 put is stored whole or not at all: killed or refused between its "
	       "stones, the opening waits for the three stones again\n");
	refusals();
	bot_refused();
	migration("before:migration:3:die");
	migration("after:migration:6:die");
	printf("ok killed mid-migration, the next start migrates a sound database\n");
	release_ignores();
	printf("crash: %d failure%s\n", failures, failures == 1 ? "" : "s");
	return failures ? 1 : 0;
}
