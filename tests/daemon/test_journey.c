/*
 * test_journey.c: a player's way around the game on the real gomokud
 * (issue 25): every planned close says why (* BYE) and ends the TLS
 * session with close_notify (QUIT, SIGTERM, a takeover); an account
 * logging in again takes its seat over, clock and all, also after a
 * restart; SEEKS lists the open seeks; CHALLENGE with accept, decline,
 * withdrawal and busy players; the self-signed certificate names
 * server-name and the listen address, and the log shows the fingerprint
 * in the client's pinned form.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/evp.h>
#include <openssl/x509v3.h>

#define LINE_MS 10000 /* scrypt under the sanitizers is slow */
#include "tests/daemon/check.h"
#include "tests/daemon/tclient.h"

#ifndef GOMOKUD_BIN
#define GOMOKUD_BIN "bin/gomokud"
#endif

static struct daemon d, d2;
static struct daemon *cur = &d; /* the daemon running now: d, then d2 after the restart */

/* Whether the server ended the TLS session with close_notify (a clean
 * close) rather than just closing the socket. */
static int
clean_close(struct tc *c)
{
	char b[256];
	for (int i = 0; i < 100; i++) {
		int r = SSL_read(c->ssl, b, sizeof b);
		if (r > 0)
			continue;
		return SSL_get_error(c->ssl, r) == SSL_ERROR_ZERO_RETURN;
	}
	return 0;
}

static struct tc *
named(int port, const char *who)
{
	struct tc *c = tc_guest(port, who);
	if (c)
		snprintf(c->name, sizeof c->name, "%s", who);
	return c;
}

static void
test_quit_says_bye(void)
{
	struct tc *c = named(cur->port, "quitter");
	REQUIRE(c, "connect");
	tc_send(c, "QUIT");
	CHECK_LINE(c, "* BYE quit");
	CHECK_LINE(c, "OK QUIT");
	CHECK(clean_close(c), "QUIT: the TLS session ends without close_notify");
	tc_close(c);
	ok("QUIT: * BYE quit, OK QUIT, then a TLS close_notify");
}

/* REGISTER or LOGIN name on a fresh connection; the token into tok. */
static struct tc *
account(int port, const char *verb, const char *name, char *tok, size_t len)
{
	struct tc *c = tc_open(port, 1);
	if (!c)
		return NULL;
	snprintf(c->name, sizeof c->name, "%s", name);
	tc_send(c, "%s %s pass-of-%s", verb, name, name);
	char want[64];
	snprintf(want, sizeof want, "OK %s %s ", verb, name);
	if (!tc_expect(c, want, LINE_MS)) {
		tc_close(c);
		return NULL;
	}
	if (tok)
		snprintf(tok, len, "%s", c->line + strlen(want));
	return c;
}

static void
test_takeover(void)
{
	char tok[80], tok2[80];
	struct tc *a1 = account(cur->port, "REGISTER", "alice", tok, sizeof tok);
	struct tc *b = named(cur->port, "bob");
	REQUIRE(a1 && b, "connect");
	tc_send(a1, "SEEK freestyle 15 300+5 black casual none");
	CHECK_LINE(a1, "OK SEEK");
	tc_send(b, "SEEK freestyle 15 300+5 any casual none");
	CHECK_LINE(b, "* START r1 ");
	tc_send(a1, "MOVE r1 h8");
	CHECK_LINE(a1, "OK MOVE r1");
	/* alice opens a second client and logs in: it takes the seat */
	struct tc *a2 = account(cur->port, "LOGIN", "alice", tok2, sizeof tok2);
	REQUIRE(a2, "second login refused: %s", d.log);
	CHECK(strcmp(tok, tok2) == 0, "the takeover has another token: %s vs %s", tok, tok2);
	CHECK_LINE(a1, "* BYE takeover");
	CHECK(clean_close(a1), "the old connection was not closed cleanly");
	tc_close(a1);
	tc_send(a2, "STATE r1");
	CHECK_LINE(a2, "= CLOCK r1 ");
	CHECK(strstr(a2->line, " white"), "white to move after h8: %s", a2->line);
	CHECK_LINE(a2, "= SEAT r1 black alice here");
	CHECK_LINE(a2, "= MOVES r1 0 h8");
	CHECK_LINE(a2, "OK STATE r1");
	tc_send(b, "MOVE r1 i9");
	CHECK_LINE(b, "OK MOVE r1");
	CHECK_LINE(a2, "* MOVE r1 ");
	tc_send(a2, "MOVE r1 h9");
	CHECK_LINE(a2, "OK MOVE r1");
	ok("LOGIN of an account whose session is live takes it over: same token, the seat and "
	   "clock kept, the old connection told (* BYE takeover) and closed");

	/* away from the game: the login announces the seat */
	tc_close(a2);
	CHECK_LINE(b, "* PRESENCE r1 ");
	struct tc *a3 = tc_open(cur->port, 1);
	REQUIRE(a3, "connect");
	snprintf(a3->name, sizeof a3->name, "alice3");
	tc_send(a3, "LOGIN alice pass-of-alice");
	CHECK_LINE(a3, "* SEATED r1");
	CHECK_LINE(a3, "OK LOGIN alice ");
	CHECK(tc_expect(b, "* PRESENCE r1 ", LINE_MS) && strstr(b->line, "alice back"),
	    "bob does not see alice back: %s", b->line);
	tc_send(a3, "RESIGN r1");
	CHECK_LINE(a3, "OK RESIGN r1");
	ok("LOGIN while away from a game: * SEATED names the room before OK LOGIN");
	tc_close(a3);
	tc_close(b);
}

static void
test_seeks(void)
{
	struct tc *s = named(cur->port, "seeker");
	struct tc *w = named(cur->port, "window");
	REQUIRE(s && w, "connect");
	tc_send(w, "SEEKS");
	CHECK_LINE(w, "OK SEEKS 0");
	tc_send(s, "SEEK renju 15 600+0 white casual none bot");
	CHECK_LINE(s, "OK SEEK ");
	tc_send(w, "SEEKS");
	CHECK(tc_expect(w, "= SEEK ", LINE_MS) &&
		strstr(w->line, " seeker renju 15 600+0 white casual none bot"),
	    "SEEKS: %s", w->line);
	CHECK_LINE(w, "OK SEEKS 1");
	tc_send(s, "CANCEL");
	CHECK_LINE(s, "OK CANCEL");
	tc_send(w, "SEEKS");
	CHECK_LINE(w, "OK SEEKS 0");
	ok("SEEKS lists the open seeks with their settings; a cancelled one is gone");
	tc_close(s);
	tc_close(w);
}

static void
test_challenge(void)
{
	struct tc *x = named(cur->port, "xavier");
	struct tc *y = named(cur->port, "yvonne");
	struct tc *z = named(cur->port, "zoe");
	REQUIRE(x && y && z, "connect");
	tc_send(x, "CHALLENGE nobody freestyle 15 300+5 any casual none");
	CHECK_LINE(x, "ERR 421");
	tc_send(x, "CHALLENGE xavier freestyle 15 300+5 any casual none");
	CHECK_LINE(x, "ERR 402");
	tc_send(x, "CHALLENGE yvonne freestyle 15 300+5 black casual none");
	CHECK_LINE(x, "OK CHALLENGE ");
	int id = atoi(x->line + strlen("OK CHALLENGE "));
	char want[96];
	snprintf(want, sizeof want,
	    "* CHALLENGE %d xavier yvonne freestyle 15 300+5 black casual "
	    "none",
	    id);
	CHECK_LINE(y, want);
	tc_send(x, "CHALLENGE zoe freestyle 15 300+5 black casual none");
	CHECK_LINE(x, "ERR 442");
	tc_send(x, "ANSWER %d accept", id);
	CHECK_LINE(x, "ERR 430");
	tc_send(z, "ANSWER %d accept", id);
	CHECK_LINE(z, "ERR 423");
	tc_send(y, "ANSWER %d decline", id);
	snprintf(want, sizeof want, "* CHALLENGEEND %d declined", id);
	CHECK_LINE(y, want);
	CHECK_LINE(y, "OK ANSWER");
	CHECK_LINE(x, want);
	ok("CHALLENGE: unknown user 421, oneself 402, one open at a time 442, only the one "
	   "challenged accepts (430, 423 for others), decline ends it for both");

	tc_send(x, "CHALLENGE yvonne freestyle 15 300+5 black casual none");
	CHECK_LINE(x, "OK CHALLENGE ");
	id = atoi(x->line + strlen("OK CHALLENGE "));
	CHECK_LINE(y, "* CHALLENGE ");
	tc_send(x, "ANSWER %d decline", id);
	snprintf(want, sizeof want, "* CHALLENGEEND %d withdrawn", id);
	CHECK_LINE(y, want);
	tc_send(x, "CHALLENGE yvonne freestyle 15 300+5 black casual none");
	CHECK_LINE(x, "OK CHALLENGE ");
	id = atoi(x->line + strlen("OK CHALLENGE "));
	CHECK_LINE(y, "* CHALLENGE ");
	tc_send(y, "ANSWER %d accept", id);
	CHECK_LINE(y, "* START ");
	CHECK(strstr(y->line, " xavier yvonne freestyle 15 300+5 "), "colours: %s", y->line);
	snprintf(want, sizeof want, "* CHALLENGEEND %d accepted", id);
	CHECK_LINE(y, want);
	CHECK_LINE(y, "OK ANSWER");
	CHECK_LINE(x, "* START ");
	CHECK_LINE(x, want);
	ok("CHALLENGE accepted: both seated, the challenger's colour wish kept, the game starts");

	tc_send(z, "CHALLENGE xavier freestyle 15 300+5 any casual none");
	CHECK_LINE(z, "ERR 445");
	tc_send(x, "CHALLENGE zoe freestyle 15 300+5 any casual none");
	CHECK_LINE(x, "ERR 445");
	/* a challenge waits while its challenger is away (450), and ends
	 * with the challenger's session */
	struct tc *v = named(cur->port, "victor");
	REQUIRE(v, "connect");
	char vtoken[80];
	snprintf(vtoken, sizeof vtoken, "%s", v->token);
	tc_send(v, "CHALLENGE zoe freestyle 15 none any casual none");
	CHECK_LINE(v, "OK CHALLENGE ");
	id = atoi(v->line + strlen("OK CHALLENGE "));
	CHECK_LINE(z, "* CHALLENGE ");
	tc_close(v);
	usleep(200 * 1000);
	tc_send(z, "ANSWER %d accept", id);
	CHECK_LINE(z, "ERR 450 away");
	v = tc_open(cur->port, 1);
	REQUIRE(v, "connect");
	tc_send(v, "RESUME %s - 0", vtoken);
	CHECK_LINE(v, "* CHALLENGE ");
	CHECK_LINE(v, "OK RESUME - 0");
	tc_send(v, "LOGOUT");
	snprintf(want, sizeof want, "* CHALLENGEEND %d withdrawn", id);
	CHECK_LINE(z, want);
	tc_close(v);
	ok("CHALLENGE is 445 to or from a player at a game; a challenger away is 450 and told it "
	   "again when back; a challenger's LOGOUT withdraws it");
	tc_close(x);
	tc_close(y);
	tc_close(z);
}

/* The pinned form of the peer's key, as the client computes it. */
static void
peer_pin(struct tc *c, char out[80])
{
	X509 *x = SSL_get1_peer_certificate(c->ssl);
	unsigned char *der = NULL, md[EVP_MAX_MD_SIZE];
	unsigned n = 0;
	int dlen = x ? i2d_X509_PUBKEY(X509_get_X509_PUBKEY(x), &der) : -1;
	out[0] = '\0';
	if (dlen > 0 && EVP_Digest(der, (size_t)dlen, md, &n, EVP_sha256(), NULL)) {
		strcpy(out, "sha256:");
		for (unsigned i = 0; i < n; i++)
			snprintf(out + 7 + 2 * i, 3, "%02x", md[i]);
	}
	OPENSSL_free(der);
	X509_free(x);
}

static void
test_certificate(void)
{
	struct tc *c = tc_open(d.port, 1);
	REQUIRE(c, "connect");
	X509 *x = SSL_get1_peer_certificate(c->ssl);
	REQUIRE(x, "no certificate");
	CHECK(X509_check_host(x, "games.example.org", 0, 0, NULL) == 1,
	    "server-name is not in the certificate");
	CHECK(X509_check_host(x, "localhost", 0, 0, NULL) == 1, "localhost is not in it");
	CHECK(X509_check_ip_asc(x, "127.0.0.1", 0) == 1, "the listen address is not in it");
	CHECK(X509_check_host(x, "other.example.org", 0, 0, NULL) != 1, "it names anything");
	X509_free(x);
	char pin[80], want[120];
	peer_pin(c, pin);
	snprintf(want, sizeof want, "fingerprint %s", pin);
	CHECK(pin[0] && daemon_log_count(&d, want) == 1, "the log does not show %s (%s)", want,
	    d.log);
	tc_close(c);
	ok("the self-signed certificate names server-name, localhost and the listen address; "
	   "the log shows the key's fingerprint in the client's pinned form");
}

/* A game kept through kill -9: after the restart alice's LOGIN (no RESUME,
 * no token) takes her seat back; then SIGTERM says * BYE shutdown. */
static void
test_restart(void)
{
	char tok[80];
	struct tc *a = account(d.port, "LOGIN", "alice", tok, sizeof tok);
	struct tc *b = named(d.port, "bert");
	REQUIRE(a && b, "connect");
	tc_send(a, "SEEK standard 15 300+5 white casual none");
	CHECK_LINE(a, "OK SEEK");
	tc_send(b, "SEEK standard 15 300+5 any casual none");
	CHECK_LINE(b, "* START ");
	char room[20] = "";
	sscanf(b->line, "* START %19s", room);
	tc_send(b, "MOVE %s h8", room);
	CHECK_LINE(b, "OK MOVE");
	tc_close(a);
	tc_close(b);
	daemon_stop(&d, SIGKILL, 3000);
	char conf[400];
	snprintf(conf, sizeof conf, "state-dir %s/state\nserver-name games.example.org", d.dir);
	REQUIRE(daemon_start(&d2, GOMOKUD_BIN, conf) == 0, "restart failed");
	a = tc_open(d2.port, 1);
	REQUIRE(a, "connect after the restart");
	snprintf(a->name, sizeof a->name, "alice");
	tc_send(a, "LOGIN alice pass-of-alice");
	char want[40];
	snprintf(want, sizeof want, "* SEATED %s", room);
	CHECK_LINE(a, want);
	CHECK_LINE(a, "OK LOGIN alice");
	tc_send(a, "MOVE %s h9", room);
	CHECK_LINE(a, "OK MOVE");
	ok("after kill -9 and a restart, LOGIN gives an account its kept seat (* SEATED)");
	cur = &d2;
	/* the lobby's verbs again, on a daemon that then exits, so the
	 * sanitizers see that they leave nothing behind */
	test_seeks();
	test_challenge();

	tc_send(a, "PING");
	CHECK_LINE(a, "OK PING");
	kill(d2.pid, SIGTERM);
	CHECK_LINE(a, "* SHUTDOWN ");
	CHECK_LINE(a, "* BYE shutdown");
	CHECK(clean_close(a), "SIGTERM: no close_notify");
	tc_close(a);
	int st = daemon_stop(&d2, 0, 5000);
	CHECK(st == 0, "the daemon did not exit cleanly (%d; log %s)", st, d2.log);
	ok("SIGTERM: * SHUTDOWN, * BYE shutdown, then close_notify; the daemon exits 0");
}

int
main(void)
{
	if (daemon_start(&d, GOMOKUD_BIN, "server-name games.example.org\ngrace 300") != 0) {
		printf("FAIL: gomokud did not start\n");
		return 1;
	}
	test_quit_says_bye();
	test_takeover();
	test_seeks();
	test_challenge();
	test_certificate();
	test_restart();
	return failures ? 1 : 0;
}
