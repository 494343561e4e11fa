/*
 * test_chaos: a seeded random walk over the whole command set against the
 * real daemon: eight clients send well-formed but arbitrary requests (moves
 * anywhere, offers and answers with any id, swap2 choices, leaves, watches,
 * resumes after dropped connections) as fast as the server answers. The
 * server must answer every request, stay up, and exit cleanly on SIGTERM
 * (under ASan that includes no leaks); the walk must have played: games
 * started, moves accepted, each move's * MOVE before its OK MOVE, and
 * players' moves relayed to other clients, each count above a floor of one
 * per 100 steps. CHAOS_SEED and CHAOS_STEPS pick another or a longer walk.
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

enum { NCLIENTS = 8, STEPS = 20000, NROOMS = 16 };

/* Rooms seen in START and CREATE lines, so requests hit live rooms. */
struct seen {
	char room[NROOMS][16];
	int n;
	int starts, overs, moves;
	int unechoed; /* OK MOVE replies without the mover's own * MOVE first */
	int events;   /* * MOVE events seen by any client */
	int relays;   /* of them, a chaos client's move seen by another client */
	struct {      /* the players of recent games, from START */
		char room[16], black[32], white[32];
		int swap2; /* black and white name the opener until COLOURS */
	} games[NROOMS];
	int ngames;
	struct { /* each client's last * MOVE seq per room */
		char room[16];
		int seq;
	} lastmv[NCLIENTS][NROOMS];
	char last[NCLIENTS][16]; /* each client's latest game */
	int active[NCLIENTS];    /* and whether it is still on */
	int stuck[NCLIENTS];     /* told busy: leave its room or cancel its seek */
};

/* The seq of the last * MOVE client who saw in room, or its slot to fill. */
static int *
last_move(struct seen *sn, int who, const char *room)
{
	for (int k = 0; k < NROOMS; k++)
		if (strcmp(sn->lastmv[who][k].room, room) == 0)
			return &sn->lastmv[who][k].seq;
	for (int k = 0; k < NROOMS; k++)
		if (!sn->lastmv[who][k].room[0] || k == NROOMS - 1) {
			snprintf(sn->lastmv[who][k].room, 16, "%s", room);
			sn->lastmv[who][k].seq = -1;
			return &sn->lastmv[who][k].seq;
		}
	return NULL;
}

/* Who played side in room, as its last START said; NULL when not known. */
static const char *
player(struct seen *sn, const char *room, const char *side)
{
	for (int k = 0; k < NROOMS; k++)
		if (strcmp(sn->games[k].room, room) == 0 && !sn->games[k].swap2)
			return strcmp(side, "black") == 0 ? sn->games[k].black : sn->games[k].white;
	return NULL;
}

static void
note(struct seen *sn, int who, const char *name, const char *l)
{
	char room[16], b[32], w[32], side[8], opening[16];
	int seq;
	if (sscanf(l, "* MOVE %15s %d %7s", room, &seq, side) == 3) {
		*last_move(sn, who, room) = seq;
		sn->events++;
		const char *by = player(sn, room, side);
		sn->relays += by && strncmp(by, "chaos", 5) == 0 && strcmp(by, name) != 0;
	}
	if (sscanf(l, "* START %15s %d %31s %31s %*s %*s %*s %15s", room, &seq, b, w, opening) ==
	    5) {
		int k = 0;
		while (k < NROOMS && strcmp(sn->games[k].room, room) != 0)
			k++;
		if (k == NROOMS)
			k = sn->ngames++ % NROOMS;
		snprintf(sn->games[k].room, 16, "%s", room);
		snprintf(sn->games[k].black, 32, "%s", b);
		snprintf(sn->games[k].white, 32, "%s", w);
		sn->games[k].swap2 = strcmp(opening, "swap2") == 0;
	} else if (sscanf(l, "OK MOVE %15s %d", room, &seq) == 2) {
		/* the protocol: a move's event comes before its reply */
		if (*last_move(sn, who, room) != seq) {
			fprintf(stderr, "%s: \"%s\" without its * MOVE before it\n", name, l);
			sn->unechoed++;
		}
	}
	if (sscanf(l, "* START %15s %d %31s %31s", room, &seq, b, w) == 4) {
		snprintf(sn->room[sn->n++ % NROOMS], 16, "%s", room);
		if (strcmp(b, name) == 0 || strcmp(w, name) == 0) {
			snprintf(sn->last[who], 16, "%s", room);
			sn->active[who] = 1;
			sn->starts++;
		}
	} else if (sscanf(l, "OK CREATE %15s", room) == 1) {
		snprintf(sn->room[sn->n++ % NROOMS], 16, "%s", room);
		snprintf(sn->last[who], 16, "%s", room); /* so a LEAVE will close it */
		sn->active[who] = 1;
	} else if (sscanf(l, "* OVER %15s", room) == 1 && strcmp(room, sn->last[who]) == 0) {
		sn->active[who] = 0;
		sn->overs++;
	}
	sn->moves += strncmp(l, "OK MOVE ", 8) == 0;
}

static unsigned
rnd(unsigned *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 16;
}

/* A random well-formed request. */
static void
random_request(
    unsigned *s, char *out, size_t len, const char *names[NCLIENTS], struct seen *sn, int who)
{
	static const char *const rules[] = { "freestyle", "standard", "renju" };
	static const char *const colours[] = { "black", "white", "any" };
	static const char *const offers[] = { "draw", "undo", "rematch" };
	char room[8], move[8];
	if (sn->last[who][0] && rnd(s) % 4)
		snprintf(room, sizeof room, "%s", sn->last[who]);
	else if (sn->n && rnd(s) % 8)
		snprintf(
		    room, sizeof room, "%s", sn->room[rnd(s) % (sn->n < NROOMS ? sn->n : NROOMS)]);
	else
		snprintf(room, sizeof room, "r%u", 1 + rnd(s) % 12);
	snprintf(move, sizeof move, "%c%u", 'a' + (int)(rnd(s) % 15), 1 + rnd(s) % 15);
	if (sn->stuck[who]) {
		if (sn->stuck[who]-- == 2 && sn->last[who][0])
			snprintf(out, len, "LEAVE %s", sn->last[who]);
		else
			snprintf(out, len, "CANCEL");
		return;
	}
	unsigned k = rnd(s) % 40;
	if (!sn->active[who] && rnd(s) % 2)
		k = 0; /* no game: look for one */
	if (k >= 22)   /* most requests are moves */
		k = rnd(s) % 20 == 0 ? 13 : 4;
	switch (k) {
	case 0:
	case 1:
		k = rnd(s) % 8 < 6 ? 0 : rnd(s) % 3; /* mostly one kind, so seeks pair */
		snprintf(out, len, "SEEK %s 15 none %s casual %s", rules[k], colours[rnd(s) % 3],
		    k < 2 && rnd(s) % 3 == 0 ? "swap2" : "none");
		break;
	case 2:
		snprintf(out, len, "CANCEL");
		break;
	case 3:
		snprintf(out, len, "CREATE freestyle 9 none any casual %s",
		    rnd(s) % 2 ? "swap2" : "none");
		break;
	case 4:
	case 5:
	case 6:
	case 7:
	case 8:
		snprintf(out, len, "MOVE %s %s", room, move);
		break;
	case 9:
		snprintf(out, len, "SWAP2 %s %s", room,
		    rnd(s) % 3 == 0  ? "black"
			: rnd(s) % 2 ? "white"
				     : "put a1,b2,c3");
		break;
	case 10:
		snprintf(out, len, "OFFER %s %s", room, offers[rnd(s) % 3]);
		break;
	case 11:
	case 12:
		snprintf(
		    out, len, "%s %s %u", rnd(s) % 3 ? "ACCEPT" : "DECLINE", room, 1 + rnd(s) % 6);
		break;
	case 13:
		snprintf(out, len, "%s %s", rnd(s) % 2 ? "RESIGN" : "ABORT", room);
		break;
	case 14:
		snprintf(out, len, "CLAIM %s", room);
		break;
	case 15:
		snprintf(out, len, "WATCH %s", room);
		break;
	case 16:
		snprintf(out, len, "LEAVE %s", room);
		break;
	case 17:
		snprintf(out, len, "SAY %s hi %u", room, rnd(s));
		break;
	case 18:
		snprintf(out, len, "TELL %s psst", names[rnd(s) % NCLIENTS]);
		break;
	case 19:
		snprintf(out, len, "STATE %s", room);
		break;
	case 20:
		snprintf(out, len, "%s", rnd(s) % 2 ? "ROOMS" : "WHO");
		break;
	case 21:
		if (rnd(s) % 2)
			snprintf(out, len, "BOT seat %s %u", room, 1 + rnd(s) % 3);
		else
			snprintf(
			    out, len, "BOT play %u freestyle 15 none any none", 1 + rnd(s) % 3);
		break;
	default:
		snprintf(out, len, "PING %u", rnd(s));
		break;
	}
}

int
main(void)
{
	tc_verbose = getenv("TC_VERBOSE") != NULL;
	signal(SIGPIPE, SIG_IGN);
	struct daemon d;
	if (daemon_start(&d, GOMOKUD_BIN,
		"grace 1\nrate-burst 100000\nrate-per-second 100000\n"
		"chat-burst 1000\nchat-window 1\nlog-level info\n")) {
		fprintf(stderr, "cannot start %s\n", GOMOKUD_BIN);
		return 1;
	}
	struct tc *c[NCLIENTS];
	char names[NCLIENTS][16];
	const char *np[NCLIENTS];
	for (int i = 0; i < NCLIENTS; i++) {
		snprintf(names[i], sizeof names[i], "chaos%d", i);
		np[i] = names[i];
		c[i] = tc_guest(d.port, names[i]);
		if (!c[i]) {
			fprintf(stderr, "cannot connect client %d\n", i);
			daemon_stop(&d, SIGKILL, 1000);
			return 1;
		}
	}
	unsigned seed = getenv("CHAOS_SEED") ? (unsigned)atoi(getenv("CHAOS_SEED")) : 20261129;
	struct seen sn;
	memset(&sn, 0, sizeof sn);
	int replies = 0, errors = 0, resumes = 0;
	int steps = getenv("CHAOS_STEPS") ? atoi(getenv("CHAOS_STEPS")) : STEPS;
	for (int step = 0; step < steps; step++) {
		int i = (int)(rnd(&seed) % NCLIENTS);
		if (rnd(&seed) % 200 == 0) {
			/* drop the connection; come back with its token */
			char token[80];
			char name[32];
			snprintf(token, sizeof token, "%s", c[i]->token);
			snprintf(name, sizeof name, "%s", c[i]->name);
			tc_close(c[i]);
			c[i] = tc_open(d.port, 1);
			if (!c[i]) {
				failures++;
				break;
			}
			snprintf(c[i]->token, sizeof c[i]->token, "%s", token);
			snprintf(c[i]->name, sizeof c[i]->name, "%s", name);
			tc_send(c[i], "RESUME %s %s 0", token, sn.last[i][0] ? sn.last[i] : "r1");
			const char *l = tc_expect(c[i], "", 3000);
			while (l && l[0] != 'O' && l[0] != 'E')
				l = tc_read(c[i], 3000);
			if (l && strncmp(l, "OK RESUME", 9) == 0) {
				resumes++;
			} else {
				/* no seat to resume: take a fresh name */
				tc_send(c[i], "GUEST %s_%d", names[i], step);
				if (!tc_expect(c[i], "OK GUEST ", 3000))
					failures++;
				else
					sscanf(c[i]->line, "OK GUEST %31s %79s", c[i]->name,
					    c[i]->token);
			}
			continue;
		}
		char req[256];
		random_request(&seed, req, sizeof req, np, &sn, i);
		tc_send(c[i], "%s", req);
		/* every request gets exactly one OK or ERR; events may come first */
		const char *l;
		while ((l = tc_read(c[i], 3000)) && l[0] != 'O' && l[0] != 'E')
			note(&sn, i, c[i]->name, l);
		if (l)
			note(&sn, i, c[i]->name, l);
		if (!l) {
			fprintf(stderr, "no reply to \"%s\" from client %d\n", req, i);
			failures++;
			break;
		}
		replies++;
		errors += l[0] == 'E';
		if (strncmp(l, "ERR 420", 7) == 0 || strncmp(l, "ERR 440", 7) == 0)
			sn.active[i] = 0; /* its game is gone: seek another */
		if (strncmp(l, "ERR 445", 7) == 0 && rnd(&seed) % 4 == 0)
			sn.stuck[i] = 2;
		/* drain what the others were told */
		for (int k = 0; k < NCLIENTS; k++)
			while (c[k] && tc_read(c[k], 0))
				note(&sn, k, c[k]->name, c[k]->line);
	}
	for (int i = 0; i < NCLIENTS; i++) {
		if (!c[i])
			continue;
		tc_send(c[i], "PING end");
		if (!tc_expect(c[i], "OK PING end", 3000))
			failures++;
		tc_close(c[i]);
	}
	printf("chaos: %d requests answered (%d errors, as expected for random play), %d resumes, "
	       "%d games started, %d ended, %d moves, %d * MOVE events, %d of them a player's move "
	       "relayed to another client\n",
	    replies, errors, resumes, sn.starts, sn.overs, sn.moves, sn.events, sn.relays);
	/* the walk played: games paired and moves accepted and relayed, well
	 * above what a daemon that pairs, plays or relays nothing would show
	 * (20000 steps make about 1500 starts, 900 moves, 850 relays) */
	int floor = steps / 100;
	CHECK(sn.starts >= floor, "only %d games started (at least %d)", sn.starts, floor);
	CHECK(sn.moves >= floor, "only %d moves accepted (at least %d)", sn.moves, floor);
	CHECK(sn.relays >= floor, "only %d moves relayed to another client (at least %d)",
	    sn.relays, floor);
	CHECK(sn.unechoed == 0, "%d accepted moves came without their * MOVE first", sn.unechoed);
	int st = daemon_stop(&d, SIGTERM, 10000);
	if (st != 0) {
		fprintf(stderr, "daemon exit status %d; log %s\n", st, d.log);
		failures++;
	}
	if (failures) {
		fprintf(stderr, "chaos: %d failures; log %s\n", failures, d.log);
		return 1;
	}
	printf("chaos: the daemon stayed up, answered every request, played and relayed the "
	       "games and exited cleanly\n");
	char cmd[200];
	snprintf(cmd, sizeof cmd, "rm -rf %s", d.dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", d.dir);
	return 0;
}
