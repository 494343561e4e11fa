/*
 * conn.h: gomoku-bot's TLS connection to a gomokud on a libevent loop:
 * the certificate checked against a CA file (ca), the system's CA store,
 * or a pinned key fingerprint (pin; both when both are given; none with
 * insecure), and the line framing with the protocol's 512-byte limit.
 */
#ifndef GOMOKU_BOT_CONN_H
#define GOMOKU_BOT_CONN_H

#include <stddef.h>

struct event_base;
typedef struct conn conn_t;

typedef struct {
	const char *host, *port;
	const char *ca;  /* "" or NULL: the system store (unless pin or insecure) */
	const char *pin; /* "" or NULL: none; else "sha256:<hex>" */
	int insecure;
	int timeout_s; /* to connect and hear the first line */
} conn_opts_t;

typedef struct {
	void (*line)(void *arg, const char *line, size_t len); /* without the LF */
	void (*down)(void *arg, int fatal, const char *why);   /* not after conn_close */
} conn_cbs_t;

/* NULL with err filled when TLS cannot be set up (a bad CA file). */
conn_t *conn_new(struct event_base *base, const conn_opts_t *o, const conn_cbs_t *cb, void *arg,
    char *err, size_t errlen);
void conn_free(conn_t *c);
/* Connects (the greeting arrives through line, a failure through down). */
void conn_open(conn_t *c);
/* Queues a line (LF added): 0, or -1 when not connected. */
int conn_send(conn_t *c, const char *line, size_t len);
/* Closes now; down is not called. */
void conn_close(conn_t *c);
int conn_up(const conn_t *c);

#endif
