/*
 * archive.h: a room's game in the store. Every call writes through before it
 * returns, so an event is sent only for what is already on disk; after a
 * crash the games in progress come back from the store with all their moves.
 * Without a store (database none) these do nothing and succeed.
 */
#ifndef GOMOKUD_ARCHIVE_H
#define GOMOKUD_ARCHIVE_H

#include <stdint.h>

#include "rules/rules.h"

struct room;
struct server;

/* The game starts: its row, with players and settings. */
void archive_begin(struct room *r);
/* The move just placed (the last of r->pos), with the time it took and both
 * clocks after it. -1 when it could not be stored: the move must not stand. */
int archive_move(struct room *r, int64_t used_ms, int64_t black_ms, int64_t white_ms);
/* An undo, or a refused swap2 put: the store keeps r->pos's moves only. */
void archive_truncate(struct room *r);
/* Swap2 settled the colours. */
void archive_colours(struct room *r);
/* The game is over: result, reason and, for a rated game between two
 * accounts, both players' Glicko-2 ratings. */
void archive_end(struct room *r);
/* At start: a room for every game the store holds unfinished, its players
 * away until they RESUME. Returns the number of rooms, or -1. */
int archive_restore(struct server *srv);

#endif
