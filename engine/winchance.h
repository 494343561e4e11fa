/*
 * winchance.h: the engine's score (engine.h, engine units) as a chance of
 * winning, the one scale of the post-game review's graph (issue 47), and
 * the fall of that chance across one move that makes a blunder.
 *
 * The model is the logistic P = 1 / (1 + exp(-s / K)), draws counted as
 * half a win, with K fitted by maximum likelihood to the results of
 * self-play games at a fixed search budget (bin/winfit; docs/review.md,
 * "The win chance", gives the command, the data and the calibration).
 * Scores from +-ENGINE_WIN_MIN on are forced results: certain, not fitted.
 * K is fitted per rule, each on self-play at 300,000 nodes a move (95% of
 * refits over resampled games in brackets): freestyle 888 of 400 games
 * (741..1095), standard 620 of 240 (494..772), renju 814 of 240
 * (596..1120; free openings, as the others); the review's budget should be
 * the fit's. WINCHANCE_BLUNDER_DROP was chosen from the falls
 * of the mover's chance in those games and in games of levels 7 and 4
 * against the engine, and kept when lichess's 300 was measured beside it
 * (docs/review.md, "The blunder threshold"); review_mark judges it with
 * review_judge's guards (no blunder from below 10% or into 90% and more).
 */
#ifndef GOMOKU_WINCHANCE_H
#define GOMOKU_WINCHANCE_H

#include "rules/rules.h"

/* The chance, per mille, that the side whose view score is (engine units) wins
 * under freestyle: 1000 from ENGINE_WIN_MIN on, 0 from -ENGINE_WIN_MIN down,
 * else the fitted logistic, rounded. */
int winchance_permille(int score);
/* The same on rule's fitted scale (winchance_k). */
int winchance_rule(rule_t rule, int score);
/* rule's chance as a function of the score alone, as review_mark and
 * review_chance take it. */
typedef int (*winchance_fn)(int score);
winchance_fn winchance_of(rule_t rule);
/* rule's fitted K. */
int winchance_k(rule_t rule);
/* The fitted scales K and the blunder threshold (a fall of the mover's
 * chance, per mille, chosen on freestyle's scale and kept for the others) */
enum {
	WINCHANCE_K = 888, /* freestyle */
	WINCHANCE_K_STANDARD = 620,
	WINCHANCE_K_RENJU = 814,
	WINCHANCE_BLUNDER_DROP = 200,
};

#endif
