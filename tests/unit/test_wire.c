/* test_wire.c: the game domain meets the wire value by value. Every domain
 * result, reason, opening, status, stage and offer comes out as the token
 * of its own name, and every refusal has an error code of its own, so a
 * reordered protocol enum cannot change what a stored game means. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "daemon/game.h"
#include "daemon/wire.h"

/* The message formatted as a line into buf, its LF dropped. */
static const char *
line_of(const proto_msg_t *m, char *buf)
{
	int n = proto_format(m, buf, PROTO_LINE_MAX);
	assert_true(n > 0);
	buf[n - 1] = '\0';
	return buf;
}

static void
test_results_and_reasons(void **st)
{
	(void)st;
	for (int r = GAME_BLACK_WINS; r <= GAME_NO_RESULT; r++)
		assert_string_equal(proto_result_name(wire_result((game_result_t)r)),
		    game_result_name((game_result_t)r));
	for (int r = BY_FIVE; r <= BY_ABORTED; r++)
		assert_string_equal(proto_reason_name(wire_reason((game_reason_t)r)),
		    game_reason_name((game_reason_t)r));
	/* the words the archive's exports and the store's history print */
	assert_string_equal(game_result_name(GAME_DRAWN), "draw");
	assert_string_equal(game_reason_name(BY_DRAW_AGREED), "draw-agreed");
	assert_string_equal(game_reason_name(BY_ABANDONED), "abandoned");
	for (int o = OPEN_FREE; o <= OPEN_TARAGUCHI10; o++) {
		assert_string_equal(proto_opening_name(wire_opening((game_opening_t)o)),
		    game_opening_name((game_opening_t)o));
		assert_int_equal(wire_opening_in(wire_opening((game_opening_t)o)), o);
	}
}

static void
test_status_and_stage(void **st)
{
	static const char *const status[] = { "waiting", "opening", "playing", "over" };
	static const char *const stage[] = { "put3", "choose", "choose2" };
	proto_msg_t m;
	char want[64], buf[PROTO_LINE_MAX];

	(void)st;
	for (int s = GAME_WAITING; s <= GAME_OVER; s++) {
		proto_init(&m, PD_ROOM, NULL);
		snprintf(m.room, sizeof m.room, "r1");
		m.status = wire_status((game_status_t)s);
		m.rule = RULE_FREESTYLE;
		m.size = 15;
		snprintf(want, sizeof want, "= ROOM r1 %s freestyle 15 ", status[s]);
		assert_memory_equal(line_of(&m, buf), want, strlen(want));
	}
	for (int s = SWAP2_PUT3; s <= SWAP2_CHOOSE2; s++) {
		proto_init(&m, PE_SWAP2, NULL);
		snprintf(m.room, sizeof m.room, "r1");
		m.seq = 1;
		m.stage = wire_stage((game_stage_t)s);
		snprintf(m.user, sizeof m.user, "alice");
		snprintf(want, sizeof want, "* SWAP2 r1 1 %s alice", stage[s]);
		assert_string_equal(line_of(&m, buf), want);
	}
}

static void
test_offers_and_wishes(void **st)
{
	static const char *const names[] = { "draw", "undo", "rematch" };
	proto_msg_t m;

	(void)st;
	for (int k = ASK_DRAW; k < ASK_KINDS; k++) {
		assert_string_equal(proto_offer_name(wire_offer((game_offer_t)k)), names[k]);
		assert_int_equal(wire_offer_in(wire_offer((game_offer_t)k)), k);
	}
	proto_init(&m, PR_SEEK, NULL);
	m.rule = RULE_STANDARD;
	m.size = 19;
	m.tc_base = 300;
	m.tc_inc = 5;
	m.rated = 1;
	m.opening = OPENING_SWAP2;
	static const proto_colour_t wire[] = { COLOUR_BLACK, COLOUR_WHITE, COLOUR_ANY };
	static const game_wish_t want[] = { WISH_BLACK, WISH_WHITE, WISH_ANY };
	for (int i = 0; i < 3; i++) {
		struct gamespec g;
		m.colour = wire[i];
		wire_gamespec(&g, &m);
		assert_int_equal(g.colour, want[i]);
		assert_int_equal(g.rule, RULE_STANDARD);
		assert_int_equal(g.size, 19);
		assert_int_equal(g.tc_base, 300);
		assert_int_equal(g.tc_inc, 5);
		assert_int_equal(g.rated, 1);
		assert_int_equal(g.opening, OPEN_SWAP2);
	}
}

static void
test_errors(void **st)
{
	int seen[1000] = { 0 };

	(void)st;
	/* each refusal its own code; only a failed write (the store's, or one
	 * fenced out: another node owns the game) or memory is internal (and
	 * GERR_PENDING, which is no refusal and never reaches the wire) */
	for (int e = GERR_NOT_PLAYER; e <= GERR_NOMEM; e++) {
		proto_err_t code = wire_err((game_err_t)e, LEGAL_OCCUPIED);
		assert_non_null(proto_err_word(code));
		if (e == GERR_STORE || e == GERR_FENCED || e == GERR_PENDING || e == GERR_NOMEM) {
			assert_int_equal(code, ERR_INTERNAL);
			continue;
		}
		assert_int_not_equal(code, ERR_INTERNAL);
		if (e != GERR_ILLEGAL) {
			assert_int_equal(seen[code], 0);
			seen[code] = 1;
		}
	}
	assert_int_equal(wire_err(GERR_NOT_TURN, LEGAL_OK), ERR_NOT_TURN);
	assert_int_equal(wire_err(GERR_SERVER_BUSY, LEGAL_OK), ERR_SERVER_BUSY);
	assert_int_equal(wire_err(GERR_STORE_DOWN, LEGAL_OK), ERR_STORE_DOWN);
	assert_int_equal(wire_err(GERR_NO_ROOM, LEGAL_OK), ERR_NO_ROOM);
	assert_int_equal(wire_err(GERR_NO_CODE, LEGAL_OK), ERR_NO_CODE);
	assert_int_equal(wire_err(GERR_UNAVAILABLE, LEGAL_OK), ERR_UNAVAILABLE);
	assert_string_equal(proto_err_word(ERR_STORE_DOWN), "store-unavailable");
	/* an illegal move says why the rules refused it */
	assert_int_equal(wire_err(GERR_ILLEGAL, LEGAL_OCCUPIED), ERR_OCCUPIED);
	assert_int_equal(wire_err(GERR_ILLEGAL, LEGAL_DOUBLE_THREE), ERR_DOUBLE_THREE);
	assert_int_equal(wire_err(GERR_ILLEGAL, LEGAL_DOUBLE_FOUR), ERR_DOUBLE_FOUR);
	assert_int_equal(wire_err(GERR_ILLEGAL, LEGAL_OVERLINE), ERR_OVERLINE);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_results_and_reasons),
		cmocka_unit_test(test_status_and_stage),
		cmocka_unit_test(test_offers_and_wishes),
		cmocka_unit_test(test_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
