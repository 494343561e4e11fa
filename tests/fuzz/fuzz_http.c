/*
 * fuzz_http: libFuzzer target for the HTTP request path (daemon/http.c) as
 * wsline.c drives it: the input fed to http_req_feed in pieces (the first
 * byte sets their size, so a request may arrive split anywhere), each
 * complete request or error answered as the daemon answers it (upgrade
 * checks, the accept key, a static file or an error) into an evbuffer,
 * then the next request on the same connection. No sanitizer report, no
 * piece taken past what was given, and every answer a well-formed status
 * line.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>

#include "daemon/http.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The answer wsline.c's answer() gives: 1 when the connection goes on. */
static int
answer(struct evbuffer *out, struct http_req *r)
{
	static const char origins[] = "https://friend.example https://other.example";
	int status = r->status;
	if (!status && http_wants_ws(r) && !(status = http_ws_check(r, origins))) {
		http_ws_accept(out, r);
		return 0; /* a WebSocket from here: not HTTP any more */
	}
	if (status) {
		http_error(out, status);
		return 0;
	}
	return http_static(out, r, origins);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	size_t piece = (size_t)data[0] % 64 + 1;
	const char *p = (const char *)data + 1;
	size_t left = size - 1;
	struct http_req r;
	struct evbuffer *out = evbuffer_new();
	if (!out)
		return 0;
	http_req_init(&r);
	int live = 1;
	while (live && left > 0) {
		size_t n = left < piece ? left : piece;
		size_t used = http_req_feed(&r, p, n);
		if (used > n)
			abort();
		p += used;
		left -= used;
		if (r.status || r.complete) {
			live = answer(out, &r);
			size_t len = evbuffer_get_length(out);
			const unsigned char *h = evbuffer_pullup(out, 9);
			if (len < 12 || !h || memcmp(h, "HTTP/1.1 ", 9) != 0)
				abort();
			evbuffer_drain(out, len);
			http_req_init(&r);
		} else if (used == 0) {
			break;
		}
	}
	evbuffer_free(out);
	return 0;
}
