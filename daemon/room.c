/* room.c: a game table. The rules core decides every move and result; this
 * file keeps turn order, clocks, offers, swap2, presence and the events. */
#include "daemon/room.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <openssl/rand.h>

#include "daemon/archive.h"
#include "daemon/botplay.h"
#include "daemon/conn.h"
#include "daemon/server.h"
#include "daemon/session.h"

static void flag_cb(evutil_socket_t fd, short what, void *arg);

/* The seat (0 black, 1 white) whose stone goes next. */
static int
seat_to_move(const struct room *r)
{
	return pos_to_move(&r->pos) == STONE_BLACK ? 0 : 1;
}

/* Swap2: the opener (seat 0) puts three stones and makes the last choice. */
static int
swap2_actor(const struct room *r)
{
	return r->stage == STAGE_PUT3 || r->stage == STAGE_CHOOSE2 ? 0 : 1;
}
static void grace_cb(evutil_socket_t fd, short what, void *arg);

static int
random_below(int n)
{
	unsigned char b;
	do {
		if (RAND_bytes(&b, 1) != 1)
			return 0;
	} while (b >= 256 - 256 % n);
	return b % n;
}

/* An invite code: 22 base62 characters, about 131 bits. */
static void
make_code(char *out)
{
	static const char set[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
	for (int i = 0; i < 22; i++)
		out[i] = set[random_below(62)];
	out[22] = '\0';
}

/* A room numbered num (0: the next number). */
static struct room *
room_alloc(struct server *srv, const struct gamespec *g, int private, uint32_t num)
{
	struct room *r = calloc(1, sizeof *r);
	if (!r)
		return NULL;
	r->srv = srv;
	r->num = num ? num : ++srv->next_room;
	if (r->num > srv->next_room)
		srv->next_room = r->num;
	snprintf(r->id, sizeof r->id, "r%u", r->num);
	r->private = private;
	if (private)
		make_code(r->code);
	r->spec = *g;
	r->status = ROOM_WAITING;
	pos_init(&r->pos, g->rule, g->size);
	gclock_init(&r->clk, g->tc_base, g->tc_inc);
	r->flag_ev = evtimer_new(srv->base, flag_cb, r);
	r->seat[0].grace_ev = evtimer_new(srv->base, grace_cb, r);
	r->seat[1].grace_ev = evtimer_new(srv->base, grace_cb, r);
	if (!r->flag_ev || !r->seat[0].grace_ev || !r->seat[1].grace_ev) {
		room_free(r);
		return NULL;
	}
	r->next = srv->rooms;
	if (srv->rooms)
		srv->rooms->prev = r;
	srv->rooms = r;
	struct room **b = &srv->room_hash[r->num % ROOM_BUCKETS];
	r->hnext = *b;
	*b = r;
	return r;
}

struct room *
room_new(struct server *srv, const struct gamespec *g, int private)
{
	return room_alloc(srv, g, private, 0);
}

static int64_t grace_ms(const struct room *r);
static void arm_flag(struct room *r);

struct room *
room_restore(struct server *srv, const store_game_t *g, const store_move_t *moves, const char **why)
{
	unsigned num;
	char tail;
	if (sscanf(g->room, "r%u%c", &num, &tail) != 1 || num == 0 || room_find(srv, g->room)) {
		*why = "a bad or duplicate room id";
		return NULL;
	}
	struct gamespec spec = { (rule_t)g->rule, g->size, g->tc_base, g->tc_inc, COLOUR_ANY,
		g->rated, (proto_opening_t)g->opening };
	position_t probe;
	if (pos_init(&probe, spec.rule, spec.size) != 0) {
		*why = "a bad rule or board size";
		return NULL;
	}
	struct room *r = room_alloc(srv, &spec, g->private_room, num);
	if (!r) {
		*why = "out of memory";
		return NULL;
	}
	snprintf(r->code, sizeof r->code, "%s", g->private_room ? g->code : "");
	r->game_id = g->id;
	for (int i = 0; i < g->nmoves; i++)
		if (pos_play(&r->pos, moves[i].move) != LEGAL_OK) {
			*why = "an illegal move in the record";
			room_free(r);
			return NULL;
		}
	int64_t now = clock_now_ms();
	/* the clocks as the last move left them: no time passed while down */
	if (r->clk.timed && g->nmoves > 0) {
		r->clk.left[0] = moves[g->nmoves - 1].black_ms;
		r->clk.left[1] = moves[g->nmoves - 1].white_ms;
	}
	int64_t grace = grace_ms(r);
	for (int i = 0; i < 2; i++) {
		struct seat *st = &r->seat[i];
		snprintf(st->name, sizeof st->name, "%s", i ? g->white : g->black);
		unsigned long long gn;
		if (sscanf(st->name, "guest%llu", &gn) == 1 && gn > srv->next_guest)
			srv->next_guest = gn; /* new guests must not take a waiting seat's name */
		int level;
		char tail2;
		if (sscanf(st->name, "bot%d%c", &level, &tail2) == 1 && level >= 1 && level <= 10) {
			struct session *bot = session_bot(srv, level); /* bots never go away */
			if (bot) {
				st->sess = bot;
				session_add_room(bot, r);
				continue;
			}
		}
		st->gone = 1;
		st->deadline = now + grace;
		struct timeval tv = { (time_t)(grace / 1000), (suseconds_t)(grace % 1000) * 1000 };
		evtimer_add(st->grace_ev, &tv);
	}
	r->turn_since = now;
	if (spec.opening == OPENING_SWAP2 && g->opening_plies < 0) {
		if (g->nmoves != 0 && g->nmoves != 3 && g->nmoves != 5) {
			*why = "a swap2 opening with a wrong number of stones";
			room_free(r);
			return NULL;
		}
		r->status = ROOM_OPENING;
		r->stage = g->nmoves == 0 ? STAGE_PUT3
		    : g->nmoves == 3      ? STAGE_CHOOSE
					  : STAGE_CHOOSE2;
	} else {
		r->status = ROOM_PLAYING;
		r->nopening = spec.opening == OPENING_SWAP2 ? g->opening_plies : 0;
		gclock_start(&r->clk, seat_to_move(r), now);
		arm_flag(r);
	}
	botplay_poke(r);
	/* the last move was stored but the end was not: end it now */
	if (r->pos.outcome.kind == RESULT_WIN)
		room_end(
		    r, r->pos.outcome.winner == STONE_BLACK ? RES_BLACK : RES_WHITE, REASON_FIVE);
	else if (r->pos.outcome.kind == RESULT_DRAW)
		room_end(r, RES_DRAW, REASON_BOARD_FULL);
	return r;
}

struct room *
room_find(struct server *srv, const char *id)
{
	if (id[0] != 'r' || id[1] < '1' || id[1] > '9')
		return NULL;
	char *end;
	unsigned long n = strtoul(id + 1, &end, 10);
	if (*end || n > UINT32_MAX)
		return NULL;
	for (struct room *r = srv->room_hash[n % ROOM_BUCKETS]; r; r = r->hnext)
		if (r->num == n)
			return r;
	return NULL;
}

struct room *
room_by_code(struct server *srv, const char *code)
{
	for (struct room *r = srv->rooms; r; r = r->next)
		if (r->private && r->code[0] && strcmp(r->code, code) == 0)
			return r;
	return NULL;
}

void
room_free(struct room *r)
{
	struct server *srv = r->srv;
	if (r->srv && (r->prev || srv->rooms == r)) {
		if (r->prev)
			r->prev->next = r->next;
		else
			srv->rooms = r->next;
		if (r->next)
			r->next->prev = r->prev;
		for (struct room **p = &srv->room_hash[r->num % ROOM_BUCKETS]; *p; p = &(*p)->hnext)
			if (*p == r) {
				*p = r->hnext;
				break;
			}
	}
	for (int i = 0; i < 2; i++) {
		if (r->seat[i].sess)
			session_del_room(r->seat[i].sess, r);
		if (r->seat[i].grace_ev)
			event_free(r->seat[i].grace_ev);
	}
	for (int i = 0; i < r->nspec; i++)
		session_del_room(r->spec_list[i], r);
	botplay_room_freed(r);
	if (r->flag_ev)
		event_free(r->flag_ev);
	free(r->spec_list);
	free(r);
}

int
room_unfinished(const struct room *r)
{
	return r->status == ROOM_OPENING || r->status == ROOM_PLAYING;
}

int
room_empty(const struct room *r)
{
	return !room_unfinished(r) && !r->seat[0].sess && !r->seat[1].sess && r->nspec == 0;
}

void
room_check(struct room *r)
{
	if (r->checking)
		return;
	r->checking = 1;
	r->check_next = r->srv->room_check;
	r->srv->room_check = r;
	server_gc_soon(r->srv);
}

int
room_actor(const struct room *r)
{
	if (r->status == ROOM_PLAYING)
		return seat_to_move(r);
	if (r->status == ROOM_OPENING)
		return swap2_actor(r);
	return -1;
}

int
room_seat_of(const struct room *r, const struct session *s)
{
	for (int i = 0; i < 2; i++)
		if (r->seat[i].sess == s)
			return i;
	return -1;
}

int
room_seat_name(const struct room *r, const char *name)
{
	for (int i = 0; i < 2; i++)
		if (!r->seat[i].sess && r->seat[i].gone && strcasecmp(r->seat[i].name, name) == 0)
			return i;
	return -1;
}

void
room_seat_restored(struct room *r, int seat, struct session *s)
{
	r->seat[seat].sess = s;
	session_add_room(s, r);
}

void
room_sit(struct room *r, int seat, struct session *s)
{
	struct seat *st = &r->seat[seat];
	st->sess = s;
	snprintf(st->name, sizeof st->name, "%s", s->name);
	st->gone = 0;
	session_add_room(s, r);
}

void
room_event(struct room *r, proto_msg_t *m)
{
	char line[PROTO_LINE_MAX];
	snprintf(m->room, sizeof m->room, "%s", r->id);
	m->seq = ++r->seq;
	int n = proto_format(m, line, sizeof line);
	if (n < 0) {
		log_error(
		    &r->srv->log, "room %s: cannot format %s event", r->id, proto_name(m->id));
		return;
	}
	for (int i = 0; i < 2; i++)
		if (r->seat[i].sess && r->seat[i].sess->conn)
			conn_send_raw(r->seat[i].sess->conn, line, (size_t)n);
	for (int i = 0; i < r->nspec; i++)
		if (r->spec_list[i]->conn)
			conn_send_raw(r->spec_list[i]->conn, line, (size_t)n);
	if ((r->seat[0].sess && r->seat[0].sess->bot_level) ||
	    (r->seat[1].sess && r->seat[1].sess->bot_level))
		botplay_poke(r);
}

static void
clocks_into(const struct room *r, proto_msg_t *m, int64_t now)
{
	m->bms = gclock_left(&r->clk, 0, now);
	m->wms = gclock_left(&r->clk, 1, now);
}

static void
arm_flag(struct room *r)
{
	evtimer_del(r->flag_ev);
	if (!r->clk.timed || r->clk.running < 0)
		return;
	int64_t left = gclock_left(&r->clk, r->clk.running, clock_now_ms());
	struct timeval tv = { (time_t)(left / 1000), (suseconds_t)(left % 1000) * 1000 + 500 };
	evtimer_add(r->flag_ev, &tv);
}

static void
flag_cb(evutil_socket_t fd, short what, void *arg)
{
	struct room *r = arg;
	(void)fd;
	(void)what;
	if (r->status != ROOM_PLAYING || r->clk.running < 0)
		return;
	int side = r->clk.running;
	if (gclock_left(&r->clk, side, clock_now_ms()) > 0) {
		arm_flag(r);
		return;
	}
	log_info(&r->srv->log, "room %s: %s flagged", r->id, side ? "white" : "black");
	room_end(r, side ? RES_BLACK : RES_WHITE, REASON_TIME);
}

/* Withdraws (or expires) pending offers of the given kinds. */
static void
end_offers(struct room *r, unsigned kinds, proto_end_t how)
{
	for (int k = 0; k < 3; k++) {
		if (!(kinds & (1u << k)) || !r->offers[k].id)
			continue;
		proto_msg_t m;
		proto_init(&m, PE_OFFEREND, NULL);
		m.ident = r->offers[k].id;
		m.end = how;
		r->offers[k].id = 0;
		room_event(r, &m);
	}
}

enum { OFFERS_GAME = 1u << OFFER_DRAW | 1u << OFFER_UNDO, OFFERS_ALL = 7 };

static void
send_start(struct room *r)
{
	proto_msg_t m;
	proto_init(&m, PE_START, NULL);
	snprintf(m.user, sizeof m.user, "%s", r->seat[0].name);
	snprintf(m.user2, sizeof m.user2, "%s", r->seat[1].name);
	m.rule = r->spec.rule;
	m.size = r->spec.size;
	m.tc_base = r->spec.tc_base;
	m.tc_inc = r->spec.tc_inc;
	m.opening = r->spec.opening;
	m.rated = r->spec.rated;
	clocks_into(r, &m, clock_now_ms());
	room_event(r, &m);
}

static void
send_stage(struct room *r)
{
	proto_msg_t m;
	proto_init(&m, PE_SWAP2, NULL);
	m.stage = r->stage;
	int actor = swap2_actor(r);
	snprintf(m.user, sizeof m.user, "%s", r->seat[actor].name);
	room_event(r, &m);
}

void
room_start(struct room *r)
{
	pos_init(&r->pos, r->spec.rule, r->spec.size);
	gclock_init(&r->clk, r->spec.tc_base, r->spec.tc_inc);
	memset(r->offers, 0, sizeof r->offers);
	r->ncells = 0;
	r->nopening = 0;
	r->turn_since = clock_now_ms();
	archive_begin(r);
	if (r->spec.opening == OPENING_SWAP2) {
		r->status = ROOM_OPENING;
		r->stage = STAGE_PUT3;
		send_start(r);
		send_stage(r);
	} else {
		r->status = ROOM_PLAYING;
		gclock_start(&r->clk, 0, clock_now_ms());
		send_start(r);
		arm_flag(r);
	}
	log_info(&r->srv->log, "room %s: game starts, %s (black) v %s (white), %s %d", r->id,
	    r->seat[0].name, r->seat[1].name, rule_name(r->spec.rule), r->spec.size);
}

void
room_end(struct room *r, proto_result_t res, proto_reason_t reason)
{
	if (!room_unfinished(r))
		return;
	gclock_stop(&r->clk, clock_now_ms());
	evtimer_del(r->flag_ev);
	r->status = ROOM_OVER;
	r->result = res;
	r->reason = reason;
	if (reason == REASON_FIVE) {
		r->ncells = r->pos.outcome.ncells;
		memcpy(r->cells, r->pos.outcome.cells, sizeof r->cells);
	} else {
		r->ncells = 0;
	}
	end_offers(r, OFFERS_GAME, END_EXPIRED);
	archive_end(r);
	proto_msg_t m;
	proto_init(&m, PE_OVER, NULL);
	m.result = res;
	m.reason = reason;
	for (int i = 0; i < r->ncells && i < PROTO_LIST_MAX; i++)
		notation_format(r->cells[i], r->spec.size, m.moves[m.nmoves++]);
	room_event(r, &m);
	log_info(&r->srv->log, "room %s: game over, %s %s", r->id, proto_result_name(res),
	    proto_reason_name(reason));
	/* players who are away have nothing left to come back for */
	for (int i = 0; i < 2; i++) {
		struct seat *st = &r->seat[i];
		evtimer_del(st->grace_ev);
		if (st->gone && st->sess)
			session_check(st->sess);
		st->gone = 0;
	}
	room_check(r);
}

/* Plays a checked move for the side to move: stored first, then clocks and
 * events. -1 (nothing changed) when the store refused it. */
static int
play(struct room *r, move_t mv, int64_t now)
{
	int side = seat_to_move(r);
	struct gclock before = r->clk;
	pos_play(&r->pos, mv);
	proto_msg_t m;
	proto_init(&m, PE_MOVE, NULL);
	m.side = side ? SIDE_WHITE : SIDE_BLACK;
	notation_format(mv, r->spec.size, m.move);
	snprintf(m.text, sizeof m.text, "%s", r->move_reason);
	if (r->status == ROOM_PLAYING) {
		gclock_stop(&r->clk, now);
		if (r->clk.timed)
			r->clk.left[side] += r->clk.inc;
		gclock_start(&r->clk, 1 - side, now);
	}
	clocks_into(r, &m, now);
	if (archive_move(r, now - r->turn_since, m.bms, m.wms) != 0) {
		pos_undo(&r->pos);
		r->clk = before;
		return -1;
	}
	r->turn_since = now;
	room_event(r, &m);
	return 0;
}

int
room_move(struct room *r, struct session *s, const char *move, const char **why)
{
	int seat = room_seat_of(r, s);
	if (seat < 0)
		return ERR_NOT_PLAYER;
	if (r->status == ROOM_OPENING) {
		*why = "the swap2 opening is in progress: use SWAP2";
		return ERR_PHASE;
	}
	if (r->status != ROOM_PLAYING)
		return ERR_GAME_OVER;
	int to_move = seat_to_move(r);
	if (seat != to_move) {
		*why = to_move ? "white is to move" : "black is to move";
		return ERR_NOT_TURN;
	}
	int64_t now = clock_now_ms();
	if (r->clk.timed && gclock_left(&r->clk, seat, now) == 0) {
		room_end(r, seat ? RES_BLACK : RES_WHITE, REASON_TIME);
		*why = "your flag fell";
		return ERR_GAME_OVER;
	}
	move_t mv;
	if (notation_parse(move, r->spec.size, &mv) != 0)
		return ERR_OFF_BOARD;
	legality_t l = pos_check(&r->pos, mv);
	if (l != LEGAL_OK) {
		*why = legality_name(l);
		return proto_err_of_legality(l);
	}
	if (play(r, mv, now) != 0) {
		*why = "the move could not be saved; try again";
		return ERR_INTERNAL;
	}
	end_offers(r, OFFERS_GAME, END_WITHDRAWN);
	if (r->pos.outcome.kind == RESULT_WIN)
		room_end(
		    r, r->pos.outcome.winner == STONE_BLACK ? RES_BLACK : RES_WHITE, REASON_FIVE);
	else if (r->pos.outcome.kind == RESULT_DRAW)
		room_end(r, RES_DRAW, REASON_BOARD_FULL);
	else
		arm_flag(r);
	return 0;
}

static void
swap_seats(struct room *r)
{
	struct seat t = r->seat[0];
	r->seat[0] = r->seat[1];
	r->seat[1] = t;
}

/* The swap2 opening is settled: tell the colours, start the clocks. */
static void
swap2_done(struct room *r)
{
	proto_msg_t m;
	proto_init(&m, PE_COLOURS, NULL);
	snprintf(m.user, sizeof m.user, "%s", r->seat[0].name);
	snprintf(m.user2, sizeof m.user2, "%s", r->seat[1].name);
	room_event(r, &m);
	r->status = ROOM_PLAYING;
	r->nopening = r->pos.nmoves;
	archive_colours(r);
	r->turn_since = clock_now_ms();
	gclock_start(&r->clk, seat_to_move(r), r->turn_since);
	arm_flag(r);
}

int
room_swap2(struct room *r, struct session *s, const proto_msg_t *m, const char **why)
{
	int seat = room_seat_of(r, s);
	if (seat < 0)
		return ERR_NOT_PLAYER;
	if (r->status != ROOM_OPENING) {
		*why = "no swap2 opening in progress";
		return room_unfinished(r) ? ERR_PHASE : ERR_GAME_OVER;
	}
	int actor = swap2_actor(r);
	if (seat != actor)
		return ERR_NOT_TURN;
	if (m->choice == CHOICE_PUT) {
		int want = r->stage == STAGE_PUT3 ? 3 : r->stage == STAGE_CHOOSE ? 2 : 0;
		if (want == 0) {
			*why = "choose black or white";
			return ERR_PHASE;
		}
		if (m->nmoves != want) {
			*why = want == 3 ? "put three stones: black, white, black"
					 : "put two stones: white, black";
			return ERR_ARGUMENT;
		}
		/* check them all on a copy first: all or nothing */
		position_t trial = r->pos;
		move_t mv[3];
		for (int i = 0; i < want; i++) {
			if (notation_parse(m->moves[i], r->spec.size, &mv[i]) != 0)
				return ERR_OFF_BOARD;
			legality_t l = pos_play(&trial, mv[i]);
			if (l != LEGAL_OK) {
				*why = legality_name(l);
				return proto_err_of_legality(l);
			}
			if (trial.outcome.kind != RESULT_ONGOING) {
				*why = "opening stones may not end the game";
				return ERR_ARGUMENT;
			}
		}
		int64_t now = clock_now_ms();
		for (int i = 0; i < want; i++)
			if (play(r, mv[i], now) != 0) {
				while (i-- > 0) /* all or nothing */
					pos_undo(&r->pos);
				archive_truncate(r);
				*why = "the stones could not be saved; try again";
				return ERR_INTERNAL;
			}
		r->stage = r->stage == STAGE_PUT3 ? STAGE_CHOOSE : STAGE_CHOOSE2;
		send_stage(r);
		return 0;
	}
	if (r->stage == STAGE_PUT3) {
		*why = "put three stones first";
		return ERR_PHASE;
	}
	/* the actor takes the colour it names */
	int want_seat = m->choice == CHOICE_BLACK ? 0 : 1;
	if (want_seat != actor)
		swap_seats(r);
	swap2_done(r);
	return 0;
}

int
room_resign(struct room *r, struct session *s)
{
	int seat = room_seat_of(r, s);
	if (seat < 0)
		return ERR_NOT_PLAYER;
	if (!room_unfinished(r))
		return ERR_GAME_OVER;
	room_end(r, seat ? RES_BLACK : RES_WHITE, REASON_RESIGN);
	return 0;
}

/* Plies an undo for seat takes back so seat is to move again, or 0. */
static int
undo_plies(const struct room *r, int seat)
{
	int to_move = seat_to_move(r);
	int plies = to_move == seat ? 2 : 1;
	return r->pos.nmoves - r->nopening >= plies ? plies : 0;
}

int
room_offer(struct room *r, struct session *s, proto_offer_t kind, uint32_t *id, const char **why)
{
	int seat = room_seat_of(r, s);
	if (seat < 0)
		return ERR_NOT_PLAYER;
	if (kind == OFFER_REMATCH) {
		if (r->status != ROOM_OVER) {
			*why = "rematch is offered after the game";
			return ERR_PHASE;
		}
		struct session *o = r->seat[1 - seat].sess;
		if (!o || !session_present(o)) {
			*why = "the opponent has left";
			return ERR_PHASE;
		}
		if (session_game(s) || session_game(o) || s->seek || o->seek) {
			*why = "a player is busy";
			return ERR_BUSY;
		}
	} else {
		if (r->status == ROOM_OPENING) {
			*why = "not during the swap2 opening";
			return ERR_PHASE;
		}
		if (r->status != ROOM_PLAYING)
			return ERR_GAME_OVER;
		if (kind == OFFER_UNDO && !undo_plies(r, seat)) {
			*why = "nothing to take back";
			return ERR_PHASE;
		}
	}
	if (r->offers[kind].id)
		return ERR_OFFER_PENDING;
	r->offers[kind].id = ++r->next_offer;
	r->offers[kind].from = seat;
	*id = r->offers[kind].id;
	proto_msg_t m;
	proto_init(&m, PE_OFFER, NULL);
	m.ident = *id;
	m.offer = kind;
	snprintf(m.user, sizeof m.user, "%s", s->name);
	room_event(r, &m);
	return 0;
}

static void
do_undo(struct room *r, int plies)
{
	int64_t now = clock_now_ms();
	for (int i = 0; i < plies; i++)
		pos_undo(&r->pos);
	archive_truncate(r);
	r->turn_since = now;
	gclock_start(&r->clk, seat_to_move(r), now);
	proto_msg_t m;
	proto_init(&m, PE_UNDO, NULL);
	m.plies = plies;
	clocks_into(r, &m, now);
	room_event(r, &m);
	arm_flag(r);
}

int
room_answer(struct room *r, struct session *s, uint32_t id, int accept)
{
	int seat = room_seat_of(r, s);
	if (seat < 0)
		return ERR_NOT_PLAYER;
	int k;
	for (k = 0; k < 3; k++)
		if (r->offers[k].id == id)
			break;
	if (k == 3 || (accept && r->offers[k].from == seat))
		return ERR_NO_OFFER;
	if (!accept) {
		end_offers(r, 1u << k, r->offers[k].from == seat ? END_WITHDRAWN : END_DECLINED);
		return 0;
	}
	int from = r->offers[k].from;
	if (k == OFFER_REMATCH) {
		struct session *o = r->seat[from].sess;
		if (!o || !session_present(o) || session_game(o) || session_game(s))
			return ERR_BUSY;
	}
	int plies = k == OFFER_UNDO ? undo_plies(r, from) : 0;
	end_offers(r, 1u << k, END_ACCEPTED);
	switch (k) {
	case OFFER_DRAW:
		room_end(r, RES_DRAW, REASON_DRAW_AGREED);
		break;
	case OFFER_UNDO:
		do_undo(r, plies);
		end_offers(r, OFFERS_GAME, END_WITHDRAWN);
		break;
	case OFFER_REMATCH:
		swap_seats(r);
		room_start(r);
		break;
	}
	return 0;
}

int
room_abort(struct room *r, struct session *s)
{
	if (room_seat_of(r, s) < 0)
		return ERR_NOT_PLAYER;
	if (!room_unfinished(r))
		return ERR_GAME_OVER;
	if (r->status == ROOM_PLAYING && (r->spec.opening == OPENING_SWAP2 || r->pos.nmoves >= 2))
		return ERR_TOO_LATE;
	room_end(r, RES_NONE, REASON_ABORTED);
	return 0;
}

int
room_claim(struct room *r, struct session *s)
{
	int seat = room_seat_of(r, s);
	if (seat < 0)
		return ERR_NOT_PLAYER;
	if (!room_unfinished(r))
		return ERR_GAME_OVER;
	struct seat *o = &r->seat[1 - seat];
	if (!o->gone || clock_now_ms() < o->deadline)
		return ERR_NO_CLAIM;
	room_end(r, seat ? RES_WHITE : RES_BLACK, REASON_ABANDONED);
	return 0;
}

int
room_say(struct room *r, struct session *s, const char *text)
{
	if (!session_in_room(s, r))
		return ERR_NOT_IN_ROOM;
	proto_msg_t m;
	proto_init(&m, PE_SAY, NULL);
	snprintf(m.user, sizeof m.user, "%s", s->name);
	snprintf(m.text, sizeof m.text, "%s", text);
	room_event(r, &m);
	return 0;
}

static void
presence(struct room *r, const char *name, proto_presence_t p, int64_t ms)
{
	proto_msg_t m;
	proto_init(&m, PE_PRESENCE, NULL);
	snprintf(m.user, sizeof m.user, "%s", name);
	m.presence = p;
	m.ms = ms;
	room_event(r, &m);
}

int
room_watch(struct room *r, struct session *s)
{
	if (session_in_room(s, r))
		return 0;
	if (s->nrooms >= SESSION_MAX_ROOMS)
		return ERR_BUSY; /* watching is never worth leaving another room */
	if (r->nspec == r->capspec) {
		int cap = r->capspec ? r->capspec * 2 : 4;
		struct session **n = realloc(r->spec_list, (size_t)cap * sizeof *n);
		if (!n)
			return ERR_INTERNAL;
		r->spec_list = n;
		r->capspec = cap;
	}
	r->spec_list[r->nspec++] = s;
	session_add_room(s, r);
	presence(r, s->name, PRES_JOINED, 0);
	return 0;
}

void
room_leave(struct room *r, struct session *s)
{
	int seat = room_seat_of(r, s);
	if (seat >= 0) {
		if (room_unfinished(r))
			room_end(r, seat ? RES_BLACK : RES_WHITE, REASON_RESIGN);
		end_offers(r, 1u << OFFER_REMATCH, END_EXPIRED);
		r->seat[seat].sess = NULL;
		r->seat[seat].gone = 0;
		if (r->status == ROOM_WAITING)
			r->code[0] = '\0'; /* the creator closed it */
	} else {
		int i;
		for (i = 0; i < r->nspec; i++)
			if (r->spec_list[i] == s)
				break;
		if (i == r->nspec)
			return;
		r->spec_list[i] = r->spec_list[--r->nspec];
	}
	session_del_room(s, r);
	presence(r, s->name, PRES_LEFT, 0);
	room_check(r);
}

static int64_t
grace_ms(const struct room *r)
{
	int64_t g = (int64_t)r->srv->cfg.grace_s * 1000;
	int64_t tenth = (int64_t)r->spec.tc_base * 100;
	return tenth > g ? tenth : g;
}

void
room_gone(struct room *r, struct session *s)
{
	int seat = room_seat_of(r, s);
	if (seat < 0 || !room_unfinished(r)) {
		room_leave(r, s);
		return;
	}
	struct seat *st = &r->seat[seat];
	int64_t g = grace_ms(r);
	st->gone = 1;
	st->deadline = clock_now_ms() + g;
	struct timeval tv = { (time_t)(g / 1000), (suseconds_t)(g % 1000) * 1000 };
	evtimer_add(st->grace_ev, &tv);
	presence(r, s->name, PRES_GONE, g);
}

void
room_back(struct room *r, struct session *s)
{
	int seat = room_seat_of(r, s);
	if (seat < 0 || !r->seat[seat].gone)
		return;
	r->seat[seat].gone = 0;
	evtimer_del(r->seat[seat].grace_ev);
	presence(r, s->name, PRES_BACK, 0);
}

static void
grace_cb(evutil_socket_t fd, short what, void *arg)
{
	struct room *r = arg;
	(void)fd;
	(void)what;
	if (!room_unfinished(r) || !r->seat[0].gone || !r->seat[1].gone)
		return;
	int64_t now = clock_now_ms();
	int first = r->seat[0].deadline <= r->seat[1].deadline ? 0 : 1;
	int64_t left = r->seat[first].deadline - now;
	if (left <= 0) {
		room_end(r, RES_NONE, REASON_ABANDONED);
		return;
	}
	/* libevent may wake us a hair before our millisecond clock says so */
	struct timeval tv = { (time_t)(left / 1000), (suseconds_t)(left % 1000) * 1000 + 500 };
	evtimer_add(r->seat[first].grace_ev, &tv);
}

void
room_info(const struct room *r, proto_msg_t *m)
{
	proto_init(m, PD_ROOM, NULL);
	snprintf(m->room, sizeof m->room, "%s", r->id);
	m->status = r->status;
	m->rule = r->spec.rule;
	m->size = r->spec.size;
	m->tc_base = r->spec.tc_base;
	m->tc_inc = r->spec.tc_inc;
	m->opening = r->spec.opening;
	m->rated = r->spec.rated;
	snprintf(m->user, sizeof m->user, "%s", r->seat[0].name);
	snprintf(m->user2, sizeof m->user2, "%s", r->seat[1].name);
	m->count = r->nspec;
	m->count2 = r->pos.nmoves;
}

void
room_snapshot(struct room *r, struct conn *c, proto_id_t reply_id, const char *tag)
{
	int64_t now = clock_now_ms();
	proto_msg_t m;
	room_info(r, &m);
	conn_send(c, &m);

	proto_init(&m, PD_CLOCK, NULL);
	snprintf(m.room, sizeof m.room, "%s", r->id);
	clocks_into(r, &m, now);
	m.side = r->status == ROOM_PLAYING
	    ? (pos_to_move(&r->pos) == STONE_BLACK ? SIDE_BLACK : SIDE_WHITE)
	    : SIDE_NONE;
	conn_send(c, &m);

	for (int i = 0; i < 2; i++) {
		const struct seat *st = &r->seat[i];
		if (!st->name[0])
			continue;
		proto_init(&m, PD_SEAT, NULL);
		snprintf(m.room, sizeof m.room, "%s", r->id);
		m.side = i ? SIDE_WHITE : SIDE_BLACK;
		snprintf(m.user, sizeof m.user, "%s", st->name);
		m.presence = (st->gone || !st->sess || !session_present(st->sess)) ? PRES_GONE
										   : PRES_HERE;
		m.ms = st->gone && st->deadline > now ? st->deadline - now : 0;
		conn_send(c, &m);
	}

	int i = 0;
	do {
		proto_init(&m, PD_MOVES, NULL);
		snprintf(m.room, sizeof m.room, "%s", r->id);
		m.depth = i;
		for (; i < r->pos.nmoves && m.nmoves < PROTO_LIST_MAX; i++)
			notation_format(r->pos.moves[i], r->spec.size, m.moves[m.nmoves++]);
		conn_send(c, &m);
	} while (i < r->pos.nmoves);

	if (r->status == ROOM_OPENING) {
		proto_init(&m, PD_SWAP2, NULL);
		snprintf(m.room, sizeof m.room, "%s", r->id);
		m.stage = r->stage;
		int actor = swap2_actor(r);
		snprintf(m.user, sizeof m.user, "%s", r->seat[actor].name);
		conn_send(c, &m);
	}
	for (int k = 0; k < 3; k++) {
		if (!r->offers[k].id)
			continue;
		proto_init(&m, PD_OFFER, NULL);
		snprintf(m.room, sizeof m.room, "%s", r->id);
		m.ident = r->offers[k].id;
		m.offer = (proto_offer_t)k;
		snprintf(m.user, sizeof m.user, "%s", r->seat[r->offers[k].from].name);
		conn_send(c, &m);
	}
	if (r->status == ROOM_OVER) {
		proto_init(&m, PD_RESULT, NULL);
		snprintf(m.room, sizeof m.room, "%s", r->id);
		m.result = r->result;
		m.reason = r->reason;
		for (int j = 0; j < r->ncells; j++)
			notation_format(r->cells[j], r->spec.size, m.moves[m.nmoves++]);
		conn_send(c, &m);
	}
	proto_init(&m, reply_id, tag);
	snprintf(m.room, sizeof m.room, "%s", r->id);
	m.seq = r->seq;
	conn_send(c, &m);
}
