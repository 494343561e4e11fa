/*
 * test_botratings.c: ratings with bot accounts (issue 49, PROTOCOL.md
 * 5.22) on the real gomokud over TLS, with the real gomokuctl making two
 * accounts bots. Under rate-bot-accounts half, a person's rated win over a
 * bot account moves the person's rating by half what the same win over a
 * person does (both from a new account's 1500), the bot's by the whole;
 * two bots' rated game is rated in full; TOP lists the people and TOPBOTS
 * the bot accounts alone. Under the default (none) a person's rated game
 * against a bot account changes no rating (no * RATED). The lobby's seeks
 * are people's unless bot-seeks 1: a bot's SEEK and TAKE are 501. A
 * person who says SET bot-challenges no (kept with the account, through a
 * new login) never sees a bot's challenge: it ends declined at once; a
 * person's challenge comes as before.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/daemon/check.h"
#include "tests/daemon/tclient.h"

#ifndef GOMOKUD_BIN
#define GOMOKUD_BIN "bin/gomokud"
#endif
#ifndef GOMOKUCTL_BIN
#define GOMOKUCTL_BIN "bin/gomokuctl"
#endif

static struct daemon d;
static char sock[240];

/* `gomokuctl bot token name`, then name's BOTUPGRADE with it: 0 or -1. */
static int
make_bot(struct tc *c)
{
	char outp[300], line[200], tok[80] = "";
	snprintf(outp, sizeof outp, "%s/ctl.out", d.dir);
	pid_t pid = fork();
	if (pid == 0) {
		int o = open(outp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		dup2(o, 1);
		execl(GOMOKUCTL_BIN, GOMOKUCTL_BIN, "--socket", sock, "bot", "token", c->name,
		    (char *)NULL);
		_exit(127);
	}
	int st = -1;
	waitpid(pid, &st, 0);
	FILE *f = fopen(outp, "r");
	if (!f || !fgets(line, sizeof line, f) || sscanf(line, "%79s", tok) != 1) {
		if (f)
			fclose(f);
		return -1;
	}
	fclose(f);
	tc_send(c, "BOTUPGRADE %s", tok);
	return tc_expect(c, "OK BOTUPGRADE", 10000) ? 0 : -1;
}

/* A rated challenge from black to white, accepted, played to black's
 * five; the * RATED line into rated ("" when none came before white's
 * OK of the next request). 0, or -1. */
static int
rated_game(struct tc *black, struct tc *white, char *rated, size_t n)
{
	char room[24];
	int id = 0;
	const char *l;
	rated[0] = '\0';
	tc_send(black, "#c CHALLENGE %s freestyle 15 none black rated none", white->name);
	if (!(l = tc_expect(black, "OK #c CHALLENGE ", 10000)) ||
	    sscanf(l, "OK #c CHALLENGE %d", &id) != 1 || !tc_expect(white, "* CHALLENGE ", 10000))
		return -1;
	tc_send(white, "ANSWER %d accept", id);
	if (!(l = tc_expect(black, "* START ", 10000)) || sscanf(l, "* START %23s", room) != 1 ||
	    !tc_expect(white, "* START ", 10000))
		return -1;
	if (tc_play_five(black, white, room, NULL) != 0)
		return -1;
	/* white has read * OVER; * RATED follows it when the game moved
	 * ratings, before the OK of white's next request */
	tc_send(white, "PING");
	while ((l = tc_read(white, 10000)) && strncmp(l, "OK PING", 7) != 0)
		if (strncmp(l, "* RATED ", 8) == 0)
			snprintf(rated, n, "%s", l);
	tc_send(black, "LEAVE %s", room);
	tc_send(white, "LEAVE %s", room);
	if (!l || !tc_expect(black, "OK LEAVE", 10000) || !tc_expect(white, "OK LEAVE", 10000))
		return -1;
	return 0;
}

/* The change of the rating of user in a * RATED line, or -9999. */
static int
change_of(const char *rated, const char *user)
{
	char room[24], b[32], w[32];
	int seq, bb, ba, wb, wa;
	if (sscanf(rated, "* RATED %23s %d %31s %d %d %31s %d %d", room, &seq, b, &bb, &ba, w, &wb,
		&wa) != 8)
		return -9999;
	return !strcmp(b, user) ? ba - bb : !strcmp(w, user) ? wa - wb : -9999;
}

/* The names on the first page of a leaderboard request, into out. */
static int
board(struct tc *c, const char *req, char *out, size_t n)
{
	const char *l;
	out[0] = '\0';
	tc_send(c, "%s", req);
	while ((l = tc_read(c, 10000)) && strncmp(l, "OK ", 3) != 0 && strncmp(l, "ERR", 3) != 0) {
		char name[32];
		if (sscanf(l, "= STAT %31s", name) == 1)
			snprintf(out + strlen(out), n - strlen(out), "%s ", name);
	}
	return l && strncmp(l, "OK ", 3) == 0 ? 0 : -1;
}

static int
start(const char *policy)
{
	char conf[300];
	snprintf(conf, sizeof conf, "rate-burst 1000\nrate-per-second 1000\n%s", policy);
	if (daemon_start(&d, GOMOKUD_BIN, conf) != 0)
		return -1;
	snprintf(sock, sizeof sock, "%s/state/gomokud.ctl", d.dir);
	return 0;
}

static void
test_half(void)
{
	char rated[300], top[400];
	REQUIRE(start("rate-bot-accounts half\nbot-seeks 1") == 0, "gomokud did not start");
	struct tc *alice = tc_account(d.port, "alice", "secret99"),
		  *bob = tc_account(d.port, "bob", "secret99"),
		  *carol = tc_account(d.port, "carol", "secret99"),
		  *rapfi = tc_account(d.port, "rapfi", "secret99"),
		  *wine = tc_account(d.port, "wine", "secret99");
	REQUIRE(alice && bob && carol && rapfi && wine, "accounts");
	REQUIRE(make_bot(rapfi) == 0 && make_bot(wine) == 0, "bot upgrades");

	REQUIRE(rated_game(bob, carol, rated, sizeof rated) == 0, "bob and carol's game");
	int full = change_of(rated, "bob");
	REQUIRE(full > 50, "a person's win over a person: %s", rated);
	REQUIRE(rated_game(alice, rapfi, rated, sizeof rated) == 0, "alice and rapfi's game");
	int half = change_of(rated, "alice"), bot = change_of(rated, "rapfi");
	printf("a new account's rated win: +%d over a person, +%d over a bot account (which "
	       "moved %d)\n",
	    full, half, bot);
	REQUIRE(half >= full / 2 - 1 && half <= full / 2 + 1, "half of %d: %s", full, rated);
	REQUIRE(bot <= -full + 1 && bot >= -full - 1, "the bot's whole change: %s", rated);
	REQUIRE(rated_game(rapfi, wine, rated, sizeof rated) == 0, "the bots' game");
	REQUIRE(change_of(rated, "rapfi") > 0 && change_of(rated, "wine") < 0, "%s", rated);
	printf("two bot accounts' rated game is rated: %s\n", rated);

	REQUIRE(board(alice, "TOP freestyle", top, sizeof top) == 0, "TOP");
	REQUIRE(strstr(top, "alice ") && strstr(top, "bob ") && !strstr(top, "rapfi") &&
		!strstr(top, "wine"),
	    "TOP: %s", top);
	REQUIRE(board(alice, "TOPBOTS freestyle", top, sizeof top) == 0, "TOPBOTS");
	REQUIRE(strstr(top, "rapfi ") && strstr(top, "wine ") && !strstr(top, "alice"),
	    "TOPBOTS: %s", top);
	printf("TOP lists the people, TOPBOTS the bot accounts\n");
	tc_send(rapfi, "SEEK freestyle 15 none any casual none");
	REQUIRE(
	    tc_expect(rapfi, "OK SEEK", 10000), "a bot's seek under bot-seeks 1: %s", rapfi->line);
	tc_send(rapfi, "CANCEL");
	REQUIRE(tc_expect(rapfi, "OK CANCEL", 10000), "%s", rapfi->line);
	tc_close(alice);
	tc_close(bob);
	tc_close(carol);
	tc_close(rapfi);
	tc_close(wine);
	REQUIRE(daemon_stop(&d, SIGTERM, 10000) == 0, "gomokud did not exit cleanly");
}

static void
test_none(void)
{
	char rated[300];
	REQUIRE(start("") == 0, "gomokud did not start");
	struct tc *alice = tc_account(d.port, "alice", "secret99"),
		  *rapfi = tc_account(d.port, "rapfi", "secret99");
	REQUIRE(alice && rapfi, "accounts");
	REQUIRE(make_bot(rapfi) == 0, "bot upgrade");
	REQUIRE(rated_game(alice, rapfi, rated, sizeof rated) == 0, "alice and rapfi's game");
	REQUIRE(rated[0] == '\0', "rated under the default: %s", rated);
	tc_send(rapfi, "SEEK freestyle 15 none any casual none");
	REQUIRE(tc_expect(rapfi, "ERR 501", 10000), "a bot's seek: %s", rapfi->line);
	tc_send(alice, "SEEK freestyle 15 none any casual none");
	const char *l = tc_expect(alice, "OK SEEK", 10000);
	int id = 0;
	REQUIRE(l && sscanf(l, "OK SEEK %d", &id) == 1, "alice's seek: %s", alice->line);
	tc_send(rapfi, "TAKE %d alice", id);
	REQUIRE(tc_expect(rapfi, "ERR 501", 10000), "a bot's take: %s", rapfi->line);
	printf("a bot account's SEEK and TAKE are 501 by default (bot-seeks 0)\n");
	tc_send(alice, "CANCEL");
	REQUIRE(tc_expect(alice, "OK CANCEL", 10000), "%s", alice->line);

	/* alice refuses bots' challenges; the setting outlives her session */
	tc_send(alice, "SETTINGS");
	REQUIRE(tc_expect(alice, "= SET bot-challenges yes", 10000), "%s", alice->line);
	tc_send(alice, "SET bot-challenges no");
	REQUIRE(tc_expect(alice, "OK SET bot-challenges no", 10000), "%s", alice->line);
	tc_send(alice, "SET bot-challenges maybe");
	REQUIRE(tc_expect(alice, "ERR 402", 10000), "%s", alice->line);
	tc_close(alice);
	REQUIRE((alice = tc_open(d.port, 1)) != NULL, "connect");
	tc_send(alice, "LOGIN alice secret99");
	REQUIRE(tc_expect(alice, "OK LOGIN", 10000), "%s", alice->line);
	tc_send(alice, "SETTINGS");
	REQUIRE(tc_expect(alice, "= SET bot-challenges no", 10000), "after a new login: %s",
	    alice->line);
	REQUIRE(tc_expect(alice, "OK SETTINGS 1", 10000), "%s", alice->line);
	tc_send(rapfi, "CHALLENGE alice freestyle 15 none black casual none");
	REQUIRE(tc_expect(rapfi, "OK CHALLENGE", 10000), "%s", rapfi->line);
	REQUIRE(tc_expect(rapfi, "* CHALLENGEEND", 10000) && strstr(rapfi->line, " declined"),
	    "the bot's challenge: %s", rapfi->line);
	tc_send(alice, "PING");
	const char *seen;
	while ((seen = tc_read(alice, 10000)) && strncmp(seen, "OK PING", 7) != 0)
		REQUIRE(strncmp(seen, "* CHALLENGE", 11) != 0, "alice was told: %s", seen);
	struct tc *bob = tc_account(d.port, "bob", "secret99");
	REQUIRE(bob, "bob");
	tc_send(bob, "CHALLENGE alice freestyle 15 none black casual none");
	REQUIRE(tc_expect(alice, "* CHALLENGE ", 10000), "a person's challenge: %s", alice->line);
	tc_close(bob);
	printf("SET bot-challenges no (kept through a new login): a bot's challenge ends declined "
	       "unseen, a person's comes\n");
	printf("under the default (rate-bot-accounts none) a person's game with a bot account "
	       "changes no rating\n");
	tc_close(alice);
	tc_close(rapfi);
	REQUIRE(daemon_stop(&d, SIGTERM, 10000) == 0, "gomokud did not exit cleanly");
}

int
main(void)
{
	test_half();
	if (!failures)
		test_none();
	printf("botratings: %d passed, %d failed\n", failures ? 0 : 1, failures ? 1 : 0);
	return failures ? 1 : 0;
}
