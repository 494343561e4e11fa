/*
 * test_league.c: the engine league (issue 49, PROTOCOL.md 5.23) on the
 * real gomokud, over TLS, on SQLite (and PostgreSQL under test_pg.sh): a
 * league of three engines at low levels (levels 1 and 2 and the hosted
 * pbrain-gomoku 'ours', fast) plays its first round robin 5 s after the
 * start; LEAGUES shows it with 3 games, LEAGUE three LRATING lines whose
 * points make 6 halves, 2 games each, the Elo in the order of the
 * points, error bars above 0. A person's SET league is 402, LEAGUE of no
 * league 460. After a restart the table is the same and no second event
 * came early; a bot account that opted in (SET league yes, kept) is
 * entered in the next event of another league.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define LINE_MS 20000
#include "tests/daemon/check.h"
#include "tests/daemon/tclient.h"
#include "tests/sanitized.h"

#ifndef GOMOKUD_BIN
#define GOMOKUD_BIN "bin/gomokud"
#endif
#ifndef GOMOKUCTL_BIN
#define GOMOKUCTL_BIN "bin/gomokuctl"
#endif
#ifndef PBRAIN
#define PBRAIN "bin/pbrain-gomoku"
#endif

#define ENGINE_MEMORY (TESTS_SANITIZED ? 0 : 256)

static struct daemon d;
static char dir[128], sock[240], outp[240], errp[240];
static char out[1 << 14];
static char table[3][200]; /* LEAGUE main's lines before the restart */
static int tid;            /* its event */

/* The config, with duo's first event `first` seconds after the start. */
static void
config(char *conf, size_t n, int first)
{
	snprintf(conf, n,
	    "state-dir %s/state\nrate-burst 1000\nrate-per-second 1000\nbot-threads 1\n"
	    "engine ours %s turn-ms=100 memory=%d\n"
	    "league main freestyle 15 30+0 members=level1,level2,ours first=5\n"
	    "league duo freestyle 15 30+0 members=level1 first=%d\n",
	    dir, PBRAIN, ENGINE_MEMORY, first);
}

/* `gomokuctl bot token name`: the token into tok. */
static int
bot_token(const char *name, char *tok)
{
	const char *argv[] = { GOMOKUCTL_BIN, "--socket", sock, "bot", "token", name, NULL };
	pid_t pid = fork();
	if (pid == 0) {
		int o = open(outp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		int e = open(errp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		dup2(o, 1);
		dup2(e, 2);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	int st = -1;
	waitpid(pid, &st, 0);
	FILE *f = fopen(outp, "r");
	size_t k = f ? fread(out, 1, sizeof out - 1, f) : 0;
	out[k] = '\0';
	if (f)
		fclose(f);
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 && sscanf(out, "%79s", tok) == 1 ? 0 : -1;
}

static int
says(struct tc *c, const char *line, const char *want)
{
	char got[600];
	tc_ask(c, line, got, sizeof got, LINE_MS);
	if (strncmp(got, want, strlen(want)) == 0)
		return 1;
	printf("# %s: %s (wanted %s)\n", line, got, want);
	return 0;
}

/* LEAGUES: league name's line into line; 0, or -1 when it has none. */
static int
league_of(struct tc *c, const char *name, char *line, size_t n)
{
	char want[64];
	int found = -1;
	snprintf(want, sizeof want, "= LEAGUE %s ", name);
	tc_send(c, "LEAGUES");
	for (;;) {
		const char *l = tc_read(c, LINE_MS);
		if (!l)
			return -1;
		if (!strncmp(l, want, strlen(want))) {
			snprintf(line, n, "%s", l);
			found = 0;
		}
		if (!strncmp(l, "OK LEAGUES ", 11) || !strncmp(l, "ERR ", 4))
			return found;
	}
}

struct lleague {
	char rule[16], tc[16], tour[16], next[24];
	int size, players, games;
};

static int
parse_league(const char *l, struct lleague *g)
{
	char name[32];
	return sscanf(l, "= LEAGUE %31s %15s %d %15s %d %d %15s %23s", name, g->rule, &g->size,
		   g->tc, &g->players, &g->games, g->tour, g->next) == 8
	    ? 0
	    : -1;
}

/* LEAGUE name: its LRATING lines into rows (at most max); the count or -1. */
static int
rating_lines(struct tc *c, const char *name, char rows[][200], int max)
{
	int n = 0;
	tc_send(c, "LEAGUE %s", name);
	for (;;) {
		const char *l = tc_read(c, LINE_MS);
		if (!l)
			return -1;
		if (!strncmp(l, "= LRATING ", 10) && n < max)
			snprintf(rows[n++], sizeof rows[0], "%s", l);
		else if (!strncmp(l, "OK LEAGUE ", 10))
			return n;
		else if (!strncmp(l, "ERR ", 4))
			return -1;
	}
}

static void
test_first_event(void)
{
	struct tc *alice = tc_account(d.port, "alice", "secret99");
	REQUIRE(alice, "alice");
	CHECK(says(alice, "SET league yes", "ERR 402 "), "a person's SET league");
	CHECK(says(alice, "LEAGUE nosuch", "ERR 460 no-league"), "LEAGUE of no league");
	ok("a person's SET league yes is 402; LEAGUE nosuch is 460 no-league");

	char line[300];
	struct lleague g;
	long long until = tc_now_ms() + 300000, began = tc_now_ms();
	int seen = 0;
	for (;;) {
		REQUIRE(league_of(alice, "main", line, sizeof line) == 0, "LEAGUES: no main");
		REQUIRE(parse_league(line, &g) == 0, "%s", line);
		if (!seen && strcmp(g.tour, "-") != 0) {
			seen = 1;
			tid = atoi(g.tour);
			printf("# main's first event: tournament %d (%.1f s)\n", tid,
			    (tc_now_ms() - began) / 1000.0);
		}
		if (g.games >= 3 && strcmp(g.next, "-") != 0)
			break;
		REQUIRE(tc_now_ms() < until, "no end of the league's event: %s", line);
		usleep(500 * 1000);
	}
	CHECK(!strcmp(g.rule, "freestyle") && g.size == 15 && !strcmp(g.tc, "30+0"), "%s", line);
	CHECK(g.games == 3 && g.players == 3, "%s", line);
	CHECK(atoll(g.next) > (long long)time(NULL) + 20 * 3600, "next a day on: %s", line);
	ok("LEAGUES main: one round robin of three, 3 games, the next a day later");
	printf("# %s (%.0f s)\n", line, (tc_now_ms() - began) / 1000.0);

	int n = rating_lines(alice, "main", table, 3);
	CHECK(n == 3, "LEAGUE main: %d lines", n);
	int sum = 0, prev_elo = 100000, prev_pts = 1000, bots = 0;
	for (int i = 0; i < n; i++) {
		char name[32], player[32];
		int rank, elo, minus, plus, games, points, draws;
		printf("# %s\n", table[i]);
		REQUIRE(sscanf(table[i], "= LRATING %31s %d %31s %d %d %d %d %d %d", name, &rank,
			    player, &elo, &minus, &plus, &games, &points, &draws) == 9,
		    "%s", table[i]);
		CHECK(rank == i + 1 && !strcmp(name, "main"), "%s", table[i]);
		CHECK(games == 2 && minus > 0 && plus > 0, "%s", table[i]);
		CHECK(
		    elo <= prev_elo && points <= prev_pts && (points == prev_pts || elo < prev_elo),
		    "the Elo against the points: %s", table[i]);
		bots += !strcmp(player, "bot1") + !strcmp(player, "bot2") +
		    !strcmp(player, "bot-ours");
		sum += points;
		prev_elo = elo;
		prev_pts = points;
	}
	CHECK(sum == 6 && bots == 3, "points %d, players %d", sum, bots);
	ok("LEAGUE main: bot1, bot2 and bot-ours, 2 games each, 6 halves, Elo by points, bars > 0");

	tc_send(alice, "TWATCH %d", tid);
	const char *l = tc_expect(alice, "= TOURNEY ", LINE_MS);
	CHECK(l && strstr(l, " robin over freestyle 15 30+0 none rated bots ") &&
		strstr(l, " - league main 1"),
	    "%s", l ? l : "no = TOURNEY");
	CHECK_LINE(alice, "= TPLAYER");
	ok("its event is a rated robin of bots made by the server (creator -), 'league main 1'");
	tc_close(alice);
}

static struct tc *
login(const char *name)
{
	char line[80], got[300];
	struct tc *c = tc_open(d.port, 1);
	if (!c)
		return NULL;
	snprintf(line, sizeof line, "LOGIN %s secret99", name);
	tc_ask(c, line, got, sizeof got, LINE_MS);
	if (strncmp(got, "OK LOGIN ", 9) != 0) {
		printf("# %s: %s\n", line, got);
		tc_close(c);
		return NULL;
	}
	snprintf(c->name, sizeof c->name, "%s", name);
	return c;
}

static void
test_bot_opts_in(void)
{
	char tok[80], line[200];
	struct tc *rapfi = tc_account(d.port, "rapfi", "secret99");
	REQUIRE(rapfi, "rapfi");
	REQUIRE(bot_token("rapfi", tok) == 0, "bot token: %s", out);
	snprintf(line, sizeof line, "BOTUPGRADE %s", tok);
	REQUIRE(says(rapfi, line, "OK BOTUPGRADE rapfi"), "BOTUPGRADE");
	tc_send(rapfi, "SETTINGS");
	CHECK_LINE(rapfi, "= SET bot-challenges yes");
	CHECK_LINE(rapfi, "= SET league no");
	CHECK_LINE(rapfi, "OK SETTINGS 2");
	CHECK(says(rapfi, "SET league yes", "OK SET league yes"), "SET league yes");
	tc_send(rapfi, "SETTINGS");
	CHECK_LINE(rapfi, "= SET bot-challenges yes");
	CHECK_LINE(rapfi, "= SET league yes");
	ok("a bot account's SET league yes, and SETTINGS says it");
	tc_close(rapfi);
}

static void
test_restart(void)
{
	char conf[1024], line[300], rows[3][200];
	config(conf, sizeof conf, 12);
	REQUIRE(daemon_start(&d, GOMOKUD_BIN, conf) == 0, "gomokud did not start again");
	long long began = tc_now_ms();
	struct tc *rapfi = login("rapfi"); /* here before duo's first event is made (7 s) */
	REQUIRE(rapfi, "rapfi's login");
	REQUIRE(tc_now_ms() - began < 6000, "the login took %lld ms", tc_now_ms() - began);
	CHECK(rating_lines(rapfi, "main", rows, 3) == 3, "LEAGUE main after the restart");
	for (int i = 0; i < 3; i++)
		CHECK(!strcmp(rows[i], table[i]), "after the restart: %s, before: %s", rows[i],
		    table[i]);
	struct lleague g;
	REQUIRE(league_of(rapfi, "main", line, sizeof line) == 0 && parse_league(line, &g) == 0,
	    "LEAGUES main");
	CHECK(atoi(g.tour) == tid && g.games == 3 && strcmp(g.next, "-") != 0 &&
		atoll(g.next) > (long long)time(NULL) + 20 * 3600,
	    "main after the restart: %s", line);
	ok("after a restart: the same table, the same last event, the next a day on");

	int duo = 0;
	for (long long until = tc_now_ms() + 30000; tc_now_ms() < until && !duo;) {
		if (league_of(rapfi, "duo", line, sizeof line) == 0 &&
		    parse_league(line, &g) == 0 && strcmp(g.tour, "-") != 0)
			duo = atoi(g.tour);
		else
			usleep(300 * 1000);
	}
	REQUIRE(duo && duo != tid, "duo's first event: %s", line);
	tc_send(rapfi, "TWATCH %d", duo);
	int bot1 = 0, me = 0;
	for (;;) {
		const char *l = tc_read(rapfi, LINE_MS);
		REQUIRE(l, "TWATCH %d", duo);
		if (!strncmp(l, "= TPLAYER ", 10)) {
			bot1 |= strstr(l, " bot1 ") != NULL;
			me |= strstr(l, " rapfi ") != NULL;
		}
		if (!strncmp(l, "OK TWATCH", 9) || !strncmp(l, "ERR ", 4))
			break;
	}
	CHECK(bot1 && me, "duo's event %d: bot1 %d, rapfi %d", duo, bot1, me);
	ok("a bot account that opted in (kept across the restart) is in the next event");

	int mains = 0;
	tc_send(rapfi, "TLIST");
	for (;;) {
		const char *l = tc_read(rapfi, LINE_MS);
		REQUIRE(l, "TLIST");
		if (!strncmp(l, "= TOURNEY ", 10) && strstr(l, " league main "))
			mains++;
		if (!strncmp(l, "OK TLIST", 8))
			break;
	}
	CHECK(mains == 1, "main's events: %d", mains);
	ok("no second event of main was made early");

	char id[16] = "";
	tc_send(rapfi, "TCREATE robin freestyle 15 30+0 none casual bots 600 1 Engines");
	const char *l = tc_expect(rapfi, "OK TCREATE ", LINE_MS);
	REQUIRE(l && sscanf(l, "OK TCREATE %15s", id) == 1, "TCREATE: %s", l ? l : "-");
	snprintf(line, sizeof line, "TBOT %s ours", id);
	char want[64];
	snprintf(want, sizeof want, "OK TBOT %s bot-ours", id);
	CHECK(says(rapfi, line, want), "TBOT of a hosted engine");
	CHECK(says(rapfi, line, "ERR 458 "), "TBOT of it again");
	snprintf(line, sizeof line, "TBOT %s nosuch", id);
	CHECK(says(rapfi, line, "ERR 402 "), "TBOT of no engine");
	ok("TBOT <id> <engine>: a hosted engine's seat bot-ours; again 458, no such engine 402");
	tc_close(rapfi);
}

int
main(void)
{
	char tmpl[] = "/tmp/gomokud-test.XXXXXX", *t = tc_mkdtemp(tmpl), conf[1024];
	if (!t) {
		printf("FAIL: no temporary directory\n");
		return 1;
	}
	snprintf(dir, sizeof dir, "%s", t);
	snprintf(sock, sizeof sock, "%s/state/gomokud.ctl", dir);
	snprintf(outp, sizeof outp, "%s/ctl.out", dir);
	snprintf(errp, sizeof errp, "%s/ctl.err", dir);
	config(conf, sizeof conf, 7 * 24 * 3600);
	if (daemon_start(&d, GOMOKUD_BIN, conf) != 0) {
		printf("FAIL: gomokud did not start\n");
		return 1;
	}
	struct tc *c = tc_open(d.port, 0);
	CHECK(c && strstr(c->line, " league"), "greeting: %s", c ? c->line : "none");
	if (c)
		tc_close(c);
	test_first_event();
	if (!failures)
		test_bot_opts_in();
	if (daemon_stop(&d, SIGTERM, 10000) != 0) {
		printf("FAIL: gomokud did not exit cleanly\n");
		failures++;
	}
	if (!failures)
		test_restart();
	if (d.pid && daemon_stop(&d, SIGTERM, 10000) != 0) {
		printf("FAIL: gomokud did not exit cleanly after the restart\n");
		failures++;
	}
	printf("league: %d passed, %d failed\n", failures ? 0 : 1, failures ? 1 : 0);
	return failures ? 1 : 0;
}
