/*
 * grow.h: the one way an array of the daemon's grows. Header only.
 */
#ifndef GOMOKUD_GROW_H
#define GOMOKUD_GROW_H

#include <stdlib.h>

/* Makes *p (an array of *cap elements of size bytes) hold at least need
 * elements, doubling from 16: 0, or -1 with *p and *cap as they were. */
static inline int
grow(void **p, int *cap, int need, size_t size)
{
	if (need <= *cap)
		return 0;
	int n = *cap ? *cap * 2 : 16;
	while (n < need)
		n *= 2;
	void *q = realloc(*p, (size_t)n * size);
	if (!q)
		return -1;
	*p = q;
	*cap = n;
	return 0;
}

#endif
