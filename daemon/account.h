/*
 * account.h: accounts and the archive's queries: REGISTER, LOGIN (scrypt on
 * the work queue, attempts limited per address and per account), the names
 * GUEST may take, STATS, TOP, HISTORY and EXPORT. Each request handler
 * returns 0 (it replied, or will once its worker is done) or an error code
 * with *why.
 */
#ifndef GOMOKUD_ACCOUNT_H
#define GOMOKUD_ACCOUNT_H

#include "proto/proto.h"

struct conn;
struct server;

enum {
	ACCOUNT_PASSWORD_MIN = 6,
	ACCOUNT_FAILS_PER_NAME = 5,  /* wrong passwords a window, one account */
	ACCOUNT_FAILS_PER_ADDR = 20, /* wrong passwords a window, one address */
	ACCOUNT_FAIL_WINDOW_S = 300,
};

int account_register(struct conn *c, const proto_msg_t *m, const char **why);
int account_login(struct conn *c, const proto_msg_t *m, const char **why);
/* GUEST: a name of its own (not reserved, not an account, not in use) or
 * the next guest name, and a session stored before it is told. */
int account_guest(struct conn *c, const proto_msg_t *m, const char **why);
/* STATS, TOP, HISTORY, EXPORT: the rows read on the store (cmd_store). */
int account_query(struct conn *c, const proto_msg_t *m, const char **why);
void account_free_limits(struct server *srv);

#endif
