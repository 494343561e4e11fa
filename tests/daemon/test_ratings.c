/*
 * test_ratings.c: ratings in view on the real gomokud (issue 43, item 7):
 * the capability `ratings`; * RATINGS right after * START with both
 * players' ratings for the rule (1500? for new accounts, - for a guest);
 * the snapshot's = RATINGS after the = SEAT lines; * RATED right after the
 * * OVER of a rated game, with the numbers STATS says afterwards, and none
 * after a casual game; and 417 account-only for a guest's rated SEEK,
 * CREATE, CHALLENGE, TAKE and JOIN and for a rated CHALLENGE to a guest,
 * none of which changes anything (the guest seeks casual after them).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LINE_MS 10000 /* scrypt under the sanitizers is slow */
#include "tests/daemon/check.h"
#include "tests/daemon/tclient.h"

#ifndef GOMOKUD_BIN
#define GOMOKUD_BIN "bin/gomokud"
#endif

static struct daemon d;

/* A connection logged in as a new account. */
static struct tc *
account(const char *name)
{
	struct tc *c = tc_open(d.port, 1);
	if (!c)
		return NULL;
	tc_send(c, "REGISTER %s s3cret-pass", name);
	if (!tc_expect(c, "OK REGISTER ", LINE_MS)) {
		tc_close(c);
		return NULL;
	}
	snprintf(c->name, sizeof c->name, "%s", name);
	return c;
}

/* The seq of an event line "* VERB <room> <seq> ...". */
static unsigned
seq_of(const char *line)
{
	unsigned seq = 0;
	char verb[16], room[24];
	if (sscanf(line, "* %15s %23s %u", verb, room, &seq) != 3)
		return 0;
	return seq;
}

/* name's rating for rule as STATS says it, or -1. */
static int
stat_rating(struct tc *c, const char *name, const char *rule)
{
	char want[64];
	int rating = -1;
	snprintf(want, sizeof want, "= STAT %s %s ", name, rule);
	tc_send(c, "STATS %s", name);
	const char *l = tc_expect(c, want, LINE_MS);
	if (l)
		sscanf(l + strlen(want), "%d", &rating);
	return tc_expect(c, "OK STATS ", LINE_MS) ? rating : -1;
}

static int alice_after = -1, bob_after = -1;

static void
test_rated_game(struct tc *alice, struct tc *bob)
{
	char room[24], want[160];
	REQUIRE(tc_pair(alice, bob, "freestyle 15 300+5", "rated", room, sizeof room) == 0, "%s",
	    tc_why);
	unsigned start = seq_of(alice->line);
	REQUIRE(start > 0, "START: %s", alice->line);
	/* the very next line after * START, with the room's next seq */
	snprintf(want, sizeof want, "* RATINGS %s %u alice 1500? bob 1500?", room, start + 1);
	const char *l = tc_read(alice, LINE_MS);
	REQUIRE(l && strcmp(l, want) == 0, "after START: %s, want %s", l ? l : "none", want);
	printf("* RATINGS right after * START: %s\n", want);

	/* the snapshot: = RATINGS after the = SEAT lines */
	tc_send(alice, "STATE %s", room);
	snprintf(want, sizeof want, "= SEAT %s white bob ", room);
	REQUIRE(tc_expect(alice, want, LINE_MS), "no white SEAT: %s", alice->line);
	snprintf(want, sizeof want, "= RATINGS %s alice 1500? bob 1500?", room);
	l = tc_read(alice, LINE_MS);
	REQUIRE(
	    l && strcmp(l, want) == 0, "after the SEAT lines: %s, want %s", l ? l : "none", want);
	REQUIRE(tc_expect(alice, "OK STATE ", LINE_MS), "no OK STATE: %s", alice->line);
	printf("snapshot: %s after the = SEAT lines\n", want);

	REQUIRE(tc_play_five(alice, bob, room, NULL) == 0, "%s", tc_why);
	unsigned over = seq_of(bob->line);
	l = tc_read(bob, LINE_MS);
	REQUIRE(l, "nothing after OVER");
	int bb, ba, wb, wa;
	unsigned seq;
	snprintf(want, sizeof want, "* RATED %s %%u alice %%d %%d bob %%d %%d", room);
	REQUIRE(sscanf(l, want, &seq, &bb, &ba, &wb, &wa) == 5, "after OVER: %s", l);
	char rated[160];
	snprintf(rated, sizeof rated, "%s", l);
	CHECK(seq == over + 1, "RATED's seq %u after OVER's %u", seq, over);
	CHECK(bb == 1500 && wb == 1500, "before: %d %d", bb, wb);
	CHECK(ba > 1500 && wa < 1500, "after: alice %d (won) bob %d (lost)", ba, wa);
	CHECK(stat_rating(bob, "alice", "freestyle") == ba, "STATS alice != %d", ba);
	CHECK(stat_rating(bob, "bob", "freestyle") == wa, "STATS bob != %d", wa);
	alice_after = ba;
	bob_after = wa;
	printf("* RATED after * OVER: %s (STATS agrees)\n", rated);
}

static void
test_casual_game(struct tc *alice, struct tc *bob)
{
	char room[24], want[160];
	REQUIRE(tc_pair(alice, bob, "freestyle 15 300+5", "casual", room, sizeof room) == 0, "%s",
	    tc_why);
	unsigned start = seq_of(alice->line);
	/* the ratings as the rated game left them, still provisional */
	snprintf(want, sizeof want, "* RATINGS %s %u alice %d? bob %d?", room, start + 1,
	    alice_after, bob_after);
	const char *l = tc_read(alice, LINE_MS);
	REQUIRE(l && strcmp(l, want) == 0, "after START: %s, want %s", l ? l : "none", want);
	REQUIRE(tc_play_five(alice, bob, room, NULL) == 0, "%s", tc_why);
	tc_send(bob, "PING casual");
	l = tc_read(bob, LINE_MS);
	REQUIRE(l && strcmp(l, "OK PING casual") == 0, "after a casual OVER: %s", l ? l : "none");
	CHECK(stat_rating(bob, "alice", "freestyle") == alice_after, "a casual game rated alice");
	printf("casual: ratings shown (%s), no * RATED after its OVER\n", want);
}

static void
test_guests(struct tc *alice)
{
	struct tc *g = tc_guest(d.port, "visitor");
	REQUIRE(g, "guest");
	static const char *const asks[] = {
		"SEEK freestyle 15 300+5 any rated none",
		"CREATE renju 15 300+5 any rated none",
		"CHALLENGE alice freestyle 15 300+5 any rated none",
	};
	for (size_t i = 0; i < sizeof asks / sizeof asks[0]; i++) {
		tc_send(g, "%s", asks[i]);
		const char *l = tc_read(g, LINE_MS);
		static const char want[] = "ERR 417 account-only rated games need an account";
		CHECK(l && strncmp(l, want, sizeof want - 1) == 0, "'%s': %s", asks[i],
		    l ? l : "none");
	}
	/* a rated challenge to the guest */
	tc_send(alice, "CHALLENGE visitor freestyle 15 300+5 any rated none");
	const char *l = tc_read(alice, LINE_MS);
	CHECK(l && strncmp(l, "ERR 417 account-only ", 21) == 0, "rated CHALLENGE to a guest: %s",
	    l ? l : "none");
	/* taking alice's rated seek, joining her rated private room */
	tc_send(alice, "SEEK standard 15 300+5 any rated none");
	unsigned id = 0;
	l = tc_expect(alice, "OK SEEK ", LINE_MS);
	REQUIRE(l && sscanf(l, "OK SEEK %u", &id) == 1, "alice's seek: %s", alice->line);
	tc_send(g, "TAKE %u alice", id);
	l = tc_read(g, LINE_MS);
	CHECK(l && strncmp(l, "ERR 417 account-only ", 21) == 0, "TAKE: %s", l ? l : "none");
	tc_send(alice, "CANCEL");
	REQUIRE(tc_expect(alice, "OK CANCEL", LINE_MS), "cancel: %s", alice->line);
	tc_send(alice, "CREATE renju 15 300+5 any rated none");
	char rm[24], code[40];
	l = tc_expect(alice, "OK CREATE ", LINE_MS);
	REQUIRE(l && sscanf(l, "OK CREATE %23s %39s", rm, code) == 2, "create: %s", alice->line);
	tc_send(g, "JOIN %s", code);
	l = tc_read(g, LINE_MS);
	CHECK(l && strncmp(l, "ERR 417 account-only ", 21) == 0, "JOIN: %s", l ? l : "none");
	tc_send(alice, "LEAVE %s", rm);
	REQUIRE(tc_expect(alice, "OK LEAVE ", LINE_MS), "leave: %s", alice->line);

	/* nothing changed: the guest plays casual, shown without a rating
	 * (after a pause: alice said many lines this second, section 5.8) */
	sleep(1);
	char room[24], want[160];
	REQUIRE(
	    tc_pair(g, alice, "freestyle 15 none", "casual", room, sizeof room) == 0, "%s", tc_why);
	snprintf(want, sizeof want, "* RATINGS %s %u visitor - alice %d?", room,
	    seq_of(g->line) + 1, alice_after);
	l = tc_read(g, LINE_MS);
	CHECK(l && strcmp(l, want) == 0, "guest's game: %s, want %s", l ? l : "none", want);
	tc_close(g);
	printf("guests: 417 for rated SEEK, CREATE, CHALLENGE (both ways), TAKE, JOIN; casual"
	       " after them, rated '-'\n");
}

int
main(void)
{
	if (daemon_start(&d, GOMOKUD_BIN, NULL) != 0) {
		printf("FAIL: gomokud did not start\n");
		return 1;
	}
	struct tc *c = tc_open(d.port, 0);
	CHECK(c && strstr(c->line, " ratings") != NULL, "greeting: %s", c ? c->line : "none");
	if (c)
		tc_close(c);
	struct tc *alice = account("alice"), *bob = account("bob");
	CHECK(alice && bob, "register");
	if (!failures)
		test_rated_game(alice, bob);
	if (!failures)
		test_casual_game(alice, bob);
	if (!failures)
		test_guests(alice);
	if (alice)
		tc_close(alice);
	if (bob)
		tc_close(bob);
	if (daemon_stop(&d, SIGTERM, 5000) != 0) {
		printf("FAIL: the daemon did not exit cleanly\n");
		failures++;
	}
	if (!failures) {
		char cmd[200];
		snprintf(cmd, sizeof cmd, "rm -rf %s", d.dir);
		if (system(cmd) != 0)
			printf("could not remove the test directory\n");
	}
	printf("ratings: %d passed, %d failed\n", failures ? 0 : 1, failures ? 1 : 0);
	return failures ? 1 : 0;
}
