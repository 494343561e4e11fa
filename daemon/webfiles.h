/* webfiles.h: the web client's files, embedded in the binary at build time
 * (mk/embed.c writes the table from client/web/). No request path ever
 * reaches the file system: a path is served only when it is in this table. */
#ifndef GOMOKUD_WEBFILES_H
#define GOMOKUD_WEBFILES_H

#include <stddef.h>

struct webfile {
	const char *path; /* "/" for index.html, "/sw.js", else "/s/<hash>/<name>" */
	const char *type; /* Content-Type */
	const unsigned char *data;
	size_t len;
	const char *etag;        /* quoted digest of data */
	int immutable;           /* a hashed name: cached for good */
	const unsigned char *gz; /* data gzipped, NULL when that is not smaller */
	size_t gzlen;
	const char *gzetag; /* etag with "-gz" inside its quotes */
};

/* Ended by an entry with a NULL path. */
extern const struct webfile webfiles[];

#endif
