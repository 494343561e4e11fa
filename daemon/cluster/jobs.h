/* jobs.h: bot searches across nodes, for link.c (internal.h). A node
 * with bot-threads none is its bot pool's remote transport (bots.h): each
 * job goes on the stream gomoku:bots (XADD), a review's position on
 * gomoku:reviews, and its result comes back on the node's channel (R). A
 * node with workers and bot-serve reads both streams in the consumer
 * group workers on a connection of its own (only while a worker is free:
 * gomoku:bots alone first, without blocking, and a wait on both only when
 * no move waits there; a review's position goes to the pool only onto an
 * idle worker, and is held here till then), searches each job on its
 * pool, publishes the result to the job's owner and acknowledges the
 * entry; every second it claims a job whose worker died (XAUTOCLAIM). */
#ifndef GOMOKUD_CLUSTER_JOBS_H
#define GOMOKUD_CLUSTER_JOBS_H

#include "daemon/cluster/internal.h"

/* The pool of cl->srv's bots, its role (remote, serve) and transport. */
void jobs_init(struct cluster *cl);
/* The workers' group is made (serve), once the command connection is up
 * (at its connection, and each second until Redis says it is there). */
void jobs_group(struct cluster *cl);
/* The jobs connection is up: the next job is awaited. */
void jobs_read(struct cluster *cl);
/* The link went: nothing is being read or claimed, and the jobs sent from
 * here went with Redis (or will be claimed). */
void jobs_down(struct cluster *cl);
/* R on this node's channel: a result for one of its jobs. */
void jobs_result(struct cluster *cl, const struct cmsg *m);
/* The second's work: the group, the next read, a lost job's claim. */
void jobs_tick(struct cluster *cl);
/* Shutdown: the pool's transport goes, the jobs served are cancelled. */
void jobs_stop(struct cluster *cl);

#endif
