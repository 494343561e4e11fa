/*
 * session.h: the interactive client: connection, model, keys and screen
 * tied together on the event loop, with reconnect and RESUME.
 */
#ifndef GOMOKU_CLIENT_SESSION_H
#define GOMOKU_CLIENT_SESSION_H

#include "client/net.h"

typedef struct {
	const char *name;  /* guest name, or NULL for one the server picks */
	const char *login; /* account to LOGIN (or REGISTER) as, or NULL */
	const char *password;
	int reg; /* REGISTER the account first */
	int ascii, mono, mouse;
	const char *state_file; /* where the session token is kept (state.h), or NULL */
	const char *join;       /* an invite code to JOIN once signed in (a share link's) */
} session_opts_t;

/* Runs until the user quits. Exit status as script_run. */
int session_run(struct event_base *base, const net_opts_t *o, const session_opts_t *so);

#endif
