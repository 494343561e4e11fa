/* http.h: one HTTP/1.1 request at a time, parsed with libhttp-parser, and
 * the answers the daemon gives over HTTP: its embedded static files
 * (webfiles.h), the WebSocket upgrade's checks and accept key, and errors.
 * Nothing here reads the file system or knows a connection. */
#ifndef GOMOKUD_HTTP_H
#define GOMOKUD_HTTP_H

#include <stddef.h>

#include <http_parser.h>

struct evbuffer;

enum {
	HTTP_HEADERS_MAX = 8192, /* request line and headers: 431 (414 for the URL) */
	HTTP_URL_MAX = 1024,
};

struct http_req {
	http_parser p;
	int status;   /* nonzero: answer this error and close */
	int complete; /* a whole request is in */
	int started;  /* a byte of it came */
	size_t head_bytes;
	char url[HTTP_URL_MAX];
	size_t urllen;
	char field[32]; /* the header being read, lower-cased ("" if not kept) */
	size_t fieldlen;
	int in_value;
	char *value; /* where the current header's value goes */
	size_t valcap;
	char host[256], origin[256], upgrade[64], connection[128], key[64], version[16], inm[128];
	char accept_enc[256]; /* Accept-Encoding, its lines joined by ", " */
};

void http_req_init(struct http_req *r);
/* Feeds bytes; returns how many were taken. After it, r->status (an error
 * to answer) or r->complete (one request; the rest waits for the next). */
size_t http_req_feed(struct http_req *r, const char *buf, size_t n);
/* Whether the request asks for the WebSocket endpoint (/ws). */
int http_wants_ws(const struct http_req *r);
/* Checks a WebSocket upgrade (RFC 6455 4.2.1) and the Origin: 0 when it may
 * go on, else the HTTP status to refuse it with. origins: the allowed ones
 * besides https://<Host>, separated by spaces. */
int http_ws_check(const struct http_req *r, const char *origins);
/* Writes the 101 reply with Sec-WebSocket-Accept. */
void http_ws_accept(struct evbuffer *out, const struct http_req *r);
/* Writes the answer to a request for a file: 200, 304, 404 or 405, the
 * file's gzip copy when there is one and Accept-Encoding takes gzip (each
 * copy with an ETag of its own). Returns whether the connection may stay
 * open. origins (web-origins) also name the WebSockets the page may open
 * (its CSP's connect-src). */
int http_static(struct evbuffer *out, const struct http_req *r, const char *origins);
/* Writes an error reply that closes the connection. */
void http_error(struct evbuffer *out, int status);
/* Whether an Accept-Encoding value takes gzip (RFC 9110 12.5.3): "gzip" or
 * "x-gzip" with a q above 0, else "*" with one; q=0 refuses. "" (no header)
 * asks for the file as it is. */
int http_takes_gzip(const char *accept_encoding);

#endif
