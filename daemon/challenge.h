/* challenge.h: direct challenges. A user challenges another by name with
 * the settings of a game; the other accepts (both sit in a new room whose
 * game starts at once) or declines, the challenger may withdraw, and an
 * unanswered challenge expires. Each side hears * CHALLENGE and
 * * CHALLENGEEND. */
#ifndef GOMOKUD_CHALLENGE_H
#define GOMOKUD_CHALLENGE_H

#include <stdint.h>
#include <sys/queue.h>

#include <event2/event.h>

#include "daemon/game.h"

struct server;
struct session;
struct session_owner;

enum { CHALLENGE_TTL_S = 60 }; /* an unanswered challenge expires after */

struct challenge {
	TAILQ_ENTRY(challenge) link;
	uint32_t id;
	struct server *srv;
	struct session *from, *to;
	struct gamespec spec; /* the colour wish is the challenger's */
	struct event *expiry;
	int starting; /* accepted: its game's start is being stored */
	int refused;  /* a bot's, to someone who refuses them: ends declined, unseen */
};

TAILQ_HEAD(challenge_list, challenge);

/* from challenges to: GERR_BUSY when either is seeking or playing,
 * GERR_OFFER_PENDING when from has a challenge open already, GERR_ARGUMENT
 * for oneself. The id comes back through *id; to hears * CHALLENGE. */
game_err_t challenge_new(struct server *srv, struct session *from, struct session *to,
    const struct gamespec *g, uint32_t *id);
/* The id of a new challenge: one numbering for those here and those with
 * users of other nodes (world.h), so an ANSWER names one of them. */
uint32_t challenge_next_id(struct server *srv);
/* s answers challenge id: the one challenged accepts or declines, the
 * challenger withdraws (accept is GERR_NOT_PLAYER for the challenger).
 * GERR_NO_OFFER when s has no such challenge; accepting while either side
 * is busy is GERR_BUSY and the challenge stays open. An accepted one ends
 * once its game started; GERR_PENDING while that start is being stored
 * (room_pair), and a refused start leaves it open. */
game_err_t challenge_answer(struct server *srv, struct session *s, uint32_t id, int accept);
/* Whether s has a challenge of its own open. */
int challenge_pending(struct server *srv, const struct session *s);
/* s ends (logout, its session gone): its challenges end, withdrawn. */
void challenge_drop(struct server *srv, struct session *s);
/* The challenges as an owner of sessions (session.h), with srv as its
 * arg: a challenge to or from a player away stays until it expires (the
 * challenger away: accepting it is GERR_AWAY), is told again (* CHALLENGE)
 * when the player is back, and ends with their session. */
extern const struct session_owner challenge_owner;
/* The challenges srv->challenges holds, none yet; NULL when out of memory. */
struct challenges *challenges_new(void);
/* Frees every challenge silently, and srv->challenges (shutdown). */
void challenge_free_all(struct server *srv);

#endif
