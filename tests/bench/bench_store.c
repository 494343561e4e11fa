/*
 * bench_store: what persistence adds to the event loop for each move, the
 * time of one store_game_move commit (WAL, synchronous=NORMAL), over 20,000
 * moves, with SQLite's automatic checkpoints (which run on the committing
 * thread) and with gomokud's arrangement: automatic checkpoints off on the
 * loop's connection and a passive checkpoint every second from a thread of
 * its own; and that again while online backups (gomokuctl backup) run one
 * after another on a third thread. With GOMOKU_PG_BENCH_URL (a PostgreSQL
 * database, as tests/pg/bench_pg.sh makes one on loopback) the same
 * commits on PostgreSQL too, in the same run: the time the store thread
 * spends per move there, and fenced as a cluster node's commits are (the
 * game's owner checked in the same statement). Figures only.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "daemon/store.h"

enum { MOVES = 20000 };

static atomic_int stop;

static double
now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int
cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static void *
checkpointer(void *arg)
{
	while (!atomic_load(&stop)) {
		usleep(1000000);
		store_checkpoint(arg);
	}
	return NULL;
}

static int backups;

/* store_backup over and over, as an admin's backups would run beside play. */
static void *
backuper(void *arg)
{
	char dst[300], err[512];
	snprintf(dst, sizeof dst, "%s.backup", (const char *)arg);
	while (!atomic_load(&stop))
		if (store_backup(arg, dst, &stop, err, sizeof err) >= 0)
			backups++;
	return NULL;
}

enum { AUTO, MANUAL, BACKUPS, PG, PG_FENCED };

static void
run(const char *dir, int mode)
{
	static double t[MOVES];
	char path[256], err[512];
	store_t *s;
	pthread_t th, bth;
	int manual = mode == MANUAL || mode == BACKUPS;

	if (mode == PG || mode == PG_FENCED)
		snprintf(path, sizeof path, "%s", getenv("GOMOKU_PG_BENCH_URL"));
	else
		snprintf(path, sizeof path, "%s/%d.db", dir, mode);
	if (store_open(path, &s, err, sizeof err) != 0) {
		fprintf(stderr, "%s\n", err);
		exit(1);
	}
	if (manual) {
		store_manual_checkpoints(s);
		atomic_store(&stop, 0);
		pthread_create(&th, NULL, checkpointer, path);
	}
	backups = 0;
	if (mode == BACKUPS)
		pthread_create(&bth, NULL, backuper, path);
	store_game_t g;
	memset(&g, 0, sizeof g);
	snprintf(g.room, sizeof g.room, "r1");
	snprintf(g.owner, sizeof g.owner, "a"); /* a cluster node's, fenced */
	g.size = 15;
	int64_t game = 0;
	for (int i = 0; i < MOVES; i++) {
		if (i % 200 == 0) { /* a new game every 200 moves, as rooms turn over */
			snprintf(g.black, sizeof g.black, "b%d", i);
			snprintf(g.white, sizeof g.white, "w%d", i);
			store_game_begin(s, &g);
			game = g.id;
		}
		store_move_t m = { (move_t)(i % 200), 1000, 300000 - i, 300000 - i };
		double t0 = now_us();
		if ((mode == PG_FENCED ? store_game_move_owned(s, game, i % 200, &m, "a")
				       : store_game_move(s, game, i % 200, &m)) != 0) {
			fprintf(stderr, "%s\n", store_error(s));
			exit(1);
		}
		t[i] = now_us() - t0;
	}
	if (manual) {
		atomic_store(&stop, 1);
		pthread_join(th, NULL);
	}
	if (mode == BACKUPS)
		pthread_join(bth, NULL);
	store_close(s);
	qsort(t, MOVES, sizeof t[0], cmp);
	double sum = 0;
	for (int i = 0; i < MOVES; i++)
		sum += t[i];
	char what[64];
	if (mode == BACKUPS)
		snprintf(what, sizeof what, "the same, %d online backups beside:", backups);
	printf("store: %-46s mean %6.1f us  p50 %6.1f  p99 %7.1f  p99.9 %7.1f  max %7.1f us\n",
	    mode == PG_FENCED     ? "the same, fenced (a cluster node's, lease.h):"
		: mode == PG      ? "PostgreSQL on loopback (the store thread):"
		: mode == BACKUPS ? what
		: manual          ? "checkpoints on their own thread (gomokud):"
				  : "SQLite's automatic checkpoints:",
	    sum / MOVES, t[MOVES / 2], t[MOVES * 99 / 100], t[MOVES * 999 / 1000], t[MOVES - 1]);
}

int
main(void)
{
	char dir[] = "/tmp/gomokud-bench-store-XXXXXX", cmd[128];

	if (!mkdtemp(dir))
		return 1;
	printf("store: one move's commit on the event loop, %d moves\n", MOVES);
	run(dir, AUTO);
	run(dir, MANUAL);
	run(dir, BACKUPS);
	if (getenv("GOMOKU_PG_BENCH_URL")) {
		run(dir, PG);
		run(dir, PG_FENCED);
	}
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : 1;
}
