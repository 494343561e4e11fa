/*
 * arena.h: an arena (issue 48): a tournament of fixed duration where a
 * player who is free is paired again as soon as possible, and points come
 * with lichess's "fire". Pure: no I/O, no clock, no globals, no allocation.
 *
 * Scoring, from a player's games in the order they ended: a win 2, a draw
 * 1, a loss 0; after two wins in a row over the board the player is on
 * fire: each further win scores 4 and a draw 2, until a game that is not a
 * win (which ends the streak, the draw included). Forfeits:
 *   - a forfeit win (the opponent never came) scores 2 and neither starts
 *     nor extends a streak, nor ends one: nothing was played;
 *   - a forfeit loss scores 0 and ends the streak;
 *   - both forfeiting scores 0 for both and ends both streaks;
 *   - a bye (an arena gives none, but tourney.h has them) counts as a
 *     forfeit win.
 */
#ifndef GOMOKUD_TOURNEY_ARENA_H
#define GOMOKUD_TOURNEY_ARENA_H

#include "tourney/tourney.h"

/* The arena points of players 0..n-1 from games[0..ngames-1] taken in
 * order (pending games skipped): points[p] as above, and, when streak is
 * not NULL, streak[p] the wins in a row over the board that p's last games
 * ended with (p is on fire while it is 2 or more). Returns 0, or -1 when n
 * is not in 1..TOURNEY_PLAYERS_MAX or a game names a player out of range
 * (points and streak are then unspecified). */
int arena_scores(const struct tourney_game *games, int ngames, int n, int *points, int *streak);

/* A player waiting for a game. */
struct arena_waiting {
	int player;        /* player index */
	int points;        /* arena points so far (arena_scores) */
	int rating;        /* for the order within equal points */
	int last_opponent; /* the opponent of the last game, or TOURNEY_BYE */
	int firsts;        /* games played as first so far */
	int seconds;       /* games played as second so far */
};

/* Pairs the waiting players w[0..nw-1] into out (at most nw/2 games, each
 * TR_PENDING, round 0); returns the games written, or -1 when nw is not in
 * 0..TOURNEY_PLAYERS_MAX, a player appears twice or outmax < nw/2.
 *
 * The order is points, then rating (both highest first), then player
 * index; each player in that order, not yet paired, meets the next one not
 * yet paired that is not a rematch: neither is the other's last opponent.
 * A rematch is never paired, even when the two are the only ones waiting:
 * they wait for someone else to come free (as lichess does). When this
 * walk leaves two or more players unpaired, each pair is tried, from the
 * bottom, for a swap that seats two of them (a-u, b-v or a-v, b-u) without
 * a rematch, so that 4 waiting with one rematch between the last two all
 * play. An odd one out waits. "First" goes to the one with the lower
 * firsts - seconds, then the lower rating, then the lower index.
 * Deterministic: the same input gives the same games. Time O(nw log nw)
 * plus O(u * nw) for the u left after the walk; no allocation. */
int arena_pair(const struct arena_waiting *w, int nw, struct tourney_game *out, int outmax);

#endif
