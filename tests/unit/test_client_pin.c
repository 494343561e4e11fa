/*
 * test_client_pin: the known_hosts file: lookups by host:port, a changed
 * key reported with the old one, comments and other hosts ignored, a
 * missing file is "new", parent directories created with mode 0700, and the
 * default path from XDG_CONFIG_HOME or HOME.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "client/pin.h"

static char dir[] = "/tmp/gomoku-pin-XXXXXX";

static int
setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int
teardown(void **state)
{
	(void)state;
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static void
test_pin_file(void **state)
{
	(void)state;
	char path[256], old[128];
	printf("checks: new, match, changed (old key reported), comments, dirs 0700\n");
	snprintf(path, sizeof path, "%s/a/b/known_hosts", dir);
	assert_int_equal(pin_check(path, "h:1", "sha256:aa", NULL, 0), PIN_NEW);
	assert_int_equal(pin_add(path, "h:1", "sha256:aa"), 0);
	struct stat st;
	char sub[256];
	snprintf(sub, sizeof sub, "%s/a", dir);
	assert_int_equal(stat(sub, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0700);
	assert_int_equal(pin_add(path, "h:2", "sha256:bb"), 0);
	FILE *f = fopen(path, "a");
	assert_non_null(f);
	fprintf(f, "# h:1 sha256:zz\n\n");
	fclose(f);
	assert_int_equal(pin_check(path, "h:1", "sha256:aa", NULL, 0), PIN_MATCH);
	assert_int_equal(pin_check(path, "h:2", "sha256:bb", NULL, 0), PIN_MATCH);
	assert_int_equal(pin_check(path, "h:1", "sha256:cc", old, sizeof old), PIN_CHANGED);
	assert_string_equal(old, "sha256:aa");
	/* the port is part of the name */
	assert_int_equal(pin_check(path, "h:3", "sha256:aa", NULL, 0), PIN_NEW);
	/* a directory where the file should be cannot be read */
	snprintf(sub, sizeof sub, "%s/a", dir);
	assert_int_equal(pin_check(sub, "h:1", "sha256:aa", NULL, 0), PIN_ERROR);
}

static void
test_default_path(void **state)
{
	(void)state;
	char p[256];
	printf("checks: the default path follows XDG_CONFIG_HOME, then HOME\n");
	setenv("XDG_CONFIG_HOME", "/x/cfg", 1);
	setenv("HOME", "/home/u", 1);
	assert_int_equal(pin_default_path(p, sizeof p), 0);
	assert_string_equal(p, "/x/cfg/gomoku/known_hosts");
	setenv("XDG_CONFIG_HOME", "relative", 1); /* must be absolute to count */
	assert_int_equal(pin_default_path(p, sizeof p), 0);
	assert_string_equal(p, "/home/u/.config/gomoku/known_hosts");
	unsetenv("XDG_CONFIG_HOME");
	unsetenv("HOME");
	assert_int_equal(pin_default_path(p, sizeof p), -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pin_file),
		cmocka_unit_test(test_default_path),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
