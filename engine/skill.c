/*
 * skill.c: the levels' table and their noisy choice of a root move.
 *
 * Node caps make a level as strong on a slow machine as on a fast one. Near
 * the top a doubling of nodes is worth little, so each level has more nodes,
 * less noise and, from 7, more of the threat solvers than the one below, and
 * level 9 stays well below what level 10 searches in a second. Noise picks
 * among the nbest root moves, whose exact scores cost search: the quiet
 * levels take few.
 */
#include "engine/skill.h"

#include "engine/engine.h"

static const skill_t levels[11] = {
	[1] = { .depth = 1, .noise = 500, .nbest = 8 },
	[2] = { .depth = 1, .noise = 150, .nbest = 8 },
	[3] = { .depth = 2, .noise = 170, .nbest = 8 },
	[4] = { .depth = 2, .noise = 80, .nbest = 8 },
	[5] = { .depth = 4, .noise = 70, .nodes = 8000, .nbest = 8 },
	[6] = { .depth = 5, .noise = 35, .nodes = 12000, .nbest = 6 },
	[7] = { .depth = 7, .noise = 25, .nodes = 20000, .nbest = 5, .vcf = 1 },
	[8] = { .depth = 10, .nodes = 60000, .nbest = 1, .vcf = 1, .vct = 1 },
	[9] = { .depth = 16, .nodes = 150000, .nbest = 1, .vcf = 1, .vct = 1, .defend = 1 },
	[10] = { .nbest = 1, .vcf = 1, .vct = 1, .defend = 1, .full = 1 },
};

const skill_t *
skill_of(int level)
{
	return &levels[level >= 1 && level <= 10 ? level : 10];
}

static uint32_t
rng_next(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

int
skill_pick(const skill_t *s, uint32_t seed, int nmoves, const int *score, int n)
{
	uint32_t r = seed * 2654435761u + (uint32_t)nmoves * 40503u + 1;
	int cnt = 0;

	if (!s->noise || n < 2)
		return -1;
	/* the first draw is skipped: the levels were measured with it */
	rng_next(&r);
	for (int i = 0; i < n; i++)
		if (score[i] >= score[0] - s->noise && score[i] > -ENGINE_WIN_MIN)
			cnt++;
	return cnt > 1 ? (int)(rng_next(&r) % (uint32_t)cnt) : -1;
}
