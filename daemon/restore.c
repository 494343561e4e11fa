/* restore.c: games in progress back from the archive (see restore.h). */
#include "daemon/restore.h"

#include "daemon/botplay.h"
#include "daemon/archive.h"
#include "daemon/roomid.h"
#include "daemon/room.h"
#include "daemon/core.h"
#include "daemon/session.h"

#include <string.h>

int
restore_game(
    struct server *srv, const struct archive_saved *sv, struct room **room, const char **why)
{
	struct session *bots[2] = { NULL, NULL };
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
	if (room)
		*room = r;
	return r ? 0 : -1;
}

/* At start, one saved game back on a table. In a cluster, a game is this
 * node's when its owner is (or, a game from before owners were kept, its
 * room's id names this node); another's is left as it is (1). On a shared
 * database this node's new rooms are numbered past every unfinished game
 * of its own letters, and a game of another node (adopted from this one,
 * say) waits for lease.c. */
static int
play_saved(struct server *srv, const struct archive_saved *sv, const char **why)
{
	char node[CONFIG_NODE_MAX + 1];
	const char *owner = sv->owner;
	if (archive_fence(srv))
		rooms_reserve(srv->rooms, sv->room);
	if (!owner[0] && roomid_parse(sv->room, node, NULL) == 0)
		owner = node;
	if (srv->cfg.cluster_host[0] && strcmp(owner, srv->cfg.node_name) != 0)
		return 1;
	return restore_game(srv, sv, NULL, why);
}

int
restore_games(struct server *srv)
{
	return archive_restore(srv, play_saved);
}
