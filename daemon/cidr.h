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

/* s as an address or network. 0, or -1 when it is neither. An IPv4-mapped
 * IPv6 form ("::ffff:198.51.100.9", "::ffff:10.0.0.0/104") is taken as the
 * IPv4 address or network it maps, so it prints and matches as that. */
int cidr_parse(const char *s, struct cidr *out);
/* Its canonical text ("10.1.0.0/16", "192.0.2.7"). 0, or -1 when cap is
 * too small. */
int cidr_format(const struct cidr *c, char *out, size_t cap);
/* Whether the socket address is inside the network; an IPv4-mapped IPv6
 * address counts as the IPv4 one. */
int cidr_match(const struct cidr *c, const struct sockaddr *sa);
/* A socket address for the logs: "192.0.2.7:5555", "[2001:db8::1]:5555",
 * or "?" when it is neither family; an IPv4-mapped IPv6 address is named
 * as its IPv4 one. */
void cidr_addr_name(const struct sockaddr *sa, char *out, size_t len);
/* The socket address sa (len bytes) into out, an IPv4-mapped IPv6 address
 * as the plain IPv4 one (its port kept): its length. */
socklen_t cidr_unmap(const struct sockaddr *sa, socklen_t len, struct sockaddr_storage *out);
/* The network a per-address limit counts sa by: an IPv4 address alone
 * (/32; a mapped one as IPv4), an IPv6 address by its first v6_bits bits
 * (the config's ipv6-prefix, 64 by default). 0, or -1 for another family. */
int cidr_unit(const struct sockaddr *sa, int v6_bits, struct cidr *out);
/* An IPv6 address (a /128) widened to v6_bits (2001:db8::7 to
 * 2001:db8::/64): a ban of an address covers what the limits count as one
 * address. A network given with its prefix (::1/127) is kept as it is. */
void cidr_widen(struct cidr *c, int v6_bits);

#endif
