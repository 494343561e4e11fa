/* cidr.h: IPv4 and IPv6 addresses and networks ("192.0.2.7",
 * "10.1.0.0/16", "2001:db8::/32"), parsed once and matched against socket
 * addresses: the one rule that bans (admin.c) and the trusted fronts
 * (front.c) share. */
#ifndef GOMOKUD_CIDR_H
#define GOMOKUD_CIDR_H

#include <stddef.h>
#include <sys/socket.h>

struct cidr {
	int family;            /* AF_INET or AF_INET6 */
	unsigned char net[16]; /* the network, host bits cleared */
	int bits;              /* prefix length; a bare address: 32 or 128 */
};

/* s as an address or network. 0, or -1 when it is neither. */
int cidr_parse(const char *s, struct cidr *out);
/* Its canonical text ("10.1.0.0/16", "192.0.2.7"). 0, or -1 when cap is
 * too small. */
int cidr_format(const struct cidr *c, char *out, size_t cap);
/* Whether the socket address is inside the network; an IPv4-mapped IPv6
 * address counts as the IPv4 one. */
int cidr_match(const struct cidr *c, const struct sockaddr *sa);
/* A socket address for the logs: "192.0.2.7:5555", "[2001:db8::1]:5555",
 * or "?" when it is neither family. */
void cidr_addr_name(const struct sockaddr *sa, char *out, size_t len);

#endif
