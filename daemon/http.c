/* http.c: HTTP requests through libhttp-parser, static files and the
 * WebSocket handshake's checks (see http.h). */
#include "daemon/http.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <event2/buffer.h>
#include <openssl/evp.h>

#include "daemon/webfiles.h"

static struct http_req *
req_of(http_parser *p)
{
	return (struct http_req *)p->data;
}

static int
on_begin(http_parser *p)
{
	req_of(p)->started = 1;
	return 0;
}

static int
on_url(http_parser *p, const char *at, size_t n)
{
	struct http_req *r = req_of(p);
	if (r->urllen + n >= sizeof r->url) {
		r->status = 414;
		return -1;
	}
	memcpy(r->url + r->urllen, at, n);
	r->urllen += n;
	r->url[r->urllen] = '\0';
	return 0;
}

static int
on_field(http_parser *p, const char *at, size_t n)
{
	struct http_req *r = req_of(p);
	if (r->in_value) {
		r->in_value = 0;
		r->fieldlen = 0;
		r->field[0] = '\0';
	}
	for (size_t i = 0; i < n; i++) {
		if (r->fieldlen + 1 >= sizeof r->field) {
			r->field[0] = '\0'; /* too long for a header we keep */
			r->fieldlen = sizeof r->field;
			return 0;
		}
		r->field[r->fieldlen++] = (char)tolower((unsigned char)at[i]);
		r->field[r->fieldlen] = '\0';
	}
	return 0;
}

/* The buffer a kept header's value goes to, or NULL. */
static char *
target(struct http_req *r, size_t *cap, int *list)
{
	static const struct {
		const char *name;
		size_t off, cap;
		int list; /* a list: its lines join with ", " (RFC 9110 5.3) */
	} kept[] = {
		{ "host", offsetof(struct http_req, host), sizeof r->host, 0 },
		{ "origin", offsetof(struct http_req, origin), sizeof r->origin, 0 },
		{ "upgrade", offsetof(struct http_req, upgrade), sizeof r->upgrade, 0 },
		{ "connection", offsetof(struct http_req, connection), sizeof r->connection, 0 },
		{ "sec-websocket-key", offsetof(struct http_req, key), sizeof r->key, 0 },
		{ "sec-websocket-version", offsetof(struct http_req, version), sizeof r->version,
		    0 },
		{ "if-none-match", offsetof(struct http_req, inm), sizeof r->inm, 0 },
		{ "accept-encoding", offsetof(struct http_req, accept_enc), sizeof r->accept_enc,
		    1 },
	};
	for (size_t i = 0; i < sizeof kept / sizeof kept[0]; i++)
		if (strcmp(r->field, kept[i].name) == 0) {
			*cap = kept[i].cap;
			*list = kept[i].list;
			return (char *)r + kept[i].off;
		}
	return NULL;
}

/* Appends n bytes to a kept header's value: 0, or -1 past its room. */
static int
append(struct http_req *r, const char *at, size_t n)
{
	size_t have = strlen(r->value);
	if (have + n >= r->valcap)
		return -1;
	memcpy(r->value + have, at, n);
	r->value[have + n] = '\0';
	return 0;
}

static int
on_value(http_parser *p, const char *at, size_t n)
{
	struct http_req *r = req_of(p);
	if (!r->in_value) {
		int list = 0;
		r->in_value = 1;
		r->value = target(r, &r->valcap, &list);
		if (r->value && r->value[0] && !list) { /* a kept header twice */
			r->status = 400;
			return -1;
		}
		if (r->value && r->value[0] && append(r, ", ", 2)) {
			r->status = 431;
			return -1;
		}
	}
	if (r->value && append(r, at, n)) { /* a kept header over its room */
		r->status = 431;
		return -1;
	}
	return 0;
}

static int
on_headers(http_parser *p)
{
	struct http_req *r = req_of(p);
	/* HTTP/1.1 requires Host (RFC 9112 section 3.2) */
	if (p->http_major == 1 && p->http_minor >= 1 && !r->host[0]) {
		r->status = 400;
		return -1;
	}
	/* no request we serve has a body */
	if ((p->flags & F_CHUNKED) || (p->content_length > 0 && p->content_length != ULLONG_MAX)) {
		r->status = 413;
		return -1;
	}
	return 0;
}

static int
on_complete(http_parser *p)
{
	req_of(p)->complete = 1;
	http_parser_pause(p, 1); /* one request at a time */
	return 0;
}

static const http_parser_settings settings = {
	.on_message_begin = on_begin,
	.on_url = on_url,
	.on_header_field = on_field,
	.on_header_value = on_value,
	.on_headers_complete = on_headers,
	.on_message_complete = on_complete,
};

void
http_req_init(struct http_req *r)
{
	memset(r, 0, sizeof *r);
	http_parser_init(&r->p, HTTP_REQUEST);
	r->p.data = r;
}

size_t
http_req_feed(struct http_req *r, const char *buf, size_t n)
{
	if (r->status || r->complete)
		return 0;
	size_t room = HTTP_HEADERS_MAX - r->head_bytes;
	size_t take = n < room ? n : room;
	size_t used = http_parser_execute(&r->p, &settings, buf, take);
	r->head_bytes += used;
	if (r->complete || r->status)
		return used;
	enum http_errno e = HTTP_PARSER_ERRNO(&r->p);
	if (e != HPE_OK && e != HPE_PAUSED) {
		r->status = e == HPE_HEADER_OVERFLOW ? 431 : 400;
		return used;
	}
	if (r->p.upgrade) { /* execute stops after an upgrade's headers */
		r->complete = 1;
		return used;
	}
	if (r->head_bytes >= HTTP_HEADERS_MAX)
		r->status = r->urllen + 16 >= HTTP_HEADERS_MAX ? 414 : 431;
	return used;
}

/* The path without its query. */
static size_t
path_len(const struct http_req *r)
{
	return strcspn(r->url, "?");
}

int
http_wants_ws(const struct http_req *r)
{
	return path_len(r) == 3 && memcmp(r->url, "/ws", 3) == 0;
}

/* Whether a comma-separated header value holds token (any case). */
static int
has_token(const char *v, const char *token)
{
	size_t tl = strlen(token);
	while (*v) {
		v += strspn(v, " \t,");
		size_t n = strcspn(v, ",");
		size_t e = n;
		while (e > 0 && (v[e - 1] == ' ' || v[e - 1] == '\t'))
			e--;
		if (e == tl && strncasecmp(v, token, tl) == 0)
			return 1;
		v += n;
	}
	return 0;
}

/* Whether key is the base64 of 16 bytes (24 characters, "==" last). */
static int
key_ok(const char *key)
{
	unsigned char out[32];
	if (strlen(key) != 24 || strcmp(key + 22, "==") != 0)
		return 0;
	for (int i = 0; i < 22; i++)
		if (!isalnum((unsigned char)key[i]) && key[i] != '+' && key[i] != '/')
			return 0;
	return EVP_DecodeBlock(out, (const unsigned char *)key, 24) == 18;
}

static int
origin_ok(const struct http_req *r, const char *origins)
{
	if (!r->origin[0]) /* not a browser: no page of another site can be behind it */
		return 1;
	char served[300];
	snprintf(served, sizeof served, "https://%s", r->host);
	if (r->host[0] && strcmp(r->origin, served) == 0)
		return 1;
	size_t ol = strlen(r->origin);
	for (const char *o = origins; *o;) {
		o += strspn(o, " ");
		size_t n = strcspn(o, " ");
		if (n && n == ol && memcmp(o, r->origin, n) == 0)
			return 1;
		o += n;
	}
	return 0;
}

int
http_ws_check(const struct http_req *r, const char *origins)
{
	if (r->p.method != HTTP_GET)
		return 405;
	if (!has_token(r->upgrade, "websocket") || !has_token(r->connection, "upgrade") ||
	    r->p.http_major != 1 || r->p.http_minor < 1 || !r->host[0])
		return 400;
	if (strcmp(r->version, "13") != 0)
		return 426;
	if (!key_ok(r->key))
		return 400;
	if (!origin_ok(r, origins))
		return 403;
	return 0;
}

void
http_ws_accept(struct evbuffer *out, const struct http_req *r)
{
	static const char guid[] = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
	char in[128];
	unsigned char md[EVP_MAX_MD_SIZE], b64[64];
	unsigned mdlen = 0;
	int n = snprintf(in, sizeof in, "%s%s", r->key, guid);
	EVP_Digest(in, (size_t)n, md, &mdlen, EVP_sha1(), NULL);
	EVP_EncodeBlock(b64, md, (int)mdlen);
	evbuffer_add_printf(out,
	    "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
	    "Sec-WebSocket-Accept: %s\r\n\r\n",
	    b64);
}

static const char *
reason(int status)
{
	switch (status) {
	case 200:
		return "OK";
	case 304:
		return "Not Modified";
	case 400:
		return "Bad Request";
	case 403:
		return "Forbidden";
	case 404:
		return "Not Found";
	case 405:
		return "Method Not Allowed";
	case 408:
		return "Request Timeout";
	case 413:
		return "Content Too Large";
	case 414:
		return "URI Too Long";
	case 426:
		return "Upgrade Required";
	case 431:
		return "Request Header Fields Too Large";
	case 500:
		return "Internal Server Error";
	case 503:
		return "Service Unavailable";
	default:
		return "Error";
	}
}

/* The wss:// origins a page may open besides its own: one for each
 * https:// origin of web-origins (the other nodes of a cluster, which
 * * MOVED may send the page to), into buf; other tokens are left out. */
static void
connect_sources(const char *origins, char *buf, size_t cap)
{
	size_t n = 0;
	buf[0] = '\0';
	for (const char *p = origins ? origins : ""; *p;) {
		size_t len = strcspn(p, " ");
		int fine = len > 8 && strncmp(p, "https://", 8) == 0;
		for (size_t i = 8; fine && i < len; i++)
			fine = isalnum((unsigned char)p[i]) || strchr(".-:[]", p[i]);
		if (fine && n + len + 2 < cap)
			n += (size_t)snprintf(
			    buf + n, cap - n, " wss://%.*s", (int)(len - 8), p + 8);
		p += len;
		p += strspn(p, " ");
	}
}

/* The headers every answer carries; origins as for connect_sources. */
static void
common(struct evbuffer *out, int status, const char *origins)
{
	char wss[512];
	connect_sources(origins, wss, sizeof wss);
	evbuffer_add_printf(out,
	    "HTTP/1.1 %d %s\r\nServer: gomokud\r\nX-Content-Type-Options: nosniff\r\n"
	    "X-Frame-Options: DENY\r\nReferrer-Policy: no-referrer\r\n"
	    "Content-Security-Policy: default-src 'none'; script-src 'self'; style-src 'self'; "
	    "img-src 'self' data:; connect-src 'self'%s; manifest-src 'self'; worker-src 'self'; "
	    "base-uri 'none'; "
	    "form-action 'none'; frame-ancestors 'none'\r\n",
	    status, reason(status), wss);
}

void
http_error(struct evbuffer *out, int status)
{
	char body[80];
	int n = snprintf(body, sizeof body, "%d %s\n", status, reason(status));
	common(out, status, NULL);
	if (status == 426)
		evbuffer_add_printf(out, "Sec-WebSocket-Version: 13\r\n");
	if (status == 405)
		evbuffer_add_printf(out, "Allow: GET, HEAD\r\n");
	evbuffer_add_printf(out,
	    "Content-Type: text/plain; charset=utf-8\r\nContent-Length: %d\r\n"
	    "Cache-Control: no-store\r\nConnection: close\r\n\r\n%s",
	    n, body);
}

/* The next element of a comma-separated list from *p: its token (up to ';',
 * spaces trimmed) in tok, its parameters in params; 0 at the end. */
static int
element(const char **p, const char **tok, size_t *toklen, const char **params, size_t *plen)
{
	const char *s = *p + strspn(*p, " \t,");
	if (!*s)
		return 0;
	size_t n = strcspn(s, ",");
	size_t t = strcspn(s, ";");
	if (t > n)
		t = n;
	*tok = s;
	*toklen = t;
	while (*toklen && (s[*toklen - 1] == ' ' || s[*toklen - 1] == '\t'))
		(*toklen)--;
	*params = s + t;
	*plen = n - t;
	*p = s + n;
	return 1;
}

/* The q of an element's parameters in thousandths (RFC 9110 12.4.2): 1000
 * when there is none, -1 when it is not a qvalue (the element is then
 * left out). */
static int
qvalue(const char *params, size_t n)
{
	int q = 1000;
	for (size_t i = 0; i < n;) {
		i += strspn(params + i, " \t;");
		size_t len = 0;
		while (i + len < n && params[i + len] != ';')
			len++;
		const char *a = params + i;
		if (len >= 2 && (a[0] == 'q' || a[0] == 'Q') && a[1] == '=') {
			size_t k = 2, e = len;
			while (e > k && (a[e - 1] == ' ' || a[e - 1] == '\t'))
				e--;
			if (k == e || (a[k] != '0' && a[k] != '1'))
				return -1;
			q = (a[k++] - '0') * 1000;
			if (k < e && a[k++] != '.')
				return -1;
			for (int scale = 100; k < e; k++, scale /= 10) {
				if (scale == 0 || !isdigit((unsigned char)a[k]))
					return -1;
				q += (a[k] - '0') * scale;
			}
			if (q > 1000)
				return -1;
		}
		i += len;
	}
	return q;
}

int
http_takes_gzip(const char *v)
{
	int gzip = -1, star = -1; /* their q, -1 while unnamed */
	const char *tok, *params;
	size_t tl, pl;
	while (element(&v, &tok, &tl, &params, &pl)) {
		int q = qvalue(params, pl);
		if ((tl == 4 && strncasecmp(tok, "gzip", 4) == 0) ||
		    (tl == 6 && strncasecmp(tok, "x-gzip", 6) == 0))
			gzip = q > gzip ? q : gzip;
		else if (tl == 1 && tok[0] == '*')
			star = q > star ? q : star;
	}
	return gzip >= 0 ? gzip > 0 : star > 0;
}

/* Whether If-None-Match names etag (weakly compared, RFC 9110 13.1.2), or
 * is "*". */
static int
etag_match(const char *inm, const char *etag)
{
	const char *tok, *params;
	size_t tl, pl, el = strlen(etag);
	while (element(&inm, &tok, &tl, &params, &pl)) {
		tl += pl; /* an entity tag has no parameters: ';' is part of it */
		while (tl && (tok[tl - 1] == ' ' || tok[tl - 1] == '\t'))
			tl--;
		if (tl == 1 && tok[0] == '*')
			return 1;
		if (tl > 2 && tok[0] == 'W' && tok[1] == '/') {
			tok += 2;
			tl -= 2;
		}
		if (tl == el && memcmp(tok, etag, el) == 0)
			return 1;
	}
	return 0;
}

int
http_static(struct evbuffer *out, const struct http_req *r, const char *origins)
{
	int head = r->p.method == HTTP_HEAD;
	if (r->p.method != HTTP_GET && !head) {
		http_error(out, 405);
		return 0;
	}
	size_t pl = path_len(r);
	const struct webfile *f = webfiles;
	for (; f->path; f++)
		if (strlen(f->path) == pl && memcmp(f->path, r->url, pl) == 0)
			break;
	if (!f->path) {
		http_error(out, 404);
		return 0;
	}
	int keep = http_should_keep_alive(&r->p);
	int gz = f->gz && http_takes_gzip(r->accept_enc);
	const char *etag = gz ? f->gzetag : f->etag;
	const unsigned char *data = gz ? f->gz : f->data;
	size_t len = gz ? f->gzlen : f->len;
	int fresh = r->inm[0] && etag_match(r->inm, etag);
	common(out, fresh ? 304 : 200, origins);
	/* Vary on every answer, with a gzip copy or not: a cache keeps what
	 * this client was given apart from what another is */
	evbuffer_add_printf(out, "ETag: %s\r\nCache-Control: %s\r\nVary: Accept-Encoding\r\n", etag,
	    f->immutable ? "public, max-age=31536000, immutable" : "no-cache");
	if (!fresh)
		evbuffer_add_printf(out, "Content-Type: %s\r\n%sContent-Length: %zu\r\n", f->type,
		    gz ? "Content-Encoding: gzip\r\n" : "", len);
	evbuffer_add_printf(out, "%s\r\n", keep ? "" : "Connection: close\r\n");
	if (!fresh && !head)
		evbuffer_add_reference(out, data, len, NULL, NULL);
	return keep;
}
