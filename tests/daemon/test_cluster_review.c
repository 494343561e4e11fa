/*
 * test_cluster_review.c: on a cluster a live bot move goes before the
 * reviews' positions (issue 47). Node a has no workers, node b one; both
 * on a redis-server the test starts and on one PostgreSQL database (run
 * by tests/pg/test_pg.sh, which sets GOMOKU_PG_URL; without it the test
 * fails). Three reviews of quiet games (quietgame.h) are asked on a at
 * once, so that each has its next position waiting on gomoku:reviews
 * while b searches one (review-ms 1500); meanwhile a player on a plays a
 * bot. Asserted:
 *   - the order, from b's log: b never takes a review's position while
 *     its worker is busy (a position goes to its pool only onto an idle
 *     worker), and a bot's move that came while a position was searched
 *     is the next job b takes, before the positions waiting;
 *   - each bot move's wait, from the player's MOVE to the bot's * MOVE,
 *     stays under one position's budget plus the move's own search and a
 *     wide margin (with the three positions waiting served first it would
 *     be three budgets);
 *   - the reviews end, ok, with every position searched on b.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/daemon/check.h"
#include "tests/daemon/quietgame.h"
#include "tests/daemon/redisrun.h"
#include "tests/daemon/tclient.h"

#ifndef GOMOKUD_BIN
#define GOMOKUD_BIN "bin/gomokud"
#endif

enum {
	NODES = 2,
	WAIT_MS = 10000,
	REVIEW_MS = 1500, /* a position's budget */
	THINK_MS = 600,   /* a bot move's search at most */
	MARGIN_MS = 1500, /* the loaded machine's and Redis's share */
	PLIES = 16,       /* each reviewed game's moves: 17 positions */
	REVIEWS = 3,      /* under way at once */
	BOT_MOVES = 6,    /* played while they are */
	REVIEWED_MS = 300000,
	LOG_MAX = 1 << 22,
	ENTRIES_MAX = 512,
};

static struct daemon node[NODES];
static struct redisrun redis;
static char db[256];

static const char *const workers[NODES] = { "bot-threads none\n", "bot-threads 1\n" };
static const struct redis_nodes cl = { GOMOKUD_BIN, &redis, node, db,
	"bot-think-ms 600\nbot-preview-ms 0\nlog-level debug\nreview-ms 1500\n"
	"review-per-hour 1000\nrate-per-second 1000\nrate-burst 1000\nmax-per-address 100\n",
	workers };

/* A finished game of PLIES quiet moves on a (symmetry sym), black
 * resigning: its id, or -1. */
static long
finished_game(int sym)
{
	char mv[PLIES][16], bn[16], wn[16], room[24];
	struct tc *b = NULL, *w = NULL;
	long id = -1;
	snprintf(bn, sizeof bn, "qb%d", sym);
	snprintf(wn, sizeof wn, "qw%d", sym);
	if (quiet_game(PLIES, sym, mv) != 0 ||
	    tc_pair_guests(node[0].port, bn, wn, "freestyle 15 none", &b, &w, room, sizeof room))
		goto out;
	for (int i = 0; i < PLIES; i++) {
		struct tc *p = i % 2 ? w : b;
		tc_send(p, "MOVE %s %s", room, mv[i]);
		if (!tc_move_answer(p, LINE_MS) || strncmp(p->line, "OK MOVE", 7) != 0)
			goto out;
	}
	tc_send(b, "RESIGN %s", room);
	if (!tc_expect(b, "OK RESIGN", LINE_MS))
		goto out;
	tc_send(b, "HISTORY");
	if (tc_expect(b, "= GAME ", LINE_MS))
		id = atol(b->line + 7);
out:
	tc_close(b);
	tc_close(w);
	return id;
}

/* A new level-2 bot game on g's connection, the player black: 0, or -1. */
static int
bot_game(struct tc_botgame *g)
{
	struct tc *c = g->c;
	memset(g, 0, sizeof *g);
	g->c = c;
	g->human_black = 1;
	g->reply_ms = LINE_MS;
	g->bot_ms = WAIT_MS * 3;
	tc_send(c, "BOT play 2 freestyle 15 none black none");
	const char *l = tc_expect(c, "OK BOT ", LINE_MS);
	return l && sscanf(l, "OK BOT %23s", g->room) == 1 ? 0 : -1;
}

/* ---- b's log: the jobs it took and ended, in order ---------------------- */

struct job {
	char entry[48];
	int review;
};

static struct job jobs[ENTRIES_MAX];
static int njobs;

static struct job *
job_of(const char *entry)
{
	for (int i = 0; i < njobs; i++)
		if (strcmp(jobs[i].entry, entry) == 0)
			return &jobs[i];
	return NULL;
}

/* What b's log says from offset from on: the positions taken while the
 * worker was busy (*busy), the moves taken next after a review's position
 * ended while a move had been waiting for it (*after), moves (*moves) and
 * positions (*positions) taken, and the positions' searches that ran at
 * least half their budget (*full). -1 when the log cannot be read. */
static int
read_log(long from, int *busy, int *after, int *moves, int *positions, int *full)
{
	FILE *f = fopen(node[1].log, "r");
	if (!f)
		return -1;
	char line[1024];
	int inflight = 0, review_ended = 0;
	*busy = *after = *moves = *positions = *full = 0;
	njobs = 0;
	fseek(f, from, SEEK_SET);
	while (fgets(line, sizeof line, f)) {
		char entry[48], stream[32];
		int ms;
		const char *p = strstr(line, "cluster: bot job ");
		if (!p)
			continue;
		p += strlen("cluster: bot job ");
		if (sscanf(p, "%47s of node a taken from %31s", entry, stream) == 2 &&
		    njobs < ENTRIES_MAX) {
			struct job *j = &jobs[njobs++];
			snprintf(j->entry, sizeof j->entry, "%s", entry);
			j->review = strcmp(stream, "gomoku:reviews") == 0;
			if (j->review) {
				*positions += 1;
				*busy += inflight > 0;
			} else {
				*moves += 1;
				*after += review_ended;
			}
			review_ended = 0;
			inflight++;
		} else if (sscanf(p, "%47s of node a searched in %d ms", entry, &ms) == 2) {
			struct job *j = job_of(entry);
			if (!j)
				continue;
			inflight--;
			review_ended = j->review;
			*full += j->review && ms >= REVIEW_MS / 2;
		}
	}
	fclose(f);
	return 0;
}

static long
log_size(void)
{
	FILE *f = fopen(node[1].log, "r");
	long n = -1;
	if (f && fseek(f, 0, SEEK_END) == 0)
		n = ftell(f);
	if (f)
		fclose(f);
	return n;
}

/* ---- the test ----------------------------------------------------------- */

static void
test_moves_first(void)
{
	long games[REVIEWS];
	struct tc *rev[REVIEWS];
	for (int k = 0; k < REVIEWS; k++) {
		games[k] = finished_game(k);
		REQUIRE(games[k] > 0, "no finished game %d on a", k);
	}
	struct tc_botgame g;
	REQUIRE((g.c = tc_guest(node[0].port, "player")) != NULL, "no player on a");
	/* one move first, so that the bot's game is under way on b */
	REQUIRE(bot_game(&g) == 0, "no bot game: %s", g.c->line);
	REQUIRE(tc_bot_human(&g) == 0 && tc_bot_wait(&g) == 1, "the bot's first move: %s", tc_why);
	const char *l;

	long from = log_size();
	REQUIRE(from >= 0, "b's log: %s", node[1].log);
	for (int k = 0; k < REVIEWS; k++) {
		char name[16];
		snprintf(name, sizeof name, "rev%d", k);
		REQUIRE((rev[k] = tc_guest(node[0].port, name)) != NULL, "no reviewer %d", k);
		tc_send(rev[k], "REVIEW %ld", games[k]);
		CHECK_LINE(rev[k], "OK REVIEW");
	}
	/* the positions begin: a move from now on finds them waiting */
	REQUIRE(daemon_wait_log(&node[1], "taken from gomoku:reviews", 0, WAIT_MS),
	    "b took no review's position");
	long long worst = 0;
	int played = 0;
	while (played < BOT_MOVES) {
		usleep(300000 + 250000 * (played % 3)); /* not in step with the positions */
		long long t0 = tc_now_ms();
		REQUIRE(tc_bot_human(&g) == 0, "the player's move: %s", tc_why);
		int rc = g.over ? 0 : tc_bot_wait(&g);
		REQUIRE(rc >= 0, "the bot's move: %s", tc_why);
		if (rc == 0) { /* the game ended: another */
			tc_send(g.c, "LEAVE %s", g.room);
			REQUIRE(tc_expect(g.c, "OK LEAVE", LINE_MS), "LEAVE: %s", g.c->line);
			REQUIRE(bot_game(&g) == 0, "no new bot game: %s", g.c->line);
			continue;
		}
		long long t = tc_now_ms() - t0;
		printf("  bot move %d: %lld ms\n", ++played, t);
		worst = t > worst ? t : worst;
	}
	int busy, after, moves, positions, full;
	REQUIRE(read_log(from, &busy, &after, &moves, &positions, &full) == 0, "b's log");
	int still = positions < REVIEWS * PLIES; /* the reviews under way then */
	CHECK(
	    still, "the reviews were over before the %d bot moves: make the games longer", played);
	CHECK(worst < REVIEW_MS + THINK_MS + MARGIN_MS,
	    "a bot move waited %lld ms, more than one position's %d ms (and %d + %d)", worst,
	    REVIEW_MS, THINK_MS, MARGIN_MS);
	CHECK(moves >= played, "b took %d moves for %d bot moves", moves, played);
	CHECK(busy == 0, "b took %d review positions while its worker was busy", busy);
	CHECK(after >= 1 && full >= 1,
	    "no move waited for a position's search (%d moves after one, %d of %d positions "
	    "ran half their budget): the test saw no contention",
	    after, full, positions);
	printf("  %d positions and %d moves taken by b while the moves were played; %d moves "
	       "next after a position ended; the longest wait %lld ms\n",
	    positions, moves, after, worst);
	tc_close(g.c);

	/* the reviews end, every position searched on b */
	for (int k = 0; k < REVIEWS; k++) {
		char want[48];
		snprintf(want, sizeof want, "* REVIEWED %ld ok %d ", games[k], PLIES);
		while ((l = tc_read(rev[k], REVIEWED_MS)) && strncmp(l, "* REVIEWED", 10))
			;
		CHECK(
		    l && !strncmp(l, want, strlen(want)), "review %d: %s", k, l ? l : rev[k]->line);
		tc_close(rev[k]);
	}
	REQUIRE(read_log(from, &busy, &after, &moves, &positions, &full) == 0, "b's log");
	CHECK(busy == 0 && positions >= REVIEWS * PLIES,
	    "after the reviews: %d positions on b, %d taken while busy", positions, busy);
	CHECK(daemon_log_count(&node[0], "cluster: bot job") == 0, "a searched a job itself");
	ok("on a cluster a bot's move goes before the reviews' waiting positions");
}

int
main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	int code;
	if (redis_guard(&redis, &code) != 0)
		return code;
	int rc = tc_pg_database("creview", db, sizeof db);
	if (rc != 0) {
		printf(rc > 0 ? "FAIL: the reviews across nodes need the shared database: run it "
				"under tests/pg/test_pg.sh\n"
			      : "FAIL: cannot create the cluster's database\n");
		return 1;
	}
	if (redis_nodes_up(&cl, NODES) != 0)
		return 1;
	for (int i = 0; i < NODES; i++)
		if (!daemon_wait_log(&node[i], "on Redis", 0, WAIT_MS)) {
			printf("FAIL: node %s never reached Redis (%s)\n", redis_names[i],
			    node[i].log);
			return 1;
		}
	test_moves_first();
	return redis_finish(&redis, node, NODES, 0, failures);
}
