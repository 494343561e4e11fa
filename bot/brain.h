/*
 * brain.h: one Gomocup brain process (piskvork's protocol) driven on a
 * libevent loop, for gomoku-bot (issue 49). The whole interface of the
 * module; bot/README.md says what it does and why.
 *
 * A brain_t runs one brain for one game at a time: it spawns the argv in a
 * process group of its own (rlimits applied in the child), speaks START,
 * INFO, BEGIN/TURN/BOARD, TAKEBACK, SWAP2BOARD and END over non-blocking
 * pipes, and keeps the game's position in the rules core (rules/rules.h),
 * so that every move it hands back is legal there. Nothing blocks but the
 * reap of a process just killed with SIGKILL in brain_free, and in
 * brain_game when an earlier game's brain still runs.
 *
 * A process's first move may take setup_ms more than the turn's time: a
 * brain sets itself up at its first search (its hash of max_memory).
 *
 * Failures (the brain exits or is killed by a signal, misses an absolute
 * deadline, floods its output, answers garbage or an illegal move) kill the
 * process group, restart the brain and replay the game with START, INFO and
 * BOARD; the failure is reported (BRAIN_FAILED) and the game goes on. The
 * conf's max_failures-th failure in one game is BRAIN_GIVEUP: the caller
 * resigns. Writing to a dead brain's pipe raises SIGPIPE: the program must
 * ignore it (gomoku-bot does, as gomokud does).
 */
#ifndef GOMOKU_BOT_BRAIN_H
#define GOMOKU_BOT_BRAIN_H

#include <stddef.h>
#include <sys/types.h>

#include "rules/rules.h"

struct event_base;
typedef struct brain brain_t;

typedef struct {
	const char *const *argv; /* the brain: argv[0] found on PATH; copied */
	long cpu_seconds;        /* RLIMIT_CPU in the child, 0 for none */
	long mem_bytes;          /* RLIMIT_AS in the child, 0 for none */
	long max_memory;         /* INFO max_memory (bytes), 0: mem_bytes */
	int max_failures;        /* N: the N-th failure in a game gives up (>= 1) */
	int start_ms;            /* an answer to START or TAKEBACK is due within this */
	int margin_ms;           /* added to a move's time to make its deadline */
	int setup_ms;            /* added to a process's first move's deadline too */
	int think_ms;            /* a move's time when the clock sets none */
	int end_ms;              /* after END, the brain's time to exit before SIGKILL */
	int settle_ms;           /* after a move, nothing is sent to the brain for this long */
	size_t line_max;         /* longest line the brain may write (bytes) */
	size_t answer_max;       /* bytes the brain may write for one answer */
	int log_max;             /* MESSAGE/DEBUG lines kept for each answer */
	int swap2;               /* the brain speaks SWAP2BOARD (declared, not probed) */
	int stderr_fd;           /* the brain's stderr, or -1 for /dev/null */
	int sandbox;             /* 1: the brain runs in bot/sandbox.h's sandbox (its own
	                            directory readable); a child that cannot enter it
	                            exits 126 and runs nothing */
} brain_conf_t;

/* Defaults: 3 failures, 5 s for START, 500 ms margin, 2 s to set up at the
 * first move, 10 s a move without a
 * clock, 1 s after END, 20 ms settled after a move, 4 KiB lines, 1 MiB an
 * answer, 32 lines kept. */
brain_conf_t brain_conf_default(void);
/* A memory budget of bytes (0: none): said as INFO max_memory, which a
 * brain may spend whole on its hash (Rapfi does), and held as an address
 * space of twice that plus 512 MiB, since threads' stacks and malloc's
 * arenas reserve address space they never touch. */
void brain_conf_memory(brain_conf_t *c, long bytes);

/* The game's clock as the server has it, in milliseconds; 0 for none. */
typedef struct {
	int timeout_turn;
	int timeout_match;
	int time_left;
} brain_clock_t;

typedef enum {
	BRAIN_MOVE,     /* the brain's move, already played on brain_pos() */
	BRAIN_SWAP2,    /* its SWAP2BOARD answer: swap, or moves (1, 2 or 3) */
	BRAIN_NO_SIZE,  /* START answered ERROR: it cannot play the size (text) */
	BRAIN_NO_SWAP2, /* SWAP2BOARD answered ERROR or UNKNOWN (text) */
	BRAIN_FAILED,   /* a failure (text): it is restarted, the game goes on */
	BRAIN_GIVEUP,   /* the max_failures-th failure (text): resign */
} brain_event_t;

typedef struct {
	brain_event_t kind;
	move_t moves[3]; /* BRAIN_MOVE: moves[0]; BRAIN_SWAP2: nmoves of them */
	int nmoves;
	int swap;         /* BRAIN_SWAP2: the brain takes the other colour */
	const char *text; /* why (NO_SIZE, NO_SWAP2, FAILED, GIVEUP), else "" */
	const char **log; /* the MESSAGE/DEBUG/... lines of this answer */
	int nlog;         /* at most log_max of them */
	int dropped;      /* lines of this answer not kept */
	int failures;     /* failures so far in this game */
	long elapsed_ms;  /* from the request to this answer */
} brain_result_t;

/* Called from the loop; may call any function here, brain_free too. */
typedef void (*brain_cb)(brain_t *b, const brain_result_t *r, void *arg);

/* A new driver (no process yet); NULL when out of memory or conf is bad. */
brain_t *brain_new(struct event_base *base, const brain_conf_t *conf, brain_cb cb, void *arg);
/* Kills the brain's process group at once, reaps it, frees everything. */
void brain_free(brain_t *b);

/* A game: spawns the brain (ending any earlier game's process first), START
 * size, the INFO lines, and when it is ours to move, BEGIN or BOARD with
 * the moves so far (black first). ours STONE_EMPTY: no colour yet (an
 * opening rule decides it: brain_swap2, then brain_setpos). game_type is INFO game_type (0 human
 * opponent, 1 brain, 2 tournament, 3 network tournament). Returns 0, or -1
 * when the moves are not a legal game under rule and size. */
int brain_game(brain_t *b, rule_t rule, int size, stone_t ours, const move_t *moves, int n,
    const brain_clock_t *clk, int game_type);
/* The opponent's move m, then (TURN) the brain's answer is awaited. Returns
 * 0 when a move is awaited, 1 when m ended the game (nothing is asked), -1
 * when m is illegal, it is not the opponent's turn or no game runs. */
int brain_turn(brain_t *b, move_t m, const brain_clock_t *clk);
/* Asks for a move on the position as it stands (after brain_takeback or
 * brain_setpos): -1 unless it is the brain's turn in a running game. */
int brain_think(brain_t *b, const brain_clock_t *clk);
/* Takes back the last n moves (TAKEBACK each; a brain that refuses gets
 * BOARD with its next request). -1 while the brain thinks or for n out of
 * range. */
int brain_takeback(brain_t *b, int n);
/* A new position and colour for the game (after a swap2 opening): the brain gets it
 * with BOARD on its next request. -1 for moves that are not legal. */
int brain_setpos(brain_t *b, stone_t ours, const move_t *moves, int n);
/* SWAP2BOARD with the position's stones (0, 3 or 5 of them): the answer
 * comes as BRAIN_SWAP2 or BRAIN_NO_SWAP2. -1 when the conf does not declare
 * swap2, the stones are not 0, 3 or 5, or the brain is busy. */
int brain_swap2(brain_t *b, const brain_clock_t *clk);
/* END: the game is over; the brain exits or is killed after end_ms. */
void brain_end(brain_t *b);

const position_t *brain_pos(const brain_t *b);
/* The brain's process id (its group's too), 0 when none runs; a killed
 * brain's until it is reaped. */
pid_t brain_pid(const brain_t *b);
int brain_failures(const brain_t *b);
/* Gomocup's INFO rule for ours: 0 freestyle, 1 standard, 4 renju. */
int brain_rule_info(rule_t r);

#endif
