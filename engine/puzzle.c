/* puzzle.c: puzzles proven and judged by the threat solvers (see puzzle.h). */
#include "engine/puzzle.h"

#include <stdlib.h>
#include <string.h>

#include "engine/board.h"
#include "engine/movegen.h"
#include "engine/vcf.h"

int
puzzle_plies(puzzle_class_t cls)
{
	return cls == PUZZLE_VCF ? PUZZLE_VCF_PLIES : PUZZLE_VCT_PLIES;
}

/* The game on b (and p): 0, or -1 when it is not one, or is over. */
static int
load(board_t *b, position_t *p, rule_t rule, int size, const move_t *moves, int n)
{
	if (n < 0 || n > RULES_CELLS || pos_init(p, rule, size) < 0 ||
	    board_init(b, rule, size, 0) < 0)
		return -1;
	for (int i = 0; i < n; i++) {
		if (pos_play(p, moves[i]) != LEGAL_OK)
			return -1;
		board_play(b, board_cell(moves[i]), 1 + (i & 1));
	}
	return p->outcome.kind == RESULT_ONGOING ? 0 : -1;
}

/* A solver on b for att, with a cache for the VCT's proof numbers. */
static int
solver(vcf_t *v, board_t *b, int att, uint64_t budget)
{
	memset(v, 0, sizeof *v);
	v->b = b;
	v->att = att;
	v->budget = budget;
	v->salt = 0x9e3779b97f4a7c15ull;
	v->cache = calloc(VCF_CACHE, sizeof *v->cache);
	return v->cache ? 0 : -1;
}

int
puzzle_prove(rule_t rule, int size, const move_t *moves, int n, puzzle_class_t cls, int maxply,
    uint64_t budget, move_t line[PUZZLE_LINE_MAX], int *len)
{
	board_t *b = malloc(sizeof *b);
	position_t p;
	vcf_t v;
	int r = -1;
	*len = 0;
	if (!b || load(b, &p, rule, size, moves, n) != 0 ||
	    solver(&v, b, board_to_move(b), budget) != 0) {
		free(b);
		return -1;
	}
	r = cls == PUZZLE_VCF ? vcf_solve(&v, maxply) : vct_solve(&v, maxply);
	if (r > 0)
		for (int i = 0; i < v.len && i < PUZZLE_LINE_MAX; i++)
			line[(*len)++] = board_move(v.line[i]);
	free(v.cache);
	free(b);
	return r;
}

int
puzzle_answer(rule_t rule, int size, const move_t *moves, int n, puzzle_class_t cls, int maxply,
    uint64_t budget, move_t m, move_t *reply, int *left)
{
	board_t *b = malloc(sizeof *b);
	position_t p;
	vcf_t v;
	*reply = MOVE_NONE;
	*left = 0;
	if (!b || load(b, &p, rule, size, moves, n) != 0) {
		free(b);
		return -1;
	}
	int att = board_to_move(b);
	if (pos_play(&p, m) != LEGAL_OK) {
		free(b);
		return -1;
	}
	if (p.outcome.kind == RESULT_WIN) {
		free(b);
		return PUZZLE_FIVE;
	}
	if (p.outcome.kind != RESULT_ONGOING) { /* a full board */
		free(b);
		return PUZZLE_FAILS;
	}
	board_play(b, board_cell(m), att);
	if (solver(&v, b, att, budget) != 0) {
		free(b);
		return -1;
	}
	int r = vcf_defend(&v, maxply - 1, cls == PUZZLE_VCT);
	int verdict = r > 0 ? PUZZLE_HOLDS : PUZZLE_FAILS;
	if (r > 0) {
		*left = r - 1;
		if (v.len > 0) {
			*reply = board_move(v.line[0]);
		} else { /* nothing stops the win: a five point blocked, or the
			  * point of the attacker's next open four taken, or the
			  * defender's likeliest move */
			int16_t f[MAX_MOVES];
			if (board_find(b, att, T_FIVE, f, 1) > 0 ||
			    find_real(b, att, T_F4, f, 1) > 0 || gen_moves(b, 3 - att, f) > 0)
				*reply = board_move(f[0]);
		}
	}
	free(v.cache);
	free(b);
	return verdict;
}

int
puzzle_solution(rule_t rule, int size, const move_t *moves, int n, puzzle_class_t cls, int maxply,
    uint64_t budget, move_t line[PUZZLE_LINE_MAX], int *len)
{
	move_t *mv = malloc(sizeof *mv * RULES_CELLS), first[PUZZLE_LINE_MAX], reply;
	int k, left, r = 0;
	*len = 0;
	if (!mv || n < 0 || n > RULES_CELLS) {
		free(mv);
		return -1;
	}
	memcpy(mv, moves, sizeof *mv * (size_t)n);
	for (int plies = maxply; plies > 0 && n + 2 <= RULES_CELLS && *len + 2 <= PUZZLE_LINE_MAX;
	     plies -= 2) {
		if ((r = puzzle_prove(rule, size, mv, n, cls, plies, budget, first, &k)) <= 0)
			break;
		line[(*len)++] = first[0];
		r = puzzle_answer(rule, size, mv, n, cls, plies, budget, first[0], &reply, &left);
		if (r == PUZZLE_FIVE) {
			free(mv);
			return *len;
		}
		if (r != PUZZLE_HOLDS || reply == MOVE_NONE) {
			r = r < 0 ? -1 : 0;
			break;
		}
		line[(*len)++] = reply;
		mv[n++] = first[0];
		mv[n++] = reply;
		r = 0;
	}
	free(mv);
	*len = 0;
	return r < 0 ? -1 : 0;
}
