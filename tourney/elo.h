/*
 * elo.h: a league's ratings from its games, Bayesian Elo with error bars
 * (issue 49: the engine league), in the manner of Rémi Coulom's BayesElo.
 * Pure like the rest of tourney/: no I/O, no clock; one scratch block,
 * freed before elo_fit returns.
 *
 * The model, for a game between first (the opener: black unless an opening
 * rule says otherwise) and second, with d = r_first - r_second + adv:
 *   P(first wins)  = F(d - draw), P(second wins) = F(-d - draw),
 *   P(draw)        = 1 - both,    F(x) = 1 / (1 + 10^(-x / 400)),
 * where adv is the first player's advantage and draw the width of draws,
 * both in Elo. The ratings are those of highest posterior probability:
 * the games' likelihood times a prior of prior_draws virtual draws of each
 * player against an opponent rated 0 (so a perfect score stays finite and
 * a player who has played little stays near the middle), and, when adv is
 * fitted, a normal prior on it of mean 0 and deviation adv_prior, and on
 * the width of draws when it is fitted, one of mean draw and deviation
 * draw_prior (decisive games alone would otherwise be explained ever
 * better by ratings drifting apart as the width grows). Only
 * games played over the board count (tourney_played): forfeits and byes
 * say nothing of strength.
 *
 * The ratings come centred (their mean is 0: add the league's anchor);
 * each one's error bar is the 95% interval (1.96 standard deviations) of
 * its distance from that mean, from the inverse of the posterior's
 * curvature at its peak (the Laplace approximation).
 */
#ifndef GOMOKUD_TOURNEY_ELO_H
#define GOMOKUD_TOURNEY_ELO_H

#include "tourney/tourney.h"

/* The most players of a league. */
#define ELO_PLAYERS_MAX 128

struct elo_opts {
	double prior_draws; /* virtual draws of each player against a 0: 2 by default */
	int fit_adv;        /* 1: fit the first player's advantage (the default) */
	double adv;         /* the advantage when not fitted, and the start */
	double adv_prior;   /* the deviation of its prior when fitted: 200 */
	int fit_draw;       /* 1: fit the width of draws (the default) */
	double draw;        /* the width when not fitted, else its prior's mean: 100 */
	double draw_prior;  /* the deviation of its prior when fitted: 100 */
};

struct elo_rating {
	double elo;   /* centred: the players' mean is 0 */
	double err95; /* half the 95% interval of elo */
	int games;    /* over the board */
	int points;   /* in halves, in those games */
};

/* The defaults above. */
struct elo_opts elo_defaults(void);

/* Fits n players' ratings (n <= ELO_PLAYERS_MAX) from ngames games into
 * out[n]; the fitted (or given) advantage and width of draws into *adv and
 * *draw when not NULL. 0, or -1 for bad arguments (n out of range, a
 * player index out of range, prior_draws <= 0) or a fit that does not
 * converge (out is then untouched). */
int elo_fit(int n, const struct tourney_game *games, int ngames, const struct elo_opts *o,
    struct elo_rating *out, double *adv, double *draw);

#endif
