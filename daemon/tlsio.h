/*
 * tlsio.h: a TLS stream on a non-blocking socket, driven by the event loop.
 *
 * It does what bufferevent_openssl did for the two transports (tlsline.c,
 * wsline.c), with the costs of a busy server in mind:
 * - Output queued during a loop turn is written once, late in that turn
 *   (after the events still active when its flush first comes up, such
 *   as a commit's answers or a bot's search handed to a worker),
 *   straight to the socket: one TLS record and one write per connection per
 *   turn, and no write event unless the socket is full. A write event is
 *   added (an epoll_ctl) only when the kernel refuses bytes.
 * - The read event stays in the poll set; timeouts are kept lazily, so a
 *   busy connection touches no timer per line.
 * - Complete lines may be handed up straight from the bytes just decrypted
 *   (tlsio_take_fn), without passing through the input buffer.
 * - An idle connection holds no OpenSSL record buffers and no buffer
 *   chains (SSL_MODE_RELEASE_BUFFERS, and SSL_free_buffers after the
 *   handshake).
 */
#ifndef GOMOKUD_TLSIO_H
#define GOMOKUD_TLSIO_H

#include <stddef.h>

#include <openssl/ssl.h>

struct event_base;
struct evbuffer;
struct tlsio;
struct tlsio_base;

/* What the event callback is told. */
enum {
	TLSIO_UP = 0x01,      /* the handshake is done */
	TLSIO_EOF = 0x02,     /* the peer closed */
	TLSIO_ERROR = 0x04,   /* the link failed; tlsio_error says how */
	TLSIO_TIMEOUT = 0x08, /* with TLSIO_READING or TLSIO_WRITING */
	TLSIO_READING = 0x10,
	TLSIO_WRITING = 0x20,
};

/* New bytes are in the input (or a read was asked for, tlsio_trigger). */
typedef void (*tlsio_read_fn)(struct tlsio *io, void *arg);
/* The output is down to the low mark (0 by default: empty) after a write. */
typedef void (*tlsio_write_fn)(struct tlsio *io, void *arg);
typedef void (*tlsio_event_fn)(struct tlsio *io, int what, void *arg);
/* Offered the bytes just read while the input is empty: returns how many
 * it took; the rest goes to the input and tlsio_read_fn is called. */
typedef size_t (*tlsio_take_fn)(struct tlsio *io, const char *p, size_t n, void *arg);

/* The flush queue of one event loop, shared by its streams. */
struct tlsio_base *tlsio_base_new(struct event_base *base);
void tlsio_base_free(struct tlsio_base *b);
struct event_base *tlsio_base_loop(const struct tlsio_base *b);

/* A stream for the accepted socket fd, its server handshake begun, reading
 * and writing enabled; it owns ssl and fd. NULL when out of memory (then
 * ssl and fd are the caller's still). */
struct tlsio *tlsio_new(struct tlsio_base *b, SSL *ssl, int fd);
/* As tlsio_new for a client: fd's connect is under way (non-blocking),
 * and the client handshake starts once it is writable; TLSIO_UP when done,
 * TLSIO_ERROR when the connect or the handshake fails. The daemon itself
 * never connects; the load tool does, through the same stream. */
struct tlsio *tlsio_connect(struct tlsio_base *b, SSL *ssl, int fd);
/* Frees the stream, its SSL and its socket; safe inside its callbacks. */
void tlsio_free(struct tlsio *io);

void tlsio_setcb(struct tlsio *io, tlsio_read_fn r, tlsio_write_fn w, tlsio_event_fn e,
    tlsio_take_fn take, void *arg);
struct evbuffer *tlsio_input(struct tlsio *io);
struct evbuffer *tlsio_output(struct tlsio *io);
/* Bytes in the output: queued, or in a TLS record not yet taken by the
 * kernel. */
size_t tlsio_pending(const struct tlsio *io);
SSL *tlsio_ssl(const struct tlsio *io);
struct event_base *tlsio_event_base(const struct tlsio *io);

/* Reading on (1) or off (0); off for good when the link is closing. While
 * on, reading stops by itself when the input reaches the read mark (0: no
 * mark) and goes on once the input is below it. */
void tlsio_reading(struct tlsio *io, int on);
void tlsio_read_mark(struct tlsio *io, size_t high);
void tlsio_write_mark(struct tlsio *io, size_t low);
/* The read (idle) timeout while reading is on, and the write timeout while
 * output waits for the socket, in seconds; 0 is none. */
void tlsio_timeouts(struct tlsio *io, int read_s, int write_s);
/* The read callback runs late in this loop turn, bytes or not. */
void tlsio_trigger(struct tlsio *io);
/* No callback after this; nothing more is read or written. */
void tlsio_stop(struct tlsio *io);
/* Sends close_notify, best effort, unless the link failed. */
void tlsio_close_notify(struct tlsio *io);
/* The first OpenSSL error of a failed link, as text, or NULL. */
const char *tlsio_error(struct tlsio *io, char *buf, size_t n);

#endif
