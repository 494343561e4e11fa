/*
 * tune.c: bin/tune fits the static evaluation's weights to self-play results
 * (logistic regression of the game result on pattern counts, "Texel"
 * tuning).
 *
 *   tune gen GAMES NODES SEED OUT [DEEP]
 *                                   self-play at NODES a move from random
 *                                   openings; append quiet positions to OUT,
 *                                   labelled by the game's result or, with
 *                                   DEEP, half of them by a search of DEEP
 *                                   nodes
 *   tune fit [-a STM] [-r RES] [-i ITERS] [-x] [-o WEIGHTS] FILE...
 *                                   fit the weights to the samples in the
 *                                   FILEs, print them and write them to
 *                                   WEIGHTS in the form of engine/weights.h;
 *                                   -x leaves out the samples labelled 0 or 1
 *   tune label ... / tune shapes ...  the learned table, engine/shapes.h
 *                                   (tune_shapes.c)
 *
 * The evaluation is linear in its weights: each empty cell adds, for each
 * colour, the value of its four line patterns plus a bonus for its threat
 * class, and the position's value is STM * (side to move's sum) - (the
 * other's sum). So a sample is the result for the side to move, the
 * engine's evaluate() of it, and both sides' counts of line patterns and
 * classes over the empty cells. Only quiet positions are kept: no five to
 * make or to stop and no open three on the board, which the search
 * resolves and the evaluation should not judge.
 *
 * fit finds K minimising the squared error of sigmoid(K * evaluate()) with
 * the engine's current values, then the weights minimising it with the
 * same K (Adam on a fifth held out for the test figure), and scales them
 * so that the new values spread (standard deviation) like the current
 * ones, RES times finer. Weights of patterns a quiet position never has
 * are set by rule: an open four line is worth three fours, the open-four
 * class the four-three class, a five line 300 RES.
 */
#include "engine/board.h"
#include "engine/engine.h"
#include "engine/eval.h"
#include "engine/tools/tune_shapes.h"
#include "engine/tools/tune_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { NF = LP_COUNT + T_COUNT, MAX_SAMPLES = 4000000 };

typedef struct {
	float y;          /* 1 the side to move won, 0 lost, 0.5 drawn */
	int cur;          /* evaluate() with the engine's weights */
	int16_t f[2][NF]; /* side to move's counts, then the other's */
} sample_t;

/* Line-pattern counts over the empty cells; the class counts are the
 * board's own (cnt). */
static void
features(const board_t *b, int16_t f[2][NF])
{
	int stm = board_to_move(b) - 1;

	memset(f, 0, sizeof(int16_t) * 2 * NF);
	for (int c = 0; c < 2; c++) {
		int16_t *o = f[c == stm ? 0 : 1];
		for (int k = 0; k < b->ncells; k++) {
			int j = b->cells[k];
			if (!b->stone[j])
				for (int d = 0; d < 4; d++)
					o[b->pat[j][d][c]]++;
		}
		memcpy(o + LP_COUNT, b->cnt[c], sizeof b->cnt[c]);
	}
}

/* A sample's label under DEEP: the score of a search of deep nodes as the
 * side to move's probability (a proven win or loss exactly 1 or 0, the
 * rest within [0.001, 0.999], so that fit -x can tell them apart); -1
 * when the search failed. */
static double
deep_label(engine_t *e, const move_t *mv, int n, uint64_t deep)
{
	engine_limits_t l = engine_default_limits();
	engine_result_t r;

	l.max_nodes = deep;
	if (engine_search(e, RULE_FREESTYLE, 15, mv, n, &l, NULL, NULL, &r) < 0)
		return -1;
	if (r.mate)
		return r.mate > 0 ? 1.0 : 0.0;
	double y = tune_sigmoid((double)r.score / TUNE_LABEL_SCALE);
	return y < 0.001 ? 0.001 : y > 0.999 ? 0.999 : y;
}

static int
gen(int games, uint64_t nodes, uint64_t deep, uint32_t seed, const char *path)
{
	FILE *out;
	engine_t *e;
	static board_t b;
	static sample_t s[RULES_CELLS];
	static int stm_of[RULES_CELLS];
	static double y[RULES_CELLS];
	move_t mv[RULES_CELLS];
	uint32_t rs = seed * 2654435761u + 7;

	if (tune_open(path, &out, &e))
		return 1;
	for (int g = 0; g < games; g++) {
		int n = 0, ns = 0, winner = 0;
		int nopen = 3 + (int)(tune_xorshift(&rs) % 4);
		board_init(&b, RULE_FREESTYLE, 15, 0);
		/* 3-6 random stones in the centre 7x7: unbalanced openings too,
		 * the results say how they turn out */
		while (n < nopen) {
			move_t m = rules_move(
			    4 + (int)(tune_xorshift(&rs) % 7), 4 + (int)(tune_xorshift(&rs) % 7));
			if (b.stone[board_cell(m)])
				continue;
			board_play(&b, board_cell(m), 1 + (n & 1));
			mv[n++] = m;
		}
		while (n < RULES_CELLS) {
			int stm = board_to_move(&b);
			/* with deep, half the quiet positions: the searches
			 * are the cost */
			if (n >= nopen + 2 && tune_quiet(&b) &&
			    (!deep || tune_xorshift(&rs) % 2 == 0)) {
				features(&b, s[ns].f);
				s[ns].cur = evaluate(&b);
				y[ns] = deep ? deep_label(e, mv, n, deep) : 0;
				if (y[ns] >= 0)
					stm_of[ns++] = stm;
			}
			engine_limits_t l = engine_default_limits();
			engine_result_t r;
			l.max_nodes = nodes;
			if (engine_search(e, RULE_FREESTYLE, 15, mv, n, &l, NULL, NULL, &r) < 0)
				break;
			mv[n++] = r.best;
			board_play(&b, board_cell(r.best), stm);
			outcome_t o = rules_outcome_at(&b.pos, r.best, (stone_t)stm);
			if (o.kind == RESULT_WIN)
				winner = stm;
			if (o.kind != RESULT_ONGOING)
				break;
		}
		for (int i = 0; i < ns; i++) {
			if (!deep)
				y[i] = !winner ? 0.5 : winner == stm_of[i] ? 1.0 : 0.0;
			fprintf(out, "%.4f %d", y[i], s[i].cur);
			for (int c = 0; c < 2; c++)
				for (int k = 0; k < NF; k++)
					fprintf(out, " %d", s[i].f[c][k]);
			fputc('\n', out);
		}
	}
	engine_free(e);
	return fclose(out) ? 1 : 0;
}

static double
value(const double *w, double stm, const sample_t *p)
{
	double s0 = 0, s1 = 0;

	for (int k = 0; k < NF; k++) {
		s0 += w[k] * p->f[0][k];
		s1 += w[k] * p->f[1][k];
	}
	return stm * s0 - s1;
}

/* Mean squared error over every step-th sample from first (cur: the
 * engine's own values instead of w). */
static double
loss(const sample_t *p, int n, const double *w, double stm, double k, int cur, int first, int step)
{
	double l = 0;
	int cnt = 0;

	for (int i = first; i < n; i += step, cnt++) {
		double d = p[i].y - tune_sigmoid(k * (cur ? p[i].cur : value(w, stm, &p[i])));
		l += d * d;
	}
	return cnt ? l / cnt : 0;
}

/* Appends path's samples to p[0..n); undecided: leaves out those labelled
 * exactly 0 or 1 (a proven win or loss, under gen's DEEP). */
static int
read_samples(const char *path, sample_t *p, int n, int undecided)
{
	FILE *in = fopen(path, "r");
	char line[1024];

	if (!in) {
		fprintf(stderr, "tune: cannot read %s\n", path);
		return -1;
	}
	while (n < MAX_SAMPLES && fgets(line, sizeof line, in)) {
		char *s = line, *end;
		p[n].y = strtof(s, &end);
		if (end == s)
			continue;
		s = end;
		p[n].cur = (int)strtol(s, &end, 10);
		int ok = end != s;
		for (int c = 0; c < 2 && ok; c++)
			for (int k = 0; k < NF && ok; k++) {
				s = end;
				p[n].f[c][k] = (int16_t)strtol(s, &end, 10);
				ok = end != s;
			}
		if (ok && !(undecided && (p[n].y == 0 || p[n].y == 1)))
			n++;
	}
	fclose(in);
	return n;
}

typedef struct {
	double stm;      /* side-to-move factor */
	int res, iters;  /* cell scores RES times finer than the value; Adam steps */
	int undecided;   /* leave out samples labelled 0 or 1 */
	const char *out; /* where to write the weights file; NULL: nowhere */
} fit_opts_t;

/* What a fit gives: its samples, test errors and the weights. */
typedef struct {
	int n;
	double err_cur, err_fit; /* squared error on the test fifth */
	long stm, div;           /* EVAL_STM and EVAL_DIV (EVAL_OTHER is 5) */
	const long *w;           /* line weights, then class weights */
} fit_t;

static const char *const line_name[LP_COUNT] = { "LP_DEAD", "LP_B1", "LP_B2", "LP_F2", "LP_B3",
	"LP_F3", "LP_B4", "LP_F4", "LP_F5", "LP_OL" };
static const char *const class_name[T_COUNT] = { "T_NONE", "T_LOW", "T_LOW2", "T_F3", "T_F3P",
	"T_B4", "T_B4P", "T_F3X2", "T_B4F3", "T_F4", "T_FIVE" };

/* Writes the fitted weights as engine/weights.h, saying what they were fitted to. */
static int
write_weights(const fit_opts_t *o, const fit_t *r, char **files, int nfiles)
{
	FILE *out = fopen(o->out, "w");

	if (!out) {
		fprintf(stderr, "tune: cannot write %s\n", o->out);
		return 1;
	}
	fprintf(out,
	    "/*\n"
	    " * weights.h: the static evaluation's weights. Generated by\n"
	    " * `bin/tune fit -o engine/weights.h` (engine/tools/tune.c): fit again\n"
	    " * rather than edit it.\n"
	    " *\n"
	    " * Fitted to %d quiet positions (`tune gen` samples) from\n",
	    r->n);
	for (int i = 0; i < nfiles; i++)
		fprintf(out, " *   %s\n", files[i]);
	fprintf(out,
	    " * with side-to-move factor %g, %d times finer than the value, %d steps.\n"
	    " * Squared error on the held-out fifth: %.3f with the weights before,\n"
	    " * %.3f with these.\n"
	    " */\n",
	    o->stm, o->res, o->iters, r->err_cur, r->err_fit);
	fprintf(out,
	    "#ifndef GOMOKU_WEIGHTS_H\n"
	    "#define GOMOKU_WEIGHTS_H\n"
	    "\n"
	    "#include \"engine/pattern.h\"\n"
	    "\n"
	    "#include <stdint.h>\n"
	    "\n"
	    "/* A position's value: (EVAL_STM * the side to move's cell scores -\n"
	    " * EVAL_OTHER * the other's) / EVAL_DIV. */\n"
	    "enum { EVAL_STM = %ld, EVAL_OTHER = 5, EVAL_DIV = %ld };\n"
	    "\n"
	    "/* A cell's score for a colour: the weights of its four line patterns plus\n"
	    " * the weight of its threat class. */\n"
	    "static const int16_t weight_line[LP_COUNT] = {\n",
	    r->stm, r->div);
	for (int f = 0; f < LP_COUNT; f++)
		fprintf(out, "\t[%s] = %ld,\n", line_name[f], r->w[f]);
	fprintf(out, "};\nstatic const int16_t weight_class[T_COUNT] = {\n");
	for (int f = 0; f < T_COUNT; f++)
		fprintf(out, "\t[%s] = %ld,\n", class_name[f], r->w[LP_COUNT + f]);
	fprintf(out, "};\n\n#endif\n");
	if (fclose(out)) {
		fprintf(stderr, "tune: cannot write %s\n", o->out);
		return 1;
	}
	return 0;
}

static int
fit(const fit_opts_t *o, char **files, int nfiles)
{
	double stm = o->stm;
	int res = o->res, iters = o->iters;
	sample_t *p = malloc(sizeof *p * MAX_SAMPLES);
	double w[NF] = { 0 }, m[NF] = { 0 }, v[NF] = { 0 }, k = 0, best = 1e9;
	int n = 0, fitted[NF];

	if (!p)
		return 1;
	for (int i = 0; i < nfiles && n >= 0; i++)
		n = read_samples(files[i], p, n, o->undecided);
	if (n < 100) {
		if (n >= 0)
			fprintf(stderr, "tune: %d samples, too few\n", n);
		free(p);
		return 1;
	}
	for (double t = 0.00005; t < 0.05; t *= 1.02) {
		double l = loss(p, n, NULL, 0, t, 1, 0, 1);
		if (l < best) {
			best = l;
			k = t;
		}
	}
	/* what a quiet position can have: not fives, open fours, overlines */
	for (int f = 0; f < NF; f++)
		fitted[f] = f != LP_DEAD && f != LP_F4 && f != LP_F5 && f != LP_OL &&
		    f != LP_COUNT + T_NONE && f != LP_COUNT + T_F4 && f != LP_COUNT + T_FIVE;
	double err_cur = loss(p, n, NULL, 0, k, 1, 0, 5);
	printf("samples %d, K %.5f, error with the current values: all %.6f, test %.6f\n", n, k,
	    best, err_cur);
	for (int it = 1; it <= iters; it++) {
		double g[NF] = { 0 };
		int cnt = 0;
		for (int i = 0; i < n; i++) {
			if (i % 5 == 0)
				continue; /* the test fifth */
			double pr = tune_sigmoid(k * value(w, stm, &p[i]));
			double d = -2 * (p[i].y - pr) * pr * (1 - pr) * k;
			for (int f = 0; f < NF; f++)
				g[f] += d * (stm * p[i].f[0][f] - p[i].f[1][f]);
			cnt++;
		}
		for (int f = 0; f < NF; f++) {
			if (!fitted[f])
				continue;
			g[f] /= cnt;
			m[f] = 0.9 * m[f] + 0.1 * g[f];
			v[f] = 0.999 * v[f] + 0.001 * g[f] * g[f];
			double mh = m[f] / (1 - pow(0.9, it)), vh = v[f] / (1 - pow(0.999, it));
			/* steps of 0.001 in K * w: the sigmoid's scale, not the weights' */
			w[f] -= 0.001 / k * mh / (sqrt(vh) + 1e-12);
		}
	}
	double err_fit = loss(p, n, w, stm, k, 0, 0, 5);
	printf("error with the fitted values: train %.6f, test %.6f\n",
	    loss(p, n, w, stm, k, 0, 1, 1), err_fit);

	double so = 0, so2 = 0, sn = 0, sn2 = 0;
	for (int i = 0; i < n; i++) {
		double vn = value(w, stm, &p[i]);
		so += p[i].cur;
		so2 += (double)p[i].cur * p[i].cur;
		sn += vn;
		sn2 += vn * vn;
	}
	double sd_old = sqrt(so2 / n - (so / n) * (so / n));
	double sd_new = sqrt(sn2 / n - (sn / n) * (sn / n));
	double scale = sd_new > 0 ? sd_old / sd_new * res : 1;
	long W[NF];
	for (int f = 0; f < NF; f++)
		W[f] = fitted[f] ? lround(w[f] * scale) : 0;
	W[LP_F4] = 3 * W[LP_B4];
	W[LP_F5] = 300L * res;
	W[LP_COUNT + T_F4] = W[LP_COUNT + T_B4F3];
	printf("factors: EVAL_STM %ld, EVAL_OTHER 5, EVAL_DIV %d\n", lround(stm * 5), 5 * res);
	printf("weight_line:");
	for (int f = 0; f < LP_COUNT; f++)
		printf(" %ld", W[f]);
	printf("\nweight_class:");
	for (int f = 0; f < T_COUNT; f++)
		printf(" %ld", W[LP_COUNT + f]);
	printf("\n");
	free(p);
	if (!o->out)
		return 0;
	fit_t r = { n, err_cur, err_fit, lround(stm * 5), 5 * res, W };
	return write_weights(o, &r, files, nfiles);
}

static int
usage(void)
{
	fprintf(stderr,
	    "usage: tune gen GAMES NODES SEED OUT [DEEP]\n"
	    "       tune fit [-a stm_factor] [-r resolution] [-i iterations] [-x] [-o weights.h] "
	    "FILE...\n"
	    "       tune label RULE GAMES NODES DEEP SEED OUT\n"
	    "       tune shapes [-i iterations] [-l lambda] [-p plambda] [-m min] [-o shapes.h] "
	    "FILE...\n");
	return 2;
}

int
main(int argc, char **argv)
{
	if (argc < 2)
		return usage();
	if (!strcmp(argv[1], "gen")) {
		if (argc != 6 && argc != 7)
			return usage();
		return gen(atoi(argv[2]), strtoull(argv[3], NULL, 10),
		    argc == 7 ? strtoull(argv[6], NULL, 10) : 0, (uint32_t)atoi(argv[4]), argv[5]);
	}
	if (!strcmp(argv[1], "label") || !strcmp(argv[1], "shapes")) {
		int rc = argv[1][0] == 'l' ? tune_label(argc, argv) : tune_shapes(argc, argv);
		return rc == 2 ? usage() : rc;
	}
	if (strcmp(argv[1], "fit"))
		return usage();
	fit_opts_t o = { 2.6, 4, 6000, 0, NULL };
	int c;
	optind = 2;
	while ((c = getopt(argc, argv, "a:r:i:xo:")) != -1) {
		switch (c) {
		case 'a':
			o.stm = atof(optarg);
			break;
		case 'r':
			o.res = atoi(optarg);
			break;
		case 'i':
			o.iters = atoi(optarg);
			break;
		case 'x':
			o.undecided = 1;
			break;
		case 'o':
			o.out = optarg;
			break;
		default:
			return usage();
		}
	}
	if (optind >= argc || o.stm <= 0 || o.res < 1 || o.iters < 1)
		return usage();
	return fit(&o, argv + optind, argc - optind);
}
