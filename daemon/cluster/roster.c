/* roster.c: a node's presence parsed once (roster.h). The users' names are
 * in an open-addressing hash table of their indexes, keyed by the name in
 * lower case (ASCII, as strcasecmp compares in the C locale the daemon
 * runs in), so a name is found in a few probes whatever the node's size.
 * The lines' text is kept too, in a table of its own by a hash of the
 * whole line, so that the node's next message takes the parse of each
 * line it repeats from this one instead of parsing it again: a node's
 * presence changes by a few lines a second, and proto_parse is most of
 * what a message costs (cmsg_parse has parsed every line once already). */
#include "daemon/cluster/roster.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "daemon/cluster/clustermsg.h"

/* A = USER line: "uV|r". */
struct ruser {
	char name[PROTO_NAME_MAX + 1];
	char room[PROTO_ROOM_MAX + 1]; /* "" when the line has none */
	unsigned char state;           /* proto_ustate_t */
	unsigned char bot;             /* a = BOT line of its name came just before */
};

/* A = ROOM ("rJRSTPQuwnN") or = SEEK ("iuRSTOQPF") line: the fields of
 * both forms, zero where the line's form has none. */
struct rline {
	char room[PROTO_ROOM_MAX + 1];
	char user[PROTO_NAME_MAX + 1];
	char user2[PROTO_NAME_MAX + 1];
	int status, rule, size, tc_base, tc_inc, opening, rated, colour, fallback;
	int64_t ident, count, count2;
};

struct lines {
	struct rline *v;
	int n, cap;
};

/* A line kept, by its text: where the text is, which entry it made. */
struct rtext {
	uint32_t hash;
	uint32_t off;   /* in the roster's text */
	uint16_t len;   /* 0: an empty slot */
	uint16_t kind;  /* KIND_USER, ... */
	uint32_t index; /* in its kind's array */
};

enum { KIND_USER, KIND_ROOM, KIND_SEEK };

struct roster {
	struct ruser *users;
	int nusers, capusers;
	struct lines rooms, seeks;
	uint32_t *slots; /* a user's index + 1; 0: empty */
	uint32_t mask;   /* slots - 1, a power of two less one */
	char *text;      /* the body's copy */
	struct rtext *texts;
	uint32_t tmask;
};

static int
grow(void **v, int *cap, size_t size, int want)
{
	int ncap = *cap ? *cap * 2 : 64;
	if (ncap < want)
		ncap = want;
	void *nv = realloc(*v, (size_t)ncap * size);
	if (!nv)
		return -1;
	*v = nv;
	*cap = ncap;
	return 0;
}

static int
add_user(struct roster *r, const proto_msg_t *m)
{
	if (r->nusers == r->capusers &&
	    grow((void **)&r->users, &r->capusers, sizeof *r->users, 0) != 0)
		return -1;
	struct ruser *u = &r->users[r->nusers++];
	memcpy(u->name, m->user, sizeof u->name);
	memcpy(u->room, m->room, sizeof u->room);
	u->state = (unsigned char)m->ustate;
	return 0;
}

static int
add_line(struct lines *l, const proto_msg_t *m)
{
	if (l->n == l->cap && grow((void **)&l->v, &l->cap, sizeof *l->v, 0) != 0)
		return -1;
	struct rline *k = &l->v[l->n++];
	memcpy(k->room, m->room, sizeof k->room);
	memcpy(k->user, m->user, sizeof k->user);
	memcpy(k->user2, m->user2, sizeof k->user2);
	k->status = (int)m->status;
	k->rule = (int)m->rule;
	k->size = m->size;
	k->tc_base = m->tc_base;
	k->tc_inc = m->tc_inc;
	k->opening = (int)m->opening;
	k->rated = m->rated;
	k->colour = (int)m->colour;
	k->fallback = (int)m->fallback;
	k->ident = m->ident;
	k->count = m->count;
	k->count2 = m->count2;
	return 0;
}

/* The same entry again (u may be in r's array, which may move). */
static int
add_user_as(struct roster *r, const struct ruser *u)
{
	struct ruser v = *u;
	if (r->nusers == r->capusers &&
	    grow((void **)&r->users, &r->capusers, sizeof *r->users, 0) != 0)
		return -1;
	r->users[r->nusers++] = v;
	return 0;
}

static int
add_line_as(struct lines *l, const struct rline *k)
{
	struct rline v = *k;
	if (l->n == l->cap && grow((void **)&l->v, &l->cap, sizeof *l->v, 0) != 0)
		return -1;
	l->v[l->n++] = v;
	return 0;
}

/* FNV-1a of name in lower case. */
static uint32_t
name_hash(const char *name)
{
	uint32_t h = 2166136261u;
	for (const unsigned char *s = (const unsigned char *)name; *s; s++)
		h = (h ^ (*s >= 'A' && *s <= 'Z' ? *s + ('a' - 'A') : *s)) * 16777619u;
	return h;
}

/* The users' names in the table, each name's first line only. */
static int
index_users(struct roster *r)
{
	uint32_t n = 16;
	while (n < 2 * (uint32_t)r->nusers)
		n *= 2;
	if (!(r->slots = calloc(n, sizeof *r->slots)))
		return -1;
	r->mask = n - 1;
	for (int i = 0; i < r->nusers; i++) {
		uint32_t h = name_hash(r->users[i].name) & r->mask;
		for (; r->slots[h]; h = (h + 1) & r->mask)
			if (strcasecmp(r->users[r->slots[h] - 1].name, r->users[i].name) == 0)
				break;
		if (!r->slots[h])
			r->slots[h] = (uint32_t)i + 1;
	}
	return 0;
}

/* A hash of a line's whole text, eight bytes at a time. */
static uint32_t
text_hash(const char *s, size_t n)
{
	uint64_t h = 0x9e3779b97f4a7c15u ^ n, w;
	for (; n >= 8; s += 8, n -= 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdu;
		h ^= h >> 32;
	}
	w = 0;
	memcpy(&w, s, n);
	h = (h ^ w) * 0xc4ceb9fe1a85ec53u;
	return (uint32_t)(h ^ h >> 29);
}

/* The slot of the line of text t (n bytes, hash h) in r's table: the one
 * that holds it, or the empty one where it would go. */
static struct rtext *
text_slot(const struct roster *r, const char *t, size_t n, uint32_t h)
{
	struct rtext *x;
	for (uint32_t i = h & r->tmask;; i = (i + 1) & r->tmask) {
		x = &r->texts[i];
		if (!x->len || (x->hash == h && x->len == n && memcmp(r->text + x->off, t, n) == 0))
			return x;
	}
}

/* The line at off (n bytes) into r: its entry taken from prev when prev
 * has the same line, else parsed. 0, or -1 when out of memory. */
static int
take_line(struct roster *r, const struct roster *prev, uint32_t off, size_t n)
{
	const char *t = r->text + off;
	uint32_t h = text_hash(t, n);
	struct rtext *x = text_slot(r, t, n, h), *was;
	int kind, rc;
	if (x->len) { /* the same line again in this body */
		kind = x->kind;
		rc = kind == KIND_USER  ? add_user_as(r, &r->users[x->index])
		    : kind == KIND_ROOM ? add_line_as(&r->rooms, &r->rooms.v[x->index])
					: add_line_as(&r->seeks, &r->seeks.v[x->index]);
	} else if (prev && (was = text_slot(prev, t, n, h))->len) {
		kind = was->kind;
		rc = kind == KIND_USER  ? add_user_as(r, &prev->users[was->index])
		    : kind == KIND_ROOM ? add_line_as(&r->rooms, &prev->rooms.v[was->index])
					: add_line_as(&r->seeks, &prev->seeks.v[was->index]);
	} else {
		proto_msg_t m;
		if (proto_parse(t, n, PROTO_SERVER, &m, NULL, 0) != 0)
			return 0;
		if (m.id == PD_USER) {
			kind = KIND_USER;
			rc = add_user(r, &m);
		} else if (m.id == PD_ROOM) {
			kind = KIND_ROOM;
			rc = add_line(&r->rooms, &m);
		} else if (m.id == PD_SEEK) {
			kind = KIND_SEEK;
			rc = add_line(&r->seeks, &m);
		} else {
			return 0;
		}
	}
	if (rc != 0)
		return -1;
	if (!x->len) {
		x->hash = h;
		x->off = off;
		x->len = (uint16_t)n;
		x->kind = (uint16_t)kind;
		x->index = (uint32_t)(kind == KIND_USER ? r->nusers
				   : kind == KIND_ROOM  ? r->rooms.n
							: r->seeks.n) -
		    1;
	}
	return 0;
}

struct roster *
roster_parse(const char *body, size_t len, const struct roster *prev)
{
	struct roster *r = calloc(1, sizeof *r);
	const char *p, *end, *line;
	size_t n, nlines = 1;
	uint32_t size = 16;
	if (!r || len > UINT32_MAX / 4 || !(r->text = malloc(len ? len : 1)))
		goto fail;
	memcpy(r->text, body, len);
	for (p = r->text, end = p + len; (p = memchr(p, '\n', (size_t)(end - p))) != NULL; p++)
		nlines++;
	while (size < 2 * nlines)
		size *= 2;
	if (!(r->texts = calloc(size, sizeof *r->texts)))
		goto fail;
	r->tmask = size - 1;
	if (prev &&
	    ((prev->nusers &&
		 grow((void **)&r->users, &r->capusers, sizeof *r->users,
		     prev->nusers + prev->nusers / 8) != 0) ||
		(prev->rooms.n &&
		    grow((void **)&r->rooms.v, &r->rooms.cap, sizeof *r->rooms.v,
			prev->rooms.n + 64) != 0)))
		goto fail;
	/* a = BOT line marks the = USER line of its name right after it */
	const char *bot = NULL;
	size_t botlen = 0;
	for (p = r->text; cmsg_next_line(&p, end, &line, &n);) {
		if (n > 6 && memcmp(line, "= BOT ", 6) == 0) {
			bot = line + 6;
			botlen = n - 6;
			continue;
		}
		int had = r->nusers;
		if (n > 0 && n < PROTO_LINE_MAX &&
		    take_line(r, prev, (uint32_t)(line - r->text), n) != 0)
			goto fail;
		if (r->nusers > had) {
			struct ruser *u = &r->users[r->nusers - 1];
			u->bot = bot && strlen(u->name) == botlen &&
			    memcmp(u->name, bot, botlen) == 0;
		}
		bot = NULL;
	}
	if (index_users(r) != 0)
		goto fail;
	return r;
fail:
	roster_free(r);
	return NULL;
}

void
roster_free(struct roster *r)
{
	if (!r)
		return;
	free(r->users);
	free(r->rooms.v);
	free(r->seeks.v);
	free(r->slots);
	free(r->text);
	free(r->texts);
	free(r);
}

int
roster_count(const struct roster *r, proto_id_t id)
{
	if (!r)
		return 0;
	return id == PD_USER ? r->nusers
	    : id == PD_ROOM  ? r->rooms.n
	    : id == PD_SEEK  ? r->seeks.n
			     : 0;
}

void
roster_line(const struct roster *r, proto_id_t id, int i, proto_msg_t *m)
{
	m->id = id;
	if (id == PD_USER) {
		const struct ruser *u = &r->users[i];
		memcpy(m->user, u->name, sizeof m->user);
		memcpy(m->room, u->room, sizeof m->room);
		m->ustate = (proto_ustate_t)u->state;
		memset(m->user2, 0, sizeof m->user2);
		m->status = 0;
		m->rule = 0;
		m->size = m->tc_base = m->tc_inc = 0;
		m->opening = 0;
		m->rated = 0;
		m->colour = 0;
		m->fallback = 0;
		m->ident = m->count = m->count2 = 0;
		return;
	}
	const struct rline *k = &(id == PD_ROOM ? &r->rooms : &r->seeks)->v[i];
	memcpy(m->room, k->room, sizeof m->room);
	memcpy(m->user, k->user, sizeof m->user);
	memcpy(m->user2, k->user2, sizeof m->user2);
	m->ustate = 0;
	m->status = (proto_status_t)k->status;
	m->rule = (rule_t)k->rule;
	m->size = k->size;
	m->tc_base = k->tc_base;
	m->tc_inc = k->tc_inc;
	m->opening = (proto_opening_t)k->opening;
	m->rated = k->rated;
	m->colour = (proto_colour_t)k->colour;
	m->fallback = (proto_fallback_t)k->fallback;
	m->ident = k->ident;
	m->count = k->count;
	m->count2 = k->count2;
}

proto_ustate_t
roster_user_at(const struct roster *r, int i, const char **name, const char **room)
{
	if (name)
		*name = r->users[i].name;
	if (room)
		*room = r->users[i].room;
	return (proto_ustate_t)r->users[i].state;
}

int
roster_user_bot(const struct roster *r, int i)
{
	return r->users[i].bot;
}

int
roster_user(const struct roster *r, const char *name)
{
	if (!r || !r->slots)
		return -1;
	for (uint32_t h = name_hash(name) & r->mask; r->slots[h]; h = (h + 1) & r->mask)
		if (strcasecmp(r->users[r->slots[h] - 1].name, name) == 0)
			return (int)r->slots[h] - 1;
	return -1;
}
