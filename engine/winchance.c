/* winchance.c: the engine's score as a chance of winning (see winchance.h). */
#include "engine/winchance.h"

#include "engine/engine.h"

#include <math.h>

int
winchance_permille(int score)
{
	if (score >= ENGINE_WIN_MIN)
		return 1000;
	if (score <= -ENGINE_WIN_MIN)
		return 0;
	/* the non-negative half computed, the other its complement: the two
	 * sides' chances of one position always add up to 1000 */
	int s = score < 0 ? -score : score;
	int p = (int)lround(1000.0 / (1.0 + exp(-(double)s / WINCHANCE_K)));
	return score < 0 ? 1000 - p : p;
}
