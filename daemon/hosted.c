/* hosted.c: the server's hosted engines (see hosted.h). */
#include "daemon/hosted.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/event.h>

#include "bot/brain.h"
#include "bot/sandbox.h"

enum { ARGS_BYTES = 1024, MARGIN_MS = 500, TURN_MIN_MS = 100 };

struct engine {
	struct hosted_engine conf; /* its argv points into args */
	char args[ARGS_BYTES];
	struct hosted_stats st; /* brains: counted by hosted_stats */
};

struct game {
	hosted_t *h;
	uint64_t owner;
	int engine;
	brain_t *b;
	int live;     /* the slot holds a game */
	int started;  /* brain_game was said: the brain knows a position */
	int thinking; /* a move is asked and not answered */
	hosted_move_fn fn;
	void *arg;
	/* the answer, handed to fn from the loop by deliver */
	struct event *deliver;
	int status;
	move_t move;
	char why[160];
};

struct hosted {
	struct event_base *base;
	struct engine *e;
	int ne;
	struct game *g;
	int ng;
	hosted_log_fn log;
	void *log_arg;
};

static int
good_name(const char *s)
{
	size_t n = strlen(s);
	if (n < 1 || n > HOSTED_NAME_MAX || s[0] < 'a' || s[0] > 'z')
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9')))
			return 0;
	return 1;
}

hosted_t *
hosted_new(struct event_base *base, const struct hosted_engine *e, int n, int games_max, char *err,
    size_t errlen)
{
	if (n < 0 || games_max < 1 || (n && !e)) {
		snprintf(err, errlen, "bad arguments");
		return NULL;
	}
	hosted_t *h = calloc(1, sizeof *h);
	if (!h || (n && !(h->e = calloc((size_t)n, sizeof *h->e))) ||
	    !(h->g = calloc((size_t)games_max, sizeof *h->g))) {
		snprintf(err, errlen, "out of memory");
		hosted_free(h);
		return NULL;
	}
	h->base = base;
	h->ng = games_max;
	for (int i = 0; i < n; i++) {
		struct engine *x = &h->e[i];
		if (!good_name(e[i].name) || !e[i].argv[0] || !*e[i].argv[0]) {
			snprintf(err, errlen,
			    "engine %d: a name of a-z and 0-9 (a letter first, "
			    "at most %d) and a command",
			    i + 1, HOSTED_NAME_MAX);
			hosted_free(h);
			return NULL;
		}
		for (int j = 0; j < i; j++)
			if (!strcmp(h->e[j].conf.name, e[i].name)) {
				snprintf(err, errlen, "engine %s named twice", e[i].name);
				hosted_free(h);
				return NULL;
			}
		x->conf = e[i];
		size_t used = 0;
		int k = 0;
		for (; k < HOSTED_ARGS_MAX && e[i].argv[k]; k++) {
			size_t len = strlen(e[i].argv[k]) + 1;
			if (used + len > sizeof x->args) {
				snprintf(err, errlen, "engine %s: command too long", e[i].name);
				hosted_free(h);
				return NULL;
			}
			memcpy(x->args + used, e[i].argv[k], len);
			x->conf.argv[k] = x->args + used;
			used += len;
		}
		x->conf.argv[k] = NULL;
		h->ne++;
	}
	/* Tried once here, where the admin reads the log, rather than found
	 * by every game's brain dying before its first line. */
	int boxed = 0;
	for (int i = 0; i < n; i++)
		boxed |= e[i].sandbox;
	char why[300];
	if (boxed && !sandbox_available(why, sizeof why)) {
		snprintf(err, errlen, "their brains cannot enter their sandbox here: %s", why);
		hosted_free(h);
		return NULL;
	}
	for (int i = 0; i < games_max; i++) {
		h->g[i].h = h;
		h->g[i].deliver = NULL;
	}
	return h;
}

static void
drop(struct game *g)
{
	if (g->deliver)
		event_free(g->deliver);
	if (g->b)
		brain_free(g->b);
	hosted_t *h = g->h;
	memset(g, 0, sizeof *g);
	g->h = h;
}

void
hosted_free(hosted_t *h)
{
	if (!h)
		return;
	for (int i = 0; h->g && i < h->ng; i++)
		if (h->g[i].live)
			drop(&h->g[i]);
	free(h->g);
	free(h->e);
	free(h);
}

int
hosted_find(const hosted_t *h, const char *name)
{
	for (int i = 0; h && name && i < h->ne; i++)
		if (!strcmp(h->e[i].conf.name, name))
			return i;
	return -1;
}

int
hosted_count(const hosted_t *h)
{
	return h ? h->ne : 0;
}

const char *
hosted_name(const hosted_t *h, int engine)
{
	return h && engine >= 0 && engine < h->ne ? h->e[engine].conf.name : NULL;
}

int
hosted_can_play(const hosted_t *h, int engine, rule_t rule, int size, int opening)
{
	(void)rule;
	(void)size;
	return h && engine >= 0 && engine < h->ne && opening == 0;
}

void
hosted_set_log(hosted_t *h, hosted_log_fn fn, void *arg)
{
	h->log = fn;
	h->log_arg = arg;
}

int
hosted_games(const hosted_t *h)
{
	int n = 0;
	for (int i = 0; h && i < h->ng; i++)
		n += h->g[i].live;
	return n;
}

void
hosted_stats(const hosted_t *h, int engine, struct hosted_stats *s)
{
	memset(s, 0, sizeof *s);
	if (!h || engine < 0 || engine >= h->ne)
		return;
	*s = h->e[engine].st;
	for (int i = 0; i < h->ng; i++)
		s->brains += h->g[i].live && h->g[i].engine == engine;
}

static struct game *
game_of(hosted_t *h, uint64_t owner)
{
	for (int i = 0; i < h->ng; i++)
		if (h->g[i].live && h->g[i].owner == owner)
			return &h->g[i];
	return NULL;
}

/* The answer goes to the caller from the loop: never inside hosted_move,
 * and the game may end in the callback. */
static void
deliver_cb(evutil_socket_t fd, short what, void *arg)
{
	struct game *g = arg;
	(void)fd;
	(void)what;
	hosted_move_fn fn = g->fn;
	void *farg = g->arg;
	uint64_t owner = g->owner;
	int status = g->status;
	move_t m = g->move;
	char why[sizeof g->why];
	memcpy(why, g->why, sizeof why);
	g->thinking = 0;
	if (fn)
		fn(owner, status, m, why, farg);
}

static void
answer(struct game *g, int status, move_t m, const char *why)
{
	g->status = status;
	g->move = m;
	snprintf(g->why, sizeof g->why, "%s", why ? why : "");
	struct timeval now = { 0, 0 };
	event_add(g->deliver, &now);
}

static void
on_result(brain_t *b, const brain_result_t *r, void *arg)
{
	struct game *g = arg;
	struct hosted_stats *st = &g->h->e[g->engine].st;
	(void)b;
	switch (r->kind) {
	case BRAIN_MOVE:
		st->moves++;
		answer(g, 0, r->moves[0], "");
		break;
	case BRAIN_FAILED:
		st->failures++;
		if (g->h->log)
			g->h->log(g->owner, r->text, g->h->log_arg);
		break;
	case BRAIN_GIVEUP:
	case BRAIN_NO_SIZE:
	case BRAIN_NO_SWAP2:
	case BRAIN_SWAP2:
		g->started = 0;
		st->forfeits++;
		answer(g, HOSTED_FORFEIT, MOVE_NONE,
		    r->text && *r->text ? r->text : "the brain gave up");
		break;
	}
}

/* Whether the brain's position is moves without their last one. */
static int
one_behind(const position_t *p, const move_t *moves, int n)
{
	if (p->nmoves != n - 1)
		return 0;
	for (int i = 0; i < n - 1; i++)
		if (p->moves[i] != moves[i])
			return 0;
	return 1;
}

int
hosted_move(hosted_t *h, int engine, uint64_t owner, rule_t rule, int size, stone_t side,
    const move_t *moves, int n, int time_left_ms, int inc_ms, hosted_move_fn fn, void *arg)
{
	if (!h || engine < 0 || engine >= h->ne || n < 0 || (n && !moves) ||
	    side != (n % 2 ? STONE_WHITE : STONE_BLACK))
		return HOSTED_BAD;
	struct game *g = game_of(h, owner);
	if (g && (g->engine != engine || g->thinking))
		return HOSTED_BAD;
	if (!g) {
		for (int i = 0; i < h->ng && !g; i++)
			if (!h->g[i].live)
				g = &h->g[i];
		if (!g)
			return HOSTED_FULL;
		const struct hosted_engine *e = &h->e[engine].conf;
		brain_conf_t c = brain_conf_default();
		c.argv = e->argv;
		brain_conf_memory(&c, e->mem_bytes);
		c.cpu_seconds = e->cpu_seconds;
		c.think_ms = e->turn_ms;
		c.swap2 = e->swap2;
		c.sandbox = e->sandbox;
		c.margin_ms = MARGIN_MS;
		g->b = brain_new(h->base, &c, on_result, g);
		g->deliver = evtimer_new(h->base, deliver_cb, g);
		if (!g->b || !g->deliver) {
			drop(g);
			return HOSTED_FULL;
		}
		g->live = 1;
		g->owner = owner;
		g->engine = engine;
	}
	const struct hosted_engine *e = &h->e[engine].conf;
	/* the turn's time: the engine's, capped by what the clock leaves */
	int turn = e->turn_ms > 0 ? e->turn_ms : 5000;
	if (time_left_ms > 0) {
		int cap = time_left_ms / 10 + inc_ms - MARGIN_MS;
		if (cap < TURN_MIN_MS)
			cap = TURN_MIN_MS;
		if (turn > cap)
			turn = cap;
	}
	brain_clock_t clk = { .timeout_turn = turn,
		.timeout_match = time_left_ms > 0 ? time_left_ms : 0,
		.time_left = time_left_ms > 0 ? time_left_ms : 0 };
	g->fn = fn;
	g->arg = arg;
	int rc;
	if (g->started && n > 0 && one_behind(brain_pos(g->b), moves, n))
		rc = brain_turn(g->b, moves[n - 1], &clk);
	else
		rc = brain_game(g->b, rule, size, side, moves, n, &clk, 0);
	if (rc != 0) {
		/* not a legal game, or over: nothing asked */
		if (!g->started)
			drop(g);
		return HOSTED_BAD;
	}
	g->started = 1;
	g->thinking = 1;
	return 0;
}

void
hosted_end(hosted_t *h, uint64_t owner)
{
	struct game *g = h ? game_of(h, owner) : NULL;
	if (!g)
		return;
	event_del(g->deliver);
	if (g->started)
		brain_end(g->b);
	/* brain_free kills what END has not ended by now; brain_end's grace
	 * would need the brain to outlive its game's slot, which it does not
	 * here: the process group is killed at once */
	drop(g);
}
