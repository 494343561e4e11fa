/*
 * fuzz_rules.c: libFuzzer target for the rules core. The input picks a rule,
 * a board size and a sequence of moves and undos; after every step the
 * outcome must agree with a brute-force referee, refusals must have their
 * reason, and an undo must restore the earlier position byte for byte.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rules/rules.h"
#include "tests/referee.h"

static position_t history[RULES_CELLS + 1];

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	position_t p;

	if (size < 2)
		return 0;
	if (pos_init(&p, (rule_t)(data[0] % 3), RULES_MIN_SIZE + data[1] % 16) != 0)
		abort();
	for (size_t i = 2; i + 1 < size; i += 2) {
		if (data[i] == 0xff) { /* undo */
			if (p.nmoves == 0) {
				if (pos_undo(&p) != MOVE_NONE)
					abort();
				continue;
			}
			pos_undo(&p);
			if (memcmp(&p, &history[p.nmoves], sizeof p) != 0)
				abort();
			continue;
		}
		/* any point of the 20x20 grid, so off-board moves are tried too */
		move_t m = rules_move(data[i] % RULES_MAX_SIZE, data[i + 1] % RULES_MAX_SIZE);
		history[p.nmoves] = p;
		legality_t want = pos_check(&p, m), got = pos_play(&p, m);
		if (got != want)
			abort();
		if (got != LEGAL_OK) {
			if (memcmp(&p, &history[p.nmoves], sizeof p) != 0)
				abort();
			int on = pos_on_board(&p, rules_x(m), rules_y(m));
			if ((got == LEGAL_OFF_BOARD) == on)
				abort();
			if (got == LEGAL_OCCUPIED && p.cell[m] == STONE_EMPTY)
				abort();
			if ((got == LEGAL_DOUBLE_THREE || got == LEGAL_DOUBLE_FOUR ||
				got == LEGAL_OVERLINE) &&
			    (p.rule != RULE_RENJU || pos_to_move(&p) != STONE_BLACK))
				abort();
			if (got == LEGAL_GAME_OVER && p.outcome.kind == RESULT_ONGOING)
				abort();
			continue;
		}
		int mover = p.cell[m];
		if ((p.outcome.kind == RESULT_WIN) != referee_wins(&p, mover))
			abort();
		if (referee_wins(&p, mover == STONE_BLACK ? STONE_WHITE : STONE_BLACK))
			abort();
		if (p.outcome.kind == RESULT_DRAW && p.nmoves != p.size * p.size)
			abort();
	}
	return 0;
}
