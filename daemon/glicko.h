/*
 * glicko.h: Glicko-2 ratings (Glickman, "Example of the Glicko-2 system").
 * Ratings are kept on the familiar scale (1500 start, deviation 350); every
 * rated game is its own rating period.
 */
#ifndef GOMOKUD_GLICKO_H
#define GOMOKUD_GLICKO_H

typedef struct {
	double rating;     /* 1500 to start */
	double deviation;  /* RD: 350 to start, never above that */
	double volatility; /* sigma: 0.06 to start */
} glicko_t;

typedef struct {
	double rating, deviation; /* the opponent's, before the period */
	double score;             /* 1 win, 0.5 draw, 0 loss */
} glicko_game_t;

enum { GLICKO_PROVISIONAL_RD = 110 };
#define GLICKO_TAU 0.5

void glicko_init(glicko_t *p);
/* One rating period: p's games against opponents as they stood before it.
 * With no games the deviation grows by the volatility. */
void glicko_update(glicko_t *p, const glicko_game_t *games, int n, double tau);
/* Both players of one game at once, each against the other's old rating. */
void glicko_rate_game(glicko_t *a, glicko_t *b, double score_a, double tau);
int glicko_provisional(const glicko_t *p);

#endif
