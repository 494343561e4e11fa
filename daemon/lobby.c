/* lobby.c: seeks wait here until a compatible one arrives (see lobby.h). */
#include "daemon/lobby.h"

#include <stdlib.h>

#include "daemon/room.h"
#include "daemon/server.h"
#include "daemon/session.h"

static void
seek_free(struct server *srv, struct seek *k)
{
	TAILQ_REMOVE(&srv->seeks, k, link);
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
	seek_free(srv, k);
	fn(srv, s, &g, id);
}

game_err_t
lobby_seek(struct server *srv, struct session *s, const struct gamespec *g, int wait_s,
    lobby_wait_fn on_wait, uint32_t *id)
{
	*id = ++srv->next_seek;
	struct seek *k;
	TAILQ_FOREACH (k, &srv->seeks, link)
		if (k->sess != s && !k->held && gamespec_compatible(&k->spec, g))
			break;
	if (!k) {
		if (!(k = calloc(1, sizeof *k)))
			return GERR_NOMEM;
		k->id = *id;
		k->sess = s;
		k->spec = *g;
		if (on_wait) {
			struct timeval tv = { wait_s, 0 };
			k->on_wait = on_wait;
			if ((k->waited = evtimer_new(srv->base, waited_cb, k)))
				evtimer_add(k->waited, &tv);
		}
		TAILQ_INSERT_TAIL(&srv->seeks, k, link);
		s->seek = k;
		log_debug(&srv->log, "seek %u by %s", k->id, s->name);
		return GERR_OK;
	}
	struct room *r = room_new(srv, g, 0);
	if (!r)
		return GERR_NOMEM;
	/* the older seek's wish decides when it is not "any"; it stays if the
	 * game cannot start */
	game_err_t e = room_pair(r, k->sess, k->spec.colour, s, g->colour);
	if (e != GERR_OK) {
		room_check(r);
		return e;
	}
	seek_free(srv, k);
	return GERR_OK;
}

void
lobby_release(struct server *srv, struct seek *k)
{
	struct seek *o;
	k->held = 0;
	TAILQ_FOREACH (o, &srv->seeks, link)
		if (o != k && o->sess != k->sess && !o->held &&
		    gamespec_compatible(&o->spec, &k->spec))
			break;
	if (!o)
		return;
	/* the older seek's wish decides, as in lobby_seek */
	struct seek *old = o, *young = k;
	for (struct seek *x = TAILQ_FIRST(&srv->seeks); x; x = TAILQ_NEXT(x, link))
		if (x == k || x == o) {
			old = x;
			young = x == k ? o : k;
			break;
		}
	struct room *r = room_new(srv, &young->spec, 0);
	if (!r)
		return;
	if (room_pair(r, old->sess, old->spec.colour, young->sess, young->spec.colour) != GERR_OK) {
		room_check(r);
		return;
	}
	seek_free(srv, old);
	seek_free(srv, young);
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
	TAILQ_FOREACH (k, &srv->seeks, link) {
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
	while ((k = TAILQ_FIRST(&srv->seeks)) != NULL) {
		struct session *s = k->sess;
		seek_free(srv, k);
		if (told)
			told(s);
	}
}

void
lobby_free(struct server *srv)
{
	while (!TAILQ_EMPTY(&srv->seeks))
		seek_free(srv, TAILQ_FIRST(&srv->seeks));
}
