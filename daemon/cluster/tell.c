/* tell.c: TELL across nodes (tell.h, cluster_tell in cluster.h). */
#include "daemon/cluster/tell.h"

#include <stdio.h>

#include "daemon/cluster/link.h"
#include "daemon/conn.h"
#include "daemon/core.h"
#include "daemon/session.h"

game_err_t
cluster_tell(
    struct cluster *cl, const char *from, const char *to, const char *text, const char **why)
{
	char buf[PROTO_LINE_MAX + 64], canon[PROTO_NAME_MAX + 1];
	const char *node;
	int n;
	if (!cluster_up(cl)) {
		*why = "not on this node, and the cluster is unreachable now";
		return GERR_UNAVAILABLE;
	}
	if (!(node = cluster_user_node(cl, to, canon)))
		return GERR_NO_USER;
	if ((n = cmsg_format_tell(buf, sizeof buf, from, canon, text)) < 0)
		return GERR_ARGUMENT;
	link_to_node(cl, node, buf, (size_t)n, NULL, NULL);
	return GERR_OK;
}

void
tell_got(struct cluster *cl, const struct cmsg *m)
{
	struct session *to = session_by_name(cl->srv, m->to);
	if (!to || !to->conn)
		return;
	proto_msg_t e;
	proto_init(&e, PE_TELL, NULL);
	snprintf(e.user, sizeof e.user, "%s", m->from);
	snprintf(e.text, sizeof e.text, "%.*s", (int)m->bodylen, m->body);
	conn_send(to->conn, &e);
}
