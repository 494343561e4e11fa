/*
 * wire.h: the edge between the game domain (game.h) and the protocol
 * (proto.h). Each mapping is spelled out value by value, so reordering a
 * protocol enum can never change what a stored game means, and the rooms,
 * the lobby and the store never see a wire code.
 */
#ifndef GOMOKUD_WIRE_H
#define GOMOKUD_WIRE_H

#include "daemon/game.h"
#include "proto/proto.h"

proto_status_t wire_status(game_status_t s);
proto_result_t wire_result(game_result_t r);
proto_reason_t wire_reason(game_reason_t r);
proto_opening_t wire_opening(game_opening_t o);
game_opening_t wire_opening_in(proto_opening_t o);
proto_stage_t wire_stage(game_stage_t s);
/* An opening machine's stage and area, as * OPENING says them. */
proto_ostage_t wire_ostage(opening_stage_t s);
proto_oarea_t wire_oarea(opening_area_t a);
/* An OPENING request as the machine's act, on a board of size; -1 (off
 * the board) when a move does not parse. */
int wire_opening_act(const proto_msg_t *m, int size, opening_act_t *a);
proto_offer_t wire_offer(game_offer_t o);
game_offer_t wire_offer_in(proto_offer_t o);
/* The settings of a SEEK, CREATE or BOT play request. */
void wire_gamespec(struct gamespec *g, const proto_msg_t *m);
/* The other way: the settings into m's rule ... opening fields. */
void wire_gamespec_out(proto_msg_t *m, const struct gamespec *g);
/* The error reply for a refused game verb; l says why the rules refused a
 * move (GERR_ILLEGAL). */
proto_err_t wire_err(game_err_t e, legality_t l);

#endif
