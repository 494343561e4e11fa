/* reviews.c: REVIEW and MARKS, the reviews under way and who waits for
 * them (see reviews.h). */
#include "daemon/reviews.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/queue.h>

#include "daemon/allowance.h"
#include "daemon/archive.h"
#include "daemon/botplay.h"
#include "daemon/bots.h"
#include "daemon/clock.h"
#include "daemon/cmd.h"
#include "daemon/conn.h"
#include "daemon/core.h"
#include "daemon/metrics.h"
#include "daemon/puzzles.h"
#include "daemon/room.h"
#include "daemon/session.h"
#include "engine/review.h"
#include "engine/winchance.h"

enum {
	USERS = 1024,       /* allowances kept; the stalest window gives way */
	PROGRESS_MS = 1000, /* * REVIEWING at most this often */
	RETRY_MS = 200,     /* a position the workers' queue had no room for */
	TRIES = 2,          /* a position no worker answered this often: failed */
	OWNER_BIT = 62,     /* the jobs' owners, beside rooms' and ANALYSE's */
	WAITERS_MAX = 64,   /* connections waiting for one review */
};

struct waiter {
	LIST_ENTRY(waiter) link;
	struct conn *c;
};

/* A review under way: the game, each position's view so far, who waits. */
struct rjob {
	LIST_ENTRY(rjob) link;
	struct reviews *rv;
	int64_t game;
	uint64_t owner;
	rule_t rule;
	int size, n;
	move_t moves[RULES_CELLS];
	int over; /* the last move ended the game: seen[n] is known */
	review_seen_t end;
	review_seen_t *seen; /* n + 1 */
	int next;            /* the position searched now */
	int64_t job;         /* its bots job, 0: none */
	int64_t asked_us;    /* its start (metrics_now_us) */
	int64_t next_us;     /* the position's first submission; 0: not yet */
	int tries;
	int64_t told_ms; /* the last * REVIEWING */
	struct event *retry;
	int storing;
	int orphan; /* its module went while the store had it: freed on its answer */
	int nwaiters;
	LIST_HEAD(, waiter) waiters;
	char starter[PROTO_NAME_MAX + 1]; /* whose allowance it took */
	int private_room;
	char players[2][PROTO_NAME_MAX + 1];
	review_t result;
	char text[REVIEW_TEXT_MAX];
	int stored; /* the store took it */
};

struct reviews {
	struct server *srv;
	struct bots *pool;
	struct allowance *uses;
	LIST_HEAD(, rjob) jobs;
	int njobs;
	uint32_t serial;
	char said[160]; /* a refusal's words, read before the next request */
};

/* What a request read from the store: the game, and its review. */
struct query {
	struct reviews *rv;
	proto_id_t id; /* PR_REVIEW or PR_MARKS */
	char tag[PROTO_TAG_MAX + 1];
	int64_t game;
	int rc, down; /* the game's load: 0, STORE_NOT_FOUND, -1 */
	int have;     /* the review's get: 0, STORE_NOT_FOUND */
	store_game_t g;
	store_move_t moves[RULES_CELLS];
	char body[REVIEW_TEXT_MAX];
	review_t r; /* body read */
};

static void submit(struct rjob *j);

/* ---- who waits ---------------------------------------------------------- */

static void
tell(struct rjob *j, const proto_msg_t *m)
{
	struct waiter *w;
	LIST_FOREACH (w, &j->waiters, link)
		conn_send(w->c, m);
}

/* * REVIEWING: the positions searched so far of all. */
static void
progress_of(const struct rjob *j, proto_msg_t *m)
{
	proto_init(m, PE_REVIEWING, NULL);
	m->ident = j->game;
	m->count = j->next;
	m->count2 = j->n + 1;
}

static void
tell_progress(struct rjob *j)
{
	proto_msg_t m;
	progress_of(j, &m);
	j->told_ms = clock_now_ms();
	tell(j, &m);
}

static void
tell_end(struct rjob *j, int ok)
{
	proto_msg_t m;
	proto_init(&m, PE_REVIEWED, NULL);
	m.ident = j->game;
	m.reviewed = ok ? REVIEWED_OK : REVIEWED_FAILED;
	m.depth = ok ? j->result.plies : 0;
	m.count = ok ? j->result.nmarks : 0;
	tell(j, &m);
}

/* c waits for j (once): 0, or -1 when j has as many as it takes. */
static int
wait_for(struct rjob *j, struct conn *c)
{
	struct waiter *w;
	LIST_FOREACH (w, &j->waiters, link)
		if (w->c == c)
			return 0;
	if (j->nwaiters == WAITERS_MAX || !(w = calloc(1, sizeof *w)))
		return -1;
	w->c = c;
	LIST_INSERT_HEAD(&j->waiters, w, link);
	j->nwaiters++;
	return 0;
}

static void
job_free(struct rjob *j)
{
	while (!LIST_EMPTY(&j->waiters)) {
		struct waiter *w = LIST_FIRST(&j->waiters);
		LIST_REMOVE(w, link);
		free(w);
	}
	if (j->job)
		bots_cancel(j->rv->pool, j->job);
	if (j->retry)
		event_free(j->retry);
	if (!j->orphan) {
		LIST_REMOVE(j, link);
		j->rv->njobs--;
	}
	free(j->seen);
	free(j);
}

static struct rjob *
job_of(struct reviews *rv, int64_t game)
{
	struct rjob *j;
	LIST_FOREACH (j, &rv->jobs, link)
		if (j->game == game)
			return j;
	return NULL;
}

/* A connection goes: it waits for nothing now (its reviews go on). */
static void
conn_gone(void *arg, struct conn *c)
{
	struct reviews *rv = arg;
	struct rjob *j;
	LIST_FOREACH (j, &rv->jobs, link) {
		struct waiter *w, *next;
		for (w = LIST_FIRST(&j->waiters); w; w = next) {
			next = LIST_NEXT(w, link);
			if (w->c == c) {
				LIST_REMOVE(w, link);
				free(w);
				j->nwaiters--;
			}
		}
	}
}

/* ---- the searches ------------------------------------------------------- */

static void
fail(struct rjob *j)
{
	log_warn(&j->rv->srv->log, "review of game %lld failed at position %d of %d",
	    (long long)j->game, j->next, j->n + 1);
	allowance_give_back(j->rv->uses, j->starter, clock_now_ms()); /* not counted */
	metrics_review_done(j->rv->srv->metrics, 0, metrics_now_us() - j->asked_us);
	tell_end(j, 0);
	job_free(j);
}

/* On the store: the review kept. */
static void
store_run(struct store *st, void *arg)
{
	struct rjob *j = arg;
	j->stored = store_review_put(st, j->game, clock_now_ms() / 1000, j->text) == 0;
}

static void
store_back(void *arg, int cancelled)
{
	struct rjob *j = arg;
	if (j->orphan) {
		job_free(j);
		return;
	}
	if (cancelled || !j->stored) {
		fail(j);
		return;
	}
	metrics_review_done(j->rv->srv->metrics, 1, metrics_now_us() - j->asked_us);
	tell_end(j, 1);
	for (int i = 0; !j->private_room && i < j->result.nmarks; i++) /* puzzles */
		if (j->result.mark[i].kind == REVIEW_MISSED_WIN)
			puzzles_offer(j->rv->srv->puzzles, j->game, j->rule, j->size, j->moves,
			    j->n, j->result.mark[i].ply);
	job_free(j);
}

/* Every position seen: marked, then stored. */
static void
finish(struct rjob *j)
{
	if (review_mark(j->rule, j->size, j->moves, j->n, j->seen, winchance_of(j->rule),
		WINCHANCE_BLUNDER_DROP, &j->result) != 0 ||
	    review_text(&j->result, j->text, sizeof j->text) < 0) {
		fail(j);
		return;
	}
	tell_progress(j);
	j->storing = 1;
	if (archive_call(j->rv->srv, store_run, store_back, j) != 0)
		fail(j);
}

static void
done(uint64_t id, int status, const engine_result_t *r, void *arg)
{
	struct rjob *j = arg;
	(void)id;
	j->job = 0;
	if (status == BOTS_LOST) {
		if (++j->tries >= TRIES)
			fail(j);
		else
			submit(j);
		return;
	}
	review_seen_t *s = &j->seen[j->next];
	memset(s, 0, sizeof *s);
	s->best = MOVE_NONE;
	if (status == 0) {
		int64_t wait = metrics_now_us() - j->next_us - (int64_t)r->time_ms * 1000;
		metrics_observe(j->rv->srv->metrics, METRIC_REVIEW_WAIT, wait > 0 ? wait : 0);
		s->best = r->best;
		s->score = r->score;
		const char *why = r->reason[0] && r->reason[0] != ' ' ? r->reason : "positional";
		snprintf(s->reason, sizeof s->reason, "%.*s", (int)strcspn(why, " "), why);
		for (int k = 0; k < r->pvlen && k < REVIEW_LINE_MAX; k++)
			s->line[s->nline++] = r->pv[k];
		if (s->nline == 0) /* a remote worker's answer: the best alone */
			s->line[s->nline++] = r->best;
	}
	j->tries = 0;
	j->next++;
	j->next_us = 0;
	if (clock_now_ms() - j->told_ms >= PROGRESS_MS)
		tell_progress(j);
	submit(j);
}

static void
retry_cb(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	submit(arg);
}

/* The next position to the workers, or the end. */
static void
submit(struct rjob *j)
{
	struct reviews *rv = j->rv;
	if (j->next == j->n && j->over) {
		j->seen[j->n] = j->end;
		j->next++;
	}
	if (j->next > j->n) {
		finish(j);
		return;
	}
	bots_job_t b;
	memset(&b, 0, sizeof b);
	b.owner = j->owner;
	b.rule = j->rule;
	b.size = j->size;
	b.nmoves = j->next;
	memcpy(b.moves, j->moves, (size_t)j->next * sizeof *j->moves);
	b.level = 10;
	b.soft_ms = b.hard_ms = rv->srv->cfg.review_ms;
	b.nbest = 1;
	b.review = 1; /* behind the bots' moves; a remote answer has the line */
	b.seed = (uint32_t)(j->game * 31 + j->next);
	if (!j->next_us)
		j->next_us = metrics_now_us();
	int64_t id = bots_submit(rv->pool, &b, done, NULL, j);
	if (id > 0) {
		j->job = id;
		return;
	}
	/* every worker busy and the queue full: a review waits its turn */
	struct timeval tv = { 0, RETRY_MS * 1000 };
	if (!j->retry && !(j->retry = evtimer_new(rv->srv->base, retry_cb, j))) {
		fail(j);
		return;
	}
	evtimer_add(j->retry, &tv);
}

/* ---- requests ----------------------------------------------------------- */

static int
player_of(const char *name, const char *black, const char *white)
{
	return !strcasecmp(name, black) || !strcasecmp(name, white);
}

static const char *
no_game(void)
{
	return "no finished game with that id";
}

/* The refusals both requests share, once the game is read: 0 or a code. */
static int
refuse(struct conn *c, const struct query *q, const char **why)
{
	if (q->rc == STORE_NOT_FOUND) {
		*why = no_game();
		return ERR_ARGUMENT;
	}
	if (q->g.ended == 0) {
		*why = "that game is still being played";
		return ERR_IN_GAME;
	}
	if (q->g.private_room && !player_of(c->sess->name, q->g.black, q->g.white)) {
		*why = "that game was played in a private room you were not in";
		return ERR_PRIVATE_GAME;
	}
	return 0;
}

static void
query_run(struct store *st, void *arg)
{
	struct query *q = arg;
	q->rc = store_game_load(st, q->game, &q->g, q->moves);
	if (q->rc == 0 && q->g.ended)
		q->have = store_review_get(st, q->game, q->body, sizeof q->body);
	if (q->rc < 0 || q->have < 0) {
		q->rc = -1;
		q->down = store_unavailable(st);
	}
}

static void
send_marks(struct conn *c, const struct query *q, const review_t *r)
{
	proto_msg_t m;
	for (int i = 0; i <= r->plies; i += PROTO_VALS_MAX) {
		proto_init(&m, PD_EVAL, NULL);
		m.ident = q->game;
		m.depth = i;
		for (int k = i; k <= r->plies && m.nvals < PROTO_VALS_MAX; k++)
			m.vals[m.nvals++] = (int16_t)review_chance(
			    winchance_of(q->g.rule), r->score[k]);
		conn_send(c, &m);
	}
	for (int i = 0; i < r->nmarks; i++) {
		const review_mark_t *k = &r->mark[i];
		proto_init(&m, PD_MARK, NULL);
		m.ident = q->game;
		m.mark = k->kind == REVIEW_MISSED_WIN ? MARK_MISSED_WIN
		    : k->kind == REVIEW_BLUNDER       ? MARK_BLUNDER
						      : MARK_TURNING;
		m.side = k->side == STONE_BLACK ? SIDE_BLACK : SIDE_WHITE;
		m.plies = k->ply + 1;
		notation_format(k->played, q->g.size, m.move);
		if (k->better != MOVE_NONE)
			notation_format(k->better, q->g.size, m.move2);
		m.before = review_chance(winchance_of(q->g.rule), k->before);
		m.after = review_chance(winchance_of(q->g.rule), k->after);
		snprintf(m.word, sizeof m.word, "%s", k->reason[0] ? k->reason : "positional");
		for (int n = 0; n < k->nline && m.nmoves < PROTO_LIST_MAX; n++)
			notation_format(k->line[n], q->g.size, m.moves[m.nmoves++]);
		conn_send(c, &m);
	}
	proto_init(&m, PO_MARKS, q->tag[0] ? q->tag : NULL);
	m.ident = q->game;
	m.depth = r->plies;
	m.count = r->nmarks;
	conn_send(c, &m);
}

static int
reply_marks(struct conn *c, struct query *q, const char **why)
{
	if (q->have == STORE_NOT_FOUND) {
		*why = "that game has no review yet: REVIEW makes one";
		return ERR_NOT_REVIEWED;
	}
	if (review_read(q->body, q->g.size, &q->r) != 0) {
		log_error(&q->rv->srv->log, "game %lld: its stored review does not read",
		    (long long)q->game);
		return ERR_INTERNAL;
	}
	send_marks(c, q, &q->r);
	return 0;
}

static void
send_ok(struct conn *c, const char *tag, int64_t game)
{
	proto_msg_t m;
	proto_init(&m, PO_REVIEW, tag && tag[0] ? tag : NULL);
	m.ident = game;
	conn_send(c, &m);
}

/* A review to start for q's game, asked by c. */
static int
start(struct reviews *rv, struct conn *c, const struct query *q, const char **why)
{
	struct server *srv = rv->srv;
	int guest = c->sess->kind == SESSION_GUEST;
	int allowed = guest ? (srv->cfg.review_per_hour + 2) / 3 : srv->cfg.review_per_hour;
	int64_t now = clock_now_ms();
	int wait = allowance_check(rv->uses, c->sess->name, allowed, now);
	if (wait) {
		snprintf(rv->said, sizeof rv->said,
		    "%s may start %d review%s an hour; the next in %d min",
		    guest ? "a guest" : "an account", allowed, allowed == 1 ? "" : "s", wait);
		*why = rv->said;
		return ERR_OVER_LIMIT;
	}
	if (rv->njobs >= srv->cfg.review_queue) {
		*why = "the review queue is full; try again shortly";
		return ERR_SERVER_BUSY;
	}
	struct rjob *j = calloc(1, sizeof *j);
	if (!j || !(j->seen = calloc((size_t)q->g.nmoves + 1, sizeof *j->seen))) {
		free(j);
		return ERR_INTERNAL;
	}
	j->rv = rv;
	j->game = q->game;
	j->asked_us = metrics_now_us();
	j->owner = (uint64_t)1 << OWNER_BIT | ++rv->serial;
	j->rule = (rule_t)q->g.rule;
	j->size = q->g.size;
	j->n = q->g.nmoves;
	for (int i = 0; i < j->n; i++)
		j->moves[i] = q->moves[i].move;
	j->private_room = q->g.private_room;
	snprintf(j->players[0], sizeof j->players[0], "%s", q->g.black);
	snprintf(j->players[1], sizeof j->players[1], "%s", q->g.white);
	snprintf(j->starter, sizeof j->starter, "%s", c->sess->name);
	LIST_INIT(&j->waiters);
	LIST_INSERT_HEAD(&rv->jobs, j, link);
	rv->njobs++;
	j->over = review_end(j->rule, j->size, j->moves, j->n, &j->end);
	if (j->over < 0 || wait_for(j, c) != 0) {
		log_error(&srv->log, "game %lld: its moves do not replay", (long long)q->game);
		job_free(j);
		return ERR_INTERNAL;
	}
	allowance_take(rv->uses, c->sess->name, now);
	log_info(&srv->log, "review of game %lld (%d moves) for %s", (long long)j->game, j->n,
	    c->sess->name);
	send_ok(c, q->tag, q->game);
	tell_progress(j);
	submit(j);
	return 0;
}

/* c joins j, the review of its game under way. */
static int
join(struct rjob *j, struct conn *c, const char *tag, const char **why)
{
	if (j->private_room && !player_of(c->sess->name, j->players[0], j->players[1])) {
		*why = "that game was played in a private room you were not in";
		return ERR_PRIVATE_GAME;
	}
	if (wait_for(j, c) != 0) {
		*why = "too many wait for that review; try again shortly";
		return ERR_SERVER_BUSY;
	}
	send_ok(c, tag, j->game);
	proto_msg_t m;
	progress_of(j, &m);
	conn_send(c, &m);
	return 0;
}

static int
reply_review(struct conn *c, struct query *q, const char **why)
{
	struct reviews *rv = q->rv;
	if (q->have == 0) { /* made already */
		review_t *r = &q->r;
		if (review_read(q->body, q->g.size, r) != 0)
			return ERR_INTERNAL;
		send_ok(c, q->tag, q->game);
		proto_msg_t m;
		proto_init(&m, PE_REVIEWED, NULL);
		m.ident = q->game;
		m.reviewed = REVIEWED_OK;
		m.depth = r->plies;
		m.count = r->nmarks;
		conn_send(c, &m);
		return 0;
	}
	struct rjob *j = job_of(rv, q->game); /* begun while the store read */
	return j ? join(j, c, q->tag, why) : start(rv, c, q, why);
}

static int
query_reply(struct conn *c, void *arg, const char **why)
{
	struct query *q = arg;
	int rc = 0;
	if (!c)
		rc = 0;
	else if (q->rc < 0)
		rc = q->down ? ERR_STORE_DOWN : ERR_INTERNAL;
	else if ((rc = refuse(c, q, why)) != 0)
		;
	else if (q->id == PR_MARKS)
		rc = reply_marks(c, q, why);
	else
		rc = reply_review(c, q, why);
	free(q);
	return rc;
}

/* Fair play, before anything is read: nobody seated in an unfinished
 * game gets a review. */
static int
seated(struct reviews *rv, struct conn *c, const char **why)
{
	const char *own = session_playing(c->sess);
	if (!own)
		return 0;
	snprintf(rv->said, sizeof rv->said, "no review while you play a game (%s)", own);
	*why = rv->said;
	return ERR_IN_GAME;
}

int
reviews_ask(struct reviews *rv, struct conn *c, const proto_msg_t *m, const char **why)
{
	int rc = seated(rv, c, why);
	if (rc)
		return rc;
	struct rjob *j = m->id == PR_REVIEW ? job_of(rv, m->ident) : NULL;
	if (j)
		return join(j, c, m->tag, why);
	struct query *q = calloc(1, sizeof *q);
	if (!q)
		return ERR_INTERNAL;
	q->rv = rv;
	q->id = m->id;
	q->game = m->ident;
	snprintf(q->tag, sizeof q->tag, "%s", m->tag);
	return cmd_store(c, m->tag, query_run, query_reply, q, why);
}

struct reviews *
reviews_new(struct server *srv)
{
	if (!srv->botplay || !srv->store || srv->cfg.review_per_hour <= 0)
		return NULL;
	struct reviews *rv = calloc(1, sizeof *rv);
	if (!rv)
		return NULL;
	rv->srv = srv;
	rv->pool = botplay_bots(srv->botplay);
	LIST_INIT(&rv->jobs);
	if (!(rv->uses = allowance_new(USERS)) || conns_on_gone(srv, conn_gone, rv) != 0) {
		allowance_free(rv->uses);
		free(rv);
		return NULL;
	}
	return rv;
}

void
reviews_free(struct reviews *rv)
{
	if (!rv)
		return;
	/* a review being stored is the store's until its answer, which the
	 * store's stop drops (archive_call's cancelled) */
	while (!LIST_EMPTY(&rv->jobs)) {
		struct rjob *j = LIST_FIRST(&rv->jobs);
		if (!j->storing) {
			job_free(j);
			continue;
		}
		LIST_REMOVE(j, link);
		j->orphan = 1;
		while (!LIST_EMPTY(&j->waiters)) {
			struct waiter *w = LIST_FIRST(&j->waiters);
			LIST_REMOVE(w, link);
			free(w);
		}
	}
	allowance_free(rv->uses);
	free(rv);
}

int
reviews_running(const struct reviews *rv)
{
	return rv->njobs;
}
