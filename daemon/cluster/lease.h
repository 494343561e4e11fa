/* lease.h: room ownership as leases in Redis, for a cluster whose nodes
 * share one PostgreSQL database. Each unfinished room a node plays holds
 * gomoku:lease:<room> (its node-name, PX LEASE_MS), renewed every second
 * by one compare-and-renew script; a room whose lease another node holds is
 * left to it (room_abandon). The node also reads the unfinished games
 * on the store thread (every second for a lease time when a node went
 * unheard, else every LEASE_SCAN_MS) and, for each whose owner is not
 * heard from (killed, paused, cut off), takes its lease (SET ... NX in the
 * script: one node wins) and adopts it: the claim commits in the games
 * table (the fence: archive.h), then the game comes back as at a restart.
 * Adopted rooms are published in the directory gomoku:owners (room ->
 * node), read every second, so * MOVED and WATCH go to the adopter. */
#ifndef GOMOKUD_LEASE_H
#define GOMOKUD_LEASE_H

struct server;
struct cluster;
struct lease;

enum {
	LEASE_MS = 3000,       /* a lease not renewed for this long is free */
	LEASE_RENEW_MS = 1000, /* renewals and directory reads */
	LEASE_SCAN_MS = 10000, /* scans of the open games, but every second for a
				  lease time after a node was forgotten */
};

/* The leases of srv's rooms, through cl's Redis, when srv's store is the
 * cluster's shared PostgreSQL (archive_fence); else NULL. */
struct lease *lease_new(struct server *srv, struct cluster *cl);
/* After cluster_stop and the store thread: their pending replies come
 * here until then. */
void lease_free(struct lease *l);
/* The node that adopted room, as the directory says, or NULL (then its
 * id's node owns it). */
const char *lease_owner(const struct lease *l, const char *room);

#endif
