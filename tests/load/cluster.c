/*
 * cluster.c: tests/load against a 3-node cluster on loopback (issue 26):
 * a redis-server of its own, nodes a, b and c on one PostgreSQL database
 * (GOMOKU_PG_BENCH_URL, which tests/load/bench_cluster.sh creates), each
 * with its metrics endpoint. Then, side by side in one run:
 *   1. games on every node at once (a load per node: saturated, then paced):
 *      moves/s per node and for the cluster, daemon CPU per move;
 *   2. a move's relay latency to a spectator on its own node and to one on
 *      another node (relay), on an idle cluster and again while every node
 *      carries paced games;
 *   3. for each phase, the PostgreSQL commit time per move, read off the
 *      nodes' gomokud_store_commit_seconds histograms (a move's time is
 *      its group transaction's), and the writes per transaction of the
 *      store threads' group commit (gomokud_store_batch_jobs_total over
 *      gomokud_store_batches_total).
 * Figures only; never pass/fail.
 *
 *   cluster [-b gomokud] [-g games-per-node] [-s seconds] [-t think-ms] [-n relay-moves]
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include "tests/daemon/redisrun.h"
#include "tests/daemon/tclient.h"

enum { NODES = 3, BUCKETS = 32 };

static struct redisrun redis;
static struct daemon node[NODES];
static int mport[NODES];

/* One node's commit histogram as last read: cumulative counts by bound. */
struct hist {
	int n;
	double le[BUCKETS];
	double count[BUCKETS];
	double sum, total;
	double batches, writes; /* the store thread's transactions, the writes in them */
};

static void
stop_all(void)
{
	for (int i = 0; i < NODES; i++) {
		if (node[i].pid > 0 && daemon_alive(&node[i]))
			daemon_stop(&node[i], SIGTERM, 10000);
		if (node[i].dir[0]) {
			char cmd[300];
			snprintf(cmd, sizeof cmd, "rm -rf %s", node[i].dir);
			if (system(cmd) != 0)
				fprintf(stderr, "cluster: could not remove %s\n", node[i].dir);
		}
	}
	redis_kill(&redis);
	redis_clean(&redis);
}

static void
on_signal(int sig)
{
	(void)sig;
	exit(1); /* atexit stops what was started */
}

/* GET /metrics of node i into buf; its length, or -1. */
static int
scrape(int i, char *buf, size_t cap)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons((uint16_t)mport[i]) };
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	const char *req = "GET /metrics HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n";
	if (write(fd, req, strlen(req)) != (ssize_t)strlen(req)) {
		close(fd);
		return -1;
	}
	size_t n = 0;
	ssize_t r;
	while (n + 1 < cap && (r = read(fd, buf + n, cap - 1 - n)) > 0)
		n += (size_t)r;
	close(fd);
	buf[n] = '\0';
	return (int)n;
}

/* Node i's store commit histogram, summed into h. */
static int
read_hist(int i, struct hist *h)
{
	static char buf[1 << 18];
	if (scrape(i, buf, sizeof buf) < 0)
		return -1;
	const char *fam = "gomokud_store_commit_seconds";
	int k = 0;
	for (char *l = strtok(buf, "\n"); l; l = strtok(NULL, "\n")) {
		double v;
		if (sscanf(l, "gomokud_store_batches_total %lf", &v) == 1)
			h->batches += v;
		else if (sscanf(l, "gomokud_store_batch_jobs_total %lf", &v) == 1)
			h->writes += v;
		if (strncmp(l, fam, strlen(fam)) != 0)
			continue;
		const char *rest = l + strlen(fam);
		double le;
		if (sscanf(rest, "_bucket{le=\"%lf\"} %lf", &le, &v) == 2 && k < BUCKETS) {
			h->le[k] = le;
			h->count[k++] += v;
		} else if (strncmp(rest, "_bucket{le=\"+Inf\"}", 18) == 0 && k < BUCKETS) {
			h->le[k] = -1;
			h->count[k++] += atof(rest + 18);
		} else if (sscanf(rest, "_sum %lf", &v) == 1)
			h->sum += v;
		else if (sscanf(rest, "_count %lf", &v) == 1)
			h->total += v;
	}
	h->n = k;
	return 0;
}

static void
read_all(struct hist *h)
{
	memset(h, 0, sizeof *h);
	for (int i = 0; i < NODES; i++)
		if (read_hist(i, h) != 0)
			fprintf(stderr, "cluster: no metrics from node %c\n", 'a' + i);
}

/* The bucket bound (ms) under which fraction q of the commits between a and
 * b fall: an upper bound of that quantile. */
static double
quantile_ms(const struct hist *a, const struct hist *b, double q)
{
	double all = b->total - a->total;
	for (int k = 0; k < b->n; k++)
		if (b->count[k] - a->count[k] >= q * all)
			return b->le[k] < 0 ? -1 : b->le[k] * 1000;
	return -1;
}

static void
report_commits(const char *phase, const struct hist *a, const struct hist *b)
{
	double n = b->total - a->total;
	if (n <= 0) {
		printf("commits (%s): none\n", phase);
		return;
	}
	printf("commits (%s): %.0f moves committed on PostgreSQL, mean %.3f ms, "
	       "p50 <= %.2f ms, p99 <= %.2f ms (histogram bounds)\n",
	    phase, n, (b->sum - a->sum) * 1000 / n, quantile_ms(a, b, 0.5),
	    quantile_ms(a, b, 0.99));
	/* group commit (issue 45): a move's time above is its group's */
	if (b->batches > a->batches)
		printf("commits (%s): %.0f transactions on the store threads, %.1f writes each "
		       "on average\n",
		    phase, b->batches - a->batches,
		    (b->writes - a->writes) / (b->batches - a->batches));
}

/* Runs argv with its output into path; the child's pid. */
static pid_t
spawn(char *const argv[], const char *path)
{
	fflush(stdout);
	pid_t p = fork();
	if (p == 0) {
		int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
			close(fd);
		}
		execv(argv[0], argv);
		_exit(127);
	}
	return p;
}

/* Prints path's lines, each after tag. */
static void
show(const char *path, const char *tag)
{
	FILE *f = fopen(path, "r");
	char l[512];
	while (f && fgets(l, sizeof l, f))
		printf("%s %s", tag, l);
	if (f)
		fclose(f);
}

/* The sum of the figures before unit on path's lines that contain what. */
static double
figure(const char *path, const char *what, const char *unit)
{
	FILE *f = fopen(path, "r");
	char l[512];
	double sum = 0;
	while (f && fgets(l, sizeof l, f)) {
		const char *q = strstr(l, what) ? strstr(l, unit) : NULL;
		if (q) {
			while (q > l && q[-1] != ' ')
				q--;
			sum += atof(q);
		}
	}
	if (f)
		fclose(f);
	return sum;
}

static double
cluster_cpu_ms(void)
{
	double t = 0;
	for (int i = 0; i < NODES; i++)
		t += tc_cpu_ms(node[i].pid);
	return t;
}

static int
start_nodes(const char *bin, const char *db, int games)
{
	if (redis_find(&redis) != 0 || redis_start(&redis) != 0) {
		fprintf(stderr, "cluster: no redis-server (make deps installs it)\n");
		return -1;
	}
	for (int i = 0; i < NODES; i++)
		mport[i] = tc_free_port();
	for (int i = 0; i < NODES; i++) {
		char conf[1024], name[2] = { (char)('a' + i), '\0' };
		int conns = 2 * games + 100;
		snprintf(conf, sizeof conf,
		    "database %s\nmetrics-listen 127.0.0.1:%d\n"
		    "log-level info\nmax-connections %d\nmax-per-address %d\n"
		    "rate-burst 100000\nrate-per-second 100000\nidle-timeout 600\n"
		    "handshake-timeout 60\nmax-seeks-per-address %d\n",
		    db, mport[i], conns, conns, conns);
		if (redis_node(&node[i], bin, &redis, name, conf) != 0) {
			fprintf(
			    stderr, "cluster: node %c did not start (%s)\n", 'a' + i, node[i].log);
			return -1;
		}
		printf("cluster: node %c pid %d on 127.0.0.1:%d, metrics on :%d\n", 'a' + i,
		    (int)node[i].pid, node[i].port, mport[i]);
	}
	return 0;
}

/* A load per node at once (paced_only: its paced games only, for secs),
 * their figures summed for the cluster. Started, not waited for: the
 * pids in p. */
static void
loads_start(const char *dir, const char *loadbin, int games, int secs, int think, int paced_only,
    const char *phase, pid_t p[NODES], char out[NODES][300])
{
	/* boards and rules apart, so no seek pairs with another node's */
	static const char *const size[NODES] = { "19", "20", "19" },
				 *const rule[NODES] = { "freestyle", "freestyle", "standard" };
	char a[32], g[16], s[16], t[16], tag[2] = "a";
	snprintf(g, sizeof g, "%d", games);
	snprintf(s, sizeof s, "%d", secs);
	snprintf(t, sizeof t, "%d", think);
	for (int i = 0; i < NODES; i++) {
		snprintf(a, sizeof a, "%d:%d", node[i].port, (int)node[i].pid);
		snprintf(out[i], 300, "%s/load-%s-%c", dir, phase, 'a' + i);
		tag[0] = (char)('a' + i);
		char *argv[] = { (char *)loadbin, "-a", a, "-n", "0", "-g", g, "-s", s, "-t", t,
			"-z", (char *)size[i], "-r", (char *)rule[i], "-p", tag,
			paced_only ? "-P" : NULL, NULL };
		p[i] = spawn(argv, out[i]);
	}
}

static double
seconds_since(const struct timespec *t0)
{
	struct timespec t1;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (double)(t1.tv_sec - t0->tv_sec) + (double)(t1.tv_nsec - t0->tv_nsec) / 1e9;
}

/* 1: games on every node, saturated then paced. */
static void
games_phase(const char *dir, const char *loadbin, int games, int secs, int think)
{
	pid_t p[NODES];
	char out[NODES][300];
	struct hist h0, h1;
	struct timespec t0;
	read_all(&h0);
	double cpu0 = cluster_cpu_ms();
	clock_gettime(CLOCK_MONOTONIC, &t0);
	loads_start(dir, loadbin, games, secs, think, 0, "games", p, out);
	for (int i = 0; i < NODES; i++)
		waitpid(p[i], NULL, 0);
	double el = seconds_since(&t0), cpu = cluster_cpu_ms() - cpu0;
	read_all(&h1);
	double sat = 0, paced = 0, cpu_sat = 0, cpu_paced = 0;
	for (int i = 0; i < NODES; i++) {
		char label[8];
		snprintf(label, sizeof label, "[%c]", 'a' + i);
		show(out[i], label);
		sat += figure(out[i], "saturated", " moves/s");
		paced += figure(out[i], "paced", " moves/s");
		cpu_sat += figure(out[i], "saturated", " us per move") / NODES;
		cpu_paced += figure(out[i], "paced", " us per move") / NODES;
	}
	printf("cluster: %.0f moves/s saturated, %.0f moves/s paced, on the three nodes "
	       "together\n",
	    sat, paced);
	printf("cluster: a node's CPU per move relayed, the mean of the three: %.1f us "
	       "saturated, %.1f us paced\n",
	    cpu_sat, cpu_paced);
	printf("cluster: the nodes' CPU %.0f ms in %.1f s of the phase (%.0f%% of a core)\n", cpu,
	    el, cpu / 10 / el);
	report_commits("games", &h0, &h1);
}

/* 2: relay latency, idle or (loaded) beside paced games on every node. */
static void
relay_phase(const char *dir, const char *loadbin, const char *relaybin, int games, int think,
    int moves, int loaded)
{
	pid_t p[NODES];
	char out[NODES][300], rout[300], a[64], n[16];
	struct hist h0, h1;
	const char *phase = loaded ? "relay-loaded" : "relay-idle";
	if (loaded) {
		/* long enough to outlast the relay; stopped when it is done */
		loads_start(dir, loadbin, games, 600, think, 1, phase, p, out);
		sleep(3); /* connected, paired and past their warm-up */
	}
	snprintf(rout, sizeof rout, "%s/%s", dir, phase);
	snprintf(a, sizeof a, "%d,%d", node[0].port, node[1].port);
	snprintf(n, sizeof n, "%d", moves);
	read_all(&h0);
	char *argv[] = { (char *)relaybin, "-a", a, "-n", n, NULL };
	pid_t r = spawn(argv, rout);
	waitpid(r, NULL, 0);
	read_all(&h1);
	if (loaded)
		for (int i = 0; i < NODES; i++) {
			kill(p[i], SIGTERM);
			waitpid(p[i], NULL, 0);
		}
	printf("--- relay latency, %s\n",
	    loaded ? "while every node plays paced games" : "on an idle cluster");
	show(rout, "[relay]");
	report_commits(phase, &h0, &h1);
}

int
main(int argc, char **argv)
{
	const char *bin = "bin/gomokud";
	int games = 50, secs = 8, think = 100, moves = 2000, o;
	while ((o = getopt(argc, argv, "b:g:s:t:n:")) != -1) {
		if (o == 'b')
			bin = optarg;
		else if (o == 'g')
			games = atoi(optarg);
		else if (o == 's')
			secs = atoi(optarg);
		else if (o == 't')
			think = atoi(optarg);
		else if (o == 'n')
			moves = atoi(optarg);
		else {
			fprintf(stderr,
			    "usage: cluster [-b gomokud] [-g games-per-node] [-s "
			    "seconds] [-t think-ms] [-n relay-moves]\n");
			return 2;
		}
	}
	const char *db = getenv("GOMOKU_PG_BENCH_URL");
	if (!db || !*db) {
		fprintf(stderr,
		    "cluster: GOMOKU_PG_BENCH_URL names no database (run it through "
		    "make bench-cluster)\n");
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	atexit(stop_all);
	char dir[] = "/tmp/gomokud-cluster.XXXXXX";
	if (!mkdtemp(dir) || start_nodes(bin, db, games) != 0)
		return 1;
	/* the tools beside this one */
	char loadbin[512], relaybin[512];
	const char *slash = strrchr(argv[0], '/');
	int dl = slash ? (int)(slash - argv[0]) : 1;
	snprintf(loadbin, sizeof loadbin, "%.*s/load", dl, slash ? argv[0] : ".");
	snprintf(relaybin, sizeof relaybin, "%.*s/relay", dl, slash ? argv[0] : ".");
	sleep(2); /* every node has heard the others' presence */
	printf("--- games on every node at once: %d per node, %d s saturated, %d s paced "
	       "(%d ms think)\n",
	    games, secs, secs, think);
	games_phase(dir, loadbin, games, secs, think);
	relay_phase(dir, loadbin, relaybin, games, think, moves, 0);
	relay_phase(dir, loadbin, relaybin, games, think, moves, 1);
	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "cluster: could not remove %s\n", dir);
	return 0;
}
