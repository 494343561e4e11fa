/* analysis.c: ANALYSE on the bot workers, its fair play and allowances
 * (see analysis.h). */
#include "daemon/analysis.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/queue.h>

#include "daemon/allowance.h"
#include "daemon/archive.h"
#include "daemon/botplay.h"
#include "daemon/bots.h"
#include "daemon/clock.h"
#include "daemon/conn.h"
#include "daemon/core.h"
#include "daemon/room.h"
#include "daemon/session.h"

_Static_assert((int)PROTO_CANDS_MAX <= (int)ENGINE_MAX_NBEST, "the engine reports the lines asked");

enum {
	USERS = 1024, /* allowances kept; the stalest window gives way */
	NBEST = 3,    /* lines when the request names no number */
};

struct ajob {
	LIST_ENTRY(ajob) link;
	struct conn *c; /* NULL: it went while its position was checked */
	int64_t id;     /* the search's; 0 while the other nodes' games are checked */
	int size;
	char tag[PROTO_TAG_MAX + 1];
	bots_job_t job;
};

struct analysis {
	struct server *srv;
	struct bots *pool;
	LIST_HEAD(, ajob) jobs;
	struct allowance *uses;
	char said[128]; /* a refusal's words, read before the next request */
};

/* A running game with fewer stones than this is kept only from an
 * analysis of its position as it stands: its first stones are an opening
 * that many positions share. From this many on, a position that holds all
 * of its stones, each of its colour, is taken for its continuation. */
#define CONTINUATION_MIN 6

/* Whether p holds every stone of q, each of its colour, moved by the
 * board's symmetry k (rules_transform) and then by (dx, dy). */
static int
holds(const position_t *p, const position_t *q, int k, int dx, int dy)
{
	for (int i = 0; i < q->nmoves; i++) {
		move_t t = rules_transform(k, q->size, q->moves[i]);
		int x = rules_x(t) + dx, y = rules_y(t) + dy;
		if (x < 0 || y < 0 || x >= p->size || y >= p->size ||
		    p->cell[rules_move(x, y)] != q->cell[q->moves[i]])
			return 0;
	}
	return 1;
}

/* Whether p is q's position turned or mirrored, or (from
 * CONTINUATION_MIN stones of q's) holds it so turned or mirrored and
 * moved anywhere, on a board of any size. */
static int
same_game(const position_t *p, const position_t *q)
{
	for (int k = 0; k < 8; k++) {
		if (q->nmoves < CONTINUATION_MIN) { /* an opening many games share */
			if (p->size == q->size && holds(p, q, k, 0, 0))
				return 1;
			continue;
		}
		/* the image of q's first stone lands on a stone of p's, of its colour */
		move_t t = rules_transform(k, q->size, q->moves[0]);
		for (int j = 0; j < p->nmoves; j++) {
			move_t s = p->moves[j];
			if (p->cell[s] == q->cell[q->moves[0]] &&
			    holds(p, q, k, rules_x(s) - rules_x(t), rules_y(s) - rules_y(t)))
				return 1;
		}
	}
	return 0;
}

/* Whether p is q's game (a game under way) as running_game says. */
static int
matches(const position_t *p, const position_t *q)
{
	return q->nmoves > 0 && q->nmoves <= p->nmoves &&
	    (q->nmoves == p->nmoves || q->nmoves >= CONTINUATION_MIN) && same_game(p, q);
}

/* Whether p is the position of a game under way here, or (from
 * CONTINUATION_MIN stones) a continuation of one: its stones as they
 * stand, whatever the rule asked, also turned, mirrored or (from
 * CONTINUATION_MIN stones) moved. An empty board is no game's. */
static const char *
running_game(struct server *srv, const position_t *p)
{
	for (struct room *r = rooms_first(srv->rooms); r; r = rooms_next(r)) {
		if (room_unfinished(r) && matches(p, room_position(r)))
			return room_id(r);
	}
	return NULL;
}

static void
job_free(struct ajob *j)
{
	LIST_REMOVE(j, link);
	free(j);
}

/* The search's end, on the loop: OK ANALYSE, or why not. */
static void
done(uint64_t id, int status, const engine_result_t *r, void *arg)
{
	struct ajob *j = arg;
	struct conn *c = j->c;
	(void)id;
	if (status != 0) {
		conn_error(c, j->tag[0] ? j->tag : NULL,
		    status == BOTS_LOST ? ERR_SERVER_BUSY : ERR_INTERNAL,
		    status == BOTS_LOST ? "no bot worker answered; try again shortly"
					: "the engine found no move");
	} else {
		proto_msg_t m;
		proto_init(&m, PO_ANALYSE, j->tag[0] ? j->tag : NULL);
		m.count = r->depth;
		/* the engine's reason's first word: five, vcf, vct, positional... */
		const char *why = r->reason[0] && r->reason[0] != ' ' ? r->reason : "positional";
		snprintf(m.word, sizeof m.word, "%.*s", (int)strcspn(why, " "), why);
		for (int i = 0; i < r->ncand && m.ncands < PROTO_CANDS_MAX; i++) {
			notation_format(r->cand[i].move, j->size, m.cands[m.ncands].move);
			m.cands[m.ncands++].score = r->cand[i].score;
		}
		if (m.ncands == 0) { /* the best alone */
			notation_format(r->best, j->size, m.cands[0].move);
			m.cands[m.ncands++].score = r->score;
		}
		for (int i = 0; i < r->pvlen && m.nmoves < PROTO_LIST_MAX; i++)
			notation_format(r->pv[i], j->size, m.moves[m.nmoves++]);
		if (m.nmoves == 0) /* a remote worker's answer carries no line */
			notation_format(r->best, j->size, m.moves[m.nmoves++]);
		conn_send(c, &m);
	}
	job_free(j);
	conn_release(c);
}

/* c goes: its search is dropped. */
static void
conn_gone(void *arg, struct conn *c)
{
	struct analysis *a = arg;
	struct ajob *j;
	LIST_FOREACH (j, &a->jobs, link)
		if (j->c == c) {
			if (!j->id) { /* its check's answer frees it */
				j->c = NULL;
				return;
			}
			bots_cancel(a->pool, j->id);
			job_free(j);
			return;
		}
}

struct analysis *
analysis_new(struct server *srv)
{
	if (!srv->botplay || srv->cfg.analysis_per_hour <= 0)
		return NULL;
	struct analysis *a = calloc(1, sizeof *a);
	if (!a)
		return NULL;
	a->srv = srv;
	a->pool = botplay_bots(srv->botplay);
	LIST_INIT(&a->jobs);
	if (!(a->uses = allowance_new(USERS)) || conns_on_gone(srv, conn_gone, a) != 0) {
		allowance_free(a->uses);
		free(a);
		return NULL;
	}
	return a;
}

void
analysis_free(struct analysis *a)
{
	if (!a)
		return;
	while (!LIST_EMPTY(&a->jobs)) {
		struct ajob *j = LIST_FIRST(&a->jobs);
		if (j->id)
			bots_cancel(a->pool, j->id);
		job_free(j);
	}
	allowance_free(a->uses);
	free(a);
}

/* j's search on the workers: 0, or -1 when they are all busy. */
static int
submit(struct analysis *a, struct ajob *j)
{
	int64_t now = clock_now_ms();
	int64_t id = bots_submit(a->pool, &j->job, done, NULL, j);
	if (id <= 0)
		return -1;
	j->id = id;
	allowance_take(a->uses, j->c->sess->name, now);
	return 0;
}

/* The other nodes' games under way, read on the store thread one stone at
 * a time, each checked against the position asked. */
struct farcheck {
	struct analysis *a;
	struct ajob *j;
	position_t p; /* asked */
	position_t q; /* the game being read */
	int64_t game;
	char owner[STORE_OWNER_MAX + 1];
	char room[STORE_ROOM_MAX + 1], found[STORE_ROOM_MAX + 1];
	int rc;
};

static void
far_game_end(struct farcheck *f)
{
	if (f->game && !f->found[0] && matches(&f->p, &f->q))
		snprintf(f->found, sizeof f->found, "%s", f->room);
}

static void
far_stone(void *arg, int64_t game, const char *room, int size, move_t move)
{
	struct farcheck *f = arg;
	if (game != f->game) {
		far_game_end(f);
		f->game = game;
		snprintf(f->room, sizeof f->room, "%s", room);
		if (pos_init(&f->q, RULE_FREESTYLE, size) != 0)
			f->game = 0;
	}
	if (!f->game || f->q.nmoves >= f->q.size * f->q.size ||
	    !pos_on_board(&f->q, rules_x(move), rules_y(move)))
		return;
	/* black first, then in turn: the stones as they stand */
	f->q.cell[move] = f->q.nmoves % 2 ? STONE_WHITE : STONE_BLACK;
	f->q.moves[f->q.nmoves++] = move;
}

static void
far_run(store_t *st, void *arg)
{
	struct farcheck *f = arg;
	f->rc = store_open_stones(st, f->owner, far_stone, f) < 0 ? -1 : 0;
	far_game_end(f);
}

static void
far_back(void *arg, int cancelled)
{
	struct farcheck *f = arg;
	struct ajob *j = f->j;
	if (cancelled) { /* shutdown: analysis_free frees j */
		free(f);
		return;
	}
	struct conn *c = j->c;
	if (!c) { /* it went meanwhile */
		job_free(j);
		free(f);
		return;
	}
	char said[160];
	if (f->found[0]) {
		snprintf(said, sizeof said,
		    "that is the position of a game under way, or follows from it (%s)", f->found);
		conn_error(c, j->tag[0] ? j->tag : NULL, ERR_IN_GAME, "%s", said);
	} else if (f->rc != 0) { /* unchecked is not allowed */
		conn_error(c, j->tag[0] ? j->tag : NULL,
		    store_unavailable(f->a->srv->store) ? ERR_STORE_DOWN : ERR_INTERNAL,
		    "the games under way could not be read; try again");
	} else if (submit(f->a, j) == 0) {
		free(f);
		return; /* done() answers */
	} else {
		conn_error(c, j->tag[0] ? j->tag : NULL, ERR_SERVER_BUSY,
		    "every bot worker is busy; try again shortly");
	}
	job_free(j);
	conn_release(c);
	free(f);
}

int
analysis_ask(
    struct analysis *a, struct conn *c, const proto_msg_t *m, const position_t *p, const char **why)
{
	struct server *srv = a->srv;
	char *said = a->said;
	const char *own = session_playing(c->sess);
	if (own) {
		snprintf(said, sizeof a->said, "no analysis while you play a game (%s)", own);
		*why = said;
		return ERR_IN_GAME;
	}
	const char *running = running_game(srv, p);
	if (running) {
		snprintf(said, sizeof a->said,
		    "that is the position of a game under way, or follows from it (%s)", running);
		*why = said;
		return ERR_IN_GAME;
	}
	int nbest = m->count > 0 ? m->count : NBEST;
	if (nbest > PROTO_CANDS_MAX) { /* what a line of candidates holds */
		snprintf(said, sizeof a->said, "at most %d lines", PROTO_CANDS_MAX);
		*why = said;
		return ERR_ARGUMENT;
	}
	int64_t now = clock_now_ms();
	int allowed = c->sess->kind == SESSION_GUEST ? (srv->cfg.analysis_per_hour + 2) / 3
						     : srv->cfg.analysis_per_hour;
	int wait = allowance_check(a->uses, c->sess->name, allowed, now);
	if (wait) {
		snprintf(said, sizeof a->said, "%d analyses an hour%s; the next in %d min", allowed,
		    c->sess->kind == SESSION_GUEST ? " for a guest" : "", wait);
		*why = said;
		return ERR_OVER_LIMIT;
	}
	struct ajob *j = calloc(1, sizeof *j);
	if (!j) {
		*why = "out of memory";
		return ERR_INTERNAL;
	}
	bots_job_t *job = &j->job;
	job->owner = (uint64_t)1 << 63 | c->id; /* beside the rooms' owners */
	job->rule = (rule_t)p->rule;
	job->size = p->size;
	job->nmoves = p->nmoves;
	memcpy(job->moves, p->moves, (size_t)p->nmoves * sizeof *p->moves);
	job->level = 10;
	job->soft_ms = job->hard_ms = srv->cfg.analysis_ms;
	job->nbest = nbest;
	job->seed = (uint32_t)now;
	j->c = c;
	j->size = p->size;
	snprintf(j->tag, sizeof j->tag, "%s", m->tag);
	LIST_INSERT_HEAD(&a->jobs, j, link);
	/* a cluster's one database: the other nodes' games too, on the store
	 * thread, before the search */
	const char *me = archive_fence(srv);
	struct farcheck *f = me ? calloc(1, sizeof *f) : NULL;
	if (f) {
		f->a = a;
		f->j = j;
		f->p = *p;
		snprintf(f->owner, sizeof f->owner, "%s", me);
		if (archive_call(srv, far_run, far_back, f) == 0) {
			conn_hold(c, CONN_HELD);
			return 0;
		}
		free(f);
	}
	if (submit(a, j) != 0) {
		job_free(j);
		*why = "every bot worker is busy; try again shortly";
		return ERR_SERVER_BUSY;
	}
	conn_hold(c, CONN_HELD);
	return 0;
}
