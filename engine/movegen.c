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

/* Whether c's stone on j leaves o no cell of class T_F4 or more, q[0..n)
 * being all of o's such cells. A stone only weakens the other colour's
 * line patterns (outside renju's forbidden points, which the caller
 * handles), so no new one can appear: each of the n must fall below. */
static int
stops_all(const board_t *b, int j, int c, const int16_t *q, int n)
{
	for (int k = 0; k < n; k++)
		if (q[k] != j && board_class_after(b, j, c, q[k], 3 - c) >= T_F4)
			return 0;
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
			} else if (nth < NEAR_MAX)
				ok = stops_all(b, j, c, threat, nth);
			else /* the list may be cut short: count them all */
				ok = board_count_after(b, j, c, o, T_F4) == 0;
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
