/*
 * pin.c: the known_hosts file.
 */
#include "client/pin.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/xdg.h"

int
pin_default_path(char *buf, size_t len)
{
	return xdg_path(XDG_CONFIG, "known_hosts", buf, len);
}

pin_result_t
pin_check(const char *path, const char *hostport, const char *fp, char *old, size_t oldlen)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return errno == ENOENT ? PIN_NEW : PIN_ERROR;
	char line[1024];
	pin_result_t r = PIN_NEW;
	while (fgets(line, sizeof line, f)) {
		char host[512], key[256];
		if (line[0] == '#' || sscanf(line, "%511s %255s", host, key) != 2)
			continue;
		if (strcmp(host, hostport) != 0)
			continue;
		if (strcmp(key, fp) == 0) {
			r = PIN_MATCH;
			break;
		}
		r = PIN_CHANGED;
		if (old)
			snprintf(old, oldlen, "%s", key);
	}
	if (ferror(f))
		r = PIN_ERROR; /* unreadable (a directory, an I/O error) */
	fclose(f);
	return r;
}

int
pin_add(const char *path, const char *hostport, const char *fp)
{
	if (xdg_make_parents(path) != 0)
		return -1;
	FILE *f = fopen(path, "a");
	if (!f)
		return -1;
	int bad = fprintf(f, "%s %s\n", hostport, fp) < 0;
	bad |= fclose(f) != 0;
	return bad ? -1 : 0;
}
