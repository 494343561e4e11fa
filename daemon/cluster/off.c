/* off.c: the cluster's door in a gomokud built without it (make
 * WITH_CLUSTER=0: no hiredis): a lone server starts as ever, a
 * configured cluster is refused at start with a clear message. */
#include "daemon/cluster/attach.h"

#include <stdio.h>

#include "daemon/core.h"

int
cluster_attach(struct server *srv, struct world *w, char *err, size_t errlen)
{
	(void)w;
	if (!srv->cfg.cluster_host[0] && srv->cfg.bot_threads != CONFIG_BOTS_REMOTE)
		return 1;
	snprintf(err, errlen,
	    "this gomokud was built without cluster support (make WITH_CLUSTER=0): "
	    "remove 'cluster' from the configuration, or build it with hiredis");
	return -1;
}
