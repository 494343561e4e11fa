/* test_roster.c: a node's presence parsed once (daemon/cluster/roster.c):
 * every line given back exactly as proto_parse makes it (byte for byte,
 * whatever kind came before into the same message), each kind in the
 * order of the body, lines of other kinds and garbage left out, also when
 * a message's lines are taken from the roster before it; a name
 * found in any case, its first line when listed twice, an absent name
 * not found, in rosters from empty to thousands of users; a = BOT line
 * marks the = USER line of its name right after it, and only that one,
 * also when the lines are taken from the roster before. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "daemon/cluster/roster.h"

/* Each line of body of kind id, parsed alone, against the roster's. */
static void
check_kind(const struct roster *r, const char *body, proto_id_t id, proto_msg_t *got)
{
	const char *p = body;
	int i = 0;
	while (*p) {
		const char *lf = strchr(p, '\n');
		size_t n = lf ? (size_t)(lf - p) : strlen(p);
		proto_msg_t want;
		if (proto_parse(p, n, PROTO_SERVER, &want, NULL, 0) == 0 && want.id == id) {
			assert_true(i < roster_count(r, id));
			roster_line(r, id, i, got);
			assert_memory_equal(&want, got, sizeof want);
			if (id == PD_USER) {
				const char *name, *room;
				assert_int_equal(roster_user_at(r, i, &name, &room), want.ustate);
				assert_string_equal(name, want.user);
				assert_string_equal(room, want.room);
			}
			i++;
		}
		p += n + (lf != NULL);
	}
	assert_int_equal(i, roster_count(r, id));
}

/* Every kind, into one message in turn, as the presence's queries reuse
 * one; the roster (parsed after prev, which may be NULL) is returned. */
static struct roster *
check_after(const char *body, const struct roster *prev)
{
	struct roster *r = roster_parse(body, strlen(body), prev);
	proto_msg_t m;
	assert_non_null(r);
	proto_init(&m, PD_USER, NULL);
	check_kind(r, body, PD_ROOM, &m);
	check_kind(r, body, PD_USER, &m);
	check_kind(r, body, PD_SEEK, &m);
	check_kind(r, body, PD_USER, &m);
	assert_int_equal(roster_count(r, PD_GAME), 0);
	return r;
}

static void
check_all(const char *body)
{
	roster_free(check_after(body, NULL));
}

static void
test_lines(void **state)
{
	(void)state;
	check_all("= USER alice idle\n"
		  "= ROOM alpha3 playing freestyle 15 60+1 none casual bob carl 1 4\n"
		  "= USER bob playing alpha3\n"
		  "= SEEK 7 dora renju 15 none any rated swap2 bot\n"
		  "= USER carl watching alpha3\n"
		  "= ROOM alpha4 waiting standard 19 none swap2 rated - - 0 0\n"
		  "= USER dora seeking\n"
		  "= SEEK 8 eve freestyle 15 300+5 black casual none human\n"
		  "= USER Eve-2_x idle");
	/* garbage and other kinds are left out */
	check_all("= USER alice idle\n"
		  "garbage\n"
		  "\n"
		  "= USER bob nonsense\n"
		  "OK WHO 3\n"
		  "= USER carl playing alpha3\n"
		  "= USER\n"
		  "= USER dora idle");
	check_all("");
}

static int
rnd(int n)
{
	return rand() % n;
}

static void
rnd_name(char *out, size_t cap)
{
	static const char cs[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-";
	size_t n = 1 + (size_t)rnd((int)cap - 1);
	out[0] = cs[rnd(52)];
	for (size_t i = 1; i < n; i++)
		out[i] = cs[rnd((int)sizeof cs - 1)];
	out[n] = '\0';
}

/* A random line of any of the three kinds, every field in its range, as
 * proto_format writes it (with its LF); its length, or 0. */
static int
rnd_line(char line[PROTO_LINE_MAX])
{
	proto_msg_t m;
	int k = rnd(3);
	proto_init(&m, k == 0 ? PD_USER : k == 1 ? PD_ROOM : PD_SEEK, NULL);
	rnd_name(m.user, rnd(4) ? 12 : sizeof m.user);
	if (k == 0) {
		m.ustate = (proto_ustate_t)rnd(4);
		if (rnd(2))
			snprintf(m.room, sizeof m.room, "ab%d", 1 + rnd(100000));
	} else {
		if (k == 1) {
			snprintf(m.room, sizeof m.room, "xyz%d", 1 + rnd(1000000));
			m.status = (proto_status_t)rnd(4);
			if (rnd(4))
				rnd_name(m.user2, 10);
			else
				m.user[0] = '\0'; /* "-" */
			m.count = rnd(1000001);
			m.count2 = rnd(1000001);
		} else {
			m.ident = 1 + rnd(0x7fffffff);
			m.colour = (proto_colour_t)rnd(3);
			m.fallback = (proto_fallback_t)rnd(2);
		}
		m.rule = (rule_t)rnd(3);
		m.size = 15 + rnd(6);
		if (rnd(3)) {
			m.tc_base = 1 + rnd(PROTO_TC_BASE_MAX);
			m.tc_inc = rnd(PROTO_TC_INC_MAX + 1);
		}
		m.opening = (proto_opening_t)rnd(2);
		m.rated = rnd(2);
	}
	int n = proto_format(&m, line, PROTO_LINE_MAX);
	return n > 0 ? n : 0;
}

enum { RANDOM_LINES = 3000 };

/* lines random lines, each LF-terminated but the last, into body (NUL
 * terminated), which must hold lines * PROTO_LINE_MAX bytes. */
static void
rnd_body(char *body, int lines)
{
	size_t len = 0;
	for (int i = 0; i < lines; i++)
		len += (size_t)rnd_line(body + len);
	assert_true(len > 0);
	body[len - 1] = '\0'; /* the last LF, as a P message drops it */
}

static void
test_random(void **state)
{
	(void)state;
	srand(40);
	char *body = malloc((size_t)RANDOM_LINES * PROTO_LINE_MAX);
	assert_non_null(body);
	rnd_body(body, RANDOM_LINES);
	struct roster *r = check_after(body, NULL);
	assert_true(roster_count(r, PD_USER) > 900); /* about 1000 of each */
	assert_true(roster_count(r, PD_ROOM) > 900);
	assert_true(roster_count(r, PD_SEEK) > 900);
	roster_free(r);
	free(body);
}

/* A body's lines cut into an array (body is changed). */
static int
cut(char *body, char **lines, int max)
{
	int n = 0;
	for (char *p = body; p && n < max; n++) {
		lines[n] = p;
		if ((p = strchr(p, '\n')) != NULL)
			*p++ = '\0';
	}
	return n;
}

/* The next message after one: lines kept, moved, changed, doubled, new,
 * gone, and garbage; every line still as proto_parse gives it, whatever
 * the roster before held. */
static void
test_reuse(void **state)
{
	(void)state;
	srand(41);
	char *a = malloc((size_t)RANDOM_LINES * PROTO_LINE_MAX);
	char *b = malloc((size_t)RANDOM_LINES * 2 * PROTO_LINE_MAX);
	char **lines = malloc(RANDOM_LINES * sizeof *lines), line[PROTO_LINE_MAX];
	assert_true(a && b && lines);
	rnd_body(a, RANDOM_LINES);
	struct roster *ra = check_after(a, NULL), *rb, *rc;
	int n = cut(a, lines, RANDOM_LINES);
	size_t len = 0;
	for (int i = 0; i < n; i++) {
		const char *l = lines[rnd(n)]; /* kept or moved (or doubled) */
		int what = rnd(10);
		if (what == 0) { /* changed: a new line */
			int k = rnd_line(line);
			line[k ? k - 1 : 0] = '\0';
			l = line;
		} else if (what == 1) {
			l = "= USER not a line";
		} else if (what == 2) {
			continue; /* gone */
		}
		len += (size_t)sprintf(b + len, "%s\n", l);
	}
	b[len ? len - 1 : 0] = '\0';
	rb = check_after(b, ra);
	rc = check_after(b, rb); /* every line again */
	roster_free(rc);
	rc = check_after("= USER alice idle\n= USER bob seeking", rb); /* nearly none */
	roster_free(rb);
	rb = check_after(b, rc);
	roster_free(ra);
	roster_free(rb);
	roster_free(rc);
	free(a);
	free(b);
	free(lines);
}

static void
test_names(void **state)
{
	(void)state;
	const char *body = "= USER Alice idle\n"
			   "= ROOM alpha3 playing freestyle 15 60+1 none casual bob carl 1 4\n"
			   "= USER bob playing alpha3\n"
			   "= USER ALICE seeking\n"
			   "= SEEK 7 zed renju 15 none any rated swap2 bot";
	struct roster *r = roster_parse(body, strlen(body), NULL);
	const char *name;
	assert_non_null(r);
	assert_int_equal(roster_user(r, "alice"), 0); /* the first of two */
	assert_int_equal(roster_user(r, "ALICE"), 0);
	assert_int_equal(roster_user(r, "aLiCe"), 0);
	roster_user_at(r, 0, &name, NULL);
	assert_string_equal(name, "Alice");
	assert_int_equal(roster_user(r, "BOB"), 1);
	assert_int_equal(roster_user(r, "carl"), -1); /* a player of a room, not a user */
	assert_int_equal(roster_user(r, "zed"), -1);  /* a seeker, not a user */
	assert_int_equal(roster_user(r, "alic"), -1);
	assert_int_equal(roster_user(r, "alicee"), -1);
	assert_int_equal(roster_user(r, ""), -1);
	roster_free(r);

	/* none at all */
	r = roster_parse("", 0, NULL);
	assert_non_null(r);
	assert_int_equal(roster_count(r, PD_USER), 0);
	assert_int_equal(roster_user(r, "alice"), -1);
	roster_free(r);
	assert_int_equal(roster_count(NULL, PD_USER), 0);
	assert_int_equal(roster_user(NULL, "alice"), -1);
	roster_free(NULL);
}

/* Thousands of users: every one found in another case, none else. */
/* = BOT marks (issue 49): the user line right after a = BOT line of the
 * same name is a bot's; the same = USER text unmarked, or marked in the
 * next message, follows the message it is in. */
static void
test_bots(void **state)
{
	(void)state;
	const char *body = "= BOT bot3\n= USER bot3 playing a1\n= USER alice playing a1\n"
			   "= BOT ghost\n= USER carl idle\n= BOT bot-ours\n= USER bot-ours "
			   "playing a2\n= USER dora idle";
	struct roster *r = check_after(body, NULL);
	const char *name;
	int want[] = { 1, 0, 0, 1, 0 };
	assert_int_equal(roster_count(r, PD_USER), 5);
	for (int i = 0; i < 5; i++) {
		roster_user_at(r, i, &name, NULL);
		assert_int_equal(roster_user_bot(r, i), want[i]);
	}
	/* the next message: bot3 no longer marked, dora now marked */
	const char *next = "= USER bot3 playing a1\n= USER alice playing a1\n= BOT dora\n"
			   "= USER dora idle";
	struct roster *r2 = check_after(next, r);
	assert_int_equal(roster_count(r2, PD_USER), 3);
	assert_int_equal(roster_user_bot(r2, 0), 0);
	assert_int_equal(roster_user_bot(r2, 1), 0);
	assert_int_equal(roster_user_bot(r2, 2), 1);
	roster_free(r);
	roster_free(r2);
}

static void
test_many(void **state)
{
	(void)state;
	enum { N = 20000 };
	char *body = malloc((size_t)N * 40), *p = body, name[32];
	assert_non_null(body);
	for (int i = 0; i < N; i++)
		p += sprintf(p, "= USER user%d idle\n", i);
	struct roster *r = roster_parse(body, (size_t)(p - body - 1), NULL);
	assert_non_null(r);
	assert_int_equal(roster_count(r, PD_USER), N);
	for (int i = 0; i < N; i++) {
		snprintf(name, sizeof name, "USER%d", i);
		assert_int_equal(roster_user(r, name), i);
		snprintf(name, sizeof name, "user%dx", i);
		assert_int_equal(roster_user(r, name), -1);
	}
	roster_free(r);
	free(body);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_random),
		cmocka_unit_test(test_reuse),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_many),
		cmocka_unit_test(test_bots),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
