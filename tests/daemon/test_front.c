/*
 * test_front: the real gomokud behind the real HAProxy (issue 26, the
 * front). HAProxy runs from systemd/cluster/haproxy.cfg, the shipped
 * example, with only its addresses rewritten for loopback: it listens on
 * 127.0.0.1 and connects to the daemon from 127.0.0.2, the daemon's
 * proxy-from; players connect to HAProxy from 127.0.0.1 and 127.0.0.3.
 *
 *   - the daemon knows a player through the front by his own address and
 *     port (gomokuctl who, the log), never HAProxy's;
 *   - max-per-address counts players' addresses, not the front's;
 *   - a ban of the front's address leaves players through it alone; a ban
 *     of a player's address kicks him and refuses him through the front,
 *     while a player from another address gets in;
 *   - HAProxy's health checks (LOCAL headers) keep the server UP and put
 *     no line above debug in the daemon's log;
 *   - a connection from an address that is not a front, carrying a forged
 *     PROXY header, gets no forged address: its TLS fails, logged under
 *     its own address;
 *   - from a front's address: no header, a v1 text header, a truncated, an
 *     oversized and a stalled one are each logged and closed; a header
 *     over IPv6 from ::1 (also a front) names an IPv4 client, and one from
 *     127.0.0.2 an IPv6 client, seen as such;
 *   - IPv6 clients count by their /64 (issue 41): max-per-address, the
 *     failed-login limit (another /64 logs in) and bans alike; a banned
 *     address is refused at HELLO, and a ban of a guest holds its name only;
 *   - a client in the IPv4-mapped form ::ffff:198.51.100.9 is the IPv4
 *     address in who and the log, and a ban in either form matches it;
 *   - SIGHUP takes a new proxy-from list.
 *
 * Without haproxy installed the test says so and skips, unless
 * GOMOKU_REQUIRE_SHARED=1 (CI): then it fails.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
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

#define EXAMPLE "systemd/cluster/haproxy.cfg"

static struct daemon d;
static pid_t haproxy_pid;
static int hport; /* HAProxy's port */
static char haproxy_bin[256], hlog[200], sock[200], outp[200];
static char out[1 << 14];

static const unsigned char sig[12] = { 0x0d, 0x0a, 0x0d, 0x0a, 0x00, 0x0d, 0x0a, 0x51, 0x55, 0x49,
	0x54, 0x0a };

/* haproxy on PATH or in the sbin directories (not on a user's PATH). */
static int
find_haproxy(void)
{
	char path[2048];
	const char *env = getenv("PATH");
	snprintf(path, sizeof path, "%s:/usr/sbin:/usr/local/sbin:/sbin", env ? env : "");
	for (char *dir = strtok(path, ":"); dir; dir = strtok(NULL, ":")) {
		snprintf(haproxy_bin, sizeof haproxy_bin, "%s/haproxy", dir);
		if (access(haproxy_bin, X_OK) == 0)
			return 0;
	}
	return -1;
}

/* The example with loopback addresses: bind, the one server line, checks
 * every 200 ms so a short test sees many, and a global maxconn that needs
 * no more descriptors than a test may have. Everything else as shipped. */
static int
write_haproxy_cfg(const char *path)
{
	FILE *in = fopen(EXAMPLE, "r"), *o = fopen(path, "w");
	char line[512];
	int binds = 0, servers = 0;
	while (in && o && fgets(line, sizeof line, in)) {
		char *inter = strstr(line, "inter 2s");
		if (strcmp(line, "\tmaxconn 20000\n") == 0) {
			fputs("\tmaxconn 500\n", o);
		} else if (strncmp(line, "\tbind ", 6) == 0) {
			fprintf(o, "\tbind 127.0.0.1:%d\n", hport);
			binds++;
		} else if (strncmp(line, "\tserver ", 8) == 0) {
			if (servers++ == 0)
				fprintf(
				    o, "\tserver node1 127.0.0.1:%d source 127.0.0.2\n", d.port);
		} else if (inter) {
			fprintf(o, "%.*sinter 200ms%s", (int)(inter - line), line, inter + 8);
		} else {
			fputs(line, o);
		}
	}
	if (in)
		fclose(in);
	if (o)
		fclose(o);
	return in && o && binds == 1 && servers >= 1 ? 0 : -1;
}

static int
start_haproxy(void)
{
	char cfg[200];
	snprintf(cfg, sizeof cfg, "%s/haproxy.cfg", d.dir);
	snprintf(hlog, sizeof hlog, "%s/haproxy.log", d.dir);
	if ((hport = tc_free_port()) < 0 || write_haproxy_cfg(cfg) != 0)
		return -1;
	haproxy_pid = fork();
	if (haproxy_pid == 0) {
		int fd = open(hlog, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		dup2(fd, 1);
		dup2(fd, 2);
		execl(haproxy_bin, "haproxy", "-db", "-f", cfg, (char *)NULL);
		_exit(127);
	}
	tc_child(haproxy_pid); /* stopped at exit if a failure ends the test early */
	return haproxy_pid > 0 ? 0 : -1;
}

static void
stop_haproxy(void)
{
	if (haproxy_pid <= 0)
		return;
	kill(haproxy_pid, SIGTERM);
	int st;
	for (int i = 0; i < 500 && waitpid(haproxy_pid, &st, WNOHANG) == 0; i++)
		usleep(10000);
	if (waitpid(haproxy_pid, &st, WNOHANG) == 0) {
		kill(haproxy_pid, SIGKILL);
		waitpid(haproxy_pid, &st, 0);
	}
	haproxy_pid = 0;
}

/* Runs gomokuctl on the daemon's socket; out gets what it printed. */
static int
ctl(const char *a, const char *b, const char *c)
{
	pid_t pid = fork();
	if (pid == 0) {
		int fd = open(outp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		dup2(fd, 1);
		dup2(fd, 2);
		execl(GOMOKUCTL_BIN, GOMOKUCTL_BIN, "--socket", sock, a, b, c, (char *)NULL);
		_exit(127);
	}
	int st = -1;
	waitpid(pid, &st, 0);
	FILE *f = fopen(outp, "r");
	size_t n = f ? fread(out, 1, sizeof out - 1, f) : 0;
	out[n] = '\0';
	if (f)
		fclose(f);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

/* Lines of a log file with both strings (b may be NULL). */
static int
lines_with(const char *path, const char *a, const char *b)
{
	FILE *f = fopen(path, "r");
	char l[2048];
	int n = 0;
	while (f && fgets(l, sizeof l, f))
		n += strstr(l, a) && (!b || strstr(l, b));
	if (f)
		fclose(f);
	return n;
}

/* Lines of the daemon's log above debug that mention what. */
static int
loud_lines(const char *what)
{
	return lines_with(d.log, " info ", what) + lines_with(d.log, " warn ", what) +
	    lines_with(d.log, " error ", what);
}

static int
local_port(int fd)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof ss;
	getsockname(fd, (struct sockaddr *)&ss, &len);
	return ss.ss_family == AF_INET6 ? ntohs(((struct sockaddr_in6 *)&ss)->sin6_port)
					: ntohs(((struct sockaddr_in *)&ss)->sin_port);
}

/* A guest named name through HAProxy from src; NULL when refused. */
static struct tc *
guest_via(const char *src, const char *name)
{
	struct tc *c = tc_open_from(src, hport, NULL, 0, 1);
	if (!c)
		return NULL;
	tc_send(c, "GUEST %s", name);
	const char *l = tc_expect(c, "OK GUEST ", LINE_MS);
	if (!l || sscanf(l, "OK GUEST %31s %79s", c->name, c->token) != 2) {
		tc_close(c);
		return NULL;
	}
	return c;
}

/* A PROXY v2 header, TCP over IPv4 (fam 0x11) or IPv6 (0x21), with the
 * client address src:sport. Its length. */
static size_t
proxy_header(unsigned char *buf, int fam, const char *src, int sport)
{
	size_t alen = fam == 0x11 ? 12 : 36, a = fam == 0x11 ? 4 : 16;
	memset(buf, 0, 16 + alen);
	memcpy(buf, sig, 12);
	buf[12] = 0x21;
	buf[13] = (unsigned char)fam;
	buf[15] = (unsigned char)alen;
	inet_pton(fam == 0x11 ? AF_INET : AF_INET6, src, buf + 16);
	buf[16 + 2 * a] = (unsigned char)(sport >> 8);
	buf[16 + 2 * a + 1] = (unsigned char)sport;
	return 16 + alen;
}

static void
test_player_address(void)
{
	/* HAProxy takes a moment to listen and to mark the server up */
	struct tc *a = NULL;
	for (int i = 0; !a && i < 100; i++, usleep(100000))
		a = guest_via("127.0.0.1", "alice");
	REQUIRE(a, "no guest through HAProxy (its log: %s)", hlog);
	char want[64];
	snprintf(want, sizeof want, "127.0.0.1:%d", local_port(a->fd));
	CHECK(ctl("who", NULL, NULL) == 0 && strstr(out, want), "who does not show %s: %s", want,
	    out);
	CHECK(!strstr(out, "127.0.0.2"), "who shows the front's address: %s", out);
	CHECK(lines_with(d.log, want, "guest alice") == 1, "the log does not name %s", want);
	tc_close(a);
	ok("a player through HAProxy is known by his own address and port");
}

static void
test_per_address_limit(void)
{
	/* max-per-address 2: a third from 127.0.0.1 is refused, while one from
	 * 127.0.0.3 gets in (counted by the front's address it would not) */
	struct tc *a = guest_via("127.0.0.1", "p1"), *b = guest_via("127.0.0.1", "p2");
	REQUIRE(a && b, "two players from 127.0.0.1");
	struct tc *c = tc_open_from("127.0.0.1", hport, NULL, 0, -1);
	CHECK(c && tc_read(c, LINE_MS) && strncmp(c->line, "ERR", 3) == 0 &&
		strstr(c->line, "too many connections"),
	    "a third from 127.0.0.1 was not refused: %s", c ? c->line : "(no connection)");
	tc_close(c);
	struct tc *e = guest_via("127.0.0.3", "p3");
	CHECK(e, "a player from 127.0.0.3 was refused: the limit counted the front");
	tc_close(e);
	tc_close(a);
	tc_close(b);
	ok("max-per-address counts the players' addresses, not the front's");
}

static void
test_bans(void)
{
	struct tc *a = guest_via("127.0.0.1", "bob");
	REQUIRE(a, "bob through HAProxy");
	CHECK(ctl("ban", "127.0.0.2", "1h") == 0, "ban the front: %s", out);
	struct tc *b = guest_via("127.0.0.1", "carol");
	CHECK(b, "a ban of the front's address refused a player through it");
	tc_send(a, "WHO");
	CHECK_LINE(a, "= USER"); /* bob is still on */
	tc_close(b);
	CHECK(ctl("unban", "127.0.0.2", NULL) == 0, "unban the front: %s", out);

	CHECK(ctl("ban", "127.0.0.1", "1h") == 0, "ban 127.0.0.1: %s", out);
	CHECK(tc_expect(a, "* KICKED", LINE_MS) != NULL, "bob (127.0.0.1) was not kicked");
	tc_close(a);
	/* refused at HELLO, with the reason, and closed (issue 43) */
	struct tc *c = tc_open_from("127.0.0.1", hport, NULL, 0, 0);
	REQUIRE(c, "a connection through HAProxy");
	tc_send(c, "HELLO 1");
	CHECK(tc_expect(c, "ERR", LINE_MS) && strncmp(c->line, "ERR 414 banned ", 15) == 0 &&
		strstr(c->line, "this address is banned") && tc_closed(c, LINE_MS),
	    "a banned address got in through the front: %s", c->line);
	tc_close(c);
	struct tc *e = guest_via("127.0.0.3", "erin");
	CHECK(e, "127.0.0.3 was refused by the ban of 127.0.0.1");
	tc_close(e);
	CHECK(ctl("bans", NULL, NULL) == 0 && strstr(out, "127.0.0.1") && !strstr(out, "127.0.0.2"),
	    "bans: %s", out);
	CHECK(ctl("unban", "127.0.0.1", NULL) == 0, "unban: %s", out);
	struct tc *f = guest_via("127.0.0.1", "dave");
	CHECK(f, "127.0.0.1 still refused after the unban");
	tc_close(f);
	ok("bans by address see the player through the front, never the front");
}

static void
test_health_checks(void)
{
	int before = lines_with(d.log, "front 127.0.0.2", "health check (LOCAL)");
	usleep(1500000);
	int checks = lines_with(d.log, "front 127.0.0.2", "health check (LOCAL)") - before;
	CHECK(checks >= 3, "only %d health checks in 1.5 s at 200 ms", checks);
	CHECK(loud_lines("127.0.0.2:") == 0, "health checks put %d lines above debug in the log",
	    loud_lines("127.0.0.2:"));
	CHECK(lines_with(hlog, "is DOWN", NULL) == 0, "HAProxy marked the daemon down: %s", hlog);
	ok("HAProxy's health checks (LOCAL) pass and log nothing above debug");
}

/* Forged: a PROXY header from 127.0.0.1, which is not a front, then TLS. */
static void
test_forged(void)
{
	unsigned char h[64];
	size_t n = proxy_header(h, 0x11, "198.51.100.7", 4242);
	int before = daemon_log_count(&d, "dropped");
	struct tc *c = tc_open_from("127.0.0.1", d.port, h, n, 1);
	CHECK(!c, "TLS after a forged header from a non-front succeeded");
	tc_close(c);
	CHECK(
	    daemon_wait_log(&d, "dropped", before, LINE_MS), "the failed handshake is not logged");
	CHECK(lines_with(d.log, "127.0.0.1:", "dropped") > 0, "not logged under its own address");
	CHECK(daemon_log_count(&d, "198.51.100.7") == 0, "the forged address reached the log");
	struct tc *e = tc_open_from("127.0.0.1", d.port, NULL, 0, 1);
	CHECK(e, "a plain client from a non-front address was refused");
	tc_close(e);
	ok("a forged PROXY header from a non-front is garbage to TLS; its address is never taken");
}

/* Sends n bytes from 127.0.0.2 to the daemon (closing after unless stall)
 * and waits for a log line with what. */
static void
bad_from_front(const char *what, const void *bytes, size_t n, int stall)
{
	int before = daemon_log_count(&d, what);
	int fd = tc_connect_from("127.0.0.2", d.port);
	REQUIRE(fd >= 0, "connect from 127.0.0.2");
	CHECK(write(fd, bytes, n) == (ssize_t)n, "write");
	if (!stall)
		shutdown(fd, SHUT_WR);
	CHECK(daemon_wait_log(&d, what, before, stall ? 4000 : LINE_MS), "not logged: %s", what);
	char b;
	struct timeval tv = { 3, 0 };
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
	ssize_t r = read(fd, &b, 1); /* closed, or reset when bytes were left unread */
	CHECK(r == 0 || (r < 0 && errno == ECONNRESET), "not closed after: %s", what);
	close(fd);
}

static void
test_bad_headers(void)
{
	/* a front that sends TLS without a header */
	int before = daemon_log_count(&d, "no PROXY protocol v2 signature");
	struct tc *c = tc_open_from("127.0.0.2", d.port, NULL, 0, 1);
	CHECK(!c, "TLS from a front without a header succeeded");
	tc_close(c);
	CHECK(daemon_wait_log(&d, "no PROXY protocol v2 signature", before, LINE_MS),
	    "a front's header-less TLS is not logged");
	const char *v1 = "PROXY TCP4 198.51.100.7 127.0.0.1 4242 5555\r\n";
	bad_from_front("only v2 is accepted", v1, strlen(v1), 0);
	bad_from_front("closed inside the PROXY header (10 of 16 bytes)", sig, 10, 0);
	unsigned char h[64];
	size_t n = proxy_header(h, 0x11, "198.51.100.7", 4242);
	h[14] = 0xff, h[15] = 0xff;
	bad_from_front("PROXY header over 1024 bytes", h, 16, 0);
	n = proxy_header(h, 0x11, "198.51.100.7", 4242);
	bad_from_front("no whole PROXY header within 1 s (20 bytes)", h, n - 8, 1);
	h[13] = 0x31; /* a unix socket */
	bad_from_front("not TCP over IPv4 or IPv6", h, n, 0);
	CHECK(daemon_log_count(&d, "198.51.100.7") == 0, "a bad header's address reached the log");
	ok("from a front: no header, v1, truncated, oversized, stalled, unix: logged and closed");
}

/* A client from 127.0.0.2 (a front) with a hand-made header for the
 * IPv6 (or mapped) address src: HELLO said; NULL when not greeted. A few
 * tries, as a closed connection of the same /64 may still be counted
 * for a moment. */
static struct tc *
via6(const char *src, int sport, int tries)
{
	unsigned char h[64];
	size_t n = proxy_header(h, 0x21, src, sport);
	struct tc *c = NULL;
	for (int i = 0; !c && i < tries; i++) {
		if (i)
			usleep(50000);
		c = tc_open_from("127.0.0.2", d.port, h, n, 1);
	}
	return c;
}

static int hello_banned6(const char *src, int sport);

/* A LOGIN on c: the line that answers it, and how long it took (ms). */
static const char *
login(struct tc *c, const char *user, const char *pass, long long *ms)
{
	long long t0 = tc_now_ms();
	tc_send(c, "LOGIN %s %s", user, pass);
	const char *l = tc_read(c, 10000);
	if (ms)
		*ms = tc_now_ms() - t0;
	return l ? l : "(nothing)";
}

/* Issue 41 M2: IPv6 clients through the front count by their /64
 * (ipv6-prefix 64): two of one /64 fill max-per-address 2 and a third of
 * it is refused while another /64 gets in; five wrong passwords from two
 * addresses of one /64 refuse a third address of it, while another /64
 * logs in; twenty for any names from a /64 refuse all of it; a ban of
 * one IPv6 address covers its /64. */
static void
test_ipv6_prefix(void)
{
	struct tc *a = via6("2001:db8:1:2::1", 5001, 1), *b = via6("2001:db8:1:2::2", 5002, 1);
	REQUIRE(a && b, "two clients of 2001:db8:1:2::/64");
	unsigned char h[64];
	size_t n = proxy_header(h, 0x21, "2001:db8:1:2:ffff::3", 5003);
	struct tc *c = tc_open_from("127.0.0.2", d.port, h, n, -1);
	CHECK(c && tc_read(c, LINE_MS) && strncmp(c->line, "ERR", 3) == 0 &&
		strstr(c->line, "too many connections"),
	    "a third of the /64 was not refused: %s", c ? c->line : "(no connection)");
	tc_close(c);
	struct tc *e = via6("2001:db8:1:3::1", 5004, 1);
	CHECK(e, "a client of another /64 was refused");
	ok("max-per-address counts an IPv6 /64 as one address, through the front");

	tc_send(e, "REGISTER frank franks-pass");
	REQUIRE(tc_expect(e, "OK REGISTER", 10000), "register frank: %s", e->line);
	tc_close(e);
	for (int i = 0; i < 5; i++) {
		const char *l = login(i < 3 ? a : b, "frank", "wrong-pass", NULL);
		CHECK(strncmp(l, "ERR 413", 7) == 0, "wrong password %d: %s", i, l);
	}
	tc_close(b);
	struct tc *f = via6("2001:db8:1:2::4", 5005, 40);
	REQUIRE(f, "a second client of the /64 after one closed");
	const char *l = login(f, "frank", "franks-pass", NULL);
	CHECK(strncmp(l, "ERR 407", 7) == 0, "another address of the /64 was not refused: %s", l);
	tc_close(f);
	struct tc *g = via6("2001:db8:1:5::1", 5006, 1);
	REQUIRE(g, "a client of another /64");
	long long ms = 0;
	l = login(g, "frank", "franks-pass", &ms);
	CHECK(strncmp(l, "OK LOGIN frank", 14) == 0, "the owner from another /64: %s", l);
	printf("the owner's LOGIN from another /64 after 5 failures took %lld ms\n", ms);
	ok("failed logins count an IPv6 /64 as one address; another /64 logs in");

	/* twenty wrong logins for other names from two addresses of one /64:
	 * a third address of it is refused, even for frank's right password */
	struct tc *p = via6("2001:db8:1:6::1", 5007, 1), *q = via6("2001:db8:1:6::2", 5008, 1);
	REQUIRE(p && q, "two clients of 2001:db8:1:6::/64");
	for (int i = 0; i < 20; i++) {
		char who[16];
		snprintf(who, sizeof who, "someone%d", i);
		l = login(i % 2 ? q : p, who, "wrong-pass", NULL);
		CHECK(strncmp(l, "ERR 413", 7) == 0, "wrong login %d of the /64: %s", i, l);
	}
	tc_close(q);
	struct tc *r = via6("2001:db8:1:6:ffff::9", 5009, 40);
	REQUIRE(r, "a second client of 2001:db8:1:6::/64 after one closed");
	l = login(r, "frank", "franks-pass", NULL);
	CHECK(strncmp(l, "ERR 407", 7) == 0, "the /64 after 20 failures: %s", l);
	tc_close(r);
	tc_close(p);
	ok("20 failed logins from one IPv6 /64 refuse every address of it");

	CHECK(ctl("ban", "2001:db8:1:2::99", "1h") == 0 && strstr(out, "2001:db8:1:2::/64"),
	    "ban 2001:db8:1:2::99: %s", out);
	CHECK(tc_expect(a, "* KICKED", LINE_MS) != NULL, "2001:db8:1:2::1 was not kicked");
	tc_send(g, "WHO");
	CHECK_LINE(g, "= USER");
	/* another address of the /64 is refused at HELLO (issue 43) */
	CHECK(hello_banned6("2001:db8:1:2:abcd::5", 5010), "HELLO from the banned /64 let in");
	CHECK(ctl("bans", NULL, NULL) == 0 && strstr(out, "2001:db8:1:2::/64"), "bans: %s", out);
	CHECK(ctl("unban", "2001:db8:1:2::1", NULL) == 0, "unban by another address: %s", out);
	tc_close(a);
	tc_close(g);
	ok("a ban of an IPv6 address covers its /64, and so does the unban");
}

/* Whether a client from src (IPv6, through the front) gets 414 at HELLO,
 * with the reason, and is closed. */
static int
hello_banned6(const char *src, int sport)
{
	unsigned char h[64];
	size_t n = proxy_header(h, 0x21, src, sport);
	struct tc *c = tc_open_from("127.0.0.2", d.port, h, n, 0);
	if (!c)
		return 0;
	tc_send(c, "HELLO 1");
	const char *l = tc_read(c, LINE_MS);
	int yes = l && strncmp(l, "ERR 414 banned this address is banned until ", 44) == 0 &&
	    tc_closed(c, LINE_MS);
	if (!yes)
		printf("HELLO from %s: %s\n", src, l ? l : "(nothing)");
	tc_close(c);
	return yes;
}

/* A guest through the front from src (IPv6), or NULL. */
static struct tc *
guest6(const char *src, int sport, const char *name)
{
	struct tc *c = via6(src, sport, 40);
	if (!c)
		return NULL;
	tc_send(c, "GUEST %s", name);
	if (!tc_expect(c, "OK GUEST", LINE_MS)) {
		tc_close(c);
		return NULL;
	}
	return c;
}

/* Issue 43: a ban of a guest through the front holds its name, not its
 * /64: another address of that /64 still comes in (an address ban, given
 * by address, refuses the /64 at HELLO: test_ipv6_prefix). */
static void
test_guest_ban6(void)
{
	struct tc *h = guest6("2001:db8:1:9::1", 5201, "hank");
	REQUIRE(h, "hank through the front");
	CHECK(ctl("ban", "hank", NULL) == 0, "ban hank: %s", out);
	CHECK(tc_expect(h, "* KICKED banned until ", LINE_MS) != NULL, "hank was not sent off");
	tc_close(h);
	CHECK(ctl("bans", NULL, NULL) == 0 && strstr(out, "ban hank until") &&
		!strstr(out, "2001:db8:1:9::/64"),
	    "bans: %s", out);
	struct tc *o = guest6("2001:db8:1:9:ffff::2", 5202, "ivy");
	CHECK(o, "another address of the guest's /64 was refused");
	tc_close(o);
	CHECK(ctl("unban", "hank", NULL) == 0, "unban: %s", out);
	ok("a ban of a guest through the front holds its name; its /64 still comes in");
}

/* max-seeks-per-address (1 here): a second seek that would wait, from
 * another address of the same /64, is 449; another /64 seeks; a cancel
 * frees the slot; and a seek that pairs at once is taken at the cap. */
static void
test_seek_cap(void)
{
	struct tc *a = guest6("2001:db8:1:7::1", 5101, "seeka");
	struct tc *b = guest6("2001:db8:1:7::2", 5102, "seekb");
	struct tc *e = guest6("2001:db8:1:8::1", 5103, "seeke");
	REQUIRE(a && b && e, "three guests through the front");
	tc_send(a, "SEEK freestyle 15 300+5 black casual none");
	CHECK_LINE(a, "OK SEEK");
	tc_send(b, "SEEK freestyle 15 300+5 black casual none");
	CHECK(tc_expect(b, "ERR 449", LINE_MS) != NULL, "a second seek of the /64: %s", b->line);
	tc_send(e, "SEEK freestyle 15 300+5 black casual none");
	CHECK_LINE(e, "OK SEEK");
	ok("max-seeks-per-address counts an IPv6 /64 as one address: 449, another /64 seeks");

	tc_send(a, "CANCEL");
	CHECK_LINE(a, "OK CANCEL");
	tc_send(b, "SEEK freestyle 15 300+5 black casual none");
	CHECK_LINE(b, "OK SEEK");
	/* b holds the /64's one seek; a's white pairs with e's older black */
	tc_send(a, "SEEK freestyle 15 300+5 white casual none");
	CHECK(tc_expect(a, "* START", LINE_MS) && strstr(a->line, "seeke"),
	    "a seek that pairs at once was not taken at the cap: %s", a->line);
	CHECK(tc_expect(e, "* START", LINE_MS) != NULL, "e was not paired: %s", e->line);
	tc_close(a);
	tc_close(b);
	tc_close(e);
	ok("a cancel frees the address's seek; a seek that pairs at once is taken at the cap");
}

/* Issue 41 L1: an IPv4 client in the IPv4-mapped IPv6 form is the IPv4
 * address in who and the log, and a ban in either form matches it. */
static void
test_mapped(void)
{
	struct tc *a = via6("::ffff:198.51.100.9", 4100, 1);
	REQUIRE(a, "a client as ::ffff:198.51.100.9");
	tc_send(a, "GUEST mapd");
	CHECK_LINE(a, "OK GUEST");
	CHECK(
	    ctl("who", NULL, NULL) == 0 && strstr(out, "198.51.100.9:4100") && !strstr(out, "ffff"),
	    "who: %s", out);
	CHECK(lines_with(d.log, "198.51.100.9:4100", "guest mapd") == 1 &&
		daemon_log_count(&d, "::ffff:198.51.100.9") == 0,
	    "the log does not name 198.51.100.9:4100");
	CHECK(ctl("ban", "::ffff:198.51.100.9", "1h") == 0 && strstr(out, "198.51.100.9") &&
		!strstr(out, "ffff"),
	    "ban ::ffff:198.51.100.9: %s", out);
	CHECK(tc_expect(a, "* KICKED", LINE_MS) != NULL, "the mapped client was not kicked");
	tc_close(a);
	unsigned char h[64];
	size_t n = proxy_header(h, 0x11, "198.51.100.9", 4101);
	struct tc *b = tc_open_from("127.0.0.2", d.port, h, n, 0);
	REQUIRE(b, "TLS after an IPv4 header");
	tc_send(b, "HELLO 1");
	CHECK(tc_expect(b, "ERR", LINE_MS) &&
		strstr(b->line, "ERR 414 banned this address is banned"),
	    "the IPv4 client got past a ban in the mapped form: %s", b->line);
	tc_close(b);
	CHECK(ctl("unban", "198.51.100.9", NULL) == 0, "unban 198.51.100.9: %s", out);
	CHECK(ctl("ban", "198.51.100.9", "1h") == 0, "ban 198.51.100.9: %s", out);
	CHECK(hello_banned6("::ffff:198.51.100.9", 4102),
	    "the mapped client got past a ban of the IPv4 form");
	CHECK(ctl("unban", "::ffff:198.51.100.9", NULL) == 0, "unban, mapped: %s", out);
	ok("::ffff:198.51.100.9 is 198.51.100.9 in who, the log and bans, either way");
}

/* Headers by hand: from ::1 (a front over IPv6) for an IPv4 client, from
 * 127.0.0.2 for an IPv6 client. */
static void
test_families(void)
{
	unsigned char h[64];
	size_t n = proxy_header(h, 0x11, "192.0.2.9", 4000);
	struct tc *a = tc_open_from("::1", -d.port6, h, n, 1);
	REQUIRE(a, "TLS after a header from ::1");
	tc_send(a, "GUEST vic");
	CHECK_LINE(a, "OK GUEST");
	n = proxy_header(h, 0x21, "2001:db8::7", 4001);
	struct tc *b = tc_open_from("127.0.0.2", d.port, h, n, 1);
	REQUIRE(b, "TLS after an IPv6 header from 127.0.0.2");
	tc_send(b, "GUEST sam");
	CHECK_LINE(b, "OK GUEST");
	CHECK(ctl("who", NULL, NULL) == 0 && strstr(out, "192.0.2.9:4000") &&
		strstr(out, "[2001:db8::7]:4001"),
	    "who: %s", out);
	CHECK(ctl("ban", "2001:db8::/32", "1h") == 0, "ban 2001:db8::/32: %s", out);
	CHECK(tc_expect(b, "* KICKED", LINE_MS) != NULL, "the IPv6 client was not kicked");
	tc_send(a, "WHO");
	CHECK_LINE(a, "= USER");
	tc_close(a);
	tc_close(b);
	ok("PROXY headers for IPv4 and IPv6 clients, from IPv4 and IPv6 fronts");
}

/* SIGHUP takes a new list: ::1 dropped from proxy-from, its header is
 * garbage to TLS from then on, while 127.0.0.2 stays a front. */
static void
test_reload(void)
{
	char path[200], conf[4096];
	snprintf(path, sizeof path, "%s/gomokud.conf", d.dir);
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(conf, 1, sizeof conf - 1, f) : 0;
	conf[n] = '\0';
	if (f)
		fclose(f);
	char *p = strstr(conf, "proxy-from 127.0.0.2,::1\n");
	REQUIRE(p, "the test's proxy-from line in %s", path);
	memmove(p + 20, p + 24, strlen(p + 24) + 1); /* drop ",::1" */
	f = fopen(path, "w");
	REQUIRE(f && fputs(conf, f) >= 0 && fclose(f) == 0, "rewrite %s", path);
	int before = daemon_log_count(&d, "reloaded configuration");
	kill(d.pid, SIGHUP);
	REQUIRE(daemon_wait_log(&d, "reloaded configuration", before, LINE_MS), "no reload");
	unsigned char h[64];
	size_t hn = proxy_header(h, 0x11, "192.0.2.10", 4002);
	struct tc *a = tc_open_from("::1", -d.port6, h, hn, 1);
	CHECK(!a, "a header from ::1 was still taken after the reload");
	tc_close(a);
	struct tc *b = tc_open_from("127.0.0.2", d.port, h, hn, 1);
	CHECK(b, "127.0.0.2 is no longer a front after the reload");
	tc_close(b);
	CHECK(daemon_wait_log(&d, "PROXY for 192.0.2.10:4002", 0, LINE_MS) &&
		daemon_log_count(&d, "PROXY for 192.0.2.10:4002") == 1,
	    "the header from 127.0.0.2 alone is taken");
	ok("SIGHUP takes a new proxy-from list for new connections");
}

int
main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	if (find_haproxy() != 0) {
		const char *r = getenv("GOMOKU_REQUIRE_SHARED");
		int required = r && strcmp(r, "1") == 0;
		printf("%s: haproxy is not installed (Debian package haproxy; mk/deps.sh installs "
		       "it)\n",
		    required ? "FAIL" : "skip");
		return required ? 1 : 0;
	}
	if (daemon_start(&d, GOMOKUD_BIN,
		"listen [::1]:0\nproxy-from 127.0.0.2,::1\nmax-per-address "
		"2\nmax-seeks-per-address 1\n"
		"handshake-timeout 1\nbot-threads 1\n") != 0) {
		printf("FAIL: the daemon did not start (%s)\n", d.log);
		return 1;
	}
	snprintf(sock, sizeof sock, "%s/state/gomokud.ctl", d.dir);
	snprintf(outp, sizeof outp, "%s/ctl.out", d.dir);
	if (start_haproxy() != 0) {
		printf("FAIL: cannot start haproxy from %s\n", EXAMPLE);
		daemon_stop(&d, SIGTERM, 5000);
		return 1;
	}
	test_player_address();
	test_per_address_limit();
	test_bans();
	test_health_checks();
	test_forged();
	test_bad_headers();
	test_ipv6_prefix();
	test_seek_cap();
	test_guest_ban6();
	test_mapped();
	test_families();
	test_reload();
	stop_haproxy();
	CHECK(daemon_stop(&d, SIGTERM, 5000) == 0, "the daemon did not stop cleanly");
	if (failures)
		printf("logs kept: %s and %s\n", d.log, hlog);
	printf(failures ? "%d failed\n" : "all passed\n", failures);
	return failures ? 1 : 0;
}
