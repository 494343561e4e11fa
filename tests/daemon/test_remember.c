/*
 * test_remember.c: login tokens and sign-ins from a guest on the real
 * gomokud (issue 43): REMEMBER and AUTH on a new connection and after a
 * restart on the same store, a token's expiry (remember-days), LOGOUT
 * revoking it, the 11th token dropping the oldest, a ban revoking an
 * account's tokens, a guest's REMEMBER (417); a guest's LOGIN that fails
 * (nothing changes: its name, its seek) and one that succeeds (the guest
 * replaced: its seek gone, its token forgotten), a seated or waiting
 * guest's (445), an account's (411); AUTH on a second device during a
 * game (* SEATED, the old one told * BYE takeover); failed AUTHs limited
 * per address like failed LOGINs (407).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define LINE_MS 10000 /* scrypt under the sanitizers is slow */
#include "tests/daemon/check.h"
#include "tests/daemon/tclient.h"

#ifndef GOMOKUD_BIN
#define GOMOKUD_BIN "bin/gomokud"
#endif

static struct daemon d, dshort;
static char state[160], conf[400];

/* c's REMEMBER: the login token into tok (80 bytes); its expiry, or -1. */
static long long
remember(struct tc *c, char *tok)
{
	long long expires = -1;
	tc_send(c, "#m REMEMBER");
	if (!tc_expect(c, "OK #m REMEMBER ", LINE_MS) ||
	    sscanf(c->line, "OK #m REMEMBER %79s %lld", tok, &expires) != 2)
		return -1;
	return expires;
}

/* A new connection's AUTH tok: the first reply line's start (ERR or OK). */
static int
auth_says(int port, const char *tok, const char *want)
{
	struct tc *c = tc_open(port, 1);
	if (!c)
		return 0;
	tc_send(c, "AUTH %s", tok);
	int ok = tc_expect(c, want, LINE_MS) != NULL;
	tc_close(c);
	return ok;
}

/* Whether SEEKS on c lists an open seek of user. */
static int
seeks_list(struct tc *c, const char *user)
{
	char want[64];
	int seen = 0;
	snprintf(want, sizeof want, " %s ", user);
	tc_send(c, "#s SEEKS");
	for (const char *l; (l = tc_read(c, LINE_MS)) != NULL;) {
		if (strncmp(l, "= SEEK ", 7) == 0 && strstr(l, want))
			seen = 1;
		if (strncmp(l, "OK #s SEEKS", 11) == 0)
			return seen;
	}
	return -1;
}

/* Whether WHO on c lists user. */
static int
who_lists(struct tc *c, const char *user)
{
	char want[64];
	int seen = 0;
	snprintf(want, sizeof want, "= USER %s ", user);
	tc_send(c, "#w WHO");
	for (const char *l; (l = tc_read(c, LINE_MS)) != NULL;) {
		if (strncmp(l, want, strlen(want)) == 0)
			seen = 1;
		if (strncmp(l, "OK #w WHO", 9) == 0)
			return seen;
	}
	return -1;
}

static char alice_tok[80];

static void
test_remember_auth(void)
{
	struct tc *a = tc_open(d.port, 1);
	REQUIRE(a, "connect");
	tc_send(a, "REGISTER alice alices-pass");
	REQUIRE_LINE(a, "OK REGISTER alice ");
	long long now = (long long)time(NULL);
	long long exp = remember(a, alice_tok);
	REQUIRE(exp > 0 && strlen(alice_tok) == 32, "REMEMBER: %s", a->line);
	CHECK(exp >= now + 30LL * 86400 - 5 && exp <= now + 30LL * 86400 + 5,
	    "expires %lld, want 30 days from %lld", exp, now);

	/* a new connection signs in with it: the live session taken over */
	struct tc *b = tc_open(d.port, 1);
	REQUIRE(b, "connect");
	tc_send(b, "#t AUTH %s", alice_tok);
	REQUIRE_LINE(b, "OK #t AUTH alice ");
	char session[80];
	REQUIRE(sscanf(b->line, "OK #t AUTH alice %79s", session) == 1 && strlen(session) == 32,
	    "%s", b->line);
	CHECK(strcmp(session, alice_tok) != 0, "the session token is the login token");
	CHECK_LINE(a, "* BYE takeover");
	tc_close(a);
	tc_send(b, "#w WHO");
	CHECK_LINE(b, "= USER alice ");
	/* an account's LOGIN, REGISTER and AUTH are still 411 */
	tc_send(b, "LOGIN alice alices-pass");
	CHECK_LINE(b, "ERR 411 logged-in");
	tc_send(b, "REGISTER alice2 alices-pass");
	CHECK_LINE(b, "ERR 411 logged-in");
	tc_send(b, "AUTH %s", alice_tok);
	CHECK_LINE(b, "ERR 411 logged-in");
	tc_close(b);
	CHECK(daemon_log_count(&d, alice_tok) == 0 && daemon_log_count(&d, session) == 0,
	    "a token in the log (%s)", d.log);
	ok("REMEMBER: a 32-character token for 30 days; AUTH on a new connection takes the"
	   " account's session over; an account's LOGIN/REGISTER/AUTH are 411; no token logged");

	/* unknown tokens, and a malformed one */
	CHECK(auth_says(d.port, "0123456789abcdef0123456789abcdef", "ERR 413 bad-credentials"),
	    "an unknown token");
	CHECK(auth_says(d.port, "short", "ERR 402"), "a malformed token");
	/* a guest has no login token to keep */
	struct tc *g = tc_guest(d.port, "gina");
	REQUIRE(g, "guest");
	tc_send(g, "REMEMBER");
	CHECK_LINE(g, "ERR 417 account-only");
	tc_close(g);
	struct tc *n = tc_open(d.port, 1);
	tc_send(n, "REMEMBER");
	CHECK_LINE(n, "ERR 410");
	tc_close(n);
	ok("an unknown token is 413, a guest's REMEMBER 417, a nameless one 410");
}

static void
test_logout_and_limit(void)
{
	/* LOGOUT after AUTH revokes the token it came with */
	struct tc *b = tc_open(d.port, 1), *c;
	REQUIRE(b, "connect");
	tc_send(b, "REGISTER bob bobs-pass");
	REQUIRE_LINE(b, "OK REGISTER bob ");
	char t1[80], t2[80];
	REQUIRE(remember(b, t1) > 0, "REMEMBER: %s", b->line);
	REQUIRE(remember(b, t2) > 0, "REMEMBER: %s", b->line);
	tc_close(b);
	c = tc_open(d.port, 1);
	REQUIRE(c, "connect");
	tc_send(c, "AUTH %s", t1);
	REQUIRE_LINE(c, "OK AUTH bob ");
	tc_send(c, "#l LOGOUT");
	REQUIRE_LINE(c, "OK #l LOGOUT");
	tc_send(c, "AUTH %s", t1);
	CHECK_LINE(c, "ERR 413");
	/* the other token lives: signs in on the same connection */
	tc_send(c, "AUTH %s", t2);
	CHECK_LINE(c, "OK AUTH bob ");
	/* a token given by REMEMBER is revoked by that connection's LOGOUT */
	char t3[80];
	REQUIRE(remember(c, t3) > 0, "REMEMBER: %s", c->line);
	tc_send(c, "LOGOUT");
	REQUIRE_LINE(c, "OK LOGOUT");
	tc_close(c);
	CHECK(auth_says(d.port, t2, "ERR 413"), "LOGOUT after AUTH t2 left t2");
	CHECK(auth_says(d.port, t3, "ERR 413"), "LOGOUT left the token REMEMBER gave");
	ok("LOGOUT revokes the login token the connection signed in with and the ones it was"
	   " given; other tokens live");

	/* the 11th token of an account drops the oldest */
	c = tc_open(d.port, 1);
	REQUIRE(c, "connect");
	tc_send(c, "REGISTER carol carols-pass");
	REQUIRE_LINE(c, "OK REGISTER carol ");
	char toks[11][80];
	for (int i = 0; i < 11; i++)
		REQUIRE(remember(c, toks[i]) > 0, "REMEMBER %d: %s", i, c->line);
	tc_close(c);
	CHECK(auth_says(d.port, toks[0], "ERR 413"), "the oldest of 11 tokens still works");
	CHECK(auth_says(d.port, toks[1], "OK AUTH carol "), "the second of 11 is gone");
	CHECK(auth_says(d.port, toks[10], "OK AUTH carol "), "the newest of 11 is gone");
	ok("an account keeps 10 login tokens: the 11th drops the oldest");
}

static void
test_guest_login(void)
{
	/* a guest with a seek: a wrong password changes nothing, in order */
	struct tc *g = tc_guest(d.port, "gus"), *o = tc_guest(d.port, "olga");
	REQUIRE(g && o, "guests");
	tc_send(g, "SEEK renju 15 300+5 any casual none");
	REQUIRE_LINE(g, "OK SEEK");
	tc_send(g, "#a LOGIN alice wrong-pass\n#b WHO");
	REQUIRE_LINE(g, "ERR #a 413");
	const char *l = tc_read(g, LINE_MS);
	CHECK(l && strncmp(l, "= USER ", 7) == 0, "after the 413: %s", l ? l : "nothing");
	REQUIRE_LINE(g, "OK #b WHO");
	CHECK(seeks_list(o, "gus") == 1, "the guest's seek went with a failed LOGIN");
	CHECK(who_lists(o, "gus") == 1, "the guest went with a failed LOGIN");
	tc_send(g, "#p PING x");
	CHECK_LINE(g, "OK #p PING x");
	tc_send(g, "AUTH 0123456789abcdef0123456789abcdef");
	CHECK_LINE(g, "ERR 413");
	CHECK(seeks_list(o, "gus") == 1, "the guest's seek went with a failed AUTH");
	ok("a guest's wrong LOGIN or AUTH (413): the same guest, its seek open, replies in order");

	/* the right password: the guest is replaced by the account, and the
	 * WHO that waited behind the LOGIN sees the account, not the guest */
	char room[24] = "r1";
	tc_send(g, "#r LOGIN alice alices-pass\n#v WHO");
	l = tc_read(g, LINE_MS);
	REQUIRE(l && strncmp(l, "OK #r LOGIN alice ", 18) == 0, "first reply: %s", l ? l : "none");
	int me = 0, guest = 0;
	while ((l = tc_read(g, LINE_MS)) != NULL && strncmp(l, "= USER ", 7) == 0) {
		me += strncmp(l, "= USER alice ", 13) == 0;
		guest += strncmp(l, "= USER gus ", 11) == 0;
	}
	CHECK(l && strncmp(l, "OK #v WHO", 9) == 0, "after the WHO's lines: %s", l ? l : "nothing");
	CHECK(me == 1 && guest == 0, "the WHO after the LOGIN: alice %d, gus %d", me, guest);
	CHECK(seeks_list(o, "gus") == 0, "the guest's seek outlived its LOGIN");
	CHECK(who_lists(o, "gus") == 0, "the guest is still listed after its LOGIN");
	CHECK(who_lists(o, "alice") == 1, "the account is not listed after the guest's LOGIN");
	/* the name gus is free again, and its token resumes nothing */
	struct tc *again = tc_open(d.port, 1);
	REQUIRE(again, "connect");
	tc_send(again, "RESUME %s %s 0", g->token, room);
	CHECK_LINE(again, "ERR 448");
	tc_send(again, "GUEST gus");
	CHECK_LINE(again, "OK GUEST gus ");
	tc_close(again);
	tc_send(g, "LOGOUT");
	CHECK_LINE(g, "OK LOGOUT");
	tc_close(g);
	ok("a guest's right LOGIN: its seek ends, WHO shows the account, the guest's name is free"
	   " and its token forgotten");

	/* a guest may REGISTER its own name */
	g = tc_guest(d.port, "zed");
	REQUIRE(g, "guest");
	tc_send(g, "REGISTER zed zeds-pass");
	CHECK_LINE(g, "OK REGISTER zed ");
	tc_close(g);

	/* a guest waiting in its private room, or seated at a game: 445, unchanged */
	g = tc_guest(d.port, "wendy");
	REQUIRE(g, "guest");
	tc_send(g, "CREATE freestyle 15 none any casual none");
	REQUIRE_LINE(g, "OK CREATE");
	tc_send(g, "LOGIN alice alices-pass");
	CHECK_LINE(g, "ERR 445 busy");
	tc_send(g, "AUTH %s", alice_tok);
	CHECK_LINE(g, "ERR 445 busy");
	tc_close(g);
	struct tc *b = NULL, *w = NULL;
	REQUIRE(tc_pair_guests(
		    d.port, "pia", "pete", "freestyle 15 none", &b, &w, room, sizeof room) == 0,
	    "%s", tc_why);
	tc_send(b, "LOGIN alice alices-pass");
	CHECK_LINE(b, "ERR 445 busy");
	tc_send(b, "REGISTER pia-acct pias-pass");
	CHECK_LINE(b, "ERR 445 busy");
	tc_send(b, "MOVE %s h8", room);
	CHECK_LINE(b, "OK MOVE");
	tc_close(b);
	tc_close(w);
	tc_close(o);
	ok("a guest waiting in its private room or seated at a game: LOGIN, REGISTER, AUTH 445,"
	   " and it plays on");
}

static void
test_second_device(void)
{
	/* alice plays on device A; an AUTH on device B opens the game there */
	struct tc *a = tc_open(d.port, 1), *o = tc_guest(d.port, "opal");
	REQUIRE(a && o, "connect");
	tc_send(a, "LOGIN alice alices-pass");
	REQUIRE_LINE(a, "OK LOGIN alice ");
	char room[24];
	REQUIRE(tc_pair(a, o, "freestyle 15 none", "casual", room, sizeof room) == 0, "%s", tc_why);
	struct tc *b = tc_open(d.port, 1);
	REQUIRE(b, "connect");
	tc_send(b, "AUTH %s", alice_tok);
	char want[64];
	snprintf(want, sizeof want, "* SEATED %s", room);
	CHECK_LINE(b, want);
	CHECK_LINE(b, "OK AUTH alice ");
	CHECK_LINE(a, "* BYE takeover");
	tc_send(b, "#s STATE %s", room);
	CHECK_LINE(b, "OK #s STATE");
	tc_send(b, "MOVE %s h8", room);
	CHECK_LINE(b, "OK MOVE");
	tc_send(b, "RESIGN %s", room);
	CHECK_LINE(b, "OK RESIGN");
	tc_close(a);
	tc_close(b);
	tc_close(o);
	ok("AUTH on a second device during a game: * SEATED before OK AUTH, the first told"
	   " * BYE takeover, the game goes on there");
}

static void
test_ban_revokes(void)
{
	struct tc *r = tc_open(d.port, 1), *v = tc_open(d.port, 1);
	REQUIRE(r && v, "connect");
	tc_send(r, "REGISTER ruth ruths-pass");
	REQUIRE_LINE(r, "OK REGISTER ruth ");
	tc_send(v, "REGISTER vic vics-pass");
	REQUIRE_LINE(v, "OK REGISTER vic ");
	char tok[80];
	REQUIRE(remember(v, tok) > 0, "REMEMBER: %s", v->line);
	tc_send(r, "BAN vic 1h spam");
	REQUIRE_LINE(r, "OK BAN vic");
	CHECK_LINE(v, "* KICKED");
	struct tc *c = tc_open(d.port, 1);
	REQUIRE(c, "connect");
	tc_send(c, "LOGIN vic vics-pass");
	CHECK_LINE(c, "ERR 414 banned");
	tc_send(c, "AUTH %s", tok);
	CHECK_LINE(c, "ERR 413");
	tc_send(r, "UNBAN vic");
	REQUIRE_LINE(r, "OK UNBAN vic");
	tc_send(c, "AUTH %s", tok);
	CHECK_LINE(c, "ERR 413");
	tc_send(c, "LOGIN vic vics-pass");
	CHECK_LINE(c, "OK LOGIN vic ");
	tc_close(c);
	tc_close(r);
	tc_close(v);
	ok("BAN of an account revokes its login tokens: AUTH is 413 during the ban and after"
	   " UNBAN, when its password signs in again");
}

static void
test_restart(void)
{
	REQUIRE(daemon_stop(&d, SIGTERM, 5000) == 0, "daemon did not stop");
	REQUIRE(daemon_start(&d, GOMOKUD_BIN, conf) == 0, "restart failed (log %s)", d.log);
	struct tc *c = tc_open(d.port, 1);
	REQUIRE(c, "connect");
	tc_send(c, "AUTH %s", alice_tok);
	CHECK_LINE(c, "OK AUTH alice ");
	tc_close(c);
	ok("a login token works after a restart on the same store");
}

static void
test_expiry(void)
{
	/* remember-days 0.00003: 2 seconds */
	REQUIRE(daemon_start(&dshort, GOMOKUD_BIN, "remember-days 0.00003") == 0,
	    "no daemon (log %s)", dshort.log);
	struct tc *c = tc_open(dshort.port, 1);
	REQUIRE(c, "connect");
	tc_send(c, "REGISTER dora doras-pass");
	REQUIRE_LINE(c, "OK REGISTER dora ");
	char tok[80];
	long long now = (long long)time(NULL), exp = remember(c, tok);
	REQUIRE(exp > 0, "REMEMBER: %s", c->line);
	CHECK(exp >= now + 1 && exp <= now + 3, "expires %lld, now %lld", exp, now);
	tc_close(c);
	CHECK(auth_says(dshort.port, tok, "OK AUTH dora "), "a fresh token");
	sleep(3);
	CHECK(auth_says(dshort.port, tok, "ERR 413"), "an expired token still signs in");
	ok("remember-days: a token that expired is 413");
}

static void
test_rate(void)
{
	/* failed AUTHs from one address: 20, then 407, for LOGIN too */
	int n = 0;
	for (int i = 0; i < 20; i++) {
		struct tc *c = tc_open_from("127.0.0.7", d.port, NULL, 0, 1);
		REQUIRE(c, "connect from 127.0.0.7");
		tc_send(c, "AUTH %032x", i + 1);
		n += tc_expect(c, "ERR 413", LINE_MS) != NULL;
		tc_close(c);
	}
	CHECK(n == 20, "%d of 20 wrong tokens were 413", n);
	struct tc *c = tc_open_from("127.0.0.7", d.port, NULL, 0, 1);
	REQUIRE(c, "connect from 127.0.0.7");
	tc_send(c, "AUTH %s", alice_tok);
	CHECK_LINE(c, "ERR 407 rate-limited");
	tc_send(c, "LOGIN alice alices-pass");
	CHECK_LINE(c, "ERR 407 rate-limited");
	tc_close(c);
	CHECK(auth_says(d.port, alice_tok, "OK AUTH alice "), "another address is refused too");
	ok("failed AUTHs count as failed logins: after 20 from an address, AUTH and LOGIN are 407");
}

int
main(void)
{
	char tmpl[] = "/tmp/gomokud-test.XXXXXX", *dir = tc_mkdtemp(tmpl);
	if (!dir) {
		printf("FAIL: no temporary directory\n");
		return 1;
	}
	snprintf(state, sizeof state, "%s/state", dir);
	snprintf(conf, sizeof conf, "state-dir %s\nadmins ruth", state);
	if (daemon_start(&d, GOMOKUD_BIN, conf) != 0) {
		printf("FAIL: gomokud did not start\n");
		return 1;
	}
	test_remember_auth();
	if (!failures)
		test_logout_and_limit();
	if (!failures)
		test_guest_login();
	if (!failures)
		test_second_device();
	if (!failures)
		test_ban_revokes();
	if (!failures)
		test_restart();
	if (!failures)
		test_expiry();
	if (!failures)
		test_rate();
	if (daemon_stop(&d, SIGTERM, 5000) != 0 ||
	    (dshort.pid && daemon_stop(&dshort, SIGTERM, 5000) != 0)) {
		printf("FAIL: a daemon did not exit cleanly\n");
		failures++;
	}
	printf("remember: %d passed, %d failed\n", failures ? 0 : 1, failures ? 1 : 0);
	return failures ? 1 : 0;
}
