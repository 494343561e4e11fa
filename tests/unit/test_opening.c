/*
 * test_opening.c: the opening rules' machines (rules/opening.h). One group
 * per rule: a legal path through every stage to the first free move of the
 * main game, and each kind of illegal act refused with its reason. Then
 * the rule/size combinations, symmetric fifth-move offers, the allowed
 * areas, and the 26 canonical renju openings in all 8 orientations.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rules/opening.h"

/* A point in notation on o's board. */
static move_t
mv(const opening_t *o, const char *s)
{
	move_t m = MOVE_NONE;
	assert_int_equal(notation_parse(s, o->pos.size, &m), 0);
	return m;
}

#define PLACE(o, who, s, want) assert_int_equal(opening_place(o, who, mv(o, s)), want)
#define COLOUR(o, who, c, want) assert_int_equal(opening_choose_colour(o, who, c), want)
#define STAGE(o, st, who)                          \
	do {                                       \
		assert_int_equal((o)->stage, st);  \
		assert_int_equal((o)->actor, who); \
	} while (0)

/* Offers given as notation, NULL-terminated. */
static opening_err_t
offer(opening_t *o, int who, const char *const *pts)
{
	move_t m[RULES_CELLS];
	int n = 0;
	while (pts[n]) {
		m[n] = mv(o, pts[n]);
		n++;
	}
	return opening_offer(o, who, m, n);
}

/* The acts that do not belong to a stage, all refused as wrong-stage by
 * the actor (and not-turn by the other player). */
static void
only_stage(opening_t *o)
{
	opening_t before = *o;
	int who = o->actor, other = 1 - who;
	move_t h = MOVE_NONE, any[1] = { 0 };
	for (int y = 0; y < o->pos.size && h == MOVE_NONE; y++)
		for (int x = 0; x < o->pos.size && h == MOVE_NONE; x++)
			if (o->pos.cell[rules_move(x, y)] == STONE_EMPTY)
				h = rules_move(x, y);
	any[0] = h;
	if (o->stage != OSTAGE_PLACE && o->stage != OSTAGE_SWAP_OR_PLACE)
		assert_int_equal(opening_place(o, who, h), OERR_WRONG_STAGE);
	if (o->stage != OSTAGE_SWAP && o->stage != OSTAGE_SWAP_OR_PLACE)
		assert_int_equal(opening_choose_colour(o, who, STONE_BLACK), OERR_WRONG_STAGE);
	if (o->stage != OSTAGE_DECLARE)
		assert_int_equal(opening_declare(o, who, 1), OERR_WRONG_STAGE);
	if (o->stage != OSTAGE_OFFER)
		assert_int_equal(opening_offer(o, who, any, 1), OERR_WRONG_STAGE);
	if (o->stage != OSTAGE_CHOOSE)
		assert_int_equal(opening_choose_fifth(o, who, h), OERR_WRONG_STAGE);
	if (o->stage != OSTAGE_BRANCH)
		assert_int_equal(opening_branch(o, who, OBRANCH_ONE), OERR_WRONG_STAGE);
	/* the other player may do nothing at all */
	assert_int_equal(opening_place(o, other, h), OERR_NOT_TURN);
	assert_int_equal(opening_choose_colour(o, other, STONE_WHITE), OERR_NOT_TURN);
	assert_int_equal(opening_declare(o, other, 1), OERR_NOT_TURN);
	assert_int_equal(opening_offer(o, other, any, 1), OERR_NOT_TURN);
	assert_int_equal(opening_choose_fifth(o, other, h), OERR_NOT_TURN);
	assert_int_equal(opening_branch(o, other, OBRANCH_TEN), OERR_NOT_TURN);
	/* nor a third one */
	assert_int_equal(opening_place(o, 2, h), OERR_ARGUMENT);
	assert_int_equal(opening_place(o, -1, h), OERR_ARGUMENT);
	assert_memory_equal(o, &before, sizeof before); /* refusals change nothing */
}

/* Once done, every act is wrong-stage, for both players. */
static void
over(opening_t *o)
{
	move_t any[1] = { 0 };
	assert_true(opening_done(o));
	assert_int_equal(o->actor, -1);
	for (int who = 0; who < 2; who++) {
		assert_int_equal(opening_place(o, who, 0), OERR_WRONG_STAGE);
		assert_int_equal(opening_choose_colour(o, who, STONE_BLACK), OERR_WRONG_STAGE);
		assert_int_equal(opening_declare(o, who, 1), OERR_WRONG_STAGE);
		assert_int_equal(opening_offer(o, who, any, 1), OERR_WRONG_STAGE);
		assert_int_equal(opening_choose_fifth(o, who, 0), OERR_WRONG_STAGE);
		assert_int_equal(opening_branch(o, who, OBRANCH_ONE), OERR_WRONG_STAGE);
	}
}

/* The player who moves next in the main game. */
static int
next_player(const opening_t *o)
{
	return opening_colour_of(o, 0) == pos_to_move(&o->pos) ? 0 : 1;
}

static void
test_combinations(void **state)
{
	(void)state;
	static const struct {
		opening_rule_t o;
		rule_t r;
		int size;
		opening_err_t want;
	} cases[] = {
		{ ORULE_NONE, RULE_FREESTYLE, 15, OERR_OK },
		{ ORULE_NONE, RULE_STANDARD, 20, OERR_OK },
		{ ORULE_NONE, RULE_RENJU, 15, OERR_OK },
		{ ORULE_NONE, RULE_RENJU, 19, OERR_OK },
		{ ORULE_NONE, RULE_RENJU, 16, OERR_COMBINATION }, /* no centre */
		{ ORULE_SWAP2, RULE_FREESTYLE, 15, OERR_OK },
		{ ORULE_SWAP2, RULE_STANDARD, 20, OERR_OK },
		{ ORULE_SWAP2, RULE_RENJU, 15, OERR_COMBINATION },
		{ ORULE_SWAP, RULE_STANDARD, 10, OERR_OK },
		{ ORULE_SWAP, RULE_RENJU, 15, OERR_COMBINATION },
		{ ORULE_PRO, RULE_FREESTYLE, 15, OERR_OK },
		{ ORULE_PRO, RULE_STANDARD, 7, OERR_OK },
		{ ORULE_PRO, RULE_FREESTYLE, 5, OERR_COMBINATION }, /* nothing outside 5x5 */
		{ ORULE_PRO, RULE_FREESTYLE, 16, OERR_COMBINATION },
		{ ORULE_PRO, RULE_RENJU, 15, OERR_COMBINATION },
		{ ORULE_LONGPRO, RULE_STANDARD, 19, OERR_OK },
		{ ORULE_LONGPRO, RULE_FREESTYLE, 9, OERR_OK },
		{ ORULE_LONGPRO, RULE_FREESTYLE, 7, OERR_COMBINATION },
		{ ORULE_LONGPRO, RULE_FREESTYLE, 20, OERR_COMBINATION },
		{ ORULE_RIF, RULE_RENJU, 15, OERR_OK },
		{ ORULE_RIF, RULE_RENJU, 19, OERR_COMBINATION },
		{ ORULE_RIF, RULE_FREESTYLE, 15, OERR_COMBINATION },
		{ ORULE_YAMAGUCHI, RULE_RENJU, 15, OERR_OK },
		{ ORULE_YAMAGUCHI, RULE_RENJU, 13, OERR_COMBINATION },
		{ ORULE_YAMAGUCHI, RULE_STANDARD, 15, OERR_COMBINATION },
		{ ORULE_TARAGUCHI10, RULE_RENJU, 15, OERR_OK },
		{ ORULE_TARAGUCHI10, RULE_RENJU, 17, OERR_COMBINATION },
		{ ORULE_TARAGUCHI10, RULE_FREESTYLE, 15, OERR_COMBINATION },
		{ ORULE_SOOSORV8, RULE_RENJU, 15, OERR_OK },
		{ ORULE_SOOSORV8, RULE_RENJU, 11, OERR_COMBINATION },
		{ ORULE_SOOSORV8, RULE_STANDARD, 15, OERR_COMBINATION },
		{ ORULE_NONE, RULE_FREESTYLE, 4, OERR_COMBINATION },
		{ ORULE_NONE, RULE_FREESTYLE, 21, OERR_COMBINATION },
		{ ORULE_COUNT, RULE_FREESTYLE, 15, OERR_COMBINATION },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		opening_t o;
		assert_int_equal(
		    opening_combination(cases[i].o, cases[i].r, cases[i].size), cases[i].want);
		assert_int_equal(
		    opening_init(&o, cases[i].o, cases[i].r, cases[i].size), cases[i].want);
	}
	/* names, both ways */
	for (int i = 0; i < ORULE_COUNT; i++) {
		opening_rule_t r;
		assert_int_equal(opening_rule_parse(opening_rule_name((opening_rule_t)i), &r), 0);
		assert_int_equal(r, i);
	}
	opening_rule_t r;
	assert_int_equal(opening_rule_parse("soosorv8", &r), 0);
	assert_int_equal(r, ORULE_SOOSORV8);
	assert_int_equal(opening_rule_parse("taraguchi10", &r), 0);
	assert_int_equal(r, ORULE_TARAGUCHI10);
	assert_int_equal(opening_rule_parse("Swap2", &r), -1);
	assert_string_equal(opening_err_name(OERR_SYMMETRIC), "symmetric");
	assert_string_equal(opening_stage_name(OSTAGE_CHOOSE), "choose");
}

static void
test_none(void **state)
{
	(void)state;
	opening_t o;
	move_t area[RULES_CELLS];
	/* gomoku: nothing to do, black (player 0) moves first */
	assert_int_equal(opening_init(&o, ORULE_NONE, RULE_FREESTYLE, 15), OERR_OK);
	over(&o);
	assert_int_equal(next_player(&o), 0);
	assert_int_equal(opening_area(&o, area), 225);
	/* renju: black's first stone on the centre */
	assert_int_equal(opening_init(&o, ORULE_NONE, RULE_RENJU, 15), OERR_OK);
	STAGE(&o, OSTAGE_PLACE, 0);
	only_stage(&o);
	assert_int_equal(opening_area(&o, area), 1);
	assert_int_equal(area[0], mv(&o, "h8"));
	PLACE(&o, 0, "a1", OERR_OUTSIDE_AREA);
	PLACE(&o, 0, "h9", OERR_OUTSIDE_AREA);
	assert_int_equal(opening_place(&o, 0, rules_move(15, 0)), OERR_OFF_BOARD);
	assert_int_equal(opening_place(&o, 0, MOVE_NONE), OERR_OFF_BOARD);
	PLACE(&o, 0, "h8", OERR_OK);
	over(&o);
	assert_int_equal(o.swaps, 0);
	assert_int_equal(next_player(&o), 1);
	/* on 19x19 the centre is k10 */
	assert_int_equal(opening_init(&o, ORULE_NONE, RULE_RENJU, 19), OERR_OK);
	PLACE(&o, 0, "h8", OERR_OUTSIDE_AREA);
	PLACE(&o, 0, "j10", OERR_OK);
	over(&o);
}

static void
pro_path(opening_rule_t rule, int size, const char *inner, const char *outer)
{
	opening_t o;
	move_t area[RULES_CELLS];
	assert_int_equal(opening_init(&o, rule, RULE_STANDARD, size), OERR_OK);
	STAGE(&o, OSTAGE_PLACE, 0);
	only_stage(&o);
	PLACE(&o, 0, "a1", OERR_OUTSIDE_AREA);
	int c = (size - 1) / 2;
	assert_int_equal(opening_place(&o, 0, rules_move(c, c)), OERR_OK);
	/* white's first anywhere */
	STAGE(&o, OSTAGE_PLACE, 1);
	only_stage(&o);
	assert_int_equal(opening_place(&o, 1, rules_move(c, c)), OERR_OCCUPIED);
	assert_int_equal(opening_area(&o, area), size * size - 1);
	PLACE(&o, 1, "a1", OERR_OK);
	/* black's second away from the centre */
	STAGE(&o, OSTAGE_PLACE, 0);
	only_stage(&o);
	PLACE(&o, 0, inner, OERR_OUTSIDE_AREA);
	PLACE(&o, 0, "a1", OERR_OCCUPIED);
	int r = rule == ORULE_PRO ? 2 : 3; /* the half side of the forbidden square */
	assert_int_equal(opening_area(&o, area), size * size - (2 * r + 1) * (2 * r + 1) - 1);
	PLACE(&o, 0, outer, OERR_OK);
	over(&o);
	assert_int_equal(o.swaps, 0);
	assert_int_equal(o.black, 0);
	assert_int_equal(next_player(&o), 1);
	assert_int_equal(o.pos.nmoves, 3);
}

static void
test_pro(void **state)
{
	(void)state;
	pro_path(ORULE_PRO, 15, "j10", "k11");     /* two from h8, then three */
	pro_path(ORULE_PRO, 15, "f8", "e8");       /* along a line */
	pro_path(ORULE_PRO, 7, "e5", "g7");        /* centre d4: e5 is one away, g7 three */
	pro_path(ORULE_LONGPRO, 15, "k11", "l12"); /* three away is too near */
	pro_path(ORULE_LONGPRO, 15, "h5", "h4");
	pro_path(ORULE_LONGPRO, 9, "h8", "i9"); /* centre e5 */
}

static void
three_anywhere(opening_t *o)
{
	STAGE(o, OSTAGE_PLACE, 0);
	only_stage(o);
	PLACE(o, 0, "a1", OERR_OK);
	STAGE(o, OSTAGE_PLACE, 0); /* the opener places white's stone too */
	only_stage(o);
	PLACE(o, 0, "a1", OERR_OCCUPIED);
	PLACE(o, 0, "o15", OERR_OK);
	STAGE(o, OSTAGE_PLACE, 0);
	PLACE(o, 0, "c3", OERR_OK);
	assert_int_equal(o->pos.cell[mv(o, "a1")], STONE_BLACK);
	assert_int_equal(o->pos.cell[mv(o, "o15")], STONE_WHITE);
	assert_int_equal(o->pos.cell[mv(o, "c3")], STONE_BLACK);
}

static void
test_swap(void **state)
{
	(void)state;
	opening_t o;
	for (int swap = 0; swap < 2; swap++) {
		assert_int_equal(opening_init(&o, ORULE_SWAP, RULE_FREESTYLE, 15), OERR_OK);
		three_anywhere(&o);
		STAGE(&o, OSTAGE_SWAP, 1);
		only_stage(&o);
		COLOUR(&o, 1, STONE_EMPTY, OERR_ARGUMENT);
		COLOUR(&o, 1, swap ? STONE_BLACK : STONE_WHITE, OERR_OK);
		over(&o);
		assert_int_equal(o.swaps, swap);
		assert_int_equal(o.black, swap);
		assert_int_equal(opening_colour_of(&o, 1), swap ? STONE_BLACK : STONE_WHITE);
		/* white plays the fourth */
		assert_int_equal(pos_to_move(&o.pos), STONE_WHITE);
		assert_int_equal(next_player(&o), swap ? 0 : 1);
	}
}

static void
test_swap2(void **state)
{
	(void)state;
	opening_t o;
	move_t area[RULES_CELLS];
	/* the other player takes a colour at once (as room.c's SWAP2_CHOOSE) */
	for (int swap = 0; swap < 2; swap++) {
		assert_int_equal(opening_init(&o, ORULE_SWAP2, RULE_STANDARD, 15), OERR_OK);
		three_anywhere(&o);
		STAGE(&o, OSTAGE_SWAP_OR_PLACE, 1);
		only_stage(&o);
		assert_int_equal(opening_area(&o, area), 222);
		COLOUR(&o, 1, swap ? STONE_BLACK : STONE_WHITE, OERR_OK);
		over(&o);
		assert_int_equal(o.swaps, swap);
		assert_int_equal(o.pos.nmoves, 3);
		assert_int_equal(next_player(&o), swap ? 0 : 1);
	}
	/* or places two more, white then black, and the opener takes a colour */
	for (int swap = 0; swap < 2; swap++) {
		assert_int_equal(opening_init(&o, ORULE_SWAP2, RULE_FREESTYLE, 15), OERR_OK);
		three_anywhere(&o);
		PLACE(&o, 1, "c3", OERR_OCCUPIED);
		PLACE(&o, 1, "h8", OERR_OK);
		STAGE(&o, OSTAGE_PLACE, 1);
		only_stage(&o); /* half way no colour may be chosen */
		PLACE(&o, 1, "h9", OERR_OK);
		assert_int_equal(o.pos.cell[mv(&o, "h8")], STONE_WHITE);
		assert_int_equal(o.pos.cell[mv(&o, "h9")], STONE_BLACK);
		STAGE(&o, OSTAGE_SWAP, 0);
		only_stage(&o);
		COLOUR(&o, 0, STONE_WHITE + 1, OERR_ARGUMENT);
		COLOUR(&o, 0, swap ? STONE_WHITE : STONE_BLACK, OERR_OK);
		over(&o);
		assert_int_equal(o.swaps, swap);
		assert_int_equal(o.black, swap);
		assert_int_equal(o.pos.nmoves, 5);
		assert_int_equal(pos_to_move(&o.pos), STONE_WHITE);
		assert_int_equal(next_player(&o), swap ? 0 : 1);
	}
}

/* The first three stones of a renju rule that places one of the 26
 * openings, with the areas refused on the way. */
static void
renju_three(opening_t *o, const char *w, const char *b)
{
	move_t area[RULES_CELLS];
	STAGE(o, OSTAGE_PLACE, 0);
	only_stage(o);
	assert_int_equal(opening_area(o, area), 1);
	PLACE(o, 0, "h9", OERR_OUTSIDE_AREA);
	PLACE(o, 0, "h8", OERR_OK);
	STAGE(o, OSTAGE_PLACE, 0);
	only_stage(o);
	assert_int_equal(opening_area(o, area), 8);
	PLACE(o, 0, "h10", OERR_OUTSIDE_AREA);
	PLACE(o, 0, "j10", OERR_OUTSIDE_AREA);
	PLACE(o, 0, "h8", OERR_OCCUPIED);
	PLACE(o, 0, w, OERR_OK);
	STAGE(o, OSTAGE_PLACE, 0);
	only_stage(o);
	assert_int_equal(opening_area(o, area), 23);
	PLACE(o, 0, "k8", OERR_OUTSIDE_AREA);
	PLACE(o, 0, "e5", OERR_OUTSIDE_AREA);
	PLACE(o, 0, w, OERR_OCCUPIED);
	assert_int_equal(o->canon, -1);
	PLACE(o, 0, b, OERR_OK);
}

static void
test_rif(void **state)
{
	(void)state;
	opening_t o;
	move_t area[RULES_CELLS];
	assert_int_equal(opening_init(&o, ORULE_RIF, RULE_RENJU, 15), OERR_OK);
	renju_three(&o, "h9", "h10");
	assert_string_equal(renju_opening(o.canon)->name, "Kansei");
	/* the tentative white swaps */
	STAGE(&o, OSTAGE_SWAP, 1);
	only_stage(&o);
	COLOUR(&o, 1, STONE_BLACK, OERR_OK);
	assert_int_equal(o.black, 1);
	assert_int_equal(o.swaps, 1);
	/* white (now player 0) places the fourth anywhere */
	STAGE(&o, OSTAGE_PLACE, 0);
	only_stage(&o);
	assert_int_equal(opening_area(&o, area), 222);
	PLACE(&o, 0, "h7", OERR_OK);
	/* black offers two fifth moves: h8-h9-h10-h7 are symmetric left to right */
	STAGE(&o, OSTAGE_OFFER, 1);
	assert_int_equal(o.declared, 2);
	only_stage(&o);
	assert_int_equal(offer(&o, 1, (const char *[]){ "i8", NULL }), OERR_WRONG_COUNT);
	assert_int_equal(
	    offer(&o, 1, (const char *[]){ "i8", "j8", "k8", NULL }), OERR_WRONG_COUNT);
	assert_int_equal(offer(&o, 1, (const char *[]){ "i8", "g8", NULL }), OERR_SYMMETRIC);
	assert_int_equal(offer(&o, 1, (const char *[]){ "f12", "j12", NULL }), OERR_SYMMETRIC);
	assert_int_equal(offer(&o, 1, (const char *[]){ "i8", "i8", NULL }), OERR_DUPLICATE);
	assert_int_equal(offer(&o, 1, (const char *[]){ "i8", "h9", NULL }), OERR_OCCUPIED);
	move_t off[2] = { mv(&o, "i8"), rules_move(16, 3) };
	assert_int_equal(opening_offer(&o, 1, off, 2), OERR_OFF_BOARD);
	assert_int_equal(o.noffers, 0); /* all or nothing */
	assert_int_equal(offer(&o, 1, (const char *[]){ "i8", "g9", NULL }), OERR_OK);
	assert_int_equal(o.noffers, 2);
	/* white chooses one */
	STAGE(&o, OSTAGE_CHOOSE, 0);
	only_stage(&o);
	assert_int_equal(opening_area(&o, area), 2);
	assert_true(opening_allowed(&o, mv(&o, "g9")));
	assert_false(opening_allowed(&o, mv(&o, "g8")));
	assert_int_equal(opening_choose_fifth(&o, 0, mv(&o, "g8")), OERR_NOT_OFFERED);
	assert_int_equal(opening_choose_fifth(&o, 0, mv(&o, "g9")), OERR_OK);
	over(&o);
	assert_int_equal(o.chosen, mv(&o, "g9"));
	assert_int_equal(o.pos.cell[mv(&o, "g9")], STONE_BLACK);
	assert_int_equal(o.pos.cell[mv(&o, "i8")], STONE_EMPTY);
	assert_int_equal(o.pos.nmoves, 5);
	assert_int_equal(next_player(&o), 0); /* white plays the sixth */
}

static void
test_yamaguchi(void **state)
{
	(void)state;
	opening_t o;
	int lo, hi;
	assert_int_equal(opening_init(&o, ORULE_YAMAGUCHI, RULE_RENJU, 15), OERR_OK);
	renju_three(&o, "i9", "f6");
	assert_string_equal(renju_opening(o.canon)->name, "Suisei");
	/* the tentative black declares the number of offers */
	STAGE(&o, OSTAGE_DECLARE, 0);
	only_stage(&o);
	opening_declare_range(&o, &lo, &hi);
	assert_int_equal(lo, 1);
	assert_int_equal(hi, OPENING_MAX_OFFERS);
	assert_int_equal(opening_declare(&o, 0, 0), OERR_WRONG_COUNT);
	assert_int_equal(opening_declare(&o, 0, OPENING_MAX_OFFERS + 1), OERR_WRONG_COUNT);
	assert_int_equal(opening_declare(&o, 0, 3), OERR_OK);
	assert_int_equal(o.declared, 3);
	/* the tentative white stays white */
	STAGE(&o, OSTAGE_SWAP, 1);
	only_stage(&o);
	opening_declare_range(&o, &lo, &hi);
	assert_int_equal(hi, 0);
	COLOUR(&o, 1, STONE_WHITE, OERR_OK);
	assert_int_equal(o.swaps, 0);
	STAGE(&o, OSTAGE_PLACE, 1);
	only_stage(&o);
	PLACE(&o, 1, "a15", OERR_OK);
	STAGE(&o, OSTAGE_OFFER, 0);
	only_stage(&o);
	assert_int_equal(offer(&o, 0, (const char *[]){ "i8", "j8", NULL }), OERR_WRONG_COUNT);
	assert_int_equal(offer(&o, 0, (const char *[]){ "i8", "j8", "a15", NULL }), OERR_OCCUPIED);
	assert_int_equal(offer(&o, 0, (const char *[]){ "i8", "j8", "k8", NULL }), OERR_OK);
	STAGE(&o, OSTAGE_CHOOSE, 1);
	only_stage(&o);
	assert_int_equal(opening_choose_fifth(&o, 1, mv(&o, "l8")), OERR_NOT_OFFERED);
	assert_int_equal(opening_choose_fifth(&o, 1, mv(&o, "k8")), OERR_OK);
	over(&o);
	assert_int_equal(o.pos.nmoves, 5);
	assert_int_equal(next_player(&o), 1);
}

static void
test_soosorv8(void **state)
{
	(void)state;
	opening_t o;
	int lo, hi;
	assert_int_equal(opening_init(&o, ORULE_SOOSORV8, RULE_RENJU, 15), OERR_OK);
	renju_three(&o, "g8", "g9"); /* Kagetsu turned a quarter */
	assert_string_equal(renju_opening(o.canon)->code, "D4");
	STAGE(&o, OSTAGE_SWAP, 1);
	only_stage(&o);
	COLOUR(&o, 1, STONE_BLACK, OERR_OK);
	/* white (player 0) places the fourth and declares */
	STAGE(&o, OSTAGE_PLACE, 0);
	only_stage(&o);
	PLACE(&o, 0, "o1", OERR_OK);
	STAGE(&o, OSTAGE_DECLARE, 0);
	only_stage(&o);
	opening_declare_range(&o, &lo, &hi);
	assert_int_equal(lo, 1);
	assert_int_equal(hi, 8);
	assert_int_equal(opening_declare(&o, 0, 9), OERR_WRONG_COUNT);
	assert_int_equal(opening_declare(&o, 0, 0), OERR_WRONG_COUNT);
	assert_int_equal(opening_declare(&o, 0, 2), OERR_OK);
	/* black (player 1) may swap again: swaps back */
	STAGE(&o, OSTAGE_SWAP, 1);
	only_stage(&o);
	COLOUR(&o, 1, STONE_WHITE, OERR_OK);
	assert_int_equal(o.swaps, 2);
	assert_int_equal(o.black, 0);
	STAGE(&o, OSTAGE_OFFER, 0);
	only_stage(&o);
	assert_int_equal(offer(&o, 0, (const char *[]){ "j8", NULL }), OERR_WRONG_COUNT);
	assert_int_equal(offer(&o, 0, (const char *[]){ "j8", "j10", NULL }), OERR_OK);
	STAGE(&o, OSTAGE_CHOOSE, 1);
	only_stage(&o);
	assert_int_equal(opening_choose_fifth(&o, 1, mv(&o, "j10")), OERR_OK);
	over(&o);
	assert_int_equal(next_player(&o), 1);
}

/* Taraguchi-10 up to its branch: one stone at a time, a swap after each. */
static void
taraguchi_four(opening_t *o)
{
	move_t area[RULES_CELLS];
	assert_int_equal(opening_init(o, ORULE_TARAGUCHI10, RULE_RENJU, 15), OERR_OK);
	STAGE(o, OSTAGE_PLACE, 0);
	only_stage(o);
	PLACE(o, 0, "h9", OERR_OUTSIDE_AREA);
	PLACE(o, 0, "h8", OERR_OK);
	STAGE(o, OSTAGE_SWAP, 1);
	only_stage(o);
	COLOUR(o, 1, STONE_WHITE, OERR_OK); /* stays */
	STAGE(o, OSTAGE_PLACE, 1);
	only_stage(o);
	PLACE(o, 1, "j10", OERR_OUTSIDE_AREA);
	PLACE(o, 1, "i9", OERR_OK);
	STAGE(o, OSTAGE_SWAP, 0);
	only_stage(o);
	COLOUR(o, 0, STONE_WHITE, OERR_OK); /* swaps: player 1 is black */
	assert_int_equal(o->black, 1);
	STAGE(o, OSTAGE_PLACE, 1);
	only_stage(o);
	assert_int_equal(opening_area(o, area), 23);
	PLACE(o, 1, "k11", OERR_OUTSIDE_AREA);
	PLACE(o, 1, "j10", OERR_OK);
	assert_string_equal(renju_opening(o->canon)->name, "Chosei");
	STAGE(o, OSTAGE_SWAP, 0);
	only_stage(o);
	COLOUR(o, 0, STONE_WHITE, OERR_OK); /* stays */
	STAGE(o, OSTAGE_PLACE, 0);
	only_stage(o);
	assert_int_equal(opening_area(o, area), 49 - 3);
	PLACE(o, 0, "l12", OERR_OUTSIDE_AREA);
	PLACE(o, 0, "g7", OERR_OK);
	/* black chooses the branch */
	STAGE(o, OSTAGE_BRANCH, 1);
	only_stage(o);
	assert_int_equal(opening_area(o, area), 0);
	assert_int_equal(opening_branch(o, 1, (opening_branch_t)2), OERR_ARGUMENT);
	assert_int_equal(o->swaps, 1);
}

static void
test_taraguchi10(void **state)
{
	(void)state;
	opening_t o;
	move_t area[RULES_CELLS];
	/* one fifth move in the central 9x9, a swap before and after it */
	taraguchi_four(&o);
	assert_int_equal(opening_branch(&o, 1, OBRANCH_ONE), OERR_OK);
	assert_int_equal(o.branch, OBRANCH_ONE);
	STAGE(&o, OSTAGE_SWAP, 1);
	only_stage(&o);
	COLOUR(&o, 1, STONE_BLACK, OERR_OK); /* stays black */
	STAGE(&o, OSTAGE_PLACE, 1);
	only_stage(&o);
	assert_int_equal(opening_area(&o, area), 81 - 4);
	PLACE(&o, 1, "m13", OERR_OUTSIDE_AREA);
	PLACE(&o, 1, "d4", OERR_OK);
	STAGE(&o, OSTAGE_SWAP, 0);
	only_stage(&o);
	COLOUR(&o, 0, STONE_BLACK, OERR_OK); /* swaps */
	over(&o);
	assert_int_equal(o.swaps, 2);
	assert_int_equal(o.black, 0);
	assert_int_equal(o.pos.nmoves, 5);
	assert_int_equal(next_player(&o), 1);
	assert_int_equal(o.declared, 0);

	/* ten fifth moves offered anywhere; white chooses one, no swap */
	taraguchi_four(&o);
	assert_int_equal(opening_branch(&o, 1, OBRANCH_TEN), OERR_OK);
	STAGE(&o, OSTAGE_OFFER, 1);
	assert_int_equal(o.declared, 10);
	only_stage(&o);
	static const char *const ten[] = { "a15", "b15", "c15", "d15", "e15", "f15", "g15", "a14",
		"b14", "c14", NULL };
	assert_int_equal(offer(&o, 1, ten + 1), OERR_WRONG_COUNT);
	/* h8 i9 j10 g7 lie on one diagonal: i8 and h9 mirror each other */
	assert_int_equal(offer(&o, 1,
			     (const char *[]){ "i8", "b15", "c15", "d15", "e15", "f15", "g15",
				 "a14", "b14", "h9", NULL }),
	    OERR_SYMMETRIC);
	assert_int_equal(offer(&o, 1,
			     (const char *[]){ "a1", "b15", "c15", "d15", "e15", "f15", "g15",
				 "a14", "b14", "o15", NULL }),
	    OERR_OK); /* a1 and o15 lie on the mirror's axis: not the same point */
	STAGE(&o, OSTAGE_CHOOSE, 0);
	only_stage(&o);
	assert_int_equal(opening_choose_fifth(&o, 0, mv(&o, "c15")), OERR_OK);
	over(&o);
	assert_int_equal(o.branch, OBRANCH_TEN);
	assert_int_equal(o.swaps, 1);
	assert_int_equal(next_player(&o), 0);
	(void)ten;
}

static void
test_symmetry(void **state)
{
	(void)state;
	position_t p;
	pos_init(&p, RULE_RENJU, 15);
	move_t a1, o15, a2, h8, i9;
	notation_parse("a1", 15, &a1);
	notation_parse("o15", 15, &o15);
	notation_parse("a2", 15, &a2);
	notation_parse("h8", 15, &h8);
	notation_parse("i9", 15, &i9);
	/* an empty board has all 8 symmetries */
	assert_true(opening_symmetric(&p, a1, o15));
	assert_true(opening_symmetric(&p, a2, rules_move(1, 14)));
	assert_false(opening_symmetric(&p, a1, a2));
	pos_place(&p, h8);
	assert_true(opening_symmetric(&p, a1, o15));
	pos_place(&p, i9);
	/* white on i9 leaves only the mirror through h8 and i9 */
	assert_false(opening_symmetric(&p, a1, o15));
	assert_true(opening_symmetric(&p, a1, a1));
	move_t g8, h7, j8, h10;
	notation_parse("g8", 15, &g8);
	notation_parse("h7", 15, &h7);
	notation_parse("j8", 15, &j8);
	notation_parse("h10", 15, &h10);
	assert_true(opening_symmetric(&p, g8, h7));
	assert_true(opening_symmetric(&p, j8, h10));
	assert_false(opening_symmetric(&p, g8, j8));
	/* h8 i9 j8 g7 f8: only the half turn keeps them */
	move_t g7, f8, a15, i7;
	notation_parse("g7", 15, &g7);
	notation_parse("f8", 15, &f8);
	notation_parse("a15", 15, &a15);
	notation_parse("i7", 15, &i7);
	pos_place(&p, j8);
	pos_place(&p, g7);
	pos_place(&p, f8);
	assert_true(opening_symmetric(&p, a1, o15));
	assert_true(opening_symmetric(&p, i7, rules_move(6, 6))); /* g9 */
	assert_false(opening_symmetric(&p, a1, a15));
	assert_false(opening_symmetric(&p, g8, h7));
	/* on an even board the symmetries turn about the middle of four points */
	pos_init(&p, RULE_FREESTYLE, 10);
	pos_place(&p, rules_move(4, 4));
	assert_true(opening_symmetric(&p, rules_move(0, 0), rules_move(0, 0)));
	assert_false(opening_symmetric(&p, rules_move(0, 0), rules_move(9, 9)));
	assert_true(opening_symmetric(&p, rules_move(0, 1), rules_move(1, 0))); /* the diagonal */
	assert_true(opening_symmetric(&p, rules_move(9, 8), rules_move(8, 9)));
}

/* The 8 symmetries of offsets from the centre, written out. */
static const int turns[8][4] = {
	{ 1, 0, 0, 1 },
	{ 0, -1, 1, 0 },
	{ -1, 0, 0, -1 },
	{ 0, 1, -1, 0 },
	{ -1, 0, 0, 1 },
	{ 1, 0, 0, -1 },
	{ 0, 1, 1, 0 },
	{ 0, -1, -1, 0 },
};

static void
three(position_t *p, int size, int wx, int wy, int bx, int by)
{
	int c = (size - 1) / 2;
	pos_init(p, RULE_RENJU, size);
	pos_place(p, rules_move(c, c));
	pos_place(p, rules_move(c + wx, c + wy));
	pos_place(p, rules_move(c + bx, c + by));
}

static void
test_openings(void **state)
{
	(void)state;
	position_t p;
	/* the table: 13 direct (white orthogonal), 13 indirect, all names apart */
	for (int i = 0; i < RENJU_OPENINGS; i++) {
		const renju_opening_t *op = renju_opening(i);
		char code[4];
		snprintf(code, sizeof code, "%c%d", i < 13 ? 'D' : 'I', i % 13 + 1);
		assert_string_equal(op->code, code);
		assert_int_equal(op->wx != 0 && op->wy != 0, i >= 13);
		for (int j = 0; j < i; j++)
			assert_string_not_equal(op->name, renju_opening(j)->name);
	}
	assert_null(renju_opening(RENJU_OPENINGS));
	assert_null(renju_opening(-1));
	/* by hand, in the usual orientation (h8 black, h9 or i9 white) */
	static const struct {
		const char *w, *b, *name;
	} known[] = {
		{ "h9", "h10", "Kansei" }, { "h9", "i9", "Kagetsu" }, { "h9", "j10", "Sosei" },
		{ "h9", "h6", "Zuisei" }, { "h9", "j6", "Yusei" }, { "i9", "j10", "Chosei" },
		{ "i9", "i8", "Ungetsu" }, { "i9", "g7", "Shagetsu" }, { "i9", "f6", "Suisei" },
		{ "i9", "h7", "Gingetsu" }, { "g8", "g9", "Kagetsu" }, /* turned a quarter */
		{ "g7", "i9", "Shagetsu" },                            /* turned a half */
		{ "g7", "j10", "Suisei" }, { "h7", "h9", "Shogetsu" }, /* upside down */
	};
	for (size_t k = 0; k < sizeof known / sizeof known[0]; k++) {
		move_t h8, w, b;
		notation_parse("h8", 15, &h8);
		notation_parse(known[k].w, 15, &w);
		notation_parse(known[k].b, 15, &b);
		pos_init(&p, RULE_RENJU, 15);
		pos_place(&p, h8);
		pos_place(&p, w);
		pos_place(&p, b);
		int i = renju_opening_find(&p);
		assert_true(i >= 0);
		assert_string_equal(renju_opening(i)->name, known[k].name);
	}
	/* every opening in every orientation, and every (white, third) pair
	 * of the 3x3 and 5x5 is exactly one of them */
	int seen[5][5][5][5] = { { { { 0 } } } };
	int count = 0;
	for (int i = 0; i < RENJU_OPENINGS; i++) {
		const renju_opening_t *op = renju_opening(i);
		for (int k = 0; k < 8; k++) {
			const int *t = turns[k];
			int wx = t[0] * op->wx + t[1] * op->wy, wy = t[2] * op->wx + t[3] * op->wy;
			int bx = t[0] * op->bx + t[1] * op->by, by = t[2] * op->bx + t[3] * op->by;
			three(&p, 15, wx, wy, bx, by);
			assert_int_equal(renju_opening_find(&p), i);
			three(&p, 19, wx, wy, bx, by); /* any board with a centre */
			assert_int_equal(renju_opening_find(&p), i);
			int *s = &seen[wx + 2][wy + 2][bx + 2][by + 2];
			if (!*s) {
				*s = i + 1;
				count++;
			}
			assert_int_equal(*s, i + 1); /* no two openings share a pattern */
		}
	}
	assert_int_equal(count, 8 * 23);
	for (int wx = -1; wx <= 1; wx++)
		for (int wy = -1; wy <= 1; wy++)
			for (int bx = -2; bx <= 2; bx++)
				for (int by = -2; by <= 2; by++) {
					if ((wx == 0 && wy == 0) || (bx == 0 && by == 0) ||
					    (bx == wx && by == wy))
						continue;
					assert_true(seen[wx + 2][wy + 2][bx + 2][by + 2]);
				}
	/* and nothing else */
	three(&p, 15, 0, -1, 3, 0); /* third stone outside the 5x5 */
	assert_int_equal(renju_opening_find(&p), -1);
	three(&p, 15, 0, -2, 1, 1); /* white not next to the centre */
	assert_int_equal(renju_opening_find(&p), -1);
	three(&p, 15, 2, 2, 1, 1);
	assert_int_equal(renju_opening_find(&p), -1);
	pos_init(&p, RULE_RENJU, 15); /* the first stone off the centre */
	pos_place(&p, rules_move(8, 8));
	pos_place(&p, rules_move(8, 7));
	pos_place(&p, rules_move(8, 6));
	assert_int_equal(renju_opening_find(&p), -1);
	three(&p, 15, 0, -1, 1, -1); /* colours the other way round */
	for (int i = 0; i < RULES_CELLS; i++)
		if (p.cell[i] != STONE_EMPTY)
			p.cell[i] = p.cell[i] == STONE_BLACK ? STONE_WHITE : STONE_BLACK;
	assert_int_equal(renju_opening_find(&p), -1);
	three(&p, 15, 0, -1, 1, -1); /* a fourth stone */
	pos_place(&p, rules_move(1, 1));
	assert_int_equal(renju_opening_find(&p), -1);
	three(&p, 15, 0, -1, 1, -1); /* two stones */
	pos_undo(&p);
	assert_int_equal(renju_opening_find(&p), -1);
	pos_init(&p, RULE_RENJU, 16); /* no centre */
	pos_place(&p, rules_move(7, 7));
	pos_place(&p, rules_move(7, 6));
	pos_place(&p, rules_move(8, 6));
	assert_int_equal(renju_opening_find(&p), -1);
}

/* An act from notation: "p:h8" place, "c:b" colour, "d:5" declare,
 * "o:h10,j10" offer, "x:h10" choose, "b:ten" branch. */
static opening_act_t
act(const opening_t *o, const char *s)
{
	opening_act_t a;
	char buf[64];
	memset(&a, 0, sizeof a);
	snprintf(buf, sizeof buf, "%s", s + 2);
	switch (s[0]) {
	case 'p':
	case 'x':
		a.kind = s[0] == 'p' ? OACT_PLACE : OACT_CHOOSE;
		a.moves[0] = mv(o, buf);
		break;
	case 'c':
		a.kind = OACT_COLOUR;
		a.arg = buf[0] == 'b' ? STONE_BLACK : STONE_WHITE;
		break;
	case 'd':
		a.kind = OACT_DECLARE;
		a.n = (uint8_t)atoi(buf);
		break;
	case 'b':
		a.kind = OACT_BRANCH;
		a.arg = strcmp(buf, "ten") == 0 ? OBRANCH_TEN : OBRANCH_ONE;
		break;
	default:
		a.kind = OACT_OFFER;
		for (char *t = strtok(buf, ","); t; t = strtok(NULL, ","))
			a.moves[a.n++] = mv(o, t);
	}
	return a;
}

/* Plays a script of acts through opening_apply, keeping the store's log;
 * after every act a replay of the log and the stones so far gives the
 * same machine, and a corrupt log is refused. */
static void
replay_path(opening_rule_t rule, const char *const *acts, int game_stones)
{
	opening_t o, r;
	char log[OPENING_LOG_MAX] = "";
	move_t stones[RULES_CELLS];
	int n = 0, used;

	assert_int_equal(opening_init(&o, rule, RULE_RENJU, 15), OERR_OK);
	for (int i = 0; acts[i]; i++) {
		opening_act_t a = act(&o, acts[i]);
		assert_int_equal(opening_apply(&o, o.actor, &a), OERR_OK);
		if (opening_act_stone(&a))
			stones[n++] = a.moves[0];
		else
			assert_int_equal(opening_log_append(log, sizeof log, n, &a, 15), 0);
		assert_int_equal(opening_init(&r, rule, RULE_RENJU, 15), OERR_OK);
		assert_int_equal(opening_replay(&r, log, stones, n, &used), OERR_OK);
		assert_int_equal(used, n);
		assert_memory_equal(&r, &o, sizeof o);
	}
	assert_true(opening_done(&o));
	/* the game's own stones after the opening are not the opening's */
	for (int i = 0; i < game_stones; i++)
		stones[n + i] = rules_move(i, 0);
	assert_int_equal(opening_init(&r, rule, RULE_RENJU, 15), OERR_OK);
	assert_int_equal(opening_replay(&r, log, stones, n + game_stones, &used), OERR_OK);
	assert_int_equal(used, n);
	assert_memory_equal(&r, &o, sizeof o);
	/* an entry out of place, or garbage, is refused */
	char bad[OPENING_LOG_MAX + 8];
	snprintf(bad, sizeof bad, "%s 0:cb", log);
	assert_int_equal(opening_init(&r, rule, RULE_RENJU, 15), OERR_OK);
	assert_int_not_equal(opening_replay(&r, bad, stones, n, &used), OERR_OK);
	assert_int_equal(opening_init(&r, rule, RULE_RENJU, 15), OERR_OK);
	assert_int_equal(opening_replay(&r, "3:q", stones, n, &used), OERR_ARGUMENT);
}

static void
test_acts_and_log(void **state)
{
	(void)state;
	static const char *const soosorv[] = { "p:h8", "p:h9", "p:j10", "c:w", "p:g7", "d:3", "c:b",
		"o:e5,l12,c3", "x:l12", NULL };
	static const char *const taraguchi_ten[] = { "p:h8", "c:b", "p:i9", "c:w", "p:j10", "c:b",
		"p:g6", "b:ten", "o:a1,a2,a3,a4,a5,a6,a7,b2,b3,b4", "x:b3", NULL };
	static const char *const taraguchi_one[] = { "p:h8", "c:w", "p:i9", "c:w", "p:j10", "c:b",
		"p:g6", "b:one", "c:w", "p:k11", "c:b", NULL };
	static const char *const yamaguchi[] = { "p:h8", "p:h9", "p:j10", "d:10", "c:b", "p:g7",
		"o:a1,a2,a3,a4,a5,a6,a7,b2,b3,b4", "x:a7", NULL };
	replay_path(ORULE_SOOSORV8, soosorv, 3);
	replay_path(ORULE_TARAGUCHI10, taraguchi_ten, 2);
	replay_path(ORULE_TARAGUCHI10, taraguchi_one, 0);
	replay_path(ORULE_YAMAGUCHI, yamaguchi, 1);

	/* the area a client shades, stage by stage */
	opening_t o;
	opening_act_t a;
	assert_int_equal(opening_init(&o, ORULE_TARAGUCHI10, RULE_RENJU, 15), OERR_OK);
	assert_string_equal(opening_area_name(opening_area_kind(&o)), "centre");
	a = act(&o, "p:h8");
	assert_int_equal(opening_apply(&o, 0, &a), OERR_OK);
	assert_string_equal(opening_area_name(opening_area_kind(&o)), "-");
	assert_int_equal(opening_init(&o, ORULE_PRO, RULE_FREESTYLE, 15), OERR_OK);
	PLACE(&o, 0, "h8", OERR_OK);
	PLACE(&o, 1, "a1", OERR_OK);
	assert_string_equal(opening_area_name(opening_area_kind(&o)), "out5");
	/* a log that cannot hold another entry says so */
	char small[6] = "";
	a = act(&o, "d:5");
	assert_int_equal(opening_log_append(small, sizeof small, 4, &a, 15), 0);
	assert_int_equal(opening_log_append(small, sizeof small, 4, &a, 15), -1);
	assert_string_equal(small, "4:d5");
	a = act(&o, "p:h8");
	assert_int_equal(opening_log_append(small, sizeof small, 4, &a, 15), -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_combinations),
		cmocka_unit_test(test_none),
		cmocka_unit_test(test_pro),
		cmocka_unit_test(test_swap),
		cmocka_unit_test(test_swap2),
		cmocka_unit_test(test_rif),
		cmocka_unit_test(test_yamaguchi),
		cmocka_unit_test(test_soosorv8),
		cmocka_unit_test(test_taraguchi10),
		cmocka_unit_test(test_symmetry),
		cmocka_unit_test(test_openings),
		cmocka_unit_test(test_acts_and_log),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
