/*
 * filter.h: which challenges gomoku-bot accepts, by its config's filters
 * (conf.h) and by what its brain can play.
 */
#ifndef GOMOKU_BOT_FILTER_H
#define GOMOKU_BOT_FILTER_H

#include "bot/conf.h"
#include "proto/proto.h"

/* A * CHALLENGE to us (its from, rule, size, tc, rated and opening fields
 * read) while games_now games are under way: NULL to accept it, else why
 * it is declined (for the log). */
const char *filter_challenge(const bot_conf_t *c, const proto_msg_t *ch, int games_now);

/* Whether the brain can play a game under this opening rule: none always,
 * swap2 when the conf declares SWAP2BOARD, no other (the renju opening
 * rules, swap, pro and long pro have stages or areas that the Gomocup
 * protocol cannot say). */
int filter_opening_ok(const bot_conf_t *c, proto_opening_t o);

#endif
