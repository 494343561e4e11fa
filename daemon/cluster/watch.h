/* watch.h: spectators across nodes, for link.c (internal.h). A WATCH of
 * another node's room subscribes this node to the room's channel and, once
 * Redis confirms, asks the owner on its node channel (W); the owner sets a
 * relay on the room and publishes its snapshot (S), then every event (E)
 * on that channel, through its one command connection, so they arrive in
 * order. A relay ends when a publish reaches nobody, or with its room.
 * Each second a node tells the owners how many watch their rooms from
 * here (C), and the owners count those in (room_set_far_watchers). The
 * requests are cluster.h's (cluster_watch, cluster_leave, cluster_relay,
 * cluster_owner, ...). */
#ifndef GOMOKUD_CLUSTER_WATCH_H
#define GOMOKUD_CLUSTER_WATCH_H

#include <stdint.h>

#include "daemon/cluster/internal.h"

/* The link is up again: every watched room's channel is subscribed again. */
void watch_resubscribe(struct cluster *cl);
/* Redis confirmed the subscription to room's channel: its owner is asked. */
void watch_subscribed(struct cluster *cl, const char *room);
/* The link went: no subscription stands. */
void watch_down(struct cluster *cl);
/* A message link.c heard: on this node's channel W (another node watches
 * a room, dropped unless the room is this node's) and C (its count of a
 * room's spectators, the same); on a room's channel S (the owner's
 * snapshot) and E (an event). */
void watch_got(struct cluster *cl, const struct cmsg *m);
/* The second's work: watches whose connection went or whose owner did not
 * answer, relays of rooms gone, the counts to and from the other nodes. */
void watch_tick(struct cluster *cl, int64_t now);
/* Shutdown: every relay leaves its room, every watch goes (nothing said). */
void watch_stop(struct cluster *cl);

#endif
