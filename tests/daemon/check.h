/*
 * check.h: the failure count and the checks of the daemon's integration
 * tests. A failed check prints "FAIL file:line: message" and counts one
 * failure (and keeps the daemons' temporary directories, their logs, for
 * a look); each test's main exits non-zero when there were any.
 *
 *   CHECK(cond, fmt, ...)    on failure the test carries on
 *   REQUIRE(cond, fmt, ...)  on failure the current (void) function returns:
 *                            for checks without which the rest cannot run
 *   ok(what)                 prints "ok what" for a case that passed ("(after
 *                            failures)" once any check has failed)
 *   CHECK_LINE(c, prefix)    CHECK that c reads a line starting with prefix
 *   REQUIRE_LINE(c, prefix)  within LINE_MS (define it before including
 *                            this file for another wait; default
 *                            TC_LINE_MS, 3000 ms)
 */
#ifndef GOMOKUD_TEST_CHECK_H
#define GOMOKUD_TEST_CHECK_H

#include <stdio.h>

#include "tests/daemon/tclient.h"

#ifndef LINE_MS
#define LINE_MS TC_LINE_MS
#endif

static int failures;

#define CHECK_FAILED_(...)                                  \
	do {                                                \
		printf("FAIL %s:%d: ", __FILE__, __LINE__); \
		printf(__VA_ARGS__);                        \
		printf("\n");                               \
		fflush(stdout);                             \
		failures++;                                 \
		tc_keep_tmp();                              \
	} while (0)

#define CHECK(cond, ...)                            \
	do {                                        \
		if (!(cond))                        \
			CHECK_FAILED_(__VA_ARGS__); \
	} while (0)

#define REQUIRE(cond, ...)                          \
	do {                                        \
		if (!(cond)) {                      \
			CHECK_FAILED_(__VA_ARGS__); \
			return;                     \
		}                                   \
	} while (0)

static inline void
ok(const char *what)
{
	printf("%s %s\n", failures ? "(after failures)" : "ok", what);
	fflush(stdout);
}

#define CHECK_LINE(c, prefix)                                                                     \
	CHECK(tc_expect((c), (prefix), LINE_MS), "%s: no \"%s\" (last: %s)", (c)->name, (prefix), \
	    (c)->line)

#define REQUIRE_LINE(c, prefix)                                                           \
	REQUIRE(tc_expect((c), (prefix), LINE_MS), "%s: no \"%s\" (last: %s)", (c)->name, \
	    (prefix), (c)->line)

#endif
