/* attach.h: the composition root's one door to the cluster (issue 40).
 * Only server.c includes it; the core knows the cluster as a world
 * (world.h) and nothing else. A gomokud built with WITH_CLUSTER=0 links
 * off.c instead of the cluster: the same door, which refuses a
 * configured cluster. */
#ifndef GOMOKUD_CLUSTER_ATTACH_H
#define GOMOKUD_CLUSTER_ATTACH_H

#include <stddef.h>

struct server;
struct world;

/* The cluster srv->cfg configures, as a world into *w: 0; 1 when none is
 * configured (*w untouched); -1 with err when it cannot be had. */
int cluster_attach(struct server *srv, struct world *w, char *err, size_t errlen);

#endif
