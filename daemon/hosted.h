/*
 * hosted.h: the server's hosted engines (issue 49): Gomocup brains the
 * admin names in the config, each game against one holding one brain
 * process for its length, in bot/sandbox.h's sandbox, driven on the event
 * loop by bot/brain.h (absolute deadlines, restarts from BOARD, N failures
 * and the game is given up). The whole interface of the module; it knows
 * no room: its owner is the caller's number for a game.
 *
 * A move is asked with the game's whole move list; the module keeps the
 * position each game's brain has and says only what changed: the
 * opponent's move (TURN), or the whole position again (BOARD) after an
 * undo, a restart or anything else. It never blocks the loop.
 */
#ifndef GOMOKUD_HOSTED_H
#define GOMOKUD_HOSTED_H

#include <stddef.h>
#include <stdint.h>

#include "rules/rules.h"

struct event_base;
typedef struct hosted hosted_t;

enum { HOSTED_NAME_MAX = 16, HOSTED_ARGS_MAX = 16 };

/* One engine of the config. */
struct hosted_engine {
	char name[HOSTED_NAME_MAX + 1];        /* [a-z][a-z0-9]*, as players see it */
	const char *argv[HOSTED_ARGS_MAX + 1]; /* the brain's command line, NULL-ended */
	int threads;                           /* INFO thread_num: 0 for none said */
	long mem_bytes;                        /* its RLIMIT_AS and INFO max_memory, 0 for none */
	long cpu_seconds;                      /* its RLIMIT_CPU over a game, 0 for none */
	int turn_ms;                           /* a move's time when the game's clock allows more */
	int swap2;                             /* it speaks SWAP2BOARD */
	int sandbox; /* 1 (the default): bot/sandbox.h; 0 only for tests */
};

/* n engines (copied) and room for games_max games at once. NULL with err
 * when an engine's name or command is bad, or when a sandboxed engine's
 * brain could not enter its sandbox here (sandbox_available: tried in a
 * child process). */
hosted_t *hosted_new(struct event_base *base, const struct hosted_engine *e, int n, int games_max,
    char *err, size_t errlen);
/* Kills every brain's process group and reaps it; no callback after. */
void hosted_free(hosted_t *h);

/* The engine named name, or -1. */
int hosted_find(const hosted_t *h, const char *name);
int hosted_count(const hosted_t *h);
const char *hosted_name(const hosted_t *h, int engine);
/* Whether engine can play that game: any rule and size (the brain says
 * at START whether it plays the size), no opening rule but none (swap2,
 * whose acts the Gomocup protocol carries, is left for later). */
int hosted_can_play(const hosted_t *h, int engine, rule_t rule, int size, int opening);

/* A move's end: status 0 with the move (legal on the position asked),
 * or HOSTED_FORFEIT with why (the brain failed the config's number of
 * times in this game, or cannot play its size): the caller resigns the
 * game for it and logs why. Called on the loop, never inside
 * hosted_move. */
enum { HOSTED_FORFEIT = -1, HOSTED_FULL = -2, HOSTED_BAD = -3 };
typedef void (*hosted_move_fn)(uint64_t owner, int status, move_t m, const char *why, void *arg);
/* A failure that did not end the game (logged by the caller): why. */
typedef void (*hosted_log_fn)(uint64_t owner, const char *why, void *arg);
void hosted_set_log(hosted_t *h, hosted_log_fn fn, void *arg);

/* The game owner's engine to move as side, the game so far being moves
 * (black first) under rule and size; time_left_ms its clock (0: none) and
 * inc_ms its increment. 0 when the answer will come through fn; HOSTED_FULL
 * when games_max games hold a brain already (a new game only);
 * HOSTED_BAD for an unknown engine, moves that are not a legal game, or
 * a game whose brain thinks already. */
int hosted_move(hosted_t *h, int engine, uint64_t owner, rule_t rule, int size, stone_t side,
    const move_t *moves, int n, int time_left_ms, int inc_ms, hosted_move_fn fn, void *arg);
/* The game is over (or the move no longer wanted): END, then the brain's
 * process group is killed and reaped (brain_free). No callback for it
 * after this. */
void hosted_end(hosted_t *h, uint64_t owner);
/* Games holding a brain now. */
int hosted_games(const hosted_t *h);

/* What an engine's brains did since hosted_new, whoever asked the moves
 * (this node's games or another node's): moves played; failures that
 * did not end their game (a crash, a hang past the turn, a bad answer:
 * the brain was started again from the position); games given up
 * (HOSTED_FORFEIT); and its brains alive now, one per game. */
struct hosted_stats {
	uint64_t moves, failures, forfeits;
	int brains;
};
void hosted_stats(const hosted_t *h, int engine, struct hosted_stats *s);

#endif
