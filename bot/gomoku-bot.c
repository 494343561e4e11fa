/*
 * gomoku-bot.c: plays a gomokud account's games with a Gomocup brain
 * (issue 49; gomoku-bot(1)). It logs in, answers each challenge by the
 * config's filters (bot/filter.h), runs one brain per game (bot/brain.h)
 * with the server's clock in its INFO lines, relays the moves both ways,
 * resigns when the driver gives up on the brain, and after a dropped
 * connection or its own restart reconnects with backoff and RESUMEs its
 * games with the session token (kept in the state file), giving each
 * brain the position of the room's snapshot with BOARD.
 *
 * Every line to and from the server goes through the protocol library
 * (proto/proto.h). Logs go to stderr.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include <event2/event.h>

#include "bot/brain.h"
#include "bot/conf.h"
#include "bot/conn.h"
#include "bot/filter.h"
#include "bot/sandbox.h"
#include "proto/proto.h"

#define BOT_VERSION "0.1"

enum {
	GAMES_MAX = CONF_GAMES_MAX,
	BACKOFF_MAX_S = 30,
	PING_S = 60,
	FREE_MS = 2000,
	REFUSED_MAX = 3
};

/* Where the connection is. */
typedef enum { ST_DOWN, ST_GREETING, ST_HELLO, ST_LOGIN, ST_READY } state_t;

typedef struct bot bot_t;

typedef struct game {
	bot_t *bot;
	int used, slot;
	char room[PROTO_ROOM_MAX + 1];
	brain_t *b;
	int started;     /* brain_game was called */
	int over;        /* * OVER came: the brain is ended, the slot freed soon */
	int thinking;    /* the brain was asked for a move */
	int opening;     /* a swap2 opening is under way */
	int swap2_asked; /* SWAP2BOARD sent for this stage */
	rule_t rule;
	int size;
	int tc_base, tc_inc, rated;
	proto_opening_t op;
	stone_t ours; /* STONE_EMPTY until the colours are known */
	int64_t bms, wms;
	int nmoves; /* the moves as the server said them */
	move_t moves[RULES_CELLS];
	move_t pending; /* the brain's move, not yet seen as * MOVE */
	int resign;     /* to resign once connected */
	int refused;    /* the server's refusals of our moves in a row */
	int seated;     /* named by * SEATED on this login */
	struct event *claim, *reap;
} game_t;

/* A snapshot being read (= lines of STATE). */
typedef struct {
	int on;
	char room[PROTO_ROOM_MAX + 1];
	proto_status_t status;
	rule_t rule;
	int size, tc_base, tc_inc, rated;
	proto_opening_t op;
	char black[PROTO_NAME_MAX + 1], white[PROTO_NAME_MAX + 1];
	int64_t bms, wms;
	int nmoves;
	move_t moves[RULES_CELLS];
	int bad;
	int swap2;                           /* a = SWAP2 line came */
	proto_stage_t stage;                 /* its stage */
	char stage_user[PROTO_NAME_MAX + 1]; /* and whose */
} snap_t;

struct bot {
	struct event_base *base;
	bot_conf_t *conf;
	brain_conf_t bconf;
	conn_t *conn;
	state_t st;
	int verbose, stopping, away_cap, backoff_s, resume_tried;
	int botacct_cap; /* the server lists botaccounts (PROTOCOL.md 5.22) */
	int is_bot;      /* its STATS of itself began = BOT, or BOTUPGRADE said OK */
	int league_cap;  /* the server runs engine leagues (`league`) */
	char token[PROTO_TOKEN_MAX + 1];
	char me[PROTO_NAME_MAX + 1];
	game_t games[GAMES_MAX];
	snap_t snap;
	struct event *retry, *ping, *sigs[2];
	int rc;
};

static void logf_(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void
logf_(const char *fmt, ...)
{
	char ts[32];
	time_t t = time(NULL);
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(ts, sizeof ts, "%Y-%m-%dT%H:%M:%SZ", &tm);
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "%s gomoku-bot: ", ts);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	fflush(stderr);
}

/* Formats m and sends it; 0, or -1 when not connected or invalid. */
static int
send_msg(bot_t *bot, const proto_msg_t *m)
{
	char buf[PROTO_LINE_MAX + 1];
	int n = proto_format(m, buf, sizeof buf);
	if (n < 0) {
		logf_("cannot format a %s request (a field is invalid)", proto_name(m->id));
		return -1;
	}
	if (conn_send(bot->conn, buf, (size_t)n) != 0)
		return -1;
	if (bot->verbose) {
		if (m->id == PR_LOGIN || m->id == PR_RESUME || m->id == PR_BOTUPGRADE)
			logf_("> %s ...", proto_name(m->id));
		else
			logf_("> %.*s", n - 1, buf);
	}
	return 0;
}

static int
is_me(const bot_t *bot, const char *name)
{
	return name[0] && !strcasecmp(name, bot->me);
}

static int
games_now(const bot_t *bot)
{
	int n = 0;
	for (int i = 0; i < GAMES_MAX; i++)
		n += bot->games[i].used && !bot->games[i].over;
	return n;
}

static game_t *
find_game(bot_t *bot, const char *room)
{
	for (int i = 0; i < GAMES_MAX; i++)
		if (bot->games[i].used && !strcmp(bot->games[i].room, room))
			return &bot->games[i];
	return NULL;
}

/* ---- the session token, kept across restarts ---- */

static void
token_load(bot_t *bot)
{
	if (!bot->conf->state_file[0])
		return;
	FILE *f = fopen(bot->conf->state_file, "r");
	if (!f)
		return;
	char line[256];
	if (fgets(line, sizeof line, f)) {
		line[strcspn(line, "\r\n")] = '\0';
		size_t n = strlen(line);
		if (n >= PROTO_TOKEN_MIN && n <= PROTO_TOKEN_MAX)
			snprintf(bot->token, sizeof bot->token, "%s", line);
	}
	fclose(f);
}

static void
token_save(bot_t *bot)
{
	const char *path = bot->conf->state_file;
	if (!path[0])
		return;
	char tmp[600];
	snprintf(tmp, sizeof tmp, "%s.tmp", path);
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0) {
		logf_("cannot write %s: %s", tmp, strerror(errno));
		return;
	}
	char line[PROTO_TOKEN_MAX + 2];
	int n = snprintf(line, sizeof line, "%s\n", bot->token);
	if (write(fd, line, (size_t)n) != n || fsync(fd) != 0 || close(fd) != 0 ||
	    rename(tmp, path) != 0)
		logf_("cannot keep the session token in %s: %s", path, strerror(errno));
}

/* ---- games ---- */

static brain_clock_t
clock_of(const game_t *g)
{
	brain_clock_t k = { 0 };
	int64_t left = g->ours == STONE_WHITE ? g->wms : g->bms;
	int turn = g->bot->conf->turn_ms;
	if (g->tc_base == 0 || left < 0) {
		k.timeout_turn = turn;
		return k;
	}
	if (left > INT_MAX)
		left = INT_MAX;
	if (left < 1)
		left = 1;
	k.timeout_match = g->tc_base * 1000;
	k.time_left = (int)left;
	k.timeout_turn = left < turn ? (int)left : turn;
	return k;
}

static int
our_turn(const game_t *g)
{
	stone_t next = g->nmoves % 2 ? STONE_WHITE : STONE_BLACK;
	return !g->over && !g->opening && g->ours != STONE_EMPTY && next == g->ours;
}

static void
send_room(bot_t *bot, proto_id_t id, const game_t *g, const char *tag)
{
	proto_msg_t m;
	proto_init(&m, id, tag);
	snprintf(m.room, sizeof m.room, "%s", g->room);
	send_msg(bot, &m);
}

static void
resign(game_t *g, const char *why)
{
	logf_("game %s: resigning: %s", g->room, why);
	g->thinking = 0;
	g->resign = 1;
	if (g->bot->st == ST_READY && !g->over) {
		send_room(g->bot, PR_RESIGN, g, NULL);
		g->resign = 0;
	}
}

static void
send_move(game_t *g)
{
	bot_t *bot = g->bot;
	if (bot->st != ST_READY || g->pending == MOVE_NONE || g->over)
		return;
	proto_msg_t m;
	char tag[8];
	snprintf(tag, sizeof tag, "m%d", g->slot);
	proto_init(&m, PR_MOVE, tag);
	snprintf(m.room, sizeof m.room, "%s", g->room);
	notation_format(g->pending, g->size, m.move);
	send_msg(bot, &m);
}

/* The brain gets the game as the server has it, from scratch (BOARD when
 * it is to move). */
static void
restart_brain(game_t *g, const char *why)
{
	brain_clock_t k = clock_of(g);
	if (g->started)
		logf_("game %s: the brain gets the position again (%d moves): %s", g->room,
		    g->nmoves, why);
	g->pending = MOVE_NONE;
	g->thinking = 0;
	if (g->rule == RULE_RENJU && g->ours == STONE_BLACK && g->nmoves == 0 && !g->over) {
		/* renju's first stone goes on the centre (the server refuses it
		 * elsewhere, 437): played for the brain, which gets the game with
		 * BOARD at its first TURN */
		int c = g->size / 2;
		g->pending = rules_move(c, c);
		g->started = 0;
		logf_("game %s: renju's first stone on the centre", g->room);
		send_move(g);
		return;
	}
	if (brain_game(g->b, g->rule, g->size, g->ours, g->moves, g->nmoves, &k, 0) != 0) {
		resign(g, "the server's position is not a legal game for the brain driver");
		return;
	}
	g->started = 1;
	g->thinking = our_turn(g);
	logf_("game %s: brain pid %ld (%s, %s %d, %s)", g->room, (long)brain_pid(g->b),
	    g->ours == STONE_BLACK ? "black" : "white", rule_name(g->rule), g->size,
	    g->thinking ? "to move" : "waiting");
}

static void
ask_state(bot_t *bot, game_t *g)
{
	char tag[8];
	snprintf(tag, sizeof tag, "s%d", g->slot);
	send_room(bot, PR_STATE, g, tag);
}

/* A swap2 stage that is ours: the brain answers it (SWAP2BOARD). */
static void
swap2_act(game_t *g)
{
	brain_clock_t k = clock_of(g);
	int rc = g->started
	    ? brain_setpos(g->b, STONE_EMPTY, g->moves, g->nmoves)
	    : brain_game(g->b, g->rule, g->size, STONE_EMPTY, g->moves, g->nmoves, &k, 0);
	g->started = 1;
	if (rc != 0 || brain_swap2(g->b, &k) != 0) {
		resign(g, "the brain cannot be asked for the swap2 opening");
		return;
	}
	g->swap2_asked = 1;
	logf_("game %s: swap2 stage with %d stones asked of the brain (pid %ld)", g->room,
	    g->nmoves, (long)brain_pid(g->b));
}

static void
swap2_answer(game_t *g, const brain_result_t *r)
{
	bot_t *bot = g->bot;
	g->swap2_asked = 0;
	proto_msg_t m;
	proto_init(&m, PR_SWAP2, NULL);
	snprintf(m.room, sizeof m.room, "%s", g->room);
	if (g->nmoves == 0 && r->nmoves == 3) {
		m.choice = CHOICE_PUT;
	} else if (r->swap) {
		m.choice = CHOICE_BLACK; /* SWAP: the brain takes black */
	} else if (g->nmoves == 3 && r->nmoves == 2) {
		m.choice = CHOICE_PUT;
	} else if (r->nmoves == 1) {
		/* it plays white and moves next; asked again once the colours are
		 * settled (BOARD), so the stone is not kept */
		m.choice = CHOICE_WHITE;
	} else {
		resign(g, "the brain's SWAP2BOARD answer does not fit the stage");
		return;
	}
	if (m.choice == CHOICE_PUT) {
		m.nmoves = r->nmoves;
		for (int i = 0; i < r->nmoves; i++)
			notation_format(r->moves[i], g->size, m.moves[i]);
	}
	send_msg(bot, &m);
}

static void
free_game(game_t *g)
{
	if (g->b)
		brain_free(g->b);
	if (g->claim)
		event_free(g->claim);
	if (g->reap)
		event_free(g->reap);
	bot_t *bot = g->bot;
	int slot = g->slot;
	memset(g, 0, sizeof *g);
	g->bot = bot;
	g->slot = slot;
}

static void
reap_cb(evutil_socket_t fd, short ev, void *arg)
{
	(void)fd;
	(void)ev;
	free_game(arg);
}

static void
end_game(game_t *g, const char *how)
{
	if (g->over)
		return;
	g->over = 1;
	g->thinking = 0;
	logf_("game %s over: %s", g->room, how);
	brain_end(g->b);
	if (g->claim)
		evtimer_del(g->claim);
	struct timeval tv = { FREE_MS / 1000, FREE_MS % 1000 * 1000 };
	evtimer_add(g->reap, &tv);
}

static void
on_brain(brain_t *b, const brain_result_t *r, void *arg)
{
	(void)b;
	game_t *g = arg;
	for (int i = 0; g->bot->verbose && i < r->nlog; i++)
		logf_("game %s: brain says: %s", g->room, r->log[i]);
	switch (r->kind) {
	case BRAIN_MOVE: {
		char mv[4];
		g->thinking = 0;
		g->pending = r->moves[0];
		if (g->bot->verbose)
			logf_("game %s: the brain plays %s in %ld ms", g->room,
			    notation_format(r->moves[0], g->size, mv), r->elapsed_ms);
		send_move(g);
		break;
	}
	case BRAIN_SWAP2:
		swap2_answer(g, r);
		break;
	case BRAIN_FAILED:
		logf_("game %s: brain failure %d of %d: %s; restarted, the game goes on", g->room,
		    r->failures, g->bot->conf->brain_failures, r->text);
		break;
	case BRAIN_GIVEUP:
		logf_("game %s: brain failure %d of %d: %s", g->room, r->failures,
		    g->bot->conf->brain_failures, r->text);
		resign(g, "the brain failed too often");
		break;
	case BRAIN_NO_SIZE:
		resign(g, "the brain cannot play this size");
		break;
	case BRAIN_NO_SWAP2:
		resign(g, "the brain does not speak SWAP2BOARD after all");
		break;
	}
}

static void
claim_cb(evutil_socket_t fd, short ev, void *arg)
{
	(void)fd;
	(void)ev;
	game_t *g = arg;
	if (g->bot->st == ST_READY && !g->over) {
		logf_("game %s: the opponent stayed away past the grace: claiming", g->room);
		send_room(g->bot, PR_CLAIM, g, NULL);
	}
}

static game_t *
new_game(bot_t *bot, const char *room)
{
	for (int i = 0; i < GAMES_MAX; i++) {
		game_t *g = &bot->games[i];
		if (g->used)
			continue;
		g->b = brain_new(bot->base, &bot->bconf, on_brain, g);
		g->claim = evtimer_new(bot->base, claim_cb, g);
		g->reap = evtimer_new(bot->base, reap_cb, g);
		if (!g->b || !g->claim || !g->reap) {
			logf_("out of memory for a game");
			free_game(g);
			return NULL;
		}
		g->used = 1;
		g->pending = MOVE_NONE;
		g->ours = STONE_EMPTY;
		snprintf(g->room, sizeof g->room, "%s", room);
		return g;
	}
	logf_("no room for another game (%d at once)", GAMES_MAX);
	return NULL;
}

static void
on_start(bot_t *bot, const proto_msg_t *m)
{
	if (!is_me(bot, m->user) && !is_me(bot, m->user2))
		return;
	game_t *g = find_game(bot, m->room);
	if (g && !g->over)
		return;
	if (g)
		free_game(g);
	if (!(g = new_game(bot, m->room)))
		return;
	g->rule = m->rule;
	g->size = m->size;
	g->tc_base = m->tc_base;
	g->tc_inc = m->tc_inc;
	g->rated = m->rated;
	g->op = m->opening;
	g->bms = m->bms;
	g->wms = m->wms;
	logf_("game %s starts: %s (black) against %s (white), %s %d, %s, %s, opening %s", m->room,
	    m->user, m->user2, rule_name(m->rule), m->size, m->tc_base ? "timed" : "untimed",
	    m->rated ? "rated" : "casual", proto_opening_name(m->opening));
	if (!filter_opening_ok(bot->conf, m->opening)) {
		resign(g, "an opening rule the brain cannot play");
		return;
	}
	if (m->opening == OPENING_SWAP2) {
		g->opening = 1; /* * SWAP2 says who acts */
		return;
	}
	g->ours = is_me(bot, m->user) ? STONE_BLACK : STONE_WHITE;
	restart_brain(g, "start");
}

static void
on_move(bot_t *bot, const proto_msg_t *m)
{
	game_t *g = find_game(bot, m->room);
	if (!g || g->over)
		return;
	move_t mv;
	if (notation_parse(m->move, g->size, &mv) != 0 || g->nmoves >= RULES_CELLS) {
		ask_state(bot, g);
		return;
	}
	g->moves[g->nmoves++] = mv;
	g->bms = m->bms;
	g->wms = m->wms;
	if (g->opening)
		return; /* a stone of the swap2 opening: the brain gets them all later */
	stone_t side = m->side == SIDE_BLACK ? STONE_BLACK : STONE_WHITE;
	if (side == g->ours) {
		g->refused = 0;
		if (g->pending == mv)
			g->pending = MOVE_NONE;
		else
			restart_brain(g, "a move of ours the brain did not play");
		return;
	}
	if (g->thinking || g->pending != MOVE_NONE) {
		restart_brain(g, "the opponent moved while the brain thought");
		return;
	}
	if (!g->started) { /* after renju's centre, played for it */
		restart_brain(g, "its first turn");
		return;
	}
	brain_clock_t k = clock_of(g);
	int r = brain_turn(g->b, mv, &k);
	if (r == 0)
		g->thinking = 1;
	else if (r < 0)
		restart_brain(g, "the brain's position differs from the server's");
}

static void
on_swap2(bot_t *bot, const char *room, proto_stage_t stage, const char *user)
{
	game_t *g = find_game(bot, room);
	if (!g || g->over)
		return;
	g->opening = 1;
	(void)stage;
	if (is_me(bot, user))
		swap2_act(g);
}

static void
on_colours(bot_t *bot, const proto_msg_t *m)
{
	game_t *g = find_game(bot, m->room);
	if (!g || g->over)
		return;
	g->opening = 0;
	g->ours = is_me(bot, m->user) ? STONE_BLACK : STONE_WHITE;
	logf_("game %s: the colours are settled: the brain plays %s", g->room,
	    g->ours == STONE_BLACK ? "black" : "white");
	restart_brain(g, "the swap2 opening is over");
}

/* A snapshot read whole: the game is taken up where the server has it. */
static void
apply_snapshot(bot_t *bot)
{
	snap_t *s = &bot->snap;
	s->on = 0;
	game_t *g = find_game(bot, s->room);
	int ours = is_me(bot, s->black) || is_me(bot, s->white);
	if (s->status == ROOM_OVER || !ours) {
		if (g)
			end_game(g, "the snapshot says it is over");
		return;
	}
	if (s->bad) {
		logf_("game %s: the snapshot could not be read", s->room);
		return;
	}
	if (g && g->over)
		free_game(g), g = NULL;
	if (!g) {
		if (!(g = new_game(bot, s->room)))
			return;
	}
	if (!g->started)
		logf_("game %s taken up again (%s %d, %d moves)", s->room, rule_name(s->rule),
		    s->size, s->nmoves);
	g->rule = s->rule;
	g->size = s->size;
	g->tc_base = s->tc_base;
	g->tc_inc = s->tc_inc;
	g->rated = s->rated;
	g->op = s->op;
	g->bms = s->bms;
	g->wms = s->wms;
	if (!filter_opening_ok(bot->conf, s->op)) {
		resign(g, "an opening rule the brain cannot play");
		return;
	}
	if (s->status == ROOM_OPENING) {
		g->opening = 1;
		g->nmoves = s->nmoves;
		memcpy(g->moves, s->moves, sizeof(move_t) * (size_t)s->nmoves);
		if (s->swap2 && is_me(bot, s->stage_user) && !g->swap2_asked)
			swap2_act(g);
		return;
	}
	if (s->status != ROOM_PLAYING)
		return;
	g->opening = 0;
	g->ours = is_me(bot, s->black) ? STONE_BLACK : STONE_WHITE;
	const position_t *p = brain_pos(g->b);
	int same = g->started && p->nmoves == s->nmoves &&
	    !memcmp(p->moves, s->moves, sizeof(move_t) * (size_t)s->nmoves);
	int one_more = g->started && p->nmoves == s->nmoves + 1 && g->pending != MOVE_NONE &&
	    p->moves[s->nmoves] == g->pending &&
	    !memcmp(p->moves, s->moves, sizeof(move_t) * (size_t)s->nmoves);
	/* the opponent moved while we were away (after the brain's move, which
	 * the server had, seen or not): that move, as TURN */
	int behind = g->started && !g->thinking && p->nmoves + 1 == s->nmoves &&
	    !memcmp(p->moves, s->moves, sizeof(move_t) * (size_t)p->nmoves);
	g->nmoves = s->nmoves;
	memcpy(g->moves, s->moves, sizeof(move_t) * (size_t)s->nmoves);
	if (g->resign) {
		resign(g, "still to be done");
		return;
	}
	if (one_more) {
		logf_("game %s: the brain's move was not played yet: sent again", g->room);
		send_move(g);
	} else if (behind) {
		brain_clock_t k = clock_of(g);
		g->pending = MOVE_NONE;
		if (brain_turn(g->b, s->moves[s->nmoves - 1], &k) == 0)
			g->thinking = 1;
		else
			restart_brain(g, "resumed");
		if (bot->verbose)
			logf_("game %s: the opponent's move made meanwhile goes to the brain",
			    g->room);
	} else if (same) {
		if (our_turn(g) && !g->thinking) {
			brain_clock_t k = clock_of(g);
			g->thinking = brain_think(g->b, &k) == 0;
		}
		if (bot->verbose)
			logf_("game %s: the brain already has the position", g->room);
	} else {
		restart_brain(g, "resumed");
	}
}

static void on_offer(bot_t *bot, const proto_msg_t *m);

static void
snap_line(bot_t *bot, const proto_msg_t *m)
{
	snap_t *s = &bot->snap;
	if (m->id == PD_ROOM) {
		memset(s, 0, sizeof *s);
		s->on = 1;
		snprintf(s->room, sizeof s->room, "%s", m->room);
		s->status = m->status;
		s->rule = m->rule;
		s->size = m->size;
		s->tc_base = m->tc_base;
		s->tc_inc = m->tc_inc;
		s->op = m->opening;
		s->rated = m->rated;
		snprintf(s->black, sizeof s->black, "%s", m->user);
		snprintf(s->white, sizeof s->white, "%s", m->user2);
		return;
	}
	if (!s->on || strcmp(m->room, s->room) != 0)
		return;
	switch (m->id) {
	case PD_CLOCK:
		s->bms = m->bms;
		s->wms = m->wms;
		break;
	case PD_MOVES:
		if (m->depth != s->nmoves) {
			s->bad = 1;
			break;
		}
		for (int i = 0; i < m->nmoves && s->nmoves < RULES_CELLS; i++)
			if (notation_parse(m->moves[i], s->size, &s->moves[s->nmoves++]) != 0)
				s->bad = 1;
		break;
	case PD_SWAP2:
		s->swap2 = 1;
		s->stage = m->stage;
		snprintf(s->stage_user, sizeof s->stage_user, "%s", m->user);
		break;
	case PD_RESULT:
		s->status = ROOM_OVER;
		break;
	case PD_OFFER: /* an offer made while we were away: declined as any */
		on_offer(bot, m);
		break;
	default:
		break;
	}
}

/* ---- challenges and offers ---- */

static void
on_challenge(bot_t *bot, const proto_msg_t *m)
{
	if (!is_me(bot, m->user2) || is_me(bot, m->user))
		return;
	const char *why = filter_challenge(bot->conf, m, games_now(bot));
	char tc[32];
	if (m->tc_base)
		snprintf(tc, sizeof tc, "%d+%d", m->tc_base, m->tc_inc);
	else
		snprintf(tc, sizeof tc, "none");
	logf_("challenge %lld from %s (%s %d %s %s %s): %s%s", (long long)m->ident, m->user,
	    rule_name(m->rule), m->size, tc, m->rated ? "rated" : "casual",
	    proto_opening_name(m->opening), why ? "declined: " : "accepted", why ? why : "");
	proto_msg_t a;
	char tag[24];
	snprintf(tag, sizeof tag, "a%lld", (long long)m->ident);
	proto_init(&a, PR_ANSWER, tag);
	a.ident = m->ident;
	a.answer = why ? ANSWER_DECLINE : ANSWER_ACCEPT;
	send_msg(bot, &a);
}

static void
on_offer(bot_t *bot, const proto_msg_t *m)
{
	game_t *g = find_game(bot, m->room);
	if (!g || is_me(bot, m->user))
		return;
	logf_("game %s: %s offers %s: declined", m->room, m->user, proto_offer_name(m->offer));
	proto_msg_t d;
	proto_init(&d, PR_DECLINE, NULL);
	snprintf(d.room, sizeof d.room, "%s", m->room);
	d.ident = m->ident;
	send_msg(bot, &d);
}

static void
on_presence(bot_t *bot, const proto_msg_t *m)
{
	game_t *g = find_game(bot, m->room);
	if (!g || g->over || is_me(bot, m->user))
		return;
	if (m->presence == PRES_GONE) {
		int64_t ms = m->ms + 1000;
		struct timeval tv = { (time_t)(ms / 1000), (suseconds_t)(ms % 1000 * 1000) };
		evtimer_add(g->claim, &tv);
	} else if (m->presence == PRES_BACK) {
		evtimer_del(g->claim);
	}
}

/* ---- the session ---- */

static void
login(bot_t *bot)
{
	proto_msg_t m;
	if (bot->token[0] && bot->away_cap && !bot->resume_tried) {
		bot->resume_tried = 1;
		proto_init(&m, PR_RESUME, "r");
		snprintf(m.token, sizeof m.token, "%s", bot->token);
		m.room[0] = '\0'; /* "-" */
		m.seq = 0;
	} else {
		proto_init(&m, PR_LOGIN, "l");
		snprintf(m.user, sizeof m.user, "%s", bot->conf->name);
		snprintf(m.pass, sizeof m.pass, "%s", bot->conf->password);
	}
	for (int i = 0; i < GAMES_MAX; i++)
		bot->games[i].seated = 0;
	bot->st = ST_LOGIN;
	send_msg(bot, &m);
}

static void
ready(bot_t *bot, const char *how)
{
	bot->st = ST_READY;
	bot->backoff_s = 0;
	token_save(bot);
	logf_("%s as %s (%d game%s to take up)", how, bot->me, games_now(bot),
	    games_now(bot) == 1 ? "" : "s");
	if (bot->conf->league >= 0 && bot->league_cap) { /* the engine leagues: in or out */
		proto_msg_t m;
		proto_init(&m, PR_SET, "lg"); /* an ERR only logged */
		snprintf(m.word, sizeof m.word, "league");
		snprintf(m.word2, sizeof m.word2, "%s", bot->conf->league ? "yes" : "no");
		send_msg(bot, &m);
	}
	/* every game, seated or known: its snapshot says where it stands */
	for (int i = 0; i < GAMES_MAX; i++) {
		game_t *g = &bot->games[i];
		if (g->used && (g->seated || !g->over))
			ask_state(bot, g);
	}
}

/*
 * The config's bot-token, after a LOGIN: the account's own STATS says
 * whether it is a bot already (its = BOT line), and only then is the
 * token sent with BOTUPGRADE. The token is good once: sent again at each
 * start it would be refused (413), counted as a failed login.
 */
static void
bot_check(bot_t *bot)
{
	if (!bot->conf->bot_token[0] || bot->is_bot)
		return;
	if (!bot->botacct_cap) {
		logf_("the server has no bot accounts (no botaccounts): bot-token not sent");
		return;
	}
	proto_msg_t m;
	proto_init(&m, PR_STATS, "k");
	snprintf(m.user, sizeof m.user, "%s", bot->me);
	send_msg(bot, &m);
}

static void
bot_upgrade(bot_t *bot)
{
	if (bot->is_bot) {
		logf_("%s is a bot account already: bot-token not sent", bot->me);
		return;
	}
	proto_msg_t m;
	proto_init(&m, PR_BOTUPGRADE, "u");
	snprintf(m.token, sizeof m.token, "%s", bot->conf->bot_token);
	logf_("sending BOTUPGRADE with the config's bot-token");
	send_msg(bot, &m);
}

static void
stop(bot_t *bot, int rc)
{
	if (bot->stopping)
		return;
	bot->stopping = 1;
	bot->rc = rc;
	for (int i = 0; i < GAMES_MAX; i++)
		if (bot->games[i].used)
			free_game(&bot->games[i]); /* each brain killed and reaped */
	if (bot->st >= ST_HELLO) {
		proto_msg_t q;
		proto_init(&q, PR_QUIT, NULL);
		send_msg(bot, &q);
	}
	struct timeval tv = { 0, 200000 }; /* QUIT flushed */
	event_base_loopexit(bot->base, &tv);
}

static void on_line(void *arg, const char *line, size_t len);

static void
retry_cb(evutil_socket_t fd, short ev, void *arg)
{
	(void)fd;
	(void)ev;
	bot_t *bot = arg;
	if (bot->stopping)
		return;
	bot->st = ST_GREETING;
	bot->resume_tried = 0;
	logf_("connecting to %s:%s", bot->conf->host, bot->conf->port);
	conn_open(bot->conn);
}

static void
reconnect_later(bot_t *bot)
{
	bot->st = ST_DOWN;
	bot->backoff_s = bot->backoff_s ? bot->backoff_s * 2 : 1;
	if (bot->backoff_s > BACKOFF_MAX_S)
		bot->backoff_s = BACKOFF_MAX_S;
	logf_("reconnecting in %d s", bot->backoff_s);
	struct timeval tv = { bot->backoff_s, 0 };
	evtimer_add(bot->retry, &tv);
}

static void
on_down(void *arg, int fatal, const char *why)
{
	bot_t *bot = arg;
	logf_("disconnected: %s", why);
	if (bot->stopping)
		return;
	if (fatal) {
		logf_("giving up: retrying cannot help");
		stop(bot, 1);
		return;
	}
	reconnect_later(bot);
}

static void
on_err(bot_t *bot, const proto_msg_t *m)
{
	logf_("the server refused #%s: %lld %s %s", m->tag[0] ? m->tag : "-", (long long)m->ecode,
	    m->word, m->text);
	if (!strcmp(m->tag, "r")) { /* the session is gone: log in afresh */
		bot->token[0] = '\0';
		login(bot);
		return;
	}
	if (!strcmp(m->tag, "l")) {
		int again = m->ecode == ERR_RATE || m->ecode == ERR_SERVER_BUSY ||
		    m->ecode == ERR_STORE_DOWN;
		if (again) {
			conn_close(bot->conn);
			reconnect_later(bot);
		} else {
			stop(bot, 1); /* bad credentials, banned: a person must look */
		}
		return;
	}
	if (!strcmp(m->tag, "k") || !strcmp(m->tag, "u")) {
		logf_("%s stays an account of a person: its games are one at a time", bot->me);
		return;
	}
	if (m->tag[0] == 'm' || m->tag[0] == 's') {
		int slot = atoi(m->tag + 1);
		if (slot < 0 || slot >= GAMES_MAX || !bot->games[slot].used)
			return;
		game_t *g = &bot->games[slot];
		if (m->tag[0] == 'm' && !g->over && ++g->refused >= REFUSED_MAX)
			resign(g, "the server refused the brain's moves again and again");
		else if (m->tag[0] == 'm' && !g->over)
			ask_state(bot, g); /* the server says where the game stands */
		else if (m->tag[0] == 's')
			end_game(g, "its room is gone");
	}
}

static void
on_line(void *arg, const char *line, size_t len)
{
	bot_t *bot = arg;
	proto_msg_t m;
	char err[128];
	if (bot->stopping) /* lines read after QUIT (a stop inside this read) */
		return;
	if (proto_parse(line, len, PROTO_SERVER, &m, err, sizeof err) != 0) {
		logf_("a line from the server could not be read (%s): %.*s", err, (int)len, line);
		return;
	}
	if (bot->verbose && m.id == PO_LOGIN)
		logf_("< OK LOGIN %s (the session token)", m.user); /* no secret in the log */
	else if (bot->verbose)
		logf_("< %.*s", (int)len, line);
	switch (m.id) {
	case PE_SERVER: {
		bot->away_cap = strstr(m.text, "away") != NULL;
		bot->botacct_cap = strstr(m.text, "botaccounts") != NULL;
		bot->league_cap = strstr(m.text, " league") != NULL;
		proto_msg_t h;
		proto_init(&h, PR_HELLO, NULL);
		h.version = PROTO_VERSION;
		snprintf(h.word, sizeof h.word, "gomoku-bot/%s", BOT_VERSION);
		bot->st = ST_HELLO;
		send_msg(bot, &h);
		break;
	}
	case PO_HELLO:
		login(bot);
		break;
	case PO_LOGIN:
		snprintf(bot->me, sizeof bot->me, "%s", m.user);
		snprintf(bot->token, sizeof bot->token, "%s", m.token);
		ready(bot, "logged in");
		bot_check(bot);
		break;
	case PD_BOT:
		if (is_me(bot, m.user))
			bot->is_bot = 1;
		break;
	case PO_STATS:
		if (!strcmp(m.tag, "k"))
			bot_upgrade(bot);
		break;
	case PO_BOTUPGRADE:
		bot->is_bot = 1;
		logf_("%s is a bot account from now (BOTUPGRADE)", bot->me);
		break;
	case PO_RESUME:
		ready(bot, "resumed the session");
		break;
	case PE_SEATED: {
		game_t *g = find_game(bot, m.room);
		if (!g && (g = new_game(bot, m.room)))
			logf_("seated in %s", m.room);
		if (g)
			g->seated = 1;
		break;
	}
	case PE_CHALLENGE:
		on_challenge(bot, &m);
		break;
	case PE_START:
		on_start(bot, &m);
		break;
	case PE_MOVE:
		on_move(bot, &m);
		break;
	case PE_SWAP2:
		on_swap2(bot, m.room, m.stage, m.user);
		break;
	case PE_COLOURS:
		on_colours(bot, &m);
		break;
	case PE_UNDO: {
		game_t *g = find_game(bot, m.room);
		if (g)
			ask_state(bot, g);
		break;
	}
	case PE_OVER: {
		game_t *g = find_game(bot, m.room);
		if (g) {
			char how[64];
			snprintf(how, sizeof how, "%s %s", proto_result_name(m.result),
			    proto_reason_name(m.reason));
			end_game(g, how);
		}
		break;
	}
	case PE_OFFER:
		on_offer(bot, &m);
		break;
	case PE_PRESENCE:
		on_presence(bot, &m);
		break;
	case PD_ROOM:
	case PD_CLOCK:
	case PD_MOVES:
	case PD_SWAP2:
	case PD_OFFER:
	case PD_RESULT:
		snap_line(bot, &m);
		break;
	case PO_STATE:
		if (bot->snap.on && !strcmp(bot->snap.room, m.room))
			apply_snapshot(bot);
		break;
	case PE_BYE:
		logf_("the server closes the connection: %s %s", m.word, m.text);
		if (!strcmp(m.word, "takeover")) {
			logf_("the session went on elsewhere (another gomoku-bot, or a "
			      "login as %s): stopping",
			    bot->me);
			stop(bot, 1);
		}
		break;
	case PE_KICKED:
		logf_("kicked by the server's admins: %s", m.text);
		stop(bot, 1);
		break;
	case PE_MOVED:
		logf_("game %s moved to %s: not followed (no cluster support yet)", m.room, m.word);
		break;
	case PX_ERR:
		on_err(bot, &m);
		break;
	default:
		break;
	}
}

static void
ping_cb(evutil_socket_t fd, short ev, void *arg)
{
	(void)fd;
	(void)ev;
	bot_t *bot = arg;
	if (bot->st == ST_READY) {
		proto_msg_t p;
		proto_init(&p, PR_PING, NULL);
		send_msg(bot, &p);
	}
}

static void
sig_cb(evutil_socket_t sig, short ev, void *arg)
{
	(void)ev;
	logf_("signal %d: stopping", (int)sig);
	stop(arg, 0);
}

static void
usage(FILE *f)
{
	fprintf(f,
	    "usage: gomoku-bot [-v] [--check] -c FILE\n"
	    "  -c, --config FILE  the config file (gomoku-bot(1) lists its keys)\n"
	    "      --check        read the config file, say what is wrong, exit\n"
	    "  -v, --verbose      log every line to and from the server\n"
	    "  -h, --help         this help\n"
	    "      --version      the version\n");
}

int
main(int argc, char **argv)
{
	static const struct option opts[] = { { "config", required_argument, NULL, 'c' },
		{ "verbose", no_argument, NULL, 'v' }, { "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' }, { "check", no_argument, NULL, 'C' },
		{ NULL, 0, NULL, 0 } };
	const char *path = NULL;
	int verbose = 0, check = 0, o;
	while ((o = getopt_long(argc, argv, "c:vh", opts, NULL)) != -1) {
		switch (o) {
		case 'c':
			path = optarg;
			break;
		case 'v':
			verbose = 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			printf("gomoku-bot %s\n", BOT_VERSION);
			return 0;
		case 'C':
			check = 1;
			break;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (!path || optind != argc) {
		usage(stderr);
		return 2;
	}
	static bot_conf_t conf;
	char err[1024];
	if (conf_load(path, &conf, err, sizeof err) != 0) {
		fprintf(stderr, "gomoku-bot: %s\n", err);
		return 2;
	}
	/* here, where it can be said, not by each brain's child dying */
	if (conf.brain_sandbox && !sandbox_available(err, sizeof err)) {
		fprintf(stderr,
		    "gomoku-bot: a brain cannot enter its sandbox here: %s; brain-sandbox no "
		    "runs it without one\n",
		    err);
		return 1;
	}
	if (check) {
		printf("%s: good\n", path);
		return 0;
	}
	signal(SIGPIPE, SIG_IGN); /* a write to a brain that died */

	static bot_t bot;
	bot.conf = &conf;
	bot.verbose = verbose;
	snprintf(bot.me, sizeof bot.me, "%s", conf.name); /* LOGIN says it as kept */
	bot.base = event_base_new();
	if (!bot.base) {
		fprintf(stderr, "gomoku-bot: cannot start the event loop\n");
		return 1;
	}
	bot.bconf = brain_conf_default();
	bot.bconf.argv = (const char *const *)conf.brain_argv;
	brain_conf_memory(&bot.bconf, conf.brain_memory_mib * 1024L * 1024L);
	bot.bconf.max_failures = conf.brain_failures;
	bot.bconf.swap2 = conf.brain_swap2;
	bot.bconf.sandbox = conf.brain_sandbox;
	bot.bconf.think_ms = conf.turn_ms;
	bot.bconf.stderr_fd = verbose ? 2 : -1;
	for (int i = 0; i < GAMES_MAX; i++) {
		bot.games[i].bot = &bot;
		bot.games[i].slot = i;
	}
	conn_opts_t co = { .host = conf.host,
		.port = conf.port,
		.ca = conf.ca,
		.pin = conf.pin,
		.insecure = conf.insecure,
		.timeout_s = 20 };
	conn_cbs_t cb = { .line = on_line, .down = on_down };
	bot.conn = conn_new(bot.base, &co, &cb, &bot, err, sizeof err);
	if (!bot.conn) {
		fprintf(stderr, "gomoku-bot: %s\n", err);
		return 1;
	}
	token_load(&bot);
	bot.retry = evtimer_new(bot.base, retry_cb, &bot);
	bot.ping = event_new(bot.base, -1, EV_PERSIST, ping_cb, &bot);
	bot.sigs[0] = evsignal_new(bot.base, SIGTERM, sig_cb, &bot);
	bot.sigs[1] = evsignal_new(bot.base, SIGINT, sig_cb, &bot);
	struct timeval ping = { PING_S, 0 }, now = { 0, 0 };
	evtimer_add(bot.ping, &ping);
	evsignal_add(bot.sigs[0], NULL);
	evsignal_add(bot.sigs[1], NULL);
	logf_("gomoku-bot %s: account %s on %s:%s, brain %s", BOT_VERSION, conf.name, conf.host,
	    conf.port, conf.brain_argv[0]);
	evtimer_add(bot.retry, &now);
	event_base_dispatch(bot.base);

	for (int i = 0; i < GAMES_MAX; i++)
		if (bot.games[i].used)
			free_game(&bot.games[i]);
	conn_free(bot.conn);
	event_free(bot.retry);
	event_free(bot.ping);
	event_free(bot.sigs[0]);
	event_free(bot.sigs[1]);
	event_base_free(bot.base);
	logf_("stopped");
	return bot.rc;
}
