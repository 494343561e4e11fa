/* store.c: the store's front: picks the backend by the database's name,
 * keeps the fault points, and hands each verb to the backend. */
#include "daemon/store_backend.h"
#include "daemon/auth.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int
store_is_remote(const char *path)
{
	return strncmp(path, "postgresql://", 13) == 0 || strncmp(path, "postgres://", 11) == 0;
}

void
store_redacted(const char *path, char *out, size_t cap)
{
	if (!store_is_remote(path)) {
		snprintf(out, cap, "%s", path);
		return;
	}
	size_t n = 0;
	const char *p = path, *auth = strstr(path, "://") + 3;
	const char *at = strchr(auth, '@'), *colon = strchr(auth, ':');
	/* the secret runs from after "user:" to '@', or from "password=" to '&' */
	while (*p && n + 1 < cap) {
		const char *stop = NULL;
		if (at && colon && colon < at && p == colon + 1)
			stop = at;
		else if (strncmp(p, "password=", 9) == 0 && n + 9 < cap) {
			memcpy(out + n, p, 9);
			n += 9;
			p += 9;
			stop = p + strcspn(p, "&");
		}
		if (stop) {
			n += (size_t)snprintf(out + n, cap - n, "***");
			if (n >= cap)
				n = cap - 1;
			p = stop;
			continue;
		}
		out[n++] = *p++;
	}
	out[n] = '\0';
}

/* Reads GOMOKUD_FAULT in builds that inject faults. */
static void
fault_setup(store_t *s)
{
#ifdef GOMOKUD_FAULTS
	const char *e = getenv("GOMOKUD_FAULT");
	struct store_fault_at *f = &s->fault;
	if (e &&
	    sscanf(e, "%7[a-z]:%31[a-z0-9-]:%d:%7[a-z]", f->when, f->point, &f->nth, f->action) ==
		4)
		return;
#endif
	memset(&s->fault, 0, sizeof s->fault);
}

/* Whether `what` (a write's name, with spaces) is the point (with dashes). */
static int
same_point(const char *what, const char *point)
{
	for (; *what && *point; what++, point++)
		if (*what != *point && !(*what == ' ' && *point == '-'))
			return 0;
	return *what == *point;
}

int
store_fault(store_t *s, const char *when, const char *point)
{
	struct store_fault_at *f = &s->fault;
	if (!f->point[0] || strcmp(f->when, when) != 0 || !same_point(point, f->point) ||
	    ++f->seen != f->nth)
		return 0;
	if (strcmp(f->action, "die") == 0)
		raise(SIGKILL);
	if (strcmp(f->action, "slow") == 0) { /* a commit that takes its time */
		sleep(2);
		return 0;
	}
	snprintf(s->msg, sizeof s->msg, "%s: injected fault", point);
	return -1;
}

void
store_process_init(void)
{
	store_sqlite_process_init();
}

int
store_open(const char *path, store_t **out, char *err, size_t errlen)
{
	store_t *s = calloc(1, sizeof *s);

	*out = NULL;
	if (s == NULL) {
		snprintf(err, errlen, "%s: out of memory", path);
		return -1;
	}
	s->ops = store_is_remote(path) ? &store_pg_ops : &store_sqlite_ops;
	snprintf(s->path, sizeof s->path, "%s", path);
	fault_setup(s);
	if (s->ops->open(s, path, err, errlen) != 0) {
		store_close(s);
		return -1;
	}
	*out = s;
	return 0;
}

void
store_close(store_t *s)
{
	if (s == NULL)
		return;
	s->ops->close(s);
	free(s);
}

const char *
store_path(store_t *s)
{
	return s->path;
}

const char *
store_error(store_t *s)
{
	return s->ops->error(s);
}

int
store_unavailable(store_t *s)
{
	return s->unavailable;
}

/* Each verb: a fresh message and the backend's answer. */
#define CALL(s, verb, ...) \
	((s)->msg[0] = '\0', (s)->unavailable = 0, (s)->ops->verb(s, __VA_ARGS__))
#define CALL0(s, verb) ((s)->msg[0] = '\0', (s)->unavailable = 0, (s)->ops->verb(s))

int
store_schema_version(store_t *s)
{
	return CALL0(s, schema_version);
}

int
store_manual_checkpoints(store_t *s)
{
	return CALL0(s, manual_checkpoints);
}

int
store_begin(store_t *s)
{
	return CALL0(s, begin);
}

int
store_commit(store_t *s)
{
	return CALL0(s, commit);
}

void
store_rollback(store_t *s)
{
	s->ops->rollback(s); /* keeps the message of the failure it follows */
}

int
store_savepoint(store_t *s)
{
	return CALL0(s, savepoint);
}

int
store_release(store_t *s)
{
	return CALL0(s, release);
}

void
store_rollback_to(store_t *s)
{
	s->ops->rollback_to(s); /* keeps the message of the failure it follows */
}

int
store_user_create(store_t *s, const char *name, const char *pwhash, int64_t now)
{
	return CALL(s, user_create, name, pwhash, now);
}

int
store_user_get(
    store_t *s, const char *name, char out_name[STORE_NAME_MAX + 1], char *pwhash, size_t hashlen)
{
	return CALL(s, user_get, name, out_name, pwhash, hashlen);
}

int
store_session_put(store_t *s, const char *digest, const char *name, int64_t expires)
{
	return CALL(s, session_put, digest, name, expires);
}

int
store_session_get(store_t *s, const char *digest, int64_t now, char name[STORE_NAME_MAX + 1])
{
	return CALL(s, session_get, digest, now, name);
}

int
store_session_drop(store_t *s, const char *digest)
{
	return CALL(s, session_drop, digest);
}

int
store_session_expire(store_t *s, int64_t now)
{
	return CALL(s, session_expire, now);
}

int
store_session_names(store_t *s, int64_t now, void (*fn)(void *arg, const char *name), void *arg)
{
	return CALL(s, session_names, now, fn, arg);
}

int
store_login_put(store_t *s, const char *digest, const char *name, int64_t created, int64_t expires)
{
	if (store_begin(s) != 0)
		return -1;
	if (CALL(s, login_put, digest, name, created, expires) != 0 ||
	    CALL(s, login_trim, name, STORE_LOGINS_PER_USER, created) != 0) {
		store_rollback(s);
		return -1;
	}
	return store_commit(s);
}

int
store_user_bot(store_t *s, const char *name, int64_t *since)
{
	return CALL(s, user_bot, name, since);
}

int
store_user_nobots(store_t *s, const char *name, int *no)
{
	return CALL(s, user_nobots, name, no);
}

int
store_user_nobots_set(store_t *s, const char *name, int no)
{
	return CALL(s, user_nobots_set, name, no);
}

int
store_user_league(store_t *s, const char *name, int *yes)
{
	return CALL(s, user_league, name, yes);
}

int
store_user_league_set(store_t *s, const char *name, int yes)
{
	return CALL(s, user_league_set, name, yes);
}

int
store_league_event(
    store_t *s, const char *league, int n, store_tourney_t *t, const store_tplayer_t *p, int np)
{
	return CALL(s, league_event, league, n, t, p, np);
}

int
store_league_events(store_t *s, const char *league,
    void (*fn)(void *arg, int n, const store_tourney_t *t), void *arg)
{
	return CALL(s, league_events, league, fn, arg);
}

int
store_bots(store_t *s, void (*fn)(void *arg, const char *name, int64_t since), void *arg)
{
	return CALL(s, bots, fn, arg);
}

int
store_bot_token_put(
    store_t *s, const char *digest, const char *name, int64_t created, int64_t expires)
{
	int64_t since;
	if (store_begin(s) != 0)
		return -1;
	int rc = CALL(s, user_bot, name, &since);
	if (rc == 0 &&
	    ((rc = CALL(s, bot_token_expire, created)) != 0 ||
		(rc = CALL(s, bot_token_put, digest, name, created, expires)) != 0))
		rc = -1;
	if (rc != 0) {
		store_rollback(s);
		return rc;
	}
	return store_commit(s);
}

int
store_bot_upgrade(store_t *s, const char *digest, const char *name, int64_t now)
{
	char owner[STORE_NAME_MAX + 1], a[AUTH_NAME_MAX + 1], b[AUTH_NAME_MAX + 1];
	int64_t expires = 0;
	if (store_begin(s) != 0)
		return -1;
	int rc = CALL(s, bot_token_take, digest, owner, &expires);
	if (rc == 0) {
		auth_name_key(owner, a);
		auth_name_key(name, b);
		/* used up all the same: a token shown to another account has leaked */
		int64_t since = 0;
		if (expires <= now || strcmp(a, b) != 0)
			rc = STORE_NOT_FOUND;
		else if ((rc = CALL(s, user_bot, name, &since)) == 0 && since == 0)
			rc = CALL(s, user_bot_set, name, now); /* a bot already keeps its since */
		if (rc > 0)
			rc = STORE_NOT_FOUND;
	}
	if (rc < 0) {
		store_rollback(s);
		return -1;
	}
	return store_commit(s) != 0 ? -1 : rc;
}

int
store_bot_revoke(store_t *s, const char *name)
{
	if (store_begin(s) != 0)
		return -1;
	int rc = CALL(s, user_bot_set, name, 0);
	if (rc == 0 && CALL(s, bot_token_drop_user, name) != 0)
		rc = -1;
	if (rc != 0) {
		store_rollback(s);
		return rc;
	}
	return store_commit(s);
}

int
store_login_get(store_t *s, const char *digest, int64_t now, char name[STORE_NAME_MAX + 1])
{
	return CALL(s, login_get, digest, now, name);
}

int
store_login_drop(store_t *s, const char *digest)
{
	return CALL(s, login_drop, digest);
}

int
store_login_drop_user(store_t *s, const char *name)
{
	return CALL(s, login_drop_user, name);
}

int
store_rating_get(store_t *s, const char *name, rule_t rule, store_rating_t *out)
{
	return CALL(s, rating_get, name, rule, out);
}

int
store_rating_put(store_t *s, rule_t rule, const store_rating_t *r)
{
	return CALL(s, rating_put, rule, r);
}

int
store_top(store_t *s, rule_t rule, int bots, int page, store_rating_t *out, int *total)
{
	return CALL(s, top, rule, bots, page, out, total);
}

int
store_game_begin(store_t *s, store_game_t *g)
{
	return CALL(s, game_begin, g);
}

int
store_game_move(store_t *s, int64_t game_id, int ply, const store_move_t *m)
{
	return CALL(s, game_move, game_id, ply, m);
}

int
store_game_colours(store_t *s, int64_t game_id, const char *black, const char *white,
    int opening_plies, const char *log)
{
	return CALL(s, game_colours, game_id, black, white, opening_plies, log);
}

int
store_game_truncate(store_t *s, int64_t game_id, int from)
{
	return CALL(s, game_truncate, game_id, from);
}

int
store_game_end(store_t *s, const store_game_t *g)
{
	return CALL(s, game_end, g);
}

int
store_game_load(store_t *s, int64_t id, store_game_t *g, store_move_t *moves)
{
	return CALL(s, game_load, id, g, moves);
}

int
store_games_unfinished(store_t *s, int64_t *ids, int max)
{
	return CALL(s, games_unfinished, ids, max);
}

int
store_games_open(store_t *s, store_open_game_t *out, int max)
{
	return CALL(s, games_open, out, max);
}

int
store_open_stones(store_t *s, const char *owner, store_stone_fn *fn, void *arg)
{
	return CALL(s, open_stones, owner, fn, arg);
}

int
store_game_claim(store_t *s, int64_t id, const char *owner)
{
	return CALL(s, game_claim, id, owner);
}

int
store_game_fence(store_t *s, int64_t id, const char *owner)
{
	return CALL(s, game_fence, id, owner);
}

int
store_game_move_owned(
    store_t *s, int64_t game_id, int ply, const store_move_t *m, const char *owner)
{
	return CALL(s, game_move_owned, game_id, ply, m, owner);
}

int
store_history(store_t *s, const char *name, int page, store_game_t *out, int *total)
{
	return CALL(s, history, name, page, out, total);
}

int
store_sanction_put(store_t *s, const store_sanction_t *x)
{
	return CALL(s, sanction_put, x);
}

int
store_sanction_drop(store_t *s, int kind, const char *target)
{
	return CALL(s, sanction_drop, kind, target);
}

int
store_sanctions(
    store_t *s, int64_t now, void (*fn)(void *arg, const store_sanction_t *x), void *arg)
{
	return CALL(s, sanctions, now, fn, arg);
}

int
store_puzzle_put(store_t *s, store_puzzle_t *p)
{
	return CALL(s, puzzle_put, p);
}

int
store_puzzle_get(store_t *s, int64_t id, store_puzzle_t *out)
{
	return CALL(s, puzzle_get, id, out);
}

int
store_puzzle_pick(store_t *s, const char *name, double rating, int64_t *id)
{
	return CALL(s, puzzle_pick, name, rating, id);
}

int
store_puzzle_count(store_t *s, int64_t *n)
{
	return CALL(s, puzzle_count, n);
}

int
store_puzzle_nth(store_t *s, int64_t k, int64_t *id)
{
	return CALL(s, puzzle_nth, k, id);
}

int
store_puzzle_try(
    store_t *s, const char *name, int64_t id, int solved, int64_t at, const glicko_t *g)
{
	return CALL(s, puzzle_try, name, id, solved, at, g);
}

int
store_cells_text(const move_t *m, int n, char *buf, size_t cap)
{
	size_t pos = 0;
	if (cap < 2 || n < 0)
		return -1;
	if (n == 0)
		return snprintf(buf, cap, "-");
	buf[0] = '\0';
	for (int i = 0; i < n; i++) {
		int k = snprintf(buf + pos, cap - pos, "%s%d", i ? "," : "", (int)m[i]);
		if (k < 0 || (size_t)k >= cap - pos)
			return -1;
		pos += (size_t)k;
	}
	return (int)pos;
}

int
store_cells_read(const char *text, int size, move_t *m, int max)
{
	int n = 0;
	if (!strcmp(text, "-"))
		return 0;
	for (const char *p = text;;) {
		char *end;
		long v = strtol(p, &end, 10);
		if (end == p || *p == '-' || *p == '+' || v < 0 || v >= RULES_CELLS || n == max ||
		    rules_x((move_t)v) >= size || rules_y((move_t)v) >= size)
			return -1;
		m[n++] = (move_t)v;
		if (*end == '\0')
			return n;
		if (*end != ',')
			return -1;
		p = end + 1;
	}
}

int
store_review_put(store_t *s, int64_t game_id, int64_t made, const char *body)
{
	return CALL(s, review_put, game_id, made, body);
}

int
store_review_get(store_t *s, int64_t game_id, char *out, size_t cap)
{
	return CALL(s, review_get, game_id, out, cap);
}

int
store_tourney_new(store_t *s, store_tourney_t *t)
{
	return CALL(s, tourney_new, t);
}

int
store_tourney_set(store_t *s, const store_tourney_t *t)
{
	return CALL(s, tourney_set, t);
}

int
store_tourney_get(store_t *s, int64_t id, store_tourney_t *out)
{
	return CALL(s, tourney_get, id, out);
}

int
store_tourneys(
    store_t *s, int64_t since, void (*fn)(void *arg, const store_tourney_t *t), void *arg)
{
	return CALL(s, tourneys, since, fn, arg);
}

int
store_tplayer_put(store_t *s, int64_t tourney, const store_tplayer_t *p)
{
	return CALL(s, tplayer_put, tourney, p);
}

int
store_tplayer_drop(store_t *s, int64_t tourney, const char *name)
{
	return CALL(s, tplayer_drop, tourney, name);
}

int
store_tplayers(
    store_t *s, int64_t tourney, void (*fn)(void *arg, const store_tplayer_t *p), void *arg)
{
	return CALL(s, tplayers, tourney, fn, arg);
}

int
store_tround_put(store_t *s, int64_t tourney, int round, store_tgame_t *g, int n)
{
	if (n < 0 || (n > 0 && g == NULL) || round < 1) {
		s->unavailable = 0;
		snprintf(s->msg, sizeof s->msg, "tround put: round %d of %d pairings", round, n);
		return -1;
	}
	return CALL(s, tround_put, tourney, round, g, n);
}

int
store_tgame_result(store_t *s, int64_t tgame, int result)
{
	return CALL(s, tgame_result, tgame, result);
}

int
store_tgame_room(store_t *s, int64_t tgame, const char *room)
{
	return CALL(s, tgame_room, tgame, room);
}

int
store_tgames(store_t *s, int64_t tourney, void (*fn)(void *arg, const store_tgame_t *g), void *arg)
{
	return CALL(s, tgames, tourney, fn, arg);
}

int
store_tgame_linked(store_t *s, int64_t tgame, store_game_t *out)
{
	return CALL(s, tgame_linked, tgame, out);
}

int
store_setting_get(store_t *s, const char *key, char *out, size_t cap)
{
	return CALL(s, setting_get, key, out, cap);
}

int
store_setting_put(store_t *s, const char *key, const char *value)
{
	return CALL(s, setting_put, key, value);
}
