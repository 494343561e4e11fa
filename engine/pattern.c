/*
 * pattern.c: line-pattern and threat-class tables, built once from a direct
 * classification of every possible line of eleven cells.
 */
#include "engine/pattern.h"

#include "engine/shapes.h"
#include "engine/weights.h"

#include <pthread.h>
#include <string.h>

/* [key]: black's line pattern in the low byte, white's in the high one, so
 * one load serves both colours. Standard and renju by the whole key;
 * freestyle, whose patterns do not depend on the outermost cells, by the
 * key without them: 128 KB, which stays in a core's L2 cache where the
 * 2 MB tables do not. */
static uint16_t pair_std[KEY_COUNT], pair_renju[KEY_COUNT];
static uint16_t pair_free[FREE_KEY_COUNT];
static combo_t combo_tab[COMBO_COUNT];
static uint16_t shape_of[COMBO_COUNT];
static shape_t shape_tab[3][COMBO_COUNT];
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* Length of the run of colour c through the centre (which must hold c). */
static int
run_len(const uint8_t *l, int c)
{
	int a = 5, b = 5;

	while (a > 0 && l[a - 1] == c)
		a--;
	while (b < 10 && l[b + 1] == c)
		b++;
	return b - a + 1;
}

static int
is_five(const uint8_t *l, int c, int exact)
{
	int n = run_len(l, c);
	return exact ? n == 5 : n >= 5;
}

/* Empty points that would make five through the centre. */
static int
five_points(uint8_t *l, int c, int exact)
{
	int n = 0;

	for (int e = 1; e <= 9; e++) {
		if (l[e] != 0)
			continue;
		l[e] = (uint8_t)c;
		n += is_five(l, c, exact);
		l[e] = 0;
	}
	return n;
}

/* Whether some window of five cells through the centre holds only c or empty. */
static int
alive(const uint8_t *l, int c)
{
	for (int s = 1; s <= 5; s++) {
		int ok = 1;
		for (int i = s; i < s + 5; i++)
			if (l[i] != 0 && l[i] != c)
				ok = 0;
		if (ok)
			return 1;
	}
	return 0;
}

int
pattern_classify(const uint8_t line[11], int c, int exact)
{
	uint8_t l[11];
	int f, b3 = 0, f2 = 0, b2 = 0;

	memcpy(l, line, sizeof l);
	l[5] = (uint8_t)c;
	if (is_five(l, c, exact))
		return LP_F5;
	if (exact && run_len(l, c) > 5)
		return LP_OL;
	f = five_points(l, c, exact);
	if (f >= 2)
		return LP_F4;
	if (f == 1)
		return LP_B4;
	for (int e = 1; e <= 9; e++) {
		if (l[e] != 0)
			continue;
		l[e] = (uint8_t)c;
		f = five_points(l, c, exact);
		l[e] = 0;
		if (f >= 2)
			return LP_F3;
		if (f == 1)
			b3 = 1;
	}
	if (b3)
		return LP_B3;
	for (int e1 = 1; e1 <= 9 && !f2; e1++) {
		if (l[e1] != 0)
			continue;
		l[e1] = (uint8_t)c;
		for (int e2 = e1 + 1; e2 <= 9; e2++) {
			if (l[e2] != 0)
				continue;
			l[e2] = (uint8_t)c;
			f = five_points(l, c, exact);
			l[e2] = 0;
			if (f >= 2) {
				f2 = 1;
				break;
			}
			if (f == 1)
				b2 = 1;
		}
		l[e1] = 0;
	}
	if (f2)
		return LP_F2;
	if (b2)
		return LP_B2;
	return alive(l, c) ? LP_B1 : LP_DEAD;
}

/* Off-board cells may only form a run from the far end of each half. */
static int
key_valid(const uint8_t *l)
{
	for (int i = 1; i < 5; i++)
		if (l[i - 1] != 3 && l[i] == 3)
			return 0;
	for (int i = 6; i < 10; i++)
		if (l[i] == 3 && l[i + 1] != 3)
			return 0;
	return 1;
}

static void
build_combo(void)
{
	/* a line weight and a class weight overlap (a cell with one
	 * open-three line has class T_F3), so a class weight may be negative */
	for (int i = 0; i < COMBO_COUNT; i++) {
		int n[LP_COUNT] = { 0 }, s = 0, v = i, cls;
		for (int k = 0; k < 4; k++) {
			n[v % LP_COUNT]++;
			s += weight_line[v % LP_COUNT];
			v /= LP_COUNT;
		}
		int low = n[LP_B3] + n[LP_F2];
		if (n[LP_F5])
			cls = T_FIVE;
		else if (n[LP_F4] || n[LP_B4] >= 2)
			cls = T_F4;
		else if (n[LP_B4] && n[LP_F3])
			cls = T_B4F3;
		else if (n[LP_F3] >= 2)
			cls = T_F3X2;
		else if (n[LP_B4] && low)
			cls = T_B4P;
		else if (n[LP_B4])
			cls = T_B4;
		else if (n[LP_F3] && low)
			cls = T_F3P;
		else if (n[LP_F3])
			cls = T_F3;
		else if (low >= 2)
			cls = T_LOW2;
		else if (low + n[LP_B2])
			cls = T_LOW;
		else
			cls = T_NONE;
		combo_tab[i].cls = (uint8_t)cls;
		combo_tab[i].suspect = !n[LP_F5] &&
		    (n[LP_OL] || n[LP_F4] || n[LP_B4] >= 2 || n[LP_F3] >= 2);
		s += weight_class[cls];
		/* capped so that the static value stays a positional judgement */
		combo_tab[i].score = (int16_t)(s > 8000 ? 8000 : s);
	}
}

/* Numbers the sorted multisets (a >= b >= c >= d) in order and gives every
 * combination its multiset's number and shapes.h's entries for it. */
static void
build_shapes(void)
{
	int idx[LP_COUNT][LP_COUNT][LP_COUNT][LP_COUNT], n = 0;

	for (int a = 0; a < LP_COUNT; a++)
		for (int b = 0; b <= a; b++)
			for (int c = 0; c <= b; c++)
				for (int d = 0; d <= c; d++)
					idx[a][b][c][d] = n++;
	for (int i = 0; i < COMBO_COUNT; i++) {
		int p[4], v = i;
		for (int k = 0; k < 4; k++, v /= LP_COUNT)
			p[k] = v % LP_COUNT;
		for (int k = 1; k < 4; k++)
			for (int j = k; j > 0 && p[j - 1] < p[j]; j--) {
				int t = p[j];
				p[j] = p[j - 1];
				p[j - 1] = t;
			}
		int s = idx[p[0]][p[1]][p[2]][p[3]];
		shape_of[i] = (uint16_t)s;
		for (int r = 0; r < 3; r++)
			for (int k = 0; k < 2; k++) {
				shape_tab[r][i].val[k] = (int16_t)shape_table[r][s][k];
				shape_tab[r][i].pol[k] = shape_table[r][s][2 + k];
			}
	}
}

static void
build(void)
{
	uint8_t l[11];

	for (uint32_t key = 0; key < KEY_COUNT; key++) {
		for (int s = 0; s < 10; s++)
			l[s < 5 ? s : s + 1] = (uint8_t)((key >> (2 * s)) & 3);
		l[5] = 0;
		if (!key_valid(l))
			continue;
		int fw = pattern_classify(l, 2, 0);
		int eb = pattern_classify(l, 1, 1), ew = pattern_classify(l, 2, 1);
		pair_std[key] = (uint16_t)(eb | ew << 8);
		pair_renju[key] = (uint16_t)(eb | fw << 8); /* white may overline */
		/* the outermost cells empty, or walls beyond a wall */
		if ((key & 3) == (l[1] == 3 ? 3u : 0u) && key >> 18 == (l[9] == 3 ? 3u : 0u))
			pair_free[(key >> FREE_KEY_SHIFT) & (FREE_KEY_COUNT - 1)] =
			    (uint16_t)(pattern_classify(l, 1, 0) | fw << 8);
	}
	build_combo();
	build_shapes();
}

void
pattern_init(void)
{
	pthread_once(&once, build);
}

pattern_lines_t
pattern_lines(int rule)
{
	pattern_init();
	if (rule == 0)
		return (pattern_lines_t){ pair_free, FREE_KEY_SHIFT, FREE_KEY_COUNT - 1 };
	return (pattern_lines_t){ rule == 1 ? pair_std : pair_renju, 0, KEY_COUNT - 1 };
}

const combo_t *
pattern_combo(int p0, int p1, int p2, int p3)
{
	return &combo_tab[pattern_combo_index(p0, p1, p2, p3)];
}

const combo_t *
pattern_combo_table(void)
{
	return combo_tab;
}

int
pattern_shape(int p0, int p1, int p2, int p3)
{
	pattern_init();
	return shape_of[pattern_combo_index(p0, p1, p2, p3)];
}

const shape_t *
pattern_shape_table(int rule)
{
	pattern_init();
	return shape_tab[rule];
}
