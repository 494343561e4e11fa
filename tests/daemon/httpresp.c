/* httpresp.c: an HTTP response read off a test connection (httpresp.h). */
#include "tests/daemon/httpresp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char *
http_header(const struct http_resp *r, const char *name, char *out, size_t n)
{
	size_t nl = strlen(name);
	for (const char *l = r->head; *l;) {
		const char *e = strchr(l, '\n');
		size_t len = e ? (size_t)(e - l) : strlen(l);
		if (len > nl && strncasecmp(l, name, nl) == 0 && l[nl] == ':') {
			snprintf(out, n, "%.*s", (int)(len - nl - 2), l + nl + 2);
			return out;
		}
		l += len + (e != NULL);
	}
	return NULL;
}

int
http_read_resp(struct tc *c, struct http_resp *r, int no_body)
{
	memset(r, 0, sizeof *r);
	const char *l = tc_read(c, 3000);
	if (!l || sscanf(l, "HTTP/1.1 %d", &r->status) != 1)
		return -1;
	size_t o = 0;
	while ((l = tc_read(c, 3000)) && strcmp(l, "\r") != 0) {
		o += (size_t)snprintf(
		    r->head + o, sizeof r->head - o, "%.*s\n", (int)strcspn(l, "\r"), l);
		if (o >= sizeof r->head)
			return -1;
	}
	if (!l)
		return -1;
	char v[32];
	if (!no_body && r->status != 304 && http_header(r, "Content-Length", v, sizeof v)) {
		r->blen = (size_t)atol(v);
		if (r->blen >= sizeof r->body)
			return -1;
		for (size_t got = 0; got < r->blen;) { /* in pieces the client's buffer holds */
			size_t n = r->blen - got < 8192 ? r->blen - got : 8192;
			if (tc_read_bytes(c, r->body + got, n, 3000))
				return -1;
			got += n;
		}
	}
	r->body[r->blen] = '\0';
	return 0;
}
