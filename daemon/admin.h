/* admin.h: running the server for a community: bans (no play) and mutes
 * (no chat) by account name or address/CIDR, kept in the store; the MOTD;
 * announcements; kicks; draining for a restart. One implementation of each
 * verb, for gomokuctl (control.c) and for the admins of the config over
 * the protocol (cmd.c). Every verb logs who did it. */
#ifndef GOMOKUD_ADMIN_H
#define GOMOKUD_ADMIN_H

#include <stdint.h>
#include <sys/socket.h>

#include "daemon/game.h"
#include "daemon/store.h"

struct server;
struct session;
struct admin;

/* A ban of a guest without a duration lasts a day: guest names come back
 * to others. */
enum { ADMIN_TEXT_MAX = 400, ADMIN_GUEST_BAN_S = 86400 };

/* The moderation state, with the bans, mutes and MOTD the store keeps
 * (none without a store). NULL with err. */
struct admin *admin_new(struct server *srv, char *err, size_t errlen);
void admin_free(struct admin *a);

/* The text that explains the last refusal of a verb below (valid until the
 * next call). */
const char *admin_why(const struct admin *a);

/* Whether the session's account is named by the config's admins. */
int admin_is(const struct admin *a, const struct session *s);

/* May this name (NULL: none yet) from this address enter (GUEST, LOGIN,
 * REGISTER, RESUME)? GERR_OK or GERR_BANNED (admin_why says until when). */
game_err_t admin_entry(struct admin *a, const char *name, const struct sockaddr *sa);
/* May name chat? GERR_OK or GERR_MUTED. */
game_err_t admin_chat(struct admin *a, const char *name);
/* Whether new games are refused (drain). */
int admin_draining(const struct admin *a);
/* The MOTD, or NULL when none. */
const char *admin_motd(const struct admin *a);

/* The verbs. who names the actor in the log and the store ("root", an
 * account). Each returns GERR_OK or a refusal with admin_why. */
game_err_t admin_kick(struct admin *a, const char *who, const char *user, const char *reason);
/*
 * The verbs that write the store come in halves, so that with PostgreSQL
 * the write runs on the store thread (archive_call, cmd_store) while the
 * asker waits and every other client goes on. admin_*_begin checks the
 * request on the loop and returns the write to make, or NULL with *e and
 * admin_why; admin_write_run makes it (it touches st and w only: on the
 * store thread, or on the loop with SQLite; nothing without a store);
 * admin_write_end, on the loop, keeps what was stored (the sanctions in
 * memory, online matches of a ban disconnected, the log), frees w and
 * returns GERR_OK or the refusal (admin_why: 508's text when the database
 * could not be reached, nothing changed); it keeps what was stored also
 * when the asker has gone meanwhile (a stored ban is enforced), and
 * refuses a write that never ran. admin_write_free drops a write that
 * could not be queued.
 *
 * Ban target: an account or online name, an IPv4/IPv6 address or a CIDR;
 * duration "30m", "2h", "7d", "4w", "forever" (or NULL: forever, a day
 * for a guest online). MOTD text NULL or "-": none.
 */
struct admin_write;
struct admin_write *admin_ban_begin(struct admin *a, const char *who, const char *target,
    const char *duration, const char *reason, game_err_t *e);
struct admin_write *admin_unban_begin(
    struct admin *a, const char *who, const char *target, game_err_t *e);
struct admin_write *admin_mute_begin(
    struct admin *a, const char *who, const char *user, const char *duration, game_err_t *e);
struct admin_write *admin_unmute_begin(
    struct admin *a, const char *who, const char *user, game_err_t *e);
struct admin_write *admin_motd_begin(
    struct admin *a, const char *who, const char *text, game_err_t *e);
void admin_write_run(struct store *st, void *w);
/* The target w bans, mutes or lifts, in the form kept (an address
 * canonical: ::ffff:192.0.2.7 as 192.0.2.7, an IPv6 address as its /64). */
const char *admin_write_target(const struct admin_write *w);
game_err_t admin_write_end(struct admin_write *w);
void admin_write_free(struct admin_write *w);
/* Every ban and mute in force, in order (kind, target). */
void admin_each(struct admin *a, void (*fn)(void *arg, const store_sanction_t *x), void *arg);
/* Sends * ANNOUNCE to every connection that said HELLO; *n gets how many. */
game_err_t admin_announce(struct admin *a, const char *who, const char *text, int *n);
/* on: refuse new games (the running ones play on), cancel the seeks. */
void admin_drain(struct admin *a, const char *who, int on);
/* After a change (the gc pass): once a drain has no game left, log it and
 * tell systemd (STATUS=), so the admin knows a restart loses nothing. */
void admin_drain_check(struct admin *a, int games);

/* A duration ("90s", "30m", "2h", "7d", "4w", "forever") in seconds, 0 for
 * forever; -1 when it is none of these. */
int64_t admin_duration(const char *s);
/* An address or CIDR in its canonical form ("10.1.0.0/16", "2001:db8::/32",
 * "192.0.2.7"); -1 when it is not one. */
int admin_cidr(const char *s, char *out, size_t cap);

#endif
