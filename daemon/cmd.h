/* cmd.h: the command table: one handler per request. */
#ifndef GOMOKUD_CMD_H
#define GOMOKUD_CMD_H

#include "proto/proto.h"

struct conn;

/* Runs one parsed request from c and sends its reply. */
void cmd_dispatch(struct conn *c, const proto_msg_t *m);

#endif
