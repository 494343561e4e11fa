/*
 * league.h: the engine league (issue 49; PROTOCOL.md section 5.23): for
 * each league line of the config, a standing round robin among the
 * server's engines (its bot levels and its hosted engines) and the bot
 * accounts that opted in (SET league yes), rated by Bayesian Elo with
 * error bars (tourney/ltable.h) from every game of all its events.
 *
 * Each event is a robin tournament of tourneys.h, made by the server
 * (tourneys_league): the league's number n with it, (league, n) a unique
 * key in the store, so of two nodes (or a restart) making it only one
 * does. The next starts `every` after the last one's start, or at its end
 * when that is later; the first `first` seconds after the daemon's start.
 * The module reads its events and their results from the store (at the
 * start, then every two seconds while one is not over, off the loop with
 * PostgreSQL) and keeps the table; LEAGUES and LEAGUE answer from it.
 *
 * NULL (none) without tournaments; with no league lines it runs and lists
 * none.
 */
#ifndef GOMOKUD_LEAGUE_H
#define GOMOKUD_LEAGUE_H

#include "proto/proto.h"

struct conn;
struct server;
struct leagues;

/* The leagues of the config, their events read from the store; NULL
 * when the server runs no tournaments, or on failure (logged). */
struct leagues *leagues_new(struct server *srv);
void leagues_free(struct leagues *l);
/* LEAGUES or LEAGUE from c: 0 when answered, else an error code with *why. */
int leagues_request(struct leagues *l, struct conn *c, const proto_msg_t *m, const char **why);

#endif
