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
 * K = 888 is the fit of 400 freestyle games at 300,000 nodes a move (95% of
 * refits over resampled games within 741..1095); the review's budget
 * should be the fit's. WINCHANCE_BLUNDER_DROP was chosen from the falls
 * of the mover's chance in those games and in games of levels 7 and 4
 * against the engine (docs/review.md, "The blunder threshold").
 */
#ifndef GOMOKU_WINCHANCE_H
#define GOMOKU_WINCHANCE_H

/* The chance, per mille, that the side whose view score is (engine units) wins:
 * 1000 from ENGINE_WIN_MIN on, 0 from -ENGINE_WIN_MIN down, else the fitted logistic, rounded. */
int winchance_permille(int score);
/* The fitted scale K and the blunder threshold (a fall of the mover's chance, per mille) */
enum { WINCHANCE_K = 888, WINCHANCE_BLUNDER_DROP = 200 };

#endif
