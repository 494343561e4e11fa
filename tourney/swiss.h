/*
 * swiss.h: the pairing of one round of a Swiss by the FIDE Dutch system
 * (FIDE Handbook C.04.3, over the basic rules C.04.1 and the handling rules
 * C.04.2; issue 48). Pure: no I/O, no globals; one bounded allocation of
 * scratch per call, freed before it returns.
 *
 * Article names are those of the 2017 edition (A-E, criteria C1-C19);
 * where the editions from 2025 on added a rule (a bye, or a win without
 * playing, gives a downfloat: 1.4.3) it is followed.
 *
 * What it does, in the rules' words:
 * - players ranked by score, then pairing number (the caller's order);
 *   scoregroups, brackets, moved-down players (MDPs), homogeneous and
 *   heterogeneous brackets, the MDP-pairing and its remainder, S1 and S2;
 * - candidates in the rules' order: transpositions of S2 (lexicographic on
 *   the S2 players given to S1), exchanges between S1 and S2 (fewest
 *   players, smallest difference of the BSN sums, highest BSN out of S1,
 *   lowest BSN out of S2), MDP exchanges between S1 and the limbo;
 * - the absolute criteria: no rematch, no second pairing-allocated bye (nor
 *   a bye to a player who won by forfeit), no meeting of two
 *   non-topscorers with the same absolute colour preference (which keeps
 *   everyone within +-2 and off a third colour in a row, but for
 *   topscorers, those above 50%, in the last round);
 * - the completion criterion: a bracket's pairing is taken only if every
 *   player below it can still be paired (an exact matching test);
 * - the quality criteria: most pairs (MaxPairs, M1), the lowest PSD
 *   (C6: which MDPs float), then the topscorers' colour limits (C8, C9), colour preferences not
 *   granted (C10), strong ones not granted (C11), and repeated floats of
 *   the last two rounds (C12-C15); the first best candidate in the order;
 * - colour allocation E.1-E.5 (both preferences; the stronger; the wider
 *   difference of two topscorers; alternating back to the last round the
 *   two had different colours; the higher ranked player's preference;
 *   the initial colour, here "first", to the higher ranked player when his
 *   pairing number is odd).
 * Unplayed games (byes, forfeits) count for neither colours nor rematches
 * (C.04.2: such a pairing is not illegal later); a forfeit win bars the bye.
 *
 * Left out (also in tourney/README.md, "Swiss (Dutch) - what is left out"):
 * - C7 (the downfloaters chosen for the next bracket's sake) and the
 *   re-pairing of the penultimate bracket: the completion test stands in
 *   for them, so the pairings are always legal but may float other
 *   players than the rules would. The collapsed last bracket is kept in a
 *   simple form: a last bracket whose MDPs cannot all be paired with its
 *   residents is paired as one homogeneous bracket;
 * - C16-C19 (the score differences of repeated floaters);
 * - exchanges of two or more players each way where the bracket has over
 *   64 players, or where those of a size would pass 4,096 (one for one are
 *   always tried), and MDP exchanges of more than one player;
 * - the search for the best candidate has a budget (SWISS_NODES): past it
 *   the best candidate found so far is taken, and should none have been
 *   found the rest of the round is paired by a maximum matching in rank
 *   order, legal but not in the Dutch order (in no random event tried,
 *   tourney/README.md says which);
 * - accelerated pairings, late entries, byes requested by players (the
 *   caller leaves such players out by marking them withdrawn for a round).
 */
#ifndef GOMOKUD_TOURNEY_SWISS_H
#define GOMOKUD_TOURNEY_SWISS_H

#include "tourney/tourney.h"

/* The search steps a bracket may take before the best found is taken. */
#define SWISS_NODES 200000L

/* swiss_pair's answers besides a count. */
#define SWISS_IMPOSSIBLE (-1) /* no pairing keeps the absolute criteria */
#define SWISS_EINVAL (-2)     /* bad arguments, out too small, or no memory */

/*
 * Round `round` (1-based) of a Swiss of n players, pl[0..n-1] in
 * pairing-number order (index 0 the top seed: the caller sorts by rating,
 * then name), after the games of the earlier rounds (games of this round
 * or later are ignored); rounds is the total, for the last round's
 * relaxations. Withdrawn players are not paired. Writes the pairings
 * (round set, result TR_PENDING, first/second by the colour rules; at most
 * one TR_BYE game when the count is odd, last) into out, the top bracket's
 * first, and returns how many;
 * SWISS_IMPOSSIBLE when no pairing keeps the absolute criteria (the caller
 * then ends the event), SWISS_EINVAL on bad arguments (n out of
 * 0..TOURNEY_PLAYERS_MAX, round out of 1..rounds, rounds over
 * TOURNEY_ROUNDS_MAX, a game naming no player, outmax under the pairings
 * needed) or when its scratch cannot be had.
 */
int swiss_pair(const struct tourney_player *pl, int n, const struct tourney_game *games, int ngames,
    int round, int rounds, struct tourney_game *out, int outmax);

#endif
