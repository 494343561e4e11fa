/*
 * test_brain.c: the brain driver (bot/brain.h) on a libevent loop with real
 * brains: whole games of bin/pbrain-gomoku against the sparring brain
 * s002 (node, ../shared), every move judged again by the rules core here;
 * TAKEBACK, and its refusal answered with BOARD; SWAP2BOARD declared and
 * not; and the failures, with tests/bot/fixture_brain: a crash on the 3rd
 * TURN (restarted, the game goes on from BOARD), a hang killed at its
 * absolute deadline with the child it started, floods killed at their
 * bounds, garbage, N failures giving up, ERROR to START. Every process any
 * test started (brains, restarted brains, a brain's own child) is gone by
 * its pid at the end.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <errno.h>
#include <event2/event.h>
#include <signal.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "bot/brain.h"
#include "rules/rules.h"
#include "tests/shared.h"

#ifndef PBRAIN
#define PBRAIN "bin/pbrain-gomoku"
#endif
#ifndef FIXTURE
#define FIXTURE "build/default-cc/tests/bot/fixture_brain"
#endif

enum { MAX_PIDS = 32, LIMIT_MS = 30000 };

typedef struct match match_t;

typedef struct {
	match_t *m;
	brain_t *b;
	int colour; /* STONE_BLACK or STONE_WHITE; STONE_EMPTY: not yet */
	int moves, failed, giveup, nosize, noswap2, swap2s;
	int board_after_fail; /* "DEBUG board N" with N the stones it was given */
	int thinking;         /* "DEBUG thinking" lines in the last answer's log */
	int last_board;       /* N of "DEBUG board N" in the last answer, or -1 */
	int left;             /* its time left on a match clock */
	int last_nlog, last_dropped, last_failures;
	long last_elapsed;
	brain_result_t swap2; /* the last BRAIN_SWAP2 */
	char text[256];
	pid_t child;     /* the fixture's own child ("DEBUG child N") */
	char probe[128]; /* the last "DEBUG probe ..." line's rest */
} side_t;

struct match {
	struct event_base *base;
	position_t pos; /* the referee's */
	side_t side[2];
	int nsides, done;
	brain_clock_t clk;
	pid_t pids[MAX_PIDS];
	int npids;
};

static int64_t
now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void
note_pid(match_t *m, pid_t p)
{
	if (p <= 0)
		return;
	for (int i = 0; i < m->npids; i++)
		if (m->pids[i] == p)
			return;
	assert_true(m->npids < MAX_PIDS);
	m->pids[m->npids++] = p;
}

/* Gone: no such process, or a zombie nobody reaps (a container's init). */
static int
gone(pid_t p)
{
	char path[64], buf[256];
	if (kill(p, 0) < 0 && errno == ESRCH)
		return 1;
	snprintf(path, sizeof path, "/proc/%d/stat", (int)p);
	FILE *f = fopen(path, "r");
	if (!f)
		return 1;
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = 0;
	char *rp = strrchr(buf, ')');
	return rp && rp[1] == ' ' && (rp[2] == 'Z' || rp[2] == 'X');
}

static void
assert_all_gone(match_t *m)
{
	int64_t until = now_ms() + 3000;
	for (int i = 0; i < m->npids; i++) {
		while (!gone(m->pids[i]) && now_ms() < until)
			usleep(10000);
		if (!gone(m->pids[i]))
			fail_msg("process %d left behind", (int)m->pids[i]);
	}
}

static void
scan_log(side_t *s, const brain_result_t *r)
{
	s->thinking = 0;
	s->last_board = -1;
	for (int i = 0; i < r->nlog; i++) {
		int n;
		if (sscanf(r->log[i], "DEBUG pid %d", &n) == 1)
			note_pid(s->m, (pid_t)n);
		if (sscanf(r->log[i], "DEBUG board %d", &n) == 1)
			s->last_board = n;
		if (strcmp(r->log[i], "DEBUG thinking") == 0)
			s->thinking++;
		if (strncmp(r->log[i], "DEBUG probe ", 12) == 0)
			snprintf(s->probe, sizeof s->probe, "%s", r->log[i] + 12);
		if (sscanf(r->log[i], "DEBUG child %d", &n) == 1) {
			s->child = (pid_t)n;
			note_pid(s->m, s->child);
		}
		if (r->kind == BRAIN_MOVE && s->failed &&
		    sscanf(r->log[i], "DEBUG board %d", &n) == 1 && n == s->m->pos.nmoves)
			s->board_after_fail = 1;
	}
	s->last_nlog = r->nlog;
	s->last_dropped = r->dropped;
	s->last_failures = r->failures;
	s->last_elapsed = r->elapsed_ms;
	assert_true(r->nlog <= 64);
}

static void
finish(match_t *m)
{
	m->done = 1;
	for (int i = 0; i < m->nsides; i++)
		brain_end(m->side[i].b);
}

static void
on_result(brain_t *b, const brain_result_t *r, void *arg)
{
	side_t *s = arg, *o;
	match_t *m = s->m;

	note_pid(m, brain_pid(b));
	if (getenv("TEST_BRAIN_VERBOSE")) {
		printf("  side %d: kind %d nmoves %d text \"%s\" failures %d %ld ms\n",
		    (int)(s - m->side), (int)r->kind, r->nmoves, r->text, r->failures,
		    r->elapsed_ms);
		for (int i = 0; i < r->nlog; i++)
			printf("    %s\n", r->log[i]);
	}
	scan_log(s, r);
	if (r->text[0]) /* the last failure's or refusal's */
		snprintf(s->text, sizeof s->text, "%s", r->text);
	switch (r->kind) {
	case BRAIN_MOVE:
		s->moves++;
		assert_int_equal(r->nmoves, 1);
		assert_int_equal(pos_to_move(&m->pos), s->colour);
		/* the referee's own judgement, not the driver's */
		assert_int_equal(pos_play(&m->pos, r->moves[0]), LEGAL_OK);
		assert_int_equal(brain_pos(b)->nmoves, m->pos.nmoves);
		if (m->pos.outcome.kind != RESULT_ONGOING) {
			finish(m);
			return;
		}
		if (m->nsides == 2) {
			brain_clock_t clk = m->clk;
			o = &m->side[s == &m->side[0] ? 1 : 0];
			if (clk.timeout_match > 0) { /* each side's own time left */
				s->left -= (int)r->elapsed_ms;
				assert_true(s->left > 0);
				clk.time_left = o->left;
			}
			assert_int_equal(brain_turn(o->b, r->moves[0], &clk), 0);
			note_pid(m, brain_pid(o->b));
		} else {
			m->done = 1;
		}
		return;
	case BRAIN_FAILED:
		s->failed++;
		return;
	case BRAIN_GIVEUP:
		s->giveup++;
		assert_int_equal(brain_pid(b), 0);
		finish(m);
		return;
	case BRAIN_NO_SIZE:
		s->nosize++;
		finish(m);
		return;
	case BRAIN_NO_SWAP2:
		s->noswap2++;
		m->done = 1;
		return;
	case BRAIN_SWAP2:
		s->swap2s++;
		s->swap2 = *r;
		m->done = 1;
		return;
	}
}

static void
match_init(match_t *m, int nsides)
{
	memset(m, 0, sizeof *m);
	m->base = event_base_new();
	assert_non_null(m->base);
	m->nsides = nsides;
	for (int i = 0; i < 2; i++)
		m->side[i].m = m;
}

static brain_t *
side_new(match_t *m, int i, const brain_conf_t *c)
{
	side_t *s = &m->side[i];
	s->b = brain_new(m->base, c, on_result, s);
	assert_non_null(s->b);
	return s->b;
}

/* Runs the loop until done and every brain is reaped; the time it took. */
static long
run(match_t *m)
{
	int64_t t0 = now_ms();
	for (;;) {
		int live = 0;
		for (int i = 0; i < m->nsides; i++)
			live += brain_pid(m->side[i].b) != 0;
		if (m->done && !live)
			break;
		if (m->done && m->nsides == 1 && m->side[0].b && !m->side[0].giveup &&
		    !m->side[0].nosize)
			break; /* a solo step: the test goes on with the brain */
		if (now_ms() - t0 > LIMIT_MS)
			fail_msg("no end within %d ms", LIMIT_MS);
		struct timeval tv = { 0, 100000 };
		event_base_loopexit(m->base, &tv);
		event_base_loop(m->base, EVLOOP_ONCE);
	}
	return (long)(now_ms() - t0);
}

static void
match_free(match_t *m)
{
	for (int i = 0; i < 2; i++)
		if (m->side[i].b) {
			note_pid(m, brain_pid(m->side[i].b));
			brain_free(m->side[i].b);
		}
	event_base_free(m->base);
	assert_all_gone(m);
}

static void
game(match_t *m, rule_t rule, int size)
{
	assert_int_equal(pos_init(&m->pos, rule, size), 0);
	for (int i = 0; i < 2; i++) {
		side_t *s = &m->side[i];
		s->colour = i == 0 ? STONE_BLACK : STONE_WHITE;
		s->left = m->clk.time_left;
		assert_int_equal(
		    brain_game(s->b, rule, size, (stone_t)s->colour, NULL, 0, &m->clk, 1), 0);
		note_pid(m, brain_pid(s->b));
	}
}

static char flag_path[128];

static const char **
fixture(const char *mode, const char *a, const char *b)
{
	static const char *argv[5];
	argv[0] = FIXTURE;
	argv[1] = mode;
	argv[2] = a;
	argv[3] = a ? b : NULL;
	argv[4] = NULL;
	return argv;
}

static const char *seed_argv[] = { "node", NULL, "s002", NULL };
static char seed_path[512];

/* The sparring brain, or NULL: the test plays the fixture instead, or
 * fails when the shared material is required. */
static const char **
seed(void)
{
	FILE *f = shared_open("sparring/seedbrain.js", seed_path, sizeof seed_path);
	if (!f) {
		if (shared_required())
			fail_msg("%s absent and GOMOKU_REQUIRE_SHARED is set", seed_path);
		return NULL;
	}
	fclose(f);
	if (system("node --version > /dev/null 2>&1") != 0) {
		if (shared_required())
			fail_msg("node absent and GOMOKU_REQUIRE_SHARED is set");
		printf("  node absent: skipped\n");
		return NULL;
	}
	seed_argv[1] = seed_path;
	return seed_argv;
}

static const char *pbrain_argv[] = { PBRAIN, NULL };

static brain_conf_t
conf_of(const char **argv)
{
	brain_conf_t c = brain_conf_default();
	c.argv = argv;
	c.margin_ms = 2000; /* a loaded machine's node start */
	return c;
}

/* pbrain-gomoku (black) against s002 (white), then colours swapped on a
 * match clock (INFO time_left each move): both games end, every move legal
 * by the referee, no failure. Without ../shared (not required), against the
 * fixture's plain play. */
static void
test_whole_games(void **state)
{
	(void)state;
	const char **sv = seed();
	if (!sv) {
		printf("  against the fixture's centre-first play instead\n");
		sv = fixture("play", NULL, NULL);
	}
	for (int round = 0; round < 2; round++) {
		match_t m;
		match_init(&m, 2);
		brain_conf_t pc = conf_of(pbrain_argv), sc = conf_of(sv);
		side_new(&m, round, &pc);
		side_new(&m, 1 - round, &sc);
		if (round == 0)
			m.clk = (brain_clock_t){ .timeout_turn = 100 };
		else
			m.clk = (brain_clock_t){
				.timeout_turn = 200, .timeout_match = 60000, .time_left = 60000
			};
		game(&m, RULE_FREESTYLE, 15);
		long ms = run(&m);
		printf("  game %d: %d moves, %s, %ld ms\n", round + 1, m.pos.nmoves,
		    m.pos.outcome.kind == RESULT_DRAW         ? "draw"
			: m.pos.outcome.winner == STONE_BLACK ? "black won"
							      : "white won",
		    ms);
		assert_int_not_equal(m.pos.outcome.kind, RESULT_ONGOING);
		assert_int_equal(m.side[0].failed + m.side[1].failed, 0);
		assert_true(m.side[0].moves + m.side[1].moves == m.pos.nmoves);
		assert_true(m.npids >= 2);
		match_free(&m);
	}
}

/* The fixture crashes (SIGABRT) on its 3rd TURN, once: it is restarted,
 * gets the game with BOARD, and the game against pbrain-gomoku goes on to
 * its end. */
static void
test_crash_restart(void **state)
{
	(void)state;
	snprintf(flag_path, sizeof flag_path, "/tmp/test_brain_flag.%d", (int)getpid());
	unlink(flag_path);
	match_t m;
	match_init(&m, 2);
	brain_conf_t pc = conf_of(pbrain_argv), fc = conf_of(fixture("crash-turn", "3", flag_path));
	side_new(&m, 0, &pc);
	side_new(&m, 1, &fc);
	m.clk = (brain_clock_t){ .timeout_turn = 100 };
	game(&m, RULE_FREESTYLE, 15);
	run(&m);
	unlink(flag_path);
	assert_int_not_equal(m.pos.outcome.kind, RESULT_ONGOING);
	assert_int_equal(m.side[1].failed, 1);
	assert_int_equal(m.side[1].giveup, 0);
	assert_non_null(strstr(m.side[1].text, "signal 6"));
	assert_int_equal(m.side[1].board_after_fail, 1);
	assert_true(m.side[1].moves >= 3);
	assert_int_equal(m.side[0].failed, 0);
	assert_true(m.npids >= 3); /* pbrain, the fixture, the restarted one */
	match_free(&m);
}

/* The sandbox (bot/sandbox.h) around both brains: pbrain-gomoku plays a
 * whole game in it, and the fixture finds no network, no parent to signal
 * and nowhere to write; the same two outside it, the fixture finds all
 * three. */
static void
test_sandbox(void **state)
{
	(void)state;
	char path[64];
	snprintf(path, sizeof path, "/tmp/test_brain_probe.%d", (int)getpid());
	for (int boxed = 1; boxed >= 0; boxed--) {
		match_t m;
		match_init(&m, 2);
		brain_conf_t pc = conf_of(pbrain_argv), fc = conf_of(fixture("probe", "0", path));
		pc.sandbox = fc.sandbox = boxed;
		side_new(&m, 0, &pc);
		side_new(&m, 1, &fc);
		m.clk = (brain_clock_t){ .timeout_turn = 100 };
		game(&m, RULE_FREESTYLE, 15);
		run(&m);
		assert_int_not_equal(m.pos.outcome.kind, RESULT_ONGOING);
		assert_int_equal(m.side[0].failed, 0);
		assert_int_equal(m.side[1].failed, 0);
		assert_true(m.side[0].moves >= 3);
		assert_string_equal(m.side[1].probe,
		    boxed ? "socket EACCES parent EPERM write EACCES"
			  : "socket ok parent ok write ok");
		match_free(&m);
	}
	assert_int_equal(access(path, F_OK), -1);
}

/* One brain alone, black: BEGIN; the result of its first answer. */
static long
solo(match_t *m, const brain_conf_t *c, int size, const brain_clock_t *clk)
{
	match_init(m, 1);
	side_new(m, 0, c);
	m->side[0].colour = STONE_BLACK;
	pos_init(&m->pos, RULE_FREESTYLE, size);
	assert_int_equal(
	    brain_game(m->side[0].b, RULE_FREESTYLE, size, STONE_BLACK, NULL, 0, clk, 1), 0);
	note_pid(m, brain_pid(m->side[0].b));
	return run(m);
}

/* A brain that writes DEBUG lines every 50 ms but never moves is killed at
 * its deadline, set once when asked (300 ms + 200 ms margin + 100 ms to set
 * up, its process's first move): the output does not move it. Its own child dies with it (the process group). One
 * that never answers START is killed at start_ms. */
static void
test_hang(void **state)
{
	(void)state;
	match_t m;
	brain_conf_t c = conf_of(fixture("hang", NULL, NULL));
	c.margin_ms = 200;
	c.setup_ms = 100;
	c.max_failures = 1;
	brain_clock_t clk = { .timeout_turn = 300 };
	long ms = solo(&m, &c, 15, &clk);
	printf("  killed %ld ms after the move was asked (deadline 600 ms), %d DEBUG lines "
	       "meanwhile\n",
	    m.side[0].last_elapsed, m.side[0].thinking);
	assert_int_equal(m.side[0].giveup, 1);
	assert_non_null(strstr(m.side[0].text, "no move within 300 ms"));
	assert_true(ms >= 590);
	assert_true(ms < 600 + 5000);
	assert_true(m.side[0].last_elapsed >= 590);
	assert_true(m.side[0].thinking >= 3); /* it spoke, and was killed anyway */
	assert_true(m.side[0].child > 0);
	match_free(&m);

	/* one that never answers START: start_ms, not a move's time */
	c = conf_of(fixture("mute", NULL, NULL));
	c.start_ms = 300;
	c.max_failures = 1;
	ms = solo(&m, &c, 15, &clk);
	assert_int_equal(m.side[0].giveup, 1);
	assert_non_null(strstr(m.side[0].text, "no answer to START within 300 ms"));
	assert_true(ms >= 290);
	assert_true(ms < 300 + 5000);
	match_free(&m);
}

/* Floods: a line with no end is killed at line_max; endless short lines at
 * answer_max, the log kept to log_max lines; garbage for a move and an
 * occupied point are failures too; ERROR to INFO lines is none. */
static void
test_flood(void **state)
{
	(void)state;
	match_t m;
	brain_conf_t c = conf_of(fixture("flood-line", NULL, NULL));
	c.line_max = 1024;
	c.max_failures = 1;
	solo(&m, &c, 15, NULL);
	assert_int_equal(m.side[0].giveup, 1);
	assert_non_null(strstr(m.side[0].text, "line over 1024 bytes"));
	match_free(&m);

	c = conf_of(fixture("flood-lines", NULL, NULL));
	c.answer_max = 65536;
	c.log_max = 8;
	c.max_failures = 1;
	solo(&m, &c, 15, NULL);
	assert_int_equal(m.side[0].giveup, 1);
	assert_non_null(strstr(m.side[0].text, "flooded its output"));
	assert_int_equal(m.side[0].last_nlog, 8);
	assert_true(m.side[0].last_dropped > 1000);
	match_free(&m);

	c = conf_of(fixture("garbage", NULL, NULL));
	c.max_failures = 1;
	solo(&m, &c, 15, NULL);
	assert_int_equal(m.side[0].giveup, 1);
	assert_non_null(strstr(m.side[0].text, "\"hello\", not a move"));
	match_free(&m);

	/* an occupied point: the rules core's judgement, a failure */
	c = conf_of(fixture("corner", NULL, NULL));
	c.max_failures = 1;
	solo(&m, &c, 15, NULL);
	assert_int_equal(m.side[0].moves, 1);
	assert_int_equal(m.pos.moves[0], rules_move(0, 0));
	assert_int_equal(pos_play(&m.pos, rules_move(1, 1)), LEGAL_OK);
	m.done = 0;
	assert_int_equal(brain_turn(m.side[0].b, rules_move(1, 1), NULL), 0);
	run(&m);
	assert_int_equal(m.side[0].giveup, 1);
	assert_non_null(strstr(m.side[0].text, "played 0,0: illegal (occupied)"));
	assert_int_equal(brain_pos(m.side[0].b)->nmoves, 2);
	match_free(&m);

	/* ERROR to INFO lines (which want no answer): kept, no failure */
	c = conf_of(fixture("infoerror", NULL, NULL));
	c.max_failures = 1;
	solo(&m, &c, 15, NULL);
	assert_int_equal(m.side[0].moves, 1);
	assert_int_equal(m.side[0].failed + m.side[0].giveup, 0);
	match_free(&m);
}

/* A brain that loses a command coming right after its move (the fixture's
 * racy mode, as Rapfi does) against pbrain-gomoku answering within 20 ms:
 * without settle_ms every TURN fails and the third failure gives up; with
 * it (longer than the fixture's 200 ms window) the game plays to its end
 * without a failure. */
static void
test_settle(void **state)
{
	(void)state;
	for (int settled = 0; settled < 2; settled++) {
		match_t m;
		match_init(&m, 2);
		brain_conf_t pc = conf_of(pbrain_argv), rc = conf_of(fixture("racy", NULL, NULL));
		rc.settle_ms = settled ? 250 : 0;
		side_new(&m, 0, &pc);
		side_new(&m, 1, &rc);
		m.clk = (brain_clock_t){ .timeout_turn = 20 };
		game(&m, RULE_FREESTYLE, 15);
		run(&m);
		printf("  settle_ms %d: %d moves, racy brain failed %d, gave up %d\n", rc.settle_ms,
		    m.pos.nmoves, m.side[1].failed, m.side[1].giveup);
		if (settled) {
			assert_int_not_equal(m.pos.outcome.kind, RESULT_ONGOING);
			assert_int_equal(m.side[1].failed + m.side[1].giveup, 0);
			assert_true(m.side[1].moves >= 3);
		} else {
			assert_int_equal(m.side[1].giveup, 1);
			assert_non_null(strstr(m.side[1].text, "Unknown command"));
		}
		assert_int_equal(m.side[0].failed, 0);
		match_free(&m);
	}
}

/* A brain that crashes on every move request: restarted twice, then the
 * third failure gives up (max_failures 3); three processes, all gone. */
static void
test_giveup(void **state)
{
	(void)state;
	match_t m;
	brain_conf_t c = conf_of(fixture("crash-move", "1", "-"));
	c.max_failures = 3;
	solo(&m, &c, 15, NULL);
	assert_int_equal(m.side[0].failed, 2);
	assert_int_equal(m.side[0].giveup, 1);
	assert_int_equal(m.side[0].last_failures, 3);
	assert_int_equal(brain_failures(m.side[0].b), 3);
	assert_int_equal(m.npids, 3);
	match_free(&m);
}

/* ERROR to START: reported as a size the brain cannot play; END ends it. */
static void
test_no_size(void **state)
{
	(void)state;
	match_t m;
	brain_conf_t c = conf_of(fixture("size", "15", NULL));
	solo(&m, &c, 19, NULL);
	assert_int_equal(m.side[0].nosize, 1);
	assert_int_equal(m.side[0].failed + m.side[0].giveup, 0);
	assert_non_null(strstr(m.side[0].text, "unsupported size 19"));
	match_free(&m);

	solo(&m, &c, 15, NULL); /* the size it plays */
	assert_int_equal(m.side[0].moves, 1);
	match_free(&m);
}

/* Takes back two moves; the opponent then plays the point the brain had
 * taken: pbrain-gomoku (TAKEBACK answered OK) would call it occupied had
 * it not taken its stone back. A brain that answers UNKNOWN gets BOARD. */
static void
test_takeback(void **state)
{
	(void)state;
	const char **argvs[2] = { pbrain_argv, fixture("notakeback", NULL, NULL) };
	for (int k = 0; k < 2; k++) {
		match_t m;
		brain_conf_t c = conf_of(argvs[k]);
		brain_clock_t clk = { .timeout_turn = 100 };
		solo(&m, &c, 15, &clk);
		side_t *s = &m.side[0];
		move_t first = m.pos.moves[0];
		move_t w = first == rules_move(0, 0) ? rules_move(1, 0) : rules_move(0, 0);
		assert_int_equal(pos_play(&m.pos, w), LEGAL_OK);
		m.done = 0;
		assert_int_equal(brain_turn(s->b, w, &clk), 0);
		assert_int_equal(brain_takeback(s->b, 1), -1); /* it is thinking */
		run(&m);
		move_t taken = m.pos.moves[2];
		assert_int_equal(brain_takeback(s->b, 2), 0);
		pos_undo(&m.pos);
		pos_undo(&m.pos);
		assert_int_equal(brain_pos(s->b)->nmoves, 1);
		m.done = 0;
		assert_int_equal(pos_play(&m.pos, taken), LEGAL_OK);
		assert_int_equal(brain_turn(s->b, taken, &clk), 0);
		run(&m);
		assert_int_equal(m.pos.nmoves, 3);
		assert_int_equal(s->failed, 0);
		if (k == 1) /* the refusal: BOARD with the two stones */
			assert_int_equal(s->last_board, 2);
		else
			assert_int_equal(s->last_board, -1);
		match_free(&m);
	}
}

/* SWAP2BOARD, declared: pbrain-gomoku opens with three stones, then
 * answers them (SWAP, or one or two stones). Not declared: refused here.
 * Declared for a brain that does not speak it: BRAIN_NO_SWAP2. */
static void
test_swap2(void **state)
{
	(void)state;
	match_t m;
	brain_conf_t c = conf_of(pbrain_argv);
	brain_clock_t clk = { .timeout_turn = 200 };

	c.swap2 = 1;
	match_init(&m, 1);
	side_t *s = &m.side[0];
	side_new(&m, 0, &c);
	assert_int_equal(brain_game(s->b, RULE_STANDARD, 15, STONE_EMPTY, NULL, 0, &clk, 1), 0);
	assert_int_equal(brain_turn(s->b, rules_move(7, 7), &clk), -1); /* no colour */
	assert_int_equal(brain_swap2(s->b, &clk), 0);
	note_pid(&m, brain_pid(s->b));
	run(&m);
	assert_int_equal(s->swap2s, 1);
	assert_int_equal(s->swap2.nmoves, 3);
	assert_int_equal(s->swap2.swap, 0);
	move_t three[3];
	memcpy(three, s->swap2.moves, sizeof three);
	assert_int_equal(brain_setpos(s->b, STONE_EMPTY, three, 3), 0);
	m.done = 0;
	assert_int_equal(brain_swap2(s->b, &clk), 0);
	run(&m);
	assert_int_equal(s->swap2s, 2);
	assert_true(
	    s->swap2.swap ? s->swap2.nmoves == 0 : s->swap2.nmoves == 1 || s->swap2.nmoves == 2);
	/* the opening over: white to move on three stones, the brain white */
	assert_int_equal(brain_setpos(s->b, STONE_WHITE, three, 3), 0);
	pos_init(&m.pos, RULE_STANDARD, 15);
	for (int i = 0; i < 3; i++)
		pos_play(&m.pos, three[i]);
	s->colour = STONE_WHITE;
	m.done = 0;
	assert_int_equal(brain_think(s->b, &clk), 0);
	run(&m);
	assert_int_equal(s->moves, 1);
	match_free(&m);

	c.swap2 = 0;
	match_init(&m, 1);
	s = &m.side[0];
	side_new(&m, 0, &c);
	assert_int_equal(brain_game(s->b, RULE_STANDARD, 15, STONE_EMPTY, NULL, 0, &clk, 1), 0);
	assert_int_equal(brain_swap2(s->b, &clk), -1);
	note_pid(&m, brain_pid(s->b));
	match_free(&m);

	const char **sv = seed();
	c = conf_of(sv ? sv : fixture("play", NULL, NULL));
	c.swap2 = 1;
	match_init(&m, 1);
	s = &m.side[0];
	side_new(&m, 0, &c);
	assert_int_equal(brain_game(s->b, RULE_STANDARD, 15, STONE_EMPTY, NULL, 0, &clk, 1), 0);
	note_pid(&m, brain_pid(s->b));
	assert_int_equal(brain_swap2(s->b, &clk), 0);
	run(&m);
	assert_int_equal(s->noswap2, 1);
	assert_int_equal(s->failed, 0);
	match_free(&m);
}

int
main(void)
{
	signal(SIGPIPE, SIG_IGN);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_whole_games),
		cmocka_unit_test(test_crash_restart),
		cmocka_unit_test(test_hang),
		cmocka_unit_test(test_flood),
		cmocka_unit_test(test_giveup),
		cmocka_unit_test(test_settle),
		cmocka_unit_test(test_no_size),
		cmocka_unit_test(test_takeback),
		cmocka_unit_test(test_swap2),
		cmocka_unit_test(test_sandbox),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
