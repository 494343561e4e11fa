/*
 * arenabench.c: the tournaments' figures of issue 48 (PROTOCOL.md 5.21)
 * as a benchmark, never pass/fail. For each binary it starts the real
 * gomokud on loopback in a temporary directory (its SQLite store; limits
 * raised so that a thousand connections from one address are let in), an
 * admin account creates a casual people's arena (freestyle 15, 180+0,
 * starting in 5 s, -m minutes long) and n guests join it. They are
 * simulated players on one thread, every connection read as it becomes
 * readable (poll): at each * START its black player resigns, at once or
 * after a random pause of up to -p ms, so that players come free all the
 * time and the arena pairs them again wave after wave (a wave a second).
 * After a warm-up (-w seconds from the arena's start) it measures over a
 * window of -s seconds:
 *   - the daemon's CPU (user + system) per game started (the games from
 *     gomokud_games_started_total);
 *   - each wave's pairing as the daemon times it on its loop
 *     (gomokud_tourney_pairing_seconds: the mean from _sum and _count, an
 *     upper bound of the 99th percentile and of the max from the buckets;
 *     "(no histogram)" for a daemon whose /metrics lacks it);
 *   - the waves a second and the players each wave paired (the * TGAME
 *     lines the creator gets as it follows the event), and the lines the
 *     players were sent a second.
 * With -u the players stop following the event once joined (TUNWATCH), so
 * that only the creator gets its * TPLAYER and * TGAME lines. With -B the
 * same runs against a second binary (a then b), so that a change to the
 * daemon is compared with the binary before it on one machine.
 *
 *   arenabench [-b gomokud] [-B other-gomokud] [-n players] [-m minutes]
 *              [-p pause-ms] [-w warm-up-seconds] [-s seconds] [-u]
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <openssl/err.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "tests/daemon/tclient.h"

enum {
	PLAYERS_MAX = 2000,   /* the daemon's tourney-players is at most 2048 */
	LINE_MS = 20000,      /* an answer, however loaded */
	METRICS_PORT = 42300, /* + the binary's number: this bench's ports */
	BUCKETS = 15,         /* the pairing histogram's, +Inf the last */
	ROUNDS_MAX = 100000,  /* waves followed */
	METRICS_MAX = 1 << 18,
};

/* The histogram's bounds (daemon/metrics.c's fast ones), seconds. */
static const double le[BUCKETS - 1] = { 50e-6, 100e-6, 250e-6, 500e-6, 1e-3, 2.5e-3, 5e-3, 10e-3,
	25e-3, 50e-3, 100e-3, 250e-3, 500e-3, 1 };

struct scrape {
	double started; /* games, every rule */
	double sum, count, bucket[BUCKETS];
	double cpu_ms; /* the daemon's */
	double at;     /* seconds, monotonic */
	int round;     /* the last wave seen */
	int timed;     /* the pairing histogram was there */
};

struct player {
	struct tc *c;
	char room[24];
	long long resign_at; /* ms; 0: nothing to do */
	int gone;
};

/* One binary's figures. */
struct figures {
	const char *bin;
	int ok, timed;
	int joined, refused, dropped, errors, starts;
	long lines; /* read by the players */
	double window_lines;
	double window_s, games, waves, wave_games;
	double cpu_ms, pair_sum, pair_count, bucket[BUCKETS];
	double client_cpu_ms;
	char first_error[160];
};

static int nplayers = 1000, minutes = 3, pause_ms = 0, warm_s = 20, window_s = 60, unwatch;
static struct player players[PLAYERS_MAX];
static int wave_boards[ROUNDS_MAX + 1]; /* the most boards seen in each wave */
static int max_round;

/* ---- reading many connections ------------------------------------------ */

/* Bytes c has for us now, without waiting: 1, 0 when none, -1 on close. */
static int
more(struct tc *c)
{
	if (c->len >= sizeof c->buf - 1)
		return -1;
	if (SSL_pending(c->ssl) == 0) {
		struct pollfd p = { c->fd, POLLIN, 0 };
		if (poll(&p, 1, 0) <= 0)
			return 0;
	}
	int n = SSL_read(c->ssl, c->buf + c->len, (int)(sizeof c->buf - 1 - c->len));
	if (n <= 0) {
		int e = SSL_get_error(c->ssl, n);
		ERR_clear_error();
		return e == SSL_ERROR_WANT_READ ? 0 : -1;
	}
	c->len += (size_t)n;
	return 1;
}

/* The next line c has without waiting, or NULL (*closed set on a close). */
static const char *
next_line(struct tc *c, int *closed)
{
	for (;;) {
		const char *l = tc_read(c, 0); /* what is buffered only */
		if (l)
			return l;
		int r = more(c);
		if (r < 0)
			*closed = 1;
		if (r <= 0)
			return NULL;
	}
}

static double
cpu_self_ms(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec * 1e3 + (double)ru.ru_utime.tv_usec / 1e3 +
	    (double)ru.ru_stime.tv_sec * 1e3 + (double)ru.ru_stime.tv_usec / 1e3;
}

/* ---- /metrics ------------------------------------------------------------ */

static int
scrape(int port, pid_t pid, struct scrape *s)
{
	static const char pair[] = "gomokud_tourney_pairing_seconds";
	static const char started[] = "gomokud_games_started_total{";
	char *buf = malloc(METRICS_MAX);
	size_t n = 0;
	int fd = socket(AF_INET, SOCK_STREAM, 0), got = 0;
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	memset(s, 0, sizeof *s);
	s->cpu_ms = tc_cpu_ms(pid);
	s->at = (double)tc_now_ms() / 1e3;
	s->round = max_round;
	if (buf && fd >= 0 && connect(fd, (struct sockaddr *)&sa, sizeof sa) == 0) {
		const char *req = "GET /metrics HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n";
		ssize_t r = write(fd, req, strlen(req));
		while (r > 0 && n + 1 < METRICS_MAX &&
		    (r = read(fd, buf + n, METRICS_MAX - 1 - n)) > 0)
			n += (size_t)r;
		buf[n] = '\0';
		for (char *l = buf; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
			if (strncmp(l, started, sizeof started - 1) == 0) {
				char *v = strchr(l, ' ');
				if (v) {
					s->started += strtod(v, NULL);
					got |= 1;
				}
				continue;
			}
			if (strncmp(l, pair, sizeof pair - 1) != 0)
				continue;
			const char *rest = l + sizeof pair - 1;
			if (strncmp(rest, "_sum ", 5) == 0) {
				s->sum = strtod(rest + 5, NULL);
				got |= 2;
			} else if (strncmp(rest, "_count ", 7) == 0) {
				s->count = strtod(rest + 7, NULL);
				got |= 4;
			} else if (strncmp(rest, "_bucket{le=\"", 12) == 0) {
				char *q = strchr(rest + 12, '"');
				int b = BUCKETS - 1;
				if (strncmp(rest + 12, "+Inf", 4) != 0) {
					double x = strtod(rest + 12, NULL);
					for (b = 0; b < BUCKETS - 1 && le[b] < x * 0.999; b++)
						;
				}
				if (q && q[1] == '}')
					s->bucket[b] = strtod(q + 2, NULL);
			}
		}
	}
	if (fd >= 0)
		close(fd);
	free(buf);
	s->timed = (got & 6) == 6;
	return (got & 1) && s->cpu_ms >= 0 ? 0 : -1;
}

/* ---- the players ----------------------------------------------------------- */

static long long
now_ms(void)
{
	return tc_now_ms();
}

static void
note_error(struct figures *f, const char *who, const char *l)
{
	f->errors++;
	if (!f->first_error[0])
		snprintf(f->first_error, sizeof f->first_error, "%s: %s", who, l);
}

static void
player_line(struct figures *f, struct player *p, const char *l)
{
	char room[24], black[32];
	f->lines++;
	if (sscanf(l, "* START %23s %*s %31s", room, black) == 2) {
		f->starts++;
		if (strcmp(black, p->c->name) == 0) {
			snprintf(p->room, sizeof p->room, "%s", room);
			p->resign_at = now_ms() + (pause_ms ? rand() % (pause_ms + 1) : 0);
		}
	} else if (strncmp(l, "ERR", 3) == 0) {
		note_error(f, p->c->name, l);
	}
}

static void
admin_line(long id, const char *l, int *over)
{
	long tid;
	int round, board;
	char state[16];
	if (sscanf(l, "* TGAME %ld %d %d", &tid, &round, &board) == 3 && tid == id) {
		if (round >= 0 && round <= ROUNDS_MAX) {
			if (board > wave_boards[round])
				wave_boards[round] = board;
			if (round > max_round)
				max_round = round;
		}
	} else if (sscanf(l, "* TOURNEY %ld arena %15s", &tid, state) == 2 && tid == id &&
	    (strcmp(state, "over") == 0 || strcmp(state, "cancelled") == 0))
		*over = 1;
}

/* Polls every connection for up to ms, handling what came and the resigns
 * that are due. */
static void
serve(struct figures *f, struct tc *admin, long id, int ms, int *over)
{
	static struct pollfd fds[PLAYERS_MAX + 1];
	long long end = now_ms() + ms;
	do {
		int nfd = 0;
		for (int i = 0; i < nplayers; i++)
			if (!players[i].gone)
				fds[nfd++] = (struct pollfd){ players[i].c->fd, POLLIN, 0 };
		fds[nfd++] = (struct pollfd){ admin->fd, POLLIN, 0 };
		long long wait = end - now_ms();
		poll(fds, (nfds_t)nfd, wait > 20 ? 20 : wait < 0 ? 0 : (int)wait);
		const char *l;
		int closed = 0;
		while ((l = next_line(admin, &closed)))
			admin_line(id, l, over);
		if (closed) {
			note_error(f, "the admin", "its connection closed");
			*over = 1;
			return;
		}
		long long now = now_ms();
		for (int i = 0; i < nplayers; i++) {
			struct player *p = &players[i];
			if (p->gone)
				continue;
			closed = 0;
			while ((l = next_line(p->c, &closed)))
				player_line(f, p, l);
			if (closed) {
				p->gone = 1;
				f->dropped++;
				continue;
			}
			if (p->resign_at && p->resign_at <= now) {
				tc_send(p->c, "RESIGN %s", p->room);
				p->resign_at = 0;
			}
		}
	} while (!*over && now_ms() < end);
}

/* ---- one binary's run -------------------------------------------------------- */

static int
block(struct figures *f, int number)
{
	struct daemon d;
	char conf[640], out[256], line[160];
	int mport = METRICS_PORT + number, rc = -1, over = 0;
	struct tc *admin = NULL;
	snprintf(conf, sizeof conf,
	    "log-level info\nmetrics-listen 127.0.0.1:%d\nmax-per-address %d\n"
	    "max-connections %d\nmax-away-per-address %d\ntourney-players %d\n"
	    "admins abench\nrate-per-second 1000\nrate-burst 1000\nidle-timeout 3600\n",
	    mport, nplayers + 16, nplayers + 64, nplayers + 16, nplayers);
	if (daemon_start_nofile(&d, f->bin, conf, 2 * nplayers + 256) != 0) {
		fprintf(stderr, "arenabench: %s did not start\n", f->bin);
		return -1;
	}
	memset(players, 0, sizeof players);
	memset(wave_boards, 0, sizeof wave_boards);
	max_round = 0;
	admin = tc_open(d.port, 1);
	if (!admin) {
		fprintf(stderr, "arenabench: the admin could not connect\n");
		goto out;
	}
	tc_ask(admin, "REGISTER abench bench-pass-48", out, sizeof out, LINE_MS);
	if (strncmp(out, "OK REGISTER", 11) != 0) {
		fprintf(stderr, "arenabench: REGISTER: %s\n", out);
		goto out;
	}
	long long t0 = now_ms();
	for (int i = 0; i < nplayers; i++) {
		char name[16];
		snprintf(name, sizeof name, "ap%d", i);
		if (!(players[i].c = tc_guest(d.port, name))) {
			f->refused = nplayers - i;
			fprintf(
			    stderr, "arenabench: guest %s could not connect (%d in)\n", name, i);
			nplayers = i; /* this run goes on with those in */
			break;
		}
	}
	printf("  %s: %d guests connected in %.1f s\n", f->bin, nplayers,
	    (double)(now_ms() - t0) / 1e3);
	snprintf(line, sizeof line,
	    "TCREATE arena freestyle 15 180+0 none casual people 5 %d Bench arena", minutes);
	tc_ask(admin, line, out, sizeof out, LINE_MS);
	long id;
	if (sscanf(out, "OK TCREATE %ld", &id) != 1) {
		fprintf(stderr, "arenabench: %s: %s\n", line, out);
		goto out;
	}
	long long start_at = now_ms() + 5000;
	for (int i = 0; i < nplayers; i++)
		tc_send(players[i].c, "TJOIN %ld", id);
	for (int i = 0; i < nplayers; i++) {
		const char *l;
		while ((l = tc_read(players[i].c, LINE_MS)) && strncmp(l, "OK TJOIN", 8) != 0 &&
		    strncmp(l, "ERR", 3) != 0)
			player_line(f, &players[i], l);
		if (l && strncmp(l, "OK TJOIN", 8) == 0)
			f->joined++;
		else
			note_error(f, players[i].c->name, l ? l : "no answer to TJOIN");
		if (unwatch)
			tc_send(players[i].c, "TUNWATCH %ld", id);
	}
	printf("  %s: %d joined arena %ld in %.1f s%s\n", f->bin, f->joined, id,
	    (double)(now_ms() - t0) / 1e3, unwatch ? ", then unwatched it" : "");
	long long wait = start_at - now_ms();
	serve(f, admin, id, (int)(wait > 0 ? wait : 0) + warm_s * 1000, &over);
	struct scrape a, b;
	double self0 = cpu_self_ms();
	int starts0 = f->starts;
	long lines0 = f->lines;
	if (over || scrape(mport, d.pid, &a) != 0) {
		fprintf(stderr, "arenabench: no metrics at the window's start\n");
		goto out;
	}
	serve(f, admin, id, window_s * 1000, &over);
	if (scrape(mport, d.pid, &b) != 0) {
		fprintf(stderr, "arenabench: no metrics at the window's end\n");
		goto out;
	}
	f->client_cpu_ms = cpu_self_ms() - self0;
	f->window_s = b.at - a.at;
	f->window_lines = (double)(f->lines - lines0);
	f->games = b.started - a.started;
	f->cpu_ms = b.cpu_ms - a.cpu_ms;
	f->timed = a.timed && b.timed;
	f->pair_sum = b.sum - a.sum;
	f->pair_count = b.count - a.count;
	for (int k = 0; k < BUCKETS; k++)
		f->bucket[k] = b.bucket[k] - a.bucket[k];
	f->waves = b.round - a.round;
	for (int r = a.round + 1; r <= b.round && r <= ROUNDS_MAX; r++)
		f->wave_games += wave_boards[r];
	printf("  %s: window of %.1f s: %.0f games started (%d * START lines to players), "
	       "%.0f waves\n",
	    f->bin, f->window_s, f->games, f->starts - starts0, f->waves);
	f->ok = 1;
	rc = 0;
out:
	for (int i = 0; i < nplayers; i++)
		tc_close(players[i].c);
	memset(players, 0, sizeof players);
	tc_close(admin);
	if (daemon_alive(&d))
		daemon_stop(&d, SIGTERM, 10000);
	return rc;
}

/* ---- the table ------------------------------------------------------------------ */

/* The smallest bucket bound below which at least q of the window's waves
 * were paired, in ms; -1 for none, 1e9 for +Inf. */
static double
bound_ms(const struct figures *f, double q)
{
	if (f->pair_count <= 0)
		return -1;
	for (int k = 0; k < BUCKETS - 1; k++)
		if (f->bucket[k] >= q * f->pair_count - 1e-9)
			return le[k] * 1e3;
	return 1e9;
}

static void
table(const struct figures *fig, int nbins)
{
	printf("\n%-40s", "");
	for (int i = 0; i < nbins; i++)
		printf(" %16.16s", fig[i].bin);
	printf("\n");
#define ROW_IF(what, fmt, expr, timed_only)                        \
	do {                                                       \
		printf("%-40s", what);                             \
		for (int i = 0; i < nbins; i++) {                  \
			const struct figures *f = &fig[i];         \
			if (!f->ok)                                \
				printf(" %16s", "(failed)");       \
			else if ((timed_only) && !f->timed)        \
				printf(" %16s", "(no histogram)"); \
			else                                       \
				printf(" %16" fmt, (expr));        \
		}                                                  \
		printf("\n");                                      \
	} while (0)
#define ROW(what, fmt, expr) ROW_IF(what, fmt, expr, 0)
#define TIMED(what, fmt, expr) ROW_IF(what, fmt, expr, 1)
	ROW("players joined", "d", f->joined);
	ROW("players dropped", "d", f->dropped);
	ROW("ERR lines", "d", f->errors);
	for (int i = 0; i < nbins; i++)
		if (fig[i].dropped || fig[i].errors)
			printf("  %s: the first ERR: %s\n", fig[i].bin, fig[i].first_error);
	ROW("window, s", ".1f", f->window_s);
	ROW("games started / s", ".1f", f->games / f->window_s);
	ROW("daemon CPU, % of a core", ".1f", 100 * f->cpu_ms / 1e3 / f->window_s);
	ROW("daemon CPU per game started, us", ".0f",
	    f->games > 0 ? 1e3 * f->cpu_ms / f->games : 0);
	ROW("waves / s (* TGAME)", ".2f", f->waves / f->window_s);
	ROW("players paired per wave", ".1f", f->waves > 0 ? 2 * f->wave_games / f->waves : 0);
	TIMED("waves timed (histogram)", ".0f", f->pair_count);
	TIMED("wave's pairing, mean ms", ".3f",
	    f->pair_count > 0 ? 1e3 * f->pair_sum / f->pair_count : 0);
	TIMED("wave's pairing, p99 <= ms", ".3f", bound_ms(f, 0.99));
	TIMED("wave's pairing, max <= ms", ".3f", bound_ms(f, 1));
	ROW("lines to the players / s", ".0f", f->window_lines / f->window_s);
	ROW("this client's CPU, % of a core", ".1f", 100 * f->client_cpu_ms / 1e3 / f->window_s);
	for (int i = 0; i < nbins; i++)
		if (fig[i].ok && !fig[i].timed)
			printf("  %s: its /metrics has no gomokud_tourney_pairing_seconds\n",
			    fig[i].bin);
#undef TIMED
#undef ROW
#undef ROW_IF
}

int
main(int argc, char **argv)
{
	struct figures fig[2];
	int nbins = 1, opt;
	memset(fig, 0, sizeof fig);
	fig[0].bin = "bin/gomokud";
	while ((opt = getopt(argc, argv, "b:B:n:m:p:w:s:u")) != -1)
		switch (opt) {
		case 'b':
			fig[0].bin = optarg;
			break;
		case 'B':
			fig[1].bin = optarg;
			nbins = 2;
			break;
		case 'n':
			nplayers = atoi(optarg);
			break;
		case 'm':
			minutes = atoi(optarg);
			break;
		case 'p':
			pause_ms = atoi(optarg);
			break;
		case 'w':
			warm_s = atoi(optarg);
			break;
		case 's':
			window_s = atoi(optarg);
			break;
		case 'u':
			unwatch = 1;
			break;
		default:
			fprintf(stderr,
			    "usage: arenabench [-b gomokud] [-B other-gomokud] "
			    "[-n players] [-m minutes] [-p pause-ms] [-w warm-up-s] "
			    "[-s seconds] [-u]\n");
			return 2;
		}
	if (nplayers < 2 || nplayers > PLAYERS_MAX || minutes < 1 || minutes > 720 ||
	    pause_ms < 0 || warm_s < 0 || window_s < 1 || warm_s + window_s + 10 > 60 * minutes) {
		fprintf(stderr,
		    "arenabench: an option out of range (the warm-up and the window "
		    "must end before the arena does)\n");
		return 2;
	}
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < (rlim_t)nplayers + 64) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	setvbuf(stdout, NULL, _IONBF, 0);
	srand(48);
	printf("arenabench: %d guests in a casual arena (freestyle 15, 180+0, %d min), black "
	       "resigning each game %s; a warm-up of %d s, a window of %d s%s\n",
	    nplayers, minutes, pause_ms ? "after a random pause" : "at once", warm_s, window_s,
	    unwatch ? "; players unwatch the event" : "");
	int n = nplayers;
	for (int i = 0; i < nbins; i++) {
		nplayers = n;
		if (block(&fig[i], i) != 0)
			fprintf(stderr, "arenabench: the run on %s stopped\n", fig[i].bin);
	}
	table(fig, nbins);
	return fig[0].ok && (nbins == 1 || fig[1].ok) ? 0 : 1;
}
