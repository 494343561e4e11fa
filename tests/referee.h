/*
 * referee.h: a brute-force judge for tests: does a colour have a winning
 * line anywhere on the board under the position's rule? It scans every run
 * of the whole board, sharing nothing with the rules core it checks.
 */
#ifndef GOMOKU_TEST_REFEREE_H
#define GOMOKU_TEST_REFEREE_H

#include "rules/rules.h"

static inline int
referee_wins(const position_t *p, int c)
{
	static const int dx[4] = { 1, 0, 1, 1 }, dy[4] = { 0, 1, 1, -1 };

	for (int y = 0; y < p->size; y++)
		for (int x = 0; x < p->size; x++)
			for (int d = 0; d < 4; d++) {
				int px = x - dx[d], py = y - dy[d], len = 0;
				if (pos_on_board(p, px, py) && p->cell[rules_move(px, py)] == c)
					continue; /* not the start of a run */
				for (int cx = x, cy = y;
				     pos_on_board(p, cx, cy) && p->cell[rules_move(cx, cy)] == c;
				     cx += dx[d], cy += dy[d])
					len++;
				if (p->rule == RULE_FREESTYLE      ? len >= 5
					: p->rule == RULE_STANDARD ? len == 5
					: c == STONE_WHITE         ? len >= 5
								   : len == 5)
					return 1;
			}
	return 0;
}

#endif
