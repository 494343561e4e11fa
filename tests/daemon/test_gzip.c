/*
 * test_gzip.c: the web board's files compressed (issue 44, item 7) and
 * the files that make it installable (item 6), from a raw TLS client on
 * the real gomokud:
 *   - Accept-Encoding read as RFC 9110 says: gzip (or x-gzip, or "*") with
 *     a q above 0 gets the gzip copy with Content-Encoding: gzip; no
 *     header, q=0, other codings, a malformed q get the file as it is;
 *     two header lines join; one over its room is refused (431) as any
 *     kept header is;
 *   - Vary: Accept-Encoding on every answer (200 and 304, with and without
 *     a gzip copy); an ETag per encoding, each answered 304 by
 *     If-None-Match (also weak, in a list, "*"), never the other's;
 *   - every file's gzip copy, unzipped here with zlib, is its identity
 *     body byte for byte; HEAD gives the headers of GET without a body;
 *   - /sw.js at the root with no-cache, naming its build and every hashed
 *     file of index.html; the manifest and its PNG icons with their types;
 *     the CSP allows the worker and the manifest;
 *   - prints the bytes of a first load (index.html and every file the
 *     worker precaches) as they are and gzipped (docs/development.md).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <zlib.h>

#include "tests/daemon/check.h"
#include "tests/daemon/httpresp.h"
#include "tests/daemon/tclient.h"

static int port;
static const unsigned char alpn_http[] = "\x08http/1.1";

/* Whether the header is there with exactly value. */
static int
has(const struct http_resp *r, const char *name, const char *value)
{
	char v[1024];
	return http_header(r, name, v, sizeof v) && strcmp(v, value) == 0;
}

/* One request (method, path, extra header lines ending in \r\n) on a new
 * connection; the response in r (its body by Content-Length, none for
 * HEAD, nor for a 304). 0 or -1. */
static int
request(const char *method, const char *path, const char *extra, struct http_resp *r)
{
	struct tc *c = tc_open_alpn(port, alpn_http, sizeof alpn_http - 1, 0);
	if (!c)
		return -1;
	char req[2048];
	snprintf(req, sizeof req, "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\n%s\r\n", method, path,
	    extra ? extra : "");
	tc_send_raw(c, req, strlen(req));
	int rc = http_read_resp(c, r, strcmp(method, "HEAD") == 0);
	tc_close(c);
	return rc;
}

/* in gunzipped into out (cap bytes): its length, or -1. */
static long
gunzip(const unsigned char *in, size_t n, unsigned char *out, size_t cap)
{
	z_stream z;
	memset(&z, 0, sizeof z);
	if (inflateInit2(&z, 15 + 16) != Z_OK) /* a gzip wrapper only */
		return -1;
	z.next_in = (unsigned char *)in;
	z.avail_in = (uInt)n;
	z.next_out = out;
	z.avail_out = (uInt)cap;
	int rc = inflate(&z, Z_FINISH);
	long len = rc == Z_STREAM_END && z.avail_in == 0 ? (long)(cap - z.avail_out) : -1;
	inflateEnd(&z);
	return len;
}

/* Whether a request with this Accept-Encoding gets the gzip copy of path
 * (1), the file as it is (0), or something else (-1). */
static int
gets_gzip(const char *path, const char *accept)
{
	static struct http_resp r;
	char extra[600];
	snprintf(extra, sizeof extra, "%s%s%s", accept ? "Accept-Encoding: " : "",
	    accept ? accept : "", accept ? "\r\n" : "");
	if (request("GET", path, extra, &r) || r.status != 200 ||
	    !has(&r, "Vary", "Accept-Encoding"))
		return -1;
	char v[64];
	if (!http_header(&r, "Content-Encoding", v, sizeof v))
		return 0;
	return strcmp(v, "gzip") == 0 && r.blen > 2 && r.body[0] == 0x1f && r.body[1] == 0x8b ? 1
											      : -1;
}

static char prefix[64]; /* "/s/<hash>/", from index.html */

static void
test_accept_encoding(void)
{
	static const struct {
		const char *accept; /* NULL: no header */
		int gzip;
	} cases[] = {
		{ NULL, 0 },
		{ "gzip", 1 },
		{ "gzip, deflate, br, zstd", 1 }, /* Chromium's */
		{ "x-gzip", 1 },
		{ "GZIP;Q=0.5", 1 },
		{ "br;q=1.0, gzip;q=0.001", 1 },
		{ "*", 1 },
		{ " deflate ,\t* ; q=0.3", 1 },
		{ "gzip;q=0", 0 },
		{ "gzip; q=0.000", 0 },
		{ "gzip;q=0, *", 0 }, /* gzip named: "*" does not speak for it */
		{ "*;q=0", 0 },
		{ "deflate, br", 0 },
		{ "identity", 0 },
		{ "", 0 },
		{ "gzip;q=abc", 0 }, /* not a qvalue: left out */
		{ "gzip;q=1.5", 0 },
		{ "gzip;q=0.0001", 0 },
		{ "gzipper", 0 },
		{ "br, gzip;q=0, *;q=1", 0 },
	};
	char path[128];
	snprintf(path, sizeof path, "%sapp.js", prefix);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		int got = gets_gzip(path, cases[i].accept);
		CHECK(got == cases[i].gzip, "Accept-Encoding %s%s%s: %s",
		    cases[i].accept ? "\"" : "", cases[i].accept ? cases[i].accept : "absent",
		    cases[i].accept ? "\"" : "",
		    got < 0   ? "a wrong answer"
			: got ? "gzip"
			      : "identity");
	}
	struct http_resp r;
	/* two lines are one list */
	CHECK(request("GET", path, "Accept-Encoding: br\r\nAccept-Encoding: gzip\r\n", &r) == 0 &&
		has(&r, "Content-Encoding", "gzip"),
	    "two Accept-Encoding lines: not gzip (%d)", r.status);
	/* over its room (256 bytes) the header is refused like any kept one:
	 * cut short, "gzip;q=0" could have read as "gzip" */
	char big[700];
	int n = snprintf(big, sizeof big, "Accept-Encoding: ");
	for (int i = 0; i < 63; i++)
		n += snprintf(big + n, sizeof big - (size_t)n, "br, ");
	snprintf(big + n, sizeof big - (size_t)n, "gzip;q=0\r\n");
	CHECK(request("GET", path, big, &r) == 0 && r.status == 431,
	    "a 260-byte Accept-Encoding: %d", r.status);
	/* two lines of 130 bytes each fit, joined they do not */
	n = 0;
	for (int line = 0; line < 2; line++) {
		n += snprintf(big + n, sizeof big - (size_t)n, "Accept-Encoding: ");
		for (int i = 0; i < 32; i++)
			n += snprintf(big + n, sizeof big - (size_t)n, "br, ");
		n += snprintf(big + n, sizeof big - (size_t)n, "gz\r\n");
	}
	CHECK(request("GET", path, big, &r) == 0 && r.status == 431,
	    "two Accept-Encoding lines over the room together: %d", r.status);
	CHECK(request("GET", path, big + n / 2, &r) == 0 && r.status == 200,
	    "one of those lines alone: %d", r.status);
	ok("Accept-Encoding: gzip, x-gzip and * by their q (q=0 refuses, a named gzip over *), "
	   "absent or other codings get the file as it is, lines join, 431 over 256 bytes");
}

/* path in both encodings: Vary, two ETags, 304 for each and not across,
 * the gunzipped body equal to the file. Adds the bytes to *plain, *gz. */
static void
check_file(const char *path, size_t *plain, size_t *gz, int *with_gz)
{
	static struct http_resp id, z, r;
	static unsigned char un[262144];
	char etag[80], gzetag[80], extra[256], v[80];
	REQUIRE(request("GET", path, NULL, &id) == 0 && id.status == 200, "GET %s: %d", path,
	    id.status);
	REQUIRE(request("GET", path, "Accept-Encoding: gzip\r\n", &z) == 0 && z.status == 200,
	    "GET %s gzip: %d", path, z.status);
	CHECK(has(&id, "Vary", "Accept-Encoding") && has(&z, "Vary", "Accept-Encoding"),
	    "%s: no Vary: Accept-Encoding", path);
	CHECK(!http_header(&id, "Content-Encoding", v, sizeof v), "%s: encoded unasked (%s)", path,
	    v);
	REQUIRE(http_header(&id, "ETag", etag, sizeof etag) &&
		http_header(&z, "ETag", gzetag, sizeof gzetag),
	    "%s: no ETag", path);
	*plain += id.blen;
	if (!http_header(&z, "Content-Encoding", v, sizeof v)) {
		/* no gzip copy (it would not be smaller): the same file, the same tag */
		CHECK(strcmp(etag, gzetag) == 0 && z.blen == id.blen &&
			memcmp(z.body, id.body, id.blen) == 0,
		    "%s: gzip asked, no gzip copy, yet another answer", path);
		*gz += id.blen;
	} else {
		(*with_gz)++;
		CHECK(strcmp(v, "gzip") == 0, "%s: Content-Encoding %s", path, v);
		CHECK(z.blen < id.blen, "%s: gzip %zu bytes, not smaller than %zu", path, z.blen,
		    id.blen);
		long n = gunzip(z.body, z.blen, un, sizeof un);
		CHECK(n == (long)id.blen && memcmp(un, id.body, id.blen) == 0,
		    "%s: gunzipped (%ld bytes) is not the file (%zu)", path, n, id.blen);
		size_t el = strlen(etag);
		CHECK(strcmp(etag, gzetag) != 0 && strlen(gzetag) == el + 3 &&
			strncmp(gzetag, etag, el - 1) == 0 && strcmp(gzetag + el - 1, "-gz\"") == 0,
		    "%s: ETags %s and %s", path, etag, gzetag);
		*gz += z.blen;
		/* each copy's tag revalidates only that copy */
		snprintf(
		    extra, sizeof extra, "If-None-Match: %s\r\nAccept-Encoding: gzip\r\n", etag);
		CHECK(request("GET", path, extra, &r) == 0 && r.status == 200 &&
			has(&r, "Content-Encoding", "gzip") && has(&r, "ETag", gzetag),
		    "%s: the identity tag revalidated the gzip copy: %d", path, r.status);
		snprintf(extra, sizeof extra, "If-None-Match: %s\r\n", gzetag);
		CHECK(request("GET", path, extra, &r) == 0 && r.status == 200 &&
			!http_header(&r, "Content-Encoding", v, sizeof v) && has(&r, "ETag", etag),
		    "%s: the gzip tag revalidated the file as it is: %d", path, r.status);
		snprintf(extra, sizeof extra,
		    "If-None-Match: \"0\", W/%s\r\nAccept-Encoding: deflate, gzip\r\n", gzetag);
		CHECK(request("GET", path, extra, &r) == 0 && r.status == 304 && r.blen == 0 &&
			has(&r, "ETag", gzetag) && has(&r, "Vary", "Accept-Encoding"),
		    "%s: a weak gzip tag in a list: %d", path, r.status);
	}
	snprintf(extra, sizeof extra, "If-None-Match: %s\r\n", etag);
	CHECK(request("GET", path, extra, &r) == 0 && r.status == 304 && r.blen == 0 &&
		has(&r, "ETag", etag) && has(&r, "Vary", "Accept-Encoding"),
	    "%s: 304 for the identity tag: %d", path, r.status);
	snprintf(extra, sizeof extra, "If-None-Match: %s\r\nAccept-Encoding: gzip\r\n", gzetag);
	CHECK(request("GET", path, extra, &r) == 0 && r.status == 304 && r.blen == 0 &&
		has(&r, "ETag", gzetag) && has(&r, "Vary", "Accept-Encoding"),
	    "%s: 304 for the gzip tag: %d", path, r.status);
	CHECK(request("GET", path, "If-None-Match: *\r\n", &r) == 0 && r.status == 304,
	    "%s: If-None-Match * %d", path, r.status);
	/* HEAD: GET's headers, no body */
	CHECK(request("HEAD", path, "Accept-Encoding: gzip\r\n", &r) == 0 && r.status == 200 &&
		http_header(&r, "Content-Length", v, sizeof v) && (size_t)atol(v) == z.blen &&
		has(&r, "ETag", gzetag) && has(&r, "Vary", "Accept-Encoding"),
	    "%s: HEAD with gzip: %d", path, r.status);
	CHECK(request("HEAD", path, NULL, &r) == 0 && r.status == 200 &&
		http_header(&r, "Content-Length", v, sizeof v) && (size_t)atol(v) == id.blen &&
		!http_header(&r, "Content-Encoding", v, sizeof v),
	    "%s: HEAD: %d", path, r.status);
}

static void
test_files(void)
{
	static struct http_resp idx, sw, r;
	REQUIRE(request("GET", "/", NULL, &idx) == 0 && idx.status == 200, "GET /: %d", idx.status);
	const char *s = strstr((char *)idx.body, "\"/s/");
	REQUIRE(
	    s && sscanf(s + 1, "%23[^\"]", prefix) == 1 && strlen(prefix) > 20 && prefix[19] == '/',
	    "index.html names no /s/<hash>/");
	prefix[20] = '\0';
	char v[1024];
	CHECK(http_header(&idx, "Content-Security-Policy", v, sizeof v) &&
		strstr(v, "; worker-src 'self';") && strstr(v, "; manifest-src 'self';"),
	    "CSP: %s", v);

	/* the worker: at the root, revalidated on every use, its build named */
	REQUIRE(request("GET", "/sw.js", NULL, &sw) == 0 && sw.status == 200, "GET /sw.js: %d",
	    sw.status);
	CHECK(has(&sw, "Cache-Control", "no-cache") &&
		has(&sw, "Content-Type", "text/javascript; charset=utf-8"),
	    "/sw.js headers:\n%s", sw.head);
	char build[40];
	snprintf(build, sizeof build, "'%.16s'", prefix + 3);
	CHECK(strstr((char *)sw.body, build) && !strstr((char *)sw.body, "@BUILD@") &&
		!strstr((char *)sw.body, "@ASSETS@"),
	    "/sw.js does not name its build %s", build);
	/* every hashed file index.html names is precached */
	int named = 0;
	for (const char *p = (char *)idx.body; (p = strstr(p, "=\"/s/")) != NULL; p += 5) {
		char path[128], quoted[140];
		if (sscanf(p + 2, "%127[^\"]", path) != 1)
			continue;
		snprintf(quoted, sizeof quoted, "'%s'", path);
		CHECK(strstr((char *)sw.body, quoted), "/sw.js does not precache %s", path);
		named++;
	}
	CHECK(named >= 4, "index.html names %d hashed files", named);

	/* the manifest and its icons */
	char path[128];
	snprintf(path, sizeof path, "%smanifest.webmanifest", prefix);
	CHECK(strstr((char *)idx.body, path) && strstr((char *)idx.body, "rel=\"manifest\""),
	    "index.html does not link %s", path);
	CHECK(request("GET", path, NULL, &r) == 0 && r.status == 200 &&
		has(&r, "Content-Type", "application/manifest+json"),
	    "GET %s: %d %s", path, r.status, r.head);
	static const char *const icons[][2] = {
		{ "icon-192.png", "image/png" },
		{ "icon-512.png", "image/png" },
		{ "favicon.svg", "image/svg+xml" },
	};
	for (size_t i = 0; i < sizeof icons / sizeof icons[0]; i++) {
		snprintf(path, sizeof path, "%s%s", prefix, icons[i][0]);
		CHECK(request("GET", path, NULL, &r) == 0 && r.status == 200 &&
			has(&r, "Content-Type", icons[i][1]),
		    "GET %s: %d", path, r.status);
		if (strcmp(icons[i][1], "image/png") == 0) /* the PNG signature, and IHDR's size */
			CHECK(r.blen > 24 && memcmp(r.body, "\x89PNG\r\n\x1a\n", 8) == 0 &&
				(r.body[18] << 8 | r.body[19]) == atoi(icons[i][0] + 5) &&
				(r.body[22] << 8 | r.body[23]) == atoi(icons[i][0] + 5),
			    "%s is not a %d px PNG", path, atoi(icons[i][0] + 5));
	}
	ok("/sw.js at the root (no-cache) names its build and precaches every hashed file "
	   "of index.html; the manifest and PNG icons with their types; CSP worker-src, "
	   "manifest-src");

	/* every file of a first load, both ways: the page, the worker, and what
	 * the worker precaches (everything the page can ask for) */
	size_t plain = 0, gz = 0;
	int files = 0, with_gz = 0;
	check_file("/", &plain, &gz, &with_gz);
	check_file("/sw.js", &plain, &gz, &with_gz);
	files += 2;
	const char *list = strstr((char *)sw.body, "const ASSETS = [");
	REQUIRE(list, "/sw.js has no ASSETS list");
	for (const char *p = list; (p = strstr(p, "'/s/")) != NULL && p < strchr(list, ']');) {
		if (sscanf(p + 1, "%127[^']", path) != 1)
			break;
		check_file(path, &plain, &gz, &with_gz);
		files++;
		p += strlen(path) + 2;
	}
	CHECK(with_gz >= 8, "only %d of %d files have a gzip copy", with_gz, files);
	printf("first load: index.html, sw.js and the %d files it precaches: %zu bytes as they "
	       "are, %zu gzipped (%d with a gzip copy)\n",
	    files - 2, plain, gz, with_gz);
	ok("every file of a first load: Vary, an ETag per encoding, 304 for each and not "
	   "across, weak and listed tags, *, HEAD; the gzip copies unzip to the files");
}

int
main(void)
{
	struct daemon d;
	tc_verbose = getenv("TC_VERBOSE") != NULL;
	signal(SIGPIPE, SIG_IGN);
	if (daemon_start(&d, GOMOKUD_BIN, "")) {
		fprintf(stderr, "cannot start %s\n", GOMOKUD_BIN);
		return 1;
	}
	port = d.port;
	printf("gomokud %s on 127.0.0.1:%d, log %s\n", GOMOKUD_BIN, port, d.log);
	test_files();
	test_accept_encoding();
	int st = daemon_stop(&d, SIGTERM, 5000);
	CHECK(st == 0, "daemon exit status %d (see %s)", st, d.log);
	if (failures) {
		fprintf(stderr, "%d failures; daemon log: %s\n", failures, d.log);
		return 1;
	}
	char cmd[256];
	snprintf(cmd, sizeof cmd, "rm -rf %s", d.dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", d.dir);
	return 0;
}
