/*
 * unit_engines.c: the player's side of tests/systemd/test_unit_engines.sh,
 * where gomokud runs under the shipped unit in a container that shares the
 * host's network and its view of processes from outside.
 *
 *   unit_engines --free-port      prints a loopback port nobody listens on
 *   unit_engines --greeting PORT  prints the server's greeting
 *   unit_engines --register PORT NAME PASSWORD
 *                                 makes the account
 *   unit_engines --bot PORT NAME BRAIN
 *                                 challenges NAME, gomoku-bot under its
 *                                 example unit, and plays the game out,
 *                                 checking its brain as 'ours''s
 *   unit_engines PORT BRAIN       plays the hosted engine 'ours' (BRAIN is
 *                                 its program's path as the config names
 *                                 it) and then 'probe'
 *
 * Against 'ours': after its first move, its brain process is found by
 * that path (/proc/PID/cmdline) and what the kernel says of it is checked:
 * the server is its parent, it runs as the server's (dynamic) user, in the
 * unit's cgroup, with no_new_privs, under more seccomp filters than the
 * server (the unit's and the sandbox's), without core dumps and with the
 * address space the config's memory gives. Then the game is played to its
 * end. Against 'probe' (tests/bot/fixture_brain probe-refuse): the human's
 * first move, and the game must end in the engine's forfeit; the script
 * reads what it found in the server's journal.
 */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LINE_MS 20000
#include "tests/daemon/check.h"
#include "tests/daemon/tclient.h"

/* The engines' memory in the script's config (MiB): the brain's address
 * space is twice that and 512 MiB more (bot/brain.c). */
#define ENGINE_MEMORY 256

/* The first line of /proc/pid/file that starts with key, its rest (spaces
 * skipped) into out; 0, or -1. */
static int
proc_field(int pid, const char *file, const char *key, char *out, size_t n)
{
	char path[64], line[512];
	snprintf(path, sizeof path, "/proc/%d/%s", pid, file);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	int rc = -1;
	size_t k = strlen(key);
	while (fgets(line, sizeof line, f))
		if (strncmp(line, key, k) == 0) {
			const char *v = line + k;
			while (*v == ' ' || *v == '\t')
				v++;
			snprintf(out, n, "%s", v);
			out[strcspn(out, "\n")] = 0;
			rc = 0;
			break;
		}
	fclose(f);
	return rc;
}

static long
proc_long(int pid, const char *key)
{
	char v[128];
	return proc_field(pid, "status", key, v, sizeof v) == 0 ? atol(v) : -1;
}

/* Process pid's argv[0] into buf ("" when it is gone). */
static void
proc_argv0(int pid, char *buf, size_t n)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/%d/cmdline", pid);
	FILE *f = fopen(path, "r");
	size_t got = f ? fread(buf, 1, n - 1, f) : 0;
	if (f)
		fclose(f);
	buf[got] = 0; /* cmdline's NULs: argv[0] is its first string */
}

/* The processes whose argv[0] is prog: how many, the first into *pid. */
static int
find_prog(const char *prog, int *pid)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int n = 0;
	if (!d)
		return 0;
	while ((e = readdir(d))) {
		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		char argv0[512];
		proc_argv0(atoi(e->d_name), argv0, sizeof argv0);
		if (strcmp(argv0, prog) == 0 && n++ == 0)
			*pid = atoi(e->d_name);
	}
	closedir(d);
	return n;
}

/* The brain running brain (its path), child of a program whose argv[0]
 * ends in /parent, run by unit. */
static void
check_brain(const char *brain, const char *parent, const char *unit)
{
	int pid = 0, n = find_prog(brain, &pid);
	REQUIRE(n == 1, "%d processes run %s (one brain for the game expected)", n, brain);
	int server = (int)proc_long(pid, "PPid:");
	char argv0[256], cg[256] = "", lim[256] = "";
	FILE *f;
	char path[64];
	proc_argv0(server, argv0, sizeof argv0);
	const char *base = strrchr(argv0, '/');
	REQUIRE(base && strcmp(base + 1, parent) == 0, "the brain's parent (%d) runs '%s', not %s",
	    server, argv0, parent);
	char uid[128], suid[128];
	REQUIRE(proc_field(pid, "status", "Uid:", uid, sizeof uid) == 0 &&
		proc_field(server, "status", "Uid:", suid, sizeof suid) == 0,
	    "no Uid line");
	REQUIRE(strcmp(uid, suid) == 0 && atol(uid) > 0,
	    "the brain runs as uid '%s', the server '%s'", uid, suid);
	/* every line of the file: the unit's cgroup shows in the systemd one */
	snprintf(path, sizeof path, "/proc/%d/cgroup", pid);
	REQUIRE((f = fopen(path, "r")), "no cgroup");
	int in_unit = 0;
	char want_cg[96], line[512];
	snprintf(want_cg, sizeof want_cg, "/%s", unit);
	while (fgets(line, sizeof line, f)) {
		if (!cg[0])
			snprintf(cg, sizeof cg, "%.*s", (int)strcspn(line, "\n"), line);
		in_unit |= strstr(line, want_cg) != NULL;
	}
	fclose(f);
	REQUIRE(in_unit, "the brain is not in %s's cgroup (%s)", unit, cg);
	long nnp = proc_long(pid, "NoNewPrivs:"), mode = proc_long(pid, "Seccomp:");
	long filters = proc_long(pid, "Seccomp_filters:"),
	     sfilters = proc_long(server, "Seccomp_filters:");
	REQUIRE(nnp == 1 && mode == 2, "the brain's NoNewPrivs %ld, Seccomp %ld", nnp, mode);
	REQUIRE(sfilters > 0 && filters >= sfilters + 2,
	    "the brain has %ld seccomp filters, the server %ld: not the unit's and its own",
	    filters, sfilters);
	/* /proc/PID/limits: "Max address space  <soft> <hard> bytes" */
	REQUIRE(proc_field(pid, "limits", "Max address space", lim, sizeof lim) == 0, "no limits");
	long long as = atoll(lim), want = (2LL * ENGINE_MEMORY + 512) << 20;
	REQUIRE(as == want, "the brain's address space is '%s', not %lld", lim, want);
	REQUIRE(proc_field(pid, "limits", "Max core file size", lim, sizeof lim) == 0 &&
		atoll(lim) == 0,
	    "the brain may dump core: '%s'", lim);
	printf("the brain under %s: pid %d, child of %s %d, uid %ld (the unit's dynamic user), in "
	       "its cgroup, NoNewPrivs 1, %ld seccomp filters over its parent's %ld, %lld MiB of "
	       "address space, no core\n",
	    unit, pid, parent, server, atol(uid), filters, sfilters, as >> 20);
}

static void
play_ours(int port, const char *brain)
{
	struct tc *c = tc_open(port, 0);
	REQUIRE(c, "connect to 127.0.0.1:%d", port);
	REQUIRE(strstr(c->line, " engines=ours,probe"), "greeting: %s", c->line);
	tc_close(c);
	c = tc_guest(port, "player");
	REQUIRE(c, "guest");
	char room[24];
	tc_send(c, "BOT play ours freestyle 15 none black none");
	REQUIRE_LINE(c, "OK BOT");
	REQUIRE(sscanf(c->line, "OK BOT %23s", room) == 1, "%s", c->line);
	struct tc_botgame g;
	tc_bot_init(&g, c, room, 1);
	REQUIRE(tc_bot_human(&g) == 0 && !g.over, "the first move: %s", tc_why);
	REQUIRE(tc_bot_wait(&g) == 1, "the brain did not move under the unit: %s", tc_why);
	check_brain(brain, "gomokud", "gomokud.service");
	REQUIRE(tc_bot_play_out(&g) == 0, "%s", tc_why);
	REQUIRE(g.over && g.bot_moves > 3, "no end: %d bot moves", g.bot_moves);
	printf("a whole game against 'ours' (pbrain-gomoku) under the unit: %d moves, %s\n",
	    g.moves, g.over_line);
	tc_close(c);
}

static void
play_probe(int port)
{
	struct tc *c = tc_guest(port, "prober");
	char room[24];
	REQUIRE(c, "guest");
	tc_send(c, "BOT play probe freestyle 15 none black none");
	REQUIRE_LINE(c, "OK BOT");
	REQUIRE(sscanf(c->line, "OK BOT %23s", room) == 1, "%s", c->line);
	tc_send(c, "MOVE %s h8", room);
	REQUIRE_LINE(c, "OK MOVE");
	const char *l = tc_expect(c, "* OVER", 30000);
	REQUIRE(l, "no end after the probe's refusals");
	REQUIRE(strstr(l, " black resign"), "%s", l);
	printf("'probe' refused its moves and forfeited: %s\n", l);
	tc_close(c);
}

/* gomoku-bot, under its example unit, logged in as name: a challenge to it
 * is accepted, its brain checked as a hosted one is, the game played to
 * its end. */
static void
play_bot(int port, const char *name, const char *brain)
{
	struct tc *c = tc_account(port, "challenger", "challenger-pass-1");
	REQUIRE(c, "register the challenger");
	const char *l = NULL;
	/* gomoku-bot logs in once it has started: a challenge to a name not
	 * online is refused, so ask until it is (at most 20 s) */
	for (int i = 0; i < 40 && !l; i++) {
		tc_send(c, "CHALLENGE %s freestyle 15 none black casual none", name);
		l = tc_expect(c, "OK CHALLENGE ", 500);
		if (!l)
			usleep(500 * 1000);
	}
	REQUIRE(l, "gomoku-bot never took a challenge: %s", c->line);
	char room[24];
	l = tc_expect(c, "* START ", 10000);
	REQUIRE(l && sscanf(l, "* START %23s", room) == 1, "no game: %s", c->line);
	struct tc_botgame g;
	tc_bot_init(&g, c, room, 1);
	REQUIRE(tc_bot_human(&g) == 0 && !g.over, "the first move: %s", tc_why);
	REQUIRE(tc_bot_wait(&g) == 1, "gomoku-bot's brain did not move: %s", tc_why);
	check_brain(brain, "gomoku-bot", "gomoku-bot.service");
	REQUIRE(tc_bot_play_out(&g) == 0, "%s", tc_why);
	REQUIRE(g.over && g.bot_moves > 3, "no end: %d bot moves", g.bot_moves);
	printf("a whole game against gomoku-bot under its example unit: %d moves, %s\n", g.moves,
	    g.over_line);
	tc_close(c);
}

int
main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "--free-port") == 0) {
		int p = tc_free_port();
		if (p < 0)
			return 1;
		printf("%d\n", p);
		return 0;
	}
	if (argc == 3 && strcmp(argv[1], "--greeting") == 0) {
		struct tc *c = tc_open(atoi(argv[2]), 0);
		if (!c)
			return 1;
		printf("%s\n", c->line);
		tc_close(c);
		return 0;
	}
	if (argc == 5 && strcmp(argv[1], "--register") == 0) {
		struct tc *c = tc_account(atoi(argv[2]), argv[3], argv[4]);
		if (!c)
			return 1;
		tc_close(c);
		return 0;
	}
	if (argc == 5 && strcmp(argv[1], "--bot") == 0) {
		play_bot(atoi(argv[2]), argv[3], argv[4]);
		return failures ? 1 : 0;
	}
	if (argc != 3) {
		fprintf(stderr,
		    "usage: unit_engines --free-port | --greeting PORT | --register PORT "
		    "NAME PASSWORD | --bot PORT NAME BRAIN | PORT BRAIN\n");
		return 2;
	}
	int port = atoi(argv[1]);
	play_ours(port, argv[2]);
	if (!failures)
		play_probe(port);
	return failures ? 1 : 0;
}
