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
	assert_string_equal(i18n_opening(OPENING_LONGPRO), "long pro");
	assert_string_equal(i18n_oarea(OAREA_WIRE_IN5), "in the central 5x5");
	assert_string_equal(i18n_oarea(OAREA_WIRE_OUT7), "outside the central 7x7");
	assert_string_equal(i18n_oarea(OAREA_WIRE_NONE), "");
	assert_string_equal(i18n_ostage(OSTAGE_WIRE_BRANCH), "choose one or ten");
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
	/* every code has its own sentence, translated, never a token */
	static const int codes[] = { 400, 401, 402, 403, 404, 405, 406, 407, 410, 411, 412, 413,
		414, 415, 416, 417, 420, 421, 422, 423, 424, 430, 431, 432, 433, 434, 435, 436, 440,
		441, 442, 443, 444, 445, 446, 447, 448, 449, 450, 500, 501, 502, 503, 504, 505, 506,
		507, 508 };
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
		cmocka_unit_test(test_chinese),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
