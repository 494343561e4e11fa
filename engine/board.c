/*
 * board.c: incremental line patterns. Placing a stone changes the keys of
 * the ten cells each side of it in each direction (40 cells); only those
 * cells' patterns, classes and scores are recomputed.
 */
#include "engine/board.h"

#include <string.h>

const int board_dir[4] = { 1, BW, BW + 1, BW - 1 };

uint64_t
board_zobrist(int cell, int c)
{
	uint64_t z = (uint64_t)(cell * 3 + c) * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull;
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static void
remove_cell(board_t *b, int j)
{
	for (int c = 0; c < 2; c++) {
		b->cnt[c][b->cls[j][c]]--;
		b->sum[c] -= b->score[j][c];
	}
	b->nsuspect -= b->suspect[j];
}

/* Recomputes class and score of the empty cell j from its line patterns. */
static void
refresh(board_t *b, int j)
{
	const uint8_t(*p)[2] = (const uint8_t(*)[2])b->pat[j];

	for (int c = 0; c < 2; c++) {
		const combo_t *k = &b->ct[pattern_combo_index(p[0][c], p[1][c], p[2][c], p[3][c])];
		b->cls[j][c] = k->cls;
		b->score[j][c] = k->score;
		if (c == 0)
			b->suspect[j] = b->rule == RULE_RENJU && k->suspect;
	}
}

static void
add_cell(board_t *b, int j)
{
	for (int c = 0; c < 2; c++) {
		b->cnt[c][b->cls[j][c]]++;
		b->sum[c] += b->score[j][c];
	}
	b->nsuspect += b->suspect[j];
}

/* The learned table's part of a cell (only with shapes): its entries,
 * copied from the table by its patterns (so the sums and the ordering
 * read the cell, not the table), and its values in or out of the sums. */
static void
shape_refresh(board_t *b, int j)
{
	const uint8_t(*p)[2] = (const uint8_t(*)[2])b->pat[j];

	for (int c = 0; c < 2; c++)
		b->sh[j][c] = b->st[pattern_combo_index(p[0][c], p[1][c], p[2][c], p[3][c])];
}

static void
shape_sum(board_t *b, int j, int sign)
{
	for (int c = 0; c < 2; c++) {
		b->vsum[c][0] += sign * b->sh[j][c].val[0];
		b->vsum[c][1] += sign * b->sh[j][c].val[1];
	}
}

/* Forced inline where the learned table's part is a constant: play and
 * undo come in two copies, with it and without, so the line weights'
 * search pays nothing for it. */
#if defined(__GNUC__)
#define BOARD_INLINE static inline __attribute__((always_inline))
#else
#define BOARD_INLINE static inline
#endif

static void
set_pat(board_t *b, int j, int d)
{
	uint32_t k = b->key[j][d];
	uint16_t v = pattern_line(&b->lt, k);
	b->pat[j][d][0] = (uint8_t)v;
	b->pat[j][d][1] = (uint8_t)(v >> 8);
}

/* New line pattern for the empty cell j in direction d; skips unchanged
 * ones, and records what changed for the undo. sh: the learned table's
 * part too. */
BOARD_INLINE void
update(board_t *b, int j, int d, const int sh)
{
	uint32_t k = b->key[j][d];
	uint16_t v = pattern_line(&b->lt, k);
	uint8_t p0 = (uint8_t)v, p1 = (uint8_t)(v >> 8);

	if (p0 == b->pat[j][d][0] && p1 == b->pat[j][d][1])
		return;
	board_rec_t *r = &b->rec[b->nrec++];
	r->cell = (int16_t)j;
	r->dir = (uint8_t)d;
	r->pat[0] = b->pat[j][d][0];
	r->pat[1] = b->pat[j][d][1];
	r->cls[0] = b->cls[j][0];
	r->cls[1] = b->cls[j][1];
	r->score[0] = b->score[j][0];
	r->score[1] = b->score[j][1];
	r->suspect = b->suspect[j];
	remove_cell(b, j);
	if (sh)
		shape_sum(b, j, -1);
	b->pat[j][d][0] = p0;
	b->pat[j][d][1] = p1;
	refresh(b, j);
	add_cell(b, j);
	if (sh) {
		shape_refresh(b, j);
		shape_sum(b, j, 1);
	}
}

int
board_init(board_t *b, rule_t rule, int size, int shapes)
{
	if (pos_init(&b->pos, rule, size) < 0)
		return -1;
	pattern_init();
	b->size = size;
	b->rule = rule;
	b->nmoves = 0;
	b->nrec = 0;
	b->hash = 0;
	b->nsuspect = 0;
	memset(b->sum, 0, sizeof b->sum);
	memset(b->vsum, 0, sizeof b->vsum);
	b->shapes = shapes;
	memset(b->cnt, 0, sizeof b->cnt);
	memset(b->stone, WALL, sizeof b->stone);
	memset(b->nb, 0, sizeof b->nb);
	memset(b->key, 0, sizeof b->key);
	memset(b->fcache, 0, sizeof b->fcache);
	b->lt = pattern_lines(rule);
	b->ct = pattern_combo_table();
	b->st = pattern_shape_table(rule);
	b->ncells = 0;
	for (int y = 0; y < size; y++)
		for (int x = 0; x < size; x++) {
			int j = (y + BPAD) * BW + x + BPAD;
			b->stone[j] = 0;
			b->cells[b->ncells++] = (int16_t)j;
		}
	for (int n = 0; n < b->ncells; n++) {
		int j = b->cells[n];
		for (int d = 0; d < 4; d++) {
			uint32_t k = 0;
			for (int s = 0; s < 10; s++) {
				int off = s < 5 ? s - 5 : s - 4;
				k |= (uint32_t)b->stone[j + off * board_dir[d]] << (2 * s);
			}
			b->key[j][d] = k;
			set_pat(b, j, d);
		}
		refresh(b, j);
		add_cell(b, j);
		if (shapes) {
			shape_refresh(b, j);
			shape_sum(b, j, 1);
		}
	}
	return 0;
}

BOARD_INLINE void
play(board_t *b, int i, int c, const int sh)
{
	board_snap_t *s = &b->snap[b->pos.nmoves]; /* one per stone */

	memcpy(s->cnt, b->cnt, sizeof s->cnt);
	memcpy(s->sum, b->sum, sizeof s->sum);
	if (sh)
		memcpy(s->vsum, b->vsum, sizeof s->vsum);
	s->nsuspect = b->nsuspect;
	s->nrec = b->nrec;
	remove_cell(b, i);
	if (sh)
		shape_sum(b, i, -1);
	b->stone[i] = (uint8_t)c;
	b->pos.cell[board_move(i)] = (uint8_t)c;
	b->pos.moves[b->pos.nmoves++] = board_move(i);
	b->hash ^= board_zobrist(i, c);
	b->moves[b->nmoves++] = (int16_t)i;
	for (int d = 0; d < 4; d++) {
		int off = board_dir[d];
		for (int k = 1; k <= 5; k++) {
			int j = i + k * off;
			if (b->stone[j] != WALL) {
				b->key[j][d] |= (uint32_t)c << (2 * (5 - k));
				if (b->stone[j] == 0)
					update(b, j, d, sh);
			}
			j = i - k * off;
			if (b->stone[j] != WALL) {
				b->key[j][d] |= (uint32_t)c << (2 * (k + 4));
				if (b->stone[j] == 0)
					update(b, j, d, sh);
			}
		}
	}
	for (int d = 0; d < 4; d++)
		for (int k = 1; k <= 2; k++) {
			b->nb[i + k * board_dir[d]]++;
			b->nb[i - k * board_dir[d]]++;
		}
}

/* Takes the last move back: the keys of the cells on its lines lose the
 * stone, and every cell the move changed gets back what it had, from the
 * records play made. The moved cell's own patterns are as it left them:
 * only empty cells are updated while it holds a stone. */
BOARD_INLINE void
undo(board_t *b, const int sh)
{
	int i = b->moves[--b->nmoves];
	int c = b->stone[i];
	const board_snap_t *s = &b->snap[b->pos.nmoves - 1];

	b->stone[i] = 0;
	b->pos.cell[board_move(i)] = 0;
	b->pos.nmoves--;
	b->hash ^= board_zobrist(i, c);
	for (int d = 0; d < 4; d++) {
		int off = board_dir[d];
		for (int k = 1; k <= 5; k++) {
			b->key[i + k * off][d] &= ~((uint32_t)3 << (2 * (5 - k)));
			b->key[i - k * off][d] &= ~((uint32_t)3 << (2 * (k + 4)));
		}
	}
	while (b->nrec > s->nrec) {
		const board_rec_t *r = &b->rec[--b->nrec];
		int j = r->cell;
		b->pat[j][r->dir][0] = r->pat[0];
		b->pat[j][r->dir][1] = r->pat[1];
		b->cls[j][0] = r->cls[0];
		b->cls[j][1] = r->cls[1];
		b->score[j][0] = r->score[0];
		b->score[j][1] = r->score[1];
		b->suspect[j] = r->suspect;
		if (sh)
			shape_refresh(b, j);
	}
	memcpy(b->cnt, s->cnt, sizeof b->cnt);
	memcpy(b->sum, s->sum, sizeof b->sum);
	if (sh)
		memcpy(b->vsum, s->vsum, sizeof b->vsum);
	b->nsuspect = s->nsuspect;
	for (int d = 0; d < 4; d++)
		for (int k = 1; k <= 2; k++) {
			b->nb[i + k * board_dir[d]]--;
			b->nb[i - k * board_dir[d]]--;
		}
}

void
board_play(board_t *b, int i, int c)
{
	if (b->shapes)
		play(b, i, c, 1);
	else
		play(b, i, c, 0);
}

void
board_undo(board_t *b)
{
	if (b->shapes)
		undo(b, 1);
	else
		undo(b, 0);
}

void
board_pass(board_t *b)
{
	b->moves[b->nmoves++] = BOARD_PASS;
}

void
board_unpass(board_t *b)
{
	b->nmoves--;
}

/* o's line pattern at the empty cell j in direction d if c had a stone at
 * j - k * board_dir[d] (k in -5..5, not 0), the key's other cells as
 * they are. */
static uint8_t
line_with(const board_t *b, int j, int d, int k, int c, int o)
{
	int slot = k > 0 ? 5 - k : -k + 4;
	uint32_t key = b->key[j][d] | (uint32_t)c << (2 * slot);

	return (uint8_t)(pattern_line(&b->lt, key) >> (8 * (o - 1)));
}

/* o's class at the empty cell j with its pattern in direction d as p. */
static int
class_with(const board_t *b, int j, int d, int o, uint8_t p)
{
	uint8_t q[4] = { b->pat[j][0][o - 1], b->pat[j][1][o - 1], b->pat[j][2][o - 1],
		b->pat[j][3][o - 1] };

	q[d] = p;
	return b->ct[pattern_combo_index(q[0], q[1], q[2], q[3])].cls;
}

/* o's class at the empty cell q as it would be after c played the empty
 * cell i, without playing it: only q's line through i changes, and only
 * within five of i. */
int
board_class_after(const board_t *b, int i, int c, int q, int o)
{
	int dx = q % BW - i % BW, dy = q / BW - i / BW;
	int ax = dx < 0 ? -dx : dx, ay = dy < 0 ? -dy : dy;
	int k = ax > ay ? ax : ay, d;

	if (q == i || k > 5 || (ax && ay && ax != ay))
		return b->cls[q][o - 1];
	/* direction d with q = i + k * board_dir[d] * sign */
	if (!dy)
		d = 0;
	else if (!dx)
		d = 1;
	else
		d = dx == dy ? 2 : 3;
	if (q != i + k * board_dir[d])
		k = -k;
	return class_with(b, q, d, o, line_with(b, q, d, k, c, o));
}

/*
 * Counts o's empty cells of class >= mincls as they would be after c played
 * the empty cell i, without playing it: only the cells on i's four lines
 * within five of it change, each in one direction.
 */
int
board_count_after(const board_t *b, int i, int c, int o, int mincls)
{
	int n = board_count(b, o, mincls) - (b->cls[i][o - 1] >= mincls);

	for (int d = 0; d < 4; d++) {
		int off = board_dir[d];
		for (int k = -5; k <= 5; k++) {
			int j = i + k * off;
			if (k == 0 || b->stone[j] != 0)
				continue;
			uint8_t p = line_with(b, j, d, k, c, o);
			if (p == b->pat[j][d][o - 1])
				continue;
			n += (class_with(b, j, d, o, p) >= mincls) - (b->cls[j][o - 1] >= mincls);
		}
	}
	return n;
}

int
board_forbidden(board_t *b, int cell, int c)
{
	if (c != STONE_BLACK || !b->suspect[cell])
		return 0;
	uint64_t k = (b->hash ^ board_zobrist(cell, 0)) & ~(uint64_t)1;
	uint64_t *slot = &b->fcache[k >> 52].key;
	if ((*slot & ~(uint64_t)1) == k)
		return (int)(*slot & 1);
	int v = renju_forbidden(&b->pos, board_move(cell)) != LEGAL_OK;
	*slot = k | (uint64_t)v;
	return v;
}

int
board_find(const board_t *b, int c, int mincls, int16_t *out, int max)
{
	int n = 0, left = board_count(b, c, mincls);

	if (left < max)
		max = left; /* the counts say how many there are */
	for (int k = 0; k < b->ncells && n < max; k++) {
		int j = b->cells[k];
		if (b->stone[j] == 0 && b->cls[j][c - 1] >= mincls)
			out[n++] = (int16_t)j;
	}
	return n;
}

int
board_find_near(const board_t *b, int i, int c, int mincls, int16_t *out, int max)
{
	int n = 0;

	for (int d = 0; d < 4; d++)
		for (int k = -5; k <= 5 && n < max; k++) {
			int j = i + k * board_dir[d];
			if (k && b->stone[j] == 0 && b->cls[j][c - 1] >= mincls)
				out[n++] = (int16_t)j;
		}
	return n;
}

int
board_verify(const board_t *b)
{
	int32_t sum[2] = { 0, 0 }, vsum[2][2] = { { 0 } };
	int cnt[2][T_COUNT] = { { 0 } }, nsuspect = 0;

	for (int n = 0; n < b->ncells; n++) {
		int j = b->cells[n];
		int nb = 0;
		for (int d = 0; d < 4; d++)
			for (int k = -2; k <= 2; k++) {
				int s = b->stone[j + k * board_dir[d]];
				nb += k && (s == 1 || s == 2);
			}
		if (nb != b->nb[j])
			return -1;
		for (int d = 0; d < 4; d++) {
			uint32_t k = 0;
			uint8_t line[11];
			for (int s = 0; s < 10; s++) {
				int off = s < 5 ? s - 5 : s - 4;
				int v = b->stone[j + off * board_dir[d]];
				k |= (uint32_t)v << (2 * s);
				line[s < 5 ? s : s + 1] = (uint8_t)v;
			}
			line[5] = 0;
			if (k != b->key[j][d])
				return -1;
			if (b->stone[j] != 0)
				continue;
			for (int c = 1; c <= 2; c++) {
				int exact = b->rule == RULE_STANDARD ||
				    (b->rule == RULE_RENJU && c == 1);
				if (b->pat[j][d][c - 1] != pattern_classify(line, c, exact))
					return -1;
			}
		}
		if (b->stone[j] == 0)
			for (int c = 0; c < 2; c++) {
				const combo_t *k = pattern_combo(b->pat[j][0][c], b->pat[j][1][c],
				    b->pat[j][2][c], b->pat[j][3][c]);
				if (k->cls != b->cls[j][c] || k->score != b->score[j][c])
					return -1;
				if (c == 0) {
					int sus = b->rule == RULE_RENJU && k->suspect;
					if (sus != b->suspect[j])
						return -1;
					nsuspect += sus;
				}
				int ci = pattern_combo_index(b->pat[j][0][c], b->pat[j][1][c],
				    b->pat[j][2][c], b->pat[j][3][c]);
				if (b->shapes) {
					const shape_t *h = &b->st[ci];
					if (memcmp(h, &b->sh[j][c], sizeof *h))
						return -1;
					vsum[c][0] += b->st[ci].val[0];
					vsum[c][1] += b->st[ci].val[1];
				}
				sum[c] += k->score;
				cnt[c][k->cls]++;
			}
	}
	if (sum[0] != b->sum[0] || sum[1] != b->sum[1] || nsuspect != b->nsuspect ||
	    memcmp(vsum, b->vsum, sizeof vsum))
		return -1;
	for (int c = 0; c < 2; c++)
		for (int t = 0; t < T_COUNT; t++)
			if (cnt[c][t] != b->cnt[c][t])
				return -1;
	return 0;
}
