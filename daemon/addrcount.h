/* addrcount.h: how many connections each client address has, for the
 * per-address limit (conn.c). A leaf: a hash table of counts. */
#ifndef GOMOKUD_ADDRCOUNT_H
#define GOMOKUD_ADDRCOUNT_H

#include <stddef.h>

struct addrcount;

struct addrcount *addrcount_new(void);
/* Adds delta (+1 or -1) to addr's count (len bytes, at most 16): the new
 * count; INT32_MAX when a new address cannot be counted (out of memory),
 * so the caller refuses it. */
int addrcount_add(struct addrcount *ac, const void *addr, size_t len, int delta);
void addrcount_free(struct addrcount *ac);

#endif
