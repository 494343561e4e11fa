/* lobby.h: seeks and their pairing. A seek waits, oldest first, until a
 * compatible one arrives; both players then sit in a new room whose game
 * starts at once. */
#ifndef GOMOKUD_LOBBY_H
#define GOMOKUD_LOBBY_H

#include <stdint.h>
#include <sys/queue.h>

#include <event2/event.h>

#include "daemon/game.h"

struct server;
struct session;
struct session_owner;

/* Called when a seek has waited its time unpaired; the seek is gone. */
typedef void (*lobby_wait_fn)(
    struct server *srv, struct session *s, const struct gamespec *g, uint32_t id);

struct seek {
	TAILQ_ENTRY(seek) link;
	uint32_t id;
	struct session *sess;
	struct gamespec spec;
	struct event *waited; /* when the seek's wait is over (on_wait) */
	lobby_wait_fn on_wait;
	int wait_s; /* on_wait's wait, counted again when its player is back */
	int held;   /* a game with it may be starting (room_pair here, or a
		     claim of a seek elsewhere, world.h): no other seek pairs
		     with it meanwhile. Only lobby.c writes it (lobby_hold). */
	int away;   /* its player's connection dropped: it waits for them
		     (away-keep), not paired, taken, listed or told to other
		     nodes. Only lobby.c writes it (lobby_owner). */
};

TAILQ_HEAD(seek_list, seek);

/* Adds s's seek, or pairs it at once (the room starts with * START; s->seek
 * is then NULL; GERR_PENDING while the game's start is being stored, the
 * older seek held meanwhile and open again if it does not start). The
 * seek's id is returned through *id either way. With on_wait, an unpaired
 * seek ends after wait_s seconds and on_wait is called. With may_wait 0
 * (the caller's cap on open seeks is reached), a seek that finds no partner
 * is refused, GERR_TOO_MANY_SEEKS, instead of waiting. */
game_err_t lobby_seek(struct server *srv, struct session *s, const struct gamespec *g, int may_wait,
    int wait_s, lobby_wait_fn on_wait, uint32_t *id);
/* k's hold ends (its claim elsewhere failed): it pairs with the oldest
 * compatible open seek here, as if it had just come, or stays open. */
void lobby_release(struct server *srv, struct seek *k);
/* Whether k is held, and k held or not from now (a claim of a seek on
 * another node in flight; lobby_release ends a hold and pairs). A seek
 * whose player is away counts as held: nobody may take it. */
int lobby_held(const struct seek *k);
/* Whether k's player is away: k waits for them, unlisted (SEEKS). */
int lobby_away(const struct seek *k);
void lobby_hold(struct seek *k, int held);
/* The lobby as an owner of sessions (session.h), with srv as its arg: a
 * seek waits while its player is away (away-keep, then it ends), comes
 * back with them (pairs with the oldest fit, or waits again, its bot
 * fallback counted from then), and ends with their session. */
extern const struct session_owner lobby_owner;
/* s takes the open seek id of user, another player (TAKE): as if s had sought
 * with its settings and colour "any" and it were the oldest fit, so the game
 * starts as lobby_seek's pairing does (GERR_PENDING while it is stored).
 * GERR_NO_SEEK when no seek of user has that id here (another node's) or
 * it is being paired,
 * GERR_ARGUMENT when it is s's own; *why says which. */
game_err_t lobby_take(
    struct server *srv, struct session *s, uint32_t id, const char *user, const char **why);
/* Removes s's seek (id 0: whichever it has); GERR_NO_SEEK when none. */
game_err_t lobby_cancel(struct server *srv, struct session *s, uint32_t id);
/* Calls fn for each open seek, oldest first, until fn returns nonzero;
 * the number of calls. fn must not add or cancel seeks. */
int lobby_each(struct server *srv, int (*fn)(void *arg, const struct seek *k), void *arg);
/* Cancels every seek (a drain), calling told(s) for each seeker after its
 * seek is gone. */
void lobby_cancel_all(struct server *srv, void (*told)(struct session *s));
/* The lobby srv->lobby holds, empty; NULL when out of memory. */
struct lobby *lobby_new(void);
/* Frees every seek and srv->lobby (shutdown). */
void lobby_free(struct server *srv);

#endif
