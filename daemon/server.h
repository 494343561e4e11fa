/* server.h: the composition root (server.c): it makes the owners, the
 * listeners and signals, attaches the other nodes' world when a cluster
 * is configured, and runs the loop. Only main.c calls it; nothing of the
 * core calls back into it. */
#ifndef GOMOKUD_SERVER_H
#define GOMOKUD_SERVER_H

#include "daemon/core.h"

/* Sets up the base, TLS and listeners from srv->cfg. 0 or -1 (logged). */
int server_init(struct server *srv);
int server_run(struct server *srv);
void server_free(struct server *srv);
/* SIGHUP's work: the config file again (flags win), certificate and key; a
 * bad file changes nothing. 0, or -1 (logged). */
int server_reload(struct server *srv);

#endif
