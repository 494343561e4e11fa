/* roster.h: one node's presence, the body of its P message (clustermsg.h),
 * parsed once into an index: its = USER lines with their names hashed for
 * a lookup in any case (each marked a bot's when a = BOT line of its name
 * came right before it, as WHO says), its = ROOM lines and its = SEEK
 * lines, each kind
 * in the order of the message. presence.c keeps one per other node and
 * answers WHO, ROOMS, SEEKS and a name's node from it, where it once
 * parsed every line of every node for each query; the node's next message
 * is parsed after it, so that only the lines that changed are parsed
 * again. Pure: no Redis, no loop.
 *
 * A line is kept as the fields of its form (proto.c's schemas: = USER
 * "uV|r", = ROOM "rJRSTPQuwnN", = SEEK "iuRSTOQPF") and given back as the
 * proto_msg_t proto_parse makes of it (tests/unit/test_roster checks it
 * field for field). */
#ifndef GOMOKUD_CLUSTER_ROSTER_H
#define GOMOKUD_CLUSTER_ROSTER_H

#include <stddef.h>

#include "proto/proto.h"

struct roster;

/* The lines of body (len bytes, LF between lines) that parse as protocol
 * lines of the server's = USER, = ROOM or = SEEK; the others are left out.
 * prev (may be NULL) is the same node's roster before: a line this body
 * repeats is taken from it as it was parsed there, not parsed again. NULL
 * when out of memory. */
struct roster *roster_parse(const char *body, size_t len, const struct roster *prev);
void roster_free(struct roster *r);

/* How many lines of kind id (PD_USER, PD_ROOM, PD_SEEK) r has: 0 for any
 * other id, or for r NULL. */
int roster_count(const struct roster *r, proto_id_t id);
/* Line i (0 to roster_count - 1) of kind id into *m, as proto_parse gives
 * it. Only m's id and the fields of the three forms are written: m must
 * hold zeros elsewhere (proto_init, then only roster_line since). */
void roster_line(const struct roster *r, proto_id_t id, int i, proto_msg_t *m);
/* The = USER line i's state, with its name and its room ("" when none)
 * where name and room are not NULL. */
proto_ustate_t roster_user_at(const struct roster *r, int i, const char **name, const char **room);
/* Whether the = USER line i is a bot's (a = BOT line before it). */
int roster_user_bot(const struct roster *r, int i);
/* The first = USER line whose name is name in any case (strcasecmp), as
 * its index, or -1. */
int roster_user(const struct roster *r, const char *name);

#endif
