/*
 * crash: rated games on the real gomokud while it is killed with SIGKILL
 * at random moments and started again on the same state directory, for
 * SOAK_SECONDS (default 600). Pairs of accounts play rated games in private
 * rooms that end by five, resignation or an agreed draw; after every restart
 * the players RESUME, and each snapshot must hold every move the server had
 * acknowledged. At the end, read from the archive itself: every account's
 * wins, losses and draws equal its finished rated games, no game is listed
 * twice, and every end a client was told of is in it. Figures printed; exit 1
 * on a failure.
 *
 *   make soak SOAK_MODE=crash                 # 600 s
 *   SOAK_SECONDS=120 make soak SOAK_MODE=crash
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "tests/daemon/tclient.h"

#ifndef GOMOKUD_BIN
#define GOMOKUD_BIN "bin/gomokud"
#endif

/* STEP_US between steps keeps each connection under the server's 10 lines
 * a second. */
enum { PAIRS = 6, REPLY_MS = 4000, MAXPLY = 9, STEP_US = 25000 };

enum plan { BY_FIVE, BY_RESIGN, BY_DRAW };

struct player {
	struct tc *c;
	char name[16], token[80];
	int wins, losses, draws; /* ends this client was told of */
};

struct pair {
	struct player p[2]; /* [0] creates and plays black, [1] joins */
	char room[24];
	int playing;
	int nacked; /* moves the server acknowledged in this game */
	char acked[MAXPLY][4];
	enum plan plan;
	int at; /* the ply at which a resignation or draw comes */
};

/* Black's five along row 8; white's moves out of its way. */
static const char *const black_moves[] = { "h8", "i8", "j8", "k8", "l8" };
static const char *const white_moves[] = { "a1", "a3", "a5", "a7", "a9" };

static struct daemon d;
static char state[128];
static struct pair pairs[PAIRS];
static long crashes, games_started, ends_told, ends_unseen, moves_acked, resumes, failures;
static long refusals; /* ERR replies: none are expected */

static void
fail(const char *fmt, const char *a, const char *b)
{
	printf("FAIL: ");
	printf(fmt, a, b);
	printf("\n");
	fflush(stdout);
	failures++;
}

static int
start(void)
{
	char conf[256];
	snprintf(
	    conf, sizeof conf, "state-dir %s\ngrace 3600\nbot-threads 1\nbot-hash-mb 1", state);
	return daemon_start(&d, GOMOKUD_BIN, conf);
}

/* Every connection goes with the daemon. */
static void
hang_up_all(void)
{
	for (int i = 0; i < PAIRS; i++)
		for (int j = 0; j < 2; j++) {
			tc_close(pairs[i].p[j].c);
			pairs[i].p[j].c = NULL;
		}
}

static void
crash_and_restart(void)
{
	daemon_stop(&d, SIGKILL, 5000);
	crashes++;
	hang_up_all();
	if (start() != 0) {
		fail("restart %s failed (log %s)", "", d.log);
		exit(1);
	}
}

/* A reply starting with prefix, or NULL (the daemon went away, or an error:
 * the line is in c->line). */
static const char *
reply(struct tc *c, const char *prefix)
{
	const char *l;
	while ((l = tc_read(c, REPLY_MS)) != NULL) {
		if (strncmp(l, prefix, strlen(prefix)) == 0)
			return l;
		if (strncmp(l, "ERR", 3) == 0) {
			if (refusals++ < 10)
				printf("note: %s: %s\n", c->name, l);
			return NULL;
		}
	}
	return NULL;
}

static void
disconnect(struct pair *g)
{
	for (int j = 0; j < 2; j++) {
		tc_close(g->p[j].c);
		g->p[j].c = NULL;
	}
}

/* The game ended: black won (1), white (0) or a draw (-1), as told. */
static void
told_end(struct pair *g, int black_won)
{
	struct player *b = &g->p[0], *w = &g->p[1];
	if (black_won > 0) {
		b->wins++;
		w->losses++;
	} else if (black_won == 0) {
		w->wins++;
		b->losses++;
	} else {
		b->draws++;
		w->draws++;
	}
	ends_told++;
	g->playing = 0;
}

/* The snapshot after RESUME: every acknowledged move there, in order; a
 * move stored but not acknowledged (the daemon died before it said so) is
 * taken as played. */
static void
check_snapshot(struct pair *g, struct tc *c)
{
	char room[24], status[16], moves[512] = "", want[512] = "", result[16] = "";
	const char *l;
	int idx;
	while ((l = tc_read(c, REPLY_MS)) != NULL && strncmp(l, "OK RESUME", 9) != 0) {
		if (strncmp(l, "= ROOM ", 7) == 0)
			sscanf(l, "= ROOM %23s %15s", room, status);
		else if (strncmp(l, "= MOVES ", 8) == 0)
			sscanf(l, "= MOVES %23s %d %511s", room, &idx, moves);
		else if (strncmp(l, "= RESULT ", 9) == 0)
			sscanf(l, "= RESULT %23s %15s", room, result);
	}
	if (!l)
		return;
	if (strcmp(moves, "-") == 0)
		moves[0] = '\0';
	for (int i = 0; i < g->nacked; i++) {
		size_t n = strlen(want);
		snprintf(want + n, sizeof want - n, "%s%s", i ? "," : "", g->acked[i]);
	}
	if (strncmp(moves, want, strlen(want)) != 0 ||
	    (moves[strlen(want)] != '\0' && moves[strlen(want)] != ',')) {
		fail("acknowledged moves lost: the snapshot has '%s', acknowledged '%s'", moves,
		    want);
		g->playing = 0;
		return;
	}
	/* one more stone than acknowledged: stored, then the daemon died */
	int n = 0;
	for (const char *p = moves; *p; p++)
		n += *p == ',';
	n += moves[0] != '\0';
	if (n > g->nacked) {
		const char *last = strrchr(moves, ',');
		snprintf(g->acked[g->nacked++], 4, "%s", last ? last + 1 : moves);
	}
	if (result[0])
		told_end(g,
		    strcmp(result, "black") == 0       ? 1
			: strcmp(result, "white") == 0 ? 0
						       : -1);
}

/* Connects both players: back into their game when they have one, else
 * logged in afresh. -1 when the daemon is not there. */
static int
connect_pair(struct pair *g)
{
	for (int j = 0; j < 2; j++) {
		struct player *p = &g->p[j];
		if (p->c)
			continue;
		if (!(p->c = tc_open(d.port, 1)))
			return -1;
		snprintf(p->c->name, sizeof p->c->name, "%s", p->name);
		if (g->playing) {
			tc_send(p->c, "RESUME %s %s 0", p->token, g->room);
			const char *l = tc_read(p->c, REPLY_MS);
			while (l && strncmp(l, "= ", 2) != 0 && strncmp(l, "ERR", 3) != 0)
				l = tc_read(p->c, REPLY_MS);
			if (l && strncmp(l, "= ", 2) == 0) { /* the snapshot, = ROOM read */
				resumes++;
				check_snapshot(g, p->c);
				continue;
			}
			if (!l)
				return -1;
			/* not resumable: its end was stored but not told */
			ends_unseen++;
			g->playing = 0;
		}
		tc_send(p->c, "LOGIN %s %s-pass", p->name, p->name);
		const char *ok = reply(p->c, "OK LOGIN");
		if (!ok)
			return -1;
		sscanf(ok, "OK LOGIN %*s %79s", p->token);
	}
	return 0;
}

static void
new_game(struct pair *g)
{
	char code[64];
	struct tc *a = g->p[0].c, *b = g->p[1].c;
	tc_send(a, "CREATE freestyle 15 none black rated none");
	const char *l = reply(a, "OK CREATE");
	if (!l || sscanf(l, "OK CREATE %23s %63s", g->room, code) != 2) {
		disconnect(g);
		return;
	}
	tc_send(b, "JOIN %s", code);
	if (!reply(b, "OK JOIN") || !reply(a, "* START")) {
		/* started or not: a game the creator may not know of waits out its grace */
		disconnect(g);
		return;
	}
	g->playing = 1;
	g->nacked = 0;
	g->plan = (enum plan)(rand() % 3);
	g->at = 1 + rand() % 8;
	games_started++;
}

/* One request of the game's next step, and its reply. */
static void
step(struct pair *g)
{
	if (connect_pair(g) != 0) {
		disconnect(g);
		return;
	}
	if (!g->playing) {
		new_game(g);
		return;
	}
	int ply = g->nacked, mover = ply % 2;
	struct tc *c = g->p[mover].c, *o = g->p[1 - mover].c;
	if (g->plan == BY_RESIGN && ply == g->at) {
		tc_send(c, "RESIGN %s", g->room);
		if (reply(c, "OK RESIGN"))
			told_end(g, mover == 1);
		else
			disconnect(g);
		return;
	}
	if (g->plan == BY_DRAW && ply == g->at) {
		char id[24];
		tc_send(c, "OFFER %s draw", g->room);
		const char *l = reply(c, "OK OFFER");
		if (!l || sscanf(l, "OK OFFER %*s %23s", id) != 1) {
			disconnect(g);
			return;
		}
		tc_send(o, "ACCEPT %s %s", g->room, id);
		if (reply(o, "OK ACCEPT"))
			told_end(g, -1);
		else
			disconnect(g);
		return;
	}
	const char *mv = mover ? white_moves[ply / 2] : black_moves[ply / 2];
	tc_send(c, "MOVE %s %s", g->room, mv);
	if (!reply(c, "OK MOVE")) {
		disconnect(g);
		return;
	}
	snprintf(g->acked[g->nacked++], 4, "%s", mv);
	moves_acked++;
	if (g->nacked == MAXPLY) { /* black's fifth stone on row 8 */
		if (reply(o, "* OVER"))
			told_end(g, 1);
		else
			disconnect(g);
	}
}

static long
count(sqlite3 *db, const char *sql, const char *key)
{
	sqlite3_stmt *q;
	long n = -1;
	if (sqlite3_prepare_v2(db, sql, -1, &q, NULL) != SQLITE_OK)
		return -1;
	if (key)
		sqlite3_bind_text(q, 1, key, -1, SQLITE_TRANSIENT);
	if (sqlite3_step(q) == SQLITE_ROW)
		n = sqlite3_column_int64(q, 0);
	sqlite3_finalize(q);
	return n;
}

/* The archive against itself and against what the clients were told. */
static void
audit(void)
{
	char path[200], what[160];
	sqlite3 *db;
	snprintf(path, sizeof path, "%s/gomokud.db", state);
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
		fail("cannot open %s%s", path, "");
		return;
	}
	static const char *const finished =
	    " FROM games WHERE ended IS NOT NULL AND rated = 1 AND rule = 0 AND reason != 7"
	    " AND result IN (0, 1, 2)";
	char q[512];
	long rows_total = 0, told_total = 0;
	for (int i = 0; i < PAIRS; i++)
		for (int j = 0; j < 2; j++) {
			struct player *p = &pairs[i].p[j];
			long rw, rl, rd, gw, gl, gd;
			rw = count(db, "SELECT wins FROM ratings WHERE name_key = ?1 AND rule = 0",
			    p->name);
			rl = count(db,
			    "SELECT losses FROM ratings WHERE name_key = ?1 AND rule = 0", p->name);
			rd = count(db, "SELECT draws FROM ratings WHERE name_key = ?1 AND rule = 0",
			    p->name);
			snprintf(q, sizeof q,
			    "SELECT count(*)%s AND ((black_key = ?1 AND result = 0) OR"
			    " (white_key = ?1 AND result = 1))",
			    finished);
			gw = count(db, q, p->name);
			snprintf(q, sizeof q,
			    "SELECT count(*)%s AND ((black_key = ?1 AND result = 1) OR"
			    " (white_key = ?1 AND result = 0))",
			    finished);
			gl = count(db, q, p->name);
			snprintf(q, sizeof q,
			    "SELECT count(*)%s AND result = 2 AND (black_key = ?1 OR white_key = "
			    "?1)",
			    finished);
			gd = count(db, q, p->name);
			if (rw < 0)
				rw = rl = rd = 0; /* never finished a rated game */
			snprintf(what, sizeof what, "%ld-%ld-%ld counted, %ld-%ld-%ld archived", rw,
			    rl, rd, gw, gl, gd);
			if (rw != gw || rl != gl || rd != gd)
				fail("%s: %s", p->name, what);
			/* what this client was told is in the archive, and at most
			 * the ends it was not told of come on top */
			if (p->wins > gw || p->losses > gl || p->draws > gd)
				fail("%s: told more than the archive holds (%s)", p->name, what);
			rows_total += gw + gl + gd;
			told_total += p->wins + p->losses + p->draws;
		}
	long dup = count(db,
	    "SELECT count(*) FROM (SELECT 1 FROM games GROUP BY room, started, black, white,"
	    " (SELECT group_concat(move) FROM moves WHERE game_id = games.id)"
	    " HAVING count(*) > 1)",
	    NULL);
	if (dup != 0)
		fail("%s games listed twice%s", dup < 0 ? "?" : "some", "");
	long finished_rows = count(db, "SELECT count(*) FROM games WHERE ended IS NOT NULL", NULL);
	long open_rows = count(db, "SELECT count(*) FROM games WHERE ended IS NULL", NULL);
	sqlite3_close(db);
	/* each game counted twice above (once per player) */
	rows_total /= 2;
	told_total /= 2;
	if (rows_total - told_total > ends_unseen + crashes)
		fail(
		    "%s%s: the archive holds more ends than the clients could have missed", "", "");
	printf("crash soak: %ld crashes, %ld games started, %ld moves acknowledged, %ld resumes, "
	       "%ld requests refused\n",
	    crashes, games_started, moves_acked, resumes, refusals);
	printf(
	    "crash soak: %ld rated ends archived (%ld finished rows, %ld left open), %ld told to "
	    "the clients, %ld ended while the daemon was down to them\n",
	    rows_total, finished_rows, open_rows, told_total, ends_unseen);
}

int
main(void)
{
	int secs = getenv("SOAK_SECONDS") ? atoi(getenv("SOAK_SECONDS")) : 600;
	signal(SIGPIPE, SIG_IGN);
	srand((unsigned)time(NULL));
	snprintf(state, sizeof state, "/tmp/gomokud-crash-soak.XXXXXX");
	if (!mkdtemp(state) || start() != 0) {
		printf("FAIL: cannot start %s\n", GOMOKUD_BIN);
		return 1;
	}
	for (int i = 0; i < PAIRS; i++)
		for (int j = 0; j < 2; j++) {
			struct player *p = &pairs[i].p[j];
			snprintf(p->name, sizeof p->name, "p%d%c", i, j ? 'w' : 'b');
			struct tc *c = tc_open(d.port, 1);
			if (!c) {
				printf("FAIL: cannot connect\n");
				return 1;
			}
			tc_send(c, "REGISTER %s %s-pass", p->name, p->name);
			if (!reply(c, "OK REGISTER")) {
				printf("FAIL: REGISTER %s: %s\n", p->name, c->line);
				return 1;
			}
			tc_close(c);
		}
	long long end = tc_now_ms() + secs * 1000LL;
	long long next_crash = tc_now_ms() + 2000 + rand() % 8000;
	for (int i = 0; tc_now_ms() < end; i = (i + 1) % PAIRS) {
		if (tc_now_ms() >= next_crash) {
			crash_and_restart();
			next_crash = tc_now_ms() + 2000 + rand() % 8000;
		}
		step(&pairs[i]);
		usleep(STEP_US);
	}
	hang_up_all();
	if (daemon_stop(&d, SIGTERM, 10000) != 0)
		fail("the daemon did not exit cleanly on SIGTERM%s%s", "", "");
	audit();
	if (failures) {
		printf("crash soak: FAILED (state kept in %s)\n", state);
		return 1;
	}
	char cmd[200];
	snprintf(cmd, sizeof cmd, "rm -rf %s", state);
	printf("crash soak: clean%s\n", system(cmd) == 0 ? "" : " (state not removed)");
	return 0;
}
