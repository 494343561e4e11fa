/*
 * test_proto: the protocol library. Every message form parses from its
 * canonical line and formats back to the same line; typed fields hold what
 * the line said; malformed and hostile lines get the documented error code.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "proto/proto.h"

/* One canonical line for every form; the test checks that all are covered. */
static const struct {
	int from;
	const char *line;
} canon[] = {
	{ PROTO_CLIENT, "HELLO 1 gomoku-tui/0.1" },
	{ PROTO_CLIENT, "#t1 HELLO 1" },
	{ PROTO_CLIENT, "PING" },
	{ PROTO_CLIENT, "#a.b-c_9 PING 12345" },
	{ PROTO_CLIENT, "GUEST" },
	{ PROTO_CLIENT, "GUEST Alice_2" },
	{ PROTO_CLIENT, "REGISTER alice s3cr3t!pw" },
	{ PROTO_CLIENT, "LOGIN alice s3cr3t!pw" },
	{ PROTO_CLIENT, "LOGOUT" },
	{ PROTO_CLIENT, "SEEK renju 15 300+5 any rated none" },
	{ PROTO_CLIENT, "SEEK freestyle 19 none black casual swap2" },
	{ PROTO_CLIENT, "SEEK freestyle 15 60+1 any casual none bot" },
	{ PROTO_CLIENT, "CANCEL" },
	{ PROTO_CLIENT, "CANCEL 7" },
	{ PROTO_CLIENT, "CREATE standard 15 60+0 white casual swap2" },
	{ PROTO_CLIENT, "JOIN k3J9xQ2mPz7LwB4n" },
	{ PROTO_CLIENT, "WATCH r12" },
	{ PROTO_CLIENT, "LEAVE r12" },
	{ PROTO_CLIENT, "ROOMS" },
	{ PROTO_CLIENT, "WHO" },
	{ PROTO_CLIENT, "WHO r12" },
	{ PROTO_CLIENT, "MOVE r12 h8" },
	{ PROTO_CLIENT, "#m5 MOVE r12 t20" },
	{ PROTO_CLIENT, "SWAP2 r3 put h8,i9,j10" },
	{ PROTO_CLIENT, "SWAP2 r3 white" },
	{ PROTO_CLIENT, "SWAP2 r3 black" },
	{ PROTO_CLIENT, "OPENING place r3 h8" },
	{ PROTO_CLIENT, "OPENING colour r3 white" },
	{ PROTO_CLIENT, "OPENING declare r3 10" },
	{ PROTO_CLIENT, "OPENING offer r3 e4,l11" },
	{ PROTO_CLIENT, "OPENING choose r3 l11" },
	{ PROTO_CLIENT, "OPENING branch r3 ten" },
	{ PROTO_CLIENT, "SEEK renju 15 300+5 any rated soosorv8" },
	{ PROTO_CLIENT, "CREATE freestyle 15 none black casual longpro" },
	{ PROTO_CLIENT, "RESIGN r12" },
	{ PROTO_CLIENT, "OFFER r12 draw" },
	{ PROTO_CLIENT, "OFFER r12 undo" },
	{ PROTO_CLIENT, "OFFER r12 rematch" },
	{ PROTO_CLIENT, "ACCEPT r12 4" },
	{ PROTO_CLIENT, "DECLINE r12 4" },
	{ PROTO_CLIENT, "ABORT r12" },
	{ PROTO_CLIENT, "CLAIM r12" },
	{ PROTO_CLIENT, "SAY r12 good luck, have fun \xc3\xa9\xe4\xb8\xad\xf0\x9f\x99\x82" },
	{ PROTO_CLIENT, "TELL bob hi there" },
	{ PROTO_CLIENT, "BOT play 5 renju 15 600+10 black none" },
	{ PROTO_CLIENT, "BOT seat r12 3" },
	{ PROTO_CLIENT, "BOT play rapfi freestyle 15 none any none" },
	{ PROTO_CLIENT, "BOT seat r12 wine2" },
	{ PROTO_CLIENT, "STATE r12" },
	{ PROTO_CLIENT, "FORBIDDEN r12" },
	{ PROTO_CLIENT, "POSITION renju 15 h8,a1,i8" },
	{ PROTO_CLIENT, "POSITION freestyle 9 -" },
	{ PROTO_CLIENT, "ANALYSE renju 15 h8,a1,i8" },
	{ PROTO_CLIENT, "ANALYSE freestyle 15 - 5" },
	{ PROTO_CLIENT, "REVIEW 1234" },
	{ PROTO_CLIENT, "MARKS 1234" },
	{ PROTO_CLIENT, "PUZZLE next" },
	{ PROTO_CLIENT, "PUZZLE 17" },
	{ PROTO_CLIENT, "SOLVE 17 k8" },
	{ PROTO_CLIENT, "TLIST" },
	{ PROTO_CLIENT,
	    "TCREATE swiss renju 15 600+5 soosorv8 rated people 300 7 Friday night Swiss" },
	{ PROTO_CLIENT, "TCREATE arena freestyle 15 180+2 swap2 casual both 60 120" },
	{ PROTO_CLIENT, "TWATCH 17" },
	{ PROTO_CLIENT, "TUNWATCH 17" },
	{ PROTO_CLIENT, "TJOIN 17" },
	{ PROTO_CLIENT, "TLEAVE 17" },
	{ PROTO_CLIENT, "TBOT 17 7" },
	{ PROTO_CLIENT, "TBOT 17 rapfi" },
	{ PROTO_CLIENT, "TCANCEL 17" },
	{ PROTO_CLIENT, "BOTUPGRADE 9c1f0e8d7b6a5f4e3d2c1b0a99887766" },
	{ PROTO_CLIENT, "RESUME 0123456789abcdefABCDEF0123456789 r12 41" },
	{ PROTO_CLIENT, "RESUME 0123456789abcdefABCDEF0123456789 - 0" },
	{ PROTO_CLIENT, "HISTORY" },
	{ PROTO_CLIENT, "HISTORY alice" },
	{ PROTO_CLIENT, "HISTORY alice 3" },
	{ PROTO_CLIENT, "EXPORT 1234" },
	{ PROTO_CLIENT, "EXPORT 1234 psq" },
	{ PROTO_CLIENT, "STATS" },
	{ PROTO_CLIENT, "STATS bob" },
	{ PROTO_CLIENT, "TOP renju" },
	{ PROTO_CLIENT, "TOP renju 2" },
	{ PROTO_CLIENT, "TOPBOTS freestyle" },
	{ PROTO_CLIENT, "TOPBOTS renju 3" },
	{ PROTO_CLIENT, "SET bot-challenges no" },
	{ PROTO_CLIENT, "SETTINGS" },
	{ PROTO_CLIENT, "SET league yes" },
	{ PROTO_CLIENT, "LEAGUES" },
	{ PROTO_CLIENT, "LEAGUE main" },
	{ PROTO_CLIENT, "KICK mallory" },
	{ PROTO_CLIENT, "KICK mallory flooding the lobby" },
	{ PROTO_CLIENT, "BAN mallory 7d flooding the lobby" },
	{ PROTO_CLIENT, "BAN 2001:db8::/32 forever" },
	{ PROTO_CLIENT, "UNBAN 203.0.113.7" },
	{ PROTO_CLIENT, "BANS" },
	{ PROTO_CLIENT, "MUTE mallory 1h" },
	{ PROTO_CLIENT, "UNMUTE mallory" },
	{ PROTO_CLIENT, "ANNOUNCE restarting in 5 minutes" },
	{ PROTO_CLIENT, "MOTD Welcome! Tournament on Saturday." },
	{ PROTO_CLIENT, "SEEKS" },
	{ PROTO_CLIENT, "SEEKS 2" },
	{ PROTO_CLIENT, "CHALLENGE bob freestyle 15 300+5 any casual none" },
	{ PROTO_CLIENT, "ANSWER 3 accept" },
	{ PROTO_CLIENT, "ANSWER 3 decline" },
	{ PROTO_CLIENT, "TAKE 8 alice" },
	{ PROTO_CLIENT, "AUTH 9c1f0e8d7b6a5f4e3d2c1b0a99887766" },
	{ PROTO_CLIENT, "REMEMBER" },
	{ PROTO_CLIENT, "QUIT" },

	{ PROTO_SERVER, "OK #t1 HELLO 1" },
	{ PROTO_SERVER, "OK PING" },
	{ PROTO_SERVER, "OK #x PING 12345" },
	{ PROTO_SERVER, "OK GUEST guest7 0123456789abcdef0123456789abcdef" },
	{ PROTO_SERVER, "OK REGISTER alice 0123456789abcdef0123456789abcdef" },
	{ PROTO_SERVER, "OK LOGIN alice 0123456789abcdef0123456789abcdef" },
	{ PROTO_SERVER, "OK LOGOUT" },
	{ PROTO_SERVER, "OK SEEK 17" },
	{ PROTO_SERVER, "OK CANCEL" },
	{ PROTO_SERVER, "OK CREATE r9 k3J9xQ2mPz7LwB4n" },
	{ PROTO_SERVER, "OK JOIN r9" },
	{ PROTO_SERVER, "OK WATCH r9 12" },
	{ PROTO_SERVER, "OK LEAVE r9" },
	{ PROTO_SERVER, "OK ROOMS 2" },
	{ PROTO_SERVER, "OK WHO 0" },
	{ PROTO_SERVER, "OK #m5 MOVE r12 30" },
	{ PROTO_SERVER, "OK SWAP2 r3 4" },
	{ PROTO_SERVER, "OK OPENING r3 9" },
	{ PROTO_SERVER, "OK RESIGN r12" },
	{ PROTO_SERVER, "OK OFFER r12 4" },
	{ PROTO_SERVER, "OK ACCEPT r12 4" },
	{ PROTO_SERVER, "OK DECLINE r12 4" },
	{ PROTO_SERVER, "OK ABORT r12" },
	{ PROTO_SERVER, "OK CLAIM r12" },
	{ PROTO_SERVER, "OK SAY r12" },
	{ PROTO_SERVER, "OK TELL bob" },
	{ PROTO_SERVER, "OK BOT r44" },
	{ PROTO_SERVER, "OK STATE r12 41" },
	{ PROTO_SERVER, "OK FORBIDDEN r12 2" },
	{ PROTO_SERVER, "= FORBIDDEN r12 h8,i9" },
	{ PROTO_SERVER, "= FORBIDDEN - j8" },
	{ PROTO_SERVER, "OK POSITION black none 1 -" },
	{ PROTO_SERVER, "OK POSITION none black 0 h8,h9,h10,h11,h12" },
	{ PROTO_SERVER, "OK POSITION none draw 0 -" },
	{ PROTO_SERVER, "OK ANALYSE 1 open-four h11:29997 h11" },
	{ PROTO_SERVER, "OK ANALYSE 9 positional g9:166,i7:-20,h10:110 g9,f10,g8" },
	{ PROTO_SERVER, "OK REVIEW 1234" },
	{ PROTO_SERVER, "OK MARKS 1234 11 2" },
	{ PROTO_SERVER, "= EVAL 1234 0 500,531,0,1000" },
	{ PROTO_SERVER, "= EVAL 1234 50 7" },
	{ PROTO_SERVER, "= MARK 1234 blunder white 8 c3 j9 612 0 vcf j9,k10,l11" },
	{ PROTO_SERVER, "= MARK 1234 missed-win black 225 o15 - 1000 4 positional -" },
	{ PROTO_SERVER, "= MARK 7 turning black 1 h8 h8 500 500 five h8" },
	{ PROTO_SERVER, "* REVIEWING 1234 5 12" },
	{ PROTO_SERVER, "* REVIEWED 1234 ok 11 2" },
	{ PROTO_SERVER, "* REVIEWED 1234 failed 0 0" },
	{ PROTO_SERVER, "OK TLIST 2" },
	{ PROTO_SERVER, "OK TCREATE 17" },
	{ PROTO_SERVER, "OK TWATCH 17" },
	{ PROTO_SERVER, "OK TUNWATCH 17" },
	{ PROTO_SERVER, "OK TJOIN 17" },
	{ PROTO_SERVER, "OK TLEAVE 17" },
	{ PROTO_SERVER, "OK TBOT 17 bot7" },
	{ PROTO_SERVER, "OK TBOT 17 bot-rapfi" },
	{ PROTO_SERVER, "OK TCANCEL 17" },
	{ PROTO_SERVER, "OK BOTUPGRADE rapfi" },
	{ PROTO_SERVER, "= BOT rapfi" },
	{ PROTO_SERVER, "= KINDS r3 alice human rapfi bot" },
	{ PROTO_SERVER, "= LEAGUE main freestyle 15 60+0 3 3 12 1796086400" },
	{ PROTO_SERVER, "= LEAGUE fresh renju 15 300+5 0 0 - 1796000060" },
	{ PROTO_SERVER, "= LEAGUE main freestyle 15 60+0 4 9 13 -" },
	{ PROTO_SERVER, "= LRATING main 1 bot-rapfi 214 256 256 2 4 0" },
	{ PROTO_SERVER, "= LRATING main 3 bot1 -1 90 90 12 11 3" },
	{ PROTO_SERVER, "OK LEAGUES 2" },
	{ PROTO_SERVER, "OK LEAGUE main 3" },
	{ PROTO_SERVER, "= SET league no" },
	{ PROTO_SERVER,
	    "= TOURNEY 17 swiss soon renju 15 600+5 soosorv8 rated people 1796000000 7 0 7 5 alice "
	    "Friday night Swiss" },
	{ PROTO_SERVER,
	    "= TOURNEY 3 arena running freestyle 15 180+2 swap2 casual both 1796000000 "
	    "120 0 0 6 -" },
	{ PROTO_SERVER, "= TPLAYER 17 1 alice 1712 5 9,8,6 3 playing 0" },
	{ PROTO_SERVER, "= TPLAYER 3 2 bot7 - 14 14 6 active 2" },
	{ PROTO_SERVER, "= TGAME 17 2 1 r12 alice bob second-forfeit" },
	{ PROTO_SERVER, "= TGAME 17 2 4 - carol - bye" },
	{ PROTO_SERVER,
	    "* TOURNEY 17 robin over freestyle 15 300+0 none casual bots 1796000000 1 3 "
	    "3 4 -" },
	{ PROTO_SERVER, "* TPLAYER 17 3 bob 1650? 2 4,4,2 3 withdrawn 0" },
	{ PROTO_SERVER, "* TGAME 17 3 2 r40 dave alice pending" },
	{ PROTO_SERVER, "* KINDS r3 3 bot5 bot rapfi bot" },
	{ PROTO_SERVER, "OK PUZZLE 17 freestyle 15 vct 5 1500 h8,a1,i8,a15,j9,o1,j10,o15" },
	{ PROTO_SERVER, "OK PUZZLE 3 renju 15 vcf 3 1612 h8" },
	{ PROTO_SERVER, "OK SOLVE 17 more j11 - -" },
	{ PROTO_SERVER, "OK SOLVE 17 solved - 1523? -" },
	{ PROTO_SERVER, "OK SOLVE 17 failed - 1490 j8,j11,k8,g8,l8" },
	{ PROTO_SERVER, "OK RESUME r12 41" },
	{ PROTO_SERVER, "OK RESUME - 0" },
	{ PROTO_SERVER, "OK HISTORY 3 3" },
	{ PROTO_SERVER, "OK EXPORT 1234 text" },
	{ PROTO_SERVER, "OK EXPORT 1234 psq" },
	{ PROTO_SERVER, "OK STATS 1" },
	{ PROTO_SERVER, "OK TOP 20 57" },
	{ PROTO_SERVER, "OK TOPBOTS 2 2" },
	{ PROTO_SERVER, "OK SET bot-challenges yes" },
	{ PROTO_SERVER, "OK SETTINGS 1" },
	{ PROTO_SERVER, "= SET bot-challenges no" },
	{ PROTO_SERVER, "OK KICK mallory" },
	{ PROTO_SERVER, "OK BAN 203.0.113.0/24" },
	{ PROTO_SERVER, "OK UNBAN mallory" },
	{ PROTO_SERVER, "OK BANS 2" },
	{ PROTO_SERVER, "OK MUTE mallory" },
	{ PROTO_SERVER, "OK UNMUTE mallory" },
	{ PROTO_SERVER, "OK ANNOUNCE 12" },
	{ PROTO_SERVER, "OK MOTD" },
	{ PROTO_SERVER, "OK SEEKS 1" },
	{ PROTO_SERVER, "OK SEEKS 1 3" },
	{ PROTO_SERVER, "OK SEEKS 0 3" },
	{ PROTO_SERVER, "OK CHALLENGE 3" },
	{ PROTO_SERVER, "OK ANSWER 3" },
	{ PROTO_SERVER, "OK TAKE 8" },
	{ PROTO_SERVER, "OK AUTH alice 0123456789abcdef0123456789abcdef" },
	{ PROTO_SERVER, "OK REMEMBER 9c1f0e8d7b6a5f4e3d2c1b0a99887766 1767225600" },
	{ PROTO_SERVER, "= SEEK 4 alice renju 15 300+5 black rated none human" },
	{ PROTO_SERVER, "OK QUIT" },
	{ PROTO_SERVER, "ERR 400 syntax" },
	{ PROTO_SERVER, "ERR #m5 431 not-your-turn white is to move" },

	{ PROTO_SERVER, "= ROOM r12 playing renju 15 300+5 none rated alice bob 2 17" },
	{ PROTO_SERVER, "= ROOM r13 waiting freestyle 15 none swap2 casual carol - 0 0" },
	{ PROTO_SERVER, "= CLOCK r12 291000 - white" },
	{ PROTO_SERVER, "= MOVES r12 0 h8,i9,j10,a1,t20" },
	{ PROTO_SERVER, "= MOVES r12 0 -" },
	{ PROTO_SERVER, "= SEAT r12 black alice gone 58000" },
	{ PROTO_SERVER, "= SEAT r12 white bob here 0" },
	{ PROTO_SERVER, "= OFFER r12 4 draw bob" },
	{ PROTO_SERVER, "= SAY r12 bob good luck" },
	{ PROTO_SERVER, "= CODE r12 Ab3dEf6hIj0kLm" },
	{ PROTO_SERVER, "= SWAP2 r3 choose bob" },
	{ PROTO_SERVER, "= OPENING r3 choose bob white offers 2 d4 e4,l11" },
	{ PROTO_SERVER, "= RESULT r12 black five h8,h9,h10,h11,h12" },
	{ PROTO_SERVER, "= USER alice playing r12" },
	{ PROTO_SERVER, "= USER bob idle" },
	{ PROTO_SERVER, "= GAME 1234 renju 15 alice bob white resign 37 1796000000" },
	{ PROTO_SERVER, "= RECORD moves h8 i9" },
	{ PROTO_SERVER, "= STAT alice renju 1612 48 established 30 17 1" },
	{ PROTO_SERVER, "= STAT bob freestyle 1500 350 provisional 0 0 0" },
	{ PROTO_SERVER, "= BAN ban mallory 1796000000 alice flooding the lobby" },
	{ PROTO_SERVER, "= BAN mute 2001:db8::/32 0 root" },

	{ PROTO_SERVER, "* SERVER gomokud 0.1.0 1 swap2 renju chat resume" },
	{ PROTO_SERVER,
	    "* SERVER gomokud 0.1.0 1 swap2 chat resume lobby seekpages take bots "
	    "bot-fallback=20" },
	{ PROTO_SERVER, "* START r12 1 alice bob renju 15 300+5 none rated 300000 300000" },
	{ PROTO_SERVER, "* SWAP2 r3 2 put3 alice" },
	{ PROTO_SERVER, "* OPENING r3 5 declare alice black - 8 i13 -" },
	{ PROTO_SERVER, "* OPENING r3 6 swap-or-place bob white any 0 - -" },
	{ PROTO_SERVER, "* COLOURS r3 6 bob alice" },
	{ PROTO_SERVER, "* MOVE r12 2 black h8 299000 300000" },
	{ PROTO_SERVER, "* MOVE r12 3 white i9 - -" },
	{ PROTO_SERVER, "* MOVE r12 4 black j10 298000 300000 vcf 7" },
	{ PROTO_SERVER, "* UNDO r12 9 2 250000 260000" },
	{ PROTO_SERVER, "* OFFER r12 10 4 draw bob" },
	{ PROTO_SERVER, "* OFFEREND r12 11 4 declined" },
	{ PROTO_SERVER, "* SAY r12 12 bob gl hf" },
	{ PROTO_SERVER, "* TELL alice psst" },
	{ PROTO_SERVER, "* PRESENCE r12 13 bob gone 60000" },
	{ PROTO_SERVER, "* THINK r44 7 bot3 6 h8:120,i9:-35,a1:0" },
	{ PROTO_SERVER, "* OVER r12 30 black five h8,h9,h10,h11,h12" },
	{ PROTO_SERVER, "* OVER r12 4 none aborted -" },
	{ PROTO_SERVER, "* SHUTDOWN 5000 maintenance, back soon" },
	{ PROTO_SERVER, "* SHUTDOWN 0" },
	{ PROTO_SERVER, "* MOTD Welcome! Tournament on Saturday." },
	{ PROTO_SERVER, "* ANNOUNCE restarting in 5 minutes" },
	{ PROTO_SERVER, "* KICKED banned until 2026-12-08 10:00 UTC: flooding" },
	{ PROTO_SERVER, "* BYE shutdown server restarting" },
	{ PROTO_SERVER, "* BYE quit" },
	{ PROTO_SERVER, "* SEATED r12" },
	{ PROTO_SERVER, "* CHALLENGE 3 alice bob freestyle 15 300+5 white rated swap2" },
	{ PROTO_SERVER, "* CHALLENGEEND 3 expired" },
	{ PROTO_SERVER, "* RATINGS r3 2 alice 1500? bob 1623" },
	{ PROTO_SERVER, "* RATINGS r3 2 alice 1500 guest7 -" },
	{ PROTO_SERVER, "= RATINGS r3 alice - bot5 -" },
	{ PROTO_SERVER, "* RATED r3 9 alice 1500 1662 bob 1500 1338" },
	{ PROTO_SERVER, "* MOVED alpha12 play2.example.org:5555" },
	{ PROTO_SERVER, "* MOVED b3 [2001:db8::2]:5555" },
	{ PROTO_SERVER, "* CLOSED r12 4 away" },
};

static void
test_round_trip_every_form(void **state)
{
	(void)state;
	int seen[PM_COUNT] = { 0 };
	for (size_t i = 0; i < sizeof canon / sizeof canon[0]; i++) {
		proto_msg_t m, m2;
		char err[80], out[PROTO_LINE_MAX];
		const char *line = canon[i].line;
		int rc = proto_parse(line, strlen(line), canon[i].from, &m, err, sizeof err);
		if (rc)
			fail_msg("parse \"%s\": %d %s", line, rc, err);
		seen[m.id] = 1;
		int n = proto_format(&m, out, sizeof out);
		if (n < 0)
			fail_msg("format \"%s\" failed", line);
		assert_int_equal(n, (int)strlen(line) + 1);
		assert_int_equal(out[n - 1], '\n');
		out[n - 1] = '\0';
		assert_string_equal(out, line);
		/* and the struct survives the trip */
		assert_int_equal(proto_parse(out, strlen(out), canon[i].from, &m2, NULL, 0), 0);
		assert_memory_equal(&m, &m2, sizeof m);
	}
	for (int id = PM_NONE + 1; id < PM_COUNT; id++)
		if (!seen[id])
			fail_msg(
			    "form %d (%s) has no canonical line", id, proto_name((proto_id_t)id));
	printf("round trip: %zu lines, every one of %d forms\n", sizeof canon / sizeof canon[0],
	    PM_COUNT - 1);
}

static proto_msg_t
parse_ok(int from, const char *line)
{
	proto_msg_t m;
	char err[80];
	int rc = proto_parse(line, strlen(line), from, &m, err, sizeof err);
	if (rc)
		fail_msg("parse \"%s\": %d %s", line, rc, err);
	return m;
}

static void
test_typed_fields(void **state)
{
	(void)state;
	proto_msg_t m = parse_ok(PROTO_CLIENT, "#q SEEK renju 15 300+5 white rated swap2");
	assert_int_equal(m.id, PR_SEEK);
	assert_string_equal(m.tag, "q");
	assert_int_equal(m.rule, RULE_RENJU);
	assert_int_equal(m.size, 15);
	assert_int_equal(m.tc_base, 300);
	assert_int_equal(m.tc_inc, 5);
	assert_int_equal(m.colour, COLOUR_WHITE);
	assert_int_equal(m.rated, 1);
	assert_int_equal(m.opening, OPENING_SWAP2);

	/* every opening rule's token, in the protocol's order */
	static const char *const openings[] = { "none", "swap2", "swap", "pro", "longpro", "rif",
		"yamaguchi", "soosorv8", "taraguchi10" };
	for (int i = 0; i < 9; i++) {
		char line[80];
		snprintf(line, sizeof line, "SEEK freestyle 15 none any casual %s", openings[i]);
		m = parse_ok(PROTO_CLIENT, line);
		assert_int_equal(m.opening, i);
		assert_string_equal(proto_opening_name((proto_opening_t)i), openings[i]);
	}
	m = parse_ok(PROTO_CLIENT, "OPENING offer r3 e4,l11");
	assert_int_equal(m.id, PR_OPENING_OFFER);
	assert_int_equal(m.nmoves, 2);
	assert_string_equal(m.moves[1], "l11");
	assert_int_equal(proto_reply_of(PR_OPENING_BRANCH), PO_OPENING);
	m = parse_ok(PROTO_SERVER, "* OPENING r3 5 declare alice black - 8 i13 -");
	assert_int_equal(m.ostage, OSTAGE_WIRE_DECLARE);
	assert_int_equal(m.side, SIDE_BLACK);
	assert_int_equal(m.count, 8);
	assert_int_equal(m.oarea, OAREA_WIRE_NONE);
	assert_int_equal(m.canon, PROTO_CANONS); /* i13, the last */
	assert_int_equal(m.nmoves, 0);
	/* the new error codes have their words */
	assert_string_equal(proto_err_word(ERR_OUTSIDE_AREA), "outside-area");
	assert_string_equal(proto_err_word(ERR_WRONG_COUNT), "wrong-count");
	assert_string_equal(proto_err_word(ERR_SYMMETRIC), "symmetric-offer");
	assert_string_equal(proto_err_word(ERR_NOT_OFFERED), "not-offered");

	m = parse_ok(PROTO_CLIENT, "seek standard 5 none any casual none");
	assert_int_equal(m.id, PR_SEEK);
	assert_int_equal(m.tc_base, 0);
	assert_int_equal(m.size, 5);

	m = parse_ok(PROTO_CLIENT, "MOVE r1 h8\r");
	assert_string_equal(m.room, "r1");
	assert_string_equal(m.move, "h8");
	move_t mv;
	assert_int_equal(notation_parse(m.move, 15, &mv), 0);
	assert_int_equal(mv, rules_move(7, 7));

	m = parse_ok(PROTO_CLIENT, "bot SEAT r1 10");
	assert_int_equal(m.id, PR_BOT_SEAT);
	assert_int_equal(m.level, 10);
	assert_int_equal(proto_reply_of(m.id), PO_BOT);
	assert_int_equal(proto_reply_of(PR_MOVE), PO_MOVE);

	m = parse_ok(PROTO_CLIENT, "SWAP2  r1   put  a1,b2,c3");
	assert_int_equal(m.choice, CHOICE_PUT);
	assert_int_equal(m.nmoves, 3);
	assert_string_equal(m.moves[2], "c3");

	m = parse_ok(PROTO_SERVER, "* MOVE r1 9 white i9 - 1500");
	assert_int_equal(m.id, PE_MOVE);
	assert_int_equal(m.seq, 9);
	assert_int_equal(m.side, SIDE_WHITE);
	assert_int_equal(m.bms, -1);
	assert_int_equal(m.wms, 1500);

	m = parse_ok(PROTO_SERVER, "ERR #z 434 double-three forbidden for black");
	assert_int_equal(m.id, PX_ERR);
	assert_string_equal(m.tag, "z");
	assert_int_equal(m.ecode, ERR_DOUBLE_THREE);
	assert_string_equal(m.word, "double-three");
	assert_string_equal(m.text, "forbidden for black");

	m = parse_ok(PROTO_SERVER, "* THINK r1 3 bot 4 h8:-1000000000");
	assert_int_equal(m.ncands, 1);
	assert_int_equal(m.cands[0].score, -1000000000);

	m = parse_ok(PROTO_SERVER, "= ROOM r2 waiting freestyle 15 none none casual - - 0 0");
	assert_string_equal(m.user, "");
	assert_string_equal(m.user2, "");

	/* a maximal line: 511 bytes plus LF */
	char line[PROTO_LINE_MAX + 8];
	strcpy(line, "SAY r1 ");
	size_t n = strlen(line);
	memset(line + n, 'x', PROTO_TEXT_MAX);
	line[n + PROTO_TEXT_MAX] = '\0';
	m = parse_ok(PROTO_CLIENT, line);
	assert_int_equal(strlen(m.text), PROTO_TEXT_MAX);

	/* fields the accounts, archive and bot issues build on */
	m = parse_ok(PROTO_CLIENT, "SEEK renju 15 300+5 any rated none bot");
	assert_int_equal(m.fallback, FALLBACK_BOT);
	m = parse_ok(PROTO_CLIENT, "SEEK renju 15 300+5 any rated none");
	assert_int_equal(m.fallback, FALLBACK_HUMAN);
	m = parse_ok(PROTO_CLIENT, "HISTORY carol 4");
	assert_string_equal(m.user, "carol");
	assert_int_equal(m.page, 4);
	m = parse_ok(PROTO_CLIENT, "EXPORT 77 psq");
	assert_int_equal(m.ident, 77);
	assert_int_equal(m.format, EXPORT_PSQ);
	m = parse_ok(PROTO_SERVER, "= STAT bob renju 1493 212 provisional 3 5 1");
	assert_int_equal(m.rating, 1493);
	assert_int_equal(m.deviation, 212);
	assert_int_equal(m.provisional, RATING_PROVISIONAL);
	assert_int_equal(m.wins, 3);
	assert_int_equal(m.losses, 5);
	assert_int_equal(m.draws, 1);
	m = parse_ok(PROTO_SERVER, "= GAME 9 standard 15 ann bob draw draw-agreed 120 1796000000");
	assert_int_equal(m.depth, 120);
	assert_int_equal(m.when, 1796000000);
	m = parse_ok(PROTO_SERVER, "* MOVE r4 12 white k11 - - four-three");
	assert_string_equal(m.text, "four-three");
	m = parse_ok(PROTO_SERVER, "* MOVE r4 12 white k11 - -");
	assert_string_equal(m.text, "");
	m = parse_ok(PROTO_SERVER, "= MARK 12 blunder white 8 c3 - 612 0 vcf j9,k10");
	assert_int_equal(m.mark, MARK_BLUNDER);
	assert_int_equal(m.side, SIDE_WHITE);
	assert_int_equal(m.plies, 8);
	assert_string_equal(m.move, "c3");
	assert_string_equal(m.move2, "");
	assert_int_equal(m.before, 612);
	assert_int_equal(m.after, 0);
	assert_string_equal(m.word, "vcf");
	assert_int_equal(m.nmoves, 2);
	m = parse_ok(PROTO_SERVER, "= EVAL 12 50 0,1000,7");
	assert_int_equal(m.depth, 50);
	assert_int_equal(m.nvals, 3);
	assert_int_equal(m.vals[0], 0);
	assert_int_equal(m.vals[1], 1000);
	assert_int_equal(m.vals[2], 7);
	printf("typed fields: seek, move, bot, swap2, clocks, err, think, empty seats,"
	       " bot fallback, pages, export format, stats, games, move reasons\n");
}

static void
test_errors(void **state)
{
	(void)state;
	static const struct {
		int from;
		const char *line;
		int code;
	} bad[] = {
		{ PROTO_SERVER, "* KINDS r3 3 alice person bob bot", ERR_ARGUMENT },
		{ PROTO_SERVER, "= LRATING main 1 bot1 12 -5 5 2 4 0", ERR_ARGUMENT },
		{ PROTO_SERVER, "= LEAGUE main freestyle 15 60+0 3 3 x -", ERR_ARGUMENT },
		{ PROTO_CLIENT, "LEAGUE", ERR_SYNTAX },
		{ PROTO_CLIENT, "BOTUPGRADE", ERR_SYNTAX },
		{ PROTO_CLIENT, "BOTUPGRADE short", ERR_ARGUMENT },
		{ PROTO_CLIENT, "", ERR_SYNTAX },
		{ PROTO_CLIENT, "   ", ERR_SYNTAX },
		{ PROTO_CLIENT, "FROB", ERR_UNKNOWN },
		{ PROTO_CLIENT, "#t", ERR_SYNTAX },
		{ PROTO_CLIENT, "# PING", ERR_SYNTAX },
		{ PROTO_CLIENT, "#toolongtag0123456 PING", ERR_SYNTAX },
		{ PROTO_CLIENT, "#t!g PING", ERR_SYNTAX },
		{ PROTO_CLIENT, "HELLO", ERR_SYNTAX },
		{ PROTO_CLIENT, "POSITION renju 15", ERR_SYNTAX },
		{ PROTO_CLIENT, "REVIEW", ERR_SYNTAX },
		{ PROTO_CLIENT, "SOLVE 17", ERR_SYNTAX },
		{ PROTO_CLIENT, "SOLVE 17 K8", ERR_ARGUMENT },
		{ PROTO_SERVER, "OK SOLVE 17 maybe - - -", ERR_ARGUMENT },
		{ PROTO_SERVER, "OK PUZZLE 17 freestyle 15 vcx 5 1500 h8", ERR_ARGUMENT },
		{ PROTO_CLIENT, "REVIEW 0", ERR_ARGUMENT },
		{ PROTO_CLIENT, "MARKS r12", ERR_ARGUMENT },
		{ PROTO_SERVER, "= EVAL 12 0 1001", ERR_ARGUMENT },
		{ PROTO_SERVER, "= EVAL 12 0 -1", ERR_ARGUMENT },
		{ PROTO_SERVER, "= EVAL 12 0 5,,6", ERR_ARGUMENT },
		{ PROTO_SERVER, "= EVAL 12 0 -", ERR_ARGUMENT },
		{ PROTO_SERVER, "= MARK 12 oops white 8 c3 j9 612 0 vcf -", ERR_ARGUMENT },
		{ PROTO_SERVER, "= MARK 12 blunder white 0 c3 j9 612 0 vcf -", ERR_ARGUMENT },
		{ PROTO_SERVER, "= MARK 12 blunder white 8 - j9 612 0 vcf -", ERR_ARGUMENT },
		{ PROTO_SERVER, "* REVIEWED 12 maybe 0 0", ERR_ARGUMENT },
		{ PROTO_CLIENT, "POSITION renju 21 -", ERR_ARGUMENT },
		{ PROTO_CLIENT, "POSITION renju 15 H8", ERR_ARGUMENT },
		{ PROTO_CLIENT, "HELLO 0", ERR_ARGUMENT },
		{ PROTO_CLIENT, "HELLO 01", ERR_ARGUMENT },
		{ PROTO_CLIENT, "HELLO -1", ERR_ARGUMENT },
		{ PROTO_CLIENT, "HELLO 1 a b", ERR_SYNTAX },
		{ PROTO_CLIENT, "HELLO 99999999999999999999999", ERR_ARGUMENT },
		{ PROTO_CLIENT, "PING \xff", ERR_UTF8 },
		{ PROTO_CLIENT, "PING a\tb", ERR_UTF8 },
		{ PROTO_CLIENT, "GUEST 1abc", ERR_ARGUMENT },
		{ PROTO_CLIENT, "GUEST -", ERR_ARGUMENT },
		{ PROTO_CLIENT, "GUEST abcdefghijklmnopqrstu", ERR_ARGUMENT },
		{ PROTO_CLIENT, "GUEST al.ce", ERR_ARGUMENT },
		{ PROTO_CLIENT, "SEEK renju 15 300+5 any rated", ERR_SYNTAX },
		{ PROTO_CLIENT, "SEEK gomoku 15 300+5 any rated none", ERR_ARGUMENT },
		{ PROTO_CLIENT, "SEEK renju 4 300+5 any rated none", ERR_ARGUMENT },
		{ PROTO_CLIENT, "SEEK renju 21 300+5 any rated none", ERR_ARGUMENT },
		{ PROTO_CLIENT, "SEEK renju 15 0+5 any rated none", ERR_ARGUMENT },
		{ PROTO_CLIENT, "SEEK renju 15 300 any rated none", ERR_ARGUMENT },
		{ PROTO_CLIENT, "SEEK renju 15 300+ any rated none", ERR_ARGUMENT },
		{ PROTO_CLIENT, "SEEK renju 15 300+5 any rated none robot", ERR_ARGUMENT },
		{ PROTO_CLIENT, "SEEK renju 15 300+5 any rated soosorv", ERR_ARGUMENT },
		{ PROTO_CLIENT, "SEEK renju 15 300+5 any rated RIF", ERR_ARGUMENT },
		{ PROTO_CLIENT, "OPENING r3 place h8", ERR_SYNTAX },
		{ PROTO_CLIENT, "OPENING place r3", ERR_SYNTAX },
		{ PROTO_CLIENT, "OPENING pass r3", ERR_SYNTAX },
		{ PROTO_CLIENT, "OPENING colour r3 any", ERR_ARGUMENT },
		{ PROTO_CLIENT, "OPENING declare r3 0", ERR_ARGUMENT },
		{ PROTO_CLIENT, "OPENING declare r3 11", ERR_ARGUMENT },
		{ PROTO_CLIENT, "OPENING branch r3 two", ERR_ARGUMENT },
		{ PROTO_CLIENT, "OPENING offer r3 h8,H9", ERR_ARGUMENT },
		{ PROTO_SERVER, "* OPENING r3 5 done alice black - 0 - -", ERR_ARGUMENT },
		{ PROTO_SERVER, "* OPENING r3 5 place alice black in11 0 - -", ERR_ARGUMENT },
		{ PROTO_SERVER, "* OPENING r3 5 swap alice black - 0 d14 -", ERR_ARGUMENT },
		{ PROTO_CLIENT, "SEEK renju 15 300+5 any rated none bot bot", ERR_SYNTAX },
		{ PROTO_CLIENT, "HISTORY alice 0", ERR_ARGUMENT },
		{ PROTO_CLIENT, "HISTORY 2", ERR_ARGUMENT },
		{ PROTO_CLIENT, "TOP renju -1", ERR_ARGUMENT },
		{ PROTO_CLIENT, "EXPORT 12 pdf", ERR_ARGUMENT },
		{ PROTO_SERVER, "= STAT bob renju 1493 212 maybe 3 5 1", ERR_ARGUMENT },
		{ PROTO_SERVER, "= STAT bob renju 1493 212 provisional 3 5", ERR_SYNTAX },
		{ PROTO_CLIENT, "SEEK renju 15 86401+0 any rated none", ERR_ARGUMENT },
		{ PROTO_CLIENT, "SEEK renju 15 300+3601 any rated none", ERR_ARGUMENT },
		{ PROTO_CLIENT, "SEEK renju 15 300+5 red rated none", ERR_ARGUMENT },
		{ PROTO_CLIENT, "SEEK renju 15 300+5 any maybe none", ERR_ARGUMENT },
		{ PROTO_CLIENT, "SEEK renju 15 300+5 any rated swap3", ERR_ARGUMENT },
		{ PROTO_CLIENT, "MOVE r1", ERR_SYNTAX },
		{ PROTO_CLIENT, "MOVE r1 z9", ERR_ARGUMENT },
		{ PROTO_CLIENT, "MOVE r1 h0", ERR_ARGUMENT },
		{ PROTO_CLIENT, "MOVE r1 h21", ERR_ARGUMENT },
		{ PROTO_CLIENT, "MOVE r1 h8x", ERR_ARGUMENT },
		{ PROTO_CLIENT, "MOVE R1 h8", ERR_ARGUMENT },
		{ PROTO_CLIENT, "MOVE r1 H8", ERR_ARGUMENT }, /* arguments are case-sensitive */
		{ PROTO_CLIENT, "SWAP2 r1 put h8,I9,j10", ERR_ARGUMENT },
		{ PROTO_SERVER, "* MOVE r1 2 black H8 1000 1000", ERR_ARGUMENT },
		{ PROTO_CLIENT, "MOVE r1 h8 i9", ERR_SYNTAX },
		{ PROTO_CLIENT, "SWAP2 r1 put h8,,i9", ERR_ARGUMENT },
		{ PROTO_CLIENT, "SWAP2 r1 swap", ERR_ARGUMENT },
		{ PROTO_CLIENT, "OFFER r1 peace", ERR_ARGUMENT },
		{ PROTO_CLIENT, "ACCEPT r1 0", ERR_ARGUMENT },
		{ PROTO_CLIENT, "ACCEPT r1 2147483648", ERR_ARGUMENT },
		{ PROTO_CLIENT, "SAY r1", ERR_SYNTAX },
		{ PROTO_CLIENT, "SAY r1    ", ERR_SYNTAX },
		{ PROTO_CLIENT, "SAY r1 caf\xc3", ERR_UTF8 },
		{ PROTO_CLIENT, "SAY r1 \xc0\xaf", ERR_UTF8 },         /* overlong */
		{ PROTO_CLIENT, "SAY r1 \xed\xa0\x80", ERR_UTF8 },     /* surrogate */
		{ PROTO_CLIENT, "SAY r1 \xf4\x90\x80\x80", ERR_UTF8 }, /* > U+10FFFF */
		{ PROTO_CLIENT, "SAY r1 \xc2\x85", ERR_UTF8 },         /* C1 control */
		{ PROTO_CLIENT, "SAY r1 a\x1b[2J", ERR_UTF8 },         /* escape */
		{ PROTO_CLIENT, "BOT", ERR_SYNTAX },
		{ PROTO_CLIENT, "BOT dance", ERR_SYNTAX },
		{ PROTO_CLIENT, "BOT seat r1 11", ERR_ARGUMENT },
		{ PROTO_CLIENT, "BOT seat r1 Rapfi", ERR_ARGUMENT },
		{ PROTO_CLIENT, "BOT seat r1 rapfi-x", ERR_ARGUMENT },
		{ PROTO_CLIENT, "BOT play abcdefghijklmnopq freestyle 15 none any none",
		    ERR_ARGUMENT },
		{ PROTO_CLIENT, "RESUME shorttoken r1 3", ERR_ARGUMENT },
		{ PROTO_CLIENT, "JOIN abc", ERR_ARGUMENT },
		{ PROTO_CLIENT, "LOGIN alice", ERR_SYNTAX },
		{ PROTO_CLIENT, "OK PING", ERR_UNKNOWN },
		{ PROTO_CLIENT, "* MOVE r1 1 black h8 - -", ERR_UNKNOWN },
		{ PROTO_SERVER, "PING", ERR_SYNTAX },
		{ PROTO_SERVER, "OK FROB", ERR_UNKNOWN },
		{ PROTO_SERVER, "* MOVE r1 1 black h8 -1 -", ERR_ARGUMENT },
		{ PROTO_SERVER, "* OVER r1 1 black five h8,", ERR_ARGUMENT },
		{ PROTO_SERVER, "* THINK r1 3 bot 4 h8", ERR_ARGUMENT },
		{ PROTO_SERVER, "* THINK r1 3 bot 4 h8:1,a1:2,b1:3,c1:4,d1:5,e1:6,f1:7,g1:8,h1:9",
		    ERR_ARGUMENT },
		{ PROTO_SERVER, "= SEAT r1 black alice gone", ERR_SYNTAX },
		/* events carry no tag: #t is a room of the wrong form, or one field too many */
		{ PROTO_SERVER, "* START #t 1 a b renju 15 none none casual - -", ERR_ARGUMENT },
		{ PROTO_SERVER, "* START #t r1 1 a b renju 15 none none casual - -", ERR_SYNTAX },
		/* the count of fields before their values */
		{ PROTO_CLIENT, "HISTORY a b c", ERR_SYNTAX },
		{ PROTO_CLIENT, "HISTORY a 1 c", ERR_SYNTAX },
		{ PROTO_CLIENT, "HISTORY a b", ERR_ARGUMENT },
		{ PROTO_CLIENT, "MOVE R1", ERR_SYNTAX },
		{ PROTO_SERVER, "ERR", ERR_SYNTAX },
		{ PROTO_SERVER, "ERR 99 tiny", ERR_ARGUMENT },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		proto_msg_t m;
		char err[80];
		int rc = proto_parse(
		    bad[i].line, strlen(bad[i].line), bad[i].from, &m, err, sizeof err);
		if (rc != bad[i].code)
			fail_msg("\"%s\": got %d, want %d", bad[i].line, rc, bad[i].code);
		assert_non_null(proto_err_word(rc));
		assert_true(err[0] != '\0');
	}
	printf("errors: %zu malformed lines get their codes\n", sizeof bad / sizeof bad[0]);
}

static void
test_hostile(void **state)
{
	(void)state;
	proto_msg_t m;
	char line[4096];

	/* 511 bytes + LF is the longest line; 512 before the LF is too long */
	memset(line, 'a', sizeof line);
	memcpy(line, "SAY r1 ", 7);
	assert_int_not_equal(proto_parse(line, 511, PROTO_CLIENT, &m, NULL, 0), ERR_TOO_LONG);
	assert_int_equal(proto_parse(line, 512, PROTO_CLIENT, &m, NULL, 0), ERR_TOO_LONG);
	assert_int_equal(proto_parse(line, sizeof line, PROTO_CLIENT, &m, NULL, 0), ERR_TOO_LONG);
	/* the CR of a CRLF counts against the limit too */
	memset(line, 'a', sizeof line);
	memcpy(line, "PING ", 5);
	line[511] = '\r';
	assert_int_equal(proto_parse(line, 512, PROTO_CLIENT, &m, NULL, 0), ERR_TOO_LONG);

	/* a NUL inside the line, with the tag still echoed */
	static const char nul[] = "#t9 PING a\0b";
	assert_int_equal(proto_parse(nul, sizeof nul - 1, PROTO_CLIENT, &m, NULL, 0), ERR_SYNTAX);
	/* the tag is kept for the error reply */
	assert_int_equal(proto_parse("#t9 FROB x", 10, PROTO_CLIENT, &m, NULL, 0), ERR_UNKNOWN);
	assert_string_equal(m.tag, "t9");

	/* every single byte value as a line: never crashes, never OK but PING */
	for (int c = 0; c < 256; c++) {
		char b = (char)c;
		int rc = proto_parse(&b, 1, PROTO_CLIENT, &m, NULL, 0);
		assert_true(rc != 0);
		assert_non_null(proto_err_word(rc));
	}

	/* bytes after a valid prefix */
	for (int c = 1; c < 256; c++) {
		char l2[16];
		int n = snprintf(l2, sizeof l2, "MOVE r1 h8%c", c);
		int rc = proto_parse(l2, (size_t)n, PROTO_CLIENT, &m, NULL, 0);
		if (c == ' ' || c == '\r')
			assert_int_equal(rc, 0);
		else
			assert_true(rc != 0);
	}
	printf("hostile: length limit at 512 with LF, NUL, every byte, trailing junk\n");
}

static void
test_format_rejects(void **state)
{
	(void)state;
	proto_msg_t m;
	char out[PROTO_LINE_MAX];

	proto_init(&m, PR_MOVE, NULL);
	strcpy(m.room, "r1");
	strcpy(m.move, "z99");
	assert_int_equal(proto_format(&m, out, sizeof out), -1);
	strcpy(m.move, "h8");
	assert_int_equal(proto_format(&m, out, sizeof out), (int)strlen("MOVE r1 h8\n"));
	assert_int_equal(proto_format(&m, out, 5), -1); /* does not fit */
	assert_string_equal(out, "");

	proto_init(&m, PE_SAY, NULL);
	strcpy(m.room, "r1");
	m.seq = 1;
	strcpy(m.user, "bob");
	strcpy(m.text, "bell\a");
	assert_int_equal(proto_format(&m, out, sizeof out), -1);
	strcpy(m.text, " lead");
	assert_int_equal(proto_format(&m, out, sizeof out), -1);
	strcpy(m.text, "");
	assert_int_equal(proto_format(&m, out, sizeof out), -1); /* required */
	strcpy(m.text, "ok");
	strcpy(m.tag, "t");
	assert_int_equal(proto_format(&m, out, sizeof out), -1); /* events carry no tag */

	proto_init(&m, PE_MOVE, NULL);
	strcpy(m.room, "r1");
	strcpy(m.user, "x");
	m.side = (proto_side_t)7;
	strcpy(m.move, "a1");
	assert_int_equal(proto_format(&m, out, sizeof out), -1);

	proto_init(&m, PO_HELLO, "t");
	m.version = 0;
	assert_int_equal(proto_format(&m, out, sizeof out), -1);
	m.version = 1;
	assert_true(proto_format(&m, out, sizeof out) > 0);
	assert_string_equal(out, "OK #t HELLO 1\n");

	proto_error(&m, "t", ERR_UNAVAILABLE, "accounts arrive later");
	assert_true(proto_format(&m, out, sizeof out) > 0);
	assert_string_equal(out, "ERR #t 501 not-available accounts arrive later\n");
	assert_true(proto_err_fatal(ERR_TOO_LONG));
	assert_false(proto_err_fatal(ERR_NOT_TURN));
	assert_int_equal(proto_err_of_legality(LEGAL_OVERLINE), ERR_OVERLINE);
	assert_int_equal(proto_err_of_legality(LEGAL_OCCUPIED), ERR_OCCUPIED);
	assert_string_equal(proto_err_word(proto_err_of_legality(LEGAL_DOUBLE_FOUR)),
	    legality_name(LEGAL_DOUBLE_FOUR));

	proto_init(&m, PM_COUNT, NULL);
	assert_int_equal(proto_format(&m, out, sizeof out), -1);
	printf("format: refuses bad fields, control chars, overflow, tags on events\n");
}

/* Every line of the transcripts in PROTOCOL.md ("C1    ..." from a client,
 * "S→C1  ..." from the server) parses and formats back to itself. */
static void
test_protocol_md_examples(void **state)
{
	(void)state;
	FILE *f = fopen("proto/PROTOCOL.md", "r");
	if (!f)
		fail_msg("proto/PROTOCOL.md not found (run from the top of the tree)");
	char line[1024];
	int n = 0;
	while (fgets(line, sizeof line, f)) {
		line[strcspn(line, "\n")] = '\0';
		int from;
		const char *msg;
		size_t len = strlen(line);
		if (len > 12 &&
		    strncmp(line,
			"    S\xe2\x86\x92"
			"C",
			9) == 0) {
			from = PROTO_SERVER;
			msg = line + 12;
		} else if (len > 10 && strncmp(line, "    C", 5) == 0 && line[9] == ' ' &&
		    line[10] != ' ') {
			from = PROTO_CLIENT;
			msg = line + 10;
		} else {
			continue;
		}
		if (strstr(msg, "...") || msg[0] == '(')
			continue;
		proto_msg_t m;
		char err[80], out[PROTO_LINE_MAX];
		int rc = proto_parse(msg, strlen(msg), from, &m, err, sizeof err);
		if (rc)
			fail_msg("PROTOCOL.md \"%s\": %d %s", msg, rc, err);
		assert_true(proto_format(&m, out, sizeof out) > 0);
		out[strlen(out) - 1] = '\0';
		assert_string_equal(out, msg);
		n++;
	}
	fclose(f);
	assert_true(n > 50);
	printf("PROTOCOL.md: %d transcript lines parse and format back\n", n);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip_every_form),
		cmocka_unit_test(test_typed_fields),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_format_rejects),
		cmocka_unit_test(test_protocol_md_examples),
	};
	return cmocka_run_group_tests_name("proto", tests, NULL, NULL);
}
