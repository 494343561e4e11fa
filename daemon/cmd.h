/* cmd.h: the command table: one handler per request. */
#ifndef GOMOKUD_CMD_H
#define GOMOKUD_CMD_H

#include "daemon/archive.h"
#include "proto/proto.h"

struct conn;

struct room;
struct server;

/* Runs one parsed request from c and sends its reply. A request for a
 * room whose stones wait for their commit (room_busy) waits with its
 * connection held, and runs in order after it. */
void cmd_dispatch(struct conn *c, const proto_msg_t *m);
/* srv->cmd: hands the rooms' late answers (rooms_on_reply) to the waiting
 * requests; 0, or -1 when out of memory. cmd_stop frees it, after every
 * connection went (conn_kill forgets their parked requests). */
int cmd_start(struct server *srv);
void cmd_stop(struct server *srv);
/*
 * A request that needs the store, on one path for both backends
 * (archive_call): run(st, arg) on the store thread, then reply(c, arg, why)
 * on the loop sends the answer and returns 0 or an error code for the request tagged tag. c is
 * held meanwhile (its later lines wait); with SQLite both happen at once.
 * reply is called exactly once and owns arg: with c NULL when c went
 * meanwhile or the store's queue was full (then it only cleans up).
 * Returns reply's code, or 0 while the store works, or ERR_SERVER_BUSY.
 */
typedef int (*cmd_reply_fn)(struct conn *c, void *arg, const char **why);
int cmd_store(struct conn *c, const char *tag, archive_run_fn run, cmd_reply_fn reply, void *arg,
    const char **why);
/* c is going: its waiting requests are dropped. */
void cmd_forget(struct conn *c);
/* The same as a conn_gone_fn (conn.h). */
void cmd_conn_gone(void *srv, struct conn *c);

#endif
