/* control.h: gomokuctl's unix socket (mode 0600, in the state directory by
 * default): a line protocol for the admin on the same event loop, open only
 * to the daemon's own user and root (SO_PEERCRED). See gomokuctl(8). */
#ifndef GOMOKUD_CONTROL_H
#define GOMOKUD_CONTROL_H

#include <stddef.h>

struct server;
struct control;

/* Who may use the socket: root, and the user the daemon runs as. */
static inline int
control_peer_allowed(long peer_uid, long own_uid)
{
	return peer_uid == 0 || peer_uid == own_uid;
}

/* What reload does: the composition root's SIGHUP work (server.c), 0 or
 * -1 (logged), given here so the control socket never calls back into
 * the root. */
typedef int control_reload_fn(struct server *srv);
/* Listens on the path srv->cfg names ("" = state_dir/gomokud.ctl), replacing
 * a stale socket there; cfg "none": no socket (returns NULL, no error).
 * NULL with err on failure. */
struct control *control_new(
    struct server *srv, control_reload_fn *reload, char *err, size_t errlen);
/* Closes every control connection and removes the socket. After the
 * worker pool is freed (a backup's reply may name a connection). */
void control_free(struct control *ctl);

#endif
