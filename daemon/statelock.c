/* statelock.c: the state directory's lock file (statelock.h). */
#include "daemon/statelock.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

struct statelock {
	int fd;
};

/* The pid the holder wrote, or 0 when there is none (yet). */
static long
holder_pid(int fd)
{
	char buf[32];
	ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	char *end;
	long pid = strtol(buf, &end, 10);
	return pid > 0 && (*end == '\n' || *end == '\0') ? pid : 0;
}

struct statelock *
statelock_take(const char *dir, char *err, size_t errlen)
{
	char path[PATH_MAX];
	if ((size_t)snprintf(path, sizeof path, "%s/gomokud.lock", dir) >= sizeof path) {
		snprintf(err, errlen, "state directory %s: name too long", dir);
		return NULL;
	}
	if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
		snprintf(err, errlen, "state directory %s: %s", dir, strerror(errno));
		return NULL;
	}
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0) {
		snprintf(err, errlen, "lock file %s: %s", path, strerror(errno));
		return NULL;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
		int e = errno;
		long pid = 0;
		/* the holder writes its pid just after taking the lock: give it
		 * a moment if we came in between */
		for (int i = 0; e == EWOULDBLOCK && i < 20 && !(pid = holder_pid(fd)); i++)
			nanosleep(&(struct timespec){ 0, 5 * 1000 * 1000 }, NULL);
		close(fd);
		char who[32] = "pid unknown";
		if (pid)
			snprintf(who, sizeof who, "pid %ld", pid);
		if (e != EWOULDBLOCK)
			snprintf(err, errlen, "lock file %s: %s", path, strerror(e));
		else
			snprintf(err, errlen,
			    "state directory %s is in use by another gomokud (%s, lock %s)", dir,
			    who, path);
		return NULL;
	}
	char pid[32];
	int n = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
	if (ftruncate(fd, 0) != 0 || pwrite(fd, pid, (size_t)n, 0) != n) {
		snprintf(err, errlen, "lock file %s: %s", path, strerror(errno));
		close(fd);
		return NULL;
	}
	struct statelock *l = malloc(sizeof *l);
	if (!l) {
		snprintf(err, errlen, "lock file %s: out of memory", path);
		close(fd);
		return NULL;
	}
	l->fd = fd;
	return l;
}

void
statelock_release(struct statelock *l)
{
	if (!l)
		return;
	close(l->fd); /* closing the only descriptor drops the flock */
	free(l);
}
