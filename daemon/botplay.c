/* botplay.c: bots at the table (see botplay.h). */
#include "daemon/botplay.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemon/bots.h"
#include "daemon/clock.h"
#include "daemon/conn.h"
#include "daemon/lobby.h"
#include "daemon/room.h"
#include "daemon/server.h"
#include "daemon/session.h"

enum {
	BOT_RETRY_MS = 200,    /* the pool was full: ask again */
	BOT_DRAW_MARGIN = 300, /* a bot accepts a draw when it is this far behind */
	BOT_NBEST = 5,
};

/* Balanced three-stone swap2 openings a bot puts (black, white, black). */
static const char *const openings[][3] = {
	{ "h8", "i9", "g9" },
	{ "h8", "i8", "h10" },
	{ "h8", "j9", "g8" },
	{ "h8", "g9", "j8" },
};

static int
is_bot(const struct session *s)
{
	return s && s->bot_level > 0;
}

int
botplay_init(struct server *srv)
{
	const struct config *c = &srv->cfg;
	int threads = c->bot_threads > 0 ? c->bot_threads : (int)sysconf(_SC_NPROCESSORS_ONLN);

	if (threads < 1)
		threads = 1;
	srv->bots = bots_new(srv->base, threads, c->bot_queue, c->bot_hash_mb, c->bot_preview_ms);
	srv->bot_workers = threads;
	if (!srv->bots) {
		log_error(&srv->log, "cannot start the bot workers");
		return -1;
	}
	log_info(&srv->log, "bots: %d worker%s, %d MB of hash each", threads,
	    threads == 1 ? "" : "s", c->bot_hash_mb);
	return 0;
}

void
botplay_free(struct server *srv)
{
	bots_free(srv->bots);
	srv->bots = NULL;
}

/* What a search was started for: a new one is needed when this changes. */
static int
state_key(const struct room *r)
{
	return r->pos.nmoves << 8 | r->status << 4 | r->stage;
}

static void
send_think(struct room *r, const struct session *bot, const engine_result_t *res)
{
	proto_msg_t m;

	proto_init(&m, PE_THINK, NULL);
	snprintf(m.user, sizeof m.user, "%s", bot->name);
	m.depth = res->depth;
	for (int i = 0; i < res->ncand && m.ncands < PROTO_CANDS_MAX; i++) {
		notation_format(res->cand[i].move, r->spec.size, m.cands[m.ncands].move);
		m.cands[m.ncands++].score = res->cand[i].score;
	}
	if (m.ncands > 0)
		room_event(r, &m);
}

static void
on_preview(uint64_t id, const engine_result_t *res, void *arg)
{
	struct room *r = arg;
	int actor = room_actor(r);

	if ((int64_t)id == r->bot_job && actor >= 0 && is_bot(r->seat[actor].sess))
		send_think(r, r->seat[actor].sess, res);
}

/* The bot gives up the game: its search found nothing to play. */
static void
bot_resigns(struct room *r, struct session *bot, const char *why)
{
	log_error(&r->srv->log, "room %s: %s resigns: %s", r->id, bot->name, why);
	room_resign(r, bot);
}

static void
on_done(uint64_t id, int status, const engine_result_t *res, void *arg)
{
	struct room *r = arg;
	int actor = room_actor(r);
	const char *why = NULL;
	char mv[4];

	if ((int64_t)id != r->bot_job)
		return;
	r->bot_job = 0;
	if (actor < 0 || !is_bot(r->seat[actor].sess) || state_key(r) != r->bot_key)
		goto again;
	struct session *bot = r->seat[actor].sess;
	if (status != 0) {
		bot_resigns(r, bot, "no move found");
		return;
	}
	r->bot_eval = res->score;
	send_think(r, bot, res);
	notation_format(res->best, r->spec.size, mv);
	if (r->status == ROOM_OPENING) {
		/* swap2: take the colour the search likes (the side to move is white) */
		proto_msg_t m;
		proto_init(&m, PR_SWAP2, NULL);
		m.choice = res->score >= 0 ? CHOICE_WHITE : CHOICE_BLACK;
		if (room_swap2(r, bot, &m, &why) != 0)
			bot_resigns(r, bot, why ? why : "swap2 choice refused");
		return;
	}
	snprintf(r->move_reason, sizeof r->move_reason, "%s", res->reason);
	int rc = room_move(r, bot, mv, &why);
	r->move_reason[0] = '\0';
	if (rc != 0)
		bot_resigns(r, bot, why ? why : proto_err_word(rc));
	return;
again:
	botplay_poke(r);
}

/* The search for the seat to act, with the time its clock allows. */
static void
start_search(struct room *r, int actor)
{
	struct server *srv = r->srv;
	struct session *bot = r->seat[actor].sess;
	bots_job_t j;

	memset(&j, 0, sizeof j);
	j.owner = r->num;
	j.rule = r->spec.rule;
	j.size = r->spec.size;
	j.nmoves = r->pos.nmoves;
	memcpy(j.moves, r->pos.moves, sizeof j.moves[0] * (size_t)r->pos.nmoves);
	j.level = bot->bot_level;
	j.soft_ms = srv->cfg.bot_think_ms;
	j.hard_ms = 2 * srv->cfg.bot_think_ms;
	if (r->clk.timed) {
		j.clock_ms = (int)gclock_left(&r->clk, actor, clock_now_ms());
		j.inc_ms = r->spec.tc_inc * 1000;
	}
	j.nbest = BOT_NBEST;
	j.seed = r->num * 7919u + (uint32_t)r->pos.nmoves;
	int64_t id = bots_submit(srv->bots, &j, on_done, on_preview, r);
	if (id < 0) { /* every worker busy: the room waits its turn */
		struct timeval tv = { 0, BOT_RETRY_MS * 1000 };
		event_add(r->bot_ev, &tv);
		return;
	}
	r->bot_job = id;
	r->bot_key = state_key(r);
}

/* Offers made to a bot: draw when it is losing, undo in casual games,
 * rematch always. */
static void
answer_offers(struct room *r)
{
	for (int kind = OFFER_DRAW; kind <= OFFER_REMATCH; kind++) {
		struct offer *o = &r->offers[kind];
		if (!o->id || !is_bot(r->seat[1 - o->from].sess))
			continue;
		int accept = kind == OFFER_REMATCH ? 1
		    : kind == OFFER_UNDO           ? !r->spec.rated
						   : r->bot_eval <= -BOT_DRAW_MARGIN;
		room_answer(r, r->seat[1 - o->from].sess, o->id, accept);
		return; /* the room changed: the next poke sees the rest */
	}
}

/* A finished room with no human left: the bots leave, so it can be freed. */
static int
bots_leave(struct room *r)
{
	if (room_unfinished(r) || r->nspec > 0)
		return 0;
	for (int i = 0; i < 2; i++)
		if (r->seat[i].sess && !is_bot(r->seat[i].sess))
			return 0;
	for (int i = 0; i < 2; i++) {
		struct session *b = r->seat[i].sess;
		if (is_bot(b)) {
			room_leave(r, b);
			session_free(b);
		}
	}
	return 1;
}

static void
poke_cb(evutil_socket_t fd, short what, void *arg)
{
	struct room *r = arg;
	int actor;
	const char *why = NULL;

	(void)fd;
	(void)what;
	if (r->bot_job && (state_key(r) != r->bot_key || !room_unfinished(r))) {
		bots_cancel(r->srv->bots, r->bot_job);
		r->bot_job = 0;
	}
	if (bots_leave(r))
		return;
	answer_offers(r);
	actor = room_actor(r);
	if (actor < 0 || !is_bot(r->seat[actor].sess) || r->bot_job)
		return;
	if (r->status == ROOM_OPENING && r->stage == STAGE_PUT3) {
		/* the bot opens: three stones from a short list */
		const char *const *o = openings[r->num % (sizeof openings / sizeof openings[0])];
		proto_msg_t m;
		proto_init(&m, PR_SWAP2, NULL);
		m.choice = CHOICE_PUT;
		for (int i = 0; i < 3; i++)
			snprintf(m.moves[m.nmoves++], sizeof m.moves[0], "%s", o[i]);
		if (room_swap2(r, r->seat[actor].sess, &m, &why) != 0)
			bot_resigns(r, r->seat[actor].sess, why ? why : "opening refused");
		return;
	}
	start_search(r, actor);
}

void
botplay_poke(struct room *r)
{
	if (!r->srv->bots)
		return;
	if (!r->bot_ev && !(r->bot_ev = event_new(r->srv->base, -1, 0, poke_cb, r)))
		return;
	if (!evtimer_pending(r->bot_ev, NULL))
		event_active(r->bot_ev, EV_TIMEOUT, 0);
}

void
botplay_room_freed(struct room *r)
{
	if (r->bot_job && r->srv->bots)
		bots_cancel(r->srv->bots, r->bot_job);
	r->bot_job = 0;
	if (r->bot_ev)
		event_free(r->bot_ev);
	r->bot_ev = NULL;
}

/* A game between s and a new bot of level; s's colour wish decides. */
static struct room *
bot_game(struct server *srv, struct session *s, const struct gamespec *g, int level)
{
	struct session *bot = session_bot(srv, level);
	struct room *r;

	if (!bot)
		return NULL;
	if (!(r = room_new(srv, g, 0))) {
		session_free(bot);
		return NULL;
	}
	int seat = g->colour == COLOUR_BLACK ? 0
	    : g->colour == COLOUR_WHITE      ? 1
					     : (int)(r->num % 2);
	room_sit(r, seat, s);
	room_sit(r, 1 - seat, bot);
	room_start(r);
	botplay_poke(r);
	return r;
}

/* Whether the pool could take a new game's search now: its workers and
 * its queue are not all taken. */
static int
pool_has_room(struct server *srv)
{
	int queued, running;

	bots_load(srv->bots, &queued, &running);
	return queued + running < srv->bot_workers + srv->cfg.bot_queue;
}

int
botplay_play(struct conn *c, const proto_msg_t *m, const char **why)
{
	struct server *srv = c->srv;
	struct gamespec g;

	gamespec_from_msg(&g, m);
	g.rated = 0; /* games against bots are casual */
	int rc = gamespec_check(&g, why);
	if (rc)
		return rc;
	if (!srv->bots) {
		*why = "this server has no bots";
		return ERR_UNAVAILABLE;
	}
	if (session_busy(c->sess))
		return ERR_BUSY;
	if (!pool_has_room(srv)) {
		*why = "every bot is thinking; try again in a moment";
		return ERR_SERVER_BUSY;
	}
	if (session_make_room(c->sess)) {
		*why = "in too many rooms";
		return ERR_BUSY;
	}
	struct room *r = bot_game(srv, c->sess, &g, (int)m->level);
	if (!r)
		return ERR_INTERNAL;
	proto_msg_t ok;
	proto_init(&ok, PO_BOT, m->tag);
	snprintf(ok.room, sizeof ok.room, "%s", r->id);
	conn_send(c, &ok);
	return 0;
}

int
botplay_seat(struct conn *c, const proto_msg_t *m, const char **why)
{
	struct server *srv = c->srv;
	struct room *r = room_find(srv, m->room);

	if (!r)
		return ERR_NO_ROOM;
	if (!srv->bots) {
		*why = "this server has no bots";
		return ERR_UNAVAILABLE;
	}
	int mine = room_seat_of(r, c->sess);
	if (mine < 0)
		return ERR_NOT_PLAYER;
	if (r->status != ROOM_WAITING || r->seat[1 - mine].sess) {
		*why = "only the free seat of your private room that is waiting";
		return ERR_ROOM_FULL;
	}
	if (!pool_has_room(srv)) {
		*why = "every bot is thinking; try again in a moment";
		return ERR_SERVER_BUSY;
	}
	struct session *bot = session_bot(srv, (int)m->level);
	if (!bot)
		return ERR_INTERNAL;
	room_sit(r, 1 - mine, bot);
	room_start(r);
	botplay_poke(r);
	proto_msg_t ok;
	proto_init(&ok, PO_BOT, m->tag);
	snprintf(ok.room, sizeof ok.room, "%s", r->id);
	conn_send(c, &ok);
	return 0;
}

static void
fallback_cb(evutil_socket_t fd, short what, void *arg)
{
	struct seek *k = arg;
	struct session *s = k->sess;
	struct server *srv = s->srv;
	struct gamespec g = k->spec;
	uint32_t id = k->id;

	(void)fd;
	(void)what;
	if (lobby_cancel(srv, s, id) != 0) /* frees k */
		return;
	g.rated = 0;
	if (session_make_room(s) || !bot_game(srv, s, &g, srv->cfg.bot_fallback_level))
		log_warn(&srv->log, "seek %u by %s: no bot game could start", id, s->name);
	else
		log_info(&srv->log, "seek %u by %s: no one came; a bot took the seat", id, s->name);
}

void
botplay_seek_fallback(struct server *srv, struct seek *k)
{
	struct timeval tv = { srv->cfg.bot_fallback_s, 0 };

	if (!srv->bots || !(k->fallback = evtimer_new(srv->base, fallback_cb, k)))
		return;
	evtimer_add(k->fallback, &tv);
}
