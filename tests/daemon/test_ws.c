/*
 * test_ws.c: the game port's HTTP and WebSocket side (issue 24) from a raw
 * client: ALPN picks lines or HTTP; the embedded files with their headers;
 * every refusal (400, 403, 404, 405, 408, 413, 414, 426, 431); then the
 * protocol over WebSocket: a game against a TLS line player, fragments,
 * ping/pong, binary frames, close codes, oversized messages, the rate
 * bucket, RESUME, and a slow reader dropped at the output cap.
 */
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "tests/daemon/check.h"
#include "tests/daemon/tclient.h"
#include "tests/daemon/httpresp.h"
#include "tests/daemon/wsframe.h"

static int port;
static const unsigned char alpn_http[] = "\x08http/1.1";
static const char key[] = "dGhlIHNhbXBsZSBub25jZQ==";

static struct tc *
http_open(void)
{
	struct tc *c = tc_open_alpn(port, alpn_http, sizeof alpn_http - 1, 0);
	if (c)
		snprintf(c->name, sizeof c->name, "http");
	return c;
}

/* One request on a new connection; the response in r. */
static int
request(const char *req, struct http_resp *r)
{
	struct tc *c = http_open();
	if (!c)
		return -1;
	tc_send_raw(c, req, strlen(req));
	int rc = http_read_resp(c, r, strncmp(req, "HEAD", 4) == 0);
	tc_close(c);
	return rc;
}

static void
upgrade_req(char *out, size_t n, const char *origin, const char *version, const char *k)
{
	snprintf(out, n,
	    "GET /ws HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUpgrade: websocket\r\n"
	    "Connection: keep-alive, Upgrade\r\nSec-WebSocket-Version: %s\r\n"
	    "Sec-WebSocket-Key: %s\r\n%s%s%s\r\n",
	    port, version, k, origin ? "Origin: " : "", origin ? origin : "", origin ? "\r\n" : "");
}

/* A WebSocket at /ws, its 101 checked; NULL when refused. */
static struct tc *
ws_open(const char *name, int small)
{
	struct tc *c = tc_open_alpn(port, alpn_http, sizeof alpn_http - 1, small);
	if (!c)
		return NULL;
	char req[600], origin[64];
	snprintf(origin, sizeof origin, "https://127.0.0.1:%d", port);
	upgrade_req(req, sizeof req, origin, "13", key);
	tc_send_raw(c, req, strlen(req));
	struct http_resp r;
	char acc[64];
	if (http_read_resp(c, &r, 1) || r.status != 101 ||
	    !http_header(&r, "Sec-WebSocket-Accept", acc, sizeof acc) ||
	    strcmp(acc, "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=") != 0) { /* RFC 6455's own example */
		tc_close(c);
		return NULL;
	}
	snprintf(c->name, sizeof c->name, "%s", name);
	return c;
}

static void
ws_frame_send(struct tc *c, int fin, int op, const void *p, size_t n)
{
	static unsigned char out[1 << 17];
	if (n + 14 > sizeof out)
		return;
	tc_send_raw(c, out, wsf_encode(out, fin, op, p, n));
}

static void
ws_send(struct tc *c, const char *fmt, ...)
{
	char buf[8192];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (tc_verbose)
		fprintf(stderr, "  %s> %s\n", c->name, buf);
	ws_frame_send(c, 1, WS_TEXT, buf, (size_t)n);
}

/* The next frame within ms: its opcode (payload in buf, NUL-ended), or -1
 * (also for a fragment: the daemon sends each line whole). */
static int
ws_frame(struct tc *c, char *buf, size_t cap, size_t *plen, int ms)
{
	static unsigned char f[16384];
	if (tc_read_bytes(c, f, 2, ms))
		return -1;
	size_t ext = (f[1] & 127) == 126 ? 2 : (f[1] & 127) == 127 ? 8 : 0, n = f[1] & 127;
	if (ext && tc_read_bytes(c, f + 2, ext, ms))
		return -1;
	if (ext)
		n = 0;
	for (size_t i = 0; i < ext; i++)
		n = n << 8 | f[2 + i];
	if (n + 2 + ext > sizeof f || n >= cap || (n && tc_read_bytes(c, f + 2 + ext, n, ms)))
		return -1;
	int fin, op;
	size_t off, len;
	if (wsf_decode(f, 2 + ext + n, &fin, &op, &off, &len) != (long)(2 + ext + n) || !fin)
		return -1;
	memcpy(buf, f + off, len);
	buf[len] = '\0';
	*plen = len;
	return op;
}

/* Text frames until one starts with prefix (into c->line); NULL after ms or
 * on any other kind of frame. */
static const char *
ws_expect(struct tc *c, const char *prefix, int ms)
{
	char buf[8192];
	size_t n;
	for (;;) {
		int op = ws_frame(c, buf, sizeof buf, &n, ms);
		if (op != WS_TEXT)
			return NULL;
		if (tc_verbose)
			fprintf(stderr, "  %s< %s\n", c->name, buf);
		if (memchr(buf, '\n', n))
			return NULL; /* one message is one line, without its LF */
		snprintf(c->line, sizeof c->line, "%.1000s", buf);
		if (strncmp(buf, prefix, strlen(prefix)) == 0)
			return c->line;
	}
}

#define WS_CHECK(c, prefix)                                                                       \
	CHECK(ws_expect((c), (prefix), LINE_MS), "%s: no \"%s\" (last: %s)", (c)->name, (prefix), \
	    (c)->line)
#define WS_REQUIRE(c, prefix)                                                             \
	REQUIRE(ws_expect((c), (prefix), LINE_MS), "%s: no \"%s\" (last: %s)", (c)->name, \
	    (prefix), (c)->line)

/* A close frame within ms: its status code, else -1. */
static int
ws_close_code(struct tc *c, int ms)
{
	char buf[8192];
	size_t n;
	for (;;) {
		int op = ws_frame(c, buf, sizeof buf, &n, ms);
		if (op < 0)
			return -1;
		if (op == WS_CLOSE)
			return n >= 2 ? ((unsigned char)buf[0] << 8 | (unsigned char)buf[1]) : 0;
	}
}

static struct tc *
ws_guest(const char *name)
{
	struct tc *c = ws_open(name, 0);
	if (!c)
		return NULL;
	if (!ws_expect(c, "* SERVER gomokud", 3000)) {
		tc_close(c);
		return NULL;
	}
	ws_send(c, "HELLO 1 test-ws");
	ws_send(c, "GUEST %s", name);
	const char *l = ws_expect(c, "OK GUEST ", 3000);
	if (!l || sscanf(l, "OK GUEST %31s %79s", c->name, c->token) != 2) {
		tc_close(c);
		return NULL;
	}
	return c;
}

static void
test_alpn(void)
{
	static const unsigned char gomoku[] = "\x08gomoku/1";
	static const unsigned char both[] = "\x02h2\x08http/1.1\x08gomoku/1";
	char got[32];
	struct tc *c = tc_open_alpn(port, gomoku, sizeof gomoku - 1, 0);
	REQUIRE(c, "no TLS with ALPN gomoku/1");
	tc_alpn(c, got, sizeof got);
	CHECK(strcmp(got, "gomoku/1") == 0, "ALPN gomoku/1 answered %s", got);
	CHECK_LINE(c, "* SERVER gomokud");
	tc_close(c);
	c = tc_open_alpn(port, both, sizeof both - 1, 0);
	REQUIRE(c, "no TLS with ALPN h2,http/1.1,gomoku/1");
	tc_alpn(c, got, sizeof got);
	CHECK(strcmp(got, "gomoku/1") == 0, "lines are preferred, got %s", got);
	tc_close(c);
	c = http_open();
	REQUIRE(c, "no TLS with ALPN http/1.1");
	tc_alpn(c, got, sizeof got);
	CHECK(strcmp(got, "http/1.1") == 0, "ALPN http/1.1 answered %s", got);
	CHECK(!tc_read(c, 500), "an HTTP connection got a greeting: %s", c->line);
	tc_close(c);
	c = tc_open(port, 1); /* no ALPN at all: the line protocol, as before */
	CHECK(c != NULL, "no ALPN: no greeting");
	tc_close(c);
	ok("ALPN: none or gomoku/1 speak lines, http/1.1 speaks HTTP and gets no greeting");
}

static void
test_static(void)
{
	struct http_resp r;
	char v[600], req[4096];
	REQUIRE(request("GET / HTTP/1.1\r\nHost: x\r\n\r\n", &r) == 0, "GET / no response");
	CHECK(r.status == 200, "GET / status %d", r.status);
	CHECK(http_header(&r, "Content-Type", v, sizeof v) &&
		strcmp(v, "text/html; charset=utf-8") == 0,
	    "index type %s", v);
	CHECK(http_header(&r, "Cache-Control", v, sizeof v) && strcmp(v, "no-cache") == 0,
	    "index cache %s", v);
	CHECK(http_header(&r, "X-Content-Type-Options", v, sizeof v) && strcmp(v, "nosniff") == 0,
	    "nosniff");
	CHECK(http_header(&r, "Content-Security-Policy", v, sizeof v) &&
		strstr(v, "script-src 'self'") && !strstr(v, "unsafe-inline"),
	    "CSP %s", v);
	/* the page may open WebSockets to its own server and to the web-origins
	 * (a cluster's other nodes, where * MOVED sends it), nowhere else */
	CHECK(strstr(v, "connect-src 'self' wss://friend.example wss://other.example;") != NULL,
	    "CSP connect-src %s", v);
	CHECK(strstr((char *)r.body, "<script") && !strstr((char *)r.body, "<script>"),
	    "index has an inline script");
	char etag[80];
	REQUIRE(http_header(&r, "ETag", etag, sizeof etag), "index without ETag");
	/* the hashed name of app.js, as the page names it */
	char *src = strstr((char *)r.body, "src=\"/s/");
	REQUIRE(src, "index names no hashed script: %s", (char *)r.body);
	char path[128];
	REQUIRE(sscanf(src, "src=\"%127[^\"]", path) == 1, "script path");
	snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: x\r\n\r\n", path);
	REQUIRE(request(req, &r) == 0, "GET %s no response", path);
	CHECK(r.status == 200 && r.blen > 0, "GET %s status %d", path, r.status);
	CHECK(http_header(&r, "Cache-Control", v, sizeof v) && strstr(v, "immutable"),
	    "%s cache %s", path, v);
	CHECK(
	    http_header(&r, "Content-Type", v, sizeof v) && strncmp(v, "text/javascript", 15) == 0,
	    "%s type %s", path, v);
	snprintf(req, sizeof req, "GET / HTTP/1.1\r\nHost: x\r\nIf-None-Match: %s\r\n\r\n", etag);
	CHECK(
	    request(req, &r) == 0 && r.status == 304 && r.blen == 0, "If-None-Match: %d", r.status);
	CHECK(request("HEAD / HTTP/1.1\r\nHost: x\r\n\r\n", &r) == 0 && r.status == 200 &&
		http_header(&r, "Content-Length", v, sizeof v) && atoi(v) > 0,
	    "HEAD / %d", r.status);

	/* two requests on one connection, the second after the first's answer */
	struct tc *c = http_open();
	REQUIRE(c, "keep-alive: no connection");
	static const char two[] =
	    "GET / HTTP/1.1\r\nHost: x\r\n\r\nGET /nope HTTP/1.1\r\nHost: x\r\n\r\n";
	tc_send_raw(c, two, sizeof two - 1);
	CHECK(http_read_resp(c, &r, 0) == 0 && r.status == 200, "pipelined first %d", r.status);
	CHECK(http_read_resp(c, &r, 0) == 0 && r.status == 404, "pipelined second %d", r.status);
	CHECK(tc_closed(c, 2000), "404 did not close");
	tc_close(c);

	/* nothing reaches the file system: paths outside the table are 404 */
	static const char *bad[] = { "/etc/passwd", "/../../etc/passwd", "/s/../index.html",
		"/index.html", "/s/0000000000000000/app.js", "/app.js", "//", "/ws/x", "/%2e%2e/" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: x\r\n\r\n", bad[i]);
		CHECK(request(req, &r) == 0 && r.status == 404, "GET %s: %d", bad[i], r.status);
	}
	CHECK(request("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n", &r) == 0 &&
		r.status == 405 && http_header(&r, "Allow", v, sizeof v),
	    "POST: %d", r.status);
	CHECK(request("DELETE /ws HTTP/1.1\r\nHost: x\r\n\r\n", &r) == 0 && r.status == 405,
	    "DELETE /ws: %d", r.status);
	CHECK(request("GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello", &r) == 0 &&
		r.status == 413,
	    "a body: %d", r.status);
	CHECK(request("GET / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
		  &r) == 0 &&
		r.status == 413,
	    "a chunked body: %d", r.status);
	char url[2100];
	memset(url, 'a', sizeof url - 1);
	url[0] = '/';
	url[sizeof url - 1] = '\0';
	snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: x\r\n\r\n", url);
	CHECK(request(req, &r) == 0 && r.status == 414, "long URL: %d", r.status);
	static char big[12000];
	int n = snprintf(big, sizeof big, "GET / HTTP/1.1\r\nHost: x\r\n");
	for (int i = 0; i < 100; i++)
		n += snprintf(big + n, sizeof big - (size_t)n, "X-Filler-%d: %080d\r\n", i, i);
	snprintf(big + n, sizeof big - (size_t)n, "\r\n");
	CHECK(request(big, &r) == 0 && r.status == 431, "9 KB of headers: %d", r.status);
	CHECK(request(
		  "GET / HTTP/1.1\r\nHost: x\r\nOrigin: " /* a kept header over its room */
		  "https://"
		  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		  "aaa"
		  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		  "aaa"
		  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.example\r\n\r\n",
		  &r) == 0 &&
		r.status == 431,
	    "a 300-byte Origin: %d", r.status);
	CHECK(request("BLAH\r\n\r\n", &r) == 0 && r.status == 400, "garbage: %d", r.status);
	CHECK(request("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", &r) == 0 && r.status == 400,
	    "two Hosts: %d", r.status);

	/* the header time cap: half a request, then silence */
	c = http_open();
	REQUIRE(c, "slow request: no connection");
	tc_send_raw(c, "GET / HTTP/1.1\r\nHo", 18);
	CHECK(http_read_resp(c, &r, 0) == 0 && r.status == 408, "half a request: %d", r.status);
	CHECK(tc_closed(c, 3000), "408 did not close");
	tc_close(c);
	ok("HTTP: the embedded files (no-cache index, immutable hashed names, ETag/304, HEAD, CSP, "
	   "nosniff), keep-alive; 400 404 405 408 413 414 431");
}

static void
test_handshake(void)
{
	struct http_resp r;
	char req[800], origin[64], v[64];
	snprintf(origin, sizeof origin, "https://127.0.0.1:%d", port);
	upgrade_req(req, sizeof req, "https://evil.example", "13", key);
	CHECK(request(req, &r) == 0 && r.status == 403, "wrong Origin: %d", r.status);
	upgrade_req(req, sizeof req, "http://127.0.0.1", "13", key);
	CHECK(request(req, &r) == 0 && r.status == 403, "http origin: %d", r.status);
	upgrade_req(req, sizeof req, "https://friend.example", "13", key); /* web-origins */
	CHECK(request(req, &r) == 0 && r.status == 101, "listed origin: %d", r.status);
	upgrade_req(req, sizeof req, origin, "12", key);
	CHECK(request(req, &r) == 0 && r.status == 426 &&
		http_header(&r, "Sec-WebSocket-Version", v, sizeof v) && strcmp(v, "13") == 0,
	    "version 12: %d", r.status);
	upgrade_req(req, sizeof req, origin, "13", "short==");
	CHECK(request(req, &r) == 0 && r.status == 400, "short key: %d", r.status);
	upgrade_req(req, sizeof req, origin, "13", "!!!!!!!!!!!!!!!!!!!!!!==");
	CHECK(request(req, &r) == 0 && r.status == 400, "bad key: %d", r.status);
	snprintf(req, sizeof req, "GET /ws HTTP/1.1\r\nHost: x\r\n\r\n");
	CHECK(request(req, &r) == 0 && r.status == 400, "no upgrade headers: %d", r.status);
	snprintf(req, sizeof req,
	    "GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: close\r\n"
	    "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: %s\r\n\r\n",
	    key);
	CHECK(request(req, &r) == 0 && r.status == 400, "Connection without upgrade: %d", r.status);
	struct tc *c = ws_open("plain", 0);
	CHECK(c && ws_expect(c, "* SERVER gomokud 0.1.0 1 ", 3000), "no greeting over WebSocket");
	tc_close(c);
	ok("upgrade: wrong Origin 403, listed origin 101, version 426, bad key 400, missing "
	   "headers 400; the accept key as RFC 6455 computes it; the greeting as a text message");
}

/* A WebSocket player and a TLS line player in one room, to five; a
 * spectator of each kind. */
static void
test_mixed_game(void)
{
	struct tc *w = ws_guest("webby");
	struct tc *t = tc_guest(port, "liney");
	REQUIRE(w && t, "guests");
	ws_send(w, "SEEK freestyle 15 60+1 black casual none");
	WS_CHECK(w, "OK SEEK ");
	tc_send(t, "SEEK freestyle 15 60+1 any casual none");
	REQUIRE_LINE(t, "* START ");
	char room[20];
	REQUIRE(sscanf(t->line, "* START %19s", room) == 1, "room id");
	WS_REQUIRE(w, "* START ");
	struct tc *sw = ws_guest("wwatch"), *st = tc_guest(port, "twatch");
	REQUIRE(sw && st, "spectators");
	ws_send(sw, "WATCH %s", room);
	WS_CHECK(sw, "OK WATCH ");
	tc_send(st, "WATCH %s", room);
	CHECK_LINE(st, "OK WATCH ");
	static const char *b[] = { "h8", "i8", "j8", "k8", "l8" },
			  *wh[] = { "h9", "i9", "j9", "k9" };
	for (int i = 0; i < 5; i++) {
		ws_send(w, "#m%d MOVE %s %s", i, room, b[i]);
		WS_CHECK(w, "OK #m");
		char ev[64];
		snprintf(ev, sizeof ev, "* MOVE %s", room);
		CHECK_LINE(t, ev);
		if (i == 4)
			break;
		tc_send(t, "MOVE %s %s", room, wh[i]);
		CHECK_LINE(t, "OK MOVE ");
		WS_CHECK(w, "* MOVE ");
	}
	char over[64];
	snprintf(over, sizeof over, "* OVER %s", room);
	CHECK(ws_expect(sw, over, LINE_MS) && strstr(sw->line, "black five h8,i8,j8,k8,l8"),
	    "ws spectator: %s", sw->line);
	CHECK(tc_expect(st, over, LINE_MS) && strstr(st->line, "black five"), "tls spectator: %s",
	    st->line);
	ws_send(w, "SAY %s gg", room);
	char say[64];
	snprintf(say, sizeof say, "* SAY %s", room);
	CHECK(tc_expect(t, say, LINE_MS) && strstr(t->line, "webby gg"), "chat: %s", t->line);
	tc_close(w);
	tc_close(t);
	tc_close(sw);
	tc_close(st);
	ok("a WebSocket player beats a TLS line player to five; spectators of both kinds; chat");
}

static void
test_frames(void)
{
	struct tc *c = ws_open("frames", 0);
	REQUIRE(c && ws_expect(c, "* SERVER ", 3000), "no WebSocket");
	/* a line in three fragments, a ping between them */
	ws_frame_send(c, 0, WS_TEXT, "HEL", 3);
	ws_frame_send(c, 1, WS_PING, "abc", 3);
	ws_frame_send(c, 0, WS_CONT, "LO ", 3);
	ws_frame_send(c, 1, WS_CONT, "1 frag", 6);
	char buf[256];
	size_t n;
	int op = ws_frame(c, buf, sizeof buf, &n, 3000);
	CHECK(op == WS_PONG && n == 3 && memcmp(buf, "abc", 3) == 0, "pong: op %d", op);
	WS_CHECK(c, "OK HELLO 1");
	ws_send(c, "PING x\n"); /* a final LF is tolerated */
	WS_CHECK(c, "OK PING x");
	ws_send(c, "PING a\nPING b"); /* one message is one line: a LF inside is not */
	CHECK(ws_expect(c, "ERR ", 3000) && strncmp(c->line, "ERR 404 bad-utf8", 16) == 0,
	    "LF inside: %s", c->line); /* a control character, as over lines */
	/* 511 bytes is a line, 512 is not (the LF it would need makes 513) */
	static char big[6000];
	memset(big, 'x', sizeof big);
	memcpy(big, "PING ", 5);
	ws_frame_send(c, 1, WS_TEXT, big, 511);
	CHECK(ws_expect(c, "ERR ", 3000) && strncmp(c->line, "ERR 402 bad-argument", 20) == 0,
	    "511 bytes are a line (a word too long, not 403): %s", c->line);
	ws_frame_send(c, 1, WS_TEXT, big, 512);
	WS_CHECK(c, "ERR 403 line-too-long");
	CHECK(ws_close_code(c, 3000) == 1000, "close after 403");
	CHECK(tc_closed(c, 3000), "403 did not close");
	tc_close(c);

	c = ws_open("huge", 0);
	REQUIRE(c && ws_expect(c, "* SERVER ", 3000), "no WebSocket");
	ws_frame_send(c, 1, WS_TEXT, big, sizeof big);
	CHECK(ws_close_code(c, 3000) == 1009, "6000 bytes: no close 1009");
	tc_close(c);

	c = ws_open("binary", 0);
	REQUIRE(c && ws_expect(c, "* SERVER ", 3000), "no WebSocket");
	ws_frame_send(c, 1, WS_BINARY, "HELLO 1", 7);
	CHECK(ws_close_code(c, 3000) == 1003, "binary: no close 1003");
	CHECK(tc_closed(c, 3000), "binary: not closed");
	tc_close(c);

	c = ws_open("closer", 0);
	REQUIRE(c && ws_expect(c, "* SERVER ", 3000), "no WebSocket");
	ws_frame_send(c, 1, WS_CLOSE,
	    "\x03\xe8"
	    "bye",
	    5);
	CHECK(ws_close_code(c, 3000) == 1000, "client close 1000 not answered in kind");
	CHECK(tc_closed(c, 3000), "close: not closed");
	tc_close(c);

	c = ws_open("unmasked", 0);
	REQUIRE(c && ws_expect(c, "* SERVER ", 3000), "no WebSocket");
	tc_send_raw(c, "\x81\x07HELLO 1", 9); /* a client must mask */
	CHECK(ws_close_code(c, 3000) == 1002, "unmasked frame: no close 1002");
	tc_close(c);

	c = ws_open("quitter", 0);
	REQUIRE(c && ws_expect(c, "* SERVER ", 3000), "no WebSocket");
	ws_send(c, "QUIT");
	WS_CHECK(c, "* BYE quit"); /* the reason first, then the reply (PROTOCOL.md 3) */
	WS_CHECK(c, "OK QUIT");
	CHECK(ws_close_code(c, 3000) == 1000, "QUIT: no close 1000");
	tc_close(c);
	ok("frames: fragments with a ping between (pong), a final LF, 511/512 bytes (403, close), "
	   "6000 bytes (1009), binary (1003), unmasked (1002), a client's close, QUIT (BYE, 1000)");
}

static void
test_limits_resume(void)
{
	struct tc *c = ws_guest("burst");
	REQUIRE(c, "guest");
	for (int i = 0; i < 40; i++)
		ws_send(c, "PING %d", i);
	CHECK(ws_expect(c, "ERR 407 rate-limited", 3000), "40 lines at once: no 407");
	tc_close(c);

	/* a seat taken back over a new WebSocket */
	struct tc *a = ws_guest("resumer"), *b = tc_guest(port, "waiter");
	REQUIRE(a && b, "guests");
	ws_send(a, "CREATE freestyle 15 none black casual none");
	const char *l = ws_expect(a, "OK CREATE ", 3000);
	char room[20], code[40];
	REQUIRE(l && sscanf(l, "OK CREATE %19s %39s", room, code) == 2, "create: %s", a->line);
	tc_send(b, "JOIN %s", code);
	CHECK_LINE(b, "OK JOIN");
	ws_send(a, "MOVE %s h8", room);
	WS_CHECK(a, "OK MOVE");
	char token[80];
	snprintf(token, sizeof token, "%s", a->token);
	tc_close(a);
	CHECK_LINE(b, "* PRESENCE");
	struct tc *a2 = ws_open("resumer2", 0);
	REQUIRE(a2 && ws_expect(a2, "* SERVER", 3000), "reconnect");
	ws_send(a2, "HELLO 1");
	ws_send(a2, "RESUME %s %s 3", token, room);
	WS_CHECK(a2, "= MOVES ");
	CHECK(strstr(a2->line, "h8") != NULL, "snapshot moves: %s", a2->line);
	WS_CHECK(a2, "OK RESUME ");
	CHECK(tc_expect(b, "* PRESENCE", LINE_MS) && strstr(b->line, "back"), "back: %s", b->line);
	tc_send(b, "MOVE %s h9", room);
	WS_CHECK(a2, "* MOVE ");
	tc_close(a2);
	tc_close(b);
	ok("limits and sessions over WebSocket: the rate bucket (407), RESUME of a seat");
}

/* FORBIDDEN names what the rules core forbids black, only when black is to
 * move in renju; over lines and over WebSocket alike. */
static void
test_forbidden(void)
{
	struct tc *b = ws_guest("renjub"), *w = tc_guest(port, "renjuw"),
		  *x = tc_guest(port, "stranger");
	REQUIRE(b && w && x, "guests");
	ws_send(b, "CREATE renju 15 none black casual none");
	const char *l = ws_expect(b, "OK CREATE ", 3000);
	char room[20], code[40];
	REQUIRE(l && sscanf(l, "OK CREATE %19s %39s", room, code) == 2, "create: %s", b->line);
	tc_send(w, "JOIN %s", code);
	CHECK_LINE(w, "OK JOIN");
	static const char *bm[] = { "h8", "j8", "h10", "j10" }, *wm[] = { "a1", "a3", "o1", "o3" };
	for (int i = 0; i < 4; i++) {
		ws_send(b, "FORBIDDEN %s", room);
		CHECK(ws_expect(b, "OK FORBIDDEN ", 3000) && strstr(b->line, " 0"),
		    "before move %d: %s", i, b->line);
		ws_send(b, "MOVE %s %s", room, bm[i]);
		WS_CHECK(b, "OK MOVE");
		tc_send(w, "FORBIDDEN %s", room); /* white to move: none */
		CHECK(tc_expect(w, "OK FORBIDDEN ", LINE_MS) && strstr(w->line, " 0"), "white: %s",
		    w->line);
		tc_send(w, "MOVE %s %s", room, wm[i]);
		CHECK_LINE(w, "OK MOVE");
	}
	ws_send(b, "FORBIDDEN %s", room);
	char want[64];
	snprintf(want, sizeof want, "= FORBIDDEN %s i9", room);
	CHECK(ws_expect(b, "= FORBIDDEN", 3000) && strcmp(b->line, want) == 0, "data: %s", b->line);
	snprintf(want, sizeof want, "OK FORBIDDEN %s 1", room);
	CHECK(
	    ws_expect(b, "OK FORBIDDEN", 3000) && strcmp(b->line, want) == 0, "reply: %s", b->line);
	tc_send(w, "FORBIDDEN %s", room); /* the opponent may ask too */
	CHECK_LINE(w, "= FORBIDDEN");
	ws_send(b, "MOVE %s i9", room);
	WS_CHECK(b, "ERR 434 double-three");
	tc_send(x, "FORBIDDEN %s", room);
	CHECK_LINE(x, "ERR 420");
	tc_close(b);
	tc_close(w);
	tc_close(x);
	ok("FORBIDDEN: renju's forbidden points for black as the rules core judges them, none for "
	   "white's turn or before; MOVE there is refused alike; strangers get 420");
}

/* web-listen: a second address that serves the board to any TLS client,
 * whatever its ALPN; its WebSocket takes pages of its own origin. */
static void
test_web_listen(const struct daemon *d)
{
	char log[8192] = "", *at;
	FILE *f = fopen(d->log, "r");
	size_t n = f ? fread(log, 1, sizeof log - 1, f) : 0;
	if (f)
		fclose(f);
	log[n] = '\0';
	int web = 0;
	REQUIRE((at = strstr(log, "(web-listen 127.0.0.1:")) &&
		sscanf(at, "(web-listen 127.0.0.1:%d)", &web) == 1,
	    "no web-listen port in %s", d->log);
	/* the game port's line names the board's address too (a loopback
	 * address as localhost, the certificate's name) */
	char want[96];
	snprintf(want, sizeof want, "listening on 127.0.0.1:%d; web board on https://localhost:%d/",
	    port, port);
	CHECK(strstr(log, want) != NULL, "the log does not say \"%s\" (%s)", want, d->log);
	int saved = port;
	port = web;
	static const unsigned char gomoku[] = "\x08gomoku/1";
	struct tc *c = tc_open_alpn(
	    port, gomoku, sizeof gomoku - 1, 0); /* lines asked, HTTP given */
	struct http_resp r;
	CHECK(c && !tc_read(c, 300), "web-listen greeted a line client");
	if (c) {
		tc_send_raw(c, "GET / HTTP/1.1\r\nHost: x\r\n\r\n", 27);
		CHECK(http_read_resp(c, &r, 0) == 0 && r.status == 200 &&
			strstr((char *)r.body, "<script"),
		    "web-listen GET /: %d", r.status);
		tc_close(c);
	}
	c = tc_open(port, -1); /* no ALPN at all */
	if (c) {
		tc_send_raw(c, "GET / HTTP/1.1\r\nHost: x\r\n\r\n", 27);
		CHECK(http_read_resp(c, &r, 0) == 0 && r.status == 200, "no ALPN: %d", r.status);
		tc_close(c);
	}
	c = ws_open("webport", 0); /* Origin https://127.0.0.1:<web port> */
	CHECK(c && ws_expect(c, "* SERVER gomokud", 3000), "web-listen: no WebSocket");
	tc_close(c);
	port = saved;
	ok("web-listen: the board and its WebSocket for any ALPN, the page's own origin allowed");
}

/* Never reading while asking for far more than the output cap. */
static void
test_slow_reader(struct daemon *d2)
{
	int saved = port;
	port = d2->port;
	struct tc *c = ws_open("slow", 1);
	port = saved;
	REQUIRE(c && ws_expect(c, "* SERVER", 3000), "slow reader: no WebSocket");
	static unsigned char frames[60000 * 80];
	size_t n = 0;
	for (int i = 0; i < 60000; i++) {
		char line[80];
		int len = snprintf(line, sizeof line, "PING %048d", i);
		n += wsf_encode(frames + n, 1, WS_TEXT, line, (size_t)len);
	}
	tc_send_raw(c, frames, n);
	CHECK(daemon_wait_log(d2, "output queue over the cap", 0, 8000),
	    "WebSocket slow reader not dropped (log %s)", d2->log);
	tc_close(c);
	ok("a WebSocket reader that does not read is dropped at the output cap");
}

/* Issue 41, L5: HTTP connections count against the per-address cap, as
 * the protocol's do: with max-per-address 2, two kept-alive connections
 * are served and a third gets 503 for a file, not the file. */
static void
test_http_cap(const struct daemon *d3)
{
	static const char get[] = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
	int saved = port;
	struct http_resp r;
	port = d3->port;
	struct tc *a = http_open(), *b = http_open();
	CHECK(a && b, "two HTTP connections");
	for (struct tc *c = a; c; c = c == a ? b : NULL) {
		tc_send_raw(c, get, sizeof get - 1);
		CHECK(http_read_resp(c, &r, 0) == 0 && r.status == 200, "a file within the cap: %d",
		    r.status);
	}
	struct tc *x = http_open();
	CHECK(x, "a third connection is accepted (to be refused)");
	if (x) {
		tc_send_raw(x, get, sizeof get - 1);
		r.status = 0;
		CHECK(http_read_resp(x, &r, 0) == 0 && r.status == 503,
		    "a file over the per-address cap: %d, not 503", r.status);
		tc_close(x);
	}
	tc_close(a);
	tc_close(b);
	port = saved;
	ok("HTTP connections count against max-per-address: the third is 503");
}

int
main(void)
{
	struct daemon d, d2, d3;
	tc_verbose = getenv("TC_VERBOSE") != NULL;
	signal(SIGPIPE, SIG_IGN);
	srand(24);
	if (daemon_start(&d, GOMOKUD_BIN,
		"handshake-timeout 1\nweb-origins https://friend.example "
		"https://other.example\nweb-listen 127.0.0.1:0\n")) {
		fprintf(stderr, "cannot start %s\n", GOMOKUD_BIN);
		return 1;
	}
	port = d.port;
	printf("gomokud %s on 127.0.0.1:%d, log %s\n", GOMOKUD_BIN, port, d.log);
	test_alpn();
	test_static();
	test_handshake();
	test_mixed_game();
	test_frames();
	test_limits_resume();
	test_forbidden();
	test_web_listen(&d);
	if (daemon_start(&d2, GOMOKUD_BIN,
		"output-queue-kib 16\nrate-burst 100000\nrate-per-second 100000\n") == 0) {
		test_slow_reader(&d2);
		CHECK(daemon_stop(&d2, SIGTERM, 5000) == 0, "second daemon's exit (%s)", d2.log);
	} else {
		CHECK(0, "cannot start the second daemon");
	}
	if (daemon_start(&d3, GOMOKUD_BIN, "max-per-address 2\n") == 0) {
		test_http_cap(&d3);
		CHECK(daemon_stop(&d3, SIGTERM, 5000) == 0, "third daemon's exit (%s)", d3.log);
	} else {
		CHECK(0, "cannot start the third daemon");
	}
	int st = daemon_stop(&d, SIGTERM, 5000);
	CHECK(st == 0, "daemon exit status %d (see %s)", st, d.log);
	if (failures) {
		fprintf(stderr, "%d failures; daemon log: %s\n", failures, d.log);
		return 1;
	}
	char cmd[512];
	snprintf(cmd, sizeof cmd, "rm -rf %s %s %s", d.dir, d2.dir, d3.dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", d.dir);
	return 0;
}
