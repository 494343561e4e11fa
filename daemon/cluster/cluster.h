/* cluster.h: this node among others, through Redis (hiredis on the loop):
 * the interface attach.c, clusterlobby.c and lease.c use. Its state is
 * internal.h's, its concerns one file each: link.c (the Redis
 * connections, publish and subscribe, the tick), presence.c (the other
 * nodes' presence as last heard), watch.c (rooms watched across nodes and
 * relays), jobs.c (bot jobs on a stream), tell.c (TELL). Nothing here
 * waits for Redis: requests are queued, answers come back on the loop.
 * While Redis is away, cross-node requests are refused (501) and local
 * play goes on; it reconnects with backoff, subscribes again and
 * republishes. Bots: with bot-threads none it is the bot pool's remote
 * transport (bots.h), jobs onto the streams gomoku:bots (moves) and
 * gomoku:reviews (a review's positions); with workers (bot-serve) it reads
 * jobs there, a review's behind the moves, searches them on the pool and answers
 * their owner. Seeks, challenges and JOINs across nodes are
 * clusterlobby.h's: this module carries its messages and its = SEEK
 * presence lines. Spectators watching from here are counted to the
 * rooms' owners every second. Messages are clustermsg.h's. */
#ifndef GOMOKUD_CLUSTER_H
#define GOMOKUD_CLUSTER_H

#include <stddef.h>

#include "daemon/config.h"
#include "daemon/game.h"
#include "daemon/world.h"
#include "proto/proto.h"

struct server;
struct conn;
struct session;
struct cluster;

/* The cluster of srv->cfg (cluster, node-name, advertise), with its
 * leases when the store is the cluster's PostgreSQL; NULL without one
 * (err "") or when its Redis address cannot be resolved (err says). */
struct cluster *cluster_new(struct server *srv, char *err, size_t errlen);
/* Shutdown, first: Redis, the lobby, the watches and the relays (which
 * leave the rooms) go; then, once the store thread stopped (its answers
 * go to the leases), the rest. */
void cluster_stop(struct cluster *cl);
void cluster_release(struct cluster *cl);
/* The server it is a node of. */
struct server *cluster_server(const struct cluster *cl);
/* Whether both Redis connections are up. */
int cluster_up(const struct cluster *cl);

/* Each = USER (id PD_USER) or = ROOM (PD_ROOM) line the other nodes
 * published last, to fn, at most max of them; the number given. */
int cluster_each(struct cluster *cl, proto_id_t id, int max,
    void (*fn)(void *arg, const proto_msg_t *m), void *arg);
/* The other nodes' = USER lines of users playing room, then of those
 * watching it, to fn, at most max of them; the number given. */
int cluster_each_in(struct cluster *cl, const char *room, int max,
    void (*fn)(void *arg, const proto_msg_t *m), void *arg);
/* The = USER lines of the users here who watch room (another node's), to
 * fn, at most max; the number given. */
int cluster_watchers_here(struct cluster *cl, const char *room, int max,
    void (*fn)(void *arg, const proto_msg_t *m), void *arg);
/* Whether another node lists room among its public rooms (ROOMS). */
int cluster_room_listed(struct cluster *cl, const char *room);
/* A TELL from a user here to one on another node: GERR_OK, or
 * GERR_NO_USER, GERR_UNAVAILABLE (with *why) or GERR_ARGUMENT. */
game_err_t cluster_tell(
    struct cluster *cl, const char *from, const char *to, const char *text, const char **why);
/* The node where name (any case) is online, as its presence said last,
 * with the name as that node spells it in canon; NULL when none. */
const char *cluster_user_node(struct cluster *cl, const char *name, char canon[PROTO_NAME_MAX + 1]);
/* The node that owns room: the holder of its lease when another node
 * adopted it, else the node its id names (roomid.h). 0, or -1 for an id
 * no node owns. */
int cluster_owner(const struct cluster *cl, const char *room, char node[CONFIG_NODE_MAX + 1]);
/* How many times a node was forgotten (unheard for a few seconds): a
 * change says one may have died. */
unsigned cluster_forgotten(const struct cluster *cl);
/* The advertised host:port of node, or NULL while it is not heard from. */
const char *cluster_node_addr(const struct cluster *cl, const char *node);
/* Each other node as last heard, to fn (world.h's each_node): how many,
 * or -1 while Redis is away. */
int cluster_each_node(const struct cluster *cl, world_node_fn *fn, void *arg);
/* One Redis command (argv) on the command connection; fn(reply, priv) with
 * hiredis's redisReply (NULL: the connection went) on the loop. -1 when
 * Redis is away (fn is then never called). */
typedef void cluster_reply_fn(void *reply, void *priv);
int cluster_command(struct cluster *cl, cluster_reply_fn *fn, void *priv, int argc,
    const char **argv, const size_t *argvlen);
struct room;
/* r's events go on its channel from now on (as after a watcher's W): an
 * adopted room keeps the other nodes' watchers of it. */
void cluster_relay(struct cluster *cl, struct room *r);
/* lease.c: r, adopted here, goes on relaying its events to the other
 * nodes' watchers (cluster_relay, through the parts node.c set). */
void cluster_adopted(struct cluster *cl, struct room *r);

/* WATCH or STATE (m) of another node's room from c: GERR_PENDING when
 * asked (c is held; the snapshot and the OK come when the owner answers,
 * or an error after CLUSTER_ASK_S), else the refusal with *why. */
game_err_t cluster_watch(
    struct cluster *cl, struct conn *c, const proto_msg_t *m, const char **why);
/* Whether c watches room (another node's). */
int cluster_watching(const struct cluster *cl, const struct conn *c, const char *room);
/* c stops watching room: GERR_OK, or GERR_NOT_IN_ROOM. */
game_err_t cluster_leave(struct cluster *cl, struct conn *c, const char *room);
/* The room of another node that c watches (the first whose snapshot
 * came), or NULL. */
const char *cluster_watched(const struct cluster *cl, const struct conn *c);
/* c is going away: its remote watches end. */
void cluster_conn_gone(struct cluster *cl, struct conn *c);

/* For clusterlobby.c: this node's name (node's advertised host:port is
 * cluster_node_addr, above); the lobby; text (one line) to node as a
 * lobby message (L), 0 or -1 (Redis away, too long); each line of kind id
 * the other nodes published last, with its node, to fn until fn returns
 * nonzero (then 1, else 0). */
struct clobby;
struct tlease;
const char *cluster_node(const struct cluster *cl);
struct clobby *cluster_lobby(const struct cluster *cl);
/* For attach.c: the tournaments' leases (tlease.h), or NULL. */
struct tlease *cluster_tlease(const struct cluster *cl);
int cluster_send_lobby(struct cluster *cl, const char *node, const char *text);
/* text to every other node heard from (as cluster_send_lobby): how many. */
int cluster_lobby_all(struct cluster *cl, const char *text);
int cluster_each_of(struct cluster *cl, proto_id_t id,
    int (*fn)(void *arg, const char *node, const proto_msg_t *m), void *arg);

/* Hosted engines on other nodes (engines.h), as world.h's engine_live,
 * each_engine, engine_move and engine_end say. */
int cluster_engine_live(const struct cluster *cl, const char *name);
void cluster_each_engine(
    const struct cluster *cl, void (*fn)(void *arg, const char *name), void *arg);
game_err_t cluster_engine_move(
    struct cluster *cl, const struct world_engine_job *j, world_engine_fn *fn, void *arg);
void cluster_engine_end(struct cluster *cl, const char *game, int over);

enum { CLUSTER_ASK_S = 3 }; /* an owner's snapshot is awaited this long */

#endif
