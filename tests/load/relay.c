/*
 * relay.c: a move's relay latency to a spectator on the room's own node
 * and to one on another node of a cluster (issue 26), side by side in one
 * run: a redis-server of its own, nodes a and b, two players and a
 * spectator on a, a spectator on b. Each move is timed from its MOVE
 * leaving the player to its * MOVE arriving at one spectator, the two
 * spectators taking turns, so both see the same load.
 *
 *   relay [-v] [-b gomokud] [-n moves] [-c 'config line']   (-v: every line)
 *   relay [-v] [-n moves] -a port-a,port-b   nodes a and b of a cluster
 *                                            someone else started
 *
 * Games never reach five (stones two apart on every other row), so a game
 * is 112 moves; then black resigns and a new one starts.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tests/daemon/redisrun.h"
#include "tests/daemon/tclient.h"

enum { LINE_MS = 10000, WAIT_MS = 10000, PER_GAME = 112 };

static struct redisrun redis;
static struct daemon node[2];

static double
now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static void
stop_all(void)
{
	for (int i = 0; i < 2; i++)
		if (node[i].pid > 0 && daemon_alive(&node[i]))
			daemon_stop(&node[i], SIGTERM, 5000);
	redis_kill(&redis);
	redis_clean(&redis);
}

static int
cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static void
report(const char *what, double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, cmp);
	printf("%-22s %5d moves  p50 %7.0f us  p99 %7.0f us  max %7.0f us\n", what, n, v[n / 2],
	    v[(n * 99) / 100], v[n - 1]);
}

/* WHO on c until it lists name (the other node's presence has come). */
static int
sees(struct tc *c, const char *name)
{
	for (double end = now_us() + WAIT_MS * 1e3; now_us() < end; usleep(100000)) {
		int seen = 0;
		tc_send(c, "WHO");
		const char *l;
		while ((l = tc_read(c, LINE_MS)) && strncmp(l, "OK WHO", 6) != 0)
			seen |= strstr(l, name) != NULL;
		if (seen)
			return 1;
	}
	return 0;
}

/* Redis and nodes a and b of a cluster, stopped at exit. */
static int
start_cluster(const char *bin, const char *extra)
{
	if (redis_find(&redis) != 0) {
		fprintf(stderr, "relay: redis-server is not installed\n");
		return -1;
	}
	atexit(stop_all);
	if (redis_start(&redis) != 0) {
		fprintf(stderr, "relay: redis-server did not start\n");
		return -1;
	}
	for (int i = 0; i < 2; i++) {
		char conf[512];
		snprintf(conf, sizeof conf,
		    "log-level info\nrate-burst 100000\nrate-per-second 100000\n%s\n", extra);
		if (redis_node(&node[i], bin, &redis, i ? "b" : "a", conf) != 0) {
			fprintf(stderr, "relay: node %d did not start (%s)\n", i, node[i].log);
			return -1;
		}
	}
	return 0;
}

/* total moves timed, in games of node a watched from a and from b. */
static int
play(int total)
{
	struct tc *pl[2], *near = tc_guest(node[0].port, "near"),
			  *far = tc_guest(node[1].port, "far");
	pl[0] = tc_guest(node[0].port, "black");
	pl[1] = tc_guest(node[0].port, "white");
	if (!pl[0] || !pl[1] || !near || !far || !sees(far, "black")) {
		fprintf(stderr, "relay: could not connect\n");
		return 1;
	}
	double *lat[2] = { calloc((size_t)total, sizeof(double)),
		calloc((size_t)total, sizeof(double)) };
	int nlat[2] = { 0, 0 }, done = 0;
	char room[17] = "", want[64];
	while (done < total) {
		tc_send(pl[0], "SEEK freestyle 15 none black casual none");
		tc_send(pl[1], "SEEK freestyle 15 none white casual none");
		const char *l = tc_expect(pl[1], "* START ", LINE_MS);
		if (!l || sscanf(l, "* START %16s", room) != 1 ||
		    !tc_expect(pl[0], "* START ", LINE_MS)) {
			fprintf(stderr, "relay: no game\n");
			return 1;
		}
		struct tc *spec[2] = { near, far };
		unsigned seq = 0;
		for (int i = 0; i < 2; i++) {
			tc_send(spec[i], "WATCH %s", room);
			snprintf(want, sizeof want, "OK WATCH %s ", room);
			if (!(l = tc_expect(spec[i], want, LINE_MS))) {
				fprintf(stderr, "relay: %s cannot watch %s\n", i ? "far" : "near",
				    room);
				return 1;
			}
			sscanf(l + strlen(want), "%u", &seq);
		}
		/* the far spectator's WATCH came second: its seq is the newest */
		for (int k = 0; k < PER_GAME && done < total; k++, done++) {
			/* black on a, c, e ..., white on b, d ... of rows 1, 3 ... 15 */
			int side = k % 2, row = 2 * (k / 14);
			char mv[8];
			snprintf(mv, sizeof mv, "%c%d", 'a' + (k % 14), row + 1);
			struct tc *who = spec[done % 2];
			double t0 = now_us();
			tc_send(pl[side], "MOVE %s %s", room, mv);
			snprintf(want, sizeof want, "* MOVE %s %u ", room, ++seq);
			if (!tc_expect(who, want, LINE_MS)) {
				fprintf(stderr, "relay: %s missed \"%s\" (%s)\n",
				    who == near ? "near" : "far", want, who->line);
				return 1;
			}
			lat[done % 2][nlat[done % 2]++] = now_us() - t0;
			struct tc *other = spec[1 - done % 2];
			if (!tc_expect(other, want, LINE_MS) ||
			    !tc_expect(pl[1 - side], want, LINE_MS) ||
			    !tc_expect(pl[side], "OK MOVE ", LINE_MS)) {
				fprintf(stderr, "relay: a line of move %d did not come\n", done);
				return 1;
			}
		}
		tc_send(pl[0], "RESIGN %s", room);
		snprintf(want, sizeof want, "* OVER %s ", room);
		for (int i = 0; i < 2; i++) {
			tc_expect(pl[i], want, LINE_MS);
			tc_expect(spec[i], want, LINE_MS);
			tc_send(spec[i], "LEAVE %s", room);
			tc_expect(spec[i], "OK LEAVE ", LINE_MS);
		}
		tc_expect(pl[0], "OK RESIGN ", LINE_MS);
		for (int i = 0; i < 2; i++) {
			tc_send(pl[i], "LEAVE %s", room);
			tc_expect(pl[i], "OK LEAVE ", LINE_MS);
		}
	}
	printf("relay: %d moves, players and one spectator on node a, one on node b\n", total);
	report("same-node spectator", lat[0], nlat[0]);
	report("cross-node spectator", lat[1], nlat[1]);
	free(lat[0]);
	free(lat[1]);
	return 0;
}

int
main(int argc, char **argv)
{
	const char *bin = "bin/gomokud", *extra = "";
	int total = 2000, o, attach[2] = { 0, 0 };
	while ((o = getopt(argc, argv, "b:n:c:va:")) != -1) {
		if (o == 'v')
			tc_verbose = 1;
		else if (o == 'b')
			bin = optarg;
		else if (o == 'n')
			total = atoi(optarg);
		else if (o == 'c')
			extra = optarg;
		else if (o == 'a' && sscanf(optarg, "%d,%d", &attach[0], &attach[1]) == 2)
			;
		else {
			fprintf(stderr,
			    "usage: relay [-v] [-b gomokud] [-n moves] [-c 'config "
			    "line'] [-a port-a,port-b]\n");
			return 2;
		}
	}
	if (total < 2)
		total = 2;
	if (attach[0] > 0 && attach[1] > 0) {
		node[0].port = attach[0];
		node[1].port = attach[1];
	} else if (start_cluster(bin, extra) != 0)
		return 1;
	return play(total);
}
