/* gc.c: the gc pass's scheduling (gc.h). */
#include "daemon/gc.h"

#include <stdlib.h>

#include <event2/event.h>

struct gc {
	struct event *ev;
	void (*pass)(void *arg);
	void *arg;
};

static void
gc_cb(evutil_socket_t fd, short what, void *arg)
{
	struct gc *gc = arg;
	(void)fd;
	(void)what;
	gc->pass(gc->arg);
}

struct gc *
gc_new(struct event_base *base, void (*pass)(void *arg), void *arg)
{
	struct gc *gc = calloc(1, sizeof *gc);
	if (!gc)
		return NULL;
	gc->pass = pass;
	gc->arg = arg;
	if (!(gc->ev = event_new(base, -1, 0, gc_cb, gc))) {
		free(gc);
		return NULL;
	}
	return gc;
}

void
gc_soon(struct gc *gc)
{
	event_active(gc->ev, EV_TIMEOUT, 0);
}

void
gc_free(struct gc *gc)
{
	if (!gc)
		return;
	event_free(gc->ev);
	free(gc);
}
