/*
 * sink.h: where a room's events go. A room formats each event once and
 * hands it to the sink of every member: a connection's transport, a bot, and
 * later a relay to another node. A sink must not call back into the room
 * while it is being handed an event; work that changes the room is deferred
 * to the loop (as the bots do).
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
};

struct sink {
	const struct sink_ops *ops;
};

#endif
