/* wire.c: game domain values to protocol values and back (see wire.h). */
#include "daemon/wire.h"

#include <string.h>

proto_status_t
wire_status(game_status_t s)
{
	switch (s) {
	case GAME_WAITING:
		return ROOM_WAITING;
	case GAME_OPENING:
		return ROOM_OPENING;
	case GAME_PLAYING:
		return ROOM_PLAYING;
	case GAME_OVER:
		break;
	}
	return ROOM_OVER;
}

proto_result_t
wire_result(game_result_t r)
{
	switch (r) {
	case GAME_BLACK_WINS:
		return RES_BLACK;
	case GAME_WHITE_WINS:
		return RES_WHITE;
	case GAME_DRAWN:
		return RES_DRAW;
	case GAME_NO_RESULT:
		break;
	}
	return RES_NONE;
}

proto_reason_t
wire_reason(game_reason_t r)
{
	switch (r) {
	case BY_FIVE:
		return REASON_FIVE;
	case BY_RESIGN:
		return REASON_RESIGN;
	case BY_TIME:
		return REASON_TIME;
	case BY_FORBIDDEN:
		return REASON_FORBIDDEN;
	case BY_DRAW_AGREED:
		return REASON_DRAW_AGREED;
	case BY_BOARD_FULL:
		return REASON_BOARD_FULL;
	case BY_ABANDONED:
		return REASON_ABANDONED;
	case BY_ABORTED:
		break;
	}
	return REASON_ABORTED;
}

game_opening_t
wire_opening_in(proto_opening_t o)
{
	switch (o) {
	case OPENING_SWAP2:
		return OPEN_SWAP2;
	case OPENING_SWAP:
		return OPEN_SWAP;
	case OPENING_PRO:
		return OPEN_PRO;
	case OPENING_LONGPRO:
		return OPEN_LONGPRO;
	case OPENING_RIF:
		return OPEN_RIF;
	case OPENING_YAMAGUCHI:
		return OPEN_YAMAGUCHI;
	case OPENING_SOOSORV8:
		return OPEN_SOOSORV8;
	case OPENING_TARAGUCHI10:
		return OPEN_TARAGUCHI10;
	case OPENING_NONE:
		break;
	}
	return OPEN_FREE;
}

proto_opening_t
wire_opening(game_opening_t o)
{
	switch (o) {
	case OPEN_SWAP2:
		return OPENING_SWAP2;
	case OPEN_SWAP:
		return OPENING_SWAP;
	case OPEN_PRO:
		return OPENING_PRO;
	case OPEN_LONGPRO:
		return OPENING_LONGPRO;
	case OPEN_RIF:
		return OPENING_RIF;
	case OPEN_YAMAGUCHI:
		return OPENING_YAMAGUCHI;
	case OPEN_SOOSORV8:
		return OPENING_SOOSORV8;
	case OPEN_TARAGUCHI10:
		return OPENING_TARAGUCHI10;
	case OPEN_FREE:
		break;
	}
	return OPENING_NONE;
}

proto_ostage_t
wire_ostage(opening_stage_t s)
{
	switch (s) {
	case OSTAGE_PLACE:
		return OSTAGE_WIRE_PLACE;
	case OSTAGE_SWAP:
		return OSTAGE_WIRE_SWAP;
	case OSTAGE_SWAP_OR_PLACE:
		return OSTAGE_WIRE_SWAP_OR_PLACE;
	case OSTAGE_DECLARE:
		return OSTAGE_WIRE_DECLARE;
	case OSTAGE_OFFER:
		return OSTAGE_WIRE_OFFER;
	case OSTAGE_CHOOSE:
		return OSTAGE_WIRE_CHOOSE;
	case OSTAGE_BRANCH:
	case OSTAGE_DONE: /* never said: the opening's end is * COLOURS */
		break;
	}
	return OSTAGE_WIRE_BRANCH;
}

proto_oarea_t
wire_oarea(opening_area_t a)
{
	switch (a) {
	case OAREA_ANY:
		return OAREA_WIRE_ANY;
	case OAREA_CENTRE:
		return OAREA_WIRE_CENTRE;
	case OAREA_IN3:
		return OAREA_WIRE_IN3;
	case OAREA_IN5:
		return OAREA_WIRE_IN5;
	case OAREA_IN7:
		return OAREA_WIRE_IN7;
	case OAREA_IN9:
		return OAREA_WIRE_IN9;
	case OAREA_OUT5:
		return OAREA_WIRE_OUT5;
	case OAREA_OUT7:
		return OAREA_WIRE_OUT7;
	case OAREA_OFFERS:
		return OAREA_WIRE_OFFERS;
	case OAREA_NONE:
	case OAREA_COUNT:
		break;
	}
	return OAREA_WIRE_NONE;
}

int
wire_opening_act(const proto_msg_t *m, int size, opening_act_t *a)
{
	memset(a, 0, sizeof *a);
	switch (m->id) {
	case PR_OPENING_PLACE:
	case PR_OPENING_CHOOSE:
		a->kind = m->id == PR_OPENING_PLACE ? OACT_PLACE : OACT_CHOOSE;
		return notation_parse(m->move, size, &a->moves[0]) == 0 ? 0 : -1;
	case PR_OPENING_COLOUR:
		a->kind = OACT_COLOUR;
		a->arg = m->take == TAKE_BLACK ? STONE_BLACK : STONE_WHITE;
		return 0;
	case PR_OPENING_DECLARE:
		a->kind = OACT_DECLARE;
		a->n = (uint8_t)m->declared;
		return 0;
	case PR_OPENING_BRANCH:
		a->kind = OACT_BRANCH;
		a->arg = m->branch == BRANCH_TEN ? OBRANCH_TEN : OBRANCH_ONE;
		return 0;
	default: /* PR_OPENING_OFFER: the wire allows no more than the machine takes */
		a->kind = OACT_OFFER;
		for (int i = 0; i < m->nmoves && i < OPENING_MAX_OFFERS; i++)
			if (notation_parse(m->moves[i], size, &a->moves[a->n++]) != 0)
				return -1;
		if (m->nmoves > OPENING_MAX_OFFERS)
			a->n = OPENING_MAX_OFFERS + 1; /* refused as a wrong count */
		return 0;
	}
}

proto_stage_t
wire_stage(game_stage_t s)
{
	switch (s) {
	case SWAP2_PUT3:
		return STAGE_PUT3;
	case SWAP2_CHOOSE:
		return STAGE_CHOOSE;
	case SWAP2_CHOOSE2:
		break;
	}
	return STAGE_CHOOSE2;
}

proto_offer_t
wire_offer(game_offer_t o)
{
	return o == ASK_DRAW ? OFFER_DRAW : o == ASK_UNDO ? OFFER_UNDO : OFFER_REMATCH;
}

game_offer_t
wire_offer_in(proto_offer_t o)
{
	return o == OFFER_DRAW ? ASK_DRAW : o == OFFER_UNDO ? ASK_UNDO : ASK_REMATCH;
}

void
wire_gamespec(struct gamespec *g, const proto_msg_t *m)
{
	g->rule = m->rule;
	g->size = m->size;
	g->tc_base = m->tc_base;
	g->tc_inc = m->tc_inc;
	g->colour = m->colour == COLOUR_BLACK ? WISH_BLACK
	    : m->colour == COLOUR_WHITE       ? WISH_WHITE
					      : WISH_ANY;
	g->rated = m->rated;
	g->opening = wire_opening_in(m->opening);
}

void
wire_gamespec_out(proto_msg_t *m, const struct gamespec *g)
{
	m->rule = g->rule;
	m->size = g->size;
	m->tc_base = g->tc_base;
	m->tc_inc = g->tc_inc;
	m->colour = g->colour == WISH_BLACK ? COLOUR_BLACK
	    : g->colour == WISH_WHITE       ? COLOUR_WHITE
					    : COLOUR_ANY;
	m->rated = g->rated;
	m->opening = wire_opening(g->opening);
}

proto_err_t
wire_err(game_err_t e, legality_t l)
{
	switch (e) {
	case GERR_OK:
		break;
	case GERR_NOT_PLAYER:
		return ERR_NOT_PLAYER;
	case GERR_NOT_IN_ROOM:
		return ERR_NOT_IN_ROOM;
	case GERR_NOT_TURN:
		return ERR_NOT_TURN;
	case GERR_PHASE:
		return ERR_PHASE;
	case GERR_OVER:
		return ERR_GAME_OVER;
	case GERR_OFF_BOARD:
		return ERR_OFF_BOARD;
	case GERR_ILLEGAL:
		return proto_err_of_legality(l);
	case GERR_OUTSIDE_AREA:
		return ERR_OUTSIDE_AREA;
	case GERR_ARGUMENT:
		return ERR_ARGUMENT;
	case GERR_WRONG_COUNT:
		return ERR_WRONG_COUNT;
	case GERR_SYMMETRIC:
		return ERR_SYMMETRIC;
	case GERR_NOT_OFFERED:
		return ERR_NOT_OFFERED;
	case GERR_OFFER_PENDING:
		return ERR_OFFER_PENDING;
	case GERR_NO_OFFER:
		return ERR_NO_OFFER;
	case GERR_TOO_LATE:
		return ERR_TOO_LATE;
	case GERR_BUSY:
		return ERR_BUSY;
	case GERR_NO_CLAIM:
		return ERR_NO_CLAIM;
	case GERR_ROOM_FULL:
		return ERR_ROOM_FULL;
	case GERR_NO_SEEK:
		return ERR_NO_SEEK;
	case GERR_TOO_MANY_SEEKS:
		return ERR_SEEKS;
	case GERR_SERVER_BUSY:
		return ERR_SERVER_BUSY;
	case GERR_BANNED:
		return ERR_BANNED;
	case GERR_MUTED:
		return ERR_MUTED;
	case GERR_NOT_ADMIN:
		return ERR_NOT_ADMIN;
	case GERR_NO_USER:
		return ERR_NO_USER;
	case GERR_DRAINING:
		return ERR_DRAINING;
	case GERR_STORE_DOWN:
		return ERR_STORE_DOWN;
	case GERR_NO_ROOM:
		return ERR_NO_ROOM;
	case GERR_NO_CODE:
		return ERR_NO_CODE;
	case GERR_UNAVAILABLE:
		return ERR_UNAVAILABLE;
	case GERR_AWAY:
		return ERR_AWAY;
	case GERR_ACCOUNT_ONLY:
		return ERR_ACCOUNT_ONLY;
	case GERR_STORE:
	case GERR_FENCED:
	case GERR_PENDING:
	case GERR_NOMEM:
		break;
	}
	return ERR_INTERNAL;
}
