/*
 * po2json.c: reads gettext catalogs (po/, docs/i18n.md) at build and test
 * time. Every message has a key, its msgctxt; the web's catalogs are JSON
 * objects from key to text.
 *
 *   po2json json LANG.po             {"key": "text", ...} on stdout
 *   po2json languages A.po B.po ...  {"A": "its own name", ...} (lang.name)
 *   po2json check TEMPLATE.pot A.po ...
 *       every message of the template has a key, and each catalog has every
 *       key with the template's English, translated and not fuzzy, and no
 *       key the template lacks; each problem is named, exit 1 if any
 *
 * The reader knows what our catalogs use: msgctxt, msgid, msgstr, strings
 * over several lines, the fuzzy flag, obsolete (#~) entries skipped.
 * Plural forms are refused (no message has them yet).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct msg {
	char *ctxt, *id, *str;
	int fuzzy, has_ctxt, line;
};

struct cat {
	const char *path;
	struct msg *m;
	int n, cap;
};

static void *
xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n);
	if (!q) {
		fprintf(stderr, "po2json: out of memory\n");
		exit(2);
	}
	return q;
}

/* Appends the C string literal at p ("...", escapes undone) to *dst. */
static int
append_lit(char **dst, const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p++ != '"')
		return -1;
	size_t have = *dst ? strlen(*dst) : 0;
	char *out = xrealloc(*dst, have + strlen(p) + 1);
	char *o = out + have;
	for (; *p && *p != '"'; p++) {
		if (*p != '\\') {
			*o++ = *p;
			continue;
		}
		switch (*++p) {
		case 'n':
			*o++ = '\n';
			break;
		case 't':
			*o++ = '\t';
			break;
		case 'r':
			*o++ = '\r';
			break;
		case '"':
		case '\\':
			*o++ = *p;
			break;
		default:
			*dst = out;
			*o = '\0';
			return -1;
		}
	}
	*o = '\0';
	*dst = out;
	return *p == '"' ? 0 : -1;
}

static void
free_msg(struct msg *m)
{
	free(m->ctxt);
	free(m->id);
	free(m->str);
}

static void
free_cat(struct cat *c)
{
	for (int i = 0; i < c->n; i++)
		free_msg(&c->m[i]);
	free(c->m);
	c->m = NULL;
	c->n = c->cap = 0;
}

/* Reads path into c (free_cat after, whatever it returns). */
static int
load(struct cat *c, const char *path)
{
	memset(c, 0, sizeof *c);
	FILE *f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "po2json: cannot read %s\n", path);
		return -1;
	}
	c->path = path;
	char line[8192];
	char **cur = NULL; /* the field continuation lines go to */
	struct msg m;
	memset(&m, 0, sizeof m);
	int lineno = 0, bad = 0, open = 0;
	for (;;) {
		int eof = !fgets(line, sizeof line, f);
		lineno++;
		if (!eof)
			line[strcspn(line, "\r\n")] = '\0';
		int blank = eof || line[0] == '\0';
		int starts = !eof &&
		    (strncmp(line, "msgctxt ", 8) == 0 ||
			(strncmp(line, "msgid ", 6) == 0 && m.id && m.str) ||
			(line[0] == '#' && m.str));
		if ((blank || starts) && open) {
			if (m.id && m.str) {
				if (c->n == c->cap)
					c->m = xrealloc(c->m,
					    sizeof *c->m *
						(size_t)(c->cap = c->cap ? 2 * c->cap : 64));
				c->m[c->n++] = m;
			} else {
				if (m.id || m.ctxt) {
					fprintf(stderr,
					    "%s:%d: a message without msgid or msgstr\n", path,
					    m.line);
					bad = 1;
				}
				free_msg(&m);
			}
			memset(&m, 0, sizeof m);
			cur = NULL;
			open = 0;
		}
		if (eof)
			break;
		if (blank)
			continue;
		if (!open) {
			open = 1;
			m.line = lineno;
		}
		if (strncmp(line, "#~", 2) == 0) {
			cur = NULL;
			m.fuzzy = -1; /* obsolete: dropped below */
			continue;
		}
		if (strncmp(line, "#,", 2) == 0) {
			if (strstr(line, "fuzzy"))
				m.fuzzy = 1;
			continue;
		}
		if (line[0] == '#')
			continue;
		int r = 0;
		if (strncmp(line, "msgctxt ", 8) == 0) {
			m.has_ctxt = 1;
			r = append_lit(&m.ctxt, line + 8);
			cur = &m.ctxt;
		} else if (strncmp(line, "msgid ", 6) == 0) {
			r = append_lit(&m.id, line + 6);
			cur = &m.id;
		} else if (strncmp(line, "msgstr ", 7) == 0) {
			r = append_lit(&m.str, line + 7);
			cur = &m.str;
		} else if (line[0] == '"' && cur) {
			r = append_lit(cur, line);
		} else {
			fprintf(stderr, "%s:%d: not understood (plural forms are not used): %s\n",
			    path, lineno, line);
			bad = 1;
		}
		if (r) {
			fprintf(stderr, "%s:%d: a bad string\n", path, lineno);
			bad = 1;
		}
	}
	fclose(f);
	/* drop obsolete entries and the header (msgid "") */
	int k = 0;
	for (int i = 0; i < c->n; i++)
		if (c->m[i].fuzzy >= 0 && c->m[i].id[0])
			c->m[k++] = c->m[i];
		else
			free_msg(&c->m[i]);
	c->n = k;
	return bad ? -1 : 0;
}

static const struct msg *
find(const struct cat *c, const char *key)
{
	for (int i = 0; i < c->n; i++)
		if (c->m[i].ctxt && strcmp(c->m[i].ctxt, key) == 0)
			return &c->m[i];
	return NULL;
}

static void
json_str(const char *s)
{
	putchar('"');
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			printf("\\%c", *p);
		else if (*p == '\n')
			printf("\\n");
		else if (*p < 0x20)
			printf("\\u%04x", *p);
		else
			putchar(*p);
	}
	putchar('"');
}

/* "po/zh_CN.po" -> "zh_CN" */
static void
lang_of(const char *path, char *buf, size_t len)
{
	const char *b = strrchr(path, '/');
	b = b ? b + 1 : path;
	size_t n = strcspn(b, ".");
	snprintf(buf, len, "%.*s", (int)n, b);
}

static int
cmd_json(const char *path)
{
	struct cat c;
	if (load(&c, path) != 0) {
		free_cat(&c);
		return 1;
	}
	printf("{");
	int first = 1;
	for (int i = 0; i < c.n; i++) {
		const struct msg *m = &c.m[i];
		if (!m->ctxt || m->fuzzy || !m->str[0])
			continue; /* the web falls back to English, as gettext does */
		printf("%s\n  ", first ? "" : ",");
		json_str(m->ctxt);
		printf(": ");
		json_str(m->str);
		first = 0;
	}
	printf("\n}\n");
	free_cat(&c);
	return 0;
}

static int
cmd_languages(int n, char **paths)
{
	printf("{");
	for (int i = 0; i < n; i++) {
		struct cat c;
		int ok = load(&c, paths[i]) == 0;
		const struct msg *m = ok ? find(&c, "lang.name") : NULL;
		if (ok && (!m || !m->str[0]))
			fprintf(stderr, "po2json: %s has no lang.name\n", paths[i]);
		if (!m || !m->str[0]) {
			free_cat(&c);
			return 1;
		}
		char lang[64];
		lang_of(paths[i], lang, sizeof lang);
		printf("%s\n  ", i ? "," : "");
		json_str(lang);
		printf(": ");
		json_str(m->str);
		free_cat(&c);
	}
	printf("\n}\n");
	return 0;
}

/* Whether template t's keys are sound: each message has one, used once. */
static int
check_template(const struct cat *t)
{
	int bad = 0;
	for (int i = 0; i < t->n; i++) {
		if (!t->m[i].ctxt || !t->m[i].ctxt[0]) {
			fprintf(stderr, "%s:%d: no key (msgctxt) for \"%s\"\n", t->path,
			    t->m[i].line, t->m[i].id);
			bad = 1;
			continue;
		}
		for (int j = 0; j < i; j++)
			if (t->m[j].ctxt && strcmp(t->m[i].ctxt, t->m[j].ctxt) == 0) {
				fprintf(stderr, "%s:%d: key %s has two English texts\n", t->path,
				    t->m[i].line, t->m[i].ctxt);
				bad = 1;
			}
	}
	return bad;
}

/* The problems of catalog c against template t, each named; their count. */
static int
check_catalog(const struct cat *t, const struct cat *c)
{
	int missing = 0;
	for (int i = 0; i < t->n; i++) {
		if (!t->m[i].ctxt)
			continue;
		const struct msg *m = find(c, t->m[i].ctxt);
		const char *why = !m                 ? "missing"
		    : strcmp(m->id, t->m[i].id) != 0 ? "has another English text (make po)"
		    : m->fuzzy                       ? "fuzzy"
		    : !m->str[0]                     ? "not translated"
						     : NULL;
		if (why) {
			fprintf(stderr, "%s: %s: %s\n", c->path, t->m[i].ctxt, why);
			missing++;
		}
	}
	for (int i = 0; i < c->n; i++)
		if (!c->m[i].ctxt || !find(t, c->m[i].ctxt)) {
			fprintf(stderr, "%s:%d: %s: not in the template (make po)\n", c->path,
			    c->m[i].line, c->m[i].ctxt ? c->m[i].ctxt : c->m[i].id);
			missing++;
		}
	return missing;
}

static int
cmd_check(const char *tpath, int n, char **paths)
{
	struct cat t;
	int bad = load(&t, tpath) != 0;
	if (!bad)
		bad = check_template(&t);
	for (int k = 0; k < n && t.m; k++) {
		struct cat c;
		if (load(&c, paths[k]) != 0 || check_catalog(&t, &c) != 0)
			bad = 1;
		else
			printf("%s: all %d keys translated\n", paths[k], t.n);
		fflush(stdout);
		free_cat(&c);
	}
	free_cat(&t);
	return bad;
}

int
main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "json") == 0)
		return cmd_json(argv[2]);
	if (argc >= 3 && strcmp(argv[1], "languages") == 0)
		return cmd_languages(argc - 2, argv + 2);
	if (argc >= 4 && strcmp(argv[1], "check") == 0)
		return cmd_check(argv[2], argc - 3, argv + 3);
	fprintf(stderr,
	    "usage: po2json json LANG.po | languages A.po... | check TEMPLATE.pot A.po...\n");
	return 2;
}
