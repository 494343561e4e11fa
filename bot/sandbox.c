/* sandbox.c: what a brain process may do (see sandbox.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* O_PATH */
#endif
#include "bot/sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/filter.h>
#include <linux/landlock.h>
#include <linux/seccomp.h>
#include <seccomp.h>

static void
say(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/* ---- Landlock (no glibc wrappers in Debian 12) ---- */

static int
ll_abi(void)
{
	long v = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
	return v < 0 ? -1 : (int)v;
}

/* The file-system rights this ABI knows: all of them are handled (denied
 * unless a rule grants them). */
static uint64_t
ll_handled(int abi)
{
	uint64_t r = (LANDLOCK_ACCESS_FS_MAKE_SYM << 1) - 1; /* ABI 1: bits 0..12 */
	if (abi >= 2)
		r |= 1ULL << 13; /* REFER */
	if (abi >= 3)
		r |= 1ULL << 14; /* TRUNCATE */
	if (abi >= 5)
		r |= 1ULL << 15; /* IOCTL_DEV */
	return r;
}

/* Rights that apply to a file (not a directory) of those handled. */
static uint64_t
ll_file_rights(uint64_t want, int abi)
{
	uint64_t file = LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE |
	    LANDLOCK_ACCESS_FS_READ_FILE;
	if (abi >= 3)
		file |= 1ULL << 14;
	if (abi >= 5)
		file |= 1ULL << 15;
	return want & file;
}

/* Grants rights beneath path (a directory) or on it (a file); a path that
 * does not exist is skipped. */
static int
ll_allow(int ruleset, int abi, const char *path, uint64_t rights, char *err, size_t errlen)
{
	int fd = open(path, O_PATH | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT || errno == ENOTDIR || errno == EACCES ? 0 : -1;
	struct stat st;
	if (fstat(fd, &st) != 0) {
		close(fd);
		return -1;
	}
	if (!S_ISDIR(st.st_mode))
		rights = ll_file_rights(rights, abi);
	struct landlock_path_beneath_attr pb = { .allowed_access = rights & ll_handled(abi),
		.parent_fd = fd };
	long rc = syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &pb, 0);
	int e = errno;
	close(fd);
	if (rc != 0) {
		say(err, errlen, "landlock rule for %s: %s", path, strerror(e));
		return -1;
	}
	return 0;
}

static int
landlock_enter(const char *const *dirs, int ndirs, char *err, size_t errlen)
{
	static const char *const sys_dirs[] = { "/usr", "/lib", "/lib32", "/lib64", "/bin", "/sbin",
		"/etc", "/opt" };
	static const char *const read_only[] = { "/proc/self", "/proc/cpuinfo", "/proc/meminfo",
		"/proc/stat", "/sys/devices/system/cpu", "/dev/urandom", "/dev/random",
		"/dev/zero" };
	const uint64_t run = LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_READ_FILE |
	    LANDLOCK_ACCESS_FS_READ_DIR;
	const uint64_t read = LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR;
	int abi = ll_abi();
	if (abi < 1) {
		if (errno == ENOSYS || errno == EOPNOTSUPP)
			say(err, errlen,
			    "this kernel has no Landlock (Linux 5.13 or later, with landlock "
			    "in its lsm= list)");
		else
			say(err, errlen, "landlock_create_ruleset: %s", strerror(errno));
		return -1;
	}
	struct landlock_ruleset_attr ra = { .handled_access_fs = ll_handled(abi) };
	int rs = (int)syscall(SYS_landlock_create_ruleset, &ra, sizeof ra, 0);
	if (rs < 0) {
		say(err, errlen, "landlock_create_ruleset: %s", strerror(errno));
		return -1;
	}
	int bad = 0;
	for (size_t i = 0; !bad && i < sizeof sys_dirs / sizeof *sys_dirs; i++)
		bad = ll_allow(rs, abi, sys_dirs[i], run, err, errlen);
	for (int i = 0; !bad && i < ndirs; i++)
		bad = ll_allow(rs, abi, dirs[i], run, err, errlen);
	for (size_t i = 0; !bad && i < sizeof read_only / sizeof *read_only; i++)
		bad = ll_allow(rs, abi, read_only[i], read, err, errlen);
	if (!bad)
		bad = ll_allow(rs, abi, "/dev/null",
		    LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_WRITE_FILE, err, errlen);
	if (!bad && syscall(SYS_landlock_restrict_self, rs, 0) != 0) {
		say(err, errlen, "landlock_restrict_self: %s", strerror(errno));
		bad = -1;
	}
	close(rs);
	return bad ? -1 : 0;
}

/* ---- seccomp ---- */

/* kill() and tgkill() by pid: the set of allowed values (0, its pid, minus
 * its pid) is more than libseccomp 2.5 can compare one argument with, so
 * this second filter is written by hand; the kernel runs both and the
 * stricter answer wins. Only the low 32 bits of the argument are compared,
 * as the kernel reads a pid_t. */
static int
signal_filter(void)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	const uint32_t self = (uint32_t)getpid(), group = (uint32_t)(-(int32_t)self);
	const uint32_t arch = seccomp_arch_native();
	struct sock_filter prog[] = {
		/* 0 */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		/* 1 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, arch, 0, 9),
		/* 2 */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		/* 3 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_kill, 0, 4),
		/* 4 */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),
		/* 5 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 5, 0),
		/* 6 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, self, 4, 0),
		/* 7 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, group, 3, 4),
		/* 8 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_tgkill, 0, 2),
		/* 9 */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),
		/* 10 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, self, 0, 1),
		/* 11 */ BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		/* 12 */ BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA)),
	};
	struct sock_fprog fp = { .len = (unsigned short)(sizeof prog / sizeof *prog),
		.filter = prog };
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fp, 0, 0);
#else
#error "sandbox.c: the signal filter reads a pid as the low word of a little-endian register"
#endif
}

static int
seccomp_enter(char *err, size_t errlen)
{
	static const struct {
		int err, nr;
	} deny[] = {
		{ EACCES, SCMP_SYS(socket) },
		{ ENOSYS, SCMP_SYS(io_uring_setup) },
		{ ENOSYS, SCMP_SYS(io_uring_enter) },
		{ ENOSYS, SCMP_SYS(io_uring_register) },
		{ EPERM, SCMP_SYS(ptrace) },
		{ EPERM, SCMP_SYS(process_vm_readv) },
		{ EPERM, SCMP_SYS(process_vm_writev) },
		{ EPERM, SCMP_SYS(pidfd_open) },
		{ EPERM, SCMP_SYS(pidfd_getfd) },
		{ EPERM, SCMP_SYS(pidfd_send_signal) },
		{ EPERM, SCMP_SYS(tkill) },
		{ EPERM, SCMP_SYS(setsid) },
		{ EPERM, SCMP_SYS(setpgid) },
	};
	scmp_filter_ctx f = seccomp_init(SCMP_ACT_ALLOW);
	if (!f) {
		say(err, errlen, "seccomp_init failed");
		return -1;
	}
	/* another architecture's calls (int 0x80 from x86-64) kill it */
	int rc = seccomp_attr_set(f, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS);
	for (size_t i = 0; rc == 0 && i < sizeof deny / sizeof *deny; i++)
		rc = seccomp_rule_add(f, SCMP_ACT_ERRNO((unsigned)deny[i].err), deny[i].nr, 0);
	if (rc == 0)
		rc = seccomp_rule_add(f, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(prctl), 1,
		    SCMP_A0(SCMP_CMP_EQ, PR_SET_PDEATHSIG, 0));
	/* No namespaces (a user namespace is much of the kernel's attack
	 * surface; no brain needs one): unshare() and clone() with any
	 * CLONE_NEW* flag, and setns(), are EPERM. clone3() keeps its flags in
	 * memory a filter cannot read, so it is ENOSYS, and glibc falls back
	 * to clone() for threads and processes. CLONE_NEWTIME is unshare's
	 * alone: in clone()'s first argument that bit is the exit signal's. */
	static const unsigned long ns[] = { CLONE_NEWNS, CLONE_NEWCGROUP, CLONE_NEWUTS,
		CLONE_NEWIPC, CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNET, CLONE_NEWTIME };
	for (size_t i = 0; rc == 0 && i < sizeof ns / sizeof *ns; i++) {
		rc = seccomp_rule_add(f, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(unshare), 1,
		    SCMP_A0(SCMP_CMP_MASKED_EQ, ns[i], ns[i]));
		if (rc == 0 && ns[i] != CLONE_NEWTIME)
			rc = seccomp_rule_add(f, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(clone), 1,
			    SCMP_A0(SCMP_CMP_MASKED_EQ, ns[i], ns[i]));
	}
	if (rc == 0)
		rc = seccomp_rule_add(f, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(setns), 0);
	if (rc == 0)
		rc = seccomp_rule_add(f, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
	if (rc == 0)
		rc = seccomp_load(f);
	seccomp_release(f);
	if (rc != 0) {
		say(err, errlen, "seccomp: %s", strerror(-rc));
		return -1;
	}
	if (signal_filter() != 0) {
		say(err, errlen, "seccomp (signals): %s", strerror(errno));
		return -1;
	}
	return 0;
}

/* Tries the sandbox in a child: whatever stands in the way (the kernel, a
 * filter around this process) stops the child the way it would a brain. */
int
sandbox_available(char *err, size_t errlen)
{
	if (prctl(PR_GET_SECCOMP, 0, 0, 0, 0) < 0 && errno == EINVAL) {
		say(err, errlen, "this kernel has no seccomp");
		return 0;
	}
	if (ll_abi() < 1 && (errno == ENOSYS || errno == EOPNOTSUPP)) {
		say(err, errlen,
		    "this kernel has no Landlock (Linux 5.13 or later, with landlock "
		    "in its lsm= list)");
		return 0;
	}
	int fds[2];
	if (pipe2(fds, O_CLOEXEC) != 0) {
		say(err, errlen, "pipe: %s", strerror(errno));
		return 0;
	}
	pid_t pid = fork();
	if (pid < 0) {
		say(err, errlen, "fork: %s", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return 0;
	}
	if (pid == 0) {
		char why[256] = "";
		int rc = sandbox_enter(NULL, 0, why, sizeof why);
		if (rc != 0 && write(fds[1], why, strlen(why)) < 0)
			_exit(2);
		_exit(rc != 0);
	}
	close(fds[1]);
	char why[256];
	ssize_t n, got = 0;
	while (got < (ssize_t)sizeof why - 1 &&
	    ((n = read(fds[0], why + got, sizeof why - 1 - (size_t)got)) > 0 ||
		(n < 0 && errno == EINTR)))
		got += n > 0 ? n : 0;
	why[got] = '\0';
	close(fds[0]);
	int st;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		return 1;
	/* EPERM where the kernel has the call: a seccomp filter around this
	 * process (a container's, a unit's SystemCallFilter=) refuses it */
	say(err, errlen, "%s%s", got ? why : "the sandbox's test process died",
	    strstr(why, "Operation not permitted")
		? " (refused by a seccomp filter around this "
		  "process: a container's or a service's; it must "
		  "allow prctl, seccomp and landlock_*)"
		: "");
	return 0;
}

int
sandbox_enter(const char *const *dirs, int ndirs, char *err, size_t errlen)
{
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
		say(err, errlen, "PR_SET_NO_NEW_PRIVS: %s", strerror(errno));
		return -1;
	}
	/* Landlock first: its rules open paths, which the filter allows anyway */
	if (landlock_enter(dirs, ndirs, err, errlen) != 0)
		return -1;
	return seccomp_enter(err, errlen);
}

int
sandbox_prog_dir(const char *prog, char *buf, size_t len)
{
	char path[PATH_MAX], real[PATH_MAX];
	if (!prog || !*prog || len == 0)
		return -1;
	if (strchr(prog, '/')) {
		if (snprintf(path, sizeof path, "%s", prog) >= (int)sizeof path)
			return -1;
	} else {
		const char *p = getenv("PATH");
		int found = 0;
		if (!p || !*p)
			p = "/usr/local/bin:/usr/bin:/bin";
		while (!found && *p) {
			const char *end = strchr(p, ':');
			size_t n = end ? (size_t)(end - p) : strlen(p);
			int w = snprintf(path, sizeof path, "%.*s/%s", (int)n, n ? p : ".", prog);
			found = w > 0 && w < (int)sizeof path && access(path, X_OK) == 0;
			p += n + (end != NULL);
		}
		if (!found)
			return -1;
	}
	if (!realpath(path, real))
		return -1;
	char *slash = strrchr(real, '/');
	if (!slash)
		return -1;
	if (slash == real)
		slash[1] = '\0';
	else
		*slash = '\0';
	return snprintf(buf, len, "%s", real) < (int)len ? 0 : -1;
}
