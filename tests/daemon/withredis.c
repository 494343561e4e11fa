/*
 * withredis: runs a test program with a redis-server of its own, so that
 * every daemon the program starts (tclient.c) is a node of a cluster on it
 * (GOMOKU_CLUSTER_REDIS): the black-box tests, run against a cluster node
 * as against a lone server (issue 26). Redis is stopped by its pid when
 * the program ends; a SIGTERM, SIGINT or SIGHUP is passed on to the
 * program, which stops what it started (tclient.h); the exit status is the
 * program's.
 *
 *   withredis test-program [args...]
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/daemon/redisrun.h"

static struct redisrun redis;
static pid_t child;

static void
on_signal(int sig)
{
	if (child > 0)
		kill(child, sig);
}

int
main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: withredis test-program [args...]\n");
		return 2;
	}
	if (redis_find(&redis) != 0) {
		/* never a skip: the caller asked for a cluster */
		fprintf(stderr, "withredis: no redis-server (make deps installs it)\n");
		return 1;
	}
	if (redis_start(&redis) != 0) {
		fprintf(stderr, "withredis: redis-server did not start\n");
		redis_kill(&redis);
		redis_clean(&redis);
		return 1;
	}
	char addr[32];
	snprintf(addr, sizeof addr, "127.0.0.1:%d", redis.port);
	setenv("GOMOKU_CLUSTER_REDIS", addr, 1);
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	signal(SIGHUP, on_signal);
	int status = 1;
	child = fork();
	if (child == 0) {
		execv(argv[1], argv + 1);
		perror(argv[1]);
		_exit(127);
	}
	if (child > 0)
		while (waitpid(child, &status, 0) < 0)
			;
	redis_kill(&redis);
	redis_clean(&redis);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
