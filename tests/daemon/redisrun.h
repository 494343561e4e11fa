/* redisrun.h: a redis-server of the test's own for the cluster tests and
 * benchmarks (on a free loopback port, in a temp dir, no persistence,
 * stopped by its pid: a tc_child, its dir a tc_mkdtemp), and what those
 * tests share on it: their guard, the nodes' start and the wait for a
 * listing. */
#ifndef GOMOKUD_TEST_REDISRUN_H
#define GOMOKUD_TEST_REDISRUN_H

#include <stddef.h>
#include <sys/types.h>

struct redisrun {
	char bin[256]; /* redis-server found on PATH or in the usual dirs */
	char dir[64];  /* its temp dir (redis.log) */
	int port;
	pid_t pid; /* 0: not running */
};

/* Finds redis-server: 0, or -1 when it is not installed. */
int redis_find(struct redisrun *r);
/* Starts it (a temp dir and a free port the first time, the same ones
 * after) and waits until it answers PING: 0 or -1. */
int redis_start(struct redisrun *r);
/* SIGKILL and reap. */
void redis_kill(struct redisrun *r);
/* Removes its temp dir (after redis_kill). */
void redis_clean(struct redisrun *r);
/* One command in RESP, each argument binary-safe: the first byte of the
 * reply ('+', ':', '-', ...), or -1. */
int redis_cmd(const struct redisrun *r, int argc, const char *const *argv, const size_t *len);
int redis_publish(const struct redisrun *r, const char *chan, const void *payload, size_t n);

struct daemon;
/*
 * A cluster test's start: finds redis-server into r; SIGPIPE is ignored,
 * so a write to a client of a node killed on purpose fails instead of
 * killing the test. (Redis and every node are tc_child: killed at exit
 * and on SIGTERM, SIGINT or SIGHUP.) 0 to go on; -1 without redis-server,
 * said on stdout: a skip, or a failure under GOMOKU_REQUIRE_SHARED=1
 * (*code: the exit code).
 */
int redis_guard(struct redisrun *r, int *code);

/* Node name of a cluster on r, started into d by bin on a free loopback
 * port that it advertises, with the config lines extra (may be ""): 0, or
 * -1 when it did not start on that port. */
int redis_node(struct daemon *d, const char *bin, const struct redisrun *r, const char *name,
    const char *extra);

/* A cluster test's end: stops nodes[0..n) with SIGTERM (those still
 * running when alive: the test killed others on purpose); one that does
 * not stop cleanly (or had died) is a failure, said. Then r; keeps r's and
 * the nodes' files when anything failed and says where; prints the
 * verdict. The exit code for failures, plus those found here. */
int redis_finish(struct redisrun *r, struct daemon *nodes, int n, int alive, int failures);

/*
 * A cluster test's nodes: node[i] is named redis_names[i] ("a", "b", ...),
 * a gomokud from bin on the redis-server r, each with the line "database
 * db" (unless db is NULL or ""), then the config lines conf (every node's;
 * NULL: none) and conf_of[i] (node i's own; conf_of NULL: none).
 */
enum { REDIS_NODES_MAX = 8 };
extern const char *const redis_names[REDIS_NODES_MAX];
struct redis_nodes {
	const char *bin;
	struct redisrun *r;
	struct daemon *node;
	const char *db;
	const char *conf;
	const char *const *conf_of;
};
/* Starts node i (redis_node): 0, or -1. */
int redis_nodes_start(const struct redis_nodes *c, int i);
/* Starts r (redis_start), then nodes 0 to n - 1: 0, or -1 when one of
 * them did not start, said on stdout ("FAIL: ..."). */
int redis_nodes_up(const struct redis_nodes *c, int n);

struct tc;
/* Sends req (WHO, ROOMS, SEEKS ...) every 200 ms until a data line of its
 * reply contains want, for up to ms: whether one did. */
int redis_lists(struct tc *c, const char *req, const char *want, int ms);

/* The cluster messages a node's log says it dropped: each line saying
 * "dropped", plus the count of each "N more messages dropped" (link.c
 * logs a dropped message at most every 10 s and counts the rest). */
int redis_drops(const struct daemon *d);
/* Waits up to ms for redis_drops(d) to reach n: whether it did. */
int redis_wait_drops(const struct daemon *d, int n, int ms);

#endif
