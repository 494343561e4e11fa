/* link.h: the cluster's Redis link, for the other concerns' files
 * (internal.h). link.c owns the connections (commands, subscriptions and,
 * on a node that serves bot jobs, the jobs' blocking reads), connects them
 * again with backoff (1 to 16 s) after a loss, hands every message heard
 * to its concern and drives them all with a tick each second. Nothing here
 * waits: a command is queued, its answer comes back on the loop. */
#ifndef GOMOKUD_CLUSTER_LINK_H
#define GOMOKUD_CLUSTER_LINK_H

#include <stddef.h>

#include <hiredis/async.h>

#include "daemon/cluster/internal.h"

#define CHAN_PRESENCE "gomoku:presence"
#define CHAN_TOURNEYS "gomoku:tourneys" /* tlease.h */

/* gomoku:room:<room>, the channel of a room's snapshot and events. */
void link_room_chan(char out[CHAN_MAX], const char *room);
/* buf (n bytes) published on chan through the command connection; fn with
 * its reply (NULL: the connection went), or at once with NULL when Redis is
 * away. fn may be NULL: the reply does not matter. */
void link_publish(struct cluster *cl, const char *chan, const char *buf, size_t n,
    redisCallbackFn *fn, void *priv);
/* The same to node's channel, gomoku:node:<node>. */
void link_to_node(struct cluster *cl, const char *node, const char *buf, size_t n,
    redisCallbackFn *fn, void *priv);
/* Listens to chan (its confirmation comes to watch_subscribed for a room's
 * channel); stops listening (while connected). */
void link_subscribe(struct cluster *cl, const char *chan);
void link_unsubscribe(struct cluster *cl, const char *chan);
/* A reply that does not matter. */
void link_ignore(redisAsyncContext *ac, void *reply, void *priv);
/* The second's tick and the first connections (node.c, once the parts are
 * set): 0, or -1 when the timer cannot be had. link_stop: the tick and the
 * connections go (their pending replies are called back with NULL). */
int link_start(struct cluster *cl);
void link_stop(struct cluster *cl);

#endif
