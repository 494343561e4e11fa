/* gomokuctl: sends one request to gomokud's control socket and prints the
 * answer: "= " data lines to stdout, then the "OK" line's text; an "ERR"
 * line goes to stderr as one line and the exit status is 1. See
 * gomokuctl(8) and daemon/control.c for the other end. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "rules/version.h"

#ifndef GOMOKUCTL_STATE_DIR
#define GOMOKUCTL_STATE_DIR "/var/lib/gomokud"
#endif

enum {
	LINE_MAX_BYTES = 512, /* the daemon's cap, LF included */
	REPLY_MS = 10000,     /* for everything but a backup */
	BACKUP_MS = 3600000,
};

static void
usage(FILE *f)
{
	fprintf(f,
	    "usage: gomokuctl [--state-dir DIR | --socket PATH] COMMAND [ARG...]\n"
	    "\n"
	    "Talks to gomokud over its control socket (default %s/gomokud.ctl,\n"
	    "or $GOMOKUCTL_SOCKET). Commands:\n"
	    "  status | who | rooms | bans | nodes\n"
	    "  kick USER [REASON]          ban USER|ADDRESS|CIDR [DURATION [REASON]]\n"
	    "  unban USER|ADDRESS|CIDR     mute USER [DURATION]    unmute USER\n"
	    "  motd [TEXT|-]               announce TEXT\n"
	    "  drain | undrain             reload\n"
	    "  backup FILE                 log-level error|warn|info|debug\n"
	    "  tourney list | tourney create KIND RULE SIZE TIME OPENING RATED ENTRANTS START "
	    "LENGTH\n"
	    "    [NAME] | tourney cancel ID\n"
	    "  bot token ACCOUNT | bot revoke ACCOUNT | bot list\n"
	    "DURATION: a number and s, m, h, d or w (30m, 2h, 7d), or forever (the default).\n",
	    GOMOKUCTL_STATE_DIR);
}

/* One line on stderr; returns the exit status 1. */
static int fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int
fail(const char *fmt, ...)
{
	va_list ap;
	fflush(stdout);
	fprintf(stderr, "gomokuctl: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	return 1;
}

/* The request line from the words; a relative backup FILE is made absolute
 * (the daemon's working directory is not ours). -1: it does not fit. */
static int
request(int argc, char **argv, char *line, size_t cap)
{
	char cwd[PATH_MAX], abs[2 * PATH_MAX];
	size_t n = 0;
	for (int i = 0; i < argc; i++) {
		const char *w = argv[i];
		if (i == 1 && strcmp(argv[0], "backup") == 0 && w[0] != '/') {
			if (!getcwd(cwd, sizeof cwd))
				return -1;
			snprintf(abs, sizeof abs, "%s/%s", cwd, w);
			w = abs;
		}
		if (strchr(w, '\n') || strchr(w, '\r'))
			return -1;
		int k = snprintf(line + n, cap - n, "%s%s", i ? " " : "", w);
		if (k < 0 || (size_t)k >= cap - n)
			return -1;
		n += (size_t)k;
	}
	if (n + 2 > cap)
		return -1;
	line[n++] = '\n';
	line[n] = '\0';
	return (int)n;
}

static int64_t
now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Prints the answer; 0 on OK, 1 on ERR, a closed socket or a timeout. */
static int
answer(int fd, const char *path, int timeout_ms)
{
	static char buf[1 << 16];
	size_t len = 0;
	int64_t deadline = now_ms() + timeout_ms;
	for (;;) {
		char *lf;
		while ((lf = memchr(buf, '\n', len)) != NULL) {
			*lf = '\0';
			if (strncmp(buf, "= ", 2) == 0) {
				puts(buf + 2);
			} else if (strncmp(buf, "OK", 2) == 0) {
				if (buf[2] == ' ')
					puts(buf + 3);
				return 0;
			} else if (strncmp(buf, "ERR ", 4) == 0) {
				return fail("%s", buf + 4);
			} else {
				return fail("%s: not a gomokud control socket (%s)", path, buf);
			}
			size_t used = (size_t)(lf + 1 - buf);
			memmove(buf, lf + 1, len - used);
			len -= used;
		}
		if (len == sizeof buf)
			return fail("%s: an answer line too long", path);
		int64_t left = deadline - now_ms();
		struct pollfd p = { fd, POLLIN, 0 };
		int rc = left > 0 ? poll(&p, 1, (int)left) : 0;
		if (rc < 0 && errno == EINTR)
			continue;
		if (rc <= 0)
			return fail("%s: no answer within %d seconds", path, timeout_ms / 1000);
		ssize_t r = read(fd, buf + len, sizeof buf - len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return fail("%s: gomokud closed the connection without an answer", path);
		len += (size_t)r;
	}
}

int
main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "state-dir", required_argument, NULL, 'd' },
		{ "socket", required_argument, NULL, 's' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	const char *dir = NULL, *sock = getenv("GOMOKUCTL_SOCKET");
	int ch;
	/* "+": options only before the command (its words may start with -) */
	while ((ch = getopt_long(argc, argv, "+d:s:Vh", opts, NULL)) != -1) {
		switch (ch) {
		case 'd':
			dir = optarg;
			sock = NULL;
			break;
		case 's':
			sock = optarg;
			dir = NULL;
			break;
		case 'V':
			printf("gomokuctl %s\n", GOMOKU_VERSION);
			return 0;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind >= argc) {
		usage(stderr);
		return 2;
	}
	int n = sock && sock[0] ? snprintf(sun.sun_path, sizeof sun.sun_path, "%s", sock)
				: snprintf(sun.sun_path, sizeof sun.sun_path, "%s/gomokud.ctl",
				      dir ? dir : GOMOKUCTL_STATE_DIR);
	if (n < 0 || (size_t)n >= sizeof sun.sun_path)
		return fail("socket path too long: %s", sock ? sock : dir);
	char line[LINE_MAX_BYTES + 1];
	int len = request(argc - optind, argv + optind, line, sizeof line);
	if (len < 0)
		return fail("the request is longer than %d bytes or holds a line break",
		    LINE_MAX_BYTES - 1);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return fail("socket: %s", strerror(errno));
	if (connect(fd, (struct sockaddr *)&sun, sizeof sun) != 0) {
		int e = errno;
		close(fd);
		if (e == ENOENT)
			return fail("%s: no control socket: is gomokud running? (see --state-dir, "
				    "--socket)",
			    sun.sun_path);
		if (e == ECONNREFUSED)
			return fail("%s: connection refused: gomokud is not running", sun.sun_path);
		if (e == EACCES || e == EPERM)
			return fail("%s: permission denied (run as root or as gomokud's user)",
			    sun.sun_path);
		return fail("%s: %s", sun.sun_path, strerror(e));
	}
	if (write(fd, line, (size_t)len) != len) {
		int e = errno;
		close(fd);
		return fail("%s: %s", sun.sun_path, strerror(e));
	}
	int rc = answer(
	    fd, sun.sun_path, strcmp(argv[optind], "backup") == 0 ? BACKUP_MS : REPLY_MS);
	close(fd);
	return rc;
}
