/* puzzles.c: PUZZLE and SOLVE, the puzzles open on connections and the
 * offers being proven (see puzzles.h). */
#include "daemon/puzzles.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/queue.h>
#include <time.h>

#include "daemon/archive.h"
#include "daemon/clock.h"
#include "daemon/cmd.h"
#include "daemon/conn.h"
#include "daemon/core.h"
#include "daemon/glicko.h"
#include "daemon/room.h"
#include "daemon/session.h"
#include "daemon/store.h"
#include "engine/puzzle.h"

_Static_assert((int)STORE_PUZZLE_LINE_MAX == (int)PUZZLE_LINE_MAX, "a solution fits the store");

enum {
	PROVE_NODES = 4000000, /* the solvers' budget to make a puzzle */
	JUDGE_NODES = 1000000, /* and to judge a move */
	OFFERS_MAX = 8,        /* offers being proven at once; more are dropped */
	JUDGES_MAX = 32,       /* moves being judged at once: the workers' queue
				* (256) keeps room for logins' password checks */
	OWNER_BIT = 61,        /* the jobs' owners on srv->work */
};
#define DAILY_KEY "daily-puzzle"

/* The puzzle open on a connection, as it stands. */
struct open {
	LIST_ENTRY(open) link;
	struct conn *c;
	int64_t id;
	rule_t rule;
	int size;
	puzzle_class_t cls;
	int left;     /* plies the win may still take */
	int first, n; /* the puzzle's position is moves[0..first); played on to n */
	move_t moves[RULES_CELLS];
	int nline;
	move_t line[PUZZLE_LINE_MAX];
	double rating; /* the puzzle's, when opened */
	int ended;
	int64_t job;        /* a move being judged (srv->work), 0: none */
	int64_t guest_next; /* a guest's next puzzle number */
};

struct puzzles {
	struct server *srv;
	LIST_HEAD(, open) open;
	int offers;
	int judges; /* moves being judged */
	uint64_t serial;
	char said[96]; /* a refusal's words, read before the next request */
};

/* ---- making puzzles ----------------------------------------------------- */

/* An offer, proven on a worker, kept on the store. */
struct offer {
	struct puzzles *pz;
	store_puzzle_t p;
	int stored;
};

static void
offer_prove(workq_job_t *job, void *ctx, void *arg)
{
	struct offer *o = arg;
	store_puzzle_t *p = &o->p;
	(void)job;
	(void)ctx;
	static const puzzle_class_t classes[] = { PUZZLE_VCF, PUZZLE_VCT };
	for (int i = 0; i < 2; i++) {
		int r = puzzle_solution((rule_t)p->rule, p->size, p->moves, p->nmoves, classes[i],
		    puzzle_plies(classes[i]), PROVE_NODES, p->line, &p->nline);
		if (r >= PUZZLE_MIN_PLIES) {
			p->cls = classes[i];
			p->plies = r;
			return;
		}
		if (r > 0) /* a five in one: no puzzle */
			break;
	}
	p->plies = 0;
}

static void
offer_store_run(struct store *st, void *arg)
{
	struct offer *o = arg;
	int rc = store_puzzle_put(st, &o->p);
	o->stored = rc == 0 ? 1 : rc == STORE_EXISTS ? 2 : 0;
}

static void
offer_store_back(void *arg, int cancelled)
{
	struct offer *o = arg;
	if (!cancelled && o->stored == 1)
		log_info(&o->pz->srv->log,
		    "puzzle %lld made from game %lld, move %d (%s, %d plies)", (long long)o->p.id,
		    (long long)o->p.game_id, o->p.ply + 1, o->p.cls == PUZZLE_VCF ? "vcf" : "vct",
		    o->p.plies);
	else if (!cancelled && !o->stored)
		log_warn(&o->pz->srv->log, "puzzle of game %lld, move %d: the store refused it",
		    (long long)o->p.game_id, o->p.ply + 1);
	o->pz->offers--;
	free(o);
}

static void
offer_proven(int64_t id, int cancelled, void *arg)
{
	struct offer *o = arg;
	(void)id;
	if (cancelled || o->p.plies == 0 ||
	    archive_call(o->pz->srv, offer_store_run, offer_store_back, o) != 0) {
		o->pz->offers--;
		free(o);
	}
}

void
puzzles_offer(struct puzzles *pz, int64_t game, rule_t rule, int size, const move_t *moves,
    int nmoves, int ply)
{
	if (!pz || ply < 0 || ply > nmoves || ply > PROTO_LIST_MAX)
		return; /* OK PUZZLE's list holds the position whole, or no puzzle */
	if (pz->offers >= OFFERS_MAX) {
		log_warn(&pz->srv->log, "puzzle of game %lld, move %d: too many offers; dropped",
		    (long long)game, ply + 1);
		return;
	}
	struct offer *o = calloc(1, sizeof *o);
	if (!o)
		return;
	o->pz = pz;
	o->p.game_id = game;
	o->p.ply = ply;
	o->p.rule = (int)rule;
	o->p.size = size;
	o->p.nmoves = ply;
	memcpy(o->p.moves, moves, (size_t)ply * sizeof *moves);
	glicko_init(&o->p.g);
	o->p.made = clock_now_ms() / 1000;
	if (workq_submit(pz->srv->work, (uint64_t)1 << OWNER_BIT | ++pz->serial, offer_prove,
		offer_proven, NULL, o) <= 0) {
		free(o);
		return;
	}
	pz->offers++;
}

/* ---- the open puzzles --------------------------------------------------- */

static struct open *
open_of(struct puzzles *pz, struct conn *c)
{
	struct open *o;
	LIST_FOREACH (o, &pz->open, link)
		if (o->c == c)
			return o;
	return NULL;
}

static void
open_free(struct puzzles *pz, struct open *o)
{
	if (o->job)
		workq_cancel(pz->srv->work, o->job); /* its done frees the job alone */
	LIST_REMOVE(o, link);
	free(o);
}

static void
conn_gone(void *arg, struct conn *c)
{
	struct puzzles *pz = arg;
	struct open *o = open_of(pz, c);
	if (o)
		open_free(pz, o);
}

/* Fair play: nobody seated in an unfinished game gets puzzles. */
static int
seated(struct conn *c, const char **why, char *said, size_t n)
{
	const char *own = session_playing(c->sess);
	if (!own)
		return 0;
	snprintf(said, n, "no puzzles while you play a game (%s)", own);
	*why = said;
	return ERR_IN_GAME;
}

/* PUZZLE's read of the store. */
struct query {
	struct puzzles *pz;
	char tag[PROTO_TAG_MAX + 1];
	char name[PROTO_NAME_MAX + 1];
	int account;
	enum { Q_ID, Q_NEXT, Q_DAILY } what;
	int64_t id;         /* Q_ID: asked; after run: the puzzle's */
	int64_t guest_next; /* Q_NEXT of a guest: the number to take */
	int64_t day;        /* Q_DAILY: days since 1970 (UTC) */
	int rc, down;
	store_puzzle_t p;
};

static int
daily_id(struct store *st, struct query *q)
{
	char v[64];
	long long day, id;
	int rc = store_setting_get(st, DAILY_KEY, v, sizeof v);
	if (rc < 0)
		return -1;
	if (rc == 0 && sscanf(v, "%lld %lld", &day, &id) == 2 && day == q->day) {
		q->id = id;
		return 0;
	}
	int64_t n;
	if ((rc = store_puzzle_count(st, &n)) != 0 || n == 0)
		return rc < 0 ? -1 : STORE_NOT_FOUND;
	/* the day's: a number of its own, the same on every node */
	uint64_t k = ((uint64_t)q->day * 0x9e3779b97f4a7c15ull) >> 17;
	if ((rc = store_puzzle_nth(st, (int64_t)(k % (uint64_t)n), &q->id)) != 0)
		return rc;
	snprintf(v, sizeof v, "%lld %lld", (long long)q->day, (long long)q->id);
	return store_setting_put(st, DAILY_KEY, v) < 0 ? -1 : 0;
}

static void
query_run(struct store *st, void *arg)
{
	struct query *q = arg;
	int rc = 0;
	if (q->what == Q_DAILY) {
		rc = daily_id(st, q);
	} else if (q->what == Q_NEXT && q->account) {
		store_rating_t r;
		rc = store_rating_get(st, q->name, (rule_t)STORE_RULE_PUZZLE, &r);
		if (rc >= 0)
			rc = store_puzzle_pick(st, q->name, r.g.rating, &q->id);
	} else if (q->what == Q_NEXT) { /* a guest: the puzzles in turn */
		int64_t n;
		rc = store_puzzle_count(st, &n);
		if (rc == 0 && n == 0)
			rc = STORE_NOT_FOUND;
		if (rc == 0)
			rc = store_puzzle_nth(st, q->guest_next % n, &q->id);
	}
	if (rc == 0)
		rc = store_puzzle_get(st, q->id, &q->p);
	q->rc = rc;
	if (rc < 0)
		q->down = store_unavailable(st);
}

static int
query_reply(struct conn *c, void *arg, const char **why)
{
	struct query *q = arg;
	struct puzzles *pz = q->pz;
	int rc = 0;
	if (!c) {
		free(q);
		return 0;
	}
	if (q->rc < 0) {
		rc = q->down ? ERR_STORE_DOWN : ERR_INTERNAL;
	} else if (q->rc == STORE_NOT_FOUND) {
		*why = q->what == Q_ID   ? "no puzzle with that id"
		    : q->what == Q_DAILY ? "there are no puzzles yet"
					 : "no puzzle left for you";
		rc = q->what == Q_ID ? ERR_ARGUMENT : ERR_NO_PUZZLE;
	} else {
		struct open *o = open_of(pz, c);
		int64_t guest_next = o ? o->guest_next : 0;
		if (o)
			open_free(pz, o);
		if (!(o = calloc(1, sizeof *o))) {
			free(q);
			return ERR_INTERNAL;
		}
		o->c = c;
		o->id = q->p.id;
		o->rule = (rule_t)q->p.rule;
		o->size = q->p.size;
		o->cls = (puzzle_class_t)q->p.cls;
		o->left = puzzle_plies(o->cls);
		o->first = o->n = q->p.nmoves;
		memcpy(o->moves, q->p.moves, (size_t)o->n * sizeof *o->moves);
		o->nline = q->p.nline;
		memcpy(o->line, q->p.line, (size_t)o->nline * sizeof *o->line);
		o->rating = q->p.g.rating;
		o->guest_next = guest_next + (q->what == Q_NEXT && !q->account);
		LIST_INSERT_HEAD(&pz->open, o, link);
		proto_msg_t m;
		proto_init(&m, PO_PUZZLE, q->tag[0] ? q->tag : NULL);
		m.ident = o->id;
		m.rule = o->rule;
		m.size = o->size;
		m.pclass = o->cls == PUZZLE_VCF ? PCLASS_VCF : PCLASS_VCT;
		m.depth = q->p.plies;
		m.rating = (int64_t)(q->p.g.rating + 0.5);
		for (int i = 0; i < o->n && m.nmoves < PROTO_LIST_MAX; i++)
			notation_format(o->moves[i], o->size, m.moves[m.nmoves++]);
		conn_send(c, &m);
	}
	free(q);
	return rc;
}

int
puzzles_open(struct puzzles *pz, struct conn *c, const proto_msg_t *m, const char **why)
{
	int rc = seated(c, why, pz->said, sizeof pz->said);
	if (rc)
		return rc;
	struct query *q = calloc(1, sizeof *q);
	if (!q)
		return ERR_INTERNAL;
	q->pz = pz;
	snprintf(q->tag, sizeof q->tag, "%s", m->tag);
	snprintf(q->name, sizeof q->name, "%s", c->sess->name);
	q->account = c->sess->kind == SESSION_ACCOUNT;
	char *end;
	if (!strcmp(m->word, "next")) {
		q->what = Q_NEXT;
		struct open *o = open_of(pz, c);
		if (o)
			q->guest_next = o->guest_next;
		else /* a guest starts anywhere */
			q->guest_next = (int64_t)(c->id * 2654435761u % 1000003u);
	} else if (!strcmp(m->word, "daily")) {
		q->what = Q_DAILY;
		q->day = (int64_t)(time(NULL) / 86400);
	} else if (m->word[0] >= '1' && m->word[0] <= '9' &&
	    (q->id = strtoll(m->word, &end, 10)) > 0 && *end == '\0') {
		q->what = Q_ID;
	} else {
		free(q);
		*why = "PUZZLE next, daily or a puzzle's id";
		return ERR_ARGUMENT;
	}
	return cmd_store(c, m->tag, query_run, query_reply, q, why);
}

/* ---- solving ------------------------------------------------------------ */

/* A move judged on a worker: a copy of the position, so the open puzzle
 * may go meanwhile. */
struct judge {
	struct puzzles *pz;
	struct open *o; /* NULL once it went */
	char tag[PROTO_TAG_MAX + 1];
	rule_t rule;
	int size, n, left;
	puzzle_class_t cls;
	move_t moves[RULES_CELLS];
	move_t m;
	int verdict, reply_left;
	move_t reply;
};

static void
judge_run(workq_job_t *job, void *ctx, void *arg)
{
	struct judge *j = arg;
	(void)job;
	(void)ctx;
	j->verdict = puzzle_answer(j->rule, j->size, j->moves, j->n, j->cls, j->left, JUDGE_NODES,
	    j->m, &j->reply, &j->reply_left);
}

/* The end of a try, rated on the store for an account's first try. */
struct rate {
	char tag[PROTO_TAG_MAX + 1];
	char name[PROTO_NAME_MAX + 1];
	int64_t id;
	int solved;
	int rc, down, rated;
	store_rating_t player;
	int size, nline;
	move_t line[PUZZLE_LINE_MAX];
};

static void
rate_run(struct store *st, void *arg)
{
	struct rate *r = arg;
	store_puzzle_t p;
	int rc;
	if ((rc = store_begin(st)) != 0)
		goto out;
	rc = store_rating_get(st, r->name, (rule_t)STORE_RULE_PUZZLE, &r->player);
	if (rc >= 0)
		rc = store_puzzle_get(st, r->id, &p);
	if (rc == 0) {
		glicko_rate_game(&r->player.g, &p.g, r->solved ? 1.0 : 0.0, GLICKO_TAU);
		rc = store_puzzle_try(st, r->name, r->id, r->solved, clock_now_ms() / 1000, &p.g);
	}
	if (rc == 0) {
		r->player.wins += r->solved;
		r->player.losses += !r->solved;
		rc = store_rating_put(st, (rule_t)STORE_RULE_PUZZLE, &r->player);
	}
	if (rc == 0 && (rc = store_commit(st)) == 0) {
		r->rated = 1;
		goto out;
	}
	store_rollback(st);
	if (rc == STORE_EXISTS) /* tried before: not rated again */
		rc = 0;
out:
	r->rc = rc < 0 ? -1 : 0;
	if (rc < 0)
		r->down = store_unavailable(st);
}

static void
send_end(struct conn *c, const char *tag, int64_t id, int solved, const store_rating_t *player,
    int size, const move_t *line, int nline)
{
	proto_msg_t m;
	proto_init(&m, PO_SOLVE, tag && tag[0] ? tag : NULL);
	m.ident = id;
	m.solve = solved ? SOLVE_SOLVED : SOLVE_FAILED;
	m.ratings[0].value = -1;
	if (player) {
		m.ratings[0].value = (int64_t)(player->g.rating + 0.5);
		m.ratings[0].provisional = glicko_provisional(&player->g);
	}
	for (int i = 0; !solved && i < nline && m.nmoves < PROTO_LIST_MAX; i++)
		notation_format(line[i], size, m.moves[m.nmoves++]);
	conn_send(c, &m);
}

static int
rate_reply(struct conn *c, void *arg, const char **why)
{
	struct rate *r = arg;
	int rc = 0;
	(void)why;
	if (c && r->rc < 0)
		rc = r->down ? ERR_STORE_DOWN : ERR_INTERNAL;
	else if (c)
		send_end(c, r->tag, r->id, r->solved, r->rated ? &r->player : NULL, r->size,
		    r->line, r->nline);
	free(r);
	return rc;
}

/* o's try is over: rated (an account), then told. */
static void
end_try(struct open *o, const char *tag, int solved)
{
	struct conn *c = o->c;
	const char *why = NULL;
	o->ended = 1;
	if (c->sess->kind != SESSION_ACCOUNT) {
		send_end(c, tag, o->id, solved, NULL, o->size, o->line, o->nline);
		return;
	}
	struct rate *r = calloc(1, sizeof *r);
	if (!r) {
		conn_error(c, tag, ERR_INTERNAL, "out of memory");
		return;
	}
	snprintf(r->tag, sizeof r->tag, "%s", tag);
	snprintf(r->name, sizeof r->name, "%s", c->sess->name);
	r->id = o->id;
	r->solved = solved;
	r->size = o->size;
	r->nline = o->nline;
	memcpy(r->line, o->line, sizeof r->line);
	int rc = cmd_store(c, tag, rate_run, rate_reply, r, &why);
	if (rc)
		conn_error(c, tag, rc, "%s", why ? why : "the store failed");
}

static void
judge_done(int64_t id, int cancelled, void *arg)
{
	struct judge *j = arg;
	struct open *o = j->o;
	(void)id;
	j->pz->judges--;
	if (cancelled || !o) {
		free(j);
		return;
	}
	struct conn *c = o->c;
	o->job = 0;
	conn_release(c);
	if (j->verdict < 0) {
		conn_error(c, j->tag, ERR_INTERNAL, "the solvers could not judge that position");
	} else if (j->verdict == PUZZLE_HOLDS && j->reply != MOVE_NONE && o->n + 2 <= RULES_CELLS) {
		o->moves[o->n++] = j->m;
		o->moves[o->n++] = j->reply;
		o->left -= 2;
		proto_msg_t m;
		proto_init(&m, PO_SOLVE, j->tag[0] ? j->tag : NULL);
		m.ident = o->id;
		m.solve = SOLVE_MORE;
		notation_format(j->reply, o->size, m.move2);
		m.ratings[0].value = -1;
		conn_send(c, &m);
	} else {
		end_try(o, j->tag, j->verdict == PUZZLE_FIVE);
	}
	free(j);
}

int
puzzles_solve(struct puzzles *pz, struct conn *c, const proto_msg_t *m, const char **why)
{
	int rc = seated(c, why, pz->said, sizeof pz->said);
	if (rc)
		return rc;
	struct open *o = open_of(pz, c);
	if (!o || o->id != m->ident || o->ended) {
		*why = o && o->id == m->ident ? "that puzzle has ended; PUZZLE opens another"
					      : "open it first: PUZZLE <id>";
		return ERR_PHASE;
	}
	move_t mv;
	position_t p;
	if (notation_parse(m->move, o->size, &mv) != 0) {
		*why = "that point is off the board";
		return ERR_OFF_BOARD;
	}
	pos_init(&p, o->rule, o->size);
	for (int i = 0; i < o->n; i++)
		pos_play(&p, o->moves[i]);
	legality_t l = pos_check(&p, mv);
	if (l != LEGAL_OK) {
		*why = legality_name(l);
		return proto_err_of_legality(l);
	}
	if (pz->judges >= JUDGES_MAX) {
		*why = "every worker is busy; try again shortly";
		return ERR_SERVER_BUSY;
	}
	struct judge *j = calloc(1, sizeof *j);
	if (!j)
		return ERR_INTERNAL;
	j->pz = pz;
	j->o = o;
	snprintf(j->tag, sizeof j->tag, "%s", m->tag);
	j->rule = o->rule;
	j->size = o->size;
	j->n = o->n;
	j->left = o->left;
	j->cls = o->cls;
	memcpy(j->moves, o->moves, (size_t)o->n * sizeof *o->moves);
	j->m = mv;
	int64_t id = workq_submit(
	    pz->srv->work, (uint64_t)1 << (OWNER_BIT + 1) | c->id, judge_run, judge_done, NULL, j);
	if (id <= 0) {
		free(j);
		*why = "every worker is busy; try again shortly";
		return ERR_SERVER_BUSY;
	}
	o->job = id;
	pz->judges++;
	conn_hold(c, CONN_HELD);
	return 0;
}

struct puzzles *
puzzles_new(struct server *srv)
{
	if (!srv->store || !srv->work)
		return NULL;
	struct puzzles *pz = calloc(1, sizeof *pz);
	if (!pz)
		return NULL;
	pz->srv = srv;
	LIST_INIT(&pz->open);
	if (conns_on_gone(srv, conn_gone, pz) != 0) {
		free(pz);
		return NULL;
	}
	return pz;
}

void
puzzles_free(struct puzzles *pz)
{
	if (!pz)
		return;
	/* after the workers and the store thread: every job's done has come */
	while (!LIST_EMPTY(&pz->open)) {
		struct open *o = LIST_FIRST(&pz->open);
		LIST_REMOVE(o, link);
		free(o);
	}
	free(pz);
}
