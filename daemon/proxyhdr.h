/* proxyhdr.h: the PROXY protocol version 2 header (haproxy.org's
 * proxy-protocol.txt, section 2.2) that a front such as HAProxy sends
 * before the client's bytes: a 12-byte signature, version and command,
 * family and transport, a length, the addresses, then TLVs (skipped). Only
 * the binary version 2; the text version 1 is not accepted. A pure parser:
 * no socket, no state. */
#ifndef GOMOKUD_PROXYHDR_H
#define GOMOKUD_PROXYHDR_H

#include <stddef.h>
#include <sys/socket.h>

enum {
	PROXYHDR_FIXED = 16, /* signature, version/command, family, length */
	PROXYHDR_MAX = 1024, /* the whole header, TLVs included, at most */
};

struct proxyhdr {
	/* 1: keep the connection's own addresses (the LOCAL command, a health
	 * check; or PROXY with an unspecified family) */
	int local;
	struct sockaddr_storage src; /* the client's address, when !local */
	socklen_t srclen;
};

/* Looks at the first n bytes received. -1 (err says why) when they cannot
 * begin a valid header; otherwise the whole header's length L: when n < L
 * more bytes are needed (h untouched), when n >= L the header is h and the
 * bytes after L are the client's. With n < 16, L is 16. */
int proxyhdr_parse(
    const unsigned char *buf, size_t n, struct proxyhdr *h, char *err, size_t errlen);

#endif
