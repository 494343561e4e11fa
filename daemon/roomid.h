/* roomid.h: the one spelling of a room id, and so of which node a room's
 * id names (issue 40). An id is the letters of the node that numbered it
 * (a to z, lowercase, 1 to ROOMID_NODE_MAX of them: "r" on a lone
 * server, the node-name in a cluster) and its number (1 to 4294967295,
 * no leading zero): "r12", "ab7". Nothing else names a room: an id with
 * an upper-case letter names no room on any node. The rooms' registry,
 * the messages between nodes and the leases all read ids here. */
#ifndef GOMOKUD_ROOMID_H
#define GOMOKUD_ROOMID_H

#include <stddef.h>
#include <stdint.h>

/* The most letters an id begins with (so a node-name has, CONFIG_NODE_MAX). */
enum { ROOMID_NODE_MAX = 6 };

/* 0 with the node's letters (node may be NULL) and the number (num may
 * be NULL), or -1 when id is not a room id. */
int roomid_parse(const char *id, char node[ROOMID_NODE_MAX + 1], uint32_t *num);
/* Whether node is letters an id may begin with (a node-name, or "r"). */
int roomid_node_ok(const char *node);

#endif
