/* test_notify.c: sd_notify datagrams reach a socket bound where systemd
 * would bind it, by path and in the abstract namespace. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cmocka.h>

#include "daemon/notify.h"

/* Binds a datagram socket at name (a path, or "@..." abstract). */
static int
listener(const char *name)
{
	struct sockaddr_un sa;
	size_t n = strlen(name);
	int fd = socket(AF_UNIX, SOCK_DGRAM, 0);

	assert_true(fd >= 0);
	memset(&sa, 0, sizeof sa);
	sa.sun_family = AF_UNIX;
	memcpy(sa.sun_path, name, n);
	if (name[0] == '@')
		sa.sun_path[0] = '\0';
	else
		unlink(name);
	assert_int_equal(bind(fd, (struct sockaddr *)&sa,
			     (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n)),
	    0);
	return fd;
}

static void
expect(int fd, const char *want)
{
	char buf[256];
	ssize_t n = recv(fd, buf, sizeof buf - 1, MSG_DONTWAIT);

	assert_true(n >= 0);
	buf[n] = '\0';
	assert_string_equal(buf, want);
}

static void
test_send(void **state)
{
	(void)state;
	char path[64], abstract[64];

	unsetenv("NOTIFY_SOCKET");
	assert_int_equal(notify_send("READY=1"), 0);

	snprintf(path, sizeof path, "/tmp/gomokud-notify-%d", (int)getpid());
	int fd = listener(path);
	setenv("NOTIFY_SOCKET", path, 1);
	assert_int_equal(notify_send("READY=1"), 1);
	assert_int_equal(notify_send("STATUS=serving 3 rooms"), 1);
	expect(fd, "READY=1");
	expect(fd, "STATUS=serving 3 rooms");
	close(fd);
	unlink(path);
	assert_int_equal(notify_send("STOPPING=1"), -1); /* nobody listens now */

	snprintf(abstract, sizeof abstract, "@gomokud-notify-%d", (int)getpid());
	fd = listener(abstract);
	setenv("NOTIFY_SOCKET", abstract, 1);
	assert_int_equal(notify_send("WATCHDOG=1"), 1);
	expect(fd, "WATCHDOG=1");
	close(fd);

	setenv("NOTIFY_SOCKET", "relative/path", 1);
	assert_int_equal(notify_send("READY=1"), -1);
	unsetenv("NOTIFY_SOCKET");
	print_message("  no socket: no-op; path and abstract sockets receive; bad paths fail\n");
}

static void
test_watchdog(void **state)
{
	(void)state;
	char pid[32];

	unsetenv("WATCHDOG_USEC");
	unsetenv("WATCHDOG_PID");
	assert_int_equal(notify_watchdog_usec(), 0);
	setenv("WATCHDOG_USEC", "30000000", 1);
	assert_int_equal(notify_watchdog_usec(), 30000000);
	snprintf(pid, sizeof pid, "%d", (int)getpid());
	setenv("WATCHDOG_PID", pid, 1);
	assert_int_equal(notify_watchdog_usec(), 30000000);
	setenv("WATCHDOG_PID", "1", 1);
	assert_int_equal(notify_watchdog_usec(), 0); /* for another process */
	unsetenv("WATCHDOG_PID");
	setenv("WATCHDOG_USEC", "soon", 1);
	assert_int_equal(notify_watchdog_usec(), 0);
	unsetenv("WATCHDOG_USEC");
	print_message("  WatchdogSec= read from the environment, only for this process\n");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_send),
		cmocka_unit_test(test_watchdog),
	};
	return cmocka_run_group_tests_name("notify", tests, NULL, NULL);
}
