/*
 * fixture_brain.c: a TEST FIXTURE, not a brain anyone should play: a
 * Gomocup brain that misbehaves on purpose, for tests/unit/test_brain.c
 * (the brain driver, bot/brain.h). It plays the empty point nearest the
 * centre, and answers START, BEGIN, TURN, BOARD, TAKEBACK and END; its
 * first argument picks how it fails:
 *
 *   play                 no failure
 *   size N               ERROR to START unless the size is N
 *   crash-turn K FLAG    aborts on its K-th TURN when the file FLAG is
 *                        absent, creating it first ("-": every time)
 *   crash-move K         aborts on its K-th move request of any kind
 *   hang                 on a move request: starts a child in its group
 *                        ("DEBUG child PID"), then says "DEBUG thinking"
 *                        every 50 ms and never moves
 *   flood-line           on a move request: bytes without a newline
 *   flood-lines          on a move request: endless short DEBUG lines
 *   garbage              answers a move request with "hello"
 *   mute                 reads every line and answers none, START too
 *   corner               every move "0,0", occupied from its second on
 *   infoerror            "ERROR unknown INFO key" to every INFO line
 *   notakeback           UNKNOWN to TAKEBACK
 *   racy                 plays, but a line that comes within 200 ms of its
 *                        move loses its first word, and the rest is
 *                        answered "ERROR Unknown command: REST", as Rapfi
 *                        does when a TURN reaches it before it has left
 *                        its search (bot/brain.c: settle_ms)
 *   probe                plays, and before each move says what it could do
 *                        outside its process: "DEBUG probe socket S parent P
 *                        write W", each "ok" or the errno's name (an AF_INET
 *                        socket; kill(parent, 0); creating FLAG, then
 *                        removing it)
 *   probe-refuse         moves never: refuses each move request with
 *                        "ERROR probe socket S parent P write W wx X
 *                        userns U", probe's three and two more: an
 *                        anonymous mapping both writable and executable
 *                        (a JIT's), and unshare(CLONE_NEWUSER); the
 *                        driver's failure, so the server's log quotes it
 *                        (tests/systemd/test_unit_engines.sh)
 *
 * Each move request it answers with "DEBUG pid PID" first; after BOARD it
 * says "DEBUG board N" (N stones) before its move.
 */
#define _GNU_SOURCE /* unshare(), CLONE_NEWUSER */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

static int size = 15;
static char cell[32][32];
static const char *mode = "play";
static int k_arg, turns, requests;
static long long moved_at; /* ms, monotonic: its last move (racy) */
static const char *flag = "-";

static long long
mono_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void
nap(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

static void
crash_once(void)
{
	if (strcmp(flag, "-") != 0) {
		FILE *f = fopen(flag, "r");
		if (f) {
			fclose(f);
			return;
		}
		if ((f = fopen(flag, "w")))
			fclose(f);
	}
	abort();
}

static const char *
how(int rc)
{
	return rc >= 0 ? "ok" : errno == EACCES ? "EACCES" : errno == EPERM ? "EPERM" : "other";
}

static void
probe(int refuse)
{
	int s = socket(AF_INET, SOCK_STREAM, 0);
	const char *sock = how(s);
	if (s >= 0)
		close(s);
	const char *parent = how(kill(getppid(), 0));
	int fd = strcmp(flag, "-") ? open(flag, O_WRONLY | O_CREAT, 0600) : -1;
	const char *wr = how(fd);
	if (fd >= 0) {
		close(fd);
		unlink(flag);
	}
	if (!refuse) {
		printf("DEBUG probe socket %s parent %s write %s\n", sock, parent, wr);
		return;
	}
	void *m = mmap(
	    NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	const char *wx = how(m == MAP_FAILED ? -1 : 0);
	if (m != MAP_FAILED)
		munmap(m, 4096);
	const char *userns = how(unshare(CLONE_NEWUSER));
	printf("ERROR probe socket %s parent %s write %s wx %s userns %s\n", sock, parent, wr, wx,
	    userns);
	fflush(stdout);
}

static void
move(void)
{
	int bx = -1, by = -1, bd = 1 << 30, c = size / 2;

	requests++;
	printf("DEBUG pid %d\n", (int)getpid());
	fflush(stdout);
	if (strcmp(mode, "crash-move") == 0 && requests == k_arg)
		crash_once();
	if (strcmp(mode, "hang") == 0) {
		pid_t p = fork();
		if (p == 0) {
			for (;;)
				pause();
		}
		printf("DEBUG child %d\n", (int)p);
		for (;;) {
			printf("DEBUG thinking\n");
			fflush(stdout);
			nap(50);
		}
	}
	if (strcmp(mode, "flood-line") == 0)
		for (;;)
			fputs("xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", stdout);
	if (strcmp(mode, "flood-lines") == 0)
		for (;;)
			fputs("DEBUG spam\n", stdout);
	if (strcmp(mode, "probe") == 0)
		probe(0);
	if (strcmp(mode, "probe-refuse") == 0) {
		probe(1);
		return;
	}
	if (strcmp(mode, "corner") == 0) {
		printf("0,0\n");
		fflush(stdout);
		return;
	}
	if (strcmp(mode, "garbage") == 0) {
		printf("hello\n");
		fflush(stdout);
		return;
	}
	for (int y = 0; y < size; y++)
		for (int x = 0; x < size; x++) {
			int d = (x - c) * (x - c) + (y - c) * (y - c);
			if (!cell[y][x] && d < bd) {
				bd = d;
				bx = x;
				by = y;
			}
		}
	if (bx < 0) {
		printf("ERROR board full\n");
	} else {
		cell[by][bx] = 1;
		printf("%d,%d\n", bx, by);
	}
	fflush(stdout);
	moved_at = mono_ms();
}

int
main(int argc, char **argv)
{
	char line[256];
	int want_size = 0;

	if (argc > 1)
		mode = argv[1];
	if (argc > 2)
		k_arg = want_size = atoi(argv[2]);
	if (argc > 3)
		flag = argv[3];
	setvbuf(stdout, NULL, _IOLBF, 0);
	while (fgets(line, sizeof line, stdin)) {
		line[strcspn(line, "\r\n")] = 0;
		if (strcmp(mode, "mute") == 0)
			continue;
		if (strcmp(mode, "racy") == 0 && moved_at && mono_ms() - moved_at < 200) {
			const char *rest = strchr(line, ' ');
			printf("ERROR Unknown command: %s\n", rest ? rest + 1 : "");
			fflush(stdout);
			continue;
		}
		int x, y, f, n;
		if (strncasecmp(line, "START ", 6) == 0) {
			n = atoi(line + 6);
			if ((strcmp(mode, "size") == 0 && n != want_size) || n < 5 || n > 32) {
				printf("ERROR unsupported size %d\n", n);
			} else {
				size = n;
				memset(cell, 0, sizeof cell);
				printf("OK\n");
			}
		} else if (strncasecmp(line, "INFO", 4) == 0) {
			if (strcmp(mode, "infoerror") == 0)
				printf("ERROR unknown INFO key\n");
		} else if (strcasecmp(line, "BEGIN") == 0) {
			move();
		} else if (sscanf(line, "TURN %d,%d", &x, &y) == 2) {
			cell[y][x] = 2;
			turns++;
			if (strcmp(mode, "crash-turn") == 0 && turns == k_arg)
				crash_once();
			move();
		} else if (strcasecmp(line, "BOARD") == 0) {
			memset(cell, 0, sizeof cell);
			n = 0;
			while (fgets(line, sizeof line, stdin) && strncasecmp(line, "DONE", 4) != 0)
				if (sscanf(line, "%d,%d,%d", &x, &y, &f) == 3) {
					cell[y][x] = (char)f;
					n++;
				}
			printf("DEBUG board %d\n", n);
			move();
		} else if (strcmp(mode, "notakeback") == 0 &&
		    strncasecmp(line, "TAKEBACK", 8) == 0) {
			printf("UNKNOWN %s\n", line);
		} else if (sscanf(line, "TAKEBACK %d,%d", &x, &y) == 2) {
			cell[y][x] = 0;
			printf("OK\n");
		} else if (strcasecmp(line, "END") == 0) {
			return 0;
		} else if (line[0]) {
			printf("UNKNOWN %s\n", line);
		}
		fflush(stdout);
	}
	return 0;
}
