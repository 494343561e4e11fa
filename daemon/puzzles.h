/*
 * puzzles.h: PUZZLE and SOLVE (issue 47, PROTOCOL.md 5.20): puzzles made
 * from the missed wins of reviewed public games, proven and judged by the
 * engine's threat solvers (engine/puzzle.h) on the daemon's worker threads
 * (srv->work), kept in the store with their Glicko-2 ratings, and each
 * account's puzzle rating beside its game ratings. The module owns the
 * puzzle open on each connection (one) and the offers being proven.
 */
#ifndef GOMOKUD_PUZZLES_H
#define GOMOKUD_PUZZLES_H

#include <stdint.h>

#include "proto/proto.h"
#include "rules/rules.h"

struct conn;
struct puzzles;
struct server;

/* The module for srv: NULL without a store (PUZZLE and SOLVE are then
 * 501), or on failure. */
struct puzzles *puzzles_new(struct server *srv);
/* Drops the open puzzles: after the workers (srv->work) and the store
 * thread stopped, whose jobs' ends read the module. */
void puzzles_free(struct puzzles *pz);
/* The review of public game game found a missed win at ply (moves, the
 * game's, at least ply of them): offered to the solvers, and kept as a
 * puzzle when they prove it. */
void puzzles_offer(struct puzzles *pz, int64_t game, rule_t rule, int size, const move_t *moves,
    int nmoves, int ply);
/* PUZZLE m and SOLVE m from c: 0 when answered (now or later), or an
 * error code with *why. */
int puzzles_open(struct puzzles *pz, struct conn *c, const proto_msg_t *m, const char **why);
int puzzles_solve(struct puzzles *pz, struct conn *c, const proto_msg_t *m, const char **why);

#endif
