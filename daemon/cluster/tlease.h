/* tlease.h: tournaments across a cluster's nodes on one PostgreSQL
 * database (issue 48), for node.c and attach.c. One node runs each event
 * (world.h's tourney_runs): the holder of its lease gomoku:tlease:<id>
 * (its node-name, PX TLEASE_MS), taken when free and renewed each second
 * by one script over every event the core asked about in the last
 * seconds. A node that stops asking (the event is over) lets it go; when
 * the holder dies its lease lapses and the next node to ask takes it,
 * and its core reads the event again from the database and goes on. The
 * holder believes its lease until TLEASE_MS - TLEASE_MARGIN_MS after it
 * sent the renewal Redis answered, so it stops before another node can
 * take it.
 *
 * Every node keeps every event (tourneys.h) and answers its requests
 * from the database; a change one node stores is announced to the others
 * (K on gomoku:tourneys), which read the event again, and every
 * TLEASE_SCAN_MS each node reads them all again (a notice lost while
 * Redis was away). On a cluster without the shared database there is no
 * tlease: every node runs its own events (NULL answers as alone). */
#ifndef GOMOKUD_TLEASE_H
#define GOMOKUD_TLEASE_H

#include <stdint.h>

struct server;
struct cluster;
struct cmsg;
struct tlease;

enum {
	TLEASE_MS = 3000,        /* a lease not renewed for this long is free */
	TLEASE_MARGIN_MS = 500,  /* the holder stops believing it this much sooner */
	TLEASE_FORGET_MS = 2500, /* an event not asked about this long is let go */
	TLEASE_SCAN_MS = 10000,  /* every event read again */
};

/* The leases of srv's events, through cl's Redis, when srv's store is the
 * cluster's shared PostgreSQL; else NULL. */
struct tlease *tlease_new(struct server *srv, struct cluster *cl);
void tlease_free(struct tlease *tl);
/* world.h's tourney_runs and tourney_changed (tl NULL: 1, nothing). */
int tlease_runs(struct tlease *tl, int64_t id);
void tlease_changed(struct tlease *tl, int64_t id);
/* A notice (K) heard on gomoku:tourneys. */
void tlease_got(struct tlease *tl, const struct cmsg *m);
/* The second's work: the script over the events asked about, the scan. */
void tlease_tick(struct tlease *tl, int64_t now);

#endif
