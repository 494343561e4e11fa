/*
 * net.h: the client's TLS connection on libevent: certificate checks
 * (system CA store or --ca, else pinning on first use, or --insecure),
 * line framing with the protocol's 512-byte limit, and reconnecting with
 * backoff.
 */
#ifndef GOMOKU_CLIENT_NET_H
#define GOMOKU_CLIENT_NET_H

#include <stddef.h>

struct event_base;
typedef struct net net_t;

typedef struct {
	const char *host, *port;
	const char *ca_file;  /* NULL: the system CA store */
	const char *pin_file; /* NULL: pin_default_path() */
	int insecure;         /* no certificate check at all */
	int timeout;          /* seconds to connect and get a first line; 0: 20 */
} net_opts_t;

typedef struct {
	/* One line, without its LF (a CR may remain; proto_parse ignores it). */
	void (*line)(void *arg, const char *line, size_t len);
	/* TLS is up and the certificate accepted. */
	void (*up)(void *arg);
	/* The connection is gone. fatal: retrying cannot help (a changed
	 * pinned key, a refused certificate). why is for people. */
	void (*down)(void *arg, int fatal, const char *why);
	/* Something the user must see now (a first-use pin warning). */
	void (*notice)(void *arg, const char *msg);
} net_cbs_t;

/* Returns NULL with err filled on failure. */
net_t *net_new(struct event_base *base, const net_opts_t *o, const net_cbs_t *cb, void *arg,
    char *err, size_t errlen);
void net_free(net_t *n);
/* Starts connecting now; the result arrives through up or down. */
int net_connect(net_t *n);
/* Connects again after the next backoff delay (1 s doubling to 30 s);
 * returns that delay in seconds. */
int net_reconnect_later(net_t *n);
/* Forget the backoff once a session works again. */
void net_backoff_reset(net_t *n);
/* Queues a line (a LF is added when missing). 0, or -1 when not connected. */
int net_send(net_t *n, const char *line, size_t len);
/* Closes the connection now (what is queued may be lost; wait for OK QUIT
 * first) and stops any retry; down is not called. */
void net_close(net_t *n);
int net_is_up(const net_t *n);
/* Another server for the session (* MOVED's host:port, [v6]:port): closes
 * the connection, connects there at the next loop turn (down is not called
 * for the old one)
 * and from then on reconnects there. 0, or -1 when hostport is not
 * host:port (nothing changes). */
int net_move(net_t *n, const char *hostport);
/* Where it connects: host:port. */
const char *net_where(const net_t *n);

#endif
