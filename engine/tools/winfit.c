/*
 * winfit.c: bin/winfit fits the win chance of the post-game review (issue
 * 47, engine/winchance.h): P(black wins) = 1 / (1 + exp(-s / K)) for the
 * engine's score s (black's view, short of a forced result), draws half a
 * win, K by maximum likelihood over the positions of engine-vs-engine games
 * played from an opening book, each opening with both colours.
 *
 *   winfit [-B book] [-r rule] [-s size] [-g games] [-n nodes | -d depth]
 *          [-J jitter%] [-N noise] [-o seed] [-W weak_level] [-K k] [-b balance]
 *          [-w raw_out] [-v]
 *   winfit -i raw_in [-K k]
 *
 * Every move is searched with a fixed budget (-n nodes, or -d depth) and no
 * clock, so a run is reproducible. So that the two games of an opening (and
 * the rounds of a book played more than once) differ, the first 4 moves
 * after the opening are each drawn, from the seed, the game and the ply,
 * among the search's 4 best within -N of the best (default 100; 0 plays
 * the best); -J also varies each search's node budget by up to that many
 * per cent (default 0). Every move is a real search. The score of each searched
 * position is the search's (so a review at the same budget reads the same
 * scale). -W makes one side (black in even games, white in odd) a weaker
 * level of the engine (engine_limits_t.level, its own noise seeded by the
 * game): its moves are its own, but its positions are still scored by the
 * budget's search; the drop table then sets its moves against the strong
 * side's, to choose the blunder threshold.
 *
 * Prints K (with a bootstrap over games), the games and positions, the
 * log-likelihood (and the one of a coin, for scale), a calibration table,
 * and the falls of the mover's chance across one move. -w writes every
 * searched position as "game ply score result weak own" (score black's
 * view, result 1, 0.5 or 0 for black, weak the colour of the weak side or
 * 0, own 1 when the move played from it was the search's best, 0 when it
 * was another: a drawn one or the weak level's); -i fits such a file again
 * without playing (a file without the last column: own unknown).
 */
#include "engine/engine.h"
#include "engine/tools/book.h"
#include "rules/rules.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { BOOT = 200, NOISE_PLIES = 4 };

typedef struct {
	int rule, size, games, depth, jitter, noise, weak, balance, verbose;
	uint64_t nodes;
	unsigned seed;
	double k; /* the drop table's K; 0: the fitted one */
	const char *book, *raw_out, *raw_in;
} opts_t;

/* One searched position. */
typedef struct {
	int game, ply, score; /* score: black's view */
	double result;        /* for black */
	int weak;             /* the weak side's colour in its game, 0 none */
	int own;              /* the move played here was the search's best: 1, 0, -1 unknown */
} sample_t;

typedef struct {
	sample_t *s;
	size_t n, cap;
	int games;
} samples_t;

static int
push(samples_t *v, sample_t s)
{
	if (v->n == v->cap) {
		size_t cap = v->cap ? 2 * v->cap : 4096;
		sample_t *p = realloc(v->s, cap * sizeof *p);
		if (!p)
			return -1;
		v->s = p;
		v->cap = cap;
	}
	v->s[v->n++] = s;
	return 0;
}

/*
 * A book: a line of x,y stones (black first) an opening, '#' to the end of
 * the line a comment, blank lines skipped. Returns 0, or -1 said on stderr.
 */
/*
 * Opening i without a book: 4 to 6 stones within three of the centre,
 * drawn again until a 50k-node search scores the position within
 * +-balance for the side to move (so that the games are not decided
 * before they start).
 */
static int
drawn_opening(const opts_t *o, engine_t *e, int i, move_t *mv)
{
	uint32_t s = book_mix(o->seed, (uint32_t)i, 0xb00c);
	int c = o->size / 2, n = 0;

	for (int tries = 0; tries < 1000; tries++) {
		position_t pos;
		engine_result_t r;
		engine_limits_t l = engine_default_limits();
		int want = 4 + (int)((s = book_mix(s, 1, 2)) % 3);
		pos_init(&pos, (rule_t)o->rule, o->size);
		n = 0;
		while (n < want) {
			int x = c - 3 + (int)((s = book_mix(s, 3, 4)) % 7);
			int y = c - 3 + (int)((s = book_mix(s, 5, 6)) % 7);
			move_t m = rules_move(x, y);
			if (pos_check(&pos, m) == LEGAL_OK) {
				pos_play(&pos, m);
				mv[n++] = m;
			}
		}
		l.max_nodes = 50000;
		if (pos.outcome.kind == RESULT_ONGOING &&
		    engine_search(e, (rule_t)o->rule, o->size, mv, n, &l, NULL, NULL, &r) == 0 &&
		    r.score >= -o->balance && r.score <= o->balance)
			break;
	}
	return n;
}

/* The limits of the budget's search at ply p of game g. */
static engine_limits_t
budget(const opts_t *o, int g, int p)
{
	engine_limits_t l = engine_default_limits();

	l.max_depth = o->depth;
	l.max_nodes = o->nodes;
	if (o->nodes && o->jitter) {
		uint32_t r = book_mix(o->seed, (uint32_t)g, (uint32_t)p);
		int pct = 100 - o->jitter + (int)(r % (uint32_t)(2 * o->jitter + 1));
		l.max_nodes = o->nodes * (uint64_t)pct / 100;
	}
	return l;
}

/*
 * Plays game g from mv[0..nopen): the budget's engine on both sides, or the
 * weak level on one. Appends every searched position to v. Returns the
 * result for black (1, 0.5, 0), or -1 when the engine fails.
 */
static double
play(const opts_t *o, engine_t *e, int g, const move_t *open, int nopen, samples_t *v,
    uint64_t *hash)
{
	position_t pos;
	move_t mv[RULES_CELLS];
	int first = (int)v->n, weak = o->weak ? 1 + g % 2 : 0;
	double res;

	pos_init(&pos, (rule_t)o->rule, o->size);
	for (int i = 0; i < nopen; i++) {
		pos_play(&pos, open[i]);
		mv[i] = open[i];
	}
	while (pos.outcome.kind == RESULT_ONGOING && pos.nmoves < o->size * o->size) {
		int n = pos.nmoves, black = n % 2 == 0;
		engine_limits_t l = budget(o, g, n);
		engine_result_t r;
		int noisy = o->noise && n < nopen + NOISE_PLIES;
		if (noisy)
			l.nbest = 4;
		if (engine_search(e, (rule_t)o->rule, o->size, mv, n, &l, NULL, NULL, &r) != 0)
			return -1;
		sample_t s = { g, n, black ? r.score : -r.score, 0, weak, 1 };
		move_t best = r.best;
		if (push(v, s) < 0)
			return -1;
		if (noisy && (int)pos_to_move(&pos) != weak) {
			/* any of the candidates within o->noise of the best */
			int c = 1;
			while (c < r.ncand && r.cand[c].score >= r.cand[0].score - o->noise &&
			    r.cand[c].score > -ENGINE_WIN_MIN)
				c++;
			r.best = r.cand[book_mix(o->seed, (uint32_t)g, (uint32_t)n + 0x401) %
				      (uint32_t)c]
				     .move;
		}
		if ((int)pos_to_move(&pos) == weak) {
			engine_limits_t w = engine_default_limits();
			w.level = o->weak;
			w.seed = book_mix(o->seed, (uint32_t)g, 0x5eed);
			w.max_nodes = o->nodes ? o->nodes : 0;
			w.max_depth = o->depth;
			if (engine_search(e, (rule_t)o->rule, o->size, mv, n, &w, NULL, NULL, &r) !=
			    0)
				return -1;
		}
		v->s[v->n - 1].own = r.best == best;
		if (pos_play(&pos, r.best) != LEGAL_OK)
			return -1;
		mv[n] = r.best;
	}
	res = pos.outcome.kind != RESULT_WIN ? 0.5 : pos.outcome.winner == STONE_BLACK ? 1 : 0;
	*hash = 0;
	for (int i = 0; i < pos.nmoves; i++)
		*hash = *hash * 1000003u + (uint64_t)mv[i] + 1;
	for (size_t i = (size_t)first; i < v->n; i++)
		v->s[i].result = res;
	if (o->verbose) {
		char b[8];
		fprintf(stderr, "game %d: %s after %d moves:", g + 1,
		    res == 1       ? "black wins"
			: res == 0 ? "white wins"
				   : "draw",
		    pos.nmoves);
		for (int i = 0; i < pos.nmoves; i++)
			fprintf(stderr, " %s", notation_format_xy(mv[i], b));
		fputc('\n', stderr);
	}
	return res;
}

static int
forced(int s)
{
	return s >= ENGINE_WIN_MIN || s <= -ENGINE_WIN_MIN;
}

/*
 * The log-likelihood of a = 1/K over the unforced samples (those whose game
 * is picked w[game] times; w NULL: each once), and its first two
 * derivatives.
 */
static double
loglik(const samples_t *v, const int *w, double a, double *d1, double *d2)
{
	double ll = 0, g1 = 0, g2 = 0;

	for (size_t i = 0; i < v->n; i++) {
		const sample_t *s = &v->s[i];
		int m = w ? w[s->game] : 1;
		if (!m || forced(s->score))
			continue;
		double x = s->score, p = 1 / (1 + exp(-a * x));
		double pc = p < 1e-12 ? 1e-12 : p > 1 - 1e-12 ? 1 - 1e-12 : p;
		ll += m * (s->result * log(pc) + (1 - s->result) * log(1 - pc));
		g1 += m * (s->result - p) * x;
		g2 -= m * p * (1 - p) * x * x;
	}
	if (d1)
		*d1 = g1;
	if (d2)
		*d2 = g2;
	return ll;
}

/* K by Newton's method on a = 1/K (the log-likelihood is concave in a);
 * 0 when the data do not give one (no score, or every result the score's
 * sign). */
static double
fit(const samples_t *v, const int *w, double *ll)
{
	double a = 1.0 / 400, d1, d2;

	for (int it = 0; it < 100; it++) {
		loglik(v, w, a, &d1, &d2);
		if (d2 >= 0)
			return 0;
		double step = d1 / d2;
		while (a - step <= 0)
			step /= 2;
		a -= step;
		if (fabs(step) < 1e-12 * a)
			break;
	}
	if (ll)
		*ll = loglik(v, w, a, NULL, NULL);
	return a > 1e-7 ? 1 / a : 0;
}

static double
chance(double k, int score)
{
	if (score >= ENGINE_WIN_MIN)
		return 1;
	if (score <= -ENGINE_WIN_MIN)
		return 0;
	return 1 / (1 + exp(-score / k));
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static void
report_fit(const opts_t *o, const samples_t *v, double k, double ll)
{
	size_t used = 0;
	double sy = 0, ll0 = 0;

	for (size_t i = 0; i < v->n; i++)
		if (!forced(v->s[i].score)) {
			used++;
			sy += v->s[i].result;
		}
	/* a coin's log-likelihood, and the one of the constant observed mean */
	ll0 = -(double)used * log(2);
	printf("games: %d, positions: %zu searched, %zu short of a forced result (fitted), "
	       "black's mean result %.3f\n",
	    v->games, v->n, used, used ? sy / (double)used : 0);
	if (!k) {
		printf("K: no fit (too few positions, or every result the sign of its score)\n");
		return;
	}
	/* the bootstrap: games drawn with replacement, K fitted again */
	int *w = calloc((size_t)v->games, sizeof *w);
	double ks[BOOT];
	int nb = 0;
	uint32_t r = book_mix(o->seed, 0xb007, 1);
	for (int b = 0; w && b < BOOT; b++) {
		memset(w, 0, (size_t)v->games * sizeof *w);
		for (int g = 0; g < v->games; g++)
			w[(r = book_mix(r, (uint32_t)b, (uint32_t)g)) % (uint32_t)v->games]++;
		double kb = fit(v, w, NULL);
		if (kb > 0)
			ks[nb++] = kb;
	}
	free(w);
	qsort(ks, (size_t)nb, sizeof *ks, cmp_double);
	printf("K: %.1f", k);
	if (nb >= 20)
		printf("  (bootstrap over games, %d refits: 95%% in [%.1f, %.1f])", nb,
		    ks[(int)(0.025 * (nb - 1))], ks[(int)(0.975 * (nb - 1))]);
	printf("\nlog-likelihood: %.1f (%.4f a position; a coin's %.1f, %.4f)\n", ll,
	    used ? ll / (double)used : 0, ll0, used ? ll0 / (double)used : 0);
	/* calibration: buckets of black's score */
	static const int edge[] = { -ENGINE_WIN_MIN, -1500, -1000, -700, -500, -350, -250, -150,
		-75, -25, 25, 75, 150, 250, 350, 500, 700, 1000, 1500, ENGINE_WIN_MIN };
	int nbk = (int)(sizeof edge / sizeof *edge) - 1;
	printf("calibration (black's view; predicted by K %.1f):\n", k);
	printf(
	    "  %-15s %7s %9s %9s %9s %7s\n", "score", "n", "mean", "predicted", "observed", "+-");
	for (int b = 0; b < nbk; b++) {
		double n = 0, ss = 0, sp = 0, so = 0;
		for (size_t i = 0; i < v->n; i++) {
			int s = v->s[i].score;
			if (forced(s) || s < edge[b] || (s >= edge[b + 1] && b < nbk - 1) ||
			    s > edge[b + 1])
				continue;
			n++;
			ss += s;
			sp += chance(k, s);
			so += v->s[i].result;
		}
		if (!n)
			continue;
		double ob = so / n;
		char range[32];
		snprintf(range, sizeof range, "%d..%d", edge[b] + (b == 0), edge[b + 1] - 1);
		printf("  %-15s %7.0f %9.0f %9.3f %9.3f %7.3f\n", range, n, ss / n, sp / n, ob,
		    1.96 * sqrt(ob * (1 - ob) / n + 1e-9));
	}
}

/*
 * The falls of the mover's chance (per mille, by K) across one move: the
 * chance before it (the search of its position) less the chance after it
 * (the search of the next, turned to the mover's view), both scores short
 * of a forced result, as the review's blunder by a fall takes them; for the
 * moves of the budget's engine in games of its own, in games against the
 * weak level, and the weak level's. Beside them, the moves after which the
 * opponent's search had a forced win the mover's had not seen (the
 * review's other blunder). A game's last move (a five) has no next search
 * and is left out.
 */
static void
report_drops(const samples_t *v, double k)
{
	static const int at[] = { 100, 150, 200, 250, 300, 350, 400, 500 };
	enum { NT = sizeof at / sizeof *at, NC = 5 };
	static const char *name[NC] = { "self-play", "  not its best", "strong vs weak", "weak",
		"  not its best" };
	long moves[NC] = { 0 }, over[NC][NT] = { { 0 } }, games[NC] = { 0 }, lost[NC] = { 0 };
	long gover[NC][NT] = { { 0 } }, all[NC] = { 0 };
	int gmax[NC] = { 0 }, last = -1;

	for (size_t i = 0; i <= v->n; i++) {
		if (i == v->n || v->s[i].game != last) {
			/* a game's end: which of its classes had a fall past each threshold */
			for (int c = 0; c < NC && last >= 0; c++) {
				if (gmax[c] < 0)
					continue;
				games[c]++;
				for (int t = 0; t < NT; t++)
					gover[c][t] += gmax[c] >= at[t];
			}
			if (i == v->n)
				break;
			last = v->s[i].game;
			for (int c = 0; c < NC; c++)
				gmax[c] = -1;
		}
		if (i + 1 == v->n || v->s[i + 1].game != v->s[i].game ||
		    v->s[i + 1].ply != v->s[i].ply + 1)
			continue;
		const sample_t *s = &v->s[i];
		int black = s->ply % 2 == 0, mover = black ? 1 : 2;
		int c = !s->weak ? 0 : s->weak == mover ? 3 : 2;
		int before = black ? s->score : -s->score, after = black ? s[1].score : -s[1].score;
		/* the class, and for self-play and the weak level its moves that were
		 * not the search's best */
		for (int cc = c; cc <= c + (c != 2 && s->own == 0); cc++) {
			all[cc]++;
			if (gmax[cc] < 0)
				gmax[cc] = 0;
			if (before > -ENGINE_WIN_MIN && after <= -ENGINE_WIN_MIN)
				lost[cc]++;
			if (forced(before) || forced(after))
				continue;
			int drop = (int)lround(1000 * (chance(k, before) - chance(k, after)));
			moves[cc]++;
			if (drop > gmax[cc])
				gmax[cc] = drop;
			for (int t = 0; t < NT; t++)
				over[cc][t] += drop >= at[t];
		}
	}
	printf("falls of the mover's chance across one move (K %.1f), both scores short of a "
	       "forced result:\n  the share of such moves with a fall of at least X per mille "
	       "(of games with one)\n",
	    k);
	printf("  %-15s %6s %6s %6s", "X", "moves", "games", "lost");
	for (int t = 0; t < NT; t++)
		printf(" %12d", at[t]);
	putchar('\n');
	for (int c = 0; c < NC; c++) {
		if (!all[c])
			continue;
		printf("  %-15s %6ld %6ld %6ld", name[c], moves[c], games[c], lost[c]);
		for (int t = 0; t < NT; t++) {
			char cell[32];
			snprintf(cell, sizeof cell, "%.2f%% (%.0f%%)",
			    moves[c] ? 100.0 * over[c][t] / moves[c] : 0,
			    games[c] ? 100.0 * gover[c][t] / games[c] : 0);
			printf(" %12s", cell);
		}
		putchar('\n');
	}
	printf("  (lost: moves after which the opponent's search had a forced win the mover's "
	       "had not; moves: of all ");
	for (int c = 0; c < NC; c++)
		printf("%s%ld", c ? "/" : "", all[c]);
	printf(", those with both scores unforced counted)\n");
}

static int
read_raw(const char *path, samples_t *v)
{
	FILE *f = fopen(path, "r");
	char line[256];
	int ln = 0;

	if (!f) {
		fprintf(stderr, "winfit: %s: %s\n", path, strerror(errno));
		return -1;
	}
	v->games = 0;
	while (fgets(line, sizeof line, f)) {
		sample_t s;
		ln++;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		s.own = -1; /* files of the first version have no such column */
		if (sscanf(line, "%d %d %d %lf %d %d", &s.game, &s.ply, &s.score, &s.result,
			&s.weak, &s.own) < 5 ||
		    s.game < 0 || s.ply < 0 ||
		    (s.result != 0 && s.result != 0.5 && s.result != 1) ||
		    (v->n && (s.game < v->s[v->n - 1].game))) {
			fprintf(stderr, "winfit: %s:%d: not 'game ply score result weak [own]'\n",
			    path, ln);
			fclose(f);
			return -1;
		}
		if (push(v, s) < 0) {
			fclose(f);
			return -1;
		}
		if (s.game + 1 > v->games)
			v->games = s.game + 1;
	}
	fclose(f);
	return 0;
}

static int
write_raw(const opts_t *o, const samples_t *v, int argc, char **argv)
{
	FILE *f = fopen(o->raw_out, "w");

	if (!f) {
		fprintf(stderr, "winfit: %s: %s\n", o->raw_out, strerror(errno));
		return -1;
	}
	fprintf(f, "# winfit:");
	for (int i = 0; i < argc; i++)
		fprintf(f, " %s", argv[i]);
	fprintf(f,
	    "\n# game ply score result weak own (score and result black's; weak: the weak "
	    "side's colour, 1 black, 2 white, 0 none; own: 1 when the move played here was "
	    "the search's best, 0 when not)\n");
	for (size_t i = 0; i < v->n; i++)
		fprintf(f, "%d %d %d %g %d %d\n", v->s[i].game, v->s[i].ply, v->s[i].score,
		    v->s[i].result, v->s[i].weak, v->s[i].own);
	return fclose(f) == 0 ? 0 : -1;
}

static void
usage(void)
{
	fprintf(stderr,
	    "usage: winfit [-B book] [-r rule 0|1|2] [-s size] [-g games] [-n nodes | -d depth] "
	    "[-J jitter%%] [-N noise] [-o seed] [-W weak_level] [-K k] [-b balance] [-w raw_out] "
	    "[-v]\n"
	    "       winfit -i raw_in [-K k] [-o seed]\n");
	exit(2);
}

int
main(int argc, char **argv)
{
	opts_t o = {
		.rule = RULE_FREESTYLE,
		.size = 15,
		.games = 100,
		.nodes = 100000,
		.noise = 100,
		.seed = 1,
		.balance = 100,
	};
	samples_t v = { 0 };
	int ch, depth_set = 0, nodes_set = 0;

	while ((ch = getopt(argc, argv, "B:r:s:g:n:d:J:N:o:W:K:b:w:i:v")) != -1) {
		switch (ch) {
		case 'B':
			o.book = optarg;
			break;
		case 'r':
			o.rule = atoi(optarg);
			break;
		case 's':
			o.size = atoi(optarg);
			break;
		case 'g':
			o.games = atoi(optarg);
			break;
		case 'n':
			o.nodes = strtoull(optarg, NULL, 10);
			nodes_set = 1;
			break;
		case 'd':
			o.depth = atoi(optarg);
			depth_set = 1;
			break;
		case 'J':
			o.jitter = atoi(optarg);
			break;
		case 'N':
			o.noise = atoi(optarg);
			break;
		case 'o':
			o.seed = (unsigned)strtoul(optarg, NULL, 10);
			break;
		case 'W':
			o.weak = atoi(optarg);
			break;
		case 'K':
			o.k = atof(optarg);
			break;
		case 'b':
			o.balance = atoi(optarg);
			break;
		case 'w':
			o.raw_out = optarg;
			break;
		case 'i':
			o.raw_in = optarg;
			break;
		case 'v':
			o.verbose++;
			break;
		default:
			usage();
		}
	}
	if (depth_set && !nodes_set)
		o.nodes = 0; /* -d alone: a fixed depth, no node cap */
	if (optind != argc || o.games < 1 || o.rule < 0 || o.rule > 2 || o.size < RULES_MIN_SIZE ||
	    o.size > RULES_MAX_SIZE || o.depth < 0 || (!o.nodes && !o.depth) || o.jitter < 0 ||
	    o.jitter > 90 || o.noise < 0 || o.weak < 0 || o.weak > 9 || o.k < 0)
		usage();
	if (o.raw_in) {
		if (read_raw(o.raw_in, &v) < 0)
			return 1;
	} else {
		book_t *book = NULL;
		engine_t *e = engine_new(16);
		long long t0 = time(NULL);
		uint64_t *hashes = calloc((size_t)o.games, sizeof *hashes);
		int distinct = 0;
		if (!e) {
			fprintf(stderr, "winfit: cannot make an engine\n");
			return 1;
		}
		if (o.book &&
		    (!(book = malloc(sizeof *book)) ||
			book_load("winfit", o.book, (rule_t)o.rule, o.size, book) < 0))
			return 1;
		printf("winfit: %d games, %s %dx%d, ", o.games, rule_name((rule_t)o.rule), o.size,
		    o.size);
		if (o.nodes)
			printf("%llu nodes a move", (unsigned long long)o.nodes);
		if (o.nodes && o.jitter)
			printf(" (+-%d%%)", o.jitter);
		if (o.depth)
			printf("%sdepth %d", o.nodes ? ", " : "", o.depth);
		if (o.noise)
			printf(", the first %d plies within %d of the best", NOISE_PLIES, o.noise);
		if (o.weak)
			printf(", one side level %d", o.weak);
		if (book)
			printf(", %d openings from %s\n", book->n, o.book);
		else
			printf(", drawn openings (+-%d at 50k nodes)\n", o.balance);
		fflush(stdout);
		for (int g = 0; g < o.games; g++) {
			move_t open[OPEN_MAX];
			int oi = g / 2, nopen;
			nopen = book ? (memcpy(open, book->mv[oi % book->n], sizeof open),
					   book->len[oi % book->n])
				     : drawn_opening(&o, e, oi, open);
			if (!hashes || play(&o, e, g, open, nopen, &v, &hashes[g]) < 0) {
				fprintf(stderr, "winfit: game %d: the engine failed\n", g + 1);
				return 1;
			}
			v.games = g + 1;
			if (o.verbose)
				fprintf(stderr, "  %d games, %zu positions, %lld s\n", g + 1, v.n,
				    (long long)time(NULL) - t0);
		}
		for (int g = 0; g < o.games; g++) {
			int seen = 0;
			for (int h = 0; h < g && !seen; h++)
				seen = hashes[h] == hashes[g];
			distinct += !seen;
		}
		free(hashes);
		printf(
		    "played in %lld s, %d distinct games\n", (long long)time(NULL) - t0, distinct);
		free(book);
		engine_free(e);
		if (o.raw_out && write_raw(&o, &v, argc, argv) < 0) {
			fprintf(stderr, "winfit: cannot write %s\n", o.raw_out);
			return 1;
		}
	}
	double ll = 0, k = fit(&v, NULL, &ll);
	report_fit(&o, &v, k, ll);
	if (o.k || k)
		report_drops(&v, o.k ? o.k : k);
	free(v.s);
	return 0;
}
