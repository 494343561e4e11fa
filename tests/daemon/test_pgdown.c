/*
 * test_pgdown.c: gomokud on PostgreSQL while the database goes away
 * (tests/pg/test_pg.sh runs it with its own server). First each way a game
 * starts (JOIN, rematch, SEEK, CHALLENGE, BOT) with the backends paused
 * while its row is stored, then refused with PostgreSQL stopped and taken
 * once it is back, then with a player gone mid-start (test_starts). Then, with a game in
 * progress and nothing of it in flight, the backends are paused: a LOGIN,
 * STATS/TOP/HISTORY and a GUEST wait on their connections for the store
 * thread while the game's players are answered (PING, WHO, SAY), and are
 * answered in order once resumed (so are a BAN and a MOTD, the banned
 * guest sent off only then); an undo accepted while paused is said
 * and answered only after its commit, the loop serving meanwhile. Then PostgreSQL's
 * backends are paused (SIGSTOP) while a move is committed: the move is not
 * said and not answered, the opponent's next request waits behind it, and
 * the event loop serves everyone else (it never waits for the database);
 * resumed, the move goes out, then its OK, then the waiting request's
 * answer (and after the restart below, a RESUME's stored session is looked
 * up the same way). Then PostgreSQL is stopped mid-game: the next move is refused with 508 store-unavailable
 * and no event goes out, and so are LOGIN, a named GUEST, STATS, HISTORY,
 * TOP, BAN, MOTD and accepting an undo or a draw, changing nothing; it is started again: the daemon reconnects by
 * itself and the same move is taken; then the daemon is killed with
 * SIGKILL and a restart has every acknowledged move, nothing lost.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/daemon/check.h"
#include "tests/daemon/tclient.h"
#include "tests/daemon/wsframe.h"

static const char *const moves[] = { "a1", "a3", "c1", "c3", "e1", "e3", "g1", "g3", "i1" };

/* mover plays moves[k]: 0 when OK MOVE came (the opponent saw * MOVE). */
static int
play(struct tc *mover, struct tc *other, const char *room, int k)
{
	char want[64];
	tc_send(mover, "MOVE %s %s", room, moves[k]);
	snprintf(want, sizeof want, "OK MOVE %s", room);
	const char *l;
	while ((l = tc_read(mover, 3000)) && strncmp(l, "OK MOVE", 7) != 0 &&
	    strncmp(l, "ERR", 3) != 0)
		;
	if (!l || strncmp(l, want, strlen(want)) != 0)
		return -1;
	return tc_expect(other, "* MOVE", 3000) ? 0 : -1;
}

static struct daemon d0, d1, d2;

/* Reads c's lines until one starts with "OK <verb>" or "ERR": that line
 * (copied into c->line), or NULL after ms. */
static const char *
answer(struct tc *c, const char *verb, int ms)
{
	char want[40];
	snprintf(want, sizeof want, "OK %s", verb);
	const char *l;
	while ((l = tc_read(c, ms)) && strncmp(l, want, strlen(want)) != 0 &&
	    strncmp(l, "ERR", 3) != 0)
		;
	return l;
}

/* One line to a WebSocket as a browser sends it (a masked text frame). */
static void
ws_line(struct tc *c, const char *line)
{
	unsigned char out[600];
	tc_send_raw(c, out, wsf_encode(out, 1, WS_TEXT, line, strlen(line)));
}

/* Reads a WebSocket's text frames until one starts with prefix; 0, or -1
 * after ms or on another frame. A line is at most 512 bytes: a frame's
 * length is in its second byte, or (126) in the two after it. */
static int
ws_until(struct tc *c, const char *prefix, int ms)
{
	unsigned char f[1024];
	for (;;) {
		int fin, op;
		size_t off, len, head = 2, n;
		if (tc_read_bytes(c, f, 2, ms) || (f[1] & 127) == 127)
			return -1;
		if ((f[1] & 127) == 126) {
			if (tc_read_bytes(c, f + 2, 2, ms))
				return -1;
			head = 4;
			n = (size_t)f[2] << 8 | f[3];
		} else {
			n = f[1] & 127;
		}
		if (n > sizeof f - head || tc_read_bytes(c, f + head, n, ms) ||
		    wsf_decode(f, head + n, &fin, &op, &off, &len) < 0 || op != WS_TEXT)
			return -1;
		if (len >= strlen(prefix) && memcmp(f + off, prefix, strlen(prefix)) == 0)
			return 0;
	}
}

/* A guest on a WebSocket (a browser's connection), or NULL. */
static struct tc *
ws_guest(int port, const char *name)
{
	static const unsigned char alpn[] = "\x08http/1.1";
	struct tc *c = tc_open_alpn(port, alpn, sizeof alpn - 1, 0);
	if (!c)
		return NULL;
	char req[400], line[64];
	snprintf(req, sizeof req,
	    "GET /ws HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUpgrade: websocket\r\n"
	    "Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
	    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
	    "Origin: https://127.0.0.1:%d\r\n\r\n",
	    port, port);
	tc_send_raw(c, req, strlen(req));
	snprintf(line, sizeof line, "GUEST %s", name);
	if (!tc_expect(c, "HTTP/1.1 101", 3000) || !tc_expect(c, "\r", 3000) ||
	    ws_until(c, "* SERVER", 3000) != 0) {
		tc_close(c);
		return NULL;
	}
	ws_line(c, "HELLO 1 test-pgdown");
	ws_line(c, line);
	if (ws_until(c, "OK GUEST", 3000) != 0) {
		tc_close(c);
		return NULL;
	}
	return c;
}

/* c ends its game in room with verb (RESIGN, ABORT): 0 when OK came. */
static int
end_game(struct tc *c, const char *verb, const char *room)
{
	tc_send(c, "%s %s", verb, room);
	const char *l = answer(c, verb, 5000);
	return l && strncmp(l, "OK ", 3) == 0 ? 0 : -1;
}

/* c offers a rematch in room, o hears it: its id into *id (0 if not). */
static void
offer_rematch(struct tc *c, struct tc *o, const char *room, unsigned *id)
{
	*id = 0;
	tc_send(c, "OFFER %s rematch", room);
	const char *l = tc_expect(c, "OK OFFER", 3000);
	CHECK(l && sscanf(l, "OK OFFER %*s %u", id) == 1, "OFFER rematch: %s", c->line);
	CHECK(tc_expect(o, "* OFFER", 3000), "no * OFFER: %s", o->line);
}

/* The room of the * START c reads first (skipping other lines) into room. */
static int
start_room(struct tc *c, char room[24], int ms)
{
	const char *l = tc_expect(c, "* START", ms);
	return l && sscanf(l, "* START %23s", room) == 1 ? 0 : -1;
}

/* Sends what until its answer is not 508 (PostgreSQL back, the daemon's
 * reconnect backs off up to 2 s): that answer's line, or NULL. */
static const char *
until_stored(struct tc *c, const char *verb, const char *what)
{
	const char *l = NULL;
	for (int t = 0; t < 40; t++) {
		tc_send(c, "%s", what);
		l = answer(c, verb, 5000);
		if (!l || strncmp(l, "ERR 508", 7) != 0)
			return l;
		usleep(250 * 1000);
	}
	return NULL;
}

/* The request each start waits on while PostgreSQL's backends are paused:
 * nothing of the new game is said or answered, w's PING is answered
 * meanwhile; resumed, * START comes first, then the answer. */
static void
held_start(struct tc *asker, struct tc *other, struct tc *w, const char *what, const char *first)
{
	CHECK(!tc_read(asker, 500), "%s: answered before its game's row: %s", what, asker->line);
	if (other)
		CHECK(!tc_read(other, 200), "%s: the other player heard before the commit: %s",
		    what, other->line);
	tc_send(w, "PING %s", what);
	CHECK(tc_expect(w, "OK PING", 2000), "%s: no PING answer while the start hangs: %s", what,
	    w->line);
	REQUIRE(tc_pg_ctl("resume") == 0, "cannot resume PostgreSQL");
	const char *l = tc_read(asker, 5000);
	CHECK(l && strncmp(l, first, strlen(first)) == 0, "%s: after the commit, first: %s", what,
	    asker->line);
}

/* Each way a game starts, with PostgreSQL's backends paused while its row
 * is stored: a JOIN by code, a paired SEEK (the older seeker's CANCEL
 * waits behind it), an accepted CHALLENGE, an accepted rematch and BOT
 * play. Then with PostgreSQL stopped each is refused with 508, the room,
 * seek, challenge and offer still there, and taken once it is back. Then
 * a player goes while the start is in flight. */
static void
test_starts(void)
{
	char room[24], code[64], r2[24], want[80];
	unsigned id = 0;
	const char *l;
	REQUIRE(daemon_start(&d0, GOMOKUD_BIN, "grace 300\nbot-threads 1") == 0,
	    "no daemon (log %s)", d0.log);
	struct tc *a = tc_guest(d0.port, "sue"), *b = tc_guest(d0.port, "tom"),
		  *w = tc_guest(d0.port, "pat");
	REQUIRE(a && b && w, "cannot connect");

	tc_send(a, "CREATE freestyle 15 600+5 black casual none");
	l = tc_expect(a, "OK CREATE", 3000);
	REQUIRE(l && sscanf(l, "OK CREATE %23s %63s", room, code) == 2, "CREATE: %s", a->line);
	REQUIRE(tc_pg_ctl("pause") == 0, "cannot pause PostgreSQL");
	tc_send(b, "JOIN %s", code);
	tc_send(a, "WHO"); /* a player of the starting game: after it */
	held_start(b, a, w, "JOIN", "* START");
	snprintf(want, sizeof want, "OK JOIN %s", room);
	CHECK(tc_expect(b, want, 3000), "the held JOIN: %s", b->line);
	l = tc_read(a, 3000);
	CHECK(l && strncmp(l, "* START", 7) == 0, "the creator's first line: %s", a->line);
	CHECK(answer(a, "WHO", 3000) && strncmp(a->line, "OK WHO", 6) == 0,
	    "the creator's WHO after the start: %s", a->line);
	ok("JOIN with the store paused: held, the loop free; * START after the commit, then "
	   "OK JOIN, then the other player's request");

	CHECK(end_game(a, "RESIGN", room) == 0, "RESIGN: %s", a->line);
	CHECK(tc_expect(b, "* OVER", 3000), "no * OVER: %s", b->line);
	offer_rematch(a, b, room, &id);
	REQUIRE(tc_pg_ctl("pause") == 0, "cannot pause PostgreSQL");
	tc_send(b, "ACCEPT %s %u", room, id);
	held_start(b, a, w, "rematch", "* OFFEREND");
	CHECK(tc_expect(b, "* START", 3000), "rematch: no * START: %s", b->line);
	snprintf(want, sizeof want, "OK ACCEPT %s %u", room, id);
	CHECK(tc_expect(b, want, 3000), "the held ACCEPT: %s", b->line);
	CHECK(tc_expect(a, "* START", 3000), "the offerer saw no * START: %s", a->line);
	ok("an accepted rematch with the store paused: * START after the commit, then OK ACCEPT");
	CHECK(end_game(a, "RESIGN", room) == 0, "RESIGN: %s", a->line);
	CHECK(tc_expect(b, "* OVER", 3000), "no * OVER: %s", b->line);
	char rm[24]; /* kept: its rematch is offered again with PostgreSQL down */
	snprintf(rm, sizeof rm, "%s", room);

	tc_send(a, "SEEK freestyle 15 none any casual none");
	CHECK(tc_expect(a, "OK SEEK", 3000), "SEEK: %s", a->line);
	REQUIRE(tc_pg_ctl("pause") == 0, "cannot pause PostgreSQL");
	tc_send(b, "SEEK freestyle 15 none any casual none");
	tc_send(a, "CANCEL"); /* its seek is in the starting game: after it */
	held_start(b, a, w, "SEEK", "* START");
	CHECK(tc_expect(b, "OK SEEK", 3000), "the held SEEK: %s", b->line);
	CHECK(start_room(a, r2, 3000) == 0, "the older seeker saw no * START: %s", a->line);
	CHECK(answer(a, "CANCEL", 3000) && strncmp(a->line, "ERR", 3) == 0,
	    "CANCEL of a seek that started its game: %s", a->line);
	CHECK(end_game(a, "ABORT", r2) == 0, "ABORT: %s", a->line);
	ok("a paired SEEK with the store paused: * START after the commit, then OK SEEK; the "
	   "older seeker's CANCEL after it");

	tc_send(a, "CHALLENGE tom freestyle 15 none any casual none");
	l = tc_expect(a, "OK CHALLENGE", 3000);
	CHECK(l && sscanf(l, "OK CHALLENGE %u", &id) == 1, "CHALLENGE: %s", a->line);
	CHECK(tc_expect(b, "* CHALLENGE", 3000), "no * CHALLENGE: %s", b->line);
	REQUIRE(tc_pg_ctl("pause") == 0, "cannot pause PostgreSQL");
	tc_send(b, "ANSWER %u accept", id);
	held_start(b, a, w, "CHALLENGE", "* START");
	CHECK(tc_expect(b, "* CHALLENGEEND", 3000), "no * CHALLENGEEND: %s", b->line);
	snprintf(want, sizeof want, "OK ANSWER %u", id);
	CHECK(tc_expect(b, want, 3000), "the held ANSWER: %s", b->line);
	CHECK(start_room(a, r2, 3000) == 0, "the challenger saw no * START: %s", a->line);
	CHECK(end_game(a, "ABORT", r2) == 0, "ABORT: %s", a->line);
	ok("an accepted CHALLENGE with the store paused: * START after the commit, then OK ANSWER");

	REQUIRE(tc_pg_ctl("pause") == 0, "cannot pause PostgreSQL");
	tc_send(w, "BOT play 1 freestyle 15 none black none");
	held_start(w, NULL, b, "BOT", "* START");
	CHECK(answer(w, "BOT", 3000) && strncmp(w->line, "OK BOT", 6) == 0, "the held BOT: %s",
	    w->line);
	ok("BOT play with the store paused: * START after the commit, then OK BOT");
	if (sscanf(w->line, "OK BOT %23s", r2) == 1)
		CHECK(end_game(w, "RESIGN", r2) == 0, "RESIGN: %s", w->line);

	/* PostgreSQL stopped: each start refused, nothing changed */
	unsigned chal = 0;
	struct tc *c = tc_guest(d0.port, "uma"), *e = tc_guest(d0.port, "vic"),
		  *x = tc_guest(d0.port, "ora"), *y = tc_guest(d0.port, "rex");
	REQUIRE(c && e && x && y, "cannot connect");
	tc_send(x, "CREATE freestyle 15 600+5 black casual none");
	l = tc_expect(x, "OK CREATE", 3000);
	REQUIRE(l && sscanf(l, "OK CREATE %23s %63s", room, code) == 2, "CREATE: %s", x->line);
	tc_send(c, "SEEK renju 15 none any casual none");
	CHECK(tc_expect(c, "OK SEEK", 3000), "SEEK: %s", c->line);
	tc_send(w, "CHALLENGE vic freestyle 15 none any casual none");
	l = tc_expect(w, "OK CHALLENGE", 3000);
	CHECK(l && sscanf(l, "OK CHALLENGE %u", &chal) == 1, "CHALLENGE: %s", w->line);
	CHECK(tc_expect(e, "* CHALLENGE", 3000), "no * CHALLENGE: %s", e->line);
	offer_rematch(a, b, rm, &id);
	REQUIRE(tc_pg_ctl("stop") == 0, "cannot stop PostgreSQL");
	tc_send(y, "JOIN %s", code);
	CHECK(answer(y, "JOIN", 5000) && strncmp(y->line, "ERR 508", 7) == 0,
	    "JOIN with PostgreSQL down: %s", y->line);
	CHECK(!tc_read(x, 300), "the creator heard of a refused JOIN: %s", x->line);
	tc_send(y, "SEEK renju 15 none any casual none");
	CHECK(answer(y, "SEEK", 5000) && strncmp(y->line, "ERR 508", 7) == 0,
	    "a paired SEEK with PostgreSQL down: %s", y->line);
	CHECK(!tc_read(c, 300), "the older seeker heard of a refused pairing: %s", c->line);
	tc_send(e, "ANSWER %u accept", chal);
	CHECK(answer(e, "ANSWER", 5000) && strncmp(e->line, "ERR 508", 7) == 0,
	    "ANSWER accept with PostgreSQL down: %s", e->line);
	tc_send(b, "ACCEPT %s %u", rm, id);
	CHECK(answer(b, "ACCEPT", 5000) && strncmp(b->line, "ERR 508", 7) == 0,
	    "ACCEPT rematch with PostgreSQL down: %s", b->line);
	tc_send(y, "BOT play 1 freestyle 15 none black none");
	CHECK(answer(y, "BOT", 5000) && strncmp(y->line, "ERR 508", 7) == 0,
	    "BOT with PostgreSQL down: %s", y->line);
	tc_send(y, "SEEKS");
	l = tc_read(y, 3000);
	CHECK(l && strncmp(l, "= SEEK", 6) == 0 && strstr(l, "uma"), "the older seek went: %s",
	    y->line);
	CHECK(tc_expect(y, "OK SEEKS 1", 3000), "SEEKS: %s", y->line);
	ok("PostgreSQL down: JOIN, a paired SEEK, ANSWER accept, ACCEPT rematch and BOT get 508, "
	   "nothing said");

	REQUIRE(tc_pg_ctl("start") == 0, "cannot start PostgreSQL again");
	snprintf(want, sizeof want, "JOIN %s", code);
	l = until_stored(y, "JOIN", want);
	CHECK(l && strncmp(l, "OK JOIN", 7) == 0, "the same JOIN, PostgreSQL back: %s", y->line);
	CHECK(tc_expect(x, "* START", 3000), "the creator saw no * START: %s", x->line);
	CHECK(end_game(x, "ABORT", room) == 0, "ABORT: %s", x->line);
	snprintf(want, sizeof want, "ANSWER %u accept", chal);
	l = until_stored(e, "ANSWER", want);
	CHECK(
	    l && strncmp(l, "OK ANSWER", 9) == 0, "the same ANSWER, PostgreSQL back: %s", e->line);
	CHECK(start_room(w, r2, 3000) == 0, "the challenger saw no * START: %s", w->line);
	CHECK(end_game(w, "ABORT", r2) == 0, "ABORT: %s", w->line);
	l = until_stored(y, "SEEK", "SEEK renju 15 none any casual none");
	CHECK(l && strncmp(l, "OK SEEK", 7) == 0, "the same SEEK, PostgreSQL back: %s", y->line);
	CHECK(start_room(c, r2, 3000) == 0, "the older seeker saw no * START: %s", c->line);
	CHECK(end_game(c, "ABORT", r2) == 0, "ABORT: %s", c->line);
	CHECK(tc_expect(y, "* OVER", 3000), "no * OVER: %s", y->line);
	snprintf(want, sizeof want, "ACCEPT %s %u", rm, id);
	l = until_stored(b, "ACCEPT", want);
	CHECK(
	    l && strncmp(l, "OK ACCEPT", 9) == 0, "the same ACCEPT, PostgreSQL back: %s", b->line);
	CHECK(tc_expect(a, "* START", 3000), "the offerer saw no * START: %s", a->line);
	CHECK(end_game(a, "ABORT", rm) == 0, "ABORT: %s", a->line);
	ok("PostgreSQL back: the same JOIN, ANSWER, SEEK and ACCEPT start their games");

	/* a player goes while the start is in flight: the older seeker, and
	 * nothing starts (the asker hears 445); the asker, whose connection
	 * is held: its close is seen all the same (issue 43), so nothing
	 * starts either and the older seeker's seek is open again */
	/* connections from after PostgreSQL's restart: its server holds no
	 * copy of their sockets (system() hands the test's descriptors on) */
	struct tc *f = tc_guest(d0.port, "ida"), *g = tc_guest(d0.port, "jon"),
		  *h = tc_guest(d0.port, "kim");
	REQUIRE(f && g && h, "cannot connect");
	tc_send(f, "SEEK freestyle 15 none any casual none");
	CHECK(tc_expect(f, "OK SEEK", 3000), "SEEK: %s", f->line);
	REQUIRE(tc_pg_ctl("pause") == 0, "cannot pause PostgreSQL");
	tc_send(g, "SEEK freestyle 15 none any casual none");
	CHECK(!tc_read(g, 500), "SEEK answered before its game's row: %s", g->line);
	tc_close(f); /* the older seeker goes */
	tc_send(w, "PING gone");
	CHECK(tc_expect(w, "OK PING", 2000), "no PING answer while the start hangs");
	usleep(300 * 1000);
	REQUIRE(tc_pg_ctl("resume") == 0, "cannot resume PostgreSQL");
	l = answer(g, "SEEK", 5000);
	CHECK(l && strncmp(l, "ERR 445", 7) == 0, "the SEEK whose partner went: %s", g->line);
	tc_send(g, "SEEK freestyle 15 none any casual none");
	CHECK(answer(g, "SEEK", 3000) && strncmp(g->line, "OK SEEK", 7) == 0,
	    "seeking again after: %s", g->line);
	REQUIRE(tc_pg_ctl("pause") == 0, "cannot pause PostgreSQL");
	tc_send(h, "SEEK freestyle 15 none any casual none");
	CHECK(!tc_read(h, 500), "SEEK answered before its game's row: %s", h->line);
	tc_close(h); /* the new seeker goes while its connection is held */
	usleep(300 * 1000);
	REQUIRE(tc_pg_ctl("resume") == 0, "cannot resume PostgreSQL");
	l = tc_read(g, 1500);
	CHECK(!l, "the older seeker heard of a game whose other player went: %s", l);
	tc_send(g, "CANCEL");
	CHECK(answer(g, "CANCEL", 3000) && strncmp(g->line, "OK CANCEL", 9) == 0,
	    "the older seeker's seek is not open again: %s", g->line);
	tc_close(g);
	ok("a player gone while the start is stored, either one: nothing starts, the older "
	   "seek is open again (the other player's start is refused with 445)");

	/* the same from a browser: a WebSocket held while its start is stored */
	struct tc *q = ws_guest(d0.port, "lea"), *v = tc_guest(d0.port, "max");
	REQUIRE(q && v, "cannot connect (a WebSocket and a line client)");
	tc_send(v, "SEEK freestyle 15 none any casual none");
	CHECK(answer(v, "SEEK", 3000) && strncmp(v->line, "OK SEEK", 7) == 0, "SEEK: %s", v->line);
	REQUIRE(tc_pg_ctl("pause") == 0, "cannot pause PostgreSQL");
	ws_line(q, "SEEK freestyle 15 none any casual none");
	usleep(500 * 1000); /* its start is in flight at the paused store */
	tc_close(q);
	usleep(300 * 1000);
	REQUIRE(tc_pg_ctl("resume") == 0, "cannot resume PostgreSQL");
	l = tc_read(v, 1500);
	CHECK(!l, "the older seeker heard of a game whose browser went: %s", l);
	tc_send(v, "CANCEL");
	CHECK(answer(v, "CANCEL", 3000) && strncmp(v->line, "OK CANCEL", 9) == 0,
	    "the older seeker's seek is not open again: %s", v->line);
	tc_close(v);
	ok("a browser gone while its start is stored: nothing starts, the older seek is open "
	   "again");

	/* a shutdown while a start is in flight: the store thread's answer
	 * is dropped (archive_stop), the room and its pairing go with it */
	tc_send(e, "SEEK freestyle 15 none any casual none");
	CHECK(answer(e, "SEEK", 3000) && strncmp(e->line, "OK SEEK", 7) == 0, "SEEK: %s", e->line);
	REQUIRE(tc_pg_ctl("pause") == 0, "cannot pause PostgreSQL");
	tc_send(y, "SEEK freestyle 15 none any casual none");
	CHECK(!tc_read(y, 500), "SEEK answered before its game's row: %s", y->line);
	CHECK(kill(d0.pid, SIGTERM) == 0, "cannot signal the daemon");
	sleep(3); /* past its drain: it waits for the store thread now */
	REQUIRE(tc_pg_ctl("resume") == 0, "cannot resume PostgreSQL");
	CHECK(daemon_stop(&d0, 0, 10000) == 0, "the daemon did not exit cleanly");
	CHECK(daemon_log_count(&d0, "start dropped at shutdown") == 1,
	    "no start was in flight at the shutdown (log %s)", d0.log);
	ok("SIGTERM while a start is stored: the answer dropped, a clean exit");
	tc_close(a);
	tc_close(b);
	tc_close(c);
	tc_close(e);
	tc_close(x);
	tc_close(y);
	tc_close(w);
	CHECK(
	    daemon_log_count(&d0, "Sanitizer") == 0 && daemon_log_count(&d0, "runtime error") == 0,
	    "a sanitizer report in %s", d0.log);
	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf %s", d0.dir);
	if (!failures && system(cmd) != 0)
		printf("could not remove the test directory\n");
}

/* Paused backends and nothing in flight for the game: a LOGIN, STATS/TOP/
 * HISTORY and a GUEST wait for the store on their connections, while the
 * players of the game in progress are served (PING, WHO, SAY: the loop
 * waits for no database); resumed, the held requests are answered in
 * order. *login is the connection now logged in as carl (an admin). */
static void
test_held(struct tc *a, struct tc *b, const char *room, struct tc **login)
{
	struct tc *r = tc_open(d1.port, 1);
	REQUIRE(r, "cannot connect");
	tc_send(r, "REGISTER carl secret1");
	REQUIRE(tc_expect(r, "OK REGISTER carl", 5000), "REGISTER: %s", r->line);
	tc_close(r);
	struct tc *l = tc_open(d1.port, 1), *q = tc_guest(d1.port, "dan"), *g = tc_open(d1.port, 1);
	REQUIRE(l && q && g, "cannot connect");

	REQUIRE(tc_pg_ctl("pause") == 0, "cannot pause PostgreSQL");
	tc_send(l, "LOGIN carl secret1");
	tc_send(q, "STATS carl");
	tc_send(q, "TOP freestyle");
	tc_send(q, "HISTORY carl");
	tc_send(g, "GUEST");
	tc_send(a, "PING free");
	CHECK(tc_expect(a, "OK PING", 2000), "no PING answer while the store hangs: %s", a->line);
	tc_send(a, "WHO");
	CHECK(tc_expect(a, "OK WHO", 2000), "no WHO answer while the store hangs: %s", a->line);
	tc_send(b, "SAY %s still here", room);
	CHECK(tc_expect(b, "OK SAY", 2000), "no SAY answer while the store hangs: %s", b->line);
	CHECK(tc_expect(a, "* SAY", 2000), "the opponent did not hear the SAY: %s", a->line);
	CHECK(!tc_read(l, 300), "LOGIN answered before the store: %s", l->line);
	CHECK(!tc_read(q, 300), "STATS answered before the store: %s", q->line);
	CHECK(!tc_read(g, 300), "GUEST answered before its session was stored: %s", g->line);
	ok("store paused: LOGIN, STATS/TOP/HISTORY and GUEST wait, the game's players are served");

	REQUIRE(tc_pg_ctl("resume") == 0, "cannot resume PostgreSQL");
	CHECK(tc_expect(l, "OK LOGIN carl", 5000), "the held LOGIN: %s", l->line);
	const char *line = tc_read(q, 5000);
	CHECK(line && strncmp(line, "= STAT carl", 11) == 0, "the held STATS, first: %s", q->line);
	CHECK(tc_expect(q, "OK STATS 3", 3000), "the held STATS: %s", q->line);
	CHECK(tc_expect(q, "OK TOP", 3000), "the held TOP: %s", q->line);
	CHECK(tc_expect(q, "OK HISTORY 0 0", 3000), "the held HISTORY: %s", q->line);
	CHECK(tc_expect(g, "OK GUEST guest", 3000), "the held GUEST: %s", g->line);
	ok("store back: the held requests answered, each connection in its order");
	tc_close(q);
	tc_close(g);
	*login = l;

	/* an undo is a write: accepted while paused, the room waits for it
	 * (the opponent hears nothing), the loop does not */
	unsigned id = 0;
	tc_send(a, "OFFER %s undo", room);
	line = tc_expect(a, "OK OFFER", 3000);
	CHECK(line && sscanf(line, "OK OFFER %*s %u", &id) == 1, "OFFER: %s", a->line);
	CHECK(tc_expect(b, "* OFFER", 3000), "no * OFFER: %s", b->line);
	REQUIRE(tc_pg_ctl("pause") == 0, "cannot pause PostgreSQL");
	tc_send(b, "ACCEPT %s %u", room, id);
	tc_send(l, "PING undo");
	CHECK(tc_expect(l, "OK PING", 2000), "no PING answer while an undo hangs: %s", l->line);
	CHECK(!tc_read(b, 300), "the undo answered before its commit: %s", b->line);
	CHECK(!tc_read(a, 300), "the undo said before its commit: %s", a->line);
	REQUIRE(tc_pg_ctl("resume") == 0, "cannot resume PostgreSQL");
	CHECK(tc_expect(b, "* UNDO", 5000), "no * UNDO after the commit: %s", b->line);
	char want[64];
	snprintf(want, sizeof want, "OK ACCEPT %s %u", room, id);
	CHECK(tc_expect(b, want, 3000), "the held ACCEPT: %s", b->line);
	CHECK(tc_expect(a, "* UNDO", 3000), "the offerer saw no * UNDO: %s", a->line);
	ok("an undo on the store thread: said and answered after its commit, the loop free");

	/* a ban is a write: the admin waits for the store, the banned guest
	 * is sent off when it is stored, and the loop serves everyone meanwhile */
	struct tc *v = tc_guest(d1.port, "vic");
	REQUIRE(v, "cannot connect");
	REQUIRE(tc_pg_ctl("pause") == 0, "cannot pause PostgreSQL");
	tc_send(l, "BAN vic 1h spam");
	tc_send(l, "MOTD welcome back");
	tc_send(a, "PING ban");
	CHECK(tc_expect(a, "OK PING", 2000), "no PING answer while a BAN hangs: %s", a->line);
	tc_send(v, "PING banned");
	CHECK(tc_expect(v, "OK PING", 2000), "vic was sent off before the ban was stored: %s",
	    v->line);
	CHECK(!tc_read(l, 300), "BAN answered before the store: %s", l->line);
	REQUIRE(tc_pg_ctl("resume") == 0, "cannot resume PostgreSQL");
	CHECK(tc_expect(l, "OK BAN vic", 5000), "the held BAN: %s", l->line);
	CHECK(tc_expect(l, "OK MOTD", 3000), "the MOTD after it: %s", l->line);
	CHECK(tc_expect(v, "* KICKED banned", 3000), "vic was not sent off: %s", v->line);
	tc_send(l, "UNBAN vic");
	CHECK(tc_expect(l, "OK UNBAN vic", 3000), "UNBAN: %s", l->line);
	tc_send(l, "BANS");
	CHECK(tc_expect(l, "OK BANS 0", 3000), "the ban outlived its UNBAN: %s", l->line);
	tc_close(v);
	ok("a BAN and a MOTD on the store thread: answered after the store, the loop free");
}

/* PostgreSQL stopped: requests that need the store get 508 and change
 * nothing (l is logged in as carl, an admin; ben is online). */
static void
test_refused(struct tc *l, struct tc *b)
{
	struct tc *n = tc_open(d1.port, 1);
	REQUIRE(n, "cannot connect");
	tc_send(n, "LOGIN carl secret1");
	CHECK(tc_expect(n, "ERR 508", 5000), "LOGIN with PostgreSQL down: %s", n->line);
	tc_send(n, "GUEST carl2");
	CHECK(tc_expect(n, "ERR 508", 5000), "a named GUEST with PostgreSQL down: %s", n->line);
	tc_send(n, "LOGOUT");
	CHECK(tc_expect(n, "ERR 410", 3000), "refused, yet signed in: %s", n->line);
	tc_close(n);
	tc_send(l, "STATS");
	CHECK(tc_expect(l, "ERR 508", 5000), "STATS with PostgreSQL down: %s", l->line);
	tc_send(l, "HISTORY");
	CHECK(tc_expect(l, "ERR 508", 5000), "HISTORY with PostgreSQL down: %s", l->line);
	tc_send(l, "TOP renju");
	CHECK(tc_expect(l, "ERR 508", 5000), "TOP with PostgreSQL down: %s", l->line);
	tc_send(l, "BAN ben 1h spam");
	CHECK(tc_expect(l, "ERR 508", 5000), "BAN with PostgreSQL down: %s", l->line);
	tc_send(l, "BAN mallory 1h");
	CHECK(tc_expect(l, "ERR 508", 5000), "BAN of a name to look up: %s", l->line);
	tc_send(l, "MOTD hello");
	CHECK(tc_expect(l, "ERR 508", 5000), "MOTD with PostgreSQL down: %s", l->line);
	tc_send(l, "BANS");
	CHECK(tc_expect(l, "OK BANS 0", 3000), "a refused BAN is in force: %s", l->line);
	tc_send(b, "PING unbanned");
	CHECK(tc_expect(b, "OK PING", 3000), "ben was dropped by a refused BAN: %s", b->line);
	ok("PostgreSQL down: LOGIN, GUEST, STATS, HISTORY, TOP, BAN, MOTD get 508, nothing "
	   "changed");
}

static void
test_outage(void)
{
	char room[24], code[64], token[80], state[200], conf[300];
	REQUIRE(daemon_start(&d1, GOMOKUD_BIN, "grace 300\nadmins carl") == 0, "no daemon (log %s)",
	    d1.log);
	snprintf(state, sizeof state, "%s/state", d1.dir);
	struct tc *a = tc_guest(d1.port, "ann"), *b = tc_guest(d1.port, "ben");
	REQUIRE(a && b, "cannot connect");
	snprintf(token, sizeof token, "%s", a->token);
	tc_send(a, "CREATE freestyle 15 600+5 black casual none");
	const char *l = tc_expect(a, "OK CREATE", 3000);
	REQUIRE(l && sscanf(l, "OK CREATE %23s %63s", room, code) == 2, "CREATE: %s", a->line);
	tc_send(b, "JOIN %s", code);
	REQUIRE(tc_expect(b, "* START", 3000) && tc_expect(a, "* START", 3000), "no START");
	int k = 0;
	for (; k < 4; k++)
		REQUIRE(play(k % 2 ? b : a, k % 2 ? a : b, room, k) == 0, "move %d: %s", k,
		    (k % 2 ? b : a)->line);
	ok("four moves on PostgreSQL");
	struct tc *admin = NULL;
	test_held(a, b, room, &admin);
	REQUIRE(admin, "no admin connection");
	/* the undo took back two plies: play them again */
	for (k = 2; k < 4; k++)
		REQUIRE(play(k % 2 ? b : a, k % 2 ? a : b, room, k) == 0, "move %d again: %s", k,
		    (k % 2 ? b : a)->line);

	/* a commit in flight: the room waits, the loop does not (x came in
	 * before: a GUEST's session is still stored from the loop) */
	struct tc *x = tc_guest(d1.port, "cal");
	REQUIRE(tc_pg_ctl("pause") == 0, "cannot pause PostgreSQL");
	tc_send(a, "MOVE %s %s", room, moves[k]);
	tc_send(b, "STATE %s", room);
	CHECK(!tc_read(a, 700), "a line before the commit: %s", a->line);
	CHECK(!tc_read(b, 300), "the opponent heard before the commit: %s", b->line);
	CHECK(x, "another player could not come in");
	if (x) {
		tc_send(x, "PING busy");
		CHECK(tc_expect(x, "OK PING", 2000), "no PING answer while the commit hangs");
		tc_close(x);
	}
	REQUIRE(tc_pg_ctl("resume") == 0, "cannot resume PostgreSQL");
	l = tc_read(a, 5000);
	CHECK(l && strncmp(l, "* MOVE", 6) == 0, "after the commit, first: %s", a->line);
	CHECK(tc_expect(a, "OK MOVE", 3000), "no OK MOVE after the commit: %s", a->line);
	l = tc_read(b, 3000);
	CHECK(l && strncmp(l, "* MOVE", 6) == 0, "the opponent's first line: %s", b->line);
	l = tc_expect(b, "OK STATE", 3000);
	CHECK(l, "the waiting STATE was not answered: %s", b->line);
	k++;
	ok("a commit in flight: nothing said before it, the room's next request after it, "
	   "other players served meanwhile");

	REQUIRE(tc_pg_ctl("stop") == 0, "cannot stop PostgreSQL");
	struct tc *p = k % 2 ? b : a, *q = k % 2 ? a : b; /* to move, and the other */
	tc_send(p, "MOVE %s %s", room, moves[k]);
	l = tc_expect(p, "ERR", 5000);
	CHECK(l && strstr(l, "508"), "a move with PostgreSQL down: %s", p->line);
	CHECK(!tc_expect(q, "* MOVE", 500), "the opponent saw a move that was not stored");
	tc_send(p, "MOVE %s %s", room, moves[k]);
	CHECK(tc_expect(p, "ERR 508", 5000), "a second try while down: %s", p->line);
	ok("PostgreSQL down: 508 store-unavailable, no event");
	test_refused(admin, b);
	tc_close(admin);
	/* accepting an undo or a draw is a write: refused, the offer stands */
	const char *kinds[] = { "undo", "draw" };
	for (int i = 0; i < 2; i++) {
		unsigned id = 0;
		tc_send(p, "OFFER %s %s", room, kinds[i]);
		l = tc_expect(p, "OK OFFER", 3000);
		CHECK(l && sscanf(l, "OK OFFER %*s %u", &id) == 1, "OFFER: %s", p->line);
		CHECK(tc_expect(q, "* OFFER", 3000), "no * OFFER: %s", q->line);
		tc_send(q, "ACCEPT %s %u", room, id);
		CHECK(tc_expect(q, "ERR 508", 5000), "ACCEPT %s with PostgreSQL down: %s", kinds[i],
		    q->line);
		tc_send(q, "DECLINE %s %u", room, id);
		CHECK(tc_expect(q, "OK DECLINE", 3000), "the %s offer did not stand: %s", kinds[i],
		    q->line);
	}
	ok("PostgreSQL down: accepting an undo or a draw gets 508, the offer stands");

	REQUIRE(tc_pg_ctl("start") == 0, "cannot start PostgreSQL again");
	int taken = 0;
	for (int t = 0; t < 40 && !taken; t++) { /* the reconnect backs off up to 2 s */
		tc_send(p, "MOVE %s %s", room, moves[k]);
		l = tc_read(p, 3000);
		taken = l && strncmp(l, "* MOVE", 6) == 0;
		if (taken)
			taken = tc_expect(p, "OK MOVE", 3000) != NULL;
		else
			usleep(250 * 1000);
	}
	REQUIRE(taken, "no move after PostgreSQL came back: %s", p->line);
	CHECK(tc_expect(q, "* MOVE", 3000), "the opponent did not see the move");
	k++;
	REQUIRE(play(q, p, room, k) == 0, "the next move: %s", q->line);
	k++;
	ok("PostgreSQL back: the daemon reconnected by itself, play goes on");

	REQUIRE(daemon_stop(&d1, SIGKILL, 5000) >= 0 || !daemon_alive(&d1), "not killed");
	tc_close(a);
	tc_close(b);
	snprintf(conf, sizeof conf, "state-dir %s\ngrace 300", state);
	REQUIRE(daemon_start(&d2, GOMOKUD_BIN, conf) == 0, "no restart (log %s)", d2.log);
	struct tc *c = tc_open(d2.port, 1), *y = tc_open(d2.port, 1);
	REQUIRE(c && y, "cannot reconnect");
	/* the stored session is looked up on the store thread: paused, the
	 * RESUME waits and the loop serves the others */
	REQUIRE(tc_pg_ctl("pause") == 0, "cannot pause PostgreSQL");
	tc_send(c, "RESUME %s %s 0", token, room);
	CHECK(!tc_read(c, 700), "RESUME answered before its lookup: %s", c->line);
	tc_send(y, "PING lookup");
	CHECK(tc_expect(y, "OK PING", 2000), "no PING answer while a RESUME's lookup hangs");
	tc_close(y);
	REQUIRE(tc_pg_ctl("resume") == 0, "cannot resume PostgreSQL");
	char got[256] = "", want[256] = "";
	while ((l = tc_read(c, 5000)) && strncmp(l, "OK RESUME", 9) != 0 && strncmp(l, "ERR", 3))
		if (strncmp(l, "= MOVES", 7) == 0) {
			const char *sp = strrchr(l, ' ');
			snprintf(got + strlen(got), sizeof got - strlen(got), "%s", sp + 1);
		}
	for (int i = 0; i < k; i++)
		snprintf(want + strlen(want), sizeof want - strlen(want), "%s%s", i ? "," : "",
		    moves[i]);
	CHECK(l && strncmp(l, "OK RESUME", 9) == 0, "RESUME: %s", c->line);
	CHECK(strcmp(got, want) == 0, "after kill -9: moves %s, acknowledged %s", got, want);
	ok("kill -9 after the outage: every acknowledged move is back");

	/* the end of a game is a write too: refused while down, then taken */
	REQUIRE(tc_pg_ctl("stop") == 0, "cannot stop PostgreSQL");
	tc_send(c, "RESIGN %s", room);
	CHECK(tc_expect(c, "ERR 508", 5000), "RESIGN with PostgreSQL down: %s", c->line);
	REQUIRE(tc_pg_ctl("start") == 0, "cannot start PostgreSQL again");
	int over = 0;
	for (int t = 0; t < 40 && !over; t++) {
		tc_send(c, "RESIGN %s", room);
		l = tc_read(c, 3000);
		over = l && strncmp(l, "* OVER", 6) == 0;
		if (over)
			over = tc_expect(c, "OK RESIGN", 3000) != NULL;
		else
			usleep(250 * 1000);
	}
	CHECK(over, "no RESIGN after PostgreSQL came back: %s", c->line);
	ok("RESIGN: 508 while down, * OVER then OK RESIGN once it is back");
	tc_close(c);
	CHECK(daemon_stop(&d2, SIGTERM, 10000) == 0, "the restarted daemon did not exit cleanly");
	/* the killed daemon never reached its exit: its log holds any report */
	CHECK(
	    daemon_log_count(&d1, "Sanitizer") == 0 && daemon_log_count(&d1, "runtime error") == 0,
	    "a sanitizer report in %s", d1.log);
	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf %s %s", d1.dir, d2.dir);
	if (!failures && system(cmd) != 0) /* kept when something failed */
		printf("could not remove the test directories\n");
}

int
main(void)
{
	if (!getenv("GOMOKU_PG_URL") || !getenv("GOMOKU_PG_CTL") || !getenv("GOMOKU_PG_DIR")) {
		printf("FAIL: run by tests/pg/test_pg.sh, which starts PostgreSQL\n");
		return 1;
	}
	test_starts();
	if (d0.pid > 0 && daemon_alive(&d0))
		daemon_stop(&d0, SIGKILL, 2000);
	test_outage();
	/* a REQUIRE that failed returned with a daemon still up */
	if (d1.pid > 0 && daemon_alive(&d1))
		daemon_stop(&d1, SIGKILL, 2000);
	if (d2.pid > 0 && daemon_alive(&d2))
		daemon_stop(&d2, SIGKILL, 2000);
	printf("%s\n", failures ? "FAILED" : "all passed");
	return failures != 0;
}
