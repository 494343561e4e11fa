/*
 * arena.c: bin/arena plays two Gomocup brains (given as shell commands) over
 * a set of openings, each opening twice with colours swapped, enforcing the
 * turn time (plus a tolerance) and the match clock. Prints every game and
 * then wins, losses, draws and the Elo difference of the first brain with
 * its 95% interval.
 *
 *   arena [-B book] [-b balance] [-d deep_nodes] [-g games] [-j jobs] [-t turn_ms] [-m match_ms]
 *         [-r rule] [-s size] [-T tolerance_ms] [-o opening_seed] [-f first_game] [-v] CMD1 CMD2
 *   arena -V count [-B candidates] [-b balance] [-d deep_nodes] [-r rule] [-s size] [-o seed]
 *         [-f first] [-v]
 *   arena -E positions [-t turn_ms] [-r rule] [-s size] [-v] CMD1 CMD2
 *
 * Openings are balanced by default (-b 60: the engine scores them within
 * +-60 at 50k nodes and +-180 at -d nodes, default 2M; -d 0 skips that);
 * -b 0 gives plain random 3-stone openings; -B plays a book's openings in
 * order. -V plays nothing: it prints openings that pass a deeper vetting
 * (vet_opening), to make a book. -E plays nothing either: both brains are
 * asked about each position of a file and their evaluations printed side by
 * side (evaluate_file). Every game is played in a
 * child process (-j of them at once); a child writes its one result line
 * into a pipe and exits.
 */
#include "engine/engine.h"
#include "rules/rules.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

typedef struct {
	pid_t pid;
	int in, out;
	char buf[8192];
	size_t len;
	long long clock_ms; /* match time left */
	char msg[512];      /* the last MESSAGE line giving an evaluation */
} proc_t;

typedef struct {
	int games, turn_ms, match_ms, rule, size, tol_ms, verbose, from, jobs, balance;
	uint64_t deep; /* nodes of the second balance check, 0 for none */
	unsigned seed;
	int vet;               /* -V: openings to vet and print instead of playing */
	const char *eval_path; /* -E: positions both brains evaluate */
	const char *cmd[2];
} opts_t;

enum { BOOK_MAX = 1000, OPEN_MAX = 8, VET_REPLIES = 3 };

/* Openings read from a book file (-B), or none. */
typedef struct {
	int n;
	int len[BOOK_MAX];
	move_t mv[BOOK_MAX][OPEN_MAX];
} book_t;

static long long
now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static int
spawn(proc_t *p, const char *cmd)
{
	int to[2], from[2];

	if (pipe(to) || pipe(from))
		return -1;
	p->pid = fork();
	if (p->pid < 0)
		return -1;
	if (p->pid == 0) {
		dup2(to[0], 0);
		dup2(from[1], 1);
		close(to[0]);
		close(to[1]);
		close(from[0]);
		close(from[1]);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	close(to[0]);
	close(from[1]);
	p->in = to[1];
	p->out = from[0];
	p->len = 0;
	p->msg[0] = 0;
	return 0;
}

static void
put(proc_t *p, const char *fmt, ...)
{
	char line[8192];
	va_list ap;

	va_start(ap, fmt);
	int n = vsnprintf(line, sizeof line - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (n > (int)sizeof line - 2)
		n = (int)sizeof line - 2;
	line[n++] = '\n';
	ssize_t w = write(p->in, line, (size_t)n);
	(void)w;
}

/* Next line that is not MESSAGE/DEBUG before the deadline; 0, or -1 on
 * timeout or a closed pipe. */
static int
get(proc_t *p, long long deadline, char *out, size_t outlen, int verbose)
{
	for (;;) {
		char *nl = memchr(p->buf, '\n', p->len);
		if (nl) {
			size_t n = (size_t)(nl - p->buf);
			size_t c = n < outlen - 1 ? n : outlen - 1;
			memcpy(out, p->buf, c);
			out[c] = 0;
			if (c && out[c - 1] == '\r')
				out[c - 1] = 0;
			memmove(p->buf, nl + 1, p->len - n - 1);
			p->len -= n + 1;
			if (strncmp(out, "MESSAGE", 7) == 0 || strncmp(out, "DEBUG", 5) == 0) {
				if (strstr(out, " ev ") || strstr(out, " Eval "))
					snprintf(p->msg, sizeof p->msg, "%s", out);
				if (verbose > 1)
					fprintf(stderr, "    %s\n", out);
				continue;
			}
			return 0;
		}
		long long left = deadline - now_ms();
		if (left <= 0)
			return -1;
		struct pollfd pfd = { p->out, POLLIN, 0 };
		int r = poll(&pfd, 1, (int)(left > 1000000 ? 1000000 : left));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		if (p->len == sizeof p->buf)
			p->len = 0; /* a runaway line: drop it */
		ssize_t n = read(p->out, p->buf + p->len, sizeof p->buf - p->len);
		if (n <= 0)
			return -1;
		p->len += (size_t)n;
	}
}

static void
kill_proc(proc_t *p)
{
	put(p, "END");
	close(p->in);
	long long end = now_ms() + 500;
	int st;
	while (waitpid(p->pid, &st, WNOHANG) == 0) {
		if (now_ms() > end) {
			kill(p->pid, SIGKILL);
			waitpid(p->pid, &st, 0);
			break;
		}
		struct timespec nap = { 0, 5000000 };
		nanosleep(&nap, NULL);
	}
	close(p->out);
}

static unsigned
rnd(unsigned *s)
{
	*s = *s * 1103515245u + 12345u;
	return (*s >> 16) & 0x7fff;
}

/*
 * Draws want distinct stones from *s: the first within one of the centre c,
 * the next two within two, the rest within three.
 */
static int
draw_stones(unsigned *s, int c, int want, move_t *mv)
{
	int n = 0;

	while (n < want) {
		int r = n == 0 ? 1 : n < 3 ? 2 : 3;
		int x = c + (int)(rnd(s) % (unsigned)(2 * r + 1)) - r;
		int y = c + (int)(rnd(s) % (unsigned)(2 * r + 1)) - r;
		move_t m = rules_move(x, y);
		int dup = 0;
		for (int k = 0; k < n; k++)
			dup |= mv[k] == m;
		if (!dup)
			mv[n++] = m;
	}
	return n;
}

static unsigned
opening_seed(const opts_t *o, int i)
{
	return o->seed * 7919u + (unsigned)i * 104729u + 1;
}

/* Opening i: three stones (black, white, black) near the centre. */
static int
random_opening(const opts_t *o, int i, move_t *mv)
{
	unsigned s = opening_seed(o, i);

	return draw_stones(&s, o->size / 2, 3, mv);
}

/*
 * Opening i under -b: 4 to 6 stones within three of the centre, drawn again
 * until the engine (50k nodes, deterministic) scores the position within
 * +-o->balance for the side to move, and then a deeper search (o->deep
 * nodes, unless 0) within three times that: the 50k-node search misses wins
 * of 15-20 plies that start with a quiet move, and a brain should not lose
 * an opening before its first move. Balanced openings let skill rather than
 * the first move's advantage decide, so fewer games separate two brains.
 */
static int
balanced_opening(const opts_t *o, int i, move_t *mv)
{
	engine_t *e = engine_new(16);
	unsigned s = opening_seed(o, i);
	int n = 0, tries;
	engine_result_t r = { 0 }, deep = { 0 };

	for (tries = 1; tries <= 1000; tries++) {
		int want = 4 + (int)(rnd(&s) % 3);
		n = draw_stones(&s, o->size / 2, want, mv);
		engine_limits_t l = engine_default_limits();
		l.max_nodes = 50000;
		if (!e ||
		    engine_search(e, (rule_t)o->rule, o->size, mv, n, &l, NULL, NULL, &r) != 0 ||
		    r.score < -o->balance || r.score > o->balance)
			continue;
		if (!o->deep)
			break;
		l.max_nodes = o->deep;
		if (engine_search(e, (rule_t)o->rule, o->size, mv, n, &l, NULL, NULL, &deep) == 0 &&
		    deep.score >= -3 * o->balance && deep.score <= 3 * o->balance)
			break;
		if (o->verbose > 1)
			fprintf(stderr, "opening %d: try %d rejected, %d at 50k nodes, %d deep\n",
			    i, tries, r.score, deep.score);
	}
	if (o->verbose > 1) {
		char b[8];
		fprintf(stderr,
		    "opening %d: %d stones after %d tries, %d at 50k nodes, %d deep:", i, n, tries,
		    r.score, deep.score);
		for (int k = 0; k < n; k++)
			fprintf(stderr, " %s", notation_format_xy(mv[k], b));
		fputc('\n', stderr);
	}
	engine_free(e);
	return n;
}

/*
 * Parses a line of x,y stones (black first, separated by blanks, '#' to the
 * end of the line a comment) into pos, at most max of them. Returns their
 * count, or -1 with the stone and the reason in err.
 */
static int
parse_stones(char *line, const opts_t *o, int max, position_t *pos, char *err, size_t errlen)
{
	int n = 0;

	line[strcspn(line, "#\n")] = 0;
	pos_init(pos, (rule_t)o->rule, o->size);
	for (char *save = NULL, *t = strtok_r(line, " \t\r", &save); t;
	     t = strtok_r(NULL, " \t\r", &save)) {
		move_t m;
		const char *bad = n == max                   ? "more stones than the arena takes"
		    : notation_parse_xy(t, o->size, &m) != 0 ? "not x,y on the board"
		    : pos_check(pos, m) != LEGAL_OK          ? "an illegal stone"
							     : NULL;
		if (bad) {
			snprintf(err, errlen, "'%s': %s", t, bad);
			return -1;
		}
		pos_play(pos, m);
		n++;
	}
	return n;
}

/*
 * Reads a book: one opening a line (parse_stones), blank lines skipped.
 * Every opening must be legal and at most OPEN_MAX stones (too few to end a
 * game). Returns 0, or -1 with the reason in err.
 */
static int
load_book(const char *path, const opts_t *o, book_t *b, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char line[1024], why[200];
	int ln = 0;

	b->n = 0;
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof line, f)) {
		position_t pos;
		int n = parse_stones(line, o, OPEN_MAX, &pos, why, sizeof why);
		ln++;
		if (n > 0 && b->n == BOOK_MAX) {
			snprintf(why, sizeof why, "more openings than the arena takes");
			n = -1;
		}
		if (n < 0) {
			snprintf(err, errlen, "%s:%d: %s", path, ln, why);
			fclose(f);
			return -1;
		}
		if (n > 0) {
			memcpy(b->mv[b->n], pos.moves, (size_t)n * sizeof pos.moves[0]);
			b->len[b->n++] = n;
		}
	}
	fclose(f);
	if (b->n == 0) {
		snprintf(err, errlen, "%s: no openings", path);
		return -1;
	}
	return 0;
}

/* Copies the book's opening i (counting round the book) into mv; returns its stones. */
static int
book_opening(const book_t *b, int i, move_t *mv)
{
	int k = i % b->n;

	memcpy(mv, b->mv[k], (size_t)b->len[k] * sizeof *mv);
	return b->len[k];
}

/*
 * The deep vetting of -V: a search of o->deep nodes scores the opening
 * mv[0..n) within +-3 * o->balance, and after each of its VET_REPLIES best
 * replies a search of the same size does not score the other side below
 * that (and after one of them, not above it). Openings decided 20 plies deep
 * can pass the 2M-node check of -b; searching after the replies sees those
 * plies sooner.
 * Writes the scores into note. Returns 1 if the opening passes.
 */
static int
vet_opening(const opts_t *o, engine_t *e, const move_t *open, int n, char *note, size_t len)
{
	int lim = 3 * o->balance, ok, best = -ENGINE_WIN;
	move_t mv[OPEN_MAX + 1];
	engine_limits_t l = engine_default_limits();
	engine_result_t r;
	size_t off;

	memcpy(mv, open, (size_t)n * sizeof *mv);
	l.max_nodes = o->deep;
	l.nbest = VET_REPLIES;
	if (engine_search(e, (rule_t)o->rule, o->size, mv, n, &l, NULL, NULL, &r) != 0)
		return 0;
	off = (size_t)snprintf(note, len, "%+d;", r.score);
	ok = r.score >= -lim && r.score <= lim;
	l.nbest = 1;
	for (int k = 0; ok && k < r.ncand; k++) {
		engine_result_t a;
		char b[8];
		mv[n] = r.cand[k].move;
		if (engine_search(e, (rule_t)o->rule, o->size, mv, n + 1, &l, NULL, NULL, &a) != 0)
			return 0;
		if (off < len)
			off += (size_t)snprintf(note + off, len - off, " %s %+d",
			    notation_format_xy(mv[n], b), -a.score);
		ok = a.score >= -lim;
		best = -a.score > best ? -a.score : best;
	}
	return ok && best >= -lim;
}

/* Writes n stones as x,y separated by blanks (as a book has them). */
static void
print_stones(FILE *out, const move_t *mv, int n)
{
	char b[8];

	for (int k = 0; k < n; k++)
		fprintf(out, "%s%s", k ? " " : "", notation_format_xy(mv[k], b));
}

/*
 * -V: prints o->vet openings that pass vet_opening, one a line with their
 * scores as a comment. The candidates are the book's openings if there is
 * one, else balanced openings (-b, without their own deep check) from -o
 * and -f on.
 */
static int
vet(const opts_t *o, const book_t *book)
{
	opts_t shallow = *o;
	engine_t *e = engine_new(256);
	int found = 0;

	if (!e)
		return 1;
	shallow.deep = 0;
	for (int i = o->from; found < o->vet && (!book || i < book->n); i++) {
		move_t mv[OPEN_MAX];
		char note[256];
		int n;
		n = book ? book_opening(book, i, mv) : balanced_opening(&shallow, i, mv);
		int pass = vet_opening(o, e, mv, n, note, sizeof note);
		FILE *out = pass ? stdout : stderr;
		if (!pass && !o->verbose)
			continue;
		found += pass;
		print_stones(out, mv, n);
		fprintf(out, "  # %d%s: %s\n", i, pass ? "" : " rejected", note);
		fflush(out);
	}
	engine_free(e);
	return found < o->vet;
}

/* Tells a started brain the rule, the limits and the board size: 0 once it
 * answers OK, -1 if it does not within ten seconds. */
static int
handshake(proc_t *p, const opts_t *o)
{
	char line[256];

	p->clock_ms = o->match_ms;
	put(p, "INFO rule %d", o->rule == RULE_RENJU ? 4 : o->rule == RULE_STANDARD ? 1 : 0);
	put(p, "INFO timeout_turn %d", o->turn_ms);
	put(p, "INFO timeout_match %d", o->match_ms);
	put(p, "INFO max_memory 134217728");
	put(p, "INFO game_type 1");
	put(p, "START %d", o->size);
	if (get(p, now_ms() + 10000, line, sizeof line, o->verbose) < 0 ||
	    strncmp(line, "OK", 2) != 0)
		return -1;
	return 0;
}

/* Sends the position as BOARD (the side to move's stones 1); the brain answers
 * with its move. */
static void
send_board(proc_t *p, const position_t *pos)
{
	int side = pos->nmoves % 2;

	put(p, "BOARD");
	for (int i = 0; i < pos->nmoves; i++)
		put(p, "%d,%d,%d", rules_x(pos->moves[i]), rules_y(pos->moves[i]),
		    (i % 2) == side ? 1 : 2);
	put(p, "DONE");
}

/*
 * Plays one game from the opening mv[0..nopen); black is brain `first`.
 * Returns the winner's brain index (0 or 1), or -1 for a draw. Writes why the
 * game ended into why.
 */
static int
play(const opts_t *o, const move_t *mv, int nopen, int first, char *why, size_t whylen,
    char *record, size_t reclen)
{
	proc_t p[2];
	position_t pos;
	int told[2] = { 0, 0 };
	char line[8192];
	int winner = -2;

	pos_init(&pos, (rule_t)o->rule, o->size);
	for (int i = 0; i < nopen; i++)
		pos_place(&pos, mv[i]);
	for (int k = 0; k < 2; k++) {
		if (spawn(&p[k], o->cmd[k]) < 0) {
			snprintf(why, whylen, "cannot start brain %d", k + 1);
			return -1;
		}
		if (handshake(&p[k], o) < 0) {
			snprintf(why, whylen, "brain %d did not start", k + 1);
			winner = 1 - k;
		}
	}
	size_t rl = 0;
	record[0] = 0;
	for (int i = 0; i < pos.nmoves; i++) {
		char b[8];
		rl += (size_t)snprintf(
		    record + rl, reclen - rl, "%s ", notation_format_xy(pos.moves[i], b));
	}
	while (winner == -2) {
		if (pos.nmoves == o->size * o->size) {
			winner = -1;
			snprintf(why, whylen, "board full");
			break;
		}
		int side = pos.nmoves % 2;             /* 0 black */
		int k = side == 0 ? first : 1 - first; /* brain to move */
		proc_t *b = &p[k];
		if (o->match_ms > 0)
			put(b, "INFO time_left %lld", b->clock_ms);
		if (!told[k]) {
			send_board(b, &pos);
			told[k] = 1;
		} else {
			move_t last = pos.moves[pos.nmoves - 1];
			put(b, "TURN %d,%d", rules_x(last), rules_y(last));
		}
		long long t0 = now_ms(), limit = o->turn_ms + o->tol_ms;
		if (o->match_ms > 0 && b->clock_ms + o->tol_ms < limit)
			limit = b->clock_ms + o->tol_ms;
		if (get(b, t0 + limit, line, sizeof line, o->verbose) < 0) {
			snprintf(why, whylen, "brain %d timed out or died", k + 1);
			winner = 1 - k;
			break;
		}
		long long used = now_ms() - t0;
		b->clock_ms -= used;
		int x, y;
		char tail;
		move_t m;
		if (sscanf(line, "%d,%d%c", &x, &y, &tail) != 2 || !pos_on_board(&pos, x, y)) {
			snprintf(why, whylen, "brain %d answered '%.40s'", k + 1, line);
			winner = 1 - k;
			break;
		}
		m = rules_move(x, y);
		legality_t lg = pos_check(&pos, m);
		if (lg != LEGAL_OK) {
			snprintf(why, whylen, "brain %d played %d,%d: %s", k + 1, x, y,
			    legality_name(lg));
			winner = 1 - k;
			break;
		}
		pos_play(&pos, m);
		rl += (size_t)snprintf(record + rl, rl < reclen ? reclen - rl : 0, "%d,%d ", x, y);
		if (rl >= reclen)
			rl = reclen - 1;
		if (pos.outcome.kind == RESULT_WIN) {
			snprintf(why, whylen, "five by brain %d after %d moves", k + 1, pos.nmoves);
			winner = k;
		} else if (pos.outcome.kind == RESULT_DRAW) {
			snprintf(why, whylen, "draw");
			winner = -1;
		}
	}
	kill_proc(&p[0]);
	kill_proc(&p[1]);
	return winner;
}

/*
 * The evaluation for the side to move in a brain's MESSAGE line: ours ("ev
 * N") or Rapfi's ("Eval N", "Eval +M7" a win in 7 plies, "-M7" a loss),
 * mates as +-(30000 - plies) as ours are. Returns 0, or -1 if there is none.
 */
static int
message_eval(const char *msg, int *v)
{
	const char *s;
	int neg, n;

	if ((s = strstr(msg, " ev ")))
		return sscanf(s + 4, "%d", v) == 1 ? 0 : -1;
	if (!(s = strstr(msg, " Eval ")))
		return -1;
	s += 6;
	neg = *s == '-';
	if (*s == '+' || *s == '-')
		s++;
	if (sscanf(s + (*s == 'M'), "%d", &n) != 1 || n < 0)
		return -1;
	*v = *s == 'M' ? 30000 - n : n;
	if (neg)
		*v = -*v;
	return 0;
}

/*
 * -E: both brains are asked for a move in each position of the file (lines
 * of stones as in a book, of any length), one brain after the other, at the
 * turn time. Prints per position each brain's evaluation for the side to
 * move (its last MESSAGE line's; "-" without one) and move, then the
 * stones; at the end how often the moves agreed. The two scales differ:
 * sort by a column, or compare ranks, to find where they disagree.
 */
static int
evaluate_file(const opts_t *o)
{
	FILE *f = fopen(o->eval_path, "r");
	proc_t p[2];
	char line[8192], why[200];
	int ln = 0, npos = 0, same = 0, rc = 1;

	if (!f) {
		fprintf(stderr, "arena: %s: %s\n", o->eval_path, strerror(errno));
		return 1;
	}
	for (int k = 0; k < 2; k++) {
		int up = spawn(&p[k], o->cmd[k]) == 0;
		if (!up || handshake(&p[k], o) < 0) {
			fprintf(stderr, "arena: brain %d did not start\n", k + 1);
			for (int j = 0; j < k + up; j++)
				kill_proc(&p[j]);
			fclose(f);
			return 1;
		}
	}
	printf("# ev1 move1 ev2 move2 | stones (evaluations for the side to move)\n");
	while (fgets(line, sizeof line, f)) {
		position_t pos;
		char out[2][96];
		move_t mv[2];
		int n = parse_stones(line, o, RULES_CELLS, &pos, why, sizeof why);
		ln++;
		if (n < 0) {
			fprintf(stderr, "arena: %s:%d: %s\n", o->eval_path, ln, why);
			goto out;
		}
		if (n == 0)
			continue;
		for (int k = 0; k < 2; k++) {
			char reply[64], e[16] = "-";
			int v;
			p[k].msg[0] = 0;
			send_board(&p[k], &pos);
			if (get(&p[k], now_ms() + o->turn_ms + o->tol_ms, reply, sizeof reply,
				o->verbose) < 0 ||
			    notation_parse_xy(reply, o->size, &mv[k]) != 0) {
				fprintf(stderr, "arena: %s:%d: brain %d gave no move\n",
				    o->eval_path, ln, k + 1);
				goto out;
			}
			if (message_eval(p[k].msg, &v) == 0)
				snprintf(e, sizeof e, "%d", v);
			snprintf(out[k], sizeof out[k], "%6s %-5s", e, reply);
		}
		printf("%s  %s | ", out[0], out[1]);
		print_stones(stdout, pos.moves, pos.nmoves);
		putchar('\n');
		fflush(stdout);
		npos++;
		same += mv[0] == mv[1];
	}
	rc = ferror(f) || ferror(stdout);
out:
	fclose(f);
	for (int k = 0; k < 2; k++)
		kill_proc(&p[k]);
	printf("positions: %d, the same move in %d\n", npos, same);
	return rc;
}

static double
elo(double p)
{
	if (p <= 0)
		return -INFINITY;
	if (p >= 1)
		return INFINITY;
	return -400.0 * log10(1.0 / p - 1.0);
}

static void
usage(void)
{
	fprintf(stderr,
	    "usage: arena [-B book] [-b balance] [-d deep_nodes] [-g games] [-j jobs] [-t turn_ms] "
	    "[-m match_ms] "
	    "[-r rule 0|1|2] [-s size] [-T tolerance_ms] [-o seed] [-f first_game] [-v] CMD1 CMD2\n"
	    "       arena -V count [-B candidates] [-b balance] [-d deep_nodes] [-r rule] [-s "
	    "size] [-o seed] [-f first] [-v]\n"
	    "       arena -E positions [-t turn_ms] [-r rule] [-s size] [-v] CMD1 CMD2\n");
	exit(2);
}

int
main(int argc, char **argv)
{
	opts_t o = {
		.games = 40,
		.turn_ms = 1000,
		.rule = RULE_FREESTYLE,
		.size = 15,
		.tol_ms = 500,
		.jobs = 1,
		.balance = 60,
		.deep = 2000000,
		.seed = 1,
	};
	int ch, res[3] = { 0, 0, 0 };
	double sum = 0, sumsq = 0;
	const char *book_path = NULL;
	book_t *book = NULL;

	while ((ch = getopt(argc, argv, "B:E:V:b:d:g:j:t:m:r:s:T:o:f:v")) != -1) {
		switch (ch) {
		case 'B':
			book_path = optarg;
			break;
		case 'E':
			o.eval_path = optarg;
			break;
		case 'V':
			o.vet = atoi(optarg);
			break;
		case 'b':
			o.balance = atoi(optarg);
			break;
		case 'd':
			o.deep = strtoull(optarg, NULL, 10);
			break;
		case 'g':
			o.games = atoi(optarg);
			break;
		case 'j':
			o.jobs = atoi(optarg);
			break;
		case 't':
			o.turn_ms = atoi(optarg);
			break;
		case 'm':
			o.match_ms = atoi(optarg);
			break;
		case 'r':
			o.rule = atoi(optarg);
			break;
		case 's':
			o.size = atoi(optarg);
			break;
		case 'T':
			o.tol_ms = atoi(optarg);
			break;
		case 'o':
			o.seed = (unsigned)atoi(optarg);
			break;
		case 'f':
			o.from = atoi(optarg);
			break;
		case 'v':
			o.verbose++;
			break;
		default:
			usage();
		}
	}
	if (argc - optind != (o.vet ? 0 : 2) || o.games < 1 || o.jobs < 1 || o.jobs > 64 ||
	    o.size < RULES_MIN_SIZE || o.size > RULES_MAX_SIZE || o.rule < 0 || o.rule > 2 ||
	    o.vet < 0 || (o.vet && (!o.balance || !o.deep)))
		usage();
	if (book_path) {
		char err[300];
		if (!(book = malloc(sizeof *book))) {
			perror("arena");
			return 1;
		}
		if (load_book(book_path, &o, book, err, sizeof err) != 0) {
			fprintf(stderr, "arena: %s\n", err);
			return 1;
		}
	}
	if (o.vet) {
		int rc = vet(&o, book);
		free(book);
		return rc;
	}
	o.cmd[0] = argv[optind];
	o.cmd[1] = argv[optind + 1];
	signal(SIGPIPE, SIG_IGN);
	if (o.eval_path) {
		free(book);
		return evaluate_file(&o);
	}
	printf("arena: %d games, %s, %dx%d, %d ms a move (+%d), match %d ms, ", o.games,
	    rule_name(o.rule), o.size, o.size, o.turn_ms, o.tol_ms, o.match_ms);
	if (book)
		printf("%d openings from %s\n", book->n, book_path);
	else if (o.balance && o.deep)
		printf("balanced openings (+-%d, +-%d at %llu nodes)\n", o.balance, 3 * o.balance,
		    (unsigned long long)o.deep);
	else if (o.balance)
		printf("balanced openings (+-%d)\n", o.balance);
	else
		printf("3-stone openings\n");
	printf("  1: %s\n  2: %s\n", o.cmd[0], o.cmd[1]);
	fflush(stdout);
	struct {
		pid_t pid;
		int fd, g;
	} run[64];
	int nrun = 0, next = 0;
	/* both games of an opening share it: drawn once, here, before the fork */
	move_t open_mv[OPEN_MAX];
	int nopen = 0, open_i = -1;
	while (next < o.games || nrun > 0) {
		if (next < o.games && nrun < o.jobs) {
			int pfd[2];
			int oi = (next + o.from) / 2;
			if (oi != open_i) {
				nopen = book    ? book_opening(book, oi, open_mv)
				    : o.balance ? balanced_opening(&o, oi, open_mv)
						: random_opening(&o, oi, open_mv);
				open_i = oi;
			}
			if (pipe(pfd) < 0 || fcntl(pfd[0], F_SETFD, FD_CLOEXEC) < 0 ||
			    fcntl(pfd[1], F_SETFD, FD_CLOEXEC) < 0) {
				perror("arena: pipe");
				return 1;
			}
			pid_t pid = fork();
			if (pid < 0) {
				perror("arena: fork");
				return 1;
			}
			if (pid == 0) {
				char why[128], record[4096], out[4400];
				int first = (next + o.from) %
				    2; /* brain 1 is black in even games */
				int w = play(&o, open_mv, nopen, first, why, sizeof why, record,
				    sizeof record);
				int len = snprintf(out, sizeof out, "%d %d %s|%s", w, first, why,
				    o.verbose ? record : "");
				ssize_t wr = write(pfd[1], out,
				    len < (int)sizeof out ? (size_t)len : sizeof out - 1);
				_exit(wr > 0 ? 0 : 1);
			}
			close(pfd[1]);
			run[nrun].pid = pid;
			run[nrun].fd = pfd[0];
			run[nrun++].g = next++;
			continue;
		}
		int st;
		pid_t done = waitpid(-1, &st, 0);
		if (done < 0) {
			if (errno == EINTR)
				continue;
			perror("arena: waitpid");
			return 1;
		}
		int k = 0;
		while (k < nrun && run[k].pid != done)
			k++;
		if (k == nrun)
			continue; /* not a game (cannot happen: brains are grandchildren) */
		char buf[4400];
		size_t len = 0;
		ssize_t r;
		while (len < sizeof buf - 1 &&
		    (r = read(run[k].fd, buf + len, sizeof buf - 1 - len)) > 0)
			len += (size_t)r;
		buf[len] = 0;
		close(run[k].fd);
		int g = run[k].g, w = -1, first = 0, off = 0;
		if (sscanf(buf, "%d %d %n", &w, &first, &off) < 2) {
			fprintf(stderr, "arena: game %d: the child failed\n", g + 1);
			return 1;
		}
		char *why = buf + off, *record = strchr(why, '|');
		if (record)
			*record++ = 0;
		run[k] = run[--nrun];
		double s = w == 0 ? 1 : w == 1 ? 0 : 0.5;
		res[w == 0 ? 0 : w == 1 ? 1 : 2]++;
		sum += s;
		sumsq += s * s;
		printf("game %3d: brain 1 %s: %s: %s [%s]\n", g + 1, first == 0 ? "black" : "white",
		    w == 0       ? "win "
			: w == 1 ? "loss"
				 : "draw",
		    why, record ? record : "");
		fflush(stdout);
	}
	int n = o.games;
	double p = sum / n, var = sumsq / n - p * p;
	/* Wilson interval of the score (finite even at 0% or 100%) */
	double z = 1.96, zz = z * z / n;
	double mid = (p + zz / 2) / (1 + zz);
	double half = z * sqrt((var > 0 ? var : 0) / n + zz / (4 * n)) / (1 + zz);
	double lo = elo(mid - half), hi = elo(mid + half);
	printf("result: brain 1 %d wins, %d losses, %d draws of %d (score %.1f%%)\n", res[0],
	    res[1], res[2], n, 100 * p);
	printf("elo: %+.0f  95%% interval [%+.0f, %+.0f]\n", elo(p), lo, hi);
	free(book);
	return 0;
}
