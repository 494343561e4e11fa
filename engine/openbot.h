/*
 * openbot.h: the engine's player of the opening rules (issue 46). Given an
 * opening machine (rules/opening.h) that waits for one player, it decides
 * that player's act: a stone where the stage allows, a colour, a number of
 * fifth-move offers, the offers, the choice among them, taraguchi's branch.
 * It searches with engine_search, several times within its budget, in the
 * caller's thread (a bot worker's); the act it returns is always one the
 * machine takes.
 */
#ifndef GOMOKU_OPENBOT_H
#define GOMOKU_OPENBOT_H

#include "engine/engine.h"
#include "rules/opening.h"

typedef struct {
	int level;              /* 1 (weakest) .. 10, as engine_limits_t */
	uint32_t seed;          /* picks among equals: the same seed, the same act */
	int soft_ms;            /* the whole decision's time; 0 = none */
	int max_depth;          /* each search's depth cap; 0 = the level's */
	uint64_t max_nodes;     /* each search's node cap; 0 = the level's */
	int eval;               /* ENGINE_EVAL_* */
	const atomic_int *stop; /* optional: nonzero ends the searches (the act
	                           is still a legal one, decided without them) */
} openbot_limits_t;

/* The defaults: level 10, no time or node limit. */
openbot_limits_t openbot_default_limits(void);

/*
 * The act of `actor` in o, whose stage is not done and whose actor it is:
 * returns 0 with *out, which opening_apply(copy of o, actor, out) accepts;
 * -1 (nothing searched) when o is done or another player must act. why,
 * if not NULL, gets a short phrase for the log ("canonical D2", "maximin",
 * "evaluation", ...), a static string.
 */
int openbot_decide(engine_t *e, const opening_t *o, int actor, const openbot_limits_t *l,
    opening_act_t *out, const char **why);

/* The number of fifth moves offered costs the offerer about this much of
 * the engine's score per offer beyond the first: the declare and the swap
 * policies (openbot.c) use it both ways. Measured: after the 26 canonical
 * openings and white's best fourth, the engine's ten best fifth moves
 * (depth 6, multi-PV) fall by 10 to 25 a rank, symmetric twins counted
 * once. */
enum { OPENBOT_OFFER_STEP = 20 };

#endif
