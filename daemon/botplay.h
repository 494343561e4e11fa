/*
 * botplay.h: the server's bots at the table. A bot is a session without a
 * connection, seated like a player; its searches run on the bot pool
 * (bots.c) and its moves enter the room through room_move, like a human's.
 * BOT play starts a game against one, BOT seat gives one the free seat of
 * a private room, and a SEEK that allows it falls back to one after a wait.
 */
#ifndef GOMOKUD_BOTPLAY_H
#define GOMOKUD_BOTPLAY_H

#include "proto/proto.h"

struct conn;
struct room;
struct seek;
struct server;
struct session;

/* The pool from the config; 0 or -1 (logged). */
int botplay_init(struct server *srv);
void botplay_free(struct server *srv);
int botplay_play(struct conn *c, const proto_msg_t *m, const char **why);
int botplay_seat(struct conn *c, const proto_msg_t *m, const char **why);
/* After any change in a room with a bot: soon (on the loop, once the change
 * is complete) start or cancel its search and answer offers made to it. */
void botplay_poke(struct room *r);
/* The room is being freed: its search is cancelled. */
void botplay_room_freed(struct room *r);
/* A seek that may fall back to a bot: arm its timer (seek.c frees it). */
void botplay_seek_fallback(struct server *srv, struct seek *k);

#endif
