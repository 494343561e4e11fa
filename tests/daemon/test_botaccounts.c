/*
 * test_botaccounts.c: bot accounts on the real gomokud (issue 49,
 * PROTOCOL.md 5.22), over TLS, on SQLite, with the real gomokuctl: bot
 * tokens issued, used and revoked (`gomokuctl bot token|revoke|list`);
 * every refusal of BOTUPGRADE (a guest's 417, a wrong token's and another
 * account's 413, counted as failed logins for the address until 407, a
 * seeking or seated account's 445), a bot's own BOTUPGRADE spending a
 * good token with no change; the marks (= BOT in WHO
 * and STATS, * KINDS after * START and * RATINGS, = KINDS in a snapshot,
 * the server's own bots too); a bot account playing two games at once
 * against two people (bot-max-games 2: a third is 445, a person stays at
 * one), gomokud restarted with both games under way (both * SEATED at the
 * bot's LOGIN, the snapshots' kinds read again from the store), both
 * played to their ends; each of its games' grace and claim when its
 * connection drops; a second LOGIN of the bot beside its first
 * (bot-max-conns 2): a session of its own, the first connection kept,
 * two = USER lines, one game each sharing bot-max-games (a third is 445
 * on either), a third LOGIN past bot-max-conns taking one of them over
 * with its game; and a revoke mid-game (* KICKED on each connection, the seat left to
 * the grace, a person again at its next LOGIN); last, gomoku-bot itself,
 * logged in to a bot account with max-games 2, takes two people's
 * challenges and plays both games at once.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define LINE_MS 10000 /* scrypt under the sanitizers is slow */
#include "tests/daemon/check.h"
#include "tests/daemon/tclient.h"
#include "tests/sanitized.h"

#ifndef GOMOKUD_BIN
#define GOMOKUD_BIN "bin/gomokud"
#endif
#ifndef GOMOKUCTL_BIN
#define GOMOKUCTL_BIN "bin/gomokuctl"
#endif
#ifndef GOMOKU_BOT
#define GOMOKU_BOT "bin/gomoku-bot"
#endif
#ifndef PBRAIN
#define PBRAIN "bin/pbrain-gomoku"
#endif

/* The brain's address-space limit: none under a sanitizer, whose shadow
 * memory would not fit any (as tests/bot/test_gomoku_bot.c). */
#define BRAIN_MEMORY (TESTS_SANITIZED ? 0 : 512)

static struct daemon d;
static char dir[128], conf[400], sock[240], outp[240], errp[240];
static char out[1 << 14], err[4096];
static char tok_rapfi[80], tok_rapfi2[80], tok_rapfi3[80], tok_alice[80];
static struct tc *rapfi, *alice, *bob, *carol;

static void
slurp(const char *path, char *buf, size_t cap)
{
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(buf, 1, cap - 1, f) : 0;
	buf[n] = '\0';
	if (f)
		fclose(f);
}

/* gomokuctl with these words (NULL-ended) on the daemon's socket: its
 * exit status, what it printed in out and err. */
static int
ctl(const char *first, ...)
{
	const char *argv[12] = { GOMOKUCTL_BIN, "--socket", sock };
	int n = 3;
	va_list ap;
	va_start(ap, first);
	for (const char *w = first; w && n < 11; w = va_arg(ap, const char *))
		argv[n++] = w;
	va_end(ap);
	argv[n] = NULL;
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
	slurp(outp, out, sizeof out);
	slurp(errp, err, sizeof err);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

/* `gomokuctl bot token name`: the token (its first line) into tok. */
static int
bot_token(const char *name, char *tok)
{
	if (ctl("bot", "token", name, NULL) != 0 || sscanf(out, "%79s", tok) != 1)
		return -1;
	return strlen(tok) == 32 && strstr(out, "a bot token for ") ? 0 : -1;
}

/* c's request line, answered: its first OK or ERR line starts with want. */
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

/* from challenges b (from black, no clock, casual) and b accepts: both
 * told * START of the room (into room), b * RATINGS and * KINDS with
 * from's kind and b's (bkind). */
static int
game_with(struct tc *from, struct tc *b, const char *bkind, char *room)
{
	char line[200], want[120];
	int id = 0;
	snprintf(line, sizeof line, "#c CHALLENGE %s freestyle 15 none black casual none", b->name);
	tc_send(from, "%s", line);
	const char *l = tc_expect(from, "OK #c CHALLENGE ", LINE_MS);
	if (!l || sscanf(l, "OK #c CHALLENGE %d", &id) != 1)
		return -1;
	if (!tc_expect(b, "* CHALLENGE ", LINE_MS))
		return -1;
	tc_send(b, "#a ANSWER %d accept", id);
	if (!(l = tc_expect(b, "* START ", LINE_MS)) || sscanf(l, "* START %23s", room) != 1)
		return -1;
	if (!tc_expect(b, "* RATINGS ", LINE_MS))
		return -1;
	/* right after * RATINGS: * KINDS, the next seq, the seats' kinds */
	if (!(l = tc_read(b, LINE_MS)) || strncmp(l, "* KINDS ", 8) != 0)
		return -1;
	snprintf(want, sizeof want, " %s human %s %s", from->name, b->name, bkind);
	if (!strstr(l, want) || strncmp(l + 8, room, strlen(room)) != 0) {
		printf("# %s\n", l);
		return -1;
	}
	if (!tc_expect(b, "OK #a ANSWER ", LINE_MS) || !tc_expect(from, "* START ", LINE_MS))
		return -1;
	return 0;
}

/* WHO on c: how many = USER lines name user (into *lines), whether each
 * run of them came right after = BOT user, and OK WHO's count against the
 * = USER lines. 1 when it all fits. */
static int
who_of(struct tc *c, const char *user, int *lines, int *marked)
{
	char bot[64], usr[64];
	int users = 0, after_bot = 0, ok = 1;
	snprintf(bot, sizeof bot, "= BOT %s", user);
	snprintf(usr, sizeof usr, "= USER %s ", user);
	*lines = 0;
	*marked = 1;
	tc_send(c, "#w WHO");
	for (const char *l; (l = tc_read(c, LINE_MS)) != NULL;) {
		if (strcmp(l, bot) == 0) {
			after_bot = 1;
		} else if (strncmp(l, "= USER ", 7) == 0) {
			users++;
			if (strncmp(l, usr, strlen(usr)) == 0) {
				(*lines)++;
				*marked = *marked && after_bot;
			} else {
				after_bot = 0;
			}
		} else if (strncmp(l, "= BOT ", 6) == 0) {
			after_bot = 0;
		} else if (strncmp(l, "OK #w WHO ", 10) == 0) {
			ok = atoi(l + 10) == users;
			if (!ok)
				printf("# %s, but %d = USER lines\n", l, users);
			return ok;
		}
	}
	return 0;
}

static void
test_tokens_and_refusals(void)
{
	CHECK(ctl("bot", "list", NULL) == 0 && strstr(out, "0 bot accounts"), "bot list: %s%s", out,
	    err);
	CHECK(ctl("bot", "token", "nobody", NULL) == 1 && strstr(err, "no account nobody"),
	    "a token for no account: %s", err);
	CHECK(ctl("bot", "frob", "rapfi", NULL) == 1 && strstr(err, "usage"), "usage: %s", err);
	REQUIRE(bot_token("rapfi", tok_rapfi) == 0, "bot token rapfi: %s%s", out, err);
	REQUIRE(bot_token("RAPFI", tok_rapfi2) == 0, "bot token RAPFI: %s%s", out, err);
	REQUIRE(bot_token("alice", tok_alice) == 0, "bot token alice: %s%s", out, err);
	CHECK(strcmp(tok_rapfi, tok_rapfi2) != 0, "two tokens alike");
	CHECK(daemon_log_count(&d, tok_rapfi) == 0, "the token is in the daemon's log");
	ok("gomokuctl bot token: a fresh token each time, for an account only, never logged");

	char line[120];
	struct tc *g = tc_guest(d.port, "visitor");
	REQUIRE(g, "guest");
	snprintf(line, sizeof line, "BOTUPGRADE %s", tok_rapfi);
	CHECK(says(g, line, "ERR 417 account-only"), "a guest's BOTUPGRADE");
	tc_close(g);
	CHECK(says(rapfi, "BOTUPGRADE 0123456789abcdef0123456789abcdef", "ERR 413 bad-credentials"),
	    "a wrong token");
	snprintf(line, sizeof line, "BOTUPGRADE %s", tok_alice);
	CHECK(says(rapfi, line, "ERR 413 bad-credentials"), "alice's token shown by rapfi");
	CHECK(says(alice, line, "ERR 413 bad-credentials"), "alice's token, used up by rapfi");
	ok("BOTUPGRADE: a guest's 417; a wrong token, another account's (used up by it) 413");

	snprintf(line, sizeof line, "BOTUPGRADE %s", tok_rapfi);
	CHECK(says(rapfi, "#s SEEK freestyle 15 none any casual none", "OK #s SEEK "), "seek");
	CHECK(says(rapfi, line, "ERR 445 busy"), "BOTUPGRADE while seeking");
	CHECK(says(rapfi, "CANCEL", "OK CANCEL"), "cancel");
	char room[24];
	REQUIRE(game_with(carol, rapfi, "human", room) == 0, "carol's game with rapfi");
	CHECK(says(rapfi, line, "ERR 445 busy"), "BOTUPGRADE while seated");
	/* a person plays one game: alice's challenge is refused at once */
	CHECK(says(alice, "CHALLENGE rapfi freestyle 15 none black casual none", "ERR 445 busy"),
	    "a person's second game");
	snprintf(line, sizeof line, "RESIGN %s", room);
	CHECK(says(rapfi, line, "OK RESIGN"), "resign");
	ok("BOTUPGRADE refused (445) while the account seeks or is seated; a person plays one "
	   "game");

	snprintf(line, sizeof line, "BOTUPGRADE %s", tok_rapfi);
	CHECK(says(rapfi, line, "OK BOTUPGRADE rapfi"), "the upgrade");
	CHECK(ctl("bot", "list", NULL) == 0 && strstr(out, "rapfi since ") &&
		strstr(out, " games 0") && strstr(out, "1 bot account"),
	    "bot list: %s%s", out, err);
	static char since[sizeof out];
	snprintf(since, sizeof since, "%s", out);
	snprintf(line, sizeof line, "BOTUPGRADE %s", tok_rapfi);
	CHECK(says(rapfi, line, "ERR 413 bad-credentials"), "a used token");
	/* a bot's own second token: OK, spent, the mark as it was */
	snprintf(line, sizeof line, "BOTUPGRADE %s", tok_rapfi2);
	CHECK(says(rapfi, line, "OK BOTUPGRADE rapfi"), "a bot's BOTUPGRADE");
	CHECK(says(rapfi, line, "ERR 413 bad-credentials"), "its token spent");
	CHECK(ctl("bot", "list", NULL) == 0 && strcmp(out, since) == 0, "bot list: %s", out);
	ok("BOTUPGRADE with rapfi's token: OK once, 413 again; a bot's own spends one, no change");

	/* 413s count as failed logins for the address, as AUTH's: from
	 * 127.0.0.2, 20 of them, then 407, also for LOGIN from there */
	struct tc *x = tc_open_from("127.0.0.2", d.port, NULL, 0, 1);
	REQUIRE(x, "connect from 127.0.0.2");
	CHECK(says(x, "LOGIN bob secret99", "OK LOGIN bob "), "bob from 127.0.0.2");
	int refused = 0;
	for (int i = 0; i < 20; i++) {
		usleep(120 * 1000); /* under the request bucket's 10 lines a second */
		refused += says(x, "BOTUPGRADE 0123456789abcdef0123456789abcde0", "ERR 413 ");
	}
	CHECK(refused == 20, "%d of 20 wrong bot tokens refused 413", refused);
	CHECK(says(x, "BOTUPGRADE 0123456789abcdef0123456789abcde1", "ERR 407 rate-limited"),
	    "the 21st");
	tc_close(x);
	x = tc_open_from("127.0.0.2", d.port, NULL, 0, 1);
	REQUIRE(x, "connect from 127.0.0.2");
	CHECK(says(x, "LOGIN carol secret99", "ERR 407 rate-limited"), "LOGIN after them");
	tc_close(x);
	/* bob's session went on x and ended with it: bob logs in here again */
	tc_close(bob);
	bob = tc_open(d.port, 1);
	REQUIRE(bob, "bob again");
	char got[200];
	tc_ask(bob, "LOGIN bob secret99", got, sizeof got, LINE_MS);
	CHECK(sscanf(got, "OK LOGIN bob %79s", bob->token) == 1, "bob again: %s", got);
	snprintf(bob->name, sizeof bob->name, "bob");
	ok("wrong bot tokens count as failed logins for the address: 407 after 20, LOGIN too");
}

static char room1[24], room2[24];

static void
test_marks_and_two_games(void)
{
	int lines, marked;
	CHECK(who_of(alice, "rapfi", &lines, &marked) && lines == 1 && marked,
	    "WHO of an idle bot: %d lines, marked %d", lines, marked);
	CHECK(says(alice, "STATS rapfi", "OK STATS 3"), "STATS rapfi");
	tc_send(alice, "#t STATS rapfi");
	const char *l = tc_read(alice, LINE_MS);
	CHECK(l && strcmp(l, "= BOT rapfi") == 0, "STATS of a bot account begins: %s",
	    l ? l : "(nothing)");
	CHECK(tc_expect(alice, "OK #t STATS 3", LINE_MS), "STATS answered");
	tc_send(alice, "#u STATS bob");
	l = tc_read(alice, LINE_MS);
	CHECK(l && strncmp(l, "= STAT bob ", 11) == 0, "STATS of a person: %s", l ? l : "-");
	CHECK(tc_expect(alice, "OK #u STATS 3", LINE_MS), "STATS answered");
	ok("= BOT before a bot account's WHO line and its STATS; OK WHO counts = USER lines");

	REQUIRE(game_with(alice, rapfi, "bot", room1) == 0, "alice's game");
	REQUIRE(game_with(bob, rapfi, "bot", room2) == 0, "bob's game");
	CHECK(strcmp(room1, room2) != 0, "one room for two games");
	char tok[80], up[120];
	REQUIRE(bot_token("rapfi", tok) == 0, "another token: %s%s", out, err);
	snprintf(up, sizeof up, "BOTUPGRADE %s", tok);
	CHECK(says(rapfi, up, "OK BOTUPGRADE rapfi"), "a bot's own BOTUPGRADE while it plays");
	CHECK(says(carol, "CHALLENGE rapfi freestyle 15 none black casual none", "ERR 445 busy"),
	    "a third game past bot-max-games 2");
	CHECK(who_of(carol, "rapfi", &lines, &marked) && lines == 2 && marked,
	    "WHO of a bot in two games: %d lines, marked %d", lines, marked);
	/* WHO <room>: the bot's line names that game, of its two */
	char line[64], want[64];
	for (int i = 0; i < 2; i++) {
		const char *r = i ? room2 : room1;
		snprintf(line, sizeof line, "#x WHO %s", r);
		snprintf(want, sizeof want, "= USER rapfi playing %s", r);
		tc_send(carol, "%s", line);
		int bot = 0, seen = 0;
		for (; (l = tc_read(carol, LINE_MS)) && strncmp(l, "OK #x WHO", 9) != 0;) {
			if (strcmp(l, want) == 0)
				seen = bot;
			bot = strcmp(l, "= BOT rapfi") == 0;
		}
		CHECK(seen, "WHO %s: the bot's line, marked, names the room", r);
	}
	snprintf(line, sizeof line, "#k STATE %s", room1);
	tc_send(alice, "%s", line);
	int kinds = 0;
	for (; (l = tc_read(alice, LINE_MS)) && strncmp(l, "OK #k STATE", 11) != 0;)
		if (strncmp(l, "= KINDS ", 8) == 0)
			kinds = strstr(l, " alice human rapfi bot") != NULL;
	CHECK(kinds, "= KINDS in the snapshot");
	CHECK(ctl("bot", "list", NULL) == 0 && strstr(out, " games 2"), "bot list: %s", out);
	const char *w = ctl("who", NULL) == 0 ? strstr(out, "rapfi bot-account playing r") : NULL;
	const char *plus = w ? strchr(w, '+') : NULL, *eol = w ? strchr(w, '\n') : NULL;
	CHECK(plus && eol && plus < eol, "gomokuctl who: %s", out);
	/* a person stays at one game: carol, free, challenges alice, seated */
	CHECK(says(carol, "CHALLENGE alice freestyle 15 none black casual none", "ERR 445 busy"),
	    "a person seated");
	ok("a bot account in two games at once (* KINDS, = KINDS, two WHO lines); a third 445");

	/* RESUME <token> - 0 on a second connection takes the session over
	 * and names both games */
	struct tc *r2 = tc_open(d.port, 1);
	REQUIRE(r2, "connect");
	snprintf(r2->name, sizeof r2->name, "rapfi");
	snprintf(r2->token, sizeof r2->token, "%s", rapfi->token);
	tc_send(r2, "RESUME %s - 0", rapfi->token);
	int seated = 0;
	for (; (l = tc_read(r2, LINE_MS)) != NULL;) {
		char r[24];
		if (sscanf(l, "* SEATED %23s", r) == 1)
			seated |= (strcmp(r, room1) == 0) | (strcmp(r, room2) == 0) << 1;
		if (strncmp(l, "OK RESUME", 9) == 0 || strncmp(l, "ERR ", 4) == 0)
			break;
	}
	CHECK(l && strcmp(l, "OK RESUME - 0") == 0 && seated == 3,
	    "RESUME - 0: both games * SEATED (%d), then %s", seated, l ? l : "(nothing)");
	CHECK(tc_expect(rapfi, "* BYE takeover", LINE_MS), "the old connection told");
	tc_close(rapfi);
	rapfi = r2;
	ok("RESUME <token> - 0 of a bot account: * SEATED for each game, the session taken over");

	/* the server's own bots are marked as bots too */
	tc_send(carol, "#b BOT play 1 freestyle 15 none black none");
	char broom[24] = "";
	l = tc_expect(carol, "* START ", LINE_MS);
	CHECK(l && sscanf(l, "* START %23s", broom) == 1, "a bot game");
	CHECK(tc_expect(carol, "* RATINGS ", LINE_MS), "its ratings");
	l = tc_read(carol, LINE_MS);
	CHECK(l && strncmp(l, "* KINDS ", 8) == 0 && strstr(l, " carol human bot1 bot"),
	    "the server's bot's kind: %s", l ? l : "(nothing)");
	CHECK(tc_expect(carol, "OK #b BOT ", LINE_MS), "BOT play answered");
	CHECK(who_of(alice, "bot1", &lines, &marked) && lines == 1 && marked,
	    "WHO of bot1: %d lines, marked %d", lines, marked);
	snprintf(line, sizeof line, "#r RESIGN %s", broom);
	CHECK(says(carol, line, "OK #r RESIGN"), "resign the bot game");
	ok("the server's bots: bot in * KINDS, = BOT in WHO");
}

static int fives; /* * OVER ... black five seen by the movers */

/* c plays move in room: answered OK MOVE. */
static int
move(struct tc *c, const char *room, const char *mv)
{
	char line[64], want[64];
	snprintf(line, sizeof line, "#m MOVE %s %s", room, mv);
	snprintf(want, sizeof want, "OK #m MOVE %s ", room);
	tc_send(c, "%s", line);
	for (const char *l; (l = tc_read(c, LINE_MS)) != NULL;) {
		if (strncmp(l, want, strlen(want)) == 0)
			return 0;
		if (strncmp(l, "* OVER ", 7) == 0 && strstr(l, " black five "))
			fives++;
		if (strncmp(l, "ERR #m ", 7) == 0) {
			printf("# %s: %s\n", line, l);
			return -1;
		}
	}
	return -1;
}

/* Moves i of both games, interleaved: black (alice in room1, bob in
 * room2) on row 8 from h8, the bot white on column a. */
static int
moves_from(int from, int to)
{
	static const char *const black[] = { "h8", "i8", "j8", "k8", "l8" };
	static const char *const white[] = { "a1", "a2", "a3", "a4" };
	for (int i = from; i < to; i++) {
		if (move(alice, room1, black[i]) || move(bob, room2, black[i]))
			return -1;
		if (i < 4 && (move(rapfi, room1, white[i]) || move(rapfi, room2, white[i])))
			return -1;
	}
	return 0;
}

/* c takes its seat in room back after the restart (RESUME with its
 * token): the snapshot's = KINDS names the seats' kinds. */
static int
resume(struct tc **c, const char *room, const char *kinds)
{
	char token[80], name[32];
	snprintf(token, sizeof token, "%s", (*c)->token);
	snprintf(name, sizeof name, "%s", (*c)->name);
	tc_close(*c);
	if (!(*c = tc_open(d.port, 1)))
		return -1;
	snprintf((*c)->token, sizeof(*c)->token, "%s", token);
	snprintf((*c)->name, sizeof(*c)->name, "%s", name);
	tc_send(*c, "RESUME %s %s 0", token, room);
	int seen = 0;
	for (const char *l; (l = tc_read(*c, LINE_MS)) != NULL;) {
		if (strncmp(l, "= KINDS ", 8) == 0 && strstr(l, kinds))
			seen = 1;
		if (strncmp(l, "OK RESUME ", 10) == 0)
			return seen ? 0 : -1;
		if (strncmp(l, "ERR ", 4) == 0) {
			printf("# RESUME: %s\n", l);
			return -1;
		}
	}
	return -1;
}

static void
test_restart_and_ends(void)
{
	REQUIRE(moves_from(0, 2) == 0, "the first moves of both games");
	ok("two games played at once on one connection");
	REQUIRE(daemon_stop(&d, SIGTERM, 5000) == 0, "gomokud did not stop");
	tc_close(rapfi);
	REQUIRE(daemon_start(&d, GOMOKUD_BIN, conf) == 0, "restart failed (log %s)", d.log);
	rapfi = tc_open(d.port, 1);
	REQUIRE(rapfi, "connect");
	snprintf(rapfi->name, sizeof rapfi->name, "rapfi");
	tc_send(rapfi, "LOGIN rapfi secret99");
	int seated = 0;
	for (const char *l; (l = tc_read(rapfi, LINE_MS)) != NULL;) {
		char r[24];
		if (sscanf(l, "* SEATED %23s", r) == 1)
			seated |= (strcmp(r, room1) == 0) | (strcmp(r, room2) == 0) << 1;
		if (strncmp(l, "OK LOGIN rapfi ", 15) == 0 || strncmp(l, "ERR ", 4) == 0) {
			CHECK(l[0] == 'O', "LOGIN: %s", l);
			break;
		}
	}
	CHECK(seated == 3, "* SEATED for both games before OK LOGIN (%d)", seated);
	REQUIRE(resume(&alice, room1, " alice human rapfi bot") == 0, "alice's RESUME");
	REQUIRE(resume(&bob, room2, " bob human rapfi bot") == 0, "bob's RESUME");
	int lines, marked;
	tc_close(carol);
	carol = tc_open(d.port, 1);
	REQUIRE(carol, "connect");
	CHECK(who_of(carol, "rapfi", &lines, &marked) && lines == 2 && marked,
	    "WHO after the restart: %d lines, marked %d", lines, marked);
	ok("gomokud restarted: both games * SEATED at the bot's LOGIN, = KINDS from the store");

	REQUIRE(moves_from(2, 5) == 0, "the rest of both games");
	char want[40];
	CHECK(fives == 2, "%d fives seen by alice and bob", fives);
	snprintf(want, sizeof want, "* OVER %s ", room1);
	const char *l = tc_expect(rapfi, want, LINE_MS);
	CHECK(l && strstr(l, " black five "), "the bot told of the first end");
	snprintf(want, sizeof want, "* OVER %s ", room2);
	l = tc_expect(rapfi, want, LINE_MS);
	CHECK(l && strstr(l, " black five "), "the bot told of the second end");
	CHECK(ctl("bot", "list", NULL) == 0 && strstr(out, " games 0"), "bot list: %s", out);
	int l2, m2;
	CHECK(who_of(alice, "rapfi", &l2, &m2) && l2 == 1 && m2, "WHO after: %d", l2);
	ok("both games played to their ends (black's five), the bot free again");
}

/* Each game of a bot has its own grace and claim: the bot's connection
 * drops while it plays two (grace 1 s from a reload), both rooms see it
 * gone, and each opponent claims after the grace. */
static void
test_grace_and_claims(void)
{
	char path[200], want[64], line[64];
	snprintf(path, sizeof path, "%s/gomokud.conf", d.dir);
	FILE *f = fopen(path, "a");
	REQUIRE(f, "the daemon's config");
	fprintf(f, "grace 1\n");
	fclose(f);
	REQUIRE(ctl("reload", NULL) == 0, "reload: %s", err);
	REQUIRE(game_with(alice, rapfi, "bot", room1) == 0, "alice's game");
	REQUIRE(game_with(bob, rapfi, "bot", room2) == 0, "bob's game");
	tc_close(rapfi);
	struct tc *p[2] = { alice, bob };
	const char *rooms[2] = { room1, room2 };
	for (int i = 0; i < 2; i++) {
		snprintf(want, sizeof want, "* PRESENCE %s ", rooms[i]);
		const char *l = tc_expect(p[i], want, LINE_MS);
		CHECK(l && strstr(l, " rapfi gone 1000"), "the bot gone from %s: %s", rooms[i],
		    l ? l : "(nothing)");
		snprintf(line, sizeof line, "#q CLAIM %s", rooms[i]);
		CHECK(says(p[i], line, "ERR #q 447 cannot-claim"), "a claim within the grace");
	}
	usleep(1300 * 1000);
	for (int i = 0; i < 2; i++) {
		snprintf(line, sizeof line, "#q CLAIM %s", rooms[i]);
		tc_send(p[i], "%s", line);
		snprintf(want, sizeof want, "* OVER %s ", rooms[i]);
		const char *l = tc_expect(p[i], want, LINE_MS);
		CHECK(l && strstr(l, " black abandoned "), "the claim's end: %s", l ? l : "-");
		CHECK(tc_expect(p[i], "OK #q CLAIM ", LINE_MS), "claim answered");
	}
	rapfi = tc_open(d.port, 1);
	REQUIRE(rapfi, "connect");
	snprintf(rapfi->name, sizeof rapfi->name, "rapfi");
	tc_send(rapfi, "LOGIN rapfi secret99");
	const char *l = tc_read(rapfi, LINE_MS);
	CHECK(l && strncmp(l, "OK LOGIN rapfi ", 15) == 0, "back with no seat: %s", l ? l : "-");
	ok("a bot's two games: each room sees it gone, each opponent claims after its grace");
}

/* bot challenges human (the bot white): the game's room into room. */
static int
bot_challenges(struct tc *bot, struct tc *human, char *room)
{
	char line[160];
	int id = 0;
	snprintf(
	    line, sizeof line, "#c CHALLENGE %s freestyle 15 none white casual none", human->name);
	tc_send(bot, "%s", line);
	const char *l = tc_expect(bot, "OK #c CHALLENGE ", LINE_MS);
	if (!l || sscanf(l, "OK #c CHALLENGE %d", &id) != 1 ||
	    !tc_expect(human, "* CHALLENGE ", LINE_MS))
		return -1;
	tc_send(human, "#a ANSWER %d accept", id);
	l = tc_expect(bot, "* START ", LINE_MS);
	if (!l || sscanf(l, "* START %23s", room) != 1)
		return -1;
	return tc_expect(human, "OK #a ANSWER ", LINE_MS) ? 0 : -1;
}

/* Several connections of one bot account (bot-max-conns 2): each LOGIN a
 * session of its own, up to the limit, the games' budget shared. */
static void
test_several_conns(void)
{
	struct tc *r2 = tc_open(d.port, 0), *r3, *dora = tc_account(d.port, "dora", "secret99");
	REQUIRE(r2 && dora, "connect");
	CHECK(strstr(r2->line, " botaccounts botconns=2 "), "the greeting: %s", r2->line);
	tc_send(r2, "HELLO 1");
	CHECK(tc_expect(r2, "OK HELLO", LINE_MS), "HELLO: %s", r2->line);
	snprintf(r2->name, sizeof r2->name, "rapfi");
	tc_send(r2, "LOGIN rapfi secret99");
	const char *l = tc_expect(r2, "OK LOGIN rapfi ", LINE_MS);
	REQUIRE(l && sscanf(l, "OK LOGIN rapfi %79s", r2->token) == 1, "second LOGIN: %s",
	    l ? l : r2->line);
	CHECK(strcmp(r2->token, rapfi->token) != 0, "the second session has the first's token");
	CHECK(says(rapfi, "PING one", "OK PING one"), "the first connection was taken over");
	int lines, marked;
	CHECK(who_of(dora, "rapfi", &lines, &marked) && lines == 2 && marked,
	    "WHO of a bot on two connections: %d lines, marked %d", lines, marked);
	ok("a bot account's second LOGIN: a session of its own, the first connection kept");

	REQUIRE(bot_challenges(rapfi, alice, room1) == 0, "the first connection's game");
	REQUIRE(bot_challenges(r2, bob, room2) == 0, "the second connection's game");
	CHECK(says(dora, "CHALLENGE rapfi freestyle 15 none black casual none", "ERR 445 busy"),
	    "a third game past bot-max-games 2, over both connections");
	CHECK(says(r2, "CHALLENGE dora freestyle 15 none black casual none", "ERR 445"),
	    "the bot's own third challenge past bot-max-games 2");
	CHECK(
	    ctl("bot", "list", NULL) == 0 && strstr(out, "rapfi since ") && strstr(out, " games 2"),
	    "bot list: %s", out);
	ok("one game on each connection; bot-max-games 2 counts both (a third is 445)");

	/* a third LOGIN, past bot-max-conns 2: takes one of them over, its
	 * game with it */
	REQUIRE((r3 = tc_open(d.port, 1)), "connect");
	snprintf(r3->name, sizeof r3->name, "rapfi");
	tc_send(r3, "LOGIN rapfi secret99");
	char seated[24] = "";
	while ((l = tc_read(r3, LINE_MS)) && strncmp(l, "OK LOGIN", 8) && strncmp(l, "ERR", 3))
		sscanf(l, "* SEATED %23s", seated);
	CHECK(l && !strncmp(l, "OK LOGIN rapfi ", 15), "third LOGIN: %s", l ? l : r3->line);
	int first = tc_expect(rapfi, "* BYE takeover", 1500) != NULL;
	int second = !first && tc_expect(r2, "* BYE takeover", 1500) != NULL;
	CHECK(first + second == 1, "no connection taken over (%d %d)", first, second);
	CHECK(!strcmp(seated, first ? room1 : room2), "the third took %s's seat: %s",
	    first ? "the first" : "the second", seated);
	struct tc *kept = first ? r2 : rapfi;
	CHECK(says(kept, "PING two", "OK PING two"), "the other connection went too");
	ok("a third LOGIN past bot-max-conns 2 takes one of them over, with its game");
	char line[64];
	snprintf(line, sizeof line, "RESIGN %s", room1);
	CHECK(says(alice, line, "OK RESIGN"), "alice resigns");
	snprintf(line, sizeof line, "RESIGN %s", room2);
	CHECK(says(bob, line, "OK RESIGN"), "bob resigns");
	/* the connection left beside r3 goes; r3 is rapfi from here on */
	tc_close(first ? rapfi : r2);
	tc_close(kept);
	rapfi = r3;
	for (long long end = tc_now_ms() + LINE_MS; tc_now_ms() < end; usleep(100000))
		if (who_of(dora, "rapfi", &lines, &marked) && lines == 1)
			break;
	CHECK(lines == 1, "WHO still lists %d sessions of rapfi", lines);
	tc_close(dora);
}

static void
test_revoke(void)
{
	REQUIRE(game_with(alice, rapfi, "bot", room1) == 0, "a game before the revoke");
	REQUIRE(bot_token("rapfi", tok_rapfi3) == 0, "a token left unused: %s%s", out, err);
	/* a second connection of the bot: the revoke ends both sessions */
	struct tc *r2 = tc_open(d.port, 1);
	REQUIRE(r2, "connect");
	tc_send(r2, "LOGIN rapfi secret99");
	REQUIRE(tc_expect(r2, "OK LOGIN rapfi ", LINE_MS), "a second LOGIN: %s", r2->line);
	CHECK(ctl("bot", "revoke", "nobody", NULL) == 1 && strstr(err, "no account"), "%s", err);
	CHECK(ctl("bot", "revoke", "rapfi", NULL) == 0 && strstr(out, "no bot account") &&
		strstr(out, "2 sessions ended"),
	    "bot revoke: %s%s", out, err);
	CHECK(tc_expect(rapfi, "* KICKED kicked: bot account revoked", LINE_MS), "kicked");
	CHECK(tc_closed(rapfi, LINE_MS), "closed");
	CHECK(tc_expect(r2, "* KICKED kicked: bot account revoked", LINE_MS), "the second kicked");
	CHECK(tc_closed(r2, LINE_MS), "the second closed");
	tc_close(r2);
	char want[48];
	snprintf(want, sizeof want, "* PRESENCE %s ", room1);
	const char *l = tc_expect(alice, want, LINE_MS);
	CHECK(l && strstr(l, " rapfi gone "), "the seat waits: %s", l ? l : "(nothing)");
	CHECK(ctl("bot", "list", NULL) == 0 && strstr(out, "0 bot accounts"), "list: %s", out);
	ok("bot revoke: each connection * KICKED, the seat gone with its grace, the list empty");

	tc_close(rapfi);
	rapfi = tc_open(d.port, 1);
	REQUIRE(rapfi, "connect");
	snprintf(rapfi->name, sizeof rapfi->name, "rapfi");
	tc_send(rapfi, "LOGIN rapfi secret99");
	snprintf(want, sizeof want, "* SEATED %s", room1);
	CHECK(tc_expect(rapfi, want, LINE_MS), "its seat back");
	CHECK(tc_expect(rapfi, "OK LOGIN rapfi ", LINE_MS), "login");
	CHECK(says(bob, "CHALLENGE rapfi freestyle 15 none black casual none", "ERR 445 busy"),
	    "a person again: one game");
	int lines, marked;
	CHECK(who_of(bob, "rapfi", &lines, &marked) && lines == 1 && !marked, "WHO: not marked");
	tc_send(bob, "#t STATS rapfi");
	l = tc_read(bob, LINE_MS);
	CHECK(l && strncmp(l, "= STAT rapfi ", 13) == 0, "STATS unmarked: %s", l ? l : "-");
	char line[128];
	snprintf(line, sizeof line, "RESIGN %s", room1);
	CHECK(says(rapfi, line, "OK RESIGN"), "resign");
	snprintf(line, sizeof line, "BOTUPGRADE %s", tok_rapfi3);
	CHECK(says(rapfi, line, "ERR 413 bad-credentials"), "its unused token voided");
	ok("after the revoke: a person (one game, no mark), its unused token void");
}

/* gomoku-bot (bot/) as a bot account: its one connection takes two
 * challenges and plays both games at once, with pbrain-gomoku. */
static void
test_gomoku_bot(void)
{
	char tok[80], line[160], path[200], logp[200];
	struct tc *robo = tc_account(d.port, "robo", "robo-pass-1");
	REQUIRE(robo, "robo's account");
	REQUIRE(bot_token("robo", tok) == 0, "bot token robo: %s%s", out, err);
	snprintf(line, sizeof line, "BOTUPGRADE %s", tok);
	REQUIRE(says(robo, line, "OK BOTUPGRADE robo"), "robo a bot");
	tc_close(robo);
	snprintf(path, sizeof path, "%s/bot.conf", dir);
	snprintf(logp, sizeof logp, "%s/bot.log", dir);
	FILE *f = fopen(path, "w");
	REQUIRE(f, "bot.conf");
	fprintf(f,
	    "server 127.0.0.1:%d\nca %s/state/cert.pem\nname robo\npassword robo-pass-1\n"
	    "state-file %s/bot.token\nbrain %s\nbrain-memory %d\nturn-ms 300\n"
	    "rules freestyle\nsizes 15\nmax-games 2\nleague yes\n",
	    d.port, dir, dir, PBRAIN, BRAIN_MEMORY);
	fclose(f);
	pid_t pid = fork();
	if (pid == 0) {
		int fd = open(logp, O_WRONLY | O_CREAT | O_APPEND, 0644);
		if (fd >= 0)
			dup2(fd, 2);
		execl(GOMOKU_BOT, GOMOKU_BOT, "-v", "-c", path, (char *)NULL);
		_exit(127);
	}
	REQUIRE(pid > 0, "fork");
	tc_child(pid);
	/* logged in when WHO lists it */
	int lines = 0, marked = 0;
	for (int i = 0; i < 100 && !lines; i++) {
		usleep(100 * 1000);
		who_of(carol, "robo", &lines, &marked);
	}
	CHECK(lines == 1 && marked, "gomoku-bot online as a bot: %d, %d", lines, marked);
	/* its config's league yes, said at its sign-in (PROTOCOL.md 5.23) */
	static char blog[1 << 16];
	int said = 0;
	for (int i = 0; i < 50 && !said; i++) {
		slurp(logp, blog, sizeof blog);
		said = strstr(blog, "< OK #lg SET league yes") != NULL;
		if (!said)
			usleep(100 * 1000);
	}
	CHECK(said, "gomoku-bot's league yes: no OK SET league yes in its log");
	/* two people challenge it as white: the bot opens both games */
	struct tc *p[2] = { alice, bob };
	char rooms[2][24] = { "", "" };
	for (int i = 0; i < 2; i++) {
		tc_send(p[i], "#g CHALLENGE robo freestyle 15 none white casual none");
		CHECK(tc_expect(p[i], "OK #g CHALLENGE ", LINE_MS), "challenge %d", i);
		const char *l = tc_expect(p[i], "* START ", LINE_MS);
		CHECK(l && sscanf(l, "* START %23s", rooms[i]) == 1, "game %d started", i);
		l = tc_expect(p[i], "* KINDS ", LINE_MS);
		CHECK(l && strstr(l, " robo bot "), "robo a bot in * KINDS: %s", l ? l : "-");
	}
	CHECK(who_of(carol, "robo", &lines, &marked) && lines == 2 && marked,
	    "WHO: robo in two games (%d lines)", lines);
	for (int i = 0; i < 2; i++) {
		char want[64];
		snprintf(want, sizeof want, "* MOVE %s ", rooms[i]);
		const char *l = tc_expect(p[i], want, 20000);
		CHECK(l && strstr(l, " black "), "the bot's first move in game %d: %s", i,
		    l ? l : "(nothing)");
	}
	for (int i = 0; i < 2; i++) {
		snprintf(line, sizeof line, "#z RESIGN %s", rooms[i]);
		CHECK(says(p[i], line, "OK #z RESIGN"), "resign %d", i);
	}
	kill(pid, SIGTERM);
	int st = -1;
	for (int i = 0; i < 100 && waitpid(pid, &st, WNOHANG) != pid; i++)
		usleep(50 * 1000);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "gomoku-bot did not exit 0 on SIGTERM");
	ok("gomoku-bot logged in to a bot account plays two people's games at once");
}

int
main(void)
{
	char tmpl[] = "/tmp/gomokud-test.XXXXXX", *t = tc_mkdtemp(tmpl);
	if (!t) {
		printf("FAIL: no temporary directory\n");
		return 1;
	}
	snprintf(dir, sizeof dir, "%s", t);
	snprintf(sock, sizeof sock, "%s/state/gomokud.ctl", dir);
	snprintf(outp, sizeof outp, "%s/ctl.out", dir);
	snprintf(errp, sizeof errp, "%s/ctl.err", dir);
	snprintf(conf, sizeof conf,
	    "state-dir %s/state\nbot-max-games 2\nbot-max-conns 2\nbot-threads 1", dir);
	if (daemon_start(&d, GOMOKUD_BIN, conf) != 0) {
		printf("FAIL: gomokud did not start\n");
		return 1;
	}
	rapfi = tc_account(d.port, "rapfi", "secret99");
	alice = tc_account(d.port, "alice", "secret99");
	bob = tc_account(d.port, "bob", "secret99");
	carol = tc_account(d.port, "carol", "secret99");
	if (!rapfi || !alice || !bob || !carol) {
		printf("FAIL: accounts\n");
		return 1;
	}
	test_tokens_and_refusals();
	if (!failures)
		test_marks_and_two_games();
	if (!failures)
		test_restart_and_ends();
	if (!failures)
		test_grace_and_claims();
	if (!failures)
		test_several_conns();
	if (!failures)
		test_revoke();
	if (!failures)
		test_gomoku_bot();
	if (daemon_stop(&d, SIGTERM, 5000) != 0) {
		printf("FAIL: gomokud did not exit cleanly\n");
		failures++;
	}
	printf("botaccounts: %d passed, %d failed\n", failures ? 0 : 1, failures ? 1 : 0);
	return failures ? 1 : 0;
}
