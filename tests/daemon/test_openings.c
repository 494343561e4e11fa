/*
 * test_openings: the opening rules on the real daemon (issue 46,
 * PROTOCOL.md 5.16), two TLS players per game. Each rule's opening is
 * played through OPENING requests: every * OPENING event is checked field
 * by field (stage, who acts, the colour they hold, the area, the count,
 * the renju opening, the offers), every kind of refusal gets its code, the
 * seats follow the colours taken, * COLOURS ends the opening and MOVE then
 * goes on, whose turn it is checked. Then gomokud is killed (SIGKILL) with
 * openings half played, started again on the same state, and each resumes
 * at the same stage with the same colours, count and offers (= OPENING).
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

/* Requests come faster here than a person's */
#define RATE "rate-per-second 1000\nrate-burst 1000"

static struct daemon d1, d2;

/* One game: p[0] created it (the opener, black at START), p[1] joined. */
struct game {
	struct tc *p[2];
	char token[2][80];
	char room[24];
	long seq;
};

/* g's "* OPENING" or "* COLOURS" line l, without the room and seq, into
 * out: "swap bob white - 0 d3 -", or "COLOURS alice bob"; 0, or -1 when l
 * is neither. */
static int
stage_of(struct game *g, const char *l, char *out, size_t n)
{
	char room[24];
	long seq;
	int at = 0;
	if (sscanf(l, "* OPENING %23s %ld %n", room, &seq, &at) == 2 && at > 0 &&
	    strcmp(room, g->room) == 0) {
		g->seq = seq;
		snprintf(out, n, "%s", l + at);
		return 0;
	}
	if (sscanf(l, "* COLOURS %23s %ld %n", room, &seq, &at) == 2 && at > 0 &&
	    strcmp(room, g->room) == 0) {
		g->seq = seq;
		snprintf(out, n, "COLOURS %s", l + at);
		return 0;
	}
	return -1;
}

/* The code of c's next reply: an ERR's code, 0 for an OK, -1 for none.
 * Events before it are skipped; the last stage among them into stage. */
static int
reply_code(struct game *g, struct tc *c, char *stage, size_t n)
{
	const char *l;
	int code;
	snprintf(stage, n, "(nothing)");
	while ((l = tc_read(c, LINE_MS)) && strncmp(l, "OK ", 3) != 0 && strncmp(l, "ERR ", 4) != 0)
		stage_of(g, l, stage, n);
	if (!l)
		return -1;
	if (l[0] == 'O')
		return 0;
	return sscanf(l + 4, "%d", &code) == 1 ? code : -1;
}

/* c's next stage line of g's room (stage_of), or "(nothing)". */
static const char *
next_stage(struct game *g, struct tc *c)
{
	static char out[256];
	const char *l;
	while ((l = tc_read(c, LINE_MS)))
		if (stage_of(g, l, out, sizeof out) == 0)
			return out;
	return "(nothing)";
}

/* Player who of g sends "OPENING <act>" (the room put in after the verb's
 * first word): it must be answered want (0: OK); after an OK both players
 * must see the stage `then` (with the names "P0"/"P1" put in). */
static void
act(struct game *g, int who, const char *req, int want, const char *then)
{
	char verb[16], args[128] = "", expect[256];
	if (sscanf(req, "%15s %127[^\n]", verb, args) < 1)
		return;
	tc_send(g->p[who], "OPENING %s %s %s", verb, g->room, args);
	char seen[256];
	int got = reply_code(g, g->p[who], seen, sizeof seen);
	CHECK(got == want, "%s: OPENING %s %s answered %d, want %d (%s)", g->room, verb, args, got,
	    want, g->p[who]->line);
	if (got != 0 || !then)
		return;
	/* P0, P1 as the players' names */
	size_t k = 0;
	for (const char *s = then; *s && k < sizeof expect - 24; s++) {
		if (s[0] == 'P' && (s[1] == '0' || s[1] == '1')) {
			k += (size_t)snprintf(
			    expect + k, sizeof expect - k, "%s", g->p[s[1] - '0']->name);
			s++;
		} else {
			expect[k++] = *s;
		}
	}
	expect[k] = '\0';
	for (int i = 0; i < 2; i++) {
		/* the actor has it before the reply */
		const char *st = i == who ? seen : next_stage(g, g->p[i]);
		CHECK(strcmp(st, expect) == 0, "%s: after OPENING %s %s, %s saw '%s', want '%s'",
		    g->room, verb, args, g->p[i]->name, st, expect);
	}
}

/* A MOVE by who: answered want. */
static void
move(struct game *g, int who, const char *mv, int want)
{
	char seen[256];
	tc_send(g->p[who], "MOVE %s %s", g->room, mv);
	int got = reply_code(g, g->p[who], seen, sizeof seen);
	CHECK(got == want, "%s: MOVE %s by %s answered %d, want %d (%s)", g->room, mv,
	    g->p[who]->name, got, want, g->p[who]->line);
}

/* Two guests, P0 creating the room with opening rule and P1 joining: both
 * see * START and the first stage, first. */
static int
game_start(struct game *g, int port, const char *tag, const char *rule, const char *opening,
    const char *first)
{
	char name[24], code[64];
	memset(g, 0, sizeof *g);
	for (int i = 0; i < 2; i++) {
		snprintf(name, sizeof name, "%s%d", tag, i);
		g->p[i] = tc_guest(port, name);
		if (!g->p[i]) {
			CHECK(0, "%s: cannot connect", name);
			return -1;
		}
		snprintf(g->token[i], sizeof g->token[i], "%s", g->p[i]->token);
	}
	tc_send(g->p[0], "CREATE %s 15 none black casual %s", rule, opening);
	const char *l = tc_expect(g->p[0], "OK CREATE", LINE_MS);
	if (!l || sscanf(l, "OK CREATE %23s %63s", g->room, code) != 2) {
		CHECK(0, "%s: CREATE %s %s: %s", tag, rule, opening, g->p[0]->line);
		return -1;
	}
	tc_send(g->p[1], "JOIN %s", code);
	for (int i = 0; i < 2; i++) {
		/* * START, the first stage, and P1's OK JOIN in whatever order */
		char st[256] = "(nothing)", expect[160], want[80];
		int started = 0, joined = i == 0;
		const char *ln;
		snprintf(want, sizeof want, "* START %s ", g->room);
		while ((!started || !joined || strcmp(st, "(nothing)") == 0) &&
		    (ln = tc_read(g->p[i], LINE_MS))) {
			started |= strncmp(ln, want, strlen(want)) == 0;
			joined |= strncmp(ln, "OK JOIN", 7) == 0;
			stage_of(g, ln, st, sizeof st);
		}
		snprintf(expect, sizeof expect, first, g->p[0]->name);
		CHECK(started && joined, "%s: no START or OK JOIN for %s: %s", tag, g->p[i]->name,
		    g->p[i]->line);
		CHECK(strcmp(st, expect) == 0, "%s: first stage '%s', want '%s'", tag, st, expect);
	}
	return 0;
}

static void
game_close(struct game *g)
{
	for (int i = 0; i < 2; i++)
		tc_close(g->p[i]);
}

/* Soosorv-8 whole, with every kind of refusal on the way. */
static void
test_soosorv8(int port)
{
	struct game g;
	if (game_start(&g, port, "soo", "renju", "soosorv8", "place %s black centre 0 - -"))
		return;
	move(&g, 0, "h8", 441);                /* MOVE during an opening */
	act(&g, 1, "place h8", 431, NULL);     /* not P1's turn */
	act(&g, 0, "colour black", 441, NULL); /* not an act of this stage */
	act(&g, 0, "place h9", 437, NULL);     /* outside the centre */
	act(&g, 0, "place h8", 0, "place P0 black in3 0 - -");
	act(&g, 0, "place h8", 432, NULL); /* occupied */
	act(&g, 0, "place j10", 437, NULL);
	act(&g, 0, "place h9", 0, "place P0 black in5 0 - -");
	act(&g, 0, "place j10", 0, "swap P1 white - 0 d3 -"); /* D3, Sosei */
	act(&g, 1, "declare 3", 441, NULL);
	act(&g, 1, "colour black", 0, "place P0 white any 0 d3 -"); /* P1 swapped */
	act(&g, 0, "place g7", 0, "declare P0 white - 8 d3 -");
	act(&g, 0, "declare 9", 438, NULL);
	act(&g, 0, "declare 3", 0, "swap P1 black - 3 d3 -");
	act(&g, 1, "colour white", 0, "offer P0 black any 3 d3 -"); /* and back */
	act(&g, 0, "offer e5,l12", 438, NULL);
	act(&g, 0, "offer e5,e5,c3", 439, NULL);
	act(&g, 0, "offer e5,h8,c3", 432, NULL);
	act(&g, 0, "offer e5,l12,c3", 0, "choose P1 white offers 3 d3 e5,l12,c3");
	act(&g, 1, "choose a1", 451, NULL);
	act(&g, 0, "choose l12", 431, NULL);
	act(&g, 1, "choose l12", 0, "COLOURS P0 P1");
	move(&g, 0, "a1", 431); /* white (P1) moves sixth */
	move(&g, 1, "a1", 0);
	move(&g, 0, "b1", 0);
	game_close(&g);
	ok("soosorv8: every stage, every refusal, the seats follow the colours taken");
}

/* RIF, Yamaguchi, pro, long pro, swap and swap2's lines unchanged: each
 * opening whole, with the refusals particular to it. */
static void
test_others(int port)
{
	struct game g;
	if (!game_start(&g, port, "rif", "renju", "rif", "place %s black centre 0 - -")) {
		act(&g, 0, "place h8", 0, "place P0 black in3 0 - -");
		act(&g, 0, "place i9", 0, "place P0 black in5 0 - -");
		act(&g, 0, "place j10", 0, "swap P1 white - 0 i1 -"); /* I1, Chosei */
		act(&g, 1, "colour white", 0, "place P1 white any 0 i1 -");
		act(&g, 1, "place a1", 0, "offer P0 black any 2 i1 -");
		act(&g, 0, "offer j8,h10", 439, NULL); /* the same by the diagonal */
		act(&g, 0, "offer k11,b2", 0, "choose P1 white offers 2 i1 k11,b2");
		act(&g, 1, "choose b2", 0, "COLOURS P0 P1");
		move(&g, 1, "c3", 0);
		game_close(&g);
	}
	if (!game_start(&g, port, "yam", "renju", "yamaguchi", "place %s black centre 0 - -")) {
		act(&g, 0, "place h8", 0, "place P0 black in3 0 - -");
		act(&g, 0, "place h9", 0, "place P0 black in5 0 - -");
		act(&g, 0, "place h10", 0, "declare P0 black - 10 d1 -"); /* D1, Kansei */
		act(&g, 0, "declare 2", 0, "swap P1 white - 2 d1 -");
		act(&g, 1, "colour black", 0, "place P0 white any 2 d1 -");
		act(&g, 0, "place a1", 0, "offer P1 black any 2 d1 -");
		act(&g, 1, "offer o15,o14", 0, "choose P0 white offers 2 d1 o15,o14");
		act(&g, 0, "choose o14", 0, "COLOURS P1 P0");
		move(&g, 0, "b1", 0); /* P0 is white now, and moves sixth */
		game_close(&g);
	}
	if (!game_start(&g, port, "pro", "freestyle", "pro", "place %s black centre 0 - -")) {
		act(&g, 0, "place h8", 0, "place P1 white any 0 - -");
		act(&g, 1, "place h9", 0, "place P0 black out5 0 - -");
		act(&g, 0, "place j10", 437, NULL); /* within the central 5x5 */
		act(&g, 0, "place l12", 0, "COLOURS P0 P1");
		move(&g, 1, "a1", 0);
		game_close(&g);
	}
	if (!game_start(&g, port, "lpr", "standard", "longpro", "place %s black centre 0 - -")) {
		act(&g, 0, "place h8", 0, "place P1 white any 0 - -");
		act(&g, 1, "place h9", 0, "place P0 black out7 0 - -");
		act(&g, 0, "place k11", 437, NULL); /* within the central 7x7 */
		act(&g, 0, "place l12", 0, "COLOURS P0 P1");
		game_close(&g);
	}
	if (!game_start(&g, port, "swp", "freestyle", "swap", "place %s black any 0 - -")) {
		act(&g, 0, "place a1", 0, "place P0 black any 0 - -");
		act(&g, 0, "place o15", 0, "place P0 black any 0 - -");
		act(&g, 0, "place h8", 0, "swap P1 white - 0 - -");
		act(&g, 1, "branch one", 441, NULL);
		act(&g, 1, "colour black", 0, "COLOURS P1 P0");
		move(&g, 0, "b2", 0); /* P0 took white: the fourth is theirs */
		game_close(&g);
	}
	/* swap2 keeps its own lines: OPENING is not its request */
	if (!game_start(&g, port, "sw2", "freestyle", "swap2", "(nothing)")) {
		act(&g, 0, "place h8", 441, NULL);
		game_close(&g);
	}
	ok("rif, yamaguchi, pro, longpro, swap played whole; swap2 keeps SWAP2");
}

/* RESUMEs token into g's room on port: the = OPENING line of its snapshot
 * (without the room), or "" when it has none; the moves in moves. */
static const char *
resume(struct game *g, int i, int port, char *moves, size_t n)
{
	static char stage[256];
	stage[0] = '\0';
	moves[0] = '\0';
	struct tc *c = tc_open(port, 1);
	if (!c) {
		CHECK(0, "%s: cannot reconnect", g->room);
		return "";
	}
	snprintf(c->name, sizeof c->name, "%s", g->p[i]->name);
	tc_close(g->p[i]);
	g->p[i] = c;
	tc_send(c, "RESUME %s %s %ld", g->token[i], g->room, g->seq);
	const char *l;
	while ((l = tc_read(c, 5000)) && strncmp(l, "OK RESUME", 9) != 0 &&
	    strncmp(l, "ERR", 3) != 0) {
		char room[24], list[1024];
		int k, at;
		if (sscanf(l, "= OPENING %23s %n", room, &at) == 1)
			snprintf(stage, sizeof stage, "%s", l + at);
		if (sscanf(l, "= MOVES %23s %d %1023s", room, &k, list) == 3 && strcmp(list, "-"))
			snprintf(moves, n, "%s", list);
	}
	CHECK(l && strncmp(l, "OK RESUME", 9) == 0, "%s: RESUME: %s", g->room, c->line);
	return stage;
}

/* Openings half played when gomokud is killed resume at the same stage. */
static void
test_kill_mid_opening(void)
{
	struct game t, s;
	char conf[300], state[200], moves[1024];
	REQUIRE(daemon_start(&d1, GOMOKUD_BIN, RATE "\ngrace 300") == 0, "daemon did not start");
	snprintf(state, sizeof state, "%s/state", d1.dir);
	/* Taraguchi-10 to its ten offers */
	if (game_start(&t, d1.port, "tar", "renju", "taraguchi10", "place %s black centre 0 - -"))
		return;
	act(&t, 0, "place h8", 0, "swap P1 white - 0 - -");
	act(&t, 1, "colour black", 0, "place P0 white in3 0 - -"); /* P1 took black */
	act(&t, 0, "place i8", 0, "swap P1 black - 0 - -");
	act(&t, 1, "colour black", 0, "place P1 black in5 0 - -");
	act(&t, 1, "place k8", 437, NULL);
	act(&t, 1, "place j8", 0, "swap P0 white - 0 d1 -"); /* D1, Kansei */
	act(&t, 0, "colour white", 0, "place P0 white in7 0 d1 -");
	act(&t, 0, "place g5", 0, "branch P1 black - 0 d1 -");
	act(&t, 1, "branch ten", 0, "offer P1 black any 10 d1 -");
	act(&t, 1, "offer a1,a2,a3", 438, NULL);
	act(&t, 1, "offer a1,a2,a3,a4,a5,a6,a7,b2,b3,b4", 0,
	    "choose P0 white offers 10 d1 a1,a2,a3,a4,a5,a6,a7,b2,b3,b4");
	/* Soosorv-8 with a swap, a declaration and a swap back in its log */
	if (game_start(&s, d1.port, "sov", "renju", "soosorv8", "place %s black centre 0 - -"))
		return;
	act(&s, 0, "place h8", 0, "place P0 black in3 0 - -");
	act(&s, 0, "place i9", 0, "place P0 black in5 0 - -");
	act(&s, 0, "place i8", 0, "swap P1 white - 0 i6 -"); /* I6, Ungetsu */
	act(&s, 1, "colour black", 0, "place P0 white any 0 i6 -");
	act(&s, 0, "place g9", 0, "declare P0 white - 8 i6 -");
	act(&s, 0, "declare 5", 0, "swap P1 black - 5 i6 -");
	REQUIRE(daemon_stop(&d1, SIGKILL, 5000) >= 0 || !daemon_alive(&d1), "not killed");

	snprintf(conf, sizeof conf, RATE "\nstate-dir %s\ngrace 300", state);
	REQUIRE(daemon_start(&d2, GOMOKUD_BIN, conf) == 0, "restart failed (log %s)", d2.log);
	char want[256];
	snprintf(want, sizeof want, "choose %s white offers 10 d1 a1,a2,a3,a4,a5,a6,a7,b2,b3,b4",
	    t.p[0]->name);
	for (int i = 0; i < 2; i++) {
		const char *st = resume(&t, i, d2.port, moves, sizeof moves);
		CHECK(strcmp(st, want) == 0, "taraguchi after the restart: '%s', want '%s'", st,
		    want);
		CHECK(strcmp(moves, "h8,i8,j8,g5") == 0, "taraguchi's stones: %s", moves);
	}
	snprintf(want, sizeof want, "swap %s black - 5 i6 -", s.p[1]->name);
	for (int i = 0; i < 2; i++) {
		const char *st = resume(&s, i, d2.port, moves, sizeof moves);
		CHECK(
		    strcmp(st, want) == 0, "soosorv after the restart: '%s', want '%s'", st, want);
	}
	/* and both go on from there */
	act(&t, 1, "choose b3", 431, NULL);
	act(&t, 0, "choose b3", 0, "COLOURS P1 P0");
	move(&t, 0, "c5", 0);
	act(&s, 1, "colour black", 0, "offer P1 black any 5 i6 -");
	act(&s, 1, "offer a1,a15,o1,o15,c3", 0, "choose P0 white offers 5 i6 a1,a15,o1,o15,c3");
	act(&s, 0, "choose o15", 0, "COLOURS P1 P0");
	move(&s, 0, "b1", 0);
	game_close(&t);
	game_close(&s);
	ok("kill -9 mid-opening: each resumes at the same stage, colours, count and offers");
}

int
main(void)
{
	struct daemon d;
	if (daemon_start(&d, GOMOKUD_BIN, RATE) != 0) {
		printf("FAIL: gomokud did not start\n");
		return 1;
	}
	struct tc *c = tc_open(d.port, 0); /* its greeting, * SERVER, is the last line read */
	const char *l = c ? c->line : NULL;
	CHECK(l && strncmp(l, "* SERVER ", 9) == 0 && strstr(l, " openings"),
	    "* SERVER lists no openings: %s", l ? l : "-");
	tc_close(c);
	test_soosorv8(d.port);
	test_others(d.port);
	daemon_stop(&d, SIGTERM, 5000);
	test_kill_mid_opening();
	daemon_stop(&d2, SIGTERM, 5000);
	printf("openings: %d failed\n", failures);
	return failures ? 1 : 0;
}
