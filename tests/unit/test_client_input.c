/*
 * test_client_input: keys and clicks become the right requests (checked
 * in their wire form through proto_format): typed moves, cursor moves,
 * mouse hits on the board layout, resign confirmation, offers, chat with
 * UTF-8, swap2 stones, the opening rules' acts, lobby settings.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>
#include <curses.h>

#include "client/input.h"

static void
feed(model_t *m, const char *line)
{
	proto_msg_t x;
	assert_int_equal(proto_parse(line, strlen(line), PROTO_SERVER, &x, NULL, 0), 0);
	model_apply(m, &x, 0);
}

static void
in_game(model_t *m, view_t *v)
{
	model_init(m);
	view_init(v);
	model_sent(m, PR_GUEST);
	feed(m, "OK GUEST alice 3kQ9fZ0aLm2Xw8pR7tYc1bN4");
	feed(m, "* START r1 1 alice bob freestyle 15 60+1 none casual 60000 60000");
	v->screen = SCR_GAME;
}

/* Presses the keys of s (plain characters); returns the last result and
 * the request's wire form in wire. */
static input_rc_t
type(view_t *v, const model_t *m, const char *s, char *wire)
{
	input_rc_t r = INPUT_NOTHING;
	proto_msg_t out;
	wire[0] = '\0';
	for (; *s; s++) {
		r = input_key(v, m, (unsigned char)*s, 0, &out);
		if (r == INPUT_SEND)
			assert_true(proto_format(&out, wire, PROTO_LINE_MAX + 1) > 0);
	}
	return r;
}

static void
test_typed_move(void **state)
{
	(void)state;
	model_t m;
	view_t v;
	char wire[PROTO_LINE_MAX + 1];
	printf("checks: typing h8 then Enter plays h8; h12 and j3 move the cursor; hjkl move it\n");
	in_game(&m, &v);
	assert_int_equal(type(&v, &m, "h8\n", wire), INPUT_SEND);
	assert_string_equal(wire, "MOVE r1 h8\n");
	type(&v, &m, "h12", wire);
	assert_int_equal(v.cx, 7);
	assert_int_equal(v.cy, 3);
	type(&v, &m, "j3", wire);
	assert_int_equal(v.cx, 9);
	assert_int_equal(v.cy, 12);
	type(&v, &m, "lk", wire); /* right, up */
	assert_int_equal(v.cx, 10);
	assert_int_equal(v.cy, 11);
	assert_int_equal(type(&v, &m, " ", wire), INPUT_SEND);
	assert_string_equal(wire, "MOVE r1 k4\n");
	/* arrows clamp at the edge */
	proto_msg_t out;
	for (int i = 0; i < 30; i++)
		input_key(&v, &m, KEY_LEFT, 1, &out);
	assert_int_equal(v.cx, 0);
	input_key(&v, &m, KEY_UP, 1, &out);
	assert_int_equal(v.cy, 10);
}

static void
test_mouse(void **state)
{
	(void)state;
	model_t m;
	view_t v;
	proto_msg_t out;
	char wire[PROTO_LINE_MAX + 1];
	printf("checks: a click on a board point plays it; clicks off the board do nothing\n");
	in_game(&m, &v);
	/* a1 is the bottom-left: row 2 + 14, column 3 */
	assert_int_equal(input_click(&v, &m, 16, 3, &out), INPUT_SEND);
	proto_format(&out, wire, sizeof wire);
	assert_string_equal(wire, "MOVE r1 a1\n");
	/* o15, top right, clicked on the space right of it */
	assert_int_equal(input_click(&v, &m, 2, 3 + 28, &out), INPUT_SEND);
	proto_format(&out, wire, sizeof wire);
	assert_string_equal(wire, "MOVE r1 o15\n");
	assert_int_equal(input_click(&v, &m, 1, 5, &out), INPUT_NOTHING);
	assert_int_equal(input_click(&v, &m, 5, 60, &out), INPUT_NOTHING);
	assert_int_equal(input_click(&v, &m, 17, 5, &out), INPUT_NOTHING);
}

static void
test_resign_offers_chat(void **state)
{
	(void)state;
	model_t m;
	view_t v;
	char wire[PROTO_LINE_MAX + 1];
	printf(
	    "checks: resign asks first; offers and answers; chat line with UTF-8 and backspace\n");
	in_game(&m, &v);
	assert_int_equal(type(&v, &m, "R", wire), INPUT_REDRAW);
	assert_int_equal(v.ask, ASK_RESIGN);
	assert_int_equal(type(&v, &m, "n", wire), INPUT_REDRAW);
	assert_int_equal(v.ask, ASK_NONE);
	type(&v, &m, "R", wire);
	assert_int_equal(type(&v, &m, "y", wire), INPUT_SEND);
	assert_string_equal(wire, "RESIGN r1\n");
	type(&v, &m, "U", wire);
	assert_string_equal(wire, "OFFER r1 undo\n");
	/* nothing to accept yet */
	assert_int_equal(type(&v, &m, "A", wire), INPUT_NOTHING);
	feed(&m, "* OFFER r1 2 5 draw bob");
	type(&v, &m, "A", wire);
	assert_string_equal(wire, "ACCEPT r1 5\n");
	type(&v, &m, "X", wire);
	assert_string_equal(wire, "DECLINE r1 5\n");

	proto_msg_t out;
	input_key(&v, &m, '\t', 0, &out);
	assert_int_equal(v.input, IN_CHAT);
	type(&v, &m, "hi h8", wire);
	input_key(&v, &m, 0xe9, 0, &out);   /* é */
	input_key(&v, &m, 0x263a, 0, &out); /* ☺ */
	input_key(&v, &m, KEY_BACKSPACE, 1, &out);
	assert_string_equal(v.line, "hi h8\xc3\xa9");
	assert_int_equal(input_key(&v, &m, '\n', 0, &out), INPUT_SEND);
	proto_format(&out, wire, sizeof wire);
	assert_string_equal(wire, "SAY r1 hi h8\xc3\xa9\n");
	assert_int_equal(v.input, IN_NONE);
	/* "@bob text" is a private message */
	input_key(&v, &m, '\t', 0, &out);
	type(&v, &m, "@bob   psst", wire);
	assert_int_equal(input_key(&v, &m, '\r', 0, &out), INPUT_SEND);
	proto_format(&out, wire, sizeof wire);
	assert_string_equal(wire, "TELL bob psst\n");
	/* spaces around a line are dropped; a blank line sends nothing */
	input_key(&v, &m, '\t', 0, &out);
	type(&v, &m, "  gg  ", wire);
	assert_int_equal(input_key(&v, &m, '\r', 0, &out), INPUT_SEND);
	proto_format(&out, wire, sizeof wire);
	assert_string_equal(wire, "SAY r1 gg\n");
	input_key(&v, &m, '\t', 0, &out);
	type(&v, &m, "   ", wire);
	assert_int_equal(input_key(&v, &m, '\r', 0, &out), INPUT_REDRAW);
	/* Esc cancels a chat line */
	input_key(&v, &m, '/', 0, &out);
	type(&v, &m, "abc", wire);
	input_key(&v, &m, 27, 0, &out);
	assert_int_equal(v.input, IN_NONE);
	assert_int_equal(v.cx, 7); /* the letters went to the line, not the cursor */
}

static void
test_swap2_and_lobby(void **state)
{
	(void)state;
	model_t m;
	view_t v;
	char wire[PROTO_LINE_MAX + 1];
	printf(
	    "checks: swap2 stones collect into one SWAP2 put; lobby settings build SEEK and BOT\n");
	model_init(&m);
	view_init(&v);
	model_sent(&m, PR_GUEST);
	feed(&m, "OK GUEST alice 3kQ9fZ0aLm2Xw8pR7tYc1bN4");
	feed(&m, "* START r3 1 alice bob freestyle 15 none swap2 casual - -");
	feed(&m, "* SWAP2 r3 2 put3 alice");
	v.screen = SCR_GAME;
	assert_int_equal(type(&v, &m, "h8\n", wire), INPUT_REDRAW);
	type(&v, &m, "h8\n", wire); /* the same point twice counts once */
	assert_int_equal(v.nput, 1);
	type(&v, &m, "h9\n", wire);
	assert_int_equal(type(&v, &m, "i9\n", wire), INPUT_SEND);
	assert_string_equal(wire, "SWAP2 r3 put h8,h9,i9\n");
	assert_int_equal(v.nput, 0);
	type(&v, &m, "W", wire);
	assert_string_equal(wire, "SWAP2 r3 white\n");

	view_init(&v);
	proto_msg_t out;
	input_key(&v, &m, '\n', 0, &out);
	proto_format(&out, wire, sizeof wire);
	assert_string_equal(wire, "SEEK freestyle 15 300+5 any casual none\n");
	v.lobby_sel = LOBBY_RULE;
	input_key(&v, &m, KEY_RIGHT, 1, &out);
	input_key(&v, &m, KEY_RIGHT, 1, &out);
	v.lobby_sel = LOBBY_TC;
	input_key(&v, &m, KEY_LEFT, 1, &out);
	v.lobby_sel = LOBBY_LEVEL;
	input_key(&v, &m, KEY_LEFT, 1, &out);
	v.lobby_sel = LOBBY_BOT;
	assert_int_equal(input_key(&v, &m, '\n', 0, &out), INPUT_SEND);
	proto_format(&out, wire, sizeof wire);
	assert_string_equal(wire, "BOT play 2 renju 15 180+2 any none\n");
	v.lobby_sel = LOBBY_JOIN;
	input_key(&v, &m, '\n', 0, &out);
	assert_int_equal(v.input, IN_CODE);
	type(&v, &m, "k3J9x", wire);
	/* too short: the line stays open */
	assert_int_equal(input_key(&v, &m, '\r', 0, &out), INPUT_REDRAW);
	assert_int_equal(v.input, IN_CODE);
	type(&v, &m, " -Q2mPz7L", wire); /* only letters and digits go in */
	assert_int_equal(input_key(&v, &m, '\r', 0, &out), INPUT_SEND);
	proto_format(&out, wire, sizeof wire);
	assert_string_equal(wire, "JOIN k3J9xQ2mPz7L\n");
	/* a share link pasted whole: the code is taken out of it */
	v.lobby_sel = LOBBY_JOIN;
	input_key(&v, &m, '\n', 0, &out);
	type(&v, &m, "https://play.example.org:5555/#join=Ab12Cd34Ef", wire);
	assert_int_equal(input_key(&v, &m, '\r', 0, &out), INPUT_SEND);
	proto_format(&out, wire, sizeof wire);
	assert_string_equal(wire, "JOIN Ab12Cd34Ef\n");
	/* a link whose code was cut short stays on the line */
	input_key(&v, &m, '\n', 0, &out);
	type(&v, &m, "https://h/#join=Ab1", wire);
	assert_int_equal(input_key(&v, &m, '\r', 0, &out), INPUT_REDRAW);
	assert_int_equal(v.input, IN_CODE);
	input_key(&v, &m, 27, 0, &out);
	char code[PROTO_CODE_MAX + 1];
	assert_int_equal(input_invite_code("x/#join=a/#join=Zz99Yy88&x=1", code, sizeof code), 8);
	assert_string_equal(code, "Zz99Yy88");
	assert_int_equal(input_invite_code(" Q2-mP z7 ", code, sizeof code), 6);
	assert_string_equal(code, "Q2mPz7");
	/* history pages: n and p ask for the next and previous page */
	v.lobby_sel = LOBBY_HISTORY;
	input_key(&v, &m, '\n', 0, &out);
	assert_int_equal(v.screen, SCR_HISTORY);
	model_sent(&m, PR_HISTORY);
	feed(&m, "= GAME 99 renju 15 ann ben black five 9 1796000000");
	feed(&m, "OK HISTORY 1 45");
	assert_int_equal(input_key(&v, &m, 'p', 0, &out), INPUT_NOTHING); /* no page 0 */
	assert_int_equal(input_key(&v, &m, 'n', 0, &out), INPUT_SEND);
	proto_format(&out, wire, sizeof wire);
	assert_string_equal(wire, "HISTORY alice 2\n");
	input_key(&v, &m, 'n', 0, &out);
	assert_int_equal(input_key(&v, &m, 'n', 0, &out), INPUT_NOTHING); /* 45 games: 3 pages */
	assert_int_equal(v.page, 3);
	v.screen = SCR_LOBBY;
	/* quitting asks */
	assert_int_equal(type(&v, &m, "q", wire), INPUT_NOTHING);
	assert_int_equal(v.ask, ASK_QUIT);
	assert_int_equal(type(&v, &m, "y", wire), INPUT_QUIT);
}

static void
test_opening_keys(void **state)
{
	(void)state;
	model_t m;
	view_t v;
	char wire[PROTO_LINE_MAX + 1];
	printf("checks: each opening stage's keys make its OPENING request, only when the stage "
	       "is mine: place, colour, declare, offer (marked, then S), choose, branch\n");
	model_init(&m);
	view_init(&v);
	feed(&m, "* SERVER gomokud 0.2.0 1 swap2 chat resume openings");
	model_sent(&m, PR_GUEST);
	feed(&m, "OK GUEST alice 3kQ9fZ0aLm2Xw8pR7tYc1bN4");
	feed(&m, "* START r1 1 alice bob renju 15 300+5 rif casual 300000 300000");
	v.screen = SCR_GAME;
	/* before the first stage nothing is sent, not a MOVE either */
	assert_int_equal(type(&v, &m, "h8\n", wire), INPUT_NOTHING);
	feed(&m, "* OPENING r1 2 place alice black centre 0 - -");
	assert_int_equal(type(&v, &m, "h8\n", wire), INPUT_SEND);
	assert_string_equal(wire, "OPENING place r1 h8\n");
	/* the server decides the area: a point outside it is sent too */
	assert_int_equal(type(&v, &m, "a1\n", wire), INPUT_SEND);
	assert_string_equal(wire, "OPENING place r1 a1\n");
	feed(&m, "* MOVE r1 3 black h8 300000 300000");
	feed(&m, "* MOVE r1 4 white h9 300000 300000");
	feed(&m, "* MOVE r1 5 black i9 300000 300000");
	feed(&m, "* OPENING r1 6 swap bob white - 0 d4 -");
	/* bob's stage: my keys do nothing */
	assert_int_equal(type(&v, &m, "B", wire), INPUT_NOTHING);
	assert_int_equal(type(&v, &m, "j8\n", wire), INPUT_NOTHING);
	feed(&m, "* OPENING r1 7 swap alice black - 0 d4 -");
	assert_int_equal(type(&v, &m, "W", wire), INPUT_SEND);
	assert_string_equal(wire, "OPENING colour r1 white\n");
	assert_int_equal(type(&v, &m, "B", wire), INPUT_SEND);
	assert_string_equal(wire, "OPENING colour r1 black\n");

	/* declare: digits (a second makes 10), +/-, Enter sends, Esc clears */
	feed(&m, "* OPENING r1 8 declare alice black - 10 d4 -");
	assert_int_equal(type(&v, &m, "\n", wire), INPUT_NOTHING); /* no number yet */
	type(&v, &m, "3", wire);
	assert_int_equal(v.declare, 3);
	assert_int_equal(type(&v, &m, "\n", wire), INPUT_SEND);
	assert_string_equal(wire, "OPENING declare r1 3\n");
	assert_int_equal(v.declare, 0);
	type(&v, &m, "10", wire);
	assert_int_equal(v.declare, 10);
	type(&v, &m, "+", wire);
	assert_int_equal(v.declare, 10); /* the most the stage allows */
	type(&v, &m, "--", wire);
	assert_int_equal(v.declare, 8);
	type(&v, &m, "\x1b", wire);
	assert_int_equal(v.declare, 0);
	type(&v, &m, "-+", wire);
	assert_int_equal(v.declare, 2);
	assert_int_equal(type(&v, &m, "\n", wire), INPUT_SEND);
	assert_string_equal(wire, "OPENING declare r1 2\n");
	/* Soosorv-8's declare allows 8: 9 is no number of it */
	feed(&m, "* OPENING r1 9 declare alice white - 8 d4 -");
	type(&v, &m, "9", wire);
	assert_int_equal(v.declare, 0);
	type(&v, &m, "8", wire);
	assert_int_equal(v.declare, 8);
	type(&v, &m, "\x1b", wire);

	/* offer: Enter marks or unmarks, up to the count; S sends them all */
	feed(&m, "* MOVE r1 10 white j8 300000 300000");
	feed(&m, "* OPENING r1 11 offer alice black - 2 d4 -");
	assert_int_equal(type(&v, &m, "S", wire), INPUT_NOTHING); /* none marked */
	assert_int_equal(type(&v, &m, "g7\n", wire), INPUT_REDRAW);
	assert_int_equal(v.nfifth, 1);
	type(&v, &m, "g7\n", wire);
	assert_int_equal(v.nfifth, 0);
	assert_int_equal(type(&v, &m, "h8\n", wire), INPUT_NOTHING); /* a stone is there */
	type(&v, &m, "g7\nj10\n", wire);
	assert_int_equal(type(&v, &m, "k11\n", wire), INPUT_NOTHING); /* two declared */
	assert_int_equal(v.nfifth, 2);
	assert_int_equal(type(&v, &m, "S", wire), INPUT_SEND);
	assert_string_equal(wire, "OPENING offer r1 g7,j10\n");
	assert_int_equal(v.nfifth, 0);
	type(&v, &m, "g7\n\x1b", wire);
	assert_int_equal(v.nfifth, 0);

	/* choose: Enter on a point plays it as the fifth */
	feed(&m, "* OPENING r1 12 choose alice white offers 2 d4 g7,j10");
	assert_int_equal(type(&v, &m, "j10\n", wire), INPUT_SEND);
	assert_string_equal(wire, "OPENING choose r1 j10\n");
	assert_int_equal(type(&v, &m, "S", wire), INPUT_NOTHING);

	/* Taraguchi-10's branch: O one, T ten; not at another stage */
	feed(&m, "* OVER r1 13 white resign -");
	feed(&m, "* START r1 14 alice bob renju 15 300+5 taraguchi10 casual 300000 300000");
	feed(&m, "* OPENING r1 15 branch alice black - 0 d4 -");
	assert_int_equal(type(&v, &m, "O", wire), INPUT_SEND);
	assert_string_equal(wire, "OPENING branch r1 one\n");
	assert_int_equal(type(&v, &m, "T", wire), INPUT_SEND);
	assert_string_equal(wire, "OPENING branch r1 ten\n");
	feed(&m, "* OPENING r1 16 place alice black in9 0 d4 -");
	assert_int_equal(type(&v, &m, "T", wire), INPUT_NOTHING);
	assert_int_equal(type(&v, &m, "W", wire), INPUT_NOTHING);
	/* after COLOURS the game is played with MOVE again */
	feed(&m, "* MOVE r1 17 black k8 300000 300000");
	feed(&m, "* COLOURS r1 18 alice bob");
	feed(&m, "* MOVE r1 19 white k9 300000 300000");
	assert_int_equal(type(&v, &m, "a1\n", wire), INPUT_SEND);
	assert_string_equal(wire, "MOVE r1 a1\n");
}

static void
test_lobby_openings(void **state)
{
	(void)state;
	model_t m;
	view_t v;
	char wire[PROTO_LINE_MAX + 1];
	proto_msg_t out;
	printf("checks: the lobby's opening setting: none and swap2 before `openings`; with it, "
	       "the openings the rules core says go with the rule and size\n");
	model_init(&m);
	view_init(&v);
	feed(&m, "* SERVER gomokud 0.1.0 1 swap2 chat resume");
	v.lobby_sel = LOBBY_OPENING;
	input_key(&v, &m, KEY_RIGHT, 1, &out);
	assert_int_equal(v.opening, OPENING_SWAP2);
	input_key(&v, &m, KEY_RIGHT, 1, &out);
	assert_int_equal(v.opening, OPENING_NONE);
	input_key(&v, &m, KEY_LEFT, 1, &out);
	assert_int_equal(v.opening, OPENING_SWAP2);

	model_init(&m);
	view_init(&v);
	feed(&m, "* SERVER gomokud 0.2.0 1 swap2 chat resume openings");
	/* freestyle 15: none, swap2, swap, pro, long pro */
	static const proto_opening_t free15[] = { OPENING_SWAP2, OPENING_SWAP, OPENING_PRO,
		OPENING_LONGPRO, OPENING_NONE };
	v.lobby_sel = LOBBY_OPENING;
	for (int i = 0; i < 5; i++) {
		input_key(&v, &m, KEY_RIGHT, 1, &out);
		assert_int_equal(v.opening, free15[i]);
	}
	/* renju 15: none, RIF, Yamaguchi, Soosorv-8, Taraguchi-10 */
	v.lobby_sel = LOBBY_RULE;
	input_key(&v, &m, KEY_LEFT, 1, &out);
	assert_int_equal(v.rule, RULE_RENJU);
	v.lobby_sel = LOBBY_OPENING;
	static const proto_opening_t renju15[] = { OPENING_RIF, OPENING_YAMAGUCHI, OPENING_SOOSORV8,
		OPENING_TARAGUCHI10, OPENING_NONE };
	for (int i = 0; i < 5; i++) {
		input_key(&v, &m, KEY_RIGHT, 1, &out);
		assert_int_equal(v.opening, renju15[i]);
	}
	input_key(&v, &m, KEY_LEFT, 1, &out);
	assert_int_equal(v.opening, OPENING_TARAGUCHI10);
	v.lobby_sel = LOBBY_CREATE;
	assert_int_equal(input_key(&v, &m, '\n', 0, &out), INPUT_SEND);
	proto_format(&out, wire, sizeof wire);
	assert_string_equal(wire, "CREATE renju 15 300+5 any casual taraguchi10\n");
	v.lobby_sel = LOBBY_BOT;
	input_key(&v, &m, '\n', 0, &out);
	proto_format(&out, wire, sizeof wire);
	assert_string_equal(wire, "BOT play 3 renju 15 300+5 any taraguchi10\n");
	/* a size the opening does not go with: back to none */
	v.lobby_sel = LOBBY_SIZE;
	input_key(&v, &m, KEY_RIGHT, 1, &out);
	assert_int_equal(v.size, 19);
	assert_int_equal(v.opening, OPENING_NONE);
	/* freestyle 9: pro yes (odd, 7 and up), long pro yes (9 and up) */
	v.lobby_sel = LOBBY_RULE;
	input_key(&v, &m, KEY_RIGHT, 1, &out);
	assert_int_equal(v.rule, RULE_FREESTYLE);
	v.lobby_sel = LOBBY_SIZE;
	input_key(&v, &m, KEY_RIGHT, 1, &out); /* 20 */
	input_key(&v, &m, KEY_RIGHT, 1, &out); /* 9 */
	assert_int_equal(v.size, 9);
	v.lobby_sel = LOBBY_OPENING;
	input_key(&v, &m, KEY_LEFT, 1, &out);
	assert_int_equal(v.opening, OPENING_LONGPRO);
	v.lobby_sel = LOBBY_SIZE;
	input_key(&v, &m, KEY_RIGHT, 1, &out); /* 13 */
	assert_int_equal(v.opening, OPENING_LONGPRO);
	input_key(&v, &m, KEY_RIGHT, 1, &out); /* 15 */
	input_key(&v, &m, KEY_RIGHT, 1, &out); /* 19 */
	input_key(&v, &m, KEY_RIGHT, 1, &out); /* 20: even, no pro */
	assert_int_equal(v.opening, OPENING_NONE);
	v.lobby_sel = LOBBY_SEEK;
	input_key(&v, &m, '\n', 0, &out);
	proto_format(&out, wire, sizeof wire);
	assert_string_equal(wire, "SEEK freestyle 20 300+5 any casual none\n");
}

/* The replay with the engine's review (`review`): r asks for it (not
 * while one is under way or read), n/p go to the position before each
 * mark's move, ] and [ step that mark's line and back, a step through the
 * game hides the line. */
static void
test_replay_review(void **state)
{
	(void)state;
	model_t m;
	view_t v;
	proto_msg_t out;
	char wire[PROTO_LINE_MAX + 1];
	printf("checks: the replay's review keys: r asks, n/p go to the marks, ] [ step a line\n");
	model_init(&m);
	view_init(&v);
	feed(&m, "* SERVER gomokud 0.2.0 1 chat history review");
	model_sent(&m, PR_GUEST);
	feed(&m, "OK GUEST alice 3kQ9fZ0aLm2Xw8pR7tYc1bN4");
	model_sent(&m, PR_EXPORT);
	feed(&m, "= RECORD rule freestyle");
	feed(&m, "= RECORD size 15");
	feed(&m, "= RECORD moves h8 a1 i8 a2 j8 a3 k8 a4 l8");
	feed(&m, "OK EXPORT 17 text");
	char err[64];
	assert_int_equal(model_record_position(&m, &v.replay, err, sizeof err), 0);
	v.screen = SCR_REPLAY;
	/* no marks yet: n, p, ] do nothing */
	assert_int_equal(type(&v, &m, "n", wire), INPUT_NOTHING);
	assert_int_equal(type(&v, &m, "]", wire), INPUT_NOTHING);
	model_sent(&m, PR_MARKS);
	feed(&m, "ERR 455 not-reviewed");
	assert_int_equal(type(&v, &m, "r", wire), INPUT_SEND);
	assert_string_equal(wire, "REVIEW 17\n");
	model_sent(&m, PR_REVIEW);
	feed(&m, "OK REVIEW 17");
	assert_int_equal(type(&v, &m, "r", wire), INPUT_NOTHING); /* under way */
	model_sent(&m, PR_MARKS);
	feed(&m, "= EVAL 17 0 500,540,460,700,640,900,960,990,1000,1000");
	feed(&m, "= MARK 17 blunder white 4 a2 g8 300 40 block-open-three g8,a2,f8");
	feed(&m, "= MARK 17 blunder white 6 a3 k8 100 4 block-open-three k8,g8");
	feed(&m, "OK MARKS 17 9 2");
	assert_int_equal(type(&v, &m, "r", wire), INPUT_NOTHING); /* read already */
	assert_int_equal(type(&v, &m, "n", wire), INPUT_REDRAW);
	assert_int_equal(v.mark_sel, 0);
	assert_int_equal(v.replay_ply, 3); /* before move 4 */
	assert_int_equal(type(&v, &m, "]]", wire), INPUT_REDRAW);
	assert_int_equal(v.line_step, 2);
	type(&v, &m, "]", wire);
	assert_int_equal(v.line_step, 3);
	assert_int_equal(type(&v, &m, "]", wire), INPUT_NOTHING); /* the line's end */
	assert_int_equal(v.line_step, 3);
	type(&v, &m, "[[", wire);
	assert_int_equal(v.line_step, 1);
	assert_int_equal(v.replay_ply, 3); /* the game's position stays */
	type(&v, &m, "n", wire);
	assert_int_equal(v.mark_sel, 1);
	assert_int_equal(v.replay_ply, 5);
	assert_int_equal(v.line_step, 0);
	type(&v, &m, "n", wire); /* round to the first */
	assert_int_equal(v.mark_sel, 0);
	type(&v, &m, "pp", wire);
	assert_int_equal(v.mark_sel, 0);
	assert_int_equal(v.replay_ply, 3);
	type(&v, &m, "]", wire);
	input_key(&v, &m, KEY_RIGHT, 1, &out);
	assert_int_equal(v.replay_ply, 4);
	assert_int_equal(v.line_step, 0); /* the line went with its position */
	assert_int_equal(type(&v, &m, "]", wire), INPUT_NOTHING); /* no mark's move next */
	/* with no mark chosen (a replay just opened) p takes the last one */
	input_key(&v, &m, KEY_END, 1, &out);
	v.mark_sel = -1;
	type(&v, &m, "p", wire);
	assert_int_equal(v.mark_sel, 1);
	assert_int_equal(v.replay_ply, 5);
	/* a position before another mark's move: ] chooses that mark and steps it */
	for (int i = 0; i < 2; i++)
		input_key(&v, &m, KEY_LEFT, 1, &out);
	assert_int_equal(v.replay_ply, 3);
	assert_int_equal(type(&v, &m, "]", wire), INPUT_REDRAW);
	assert_int_equal(v.mark_sel, 0);
	assert_int_equal(v.line_step, 1);
	/* without `review`, r asks nothing */
	memcpy(m.caps, "chat history", 13);
	model_sent(&m, PR_MARKS);
	feed(&m, "ERR 455 not-reviewed");
	assert_int_equal(type(&v, &m, "r", wire), INPUT_NOTHING);
}

/* Sends what key (a character) asks, as the session does: the model
 * keeps a PUZZLE's word and a SOLVE's move. */
static input_rc_t
press(view_t *v, model_t *m, const char *keys, char *wire)
{
	input_rc_t r = INPUT_NOTHING;
	proto_msg_t out;
	wire[0] = '\0';
	for (; *keys; keys++) {
		r = input_key(v, m, (unsigned char)*keys, 0, &out);
		if (r == INPUT_SEND) {
			assert_true(proto_format(&out, wire, PROTO_LINE_MAX + 1) > 0);
			model_sent(m, out.id);
			model_puzzle_sent(m, &out);
		}
	}
	return r;
}

/* A puzzle (`puzzles`): z and d in the lobby ask for the next and the
 * daily puzzle (nothing without the capability); on its board the game's
 * cursor keys, typed points, space and clicks send SOLVE, only while it
 * is the player's move; N, D and R ask for the next, the daily and the
 * same puzzle; ] and [ step a failed puzzle's solution; Esc drops a point
 * typed first, then goes to the lobby, as Q does. */
static void
test_puzzle_keys(void **state)
{
	(void)state;
	model_t m;
	view_t v;
	proto_msg_t out;
	char wire[PROTO_LINE_MAX + 1];
	printf("checks: z and d ask for puzzles; a puzzle's board sends SOLVE; N D R; ] [ the "
	       "solution; Esc and Q\n");
	model_init(&m);
	view_init(&v);
	feed(&m, "* SERVER gomokud 0.2.0 1 chat");
	model_sent(&m, PR_GUEST);
	feed(&m, "OK GUEST alice 3kQ9fZ0aLm2Xw8pR7tYc1bN4");
	assert_int_equal(press(&v, &m, "z", wire), INPUT_NOTHING); /* no `puzzles` */
	assert_int_equal(press(&v, &m, "d", wire), INPUT_NOTHING);
	memcpy(m.caps, "chat puzzles", 13);
	assert_int_equal(press(&v, &m, "d", wire), INPUT_SEND);
	assert_string_equal(wire, "PUZZLE daily\n");
	feed(&m, "ERR 456 no-puzzle");
	assert_int_equal(press(&v, &m, "z", wire), INPUT_SEND);
	assert_string_equal(wire, "PUZZLE next\n");
	feed(&m, "OK PUZZLE 17 freestyle 15 vct 5 1500 h8,a1,i8,a15,j9,o1,j10,o15");
	v.screen = SCR_PUZZLE; /* the session shows it */
	assert_int_equal(press(&v, &m, "j8\n", wire), INPUT_SEND);
	assert_string_equal(wire, "SOLVE 17 j8\n");
	assert_int_equal(v.cx, 9);
	assert_int_equal(v.cy, 7);
	/* judged now: no other move until the answer */
	assert_int_equal(press(&v, &m, " ", wire), INPUT_NOTHING);
	feed(&m, "OK SOLVE 17 more j11 - -");
	input_key(&v, &m, KEY_RIGHT, 1, &out); /* k8 */
	assert_int_equal(press(&v, &m, " ", wire), INPUT_SEND);
	assert_string_equal(wire, "SOLVE 17 k8\n");
	feed(&m, "OK SOLVE 17 more g8 - -");
	/* a click on l8: column l (11), row 8 (screen row 2 + 7) */
	assert_int_equal(input_click(&v, &m, 2 + 7, 3 + 2 * 11, &out), INPUT_SEND);
	assert_true(proto_format(&out, wire, sizeof wire) > 0);
	assert_string_equal(wire, "SOLVE 17 l8\n");
	model_sent(&m, out.id);
	model_puzzle_sent(&m, &out);
	feed(&m, "OK SOLVE 17 solved - 1523 -");
	assert_int_equal(press(&v, &m, "\n", wire), INPUT_NOTHING); /* over */
	assert_int_equal(press(&v, &m, "]", wire), INPUT_NOTHING);  /* no solution to show */
	assert_int_equal(press(&v, &m, "R", wire), INPUT_SEND);
	assert_string_equal(wire, "PUZZLE 17\n");
	feed(&m, "OK PUZZLE 17 freestyle 15 vct 5 1500 h8,a1,i8,a15,j9,o1,j10,o15");
	assert_int_equal(press(&v, &m, "k8\n", wire), INPUT_SEND);
	feed(&m, "OK SOLVE 17 failed - - j8,j11,k8,g8,l8");
	assert_int_equal(press(&v, &m, "]]", wire), INPUT_REDRAW);
	assert_int_equal(v.puzzle_step, 2);
	assert_int_equal(press(&v, &m, "[", wire), INPUT_REDRAW);
	assert_int_equal(v.puzzle_step, 1);
	press(&v, &m, "]]]]", wire);
	assert_int_equal(v.puzzle_step, 5);
	assert_int_equal(press(&v, &m, "]", wire), INPUT_NOTHING); /* the solution's end */
	assert_int_equal(v.puzzle_step, 5);
	assert_int_equal(press(&v, &m, "N", wire), INPUT_SEND);
	assert_string_equal(wire, "PUZZLE next\n");
	assert_int_equal(press(&v, &m, "D", wire), INPUT_SEND);
	assert_string_equal(wire, "PUZZLE daily\n");
	/* help and back; Esc drops a point being typed, then leaves */
	press(&v, &m, "?", wire);
	assert_int_equal(v.screen, SCR_HELP);
	press(&v, &m, "x", wire);
	assert_int_equal(v.screen, SCR_PUZZLE);
	press(&v, &m, "c\x1b", wire);
	assert_string_equal(v.typed, "");
	assert_int_equal(v.screen, SCR_PUZZLE);
	press(&v, &m, "\x1b", wire);
	assert_int_equal(v.screen, SCR_LOBBY);
	v.screen = SCR_PUZZLE;
	press(&v, &m, "Q", wire);
	assert_int_equal(v.screen, SCR_LOBBY);
	/* a click in the lobby plays nothing */
	assert_int_equal(input_click(&v, &m, 2 + 7, 3 + 2 * 11, &out), INPUT_NOTHING);
}

/* ? opens the help from a game; where it fits, any key goes back (Down
 * too); where it does not (help_max, the session's), Up/Down, j/k and
 * PgUp/PgDn scroll it within 0..help_max, and another key goes back; it
 * opens at its top again. */
static void
test_help_scroll(void **state)
{
	(void)state;
	model_t m;
	view_t v;
	proto_msg_t out;
	in_game(&m, &v);
	v.help_max = 0;
	assert_int_equal(input_key(&v, &m, '?', 0, &out), INPUT_REDRAW);
	assert_int_equal(v.screen, SCR_HELP);
	assert_int_equal(input_key(&v, &m, KEY_DOWN, 1, &out), INPUT_REDRAW);
	assert_int_equal(v.screen, SCR_GAME);
	v.help_max = 8;
	input_key(&v, &m, '?', 0, &out);
	assert_int_equal(v.help_top, 0);
	input_key(&v, &m, KEY_DOWN, 1, &out);
	input_key(&v, &m, 'j', 0, &out);
	assert_int_equal(v.help_top, 2);
	input_key(&v, &m, 'k', 0, &out);
	assert_int_equal(v.help_top, 1);
	input_key(&v, &m, KEY_NPAGE, 1, &out);
	assert_int_equal(v.help_top, 8); /* held at help_max */
	input_key(&v, &m, KEY_UP, 1, &out);
	assert_int_equal(v.help_top, 7);
	input_key(&v, &m, KEY_PPAGE, 1, &out);
	assert_int_equal(v.help_top, 0);
	input_key(&v, &m, KEY_UP, 1, &out);
	assert_int_equal(v.help_top, 0);
	assert_int_equal(v.screen, SCR_HELP);
	input_key(&v, &m, 'q', 0, &out);
	assert_int_equal(v.screen, SCR_GAME);
	input_key(&v, &m, '?', 0, &out);
	input_key(&v, &m, 'j', 0, &out);
	input_key(&v, &m, ' ', 0, &out);
	input_key(&v, &m, '?', 0, &out);
	assert_int_equal(v.help_top, 0);
}

/* Tournaments (`tournaments`): T in the lobby lists them (nothing without
 * the capability), Enter opens the one selected (TWATCH); J joins, L
 * leaves once asked, only a player; Enter goes to my game under way; Esc
 * back to the list, no longer following an event I am not in; a game of
 * the event, over, goes back to it with T (its room left), another
 * game's T does nothing. */
static void
test_tourney_keys(void **state)
{
	(void)state;
	model_t m;
	view_t v;
	proto_msg_t out;
	char wire[PROTO_LINE_MAX + 1];
	printf("checks: T lists the tournaments; Enter TWATCH; J, L (asked), Enter my game, Esc; "
	       "T from the event's game\n");
	model_init(&m);
	view_init(&v);
	feed(&m, "* SERVER gomokud 0.2.0 1 chat");
	model_sent(&m, PR_GUEST);
	feed(&m, "OK GUEST ann 3kQ9fZ0aLm2Xw8pR7tYc1bN4");
	assert_int_equal(press(&v, &m, "T", wire), INPUT_NOTHING); /* no `tournaments` */
	assert_int_equal(v.screen, SCR_LOBBY);
	memcpy(m.caps, "chat tournaments", 17);
	assert_int_equal(press(&v, &m, "T", wire), INPUT_SEND);
	assert_string_equal(wire, "TLIST\n");
	assert_int_equal(v.screen, SCR_TOURNEYS);
	feed(&m,
	    "= TOURNEY 4 swiss over freestyle 15 300+0 none casual people 1796000600 3 3 3 4 -");
	feed(&m,
	    "= TOURNEY 7 swiss soon freestyle 15 300+0 none casual people 1796000600 1 0 1 1 "
	    "carol Test");
	feed(&m, "OK TLIST 2");
	assert_int_equal(press(&v, &m, "\n", wire), INPUT_SEND);
	assert_string_equal(wire, "TWATCH 4\n");
	assert_int_equal(v.screen, SCR_TOURNEY);
	assert_int_equal(press(&v, &m, "J", wire), INPUT_NOTHING); /* not shown yet */
	feed(&m, "ERR 457 no-tourney");
	assert_int_equal(press(&v, &m, "\x1b", wire), INPUT_REDRAW);
	assert_int_equal(v.screen, SCR_TOURNEYS);
	input_key(&v, &m, KEY_DOWN, 1, &out);
	input_key(&v, &m, KEY_DOWN, 1, &out); /* the last one: stays */
	assert_int_equal(v.list_sel, 1);
	assert_int_equal(press(&v, &m, "\n", wire), INPUT_SEND);
	assert_string_equal(wire, "TWATCH 7\n");
	assert_int_equal(v.tourney, 7);
	feed(&m,
	    "= TOURNEY 7 swiss soon freestyle 15 300+0 none casual people 1796000600 1 0 1 1 "
	    "carol Test");
	feed(&m, "= TPLAYER 7 1 carol 1500 0 0,0,0,0 0 active 0");
	feed(&m, "OK TWATCH 7");
	assert_int_equal(press(&v, &m, "L", wire), INPUT_NOTHING); /* not in it: nothing to leave */
	assert_int_equal(v.ask, ASK_NONE);
	assert_int_equal(press(&v, &m, "J", wire), INPUT_SEND);
	assert_string_equal(wire, "TJOIN 7\n");
	feed(&m, "OK TJOIN 7");
	feed(&m, "* TPLAYER 7 1 ann 1500 0 0,0,0,0 0 active 0");
	assert_int_equal(press(&v, &m, "L", wire), INPUT_REDRAW);
	assert_int_equal(v.ask, ASK_TLEAVE);
	assert_int_equal(press(&v, &m, "n", wire), INPUT_REDRAW); /* asked, and no */
	assert_int_equal(press(&v, &m, "Ly", wire), INPUT_SEND);
	assert_string_equal(wire, "TLEAVE 7\n");
	feed(&m, "ERR 500 internal not stored; try again");
	/* the start: my game; Enter goes to it while it is the room held */
	feed(&m,
	    "* TOURNEY 7 swiss running freestyle 15 300+0 none casual people 1796000600 1 1 1 2 "
	    "carol Test");
	feed(&m, "* TGAME 7 1 1 - carol ann pending");
	assert_int_equal(press(&v, &m, "\n", wire), INPUT_NOTHING); /* no room yet */
	feed(&m, "* START r7 1 carol ann freestyle 15 300+0 none casual 300000 300000");
	assert_int_equal(press(&v, &m, "\n", wire), INPUT_REDRAW);
	assert_int_equal(v.screen, SCR_GAME);
	assert_int_equal(press(&v, &m, "T", wire), INPUT_NOTHING); /* not over */
	feed(&m, "* OVER r7 2 white resign -");
	assert_int_equal(press(&v, &m, "T", wire), INPUT_SEND);
	assert_string_equal(wire, "LEAVE r7\n");
	assert_int_equal(v.screen, SCR_TOURNEY);
	/* Esc: a player still follows it; Up/Down scroll its standings */
	input_key(&v, &m, KEY_DOWN, 1, &out);
	assert_int_equal(v.tscroll, 1);
	input_key(&v, &m, KEY_DOWN, 1, &out);
	assert_int_equal(v.tscroll, 1);
	assert_int_equal(press(&v, &m, "\x1b", wire), INPUT_REDRAW);
	assert_int_equal(v.screen, SCR_TOURNEYS);
	press(&v, &m, "\n", wire);
	feed(&m, "* TPLAYER 7 2 ann 1500 0 0,0,0,0 1 withdrawn 0");
	assert_int_equal(press(&v, &m, "q", wire), INPUT_SEND);
	assert_string_equal(wire, "TUNWATCH 7\n");
	assert_int_equal(press(&v, &m, "r", wire), INPUT_SEND);
	assert_string_equal(wire, "TLIST\n");
	assert_int_equal(press(&v, &m, "q", wire), INPUT_REDRAW);
	assert_int_equal(v.screen, SCR_LOBBY);
	/* another game, over: T is not the tournament's */
	feed(&m, "* START r9 1 ann bob freestyle 15 300+0 none casual 300000 300000");
	feed(&m, "* OVER r9 2 white resign -");
	v.screen = SCR_GAME;
	assert_int_equal(press(&v, &m, "T", wire), INPUT_NOTHING);
	assert_int_equal(v.screen, SCR_GAME);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_typed_move),
		cmocka_unit_test(test_mouse),
		cmocka_unit_test(test_resign_offers_chat),
		cmocka_unit_test(test_swap2_and_lobby),
		cmocka_unit_test(test_opening_keys),
		cmocka_unit_test(test_lobby_openings),
		cmocka_unit_test(test_replay_review),
		cmocka_unit_test(test_puzzle_keys),
		cmocka_unit_test(test_help_scroll),
		cmocka_unit_test(test_tourney_keys),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
