/*
 * test_exhaust: the metrics and control listeners under attack (issue 41,
 * H4 and M3), on the real bin/gomokud over loopback.
 *
 * H4: a daemon with a low descriptor limit has them all taken by ordinary
 * connections to the game port; then metrics scrapes and gomokuctl calls
 * come. gomokuctl still answers (the control socket's reserve descriptor),
 * the daemon does not spin (its CPU time over 3 s stays low), the log
 * stays a few lines (one per listener and episode), and once the
 * connections go metrics answers again.
 *
 * M3: the metrics listener's cap (METRICS_MAX_CONNS connections at once)
 * and its deadline (METRICS_DEADLINE_S from accept, not an idle timer):
 * slow clients that trickle a header line every 300 ms are closed by the
 * deadline, and a scrape that came while they held the cap is answered
 * after they go.
 *
 * L4: SEEKS pages (50 a page, OK SEEKS <n> <total>), the seeks the asker
 * could pair with first (its own last), and a bare SEEKS still answers the
 * old OK SEEKS <n>.
 */
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "daemon/metrics.h"
#include "tests/daemon/check.h"
#include "tests/daemon/tclient.h"

#ifndef GOMOKUD_BIN
#define GOMOKUD_BIN "bin/gomokud"
#endif
#ifndef GOMOKUCTL_BIN
#define GOMOKUCTL_BIN "bin/gomokuctl"
#endif

/* The metrics port the daemon logged, or 0. */
static int
metrics_port(const struct daemon *d)
{
	FILE *f = fopen(d->log, "r");
	char l[512];
	int port = 0;
	while (f && fgets(l, sizeof l, f)) {
		const char *p = strstr(l, "metrics on http://127.0.0.1:");
		if (p)
			port = atoi(p + strlen("metrics on http://127.0.0.1:"));
	}
	if (f)
		fclose(f);
	return port;
}

static int
log_lines(const struct daemon *d)
{
	FILE *f = fopen(d->log, "r");
	int n = 0, ch;
	while (f && (ch = fgetc(f)) != EOF)
		n += ch == '\n';
	if (f)
		fclose(f);
	return n;
}

/* utime + stime of pid, in clock ticks; -1 if unknown. */
static long
cpu_ticks(pid_t pid)
{
	char path[64], buf[1024];
	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
	if (f)
		fclose(f);
	buf[n] = '\0';
	char *p = strrchr(buf, ')'); /* the name may hold spaces */
	unsigned long ut, st;
	if (!p ||
	    sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &ut, &st) != 2)
		return -1;
	return (long)(ut + st);
}

/* A plain TCP connection to 127.0.0.1:port, or -1. */
static int
tcp(int port)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd >= 0 && connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/* gomokuctl --socket sock status, its output thrown away: its exit status. */
static int
ctl_status(const char *sock)
{
	pid_t pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);
		dup2(null, 1);
		dup2(null, 2);
		execl(GOMOKUCTL_BIN, GOMOKUCTL_BIN, "--socket", sock, "status", (char *)NULL);
		_exit(127);
	}
	int st = -1;
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

/* GET /metrics on a new connection: whether a 200 came within ms. */
static int
scrape_ok(int port, int ms)
{
	int fd = tcp(port);
	if (fd < 0)
		return 0;
	static const char req[] = "GET /metrics HTTP/1.0\r\n\r\n";
	int ok = send(fd, req, sizeof req - 1, MSG_NOSIGNAL) == (ssize_t)(sizeof req - 1);
	char buf[64] = "";
	size_t len = 0;
	long long end = tc_now_ms() + ms;
	while (ok && len < 12) {
		struct pollfd p = { fd, POLLIN, 0 };
		int left = (int)(end - tc_now_ms());
		if (left <= 0 || poll(&p, 1, left) <= 0)
			break;
		ssize_t r = recv(fd, buf + len, sizeof buf - 1 - len, 0);
		if (r <= 0)
			break;
		len += (size_t)r;
	}
	buf[len] = '\0';
	close(fd);
	return ok && strncmp(buf, "HTTP/1.", 7) == 0 && strstr(buf, " 200");
}

static void
test_descriptors(void)
{
	struct daemon d;
	REQUIRE(daemon_start_nofile(&d, GOMOKUD_BIN, "metrics-listen 127.0.0.1:0", 40) == 0,
	    "no daemon with 40 descriptors (%s)", d.log);
	int mport = metrics_port(&d);
	REQUIRE(mport > 0, "no metrics port in %s", d.log);
	char sock[300];
	snprintf(sock, sizeof sock, "%s/state/gomokud.ctl", d.dir);

	enum { NGAME = 60, NSCRAPE = 4 };
	int game[NGAME], scrape[NSCRAPE];
	for (int i = 0; i < NGAME; i++)
		game[i] = tcp(d.port);
	CHECK(daemon_wait_log(&d, "pausing accept", 0, 3000), "the game port did not pause");
	static const char req[] = "GET /metrics HTTP/1.0\r\n\r\n";
	for (int i = 0; i < NSCRAPE; i++) {
		scrape[i] = tcp(mport);
		if (scrape[i] >= 0 && send(scrape[i], req, sizeof req - 1, MSG_NOSIGNAL) < 0)
			CHECK(0, "cannot send a scrape");
	}
	CHECK(daemon_wait_log(&d, "metrics: accept:", 0, 3000), "the metrics port did not pause");
	CHECK(ctl_status(sock) == 0, "gomokuctl status got no answer out of descriptors");
	int lines = log_lines(&d);
	long t0 = cpu_ticks(d.pid);
	long long w0 = tc_now_ms();
	for (int i = 0; i < 3; i++) {
		CHECK(ctl_status(sock) == 0, "gomokuctl status %d got no answer", i + 2);
		for (int k = 0; k < NSCRAPE; k++) /* more scrapes knock meanwhile */
			if (tc_now_ms() - w0 < 3000) {
				int fd = tcp(mport);
				if (fd >= 0)
					close(fd);
			}
		usleep(900 * 1000);
	}
	long t1 = cpu_ticks(d.pid), hz = sysconf(_SC_CLK_TCK);
	double busy = (double)(t1 - t0) / (double)hz, wall = (double)(tc_now_ms() - w0) / 1000;
	int more = log_lines(&d) - lines;
	printf("   out of descriptors: %.2f s of CPU over %.1f s, %d log lines more\n", busy, wall,
	    more);
	CHECK(t0 >= 0 && t1 >= 0 && busy < 0.2 * wall, "the daemon spins: %.2f s CPU in %.1f s",
	    busy, wall);
	CHECK(more <= 8, "the log grew %d lines in %.1f s", more, wall);
	CHECK(daemon_log_count(&d, "metrics: accept:") == 1,
	    "the metrics pause was logged %d times", daemon_log_count(&d, "metrics: accept:"));
	CHECK(daemon_log_count(&d, "pausing accept") <= 2, "the game pause was logged %d times",
	    daemon_log_count(&d, "pausing accept"));

	for (int i = 0; i < NGAME; i++)
		if (game[i] >= 0)
			close(game[i]);
	for (int i = 0; i < NSCRAPE; i++)
		if (scrape[i] >= 0)
			close(scrape[i]);
	int back = 0;
	for (long long end = tc_now_ms() + 5000; !back && tc_now_ms() < end;)
		if (!(back = scrape_ok(mport, 1000)))
			usleep(200 * 1000);
	CHECK(back, "metrics did not answer once the descriptors were free");
	CHECK(daemon_wait_log(&d, "metrics: accepting again", 0, 3000), "no end of the episode");
	CHECK(ctl_status(sock) == 0, "gomokuctl status after the episode");
	CHECK(daemon_stop(&d, SIGTERM, 5000) == 0, "the daemon did not stop cleanly");
	ok("out of descriptors: gomokuctl answers, metrics and the game port pause without "
	   "spinning, one log line per episode; metrics answers again after");
}

static void
test_metrics_bounds(void)
{
	struct daemon d;
	REQUIRE(daemon_start(&d, GOMOKUD_BIN, "metrics-listen 127.0.0.1:0") == 0, "no daemon (%s)",
	    d.log);
	int mport = metrics_port(&d);
	REQUIRE(mport > 0, "no metrics port in %s", d.log);
	enum { N = METRICS_MAX_CONNS };
	int slow[N];
	long long opened = tc_now_ms(), closed_at[N];
	for (int i = 0; i < N; i++) {
		slow[i] = tcp(mport);
		closed_at[i] = 0;
		REQUIRE(slow[i] >= 0, "slow client %d could not connect", i);
		static const char head[] = "GET /metrics HTTP/1.1\r\nHost: x\r\n";
		send(slow[i], head, sizeof head - 1, MSG_NOSIGNAL);
	}
	usleep(300 * 1000);
	/* the cap is full: this scrape waits in the backlog */
	int late = tcp(mport);
	REQUIRE(late >= 0, "the late scrape could not connect");
	static const char req[] = "GET /metrics HTTP/1.0\r\n\r\n";
	send(late, req, sizeof req - 1, MSG_NOSIGNAL);
	long long answered = 0, last_trickle = 0, end = opened + 12000;
	char buf[4096];
	while (tc_now_ms() < end && !answered) {
		long long now = tc_now_ms();
		if (now - last_trickle >= 300) { /* a header line: never idle */
			last_trickle = now;
			for (int i = 0; i < N; i++)
				if (!closed_at[i] &&
				    send(slow[i], "X-a: b\r\n", 8, MSG_NOSIGNAL) < 0)
					closed_at[i] = now;
		}
		struct pollfd p[N + 1];
		for (int i = 0; i < N; i++)
			p[i] = (struct pollfd){ closed_at[i] ? -1 : slow[i], POLLIN, 0 };
		p[N] = (struct pollfd){ late, POLLIN, 0 };
		if (poll(p, N + 1, 50) <= 0)
			continue;
		for (int i = 0; i < N; i++)
			if (p[i].revents && recv(slow[i], buf, sizeof buf, 0) <= 0)
				closed_at[i] = tc_now_ms();
		if (p[N].revents) {
			ssize_t r = recv(late, buf, sizeof buf - 1, 0);
			if (r > 0) {
				buf[r] = '\0';
				CHECK(strstr(buf, " 200"), "the late scrape got %.40s", buf);
			}
			answered = tc_now_ms();
		}
	}
	long long first = 0, last = 0;
	for (int i = 0; i < N; i++) {
		long long t = closed_at[i] ? closed_at[i] - opened : -1;
		CHECK(t >= (METRICS_DEADLINE_S - 1) * 1000 && t <= (METRICS_DEADLINE_S + 2) * 1000,
		    "slow client %d closed after %lld ms (deadline %d s)", i, t,
		    METRICS_DEADLINE_S);
		if (!first || t < first)
			first = t;
		if (t > last)
			last = t;
		close(slow[i]);
	}
	long long late_ms = answered ? answered - opened : -1;
	printf("   %d trickling clients closed %lld..%lld ms after connecting; the late scrape "
	       "answered at %lld ms\n",
	    N, first, last, late_ms);
	CHECK(answered && late_ms >= first,
	    "the late scrape was answered at %lld ms, with the cap "
	    "full until %lld ms",
	    late_ms, first);
	close(late);
	CHECK(scrape_ok(mport, 2000), "no scrape after the slow clients went");
	CHECK(daemon_stop(&d, SIGTERM, 5000) == 0, "the daemon did not stop cleanly");
	ok("metrics: at most METRICS_MAX_CONNS at once (more wait), each closed by its deadline "
	   "from accept however it trickles");
}

/* The = SEEK lines of one SEEKS reply, the OK line into ok (n bytes): the
 * count of lines, and the user of the first and last into first, last. */
static int
seeks_page(struct tc *c, const char *req, char *ok_line, size_t n, char *first, char *last)
{
	int lines = 0;
	first[0] = last[0] = '\0';
	tc_send(c, "%s", req);
	for (const char *l; (l = tc_read(c, 3000)) != NULL;) {
		if (strncmp(l, "OK SEEKS", 8) == 0) {
			snprintf(ok_line, n, "%s", l);
			return lines;
		}
		char user[40];
		if (sscanf(l, "= SEEK %*s %39s", user) == 1) {
			if (!lines++)
				snprintf(first, 40, "%s", user);
			snprintf(last, 40, "%s", user);
		}
	}
	snprintf(ok_line, n, "(none)");
	return lines;
}

static void
test_seeks_pages(void)
{
	struct daemon d;
	REQUIRE(daemon_start(&d, GOMOKUD_BIN,
		    "max-per-address 200\nmax-connections 300\nmax-seeks-per-address 100") == 0,
	    "no daemon (%s)", d.log);
	enum { SPAM = 54 };
	struct tc *me = tc_guest(d.port, "asker"), *spam[SPAM];
	REQUIRE(me, "no asker");
	tc_send(me, "SEEK renju 15 300+5 black casual none");
	CHECK(tc_expect(me, "OK SEEK ", 3000), "the asker's seek: %s", me->line);
	int opened = 0;
	for (int i = 0; i < SPAM; i++) {
		char name[16];
		snprintf(name, sizeof name, "spam%02d", i);
		if (!(spam[i] = tc_guest(d.port, name)))
			continue;
		tc_send(spam[i], "SEEK freestyle 15 600+0 black casual none");
		opened += tc_expect(spam[i], "OK SEEK ", 3000) != NULL;
	}
	REQUIRE(opened == SPAM, "only %d spam seeks", opened);
	struct tc *real = tc_guest(d.port, "real");
	REQUIRE(real, "no real player");
	tc_send(real, "SEEK freestyle 15 300+0 any casual none");
	CHECK(tc_expect(real, "OK SEEK ", 3000), "the real seek: %s", real->line);
	int total = SPAM + 2;

	char ok_line[64], want[64], first[40], last[40];
	int n = seeks_page(me, "SEEKS 1", ok_line, sizeof ok_line, first, last);
	snprintf(want, sizeof want, "OK SEEKS 50 %d", total);
	CHECK(n == 50 && strcmp(ok_line, want) == 0, "page 1: %d lines, %s (want %s)", n, ok_line,
	    want);
	CHECK(strcmp(first, "spam00") == 0, "page 1 starts with %s, not the oldest other", first);
	n = seeks_page(me, "SEEKS 2", ok_line, sizeof ok_line, first, last);
	snprintf(want, sizeof want, "OK SEEKS %d %d", total - 50, total);
	CHECK(n == total - 50 && strcmp(ok_line, want) == 0, "page 2: %d lines, %s (want %s)", n,
	    ok_line, want);
	CHECK(strcmp(last, "asker") == 0, "the asker's own seek is not last: %s", last);
	n = seeks_page(me, "SEEKS 3", ok_line, sizeof ok_line, first, last);
	snprintf(want, sizeof want, "OK SEEKS 0 %d", total);
	CHECK(n == 0 && strcmp(ok_line, want) == 0, "page 3: %d lines, %s", n, ok_line);
	/* the newer real seek is reachable: on page 2, before the asker's own */
	int found = 0;
	tc_send(me, "SEEKS 2");
	for (const char *l; (l = tc_read(me, 3000)) && strncmp(l, "OK ", 3) != 0;)
		found |= strstr(l, " real freestyle 15 300+0 any casual none") != NULL;
	CHECK(found, "the real player's seek is on no page");
	/* a client from before seekpages: page 1, no total */
	n = seeks_page(me, "SEEKS", ok_line, sizeof ok_line, first, last);
	CHECK(
	    n == 50 && strcmp(ok_line, "OK SEEKS 50") == 0, "bare SEEKS: %d lines, %s", n, ok_line);
	/* the real player's own seek is last in its list too */
	n = seeks_page(real, "SEEKS 2", ok_line, sizeof ok_line, first, last);
	CHECK(strcmp(last, "real") == 0, "the real player's own seek is not last: %s", last);
	for (int i = 0; i < SPAM; i++)
		tc_close(spam[i]);
	tc_close(real);
	tc_close(me);
	CHECK(daemon_stop(&d, SIGTERM, 5000) == 0, "the daemon did not stop cleanly");
	ok("SEEKS pages: 50 a page with the total, the asker's own last, every seek on a page, "
	   "a bare SEEKS answered as before");
}

int
main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGPIPE, SIG_IGN);
	test_descriptors();
	test_metrics_bounds();
	test_seeks_pages();
	printf("test_exhaust: %s\n", failures ? "FAILED" : "passed");
	return failures ? 1 : 0;
}
