/* winchance.c: the engine's score as a chance of winning (see winchance.h). */
#include "engine/winchance.h"

#include "engine/engine.h"

#include <math.h>

int
winchance_k(rule_t rule)
{
	return rule == RULE_STANDARD ? WINCHANCE_K_STANDARD
	    : rule == RULE_RENJU     ? WINCHANCE_K_RENJU
				     : WINCHANCE_K;
}

int
winchance_rule(rule_t rule, int score)
{
	if (score >= ENGINE_WIN_MIN)
		return 1000;
	if (score <= -ENGINE_WIN_MIN)
		return 0;
	/* the non-negative half computed, the other its complement: the two
	 * sides' chances of one position always add up to 1000 */
	int s = score < 0 ? -score : score;
	int p = (int)lround(1000.0 / (1.0 + exp(-(double)s / winchance_k(rule))));
	return score < 0 ? 1000 - p : p;
}

int
winchance_permille(int score)
{
	return winchance_rule(RULE_FREESTYLE, score);
}

static int
standard(int score)
{
	return winchance_rule(RULE_STANDARD, score);
}

static int
renju(int score)
{
	return winchance_rule(RULE_RENJU, score);
}

winchance_fn
winchance_of(rule_t rule)
{
	return rule == RULE_STANDARD ? standard : rule == RULE_RENJU ? renju : winchance_permille;
}
