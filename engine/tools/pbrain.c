/*
 * pbrain.c: bin/pbrain-gomoku, the engine as a Gomocup brain on stdin/stdout
 * (START, RECTSTART, RESTART, BEGIN, TURN, BOARD/DONE, INFO, TAKEBACK,
 * SWAP2BOARD, ABOUT, END) with the Yixin-Board extensions YXBOARD,
 * YXSHOWFORBID, YXNBEST, YXSTOP. The main thread keeps reading while a
 * search thread thinks, so END and YXSTOP take effect at once; any other
 * command waits for the move. Every answer is flushed.
 */
#include "engine/engine.h"
#include "rules/version.h"

#include <ctype.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { LINE_MAX_LEN = 4096, SAFETY_MS = 60, RESERVE_MB = 16, HELPER_MB = 2 };

typedef struct {
	int timeout_turn, timeout_match, time_left, max_memory;
	int rule, game_type, threads, level;
	int eval; /* ENGINE_EVAL_* */
} settings_t;

typedef struct {
	pthread_mutex_t out_lock;
	engine_t *e;
	int hash_mb, threads;
	settings_t set;
	position_t pos;
	int started;
	/* the search in flight */
	pthread_t th;
	int busy;
	int nbest; /* YXNBEST count, 0 for a plain move */
	int swap_mode;
} brain_t;

static void
say(brain_t *b, const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&b->out_lock);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	pthread_mutex_unlock(&b->out_lock);
}

/* INFO thread_num: 0 (none given) or less is one */
static int
threads_for(const settings_t *s)
{
	return s->threads < 1                 ? 1
	    : s->threads > ENGINE_MAX_THREADS ? ENGINE_MAX_THREADS
					      : s->threads;
}

static rule_t
rule_of(int bits)
{
	return bits & 4 ? RULE_RENJU : bits & 1 ? RULE_STANDARD : RULE_FREESTYLE;
}

static void
on_info(const engine_result_t *r, void *arg)
{
	brain_t *b = arg;
	char pv[ENGINE_MAX_PV * 8 + 1] = "", buf[8];
	size_t len = 0;

	for (int i = 0; i < r->pvlen && len + 9 < sizeof pv; i++)
		len += (size_t)snprintf(
		    pv + len, sizeof pv - len, " %s", notation_format_xy(r->pv[i], buf));
	say(b, "MESSAGE depth %d-%d ev %d nodes %llu nps %llu time %d pv%s", r->depth, r->seldepth,
	    r->score, (unsigned long long)r->nodes, (unsigned long long)r->nps, r->time_ms, pv);
}

/* Turns the Gomocup time settings into engine limits for one move. */
static engine_limits_t
limits_for(const brain_t *b)
{
	engine_limits_t l = engine_default_limits();
	const settings_t *s = &b->set;
	/* timeout_turn 0 means "as fast as possible" */
	int hard = s->timeout_turn > 0 ? s->timeout_turn : 100;

	if (s->timeout_match > 0 && s->time_left > 0) {
		l.clock_ms = s->time_left - SAFETY_MS;
		if (l.clock_ms < 20)
			l.clock_ms = 20;
		if (hard > s->time_left / 3)
			hard = s->time_left / 3;
	}
	hard -= SAFETY_MS;
	if (hard < 20)
		hard = 20;
	l.hard_ms = hard;
	l.soft_ms = hard; /* a turn limit only caps: use it all */
	l.level = s->level;
	l.eval = s->eval;
	l.seed = (uint32_t)b->pos.nmoves * 2654435761u;
	return l;
}

static void *
think(void *arg)
{
	brain_t *b = arg;
	engine_limits_t l = limits_for(b);
	engine_result_t r;
	char buf[8];

	l.nbest = b->nbest > 0 ? b->nbest : 1;
	if (engine_search(b->e, (rule_t)b->pos.rule, b->pos.size, b->pos.moves, b->pos.nmoves, &l,
		on_info, b, &r) != 0) {
		say(b, "ERROR no move to play");
		return NULL;
	}
	if (b->swap_mode && r.score < -150) {
		say(b, "SWAP");
		return NULL;
	}
	for (int i = 1; i < r.ncand && b->nbest > 1; i++)
		say(b, "MESSAGE nbest %d %s %d", i + 1, notation_format_xy(r.cand[i].move, buf),
		    r.cand[i].score);
	say(b, "MESSAGE reason %s", r.reason);
	say(b, "MESSAGE searched depth %d, %llu nodes, %llu nodes/s, %d thread(s)", r.depth,
	    (unsigned long long)r.nodes, (unsigned long long)r.nps, r.threads);
	pos_place(&b->pos, r.best);
	say(b, "%s", notation_format_xy(r.best, buf));
	return NULL;
}

static int ensure_engine(brain_t *b);

static void
wait_search(brain_t *b)
{
	if (b->busy) {
		pthread_join(b->th, NULL);
		b->busy = 0;
	}
}

static void
start_search(brain_t *b, int nbest, int swap)
{
	if (b->pos.outcome.kind != RESULT_ONGOING || b->pos.nmoves >= b->pos.size * b->pos.size) {
		say(b, "ERROR the game is over");
		return;
	}
	/* INFO max_memory and thread_num may come after START */
	if (ensure_engine(b) < 0) {
		say(b, "ERROR out of memory");
		return;
	}
	b->nbest = nbest;
	b->swap_mode = swap;
	if (pthread_create(&b->th, NULL, think, b) != 0) {
		say(b, "ERROR cannot start a search");
		return;
	}
	b->busy = 1;
}

static int
parse_xy(const char *s, int size, int *x, int *y, int *field)
{
	char tail;
	int n = field ? sscanf(s, "%d,%d,%d %c", x, y, field, &tail)
		      : sscanf(s, "%d,%d %c", x, y, &tail);

	if (n != (field ? 3 : 2))
		return -1;
	if (*x < 0 || *y < 0 || *x >= size || *y >= size)
		return -1;
	return 0;
}

static int
new_game(brain_t *b, int size)
{
	if (size < RULES_MIN_SIZE || size > RULES_MAX_SIZE)
		return -1;
	pos_init(&b->pos, rule_of(b->set.rule), size);
	b->started = 1;
	return 0;
}

static int
read_line(char *buf, size_t len)
{
	if (!fgets(buf, (int)len, stdin))
		return -1;
	size_t n = strlen(buf);
	if (n && buf[n - 1] != '\n' && !feof(stdin)) {
		int ch;
		while ((ch = getchar()) != EOF && ch != '\n')
			;
		return 1; /* too long */
	}
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == '\r' || buf[n - 1] == ' '))
		buf[--n] = 0;
	return 0;
}

/*
 * Reads "x,y,field" lines up to DONE into a fresh position: field 1 is ours,
 * 2 the opponent's (3, a winning-line mark, counts as the opponent's).
 * swap2: x,y lines (no field) alternate black, white. Returns 0 or -1.
 */
static int
read_board(brain_t *b, int swap2)
{
	char line[LINE_MAX_LEN];
	move_t mine[RULES_CELLS], theirs[RULES_CELLS];
	int nm = 0, nt = 0, bad = 0, size = b->pos.size;
	uint8_t used[RULES_CELLS] = { 0 };

	for (;;) {
		int rc = read_line(line, sizeof line);
		if (rc < 0)
			return -1;
		if (rc > 0) {
			bad = 1;
			continue;
		}
		for (char *p = line; *p; p++)
			*p = (char)toupper((unsigned char)*p);
		if (strcmp(line, "DONE") == 0)
			break;
		if (strcmp(line, "END") == 0)
			exit(0);
		int x, y, f = 0;
		if (swap2 ? parse_xy(line, size, &x, &y, NULL) : parse_xy(line, size, &x, &y, &f)) {
			bad = 1;
			continue;
		}
		move_t m = rules_move(x, y);
		if (used[m]) {
			bad = 1;
			continue;
		}
		used[m] = 1;
		if (swap2)
			f = (nm + nt) % 2 ? 2 : 1; /* black, white, black, ... */
		if (f == 1)
			mine[nm++] = m;
		else if (f == 2 || f == 3)
			theirs[nt++] = m;
		else
			bad = 1;
	}
	if (bad)
		return -1;
	/* who is black: the side with more stones, else the side to move (us) */
	move_t *blk = mine, *wht = theirs;
	int nb = nm, nw = nt;
	if (nt > nm) {
		blk = theirs;
		wht = mine;
		nb = nt;
		nw = nm;
	}
	if (nb - nw > 1)
		return -1;
	pos_init(&b->pos, (rule_t)b->pos.rule, size);
	for (int i = 0; i < nb + nw; i++) {
		move_t m = i % 2 == 0 ? blk[i / 2] : wht[i / 2];
		if (b->pos.outcome.kind != RESULT_ONGOING)
			return -1;
		pos_place(&b->pos, m);
	}
	return 0;
}

static void
show_forbid(brain_t *b)
{
	move_t f[RULES_CELLS];
	char out[RULES_CELLS * 4 + 16];
	size_t len = 0;
	int n = b->pos.rule == RULE_RENJU ? rules_forbidden_points(&b->pos, f) : 0;

	len += (size_t)snprintf(out, sizeof out, "FORBID ");
	for (int i = 0; i < n; i++)
		len += (size_t)snprintf(
		    out + len, sizeof out - len, "%02d%02d", rules_x(f[i]), rules_y(f[i]));
	snprintf(out + len, sizeof out - len, ".");
	say(b, "%s", out);
}

static void
set_info(brain_t *b, const char *key, const char *val)
{
	char *end;
	long v = strtol(val, &end, 10);

	if (*end != 0 || end == val) {
		if (strcmp(key, "FOLDER") != 0)
			say(b, "ERROR bad INFO value");
		return;
	}
	if (strcmp(key, "TIMEOUT_TURN") == 0)
		b->set.timeout_turn = (int)v;
	else if (strcmp(key, "TIMEOUT_MATCH") == 0)
		b->set.timeout_match = (int)v;
	else if (strcmp(key, "TIME_LEFT") == 0)
		b->set.time_left = (int)v;
	else if (strcmp(key, "MAX_MEMORY") == 0)
		b->set.max_memory = (int)v;
	else if (strcmp(key, "GAME_TYPE") == 0)
		b->set.game_type = (int)v;
	else if (strcmp(key, "THREAD_NUM") == 0)
		b->set.threads = (int)v;
	else if (strcmp(key, "LEVEL") == 0)
		b->set.level = v >= 1 && v <= 10 ? (int)v : 10;
	else if (strcmp(key, "RULE") == 0) {
		b->set.rule = (int)v;
		if (b->started && b->pos.nmoves == 0)
			b->pos.rule = (uint8_t)rule_of((int)v);
	}
	/* other keys (evaluate, folder, ...) are accepted and ignored */
}

/*
 * The hash for max_memory (bytes, 0 none): the biggest table, a power of two,
 * that leaves RESERVE_MB for the rest of the brain (pattern tables, the
 * instance, the program; about 9 MB measured) and HELPER_MB for each helper
 * thread's instance and stack (under 1 MB measured).
 */
static int
hash_mb_for(const settings_t *s)
{
	int mb = 1;

	if (s->max_memory <= 0)
		return 128;
	long long budget = (long long)s->max_memory -
	    (long long)(RESERVE_MB + HELPER_MB * (threads_for(s) - 1)) * 1024 * 1024;
	while (mb < 1024 && (long long)engine_hash_bytes(mb * 2) <= budget)
		mb *= 2;
	return mb;
}

/* The engine as the settings ask (hash size, threads), made or remade only
 * when they changed since the last call: at START and before each search. */
static int
ensure_engine(brain_t *b)
{
	int mb = hash_mb_for(&b->set), threads = threads_for(&b->set);

	if (!b->e || mb != b->hash_mb) {
		engine_free(b->e);
		b->e = engine_new(mb);
		b->hash_mb = mb;
		b->threads = 1;
		if (!b->e)
			return -1;
	}
	if (threads != b->threads) {
		if (engine_set_threads(b->e, threads) < 0)
			return -1;
		b->threads = threads;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	static brain_t brain;
	brain_t *b = &brain;
	char line[LINE_MAX_LEN];

	pthread_mutex_init(&b->out_lock, NULL);
	b->set.level = 10;
	/* pbrain-gomoku [-l level] [-t threads] [-e lines|shapes] | --version: a
	 * bot level 1..10 (also INFO level N), the threads until INFO thread_num
	 * says otherwise, the evaluation */
	if (argc == 2 && strcmp(argv[1], "--version") == 0) {
		printf("pbrain-gomoku %s\n", GOMOKU_VERSION);
		return 0;
	}
	for (int i = 1; i < argc; i += 2) {
		int v = i + 1 < argc ? atoi(argv[i + 1]) : 0;
		if (strcmp(argv[i], "-l") == 0 && v >= 1 && v <= 10)
			b->set.level = v;
		else if (strcmp(argv[i], "-t") == 0 && v >= 1 && v <= ENGINE_MAX_THREADS)
			b->set.threads = v;
		else if (strcmp(argv[i], "-e") == 0 && i + 1 < argc &&
		    (strcmp(argv[i + 1], "lines") == 0 || strcmp(argv[i + 1], "shapes") == 0))
			b->set.eval = strcmp(argv[i + 1], "shapes") == 0 ? ENGINE_EVAL_SHAPES
									 : ENGINE_EVAL_LINES;
		else {
			fprintf(stderr,
			    "usage: pbrain-gomoku [-l level] [-t threads] "
			    "[-e lines|shapes] | --version\n");
			return 2;
		}
	}
	b->set.timeout_turn = 5000;
	pos_init(&b->pos, RULE_FREESTYLE, RULES_DEFAULT_SIZE);
	for (;;) {
		int rc = read_line(line, sizeof line);
		if (rc < 0)
			break;
		if (rc > 0) {
			say(b, "ERROR line too long");
			continue;
		}
		char cmd[32] = "", *arg;
		size_t k = 0;
		for (arg = line; *arg == ' '; arg++)
			;
		while (*arg && *arg != ' ' && k + 1 < sizeof cmd)
			cmd[k++] = (char)toupper((unsigned char)*arg++);
		cmd[k] = 0;
		while (*arg == ' ')
			arg++;
		if (!cmd[0])
			continue;
		/* commands that act while the search runs */
		if (strcmp(cmd, "END") == 0) {
			if (b->busy)
				engine_stop(b->e);
			wait_search(b);
			break;
		}
		if (strcmp(cmd, "YXSTOP") == 0) {
			if (b->busy)
				engine_stop(b->e);
			wait_search(b);
			continue;
		}
		if (strcmp(cmd, "INFO") == 0) {
			char key[32] = "", val[256] = "";
			if (sscanf(arg, "%31s %255s", key, val) != 2) {
				say(b, "ERROR bad INFO");
				continue;
			}
			for (char *p = key; *p; p++)
				*p = (char)toupper((unsigned char)*p);
			set_info(b, key, val);
			continue;
		}
		wait_search(b);
		if (strcmp(cmd, "ABOUT") == 0) {
			say(b,
			    "name=\"gomokud\", version=\"" GOMOKU_VERSION
			    "\", author=\"gomokud engine team\", "
			    "country=\"-\", www=\"-\"");
		} else if (strcmp(cmd, "START") == 0) {
			char tail;
			int size;
			if (sscanf(arg, "%d %c", &size, &tail) != 1 || new_game(b, size) < 0)
				say(b, "ERROR unsupported size (5..%d)", RULES_MAX_SIZE);
			else if (ensure_engine(b) < 0)
				say(b, "ERROR out of memory");
			else
				say(b, "OK");
		} else if (strcmp(cmd, "RECTSTART") == 0) {
			int w, h;
			char tail;
			if (sscanf(arg, "%d,%d %c", &w, &h, &tail) != 2 || w != h ||
			    new_game(b, w) < 0)
				say(b, "ERROR only square boards of 5..%d", RULES_MAX_SIZE);
			else if (ensure_engine(b) < 0)
				say(b, "ERROR out of memory");
			else
				say(b, "OK");
		} else if (!b->started || !b->e) {
			if (strcmp(cmd, "TURN") && strcmp(cmd, "BEGIN") && strcmp(cmd, "BOARD") &&
			    strcmp(cmd, "RESTART") && strcmp(cmd, "TAKEBACK") &&
			    strcmp(cmd, "YXBOARD") && strcmp(cmd, "SWAP2BOARD") &&
			    strcmp(cmd, "YXNBEST") && strcmp(cmd, "YXSHOWFORBID"))
				say(b, "UNKNOWN %s", cmd);
			else
				say(b, "ERROR no game: send START first");
		} else if (strcmp(cmd, "RESTART") == 0) {
			new_game(b, b->pos.size);
			say(b, "OK");
		} else if (strcmp(cmd, "BEGIN") == 0) {
			if (b->pos.nmoves != 0)
				say(b, "ERROR BEGIN on a board with stones");
			else
				start_search(b, 0, 0);
		} else if (strcmp(cmd, "TURN") == 0) {
			int x, y;
			if (parse_xy(arg, b->pos.size, &x, &y, NULL) < 0)
				say(b, "ERROR bad coordinates");
			else if (b->pos.outcome.kind != RESULT_ONGOING ||
			    b->pos.cell[rules_move(x, y)] != STONE_EMPTY)
				say(b, "ERROR illegal move");
			else {
				pos_place(&b->pos, rules_move(x, y));
				start_search(b, 0, 0);
			}
		} else if (strcmp(cmd, "BOARD") == 0 || strcmp(cmd, "YXBOARD") == 0) {
			if (read_board(b, 0) < 0)
				say(b, "ERROR bad board");
			else if (cmd[0] == 'B')
				start_search(b, 0, 0);
		} else if (strcmp(cmd, "SWAP2BOARD") == 0) {
			if (read_board(b, 1) < 0)
				say(b, "ERROR bad board");
			else if (b->pos.nmoves == 0) {
				int m = b->pos.size / 2;
				say(b, "%d,%d %d,%d %d,%d", m, m, m + 1, m, m - 1, m + 2);
			} else
				start_search(b, 0, b->pos.nmoves == 3 || b->pos.nmoves == 5);
		} else if (strcmp(cmd, "YXNBEST") == 0) {
			int n = atoi(arg);
			start_search(b, n < 1 ? 1 : n > ENGINE_MAX_NBEST ? ENGINE_MAX_NBEST : n, 0);
		} else if (strcmp(cmd, "TAKEBACK") == 0) {
			int x, y;
			if (parse_xy(arg, b->pos.size, &x, &y, NULL) < 0 || b->pos.nmoves == 0 ||
			    b->pos.moves[b->pos.nmoves - 1] != rules_move(x, y))
				say(b, "ERROR takeback of a stone that is not the last");
			else {
				pos_undo(&b->pos);
				say(b, "OK");
			}
		} else if (strcmp(cmd, "YXSHOWFORBID") == 0) {
			show_forbid(b);
		} else
			say(b, "UNKNOWN %s", cmd);
	}
	wait_search(b);
	engine_free(b->e);
	return 0;
}
