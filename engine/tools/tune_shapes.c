/*
 * tune_shapes.c: bin/tune's learned table (engine/shapes.h): a value and a
 * policy score for each combination of four line patterns (a shape: the
 * four patterns as a sorted multiset), per rule, the value per side to move.
 *
 *   tune label RULE GAMES NODES DEEP SEED OUT
 *       self-play of RULE (0 freestyle, 1 standard, 2 renju) at NODES a
 *       move from random openings; half of the quiet positions are
 *       searched again at DEEP nodes, and that search's score and move are
 *       appended to OUT with the position's moves
 *   tune shapes [-i ITERS] [-l LAMBDA] [-p PLAMBDA] [-m MIN] [-o SHAPES] FILE...
 *       fits the table to the labelled positions and writes it to SHAPES;
 *       a rule with fewer than MIN (default 50) positions is not fitted
 *
 * The value: a position is worth (the side to move's sum over the empty
 * cells of val[0] of each cell's shape - the other's sum of val[1]) /
 * SHAPE_RES + 20, fitted so that sigmoid(value / TUNE_LABEL_SCALE) comes near
 * sigmoid(deep score / TUNE_LABEL_SCALE): the deeper search's opinion in the
 * engine's own units, so the search's margins keep their meaning. Proven
 * wins and losses are left out of the value's fit: they are the solvers'
 * and the search's threat handling's to find, and in freestyle they are
 * 43% of the labels, which pulled every attacking shape's value up. The
 * policy: a candidate cell scores pol[0] of the mover's shape there plus
 * pol[1] of the opponent's, fitted as a softmax ranking of the candidates
 * (cells within two of a stone on a line) at which the deep search's move
 * should come first. Both start from what weights.h gives (the engine's
 * evaluation and ordering with ENGINE_EVAL_LINES) and are pulled back
 * towards it (L2, LAMBDA for the value, PLAMBDA for the policy), so shapes the samples seldom have keep it; a
 * rule without samples keeps it whole.
 */
#include "engine/tools/tune_shapes.h"

#include "engine/board.h"
#include "engine/engine.h"
#include "engine/eval.h"
#include "engine/movegen.h"
#include "engine/tools/tune_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum {
	LABEL_CLAMP = 3000, /* mates and near-wins as a sure result */
	MAX_POS = 200000,
	NV = 2 * SHAPE_COUNT, /* value features: side to move's, the other's */
};

static const char *const rule_label[3] = { "freestyle", "standard", "renju" };
static const char *const lp_short[LP_COUNT] = { "DEAD", "B1", "B2", "F2", "B3", "F3", "B4", "F4",
	"F5", "OL" };

static int
label(int rule, int games, uint64_t nodes, uint64_t deep, uint32_t seed, const char *path)
{
	FILE *out;
	engine_t *e;
	static board_t b;
	move_t mv[RULES_CELLS];
	uint32_t rs = seed * 2654435761u + 11;
	int rc = 0;

	if (tune_open(path, &out, &e))
		return 1;
	for (int g = 0; g < games && !rc; g++) {
		int n = 0, nopen = 3 + (int)(tune_xorshift(&rs) % 4);
		board_init(&b, (rule_t)rule, 15, 0);
		while (n < nopen) {
			move_t m = rules_move(
			    4 + (int)(tune_xorshift(&rs) % 7), 4 + (int)(tune_xorshift(&rs) % 7));
			int c = 1 + (n & 1);
			if (b.stone[board_cell(m)] || board_forbidden(&b, board_cell(m), c))
				continue;
			board_play(&b, board_cell(m), c);
			mv[n++] = m;
		}
		while (n < RULES_CELLS) {
			int stm = board_to_move(&b);
			engine_limits_t l = engine_default_limits();
			engine_result_t r;
			if (n >= nopen + 2 && tune_quiet(&b) && tune_xorshift(&rs) % 2 == 0) {
				l.max_nodes = deep;
				if (engine_search(e, (rule_t)rule, 15, mv, n, &l, NULL, NULL, &r) <
				    0)
					break;
				fprintf(out, "%d %d %d %d %d", rule, r.score, rules_x(r.best),
				    rules_y(r.best), n);
				for (int i = 0; i < n; i++)
					fprintf(out, " %d %d", rules_x(mv[i]), rules_y(mv[i]));
				fputc('\n', out);
			}
			l.max_nodes = nodes;
			if (engine_search(e, (rule_t)rule, 15, mv, n, &l, NULL, NULL, &r) < 0)
				break;
			mv[n++] = r.best;
			board_play(&b, board_cell(r.best), stm);
			if (rules_outcome_at(&b.pos, r.best, (stone_t)stm).kind != RESULT_ONGOING)
				break;
		}
		rc = ferror(out);
	}
	engine_free(e);
	return fclose(out) || rc ? 1 : 0;
}

/* One labelled position as the fit sees it. */
typedef struct {
	int rule;
	float p;        /* the deep search's score as a win probability */
	int nf, nc;     /* value features; policy candidates */
	uint16_t *f;    /* nf (feature, count) pairs */
	uint16_t *cand; /* nc (mover's shape, opponent's shape) pairs, best first */
	int mate;       /* the deep search proved a win or a loss */
} pos_t;

typedef struct {
	double w[3][SHAPE_COUNT][4]; /* val[0], val[1], pol[0], pol[1] */
	double w0[3][SHAPE_COUNT][4];
} table_t;

static int
shape_at(const board_t *b, int j, int c)
{
	return pattern_shape(b->pat[j][0][c], b->pat[j][1][c], b->pat[j][2][c], b->pat[j][3][c]);
}

/* Builds the position of a label line; 0, or -1 for a bad line. */
static int
parse_line(char *line, board_t *b, pos_t *p)
{
	char *s = line, *end;
	long v[5];
	static uint16_t cnt[NV];
	static uint16_t buf[2 * NV + 2 * RULES_CELLS];
	int nf = 0, nc = 0, best = -1;

	for (int i = 0; i < 5; i++, s = end) {
		v[i] = strtol(s, &end, 10);
		if (end == s)
			return -1;
	}
	if (v[0] < 0 || v[0] > 2 || v[4] < 1 || v[4] >= RULES_CELLS ||
	    board_init(b, (rule_t)v[0], 15, 0) < 0)
		return -1;
	for (int i = 0; i < v[4]; i++) {
		long x = strtol(s, &end, 10);
		s = end;
		long y = strtol(s, &end, 10);
		if (end == s || x < 0 || x >= 15 || y < 0 || y >= 15)
			return -1;
		s = end;
		int c = board_cell(rules_move((int)x, (int)y));
		if (b->stone[c])
			return -1;
		board_play(b, c, 1 + (i & 1));
	}
	if (v[2] < 0 || v[2] >= 15 || v[3] < 0 || v[3] >= 15)
		return -1;
	best = board_cell(rules_move((int)v[2], (int)v[3]));
	if (b->stone[best])
		return -1;
	int stm = board_to_move(b) - 1;
	long sc = v[1] > LABEL_CLAMP ? LABEL_CLAMP : v[1] < -LABEL_CLAMP ? -LABEL_CLAMP : v[1];
	p->rule = (int)v[0];
	p->p = (float)tune_sigmoid((double)sc / TUNE_LABEL_SCALE);
	p->mate = v[1] >= ENGINE_WIN_MIN || v[1] <= -ENGINE_WIN_MIN;
	memset(cnt, 0, sizeof cnt);
	for (int k = 0; k < b->ncells; k++) {
		int j = b->cells[k];
		if (b->stone[j])
			continue;
		for (int c = 0; c < 2; c++)
			if (c != 0 || !board_forbidden(b, j, STONE_BLACK))
				cnt[(c == stm ? 0 : SHAPE_COUNT) + shape_at(b, j, c)]++;
	}
	for (int f = 0; f < NV; f++)
		if (cnt[f]) {
			buf[2 * nf] = (uint16_t)f;
			buf[2 * nf + 1] = cnt[f];
			nf++;
		}
	/* the best move first, then the other candidates */
	uint16_t *cb = buf + 2 * nf;
	cb[0] = (uint16_t)shape_at(b, best, stm);
	cb[1] = (uint16_t)shape_at(b, best, 1 - stm);
	nc = 1;
	for (int k = 0; k < b->ncells; k++) {
		int j = b->cells[k];
		if (b->stone[j] || !b->nb[j] || j == best)
			continue;
		cb[2 * nc] = (uint16_t)shape_at(b, j, stm);
		cb[2 * nc + 1] = (uint16_t)shape_at(b, j, 1 - stm);
		nc++;
	}
	p->nf = nf;
	p->nc = nc;
	p->f = malloc(sizeof(uint16_t) * 2 * (size_t)(nf + nc));
	if (!p->f)
		return -1;
	memcpy(p->f, buf, sizeof(uint16_t) * 2 * (size_t)(nf + nc));
	p->cand = p->f + 2 * nf;
	return 0;
}

static int
read_file(const char *path, pos_t *ps, int n)
{
	FILE *in = fopen(path, "r");
	static char line[8192];
	static board_t b;

	if (!in) {
		fprintf(stderr, "tune: cannot read %s\n", path);
		return -1;
	}
	while (n < MAX_POS && fgets(line, sizeof line, in))
		if (parse_line(line, &b, &ps[n]) == 0)
			n++;
	fclose(in);
	return n;
}

/* The value of position p with the table's val columns. */
static double
pos_value(const table_t *t, const pos_t *p)
{
	double v = 0;

	for (int i = 0; i < p->nf; i++) {
		int f = p->f[2 * i], side = f >= SHAPE_COUNT;
		double w = t->w[p->rule][f - side * SHAPE_COUNT][side];
		v += (side ? -w : w) * p->f[2 * i + 1];
	}
	return v / SHAPE_RES + 20;
}

/* The policy logits of p's candidates at temperature temp into z; returns
 * the log-sum-exp. */
static double
pos_logits(const table_t *t, const pos_t *p, double temp, double *z)
{
	double mx = -1e300, s = 0;

	for (int i = 0; i < p->nc; i++) {
		z[i] = (t->w[p->rule][p->cand[2 * i]][2] + t->w[p->rule][p->cand[2 * i + 1]][3]) /
		    temp;
		if (z[i] > mx)
			mx = z[i];
	}
	for (int i = 0; i < p->nc; i++)
		s += exp(z[i] - mx);
	return mx + log(s);
}

/* Squared value error (positions not proven won or lost), policy log loss
 * and the share of positions whose deep move the policy ranks first, over
 * rule r's positions of one part (test: every fifth; else the rest). */
static void
errors(const table_t *t, const pos_t *ps, int n, int r, int test, double temp, double out[3])
{
	static double z[RULES_CELLS];
	double ev = 0, lp = 0, top = 0;
	int cnt = 0, nv = 0;

	for (int i = 0; i < n; i++) {
		if (ps[i].rule != r || (i % 5 == 0) != test)
			continue;
		if (!ps[i].mate) {
			double d = ps[i].p - tune_sigmoid(pos_value(t, &ps[i]) / TUNE_LABEL_SCALE);
			ev += d * d;
			nv++;
		}
		lp += pos_logits(t, &ps[i], temp, z) - z[0];
		int first = 1;
		for (int k = 1; k < ps[i].nc && first; k++)
			first = z[k] < z[0];
		top += first;
		cnt++;
	}
	out[0] = nv ? ev / nv : 0;
	out[1] = cnt ? lp / cnt : 0;
	out[2] = cnt ? top / cnt : 0;
}

/* The table ENGINE_EVAL_LINES plays with: weights.h's cell scores. */
static void
start_table(table_t *t)
{
	int idx = 0;

	pattern_init();
	for (int p0 = 0; p0 < LP_COUNT; p0++)
		for (int p1 = 0; p1 <= p0; p1++)
			for (int p2 = 0; p2 <= p1; p2++)
				for (int p3 = 0; p3 <= p2; p3++, idx++) {
					int s = pattern_combo(p0, p1, p2, p3)->score;
					for (int r = 0; r < 3; r++) {
						double *w = t->w0[r][idx];
						w[0] = lround(
						    (double)s * EVAL_STM * SHAPE_RES / EVAL_DIV);
						w[1] = lround(
						    (double)s * EVAL_OTHER * SHAPE_RES / EVAL_DIV);
						w[2] = 5.0 * s;
						w[3] = 4.0 * s;
					}
				}
	memcpy(t->w, t->w0, sizeof t->w);
}

/* Adam on one rule's value or policy columns (cols 0-1 or 2-3). */
static void
fit_rule(
    table_t *t, const pos_t *ps, int n, int r, int policy, double temp, int iters, double lambda)
{
	static double g[SHAPE_COUNT][2], m[SHAPE_COUNT][2], v[SHAPE_COUNT][2];
	static double z[RULES_CELLS];
	int c0 = policy ? 2 : 0;
	/* steps: a fraction of a point of value, a hundredth of the
	 * temperature of policy */
	double lr = policy ? temp * 0.01 : 1.0;

	memset(m, 0, sizeof m);
	memset(v, 0, sizeof v);
	for (int it = 1; it <= iters; it++) {
		int cnt = 0;
		memset(g, 0, sizeof g);
		for (int i = 0; i < n; i++) {
			const pos_t *p = &ps[i];
			if (p->rule != r || i % 5 == 0)
				continue;
			cnt++;
			if (!policy) {
				if (p->mate)
					continue;
				double pr = tune_sigmoid(pos_value(t, p) / TUNE_LABEL_SCALE);
				double d = -2 * (p->p - pr) * pr * (1 - pr) / TUNE_LABEL_SCALE /
				    SHAPE_RES;
				for (int k = 0; k < p->nf; k++) {
					int f = p->f[2 * k], side = f >= SHAPE_COUNT;
					g[f - side * SHAPE_COUNT][side] += (side ? -d : d) *
					    p->f[2 * k + 1];
				}
				continue;
			}
			double lse = pos_logits(t, p, temp, z);
			for (int k = 0; k < p->nc; k++) {
				double d = (exp(z[k] - lse) - (k == 0)) / temp;
				g[p->cand[2 * k]][0] += d;
				g[p->cand[2 * k + 1]][1] += d;
			}
		}
		if (!cnt)
			return;
		for (int s = 0; s < SHAPE_COUNT; s++)
			for (int k = 0; k < 2; k++) {
				double *w = &t->w[r][s][c0 + k], w0 = t->w0[r][s][c0 + k];
				double gr = g[s][k] / cnt + 2 * lambda * (*w - w0);
				m[s][k] = 0.9 * m[s][k] + 0.1 * gr;
				v[s][k] = 0.999 * v[s][k] + 0.001 * gr * gr;
				double mh = m[s][k] / (1 - pow(0.9, it));
				double vh = v[s][k] / (1 - pow(0.999, it));
				if (vh > 0)
					*w -= lr * mh / (sqrt(vh) + 1e-15);
			}
	}
}

/* The temperature that fits the starting policy best on rule r. */
static double
fit_temp(const table_t *t, const pos_t *ps, int n, int r)
{
	double best = 1e300, temp = 100, e[3];

	for (double x = 20; x < 20000; x *= 1.1) {
		errors(t, ps, n, r, 0, x, e);
		if (e[1] < best) {
			best = e[1];
			temp = x;
		}
	}
	return temp;
}

static long
clampl(double x, long lo, long hi)
{
	long v = lround(x);
	return v < lo ? lo : v > hi ? hi : v;
}

static int
write_table(const char *path, const table_t *t, const int *count, char **files, int nfiles,
    int iters, const double lambda[2])
{
	FILE *out = fopen(path, "w");
	int idx = 0;

	if (!out) {
		fprintf(stderr, "tune: cannot write %s\n", path);
		return 1;
	}
	fprintf(out,
	    "/*\n"
	    " * shapes.h: the learned value and policy of every combination of four\n"
	    " * line patterns, per rule. Generated by `bin/tune shapes -o\n"
	    " * engine/shapes.h` (engine/tools/tune_shapes.c): fit again rather than\n"
	    " * edit it.\n"
	    " *\n"
	    " * Fitted (%d steps, lambda %g for the value, %g for the policy) to\n"
	    " * positions labelled by deeper searches (freestyle %d, standard %d,\n"
	    " * renju %d) from\n",
	    iters, lambda[0], lambda[1], count[0], count[1], count[2]);
	for (int i = 0; i < nfiles; i++)
		fprintf(out, " *   %s\n", files[i]);
	fprintf(out,
	    " */\n"
	    "#ifndef GOMOKU_SHAPES_H\n"
	    "#define GOMOKU_SHAPES_H\n"
	    "\n"
	    "#include \"engine/pattern.h\"\n"
	    "\n"
	    "#include <stdint.h>\n"
	    "\n"
	    "enum { SHAPE_RES = %d };\n"
	    "\n"
	    "/* [rule][shape]: the value for the cell's colour when it is to move and\n"
	    " * when not (SHAPE_RES times finer than the evaluation), the ordering\n"
	    " * score of playing the cell and of taking it from the other colour. The\n"
	    " * shapes in pattern_shape's order, each one's patterns strongest first. */\n"
	    "static const int32_t shape_table[3][SHAPE_COUNT][4] = {\n",
	    SHAPE_RES);
	for (int r = 0; r < 3; r++) {
		fprintf(out, "\t/* %s */\n\t{\n", rule_label[r]);
		idx = 0;
		for (int p0 = 0; p0 < LP_COUNT; p0++)
			for (int p1 = 0; p1 <= p0; p1++)
				for (int p2 = 0; p2 <= p1; p2++)
					for (int p3 = 0; p3 <= p2; p3++, idx++) {
						const double *w = t->w[r][idx];
						fprintf(out,
						    "\t    /* %s %s %s %s */ { %ld, %ld, %ld, %ld "
						    "},\n",
						    lp_short[p0], lp_short[p1], lp_short[p2],
						    lp_short[p3], clampl(w[0], -32000, 32000),
						    clampl(w[1], -32000, 32000),
						    clampl(w[2], -60000, 60000),
						    clampl(w[3], -60000, 60000));
					}
		fprintf(out, "\t},\n");
	}
	fprintf(out, "};\n\n#endif\n");
	if (fclose(out)) {
		fprintf(stderr, "tune: cannot write %s\n", path);
		return 1;
	}
	return 0;
}

static int
fit_shapes(int iters, const double lambda[2], int min, const char *outp, char **files, int nfiles)
{
	pos_t *ps = malloc(sizeof *ps * MAX_POS);
	static table_t t;
	int n = 0, count[3] = { 0, 0, 0 }, rc = 0;

	if (!ps)
		return 1;
	for (int i = 0; i < nfiles && n >= 0; i++)
		n = read_file(files[i], ps, n);
	if (n < 0) {
		free(ps);
		return 1;
	}
	for (int i = 0; i < n; i++)
		count[ps[i].rule]++;
	start_table(&t);
	for (int r = 0; r < 3 && !rc; r++) {
		double b0[3], b1[3], a0[3], a1[3];
		if (count[r] < min || count[r] < 2) {
			printf(
			    "%s: %d positions, the starting table kept\n", rule_label[r], count[r]);
			continue;
		}
		double temp = fit_temp(&t, ps, n, r);
		errors(&t, ps, n, r, 0, temp, b0);
		errors(&t, ps, n, r, 1, temp, b1);
		fit_rule(&t, ps, n, r, 0, temp, iters, lambda[0]);
		fit_rule(&t, ps, n, r, 1, temp, iters, lambda[1]);
		errors(&t, ps, n, r, 0, temp, a0);
		errors(&t, ps, n, r, 1, temp, a1);
		printf(
		    "%s: %d positions, policy temperature %.0f\n", rule_label[r], count[r], temp);
		printf("%s value error: start train %.6f test %.6f, fitted train %.6f test "
		       "%.6f\n",
		    rule_label[r], b0[0], b1[0], a0[0], a1[0]);
		printf("%s policy loss: start train %.4f test %.4f, fitted train %.4f test %.4f\n",
		    rule_label[r], b0[1], b1[1], a0[1], a1[1]);
		printf("%s policy top-1: start train %.3f test %.3f, fitted train %.3f test %.3f\n",
		    rule_label[r], b0[2], b1[2], a0[2], a1[2]);
	}
	if (!rc && outp)
		rc = write_table(outp, &t, count, files, nfiles, iters, lambda);
	for (int i = 0; i < n; i++)
		free(ps[i].f);
	free(ps);
	return rc;
}

int
tune_label(int argc, char **argv)
{
	if (argc != 8)
		return 2;
	int rule = atoi(argv[2]);
	if (rule < 0 || rule > 2)
		return 2;
	return label(rule, atoi(argv[3]), strtoull(argv[4], NULL, 10), strtoull(argv[5], NULL, 10),
	    (uint32_t)atoi(argv[6]), argv[7]);
}

int
tune_shapes(int argc, char **argv)
{
	int iters = 1500, min = 50, c;
	double lambda[2] = { 1e-8, 1e-6 };
	const char *outp = NULL;

	optind = 2;
	while ((c = getopt(argc, argv, "i:l:p:m:o:")) != -1) {
		switch (c) {
		case 'i':
			iters = atoi(optarg);
			break;
		case 'l':
			lambda[0] = atof(optarg);
			break;
		case 'p':
			lambda[1] = atof(optarg);
			break;
		case 'm':
			min = atoi(optarg);
			break;
		case 'o':
			outp = optarg;
			break;
		default:
			return 2;
		}
	}
	if (optind >= argc || iters < 1 || lambda[0] < 0 || lambda[1] < 0)
		return 2;
	return fit_shapes(iters, lambda, min, outp, argv + optind, argc - optind);
}
