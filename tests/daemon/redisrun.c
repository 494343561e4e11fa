/* redisrun.c: a redis-server of the test's own (redisrun.h). */
#include "tests/daemon/redisrun.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tests/daemon/tclient.h"

int
redis_find(struct redisrun *r)
{
	char path[2048];
	const char *env = getenv("PATH");
	snprintf(path, sizeof path, "%s:/usr/bin:/usr/sbin:/usr/local/bin", env ? env : "");
	for (char *dir = strtok(path, ":"); dir; dir = strtok(NULL, ":")) {
		snprintf(r->bin, sizeof r->bin, "%s/redis-server", dir);
		if (access(r->bin, X_OK) == 0)
			return 0;
	}
	r->bin[0] = '\0';
	return -1;
}

static int
redis_connect(const struct redisrun *r)
{
	struct sockaddr_in a = { 0 };
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	a.sin_family = AF_INET;
	a.sin_port = htons((unsigned short)r->port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	struct timeval tv = { 2, 0 };
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
	return fd;
}

int
redis_cmd(const struct redisrun *r, int argc, const char *const *argv, const size_t *len)
{
	int fd = redis_connect(r);
	if (fd < 0)
		return -1;
	char head[64];
	int ok = 1;
	int n = snprintf(head, sizeof head, "*%d\r\n", argc);
	ok &= write(fd, head, (size_t)n) == n;
	for (int i = 0; i < argc; i++) {
		n = snprintf(head, sizeof head, "$%zu\r\n", len[i]);
		ok &= write(fd, head, (size_t)n) == n;
		ok &= write(fd, argv[i], len[i]) == (ssize_t)len[i];
		ok &= write(fd, "\r\n", 2) == 2;
	}
	char c = 0;
	int rc = ok && read(fd, &c, 1) == 1 ? (unsigned char)c : -1;
	close(fd);
	return rc;
}

int
redis_publish(const struct redisrun *r, const char *chan, const void *payload, size_t n)
{
	const char *argv[3] = { "PUBLISH", chan, payload };
	size_t len[3] = { 7, strlen(chan), n };
	return redis_cmd(r, 3, argv, len);
}

static int
ping(const struct redisrun *r)
{
	const char *argv[1] = { "PING" };
	size_t len[1] = { 4 };
	return redis_cmd(r, 1, argv, len) == '+';
}

int
redis_start(struct redisrun *r)
{
	char port[16], logf[128];
	if (!r->dir[0]) {
		snprintf(r->dir, sizeof r->dir, "/tmp/gomokud-redis.XXXXXX");
		if (!tc_mkdtemp(r->dir) || (r->port = tc_free_port()) < 0) {
			r->dir[0] = '\0';
			return -1;
		}
	}
	snprintf(port, sizeof port, "%d", r->port);
	snprintf(logf, sizeof logf, "%s/redis.log", r->dir);
	r->pid = fork();
	if (r->pid < 0) {
		r->pid = 0;
		return -1;
	}
	if (r->pid == 0) {
		execl(r->bin, "redis-server", "--port", port, "--bind", "127.0.0.1", "--save", "",
		    "--appendonly", "no", "--dir", r->dir, "--logfile", logf, "--daemonize", "no",
		    (char *)NULL);
		_exit(127);
	}
	tc_child(r->pid);
	for (long long end = tc_now_ms() + 10000; tc_now_ms() < end; usleep(50000))
		if (ping(r))
			return 0;
	return -1;
}

void
redis_kill(struct redisrun *r)
{
	if (r->pid > 0) {
		kill(r->pid, SIGKILL);
		waitpid(r->pid, NULL, 0);
		r->pid = 0;
	}
}

void
redis_clean(struct redisrun *r)
{
	char cmd[96];
	if (!r->dir[0])
		return;
	snprintf(cmd, sizeof cmd, "rm -rf %s", r->dir);
	if (system(cmd) == 0)
		r->dir[0] = '\0';
}

int
redis_guard(struct redisrun *r, int *code)
{
	if (redis_find(r) != 0) {
		const char *req = getenv("GOMOKU_REQUIRE_SHARED");
		int required = req && strcmp(req, "1") == 0;
		printf("%s: redis-server is not installed (Debian package redis-server; mk/deps.sh "
		       "installs it)\n",
		    required ? "FAIL" : "skip");
		*code = required ? 1 : 0;
		return -1;
	}
	signal(SIGPIPE, SIG_IGN);
	return 0;
}

int
redis_finish(struct redisrun *r, struct daemon *nodes, int n, int alive, int failures)
{
	for (int i = 0; i < n; i++)
		if (nodes[i].pid > 0 && (!alive || daemon_alive(&nodes[i])) &&
		    daemon_stop(&nodes[i], SIGTERM, 5000) != 0) {
			printf("FAIL: the node in %s did not stop cleanly\n", nodes[i].dir);
			failures++;
		}
	redis_kill(r);
	if (failures) {
		printf("logs kept:");
		for (int i = 0; i < n; i++)
			printf(" %s", nodes[i].log);
		printf(", %s\n", r->dir);
		tc_keep_tmp();
	} else {
		redis_clean(r);
	}
	printf(failures ? "%d failed\n" : "all passed\n", failures);
	return failures ? 1 : 0;
}

int
redis_node(struct daemon *d, const char *bin, const struct redisrun *r, const char *name,
    const char *extra)
{
	char conf[1024];
	int p = tc_free_port();
	snprintf(conf, sizeof conf,
	    "listen 127.0.0.1:%d\ncluster redis://127.0.0.1:%d\nnode-name %s\n"
	    "advertise 127.0.0.1:%d\n%s",
	    p, r->port, name, p, extra);
	if (p < 0 || daemon_start(d, bin, conf) != 0)
		return -1;
	return d->port == p ? 0 : -1;
}

const char *const redis_names[REDIS_NODES_MAX] = { "a", "b", "c", "d", "e", "f", "g", "h" };

int
redis_nodes_start(const struct redis_nodes *c, int i)
{
	char extra[1024];
	snprintf(extra, sizeof extra, "%s%s%s%s%s", c->db && *c->db ? "database " : "",
	    c->db && *c->db ? c->db : "", c->db && *c->db ? "\n" : "", c->conf ? c->conf : "",
	    c->conf_of && c->conf_of[i] ? c->conf_of[i] : "");
	return redis_node(&c->node[i], c->bin, c->r, redis_names[i], extra);
}

int
redis_nodes_up(const struct redis_nodes *c, int n)
{
	if (redis_start(c->r) != 0) {
		printf("FAIL: redis-server did not start (%s)\n", c->r->dir);
		return -1;
	}
	for (int i = 0; i < n; i++)
		if (redis_nodes_start(c, i) != 0) {
			printf(
			    "FAIL: node %s did not start (%s)\n", redis_names[i], c->node[i].log);
			return -1;
		}
	return 0;
}

int
redis_drops(const struct daemon *d)
{
	FILE *f = fopen(d->log, "r");
	char l[2048];
	int n = 0;
	while (f && fgets(l, sizeof l, f)) {
		const char *c = strstr(l, "cluster: ");
		unsigned k;
		if (c && strstr(c, " more messages dropped in ") && sscanf(c + 9, "%u", &k) == 1)
			n += (int)k; /* link.c's count of the drops it did not log */
		else
			n += strstr(l, "dropped") != NULL;
	}
	if (f)
		fclose(f);
	return n;
}

int
redis_wait_drops(const struct daemon *d, int n, int ms)
{
	for (long long end = tc_now_ms() + ms;; usleep(50000)) {
		if (redis_drops(d) >= n)
			return 1;
		if (tc_now_ms() >= end)
			return 0;
	}
}

int
redis_lists(struct tc *c, const char *req, const char *want, int ms)
{
	char ok[16]; /* OK and the verb: "WHO a12" is answered "OK WHO 3" */
	snprintf(ok, sizeof ok, "OK %.*s ", (int)strcspn(req, " "), req);
	for (long long end = tc_now_ms() + ms; tc_now_ms() < end; usleep(200000)) {
		int seen = 0;
		tc_send(c, "%s", req);
		const char *l;
		while ((l = tc_read(c, 3000)) && strncmp(l, ok, strlen(ok)) != 0)
			if (strstr(l, want))
				seen = 1;
		if (!l)
			return 0;
		if (seen)
			return 1;
	}
	return 0;
}
