/*
 * movegen.c: move generation. Forced replies are found by trying every cell
 * that could change the threatening cell's line patterns (its four lines,
 * five cells each way) and keeping those that remove every threat.
 */
#include "engine/movegen.h"

#include <string.h>

int
find_real(board_t *b, int c, int mincls, int16_t *out, int max)
{
	int n = 0, left = board_count(b, c, mincls);

	/* the counts say how many there are: stop at the last */
	for (int k = 0; k < b->ncells && left && n < max; k++) {
		int j = b->cells[k];
		if (b->stone[j] == 0 && b->cls[j][c - 1] >= mincls) {
			left--;
			if (!board_forbidden(b, j, c))
				out[n++] = (int16_t)j;
		}
	}
	return n;
}

int
has_real(board_t *b, int c, int mincls)
{
	int16_t one;

	if (!board_count(b, c, mincls))
		return 0;
	if (c != STONE_BLACK || b->rule != RULE_RENJU)
		return 1;
	return find_real(b, c, mincls, &one, 1);
}

enum { NEAR_MAX = 32 };

/* Whether every cell of q[0..n) but j lies on one of j's four lines within
 * five of it (where a stone on j can change its patterns); 1 when n is
 * NEAR_MAX, the list perhaps cut short. */
static int
all_near(int j, const int16_t *q, int n)
{
	if (n >= NEAR_MAX)
		return 1;
	for (int k = 0; k < n; k++) {
		int dx = q[k] % BW - j % BW, dy = q[k] / BW - j / BW;
		int ax = dx < 0 ? -dx : dx, ay = dy < 0 ? -dy : dy;
		if ((dx || dy) && (ax > 5 || ay > 5 || (ax && ay && ax != ay)))
			return 0;
	}
	return 1;
}

int
gen_defences(board_t *b, int c, int16_t *out)
{
	int o = 3 - c, n = 0, t = -1, nth;
	uint8_t seen[BCELLS];
	int16_t threat[NEAR_MAX];

	if ((nth = find_real(b, o, T_F4, threat, NEAR_MAX)) == 0)
		return 0;
	t = threat[0];
	memset(seen, 0, sizeof seen);
	/* own fours first: they gain a tempo whatever the threat */
	n = find_real(b, c, T_B4, out, MAX_MOVES);
	for (int k = 0; k < n; k++)
		seen[out[k]] = 1;
	/* only lines where the threat has a four can carry it (T_F4 needs an
	 * open four or two fours), so only cells on those lines can stop it */
	for (int d = 0; d < 4; d++) {
		if (b->pat[t][d][o - 1] < LP_B4 || b->pat[t][d][o - 1] == LP_OL)
			continue;
		for (int k = -5; k <= 5; k++) {
			int j = t + k * board_dir[d];
			if (b->stone[j] != 0 || seen[j])
				continue;
			seen[j] = 1;
			if (board_forbidden(b, j, c))
				continue;
			int ok;
			if (o == STONE_BLACK && b->rule == RULE_RENJU) {
				/* black's threats may be forbidden points: ask the board */
				board_play(b, j, c);
				ok = !has_real(b, o, T_F4);
				board_undo(b);
			} else
				/* a threat off j's lines outlives it, so is
				 * looked for first; then the count */
				ok = all_near(j, threat, nth) &&
				    board_count_after(b, j, c, o, T_F4) == 0;
			if (ok)
				out[n++] = (int16_t)j;
		}
	}
	return n;
}

int
gen_moves(board_t *b, int c, int16_t *out)
{
	int n = 0;

	if (b->nmoves == 0) {
		int mid = b->size / 2;
		out[0] = (int16_t)((mid + BPAD) * BW + mid + BPAD);
		return 1;
	}
	for (int k = 0; k < b->ncells; k++) {
		int j = b->cells[k];
		if (b->stone[j] == 0 && b->nb[j] && !board_forbidden(b, j, c))
			out[n++] = (int16_t)j;
	}
	return n;
}
