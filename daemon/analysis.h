/*
 * analysis.h: ANALYSE (issue 47, the analysis board): the engine's view of
 * a position of no game, searched on the bot workers (this node's, or a
 * cluster's remote ones) for analysis-ms at full strength. The module owns
 * its jobs in flight, one a connection, which is held meanwhile, and each
 * user's allowance an hour (analysis-per-hour; a guest a third of it). It
 * keeps the fair-play rule: nobody seated in an unfinished game
 * (session_playing: here, or sent to one elsewhere) gets an analysis of
 * any position while that game runs, and no position of a game under way
 * on this node, nor from its sixth stone a continuation of one, is
 * analysed for anyone.
 */
#ifndef GOMOKUD_ANALYSIS_H
#define GOMOKUD_ANALYSIS_H

#include "proto/proto.h"
#include "rules/rules.h"

struct analysis;
struct conn;
struct server;

/* The module for srv, on its bots' workers (srv->botplay); NULL when there
 * are none or analysis-per-hour is 0 (then ANALYSE is 501), or on failure. */
struct analysis *analysis_new(struct server *srv);
/* Drops every job in flight (before the bots' pool goes). */
void analysis_free(struct analysis *a);
/* c's ANALYSE m of p (its moves checked legal, its game not over): 0 when
 * the answer comes later (c is held until then), or an error code with
 * *why: ERR_IN_GAME, ERR_OVER_LIMIT, ERR_SERVER_BUSY (no worker free). */
int analysis_ask(struct analysis *a, struct conn *c, const proto_msg_t *m, const position_t *p,
    const char **why);

#endif
