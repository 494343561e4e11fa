/* tclient.c: blocking TLS test client and daemon launcher. */
#define _GNU_SOURCE /* _Fork */
#include "tests/daemon/tclient.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/x509.h>

#include "tests/daemon/spiral.h"

int tc_verbose;

/*
 * What the process that starts children (daemon_start, tc_child) leaves
 * behind, so that a test that fails half-way, or is stopped by SIGTERM,
 * SIGINT or SIGHUP (a CI timeout, ^C, a closed terminal), leaves nothing:
 * the children still running are killed by their pids and the temporary
 * directories (daemon_start's, tc_mkdtemp's) removed, unless a check failed
 * (tc_keep_tmp) or GOMOKU_KEEP_TMP=1 keeps them to look at. One path,
 * clean_up, at exit and from the signal handler, so async-signal-safe: the
 * state is in static arrays, each entry written before its count grows,
 * the directories removed by an rm -rf of a _Fork.
 */
enum { MADE_MAX = 256, KIDS_MAX = 256 };
static char made[MADE_MAX][128];
static volatile sig_atomic_t nmade;
static pid_t kids[KIDS_MAX];
static volatile sig_atomic_t nkids;
static pid_t made_by;
static volatile sig_atomic_t keep_made; /* tc_keep_tmp: a check failed */
static int keep_env;                    /* GOMOKU_KEEP_TMP=1 */

/* Whether pid is a child of ours that has not exited; nothing is reaped. */
static int
running_kid(pid_t pid)
{
	siginfo_t si;
	memset(&si, 0, sizeof si);
	return waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid == 0;
}

/* rm -rf the directories made (async-signal-safe: _Fork, execve, waitpid). */
static void
remove_made(void)
{
	static char *argv[MADE_MAX + 4];
	static char *const envp[] = { NULL };
	int n = 0, k = nmade;
	if (k == 0)
		return;
	argv[n++] = "rm";
	argv[n++] = "-rf";
	argv[n++] = "--";
	for (int i = 0; i < k; i++)
		argv[n++] = made[i];
	argv[n] = NULL;
	pid_t p = _Fork(); /* unlike fork, async-signal-safe (glibc 2.34, POSIX.1-2024) */
	if (p == 0) {
		execve("/bin/rm", argv, envp);
		execve("/usr/bin/rm", argv, envp);
		_exit(127);
	}
	while (p > 0 && waitpid(p, NULL, 0) < 0 && errno == EINTR)
		;
	nmade = 0;
}

/* Kills the children still running and removes the directories (unless
 * kept): at exit and on a signal, in the process that made them only. */
static void
clean_up(void)
{
	if (getpid() != made_by)
		return; /* a forked child's exit or signal */
	for (int i = 0; i < nkids; i++)
		if (running_kid(kids[i])) {
			kill(kids[i], SIGKILL);
			while (waitpid(kids[i], NULL, 0) < 0 && errno == EINTR)
				;
		}
	nkids = 0;
	if (!keep_made && !keep_env)
		remove_made();
}

static void
at_exit(void)
{
	clean_up();
}

/* SIGTERM, SIGINT, SIGHUP: clean up, then die of the signal. */
static void
on_signal(int sig)
{
	int saved = errno;
	clean_up();
	errno = saved;
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = SIG_DFL;
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
	_exit(128 + sig);
}

/* The exit and signal hooks, set once by the process that starts children;
 * writes to a daemon that died fail as errors, not SIGPIPE. A signal the
 * program handles itself, or ignores, is left to it. */
static void
hooks(void)
{
	static const int sigs[] = { SIGTERM, SIGINT, SIGHUP };
	if (made_by)
		return;
	made_by = getpid();
	const char *keep = getenv("GOMOKU_KEEP_TMP");
	keep_env = keep && *keep && strcmp(keep, "0") != 0;
	atexit(at_exit);
	signal(SIGPIPE, SIG_IGN);
	struct sigaction sa, old;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
		sigaddset(&sa.sa_mask, sigs[i]); /* one clean-up at a time */
	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
		if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_DFL)
			sigaction(sigs[i], &sa, NULL);
}

static void
remember(const char *dir)
{
	hooks();
	if (nmade < MADE_MAX && getpid() == made_by) {
		snprintf(made[nmade], sizeof made[0], "%s", dir);
		nmade = nmade + 1; /* after the name: a signal sees whole entries */
	}
}

char *
tc_mkdtemp(char *tmpl)
{
	if (!mkdtemp(tmpl))
		return NULL;
	remember(tmpl);
	return tmpl;
}

void
tc_keep_tmp(void)
{
	keep_made = 1;
}

void
tc_child(pid_t pid)
{
	hooks();
	if (getpid() != made_by || pid <= 0)
		return;
	if (nkids == KIDS_MAX) { /* keep only those that have not exited */
		int n = 0;
		for (int i = 0; i < KIDS_MAX; i++)
			if (running_kid(kids[i]))
				kids[n++] = kids[i];
		nkids = n;
	}
	if (nkids < KIDS_MAX) {
		kids[nkids] = pid;
		nkids = nkids + 1; /* after the pid: a signal sees whole entries */
	}
}

static long long
now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

long long
tc_now_ms(void)
{
	return now_ms();
}

int
tc_free_port(void)
{
	struct sockaddr_in a = { 0 };
	socklen_t len = sizeof a;
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof a) != 0 ||
	    getsockname(fd, (struct sockaddr *)&a, &len) != 0) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	return ntohs(a.sin_port);
}

/* The state directory a daemon of dir with conf uses, into state. */
static void
state_of(const char *dir, const char *conf, char *state, size_t cap)
{
	snprintf(state, cap, "%s/state", dir);
	const char *p = conf ? strstr(conf, "state-dir ") : NULL;
	if (p)
		snprintf(state, cap, "%.*s", (int)strcspn(p + 10, "\n"), p + 10);
}

/* djb2 of s: names that follow a state directory across restarts. */
static unsigned long
hash_of(const char *s)
{
	unsigned long h = 5381;
	for (; *s; s++)
		h = h * 33 + (unsigned char)*s;
	return h;
}

int
tc_pg_ctl(const char *what)
{
	const char *ctl = getenv("GOMOKU_PG_CTL"), *pgdir = getenv("GOMOKU_PG_DIR");
	char cmd[600];
	if (!ctl || !pgdir)
		return -1;
	snprintf(cmd, sizeof cmd, "%s %s %s >/dev/null", ctl, what, pgdir);
	return system(cmd);
}

int
tc_pg_database(const char *name, char *url, size_t n)
{
	const char *pg = getenv("GOMOKU_PG_URL"), *ctl = getenv("GOMOKU_PG_CTL"),
		   *pgdir = getenv("GOMOKU_PG_DIR");
	char cmd[600];
	if (!pg || !*pg || !ctl || !pgdir)
		return 1;
	snprintf(cmd, sizeof cmd, "%s createdb %s %s", ctl, pgdir, name);
	if (system(cmd) != 0)
		return -1;
	snprintf(url, n, "%s%s", pg, name);
	return 0;
}

/*
 * Under tests/pg/test_pg.sh a daemon's store is a PostgreSQL database
 * named for its state directory, so a restart on the same directory finds
 * the same games; a config that names its own database keeps it. Writes
 * the database line into f.
 */
static int
pg_database(const char *state, const char *conf, FILE *f)
{
	char name[40], url[300];
	if (conf && strstr(conf, "database "))
		return 0;
	snprintf(name, sizeof name, "g%lx", hash_of(state) & 0xffffffffffful);
	int rc = tc_pg_database(name, url, sizeof url);
	if (rc == 0)
		fprintf(f, "database %s\n", url);
	return rc < 0 ? -1 : 0;
}

/*
 * Under tests/daemon/withredis (GOMOKU_CLUSTER_REDIS=host:port) a daemon is
 * a node of a cluster on that Redis, alone there: a node name that follows
 * its state directory (so a restart is the same node and resumes its
 * games), listening on a port chosen here, which it advertises. A config
 * that names its own cluster keeps it. The listen line into f; 0 or -1.
 */
static int
cluster_node(const char *state, const char *conf, FILE *f)
{
	const char *redis = getenv("GOMOKU_CLUSTER_REDIS");
	if (!redis || !*redis || (conf && strstr(conf, "cluster "))) {
		fprintf(f, "listen 127.0.0.1:0\n");
		return 0;
	}
	int port = tc_free_port();
	if (port < 0)
		return -1;
	char name[7];
	unsigned long h = hash_of(state);
	for (int i = 0; i < 6; i++, h /= 26)
		name[i] = (char)('a' + h % 26);
	name[6] = '\0';
	fprintf(f,
	    "listen 127.0.0.1:%d\ncluster redis://%s\nnode-name %s\nadvertise 127.0.0.1:%d\n", port,
	    redis, name, port);
	return 0;
}

int
daemon_start(struct daemon *d, const char *bin, const char *conf)
{
	return daemon_start_nofile(d, bin, conf, 0);
}

int
daemon_start_nofile(struct daemon *d, const char *bin, const char *conf, int nofile)
{
	memset(d, 0, sizeof *d);
	snprintf(d->dir, sizeof d->dir, "/tmp/gomokud-test.XXXXXX");
	if (!tc_mkdtemp(d->dir))
		return -1;
	char cpath[200];
	snprintf(cpath, sizeof cpath, "%s/gomokud.conf", d->dir);
	snprintf(d->log, sizeof d->log, "%s/log", d->dir);
	FILE *f = fopen(cpath, "w");
	if (!f)
		return -1;
	char state[300];
	state_of(d->dir, conf, state, sizeof state);
	if (cluster_node(state, conf, f) != 0) {
		fclose(f);
		return -1;
	}
	fprintf(f, "state-dir %s/state\nlog-level debug\n%s\n", d->dir, conf ? conf : "");
	if (pg_database(state, conf, f) != 0) {
		fclose(f);
		return -1;
	}
	fclose(f);
	d->pid = fork();
	if (d->pid < 0)
		return -1;
	if (d->pid == 0) {
		int fd = open(d->log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd >= 0) {
			dup2(fd, 2);
			close(fd);
		}
		if (nofile > 0) {
			struct rlimit rl = { (rlim_t)nofile, (rlim_t)nofile };
			setrlimit(RLIMIT_NOFILE, &rl);
		}
		execl(bin, bin, "--config", cpath, (char *)NULL);
		_exit(127);
	}
	tc_child(d->pid);
	long long end = now_ms() + 10000;
	while (now_ms() < end) {
		FILE *lf = fopen(d->log, "r");
		char l[512];
		while (lf && fgets(l, sizeof l, lf)) {
			char *p = strstr(l, "listening on [::1]:");
			if (p)
				d->port6 = atoi(p + strlen("listening on [::1]:"));
			p = strstr(l, "listening on 127.0.0.1:");
			if (p)
				d->port = atoi(p + strlen("listening on 127.0.0.1:"));
			if (strstr(l, " ready (protocol")) {
				fclose(lf);
				return d->port ? 0 : -1;
			}
		}
		if (lf)
			fclose(lf);
		if (!daemon_alive(d))
			return -1;
		usleep(20000);
	}
	return -1;
}

static void
reaped(struct daemon *d, int st)
{
	d->exited = 1;
	d->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int
daemon_alive(struct daemon *d)
{
	int st;
	if (d->pid <= 0 || d->exited)
		return 0;
	pid_t p = waitpid(d->pid, &st, WNOHANG);
	if (p == d->pid)
		reaped(d, st);
	return p == 0;
}

int
daemon_log_count(const struct daemon *d, const char *what)
{
	FILE *f = fopen(d->log, "r");
	char l[2048];
	int n = 0;
	while (f && fgets(l, sizeof l, f))
		n += strstr(l, what) != NULL;
	if (f)
		fclose(f);
	return n;
}

int
tc_ctl(const char *bin, const struct daemon *d, char *out, size_t n, const char *const *argv)
{
	char sock[200];
	const char *args[16] = { bin, "--socket", sock };
	int k = 3, fds[2];
	snprintf(sock, sizeof sock, "%s/state/gomokud.ctl", d->dir);
	for (int i = 0; argv[i] && k < 15; i++)
		args[k++] = argv[i];
	args[k] = NULL;
	if (n == 0 || pipe(fds) != 0)
		return -1;
	pid_t pid = fork();
	if (pid == 0) {
		dup2(fds[1], 1);
		close(fds[0]);
		close(fds[1]);
		execv(bin, (char *const *)args);
		_exit(127);
	}
	close(fds[1]);
	size_t got = 0;
	ssize_t r;
	char buf[4096];
	while ((r = read(fds[0], buf, sizeof buf)) > 0) /* all of it: the child never blocks */
		for (ssize_t i = 0; i < r && got < n - 1; i++)
			out[got++] = buf[i];
	out[got] = '\0';
	close(fds[0]);
	int st;
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

int
daemon_wait_log(const struct daemon *d, const char *what, int n, int ms)
{
	long long end = now_ms() + ms;
	for (;;) {
		if (daemon_log_count(d, what) > n)
			return 1;
		if (now_ms() >= end)
			return 0;
		usleep(10000);
	}
}

int
daemon_stop(struct daemon *d, int sig, int ms)
{
	if (d->pid <= 0)
		return -1;
	if (d->exited) { /* already reaped: never signal a pid that may be reused */
		d->pid = 0;
		return d->status;
	}
	if (sig)
		kill(d->pid, sig);
	long long end = now_ms() + ms;
	int st;
	while (now_ms() < end) {
		pid_t p = waitpid(d->pid, &st, WNOHANG);
		if (p == d->pid) {
			reaped(d, st);
			d->pid = 0;
			return d->status;
		}
		usleep(10000);
	}
	kill(d->pid, SIGKILL);
	waitpid(d->pid, &st, 0);
	d->pid = 0;
	return -1;
}

/* port < 0: -port on ::1; small: a small receive buffer (a slow reader);
 * src: the local address to connect from (NULL: the kernel's choice) */
static int
tcp_connect(int port, int small, const char *src)
{
	struct sockaddr_storage ss = { 0 };
	socklen_t len;
	if (port < 0) {
		struct sockaddr_in6 *a = (struct sockaddr_in6 *)&ss;
		a->sin6_family = AF_INET6;
		a->sin6_port = htons((uint16_t)-port);
		a->sin6_addr = in6addr_loopback;
		len = sizeof *a;
	} else {
		struct sockaddr_in *a = (struct sockaddr_in *)&ss;
		a->sin_family = AF_INET;
		a->sin_port = htons((uint16_t)port);
		a->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		len = sizeof *a;
	}
	int fd = socket(ss.ss_family, SOCK_STREAM, 0);
	if (fd < 0)
		return -1;
	if (small) { /* before connect, so the window never promises more */
		int sz = 4096;
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &sz, sizeof sz);
	}
	if (src) {
		struct sockaddr_storage from = { 0 };
		struct sockaddr_in *f4 = (struct sockaddr_in *)&from;
		struct sockaddr_in6 *f6 = (struct sockaddr_in6 *)&from;
		from.ss_family = ss.ss_family;
		if (inet_pton(ss.ss_family, src,
			ss.ss_family == AF_INET ? (void *)&f4->sin_addr : (void *)&f6->sin6_addr) !=
			1 ||
		    bind(fd, (struct sockaddr *)&from, len) != 0) {
			close(fd);
			return -1;
		}
	}
	if (connect(fd, (struct sockaddr *)&ss, len) != 0) {
		close(fd);
		return -1;
	}
	int one = 1;
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	return fd;
}

static struct tc *open_with(const char *src, int port, const void *pre, size_t npre, int hello,
    const unsigned char *alpn, unsigned alen);

int
tc_connect_from(const char *src, int port)
{
	return tcp_connect(port, 0, src);
}

struct tc *
tc_open(int port, int hello)
{
	return open_with(NULL, port, NULL, 0, hello, NULL, 0);
}

struct tc *
tc_open_from(const char *src, int port, const void *pre, size_t npre, int hello)
{
	return open_with(src, port, pre, npre, hello, NULL, 0);
}

struct tc *
tc_open_alpn(int port, const unsigned char *alpn, unsigned len, int small)
{
	return open_with(NULL, port, NULL, 0, small ? -3 : -1, alpn, len);
}

void
tc_alpn(struct tc *c, char *out, size_t n)
{
	const unsigned char *p;
	unsigned len = 0;
	SSL_get0_alpn_selected(c->ssl, &p, &len);
	snprintf(out, n, "%.*s", (int)len, len ? (const char *)p : "");
}

/* hello: 1 HELLO, 0 the greeting only, -1 the handshake only, -2 as 1 with
 * a small receive buffer, -3 as -1 with one. */
static struct tc *
open_with(const char *src, int port, const void *pre, size_t npre, int hello,
    const unsigned char *alpn, unsigned alen)
{
	struct tc *c = calloc(1, sizeof *c);
	c->fd = tcp_connect(port, hello <= -2, src);
	if (hello == -2)
		hello = 1;
	else if (hello == -3) /* small, handshake only */
		hello = -1;
	if (c->fd < 0 || (npre && write(c->fd, pre, npre) != (ssize_t)npre)) {
		if (c->fd >= 0)
			close(c->fd);
		free(c);
		return NULL;
	}
	c->ctx = SSL_CTX_new(TLS_client_method());
	SSL_CTX_set_min_proto_version(c->ctx, TLS1_2_VERSION);
	/* a record with no data for us (a TLS 1.3 session ticket) makes
	 * SSL_read say WANT_READ, not block on this blocking socket for
	 * data that may never come: fill's poll keeps the waits */
	SSL_CTX_clear_mode(c->ctx, SSL_MODE_AUTO_RETRY);
	c->ssl = SSL_new(c->ctx);
	if (alpn)
		SSL_set_alpn_protos(c->ssl, alpn, alen);
	SSL_set_fd(c->ssl, c->fd);
	struct timeval tv = { 5, 0 };
	setsockopt(c->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
	if (SSL_connect(c->ssl) != 1) {
		tc_close(c);
		return NULL;
	}
	if (hello < 0)
		return c;
	if (!tc_expect(c, "* SERVER ", 3000)) {
		tc_close(c);
		return NULL;
	}
	if (hello) {
		tc_send(c, "HELLO 1 tclient");
		if (!tc_expect(c, "OK HELLO 1", 3000)) {
			tc_close(c);
			return NULL;
		}
	}
	return c;
}

void
tc_ask(struct tc *c, const char *line, char *out, size_t n, int ms)
{
	const char *l;
	tc_send(c, "%s", line);
	while ((l = tc_read(c, ms)))
		if (!strncmp(l, "OK ", 3) || !strncmp(l, "ERR ", 4)) {
			snprintf(out, n, "%s", l);
			return;
		}
	snprintf(out, n, "(nothing)");
}

struct tc *
tc_account(int port, const char *name, const char *password)
{
	char line[160], out[256], who[32];
	struct tc *c = tc_open(port, 1);
	if (!c)
		return NULL;
	snprintf(line, sizeof line, "REGISTER %s %s", name, password);
	tc_ask(c, line, out, sizeof out, TC_LINE_MS);
	if (sscanf(out, "OK REGISTER %31s %79s", who, c->token) != 2) {
		printf("# REGISTER %s: %s\n", name, out);
		tc_close(c);
		return NULL;
	}
	snprintf(c->name, sizeof c->name, "%s", name);
	return c;
}

struct tc *
tc_guest(int port, const char *name)
{
	struct tc *c = tc_open(port, 1);
	if (!c)
		return NULL;
	tc_send(c, "GUEST %s", name);
	const char *l = tc_expect(c, "OK GUEST ", 3000);
	if (!l || sscanf(l, "OK GUEST %31s %79s", c->name, c->token) != 2) {
		tc_close(c);
		return NULL;
	}
	return c;
}

char tc_why[256];

/* Says why a step failed (tc_why): -1. */
__attribute__((format(printf, 1, 2))) static int
why(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(tc_why, sizeof tc_why, fmt, ap);
	va_end(ap);
	return -1;
}

int
tc_pair(struct tc *b, struct tc *w, const char *game, const char *rating, char *room, size_t n)
{
	char want[64];
	tc_send(b, "SEEK %s black %s none", game, rating);
	if (!tc_expect(b, "OK SEEK ", TC_LINE_MS))
		return why("%s: no OK SEEK (last: %s)", b->name, b->line);
	tc_send(w, "SEEK %s white %s none", game, rating);
	const char *l = tc_expect(w, "* START ", TC_LINE_MS);
	if (!l)
		return why("no * START for %s (last: %s)", w->name, w->line);
	size_t len = strcspn(l + 8, " ");
	if (len == 0 || len >= n)
		return why(
		    "%s: no room id (of at most %zu characters) in \"%s\"", w->name, n - 1, l);
	memcpy(room, l + 8, len);
	room[len] = '\0';
	snprintf(want, sizeof want, "* START %s ", room);
	if (!tc_expect(b, want, TC_LINE_MS))
		return why("%s: no \"%s\" (last: %s)", b->name, want, b->line);
	if (!tc_expect(w, "OK SEEK ", TC_LINE_MS))
		return why("%s: no OK SEEK (last: %s)", w->name, w->line);
	return 0;
}

int
tc_pair_guests(int port, const char *bn, const char *wn, const char *game, struct tc **b,
    struct tc **w, char *room, size_t n)
{
	*b = tc_guest(port, bn);
	*w = tc_guest(port, wn);
	if (!*b || !*w)
		return why("cannot connect %s/%s", bn, wn);
	return tc_pair(*b, *w, game, "casual", room, n);
}

int
tc_play_five(struct tc *black, struct tc *white, const char *room, struct tc *const *watchers)
{
	static const char *const mv[] = { "h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4", "l8" };
	char ok[48], ev[96];
	snprintf(ok, sizeof ok, "OK MOVE %s ", room);
	for (int i = 0; i < 9; i++) {
		struct tc *p = i % 2 ? white : black;
		const char *side = i % 2 ? "white" : "black";
		unsigned seq = 0;
		tc_send(p, "MOVE %s %s", room, mv[i]);
		/* black's last: * OVER comes before its OK MOVE */
		const char *l = tc_expect(p, ok, TC_LINE_MS);
		if (!l || sscanf(l + strlen(ok), "%u", &seq) != 1 || seq == 0)
			return why("%s's move %s refused (last: %s)", side, mv[i], p->line);
		snprintf(ev, sizeof ev, "* MOVE %s %u %s %s ", room, seq, side, mv[i]);
		for (int k = 0; watchers && watchers[k]; k++)
			if (!tc_expect(watchers[k], ev, TC_LINE_MS))
				return why("%s missed \"%s\" (last: %s)", watchers[k]->name, ev,
				    watchers[k]->line);
	}
	snprintf(ev, sizeof ev, "* OVER %s ", room);
	if (!tc_expect(white, ev, TC_LINE_MS))
		return why("white saw no \"%s\" (last: %s)", ev, white->line);
	return 0;
}

/* The bot games' spiral, made once. */
static const int (*spiral_points(void))[2]
{
	static int spiral[225][2], ready;
	if (!ready) {
		make_spiral(spiral);
		ready = 1;
	}
	return (const int(*)[2])spiral;
}

static void
bot_over(struct tc_botgame *g, const char *l)
{
	g->over = 1;
	snprintf(g->over_line, sizeof g->over_line, "%s", l);
}

void
tc_bot_init(struct tc_botgame *g, struct tc *c, const char *room, int human_black)
{
	memset(g, 0, sizeof *g);
	g->c = c;
	snprintf(g->room, sizeof g->room, "%s", room);
	g->human_black = human_black;
	g->reply_ms = 20000;
	g->bot_ms = 30000;
}

int
tc_bot_human(struct tc_botgame *g)
{
	const int(*spiral)[2] = spiral_points();
	while (g->next < 225) {
		char mv[16];
		snprintf(mv, sizeof mv, "%c%d", 'a' + spiral[g->next][0], 15 - spiral[g->next][1]);
		g->next++;
		tc_send(g->c, "MOVE %s %s", g->room, mv);
		const char *l;
		while ((l = tc_read(g->c, g->reply_ms)) && strncmp(l, "OK MOVE", 7) != 0 &&
		    strncmp(l, "ERR", 3) != 0)
			if (strncmp(l, "* OVER", 6) == 0)
				bot_over(g, l);
		if (!l)
			return why("no answer to MOVE %s %s (last: %s)", g->room, mv, g->c->line);
		if (strncmp(l, "OK MOVE", 7) == 0) {
			g->moves++;
			return 0;
		}
		if (g->over && strstr(l, " 440 ")) /* the bot's last move ended it */
			return 0;
		/* occupied, or (renju, black) forbidden: the next point */
		if (!strstr(l, " 432 ") &&
		    !(g->renju && g->human_black &&
			(strstr(l, " 434 ") || strstr(l, " 435 ") || strstr(l, " 436 "))))
			return why("MOVE %s %s: %s", g->room, mv, l);
	}
	return why("no legal point left in %s", g->room);
}

int
tc_bot_wait(struct tc_botgame *g)
{
	const char *bot = g->human_black ? "white" : "black", *l;
	if (g->over)
		return 0;
	while ((l = tc_read(g->c, g->bot_ms))) {
		char side[8];
		if (strncmp(l, "* OVER", 6) == 0) {
			bot_over(g, l);
			return 0;
		}
		if (strncmp(l, "* THINK", 7) == 0)
			g->thinks++;
		else if (sscanf(l, "* MOVE %*s %*s %7s", side) == 1 && strcmp(side, bot) == 0) {
			/* "* MOVE room seq side move bms wms reason...": 7 fields, a reason */
			int fields = 0;
			for (const char *p = l; *p; p++)
				fields += *p == ' ' && p[1] && p[1] != ' ';
			g->reasons += fields >= 7;
			g->moves++;
			g->bot_moves++;
			return 1;
		}
	}
	return why("the bot never moved in %s (last: %s)", g->room, g->c->line);
}

int
tc_bot_play_out(struct tc_botgame *g)
{
	while (!g->over) {
		int humans_turn = g->moves % 2 == (g->human_black ? 0 : 1);
		if (humans_turn ? tc_bot_human(g) != 0 : tc_bot_wait(g) < 0)
			return -1;
	}
	return 0;
}

void
tc_close(struct tc *c)
{
	if (!c)
		return;
	if (c->ssl)
		SSL_free(c->ssl);
	if (c->ctx)
		SSL_CTX_free(c->ctx);
	if (c->fd >= 0)
		close(c->fd);
	free(c);
}

void
tc_send_raw(struct tc *c, const void *data, size_t n)
{
	if (n && SSL_write(c->ssl, data, (int)n) <= 0)
		ERR_clear_error();
}

void
tc_send(struct tc *c, const char *fmt, ...)
{
	char buf[2048];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, sizeof buf - 1, fmt, ap);
	va_end(ap);
	if (n < 0 || n >= (int)sizeof buf - 1)
		n = (int)sizeof buf - 2;
	if (tc_verbose)
		fprintf(stderr, "  %s> %s\n", c->name, buf);
	buf[n++] = '\n';
	tc_send_raw(c, buf, (size_t)n);
}

/* Reads more bytes within ms: 1, 0 on timeout, -1 on close. */
static int
fill(struct tc *c, int ms)
{
	if (c->len >= sizeof c->buf - 1)
		return -1;
	if (SSL_pending(c->ssl) == 0) {
		struct pollfd p = { c->fd, POLLIN, 0 };
		if (poll(&p, 1, ms) <= 0)
			return 0;
	}
	int n = SSL_read(c->ssl, c->buf + c->len, (int)(sizeof c->buf - 1 - c->len));
	if (n <= 0) {
		int e = SSL_get_error(c->ssl, n);
		ERR_clear_error();
		if (e == SSL_ERROR_WANT_READ)
			return 0;
		return -1;
	}
	c->len += (size_t)n;
	return 1;
}

const char *
tc_read(struct tc *c, int ms)
{
	long long end = now_ms() + ms;
	for (;;) {
		char *nl = memchr(c->buf, '\n', c->len);
		if (nl) {
			size_t n = (size_t)(nl - c->buf);
			if (n >= sizeof c->line)
				n = sizeof c->line - 1;
			memcpy(c->line, c->buf, n);
			c->line[n] = '\0';
			size_t used = (size_t)(nl - c->buf) + 1;
			memmove(c->buf, c->buf + used, c->len - used);
			c->len -= used;
			if (tc_verbose)
				fprintf(stderr, "  %s< %s\n", c->name, c->line);
			return c->line;
		}
		long long left = end - now_ms();
		if (left <= 0)
			return NULL;
		if (fill(c, (int)left) < 0)
			return NULL;
	}
}

int
tc_read_bytes(struct tc *c, void *buf, size_t n, int ms)
{
	long long end = now_ms() + ms;
	while (c->len < n) {
		long long left = end - now_ms();
		if (left <= 0 || n >= sizeof c->buf || fill(c, (int)left) < 0)
			return -1;
	}
	memcpy(buf, c->buf, n);
	memmove(c->buf, c->buf + n, c->len - n);
	c->len -= n;
	return 0;
}

const char *
tc_expect(struct tc *c, const char *prefix, int ms)
{
	long long end = now_ms() + ms;
	for (;;) {
		long long left = end - now_ms();
		if (left <= 0)
			return NULL;
		const char *l = tc_read(c, (int)left);
		if (!l)
			return NULL;
		if (strncmp(l, prefix, strlen(prefix)) == 0)
			return l;
	}
}

int
tc_closed(struct tc *c, int ms)
{
	long long end = now_ms() + ms;
	for (;;) {
		long long left = end - now_ms();
		if (left <= 0)
			return 0;
		c->len = 0;
		int r = fill(c, (int)left);
		if (r < 0)
			return 1;
	}
}

void
tc_cert_digest(struct tc *c, char out[65])
{
	X509 *x = SSL_get1_peer_certificate(c->ssl);
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned n = 0;
	out[0] = '\0';
	if (x && X509_digest(x, EVP_sha256(), md, &n))
		for (unsigned i = 0; i < n && i < 32; i++)
			snprintf(out + 2 * i, 3, "%02x", md[i]);
	X509_free(x);
}

/* CPU time (user + system) the process has used, in ms. */
double
tc_cpu_ms(pid_t pid)
{
	char path[64], buf[1024];
	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	char *p = strrchr(buf, ')'); /* the command name may hold spaces */
	unsigned long ut = 0, st = 0;
	if (!p ||
	    sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &ut, &st) != 2)
		return -1;
	return (double)(ut + st) * 1000.0 / (double)sysconf(_SC_CLK_TCK);
}

long
tc_metric(int port, const char *name)
{
	static char buf[1 << 17];
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	const char *req = "GET /metrics HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n";
	size_t n = 0;
	ssize_t r = write(fd, req, strlen(req));
	while (r > 0 && n + 1 < sizeof buf && (r = read(fd, buf + n, sizeof buf - 1 - n)) > 0)
		n += (size_t)r;
	close(fd);
	buf[n] = '\0';
	for (char *l = strtok(buf, "\n"); l; l = strtok(NULL, "\n"))
		if (strncmp(l, name, strlen(name)) == 0 && l[strlen(name)] == ' ')
			return atol(l + strlen(name) + 1);
	return -1;
}

const char *
tc_move_answer(struct tc *c, int ms)
{
	const char *l;
	while ((l = tc_read(c, ms)) && strncmp(l, "OK MOVE", 7) != 0 && strncmp(l, "ERR", 3) != 0)
		;
	return l;
}

int
tc_pair_rooms(
    int port, int n, struct tc **black, struct tc **white, char room[][24], const char *tag)
{
	for (int i = 0; i < n; i++) {
		char b[16], w[16];
		snprintf(b, sizeof b, "%sb%d", tag, i);
		snprintf(w, sizeof w, "%sw%d", tag, i);
		if (tc_pair_guests(
			port, b, w, "freestyle 15 none", &black[i], &white[i], room[i], 24) != 0) {
			printf("FAIL: pairing %s: %s\n", b, tc_why);
			return -1;
		}
	}
	for (int i = 0; i < n; i++) /* the lines of the start (* RATINGS ...) */
		while (tc_read(black[i], 150) || tc_read(white[i], 50))
			;
	return 0;
}
