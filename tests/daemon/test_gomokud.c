/*
 * test_gomokud: integration tests against the real bin/gomokud on a loopback
 * port with a self-signed test certificate, driven by real TLS clients.
 * Each scenario prints what it checks; the run ends with the daemon's
 * SIGTERM drain and a clean exit (leak-checked under ASan).
 */
#include <fcntl.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <poll.h>
#include <signal.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "tests/daemon/check.h"
#include "tests/daemon/tclient.h"

#ifndef GOMOKUD_BIN
#define GOMOKUD_BIN "bin/gomokud"
#endif

static int port;

/* What the daemon logs when a SIGHUP's reload has completed (daemon/server.c). */
#define RELOADED "reloaded configuration and certificate"

/* Reads c's lines until one starts with prefix and contains part. */
static const char *
expect_has(struct tc *c, const char *prefix, const char *part)
{
	const char *l;
	while ((l = tc_expect(c, prefix, 3000)) && !strstr(l, part))
		;
	return l;
}

/* Plays moves alternately, a first; every move must be accepted. */
static void
play(struct tc *a, struct tc *b, const char *room, const char *const *moves, int n)
{
	for (int i = 0; i < n; i++) {
		struct tc *p = i % 2 ? b : a;
		tc_send(p, "MOVE %s %s", room, moves[i]);
		char pre[64];
		snprintf(pre, sizeof pre, "OK MOVE %s ", room);
		CHECK(tc_expect(p, pre, 3000), "move %s refused: %s", moves[i], p->line);
	}
}

/* Whether a TLS handshake capped at max_version succeeds. */
static int
tls_version_ok(int max_version)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in sa = { 0 };
	sa.sin_family = AF_INET;
	sa.sin_port = htons((uint16_t)port);
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
		close(fd);
		return 0;
	}
	SSL_CTX *ctx = SSL_CTX_new(TLS_client_method());
	SSL_CTX_set_security_level(ctx, 0); /* let the client offer old versions */
	SSL_CTX_set_min_proto_version(ctx, TLS1_VERSION);
	SSL_CTX_set_max_proto_version(ctx, max_version);
	SSL *ssl = SSL_new(ctx);
	SSL_set_fd(ssl, fd);
	int ok = SSL_connect(ssl) == 1;
	SSL_free(ssl);
	SSL_CTX_free(ctx);
	close(fd);
	return ok;
}

static void
test_handshake(void)
{
	CHECK(tls_version_ok(TLS1_3_VERSION), "TLS 1.3 refused");
	CHECK(tls_version_ok(TLS1_2_VERSION), "TLS 1.2 refused");
	CHECK(!tls_version_ok(TLS1_1_VERSION), "TLS 1.1 accepted");

	struct tc *c = tc_open(port, 0);
	CHECK(c, "connect");
	if (!c)
		return;
	tc_send(c, "GUEST early");
	CHECK_LINE(c, "ERR 405 hello-first");
	tc_send(c, "#v HELLO 2");
	CHECK_LINE(c, "ERR #v 406 version-mismatch");
	CHECK(tc_closed(c, 3000), "still open after a version mismatch");
	tc_close(c);

	c = tc_open(port, 1);
	tc_send(c, "SEEK freestyle 15 none any casual none");
	CHECK_LINE(c, "ERR 410 login-first");
	tc_send(c, "#t1 PING hi");
	CHECK_LINE(c, "OK #t1 PING hi");
	tc_send(c, "REGISTER bob 12345"); /* accounts: see test_accounts */
	CHECK_LINE(c, "ERR 402 bad-argument");
	tc_send(c, "frobnicate");
	CHECK_LINE(c, "ERR 401 unknown-command");
	tc_send(c, "#x9 MOVE r1");
	CHECK_LINE(c, "ERR #x9 400 syntax");
	tc_send(c, "GUEST hs_user");
	CHECK_LINE(c, "OK GUEST hs_user ");
	tc_send(c, "GUEST again");
	CHECK_LINE(c, "ERR 411 logged-in");
	struct tc *d = tc_open(port, 1);
	tc_send(d, "GUEST HS_USER");
	CHECK_LINE(d, "ERR 412 name-taken");
	tc_send(c, "BOT play 3 renju 15 none black swap2"); /* bots: see test_bots */
	CHECK_LINE(c, "ERR 402 bad-argument");
	tc_send(c, "QUIT");
	CHECK_LINE(c, "OK QUIT");
	CHECK(tc_closed(c, 3000), "still open after QUIT");
	tc_close(c);
	tc_close(d);
	ok("TLS 1.2 and 1.3 only; greeting, HELLO, version mismatch, states, tags, bad arguments, "
	   "QUIT");
}

static void
test_games(void)
{
	static const char *const five[] = { "h8", "h9", "i8", "i9", "j8", "j9", "k8", "k9", "l8" };
	static const char *const rules[] = { "freestyle", "renju" };
	for (int i = 0; i < 2; i++) {
		struct tc *a, *b;
		char room[16], game[64], na[20], nb[20];
		snprintf(game, sizeof game, "%s 15 none", rules[i]);
		snprintf(na, sizeof na, "g%da", i);
		snprintf(nb, sizeof nb, "g%db", i);
		REQUIRE(tc_pair_guests(port, na, nb, game, &a, &b, room, sizeof room) == 0, "%s",
		    tc_why);
		play(a, b, room, five, 9);
		const char *l = tc_expect(b, "* OVER ", 3000);
		CHECK(l && strstr(l, "black five") && strstr(l, "h8") && strstr(l, "l8"),
		    "%s: no five: %s", rules[i], l ? l : "-");
		tc_send(a, "MOVE %s a1", room);
		CHECK_LINE(a, "ERR 440 game-over");
		tc_close(a);
		tc_close(b);
	}
	/* standard: an overline does not win, exactly five does */
	static const char *const std[] = { "h8", "a1", "i8", "c1", "j8", "e1", "l8", "a3", "m8",
		"c3", "k8", "e3", "h9", "c5", "h10", "e5", "h11", "a7", "h12" };
	struct tc *a, *b;
	char room[16];
	REQUIRE(
	    tc_pair_guests(port, "sta", "stb", "standard 15 none", &a, &b, room, sizeof room) == 0,
	    "%s", tc_why);
	play(a, b, room, std, 11);
	/* k8 made six in a row: under standard the game goes on */
	tc_send(b, "PING overline");
	int over = 0;
	const char *l;
	while ((l = tc_read(b, 3000)) && strncmp(l, "OK PING", 7) != 0)
		over |= strncmp(l, "* OVER", 6) == 0;
	CHECK(l && !over, "game ended on an overline under standard");
	tc_send(b, "MOVE %s e3", room);
	CHECK_LINE(b, "OK MOVE");
	play(a, b, room, std + 12, 7);
	l = tc_expect(b, "* OVER ", 3000);
	CHECK(l && strstr(l, "black five") && strstr(l, "h12"), "standard five: %s", l ? l : "-");
	tc_close(a);
	tc_close(b);
	ok("whole games to five under freestyle, renju and standard (overline does not win)");
}

static void
test_illegal(void)
{
	struct tc *a, *b;
	char room[16];
	REQUIRE(
	    tc_pair_guests(port, "ila", "ilb", "freestyle 15 none", &a, &b, room, sizeof room) == 0,
	    "%s", tc_why);
	tc_send(b, "MOVE %s h8", room);
	CHECK_LINE(b, "ERR 431 not-your-turn");
	tc_send(a, "MOVE %s h8", room);
	CHECK_LINE(a, "OK MOVE");
	tc_send(b, "MOVE %s h8", room);
	CHECK_LINE(b, "ERR 432 occupied");
	tc_send(b, "MOVE %s p1", room);
	CHECK_LINE(b, "ERR 433 off-board");
	tc_send(b, "MOVE %s zz", room);
	CHECK_LINE(b, "ERR 402 bad-argument");
	tc_send(a, "MOVE %s i9", room);
	CHECK_LINE(a, "ERR 431 not-your-turn");
	tc_send(b, "MOVE r99999 i9");
	CHECK_LINE(b, "ERR 420 no-such-room");
	struct tc *c = tc_guest(port, "ilc");
	tc_send(c, "MOVE %s i9", room);
	CHECK_LINE(c, "ERR 430 not-a-player");
	tc_send(b, "RESIGN %s", room);
	const char *l = tc_expect(a, "* OVER ", 3000);
	CHECK(l && strstr(l, "black resign"), "resign: %s", l ? l : "-");
	tc_close(a);
	tc_close(b);
	tc_close(c);
	ok("illegal moves: not your turn, occupied, off board, bad notation, no room, not a "
	   "player");
}

static void
test_renju_forbidden(void)
{
	struct tc *a, *b;
	char room[16];
	REQUIRE(tc_pair_guests(port, "rja", "rjb", "renju 15 none", &a, &b, room, sizeof room) == 0,
	    "%s", tc_why);
	/* black's first stone on the centre (h8); k8 would make two threes */
	static const char *const setup[] = { "h8", "a1", "i8", "a3", "k10", "a5", "k11", "a7" };
	play(a, b, room, setup, 8);
	tc_send(a, "MOVE %s k8", room);
	CHECK_LINE(a, "ERR 434 double-three");
	tc_send(a, "MOVE %s n14", room);
	CHECK_LINE(a, "OK MOVE");
	tc_close(a);
	tc_close(b);

	static const char *const four4[] = { "h8", "a1", "i8", "a3", "j8", "a5", "k9", "a7", "k10",
		"a9", "k11", "a11" };
	static const char *const six[] = { "h8", "a1", "i8", "a3", "j8", "a5", "l8", "a7", "m8",
		"a9" };
	static const struct {
		const char *const *moves;
		int n;
		const char *err;
	} cases[] = { { four4, 12, "ERR 435 double-four" }, { six, 10, "ERR 436 overline" } };
	for (int i = 0; i < 2; i++) {
		char na[8], nb[8];
		snprintf(na, sizeof na, "rj%da", i);
		snprintf(nb, sizeof nb, "rj%db", i);
		REQUIRE(
		    tc_pair_guests(port, na, nb, "renju 15 none", &a, &b, room, sizeof room) == 0,
		    "%s", tc_why);
		play(a, b, room, cases[i].moves, cases[i].n);
		tc_send(a, "MOVE %s k8", room);
		CHECK_LINE(a, cases[i].err);
		tc_close(a);
		tc_close(b);
	}
	ok("renju: double-three, double-four and overline are refused with their reasons");
}

/* Renju without an opening rule: black's first stone goes on the centre
 * point, as renju's rules say; freestyle's goes anywhere. A board without a
 * centre (an even size) is no renju board. */
static void
test_renju_centre(void)
{
	struct tc *a, *b;
	char room[16];
	REQUIRE(tc_pair_guests(port, "rca", "rcb", "renju 15 none", &a, &b, room, sizeof room) == 0,
	    "%s", tc_why);
	tc_send(a, "MOVE %s a1", room);
	CHECK_LINE(a, "ERR 437 outside-area");
	tc_send(a, "MOVE %s h9", room);
	CHECK_LINE(a, "ERR 437 outside-area");
	tc_send(b, "MOVE %s a1", room);
	CHECK_LINE(b, "ERR 431 not-your-turn");
	tc_send(a, "MOVE %s h8", room);
	CHECK_LINE(a, "OK MOVE");
	tc_send(b, "MOVE %s a1", room); /* white's first goes anywhere */
	CHECK_LINE(b, "OK MOVE");
	/* an undo by black, to move: two plies, the board is empty again and
	 * the next first stone is judged again */
	tc_send(a, "OFFER %s undo", room);
	CHECK_LINE(a, "OK OFFER ");
	int id = 0;
	sscanf(a->line, "OK OFFER %*s %d", &id);
	tc_send(b, "ACCEPT %s %d", room, id);
	const char *l = tc_expect(a, "* UNDO ", 3000);
	CHECK(l && strstr(l, " 2 - -"), "undo two plies: %s", l ? l : "-");
	tc_send(a, "MOVE %s i8", room);
	CHECK_LINE(a, "ERR 437 outside-area");
	tc_send(a, "MOVE %s h8", room);
	CHECK_LINE(a, "OK MOVE");
	tc_close(a);
	tc_close(b);

	REQUIRE(
	    tc_pair_guests(port, "fca", "fcb", "freestyle 15 none", &a, &b, room, sizeof room) == 0,
	    "%s", tc_why);
	tc_send(a, "MOVE %s a1", room);
	CHECK_LINE(a, "OK MOVE");
	tc_close(a);
	tc_close(b);

	struct tc *c = tc_guest(port, "rce");
	tc_send(c, "SEEK renju 14 none any casual none");
	CHECK_LINE(c, "ERR 402 bad-argument");
	tc_send(c, "CREATE renju 16 none any casual none");
	CHECK_LINE(c, "ERR 402 bad-argument");
	tc_send(c, "SEEK freestyle 14 none any casual none");
	CHECK_LINE(c, "OK SEEK");
	tc_close(c);
	/* a bot holding black under renju opens on the centre */
	c = tc_guest(port, "rcf");
	tc_send(c, "BOT play 1 renju 15 none white none");
	l = tc_expect(c, "* MOVE ", 10000);
	CHECK(l && strstr(l, " black h8 "), "the bot's first stone: %s", l ? l : "-");
	tc_close(c);
	ok("renju: black's first stone off the centre is 437 outside-area (also after an undo); "
	   "freestyle's goes anywhere; renju on an even board is 402; a bot as black opens on h8");
}

/* The opening rules' tokens: the rules core says which go with which rule
 * and size (402 otherwise); the rest this server does not play yet (501),
 * nor the OPENING requests, and its greeting does not list `openings`. */
static void
test_openings_unplayed(void)
{
	static const struct {
		const char *spec, *err;
	} cases[] = {
		{ "freestyle 15 none any casual pro", NULL },
		{ "standard 9 none any casual longpro", NULL },
		{ "freestyle 15 none any casual swap", NULL },
		{ "renju 15 none any casual soosorv8", NULL },
		{ "renju 15 none any casual taraguchi10", NULL },
		{ "renju 15 none any casual rif", NULL },
		{ "renju 15 none any casual yamaguchi", NULL },
		{ "renju 15 none any casual pro", "ERR 402 bad-argument" },
		{ "renju 15 none any casual swap", "ERR 402 bad-argument" },
		{ "freestyle 15 none any casual rif", "ERR 402 bad-argument" },
		{ "renju 13 none any casual soosorv8", "ERR 402 bad-argument" },
		{ "freestyle 14 none any casual pro", "ERR 402 bad-argument" },
		{ "freestyle 7 none any casual longpro", "ERR 402 bad-argument" },
	};
	struct tc *g = tc_open(port, 0);
	CHECK(g && strstr(g->line, "* SERVER ") && strstr(g->line, " swap2 ") &&
		strstr(g->line, " openings"),
	    "the greeting: %s", g ? g->line : "-");
	tc_close(g);
	struct tc *c;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char name[16];
		snprintf(name, sizeof name, "op%zu", i); /* a connection each: the rate limit */
		c = tc_guest(port, name);
		REQUIRE(c, "cannot connect");
		tc_send(c, "SEEK %s", cases[i].spec);
		CHECK(tc_expect(c, cases[i].err ? cases[i].err : "OK SEEK", 3000), "SEEK %s: %s",
		    cases[i].spec, c->line);
		if (!cases[i].err) { /* withdrawn before it could pair with the CREATE's */
			tc_send(c, "CANCEL");
			CHECK_LINE(c, "OK CANCEL");
		}
		tc_send(c, "CREATE %s", cases[i].spec);
		CHECK(tc_expect(c, cases[i].err ? cases[i].err : "OK CREATE", 3000),
		    "CREATE %s: %s", cases[i].spec, c->line);
		tc_close(c);
	}
	/* the bots play every opening rule (test_bots plays them through) */
	struct tc *z = tc_guest(port, "opz"), *y = tc_guest(port, "opy");
	REQUIRE(z && y, "cannot connect");
	tc_send(z, "BOT play 1 renju 15 none black soosorv8");
	CHECK_LINE(z, "OK BOT");
	tc_send(y, "BOT play 1 freestyle 15 none black pro");
	CHECK_LINE(y, "OK BOT");
	tc_close(z);
	tc_close(y);
	c = tc_guest(port, "opa");
	tc_send(c, "SEEK freestyle 15 none any casual swap bot");
	CHECK_LINE(c, "OK SEEK");
	tc_send(c, "CANCEL");
	CHECK_LINE(c, "OK CANCEL");
	struct tc *d = tc_guest(port, "opb");
	tc_send(c, "CHALLENGE opb freestyle 15 none any casual swap");
	CHECK_LINE(c, "OK CHALLENGE");
	tc_close(d);
	tc_close(c);

	struct tc *a, *b;
	char room[16];
	REQUIRE(
	    tc_pair_guests(port, "opc", "opd", "freestyle 15 none", &a, &b, room, sizeof room) == 0,
	    "%s", tc_why);
	tc_send(a, "OPENING place %s h8", room);
	CHECK_LINE(a, "ERR 441 wrong-phase");
	tc_send(b, "OPENING colour %s black", room);
	CHECK_LINE(b, "ERR 441 wrong-phase");
	tc_send(a, "OPENING r99999 place h8");
	CHECK_LINE(a, "ERR 400 syntax");
	tc_send(a, "MOVE %s h8", room); /* the game goes on */
	CHECK_LINE(a, "OK MOVE");
	tc_close(a);
	tc_close(b);
	ok("opening tokens: a combination the rules core refuses is 402, the others are played "
	   "(SEEK, CREATE, CHALLENGE) and listed as `openings`; bots play every one; "
	   "OPENING in a game without one 441");
}

static void
test_swap2(void)
{
	struct tc *a = tc_guest(port, "swa"), *b = tc_guest(port, "swb");
	char room[16], code[40];
	tc_send(a, "CREATE freestyle 15 none black casual swap2");
	const char *l = tc_expect(a, "OK CREATE ", 3000);
	CHECK(l && sscanf(l, "OK CREATE %15s %39s", room, code) == 2, "create: %s", l ? l : "-");
	tc_send(a, "SEEK freestyle 15 none any casual none");
	CHECK_LINE(a, "ERR 445 busy"); /* already waiting in its own room */
	tc_send(b, "JOIN nosuchcode1");
	CHECK_LINE(b, "ERR 422 no-such-code");
	tc_send(b, "JOIN %s", code);
	CHECK_LINE(b, "* START ");
	CHECK_LINE(b, "* SWAP2 ");
	CHECK(strstr(b->line, "put3 swa"), "stage: %s", b->line);
	CHECK_LINE(b, "OK JOIN ");
	tc_send(b, "SWAP2 %s put h8,h9,i9", room);
	CHECK_LINE(b, "ERR 431");
	tc_send(a, "MOVE %s h8", room);
	CHECK_LINE(a, "ERR 441 wrong-phase");
	tc_send(a, "SWAP2 %s put h8,h9", room);
	CHECK_LINE(a, "ERR 402");
	tc_send(a, "SWAP2 %s put h8,h9,i9", room);
	CHECK_LINE(a, "OK SWAP2 ");
	l = tc_expect(b, "* SWAP2 ", 3000);
	CHECK(l && strstr(l, "choose swb"), "choose: %s", l ? l : "-");
	tc_send(b, "SWAP2 %s put j10,g7", room);
	CHECK_LINE(b, "OK SWAP2 ");
	l = tc_expect(a, "* SWAP2 ", 3000);
	CHECK(l && strstr(l, "choose2 swa"), "choose2: %s", l ? l : "-");
	tc_send(a, "SWAP2 %s white", room);
	l = tc_expect(b, "* COLOURS ", 3000);
	CHECK(l && strstr(l, " swb swa"), "colours: %s", l ? l : "-");
	/* five stones: white (swa) is to move */
	tc_send(b, "MOVE %s k11", room);
	CHECK_LINE(b, "ERR 431");
	tc_send(a, "MOVE %s k11", room);
	CHECK_LINE(a, "OK MOVE");
	struct tc *c = tc_guest(port, "swc");
	tc_send(c, "WATCH %s", room);
	CHECK_LINE(c, "ERR 420"); /* private */
	tc_send(c, "JOIN %s", code);
	CHECK_LINE(c, "OK JOIN "); /* full: a spectator */
	tc_send(c, "MOVE %s a1", room);
	CHECK_LINE(c, "ERR 430");
	tc_close(a);
	tc_close(b);
	tc_close(c);
	ok("swap2 with a private room: put3, put2, choose2, colours; codes; private rooms");
}

static void
test_flag(void)
{
	struct tc *a, *b;
	char room[16];
	REQUIRE(
	    tc_pair_guests(port, "fla", "flb", "freestyle 15 1+0", &a, &b, room, sizeof room) == 0,
	    "%s", tc_why);
	const char *l = tc_expect(b, "* OVER ", 4000);
	CHECK(l && strstr(l, "white time"), "flag: %s", l ? l : "-");
	tc_close(a);
	tc_close(b);
	ok("a flag ends the game on time (1+0 clock)");
}

static void
test_offers(void)
{
	struct tc *a, *b;
	char room[16], pre[64];
	REQUIRE(
	    tc_pair_guests(port, "ofa", "ofb", "freestyle 15 none", &a, &b, room, sizeof room) == 0,
	    "%s", tc_why);
	tc_send(a, "MOVE %s h8", room);
	CHECK_LINE(a, "OK MOVE");
	tc_send(b, "OFFER %s draw", room);
	CHECK_LINE(b, "OK OFFER ");
	snprintf(pre, sizeof pre, "* OFFER %s ", room);
	CHECK_LINE(a, pre);
	int id = 0;
	sscanf(b->line, "OK OFFER %*s %d", &id);
	tc_send(b, "OFFER %s draw", room);
	CHECK_LINE(b, "ERR 442 offer-pending");
	tc_send(b, "ACCEPT %s %d", room, id);
	CHECK_LINE(b, "ERR 423 no-such-offer");
	tc_send(a, "DECLINE %s %d", room, id);
	const char *l = tc_expect(b, "* OFFEREND ", 3000);
	CHECK(l && strstr(l, "declined"), "declined: %s", l ? l : "-");
	CHECK_LINE(a, "* OFFEREND ");
	/* a move withdraws a pending offer */
	tc_send(b, "OFFER %s draw", room);
	CHECK_LINE(b, "OK OFFER ");
	tc_send(b, "MOVE %s i9", room);
	l = tc_expect(a, "* OFFEREND ", 3000);
	CHECK(l && strstr(l, "withdrawn"), "withdrawn: %s", l ? l : "-");
	/* undo: black takes back its last move and is to move again */
	tc_send(a, "MOVE %s j10", room);
	CHECK_LINE(a, "OK MOVE");
	tc_send(a, "OFFER %s undo", room);
	CHECK_LINE(a, "OK OFFER ");
	sscanf(a->line, "OK OFFER %*s %d", &id);
	tc_send(b, "ACCEPT %s %d", room, id);
	l = tc_expect(a, "* UNDO ", 3000);
	CHECK(l && strstr(l, " 1 - -"), "undo one ply: %s", l ? l : "-");
	tc_send(a, "MOVE %s j11", room);
	CHECK_LINE(a, "OK MOVE");
	/* undo by the side to move: two plies, so it is to move again */
	tc_send(b, "MOVE %s k12", room);
	CHECK(expect_has(a, "* MOVE ", "white k12"), "k12 not seen");
	tc_send(a, "OFFER %s undo", room);
	CHECK_LINE(a, "OK OFFER ");
	sscanf(a->line, "OK OFFER %*s %d", &id);
	tc_send(b, "ACCEPT %s %d", room, id);
	l = tc_expect(a, "* UNDO ", 3000);
	CHECK(l && strstr(l, " 2 - -"), "undo two plies: %s", l ? l : "-");
	tc_send(a, "STATE %s", room);
	snprintf(pre, sizeof pre, "= MOVES %s 0 h8,i9", room);
	l = tc_expect(a, "= MOVES ", 3000);
	CHECK(l && strcmp(l, pre) == 0, "after undo: %s", l ? l : "-");
	CHECK_LINE(a, "OK STATE ");
	tc_send(a, "MOVE %s j11", room);
	CHECK_LINE(a, "OK MOVE");
	/* the offerer withdraws with DECLINE */
	tc_send(b, "OFFER %s undo", room);
	CHECK_LINE(b, "OK OFFER ");
	sscanf(b->line, "OK OFFER %*s %d", &id);
	tc_send(b, "DECLINE %s %d", room, id);
	l = tc_expect(a, "* OFFEREND ", 3000);
	CHECK(l && strstr(l, "withdrawn"), "withdrawn by DECLINE: %s", l ? l : "-");
	tc_send(a, "ACCEPT %s %d", room, id);
	CHECK_LINE(a, "ERR 423");
	tc_send(a, "OFFER %s rematch", room);
	CHECK_LINE(a, "ERR 441");
	tc_send(a, "ABORT %s", room);
	CHECK_LINE(a, "ERR 443 too-late");
	tc_send(b, "OFFER %s draw", room);
	CHECK_LINE(b, "OK OFFER ");
	sscanf(b->line, "OK OFFER %*s %d", &id);
	tc_send(a, "ACCEPT %s %d", room, id);
	l = tc_expect(b, "* OVER ", 3000);
	CHECK(l && strstr(l, "draw draw-agreed"), "draw: %s", l ? l : "-");
	/* rematch with colours swapped, then an abort */
	tc_send(a, "OFFER %s rematch", room);
	CHECK_LINE(a, "OK OFFER ");
	sscanf(a->line, "OK OFFER %*s %d", &id);
	tc_send(b, "ACCEPT %s %d", room, id);
	l = tc_expect(a, "* START ", 3000);
	CHECK(l && strstr(l, " ofb ofa "), "rematch swaps colours: %s", l ? l : "-");
	tc_send(b, "MOVE %s h8", room);
	CHECK_LINE(b, "OK MOVE");
	tc_send(b, "ABORT %s", room);
	l = tc_expect(a, "* OVER ", 3000);
	CHECK(l && strstr(l, "none aborted"), "abort: %s", l ? l : "-");
	tc_close(a);
	tc_close(b);
	ok("offers: draw declined/withdrawn/accepted, undo, one per kind, ids, rematch, abort");
}

static void
test_spectators_chat(void)
{
	struct tc *a, *b;
	char room[16], pre[64];
	REQUIRE(tc_pair_guests(
		    port, "spa", "spb", "freestyle 15 300+5", &a, &b, room, sizeof room) == 0,
	    "%s", tc_why);
	tc_send(a, "MOVE %s h8", room);
	CHECK_LINE(a, "OK MOVE");
	struct tc *c = tc_guest(port, "spc");
	tc_send(c, "ROOMS");
	snprintf(pre, sizeof pre, "= ROOM %s playing freestyle 15 300+5 ", room);
	CHECK_LINE(c, pre);
	tc_send(c, "WATCH %s", room);
	CHECK_LINE(c, "= ROOM ");
	CHECK_LINE(c, "= CLOCK ");
	snprintf(pre, sizeof pre, "= SEAT %s black spa here", room);
	CHECK_LINE(c, pre);
	snprintf(pre, sizeof pre, "= MOVES %s 0 h8", room);
	CHECK_LINE(c, pre);
	CHECK_LINE(c, "OK WATCH ");
	tc_send(b, "MOVE %s i9", room);
	snprintf(pre, sizeof pre, "* MOVE %s ", room);
	const char *l = tc_expect(c, pre, 3000);
	CHECK(l && strstr(l, "white i9 "), "spectator sees the move: %s", l ? l : "-");
	tc_send(c, "MOVE %s j10", room);
	CHECK_LINE(c, "ERR 430");
	tc_send(c, "OFFER %s draw", room);
	CHECK_LINE(c, "ERR 430");
	tc_send(c, "SAY %s hello from the gallery \xe2\x99\x9f", room);
	CHECK_LINE(c, "OK SAY ");
	snprintf(pre, sizeof pre, "* SAY %s ", room);
	l = tc_expect(a, pre, 3000);
	CHECK(l && strstr(l, "spc hello from the gallery \xe2\x99\x9f"), "chat: %s", l ? l : "-");
	tc_send(a, "TELL spb psst");
	CHECK_LINE(b, "* TELL spa psst");
	tc_send(a, "TELL nobody hi");
	CHECK_LINE(a, "ERR 421");
	tc_send(a, "SAY %s bad \xc3\x28 bytes", room);
	CHECK_LINE(a, "ERR 404 bad-utf8");
	int limited = 0;
	for (int i = 0; i < 7; i++)
		tc_send(b, "SAY %s spam %d", room, i);
	for (int i = 0; i < 7; i++) {
		l = tc_expect(b, "", 3000);
		while (l && l[0] == '*')
			l = tc_read(b, 3000);
		if (l && strncmp(l, "ERR 407", 7) == 0)
			limited++;
	}
	CHECK(limited >= 1, "chat flood not limited");
	tc_send(c, "STATE %s", room);
	CHECK_LINE(c, "OK STATE ");
	tc_send(c, "LEAVE %s", room);
	CHECK_LINE(c, "OK LEAVE ");
	tc_send(c, "STATE %s", room);
	CHECK_LINE(c, "ERR 446");
	tc_close(a);
	tc_close(b);
	tc_close(c);
	ok("spectators: ROOMS, WATCH snapshot, events, no moves; chat SAY/TELL, UTF-8, rate");
}

/* Room ids are lowercase (daemon/roomid.h, PROTOCOL.md section 2): the
 * same id in upper case is refused by the protocol (402) for every
 * request that names one, and a lowercase token that is no room id
 * ("r0", digits alone) names no room (420); on a cluster node
 * (tests/pg/test_pg.sh runs this file there too) no other node has them
 * either. */
static void
test_room_ids(void)
{
	struct tc *a, *b;
	char room[16], up[16];
	REQUIRE(tc_pair_guests(
		    port, "ida", "idb", "freestyle 15 300+5", &a, &b, room, sizeof room) == 0,
	    "%s", tc_why);
	for (size_t i = 0; i <= strlen(room); i++)
		up[i] = (char)toupper((unsigned char)room[i]);
	struct tc *c = tc_guest(port, "idc");
	/* 13 lines: within the test daemon's rate burst of 20 */
	static const char *const asks[] = { "WATCH", "WHO", "LEAVE" };
	static const char *const none[] = { "r0", "12", "abcdefg1" };
	for (size_t i = 0; c && i < sizeof asks / sizeof asks[0]; i++) {
		tc_send(c, "%s %s", asks[i], up);
		CHECK(tc_expect(c, "ERR 402", 3000), "%s %s: %s", asks[i], up, c->line);
		for (size_t j = 0; j < sizeof none / sizeof none[0]; j++) {
			tc_send(c, "%s %s", asks[i], none[j]);
			CHECK(
			    tc_expect(c, "ERR 420", 3000), "%s %s: %s", asks[i], none[j], c->line);
		}
	}
	tc_send(a, "MOVE %s h8", up);
	CHECK(tc_expect(a, "ERR 402", 3000), "MOVE %s: %s", up, a->line);
	tc_send(a, "MOVE %s h8", room); /* and the room itself answers as ever */
	CHECK_LINE(a, "OK MOVE ");
	tc_send(c, "WATCH %s", room);
	CHECK_LINE(c, "OK WATCH ");
	tc_close(a);
	tc_close(b);
	tc_close(c);
	ok("room ids: upper case is 402, a token that is no id 420; the room plays");
}

/* The `= SAY` lines of a snapshot up to its "OK <cmd>": how many, and the
 * first and last texts. */
static int
kept_chat(struct tc *c, const char *cmd, char *first, char *last, size_t n)
{
	char okp[32];
	snprintf(okp, sizeof okp, "OK %s ", cmd);
	int k = 0;
	first[0] = last[0] = '\0';
	for (const char *l; (l = tc_read(c, 3000));) {
		if (strncmp(l, okp, strlen(okp)) == 0)
			return k;
		if (strncmp(l, "= SAY ", 6) == 0) {
			const char *t = strchr(l + 6, ' '); /* past the room */
			t = t ? strchr(t + 1, ' ') : NULL;  /* past the user */
			snprintf(k++ ? last : first, n, "%s", t ? t + 1 : "");
			if (k == 1)
				snprintf(last, n, "%s", first);
		}
	}
	return -1;
}

/* PROTOCOL.md, snapshots (`chatlog`): STATE, WATCH and RESUME end with
 * the room's last 20 lines of chat, oldest first, and no more. */
static void
test_chat_kept(void)
{
	struct tc *g = tc_open(port, 0);
	CHECK(g && strstr(g->line, " chatlog"), "greeting: %s", g ? g->line : "-");
	tc_close(g);
	struct tc *p[5];
	char room[16], first[420], last[420], token[80];
	REQUIRE(tc_pair_guests(
		    port, "cka", "ckb", "freestyle 15 none", &p[0], &p[1], room, sizeof room) == 0,
	    "%s", tc_why);
	tc_send(p[0], "STATE %s", room);
	CHECK(kept_chat(p[0], "STATE", first, last, sizeof first) == 0, "no chat yet, none kept");
	for (int i = 2; i < 5; i++) {
		char name[8];
		snprintf(name, sizeof name, "ck%c", 'a' + i);
		p[i] = tc_guest(port, name);
		tc_send(p[i], "WATCH %s", room);
		CHECK_LINE(p[i], "OK WATCH ");
	}
	/* 23 lines, five a speaker at most (the chat burst), in order */
	for (int i = 0; i < 23; i++) {
		struct tc *c = p[i / 5];
		tc_send(c, "SAY %s line %d", room, i + 1);
		CHECK_LINE(c, "OK SAY ");
	}
	tc_send(p[2], "STATE %s", room);
	int k = kept_chat(p[2], "STATE", first, last, sizeof first);
	CHECK(k == 20 && !strcmp(first, "line 4") && !strcmp(last, "line 23"),
	    "STATE keeps the last 20: %d, %s .. %s", k, first, last);
	struct tc *w = tc_guest(port, "ckw");
	tc_send(w, "WATCH %s", room);
	k = kept_chat(w, "WATCH", first, last, sizeof first);
	CHECK(k == 20 && !strcmp(first, "line 4") && !strcmp(last, "line 23"),
	    "WATCH keeps the last 20: %d, %s .. %s", k, first, last);
	snprintf(token, sizeof token, "%s", p[1]->token);
	tc_close(p[1]);
	CHECK_LINE(p[0], "* PRESENCE ");
	p[1] = tc_open(port, 1);
	tc_send(p[1], "RESUME %s %s 2", token, room);
	k = kept_chat(p[1], "RESUME", first, last, sizeof first);
	CHECK(k == 20 && !strcmp(first, "line 4") && !strcmp(last, "line 23"),
	    "RESUME keeps the last 20: %d, %s .. %s", k, first, last);
	for (int i = 0; i < 5; i++)
		tc_close(p[i]);
	tc_close(w);
	ok("snapshots (STATE, WATCH, RESUME) carry the room's last 20 lines of chat, no more");
}

static void
test_resume_claim(void)
{
	struct tc *a, *b;
	char room[16], pre[64], token[80];
	REQUIRE(
	    tc_pair_guests(port, "rsa", "rsb", "freestyle 15 none", &a, &b, room, sizeof room) == 0,
	    "%s", tc_why);
	snprintf(token, sizeof token, "%s", b->token);
	tc_close(b);
	snprintf(pre, sizeof pre, "* PRESENCE %s ", room);
	const char *l = tc_expect(a, pre, 3000);
	CHECK(l && strstr(l, "rsb gone "), "gone: %s", l ? l : "-");
	tc_send(a, "CLAIM %s", room);
	CHECK_LINE(a, "ERR 447 cannot-claim");
	struct tc *d = tc_open(port, 1);
	tc_send(d, "RESUME 00000000000000000000000000000000 %s 1", room);
	CHECK_LINE(d, "ERR 448");
	tc_send(d, "RESUME %s %s 2", token, room);
	snprintf(pre, sizeof pre, "= SEAT %s white rsb here", room);
	CHECK_LINE(d, pre);
	CHECK_LINE(d, "OK RESUME ");
	l = tc_expect(a, "* PRESENCE ", 3000);
	CHECK(l && strstr(l, "rsb back"), "back: %s", l ? l : "-");
	tc_send(a, "MOVE %s h8", room);
	CHECK_LINE(d, "* MOVE ");
	tc_send(d, "MOVE %s i9", room);
	CHECK_LINE(d, "OK MOVE");
	ok("disconnect shows gone with the deadline; RESUME with the token gets the seat back");

	/* now gone for good: a claim after the 1 s grace wins */
	tc_close(d);
	CHECK_LINE(a, "* PRESENCE ");
	usleep(1300 * 1000);
	tc_send(a, "CLAIM %s", room);
	l = tc_expect(a, "* OVER ", 3000);
	CHECK(l && strstr(l, "black abandoned"), "claim: %s", l ? l : "-");
	CHECK_LINE(a, "OK CLAIM ");
	d = tc_open(port, 1);
	tc_send(d, "RESUME %s %s 2", token, room);
	CHECK_LINE(d, "ERR 448");
	tc_close(a);
	tc_close(d);
	ok("a claim after the grace period wins 'abandoned'; the lost seat cannot be resumed");

	/* both players gone past the deadline: the game ends by itself */
	struct tc *w;
	REQUIRE(
	    tc_pair_guests(port, "aba", "abb", "freestyle 15 none", &a, &b, room, sizeof room) == 0,
	    "%s", tc_why);
	w = tc_guest(port, "abw");
	tc_send(w, "WATCH %s", room);
	CHECK_LINE(w, "OK WATCH ");
	tc_close(a);
	tc_close(b);
	l = tc_expect(w, "* OVER ", 4000);
	CHECK(l && strstr(l, "none abandoned"), "both gone: %s", l ? l : "-");
	tc_close(w);
	ok("both players gone past the grace period: the game ends 'none abandoned'");
}

static void
test_limits(void)
{
	/* rate: 60 lines at once against a burst of 20 */
	struct tc *c = tc_open(port, 1);
	char burst[60 * 6];
	for (int i = 0; i < 60; i++)
		memcpy(burst + i * 6, "PING\r\n", 6);
	tc_send_raw(c, burst, sizeof burst);
	int pings = 0, limited = 0;
	for (int i = 0; i < 60; i++) {
		const char *l = tc_read(c, 3000);
		if (!l)
			break;
		pings += strncmp(l, "OK PING", 7) == 0;
		limited += strncmp(l, "ERR 407 rate-limited", 20) == 0;
	}
	CHECK(pings + limited == 60 && limited > 0 && pings >= 15, "rate: %d ok, %d limited", pings,
	    limited);
	tc_close(c);

	/* an overlong line, without and with its LF */
	for (int lf = 0; lf < 2; lf++) {
		c = tc_open(port, 1);
		char big[700];
		memset(big, 'a', sizeof big);
		big[sizeof big - 1] = '\n';
		tc_send_raw(c, big, lf ? sizeof big : 600);
		CHECK_LINE(c, "ERR 403 line-too-long");
		CHECK(tc_closed(c, 3000), "open after an overlong line");
		tc_close(c);
	}

	/* binary garbage: errors, never a crash */
	c = tc_open(port, 1);
	unsigned char junk[3000];
	unsigned x = 12345;
	for (size_t i = 0; i < sizeof junk; i++) {
		x = x * 1103515245u + 12345u;
		junk[i] = (unsigned char)(x >> 16);
		if (i % 97 == 0)
			junk[i] = '\n';
	}
	tc_send_raw(c, junk, sizeof junk);
	const char *l = tc_expect(c, "ERR ", 3000);
	CHECK(l, "no error for garbage");
	tc_close(c);

	/* plaintext to the TLS port: the handshake fails and it is closed */
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in sa = { 0 };
	sa.sin_family = AF_INET;
	sa.sin_port = htons((uint16_t)port);
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	CHECK(connect(fd, (struct sockaddr *)&sa, sizeof sa) == 0, "tcp connect");
	CHECK(write(fd, "HELLO 1\r\nGUEST plain\r\n", 22) == 22, "write");
	struct pollfd p = { fd, POLLIN, 0 };
	char buf[256];
	CHECK(poll(&p, 1, 3000) == 1 && read(fd, buf, sizeof buf) <= 0, "plaintext not closed");
	close(fd);

	/* silence during the handshake: closed after handshake-timeout (1 s) */
	fd = socket(AF_INET, SOCK_STREAM, 0);
	CHECK(connect(fd, (struct sockaddr *)&sa, sizeof sa) == 0, "tcp connect");
	p.fd = fd;
	CHECK(poll(&p, 1, 4000) == 1 && read(fd, buf, sizeof buf) <= 0,
	    "silent handshake not closed");
	close(fd);

	c = tc_open(port, 1);
	tc_send(c, "PING alive");
	CHECK_LINE(c, "OK PING alive");
	tc_close(c);
	ok("limits: rate limit, overlong lines, binary garbage, plaintext, handshake timeout");
}

static void
test_sighup(struct daemon *d)
{
	struct tc *c = tc_open(port, 1);
	char before[65], after[65], path[200];
	tc_cert_digest(c, before);
	snprintf(path, sizeof path, "%s/state/cert.pem", d->dir);
	unlink(path);
	snprintf(path, sizeof path, "%s/state/key.pem", d->dir);
	unlink(path);
	int reloads = daemon_log_count(d, RELOADED);
	kill(d->pid, SIGHUP);
	CHECK(daemon_wait_log(d, RELOADED, reloads, 10000), "no \"%s\" after SIGHUP (log %s)",
	    RELOADED, d->log);
	tc_send(c, "PING still-here");
	CHECK_LINE(c, "OK PING still-here");
	struct tc *e = tc_open(port, 1);
	CHECK(e, "connect after SIGHUP");
	if (e) {
		tc_cert_digest(e, after);
		CHECK(strcmp(before, after) != 0 && after[0], "certificate not reloaded");
	}
	tc_close(c);
	tc_close(e);
	ok("SIGHUP reloads the certificate; open connections stay");
}

/* A second daemon with tight caps: connections per address and the output
 * queue of a reader that never reads. */
static void
test_caps(void)
{
	struct daemon d2;
	if (daemon_start(&d2, GOMOKUD_BIN,
		"max-per-address 3\noutput-queue-kib 16\n"
		"rate-burst 100000\nrate-per-second 100000\n")) {
		CHECK(0, "cannot start a second daemon");
		return;
	}
	struct tc *c[4];
	for (int i = 0; i < 3; i++) {
		c[i] = tc_open(d2.port, 1);
		CHECK(c[i], "connection %d of 3 refused", i + 1);
	}
	c[3] = tc_open(d2.port, -1);
	CHECK(c[3] && tc_expect(c[3], "ERR 503 server-full", 3000), "4th connection not refused");
	CHECK(c[3] && tc_closed(c[3], 3000), "4th connection not closed");
	for (int i = 0; i < 4; i++)
		tc_close(c[i]);

	/* 150000 PINGs (9 MB of replies), never reading a reply: dropped at 16 KiB queued */
	/* the four above may not be counted out yet: retry for a while */
	struct tc *slow = NULL;
	for (int i = 0; i < 40 && !slow; i++)
		if (!(slow = tc_open(d2.port, -2)))
			usleep(50 * 1000);
	CHECK(slow, "slow reader cannot connect");
	if (!slow)
		return;
	static char req[150000 * 56];
	size_t n = 0;
	for (int i = 0; i < 150000; i++)
		n += (size_t)snprintf(req + n, sizeof req - n, "PING %048d\n", i);
	tc_send_raw(slow, req, n);
	CHECK(daemon_wait_log(&d2, "output queue over the cap", 0, 5000),
	    "slow reader not dropped (log %s)", d2.log);
	tc_close(slow);
	struct tc *e = tc_open(d2.port, 1);
	tc_send(e, "PING fine");
	CHECK_LINE(e, "OK PING fine");
	tc_close(e);

	/* SIGHUP re-reads the config: five connections from one address now */
	char path[200];
	snprintf(path, sizeof path, "%s/gomokud.conf", d2.dir);
	FILE *f = fopen(path, "a");
	if (f) {
		fprintf(f, "max-per-address 5\n");
		fclose(f);
	}
	int reloads = daemon_log_count(&d2, RELOADED);
	kill(d2.pid, SIGHUP);
	CHECK(daemon_wait_log(&d2, RELOADED, reloads, 10000), "no \"%s\" after SIGHUP (log %s)",
	    RELOADED, d2.log);
	struct tc *five[5];
	int up = 0;
	for (int i = 0; i < 5; i++) {
		five[i] = tc_open(d2.port, 1);
		up += five[i] != NULL;
	}
	CHECK(up == 5, "after SIGHUP with max-per-address 5: %d connections", up);
	for (int i = 0; i < 5; i++)
		tc_close(five[i]);
	CHECK(daemon_stop(&d2, SIGTERM, 5000) == 0, "second daemon exit");
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf %s", d2.dir);
	if (!failures && system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", d2.dir);
	ok("caps: connections per address (503), a slow reader dropped at its output cap, "
	   "SIGHUP re-reads the config");
}

/* TAKE <seek-id>: a listed seek taken with a click (PROTOCOL.md 5.1), its
 * refusals; the greeting names it and the bot wait; a seek ends with its
 * seeker's connection, so a reconnect finds none. */
static void
test_take(void)
{
	struct tc *g = tc_open(port, 0);
	CHECK(g && strstr(g->line, " take") && strstr(g->line, " bot-fallback=20"),
	    "greeting without take and bot-fallback=20: %s", g ? g->line : "");
	tc_close(g);
	struct tc *a = tc_guest(port, "tk_a"), *b = tc_guest(port, "tk_b");
	struct tc *c = tc_guest(port, "tk_c"), *d = tc_guest(port, "tk_d");
	tc_send(a, "SEEK freestyle 15 none black casual none");
	const char *l = tc_expect(a, "OK SEEK ", 3000);
	CHECK(l, "SEEK: %s", a->line);
	unsigned id = l ? (unsigned)strtoul(l + 8, NULL, 10) : 0;
	tc_send(a, "TAKE %u tk_a", id);
	CHECK_LINE(a, "ERR 402 bad-argument that seek is your own");
	tc_send(b, "TAKE 999999 tk_a");
	CHECK_LINE(b, "ERR 424 no-such-seek");
	tc_send(c, "SEEK renju 15 none any casual none");
	CHECK_LINE(c, "OK SEEK ");
	tc_send(c, "TAKE %u tk_a", id);
	CHECK_LINE(c, "ERR 445 busy");
	tc_send(c, "SEEKS 1"); /* the seek taken next is listed to c */
	char want[64];
	snprintf(want, sizeof want, "= SEEK %u tk_a freestyle 15 none black", id);
	CHECK_LINE(c, want);
	tc_send(b, "TAKE %u tk_c", id); /* a seek of that id, not tk_c's */
	CHECK_LINE(b, "ERR 424 no-such-seek");
	tc_send(b, "#k TAKE %u TK_A", id);
	l = tc_expect(b, "* START ", 3000);
	CHECK(l && strstr(l, " tk_a tk_b freestyle 15 none none casual "), "START: %s", b->line);
	snprintf(want, sizeof want, "OK #k TAKE %u", id);
	CHECK_LINE(b, want);
	CHECK(tc_expect(a, "* START ", 3000) && strstr(a->line, " tk_a tk_b "), "a: %s", a->line);
	tc_send(d, "TAKE %u tk_a", id);
	CHECK_LINE(d, "ERR 424 no-such-seek");
	tc_send(b, "TAKE %u tk_a", id);
	CHECK_LINE(b, "ERR 445 busy");

	/* c's connection drops: its seek waits for c (test_away), unlisted meanwhile */
	char token[80];
	snprintf(token, sizeof token, "%s", c->token);
	tc_close(c);
	int gone = 0;
	for (int i = 0; i < 30 && !gone; i++) {
		tc_send(d, "SEEKS 1");
		gone = 1;
		while ((l = tc_read(d, 3000)) && strncmp(l, "OK SEEKS", 8) != 0)
			if (strstr(l, " tk_c "))
				gone = 0;
		if (!gone)
			usleep(100 * 1000);
	}
	CHECK(gone, "tk_c's seek is listed while tk_c is away");
	c = tc_open(port, 1);
	tc_send(c, "RESUME %s r999 0", token);
	CHECK_LINE(c, "ERR 448 resume-failed");
	tc_close(a);
	tc_close(b);
	tc_close(c);
	tc_close(d);
	ok("TAKE a listed seek: a START for both, OK TAKE after it; refused for your own (402), "
	   "one gone or not that player's (424), while seeking or playing (445); a seek of a "
	   "player away is not listed");
}

/* Out of descriptors: accept pauses (no spinning), then recovers. */
static void
test_emfile(void)
{
	struct daemon d3;
	if (daemon_start_nofile(&d3, GOMOKUD_BIN, "", 32)) {
		CHECK(0, "cannot start a daemon with 32 descriptors");
		return;
	}
	int fds[40];
	struct sockaddr_in sa = { 0 };
	sa.sin_family = AF_INET;
	sa.sin_port = htons((uint16_t)d3.port);
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	for (int i = 0; i < 40; i++) {
		fds[i] = socket(AF_INET, SOCK_STREAM, 0);
		if (connect(fds[i], (struct sockaddr *)&sa, sizeof sa) != 0) {
			close(fds[i]);
			fds[i] = -1;
		}
	}
	CHECK(daemon_wait_log(&d3, "pausing accept", 0, 3000), "accept did not pause on EMFILE");
	for (int i = 0; i < 40; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	/* it retries after 1 s; the next accept ends the episode */
	usleep(1200 * 1000);
	struct tc *c = tc_open(d3.port, 1);
	CHECK(c, "no connection after descriptors were freed");
	CHECK(daemon_wait_log(&d3, "accepting connections again", 0, 5000), "accept not resumed");
	/* once per episode (the backlog's connections, accepted once it
	 * resumes, may start one or two more), not once per retry */
	CHECK(daemon_log_count(&d3, "pausing accept") <= 4, "the pause logged %d times",
	    daemon_log_count(&d3, "pausing accept"));
	if (c) {
		tc_send(c, "PING back");
		CHECK_LINE(c, "OK PING back");
	}
	tc_close(c);
	CHECK(daemon_stop(&d3, SIGTERM, 5000) == 0, "third daemon exit");
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf %s", d3.dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", d3.dir);
	ok("EMFILE: accept pauses instead of spinning and resumes when descriptors free up");
}

int
main(void)
{
	struct daemon d;
	tc_verbose = getenv("TC_VERBOSE") != NULL;
	signal(SIGPIPE, SIG_IGN);
	if (daemon_start(&d, GOMOKUD_BIN,
		"listen [::1]:0\ngrace 1\nhandshake-timeout 1\nidle-timeout 3\nrate-burst 20\n"
		"rate-per-second 10\n"
		"chat-burst 5\nchat-window 10\ndrain-ms 1000\n")) {
		fprintf(stderr, "cannot start %s\n", GOMOKUD_BIN);
		return 1;
	}
	port = d.port;
	printf("gomokud %s on 127.0.0.1:%d, log %s\n", GOMOKUD_BIN, port, d.log);
	struct tc *idle = tc_open(port, 1);

	struct tc *v6 = d.port6 ? tc_open(-d.port6, 1) : NULL;
	CHECK(v6, "no IPv6 listener on [::1]");
	if (v6) {
		tc_send(v6, "PING six");
		CHECK_LINE(v6, "OK PING six");
		tc_close(v6);
	}
	ok("IPv4 and IPv6 listeners");
	test_handshake();
	test_games();
	test_illegal();
	test_renju_forbidden();
	test_renju_centre();
	test_openings_unplayed();
	test_swap2();
	test_flag();
	test_offers();
	test_spectators_chat();
	test_chat_kept();
	test_room_ids();
	test_resume_claim();
	test_limits();
	test_take();
	test_sighup(&d);
	test_caps();
	test_emfile();

	CHECK(idle && tc_expect(idle, "ERR 504 idle-timeout", 5000), "idle connection not closed");
	tc_close(idle);
	ok("an idle connection is closed with 504");

	/* SIGTERM: everyone is told, games in progress are kept in the database
	 * for the restart (test_persist resumes one), the daemon exits cleanly */
	struct tc *a, *b;
	char room[16];
	int paired = tc_pair_guests(
	    port, "tma", "tmb", "freestyle 15 none", &a, &b, room, sizeof room);
	CHECK(paired == 0, "%s", tc_why);
	if (paired == 0) {
		kill(d.pid, SIGTERM);
		CHECK_LINE(a, "* SHUTDOWN ");
		CHECK_LINE(b, "* SHUTDOWN ");
		CHECK(!tc_expect(b, "* OVER ", 1000), "a game was ended by the shutdown: %s",
		    b->line);
		CHECK(tc_closed(a, 3000), "not closed on shutdown");
		tc_close(a);
		tc_close(b);
	}
	int st = daemon_stop(&d, 0, 5000);
	CHECK(st == 0, "daemon exit status %d (see %s)", st, d.log);
	ok("SIGTERM: SHUTDOWN to all, games kept for the restart, clean exit");

	if (failures) {
		fprintf(stderr, "%d failures; daemon log: %s\n", failures, d.log);
		return 1;
	}
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf %s", d.dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", d.dir);
	return 0;
}
