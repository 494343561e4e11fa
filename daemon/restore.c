/* restore.c: games in progress back from the archive (see restore.h). */
#include "daemon/restore.h"

#include "daemon/archive.h"
#include "daemon/botplay.h"
#include "daemon/clustermsg.h"
#include "daemon/room.h"
#include "daemon/server.h"
#include "daemon/session.h"

#include <string.h>

/* One saved game back on a table: bots sit at once, people on RESUME. In a
 * cluster whose nodes share one database, a game of another node's room is
 * that node's to resume: left as it is (1). */
static int
play_saved(struct server *srv, const struct archive_saved *sv, const char **why)
{
	struct session *bots[2] = { NULL, NULL };
	char owner[CONFIG_NODE_MAX + 1];
	if (srv->cfg.cluster_host[0] && cmsg_room_node(sv->room, owner) == 0 &&
	    strcmp(owner, srv->cfg.node_name) != 0)
		return 1;

	for (int i = 0; i < 2; i++) {
		session_reserve_name(srv, sv->names[i]);
		bots[i] = botplay_restored(srv->botplay, sv->names[i]);
	}
	struct room *r = room_restore(srv, sv, bots, why);
	for (int i = 0; i < 2; i++) {
		if (!bots[i])
			continue;
		if (r)
			botplay_attach(srv->botplay, bots[i], r);
		else
			botplay_drop(srv->botplay, bots[i]);
	}
	return r ? 0 : -1;
}

int
restore_games(struct server *srv)
{
	return archive_restore(srv, play_saved);
}
