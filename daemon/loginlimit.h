/* loginlimit.h: failed logins counted per key ("a:" an address, "p:" an
 * account from an address, "u:" an account from anywhere; account.c makes
 * the keys) in a window, in a table of a fixed number of slots. A leaf:
 * the clock is the caller's.
 *
 * When the table is full, a new key takes the slot with the fewest
 * failures (the oldest of those): a flood of new keys, one failure each
 * from many addresses, evicts its own kind and leaves the counts that
 * refuse or slow logins in place. */
#ifndef GOMOKUD_LOGINLIMIT_H
#define GOMOKUD_LOGINLIMIT_H

#include <stdint.h>

struct loginlimit;

/* slots keys at most, each counted over window_s seconds from its first
 * failure; NULL when out of memory. */
struct loginlimit *loginlimit_new(int slots, int window_s);
/* key's failures in its window (0 when it has none, or its window is over). */
int loginlimit_fails(struct loginlimit *ll, const char *key, int64_t now);
/* One more failure for key (a key longer than LOGINLIMIT_KEY-1 bytes is
 * cut: the keys are short). */
void loginlimit_fail(struct loginlimit *ll, const char *key, int64_t now);
/* key's count is cleared (a right password). */
void loginlimit_forget(struct loginlimit *ll, const char *key);
void loginlimit_free(struct loginlimit *ll);

enum { LOGINLIMIT_KEY = 96 };

#endif
