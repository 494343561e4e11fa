/*
 * i18n.h: every text a player reads comes from the message catalogs in
 * po/ (docs/i18n.md). A message has a stable key, its gettext msgctxt
 * (the web's JSON catalogs are keyed by it), and its English text, the
 * msgid, which is also what shows when no catalog applies (LANG=C).
 *
 *   TR("lobby.quick", "Quick match")   the text now, in the player's language
 *   NTR("reason.five", "five in a row")  marks a key and its English in a
 *                                      table; the table's user calls i18n_tr
 *
 * Widths on screen are display columns: a CJK character takes two.
 */
#ifndef GOMOKU_CLIENT_I18N_H
#define GOMOKU_CLIENT_I18N_H

#include <stddef.h>

#include "proto/proto.h"
#include "rules/rules.h"

#define TR(key, en) i18n_tr(key, en)
#define NTR(key, en) key, en

/* The text domain: gomoku.mo under <dir>/<lang>/LC_MESSAGES/. */
#define I18N_DOMAIN "gomoku"

/* Follows the locale (LC_ALL, LC_MESSAGES, LANG; LANGUAGE too) and finds
 * the catalogs: $GOMOKU_LOCALEDIR, else the build tree's beside the
 * program, else <program's dir>/../share/locale as installed. */
void i18n_init(void);
/* The catalog directory i18n_init chose ("" when none was found). */
const char *i18n_dir(void);

/* The text of key in the player's language, else en. */
const char *i18n_tr(const char *key, const char *en) __attribute__((format_arg(2)));

/* Words for the protocol's tokens and codes; never the raw token. */
const char *i18n_error(int code);
const char *i18n_reason(proto_reason_t r);
const char *i18n_result(proto_result_t r);
const char *i18n_offer(proto_offer_t o);
const char *i18n_status(proto_status_t s);
const char *i18n_ustate(proto_ustate_t s);
const char *i18n_colour(proto_colour_t c);
const char *i18n_opening(proto_opening_t o);
const char *i18n_rule(rule_t r);
const char *i18n_stage(proto_stage_t s);
/* A puzzle's class with what it asks ("VCF: win by fours"). */
const char *i18n_pclass(proto_pclass_t c);
/* Where an opening stage's stone may go, as a phrase ("in the central
 * 5x5"); "" for none. */
const char *i18n_oarea(proto_oarea_t a);
/* What an opening rule's stage waits for, short ("choose a colour"). */
const char *i18n_ostage(proto_ostage_t s);
/* The canonical renju opening canon (1..26: d1..d13, i1..i13) as its
 * code and name, "D1 Kansei", into buf; "" for none. */
const char *i18n_canon(int canon, char *buf, size_t n);
/* A tournament's kind ("Swiss"), its state ("under way"), who may enter
 * ("people only"), a player's status in it ("withdrawn"). */
const char *i18n_tkind(proto_tkind_t k);
const char *i18n_tstate(proto_tstate_t s);
const char *i18n_entrants(proto_entrants_t e);
const char *i18n_tstatus(proto_tstatus_t s);
const char *i18n_end(proto_end_t e);
const char *i18n_presence(proto_presence_t p);
/* BYE's reason word ("quit", "takeover", "shutdown"); an unknown one gets
 * a general sentence. */
const char *i18n_bye(const char *word);
/* A bot move's reason word ("five", "vcf", ...), as MOVE carries it. */
const char *i18n_botwhy(const char *word);
/* A bot's move reason as MOVE carries it ("vcf 7") in words, its count
 * said as the attacker's moves ("wins by fours in 4 moves"), into buf. */
const char *i18n_botwhy_text(const char *reason, char *buf, size_t n);

/* Display columns of UTF-8 s (a wide character counts two, a character the
 * locale cannot read one). */
int i18n_cols(const char *s);
/* The end of the longest prefix of s that fits in w columns. */
const char *i18n_fit(const char *s, int w);
/* The start of the longest suffix of s that fits in w columns. */
const char *i18n_tail(const char *s, int w);
/* dst = s cut to w columns and padded with spaces to w columns. */
void i18n_pad(char *dst, size_t len, const char *s, int w);

#endif
