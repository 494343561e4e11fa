/* roomid.c: room ids (roomid.h). */
#include "daemon/roomid.h"

#include <stdlib.h>
#include <string.h>

static const char letters[] = "abcdefghijklmnopqrstuvwxyz";

int
roomid_node_ok(const char *node)
{
	size_t n = strspn(node, letters);
	return n > 0 && n <= ROOMID_NODE_MAX && node[n] == '\0';
}

int
roomid_parse(const char *id, char node[ROOMID_NODE_MAX + 1], uint32_t *num)
{
	size_t n = strspn(id, letters);
	size_t d = strspn(id + n, "0123456789");
	if (n == 0 || n > ROOMID_NODE_MAX || d == 0 || d > 10 || id[n + d] != '\0' || id[n] == '0')
		return -1;
	unsigned long long v = strtoull(id + n, NULL, 10);
	if (v > UINT32_MAX)
		return -1;
	if (node) {
		memcpy(node, id, n);
		node[n] = '\0';
	}
	if (num)
		*num = (uint32_t)v;
	return 0;
}
