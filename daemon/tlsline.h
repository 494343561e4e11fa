/* tlsline.h: the line transport over TLS: a tlsio stream (tlsio.h), lines
 * ended by LF, at most PROTO_LINE_MAX bytes. */
#ifndef GOMOKUD_TLSLINE_H
#define GOMOKUD_TLSLINE_H

#include <openssl/ssl.h>

struct config;
struct conn;
struct transport;
struct tlsio_base;

/* A transport for the accepted socket fd, its handshake starting; NULL
 * (fd closed) when it cannot be set up. When the handshake's ALPN chose
 * http/1.1, or always with web_only (web-listen), it hands the stream to a
 * WebSocket transport (wsline.h) with web, the settings it reads. */
struct transport *tlsline_new(struct tlsio_base *b, SSL_CTX *ctx, int fd, struct conn *c,
    const struct config *web, int web_only);

#endif
