/* proxyhdr.c: the PROXY protocol v2 header parser (see proxyhdr.h). */
#include "daemon/proxyhdr.h"

#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static const unsigned char sig[12] = { 0x0d, 0x0a, 0x0d, 0x0a, 0x00, 0x0d, 0x0a, 0x51, 0x55, 0x49,
	0x54, 0x0a };

enum {
	CMD_LOCAL = 0x0,
	CMD_PROXY = 0x1,
	FAM_UNSPEC = 0x00,
	TCP4 = 0x11,
	TCP6 = 0x21,
	ADDR4_LEN = 12, /* source, destination, two ports */
	ADDR6_LEN = 36,
};

static int
fail(char *err, size_t errlen, const char *why)
{
	snprintf(err, errlen, "%s", why);
	return -1;
}

/* The TLVs after the addresses: type, 16-bit length, value, each inside
 * the header. 0, or -1 when one runs past its end. */
static int
tlvs_fit(const unsigned char *p, size_t n)
{
	while (n > 0) {
		if (n < 3)
			return -1;
		size_t len = (size_t)p[1] << 8 | p[2];
		if (len > n - 3)
			return -1;
		p += 3 + len;
		n -= 3 + len;
	}
	return 0;
}

int
proxyhdr_parse(const unsigned char *buf, size_t n, struct proxyhdr *h, char *err, size_t errlen)
{
	if (memcmp(buf, sig, n < sizeof sig ? n : sizeof sig) != 0)
		return fail(err, errlen,
		    n >= 5 && memcmp(buf, "PROXY", 5) == 0
			? "a PROXY protocol v1 (text) header: only v2 is accepted"
			: "no PROXY protocol v2 signature");
	if (n < 13)
		return PROXYHDR_FIXED;
	if (buf[12] >> 4 != 2)
		return fail(err, errlen, "PROXY protocol version is not 2");
	int cmd = buf[12] & 0x0f;
	if (cmd != CMD_LOCAL && cmd != CMD_PROXY)
		return fail(err, errlen, "PROXY command is neither LOCAL nor PROXY");
	if (n < PROXYHDR_FIXED)
		return PROXYHDR_FIXED;
	size_t len = (size_t)buf[14] << 8 | buf[15];
	if (PROXYHDR_FIXED + len > PROXYHDR_MAX)
		return fail(err, errlen, "PROXY header over 1024 bytes");
	size_t total = PROXYHDR_FIXED + len;
	if (n < total)
		return (int)total;
	const unsigned char *a = buf + PROXYHDR_FIXED;
	int fam = buf[13];
	size_t alen = fam == TCP4 ? ADDR4_LEN : fam == TCP6 ? ADDR6_LEN : 0;
	memset(h, 0, sizeof *h);
	if (cmd == CMD_LOCAL || fam == FAM_UNSPEC) {
		/* the spec: the receiver ignores the address block */
		h->local = 1;
		return (int)total;
	}
	if (!alen)
		return fail(err, errlen, "PROXY family is not TCP over IPv4 or IPv6");
	if (len < alen)
		return fail(err, errlen, "PROXY header shorter than its addresses");
	if (tlvs_fit(a + alen, len - alen) != 0)
		return fail(err, errlen, "PROXY header has a TLV that runs past its end");
	if (fam == TCP4) {
		struct sockaddr_in *in = (struct sockaddr_in *)&h->src;
		in->sin_family = AF_INET;
		memcpy(&in->sin_addr, a, 4);
		memcpy(&in->sin_port, a + 8, 2); /* both in network order */
		h->srclen = sizeof *in;
	} else {
		struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&h->src;
		in6->sin6_family = AF_INET6;
		memcpy(&in6->sin6_addr, a, 16);
		memcpy(&in6->sin6_port, a + 32, 2);
		h->srclen = sizeof *in6;
	}
	return (int)total;
}
