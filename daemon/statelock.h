/* statelock.h: one gomokud per state directory. The lock is an flock(2) on
 * DIR/gomokud.lock, which holds the holder's pid; the kernel drops it when
 * the holder exits or dies, so a restart after a crash is never blocked by
 * a stale file (the file itself stays). */
#ifndef GOMOKUD_STATELOCK_H
#define GOMOKUD_STATELOCK_H

#include <stddef.h>

struct statelock;

/* Creates dir (one level, mode 0700) if it is missing and takes its lock
 * without waiting. NULL with err when it cannot: held by another process
 * (err names dir and that process's pid), or a file system error. */
struct statelock *statelock_take(const char *dir, char *err, size_t errlen);
/* Drops the lock (NULL: nothing). */
void statelock_release(struct statelock *l);

#endif
