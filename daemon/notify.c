/* notify.c: sd_notify's datagram, by hand. */
#include "daemon/notify.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

int
notify_send(const char *state)
{
	const char *path = getenv("NOTIFY_SOCKET");
	struct sockaddr_un sa;
	size_t n;
	int fd, rc;

	if (path == NULL || path[0] == '\0')
		return 0;
	n = strlen(path);
	if ((path[0] != '/' && path[0] != '@') || n >= sizeof sa.sun_path) {
		errno = EINVAL;
		return -1;
	}
	memset(&sa, 0, sizeof sa);
	sa.sun_family = AF_UNIX;
	memcpy(sa.sun_path, path, n);
	if (path[0] == '@')
		sa.sun_path[0] = '\0'; /* abstract namespace */
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	rc = (int)sendto(fd, state, strlen(state), MSG_NOSIGNAL, (struct sockaddr *)&sa,
	    (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n));
	int saved = errno;
	close(fd);
	errno = saved;
	return rc < 0 ? -1 : 1;
}

uint64_t
notify_watchdog_usec(void)
{
	const char *usec = getenv("WATCHDOG_USEC"), *pid = getenv("WATCHDOG_PID");
	char *end;

	if (usec == NULL)
		return 0;
	if (pid != NULL) {
		long p = strtol(pid, &end, 10);
		if (*end != '\0' || p != (long)getpid())
			return 0;
	}
	errno = 0;
	unsigned long long v = strtoull(usec, &end, 10);
	if (errno != 0 || *end != '\0' || end == usec)
		return 0;
	return (uint64_t)v;
}
