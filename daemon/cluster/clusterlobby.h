/* clusterlobby.h: the lobby across a cluster's nodes (issue 26). A seek
 * that finds no partner on its node claims a compatible seek another node
 * publishes (its presence carries = SEEK lines, so SEEKS lists them too);
 * a CHALLENGE reaches a user on another node. One node decides each time,
 * alone on its loop: the node of the claimed seek (a claim of a seek that
 * is gone, held or paired there is refused, so a seek pairs once), or the
 * node where a challenge is accepted. It seats both players in a new room
 * of its own: its player at once, the other as a seat awaiting the digest
 * of that player's token (session_await), and the other node sends its
 * player * MOVED, who RESUMEs there with the token. A player who went
 * meanwhile gets the room aborted. Games across nodes need the cluster's
 * one PostgreSQL database (the same accounts and ratings everywhere): a
 * node on SQLite keeps its lobby to itself, and a CHALLENGE from it to
 * another node's user is 501. JOIN <code> of another node's private room
 * takes its free seat the same way. The messages are lobby messages (clustermsg.h,
 * L) whose text this module formats and parses. */
#ifndef GOMOKUD_CLUSTERLOBBY_H
#define GOMOKUD_CLUSTERLOBBY_H

#include <stddef.h>
#include <stdint.h>

#include "daemon/game.h"
#include "proto/proto.h"

struct server;
struct cluster;
struct session;
struct conn;
struct clobby;

enum { CLOBBY_WAIT_MS = 3000 }; /* a claim unanswered this long is given up */

struct clobby *clobby_new(struct server *srv, struct cluster *cl);
void clobby_free(struct clobby *lb);
/* Whether games across nodes are offered here (a cluster on PostgreSQL). */
int clobby_on(const struct clobby *lb);
/* s's seek found no partner on this node: it claims another node's. */
void clobby_seek(struct clobby *lb, struct session *s);
/* from challenges the user to, not on this node: GERR_OK with *id
 * (challenge_next_id's), else the refusal (GERR_NO_USER, GERR_BUSY,
 * GERR_UNAVAILABLE, ...) with *why. */
game_err_t clobby_challenge(struct clobby *lb, struct session *from, const char *to,
    const struct gamespec *g, uint32_t *id, const char **why);
/* Whether s has a challenge to another node's user open. */
int clobby_pending(const struct clobby *lb, const struct session *s);
/* s answers challenge id across nodes, as challenge_answer does:
 * GERR_NO_OFFER when s has none such. */
game_err_t clobby_answer(struct clobby *lb, struct session *s, uint32_t id, int accept);
/* JOIN (m) from c of a code no room here has: every other node is asked,
 * and the one with that private room seats c's user there (c gets
 * * MOVED, then OK JOIN). GERR_PENDING when asked (c is held until the
 * answer, at most CLOBBY_WAIT_MS), else the refusal with *why. */
game_err_t clobby_join(struct clobby *lb, struct conn *c, const proto_msg_t *m, const char **why);
/* TAKE <seek> <user> from c of a seek another node lists: that node is
 * asked to pair it with c's player (GERR_PENDING, c held until the answer:
 * * MOVED there and OK TAKE, or the error); GERR_NO_SEEK when no node
 * lists it. */
game_err_t clobby_take(struct clobby *lb, struct conn *c, const proto_msg_t *m, const char **why);
/* s, an account, signed in here (LOGIN, REGISTER): every other node
 * closes its connection there (* BYE takeover) and names its unfinished
 * seats there, to which s is sent (* MOVED), as a LOGIN takes the seats of
 * the account's session on one node. Needs the shared database (its
 * tokens are every node's). */
void clobby_signed_in(struct clobby *lb, struct session *s);
/* s goes away: its claims and challenges across nodes end; c goes away. */
void clobby_gone(struct clobby *lb, struct session *s);
/* s's connection dropped, the session kept: its claims go, its challenges
 * across nodes wait (accepting one from it is GERR_AWAY there); back, they
 * are told again; holds: whether s has one. */
void clobby_away(struct clobby *lb, struct session *s);
void clobby_back(struct clobby *lb, struct session *s);
int clobby_holds(const struct clobby *lb, const struct session *s);
void clobby_conn_gone(struct clobby *lb, struct conn *c);

/* A tournament's game here wants name, a user online on another node
 * (issue 48): that node is asked (tseat) whether its player can play now
 * and for its token's digest; fn(arg, s) once: a seat here awaiting the
 * player's RESUME, or NULL (no, no answer in CLOBBY_WAIT_MS, or
 * clobby_free). GERR_PENDING when asked, else the refusal. */
game_err_t clobby_seat(struct clobby *lb, const char *name,
    void (*fn)(void *arg, struct session *s), void *arg, const char **why);
/* s, a seat from clobby_seat: its game started in r (its node sends the
 * player * MOVED there; the seat's grace runs till it comes), or not (r
 * NULL: s goes). */
struct room;
void clobby_seated(struct clobby *lb, struct session *s, struct room *r);

/* For cluster.c: this node's claimable seeks as = SEEK lines (presence);
 * a lobby message from node; the second's work. */
void clobby_presence(struct clobby *lb, void (*fn)(void *arg, const proto_msg_t *m), void *arg);
void clobby_got(struct clobby *lb, const char *node, const char *text, size_t n);
void clobby_tick(struct clobby *lb, int64_t now);

#endif
