/*
 * rules.c: board, moves, results and renju forbidden points.
 *
 * Renju follows the RIF rules. For a black stone at m:
 *   - exactly five in any line wins, whatever else the move makes;
 *   - otherwise six or more in a line is an overline (forbidden);
 *   - two or more fours are a double-four (forbidden), counting two fours on
 *     one line separately (a straight four counts once);
 *   - two or more threes are a double-three (forbidden), where a three is a
 *     line that one more black stone turns into a straight four, provided that
 *     stone is not itself forbidden (checked recursively).
 * Only shapes that contain m count.
 */
#include "rules/rules.h"

#include <stdio.h>
#include <string.h>

enum { OFF = 3 }; /* what a cell read off the board looks like */

static const int DX[4] = { 1, 0, 1, 1 };
static const int DY[4] = { 0, 1, 1, -1 };

/* The grid_* helpers read a position's cells; the forbidden-point search
 * places and lifts trial stones on its own copy of the position. */
typedef position_t grid_t;

static int
grid_at(const grid_t *g, int x, int y)
{
	if (x < 0 || y < 0 || x >= g->size || y >= g->size)
		return OFF;
	return g->cell[rules_move(x, y)];
}

/* Stones of colour c in a row from (x,y) stepping (dx,dy), not counting (x,y). */
static int
grid_run(const grid_t *g, int x, int y, int dx, int dy, int c)
{
	int n = 0;

	for (x += dx, y += dy; grid_at(g, x, y) == c; x += dx, y += dy)
		n++;
	return n;
}

/* Length of the line of c through (x,y) in direction d, which must hold c. */
static int
grid_line(const grid_t *g, int x, int y, int d, int c)
{
	return 1 + grid_run(g, x, y, DX[d], DY[d], c) + grid_run(g, x, y, -DX[d], -DY[d], c);
}

/*
 * Fours through the black stone at (x,y) in direction d: the points on the
 * line that complete exactly five containing (x,y). Two such points five
 * apart are the two ends of one straight four and count once.
 */
static int
grid_fours(grid_t *g, int x, int y, int d)
{
	int found[9], n = 0;

	for (int k = -4; k <= 4; k++) {
		int ex = x + k * DX[d], ey = y + k * DY[d];
		if (k == 0 || grid_at(g, ex, ey) != STONE_EMPTY)
			continue;
		g->cell[rules_move(ex, ey)] = STONE_BLACK;
		int fwd = grid_run(g, ex, ey, DX[d], DY[d], STONE_BLACK);
		int back = grid_run(g, ex, ey, -DX[d], -DY[d], STONE_BLACK);
		g->cell[rules_move(ex, ey)] = STONE_EMPTY;
		/* (x,y) lies k steps from e: inside the run when -back <= -k <= fwd */
		if (fwd + back + 1 == 5 && -k >= -back && -k <= fwd)
			found[n++] = k;
	}
	if (n == 2 && found[1] - found[0] == 5)
		return 1;
	return n;
}

static legality_t grid_forbidden(grid_t *g, int x, int y);

/* Whether black on the empty point (x,y) would make exactly five. */
static int
grid_makes_five(grid_t *g, int x, int y)
{
	int five = 0;

	g->cell[rules_move(x, y)] = STONE_BLACK;
	for (int d = 0; d < 4 && !five; d++)
		five = grid_line(g, x, y, d, STONE_BLACK) == 5;
	g->cell[rules_move(x, y)] = STONE_EMPTY;
	return five;
}

/*
 * Whether (x,y), black, is part of a straight four in direction d: exactly
 * four black in a row with both ends empty, and each end making exactly five.
 */
static int
grid_straight_four(const grid_t *g, int x, int y, int d)
{
	int fwd = grid_run(g, x, y, DX[d], DY[d], STONE_BLACK);
	int back = grid_run(g, x, y, -DX[d], -DY[d], STONE_BLACK);

	if (fwd + back + 1 != 4)
		return 0;
	int hx = x + (fwd + 1) * DX[d], hy = y + (fwd + 1) * DY[d];
	int lx = x - (back + 1) * DX[d], ly = y - (back + 1) * DY[d];
	return grid_at(g, hx, hy) == STONE_EMPTY && grid_at(g, lx, ly) == STONE_EMPTY &&
	    grid_at(g, hx + DX[d], hy + DY[d]) != STONE_BLACK &&
	    grid_at(g, lx - DX[d], ly - DY[d]) != STONE_BLACK;
}

/*
 * Whether the black stone at (x,y) makes a real three in direction d: some
 * empty point on the line turns it into a straight four through (x,y), and
 * that point is not forbidden to black. A point that would also complete a
 * five on another line does not count: that move ends the game as a five, so
 * the straight four never stands (this matches the reference checker behind
 * shared/renju/forbidden.tsv).
 */
static int
grid_three(grid_t *g, int x, int y, int d)
{
	for (int k = -3; k <= 3; k++) {
		int ex = x + k * DX[d], ey = y + k * DY[d];
		if (k == 0 || grid_at(g, ex, ey) != STONE_EMPTY)
			continue;
		move_t e = rules_move(ex, ey);
		g->cell[e] = STONE_BLACK;
		int straight = grid_straight_four(g, x, y, d);
		g->cell[e] = STONE_EMPTY;
		if (straight && !grid_makes_five(g, ex, ey) &&
		    grid_forbidden(g, ex, ey) == LEGAL_OK)
			return 1;
	}
	return 0;
}

/* Renju verdict for black on the empty point (x,y); g is restored on return. */
static legality_t
grid_forbidden(grid_t *g, int x, int y)
{
	move_t m = rules_move(x, y);
	legality_t verdict = LEGAL_OK;
	int over = 0, fours = 0, threes = 0, dfour[4];

	g->cell[m] = STONE_BLACK;
	for (int d = 0; d < 4; d++) {
		int len = grid_line(g, x, y, d, STONE_BLACK);
		if (len == 5)
			goto out; /* five takes precedence */
		if (len > 5)
			over = 1;
	}
	if (over) {
		verdict = LEGAL_OVERLINE;
		goto out;
	}
	for (int d = 0; d < 4; d++)
		fours += dfour[d] = grid_fours(g, x, y, d);
	if (fours >= 2) {
		verdict = LEGAL_DOUBLE_FOUR;
		goto out;
	}
	for (int d = 0; d < 4 && threes < 2; d++)
		if (dfour[d] == 0 && grid_three(g, x, y, d))
			threes++;
	if (threes >= 2)
		verdict = LEGAL_DOUBLE_THREE;
out:
	g->cell[m] = STONE_EMPTY;
	return verdict;
}

move_t
rules_transform(int k, int size, move_t m)
{
	int n = size - 1, x = rules_x(m), y = rules_y(m);
	int a = k & 1 ? n - x : x, b = k & 2 ? n - y : y;
	return k & 4 ? rules_move(b, a) : rules_move(a, b);
}

int
pos_init(position_t *p, rule_t rule, int size)
{
	if (size < RULES_MIN_SIZE || size > RULES_MAX_SIZE ||
	    (rule != RULE_FREESTYLE && rule != RULE_STANDARD && rule != RULE_RENJU))
		return -1;
	memset(p, 0, sizeof *p);
	p->size = (uint8_t)size;
	p->rule = (uint8_t)rule;
	p->outcome.kind = RESULT_ONGOING;
	return 0;
}

stone_t
pos_to_move(const position_t *p)
{
	return p->nmoves % 2 == 0 ? STONE_BLACK : STONE_WHITE;
}

int
pos_on_board(const position_t *p, int x, int y)
{
	return x >= 0 && y >= 0 && x < p->size && y < p->size;
}

legality_t
renju_forbidden(const position_t *p, move_t m)
{
	grid_t g;

	if (m < 0 || m >= RULES_CELLS || !pos_on_board(p, rules_x(m), rules_y(m)) ||
	    p->cell[m] != STONE_EMPTY)
		return LEGAL_OK;
	g = *p;
	return grid_forbidden(&g, rules_x(m), rules_y(m));
}

legality_t
pos_check(const position_t *p, move_t m)
{
	if (m < 0 || m >= RULES_CELLS || !pos_on_board(p, rules_x(m), rules_y(m)))
		return LEGAL_OFF_BOARD;
	if (p->outcome.kind != RESULT_ONGOING)
		return LEGAL_GAME_OVER;
	if (p->cell[m] != STONE_EMPTY)
		return LEGAL_OCCUPIED;
	if (p->rule == RULE_RENJU && pos_to_move(p) == STONE_BLACK)
		return renju_forbidden(p, m);
	return LEGAL_OK;
}

outcome_t
rules_outcome_at(const position_t *p, move_t m, stone_t colour)
{
	outcome_t o = { .kind = RESULT_ONGOING, .winner = STONE_EMPTY };
	int x = rules_x(m), y = rules_y(m);

	for (int d = 0; d < 4; d++) {
		int fwd = grid_run(p, x, y, DX[d], DY[d], colour);
		int back = grid_run(p, x, y, -DX[d], -DY[d], colour);
		int len = fwd + back + 1, wins;
		switch (p->rule) {
		case RULE_FREESTYLE:
			wins = len >= 5;
			break;
		case RULE_RENJU:
			wins = colour == STONE_WHITE ? len >= 5 : len == 5;
			break;
		default:
			wins = len == 5;
			break;
		}
		if (!wins)
			continue;
		o.kind = RESULT_WIN;
		o.winner = colour;
		o.ncells = len;
		for (int k = 0; k < len; k++)
			o.cells[k] = rules_move(x + (k - back) * DX[d], y + (k - back) * DY[d]);
		return o;
	}
	if (p->nmoves >= p->size * p->size)
		o.kind = RESULT_DRAW;
	return o;
}

void
pos_place(position_t *p, move_t m)
{
	stone_t c = pos_to_move(p);

	p->cell[m] = (uint8_t)c;
	p->moves[p->nmoves++] = m;
	p->outcome = rules_outcome_at(p, m, c);
}

legality_t
pos_play(position_t *p, move_t m)
{
	legality_t l = pos_check(p, m);

	if (l == LEGAL_OK)
		pos_place(p, m);
	return l;
}

move_t
pos_undo(position_t *p)
{
	if (p->nmoves == 0)
		return MOVE_NONE;
	move_t m = p->moves[--p->nmoves];
	p->moves[p->nmoves] = 0; /* an undone position equals the one before, byte for byte */
	p->cell[m] = STONE_EMPTY;
	if (p->nmoves == 0) {
		memset(&p->outcome, 0, sizeof p->outcome);
		p->outcome.kind = RESULT_ONGOING;
	} else {
		move_t last = p->moves[p->nmoves - 1];
		p->outcome = rules_outcome_at(p, last, (stone_t)p->cell[last]);
	}
	return m;
}

int
rules_forbidden_points(const position_t *p, move_t *out)
{
	grid_t g;
	int n = 0;

	if (p->rule != RULE_RENJU)
		return 0;
	g = *p;
	for (int y = 0; y < p->size; y++)
		for (int x = 0; x < p->size; x++)
			if (g.cell[rules_move(x, y)] == STONE_EMPTY &&
			    grid_forbidden(&g, x, y) != LEGAL_OK)
				out[n++] = rules_move(x, y);
	return n;
}

static const char *const rule_names[] = { "freestyle", "standard", "renju" };

const char *
rule_name(rule_t r)
{
	return (unsigned)r < 3 ? rule_names[r] : "unknown";
}

int
rule_parse(const char *s, rule_t *out)
{
	for (int i = 0; i < 3; i++)
		if (strcmp(s, rule_names[i]) == 0) {
			*out = (rule_t)i;
			return 0;
		}
	return -1;
}

const char *
legality_name(legality_t l)
{
	static const char *const names[] = { "ok", "off-board", "occupied", "double-three",
		"double-four", "overline", "game-over" };
	return (unsigned)l < sizeof names / sizeof names[0] ? names[l] : "unknown";
}

/* A decimal number of 1-2 digits without a leading zero; -1 if not. */
static int
parse_small(const char *s, const char **end)
{
	int v = 0, n = 0;

	if (*s == '0' && s[1] >= '0' && s[1] <= '9')
		return -1;
	while (*s >= '0' && *s <= '9' && n < 3) {
		v = v * 10 + (*s++ - '0');
		n++;
	}
	*end = s;
	return n == 0 || n > 2 ? -1 : v;
}

int
notation_parse(const char *s, int size, move_t *out)
{
	const char *end;
	int x, row;

	if (*s >= 'a' && *s <= 'z')
		x = *s - 'a';
	else if (*s >= 'A' && *s <= 'Z')
		x = *s - 'A';
	else
		return -1;
	row = parse_small(s + 1, &end);
	if (row < 1 || *end != '\0' || x >= size || row > size)
		return -1;
	*out = rules_move(x, size - row);
	return 0;
}

char *
notation_format(move_t m, int size, char buf[4])
{
	int x = rules_x(m), row = size - rules_y(m);

	if (m < 0 || m >= RULES_CELLS || x >= size || row < 1 || row > size) {
		strcpy(buf, "?");
		return buf;
	}
	buf[0] = (char)('a' + x);
	buf[1] = (char)(row >= 10 ? '0' + row / 10 : '0' + row);
	buf[2] = row >= 10 ? (char)('0' + row % 10) : '\0';
	buf[3] = '\0';
	return buf;
}

int
notation_parse_xy(const char *s, int size, move_t *out)
{
	const char *end;
	int x = parse_small(s, &end), y;

	if (x < 0 || *end != ',')
		return -1;
	y = parse_small(end + 1, &end);
	if (y < 0 || *end != '\0' || x >= size || y >= size)
		return -1;
	*out = rules_move(x, y);
	return 0;
}

char *
notation_format_xy(move_t m, char buf[8])
{
	if (m < 0 || m >= RULES_CELLS) {
		strcpy(buf, "?");
		return buf;
	}
	snprintf(buf, 8, "%d,%d", rules_x(m) % 100, rules_y(m) % 100);
	return buf;
}

int
record_format(const position_t *p, char *buf, size_t len)
{
	size_t n = 0;
	int w;
	char mv[4];

	w = snprintf(buf, len, "rule %s\nsize %d\nmoves", rule_name((rule_t)p->rule), p->size);
	if (w < 0)
		return -1;
	n = (size_t)w;
	for (int i = 0; i < p->nmoves; i++) {
		w = snprintf(n < len ? buf + n : NULL, n < len ? len - n : 0, " %s",
		    notation_format(p->moves[i], p->size, mv));
		if (w < 0)
			return -1;
		n += (size_t)w;
	}
	w = snprintf(n < len ? buf + n : NULL, n < len ? len - n : 0, "\n");
	if (w < 0)
		return -1;
	return (int)(n + (size_t)w);
}

static int
fail(char *err, size_t errlen, const char *what, const char *detail)
{
	if (err != NULL && errlen > 0)
		snprintf(err, errlen, "%s%s%s", what, detail ? ": " : "", detail ? detail : "");
	return -1;
}

/* Copies the next whitespace-delimited word of *s into w; 0 when none left. */
static int
next_word(const char **s, char *w, size_t wlen)
{
	size_t n = 0;
	const char *p = *s;

	while (*p == ' ' || *p == '\t' || *p == '\r')
		p++;
	if (*p == '\0' || *p == '\n') {
		*s = p;
		return 0;
	}
	while (*p != '\0' && *p != ' ' && *p != '\t' && *p != '\r' && *p != '\n') {
		if (n + 1 < wlen)
			w[n] = *p;
		n++;
		p++;
	}
	*s = p;
	if (n >= wlen)
		return -1;
	w[n] = '\0';
	return 1;
}

int
record_parse(const char *text, position_t *p, char *err, size_t errlen)
{
	rule_t rule = RULE_FREESTYLE;
	int size = 0, have_rule = 0, nlines = 0;
	const char *s = text, *moves[RULES_CELLS / 8];
	char key[16], val[16];

	while (*s != '\0') {
		int r = next_word(&s, key, sizeof key);
		if (r == 0) {
			if (*s == '\n')
				s++;
			continue;
		}
		if (r < 0)
			return fail(err, errlen, "unknown key", NULL);
		if ((strcmp(key, "rule") == 0 && have_rule) || (strcmp(key, "size") == 0 && size))
			return fail(err, errlen, "duplicate key", key);
		int is_moves = strcmp(key, "moves") == 0;
		if (is_moves) {
			/* a long game's moves may continue on further moves lines */
			if (nlines == (int)(sizeof moves / sizeof moves[0]))
				return fail(err, errlen, "too many moves lines", NULL);
			moves[nlines++] = s;
		} else if (strcmp(key, "rule") == 0) {
			if (next_word(&s, val, sizeof val) != 1 || rule_parse(val, &rule) != 0)
				return fail(err, errlen, "bad rule", NULL);
			have_rule = 1;
		} else if (strcmp(key, "size") == 0) {
			const char *end;
			if (next_word(&s, val, sizeof val) != 1 ||
			    (size = parse_small(val, &end)) < 0 || *end != '\0')
				return fail(err, errlen, "bad size", NULL);
		} else {
			/* another tool's key (players, times, ...): skip its line */
			while (*s != '\0' && *s != '\n')
				s++;
			continue;
		}
		/* the rest of a line is either more moves or must be blank */
		while (*s != '\0' && *s != '\n') {
			if (!is_moves && next_word(&s, val, sizeof val) != 0)
				return fail(err, errlen, "trailing text", val);
			if (is_moves)
				s++;
		}
	}
	if (!have_rule || size == 0)
		return fail(err, errlen, "missing rule or size", NULL);
	if (pos_init(p, rule, size) != 0)
		return fail(err, errlen, "bad size", NULL);
	for (int i = 0; i < nlines; i++)
		for (;;) {
			move_t m;
			int r = next_word(&moves[i], val, sizeof val);
			if (r == 0)
				break;
			if (r < 0 || notation_parse(val, size, &m) != 0)
				return fail(err, errlen, "bad move", r < 0 ? NULL : val);
			legality_t l = pos_play(p, m);
			if (l != LEGAL_OK)
				return fail(err, errlen, legality_name(l), val);
		}
	return 0;
}
