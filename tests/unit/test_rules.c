/*
 * test_rules.c: the rules core. Renju shapes drawn as boards (checked under
 * all three rules), the reference forbidden-point set from shared/, wins on
 * every edge and corner, draws, notation and records, and 10,000 random
 * games checked against a brute-force referee with undo.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rules/rules.h"
#include "tests/referee.h"
#include "tests/shared.h"

/*
 * A drawn position: X black, O white, . empty, * the point to play. Rows are
 * top to bottom; the width is the board size and missing rows are empty.
 */
struct shape {
	const char *name;
	stone_t side;     /* who plays at * */
	legality_t renju; /* the verdict under renju */
	int win[3];       /* whether * wins under freestyle, standard, renju */
	const char *rows[RULES_MAX_SIZE + 1];
};

#define B STONE_BLACK
#define W STONE_WHITE
#define OK LEGAL_OK
#define D3 LEGAL_DOUBLE_THREE
#define D4 LEGAL_DOUBLE_FOUR
#define OL LEGAL_OVERLINE

static const struct shape shapes[] = {
	{ "open three crossing open three", B, D3, { 0, 0, 0 },
	    { "...........", "...........", "...........", ".....X.....", ".....X.....",
		"...XX*.....", NULL } },
	{ "split threes on two lines", B, D3, { 0, 0, 0 },
	    { "...........", "...........", ".....X.....", "...........", ".....X.....",
		"..X.X*.....", NULL } },
	{ "threes on both diagonals", B, D3, { 0, 0, 0 },
	    { "...........", "...........", "...........", "...X...X...", "....X.X....",
		".....*.....", NULL } },
	{ "three threes at once", B, D3, { 0, 0, 0 },
	    { "...........", "...........", "...........", "...X.X.....", "....XX.....",
		"...XX*.....", NULL } },
	{ "four-three is legal", B, OK, { 0, 0, 0 },
	    { "...........", "...........", "...........", ".....X.....", ".....X.....",
		"..XXX*.....", NULL } },
	{ "four-three with a split three is legal", B, OK, { 0, 0, 0 },
	    { "...........", "...........", ".....X.....", "...........", ".....X.....",
		".OXXX*.....", NULL } },
	{ "four and two threes is a double-three", B, D3, { 0, 0, 0 },
	    { "...........", "...........", "...........", "...X.X.....", "....XX.....",
		".OXXX*.....", NULL } },
	{ "double-four on two lines", B, D4, { 0, 0, 0 },
	    { "...........", "...........", ".....X.....", ".....X.....", ".....X.....",
		"..XXX*.....", ".....O.....", NULL } },
	{ "straight four and a four", B, D4, { 0, 0, 0 },
	    { "...........", "...........", ".....X.....", ".....X.....", ".....X.....",
		"..XXX*.....", ".....O.....", NULL } },
	{ "two fours on one line X.X*X.X", B, D4, { 0, 0, 0 },
	    { "...........", "...........", "...........", "...........", "...........",
		".X.X*X.X...", NULL } },
	{ "two fours on one line XX.*X.XX", B, D4, { 0, 0, 0 },
	    { "...........", "...........", "...........", "...........", "...........",
		".XX.*X.XX..", NULL } },
	{ "two fours on one line XXX.*.XXX", B, D4, { 0, 0, 0 },
	    { "...........", "...........", "...........", "...........", "...........",
		"XXX.*.XXX..", NULL } },
	{ "four whose other end is an overline counts once", B, OK, { 0, 0, 0 },
	    { "...........", "...........", "...........", ".....X.....", ".....X.....",
		"X.XXX*.....", NULL } },
	{ "that four and another four", B, D4, { 0, 0, 0 },
	    { "...........", "...........", ".....X.....", ".....X.....", ".....X.....",
		"X.XXX*.....", ".....O.....", NULL } },
	{ "overline of six", B, OL, { 1, 0, 0 },
	    { "...........", "...........", "...........", "...........", "...........",
		"..XXX*XX...", NULL } },
	{ "overline of seven", B, OL, { 1, 0, 0 },
	    { "...........", "...........", "...........", "...........", "...........",
		".XXX*XXX...", NULL } },
	{ "five with a double-three wins", B, OK, { 1, 1, 1 },
	    { "...........", "...........", "...........", "...X.X.....", "....XX.....",
		"...XX*XX...", NULL } },
	{ "five with an overline wins", B, OK, { 1, 1, 1 },
	    { "...........", "...........", ".....X.....", ".....X.....", ".....X.....",
		"...XX*XX...", ".....X.....", ".....X.....", NULL } },
	{ "five with a double-four wins", B, OK, { 1, 1, 1 },
	    { "...........", "...........", ".....X.....", ".....X.....", ".....X.....",
		".XXXX*.....", ".....O.....", NULL } },
	{ "false three: white blocks both extensions", B, OK, { 0, 0, 0 },
	    { "...........", "...........", "...........", ".....X.....", ".....X.....",
		".O.XX*.O...", NULL } },
	{ "same three without the far block is real", B, D3, { 0, 0, 0 },
	    { "...........", "...........", "...........", ".....X.....", ".....X.....",
		".O.XX*.....", NULL } },
	{ "false three: both straight fours would be overlines", B, OK, { 0, 0, 0 },
	    { "...........", "...........", "...........", ".....X.....", ".....X.....",
		"X..XX*..X..", NULL } },
	{ "false three: its four point is an overline (recursive)", B, OK, { 0, 0, 0 },
	    { "...........", "...........", "..X........", "..X..X.....", "..X..X.....",
		"...XX*.O...", "..X........", "..X........", NULL } },
	{ "false three: its four point is a double-four (recursive)", B, OK, { 0, 0, 0 },
	    { "...........", "...........", "..X........", "..X..X.....", "..X..X.....",
		"...XX*.O...", NULL } },
	{ "false three: its four point makes five instead", B, OK, { 0, 0, 0 },
	    { "...........", "...........", "..X........", "..X..X.....", "..X..X.....",
		"...XX*.O...", "..X........", NULL } },
	{ "false three: its four point is a double-three (two levels)", B, OK, { 0, 0, 0 },
	    { "...........", "...........", "...........", "..X..X.....", "..X..X.....",
		"...XX*.O...", "...X.......", "....X......", NULL } },
	{ "three with one forbidden and one free extension is real", B, D3, { 0, 0, 0 },
	    { "...........", "...........", "..X........", "..X..X.....", "..X..X.....",
		"...XX*.....", "..X........", "..X........", NULL } },
	{ "the recursive setup without its blockers is a double-three", B, D3, { 0, 0, 0 },
	    { "...........", "...........", "...........", ".....X.....", ".....X.....",
		"...XX*.O...", NULL } },
	{ "edge: a three against the edge is not a three", B, OK, { 0, 0, 0 },
	    { "...........", "...........", "...........", "..X........", "..X........",
		"XX*........", NULL } },
	{ "edge: one point from the edge it is a three", B, D3, { 0, 0, 0 },
	    { "...........", "...........", "...........", "...X.......", "...X.......",
		".XX*.......", NULL } },
	{ "edge: a split three closed by the right edge", B, OK, { 0, 0, 0 },
	    { "...........", "...........", "...........", "..........X", "..........X",
		".......X.X*", NULL } },
	{ "corner: double-four along two edges", B, D4, { 0, 0, 0 },
	    { "*XXX.......", "X..........", "X..........", "X..........", NULL } },
	{ "corner: five along the edge", B, OK, { 1, 1, 1 },
	    { "*XXXX......", "X..........", "X..........", "X..........", NULL } },
	{ "corner: overline along the bottom edge", B, OL, { 1, 0, 0 },
	    { "...........", "...........", "...........", "...........", "...........",
		"...........", "...........", "...........", "...........", "...........",
		"XXXXX*.....", NULL } },
	{ "a lone stone is fine", B, OK, { 0, 0, 0 },
	    { "...........", "...........", "...........", "...........", "...........",
		".....*.....", NULL } },
	{ "white may make a double-three", W, OK, { 0, 0, 0 },
	    { "...........", "...........", "...........", ".....O.....", ".....O.....",
		"...OO*.....", NULL } },
	{ "white may make a double-four", W, OK, { 0, 0, 0 },
	    { "...........", "...........", ".....O.....", ".....O.....", ".....O.....",
		"..OOO*.....", ".....X.....", NULL } },
	{ "white overline wins under renju", W, OK, { 1, 0, 1 },
	    { "...........", "...........", "...........", "...........", "...........",
		"..OOO*OO...", NULL } },
};

/* Builds the drawn position with the side to move as given; returns the * point. */
static move_t
load_shape(const struct shape *s, rule_t rule, position_t *p)
{
	int size = (int)strlen(s->rows[0]);
	move_t star = MOVE_NONE;

	assert_int_equal(pos_init(p, rule, size), 0);
	for (int y = 0; s->rows[y] != NULL; y++) {
		assert_int_equal((int)strlen(s->rows[y]), size);
		for (int x = 0; x < size; x++) {
			move_t m = rules_move(x, y);
			switch (s->rows[y][x]) {
			case 'X':
				p->cell[m] = STONE_BLACK;
				break;
			case 'O':
				p->cell[m] = STONE_WHITE;
				break;
			case '*':
				star = m;
				break;
			case '.':
				break;
			default:
				fail_msg("bad board character in %s", s->name);
			}
		}
	}
	/* Stones are set directly; the move count only fixes who is to move. */
	p->nmoves = s->side == STONE_BLACK ? 0 : 1;
	assert_int_not_equal(star, MOVE_NONE);
	return star;
}

static void
test_shapes(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
		const struct shape *s = &shapes[i];
		print_message("  %-58s renju %s\n", s->name, legality_name(s->renju));
		for (int r = RULE_FREESTYLE; r <= RULE_RENJU; r++) {
			position_t p;
			move_t star = load_shape(s, (rule_t)r, &p);
			legality_t want = r == RULE_RENJU ? s->renju : LEGAL_OK;
			legality_t got = pos_check(&p, star);
			if (got != want)
				fail_msg("%s under %s: got %s, want %s", s->name,
				    rule_name((rule_t)r), legality_name(got), legality_name(want));
			if (r == RULE_RENJU && s->side == STONE_BLACK)
				assert_int_equal(renju_forbidden(&p, star), s->renju);
			if (got != LEGAL_OK)
				continue;
			assert_int_equal(pos_play(&p, star), LEGAL_OK);
			int won = p.outcome.kind == RESULT_WIN;
			if (won != s->win[r])
				fail_msg("%s under %s: win %d, want %d", s->name,
				    rule_name((rule_t)r), won, s->win[r]);
			if (won) {
				assert_int_equal(p.outcome.winner, s->side);
				int has_star = 0;
				for (int k = 0; k < p.outcome.ncells; k++)
					has_star |= p.outcome.cells[k] == star;
				assert_true(has_star);
			}
		}
	}
}

/* Forbidden points of renju positions as judged by an independent checker. */
static void
test_reference_forbidden(void **state)
{
	(void)state;
	char path[512], line[8192];
	int lines = 0, points = 0;

	FILE *f = shared_open("renju/forbidden.tsv", path, sizeof path);
	if (f == NULL) {
		if (shared_required())
			fail_msg("%s is required (GOMOKU_REQUIRE_SHARED)", path);
		skip();
	}
	while (fgets(line, sizeof line, f) != NULL) {
		position_t p;
		char *tab = strchr(line, '\t'), *save, *t;
		int want[RULES_CELLS] = { 0 }, got[RULES_CELLS] = { 0 };
		move_t list[RULES_CELLS], m;

		lines++;
		assert_non_null(tab);
		*tab = '\0';
		tab[1 + strcspn(tab + 1, "\r\n")] = '\0';
		assert_int_equal(pos_init(&p, RULE_RENJU, 15), 0);
		for (t = strtok_r(line, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
			assert_int_equal(notation_parse_xy(t, 15, &m), 0);
			pos_place(&p, m);
		}
		for (t = strtok_r(tab + 1, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
			assert_int_equal(notation_parse_xy(t, 15, &m), 0);
			want[m] = 1;
			points++;
		}
		int n = rules_forbidden_points(&p, list);
		for (int i = 0; i < n; i++)
			got[list[i]] = 1;
		for (int i = 0; i < RULES_CELLS; i++)
			if (got[i] != want[i]) {
				char xy[8];
				fail_msg("line %d: %s is %s (%s)", lines,
				    notation_format_xy((move_t)i, xy),
				    got[i] ? "forbidden, reference says not"
					   : "allowed, reference says forbidden",
				    legality_name(renju_forbidden(&p, (move_t)i)));
			}
	}
	fclose(f);
	print_message("  %d positions, %d forbidden points, all agree\n", lines, points);
	assert_true(lines > 0);
}

/* Plays black on the first n cells of `line` and white on harmless points
 * off all `avoid` cells of it, between black's moves. */
static void
play_line_avoiding(position_t *p, const move_t *line, int n, int avoid, int want_win)
{
	for (int i = 0; i < n; i++) {
		assert_int_equal(p->outcome.kind, RESULT_ONGOING);
		assert_int_equal(pos_play(p, line[i]), LEGAL_OK);
		if (i == n - 1)
			break;
		/* white: the first empty point off the line that does not win */
		for (move_t m = 0;; m++) {
			int on_line = 0;
			assert_true(m < RULES_CELLS);
			for (int k = 0; k < avoid; k++)
				on_line |= line[k] == m;
			if (on_line || pos_play(p, m) != LEGAL_OK)
				continue;
			if (p->outcome.kind == RESULT_ONGOING)
				break;
			pos_undo(p);
		}
	}
	if (!want_win) {
		assert_int_equal(p->outcome.kind, RESULT_ONGOING);
		return;
	}
	assert_int_equal(p->outcome.kind, RESULT_WIN);
	assert_int_equal(p->outcome.winner, STONE_BLACK);
	assert_int_equal(p->outcome.ncells, n);
	for (int i = 0; i < n; i++) {
		int found = 0;
		for (int k = 0; k < n; k++)
			found |= p->outcome.cells[k] == line[i];
		assert_true(found);
	}
}

static void
play_line(position_t *p, const move_t *line, int n, int want_win)
{
	play_line_avoiding(p, line, n, n, want_win);
}

static void
test_edges_and_corners(void **state)
{
	(void)state;
	static const int sizes[] = { 5, 6, 15, 20 };
	int checked = 0;

	for (size_t si = 0; si < 4; si++) {
		int size = sizes[si];
		/* each edge, at its start, middle and end, in both stepping orders */
		for (int edge = 0; edge < 4; edge++) {
			for (int at = 0; at <= size - 5; at += (size - 5 > 0 ? size - 5 : 1)) {
				move_t line[5];
				for (int k = 0; k < 5; k++) {
					int a = at + k, b = (edge & 1) ? size - 1 : 0;
					line[k] = edge < 2 ? rules_move(a, b) : rules_move(b, a);
				}
				for (int r = RULE_FREESTYLE; r <= RULE_RENJU; r++) {
					position_t p;
					pos_init(&p, (rule_t)r, size);
					play_line(&p, line, 5, 1);
					checked++;
				}
				if (size - 5 == 0)
					break;
			}
		}
		/* both diagonals from each corner */
		for (int corner = 0; corner < 4; corner++) {
			move_t line[5];
			for (int k = 0; k < 5; k++) {
				int x = (corner & 1) ? size - 1 - k : k;
				int y = (corner & 2) ? size - 1 - k : k;
				line[k] = rules_move(x, y);
			}
			for (int r = RULE_FREESTYLE; r <= RULE_RENJU; r++) {
				position_t p;
				pos_init(&p, (rule_t)r, size);
				play_line(&p, line, 5, 1);
				checked++;
			}
		}
	}
	print_message("  %d fives along edges and corner diagonals on 5x5 to 20x20\n", checked);
}

static void
test_overline_by_rule(void **state)
{
	(void)state;
	/* six in a row on the top edge, the gap filled last */
	move_t six[6] = { rules_move(0, 0), rules_move(1, 0), rules_move(3, 0), rules_move(4, 0),
		rules_move(5, 0), rules_move(2, 0) };
	position_t p;

	print_message("  freestyle: an overline wins\n");
	pos_init(&p, RULE_FREESTYLE, 15);
	play_line(&p, six, 6, 1);
	print_message("  standard: an overline does not win, the game goes on\n");
	pos_init(&p, RULE_STANDARD, 15);
	play_line(&p, six, 6, 0);
	assert_int_equal(pos_check(&p, rules_move(7, 7)), LEGAL_OK);
	print_message("  renju: black may not make one\n");
	pos_init(&p, RULE_RENJU, 15);
	play_line_avoiding(&p, six, 5, 6, 0);
	assert_int_equal(pos_play(&p, rules_move(14, 14)), LEGAL_OK);
	assert_int_equal(pos_check(&p, six[5]), LEGAL_OVERLINE);
}

static void
test_draw(void **state)
{
	(void)state;
	/* a 5x5 filling with no five for either side: 13 black, 12 white */
	static const char *fill[5] = { "XXOOX", "OOXXO", "XXOOX", "OOXXO", "XXOXO" };
	move_t black[13], white[12];
	int nb = 0, nw = 0;
	position_t p;

	for (int y = 0; y < 5; y++)
		for (int x = 0; x < 5; x++) {
			if (fill[y][x] == 'X')
				black[nb++] = rules_move(x, y);
			else
				white[nw++] = rules_move(x, y);
		}
	assert_int_equal(nb, 13);
	assert_int_equal(nw, 12);
	for (int r = RULE_FREESTYLE; r <= RULE_RENJU; r++) {
		pos_init(&p, (rule_t)r, 5);
		for (int i = 0; i < 25; i++) {
			assert_int_equal(p.outcome.kind, RESULT_ONGOING);
			assert_int_equal(
			    pos_play(&p, i % 2 ? white[i / 2] : black[i / 2]), LEGAL_OK);
		}
		assert_int_equal(p.outcome.kind, RESULT_DRAW);
		assert_int_equal(pos_check(&p, black[0]), LEGAL_GAME_OVER);
		print_message(
		    "  %s: a full 5x5 board without five is a draw\n", rule_name((rule_t)r));
	}
}

static void
test_legality_reasons(void **state)
{
	(void)state;
	position_t p;

	pos_init(&p, RULE_FREESTYLE, 9);
	assert_int_equal(pos_check(&p, rules_move(9, 0)), LEGAL_OFF_BOARD);
	assert_int_equal(pos_check(&p, rules_move(0, 9)), LEGAL_OFF_BOARD);
	assert_int_equal(pos_check(&p, -1), LEGAL_OFF_BOARD);
	assert_int_equal(pos_check(&p, RULES_CELLS), LEGAL_OFF_BOARD);
	assert_int_equal(pos_play(&p, rules_move(4, 4)), LEGAL_OK);
	assert_int_equal(pos_play(&p, rules_move(4, 4)), LEGAL_OCCUPIED);
	assert_int_equal(p.nmoves, 1);
	assert_int_equal(pos_to_move(&p), STONE_WHITE);
	assert_int_equal(pos_undo(&p), rules_move(4, 4));
	assert_int_equal(pos_undo(&p), MOVE_NONE);
	assert_int_equal(pos_init(&p, RULE_FREESTYLE, 4), -1);
	assert_int_equal(pos_init(&p, RULE_FREESTYLE, 21), -1);
	assert_int_equal(pos_init(&p, (rule_t)3, 15), -1);
	assert_string_equal(legality_name(LEGAL_DOUBLE_THREE), "double-three");
	assert_string_equal(legality_name(LEGAL_DOUBLE_FOUR), "double-four");
	assert_string_equal(legality_name(LEGAL_OVERLINE), "overline");
	print_message("  off-board, occupied, sizes 5..20 only, reason names\n");
}

static void
test_notation(void **state)
{
	(void)state;
	move_t m;
	char buf[8];

	assert_int_equal(notation_parse("h8", 15, &m), 0);
	assert_int_equal(m, rules_move(7, 7));
	assert_int_equal(notation_parse("a1", 15, &m), 0);
	assert_int_equal(m, rules_move(0, 14));
	assert_int_equal(notation_parse("o15", 15, &m), 0);
	assert_int_equal(m, rules_move(14, 0));
	assert_int_equal(notation_parse("T20", 20, &m), 0);
	assert_int_equal(m, rules_move(19, 0));
	static const char *bad[] = { "", "h", "8", "h0", "h08", "p1", "a16", "h8x", "h-1", "hh8",
		" h8", "h 8", "a100", "@1", "a1\n" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		if (notation_parse(bad[i], 15, &m) == 0)
			fail_msg("'%s' parsed on 15x15", bad[i]);
	assert_int_equal(notation_parse_xy("7,7", 15, &m), 0);
	assert_int_equal(m, rules_move(7, 7));
	assert_int_equal(notation_parse_xy("0,14", 15, &m), 0);
	assert_int_equal(m, rules_move(0, 14));
	static const char *badxy[] = { "", "7", "7,", ",7", "15,0", "0,15", "7;7", "07,7", "7,7,",
		"-1,0" };
	for (size_t i = 0; i < sizeof badxy / sizeof badxy[0]; i++)
		if (notation_parse_xy(badxy[i], 15, &m) == 0)
			fail_msg("'%s' parsed as x,y", badxy[i]);
	/* every point of every size prints and parses back to itself */
	for (int size = RULES_MIN_SIZE; size <= RULES_MAX_SIZE; size++)
		for (int y = 0; y < size; y++)
			for (int x = 0; x < size; x++) {
				move_t back;
				assert_int_equal(
				    notation_parse(
					notation_format(rules_move(x, y), size, buf), size, &back),
				    0);
				assert_int_equal(back, rules_move(x, y));
				assert_int_equal(
				    notation_parse_xy(
					notation_format_xy(rules_move(x, y), buf), size, &back),
				    0);
				assert_int_equal(back, rules_move(x, y));
			}
	assert_string_equal(notation_format(rules_move(7, 7), 15, buf), "h8");
	assert_string_equal(notation_format(rules_move(0, 0), 20, buf), "a20");
	rule_t r;
	assert_int_equal(rule_parse("renju", &r), 0);
	assert_int_equal(r, RULE_RENJU);
	assert_int_equal(rule_parse("Renju", &r), -1);
	assert_string_equal(rule_name(RULE_STANDARD), "standard");
	print_message("  h8 and x,y on every point of every size, bad forms refused\n");
}

static void
test_records(void **state)
{
	(void)state;
	position_t p, q;
	char text[4096], err[64];

	pos_init(&p, RULE_RENJU, 15);
	static const char *moves[] = { "h8", "i9", "j10", "g7", "h9" };
	for (size_t i = 0; i < 5; i++) {
		move_t m;
		assert_int_equal(notation_parse(moves[i], 15, &m), 0);
		assert_int_equal(pos_play(&p, m), LEGAL_OK);
	}
	int n = record_format(&p, text, sizeof text);
	assert_string_equal(text, "rule renju\nsize 15\nmoves h8 i9 j10 g7 h9\n");
	assert_int_equal(n, (int)strlen(text));
	assert_int_equal(record_parse(text, &q, err, sizeof err), 0);
	assert_int_equal(q.nmoves, 5);
	assert_memory_equal(q.cell, p.cell, sizeof p.cell);
	assert_memory_equal(q.moves, p.moves, sizeof p.moves[0] * 5);
	/* a short buffer truncates but reports the full length */
	char small[8];
	assert_int_equal(record_format(&p, small, sizeof small), n);
	assert_int_equal(
	    record_parse("size 9\r\nrule standard\r\nmoves\r\n", &q, err, sizeof err), 0);
	assert_int_equal(q.size, 9);
	assert_int_equal(q.rule, RULE_STANDARD);
	assert_int_equal(q.nmoves, 0);
	/* keys of other tools are skipped, wherever they stand */
	assert_int_equal(record_parse("black alice 1612\nrule freestyle\nresult white resign\n"
				      "size 15\nmoves h8 i9\ntimes 1200 800\n",
			     &q, err, sizeof err),
	    0);
	assert_int_equal(q.nmoves, 2);
	assert_int_equal(q.rule, RULE_FREESTYLE);
	/* moves continued on a second line */
	assert_int_equal(
	    record_parse("rule renju\nsize 15\nmoves h8 i9\nmoves j10\n", &q, err, sizeof err), 0);
	assert_int_equal(q.nmoves, 3);
	assert_int_equal(q.moves[2], rules_move(9, 5));

	static const struct {
		const char *text, *why;
	} bad[] = {
		{ "rule renju\nsize 15\nmoves h8 h8\n", "occupied" },
		{ "rule renju\nsize 15\nmoves i8 a1 j8 a2 h9 a3 h10 a4 h8\n", "double-three" },
		{ "rule renju\nsize 15\nmoves z9\n", "bad move" },
		{ "rule freestyle\nsize 5\nmoves a1 b1 a2 b2 a3 b3 a4 b4 a5 b5\n", "game-over" },
		{ "rule chess\nsize 15\n", "bad rule" },
		{ "rule renju\nsize 25\n", "bad size" },
		{ "rule renju\nsize 15 16\n", "trailing text" },
		{ "rule renju\n", "missing rule or size" },
		{ "colour black\n", "missing rule or size" },
		{ "rule renju\nsize 15\nmoves h8\nmoves i9 h8\n", "occupied" },
		{ "rule renju\nsize 15\nrule standard\n", "duplicate key" },
		{ "rule renju\nsize 15\nmoves h8 i99999999999999999999\n", "bad move" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		err[0] = '\0';
		assert_int_equal(record_parse(bad[i].text, &q, err, sizeof err), -1);
		if (strstr(err, bad[i].why) == NULL)
			fail_msg("record %zu: error '%s', want '%s'", i, err, bad[i].why);
	}
	print_message("  format/parse round trip, CRLF, and %zu bad records with reasons\n",
	    sizeof bad / sizeof bad[0]);
}

static uint64_t
rng_next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void
test_random_games(void **state)
{
	(void)state;
	static position_t snap[RULES_CELLS + 1];
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	long plies = 0, refused = 0, wins = 0, draws = 0;
	const int games = 10000;

	for (int g = 0; g < games; g++) {
		rule_t rule = (rule_t)(g % 3);
		int size = RULES_MIN_SIZE +
		    (int)(rng_next(&seed) % (RULES_MAX_SIZE - RULES_MIN_SIZE + 1));
		position_t p;
		move_t empty[RULES_CELLS];

		pos_init(&p, rule, size);
		while (p.outcome.kind == RESULT_ONGOING) {
			int n = 0;
			for (int y = 0; y < size; y++)
				for (int x = 0; x < size; x++)
					if (p.cell[rules_move(x, y)] == STONE_EMPTY)
						empty[n++] = rules_move(x, y);
			assert_true(n > 0);
			snap[p.nmoves] = p;
			/* try random empty points until one is legal */
			legality_t l;
			move_t m;
			int tries = 0;
			do {
				int k = (int)(rng_next(&seed) % (uint64_t)n);
				m = empty[k];
				empty[k] = empty[--n];
				l = pos_play(&p, m);
				if (l != LEGAL_OK) {
					refused++;
					assert_true(
					    rule == RULE_RENJU && pos_to_move(&p) == STONE_BLACK);
					assert_true(l == LEGAL_DOUBLE_THREE ||
					    l == LEGAL_DOUBLE_FOUR || l == LEGAL_OVERLINE);
					assert_memory_equal(&p, &snap[p.nmoves], sizeof p);
				}
				tries++;
			} while (l != LEGAL_OK && n > 0);
			if (l != LEGAL_OK)
				break; /* renju: every point left is forbidden to black */
			plies++;
			stone_t mover = (stone_t)p.cell[m];
			int ref = referee_wins(&p, mover);
			assert_int_equal(p.outcome.kind == RESULT_WIN, ref);
			assert_false(
			    referee_wins(&p, mover == STONE_BLACK ? STONE_WHITE : STONE_BLACK));
			if (p.outcome.kind == RESULT_WIN) {
				wins++;
				assert_int_equal(p.outcome.winner, mover);
				assert_true(p.outcome.ncells >= 5);
			} else if (p.nmoves == size * size) {
				draws++;
				assert_int_equal(p.outcome.kind, RESULT_DRAW);
			} else {
				assert_int_equal(p.outcome.kind, RESULT_ONGOING);
			}
		}
		/* undo to the start, matching every earlier position byte for byte */
		while (p.nmoves > 0) {
			pos_undo(&p);
			assert_memory_equal(&p, &snap[p.nmoves], sizeof p);
		}
	}
	print_message("  %d games, %ld plies, %ld wins, %ld draws, %ld forbidden tries refused;"
		      " referee agrees, undo restores every position\n",
	    games, plies, wins, draws, refused);
}

/* The board's 8 symmetries: 0 is none; a point off every axis has 8
 * images, all on the board; (x, y) -> (size-1-x, y) is bit 1's, the
 * swap bit 4's; a corner stays a corner, the centre the centre. */
static void
test_transform(void **state)
{
	(void)state;
	move_t m = rules_move(1, 4), seen[8];
	for (int k = 0; k < 8; k++) {
		seen[k] = rules_transform(k, 15, m);
		int x = rules_x(seen[k]), y = rules_y(seen[k]);
		assert_true(x >= 0 && x < 15 && y >= 0 && y < 15);
		for (int j = 0; j < k; j++)
			assert_true(seen[j] != seen[k]);
		move_t c = rules_transform(k, 15, rules_move(0, 0));
		assert_true(
		    (rules_x(c) == 0 || rules_x(c) == 14) && (rules_y(c) == 0 || rules_y(c) == 14));
		assert_int_equal(rules_transform(k, 15, rules_move(7, 7)), rules_move(7, 7));
	}
	assert_int_equal(seen[0], m);
	assert_int_equal(seen[1], rules_move(13, 4));
	assert_int_equal(seen[2], rules_move(1, 10));
	assert_int_equal(seen[4], rules_move(4, 1));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shapes),
		cmocka_unit_test(test_reference_forbidden),
		cmocka_unit_test(test_edges_and_corners),
		cmocka_unit_test(test_transform),
		cmocka_unit_test(test_overline_by_rule),
		cmocka_unit_test(test_draw),
		cmocka_unit_test(test_legality_reasons),
		cmocka_unit_test(test_notation),
		cmocka_unit_test(test_records),
		cmocka_unit_test(test_random_games),
	};
	return cmocka_run_group_tests_name("rules", tests, NULL, NULL);
}
