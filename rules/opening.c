/*
 * opening.c: the opening rules as state machines (see opening.h).
 *
 * The facts this file relies on, rule by rule, from the published rule
 * texts (the RIF's rule pages on renju.net, and the rule articles that
 * quote them). "Central NxN" is the square of N by N points around the
 * centre point (h8 on 15x15); "anywhere" is any empty point. Players: P0
 * starts (the tentative black), P1 is the other.
 *
 * Renju, opening "none": the renju rules' first move: black's first stone
 * on the centre. Then free play. (Needs a centre: odd sizes.)
 *
 * The 26 canonical openings: black's first stone on the centre, white's on
 * one of the 8 points next to it, black's second in the central 5x5. White
 * next to the centre vertically or horizontally makes a direct ("D")
 * opening, diagonally an indirect ("I") one; by symmetry there are 13 of
 * each. With the centre h8 and white on h9 (direct) or i9 (indirect), the
 * third stone names them:
 *   D1 Kansei h10, D2 Keigetsu i10, D3 Sosei j10, D4 Kagetsu i9, D5 Zangetsu
 *   j9, D6 Ugetsu i8, D7 Kinsei j8, D8 Shogetsu h7, D9 Kyugetsu i7,
 *   D10 Shingetsu j7, D11 Zuisei h6, D12 Sangetsu i6, D13 Yusei j6;
 *   I1 Chosei j10, I2 Kyogetsu j9, I3 Kosei j8, I4 Suigetsu j7, I5 Ryusei
 *   j6, I6 Ungetsu i8, I7 Hogetsu i7, I8 Rangetsu i6, I9 Gingetsu h7,
 *   I10 Myojo h6, I11 Shagetsu g7, I12 Meigetsu g6, I13 Suisei f6.
 * Any of the 8 orientations of a pattern is that opening.
 *
 * Fifth-move offers (RIF, Yamaguchi, Soosorv, Taraguchi's second branch):
 * the RIF text says the proposals "have to be unequal in all respects"; the
 * Yamaguchi, Soosorv and Taraguchi texts say "symmetrical moves are not
 * allowed". We read both the same: no two offers may be the same point by a
 * symmetry of the four stones on the board (one of the 8 symmetries of the
 * square board that maps every stone onto a stone of its colour). Offers go
 * anywhere on the board.
 *
 * RIF: "The International Rules of Renju", decided by the RIF on 2 May 1996
 * with a little correction by its Central Committee on 3 May 1998 (the text
 * on renju.net). The texts we could read do not say which sentence the 1998
 * correction changed; we follow the corrected text as published:
 *   1. P0 places the first three stones: black on the centre, white in the
 *      central 3x3, black in the central 5x5 (one of the 26 openings);
 *   2. P1 (tentative white) chooses the colours (may swap);
 *   3. white places the 4th stone anywhere;
 *   4. black offers two 5th moves; white chooses one, which is played,
 *      and white plays the 6th move anywhere: the main game.
 *   No pass within the opening (this machine has no pass act at all).
 * Yamaguchi:
 *   1. P0 places one of the 26 openings (as RIF 1) and declares how many
 *      5th moves will be offered (the text sets no upper bound: this server
 *      takes 1 to 10, OPENING_MAX_OFFERS);
 *   2. P1 may swap; 3. white places the 4th anywhere;
 *   4. black offers that many 5th moves; white chooses one and plays the 6th.
 * Soosorv-8 (Soosorv-N with N = 8, the world championship rule since 2017):
 *   1. P0 places one of the 26 openings; 2. P1 may swap;
 *   3. white places the 4th anywhere and declares the number of 5th-move
 *      offers, 1 to 8 (the original Soosorv rule said 1 to 4);
 *   4. the other player (black) may swap;
 *   5. black offers that many 5th moves; white chooses one and plays the 6th.
 *   Some published texts put steps 2-4 as "place the 4th and declare, or
 *   pass and let the other player do it": the same choices in another
 *   order. Where texts differ we follow the RIF's (the swaps above).
 * Taraguchi-10 (Taraguchi-N with N = 10; the original Taraguchi offered 5):
 *   1. P0 places the 1st stone (black) on the centre; the other player may
 *      swap;
 *   2. white places the 2nd in the central 3x3; the other player may swap;
 *   3. black places the 3rd in the central 5x5; the other player may swap;
 *   4. white places the 4th in the central 7x7;
 *   5. then black chooses between
 *      a) the other player (black) may swap; black places the 5th in the
 *         central 9x9; the other player (white) may swap; white plays the
 *         6th anywhere;
 *      b) black offers ten 5th moves anywhere; white chooses one and plays
 *         the 6th. No swap in this branch.
 * Gomoku (freestyle and standard; these rules are not the RIF's):
 * Pro: black's first stone on the centre; white's first anywhere; black's
 *   second at least three points from the centre (outside the central 5x5).
 *   Colours are fixed. Odd sizes only, and the board must reach beyond the
 *   central 5x5 (size 7 and up).
 * Long pro: as pro, but black's second at least four points from the centre
 *   (outside the central 7x7; size 9 and up).
 * Swap (swap1): P0 places three stones anywhere (black, white, black); P1
 *   chooses the colours; white then plays the 4th.
 * Swap2 (as daemon/room.c plays it today): P0 places three stones anywhere
 *   (black, white, black); P1 chooses a colour, or places two more (white,
 *   black) and then P0 chooses a colour. Choosing means taking the named
 *   colour; white moves next.
 */
#include "rules/opening.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Who acts at a step of a script. */
enum { BY_P0, BY_P1, BY_BLACK, BY_WHITE };
/* Where its stone may go. */
enum {
	A_NONE = OAREA_NONE,
	A_ANY = OAREA_ANY,
	A_CENTRE = OAREA_CENTRE,
	A_SQ3 = OAREA_IN3,
	A_SQ5 = OAREA_IN5,
	A_SQ7 = OAREA_IN7,
	A_SQ9 = OAREA_IN9,
	A_OUT5 = OAREA_OUT5,
	A_OUT7 = OAREA_OUT7,
};

/* One step of a rule's script. n: the most a DECLARE takes, or the fixed
 * count of an OFFER (0: the declared one). jump: where a swap2 colour choice
 * or taraguchi's ten-offer branch goes. */
struct step {
	uint8_t stage, by, area, n, jump;
};

#define PLACE(by, area)                      \
	{                                    \
		OSTAGE_PLACE, by, area, 0, 0 \
	}
#define SWAP(by)                              \
	{                                     \
		OSTAGE_SWAP, by, A_NONE, 0, 0 \
	}
#define DECLARE(by, max)                           \
	{                                          \
		OSTAGE_DECLARE, by, A_NONE, max, 0 \
	}
#define OFFER(n)                                    \
	{                                           \
		OSTAGE_OFFER, BY_BLACK, A_ANY, n, 0 \
	}
#define CHOOSE                                        \
	{                                             \
		OSTAGE_CHOOSE, BY_WHITE, A_NONE, 0, 0 \
	}
#define DONE                                     \
	{                                        \
		OSTAGE_DONE, BY_P0, A_NONE, 0, 0 \
	}

static const struct step s_free[] = { DONE };
static const struct step s_centre[] = { PLACE(BY_P0, A_CENTRE), DONE };
static const struct step s_pro[] = { PLACE(BY_BLACK, A_CENTRE), PLACE(BY_WHITE, A_ANY),
	PLACE(BY_BLACK, A_OUT5), DONE };
static const struct step s_longpro[] = { PLACE(BY_BLACK, A_CENTRE), PLACE(BY_WHITE, A_ANY),
	PLACE(BY_BLACK, A_OUT7), DONE };
static const struct step s_swap[] = { PLACE(BY_P0, A_ANY), PLACE(BY_P0, A_ANY), PLACE(BY_P0, A_ANY),
	SWAP(BY_P1), DONE };
static const struct step s_swap2[] = { PLACE(BY_P0, A_ANY), PLACE(BY_P0, A_ANY),
	PLACE(BY_P0, A_ANY), { OSTAGE_SWAP_OR_PLACE, BY_P1, A_ANY, 0, 6 }, PLACE(BY_P1, A_ANY),
	SWAP(BY_P0), DONE };
static const struct step s_rif[] = { PLACE(BY_P0, A_CENTRE), PLACE(BY_P0, A_SQ3),
	PLACE(BY_P0, A_SQ5), SWAP(BY_P1), PLACE(BY_WHITE, A_ANY), OFFER(2), CHOOSE, DONE };
static const struct step s_yamaguchi[] = { PLACE(BY_P0, A_CENTRE), PLACE(BY_P0, A_SQ3),
	PLACE(BY_P0, A_SQ5), DECLARE(BY_P0, OPENING_MAX_OFFERS), SWAP(BY_P1),
	PLACE(BY_WHITE, A_ANY), OFFER(0), CHOOSE, DONE };
static const struct step s_soosorv8[] = { PLACE(BY_P0, A_CENTRE), PLACE(BY_P0, A_SQ3),
	PLACE(BY_P0, A_SQ5), SWAP(BY_P1), PLACE(BY_WHITE, A_ANY), DECLARE(BY_WHITE, 8),
	SWAP(BY_BLACK), OFFER(0), CHOOSE, DONE };
static const struct step s_taraguchi10[] = { PLACE(BY_BLACK, A_CENTRE), SWAP(BY_WHITE),
	PLACE(BY_WHITE, A_SQ3), SWAP(BY_BLACK), PLACE(BY_BLACK, A_SQ5), SWAP(BY_WHITE),
	PLACE(BY_WHITE, A_SQ7), { OSTAGE_BRANCH, BY_BLACK, A_NONE, 0, 12 },
	/* 8: one fifth move */ SWAP(BY_BLACK), PLACE(BY_BLACK, A_SQ9), SWAP(BY_WHITE), DONE,
	/* 12: ten offers */ OFFER(10), CHOOSE, DONE };

static const struct step *const scripts[ORULE_COUNT] = {
	[ORULE_NONE] = s_free,
	[ORULE_SWAP2] = s_swap2,
	[ORULE_SWAP] = s_swap,
	[ORULE_PRO] = s_pro,
	[ORULE_LONGPRO] = s_longpro,
	[ORULE_RIF] = s_rif,
	[ORULE_YAMAGUCHI] = s_yamaguchi,
	[ORULE_TARAGUCHI10] = s_taraguchi10,
	[ORULE_SOOSORV8] = s_soosorv8,
};

static const renju_opening_t openings[RENJU_OPENINGS] = {
	{ "D1", "Kansei", 0, -1, 0, -2 },
	{ "D2", "Keigetsu", 0, -1, 1, -2 },
	{ "D3", "Sosei", 0, -1, 2, -2 },
	{ "D4", "Kagetsu", 0, -1, 1, -1 },
	{ "D5", "Zangetsu", 0, -1, 2, -1 },
	{ "D6", "Ugetsu", 0, -1, 1, 0 },
	{ "D7", "Kinsei", 0, -1, 2, 0 },
	{ "D8", "Shogetsu", 0, -1, 0, 1 },
	{ "D9", "Kyugetsu", 0, -1, 1, 1 },
	{ "D10", "Shingetsu", 0, -1, 2, 1 },
	{ "D11", "Zuisei", 0, -1, 0, 2 },
	{ "D12", "Sangetsu", 0, -1, 1, 2 },
	{ "D13", "Yusei", 0, -1, 2, 2 },
	{ "I1", "Chosei", 1, -1, 2, -2 },
	{ "I2", "Kyogetsu", 1, -1, 2, -1 },
	{ "I3", "Kosei", 1, -1, 2, 0 },
	{ "I4", "Suigetsu", 1, -1, 2, 1 },
	{ "I5", "Ryusei", 1, -1, 2, 2 },
	{ "I6", "Ungetsu", 1, -1, 1, 0 },
	{ "I7", "Hogetsu", 1, -1, 1, 1 },
	{ "I8", "Rangetsu", 1, -1, 1, 2 },
	{ "I9", "Gingetsu", 1, -1, 0, 1 },
	{ "I10", "Myojo", 1, -1, 0, 2 },
	{ "I11", "Shagetsu", 1, -1, -1, 1 },
	{ "I12", "Meigetsu", 1, -1, -1, 2 },
	{ "I13", "Suisei", 1, -1, -2, 2 },
};

static const char *const rule_names[ORULE_COUNT] = { "none", "swap2", "swap", "pro", "longpro",
	"rif", "yamaguchi", "taraguchi10", "soosorv8" };

static int
is_renju_rule(opening_rule_t r)
{
	return r == ORULE_RIF || r == ORULE_YAMAGUCHI || r == ORULE_TARAGUCHI10 ||
	    r == ORULE_SOOSORV8;
}

opening_err_t
opening_combination(opening_rule_t orule, rule_t rule, int size)
{
	if ((unsigned)orule >= ORULE_COUNT || size < RULES_MIN_SIZE || size > RULES_MAX_SIZE ||
	    (unsigned)rule > RULE_RENJU)
		return OERR_COMBINATION;
	if (is_renju_rule(orule))
		return rule == RULE_RENJU && size == 15 ? OERR_OK : OERR_COMBINATION;
	switch (orule) {
	case ORULE_NONE: /* renju's first stone needs a centre */
		return rule != RULE_RENJU || size % 2 ? OERR_OK : OERR_COMBINATION;
	case ORULE_PRO:
	case ORULE_LONGPRO:
		if (rule == RULE_RENJU || size % 2 == 0)
			return OERR_COMBINATION;
		return size >= (orule == ORULE_PRO ? 7 : 9) ? OERR_OK : OERR_COMBINATION;
	default: /* swap, swap2 */
		return rule == RULE_RENJU ? OERR_COMBINATION : OERR_OK;
	}
}

/* The script: the opening rule's, but renju without one places its first
 * stone on the centre. */
static const struct step *
cur(const opening_t *o)
{
	if (o->rule == ORULE_NONE && o->pos.rule == RULE_RENJU)
		return &s_centre[o->step];
	return &scripts[o->rule][o->step];
}

/* Enters step i of the script: its stage and its actor. */
static void
enter(opening_t *o, int i)
{
	o->step = (uint8_t)i;
	const struct step *s = cur(o);
	o->stage = s->stage;
	switch (s->by) {
	case BY_P0:
		o->actor = 0;
		break;
	case BY_P1:
		o->actor = 1;
		break;
	case BY_BLACK:
		o->actor = o->black;
		break;
	default:
		o->actor = (int8_t)(1 - o->black);
		break;
	}
	if (s->stage == OSTAGE_OFFER && s->n)
		o->declared = s->n;
	if (s->stage == OSTAGE_DONE)
		o->actor = -1;
}

opening_err_t
opening_init(opening_t *o, opening_rule_t orule, rule_t rule, int size)
{
	opening_err_t e = opening_combination(orule, rule, size);
	if (e)
		return e;
	memset(o, 0, sizeof *o);
	pos_init(&o->pos, rule, size);
	o->rule = (uint8_t)orule;
	o->black = 0;
	o->branch = -1;
	o->canon = -1;
	o->chosen = MOVE_NONE;
	enter(o, 0);
	return OERR_OK;
}

int
opening_done(const opening_t *o)
{
	return o->stage == OSTAGE_DONE;
}

stone_t
opening_colour_of(const opening_t *o, int player)
{
	return player == o->black ? STONE_BLACK : STONE_WHITE;
}

void
opening_declare_range(const opening_t *o, int *min, int *max)
{
	*min = *max = 0;
	if (o->stage == OSTAGE_DECLARE) {
		*min = 1;
		*max = cur(o)->n;
	}
}

/* The checks every act starts with: a player, a stage that takes the act,
 * the player whose turn it is. */
static opening_err_t
may_act(const opening_t *o, int player, int stage, int stage2)
{
	if (player != 0 && player != 1)
		return OERR_ARGUMENT;
	if (o->stage == OSTAGE_DONE)
		return OERR_WRONG_STAGE;
	if (player != o->actor)
		return OERR_NOT_TURN;
	if (o->stage != stage && o->stage != stage2)
		return OERR_WRONG_STAGE;
	return OERR_OK;
}

static int
on_board(const position_t *p, move_t m)
{
	return m >= 0 && m < RULES_CELLS && pos_on_board(p, rules_x(m), rules_y(m));
}

/* The distance from the centre, in the larger of the two directions. */
static int
ring(const position_t *p, move_t m)
{
	int c = (p->size - 1) / 2;
	int dx = rules_x(m) - c, dy = rules_y(m) - c;
	dx = dx < 0 ? -dx : dx;
	dy = dy < 0 ? -dy : dy;
	return dx > dy ? dx : dy;
}

static int
in_area(const position_t *p, int area, move_t m)
{
	switch (area) {
	case A_ANY:
		return 1;
	case A_CENTRE:
		return ring(p, m) == 0;
	case A_SQ3:
		return ring(p, m) <= 1;
	case A_SQ5:
		return ring(p, m) <= 2;
	case A_SQ7:
		return ring(p, m) <= 3;
	case A_SQ9:
		return ring(p, m) <= 4;
	case A_OUT5:
		return ring(p, m) >= 3;
	case A_OUT7:
		return ring(p, m) >= 4;
	default:
		return 0;
	}
}

/* Whether the next stone (the side to move's) may go on m, and why not. */
static opening_err_t
stone_ok(const position_t *p, int area, move_t m)
{
	if (!on_board(p, m))
		return OERR_OFF_BOARD;
	if (p->cell[m] != STONE_EMPTY)
		return OERR_OCCUPIED;
	if (!in_area(p, area, m))
		return OERR_OUTSIDE_AREA;
	/* with three black stones at most no renju prohibition can arise;
	 * should the rules core refuse anyway, so do we */
	return pos_check(p, m) == LEGAL_OK ? OERR_OK : OERR_ILLEGAL;
}

opening_err_t
opening_place(opening_t *o, int player, move_t m)
{
	opening_err_t e = may_act(o, player, OSTAGE_PLACE, OSTAGE_SWAP_OR_PLACE);
	if (e)
		return e;
	e = stone_ok(&o->pos, cur(o)->area, m);
	if (e)
		return e;
	pos_play(&o->pos, m);
	if (is_renju_rule(o->rule) && o->pos.nmoves == 3)
		o->canon = (int8_t)renju_opening_find(&o->pos);
	enter(o, o->step + 1);
	return OERR_OK;
}

opening_err_t
opening_choose_colour(opening_t *o, int player, stone_t colour)
{
	opening_err_t e = may_act(o, player, OSTAGE_SWAP, OSTAGE_SWAP_OR_PLACE);
	if (e)
		return e;
	if (colour != STONE_BLACK && colour != STONE_WHITE)
		return OERR_ARGUMENT;
	int black = colour == STONE_BLACK ? player : 1 - player;
	if (black != o->black)
		o->swaps++;
	o->black = (int8_t)black;
	enter(o, o->stage == OSTAGE_SWAP_OR_PLACE ? cur(o)->jump : o->step + 1);
	return OERR_OK;
}

opening_err_t
opening_declare(opening_t *o, int player, int n)
{
	opening_err_t e = may_act(o, player, OSTAGE_DECLARE, OSTAGE_DECLARE);
	if (e)
		return e;
	if (n < 1 || n > cur(o)->n)
		return OERR_WRONG_COUNT;
	o->declared = (uint8_t)n;
	enter(o, o->step + 1);
	return OERR_OK;
}

opening_err_t
opening_offer(opening_t *o, int player, const move_t *moves, int n)
{
	opening_err_t e = may_act(o, player, OSTAGE_OFFER, OSTAGE_OFFER);
	if (e)
		return e;
	if (n != o->declared)
		return OERR_WRONG_COUNT;
	for (int i = 0; i < n; i++) {
		e = stone_ok(&o->pos, cur(o)->area, moves[i]);
		if (e)
			return e;
		for (int j = 0; j < i; j++) {
			if (moves[j] == moves[i])
				return OERR_DUPLICATE;
			if (opening_symmetric(&o->pos, moves[j], moves[i]))
				return OERR_SYMMETRIC;
		}
	}
	memcpy(o->offers, moves, (size_t)n * sizeof *moves);
	o->noffers = (uint8_t)n;
	enter(o, o->step + 1);
	return OERR_OK;
}

opening_err_t
opening_choose_fifth(opening_t *o, int player, move_t m)
{
	opening_err_t e = may_act(o, player, OSTAGE_CHOOSE, OSTAGE_CHOOSE);
	if (e)
		return e;
	int i = 0;
	while (i < o->noffers && o->offers[i] != m)
		i++;
	if (i == o->noffers)
		return OERR_NOT_OFFERED;
	pos_play(&o->pos, m); /* checked when it was offered */
	o->chosen = m;
	enter(o, o->step + 1);
	return OERR_OK;
}

opening_err_t
opening_branch(opening_t *o, int player, opening_branch_t b)
{
	opening_err_t e = may_act(o, player, OSTAGE_BRANCH, OSTAGE_BRANCH);
	if (e)
		return e;
	if (b != OBRANCH_ONE && b != OBRANCH_TEN)
		return OERR_ARGUMENT;
	o->branch = (int8_t)b;
	enter(o, b == OBRANCH_ONE ? o->step + 1 : cur(o)->jump);
	return OERR_OK;
}

opening_err_t
opening_apply(opening_t *o, int player, const opening_act_t *a)
{
	switch (a->kind) {
	case OACT_PLACE:
		return opening_place(o, player, a->moves[0]);
	case OACT_COLOUR:
		return opening_choose_colour(o, player, (stone_t)a->arg);
	case OACT_DECLARE:
		return opening_declare(o, player, a->n);
	case OACT_OFFER:
		return a->n > OPENING_MAX_OFFERS ? OERR_WRONG_COUNT
						 : opening_offer(o, player, a->moves, a->n);
	case OACT_CHOOSE:
		return opening_choose_fifth(o, player, a->moves[0]);
	case OACT_BRANCH:
		return opening_branch(o, player, (opening_branch_t)a->arg);
	default:
		return OERR_ARGUMENT;
	}
}

int
opening_act_stone(const opening_act_t *a)
{
	return a->kind == OACT_PLACE || a->kind == OACT_CHOOSE;
}

opening_area_t
opening_area_kind(const opening_t *o)
{
	switch (o->stage) {
	case OSTAGE_PLACE:
	case OSTAGE_SWAP_OR_PLACE:
	case OSTAGE_OFFER:
		return (opening_area_t)cur(o)->area;
	case OSTAGE_CHOOSE:
		return OAREA_OFFERS;
	case OSTAGE_DONE:
		return OAREA_ANY;
	default:
		return OAREA_NONE;
	}
}

const char *
opening_area_name(opening_area_t a)
{
	static const char *const names[OAREA_COUNT] = { "-", "any", "centre", "in3", "in5", "in7",
		"in9", "out5", "out7", "offers" };
	return (unsigned)a < OAREA_COUNT ? names[a] : "?";
}

int
opening_log_append(char *log, size_t cap, int stones, const opening_act_t *a, int size)
{
	char e[8 + OPENING_MAX_OFFERS * 4], mv[4];
	size_t len = strlen(log);
	int n = 0;

	switch (a->kind) {
	case OACT_COLOUR:
		n = snprintf(e, sizeof e, "%d:c%c", stones, a->arg == STONE_BLACK ? 'b' : 'w');
		break;
	case OACT_DECLARE:
		n = snprintf(e, sizeof e, "%d:d%d", stones, a->n);
		break;
	case OACT_BRANCH:
		n = snprintf(e, sizeof e, "%d:b%s", stones, a->arg == OBRANCH_TEN ? "ten" : "one");
		break;
	case OACT_OFFER:
		if (a->n < 1 || a->n > OPENING_MAX_OFFERS)
			return -1;
		n = snprintf(e, sizeof e, "%d:o", stones);
		for (int i = 0; i < a->n; i++)
			n += snprintf(e + n, sizeof e - (size_t)n, "%s%s", i ? "," : "",
			    notation_format(a->moves[i], size, mv));
		break;
	default:
		return -1;
	}
	if (len + (len ? 1 : 0) + (size_t)n + 1 > cap)
		return -1;
	snprintf(log + len, cap - len, "%s%s", len ? " " : "", e);
	return 0;
}

/* One entry of a log, "k:act" up to a space or the end: its stone count
 * and act; -1 when it does not parse. */
static int
log_entry(const char *p, size_t len, int size, int *stones, opening_act_t *a)
{
	char buf[8 + OPENING_MAX_OFFERS * 4], *end;

	if (len == 0 || len >= sizeof buf)
		return -1;
	memcpy(buf, p, len);
	buf[len] = '\0';
	long k = strtol(buf, &end, 10);
	if (end == buf || *end != ':' || k < 0 || k > RULES_CELLS)
		return -1;
	*stones = (int)k;
	memset(a, 0, sizeof *a);
	const char *v = end + 2;
	switch (end[1]) {
	case 'c':
		if (strcmp(v, "b") && strcmp(v, "w"))
			return -1;
		a->kind = OACT_COLOUR;
		a->arg = *v == 'b' ? STONE_BLACK : STONE_WHITE;
		return 0;
	case 'd':
		k = strtol(v, &end, 10);
		if (end == v || *end || k < 1 || k > OPENING_MAX_OFFERS)
			return -1;
		a->kind = OACT_DECLARE;
		a->n = (uint8_t)k;
		return 0;
	case 'b':
		if (strcmp(v, "one") && strcmp(v, "ten"))
			return -1;
		a->kind = OACT_BRANCH;
		a->arg = strcmp(v, "ten") == 0 ? OBRANCH_TEN : OBRANCH_ONE;
		return 0;
	case 'o':
		a->kind = OACT_OFFER;
		for (char *t = (char *)v; *t;) {
			char *c = strchr(t, ',');
			if (c)
				*c = '\0';
			if (a->n == OPENING_MAX_OFFERS ||
			    notation_parse(t, size, &a->moves[a->n]) != 0)
				return -1;
			a->n++;
			t = c ? c + 1 : t + strlen(t);
		}
		return a->n ? 0 : -1;
	default:
		return -1;
	}
}

opening_err_t
opening_replay(opening_t *o, const char *log, const move_t *stones, int nstones, int *used)
{
	const char *p = log ? log : "";
	int s = 0;

	*used = 0;
	for (;;) {
		int at = RULES_CELLS + 1;
		opening_act_t a;
		size_t len = 0;
		while (*p == ' ')
			p++;
		if (*p) {
			len = strcspn(p, " ");
			if (log_entry(p, len, o->pos.size, &at, &a) != 0)
				return OERR_ARGUMENT;
		}
		/* the stones made before this entry */
		while (s < nstones && s < at && !opening_done(o)) {
			opening_err_t e = o->stage == OSTAGE_CHOOSE
			    ? opening_choose_fifth(o, o->actor, stones[s])
			    : opening_place(o, o->actor, stones[s]);
			if (e)
				return e;
			s++;
		}
		if (!*p)
			break;
		if (s != at || opening_done(o))
			return OERR_ARGUMENT;
		opening_err_t e = opening_apply(o, o->actor, &a);
		if (e)
			return e;
		p += len;
	}
	*used = s;
	return OERR_OK;
}

int
opening_allowed(const opening_t *o, move_t m)
{
	if (!on_board(&o->pos, m) || o->pos.cell[m] != STONE_EMPTY)
		return 0;
	switch (o->stage) {
	case OSTAGE_PLACE:
	case OSTAGE_SWAP_OR_PLACE:
	case OSTAGE_OFFER:
		return stone_ok(&o->pos, cur(o)->area, m) == OERR_OK;
	case OSTAGE_CHOOSE:
		for (int i = 0; i < o->noffers; i++)
			if (o->offers[i] == m)
				return 1;
		return 0;
	case OSTAGE_DONE:
		return 1;
	default:
		return 0;
	}
}

int
opening_area(const opening_t *o, move_t *out)
{
	int n = 0;
	for (int y = 0; y < o->pos.size; y++)
		for (int x = 0; x < o->pos.size; x++)
			if (opening_allowed(o, rules_move(x, y)))
				out[n++] = rules_move(x, y);
	return n;
}

/* The k-th of the 8 symmetries (as rules_transform's) of offsets from
 * the centre: x and y turn about 0. */
static void
transform(int k, int n, int x, int y, int *tx, int *ty)
{
	int a = k & 1 ? n - x : x, b = k & 2 ? n - y : y;
	*tx = k & 4 ? b : a;
	*ty = k & 4 ? a : b;
}

int
opening_symmetric(const position_t *p, move_t a, move_t b)
{
	for (int k = 0; k < 8; k++) {
		int keeps = 1;
		for (int i = 0; i < p->nmoves && keeps; i++) {
			move_t s = p->moves[i];
			keeps = p->cell[rules_transform(k, p->size, s)] == p->cell[s];
		}
		if (keeps && rules_transform(k, p->size, a) == b)
			return 1;
	}
	return 0;
}

const renju_opening_t *
renju_opening(int i)
{
	return i >= 0 && i < RENJU_OPENINGS ? &openings[i] : NULL;
}

int
renju_opening_find(const position_t *p)
{
	if (p->size % 2 == 0)
		return -1;
	int c = (p->size - 1) / 2, nblack = 0, nwhite = 0;
	int wx = 0, wy = 0, bx = 0, by = 0;
	for (int y = 0; y < p->size; y++) {
		for (int x = 0; x < p->size; x++) {
			int s = p->cell[rules_move(x, y)];
			if (s == STONE_WHITE) {
				nwhite++;
				wx = x - c, wy = y - c;
			} else if (s == STONE_BLACK && (x != c || y != c)) {
				nblack++;
				bx = x - c, by = y - c;
			}
		}
	}
	if (nwhite != 1 || nblack != 1 || p->cell[rules_move(c, c)] != STONE_BLACK)
		return -1;
	/* offsets from the centre turn as points of a board of side 1 */
	for (int i = 0; i < RENJU_OPENINGS; i++) {
		for (int k = 0; k < 8; k++) {
			int tx, ty, ux, uy;
			transform(k, 0, openings[i].wx, openings[i].wy, &tx, &ty);
			transform(k, 0, openings[i].bx, openings[i].by, &ux, &uy);
			if (tx == wx && ty == wy && ux == bx && uy == by)
				return i;
		}
	}
	return -1;
}

const char *
opening_rule_name(opening_rule_t r)
{
	return (unsigned)r < ORULE_COUNT ? rule_names[r] : "?";
}

int
opening_rule_parse(const char *s, opening_rule_t *out)
{
	for (int i = 0; i < ORULE_COUNT; i++) {
		if (strcmp(s, rule_names[i]) == 0) {
			*out = (opening_rule_t)i;
			return 0;
		}
	}
	return -1;
}

const char *
opening_stage_name(opening_stage_t s)
{
	static const char *const names[] = { "place", "swap", "swap-or-place", "declare", "offer",
		"choose", "branch", "done" };
	return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "?";
}

const char *
opening_err_name(opening_err_t e)
{
	static const char *const names[] = { "ok", "combination", "argument", "wrong-stage",
		"not-turn", "off-board", "occupied", "outside-area", "illegal", "wrong-count",
		"duplicate", "symmetric", "not-offered" };
	return (unsigned)e < sizeof names / sizeof names[0] ? names[e] : "?";
}
