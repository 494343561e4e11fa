/* test_clustermsg.c: the messages between cluster nodes (daemon/clustermsg.c):
 * each kind formatted and parsed back field by field, a body's lines
 * walked, room ids split into node and number, and each way a message can
 * be wrong refused whole: bad headers, names, seqs, lines of the wrong
 * kind or for another room, NUL bytes, overlong lines, truncation at every
 * length; bot jobs and results round-trip, and out-of-range fields are
 * refused; spectator counts and lobby messages round-trip and are refused
 * when wrong. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "daemon/cluster/clustermsg.h"

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
	int n = cmsg_format_presence(buf, sizeof buf, "alpha", "10.0.0.1:5555", "");
	assert_int_equal(n, (int)strlen("P alpha 10.0.0.1:5555\n"));
	strcat(buf,
	    "= USER alice idle\n= ROOM alpha3 playing freestyle 15 60+1 none casual bob "
	    "carl 1 4\n= USER bob playing alpha3\n= SEEK 7 dora freestyle 15 none any casual "
	    "none human");
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
	assert_int_equal(lines, 4);
	/* a bot's = USER line after its = BOT line (issue 49) */
	assert_int_equal(parse("P b 127.0.0.1:1\n= BOT bot3\n= USER bot3 playing b1", &m), 0);
	/* no body: a node with nobody on it */
	assert_int_equal(parse("P b 127.0.0.1:1", &m), 0);
	assert_int_equal(m.bodylen, 0);
}

/* Hosted engines across nodes (issue 49): a presence's engines, a move's
 * job, its answer, the notice and the game's end round-trip; garbage is
 * refused. */
static void
test_engines(void **state)
{
	char buf[1024];
	struct cmsg m;
	(void)state;
	int n = cmsg_format_presence(
	    buf, sizeof buf, "b", "10.0.0.2:1", "ours:0a1b2c3d,rapfi:ffffffff");
	assert_true(n > 0);
	assert_int_equal(parse(buf, &m), 0);
	assert_string_equal(m.engines, "ours:0a1b2c3d,rapfi:ffffffff");
	assert_int_equal(parse("P b 10.0.0.2:1", &m), 0);
	assert_string_equal(m.engines, "");

	bots_job_t j;
	memset(&j, 0, sizeof j);
	j.rule = RULE_STANDARD;
	j.size = 15;
	j.clock_ms = 60000;
	j.inc_ms = 2000;
	j.nmoves = 2;
	j.moves[0] = 7 * RULES_STRIDE + 7;
	j.moves[1] = 8 * RULES_STRIDE + 8;
	n = cmsg_format_engine_job(buf, sizeof buf, "a", 42, "a17.1", "ours", 0x0a1b2c3du, &j);
	assert_true(n > 0);
	assert_int_equal(parse(buf, &m), 0);
	assert_int_equal(m.kind, CMSG_ENGINE_JOB);
	assert_string_equal(m.node, "a");
	assert_int_equal(m.job, 42);
	assert_string_equal(m.game, "a17.1");
	assert_string_equal(m.engine, "ours");
	assert_int_equal(m.hash, 0x0a1b2c3du);
	assert_int_equal(m.spec.rule, RULE_STANDARD);
	assert_int_equal(m.spec.size, 15);
	assert_int_equal(m.spec.clock_ms, 60000);
	assert_int_equal(m.spec.inc_ms, 2000);
	assert_int_equal(m.spec.nmoves, 2);
	assert_int_equal(m.spec.moves[1], 8 * RULES_STRIDE + 8);
	j.nmoves = 0; /* the engine opens */
	n = cmsg_format_engine_job(buf, sizeof buf, "a", 43, "a18.0", "ours", 1, &j);
	assert_int_equal(parse(buf, &m), 0);
	assert_int_equal(m.spec.nmoves, 0);

	n = cmsg_format_engine_move(buf, sizeof buf, 42, "b", 0, 100, "");
	assert_int_equal(parse(buf, &m), 0);
	assert_int_equal(m.kind, CMSG_ENGINE_MOVE);
	assert_int_equal(m.job, 42);
	assert_string_equal(m.node, "b");
	assert_int_equal(m.status, 0);
	assert_int_equal(m.move, 100);
	assert_string_equal(m.why, "");
	n = cmsg_format_engine_move(buf, sizeof buf, 42, "b", -1, 100, "answered \"hello\"\n");
	assert_int_equal(parse(buf, &m), 0);
	assert_int_equal(m.status, -1);
	assert_int_equal(m.move, MOVE_NONE);
	assert_string_equal(m.why, "answered \"hello\"?");

	n = cmsg_format_engine_wake(buf, sizeof buf, "ours", 0xdeadbeefu);
	assert_int_equal(parse(buf, &m), 0);
	assert_int_equal(m.kind, CMSG_ENGINE_WAKE);
	assert_string_equal(m.engine, "ours");
	assert_int_equal(m.hash, 0xdeadbeefu);
	n = cmsg_format_engine_end(buf, sizeof buf, "a", "a17.1");
	assert_int_equal(parse(buf, &m), 0);
	assert_int_equal(m.kind, CMSG_ENGINE_END);
	assert_string_equal(m.node, "a");
	assert_string_equal(m.game, "a17.1");

	static const char *const bad[] = {
		"H a 1 a1.0 ours 0a1b2c3d 0 15 0 0",     /* no moves */
		"H a 1 a1.0 ours 0a1b2c3d 3 15 0 0 -",   /* no such rule */
		"H a 1 a1.0 Ours 0a1b2c3d 0 15 0 0 -",   /* the engine's name */
		"H a 1 a1.0 ours 0a1b2c3 0 15 0 0 -",    /* the hash */
		"H a 1 a1/0 ours 0a1b2c3d 0 15 0 0 -",   /* the game's key */
		"H a 0 a1.0 ours 0a1b2c3d 0 15 0 0 -",   /* no such id */
		"H a 1 a1.0 ours 0a1b2c3d 0 15 0 0 999", /* off the board */
		"H a 1 a1.0 ours 0a1b2c3d 0 15 0 0 - x", /* more */
		"M 1 b 0 -1",                            /* a move, none said */
		"M 1 b -1 100",                          /* a forfeit with a move */
		"M 1 b -3 -1",                           /* no such status */
		"M 1 B 0 100",                           /* the worker's name */
		"N ours",                                /* no hash */
		"N ours 0a1b2c3d x",                     /* more */
		"X a",                                   /* no game */
		"X a a1.0 x",                            /* more */
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		assert_int_equal(parse(bad[i], &m), -1);
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
		"P a 127.0.0.1:1 x",                     /* not an engine after the address */
		"P a 127.0.0.1:1 ours:1234567",          /* a short hash */
		"P a 127.0.0.1:1 Ours:12345678",         /* an engine's name in upper case */
		"P a 127.0.0.1:1 ours:1234567g",         /* not hex */
		"P a 127.0.0.1:1 ours:12345678,",        /* a trailing comma */
		"P a 127.0.0.1:1 ours:12345678 x",       /* more after the engines */
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
test_job(void **state)
{
	char buf[4096];
	struct cmsg m;
	bots_job_t j;
	(void)state;
	memset(&j, 0, sizeof j);
	j.rule = RULE_RENJU;
	j.size = 15;
	j.level = 7;
	j.soft_ms = 800;
	j.hard_ms = 1600;
	j.clock_ms = 59000;
	j.inc_ms = 2000;
	j.nbest = 5;
	j.seed = 4000000000u;
	j.nmoves = 3;
	j.moves[0] = 7 * RULES_STRIDE + 7;
	j.moves[1] = 8 * RULES_STRIDE + 8;
	j.moves[2] = 0;
	int n = cmsg_format_job(buf, sizeof buf, "alpha", 123456789012ULL, &j);
	assert_true(n > 0);
	assert_int_equal(cmsg_parse(buf, (size_t)n, &m, &(const char *){ NULL }), 0);
	assert_int_equal(m.kind, CMSG_JOB);
	assert_string_equal(m.node, "alpha");
	assert_true(m.job == 123456789012ULL);
	assert_int_equal(m.spec.rule, RULE_RENJU);
	assert_int_equal(m.spec.size, 15);
	assert_int_equal(m.spec.level, 7);
	assert_int_equal(m.spec.soft_ms, 800);
	assert_int_equal(m.spec.hard_ms, 1600);
	assert_int_equal(m.spec.clock_ms, 59000);
	assert_int_equal(m.spec.inc_ms, 2000);
	assert_int_equal(m.spec.nbest, 5);
	assert_true(m.spec.seed == 4000000000u);
	assert_int_equal(m.spec.nmoves, 3);
	assert_memory_equal(m.spec.moves, j.moves, 3 * sizeof j.moves[0]);
	assert_int_equal(m.spec.review, 0);
	/* a review's: its line wanted */
	j.review = 1;
	n = cmsg_format_job(buf, sizeof buf, "alpha", 5, &j);
	assert_string_equal(buf + n - 2, " l");
	assert_int_equal(cmsg_parse(buf, (size_t)n, &m, &(const char *){ NULL }), 0);
	assert_int_equal(m.spec.review, 1);
	assert_int_equal(m.spec.nmoves, 3);
	assert_int_equal(m.spec.opening, 0);
	j.review = 0;
	/* the empty board */
	j.nmoves = 0;
	n = cmsg_format_job(buf, sizeof buf, "b", 1, &j);
	assert_string_equal(buf + n - 2, " -");
	assert_int_equal(parse(buf, &m), 0);
	assert_int_equal(m.spec.nmoves, 0);
	assert_int_equal(cmsg_format_job(buf, 40, "b", 1, &j), -1);
	static const char *const bad[] = {
		"J",
		"J a",
		"J a 1 0 15 5 100 200 0 0 0 5 1",            /* no moves */
		"J a 0 0 15 5 100 200 0 0 0 5 1 -",          /* id 0 */
		"J a -4 0 15 5 100 200 0 0 0 5 1 -",         /* negative id */
		"J A 1 0 15 5 100 200 0 0 0 5 1 -",          /* node name */
		"J a 1 3 15 5 100 200 0 0 0 5 1 -",          /* rule */
		"J a 1 0 21 5 100 200 0 0 0 5 1 -",          /* size */
		"J a 1 0 15 0 100 200 0 0 0 5 1 -",          /* level */
		"J a 1 0 15 11 100 200 0 0 0 5 1 -",         /* level */
		"J a 1 0 15 5 -1 200 0 0 0 5 1 -",           /* time */
		"J a 1 0 15 5 100 200 0 0 0 17 1 -",         /* nbest */
		"J a 1 0 15 5 100 200 0 0 0 5 4294967296 -", /* seed */
		"J a 1 0 15 5 100 200 0 0 0 5 1 1,,2",       /* empty move */
		"J a 1 0 15 5 100 200 0 0 0 5 1 1,",         /* trailing comma */
		"J a 1 0 15 5 100 200 0 0 0 5 1 15",         /* off a 15 board */
		"J a 1 0 15 5 100 200 0 0 0 5 1 400",        /* off every board */
		"J a 1 0 15 5 100 200 0 0 0 5 1 x",
		"J a 1 0 15 5 100 200 0 0 0 5 1 1 2",
		"J a 1 0 15 5 100 200 0 0 0 5 1 -\n1",
		"J a 99999999999999999999 0 15 5 100 200 0 0 0 5 1 -",
		"J a 1 0 15 5 100 200 0 0 0 5 1 - lx", /* " l" and more */
		"J a 1 0 15 5 100 200 0 0 0 5 1 - l ",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		assert_int_equal(parse(bad[i], &m), -1);
}

static void
test_result(void **state)
{
	char buf[1024];
	struct cmsg m;
	engine_result_t r;
	(void)state;
	memset(&r, 0, sizeof r);
	r.best = 112;
	r.score = -350;
	r.mate = -3;
	r.depth = 9;
	r.seldepth = 14;
	r.time_ms = 812;
	r.ncand = 2;
	r.cand[0].move = 112;
	r.cand[0].score = -350;
	r.cand[1].move = 113;
	r.cand[1].score = -900;
	snprintf(r.reason, sizeof r.reason, "vcf 5");
	r.pvlen = 3;
	r.pv[0] = 112;
	r.pv[1] = 113;
	r.pv[2] = 133;
	int n = cmsg_format_result(buf, sizeof buf, 77, 0, &r, 0);
	assert_true(n > 0);
	assert_null(strstr(buf, "pv")); /* not asked for: the old form */
	assert_int_equal(parse(buf, &m), 0);
	assert_int_equal(m.kind, CMSG_RESULT);
	assert_true(m.job == 77);
	assert_int_equal(m.status, 0);
	assert_int_equal(m.result.best, 112);
	assert_int_equal(m.result.score, -350);
	assert_int_equal(m.result.mate, -3);
	assert_int_equal(m.result.depth, 9);
	assert_int_equal(m.result.seldepth, 14);
	assert_int_equal(m.result.time_ms, 812);
	assert_int_equal(m.result.ncand, 2);
	assert_int_equal(m.result.cand[1].move, 113);
	assert_int_equal(m.result.cand[1].score, -900);
	assert_string_equal(m.result.reason, "vcf 5");
	assert_int_equal(m.result.pvlen, 0);
	/* asked for (a J " l"): the line too, the rest the same */
	n = cmsg_format_result(buf, sizeof buf, 77, 0, &r, 1);
	assert_true(n > 0);
	assert_non_null(strstr(buf, "R 77 0 pv 112,113,133 112 -350 "));
	assert_int_equal(parse(buf, &m), 0);
	assert_int_equal(m.result.pvlen, 3);
	assert_int_equal(m.result.pv[2], 133);
	assert_int_equal(m.result.best, 112);
	assert_int_equal(m.result.ncand, 2);
	assert_string_equal(m.result.reason, "vcf 5");
	/* no move found: no fields of r go out */
	n = cmsg_format_result(buf, sizeof buf, 78, -1, NULL, 1);
	assert_int_equal(parse(buf, &m), 0);
	assert_int_equal(m.status, -1);
	assert_int_equal(m.result.ncand, 0);
	static const char *const bad[] = {
		"R",
		"R 1 0 112 0 0 1 1 10",         /* no candidates */
		"R 1 0 -1 0 0 1 1 10 - x",      /* status 0 without a move */
		"R 1 1 112 0 0 1 1 10 - x",     /* status */
		"R 1 0 400 0 0 1 1 10 - x",     /* move */
		"R 1 0 112 0 0 1 1 10 112 x",   /* a candidate without its score */
		"R 1 0 112 0 0 1 1 10 112:x x", /* its score */
		"R 1 0 112 0 0 1 1 10 500:1 x", /* its move */
		"R 0 0 112 0 0 1 1 10 - x",     /* id */
		"R 1 0 112 0 0 1 1 10 - a very long reason indeed, too long",
		"R 1 0 112 0 0 1 1 10 - x\ny",
		"R 1 0 pv 112 0 0 1 1 10 - x",     /* a line, then no move */
		"R 1 0 pv 400 112 0 0 1 1 10 - x", /* a cell off every board */
		"R 1 0 pv 112,,3 112 0 0 1 1 10 - x",
		"R 1 0 pv 112",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		assert_int_equal(parse(bad[i], &m), -1);
	/* seventeen candidates: one too many */
	char many[512] = "R 1 0 112 0 0 1 1 10 ";
	for (int i = 0; i < 17; i++)
		snprintf(
		    many + strlen(many), sizeof many - strlen(many), "%s%d:0", i ? "," : "", i);
	strcat(many, " x");
	assert_int_equal(parse(many, &m), -1);
}

/* Opening jobs (issue 46): the J line's opening tail and R's act form,
 * formatted, parsed back, refused when wrong; the old forms unchanged. */
static void
test_opening_job(void **state)
{
	char buf[4096];
	struct cmsg m;
	bots_job_t j;
	(void)state;
	memset(&j, 0, sizeof j);
	j.rule = RULE_RENJU;
	j.size = 15;
	j.level = 4;
	j.soft_ms = 800;
	j.nmoves = 4;
	j.moves[0] = 7 * RULES_STRIDE + 7;
	j.moves[1] = 6 * RULES_STRIDE + 7;
	j.moves[2] = 5 * RULES_STRIDE + 8;
	j.moves[3] = 8 * RULES_STRIDE + 6;
	j.opening = 1;
	j.orule = ORULE_SOOSORV8;
	j.actor = 1;
	snprintf(j.olog, sizeof j.olog, "3:cw 4:d5");
	int n = cmsg_format_job(buf, sizeof buf, "alpha", 5, &j);
	assert_true(n > 0);
	assert_string_equal(buf + n - strlen(" o 8 1 3:cw 4:d5"), " o 8 1 3:cw 4:d5");
	assert_int_equal(parse(buf, &m), 0);
	assert_int_equal(m.kind, CMSG_JOB);
	assert_true(m.spec.opening);
	assert_int_equal(m.spec.orule, ORULE_SOOSORV8);
	assert_int_equal(m.spec.actor, 1);
	assert_string_equal(m.spec.olog, "3:cw 4:d5");
	assert_int_equal(m.spec.nmoves, 4);
	assert_memory_equal(m.spec.moves, j.moves, 4 * sizeof j.moves[0]);
	/* no log yet, no stones yet */
	j.olog[0] = '\0';
	j.nmoves = 0;
	n = cmsg_format_job(buf, sizeof buf, "alpha", 5, &j);
	assert_string_equal(buf + n - strlen(" - o 8 1 -"), " - o 8 1 -");
	assert_int_equal(parse(buf, &m), 0);
	assert_true(m.spec.opening);
	assert_string_equal(m.spec.olog, "");
	assert_int_equal(m.spec.nmoves, 0);
	/* a move's job has no tail and is no opening job */
	j.opening = 0;
	n = cmsg_format_job(buf, sizeof buf, "alpha", 5, &j);
	assert_null(strstr(buf, " o "));
	assert_int_equal(parse(buf, &m), 0);
	assert_false(m.spec.opening);
	static const char *const badj[] = {
		"J a 1 0 15 5 100 200 0 0 0 5 1 - o",            /* no rule */
		"J a 1 0 15 5 100 200 0 0 0 5 1 - o 9 0 -",      /* rule */
		"J a 1 0 15 5 100 200 0 0 0 5 1 - o 5 2 -",      /* actor */
		"J a 1 0 15 5 100 200 0 0 0 5 1 - o 5 0",        /* no log */
		"J a 1 0 15 5 100 200 0 0 0 5 1 - x 5 0 -",      /* not o */
		"J a 1 0 15 5 100 200 0 0 0 5 1 - oo 5 0 -",     /* not o */
		"J a 1 0 15 5 100 200 0 0 0 5 1 - o 5 0 3:\tcb", /* a control */
	};
	for (size_t i = 0; i < sizeof badj / sizeof badj[0]; i++)
		assert_int_equal(parse(badj[i], &m), -1);
	char longlog[OPENING_LOG_MAX + 64] = "J a 1 0 15 5 100 200 0 0 0 5 1 - o 5 0 ";
	while (strlen(longlog) < sizeof longlog - 1)
		strcat(longlog, "x");
	assert_int_equal(parse(longlog, &m), -1);

	/* the act form of R: each kind */
	static const opening_act_t acts[] = {
		{ .kind = OACT_PLACE, .moves = { 112 } },
		{ .kind = OACT_COLOUR, .arg = STONE_WHITE },
		{ .kind = OACT_DECLARE, .n = 7 },
		{ .kind = OACT_OFFER, .n = 3, .moves = { 112, 131, 0 } },
		{ .kind = OACT_CHOOSE, .moves = { 131 } },
		{ .kind = OACT_BRANCH, .arg = OBRANCH_TEN },
	};
	for (size_t i = 0; i < sizeof acts / sizeof acts[0]; i++) {
		n = cmsg_format_act(buf, sizeof buf, 41, 0, &acts[i]);
		assert_true(n > 0);
		assert_int_equal(parse(buf, &m), 0);
		assert_int_equal(m.kind, CMSG_RESULT);
		assert_true(m.job == 41);
		assert_int_equal(m.status, 0);
		assert_true(m.is_act);
		assert_int_equal(m.act.kind, acts[i].kind);
		assert_int_equal(m.act.n, acts[i].n);
		assert_int_equal(m.act.arg, acts[i].arg);
		assert_memory_equal(m.act.moves, acts[i].moves, sizeof m.act.moves);
	}
	n = cmsg_format_act(buf, sizeof buf, 42, -1, NULL);
	assert_string_equal(buf, "R 42 -1 act 0 0 0 -");
	assert_int_equal(parse(buf, &m), 0);
	assert_int_equal(m.status, -1);
	assert_true(m.is_act);
	/* a move's result is not an act */
	assert_int_equal(parse("R 9 0 112 -40 0 8 12 790 - x", &m), 0);
	assert_false(m.is_act);
	static const char *const badr[] = {
		"R 1 0 act",
		"R 1 0 act 6 0 0 -",     /* kind */
		"R 1 0 act 0 0 0 -",     /* a stone act without its stone */
		"R 1 0 act 0 0 0 1,2",   /* two stones */
		"R 1 0 act 3 2 0 112",   /* two offers, one move */
		"R 1 0 act 3 11 0 -",    /* n */
		"R 1 0 act 1 0 256 -",   /* arg */
		"R 1 0 act 0 0 0 400",   /* move */
		"R 1 0 act 0 0 0 112 x", /* trailing */
		"R 1 0 act 2 5 0 112",   /* a declare with a move */
		"R 1 0 act 3 11 0 1,2,3,4,5,6,7,8,9,10,11",
	};
	for (size_t i = 0; i < sizeof badr / sizeof badr[0]; i++)
		assert_int_equal(parse(badr[i], &m), -1);
}

/* Every prefix of good messages parses or is refused, never read past. */
/* Spectator counts (C) and lobby messages (L): formatted, parsed back,
 * and refused when wrong. */
static void
test_watchers_lobby(void **state)
{
	char buf[256];
	struct cmsg m;
	(void)state;
	assert_true(cmsg_format_watchers(buf, sizeof buf, "alpha3", "beta", 2) > 0);
	assert_string_equal(buf, "C alpha3 beta 2");
	assert_int_equal(parse(buf, &m), 0);
	assert_int_equal(m.kind, CMSG_WATCHERS);
	assert_string_equal(m.room, "alpha3");
	assert_string_equal(m.node, "beta");
	assert_int_equal(m.seq, 2);
	static const char *const bad_c[] = { "C alpha3 beta", "C alpha3 beta -1",
		"C alpha3 beta 2 3", "C 3 beta 2", "C alpha3 1b 2", "C alpha3 beta 1000001",
		"C alpha3 beta 02" };
	for (size_t i = 0; i < sizeof bad_c / sizeof bad_c[0]; i++)
		assert_int_equal(parse(bad_c[i], &m), -1);
	assert_true(cmsg_format_lobby(buf, sizeof buf, "beta", "refused 4") > 0);
	assert_string_equal(buf, "L beta refused 4");
	assert_int_equal(parse(buf, &m), 0);
	assert_int_equal(m.kind, CMSG_LOBBY);
	assert_string_equal(m.node, "beta");
	assert_int_equal(m.bodylen, strlen("refused 4"));
	assert_memory_equal(m.body, "refused 4", m.bodylen);
	static const char *const bad_l[] = { "L", "L beta", "L beta ", "L 1x refused 4",
		"L beta refused\n4" };
	for (size_t i = 0; i < sizeof bad_l / sizeof bad_l[0]; i++)
		assert_int_equal(parse(bad_l[i], &m), -1);
	/* a presence line of another kind stays refused */
	assert_int_equal(parse("P b 127.0.0.1:1\n* MOVED a1 x:1", &m), -1);
}

/* Tournament notices (K): formatted, parsed back, refused when wrong. */
static void
test_tourney(void **state)
{
	char buf[64];
	struct cmsg m;
	(void)state;
	assert_true(cmsg_format_tourney(buf, sizeof buf, "beta", 42) > 0);
	assert_string_equal(buf, "K beta 42");
	assert_int_equal(parse(buf, &m), 0);
	assert_int_equal(m.kind, CMSG_TOURNEY);
	assert_string_equal(m.node, "beta");
	assert_int_equal(m.job, 42);
	assert_int_equal(parse("K beta 0", &m), 0); /* an event it does not know */
	assert_int_equal(m.job, 0);
	static const char *const bad[] = { "K", "K beta", "K beta -1", "K beta 1 2", "K 1x 1",
		"K beta 9223372036854775808", "K beta x", "K beta 1\n2" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		assert_int_equal(parse(bad[i], &m), -1);
	assert_int_equal(cmsg_format_tourney(buf, 8, "beta", 42), -1); /* too long */
}

static void
test_truncated(void **state)
{
	static const char *const good[] = {
		"P alpha 10.0.0.1:5555\n= USER alice idle\n= USER bob seeking",
		"T bob alice hello",
		"W a7 c",
		"S a7 42\n= MOVES a7 0 h8,i9",
		"E * MOVE a7 43 white i9 1000 2000",
		"J alpha 9 2 15 10 800 1600 60000 0 0 5 77 112,113,92",
		"R 9 0 112 -40 0 8 12 790 112:-40,113:-90 four-three",
		"J alpha 9 2 15 10 800 1600 60000 0 0 5 77 112,113,92 o 5 1 3:cw 4:d5",
		"R 9 0 act 3 2 0 112,131",
		"K beta 42",
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
		cmocka_unit_test(test_job),
		cmocka_unit_test(test_result),
		cmocka_unit_test(test_opening_job),
		cmocka_unit_test(test_watchers_lobby),
		cmocka_unit_test(test_tourney),
		cmocka_unit_test(test_engines),
		cmocka_unit_test(test_truncated),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
