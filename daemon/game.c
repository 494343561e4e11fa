/* game.c: the game domain's small rules and names (see game.h). */
#include "daemon/game.h"

#include "rules/opening.h"

opening_rule_t
game_opening_rule(game_opening_t o)
{
	switch (o) {
	case OPEN_SWAP2:
		return ORULE_SWAP2;
	case OPEN_SWAP:
		return ORULE_SWAP;
	case OPEN_PRO:
		return ORULE_PRO;
	case OPEN_LONGPRO:
		return ORULE_LONGPRO;
	case OPEN_RIF:
		return ORULE_RIF;
	case OPEN_YAMAGUCHI:
		return ORULE_YAMAGUCHI;
	case OPEN_SOOSORV8:
		return ORULE_SOOSORV8;
	case OPEN_TARAGUCHI10:
		return ORULE_TARAGUCHI10;
	case OPEN_FREE:
		break;
	}
	return ORULE_NONE;
}

int
gamespec_check(const struct gamespec *g, const char **why)
{
	/* the rules core's opening machine says which rule, size and opening
	 * go together: renju's openings on 15x15, pro and long pro on odd
	 * sizes, swap and swap2 not under renju, renju's none with a centre */
	if ((unsigned)g->opening > OPEN_TARAGUCHI10 ||
	    opening_combination(game_opening_rule(g->opening), g->rule, g->size) != OERR_OK) {
		*why = g->opening == OPEN_SWAP2 ? "swap2 is for freestyle and standard"
		    : g->opening == OPEN_FREE
		    ? "renju needs a board with a centre point: an odd size"
		    : "that opening rule does not go with this rule and board size (see "
		      "PROTOCOL.md)";
		return -1;
	}
	return 0;
}

int
gamespec_compatible(const struct gamespec *a, const struct gamespec *b)
{
	if (a->rule != b->rule || a->size != b->size || a->tc_base != b->tc_base ||
	    a->tc_inc != b->tc_inc || a->rated != b->rated || a->opening != b->opening)
		return 0;
	return a->colour == WISH_ANY || b->colour == WISH_ANY || a->colour != b->colour;
}

game_result_t
game_win_for(stone_t side)
{
	return side == STONE_BLACK ? GAME_BLACK_WINS : GAME_WHITE_WINS;
}

const char *
game_result_name(game_result_t r)
{
	static const char *const names[] = { "black", "white", "draw", "none" };
	return (unsigned)r < sizeof names / sizeof names[0] ? names[r] : "?";
}

const char *
game_reason_name(game_reason_t r)
{
	static const char *const names[] = { "five", "resign", "time", "forbidden", "draw-agreed",
		"board-full", "abandoned", "aborted" };
	return (unsigned)r < sizeof names / sizeof names[0] ? names[r] : "?";
}

const char *
game_opening_name(game_opening_t o)
{
	static const char *const names[] = { "none", "swap2", "swap", "pro", "longpro", "rif",
		"yamaguchi", "soosorv8", "taraguchi10" };
	return (unsigned)o < sizeof names / sizeof names[0] ? names[o] : "?";
}
