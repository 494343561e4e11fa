/*
 * test_client_model: the client's model is rebuilt from real server lines
 * (each goes through proto_parse first): board, clocks, offers, results,
 * snapshots, sequence gaps, the bot's preview and lobby lists.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "client/model.h"

static model_rc_t
feed(model_t *m, const char *line, int64_t now)
{
	proto_msg_t x;
	char err[128];
	int rc = proto_parse(line, strlen(line), PROTO_SERVER, &x, err, sizeof err);
	if (rc != 0)
		fail_msg("line did not parse: %s (%s)", line, err);
	return model_apply(m, &x, now);
}

static stone_t
at(const model_t *m, const char *mv)
{
	move_t c;
	assert_int_equal(notation_parse(mv, m->pos.size, &c), 0);
	return (stone_t)m->pos.cell[c];
}

static void
start_game(model_t *m)
{
	model_init(m);
	model_sent(m, PR_HELLO);
	assert_int_equal(feed(m, "* SERVER gomokud 0.1.0 1 swap2 chat resume", 0), MODEL_OK);
	assert_int_equal(feed(m, "OK HELLO 1", 0), MODEL_OK);
	model_sent(m, PR_GUEST);
	assert_int_equal(feed(m, "OK GUEST alice 3kQ9fZ0aLm2Xw8pR7tYc1bN4", 0), MODEL_OK);
	model_sent(m, PR_SEEK);
	assert_int_equal(
	    feed(m, "* START r1 1 alice bob freestyle 15 60+1 none casual 60000 60000", 1000),
	    MODEL_OK);
	assert_int_equal(feed(m, "OK SEEK 1", 1000), MODEL_OK);
	assert_int_equal(m->seek_id, 0); /* paired before the reply */
}

static void
test_game_moves_clocks_result(void **state)
{
	(void)state;
	model_t m;
	printf("checks: a whole game from events: stones, turn, ticking clocks, five cells\n");
	start_game(&m);
	assert_string_equal(m.server, "gomokud 0.1.0");
	assert_true(model_has_cap(&m, "chat"));
	assert_true(model_has_cap(&m, "resume"));
	assert_false(model_has_cap(&m, "accounts"));
	assert_false(model_has_cap(&m, "swap"));
	assert_string_equal(m.me, "alice");
	assert_string_equal(m.token, "3kQ9fZ0aLm2Xw8pR7tYc1bN4");
	assert_string_equal(
	    m.status_text, "Game started: alice (black) vs bob (white), freestyle 15x15");
	model_sent(&m, PR_STATS);
	feed(&m, "= STAT bob freestyle 1612 80 provisional 3 1 0", 0);
	feed(&m, "= STAT bob renju 1400 80 provisional 3 1 0", 0);
	feed(&m, "OK STATS 2", 0);
	model_sent(&m, PR_STATS);
	feed(&m, "ERR 501 not-available", 0);
	assert_int_equal(m.rating[1], 1612);
	assert_int_equal(m.provisional[1], 1);
	assert_int_equal(m.rating[0], 0);
	assert_int_equal(m.status_error, 0);
	assert_int_equal(m.in_room, 1);
	assert_string_equal(m.black, "alice");
	assert_int_equal(model_my_side(&m), STONE_BLACK);
	assert_int_equal(model_turn(&m), STONE_BLACK);
	assert_int_equal(m.npending, 0);

	/* black's clock ticks locally, white's does not */
	assert_int_equal(model_clock(&m, STONE_BLACK, 3500), 57500);
	assert_int_equal(model_clock(&m, STONE_WHITE, 3500), 60000);

	model_sent(&m, PR_MOVE);
	assert_int_equal(feed(&m, "* MOVE r1 2 black h8 59800 60000", 4000), MODEL_OK);
	assert_int_equal(feed(&m, "OK MOVE r1 2", 4000), MODEL_OK);
	assert_int_equal(at(&m, "h8"), STONE_BLACK);
	assert_int_equal(model_turn(&m), STONE_WHITE);
	/* resynced on the event, now white's clock runs */
	assert_int_equal(model_clock(&m, STONE_BLACK, 5000), 59800);
	assert_int_equal(model_clock(&m, STONE_WHITE, 5000), 59000);

	feed(&m, "* MOVE r1 3 white i9 59800 58400", 5000);
	feed(&m, "* SAY r1 4 bob good luck", 5000);
	assert_string_equal(model_chat_line(&m, 0), "bob: good luck");
	feed(&m, "* MOVE r1 5 black i8 58100 58400", 6000);
	feed(&m, "* MOVE r1 6 white j10 58100 56900", 6000);
	feed(&m, "* MOVE r1 7 black j8 56000 56900", 6000);
	feed(&m, "* MOVE r1 8 white k11 56000 55000", 6000);
	feed(&m, "* MOVE r1 9 black k8 54000 55000", 6000);
	feed(&m, "* MOVE r1 10 white g8 54000 52100", 6000);
	feed(&m, "* MOVE r1 11 black l8 52500 52100", 6000);
	assert_int_equal(m.over, 0);
	assert_int_equal(feed(&m, "* OVER r1 12 black five h8,i8,j8,k8,l8", 6000), MODEL_OK);
	assert_int_equal(m.over, 1);
	assert_int_equal(m.result, RES_BLACK);
	assert_int_equal(m.ncells, 5);
	move_t c;
	notation_parse("j8", 15, &c);
	assert_true(model_is_win_cell(&m, c));
	notation_parse("g8", 15, &c);
	assert_false(model_is_win_cell(&m, c));
	assert_int_equal(model_turn(&m), STONE_EMPTY);
	/* no clock runs after the end */
	assert_int_equal(model_clock(&m, STONE_WHITE, 90000), 52100);
	assert_non_null(strstr(m.status_text, "alice (black) wins by five"));
	assert_int_equal(m.pos.nmoves, 9);
	/* a rematch in the same room starts over */
	feed(&m, "* START r1 13 bob alice freestyle 15 60+1 none casual 60000 60000", 7000);
	assert_int_equal(m.over, 0);
	assert_int_equal(m.pos.nmoves, 0);
	assert_int_equal(m.ncells, 0);
	assert_int_equal(model_my_side(&m), STONE_WHITE);
	assert_non_null(strstr(m.status_text, "Rematch: bob (black)"));
	assert_string_equal(model_chat_line(&m, 1), "* Game over: alice (black) wins by five");
}

static void
test_offers_and_undo(void **state)
{
	(void)state;
	model_t m;
	printf("checks: undo/draw offers appear and end; an accepted undo takes stones back\n");
	start_game(&m);
	feed(&m, "* MOVE r1 2 black h8 59800 60000", 0);
	feed(&m, "* MOVE r1 3 white i9 59800 58400", 0);
	assert_int_equal(feed(&m, "* OFFER r1 4 1 undo bob", 0), MODEL_OK);
	const model_offer_t *o = model_offer_to_me(&m);
	assert_non_null(o);
	assert_int_equal(o->id, 1);
	assert_int_equal(o->kind, OFFER_UNDO);
	assert_string_equal(o->from, "bob");
	feed(&m, "* OFFEREND r1 5 1 accepted", 0);
	assert_null(model_offer_to_me(&m));
	assert_int_equal(feed(&m, "* UNDO r1 6 1 59800 60000", 0), MODEL_OK);
	assert_int_equal(m.pos.nmoves, 1);
	assert_int_equal(at(&m, "i9"), STONE_EMPTY);
	assert_int_equal(model_turn(&m), STONE_WHITE);
	/* my own offer is not an offer to me */
	feed(&m, "* OFFER r1 7 2 draw alice", 0);
	assert_null(model_offer_to_me(&m));
	assert_int_equal(m.noffers, 1);
	/* a move withdraws pending offers */
	feed(&m, "* MOVE r1 8 white i9 59800 58400", 0);
	assert_int_equal(m.noffers, 0);
}

static void
test_gap_and_snapshot(void **state)
{
	(void)state;
	model_t m;
	printf("checks: a sequence gap asks for a resync; a STATE snapshot rebuilds the room\n");
	start_game(&m);
	feed(&m, "* MOVE r1 2 black h8 59800 60000", 0);
	assert_int_equal(feed(&m, "* MOVE r1 4 black h9 59800 60000", 0), MODEL_RESYNC);
	assert_int_equal(m.pos.nmoves, 1);
	/* an event that cannot be on the board also resyncs */
	assert_int_equal(feed(&m, "* MOVE r1 3 white h8 59800 60000", 0), MODEL_RESYNC);
	assert_int_equal(m.status_error, 1);

	model_sent(&m, PR_STATE);
	feed(&m, "= ROOM r1 playing freestyle 15 60+1 none casual alice bob 1 4", 100);
	feed(&m, "= CLOCK r1 58100 56900 black", 100);
	feed(&m, "= SEAT r1 black alice here 0", 100);
	feed(&m, "= SEAT r1 white bob gone 45000", 100);
	feed(&m, "= MOVES r1 0 h8,i9,i8,j10", 100);
	feed(&m, "= OFFER r1 3 draw bob", 100);
	/* an event between would be a server bug; the snapshot already has it */
	assert_int_equal(feed(&m, "OK STATE r1 7", 100), MODEL_OK);
	assert_int_equal(m.seq, 7);
	assert_int_equal(m.pos.nmoves, 4);
	assert_int_equal(at(&m, "j10"), STONE_WHITE);
	assert_int_equal(m.gone[1], 1);
	assert_int_equal(m.spectators, 1);
	assert_int_equal(model_clock(&m, STONE_BLACK, 1100), 57100);
	assert_non_null(model_offer_to_me(&m));
	assert_int_equal(feed(&m, "* MOVE r1 8 black k11 57000 56900", 200), MODEL_OK);
	assert_int_equal(at(&m, "k11"), STONE_BLACK);
	/* a finished game's snapshot carries its result */
	model_sent(&m, PR_WATCH);
	feed(&m, "= ROOM r2 over renju 15 none none rated carol dave 0 5", 0);
	feed(&m, "= CLOCK r2 - - none", 0);
	feed(&m, "= MOVES r2 0 h8,a1,i8,a2,j8", 0);
	feed(&m, "= RESULT r2 white resign -", 0);
	feed(&m, "OK WATCH r2 30", 0);
	assert_string_equal(m.room, "r2");
	assert_int_equal(m.over, 1);
	assert_int_equal(m.result, RES_WHITE);
	assert_int_equal(model_clock(&m, STONE_BLACK, 0), -1);
	assert_int_equal(model_my_side(&m), STONE_EMPTY);
	assert_int_equal(m.pos.rule, RULE_RENJU);
}

static void
test_think_and_errors(void **state)
{
	(void)state;
	model_t m;
	printf("checks: the bot's THINK marks candidates and its reason; errors reach the status "
	       "line\n");
	start_game(&m);
	feed(&m, "* MOVE r1 2 black h8 59800 60000", 0);
	assert_int_equal(feed(&m, "* THINK r1 3 bob 9 i9:35,g7:-4", 0), MODEL_OK);
	move_t c;
	notation_parse("g7", 15, &c);
	assert_int_equal(model_cand_rank(&m, c), 2);
	feed(&m, "* MOVE r1 4 white i9 59800 58400", 0);
	assert_int_equal(model_cand_rank(&m, c), 0);
	assert_string_equal(m.reason_text, "bob played i9 (depth 9, score 35)");
	feed(&m, "* MOVE r1 5 black j10 59800 58400", 0);
	feed(&m, "* MOVE r1 6 white k11 59800 58400 vcf 5", 0);
	assert_string_equal(m.reason_text, "bob played k11: vcf 5");

	model_sent(&m, PR_MOVE);
	assert_int_equal(feed(&m, "ERR 432 occupied", 0), MODEL_OK);
	assert_int_equal(m.status_error, 1);
	/* people get a sentence, not the code */
	assert_string_equal(m.status_text, "That point is already taken");
	model_sent(&m, PR_PING);
	assert_int_equal(feed(&m, "ERR 504 idle-timeout", 0), MODEL_FATAL);
	assert_int_equal(feed(&m, "* SHUTDOWN 5000 maintenance", 0), MODEL_OK);
	assert_int_equal(m.shutdown, 1);
	/* the server's notices: the MOTD and announcements in the chat pane */
	assert_int_equal(feed(&m, "* MOTD Welcome! Be kind.", 0), MODEL_OK);
	assert_string_equal(model_chat_line(&m, 0), "[motd] Welcome! Be kind.");
	assert_int_equal(feed(&m, "* ANNOUNCE restart at noon", 0), MODEL_OK);
	assert_string_equal(model_chat_line(&m, 0), "[server] restart at noon");
	assert_int_equal(feed(&m, "* KICKED banned for good: spam", 0), MODEL_OK);
	assert_int_equal(m.status_error, 1);
	assert_non_null(strstr(m.status_text, "banned for good: spam"));
	/* events of other rooms are ignored */
	assert_int_equal(feed(&m, "* MOVE r9 100 black a1 1 1", 0), MODEL_OK);
	assert_int_equal(m.pos.nmoves, 4);
}

/* Issue 25: a flag shows 0:00, a rated game's end the rating changes, a
 * refused claim the grace left, a challenge its settings; a swap2 stage
 * clears the bot's stale candidates. */
static void
test_journey(void **state)
{
	(void)state;
	model_t m;
	model_init(&m);
	feed(&m, "* SERVER gomokud 0.1.0 1 swap2 chat resume lobby", 0);
	model_sent(&m, PR_HELLO);
	feed(&m, "OK HELLO 1", 0);
	model_sent(&m, PR_LOGIN);
	feed(&m, "OK LOGIN lena 3kQ9fZ0aLm2Xw8pR7tYc1bN4", 0);
	feed(&m, "* CHALLENGE 3 mark lena freestyle 15 2+0 black rated none", 0);
	assert_int_equal(m.challenge_id, 3);
	assert_non_null(strstr(m.status_text, "mark challenges you: freestyle 15x15, 2+0, rated"));
	feed(&m, "* CHALLENGEEND 3 declined", 0);
	assert_int_equal(m.challenge_id, 0);
	assert_string_equal(m.status_text, "Challenge declined");

	feed(&m, "* START r5 1 mark lena freestyle 15 2+0 none rated 2000 2000", 1000);
	model_sent(&m, PR_STATS);
	feed(&m, "= STAT mark freestyle 1500 350 provisional 0 0 0", 1000);
	feed(&m, "= STAT lena freestyle 1500 350 provisional 0 0 0", 1000);
	feed(&m, "OK STATS 2", 1000);
	feed(&m, "* PRESENCE r5 2 mark gone 60000", 1000);
	model_sent(&m, PR_CLAIM);
	feed(&m, "ERR 447 cannot-claim", 21000);
	assert_string_equal(m.status_text, "You can claim the game in 40s, when mark's grace ends");
	feed(&m, "* OVER r5 3 white time -", 3000);
	assert_int_equal(model_clock(&m, STONE_BLACK, 3000), 0);
	assert_int_equal(model_clock(&m, STONE_WHITE, 3000), 2000);
	model_sent(&m, PR_STATS);
	feed(&m, "= STAT lena freestyle 1662 290 provisional 1 0 0", 3000);
	feed(&m, "OK STATS 1", 3000);
	assert_int_equal(m.rating[1], 1662);
	assert_int_equal(m.rating_before[1], 1500);
	assert_string_equal(model_chat_line(&m, 0), "* lena's rating: 1500 -> 1662 (+162)");

	feed(&m, "* START r6 1 lena bot5 freestyle 15 none swap2 casual - -", 4000);
	feed(&m, "* THINK r6 2 bot5 3 h8:10", 4000);
	move_t c;
	assert_int_equal(notation_parse("h8", 15, &c), 0);
	assert_int_equal(model_cand_rank(&m, c), 1);
	feed(&m, "* SWAP2 r6 3 put3 lena", 4000);
	assert_int_equal(model_cand_rank(&m, c), 0);
}

static void
test_lobby_lists(void **state)
{
	(void)state;
	model_t m;
	printf("checks: ROOMS, HISTORY, SEEKS and EXPORT replies fill the lobby lists and the "
	       "record\n");
	model_init(&m);
	model_sent(&m, PR_ROOMS);
	feed(&m, "= ROOM r1 playing freestyle 15 60+1 none casual alice bob 0 12", 0);
	feed(&m, "= ROOM r4 waiting renju 15 300+5 none rated carol - 0 0", 0);
	feed(&m, "OK ROOMS 2", 0);
	assert_int_equal(m.nrooms, 2);
	assert_string_equal(m.rooms[1].room, "r4");
	assert_string_equal(m.rooms[1].white, "");
	assert_int_equal(m.in_room, 0);
	model_sent(&m, PR_HISTORY);
	feed(&m, "= GAME 17 renju 15 alice bob black five 3 1796000000", 0);
	feed(&m, "OK HISTORY 1 1", 0);
	assert_int_equal(m.ngames, 1);
	assert_int_equal(m.games[0].id, 17);
	/* SEEKS 1 (seekpages): the page, and the total of every page */
	model_sent(&m, PR_SEEKS);
	feed(&m, "= SEEK 4 alice renju 15 300+5 black rated none human", 0);
	feed(&m, "OK SEEKS 1 73", 0);
	assert_int_equal(m.nseeks, 1);
	assert_int_equal(m.seeks_total, 73);
	/* a server from before seekpages: OK SEEKS <n>, the total is the list */
	model_sent(&m, PR_SEEKS);
	feed(&m, "= SEEK 5 bob freestyle 15 60+1 any casual none bot", 0);
	feed(&m, "= SEEK 6 carol freestyle 15 60+1 any casual none human", 0);
	feed(&m, "OK SEEKS 2", 0);
	assert_int_equal(m.nseeks, 2);
	assert_int_equal(m.seeks_total, 2);
	model_sent(&m, PR_EXPORT);
	feed(&m, "= RECORD rule renju", 0);
	feed(&m, "= RECORD size 15", 0);
	feed(&m, "= RECORD moves h8 i9 j10", 0);
	feed(&m, "= RECORD black alice 1612", 0);
	assert_int_equal(m.record_ready, 0);
	feed(&m, "OK EXPORT 17 text", 0);
	assert_int_equal(m.record_ready, 1);
	position_t p;
	char err[64];
	assert_int_equal(model_record_position(&m, &p, err, sizeof err), 0);
	assert_int_equal(p.nmoves, 3);
	/* swap2 stage and colours */
	model_sent(&m, PR_SEEK);
	feed(&m, "* START r3 1 alice bob freestyle 15 none swap2 casual - -", 0);
	feed(&m, "* SWAP2 r3 2 put3 alice", 0);
	assert_int_equal(m.swap2, 1);
	assert_int_equal(m.swap2_stage, STAGE_PUT3);
	feed(&m, "* MOVE r3 3 black h8 - -", 0);
	feed(&m, "* MOVE r3 4 white h9 - -", 0);
	feed(&m, "* MOVE r3 5 black i9 - -", 0);
	feed(&m, "* SWAP2 r3 6 choose bob", 0);
	assert_int_equal(model_turn(&m), STONE_EMPTY);
	feed(&m, "* COLOURS r3 7 bob alice", 0);
	assert_int_equal(m.swap2, 0);
	assert_string_equal(m.black, "bob");
	assert_int_equal(model_turn(&m), STONE_WHITE);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_game_moves_clocks_result),
		cmocka_unit_test(test_offers_and_undo),
		cmocka_unit_test(test_gap_and_snapshot),
		cmocka_unit_test(test_think_and_errors),
		cmocka_unit_test(test_lobby_lists),
		cmocka_unit_test(test_journey),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
