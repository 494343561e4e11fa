/* test_clustermsg.c: the messages between cluster nodes (daemon/clustermsg.c):
 * each kind formatted and parsed back field by field, a body's lines
 * walked, room ids split into node and number, and each way a message can
 * be wrong refused whole: bad headers, names, seqs, lines of the wrong
 * kind or for another room, NUL bytes, overlong lines, truncation at every
 * length. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "daemon/clustermsg.h"

static int
parse(const char *s, struct cmsg *m)
{
	const char *why = NULL;
	int rc = cmsg_parse(s, strlen(s), m, &why);
	if (rc != 0)
		assert_non_null(why);
	return rc;
}

static void
test_presence(void **state)
{
	char buf[512];
	struct cmsg m;
	(void)state;
	int n = cmsg_format_presence(buf, sizeof buf, "alpha", "10.0.0.1:5555");
	assert_int_equal(n, (int)strlen("P alpha 10.0.0.1:5555\n"));
	strcat(buf,
	    "= USER alice idle\n= ROOM alpha3 playing freestyle 15 60+1 none casual bob "
	    "carl 1 4\n= USER bob playing alpha3");
	assert_int_equal(parse(buf, &m), 0);
	assert_int_equal(m.kind, CMSG_PRESENCE);
	assert_string_equal(m.node, "alpha");
	assert_string_equal(m.addr, "10.0.0.1:5555");
	const char *p = m.body, *end = m.body + m.bodylen, *line;
	size_t len;
	int lines = 0;
	while (cmsg_next_line(&p, end, &line, &len)) {
		assert_true(len > 0 && memchr(line, '\n', len) == NULL);
		lines++;
	}
	assert_int_equal(lines, 3);
	/* no body: a node with nobody on it */
	assert_int_equal(parse("P b 127.0.0.1:1", &m), 0);
	assert_int_equal(m.bodylen, 0);
}

static void
test_presence_refused(void **state)
{
	struct cmsg m;
	(void)state;
	static const char *const bad[] = {
		"P", "P ", "P a", "P a 127.0.0.1",       /* no port */
		"P A 127.0.0.1:1",                       /* upper case */
		"P abcdefg 127.0.0.1:1",                 /* seven letters */
		"P a1 127.0.0.1:1",                      /* a digit */
		"P a 127.0.0.1:1 x",                     /* more after the address */
		"P a 127.0.0.1:1\n= USER",               /* a line that does not parse */
		"P a 127.0.0.1:1\n= USER bob idle\n\n",  /* an empty line */
		"P a 127.0.0.1:1\n* TELL bob hi",        /* an event */
		"P a 127.0.0.1:1\n= CLOCK a1 1 2 black", /* data, not USER or ROOM */
		"P a 127.0.0.1:1\nMOVE a1 h8",           /* a request */
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		assert_int_equal(parse(bad[i], &m), -1);
	char nul[] = "P a 127.0.0.1:1\n= USER b\0b idle";
	const char *why;
	assert_int_equal(cmsg_parse(nul, sizeof nul - 1, &m, &why), -1);
	/* an overlong line in a body */
	char big[1200];
	int n = snprintf(big, sizeof big, "P a 127.0.0.1:1\n= USER bob idle ");
	memset(big + n, 'x', sizeof big - (size_t)n - 1);
	big[sizeof big - 1] = '\0';
	assert_int_equal(parse(big, &m), -1);
}

static void
test_tell(void **state)
{
	char buf[512];
	struct cmsg m;
	(void)state;
	int n = cmsg_format_tell(buf, sizeof buf, "bob", "Alice", "hello there, é");
	assert_true(n > 0);
	assert_int_equal(parse(buf, &m), 0);
	assert_int_equal(m.kind, CMSG_TELL);
	assert_string_equal(m.from, "bob");
	assert_string_equal(m.to, "Alice");
	assert_int_equal(m.bodylen, strlen("hello there, é"));
	assert_memory_equal(m.body, "hello there, é", m.bodylen);
	static const char *const bad[] = {
		"T bob",
		"T bob alice",
		"T bob alice ",
		"T 1bob alice hi",
		"T bob al!ce hi",
		"T bob alice hi\nthere",
		"T bob abcdefghijklmnopqrstu hi", /* 21 characters */
		"T bob alice \xff\xfe",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		assert_int_equal(parse(bad[i], &m), -1);
	char text[PROTO_TEXT_MAX + 2];
	memset(text, 'y', sizeof text - 1);
	text[sizeof text - 1] = '\0';
	snprintf(buf, sizeof buf, "T bob alice %s", text);
	assert_int_equal(parse(buf, &m), -1);
	/* what does not fit the buffer is not formatted */
	assert_int_equal(cmsg_format_tell(buf, 8, "bob", "alice", "hi"), -1);
}

static void
test_watch_snapshot_event(void **state)
{
	char buf[512];
	struct cmsg m;
	(void)state;
	assert_true(cmsg_format_watch(buf, sizeof buf, "alpha12", "c") > 0);
	assert_int_equal(parse(buf, &m), 0);
	assert_int_equal(m.kind, CMSG_WATCH);
	assert_string_equal(m.room, "alpha12");
	assert_string_equal(m.node, "c");

	int n = cmsg_format_snapshot(buf, sizeof buf, "a7", 42);
	assert_int_equal(n, (int)strlen("S a7 42\n"));
	strcat(buf,
	    "= ROOM a7 playing freestyle 15 none none casual bob carl 0 1\n"
	    "= MOVES a7 0 h8");
	assert_int_equal(parse(buf, &m), 0);
	assert_int_equal(m.kind, CMSG_SNAPSHOT);
	assert_string_equal(m.room, "a7");
	assert_int_equal(m.seq, 42);
	/* an empty snapshot: no such room there */
	assert_int_equal(parse("S a7 0", &m), 0);
	assert_int_equal(m.bodylen, 0);

	const char *ev = "* MOVE a7 43 white i9 1000 2000\n";
	n = cmsg_format_event(buf, sizeof buf, ev, strlen(ev));
	assert_int_equal(n, (int)strlen(ev) + 1); /* "E " and no LF */
	assert_int_equal(parse(buf, &m), 0);
	assert_int_equal(m.kind, CMSG_EVENT);
	assert_string_equal(m.room, "a7");
	assert_int_equal(m.seq, 43);
	assert_int_equal(m.bodylen, strlen(ev) - 1);

	static const char *const bad[] = {
		"W a7",
		"W a7 c d",
		"W 7 c",
		"W a07 c",
		"W a7 C",
		"S a7",
		"S a7 x",
		"S a7 -1",
		"S a7 01",
		"S a7 4294967296",
		"S a7 1 more",
		"S 7a 1",
		"S a7 1\n= MOVES a8 0 h8",          /* another room's line */
		"S a7 1\n* MOVE a7 2 black h8 - -", /* an event in a snapshot */
		"E",
		"E ",
		"E * MOVE",
		"E = ROOM a7 playing freestyle 15 none none casual bob carl 0 1",
		"E * TELL bob hi", /* no room */
		"E * MOVE a7 1 black h8 - -\n",
		"X a7",
		"Sa7 1",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		assert_int_equal(parse(bad[i], &m), -1);
}

static void
test_room_node(void **state)
{
	char node[CONFIG_NODE_MAX + 1];
	(void)state;
	assert_int_equal(cmsg_room_node("r12", node), 0);
	assert_string_equal(node, "r");
	assert_int_equal(cmsg_room_node("abcdef4294967295", node), 0);
	assert_string_equal(node, "abcdef");
	static const char *const bad[] = { "", "12", "r", "r0", "r01", "R1", "r1x", "abcdefg1",
		"r-1" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		assert_int_equal(cmsg_room_node(bad[i], node), -1);
	assert_true(cmsg_node_ok("abcdef"));
	assert_false(cmsg_node_ok("abcdefg"));
	assert_false(cmsg_node_ok(""));
	assert_false(cmsg_node_ok("a_b"));
}

/* Every prefix of good messages parses or is refused, never read past. */
static void
test_truncated(void **state)
{
	static const char *const good[] = {
		"P alpha 10.0.0.1:5555\n= USER alice idle\n= USER bob seeking",
		"T bob alice hello",
		"W a7 c",
		"S a7 42\n= MOVES a7 0 h8,i9",
		"E * MOVE a7 43 white i9 1000 2000",
	};
	(void)state;
	for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
		size_t n = strlen(good[i]);
		struct cmsg m;
		const char *why;
		assert_int_equal(cmsg_parse(good[i], n, &m, &why), 0);
		for (size_t k = 0; k < n; k++) {
			char copy[256];
			memcpy(copy, good[i], k); /* no NUL after: the length is all */
			memset(copy + k, '#', sizeof copy - k);
			(void)cmsg_parse(copy, k, &m, &why);
			if (m.body)
				assert_true(m.body + m.bodylen <= copy + k);
		}
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_presence),
		cmocka_unit_test(test_presence_refused),
		cmocka_unit_test(test_tell),
		cmocka_unit_test(test_watch_snapshot_event),
		cmocka_unit_test(test_room_node),
		cmocka_unit_test(test_truncated),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
