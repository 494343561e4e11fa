/*
 * bench_engine.c: `make bench-engine`. Figures, never pass/fail:
 *   1. nodes/s and time to each depth on fixed positions (one core, or
 *      BENCH_THREADS);
 *   2. the puzzle set $SHARED_DIR/puzzles/freestyle.tsv at PUZZLE_MS (default
 *      1000) ms a position: a move counts only if the win holds when play
 *      continues (the engine defends, the solver's side plays on);
 *   3. `bench_engine vct [budget...]`: the VCT solver alone on the puzzle
 *      positions, proven within each node budget (default 20k 100k 400k).
 * Environment: BENCH_MS (default 2000) per fixed position, BENCH_THREADS
 * (default 1; the depth lines count the first thread's nodes, the totals
 * every thread's), PUZZLE_MS,
 * PUZZLE_LIMIT (first N puzzles), BENCH_EVAL (shapes: the learned table), JUDGE_ATT_MS and JUDGE_DEF_MS (the play-on,
 * default 2000 and 1000), SHARED_DIR and GOMOKU_REQUIRE_SHARED (tests/shared.h).
 */
#include "engine/board.h"
#include "engine/engine.h"
#include "engine/vcf.h"
#include "tests/shared.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const struct {
	const char *name;
	int rule;
	const char *moves;
} fixed[] = {
	{ "opening freestyle", 0, "7,7 8,8 8,7 6,7" },
	{ "midgame freestyle", 0, "7,7 8,8 8,7 6,7 7,8 7,6 9,6 6,9 6,8 8,6" },
	{ "busy freestyle", 0, "8,8 7,8 5,5 6,6 7,9 6,10 8,10 6,8 8,9 6,9 6,7 8,7" },
	{ "opening standard", 1, "7,7 7,8 8,6 6,8" },
	{ "opening renju", 2, "7,7 8,8 9,7 7,9 8,6" },
	{ "midgame renju", 2, "7,7 8,8 9,7 7,9 8,6 9,9 10,10 6,8 8,9 7,8" },
};

static int
parse(const char *s, move_t *mv)
{
	int n = 0, x, y, used;

	while (sscanf(s, "%d,%d%n", &x, &y, &used) == 2) {
		mv[n++] = rules_move(x, y);
		s += used;
		while (*s == ' ')
			s++;
	}
	return n;
}

static int
envi(const char *k, int def)
{
	const char *v = getenv(k);
	return v && *v ? atoi(v) : def;
}

/* The engine's defaults, with BENCH_EVAL=shapes the learned table's
 * evaluation. */
static engine_limits_t
bench_limits(void)
{
	engine_limits_t l = engine_default_limits();
	const char *v = getenv("BENCH_EVAL");

	if (v && strcmp(v, "shapes") == 0)
		l.eval = ENGINE_EVAL_SHAPES;
	return l;
}

static void
on_depth(const engine_result_t *r, void *arg)
{
	(void)arg;
	printf("    depth %2d  sel %2d  %7d ms  %10llu nodes  %8llu n/s  score %d\n", r->depth,
	    r->seldepth, r->time_ms, (unsigned long long)r->nodes, (unsigned long long)r->nps,
	    r->score);
}

static void
bench_fixed(engine_t *e)
{
	int ms = envi("BENCH_MS", 2000), threads = envi("BENCH_THREADS", 1);
	unsigned long long nodes = 0;
	long long total_ms = 0;
	int depths = 0;

	if (engine_set_threads(e, threads) < 0)
		printf("== only some of %d threads could be made\n", threads);
	printf("== nodes/s and time to depth, %d ms a position, %d thread(s)\n", ms, threads);
	for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) {
		move_t mv[64];
		int n = parse(fixed[i].moves, mv);
		engine_limits_t l = bench_limits();
		engine_result_t r;
		char b[8];
		l.soft_ms = ms;
		l.hard_ms = ms;
		l.vct_nodes = UINT64_MAX; /* the search alone */
		engine_clear(e);
		printf("  %s (%s)\n", fixed[i].name, rule_name(fixed[i].rule));
		engine_search(e, fixed[i].rule, 15, mv, n, &l, on_depth, NULL, &r);
		printf("    -> %s depth %d, %llu nodes in %d ms = %llu n/s\n",
		    notation_format_xy(r.best, b), r.depth, (unsigned long long)r.nodes, r.time_ms,
		    (unsigned long long)r.nps);
		nodes += r.nodes;
		total_ms += r.time_ms;
		depths += r.depth;
	}
	printf("nodes/s: %llu (all fixed positions), mean depth %.1f\n",
	    total_ms ? nodes * 1000 / (unsigned long long)total_ms : 0,
	    (double)depths / (double)(sizeof fixed / sizeof fixed[0]));
}

/* Plays on from the position after the candidate: returns 1 if the side
 * that played it makes five within limit plies. Both sides are the engine at
 * full strength, the attacker with att_ms a move, the defender with def_ms. */
static int
holds(engine_t *e, move_t *mv, int n, int limit, int att_ms, int def_ms)
{
	position_t p;
	int attacker = (n - 1) % 2; /* index parity of the candidate, mv[n - 1] */

	pos_init(&p, RULE_FREESTYLE, 15);
	for (int i = 0; i < n; i++)
		pos_place(&p, mv[i]);
	for (int ply = 0; ply < limit; ply++) {
		if (p.outcome.kind == RESULT_WIN)
			return (p.nmoves - 1) % 2 == attacker;
		if (p.outcome.kind != RESULT_ONGOING)
			return 0;
		engine_limits_t l = bench_limits();
		engine_result_t r;
		int att_turn = p.nmoves % 2 == attacker;
		l.soft_ms = att_turn ? att_ms : def_ms;
		l.hard_ms = l.soft_ms;
		if (engine_search(e, RULE_FREESTYLE, 15, p.moves, p.nmoves, &l, NULL, NULL, &r))
			return 0;
		pos_place(&p, r.best);
	}
	return p.outcome.kind == RESULT_WIN && (p.nmoves - 1) % 2 == attacker;
}

/* The puzzle set, its path in path; NULL, said for what, when absent (and
 * exit 1 when it is required: tests/shared.h). */
static FILE *
open_puzzles(const char *what, char *path, size_t len)
{
	FILE *fp = shared_open("puzzles/freestyle.tsv", path, len);
	if (!fp) {
		printf("== %s: not run\n", what);
		if (shared_required())
			exit(1);
	}
	return fp;
}

/* Splits a puzzle line into its five fields; 0 unless a freestyle puzzle. */
static int
puzzle_fields(char *line, char **f)
{
	int k = 0;

	for (char *s = strtok(line, "\t\n"); s && k < 5; s = strtok(NULL, "\t\n"))
		f[k++] = s;
	return k == 5 && atoi(f[0]) == 0;
}

static void
bench_puzzles(engine_t *e, engine_t *judge)
{
	char path[512], line[16384];
	int ms = envi("PUZZLE_MS", 1000), limit = envi("PUZZLE_LIMIT", 100000);
	int att_ms = envi("JUDGE_ATT_MS", 2000), def_ms = envi("JUDGE_DEF_MS", 1000);
	int total = 0, solved = 0, same = 0;
	long long tsum = 0;

	FILE *fp = open_puzzles("puzzles", path, sizeof path);
	if (!fp)
		return;
	printf("== puzzles: %s at %d ms a position (judge: attacker %d ms, defender %d ms)\n", path,
	    ms, att_ms, def_ms);
	while (total < limit && fgets(line, sizeof line, fp)) {
		char *f[5];
		if (!puzzle_fields(line, f))
			continue;
		move_t mv[RULES_CELLS];
		int n = parse(f[1], mv), x, y, plies = atoi(f[4]);
		if (sscanf(f[3], "%d,%d", &x, &y) != 2)
			continue;
		engine_limits_t l = bench_limits();
		engine_result_t r;
		l.soft_ms = ms;
		l.hard_ms = ms;
		total++;
		if (engine_search(e, RULE_FREESTYLE, 15, mv, n, &l, NULL, NULL, &r))
			continue;
		tsum += r.time_ms;
		same += r.best == rules_move(x, y);
		mv[n] = r.best;
		int lim = (r.mate > plies ? r.mate : plies) + 16;
		int ok = holds(judge, mv, n + 1, lim, att_ms, def_ms);
		solved += ok;
		if (!ok || getenv("PUZZLE_VERBOSE")) {
			char b[8];
			printf("  puzzle %d: played %s (%s, mate %d, %d ms), listed %s, %d plies: "
			       "%s\n",
			    total, notation_format_xy(r.best, b), r.reason, r.mate, r.time_ms, f[3],
			    plies, ok ? "wins" : "NOT SOLVED");
		}
		fflush(stdout);
	}
	fclose(fp);
	if (total)
		printf("puzzles: %d of %d solved (%.1f%%), mean time %lld ms, same move as listed "
		       "%d\n",
		    solved, total, 100.0 * solved / total, tsum / total, same);
}

static void
bench_vct(int nb, char **budgets)
{
	static char *def[] = { "20000", "100000", "400000" };
	board_t *b = malloc(sizeof *b);
	vcf_t *v = calloc(1, sizeof *v);
	vcf_slot_t *cache = calloc(VCF_CACHE, sizeof *cache);

	if (nb == 0) {
		nb = 3;
		budgets = def;
	}
	printf("== vct: the VCT solver alone on the freestyle puzzles, 29 plies\n");
	for (int k = 0; b && v && cache && k < nb; k++) {
		char path[512], line[16384];
		FILE *fp = open_puzzles("vct", path, sizeof path);
		int total = 0, proven = 0;
		unsigned long long nodes = 0;
		struct timespec t0, t1;

		if (!fp)
			break;
		memset(cache, 0, VCF_CACHE * sizeof *cache); /* no results from the last budget */
		clock_gettime(CLOCK_MONOTONIC, &t0);
		while (fgets(line, sizeof line, fp)) {
			char *f[5];
			if (!puzzle_fields(line, f))
				continue;
			move_t mv[RULES_CELLS];
			int nm = parse(f[1], mv);
			board_init(b, RULE_FREESTYLE, 15, 0);
			for (int i = 0; i < nm; i++)
				board_play(b, board_cell(mv[i]), board_to_move(b));
			v->b = b;
			v->att = board_to_move(b);
			v->cache = cache;
			v->salt = (uint64_t)(total + 1) * 0x9e3779b97f4a7c15ull;
			v->budget = strtoull(budgets[k], NULL, 10);
			proven += vct_solve(v, 29) > 0;
			nodes += v->nodes;
			total++;
		}
		fclose(fp);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		printf("vct: budget %s nodes: %d of %d proven, %llu nodes, %lld ms\n", budgets[k],
		    proven, total, nodes,
		    (long long)(t1.tv_sec - t0.tv_sec) * 1000 +
			(t1.tv_nsec - t0.tv_nsec) / 1000000);
	}
	free(cache);
	free(v);
	free(b);
}

int
main(int argc, char **argv)
{
	if (argc >= 2 && strcmp(argv[1], "vct") == 0) {
		bench_vct(argc - 2, argv + 2);
		return 0;
	}
	engine_t *e = engine_new(128), *judge = engine_new(64);

	if (!e || !judge)
		return 1;
	if (argc < 2 || strcmp(argv[1], "puzzles") != 0)
		bench_fixed(e);
	engine_set_threads(e, 1);
	if (argc < 2 || strcmp(argv[1], "fixed") != 0)
		bench_puzzles(e, judge);
	engine_free(e);
	engine_free(judge);
	return 0;
}
