/*
 * state.h: what the client keeps between its runs, per server, in
 * $XDG_STATE_HOME/gomoku/ (default ~/.local/state/gomoku/): the session
 * token and the room of the game it sits at, so that a client started
 * again RESUMEs its seat first. One file per server and name
 * ("session-host_port-name", name "-" for a guest the server names), mode
 * 0600 in a 0700 directory, holding "token room pid name" on one line:
 * the pid of the client that wrote it, so that a second client running
 * beside it does not take its seat away, and the session's name.
 */
#ifndef GOMOKU_CLIENT_STATE_H
#define GOMOKU_CLIENT_STATE_H

#include <stddef.h>

/* The file for host:port and who (NULL: "-"); 0, or -1 when no home is
 * known or it is too long. */
int state_path(const char *host, const char *port, const char *who, char *buf, size_t len);
/* A kept session: its token, the room of its seat ("" when none) and name. */
typedef struct {
	char token[65], room[17], name[21];
} state_t;

/* Reads the file; 0, or -1 when there is no usable file or the client that
 * wrote it still runs. */
int state_load(const char *path, state_t *st);
/* Writes it (room may be ""), replacing the file whole. 0 or -1. */
int state_save(const char *path, const state_t *st);
/* Removes the file (a session that is over). */
void state_forget(const char *path);

struct model;
/* Keeps path in step with the model: its token, and the room while it sits
 * at an unfinished game there; the file goes when the token does. last
 * (kept by the caller, "" at first) holds what was written, so the file is
 * written only when that changes. */
void state_sync(const char *path, const struct model *m, char last[256]);

#endif
