/*
 * test_sandbox.c: bot/sandbox.h on this kernel. Each case forks a child
 * that enters the sandbox the way a brain's process does (its own process
 * group first) and tries what a brain may and may not do; the child's exit
 * status is the number of the first check that went wrong (0: all held).
 * A control child without the sandbox does the forbidden things and
 * succeeds, so every refusal seen is the sandbox's.
 */
#define _GNU_SOURCE /* unshare, setns, CLONE_* */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <seccomp.h>

#include "bot/sandbox.h"

static char tmp[64];       /* a directory the sandbox does not open */
static char allowed[96];   /* one it is given */
static char secret[128];   /* a file in tmp, as the server's database */
static char readable[160]; /* a file in allowed */

static int
setup(void **state)
{
	(void)state;
	snprintf(tmp, sizeof tmp, "/tmp/gomoku-sandbox.XXXXXX");
	if (!mkdtemp(tmp))
		return -1;
	snprintf(allowed, sizeof allowed, "%s/brain", tmp);
	snprintf(secret, sizeof secret, "%s/gomokud.db", tmp);
	snprintf(readable, sizeof readable, "%s/weights", allowed);
	if (mkdir(allowed, 0755) != 0)
		return -1;
	FILE *f = fopen(secret, "w"), *g = fopen(readable, "w");
	if (!f || !g)
		return -1;
	fputs("secret\n", f);
	fputs("weights\n", g);
	fclose(f);
	fclose(g);
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	unlink(readable);
	unlink(secret);
	char p[200];
	snprintf(p, sizeof p, "%s/made", tmp);
	unlink(p);
	rmdir(allowed);
	rmdir(tmp);
	return 0;
}

/* Runs fn in a child in its own group, sandboxed when boxed; its status. */
static int
in_child(int (*fn)(void), int boxed)
{
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		setpgid(0, 0);
		if (boxed) {
			const char *dirs[] = { allowed };
			char err[200];
			if (sandbox_enter(dirs, 1, err, sizeof err) != 0) {
				fprintf(stderr, "sandbox_enter: %s\n", err);
				_exit(99);
			}
		}
		_exit(fn());
	}
	int st = 0;
	waitpid(pid, &st, 0);
	return st;
}

/* check n: cond must hold */
#define CHECK(n, cond)              \
	do {                        \
		if (!(cond))        \
			return (n); \
	} while (0)

static int
refused(long rc, int want)
{
	return rc == -1 && errno == want;
}

static int
net_and_processes(void)
{
	int sv[2];
	CHECK(1, refused(socket(AF_INET, SOCK_STREAM, 0), EACCES));
	CHECK(2, refused(socket(AF_INET6, SOCK_DGRAM, 0), EACCES));
	CHECK(3, refused(socket(AF_UNIX, SOCK_STREAM, 0), EACCES));
	CHECK(4, refused(socket(AF_NETLINK, SOCK_RAW, 0), EACCES));
	CHECK(5, socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
	char params[120] = { 0 };
	CHECK(6, refused(syscall(SYS_io_uring_setup, 4, params), ENOSYS));
	CHECK(7, refused(ptrace(PTRACE_ATTACH, getppid(), NULL, NULL), EPERM));
	CHECK(8, refused(kill(getppid(), 0), EPERM));
	CHECK(9, refused(kill(-1, 0), EPERM));
	CHECK(10, kill(0, 0) == 0);
	CHECK(11, kill(getpid(), 0) == 0);
	CHECK(12, kill(-getpid(), 0) == 0);
	CHECK(13, syscall(SYS_tgkill, getpid(), syscall(SYS_gettid), 0) == 0);
	CHECK(14, refused(syscall(SYS_tgkill, getppid(), getppid(), 0), EPERM));
	CHECK(15, refused(syscall(SYS_tkill, getppid(), 0), EPERM));
	CHECK(16, refused(prctl(PR_SET_PDEATHSIG, 0, 0, 0, 0), EPERM));
	CHECK(17, prctl(PR_SET_NAME, "brain", 0, 0, 0) == 0);
	CHECK(18, refused(setsid(), EPERM));
	CHECK(19, refused(setpgid(0, getppid()), EPERM));
	CHECK(20, refused(syscall(SYS_pidfd_open, getppid(), 0), EPERM));
	/* the high half of a register does not get a pid past the filter */
	CHECK(21, refused(syscall(SYS_kill, (long)getppid() | (1L << 32), 0), EPERM));
	/* no namespaces: not made, not joined; clone3 is not there, so
	 * threads and children come by clone (test_running makes both) */
	CHECK(22, refused(unshare(CLONE_NEWUSER), EPERM));
	CHECK(23, refused(unshare(CLONE_NEWNET), EPERM));
	CHECK(24, refused(unshare(CLONE_NEWNS | CLONE_FILES), EPERM));
	CHECK(25, refused(syscall(SYS_clone, CLONE_NEWUSER | SIGCHLD, 0, 0, 0, 0), EPERM));
	CHECK(26, refused(setns(-1, 0), EPERM));
	struct clone_args3 {
		uint64_t flags, pidfd, child_tid, parent_tid, exit_signal, stack, stack_size, tls;
	} ca = { .exit_signal = SIGCHLD };
	CHECK(27, refused(syscall(SYS_clone3, &ca, sizeof ca), ENOSYS));
	CHECK(28, unshare(CLONE_FILES) == 0); /* no namespace: allowed */
	return 0;
}

static int
files(void)
{
	char buf[64], p[200];
	CHECK(1, refused(open(secret, O_RDONLY), EACCES));
	CHECK(2, refused(open(tmp, O_RDONLY | O_DIRECTORY), EACCES));
	snprintf(p, sizeof p, "%s/made", tmp);
	CHECK(3, refused(open(p, O_WRONLY | O_CREAT, 0644), EACCES));
	int fd = open(readable, O_RDONLY);
	CHECK(4, fd >= 0 && read(fd, buf, sizeof buf) > 0);
	close(fd);
	CHECK(5, refused(open(readable, O_WRONLY), EACCES));
	CHECK(6, refused(unlink(readable), EACCES));
	CHECK(7, (fd = open("/etc/hostname", O_RDONLY)) >= 0 || errno == ENOENT);
	if (fd >= 0)
		close(fd);
	CHECK(8, (fd = open("/dev/null", O_WRONLY)) >= 0 && write(fd, "x", 1) == 1);
	close(fd);
	CHECK(9, (fd = open("/proc/self/status", O_RDONLY)) >= 0);
	close(fd);
	snprintf(p, sizeof p, "/proc/%d/environ", (int)getppid());
	CHECK(10, refused(open(p, O_RDONLY), EACCES));
	CHECK(11, refused(open("/tmp", O_RDONLY | O_DIRECTORY), EACCES));
	return 0;
}

static void *
thread_main(void *arg)
{
	*(int *)arg = socket(AF_INET, SOCK_STREAM, 0) == -1 && errno == EACCES;
	return NULL;
}

/* What a brain does to run: threads, a child, exec. */
static int
running(void)
{
	int ok = 0;
	pthread_t t;
	CHECK(1, pthread_create(&t, NULL, thread_main, &ok) == 0);
	pthread_join(t, NULL);
	CHECK(2, ok);
	pid_t c = fork();
	if (c == 0)
		_exit(socket(AF_INET, SOCK_STREAM, 0) == -1 && errno == EACCES ? 0 : 1);
	int st = -1;
	CHECK(3, c > 0 && waitpid(c, &st, 0) == c && WIFEXITED(st) && WEXITSTATUS(st) == 0);
	c = fork();
	if (c == 0) {
		execl("/bin/true", "true", (char *)NULL);
		_exit(1);
	}
	CHECK(4, c > 0 && waitpid(c, &st, 0) == c && WIFEXITED(st) && WEXITSTATUS(st) == 0);
	return 0;
}

static int
control(void)
{
	int s = socket(AF_INET, SOCK_STREAM, 0);
	CHECK(1, s >= 0);
	close(s);
	int fd = open(secret, O_RDONLY);
	CHECK(2, fd >= 0);
	close(fd);
	CHECK(3, kill(getppid(), 0) == 0);
	CHECK(4, prctl(PR_SET_PDEATHSIG, 0, 0, 0, 0) == 0);
	CHECK(5, refused(setns(-1, 0), EBADF)); /* the kernel's answer, not EPERM */
	return 0;
}

static void
test_available(void **state)
{
	(void)state;
	char err[200] = "";
	int ok = sandbox_available(err, sizeof err);
	if (!ok)
		fprintf(stderr, "sandbox: %s\n", err);
	assert_int_equal(ok, 1); /* Debian 12's kernel has both */
}

/* Under a filter that refuses Landlock's calls with EPERM (as
 * systemd-nspawn's did a container's, and as a unit's SystemCallFilter=
 * without them would), the check says so, where a brain would only die. */
static void
test_refused(void **state)
{
	(void)state;
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		scmp_filter_ctx f = seccomp_init(SCMP_ACT_ALLOW);
		if (!f || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
		    seccomp_rule_add(
			f, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(landlock_create_ruleset), 0) ||
		    seccomp_load(f) != 0)
			_exit(3);
		char err[300] = "";
		int ok = sandbox_available(err, sizeof err);
		fprintf(stderr, "refused: %s\n", err);
		_exit(ok                                                     ? 4
			: !strstr(err, "landlock_create_ruleset")            ? 5
			: !strstr(err, "seccomp filter around this process") ? 6
									     : 0);
	}
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
}

static void
test_control(void **state)
{
	(void)state;
	int st = in_child(control, 0);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
}

static void
test_net_and_processes(void **state)
{
	(void)state;
	int st = in_child(net_and_processes, 1);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
}

static void
test_files(void **state)
{
	(void)state;
	int st = in_child(files, 1);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
}

static void
test_running(void **state)
{
	(void)state;
	int st = in_child(running, 1);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
}

static void
test_prog_dir(void **state)
{
	(void)state;
	char buf[4096];
	assert_int_equal(sandbox_prog_dir("sh", buf, sizeof buf), 0);
	assert_true(strcmp(buf, "/usr/bin") == 0 || strcmp(buf, "/bin") == 0);
	char p[200];
	snprintf(p, sizeof p, "%s/../brain/weights", allowed);
	assert_int_equal(sandbox_prog_dir(p, buf, sizeof buf), 0);
	assert_string_equal(buf, allowed);
	assert_int_equal(sandbox_prog_dir("no-such-program-here", buf, sizeof buf), -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_available),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_control),
		cmocka_unit_test(test_net_and_processes),
		cmocka_unit_test(test_files),
		cmocka_unit_test(test_running),
		cmocka_unit_test(test_prog_dir),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
