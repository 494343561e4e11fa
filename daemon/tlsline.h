/* tlsline.h: the line transport over TLS: OpenSSL on a libevent
 * bufferevent, lines ended by LF, at most PROTO_LINE_MAX bytes. */
#ifndef GOMOKUD_TLSLINE_H
#define GOMOKUD_TLSLINE_H

#include <openssl/ssl.h>

struct event_base;
struct config;
struct conn;
struct transport;

/* A transport for the accepted socket fd, its handshake starting; NULL
 * (fd closed) when it cannot be set up. When the handshake's ALPN chose
 * http/1.1, or always with web_only (web-listen), it hands the stream to a
 * WebSocket transport (wsline.h) with web, the settings it reads. */
struct transport *tlsline_new(struct event_base *base, SSL_CTX *ctx, int fd, struct conn *c,
    const struct config *web, int web_only);

/* Makes bufferevent_openssl read what OpenSSL has already decrypted, if
 * the bufferevent reads: without it those bytes wait for the peer's next
 * write. Call it after taking lines from the input. */
struct bufferevent;
void tlsline_pull(struct bufferevent *bev);

#endif
