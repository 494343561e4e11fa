/*
 * check.h: the failure count and checks shared by the daemon's integration
 * tests. CHECK fails the current test function (it returns); EXPECT reads
 * lines until one starts with prefix, within ms.
 */
#ifndef GOMOKUD_TEST_CHECK_H
#define GOMOKUD_TEST_CHECK_H

#include <stdio.h>

#include "tests/daemon/tclient.h"

static int failures;

#define CHECK(cond, ...)                                            \
	do {                                                        \
		if (!(cond)) {                                      \
			printf("FAIL %s:%d: ", __FILE__, __LINE__); \
			printf(__VA_ARGS__);                        \
			printf("\n");                               \
			failures++;                                 \
			return;                                     \
		}                                                   \
	} while (0)

#define EXPECT_WITHIN(c, prefix, ms) \
	CHECK(tc_expect((c), (prefix), (ms)), "no \"%s\" (last: %s)", (prefix), (c)->line)

#endif
