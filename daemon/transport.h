/*
 * transport.h: how a connection's lines travel. A transport turns the bytes
 * of one kind of stream into lines for its connection and writes the
 * connection's lines out; the connection above it (conn.c) keeps the
 * protocol state, the limits and the session, and never sees a socket. Two
 * kinds: lines over TLS (tlsline.c) and WebSocket messages over TLS
 * (wsline.c), chosen per connection by ALPN after the TLS handshake; the
 * commands and the rooms never know which.
 */
#ifndef GOMOKUD_TRANSPORT_H
#define GOMOKUD_TRANSPORT_H

#include <stddef.h>

struct conn;
struct transport;

struct transport_ops {
	/* The kind, for logs and metrics ("tls", "ws"). */
	const char *name;
	/* Queues one line (with its LF). */
	void (*send)(struct transport *t, const char *line, size_t n);
	/* Bytes queued and not yet written. */
	size_t (*pending)(const struct transport *t);
	/* Resumes (1) or stops handing lines up; lines already read wait.
	 * Held (0): no line goes up, but reading goes on into the input (up to
	 * four lines' worth) so that a close of the peer is seen, and the idle
	 * timeout waits; closing (-1): nothing more is read. */
	void (*reading)(struct transport *t, int on);
	/* The read (idle) and write timeouts, in seconds. */
	void (*timeouts)(struct transport *t, int read_s, int write_s);
	/* The link for logs ("TLSv1.3"). */
	const char *(*describe)(const struct transport *t);
	/* The connection is closing once what is queued is written: queue
	 * whatever ends the stream (a WebSocket's close frame). May be NULL. */
	void (*closing)(struct transport *t);
	/* No upcall after this; what is queued is dropped. */
	void (*stop)(struct transport *t);
	void (*free)(struct transport *t);
};

struct transport {
	const struct transport_ops *ops;
	struct conn *conn;
};

/* Upcalls from a transport to its connection (conn.c), on the loop. */
/* From now on c's lines travel through t, which took over the stream (a
 * TLS connection that chose HTTP becomes a WebSocket); the old transport is
 * freed. */
void conn_switch(struct conn *c, struct transport *t);
/* The link is up (the TLS handshake is done; for a WebSocket, its upgrade). */
void conn_up(struct conn *c);
/* Whether c came over a connection cap (max-connections, max-per-address):
 * its first answer refuses it. An HTTP request on it gets 503 (issue 41,
 * L5); a WebSocket upgrade, the protocol's 503 after the greeting. */
int conn_refused(const struct conn *c);
/* One line without its LF; nonzero when the connection takes no more lines
 * for now (held, closing or dropped). */
int conn_input(struct conn *c, const char *line, size_t n);
/* A line longer than the protocol's cap arrived. */
void conn_overlong(struct conn *c);
/* Everything queued has been written. */
void conn_drained(struct conn *c);
/* No byte came (or none could be written) within the timeout. */
void conn_timeout(struct conn *c, int writing);
/* The output stayed over its cap past the transport's deadline while
 * nothing was read from the peer: it is dropped. */
void conn_overfull(struct conn *c);
/* The peer closed (why NULL) or the link failed (why says how). */
void conn_lost(struct conn *c, const char *why);

#endif
