/*
 * sink.h: where a room's events go, and a user's own lines. A room formats
 * each event once and hands it to the sink of every member: a connection's
 * transport, a bot, or a relay to another node. A session speaks to its
 * user through its sink too (say), and lets go of it when it ends (drop),
 * so it calls no function of the connection's. A sink must not call back
 * into the room while it is being handed an event; work that changes the
 * room is deferred to the loop (as the bots do). No member is NULL.
 */
#ifndef GOMOKUD_SINK_H
#define GOMOKUD_SINK_H

#include <stddef.h>

#include "proto/proto.h"

struct room;
struct sink;

struct sink_ops {
	/* One event of room r: m is the message, line its text with the LF. */
	void (*deliver)(
	    struct sink *k, struct room *r, const proto_msg_t *m, const char *line, size_t n);
	/* A line for the user the sink speaks for, of no room (* TELL, * CHALLENGE). */
	void (*say)(struct sink *k, const proto_msg_t *m);
	/* The session the sink speaks for goes: it speaks for none from now. */
	void (*drop)(struct sink *k);
};

struct sink {
	const struct sink_ops *ops;
};

#endif
