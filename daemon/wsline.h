/* wsline.h: the WebSocket transport (RFC 6455, framed by libwslay) for a TLS
 * connection whose ALPN chose http/1.1. It first answers HTTP requests for
 * the embedded web client (http.h); a GET /ws that passes the upgrade's
 * checks turns it into a WebSocket, and from then on one text message is one
 * protocol line each way, for the same conn.c as a line connection. */
#ifndef GOMOKUD_WSLINE_H
#define GOMOKUD_WSLINE_H

struct conn;
struct config;
struct transport;
struct tlsio;

/* Takes over io (its TLS handshake done) for connection c; cfg (kept, read
 * at each request) gives the header time cap and the allowed origins. NULL
 * when out of memory (io untouched). The caller puts the transport in
 * place (conn_switch) before the loop runs again. */
struct transport *wsline_new(struct tlsio *io, struct conn *c, const struct config *cfg);

#endif
