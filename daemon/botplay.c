/* botplay.c: bots at the table (see botplay.h). */
#include "daemon/botplay.h"

#include <sys/queue.h>

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/event.h>

#include "daemon/bots.h"
#include "daemon/clock.h"
#include "daemon/metrics.h"
#include "daemon/room.h"
#include "daemon/core.h"
#include "daemon/hosted.h"
#include "daemon/session.h"
#include "daemon/sink.h"
#include "daemon/world.h"

enum {
	BOT_RETRY_MS = 200,    /* the pool was full: ask again */
	STORE_RETRY_MS = 1000, /* the store could not take the bot's move: look again */
	BOT_DRAW_MARGIN = 300, /* a bot accepts a draw when it is this far behind */
	BOT_NBEST = 5,
	/* an engine on other nodes: how long its move waits for a node that
	 * serves it before the seat forfeits, and how often it looks */
	ENGINE_WAIT_MS = 10000,
	ENGINE_LOOK_MS = 1000,
	FAR_MAX = 16, /* names of engines on other nodes known here */
	GAME_KEY_MAX = PROTO_ROOM_MAX + 8,
};

/* Balanced three-stone swap2 openings a bot puts (black, white, black). */
static const char *const openings[][3] = {
	{ "h8", "i9", "g9" },
	{ "h8", "i8", "h10" },
	{ "h8", "j9", "g8" },
	{ "h8", "g9", "j8" },
};

/* One bot at one table: its session's sink. */
struct botgame {
	struct sink sink; /* first: the sink is the botgame */
	TAILQ_ENTRY(botgame) link;
	struct botplay *bp;
	struct session *bot;
	struct room *room;
	struct event *ev;        /* the deferred look at the room */
	int64_t job;             /* its search in flight, 0: none */
	int key;                 /* the state that search is for */
	int eval;                /* the last search's score, the bot's view */
	int64_t asked_ms;        /* when an opening job went (its time for the metrics) */
	int lost_said;           /* a lost remote search is logged, once a move */
	uint64_t howner;         /* a hosted engine's game (hosted.h), 0: none asked yet */
	int far;                 /* an engine of other nodes (bp->far's index), -1: none */
	char game[GAME_KEY_MAX]; /* its game's key for the world, "": none asked yet */
	int64_t far_since;       /* ms: since when no node serves it, 0: one did */
};

/* A hosted engine's move in flight stands in bg->job as this; one asked
 * of another node's worker (world.h) as FAR_JOB. */
#define HOSTED_JOB (-1)
#define FAR_JOB (-2)

struct botplay {
	struct server *srv;
	hosted_t *hosted; /* the config's engines, NULL: none */
	bots_t *pool;
	int workers;
	TAILQ_HEAD(, botgame) games;
	/* the engines of other nodes a bot here plays (or played): a pick
	 * from BOTPLAY_FAR is an index here */
	char far[FAR_MAX][HOSTED_NAME_MAX + 1];
	int nfar;
};

static void bot_deliver(
    struct sink *k, struct room *r, const proto_msg_t *m, const char *line, size_t n);
/* A bot reads no line of its own and never goes before its table. */
static void
bot_say(struct sink *k, const proto_msg_t *m)
{
	(void)k;
	(void)m;
}

static void
bot_drop(struct sink *k)
{
	(void)k;
}

static const struct sink_ops bot_sink = { bot_deliver, bot_say, bot_drop };

static void
on_hosted_failure(uint64_t owner, const char *why, void *arg)
{
	struct botplay *bp = arg;
	log_warn(&bp->srv->log, "hosted engine's game %llu: %s (restarted)",
	    (unsigned long long)owner, why);
}

struct botplay *
botplay_new(struct server *srv)
{
	const struct config *c = &srv->cfg;
	int threads = c->bot_threads > 0 ? c->bot_threads : (int)sysconf(_SC_NPROCESSORS_ONLN);
	struct botplay *bp = calloc(1, sizeof *bp);

	if (threads < 1)
		threads = 1;
	if (c->bot_threads == CONFIG_BOTS_REMOTE)
		threads = 0; /* the cluster's workers search (cluster.c) */
	if (bp)
		bp->pool = bots_new(
		    srv->base, threads, c->bot_queue, c->bot_hash_mb, c->bot_preview_ms);
	if (!bp || !bp->pool) {
		free(bp);
		log_error(&srv->log, "cannot start the bot workers");
		return NULL;
	}
	bp->srv = srv;
	bp->workers = threads;
	TAILQ_INIT(&bp->games);
	if (c->nengines > 0) {
		struct hosted_engine e[CONFIG_MAX_ENGINES];
		char lines[CONFIG_MAX_ENGINES][sizeof c->engines[0]], err[512];
		for (int i = 0; i < c->nengines; i++) {
			strcpy(lines[i], c->engines[i]);
			if (config_engine(lines[i], &e[i], err, sizeof err) !=
			    0) /* checked at load */
				e[i].argv[0] = NULL;
		}
		bp->hosted = hosted_new(
		    srv->base, e, c->nengines, c->engine_games, err, sizeof err);
		if (!bp->hosted)
			log_error(&srv->log, "hosted engines: %s", err);
		else
			hosted_set_log(bp->hosted, on_hosted_failure, bp);
		if (bp->hosted)
			log_info(&srv->log, "hosted engines: %d, %d games at once", c->nengines,
			    c->engine_games);
	}
	if (threads == 0)
		log_info(&srv->log, "bots: no workers here; the cluster's nodes search");
	else
		log_info(&srv->log, "bots: %d worker%s, %d MB of hash each", threads,
		    threads == 1 ? "" : "s", c->bot_hash_mb);
	return bp;
}

/* Forgets a bot's game: its search is cancelled, its timer freed. */
static void
botgame_free(struct botgame *bg)
{
	if (bg->howner)
		hosted_end(bg->bp->hosted, bg->howner);
	else if (bg->far >= 0 && bg->game[0])
		world_engine_end(&bg->bp->srv->world, bg->game, 1);
	else if (bg->job && bg->job != HOSTED_JOB)
		bots_cancel(bg->bp->pool, bg->job);
	if (bg->ev)
		event_free(bg->ev);
	TAILQ_REMOVE(&bg->bp->games, bg, link);
	free(bg);
}

void
botplay_free(struct botplay *bp)
{
	if (!bp)
		return;
	bots_free(bp->pool); /* no callback runs after this */
	bp->pool = NULL;
	while (!TAILQ_EMPTY(&bp->games)) {
		struct botgame *bg = TAILQ_FIRST(&bp->games);
		bg->job = 0;
		botgame_free(bg);
	}
	hosted_free(bp->hosted);
	free(bp);
}

static int
is_bot(const struct session *s)
{
	return s && s->kind == SESSION_BOT;
}

/* The bot's seat in its room. */
static int
my_seat(const struct botgame *bg)
{
	return room_seat_of(bg->room, bg->bot);
}

/* What a search was started for: a new one is needed when this changes
 * (in an opening, acts that place no stone change the machine's step). */
static int
state_key(const struct room *r)
{
	const opening_t *o = room_opening(r);
	int step = o ? o->step + 1 : 0;
	return step << 20 | room_position(r)->nmoves << 8 | (int)room_status(r) << 4 |
	    (int)room_stage(r);
}

static void
think(struct botgame *bg, const engine_result_t *res)
{
	int scores[ENGINE_MAX_NBEST];
	move_t moves[ENGINE_MAX_NBEST];

	for (int i = 0; i < res->ncand; i++) {
		moves[i] = res->cand[i].move;
		scores[i] = res->cand[i].score;
	}
	room_think(bg->room, bg->bot, res->depth, moves, scores, res->ncand);
}

static void
on_preview(uint64_t id, const engine_result_t *res, void *arg)
{
	struct botgame *bg = arg;

	if ((int64_t)id == bg->job && room_actor(bg->room) == my_seat(bg))
		think(bg, res);
}

/* The bot gives up the game: its search found nothing to play. */
static void
bot_resigns(struct botgame *bg, const char *why)
{
	struct room_act act;

	log_error(
	    &bg->bp->srv->log, "room %s: %s resigns: %s", room_id(bg->room), bg->bot->name, why);
	room_resign(bg->room, bg->bot, &act);
}

static void poke(struct botgame *bg);

/* The store could not take the bot's stones (PostgreSQL away, a failed
 * write): nothing changed, so the bot looks again in a while and, still to
 * move, searches again; its clock runs meanwhile, as a person's would. */
static int
store_refused(struct botgame *bg, game_err_t e)
{
	if (e != GERR_STORE_DOWN && e != GERR_STORE && e != GERR_FENCED)
		return 0;
	struct timeval tv = { STORE_RETRY_MS / 1000, STORE_RETRY_MS % 1000 * 1000 };
	event_add(bg->ev, &tv);
	return 1;
}

/* The end of the bot's job id (a search or an opening act, ms its time
 * or -1): counted; 1 when it is the job the bot waits for and it came
 * back (go on with status), 0 when it is stale or no worker answered (the
 * clock runs: it asks again shortly). */
static int
job_answered(struct botgame *bg, uint64_t id, int status, int ms)
{
	if (status != BOTS_LOST)
		metrics_bot_done(bg->bp->srv->metrics, ms);
	if ((int64_t)id != bg->job)
		return 0;
	bg->job = 0;
	if (status == BOTS_LOST) {
		struct timeval tv = { 0, BOT_RETRY_MS * 1000 };
		if (!bg->lost_said++)
			log_warn(&bg->bp->srv->log, "room %s: no bot worker answered; asking again",
			    room_id(bg->room));
		event_add(bg->ev, &tv);
		return 0;
	}
	bg->lost_said = 0;
	return 1;
}

static void
on_done(uint64_t id, int status, const engine_result_t *res, void *arg)
{
	struct botgame *bg = arg;
	struct room *r = bg->room;
	struct room_act act;
	char mv[PROTO_MOVE_MAX + 1];

	if (!job_answered(bg, id, status, status == 0 ? res->time_ms : -1))
		return;
	/* the room's write in flight (a resignation being stored) may change
	 * everything: its answer pokes the bot, which looks again then */
	if (room_busy(r) || room_actor(r) != my_seat(bg) || state_key(r) != bg->key) {
		poke(bg);
		return;
	}
	if (status != 0) {
		bot_resigns(bg, "no move found");
		return;
	}
	bg->eval = res->score;
	think(bg, res);
	if (room_status(r) == GAME_OPENING) {
		/* swap2: take the colour the search likes (the side to move is white) */
		stone_t c = res->score >= 0 ? STONE_WHITE : STONE_BLACK;
		game_err_t e = room_swap2_choose(r, bg->bot, c, &act);
		if (e != GERR_OK && e != GERR_PENDING && !store_refused(bg, e))
			bot_resigns(bg, act.why ? act.why : "swap2 choice refused");
		return;
	}
	notation_format(res->best, room_spec(r)->size, mv);
	game_err_t e = room_move(r, bg->bot, mv, res->reason, &act);
	/* pending: the commit is on its way (botplay_refused if it fails) */
	if (e != GERR_OK && e != GERR_PENDING && !store_refused(bg, e))
		bot_resigns(bg, act.why ? act.why : "move refused");
}

/* An opening job's end: the act goes to the room as a player's would. */
static void
on_act(uint64_t id, int status, const opening_act_t *a, const char *why, void *arg)
{
	struct botgame *bg = arg;
	struct room *r = bg->room;
	struct room_act act;

	if (!job_answered(bg, id, status, status == 0 ? (int)(clock_now_ms() - bg->asked_ms) : -1))
		return;
	if (room_busy(r) || room_actor(r) != my_seat(bg) || state_key(r) != bg->key ||
	    !room_opening(r)) {
		poke(bg);
		return;
	}
	if (status != 0) {
		bot_resigns(bg, "no opening act found");
		return;
	}
	log_debug(&bg->bp->srv->log, "room %s: %s's opening act (%s)", room_id(r), bg->bot->name,
	    why ? why : "-");
	game_err_t e = room_opening_act(r, bg->bot, a, &act);
	/* pending: the commit is on its way (botplay_refused if it fails) */
	if (e != GERR_OK && e != GERR_PENDING && !store_refused(bg, e))
		bot_resigns(bg, act.why ? act.why : "opening act refused");
}

/* The bot's act in an opening rule's machine (every rule but swap2),
 * decided on the pool (engine/openbot.h); the opening is untimed, so the
 * think time is all it takes. */
static void
start_opening(struct botgame *bg, int seat, const opening_t *o)
{
	struct server *srv = bg->bp->srv;
	const struct room *r = bg->room;
	bots_job_t j;

	memset(&j, 0, sizeof j);
	/* seat 0 holds the tentative black (room.h): the machine's player
	 * there is o->black, whichever of the two that is now */
	int player = seat == 0 ? o->black : 1 - o->black;
	if (bots_opening_job(&j, o, room_opening_log(r), player) != 0) {
		bot_resigns(bg, "the opening could not be followed");
		return;
	}
	j.owner = room_num(r);
	j.level = bg->bot->bot_level;
	j.soft_ms = srv->cfg.bot_think_ms;
	j.hard_ms = 2 * srv->cfg.bot_think_ms;
	j.seed = room_num(r) * 7919u + (uint32_t)o->pos.nmoves * 31u + o->step;
	int64_t id = bots_submit_opening(bg->bp->pool, &j, on_act, bg);
	if (id < 0) { /* every worker busy: the room waits its turn */
		struct timeval tv = { 0, BOT_RETRY_MS * 1000 };
		event_add(bg->ev, &tv);
		return;
	}
	bg->job = id;
	bg->key = state_key(r);
	bg->asked_ms = clock_now_ms();
}

/* A hosted engine's move (here or on another node): played as the pool's
 * would be, or its forfeit. */
static void
engine_answered(struct botgame *bg, int status, move_t m, const char *why)
{
	struct room *r = bg->room;
	struct room_act act;
	char mv[PROTO_MOVE_MAX + 1];

	bg->job = 0;
	if (room_busy(r) || room_actor(r) != my_seat(bg) || state_key(r) != bg->key) {
		poke(bg);
		return;
	}
	if (status != 0) {
		log_warn(
		    &bg->bp->srv->log, "room %s: %s forfeits: %s", room_id(r), bg->bot->name, why);
		bot_resigns(bg, why);
		return;
	}
	notation_format(m, room_spec(r)->size, mv);
	game_err_t e = room_move(r, bg->bot, mv, NULL, &act);
	if (e != GERR_OK && e != GERR_PENDING && !store_refused(bg, e))
		bot_resigns(bg, act.why ? act.why : "move refused");
}

static void
on_hosted(uint64_t owner, int status, move_t m, const char *why, void *arg)
{
	(void)owner;
	engine_answered(arg, status, m, why);
}

/* The bot looks again in ms. */
static void
look_in(struct botgame *bg, int ms)
{
	struct timeval tv = { ms / 1000, ms % 1000 * 1000 };
	event_add(bg->ev, &tv);
}

/* An engine's move from another node's worker: played, its forfeit, or
 * asked again (no brain free there, or no worker answered). */
static void
on_far(void *arg, int status, move_t m, const char *why)
{
	struct botgame *bg = arg;
	if (status == WORLD_ENGINE_FULL || status == WORLD_ENGINE_LOST) {
		bg->job = 0;
		if (status == WORLD_ENGINE_LOST && !bg->lost_said++)
			log_warn(&bg->bp->srv->log,
			    "room %s: no worker of engine %s answered; asking again",
			    room_id(bg->room), bg->bp->far[bg->far]);
		look_in(bg, BOT_RETRY_MS);
		return;
	}
	bg->lost_said = 0;
	engine_answered(bg, status, m, why);
}

/* The move of an engine no brain here plays, asked of a node that serves
 * it (world.h). While none does, the bot waits ENGINE_WAIT_MS, then the
 * seat forfeits (an adopted game whose engine no node has, say); while
 * the other nodes cannot be reached, it waits as a bot's search does. */
static void
start_far(struct botgame *bg, int seat)
{
	struct botplay *bp = bg->bp;
	const struct room *r = bg->room;
	const struct gamespec *g = room_spec(r);
	const position_t *pos = room_position(r);
	const char *name = bp->far[bg->far];

	snprintf(bg->game, sizeof bg->game, "%s.%d", room_id(r), seat);
	struct world_engine_job j = { bg->game, name, g->rule, g->size, pos->moves, pos->nmoves,
		g->tc_base > 0 ? (int)room_clock_left(r, seat) : 0, g->tc_inc * 1000 };
	game_err_t e = world_engine_move(&bp->srv->world, &j, on_far, bg);
	if (e == GERR_OK) {
		bg->job = FAR_JOB;
		bg->key = state_key(r);
		bg->far_since = 0;
		return;
	}
	int64_t now = clock_now_ms();
	if (e == GERR_UNAVAILABLE) {
		bg->far_since = 0;
		if (!bg->lost_said++)
			log_warn(&bp->srv->log,
			    "room %s: the nodes that serve engine %s cannot be reached; "
			    "asking again",
			    room_id(r), name);
	} else if (!bg->far_since) {
		bg->far_since = now;
	} else if (now - bg->far_since >= ENGINE_WAIT_MS) {
		char why[80];
		snprintf(why, sizeof why, "no node of the cluster has engine %s", name);
		log_warn(&bp->srv->log, "room %s: %s forfeits: %s", room_id(r), bg->bot->name, why);
		bot_resigns(bg, why);
		return;
	}
	look_in(bg, ENGINE_LOOK_MS);
}

/* A hosted engine's brain is asked, with the time its clock allows. */
static void
start_hosted(struct botgame *bg, int seat)
{
	const struct room *r = bg->room;
	const struct gamespec *g = room_spec(r);
	const position_t *pos = room_position(r);
	int left = g->tc_base > 0 ? (int)room_clock_left(r, seat) : 0;

	bg->howner = room_num(r) * 2 + (uint64_t)seat;
	int rc = hosted_move(bg->bp->hosted, bg->bot->bot_engine - 1, bg->howner, g->rule, g->size,
	    seat == 0 ? STONE_BLACK : STONE_WHITE, pos->moves, pos->nmoves, left, g->tc_inc * 1000,
	    on_hosted, bg);
	if (rc == HOSTED_FULL) { /* every hosted game slot taken: wait */
		struct timeval tv = { 0, BOT_RETRY_MS * 1000 };
		event_add(bg->ev, &tv);
		return;
	}
	if (rc != 0) {
		bot_resigns(bg, "the engine cannot play this position");
		return;
	}
	bg->job = HOSTED_JOB;
	bg->key = state_key(r);
}

/* The search for the bot's move, with the time its clock allows. */
static void
start_search(struct botgame *bg, int seat)
{
	if (bg->far >= 0) {
		start_far(bg, seat);
		return;
	}
	if (bg->bot->bot_engine) {
		start_hosted(bg, seat);
		return;
	}
	struct server *srv = bg->bp->srv;
	const struct room *r = bg->room;
	const struct gamespec *g = room_spec(r);
	const position_t *pos = room_position(r);
	bots_job_t j;

	memset(&j, 0, sizeof j);
	j.owner = room_num(r);
	j.rule = g->rule;
	j.size = g->size;
	j.nmoves = pos->nmoves;
	memcpy(j.moves, pos->moves, sizeof j.moves[0] * (size_t)pos->nmoves);
	j.level = bg->bot->bot_level;
	j.soft_ms = srv->cfg.bot_think_ms;
	j.hard_ms = 2 * srv->cfg.bot_think_ms;
	if (g->tc_base > 0) {
		j.clock_ms = (int)room_clock_left(r, seat);
		j.inc_ms = g->tc_inc * 1000;
	}
	j.nbest = BOT_NBEST;
	j.seed = room_num(r) * 7919u + (uint32_t)pos->nmoves;
	int64_t id = bots_submit(bg->bp->pool, &j, on_done, on_preview, bg);
	if (id < 0) { /* every worker busy: the room waits its turn */
		struct timeval tv = { 0, BOT_RETRY_MS * 1000 };
		event_add(bg->ev, &tv);
		return;
	}
	bg->job = id;
	bg->key = state_key(r);
}

/* An offer made to the bot: draw when it is losing, undo in casual games,
 * rematch always. 1 when it answered one. */
static int
answer_offer(struct botgame *bg, int seat)
{
	uint32_t id;
	game_offer_t kind;
	struct room_act act;

	if (room_offer_to(bg->room, seat, &id, &kind) != 0)
		return 0;
	int accept = kind == ASK_REMATCH ? 1
	    : kind == ASK_UNDO           ? !room_spec(bg->room)->rated
					 : bg->eval <= -BOT_DRAW_MARGIN;
	room_answer(bg->room, bg->bot, id, accept, &act);
	return 1;
}

/* Whether the bot's game is over with no human left at the table or
 * watching: then it leaves, so the room can be freed. */
static int
time_to_leave(const struct botgame *bg)
{
	const struct room *r = bg->room;

	if (room_unfinished(r) || room_watchers(r) > 0)
		return 0;
	for (int i = 0; i < 2; i++)
		if (room_seated(r, i) && !is_bot(room_seated(r, i)))
			return 0;
	return 1;
}

static void
poke_cb(evutil_socket_t fd, short what, void *arg)
{
	struct botgame *bg = arg;
	struct room *r = bg->room;
	struct room_act act;

	(void)fd;
	(void)what;
	if (room_busy(r)) /* its commit's answer (an event, or botplay_refused) looks again */
		return;
	if (bg->job && (state_key(r) != bg->key || !room_unfinished(r))) {
		if (bg->job == HOSTED_JOB) /* the brain goes; BOARD brings a new one up */
			hosted_end(bg->bp->hosted, bg->howner);
		else if (bg->job == FAR_JOB) /* its answer is dropped */
			world_engine_end(&bg->bp->srv->world, bg->game, 0);
		else
			bots_cancel(bg->bp->pool, bg->job);
		bg->job = 0;
	}
	if (bg->far >= 0 && bg->game[0] && !room_unfinished(r)) {
		/* the game is over: the worker's brain for it ends */
		world_engine_end(&bg->bp->srv->world, bg->game, 1);
		bg->game[0] = '\0';
	}
	if (bg->howner && !room_unfinished(r)) {
		/* the game is over: its brain ends now, not when the room goes,
		 * so that a player reading the result holds no brain process
		 * and no slot of engine-games (a rematch starts another) */
		hosted_end(bg->bp->hosted, bg->howner);
		bg->howner = 0;
	}
	int seat = my_seat(bg);
	if (time_to_leave(bg)) {
		struct session *bot = bg->bot;
		room_leave(r, bot);
		botgame_free(bg);
		session_free(bot);
		return;
	}
	if (answer_offer(bg, seat))
		return; /* the room changed: the next poke sees the rest */
	if (room_actor(r) != seat || bg->job)
		return;
	const opening_t *om = room_status(r) == GAME_OPENING ? room_opening(r) : NULL;
	if (om && om->rule != ORULE_SWAP2) {
		start_opening(bg, seat, om);
		return;
	}
	if (room_status(r) == GAME_OPENING && room_stage(r) == SWAP2_PUT3) {
		/* the bot opens: three stones from a short list */
		const char *const *o =
		    openings[room_num(r) % (sizeof openings / sizeof openings[0])];
		game_err_t e = room_swap2_put(r, bg->bot, o, 3, &act);
		if (e != GERR_OK && e != GERR_PENDING && !store_refused(bg, e))
			bot_resigns(bg, act.why ? act.why : "opening refused");
		return;
	}
	start_search(bg, seat);
}

/* Looks at the room soon: on the loop, once the change is complete. */
static void
poke(struct botgame *bg)
{
	if (!evtimer_pending(bg->ev, NULL))
		event_active(bg->ev, EV_TIMEOUT, 0);
}

static void
bot_deliver(struct sink *k, struct room *r, const proto_msg_t *m, const char *line, size_t n)
{
	(void)r;
	(void)m;
	(void)line;
	(void)n;
	poke((struct botgame *)(void *)k);
}

/* The bot's state for its game; NULL when out of memory. */
static struct botgame *botgame_new(struct botplay *bp);

/* A bot session of a hosted engine (pick - BOTPLAY_ENGINE), or of one on
 * other nodes (pick - BOTPLAY_FAR, bp->far's), NULL when out of memory. */
static struct session *
engine_bot(struct botplay *bp, int pick, struct botgame *bg)
{
	char name[PROTO_NAME_MAX + 1];
	if (pick >= BOTPLAY_FAR) {
		bg->far = pick - BOTPLAY_FAR;
		snprintf(name, sizeof name, "bot-%s", bp->far[bg->far]);
		return session_bot_engine(bp->srv, -1, name, &bg->sink);
	}
	int engine = pick - BOTPLAY_ENGINE;
	snprintf(name, sizeof name, "bot-%s", hosted_name(bp->hosted, engine));
	return session_bot_engine(bp->srv, engine, name, &bg->sink);
}

static struct botgame *
botgame_new(struct botplay *bp)
{
	struct botgame *bg = calloc(1, sizeof *bg);

	if (!bg)
		return NULL;
	bg->sink.ops = &bot_sink;
	bg->bp = bp;
	bg->far = -1;
	if (!(bg->ev = event_new(bp->srv->base, -1, 0, poke_cb, bg))) {
		free(bg);
		return NULL;
	}
	TAILQ_INSERT_TAIL(&bp->games, bg, link);
	return bg;
}

/* A bot session of level with its game state, not yet at a table. */
static struct session *
new_bot(struct botplay *bp, int level)
{
	struct botgame *bg = botgame_new(bp);
	struct session *bot = !bg     ? NULL
	    : level >= BOTPLAY_ENGINE ? engine_bot(bp, level, bg)
				      : session_bot(bp->srv, level, &bg->sink);

	if (!bot) {
		if (bg)
			botgame_free(bg);
		return NULL;
	}
	bg->bot = bot;
	return bot;
}

struct session *
botplay_new_player(struct botplay *bp, int level)
{
	return new_bot(bp, level);
}

void
botplay_attach(struct botplay *bp, struct session *bot, struct room *r)
{
	struct botgame *bg = (struct botgame *)(void *)bot->sink;

	(void)bp;
	bg->room = r;
	poke(bg);
}

/* A bot session that never sat goes with its state. */
void
botplay_drop(struct botplay *bp, struct session *bot)
{
	(void)bp;
	botgame_free((struct botgame *)(void *)bot->sink);
	session_free(bot);
}

/* The pick of the engine of other nodes named name (interned in
 * bp->far), or -1 when it is no engine's name or too many are known. */
static int
far_pick(struct botplay *bp, const char *name)
{
	size_t n = strlen(name);
	if (n < 1 || n > HOSTED_NAME_MAX || name[0] < 'a' || name[0] > 'z' ||
	    strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789") != n)
		return -1;
	for (int k = 0; k < bp->nfar; k++)
		if (strcmp(bp->far[k], name) == 0)
			return BOTPLAY_FAR + k;
	if (bp->nfar == FAR_MAX)
		return -1;
	memcpy(bp->far[bp->nfar], name, n + 1);
	return BOTPLAY_FAR + bp->nfar++;
}

/* The pick of engine name: the brain here, unless this node searches
 * nothing itself (bot-threads none) and another node serves it; another
 * node's when none here has it and one serves it (any when any is 1: a
 * game kept from before, whose move forfeits when none serves it); -1
 * when none has it. */
static int
engine_pick(struct botplay *bp, const char *name, int any)
{
	int e = hosted_find(bp->hosted, name);
	int live = world_engine_live(&bp->srv->world, name);
	if (e >= 0 && (bp->workers > 0 || !live))
		return BOTPLAY_ENGINE + e;
	return live || any ? far_pick(bp, name) : -1;
}

struct session *
botplay_restored(struct botplay *bp, const char *name)
{
	int level;
	char tail;

	if (bp && strncmp(name, "bot-", 4) == 0) { /* a hosted engine's */
		int pick = engine_pick(bp, name + 4, 1);
		return pick >= 0 ? new_bot(bp, pick) : NULL;
	}
	if (!bp || sscanf(name, "bot%d%c", &level, &tail) != 1 || level < 1 || level > 10)
		return NULL;
	return new_bot(bp, level);
}

int
botplay_engine(struct botplay *bp, const char *name)
{
	return bp ? engine_pick(bp, name, 0) : -1;
}

struct names {
	char *buf;
	size_t len, used;
};

/* name onto the list, unless it is there already or does not fit. */
static void
add_name(void *arg, const char *name)
{
	struct names *l = arg;
	size_t n = strlen(name);
	for (const char *p = l->buf; *p; p += strcspn(p, ","), p += *p == ',')
		if (strncmp(p, name, n) == 0 && (p[n] == ',' || p[n] == '\0'))
			return;
	if (l->used + (l->used > 0) + n + 1 > l->len)
		return;
	snprintf(l->buf + l->used, l->len - l->used, "%s%s", l->used ? "," : "", name);
	l->used += (l->used > 0) + n;
}

const char *
botplay_engines(const struct botplay *bp, char *buf, size_t len)
{
	struct names l = { buf, len, 0 };
	buf[0] = '\0';
	for (int i = 0; bp && i < hosted_count(bp->hosted); i++)
		add_name(&l, hosted_name(bp->hosted, i));
	if (bp)
		world_each_engine(&bp->srv->world, add_name, &l);
	return buf;
}

hosted_t *
botplay_hosted(struct botplay *bp)
{
	return bp ? bp->hosted : NULL;
}

bots_t *
botplay_bots(struct botplay *bp)
{
	return bp ? bp->pool : NULL;
}

void
botplay_load(struct botplay *bp, int *queued, int *running)
{
	bots_load(bp->pool, queued, running);
}

/* Whether the pool could take a new game's search now: its workers and
 * its queue are not all taken (a remote pool: its jobs in flight, at
 * least one, as bots.c counts them). */
static int
pool_has_room(struct botplay *bp)
{
	int queued, running, cap = bp->workers + bp->srv->cfg.bot_queue;

	bots_load(bp->pool, &queued, &running);
	if (bp->workers == 0 && cap < 1)
		cap = 1;
	return queued + running < cap;
}

/* A bot's game started (it plays) or did not (it goes); at shutdown
 * (r NULL) the bot goes with every session. */
static void
bot_started(void *arg, struct room *r, game_err_t e)
{
	struct session *bot = arg;
	struct botgame *bg = (struct botgame *)(void *)bot->sink;

	if (r && e == GERR_OK) {
		botplay_attach(bg->bp, bot, r);
	} else if (r) {
		botplay_drop(bg->bp, bot);
		room_check(r);
	}
}

/* A game between s and a new bot of level in a new room (*room); s's
 * colour wish decides. */
static game_err_t
bot_game(
    struct botplay *bp, struct session *s, const struct gamespec *g, int level, struct room **room)
{
	struct session *bot = new_bot(bp, level);
	struct room *r;

	if (!bot)
		return GERR_NOMEM;
	if (!(r = room_new(bp->srv, g, 0))) {
		botplay_drop(bp, bot);
		return GERR_NOMEM;
	}
	*room = r;
	return room_pair(r, s, g->colour, bot, WISH_ANY, bot_started, bot);
}

game_err_t
botplay_game(struct botplay *bp, struct session *s, const struct gamespec *g, int level,
    struct room **room, const char **why)
{
	struct gamespec casual = *g;

	casual.rated = 0; /* games against bots are casual */
	if (level < BOTPLAY_ENGINE && !pool_has_room(bp)) {
		*why = "every bot is thinking; try again in a moment";
		return GERR_SERVER_BUSY;
	}
	return bot_game(bp, s, &casual, level, room);
}

game_err_t
botplay_seat(struct botplay *bp, struct room *r, struct session *s, int level, const char **why)
{
	(void)s;
	if (!room_joinable(r)) {
		*why = "only the free seat of your private room that is waiting";
		return GERR_ROOM_FULL;
	}
	if (level < BOTPLAY_ENGINE && !pool_has_room(bp)) {
		*why = "every bot is thinking; try again in a moment";
		return GERR_SERVER_BUSY;
	}
	struct session *bot = new_bot(bp, level);
	if (!bot)
		return GERR_NOMEM;
	return room_join(r, bot, bot_started, bot);
}

void
botplay_fallback(struct server *srv, struct session *s, const struct gamespec *g, uint32_t id)
{
	struct gamespec casual = *g;
	struct room *r;

	casual.rated = 0;
	game_err_t e = GERR_NOMEM;
	if (!srv->botplay || session_make_room(s) ||
	    ((e = bot_game(srv->botplay, s, &casual, srv->cfg.bot_fallback_level, &r)) != GERR_OK &&
		e != GERR_PENDING))
		log_warn(&srv->log, "seek %u by %s: no bot game could start", id, s->name);
	else
		log_info(&srv->log, "seek %u by %s: no one came; a bot took the seat", id, s->name);
}

void
botplay_refused(struct botplay *bp, struct room *r, game_err_t e)
{
	struct botgame *bg;
	TAILQ_FOREACH (bg, &bp->games, link)
		if (bg->room == r && !store_refused(bg, e))
			poke(bg);
}
