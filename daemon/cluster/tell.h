/* tell.h: TELL across nodes, for link.c (internal.h). A TELL to a name
 * not here goes (cluster_tell, cluster.h) to the channel of the node whose
 * presence lists it (T), spelt as that node spells it; a T heard on this
 * node's channel reaches the user here as * TELL. */
#ifndef GOMOKUD_CLUSTER_TELL_H
#define GOMOKUD_CLUSTER_TELL_H

#include "daemon/cluster/internal.h"

/* T on this node's channel: to its user, when connected here. */
void tell_got(struct cluster *cl, const struct cmsg *m);

#endif
