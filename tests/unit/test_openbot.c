/*
 * test_openbot.c: the engine's player of the opening rules (engine/openbot.h,
 * issue 46). Self-play of every opening rule (renju's none, rif, yamaguchi,
 * soosorv-8, taraguchi-10 on 15x15; swap2, swap, pro, long pro on freestyle
 * 15x15), five games a rule at levels 1 to 9 with small node and depth
 * caps: the bot decides every opening act, each of which the machine must
 * take, then engine_search plays the game on to its end or a cap of plies.
 * Taraguchi's ten offers and swap2's two more stones, which a bot seldom
 * picks, are forced in extra games so that the bot offers ten and places
 * the fifth. Also: the chooser takes the offer the engine likes least for
 * black, the maximin offers stay near the stones, the declared number
 * grows with black's strength (Hogetsu and Kagetsu over Suisei and Yusei),
 * the swapper takes the colour the position favours, a stopped bot still
 * acts legally, and a machine that waits for the other player, or for no
 * one, gets no act.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "engine/engine.h"
#include "engine/openbot.h"
#include "rules/opening.h"

enum { GAMES = 5, PLY_CAP = 30, NODES = 3000, DEPTH = 3, VCT_NODES = 3000 };

static engine_t *eng;

static int
setup(void **st)
{
	(void)st;
	eng = engine_new(8);
	return eng ? 0 : -1;
}

static int
teardown(void **st)
{
	(void)st;
	engine_free(eng);
	return 0;
}

static openbot_limits_t
limits(int level, uint32_t seed)
{
	openbot_limits_t l = openbot_default_limits();
	l.level = level;
	l.seed = seed;
	l.max_nodes = NODES;
	l.max_depth = DEPTH;
	return l;
}

/* Forces an act in place of the bot's at one stage, for the branches a
 * bot seldom takes. */
typedef struct {
	int stage; /* opening_stage_t, or -1: none */
	opening_act_t act;
} force_t;

struct tally {
	int acts[OACT_COUNT];
	int games, plies;
};

/* One game: the opening by the bot (both players), then the game proper
 * by engine_search; asserts every act is taken and every move found. */
static void
play_one(
    opening_rule_t orule, rule_t rule, int level, uint32_t seed, const force_t *f, struct tally *t)
{
	opening_t o;
	opening_act_t a;
	const char *why;
	int forced = 0;

	assert_int_equal(opening_init(&o, orule, rule, 15), OERR_OK);
	openbot_limits_t l = limits(level, seed);
	for (int guard = 0; !opening_done(&o); guard++) {
		assert_true(guard < 40); /* no stage loops */
		int actor = o.actor;
		if (f && !forced && o.stage == f->stage) {
			a = f->act;
			forced = 1;
		} else {
			why = NULL;
			assert_int_equal(openbot_decide(eng, &o, actor, &l, &a, &why), 0);
			assert_non_null(why);
		}
		opening_t before = o;
		opening_err_t e = opening_apply(&o, actor, &a);
		if (e != OERR_OK)
			fail_msg("%s, stage %s, actor %d: act %d refused: %s",
			    opening_rule_name(orule),
			    opening_stage_name((opening_stage_t)before.stage), actor, a.kind,
			    opening_err_name(e));
		if (a.kind == OACT_OFFER)
			assert_int_equal(a.n, before.declared);
		t->acts[a.kind]++;
		l.seed++;
	}
	if (f)
		assert_true(forced);
	if (orule == ORULE_RIF || orule == ORULE_YAMAGUCHI || orule == ORULE_SOOSORV8 ||
	    orule == ORULE_TARAGUCHI10)
		assert_true(o.canon >= 0);
	if (orule == ORULE_RIF && level > 3) {
		/* black's sure wins under two offers are not among the bot's */
		static const char *const sure[] = { "D4", "D6", "I3", "I6", "I7" };
		for (size_t k = 0; k < sizeof sure / sizeof sure[0]; k++)
			assert_string_not_equal(renju_opening(o.canon)->code, sure[k]);
	}
	/* the game proper */
	position_t p = o.pos;
	for (int ply = 0;
	     ply < PLY_CAP && p.outcome.kind == RESULT_ONGOING && p.nmoves < p.size * p.size;
	     ply++) {
		engine_limits_t el = engine_default_limits();
		engine_result_t r;
		el.level = level;
		el.seed = seed + (uint32_t)ply;
		el.max_nodes = NODES;
		el.max_depth = DEPTH;
		el.vct_nodes = VCT_NODES;
		assert_int_equal(
		    engine_search(eng, rule, 15, p.moves, p.nmoves, &el, NULL, NULL, &r), 0);
		assert_int_equal(pos_play(&p, r.best), LEGAL_OK);
		t->plies++;
	}
	t->games++;
}

static void
selfplay(opening_rule_t orule, rule_t rule, const force_t *f, int games)
{
	struct tally t;
	struct timespec t0, t1;

	memset(&t, 0, sizeof t);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (int g = 0; g < games; g++)
		play_one(orule, rule, 1 + 2 * g % 10, 1000u * (uint32_t)orule + 17u * (uint32_t)g,
		    f, &t);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("  %-11s %-9s %d games, acts place %d colour %d declare %d offer %d choose %d "
	       "branch %d, %d plies, %.1f s\n",
	    opening_rule_name(orule), rule_name(rule), t.games, t.acts[OACT_PLACE],
	    t.acts[OACT_COLOUR], t.acts[OACT_DECLARE], t.acts[OACT_OFFER], t.acts[OACT_CHOOSE],
	    t.acts[OACT_BRANCH], t.plies,
	    (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	/* every rule but renju's none (one stone on the centre) has acts
	 * that place no stone or several */
	if (orule == ORULE_NONE)
		assert_int_equal(t.acts[OACT_PLACE], games);
	if (orule == ORULE_RIF || orule == ORULE_YAMAGUCHI || orule == ORULE_SOOSORV8)
		assert_int_equal(t.acts[OACT_OFFER], games);
	if (orule == ORULE_YAMAGUCHI || orule == ORULE_SOOSORV8)
		assert_int_equal(t.acts[OACT_DECLARE], games);
	if (orule == ORULE_TARAGUCHI10)
		assert_int_equal(t.acts[OACT_BRANCH], games);
}

static void
test_selfplay_renju(void **st)
{
	(void)st;
	selfplay(ORULE_NONE, RULE_RENJU, NULL, GAMES);
	selfplay(ORULE_RIF, RULE_RENJU, NULL, GAMES);
	selfplay(ORULE_YAMAGUCHI, RULE_RENJU, NULL, GAMES);
	selfplay(ORULE_SOOSORV8, RULE_RENJU, NULL, GAMES);
	selfplay(ORULE_TARAGUCHI10, RULE_RENJU, NULL, GAMES);
	/* the ten offers, a branch a bot takes only when far ahead */
	force_t ten = { OSTAGE_BRANCH, { .kind = OACT_BRANCH, .arg = OBRANCH_TEN } };
	selfplay(ORULE_TARAGUCHI10, RULE_RENJU, &ten, 2);
}

static void
test_selfplay_gomoku(void **st)
{
	(void)st;
	selfplay(ORULE_SWAP2, RULE_FREESTYLE, NULL, GAMES);
	selfplay(ORULE_SWAP, RULE_FREESTYLE, NULL, GAMES);
	selfplay(ORULE_PRO, RULE_FREESTYLE, NULL, GAMES);
	selfplay(ORULE_LONGPRO, RULE_FREESTYLE, NULL, GAMES);
	/* swap2's two more stones: the bot places the fifth, the opener
	 * chooses */
	force_t two = { OSTAGE_SWAP_OR_PLACE,
		{ .kind = OACT_PLACE, .moves = { rules_move(9, 9) } } };
	selfplay(ORULE_SWAP2, RULE_FREESTYLE, &two, 2);
}

/* A RIF game up to the offers: D2 Keigetsu (h8, h7, i6 in board
 * coordinates: y down), white's fourth on g9. */
static void
rif_to_offer(opening_t *o)
{
	assert_int_equal(opening_init(o, ORULE_RIF, RULE_RENJU, 15), OERR_OK);
	assert_int_equal(opening_place(o, 0, rules_move(7, 7)), OERR_OK);
	assert_int_equal(opening_place(o, 0, rules_move(7, 6)), OERR_OK);
	assert_int_equal(opening_place(o, 0, rules_move(8, 5)), OERR_OK);
	assert_int_equal(opening_choose_colour(o, 1, STONE_WHITE), OERR_OK);
	assert_int_equal(opening_place(o, 1, rules_move(6, 8)), OERR_OK);
	assert_int_equal(o->stage, OSTAGE_OFFER);
}

static int
dist_to_stones(const position_t *p, move_t m)
{
	int best = 99;
	for (int i = 0; i < p->nmoves; i++) {
		int dx = abs(rules_x(m) - rules_x(p->moves[i]));
		int dy = abs(rules_y(m) - rules_y(p->moves[i]));
		int d = dx > dy ? dx : dy;
		best = d < best ? d : best;
	}
	return best;
}

/* Maximin offers are good black moves (near the stones, never a corner);
 * the chooser takes a corner offered beside a real move. */
static void
test_offer_and_choose(void **st)
{
	(void)st;
	opening_t o, c;
	opening_act_t a;
	openbot_limits_t l = limits(8, 5);
	l.max_nodes = 20000;
	l.max_depth = 4;

	rif_to_offer(&o);
	assert_int_equal(openbot_decide(eng, &o, o.actor, &l, &a, NULL), 0);
	assert_int_equal(a.kind, OACT_OFFER);
	assert_int_equal(a.n, 2);
	for (int i = 0; i < a.n; i++)
		assert_true(dist_to_stones(&o.pos, a.moves[i]) <= 2);
	c = o;
	assert_int_equal(opening_apply(&c, o.actor, &a), OERR_OK);

	/* black offers a strong move (i8, next to its stones) and a corner */
	opening_act_t off = {
		.kind = OACT_OFFER, .n = 2, .moves = { rules_move(8, 7), rules_move(0, 0) }
	};
	assert_int_equal(opening_apply(&o, o.actor, &off), OERR_OK);
	assert_int_equal(o.stage, OSTAGE_CHOOSE);
	assert_int_equal(openbot_decide(eng, &o, o.actor, &l, &a, NULL), 0);
	assert_int_equal(a.kind, OACT_CHOOSE);
	assert_int_equal(a.moves[0], rules_move(0, 0));
}

/* The number a yamaguchi opener declares after canonical opening i. */
static int
declared_after(int i)
{
	const renju_opening_t *ro = renju_opening(i);
	opening_t o;
	opening_act_t a;
	openbot_limits_t l = limits(10, 1);
	l.max_nodes = 20000;
	l.max_depth = 4;

	assert_int_equal(opening_init(&o, ORULE_YAMAGUCHI, RULE_RENJU, 15), OERR_OK);
	assert_int_equal(opening_place(&o, 0, rules_move(7, 7)), OERR_OK);
	assert_int_equal(opening_place(&o, 0, rules_move(7 + ro->wx, 7 + ro->wy)), OERR_OK);
	assert_int_equal(opening_place(&o, 0, rules_move(7 + ro->bx, 7 + ro->by)), OERR_OK);
	assert_int_equal(o.canon, i);
	assert_int_equal(openbot_decide(eng, &o, 0, &l, &a, NULL), 0);
	assert_int_equal(a.kind, OACT_DECLARE);
	assert_true(a.n >= 1 && a.n <= OPENING_MAX_OFFERS);
	return a.n;
}

/* The colour swap's second player takes after three stones. */
static stone_t
swap_choice(move_t b1, move_t w1, move_t b2)
{
	opening_t o;
	opening_act_t a;
	openbot_limits_t l = limits(10, 1);
	l.max_nodes = 20000;
	l.max_depth = 4;

	assert_int_equal(opening_init(&o, ORULE_SWAP, RULE_FREESTYLE, 15), OERR_OK);
	assert_int_equal(opening_place(&o, 0, b1), OERR_OK);
	assert_int_equal(opening_place(&o, 0, w1), OERR_OK);
	assert_int_equal(opening_place(&o, 0, b2), OERR_OK);
	assert_int_equal(openbot_decide(eng, &o, 1, &l, &a, NULL), 0);
	assert_int_equal(a.kind, OACT_COLOUR);
	return (stone_t)a.arg;
}

static void
test_policies(void **st)
{
	(void)st;
	/* indices of rules/opening.c: D4 Kagetsu 3, D13 Yusei 12, I7 Hogetsu
	 * 19, I13 Suisei 25 */
	int kagetsu = declared_after(3), yusei = declared_after(12);
	int hogetsu = declared_after(19), suisei = declared_after(25);
	printf("  yamaguchi declares: Kagetsu %d, Yusei %d, Hogetsu %d, Suisei %d\n", kagetsu,
	    yusei, hogetsu, suisei);
	assert_true(kagetsu > yusei);
	assert_true(hogetsu > suisei);
	/* black's two stones side by side in the centre, white's in a corner:
	 * black; black's two in the corners, white's in the centre: white */
	assert_int_equal(
	    swap_choice(rules_move(7, 7), rules_move(0, 0), rules_move(8, 7)), STONE_BLACK);
	assert_int_equal(
	    swap_choice(rules_move(0, 0), rules_move(7, 7), rules_move(14, 14)), STONE_WHITE);
}

/* With its stop flag up from the start the bot searches nothing useful,
 * yet every act of a whole opening is taken; the wrong player and a
 * finished machine get no act. */
static void
test_stopped_and_refused(void **st)
{
	(void)st;
	atomic_int stop;
	atomic_init(&stop, 1);
	static const opening_rule_t rules[] = { ORULE_RIF, ORULE_YAMAGUCHI, ORULE_SOOSORV8,
		ORULE_TARAGUCHI10 };
	for (size_t k = 0; k < sizeof rules / sizeof rules[0]; k++) {
		opening_t o;
		opening_act_t a;
		openbot_limits_t l = limits(10, 3);
		l.stop = &stop;
		l.max_nodes = 0;
		l.max_depth = 0;
		assert_int_equal(opening_init(&o, rules[k], RULE_RENJU, 15), OERR_OK);
		assert_int_equal(openbot_decide(eng, &o, 1 - o.actor, &l, &a, NULL), -1);
		for (int guard = 0; !opening_done(&o); guard++) {
			assert_true(guard < 40);
			int actor = o.actor;
			assert_int_equal(openbot_decide(eng, &o, actor, &l, &a, NULL), 0);
			assert_int_equal(opening_apply(&o, actor, &a), OERR_OK);
		}
		assert_int_equal(openbot_decide(eng, &o, 0, &l, &a, NULL), -1);
	}
	/* a time budget is kept: a whole soosorv-8 opening at level 10 */
	opening_t o;
	opening_act_t a;
	openbot_limits_t l = openbot_default_limits();
	l.soft_ms = 150;
	assert_int_equal(opening_init(&o, ORULE_SOOSORV8, RULE_RENJU, 15), OERR_OK);
	for (int guard = 0; !opening_done(&o); guard++) {
		struct timespec t0, t1;
		assert_true(guard < 40);
		int actor = o.actor;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		assert_int_equal(openbot_decide(eng, &o, actor, &l, &a, NULL), 0);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		long ms = (t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000;
		assert_true(ms < 150 + 250); /* the engine's own hard-stop slack */
		assert_int_equal(opening_apply(&o, actor, &a), OERR_OK);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_selfplay_renju),
		cmocka_unit_test(test_selfplay_gomoku),
		cmocka_unit_test(test_offer_and_choose),
		cmocka_unit_test(test_policies),
		cmocka_unit_test(test_stopped_and_refused),
	};
	if (getenv("TEST_ONLY"))
		cmocka_set_test_filter(getenv("TEST_ONLY"));
	return cmocka_run_group_tests(tests, setup, teardown);
}
