/*
 * shared.h: where tests find the shared test material (README.md): in
 * $SHARED_DIR, or ../shared beside the checkout when it is not set. A test
 * whose file is absent skips what needs it and says so, except when
 * GOMOKU_REQUIRE_SHARED is set (not "0"), as .ci/run does: then an absent
 * file fails the test, so CI never passes by skipping. tests/shared.sh is
 * the same rule for shell tests and make targets.
 */
#ifndef GOMOKU_TESTS_SHARED_H
#define GOMOKU_TESTS_SHARED_H

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline const char *
shared_dir(void)
{
	const char *d = getenv("SHARED_DIR");
	return d && d[0] ? d : "../shared";
}

/* Whether an absent file is a failure rather than a skip. */
static inline int
shared_required(void)
{
	const char *r = getenv("GOMOKU_REQUIRE_SHARED");
	return r && r[0] && strcmp(r, "0") != 0;
}

/*
 * Opens rel (say "renju/forbidden.tsv") in the shared directory, its path
 * in path. When it cannot, prints why and what follows, and returns NULL:
 * the caller then fails if shared_required(), else skips that part.
 */
static inline FILE *
shared_open(const char *rel, char *path, size_t len)
{
	snprintf(path, len, "%s/%s", shared_dir(), rel);
	FILE *f = fopen(path, "r");
	if (!f)
		printf("  %s absent: %s\n", path,
		    shared_required() ? "a failure, as GOMOKU_REQUIRE_SHARED is set"
				      : "skipped (GOMOKU_REQUIRE_SHARED=1 makes it a failure)");
	return f;
}

#endif
