/*
 * bench_presence: what the other nodes' presence costs a node's queries
 * (issue 40, item 9). A simulated cluster: PEERS other nodes of USERS
 * users each (a quarter idle, seeking, playing, watching), with ROOMS
 * public rooms and SEEKS open seeks each, their P messages formatted as
 * a node publishes them and fed to the presence code as a message from
 * Redis is (cmsg_parse, then the presence's own handling); then, timed:
 *
 *   arrive      one P message of USERS users arriving (parsed and kept),
 *               the same as the node's message before it
 *   arrive-new  the same, every line changed since the node's message
 *               before it (a node's presence changes by a few lines a
 *               second: the two bound it)
 *   who      WHO's listing of the other nodes (each line PD_USER, at
 *            most LIST_MAX as cmd.c asks), the lines counted
 *   who-fmt  the same, each line formatted as conn_send would
 *   rooms    ROOMS's listing (PD_ROOM, LIST_MAX)
 *   seeks    SEEKS's listing (PD_SEEK, LIST_MAX)
 *   absent   a named GUEST's check of a name no node has (the worst case)
 *   last     the same for the last user of the last node, in capitals
 *
 * Each figure is the time of one operation in microseconds, min / median
 * / max over RUNS runs (a run repeats the operation until it took 20 ms).
 * The check line sums what the listings and lookups gave, to compare two
 * builds' answers. Figures only: nothing is asserted about time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The presence code under test, white-box: the cluster's state
 * (internal.h) and its handling of a P message (presence.h). */
#include "daemon/cluster/internal.h"
#include "daemon/cluster/presence.h"
#include "daemon/log.h"
#include "daemon/core.h"

static struct cluster *
bench_cluster(struct server *srv)
{
	struct cluster *cl = calloc(1, sizeof *cl);
	if (!cl)
		return NULL;
	cl->srv = srv;
	snprintf(cl->node, sizeof cl->node, "self");
	snprintf(cl->addr, sizeof cl->addr, "127.0.0.1:5555");
	cl->cmd_up = cl->sub_up = 1; /* as if on Redis */
	return cl;
}

static void
bench_hear(struct cluster *cl, const struct cmsg *m)
{
	presence_got(cl, m);
}

/* --- the same from here on, whatever the code under test --- */

enum {
	PEERS = 9,
	USERS = 10000,
	ROOMS = 2000,
	SEEKS = 1000,
	LIST_MAX = 1000, /* cmd.c's lines in one WHO, ROOMS or SEEKS reply */
	RUNS = 15,
	RUN_US = 20000,
};

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

static const char *const peer_names[PEERS] = { "peera", "peerb", "peerc", "peerd", "peere", "peerf",
	"peerg", "peerh", "peeri" };

static void
user_name(char out[PROTO_NAME_MAX + 1], int peer, int i)
{
	snprintf(out, PROTO_NAME_MAX + 1, "p%cuser%05d", 'a' + peer, i);
}

static void
add(char **buf, size_t *len, size_t *cap, const proto_msg_t *m)
{
	char line[PROTO_LINE_MAX];
	int n = proto_format(m, line, sizeof line);
	if (n <= 0)
		abort();
	if (*len + (size_t)n > *cap) {
		*cap = (*len + (size_t)n) * 2;
		if (!(*buf = realloc(*buf, *cap)))
			abort();
	}
	memcpy(*buf + *len, line, (size_t)n);
	*len += (size_t)n;
}

/* Peer p's P message, as publish_presence formats one: its users, its
 * public rooms, its seeks, each line with its LF but the last. Every line
 * of variant 1 differs from variant 0's. */
static char *
presence_msg(int p, int variant, size_t *outlen)
{
	size_t len = 0, cap = 1 << 20;
	char *buf = malloc(cap), head[128];
	int n = cmsg_format_presence(head, sizeof head, peer_names[p], "10.0.0.1:5555", "");
	if (!buf || n < 0)
		abort();
	memcpy(buf, head, (size_t)n);
	len = (size_t)n;
	proto_msg_t m;
	for (int i = 0; i < USERS; i++) {
		proto_init(&m, PD_USER, NULL);
		user_name(m.user, p, i);
		m.ustate = (proto_ustate_t)((i + variant) % 4);
		if (m.ustate == USER_PLAYING || m.ustate == USER_WATCHING)
			snprintf(m.room, sizeof m.room, "%s%d", peer_names[p], i / 8 % ROOMS + 1);
		add(&buf, &len, &cap, &m);
	}
	for (int i = 0; i < ROOMS; i++) {
		proto_init(&m, PD_ROOM, NULL);
		snprintf(m.room, sizeof m.room, "%s%d", peer_names[p], i + 1);
		m.status = ROOM_PLAYING;
		m.rule = (rule_t)(i % 3);
		m.size = 15;
		m.tc_base = 300;
		m.tc_inc = 5;
		m.opening = i % 2 ? OPENING_SWAP2 : OPENING_NONE;
		m.rated = i % 2;
		user_name(m.user, p, 4 * i + 2);
		user_name(m.user2, p, 4 * i + 6);
		m.count = i % 5;
		m.count2 = i % 7 + variant;
		add(&buf, &len, &cap, &m);
	}
	for (int i = 0; i < SEEKS; i++) {
		proto_init(&m, PD_SEEK, NULL);
		m.ident = i + 1 + variant * SEEKS;
		user_name(m.user, p, 4 * i + 1);
		m.rule = (rule_t)(i % 3);
		m.size = 15;
		m.tc_base = 600;
		m.tc_inc = 0;
		m.colour = COLOUR_ANY;
		m.rated = 1;
		m.opening = OPENING_NONE;
		m.fallback = i % 2 ? FALLBACK_BOT : FALLBACK_HUMAN;
		add(&buf, &len, &cap, &m);
	}
	*outlen = len - 1; /* the last LF goes, as publish_presence drops it */
	return buf;
}

static char *msgs[2][PEERS];
static size_t msglens[2][PEERS];
static struct cluster *cl;

static void
hear(int p, int variant)
{
	struct cmsg m;
	const char *why;
	if (cmsg_parse(msgs[variant][p], msglens[variant][p], &m, &why) != 0) {
		fprintf(stderr, "bench_presence: peer %d's message: %s\n", p, why);
		exit(1);
	}
	bench_hear(cl, &m);
}

static unsigned long long sum; /* what the listings gave, over every run */
static int listed;

static void
count_line(void *arg, const proto_msg_t *m)
{
	(void)arg;
	listed++;
	sum = sum * 31 + (unsigned char)m->user[1] + (unsigned long long)m->ustate;
}

static void
format_line(void *arg, const proto_msg_t *m)
{
	char line[PROTO_LINE_MAX];
	(void)arg;
	int n = proto_format(m, line, sizeof line);
	listed++;
	sum = sum * 31 + (unsigned long long)n;
}

static int op_peer, op_variant[PEERS];

static void
op_arrive(void)
{
	hear(op_peer, op_variant[op_peer]);
	op_peer = (op_peer + 1) % PEERS;
}

static void
op_arrive_new(void)
{
	op_variant[op_peer] = !op_variant[op_peer];
	op_arrive();
}

static void
op_who(void)
{
	listed = 0;
	cluster_each(cl, PD_USER, LIST_MAX, count_line, NULL);
}

static void
op_who_fmt(void)
{
	listed = 0;
	cluster_each(cl, PD_USER, LIST_MAX, format_line, NULL);
}

static void
op_rooms(void)
{
	listed = 0;
	cluster_each(cl, PD_ROOM, LIST_MAX, format_line, NULL);
}

static void
op_seeks(void)
{
	listed = 0;
	cluster_each(cl, PD_SEEK, LIST_MAX, format_line, NULL);
}

static char canon[PROTO_NAME_MAX + 1];
static const char *found;

static void
op_absent(void)
{
	found = cluster_user_node(cl, "nobodyhere", canon);
}

static char last_name[PROTO_NAME_MAX + 1];

static void
op_last(void)
{
	found = cluster_user_node(cl, last_name, canon);
}

static void
bench(const char *name, void (*op)(void))
{
	double t[RUNS];
	int iters = 1;
	/* enough repetitions for a run of about RUN_US */
	for (;;) {
		double t0 = now_us();
		for (int i = 0; i < iters; i++)
			op();
		double dt = now_us() - t0;
		if (dt >= RUN_US / 4 || iters >= 1 << 24) {
			iters = dt > 0 ? (int)(iters * (RUN_US / dt)) : iters;
			break;
		}
		iters *= 4;
	}
	if (iters < 1)
		iters = 1;
	for (int r = 0; r < RUNS; r++) {
		double t0 = now_us();
		for (int i = 0; i < iters; i++)
			op();
		t[r] = (now_us() - t0) / iters;
	}
	qsort(t, RUNS, sizeof t[0], cmp);
	printf("%-10s %12.3f %12.3f %12.3f   x%d\n", name, t[0], t[RUNS / 2], t[RUNS - 1], iters);
	fflush(stdout);
}

int
main(void)
{
	static struct server srv;
	log_init(&srv.log, LOGL_WARN);
	if (!(cl = bench_cluster(&srv)))
		return 1;
	size_t total = 0;
	for (int p = 0; p < PEERS; p++) {
		msgs[0][p] = presence_msg(p, 0, &msglens[0][p]);
		msgs[1][p] = presence_msg(p, 1, &msglens[1][p]);
		total += msglens[0][p];
		hear(p, 0);
	}
	user_name(last_name, PEERS - 1, USERS - 1);
	for (char *s = last_name; *s; s++)
		if (*s >= 'a' && *s <= 'z')
			*s = (char)(*s - 'a' + 'A');
	printf("bench_presence: %d nodes x %d users, %d rooms, %d seeks; %zu bytes of P "
	       "messages\n",
	    PEERS, USERS, ROOMS, SEEKS, total);

	/* the answers, once, before any timing */
	op_who();
	int who = listed;
	unsigned long long who_sum = sum;
	sum = 0;
	op_rooms();
	int rooms = listed;
	op_seeks();
	int seeks = listed;
	op_absent();
	int absent = found != NULL;
	op_last();
	printf("check: who %d (%llx) rooms %d seeks %d (%llx) absent %s last %s as %s\n", who,
	    who_sum, rooms, seeks, sum, absent ? "FOUND" : "none", found ? found : "none",
	    found ? canon : "-");
	if (who != LIST_MAX || rooms != LIST_MAX || seeks != LIST_MAX || absent || !found ||
	    strcmp(found, peer_names[PEERS - 1]) != 0) {
		fprintf(stderr, "bench_presence: wrong answers\n");
		return 1;
	}

	printf("%-10s %12s %12s %12s   (us per operation, %d runs)\n", "op", "min", "median", "max",
	    RUNS);
	bench("arrive", op_arrive);
	bench("arrive-new", op_arrive_new);
	for (int p = 0; p < PEERS; p++) /* every node's first message again */
		hear(p, op_variant[p] = 0);
	bench("who", op_who);
	bench("who-fmt", op_who_fmt);
	bench("rooms", op_rooms);
	bench("seeks", op_seeks);
	bench("absent", op_absent);
	bench("last", op_last);
	return 0;
}
