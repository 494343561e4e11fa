/*
 * test_pbrain.c: bin/pbrain-gomoku driven through pipes like a Gomocup
 * manager: START/RECTSTART, BEGIN, TURN, BOARD, TAKEBACK, INFO (rule and
 * time), SWAP2BOARD, YXBOARD/YXSHOWFORBID/YXNBEST, YXSTOP and END while
 * thinking, and bad input (unknown commands, bad coordinates, occupied
 * points, over-long lines) answered with UNKNOWN/ERROR and no crash;
 * INFO thread_num (a game with helper threads) and INFO max_memory (the
 * brain's peak resident memory stays within it, sent after START too).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <poll.h>
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Sanitizers' shadow memory makes resident sizes meaningless. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define SANITIZED 1
#endif
#endif
#ifndef SANITIZED
#define SANITIZED 0
#endif

#ifndef PBRAIN
#define PBRAIN "bin/pbrain-gomoku"
#endif

typedef struct {
	pid_t pid;
	FILE *in, *out;
} brain_t;

static void
brain_start(brain_t *b)
{
	int to[2], from[2];

	assert_int_equal(pipe(to), 0);
	assert_int_equal(pipe(from), 0);
	b->pid = fork();
	assert_true(b->pid >= 0);
	if (b->pid == 0) {
		dup2(to[0], 0);
		dup2(from[1], 1);
		close(to[1]);
		close(from[0]);
		execl(PBRAIN, PBRAIN, (char *)NULL);
		_exit(127);
	}
	close(to[0]);
	close(from[1]);
	b->in = fdopen(to[1], "w");
	b->out = fdopen(from[0], "r");
}

static void
send(brain_t *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(b->in, fmt, ap);
	va_end(ap);
	fputc('\n', b->in);
	fflush(b->in);
}

/* Next answer that is not a MESSAGE/DEBUG line. */
static char *
answer(brain_t *b, char *buf, size_t len)
{
	for (;;) {
		if (!fgets(buf, (int)len, b->out))
			fail_msg("brain closed its output");
		buf[strcspn(buf, "\r\n")] = 0;
		if (strncmp(buf, "MESSAGE", 7) && strncmp(buf, "DEBUG", 5))
			return buf;
	}
}

static void
expect(brain_t *b, const char *prefix)
{
	char buf[4096];

	answer(b, buf, sizeof buf);
	printf("    < %s\n", buf);
	if (strncmp(buf, prefix, strlen(prefix)))
		fail_msg("expected '%s...', got '%s'", prefix, buf);
}

static void
expect_move(brain_t *b, int size, int *x, int *y)
{
	char buf[4096], tail;

	answer(b, buf, sizeof buf);
	printf("    < %s\n", buf);
	assert_int_equal(sscanf(buf, "%d,%d%c", x, y, &tail), 2);
	assert_true(*x >= 0 && *y >= 0 && *x < size && *y < size);
}

static void
brain_end(brain_t *b)
{
	int st;

	send(b, "END");
	fclose(b->in);
	assert_int_equal(waitpid(b->pid, &st, 0), b->pid);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	fclose(b->out);
}

static void
test_game(void **st)
{
	(void)st;
	brain_t b;
	int x, y, x2, y2;

	brain_start(&b);
	send(&b, "ABOUT");
	expect(&b, "name=");
	send(&b, "START 99");
	expect(&b, "ERROR");
	send(&b, "RECTSTART 15,10");
	expect(&b, "ERROR");
	send(&b, "START 15");
	expect(&b, "OK");
	send(&b, "INFO timeout_turn 300");
	send(&b, "INFO timeout_match 100000");
	send(&b, "INFO time_left 100000");
	send(&b, "INFO max_memory 83886080");
	send(&b, "BEGIN");
	expect_move(&b, 15, &x, &y);
	send(&b, "TURN %d,%d", x, y);
	expect(&b, "ERROR"); /* occupied */
	send(&b, "TURN 7,x");
	expect(&b, "ERROR");
	send(&b, "TURN 15,3");
	expect(&b, "ERROR");
	send(&b, "TURN %d,%d", x == 0 ? 1 : x - 1, y);
	expect_move(&b, 15, &x2, &y2);
	assert_false(x2 == x && y2 == y);
	send(&b, "TAKEBACK %d,%d", x, y);
	expect(&b, "ERROR"); /* not the last stone */
	send(&b, "TAKEBACK %d,%d", x2, y2);
	expect(&b, "OK");
	send(&b, "FROBNICATE 1 2");
	expect(&b, "UNKNOWN");
	char big[6000];
	memset(big, 'A', sizeof big - 1);
	big[sizeof big - 1] = 0;
	send(&b, "%s", big);
	expect(&b, "ERROR");
	send(&b, "INFO timeout_turn");
	expect(&b, "ERROR");
	send(&b, "RESTART");
	expect(&b, "OK");
	brain_end(&b);
	printf("  a short game with bad input mixed in: every command answered\n");
}

static void
test_board(void **st)
{
	(void)st;
	brain_t b;
	int x, y;

	brain_start(&b);
	send(&b, "START 15");
	expect(&b, "OK");
	send(&b, "INFO timeout_turn 300");
	/* we (1) have four in a row on row 7, open at 3,7 and 8,7: play five */
	send(&b, "BOARD");
	const char *stones[] = { "4,7,1", "5,7,1", "6,7,1", "7,7,1", "4,8,2", "5,8,2", "6,8,2",
		"7,8,2" };
	for (size_t i = 0; i < 8; i++)
		send(&b, "%s", stones[i]);
	send(&b, "DONE");
	expect_move(&b, 15, &x, &y);
	assert_true(y == 7 && (x == 3 || x == 8));
	/* the opponent (2) has four: block */
	send(&b, "BOARD");
	const char *s2[] = { "4,7,2", "5,7,2", "6,7,2", "7,7,2", "3,7,1", "5,9,1", "9,9,1" };
	for (size_t i = 0; i < 7; i++)
		send(&b, "%s", s2[i]);
	send(&b, "DONE");
	expect_move(&b, 15, &x, &y);
	assert_true(x == 8 && y == 7);
	send(&b, "BOARD");
	send(&b, "1,1,1");
	send(&b, "1,1,2");
	send(&b, "DONE");
	expect(&b, "ERROR");
	send(&b, "BOARD");
	send(&b, "zz");
	send(&b, "DONE");
	expect(&b, "ERROR");
	brain_end(&b);
	printf("  BOARD: plays the five, blocks the four, rejects bad boards\n");
}

static void
test_renju_yixin(void **st)
{
	(void)st;
	brain_t b;
	int x, y;
	char buf[4096];

	brain_start(&b);
	send(&b, "INFO rule 4");
	send(&b, "START 15");
	expect(&b, "OK");
	send(&b, "INFO timeout_turn 300");
	/* black (us, to move) has open threes crossing at 7,7: a double three */
	send(&b, "YXBOARD");
	const char *s[] = { "5,7,1", "6,7,1", "7,5,1", "7,6,1", "0,0,2", "0,2,2", "14,14,2",
		"14,12,2" };
	for (size_t i = 0; i < 8; i++)
		send(&b, "%s", s[i]);
	send(&b, "DONE");
	send(&b, "YXSHOWFORBID");
	answer(&b, buf, sizeof buf);
	printf("    < %s\n", buf);
	assert_true(strncmp(buf, "FORBID ", 7) == 0);
	assert_non_null(strstr(buf, "0707"));
	send(&b, "YXNBEST 3");
	expect_move(&b, 15, &x, &y);
	assert_false(x == 7 && y == 7);
	send(&b, "SWAP2BOARD");
	send(&b, "DONE");
	answer(&b, buf, sizeof buf);
	printf("    < %s\n", buf);
	int a[6];
	assert_int_equal(
	    sscanf(buf, "%d,%d %d,%d %d,%d", &a[0], &a[1], &a[2], &a[3], &a[4], &a[5]), 6);
	brain_end(&b);
	printf("  renju: FORBID lists the double three, YXNBEST avoids it, SWAP2 opens\n");
}

static double
now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static void
test_stop_and_end(void **st)
{
	(void)st;
	brain_t b;
	int x, y;

	brain_start(&b);
	send(&b, "START 15");
	expect(&b, "OK");
	send(&b, "INFO timeout_turn 600000");
	send(&b, "TURN 7,7");
	struct timespec nap = { 0, 200 * 1000000L };
	nanosleep(&nap, NULL);
	double t0 = now_ms();
	send(&b, "YXSTOP");
	expect_move(&b, 15, &x, &y);
	printf("  YXSTOP during a 600 s think: move after %.1f ms\n", now_ms() - t0);
	send(&b, "TURN %d,%d", x == 7 ? 9 : 7, 9);
	nanosleep(&nap, NULL);
	t0 = now_ms();
	brain_end(&b);
	printf("  END during a 600 s think: exited after %.1f ms\n", now_ms() - t0);
}

/* A running process's kB by key of /proc/PID/status: "VmHWM" (peak
 * resident), "VmPeak" (peak virtual); -1 if unreadable. */
static long
status_kb(pid_t pid, const char *key)
{
	char path[64], line[256], fmt[32];
	long kb = -1;

	snprintf(fmt, sizeof fmt, "%s: %%ld kB", key);
	snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof line, f))
		if (sscanf(line, fmt, &kb) == 1)
			break;
	fclose(f);
	return kb;
}

/*
 * Plays moves of a game (the brain's answers and a fixed reply each) under
 * INFO max_memory bytes and thread_num threads, both sent after START, and
 * returns the brain's peak resident kB, read while it still runs; its peak
 * virtual kB in *vm_kb when not NULL (the hash table counts there whole,
 * however few of its pages a slow machine's search touched).
 */
static long
game_peak(long max_memory, int threads, int moves, long *vm_kb)
{
	brain_t b;
	int x, y;
	static const int reply[][2] = { { 7, 7 }, { 8, 6 }, { 6, 8 }, { 9, 9 }, { 5, 5 }, { 10, 4 },
		{ 4, 10 }, { 11, 11 }, { 3, 3 }, { 12, 2 } };

	brain_start(&b);
	send(&b, "START 15");
	expect(&b, "OK");
	send(&b, "INFO max_memory %ld", max_memory);
	send(&b, "INFO thread_num %d", threads);
	send(&b, "INFO timeout_turn 700");
	send(&b, "BEGIN");
	expect_move(&b, 15, &x, &y);
	for (int i = 0, k = 0; i < moves; i++) {
		/* the next fixed reply on an empty point */
		char line[4096];
		for (;; k++) {
			send(&b, "TURN %d,%d", reply[k % 10][0] + k / 10, reply[k % 10][1]);
			answer(&b, line, sizeof line);
			if (strncmp(line, "ERROR", 5))
				break;
		}
		k++;
		printf("    < %s\n", line);
		assert_int_equal(sscanf(line, "%d,%d", &x, &y), 2);
	}
	long kb = status_kb(b.pid, "VmHWM");
	if (vm_kb)
		*vm_kb = status_kb(b.pid, "VmPeak");
	brain_end(&b);
	assert_true(kb > 0);
	return kb;
}

static void
test_threads_brain(void **st)
{
	(void)st;
	/* a game with two helper threads: every answer a legal move */
	long kb = game_peak(0, 3, 4, NULL);
	printf("  thread_num 3: a game of legal moves, peak %ld kB\n", kb);
}

static void
test_max_memory(void **st)
{
	(void)st;
	long small_vm, big_vm;
	long small = game_peak(20000000, 2, 3, &small_vm),
	     big = game_peak(100000000, 2, 3, &big_vm);

	printf("  peak resident: %ld kB under max_memory 20000000, %ld kB under 100000000\n", small,
	    big);
	printf("  peak virtual: %ld kB and %ld kB\n", small_vm, big_vm);
	if (SANITIZED) {
		printf("  sizes not compared: a sanitizer build (shadow memory)\n");
		return;
	}
	assert_true(small * 1024 <= 20000000);
	assert_true(big * 1024 <= 100000000);
	/* the bigger budget goes to the hash table: allocated whole (virtual);
	 * how much of it is resident depends on how far a search got, which a
	 * busy machine makes short */
	assert_true(small_vm > 0 && big_vm > small_vm + 16 * 1024);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_game),
		cmocka_unit_test(test_board),
		cmocka_unit_test(test_renju_yixin),
		cmocka_unit_test(test_stop_and_end),
		cmocka_unit_test(test_threads_brain),
		cmocka_unit_test(test_max_memory),
	};
	if (access(PBRAIN, X_OK) != 0) {
		printf("%s not built\n", PBRAIN);
		return 1;
	}
	signal(SIGPIPE, SIG_IGN);
	alarm(120); /* a hung brain fails the test instead of hanging CI */
	return cmocka_run_group_tests(tests, NULL, NULL);
}
