/* export.c: game records for EXPORT (text and Piskvork .psq). */
#include "daemon/export.h"

#include <stdarg.h>
#include <stdio.h>

#include "daemon/game.h"
#include "proto/proto.h"

struct buf {
	char *p;
	size_t cap, len;
	int err;
};

static void
add(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(
	    b->len < b->cap ? b->p + b->len : NULL, b->len < b->cap ? b->cap - b->len : 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		b->err = 1;
	else
		b->len += (size_t)n;
}

static int
finish(struct buf *b)
{
	return b->err ? -1 : (int)b->len;
}

int
export_text(const store_game_t *g, const store_move_t *moves, char *buf, size_t len)
{
	struct buf b = { buf, len, 0, 0 };
	char mv[4];

	if (len > 0)
		buf[0] = '\0';
	add(&b, "rule %s\nsize %d\nmoves", rule_name((rule_t)g->rule), g->size);
	for (int i = 0; i < g->nmoves; i++) {
		if (i > 0 && i % EXPORT_MOVES_A_LINE == 0)
			add(&b, "\nmoves");
		add(&b, " %s", notation_format(moves[i].move, g->size, mv));
	}
	add(&b, "\nopening %s\n", game_opening_name((game_opening_t)g->opening));
	/* the canonical renju opening the first three stones make, and what
	 * the opening rule's acts with no stone were */
	position_t p;
	if (g->rule == RULE_RENJU && g->nmoves >= 3 && pos_init(&p, RULE_RENJU, g->size) == 0) {
		int i = 0;
		while (i < 3 && pos_play(&p, moves[i].move) == LEGAL_OK)
			i++;
		const renju_opening_t *o = i == 3 ? renju_opening(renju_opening_find(&p)) : NULL;
		if (o)
			add(&b, "renju-opening %c%s %s\n", o->code[0] == 'D' ? 'd' : 'i',
			    o->code + 1, o->name);
	}
	if (g->opening_log[0])
		add(&b, "opening-acts %s\n", g->opening_log);
	if (g->tc_base > 0)
		add(&b, "time %d+%d\n", g->tc_base, g->tc_inc);
	else
		add(&b, "time none\n");
	add(&b, "rated %s\n", g->rated ? "yes" : "no");
	if (g->rated)
		add(&b, "black %s %.0f %.0f\nwhite %s %.0f %.0f\n", g->black, g->black_before,
		    g->black_after, g->white, g->white_before, g->white_after);
	else
		add(&b, "black %s\nwhite %s\n", g->black, g->white);
	if (g->ended > 0)
		add(&b, "result %s %s\n", game_result_name((game_result_t)g->result),
		    game_reason_name((game_reason_t)g->reason));
	else
		add(&b, "result none in-progress\n");
	add(&b, "started %lld\nended %lld\nused-ms", (long long)g->started, (long long)g->ended);
	for (int i = 0; i < g->nmoves; i++) {
		if (i > 0 && i % EXPORT_TIMES_A_LINE == 0)
			add(&b, "\nused-ms");
		add(&b, " %lld", (long long)moves[i].used_ms);
	}
	add(&b, "\n");
	return finish(&b);
}

/* The end code Piskvork writes as a .psq file's last line: 0 for a game
 * played out (five, full board), 15 for a flag, -1 for "not available",
 * which it writes itself when it does not know (resignations, agreements
 * and aborts have no code of their own). */
static int
psq_end_code(const store_game_t *g)
{
	if (g->ended <= 0)
		return -1;
	switch ((game_reason_t)g->reason) {
	case BY_FIVE:
	case BY_BOARD_FULL:
		return 0;
	case BY_TIME:
		return 15;
	default:
		return -1;
	}
}

int
export_psq(const store_game_t *g, const store_move_t *moves, char *buf, size_t len)
{
	struct buf b = { buf, len, 0, 0 };

	if (len > 0)
		buf[0] = '\0';
	/* Piskvork's header, "Piskvorky WxH, X:Y, Z", as its own writer and
	 * reader have it (source/game.cpp of github.com/plastovicka/Piskvork,
	 * savePsq and openPsq, read 2026-12-03): W and H the board; X and Y
	 * the first and second player, each 0 for a person or, for an AI,
	 * its level + 1 (savePsq writes (level + 1) * isComp; openPsq sets
	 * isComp = X > 0 and the AI's time a move from its level table), so
	 * the 11:11 written here before loaded both players as AIs; Z the
	 * player who moved first (openPsq takes the file as .psq only when Z
	 * is 0 or 1): 0, the first player, black. Two people: 0:0, 0. Then
	 * x,y,ms per move, 1-based, then the end code (its reader stops at
	 * the first line that is no move). */
	add(&b, "Piskvorky %dx%d, 0:0, 0\n", g->size, g->size);
	for (int i = 0; i < g->nmoves; i++)
		add(&b, "%d,%d,%lld\n", rules_x(moves[i].move) + 1, rules_y(moves[i].move) + 1,
		    (long long)moves[i].used_ms);
	add(&b, "%d\n", psq_end_code(g));
	return finish(&b);
}
