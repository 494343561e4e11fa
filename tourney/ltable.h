/*
 * ltable.h: an engine league's table (issue 49, PROTOCOL.md 5.23) from its
 * games: each player's Bayesian Elo with its 95% error bar (elo.h), its
 * games over the board, points (in halves) and draws, best first. Pure
 * like the rest of tourney/.
 */
#ifndef GOMOKUD_TOURNEY_LTABLE_H
#define GOMOKUD_TOURNEY_LTABLE_H

#include "tourney/tourney.h"

struct ltable_row {
	int player;      /* index into the caller's players */
	int elo;         /* rounded, the players' mean 0 */
	int minus, plus; /* the 95% bar below and above, rounded, >= 0 */
	int games;       /* over the board (forfeits and byes not counted) */
	int points;      /* in halves, in those games */
	int draws;
};

/* The table of players 0..n-1 (1 <= n <= ELO_PLAYERS_MAX) from games[0..ng)
 * into rows[n], best first: by Elo, then points, then fewer games, then
 * index. 0, or -1 (bad arguments, or the fit did not converge). */
int ltable_make(int n, const struct tourney_game *games, int ng, struct ltable_row *rows);

#endif
