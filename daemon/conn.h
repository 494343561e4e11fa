/* conn.h: one client connection: its protocol state, limits, session and
 * replies, above a transport (transport.h) that moves its lines. */
#ifndef GOMOKUD_CONN_H
#define GOMOKUD_CONN_H

#include <stdint.h>
#include <sys/queue.h>
#include <sys/socket.h>

#include "daemon/cidr.h"
#include "daemon/sink.h"
#include "proto/proto.h"

struct server;
struct session;
struct transport;

enum conn_state { CS_HANDSHAKE, CS_GREETED, CS_READY };

struct conn {
	LIST_ENTRY(conn) link;
	struct conn *dead_next;
	struct server *srv;
	struct transport *t; /* how its lines travel (transport.h) */
	uint64_t id;
	struct sockaddr_storage addr; /* an IPv4-mapped IPv6 one as IPv4 */
	socklen_t addrlen;
	char peer[64];
	/* what per-address limits count it by (its IPv6 /64, ipv6-prefix),
	 * fixed at accept so a reload cannot unbalance the count */
	struct cidr unit;
	enum conn_state state;
	int closing; /* flushing its output, then gone */
	int dead;    /* killed; freed at the next gc */
	int reject;  /* an error to send after the handshake, then close */
	struct session *sess;
	struct sink sink; /* its session's room events, written out as lines */
	double tokens;    /* request rate bucket */
	int64_t tokens_at;
	double chat; /* chat rate bucket */
	int64_t chat_at;
	int64_t job; /* a request answered by a worker (LOGIN): later
	                      lines wait until its reply is sent */
};

LIST_HEAD(conn_list, conn);

/* Takes an accepted socket; web: a browser's whatever its ALPN (web-listen). */
void conn_accept(struct server *srv, int fd, const struct sockaddr *sa, int salen, int web);
/* Queues one message; a slow reader over the cap is dropped. */
void conn_send(struct conn *c, const proto_msg_t *m);
void conn_send_raw(struct conn *c, const char *line, size_t n);
void conn_error(struct conn *c, const char *tag, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Stops reading, flushes what is queued, then drops the connection. */
void conn_close(struct conn *c);
/* Says why it ends (* BYE reason [text]), then closes as conn_close. */
void conn_bye(struct conn *c, const char *reason, const char *text);
/* The * BYE line alone, for a caller with more to send before it closes. */
void conn_send_bye(struct conn *c, const char *reason, const char *text);
/* Drops it now (freed at the next gc pass). */
void conn_kill(struct conn *c, const char *why);
/* Frees a killed connection: only the gc pass and shutdown call this. */
void conn_free(struct conn *c);
/* A held connection's job when it waits for a room, not a worker. */
enum { CONN_HELD = -1 };
/* The current request goes to worker job `job`: stop reading lines, so
 * replies keep the order of requests. */
void conn_hold(struct conn *c, int64_t job);
/* The job id of a request another node answers (world.h). */
enum { CONN_HOLD_WORLD = -2 };
/* Its reply is sent: go on with the lines that waited. */
void conn_release(struct conn *c);
/* c speaks for session s from now (NULL: for none). A connection s had
 * before is dropped: the session was resumed on c. */
void conn_bind(struct conn *c, struct session *s);
/* One clean-up path: each owner that holds something of a connection (a
 * request parked for a room or the store, a watch of a room elsewhere)
 * adds a hook at start; when a connection is killed every hook hears it,
 * in the order added, while c is still whole (its worker job, if any, is
 * cancelled first). -1 when CONN_GONE_MAX are added already. */
enum { CONN_GONE_MAX = 8 };
typedef void conn_gone_fn(void *arg, struct conn *c);
int conns_on_gone(struct server *srv, conn_gone_fn *fn, void *arg);
/* srv->conns, none yet; NULL when out of memory. conns_gc frees the
 * connections killed since (the gc pass's part: whether any went);
 * conns_free kills every connection and frees them and it (shutdown). */
struct conns *conns_new(void);
int conns_gc(struct server *srv);
void conns_free(struct server *srv);
/* Every live connection: the first, the one after c (NULL at the end);
 * killing one meanwhile is safe when its next was taken before. */
struct conn *conns_first(struct server *srv);
struct conn *conns_next(struct conn *c);
int conns_count(const struct server *srv);
/* Whether c's rate bucket allows one more chat line (and takes it). */
int conn_chat_ok(struct conn *c);

#endif
