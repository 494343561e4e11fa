/* cidr.c: addresses and networks (see cidr.h). */
#include "daemon/cidr.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The bits past the prefix cleared. */
static void
clear_host(struct cidr *c)
{
	int max = c->family == AF_INET ? 32 : 128;
	for (int i = 0; i < max / 8; i++) {
		int keep = c->bits - i * 8;
		c->net[i] &= keep >= 8 ? 0xff : keep <= 0 ? 0 : (unsigned char)(0xff << (8 - keep));
	}
}

int
cidr_parse(const char *s, struct cidr *out)
{
	char host[INET6_ADDRSTRLEN + 1];
	const char *slash = strchr(s, '/');
	size_t hl = slash ? (size_t)(slash - s) : strlen(s);
	if (hl == 0 || hl >= sizeof host)
		return -1;
	memcpy(host, s, hl);
	host[hl] = '\0';
	memset(out, 0, sizeof *out);
	if (inet_pton(AF_INET, host, out->net) == 1)
		out->family = AF_INET;
	else if (inet_pton(AF_INET6, host, out->net) == 1)
		out->family = AF_INET6;
	else
		return -1;
	int max = out->family == AF_INET ? 32 : 128;
	out->bits = max;
	if (slash) {
		char *end;
		long b = strtol(slash + 1, &end, 10);
		if (*end || end == slash + 1 || !isdigit((unsigned char)slash[1]) || b < 0 ||
		    b > max)
			return -1;
		out->bits = (int)b;
	}
	if (out->family == AF_INET6 && out->bits >= 96 &&
	    IN6_IS_ADDR_V4MAPPED((const struct in6_addr *)(const void *)out->net)) {
		/* ::ffff:a.b.c.d is the IPv4 client that the socket API shows so */
		out->family = AF_INET;
		memmove(out->net, out->net + 12, 4);
		memset(out->net + 4, 0, 12);
		out->bits -= 96;
	}
	clear_host(out);
	return 0;
}

void
cidr_widen(struct cidr *c, int v6_bits)
{
	if (c->family == AF_INET6 && c->bits == 128 && v6_bits < 128) {
		c->bits = v6_bits;
		clear_host(c);
	}
}

socklen_t
cidr_unmap(const struct sockaddr *sa, socklen_t len, struct sockaddr_storage *out)
{
	memset(out, 0, sizeof *out);
	if (sa->sa_family == AF_INET6 && len >= (socklen_t)sizeof(struct sockaddr_in6)) {
		const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)(const void *)sa;
		if (IN6_IS_ADDR_V4MAPPED(&in6->sin6_addr)) {
			struct sockaddr_in *in = (struct sockaddr_in *)out;
			in->sin_family = AF_INET;
			in->sin_port = in6->sin6_port;
			memcpy(&in->sin_addr, in6->sin6_addr.s6_addr + 12, 4);
			return (socklen_t)sizeof *in;
		}
	}
	if (len > (socklen_t)sizeof *out)
		len = (socklen_t)sizeof *out;
	memcpy(out, sa, (size_t)len);
	return len;
}

int
cidr_unit(const struct sockaddr *sa, int v6_bits, struct cidr *out)
{
	memset(out, 0, sizeof *out);
	if (sa->sa_family == AF_INET) {
		out->family = AF_INET;
		out->bits = 32;
		memcpy(out->net, &((const struct sockaddr_in *)(const void *)sa)->sin_addr, 4);
		return 0;
	}
	if (sa->sa_family != AF_INET6)
		return -1;
	const struct in6_addr *in6 = &((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr;
	if (IN6_IS_ADDR_V4MAPPED(in6)) {
		out->family = AF_INET;
		out->bits = 32;
		memcpy(out->net, in6->s6_addr + 12, 4);
		return 0;
	}
	out->family = AF_INET6;
	out->bits = v6_bits < 1 ? 1 : v6_bits > 128 ? 128 : v6_bits;
	memcpy(out->net, in6->s6_addr, 16);
	clear_host(out);
	return 0;
}

int
cidr_format(const struct cidr *c, char *out, size_t cap)
{
	char host[INET6_ADDRSTRLEN];
	if (!inet_ntop(c->family, c->net, host, sizeof host))
		return -1;
	int full = c->bits == (c->family == AF_INET ? 32 : 128);
	int n = full ? snprintf(out, cap, "%s", host) : snprintf(out, cap, "%s/%d", host, c->bits);
	return n > 0 && (size_t)n < cap ? 0 : -1;
}

int
cidr_match(const struct cidr *c, const struct sockaddr *sa)
{
	unsigned char a[16];
	int family = sa->sa_family;
	if (family == AF_INET) {
		memcpy(a, &((const struct sockaddr_in *)(const void *)sa)->sin_addr, 4);
	} else if (family == AF_INET6) {
		const struct in6_addr *in6 =
		    &((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr;
		if (IN6_IS_ADDR_V4MAPPED(in6)) {
			family = AF_INET;
			memcpy(a, in6->s6_addr + 12, 4);
		} else {
			memcpy(a, in6->s6_addr, 16);
		}
	} else {
		return 0;
	}
	if (family != c->family)
		return 0;
	int whole = c->bits / 8, rest = c->bits % 8;
	if (memcmp(a, c->net, (size_t)whole) != 0)
		return 0;
	return rest == 0 || ((a[whole] ^ c->net[whole]) & (0xff << (8 - rest))) == 0;
}

void
cidr_addr_name(const struct sockaddr *sa, char *out, size_t len)
{
	char host[INET6_ADDRSTRLEN] = "?";
	if (sa->sa_family == AF_INET) {
		const struct sockaddr_in *in = (const struct sockaddr_in *)(const void *)sa;
		inet_ntop(AF_INET, &in->sin_addr, host, sizeof host);
		snprintf(out, len, "%s:%d", host, ntohs(in->sin_port));
	} else if (sa->sa_family == AF_INET6) {
		const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)(const void *)sa;
		if (IN6_IS_ADDR_V4MAPPED(&in6->sin6_addr)) {
			inet_ntop(AF_INET, in6->sin6_addr.s6_addr + 12, host, sizeof host);
			snprintf(out, len, "%s:%d", host, ntohs(in6->sin6_port));
			return;
		}
		inet_ntop(AF_INET6, &in6->sin6_addr, host, sizeof host);
		snprintf(out, len, "[%s]:%d", host, ntohs(in6->sin6_port));
	} else {
		snprintf(out, len, "?");
	}
}
