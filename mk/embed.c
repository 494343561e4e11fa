/*
 * embed.c: writes a C source holding the web client's files, for
 * daemon/webfiles.h. Run at build time:
 *
 *   embed OUT.c DIR FILE...
 *
 * Each FILE (relative to DIR) becomes one entry; a FILE written NAME=PATH is
 * read from PATH (a generated file: the catalogs of po/ as JSON under
 * build/) and served as NAME, which may hold a slash ("i18n/zh_CN.json").
 * The root files keep their names, served with no-cache: index.html at "/"
 * and the service worker sw.js at "/sw.js" (a worker's scope is its
 * folder, so it must be at the root). Every other file is served under
 * /s/<hash>/<name>, where <hash> is a digest of all the files together, so
 * a new build gets new names and the old ones can be cached forever. In
 * index.html every attribute value that starts with "./" is rewritten to
 * that prefix; in sw.js the string '@BUILD@' becomes the hash and the array
 * ['@ASSETS@'] the hashed paths of every other file (what it precaches).
 * The digest is FNV-1a 64: it names versions, it guards nothing.
 *
 * Each file is also gzipped (zlib, level 9, no name or time in the header,
 * so a build is reproducible); the gzip copy is kept only when smaller, for
 * clients whose Accept-Encoding takes it (daemon/http.c).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

struct file {
	const char *name;
	unsigned char *data;
	size_t len;
	unsigned char *gz; /* NULL when gzip does not make it smaller */
	size_t gzlen;
};

/* The files served at the root, unhashed and revalidated on every use. */
static const char *const roots[][2] = {
	{ "index.html", "/" },
	{ "sw.js", "/sw.js" },
};

static const char *
root_path(const char *name)
{
	for (size_t i = 0; i < sizeof roots / sizeof roots[0]; i++)
		if (strcmp(name, roots[i][0]) == 0)
			return roots[i][1];
	return NULL;
}

static uint64_t
fnv(uint64_t h, const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 1099511628211ull;
	return h;
}

static unsigned char *
slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 4096, n = 0;
	unsigned char *b = malloc(cap);
	size_t r;
	while (b && (r = fread(b + n, 1, cap - n, f)) > 0) {
		n += r;
		if (n == cap) {
			unsigned char *nb = realloc(b, cap *= 2);
			if (!nb) {
				free(b);
				b = NULL;
			}
			b = nb;
		}
	}
	fclose(f);
	*len = n;
	return b;
}

static const char *
type_of(const char *name)
{
	static const char *types[][2] = {
		{ ".html", "text/html; charset=utf-8" },
		{ ".js", "text/javascript; charset=utf-8" },
		{ ".css", "text/css; charset=utf-8" },
		{ ".svg", "image/svg+xml" },
		{ ".png", "image/png" },
		{ ".json", "application/json" },
		{ ".ico", "image/x-icon" },
		{ ".webmanifest", "application/manifest+json" },
		{ ".txt", "text/plain; charset=utf-8" },
	};
	const char *dot = strrchr(name, '.');
	for (size_t i = 0; dot && i < sizeof types / sizeof types[0]; i++)
		if (strcmp(dot, types[i][0]) == 0)
			return types[i][1];
	return "application/octet-stream";
}

/* index.html with its "./x" attribute values made "/s/<hash>/x". */
static void
rewrite_index(struct file *f, const char *prefix)
{
	size_t cap = f->len * 2 + 1024, n = 0;
	unsigned char *out = malloc(cap);
	if (!out)
		exit(1);
	for (size_t i = 0; i < f->len; i++) {
		if (i + 3 <= f->len && f->data[i] == '"' && f->data[i + 1] == '.' &&
		    f->data[i + 2] == '/' && i > 0 && f->data[i - 1] == '=') {
			size_t pl = strlen(prefix);
			if (n + pl + 2 >= cap)
				exit(1);
			out[n++] = '"';
			memcpy(out + n, prefix, pl);
			n += pl;
			i += 2;
			continue;
		}
		if (n + 1 >= cap)
			exit(1);
		out[n++] = f->data[i];
	}
	free(f->data);
	f->data = out;
	f->len = n;
}

/* f's data with every "from" replaced by "to": how many there were. */
static size_t
replace(struct file *f, const char *from, const char *to)
{
	size_t fl = strlen(from), tl = strlen(to), n = 0, hits = 0;
	for (size_t i = 0; i + fl <= f->len; i++)
		if (memcmp(f->data + i, from, fl) == 0)
			hits++;
	unsigned char *out = malloc(f->len + hits * tl + 1);
	if (!out)
		exit(1);
	for (size_t i = 0; i < f->len;) {
		if (i + fl <= f->len && memcmp(f->data + i, from, fl) == 0) {
			memcpy(out + n, to, tl);
			n += tl;
			i += fl;
		} else {
			out[n++] = f->data[i++];
		}
	}
	free(f->data);
	f->data = out;
	f->len = n;
	return hits;
}

/* sw.js with its build's hash and the list of hashed files to precache:
 * 0, or -1 when it lacks a place for either. */
static int
rewrite_worker(struct file *f, const char *hash, const char *prefix, const struct file *all, int nf)
{
	size_t cap = 64, n = 0;
	for (int i = 0; i < nf; i++)
		cap += strlen(prefix) + strlen(all[i].name) + 4;
	char *list = malloc(cap);
	if (!list)
		exit(1);
	list[n++] = '[';
	for (int i = 0; i < nf; i++)
		if (!root_path(all[i].name))
			n += (size_t)snprintf(
			    list + n, cap - n, "%s'%s%s'", n > 1 ? ", " : "", prefix, all[i].name);
	snprintf(list + n, cap - n, "]");
	char quoted[32];
	snprintf(quoted, sizeof quoted, "'%s'", hash);
	size_t built = replace(f, "'@BUILD@'", quoted);
	size_t listed = replace(f, "['@ASSETS@']", list);
	free(list);
	return built == 1 && listed == 1 ? 0 : -1;
}

/* f's gzip copy, when it is smaller than f. */
static void
gzip(struct file *f)
{
	z_stream z;
	memset(&z, 0, sizeof z);
	/* 15 + 16: a gzip wrapper; zlib writes a header with no name and time 0 */
	if (deflateInit2(&z, 9, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY) != Z_OK)
		exit(1);
	size_t cap = deflateBound(&z, (uLong)f->len) + 32;
	unsigned char *out = malloc(cap);
	if (!out)
		exit(1);
	z.next_in = f->data;
	z.avail_in = (uInt)f->len;
	z.next_out = out;
	z.avail_out = (uInt)cap;
	if (deflate(&z, Z_FINISH) != Z_STREAM_END)
		exit(1);
	size_t n = cap - z.avail_out;
	deflateEnd(&z);
	if (n < f->len) {
		f->gz = out;
		f->gzlen = n;
	} else {
		free(out);
	}
}

static void
array(FILE *o, const char *name, int idx, const unsigned char *p, size_t n)
{
	fprintf(o, "static const unsigned char %s%d[] = {", name, idx);
	for (size_t i = 0; i < n; i++)
		fprintf(o, "%s%u,", i % 20 ? "" : "\n\t", p[i]);
	fprintf(o, "\n\t0\n};\n");
}

int
main(int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr, "usage: embed OUT.c DIR FILE...\n");
		return 2;
	}
	int nf = argc - 3;
	struct file *files = calloc((size_t)nf, sizeof *files);
	uint64_t all = 1469598103934665603ull;
	for (int i = 0; i < nf; i++) {
		char path[1024];
		const char *eq = strchr(argv[i + 3], '=');
		if (eq) {
			/* NAME=PATH: the name is cut off at the '=' in place */
			argv[i + 3][eq - argv[i + 3]] = '\0';
			snprintf(path, sizeof path, "%s", eq + 1);
		} else {
			snprintf(path, sizeof path, "%s/%s", argv[2], argv[i + 3]);
		}
		files[i].name = argv[i + 3];
		if (!(files[i].data = slurp(path, &files[i].len))) {
			fprintf(stderr, "embed: cannot read %s\n", path);
			return 1;
		}
		all = fnv(all, (const unsigned char *)files[i].name, strlen(files[i].name) + 1);
		all = fnv(all, files[i].data, files[i].len);
	}
	char hash[24], prefix[64];
	snprintf(hash, sizeof hash, "%016llx", (unsigned long long)all);
	snprintf(prefix, sizeof prefix, "/s/%s/", hash);
	FILE *o = fopen(argv[1], "w");
	if (!o) {
		fprintf(stderr, "embed: cannot write %s\n", argv[1]);
		return 1;
	}
	fprintf(o, "/* Generated by mk/embed.c from client/web/ and po/: do not edit. */\n");
	fprintf(o, "#include \"daemon/webfiles.h\"\n\n");
	for (int i = 0; i < nf; i++) {
		if (strcmp(files[i].name, "index.html") == 0)
			rewrite_index(&files[i], prefix);
		if (strcmp(files[i].name, "sw.js") == 0 &&
		    rewrite_worker(&files[i], hash, prefix, files, nf)) {
			fprintf(
			    stderr, "embed: sw.js needs '@BUILD@' and ['@ASSETS@'] once each\n");
			return 1;
		}
		gzip(&files[i]);
		array(o, "file", i, files[i].data, files[i].len);
		if (files[i].gz)
			array(o, "gz", i, files[i].gz, files[i].gzlen);
	}
	fprintf(o, "\nconst struct webfile webfiles[] = {\n");
	for (int i = 0; i < nf; i++) {
		const char *root = root_path(files[i].name);
		unsigned long long h = fnv(1469598103934665603ull, files[i].data, files[i].len);
		fprintf(o, "\t{ \"%s%s\", \"%s\", file%d, %zu, \"\\\"%016llx\\\"\", %d, ",
		    root ? root : prefix, root ? "" : files[i].name, type_of(files[i].name), i,
		    files[i].len, h, !root);
		if (files[i].gz) /* the gzip copy's ETag: the same with "-gz" */
			fprintf(o, "gz%d, %zu, \"\\\"%016llx-gz\\\"\" },\n", i, files[i].gzlen, h);
		else
			fprintf(o, "NULL, 0, NULL },\n");
		free(files[i].data);
		free(files[i].gz);
	}
	fprintf(o, "\t{ NULL, NULL, NULL, 0, NULL, 0, NULL, 0, NULL },\n};\n");
	free(files);
	return fclose(o) == 0 ? 0 : 1;
}
