/*
 * soak: many clients on loopback against the real gomokud for SOAK_SECONDS
 * (default 180): pairs play games in private rooms, chat, drop their
 * connections and RESUME, resign and start again; others play bots, watch
 * games and leave; vandals send garbage, binary and overlong lines, and
 * every so often open and drop a burst of connections. Afterwards: the
 * daemon never died, its descriptors are back to where they started, its
 * memory grew within a bound, it exits cleanly on SIGTERM, and every game a
 * client saw end is in the archive. Figures printed; exit 1 on a failure.
 *
 *   make soak               # 180 s
 *   SOAK_SECONDS=600 make soak
 */
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "tests/daemon/spiral.h"
#include "tests/daemon/tclient.h"

#ifndef GOMOKUD_BIN
#define GOMOKUD_BIN "bin/gomokud"
#endif

enum {
	PAIRS = 12,
	BOTPLAYERS = 4,
	WATCHERS = 4,
	VANDALS = 2,
	RSS_BOUND_KIB = 64 * 1024,
	FD_SLACK = 8,
};

struct player {
	struct tc *c;
	char base[12], name[24], token[80], room[24];
	int gen;  /* a new name each time its session is gone */
	int next; /* next spiral point to try */
	int ingame;
};

struct pair {
	struct player p[2];
};

static struct daemon d;
static int spiral[225][2];
static long overs_seen, starts_seen, moves_ok, resumes, drops, garbage, storms, chats;
static char ended[4096][24]; /* "room/seq" of every OVER seen, deduplicated */
static int nended;

static int
count_fds(pid_t pid)
{
	char path[64];
	int n = 0;
	snprintf(path, sizeof path, "/proc/%d/fd", (int)pid);
	DIR *dir = opendir(path);
	if (!dir)
		return -1;
	while (readdir(dir))
		n++;
	closedir(dir);
	return n - 2;
}

static long
rss_kib(pid_t pid)
{
	char path[64], line[256];
	long v = -1;
	snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
	FILE *f = fopen(path, "r");
	while (f && fgets(line, sizeof line, f))
		if (sscanf(line, "VmRSS: %ld", &v) == 1)
			break;
	if (f)
		fclose(f);
	return v;
}

/* Reads whatever has arrived (waiting up to ms), noting game ends. */
static void
drain(struct player *p, int ms)
{
	const char *l;
	char room[24];
	long seq;

	if (!p->c)
		return;
	while ((l = tc_read(p->c, ms)) != NULL) {
		ms = 1;
		if (sscanf(l, "* OVER %23s %ld", room, &seq) == 2) {
			char key[24];
			snprintf(key, sizeof key, "%.12s/%ld", room, seq);
			int known = 0;
			for (int i = 0; i < nended && !known; i++)
				known = strcmp(ended[i], key) == 0;
			if (!known && nended < 4096)
				snprintf(ended[nended++], sizeof ended[0], "%s", key);
			overs_seen++;
			if (strcmp(room, p->room) == 0)
				p->ingame = 0;
		} else if (strncmp(l, "* START", 7) == 0) {
			starts_seen++;
		} else if (strncmp(l, "OK MOVE", 7) == 0) {
			moves_ok++;
		}
	}
}

static int
connect_player(struct player *p)
{
	snprintf(p->name, sizeof p->name, "%s_%d", p->base, p->gen++);
	p->c = tc_guest(d.port, p->name);
	if (!p->c)
		return -1;
	snprintf(p->token, sizeof p->token, "%s", p->c->token);
	return 0;
}

static void
new_game(struct pair *pr)
{
	char code[64];
	struct player *a = &pr->p[0], *b = &pr->p[1];

	if (!a->c || !b->c)
		return;
	tc_send(a->c, "CREATE freestyle 15 %s black casual none", rand() % 3 ? "none" : "120+2");
	const char *l = tc_expect(a->c, "OK CREATE", 3000);
	if (!l || sscanf(l, "OK CREATE %23s %63s", a->room, code) != 2)
		return;
	tc_send(b->c, "JOIN %s", code);
	if (!tc_expect(b->c, "OK JOIN", 3000))
		return;
	snprintf(b->room, sizeof b->room, "%s", a->room);
	a->ingame = b->ingame = 1;
	a->next = b->next = rand() % 40;
}

/* One thing a pair does: a move, chat, a drop and resume, or a resignation. */
static void
pair_step(struct pair *pr)
{
	int who = rand() % 2, r = rand() % 100;
	struct player *p = &pr->p[who];

	if (!p->c) { /* dropped: come back with the token */
		p->c = tc_open(d.port, 1);
		if (!p->c)
			return;
		if (p->ingame) {
			tc_send(p->c, "RESUME %s %s 0", p->token, p->room);
			if (tc_expect(p->c, "OK RESUME", 3000))
				resumes++;
			else
				p->ingame = 0;
		}
		if (!p->ingame) { /* its session is gone: a fresh name */
			tc_close(p->c);
			if (connect_player(p) != 0)
				p->c = NULL;
		}
		return;
	}
	if (!pr->p[0].ingame || !pr->p[1].ingame || !pr->p[0].c || !pr->p[1].c) {
		if (pr->p[0].c && pr->p[1].c && !pr->p[0].ingame && !pr->p[1].ingame) {
			if (pr->p[0].room[0]) {
				tc_send(pr->p[0].c, "LEAVE %s", pr->p[0].room);
				tc_send(pr->p[1].c, "LEAVE %s", pr->p[1].room);
				drain(&pr->p[0], 50);
				drain(&pr->p[1], 50);
			}
			new_game(pr);
		}
		return;
	}
	if (r < 75) {
		int k = p->next++ % 225;
		tc_send(p->c, "MOVE %s %c%d", p->room, 'a' + spiral[k][0], 15 - spiral[k][1]);
	} else if (r < 85) {
		tc_send(p->c, "SAY %s still here, move %d", p->room, p->next);
		chats++;
	} else if (r < 93) {
		tc_close(p->c); /* a dropped connection, mid-game */
		p->c = NULL;
		drops++;
		return;
	} else if (r < 96) {
		tc_send(p->c, "RESIGN %s", p->room);
	} else {
		tc_send(p->c, "OFFER %s draw", p->room);
	}
	drain(p, 20);
}

static void
bot_step(struct player *p)
{
	if (!p->c)
		return;
	if (!p->ingame) {
		if (p->room[0])
			tc_send(p->c, "LEAVE %s", p->room);
		tc_send(p->c, "BOT play %d %s 15 none black none", 1 + rand() % 3,
		    rand() % 2 ? "freestyle" : "renju");
		const char *l = tc_expect(p->c, "OK BOT", 3000);
		if (l && sscanf(l, "OK BOT %23s", p->room) == 1) {
			p->ingame = 1;
			p->next = 0;
		}
		return;
	}
	int k = p->next++ % 225;
	tc_send(p->c, "MOVE %s %c%d", p->room, 'a' + spiral[k][0], 15 - spiral[k][1]);
	drain(p, 30);
}

static void
watcher_step(struct player *w, struct pair *pairs)
{
	if (!w->c)
		return;
	if (w->room[0] && rand() % 2) {
		tc_send(w->c, "LEAVE %s", w->room);
		w->room[0] = '\0';
	} else {
		struct pair *pr = &pairs[rand() % PAIRS];
		if (pr->p[0].ingame && pr->p[0].room[0]) {
			/* private rooms are joined by code only: spectate through ROOMS' public
			 * ones instead when there are any; else just ask for the list */
			tc_send(w->c, "ROOMS");
		}
		tc_send(w->c, "WHO");
	}
	drain(w, 20);
}

static void
vandal_step(struct player *v)
{
	int r = rand() % 4;

	if (!v->c || tc_closed(v->c, 0)) {
		if (v->c)
			tc_close(v->c);
		v->c = tc_open(d.port, rand() % 2);
		return;
	}
	if (r == 0) {
		char junk[64];
		for (size_t i = 0; i < sizeof junk; i++)
			junk[i] = (char)(rand() % 256);
		junk[sizeof junk - 1] = '\n';
		tc_send_raw(v->c, junk, sizeof junk);
	} else if (r == 1) {
		static char big[2048];
		memset(big, 'x', sizeof big - 1);
		big[sizeof big - 1] = '\n';
		tc_send_raw(v->c, big, sizeof big);
	} else if (r == 2) {
		tc_send(v->c, "MOVE r%d z99", rand() % 50);
	} else {
		/* a burst of connections opened and dropped */
		struct tc *burst[20];
		for (int i = 0; i < 20; i++)
			burst[i] = tc_open(d.port, rand() % 2 ? 1 : -1);
		for (int i = 0; i < 20; i++)
			if (burst[i])
				tc_close(burst[i]);
		storms++;
	}
	garbage++;
	while (tc_read(v->c, 5))
		;
}

static long
archived_games(const char *dbpath)
{
	sqlite3 *db;
	sqlite3_stmt *q;
	long n = -1;

	if (sqlite3_open_v2(dbpath, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
		return -1;
	if (sqlite3_prepare_v2(db, "SELECT count(*) FROM games WHERE ended IS NOT NULL", -1, &q,
		NULL) == SQLITE_OK &&
	    sqlite3_step(q) == SQLITE_ROW)
		n = sqlite3_column_int64(q, 0);
	sqlite3_finalize(q);
	sqlite3_close(db);
	return n;
}

int
main(void)
{
	int secs = getenv("SOAK_SECONDS") ? atoi(getenv("SOAK_SECONDS")) : 180;
	static struct pair pairs[PAIRS];
	static struct player bots[BOTPLAYERS], watchers[WATCHERS], vandals[VANDALS];
	int failures = 0;

	srand(20261130);
	make_spiral(spiral);
	if (daemon_start(&d, GOMOKUD_BIN,
		"rate-burst 1000\nrate-per-second 1000\n"
		"max-per-address 1000\nbot-think-ms 30\nbot-threads 2\ngrace 5\nlog-level info") !=
	    0) {
		printf("soak: gomokud did not start\n");
		return 1;
	}
	int fd0 = count_fds(d.pid);
	long rss0 = rss_kib(d.pid);
	for (int i = 0; i < PAIRS; i++)
		for (int k = 0; k < 2; k++) {
			snprintf(pairs[i].p[k].base, sizeof pairs[i].p[k].base, "s%c%d",
			    k ? 'w' : 'b', i);
			connect_player(&pairs[i].p[k]);
		}
	for (int i = 0; i < PAIRS; i++)
		new_game(&pairs[i]);
	for (int i = 0; i < BOTPLAYERS; i++) {
		snprintf(bots[i].base, sizeof bots[i].base, "sbot%d", i);
		connect_player(&bots[i]);
	}
	for (int i = 0; i < WATCHERS; i++) {
		snprintf(watchers[i].base, sizeof watchers[i].base, "sw%d", i);
		connect_player(&watchers[i]);
	}
	for (int i = 0; i < VANDALS; i++)
		vandals[i].c = tc_open(d.port, 1);
	int fd_busy = count_fds(d.pid);
	long rss_peak = rss_kib(d.pid);
	printf("soak: %d s, %d pairs, %d bot players, %d watchers, %d vandals; daemon pid %d\n",
	    secs, PAIRS, BOTPLAYERS, WATCHERS, VANDALS, (int)d.pid);

	long long end = tc_now_ms() + secs * 1000LL, next_sample = tc_now_ms() + 10000;
	long steps = 0;
	while (tc_now_ms() < end) {
		int r = rand() % 100;
		if (r < 70)
			pair_step(&pairs[rand() % PAIRS]);
		else if (r < 85)
			bot_step(&bots[rand() % BOTPLAYERS]);
		else if (r < 95)
			watcher_step(&watchers[rand() % WATCHERS], pairs);
		else
			vandal_step(&vandals[rand() % VANDALS]);
		steps++;
		if (tc_now_ms() >= next_sample) {
			if (!daemon_alive(&d)) {
				printf("soak: FAIL: the daemon died (log %s)\n", d.log);
				return 1;
			}
			long rss = rss_kib(d.pid);
			if (rss > rss_peak)
				rss_peak = rss;
			printf("soak: %3lld s: %ld steps, fds %d, RSS %ld KiB, %ld moves, %ld "
			       "games ended\n",
			    (tc_now_ms() - (end - secs * 1000LL)) / 1000, steps, count_fds(d.pid),
			    rss, moves_ok, (long)nended);
			next_sample += 10000;
		}
	}
	/* everyone leaves; the server must let go of them all */
	for (int i = 0; i < PAIRS; i++)
		for (int k = 0; k < 2; k++) {
			drain(&pairs[i].p[k], 10);
			if (pairs[i].p[k].c)
				tc_close(pairs[i].p[k].c);
		}
	for (int i = 0; i < BOTPLAYERS; i++) {
		drain(&bots[i], 10);
		if (bots[i].c)
			tc_close(bots[i].c);
	}
	for (int i = 0; i < WATCHERS; i++)
		if (watchers[i].c)
			tc_close(watchers[i].c);
	for (int i = 0; i < VANDALS; i++)
		if (vandals[i].c)
			tc_close(vandals[i].c);
	sleep(8); /* grace periods run out, abandoned games end, gc passes */
	int fd1 = count_fds(d.pid);
	long rss1 = rss_kib(d.pid);
	printf(
	    "soak: %ld steps; %ld moves, %ld game starts seen, %d games seen to end, %ld resumes,"
	    " %ld drops, %ld chats, %ld garbage/overlong/storm actions (%ld storms of 20)\n",
	    steps, moves_ok, starts_seen, nended, resumes, drops, chats, garbage, storms);
	printf(
	    "soak: descriptors %d at start, %d busy, %d after everyone left\n", fd0, fd_busy, fd1);
	printf("soak: RSS %ld KiB at start, %ld KiB peak, %ld KiB after\n", rss0, rss_peak, rss1);
	if (fd1 > fd0 + FD_SLACK) {
		printf("soak: FAIL: %d descriptors left over\n", fd1 - fd0);
		failures++;
	}
	if (rss1 - rss0 > RSS_BOUND_KIB) {
		printf("soak: FAIL: RSS grew %ld KiB (bound %d)\n", rss1 - rss0, RSS_BOUND_KIB);
		failures++;
	}
	int st = daemon_stop(&d, SIGTERM, 10000);
	if (st != 0) {
		printf("soak: FAIL: exit status %d after SIGTERM (log %s)\n", st, d.log);
		failures++;
	}
	char db[300];
	snprintf(db, sizeof db, "%s/state/gomokud.db", d.dir);
	long archived = archived_games(db);
	printf("soak: %ld finished games in the archive, %d seen to end by the clients\n", archived,
	    nended);
	if (archived < nended) {
		printf("soak: FAIL: games seen to end are missing from the archive\n");
		failures++;
	}
	printf("soak: %d passed, %d failed\n", failures ? 0 : 1, failures ? 1 : 0);
	if (!failures) {
		char cmd[300];
		snprintf(cmd, sizeof cmd, "rm -rf %s", d.dir);
		if (system(cmd) != 0)
			printf("soak: could not remove %s\n", d.dir);
	}
	return failures ? 1 : 0;
}
