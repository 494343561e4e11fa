/* archive.c: rooms' games to and from the store (see archive.h). */
#include "daemon/archive.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "daemon/auth.h"
#include "daemon/room.h"
#include "daemon/server.h"
#include "daemon/session.h"
#include "daemon/store.h"

void
archive_begin(struct room *r)
{
	store_t *st = r->srv->store;
	store_game_t g;

	r->game_id = 0;
	if (st == NULL)
		return;
	memset(&g, 0, sizeof g);
	snprintf(g.room, sizeof g.room, "%s", r->id);
	g.rule = r->spec.rule;
	g.size = r->spec.size;
	g.opening = r->spec.opening;
	g.rated = r->spec.rated;
	g.tc_base = r->spec.tc_base;
	g.tc_inc = r->spec.tc_inc;
	g.private_room = r->private;
	snprintf(g.code, sizeof g.code, "%s", r->code);
	g.opening_plies = r->spec.opening == OPENING_SWAP2 ? -1 : 0;
	snprintf(g.black, sizeof g.black, "%s", r->seat[0].name);
	snprintf(g.white, sizeof g.white, "%s", r->seat[1].name);
	g.started = (int64_t)time(NULL);
	if (store_game_begin(st, &g) != 0) {
		log_error(
		    &r->srv->log, "room %s: cannot store the game: %s", r->id, store_error(st));
		return;
	}
	r->game_id = g.id;
}

int
archive_move(struct room *r, int64_t used_ms, int64_t black_ms, int64_t white_ms)
{
	store_t *st = r->srv->store;
	store_move_t m;

	if (st == NULL || r->game_id == 0)
		return 0;
	m.move = r->pos.moves[r->pos.nmoves - 1];
	m.used_ms = used_ms;
	m.black_ms = black_ms;
	m.white_ms = white_ms;
	if (store_game_move(st, r->game_id, r->pos.nmoves - 1, &m) != 0) {
		log_error(&r->srv->log, "room %s: cannot store a move: %s", r->id, store_error(st));
		return -1;
	}
	return 0;
}

void
archive_truncate(struct room *r)
{
	store_t *st = r->srv->store;

	if (st != NULL && r->game_id != 0 &&
	    store_game_truncate(st, r->game_id, r->pos.nmoves) != 0)
		log_error(
		    &r->srv->log, "room %s: cannot store an undo: %s", r->id, store_error(st));
}

void
archive_colours(struct room *r)
{
	store_t *st = r->srv->store;

	if (st != NULL && r->game_id != 0 &&
	    store_game_colours(st, r->game_id, r->seat[0].name, r->seat[1].name, r->nopening) != 0)
		log_error(
		    &r->srv->log, "room %s: cannot store the colours: %s", r->id, store_error(st));
}

/* Whether name is a registered account (guests and bots are not). */
static int
is_account(store_t *st, const char *name)
{
	char spelled[STORE_NAME_MAX + 1], hash[AUTH_HASH_MAX];

	return store_user_get(st, name, spelled, hash, sizeof hash) == 0;
}

/* Accounts are rated; bots only when the config says so (rate-bots). */
static int
rated_seat(struct room *r, int seat, const char *name)
{
	const struct session *s = r->seat[seat].sess;

	if (s && s->bot_level)
		return r->srv->cfg.rate_bots;
	return is_account(r->srv->store, name);
}

/* Glicko-2 for a rated game between rated players; counts its result. */
static void
rate(struct room *r, store_game_t *g)
{
	store_t *st = r->srv->store;
	store_rating_t b, w;
	double score;

	if (!r->spec.rated || r->result == RES_NONE || r->reason == REASON_ABORTED ||
	    !rated_seat(r, 0, g->black) || !rated_seat(r, 1, g->white))
		return;
	if (store_rating_get(st, g->black, r->spec.rule, &b) < 0 ||
	    store_rating_get(st, g->white, r->spec.rule, &w) < 0)
		return;
	g->black_before = b.g.rating;
	g->white_before = w.g.rating;
	score = r->result == RES_BLACK ? 1.0 : r->result == RES_WHITE ? 0.0 : 0.5;
	glicko_rate_game(&b.g, &w.g, score, GLICKO_TAU);
	b.wins += score == 1.0;
	b.losses += score == 0.0;
	b.draws += score == 0.5;
	w.wins += score == 0.0;
	w.losses += score == 1.0;
	w.draws += score == 0.5;
	g->black_after = b.g.rating;
	g->white_after = w.g.rating;
	if (store_rating_put(st, r->spec.rule, &b) != 0 ||
	    store_rating_put(st, r->spec.rule, &w) != 0)
		log_error(
		    &r->srv->log, "room %s: cannot store ratings: %s", r->id, store_error(st));
}

void
archive_end(struct room *r)
{
	store_t *st = r->srv->store;
	store_game_t g;

	if (st == NULL || r->game_id == 0)
		return;
	if (store_game_load(st, r->game_id, &g, NULL) != 0) {
		log_error(
		    &r->srv->log, "room %s: cannot load the game: %s", r->id, store_error(st));
		return;
	}
	g.ended = (int64_t)time(NULL);
	g.result = r->result;
	g.reason = r->reason;
	rate(r, &g);
	if (store_game_end(st, &g) != 0)
		log_error(
		    &r->srv->log, "room %s: cannot store the result: %s", r->id, store_error(st));
}

int
archive_restore(struct server *srv)
{
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
		const char *why = NULL;
		if (store_game_load(st, ids[i], &g, moves) != 0) {
			log_error(&srv->log, "game %lld: %s", (long long)ids[i], store_error(st));
			continue;
		}
		if (room_restore(srv, &g, moves, &why) == NULL) {
			/* an unplayable record ends as aborted, so it is not retried */
			log_error(&srv->log, "game %lld in room %s cannot be resumed: %s; aborted",
			    (long long)g.id, g.room, why ? why : "?");
			g.ended = (int64_t)time(NULL);
			g.result = RES_NONE;
			g.reason = REASON_ABORTED;
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
