/*
 * test_metrics: GET /metrics on the real bin/gomokud (metrics-listen
 * 127.0.0.1:0). Each scrape goes through a strict parser of the Prometheus
 * text format 0.0.4 written here; between scrapes the test plays a game to
 * five, refuses a move, trips the rate limit and plays a bot, and checks
 * that each series moved by exactly what it did. Then the HTTP side: a wrong
 * path is 404, a POST 405, an oversized request is refused, every reply
 * closes the connection; and without metrics-listen nothing more listens.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <dirent.h>
#include <math.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include "tests/daemon/check.h"
#include "tests/daemon/tclient.h"

#ifndef GOMOKUD_BIN
#define GOMOKUD_BIN "bin/gomokud"
#endif

static struct daemon d;
static int mport;         /* the metrics listener */
static long long sent_in; /* protocol bytes the test's clients sent */

/* ---- HTTP ---- */

/* Sends req to the metrics port and reads until the server closes, within
 * 3 s. The whole answer (malloc'd, NUL-terminated) or NULL; *closed says
 * whether the server closed the connection (not the timeout). */
static char *
http_raw(const char *req, size_t reqlen, int *closed)
{
	*closed = 0;
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in sa = { 0 };
	sa.sin_family = AF_INET;
	sa.sin_port = htons((uint16_t)mport);
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	for (size_t off = 0; off < reqlen;) {
		ssize_t w = send(fd, req + off, reqlen - off, MSG_NOSIGNAL);
		if (w <= 0)
			break; /* the server may refuse early: read what it said */
		off += (size_t)w;
	}
	size_t cap = 1 << 16, len = 0;
	char *buf = malloc(cap);
	long long end = tc_now_ms() + 3000;
	while (buf) {
		int left = (int)(end - tc_now_ms());
		struct pollfd p = { fd, POLLIN, 0 };
		if (left <= 0 || poll(&p, 1, left) <= 0)
			break;
		if (len + 4096 > cap) {
			char *nb = realloc(buf, cap *= 2);
			if (!nb) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = nb;
		}
		ssize_t r = recv(fd, buf + len, cap - len - 1, 0);
		if (r <= 0) {
			*closed = 1; /* EOF, or a reset after a refusal */
			break;
		}
		len += (size_t)r;
	}
	close(fd);
	if (buf)
		buf[len] = '\0';
	return buf;
}

static char *
http(const char *req, int *closed)
{
	return http_raw(req, strlen(req), closed);
}

/* The status code of an HTTP answer, or -1. */
static int
status_of(const char *resp)
{
	int code;
	if (!resp || sscanf(resp, "HTTP/1.%*[01] %d ", &code) != 1)
		return -1;
	return code;
}

/* The value of header name (case-insensitive) into out; 0 or -1. */
static int
header(const char *resp, const char *name, char *out, size_t len)
{
	const char *end = strstr(resp, "\r\n\r\n");
	size_t nl = strlen(name);
	for (const char *l = strstr(resp, "\r\n"); l && l < end; l = strstr(l + 2, "\r\n")) {
		const char *h = l + 2;
		if (strncasecmp(h, name, nl) == 0 && h[nl] == ':') {
			h += nl + 1;
			while (*h == ' ')
				h++;
			const char *e = strstr(h, "\r\n");
			snprintf(out, len, "%.*s", (int)(e - h), h);
			return 0;
		}
	}
	return -1;
}

/* ---- the text format, strictly ---- */

enum { MAX_SAMPLES = 400, MAX_FAMILIES = 64 };

struct sample {
	char name[96];
	char labels[256]; /* as written, between the braces ("" without) */
	double value;
};

struct family {
	char name[96];
	char type[16];
	int help, typed, has_samples, closed;
};

struct scrape {
	struct sample s[MAX_SAMPLES];
	int n;
	struct family f[MAX_FAMILIES];
	int nf;
};

static int
name_ok(const char *p, size_t n, int colons)
{
	if (n == 0 || !(isalpha((unsigned char)p[0]) || p[0] == '_' || (colons && p[0] == ':')))
		return 0;
	for (size_t i = 1; i < n; i++)
		if (!(isalnum((unsigned char)p[i]) || p[i] == '_' || (colons && p[i] == ':')))
			return 0;
	return 1;
}

static struct family *
family_of(struct scrape *sc, const char *name, size_t n)
{
	for (int i = 0; i < sc->nf; i++)
		if (strlen(sc->f[i].name) == n && strncmp(sc->f[i].name, name, n) == 0)
			return &sc->f[i];
	if (sc->nf == MAX_FAMILIES || n >= sizeof sc->f[0].name)
		return NULL;
	struct family *f = &sc->f[sc->nf++];
	memset(f, 0, sizeof *f);
	memcpy(f->name, name, n);
	return f;
}

static int
ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && strcmp(s + a - b, suffix) == 0;
}

/* The family a sample name belongs to: a histogram's _bucket, _sum and
 * _count belong to it; anything else is its own name. */
static struct family *
family_of_sample(struct scrape *sc, const char *name)
{
	static const char *const parts[] = { "_bucket", "_sum", "_count" };
	for (int i = 0; i < 3; i++)
		if (ends_with(name, parts[i])) {
			size_t n = strlen(name) - strlen(parts[i]);
			for (int j = 0; j < sc->nf; j++)
				if (strlen(sc->f[j].name) == n &&
				    strncmp(sc->f[j].name, name, n) == 0 &&
				    strcmp(sc->f[j].type, "histogram") == 0)
					return &sc->f[j];
		}
	return family_of(sc, name, strlen(name));
}

/* Labels: name="value" pairs, commas between, escapes \\ \" \n only, no
 * name twice. p points after '{'; returns the char after '}' or NULL. */
static const char *
parse_labels(const char *p, char *out, size_t outlen)
{
	const char *start = p;
	char seen[8][64];
	int nseen = 0;
	if (*p == '}')
		goto done;
	for (;;) {
		const char *n = p;
		while (isalnum((unsigned char)*p) || *p == '_')
			p++;
		if (!name_ok(n, (size_t)(p - n), 0) || (size_t)(p - n) >= sizeof seen[0] ||
		    nseen == 8 || *p != '=' || p[1] != '"')
			return NULL;
		for (int i = 0; i < nseen; i++)
			if (strlen(seen[i]) == (size_t)(p - n) &&
			    strncmp(seen[i], n, (size_t)(p - n)) == 0)
				return NULL;
		snprintf(seen[nseen++], sizeof seen[0], "%.*s", (int)(p - n), n);
		p += 2;
		while (*p != '"') {
			if (*p == '\0' || *p == '\n')
				return NULL;
			if (*p == '\\') {
				if (p[1] != '\\' && p[1] != '"' && p[1] != 'n')
					return NULL;
				p++;
			}
			p++;
		}
		p++;
		if (*p == '}')
			break;
		if (*p != ',')
			return NULL;
		p++;
	}
done:
	if ((size_t)(p - start) >= outlen)
		return NULL;
	snprintf(out, outlen, "%.*s", (int)(p - start), start);
	return p + 1;
}

static int
parse_value(const char *p, size_t n, double *v)
{
	char tmp[64];
	if (n == 0 || n >= sizeof tmp)
		return -1;
	memcpy(tmp, p, n);
	tmp[n] = '\0';
	if (strcmp(tmp, "+Inf") == 0) {
		*v = INFINITY;
		return 0;
	}
	if (strcmp(tmp, "-Inf") == 0) {
		*v = -INFINITY;
		return 0;
	}
	if (strcmp(tmp, "NaN") == 0) {
		*v = NAN;
		return 0;
	}
	char *end;
	*v = strtod(tmp, &end);
	return *end || isnan(*v) || isinf(*v) ? -1 : 0;
}

/* The value of le="..." in labels, or NAN. */
static double
le_of(const char *labels)
{
	const char *p = strstr(labels, "le=\"");
	double v;
	if (!p)
		return NAN;
	p += 4;
	const char *e = strchr(p, '"');
	return e && parse_value(p, (size_t)(e - p), &v) == 0 ? v : NAN;
}

/* The labels without le (a histogram's series key). */
static void
without_le(const char *labels, char *out, size_t len)
{
	const char *p = strstr(labels, "le=\"");
	if (!p) {
		snprintf(out, len, "%s", labels);
		return;
	}
	const char *e = strchr(p + 4, '"') + 1;
	if (*e == ',')
		e++;
	snprintf(out, len, "%.*s%s", (int)(p - labels), labels, e);
	size_t n = strlen(out);
	if (n && out[n - 1] == ',')
		out[n - 1] = '\0';
}

/* Checks one histogram family: per series, buckets in ascending le with
 * cumulative counts, +Inf last and equal to _count, and a _sum. */
static int
check_histogram(const struct scrape *sc, const struct family *f, char *why, size_t wl)
{
	char bucket[128], sum[128], count[128];
	snprintf(bucket, sizeof bucket, "%s_bucket", f->name);
	snprintf(sum, sizeof sum, "%s_sum", f->name);
	snprintf(count, sizeof count, "%s_count", f->name);
	int nb = 0;
	double last_le = -INFINITY, last_n = -1, inf = -1;
	int have_sum = 0, have_count = 0;
	double cnt = -1;
	for (int i = 0; i < sc->n; i++) {
		const struct sample *s = &sc->s[i];
		char key[256];
		if (strcmp(s->name, bucket) == 0) {
			double le = le_of(s->labels);
			if (isnan(le) || le <= last_le || s->value < last_n ||
			    s->value != floor(s->value)) {
				snprintf(why, wl, "%s: bucket %s out of order", f->name, s->labels);
				return -1;
			}
			without_le(s->labels, key, sizeof key);
			if (key[0]) {
				snprintf(
				    why, wl, "%s: labelled histograms are not expected", f->name);
				return -1;
			}
			last_le = le;
			last_n = s->value;
			if (isinf(le))
				inf = s->value;
			nb++;
		} else if (strcmp(s->name, sum) == 0) {
			have_sum = 1;
		} else if (strcmp(s->name, count) == 0) {
			have_count = 1;
			cnt = s->value;
		} else if (strcmp(s->name, f->name) == 0) {
			snprintf(why, wl, "%s: a histogram with a plain sample", f->name);
			return -1;
		}
	}
	if (nb < 2 || inf < 0 || !isinf(last_le) || !have_sum || !have_count || cnt != inf) {
		snprintf(why, wl, "%s: buckets %d, +Inf %g, _count %g, _sum %d", f->name, nb, inf,
		    cnt, have_sum);
		return -1;
	}
	return 0;
}

/* Parses a whole exposition body strictly. 0, or -1 with why. */
static int
parse_exposition(const char *body, struct scrape *sc, char *why, size_t wl)
{
	memset(sc, 0, sizeof *sc);
	struct family *cur = NULL; /* the family whose samples come now */
	int lineno = 0;
	for (const char *l = body; *l;) {
		const char *nl = strchr(l, '\n');
		lineno++;
		if (!nl) {
			snprintf(why, wl, "line %d: no LF at the end", lineno);
			return -1;
		}
		size_t len = (size_t)(nl - l);
		char line[512];
		if (len >= sizeof line || len == 0) {
			snprintf(why, wl, "line %d: empty or too long", lineno);
			return -1;
		}
		memcpy(line, l, len);
		line[len] = '\0';
		l = nl + 1;
		if (line[0] == '#') {
			char kind[8], name[128];
			int off = 0;
			if (sscanf(line, "# %7s %127s %n", kind, name, &off) < 2 || off == 0 ||
			    (strcmp(kind, "HELP") != 0 && strcmp(kind, "TYPE") != 0))
				continue; /* a plain comment */
			if (!name_ok(name, strlen(name), 1)) {
				snprintf(why, wl, "line %d: bad name %s", lineno, name);
				return -1;
			}
			struct family *f = family_of(sc, name, strlen(name));
			if (!f || f->closed || f->has_samples) {
				snprintf(why, wl, "line %d: %s %s after its samples", lineno, kind,
				    name);
				return -1;
			}
			if (strcmp(kind, "HELP") == 0) {
				if (f->help++ || line[off] == '\0') {
					snprintf(why, wl, "line %d: HELP %s twice or empty", lineno,
					    name);
					return -1;
				}
			} else {
				const char *t = line + off;
				if (f->typed++ ||
				    (strcmp(t, "counter") && strcmp(t, "gauge") &&
					strcmp(t, "histogram") && strcmp(t, "summary") &&
					strcmp(t, "untyped"))) {
					snprintf(
					    why, wl, "line %d: TYPE %s twice or bad", lineno, name);
					return -1;
				}
				snprintf(f->type, sizeof f->type, "%s", t);
				if (strcmp(t, "counter") == 0 && !ends_with(name, "_total")) {
					snprintf(why, wl, "line %d: counter %s without _total",
					    lineno, name);
					return -1;
				}
			}
			if (cur && cur != f)
				cur->closed = 1;
			cur = f;
			continue;
		}
		if (sc->n == MAX_SAMPLES) {
			snprintf(why, wl, "too many samples");
			return -1;
		}
		struct sample *s = &sc->s[sc->n];
		const char *p = line;
		while (isalnum((unsigned char)*p) || *p == '_' || *p == ':')
			p++;
		if (!name_ok(line, (size_t)(p - line), 1) || (size_t)(p - line) >= sizeof s->name) {
			snprintf(why, wl, "line %d: bad sample name", lineno);
			return -1;
		}
		snprintf(s->name, sizeof s->name, "%.*s", (int)(p - line), line);
		s->labels[0] = '\0';
		if (*p == '{' && !(p = parse_labels(p + 1, s->labels, sizeof s->labels))) {
			snprintf(why, wl, "line %d: bad labels", lineno);
			return -1;
		}
		if (*p != ' ') {
			snprintf(why, wl, "line %d: no space before the value", lineno);
			return -1;
		}
		p++;
		const char *v = p;
		while (*p && *p != ' ')
			p++;
		if (parse_value(v, (size_t)(p - v), &s->value) != 0) {
			snprintf(why, wl, "line %d: bad value", lineno);
			return -1;
		}
		if (*p == ' ') { /* a timestamp: an integer */
			p++;
			if (*p == '-')
				p++;
			if (!isdigit((unsigned char)*p)) {
				snprintf(why, wl, "line %d: bad timestamp", lineno);
				return -1;
			}
			while (isdigit((unsigned char)*p))
				p++;
			if (*p) {
				snprintf(why, wl, "line %d: trailing text", lineno);
				return -1;
			}
		}
		struct family *f = family_of_sample(sc, s->name);
		if (!f || f->closed || !f->typed || !f->help) {
			snprintf(why, wl, "line %d: %s without HELP and TYPE just before, or apart",
			    lineno, s->name);
			return -1;
		}
		if (cur && cur != f)
			cur->closed = 1;
		cur = f;
		f->has_samples = 1;
		if (strcmp(f->type, "histogram") != 0 && strcmp(s->name, f->name) != 0) {
			snprintf(why, wl, "line %d: %s in family %s", lineno, s->name, f->name);
			return -1;
		}
		if ((strcmp(f->type, "counter") == 0 && s->value < 0)) {
			snprintf(why, wl, "line %d: negative counter", lineno);
			return -1;
		}
		for (int i = 0; i < sc->n; i++)
			if (strcmp(sc->s[i].name, s->name) == 0 &&
			    strcmp(sc->s[i].labels, s->labels) == 0) {
				snprintf(
				    why, wl, "line %d: %s{%s} twice", lineno, s->name, s->labels);
				return -1;
			}
		sc->n++;
	}
	for (int i = 0; i < sc->nf; i++)
		if (strcmp(sc->f[i].type, "histogram") == 0 &&
		    check_histogram(sc, &sc->f[i], why, wl))
			return -1;
	return 0;
}

/* One sample's value by name and labels as written; NAN when absent. */
static double
get(const struct scrape *sc, const char *name, const char *labels)
{
	for (int i = 0; i < sc->n; i++)
		if (strcmp(sc->s[i].name, name) == 0 && strcmp(sc->s[i].labels, labels) == 0)
			return sc->s[i].value;
	return NAN;
}

/* GET /metrics, checked and parsed into sc. 0 or -1 (a failure counted). */
static int
scrape(struct scrape *sc)
{
	int closed;
	char *resp = http("GET /metrics HTTP/1.1\r\nHost: localhost\r\n\r\n", &closed);
	char ct[128], why[200];
	int rc = -1;
	if (status_of(resp) != 200) {
		CHECK(0, "GET /metrics: %.80s", resp ? resp : "(nothing)");
	} else if (header(resp, "Content-Type", ct, sizeof ct) ||
	    strncmp(ct, "text/plain; version=0.0.4", 25) != 0) {
		CHECK(0, "Content-Type: %s", ct);
	} else if (!closed) {
		CHECK(0, "the connection stayed open after the reply");
	} else if (parse_exposition(strstr(resp, "\r\n\r\n") + 4, sc, why, sizeof why)) {
		CHECK(0, "exposition: %s", why);
	} else {
		rc = 0;
	}
	free(resp);
	return rc;
}

/* ---- clients that count what they send ---- */

static void
say(struct tc *c, const char *fmt, ...)
{
	char line[600];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	tc_send(c, "%s", line);
	sent_in += n + 1;
}

static struct tc *
guest(const char *name)
{
	struct tc *c = tc_open(d.port, 0);
	if (!c)
		return NULL;
	say(c, "HELLO 1");
	say(c, "GUEST %s", name);
	if (!tc_expect(c, "OK GUEST ", 3000)) {
		tc_close(c);
		return NULL;
	}
	return c;
}

/* The value of a series that must be there. */
#define VAL(sc, name, labels) get((sc), (name), (labels))

/* A series absent before counts from 0 (a labelled counter appears with its
 * first event); after, it must be there. */
#define CHECK_DELTA(a, b, name, labels, want)                                           \
	do {                                                                            \
		double a_ = VAL((a), (name), (labels));                                 \
		double d_ = VAL((b), (name), (labels)) - (isnan(a_) ? 0 : a_);          \
		CHECK(d_ == (want), "%s{%s} moved by %g, not %g", (name), (labels), d_, \
		    (double)(want));                                                    \
	} while (0)

static struct scrape s0, s1, s2, s3;

static void
test_game(void)
{
	static const char *const five[] = { "h8", "h9", "i8", "i9", "j8", "j9", "k8", "k9", "l8" };
	REQUIRE(scrape(&s0) == 0, "first scrape");
	REQUIRE(VAL(&s0, "gomokud_games_started_total", "rule=\"freestyle\"") == 0,
	    "a game started before any");
	long long in0 = sent_in;
	struct tc *a = guest("mza"), *b = guest("mzb");
	REQUIRE(a && b, "connect");
	char room[24] = "";
	say(a, "SEEK freestyle 15 none black casual none");
	REQUIRE_LINE(a, "OK SEEK ");
	say(b, "SEEK freestyle 15 none white casual none");
	REQUIRE_LINE(b, "* START ");
	REQUIRE(sscanf(b->line, "* START %23s", room) == 1, "room in %s", b->line);
	REQUIRE_LINE(a, "* START ");

	/* mid-game: what the gauges count now */
	REQUIRE(scrape(&s1) == 0, "scrape in the game");
	CHECK(VAL(&s1, "gomokud_connections", "transport=\"tls\"") == 2, "connections: %g",
	    VAL(&s1, "gomokud_connections", "transport=\"tls\""));
	CHECK(VAL(&s1, "gomokud_sessions", "") == 2, "sessions: %g",
	    VAL(&s1, "gomokud_sessions", ""));
	CHECK(VAL(&s1, "gomokud_rooms", "") == 1, "rooms: %g", VAL(&s1, "gomokud_rooms", ""));
	CHECK(VAL(&s1, "gomokud_games_in_progress", "") == 1, "games: %g",
	    VAL(&s1, "gomokud_games_in_progress", ""));
	CHECK_DELTA(&s0, &s1, "gomokud_handshakes_total", "transport=\"tls\"", 2);
	CHECK_DELTA(&s0, &s1, "gomokud_games_started_total", "rule=\"freestyle\"", 1);

	/* out of turn: 431, and no move */
	say(b, "MOVE %s h9", room);
	CHECK_LINE(b, "ERR 431 ");
	for (int i = 0; i < 9; i++) {
		struct tc *p = i % 2 ? b : a;
		char pre[64];
		say(p, "MOVE %s %s", room, five[i]);
		snprintf(pre, sizeof pre, "OK MOVE %s ", room);
		REQUIRE(tc_expect(p, pre, 3000), "move %s refused: %s", five[i], p->line);
	}
	REQUIRE_LINE(b, "* OVER ");
	CHECK(strstr(b->line, "black five") != NULL, "not five: %s", b->line);
	REQUIRE(scrape(&s2) == 0, "scrape after the game");
	CHECK_DELTA(&s0, &s2, "gomokud_games_started_total", "rule=\"freestyle\"", 1);
	CHECK_DELTA(&s0, &s2, "gomokud_games_started_total", "rule=\"renju\"", 0);
	CHECK_DELTA(
	    &s0, &s2, "gomokud_games_finished_total", "rule=\"freestyle\",reason=\"five\"", 1);
	CHECK_DELTA(
	    &s0, &s2, "gomokud_games_finished_total", "rule=\"freestyle\",reason=\"resign\"", 0);
	CHECK_DELTA(&s0, &s2, "gomokud_moves_relayed_total", "", 9);
	/* one line each, each relayed once */
	CHECK_DELTA(&s0, &s2, "gomokud_move_relay_seconds_count", "", 9);
	CHECK(VAL(&s2, "gomokud_move_relay_seconds_sum", "") > 0, "relay sum %g",
	    VAL(&s2, "gomokud_move_relay_seconds_sum", ""));
	/* a transaction each, with the store on (the default) */
	CHECK_DELTA(&s0, &s2, "gomokud_store_commit_seconds_count", "", 9);
	CHECK_DELTA(&s0, &s2, "gomokud_error_replies_total", "code=\"431\"", 1);
	CHECK(isnan(VAL(&s2, "gomokud_error_replies_total", "code=\"407\"")), "a 407 already");
	CHECK(VAL(&s2, "gomokud_games_in_progress", "") == 0, "games after the end: %g",
	    VAL(&s2, "gomokud_games_in_progress", ""));
	/* the scrapes are not protocol traffic: exactly the lines said */
	CHECK_DELTA(&s0, &s2, "gomokud_received_bytes_total", "", (double)(sent_in - in0));
	CHECK(VAL(&s2, "gomokud_sent_bytes_total", "") - VAL(&s0, "gomokud_sent_bytes_total", "") >
		9 * strlen("* MOVE r1 1 black h8 0 0\n"),
	    "sent bytes moved by %g",
	    VAL(&s2, "gomokud_sent_bytes_total", "") - VAL(&s0, "gomokud_sent_bytes_total", ""));
	CHECK_DELTA(&s0, &s2, "gomokud_rate_limited_total", "bucket=\"lines\"", 0);
	ok("a game to five moves the counters by what it did (1 start, 1 five, 9 moves, a 431)");

	/* the rate limit: a burst of 20, then 407s */
	struct tc *c = guest("mzc");
	REQUIRE(c, "connect");
	char burst[64 * 8] = "";
	for (int i = 0; i < 60; i++)
		strcat(burst, i < 59 ? "PING x\n" : "PING end\n");
	tc_send_raw(c, burst, strlen(burst));
	sent_in += (long long)strlen(burst);
	int refused = 0;
	const char *l;
	while ((l = tc_read(c, 2000)) && !strstr(l, "end"))
		refused += strncmp(l, "ERR 407", 7) == 0;
	if (l && strncmp(l, "ERR 407", 7) == 0)
		refused++;
	REQUIRE(scrape(&s3) == 0, "scrape after the burst");
	CHECK(refused > 0, "no 407 in a burst of 60");
	CHECK_DELTA(&s2, &s3, "gomokud_rate_limited_total", "bucket=\"lines\"", refused);
	CHECK(VAL(&s3, "gomokud_error_replies_total", "code=\"407\"") == refused,
	    "407 replies %g, read %d", VAL(&s3, "gomokud_error_replies_total", "code=\"407\""),
	    refused);
	CHECK_DELTA(&s2, &s3, "gomokud_handshakes_total", "transport=\"tls\"", 1);
	CHECK(VAL(&s3, "gomokud_connections", "transport=\"tls\"") == 3, "connections: %g",
	    VAL(&s3, "gomokud_connections", "transport=\"tls\""));
	ok("rate-limit hits and 407 replies count the refused lines");

	/* a bot game: searches done and timed */
	say(c, "BOT play 1 freestyle 15 none black none");
	REQUIRE_LINE(c, "OK BOT");
	char broom[24];
	REQUIRE(sscanf(c->line, "OK BOT %23s", broom) == 1, "room in %s", c->line);
	say(c, "MOVE %s h8", broom);
	REQUIRE_LINE(c, "OK MOVE");
	REQUIRE_LINE(c, "* MOVE"); /* the bot's */
	struct scrape s4;
	REQUIRE(scrape(&s4) == 0, "scrape in the bot game");
	double done = VAL(&s4, "gomokud_bot_jobs_done_total", "");
	CHECK(done >= 1, "bot jobs done: %g", done);
	CHECK(VAL(&s4, "gomokud_bot_search_seconds_count", "") == done, "searches timed %g of %g",
	    VAL(&s4, "gomokud_bot_search_seconds_count", ""), done);
	CHECK(VAL(&s4, "gomokud_bot_jobs_running", "") == 0 &&
		VAL(&s4, "gomokud_bot_jobs_queued", "") == 0,
	    "bot jobs running %g, queued %g while it is our move",
	    VAL(&s4, "gomokud_bot_jobs_running", ""), VAL(&s4, "gomokud_bot_jobs_queued", ""));
	/* two moves, the bot's without a line: relayed, not timed as a relay */
	CHECK_DELTA(&s3, &s4, "gomokud_moves_relayed_total", "", 2);
	CHECK_DELTA(&s3, &s4, "gomokud_move_relay_seconds_count", "", 1);
	CHECK(VAL(&s4, "gomokud_games_in_progress", "") == 1, "games: %g",
	    VAL(&s4, "gomokud_games_in_progress", ""));
	say(c, "RESIGN %s", broom);
	REQUIRE_LINE(c, "* OVER");
	struct scrape s5;
	REQUIRE(scrape(&s5) == 0, "scrape after the bot game");
	CHECK_DELTA(
	    &s4, &s5, "gomokud_games_finished_total", "rule=\"freestyle\",reason=\"resign\"", 1);
	ok("bot searches are counted and timed; a bot's move is relayed without a line");
	tc_close(a);
	tc_close(b);
	tc_close(c);
}

static void
test_http(void)
{
	int closed;
	char *r = http("GET /nope HTTP/1.1\r\nHost: x\r\n\r\n", &closed);
	CHECK(status_of(r) == 404, "GET /nope: %.60s", r ? r : "-");
	CHECK(closed, "GET /nope: left open");
	free(r);
	r = http("POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n", &closed);
	CHECK(status_of(r) == 405, "POST /metrics: %.60s", r ? r : "-");
	char allow[64] = "";
	CHECK(r && header(r, "Allow", allow, sizeof allow) == 0 && strstr(allow, "GET"),
	    "405 without Allow: GET (%s)", allow);
	free(r);
	r = http("GET /metrics HTTP/1.0\r\n\r\n", &closed);
	CHECK(status_of(r) == 200 && closed, "HTTP/1.0: %.60s (closed %d)", r ? r : "-", closed);
	CHECK(r && strstr(r, "\r\n\r\n# HELP "), "HTTP/1.0: no exposition");
	free(r);
	r = http("GET /metrics?x=1 HTTP/1.1\r\nHost: x\r\n\r\n", &closed);
	CHECK(status_of(r) == 200, "a query string: %.60s", r ? r : "-");
	free(r);
	/* a request far over the cap is refused, not served */
	size_t big = 64 * 1024;
	char *req = malloc(big + 64);
	REQUIRE(req, "malloc");
	int n = snprintf(req, 64, "GET /metrics HTTP/1.1\r\nX-Pad: ");
	memset(req + n, 'a', big);
	memcpy(req + n + big, "\r\n\r\n", 5);
	r = http_raw(req, strlen(req), &closed);
	CHECK(status_of(r) != 200 && closed, "a 64 KiB request: %.60s (closed %d)", r ? r : "-",
	    closed);
	free(r);
	free(req);
	r = http("BREW /metrics HTCPCP/1.0\r\n\r\n", &closed);
	CHECK(status_of(r) != 200 && closed, "garbage: %.60s", r ? r : "-");
	free(r);
	CHECK(daemon_alive(&d), "the daemon died");
	ok("404 for another path, 405 for POST, HTTP/1.0, caps, every reply closes");
}

/* Listening TCP sockets the process holds (from /proc). */
static int
listening_sockets(pid_t pid)
{
	char path[64];
	unsigned long inodes[256];
	int ni = 0, n = 0;
	snprintf(path, sizeof path, "/proc/%d/fd", (int)pid);
	DIR *dir = opendir(path);
	struct dirent *e;
	while (dir && (e = readdir(dir)) && ni < 256) {
		char fp[400], link[64];
		snprintf(fp, sizeof fp, "%s/%s", path, e->d_name);
		ssize_t k = readlink(fp, link, sizeof link - 1);
		if (k > 0) {
			link[k] = '\0';
			if (sscanf(link, "socket:[%lu]", &inodes[ni]) == 1)
				ni++;
		}
	}
	if (dir)
		closedir(dir);
	const char *tables[] = { "/proc/net/tcp", "/proc/net/tcp6" };
	for (int t = 0; t < 2; t++) {
		FILE *f = fopen(tables[t], "r");
		char line[512];
		while (f && fgets(line, sizeof line, f)) {
			unsigned st;
			unsigned long inode;
			if (sscanf(line, " %*d: %*s %*s %x %*s %*s %*s %*s %*s %lu", &st, &inode) !=
				2 ||
			    st != 0x0A)
				continue;
			for (int i = 0; i < ni; i++)
				n += inodes[i] == inode;
		}
		if (f)
			fclose(f);
	}
	return n;
}

static void
test_off(void)
{
	CHECK(listening_sockets(d.pid) == 2, "with metrics-listen: %d listening sockets, not 2",
	    listening_sockets(d.pid));
	struct daemon plain;
	REQUIRE(daemon_start(&plain, GOMOKUD_BIN, NULL) == 0, "start without metrics-listen");
	CHECK(listening_sockets(plain.pid) == 1, "without metrics-listen: %d listening sockets",
	    listening_sockets(plain.pid));
	CHECK(daemon_log_count(&plain, "metrics on") == 0, "a metrics listener logged");
	CHECK(daemon_stop(&plain, SIGTERM, 5000) == 0, "the plain daemon's exit");
	ok("without metrics-listen nothing more listens");

	struct daemon bad;
	CHECK(daemon_start(&bad, GOMOKUD_BIN, "metrics-listen nowhere") != 0,
	    "started with metrics-listen nowhere");
	CHECK(daemon_log_count(&bad, "bad metrics-listen address: nowhere") == 1,
	    "the refusal does not name the value (log %s)", bad.log);
	CHECK(daemon_stop(&bad, 0, 5000) == 2, "exit status %d, not 2", bad.status);
	ok("a metrics-listen that is not host:port is refused at start");
}

int
main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (daemon_start(&d, GOMOKUD_BIN, "metrics-listen 127.0.0.1:0\nbot-think-ms 50") != 0) {
		printf("FAIL cannot start %s\n", GOMOKUD_BIN);
		return 1;
	}
	FILE *lf = fopen(d.log, "r");
	char l[512];
	while (lf && fgets(l, sizeof l, lf)) {
		const char *p = strstr(l, "metrics on http://127.0.0.1:");
		if (p)
			mport = atoi(p + strlen("metrics on http://127.0.0.1:"));
	}
	if (lf)
		fclose(lf);
	if (mport <= 0) {
		printf("FAIL no metrics port in %s\n", d.log);
		daemon_stop(&d, SIGTERM, 5000);
		return 1;
	}
	test_game();
	test_http();
	test_off();
	int st = daemon_stop(&d, SIGTERM, 10000);
	CHECK(st == 0, "daemon exit status %d (log %s)", st, d.log);
	printf("test_metrics: %s\n", failures ? "FAILED" : "passed");
	return failures ? 1 : 0;
}
