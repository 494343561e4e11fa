/*
 * test_spec: the real bin/gomokud held to proto/PROTOCOL.md where it once
 * departed from it (issue 21): one case per departure, each on the wire
 * with real TLS clients. Every game here uses its own settings (a time
 * control of its own), so no seek of one case can pair with another's.
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

static int port;

/* Plays moves alternately, a first; each must be accepted. */
static int
play(struct tc *a, struct tc *b, const char *room, const char *const *moves, int n)
{
	char pre[64];
	snprintf(pre, sizeof pre, "OK MOVE %s ", room);
	for (int i = 0; i < n; i++) {
		struct tc *p = i % 2 ? b : a;
		tc_send(p, "MOVE %s %s", room, moves[i]);
		if (!tc_expect(p, pre, LINE_MS)) {
			CHECK(0, "move %s refused: %s", moves[i], p->line);
			return -1;
		}
	}
	return 0;
}

/* The code of c's next reply: an ERR's code (its tag skipped), 0 for an OK,
 * -1 for none. Events before it are skipped. */
static int
err_code(struct tc *c)
{
	const char *l;
	int code;
	while ((l = tc_read(c, LINE_MS)) && strncmp(l, "OK ", 3) != 0 && strncmp(l, "ERR ", 4) != 0)
		;
	if (!l)
		return -1;
	if (l[0] == 'O')
		return 0;
	l += 4;
	if (*l == '#')
		l = strchr(l, ' ') ? strchr(l, ' ') + 1 : l;
	return sscanf(l, "%d", &code) == 1 ? code : -1;
}

/* Offers a rematch from o and returns its id (0 when refused). */
static unsigned
offer_rematch(struct tc *o, const char *room)
{
	unsigned id = 0;
	char pre[64];
	snprintf(pre, sizeof pre, "OK OFFER %s ", room);
	tc_send(o, "OFFER %s rematch", room);
	const char *l = tc_expect(o, pre, LINE_MS);
	if (l)
		sscanf(l + strlen(pre), "%u", &id);
	return id;
}

/* 1. A rematch must not start while either player seeks (section 5.6: "neither
 * may be seeking"), or the leftover seek pairs into a second unfinished game
 * (section 5.1: one at a time). */
static void
test_rematch_while_seeking(void)
{
	for (int offerer_seeks = 0; offerer_seeks < 2; offerer_seeks++) {
		struct tc *a, *b;
		char room[16];
		const char *game = offerer_seeks ? "freestyle 15 901+1" : "freestyle 15 901+2";
		REQUIRE(tc_pair_guests(port, offerer_seeks ? "rsa2" : "rsa1",
			    offerer_seeks ? "rsb2" : "rsb1", game, &a, &b, room, sizeof room) == 0,
		    "pair: %s", tc_why);
		tc_send(b, "RESIGN %s", room);
		REQUIRE_LINE(a, "* OVER ");
		REQUIRE_LINE(b, "OK RESIGN ");
		unsigned id = offer_rematch(b, room);
		REQUIRE(id > 0, "rematch offer refused: %s", b->line);
		struct tc *seeker = offerer_seeks ? b : a;
		tc_send(seeker, "SEEK %s any casual none", game);
		REQUIRE_LINE(seeker, "OK SEEK ");
		tc_send(a, "ACCEPT %s %u", room, id);
		int code = err_code(a);
		CHECK(code == 445, "%s seeks: ACCEPT of the rematch answered %d (last: %s)",
		    offerer_seeks ? "the offerer" : "the accepter", code, a->line);
		/* the seek is still there and still free to pair, the room's game not started */
		struct tc *c = tc_guest(port, offerer_seeks ? "rsc2" : "rsc1");
		REQUIRE(c, "third guest");
		tc_send(c, "SEEK %s any casual none", game);
		const char *l = tc_expect(seeker, "* START ", LINE_MS);
		CHECK(l && !strstr(l, room), "the seek did not pair with a newcomer: %s",
		    l ? l : seeker->line);
		/* now the seeker plays elsewhere: the rematch is still refused */
		tc_send(a, "ACCEPT %s %u", room, id);
		code = err_code(a);
		CHECK(code == 445, "ACCEPT while the %s plays elsewhere answered %d",
		    offerer_seeks ? "offerer" : "accepter", code);
		tc_close(a);
		tc_close(b);
		tc_close(c);
	}
	/* the refusal is about seeking: without a seek the same rematch starts */
	struct tc *a, *b;
	char room[16], pre[64];
	REQUIRE(tc_pair_guests(
		    port, "rsa3", "rsb3", "freestyle 15 901+3", &a, &b, room, sizeof room) == 0,
	    "pair: %s", tc_why);
	tc_send(b, "RESIGN %s", room);
	REQUIRE_LINE(b, "OK RESIGN ");
	unsigned id = offer_rematch(b, room);
	REQUIRE(id > 0, "rematch offer refused: %s", b->line);
	tc_send(a, "SEEK freestyle 15 901+3 any casual none");
	REQUIRE_LINE(a, "OK SEEK ");
	tc_send(a, "ACCEPT %s %u", room, id);
	CHECK(err_code(a) == 445, "ACCEPT while seeking: %s", a->line);
	tc_send(a, "CANCEL");
	REQUIRE_LINE(a, "OK CANCEL");
	tc_send(a, "ACCEPT %s %u", room, id);
	snprintf(pre, sizeof pre, "* START %s ", room);
	CHECK_LINE(a, pre);
	CHECK_LINE(a, "OK ACCEPT ");
	tc_close(a);
	tc_close(b);
	ok("rematch: ACCEPT while either player seeks is 445 and the seek stays; after CANCEL it "
	   "starts");
}

/* A rematch is neither offered nor accepted while a player sits in a
 * private room of its own that waits for a friend (issue 43): that is a
 * game to come (section 6: busy), and the friend's JOIN would start a
 * second unfinished game beside the rematch (section 5.1). LEAVE the
 * waiting room and the rematch starts. */
static void
test_rematch_while_waiting(void)
{
	struct tc *a, *b;
	char room[16], mine[16], pre[64];
	REQUIRE(tc_pair_guests(
		    port, "rwa1", "rwb1", "freestyle 15 902+1", &a, &b, room, sizeof room) == 0,
	    "pair: %s", tc_why);
	tc_send(b, "RESIGN %s", room);
	REQUIRE_LINE(b, "OK RESIGN ");
	unsigned id = offer_rematch(b, room);
	REQUIRE(id > 0, "rematch offer refused: %s", b->line);
	tc_send(a, "CREATE freestyle 15 none any casual none");
	REQUIRE_LINE(a, "OK CREATE ");
	sscanf(a->line, "OK CREATE %15s", mine);
	tc_send(a, "ACCEPT %s %u", room, id);
	CHECK(err_code(a) == 445, "ACCEPT while the accepter waits in a room: %s", a->line);
	tc_send(b, "DECLINE %s %u", room, id);
	REQUIRE_LINE(b, "OK DECLINE ");
	tc_send(b, "OFFER %s rematch", room);
	CHECK(err_code(b) == 445, "OFFER while the other waits in a room: %s", b->line);
	tc_send(a, "OFFER %s rematch", room);
	CHECK(err_code(a) == 445, "OFFER while the offerer waits in a room: %s", a->line);
	tc_send(a, "LEAVE %s", mine);
	REQUIRE_LINE(a, "OK LEAVE ");
	id = offer_rematch(b, room);
	REQUIRE(id > 0, "rematch offer refused once the room is left: %s", b->line);
	tc_send(a, "ACCEPT %s %u", room, id);
	snprintf(pre, sizeof pre, "* START %s ", room);
	CHECK_LINE(a, pre);
	CHECK_LINE(a, "OK ACCEPT ");
	tc_close(a);
	tc_close(b);
	ok("rematch: OFFER and ACCEPT while a player waits in a private room of its own are 445; "
	   "after LEAVE it starts");
}

/* Whether the greeting's capability list holds the word. */
static int
has_cap(const char *greeting, const char *cap)
{
	size_t n = strlen(cap);
	for (const char *p = greeting; (p = strstr(p, cap)) != NULL; p += n)
		if (p[-1] == ' ' && (p[n] == ' ' || p[n] == '\0'))
			return 1;
	return 0;
}

/* 2. The greeting names only what the server serves: no accounts or history
 * without a database (section 3). */
static void
test_caps(void)
{
	struct tc *c = tc_open(port, 0);
	REQUIRE(c, "connect");
	CHECK(strncmp(c->line, "* SERVER ", 9) == 0, "greeting: %s", c->line);
	CHECK(has_cap(c->line, "accounts") && has_cap(c->line, "history") &&
		has_cap(c->line, "bots") && has_cap(c->line, "swap2"),
	    "with a database: %s", c->line);
	tc_close(c);

	struct daemon d2;
	REQUIRE(daemon_start(&d2, GOMOKUD_BIN, "database none\nbot-threads 1\n") == 0,
	    "cannot start a daemon without a database");
	c = tc_open(d2.port, 0);
	CHECK(c, "connect to the second daemon");
	if (c) {
		CHECK(strncmp(c->line, "* SERVER gomokud ", 17) == 0, "greeting: %s", c->line);
		CHECK(!has_cap(c->line, "accounts") && !has_cap(c->line, "history"),
		    "database none, still advertised: %s", c->line);
		CHECK(has_cap(c->line, "swap2") && has_cap(c->line, "chat") &&
			has_cap(c->line, "resume") && has_cap(c->line, "bots"),
		    "database none, a capability lost: %s", c->line);
		tc_send(c, "HELLO 1");
		CHECK_LINE(c, "OK HELLO 1");
		tc_send(c, "HISTORY someone");
		CHECK_LINE(c, "ERR 501 not-available");
		tc_close(c);
	}
	CHECK(daemon_stop(&d2, SIGTERM, 5000) == 0, "second daemon exit");
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf %s", d2.dir);
	if (!failures && system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", d2.dir);
	ok("greeting: accounts and history only with a database");
}

/* Reads c's = USER lines of one WHO reply into buf (joined by LF). */
static int
who_lines(struct tc *c, char *buf, size_t len)
{
	size_t n = 0;
	buf[0] = '\0';
	for (;;) {
		const char *l = tc_read(c, LINE_MS);
		if (!l)
			return -1;
		if (strncmp(l, "OK WHO ", 7) == 0)
			return 0;
		if (strncmp(l, "= USER ", 7) == 0 && n + strlen(l) + 2 < len)
			n += (size_t)snprintf(buf + n, len - n, "%s\n", l);
	}
}

/* 3. Global WHO shows a spectator as watching and lists bots like players
 * (sections 4 and 5.10), as WHO <room> does. */
static void
test_who(void)
{
	struct tc *a, *b;
	char room[16], broom[16], want[80], all[16384];
	REQUIRE(tc_pair_guests(
		    port, "wha", "whb", "freestyle 15 902+0", &a, &b, room, sizeof room) == 0,
	    "pair: %s", tc_why);
	struct tc *w = tc_guest(port, "whw");
	REQUIRE(w, "spectator");
	tc_send(w, "WATCH %s", room);
	REQUIRE_LINE(w, "OK WATCH ");
	struct tc *h = tc_guest(port, "whh");
	REQUIRE(h, "bot player");
	tc_send(h, "BOT play 1 freestyle 15 902+0 black none");
	const char *l = tc_expect(h, "OK BOT ", LINE_MS);
	REQUIRE(l && sscanf(l, "OK BOT %15s", broom) == 1, "BOT play: %s", h->line);

	tc_send(w, "WHO %s", room);
	REQUIRE(who_lines(w, all, sizeof all) == 0, "WHO %s: no end", room);
	snprintf(want, sizeof want, "= USER whw watching %s\n", room);
	CHECK(strstr(all, want), "WHO %s lacks \"%s\":\n%s", room, want, all);
	tc_send(w, "WHO %s", broom);
	REQUIRE(who_lines(w, all, sizeof all) == 0, "WHO %s: no end", broom);
	snprintf(want, sizeof want, "= USER bot1 playing %s\n", broom);
	CHECK(strstr(all, want), "WHO %s lacks \"%s\":\n%s", broom, want, all);

	tc_send(w, "WHO");
	REQUIRE(who_lines(w, all, sizeof all) == 0, "WHO: no end");
	snprintf(want, sizeof want, "= USER whw watching %s\n", room);
	CHECK(strstr(all, want), "global WHO lacks \"%s\":\n%s", want, all);
	snprintf(want, sizeof want, "= USER bot1 playing %s\n", broom);
	CHECK(strstr(all, want), "global WHO lacks \"%s\":\n%s", want, all);
	snprintf(want, sizeof want, "= USER whh playing %s\n", broom);
	CHECK(strstr(all, want), "global WHO lacks \"%s\":\n%s", want, all);
	snprintf(want, sizeof want, "= USER wha playing %s\n", room);
	CHECK(strstr(all, want), "global WHO lacks \"%s\":\n%s", want, all);
	tc_close(h);
	tc_close(w);
	tc_close(a);
	tc_close(b);
	ok("WHO: a spectator is watching and a bot is listed, in global WHO as in WHO <room>");
}

/* 4. Arguments are case-sensitive (section 1): a move is "h8", never "H8". */
static void
test_move_case(void)
{
	struct tc *a, *b;
	char room[16];
	REQUIRE(tc_pair_guests(
		    port, "mca", "mcb", "freestyle 15 903+0", &a, &b, room, sizeof room) == 0,
	    "pair: %s", tc_why);
	tc_send(a, "MOVE %s H8", room);
	int code = err_code(a);
	CHECK(code == 402, "MOVE %s H8 answered %d (last: %s)", room, code, a->line);
	tc_send(a, "SAY %s after H8", room); /* marks the end of what H8 may have caused */
	CHECK_LINE(a, "OK SAY ");
	tc_send(b, "STATE %s", room);
	char moves[64];
	snprintf(moves, sizeof moves, "= MOVES %s 0 -", room);
	CHECK_LINE(b, moves);
	static const char *const game[] = { "h8", "h9" };
	CHECK(play(a, b, room, game, 2) == 0, "lowercase moves refused");
	tc_send(b, "SWAP2 %s put I9,J9", room); /* a list of moves too (and no swap2 here) */
	code = err_code(b);
	CHECK(code == 402, "SWAP2 put I9,J9 answered %d", code);
	tc_close(a);
	tc_close(b);
	ok("moves: MOVE H8 is 402 bad-argument; h8 is the only form");
}

/* 5. A private room exists only for its members: to anyone else every
 * request naming it is answered as for a room that does not exist. */
static void
test_private_hidden(void)
{
	static const char *const forms[] = { "SAY %s hello", "STATE %s", "WATCH %s", "LEAVE %s",
		"MOVE %s h8", "SWAP2 %s black", "RESIGN %s", "OFFER %s draw", "ACCEPT %s 1",
		"DECLINE %s 1", "ABORT %s", "CLAIM %s", "BOT seat %s 1", "WHO %s" };
	struct tc *a = tc_guest(port, "pra");
	struct tc *s = tc_guest(port, "prs");
	REQUIRE(a && s, "connect");
	char room[16], code[40], line[80];
	tc_send(a, "CREATE freestyle 15 904+0 black casual none");
	const char *l = tc_expect(a, "OK CREATE ", LINE_MS);
	REQUIRE(l && sscanf(l, "OK CREATE %15s %39s", room, code) == 2, "CREATE: %s", a->line);
	/* a room this server would own and has not made: its letters (r, or a
	 * cluster node's name) and a number far ahead */
	char none_room[24];
	snprintf(none_room, sizeof none_room, "%.*s999999",
	    (int)strspn(room, "abcdefghijklmnopqrstuvwxyz"), room);
	for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
		snprintf(line, sizeof line, forms[i], room);
		tc_send(s, "%s", line);
		int got = err_code(s);
		snprintf(line, sizeof line, forms[i], none_room);
		tc_send(s, "%s", line);
		int none = err_code(s);
		CHECK(got == 420 && none == 420, "a stranger's \"%s\": %d, for no room %d",
		    forms[i], got, none);
	}
	struct tc *n = tc_open(port, 1); /* RESUME: a connection without a name */
	REQUIRE(n, "connect");
	tc_send(n, "RESUME 0123456789abcdef0123456789abcdef %s 0", room);
	int got = err_code(n);
	tc_send(n, "RESUME 0123456789abcdef0123456789abcdef %s 0", none_room);
	int none = err_code(n);
	CHECK(got == 448 && none == 448, "RESUME of a stranger: %d, for no room %d", got, none);
	tc_close(n);

	/* members address it, seated or watching: a player's WATCH is its snapshot */
	struct tc *b = tc_guest(port, "prb");
	REQUIRE(b, "friend");
	tc_send(b, "JOIN %s", code);
	REQUIRE_LINE(b, "OK JOIN ");
	struct tc *w = tc_guest(port, "prw");
	REQUIRE(w, "spectator");
	tc_send(w, "JOIN %s", code);
	REQUIRE_LINE(w, "OK JOIN ");
	char pre[64];
	snprintf(pre, sizeof pre, "OK WATCH %s ", room);
	tc_send(a, "WATCH %s", room);
	CHECK_LINE(a, pre);
	tc_send(w, "WATCH %s", room);
	CHECK_LINE(w, pre);
	snprintf(pre, sizeof pre, "OK STATE %s ", room);
	tc_send(w, "STATE %s", room);
	CHECK_LINE(w, pre);
	tc_send(w, "MOVE %s h8", room);
	CHECK(err_code(w) == 430, "a spectator's MOVE: %s", w->line);
	tc_send(s, "WATCH %s", room); /* still hidden from the stranger */
	CHECK(err_code(s) == 420, "a stranger's WATCH once the game runs: %s", s->line);
	tc_close(w);
	tc_close(b);
	tc_close(s);
	tc_close(a);
	ok("private rooms: 420 to strangers for every request that names one; members address it");
}

/* 6. Errors of the line, and of the handshake: extra fields are 400 whatever
 * their values; an unknown command is 401 before HELLO too; HELLO once. */
static void
test_line_errors(void)
{
	struct tc *c = tc_open(port, 0);
	REQUIRE(c, "connect");
	tc_send(c, "frobnicate");
	CHECK_LINE(c, "ERR 401 unknown-command");
	tc_send(c, "#t HISTORY a b c");
	CHECK_LINE(c, "ERR #t 400 syntax");
	tc_send(c, "GUEST early");
	CHECK_LINE(c, "ERR 405 hello-first");
	tc_send(c, "HELLO 1");
	CHECK_LINE(c, "OK HELLO 1");
	tc_send(c, "HISTORY a b c");
	CHECK_LINE(c, "ERR 400 syntax");
	tc_send(c, "HISTORY a 1 c");
	CHECK_LINE(c, "ERR 400 syntax");
	tc_send(c, "HISTORY a b");
	CHECK_LINE(c, "ERR 402 bad-argument");
	tc_send(c, "MOVE R1 H8 extra");
	CHECK_LINE(c, "ERR 400 syntax");
	tc_send(c, "MOVE R1");
	CHECK_LINE(c, "ERR 400 syntax");
	tc_send(c, "MOVE R1 h8");
	CHECK_LINE(c, "ERR 402 bad-argument");
	tc_send(c, "GUEST hel_user");
	CHECK_LINE(c, "OK GUEST hel_user ");
	tc_send(c, "#h HELLO 1");
	CHECK_LINE(c, "ERR #h 411 logged-in");
	tc_send(c, "HELLO 2"); /* would have closed the connection: 406 */
	CHECK_LINE(c, "ERR 411 logged-in");
	tc_send(c, "PING still");
	CHECK_LINE(c, "OK PING still");
	tc_close(c);
	ok("line errors: extra fields 400 before bad values 402, 401 before HELLO, one HELLO");
}

/* 7. ABORT is too late once both sides have moved, and an undo does not
 * make it early again (section 5.6). */
static void
test_abort_after_undo(void)
{
	struct tc *a, *b;
	char room[16], pre[64];
	REQUIRE(tc_pair_guests(
		    port, "aua", "aub", "freestyle 15 905+0", &a, &b, room, sizeof room) == 0,
	    "pair: %s", tc_why);
	static const char *const game[] = { "h8", "i9" };
	REQUIRE(play(a, b, room, game, 2) == 0, "moves");
	tc_send(a, "ABORT %s", room);
	CHECK(err_code(a) == 443, "ABORT after both moved: %s", a->line);
	/* white takes back its only move: white is to move again, one stone on the board */
	tc_send(b, "OFFER %s undo", room);
	unsigned id = 0;
	snprintf(pre, sizeof pre, "OK OFFER %s ", room);
	const char *l = tc_expect(b, pre, LINE_MS);
	REQUIRE(l && sscanf(l + strlen(pre), "%u", &id) == 1, "undo offer: %s", b->line);
	tc_send(a, "ACCEPT %s %u", room, id);
	snprintf(pre, sizeof pre, "* UNDO %s ", room);
	REQUIRE_LINE(a, pre);
	REQUIRE(strstr(a->line, " 1 "), "undo of one ply: %s", a->line);
	REQUIRE_LINE(a, "OK ACCEPT ");
	tc_send(a, "ABORT %s", room);
	int code = err_code(a);
	CHECK(code == 443, "ABORT by black after the undo answered %d (last: %s)", code, a->line);
	tc_send(b, "ABORT %s", room);
	code = err_code(b);
	CHECK(code == 443, "ABORT by white after the undo answered %d (last: %s)", code, b->line);
	tc_send(b, "MOVE %s j10", room); /* the game goes on */
	snprintf(pre, sizeof pre, "OK MOVE %s ", room);
	CHECK_LINE(b, pre);

	/* an abort before both have moved is still allowed, also after an undo */
	tc_send(b, "RESIGN %s", room);
	REQUIRE_LINE(b, "OK RESIGN ");
	id = offer_rematch(b, room);
	REQUIRE(id > 0, "rematch offer: %s", b->line);
	tc_send(a, "ACCEPT %s %u", room, id); /* colours swap: b is black now */
	REQUIRE_LINE(a, "OK ACCEPT ");
	tc_send(b, "MOVE %s h8", room);
	snprintf(pre, sizeof pre, "OK MOVE %s ", room);
	REQUIRE_LINE(b, pre);
	tc_send(a, "ABORT %s", room);
	snprintf(pre, sizeof pre, "OK ABORT %s", room);
	CHECK_LINE(a, pre);
	tc_close(a);
	tc_close(b);
	ok("ABORT: 443 once both sides moved, also after an undo took white's only move back");
}

/* The last = RECORD line of EXPORT <id> psq, checked to start with the header
 * and to hold nmoves move lines before it. */
static int
psq_end(struct tc *c, const char *id, int nmoves, char *last, size_t len)
{
	int lines = 0;
	last[0] = '\0';
	tc_send(c, "EXPORT %s psq", id);
	for (;;) {
		const char *l = tc_read(c, LINE_MS);
		if (!l)
			return -1;
		if (strncmp(l, "OK EXPORT ", 10) == 0)
			break;
		if (strncmp(l, "= RECORD ", 9) != 0)
			continue;
		if (lines == 0 && strcmp(l, "= RECORD Piskvorky 15x15, 0:0, 0") != 0)
			return -1;
		lines++;
		snprintf(last, len, "%s", l + 9);
	}
	return lines == 1 + nmoves + 1 ? 0 : -1;
}

/* The id of the newest game in name's history. */
static int
newest_game(struct tc *c, const char *name, char *id, size_t len)
{
	tc_send(c, "HISTORY %s", name);
	const char *l = tc_expect(c, "= GAME ", LINE_MS);
	char fmt[16];
	snprintf(fmt, sizeof fmt, "= GAME %%%zus", len - 1);
	if (!l || sscanf(l, fmt, id) != 1)
		return -1;
	return tc_expect(c, "OK HISTORY ", LINE_MS) ? 0 : -1;
}

/* 8. The .psq export ends as Piskvork's own writer ends it: a last line
 * with the end code (0 a finished game, 15 a flag, -1 anything else). */
static void
test_psq(void)
{
	struct tc *a, *b;
	char room[16], id[24], last[64];
	REQUIRE(tc_pair_guests(
		    port, "psa", "psb", "freestyle 15 906+0", &a, &b, room, sizeof room) == 0,
	    "pair: %s", tc_why);
	static const char *const five[] = { "h8", "h9", "i8", "i9", "j8", "j9", "k8", "k9", "l8" };
	REQUIRE(play(a, b, room, five, 9) == 0, "moves");
	REQUIRE_LINE(b, "* OVER ");
	REQUIRE(newest_game(b, "psa", id, sizeof id) == 0, "history: %s", b->line);
	CHECK(psq_end(b, id, 9, last, sizeof last) == 0, "psq of a five: last %s (%s)", last,
	    b->line);
	CHECK(strcmp(last, "0") == 0, "psq of a five ends with \"%s\"", last);
	tc_close(a);
	tc_close(b);

	/* a flag: 1 s of time and no move */
	REQUIRE(
	    tc_pair_guests(port, "psc", "psd", "freestyle 15 1+0", &a, &b, room, sizeof room) == 0,
	    "pair: %s", tc_why);
	static const char *const one[] = { "h8" };
	REQUIRE(play(a, b, room, one, 1) == 0, "move");
	CHECK(tc_expect(b, "* OVER ", 4000) && strstr(b->line, " black time "), "no flag: %s",
	    b->line);
	REQUIRE(newest_game(b, "psc", id, sizeof id) == 0, "history: %s", b->line);
	CHECK(psq_end(b, id, 1, last, sizeof last) == 0 && strcmp(last, "15") == 0,
	    "psq of a flag ends with \"%s\"", last);
	tc_close(a);
	tc_close(b);

	/* a resignation: Piskvork has no code for it */
	REQUIRE(tc_pair_guests(
		    port, "pse", "psf", "freestyle 15 906+1", &a, &b, room, sizeof room) == 0,
	    "pair: %s", tc_why);
	tc_send(b, "RESIGN %s", room);
	REQUIRE_LINE(b, "OK RESIGN ");
	REQUIRE(newest_game(b, "pse", id, sizeof id) == 0, "history: %s", b->line);
	CHECK(psq_end(b, id, 0, last, sizeof last) == 0 && strcmp(last, "-1") == 0,
	    "psq of a resignation ends with \"%s\"", last);
	tc_close(a);
	tc_close(b);
	ok("psq: the export ends with Piskvork's end code (0 five, 15 flag, -1 otherwise)");
}

int
main(void)
{
	struct daemon d;
	tc_verbose = getenv("TC_VERBOSE") != NULL;
	signal(SIGPIPE, SIG_IGN);
	if (daemon_start(&d, GOMOKUD_BIN, "grace 1\nbot-threads 1\nrate-burst 200\n")) {
		fprintf(stderr, "cannot start %s\n", GOMOKUD_BIN);
		return 1;
	}
	port = d.port;
	printf("gomokud %s on 127.0.0.1:%d, log %s\n", GOMOKUD_BIN, port, d.log);
	test_rematch_while_seeking();
	test_rematch_while_waiting();
	test_caps();
	test_who();
	test_move_case();
	test_private_hidden();
	test_line_errors();
	test_abort_after_undo();
	test_psq();
	int st = daemon_stop(&d, SIGTERM, 5000);
	CHECK(st == 0, "daemon exit status %d (see %s)", st, d.log);
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
