/* loginlimit.c: the failed-login table (loginlimit.h). A linear scan: a
 * LOGIN that gets this far costs a password hash, thousands of times more
 * than a scan of the slots. */
#include "daemon/loginlimit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct slot {
	char key[LOGINLIMIT_KEY];
	int fails;
	int64_t since; /* the window's start */
};

struct loginlimit {
	int n, window_s;
	struct slot e[];
};

struct loginlimit *
loginlimit_new(int slots, int window_s)
{
	if (slots < 1)
		return NULL;
	struct loginlimit *ll = calloc(1, sizeof *ll + (size_t)slots * sizeof ll->e[0]);
	if (ll) {
		ll->n = slots;
		ll->window_s = window_s;
	}
	return ll;
}

static int
stale(const struct loginlimit *ll, const struct slot *s, int64_t now)
{
	return !s->key[0] || now - s->since >= ll->window_s;
}

/* key's slot, or -1; with create, a slot for it (a free or stale one, else
 * the one with the fewest failures, the oldest of those). */
static int
find(struct loginlimit *ll, const char *key, int64_t now, int create)
{
	int spare = -1, victim = 0;
	for (int i = 0; i < ll->n; i++) {
		struct slot *s = &ll->e[i];
		if (s->key[0] && strcmp(s->key, key) == 0) {
			if (stale(ll, s, now)) {
				s->fails = 0;
				s->since = now;
			}
			return i;
		}
		if (spare < 0 && stale(ll, s, now))
			spare = i;
		const struct slot *v = &ll->e[victim];
		if (s->fails < v->fails || (s->fails == v->fails && s->since < v->since))
			victim = i;
	}
	if (!create)
		return -1;
	int i = spare >= 0 ? spare : victim;
	snprintf(ll->e[i].key, sizeof ll->e[i].key, "%s", key);
	ll->e[i].fails = 0;
	ll->e[i].since = now;
	return i;
}

int
loginlimit_fails(struct loginlimit *ll, const char *key, int64_t now)
{
	int i = find(ll, key, now, 0);
	return i >= 0 ? ll->e[i].fails : 0;
}

void
loginlimit_fail(struct loginlimit *ll, const char *key, int64_t now)
{
	ll->e[find(ll, key, now, 1)].fails++;
}

void
loginlimit_forget(struct loginlimit *ll, const char *key)
{
	for (int i = 0; i < ll->n; i++)
		if (strcmp(ll->e[i].key, key) == 0)
			ll->e[i].key[0] = '\0';
}

void
loginlimit_free(struct loginlimit *ll)
{
	free(ll);
}
