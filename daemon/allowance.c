/* allowance.c: requests a name may make an hour (see allowance.h). */
#include "daemon/allowance.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proto/proto.h"

enum { HOUR_MS = 3600000 };

struct use {
	char name[PROTO_NAME_MAX + 1];
	int64_t since; /* the window's start */
	int n;         /* requests in it */
};

struct allowance {
	int size;
	struct use use[];
};

struct allowance *
allowance_new(int names)
{
	if (names < 1)
		return NULL;
	struct allowance *a = calloc(1, sizeof *a + (size_t)names * sizeof a->use[0]);
	if (a)
		a->size = names;
	return a;
}

void
allowance_free(struct allowance *a)
{
	free(a);
}

/* name's window at now, found or made (taking the stalest slot). */
static struct use *
use_of(struct allowance *a, const char *name, int64_t now)
{
	struct use *old = &a->use[0];
	for (int i = 0; i < a->size; i++) {
		struct use *u = &a->use[i];
		if (!strcmp(u->name, name)) {
			if (now - u->since >= HOUR_MS) {
				u->since = now;
				u->n = 0;
			}
			return u;
		}
		if (u->since < old->since)
			old = u;
	}
	memset(old, 0, sizeof *old);
	snprintf(old->name, sizeof old->name, "%s", name);
	old->since = now;
	return old;
}

int
allowance_check(struct allowance *a, const char *name, int limit, int64_t now)
{
	struct use *u = use_of(a, name, now);
	if (u->n < limit)
		return 0;
	return (int)((HOUR_MS - (now - u->since)) / 60000 + 1);
}

void
allowance_take(struct allowance *a, const char *name, int64_t now)
{
	use_of(a, name, now)->n++;
}

void
allowance_give_back(struct allowance *a, const char *name, int64_t now)
{
	struct use *u = use_of(a, name, now);
	if (u->n > 0)
		u->n--;
}
