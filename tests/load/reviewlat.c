/*
 * reviewlat.c: the review figures of issue 47 (PROTOCOL.md 5.19) as a
 * benchmark, never pass/fail. For each binary it starts the real gomokud
 * on loopback in a temporary directory (review-ms 250, its default;
 * bot-threads 2; limits raised so that nothing is refused), has pairs of
 * guests play finished public games of 60 moves (black resigns at move
 * 61; no five before), and then:
 *   A. one REVIEW with nothing else running: from the request sent to
 *      * REVIEWED ... ok;
 *   B. the same with bot games live: guests each playing a bot of a level
 *      a player would pick, with a clock, answering each bot move after a
 *      pause of their own;
 *   C. the bot moves of those games, each from the player's MOVE sent to
 *      the bot's * MOVE arriving, first for a while with no review, then
 *      while five reviews run at once (up to the first one's end), beside
 *      the engine's own mean search time for those moves (the daemon's
 *      gomokud_bot_search_seconds), so the wait is what is left over.
 * With -B the same runs against a second binary, the two taking turns
 * (a then b, then b then a with -n 2), so that a change to the daemon is
 * compared with the binary before it in one run on one machine.
 *
 * With -c the same on a cluster of two nodes on a redis-server of the
 * bench's own (redisrun.h): every player and reviewer on node a, which
 * has no workers (bot-threads none), so that every bot move and every
 * review's position is a job on the streams that node b's 2 workers
 * search (a's gomokud_bot_search_seconds counts the times b's results
 * carry).
 *
 *   reviewlat [-c] [-b gomokud] [-B other-gomokud] [-n rounds] [-g bot-games]
 *             [-r reviews] [-l level] [-p pause-ms] [-s seconds] [-m port]
 */
#include <arpa/inet.h>
#include <math.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "tests/daemon/quietgame.h"
#include "tests/daemon/redisrun.h"
#include "tests/daemon/spiral.h"
#include "tests/daemon/tclient.h"

enum {
	PLIES = 60,           /* each reviewed game's moves */
	READ_MS = 20000,      /* a line in a game */
	REVIEW_MS = 900000,   /* a review's end, however loaded */
	GAMES_MAX = 100,      /* bot games */
	REVIEWS_MAX = 8,      /* at once: the daemon's review-queue */
	ROUNDS_MAX = 40,      /* blocks of one binary each, a port each */
	METRICS_PORT = 42200, /* + the block's number: this bench's ports (-m) */
	BOT_TC_BASE = 600,    /* the bot games' clock, seconds */
	BOT_TC_INC = 5,
};

enum phase { PH_NONE, PH_B, PH_C0, PH_C5, PHASES };

static const char *const phase_name[PHASES] = {
	[PH_B] = "bot move, 1 review",
	[PH_C0] = "bot move, no review",
	[PH_C5] = "bot move, reviews",
};

struct samples {
	double *v;
	int n, cap;
};

/* One binary's figures over every round. */
struct figures {
	const char *bin;
	struct samples review_a, review_b, review_c; /* seconds */
	struct samples bot[PHASES];                  /* microseconds */
	double search_s[PHASES];                     /* the engine's, summed */
	double searches[PHASES];
	double window_s[PHASES];
};

/* The bot's searches as the daemon counts them (its /metrics). */
struct searched {
	double sum, count;
};

static int level = 5, ngames = 20, nreviews = 5, pause_ms = 500, window_s = 30;
static int cluster, metrics_port = METRICS_PORT;
static struct redisrun redis;    /* -c: the cluster's */
static char moves[8][PLIES][16]; /* the reviewed games: one sequence in 8 symmetries */
static int spiral[225][2];

static atomic_int phase, stopping, first_done;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static double
now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void
add(struct samples *s, double x)
{
	if (s->n == s->cap) {
		int cap = s->cap ? 2 * s->cap : 256;
		double *v = realloc(s->v, (size_t)cap * sizeof *v);
		if (!v)
			return;
		s->v = v;
		s->cap = cap;
	}
	s->v[s->n++] = x;
}

/* ---- the games to review ------------------------------------------------ */

/* The reviewed games: 60 moves of quietgame.h's, one game in each of the
 * board's 8 symmetries (the server's answers check again that none makes
 * a five: a move after one is refused). */
static int
make_moves(void)
{
	for (int s = 0; s < 8; s++)
		if (quiet_game(PLIES, s, moves[s]) != 0)
			return -1;
	return 0;
}

/* Guests fb<k> and fw<k> play game k (symmetry k % 8) to its 60th move;
 * black resigns. Its id, or -1 (said). */
static long
finished_game(int port, int k)
{
	struct tc *b = NULL, *w = NULL;
	char room[24], bn[16], wn[16], reason[24] = "";
	long id = -1;
	int plies = 0;
	snprintf(bn, sizeof bn, "fb%d", k);
	snprintf(wn, sizeof wn, "fw%d", k);
	if (tc_pair_guests(port, bn, wn, "freestyle 15 none", &b, &w, room, sizeof room) != 0) {
		fprintf(stderr, "reviewlat: %s\n", tc_why);
		goto out;
	}
	for (int i = 0; i < PLIES; i++) {
		struct tc *p = i % 2 ? w : b;
		tc_send(p, "MOVE %s %s", room, moves[k % 8][i]);
		const char *l = tc_move_answer(p, READ_MS);
		if (!l || strncmp(l, "OK MOVE", 7) != 0) {
			fprintf(stderr, "reviewlat: game %d, move %d %s: %s\n", k, i + 1,
			    moves[k % 8][i], l ? l : "(nothing)");
			goto out;
		}
	}
	tc_send(b, "RESIGN %s", room);
	const char *l = tc_expect(b, "OK RESIGN", READ_MS);
	if (!l) {
		fprintf(stderr, "reviewlat: game %d: no OK RESIGN (last: %s)\n", k, b->line);
		goto out;
	}
	tc_send(b, "HISTORY");
	l = tc_expect(b, "= GAME ", READ_MS);
	if (!l || sscanf(l, "= GAME %ld %*s %*s %*s %*s %*s %23s %d", &id, reason, &plies) != 3 ||
	    plies != PLIES || strstr(reason, "resign") == NULL) {
		fprintf(stderr, "reviewlat: game %d is not a resigned game of %d moves: %s\n", k,
		    PLIES, l ? l : b->line);
		id = -1;
	}
out:
	tc_close(b);
	tc_close(w);
	return id;
}

/* ---- reviews ------------------------------------------------------------ */

/* Reads c's lines to * REVIEWED of game: seconds since t0, or -1. */
static double
reviewed(struct tc *c, long game, double t0)
{
	char want[48];
	int plies = 0;
	snprintf(want, sizeof want, "* REVIEWED %ld ", game);
	const char *l;
	while ((l = tc_read(c, REVIEW_MS))) {
		if (strncmp(l, "ERR", 3) == 0)
			break;
		if (strncmp(l, want, strlen(want)) == 0) {
			double t = now_s() - t0;
			if (sscanf(l + strlen(want), "ok %d", &plies) == 1 && plies == PLIES)
				return t;
			break;
		}
	}
	fprintf(stderr, "reviewlat: review of %ld: %s\n", game, l ? l : "(nothing)");
	return -1;
}

static double
review(struct tc *c, long game)
{
	double t0 = now_s();
	tc_send(c, "REVIEW %ld", game);
	return reviewed(c, game, t0);
}

/* The sum and count of gomokud_bot_search_seconds on the metrics port:
 * 0, or -1. */
static int
searched_now(int port, struct searched *s)
{
	static const char name[] = "gomokud_bot_search_seconds";
	char *buf = malloc(1 << 17);
	size_t n = 0;
	int fd = socket(AF_INET, SOCK_STREAM, 0), got = 0;
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (buf && fd >= 0 && connect(fd, (struct sockaddr *)&sa, sizeof sa) == 0) {
		const char *req = "GET /metrics HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n";
		ssize_t r = write(fd, req, strlen(req));
		while (r > 0 && n + 1 < (1 << 17) && (r = read(fd, buf + n, (1 << 17) - 1 - n)) > 0)
			n += (size_t)r;
		buf[n] = '\0';
		for (char *l = buf; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
			if (strncmp(l, name, sizeof name - 1) != 0)
				continue;
			if (strncmp(l + sizeof name - 1, "_sum ", 5) == 0)
				got |= (s->sum = strtod(l + sizeof name - 1 + 5, NULL)) >= 0;
			else if (strncmp(l + sizeof name - 1, "_count ", 7) == 0)
				got |= 2 *
				    ((s->count = strtod(l + sizeof name - 1 + 7, NULL)) >= 0);
		}
	}
	if (fd >= 0)
		close(fd);
	free(buf);
	return got == 3 ? 0 : -1;
}

/* ---- the bot games ------------------------------------------------------ */

struct player {
	pthread_t th;
	struct tc *c;
	struct figures *f;
	int failed;
};

static void
pause_player(void)
{
	for (int t = 0; t < pause_ms && !atomic_load(&stopping); t += 10)
		usleep(10000);
}

/* One game against the bot in room: 0 when it is over, 1 when the bench
 * stops it, -1 (said). The player is black: a spiral point on each of its
 * turns (the next one the server takes), after its pause. */
static int
bot_game(struct player *p, const char *room)
{
	int next = 0;
	while (next < 225) {
		pause_player();
		if (atomic_load(&stopping))
			return 1;
		const char *l = NULL;
		for (int bot = 0; !bot && next < 225;) {
			char mv[16];
			snprintf(
			    mv, sizeof mv, "%c%d", 'a' + spiral[next][0], 15 - spiral[next][1]);
			next++;
			int ph = atomic_load(&phase);
			double t0 = now_s();
			tc_send(p->c, "MOVE %s %s", room, mv);
			while (!bot && (l = tc_read(p->c, READ_MS))) {
				if (strncmp(l, "* OVER", 6) == 0)
					return 0;
				if (strncmp(l, "ERR", 3) == 0) {
					if (strstr(l, " 432 "))
						break; /* taken: the next point */
					fprintf(
					    stderr, "reviewlat: %s: MOVE %s: %s\n", room, mv, l);
					return -1;
				}
				if (strncmp(l, "* MOVE ", 7) == 0 && strstr(l, " white ")) {
					double t = now_s() - t0;
					bot = 1;
					if (ph != PH_NONE && ph == atomic_load(&phase)) {
						pthread_mutex_lock(&lock);
						add(&p->f->bot[ph], t * 1e6);
						pthread_mutex_unlock(&lock);
					}
				}
			}
			if (!l) {
				fprintf(stderr, "reviewlat: %s: nothing after MOVE %s (last: %s)\n",
				    room, mv, p->c->line);
				return -1;
			}
		}
	}
	return 0;
}

static void *
player_run(void *arg)
{
	struct player *p = arg;
	while (!atomic_load(&stopping)) {
		char room[24];
		tc_send(p->c, "BOT play %d freestyle 15 %d+%d black none", level, BOT_TC_BASE,
		    BOT_TC_INC);
		const char *l;
		while ((l = tc_read(p->c, READ_MS)) && strncmp(l, "OK BOT ", 7) != 0 &&
		    strncmp(l, "ERR", 3) != 0)
			;
		if (l && strncmp(l, "ERR", 3) == 0 && strstr(l, " 506 ")) {
			usleep(200000); /* every worker busy: a player tries again */
			continue;
		}
		if (!l || sscanf(l, "OK BOT %23s", room) != 1) {
			fprintf(stderr, "reviewlat: BOT play: %s\n", l ? l : p->c->line);
			p->failed = 1;
			break;
		}
		int rc = bot_game(p, room);
		if (rc < 0) {
			p->failed = 1;
			break;
		}
		if (rc == 0) {
			tc_send(p->c, "LEAVE %s", room);
			if (!tc_expect(p->c, "OK LEAVE", READ_MS)) {
				fprintf(stderr, "reviewlat: no OK LEAVE (last: %s)\n", p->c->line);
				p->failed = 1;
				break;
			}
		}
	}
	return NULL;
}

/* ---- one binary's runs -------------------------------------------------- */

struct reviewer {
	pthread_t th;
	struct tc *c;
	long game;
	double t0, secs;
	int metrics_port;
	struct searched end; /* the first review's end, for the window */
	double end_at;
};

static struct reviewer revs[REVIEWS_MAX];

static void *
reviewer_run(void *arg)
{
	struct reviewer *r = arg;
	r->secs = reviewed(r->c, r->game, r->t0);
	if (atomic_exchange(&first_done, 1) == 0) {
		int ph = PH_C5;
		atomic_compare_exchange_strong(&phase, &ph, PH_NONE);
		r->end_at = now_s();
		if (searched_now(r->metrics_port, &r->end) != 0)
			r->end.count = -1;
	}
	return NULL;
}

static void
account(struct figures *f, int ph, const struct searched *a, const struct searched *b, double secs)
{
	if (a->count < 0 || b->count < 0)
		return;
	f->search_s[ph] += b->sum - a->sum;
	f->searches[ph] += b->count - a->count;
	f->window_s[ph] += secs;
}

/* Every phase on a gomokud of bin's, started here and stopped again: 0, or
 * -1 (said). */
static int
block(struct figures *f, int number)
{
	struct daemon d, worker;
	char conf[512], wconf[512];
	int mport = metrics_port + number, rc = -1;
	static const char common[] =
	    "log-level info\nreview-ms 250\n"
	    "review-per-hour 100000\nrate-per-second 100000\nrate-burst 100000\n"
	    "max-per-address 1000\nmax-seeks-per-address 1000\nidle-timeout 3600\n";
	snprintf(conf, sizeof conf, "%smetrics-listen 127.0.0.1:%d\nbot-threads %s\n", common,
	    mport, cluster ? "none" : "2");
	snprintf(wconf, sizeof wconf, "%sbot-threads 2\n", common);
	memset(&d, 0, sizeof d);
	memset(&worker, 0, sizeof worker);
	if (cluster) {
		if (redis_start(&redis) != 0) {
			fprintf(stderr, "reviewlat: redis-server did not start (%s)\n", redis.dir);
			return -1;
		}
		if (redis_node(&d, f->bin, &redis, "a", conf) != 0 ||
		    redis_node(&worker, f->bin, &redis, "b", wconf) != 0) {
			fprintf(stderr, "reviewlat: %s's nodes did not start\n", f->bin);
			if (daemon_alive(&d))
				daemon_stop(&d, SIGTERM, 5000);
			redis_kill(&redis);
			return -1;
		}
		if (!daemon_wait_log(&d, "on Redis", 0, 10000) ||
		    !daemon_wait_log(&worker, "on Redis", 0, 10000)) {
			fprintf(stderr, "reviewlat: a node never reached Redis\n");
			daemon_stop(&d, SIGTERM, 5000);
			daemon_stop(&worker, SIGTERM, 5000);
			redis_kill(&redis);
			return -1;
		}
	} else if (daemon_start(&d, f->bin, conf) != 0) {
		fprintf(stderr, "reviewlat: %s did not start\n", f->bin);
		return -1;
	}
	struct player players[GAMES_MAX];
	struct tc *ra = NULL, *rb = NULL;
	long games[REVIEWS_MAX + 2];
	int nplayers = 0, nrevs = 0;
	memset(players, 0, sizeof players);
	for (int k = 0; k < nreviews + 2; k++)
		if ((games[k] = finished_game(d.port, k)) < 0)
			goto out;
	ra = tc_guest(d.port, "reva");
	rb = tc_guest(d.port, "revb");
	for (nrevs = 0; nrevs < nreviews; nrevs++) {
		char name[16];
		snprintf(name, sizeof name, "rev%d", nrevs);
		memset(&revs[nrevs], 0, sizeof revs[nrevs]);
		if (!(revs[nrevs].c = tc_guest(d.port, name)))
			goto out;
	}
	if (!ra || !rb)
		goto out;

	/* A: alone */
	double t = review(ra, games[0]);
	if (t < 0)
		goto out;
	add(&f->review_a, t);
	printf("  %s: review, nothing else running: %.2f s\n", f->bin, t);

	/* the bot games, then B */
	atomic_store(&stopping, 0);
	atomic_store(&phase, PH_NONE);
	for (nplayers = 0; nplayers < ngames; nplayers++) {
		char name[16];
		struct player *p = &players[nplayers];
		snprintf(name, sizeof name, "bp%d", nplayers);
		p->f = f;
		if (!(p->c = tc_guest(d.port, name)) ||
		    pthread_create(&p->th, NULL, player_run, p) != 0) {
			tc_close(p->c);
			goto out;
		}
	}
	sleep(3); /* every game started and played a little */
	struct searched s0, s1;
	int m0 = searched_now(mport, &s0);
	double w0 = now_s();
	atomic_store(&phase, PH_B);
	t = review(rb, games[1]);
	atomic_store(&phase, PH_NONE);
	if (t < 0)
		goto out;
	if (m0 == 0 && searched_now(mport, &s1) == 0)
		account(f, PH_B, &s0, &s1, now_s() - w0);
	add(&f->review_b, t);
	printf("  %s: review, %d bot games: %.2f s\n", f->bin, ngames, t);

	/* C: no review for a while, then nreviews at once */
	m0 = searched_now(mport, &s0);
	w0 = now_s();
	atomic_store(&phase, PH_C0);
	sleep((unsigned)window_s);
	atomic_store(&phase, PH_NONE);
	if (m0 == 0 && searched_now(mport, &s1) == 0)
		account(f, PH_C0, &s0, &s1, now_s() - w0);
	m0 = searched_now(mport, &s0);
	atomic_store(&first_done, 0);
	w0 = now_s();
	for (int k = 0; k < nrevs; k++) {
		revs[k].game = games[2 + k];
		revs[k].metrics_port = mport;
		revs[k].t0 = now_s();
		tc_send(revs[k].c, "REVIEW %ld", revs[k].game);
	}
	atomic_store(&phase, PH_C5);
	int started = 0;
	for (; started < nrevs; started++)
		if (pthread_create(&revs[started].th, NULL, reviewer_run, &revs[started]) != 0)
			break;
	int failed = started < nrevs;
	for (int k = 0; k < started; k++) {
		pthread_join(revs[k].th, NULL);
		if (revs[k].secs < 0)
			failed = 1;
		else
			add(&f->review_c, revs[k].secs);
		if (revs[k].end_at > 0 && m0 == 0)
			account(f, PH_C5, &s0, &revs[k].end, revs[k].end_at - w0);
	}
	atomic_store(&phase, PH_NONE);
	if (failed)
		goto out;
	printf("  %s: %d reviews at once, %d bot games: done in %.2f s\n", f->bin, nrevs, ngames,
	    now_s() - w0);
	rc = 0;
out:
	atomic_store(&stopping, 1);
	for (int k = 0; k < nplayers; k++) {
		pthread_join(players[k].th, NULL);
		rc |= -players[k].failed;
		tc_close(players[k].c);
	}
	for (int k = 0; k < nrevs; k++)
		tc_close(revs[k].c);
	tc_close(ra);
	tc_close(rb);
	if (daemon_alive(&d))
		daemon_stop(&d, SIGTERM, 5000);
	if (cluster) {
		if (daemon_alive(&worker))
			daemon_stop(&worker, SIGTERM, 5000);
		redis_kill(&redis);
	}
	return rc;
}

/* ---- the table ---------------------------------------------------------- */

static int
by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The nearest-rank percentile p of the n sorted values. */
static double
pct(const double *v, int n, double p)
{
	int k = (int)ceil(p * n) - 1;
	return v[k < 0 ? 0 : k >= n ? n - 1 : k];
}

static void
row(const char *what, struct samples *s, double scale, const char *unit, double search_ms)
{
	if (s->n == 0) {
		printf("  %-32s %5d\n", what, 0);
		return;
	}
	qsort(s->v, (size_t)s->n, sizeof *s->v, by_value);
	printf("  %-32s %5d %9.2f %9.2f %9.2f %9.2f %-2s", what, s->n, pct(s->v, s->n, .5) * scale,
	    pct(s->v, s->n, .9) * scale, pct(s->v, s->n, .99) * scale, s->v[s->n - 1] * scale,
	    unit);
	if (search_ms >= 0)
		printf(" %8.2f", search_ms);
	printf("\n");
}

static void
table(struct figures *f)
{
	char what[48];
	printf("%s\n", f->bin);
	printf("  %-32s %5s %9s %9s %9s %9s %-2s %8s\n", "", "n", "p50", "p90", "p99", "max", "",
	    "search");
	row("review, nothing else running", &f->review_a, 1, "s", -1);
	snprintf(what, sizeof what, "review, %d bot games", ngames);
	row(what, &f->review_b, 1, "s", -1);
	snprintf(what, sizeof what, "%d reviews at once, %d bot games", nreviews, ngames);
	row(what, &f->review_c, 1, "s", -1);
	static const int order[3] = { PH_C0, PH_B, PH_C5 };
	for (int i = 0; i < 3; i++) {
		int ph = order[i];
		if (ph == PH_C5)
			snprintf(what, sizeof what, "bot move, %d reviews", nreviews);
		else
			snprintf(what, sizeof what, "%s", phase_name[ph]);
		double ms = f->searches[ph] > 0 ? 1e3 * f->search_s[ph] / f->searches[ph] : -1;
		row(what, &f->bot[ph], 1e-3, "ms", ms);
	}
}

int
main(int argc, char **argv)
{
	struct figures fig[2];
	int nbins = 1, rounds = 1, opt;
	memset(fig, 0, sizeof fig);
	fig[0].bin = "bin/gomokud";
	while ((opt = getopt(argc, argv, "cb:B:n:g:r:l:p:s:m:")) != -1)
		switch (opt) {
		case 'c':
			cluster = 1;
			break;
		case 'm':
			metrics_port = atoi(optarg);
			break;
		case 'b':
			fig[0].bin = optarg;
			break;
		case 'B':
			fig[1].bin = optarg;
			nbins = 2;
			break;
		case 'n':
			rounds = atoi(optarg);
			break;
		case 'g':
			ngames = atoi(optarg);
			break;
		case 'r':
			nreviews = atoi(optarg);
			break;
		case 'l':
			level = atoi(optarg);
			break;
		case 'p':
			pause_ms = atoi(optarg);
			break;
		case 's':
			window_s = atoi(optarg);
			break;
		default:
			fprintf(stderr,
			    "usage: reviewlat [-c] [-b gomokud] [-B other-gomokud] [-n rounds] "
			    "[-g bot-games] [-r reviews] [-l level] [-p pause-ms] [-s seconds] "
			    "[-m port]\n");
			return 2;
		}
	if (rounds < 1 || rounds * nbins > ROUNDS_MAX || ngames < 1 || ngames > GAMES_MAX ||
	    nreviews < 1 || nreviews > REVIEWS_MAX || level < 1 || level > 10 || pause_ms < 0 ||
	    window_s < 1 || metrics_port < 1024 || metrics_port > 65535 - ROUNDS_MAX) {
		fprintf(stderr, "reviewlat: an option out of range\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IONBF, 0);
	signal(SIGPIPE, SIG_IGN);
	if (cluster && redis_find(&redis) != 0) {
		fprintf(stderr, "reviewlat: -c needs redis-server\n");
		return 1;
	}
	make_spiral(spiral);
	if (make_moves() != 0) {
		fprintf(stderr, "reviewlat: the reviewed games' moves make a five\n");
		return 1;
	}
	printf("reviewlat: games of %d moves reviewed at review-ms 250 (%d positions, a search "
	       "of up to 250 ms each); %d level-%d bot games (freestyle 15, %d+%d, the player "
	       "black, a pause of %d ms before each move); %s; %d round%s\n",
	    PLIES, PLIES + 1, ngames, level, BOT_TC_BASE, BOT_TC_INC, pause_ms,
	    cluster ? "on a cluster: node a without workers, node b's bot-threads 2 searching "
		      "its jobs through Redis"
		    : "bot-threads 2",
	    rounds, rounds == 1 ? "" : "s");
	int number = 0;
	for (int r = 0; r < rounds; r++)
		for (int i = 0; i < nbins; i++) {
			struct figures *f = &fig[r % 2 ? nbins - 1 - i : i];
			if (block(f, number++) != 0) {
				fprintf(stderr, "reviewlat: a run on %s stopped\n", f->bin);
				if (cluster)
					redis_clean(&redis);
				return 1;
			}
		}
	printf("\nreview: from REVIEW sent to * REVIEWED ok; bot move: from the player's MOVE "
	       "sent to the bot's * MOVE; search: the engine's mean search per bot move in the "
	       "same window (gomokud_bot_search_seconds), the rest being the wait\n");
	for (int i = 0; i < nbins; i++)
		table(&fig[i]);
	if (cluster)
		redis_clean(&redis);
	return 0;
}
