/*
 * xdg.c: the client's file locations (see xdg.h).
 */
#include "client/xdg.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

int
xdg_path(xdg_kind_t kind, const char *file, char *buf, size_t len)
{
	const char *xdg = getenv(kind == XDG_CONFIG ? "XDG_CONFIG_HOME" : "XDG_STATE_HOME");
	const char *home = getenv("HOME");
	int n;
	if (xdg && xdg[0] == '/')
		n = snprintf(buf, len, "%s/gomoku/%s", xdg, file);
	else if (home && home[0])
		n = snprintf(buf, len, "%s/%s/gomoku/%s", home,
		    kind == XDG_CONFIG ? ".config" : ".local/state", file);
	else
		return -1;
	return n > 0 && (size_t)n < len ? 0 : -1;
}

int
xdg_make_parents(const char *path)
{
	char dir[1024];
	if (snprintf(dir, sizeof dir, "%s", path) >= (int)sizeof dir)
		return -1;
	for (char *s = dir + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(dir, 0700) != 0 && errno != EEXIST)
			return -1;
		*s = '/';
	}
	return 0;
}
