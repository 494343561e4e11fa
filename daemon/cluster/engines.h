/* engines.h: hosted engines across nodes (issue 49), for node.c and
 * attach.c (internal.h). A node that serves bot jobs (bot-serve, with
 * workers) and has hosted engines (hosted.h) serves other nodes' moves of
 * them: its presence header names each with the hash of its config line
 * (two programs under one name differ), and it reads the stream
 * gomoku:engine:<name>:<hash> in the consumer group workers. A node that
 * plays an engine it has not (or has bot-threads none) asks one of them
 * (cluster.h's cluster_engine_move): the whole position goes on that
 * stream (H), and N on each serving node's channel says a move waits; the
 * worker that reads it keeps one brain process per game (the first move
 * of a game it has not starts one from the position, BOARD; then TURN),
 * answers (M) on the asker's channel and acknowledges the entry; it ends
 * the brain at the game's end (X from the asker), after ENGINES_IDLE_MS
 * without a move, or when the brain failed the game. A worker that dies
 * mid-move leaves its entry pending: another claims it after the engine's
 * claim time (XAUTOCLAIM), and starts a brain from the position. The
 * asker takes a move for lost when Redis goes, when no live node has
 * served its engine for a few seconds, or after ENGINES_LOST_MS. */
#ifndef GOMOKUD_CLUSTER_ENGINES_H
#define GOMOKUD_CLUSTER_ENGINES_H

#include <stdint.h>

#include "daemon/cluster/internal.h"

enum {
	ENGINES_IDLE_MS = 60000,  /* a served game's brain with no move this long ends */
	ENGINES_LOST_MS = 120000, /* a move asked and unanswered this long is lost */
	ENGINES_GONE_MS = 5000,   /* ... or once no live node serves its engine this long */
};

/* This node's engines and role (after jobs_init): what it serves, said in
 * cl->served_engines. 0, or -1 when out of memory. */
int engines_init(struct cluster *cl);
/* M, N or X on this node's channel. */
void engines_got(struct cluster *cl, const struct cmsg *m);
/* The second's work: the groups, a read, a lost job's claim, idle brains
 * ended, the moves asked that no node will answer. */
void engines_tick(struct cluster *cl, int64_t now);
/* Redis went: the moves asked from here are lost (their callers are told,
 * and ask again), nothing is being read. */
void engines_down(struct cluster *cl);
/* Shutdown: the brains of served games end; nothing is called back. */
void engines_stop(struct cluster *cl);

#endif
