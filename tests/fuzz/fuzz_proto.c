/*
 * fuzz_proto: libFuzzer target for the protocol library. Any input, split at
 * its first byte into "from client" or "from server", must parse without a
 * sanitizer report; whatever parses must format, and the formatted line must
 * parse back to the same struct.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "proto/proto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	int from = (data[0] & 1) ? PROTO_SERVER : PROTO_CLIENT;
	proto_msg_t m, m2;
	char err[80], out[PROTO_LINE_MAX];
	if (proto_parse((const char *)data + 1, size - 1, from, &m, err, sizeof err) != 0)
		return 0;
	int n = proto_format(&m, out, sizeof out);
	if (n <= 0 || out[n - 1] != '\n')
		abort();
	if (proto_parse(out, (size_t)n - 1, from, &m2, err, sizeof err) != 0)
		abort();
	if (memcmp(&m, &m2, sizeof m) != 0)
		abort();
	return 0;
}
