/* lobby.c: seeks wait here until a compatible one arrives. */
#include "daemon/lobby.h"

#include <stdlib.h>

#include <openssl/rand.h>

#include "daemon/room.h"
#include "daemon/server.h"
#include "daemon/session.h"

void
gamespec_from_msg(struct gamespec *g, const proto_msg_t *m)
{
	g->rule = m->rule;
	g->size = m->size;
	g->tc_base = m->tc_base;
	g->tc_inc = m->tc_inc;
	g->colour = m->colour;
	g->rated = m->rated;
	g->opening = m->opening;
}

int
gamespec_check(const struct gamespec *g, const char **why)
{
	if (g->opening == OPENING_SWAP2 && g->rule == RULE_RENJU) {
		*why = "swap2 is for freestyle and standard";
		return ERR_ARGUMENT;
	}
	return 0;
}

static int
compatible(const struct gamespec *a, const struct gamespec *b)
{
	if (a->rule != b->rule || a->size != b->size || a->tc_base != b->tc_base ||
	    a->tc_inc != b->tc_inc || a->rated != b->rated || a->opening != b->opening)
		return 0;
	return a->colour == COLOUR_ANY || b->colour == COLOUR_ANY || a->colour != b->colour;
}

int
lobby_seek(struct server *srv, struct session *s, const struct gamespec *g, uint32_t *id)
{
	*id = ++srv->next_seek;
	struct seek **pp;
	for (pp = &srv->seeks; *pp; pp = &(*pp)->next)
		if ((*pp)->sess != s && compatible(&(*pp)->spec, g))
			break;
	if (!*pp) {
		struct seek *k = calloc(1, sizeof *k);
		if (!k)
			return ERR_INTERNAL;
		k->id = *id;
		k->sess = s;
		k->spec = *g;
		while (*pp)
			pp = &(*pp)->next;
		*pp = k;
		s->seek = k;
		log_debug(&srv->log, "seek %u by %s", k->id, s->name);
		return 0;
	}
	struct seek *k = *pp;
	struct room *r = room_new(srv, g, 0);
	if (!r)
		return ERR_INTERNAL;
	*pp = k->next;
	if (k->fallback)
		event_free(k->fallback);
	struct session *o = k->sess;
	o->seek = NULL;
	/* the older seek's wish decides when it is not "any" */
	int older_black;
	if (k->spec.colour != COLOUR_ANY)
		older_black = k->spec.colour == COLOUR_BLACK;
	else if (g->colour != COLOUR_ANY)
		older_black = g->colour == COLOUR_WHITE;
	else {
		unsigned char b = 0;
		RAND_bytes(&b, 1);
		older_black = b & 1;
	}
	free(k);
	room_sit(r, older_black ? 0 : 1, o);
	room_sit(r, older_black ? 1 : 0, s);
	room_start(r);
	return 0;
}

int
lobby_cancel(struct server *srv, struct session *s, uint32_t id)
{
	if (!s->seek || (id && s->seek->id != id))
		return ERR_NO_SEEK;
	for (struct seek **pp = &srv->seeks; *pp; pp = &(*pp)->next)
		if (*pp == s->seek) {
			*pp = s->seek->next;
			break;
		}
	if (s->seek->fallback)
		event_free(s->seek->fallback);
	free(s->seek);
	s->seek = NULL;
	return 0;
}
