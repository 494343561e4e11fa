/* lobby.h: seeks and their pairing. */
#ifndef GOMOKUD_LOBBY_H
#define GOMOKUD_LOBBY_H

#include <stdint.h>

#include <event2/event.h>

#include "proto/proto.h"

struct server;
struct session;

/* The game settings shared by SEEK, CREATE and rooms. */
struct gamespec {
	rule_t rule;
	int size;
	int tc_base, tc_inc;
	proto_colour_t colour;
	int rated;
	proto_opening_t opening;
};

struct seek {
	struct seek *next;
	uint32_t id;
	struct session *sess;
	struct gamespec spec;
	struct event *fallback; /* SEEK ... bot: when a bot takes the seat */
};

void gamespec_from_msg(struct gamespec *g, const proto_msg_t *m);
/* 0, or ERR_ARGUMENT with a reason (swap2 only under freestyle/standard). */
int gamespec_check(const struct gamespec *g, const char **why);
/* Adds s's seek, or pairs it at once (the room starts with * START). The
 * seek's id is returned through *id either way. 0 or an error code. */
int lobby_seek(struct server *srv, struct session *s, const struct gamespec *g, uint32_t *id);
/* Removes s's seek; 0 or ERR_NO_SEEK. */
int lobby_cancel(struct server *srv, struct session *s, uint32_t id);

#endif
