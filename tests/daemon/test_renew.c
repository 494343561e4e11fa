/*
 * test_renew.c: a renewed certificate reaches new connections, the way
 * certbot renews one: new files in archive/, then the live/ symlinks swapped
 * one by one onto them.
 *
 * 1. Under the unit as shipped the daemon reads copies that systemd made at
 *    activation (LoadCredential=), so the deploy hook restarts the service.
 *    Here the test plays systemd: it copies the linked files into a
 *    credentials directory before each start, and the restart is SIGTERM
 *    and a new start on the same state directory. The renewed certificate
 *    is served; every player gets * SHUTDOWN, then RESUMEs with every move.
 * 2. With cert and key configured by path (the links themselves), SIGHUP
 *    re-reads them: a half-swapped pair (new key, old chain) is refused and
 *    the old certificate stays; once both links are swapped the new one is
 *    served to new connections, while open connections and the game go on.
 */
#include <ctype.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "daemon/tls.h"
#include "tests/daemon/check.h"
#include "tests/daemon/tclient.h"

#ifndef GOMOKUD_BIN
#define GOMOKUD_BIN "bin/gomokud"
#endif

/* What the daemon logs when a SIGHUP's reload has completed, or failed
 * (daemon/server.c). */
#define RELOADED "reloaded configuration and certificate"
#define RELOAD_FAILED "reload: TLS failed; keeping the old settings"

static struct daemon d1, d2, d3;
static char base[64];      /* the test's own files: certificates, links */
static char digest[3][65]; /* [1], [2]: the two certificates, hex SHA-256 */

static int
copy_file(const char *from, const char *to, int mode)
{
	char buf[8192];
	size_t n;
	int rc = 0;
	FILE *in = fopen(from, "rb");
	unlink(to);
	int fd = open(to, O_WRONLY | O_CREAT | O_EXCL, mode);
	FILE *out = fd >= 0 ? fdopen(fd, "wb") : NULL;
	if (!in || !out)
		rc = -1;
	while (rc == 0 && (n = fread(buf, 1, sizeof buf, in)) > 0)
		if (fwrite(buf, 1, n, out) != n)
			rc = -1;
	if (in)
		fclose(in);
	if (out) {
		if (fclose(out) != 0)
			rc = -1;
	} else if (fd >= 0) {
		close(fd);
	}
	return rc;
}

/* Points link at target atomically, as certbot does: a new link, renamed
 * over the old one. */
static int
swap_link(const char *target, const char *link)
{
	char tmp[300];
	snprintf(tmp, sizeof tmp, "%s.new", link);
	unlink(tmp);
	return symlink(target, tmp) == 0 && rename(tmp, link) == 0 ? 0 : -1;
}

/* Certificate n (1 or 2), a fresh P-256 pair, as certbot's archive files
 * fullchainN.pem and privkeyN.pem; its digest into digest[n]. 0 or -1. */
static int
make_cert(int n)
{
	char dir[128], cert[300], key[300], to[300], err[300], fpr[100];
	snprintf(dir, sizeof dir, "%s/gen%d", base, n);
	if (tls_selfsigned(
		dir, "DNS:localhost,IP:127.0.0.1", cert, key, sizeof cert, err, sizeof err) != 1) {
		printf("certificate %d: %s\n", n, err);
		return -1;
	}
	snprintf(to, sizeof to, "%s/archive/fullchain%d.pem", base, n);
	if (copy_file(cert, to, 0644))
		return -1;
	snprintf(to, sizeof to, "%s/archive/privkey%d.pem", base, n);
	if (copy_file(key, to, 0600) || tls_fingerprint(cert, fpr, sizeof fpr))
		return -1;
	int k = 0;
	for (const char *p = fpr; *p && k < 64; p++)
		if (*p != ':')
			digest[n][k++] = (char)tolower((unsigned char)*p);
	digest[n][k] = '\0';
	return 0;
}

/* certbot's renewal: the live links onto archive files n, chain first. */
static int
renew_to(int n, int chain, int key)
{
	char target[64], link[128];
	int rc = 0;
	if (chain) {
		snprintf(target, sizeof target, "../archive/fullchain%d.pem", n);
		snprintf(link, sizeof link, "%s/live/fullchain.pem", base);
		rc |= swap_link(target, link);
	}
	if (key) {
		snprintf(target, sizeof target, "../archive/privkey%d.pem", n);
		snprintf(link, sizeof link, "%s/live/privkey.pem", base);
		rc |= swap_link(target, link);
	}
	return rc;
}

/* What systemd's LoadCredential= does at activation: copies of the files
 * the admin's links point at, readable by the service alone. */
static int
load_credentials(void)
{
	char from[128], to[128];
	snprintf(from, sizeof from, "%s/etc/tls.crt", base);
	snprintf(to, sizeof to, "%s/creds/tls.crt", base);
	if (copy_file(from, to, 0400))
		return -1;
	snprintf(from, sizeof from, "%s/etc/tls.key", base);
	snprintf(to, sizeof to, "%s/creds/tls.key", base);
	return copy_file(from, to, 0400);
}

/* The certificate a new connection to port is served: 1, 2 or 0. */
static int
served(int port)
{
	char d[65];
	struct tc *c = tc_open(port, 1);
	if (!c)
		return 0;
	tc_cert_digest(c, d);
	tc_close(c);
	return strcmp(d, digest[1]) == 0 ? 1 : strcmp(d, digest[2]) == 0 ? 2 : 0;
}

static int
setup(void)
{
	char p[128], t[128];
	snprintf(base, sizeof base, "/tmp/gomokud-renew.XXXXXX");
	if (!tc_mkdtemp(base))
		return -1;
	static const char *const dirs[] = { "archive", "live", "etc", "creds" };
	for (int i = 0; i < 4; i++) {
		snprintf(p, sizeof p, "%s/%s", base, dirs[i]);
		if (mkdir(p, 0700) != 0)
			return -1;
	}
	if (make_cert(1) || make_cert(2) || renew_to(1, 1, 1))
		return -1;
	/* docs/operations.md's links from the config directory into live/ */
	snprintf(t, sizeof t, "%s/live/fullchain.pem", base);
	snprintf(p, sizeof p, "%s/etc/tls.crt", base);
	if (symlink(t, p) != 0)
		return -1;
	snprintf(t, sizeof t, "%s/live/privkey.pem", base);
	snprintf(p, sizeof p, "%s/etc/tls.key", base);
	return symlink(t, p);
}

enum { MOVES = 3 };
static const char *const moves[] = { "a1", "a3", "c1", "c3", "e1", "e3" };

struct game {
	struct tc *a, *b;
	char token_a[80], token_b[80], room[24];
	int n;
	long seq;
};

/* The next move, by the side to move; the opponent must see it. */
static int
next_move(struct game *g)
{
	struct tc *p = g->n % 2 ? g->b : g->a, *o = g->n % 2 ? g->a : g->b;
	char pre[64], want[32];
	const char *l;
	tc_send(p, "MOVE %s %s", g->room, moves[g->n]);
	snprintf(pre, sizeof pre, "OK MOVE %s ", g->room);
	if (!(l = tc_expect(p, pre, 3000)) || sscanf(l + strlen(pre), "%ld", &g->seq) != 1)
		return -1;
	snprintf(want, sizeof want, " %s ", moves[g->n]);
	while ((l = tc_expect(o, "* MOVE", 3000)) && !strstr(l, want))
		;
	if (!l)
		return -1;
	g->n++;
	return 0;
}

static int
start_game(int port, struct game *g, const char *an, const char *bn)
{
	char code[64];
	const char *l;
	memset(g, 0, sizeof *g);
	if (!(g->a = tc_guest(port, an)) || !(g->b = tc_guest(port, bn)))
		return -1;
	snprintf(g->token_a, sizeof g->token_a, "%s", g->a->token);
	snprintf(g->token_b, sizeof g->token_b, "%s", g->b->token);
	tc_send(g->a, "CREATE freestyle 15 none black casual none");
	l = tc_expect(g->a, "OK CREATE", 3000);
	if (!l || sscanf(l, "OK CREATE %23s %63s", g->room, code) != 2)
		return -1;
	tc_send(g->b, "JOIN %s", code);
	if (!tc_expect(g->b, "* START", 3000) || !tc_expect(g->a, "* START", 3000))
		return -1;
	for (int k = 0; k < MOVES; k++)
		if (next_move(g))
			return -1;
	return 0;
}

/* RESUME on port with token; the number of moves in the snapshot, or -1. */
static int
resume(int port, struct game *g, const char *token, struct tc **out)
{
	struct tc *c = tc_open(port, 1);
	char room[24], list[200];
	int idx, n = 0;
	*out = NULL;
	if (!c)
		return -1;
	tc_send(c, "RESUME %s %s %ld", token, g->room, g->seq);
	for (;;) {
		const char *l = tc_read(c, 5000);
		if (!l || strncmp(l, "ERR", 3) == 0) {
			printf("RESUME %s: %s\n", g->room, l ? l : "no answer");
			tc_close(c);
			return -1;
		}
		if (sscanf(l, "= MOVES %23s %d %199s", room, &idx, list) == 3 &&
		    strcmp(list, "-") != 0)
			for (const char *p = list; p; p = strchr(p + 1, ','))
				n++;
		if (strncmp(l, "OK RESUME", 9) == 0)
			break;
	}
	*out = c;
	return n;
}

/* The shipped unit: credentials copied at activation, renewal by restart. */
static void
test_restart(void)
{
	char conf[600];
	struct game g;

	REQUIRE(load_credentials() == 0, "cannot copy the credentials");
	snprintf(conf, sizeof conf, "grace 300\ncert %s/creds/tls.crt\nkey %s/creds/tls.key", base,
	    base);
	REQUIRE(daemon_start(&d1, GOMOKUD_BIN, conf) == 0, "daemon did not start (log %s)", d1.log);
	REQUIRE(served(d1.port) == 1, "the first certificate is not served");
	REQUIRE(start_game(d1.port, &g, "ra", "rb") == 0, "cannot start a game");

	REQUIRE(renew_to(2, 1, 1) == 0, "renewal: cannot swap the links");
	/* the deploy hook: systemctl try-restart gomokud */
	CHECK(daemon_stop(&d1, SIGTERM, 10000) == 0, "the daemon did not stop cleanly");
	CHECK(tc_expect(g.a, "* SHUTDOWN", 3000) && tc_expect(g.b, "* SHUTDOWN", 3000),
	    "the players were not told of the stop");
	tc_close(g.a);
	tc_close(g.b);
	REQUIRE(load_credentials() == 0, "cannot copy the credentials");
	snprintf(conf + strlen(conf), sizeof conf - strlen(conf), "\nstate-dir %s/state", d1.dir);
	REQUIRE(daemon_start(&d2, GOMOKUD_BIN, conf) == 0, "no restart (log %s)", d2.log);
	int s = served(d2.port);
	CHECK(
	    s == 2, "after the restart new connections get certificate %d, not the renewed one", s);
	int na = resume(d2.port, &g, g.token_a, &g.a);
	int nb = resume(d2.port, &g, g.token_b, &g.b);
	CHECK(na == MOVES && nb == MOVES, "resumed with %d and %d moves of %d", na, nb, MOVES);
	CHECK(g.a && g.b && next_move(&g) == 0, "no move after the restart");
	tc_close(g.a);
	tc_close(g.b);
	CHECK(daemon_stop(&d2, SIGTERM, 10000) == 0, "the restarted daemon did not stop cleanly");
	ok("credentials copied at start: after the renewal a restart serves the new certificate;"
	   " the players are told, RESUME with every move and play on");
}

/* cert and key by path: SIGHUP re-reads them. */
static void
test_sighup(void)
{
	char conf[600];
	struct game g;

	REQUIRE(renew_to(1, 1, 1) == 0, "cannot point the links back at certificate 1");
	snprintf(
	    conf, sizeof conf, "grace 300\ncert %s/etc/tls.crt\nkey %s/etc/tls.key", base, base);
	REQUIRE(daemon_start(&d3, GOMOKUD_BIN, conf) == 0, "daemon did not start (log %s)", d3.log);
	REQUIRE(served(d3.port) == 1, "the first certificate is not served");
	REQUIRE(start_game(d3.port, &g, "ha", "hb") == 0, "cannot start a game");

	/* half-way through the swap: the new key, the old chain */
	REQUIRE(renew_to(2, 0, 1) == 0, "cannot swap the key link");
	int fails = daemon_log_count(&d3, RELOAD_FAILED);
	kill(d3.pid, SIGHUP);
	CHECK(daemon_wait_log(&d3, RELOAD_FAILED, fails, 10000),
	    "a key that does not match the chain was not refused (log %s)", d3.log);
	CHECK(served(d3.port) == 1, "a mismatched pair changed the certificate served");

	REQUIRE(renew_to(2, 1, 1) == 0, "cannot swap the chain link");
	int reloads = daemon_log_count(&d3, RELOADED);
	kill(d3.pid, SIGHUP);
	CHECK(daemon_wait_log(&d3, RELOADED, reloads, 10000), "no \"%s\" after SIGHUP (log %s)",
	    RELOADED, d3.log);
	int s = served(d3.port);
	CHECK(s == 2, "after SIGHUP new connections get certificate %d, not the renewed one", s);
	tc_send(g.a, "PING still");
	CHECK_LINE(g.a, "OK PING still");
	CHECK(next_move(&g) == 0 && next_move(&g) == 0, "the game stopped after SIGHUP");
	tc_close(g.a);
	tc_close(g.b);
	CHECK(daemon_stop(&d3, SIGTERM, 10000) == 0, "the daemon did not stop cleanly");
	ok("certificate by path: SIGHUP keeps the old one through a half-done swap, then serves"
	   " the renewed one to new connections; open connections and the game go on");
}

int
main(void)
{
	if (setup()) {
		printf("FAIL: cannot lay out the certificates in %s\n", base);
		return 1;
	}
	test_restart();
	test_sighup();
	if (!failures) {
		char cmd[600];
		snprintf(cmd, sizeof cmd, "rm -rf %s %s %s %s", base, d1.dir, d2.dir, d3.dir);
		if (system(cmd) != 0)
			printf("could not remove the test directories\n");
	}
	printf("renew: %d passed, %d failed\n", failures ? 0 : 1, failures ? 1 : 0);
	return failures ? 1 : 0;
}
