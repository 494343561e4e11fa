/*
 * test_ctl: the real bin/gomokuctl against the real bin/gomokud (issue 22).
 * Every command on a daemon with players online: status, who and rooms
 * with a game in progress; kick (its token resumes nothing); bans by name,
 * IPv4 CIDR and IPv6 address refused at HELLO (an address), GUEST, LOGIN
 * and RESUME and lifted again; a guest's ban holding its name, not its address (the player plays
 * once more); bans, mutes and the MOTD kept across a restart; mute and
 * SAY/TELL; the MOTD after the greeting; announce; drain (no new games,
 * the running one plays on, SIGTERM still stops cleanly); reload;
 * log-level; an online backup restored into a fresh state directory where
 * every account, rating and finished game is found. The same verbs for
 * the config's admins over the protocol, refused to others. Bad input: a
 * stopped daemon, a wrong socket, a bad duration or CIDR, an unknown user,
 * overlong and garbage control lines, and a peer of another uid (as root,
 * through a socket opened up by hand, so only SO_PEERCRED stands in the
 * way). Last, each gomokuctl command of docs/operations.md's admin block runs.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "daemon/control.h"
#include "tests/daemon/check.h"
#include "tests/daemon/tclient.h"

#ifndef GOMOKUD_BIN
#define GOMOKUD_BIN "bin/gomokud"
#endif
#ifndef GOMOKUCTL_BIN
#define GOMOKUCTL_BIN "bin/gomokuctl"
#endif

static struct daemon d, restored;
static char first_dir[128]; /* the first daemon's, whose state the restart keeps */
static char state[200], sock[240], outp[240], errp[240];
static char out[1 << 16], err[4096];

static void
slurp(const char *path, char *buf, size_t cap)
{
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(buf, 1, cap - 1, f) : 0;
	buf[n] = '\0';
	if (f)
		fclose(f);
}

/* Runs gomokuctl with these words (NULL-terminated) on the test's socket;
 * out and err get what it printed. Its exit status. */
static int
ctl(const char *first, ...)
{
	const char *argv[16] = { GOMOKUCTL_BIN, "--socket", sock };
	int n = 3;
	va_list ap;
	va_start(ap, first);
	for (const char *w = first; w && n < 15; w = va_arg(ap, const char *))
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

/* A failure of gomokuctl as the issue asks: exit 1, one line on stderr. */
static int
one_line_error(int rc)
{
	char *nl = strchr(err, '\n');
	return rc == 1 && strncmp(err, "gomokuctl: ", 11) == 0 && nl && nl[1] == '\0';
}

static void
paths_for(const char *dir)
{
	snprintf(state, sizeof state, "%s", dir);
	snprintf(sock, sizeof sock, "%s/gomokud.ctl", dir);
}

static struct tc *
account(const char *verb, const char *name)
{
	struct tc *c = tc_open(d.port, 1);
	if (!c)
		return NULL;
	snprintf(c->name, sizeof c->name, "%s", name);
	tc_send(c, "%s %s pass-%s", verb, name, name);
	while (
	    tc_read(c, 5000) && strncmp(c->line, "OK ", 3) != 0 && strncmp(c->line, "ERR", 3) != 0)
		;
	if (strncmp(c->line, "OK ", 3) != 0 && strncmp(c->line, "ERR", 3) != 0) {
		tc_close(c);
		return NULL;
	}
	sscanf(c->line, "OK %*s %*s %79s", c->token);
	return c;
}

static void
test_status_who_rooms(void)
{
	struct tc *a = tc_guest(d.port, "ann"), *b = tc_guest(d.port, "ben");
	char room[32];
	REQUIRE(a && b, "ann and ben could not connect");
	REQUIRE(tc_pair(a, b, "freestyle 15 none", "casual", room, sizeof room) == 0,
	    "no game between ann and ben: %s", tc_why);
	tc_send(a, "MOVE %s h8", room);
	REQUIRE_LINE(a, "OK MOVE");
	REQUIRE(ctl("status", NULL) == 0, "status: %s", err);
	CHECK(strstr(out, "version 0.1.0\n") && strstr(out, "\nconnections 2\n") &&
		strstr(out, "\nsessions 2\n") && strstr(out, "\nrooms 1\n") &&
		strstr(out, "\ngames 1\n") && strstr(out, "\nbots-busy 0\n") &&
		strstr(out, "\nbots-queued 0\n") && strstr(out, "\nstore-bytes ") &&
		strstr(out, "\ndraining no\n") && strstr(out, "uptime "),
	    "status says:\n%s", out);
	REQUIRE(ctl("who", NULL) == 0, "who: %s", err);
	CHECK(strstr(out, "ann guest playing ") && strstr(out, "ben guest playing ") &&
		strstr(out, "127.0.0.1:") && strstr(out, "2 users"),
	    "who says:\n%s", out);
	REQUIRE(ctl("rooms", NULL) == 0, "rooms: %s", err);
	char want[160];
	snprintf(want, sizeof want, "%s playing freestyle 15 none none casual ann ben 0 1", room);
	CHECK(strstr(out, want) && strstr(out, "1 room"), "rooms says:\n%s (want %s)", out, want);
	tc_close(a);
	tc_close(b);
	ok("status, who and rooms describe the game in progress");
}

static void
test_kick(void)
{
	struct tc *v = tc_guest(d.port, "vic"), *w = tc_guest(d.port, "wes");
	char room[32], token[80];
	REQUIRE(v && w, "no guests");
	/* seated, so that before issue 43 the token took the seat back */
	REQUIRE(tc_pair(v, w, "freestyle 15 none", "casual", room, sizeof room) == 0,
	    "no game for vic: %s", tc_why);
	snprintf(token, sizeof token, "%s", v->token);
	REQUIRE(ctl("kick", "vic", "stop", "that", NULL) == 0, "kick: %s", err);
	CHECK(strstr(out, "kicked vic"), "kick says %s", out);
	CHECK(tc_expect(v, "* KICKED kicked: stop that", 3000), "no reason line: %s", v->line);
	CHECK(tc_closed(v, 3000), "the kicked connection stays open");
	CHECK(daemon_log_count(&d, "admin root: kick vic: stop that") == 1,
	    "the kick is not logged with who did it");
	tc_close(v);
	/* the kick revoked the token: no seat comes back with it (issue 43) */
	struct tc *c = tc_open(d.port, 1);
	REQUIRE(c, "no connection");
	tc_send(c, "RESUME %s %s 1", token, room);
	CHECK(tc_expect(c, "ERR 448 ", 3000), "RESUME with a kicked session's token: %s", c->line);
	/* a kick is no ban: the same address comes in under a name */
	tc_send(c, "GUEST");
	CHECK(tc_expect(c, "OK GUEST ", 3000), "GUEST after a kick: %s", c->line);
	tc_close(c);
	tc_send(w, "RESIGN %s", room);
	CHECK_LINE(w, "OK RESIGN");
	tc_close(w);
	CHECK(one_line_error(ctl("kick", "nobody9", NULL)), "kick of no one: rc, %s", err);
	CHECK(strstr(err, "nobody9 is not online"), "kick of no one says %s", err);
	ok("kick: the player gets a reason line and is gone, its token resumes nothing; no one "
	   "online is an error");
}

/* A connection from src that HELLO refuses as banned, then closes: the
 * ERR line, or NULL when it was let in. */
static int
refused_at_hello(const char *src, int port, char *line, size_t n)
{
	struct tc *c = tc_open_from(src, port, NULL, 0, 0);
	if (!c) {
		snprintf(line, n, "(no connection)");
		return 0;
	}
	tc_send(c, "HELLO 1 tclient");
	const char *l = tc_read(c, 3000);
	snprintf(line, n, "%s", l ? l : "(nothing)");
	int yes = l && strncmp(l, "ERR 414 banned ", 15) == 0 && tc_closed(c, 3000);
	tc_close(c);
	return yes;
}

/* Issue 43: a ban of a guest's name (no duration: a day) sends it off and
 * revokes its token, and holds its name; its address is not banned with
 * it (an address may be shared: an account there still logs in). An
 * automatic address ban was tried and dropped: it kicked the admin and
 * every account behind the same address too. */
static void
test_guest_ban(void)
{
	struct tc *g = tc_open_from("127.0.0.3", d.port, NULL, 0, 1);
	REQUIRE(g, "no connection from 127.0.0.3");
	tc_send(g, "GUEST gina");
	REQUIRE(tc_expect(g, "OK GUEST gina ", 3000), "GUEST gina: %s", g->line);
	time_t before = time(NULL);
	REQUIRE(ctl("ban", "gina", NULL) == 0, "ban gina: %s", err);
	CHECK(tc_expect(g, "* KICKED banned until ", 3000) && tc_closed(g, 3000),
	    "the banned guest: %s", g->line);
	tc_close(g);
	REQUIRE(ctl("bans", NULL) == 0, "bans: %s", err);
	CHECK(strstr(out, "ban gina until ") && !strstr(out, "ban 127.0.0.3"),
	    "a guest's ban is its name alone: %s", out);
	/* the default for a guest is a day, not for good */
	char day[64];
	time_t end = before + 86400;
	struct tm tm;
	gmtime_r(&end, &tm);
	strftime(day, sizeof day, "until %Y-%m-%d", &tm);
	CHECK(strstr(out, day) && !strstr(out, "for good"), "a guest's ban is not a day: %s", out);
	struct tc *o = tc_open_from("127.0.0.3", d.port, NULL, 0, 1);
	CHECK(o, "the guest's address was refused at HELLO");
	if (o) {
		tc_send(o, "GUEST gina");
		CHECK(tc_expect(o, "ERR 414 ", 3000), "the banned name again: %s", o->line);
		tc_send(o, "GUEST");
		CHECK(
		    tc_expect(o, "OK GUEST ", 3000), "another guest from the address: %s", o->line);
		tc_close(o);
	}
	CHECK(ctl("unban", "gina", NULL) == 0, "unban gina: %s", err);
	ok("a ban of a guest (a day by default) holds its name; its address, maybe shared, is "
	   "not banned with it");
}

static void
test_bans(void)
{
	struct tc *m = account("REGISTER", "mallory");
	REQUIRE(m && strncmp(m->line, "OK ", 3) == 0, "no mallory: %s", m ? m->line : "");
	char token[80];
	snprintf(token, sizeof token, "%s", m->token);
	struct tc *o = tc_guest(d.port, "olga");
	char room[32];
	REQUIRE(o, "olga could not connect");
	REQUIRE(tc_pair(m, o, "freestyle 15 none", "casual", room, sizeof room) == 0,
	    "no game for mallory: %s", tc_why);

	REQUIRE(ctl("ban", "mallory", "2h", "flooding", "the", "lobby", NULL) == 0, "ban: %s", err);
	CHECK(strstr(out, "banned until ") && strstr(out, ": flooding the lobby"), "ban says %s",
	    out);
	CHECK(tc_expect(m, "* KICKED banned until ", 3000) && strstr(m->line, "flooding the lobby"),
	    "banned player's reason line: %s", m->line);
	CHECK(tc_closed(m, 3000), "the banned player stays connected");
	tc_close(m);
	CHECK(daemon_log_count(&d, "admin root: ban mallory banned until") == 1,
	    "the ban is not logged with who did it");

	struct tc *c = tc_open(d.port, 1);
	REQUIRE(c, "no connection");
	tc_send(c, "LOGIN mallory pass-mallory");
	CHECK(tc_expect(c, "ERR 414 banned banned until ", 3000) && strstr(c->line, "flooding"),
	    "LOGIN of a banned account: %s", c->line);
	/* the ban revoked her token (issue 43): it takes no seat back */
	tc_send(c, "RESUME %s %s 1", token, room);
	CHECK(tc_expect(c, "ERR 448 ", 3000), "RESUME of a banned player: %s", c->line);
	tc_send(c, "GUEST mallory");
	CHECK(tc_expect(c, "ERR 414 banned", 3000), "GUEST as a banned name: %s", c->line);
	REQUIRE(ctl("bans", NULL) == 0, "bans: %s", err);
	CHECK(strstr(out, "ban mallory until ") && strstr(out, "by root: flooding the lobby") &&
		strstr(out, "1 in force"),
	    "bans says %s", out);

	/* unbanned, mallory logs in, takes her seat back and plays; the old
	 * token still resumes nothing */
	REQUIRE(ctl("unban", "mallory", NULL) == 0, "unban: %s", err);
	tc_send(c, "RESUME %s %s 1", token, room);
	CHECK(tc_expect(c, "ERR 448 ", 3000), "RESUME after unban: %s", c->line);
	tc_send(c, "LOGIN mallory pass-mallory");
	CHECK(
	    tc_expect(c, "* SEATED ", 3000) && strstr(c->line, room), "LOGIN's seat: %s", c->line);
	REQUIRE(tc_expect(c, "OK LOGIN mallory ", 3000), "LOGIN after unban: %s", c->line);
	char tok2[80] = "";
	CHECK(sscanf(c->line, "OK LOGIN mallory %79s", tok2) == 1 && strlen(tok2) == 32 &&
		strcmp(tok2, token) != 0,
	    "LOGIN after a revoked token: %s", c->line);
	tc_send(c, "STATE %s", room);
	CHECK_LINE(c, "OK STATE");
	tc_send(c, "MOVE %s h8", room);
	CHECK(tc_expect(c, "OK MOVE", 3000), "an unbanned player cannot move: %s", c->line);
	tc_send(c, "RESIGN %s", room);
	CHECK_LINE(c, "OK RESIGN");
	tc_close(c);
	tc_close(o);
	/* bad input */
	CHECK(one_line_error(ctl("ban", "10.0.0.300/8", NULL)) && strstr(err, "not an IPv4"),
	    "a bad CIDR: %s", err);
	CHECK(one_line_error(ctl("ban", "10.0.0.0/33", NULL)), "a /33: %s", err);
	CHECK(one_line_error(ctl("ban", "mallory", "7x", NULL)) && strstr(err, "bad duration 7x"),
	    "a bad duration: %s", err);
	CHECK(one_line_error(ctl("ban", "mallory", "0d", NULL)), "a zero duration: %s", err);
	CHECK(one_line_error(ctl("ban", "nosuchuser", NULL)) && strstr(err, "no account"),
	    "ban of an unknown user: %s", err);
	CHECK(one_line_error(ctl("unban", "olga", NULL)) && strstr(err, "olga is not banned"),
	    "unban of one not banned: %s", err);

	/* by address: IPv4 CIDR, IPv6 address; the other family still comes in */
	struct tc *near = tc_guest(d.port, "nearby");
	REQUIRE(near, "no guest");
	REQUIRE(ctl("ban", "127.1.2.3/8", "30m", NULL) == 0, "ban CIDR: %s", err);
	/* the answer names what is banned: the canonical network (issue 41) */
	CHECK(strstr(out, "127.0.0.0/8 banned until"), "ban CIDR says %s", out);
	CHECK(tc_expect(near, "* KICKED banned until ", 3000) && tc_closed(near, 3000),
	    "a guest inside the banned network stays: %s", near->line);
	tc_close(near);
	char line[1100];
	CHECK(refused_at_hello("127.0.0.1", d.port, line, sizeof line) &&
		strstr(line, "ERR 414 banned this address is banned until "),
	    "HELLO from a banned network: %s", line);
	struct tc *v6 = tc_guest(-d.port6, "sixer");
	CHECK(v6 && strncmp(v6->line, "OK GUEST sixer", 14) == 0, "IPv6 guest refused by a v4 ban");
	REQUIRE(ctl("ban", "::1/127", "1d", "v6", NULL) == 0, "ban ::/127: %s", err);
	CHECK(v6 && tc_expect(v6, "* KICKED banned until ", 3000) && tc_closed(v6, 3000),
	    "the IPv6 guest online is not sent off");
	if (v6)
		tc_close(v6);
	CHECK(refused_at_hello("::1", -d.port6, line, sizeof line) &&
		strstr(line, "this address is banned"),
	    "HELLO over IPv6: %s", line);
	REQUIRE(ctl("bans", NULL) == 0, "bans: %s", err);
	CHECK(strstr(out, "ban 127.0.0.0/8 until") && strstr(out, "ban ::/127 until") &&
		strstr(out, "2 in force"),
	    "bans says %s", out);
	CHECK(ctl("unban", "127.0.0.0/8", NULL) == 0 && ctl("unban", "::1/127", NULL) == 0,
	    "unban of addresses: %s", err);

	ok("bans by name, IPv4 CIDR and IPv6 refuse GUEST, LOGIN and RESUME with the reason; "
	   "unbanned players play; bad CIDR, duration and unknown user are one-line errors");
}

static void
test_mute_motd_announce(void)
{
	struct tc *a = tc_guest(d.port, "chatty"), *b = tc_guest(d.port, "quiet");
	char room[32];
	REQUIRE(a && b, "chatty and quiet could not connect");
	REQUIRE(tc_pair(a, b, "freestyle 15 none", "casual", room, sizeof room) == 0, "no game: %s",
	    tc_why);
	REQUIRE(ctl("mute", "chatty", "10m", NULL) == 0, "mute: %s", err);
	tc_send(a, "SAY %s hello", room);
	CHECK(tc_expect(a, "ERR 415 muted muted until ", 3000), "SAY while muted: %s", a->line);
	tc_send(a, "TELL quiet psst");
	CHECK(tc_expect(a, "ERR 415 muted", 3000), "TELL while muted: %s", a->line);
	tc_send(b, "SAY %s hi", room);
	CHECK(tc_expect(b, "OK SAY", 3000), "the other player is muted too: %s", b->line);
	CHECK(one_line_error(ctl("mute", "chatty", "forever-ish", NULL)), "bad mute duration");
	REQUIRE(ctl("unmute", "chatty", NULL) == 0, "unmute: %s", err);
	tc_send(a, "SAY %s hello", room);
	CHECK(tc_expect(a, "OK SAY", 3000), "SAY after unmute: %s", a->line);
	CHECK(one_line_error(ctl("unmute", "chatty", NULL)), "unmute twice: %s", err);

	REQUIRE(ctl("announce", "restart", "in", "5", "minutes", NULL) == 0, "announce: %s", err);
	CHECK(strstr(out, "announced to 2 connections"), "announce says %s", out);
	CHECK(tc_expect(a, "* ANNOUNCE restart in 5 minutes", 3000) &&
		tc_expect(b, "* ANNOUNCE restart in 5 minutes", 3000),
	    "the announcement did not reach both: %s", b->line);
	CHECK(one_line_error(ctl("announce", NULL)), "an empty announcement: %s", err);

	REQUIRE(ctl("motd", "Welcome!", "Be", "kind.", NULL) == 0, "motd: %s", err);
	struct tc *c = tc_open(d.port, 0);
	REQUIRE(c, "no connection");
	CHECK(strncmp(c->line, "* SERVER ", 9) == 0, "greeting first: %s", c->line);
	CHECK(tc_read(c, 3000) && strcmp(c->line, "* MOTD Welcome! Be kind.") == 0,
	    "no MOTD after the greeting: %s", c->line);
	tc_close(c);
	REQUIRE(ctl("motd", NULL) == 0 && strcmp(out, "Welcome! Be kind.\n") == 0, "motd shows %s",
	    out);
	tc_close(a);
	tc_close(b);
	ok("mute refuses SAY and TELL with 415 until unmute; announce reaches everyone; the MOTD "
	   "follows the greeting");
}

static void
test_drain(void)
{
	struct tc *a = tc_guest(d.port, "dora"), *b = tc_guest(d.port, "dan");
	char room[32];
	REQUIRE(a && b, "dora and dan could not connect");
	REQUIRE(tc_pair(a, b, "freestyle 15 none", "casual", room, sizeof room) == 0, "no game: %s",
	    tc_why);
	struct tc *s = tc_guest(d.port, "seeker");
	REQUIRE(s, "no seeker");
	tc_send(s, "SEEK renju 15 none any casual none");
	REQUIRE_LINE(s, "OK SEEK");
	REQUIRE(ctl("drain", NULL) == 0, "drain: %s", err);
	CHECK(strstr(out, "draining: no new games; ") && strstr(out, " in progress play on"),
	    "drain says %s", out);
	CHECK(tc_expect(s, "* ANNOUNCE the server is draining", 3000), "seek not cancelled: %s",
	    s->line);
	tc_send(s, "SEEK renju 15 none any casual none");
	CHECK(tc_expect(s, "ERR 507 draining", 3000), "SEEK while draining: %s", s->line);
	tc_send(s, "BOT play 1 freestyle 15 none any none");
	CHECK(tc_expect(s, "ERR 507 draining", 3000), "BOT while draining: %s", s->line);
	tc_send(a, "MOVE %s h8", room);
	CHECK(tc_expect(a, "OK MOVE", 3000), "the running game stopped: %s", a->line);
	REQUIRE(ctl("status", NULL) == 0, "status: %s", err);
	CHECK(strstr(out, "draining yes") && !strstr(out, "games 0\n"), "status: %s", out);
	REQUIRE(ctl("undrain", NULL) == 0, "undrain: %s", err);
	tc_send(s, "SEEK renju 15 none any casual none");
	CHECK(tc_expect(s, "OK SEEK", 3000), "SEEK after undrain: %s", s->line);
	tc_close(s);
	tc_close(a);
	tc_close(b);
	ok("drain: no new games or seeks, the running game plays on, status says so; undrain");
}

/* A drain on a daemon of its own: the last game's end is logged as the
 * moment a restart interrupts no one; SIGTERM then stops it cleanly. */
static void
test_drain_to_empty(void)
{
	struct daemon e;
	char keep[sizeof sock];
	REQUIRE(daemon_start(&e, GOMOKUD_BIN, NULL) == 0, "no second daemon (%s)", e.log);
	memcpy(keep, sock, sizeof keep);
	snprintf(sock, sizeof sock, "%s/state/gomokud.ctl", e.dir);
	struct tc *a = tc_guest(e.port, "ema"), *b = tc_guest(e.port, "eli");
	char room[32];
	if (a && b && tc_pair(a, b, "freestyle 15 none", "casual", room, sizeof room) == 0) {
		CHECK(ctl("drain", NULL) == 0 && strstr(out, "1 in progress"), "drain: %s%s", out,
		    err);
		CHECK(daemon_log_count(&e, "drained: no game in progress") == 0,
		    "drained with a game running");
		tc_send(a, "RESIGN %s", room);
		CHECK(tc_expect(a, "OK RESIGN", 3000), "resign: %s", a->line);
		CHECK(daemon_wait_log(&e, "drained: no game in progress", 0, 3000),
		    "the drain's end is not logged");
		CHECK(ctl("status", NULL) == 0 && strstr(out, "games 0\n") &&
			strstr(out, "draining yes"),
		    "status after the drain: %s", out);
	} else {
		CHECK(0, "no game on the second daemon: %s", a && b ? tc_why : "no connection");
	}
	tc_close(a);
	tc_close(b);
	CHECK(daemon_stop(&e, SIGTERM, 5000) == 0, "SIGTERM after a drain: not a clean exit");
	memcpy(sock, keep, sizeof keep);
	char cmd[200];
	snprintf(cmd, sizeof cmd, "rm -rf %s", e.dir);
	if (system(cmd) != 0)
		printf("could not remove %s\n", e.dir);
	ok("drain: the end of the last game is logged; SIGTERM then exits 0");
}

static void
test_reload_log_level(void)
{
	int n = daemon_log_count(&d, "reloaded configuration");
	REQUIRE(ctl("reload", NULL) == 0, "reload: %s", err);
	CHECK(daemon_log_count(&d, "reloaded configuration") == n + 1, "reload did not reload");
	CHECK(daemon_log_count(&d, "admin root: reload") >= 1, "reload not logged");
	REQUIRE(ctl("log-level", "warn", NULL) == 0, "log-level: %s", err);
	struct tc *c = tc_guest(d.port, "quietlog");
	int guests = daemon_log_count(&d, "guest quietlog");
	CHECK(guests == 0, "info lines logged at warn");
	tc_close(c);
	REQUIRE(ctl("log-level", "info", NULL) == 0, "log-level: %s", err);
	CHECK(one_line_error(ctl("log-level", "loud", NULL)), "a bad level: %s", err);
	ok("reload re-reads the config; log-level changes what is logged; a bad level is refused");
}

static void
test_protocol_admins(void)
{
	struct tc *al = account("REGISTER", "alice"), *bo = account("REGISTER", "bob");
	REQUIRE(al && bo, "no accounts");
	tc_send(bo, "KICK alice");
	CHECK(tc_expect(bo, "ERR 416 not-admin", 3000), "KICK by a non-admin: %s", bo->line);
	tc_send(bo, "BANS");
	CHECK(tc_expect(bo, "ERR 416 not-admin", 3000), "BANS by a non-admin: %s", bo->line);
	tc_send(al, "MUTE bob 1h");
	CHECK(tc_expect(al, "OK MUTE bob", 3000), "MUTE by an admin: %s", al->line);
	tc_send(al, "BAN 203.0.113.0/24 7d spam");
	CHECK(tc_expect(al, "OK BAN 203.0.113.0/24", 3000), "BAN by an admin: %s", al->line);
	tc_send(al, "BAN bob 7x");
	CHECK(tc_expect(al, "ERR 402 bad-argument bad duration 7x", 3000), "bad BAN: %s", al->line);
	tc_send(al, "BANS");
	CHECK(tc_expect(al, "= BAN ban 203.0.113.0/24 ", 3000) && strstr(al->line, " alice spam"),
	    "BANS lines: %s", al->line);
	CHECK(tc_expect(al, "= BAN mute bob ", 3000), "BANS mute line: %s", al->line);
	CHECK(tc_expect(al, "OK BANS 2", 3000), "BANS end: %s", al->line);
	CHECK(daemon_log_count(&d, "admin alice: ban 203.0.113.0/24") == 1,
	    "protocol admin's ban not logged with the account");
	tc_send(al, "ANNOUNCE hi all");
	CHECK(tc_expect(al, "* ANNOUNCE hi all", 3000) && tc_expect(al, "OK ANNOUNCE ", 3000),
	    "ANNOUNCE: %s", al->line);
	tc_send(al, "MOTD -");
	CHECK(tc_expect(al, "OK MOTD", 3000), "MOTD -: %s", al->line);
	tc_send(al, "UNMUTE bob");
	CHECK(tc_expect(al, "OK UNMUTE bob", 3000), "UNMUTE: %s", al->line);
	tc_send(al, "UNBAN 203.0.113.0/24");
	CHECK(tc_expect(al, "OK UNBAN 203.0.113.0/24", 3000), "UNBAN: %s", al->line);
	/* the answers name the target as kept, whatever form was typed */
	tc_send(al, "BAN ::ffff:203.0.113.9 1h");
	CHECK(tc_expect(al, "OK BAN 203.0.113.9", 3000), "BAN in the mapped form: %s", al->line);
	tc_send(al, "UNBAN ::ffff:203.0.113.9");
	CHECK(
	    tc_expect(al, "OK UNBAN 203.0.113.9", 3000), "UNBAN in the mapped form: %s", al->line);
	tc_send(al, "BAN 2001:db8::7 1h");
	CHECK(tc_expect(al, "OK BAN 2001:db8::/64", 3000), "BAN of an IPv6 address: %s", al->line);
	tc_send(al, "UNBAN 2001:db8::7");
	CHECK(tc_expect(al, "OK UNBAN 2001:db8::/64", 3000), "UNBAN of an IPv6 address: %s",
	    al->line);
	tc_send(al, "KICK bob be nice");
	CHECK(tc_expect(al, "OK KICK bob", 3000), "KICK by an admin: %s", al->line);
	CHECK(tc_expect(bo, "* KICKED kicked: be nice", 3000) && tc_closed(bo, 3000),
	    "bob not kicked: %s", bo->line);
	struct tc *c = tc_open(d.port, 0);
	REQUIRE(c, "no connection");
	CHECK(tc_read(c, 1000) == NULL || strncmp(c->line, "* MOTD", 6) != 0,
	    "MOTD still sent after MOTD -");
	tc_close(c);
	tc_close(al);
	tc_close(bo);
	ok("admins of the config KICK, BAN, BANS, MUTE, UNMUTE, UNBAN, ANNOUNCE, MOTD; others 416");
}

static void
test_bad_control_lines(void)
{
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	snprintf(sun.sun_path, sizeof sun.sun_path, "%.100s", sock);
	REQUIRE(fd >= 0 && connect(fd, (struct sockaddr *)&sun, sizeof sun) == 0, "connect");
	const char garbage[] = "sta\x01tus\n";
	CHECK(write(fd, garbage, sizeof garbage - 1) > 0, "write");
	char buf[2048];
	usleep(200000);
	ssize_t n = read(fd, buf, sizeof buf - 1);
	buf[n > 0 ? n : 0] = '\0';
	CHECK(strncmp(buf, "ERR not a line of UTF-8", 23) == 0, "garbage: %s", buf);
	char big[2000];
	memset(big, 'a', sizeof big);
	CHECK(write(fd, big, sizeof big) > 0, "write");
	usleep(200000);
	n = read(fd, buf, sizeof buf - 1);
	buf[n > 0 ? n : 0] = '\0';
	CHECK(strncmp(buf, "ERR line too long", 17) == 0, "overlong: %s", buf);
	usleep(100000);
	CHECK(read(fd, buf, sizeof buf) == 0, "not closed after an overlong line");
	close(fd);
	CHECK(one_line_error(ctl("status", "extra", NULL)) && strstr(err, "usage: status"),
	    "extra words: %s", err);
	CHECK(one_line_error(ctl("nodes", NULL)) && strstr(err, "not a node of a cluster"),
	    "nodes without a cluster: %s", err);
	ok("garbage and overlong control lines are refused, the overlong one closes; nodes "
	   "without a cluster says so");
}

/* As uid 65534 through a socket opened to everyone: SO_PEERCRED refuses. */
static void
test_other_uid(void)
{
	if (geteuid() != 0) {
		/* no other uid to connect as: the rule the daemon applies, alone */
		CHECK(control_peer_allowed(0, 1000) && control_peer_allowed(1000, 1000) &&
			!control_peer_allowed(65534, 1000) && !control_peer_allowed(1001, 1000),
		    "control_peer_allowed");
		ok("not root: no other uid to connect as, so only the peer rule is checked "
		   "(root and the daemon's user; run as root for the real refusal)");
		return;
	}
	REQUIRE(chmod(d.dir, 0755) == 0 && chmod(state, 0755) == 0 && chmod(sock, 0666) == 0,
	    "chmod: %s", strerror(errno));
	int n = daemon_log_count(&d, "control: refused a connection from uid 65534");
	pid_t pid = fork();
	if (pid == 0) {
		if (setgid(65534) != 0 || setuid(65534) != 0)
			_exit(3);
		int fd = socket(AF_UNIX, SOCK_STREAM, 0);
		struct sockaddr_un sun = { .sun_family = AF_UNIX };
		snprintf(sun.sun_path, sizeof sun.sun_path, "%.100s", sock);
		if (connect(fd, (struct sockaddr *)&sun, sizeof sun) != 0)
			_exit(4);
		if (write(fd, "status\n", 7) != 7) {
			/* the daemon may have closed already: read what it said */
		}
		char buf[256];
		ssize_t r = read(fd, buf, sizeof buf - 1);
		buf[r > 0 ? r : 0] = '\0';
		_exit(strncmp(buf, "ERR permission denied", 21) == 0 ? 0 : 5);
	}
	int st;
	waitpid(pid, &st, 0);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "uid 65534 was not refused (child %d)",
	    WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	CHECK(daemon_log_count(&d, "control: refused a connection from uid 65534") == n + 1,
	    "the refusal is not logged");
	chmod(sock, 0600);
	chmod(state, 0700);
	chmod(d.dir, 0700);
	ok("the control socket refuses another uid by SO_PEERCRED");
}

/* The admin block of docs/operations.md, command by command; mallory is online
 * (again) before a kick, as the commands assume. */
static void
test_readme_commands(void)
{
	FILE *f = fopen("docs/operations.md", "r");
	REQUIRE(f, "docs/operations.md not found (run from the top of the tree)");
	char line[600];
	int in = 0, ran = 0;
	struct tc *m = NULL;
	setenv("GOMOKUCTL_SOCKET", sock, 1);
	while (fgets(line, sizeof line, f)) {
		line[strcspn(line, "\n")] = '\0';
		if (strstr(line, "<!-- admin-commands -->")) {
			in = 1;
			continue;
		}
		if (in && strstr(line, "<!-- /admin-commands -->"))
			break;
		char *cmd = strstr(line, "gomokuctl ");
		if (!in || !cmd || line[0] == '#' || strncmp(line, "```", 3) == 0)
			continue;
		char *hash = strstr(cmd, "  #");
		if (hash)
			*hash = '\0';
		if (strstr(cmd, "ctl kick ") && (!m || tc_closed(m, 1))) {
			if (m)
				tc_close(m);
			m = account("LOGIN", "mallory");
			REQUIRE(m && strncmp(m->line, "OK LOGIN", 8) == 0,
			    "mallory cannot log in: %s", m ? m->line : "");
		}
		/* this build's gomokuctl; the installed state directory is the test's */
		char run[1200], *args = cmd + strlen("gomokuctl"),
				*at = strstr(args, "/var/lib/gomokud");
		if (at)
			snprintf(run, sizeof run, "%s%.*s%s%s", GOMOKUCTL_BIN, (int)(at - args),
			    args, state, at + strlen("/var/lib/gomokud"));
		else
			snprintf(run, sizeof run, "%s%s", GOMOKUCTL_BIN, args);
		strncat(run, " > /dev/null", sizeof run - strlen(run) - 1);
		int rc = system(run);
		CHECK(rc == 0, "an admin command of docs/operations.md failed (%d): %s", rc, run);
		ran++;
	}
	fclose(f);
	if (m)
		tc_close(m);
	unsetenv("GOMOKUCTL_SOCKET");
	CHECK(
	    ran >= 15, "the admin block of docs/operations.md has only %d gomokuctl commands", ran);
	printf("ok the %d admin commands of docs/operations.md run against the daemon\n", ran);
}

/* backup FILE while the daemon serves; a fresh state directory holding the
 * copy serves every account, rating and finished game. */
static void
test_backup_restore(void)
{
	struct tc *b = account("REGISTER", "rita"), *w = account("REGISTER", "walt");
	char room[32], stats_b[1024], stats_w[1024], hist[1024];
	REQUIRE(b && w, "rita and walt could not register");
	REQUIRE(tc_pair(b, w, "freestyle 15 none", "rated", room, sizeof room) == 0 &&
		tc_play_five(b, w, room, NULL) == 0,
	    "no rated game: %s", tc_why);
	tc_send(b, "STATS");
	REQUIRE(tc_expect(b, "= STAT rita freestyle ", 3000), "no rating: %s", b->line);
	snprintf(stats_b, sizeof stats_b, "%s", b->line);
	tc_send(w, "STATS");
	REQUIRE(tc_expect(w, "= STAT walt freestyle ", 3000), "no rating: %s", w->line);
	snprintf(stats_w, sizeof stats_w, "%s", w->line);
	tc_send(b, "HISTORY rita");
	REQUIRE(tc_expect(b, "= GAME ", 3000), "no history: %s", b->line);
	snprintf(hist, sizeof hist, "%s", b->line);
	tc_close(b);
	tc_close(w);

	char file[300], rel[300];
	snprintf(file, sizeof file, "%s/back up.db", d.dir); /* a space: the rest of the line */
	snprintf(rel, sizeof rel, "%s/gomokud.db", state);
	CHECK(one_line_error(ctl("backup", rel, NULL)) && strstr(err, "live database"),
	    "backup onto the live database: %s", err);
	CHECK(one_line_error(ctl("backup", NULL)) && strstr(err, "usage: backup FILE"),
	    "backup without a file: %s", err);
	CHECK(one_line_error(ctl("backup", "/nonexistent/dir/b.db", NULL)),
	    "backup into no dir: %s", err);
	REQUIRE(ctl("backup", file, NULL) == 0, "backup: %s", err);
	struct stat sb;
	REQUIRE(stat(file, &sb) == 0, "no backup file");
	char want[400];
	snprintf(want, sizeof want, "backup %s %lld bytes\n", file, (long long)sb.st_size);
	CHECK(strcmp(out, want) == 0, "backup says %s (want %s)", out, want);
	CHECK((sb.st_mode & 0777) == 0600, "the backup is mode %o", (unsigned)(sb.st_mode & 0777));

	/* restore: the steps of docs/operations.md, into a fresh directory */
	struct daemon *r = &restored;
	char dir[200], cmd[800], conf[300];
	snprintf(dir, sizeof dir, "%s/restored", d.dir);
	snprintf(cmd, sizeof cmd, "mkdir -m 700 %s && cp '%s' %s/gomokud.db", dir, file, dir);
	REQUIRE(system(cmd) == 0, "restore copy");
	snprintf(conf, sizeof conf, "state-dir %s", dir);
	REQUIRE(
	    daemon_start(r, GOMOKUD_BIN, conf) == 0, "no daemon on the restored copy (%s)", r->log);
	struct tc *c = tc_open(r->port, 1);
	REQUIRE(c, "no connection");
	tc_send(c, "LOGIN rita pass-rita");
	CHECK(tc_expect(c, "OK LOGIN rita ", 5000), "rita lost: %s", c->line);
	tc_send(c, "STATS");
	CHECK(tc_expect(c, "= STAT rita freestyle", 3000) && strcmp(c->line, stats_b) == 0,
	    "rita's rating: %s, was %s", c->line, stats_b);
	tc_send(c, "STATS walt");
	CHECK(tc_expect(c, "= STAT walt freestyle", 3000) && strcmp(c->line, stats_w) == 0,
	    "walt's rating: %s, was %s", c->line, stats_w);
	tc_send(c, "HISTORY rita");
	CHECK(tc_expect(c, "= GAME ", 3000) && strcmp(c->line, hist) == 0, "the game: %s, was %s",
	    c->line, hist);
	tc_close(c);
	c = tc_open(r->port, 1);
	tc_send(c, "LOGIN alice pass-alice");
	CHECK(c && tc_expect(c, "OK LOGIN alice ", 5000), "alice lost: %s", c ? c->line : "");
	tc_close(c);
	CHECK(daemon_stop(r, SIGTERM, 5000) == 0, "restored daemon did not stop cleanly");
	ok("backup while serving; a fresh state directory with the copy has every account, "
	   "rating and game");
}

/* The copy is renamed over its target: never over the lock file, the
 * control socket or another file of the state directory (issue 41, L3). */
static void
test_backup_refusals(void)
{
	char lock[300], other[300], before[64], after[64];
	snprintf(lock, sizeof lock, "%s/gomokud.lock", state);
	slurp(lock, before, sizeof before);
	CHECK(one_line_error(ctl("backup", lock, NULL)) && strstr(err, "lock file"),
	    "backup onto the lock file: %s", err);
	slurp(lock, after, sizeof after);
	CHECK(before[0] && strcmp(before, after) == 0, "the lock file changed: %s, was %s", after,
	    before);
	CHECK(one_line_error(ctl("backup", sock, NULL)) && strstr(err, "control socket"),
	    "backup onto the control socket: %s", err);
	struct stat sb;
	CHECK(stat(sock, &sb) == 0 && S_ISSOCK(sb.st_mode), "the control socket is gone");
	snprintf(other, sizeof other, "%s/notes.txt", state);
	FILE *f = fopen(other, "w");
	REQUIRE(f, "cannot write %s", other);
	fputs("mine\n", f);
	fclose(f);
	CHECK(one_line_error(ctl("backup", other, NULL)) && strstr(err, "state directory"),
	    "backup onto a file of the state directory: %s", err);
	slurp(other, after, sizeof after);
	CHECK(strcmp(after, "mine\n") == 0, "the file changed: %s", after);
	unlink(other);
	CHECK(ctl("status", NULL) == 0, "the daemon stopped answering: %s", err);
	/* a second daemon told to use this socket refuses to start, and
	 * neither unlinks it then nor at its exit */
	char conf[400];
	struct daemon two;
	snprintf(conf, sizeof conf, "control-socket %s", sock);
	CHECK(daemon_start(&two, GOMOKUD_BIN, conf) != 0, "a second daemon started on the socket");
	daemon_stop(&two, SIGTERM, 5000);
	CHECK(daemon_log_count(&two, "another daemon answers on it") == 1,
	    "the second daemon did not say why (%s)", two.log);
	CHECK(stat(sock, &sb) == 0 && S_ISSOCK(sb.st_mode) && ctl("status", NULL) == 0,
	    "the first daemon's socket is gone after the second: %s", err);
	ok("backup refuses the lock file, the control socket and an existing file of the state "
	   "directory, and leaves them as they were; a second daemon leaves a live socket alone");
}

/* A state directory made beforehand 0755 (as packaging does), umask 022:
 * the database and its -wal and -shm are still 0600 (issue 41, L6). */
static void
test_private_db(void)
{
	char base[] = "/tmp/gomokud-test.XXXXXX", dir[200], conf[300], f[300];
	REQUIRE(tc_mkdtemp(base), "no temp dir");
	snprintf(dir, sizeof dir, "%s/state", base);
	REQUIRE(mkdir(dir, 0755) == 0 && chmod(dir, 0755) == 0, "cannot make %s", dir);
	snprintf(conf, sizeof conf, "state-dir %s\ncontrol-socket none", dir);
	mode_t old = umask(022);
	struct daemon p;
	int rc = daemon_start(&p, GOMOKUD_BIN, conf);
	umask(old);
	REQUIRE(rc == 0, "no daemon on a pre-made 0755 state directory (%s)", p.log);
	struct tc *c = tc_open(p.port, 1);
	REQUIRE(c, "no connection");
	tc_send(c, "REGISTER pat pass-pat-long");
	CHECK(tc_expect(c, "OK REGISTER", 5000), "no account: %s", c->line);
	tc_close(c);
	static const char *const sfx[] = { "", "-wal", "-shm" };
	for (int i = 0; i < 3; i++) {
		struct stat sb;
		snprintf(f, sizeof f, "%s/gomokud.db%s", dir, sfx[i]);
		CHECK(stat(f, &sb) == 0, "no %s", f);
		CHECK(
		    (sb.st_mode & 0777) == 0600, "%s is mode %o", f, (unsigned)(sb.st_mode & 0777));
	}
	CHECK(daemon_stop(&p, SIGTERM, 5000) == 0, "the daemon did not stop cleanly");
	ok("the database, its -wal and -shm are 0600 in a pre-made 0755 state directory");
}

/* The store keeps bans, mutes and the MOTD: a restart on the same state. */
static void
test_restart_keeps(void)
{
	REQUIRE(ctl("ban", "mallory", "1d", "again", NULL) == 0, "ban: %s", err);
	REQUIRE(ctl("mute", "alice", "forever", NULL) == 0, "mute: %s", err);
	REQUIRE(ctl("motd", "kept", NULL) == 0, "motd: %s", err);
	REQUIRE(ctl("drain", NULL) == 0, "drain: %s", err);
	CHECK(daemon_stop(&d, SIGTERM, 5000) == 0, "SIGTERM while draining: not a clean exit");
	CHECK(one_line_error(ctl("status", NULL)) && strstr(err, "no control socket"),
	    "gomokuctl against a stopped daemon: %s", err);
	char conf[300];
	snprintf(conf, sizeof conf, "state-dir %s\nadmins alice", state);
	REQUIRE(daemon_start(&d, GOMOKUD_BIN, conf) == 0, "restart failed");
	REQUIRE(ctl("bans", NULL) == 0, "bans: %s", err);
	CHECK(strstr(out, "ban mallory until") && strstr(out, "mute alice for good"),
	    "bans after restart: %s", out);
	struct tc *c = tc_open(d.port, 0);
	REQUIRE(c, "no connection");
	CHECK(tc_read(c, 3000) && strcmp(c->line, "* MOTD kept") == 0, "MOTD after restart: %s",
	    c->line);
	tc_send(c, "HELLO 1");
	tc_send(c, "LOGIN mallory pass-mallory");
	CHECK(tc_expect(c, "ERR 414 banned", 3000), "ban lost in restart: %s", c->line);
	tc_close(c);
	/* after kill -9 the socket file stays: refused, and said so */
	CHECK(daemon_stop(&d, SIGKILL, 5000) >= 0, "kill");
	CHECK(one_line_error(ctl("status", NULL)) && strstr(err, "connection refused"),
	    "gomokuctl against a dead daemon's socket: %s", err);
	snprintf(sock, sizeof sock, "%s/nothing-here.ctl", first_dir);
	CHECK(one_line_error(ctl("status", NULL)), "a wrong socket: %s", err);
	ok("bans, mutes and the MOTD survive a restart; stopped, killed and wrong sockets are "
	   "one-line errors");
}

/* tourney: the server's own events, made, listed and cancelled by an
 * admin; a TCREATE's refusal said in one line; TLIST shows the event. */
static void
test_tourney(void)
{
	REQUIRE(ctl("tourney", "create", "arena", "freestyle", "15", "60+0", "none", "casual",
		    "both", "600", "30", "Evening", NULL) == 0,
	    "tourney create: %s %s", out, err);
	long id = 0;
	CHECK(sscanf(out, "tournament %ld", &id) == 1 && id > 0, "tourney create says %s", out);
	CHECK(ctl("tourney", "list", NULL) == 0, "tourney list: %s", err);
	char want[80];
	snprintf(
	    want, sizeof want, "TOURNEY %ld arena soon freestyle 15 60+0 none casual both ", id);
	CHECK(strstr(out, want) && strstr(out, " - Evening") && strstr(out, "1 tournament"),
	    "tourney list says %s", out);
	struct tc *g = tc_guest(d.port, "seer");
	REQUIRE(g, "connect");
	tc_send(g, "TLIST");
	snprintf(want, sizeof want, "= TOURNEY %ld arena soon ", id);
	CHECK(tc_expect(g, want, LINE_MS), "TLIST does not show it: %s", g->line);
	CHECK(one_line_error(ctl("tourney", "create", "arena", "freestyle", "15", "none", "none",
		  "casual", "both", "600", "30", NULL)),
	    "no clock: %s", err);
	CHECK(strstr(err, "clocks"), "no clock says %s", err);
	CHECK(one_line_error(ctl("tourney", "create", "marathon", NULL)), "a bad kind: %s", err);
	char idw[24];
	snprintf(idw, sizeof idw, "%ld", id);
	CHECK(ctl("tourney", "cancel", idw, NULL) == 0 && strstr(out, "cancelled"),
	    "tourney cancel: %s %s", out, err);
	CHECK(one_line_error(ctl("tourney", "cancel", idw, NULL)) && strstr(err, "over"),
	    "a second cancel: %s", err);
	tc_close(g);
	ok("tourney: the server's event made, listed (and in TLIST), refused in one line, "
	   "cancelled once");
}

static void
run(void)
{
	REQUIRE(daemon_start(&d, GOMOKUD_BIN, "listen [::1]:0\nadmins alice") == 0,
	    "daemon did not start (%s)", d.log);
	char dir[200];
	snprintf(first_dir, sizeof first_dir, "%s", d.dir);
	snprintf(dir, sizeof dir, "%s/state", d.dir);
	paths_for(dir);
	snprintf(outp, sizeof outp, "%s/ctl.out", d.dir);
	snprintf(errp, sizeof errp, "%s/ctl.err", d.dir);
	struct stat sb;
	CHECK(stat(sock, &sb) == 0 && S_ISSOCK(sb.st_mode) && (sb.st_mode & 0777) == 0600 &&
		sb.st_uid == geteuid(),
	    "the control socket is not a 0600 socket of the daemon's user");

	test_status_who_rooms();
	test_kick();
	test_bans();
	test_guest_ban();
	test_mute_motd_announce();
	test_tourney();
	test_drain();
	test_drain_to_empty();
	test_reload_log_level();
	test_protocol_admins();
	test_bad_control_lines();
	test_other_uid();
	test_backup_restore();
	test_backup_refusals();
	test_private_db();
	test_readme_commands();
	test_restart_keeps();
}

int
main(void)
{
	signal(SIGPIPE, SIG_IGN);
	run();
	if (daemon_alive(&d))
		daemon_stop(&d, SIGTERM, 5000);
	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf %s %s %s", first_dir, d.dir, restored.dir);
	if (system(cmd) != 0)
		printf("could not remove the test directories\n");
	printf("%s\n", failures ? "FAILED" : "all passed");
	return failures ? 1 : 0;
}
