/*
 * roundrobin.h: a round robin's rounds by the Berger tables (issue 48).
 * Pure: no I/O, no globals, no allocation.
 *
 * Players 0..n-1 are the Berger numbers 1..n (the pairing numbers, usually
 * by rating). With an odd n a dummy n+1 joins and whoever meets it has the
 * round's bye. Roles are those of the tables: the player written first is
 * "first" (tourney.h). So that "first" comes as evenly as it can:
 *   - even n: every player is first (n-2)/2 or n/2 times in the n-1 rounds
 *     (player n exactly (n-2)/2 times, in the even rounds);
 *   - odd n: every player plays n-1 games and is first in exactly (n-1)/2
 *     of them, second in the other (n-1)/2, and has one bye.
 * A double round robin plays the table twice: rounds R+1..2R (R = rr_rounds)
 * repeat rounds 1..R with the roles swapped, so every player is first
 * exactly n-1 times over the two cycles (n even) or n-1 times (n odd).
 */
#ifndef GOMOKUD_TOURNEY_ROUNDROBIN_H
#define GOMOKUD_TOURNEY_ROUNDROBIN_H

#include "tourney/tourney.h"

/* The rounds of one cycle for n players: n-1 for an even n, n for an odd n
 * (each round one player has the bye). -1 when n is not in
 * 2..TOURNEY_PLAYERS_MAX or the rounds would pass TOURNEY_ROUNDS_MAX. */
int rr_rounds(int n);

/* Writes round `round` (1..2*rr_rounds(n); past rr_rounds(n) the second
 * cycle, roles swapped) into out: every game TR_PENDING with its round, in
 * the table's board order, the bye (odd n) as TR_BYE with second
 * TOURNEY_BYE. Returns the games written ((n+1)/2), or -1 when n or round
 * is out of range or outmax is too small (nothing written then). */
int rr_round(int n, int round, struct tourney_game *out, int outmax);

#endif
