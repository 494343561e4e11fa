/*
 * standings.h: the standings of a tournament from its players and games
 * (issue 48): points and tie-breaks, ranks with ties shared. Pure: no I/O,
 * no globals, no allocation (about 80 KiB of stack), integers only.
 *
 * Units: points and the Buchholz family in halves (tourney.h: a win 2, a
 * draw 1); Sonneborn-Berger in quarters (an opponent's halves times the
 * halves scored against them); an arena's points as arena.h scores them.
 *
 * The tie-breaks, after points, by kind (FIDE C.07, the Tie-Break
 * Regulations of 2023; article numbers in standings.c):
 *   - Swiss: Buchholz Cut-1, Buchholz, median-Buchholz (Median1),
 *     Sonneborn-Berger;
 *   - round robin: Sonneborn-Berger, then wins (forfeit wins included);
 *   - arena: rating (the higher first).
 * Players equal on points and every tie-break of their kind share a rank
 * (shown "3="); within a rank, and in out[], the lower player index (the
 * pairing number) comes first.
 *
 * Unplayed games (standings.c says which article each follows):
 *   - Swiss: each of a player's own unplayed rounds (a bye, a forfeit won
 *     or lost, both forfeiting, a round with no game at all) counts as a
 *     game against a dummy opponent with the player's own points, for
 *     Buchholz and Sonneborn-Berger alike; an opponent's score counts as it
 *     is, except that the rounds after the last one the opponent was there
 *     for (played, or won: a game, a bye, a forfeit win) that have no game
 *     at all (withdrawn) count as draws. Cut-1 and Median1 cut one of the
 *     player's voluntarily unplayed rounds (a forfeit lost, both
 *     forfeiting, no game) before the lowest value.
 *   - round robin: the byes of an odd round robin (the dummy's games) are
 *     no games: no points, nothing in a tie-break; a forfeit counts as the
 *     game it was against the opponent it was against.
 *   - arena: as arena.h.
 */
#ifndef GOMOKUD_TOURNEY_STANDINGS_H
#define GOMOKUD_TOURNEY_STANDINGS_H

#include "tourney/tourney.h"

enum standings_kind {
	STANDINGS_SWISS,
	STANDINGS_ROUNDROBIN,
	STANDINGS_ARENA,
};

struct standing {
	int player;    /* player index */
	int rank;      /* 1, 2, ...: one more than the players strictly ahead */
	int shared;    /* another player has the same rank ("3=") */
	int points;    /* halves (an arena: its points) */
	int buchholz;  /* halves; Swiss only, else 0 */
	int bh_cut1;   /* halves: Buchholz Cut-1; Swiss only */
	int bh_median; /* halves: median-Buchholz (Median1); Swiss only */
	int sb;        /* quarters: Sonneborn-Berger; Swiss and round robin */
	int wins;      /* games won, by forfeit too; byes not */
	int rating;    /* players[player].rating */
};

/* Writes the standings of players[0..n-1] from games[0..ngames-1] into
 * out[0..n-1], best first. A Swiss or round robin counts rounds 1..rounds
 * (0: up to the highest round of a finished game) and skips pending games
 * and games of later rounds; an arena counts every finished game in the
 * order given. Returns n, or -1 when n is not in 1..TOURNEY_PLAYERS_MAX,
 * rounds not in 0..TOURNEY_ROUNDS_MAX, the kind unknown, or a game names a
 * player out of range, a player against itself, a round below 1 (Swiss or
 * round robin) or TOURNEY_BYE in a game that is not a bye (out is then
 * unspecified). Each player is expected in at most one game a round. */
int standings(enum standings_kind kind, const struct tourney_player *players, int n,
    const struct tourney_game *games, int ngames, int rounds, struct standing *out);

#endif
