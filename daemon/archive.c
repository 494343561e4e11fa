/* archive.c: games to and from the store (see archive.h). */
#include "daemon/archive.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <event2/event.h>

#include "daemon/auth.h"
#include "daemon/metrics.h"
#include "daemon/core.h"
#include "daemon/store.h"

/* The row of a game that starts, as the store keeps it. */
static void
game_row(struct server *srv, const struct archive_game *a, store_game_t *g)
{
	memset(g, 0, sizeof *g);
	snprintf(g->room, sizeof g->room, "%s", a->room);
	g->rule = a->spec.rule;
	g->size = a->spec.size;
	g->opening = a->spec.opening;
	g->rated = a->spec.rated;
	g->tc_base = a->spec.tc_base;
	g->tc_inc = a->spec.tc_inc;
	g->private_room = a->private_room;
	snprintf(g->code, sizeof g->code, "%s", a->code);
	g->opening_plies = a->opening_plies;
	g->tpair = a->tpair;
	snprintf(g->black, sizeof g->black, "%s", a->names[0]);
	snprintf(g->white, sizeof g->white, "%s", a->names[1]);
	g->started = (int64_t)time(NULL);
	snprintf(g->owner, sizeof g->owner, "%s", srv->cfg.node_name);
}

/* What the config says of ratings, as the writes carry it (a store
 * thread's job too): RATE_BOTS (rate-bots: the server's own levels keep
 * ratings), RATE_BOTACCT_HALF (rate-bot-accounts half). */
enum { RATE_BOTS = 1, RATE_BOTACCT_HALF = 2 };

static int
rating_policy(const struct config *c)
{
	return (c->rate_bots ? RATE_BOTS : 0) | (c->rate_bot_accounts ? RATE_BOTACCT_HALF : 0);
}

/* Accounts are rated, bot accounts too; the server's bots only when the
 * config says so (rate-bots). rate_bots holds the policy's flags. */
static int
rated_player(int rate_bots, enum archive_player p)
{
	return p == PLAYER_ACCOUNT || p == PLAYER_BOTACCT ||
	    (p == PLAYER_BOT && (rate_bots & RATE_BOTS));
}

/* A person against a bot account (PROTOCOL.md 5.22): -1 when the policy
 * rates no such game, the person's seat (0 black, 1 white) when it does,
 * with that side's change halved; 2 for any other pair. */
static int
mixed_seat(int rate_bots, const enum archive_player p[2])
{
	for (int i = 0; i < 2; i++)
		if (p[i] == PLAYER_ACCOUNT && p[1 - i] == PLAYER_BOTACCT)
			return (rate_bots & RATE_BOTACCT_HALF) ? i : -1;
	return 2;
}

/* A rating as the wire says it: rounded, within the protocol's 0..9999
 * (Glicko-2 leaves it only after thousands of one-sided games). */
static int
rounded(double rating)
{
	return rating < 0 ? 0 : rating > 9999 ? 9999 : (int)(rating + 0.5);
}

/* Both seats' ratings for the game's rule as st has them: 0, or -1 when
 * the store refused. */
static int
ratings_of(store_t *st, int rate_bots, const struct archive_game *a, struct archive_rating out[2])
{
	for (int i = 0; i < 2; i++) {
		store_rating_t r;
		out[i].value = -1;
		out[i].provisional = 0;
		if (!rated_player(rate_bots, a->players[i]))
			continue;
		if (store_rating_get(st, a->names[i], a->spec.rule, &r) < 0)
			return -1;
		out[i].value = rounded(r.g.rating);
		out[i].provisional = glicko_provisional(&r.g);
	}
	return 0;
}

int
archive_begin(
    struct server *srv, const struct archive_game *a, int64_t *id, struct archive_rating rating[2])
{
	store_t *st = srv->store;
	store_game_t g;

	*id = 0;
	for (int i = 0; i < 2; i++)
		rating[i] = (struct archive_rating){ -1, 0 };
	if (st == NULL)
		return 0;
	game_row(srv, a, &g);
	if (ratings_of(st, rating_policy(&srv->cfg), a, rating) != 0 ||
	    store_game_begin(st, &g) != 0) {
		log_error(
		    &srv->log, "room %s: cannot store the game: %s", a->room, store_error(st));
		return -1;
	}
	*id = g.id;
	return 0;
}

static int end_game(
    store_t *st, int rate_bots, const struct archive_game *a, struct archive_change *change);

const char *
archive_fence(struct server *srv)
{
	return srv->cfg.cluster_host[0] && srv->storeq ? srv->cfg.node_name : NULL;
}

/*
 * A write's transaction: its own (BEGIN ... COMMIT), or, nested inside a
 * group transaction of the store thread (move_batch_run), a savepoint of
 * its own, so that a refused write rolls back itself alone and the group
 * goes on. The writes below take nested and are the same code either way.
 */
static int
tx_begin(store_t *st, int nested)
{
	return nested ? store_savepoint(st) : store_begin(st);
}

static int
tx_commit(store_t *st, int nested)
{
	return nested ? store_release(st) : store_commit(st);
}

static void
tx_rollback(store_t *st, int nested)
{
	if (nested)
		store_rollback_to(st);
	else
		store_rollback(st);
}

/* The stones (and the end) in one transaction on st (nested: a savepoint
 * in the caller's): 0, -1, or 1 when fenced (another node owns the game:
 * nothing written). With owner (a cluster's shared database) each write is
 * fenced: a lone move in its one statement (store_game_move_owned), a
 * transaction by its first (store_game_fence), the game's row locked until
 * it commits. */
static int
moves_on(store_t *st, int nested, int rate_bots, const char *owner, int64_t id, int first,
    const struct archive_move *mv, int n, const struct archive_game *end,
    struct archive_change *change)
{
	int alone = n == 1 && !end, rc; /* one row is a transaction of its own */
	if (alone) {
		/* in a group, even one statement has its savepoint: its error
		 * would abort the others' transaction */
		if (nested && store_savepoint(st) != 0)
			return -1;
		store_move_t m = { mv[0].move, mv[0].used_ms, mv[0].black_ms, mv[0].white_ms };
		rc = owner ? store_game_move_owned(st, id, first, &m, owner)
			   : store_game_move(st, id, first, &m);
		rc = rc == 0 ? 0 : owner && rc == STORE_NOT_FOUND ? 1 : -1;
		if (nested && rc == 0 && store_release(st) != 0)
			rc = -1;
		if (nested && rc != 0)
			store_rollback_to(st);
		return rc;
	}
	if (tx_begin(st, nested) != 0)
		goto fail;
	if (owner && (rc = store_game_fence(st, id, owner)) != 0) {
		tx_rollback(st, nested);
		return rc == STORE_NOT_FOUND ? 1 : -1;
	}
	for (int i = 0; i < n; i++) {
		store_move_t m = { mv[i].move, mv[i].used_ms, mv[i].black_ms, mv[i].white_ms };
		if ((i > 0 && store_fault(st, "before", "next stone") != 0) ||
		    store_game_move(st, id, first + i, &m) != 0)
			goto fail;
	}
	if ((end && end_game(st, rate_bots, end, change) != 0) || tx_commit(st, nested) != 0)
		goto fail;
	return 0;
fail:
	tx_rollback(st, nested);
	if (change)
		change->changed = 0;
	return -1;
}

int
archive_moves(struct server *srv, int64_t id, int first, const struct archive_move *mv, int n,
    const struct archive_game *end)
{
	store_t *st = srv->store;

	if (st == NULL || id == 0)
		return 0;
	int64_t t0 = metrics_now_us();
	struct archive_change change = { 0 };
	if (moves_on(st, 0, rating_policy(&srv->cfg), archive_fence(srv), id, first, mv, n, end,
		end ? &change : NULL) != 0) {
		log_error(&srv->log, "game %lld: cannot store %s: %s", (long long)id,
		    n > 1 ? "the stones" : "a move", store_error(st));
		return -1;
	}
	metrics_observe(srv->metrics, METRIC_STORE_COMMIT, metrics_now_us() - t0);
	if (end && end->change)
		*end->change = change;
	return 0;
}

/* What a write for the store thread writes. */
enum write_kind { JOB_MOVES, JOB_TRUNCATE, JOB_COLOURS };

/* Begins a transaction fenced for owner (NULL: no fence, nothing begun
 * unless nested, where the write gets its savepoint all the same): 0, 1
 * when another node owns the game (rolled back), or -1. */
static int
fenced_begin(store_t *st, int nested, const char *owner, int64_t id)
{
	if (!owner && !nested)
		return 0;
	int rc = -1;
	if (tx_begin(st, nested) == 0 && (!owner || (rc = store_game_fence(st, id, owner)) == 0))
		return 0;
	tx_rollback(st, nested);
	return rc == STORE_NOT_FOUND ? 1 : -1;
}

/* Commits what fenced_begin began after a write that returned rc: 0, or
 * -1 (rolled back). */
static int
fenced_commit(store_t *st, int nested, const char *owner, int rc)
{
	if (!owner && !nested)
		return rc == 0 ? 0 : -1;
	if (rc == 0 && tx_commit(st, nested) == 0)
		return 0;
	tx_rollback(st, nested);
	return -1;
}

/* An undo (the first plies kept) or an opening's act (first: the
 * opening's plies, -1 while it goes on; its log) on st, fenced for owner
 * (nested: a savepoint in the caller's transaction): 0, 1 (fenced: nothing
 * written), -1. */
static int
game_write(store_t *st, int nested, const char *owner, enum write_kind kind, int64_t id, int first,
    const char *black, const char *white, const char *log)
{
	int rc = fenced_begin(st, nested, owner, id);
	if (rc != 0)
		return rc;
	rc = kind == JOB_TRUNCATE ? store_game_truncate(st, id, first)
				  : store_game_colours(st, id, black, white, first, log);
	return fenced_commit(st, nested, owner, rc);
}

/* A write for the store thread: the values copied, the answer filled in. */
struct move_job {
	struct server *srv;
	enum write_kind kind;
	int64_t id;
	int first, n;  /* truncate: first is the plies kept; colours: the opening's */
	int rate_bots; /* the config's, copied: a reload may change it meanwhile */
	int fenced;
	char owner[CONFIG_NODE_MAX + 1];
	struct archive_move mv[3];
	int has_end;
	struct archive_game end;          /* its strings point into the copies below */
	struct archive_change *change_to; /* the caller's end->change, filled on the loop */
	struct archive_change change;     /* what the end did, on the store thread */
	char room[PROTO_ROOM_MAX + 1], code[PROTO_CODE_MAX + 1];
	char names[2][PROTO_NAME_MAX + 1];
	char log[STORE_OPENING_LOG_MAX + 1]; /* colours: the opening's log */
	int rc, unavailable;
	int64_t us; /* the transaction's time */
	int batch;  /* the first write of a group: how many it had; else 0 */
	char err[256];
	archive_done_fn done;
	void *arg;
	struct move_job *next; /* SQLite: the next write of this loop turn */
};

/* SQLite's writes of a loop turn, in the order asked, committed by flush
 * once the turn's events have all run. */
struct loopq {
	struct event *flush;
	struct move_job *head, **tail;
};

int
archive_async(struct server *srv)
{
	return srv->storeq != NULL;
}

/* A refused write's answer: why, from the store's last failure. */
static void
refused(store_t *st, struct move_job *j, int rc)
{
	j->rc = rc;
	j->unavailable = store_unavailable(st);
	snprintf(j->err, sizeof j->err, "%s", store_error(st));
}

/* On the store thread: one write, alone or nested in a group transaction;
 * its answer in j. */
static void
write_one(store_t *st, int nested, struct move_job *j)
{
	const char *owner = j->fenced ? j->owner : NULL;
	if (j->kind == JOB_MOVES)
		j->rc = moves_on(st, nested, j->rate_bots, owner, j->id, j->first, j->mv, j->n,
		    j->has_end ? &j->end : NULL, j->has_end ? &j->change : NULL);
	else
		j->rc = game_write(
		    st, nested, owner, j->kind, j->id, j->first, j->names[0], j->names[1], j->log);
	if (j->rc != 0)
		refused(st, j, j->rc);
}

/*
 * On the store thread, with its own connection: the writes queued next to
 * each other (workq_submit_batch), many rooms' at once. One alone is its
 * own transaction, as ever. More are one group transaction: each write a
 * savepoint in it (a refused or fenced write rolls back itself alone and
 * gets its own refusal), then one COMMIT for all; when that COMMIT fails,
 * every write of the group is refused, nothing of it being on disk. Their
 * done callbacks come on the loop after the COMMIT, in queue order, so
 * events still follow their commit. A PostgreSQL commit waits on the WAL's
 * flush, and the writes are a few statements each: a group shares that
 * wait, which bounds a node's moves per second when it is one at a time.
 * A group is at most WORKQ_BATCH_MAX (64) writes: PostgreSQL keeps 64
 * subtransactions (savepoints that wrote) of a backend in its shared
 * cache, and more would slow every other session's snapshots.
 */
static void
move_batch_run(void *ctx, void *const *args, int n)
{
	store_t *st = ctx;
	int64_t t0 = metrics_now_us();
	struct move_job *first = args[0];
	first->batch = n;
	if (n == 1)
		write_one(st, 0, first);
	else {
		int begun = store_begin(st) == 0;
		for (int i = 0; begun && i < n; i++)
			write_one(st, 1, args[i]);
		if (!begun || store_commit(st) != 0) /* none of it is on disk */
			for (int i = 0; i < n; i++)
				refused(st, args[i], -1);
	}
	int64_t us = metrics_now_us() - t0; /* what each write waited for its commit */
	for (int i = 0; i < n; i++)
		((struct move_job *)args[i])->us = us;
}

/* Back on the loop: the room hears the answer. */
static void
move_job_done(int64_t id, int cancelled, void *arg)
{
	struct move_job *j = arg;
	struct server *srv = j->srv;
	(void)id;
	if (cancelled) { /* shutdown: the room is going away */
		free(j);
		return;
	}
	if (j->batch > 0)
		metrics_store_batch(srv->metrics, j->batch);
	game_err_t e = GERR_OK;
	if (j->rc != 0) {
		log_error(&srv->log, "game %lld: cannot store %s: %s", (long long)j->id,
		    j->kind == JOB_TRUNCATE      ? "an undo"
			: j->kind == JOB_COLOURS ? "the colours"
			: j->n > 1               ? "the stones"
			: j->n == 1              ? "a move"
						 : "the result",
		    j->err);
		e = j->rc > 0 ? GERR_FENCED : j->unavailable ? GERR_STORE_DOWN : GERR_STORE;
	} else {
		metrics_observe(srv->metrics, METRIC_STORE_COMMIT, j->us);
		if (j->change_to)
			*j->change_to = j->change;
	}
	j->done(j->arg, e);
	free(j);
}

/*
 * SQLite, at the end of a loop turn (its event was made active by the
 * turn's first write, so it runs after every event already active: the
 * requests read together are one group): the writes as move_batch_run
 * writes a group, each a savepoint in one transaction, on the loop; then
 * each room hears its answer, in the order asked. A write asked while the
 * answers run (a bot's next move) waits for the next turn.
 */
static void
loopq_flush(evutil_socket_t fd, short what, void *arg)
{
	struct server *srv = arg;
	struct loopq *q = srv->loopq;
	struct move_job *list = q->head, *j;
	int n = 0;
	(void)fd;
	(void)what;
	q->head = NULL;
	q->tail = &q->head;
	for (j = list; j; j = j->next)
		n++;
	if (n == 0)
		return;
	int64_t t0 = metrics_now_us();
	list->batch = n;
	if (n == 1) {
		write_one(srv->store, 0, list);
	} else {
		int begun = store_begin(srv->store) == 0;
		for (j = list; begun && j; j = j->next)
			write_one(srv->store, 1, j);
		if (!begun || store_commit(srv->store) != 0) /* none of it is on disk */
			for (j = list; j; j = j->next)
				refused(srv->store, j, -1);
	}
	int64_t us = metrics_now_us() - t0;
	while ((j = list)) {
		list = j->next;
		j->us = us;
		move_job_done(0, 0, j);
	}
}

int
archive_writes_async(struct server *srv)
{
	return srv->storeq != NULL || srv->loopq != NULL;
}

/* Queues j for the store thread (or SQLite's loop turn), its answer to
 * done(arg); frees j when it cannot. */
static int
queue_write(struct server *srv, struct move_job *j, archive_done_fn done, void *arg)
{
	j->srv = srv;
	j->done = done;
	j->arg = arg;
	if (archive_fence(srv)) { /* every kind of write, as on the loop */
		j->fenced = 1;
		snprintf(j->owner, sizeof j->owner, "%s", archive_fence(srv));
	}
	if (!srv->storeq) {
		struct loopq *q = srv->loopq;
		if (!q) {
			free(j);
			return -1;
		}
		if (!q->head)
			event_active(q->flush, EV_TIMEOUT, 0);
		*q->tail = j;
		q->tail = &j->next;
		return 0;
	}
	/* one store thread, first come first served: commits keep the order of
	 * the requests across rooms. The writes queued next to each other go
	 * in one group transaction (move_batch_run). The grouping is workq's,
	 * not a queue of archive.c's own: the queue, its order, its one job
	 * per room, its cancelling at shutdown and its way back to the loop
	 * are workq's already, and a second queue would have them twice; a
	 * group never passes a job of another kind (a game's start, a
	 * lookup), so every write still runs in the order it was asked. */
	if (workq_submit_batch(
		srv->storeq, (uint64_t)(uintptr_t)arg, move_batch_run, move_job_done, j) < 0) {
		free(j);
		return -1;
	}
	return 0;
}

int
archive_moves_async(struct server *srv, int64_t id, int first, const struct archive_move *mv, int n,
    const struct archive_game *end, archive_done_fn done, void *arg)
{
	struct move_job *j = calloc(1, sizeof *j);
	if (!j || n < 0 || n > 3) {
		free(j);
		return -1;
	}
	j->rate_bots = rating_policy(&srv->cfg);
	j->id = id;
	j->first = first;
	j->n = n;
	if (n > 0)
		memcpy(j->mv, mv, (size_t)n * sizeof *mv);
	if (end) {
		j->has_end = 1;
		j->end = *end;
		snprintf(j->room, sizeof j->room, "%s", end->room);
		snprintf(j->code, sizeof j->code, "%s", end->code ? end->code : "");
		for (int i = 0; i < 2; i++) {
			snprintf(j->names[i], sizeof j->names[i], "%s", end->names[i]);
			j->end.names[i] = j->names[i];
		}
		j->end.room = j->room;
		j->end.code = j->code;
		j->change_to = end->change;
		j->end.change = NULL; /* the store thread writes j->change */
	}
	return queue_write(srv, j, done, arg);
}

int
archive_truncate_async(struct server *srv, int64_t id, int nmoves, archive_done_fn done, void *arg)
{
	struct move_job *j = calloc(1, sizeof *j);
	if (!j)
		return -1;
	j->kind = JOB_TRUNCATE;
	j->id = id;
	j->first = nmoves;
	return queue_write(srv, j, done, arg);
}

int
archive_colours_async(struct server *srv, int64_t id, const char *black, const char *white,
    int opening_plies, const char *log, archive_done_fn done, void *arg)
{
	struct move_job *j = calloc(1, sizeof *j);
	if (!j)
		return -1;
	j->kind = JOB_COLOURS;
	j->id = id;
	j->first = opening_plies;
	snprintf(j->log, sizeof j->log, "%s", log ? log : "");
	snprintf(j->names[0], sizeof j->names[0], "%s", black);
	snprintf(j->names[1], sizeof j->names[1], "%s", white);
	return queue_write(srv, j, done, arg);
}

/* A game's row for the store thread: the values copied, the answer
 * filled in. */
struct begin_job {
	struct server *srv;
	store_game_t g;
	int rate_bots;
	enum archive_player players[2];
	struct archive_rating rating[2];
	int rc, unavailable;
	char err[256];
	archive_begun_fn done;
	void *arg;
};

static void
begin_run(workq_job_t *job, void *ctx, void *arg)
{
	struct begin_job *j = arg;
	store_t *st = ctx;
	(void)job;
	struct archive_game a = { 0 };
	a.names[0] = j->g.black;
	a.names[1] = j->g.white;
	a.players[0] = j->players[0];
	a.players[1] = j->players[1];
	a.spec.rule = (rule_t)j->g.rule;
	if ((j->rc = ratings_of(st, j->rate_bots, &a, j->rating)) != 0 ||
	    (j->rc = store_game_begin(st, &j->g)) != 0) {
		j->unavailable = store_unavailable(st);
		snprintf(j->err, sizeof j->err, "%s", store_error(st));
	}
}

static void
begin_done(int64_t id, int cancelled, void *arg)
{
	struct begin_job *j = arg;
	(void)id;
	if (cancelled) { /* shutdown: the room is going away */
		free(j);
		return;
	}
	game_err_t e = GERR_OK;
	if (j->rc != 0) {
		log_error(&j->srv->log, "room %s: cannot store the game: %s", j->g.room, j->err);
		e = j->unavailable ? GERR_STORE_DOWN : GERR_STORE;
	}
	j->done(j->arg, e, e == GERR_OK ? j->g.id : 0, j->rating);
	free(j);
}

int
archive_begin_async(
    struct server *srv, const struct archive_game *g, archive_begun_fn done, void *arg)
{
	struct begin_job *j = calloc(1, sizeof *j);
	if (!j)
		return -1;
	j->srv = srv;
	game_row(srv, g, &j->g);
	j->rate_bots = rating_policy(&srv->cfg);
	j->players[0] = g->players[0];
	j->players[1] = g->players[1];
	j->done = done;
	j->arg = arg;
	/* the one store thread: in order with the moves and every other write */
	if (workq_submit(srv->storeq, (uint64_t)(uintptr_t)arg, begin_run, begin_done, NULL, j) <
	    0) {
		free(j);
		return -1;
	}
	return 0;
}

struct lookup_job {
	struct archive_lookup l;
	void (*done)(void *arg, const struct archive_lookup *l);
	void *arg;
};

static void
lookup_run(workq_job_t *job, void *ctx, void *arg)
{
	struct lookup_job *j = arg;
	store_t *st = ctx;
	char digest[AUTH_DIGEST_LEN + 1], spelled[STORE_NAME_MAX + 1], hash[AUTH_HASH_MAX];
	(void)job;
	auth_token_digest(j->l.token, digest);
	j->l.found = store_session_get(st, digest, (int64_t)time(NULL), j->l.name) == 0 &&
	    j->l.name[0];
	j->l.account = j->l.found && store_user_get(st, j->l.name, spelled, hash, sizeof hash) == 0;
	int64_t since = 0;
	if (j->l.account && store_user_bot(st, j->l.name, &since) == 0 && since)
		j->l.account = 2;
}

static void
lookup_done(int64_t id, int cancelled, void *arg)
{
	struct lookup_job *j = arg;
	(void)id;
	j->done(j->arg, cancelled ? NULL : &j->l);
	free(j);
}

int
archive_lookup_async(struct server *srv, const char *token,
    void (*done)(void *arg, const struct archive_lookup *l), void *arg)
{
	struct lookup_job *j = calloc(1, sizeof *j);
	if (!j || strlen(token) >= sizeof j->l.token) {
		free(j);
		return -1;
	}
	snprintf(j->l.token, sizeof j->l.token, "%s", token);
	j->done = done;
	j->arg = arg;
	if (workq_submit(srv->storeq, (uint64_t)(uintptr_t)j, lookup_run, lookup_done, NULL, j) <
	    0) {
		free(j);
		return -1;
	}
	return 0;
}

struct call_job {
	archive_run_fn run;
	void (*back)(void *arg, int cancelled);
	void *arg;
};

static void
call_run(workq_job_t *job, void *ctx, void *arg)
{
	struct call_job *j = arg;
	(void)job;
	j->run(ctx, j->arg);
}

static void
call_done(int64_t id, int cancelled, void *arg)
{
	struct call_job *j = arg;
	(void)id;
	j->back(j->arg, cancelled);
	free(j);
}

int
archive_call(
    struct server *srv, archive_run_fn run, void (*back)(void *arg, int cancelled), void *arg)
{
	if (!archive_async(srv)) {
		run(srv->store, arg);
		back(arg, 0);
		return 0;
	}
	struct call_job *j = calloc(1, sizeof *j);
	if (!j)
		return -1;
	j->run = run;
	j->back = back;
	j->arg = arg;
	/* the one store thread: in order with the moves and every other call */
	if (workq_submit(srv->storeq, (uint64_t)(uintptr_t)j, call_run, call_done, NULL, j) < 0) {
		free(j);
		return -1;
	}
	return 0;
}

/* The store thread's connection: its own, opened at start. */
static void *
store_ctx_new(void *arg)
{
	struct server *srv = arg;
	store_t *st = NULL;
	char err[600];
	if (store_open(store_path(srv->store), &st, err, sizeof err) != 0) {
		log_error(&srv->log, "database (store thread): %s", err);
		return NULL;
	}
	return st;
}

static void
store_ctx_free(void *ctx)
{
	store_close(ctx);
}

int
archive_start(struct server *srv)
{
	if (!srv->store)
		return 0;
	if (!store_is_remote(store_path(srv->store))) {
		/* SQLite commits on the loop, a turn's writes together */
		struct loopq *q = calloc(1, sizeof *q);
		if (!q || !(q->flush = event_new(srv->base, -1, 0, loopq_flush, srv))) {
			free(q);
			return -1;
		}
		q->tail = &q->head;
		srv->loopq = q;
		return 0;
	}
	srv->storeq = workq_new(srv->base, 1, 4096, store_ctx_new, store_ctx_free, srv, 0);
	return srv->storeq ? 0 : -1;
}

void
archive_stop(struct server *srv)
{
	workq_free(srv->storeq);
	srv->storeq = NULL;
	struct loopq *q = srv->loopq;
	if (!q)
		return;
	/* writes not committed yet go as the store thread's do at shutdown:
	 * unanswered, nothing of them on disk */
	while (q->head) {
		struct move_job *j = q->head;
		q->head = j->next;
		free(j);
	}
	event_free(q->flush);
	free(q);
	srv->loopq = NULL;
}

int
archive_truncate(struct server *srv, int64_t id, int nmoves)
{
	store_t *st = srv->store;

	if (st == NULL || id == 0 ||
	    game_write(st, 0, archive_fence(srv), JOB_TRUNCATE, id, nmoves, NULL, NULL, NULL) == 0)
		return 0;
	log_error(&srv->log, "game %lld: cannot store an undo: %s", (long long)id, store_error(st));
	return -1;
}

int
archive_colours(struct server *srv, int64_t id, const char *black, const char *white,
    int opening_plies, const char *log)
{
	store_t *st = srv->store;

	if (st == NULL || id == 0 ||
	    game_write(
		st, 0, archive_fence(srv), JOB_COLOURS, id, opening_plies, black, white, log) == 0)
		return 0;
	log_error(
	    &srv->log, "game %lld: cannot store the colours: %s", (long long)id, store_error(st));
	return -1;
}

game_err_t
archive_refusal(struct server *srv)
{
	return srv->store && store_unavailable(srv->store) ? GERR_STORE_DOWN : GERR_STORE;
}

int
archive_rates(struct server *srv)
{
	return srv->store != NULL;
}

int
archive_is_account(struct server *srv, const char *name)
{
	char spelled[STORE_NAME_MAX + 1], hash[AUTH_HASH_MAX];
	int64_t since = 0;

	if (!srv->store || store_user_get(srv->store, name, spelled, hash, sizeof hash) != 0)
		return 0;
	return store_user_bot(srv->store, name, &since) == 0 && since ? 2 : 1;
}

/* Glicko-2 for a rated game between rated players; counts its result.
 * 1 when it rated the game, 0 when the game changes no rating, -1 when
 * the store refused. */
static int
rate(store_t *st, int rate_bots, const struct archive_game *a, store_game_t *g)
{
	store_rating_t b, w;
	double score;

	int person = mixed_seat(rate_bots, a->players);
	if (!a->spec.rated || a->result == GAME_NO_RESULT || a->reason == BY_ABORTED ||
	    !rated_player(rate_bots, a->players[0]) || !rated_player(rate_bots, a->players[1]) ||
	    person < 0)
		return 0;
	if (store_rating_get(st, g->black, a->spec.rule, &b) < 0 ||
	    store_rating_get(st, g->white, a->spec.rule, &w) < 0)
		return -1;
	g->black_before = b.g.rating;
	g->white_before = w.g.rating;
	score = a->result == GAME_BLACK_WINS ? 1.0 : a->result == GAME_WHITE_WINS ? 0.0 : 0.5;
	glicko_rate_game(&b.g, &w.g, score, GLICKO_TAU);
	if (person == 0) /* a person's game against a bot account counts half */
		b.g.rating = g->black_before + (b.g.rating - g->black_before) / 2;
	else if (person == 1)
		w.g.rating = g->white_before + (w.g.rating - g->white_before) / 2;
	b.wins += score == 1.0;
	b.losses += score == 0.0;
	b.draws += score == 0.5;
	w.wins += score == 0.0;
	w.losses += score == 1.0;
	w.draws += score == 0.5;
	g->black_after = b.g.rating;
	g->white_after = w.g.rating;
	if (store_rating_put(st, a->spec.rule, &b) != 0 ||
	    store_rating_put(st, a->spec.rule, &w) != 0)
		return -1;
	return 1;
}

/* The end and the ratings, inside the caller's transaction. */
static int
end_game(store_t *st, int rate_bots, const struct archive_game *a, struct archive_change *change)
{
	store_game_t g;

	if (store_game_load(st, a->id, &g, NULL) != 0)
		return -1;
	g.ended = (int64_t)time(NULL);
	g.result = a->result;
	g.reason = a->reason;
	g.black_before = g.black_after = g.white_before = g.white_after = 0;
	int rated = rate(st, rate_bots, a, &g);
	if (rated < 0 || store_game_end(st, &g) != 0)
		return -1;
	if (change) {
		change->changed = rated;
		change->before[0] = rounded(g.black_before);
		change->after[0] = rounded(g.black_after);
		change->before[1] = rounded(g.white_before);
		change->after[1] = rounded(g.white_after);
	}
	return 0;
}

int
archive_end(struct server *srv, const struct archive_game *a)
{
	store_t *st = srv->store;

	if (st == NULL || a->id == 0)
		return 0;
	const char *owner = archive_fence(srv);
	struct archive_change change = { 0 };
	if (store_begin(st) == 0 && (!owner || store_game_fence(st, a->id, owner) == 0) &&
	    end_game(st, rating_policy(&srv->cfg), a, &change) == 0 && store_commit(st) == 0) {
		if (a->change)
			*a->change = change;
		return 0;
	}
	store_rollback(st);
	log_error(&srv->log, "room %s: cannot store the result: %s", a->room, store_error(st));
	return -1;
}

/* The saved game as the rooms take it; -1 when a stored value is out of
 * range (the record cannot be played). */
static int
saved_from(store_t *st, const store_game_t *g, const store_move_t *moves, struct archive_saved *sv)
{
	char spelled[STORE_NAME_MAX + 1], hash[AUTH_HASH_MAX];
	if (g->opening < OPEN_FREE || g->opening > OPEN_TARAGUCHI10)
		return -1;
	memset(sv, 0, sizeof *sv);
	sv->id = g->id;
	snprintf(sv->room, sizeof sv->room, "%s", g->room);
	sv->spec.rule = (rule_t)g->rule;
	sv->spec.size = g->size;
	sv->spec.tc_base = g->tc_base;
	sv->spec.tc_inc = g->tc_inc;
	sv->spec.colour = WISH_ANY;
	sv->spec.rated = g->rated;
	sv->spec.opening = (game_opening_t)g->opening;
	sv->private_room = g->private_room;
	snprintf(sv->code, sizeof sv->code, "%s", g->code);
	sv->opening_plies = g->opening_plies;
	snprintf(sv->opening_log, sizeof sv->opening_log, "%s", g->opening_log);
	sv->moved_both = g->moved_both;
	sv->tpair = g->tpair;
	snprintf(sv->names[0], sizeof sv->names[0], "%s", g->black);
	snprintf(sv->names[1], sizeof sv->names[1], "%s", g->white);
	snprintf(sv->owner, sizeof sv->owner, "%s", g->owner);
	for (int i = 0; i < 2; i++) {
		store_rating_t r;
		sv->account[i] = store_user_get(st, sv->names[i], spelled, hash, sizeof hash) == 0;
		int64_t since = 0;
		sv->bot[i] = sv->account[i] && store_user_bot(st, sv->names[i], &since) == 0 &&
		    since;
		sv->rating[i] = (struct archive_rating){ -1, 0 };
		if (sv->account[i] && store_rating_get(st, sv->names[i], sv->spec.rule, &r) >= 0) {
			sv->rating[i].value = rounded(r.g.rating);
			sv->rating[i].provisional = glicko_provisional(&r.g);
		}
	}
	sv->nmoves = g->nmoves;
	for (int i = 0; i < g->nmoves; i++)
		sv->moves[i] = moves[i].move;
	if (g->nmoves > 0) {
		sv->left[0] = moves[g->nmoves - 1].black_ms;
		sv->left[1] = moves[g->nmoves - 1].white_ms;
	}
	return 0;
}

int
archive_restore(struct server *srv,
    int (*play)(struct server *srv, const struct archive_saved *sv, const char **why))
{
	struct archive_saved sv;
	int64_t ids[4096];
	store_move_t moves[RULES_CELLS];
	store_t *st = srv->store;
	int n, restored = 0;

	if (st == NULL)
		return 0;
	n = store_games_unfinished(st, ids, (int)(sizeof ids / sizeof ids[0]));
	if (n < 0) {
		log_error(&srv->log, "database: %s", store_error(st));
		return -1;
	}
	for (int i = 0; i < n; i++) {
		store_game_t g;
		const char *why = "a stored value out of range";
		if (store_game_load(st, ids[i], &g, moves) != 0) {
			log_error(&srv->log, "game %lld: %s", (long long)ids[i], store_error(st));
			continue;
		}
		int rc = saved_from(st, &g, moves, &sv) != 0 ? -1 : play(srv, &sv, &why);
		if (rc > 0) {
			log_debug(&srv->log, "game %lld in room %s is another node's",
			    (long long)g.id, g.room);
			continue;
		}
		if (rc != 0) {
			/* an unplayable record ends as aborted, so it is not retried */
			log_error(&srv->log, "game %lld in room %s cannot be resumed: %s; aborted",
			    (long long)g.id, g.room, why ? why : "?");
			g.ended = (int64_t)time(NULL);
			g.result = GAME_NO_RESULT;
			g.reason = BY_ABORTED;
			store_game_end(st, &g);
			continue;
		}
		restored++;
	}
	if (restored > 0)
		log_info(&srv->log, "resumed %d game%s in progress from the database", restored,
		    restored == 1 ? "" : "s");
	return restored;
}

/* --- a cluster's adoption of another node's games (lease.c) --- */

struct open_job {
	store_open_game_t games[ARCHIVE_OPEN_MAX];
	int n;
	void (*done)(void *arg, const store_open_game_t *g, int n);
	void *arg;
};

static void
open_run(workq_job_t *job, void *ctx, void *arg)
{
	struct open_job *j = arg;
	(void)job;
	j->n = store_games_open(ctx, j->games, ARCHIVE_OPEN_MAX);
}

static void
open_done(int64_t id, int cancelled, void *arg)
{
	struct open_job *j = arg;
	(void)id;
	if (!cancelled)
		j->done(j->arg, j->games, j->n);
	free(j);
}

int
archive_open_async(
    struct server *srv, void (*done)(void *arg, const store_open_game_t *g, int n), void *arg)
{
	struct open_job *j = calloc(1, sizeof *j);
	if (!j || !srv->storeq)
		goto fail;
	j->done = done;
	j->arg = arg;
	if (workq_submit(srv->storeq, (uint64_t)(uintptr_t)j, open_run, open_done, NULL, j) < 0)
		goto fail;
	return 0;
fail:
	free(j);
	return -1;
}

struct adopt_job {
	int64_t id;
	char owner[CONFIG_NODE_MAX + 1];
	int rc; /* 0 adopted, STORE_NOT_FOUND ended meanwhile, -1 failed */
	char err[256];
	struct archive_saved sv;
	archive_adopted_fn done;
	void *arg;
};

/* The claim commits before the game is read: every move the last owner
 * committed is in the read, and none it tries later is taken. */
static void
adopt_run(workq_job_t *job, void *ctx, void *arg)
{
	struct adopt_job *j = arg;
	store_t *st = ctx;
	store_game_t g;
	store_move_t moves[RULES_CELLS];
	(void)job;
	if (store_begin(st) != 0)
		j->rc = -1;
	else if ((j->rc = store_game_claim(st, j->id, j->owner)) != 0 || store_commit(st) != 0) {
		store_rollback(st);
		j->rc = j->rc ? j->rc : -1;
	}
	if (j->rc == 0 &&
	    (store_game_load(st, j->id, &g, moves) != 0 || saved_from(st, &g, moves, &j->sv) != 0))
		j->rc = -1;
	if (j->rc != 0)
		snprintf(j->err, sizeof j->err, "%s",
		    j->rc == STORE_NOT_FOUND ? "it has ended" : store_error(st));
}

static void
adopt_done(int64_t id, int cancelled, void *arg)
{
	struct adopt_job *j = arg;
	(void)id;
	j->done(j->arg, j->rc == 0 && !cancelled ? &j->sv : NULL, cancelled ? "shutdown" : j->err);
	free(j);
}

int
archive_adopt_async(struct server *srv, int64_t id, archive_adopted_fn done, void *arg)
{
	struct adopt_job *j = calloc(1, sizeof *j);
	if (!j || !archive_fence(srv))
		goto fail;
	j->id = id;
	snprintf(j->owner, sizeof j->owner, "%s", archive_fence(srv));
	j->done = done;
	j->arg = arg;
	if (workq_submit(srv->storeq, (uint64_t)(uintptr_t)j, adopt_run, adopt_done, NULL, j) < 0)
		goto fail;
	return 0;
fail:
	free(j);
	return -1;
}
