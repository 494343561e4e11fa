/* challenge.c: direct challenges between users (see challenge.h). */
#include "daemon/challenge.h"

#include <stdio.h>
#include <stdlib.h>

#include "daemon/room.h"
#include "daemon/core.h"
#include "daemon/session.h"
#include "daemon/wire.h"

/* The challenges' state: srv->challenges. */
struct challenges {
	struct challenge_list list; /* oldest first */
	uint32_t next_id;
};

static void
challenge_free(struct challenge *k)
{
	TAILQ_REMOVE(&k->srv->challenges->list, k, link);
	if (k->expiry)
		event_free(k->expiry);
	free(k);
}

/* Tells both sides how it ended (a refused one: the challenger alone,
 * the other never heard of it), then frees it. */
static void
challenge_end(struct challenge *k, proto_end_t how)
{
	proto_msg_t e;
	proto_init(&e, PE_CHALLENGEEND, NULL);
	e.ident = k->id;
	e.end = how;
	session_send(k->from, &e);
	if (!k->refused)
		session_send(k->to, &e);
	struct session *from = k->from, *to = k->to;
	challenge_free(k);
	/* a side away may hold nothing more now */
	session_check(from);
	session_check(to);
}

static void
expiry_cb(evutil_socket_t fd, short what, void *arg)
{
	struct challenge *k = arg;
	(void)fd;
	(void)what;
	if (k->starting) { /* accepted: its game's start is answered first */
		struct timeval again = { 1, 0 };
		evtimer_add(k->expiry, &again);
		return;
	}
	challenge_end(k, k->refused ? END_DECLINED : END_EXPIRED);
}

static void tell(struct challenge *k, struct session *s);

static struct challenge *
by_id(struct server *srv, uint32_t id)
{
	struct challenge *k;
	TAILQ_FOREACH (k, &srv->challenges->list, link)
		if (k->id == id)
			return k;
	return NULL;
}

struct accepted {
	struct server *srv;
	uint32_t id;
};

/* The accepted challenge's game started (it ends, accepted) or did not
 * (it stays open); it may have been withdrawn meanwhile. */
static void
accepted(void *arg, struct room *r, game_err_t e)
{
	struct accepted *a = arg;
	struct challenge *k = r ? by_id(a->srv, a->id) : NULL;
	if (k)
		k->starting = 0;
	if (k && e == GERR_OK)
		challenge_end(k, END_ACCEPTED);
	if (r && e != GERR_OK)
		room_check(r);
	free(a);
}

game_err_t
challenge_new(struct server *srv, struct session *from, struct session *to,
    const struct gamespec *g, uint32_t *id)
{
	if (from == to)
		return GERR_ARGUMENT;
	if (session_busy(from) || session_busy(to))
		return GERR_BUSY;
	if (challenge_pending(srv, from))
		return GERR_OFFER_PENDING;
	struct challenge *k;
	if (!(k = calloc(1, sizeof *k)))
		return GERR_NOMEM;
	/* a person who refuses bots' challenges never sees one: it ends
	 * declined on the next turn, after the challenger's OK */
	int refused = from->botacct && to->nobots && !to->botacct;
	struct timeval tv = { refused ? 0 : CHALLENGE_TTL_S, 0 };
	if (!(k->expiry = evtimer_new(srv->base, expiry_cb, k)) || evtimer_add(k->expiry, &tv)) {
		if (k->expiry)
			event_free(k->expiry);
		free(k);
		return GERR_NOMEM;
	}
	k->id = *id = challenge_next_id(srv);
	k->srv = srv;
	k->from = from;
	k->to = to;
	k->spec = *g;
	k->refused = refused;
	TAILQ_INSERT_TAIL(&srv->challenges->list, k, link);
	if (!refused)
		tell(k, to);
	log_debug(&srv->log, "challenge %u: %s to %s", k->id, from->name, to->name);
	return GERR_OK;
}

game_err_t
challenge_answer(struct server *srv, struct session *s, uint32_t id, int accept)
{
	struct challenge *k = by_id(srv, id);
	if (!k || (k->from != s && k->to != s))
		return GERR_NO_OFFER;
	if (!accept) {
		challenge_end(k, k->from == s ? END_WITHDRAWN : END_DECLINED);
		return GERR_OK;
	}
	if (k->from == s)
		return GERR_NOT_PLAYER;
	if (k->spec.rated && (k->from->kind == SESSION_GUEST || k->to->kind == SESSION_GUEST))
		return GERR_ACCOUNT_ONLY;
	if (!session_present(k->from))
		return GERR_AWAY; /* it waits for the challenger to be back */
	if (session_busy(k->from) || session_busy(k->to))
		return GERR_BUSY;
	if (session_make_room(k->from) || session_make_room(k->to))
		return GERR_BUSY;
	struct accepted *a = calloc(1, sizeof *a);
	struct room *r = a ? room_new(srv, &k->spec, 0) : NULL;
	if (!r) {
		free(a);
		return GERR_NOMEM;
	}
	a->srv = srv;
	a->id = k->id;
	k->starting = 1;
	return room_pair(r, k->from, k->spec.colour, k->to, WISH_ANY, accepted, a);
}

int
challenge_pending(struct server *srv, const struct session *s)
{
	struct challenge *k;
	TAILQ_FOREACH (k, &srv->challenges->list, link)
		if (k->from == s)
			return 1;
	return 0;
}

void
challenge_drop(struct server *srv, struct session *s)
{
	struct challenge *k, *next;
	for (k = TAILQ_FIRST(&srv->challenges->list); k; k = next) {
		next = TAILQ_NEXT(k, link);
		if (k->from == s || k->to == s)
			challenge_end(k, END_WITHDRAWN);
	}
}

struct challenges *
challenges_new(void)
{
	struct challenges *cs = calloc(1, sizeof *cs);
	if (cs)
		TAILQ_INIT(&cs->list);
	return cs;
}

void
challenge_free_all(struct server *srv)
{
	if (!srv->challenges)
		return;
	while (!TAILQ_EMPTY(&srv->challenges->list))
		challenge_free(TAILQ_FIRST(&srv->challenges->list));
	free(srv->challenges);
	srv->challenges = NULL;
}

uint32_t
challenge_next_id(struct server *srv)
{
	return ++srv->challenges->next_id;
}

static void
challenge_gone(void *srv, struct session *s)
{
	challenge_drop(srv, s);
}

/* The challenge as told at first (* CHALLENGE), to s. */
static void
tell(struct challenge *k, struct session *s)
{
	proto_msg_t e;
	proto_init(&e, PE_CHALLENGE, NULL);
	e.ident = k->id;
	snprintf(e.user, sizeof e.user, "%s", k->from->name);
	snprintf(e.user2, sizeof e.user2, "%s", k->to->name);
	wire_gamespec_out(&e, &k->spec);
	session_send(s, &e);
}

/* Back from away: the challenges it made or got, told again. */
static void
challenge_back(void *srv, struct session *s)
{
	struct server *sv = srv;
	struct challenge *k;
	TAILQ_FOREACH (k, &sv->challenges->list, link)
		if (k->from == s || (k->to == s && !k->refused))
			tell(k, s);
}

static int
challenge_holds(void *srv, const struct session *s)
{
	struct server *sv = srv;
	struct challenge *k;
	TAILQ_FOREACH (k, &sv->challenges->list, link)
		if (k->from == s || k->to == s)
			return 1;
	return 0;
}

const struct session_owner challenge_owner = {
	.back = challenge_back,
	.gone = challenge_gone,
	.holds = challenge_holds,
};
