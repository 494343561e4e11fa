/*
 * script.h: script mode. Reads requests from stdin, one a line, and prints
 * every line the server sends on stdout, so tests and simple bots can drive
 * the client. The client says HELLO itself (and GUEST with --name); each
 * request waits for its reply before the next is read. A line
 * "!wait NAME" waits for the next event "* NAME ..." not yet waited for.
 * At the end of stdin the client sends QUIT.
 */
#ifndef GOMOKU_CLIENT_SCRIPT_H
#define GOMOKU_CLIENT_SCRIPT_H

#include "client/net.h"

/* Exit status: 0 clean, 1 connection failed or lost, 3 certificate refused,
 * 4 the server refused the sign-in (guest name) or the request a !wait
 * waited on. With a state file (state.h) a kept session is RESUMEd first
 * and the token kept. */
int script_run(
    struct event_base *base, const net_opts_t *o, const char *guest, const char *state_file);

#endif
