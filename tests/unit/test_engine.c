/*
 * test_engine.c: the AI. Pattern classification of drawn lines; incremental
 * patterns equal a from-scratch computation after random play/undo under
 * every rule; forced replies are exactly the moves that stop an open four
 * (plus counter-fours); VCF finds wins that hold when played out and finds
 * none where none exists; renju (black never plays a forbidden point, white
 * wins with a four whose block is forbidden, a forbidden point is worth
 * nothing to black's static value); immediate five/block at every
 * level; the chosen move is checked against a deep VCT the pre-search
 * filter misses; determinism at fixed depth; several instances in parallel threads;
 * engine_stop ends a running search, its helpers joined, with a legal
 * move (how fast: make bench-stop); the
 * shared transposition table under concurrent stores and probes; the
 * multi-threaded search (Lazy SMP) and its stop; the learned table
 * (shapes.h) as the value and the move ordering under ENGINE_EVAL_SHAPES;
 * the root kept to a list of moves (engine_limits_t.only).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <pthread.h>
#include <time.h>

#include "engine/board.h"
#include "engine/engine.h"
#include "engine/eval.h"
#include "engine/movegen.h"
#include "engine/tt.h"
#include "engine/vcf.h"
#include "tests/shared.h"

static uint32_t rng = 12345;

static uint32_t
rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return rng;
}

/* "XXX.*" style: X own, O opponent, # wall, . empty, * the centre. */
static int
classify(const char *s, int exact)
{
	uint8_t l[11];
	int centre = (int)(strchr(s, '*') - s);

	for (int i = 0; i < 11; i++) {
		int k = i - 5 + centre;
		char ch = k >= 0 && k < (int)strlen(s) ? s[k] : '#';
		l[i] = ch == 'X' ? 1 : ch == 'O' ? 2 : ch == '#' ? 3 : 0;
	}
	l[5] = 0;
	return pattern_classify(l, 1, exact);
}

/* Under ThreadSanitizer (ten to forty times slower) the single-threaded
 * checks run smaller, and the deep single-threaded searches (threat
 * proofs, the white-defence positions) are skipped there, saying so: they
 * cannot race, and the gcc, clang and ASan passes run them whole (they
 * were two thirds of CI's TSan pass). test_threads_parallel keeps its
 * four threads. */
#if defined(__SANITIZE_THREAD__)
#define TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define TSAN 1
#endif
#endif
#ifndef TSAN
#define TSAN 0
#endif
enum { STEPS = TSAN ? 300 : 1500, RENJU_POSITIONS = TSAN ? 10 : 30, DEPTH = TSAN ? 4 : 6 };

/* A deep single-threaded search: not under ThreadSanitizer (above). */
#define SINGLE_THREADED_DEEP()                                                                  \
	do {                                                                                    \
		if (TSAN) {                                                                     \
			printf("  skipped under ThreadSanitizer: one thread, run whole in the " \
			       "other passes\n");                                               \
			skip();                                                                 \
		}                                                                               \
	} while (0)

/* Every line the board can hold (walls only beyond walls) gets from
 * pattern_line the classification of both colours under each rule: the
 * freestyle table, which leaves out the outermost cells, included. */
static void
test_pattern_tables(void **st)
{
	(void)st;
	long lines = 0;

	for (int rule = 0; rule < 3; rule++) {
		pattern_lines_t t = pattern_lines(rule);
		for (uint32_t key = 0; key < KEY_COUNT; key += TSAN ? 7 : 1) {
			uint8_t l[11];
			int ok = 1;
			for (int s = 0; s < 10; s++)
				l[s < 5 ? s : s + 1] = (uint8_t)((key >> (2 * s)) & 3);
			l[5] = 0;
			for (int i = 1; i < 5; i++)
				ok &= !(l[i - 1] != 3 && l[i] == 3);
			for (int i = 6; i < 10; i++)
				ok &= !(l[i] == 3 && l[i + 1] != 3);
			if (!ok)
				continue;
			uint16_t v = pattern_line(&t, key);
			int wb = pattern_classify(l, 1, rule != 0);
			int ww = pattern_classify(l, 2, rule == 1);
			if ((v & 0xff) != wb || v >> 8 != ww)
				printf("  rule %d key %05x: %d %d, want %d %d\n", rule, key,
				    v & 0xff, v >> 8, wb, ww);
			assert_int_equal(v & 0xff, wb);
			assert_int_equal(v >> 8, ww);
			lines++;
		}
	}
	printf("  %ld lines of three rules match their classification\n", lines);
}

static void
test_pattern_lines(void **st)
{
	(void)st;
	static const struct {
		const char *line;
		int exact, want;
	} cases[] = {
		{ ".....XXXX*.....", 0, LP_F5 },
		{ "....XXXX*X.....", 0, LP_F5 },
		{ "....XXXX*X.....", 1, LP_OL },
		{ "......XXX*.....", 0, LP_F4 },
		{ "#XXX*......", 0, LP_B4 },
		{ ".....OXXX*.....", 0, LP_B4 },
		{ ".....XX.*X.....", 0, LP_B4 },
		{ "......XX*......", 0, LP_F3 },
		{ ".....OXX*......", 0, LP_B3 },
		{ ".....X.X*......", 0, LP_F3 },
		{ "......X.*......", 0, LP_F2 },
		{ "......X*O......", 0, LP_B2 },
		{ "O...*O", 0, LP_DEAD },
		{ ".......*.......", 0, LP_B1 },
		{ "X.X*X.X", 0, LP_F4 }, /* two separate fours on one line */
		{ "XX.X*.X", 1, LP_B4 },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		int got = classify(cases[i].line, cases[i].exact);
		printf("  line %-16s exact=%d -> %d (want %d)\n", cases[i].line, cases[i].exact,
		    got, cases[i].want);
		assert_int_equal(got, cases[i].want);
	}
}

/*
 * For a few empty cells and both colours: board_count_after equals playing
 * the cell and counting, board_class_after gives every empty cell the class
 * it then has, and board_find_near after the move lists every
 * cell whose class the move raised. Returns the number of probes.
 */
static int
check_probes(board_t *b)
{
	int n = 0;

	for (int t = 0; t < 4; t++) {
		int i = b->cells[rnd() % (unsigned)b->ncells];
		if (b->stone[i])
			continue;
		for (int c = 1; c <= 2; c++) {
			uint8_t before[BCELLS][2];
			int want[2][T_COUNT] = { { 0 } }, got[2][T_COUNT];
			static uint8_t cls_after[BCELLS][2];
			memcpy(before, b->cls, sizeof before);
			for (int o = 1; o <= 2; o++)
				for (int m = T_LOW; m < T_COUNT; m++)
					got[o - 1][m] = board_count_after(b, i, c, o, m);
			for (int k = 0; k < b->ncells; k++)
				for (int o = 1; o <= 2; o++)
					cls_after[b->cells[k]][o - 1] = (uint8_t)board_class_after(
					    b, i, c, b->cells[k], o);
			board_play(b, i, c);
			for (int k = 0; k < b->ncells; k++) {
				int j = b->cells[k];
				if (b->stone[j] == 0) {
					assert_int_equal(cls_after[j][0], b->cls[j][0]);
					assert_int_equal(cls_after[j][1], b->cls[j][1]);
				}
			}
			for (int o = 1; o <= 2; o++)
				for (int m = T_LOW; m < T_COUNT; m++) {
					for (int k = m; k < T_COUNT; k++)
						want[o - 1][m] += b->cnt[o - 1][k];
					assert_int_equal(got[o - 1][m], want[o - 1][m]);
				}
			int16_t near[BCELLS];
			uint8_t in[BCELLS] = { 0 };
			int nn = board_find_near(b, i, c, T_LOW, near, BCELLS);
			for (int k = 0; k < nn; k++)
				in[near[k]] = 1;
			for (int k = 0; k < b->ncells; k++) {
				int j = b->cells[k];
				if (b->stone[j] == 0 && b->cls[j][c - 1] > before[j][c - 1])
					assert_true(in[j]);
			}
			board_undo(b);
			n++;
		}
	}
	return n;
}

/* One step of a random walk: a stone on a random empty cell while there
 * are fewer than max (two times in three), else the last one taken back. */
static void
random_step(board_t *b, int max)
{
	if ((b->nmoves < max && rnd() % 3) || b->nmoves == 0) {
		int c;
		do
			c = b->cells[rnd() % (unsigned)b->ncells];
		while (b->stone[c]);
		board_play(b, c, board_to_move(b));
	} else {
		board_undo(b);
	}
}

/* Random play/undo; after every step the incremental state equals scratch. */
static void
test_incremental(void **st)
{
	(void)st;
	board_t *b = malloc(sizeof *b);
	for (int rule = 0; rule < 3; rule++) {
		int size = rule == 0 ? 15 : rule == 1 ? 19 : 15;
		int checks = 0, probes = 0;
		assert_int_equal(board_init(b, rule, size, 1), 0);
		for (int it = 0; it < STEPS; it++) {
			random_step(b, 90);
			if (it % 3 == 0) {
				assert_int_equal(board_verify(b), 0);
				checks++;
				probes += check_probes(b);
			}
		}
		printf("  %s %dx%d: %d checks in %d random play/undo steps agree, "
		       "%d probes match playing the move\n",
		    rule_name(rule), size, size, checks, STEPS, probes);
	}
	free(b);
}

/* A pass flips the side to move and leaves the stones and what the board
 * derives from them; a move played and taken back after it, and the pass
 * taken back, leave the board as it was. */
static void
test_pass(void **st)
{
	(void)st;
	board_t *b = malloc(sizeof *b), *was = malloc(sizeof *was);
	for (int rule = 0; rule < 3; rule++) {
		assert_int_equal(board_init(b, rule, 15, 0), 0);
		for (int i = 0; i < 12; i++) {
			int c;
			do
				c = b->cells[rnd() % (unsigned)b->ncells];
			while (b->stone[c]);
			board_play(b, c, board_to_move(b));
		}
		memcpy(was, b, sizeof *b);
		int stm = board_to_move(b), c;
		board_pass(b);
		assert_int_equal(board_to_move(b), 3 - stm);
		assert_true(b->hash == was->hash);
		assert_memory_equal(b->stone, was->stone, sizeof b->stone);
		assert_memory_equal(b->cnt, was->cnt, sizeof b->cnt);
		assert_memory_equal(b->sum, was->sum, sizeof b->sum);
		assert_int_equal(board_verify(b), 0);
		do
			c = b->cells[rnd() % (unsigned)b->ncells];
		while (b->stone[c]);
		board_play(b, c, board_to_move(b));
		assert_int_equal(b->stone[c], 3 - stm);
		assert_int_equal(board_verify(b), 0);
		board_undo(b);
		board_unpass(b);
		assert_int_equal(b->nmoves, was->nmoves);
		assert_int_equal(board_to_move(b), stm);
		assert_true(b->hash == was->hash);
		assert_memory_equal(b->moves, was->moves, sizeof b->moves[0] * (size_t)b->nmoves);
		assert_memory_equal(b->cls, was->cls, sizeof b->cls);
		assert_memory_equal(b->score, was->score, sizeof b->score);
		assert_int_equal(board_verify(b), 0);
	}
	free(was);
	free(b);
}

/* A random position where the side to move faces an open three (or a
 * double-four threat) and neither side has a five or an open four to play. */
static int
threat_position(board_t *b, int rule)
{
	for (int tries = 0; tries < 1000; tries++) {
		board_init(b, rule, 15, 0);
		int n = 10 + (int)(rnd() % 30);
		for (int i = 0; i < n; i++) {
			int x = 3 + (int)(rnd() % 9), y = 3 + (int)(rnd() % 9);
			int c = (y + BPAD) * BW + x + BPAD;
			if (b->stone[c] || b->cnt[0][T_FIVE] || b->cnt[1][T_FIVE])
				break;
			board_play(b, c, board_to_move(b));
		}
		int s = board_to_move(b), o = 3 - s;
		if (!b->cnt[0][T_FIVE] && !b->cnt[1][T_FIVE] && !has_real(b, s, T_F4) &&
		    has_real(b, o, T_F4))
			return 1;
	}
	return 0;
}

static void
test_forced_replies(void **st)
{
	(void)st;
	board_t *b = malloc(sizeof *b);
	int16_t d[MAX_MOVES];
	int positions = 0, moves = 0, replies = 0;

	for (int rule = 0; rule < 3; rule++)
		for (int k = 0; k < 40; k++) {
			if (!threat_position(b, rule))
				continue;
			int s = board_to_move(b), o = 3 - s;
			int n = gen_defences(b, s, d);
			uint8_t in[BCELLS] = { 0 };
			for (int i = 0; i < n; i++) {
				assert_int_equal(in[d[i]], 0);
				in[d[i]] = 1;
			}
			positions++;
			replies += n;
			for (int i = 0; i < b->ncells; i++) {
				int c = b->cells[i];
				if (b->stone[c] || board_forbidden(b, c, s))
					continue;
				int four = b->cls[c][s - 1] >= T_B4;
				board_play(b, c, s);
				int stops = !has_real(b, o, T_F4);
				board_undo(b);
				moves++;
				if ((four || stops) != in[c])
					printf("  mismatch: cell %d four %d stops %d listed %d\n",
					    c, four, stops, in[c]);
				assert_int_equal(four || stops, in[c]);
			}
		}
	printf("  %d threatened positions, %d moves tried by brute force, %d replies: "
	       "the list is exactly the defences plus counter-fours\n",
	    positions, moves, replies);
	assert_true(positions > 30);
	free(b);
}

static void
load(board_t *b, int rule, const char *moves)
{
	board_init(b, rule, 15, 0);
	for (const char *p = moves; *p;) {
		int x, y, used;
		if (sscanf(p, "%d,%d%n", &x, &y, &used) != 2)
			break;
		board_play(b, (y + BPAD) * BW + x + BPAD, board_to_move(b));
		p += used;
		while (*p == ' ')
			p++;
	}
}

/* Plays a VCF line out: every attacker move but the last is a four answered
 * by the defender's only block, and the last makes five. */
static int
line_wins(board_t *b, const vcf_t *v, int plies)
{
	int a = board_to_move(b), ok = 1, played = 0;

	if (v->len < 1 || v->len > plies)
		return 0;
	for (int k = 0; k < v->len && ok; k++) {
		int c = v->line[k], side = board_to_move(b);
		if (b->stone[c]) {
			ok = 0;
			break;
		}
		if (side == a && k == v->len - 1) {
			/* a five, or an open four / double four with two plies to go */
			ok = b->cls[c][a - 1] == T_FIVE ||
			    (k == plies - 3 && b->cls[c][a - 1] >= T_F4);
			break;
		}
		if (side == a)
			ok = b->cls[c][a - 1] >= T_B4 && !board_forbidden(b, c, a);
		else
			ok = b->cnt[a - 1][T_FIVE] == 1 && b->cls[c][a - 1] == T_FIVE;
		board_play(b, c, side);
		played++;
	}
	while (played--)
		board_undo(b);
	return ok;
}

/* Loads the next position of the freestyle puzzle set; 0 at its end. */
static int
next_puzzle(FILE *fp, board_t *b)
{
	char line[8192];

	while (fgets(line, sizeof line, fp)) {
		char *moves = strchr(line, '\t'), *end;
		if (!moves || line[0] != '0' || !(end = strchr(++moves, '\t')))
			continue;
		*end = 0;
		load(b, RULE_FREESTYLE, moves);
		return 1;
	}
	return 0;
}

static void
test_vcf(void **st)
{
	(void)st;
	board_t *b = malloc(sizeof *b);
	vcf_t *v = calloc(1, sizeof *v);
	vcf_slot_t *cache = calloc(VCF_CACHE, sizeof *cache);

	/* four, block, four, block, then a double four */
	load(b, RULE_FREESTYLE,
	    "5,5 0,0 6,5 0,2 7,5 4,5 9,7 0,4 9,8 9,5 9,9 0,6 10,10 14,0 11,11 14,2");
	v->b = b;
	v->att = board_to_move(b);
	v->budget = 1000000;
	v->cache = cache;
	int r = vcf_solve(v, 30);
	printf("  hand-made position: VCF in %d plies, line length %d\n", r, v->len);
	assert_true(r > 0 && r % 2 == 1);
	assert_true(line_wins(b, v, r));

	/* the same stones without black's row: no VCF */
	load(b, RULE_FREESTYLE, "7,7 8,8 7,8 8,7 2,2 12,12");
	memset(cache, 0, VCF_CACHE * sizeof *cache);
	v->att = board_to_move(b);
	r = vcf_solve(v, 30);
	printf("  quiet position: VCF %d (none)\n", r);
	assert_int_equal(r, 0);

	/* lone fours that lead nowhere */
	load(b, RULE_FREESTYLE, "5,5 4,5 6,5 0,0 7,5 0,14 10,10 14,14");
	memset(cache, 0, VCF_CACHE * sizeof *cache);
	v->att = board_to_move(b);
	r = vcf_solve(v, 30);
	printf("  one dead-end four: VCF %d (none)\n", r);
	assert_int_equal(r, 0);

	/* the shared puzzle set: every VCF found must hold when played out */
	char path[512];
	FILE *fp = shared_open("puzzles/freestyle.tsv", path, sizeof path);
	if (!fp) {
		if (shared_required())
			fail_msg("%s is required (GOMOKU_REQUIRE_SHARED)", path);
	} else {
		int found = 0, total = 0;
		while (total < 60 && next_puzzle(fp, b)) {
			memset(cache, 0, VCF_CACHE * sizeof *cache);
			v->att = board_to_move(b);
			v->budget = 50000;
			r = vcf_solve(v, 40);
			total++;
			if (r) {
				found++;
				assert_true(line_wins(b, v, r));
			}
		}
		fclose(fp);
		printf("  puzzles: VCF found in %d of %d, each line verified by playing it\n",
		    found, total);
		assert_true(found > 0);
	}
	free(cache);
	free(v);
	free(b);
}

static int
search_xy(
    engine_t *e, int rule, const move_t *mv, int n, const engine_limits_t *l, engine_result_t *r)
{
	return engine_search(e, rule, 15, mv, n, l, NULL, NULL, r);
}

static int
parse_moves(const char *s, move_t *mv)
{
	int n = 0, x, y, used;

	while (sscanf(s, "%d,%d%n", &x, &y, &used) == 2) {
		mv[n++] = rules_move(x, y);
		s += used;
		while (*s == ' ')
			s++;
	}
	return n;
}

static void
test_levels_five_and_block(void **st)
{
	(void)st;
	engine_t *e = engine_new(4);
	move_t mv[64];
	engine_result_t r;
	/* black to move with four in a row at 5..8,7 (open) -> five */
	int n = parse_moves("5,7 5,9 6,7 6,9 7,7 7,9 8,7 12,12", mv);
	/* white to move? n = 8: black to move */
	for (int lv = 1; lv <= 10; lv++) {
		engine_limits_t l = engine_default_limits();
		l.level = lv;
		l.max_depth = 4;
		l.seed = (uint32_t)lv;
		assert_int_equal(search_xy(e, RULE_FREESTYLE, mv, n, &l, &r), 0);
		assert_true(r.best == rules_move(4, 7) || r.best == rules_move(9, 7));
		assert_string_equal(r.reason, "five");
	}
	printf("  levels 1-10 all play the five (reason five)\n");
	/* black to move; white has 4 at 5..8,9 blocked at 4,9: must block 9,9 */
	n = parse_moves("5,7 5,9 6,7 6,9 12,3 7,9 4,9 8,9", mv);
	for (int lv = 1; lv <= 10; lv++) {
		engine_limits_t l = engine_default_limits();
		l.level = lv;
		l.max_depth = 4;
		l.seed = (uint32_t)lv * 77;
		assert_int_equal(search_xy(e, RULE_FREESTYLE, mv, n, &l, &r), 0);
		assert_true(r.best == rules_move(9, 9));
		assert_string_equal(r.reason, "block-five");
	}
	printf("  levels 1-10 all block the five (reason block-five)\n");
	/* decided without a search, the candidates still say what was decided
	 * (an analysis reads them): a five, an open four, a lost block */
	static const struct {
		const char *moves;
		int score;
	} decided[] = {
		{ "5,7 5,9 6,7 6,9 7,7 7,9 8,7 12,12", ENGINE_WIN - 1 },
		{ "5,7 5,9 6,7 6,9 7,7 12,12", ENGINE_WIN - 3 },
		{ "5,7 5,9 6,7 6,9 7,7 12,12 8,7", -(ENGINE_WIN - 4) },
	};
	for (size_t i = 0; i < sizeof decided / sizeof decided[0]; i++) {
		engine_limits_t l = engine_default_limits();
		l.nbest = 4;
		n = parse_moves(decided[i].moves, mv);
		assert_int_equal(search_xy(e, RULE_FREESTYLE, mv, n, &l, &r), 0);
		assert_true(r.ncand >= 1);
		assert_int_equal(r.cand[0].move, r.best);
		assert_int_equal(r.cand[0].score, decided[i].score);
		assert_int_equal(r.score, decided[i].score);
	}
	printf("  a five, an open four and a lost block: their candidates carry the win or loss\n");
	engine_free(e);
}

static int
in_list(move_t m, const move_t *l, int n)
{
	for (int i = 0; i < n; i++)
		if (l[i] == m)
			return 1;
	return 0;
}

/* engine_limits_t.only: the root plays only the listed moves, at every
 * level, even against a five; nbest reports only those; a listed five is
 * still played; taken, off-board and renju-forbidden points are left out,
 * and a list of none of them finds no move. */
static void
test_root_only(void **st)
{
	(void)st;
	engine_t *e = engine_new(4);
	move_t mv[64];
	engine_result_t r;
	/* black to move with an open four at 5..8,7: fives on 4,7 and 9,7 */
	int n = parse_moves("5,7 5,9 6,7 6,9 7,7 7,9 8,7 12,12", mv);
	move_t far[3] = { rules_move(0, 0), rules_move(14, 0), rules_move(0, 14) };
	for (int lv = 1; lv <= 10; lv++) {
		engine_limits_t l = engine_default_limits();
		l.level = lv;
		l.max_depth = 3;
		l.seed = (uint32_t)lv;
		l.nbest = 3;
		l.only = far;
		l.nonly = 3;
		assert_int_equal(search_xy(e, RULE_FREESTYLE, mv, n, &l, &r), 0);
		assert_true(in_list(r.best, far, 3));
		/* the open four stays: white can block one of its two fives
		 * (the search must see the older five points, not only those
		 * of the last move) */
		assert_true(r.score >= ENGINE_WIN_MIN);
		assert_int_equal(r.ncand, 3);
		for (int i = 0; i < r.ncand; i++) {
			assert_true(in_list(r.cand[i].move, far, 3));
			for (int j = 0; j < i; j++)
				assert_int_not_equal(r.cand[i].move, r.cand[j].move);
		}
	}
	/* a listed five is played, and said to be one */
	move_t withfive[3] = { rules_move(0, 0), rules_move(9, 7), rules_move(14, 14) };
	engine_limits_t l = engine_default_limits();
	l.max_depth = 3;
	l.only = withfive;
	l.nonly = 3;
	assert_int_equal(search_xy(e, RULE_FREESTYLE, mv, n, &l, &r), 0);
	assert_int_equal(r.best, rules_move(9, 7));
	assert_string_equal(r.reason, "five");
	/* taken and off-board points are dropped; nothing left: no move */
	move_t none[3] = { rules_move(5, 7), rules_move(15, 3), rules_move(6, 9) };
	l.only = none;
	assert_int_equal(search_xy(e, RULE_FREESTYLE, mv, n, &l, &r), -1);
	move_t one[4] = { rules_move(5, 7), rules_move(15, 3), rules_move(3, 3), rules_move(3, 3) };
	l.only = one;
	l.nonly = 4;
	l.nbest = 4;
	assert_int_equal(search_xy(e, RULE_FREESTYLE, mv, n, &l, &r), 0);
	assert_int_equal(r.best, rules_move(3, 3));
	assert_int_equal(r.ncand, 1);
	/* renju: black's double three on 7,7 (open threes 5..7,7 and 7,5..7)
	 * is forbidden, so a list of it alone leaves black no move */
	n = parse_moves("5,7 0,0 6,7 14,0 7,5 0,14 7,6 14,14", mv);
	move_t dbl[1] = { rules_move(7, 7) };
	l.only = dbl;
	l.nonly = 1;
	l.nbest = 1;
	assert_int_equal(search_xy(e, RULE_FREESTYLE, mv, n, &l, &r), 0);
	assert_int_equal(r.best, rules_move(7, 7));
	assert_int_equal(search_xy(e, RULE_RENJU, mv, n, &l, &r), -1);
	printf("  the root keeps to its list at levels 1-10, a listed five is played\n");
	engine_free(e);
}

static void
test_renju(void **st)
{
	(void)st;
	engine_t *e = engine_new(4);
	move_t mv[64];
	engine_result_t r;
	char buf[8];
	/* black has ..XXX.XX. on row 7: 6,7 is an overline point. White's three on
	 * column 6 (blocked above by black at 6,2) becomes a four at 6,3 whose
	 * only block, 6,7, is forbidden: white wins. */
	int n = parse_moves("3,7 6,4 4,7 6,5 5,7 6,6 7,7 0,0 8,7 0,2 6,2 14,14 6,8", mv);
	engine_limits_t l = engine_default_limits();
	l.max_depth = 4;
	assert_int_equal(search_xy(e, RULE_RENJU, mv, n, &l, &r), 0);
	printf("  white to move: %s score %d mate %d reason %s\n", notation_format_xy(r.best, buf),
	    r.score, r.mate, r.reason);
	assert_int_equal(r.best, rules_move(6, 3));
	assert_true(r.mate > 0);
	/* after 6,3 black is lost: its only block is an overline */
	mv[n] = rules_move(6, 3);
	assert_int_equal(search_xy(e, RULE_RENJU, mv, n + 1, &l, &r), 0);
	printf("  black to move after 6,3: mate %d (lost)\n", r.mate);
	assert_true(r.mate < 0);
	assert_int_not_equal(r.best, rules_move(6, 7));

	/* black never plays a forbidden point in random renju positions */
	int checked = 0;
	for (int k = 0; k < RENJU_POSITIONS; k++) {
		position_t p;
		pos_init(&p, RULE_RENJU, 15);
		n = 0;
		for (int i = 0; i < 24; i++) {
			move_t m = rules_move(4 + (int)(rnd() % 7), 4 + (int)(rnd() % 7));
			if (pos_check(&p, m) != LEGAL_OK)
				continue;
			pos_play(&p, m);
			if (p.outcome.kind != RESULT_ONGOING) {
				pos_undo(&p);
				break;
			}
			mv[n++] = m;
		}
		if (n % 2)
			n--; /* black to move */
		pos_init(&p, RULE_RENJU, 15);
		for (int i = 0; i < n; i++)
			pos_play(&p, mv[i]);
		engine_limits_t l2 = engine_default_limits();
		l2.max_depth = 3;
		if (search_xy(e, RULE_RENJU, mv, n, &l2, &r) != 0)
			continue;
		assert_int_equal(renju_forbidden(&p, r.best), LEGAL_OK);
		checked++;
	}
	printf("  %d random renju positions: black's move is never forbidden\n", checked);
	assert_true(checked > RENJU_POSITIONS * 2 / 3);
	engine_free(e);
}

/*
 * Black to move under renju; 7,7 is a double-three point, forbidden. The
 * static value must be lower than on a copy of the board where 7,7 is not
 * suspect (so never asked about): the value as if no point were forbidden,
 * by at least black's score on 7,7.
 */
static void
test_renju_eval(void **st)
{
	(void)st;
	board_t *b = malloc(sizeof *b), *copy = malloc(sizeof *copy);
	move_t mv[16];
	int n = parse_moves("5,7 0,0 6,7 14,0 7,5 0,14 7,6 14,14", mv);
	int x = board_cell(rules_move(7, 7));

	board_init(b, RULE_RENJU, 15, 0);
	for (int i = 0; i < n; i++)
		board_play(b, board_cell(mv[i]), 1 + i % 2);
	assert_int_equal(board_verify(b), 0);
	assert_int_equal(b->cls[x][0], T_F3X2);
	assert_true(b->suspect[x]);
	assert_true(board_forbidden(b, x, STONE_BLACK));
	*copy = *b;
	copy->suspect[x] = 0;
	copy->nsuspect--;
	int gap = evaluate(copy) - evaluate(b);
	printf("  double-three point 7,7 (worth %d to black as a cell): the "
	       "value is %d lower than if it were legal\n",
	    b->score[x][0], gap);
	/* black's cell score in the value's units, less one for rounding */
	assert_true(gap >= b->score[x][0] * EVAL_STM / EVAL_DIV - 1);
	free(b);
	free(copy);
}

/*
 * Searches moves to depth with time to spare (the depth limit binds, not
 * the clock), then checks that the opponent has no VCT after the chosen
 * move that 400k nodes and 29 plies can prove, and that they do have one
 * after the move the search would play unchecked, so the first check
 * could fail.
 */
static void
check_guard(const char *moves, int depth, uint64_t vct_nodes, move_t unchecked)
{
	engine_t *e = engine_new(16);
	board_t *b = malloc(sizeof *b);
	vcf_t *v = calloc(1, sizeof *v);
	vcf_slot_t *cache = calloc(VCF_CACHE, sizeof *cache);
	move_t mv[64];
	engine_result_t r;
	engine_limits_t l = engine_default_limits();
	char buf[8], buf2[8];
	int n = parse_moves(moves, mv);

	l.max_depth = depth;
	l.soft_ms = l.hard_ms = 600000;
	l.vct_nodes = vct_nodes;
	assert_int_equal(search_xy(e, RULE_FREESTYLE, mv, n, &l, &r), 0);
	load(b, RULE_FREESTYLE, moves);
	board_play(b, board_cell(r.best), board_to_move(b));
	v->b = b;
	v->att = board_to_move(b);
	v->budget = 400000;
	v->cache = cache;
	int vct = vct_solve(v, 29);
	printf("  %s plays %s (%s); the opponent's VCT after it: %d plies (%llu nodes%s)\n",
	    n % 2 ? "white" : "black", notation_format_xy(r.best, buf), r.reason, vct,
	    (unsigned long long)v->nodes, v->out ? ", budget spent" : "");
	assert_int_equal(vct, 0);

	board_undo(b);
	board_play(b, board_cell(unchecked), board_to_move(b));
	memset(cache, 0, VCF_CACHE * sizeof *cache);
	vct = vct_solve(v, 29);
	printf("  after %s instead: a VCT in %d plies\n", notation_format_xy(unchecked, buf2), vct);
	assert_true(vct > 0);
	free(cache);
	free(v);
	free(b);
	engine_free(e);
}

/*
 * A sparring loss: after this opening white's depth-7 favourite 8,6 lets
 * black win by a 23-ply VCT that the pre-search check is too small to see.
 * Black has a VCT after a null move, so the engine checks its choice with
 * a large budget.
 */
static void
test_vct_guard(void **st)
{
	(void)st;
	check_guard("6,6 5,8 9,7 4,9 6,4", 7, 0, rules_move(8, 6));
}

/*
 * A sparring loss over the book: white's depth-8 favourite 4,4 (on the
 * first point of black's VCT after a null move) leaves black a 25-ply VCT.
 * The guard's 400k nodes prove it since the VCT tries only threes near the
 * attack (305k nodes for the proof-number search, 226k for the depth-first
 * one, 1.17M without that rule).
 */
static void
test_vct_guard_deep(void **st)
{
	(void)st;
	SINGLE_THREADED_DEEP();
	check_guard("8,8 6,5 6,6 9,7 6,4 9,9 5,5", 8, 0, rules_move(4, 4));
}

/*
 * The opponent's VCT after a null move is not found before the search, but
 * the favourite gives them one: white's depth-5 5,8 a 15-ply VCT for black
 * (550 nodes to prove), and in a sparring loss black's depth-8 8,7 a
 * 17-ply one for white (33k nodes). Every timed search checks its choice.
 */
static void
test_vct_check(void **st)
{
	(void)st;
	SINGLE_THREADED_DEEP();
	check_guard("8,8 7,5 5,5 10,4 5,9 9,3 6,8 11,5 8,2 6,6 5,7", 5, 20000, rules_move(5, 8));
	check_guard("7,7 6,6 5,5 5,8 8,8 4,7", 8, 20000, rules_move(8, 7));
}

/*
 * Positions of games lost as white against Rapfi, from
 * tests/engine/white-defence.txt (run from the top of the tree): where the
 * search scores every move as lost, the check after it still finds a move
 * the solver cannot prove lost, and does not play the game's move.
 */
static void
test_white_defence(void **st)
{
	SINGLE_THREADED_DEEP();
	FILE *fp = fopen("tests/engine/white-defence.txt", "r");
	char line[4096];
	int n = 0;

	(void)st;
	assert_non_null(fp);
	while (fgets(line, sizeof line, fp)) {
		int x, y, depth, used;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		assert_int_equal(sscanf(line, "%d,%d %d %n", &x, &y, &depth, &used), 3);
		check_guard(line + used, depth, 20000, rules_move(x, y));
		n++;
	}
	fclose(fp);
	assert_true(n >= 2);
}

/*
 * Whether the VCT in v->line really starts a win: its first move threatens,
 * and after every defence (the forced block, or each reply gen_defences
 * gives) the attacker has a five, an open four or a VCT proven again, whose
 * first move holds in turn, levels attacker moves deep. *replies counts the
 * defences tried.
 */
static int
vct_first_move_holds(board_t *b, vcf_t *v, int levels, int *replies)
{
	int a = v->att, d = 3 - a, ok = 1;
	int16_t dm[MAX_MOVES], f[2];
	int nd;

	board_play(b, v->line[0], a);
	if (b->cnt[a - 1][T_FIVE]) {
		nd = board_find(b, a, T_FIVE, f, 2);
		if (nd >= 2) {
			board_undo(b);
			return 1;
		}
		dm[0] = f[0];
		nd = 1;
	} else
		nd = gen_defences(b, d, dm);
	if (!b->cnt[a - 1][T_FIVE] && !has_real(b, a, T_F4))
		ok = 0; /* not a threat: the defender plays elsewhere */
	*replies += nd;
	for (int k = 0; ok && k < nd; k++) {
		board_play(b, dm[k], d);
		int win = b->cnt[a - 1][T_FIVE] || has_real(b, a, T_F4);
		if (!win && !b->cnt[d - 1][T_FIVE]) {
			vcf_t w = *v;
			memset(w.cache, 0, VCF_CACHE * sizeof *w.cache);
			win = vct_solve(&w, 31) > 0 &&
			    (levels <= 1 || vct_first_move_holds(b, &w, levels - 1, replies));
		}
		ok = win;
		board_undo(b);
	}
	board_undo(b);
	return ok;
}

/*
 * The proof-number VCT: a 27-ply VCT from a sparring loss that the
 * depth-first search needs 183k nodes to prove is proven within 60k, and
 * holds against every defence, re-proven four attacking moves deep. The
 * VCTs it finds in the first puzzles hold two moves deep.
 */
static void
test_vct_pn(void **st)
{
	(void)st;
	SINGLE_THREADED_DEEP();
	board_t *b = malloc(sizeof *b);
	vcf_t *v = calloc(1, sizeof *v);
	vcf_slot_t *cache = calloc(VCF_CACHE, sizeof *cache);
	char buf[8];
	int replies = 0;

	load(b, RULE_FREESTYLE, "6,7 9,7 8,9 10,9 10,6 7,8 9,6 8,6 10,8 7,7 11,7 9,5 10,4");
	v->b = b;
	v->att = board_to_move(b);
	v->budget = 60000;
	v->cache = cache;
	v->salt = 1;
	int r = vct_solve(v, 29);
	printf("  10,4 in a sparring loss: white's VCT in %d plies, %llu nodes, first move %s\n", r,
	    (unsigned long long)v->nodes,
	    v->len > 0 ? notation_format_xy(board_move(v->line[0]), buf) : "-");
	assert_true(r > 0 && v->len > 0);
	assert_true(vct_first_move_holds(b, v, 4, &replies));
	printf("  it holds four attacking moves deep, against %d replies\n", replies);

	char path[512];
	FILE *fp = shared_open("puzzles/freestyle.tsv", path, sizeof path);
	if (!fp) {
		if (shared_required())
			fail_msg("%s is required (GOMOKU_REQUIRE_SHARED)", path);
	} else {
		int found = 0, total = 0;
		while (total < 20 && next_puzzle(fp, b)) {
			total++;
			memset(cache, 0, VCF_CACHE * sizeof *cache);
			v->att = board_to_move(b);
			v->budget = 100000;
			if (vct_solve(v, 29) > 0) {
				found++;
				assert_true(vct_first_move_holds(b, v, 2, &replies));
			}
		}
		fclose(fp);
		printf("  puzzles: VCT found in %d of %d, each holding two attacking moves deep\n",
		    found, total);
		assert_true(found > total / 2);
	}
	free(cache);
	free(v);
	free(b);
}

static const char *midgame = "7,7 8,8 8,7 6,7 7,8 7,6 9,6 6,9 6,8 8,6";

static void
test_determinism(void **st)
{
	(void)st;
	engine_t *e1 = engine_new(8), *e2 = engine_new(8);
	move_t mv[64];
	engine_result_t r1, r2, r3;
	int n = parse_moves(midgame, mv);
	engine_limits_t l = engine_default_limits();
	l.max_depth = DEPTH;
	assert_int_equal(search_xy(e1, RULE_FREESTYLE, mv, n, &l, &r1), 0);
	assert_int_equal(search_xy(e1, RULE_FREESTYLE, mv, n - 2, &l, &r3), 0);
	assert_int_equal(search_xy(e1, RULE_FREESTYLE, mv, n, &l, &r2), 0);
	assert_int_equal(r1.best, r2.best);
	assert_int_equal(r1.score, r2.score);
	assert_int_equal(r1.nodes, r2.nodes);
	assert_int_equal(search_xy(e2, RULE_FREESTYLE, mv, n, &l, &r2), 0);
	assert_int_equal(r1.best, r2.best);
	assert_int_equal(r1.nodes, r2.nodes);
	l.max_depth = 0;
	l.max_nodes = 30000;
	assert_int_equal(search_xy(e1, RULE_FREESTYLE, mv, n, &l, &r1), 0);
	assert_int_equal(search_xy(e2, RULE_FREESTYLE, mv, n, &l, &r2), 0);
	assert_int_equal(r1.best, r2.best);
	assert_int_equal(r1.score, r2.score);
	printf("  depth %d and 30000 nodes: same move, score and node count on repeats "
	       "and across instances\n",
	    DEPTH);
	engine_free(e1);
	engine_free(e2);
}

/* The learned table's value of the position, from scratch: every empty
 * cell's shape looked up in shapes.h itself, black's forbidden cells left
 * out under renju. */
static int
shapes_value(board_t *b)
{
	int stm = board_to_move(b) - 1;
	int32_t sum[2] = { 0, 0 };

	for (int k = 0; k < b->ncells; k++) {
		int j = b->cells[k];
		if (b->stone[j])
			continue;
		for (int c = 0; c < 2; c++) {
			if (c == 0 && board_forbidden(b, j, STONE_BLACK))
				continue;
			int s = pattern_shape(
			    b->pat[j][0][c], b->pat[j][1][c], b->pat[j][2][c], b->pat[j][3][c]);
			sum[c] += shape_table[b->rule][s][c == stm ? 0 : 1];
		}
	}
	int v = (sum[stm] - sum[1 - stm]) / SHAPE_RES + 20;
	return v > 20000 ? 20000 : v < -20000 ? -20000 : v;
}

/*
 * ENGINE_EVAL_SHAPES reads shapes.h: after random play under every rule the
 * value is the table's (computed from scratch above) and every candidate's
 * ordering score its policy entries; the shape index ignores the order of
 * the four patterns; a search with it is deterministic at fixed depth and
 * still takes a five and blocks one.
 */
static void
test_shapes(void **st)
{
	(void)st;
	board_t *b = malloc(sizeof *b);
	engine_t *e = engine_new(8);
	int differ = 0;

	assert_int_equal(pattern_shape(LP_F3, LP_B3, LP_DEAD, LP_B1),
	    pattern_shape(LP_B1, LP_DEAD, LP_F3, LP_B3));
	assert_int_not_equal(pattern_shape(LP_F3, LP_B3, LP_DEAD, LP_B1),
	    pattern_shape(LP_F3, LP_F3, LP_DEAD, LP_B1));
	for (int rule = 0; rule < 3; rule++) {
		int checks = 0;
		assert_int_equal(board_init(b, rule, 15, 1), 0);
		for (int it = 0; it < STEPS / 3; it++) {
			random_step(b, 60);
			if (it % 5)
				continue;
			int v = evaluate(b);
			assert_int_equal(v, shapes_value(b));
			for (int k = 0; k < b->ncells; k++) {
				int j = b->cells[k], c = board_to_move(b);
				if (b->stone[j] || !b->nb[j])
					continue;
				int own = pattern_shape(b->pat[j][0][c - 1], b->pat[j][1][c - 1],
				    b->pat[j][2][c - 1], b->pat[j][3][c - 1]);
				int opp = pattern_shape(b->pat[j][0][2 - c], b->pat[j][1][2 - c],
				    b->pat[j][2][2 - c], b->pat[j][3][2 - c]);
				assert_int_equal(eval_move(b, j, c),
				    shape_table[rule][own][2] + shape_table[rule][opp][3]);
			}
			b->shapes = 0; /* the line weights, on the same board */
			differ += evaluate(b) != v;
			b->shapes = 1;
			checks++;
		}
		printf(
		    "  %s: %d positions valued and ordered by shapes.h\n", rule_name(rule), checks);
	}
	printf("  %d of them valued differently by the line weights\n", differ);

	move_t mv[64];
	engine_result_t r1, r2;
	engine_limits_t l = engine_default_limits();
	int n = parse_moves(midgame, mv);
	l.max_depth = DEPTH;
	l.eval = ENGINE_EVAL_SHAPES;
	assert_int_equal(search_xy(e, RULE_FREESTYLE, mv, n, &l, &r1), 0);
	assert_int_equal(search_xy(e, RULE_FREESTYLE, mv, n, &l, &r2), 0);
	assert_int_equal(r1.best, r2.best);
	assert_int_equal(r1.score, r2.score);
	assert_int_equal(r1.nodes, r2.nodes);
	/* black's open four on row 7 (5..8): white blocks an end; after
	 * white's open four on row 9, black takes the five */
	n = parse_moves("5,7 5,9 6,7 6,9 7,7 7,9 8,7 8,9", mv);
	assert_int_equal(search_xy(e, RULE_FREESTYLE, mv, n - 1, &l, &r1), 0);
	assert_true(r1.best == rules_move(4, 7) || r1.best == rules_move(9, 7));
	assert_int_equal(search_xy(e, RULE_FREESTYLE, mv, n, &l, &r1), 0);
	assert_true(r1.best == rules_move(4, 7) || r1.best == rules_move(9, 7));
	assert_true(r1.mate > 0);
	engine_free(e);
	free(b);
}

struct job {
	const char *moves;
	int rule;
	engine_result_t r;
};

static void *
run_job(void *arg)
{
	struct job *j = arg;
	engine_t *e = engine_new(4);
	move_t mv[64];
	int n = parse_moves(j->moves, mv);
	engine_limits_t l = engine_default_limits();
	l.max_depth = DEPTH;
	engine_search(e, j->rule, 15, mv, n, &l, NULL, NULL, &j->r);
	engine_free(e);
	return NULL;
}

static void
test_threads_parallel(void **st)
{
	(void)st;
	struct job jobs[4] = {
		{ midgame, RULE_FREESTYLE, { 0 } },
		{ midgame, RULE_RENJU, { 0 } },
		{ "7,7 8,8 6,8 8,6", RULE_STANDARD, { 0 } },
		{ "7,7 7,8 8,7 6,7 8,8", RULE_FREESTYLE, { 0 } },
	};
	struct job solo[4];
	pthread_t t[4];

	memcpy(solo, jobs, sizeof jobs);
	for (int i = 0; i < 4; i++)
		run_job(&solo[i]);
	for (int i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, run_job, &jobs[i]);
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	for (int i = 0; i < 4; i++) {
		assert_int_equal(jobs[i].r.best, solo[i].r.best);
		assert_int_equal(jobs[i].r.nodes, solo[i].r.nodes);
	}
	printf("  4 instances searching at once in 4 threads give the single-thread results\n");
}

/* The entry tt_churn stores for key k, so that a probe can tell a torn one. */
static tt_entry_t
entry_of(uint64_t k)
{
	tt_entry_t x;

	x.move = (int16_t)(k % 400);
	x.score = (int16_t)((k >> 9) % 20000) - 10000;
	x.eval = (int16_t)((k >> 23) % 4000) - 2000;
	x.depth = (int8_t)(k % 61);
	x.bound = (uint8_t)(1 + (k >> 40) % 3);
	return x;
}

/* Distinct keys of one bucket: the threads fight over its two entries. */
static uint64_t
key_of(uint32_t i)
{
	uint64_t k = (i + 1) * 0x9E3779B97F4A7C15ull;
	return (k ^ (k >> 29)) & ~(uint64_t)0xFFFFF;
}

struct churn {
	tt_t *t;
	uint32_t seed;
	long hits, bad;
};

/* Stores and probes keys of one bucket: every entry found must be the one
 * stored for its key. */
static void *
tt_churn(void *arg)
{
	struct churn *c = arg;
	uint32_t r = c->seed;

	for (int i = 0; i < (TSAN ? 100000 : 1000000); i++) {
		r ^= r << 13;
		r ^= r >> 17;
		r ^= r << 5;
		uint64_t k = key_of(r % 16);
		tt_entry_t want = entry_of(k), got;
		if (r >> 31) {
			tt_store(c->t, k, want.move, want.score, want.eval, want.depth, want.bound);
		} else if (tt_probe(c->t, k, &got)) {
			c->hits++;
			if (got.move != want.move || got.score != want.score ||
			    got.eval != want.eval || got.depth != want.depth ||
			    (got.bound & 3) != want.bound)
				c->bad++;
		}
	}
	return NULL;
}

static void
test_threads_tt(void **st)
{
	(void)st;
	tt_t t;
	struct churn c[3];
	pthread_t th[3];
	long hits = 0;

	assert_int_equal(tt_init(&t, 1), 0);
	for (int i = 0; i < 3; i++) {
		c[i] = (struct churn){ &t, 2463534242u + 77u * (uint32_t)i, 0, 0 };
		assert_int_equal(pthread_create(&th[i], NULL, tt_churn, &c[i]), 0);
	}
	for (int i = 0; i < 3; i++) {
		pthread_join(th[i], NULL);
		assert_int_equal(c[i].bad, 0);
		hits += c[i].hits;
	}
	assert_true(hits > 0);
	printf("  3 threads storing and probing one table: %ld hits, each the entry stored "
	       "for its key\n",
	    hits);
	tt_free(&t);
}

static void
test_threads_smp(void **st)
{
	(void)st;
	engine_t *e = engine_new(8), *solo = engine_new(8);
	move_t mv[64];
	engine_result_t r, s;
	int n = parse_moves(midgame, mv);
	engine_limits_t l = engine_default_limits();

	assert_non_null(e);
	assert_int_equal(engine_set_threads(e, 3), 0);
	/* fixed depth: the helpers stay idle, the result is one thread's */
	l.max_depth = DEPTH;
	assert_int_equal(search_xy(e, RULE_FREESTYLE, mv, n, &l, &r), 0);
	assert_int_equal(search_xy(solo, RULE_FREESTYLE, mv, n, &l, &s), 0);
	assert_int_equal(r.threads, 1);
	assert_int_equal(r.best, s.best);
	assert_int_equal(r.score, s.score);
	assert_int_equal(r.nodes, s.nodes);
	/* timed: three threads, every position a legal move, forced ones kept */
	l = engine_default_limits();
	l.soft_ms = l.hard_ms = TSAN ? 1500 : 400;
	static const struct {
		const char *moves;
		int rule;
		const char *want; /* the only good move, or NULL */
	} cases[] = {
		{ "7,7 8,8 8,7 6,7 7,8 7,6 9,6 6,9 6,8 8,6", RULE_FREESTYLE, NULL },
		{ "7,7 8,8 8,7 6,7 7,8 7,6 9,6 6,9 6,8 8,6", RULE_RENJU, NULL },
		{ "5,7 5,9 6,7 6,9 7,7 7,9 8,7 12,12", RULE_FREESTYLE, NULL }, /* five */
		{ "7,7 8,8 6,8 8,6", RULE_STANDARD, NULL },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		n = parse_moves(cases[i].moves, mv);
		assert_int_equal(search_xy(e, cases[i].rule, mv, n, &l, &r), 0);
		position_t p;
		pos_init(&p, (rule_t)cases[i].rule, 15);
		for (int k = 0; k < n; k++)
			pos_place(&p, mv[k]);
		assert_int_equal(p.cell[r.best], STONE_EMPTY);
		printf("  %s, %s: %d threads, %d,%d (%s), depth %d, %llu nodes\n", cases[i].moves,
		    rule_name((rule_t)cases[i].rule), r.threads, rules_x(r.best), rules_y(r.best),
		    r.reason, r.depth, (unsigned long long)r.nodes);
		if (i == 2)
			assert_string_equal(r.reason, "five");
		else
			assert_int_equal(r.threads, 3);
	}
	/* back to one thread: the helpers are freed (ASan sees a leak if not) */
	assert_int_equal(engine_set_threads(e, 1), 0);
	assert_int_equal(search_xy(e, RULE_FREESTYLE, mv, n, &l, &r), 0);
	assert_int_equal(r.threads, 1);
	engine_free(e);
	engine_free(solo);
}

struct stopper {
	engine_t *e;
	engine_result_t r;
	int rc;
	atomic_int depths;  /* completed, as the info callback counts them */
	atomic_int deepest; /* the last depth it reported */
	atomic_int done;
};

static void
count_depth(const engine_result_t *r, void *arg)
{
	struct stopper *s = arg;
	atomic_store(&s->deepest, r->depth);
	atomic_fetch_add(&s->depths, 1);
}

/* The search's own limit in test_threads_stop: out of reach there, so that
 * only the stop ends the search; one that is not honoured lets it deepen
 * on to this limit, and fails, rather than hanging the test. */
enum { OWN_LIMIT_MS = 10 * 60 * 1000 };

static void *
run_until_stopped(void *arg)
{
	struct stopper *s = arg;
	move_t mv[64];
	int n = parse_moves(midgame, mv);
	engine_limits_t l = engine_default_limits();
	l.soft_ms = l.hard_ms = OWN_LIMIT_MS; /* timed: the helpers search too */
	s->rc = engine_search(s->e, RULE_FREESTYLE, 15, mv, n, &l, count_depth, s, &s->r);
	atomic_store(&s->done, 1);
	return NULL;
}

/*
 * Starts a search with threads threads and a time limit of its own it
 * cannot reach here, waits until it has completed a depth (so it is surely
 * running and a stop cannot land before it starts), then nap_ms more, and
 * stops it. The stop is honoured: the search was still running when
 * engine_stop came; engine_search then returned (it is joined; its own
 * limit bounds the wait) without deepening further (at most the depth in
 * progress at the stop completes: the engine checks the flag at every
 * node), with a legal move of a completed depth, and with every helper
 * stopped (the result counts the helpers it joined before returning). No
 * time is asserted (make bench-stop measures how long a stop takes).
 */
static void
stop_honoured(int nap_ms, int threads, int *depth)
{
	struct stopper *s = calloc(1, sizeof *s);
	struct timespec nap = { nap_ms / 1000, (nap_ms % 1000) * 1000000L };
	struct timespec tick = { 0, 1000000L };
	pthread_t t;

	assert_non_null(s);
	s->e = engine_new(8);
	assert_non_null(s->e);
	assert_int_equal(engine_set_threads(s->e, threads), 0);
	s->rc = -1;
	atomic_init(&s->depths, 0);
	atomic_init(&s->deepest, 0);
	atomic_init(&s->done, 0);
	assert_int_equal(pthread_create(&t, NULL, run_until_stopped, s), 0);
	while (atomic_load(&s->depths) == 0 && !atomic_load(&s->done))
		nanosleep(&tick, NULL);
	nanosleep(&nap, NULL);
	int depths = atomic_load(&s->depths), ran_on = atomic_load(&s->done) == 0;
	engine_stop(s->e);
	int at_stop = atomic_load(&s->deepest); /* read after: a depth may just have completed */
	pthread_join(t, NULL);

	assert_true(depths > 0);
	if (!ran_on)
		fail_msg("the search ended by itself before engine_stop (%d ms, depth %d)",
		    s->r.time_ms, s->r.depth);
	assert_int_equal(s->rc, 0);
	if (s->r.depth > at_stop + 1)
		fail_msg("the search went on from depth %d to %d after engine_stop", at_stop,
		    s->r.depth);
	assert_true(s->r.depth >= 1);
	assert_int_equal(s->r.threads, threads); /* the helpers searched, and were joined */
	position_t p;
	move_t mv[64];
	int n = parse_moves(midgame, mv);
	assert_int_equal(pos_init(&p, RULE_FREESTYLE, 15), 0);
	for (int i = 0; i < n; i++)
		assert_int_equal(pos_play(&p, mv[i]), LEGAL_OK);
	assert_int_equal(pos_check(&p, s->r.best), LEGAL_OK);
	*depth = s->r.depth;
	engine_free(s->e);
	free(s);
}

static void
test_threads_stop(void **st)
{
	(void)st;
	for (int threads = 1; threads <= 2; threads++) {
		int d0, d1;
		stop_honoured(0, threads, &d0);
		stop_honoured(300, threads, &d1);
		printf(
		    "  %d thread(s): a search stopped after its first depth (depth %d) and 300 ms "
		    "later (depth %d) returned without deepening further, with a legal move, "
		    "its helpers joined\n",
		    threads, d0, d1);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pattern_lines),
		cmocka_unit_test(test_pattern_tables),
		cmocka_unit_test(test_incremental),
		cmocka_unit_test(test_pass),
		cmocka_unit_test(test_forced_replies),
		cmocka_unit_test(test_vcf),
		cmocka_unit_test(test_levels_five_and_block),
		cmocka_unit_test(test_root_only),
		cmocka_unit_test(test_renju),
		cmocka_unit_test(test_renju_eval),
		cmocka_unit_test(test_vct_pn),
		cmocka_unit_test(test_vct_guard),
		cmocka_unit_test(test_vct_guard_deep),
		cmocka_unit_test(test_vct_check),
		cmocka_unit_test(test_white_defence),
		cmocka_unit_test(test_determinism),
		cmocka_unit_test(test_shapes),
		cmocka_unit_test(test_threads_parallel),
		cmocka_unit_test(test_threads_stop),
		cmocka_unit_test(test_threads_tt),
		cmocka_unit_test(test_threads_smp),
	};
	if (getenv("TEST_ONLY"))
		cmocka_set_test_filter(getenv("TEST_ONLY"));
	return cmocka_run_group_tests(tests, NULL, NULL);
}
