/* log.c: leveled logging to stderr. */
#include "daemon/log.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *const names[] = { "error", "warn", "info", "debug" };

void
log_init(struct logger *lg, int level)
{
	lg->level = level;
	lg->journald = getenv("JOURNAL_STREAM") != NULL;
}

int
log_level_parse(const char *s)
{
	for (int i = 0; i < 4; i++)
		if (strcmp(s, names[i]) == 0)
			return i;
	return -1;
}

void
log_at(const struct logger *lg, int level, const char *fmt, ...)
{
	if (level > lg->level)
		return;
	char line[1024];
	int n;
	if (lg->journald) {
		static const int prio[] = { 3, 4, 6, 7 };
		n = snprintf(line, sizeof line, "<%d>", prio[level]);
	} else {
		struct timespec ts;
		struct tm tm;
		clock_gettime(CLOCK_REALTIME, &ts);
		gmtime_r(&ts.tv_sec, &tm);
		n = snprintf(line, sizeof line, "%04d-%02d-%02dT%02d:%02d:%02d.%03ldZ %s ",
		    tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
		    ts.tv_nsec / 1000000, names[level]);
	}
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line + n, sizeof line - (size_t)n, fmt, ap);
	va_end(ap);
	/* one write per line, so concurrent writers never interleave lines */
	for (char *p = line; *p; p++)
		if (*p == '\n')
			*p = ' ';
	fprintf(stderr, "%s\n", line);
}
