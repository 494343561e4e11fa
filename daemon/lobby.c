/* lobby.c: seeks wait here until a compatible one arrives (see lobby.h). */
#include "daemon/lobby.h"

#include <stdlib.h>
#include <strings.h>

#include "daemon/room.h"
#include "daemon/core.h"
#include "daemon/session.h"

/* The lobby's state: srv->lobby. */
struct lobby {
	struct seek_list seeks; /* oldest first */
	uint32_t next_seek;
};

static void
seek_free(struct server *srv, struct seek *k)
{
	TAILQ_REMOVE(&srv->lobby->seeks, k, link);
	if (k->waited)
		event_free(k->waited);
	if (k->sess->seek == k)
		k->sess->seek = NULL;
	free(k);
}

static void
waited_cb(evutil_socket_t fd, short what, void *arg)
{
	struct seek *k = arg;
	struct session *s = k->sess;
	struct server *srv = s->srv;
	struct gamespec g = k->spec;
	uint32_t id = k->id;
	lobby_wait_fn fn = k->on_wait;
	(void)fd;
	(void)what;
	if (k->held) { /* a game with it may be starting: look again after */
		struct timeval again = { 1, 0 };
		evtimer_add(k->waited, &again);
		return;
	}
	int away = k->away;
	seek_free(srv, k);
	if (away) /* its player never came back: the session may go now */
		session_check(s);
	else
		fn(srv, s, &g, id);
}

static struct seek *
seek_by_id(struct server *srv, uint32_t id)
{
	struct seek *k;
	TAILQ_FOREACH (k, &srv->lobby->seeks, link)
		if (k->id == id)
			break;
	return k;
}

/* Seeks paired into a game whose start is being stored: held meanwhile,
 * gone once it started, open again if it did not. */
struct pairing {
	struct server *srv;
	uint32_t seeks[2]; /* 0: none */
};

static void
paired(void *arg, struct room *r, game_err_t e)
{
	struct pairing *pg = arg;
	for (int i = 0; r && i < 2; i++) {
		struct seek *k = pg->seeks[i] ? seek_by_id(pg->srv, pg->seeks[i]) : NULL;
		if (k && e == GERR_OK)
			seek_free(pg->srv, k);
		else if (k)
			k->held = 0;
	}
	if (r && e != GERR_OK)
		room_check(r);
	free(pg);
}

/* A new room for the seeks old and young (NULL: young is a seeker that has
 * none yet); the older seek's wish decides when it is not "any", and the
 * seeks stay, held, until the game's start is answered (room_pair). */
static game_err_t
pair(struct server *srv, struct seek *old, struct session *young, const struct gamespec *g,
    struct seek *young_seek)
{
	struct pairing *pg = calloc(1, sizeof *pg);
	struct room *r = pg ? room_new(srv, g, 0) : NULL;
	if (!r) {
		free(pg);
		return GERR_NOMEM;
	}
	pg->srv = srv;
	pg->seeks[0] = old->id;
	pg->seeks[1] = young_seek ? young_seek->id : 0;
	old->held = 1;
	if (young_seek)
		young_seek->held = 1;
	return room_pair(r, old->sess, old->spec.colour, young, g->colour, paired, pg);
}

game_err_t
lobby_seek(struct server *srv, struct session *s, const struct gamespec *g, int may_wait,
    int wait_s, lobby_wait_fn on_wait, uint32_t *id)
{
	*id = ++srv->lobby->next_seek;
	struct seek *k;
	TAILQ_FOREACH (k, &srv->lobby->seeks, link)
		if (k->sess != s && !k->held && !k->away && gamespec_compatible(&k->spec, g))
			break;
	if (!k) {
		if (!may_wait)
			return GERR_TOO_MANY_SEEKS;
		if (!(k = calloc(1, sizeof *k)))
			return GERR_NOMEM;
		k->id = *id;
		k->sess = s;
		k->spec = *g;
		if (on_wait) {
			struct timeval tv = { wait_s, 0 };
			k->on_wait = on_wait;
			k->wait_s = wait_s;
			if ((k->waited = evtimer_new(srv->base, waited_cb, k)))
				evtimer_add(k->waited, &tv);
		}
		TAILQ_INSERT_TAIL(&srv->lobby->seeks, k, link);
		s->seek = k;
		log_debug(&srv->log, "seek %u by %s", k->id, s->name);
		return GERR_OK;
	}
	/* the older seek stays if the game cannot start */
	return pair(srv, k, s, g, NULL);
}

void
lobby_release(struct server *srv, struct seek *k)
{
	struct seek *o;
	k->held = 0;
	TAILQ_FOREACH (o, &srv->lobby->seeks, link)
		if (o != k && o->sess != k->sess && !o->held && !o->away &&
		    gamespec_compatible(&o->spec, &k->spec))
			break;
	if (!o)
		return;
	/* the older seek's wish decides, as in lobby_seek */
	struct seek *old = o, *young = k;
	for (struct seek *x = TAILQ_FIRST(&srv->lobby->seeks); x; x = TAILQ_NEXT(x, link))
		if (x == k || x == o) {
			old = x;
			young = x == k ? o : k;
			break;
		}
	pair(srv, old, young->sess, &young->spec, young);
}

game_err_t
lobby_take(struct server *srv, struct session *s, uint32_t id, const char *user, const char **why)
{
	struct seek *k = seek_by_id(srv, id);
	if (k && strcasecmp(k->sess->name, user) != 0)
		k = NULL; /* another node's seek of that id, or a stale list */
	if (!k || k->held || k->away) {
		*why = !k     ? "no such seek open on this server"
		    : k->away ? "that player is away now; their seek waits for them"
			      : "that seek is being paired already";
		return GERR_NO_SEEK;
	}
	if (k->sess == s) {
		*why = "that seek is your own";
		return GERR_ARGUMENT;
	}
	if (k->spec.rated && s->kind == SESSION_GUEST) {
		*why = GAME_WHY_ACCOUNT_ONLY;
		return GERR_ACCOUNT_ONLY;
	}
	struct gamespec g = k->spec;
	g.colour = WISH_ANY; /* the seeker's wish decides */
	return pair(srv, k, s, &g, NULL);
}

game_err_t
lobby_cancel(struct server *srv, struct session *s, uint32_t id)
{
	if (!s->seek || (id && s->seek->id != id))
		return GERR_NO_SEEK;
	seek_free(srv, s->seek);
	return GERR_OK;
}

int
lobby_each(struct server *srv, int (*fn)(void *arg, const struct seek *k), void *arg)
{
	int n = 0;
	struct seek *k;
	TAILQ_FOREACH (k, &srv->lobby->seeks, link) {
		n++;
		if (fn(arg, k))
			break;
	}
	return n;
}

void
lobby_cancel_all(struct server *srv, void (*told)(struct session *s))
{
	struct seek *k;
	while ((k = TAILQ_FIRST(&srv->lobby->seeks)) != NULL) {
		struct session *s = k->sess;
		seek_free(srv, k);
		if (told)
			told(s);
		session_check(s); /* one away may hold nothing now */
	}
}

struct lobby *
lobby_new(void)
{
	struct lobby *lb = calloc(1, sizeof *lb);
	if (lb)
		TAILQ_INIT(&lb->seeks);
	return lb;
}

void
lobby_free(struct server *srv)
{
	if (!srv->lobby)
		return;
	while (!TAILQ_EMPTY(&srv->lobby->seeks))
		seek_free(srv, TAILQ_FIRST(&srv->lobby->seeks));
	free(srv->lobby);
	srv->lobby = NULL;
}

int
lobby_held(const struct seek *k)
{
	return k->held || k->away;
}

int
lobby_away(const struct seek *k)
{
	return k->away;
}

void
lobby_hold(struct seek *k, int held)
{
	k->held = held;
}

static void
seek_gone(void *srv, struct session *s)
{
	if (s->seek)
		lobby_cancel(srv, s, 0);
}

/* The seek's timer from now: its bot fallback (none: stopped), or, away,
 * the end of its wait for its player. */
static void
arm(struct server *srv, struct seek *k, int seconds)
{
	if (!k->waited)
		k->waited = evtimer_new(srv->base, waited_cb, k);
	if (!k->waited)
		return;
	if (seconds > 0) {
		struct timeval tv = { seconds, 0 };
		evtimer_add(k->waited, &tv);
	} else {
		evtimer_del(k->waited);
	}
}

static void
seek_away(void *arg, struct session *s)
{
	struct server *srv = arg;
	struct seek *k = s->seek;
	if (!k)
		return;
	k->away = 1;
	arm(srv, k, srv->cfg.away_keep_s);
}

static void
seek_back(void *arg, struct session *s)
{
	struct server *srv = arg;
	struct seek *k = s->seek;
	if (!k || !k->away)
		return;
	k->away = 0;
	arm(srv, k, k->on_wait ? k->wait_s : 0);
	/* pairs with the oldest fit, if any, as if new; a claim of it by
	 * another node still in flight decides first (its answer releases it) */
	if (!k->held)
		lobby_release(srv, k);
}

static int
seek_holds(void *arg, const struct session *s)
{
	(void)arg;
	return s->seek != NULL;
}

const struct session_owner lobby_owner = {
	.away = seek_away,
	.back = seek_back,
	.gone = seek_gone,
	.holds = seek_holds,
};
