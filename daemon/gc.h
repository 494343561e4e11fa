/* gc.h: the gc pass, asked for by any module, run at the next loop turn
 * and never inside the callback that asked: what is done with
 * (connections, idle sessions, empty rooms) is freed there. The
 * composition root gives it the pass (server.c); the others only say
 * "soon". A leaf: it knows nothing but libevent. */
#ifndef GOMOKUD_GC_H
#define GOMOKUD_GC_H

struct event_base;
struct gc;

/* A gc on base that runs pass(arg); NULL when out of memory. */
struct gc *gc_new(struct event_base *base, void (*pass)(void *arg), void *arg);
/* Asks for a pass at the next loop turn (once however often asked). */
void gc_soon(struct gc *gc);
void gc_free(struct gc *gc);

#endif
