/*
 * test_tourney_attack: the tournaments' requests (PROTOCOL.md section
 * 5.21) under attack, on the real bin/gomokud over loopback. It runs in
 * the ASan+UBSan pass of CI only (.ci/run's ATTACKS), where a memory error
 * an attack provokes shows. The daemon's memory is read as its resident
 * size (VmRSS); ASan's quarantine of freed blocks is held to a few MiB for
 * the daemon (ASAN_OPTIONS), or it would count as growth.
 *
 * - TWATCH of 4,000 ids that do not exist, from four connections at once
 *   (the line rate limit set high, so each reaches the store): every one
 *   answered 457, the daemon's RSS grown by less than RSS_BOUND.
 * - TWATCH of 200 events over long ago (1,500 players each, made in the
 *   store), all followed by one connection, each read back from the
 *   store: every one answered with its standings; once the first 80 are
 *   in, the RSS grows by less than OLD_BOUND over the rest, and renamed
 *   in the store, at most OLD_HELD of them come back with their old name
 *   (held in the daemon's memory; it keeps 32).
 *   Meanwhile another client's TLIST and a MOVE in its game are answered
 *   within PROMPT_MS.
 * - a follower that never reads, on an arena whose player list changes
 *   all the time (guests joining and leaving it, bots playing in it, the
 *   output cap at 64 KiB): it is cut off (the daemon logs the slow
 *   reader, and closes it), and only it; a second follower that reads
 *   keeps getting * TPLAYER and * TGAME lines after the cut.
 * - TJOIN/TLEAVE churn of one guest in an arena, before its start and
 *   running (the default rate limit): refused 407 past its burst, and the
 *   player list holds the guest once (TWATCH: one = TPLAYER, the event's
 *   count of players 1).
 * - TCREATE floods by one account: two made (tourney-per-account), the
 *   rest 453 or 407, and the store holds two events of that account.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "tests/daemon/check.h"
#include "tests/daemon/tclient.h"

#ifndef GOMOKUD_BIN
#define GOMOKUD_BIN "bin/gomokud"
#endif

enum {
	PROMPT_MS = 4000,     /* another client's answer while the flood lasts */
	RSS_BOUND = 64 << 10, /* KiB: the most the daemon's RSS may grow by an attack */
	OLD_BOUND = 12 << 10, /* KiB: by old events once the first OLD_WARM are in */
	OLD_HELD = 64,        /* old events the daemon may hold (it keeps 32: OLD_KEPT) */
	UNKNOWN_CONNS = 4,    /* attackers of ids that do not exist */
	UNKNOWN_EACH = 1000,  /* their TWATCH lines each */
	UNKNOWN_CHUNK = 200,  /* lines a write */
	OLD_EVENTS = 200,     /* events over long ago */
	OLD_WARM = 80,        /* the first of them, before the growth is measured */
	OLD_PLAYERS = 1500,   /* players each */
	OLD_CHUNK = 1,        /* TWATCH lines a write (a snapshot ~100 KiB; the cap 256) */
	CHURN_LINES = 60,     /* TJOIN/TLEAVE lines in one write */
	CREATE_LINES = 60,    /* TCREATE lines in one write */
	RATE_BURST = 20,      /* the daemon's defaults (daemon/config.c) */
	RATE_PER_S = 10,
	SLOW_MS = 40000, /* the longest the slow follower may last */
};

/* The daemon's resident size in KiB, or -1. */
static long
rss_kib(pid_t pid)
{
	char path[64], l[256];
	snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
	FILE *f = fopen(path, "r");
	long v = -1;
	while (f && fgets(l, sizeof l, f))
		if (sscanf(l, "VmRSS: %ld", &v) == 1)
			break;
	if (f)
		fclose(f);
	return v;
}

/* TCREATE ...: the new event's id, or -1 (out says why). */
static long
create(struct tc *c, const char *args, char *out, size_t n)
{
	char line[256];
	long id = -1;
	snprintf(line, sizeof line, "TCREATE %s", args);
	tc_ask(c, line, out, n, LINE_MS);
	if (sscanf(out, "OK TCREATE %ld", &id) != 1)
		return -1;
	return id;
}

/* Reads c until n answers (OK or ERR lines) came, each within ms: how
 * many; those starting with ok_prefix into *oks, ERR 457 into *e457, ERR
 * 407 into *e407, ERR 453 into *e453 (each may be NULL); other lines
 * are passed over. */
static int
answers(
    struct tc *c, int n, int ms, const char *ok_prefix, int *oks, int *e457, int *e407, int *e453)
{
	int got = 0;
	const char *l;
	while (got < n && (l = tc_read(c, ms))) {
		if (!strncmp(l, "OK ", 3)) {
			got++;
			if (oks && !strncmp(l, ok_prefix, strlen(ok_prefix)))
				++*oks;
		} else if (!strncmp(l, "ERR ", 4)) {
			got++;
			if (e457 && !strncmp(l, "ERR 457 ", 8))
				++*e457;
			if (e407 && !strncmp(l, "ERR 407 ", 8))
				++*e407;
			if (e453 && !strncmp(l, "ERR 453 ", 8))
				++*e453;
		}
	}
	return got;
}

/* Whatever c has for us now, read and dropped: the lines that start with
 * prefix counted into *n (may be NULL). */
static void
drain(struct tc *c, int ms, const char *prefix, int *n)
{
	const char *l;
	while ((l = tc_read(c, ms)))
		if (n && prefix && !strncmp(l, prefix, strlen(prefix)))
			++*n;
}

/* --- the other client's game and TLIST, asked while a flood lasts --- */

static struct tc *probe_b, *probe_w, *probe_l;
static char probe_room[24];
static int probe_moves;
static long long probe_worst;

/* Move k of the game (k even black's): black on rows 1 and 4, white on 8
 * and 11, every other column: nobody gets five. */
static void
probe_point(int k, char *out, size_t n)
{
	int side = k % 2, j = k / 2;
	int row = side == 0 ? (j < 8 ? 1 : 4) : (j < 8 ? 8 : 11);
	snprintf(out, n, "%c%d", 'a' + 2 * (j % 8), row);
}

/* One TLIST and one MOVE, each answered within PROMPT_MS. */
static void
probe(const char *during)
{
	char line[64], out[256];
	long long t0 = tc_now_ms();
	tc_ask(probe_l, "TLIST", out, sizeof out, PROMPT_MS);
	long long dt = tc_now_ms() - t0;
	CHECK(!strncmp(out, "OK TLIST ", 9) && dt <= PROMPT_MS, "%s: TLIST %s after %lld ms",
	    during, out, dt);
	if (dt > probe_worst)
		probe_worst = dt;
	if (probe_moves >= 30)
		return;
	struct tc *mover = probe_moves % 2 ? probe_w : probe_b;
	char point[8];
	probe_point(probe_moves, point, sizeof point);
	snprintf(line, sizeof line, "MOVE %s %s", probe_room, point);
	t0 = tc_now_ms();
	tc_send(mover, "%s", line);
	const char *a = tc_move_answer(mover, PROMPT_MS);
	dt = tc_now_ms() - t0;
	CHECK(a && !strncmp(a, "OK MOVE", 7) && dt <= PROMPT_MS, "%s: %s: %s after %lld ms", during,
	    line, a ? a : "nothing", dt);
	if (dt > probe_worst)
		probe_worst = dt;
	probe_moves++;
}

/* --- the store's events over long ago --- */

/* The daemon of state, stopped: OLD_EVENTS copies of event src, over 9
 * days ago, each with OLD_PLAYERS players. Their ids into ids. */
static int
age_events(const char *state, long src, long *ids)
{
	sqlite3 *db;
	char path[200], sql[512];
	snprintf(path, sizeof path, "%s/gomokud.db", state);
	if (sqlite3_open(path, &db) != SQLITE_OK)
		return -1;
	long long now = (long long)time(NULL);
	int rc = sqlite3_exec(db, "BEGIN", NULL, NULL, NULL);
	sqlite3_stmt *ins = NULL;
	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(db,
		    "INSERT INTO tourney_players (tourney_id, name, name_key, seq, rating) "
		    "VALUES (?, ?, ?, ?, ?)",
		    -1, &ins, NULL);
	for (int i = 0; rc == SQLITE_OK && i < OLD_EVENTS; i++) {
		/* a finished Swiss, as the store keeps it: state 2 is over */
		snprintf(sql, sizeof sql,
		    "INSERT INTO tourneys (kind, state, entrants, rule, size, opening, rated, "
		    "tc_base, tc_inc, starts, length, round, creator, name, owner, created, ended) "
		    "SELECT kind, 2, entrants, rule, size, opening, rated, tc_base, tc_inc, "
		    "%lld, length, length, creator, 'Old %d', owner, %lld, %lld FROM tourneys "
		    "WHERE id = %ld",
		    now - 10 * 86400, i, now - 11 * 86400, now - 9 * 86400, src);
		rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
		if (rc != SQLITE_OK || sqlite3_changes(db) != 1) {
			rc = SQLITE_ERROR;
			break;
		}
		ids[i] = (long)sqlite3_last_insert_rowid(db);
		for (int p = 0; rc == SQLITE_OK && p < OLD_PLAYERS; p++) {
			char name[16];
			snprintf(name, sizeof name, "op%04d", p);
			sqlite3_reset(ins);
			sqlite3_bind_int64(ins, 1, ids[i]);
			sqlite3_bind_text(ins, 2, name, -1, SQLITE_TRANSIENT);
			sqlite3_bind_text(ins, 3, name, -1, SQLITE_TRANSIENT);
			sqlite3_bind_int(ins, 4, p + 1);
			sqlite3_bind_int(ins, 5, 1000 + p);
			rc = sqlite3_step(ins) == SQLITE_DONE ? SQLITE_OK : SQLITE_ERROR;
		}
	}
	sqlite3_finalize(ins);
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
	if (rc != SQLITE_OK)
		printf("# aging the events: %s\n", sqlite3_errmsg(db));
	sqlite3_close(db);
	return rc == SQLITE_OK ? 0 : -1;
}

/* Each of the OLD_EVENTS events ids renamed in the store of state (the
 * daemon running). */
static int
rename_events(const char *state, const long *ids)
{
	sqlite3 *db;
	char path[200], sql[128];
	snprintf(path, sizeof path, "%s/gomokud.db", state);
	if (sqlite3_open(path, &db) != SQLITE_OK)
		return -1;
	sqlite3_busy_timeout(db, 5000);
	int rc = sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
	for (int i = 0; rc == SQLITE_OK && i < OLD_EVENTS; i++) {
		snprintf(sql, sizeof sql, "UPDATE tourneys SET name = 'Renamed %d' WHERE id = %ld",
		    i, ids[i]);
		rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
	}
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
	if (rc != SQLITE_OK)
		printf("# renaming the events: %s\n", sqlite3_errmsg(db));
	sqlite3_close(db);
	return rc == SQLITE_OK ? 0 : -1;
}

static void
test_watch_flood(void)
{
	static char state[] = "/tmp/gomokud-tattack.XXXXXX";
	REQUIRE(tc_mkdtemp(state), "state dir");
	char conf[300], out[256];
	snprintf(conf, sizeof conf,
	    "state-dir %s\nrate-per-second 100000\nrate-burst 100000\nmax-per-address 100\n"
	    "admins boss\n",
	    state);
	static struct daemon d1, d2;
	REQUIRE(daemon_start(&d1, GOMOKUD_BIN, conf) == 0, "gomokud did not start");
	struct tc *root = tc_account(d1.port, "boss", "s3cret-pass");
	REQUIRE(root, "root");
	long src = create(
	    root, "swiss freestyle 15 300+0 none casual people 600 3 Source", out, sizeof out);
	REQUIRE(src > 0, "TCREATE: %s", out);
	tc_close(root);
	REQUIRE(daemon_stop(&d1, SIGTERM, 5000) >= 0, "gomokud did not stop");
	static long old[OLD_EVENTS];
	REQUIRE(age_events(state, src, old) == 0, "the old events not stored");

	REQUIRE(daemon_start(&d2, GOMOKUD_BIN, conf) == 0, "gomokud did not start again");
	REQUIRE(tc_pair_guests(d2.port, "probeb", "probew", "freestyle 15 none", &probe_b, &probe_w,
		    probe_room, sizeof probe_room) == 0,
	    "%s", tc_why);
	REQUIRE((probe_l = tc_guest(d2.port, "lister")), "lister");
	probe("before");
	usleep(300 * 1000);
	long base = rss_kib(d2.pid);

	/* ids nobody made */
	struct tc *a[UNKNOWN_CONNS];
	for (int i = 0; i < UNKNOWN_CONNS; i++) {
		char name[16];
		snprintf(name, sizeof name, "nosy%d", i);
		REQUIRE((a[i] = tc_guest(d2.port, name)), "%s", name);
	}
	static char buf[UNKNOWN_CHUNK * 32];
	int answered = 0, e457 = 0;
	long peak = base;
	long long t0 = tc_now_ms();
	for (int k = 0; k < UNKNOWN_EACH; k += UNKNOWN_CHUNK) {
		for (int i = 0; i < UNKNOWN_CONNS; i++) {
			size_t len = 0;
			for (int j = 0; j < UNKNOWN_CHUNK; j++)
				len += (size_t)snprintf(buf + len, sizeof buf - len, "TWATCH %d\n",
				    900000 + i * UNKNOWN_EACH + k + j);
			tc_send_raw(a[i], buf, len);
		}
		probe("TWATCH of unknown ids");
		for (int i = 0; i < UNKNOWN_CONNS; i++)
			answered += answers(
			    a[i], UNKNOWN_CHUNK, LINE_MS * 3, "", NULL, &e457, NULL, NULL);
		long r = rss_kib(d2.pid);
		if (r > peak)
			peak = r;
	}
	long long took = tc_now_ms() - t0;
	CHECK(answered == UNKNOWN_CONNS * UNKNOWN_EACH && e457 == answered,
	    "TWATCH of unknown ids: %d answered, %d of them 457, of %d", answered, e457,
	    UNKNOWN_CONNS * UNKNOWN_EACH);
	usleep(300 * 1000);
	long after = rss_kib(d2.pid);
	if (after > peak)
		peak = after;
	printf("  unknown ids: %d TWATCH in %lld ms; RSS %ld KiB before, %ld at most (%+ld)\n",
	    answered, took, base, peak, peak - base);
	CHECK(base > 0 && peak - base < RSS_BOUND, "TWATCH of unknown ids: RSS grew by %ld KiB",
	    peak - base);
	for (int i = 0; i < UNKNOWN_CONNS; i++)
		tc_close(a[i]);
	ok("TWATCH of 4,000 ids that do not exist: each answered 457, the daemon's memory "
	   "bounded, another client answered meanwhile");

	/* events over long ago, every one followed by one connection. The
	 * growth is measured from the first OLD_WARM on: by then the
	 * allocator has its blocks of each size, and the events the daemon
	 * keeps (OLD_KEPT) are in; past them it should hold what it held */
	usleep(300 * 1000);
	long first = rss_kib(d2.pid);
	struct tc *fan = tc_guest(d2.port, "oldfan");
	REQUIRE(fan, "oldfan");
	int watched = 0, standings = 0, full = 0;
	t0 = tc_now_ms();
	for (int k = 0; k < OLD_EVENTS; k += OLD_CHUNK) {
		if (k == OLD_WARM) {
			usleep(300 * 1000);
			base = peak = rss_kib(d2.pid);
		}
		size_t len = 0;
		for (int j = k; j < k + OLD_CHUNK && j < OLD_EVENTS; j++)
			len += (size_t)snprintf(
			    buf + len, sizeof buf - len, "TWATCH %ld\n", old[j]);
		tc_send_raw(fan, buf, len);
		probe("TWATCH of old events");
		const char *l;
		int got = 0;
		while (got < OLD_CHUNK && (l = tc_read(fan, LINE_MS * 3))) {
			if (!strncmp(l, "= TPLAYER ", 10)) {
				standings++;
			} else if (!strncmp(l, "OK TWATCH ", 10)) {
				got++;
				watched++;
				full += standings == OLD_PLAYERS;
				standings = 0;
			} else if (!strncmp(l, "ERR ", 4)) {
				got++;
				printf("# %s\n", l);
			}
		}
		long r = rss_kib(d2.pid);
		if (k >= OLD_WARM && r > peak)
			peak = r;
	}
	took = tc_now_ms() - t0;
	CHECK(watched == OLD_EVENTS && full == OLD_EVENTS,
	    "old events: %d watched, %d with their %d standings, of %d", watched, full, OLD_PLAYERS,
	    OLD_EVENTS);
	usleep(300 * 1000);
	after = rss_kib(d2.pid);
	if (after > peak)
		peak = after;
	printf("  old events: %d watched (%d players each) in %lld ms; RSS %ld KiB before, %ld "
	       "after the first %d (%+ld), %ld at most after (%+ld)\n",
	    watched, OLD_PLAYERS, took, first, base, OLD_WARM, base - first, peak, peak - base);
	CHECK(first > 0 && base - first < RSS_BOUND, "the first %d old events: RSS grew by %ld KiB",
	    OLD_WARM, base - first);
	CHECK(base > 0 && peak - base < OLD_BOUND,
	    "%d more old events all followed: RSS grew by %ld KiB (every one kept?)",
	    OLD_EVENTS - OLD_WARM, peak - base);

	/* what the daemon holds of them: each renamed in the store, then
	 * watched again; one it holds still has its old name */
	REQUIRE(rename_events(state, old) == 0, "the old events not renamed");
	int held = 0, again = 0;
	for (int k = OLD_EVENTS - 1; k >= 0; k--) { /* the last held first */
		tc_send(fan, "TWATCH %ld", old[k]);
		const char *l;
		char name[32];
		snprintf(name, sizeof name, " Old %d", k);
		while ((l = tc_read(fan, LINE_MS * 3)) && strncmp(l, "OK TWATCH", 9) != 0 &&
		    strncmp(l, "ERR", 3) != 0)
			if (!strncmp(l, "= TOURNEY ", 10)) {
				size_t n = strlen(l), m = strlen(name);
				held += n > m && !strcmp(l + n - m, name);
			}
		again += l && !strncmp(l, "OK TWATCH", 9);
	}
	printf("  old events watched again: %d answered, %d of them from memory\n", again, held);
	CHECK(again == OLD_EVENTS && held <= OLD_HELD,
	    "old events watched again: %d answered, %d held in memory (at most %d)", again, held,
	    OLD_HELD);
	printf("  the other client's worst answer: %lld ms\n", probe_worst);
	tc_close(fan);
	tc_close(probe_b);
	tc_close(probe_w);
	tc_close(probe_l);
	CHECK(daemon_alive(&d2), "gomokud died");
	daemon_stop(&d2, SIGTERM, 5000);
	ok("TWATCH of 200 events over long ago, all followed by one connection: each answered "
	   "with its standings, the daemon's memory bounded, another client answered meanwhile");
}

/* --- a follower that never reads --- */

/* A long name (each * TOURNEY line carries it): more bytes a change */
#define BUSY_NAME                                                                     \
	"The busy arena where guests come and go all the time and the bots play on, " \
	"round after round"

static void
test_slow_follower(void)
{
	static struct daemon d;
	REQUIRE(daemon_start(&d, GOMOKUD_BIN,
		    "rate-per-second 100000\nrate-burst 100000\nmax-per-address 100\n"
		    "output-queue-kib 64\nbot-threads 2\nbot-think-ms 10\nadmins boss\n") == 0,
	    "gomokud did not start");
	char out[256], line[64];
	struct tc *root = tc_account(d.port, "boss", "s3cret-pass");
	REQUIRE(root, "root");
	long id = create(
	    root, "arena freestyle 15 20+0 none casual both 25 2 " BUSY_NAME, out, sizeof out);
	REQUIRE(id > 0, "TCREATE: %s", out);
	for (int level = 1; level <= 6; level++) {
		snprintf(line, sizeof line, "TBOT %ld %d", id, level);
		tc_ask(root, line, out, sizeof out, LINE_MS);
		CHECK(!strncmp(out, "OK TBOT ", 8), "TBOT %d: %s", level, out);
	}
	struct tc *slow = tc_open(d.port, -2), *reader = tc_guest(d.port, "reader");
	REQUIRE(slow && reader, "followers");
	snprintf(line, sizeof line, "TWATCH %ld", id);
	tc_ask(slow, "GUEST sleepy", out, sizeof out, LINE_MS);
	REQUIRE(!strncmp(out, "OK GUEST", 8), "GUEST: %s", out);
	tc_ask(slow, line, out, sizeof out, LINE_MS);
	REQUIRE(!strncmp(out, "OK TWATCH", 9), "TWATCH: %s", out);
	tc_ask(reader, line, out, sizeof out, LINE_MS);
	REQUIRE(!strncmp(out, "OK TWATCH", 9), "TWATCH: %s", out);

	/* guests join and leave before the start, each a pair of lines at a
	 * time, everyone but the slow follower read between them */
	enum { CHURNERS = 12 };
	struct tc *ch[CHURNERS];
	for (int i = 0; i < CHURNERS; i++) {
		char name[16];
		snprintf(name, sizeof name, "churn%d", i);
		REQUIRE((ch[i] = tc_guest(d.port, name)), "%s", name);
	}
	char pair[64];
	snprintf(pair, sizeof pair, "TJOIN %ld\nTLEAVE %ld\n", id, id);
	int cut0 = daemon_log_count(&d, "slow reader"), cut = 0, rounds = 0, joins = 0;
	long long t0 = tc_now_ms();
	char want[48];
	snprintf(want, sizeof want, "* TOURNEY %ld arena running ", id);
	int running = 0;
	while (!cut && tc_now_ms() - t0 < SLOW_MS) {
		/* (on a slow machine past the start too: then the churners
		 * are paired as well, and their games go on as they may) */
		for (int i = 0; i < CHURNERS; i++)
			tc_send_raw(ch[i], pair, strlen(pair));
		for (int i = 0; i < CHURNERS; i++)
			answers(ch[i], 2, LINE_MS, "OK TJOIN", &joins, NULL, NULL, NULL);
		const char *l;
		while ((l = tc_read(reader, 1)))
			running |= !strncmp(l, want, strlen(want));
		for (int i = 0; i < CHURNERS; i++)
			drain(ch[i], 1, NULL, NULL);
		cut = daemon_log_count(&d, "slow reader") > cut0;
		rounds++;
	}
	printf("  %d joins and as many leaves in %d rounds; the slow follower cut after %lld "
	       "ms (%s)\n",
	    joins, rounds, tc_now_ms() - t0, running ? "the arena running" : "before the start");
	CHECK(cut, "the follower that never reads was not cut in %d ms (log %s)", SLOW_MS, d.log);
	CHECK(tc_closed(slow, 5000), "the slow follower's connection still open");
	/* the reader goes on: the arena's bots play, their lines come */
	int tplayers = 0, tgames = 0;
	long long end = tc_now_ms() + 30000; /* the start, 25 s after it was made, and a game */
	while (tc_now_ms() < end && (tplayers == 0 || tgames == 0)) {
		const char *l = tc_read(reader, 500);
		if (!l)
			continue;
		char p[48];
		snprintf(p, sizeof p, "* TPLAYER %ld ", id);
		tplayers += !strncmp(l, p, strlen(p));
		snprintf(p, sizeof p, "* TGAME %ld ", id);
		tgames += !strncmp(l, p, strlen(p));
	}
	CHECK(tplayers > 0 && tgames > 0,
	    "after the cut the reading follower got %d * TPLAYER and %d * TGAME lines", tplayers,
	    tgames);
	CHECK(daemon_log_count(&d, "slow reader") == cut0 + 1,
	    "%d connections cut as slow readers, not only the one that never reads",
	    daemon_log_count(&d, "slow reader") - cut0);
	for (int i = 0; i < CHURNERS; i++)
		tc_close(ch[i]);
	tc_close(slow);
	tc_close(reader);
	tc_close(root);
	CHECK(daemon_alive(&d), "gomokud died");
	daemon_stop(&d, SIGTERM, 5000);
	ok("a follower that never reads on a busy arena: cut off as a slow reader, and only it; "
	   "the follower that reads keeps getting * TPLAYER and * TGAME");
}

/* --- churn and floods at the default rate limit --- */

/* TWATCH id on c: the = TPLAYER lines naming name into *mine, all of them
 * into *all; the = TOURNEY line's count of players, or -1. */
static int
players_of(struct tc *c, long id, const char *name, int *mine, int *all)
{
	const char *l;
	int count = -1;
	*mine = *all = 0;
	tc_send(c, "TWATCH %ld", id);
	while ((l = tc_read(c, LINE_MS)) && strncmp(l, "OK TWATCH", 9) != 0 &&
	    strncmp(l, "ERR", 3) != 0) {
		char who[32];
		int n;
		if (sscanf(l, "= TPLAYER %*d %*d %31s", who) == 1) {
			++*all;
			*mine += !strcmp(who, name);
		} else if (sscanf(l,
			       "= TOURNEY %*d %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s "
			       "%*s %d",
			       &n) == 1) {
			count = n;
		}
	}
	return l && !strncmp(l, "OK TWATCH", 9) ? count : -2;
}

/* One write of CHURN_LINES TJOIN/TLEAVE lines from c: all answered, at
 * most the rate limit's worth taken, the rest 407. */
static void
churn(struct tc *c, struct tc *w, long id, const char *when)
{
	drain(w, 200, NULL, NULL);
	static char buf[CHURN_LINES * 24];
	size_t len = 0;
	for (int j = 0; j < CHURN_LINES; j++)
		len += (size_t)snprintf(
		    buf + len, sizeof buf - len, j % 2 ? "TLEAVE %ld\n" : "TJOIN %ld\n", id);
	int oks = 0, e407 = 0;
	long long t0 = tc_now_ms();
	tc_send_raw(c, buf, len);
	int got = answers(c, CHURN_LINES, LINE_MS, "OK T", &oks, NULL, &e407, NULL);
	double s = (double)(tc_now_ms() - t0) / 1000.0;
	int allowed = RATE_BURST + (int)(s * RATE_PER_S) + 1;
	printf(
	    "  churn %s: %d lines in %.2f s: %d taken, %d refused 407\n", when, got, s, oks, e407);
	CHECK(got == CHURN_LINES, "churn %s: %d of %d answered", when, got, CHURN_LINES);
	CHECK(oks >= 2 && oks <= allowed && e407 >= CHURN_LINES - allowed,
	    "churn %s: %d taken (at most %d), %d refused 407", when, oks, allowed, e407);
	/* the follower w is told the churner's line at most once a second
	 * (section 5.21), not once a join or leave */
	char mine[64];
	snprintf(mine, sizeof mine, "* TPLAYER %ld ", id);
	int pushed = 0;
	const char *l;
	long long end = tc_now_ms() + 1500;
	while (tc_now_ms() < end)
		if ((l = tc_read(w, 100)) && !strncmp(l, mine, strlen(mine)) &&
		    strstr(l, " fickle "))
			pushed++;
	long long window = tc_now_ms() - t0;
	int most = (int)(window / 1000) + 2;
	printf("  churn %s: the follower told the churner's line %d times in %lld ms\n", when,
	    pushed, window);
	CHECK(pushed <= most,
	    "churn %s: the churner's * TPLAYER %d times in %lld ms (at most once a second)", when,
	    pushed, window);
}

static void
test_churn_and_creates(void)
{
	static struct daemon d;
	REQUIRE(daemon_start(
		    &d, GOMOKUD_BIN, "max-per-address 100\nbot-threads 1\nbot-think-ms 10\n") == 0,
	    "gomokud did not start");
	char out[256];
	struct tc *owner = tc_account(d.port, "owner", "s3cret-pass"),
		  *g = tc_guest(d.port, "fickle");
	REQUIRE(owner && g, "connect");
	long id = create(
	    owner, "arena freestyle 15 60+0 none casual both 6 5 Churn", out, sizeof out);
	REQUIRE(id > 0, "TCREATE: %s", out);
	/* two bots, so that it runs whether the guest is in it or not */
	for (int level = 1; level <= 2; level++) {
		char line[32];
		snprintf(line, sizeof line, "TBOT %ld %d", id, level);
		tc_ask(owner, line, out, sizeof out, LINE_MS);
		REQUIRE(!strncmp(out, "OK TBOT ", 8), "TBOT %d: %s", level, out);
	}
	int mine, all, count;
	churn(g, owner, id, "before the start");
	count = players_of(owner, id, "fickle", &mine, &all);
	CHECK(mine <= 1 && count == all && all == 2 + mine,
	    "before the start: fickle %d times in %d standings, the event counts %d", mine, all,
	    count);
	char want[48];
	snprintf(want, sizeof want, "* TOURNEY %ld arena running ", id);
	REQUIRE(tc_expect(owner, want, 10000), "the arena did not start (last: %s)", owner->line);
	usleep((RATE_BURST / RATE_PER_S) * 1000 * 1000 + 200 * 1000); /* a full bucket */
	churn(g, owner, id, "running");
	count = players_of(owner, id, "fickle", &mine, &all);
	CHECK(mine == 1 && count == all && all == 3,
	    "running: fickle %d times in %d standings, the event counts %d", mine, all, count);
	tc_close(g);
	ok("TJOIN/TLEAVE churn in an arena: refused 407 past the burst; the guest in the list "
	   "once");

	/* an account's TCREATE flood */
	struct tc *f = tc_account(d.port, "flooder", "s3cret-pass");
	REQUIRE(f, "flooder");
	usleep((RATE_BURST / RATE_PER_S) * 1000 * 1000 + 200 * 1000);
	static char buf[CREATE_LINES * 80];
	size_t len = 0;
	for (int j = 0; j < CREATE_LINES; j++)
		len += (size_t)snprintf(buf + len, sizeof buf - len,
		    "TCREATE swiss freestyle 15 300+0 none casual people 600 3 Flood %d\n", j);
	int oks = 0, e453 = 0, e407 = 0;
	tc_send_raw(f, buf, len);
	int got = answers(f, CREATE_LINES, LINE_MS, "OK TCREATE ", &oks, NULL, &e407, &e453);
	printf("  TCREATE flood: %d answered: %d made, %d refused 453, %d 407\n", got, oks, e453,
	    e407);
	CHECK(got == CREATE_LINES && oks == 2 && e453 >= 1 && oks + e453 + e407 == got,
	    "TCREATE flood: %d answered, %d made, %d 453, %d 407", got, oks, e453, e407);
	/* TLIST names two of the flooder's */
	tc_send(owner, "TLIST");
	const char *l;
	int listed = 0;
	while ((l = tc_read(owner, LINE_MS)) && strncmp(l, "OK TLIST", 8) != 0)
		listed += !strncmp(l, "= TOURNEY ", 10) && strstr(l, " flooder Flood ") != NULL;
	CHECK(listed == 2, "TLIST: %d events of the flooder", listed);
	tc_close(f);
	tc_close(owner);
	CHECK(daemon_alive(&d), "gomokud died");
	daemon_stop(&d, SIGTERM, 5000);
	sqlite3 *db;
	char path[200];
	snprintf(path, sizeof path, "%s/state/gomokud.db", d.dir);
	REQUIRE(sqlite3_open(path, &db) == SQLITE_OK, "cannot open %s", path);
	sqlite3_stmt *q;
	int stored = -1;
	if (sqlite3_prepare_v2(db, "SELECT COUNT(*) FROM tourneys WHERE creator = 'flooder'", -1,
		&q, NULL) == SQLITE_OK &&
	    sqlite3_step(q) == SQLITE_ROW)
		stored = sqlite3_column_int(q, 0);
	sqlite3_finalize(q);
	sqlite3_close(db);
	CHECK(stored == 2, "the store holds %d events of the flooder", stored);
	ok("TCREATE flood by one account: two made, the rest 453 or 407; two stored");
}

int
main(void)
{
	/* ASan's quarantine of freed blocks (256 MiB by default) would count
	 * as the daemon's growth: a few MiB of it for the daemons here */
	const char *asan = getenv("ASAN_OPTIONS");
	char opts[512];
	if (!asan || !strstr(asan, "quarantine_size_mb")) {
		snprintf(opts, sizeof opts, "%s%squarantine_size_mb=4", asan ? asan : "",
		    asan && *asan ? ":" : "");
		setenv("ASAN_OPTIONS", opts, 1);
	}
	long long t0 = tc_now_ms();
	test_watch_flood();
	test_slow_follower();
	test_churn_and_creates();
	printf("tourney attacks: %d failed (%lld ms)\n", failures, tc_now_ms() - t0);
	return failures ? 1 : 0;
}
