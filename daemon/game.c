/* game.c: the game domain's small rules and names (see game.h). */
#include "daemon/game.h"

#include "rules/opening.h"

int
gamespec_check(const struct gamespec *g, const char **why)
{
	/* the rules core's opening machine says where swap2 goes (not renju) */
	if (g->opening == OPEN_SWAP2 &&
	    opening_combination(ORULE_SWAP2, g->rule, g->size) != OERR_OK) {
		*why = "swap2 is for freestyle and standard";
		return -1;
	}
	/* and that renju, whose first stone goes on the centre, needs one */
	if (g->opening == OPEN_FREE &&
	    opening_combination(ORULE_NONE, g->rule, g->size) != OERR_OK) {
		*why = "renju needs a board with a centre point: an odd size";
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
	return o == OPEN_SWAP2 ? "swap2" : o == OPEN_FREE ? "none" : "?";
}
