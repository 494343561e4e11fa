/*
 * test_cluster_bots.c: bots anywhere (issue 26, item 5). Node a runs with
 * bot-threads none, nodes b and c have one worker each; all on a Redis the
 * test starts (as test_cluster.c does). A player on a plays a whole bot
 * game and every bot move is searched on b (b's log names each job, a has
 * no workers and searched nothing); b or c, whichever took the job, is
 * killed (kill -9) mid-search: the other claims the job and the game goes
 * on to its end; Redis killed while the bot is to move: the bot does not
 * hang, a says it asks again, and the bot moves once Redis is back;
 * garbage on the job stream and on a's channel is dropped and no node
 * falls; a bot on a opens a RIF game, each of its three stones an opening
 * job b decided (issue 46); an ANALYSE on a searched on b, and a REVIEW
 * on a whose every position b searched, its lines sent back (issue 47).
 * Without redis-server the test says so and skips, unless
 * GOMOKU_REQUIRE_SHARED=1 (CI): then it fails.
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

enum { NODES = 3, WAIT_MS = 8000, BOT_WAIT_MS = 40000 };

static struct daemon node[NODES];
static struct redisrun redis;

/* Node a without workers, b and c with one each; all log debug (the
 * workers name each job they take and search). */
static const char *const workers[NODES] = { "bot-threads none\n", "bot-threads 1\n",
	"bot-threads 1\n" };
static const struct redis_nodes cl = { GOMOKUD_BIN, &redis, node, NULL,
	"bot-think-ms 600\nbot-preview-ms 0\nlog-level debug\n", workers };

/* A new bot game of level on a, the human black. */
static int
game_new(struct tc_botgame *g, const char *name, int level)
{
	memset(g, 0, sizeof *g);
	g->human_black = 1;
	g->reply_ms = LINE_MS;
	g->bot_ms = BOT_WAIT_MS;
	if (!(g->c = tc_guest(node[0].port, name)))
		return -1;
	tc_send(g->c, "BOT play %d freestyle 15 none black none", level);
	const char *l = tc_expect(g->c, "OK BOT ", LINE_MS);
	return l && sscanf(l, "OK BOT %23s", g->room) == 1 ? 0 : -1;
}

/* A whole game on a; every bot move is a job b searched, and a searched
 * nothing itself. */
static void
test_remote_game(void)
{
	struct tc_botgame g;
	int searched = daemon_log_count(&node[1], "of node a searched");
	REQUIRE(game_new(&g, "alice", 3) == 0, "no bot game on a (last: %s)",
	    g.c ? g.c->line : "no connection");
	CHECK(tc_bot_play_out(&g) == 0, "the game stopped after %d bot moves: %s", g.bot_moves,
	    tc_why);
	CHECK(g.over && g.bot_moves >= 4, "over %d after %d bot moves", g.over, g.bot_moves);
	/* the result reaches a just after b logs it */
	int on_b = daemon_log_count(&node[1], "of node a searched") - searched;
	CHECK(on_b == g.bot_moves, "%d bot moves on a, %d searches for it on b", g.bot_moves, on_b);
	CHECK(daemon_log_count(&node[0], "bots: no workers here") == 1,
	    "a did not say it has no workers");
	CHECK(daemon_log_count(&node[0], "cluster: bot job") == 0, "a searched a job itself");
	CHECK(daemon_log_count(&node[0], "no bot worker answered") == 0,
	    "a waited in vain for a worker");
	tc_close(g.c);
	ok("a node without workers plays a whole bot game; every move is searched on b");
}

/* b and c both serve; whichever takes the bot's next job is killed
 * mid-search; the other claims it, and the game goes on to its end. */
static void
test_worker_killed(void)
{
	struct tc_botgame g;
	REQUIRE(redis_nodes_start(&cl, 2) == 0, "node c did not start (%s)", node[2].log);
	REQUIRE(daemon_wait_log(&node[2], "cluster: node c on Redis", 0, WAIT_MS),
	    "c never reached Redis");
	REQUIRE(game_new(&g, "bob", 10) == 0, "no bot game on a");
	/* a few moves first, so the search is a real one */
	for (int i = 0; i < 2; i++) {
		REQUIRE(tc_bot_human(&g) == 0, "the human's move: %s", tc_why);
		REQUIRE(tc_bot_wait(&g) == 1, "the bot's move: %s", g.over ? g.over_line : tc_why);
	}
	int taken[NODES], claimed[NODES];
	for (int i = 1; i < NODES; i++) {
		taken[i] = daemon_log_count(&node[i], "of node a taken");
		claimed[i] = daemon_log_count(&node[i], "claimed (its worker went)");
	}
	REQUIRE(tc_bot_human(&g) == 0, "the human's move: %s", tc_why);
	int victim = 0;
	for (long long end = tc_now_ms() + WAIT_MS; !victim && tc_now_ms() < end; usleep(5000))
		for (int i = 1; i < NODES && !victim; i++)
			if (daemon_log_count(&node[i], "of node a taken") > taken[i])
				victim = i;
	REQUIRE(victim, "neither b nor c took the bot's job");
	int searched = daemon_log_count(&node[victim], "of node a searched");
	daemon_stop(&node[victim], SIGKILL, 2000);
	int other = victim == 1 ? 2 : 1;
	CHECK(searched == daemon_log_count(&node[victim], "of node a searched"),
	    "%s finished the search before it was killed: test it again", redis_names[victim]);
	CHECK(tc_bot_wait(&g) == 1, "no bot move after %s was killed: %s", redis_names[victim],
	    g.over ? g.over_line : tc_why);
	CHECK(daemon_log_count(&node[other], "claimed (its worker went)") > claimed[other],
	    "%s did not claim %s's job", redis_names[other], redis_names[victim]);
	CHECK(tc_bot_play_out(&g) == 0, "the game stopped after %s went: %s", redis_names[victim],
	    tc_why);
	CHECK(g.over, "the game did not end");
	tc_close(g.c);
	/* the one left alone is the next tests' worker */
	if (other == 2) {
		struct daemon t = node[1];
		node[1] = node[2];
		node[2] = t;
	}
	ok("a worker killed mid-search: another claims its job and the game goes on");
}

/* Redis away while the bot is to move: a says it asks again, the game
 * stays open, and the bot moves once Redis is back. */
static void
test_redis_down(void)
{
	struct tc_botgame g;
	REQUIRE(game_new(&g, "carol", 2) == 0, "no bot game on a");
	REQUIRE(tc_bot_human(&g) == 0, "the human's move: %s", tc_why);
	REQUIRE(tc_bot_wait(&g) == 1, "the bot's move: %s", g.over ? g.over_line : tc_why);
	int asked = daemon_log_count(&node[0], "no bot worker answered");
	redis_kill(&redis);
	CHECK(daemon_wait_log(&node[0], "cluster: Redis", 0, WAIT_MS), "a did not notice Redis go");
	REQUIRE(tc_bot_human(&g) == 0, "the human's move without Redis: %s", tc_why);
	CHECK(daemon_wait_log(&node[0], "no bot worker answered", asked, WAIT_MS),
	    "a did not say its bot asks again");
	tc_send(g.c, "PING still");
	CHECK(tc_expect(g.c, "OK PING still", LINE_MS), "the game's node stopped answering");
	REQUIRE(redis_start(&redis) == 0, "Redis did not start again");
	CHECK(tc_bot_wait(&g) == 1, "the bot never moved after Redis came back: %s",
	    g.over ? g.over_line : tc_why);
	tc_close(g.c);
	ok("Redis away: the bot's move waits, a asks again, and the bot moves when it is back");
}

/* Garbage on the job stream and on a's channel: dropped, no node falls,
 * and a bot game still plays. */
static void
test_garbage(void)
{
	static const char *const jobs[] = {
		"",
		"J",
		"J a 1 0 15 5 100 200 0 0 0 5 1",
		"J a 1 9 15 5 100 200 0 0 0 5 1 -",
		"J a 1 0 15 5 100 200 0 0 0 5 1 999",
		"R 1 0 112 0 0 1 1 10 - x",
		"P a 127.0.0.1:1",
	};
	static const char *const results[] = {
		"R", "R 1 0 112", "R x 0 112 0 0 1 1 10 - x",
		"R 1 0 112 0 0 1 1 10 - five",      /* well formed, of no job: stale */
		"J a 1 0 15 5 100 200 0 0 0 5 1 -", /* a job on a channel */
	};
	int drops = daemon_log_count(&node[1], "dropped"), adrops = redis_drops(&node[0]);
	for (size_t i = 0; i < sizeof jobs / sizeof jobs[0]; i++) {
		const char *argv[] = { "XADD", "gomoku:bots", "*", "job", jobs[i] };
		size_t len[] = { 4, 11, 1, 3, strlen(jobs[i]) };
		CHECK(redis_cmd(&redis, 5, argv, len) == '$', "XADD %s", jobs[i]);
	}
	const char *nojob[] = { "XADD", "gomoku:bots", "*", "other", "J a 1" };
	size_t nolen[] = { 4, 11, 1, 5, 5 };
	CHECK(redis_cmd(&redis, 5, nojob, nolen) == '$', "XADD without a job field");
	static const char bin[] = { 'J', ' ', 0, 1, (char)0xff };
	const char *binjob[] = { "XADD", "gomoku:bots", "*", "job", bin };
	size_t binlen[] = { 4, 11, 1, 3, sizeof bin };
	CHECK(redis_cmd(&redis, 5, binjob, binlen) == '$', "XADD of bytes");
	/* the reviews' stream is read too */
	const char *revjob[] = { "XADD", "gomoku:reviews", "*", "job", "J a 1" };
	size_t revlen[] = { 4, 14, 1, 3, 5 };
	CHECK(redis_cmd(&redis, 5, revjob, revlen) == '$', "XADD on the reviews' stream");
	for (size_t i = 0; i < sizeof results / sizeof results[0]; i++)
		CHECK(redis_publish(&redis, "gomoku:node:a", results[i], strlen(results[i])) == ':',
		    "could not publish");
	CHECK(daemon_wait_log(&node[1], "dropped", drops + 9, WAIT_MS),
	    "the worker did not drop every bad job");
	/* a logs the first, counts the rest for 10 s, then says how many */
	CHECK(redis_wait_drops(&node[0], adrops + 5, WAIT_MS + 10000),
	    "a did not drop every bad result");
	CHECK(daemon_alive(&node[0]) && daemon_alive(&node[1]), "a node died of garbage");
	struct tc_botgame g;
	REQUIRE(game_new(&g, "dave", 1) == 0, "no bot game on a after garbage");
	CHECK(tc_bot_human(&g) == 0 && tc_bot_wait(&g) == 1,
	    "the bot did not move after garbage: %s", g.over ? g.over_line : tc_why);
	tc_close(g.c);
	ok("garbage on the job streams and on a node's channel is dropped; no node falls");
}

/* A bot on a opens a RIF game for a human: its three stones are opening
 * jobs that b decides (the J line's opening tail, R's act form), then the
 * human is asked to choose the colours. */
static void
test_remote_opening(void)
{
	int decided = daemon_log_count(&node[1], "cluster: opening job");
	char room[24] = "";
	int stones = 0;
	struct tc *c = tc_guest(node[0].port, "carol");
	REQUIRE(c, "connect");
	tc_send(c, "BOT play 3 renju 15 none white rif");
	for (;;) {
		const char *l = tc_read(c, BOT_WAIT_MS);
		REQUIRE(l, "no line for %d ms (last: %s)", BOT_WAIT_MS, c->line);
		REQUIRE(strncmp(l, "* OVER", 6) && strncmp(l, "ERR", 3), "%s", l);
		sscanf(l, "OK BOT %23s", room);
		stones += !strncmp(l, "* MOVE ", 7);
		if (!strncmp(l, "* OPENING ", 10) && strstr(l, " swap carol "))
			break;
	}
	CHECK(stones == 3, "%d stones before the swap", stones);
	int on_b = daemon_log_count(&node[1], "cluster: opening job") - decided;
	CHECK(on_b == 3, "%d opening jobs decided on b for the bot's 3 stones", on_b);
	CHECK(daemon_log_count(&node[0], "cluster: opening job") == 0, "a decided a job itself");
	tc_send(c, "RESIGN %s", room);
	CHECK_LINE(c, "* OVER");
	tc_close(c);
	ok("a node without workers has a bot open a RIF game; each act is decided on b");
}

/* ANALYSE on a node without workers (issue 47): the search is b's, and
 * the answer (its best move as the line: R carries no line) comes back to
 * the asker on a. */
static void
test_remote_analysis(void)
{
	int searched = daemon_log_count(&node[1], "of node a searched");
	struct tc *c = tc_guest(node[0].port, "dave");
	REQUIRE(c, "connect");
	tc_send(c, "ANALYSE freestyle 15 h8,a1,h9,a2,h10,a3 2");
	const char *l;
	while (
	    (l = tc_read(c, BOT_WAIT_MS)) && strncmp(l, "OK ANALYSE", 10) && strncmp(l, "ERR", 3))
		;
	char reason[32], cands[128], pv[128];
	int depth;
	CHECK(l && sscanf(l, "OK ANALYSE %d %31s %127s %127s", &depth, reason, cands, pv) == 4,
	    "no analysis from a: %s", l ? l : c->line);
	CHECK(l && (!strncmp(cands, "h11:", 4) || !strncmp(cands, "h7:", 3)) &&
		atoi(strchr(cands, ':') + 1) >= 29000,
	    "the open four is not said as a win: %s", l ? l : "");
	CHECK(daemon_log_count(&node[1], "of node a searched") > searched,
	    "b did not search a's analysis");
	tc_close(c);
	ok("ANALYSE on a node without workers is searched on b and answered on a");
}

/* REVIEW on a node without workers (issue 47): every position is a job
 * b searches (with its line: J " l"), and the review is marked and
 * stored on a. */
static void
test_remote_review(void)
{
	struct tc *b, *w;
	char room[24];
	int searched = daemon_log_count(&node[1], "of node a searched");
	REQUIRE(tc_pair_guests(node[0].port, "revb", "revw", "freestyle 15 none", &b, &w, room,
		    sizeof room) == 0,
	    "%s", tc_why);
	/* white's a3 leaves black's four h8-k8 open at l8: a blunder any search sees */
	static const char *const mv[] = { "h8", "g8", "i8", "a1", "j8", "a2", "k8", "a3", "l8" };
	for (int i = 0; i < 9; i++) {
		struct tc *p = i % 2 ? w : b;
		tc_send(p, "MOVE %s %s", room, mv[i]);
		REQUIRE(
		    tc_move_answer(p, LINE_MS) && !strncmp(p->line, "OK MOVE", 7), "%s", p->line);
	}
	tc_send(b, "HISTORY");
	REQUIRE(tc_expect(b, "= GAME", LINE_MS), "%s", b->line);
	long id = atol(b->line + 7);
	int moves = daemon_log_count(&node[1], "taken from gomoku:bots");
	int reviews = daemon_log_count(&node[1], "taken from gomoku:reviews");
	tc_send(b, "REVIEW %ld", id);
	CHECK_LINE(b, "OK REVIEW");
	char want[48];
	snprintf(want, sizeof want, "* REVIEWED %ld ok 9 ", id);
	const char *l;
	while ((l = tc_read(b, BOT_WAIT_MS)) && strncmp(l, "* REVIEWED", 10))
		;
	CHECK(l && !strncmp(l, want, strlen(want)), "the review on a: %s", l ? l : b->line);
	/* positions 0 to 8; the last, after the five, needs no search */
	CHECK(daemon_log_count(&node[1], "of node a searched") >= searched + 9,
	    "b did not search a's nine positions");
	/* on the reviews' own stream, which b reads behind the bots' moves */
	CHECK(daemon_log_count(&node[1], "taken from gomoku:reviews") >= reviews + 9 &&
		daemon_log_count(&node[1], "taken from gomoku:bots") == moves,
	    "the review's positions were not on gomoku:reviews");
	tc_send(b, "MARKS %ld", id);
	int marks = 0, lines = 0, blunder = 0;
	while ((l = tc_read(b, LINE_MS)) && strncmp(l, "OK MARKS", 8)) {
		char better[4], pv[256];
		if (sscanf(l, "= MARK %*d %*s %*s %*d %*s %3s %*d %*d %*s %255s", better, pv) ==
		    2) {
			marks++;
			lines += strcmp(better, "-") && !strncmp(pv, better, strlen(better));
		}
		blunder += !strncmp(l, "= MARK ", 7) && strstr(l, " blunder white 8 a3 l8 ");
	}
	CHECK(l && blunder == 1 && lines == marks,
	    "marks from b's answers: %d, %d with a line (%s)", marks, lines, l ? l : b->line);
	tc_close(b);
	tc_close(w);
	ok("REVIEW on a node without workers: b searched every position, a marked and stored it");
}

int
main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	int code;
	if (redis_guard(&redis, &code) != 0)
		return code;
	if (redis_nodes_up(&cl, 2) != 0)
		return 1;
	for (int i = 0; i < 2; i++)
		if (!daemon_wait_log(&node[i], "on Redis", 0, WAIT_MS)) {
			printf("FAIL: node %s never reached Redis (%s)\n", redis_names[i],
			    node[i].log);
			return 1;
		}
	test_remote_game();
	test_remote_opening();
	test_remote_analysis();
	test_remote_review();
	test_worker_killed();
	test_redis_down();
	test_garbage();
	return redis_finish(&redis, node, 2, 0, failures);
}
