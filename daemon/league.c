/* league.c: the engine league: its events made, their results read, its
 * table (see league.h). */
#include "daemon/league.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <event2/event.h>

#include "daemon/archive.h"
#include "daemon/botplay.h"
#include "daemon/clock.h"
#include "daemon/conn.h"
#include "daemon/core.h"
#include "daemon/grow.h"
#include "daemon/session.h"
#include "daemon/tourneys.h"
#include "tourney/elo.h"
#include "tourney/ltable.h"

enum {
	TICK_MS = 1000,
	POLL_MS = 2000,                /* an event not over: its results read this often */
	AHEAD_S = TOURNEY_START_MIN_S, /* an event is made this long before its start */
	RETRY_MS = 10000,              /* after a making refused at once */
	ELO_SHOWN_MAX = 9999,          /* an error bar on the wire at most */
};

/* A pairing as the store has it. */
struct lpair {
	char first[STORE_NAME_MAX + 1], second[STORE_NAME_MAX + 1];
	int result;
};

/* An event as read: its number, row and pairings. */
struct levent {
	int n;
	store_tourney_t row;
	struct lpair *p;
	int np, cap, failed;
};

struct league {
	struct leagues *ls;
	struct league_conf cf;
	int reading, making, stale;
	int64_t read_ms, retry_ms;
	int last_n;           /* the last event's number (0: none yet) */
	store_tourney_t last; /* its row */
	int bad_n;            /* the number whose making was last logged as failed */
	/* the pairings of the events over (they change no more), kept */
	int64_t *done;
	int ndone, donecap;
	struct lpair *kept;
	int nkept, keptcap;
	/* the table: its players' names, its rows, the games over the board */
	char names[ELO_PLAYERS_MAX][STORE_NAME_MAX + 1];
	struct ltable_row rows[ELO_PLAYERS_MAX];
	int nrows, games;
	int64_t sig; /* the results behind it */
};

struct leagues {
	struct server *srv;
	struct league *lg;
	int n;
	struct event *tick;
	int64_t boot; /* unix seconds of the daemon's start */
};

static int64_t
wall(void)
{
	return (int64_t)time(NULL);
}

/* --- the store's view, read --- */

struct lread {
	struct leagues *ls;
	int i;
	char name[CONFIG_LEAGUE_NAME_MAX + 1];
	int64_t *done; /* a copy: the events whose pairings are kept */
	int ndone;
	struct levent *ev;
	int nev, cap, rc;
};

static void
read_event(void *arg, int n, const store_tourney_t *t)
{
	struct lread *r = arg;
	if (grow((void **)&r->ev, &r->cap, r->nev + 1, sizeof *r->ev) != 0) {
		r->rc = -1;
		return;
	}
	struct levent *e = &r->ev[r->nev++];
	memset(e, 0, sizeof *e);
	e->n = n;
	e->row = *t;
}

static void
read_pair(void *arg, const store_tgame_t *g)
{
	struct levent *e = arg;
	if (grow((void **)&e->p, &e->cap, e->np + 1, sizeof *e->p) != 0) {
		e->failed = 1;
		return;
	}
	struct lpair *p = &e->p[e->np++];
	snprintf(p->first, sizeof p->first, "%s", g->first);
	snprintf(p->second, sizeof p->second, "%s", g->second);
	p->result = g->result;
}

static int
is_done(const int64_t *done, int n, int64_t id)
{
	for (int i = n - 1; i >= 0; i--)
		if (done[i] == id)
			return 1;
	return 0;
}

/* On the store (its thread with PostgreSQL): the league's events, and the
 * pairings of those not kept already. */
static void
read_run(store_t *st, void *arg)
{
	struct lread *r = arg;
	if (store_league_events(st, r->name, read_event, r) < 0)
		r->rc = -1;
	for (int i = 0; r->rc == 0 && i < r->nev; i++) {
		struct levent *e = &r->ev[i];
		if (is_done(r->done, r->ndone, e->row.id))
			continue;
		if (store_tgames(st, e->row.id, read_pair, e) < 0 || e->failed)
			r->rc = -1;
	}
}

static void
lread_free(struct lread *r)
{
	for (int i = 0; i < r->nev; i++)
		free(r->ev[i].p);
	free(r->ev);
	free(r->done);
	free(r);
}

/* The index of name among the table's players, added when new; -1 when
 * the table is full. */
static int
name_index(struct league *L, int *n, const char *name)
{
	for (int i = 0; i < *n; i++)
		if (strcasecmp(L->names[i], name) == 0)
			return i;
	if (*n >= ELO_PLAYERS_MAX)
		return -1;
	snprintf(L->names[*n], sizeof L->names[0], "%s", name);
	return (*n)++;
}

/* The table again from the kept pairings and live[0..nlive). */
static void
recompute(struct league *L, const struct lpair *live, int nlive)
{
	int total = L->nkept + nlive, n = 0, ng = 0, played = 0;
	struct tourney_game *g = calloc((size_t)(total ? total : 1), sizeof *g);
	if (!g)
		return;
	for (int k = 0; k < total; k++) {
		const struct lpair *p = k < L->nkept ? &L->kept[k] : &live[k - L->nkept];
		int a = name_index(L, &n, p->first);
		int b = p->second[0] ? name_index(L, &n, p->second) : TOURNEY_BYE;
		if (a < 0 || (p->second[0] && b < 0))
			continue; /* past the table's most players */
		g[ng++] = (struct tourney_game){ 1, a, b, (enum tourney_result)p->result };
		played += tourney_played(&g[ng - 1]);
	}
	if (n == 0) {
		L->nrows = L->games = 0;
	} else if (ltable_make(n, g, ng, L->rows) == 0) {
		L->nrows = n;
		L->games = played;
	} else {
		log_warn(&L->ls->srv->log, "league %s: the ratings did not converge", L->cf.name);
	}
	free(g);
}

static void
read_back(void *arg, int cancelled)
{
	struct lread *r = arg;
	if (cancelled) {
		lread_free(r);
		return;
	}
	struct league *L = &r->ls->lg[r->i];
	L->reading = 0;
	if (r->rc != 0) {
		log_warn(&r->ls->srv->log, "league %s: not read: %s", L->cf.name,
		    store_error(r->ls->srv->store));
		L->stale = 1;
		lread_free(r);
		return;
	}
	struct lpair *live = NULL;
	int nlive = 0, livecap = 0;
	int64_t sig = 0;
	for (int i = 0; i < r->nev; i++) {
		struct levent *e = &r->ev[i];
		if (e->n > L->last_n || (e->n == L->last_n && L->last_n)) {
			L->last_n = e->n;
			L->last = e->row;
		}
		if (is_done(L->done, L->ndone, e->row.id))
			continue;
		int over = e->row.state >= TS_OVER;
		if (over &&
		    grow((void **)&L->done, &L->donecap, L->ndone + 1, sizeof *L->done) == 0 &&
		    grow((void **)&L->kept, &L->keptcap, L->nkept + e->np + 1, sizeof *L->kept) ==
			0) {
			L->done[L->ndone++] = e->row.id;
			if (e->np) /* an event cancelled unplayed has none */
				memcpy(&L->kept[L->nkept], e->p, (size_t)e->np * sizeof *e->p);
			L->nkept += e->np;
			continue;
		}
		if (grow((void **)&live, &livecap, nlive + e->np + 1, sizeof *live) != 0)
			continue;
		if (e->np)
			memcpy(&live[nlive], e->p, (size_t)e->np * sizeof *e->p);
		nlive += e->np;
	}
	for (int k = 0; k < nlive; k++)
		sig += (int64_t)live[k].result * (k + 1);
	sig = (sig * 1000003 + L->nkept) * 1009 + nlive; /* a result, or a new round */
	if (sig != L->sig || (L->nrows == 0 && L->nkept + nlive > 0)) {
		L->sig = sig;
		recompute(L, live, nlive);
	}
	free(live);
	lread_free(r);
}

static int
start_read(struct league *L, int now)
{
	struct lread *r = calloc(1, sizeof *r);
	if (!r)
		return -1;
	r->ls = L->ls;
	r->i = (int)(L - L->ls->lg);
	snprintf(r->name, sizeof r->name, "%s", L->cf.name);
	if (L->ndone) {
		r->done = malloc((size_t)L->ndone * sizeof *r->done);
		if (!r->done) {
			free(r);
			return -1;
		}
		memcpy(r->done, L->done, (size_t)L->ndone * sizeof *r->done);
		r->ndone = L->ndone;
	}
	L->stale = 0;
	L->read_ms = clock_now_ms();
	if (now) { /* at the start: on the loop, before any request */
		read_run(L->ls->srv->store, r);
		read_back(r, 0);
		return 0;
	}
	L->reading = 1;
	if (archive_call(L->ls->srv, read_run, read_back, r) != 0) {
		L->reading = 0;
		L->stale = 1;
		lread_free(r);
		return -1;
	}
	return 0;
}

/* --- the events --- */

/* Whether the last event is not over yet (soon or running). */
static int
open_event(const struct league *L)
{
	return L->last_n > 0 && L->last.state < TS_OVER;
}

/* The next event's start: `first` after the daemon's start for the
 * first, else `every` after the last one's start, or its end when later. */
static int64_t
next_start(const struct league *L)
{
	if (L->last_n == 0)
		return L->ls->boot + L->cf.first_s;
	int64_t t = L->last.starts + L->cf.every_s;
	return L->last.ended > t ? L->last.ended : t;
}

static void
made(void *arg, int64_t id, const char *why)
{
	struct league *L = arg;
	L->making = 0;
	L->stale = 1; /* read it (or the other node's) back */
	if (id) {
		log_info(&L->ls->srv->log, "league %s: event %d is tournament %lld", L->cf.name,
		    L->last_n + 1, (long long)id);
	} else if (L->bad_n != L->last_n + 1) {
		L->bad_n = L->last_n + 1;
		log_info(&L->ls->srv->log, "league %s: event %d not made: %s", L->cf.name,
		    L->last_n + 1, why ? why : "?");
	}
}

/* The players of a new event: the members, then the bot accounts that
 * opted in and are connected here, at most a round robin's. */
static int
players_of(struct league *L, char (*names)[STORE_NAME_MAX + 1])
{
	struct server *srv = L->ls->srv;
	int n = 0;
	for (int i = 0; i < L->cf.nmembers; i++) {
		const char *m = L->cf.members[i];
		int level;
		char tail;
		if (sscanf(m, "level%d%c", &level, &tail) == 1) {
			snprintf(names[n++], sizeof names[0], "bot%d", level);
		} else if (srv->botplay && botplay_engine(srv->botplay, m) >= 0) {
			snprintf(names[n++], sizeof names[0], "bot-%s", m);
		} else {
			log_warn(&srv->log, "league %s: engine %s is not hosted here: left out",
			    L->cf.name, m);
		}
	}
	for (struct session *s = sessions_first(srv); s; s = sessions_next(s)) {
		if (s->kind != SESSION_ACCOUNT || !s->botacct || !s->league || !s->conn)
			continue;
		int in = 0;
		for (int k = 0; k < n; k++)
			in |= strcasecmp(names[k], s->name) == 0;
		if (in)
			continue;
		if (n >= TOURNEY_ROBIN_MAX_PLAYERS) {
			log_info(&srv->log, "league %s: %s left out: %d players already",
			    L->cf.name, s->name, TOURNEY_ROBIN_MAX_PLAYERS);
			continue;
		}
		snprintf(names[n++], sizeof names[0], "%s", s->name);
	}
	return n;
}

static void
make_event(struct league *L, int64_t next, int64_t now)
{
	struct server *srv = L->ls->srv;
	char names[TOURNEY_ROBIN_MAX_PLAYERS + CONFIG_LEAGUE_MEMBERS][STORE_NAME_MAX + 1];
	const char *ptr[TOURNEY_ROBIN_MAX_PLAYERS + CONFIG_LEAGUE_MEMBERS];
	int np = players_of(L, names);
	for (int i = 0; i < np; i++)
		ptr[i] = names[i];
	proto_msg_t m;
	proto_init(&m, PR_TCREATE, NULL);
	m.tkind = TKIND_ROBIN;
	m.rule = (rule_t)L->cf.rule;
	m.size = L->cf.size;
	m.tc_base = L->cf.tc_base;
	m.tc_inc = L->cf.tc_inc;
	m.opening = OPENING_NONE;
	m.rated = 1;
	m.entrants = ENTRANTS_BOTS;
	m.count = next - now > TOURNEY_START_MIN_S ? next - now : TOURNEY_START_MIN_S;
	m.count2 = L->cf.cycles;
	snprintf(m.text, sizeof m.text, "league %s %d", L->cf.name, L->last_n + 1);
	const char *why = NULL;
	L->making = 1;
	int rc = tourneys_league(
	    srv->tourneys, &m, L->cf.name, L->last_n + 1, ptr, np, made, L, &why);
	if (rc != 0) {
		L->making = 0;
		L->retry_ms = clock_now_ms() + RETRY_MS;
		log_warn(&srv->log, "league %s: event %d not made: %s", L->cf.name, L->last_n + 1,
		    why ? why : "?");
	}
}

static void
tick_cb(evutil_socket_t fd, short what, void *arg)
{
	struct leagues *ls = arg;
	(void)fd;
	(void)what;
	int64_t now = wall(), ms = clock_now_ms();
	for (int i = 0; i < ls->n; i++) {
		struct league *L = &ls->lg[i];
		if (L->reading || L->making || ms < L->retry_ms)
			continue;
		if (L->stale || (open_event(L) && ms - L->read_ms >= POLL_MS)) {
			start_read(L, 0);
			continue;
		}
		if (open_event(L))
			continue;
		int64_t next = next_start(L);
		if (now >= next - AHEAD_S)
			make_event(L, next, now);
	}
}

/* --- requests --- */

static void
league_line(const struct league *L, proto_msg_t *m)
{
	proto_init(m, PD_LEAGUE, NULL);
	snprintf(m->word, sizeof m->word, "%s", L->cf.name);
	m->rule = (rule_t)L->cf.rule;
	m->size = L->cf.size;
	m->tc_base = L->cf.tc_base;
	m->tc_inc = L->cf.tc_inc;
	m->count = L->nrows;
	m->count2 = L->games;
	m->ident = L->last_n ? L->last.id : -1;
	m->when = !open_event(L) ? next_start(L) : L->last.state == TS_SOON ? L->last.starts : -1;
}

int
leagues_request(struct leagues *ls, struct conn *c, const proto_msg_t *m, const char **why)
{
	proto_msg_t d;
	if (m->id == PR_LEAGUES) {
		for (int i = 0; i < ls->n; i++) {
			league_line(&ls->lg[i], &d);
			conn_send(c, &d);
		}
		proto_init(&d, PO_LEAGUES, m->tag);
		d.count = ls->n;
		conn_send(c, &d);
		return 0;
	}
	const struct league *L = NULL;
	for (int i = 0; i < ls->n && !L; i++)
		if (strcasecmp(ls->lg[i].cf.name, m->word) == 0)
			L = &ls->lg[i];
	if (!L) {
		*why = "no league of that name (LEAGUES lists them)";
		return ERR_NO_LEAGUE;
	}
	for (int k = 0; k < L->nrows; k++) {
		const struct ltable_row *r = &L->rows[k];
		proto_init(&d, PD_LRATING, NULL);
		snprintf(d.word, sizeof d.word, "%s", L->cf.name);
		d.rank = k + 1;
		snprintf(d.user, sizeof d.user, "%s", L->names[r->player]);
		d.elo = r->elo;
		d.after = r->minus > ELO_SHOWN_MAX ? ELO_SHOWN_MAX : r->minus;
		d.after2 = r->plus > ELO_SHOWN_MAX ? ELO_SHOWN_MAX : r->plus;
		d.played = r->games;
		d.points = r->points;
		d.draws = r->draws;
		conn_send(c, &d);
	}
	proto_init(&d, PO_LEAGUE, m->tag);
	snprintf(d.word, sizeof d.word, "%s", L->cf.name);
	d.count = L->nrows;
	conn_send(c, &d);
	return 0;
}

/* --- its life --- */

struct leagues *
leagues_new(struct server *srv)
{
	if (!srv->tourneys || !srv->store)
		return NULL;
	struct leagues *ls = calloc(1, sizeof *ls);
	if (!ls)
		return NULL;
	ls->srv = srv;
	ls->boot = wall();
	ls->n = srv->cfg.nleagues;
	ls->lg = calloc((size_t)(ls->n ? ls->n : 1), sizeof *ls->lg);
	if (!ls->lg) {
		free(ls);
		return NULL;
	}
	for (int i = 0; i < ls->n; i++) {
		struct league *L = &ls->lg[i];
		char err[200];
		L->ls = ls;
		if (config_league(srv->cfg.leagues[i], &srv->cfg, &L->cf, err, sizeof err) != 0 ||
		    start_read(L, 1) != 0 || L->stale) {
			log_error(&srv->log, "league %s: cannot start: %s", srv->cfg.leagues[i],
			    L->stale ? store_error(srv->store) : err);
			leagues_free(ls);
			return NULL;
		}
		log_info(&srv->log, "league %s: %d events, %d players, next %s", L->cf.name,
		    L->last_n, L->nrows, open_event(L) ? "when this one ends" : "as planned");
	}
	struct timeval every = { TICK_MS / 1000, TICK_MS % 1000 * 1000 };
	ls->tick = event_new(srv->base, -1, EV_PERSIST, tick_cb, ls);
	if (!ls->tick || event_add(ls->tick, &every) != 0) {
		leagues_free(ls);
		return NULL;
	}
	return ls;
}

void
leagues_free(struct leagues *ls)
{
	if (!ls)
		return;
	if (ls->tick)
		event_free(ls->tick);
	for (int i = 0; i < ls->n; i++) {
		free(ls->lg[i].done);
		free(ls->lg[i].kept);
	}
	free(ls->lg);
	free(ls);
}
