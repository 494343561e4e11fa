/*
 * test_client_i18n: the catalogs and the widths (client/i18n.c, issue 42).
 * Text is measured in display columns: a Chinese character counts two,
 * padding and clipping never split one. Under the C locale every message
 * is its English; under zh_CN.UTF-8, with the build's catalogs, Chinese;
 * every error code of the protocol and every reason has a message of its
 * own, never the raw token.
 */
#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "client/i18n.h"
#include "client/model.h"

/* A mark as = MARK 1234 blunder white 8 c3 j9 612 0 vcf j9,k10,l11 gives it. */
static model_mark_t
sample_mark(const char *reason, int nline)
{
	static const char *const line[] = { "j9", "k10", "l11" };
	model_mark_t mk;
	memset(&mk, 0, sizeof mk);
	mk.kind = MARK_BLUNDER;
	mk.side = SIDE_WHITE;
	mk.ply = 8;
	snprintf(mk.played, sizeof mk.played, "c3");
	snprintf(mk.better, sizeof mk.better, "j9");
	mk.before = 612;
	mk.after = 0;
	snprintf(mk.reason, sizeof mk.reason, "%s", reason);
	for (int i = 0; i < nline && i < 3; i++)
		snprintf(mk.line[mk.nline++], sizeof mk.line[0], "%s", line[i]);
	return mk;
}

#ifndef TEST_LOCALEDIR
#define TEST_LOCALEDIR "build/default-cc/locale"
#endif

static void
test_columns(void **state)
{
	(void)state;
	assert_non_null(setlocale(LC_ALL, "C.UTF-8"));
	assert_int_equal(i18n_cols(""), 0);
	assert_int_equal(i18n_cols("h8"), 2);
	assert_int_equal(i18n_cols("五子棋"), 6);
	assert_int_equal(i18n_cols("a五b"), 4);
	assert_int_equal(i18n_cols("\u25cf"), 1); /* a stone: one column */
	/* the prefix that fits: never half a character */
	const char *s = "五子棋";
	assert_ptr_equal(i18n_fit(s, 3), s + 3);
	assert_ptr_equal(i18n_fit(s, 4), s + 6);
	assert_ptr_equal(i18n_fit(s, 80), s + strlen(s));
	assert_ptr_equal(i18n_tail(s, 3), s + 6);
	const char *abc = "abc";
	assert_ptr_equal(i18n_tail(abc, 2), abc + 1);
	char buf[64];
	i18n_pad(buf, sizeof buf, "规则", 8);
	assert_string_equal(buf, "规则    ");
	i18n_pad(buf, sizeof buf, "连珠五子棋", 5); /* cut, then one space */
	assert_string_equal(buf, "连珠 ");
	i18n_pad(buf, sizeof buf, "alice", 3);
	assert_string_equal(buf, "ali");
	/* a byte the locale cannot read counts one column, and moves on */
	assert_int_equal(i18n_cols("a\xff"), 2);
}

static void
test_english(void **state)
{
	(void)state;
	unsetenv("LANGUAGE");
	setenv("LC_ALL", "C", 1);
	setenv("GOMOKU_LOCALEDIR", TEST_LOCALEDIR, 1);
	i18n_init();
	assert_string_equal(
	    i18n_error(ERR_NO_CODE), "No private room has that invite code; check it");
	assert_string_equal(i18n_reason(REASON_RESIGN), "resign");
	assert_string_equal(i18n_rule(RULE_RENJU), "renju");
	assert_string_equal(i18n_bye("takeover"),
	    "Your session went on in another client (a newer login or resume); this one stops");
	assert_string_equal(i18n_bye("later"), "The server closed the connection");
	assert_string_equal(TR("lobby.quick", "Quick match"), "Quick match");
	/* the opening rules: the renju openings by code and name, the areas */
	char name[64];
	assert_string_equal(i18n_canon(1, name, sizeof name), "D1 Kansei 寒星");
	assert_string_equal(i18n_canon(13, name, sizeof name), "D13 Yusei 遊星");
	assert_string_equal(i18n_canon(14, name, sizeof name), "I1 Chosei 長星");
	assert_string_equal(i18n_canon(26, name, sizeof name), "I13 Suisei 彗星");
	assert_string_equal(i18n_canon(PROTO_CANON_NONE, name, sizeof name), "");
	assert_string_equal(i18n_canon(27, name, sizeof name), "");
	assert_string_equal(i18n_opening(OPENING_TARAGUCHI10), "Taraguchi-10");
	/* a puzzle's class, and the rating after it or why there is none */
	assert_string_equal(i18n_pclass(PCLASS_VCF), "VCF: win by fours");
	assert_string_equal(i18n_pclass(PCLASS_VCT), "VCT: win by fours and threes");
	static model_t pm;
	char said[256];
	model_init(&pm);
	pm.puzzle = PUZZLE_OPEN;
	pm.puzzle_mine.value = 1523;
	model_puzzle_rating_text(&pm, said, sizeof said);
	assert_string_equal(said, ""); /* not over: nothing to say */
	pm.puzzle = PUZZLE_SOLVED;
	pm.puzzle_mine.provisional = 1;
	model_puzzle_rating_text(&pm, said, sizeof said);
	assert_string_equal(said, "Your puzzle rating: ~1523");
	pm.puzzle = PUZZLE_FAILED;
	pm.puzzle_mine.provisional = 0;
	pm.puzzle_before = 1550;
	model_puzzle_rating_text(&pm, said, sizeof said);
	assert_string_equal(said, "Your puzzle rating: 1523 (-27)");
	pm.puzzle_mine.value = -1;
	model_puzzle_rating_text(&pm, said, sizeof said);
	assert_string_equal(said, "Not rated: only an account's first try of a puzzle is");
	pm.guest = 1;
	model_puzzle_rating_text(&pm, said, sizeof said);
	assert_string_equal(said, "Not rated: a guest has no puzzle rating (an account has one)");
	pm.guest = 0;
	model_puzzle_rating_text(&pm, said, sizeof said);
	assert_string_equal(
	    said, "Not rated: you had tried this puzzle before; only a first try is rated");
	/* 5.20's codes in the puzzles' words, others as ever */
	assert_string_equal(
	    model_error_text(PR_PUZZLE, ERR_ARGUMENT), "There is no puzzle of that number");
	assert_string_equal(
	    model_error_text(PR_SOLVE, ERR_OCCUPIED), "That point is already taken");
	assert_string_equal(i18n_opening(OPENING_LONGPRO), "long pro");
	assert_string_equal(i18n_oarea(OAREA_WIRE_IN5), "in the central 5x5");
	assert_string_equal(i18n_oarea(OAREA_WIRE_OUT7), "outside the central 7x7");
	assert_string_equal(i18n_oarea(OAREA_WIRE_NONE), "");
	assert_string_equal(i18n_ostage(OSTAGE_WIRE_BRANCH), "choose one or ten");
	/* a review's words (PROTOCOL.md 5.19): its codes, a mark phrased
	 * from its fields, black's chance */
	assert_string_equal(
	    i18n_error(ERR_PRIVATE_GAME), "That game was played in a private room you were not in");
	assert_string_equal(i18n_error(ERR_NOT_REVIEWED),
	    "That game has not been reviewed yet; a review request makes one");
	char text[1024];
	model_mark_t mk = sample_mark("vcf", 3);
	model_mark_text(&mk, "\u2192", text, sizeof text);
	assert_string_equal(text,
	    "Move 8, white: blunder (61% \u2192 0%). Better j9: white wins by fours: j9 k10 l11");
	mk = sample_mark("block-open-three", 1); /* the better move alone: no line said */
	model_mark_text(&mk, "->", text, sizeof text);
	assert_string_equal(
	    text, "Move 8, white: blunder (61% -> 0%). Better j9: white answers the open three");
	mk = sample_mark("four-three", 3);
	mk.kind = MARK_TURNING;
	mk.side = SIDE_BLACK;
	mk.before = 388;
	mk.after = 1000;
	snprintf(mk.played, sizeof mk.played, "j9"); /* the engine's move was played */
	model_mark_text(&mk, "->", text, sizeof text);
	assert_string_equal(text,
	    "Move 8, black: turning point (39% -> 100%). The engine agrees: black makes a "
	    "four-three: j9 k10 l11");
	mk = sample_mark("-", 0);
	mk.kind = MARK_MISSED_WIN;
	mk.better[0] = '\0'; /* the engine had no move: nothing better said */
	mk.before = 1000;
	mk.after = 999;
	model_mark_text(&mk, "->", text, sizeof text);
	assert_string_equal(text, "Move 8, white: missed win (100% -> 99%)");
	mk = sample_mark("hunch", 1); /* a word this client does not know yet */
	model_mark_text(&mk, "->", text, sizeof text);
	assert_string_equal(
	    text, "Move 8, white: blunder (61% -> 0%). Better j9: white plays the engine's move");
	/* a percent is 0 or 100 only when proven */
	assert_int_equal(model_percent(0), 0);
	assert_int_equal(model_percent(1), 1);
	assert_int_equal(model_percent(4), 1);
	assert_int_equal(model_percent(5), 1);
	assert_int_equal(model_percent(15), 2);
	assert_int_equal(model_percent(612), 61);
	assert_int_equal(model_percent(994), 99);
	assert_int_equal(model_percent(999), 99);
	assert_int_equal(model_percent(1000), 100);
	model_chance_text(612, text, sizeof text);
	assert_string_equal(text, "Black's win chance: 61%");
	model_chance_text(0, text, sizeof text);
	assert_string_equal(text, "White has a forced win");
	model_chance_text(1000, text, sizeof text);
	assert_string_equal(text, "Black has a forced win");
	model_chance_text(-1, text, sizeof text);
	assert_string_equal(text, "");
}

/* The review's graph (client/model.c): heights 0 (white's) to 7
 * (black's), a column a position when they fit, else means. */
static void
test_graph(void **state)
{
	(void)state;
	static const int16_t evals[] = { 0, 500, 1000, -1, 140, 860, 999, 1 };
	signed char lv[8];
	assert_int_equal(model_graph(evals, 8, 80, lv), 8);
	static const signed char one[] = { 0, 4, 7, -1, 1, 6, 7, 0 };
	assert_memory_equal(lv, one, 8);
	/* 8 positions in 3 columns: [0,2) [2,5) [5,8); a column's unknown
	 * positions do not count */
	assert_int_equal(model_graph(evals, 8, 3, lv), 3);
	assert_int_equal(lv[0], 2); /* 250 */
	assert_int_equal(lv[1], 4); /* (1000 + 140) / 2 = 570 */
	assert_int_equal(lv[2], 4); /* 620 */
	static const int16_t none[] = { -1, -1 };
	assert_int_equal(model_graph(none, 2, 10, lv), 2);
	assert_int_equal(lv[0], -1);
	assert_int_equal(model_graph(evals, 0, 10, lv), 0);
	assert_int_equal(model_graph(evals, 8, 0, lv), 0);
	/* every position in the column that covers it, the last in the last */
	for (int ncols = 1; ncols <= 8; ncols++)
		for (int p = 0; p < 8; p++) {
			int c = model_graph_column(8, ncols, p);
			assert_true(c >= 0 && c < ncols);
			assert_true((long)c * 8 / ncols <= p && p < (long)(c + 1) * 8 / ncols);
		}
	assert_int_equal(model_graph_column(8, 3, 7), 2);
	assert_int_equal(model_graph_column(8, 3, 8), -1);
	assert_int_equal(model_graph_column(300, 40, 0), 0);
	assert_int_equal(model_graph_column(300, 40, 299), 39);
}

static void
test_chinese(void **state)
{
	(void)state;
	setenv("LC_ALL", "zh_CN.UTF-8", 1);
	setenv("GOMOKU_LOCALEDIR", TEST_LOCALEDIR, 1);
	i18n_init();
	if (!setlocale(LC_MESSAGES, NULL) || strncmp(setlocale(LC_MESSAGES, NULL), "zh_CN", 5)) {
		fail_msg("no zh_CN.UTF-8 locale (make deps generates it)");
	}
	assert_string_equal(i18n_dir(), TEST_LOCALEDIR);
	assert_string_equal(TR("lobby.quick", "Quick match"), "快速匹配");
	assert_string_equal(i18n_error(ERR_DOUBLE_THREE), "连珠规则下黑棋禁手：三三");
	assert_string_equal(i18n_error(ERR_DOUBLE_FOUR), "连珠规则下黑棋禁手：四四");
	assert_string_equal(i18n_error(ERR_OVERLINE), "连珠规则下黑棋禁手：长连");
	assert_string_equal(i18n_reason(REASON_RESIGN), "认输");
	assert_string_equal(i18n_reason(REASON_DRAW_AGREED), "协议和棋");
	assert_string_equal(i18n_offer(OFFER_UNDO), "悔棋");
	assert_string_equal(i18n_rule(RULE_RENJU), "连珠");
	assert_string_equal(i18n_opening(OPENING_SWAP2), "交换二");
	/* the 26 renju openings' Chinese names, in the protocol's order */
	static const char *const canons[26] = { "寒星", "溪月", "疏星", "花月", "残月", "雨月",
		"金星", "松月", "丘月", "新月", "瑞星", "山月", "游星", "长星", "峡月", "恒星",
		"水月", "流星", "云月", "浦月", "岚月", "银月", "明星", "斜月", "名月", "彗星" };
	char name[64], want[64];
	for (int i = 0; i < 26; i++) {
		snprintf(want, sizeof want, "%c%d %s", i < 13 ? 'D' : 'I', i % 13 + 1, canons[i]);
		assert_string_equal(i18n_canon(i + 1, name, sizeof name), want);
	}
	assert_string_equal(i18n_opening(OPENING_YAMAGUCHI), "山口规则");
	assert_string_equal(i18n_oarea(OAREA_WIRE_CENTRE), "在天元");
	/* every opening rule, area and stage in Chinese, none the English */
	for (int o = OPENING_NONE; o <= OPENING_TARAGUCHI10; o++)
		assert_true((unsigned char)i18n_opening((proto_opening_t)o)[0] >= 0x80 ||
		    o == OPENING_RIF); /* "RIF 规则": the federation's name */
	for (int a = OAREA_WIRE_ANY; a <= OAREA_WIRE_OFFERS; a++)
		assert_true((unsigned char)i18n_oarea((proto_oarea_t)a)[0] >= 0x80);
	for (int st = OSTAGE_WIRE_PLACE; st <= OSTAGE_WIRE_BRANCH; st++)
		assert_true((unsigned char)i18n_ostage((proto_ostage_t)st)[0] >= 0x80);
	assert_string_equal(i18n_botwhy("vcf 7"), "连续冲四取胜");
	/* a move's reason with its count: the attacker's moves, every other ply */
	char why[128];
	assert_string_equal(i18n_botwhy_text("vcf 7", why, sizeof why), "4 步连续冲四取胜");
	assert_string_equal(i18n_botwhy_text("vct 9", why, sizeof why), "5 步连续进攻取胜");
	assert_string_equal(i18n_botwhy_text("block-five", why, sizeof why), "挡住冲四");
	/* a review's mark in Chinese, from the same fields */
	char text[1024];
	model_mark_t mk = sample_mark("vcf", 3);
	model_mark_text(&mk, "\u2192", text, sizeof text);
	assert_string_equal(text,
	    "第 8 手，白棋：败着（61% \u2192 0%）。更好的是 j9：白棋连续冲四取胜：j9 k10 l11");
	model_chance_text(612, text, sizeof text);
	assert_string_equal(text, "黑方胜率：61%");
	/* a puzzle in Chinese: its class, the rating after it, why none */
	assert_string_equal(i18n_pclass(PCLASS_VCF), "VCF：连续冲四取胜");
	assert_string_equal(i18n_pclass(PCLASS_VCT), "VCT：以冲四和活三取胜");
	static model_t pm;
	model_init(&pm);
	pm.puzzle = PUZZLE_SOLVED;
	pm.puzzle_mine.value = 1523;
	pm.puzzle_mine.provisional = 1;
	pm.puzzle_before = 1500;
	model_puzzle_rating_text(&pm, text, sizeof text);
	assert_string_equal(text, "你的解题等级分：~1523（+23）");
	pm.puzzle_mine.value = -1;
	pm.guest = 1;
	model_puzzle_rating_text(&pm, text, sizeof text);
	assert_string_equal(text, "不计分：游客没有解题等级分（账号才有）");
	pm.guest = 0;
	model_puzzle_rating_text(&pm, text, sizeof text);
	assert_string_equal(text, "不计分：你以前做过这道题；只有第一次尝试计分");
	/* 5.20's codes in the puzzles' own words, translated */
	static const int pcodes[] = { 402, 441, 452, 456, 506 };
	for (size_t i = 0; i < sizeof pcodes / sizeof pcodes[0]; i++) {
		const char *t = model_error_text(PR_PUZZLE, pcodes[i]);
		assert_true((unsigned char)t[0] >= 0x80);
		assert_string_not_equal(t, i18n_error(pcodes[i]));
	}
	assert_string_equal(model_error_text(PR_PUZZLE, ERR_NO_PUZZLE),
	    "还没有习题：习题来自已复盘的公开对局中错失的胜机");
	/* every reason word its own words, none of them English */
	static const char *const words[] = { "five", "open-four", "four-three", "vcf", "vct",
		"block-five", "block-open-three", "positional", "hunch" };
	char said[9][256];
	for (int i = 0; i < 9; i++) {
		mk = sample_mark(words[i], 1);
		model_mark_text(&mk, "->", said[i], sizeof said[i]);
		for (const char *c = strstr(said[i], "j9") + 2; *c; c++)
			assert_false((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z'));
		for (int j = 0; j < i; j++)
			assert_string_not_equal(said[i], said[j]);
	}
	static const proto_mark_t kinds[] = { MARK_MISSED_WIN, MARK_BLUNDER, MARK_TURNING };
	for (int i = 0; i < 3; i++) {
		mk = sample_mark("vcf", 0);
		mk.kind = kinds[i];
		mk.better[0] = '\0';
		model_mark_text(&mk, "->", text, sizeof text);
		for (const char *c = text; *c; c++)
			assert_false((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z'));
	}
	/* every code has its own sentence, translated, never a token */
	static const int codes[] = { 400, 401, 402, 403, 404, 405, 406, 407, 410, 411, 412, 413,
		414, 415, 416, 417, 420, 421, 422, 423, 424, 430, 431, 432, 433, 434, 435, 436, 440,
		441, 442, 443, 444, 445, 446, 447, 448, 449, 450, 454, 455, 456, 500, 501, 502, 503,
		504, 505, 506, 507, 508 };
	const char *other = i18n_error(999);
	for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++) {
		const char *t = i18n_error(codes[i]);
		assert_string_not_equal(t, other);
		assert_true((unsigned char)t[0] >= 0x80); /* Chinese, not the English */
	}
	for (int r = REASON_FIVE; r <= REASON_ABORTED; r++)
		assert_true((unsigned char)i18n_reason((proto_reason_t)r)[0] >= 0x80);
	setenv("LC_ALL", "C", 1);
	i18n_init();
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_columns),
		cmocka_unit_test(test_english),
		cmocka_unit_test(test_graph),
		cmocka_unit_test(test_chinese),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
