/* testhook.c: the allocator's figure for the attack tests (see testhook.h). */
#include "daemon/testhook.h"

#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>

#include <event2/event.h>

struct testhook {
	struct event *tick;
	const char *path; /* the environment's */
};

static void
tick_cb(evutil_socket_t fd, short what, void *arg)
{
	struct testhook *th = arg;
	(void)fd;
	(void)what;
	char tmp[4200];
	snprintf(tmp, sizeof tmp, "%s.tmp", th->path);
	FILE *f = fopen(tmp, "w");
	if (!f)
		return;
	struct mallinfo2 mi = mallinfo2();
	fprintf(f, "%zu\n", mi.uordblks);
	if (fclose(f) == 0)
		rename(tmp, th->path);
}

int
testhook_start(struct event_base *base, struct testhook **out)
{
	*out = NULL;
	const char *path = getenv("GOMOKUD_TEST_MALLINFO");
	if (!path || !path[0])
		return 0;
	struct testhook *th = calloc(1, sizeof *th);
	struct timeval tv = { 0, 100000 };
	if (th)
		th->path = path;
	if (!th || !(th->tick = event_new(base, -1, EV_PERSIST, tick_cb, th)) ||
	    event_add(th->tick, &tv)) {
		testhook_stop(th);
		return -1;
	}
	tick_cb(-1, 0, th);
	*out = th;
	return 0;
}

void
testhook_stop(struct testhook *th)
{
	if (!th)
		return;
	if (th->tick)
		event_free(th->tick);
	free(th);
}
