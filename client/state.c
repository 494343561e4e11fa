/*
 * state.c: the client's session file (see state.h).
 */
#include "client/state.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "client/model.h"
#include "client/xdg.h"

int
state_path(const char *host, const char *port, const char *who, char *buf, size_t len)
{
	char file[300];
	/* a host name is not a path: no directory of its own */
	int n = snprintf(file, sizeof file, "session-%s_%s-%s", host, port, who ? who : "-");
	if (n <= 0 || (size_t)n >= sizeof file)
		return -1;
	for (char *p = file; *p; p++)
		if (*p == '/')
			*p = '_';
	return xdg_path(XDG_STATE, file, buf, len);
}

int
state_load(const char *path, state_t *st)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	char line[256];
	long pid = 0;
	memset(st, 0, sizeof *st);
	int n = fgets(line, sizeof line, f)
	    ? sscanf(line, "%64s %16s %ld %20s", st->token, st->room, &pid, st->name)
	    : 0;
	fclose(f);
	if (n < 4 || (pid != (long)getpid() && kill((pid_t)pid, 0) == 0))
		return -1;
	if (strcmp(st->room, "-") == 0)
		st->room[0] = '\0';
	return 0;
}

int
state_save(const char *path, const state_t *st)
{
	char tmp[1100];
	if (xdg_make_parents(path) != 0 ||
	    snprintf(tmp, sizeof tmp, "%s.new", path) >= (int)sizeof tmp)
		return -1;
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		return -1;
	FILE *f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		return -1;
	}
	int bad = fprintf(f, "%s %s %ld %s\n", st->token, st->room[0] ? st->room : "-",
		      (long)getpid(), st->name) < 0;
	bad |= fclose(f) != 0;
	if (bad || rename(tmp, path) != 0) {
		unlink(tmp);
		return -1;
	}
	return 0;
}

void
state_forget(const char *path)
{
	unlink(path);
}

void
state_sync(const char *path, const struct model *m, char last[256])
{
	char now[256];
	int seated = m->in_room && !m->over && model_my_side(m) != STONE_EMPTY;
	snprintf(now, 256, "%s %s", m->token, seated ? m->room : "");
	if (!path || strcmp(now, last) == 0)
		return;
	if (!m->token[0] && !last[0])
		return; /* not signed in yet: what an earlier run kept stays */
	state_t st;
	snprintf(st.token, sizeof st.token, "%s", m->token);
	snprintf(st.room, sizeof st.room, "%s", seated ? m->room : "");
	snprintf(st.name, sizeof st.name, "%s", m->me);
	if (!m->token[0])
		state_forget(path);
	else if (state_save(path, &st) != 0)
		return; /* not kept: tried again at the next change */
	snprintf(last, 256, "%s", now);
}
