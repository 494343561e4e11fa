/*
 * reviewfig.c: bin/reviewfig measures the post-game review (issue 47,
 * engine/review.h) on the engine's own games: the puzzles its missed wins
 * give, the marks a much larger budget does not confirm, and the nodes a
 * review search of review-ms reaches on this machine.
 *
 *   reviewfig [-B book] [-g games] [-L levels] [-p play_nodes] [-n nodes]
 *             [-x times] [-D deep_games] [-m ms] [-q timed_games] [-o seed]
 *             [-w games_out] [-v]
 *   reviewfig -i games_in [-n nodes] [-x times] [-D deep_games] [-m ms]
 *             [-q timed_games] [-o seed] [-T] [-v]
 *
 * The games (freestyle 15x15) start from the openings of the book (-B,
 * each opening twice, colours alike) or from stones drawn near the centre
 * without one. Each side of game g plays at a level drawn from the seed
 * and g among -L (a comma list, default 5,6,7,8,9,10: the bots a server's
 * players meet; 5 is gomokud's bot-fallback-level), each move a search of
 * at most -p nodes (default 300000) and no clock: levels 5 to 9 stop at
 * their own node caps well before a bot's bot-think-ms would, level 10 at
 * -p. The first 4 moves after the opening are drawn among the search's 4
 * best within 100 points (as bin/winfit does), so that the games of an
 * opening differ. A game ends on a five or a full board. -w writes the
 * games, "black_level white_level result moves" (result 1, 0.5 or 0 for
 * black, moves as cell numbers); -i reads such a file instead of playing.
 *
 * Each game is reviewed as review_game does it (level 10, every position
 * searched, marked by engine/winchance.h's chance and blunder drop) at -n
 * nodes a position (default 300000, the win chance's fit's budget), the
 * engine's table cleared at each game's start so that a game's review does
 * not depend on the games before it. Each missed win is then made a puzzle
 * by daemon/puzzles.c's rule: the position before the missed move, if that
 * move is at most the protocol's list of moves (LIST_MAX) into the
 * game, proven by puzzle_solution as a VCF and then a VCT within each
 * class's plies and PROVE_NODES a step; the first class whose win takes at
 * least PUZZLE_MIN_PLIES plies is kept, a five in one ends the try. The
 * puzzles a game gives are counted by class, and per 1,000 games with a
 * bootstrap over the games.
 *
 * The first -D games (default all) are reviewed again at -x times the
 * nodes (default 8). A mark of the default review is a false mark when
 * the larger review has no mark of the same kind on the same move; a mark
 * of the larger review that the default one lacks is a missed mark. Both
 * are counted by kind (missed win, blunder, turning point).
 *
 * Before all that, the positions of the first -q games (default 4) are
 * searched as gomokud's bot worker searches a review's position: one
 * thread, a 16 MB table, level 10, -m ms (default 250, review-ms's
 * default) soft and hard, one candidate, the seed game * 31 + ply, the
 * positions of a game in order on one engine. The nodes each search
 * reached are reported (median, quartiles, 10th and 90th percentiles,
 * extremes) with the load of the machine. That part alone depends on the
 * machine and its load; everything else is the same for the same command.
 * -T stops there (no review), to measure it again at another time.
 *
 * -R compares the ways of judging a blunder instead (review_judge_t):
 * every game's positions searched once at -n nodes, then marked by the
 * rule before issue 47's second look (a fall of 200 per mille, or any move
 * into a forced loss), by lichess's fall of 300, and by both falls (and
 * lichess's inaccuracy, 100) kept to moves from a position not lost
 * (10% or more) to one not won (under 90%): the marks per game by kind,
 * and the blunders by the loser or winner, the weaker or stronger level.
 * With -D, the first -D games are searched again at -x times the nodes
 * and each judge's blunders counted as confirmed when the same judge
 * marks the same move there. Nothing else is done (no puzzles, no
 * timing).
 *
 * -v says each game's play, review and comparison on stderr.
 */
#include "engine/engine.h"
#include "engine/tools/book.h"
#include "engine/puzzle.h"
#include "engine/review.h"
#include "engine/winchance.h"
#include "rules/rules.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* proto/proto.h's PROTO_LIST_MAX, daemon/puzzles.c's limit on a puzzle's
 * moves (the engine's tools know no protocol: test_reviewfig.sh holds the
 * two the same) */
enum { LIST_MAX = 100 };
/* daemon/puzzles.c's budget to make a puzzle (its enum is private there;
 * tests/engine/test_reviewfig.sh checks that the two agree) */
enum { PROVE_NODES = 4000000 };
/* and the positions gomokud's review worker searches with */
enum { WORKER_HASH_MB = 16, WORKER_LEVEL = 10 };

enum {
	NOISE_PLIES = 4,
	NOISE = 100,
	LEVELS_MAX = 10,
	BOOT = 1000,
	KINDS = 3, /* REVIEW_MISSED_WIN .. REVIEW_TURNING */
};

typedef struct {
	int games, deep, timed, ms, times, verbose, nlevels, only_timed, judges;
	int levels[LEVELS_MAX];
	uint64_t play_nodes, nodes;
	unsigned seed;
	const char *book, *out, *in;
} opts_t;

typedef struct {
	int black, white; /* levels */
	double result;    /* for black */
	int n;
	move_t mv[RULES_CELLS];
} game_t;

static const char *kind_name[KINDS + 1] = { "", "missed win", "blunder", "turning point" };

/* Opening i without a book: 4 to 6 legal stones within three of the centre. */
static int
drawn_opening(unsigned seed, int i, move_t *mv)
{
	uint32_t s = book_mix(seed, (uint32_t)i, 0xb00c);
	int n = 0, want = 4 + (int)((s = book_mix(s, 1, 2)) % 3);
	position_t pos;
	pos_init(&pos, RULE_FREESTYLE, 15);
	while (n < want) {
		int x = 4 + (int)((s = book_mix(s, 3, 4)) % 7);
		int y = 4 + (int)((s = book_mix(s, 5, 6)) % 7);
		move_t m = rules_move(x, y);
		if (pos_check(&pos, m) == LEGAL_OK) {
			pos_play(&pos, m);
			mv[n++] = m;
		}
	}
	return n;
}

/* Game g from open[0..nopen): 0, or -1 when the engine fails. */
static int
play(const opts_t *o, engine_t *e, int g, const move_t *open, int nopen, game_t *gm)
{
	position_t pos;
	engine_clear(e);
	gm->black = o->levels[book_mix(o->seed, (uint32_t)g, 0x1e0b) % (uint32_t)o->nlevels];
	gm->white = o->levels[book_mix(o->seed, (uint32_t)g, 0x1e0c) % (uint32_t)o->nlevels];
	gm->n = 0;
	pos_init(&pos, RULE_FREESTYLE, 15);
	for (int i = 0; i < nopen; i++) {
		pos_play(&pos, open[i]);
		gm->mv[gm->n++] = open[i];
	}
	while (pos.outcome.kind == RESULT_ONGOING && pos.nmoves < RULES_CELLS) {
		int n = pos.nmoves, noisy = n < nopen + NOISE_PLIES;
		engine_limits_t l = engine_default_limits();
		engine_result_t r;
		l.max_nodes = o->play_nodes;
		l.level = n % 2 == 0 ? gm->black : gm->white;
		l.seed = book_mix(o->seed, (uint32_t)g, (uint32_t)l.level);
		if (noisy)
			l.nbest = 4;
		if (engine_search(e, RULE_FREESTYLE, 15, gm->mv, n, &l, NULL, NULL, &r) != 0)
			return -1;
		if (noisy && r.ncand > 1) { /* any of the candidates within NOISE of the best */
			int c = 1;
			while (c < r.ncand && r.cand[c].score >= r.cand[0].score - NOISE &&
			    r.cand[c].score > -ENGINE_WIN_MIN)
				c++;
			if (r.cand[0].move == r.best)
				r.best =
				    r.cand[book_mix(o->seed, (uint32_t)g, (uint32_t)n + 0x401) %
					 (uint32_t)c]
					.move;
		}
		if (pos_play(&pos, r.best) != LEGAL_OK)
			return -1;
		gm->mv[gm->n++] = r.best;
	}
	gm->result = pos.outcome.kind != RESULT_WIN ? 0.5
	    : pos.outcome.winner == STONE_BLACK     ? 1
						    : 0;
	return 0;
}

static int
write_games(const char *path, const game_t *g, int n, int argc, char **argv)
{
	FILE *f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "reviewfig: %s: %s\n", path, strerror(errno));
		return -1;
	}
	fprintf(f, "# reviewfig:");
	for (int i = 0; i < argc; i++)
		fprintf(f, " %s", argv[i]);
	fprintf(f,
	    "\n# black_level white_level result moves (result for black; moves as "
	    "cell numbers, black first)\n");
	for (int i = 0; i < n; i++) {
		fprintf(f, "%d %d %g", g[i].black, g[i].white, g[i].result);
		for (int k = 0; k < g[i].n; k++)
			fprintf(f, "%c%d", k ? ',' : ' ', (int)g[i].mv[k]);
		fputc('\n', f);
	}
	return fclose(f) == 0 ? 0 : -1;
}

/* The games of path into *g (*n of them): 0, or -1 said on stderr. */
static int
read_games(const char *path, game_t **g, int *n)
{
	FILE *f = fopen(path, "r");
	static char line[8192];
	int ln = 0, cap = 0;
	*g = NULL;
	*n = 0;
	if (!f) {
		fprintf(stderr, "reviewfig: %s: %s\n", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof line, f)) {
		ln++;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (*n == cap) {
			game_t *p = realloc(*g, (size_t)(cap = cap ? 2 * cap : 64) * sizeof *p);
			if (!p) {
				fclose(f);
				return -1;
			}
			*g = p;
		}
		game_t *gm = &(*g)[*n];
		int used = 0,
		    ok = sscanf(line, "%d %d %lf %n", &gm->black, &gm->white, &gm->result, &used) ==
		    3;
		position_t pos;
		pos_init(&pos, RULE_FREESTYLE, 15);
		gm->n = 0;
		for (char *p = line + used; ok && *p && *p != '\n';) {
			char *end;
			long v = strtol(p, &end, 10);
			ok = end != p && v >= 0 && v < RULES_CELLS && gm->n < RULES_CELLS &&
			    pos.outcome.kind == RESULT_ONGOING &&
			    pos_play(&pos, (move_t)v) == LEGAL_OK;
			gm->mv[gm->n++] = (move_t)v;
			p = *end == ',' ? end + 1 : end;
		}
		if (!ok || gm->n == 0) {
			fprintf(stderr, "reviewfig: %s:%d: not a game\n", path, ln);
			fclose(f);
			return -1;
		}
		(*n)++;
	}
	fclose(f);
	return 0;
}

static uint64_t
game_hash(const move_t *mv, int n)
{
	uint64_t h = 0;
	for (int i = 0; i < n; i++)
		h = h * 1000003u + (uint64_t)mv[i] + 1;
	return h;
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The k-th of n sorted values at fraction q (nearest rank). */
static uint64_t
pct(const uint64_t *v, size_t n, double q)
{
	size_t i = (size_t)(q * (double)(n - 1) + 0.5);
	return v[i < n ? i : n - 1];
}

/* ---- question 3: the nodes of a review-ms search ------------------------- */

/* The spread of v[0..n) (sorted here) on one line after label. */
static void
spread(const char *label, uint64_t *v, size_t n)
{
	uint64_t sum = 0;
	if (!n) {
		printf("  %s: none\n", label);
		return;
	}
	qsort(v, n, sizeof *v, cmp_u64);
	for (size_t i = 0; i < n; i++)
		sum += v[i];
	printf("  %s: %zu, median %llu, quartiles %llu..%llu, 10%%..90%% %llu..%llu, min %llu, "
	       "max %llu, mean %.0f\n",
	    label, n, (unsigned long long)pct(v, n, 0.5), (unsigned long long)pct(v, n, 0.25),
	    (unsigned long long)pct(v, n, 0.75), (unsigned long long)pct(v, n, 0.1),
	    (unsigned long long)pct(v, n, 0.9), (unsigned long long)v[0],
	    (unsigned long long)v[n - 1], (double)sum / (double)n);
}

static int
timed(const opts_t *o, const game_t *g, int ngames)
{
	engine_t *e = engine_new(WORKER_HASH_MB);
	size_t cap = 0, n = 0, nfull = 0;
	uint64_t *nodes = NULL, *full = NULL, *nps = NULL;
	long dsum = 0, fdsum = 0;
	int over = 0;
	double load0 = -1, load1 = -1;
	FILE *la;

	if (!e)
		return -1;
	if ((la = fopen("/proc/loadavg", "r"))) {
		if (fscanf(la, "%lf", &load0) != 1)
			load0 = -1;
		fclose(la);
	}
	for (int k = 0; k < ngames; k++)
		cap += (size_t)g[k].n + 1;
	nodes = calloc(cap + 1, sizeof *nodes);
	full = calloc(cap + 1, sizeof *full);
	nps = calloc(cap + 1, sizeof *nps);
	for (int k = 0; nodes && full && nps && k < ngames; k++) {
		engine_clear(e);
		for (int i = 0; i <= g[k].n; i++) {
			engine_limits_t l = engine_default_limits();
			engine_result_t r;
			l.level = WORKER_LEVEL;
			l.soft_ms = l.hard_ms = o->ms;
			l.nbest = 1;
			l.seed = (uint32_t)(k * 31 + i);
			if (engine_search(e, RULE_FREESTYLE, 15, g[k].mv, i, &l, NULL, NULL, &r) !=
			    0)
				continue; /* the game's end: no search */
			dsum += r.depth;
			over += r.time_ms > o->ms + 50;
			nodes[n++] = r.nodes;
			if (r.time_ms * 10 >= o->ms * 9) { /* it used its time */
				fdsum += r.depth;
				nps[nfull] = r.time_ms > 0 ? r.nodes * 1000 / (uint64_t)r.time_ms
							   : 0;
				full[nfull++] = r.nodes;
			}
		}
	}
	if ((la = fopen("/proc/loadavg", "r"))) {
		if (fscanf(la, "%lf", &load1) != 1)
			load1 = -1;
		fclose(la);
	}
	engine_free(e);
	if (!nodes || !full || !nps || !n) {
		free(nodes);
		free(full);
		free(nps);
		return -1;
	}
	printf("nodes in %d ms (level %d, one thread, %d MB, as a review worker): %zu positions "
	       "of %d games, mean depth %.1f, %d over %d ms; load average %.2f before, %.2f "
	       "after (%ld cores)\n",
	    o->ms, WORKER_LEVEL, WORKER_HASH_MB, n, ngames, (double)dsum / (double)n, over,
	    o->ms + 50, load0, load1, sysconf(_SC_NPROCESSORS_ONLN));
	spread("every search", nodes, n);
	spread("those that used their time (90% or more)", full, nfull);
	printf("    their mean depth %.1f; the median is %.2f of the review's %llu nodes\n",
	    nfull ? (double)fdsum / (double)nfull : 0,
	    nfull ? (double)pct(full, nfull, 0.5) / (double)o->nodes : 0,
	    (unsigned long long)o->nodes);
	spread("  and their nodes a second", nps, nfull);
	printf("  (the others ended sooner: a forced move, or a root solver's win)\n");
	fflush(stdout);
	free(nodes);
	free(full);
	free(nps);
	return 0;
}

/* ---- the review and its puzzles ----------------------------------------- */

/* What daemon/puzzles.c's offer_prove makes of the position before ply of
 * g: PUZZLE_VCF or PUZZLE_VCT (its plies in *plies), 0 when no puzzle, -1
 * for a five in one, -2 past the protocol's list. */
static int
make_puzzle(const game_t *g, int ply, int *plies)
{
	static const puzzle_class_t classes[] = { PUZZLE_VCF, PUZZLE_VCT };
	move_t line[PUZZLE_LINE_MAX];
	int len;
	*plies = 0;
	if (ply > LIST_MAX)
		return -2;
	for (int i = 0; i < 2; i++) {
		int r = puzzle_solution(RULE_FREESTYLE, 15, g->mv, ply, classes[i],
		    puzzle_plies(classes[i]), PROVE_NODES, line, &len);
		if (r >= PUZZLE_MIN_PLIES) {
			*plies = r;
			return classes[i];
		}
		if (r > 0)
			return -1;
	}
	return 0;
}

static int
review(engine_t *e, const game_t *g, uint64_t nodes, review_t *out)
{
	engine_limits_t l = engine_default_limits();
	l.max_nodes = nodes;
	engine_clear(e);
	return review_game(e, RULE_FREESTYLE, 15, g->mv, g->n, &l, winchance_permille,
	    WINCHANCE_BLUNDER_DROP, NULL, NULL, out);
}

static int has_mark(const review_t *r, int kind, int ply);

/* -R: the blunder judges compared on the same searches. */
static const struct {
	const char *name;
	review_judge_t j;
} judge[] = {
	{ "a fall of 200, or into a forced loss (the rule before)", { 200, 0, 1001, 1 } },
	{ "a fall of 300 (lichess's blunder), a forced loss 0", { 300, 0, 1001, 0 } },
	{ "a fall of 200, from >= 10% to < 90%", { 200, REVIEW_LOST, REVIEW_WON, 0 } },
	{ "a fall of 300, from >= 10% to < 90%", { 300, REVIEW_LOST, REVIEW_WON, 0 } },
	{ "a fall of 100, from >= 10% to < 90% (an inaccuracy)",
	    { 100, REVIEW_LOST, REVIEW_WON, 0 } },
};
enum { JUDGES = sizeof judge / sizeof judge[0] };

/*
 * Every game's positions searched once at o->nodes (review_search, the
 * table cleared at each game's start), then marked by each judge: the
 * marks per game by kind, and each judge's blunders split by who played
 * them (the game's loser or winner; the weaker or the stronger level) and
 * by what the rule before judged in them (from a lost position, into a
 * position still won). 0, or 1.
 */
static int
judges_compared(const opts_t *o, engine_t *e, const game_t *games, int ngames)
{
	long kinds[JUDGES][KINDS + 1] = { { 0 } }, none[JUDGES] = { 0 }, most[JUDGES] = { 0 };
	long loser[JUDGES] = { 0 }, winner[JUDGES] = { 0 }, weak[JUDGES] = { 0 },
	     strong[JUDGES] = { 0 }, lost[JUDGES] = { 0 }, won[JUDGES] = { 0 };
	long uneven = 0, positions = 0, sure[JUDGES] = { 0 }, deep_marks[JUDGES] = { 0 },
	     in_deep[JUDGES] = { 0 }, cross[JUDGES][JUDGES] = { { 0 } };
	review_seen_t *seen = calloc(RULES_CELLS + 1, sizeof *seen),
		      *dseen = calloc(RULES_CELLS + 1, sizeof *dseen);
	review_t *r = malloc(sizeof *r), *dr = malloc(sizeof *dr),
		 *dref = malloc(JUDGES * sizeof *dref);
	long long t0 = time(NULL);
	if (!seen || !r || !dseen || !dr || !dref)
		return 1;
	for (int g = 0; g < ngames; g++) {
		const game_t *gm = &games[g];
		engine_limits_t l = engine_default_limits();
		l.max_nodes = o->nodes;
		engine_clear(e);
		if (review_search(e, RULE_FREESTYLE, 15, gm->mv, gm->n, &l, NULL, NULL, seen) !=
		    0) {
			fprintf(stderr, "reviewfig: game %d: the review failed\n", g + 1);
			return 1;
		}
		positions += gm->n + 1;
		uneven += gm->black != gm->white;
		int deeper = g < o->deep;
		if (deeper) { /* the reference: -x times the nodes */
			l.max_nodes = o->nodes * (uint64_t)o->times;
			engine_clear(e);
			if (review_search(
				e, RULE_FREESTYLE, 15, gm->mv, gm->n, &l, NULL, NULL, dseen) != 0)
				return 1;
		}
		for (int k = 0; k < JUDGES; k++) {
			long here = 0;
			if (deeper && k == 0) /* every judge's view of the deeper review */
				for (int x = 0; x < JUDGES; x++)
					review_mark_judged(RULE_FREESTYLE, 15, gm->mv, gm->n, dseen,
					    winchance_permille, &judge[x].j, &dref[x]);
			if (deeper) {
				*dr = dref[k];
				for (int i = 0; i < dr->nmarks; i++)
					deep_marks[k] += dr->mark[i].kind == REVIEW_BLUNDER;
			}
			review_mark_judged(RULE_FREESTYLE, 15, gm->mv, gm->n, seen,
			    winchance_permille, &judge[k].j, r);
			for (int i = 0; i < r->nmarks; i++) {
				const review_mark_t *m = &r->mark[i];
				kinds[k][m->kind]++;
				if (m->kind != REVIEW_BLUNDER)
					continue;
				here++;
				if (deeper) {
					in_deep[k]++;
					sure[k] += has_mark(dr, REVIEW_BLUNDER, m->ply);
					for (int x = 0; x < JUDGES; x++)
						cross[k][x] += has_mark(
						    &dref[x], REVIEW_BLUNDER, m->ply);
				}
				int black = m->side == STONE_BLACK;
				double res = black ? gm->result : 1 - gm->result;
				loser[k] += res == 0;
				winner[k] += res == 1;
				int mine = black ? gm->black : gm->white,
				    theirs = black ? gm->white : gm->black;
				weak[k] += mine < theirs;
				strong[k] += mine > theirs;
				int b = review_chance(winchance_permille, m->before),
				    a = review_chance(winchance_permille, m->after);
				lost[k] += b < REVIEW_LOST;
				won[k] += a >= REVIEW_WON;
			}
			none[k] += here == 0;
			most[k] = here > most[k] ? here : most[k];
		}
		if (o->verbose)
			fprintf(stderr, "game %d reviewed\n", g + 1);
	}
	printf("blunder judges: %d games, %ld positions searched at %llu nodes in %lld s; %ld "
	       "games between two levels\n",
	    ngames, positions, (unsigned long long)o->nodes, (long long)time(NULL) - t0, uneven);
	printf("  %-56s %8s %8s %8s %6s %6s %6s %6s %6s %6s %6s %6s %6s\n", "judge", "blunders",
	    "a game", "missed", "turn", "none", "most", "loser", "winner", "weaker", "strngr",
	    "lost", "won");
	for (int k = 0; k < JUDGES; k++)
		printf("  %-56s %8ld %8.2f %8ld %6ld %6ld %6ld %6ld %6ld %6ld %6ld %6ld %6ld\n",
		    judge[k].name, kinds[k][REVIEW_BLUNDER],
		    (double)kinds[k][REVIEW_BLUNDER] / ngames, kinds[k][REVIEW_MISSED_WIN],
		    kinds[k][REVIEW_TURNING], none[k], most[k], loser[k], winner[k], weak[k],
		    strong[k], lost[k], won[k]);
	printf("blunders: all the judge marked; a game: their mean a game; missed, turn: the "
	       "missed wins and turning points (the same for every judge); none: games without "
	       "a blunder; most: a game's most; loser, winner: blunders by the side that lost or "
	       "won the game; weaker, stronger: by the lower or higher level (games between two "
	       "levels); lost: from a chance below %d per mille; won: to one of %d or more\n",
	    REVIEW_LOST, REVIEW_WON);
	if (o->deep > 0) {
		printf("the first %d games reviewed again at %d times the nodes (%llu), each judge "
		       "against itself there:\n",
		    o->deep, o->times, (unsigned long long)o->nodes * (unsigned long long)o->times);
		printf("  %-56s %8s %9s %7s %8s\n", "judge", "blunders", "confirmed", "share",
		    "deeper's");
		for (int k = 0; k < JUDGES; k++)
			printf("  %-56s %8ld %9ld %6.0f%% %8ld\n", judge[k].name, in_deep[k],
			    sure[k],
			    in_deep[k] ? 100.0 * (double)sure[k] / (double)in_deep[k] : 0.0,
			    deep_marks[k]);
		printf(
		    "blunders: the judge's in those games; confirmed: those the deeper review "
		    "judged by the same judge marks on the same move; deeper's: all the blunders "
		    "the deeper review marks\n");
		printf("each judge's blunders (rows) that the deeper review judged by each judge "
		       "(columns, in the order above) marks on the same move:\n");
		for (int k = 0; k < JUDGES; k++) {
			printf("  %-56s %4ld:", judge[k].name, in_deep[k]);
			for (int x = 0; x < JUDGES; x++)
				printf(" %4ld", cross[k][x]);
			printf("\n");
		}
	}
	free(seen);
	free(dseen);
	free(r);
	free(dr);
	free(dref);
	return 0;
}

static int
has_mark(const review_t *r, int kind, int ply)
{
	for (int i = 0; i < r->nmarks; i++)
		if ((int)r->mark[i].kind == kind && r->mark[i].ply == ply)
			return 1;
	return 0;
}

/* The 95% interval of a share k of n (Wilson's). */
static void
wilson(long k, long n, double *lo, double *hi)
{
	double z = 1.96, p = n ? (double)k / (double)n : 0, d = 1 + z * z / (double)n;
	double c = (p + z * z / (2.0 * (double)n)) / d;
	double h = z * sqrt(p * (1 - p) / (double)n + z * z / (4.0 * (double)n * (double)n)) / d;
	*lo = n && c - h > 0 ? c - h : 0;
	*hi = n && c + h < 1 ? c + h : n ? 1 : 0;
}

static void
usage(void)
{
	fprintf(stderr,
	    "usage: reviewfig [-B book] [-g games] [-L levels] [-p play_nodes] [-n nodes] "
	    "[-x times] [-D deep_games] [-m ms] [-q timed_games] [-o seed] [-w games_out] [-v]\n"
	    "       reviewfig -i games_in [-n nodes] [-x times] [-D deep_games] [-m ms] "
	    "[-q timed_games] [-o seed] [-T] [-v]\n"
	    "       reviewfig -R [-i games_in | -B book -g games ...] [-n nodes] [-v]\n");
	exit(2);
}

static int
parse_levels(const char *s, opts_t *o)
{
	o->nlevels = 0;
	for (const char *p = s; *p;) {
		char *end;
		long v = strtol(p, &end, 10);
		if (end == p || v < 1 || v > 10 || o->nlevels == LEVELS_MAX)
			return -1;
		o->levels[o->nlevels++] = (int)v;
		if (*end == ',')
			end++;
		else if (*end)
			return -1;
		p = end;
	}
	return o->nlevels ? 0 : -1;
}

int
main(int argc, char **argv)
{
	opts_t o = {
		.games = 150,
		.deep = -1,
		.timed = 4,
		.ms = 250,
		.times = 8,
		.play_nodes = 300000,
		.nodes = 300000,
		.seed = 1,
	};
	game_t *games = NULL;
	int ngames = 0, ch;
	long long t0 = time(NULL);

	parse_levels("5,6,7,8,9,10", &o);
	while ((ch = getopt(argc, argv, "B:g:L:p:n:x:D:m:q:o:w:i:TRv")) != -1) {
		switch (ch) {
		case 'B':
			o.book = optarg;
			break;
		case 'g':
			o.games = atoi(optarg);
			break;
		case 'L':
			if (parse_levels(optarg, &o) < 0)
				usage();
			break;
		case 'p':
			o.play_nodes = strtoull(optarg, NULL, 10);
			break;
		case 'n':
			o.nodes = strtoull(optarg, NULL, 10);
			break;
		case 'x':
			o.times = atoi(optarg);
			break;
		case 'D':
			o.deep = atoi(optarg);
			break;
		case 'm':
			o.ms = atoi(optarg);
			break;
		case 'q':
			o.timed = atoi(optarg);
			break;
		case 'o':
			o.seed = (unsigned)strtoul(optarg, NULL, 10);
			break;
		case 'w':
			o.out = optarg;
			break;
		case 'i':
			o.in = optarg;
			break;
		case 'T':
			o.only_timed = 1;
			break;
		case 'R':
			o.judges = 1;
			break;
		case 'v':
			o.verbose++;
			break;
		default:
			usage();
		}
	}
	if (optind != argc || o.games < 1 || o.games > 100000 || o.play_nodes < 1 || o.nodes < 1 ||
	    o.times < 1 || o.ms < 1 || o.timed < 0)
		usage();

	engine_t *e = engine_new(WORKER_HASH_MB);
	if (!e) {
		fprintf(stderr, "reviewfig: cannot make an engine\n");
		return 1;
	}
	if (o.in) {
		if (read_games(o.in, &games, &ngames) < 0)
			return 1;
		printf("reviewfig: %d games from %s\n", ngames, o.in);
	} else {
		book_t *book = NULL;
		if (o.book &&
		    (!(book = malloc(sizeof *book)) ||
			book_load("reviewfig", o.book, RULE_FREESTYLE, 15, book) < 0))
			return 1;
		if (!(games = calloc((size_t)o.games, sizeof *games)))
			return 1;
		printf("reviewfig: %d games, freestyle 15x15, levels", o.games);
		for (int i = 0; i < o.nlevels; i++)
			printf("%c%d", i ? ',' : ' ', o.levels[i]);
		printf(" at most %llu nodes a move, the first %d plies within %d of the best, ",
		    (unsigned long long)o.play_nodes, NOISE_PLIES, NOISE);
		if (book)
			printf("%d openings from %s\n", book->n, o.book);
		else
			printf("drawn openings\n");
		fflush(stdout);
		for (int g = 0; g < o.games; g++) {
			move_t open[OPEN_MAX];
			int oi = g / 2,
			    nopen = book ? (memcpy(open, book->mv[oi % book->n], sizeof open),
					       book->len[oi % book->n])
					 : drawn_opening(o.seed, oi, open);
			if (play(&o, e, g, open, nopen, &games[g]) < 0) {
				fprintf(stderr, "reviewfig: game %d: the engine failed\n", g + 1);
				return 1;
			}
			if (o.verbose)
				fprintf(stderr, "game %d: level %d against %d, %s after %d moves\n",
				    g + 1, games[g].black, games[g].white,
				    games[g].result == 1       ? "black won"
					: games[g].result == 0 ? "white won"
							       : "drawn",
				    games[g].n);
		}
		ngames = o.games;
		free(book);
		if (o.out && write_games(o.out, games, ngames, argc, argv) < 0)
			return 1;
	}
	if (o.deep < 0 || o.deep > ngames)
		o.deep = ngames;
	if (o.timed > ngames)
		o.timed = ngames;

	/* the games: how many differ, their plies, their results */
	uint64_t *h = calloc((size_t)ngames + 1, sizeof *h);
	long plies = 0, wins[3] = { 0 };
	int distinct = 0;
	for (int g = 0; h && g < ngames; g++) {
		h[g] = game_hash(games[g].mv, games[g].n);
		plies += games[g].n;
		wins[games[g].result == 1 ? 0 : games[g].result == 0 ? 1 : 2]++;
	}
	if (h) {
		qsort(h, (size_t)ngames, sizeof *h, cmp_u64);
		for (int g = 0; g < ngames; g++)
			distinct += g == 0 || h[g] != h[g - 1];
	}
	free(h);
	printf("games: %d (%d distinct), %ld moves, black won %ld, white %ld, drawn %ld; made in "
	       "%lld s\n",
	    ngames, distinct, plies, wins[0], wins[1], wins[2], (long long)time(NULL) - t0);
	fflush(stdout);

	if (o.judges) {
		int rc = judges_compared(&o, e, games, ngames);
		free(games);
		engine_free(e);
		return rc;
	}
	if (o.timed && timed(&o, games, o.timed) < 0) {
		fprintf(stderr, "reviewfig: the timed searches failed\n");
		return 1;
	}
	if (o.only_timed) {
		free(games);
		engine_free(e);
		return 0;
	}

	/* the default review of every game, and its puzzles */
	long t1 = (long)time(NULL);
	long marks[KINDS + 1] = { 0 }, kept[3] = { 0 }, fives = 0, unproven = 0, past = 0;
	long plysum[3] = { 0 };
	int *per = calloc((size_t)ngames, sizeof *per), gwith = 0;
	uint64_t *pz = calloc((size_t)ngames * REVIEW_MARKS_MAX + 1, sizeof *pz);
	size_t npz = 0;
	review_t *def = calloc((size_t)ngames, sizeof *def);
	review_t *deep = malloc(sizeof *deep);
	/* each mark's puzzle: the class, -1 a five in one, -2 past the list,
	 * 0 not proven (a missed win's only) */
	int *made = calloc((size_t)ngames * REVIEW_MARKS_MAX + 1, sizeof *made);
	/* the missed wins by the engine's word for its move, and by the plies
	 * its score gave the win (ENGINE_WIN less the score): all, then kept */
	enum { WORDS = 12 };
	char word[WORDS][REVIEW_REASON_MAX + 1];
	long wn[WORDS][2] = { { 0 } }, len_n[3][2] = { { 0 } };
	int nwords = 0;
	if (!per || !pz || !def || !deep || !made)
		return 1;
	for (int g = 0; g < ngames; g++) {
		if (review(e, &games[g], o.nodes, &def[g]) != 0) {
			fprintf(stderr, "reviewfig: game %d: the review failed\n", g + 1);
			return 1;
		}
		for (int i = 0; i < def[g].nmarks; i++) {
			const review_mark_t *m = &def[g].mark[i];
			int len, c;
			marks[m->kind]++;
			if (m->kind != REVIEW_MISSED_WIN)
				continue;
			c = make_puzzle(&games[g], m->ply, &len);
			made[g * REVIEW_MARKS_MAX + i] = c;
			int w = 0, win = ENGINE_WIN - m->before;
			while (w < nwords && strcmp(word[w], m->reason))
				w++;
			if (w == nwords && nwords < WORDS)
				snprintf(word[nwords++], sizeof word[0], "%s",
				    m->reason[0] ? m->reason : "-");
			int lb = win <= PUZZLE_VCT_PLIES ? 0 : win <= PUZZLE_VCF_PLIES ? 1 : 2;
			if (w < nwords) {
				wn[w][0]++;
				wn[w][1] += c > 0;
			}
			len_n[lb][0]++;
			len_n[lb][1] += c > 0;
			if (o.verbose)
				fprintf(stderr,
				    "game %d, move %d: a missed win (%s, score %d, after it %d): "
				    "%s\n",
				    g + 1, m->ply + 1, m->reason, m->before, m->after,
				    c == PUZZLE_VCF       ? "a VCF puzzle"
					: c == PUZZLE_VCT ? "a VCT puzzle"
					: c == -1         ? "a five in one"
					: c == -2         ? "past the list"
							  : "not proven");
			if (c > 0) {
				kept[c]++;
				plysum[c] += len;
				per[g]++;
				pz[npz++] = game_hash(games[g].mv, m->ply);
			} else if (c == -1) {
				fives++;
			} else if (c == -2) {
				past++;
			} else {
				unproven++;
			}
		}
		gwith += per[g] > 0;
		if (o.verbose)
			fprintf(stderr, "game %d: %d marks, %d puzzles\n", g + 1, def[g].nmarks,
			    per[g]);
	}
	long total = kept[PUZZLE_VCF] + kept[PUZZLE_VCT];
	qsort(pz, npz, sizeof *pz, cmp_u64);
	size_t dpz = 0;
	for (size_t i = 0; i < npz; i++)
		dpz += i == 0 || pz[i] != pz[i - 1];
	printf("review: %d games at %llu nodes a position, %ld positions, %ld s\n", ngames,
	    (unsigned long long)o.nodes, plies + ngames, (long)time(NULL) - t1);
	printf("  marks: %ld missed wins, %ld blunders, %ld turning points\n",
	    marks[REVIEW_MISSED_WIN], marks[REVIEW_BLUNDER], marks[REVIEW_TURNING]);
	printf("puzzles (daemon/puzzles.c's rule, %d nodes a step): %ld kept of %ld missed wins: "
	       "%ld VCF (%.1f plies on average), %ld VCT (%.1f); %ld a five in one, %ld not "
	       "proven, %ld past move %d; from %d games; %zu distinct positions\n",
	    PROVE_NODES, total, marks[REVIEW_MISSED_WIN], kept[PUZZLE_VCF],
	    kept[PUZZLE_VCF] ? (double)plysum[PUZZLE_VCF] / (double)kept[PUZZLE_VCF] : 0,
	    kept[PUZZLE_VCT],
	    kept[PUZZLE_VCT] ? (double)plysum[PUZZLE_VCT] / (double)kept[PUZZLE_VCT] : 0, fives,
	    unproven, past, LIST_MAX, gwith, dpz);
	printf("  the missed wins by the engine's word for its move (kept):");
	for (int w = 0; w < nwords; w++)
		printf("%s %s %ld (%ld)", w ? "," : "", word[w], wn[w][0], wn[w][1]);
	printf("\n  and by the plies of the win its score gave: up to %d %ld (%ld), %d to %d %ld "
	       "(%ld), more %ld (%ld)\n",
	    PUZZLE_VCT_PLIES, len_n[0][0], len_n[0][1], PUZZLE_VCT_PLIES + 2, PUZZLE_VCF_PLIES,
	    len_n[1][0], len_n[1][1], len_n[2][0], len_n[2][1]);
	/* per 1,000 games, with the games drawn again with replacement */
	double boot[BOOT];
	uint32_t r = book_mix(o.seed, 0xb007, 2);
	for (int b = 0; b < BOOT; b++) {
		long s = 0;
		for (int g = 0; g < ngames; g++)
			s += per[(r = book_mix(r, (uint32_t)b, (uint32_t)g)) % (uint32_t)ngames];
		boot[b] = 1000.0 * (double)s / ngames;
	}
	qsort(boot, BOOT, sizeof *boot, cmp_double);
	printf("  per 1,000 games: %.0f (95%% in [%.0f, %.0f], %d bootstrap resamplings of the "
	       "%d games)\n",
	    1000.0 * (double)total / ngames, boot[(int)(0.025 * (BOOT - 1))],
	    boot[(int)(0.975 * (BOOT - 1))], BOOT, ngames);
	fflush(stdout);

	/* the larger review of the first o.deep games, against the default one */
	long t2 = (long)time(NULL);
	long dmarks[KINDS + 1] = { 0 }, shown[KINDS + 1] = { 0 }, falsem[KINDS + 1] = { 0 };
	long other[KINDS + 1] = { 0 }, missed[KINDS + 1] = { 0 }, dpos = 0;
	long wins_kept[2] = { 0 }, wins_unproven[2] = { 0 }; /* all, confirmed */
	for (int g = 0; g < o.deep; g++) {
		if (review(e, &games[g], o.nodes * (uint64_t)o.times, deep) != 0) {
			fprintf(stderr, "reviewfig: game %d: the larger review failed\n", g + 1);
			return 1;
		}
		dpos += games[g].n + 1;
		int gf = 0, gm = 0;
		for (int i = 0; i < def[g].nmarks; i++) {
			const review_mark_t *m = &def[g].mark[i];
			int c = made[g * REVIEW_MARKS_MAX + i],
			    yes = has_mark(deep, (int)m->kind, m->ply);
			shown[m->kind]++;
			if (m->kind == REVIEW_MISSED_WIN && c > 0) {
				wins_kept[0]++;
				wins_kept[1] += yes;
			} else if (m->kind == REVIEW_MISSED_WIN && c == 0) {
				wins_unproven[0]++;
				wins_unproven[1] += yes;
			}
			if (yes)
				continue;
			falsem[m->kind]++;
			gf++;
			for (int k = 1; k <= KINDS; k++)
				if (k != (int)m->kind && has_mark(deep, k, m->ply)) {
					other[m->kind]++;
					break;
				}
		}
		for (int i = 0; i < deep->nmarks; i++) {
			const review_mark_t *m = &deep->mark[i];
			dmarks[m->kind]++;
			if (!has_mark(&def[g], (int)m->kind, m->ply)) {
				missed[m->kind]++;
				gm++;
			}
		}
		if (o.verbose)
			fprintf(stderr, "game %d: %d marks at %llu nodes, %d false, %d missed\n",
			    g + 1, deep->nmarks, (unsigned long long)(o.nodes * (uint64_t)o.times),
			    gf, gm);
	}
	printf("larger review: %d games at %llu nodes a position (%d times), %ld positions, %ld "
	       "s\n",
	    o.deep, (unsigned long long)(o.nodes * (uint64_t)o.times), o.times, dpos,
	    (long)time(NULL) - t2);
	printf("  %-14s %8s %6s %14s %8s %6s %8s\n", "kind", "default", "false", "(95%)", "other",
	    "larger", "missed");
	long all[5] = { 0 };
	for (int k = 1; k <= KINDS + 1; k++) {
		long s = k <= KINDS ? shown[k] : all[0], f = k <= KINDS ? falsem[k] : all[1];
		long ot = k <= KINDS ? other[k] : all[2], d = k <= KINDS ? dmarks[k] : all[3];
		long mi = k <= KINDS ? missed[k] : all[4];
		double lo, hi;
		char share[40];
		if (k <= KINDS) {
			all[0] += s;
			all[1] += f;
			all[2] += ot;
			all[3] += d;
			all[4] += mi;
		}
		wilson(f, s, &lo, &hi);
		snprintf(share, sizeof share, "%.0f%% [%.0f, %.0f]",
		    s ? 100.0 * (double)f / (double)s : 0, 100 * lo, 100 * hi);
		printf("  %-14s %8ld %6ld %14s %8ld %6ld %8ld\n", k <= KINDS ? kind_name[k] : "all",
		    s, f, share, ot, d, mi);
	}
	printf("  missed wins the larger review confirms: %ld of the %ld kept as puzzles, %ld of "
	       "the %ld not proven\n",
	    wins_kept[1], wins_kept[0], wins_unproven[1], wins_unproven[0]);
	printf("  (false: a default mark the larger review has not on the same move with the same "
	       "kind; other: of those, on a move the larger review marks otherwise; missed: the "
	       "larger review's marks the default lacks)\n");
	printf("done in %lld s\n", (long long)time(NULL) - t0);
	free(made);
	free(deep);
	free(def);
	free(pz);
	free(per);
	free(games);
	engine_free(e);
	return 0;
}
