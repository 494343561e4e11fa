/* addrcount.c: connections per address (addrcount.h). */
#include "daemon/addrcount.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { BUCKETS = 4096 };

struct entry {
	struct entry *next;
	unsigned char addr[16];
	size_t len;
	int n;
};

struct addrcount {
	struct entry *b[BUCKETS];
};

static unsigned
hash(const unsigned char *a, size_t len)
{
	unsigned h = 2166136261u;
	for (size_t i = 0; i < len; i++)
		h = (h ^ a[i]) * 16777619u;
	return h % BUCKETS;
}

struct addrcount *
addrcount_new(void)
{
	return calloc(1, sizeof(struct addrcount));
}

int
addrcount_add(struct addrcount *ac, const void *addr, size_t len, int delta)
{
	if (len > sizeof ac->b[0]->addr)
		len = sizeof ac->b[0]->addr;
	struct entry **pp = &ac->b[hash(addr, len)];
	for (; *pp; pp = &(*pp)->next)
		if ((*pp)->len == len && memcmp((*pp)->addr, addr, len) == 0)
			break;
	if (!*pp) {
		if (delta <= 0)
			return 0;
		struct entry *a = calloc(1, sizeof *a);
		if (!a)
			return INT32_MAX;
		memcpy(a->addr, addr, len);
		a->len = len;
		*pp = a;
	}
	struct entry *a = *pp;
	a->n += delta;
	int n = a->n;
	if (n <= 0) {
		*pp = a->next;
		free(a);
	}
	return n;
}

void
addrcount_free(struct addrcount *ac)
{
	if (!ac)
		return;
	for (int i = 0; i < BUCKETS; i++)
		while (ac->b[i]) {
			struct entry *a = ac->b[i];
			ac->b[i] = a->next;
			free(a);
		}
	free(ac);
}
