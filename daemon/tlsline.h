/* tlsline.h: the line transport over TLS: OpenSSL on a libevent
 * bufferevent, lines ended by LF, at most PROTO_LINE_MAX bytes. */
#ifndef GOMOKUD_TLSLINE_H
#define GOMOKUD_TLSLINE_H

#include <openssl/ssl.h>

struct event_base;
struct conn;
struct transport;

/* A transport for the accepted socket fd, its handshake starting; NULL
 * (fd closed) when it cannot be set up. */
struct transport *tlsline_new(struct event_base *base, SSL_CTX *ctx, int fd, struct conn *c);

#endif
