/*
 * account.h: accounts and the archive's queries: REGISTER, LOGIN (scrypt on
 * the work queue, attempts limited per address and per account and
 * address, an account's failures slowing its logins), the names
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
	/* wrong passwords in a window before 407: for one account from one
	 * address, and from one address in all (an IPv6 /64, ipv6-prefix) */
	ACCOUNT_FAILS_PER_PAIR = 5,
	ACCOUNT_FAILS_PER_ADDR = 20,
	ACCOUNT_FAIL_WINDOW_S = 300,
	/* an account's wrong passwords from anywhere only delay its LOGINs:
	 * after 5, 250 ms, doubling with each further one up to 4 s */
	ACCOUNT_SLOW_AFTER = 5,
	ACCOUNT_DELAY_MS = 250,
	ACCOUNT_DELAY_MAX_MS = 4000,
};

/* REGISTER, LOGIN and AUTH come from a connection with no name or a
 * guest's: a guest is replaced only when the sign-in succeeds (nothing
 * changes on a refusal), and not while it is held (account_guest_held). */
int account_register(struct conn *c, const proto_msg_t *m, const char **why);
int account_login(struct conn *c, const proto_msg_t *m, const char **why);
/* AUTH <login-token>: signs in as the token's account, as LOGIN does; an
 * unknown, expired or revoked token is a failed login for the address. */
int account_auth(struct conn *c, const proto_msg_t *m, const char **why);
/* REMEMBER: a new login token for the connection's account (remember-days),
 * kept as its digest; ERR_ACCOUNT_ONLY from a guest. */
int account_remember(struct conn *c, const proto_msg_t *m, const char **why);
/* BOTUPGRADE (PROTOCOL.md 5.22): the connection's account a bot with a
 * bot token the admin issued for it (used up at the store, one
 * transaction); a bad token counts as a failed login for the address. */
int account_botupgrade(struct conn *c, const proto_msg_t *m, const char **why);
/* SET bot-challenges yes|no (kept with an account, for a guest's session)
 * and SETTINGS (= SET lines). */
int account_set(struct conn *c, const proto_msg_t *m, const char **why);
int account_settings(struct conn *c, const proto_msg_t *m, const char **why);
/* LOGOUT: revokes the login tokens the connection signed in with or was
 * given, then its session ends (the caller checked it is not busy). */
int account_logout(struct conn *c, const proto_msg_t *m, const char **why);
/* Whether c is a guest that may not sign in as an account now: seated at
 * an unfinished game or waiting in its own private room (445). */
int account_guest_held(const struct conn *c);
/* GUEST: a name of its own (not reserved, not an account, not in use) or
 * the next guest name, and a session stored before it is told. */
int account_guest(struct conn *c, const proto_msg_t *m, const char **why);
/* STATS, TOP, HISTORY, EXPORT: the rows read on the store (cmd_store). */
int account_query(struct conn *c, const proto_msg_t *m, const char **why);
/* The wait before a LOGIN for an account with fails wrong passwords in the
 * window (from any address): 0 under ACCOUNT_SLOW_AFTER. */
int account_delay_ms(int fails);
void account_free_limits(struct server *srv);

#endif
