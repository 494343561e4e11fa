/*
 * allowance.h: how many requests of one kind a name may make an hour
 * (ANALYSE's, REVIEW's), each name's window starting at its first
 * request of the hour. The table is fixed (its size given at birth); when
 * it is full the stalest window gives way, so memory stays bounded
 * whatever the number of names.
 */
#ifndef GOMOKUD_ALLOWANCE_H
#define GOMOKUD_ALLOWANCE_H

#include <stdint.h>

struct allowance;

/* A table for `names` names; NULL on failure. */
struct allowance *allowance_new(int names);
void allowance_free(struct allowance *a);
/* 0 when name may make one more of limit in its hour at now (ms), else
 * the minutes until it may (at least 1). */
int allowance_check(struct allowance *a, const char *name, int limit, int64_t now);
/* Counts one request of name's at now. */
void allowance_take(struct allowance *a, const char *name, int64_t now);
/* Takes back one request of name's counted in its window at now (one
 * that failed on the server's side); none: nothing. */
void allowance_give_back(struct allowance *a, const char *name, int64_t now);

#endif
