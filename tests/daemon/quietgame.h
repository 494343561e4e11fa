/*
 * quietgame.h: the moves of a finished game that makes no five, for the
 * tests and benchmarks that review games (issue 47): the points of the
 * spiral (spiral.h) coloured by ((x / 2) + y) % 2, black's in their order
 * on the one colour and white's on the other. No line of the board holds
 * more than two of one colour, so no five can come at any move (checked
 * all the same). Each of the board's 8 symmetries makes another game of
 * the same kind, so that no review reads another's positions from an
 * engine's tables.
 */
#ifndef GOMOKUD_TEST_QUIETGAME_H
#define GOMOKUD_TEST_QUIETGAME_H

#include <stdio.h>
#include <string.h>

#include "tests/daemon/spiral.h"

enum { QUIET_PLIES_MAX = 120 };

/* The first plies (at most QUIET_PLIES_MAX, even) moves of symmetry sym
 * (0 to 7) into mv ("h8"): 0, or -1 when they would make a five. */
static int
quiet_game(int plies, int sym, char mv[][16])
{
	int spiral[225][2], pts[2][QUIET_PLIES_MAX / 2][2], n[2] = { 0, 0 };
	if (plies < 0 || plies > QUIET_PLIES_MAX || plies % 2)
		return -1;
	make_spiral(spiral);
	for (int i = 0; i < 225 && (n[0] < plies / 2 || n[1] < plies / 2); i++) {
		int x = spiral[i][0], y = spiral[i][1], c = ((x / 2) + y) % 2;
		if (n[c] < plies / 2) {
			pts[c][n[c]][0] = x;
			pts[c][n[c]][1] = y;
			n[c]++;
		}
	}
	int colour[15][15];
	memset(colour, -1, sizeof colour);
	for (int c = 0; c < 2; c++)
		for (int i = 0; i < plies / 2; i++)
			colour[pts[c][i][0]][pts[c][i][1]] = c;
	static const int dir[4][2] = { { 1, 0 }, { 0, 1 }, { 1, 1 }, { 1, -1 } };
	for (int x = 0; x < 15; x++)
		for (int y = 0; y < 15; y++)
			for (int d = 0; colour[x][y] >= 0 && d < 4; d++) {
				int k = 1;
				while (k < 5 && x + k * dir[d][0] < 15 && y + k * dir[d][1] >= 0 &&
				    y + k * dir[d][1] < 15 &&
				    colour[x + k * dir[d][0]][y + k * dir[d][1]] == colour[x][y])
					k++;
				if (k == 5)
					return -1;
			}
	for (int i = 0; i < plies; i++) {
		int x = pts[i % 2][i / 2][0], y = pts[i % 2][i / 2][1], t;
		if (sym & 1)
			x = 14 - x;
		if (sym & 2)
			y = 14 - y;
		if (sym & 4) {
			t = x;
			x = y;
			y = t;
		}
		snprintf(mv[i], 16, "%c%d", 'a' + x, 15 - y);
	}
	return 0;
}

#endif
