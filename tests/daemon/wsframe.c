/* wsframe.c: test-side WebSocket frames (see wsframe.h). */
#include "tests/daemon/wsframe.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

size_t
wsf_encode(unsigned char *out, int fin, int opcode, const void *payload, size_t n)
{
	size_t o = 0;
	out[o++] = (unsigned char)((fin ? 0x80 : 0) | (opcode & 15));
	if (n < 126) {
		out[o++] = (unsigned char)(0x80 | n);
	} else if (n < 65536) {
		out[o++] = 0x80 | 126;
		out[o++] = (unsigned char)(n >> 8);
		out[o++] = (unsigned char)n;
	} else {
		out[o++] = 0x80 | 127;
		for (int i = 7; i >= 0; i--)
			out[o++] = (unsigned char)((uint64_t)n >> (8 * i));
	}
	unsigned char mask[4];
	for (int i = 0; i < 4; i++)
		mask[i] = (unsigned char)(rand() & 255);
	memcpy(out + o, mask, 4);
	o += 4;
	const unsigned char *p = payload;
	for (size_t i = 0; i < n; i++)
		out[o + i] = p[i] ^ mask[i & 3];
	return o + n;
}

long
wsf_decode(const unsigned char *buf, size_t len, int *fin, int *opcode, size_t *off, size_t *plen)
{
	if (len < 2)
		return 0;
	if ((buf[0] & 0x70) || (buf[1] & 0x80)) /* reserved bits; a server never masks */
		return -1;
	*fin = (buf[0] & 0x80) != 0;
	*opcode = buf[0] & 15;
	size_t n = buf[1] & 127, o = 2;
	if (n == 126) {
		if (len < 4)
			return 0;
		n = (size_t)buf[2] << 8 | buf[3];
		o = 4;
	} else if (n == 127) {
		if (len < 10)
			return 0;
		n = 0;
		for (int i = 0; i < 8; i++)
			n = n << 8 | buf[2 + i];
		o = 10;
	}
	if (len < o + n)
		return 0;
	*off = o;
	*plen = n;
	return (long)(o + n);
}
