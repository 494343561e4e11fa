/*
 * test_sigclean: a daemon test stopped by a signal (a CI timeout's
 * SIGTERM, ^C's SIGINT, a closed terminal's SIGHUP) stops what it started
 * and removes its temporary directories (tclient.h, tc_child). This
 * program runs itself as such a test, the victim: it starts a gomokud
 * (daemon_start), a plain child (tc_child) and a directory of its own
 * (tc_mkdtemp), in the first case also a redis-server (redisrun.h), says
 * their pids and directories on a pipe, and waits. Here each case sends
 * the victim its signal, and checks that the victim died of it, that every
 * pid it named is gone and that every directory was removed; after a
 * failed check (tc_keep_tmp) the directories stay for their logs, the
 * processes do not.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/daemon/check.h"
#include "tests/daemon/redisrun.h"
#include "tests/daemon/tclient.h"

#ifndef GOMOKUD_BIN
#define GOMOKUD_BIN "bin/gomokud"
#endif

enum { MAX_THINGS = 8, START_MS = 30000, DIE_MS = 30000 };

/* The victim: "victim redis|-" "keep|-"; says "pid N", "dir D", then
 * "ready" on stdout, and waits for its signal. */
static int
victim(int with_redis, int keep)
{
	static struct daemon d;
	static struct redisrun r;
	char dir[64];

	setvbuf(stdout, NULL, _IONBF, 0);
	if (daemon_start(&d, GOMOKUD_BIN, NULL) != 0) {
		printf("error gomokud did not start (%s)\n", d.log);
		return 1;
	}
	printf("pid %d\ndir %s\n", (int)d.pid, d.dir);
	if (with_redis) {
		if (redis_find(&r) != 0 || redis_start(&r) != 0) {
			printf("error redis-server did not start\n");
			return 1;
		}
		printf("pid %d\ndir %s\n", (int)r.pid, r.dir);
	}
	pid_t p = fork();
	if (p == 0) {
		execl("/bin/sleep", "sleep", "600", (char *)NULL);
		_exit(127);
	}
	if (p < 0) {
		printf("error fork\n");
		return 1;
	}
	tc_child(p);
	printf("pid %d\n", (int)p);
	snprintf(dir, sizeof dir, "/tmp/gomokud-test.XXXXXX");
	if (!tc_mkdtemp(dir)) {
		printf("error mkdtemp\n");
		return 1;
	}
	printf("dir %s\n", dir);
	if (keep)
		tc_keep_tmp(); /* as a failed check does */
	printf("ready\n");
	for (;;)
		pause();
}

struct things {
	pid_t pid[MAX_THINGS];
	int npid;
	char dir[MAX_THINGS][128];
	int ndir;
};

/* Reads the victim's lines from fd into t until "ready": 0, or -1. */
static int
read_things(int fd, struct things *t)
{
	char buf[4096];
	size_t len = 0;
	long long end = tc_now_ms() + START_MS;
	for (;;) {
		char *nl;
		while ((nl = memchr(buf, '\n', len))) {
			*nl = '\0';
			int pid;
			if (strcmp(buf, "ready") == 0)
				return 0;
			if (sscanf(buf, "pid %d", &pid) == 1 && t->npid < MAX_THINGS)
				t->pid[t->npid++] = pid;
			else if (strncmp(buf, "dir ", 4) == 0 && t->ndir < MAX_THINGS)
				snprintf(t->dir[t->ndir++], sizeof t->dir[0], "%.127s", buf + 4);
			else
				printf("  victim: %s\n", buf);
			len -= (size_t)(nl + 1 - buf);
			memmove(buf, nl + 1, len);
		}
		struct pollfd p = { fd, POLLIN, 0 };
		long long left = end - tc_now_ms();
		if (left <= 0 || poll(&p, 1, (int)left) <= 0)
			return -1;
		ssize_t n = read(fd, buf + len, sizeof buf - 1 - len);
		if (n <= 0)
			return -1;
		len += (size_t)n;
	}
}

static int
dir_exists(const char *dir)
{
	struct stat st;
	return stat(dir, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Whether pid is gone: no process, not even a zombie. */
static int
pid_gone(pid_t pid)
{
	return kill(pid, 0) != 0 && errno == ESRCH;
}

/* Starts a victim, signals it once it is ready, and checks what it left. */
static void
one_case(const char *self, int sig, int with_redis, int keep)
{
	struct things t;
	int fds[2];
	memset(&t, 0, sizeof t);
	REQUIRE(pipe(fds) == 0, "pipe");
	pid_t v = fork();
	REQUIRE(v >= 0, "fork");
	if (v == 0) {
		dup2(fds[1], 1);
		close(fds[0]);
		close(fds[1]);
		unsetenv("GOMOKU_KEEP_TMP");
		/* an ignored signal stays ignored across exec (nohup's SIGHUP, a
		 * runner's SIGINT), and tclient.h leaves such a signal to the
		 * program: the victim is a test started the usual way */
		signal(SIGTERM, SIG_DFL);
		signal(SIGINT, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		execl(self, self, "victim", with_redis ? "redis" : "-", keep ? "keep" : "-",
		    (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	int ready = read_things(fds[0], &t) == 0;
	close(fds[0]);
	CHECK(ready, "the victim never got ready");
	CHECK(t.npid == 2 + with_redis && t.ndir == 2 + with_redis,
	    "the victim named %d pids and %d dirs", t.npid, t.ndir);
	for (int i = 0; i < t.npid; i++)
		CHECK(
		    !pid_gone(t.pid[i]), "pid %d was not running before the signal", (int)t.pid[i]);
	for (int i = 0; i < t.ndir; i++)
		CHECK(dir_exists(t.dir[i]), "%s was not there before the signal", t.dir[i]);
	kill(v, sig);
	int st = 0;
	pid_t w = 0;
	for (long long end = tc_now_ms() + DIE_MS; (w = waitpid(v, &st, WNOHANG)) == 0;
	     usleep(10000))
		if (tc_now_ms() > end) {
			kill(v, SIGKILL);
			w = waitpid(v, &st, 0);
			CHECK(
			    0, "the victim was still there %d ms after %s", DIE_MS, strsignal(sig));
			break;
		}
	CHECK(w == v && WIFSIGNALED(st) && WTERMSIG(st) == sig,
	    "the victim did not die of %s (status %#x)", strsignal(sig), (unsigned)st);
	for (int i = 0; i < t.npid; i++)
		CHECK(pid_gone(t.pid[i]), "pid %d still runs after the victim's %s", (int)t.pid[i],
		    strsignal(sig));
	for (int i = 0; i < t.ndir; i++) {
		int there = dir_exists(t.dir[i]);
		if (keep) {
			CHECK(there, "%s was removed after a failed check", t.dir[i]);
			char cmd[200];
			snprintf(cmd, sizeof cmd, "rm -rf %s", t.dir[i]);
			if (there && system(cmd) != 0)
				printf("could not remove %s\n", t.dir[i]);
		} else {
			CHECK(!there, "%s is still there after the victim's %s", t.dir[i],
			    strsignal(sig));
		}
	}
	printf("%s %s: gomokud%s and a child killed, %d dirs %s\n",
	    failures ? "(after failures)" : "ok", strsignal(sig),
	    with_redis ? ", redis-server" : "", t.ndir,
	    keep ? "kept after a failed check" : "removed");
}

int
main(int argc, char **argv)
{
	if (argc == 4 && strcmp(argv[1], "victim") == 0)
		return victim(strcmp(argv[2], "redis") == 0, strcmp(argv[3], "keep") == 0);
	setvbuf(stdout, NULL, _IONBF, 0);
	char self[4096];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	if (n <= 0) {
		printf("FAIL: cannot find myself\n");
		return 1;
	}
	self[n] = '\0';
	struct redisrun r;
	int with_redis = redis_find(&r) == 0;
	if (!with_redis) {
		const char *req = getenv("GOMOKU_REQUIRE_SHARED");
		int required = req && strcmp(req, "1") == 0;
		printf("%s: redis-server is not installed (mk/deps.sh installs it): the SIGTERM "
		       "case without it\n",
		    required ? "FAIL" : "skip");
		if (required)
			failures++;
	}
	one_case(self, SIGTERM, with_redis, 0);
	one_case(self, SIGINT, 0, 0);
	one_case(self, SIGHUP, 0, 0);
	one_case(self, SIGTERM, 0, 1);
	printf("sigclean: %d failed\n", failures);
	return failures ? 1 : 0;
}
