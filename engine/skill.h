/*
 * skill.h: the levels, 1 (weakest) to 10 (full strength): what each may
 * search, which root solvers it runs, and how it picks among its best root
 * moves.
 */
#ifndef GOMOKU_SKILL_H
#define GOMOKU_SKILL_H

#include <stdint.h>

typedef struct {
	int depth;      /* depth cap; 0 none */
	uint64_t nodes; /* node cap; 0 none */
	int noise;      /* picks among root moves this close to the best; 0 never */
	int nbest;      /* root moves scored exactly, at least */
	int vcf, vct;   /* runs the root VCF, the root VCT */
	int defend;     /* checks the opponent's VCF/VCT before and after the search */
	int full;       /* full strength: a single root move is played unsearched */
} skill_t;

/* The level's settings; a level outside 1..10 is 10. */
const skill_t *skill_of(int level);
/*
 * Which of the n best root moves (exact scores, best first) the level
 * plays, the same for the same seed and move number; -1 when it does not
 * pick (no noise, or no second move close enough).
 */
int skill_pick(const skill_t *s, uint32_t seed, int nmoves, const int *score, int n);

#endif
