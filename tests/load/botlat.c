/*
 * botlat.c: a bot move's latency with a local search and with a remote one
 * (issue 26, bots anywhere), side by side in one run: a redis-server of its
 * own, node a with bot-threads none, node b with one worker that serves the
 * cluster, and node l, alone, with one worker of its own. A player on a
 * and one on l play level-1 bot games in turns, the same spiral of moves;
 * each bot move is timed from the player's MOVE leaving to the bot's
 * * MOVE arriving.
 *
 *   botlat [-b gomokud] [-n bot-moves]
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tests/daemon/redisrun.h"
#include "tests/daemon/spiral.h"
#include "tests/daemon/tclient.h"

enum { READ_MS = 20000, WAIT_MS = 10000 };

static struct redisrun redis;
static struct daemon node[3];
static int spiral[225][2];

static double
clock_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static void
stop_nodes(void)
{
	for (int i = 0; i < 3; i++)
		if (node[i].pid > 0 && daemon_alive(&node[i]))
			daemon_stop(&node[i], SIGTERM, 5000);
	redis_kill(&redis);
	redis_clean(&redis);
}

static int
by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static void
summary(const char *what, double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, by_value);
	printf("%-8s %4d bot moves  p50 %8.2f ms  p90 %8.2f ms  max %8.2f ms\n", what, n,
	    v[n / 2] / 1e3, v[(n * 9) / 10] / 1e3, v[n - 1] / 1e3);
}

/* One level-1 game on c against the bot: each bot move's latency into v
 * (up to room left); how many were timed, or -1. */
static int
one_game(struct tc *c, double *v, int room)
{
	char id[24];
	int n = 0, next = 0;
	tc_send(c, "BOT play 1 freestyle 15 none black none");
	const char *l = tc_expect(c, "OK BOT ", READ_MS);
	if (!l || sscanf(l, "OK BOT %23s", id) != 1) {
		fprintf(stderr, "botlat: BOT play: %s\n", c->line);
		return -1;
	}
	while (n < room && next < 225) {
		char mv[16];
		snprintf(mv, sizeof mv, "%c%d", 'a' + spiral[next][0], 15 - spiral[next][1]);
		next++;
		double t0 = clock_us();
		tc_send(c, "MOVE %s %s", id, mv);
		int mine = 0, bot = 0;
		while (!(mine && bot) && (l = tc_read(c, READ_MS))) {
			if (strncmp(l, "* OVER", 6) == 0) {
				tc_send(c, "LEAVE %s", id);
				return tc_expect(c, "OK LEAVE", READ_MS) ? n : -1;
			}
			if (strncmp(l, "ERR", 3) == 0)
				break; /* occupied: the next point */
			mine |= strncmp(l, "OK MOVE", 7) == 0;
			if (strncmp(l, "* MOVE ", 7) == 0 && strstr(l, " white ")) {
				v[n++] = clock_us() - t0;
				bot = 1;
			}
		}
		if (!l) {
			fprintf(stderr, "botlat: %s: nothing after MOVE %s (last: %s)\n", id, mv,
			    c->line);
			return -1;
		}
	}
	return n;
}

int
main(int argc, char **argv)
{
	const char *bin = "bin/gomokud";
	int want = 200, opt;
	while ((opt = getopt(argc, argv, "b:n:")) != -1)
		if (opt == 'b')
			bin = optarg;
		else if (opt == 'n')
			want = atoi(optarg);
		else
			return 2;
	if (want < 10)
		want = 10;
	setvbuf(stdout, NULL, _IONBF, 0);
	make_spiral(spiral);
	if (redis_find(&redis) != 0 || redis_start(&redis) != 0) {
		fprintf(stderr, "botlat: no redis-server\n");
		return 1;
	}
	atexit(stop_nodes);
	static const char *const names[2] = { "a", "b" };
	static const char unlimited[] = "rate-per-second 100000\nrate-burst 100000\n";
	for (int i = 0; i < 3; i++) {
		char conf[512];
		int p = tc_free_port();
		if (i < 2)
			snprintf(conf, sizeof conf,
			    "listen 127.0.0.1:%d\ncluster redis://127.0.0.1:%d\nnode-name %s\n"
			    "advertise 127.0.0.1:%d\nbot-threads %s\nbot-preview-ms 0\n%s",
			    p, redis.port, names[i], p, i == 0 ? "none" : "1", unlimited);
		else
			snprintf(conf, sizeof conf,
			    "listen 127.0.0.1:%d\nbot-threads 1\nbot-preview-ms 0\n%s", p,
			    unlimited);
		if (p < 0 || daemon_start(&node[i], bin, conf) != 0) {
			fprintf(stderr, "botlat: node %d did not start\n", i);
			return 1;
		}
	}
	if (!daemon_wait_log(&node[1], "on Redis", 0, WAIT_MS) ||
	    !daemon_wait_log(&node[0], "on Redis", 0, WAIT_MS)) {
		fprintf(stderr, "botlat: the nodes did not reach Redis\n");
		return 1;
	}
	struct tc *remote = tc_guest(node[0].port, "remote"),
		  *local = tc_guest(node[2].port, "local");
	double *rv = calloc((size_t)want, sizeof *rv), *lv = calloc((size_t)want, sizeof *lv);
	int rn = 0, ln = 0;
	if (!remote || !local || !rv || !lv)
		return 1;
	while (rn < want || ln < want) {
		int k = 0;
		if (ln < want && (k = one_game(local, lv + ln, want - ln)) >= 0)
			ln += k;
		if (rn < want && (k = one_game(remote, rv + rn, want - rn)) >= 0)
			rn += k;
		if (k < 0) {
			fprintf(stderr, "botlat: a game stopped\n");
			return 1;
		}
	}
	summary("local", lv, ln);
	summary("remote", rv, rn);
	tc_close(remote);
	tc_close(local);
	return 0;
}
