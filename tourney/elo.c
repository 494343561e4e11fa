/* elo.c: Bayesian Elo of a league (see elo.h). */
#include "tourney/elo.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { ITER_MAX = 200 };

/* d ln F(x) / dx = K (1 - F(x)) */
#define K (2.302585092994046 / 400.0)

struct fit {
	int n, p;         /* players; parameters: n ratings, then adv, then draw */
	int iadv, idraw;  /* their indexes, -1 when fixed */
	double adv, draw; /* their values when fixed */
	const struct tourney_game *g;
	int ng;
	const struct elo_opts *o;
};

static double
F(double x)
{
	return 1.0 / (1.0 + pow(10.0, -x / 400.0));
}

/* Adds one game's (or prior's) log-likelihood and gradient in d and draw. */
static double
outcome(int kind, double d, double dw, double *gd, double *gw)
{
	double a = F(d - dw), b = F(-d - dw);
	switch (kind) {
	case 1: /* first wins */
		*gd = K * (1 - a);
		*gw = -K * (1 - a);
		return log(a);
	case 2: /* second wins */
		*gd = -K * (1 - b);
		*gw = -K * (1 - b);
		return log(b);
	default: { /* a draw */
		double pd = 1 - a - b, da = K * a * (1 - a), db = K * b * (1 - b);
		if (pd <= 0)
			return -INFINITY;
		*gd = -(da - db) / pd;
		*gw = (da + db) / pd;
		return log(pd);
	}
	}
}

/* The log posterior at t and its gradient into g (g may be NULL). */
static double
posterior(const struct fit *f, const double *t, double *g)
{
	double adv = f->iadv >= 0 ? t[f->iadv] : f->adv, dw = f->idraw >= 0 ? t[f->idraw] : f->draw;
	double L = 0, gd, gw;
	if (dw <= 0)
		return -INFINITY;
	if (g)
		memset(g, 0, sizeof *g * (size_t)f->p);
	for (int i = 0; i < f->ng; i++) {
		const struct tourney_game *x = &f->g[i];
		if (!tourney_played(x))
			continue;
		int kind = x->result == TR_FIRST_WINS ? 1 : x->result == TR_SECOND_WINS ? 2 : 0;
		L += outcome(kind, t[x->first] - t[x->second] + adv, dw, &gd, &gw);
		if (g) {
			g[x->first] += gd;
			g[x->second] -= gd;
			if (f->iadv >= 0)
				g[f->iadv] += gd;
			if (f->idraw >= 0)
				g[f->idraw] += gw;
		}
	}
	for (int i = 0; i < f->n; i++) { /* virtual draws against a 0, no advantage */
		L += f->o->prior_draws * outcome(0, t[i], dw, &gd, &gw);
		if (g) {
			g[i] += f->o->prior_draws * gd;
			if (f->idraw >= 0)
				g[f->idraw] += f->o->prior_draws * gw;
		}
	}
	if (f->iadv >= 0) {
		double s2 = f->o->adv_prior * f->o->adv_prior;
		L -= adv * adv / (2 * s2);
		if (g)
			g[f->iadv] -= adv / s2;
	}
	if (f->idraw >= 0) {
		/* without it, decisive games alone would be fitted ever better by
		 * ratings drifting apart with the draws' width */
		double s2 = f->o->draw_prior * f->o->draw_prior, x = dw - f->o->draw;
		L -= x * x / (2 * s2);
		if (g)
			g[f->idraw] -= x / s2;
	}
	return L;
}

/* The Hessian by central differences of the gradient, symmetrised. */
static void
hessian(const struct fit *f, double *t, double *H, double *g1, double *g2)
{
	const double h = 1e-3;
	int p = f->p;
	for (int j = 0; j < p; j++) {
		double keep = t[j];
		t[j] = keep + h;
		posterior(f, t, g1);
		t[j] = keep - h;
		posterior(f, t, g2);
		t[j] = keep;
		for (int i = 0; i < p; i++)
			H[i * p + j] = (g1[i] - g2[i]) / (2 * h);
	}
	for (int i = 0; i < p; i++)
		for (int j = 0; j < i; j++)
			H[i * p + j] = H[j * p + i] = (H[i * p + j] + H[j * p + i]) / 2;
}

/* Cholesky of the p x p matrix A (lower, into Lc); -1 unless positive
 * definite. */
static int
cholesky(const double *A, double *Lc, int p)
{
	for (int i = 0; i < p; i++)
		for (int j = 0; j <= i; j++) {
			double s = A[i * p + j];
			for (int k = 0; k < j; k++)
				s -= Lc[i * p + k] * Lc[j * p + k];
			if (i == j) {
				if (!(s > 0))
					return -1;
				Lc[i * p + i] = sqrt(s);
			} else
				Lc[i * p + j] = s / Lc[j * p + j];
		}
	return 0;
}

/* Solves (Lc Lc') x = b in place. */
static void
solve(const double *Lc, double *x, int p)
{
	for (int i = 0; i < p; i++) {
		for (int k = 0; k < i; k++)
			x[i] -= Lc[i * p + k] * x[k];
		x[i] /= Lc[i * p + i];
	}
	for (int i = p - 1; i >= 0; i--) {
		for (int k = i + 1; k < p; k++)
			x[i] -= Lc[k * p + i] * x[k];
		x[i] /= Lc[i * p + i];
	}
}

struct elo_opts
elo_defaults(void)
{
	struct elo_opts o = { .prior_draws = 2,
		.fit_adv = 1,
		.adv = 0,
		.adv_prior = 200,
		.fit_draw = 1,
		.draw = 100,
		.draw_prior = 100 };
	return o;
}

int
elo_fit(int n, const struct tourney_game *games, int ngames, const struct elo_opts *o,
    struct elo_rating *out, double *adv_out, double *draw_out)
{
	struct elo_opts def = elo_defaults();
	if (!o)
		o = &def;
	if (n < 1 || n > ELO_PLAYERS_MAX || ngames < 0 || (ngames && !games) || !out ||
	    !(o->prior_draws > 0) || (o->fit_adv && !(o->adv_prior > 0)) || !(o->draw > 0) ||
	    (o->fit_draw && !(o->draw_prior > 0)))
		return -1;
	for (int i = 0; i < ngames; i++)
		if (tourney_played(&games[i]) &&
		    (games[i].first < 0 || games[i].first >= n || games[i].second < 0 ||
			games[i].second >= n || games[i].first == games[i].second))
			return -1;
	struct fit f = { .n = n, .iadv = -1, .idraw = -1, .adv = o->adv, .draw = o->draw };
	f.g = games;
	f.ng = ngames;
	f.o = o;
	f.p = n;
	if (o->fit_adv)
		f.iadv = f.p++;
	if (o->fit_draw)
		f.idraw = f.p++;
	size_t p = (size_t)f.p;
	double *mem = calloc(3 * p * p + 6 * p, sizeof *mem);
	if (!mem)
		return -1;
	double *H = mem, *Lc = H + p * p, *C = Lc + p * p, *t = C + p * p, *g = t + p, *s = g + p,
	       *g1 = s + p, *g2 = g1 + p, *nt = g2 + p;
	if (f.iadv >= 0)
		t[f.iadv] = o->adv;
	if (f.idraw >= 0)
		t[f.idraw] = o->draw;

	/* Newton's method on the log posterior, each step halved until it
	 * climbs; a gradient step where the curvature is not yet concave */
	double L = posterior(&f, t, g);
	int done = 0;
	for (int it = 0; it < ITER_MAX && !done && isfinite(L); it++) {
		hessian(&f, t, H, g1, g2);
		for (size_t i = 0; i < p * p; i++)
			H[i] = -H[i];
		memcpy(s, g, sizeof *s * p);
		if (cholesky(H, Lc, f.p) == 0)
			solve(Lc, s, f.p);
		else
			for (size_t i = 0; i < p; i++)
				s[i] *= 100;
		double step = 1, nl = -INFINITY;
		for (int k = 0; k < 40; k++, step /= 2) {
			for (size_t i = 0; i < p; i++)
				nt[i] = t[i] + step * s[i];
			nl = posterior(&f, nt, NULL);
			if (isfinite(nl) && nl >= L - 1e-12)
				break;
		}
		if (!(isfinite(nl) && nl >= L - 1e-12))
			break;
		double moved = 0;
		for (size_t i = 0; i < p; i++)
			moved = fmax(moved, fabs(step * s[i]));
		memcpy(t, nt, sizeof *t * p);
		L = posterior(&f, t, g);
		done = moved < 1e-6;
	}
	/* the curvature at the peak: its inverse is the ratings' covariance */
	hessian(&f, t, H, g1, g2);
	for (size_t i = 0; i < p * p; i++)
		H[i] = -H[i];
	if (!done || cholesky(H, Lc, f.p) != 0) {
		free(mem);
		return -1;
	}
	for (size_t j = 0; j < p; j++) {
		double *col = &C[j * p]; /* column j of the inverse (symmetric) */
		memset(col, 0, sizeof *col * p);
		col[j] = 1;
		solve(Lc, col, f.p);
	}
	double mean = 0;
	for (int i = 0; i < n; i++)
		mean += t[i] / n;
	for (int i = 0; i < n; i++) {
		/* the variance of r_i - mean: v'Cv with v = e_i - 1/n */
		double var = 0;
		for (int a = 0; a < n; a++)
			for (int b = 0; b < n; b++) {
				double va = (a == i) - 1.0 / n, vb = (b == i) - 1.0 / n;
				var += va * vb * C[a * p + b];
			}
		out[i].elo = t[i] - mean;
		out[i].err95 = 1.96 * sqrt(var > 0 ? var : 0);
		out[i].games = out[i].points = 0;
	}
	for (int i = 0; i < ngames; i++)
		if (tourney_played(&games[i])) {
			const struct tourney_game *x = &games[i];
			out[x->first].games++;
			out[x->second].games++;
			out[x->first].points += tourney_points(x, x->first);
			out[x->second].points += tourney_points(x, x->second);
		}
	if (adv_out)
		*adv_out = f.iadv >= 0 ? t[f.iadv] : o->adv;
	if (draw_out)
		*draw_out = f.idraw >= 0 ? t[f.idraw] : o->draw;
	free(mem);
	return 0;
}
