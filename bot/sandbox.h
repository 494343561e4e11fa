/*
 * sandbox.h: what a brain process may do (issue 49), entered by the brain's
 * own process between fork and exec (bot/brain.c's child), for good: the
 * brain and every process it starts stay inside. Linux only.
 *
 * The sandbox (gomoku-bot(1)'s SANDBOX says it for engine authors):
 *   - no_new_privs: nothing it runs gains privileges (setuid binaries);
 *   - seccomp (libseccomp), every other call allowed as it was:
 *       socket() of any family is EACCES: no network, and no local socket
 *         either (gomokuctl's control socket belongs to the same user);
 *         socketpair() stays;
 *       io_uring_setup/enter/register are ENOSYS (io_uring opens sockets
 *         past a filter on socket());
 *       ptrace, process_vm_readv/writev, pidfd_open, pidfd_getfd,
 *         pidfd_send_signal are EPERM: it reaches no other process;
 *       kill() only its own process group or itself (pid 0, its pid, minus
 *         its pid), tgkill() only its own threads, tkill() never: it
 *         signals no other process of the same user (the server);
 *       setsid() and setpgid() are EPERM, prctl(PR_SET_PDEATHSIG) is
 *         EPERM: it stays in the group the driver kills and dies with its
 *         parent;
 *       no namespaces: unshare() and clone() with a CLONE_NEW* flag, and
 *         setns(), are EPERM; clone3() is ENOSYS (its flags are in memory,
 *         out of a filter's sight), so glibc makes threads and children
 *         with clone();
 *       a system call of another architecture (i386 or x32 from an x86-64
 *         brain) kills it (untested here: this machine's kernel refuses
 *         i386 calls from 64-bit processes before any filter sees them);
 *   - Landlock (when the kernel has it; see sandbox_enter): files may be
 *     read and run beneath /usr, /lib, /lib32, /lib64, /bin, /sbin, /etc,
 *     /opt, and the directories given (the brain's own), and read in
 *     /proc/self, /proc/cpuinfo, /proc/meminfo, /proc/stat,
 *     /sys/devices/system/cpu, /dev/urandom, /dev/random, /dev/zero;
 *     /dev/null may be written; nothing else may be read, written, made or
 *     removed anywhere (the server's database, its keys, other brains).
 *     Landlock also keeps it from ptrace on processes outside it.
 */
#ifndef GOMOKU_BOT_SANDBOX_H
#define GOMOKU_BOT_SANDBOX_H

#include <stddef.h>

/* Whether a brain can enter the sandbox here: 1, or 0 with err saying what
 * stands in the way (no seccomp or no Landlock in the kernel, or a seccomp
 * filter around this process, a container's or a unit's, that refuses a
 * call the sandbox makes). It enters the sandbox in a child process, so it
 * forks; for a program's start, before its brains. */
int sandbox_available(char *err, size_t errlen);

/* Enters the sandbox, with dirs (ndirs of them, NULL-free) readable and
 * runnable beside the system's. For a process that then execs the brain;
 * after the fork of a threaded program it allocates (libseccomp), which
 * glibc's fork allows. 0, or -1 with err: the caller must not run the brain
 * then (exit instead). */
int sandbox_enter(const char *const *dirs, int ndirs, char *err, size_t errlen);

/* The directory the program prog is run from (prog with a slash: its own
 * directory; else the first on PATH that holds it as an executable), with
 * symbolic links resolved, into buf; 0, or -1 when none is found. */
int sandbox_prog_dir(const char *prog, char *buf, size_t len);

#endif
