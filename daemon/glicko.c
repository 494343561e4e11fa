/* glicko.c: the Glicko-2 update, step by step as in Glickman's paper. */
#include "daemon/glicko.h"

#include <math.h>

#define SCALE 173.7178
#define START_RATING 1500.0
#define START_RD 350.0
#define START_VOL 0.06
#define EPSILON 0.000001

void
glicko_init(glicko_t *p)
{
	p->rating = START_RATING;
	p->deviation = START_RD;
	p->volatility = START_VOL;
}

static double
g_of(double phi)
{
	return 1.0 / sqrt(1.0 + 3.0 * phi * phi / (M_PI * M_PI));
}

static double
expected(double mu, double mu_j, double phi_j)
{
	return 1.0 / (1.0 + exp(-g_of(phi_j) * (mu - mu_j)));
}

/* The function whose root is the new log-variance (step 5). */
static double
vol_f(double x, double delta, double phi, double v, double a, double tau)
{
	double ex = exp(x), d = phi * phi + v + ex;

	return ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau);
}

/* Step 5: the new volatility by the Illinois algorithm. */
static double
new_volatility(double sigma, double phi, double v, double delta, double tau)
{
	double a = log(sigma * sigma), A = a, B;

	if (delta * delta > phi * phi + v) {
		B = log(delta * delta - phi * phi - v);
	} else {
		int k = 1;
		while (vol_f(a - k * tau, delta, phi, v, a, tau) < 0 && k < 1000)
			k++;
		B = a - k * tau;
	}
	double fA = vol_f(A, delta, phi, v, a, tau), fB = vol_f(B, delta, phi, v, a, tau);
	for (int it = 0; fabs(B - A) > EPSILON && it < 200; it++) {
		double C = A + (A - B) * fA / (fB - fA), fC = vol_f(C, delta, phi, v, a, tau);
		if (fC * fB <= 0) {
			A = B;
			fA = fB;
		} else {
			fA /= 2.0;
		}
		B = C;
		fB = fC;
	}
	return exp(A / 2.0);
}

void
glicko_update(glicko_t *p, const glicko_game_t *games, int n, double tau)
{
	double mu = (p->rating - START_RATING) / SCALE, phi = p->deviation / SCALE;

	if (n == 0) {
		double grown = sqrt(phi * phi + p->volatility * p->volatility) * SCALE;
		p->deviation = grown < START_RD ? grown : START_RD;
		return;
	}
	double inv_v = 0, sum = 0;
	for (int j = 0; j < n; j++) {
		double mu_j = (games[j].rating - START_RATING) / SCALE;
		double phi_j = games[j].deviation / SCALE, g = g_of(phi_j);
		double e = expected(mu, mu_j, phi_j);
		inv_v += g * g * e * (1.0 - e);
		sum += g * (games[j].score - e);
	}
	double v = 1.0 / inv_v, delta = v * sum;
	double sigma = new_volatility(p->volatility, phi, v, delta, tau);
	double phi_star = sqrt(phi * phi + sigma * sigma);
	double phi_new = 1.0 / sqrt(1.0 / (phi_star * phi_star) + 1.0 / v);

	p->rating = SCALE * (mu + phi_new * phi_new * sum) + START_RATING;
	p->deviation = SCALE * phi_new < START_RD ? SCALE * phi_new : START_RD;
	p->volatility = sigma;
}

void
glicko_rate_game(glicko_t *a, glicko_t *b, double score_a, double tau)
{
	glicko_game_t ga = { b->rating, b->deviation, score_a };
	glicko_game_t gb = { a->rating, a->deviation, 1.0 - score_a };

	glicko_update(a, &ga, 1, tau);
	glicko_update(b, &gb, 1, tau);
}

int
glicko_provisional(const glicko_t *p)
{
	return p->deviation > GLICKO_PROVISIONAL_RD;
}
