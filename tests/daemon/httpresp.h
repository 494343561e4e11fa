/*
 * httpresp.h: an HTTP/1.1 response as the daemon's tests read it off a
 * tclient connection (test_ws, test_gzip): the status, the header lines and
 * the body by Content-Length.
 */
#ifndef TESTS_DAEMON_HTTPRESP_H
#define TESTS_DAEMON_HTTPRESP_H

#include <stddef.h>

#include "tests/daemon/tclient.h"

struct http_resp {
	int status;
	char head[4096];            /* the header lines, "\n" between */
	unsigned char body[262145]; /* and a '\0' after the last byte */
	size_t blen;
};

/* A header's value (case-insensitive name) in out, or NULL. */
const char *http_header(const struct http_resp *r, const char *name, char *out, size_t n);

/* Reads one response into r: its body by Content-Length unless no_body (a
 * HEAD's answer) or the status is 304. 0 or -1. */
int http_read_resp(struct tc *c, struct http_resp *r, int no_body);

#endif
