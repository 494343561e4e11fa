/* cmd.h: the command table: one handler per request. */
#ifndef GOMOKUD_CMD_H
#define GOMOKUD_CMD_H

#include "proto/proto.h"

struct conn;

struct room;
struct server;

/* Runs one parsed request from c and sends its reply. A request for a
 * room whose stones wait for their commit (room_busy) waits with its
 * connection held, and runs in order after it. */
void cmd_dispatch(struct conn *c, const proto_msg_t *m);
/* Hands the rooms' late answers (rooms_on_reply) to the waiting requests. */
void cmd_start(struct server *srv);
/* c is going: its waiting requests are dropped. */
void cmd_forget(struct conn *c);

#endif
