/* review.c: a finished game gone through by the engine (see review.h). */
#include "engine/review.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int
review_chance(review_chance_fn chance, int score)
{
	if (score >= ENGINE_WIN_MIN)
		return 1000;
	if (score <= -ENGINE_WIN_MIN)
		return 0;
	int c = chance(score);
	return c < 1 ? 1 : c > 999 ? 999 : c;
}

static void
add_mark(review_t *out, review_kind_t kind, int ply, const move_t *moves, const review_seen_t *s)
{
	if (out->nmarks == REVIEW_MARKS_MAX)
		return;
	review_mark_t *m = &out->mark[out->nmarks++];
	memset(m, 0, sizeof *m);
	m->kind = kind;
	m->ply = ply;
	m->side = ply % 2 == 0 ? STONE_BLACK : STONE_WHITE;
	m->played = moves[ply];
	m->before = s[ply].score;
	m->after = -s[ply + 1].score;
	m->better = s[ply].best;
	memcpy(m->reason, s[ply].reason, sizeof m->reason);
	m->reason[REVIEW_REASON_MAX] = '\0';
	m->nline = s[ply].nline < 0          ? 0
	    : s[ply].nline > REVIEW_LINE_MAX ? REVIEW_LINE_MAX
					     : s[ply].nline;
	memcpy(m->line, s[ply].line, (size_t)m->nline * sizeof *m->line);
}

/* The marks by ply (the turning point after a mark of the same ply). */
static void
sort_marks(review_t *out)
{
	for (int i = 1; i < out->nmarks; i++) {
		review_mark_t m = out->mark[i];
		int j = i;
		for (; j > 0 &&
		     (out->mark[j - 1].ply > m.ply ||
			 (out->mark[j - 1].ply == m.ply && out->mark[j - 1].kind > m.kind));
		     j--)
			out->mark[j] = out->mark[j - 1];
		out->mark[j] = m;
	}
}

/* The move that did most for the winner: the largest rise of its chance
 * from the position before a move to the one after it (a blunder of the
 * loser, or the winner's best find). */
static int
turning_ply(const review_t *out, review_chance_fn chance, stone_t winner)
{
	int t = -1, best = 0;
	for (int k = 0; k < out->plies; k++) {
		int rise = review_chance(chance, out->score[k + 1]) -
		    review_chance(chance, out->score[k]);
		if (winner == STONE_WHITE)
			rise = -rise;
		if (t < 0 || rise > best) {
			t = k;
			best = rise;
		}
	}
	return t;
}

/* The game played out on p: 0, or -1 when it is not legal. */
static int
play(position_t *p, rule_t rule, int size, const move_t *moves, int n)
{
	if (n < 0 || n > RULES_CELLS || pos_init(p, rule, size) != 0)
		return -1;
	for (int i = 0; i < n; i++)
		if (pos_play(p, moves[i]) != LEGAL_OK)
			return -1;
	return 0;
}

int
review_end(rule_t rule, int size, const move_t *moves, int n, review_seen_t *end)
{
	position_t p;
	if (play(&p, rule, size, moves, n) != 0)
		return -1;
	memset(end, 0, sizeof *end);
	end->best = MOVE_NONE;
	if (p.outcome.kind == RESULT_ONGOING)
		return 0;
	/* the last move ended it: a five for its mover, or a full board */
	end->score = p.outcome.kind == RESULT_WIN ? -ENGINE_WIN : 0;
	return 1;
}

review_judge_t
review_judge(int drop)
{
	review_judge_t j = { drop, REVIEW_LOST, REVIEW_WON, 0 };
	return j;
}

int
review_blunder(const review_judge_t *j, review_chance_fn chance, int before, int after)
{
	int b = review_chance(chance, before), a = review_chance(chance, after);
	if (j->forced && before > -ENGINE_WIN_MIN && after <= -ENGINE_WIN_MIN)
		return 1;
	return b - a >= j->drop && b >= j->lost && a < j->won;
}

int
review_mark(rule_t rule, int size, const move_t *moves, int n, const review_seen_t *s,
    review_chance_fn chance, int drop, review_t *out)
{
	review_judge_t j = review_judge(drop);
	return review_mark_judged(rule, size, moves, n, s, chance, &j, out);
}

int
review_mark_judged(rule_t rule, int size, const move_t *moves, int n, const review_seen_t *s,
    review_chance_fn chance, const review_judge_t *j, review_t *out)
{
	position_t p;
	memset(out, 0, sizeof *out);
	if (play(&p, rule, size, moves, n) != 0)
		return -1;
	out->plies = n;
	for (int i = 0; i <= n; i++)
		out->score[i] = i % 2 == 0 ? s[i].score : -s[i].score;
	for (int i = 0; i < n; i++) {
		int before = s[i].score, after = -s[i + 1].score;
		if (moves[i] == s[i].best || s[i].best == MOVE_NONE)
			continue; /* the engine's own move, or no view of it */
		if (before >= ENGINE_WIN_MIN && after < ENGINE_WIN_MIN)
			add_mark(out, REVIEW_MISSED_WIN, i, moves, s);
		else if (review_blunder(j, chance, before, after))
			add_mark(out, REVIEW_BLUNDER, i, moves, s);
	}
	if (p.outcome.kind == RESULT_WIN) {
		int t = turning_ply(out, chance, p.outcome.winner);
		if (t >= 0 && t < n)
			add_mark(out, REVIEW_TURNING, t, moves, s);
	}
	sort_marks(out);
	return 0;
}

int
review_search(engine_t *e, rule_t rule, int size, const move_t *moves, int n,
    const engine_limits_t *lim, review_progress_fn progress, void *arg, review_seen_t *s)
{
	review_seen_t end;
	int over = review_end(rule, size, moves, n, &end);
	if (over < 0)
		return -1;
	memset(s, 0, ((size_t)n + 1) * sizeof *s);
	for (int i = 0; i <= n; i++) {
		engine_result_t r;
		if (i == n && over) {
			s[i] = end;
		} else if (engine_search(e, rule, size, moves, i, lim, NULL, NULL, &r) == 0) {
			s[i].best = r.best;
			s[i].score = r.score;
			snprintf(s[i].reason, sizeof s[i].reason, "%.*s",
			    (int)strcspn(r.reason, " "), r.reason);
			for (int k = 0; k < r.pvlen && k < REVIEW_LINE_MAX; k++)
				s[i].line[s[i].nline++] = r.pv[k];
		} else {
			s[i].best = MOVE_NONE; /* no move left: nothing to say of it */
		}
		if (progress)
			progress(i + 1, n + 1, arg);
	}
	return 0;
}

int
review_game(engine_t *e, rule_t rule, int size, const move_t *moves, int n,
    const engine_limits_t *lim, review_chance_fn chance, int drop, review_progress_fn progress,
    void *arg, review_t *out)
{
	memset(out, 0, sizeof *out);
	if (n < 0 || n > RULES_CELLS)
		return -1;
	review_seen_t *s = calloc((size_t)n + 1, sizeof *s);
	if (!s)
		return -1;
	int rc = review_search(e, rule, size, moves, n, lim, progress, arg, s);
	if (rc == 0)
		rc = review_mark(rule, size, moves, n, s, chance, drop, out);
	free(s);
	return rc;
}

/* ---- as text ---------------------------------------------------------- */

struct out {
	char *buf;
	size_t cap, pos;
	int err;
};

static void
say(struct out *o, const char *fmt, long long v)
{
	if (o->err)
		return;
	int n = snprintf(o->buf + o->pos, o->cap - o->pos, fmt, v);
	if (n < 0 || (size_t)n >= o->cap - o->pos)
		o->err = 1;
	else
		o->pos += (size_t)n;
}

static void
put(struct out *o, const char *s)
{
	size_t n = strlen(s);
	if (o->err || n >= o->cap - o->pos)
		o->err = 1;
	else {
		memcpy(o->buf + o->pos, s, n + 1);
		o->pos += n;
	}
}

static void
say_word(struct out *o, const char *w)
{
	if (o->err)
		return;
	int n = snprintf(o->buf + o->pos, o->cap - o->pos, " %s", w[0] ? w : "-");
	if (n < 0 || (size_t)n >= o->cap - o->pos)
		o->err = 1;
	else
		o->pos += (size_t)n;
}

int
review_text(const review_t *r, char *buf, size_t cap)
{
	struct out o = { buf, cap < REVIEW_TEXT_MAX ? cap : REVIEW_TEXT_MAX, 0, 0 };
	if (cap == 0 || r->plies < 0 || r->plies > RULES_CELLS || r->nmarks < 0 ||
	    r->nmarks > REVIEW_MARKS_MAX)
		return -1;
	say(&o, "v1 %lld\ns", r->plies);
	for (int i = 0; i <= r->plies; i++)
		say(&o, i ? ",%lld" : " %lld", r->score[i]);
	put(&o, "\n");
	for (int i = 0; i < r->nmarks; i++) {
		const review_mark_t *m = &r->mark[i];
		if (strchr(m->reason, ' ') || m->nline < 0 || m->nline > REVIEW_LINE_MAX)
			return -1;
		say(&o, "m %lld", (long long)m->kind);
		say(&o, " %lld", m->ply);
		say(&o, " %lld", (long long)m->played);
		say(&o, " %lld", (long long)m->better);
		say(&o, " %lld", m->before);
		say(&o, " %lld", m->after);
		say_word(&o, m->reason);
		for (int k = 0; k < m->nline; k++)
			say(&o, k ? ",%lld" : " %lld", (long long)m->line[k]);
		if (m->nline == 0)
			say_word(&o, "");
		put(&o, "\n");
	}
	return o.err ? -1 : (int)o.pos;
}

/* The integer at *p (advanced past it) in lo..hi: 0, or -1. */
static int
number(const char **p, long lo, long hi, long *v)
{
	char *end;
	if (**p != '-' && (**p < '0' || **p > '9'))
		return -1;
	*v = strtol(*p, &end, 10);
	if (end == *p || *v < lo || *v > hi)
		return -1;
	*p = end;
	return 0;
}

static int
cell(const char **p, int size, int none_ok, move_t *m)
{
	long v;
	if (number(p, none_ok ? -1 : 0, RULES_CELLS - 1, &v) != 0)
		return -1;
	*m = (move_t)v;
	if (v >= 0 && (rules_x(*m) >= size || rules_y(*m) >= size))
		return -1;
	return 0;
}

static int
read_mark(const char *p, int size, int plies, review_mark_t *m)
{
	long kind, ply, before, after;
	memset(m, 0, sizeof *m);
	if (number(&p, REVIEW_MISSED_WIN, REVIEW_TURNING, &kind) || *p++ != ' ' ||
	    number(&p, 0, plies - 1, &ply) || *p++ != ' ' || cell(&p, size, 0, &m->played) ||
	    *p++ != ' ' || cell(&p, size, 1, &m->better) || *p++ != ' ' ||
	    number(&p, -ENGINE_WIN, ENGINE_WIN, &before) || *p++ != ' ' ||
	    number(&p, -ENGINE_WIN, ENGINE_WIN, &after) || *p++ != ' ')
		return -1;
	size_t n = strcspn(p, " \n");
	if (n == 0 || n > REVIEW_REASON_MAX || p[n] != ' ')
		return -1;
	if (!(n == 1 && *p == '-'))
		memcpy(m->reason, p, n);
	p += n + 1;
	if (*p == '-')
		p++;
	else
		for (;;) {
			if (m->nline == REVIEW_LINE_MAX || cell(&p, size, 0, &m->line[m->nline++]))
				return -1;
			if (*p != ',')
				break;
			p++;
		}
	if (*p != '\n')
		return -1;
	m->kind = (review_kind_t)kind;
	m->ply = (int)ply;
	m->side = ply % 2 == 0 ? STONE_BLACK : STONE_WHITE;
	m->before = (int)before;
	m->after = (int)after;
	return 0;
}

int
review_read(const char *text, int size, review_t *r)
{
	const char *p = text;
	long v;
	memset(r, 0, sizeof *r);
	if (strncmp(p, "v1 ", 3) != 0)
		return -1;
	p += 3;
	if (number(&p, 0, RULES_CELLS, &v) || strncmp(p, "\ns ", 3) != 0)
		return -1;
	r->plies = (int)v;
	p += 3;
	for (int i = 0; i <= r->plies; i++) {
		if (i && *p++ != ',')
			return -1;
		if (number(&p, -ENGINE_WIN, ENGINE_WIN, &v))
			return -1;
		r->score[i] = (int)v;
	}
	if (*p++ != '\n')
		return -1;
	while (*p) {
		if (strncmp(p, "m ", 2) != 0 || r->nmarks == REVIEW_MARKS_MAX ||
		    read_mark(p + 2, size, r->plies, &r->mark[r->nmarks]) != 0)
			return -1;
		r->nmarks++;
		p = strchr(p, '\n') + 1;
	}
	return 0;
}
