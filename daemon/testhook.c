/* testhook.c: the allocator's figure for the attack tests (see testhook.h). */
#include "daemon/testhook.h"

#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>

#include <event2/event.h>

static struct event *tick;
static const char *path;

static void
tick_cb(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	(void)arg;
	char tmp[4200];
	snprintf(tmp, sizeof tmp, "%s.tmp", path);
	FILE *f = fopen(tmp, "w");
	if (!f)
		return;
	struct mallinfo2 mi = mallinfo2();
	fprintf(f, "%zu\n", mi.uordblks);
	if (fclose(f) == 0)
		rename(tmp, path);
}

int
testhook_start(struct event_base *base)
{
	path = getenv("GOMOKUD_TEST_MALLINFO");
	if (!path || !path[0])
		return 0;
	struct timeval tv = { 0, 100000 };
	if (!(tick = event_new(base, -1, EV_PERSIST, tick_cb, NULL)) || event_add(tick, &tv))
		return -1;
	tick_cb(-1, 0, NULL);
	return 0;
}

void
testhook_stop(void)
{
	if (tick)
		event_free(tick);
	tick = NULL;
}
