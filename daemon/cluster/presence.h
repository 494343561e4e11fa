/* presence.h: who is where in the cluster, for link.c (internal.h). Every
 * second each node publishes its presence whole on gomoku:presence: its
 * name, its advertised address, its = USER lines (as WHO lists them), its
 * public = ROOM lines (ROOMS) and its claimable = SEEK lines (SEEKS); each
 * node keeps the others' last message and forgets a node unheard for
 * NODE_TTL_MS, so WHO, ROOMS, SEEKS and a name's node answer at once from
 * memory. The queries are cluster.h's (cluster_each, cluster_user_node,
 * cluster_each_of, ...). */
#ifndef GOMOKUD_CLUSTER_PRESENCE_H
#define GOMOKUD_CLUSTER_PRESENCE_H

#include <stdint.h>

#include "daemon/cluster/internal.h"

enum {
	PRESENCE_LINES_MAX = 20000, /* of each kind in one P message of this node's */
};

/* A P message on gomoku:presence: another node's, kept; this node's own
 * name from another address is logged once. */
void presence_got(struct cluster *cl, const struct cmsg *m);
/* The second's work: this node's presence out (when on Redis), and the
 * nodes unheard for NODE_TTL_MS forgotten. */
void presence_tick(struct cluster *cl, int64_t now);
/* Every node forgotten at once: what was heard through Redis is stale. */
void presence_forget(struct cluster *cl);

/* Hosted engines the other nodes serve (their presence header's, issue
 * 49), for engines.c. The first live node that serves engine name, with
 * hash when *hash is nonzero, else with any (its hash then in *hash):
 * its name, or NULL. */
const char *presence_engine_node(const struct cluster *cl, const char *name, uint32_t *hash);
/* Each live node that serves name with hash, to fn: how many. */
int presence_engine_nodes(const struct cluster *cl, const char *name, uint32_t hash,
    void (*fn)(struct cluster *cl, const char *node, void *arg), void *arg);
/* The name of each engine live nodes serve, to fn (once a node: the
 * caller drops repeats). */
void presence_each_engine(
    const struct cluster *cl, void (*fn)(void *arg, const char *name), void *arg);

#endif
