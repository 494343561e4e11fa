/*
 * test_notify_daemon.c: the real bin/gomokud under a stand-in for systemd's
 * notify socket: READY=1 once it listens, WATCHDOG=1 pings when
 * WATCHDOG_USEC asks, RELOADING=1 then READY=1 around SIGHUP, STOPPING=1 on
 * SIGTERM, and a clean exit.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

static pid_t daemon_pid;

static void
fail(const char *what)
{
	printf("FAIL: %s\n", what);
	if (daemon_pid > 0)
		kill(daemon_pid, SIGKILL);
	exit(1);
}

/* The next notification, skipping watchdog pings unless want is one. */
static void
expect(int fd, const char *want, int *pings)
{
	char buf[256];

	for (;;) {
		struct pollfd p = { fd, POLLIN, 0 };
		if (poll(&p, 1, 20000) != 1)
			fail(want);
		ssize_t n = recv(fd, buf, sizeof buf - 1, 0);
		if (n < 0)
			fail("recv");
		buf[n] = '\0';
		if (strcmp(buf, "WATCHDOG=1") == 0) {
			(*pings)++;
			if (strcmp(want, "WATCHDOG=1") == 0)
				return;
			continue;
		}
		if (strcmp(buf, want) != 0) {
			printf("got '%s', want '%s'\n", buf, want);
			fail("unexpected notification");
		}
		return;
	}
}

int
main(void)
{
	const char *bindir = getenv("BINDIR") ? getenv("BINDIR") : "bin";
	char bin[512], sock[64], state[64], usec[16];
	struct sockaddr_un sa;
	int pings = 0;

	snprintf(bin, sizeof bin, "%s/gomokud", bindir);
	snprintf(sock, sizeof sock, "/tmp/gomokud-notify-%d.sock", (int)getpid());
	snprintf(state, sizeof state, "/tmp/gomokud-notify-%d.state", (int)getpid());
	int fd = socket(AF_UNIX, SOCK_DGRAM, 0);
	memset(&sa, 0, sizeof sa);
	sa.sun_family = AF_UNIX;
	snprintf(sa.sun_path, sizeof sa.sun_path, "%s", sock);
	unlink(sock);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof sa) != 0)
		fail("bind the notify socket");

	daemon_pid = fork();
	if (daemon_pid < 0)
		fail("fork");
	if (daemon_pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL); /* never outlive the test */
		setenv("NOTIFY_SOCKET", sock, 1);
		snprintf(usec, sizeof usec, "%d", 200000);
		setenv("WATCHDOG_USEC", usec, 1);
		int devnull = open("/dev/null", O_WRONLY);
		if (devnull >= 0)
			dup2(devnull, 2);
		execl(bin, bin, "--listen", "127.0.0.1:0", "--state-dir", state, "--log-level",
		    "warn", (char *)NULL);
		_exit(127);
	}
	expect(fd, "READY=1", &pings);
	printf("READY=1 once listening\n");
	expect(fd, "WATCHDOG=1", &pings);
	expect(fd, "WATCHDOG=1", &pings);
	printf("WATCHDOG=1 pings at half of WATCHDOG_USEC\n");
	kill(daemon_pid, SIGHUP);
	expect(fd, "RELOADING=1", &pings);
	expect(fd, "READY=1", &pings);
	printf("SIGHUP: RELOADING=1, then READY=1\n");
	kill(daemon_pid, SIGTERM);
	expect(fd, "STOPPING=1", &pings);
	int status;
	if (waitpid(daemon_pid, &status, 0) != daemon_pid)
		fail("waitpid");
	daemon_pid = 0;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		fail("gomokud did not exit 0 after SIGTERM");
	printf("SIGTERM: STOPPING=1 and exit 0 (%d watchdog pings seen)\n", pings);
	close(fd);
	unlink(sock);
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", state);
	if (system(cmd) != 0)
		fail("cleanup");
	printf("notify: 1 passed, 0 failed\n");
	return 0;
}
