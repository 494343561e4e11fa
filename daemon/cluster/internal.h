/* internal.h: a cluster node's state, shared by the files of its five
 * concerns and node.c, which puts them together, and by nothing else
 * (attach.c, clusterlobby.c and lease.c know it through cluster.h):
 *
 *   link.c      the Redis connections, reconnection with backoff, publish,
 *               subscribe and the messages' dispatch, cluster_command, the
 *               second's tick that drives the others (link.h)
 *   presence.c  this node's presence published each second, the other
 *               nodes' as last heard, each parsed into a roster (roster.c,
 *               pure) (presence.h)
 *   watch.c     other nodes' rooms watched from here, this node's rooms
 *               relayed to the others, the spectator counts (watch.h)
 *   jobs.c      bot jobs on the streams gomoku:bots and gomoku:reviews, sent
 *               and served (jobs.h)
 *   engines.c   hosted engines' moves on the streams gomoku:engine:*, asked
 *               of the nodes that serve them and served (engines.h)
 *   tell.c      TELL to and from other nodes' users (tell.h)
 *
 * Each concern's fields below are its own: the others read a few of them
 * (link's connections and their flags, jobs' serve) and, but for
 * cluster_new setting them up, change none. */
#ifndef GOMOKUD_CLUSTER_INTERNAL_H
#define GOMOKUD_CLUSTER_INTERNAL_H

#include <sys/queue.h>

#include <netdb.h>
#include <stdint.h>

#include <hiredis/async.h>

#include "daemon/cluster/cluster.h"
#include "daemon/cluster/clustermsg.h"

enum {
	NODES_MAX = 64,     /* other nodes heard from at once */
	NODE_TTL_MS = 3500, /* a node unheard this long is forgotten */
	CHAN_MAX = 64,      /* a channel's name */
};

struct peer;
struct rroom;
struct room;
struct conn;
struct cluster;

/* What the lower files hand up, so that none of them calls a file above
 * it by name: node.c, which puts a node together, sets these (the files
 * stand link.c < presence.c < tell.c, jobs.c, engines.c, lease.c < watch.c <
 * clusterlobby.c < node.c, attach.c; tests/cycles.sh checks there is no
 * cycle). No member is NULL once cluster_new returned. */
struct cluster_parts {
	/* link.c: Redis went (what was heard is stale); the subscriptions'
	 * connection is up again (subscribe again); a room's channel is
	 * subscribed; the jobs' connection is up; the commands' one is */
	void (*down)(struct cluster *cl);
	void (*resubscribe)(struct cluster *cl);
	void (*subscribed)(struct cluster *cl, const char *room);
	void (*jobs_up)(struct cluster *cl);
	void (*cmd_up)(struct cluster *cl);
	/* link.c: a message for a concern, checked for its channel */
	void (*presence)(struct cluster *cl, const struct cmsg *m);
	void (*tell)(struct cluster *cl, const struct cmsg *m);
	void (*watch)(struct cluster *cl, const struct cmsg *m);
	void (*result)(struct cluster *cl, const struct cmsg *m);
	void (*lobby)(struct cluster *cl, const struct cmsg *m);
	void (*tourney)(struct cluster *cl, const struct cmsg *m);
	void (*engine)(struct cluster *cl, const struct cmsg *m);
	/* link.c: the second's work of every concern */
	void (*tick)(struct cluster *cl, int64_t now);
	/* presence.c: the room elsewhere c watches (watch.c), or NULL; this
	 * node's claimable seeks as = SEEK lines (clusterlobby.c) */
	const char *(*watched)(const struct cluster *cl, const struct conn *c);
	void (*seek_lines)(
	    struct cluster *cl, void (*fn)(void *arg, const proto_msg_t *m), void *arg);
	/* lease.c: r, adopted, keeps the other nodes' watchers (watch.c) */
	void (*adopted)(struct cluster *cl, struct room *r);
};
struct relay;
struct sent;
struct served;
struct held;

struct cluster {
	struct server *srv;
	char node[CONFIG_NODE_MAX + 1];
	char addr[CMSG_ADDR_MAX + 1]; /* where this node's players connect */
	char chan_node[CHAN_MAX];     /* gomoku:node:<node> */

	/* link.c: Redis */
	char ip[NI_MAXHOST];
	int port;
	redisAsyncContext *cmd, *sub;
	redisAsyncContext *jobs; /* the blocking reads of bot jobs, apart from commands */
	int cmd_up, sub_up, jobs_up;
	int64_t sub_since; /* ms: when the subscriptions' connection came up */
	int backoff_s;
	int64_t retry_at;
	struct event *tick;
	int said_down;         /* the outage is logged */
	int64_t drop_said_at;  /* ms: a dropped message was last logged */
	unsigned drops_unsaid; /* dropped since, not logged (link.c's dropped) */
	int stopped;           /* cluster_stop: no Redis, no relays from now on */

	/* presence.c: the other nodes as last heard */
	struct peer *peers[NODES_MAX];
	int npeers;
	int twin_said;      /* another node's presence came under this node's name */
	unsigned forgotten; /* nodes forgotten, unheard for NODE_TTL_MS */

	/* watch.c */
	LIST_HEAD(, rroom) rrooms; /* other nodes' rooms watched from here */
	LIST_HEAD(, relay) relays; /* this node's rooms relayed to others */

	/* jobs.c: this node's jobs (pool remote) or other nodes' (serve) */
	struct bots *pool;
	int remote;       /* its pool has no workers: jobs go to the stream */
	int serve;        /* it searches jobs from the stream */
	int workers;      /* its pool's threads */
	int64_t claim_ms; /* a job pending this long is taken for lost */
	int group_ready, reading, claiming;
	uint64_t served_seq;
	LIST_HEAD(, sent) sent;
	LIST_HEAD(, served) served;
	TAILQ_HEAD(, held) held; /* reviews' positions read with no worker idle */

	/* engines.c: its state; served: the engines this node serves other
	 * nodes, as its presence header says them ("" none: presence.c reads it) */
	struct engines *engines;
	char served_engines[CMSG_ENGINES_MAX + 1];

	struct clobby *lobby;  /* seeks and challenges across nodes */
	struct lease *lease;   /* room leases (on a shared PostgreSQL); NULL: none */
	struct tlease *tlease; /* tournaments' leases (the same); NULL: none */
	struct cluster_parts parts;
};

#endif
