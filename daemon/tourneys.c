/* tourneys.c: tournaments: their requests, their timer, their pairings'
 * games and results (see tourneys.h). */
#include "daemon/tourneys.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/queue.h>
#include <time.h>

#include <event2/event.h>

#include "daemon/admin.h"
#include "daemon/archive.h"
#include "daemon/botplay.h"
#include "daemon/clock.h"
#include "daemon/cmd.h"
#include "daemon/conn.h"
#include "daemon/lobby.h"
#include "daemon/metrics.h"
#include "daemon/core.h"
#include "daemon/grow.h"
#include "daemon/room.h"
#include "daemon/session.h"
#include "daemon/wire.h"
#include "tourney/arena.h"
#include "tourney/roundrobin.h"
#include "tourney/standings.h"
#include "tourney/swiss.h"

enum {
	TICK_MS = 1000,    /* the timer: starts, pairings, deadlines, standings pushed */
	BOT_RATING0 = 900, /* a bot's rating for the pairing order: this + 100 a level */
	LOAD_DAYS = 7,     /* events over within this many days are loaded at start */
	OLD_KEPT = 32,     /* older ones read back for TWATCH and kept at most */
	PUSH_TOP = 50,     /* the standings' lines pushed to every follower (and its own) */
	STALE_MS = 5000,   /* another node's change is read this late at most */
};

_Static_assert(TR_PENDING == (int)TRES_PENDING && TR_FIRST_WINS == (int)TRES_FIRST &&
	TR_SECOND_WINS == (int)TRES_SECOND && TR_DRAW == (int)TRES_DRAW &&
	TR_FIRST_FORFEIT == (int)TRES_FIRST_FORFEIT &&
	TR_SECOND_FORFEIT == (int)TRES_SECOND_FORFEIT &&
	TR_BOTH_FORFEIT == (int)TRES_BOTH_FORFEIT && TR_BYE == (int)TRES_BYE,
    "a pairing's result is stored and sent in one order");

struct tplayer {
	store_tplayer_t row;
	int forfeits; /* forfeits lost in a row */
	int game;     /* index of the pairing it plays now, or -1 */
	int last;     /* its last opponent (arena), or TOURNEY_BYE */
	int firsts, seconds;
	/* the line last pushed to watchers, to push only what changed */
	struct standing shown;
	int shown_streak, shown_status, shown_played, shown_ok;
};

struct tgame {
	store_tgame_t row;
	int first, second; /* player indexes (second TOURNEY_BYE) */
	int64_t began_ms;  /* its game's start, or 0 */
	int64_t deadline;  /* a pairing with no game: its players come by then (ms) */
	int starting;      /* its room's start is being stored */
	int forfeit;       /* the result the server decided (a forfeit), or 0 */
	int saving;        /* its result is at the store */
	int want;          /* the result the game gave, not yet stored (0: none) */
	/* on several nodes: a player of another node asked for (world.h's
	 * seat_far), its seat here once given, or that it cannot play now */
	int asking;
	struct session *far[2];
	char far_no[2];
};

struct watcher {
	struct conn *c;
};

struct tourney {
	LIST_ENTRY(tourney) link;
	struct tourneys *ts;
	store_tourney_t row;
	struct tplayer *pl;
	int npl, plcap;
	struct tgame *gm;
	int ngm, gmcap;
	struct conn **w;
	char *wplays; /* w[i] speaks for a player of the event (when it began to follow) */
	int nw, wcap, wpcap;
	int pairing; /* a round's pairings are at the store */
	int saving;  /* its state is at the store */
	int old;     /* over before the start's load window: read back for TWATCH */
	int push;    /* players joined or left: the next tick pushes the standings */
	/* on several nodes (world.h): this node runs it; its memory is the
	 * store's as just read (no need to read it again to run it); the
	 * store may hold newer (another node's change): read it again; being
	 * read; read it to run it from now on */
	int runs, fresh, stale, loading, adopting;
	int64_t read_ms; /* when it was read again last */
};

struct tourneys {
	struct server *srv;
	LIST_HEAD(, tourney) list;
	struct event *tick;
	struct event *soon;          /* the results of ended games, taken off the rooms' call */
	int daily[CONFIG_MAX_DAILY]; /* a tourney-daily event being stored */
	int64_t daily_bad[CONFIG_MAX_DAILY]; /* the slot a refused line was logged for */
	int failed;                          /* the start's load ran out of memory */
	int scan, scanning; /* the events' list is to be read again (another node's new one) */
};

/* --- small things --- */

static int64_t
wall(void)
{
	return (int64_t)time(NULL);
}

static struct tourney *
find(struct tourneys *ts, int64_t id)
{
	struct tourney *t;
	LIST_FOREACH (t, &ts->list, link)
		if (t->row.id == id)
			return t;
	return NULL;
}

static int
player_of(const struct tourney *t, const char *name)
{
	for (int i = 0; i < t->npl; i++)
		if (strcasecmp(t->pl[i].row.name, name) == 0)
			return i;
	return -1;
}

static struct tplayer *
add_player(struct tourney *t, const store_tplayer_t *row)
{
	if (grow((void **)&t->pl, &t->plcap, t->npl + 1, sizeof *t->pl) != 0)
		return NULL;
	struct tplayer *p = &t->pl[t->npl++];
	memset(p, 0, sizeof *p);
	p->row = *row;
	p->game = -1;
	p->last = TOURNEY_BYE;
	return p;
}

static struct tgame *
add_game(struct tourney *t, const store_tgame_t *row)
{
	if (grow((void **)&t->gm, &t->gmcap, t->ngm + 1, sizeof *t->gm) != 0)
		return NULL;
	struct tgame *g = &t->gm[t->ngm++];
	memset(g, 0, sizeof *g);
	g->row = *row;
	g->first = player_of(t, row->first);
	g->second = row->second[0] ? player_of(t, row->second) : TOURNEY_BYE;
	return g;
}

static int total_rounds(const struct tourney *t);

/* --- the wire --- */

static const proto_tkind_t kinds[] = { TKIND_ARENA, TKIND_SWISS, TKIND_ROBIN };
static const proto_tstate_t states[] = { TSTATE_SOON, TSTATE_RUNNING, TSTATE_OVER,
	TSTATE_CANCELLED };
static const proto_entrants_t entrants[] = { ENTRANTS_PEOPLE, ENTRANTS_BOTS, ENTRANTS_BOTH };

static void
tourney_line(const struct tourney *t, proto_id_t id, proto_msg_t *m)
{
	const store_tourney_t *r = &t->row;
	struct gamespec g = { (rule_t)r->rule, r->size, r->tc_base, r->tc_inc, WISH_ANY, r->rated,
		(game_opening_t)r->opening };
	proto_init(m, id, NULL);
	m->ident = r->id;
	m->tkind = kinds[r->kind];
	m->tstate = states[r->state];
	wire_gamespec_out(m, &g);
	m->entrants = entrants[r->entrants];
	m->when = r->starts;
	m->count = r->length;
	m->round = r->round;
	m->rounds = r->kind == TK_SWISS          ? r->length
	    : r->kind == TK_ROBIN && t->npl >= 2 ? total_rounds(t)
						 : 0;
	m->count2 = t->npl;
	snprintf(m->user, sizeof m->user, "%s", r->creator);
	snprintf(m->text, sizeof m->text, "%s", r->name);
}

static void
game_line(const struct tourney *t, const struct tgame *g, proto_id_t id, proto_msg_t *m)
{
	proto_init(m, id, NULL);
	m->ident = t->row.id;
	m->round = g->row.round;
	m->count = g->row.board;
	snprintf(m->room, sizeof m->room, "%s", g->row.room);
	snprintf(m->user, sizeof m->user, "%s", g->row.first);
	snprintf(m->user2, sizeof m->user2, "%s", g->row.second);
	m->tresult = (proto_tresult_t)g->row.result;
}

static void
tell_all(struct tourney *t, const proto_msg_t *m)
{
	for (int i = 0; i < t->nw; i++)
		conn_send(t->w[i], m);
}

static void
tell_state(struct tourney *t)
{
	proto_msg_t m;
	tourney_line(t, PE_TOURNEY, &m);
	tell_all(t, &m);
}

/* * TGAME to the followers: an arena's only to its two players and to
 * followers who do not play in it (an arena's games come by the hundred
 * a minute: every player would get every one); a round's to all. */
static void
tell_game(struct tourney *t, const struct tgame *g)
{
	proto_msg_t m;
	game_line(t, g, PE_TGAME, &m);
	if (t->row.kind != TK_ARENA) {
		tell_all(t, &m);
		return;
	}
	for (int i = 0; i < t->nw; i++) {
		const char *me = t->w[i]->sess ? t->w[i]->sess->name : "";
		if (!t->wplays[i] || !strcasecmp(me, g->row.first) ||
		    !strcasecmp(me, g->row.second))
			conn_send(t->w[i], &m);
	}
}

/* --- standings --- */

/* The order of pairing numbers: rating, then the order of joining. */
static int
by_pairing(const void *a, const void *b)
{
	const struct tplayer *x = *(struct tplayer *const *)a, *y = *(struct tplayer *const *)b;
	if (x->row.rating != y->row.rating)
		return x->row.rating > y->row.rating ? -1 : 1;
	return x->row.seq - y->row.seq;
}

/* The players in pairing order: ord[k] is the index of pairing number k + 1
 * and pos[i] the pairing index of player i. */
static void
pairing_order(const struct tourney *t, int *ord, int *pos)
{
	struct tplayer **v = malloc((size_t)t->npl * sizeof *v);
	if (!v) { /* the order of joining */
		for (int i = 0; i < t->npl; i++)
			ord[i] = pos[i] = i;
		return;
	}
	for (int i = 0; i < t->npl; i++)
		v[i] = &t->pl[i];
	qsort(v, (size_t)t->npl, sizeof *v, by_pairing);
	for (int k = 0; k < t->npl; k++) {
		ord[k] = (int)(v[k] - t->pl);
		pos[ord[k]] = k;
	}
	free(v);
}

/* The pure modules' view: players in pairing order, games by those
 * indexes. Returns the games written (pending ones too). */
static int
pure_view(const struct tourney *t, const int *ord, const int *pos, struct tourney_player *pp,
    struct tourney_game *gg)
{
	for (int k = 0; k < t->npl; k++) {
		pp[k].rating = t->pl[ord[k]].row.rating;
		pp[k].withdrawn = t->pl[ord[k]].row.withdrawn;
	}
	for (int i = 0; i < t->ngm; i++) {
		const struct tgame *g = &t->gm[i];
		gg[i].round = t->row.kind == TK_ARENA ? 0 : g->row.round;
		gg[i].first = pos[g->first];
		gg[i].second = g->second == TOURNEY_BYE ? TOURNEY_BYE : pos[g->second];
		gg[i].result = (enum tourney_result)g->row.result;
	}
	return t->ngm;
}

struct table {
	int n;
	int *ord, *pos, *streak;
	int *played; /* games with a result, by player index */
	struct tourney_player *pp;
	struct tourney_game *gg;
	struct standing *st;
};

static void
table_free(struct table *tb)
{
	free(tb->ord);
	free(tb->pos);
	free(tb->streak);
	free(tb->played);
	free(tb->pp);
	free(tb->gg);
	free(tb->st);
	memset(tb, 0, sizeof *tb);
}

/* The standings now: 0, or -1 (out of memory, or no players). */
static int
table_make(const struct tourney *t, struct table *tb)
{
	memset(tb, 0, sizeof *tb);
	int n = t->npl, ng = t->ngm ? t->ngm : 1;
	if (n < 1)
		return -1;
	tb->n = n;
	tb->ord = malloc((size_t)n * sizeof *tb->ord);
	tb->pos = malloc((size_t)n * sizeof *tb->pos);
	tb->streak = calloc((size_t)n, sizeof *tb->streak);
	tb->played = calloc((size_t)n, sizeof *tb->played);
	tb->pp = calloc((size_t)n, sizeof *tb->pp);
	tb->gg = calloc((size_t)ng, sizeof *tb->gg);
	tb->st = calloc((size_t)n, sizeof *tb->st);
	if (!tb->ord || !tb->pos || !tb->streak || !tb->played || !tb->pp || !tb->gg || !tb->st) {
		table_free(tb);
		return -1;
	}
	pairing_order(t, tb->ord, tb->pos);
	pure_view(t, tb->ord, tb->pos, tb->pp, tb->gg);
	for (int i = 0; i < t->ngm; i++) /* one pass, not one a player */
		if (t->gm[i].row.result != TR_PENDING) {
			tb->played[t->gm[i].first]++;
			if (t->gm[i].second != TOURNEY_BYE)
				tb->played[t->gm[i].second]++;
		}
	enum standings_kind kind = t->row.kind == TK_ARENA ? STANDINGS_ARENA
	    : t->row.kind == TK_SWISS                      ? STANDINGS_SWISS
							   : STANDINGS_ROUNDROBIN;
	if (standings(kind, tb->pp, n, tb->gg, t->ngm, 0, tb->st) != n) {
		table_free(tb);
		return -1;
	}
	if (t->row.kind == TK_ARENA) {
		int *pts = malloc((size_t)n * sizeof *pts);
		if (pts)
			arena_scores(tb->gg, t->ngm, n, pts, tb->streak);
		free(pts);
	}
	return 0;
}

static proto_tstatus_t
status_of(const struct tourney *t, int p)
{
	return t->pl[p].row.withdrawn ? TSTATUS_WITHDRAWN
	    : t->pl[p].game >= 0      ? TSTATUS_PLAYING
				      : TSTATUS_ACTIVE;
}

/* The = TPLAYER (or * TPLAYER) line of standing s. */
static void
player_line(const struct tourney *t, const struct table *tb, const struct standing *s,
    proto_id_t id, proto_msg_t *m)
{
	int p = tb->ord[s->player];
	const struct tplayer *pl = &t->pl[p];
	proto_init(m, id, NULL);
	m->ident = t->row.id;
	m->rank = s->rank;
	snprintf(m->user, sizeof m->user, "%s", pl->row.name);
	m->ratings[0].value = pl->row.rating;
	m->points = s->points;
	switch (t->row.kind) {
	case TK_SWISS:
		m->vals[0] = (int16_t)s->bh_cut1;
		m->vals[1] = (int16_t)s->buchholz;
		m->vals[2] = (int16_t)s->bh_median;
		m->vals[3] = (int16_t)s->sb;
		m->nvals = 4;
		break;
	case TK_ROBIN:
		m->vals[0] = (int16_t)s->sb;
		m->vals[1] = (int16_t)s->wins;
		m->nvals = 2;
		break;
	default:
		m->vals[0] = (int16_t)(s->rating < 0 ? 0 : s->rating);
		m->nvals = 1;
		break;
	}
	m->played = tb->played[p];
	m->tstatus = status_of(t, p);
	m->streak = tb->streak[s->player];
}

/* * TPLAYER for each player whose line changed since it was last said:
 * to each follower, those in the top PUSH_TOP and its own (a big arena's
 * every result would otherwise go to every player: the square of the
 * players); TWATCH gives the whole table. */
static void
push_standings(struct tourney *t)
{
	struct table tb;
	if (t->nw == 0 || table_make(t, &tb) != 0)
		return;
	int *changed = malloc((size_t)tb.n * sizeof *changed), nc = 0;
	proto_msg_t *lines = malloc((size_t)tb.n * sizeof *lines);
	for (int k = 0; changed && lines && k < tb.n; k++) {
		const struct standing *s = &tb.st[k];
		int p = tb.ord[s->player];
		struct tplayer *pl = &t->pl[p];
		int status = (int)status_of(t, p), n = tb.played[p], streak = tb.streak[s->player];
		if (pl->shown_ok && !memcmp(&pl->shown, s, sizeof *s) &&
		    pl->shown_status == status && pl->shown_played == n &&
		    pl->shown_streak == streak)
			continue;
		player_line(t, &tb, s, PE_TPLAYER, &lines[nc]);
		changed[nc++] = p;
		pl->shown = *s;
		pl->shown_status = status;
		pl->shown_played = n;
		pl->shown_streak = streak;
		pl->shown_ok = 1;
	}
	for (int w = 0; w < t->nw && nc; w++) {
		struct conn *c = t->w[w];
		const char *me = c->sess ? c->sess->name : "";
		for (int k = 0; k < nc; k++)
			if (lines[k].rank <= PUSH_TOP ||
			    strcasecmp(t->pl[changed[k]].row.name, me) == 0)
				conn_send(c, &lines[k]);
	}
	free(changed);
	free(lines);
	table_free(&tb);
}

/* --- the store --- */

/* One write of the module's at the store, and what follows it on the loop. */
struct op {
	struct tourneys *ts;
	int64_t tid;
	int rc;
	store_tourney_t t;
	store_tplayer_t p;
	int64_t gid;
	int result;
	char room[STORE_ROOM_MAX + 1];
	store_tgame_t *games;
	int ngames, round;
	void (*back)(struct op *o, struct tourney *t);
};

static void
op_run_state(store_t *st, void *arg)
{
	struct op *o = arg;
	o->rc = store_tourney_set(st, &o->t);
}

static void
op_run_result(store_t *st, void *arg)
{
	struct op *o = arg;
	o->rc = store_tgame_result(st, o->gid, o->result);
}

static void
op_run_room(store_t *st, void *arg)
{
	struct op *o = arg;
	o->rc = store_tgame_room(st, o->gid, o->room);
}

static void
op_run_round(store_t *st, void *arg)
{
	struct op *o = arg;
	o->rc = store_tround_put(st, o->tid, o->round, o->games, o->ngames);
}

static void
op_run_player(store_t *st, void *arg)
{
	struct op *o = arg;
	o->rc = store_tplayer_put(st, o->tid, &o->p);
}

static void
op_back(void *arg, int cancelled)
{
	struct op *o = arg;
	struct tourney *t = cancelled ? NULL : find(o->ts, o->tid);
	if (!cancelled && o->rc == 0) /* the other nodes read it again */
		world_tourney_changed(&o->ts->srv->world, o->tid);
	if (o->back)
		o->back(o, t);
	free(o->games);
	free(o);
}

static int
op_call(struct tourneys *ts, struct op *o, archive_run_fn run)
{
	o->ts = ts;
	if (archive_call(ts->srv, run, op_back, o) != 0) {
		free(o->games);
		free(o);
		return -1;
	}
	return 0;
}

static struct op *
op_new(struct tourney *t, void (*back)(struct op *o, struct tourney *t))
{
	struct op *o = calloc(1, sizeof *o);
	if (o) {
		o->tid = t->row.id;
		o->back = back;
	}
	return o;
}

/* --- results --- */

static void withdraw(struct tourney *t, int p);

static void
result_back(struct op *o, struct tourney *t)
{
	if (!t)
		return;
	for (int i = 0; i < t->ngm; i++) {
		struct tgame *g = &t->gm[i];
		if (g->row.id != o->gid)
			continue;
		g->saving = 0;
		if (o->rc != 0 && o->rc != STORE_EXISTS) {
			log_warn(&o->ts->srv->log, "tournament %lld: a result not stored: %s",
			    (long long)t->row.id, store_error(o->ts->srv->store));
			return; /* g->want stays: the tick tries again */
		}
		g->row.result = o->result;
		g->want = 0;
		for (int k = 0; k < 2; k++) {
			int p = k ? g->second : g->first;
			if (p < 0 || p == TOURNEY_BYE)
				continue;
			struct tplayer *pl = &t->pl[p];
			if (pl->game == i)
				pl->game = -1;
			int lost = o->result == (k ? TR_SECOND_FORFEIT : TR_FIRST_FORFEIT) ||
			    o->result == TR_BOTH_FORFEIT;
			pl->forfeits = lost ? pl->forfeits + 1 : 0;
			if (pl->forfeits >= 2 && !pl->row.withdrawn)
				withdraw(t, p);
			int other = k ? g->first : g->second;
			pl->last = other;
		}
		tell_game(t, g);
		return;
	}
}

/* Stores result for pairing i (from the game, or the server's forfeit). */
static void
save_result(struct tourney *t, int i, int result)
{
	struct tgame *g = &t->gm[i];
	g->want = result;
	if (g->saving)
		return;
	struct op *o = op_new(t, result_back);
	if (!o)
		return;
	o->gid = g->row.id;
	o->result = result;
	g->saving = 1;
	if (op_call(t->ts, o, op_run_result) != 0)
		g->saving = 0;
}

static void
player_back(struct op *o, struct tourney *t)
{
	(void)t;
	if (o->rc != 0)
		log_warn(&o->ts->srv->log, "tournament %lld: a player not stored: %s",
		    (long long)o->tid, store_error(o->ts->srv->store));
}

/* p is paired no more (its second forfeit in a row, or TLEAVE). */
static void
withdraw(struct tourney *t, int p)
{
	t->pl[p].row.withdrawn = 1;
	struct op *o = op_new(t, player_back);
	if (!o)
		return;
	o->p = t->pl[p].row;
	op_call(t->ts, o, op_run_player);
}

/* The result game g's end gave pairing i. */
static int
result_of(const struct tourney *t, const struct tgame *g, struct room *r)
{
	game_result_t res;
	game_reason_t reason;
	if (g->forfeit)
		return g->forfeit;
	if (room_result(r, &res, &reason) != 0)
		return TR_PENDING;
	if (res == GAME_DRAWN)
		return TR_DRAW;
	if (res == GAME_NO_RESULT)
		return TR_BOTH_FORFEIT; /* abandoned by both, or stopped */
	const char *winner = room_seat_name(r, res == GAME_BLACK_WINS ? 0 : 1);
	(void)t;
	return strcasecmp(winner, g->row.first) == 0 ? TR_FIRST_WINS : TR_SECOND_WINS;
}

/* The rooms' call: a game ended. Its result is read now (the room may go
 * once its players leave) and stored on the next turn of the loop (the
 * room is in the middle of saying it). */
static void
game_over(void *arg, struct room *r)
{
	struct tourneys *ts = arg;
	int64_t id = room_tpair(r);
	struct tourney *t;
	if (!id)
		return;
	LIST_FOREACH (t, &ts->list, link)
		for (int i = 0; i < t->ngm; i++) {
			struct tgame *g = &t->gm[i];
			if (g->row.id != id)
				continue;
			if (g->row.result == TR_PENDING && !g->want)
				g->want = result_of(t, g, r);
			event_active(ts->soon, 0, 0);
			return;
		}
	/* a pairing this node has not read yet (another node's event): the
	 * node that runs it takes the result from the game's row */
	world_tourney_changed(&ts->srv->world, 0);
}

/* Each pairing whose result is known and not yet stored. */
static void
take_results(struct tourney *t)
{
	for (int i = 0; i < t->ngm; i++) {
		struct tgame *g = &t->gm[i];
		if (g->row.result == TR_PENDING && !g->saving && g->want)
			save_result(t, i, g->want);
	}
}

static void
soon_cb(evutil_socket_t fd, short what, void *arg)
{
	struct tourneys *ts = arg;
	struct tourney *t;
	(void)fd;
	(void)what;
	LIST_FOREACH (t, &ts->list, link)
		if (t->row.state == TS_RUNNING)
			take_results(t);
}

/* --- games --- */

struct starting {
	struct tourneys *ts;
	int64_t tid, gid;
	struct session *bots[2];
	struct session *far[2]; /* seats of other nodes' players (seat_far) */
};

static struct tgame *
game_by_id(struct tourney *t, int64_t gid, int *index)
{
	for (int i = 0; i < t->ngm; i++)
		if (t->gm[i].row.id == gid) {
			*index = i;
			return &t->gm[i];
		}
	return NULL;
}

static void
room_saved(struct op *o, struct tourney *t)
{
	(void)t;
	if (o->rc != 0)
		log_warn(&o->ts->srv->log, "tournament %lld: a pairing's room not stored: %s",
		    (long long)o->tid, store_error(o->ts->srv->store));
}

static void
started(void *arg, struct room *r, game_err_t e)
{
	struct starting *s = arg;
	if (!r) { /* shutdown: the bots and seats go with every session */
		free(s);
		return;
	}
	for (int k = 0; k < 2; k++) /* their players are sent here, or the seats go */
		if (s->far[k])
			world_seat_far_done(&s->ts->srv->world, s->far[k], e == GERR_OK ? r : NULL);
	struct tourney *t = find(s->ts, s->tid);
	int i = -1;
	struct tgame *g = t ? game_by_id(t, s->gid, &i) : NULL;
	struct botplay *bp = s->ts->srv->botplay;
	for (int k = 0; k < 2; k++) {
		if (!s->bots[k])
			continue;
		if (r && e == GERR_OK)
			botplay_attach(bp, s->bots[k], r);
		else if (r)
			botplay_drop(bp, s->bots[k]);
	}
	if (r && e != GERR_OK)
		room_check(r);
	if (g) {
		g->starting = 0;
		if (e != GERR_OK) {
			log_warn(&s->ts->srv->log,
			    "tournament %lld: round %d board %d: no game (%d)",
			    (long long)t->row.id, g->row.round, g->row.board, (int)e);
			for (int k = 0; k < t->npl; k++)
				if (t->pl[k].game == i)
					t->pl[k].game = -1;
		} else {
			snprintf(g->row.room, sizeof g->row.room, "%s", room_id(r));
			g->began_ms = clock_now_ms();
			struct op *o = op_new(t, room_saved);
			if (o) {
				o->gid = g->row.id;
				snprintf(o->room, sizeof o->room, "%s", g->row.room);
				op_call(t->ts, o, op_run_room);
			}
			tell_game(t, g);
		}
	}
	free(s);
}

/* The person of player p when it can play now: connected, at no other
 * game (a bot account: below its bot-max-games); NULL otherwise. */
static struct session *
person_here(struct tourney *t, int p)
{
	struct session *s = session_by_name(t->ts->srv, t->pl[p].row.name);
	if (!s || !s->conn || s->kind == SESSION_BOT || session_at_cap(s))
		return NULL;
	return s;
}

/* Whether player p, a person, is here to play, or online on another node
 * (whose seat is asked for when its game starts). */
static int
person_online(struct tourney *t, int p)
{
	if (person_here(t, p))
		return 1;
	struct world_place wp;
	world_user_where(&t->ts->srv->world, t->pl[p].row.name, &wp);
	return wp.at == WORLD_THERE && !wp.away;
}

/* The session that plays for player p now: a new bot of its level, or
 * the person (person_here); NULL when absent. */
static struct session *
seat_of(struct tourney *t, int p, struct session **bot)
{
	struct server *srv = t->ts->srv;
	*bot = NULL;
	if (t->pl[p].row.bot_level > 0) {
		if (!srv->botplay)
			return NULL;
		/* a hosted engine's seat by its name (bot-<engine>): its pick may
		 * differ after a restart with other engine lines */
		*bot = t->pl[p].row.bot_level >= BOTPLAY_ENGINE
		    ? botplay_restored(srv->botplay, t->pl[p].row.name)
		    : botplay_new_player(srv->botplay, t->pl[p].row.bot_level);
		return *bot;
	}
	struct session *s = person_here(t, p);
	if (s && s->seek) /* the tournament's game comes first */
		lobby_cancel(srv, s, s->seek->id);
	return s;
}

struct farseat {
	struct tourneys *ts;
	int64_t tid, gid;
	int side;
};

static void try_start(struct tourney *t, int i, int64_t now);

/* A far player's seat came (or NULL: it cannot play now). */
static void
far_back(void *arg, struct session *s)
{
	struct farseat *f = arg;
	struct tourney *t = find(f->ts, f->tid);
	int i = -1;
	struct tgame *g = t ? game_by_id(t, f->gid, &i) : NULL;
	if (g && g->asking && t->runs) {
		g->asking--;
		g->far[f->side] = s;
		g->far_no[f->side] = !s;
		if (s && !g->asking) /* NULL: the next tick (maybe a shutdown's) */
			try_start(t, i, clock_now_ms());
	} else if (g && g->asking) { /* run by another node now: the seat goes */
		g->asking--;
		if (s)
			world_seat_far_done(&f->ts->srv->world, s, NULL);
	} else if (s) {
		world_seat_far_done(&f->ts->srv->world, s, NULL);
	}
	free(f);
}

/* The seats of another node's players that pairing g holds go. */
static void
far_drop(struct tourney *t, struct tgame *g)
{
	for (int k = 0; k < 2; k++) {
		if (g->far[k])
			world_seat_far_done(&t->ts->srv->world, g->far[k], NULL);
		g->far[k] = NULL;
		g->far_no[k] = 0;
	}
}

/* Asks the node of pairing g's player on side k, a person online there,
 * for a seat: whether it was asked. */
static int
far_ask(struct tourney *t, struct tgame *g, int k)
{
	struct server *srv = t->ts->srv;
	const char *name = t->pl[k ? g->second : g->first].row.name, *why = NULL;
	struct world_place wp;
	world_user_where(&srv->world, name, &wp);
	if (wp.at != WORLD_THERE || wp.away)
		return 0;
	struct farseat *f = calloc(1, sizeof *f);
	if (!f)
		return 0;
	*f = (struct farseat){ t->ts, t->row.id, g->row.id, k };
	g->asking++; /* before: an answer may come at once */
	if (world_seat_far(&srv->world, name, far_back, f, &why) != GERR_PENDING) {
		g->asking--;
		free(f);
		return 0;
	}
	return 1;
}

/* Starts pairing i's game when both players are here (a person of
 * another node is asked for first, and plays here: world.h's seat_far);
 * past its deadline, the absent forfeit. */
static void
try_start(struct tourney *t, int i, int64_t now)
{
	struct tgame *g = &t->gm[i];
	struct server *srv = t->ts->srv;
	if (g->row.result != TR_PENDING || g->row.room[0] || g->starting || g->saving || g->want ||
	    g->asking)
		return;
	/* the persons not here: their nodes are asked, once */
	int asked = 0;
	for (int k = 0; k < 2; k++) {
		int p = k ? g->second : g->first;
		if (p == TOURNEY_BYE || t->pl[p].row.bot_level > 0 || g->far[k] || g->far_no[k] ||
		    person_here(t, p))
			continue;
		asked |= far_ask(t, g, k);
	}
	if (asked || g->asking)
		return;
	struct session *bot[2], *a, *b;
	a = g->far[0] ? g->far[0] : seat_of(t, g->first, &bot[0]);
	b = g->far[1] ? g->far[1] : seat_of(t, g->second, &bot[1]);
	if (g->far[0])
		bot[0] = NULL;
	if (g->far[1])
		bot[1] = NULL;
	if (!a || !b || session_make_room(a) || session_make_room(b)) {
		for (int k = 0; k < 2; k++)
			if (bot[k])
				botplay_drop(srv->botplay, bot[k]);
		if (now < g->deadline)
			return;
		far_drop(t, g);
		g->forfeit = !a && !b ? TR_BOTH_FORFEIT : !a ? TR_FIRST_FORFEIT : TR_SECOND_FORFEIT;
		log_info(&srv->log, "tournament %lld: round %d board %d: %s forfeits",
		    (long long)t->row.id, g->row.round, g->row.board,
		    !a && !b ? "both"
			: !a ? g->row.first
			     : g->row.second);
		save_result(t, i, g->forfeit);
		return;
	}
	struct gamespec spec = { (rule_t)t->row.rule, t->row.size, t->row.tc_base, t->row.tc_inc,
		WISH_BLACK, t->row.rated, (game_opening_t)t->row.opening };
	struct room *r = room_new(srv, &spec, 0);
	struct starting *s = calloc(1, sizeof *s);
	if (!r || !s) {
		free(s);
		for (int k = 0; k < 2; k++)
			if (bot[k])
				botplay_drop(srv->botplay, bot[k]);
		if (r)
			room_check(r);
		return;
	}
	s->ts = t->ts;
	s->tid = t->row.id;
	s->gid = g->row.id;
	s->bots[0] = bot[0];
	s->bots[1] = bot[1];
	s->far[0] = g->far[0];
	s->far[1] = g->far[1];
	g->far[0] = g->far[1] = NULL;
	room_set_tpair(r, g->row.id);
	g->starting = 1;
	t->pl[g->first].game = i;
	t->pl[g->second].game = i;
	/* "first" takes the opener's seat: black, which an opening rule's
	 * opener holds while it goes on */
	room_pair(r, a, WISH_BLACK, b, WISH_WHITE, started, s); /* started() hears how */
}

/* A game with no stone tourney-first-move seconds after its start: its
 * first player (the opener) forfeits. */
static void
check_first_moves(struct tourney *t, int64_t now)
{
	int64_t limit = (int64_t)t->ts->srv->cfg.tourney_first_move * 1000;
	for (int i = 0; i < t->ngm; i++) {
		struct tgame *g = &t->gm[i];
		if (g->row.result != TR_PENDING || !g->row.room[0] || g->forfeit)
			continue;
		struct room *r = room_find(t->ts->srv, g->row.room);
		if (!r || !room_unfinished(r) || room_position(r)->nmoves > 0)
			continue;
		if (!g->began_ms) /* a game this node took over: from now */
			g->began_ms = now;
		if (now - g->began_ms < limit)
			continue;
		g->forfeit = TR_FIRST_FORFEIT;
		log_info(&t->ts->srv->log, "tournament %lld: room %s: no first move, %s forfeits",
		    (long long)t->row.id, g->row.room, g->row.first);
		room_stop(r); /* the over hook takes g->forfeit */
	}
}

/* --- rounds --- */

static void
round_back(struct op *o, struct tourney *t)
{
	if (!t)
		return;
	t->pairing = 0;
	if (o->rc == STORE_EXISTS) {
		log_warn(&o->ts->srv->log, "tournament %lld: round %d was paired already",
		    (long long)t->row.id, o->round);
		return;
	}
	if (o->rc != 0) {
		log_warn(&o->ts->srv->log, "tournament %lld: round %d not stored: %s",
		    (long long)t->row.id, o->round, store_error(o->ts->srv->store));
		return; /* the tick pairs it again */
	}
	t->row.round = o->round;
	int64_t now = clock_now_ms();
	int from = t->ngm;
	for (int i = 0; i < o->ngames; i++) {
		struct tgame *g = add_game(t, &o->games[i]);
		if (g)
			g->deadline = now; /* not here at pairing: a forfeit */
	}
	if (t->row.kind != TK_ARENA)
		tell_state(t);
	for (int i = from; i < t->ngm; i++) {
		tell_game(t, &t->gm[i]);
		try_start(t, i, now);
	}
}

/* Stores pairings pure[0..n) (pairing indexes) as round `round`. */
static void
put_round(struct tourney *t, const int *ord, const struct tourney_game *pure, int n, int round)
{
	struct op *o = op_new(t, round_back);
	if (!o)
		return;
	o->games = calloc((size_t)(n ? n : 1), sizeof *o->games);
	if (!o->games) {
		free(o);
		return;
	}
	o->round = round;
	o->ngames = n;
	for (int i = 0; i < n; i++) {
		store_tgame_t *g = &o->games[i];
		g->round = round;
		g->board = i + 1;
		snprintf(g->first, sizeof g->first, "%s", t->pl[ord[pure[i].first]].row.name);
		if (pure[i].second != TOURNEY_BYE)
			snprintf(
			    g->second, sizeof g->second, "%s", t->pl[ord[pure[i].second]].row.name);
		g->result = pure[i].result;
	}
	t->pairing = 1;
	if (op_call(t->ts, o, op_run_round) != 0)
		t->pairing = 0;
}

static int
round_robin_rounds(const struct tourney *t)
{
	return rr_rounds(t->npl) * (t->row.length > 1 ? 2 : 1);
}

static int
total_rounds(const struct tourney *t)
{
	return t->row.kind == TK_SWISS ? t->row.length : round_robin_rounds(t);
}

/* The next round of a Swiss or round robin; 1 when there is none. */
static int
pair_round(struct tourney *t)
{
	int round = t->row.round + 1, n = t->npl;
	if (round > total_rounds(t))
		return 1;
	int64_t begun = metrics_now_us();
	struct table tb;
	if (table_make(t, &tb) != 0)
		return 0;
	struct tourney_game *out = calloc((size_t)n, sizeof *out);
	int k = -1;
	if (out) {
		if (t->row.kind == TK_SWISS)
			k = swiss_pair(tb.pp, n, tb.gg, t->ngm, round, t->row.length, out, n);
		else
			k = rr_round(n, round, out, n);
	}
	if (k < 0) {
		free(out);
		table_free(&tb);
		return k == -1 && out ? 1 : 0; /* no pairing keeps the rules: the event ends */
	}
	/* a round robin's withdrawn player forfeits the games it has left */
	for (int i = 0; i < k; i++) {
		struct tourney_game *g = &out[i];
		if (g->second == TOURNEY_BYE) {
			g->result = TR_BYE;
			continue;
		}
		int wa = tb.pp[g->first].withdrawn, wb = tb.pp[g->second].withdrawn;
		if (wa || wb)
			g->result = wa && wb ? TR_BOTH_FORFEIT
			    : wa             ? TR_FIRST_FORFEIT
					     : TR_SECOND_FORFEIT;
	}
	metrics_observe(t->ts->srv->metrics, METRIC_TOURNEY_PAIRING, metrics_now_us() - begun);
	put_round(t, tb.ord, out, k, round);
	free(out);
	table_free(&tb);
	return 0;
}

/* An arena's wave: its free players paired, by points then rating. */
static void
pair_arena(struct tourney *t)
{
	struct table tb;
	int64_t begun = metrics_now_us();
	if (t->npl < 2 || table_make(t, &tb) != 0)
		return;
	struct arena_waiting *w = calloc((size_t)t->npl, sizeof *w);
	struct tourney_game *out = calloc((size_t)t->npl, sizeof *out);
	int *pts = calloc((size_t)t->npl, sizeof *pts), nw = 0;
	for (int k = 0; pts && k < tb.n; k++) /* each pairing index's points */
		pts[tb.st[k].player] = tb.st[k].points;
	for (int k = 0; w && out && pts && k < t->npl; k++) {
		int p = tb.ord[k];
		struct tplayer *pl = &t->pl[p];
		if (pl->row.withdrawn || pl->game >= 0)
			continue;
		if (pl->row.bot_level == 0 && !person_online(t, p))
			continue; /* not here: an arena waits for it */
		w[nw].player = k;
		w[nw].points = pts[k];
		w[nw].rating = pl->row.rating;
		w[nw].last_opponent = pl->last == TOURNEY_BYE ? TOURNEY_BYE : tb.pos[pl->last];
		w[nw].firsts = pl->firsts;
		w[nw].seconds = pl->seconds;
		nw++;
	}
	int k = nw >= 2 ? arena_pair(w, nw, out, t->npl) : 0;
	if (k > 0) {
		metrics_observe(
		    t->ts->srv->metrics, METRIC_TOURNEY_PAIRING, metrics_now_us() - begun);
		for (int i = 0; i < k; i++) {
			t->pl[tb.ord[out[i].first]].firsts++;
			t->pl[tb.ord[out[i].second]].seconds++;
		}
		put_round(t, tb.ord, out, k, t->row.round + 1);
	}
	free(pts);
	free(w);
	free(out);
	table_free(&tb);
}

/* --- the event's life --- */

static void
state_back(struct op *o, struct tourney *t)
{
	if (!t)
		return;
	t->saving = 0;
	if (o->rc != 0) {
		log_warn(&o->ts->srv->log, "tournament %lld: its state not stored: %s",
		    (long long)t->row.id, store_error(o->ts->srv->store));
		return; /* the tick tries again */
	}
	t->row.state = o->t.state;
	t->row.ended = o->t.ended;
	log_info(&o->ts->srv->log, "tournament %lld: %s", (long long)t->row.id,
	    t->row.state == TS_RUNNING    ? "started"
		: t->row.state == TS_OVER ? "over"
					  : "cancelled");
	tell_state(t);
	push_standings(t);
}

static void
set_state(struct tourney *t, int state)
{
	if (t->saving)
		return;
	struct op *o = op_new(t, state_back);
	if (!o)
		return;
	o->t = t->row;
	o->t.state = state;
	o->t.ended = state >= TS_OVER ? wall() : 0;
	t->saving = 1;
	if (op_call(t->ts, o, op_run_state) != 0)
		t->saving = 0;
}

static int
games_pending(const struct tourney *t)
{
	for (int i = 0; i < t->ngm; i++)
		if (t->gm[i].row.result == TR_PENDING)
			return 1;
	return 0;
}

static void
step(struct tourney *t, int64_t now)
{
	if (t->saving || t->pairing)
		return;
	if (t->row.state == TS_SOON) {
		if (wall() < t->row.starts)
			return;
		int active = 0;
		for (int i = 0; i < t->npl; i++)
			active += !t->pl[i].row.withdrawn;
		set_state(t,
		    active >= 2 && (t->row.kind != TK_ROBIN || t->npl <= TOURNEY_ROBIN_MAX_PLAYERS)
			? TS_RUNNING
			: TS_CANCELLED);
		return;
	}
	if (t->row.state != TS_RUNNING)
		return;
	take_results(t);
	for (int i = 0; i < t->ngm; i++)
		try_start(t, i, now);
	check_first_moves(t, now);
	if (t->row.kind == TK_ARENA) {
		if (wall() < t->row.starts + (int64_t)t->row.length * 60)
			pair_arena(t);
		else if (!games_pending(t))
			set_state(t, TS_OVER);
	} else if (!games_pending(t) && pair_round(t) == 1) {
		set_state(t, TS_OVER);
	}
	push_standings(t);
}

/* --- the schedule (tourney-daily) --- */

struct daily {
	struct tourneys *ts;
	int i;
};

static void
daily_made(void *arg, int64_t id, const char *why)
{
	struct daily *dy = arg;
	dy->ts->daily[dy->i] = 0;
	if (!id)
		log_warn(&dy->ts->srv->log, "tourney-daily %d: %s", dy->i + 1, why);
	free(dy);
}

/* Each tourney-daily line's next event, made an hour before its start
 * unless the server holds it already (made before a restart). */
static void
schedule(struct tourneys *ts)
{
	const struct config *cfg = &ts->srv->cfg;
	int64_t now = wall();
	for (int i = 0; i < cfg->ndaily; i++) {
		unsigned hh, mm;
		int off = 0;
		const char *line = cfg->tourney_daily[i];
		if (ts->daily[i] || sscanf(line, "%2u:%2u %n", &hh, &mm, &off) != 2 || !off)
			continue;
		int64_t slot = now - now % 86400 + (int64_t)hh * 3600 + (int64_t)mm * 60;
		if (slot <= now)
			slot += 86400;
		if (slot - now > TOURNEY_DAILY_AHEAD_S || slot - now < TOURNEY_START_MIN_S)
			continue;
		struct tourney *t;
		int held = 0;
		LIST_FOREACH (t, &ts->list, link)
			held |= !t->row.creator[0] && t->row.starts >= slot - 2 &&
			    t->row.starts <= slot + 2;
		if (held)
			continue;
		/* TCREATE's words with the start put in before the length */
		char kind[16], rule[16], size[8], tc[24], opening[16], rated[16], who[16], req[300],
		    err[120];
		int rest = 0;
		proto_msg_t m;
		const char *why = NULL;
		int rc = -1;
		if (sscanf(line + off, "%15s %15s %7s %23s %15s %15s %15s %n", kind, rule, size, tc,
			opening, rated, who, &rest) == 7 &&
		    rest) {
			int n = snprintf(req, sizeof req, "TCREATE %s %s %s %s %s %s %s %lld %s",
			    kind, rule, size, tc, opening, rated, who, (long long)(slot - now),
			    line + off + rest);
			if (n > 0 && (size_t)n < sizeof req &&
			    proto_parse(req, (size_t)n, PROTO_CLIENT, &m, err, sizeof err) == 0) {
				struct daily *dy = calloc(1, sizeof *dy);
				if (dy) {
					dy->ts = ts;
					dy->i = i;
					ts->daily[i] = 1;
					rc = tourneys_create(ts, &m, daily_made, dy, &why);
					if (rc) {
						ts->daily[i] = 0;
						free(dy);
					}
				}
			} else {
				why = err;
			}
		}
		if (rc && ts->daily_bad[i] != slot) { /* once a slot in the log */
			ts->daily_bad[i] = slot;
			log_warn(&ts->srv->log, "tourney-daily %d (%s): not made: %s", i + 1, line,
			    why ? why : "not a tournament's words");
		}
	}
}

static void rescan(struct tourneys *ts);
static void ask_runs(struct tourney *t);
static void reload(struct tourney *t);

static void
tick_cb(evutil_socket_t fd, short what, void *arg)
{
	struct tourneys *ts = arg;
	struct tourney *t;
	(void)fd;
	(void)what;
	int64_t now = clock_now_ms();
	/* one node makes the schedule's events (tournament 0: the schedule) */
	if (ts->srv->cfg.ndaily && world_tourney_runs(&ts->srv->world, 0))
		schedule(ts);
	if (ts->scan && !ts->scanning)
		rescan(ts);
	LIST_FOREACH (t, &ts->list, link) {
		ask_runs(t);
		/* another node's change: read at once by the node that runs the
		 * event or has its followers, within STALE_MS by the others (a
		 * busy arena changes every second: TLIST may be that old) */
		if (t->stale && !t->loading && !t->pairing && !t->saving &&
		    (t->runs || t->nw > 0 || now - t->read_ms >= STALE_MS))
			reload(t);
		if (t->runs && !t->stale && !t->loading) {
			step(t, now);
		} else if (t->row.state == TS_RUNNING) {
			/* another node's: the games here, and the followers here */
			check_first_moves(t, now);
			push_standings(t);
		}
		if (t->push) { /* a join or leave (step pushes a running one's) */
			t->push = 0;
			push_standings(t);
		}
	}
}

/* --- loading --- */

/* What the store has of pairing i's game (a game's row naming it). */
struct linked {
	int has, ended, result;
	char black[STORE_NAME_MAX + 1];
	char room[STORE_ROOM_MAX + 1];
};

/* An event as the store has it: its row, its players, its pairings and
 * the game each pending one's row names. Read on the store thread (or on
 * the loop at the start), merged on the loop. */
struct loaded {
	int rc; /* 0, STORE_NOT_FOUND, or the store's error */
	store_tourney_t row;
	store_tplayer_t *pl;
	int npl, plcap;
	store_tgame_t *gm;
	int ngm, gmcap;
	struct linked *ln; /* ngm of them */
};

static void
loaded_free(struct loaded *l)
{
	free(l->pl);
	free(l->gm);
	free(l->ln);
	memset(l, 0, sizeof *l);
}

static void
fetch_player(void *arg, const store_tplayer_t *p)
{
	struct loaded *l = arg;
	if (grow((void **)&l->pl, &l->plcap, l->npl + 1, sizeof *l->pl) != 0)
		l->rc = -1;
	else
		l->pl[l->npl++] = *p;
}

static void
fetch_game(void *arg, const store_tgame_t *g)
{
	struct loaded *l = arg;
	if (grow((void **)&l->gm, &l->gmcap, l->ngm + 1, sizeof *l->gm) != 0)
		l->rc = -1;
	else
		l->gm[l->ngm++] = *g;
}

/* Event id as st has it into l (l->rc says how it went). */
static void
fetch(store_t *st, int64_t id, struct loaded *l)
{
	memset(l, 0, sizeof *l);
	l->rc = store_tourney_get(st, id, &l->row);
	if (l->rc != 0)
		return;
	if (store_tplayers(st, id, fetch_player, l) < 0 ||
	    store_tgames(st, id, fetch_game, l) < 0) {
		l->rc = -1;
		return;
	}
	if (l->rc != 0)
		return;
	l->ln = calloc((size_t)(l->ngm ? l->ngm : 1), sizeof *l->ln);
	if (!l->ln) {
		l->rc = -1;
		return;
	}
	for (int i = 0; i < l->ngm; i++) {
		store_game_t row;
		if (l->gm[i].result != TR_PENDING || store_tgame_linked(st, l->gm[i].id, &row) != 0)
			continue;
		struct linked *k = &l->ln[i];
		k->has = 1;
		k->ended = row.ended != 0;
		k->result = row.result;
		snprintf(k->black, sizeof k->black, "%s", row.black);
		snprintf(k->room, sizeof k->room, "%s", row.room);
	}
}

/* The pairing's result a game's stored end gives. */
static int
linked_result(const struct linked *k, const store_tgame_t *g)
{
	if (k->result == GAME_DRAWN)
		return TR_DRAW;
	if (k->result == GAME_NO_RESULT)
		return TR_BOTH_FORFEIT;
	/* the winner's seat: black, or white */
	int black_won = k->result == GAME_BLACK_WINS;
	int first_black = strcasecmp(k->black, g->first) == 0;
	return black_won == first_black ? TR_FIRST_WINS : TR_SECOND_WINS;
}

/* A player's name and its index, sorted by name (any case): a big
 * event's pairings find their players in log n. */
struct named {
	const char *name;
	int i;
};

static int
by_name(const void *a, const void *b)
{
	return strcasecmp(((const struct named *)a)->name, ((const struct named *)b)->name);
}

static struct named *
names_of(const char *(*name)(const void *v, int i), const void *v, int n)
{
	struct named *x = calloc((size_t)(n ? n : 1), sizeof *x);
	for (int i = 0; x && i < n; i++)
		x[i] = (struct named){ name(v, i), i };
	if (x && n > 1)
		qsort(x, (size_t)n, sizeof *x, by_name);
	return x;
}

/* name's index in x (n of them), or -1. */
static int
named_find(const struct named *x, int n, const char *name)
{
	struct named key = { name, 0 };
	const struct named *f = n ? bsearch(&key, x, (size_t)n, sizeof *x, by_name) : NULL;
	return f ? f->i : -1;
}

static const char *
tplayer_name(const void *v, int i)
{
	return ((const struct tplayer *)v)[i].row.name;
}

static const char *
row_name(const void *v, int i)
{
	return ((const store_tplayer_t *)v)[i].name;
}

static int
by_game_id(const void *a, const void *b)
{
	int64_t x = ((const struct tgame *)a)->row.id, y = ((const struct tgame *)b)->row.id;
	return (x > y) - (x < y);
}

/* What each player is doing and has done, from the pairings in order of
 * their rows: the game it plays, its last opponent, its roles, its
 * forfeits lost in a row. */
static void
recount(struct tourney *t)
{
	for (int p = 0; p < t->npl; p++) {
		struct tplayer *pl = &t->pl[p];
		pl->game = -1;
		pl->last = TOURNEY_BYE;
		pl->firsts = pl->seconds = pl->forfeits = 0;
	}
	for (int i = 0; i < t->ngm; i++) {
		struct tgame *g = &t->gm[i];
		int a = g->first, b = g->second;
		if (b != TOURNEY_BYE) {
			t->pl[a].firsts++;
			t->pl[b].seconds++;
		}
		if (g->row.result == TR_PENDING) {
			if (g->row.room[0] || g->starting) {
				t->pl[a].game = i;
				if (b != TOURNEY_BYE)
					t->pl[b].game = i;
			}
			continue;
		}
		for (int k = 0; k < 2; k++) {
			int p = k ? b : a;
			if (p == TOURNEY_BYE)
				continue;
			int lost = g->row.result == (k ? TR_SECOND_FORFEIT : TR_FIRST_FORFEIT) ||
			    g->row.result == TR_BOTH_FORFEIT;
			t->pl[p].forfeits = lost ? t->pl[p].forfeits + 1 : 0;
			t->pl[p].last = k ? a : b;
		}
	}
}

/* The store's event l becomes t's state. What this node did that the
 * read may not show yet (a result or a room it stored meanwhile), what it
 * showed its followers and its games under way stay. adopting: this node
 * runs it from now on (a start, or another node gone): a pending pairing
 * with no game waits tourney-first-move seconds for its players, and a
 * game here counts from now for its first move. Its followers hear what
 * changed. 0, or -1 (out of memory: t is as it was). */
static int
merge(struct tourney *t, const struct loaded *l, int adopting)
{
	struct server *srv = t->ts->srv;
	int64_t now = clock_now_ms();
	struct tplayer *pl = calloc((size_t)(l->npl ? l->npl : 1), sizeof *pl);
	struct tgame *gm = calloc((size_t)(l->ngm ? l->ngm : 1), sizeof *gm);
	char *fresh = calloc((size_t)(l->ngm ? l->ngm : 1), 1);
	struct named *mine = names_of(tplayer_name, t->pl, t->npl);
	struct named *theirs = names_of(row_name, l->pl, l->npl);
	if (!pl || !gm || !fresh || !mine || !theirs) {
		free(pl);
		free(gm);
		free(fresh);
		free(mine);
		free(theirs);
		return -1;
	}
	for (int i = 0; i < l->npl; i++) {
		int j = named_find(mine, t->npl, l->pl[i].name);
		if (j >= 0)
			pl[i] = t->pl[j]; /* its line as last shown */
		pl[i].row = l->pl[i];
	}
	/* the pairings: this node's are in order of their rows */
	if (t->ngm > 1)
		qsort(t->gm, (size_t)t->ngm, sizeof *t->gm, by_game_id);
	int n = 0, skipped = 0;
	for (int i = 0; i < l->ngm; i++) {
		const store_tgame_t *row = &l->gm[i];
		struct tgame key, *old;
		key.row.id = row->id;
		old = t->ngm ? bsearch(&key, t->gm, (size_t)t->ngm, sizeof *t->gm, by_game_id)
			     : NULL;
		struct tgame *g = &gm[n];
		int first = named_find(theirs, l->npl, row->first);
		int second = row->second[0] ? named_find(theirs, l->npl, row->second) : TOURNEY_BYE;
		if (first < 0 || (row->second[0] && second < 0)) {
			skipped++; /* a pairing that names no player of the event */
			continue;
		}
		if (old) {
			*g = *old;
			store_tgame_t r = *row;
			if (r.result == TR_PENDING && old->row.result != TR_PENDING)
				r.result = old->row.result; /* stored here since the read */
			if (!r.room[0] && old->row.room[0])
				snprintf(r.room, sizeof r.room, "%s", old->row.room);
			fresh[n] = r.result != old->row.result ||
			    strcmp(r.room, old->row.room) != 0;
			g->row = r;
		} else {
			memset(g, 0, sizeof *g);
			g->row = *row;
			g->deadline = now; /* not here at pairing: a forfeit */
			fresh[n] = 1;
		}
		g->first = first;
		g->second = second;
		const struct linked *k = l->ln ? &l->ln[i] : NULL;
		if (g->row.result == TR_PENDING && k && k->has) {
			if (k->ended) { /* ended before its result was stored */
				if (!g->want)
					g->want = linked_result(k, &g->row);
			} else if (!g->row.room[0]) {
				snprintf(g->row.room, sizeof g->row.room, "%s", k->room);
				fresh[n] = 1;
			}
		}
		if (adopting && g->row.result == TR_PENDING) {
			if (!g->row.room[0] && !g->starting)
				g->deadline = now + (int64_t)srv->cfg.tourney_first_move * 1000;
			else if (g->row.room[0] && !g->began_ms && room_find(srv, g->row.room))
				g->began_ms = now;
		}
		n++;
	}
	free(mine);
	free(theirs);
	if (skipped)
		log_warn(&srv->log, "tournament %lld: %d pairings name no player of it: left out",
		    (long long)t->row.id, skipped);
	int told = t->row.state != l->row.state || t->row.round != l->row.round || t->npl != l->npl;
	free(t->pl);
	free(t->gm);
	t->pl = pl;
	t->npl = t->plcap = l->npl;
	t->gm = gm;
	t->ngm = n;
	t->gmcap = l->ngm;
	t->row = l->row;
	recount(t);
	if (told)
		tell_state(t);
	for (int i = 0; i < t->ngm; i++)
		if (fresh[i])
			tell_game(t, &t->gm[i]);
	free(fresh);
	return 0;
}

static struct tourney *
tourney_add(struct tourneys *ts, const store_tourney_t *row)
{
	struct tourney *t = calloc(1, sizeof *t);
	if (!t)
		return NULL;
	t->ts = ts;
	t->row = *row;
	LIST_INSERT_HEAD(&ts->list, t, link);
	return t;
}

static void
load_tourney(void *arg, const store_tourney_t *row)
{
	struct tourneys *ts = arg;
	struct tourney *t = tourney_add(ts, row);
	if (t)
		t->fresh = 1;
	else
		ts->failed = 1;
}

/* At the start: every event not over long ago, each pairing's game as the
 * store has it (finished: its result; unfinished: its restored room). */
static int
load(struct tourneys *ts)
{
	struct server *srv = ts->srv;
	if (store_tourneys(srv->store, wall() - LOAD_DAYS * 24 * 3600, load_tourney, ts) < 0 ||
	    ts->failed)
		return -1;
	struct tourney *t;
	LIST_FOREACH (t, &ts->list, link) {
		struct loaded l;
		fetch(srv->store, t->row.id, &l);
		int rc = l.rc == 0 ? merge(t, &l, 1) : -1;
		loaded_free(&l);
		if (rc != 0)
			return -1;
	}
	return 0;
}

/* --- on several nodes (world.h's tourney_runs) --- */

struct reload {
	struct tourneys *ts;
	int64_t id;
	int adopting;
	struct loaded l;
};

static void
reload_run(store_t *st, void *arg)
{
	struct reload *r = arg;
	fetch(st, r->id, &r->l);
}

static void
reload_back(void *arg, int cancelled)
{
	struct reload *r = arg;
	struct tourney *t = cancelled ? NULL : find(r->ts, r->id);
	if (t) {
		t->loading = 0;
		if (r->l.rc != 0 || merge(t, &r->l, r->adopting) != 0) {
			t->stale = 1; /* the next tick reads it again */
			t->adopting |= r->adopting;
			if (r->l.rc != STORE_NOT_FOUND)
				log_warn(&r->ts->srv->log, "tournament %lld: not read again: %s",
				    (long long)r->id, store_error(r->ts->srv->store));
		}
	}
	loaded_free(&r->l);
	free(r);
}

/* t as the store has it now, before this node acts on it again. */
static void
reload(struct tourney *t)
{
	struct reload *r = calloc(1, sizeof *r);
	if (!r)
		return;
	r->ts = t->ts;
	r->id = t->row.id;
	r->adopting = t->adopting;
	t->stale = t->adopting = 0;
	t->loading = 1;
	t->read_ms = clock_now_ms();
	if (archive_call(t->ts->srv, reload_run, reload_back, r) != 0) {
		free(r);
		t->loading = 0;
		t->stale = 1;
	}
}

struct scan {
	struct tourneys *ts;
	store_tourney_t *rows;
	int n, cap, rc;
};

static void
scan_row(void *arg, const store_tourney_t *row)
{
	struct scan *k = arg;
	if (grow((void **)&k->rows, &k->cap, k->n + 1, sizeof *k->rows) != 0)
		k->rc = -1;
	else
		k->rows[k->n++] = *row;
}

static void
scan_run(store_t *st, void *arg)
{
	struct scan *k = arg;
	if (store_tourneys(st, wall() - LOAD_DAYS * 24 * 3600, scan_row, k) < 0)
		k->rc = -1;
}

/* The events another node made: each read whole on the next tick. */
static void
scan_back(void *arg, int cancelled)
{
	struct scan *k = arg;
	if (!cancelled) {
		k->ts->scanning = 0;
		for (int i = 0; k->rc == 0 && i < k->n; i++) {
			struct tourney *t = find(k->ts, k->rows[i].id);
			if (!t && (t = tourney_add(k->ts, &k->rows[i])) != NULL)
				t->stale = 1;
		}
	}
	free(k->rows);
	free(k);
}

static void
rescan(struct tourneys *ts)
{
	struct scan *k = calloc(1, sizeof *k);
	if (!k)
		return;
	k->ts = ts;
	ts->scan = 0;
	ts->scanning = 1;
	if (archive_call(ts->srv, scan_run, scan_back, k) != 0) {
		free(k);
		ts->scanning = 0;
		ts->scan = 1;
	}
}

void
tourneys_stale(struct tourneys *ts, int64_t id)
{
	struct tourney *t = id ? find(ts, id) : NULL;
	if (t) {
		t->stale = 1;
		return;
	}
	if (!id)
		LIST_FOREACH (t, &ts->list, link)
			if (t->row.state < TS_OVER && !t->old)
				t->stale = 1;
	ts->scan = 1;
}

/* Whether t is this node's to run now, as the world says; taking it
 * over, it is read again first. */
static void
ask_runs(struct tourney *t)
{
	struct server *srv = t->ts->srv;
	if (t->row.state >= TS_OVER || t->old) {
		t->runs = 0;
		return;
	}
	int runs = world_tourney_runs(&srv->world, t->row.id);
	if (runs && !t->runs) {
		t->runs = 1;
		if (!t->fresh) {
			t->stale = 1;
			t->adopting = 1;
		}
		t->fresh = 0;
	} else if (!runs) {
		if (t->runs) {
			log_info(&srv->log,
			    "tournament %lld: not run by this node now (another holds it, or "
			    "the cluster cannot be reached)",
			    (long long)t->row.id);
			for (int i = 0; i < t->ngm; i++) /* the seats it held for its games */
				far_drop(t, &t->gm[i]);
		}
		t->runs = 0;
		t->fresh = 0;
	}
}

/* --- requests --- */

static void
unwatch(struct tourney *t, const struct conn *c)
{
	for (int i = 0; i < t->nw; i++)
		if (t->w[i] == c) {
			t->nw--;
			t->w[i] = t->w[t->nw];
			t->wplays[i] = t->wplays[t->nw];
			return;
		}
}

static int
watch(struct tourney *t, struct conn *c)
{
	int plays = c->sess && player_of(t, c->sess->name) >= 0;
	for (int i = 0; i < t->nw; i++)
		if (t->w[i] == c) {
			t->wplays[i] = (char)plays; /* a follower who joined since */
			return 0;
		}
	if (grow((void **)&t->w, &t->wcap, t->nw + 1, sizeof *t->w) != 0 ||
	    grow((void **)&t->wplays, &t->wpcap, t->nw + 1, sizeof *t->wplays) != 0)
		return -1;
	t->wplays[t->nw] = (char)plays;
	t->w[t->nw++] = c;
	return 0;
}

static void
conn_gone(void *arg, struct conn *c)
{
	struct tourneys *ts = arg;
	struct tourney *t;
	LIST_FOREACH (t, &ts->list, link)
		unwatch(t, c);
}

static void
snapshot(struct tourney *t, struct conn *c)
{
	proto_msg_t m;
	tourney_line(t, PD_TOURNEY, &m);
	conn_send(c, &m);
	struct table tb;
	if (table_make(t, &tb) == 0) {
		for (int k = 0; k < tb.n; k++) {
			player_line(t, &tb, &tb.st[k], PD_TPLAYER, &m);
			conn_send(c, &m);
		}
		table_free(&tb);
	}
	for (int i = 0; i < t->ngm; i++) {
		const struct tgame *g = &t->gm[i];
		int now = t->row.kind == TK_ARENA ? g->row.result == TR_PENDING
						  : g->row.round == t->row.round;
		if (now) {
			game_line(t, g, PD_TGAME, &m);
			conn_send(c, &m);
		}
	}
}

static int
is_admin(struct server *srv, const struct session *s)
{
	return s->kind == SESSION_ACCOUNT && admin_is(srv->admin, s);
}

struct create {
	struct tourneys *ts;
	store_tourney_t row;
	int rc;
	char tag[PROTO_TAG_MAX + 1]; /* the request's, for the reply */
};

static void
create_run(store_t *st, void *arg)
{
	struct create *k = arg;
	k->rc = store_tourney_new(st, &k->row);
}

/* A new event stored: now one of the module's, logged; NULL when out of
 * memory (the row stays in the store: the next start loads it). */
static struct tourney *
created(struct tourneys *ts, const store_tourney_t *row)
{
	struct tourney *t = calloc(1, sizeof *t);
	if (!t)
		return NULL;
	t->ts = ts;
	t->row = *row;
	t->fresh = 1;
	LIST_INSERT_HEAD(&ts->list, t, link);
	log_info(&ts->srv->log, "tournament %lld created by %s", (long long)t->row.id,
	    t->row.creator[0] ? t->row.creator : "the server");
	world_tourney_changed(&ts->srv->world, t->row.id);
	return t;
}

static int
create_reply(struct conn *c, void *arg, const char **why)
{
	struct create *k = arg;
	int rc = 0;
	if (c && k->rc != 0) {
		*why = "the tournament could not be stored";
		rc = store_unavailable(c->srv->store) ? ERR_STORE_DOWN : ERR_INTERNAL;
	} else if (k->rc == 0) {
		struct tourney *t = created(k->ts, &k->row);
		if (t) {
			if (c) {
				watch(t, c);
				proto_msg_t m;
				proto_init(&m, PO_TCREATE, k->tag);
				m.ident = t->row.id;
				conn_send(c, &m);
			}
		}
	}
	free(k);
	return rc;
}

static int
open_count(struct tourneys *ts, const char *creator)
{
	int n = 0;
	struct tourney *t;
	LIST_FOREACH (t, &ts->list, link)
		if (t->row.state <= TS_RUNNING && strcasecmp(t->row.creator, creator) == 0)
			n++;
	return n;
}

/* The row of a TCREATE m by creator ("" the server; admins have no
 * limit of events): 0, or the refusal's code with *why. */
static int
new_row(struct tourneys *ts, const proto_msg_t *m, const char *creator, int admin,
    store_tourney_t *r, const char **why)
{
	struct server *srv = ts->srv;
	struct gamespec g;
	wire_gamespec(&g, m);
	if (gamespec_check(&g, why) != 0)
		return ERR_ARGUMENT;
	if (g.tc_base <= 0) {
		*why = "a tournament's games need clocks";
		return ERR_ARGUMENT;
	}
	if (m->count < TOURNEY_START_MIN_S || m->count > TOURNEY_START_MAX_S) {
		*why = "the start is 5 seconds to 7 days away";
		return ERR_ARGUMENT;
	}
	int kind = m->tkind == TKIND_ARENA ? TK_ARENA
	    : m->tkind == TKIND_SWISS      ? TK_SWISS
					   : TK_ROBIN;
	int max = kind == TK_ARENA ? TOURNEY_ARENA_MAX_MIN
	    : kind == TK_SWISS     ? TOURNEY_SWISS_MAX_ROUNDS
				   : 2;
	if (m->count2 < 1 || m->count2 > max) {
		*why = kind == TK_ARENA ? "an arena lasts 1 to 720 minutes"
		    : kind == TK_SWISS  ? "a Swiss has 1 to 20 rounds"
					: "a round robin is played once or twice (1 or 2)";
		return ERR_ARGUMENT;
	}
	if (strlen(m->text) > STORE_TOURNEY_NAME_MAX) {
		*why = "a name of at most 120 bytes";
		return ERR_ARGUMENT;
	}
	if (!admin && open_count(ts, creator) >= srv->cfg.tourney_per_account) {
		*why = "you have as many tournaments not yet over as an account may";
		return ERR_OVER_LIMIT;
	}
	memset(r, 0, sizeof *r);
	r->kind = kind;
	r->state = TS_SOON;
	r->entrants = m->entrants == ENTRANTS_PEOPLE ? TE_PEOPLE
	    : m->entrants == ENTRANTS_BOTS           ? TE_BOTS
						     : TE_BOTH;
	r->rule = g.rule;
	r->size = g.size;
	r->opening = g.opening;
	r->rated = g.rated;
	r->tc_base = g.tc_base;
	r->tc_inc = g.tc_inc;
	r->starts = wall() + m->count;
	r->length = (int)m->count2;
	snprintf(r->creator, sizeof r->creator, "%s", creator);
	snprintf(r->name, sizeof r->name, "%s", m->text);
	snprintf(r->owner, sizeof r->owner, "%s", srv->cfg.node_name);
	r->created = wall();
	return 0;
}

static int
tcreate(struct tourneys *ts, struct conn *c, const proto_msg_t *m, const char **why)
{
	struct session *s = c->sess;
	if (s->kind != SESSION_ACCOUNT) {
		*why = "tournaments are made by accounts";
		return ERR_ACCOUNT_ONLY;
	}
	struct create *k = calloc(1, sizeof *k);
	if (!k)
		return ERR_INTERNAL;
	int rc = new_row(ts, m, s->name, is_admin(ts->srv, s), &k->row, why);
	if (rc) {
		free(k);
		return rc;
	}
	k->ts = ts;
	snprintf(k->tag, sizeof k->tag, "%s", m->tag);
	return cmd_store(c, m->tag, create_run, create_reply, k, why);
}

/* The server's own event (tourneys_create): stored, then said. */
struct made {
	struct create k;
	tourneys_made_fn done;
	void *arg;
	/* a league's event (tourneys_league): its number and players */
	char league[32];
	int league_n;
	store_tplayer_t *pl;
	int npl;
};

static void
league_run(store_t *st, void *arg)
{
	struct made *md = arg;
	md->k.rc = store_league_event(st, md->league, md->league_n, &md->k.row, md->pl, md->npl);
}

static void
made_back(void *arg, int cancelled)
{
	struct made *md = arg;
	struct tourneys *ts = md->k.ts;
	int64_t id = 0;
	if (!cancelled && md->k.rc == 0) {
		struct tourney *t = created(ts, &md->k.row);
		if (t)
			id = t->row.id;
		for (int i = 0; t && i < md->npl; i++)
			add_player(t, &md->pl[i]); /* stored with it */
	}
	if (md->done)
		md->done(md->arg, id,
		    id                             ? NULL
			: cancelled                ? "the server is stopping"
			: md->k.rc == STORE_EXISTS ? "it was made already (by another node)"
						   : "the tournament could not be stored");
	free(md->pl);
	free(md);
}

int
tourneys_create(
    struct tourneys *ts, const proto_msg_t *m, tourneys_made_fn done, void *arg, const char **why)
{
	struct made *md = calloc(1, sizeof *md);
	if (!md) {
		*why = "out of memory";
		return ERR_INTERNAL;
	}
	int rc = new_row(ts, m, "", 1, &md->k.row, why);
	if (rc) {
		free(md);
		return rc;
	}
	md->k.ts = ts;
	md->done = done;
	md->arg = arg;
	if (archive_call(ts->srv, create_run, made_back, md) != 0) {
		free(md);
		*why = "the database is busy; try again in a moment";
		return ERR_SERVER_BUSY;
	}
	return 0;
}

int
tourneys_league(struct tourneys *ts, const proto_msg_t *m, const char *league, int n,
    const char *const *players, int np, tourneys_made_fn done, void *arg, const char **why)
{
	struct made *md = calloc(1, sizeof *md);
	store_tplayer_t *pl = calloc((size_t)(np ? np : 1), sizeof *pl);
	if (!md || !pl) {
		free(md);
		free(pl);
		*why = "out of memory";
		return ERR_INTERNAL;
	}
	int rc = new_row(ts, m, "", 1, &md->k.row, why);
	if (rc) {
		free(md);
		free(pl);
		return rc;
	}
	for (int i = 0; i < np; i++) {
		const char *name = players[i];
		int level;
		char tail;
		snprintf(pl[i].name, sizeof pl[i].name, "%s", name);
		pl[i].seq = i + 1;
		if (!strncmp(name, "bot-", 4)) { /* a hosted engine: above every level */
			pl[i].bot_level = BOTPLAY_ENGINE;
			pl[i].rating = BOT_RATING0 + 100 * 11;
		} else if (sscanf(name, "bot%d%c", &level, &tail) == 1 && level >= 1 &&
		    level <= 10) {
			pl[i].bot_level = level;
			pl[i].rating = BOT_RATING0 + 100 * level;
		} else { /* a bot account */
			pl[i].rating = 1500;
		}
	}
	md->k.ts = ts;
	md->done = done;
	md->arg = arg;
	md->league_n = n;
	md->pl = pl;
	md->npl = np;
	snprintf(md->league, sizeof md->league, "%s", league);
	if (archive_call(ts->srv, league_run, made_back, md) != 0) {
		free(pl);
		free(md);
		*why = "the database is busy; try again in a moment";
		return ERR_SERVER_BUSY;
	}
	return 0;
}

void
tourneys_each(struct tourneys *ts, void (*fn)(void *arg, const proto_msg_t *m), void *arg)
{
	struct tourney *t;
	proto_msg_t d;
	LIST_FOREACH (t, &ts->list, link) {
		tourney_line(t, PD_TOURNEY, &d);
		fn(arg, &d);
	}
}

int
tourneys_cancel(struct tourneys *ts, int64_t id, const char **why)
{
	struct tourney *t = find(ts, id);
	if (!t) {
		*why = "no tournament with that id";
		return ERR_NO_TOURNEY;
	}
	if (t->row.state >= TS_OVER) {
		*why = "it is over";
		return ERR_TOURNEY_CLOSED;
	}
	set_state(t, TS_CANCELLED);
	return 0;
}

struct joining {
	struct tourneys *ts;
	int64_t tid;
	store_tplayer_t p;
	int rule, leave, rc;
	proto_id_t reply;
	char tag[PROTO_TAG_MAX + 1];
};

static void
join_run(store_t *st, void *arg)
{
	struct joining *j = arg;
	if (j->leave == 1) {
		j->rc = store_tplayer_drop(st, j->tid, j->p.name);
		return;
	}
	if (j->p.bot_level == 0 && j->p.rating < 0) {
		store_rating_t r;
		int rc = store_rating_get(st, j->p.name, (rule_t)j->rule, &r);
		j->p.rating = rc == 0 || rc == STORE_NOT_FOUND ? (int)(r.g.rating + 0.5) : 1500;
	}
	j->rc = store_tplayer_put(st, j->tid, &j->p);
}

static int
join_reply(struct conn *c, void *arg, const char **why)
{
	struct joining *j = arg;
	struct tourney *t = find(j->ts, j->tid);
	int rc = 0;
	if (j->rc != 0 && j->rc != STORE_NOT_FOUND) {
		*why = "not stored; try again";
		rc = c && store_unavailable(c->srv->store) ? ERR_STORE_DOWN : ERR_INTERNAL;
	} else if (t) {
		int p = player_of(t, j->p.name);
		if (j->leave == 1 && p >= 0) {
			/* out before the start: the others keep their places */
			memmove(&t->pl[p], &t->pl[p + 1], (size_t)(t->npl - p - 1) * sizeof *t->pl);
			t->npl--;
		} else if (p >= 0) {
			t->pl[p].row = j->p;
		} else if (!j->leave) {
			add_player(t, &j->p);
		}
		if (c && !j->leave)
			watch(t, c);
		if (c) {
			proto_msg_t m;
			proto_init(&m, j->reply, j->tag);
			m.ident = j->tid;
			snprintf(m.user, sizeof m.user, "%s", j->p.name);
			conn_send(c, &m);
		}
		tell_state(t); /* its count of players */
		t->push = 1;   /* * TPLAYER at most once a second: on the tick */
	}
	if (j->rc == 0)
		world_tourney_changed(&j->ts->srv->world, j->tid);
	free(j);
	return rc;
}

static int
member_check(struct tourney *t, const char **why)
{
	if (t->row.state == TS_SOON ||
	    (t->row.kind == TK_ARENA && t->row.state == TS_RUNNING &&
		wall() < t->row.starts + (int64_t)t->row.length * 60))
		return 0;
	*why = t->row.state == TS_RUNNING ? "it has started" : "it is over";
	return ERR_TOURNEY_CLOSED;
}

static int
join_store(struct tourneys *ts, struct conn *c, const proto_msg_t *m, struct tourney *t,
    const store_tplayer_t *p, int leave, proto_id_t reply, const char **why)
{
	struct joining *j = calloc(1, sizeof *j);
	if (!j)
		return ERR_INTERNAL;
	j->ts = ts;
	j->tid = t->row.id;
	j->p = *p;
	j->rule = t->row.rule;
	j->leave = leave;
	j->reply = reply;
	snprintf(j->tag, sizeof j->tag, "%s", m->tag);
	return cmd_store(c, m->tag, join_run, join_reply, j, why);
}

static int
tjoin(
    struct tourneys *ts, struct conn *c, const proto_msg_t *m, struct tourney *t, const char **why)
{
	struct session *s = c->sess;
	int rc = member_check(t, why);
	if (rc)
		return rc;
	if (t->row.entrants == TE_BOTS) {
		*why = "this tournament is for bots";
		return ERR_NOT_ELIGIBLE;
	}
	if (t->row.rated && s->kind != SESSION_ACCOUNT) {
		*why = "a rated tournament is for accounts";
		return ERR_NOT_ELIGIBLE;
	}
	int p = player_of(t, s->name);
	if (p >= 0 && !t->pl[p].row.withdrawn) { /* in already: it follows it again */
		watch(t, c);
		proto_msg_t r;
		proto_init(&r, PO_TJOIN, m->tag);
		r.ident = t->row.id;
		conn_send(c, &r);
		return 0;
	}
	if (p >= 0 && t->row.kind != TK_ARENA) {
		*why = "you withdrew from it";
		return ERR_TOURNEY_CLOSED;
	}
	int cap = t->row.kind == TK_ROBIN ? TOURNEY_ROBIN_MAX_PLAYERS
					  : ts->srv->cfg.tourney_players;
	if (p < 0 && t->npl >= cap) {
		*why = "it is full";
		return ERR_TOURNEY_CLOSED;
	}
	store_tplayer_t row;
	memset(&row, 0, sizeof row);
	if (p >= 0) {
		row = t->pl[p].row;
		row.withdrawn = 0;
	} else {
		snprintf(row.name, sizeof row.name, "%s", s->name);
		row.seq = t->npl ? t->pl[t->npl - 1].row.seq + 1 : 1;
		row.rating = s->kind == SESSION_ACCOUNT ? -1 : 1500;
	}
	return join_store(ts, c, m, t, &row, 0, PO_TJOIN, why);
}

static int
tleave(
    struct tourneys *ts, struct conn *c, const proto_msg_t *m, struct tourney *t, const char **why)
{
	int p = player_of(t, c->sess->name);
	if (p < 0 || t->pl[p].row.withdrawn) {
		*why = "you are not playing in it";
		return ERR_NOT_PLAYER;
	}
	if (t->row.state >= TS_OVER) {
		*why = "it is over";
		return ERR_TOURNEY_CLOSED;
	}
	store_tplayer_t row = t->pl[p].row;
	row.withdrawn = 1;
	return join_store(ts, c, m, t, &row, t->row.state == TS_SOON ? 1 : 2, PO_TLEAVE, why);
}

static int
tbot(struct tourneys *ts, struct conn *c, const proto_msg_t *m, struct tourney *t, const char **why)
{
	struct session *s = c->sess;
	if (!is_admin(ts->srv, s) && strcasecmp(t->row.creator, s->name) != 0) {
		*why = "only its creator or an admin adds bots";
		return ERR_NOT_ADMIN;
	}
	if (t->row.entrants == TE_PEOPLE) {
		*why = "this tournament is for people";
		return ERR_NOT_ELIGIBLE;
	}
	if (!ts->srv->botplay) {
		*why = "this server has no bots";
		return ERR_UNAVAILABLE;
	}
	int rc = member_check(t, why);
	if (rc)
		return rc;
	store_tplayer_t row;
	memset(&row, 0, sizeof row);
	if (m->engine[0] && botplay_engine(ts->srv->botplay, m->engine) < 0) {
		*why = "no hosted engine of that name (the greeting's engines=)";
		return ERR_ARGUMENT;
	}
	if (m->engine[0])
		snprintf(row.name, sizeof row.name, "bot-%s", m->engine);
	else
		snprintf(row.name, sizeof row.name, "bot%d", (int)m->level);
	if (player_of(t, row.name) >= 0) {
		*why = "that bot plays in it already";
		return ERR_TOURNEY_CLOSED;
	}
	int cap = t->row.kind == TK_ROBIN ? TOURNEY_ROBIN_MAX_PLAYERS
					  : ts->srv->cfg.tourney_players;
	if (t->npl >= cap) {
		*why = "it is full";
		return ERR_TOURNEY_CLOSED;
	}
	row.seq = t->npl ? t->pl[t->npl - 1].row.seq + 1 : 1;
	/* a hosted engine above every level; its seat found by its name */
	row.rating = BOT_RATING0 + 100 * (m->engine[0] ? 11 : (int)m->level);
	row.bot_level = m->engine[0] ? BOTPLAY_ENGINE : (int)m->level;
	return join_store(ts, c, m, t, &row, 0, PO_TBOT, why);
}

static int
tcancel(
    struct tourneys *ts, struct conn *c, const proto_msg_t *m, struct tourney *t, const char **why)
{
	struct session *s = c->sess;
	int admin = is_admin(ts->srv, s);
	if (!admin && strcasecmp(t->row.creator, s->name) != 0) {
		*why = "only its creator or an admin cancels it";
		return ERR_NOT_ADMIN;
	}
	if (!admin && t->row.state == TS_RUNNING) {
		*why = "it has started: an admin may cancel it";
		return ERR_TOURNEY_CLOSED;
	}
	if (t->row.state >= TS_OVER) {
		*why = "it is over";
		return ERR_TOURNEY_CLOSED;
	}
	proto_msg_t r;
	proto_init(&r, PO_TCANCEL, m->tag);
	r.ident = t->row.id;
	conn_send(c, &r);
	set_state(t, TS_CANCELLED); /* * TOURNEY ... cancelled once stored */
	return 0;
}

static int
tlist(struct tourneys *ts, struct conn *c, const proto_msg_t *m)
{
	struct tourney *t;
	proto_msg_t d;
	int n = 0, over = 0;
	LIST_FOREACH (t, &ts->list, link) {
		if (t->row.state >= TS_OVER && over++ >= TOURNEY_LIST_OVER)
			continue;
		tourney_line(t, PD_TOURNEY, &d);
		conn_send(c, &d);
		n++;
	}
	proto_init(&d, PO_TLIST, m->tag);
	d.count = n;
	conn_send(c, &d);
	return 0;
}

/* An event over before the load window, read back from the store for a
 * TWATCH: its history and final standings stay readable. */
struct oldload {
	struct tourneys *ts;
	int64_t id;
	int rc;
	struct loaded l;
	char tag[PROTO_TAG_MAX + 1];
};

static void
tourney_free(struct tourney *t)
{
	free(t->pl);
	free(t->gm);
	free(t->w);
	free(t->wplays);
	free(t);
}

static void
old_run(store_t *st, void *arg)
{
	struct oldload *o = arg;
	fetch(st, o->id, &o->l);
	o->rc = o->l.rc;
}

/* At most OLD_KEPT events read back stay: the oldest go, the unwatched
 * first, then watched ones too (an event over says nothing more to its
 * followers, and a TWATCH reads it back again), or one connection
 * following every old event would keep them all. */
static void
trim_old(struct tourneys *ts)
{
	for (;;) {
		int n = 0;
		struct tourney *t, *drop = NULL, *oldest = NULL;
		LIST_FOREACH (t, &ts->list, link)
			if (t->old) {
				n++;
				oldest = t; /* newest first: the last one seen is the oldest */
				if (t->nw == 0)
					drop = t;
			}
		if (n <= OLD_KEPT || !oldest)
			return;
		drop = drop ? drop : oldest;
		LIST_REMOVE(drop, link);
		tourney_free(drop);
	}
}

static int
old_reply(struct conn *c, void *arg, const char **why)
{
	struct oldload *o = arg;
	int rc = 0;
	struct tourney *t = find(o->ts, o->id);
	if (!t && o->rc == 0 && (t = tourney_add(o->ts, &o->l.row)) != NULL) {
		/* over long ago (old), or another node's new one */
		t->old = o->l.row.state >= TS_OVER;
		if (merge(t, &o->l, 0) != 0) {
			LIST_REMOVE(t, link);
			tourney_free(t);
			t = NULL;
			o->rc = -1;
		}
	}
	loaded_free(&o->l);
	if (c && t) {
		if (watch(t, c) != 0) {
			rc = ERR_INTERNAL;
		} else {
			proto_msg_t r;
			snapshot(t, c);
			proto_init(&r, PO_TWATCH, o->tag);
			r.ident = t->row.id;
			conn_send(c, &r);
		}
	} else if (c) {
		*why = "no tournament with that id";
		rc = o->rc == STORE_NOT_FOUND          ? ERR_NO_TOURNEY
		    : store_unavailable(c->srv->store) ? ERR_STORE_DOWN
						       : ERR_INTERNAL;
	}
	if (t && t->old)
		trim_old(o->ts);
	free(o);
	return rc;
}

int
tourneys_request(struct tourneys *ts, struct conn *c, const proto_msg_t *m, const char **why)
{
	if (m->id == PR_TLIST)
		return tlist(ts, c, m);
	if (m->id == PR_TCREATE)
		return tcreate(ts, c, m, why);
	struct tourney *t = find(ts, m->ident);
	if (!t && m->id == PR_TWATCH) {
		struct oldload *o = calloc(1, sizeof *o);
		if (!o)
			return ERR_INTERNAL;
		o->ts = ts;
		o->id = m->ident;
		snprintf(o->tag, sizeof o->tag, "%s", m->tag);
		return cmd_store(c, m->tag, old_run, old_reply, o, why);
	}
	if (!t) {
		*why = "no tournament with that id";
		return ERR_NO_TOURNEY;
	}
	proto_msg_t r;
	switch (m->id) {
	case PR_TWATCH:
		if (watch(t, c) != 0)
			return ERR_INTERNAL;
		snapshot(t, c);
		proto_init(&r, PO_TWATCH, m->tag);
		r.ident = t->row.id;
		conn_send(c, &r);
		return 0;
	case PR_TUNWATCH:
		unwatch(t, c);
		proto_init(&r, PO_TUNWATCH, m->tag);
		r.ident = t->row.id;
		conn_send(c, &r);
		return 0;
	case PR_TJOIN:
		return tjoin(ts, c, m, t, why);
	case PR_TLEAVE:
		return tleave(ts, c, m, t, why);
	case PR_TBOT:
		return tbot(ts, c, m, t, why);
	case PR_TCANCEL:
		return tcancel(ts, c, m, t, why);
	default:
		return ERR_UNKNOWN;
	}
}

/* --- its life --- */

struct tourneys *
tourneys_new(struct server *srv)
{
	if (!srv->store)
		return NULL;
	struct tourneys *ts = calloc(1, sizeof *ts);
	if (!ts)
		return NULL;
	ts->srv = srv;
	LIST_INIT(&ts->list);
	struct timeval every = { TICK_MS / 1000, TICK_MS % 1000 * 1000 };
	ts->tick = event_new(srv->base, -1, EV_PERSIST, tick_cb, ts);
	ts->soon = event_new(srv->base, -1, 0, soon_cb, ts);
	if (!ts->tick || !ts->soon || event_add(ts->tick, &every) != 0 ||
	    conns_on_gone(srv, conn_gone, ts) != 0 || load(ts) != 0) {
		log_error(&srv->log, "tournaments: cannot start: %s",
		    srv->store ? store_error(srv->store) : "out of memory");
		tourneys_free(ts);
		return NULL;
	}
	rooms_on_over(srv->rooms, game_over, ts);
	return ts;
}

void
tourneys_free(struct tourneys *ts)
{
	if (!ts)
		return;
	rooms_on_over(ts->srv->rooms, NULL, NULL);
	while (!LIST_EMPTY(&ts->list)) {
		struct tourney *t = LIST_FIRST(&ts->list);
		LIST_REMOVE(t, link);
		tourney_free(t);
	}
	if (ts->tick)
		event_free(ts->tick);
	if (ts->soon)
		event_free(ts->soon);
	free(ts);
}
