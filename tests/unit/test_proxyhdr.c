/* test_proxyhdr.c: the PROXY protocol v2 header parser (daemon/proxyhdr.c)
 * on headers built byte by byte as the specification lays them out: TCP
 * over IPv4 and IPv6, LOCAL, TLVs skipped, and each way a header can be
 * wrong: a short read at every length, a bad signature, version 1 text, a
 * bad version or command, an unsupported family, a length over the cap or
 * shorter than its addresses, a TLV past the end. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "daemon/proxyhdr.h"

static const unsigned char sig[12] = { 0x0d, 0x0a, 0x0d, 0x0a, 0x00, 0x0d, 0x0a, 0x51, 0x55, 0x49,
	0x54, 0x0a };

/* A header: version/command byte, family byte, then body (addresses and
 * TLVs) with its length. Returns the whole length. */
static size_t
header(unsigned char *out, int vercmd, int fam, const unsigned char *body, size_t n)
{
	memcpy(out, sig, 12);
	out[12] = (unsigned char)vercmd;
	out[13] = (unsigned char)fam;
	out[14] = (unsigned char)(n >> 8);
	out[15] = (unsigned char)n;
	if (n)
		memcpy(out + 16, body, n);
	return 16 + n;
}

/* The address block of TCP over IPv4: 192.0.2.7:40000 to 10.0.0.11:5555. */
static size_t
v4_body(unsigned char *b)
{
	static const unsigned char a[12] = { 192, 0, 2, 7, 10, 0, 0, 11, 0x9c, 0x40, 0x15, 0xb3 };
	memcpy(b, a, sizeof a);
	return sizeof a;
}

static size_t
v6_body(unsigned char *b)
{
	struct in6_addr src, dst;
	inet_pton(AF_INET6, "2001:db8::7", &src);
	inet_pton(AF_INET6, "2001:db8::11", &dst);
	memcpy(b, &src, 16);
	memcpy(b + 16, &dst, 16);
	b[32] = 0x9c, b[33] = 0x41; /* 40001 */
	b[34] = 0x15, b[35] = 0xb3;
	return 36;
}

static int
parse(const unsigned char *buf, size_t n, struct proxyhdr *h, char *err)
{
	return proxyhdr_parse(buf, n, h, err, 120);
}

static void
test_ipv4(void **state)
{
	unsigned char buf[64], body[32];
	struct proxyhdr h;
	char err[120];
	(void)state;
	size_t n = header(buf, 0x21, 0x11, body, v4_body(body));
	memcpy(buf + n, "\x16\x03\x01", 3); /* the client's TLS after it */
	assert_int_equal(parse(buf, n + 3, &h, err), 28);
	assert_int_equal(h.local, 0);
	const struct sockaddr_in *in = (const struct sockaddr_in *)&h.src;
	assert_int_equal(in->sin_family, AF_INET);
	assert_int_equal(ntohl(in->sin_addr.s_addr), 0xc0000207);
	assert_int_equal(ntohs(in->sin_port), 40000);
	assert_int_equal(h.srclen, sizeof(struct sockaddr_in));
}

static void
test_ipv6(void **state)
{
	unsigned char buf[64], body[40];
	struct proxyhdr h;
	char err[120], text[64];
	(void)state;
	size_t n = header(buf, 0x21, 0x21, body, v6_body(body));
	assert_int_equal(parse(buf, n, &h, err), 52);
	assert_int_equal(h.local, 0);
	const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)&h.src;
	assert_int_equal(in6->sin6_family, AF_INET6);
	inet_ntop(AF_INET6, &in6->sin6_addr, text, sizeof text);
	assert_string_equal(text, "2001:db8::7");
	assert_int_equal(ntohs(in6->sin6_port), 40001);
}

/* LOCAL (a health check) keeps the connection's addresses, whatever the
 * family and block say; so does PROXY with an unspecified family. */
static void
test_local(void **state)
{
	unsigned char buf[64], body[32];
	struct proxyhdr h;
	char err[120];
	(void)state;
	assert_int_equal(parse(buf, header(buf, 0x20, 0x00, NULL, 0), &h, err), 16);
	assert_int_equal(h.local, 1);
	assert_int_equal(parse(buf, header(buf, 0x20, 0x11, body, v4_body(body)), &h, err), 28);
	assert_int_equal(h.local, 1);
	assert_int_equal(parse(buf, header(buf, 0x21, 0x00, body, 5), &h, err), 21);
	assert_int_equal(h.local, 1);
}

/* TLVs after the addresses are skipped; one past the end is refused. */
static void
test_tlvs(void **state)
{
	unsigned char buf[128], body[96];
	struct proxyhdr h;
	char err[120];
	(void)state;
	size_t a = v4_body(body);
	static const unsigned char tlvs[] = { 0x01, 0x00, 0x02, 'h', '2', /* ALPN */
		0x04, 0x00, 0x00,                                         /* NOOP, empty */
		0x05, 0x00, 0x03, 'a', 'b', 'c' };                        /* UNIQUE_ID */
	memcpy(body + a, tlvs, sizeof tlvs);
	size_t n = header(buf, 0x21, 0x11, body, a + sizeof tlvs);
	assert_int_equal(parse(buf, n, &h, err), (int)(16 + a + sizeof tlvs));
	assert_int_equal(ntohs(((const struct sockaddr_in *)&h.src)->sin_port), 40000);
	/* the last TLV claims 4 bytes where 3 are */
	body[a + sizeof tlvs - 4] = 0x04;
	n = header(buf, 0x21, 0x11, body, a + sizeof tlvs);
	assert_int_equal(parse(buf, n, &h, err), -1);
	assert_non_null(strstr(err, "TLV"));
	/* a TLV cut inside its type and length */
	n = header(buf, 0x21, 0x11, body, a + 2);
	assert_int_equal(parse(buf, n, &h, err), -1);
}

/* Every short read of a valid header asks for more, never fails: 16 until
 * the length is there, then the whole length. */
static void
test_truncated(void **state)
{
	unsigned char buf[64], body[40];
	struct proxyhdr h;
	char err[120];
	(void)state;
	size_t n = header(buf, 0x21, 0x21, body, v6_body(body));
	for (size_t i = 0; i < n; i++) {
		int want = parse(buf, i, &h, err);
		assert_int_equal(want, i < 16 ? 16 : (int)n);
	}
	assert_int_equal(parse(buf, n, &h, err), (int)n);
}

static void
test_bad_signature(void **state)
{
	unsigned char buf[64], body[32];
	struct proxyhdr h;
	char err[120];
	(void)state;
	size_t n = header(buf, 0x21, 0x11, body, v4_body(body));
	for (size_t i = 0; i < 12; i++) {
		buf[i] ^= 0x20;
		/* refused as soon as the wrong byte is in */
		assert_int_equal(parse(buf, i + 1, &h, err), -1);
		assert_int_equal(parse(buf, n, &h, err), -1);
		buf[i] ^= 0x20;
	}
	/* a TLS ClientHello from a front that sends no header */
	static const unsigned char hello[16] = { 0x16, 0x03, 0x01, 0x02, 0x00, 0x01 };
	assert_int_equal(parse(hello, sizeof hello, &h, err), -1);
	const char *v1 = "PROXY TCP4 192.0.2.7 10.0.0.11 40000 5555\r\n";
	assert_int_equal(parse((const unsigned char *)v1, strlen(v1), &h, err), -1);
	assert_non_null(strstr(err, "v1"));
}

static void
test_bad_version_command_family(void **state)
{
	unsigned char buf[64], body[40];
	struct proxyhdr h;
	char err[120];
	(void)state;
	size_t a = v4_body(body);
	assert_int_equal(parse(buf, header(buf, 0x11, 0x11, body, a), &h, err), -1);
	assert_non_null(strstr(err, "version"));
	assert_int_equal(parse(buf, 13, &h, err), -1); /* known from byte 13 on */
	assert_int_equal(parse(buf, header(buf, 0x31, 0x11, body, a), &h, err), -1);
	assert_int_equal(parse(buf, header(buf, 0x22, 0x11, body, a), &h, err), -1);
	assert_non_null(strstr(err, "command"));
	/* UDP over IPv4, a unix socket, an unknown family: not for a TCP server */
	static const int fams[] = { 0x12, 0x22, 0x31, 0x32, 0x41, 0x10 };
	for (size_t i = 0; i < sizeof fams / sizeof fams[0]; i++) {
		assert_int_equal(parse(buf, header(buf, 0x21, fams[i], body, a), &h, err), -1);
		assert_non_null(strstr(err, "family"));
	}
	/* a length shorter than the family's addresses */
	assert_int_equal(parse(buf, header(buf, 0x21, 0x11, body, 11), &h, err), -1);
	assert_int_equal(parse(buf, header(buf, 0x21, 0x21, body, 12), &h, err), -1);
	assert_non_null(strstr(err, "shorter"));
}

/* The length is capped: refused from the 16 fixed bytes, before the rest
 * is waited for. */
static void
test_oversized(void **state)
{
	unsigned char buf[PROXYHDR_MAX + 16] = { 0 }, body[40];
	struct proxyhdr h;
	char err[120];
	(void)state;
	size_t a = v4_body(body);
	header(buf, 0x21, 0x11, body, a);
	buf[14] = 0xff, buf[15] = 0xff;
	assert_int_equal(parse(buf, 16, &h, err), -1);
	assert_non_null(strstr(err, "over"));
	/* the largest allowed: its addresses, then one NOOP TLV filling it */
	size_t len = PROXYHDR_MAX - 16;
	buf[14] = (unsigned char)(len >> 8), buf[15] = (unsigned char)len;
	buf[16 + a] = 0x04;
	buf[16 + a + 1] = (unsigned char)((len - a - 3) >> 8);
	buf[16 + a + 2] = (unsigned char)(len - a - 3);
	assert_int_equal(parse(buf, PROXYHDR_MAX, &h, err), PROXYHDR_MAX);
	assert_int_equal(h.local, 0);
	len++;
	buf[14] = (unsigned char)(len >> 8), buf[15] = (unsigned char)len;
	assert_int_equal(parse(buf, 16, &h, err), -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ipv4),
		cmocka_unit_test(test_ipv6),
		cmocka_unit_test(test_local),
		cmocka_unit_test(test_tlvs),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_bad_signature),
		cmocka_unit_test(test_bad_version_command_family),
		cmocka_unit_test(test_oversized),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
