/*
 * conf.c: gomoku-bot's config file.
 */
#include "bot/conf.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static void
defaults(bot_conf_t *c)
{
	memset(c, 0, sizeof *c);
	c->brain_failures = 3;
	c->brain_sandbox = 1;
	c->turn_ms = 5000;
	c->rules = 1u << RULE_FREESTYLE | 1u << RULE_STANDARD | 1u << RULE_RENJU;
	for (int s = RULES_MIN_SIZE; s <= RULES_MAX_SIZE; s++)
		c->sizes |= 1u << s;
	c->untimed = 1;
	c->base_min = 1;
	c->base_max = PROTO_TC_BASE_MAX;
	c->inc_min = 0;
	c->inc_max = PROTO_TC_INC_MAX;
	c->rated = c->casual = 1;
	c->max_games = 1;
	c->league = -1;
}

/* A whole decimal number in [lo, hi]: 0, or -1. */
static int
number(const char *s, long lo, long hi, long *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (!*s || *end || errno || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

static int
yesno(const char *s, int *out)
{
	if (!strcmp(s, "yes") || !strcmp(s, "1")) {
		*out = 1;
		return 0;
	}
	if (!strcmp(s, "no") || !strcmp(s, "0")) {
		*out = 0;
		return 0;
	}
	return -1;
}

/* "A-B" or "A" within [lo, hi]. */
static int
range(const char *s, long lo, long hi, int *a, int *b)
{
	char buf[64];
	snprintf(buf, sizeof buf, "%s", s);
	char *dash = strchr(buf, '-');
	long x, y;
	if (dash)
		*dash = '\0';
	if (number(buf, lo, hi, &x) != 0)
		return -1;
	y = x;
	if (dash && number(dash + 1, lo, hi, &y) != 0)
		return -1;
	if (y < x)
		return -1;
	*a = (int)x;
	*b = (int)y;
	return 0;
}

/* Comma-separated names into list (replacing what was there). */
static int
names(char *s, char list[][PROTO_NAME_MAX + 1], int *n)
{
	*n = 0;
	for (char *t = strtok(s, ","); t; t = strtok(NULL, ",")) {
		size_t len = strlen(t);
		if (*n == CONF_NAMES_MAX || len == 0 || len > PROTO_NAME_MAX)
			return -1;
		for (size_t i = 0; i < len; i++)
			if (!(isalnum((unsigned char)t[i]) || t[i] == '_' || t[i] == '-'))
				return -1;
		memcpy(list[*n], t, len + 1);
		(*n)++;
	}
	return 0;
}

/* "host:port" or "[v6]:port". */
static int
hostport(const char *s, bot_conf_t *c)
{
	const char *colon = strrchr(s, ':');
	if (!colon || colon == s || !colon[1])
		return -1;
	size_t hl = (size_t)(colon - s);
	const char *h = s;
	if (h[0] == '[' && hl >= 2 && h[hl - 1] == ']') {
		h++;
		hl -= 2;
	}
	long port;
	if (hl == 0 || hl >= sizeof c->host || number(colon + 1, 1, 65535, &port) != 0)
		return -1;
	memcpy(c->host, h, hl);
	c->host[hl] = '\0';
	snprintf(c->port, sizeof c->port, "%ld", port);
	return 0;
}

/* The brain's command line, split at spaces (no quoting). */
static int
brain(const char *s, bot_conf_t *c)
{
	if (strlen(s) >= sizeof c->brain_line)
		return -1;
	snprintf(c->brain_line, sizeof c->brain_line, "%s", s);
	int n = 0;
	for (char *t = strtok(c->brain_line, " "); t; t = strtok(NULL, " ")) {
		if (n == CONF_ARGS_MAX)
			return -1;
		c->brain_argv[n++] = t;
	}
	c->brain_argv[n] = NULL;
	return n ? 0 : -1;
}

/* One key and its value: NULL, or what is wrong. */
static const char *
apply(bot_conf_t *c, const char *key, char *val)
{
	long v;
	int a, b;
	if (!strcmp(key, "server"))
		return hostport(val, c) ? "want host:port" : NULL;
	if (!strcmp(key, "ca")) {
		snprintf(c->ca, sizeof c->ca, "%s", val);
		return strlen(val) >= sizeof c->ca ? "path too long" : NULL;
	}
	if (!strcmp(key, "pin")) {
		if (strncmp(val, "sha256:", 7) || strlen(val) != 7 + 64 ||
		    strspn(val + 7, "0123456789abcdef") != 64)
			return "want sha256: and 64 lower-case hex digits";
		snprintf(c->pin, sizeof c->pin, "%s", val);
		return NULL;
	}
	if (!strcmp(key, "insecure"))
		return yesno(val, &c->insecure) ? "want yes or no" : NULL;
	if (!strcmp(key, "name")) {
		char one[1][PROTO_NAME_MAX + 1];
		int n;
		if (names(val, one, &n) || n != 1 || !isalpha((unsigned char)one[0][0]))
			return "not an account name";
		snprintf(c->name, sizeof c->name, "%s", one[0]);
		return NULL;
	}
	if (!strcmp(key, "password")) {
		size_t len = strlen(val);
		if (len == 0 || len > PROTO_PASS_MAX || strchr(val, ' '))
			return "1 to 64 printable characters, no space";
		snprintf(c->password, sizeof c->password, "%s", val);
		return NULL;
	}
	if (!strcmp(key, "state-file")) {
		snprintf(c->state_file, sizeof c->state_file, "%s", val);
		return strlen(val) >= sizeof c->state_file ? "path too long" : NULL;
	}
	if (!strcmp(key, "bot-token")) { /* gomokuctl bot token's 32 hex digits */
		if (strlen(val) != 32 || strspn(val, "0123456789abcdef") != 32)
			return "want the 32 lower-case hex digits of gomokuctl bot token";
		snprintf(c->bot_token, sizeof c->bot_token, "%s", val);
		return NULL;
	}
	if (!strcmp(key, "brain"))
		return brain(val, c) ? "want a command line (at most 32 words)" : NULL;
	if (!strcmp(key, "brain-memory")) {
		if (number(val, 0, 1L << 20, &v))
			return "want MiB, 0 to 1048576";
		c->brain_memory_mib = v;
		return NULL;
	}
	if (!strcmp(key, "brain-failures")) {
		if (number(val, 1, 100, &v))
			return "want 1 to 100";
		c->brain_failures = (int)v;
		return NULL;
	}
	if (!strcmp(key, "brain-swap2"))
		return yesno(val, &c->brain_swap2) ? "want yes or no" : NULL;
	if (!strcmp(key, "brain-sandbox"))
		return yesno(val, &c->brain_sandbox) ? "want yes or no" : NULL;
	if (!strcmp(key, "turn-ms")) {
		if (number(val, 100, 3600000, &v))
			return "want 100 to 3600000";
		c->turn_ms = (int)v;
		return NULL;
	}
	if (!strcmp(key, "rules")) {
		c->rules = 0;
		for (char *t = strtok(val, ","); t; t = strtok(NULL, ",")) {
			rule_t r;
			if (rule_parse(t, &r))
				return "want freestyle, standard or renju, comma-separated";
			c->rules |= 1u << r;
		}
		return c->rules ? NULL : "no rule";
	}
	if (!strcmp(key, "sizes")) {
		c->sizes = 0;
		for (char *t = strtok(val, ","); t; t = strtok(NULL, ",")) {
			if (range(t, RULES_MIN_SIZE, RULES_MAX_SIZE, &a, &b))
				return "want sizes or ranges of 5 to 20 (15,19 or 9-15)";
			for (int s = a; s <= b; s++)
				c->sizes |= 1u << s;
		}
		return c->sizes ? NULL : "no size";
	}
	if (!strcmp(key, "untimed"))
		return yesno(val, &c->untimed) ? "want yes or no" : NULL;
	if (!strcmp(key, "base-seconds")) {
		if (range(val, 1, PROTO_TC_BASE_MAX, &c->base_min, &c->base_max))
			return "want MIN-MAX seconds, 1 to 86400";
		return NULL;
	}
	if (!strcmp(key, "increment-seconds")) {
		if (range(val, 0, PROTO_TC_INC_MAX, &c->inc_min, &c->inc_max))
			return "want MIN-MAX seconds, 0 to 3600";
		return NULL;
	}
	if (!strcmp(key, "rated")) {
		if (!strcmp(val, "any"))
			c->rated = c->casual = 1;
		else if (!strcmp(val, "rated") || !strcmp(val, "casual"))
			c->rated = !(c->casual = !strcmp(val, "casual"));
		else
			return "want any, rated or casual";
		return NULL;
	}
	if (!strcmp(key, "allow"))
		return names(val, c->allow, &c->nallow) ? "want names, comma-separated" : NULL;
	if (!strcmp(key, "block"))
		return names(val, c->block, &c->nblock) ? "want names, comma-separated" : NULL;
	if (!strcmp(key, "max-games")) {
		if (number(val, 1, CONF_GAMES_MAX, &v))
			return "want 1 to 64";
		c->max_games = (int)v;
		return NULL;
	}
	if (!strcmp(key, "league"))
		return yesno(val, &c->league) ? "want yes or no" : NULL;
	return "unknown key";
}

int
conf_load(const char *path, bot_conf_t *c, char *err, size_t errlen)
{
	defaults(c);
	FILE *f = fopen(path, "r");
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	char line[2048];
	int no = 0;
	while (fgets(line, sizeof line, f)) {
		no++;
		size_t len = strlen(line);
		if (len == sizeof line - 1 && line[len - 1] != '\n') {
			snprintf(err, errlen, "%s:%d: line too long", path, no);
			fclose(f);
			return -1;
		}
		char *hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		char *s = line;
		while (isspace((unsigned char)*s))
			s++;
		char *e = s + strlen(s);
		while (e > s && isspace((unsigned char)e[-1]))
			*--e = '\0';
		if (!*s)
			continue;
		char *key = s;
		while (*s && !isspace((unsigned char)*s))
			s++;
		if (*s)
			*s++ = '\0';
		while (isspace((unsigned char)*s))
			s++;
		const char *why = *s ? apply(c, key, s) : "no value";
		if (why) {
			snprintf(err, errlen, "%s:%d: %s: %s", path, no, key, why);
			fclose(f);
			return -1;
		}
	}
	fclose(f);
	const char *missing = !c->host[0] ? "server"
	    : !c->name[0]                 ? "name"
	    : !c->password[0]             ? "password"
	    : !c->brain_argv[0]           ? "brain"
					  : NULL;
	if (missing) {
		snprintf(err, errlen, "%s: no %s", path, missing);
		return -1;
	}
	return 0;
}
