/*
 * testhook.h: figures for the attack tests only (tests/daemon/test_attack.c).
 * With GOMOKUD_TEST_MALLINFO=<file> in the environment, the daemon writes
 * the allocator's bytes in use (glibc's mallinfo2().uordblks) to <file>
 * every 100 ms, so a test can bound what a connection costs; RSS would not
 * do, since glibc keeps freed memory. Without the variable nothing happens.
 * Not an interface: no packaging or unit sets it.
 */
#ifndef GOMOKUD_TESTHOOK_H
#define GOMOKUD_TESTHOOK_H

struct event_base;
struct testhook;

/* Starts the writes if the variable is set, into *th (NULL when it is
 * not); 0, or -1 if it cannot. */
int testhook_start(struct event_base *base, struct testhook **th);
/* Stops them and frees th (NULL: nothing). */
void testhook_stop(struct testhook *th);

#endif
