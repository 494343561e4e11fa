/*
 * test_group.c: SQLite's group commit on the loop (issue 45, item 2). The
 * game writes a loop turn asks for are one transaction, a savepoint each,
 * committed at the end of the turn and only then published. The daemon is
 * stopped (SIGSTOP) while several rooms' players send their moves, so the
 * loop reads them all in one turn when it is continued:
 * - six rooms' moves are one transaction (the metrics say a group of six);
 *   the third write of the group fails (the fault build's
 *   before:save-move), and only its room is refused (500, its opponent
 *   hears nothing): the five others are answered and published, and the
 *   refused move, sent again, is taken (nothing of it was stored);
 * - killed (before:commit:1:die) just before a group's COMMIT: none of the
 *   group's moves was said, and after a restart on the same state every
 *   game has exactly the moves answered before, and goes on.
 * Every process it started is stopped by its pid, also on failure.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/daemon/check.h"
#include "tests/daemon/tclient.h"

#ifndef GOMOKUD_BIN
#define GOMOKUD_BIN "bin/gomokud"
#endif
#ifndef GOMOKUD_FAULTS_BIN
#define GOMOKUD_FAULTS_BIN "gomokud-faults"
#endif

enum { ROOMS = 6 };

static int mport;

/* Starts bin on state (NULL: a new directory) with fault set ("": none). */
static int
start(struct daemon *d, const char *bin, const char *state, const char *fault)
{
	char conf[300];
	int n = snprintf(conf, sizeof conf, "grace 300\nmetrics-listen 127.0.0.1:%d\n", mport);
	if (state)
		snprintf(conf + n, sizeof conf - (size_t)n, "state-dir %s\n", state);
	if (fault[0])
		setenv("GOMOKUD_FAULT", fault, 1);
	int rc = daemon_start(d, bin, conf);
	unsetenv("GOMOKUD_FAULT");
	return rc;
}

/* Each of movers sends its move while the daemon is stopped: the loop
 * reads them in one turn. */
static void
burst(struct daemon *d, struct tc **movers, char room[][24], const char *mv)
{
	kill(d->pid, SIGSTOP);
	usleep(100 * 1000);
	for (int i = 0; i < ROOMS; i++)
		tc_send(movers[i], "MOVE %s %s", room[i], mv);
	usleep(300 * 1000); /* every record is in the daemon's socket buffers */
	kill(d->pid, SIGCONT);
}

static void
test_refused_alone(void)
{
	static struct daemon d;
	struct tc *black[ROOMS], *white[ROOMS];
	char room[ROOMS][24];
	mport = tc_free_port();
	REQUIRE(start(&d, GOMOKUD_FAULTS_BIN, NULL, "before:save-move:3:fail") == 0,
	    "the fault build did not start");
	REQUIRE(tc_pair_rooms(d.port, ROOMS, black, white, room, "g") == 0, "no games");
	long batches = tc_metric(mport, "gomokud_store_batches_total"),
	     jobs = tc_metric(mport, "gomokud_store_batch_jobs_total");
	REQUIRE(batches >= 0 && jobs >= 0, "no store batch metrics on :%d", mport);

	burst(&d, black, room, "h8");
	int refused = -1, answered = 0;
	for (int i = 0; i < ROOMS; i++) {
		const char *l = tc_move_answer(black[i], 5000);
		if (l && strncmp(l, "ERR 500", 7) == 0) {
			CHECK(refused < 0, "rooms %d and %d both refused", refused, i);
			refused = i;
			CHECK(!tc_expect(white[i], "* MOVE", 500),
			    "the refused room's opponent heard the move");
			continue;
		}
		CHECK(l && strncmp(l, "OK MOVE", 7) == 0, "room %d's move: %s", i, black[i]->line);
		CHECK(tc_expect(white[i], "* MOVE", 3000), "room %d's white heard nothing", i);
		answered++;
	}
	CHECK(refused >= 0 && answered == ROOMS - 1, "%d answered, the refused room %d", answered,
	    refused);
	long b2 = tc_metric(mport, "gomokud_store_batches_total"),
	     j2 = tc_metric(mport, "gomokud_store_batch_jobs_total"),
	     max = tc_metric(mport, "gomokud_store_batch_jobs_max");
	CHECK(b2 == batches + 1 && j2 == jobs + ROOMS && max == ROOMS,
	    "the burst was %ld transactions of %ld writes (the most %ld), not one of %d",
	    b2 - batches, j2 - jobs, max, ROOMS);
	if (refused >= 0) { /* nothing of it was stored: the same move is taken now */
		tc_send(black[refused], "MOVE %s h8", room[refused]);
		const char *l = tc_move_answer(black[refused], 3000);
		CHECK(l && strncmp(l, "OK MOVE", 7) == 0, "the refused move again: %s",
		    black[refused]->line);
	}
	for (int i = 0; i < ROOMS; i++) {
		tc_close(black[i]);
		tc_close(white[i]);
	}
	daemon_stop(&d, SIGTERM, 5000);
	ok("one loop turn's moves of six rooms are one transaction; its refused write is "
	   "refused alone, the others answered and published");
}

static void
test_kill_before_commit(void)
{
	static struct daemon d1, d2;
	struct tc *black[ROOMS], *white[ROOMS];
	char room[ROOMS][24], token[ROOMS][80], state[200];
	mport = tc_free_port();
	REQUIRE(start(&d1, GOMOKUD_FAULTS_BIN, NULL, "before:commit:1:die") == 0,
	    "the fault build did not start");
	snprintf(state, sizeof state, "%s/state", d1.dir);
	REQUIRE(tc_pair_rooms(d1.port, ROOMS, black, white, room, "k") == 0, "no games");
	/* black's moves one at a time: each its own transaction, no COMMIT */
	for (int i = 0; i < ROOMS; i++) {
		tc_send(black[i], "MOVE %s h8", room[i]);
		const char *l = tc_move_answer(black[i], 3000);
		REQUIRE(l && strncmp(l, "OK MOVE", 7) == 0, "room %d's first move: %s", i,
		    black[i]->line);
		REQUIRE(tc_expect(white[i], "* MOVE", 3000), "white %d heard nothing", i);
		snprintf(token[i], sizeof token[i], "%s", white[i]->token);
	}
	/* white's together: one group, killed before its COMMIT */
	burst(&d1, white, room, "i9");
	for (int i = 0; i < ROOMS; i++) {
		const char *l = tc_move_answer(white[i], 3000);
		CHECK(!l || strncmp(l, "OK MOVE", 7) != 0, "room %d's move answered: %s", i, l);
		CHECK(!tc_expect(black[i], "* MOVE", 200), "room %d's black heard white's move", i);
	}
	CHECK(daemon_stop(&d1, 0, 5000) == 128 + SIGKILL, "the daemon did not die of its fault");
	for (int i = 0; i < ROOMS; i++) {
		tc_close(black[i]);
		tc_close(white[i]);
	}
	mport = tc_free_port();
	REQUIRE(start(&d2, GOMOKUD_BIN, state, "") == 0, "restart failed (log %s)", d2.log);
	for (int i = 0; i < ROOMS; i++) {
		struct tc *c = tc_open(d2.port, 1);
		REQUIRE(c, "cannot reconnect");
		tc_send(c, "RESUME %s %s 0", token[i], room[i]);
		const char *l, *moves = NULL;
		char buf[64] = "";
		while ((l = tc_read(c, 3000)) && strncmp(l, "OK RESUME", 9) != 0 &&
		    strncmp(l, "ERR", 3) != 0)
			if (sscanf(l, "= MOVES %*s %*d %63s", buf) == 1)
				moves = buf;
		CHECK(moves && strcmp(moves, "h8") == 0, "room %d after the restart: moves %s", i,
		    moves ? moves : "(none)");
		tc_send(c, "MOVE %s i9", room[i]); /* and the game goes on */
		l = tc_move_answer(c, 3000);
		CHECK(l && strncmp(l, "OK MOVE", 7) == 0, "room %d goes on: %s", i, c->line);
		tc_close(c);
	}
	daemon_stop(&d2, SIGTERM, 5000);
	ok("killed before a group's COMMIT: none of its moves said or stored; the games resume "
	   "with the moves answered before");
}

int
main(void)
{
	test_refused_alone();
	test_kill_before_commit();
	printf("group: %d failed\n", failures);
	return failures ? 1 : 0;
}
