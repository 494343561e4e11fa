/*
 * reviews.h: REVIEW and MARKS (issue 47, PROTOCOL.md 5.19): a finished
 * game gone through by the engine on the bot workers (this node's, or a
 * cluster's remote ones), one position at a time for review-ms each, then
 * marked (engine/review.h) and stored with the game (store_review_put), so
 * it is made once and read on any node. The module owns the reviews under
 * way on this node (at most review-queue), who waits for each (their
 * connections get * REVIEWING and * REVIEWED), and each name's allowance
 * an hour (review-per-hour; a guest a third). It keeps ANALYSE's fair
 * play: nobody seated in an unfinished game gets a review, and no game
 * under way is reviewed.
 */
#ifndef GOMOKUD_REVIEWS_H
#define GOMOKUD_REVIEWS_H

#include "proto/proto.h"

struct conn;
struct reviews;
struct server;

/* The module for srv: NULL when it has no store or no bots, or
 * review-per-hour is 0 (REVIEW and MARKS are then 501), or on failure. */
struct reviews *reviews_new(struct server *srv);
/* Drops the reviews under way (before the bots' pool goes). */
void reviews_free(struct reviews *rv);
/* REVIEW or MARKS m from c: 0 when answered (now, or later from the
 * store), or an error code with *why. */
int reviews_ask(struct reviews *rv, struct conn *c, const proto_msg_t *m, const char **why);
/* Reviews under way on this node (the metrics' gauge). */
int reviews_running(const struct reviews *rv);

#endif
