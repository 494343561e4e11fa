/* session.h: a named user (guest or account) and its token. A session
 * outlives its connection while it holds anything: a seat in an unfinished
 * game, its private room waiting for a friend, an open seek or a
 * challenge (PROTOCOL.md 5.9), so RESUME can take it back. */
#ifndef GOMOKUD_SESSION_H
#define GOMOKUD_SESSION_H

#include <stddef.h>
#include <sys/queue.h>

#include "daemon/auth.h"
#include "daemon/cidr.h"
#include "proto/proto.h"

struct server;
struct sink;
struct conn;
struct room;
struct seek;
struct store;

/* SESSION_MAX_ROOMS: the rooms a person is in, seated or watching; a bot
 * account is in as many more as it may play games beyond one
 * (bot-max-games, at most SESSION_BOT_GAMES_MAX), its list as long as
 * SESSION_ROOMS_CAP. */
enum {
	SESSION_MAX_ROOMS = 8,
	SESSION_BOT_GAMES_MAX = 64, /* config.h's CONFIG_BOT_GAMES_MAX */
	SESSION_ROOMS_CAP = SESSION_MAX_ROOMS - 1 + SESSION_BOT_GAMES_MAX,
	SESSION_TOKEN_LEN = 32,
	SESSION_LIFETIME_S = 7 * 86400
};

enum session_kind { SESSION_GUEST, SESSION_ACCOUNT, SESSION_BOT };

struct session {
	LIST_ENTRY(session) link;
	struct session *check_next;
	int checking;
	struct server *srv;
	char name[PROTO_NAME_MAX + 1];
	char token[SESSION_TOKEN_LEN + 1];
	enum session_kind kind;
	struct conn *conn;                     /* NULL while disconnected (and for bots) */
	struct sink *sink;                     /* where its rooms' events go; NULL: nowhere now */
	struct room *rooms[SESSION_ROOMS_CAP]; /* seated or watching */
	int nrooms;
	struct seek *seek;
	int bot_level;  /* 1..10: a server bot, no connection */
	int bot_engine; /* a server bot played by hosted engine bot_engine - 1 (hosted.h): 0 none
			 * (or an engine of other nodes: botplay.h's BOTPLAY_FAR) */
	int botacct;    /* a bot account (PROTOCOL.md 5.22): several games at once */
	int nobots;     /* refuses challenges from bot accounts (SET bot-challenges no) */
	int league;     /* a bot account in the engine league (SET league yes, league.h) */
	/* a seat handed to a player who comes with a token (session_await):
	 * the SHA-256 (hex) of that token; token is "" until then. Only
	 * session.c writes it. */
	char await[64 + 1];
	int keep_token; /* its stored token outlives it (session_moved) */
	/* the room on another node its seat went to (session_moved), or "" */
	char moved[PROTO_ROOM_MAX + 1];
	struct cidr unit;   /* the address its last connection came from, by the caps' unit */
	struct event *hold; /* a guest away that holds nothing: its name waits (grace) */
	int away_counted;   /* what it counts in at its address while away (session.c) */
};

/* The name and token of a session about to be made: name (NULL: the next
 * free guest name) into out, a fresh token and its digest; 0, or
 * ERR_NAME_TAKEN or ERR_INTERNAL. The digest is stored (session_store)
 * before the session is made with session_adopt and its token told. */
int session_prepare(struct server *srv, const char *name, char out[PROTO_NAME_MAX + 1],
    char token[SESSION_TOKEN_LEN + 1], char digest[AUTH_DIGEST_LEN + 1]);
/* On the store (st NULL: none): keeps the digest for name, as long as a
 * session lives, so RESUME works after a restart too. 0 or -1. */
int session_store(struct store *st, const char *digest, const char *name);
/* The session of name (any case): a bot account may have several, one a
 * connection (bot-max-conns, PROTOCOL.md 5.22): then one with a
 * connection, if any; NULL when none. */
struct session *session_by_name(struct server *srv, const char *name);
/* The next session after s of s's name (a bot account's others), or
 * NULL; from session_named_first: each of them. */
struct session *session_named_first(struct server *srv, const char *name);
struct session *session_named_next(const struct session *s);
/* How many sessions have name. */
int session_named_count(struct server *srv, const char *name);
/* The name the store remembers for token (a session from before a restart):
 * 0, or -1 when unknown, expired or that name is in use now. */
int session_stored_name(struct server *srv, const char *token, char name[PROTO_NAME_MAX + 1]);
/* A session for name that keeps the token it had before the restart. */
struct session *session_adopt(
    struct server *srv, const char *name, const char *token, enum session_kind kind);
/* A session for name, seated here for a player of another node, that a
 * RESUME with the token whose digest this is takes (session_by_token). */
struct session *session_await(
    struct server *srv, const char *name, const char *digest, enum session_kind kind);
/* Whether s is a seat still awaiting the RESUME of its token (session_await). */
static inline int
session_awaited(const struct session *s)
{
	return s->await[0] != '\0';
}
/* s's player was sent (* MOVED) to its seat in room, on another node, and
 * comes back there with its token: when s ends, the digest of that token
 * stays in the store. While s lasts it counts as seated there for fair
 * play (session_playing): a client that stays here gets no analysis. */
void session_moved(struct session *s, const char *room);
/* A name a game restored from the store holds: new guests must not take it. */
void session_reserve_name(struct server *srv, const char *name);
/* The session of token: its own, or one that awaits it (which keeps it
 * from then on). */
struct session *session_by_token(struct server *srv, const char *token);
/* Whether s is at the table: connected, or a bot (which has no connection). */
static inline int
session_present(const struct session *s)
{
	return s->conn != NULL || s->bot_level > 0;
}
/* A bot of level 1..10, named "botN" (many may share the name), whose
 * rooms' events go to sink. */
struct session *session_bot(struct server *srv, int level, struct sink *sink);
/* A server bot that hosted engine `engine` (0-based) plays, named name
 * ("bot-<engine's name>"); bot_level 10, the class of a full-strength bot. */
struct session *session_bot_engine(
    struct server *srv, int engine, const char *name, struct sink *sink);
/* s now speaks through connection c, whose sink k gets its events and
 * its own lines, or through none (c NULL); unit: where c comes from, by
 * the caps' unit (NULL: as before), which its sessions away count by. */
void session_attach(struct session *s, struct conn *c, struct sink *k, const struct cidr *unit);
/* Whether s is a bot: the server's own, or a bot account. */
static inline int
session_is_bot(const struct session *s)
{
	return s->bot_level > 0 || s->botacct;
}
/* The unfinished games s may be seated at at once: a bot account's
 * bot-max-games, anyone else's one. */
int session_games_max(const struct session *s);
/* The rooms s is seated at whose game is unfinished or whose start is
 * being stored (out may be NULL; at most max into it): how many. */
int session_games(const struct session *s, struct room **out, int max);
/* Whether s may start no other game: session_games_max of them already
 * (a bot account's counted over all its sessions: they share the budget). */
int session_at_cap(const struct session *s);
/* Seeking, waiting in its own private room, or seated at as many games
 * (waiting, starting, in their opening or playing) as it may play at once:
 * one for a person, bot-max-games for a bot account. */
int session_busy(const struct session *s);
/* The room s is seated in whose next game's start is being stored (its
 * row in flight at the store thread), or NULL. */
struct room *session_starting(const struct session *s);
/* An unfinished game s is seated in (the first of a bot account's), or NULL. */
struct room *session_game(const struct session *s);
/* For fair play: the id of the unfinished game s is seated in, here, or
 * of the room on another node its seat was sent to (session_moved); NULL
 * when neither. */
const char *session_playing(const struct session *s);
int session_in_room(const struct session *s, const struct room *r);
/* Adds r to s's rooms; when the list is full it first leaves the oldest
 * room s only watches or whose game is over (session_make_room). */
void session_add_room(struct session *s, struct room *r);
/* Frees a slot in a full room list that way; 0, or -1 if none can go. */
int session_make_room(struct session *s);
void session_del_room(struct session *s, struct room *r);
/* Its connection is gone: leave the rooms it watches, mark its seats
 * gone; what it holds waits for it (owners' away) or, when its address has
 * max-away-per-address sessions away already, ends (owners' gone). */
void session_disconnected(struct session *s);
/* Queue s for freeing at the next gc pass if it is then idle. */
void session_check(struct session *s);
/* Its token ends now (a kick or a ban): no RESUME takes it back, here or
 * after a restart; a seat it holds waits like any away player's. */
void session_revoke(struct session *s);
/* Leaves every room and frees s. */
void session_free(struct session *s);
/* Sends to s's connection if it has one. */
void session_send(struct session *s, const proto_msg_t *m);
/* s's = USER line for WHO (WHO <room> when in is given): what it does and
 * where, a private room named only inside it. */
void session_info(const struct session *s, const struct room *in, proto_msg_t *m);
/* One clean-up path: each owner that holds something of a session (a
 * seek, a challenge, the other nodes' claims) adds itself at start with
 * what it wants to hear, in the order added; any member may be NULL.
 * - away: its connection is gone, and the session stays because someone
 *   holds something of it (holds) and its address may keep one more away
 *   (max-away-per-address); what the owner holds waits for it (a seek is
 *   not paired, a challenge to it not accepted);
 * - back: a connection took it back (RESUME, a LOGIN that takes it over),
 *   after its rooms saw it back;
 * - gone: it ends (freed, or its connection gone and nothing kept): let go
 *   of it, before its rooms are left;
 * - holds: whether the owner holds something of it that keeps it.
 * -1 when SESSION_OWNERS_MAX are added already. */
enum { SESSION_OWNERS_MAX = 8 };
struct session_owner {
	void (*away)(void *arg, struct session *s);
	void (*back)(void *arg, struct session *s);
	void (*gone)(void *arg, struct session *s);
	int (*holds)(void *arg, const struct session *s);
};
int sessions_add_owner(struct server *srv, const struct session_owner *o, void *arg);
/* A connection took s back (RESUME, or a LOGIN that took it over): its
 * rooms see it back, then its owners (a seek open again, its challenges
 * told again). */
void session_back(struct session *s);
/* Whether s, away, still holds anything: a seat in an unfinished game or
 * in its waiting private room, or what an owner holds. */
int session_holds(const struct session *s);
/* A guest's name, held for a reconnect after its connection dropped while
 * it held nothing (session_disconnected, for the grace period): a GUEST or
 * REGISTER of that name takes it over, so the hold lets go of the session
 * of name here, if it is one; whether it was. */
int session_release_hold(struct server *srv, const char *name);
/* Tells s's connection * SEATED <room> for each room it holds a seat in:
 * an unfinished game, or its private room waiting for a friend (a session
 * taken back: RESUME <token> -, a LOGIN that took it over). */
void session_tell_seats(struct session *s);
/* The private room s created that waits for a friend, or NULL. */
struct room *session_waiting(const struct session *s);
/* srv->sessions, none yet; NULL when out of memory. sessions_free frees
 * every session and it (shutdown, after the rooms). */
struct sessions *sessions_new(void);
void sessions_free(struct server *srv);
/* The gc pass's part: sessions queued by session_check and idle now go.
 * Whether any was looked at (the pass goes on while something changes). */
int sessions_gc(struct server *srv);
/* Every session (guests, accounts, bots, those away), newest first: the
 * first, the next after s (NULL at the end); none may be freed meanwhile. */
struct session *sessions_first(struct server *srv);
struct session *sessions_next(struct session *s);
int sessions_count(struct server *srv);
/* The sessions as the rooms' members (room.h), for rooms_new. */
extern const struct room_members session_members;
/* Hands one event line of room r to s's sink, if it has one. */
void session_deliver(
    struct session *s, struct room *r, const proto_msg_t *m, const char *line, size_t n);

#endif
