/* room.c: a game table. The rules core decides every move and result; this
 * file keeps seats, turn order, clocks, offers, swap2 (whose stages the
 * rules core's opening machine decides), presence and the events, and tells
 * the archive what happened. */
#include "daemon/room.h"

#include <sys/queue.h>

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <event2/event.h>
#include <openssl/rand.h>

#include "daemon/archive.h"
#include "daemon/clock.h"
#include "daemon/metrics.h"
#include "daemon/roomid.h"
#include "daemon/core.h"
#include "daemon/gc.h"
#include "daemon/sink.h"
#include "daemon/wire.h"
#include "rules/opening.h"

enum { ROOM_BUCKETS = 4096, OFFERS_GAME = 1u << ASK_DRAW | 1u << ASK_UNDO };
/* lines of chat a room keeps for its snapshot (PROTOCOL.md, `chatlog`) */
enum { ROOM_CHAT_KEPT = 20 };

/* A rematch refused while a player waits in a private room of its own
 * (or its game's start is in flight): that is a game too. */
#define BUSY_WAITING "a player waits in a private room of its own: LEAVE it first"

/* Someone who receives the room's events: a player or a spectator. */
struct member {
	TAILQ_ENTRY(member) link;
	struct session *sess;
	int seat; /* 0 black, 1 white, -1 watching */
};

struct seat {
	struct member *m;              /* NULL: empty, away after a restart, or left */
	char name[PROTO_NAME_MAX + 1]; /* kept for display after leaving */
	enum archive_player player;
	int bot;          /* a bot's seat (the server's, or a bot account's): * KINDS */
	int gone;         /* disconnected during the game */
	int64_t deadline; /* when gone: grace ends (monotonic ms) */
	struct event *grace_ev;
};

struct offer {
	uint32_t id; /* 0: none pending */
	int from;    /* seat */
};

struct room {
	TAILQ_ENTRY(room) link;
	LIST_ENTRY(room) hlink;
	struct room *check_next;
	int checking;
	struct server *srv;
	struct room_registry *reg;
	uint32_t num;
	char id[PROTO_ROOM_MAX + 1];
	int private_room;
	char code[PROTO_CODE_MAX + 1];
	int creator; /* a private room's creator's seat until its game starts; -1: none */
	struct gamespec spec;
	game_status_t status;
	/* the opening rule's machine, while status is GAME_OPENING; seat 0
	 * holds its tentative black (the seats swap with each colour taken),
	 * and olog is its log of acts with no stone (rules/opening.h), as the
	 * store keeps it */
	opening_t open;
	char olog[OPENING_LOG_MAX];
	position_t pos;
	struct seat seat[2]; /* [0] black, [1] white */
	TAILQ_HEAD(, member) members;
	int nwatch;
	int far_watch; /* spectators on other nodes (room_set_far_watchers) */
	uint32_t seq;
	struct gclock clk;
	struct event *flag_ev;
	struct event *alone_ev; /* no person seated and nobody watching: bot-alone */
	int nopening;           /* stones placed by the opening */
	struct offer offers[ASK_KINDS];
	uint32_t next_offer;
	game_result_t result;
	game_reason_t reason;
	int64_t game_id;    /* its row in the store; 0: not kept */
	int64_t turn_since; /* when the side to move began (ms) */
	int ncells;
	move_t cells[RULES_MAX_SIZE];
	int moved_both;          /* both sides moved in this game: too late to abort, undo or not */
	int64_t tpair;           /* the tournament pairing its game is for (room_set_tpair), or 0 */
	struct pending *pending; /* stones at the store thread; the room waits */
	struct sink *relay;      /* the cluster's relay of its events, or NULL */
	struct chatline *chat;   /* the last ROOM_CHAT_KEPT lines said, a ring; NULL until one is */
	int nchat; /* lines said so far (the newest at (nchat - 1) % ROOM_CHAT_KEPT) */
	/* both seats' ratings for the rule as the game started (`ratings`),
	 * known only where a store keeps them; what its end did to them */
	int rated_known;
	struct archive_rating rating[2];
	struct archive_change change;
};

/* A line of the room's chat, kept for its snapshot (PROTOCOL.md, `chatlog`). */
struct chatline {
	char user[PROTO_NAME_MAX + 1];
	char text[PROTO_TEXT_MAX + 1];
};

/* How a game's start seated its players, to be put back if it does not
 * happen, and whom to tell: the seat room_join gave (-1: room_pair's two;
 * -2: none, a rematch), whether the seats were swapped after, and the
 * caller's continuation. */
struct start {
	int joined;
	int swap;
	room_started_fn fn;
	void *arg;
};

/* Stones sent to the store thread (archive_moves_async): the room is as it
 * was until their commit comes back; then they are played again, with the
 * same time, and said. Or a game's row (archive_begin_async): the players
 * sit, nothing is said until it is stored. */
struct pending {
	int n;
	move_t mv[3];
	char reason[64];
	int64_t now;
	int swap2;          /* opening stones: the stage moves on after */
	int64_t line_at_us; /* the request's line arrived then (the relay metric); 0: none */
	/* or an undo of that many plies, or an opening's act with no stone
	 * (oact, and the log with it) */
	int undo, colours;
	opening_act_t oact;
	char olog[OPENING_LOG_MAX];
	unsigned accepted; /* the offers said accepted once it is stored */
	/* or the end of the game (room_end), and what follows its answer */
	int end;
	game_result_t res;
	game_reason_t why;
	int anyway;          /* ended all the same if the store refuses */
	struct event *retry; /* a timer's end: tried again if refused */
	game_err_t answer;   /* the request's answer once ended (GERR_OVER: a flag fell) */
	const char *answer_why;
	/* an end that came meanwhile (a player left), made once this is
	 * answered */
	int then_end;
	game_result_t then_res;
	game_reason_t then_why;
	int start; /* or a game's start, and how to answer it */
	struct start st;
};

struct room_registry {
	TAILQ_HEAD(, room) all; /* newest first */
	LIST_HEAD(, room) hash[ROOM_BUCKETS];
	struct room *check; /* to free if empty, at the next gc */
	uint32_t next_num;
	char prefix[8];      /* of every room id */
	room_reply_fn reply; /* the answer to a request that waited for its commit */
	void *reply_arg;
	room_over_fn over; /* a game ended (rooms_on_over), or NULL */
	void *over_arg;
	const struct room_members *members; /* the sessions, to the room */
};

static void flag_cb(evutil_socket_t fd, short what, void *arg);
static void grace_cb(evutil_socket_t fd, short what, void *arg);
static void alone_cb(evutil_socket_t fd, short what, void *arg);
static void alone_check(struct room *r);
static int never_came(const struct room *r, int seat);
static int room_end(struct room *r, game_result_t res, game_reason_t reason);
static void room_end_anyway(struct room *r, game_result_t res, game_reason_t reason);
static void end_or_retry(struct room *r, struct event *ev, game_result_t res, game_reason_t reason);
static int decided(const struct room *r, game_result_t *res, game_reason_t *reason);
static void room_free(struct room *r);

/* The seat (0 black, 1 white) whose stone goes next. */
static int
seat_to_move(const struct room *r)
{
	return pos_to_move(&r->pos) == STONE_BLACK ? 0 : 1;
}

/* The seat of the opening machine's player p: seat 0 holds its tentative
 * black. */
static int
open_seat(const struct room *r, int p)
{
	return p == r->open.black ? 0 : 1;
}

/* The opening machine's actor's seat (swap2: the opener puts three stones
 * and makes the last choice). */
static int
swap2_actor(const struct room *r)
{
	return open_seat(r, r->open.actor);
}

/* The machine's stage as the protocol's swap2 names it. The room gives the
 * machine a put's stones together, so it never waits half way. */
static game_stage_t
swap2_stage(const struct room *r)
{
	return r->open.stage == OSTAGE_SWAP_OR_PLACE ? SWAP2_CHOOSE
	    : r->open.stage == OSTAGE_SWAP           ? SWAP2_CHOOSE2
						     : SWAP2_PUT3;
}

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

static struct session *
seated(const struct room *r, int seat)
{
	return r->seat[seat].m ? r->seat[seat].m->sess : NULL;
}

/* The archive's view of the game. */
static void
room_record(const struct room *r, struct archive_game *g)
{
	memset(g, 0, sizeof *g);
	g->id = r->game_id;
	g->room = r->id;
	g->spec = r->spec;
	g->private_room = r->private_room;
	g->code = r->code;
	g->opening_plies = r->status == GAME_OPENING ? -1 : r->nopening;
	g->tpair = r->tpair;
	for (int i = 0; i < 2; i++) {
		g->names[i] = r->seat[i].name;
		g->players[i] = r->seat[i].player;
	}
	g->result = r->result;
	g->reason = r->reason;
}

struct room_registry *
rooms_new(const char *prefix, const struct room_members *members)
{
	struct room_registry *reg = calloc(1, sizeof *reg);
	if (!reg || strlen(prefix) >= sizeof reg->prefix) {
		free(reg);
		return NULL;
	}
	reg->members = members;
	snprintf(reg->prefix, sizeof reg->prefix, "%s", prefix);
	TAILQ_INIT(&reg->all);
	for (int i = 0; i < ROOM_BUCKETS; i++)
		LIST_INIT(&reg->hash[i]);
	return reg;
}

void
rooms_free(struct room_registry *reg)
{
	if (!reg)
		return;
	while (!TAILQ_EMPTY(&reg->all))
		room_free(TAILQ_FIRST(&reg->all));
	free(reg);
}

int
rooms_gc(struct room_registry *reg)
{
	int n = 0;
	while (reg->check) {
		struct room *r = reg->check;
		reg->check = r->check_next;
		r->checking = 0;
		n++;
		if (!room_unfinished(r) && TAILQ_EMPTY(&r->members) && !r->pending)
			room_free(r);
	}
	return n;
}

int
rooms_drain(struct room_registry *reg)
{
	int kept = 0;
	struct room *r;
	TAILQ_FOREACH (r, &reg->all, link) {
		if (r->srv->store && r->game_id && room_unfinished(r))
			kept++;
		else
			room_end_anyway(r, GAME_NO_RESULT, BY_ABORTED);
	}
	return kept;
}

struct room *
rooms_first(struct room_registry *reg)
{
	return TAILQ_FIRST(&reg->all);
}

struct room *
rooms_next(struct room *r)
{
	return TAILQ_NEXT(r, link);
}

void
rooms_reserve(struct room_registry *reg, const char *id)
{
	uint32_t num;
	char node[CONFIG_NODE_MAX + 1];
	if (roomid_parse(id, node, &num) == 0 && strcmp(node, reg->prefix) == 0 &&
	    num > reg->next_num)
		reg->next_num = num;
}

/* A room numbered num (0: the next number) of this registry, or with id
 * (another node's room, adopted: non-NULL) as it is. */
static struct room *
room_alloc(
    struct server *srv, const struct gamespec *g, int private_room, uint32_t num, const char *id)
{
	struct room_registry *reg = srv->rooms;
	struct room *r = calloc(1, sizeof *r);
	if (!r)
		return NULL;
	r->srv = srv;
	r->reg = reg;
	TAILQ_INIT(&r->members);
	r->num = num ? num : ++reg->next_num;
	if (id)
		snprintf(r->id, sizeof r->id, "%s", id);
	else {
		if (r->num > reg->next_num)
			reg->next_num = r->num;
		snprintf(r->id, sizeof r->id, "%s%u", reg->prefix, r->num);
	}
	r->private_room = private_room;
	r->creator = -1;
	if (private_room)
		make_code(r->code);
	r->spec = *g;
	r->status = GAME_WAITING;
	pos_init(&r->pos, g->rule, g->size);
	gclock_init(&r->clk, g->tc_base, g->tc_inc);
	TAILQ_INSERT_HEAD(&reg->all, r, link);
	LIST_INSERT_HEAD(&reg->hash[r->num % ROOM_BUCKETS], r, hlink);
	r->flag_ev = evtimer_new(srv->base, flag_cb, r);
	r->seat[0].grace_ev = evtimer_new(srv->base, grace_cb, r);
	r->seat[1].grace_ev = evtimer_new(srv->base, grace_cb, r);
	r->alone_ev = evtimer_new(srv->base, alone_cb, r);
	if (!r->flag_ev || !r->seat[0].grace_ev || !r->seat[1].grace_ev || !r->alone_ev) {
		room_free(r);
		return NULL;
	}
	return r;
}

struct room *
room_new(struct server *srv, const struct gamespec *g, int private_room)
{
	return room_alloc(srv, g, private_room, 0, NULL);
}

static void
room_free(struct room *r)
{
	TAILQ_REMOVE(&r->reg->all, r, link);
	LIST_REMOVE(r, hlink);
	while (!TAILQ_EMPTY(&r->members)) {
		struct member *m = TAILQ_FIRST(&r->members);
		TAILQ_REMOVE(&r->members, m, link);
		r->reg->members->left(m->sess, r);
		free(m);
	}
	/* shutdown dropped the start's answer: its caller lets go of arg */
	if (r->pending && r->pending->start) {
		log_info(&r->srv->log, "room %s: its game's start dropped at shutdown", r->id);
		if (r->pending->st.fn)
			r->pending->st.fn(r->pending->st.arg, NULL, GERR_PENDING);
	}
	free(r->pending);
	for (int i = 0; i < 2; i++)
		if (r->seat[i].grace_ev)
			event_free(r->seat[i].grace_ev);
	free(r->chat);
	if (r->flag_ev)
		event_free(r->flag_ev);
	if (r->alone_ev)
		event_free(r->alone_ev);
	/* a freed room must not stay queued for the gc */
	for (struct room **p = &r->reg->check; *p; p = &(*p)->check_next)
		if (*p == r) {
			*p = r->check_next;
			break;
		}
	free(r);
}

void
room_abandon(struct room *r, void (*fn)(void *arg, struct session *s), void *arg)
{
	struct member *m;
	TAILQ_FOREACH (m, &r->members, link)
		fn(arg, m->sess);
	room_free(r);
}

static struct member *
add_member(struct room *r, struct session *s, int seat)
{
	struct member *m = calloc(1, sizeof *m);
	if (!m)
		return NULL;
	m->sess = s;
	m->seat = seat;
	TAILQ_INSERT_TAIL(&r->members, m, link);
	r->reg->members->joined(s, r);
	return m;
}

static void
drop_member(struct room *r, struct member *m)
{
	TAILQ_REMOVE(&r->members, m, link);
	int watcher = m->seat < 0;
	if (!watcher)
		r->seat[m->seat].m = NULL;
	else
		r->nwatch--;
	r->reg->members->left(m->sess, r);
	free(m);
	if (watcher)
		alone_check(r);
}

static struct member *
member_of(const struct room *r, const struct session *s)
{
	struct member *m;
	TAILQ_FOREACH (m, &r->members, link)
		if (m->sess == s)
			return m;
	return NULL;
}

static int64_t
grace_ms(const struct room *r)
{
	int64_t g = (int64_t)r->srv->cfg.grace_s * 1000;
	int64_t tenth = (int64_t)r->spec.tc_base * 100;
	return tenth > g ? tenth : g;
}

/* The seat's player is away: the opponent may claim after the grace. */
static void
start_grace(struct room *r, int seat, int64_t now, int64_t grace)
{
	struct seat *st = &r->seat[seat];
	st->gone = 1;
	st->deadline = now + grace;
	struct timeval tv = { (time_t)(grace / 1000), (suseconds_t)(grace % 1000) * 1000 };
	evtimer_add(st->grace_ev, &tv);
}

static void arm_flag(struct room *r);

struct room *
room_restore(struct server *srv, const struct archive_saved *sv, struct session *const present[2],
    const char **why)
{
	uint32_t num;
	char node[CONFIG_NODE_MAX + 1];
	if (roomid_parse(sv->room, node, &num) != 0 || room_find(srv, sv->room)) {
		*why = "a bad or duplicate room id";
		return NULL;
	}
	position_t probe;
	if (pos_init(&probe, sv->spec.rule, sv->spec.size) != 0) {
		*why = "a bad rule or board size";
		return NULL;
	}
	/* an opening not done when it was stored: its machine played back
	 * from the stones and the log; done by a stone (a chosen fifth move,
	 * pro's third) it is over, and the rest are the game's moves */
	opening_t open;
	int opening = 0, used = 0;
	memset(&open, 0, sizeof open);
	if (sv->spec.opening != OPEN_FREE && sv->opening_plies < 0) {
		if (opening_init(&open, game_opening_rule(sv->spec.opening), sv->spec.rule,
			sv->spec.size) != OERR_OK ||
		    opening_replay(&open, sv->opening_log, sv->moves, sv->nmoves, &used) !=
			OERR_OK ||
		    (!opening_done(&open) && used != sv->nmoves)) {
			*why = "an opening the rules refuse";
			return NULL;
		}
		opening = !opening_done(&open);
	}
	struct room *r = room_alloc(srv, &sv->spec, sv->private_room, num,
	    strcmp(node, srv->rooms->prefix) == 0 ? NULL : sv->room);
	if (!r) {
		*why = "out of memory";
		return NULL;
	}
	snprintf(r->code, sizeof r->code, "%s", sv->private_room ? sv->code : "");
	r->game_id = sv->id;
	r->moved_both = sv->moved_both;
	r->tpair = sv->tpair;
	r->rated_known = archive_rates(srv);
	memcpy(r->rating, sv->rating, sizeof r->rating);
	for (int i = 0; i < sv->nmoves; i++)
		if (pos_play(&r->pos, sv->moves[i]) != LEGAL_OK) {
			*why = "an illegal move in the record";
			room_free(r);
			return NULL;
		}
	int64_t now = clock_now_ms();
	/* the clocks as the last move left them: no time passed while down */
	if (sv->nmoves > 0)
		gclock_set(&r->clk, sv->left[0], sv->left[1]);
	int64_t grace = grace_ms(r);
	for (int i = 0; i < 2; i++) {
		struct seat *st = &r->seat[i];
		snprintf(st->name, sizeof st->name, "%s", sv->names[i]);
		st->player = !sv->account[i] ? PLAYER_GUEST
		    : sv->bot[i]             ? PLAYER_BOTACCT
					     : PLAYER_ACCOUNT;
		st->bot = sv->bot[i];
		if (present[i]) {
			st->player = r->reg->members->player(present[i]);
			st->bot = r->reg->members->bot(present[i]);
			st->m = add_member(r, present[i], i);
		} else {
			start_grace(r, i, now, grace);
		}
	}
	r->turn_since = now;
	/* the store names the seats as the colours stand (tentative while
	 * the opening goes on): seat 0 holds black */
	r->open = open;
	snprintf(r->olog, sizeof r->olog, "%s", sv->opening_log);
	if (opening) {
		r->status = GAME_OPENING;
	} else {
		r->status = GAME_PLAYING;
		r->nopening = sv->spec.opening == OPEN_FREE ? 0
		    : sv->opening_plies < 0                 ? used
							    : sv->opening_plies;
		gclock_start(&r->clk, seat_to_move(r), now);
		arm_flag(r);
	}
	/* a record from before the end went with the move: end it now */
	game_result_t res;
	game_reason_t reason;
	if (decided(r, &res, &reason))
		room_end_anyway(r, res, reason);
	alone_check(r);
	return r;
}

struct room *
room_find(struct server *srv, const char *id)
{
	uint32_t n;
	if (roomid_parse(id, NULL, &n) != 0)
		return NULL;
	struct room *r;
	LIST_FOREACH (r, &srv->rooms->hash[n % ROOM_BUCKETS], hlink)
		if (r->num == n && strcmp(r->id, id) == 0)
			return r;
	return NULL;
}

struct room *
room_by_code(struct server *srv, const char *code)
{
	struct room *r;
	TAILQ_FOREACH (r, &srv->rooms->all, link)
		if (r->private_room && r->code[0] && strcmp(r->code, code) == 0)
			return r;
	return NULL;
}

void
room_check(struct room *r)
{
	if (r->checking)
		return;
	r->checking = 1;
	r->check_next = r->reg->check;
	r->reg->check = r;
	gc_soon(r->srv->gc);
}

const char *
room_id(const struct room *r)
{
	return r->id;
}

uint32_t
room_num(const struct room *r)
{
	return r->num;
}

int
room_private(const struct room *r)
{
	return r->private_room;
}

const char *
room_code(const struct room *r)
{
	return r->code;
}

game_status_t
room_status(const struct room *r)
{
	return r->status;
}

game_stage_t
room_stage(const struct room *r)
{
	return swap2_stage(r);
}

const struct gamespec *
room_spec(const struct room *r)
{
	return &r->spec;
}

const position_t *
room_position(const struct room *r)
{
	return &r->pos;
}

uint32_t
room_seq(const struct room *r)
{
	return r->seq;
}

int
room_unfinished(const struct room *r)
{
	return r->status == GAME_OPENING || r->status == GAME_PLAYING;
}

int
room_actor(const struct room *r)
{
	if (r->status == GAME_PLAYING)
		return seat_to_move(r);
	if (r->status == GAME_OPENING)
		return swap2_actor(r);
	return -1;
}

int
room_seat_of(const struct room *r, const struct session *s)
{
	for (int i = 0; i < 2; i++)
		if (r->seat[i].m && r->seat[i].m->sess == s)
			return i;
	return -1;
}

struct session *
room_seated(const struct room *r, int seat)
{
	return seated(r, seat);
}

int
room_is_member(const struct room *r, const struct session *s)
{
	return member_of(r, s) != NULL;
}

int
room_watchers(const struct room *r)
{
	return r->nwatch;
}

void
room_each_watcher(const struct room *r, void (*fn)(void *arg, struct session *s), void *arg)
{
	struct member *m;
	TAILQ_FOREACH (m, &r->members, link)
		if (m->seat < 0)
			fn(arg, m->sess);
}

int64_t
room_clock_left(const struct room *r, int seat)
{
	return gclock_left(&r->clk, seat, clock_now_ms());
}

int
room_offer_to(const struct room *r, int seat, uint32_t *id, game_offer_t *kind)
{
	for (int k = 0; k < ASK_KINDS; k++)
		if (r->offers[k].id && r->offers[k].from != seat) {
			*id = r->offers[k].id;
			*kind = (game_offer_t)k;
			return 0;
		}
	return -1;
}

int
room_awaiting(const struct room *r, const char *name)
{
	for (int i = 0; i < 2; i++)
		if (!r->seat[i].m && r->seat[i].gone && strcasecmp(r->seat[i].name, name) == 0)
			return i;
	return -1;
}

void
room_resume(struct room *r, int seat, struct session *s)
{
	r->seat[seat].m = add_member(r, s, seat);
}

/* Stamps m with the room and its next seq, formats it once and hands the
 * line to every member's sink. */
static void
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
	struct member *mb;
	TAILQ_FOREACH (mb, &r->members, link)
		r->reg->members->deliver(mb->sess, r, m, line, (size_t)n);
	if (r->relay)
		r->relay->ops->deliver(r->relay, r, m, line, (size_t)n);
}

void
room_set_relay(struct room *r, struct sink *k)
{
	r->relay = k;
	if (!k)
		r->far_watch = 0;
	alone_check(r);
}

void
room_set_far_watchers(struct room *r, int n)
{
	r->far_watch = n;
	alone_check(r);
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
	if (r->status != GAME_PLAYING || r->clk.running < 0)
		return;
	if (r->pending) { /* after the commit in flight */
		struct timeval soon = { 0, 100 * 1000 };
		evtimer_add(r->flag_ev, &soon);
		return;
	}
	int side = r->clk.running;
	if (gclock_left(&r->clk, side, clock_now_ms()) > 0) {
		arm_flag(r);
		return;
	}
	log_info(&r->srv->log, "room %s: %s flagged", r->id, side ? "white" : "black");
	end_or_retry(r, r->flag_ev, side ? GAME_BLACK_WINS : GAME_WHITE_WINS, BY_TIME);
}

/* Withdraws (or expires) pending offers of the given kinds. */
static void
end_offers(struct room *r, unsigned kinds, proto_end_t how)
{
	for (int k = 0; k < ASK_KINDS; k++) {
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
	m.opening = wire_opening(r->spec.opening);
	m.rated = r->spec.rated;
	clocks_into(r, &m, clock_now_ms());
	room_event(r, &m);
}

/* The opening's stage as * OPENING and = OPENING say it (not swap2's). */
static void
opening_into(const struct room *r, proto_msg_t *m)
{
	const opening_t *o = &r->open;
	snprintf(m->room, sizeof m->room, "%s", r->id);
	m->ostage = wire_ostage((opening_stage_t)o->stage);
	snprintf(m->user, sizeof m->user, "%s", r->seat[swap2_actor(r)].name);
	m->side = o->actor == o->black ? SIDE_BLACK : SIDE_WHITE;
	m->oarea = wire_oarea(opening_area_kind(o));
	int lo, hi;
	opening_declare_range(o, &lo, &hi);
	m->count = o->stage == OSTAGE_DECLARE ? hi : o->declared;
	m->canon = o->canon >= 0 ? o->canon + 1 : PROTO_CANON_NONE;
	for (int i = 0; i < o->noffers; i++)
		notation_format(o->offers[i], r->spec.size, m->moves[m->nmoves++]);
}

static void
send_stage(struct room *r)
{
	proto_msg_t m;
	if (r->spec.opening != OPEN_SWAP2) {
		proto_init(&m, PE_OPENING, NULL);
		opening_into(r, &m);
		room_event(r, &m);
		return;
	}
	proto_init(&m, PE_SWAP2, NULL);
	m.stage = wire_stage(swap2_stage(r));
	snprintf(m.user, sizeof m.user, "%s", r->seat[swap2_actor(r)].name);
	room_event(r, &m);
}

static game_err_t started(
    struct room *r, const struct start *st, game_err_t e, int64_t id, struct room_act *act);
static void begun(void *arg, game_err_t e, int64_t id, const struct archive_rating *rating);
static void send_ratings(struct room *r);
static void send_kinds(struct room *r);

/* The next game's row in the archive, for the seats as they are now; then
 * started() plays it or puts the seats back (st). With SQLite at once: the
 * answer; with PostgreSQL GERR_PENDING, the room busy until begun(). */
static game_err_t
begin_game(struct room *r, const struct start *st, struct room_act *act)
{
	struct archive_game g;
	room_record(r, &g);
	g.id = 0;
	g.opening_plies = r->spec.opening != OPEN_FREE ? -1 : 0;
	if (archive_async(r->srv)) {
		struct pending *p = calloc(1, sizeof *p);
		if (!p || archive_begin_async(r->srv, &g, begun, r) != 0) {
			free(p);
			return started(r, st, GERR_SERVER_BUSY, 0, act);
		}
		p->start = 1;
		p->st = *st;
		p->now = clock_now_ms();
		r->pending = p;
		return GERR_PENDING;
	}
	int64_t id;
	struct archive_rating rating[2];
	int rc = archive_begin(r->srv, &g, &id, rating);
	if (rc == 0)
		memcpy(r->rating, rating, sizeof r->rating);
	return started(r, st, rc ? archive_refusal(r->srv) : GERR_OK, id, act);
}

/* A new game in the room, archived by begin_game: position, clocks, START. */
static void
start_game(struct room *r)
{
	pos_init(&r->pos, r->spec.rule, r->spec.size);
	gclock_init(&r->clk, r->spec.tc_base, r->spec.tc_inc);
	memset(r->offers, 0, sizeof r->offers);
	r->ncells = 0;
	r->nopening = 0;
	r->moved_both = 0;
	r->turn_since = clock_now_ms();
	r->status = r->spec.opening != OPEN_FREE ? GAME_OPENING : GAME_PLAYING;
	r->olog[0] = '\0';
	if (r->status == GAME_OPENING) /* gamespec_check took only what it takes */
		opening_init(
		    &r->open, game_opening_rule(r->spec.opening), r->spec.rule, r->spec.size);
	metrics_game_started(r->srv->metrics, r->spec.rule);
	r->change.changed = 0;
	send_start(r);
	send_ratings(r);
	send_kinds(r);
	if (r->status == GAME_OPENING) {
		send_stage(r);
	} else {
		gclock_start(&r->clk, 0, clock_now_ms());
		arm_flag(r);
	}
	log_info(&r->srv->log, "room %s: game starts, %s (black) v %s (white), %s %d", r->id,
	    r->seat[0].name, r->seat[1].name, rule_name(r->spec.rule), r->spec.size);
}

/* The archive's record of the game ending now as res by reason. */
static void
end_record(struct room *r, game_result_t res, game_reason_t reason, struct archive_game *g)
{
	room_record(r, g);
	g->result = res;
	g->reason = reason;
	r->change.changed = 0;
	g->change = &r->change; /* filled once the end is committed */
}

/* A rating as the wire says it. */
static void
rating_into(const struct archive_rating *a, proto_rating_t *p)
{
	p->value = a->value < 0 ? -1 : a->value;
	p->provisional = a->value >= 0 && a->provisional;
}

/* The seats' names and ratings into a RATINGS line. */
static void
ratings_into(const struct room *r, proto_msg_t *m)
{
	snprintf(m->room, sizeof m->room, "%s", r->id);
	snprintf(m->user, sizeof m->user, "%s", r->seat[0].name);
	snprintf(m->user2, sizeof m->user2, "%s", r->seat[1].name);
	rating_into(&r->rating[0], &m->ratings[0]);
	rating_into(&r->rating[1], &m->ratings[1]);
}

/* * RATINGS after * START, where ratings are kept. */
static void
send_ratings(struct room *r)
{
	if (!r->rated_known)
		return;
	proto_msg_t m;
	proto_init(&m, PE_RATINGS, NULL);
	ratings_into(r, &m);
	room_event(r, &m);
}

/* The seats' names and kinds into a KINDS line (PROTOCOL.md 5.22). */
static void
kinds_into(const struct room *r, proto_msg_t *m)
{
	snprintf(m->room, sizeof m->room, "%s", r->id);
	snprintf(m->user, sizeof m->user, "%s", r->seat[0].name);
	snprintf(m->user2, sizeof m->user2, "%s", r->seat[1].name);
	m->kind = r->seat[0].bot ? FALLBACK_BOT : FALLBACK_HUMAN;
	m->kind2 = r->seat[1].bot ? FALLBACK_BOT : FALLBACK_HUMAN;
}

/* * KINDS after * START and its * RATINGS, where bots are marked (with
 * a store, as ratings: the capability botaccounts). */
static void
send_kinds(struct room *r)
{
	if (!r->rated_known)
		return;
	proto_msg_t m;
	proto_init(&m, PE_KINDS, NULL);
	kinds_into(r, &m);
	room_event(r, &m);
}

/* * RATED after * OVER, when the end changed the ratings. */
static void
send_rated(struct room *r)
{
	if (!r->change.changed)
		return;
	proto_msg_t m;
	proto_init(&m, PE_RATED, NULL);
	snprintf(m.user, sizeof m.user, "%s", r->seat[0].name);
	snprintf(m.user2, sizeof m.user2, "%s", r->seat[1].name);
	m.before = r->change.before[0];
	m.after = r->change.after[0];
	m.before2 = r->change.before[1];
	m.after2 = r->change.after[1];
	r->change.changed = 0;
	room_event(r, &m);
}

/* The game is over, and archived so: the room says it (* OVER). */
static void
game_over(struct room *r, game_result_t res, game_reason_t reason)
{
	gclock_stop(&r->clk, clock_now_ms());
	evtimer_del(r->flag_ev);
	r->status = GAME_OVER;
	r->result = res;
	r->reason = reason;
	metrics_game_finished(r->srv->metrics, r->spec.rule, reason);
	if (reason == BY_FIVE) {
		r->ncells = r->pos.outcome.ncells;
		memcpy(r->cells, r->pos.outcome.cells, sizeof r->cells);
	} else {
		r->ncells = 0;
	}
	end_offers(r, OFFERS_GAME, END_EXPIRED);
	proto_msg_t m;
	proto_init(&m, PE_OVER, NULL);
	m.result = wire_result(res);
	m.reason = wire_reason(reason);
	for (int i = 0; i < r->ncells && i < PROTO_LIST_MAX; i++)
		notation_format(r->cells[i], r->spec.size, m.moves[m.nmoves++]);
	room_event(r, &m);
	send_rated(r);
	log_info(&r->srv->log, "room %s: game over, %s %s", r->id, game_result_name(res),
	    game_reason_name(reason));
	evtimer_del(r->alone_ev);
	if (r->reg->over)
		r->reg->over(r->reg->over_arg, r);
	/* players who are away have nothing left to come back for */
	for (int i = 0; i < 2; i++) {
		struct seat *st = &r->seat[i];
		evtimer_del(st->grace_ev);
		if (st->gone && st->m)
			r->reg->members->idle(st->m->sess);
		st->gone = 0;
	}
	room_check(r);
}

static void write_done(void *arg, game_err_t e);
static void answered(struct room *r, game_err_t e, const struct room_act *act);
static void swap_seats(struct room *r);
static void undone(struct room *r, int plies, unsigned accepted, int64_t now);
static void acted(struct room *r, const opening_act_t *a, const char *log);

/* A write queued at the store thread (archive_*_async): the room waits
 * for it in p; -1 when it could not be queued (rc). */
static int
wait_for(struct room *r, int rc, struct pending *p)
{
	if (rc != 0) {
		free(p);
		return -1;
	}
	p->now = clock_now_ms();
	r->pending = p;
	return 0;
}

/* Ends an unfinished game: archived first (with the ratings), then said.
 * 0; -1, with nothing changed, when the store refused it; 1 when the end
 * is in flight at the store thread (r->pending: write_done says it), or
 * waits there behind the room's write in flight (then_end). */
static int end_accepted(struct room *r, game_result_t res, game_reason_t reason, unsigned accepted);

static int
room_end(struct room *r, game_result_t res, game_reason_t reason)
{
	return end_accepted(r, res, reason, 0);
}

/* room_end of a game the players agreed to end: the accepted offers are
 * said so before * OVER. */
static int
end_accepted(struct room *r, game_result_t res, game_reason_t reason, unsigned accepted)
{
	struct archive_game g;
	if (!room_unfinished(r))
		return 0;
	end_record(r, res, reason, &g);
	if (r->game_id && archive_writes_async(r->srv) && r->pending) {
		/* a write of the room is in flight (stones, an undo, colours): the
		 * end goes after it, from its answer (write_done), never from the
		 * loop; an end in flight already is the one */
		if (!r->pending->end && !r->pending->start) {
			r->pending->then_end = 1;
			r->pending->then_res = res;
			r->pending->then_why = reason;
		}
		return 1;
	}
	if (r->game_id && archive_writes_async(r->srv)) {
		struct pending *p = calloc(1, sizeof *p);
		if (!p ||
		    archive_moves_async(
			r->srv, r->game_id, r->pos.nmoves, NULL, 0, &g, write_done, r) != 0) {
			free(p);
			return -1;
		}
		p->end = 1;
		p->res = res;
		p->why = reason;
		p->accepted = accepted;
		r->pending = p;
		return 1;
	}
	if (archive_end(r->srv, &g) != 0)
		return -1;
	end_offers(r, accepted, END_ACCEPTED);
	game_over(r, res, reason);
	return 0;
}

/* Ends the game where no request can be refused (a player leaves, the
 * record says it is over): when the store refuses, the room ends it all the
 * same and the store keeps it unfinished, to be taken up after a restart. */
static void
room_end_anyway(struct room *r, game_result_t res, game_reason_t reason)
{
	int rc = room_unfinished(r) ? room_end(r, res, reason) : 0;
	if (rc > 0)
		r->pending->anyway = 1;
	if (rc < 0) {
		log_error(&r->srv->log,
		    "room %s: the end is not stored; it stays open in the store", r->id);
		game_over(r, res, reason);
	}
}

/* A timer's end of the game (a flag, an abandoned game): when the store
 * refuses it, the timer tries again in a second. */
static void
end_or_retry(struct room *r, struct event *ev, game_result_t res, game_reason_t reason)
{
	struct timeval again = { 1, 0 };
	int rc = room_end(r, res, reason);
	if (rc < 0)
		evtimer_add(ev, &again);
	else if (rc > 0)
		r->pending->retry = ev;
}

/* Whether the position's last move ended the game: its result and reason. */
static int
decided(const struct room *r, game_result_t *res, game_reason_t *reason)
{
	if (r->pos.outcome.kind == RESULT_WIN) {
		*res = game_win_for(r->pos.outcome.winner);
		*reason = BY_FIVE;
		return 1;
	}
	if (r->pos.outcome.kind == RESULT_DRAW) {
		*res = GAME_DRAWN;
		*reason = BY_BOARD_FULL;
		return 1;
	}
	return 0;
}

/* Plays checked stones for the sides to move on the position and clocks,
 * and fills their events and the archive's rows. */
static void
place(struct room *r, const move_t *mv, int n, const char *reason, int64_t now,
    struct archive_move *am, proto_msg_t *m)
{
	for (int i = 0; i < n; i++) {
		int side = seat_to_move(r);
		pos_play(&r->pos, mv[i]);
		proto_init(&m[i], PE_MOVE, NULL);
		m[i].side = side ? SIDE_WHITE : SIDE_BLACK;
		notation_format(mv[i], r->spec.size, m[i].move);
		snprintf(m[i].text, sizeof m[i].text, "%s", reason ? reason : "");
		if (r->status == GAME_PLAYING)
			gclock_moved(&r->clk, side, now);
		clocks_into(r, &m[i], now);
		am[i].move = mv[i];
		am[i].used_ms = i == 0 ? now - r->turn_since : 0;
		am[i].black_ms = m[i].bms;
		am[i].white_ms = m[i].wms;
	}
}

/* The stored stones said: a * MOVE each, the first's seq in *seq. */
static void
publish(struct room *r, proto_msg_t *m, int n, int64_t now, uint32_t *seq)
{
	r->turn_since = now;
	for (int i = 0; i < n; i++) {
		room_event(r, &m[i]);
		if (i == 0)
			*seq = r->seq;
	}
	metrics_moves_relayed(r->srv->metrics, n);
}

/* Places checked stones for the sides to move, stores them (with the end
 * when they decide the game) in one transaction, and only then says so: a
 * * MOVE each, the first's seq in *seq. 0; -1, with nothing changed, when
 * the store refused; 1 when the commit is in flight at the store thread
 * (the room unchanged until write_done). */
static int
play(struct room *r, const move_t *mv, int n, const char *reason, int64_t now, uint32_t *seq,
    int swap2)
{
	struct gclock before = r->clk;
	struct archive_move am[3];
	proto_msg_t m[3];
	int first = r->pos.nmoves;
	place(r, mv, n, reason, now, am, m);
	game_result_t res;
	game_reason_t why;
	struct archive_game end;
	int over = decided(r, &res, &why);
	if (over)
		end_record(r, res, why, &end);
	int async = r->game_id && archive_writes_async(r->srv), rc;
	if (async)
		rc = archive_moves_async(
		    r->srv, r->game_id, first, am, n, over ? &end : NULL, write_done, r);
	else
		rc = archive_moves(r->srv, r->game_id, first, am, n, over ? &end : NULL);
	if (rc != 0 || async) {
		while (r->pos.nmoves > first)
			pos_undo(&r->pos);
		r->clk = before;
	}
	if (rc != 0)
		return -1;
	if (async) {
		struct pending *p = calloc(1, sizeof *p);
		if (!p)
			abort(); /* the write is queued with the room as its answer's address */
		p->n = n;
		memcpy(p->mv, mv, (size_t)n * sizeof *mv);
		snprintf(p->reason, sizeof p->reason, "%s", reason ? reason : "");
		p->now = now;
		p->swap2 = swap2;
		p->line_at_us = metrics_line_at(r->srv->metrics);
		r->pending = p;
		return 1;
	}
	publish(r, m, n, now, seq);
	return 0;
}

static game_err_t
refuse(struct room_act *act, game_err_t e, const char *why)
{
	act->why = why;
	return e;
}

/* A change asked while the room's last write is in flight (r->pending): the
 * dispatcher parks a player's request until its answer (room_busy), so
 * only a caller that did not look asks; refused and logged, nothing
 * changed, since a second write in flight would take the first's place. */
static game_err_t
in_flight(const struct room *r, struct room_act *act)
{
	if (!r->pending)
		return GERR_OK;
	log_error(&r->srv->log, "room %s: a change while one is in flight, refused", r->id);
	return refuse(act, GERR_SERVER_BUSY, "the last change is still being stored");
}

/* Why the store refused a write (e: the refusal). */
static const char *
refusal_why(game_err_t e)
{
	return e == GERR_STORE_DOWN ? "the database cannot be reached; nothing changed, try again"
	    : e == GERR_SERVER_BUSY ? "the database is busy; nothing changed, try again"
				    : "the game could not be saved; try again";
}

/* The store refused the change: nothing happened, try again. */
static game_err_t
store_refused(const struct room *r, struct room_act *act)
{
	game_err_t e = archive_refusal(r->srv);
	return refuse(act, e, refusal_why(e));
}

static void
act_init(struct room_act *act)
{
	memset(act, 0, sizeof *act);
}

/* After a stored move: offers lapse, the game ends or the clock runs. */
static void
moved(struct room *r)
{
	end_offers(r, OFFERS_GAME, END_WITHDRAWN);
	game_result_t res;
	game_reason_t why;
	if (decided(r, &res, &why))
		game_over(r, res, why);
	else
		arm_flag(r);
}

static void opening_over(struct room *r);

/* After stored opening stones: the machine takes them (the verb tried them
 * on a copy; at its CHOOSE stage a stone is the chosen fifth move) and says
 * the next stage, or the colours when that ends the opening. */
static void
stones_put(struct room *r)
{
	while (r->open.pos.nmoves < r->pos.nmoves) {
		move_t mv = r->pos.moves[r->open.pos.nmoves];
		if (r->open.stage == OSTAGE_CHOOSE)
			opening_choose_fifth(&r->open, r->open.actor, mv);
		else
			opening_place(&r->open, r->open.actor, mv);
	}
	if (opening_done(&r->open))
		opening_over(r);
	else
		send_stage(r);
}

/* The store thread's answer for the room's stones: played and said, or
 * refused (nothing changed); then the request that waited hears it. */
static void
write_done(void *arg, game_err_t e)
{
	struct room *r = arg;
	struct pending *p = r->pending;
	struct room_act act;
	act_init(&act);
	r->pending = NULL;
	if (e == GERR_FENCED) {
		/* not this node's game any more: lease.c leaves the room */
		act.why = "another node plays this game now; nothing changed: see * MOVED";
	} else if (e != GERR_OK) {
		act.why = refusal_why(e);
		struct timeval again = { 1, 0 };
		if (p->end && p->anyway) {
			log_error(&r->srv->log,
			    "room %s: the end is not stored; it stays open in the store", r->id);
			game_over(r, p->res, p->why);
		} else if (p->end && p->retry) {
			evtimer_add(p->retry, &again);
		}
	} else if (p->end) {
		end_offers(r, p->accepted, END_ACCEPTED);
		game_over(r, p->res, p->why);
		act.seq = r->seq;
		if (p->answer) {
			e = p->answer;
			act.why = p->answer_why;
		}
	} else if (!room_unfinished(r)) {
		/* ended meanwhile where nothing may wait (a player left) */
		e = GERR_OVER;
	} else if (p->undo) {
		undone(r, p->undo, p->accepted, p->now);
		act.seq = r->seq;
	} else if (p->colours) {
		acted(r, &p->oact, p->olog);
		act.seq = r->seq;
	} else {
		struct archive_move am[3];
		proto_msg_t m[3];
		place(r, p->mv, p->n, p->reason[0] ? p->reason : NULL, p->now, am, m);
		int64_t line_at = metrics_line_at(r->srv->metrics);
		metrics_line_set(r->srv->metrics, p->line_at_us);
		publish(r, m, p->n, p->now, &act.seq);
		metrics_line_set(r->srv->metrics, line_at);
		if (p->swap2) {
			stones_put(r);
			act.seq = r->seq;
		} else {
			moved(r);
		}
	}
	int then_end = p->then_end && room_unfinished(r);
	game_result_t then_res = p->then_res;
	game_reason_t then_why = p->then_why;
	free(p);
	if (then_end) /* on the store thread in turn: the room waits again */
		room_end_anyway(r, then_res, then_why);
	answered(r, e, &act);
}

/* The request that waited for the room's commit hears it (e and act as
 * its verb would have returned them); the room may be done with. */
static void
answered(struct room *r, game_err_t e, const struct room_act *act)
{
	if (r->reg->reply)
		r->reg->reply(r->reg->reply_arg, r, e, act);
	room_check(r);
}

static void unsit(struct room *r, int seat);

/* A start that did not happen: the seats as they were before it. */
static void
unstart(struct room *r, const struct start *st)
{
	if (st->swap)
		swap_seats(r);
	if (st->joined >= 0) {
		unsit(r, st->joined);
	} else if (st->joined == -1) {
		unsit(r, 0);
		unsit(r, 1);
	}
	if (r->status == GAME_WAITING && !r->seat[0].m && !r->seat[1].m)
		r->code[0] = '\0'; /* its creator left meanwhile: nobody to join */
}

static void
row_aborted(void *arg, game_err_t e)
{
	(void)arg;
	(void)e; /* move_job_done logged a refusal */
}

/* The stored row of a game that never started (a player went while it was
 * stored) ends as aborted; nobody waits for that. Refused, it stays open
 * in the store, and a restart ends it as any game nobody came back to. */
static void
abort_row(struct room *r, int64_t id)
{
	struct archive_game g;
	room_record(r, &g);
	g.id = id;
	g.opening_plies = r->spec.opening != OPEN_FREE ? -1 : 0;
	g.result = GAME_NO_RESULT;
	g.reason = BY_ABORTED;
	int rc = archive_async(r->srv)
	    ? archive_moves_async(r->srv, id, 0, NULL, 0, &g, row_aborted, NULL)
	    : archive_end(r->srv, &g);
	log_info(&r->srv->log, "room %s: a player went while its game was stored: %s", r->id,
	    rc == 0 ? "its row ends aborted" : "its row stays open in the store");
}

/* The start's answer e (id: its row): the game on (* START), or, refused
 * or with a seat its player left while the row was stored, the seats as
 * they were; then the caller's continuation hears it. Returns the answer. */
static game_err_t
started(struct room *r, const struct start *st, game_err_t e, int64_t id, struct room_act *act)
{
	const char *why = e == GERR_OK ? NULL : refusal_why(e);
	if (e == GERR_OK && (!r->seat[0].m || !r->seat[1].m)) {
		abort_row(r, id);
		e = GERR_BUSY;
		why = "the other player went while the game was starting; nothing started";
	}
	if (e == GERR_OK) {
		r->game_id = id;
		r->rated_known = archive_rates(r->srv);
		end_offers(r, 1u << ASK_REMATCH, END_ACCEPTED);
		start_game(r);
		alone_check(r);
	} else {
		unstart(r, st);
	}
	if (act) {
		act->seq = r->seq;
		act->why = why;
	}
	if (st->fn)
		st->fn(st->arg, r, e);
	return e;
}

/* The store thread's answer for the game's row: started() says it, then
 * the request that waited hears it. */
static void
begun(void *arg, game_err_t e, int64_t id, const struct archive_rating *rating)
{
	struct room *r = arg;
	struct pending *p = r->pending;
	struct room_act act;
	act_init(&act);
	r->pending = NULL;
	if (e == GERR_OK)
		memcpy(r->rating, rating, sizeof r->rating);
	e = started(r, &p->st, e, id, &act);
	free(p);
	answered(r, e, &act);
}

int
room_busy(const struct room *r)
{
	return r->pending != NULL;
}

void
rooms_on_reply(struct room_registry *reg, room_reply_fn fn, void *arg)
{
	reg->reply = fn;
	reg->reply_arg = arg;
}

void
rooms_on_over(struct room_registry *reg, room_over_fn fn, void *arg)
{
	reg->over = fn;
	reg->over_arg = arg;
}

void
room_set_tpair(struct room *r, int64_t tpair)
{
	r->tpair = tpair;
}

int64_t
room_tpair(const struct room *r)
{
	return r->tpair;
}

const char *
room_seat_name(const struct room *r, int seat)
{
	return r->seat[seat].name;
}

int
room_result(const struct room *r, game_result_t *res, game_reason_t *reason)
{
	if (r->status != GAME_OVER)
		return -1;
	*res = r->result;
	*reason = r->reason;
	return 0;
}

void
room_stop(struct room *r)
{
	if (room_unfinished(r))
		room_end_anyway(r, GAME_NO_RESULT, BY_ABORTED);
}

/* Whether the first stone of a game without an opening rule may not go on
 * mv: the rules core's opening machine knows (renju's goes on the centre;
 * freestyle and standard's anywhere). */
static int
first_off_area(const struct room *r, move_t mv)
{
	opening_t o;
	if (r->spec.opening != OPEN_FREE ||
	    opening_init(&o, ORULE_NONE, r->spec.rule, r->spec.size) != OERR_OK || opening_done(&o))
		return 0;
	return opening_place(&o, o.actor, mv) == OERR_OUTSIDE_AREA;
}

game_err_t
room_move(
    struct room *r, struct session *s, const char *move, const char *reason, struct room_act *act)
{
	act_init(act);
	int seat = room_seat_of(r, s);
	if (seat < 0)
		return GERR_NOT_PLAYER;
	if (r->status == GAME_OPENING)
		return refuse(act, GERR_PHASE,
		    r->spec.opening == OPEN_SWAP2 ? "the swap2 opening is in progress: use SWAP2"
						  : "the opening is in progress: use OPENING");
	if (r->status != GAME_PLAYING)
		return GERR_OVER;
	int to_move = seat_to_move(r);
	if (seat != to_move)
		return refuse(
		    act, GERR_NOT_TURN, to_move ? "white is to move" : "black is to move");
	game_err_t busy = in_flight(r, act);
	if (busy)
		return busy;
	int64_t now = clock_now_ms();
	if (r->clk.timed && gclock_left(&r->clk, seat, now) == 0) {
		int rc = room_end(r, seat ? GAME_BLACK_WINS : GAME_WHITE_WINS, BY_TIME);
		if (rc < 0)
			return store_refused(r, act);
		if (rc > 0) {
			r->pending->answer = GERR_OVER;
			r->pending->answer_why = "your flag fell";
			return GERR_PENDING;
		}
		return refuse(act, GERR_OVER, "your flag fell");
	}
	move_t mv;
	if (notation_parse(move, r->spec.size, &mv) != 0)
		return GERR_OFF_BOARD;
	if (r->pos.nmoves == 0 && first_off_area(r, mv))
		return refuse(
		    act, GERR_OUTSIDE_AREA, "black's first stone goes on the centre point");
	legality_t l = pos_check(&r->pos, mv);
	if (l != LEGAL_OK) {
		act->legal = l;
		return refuse(act, GERR_ILLEGAL, legality_name(l));
	}
	int rc = play(r, &mv, 1, reason, now, &act->seq, 0);
	if (rc < 0)
		return store_refused(r, act);
	if (rc > 0)
		return GERR_PENDING;
	moved(r);
	return GERR_OK;
}

/* Exchanges the two seats (and so the colours) with everything they hold. */
static void
swap_seats(struct room *r)
{
	struct seat t = r->seat[0];
	r->seat[0] = r->seat[1];
	r->seat[1] = t;
	struct archive_rating rt = r->rating[0];
	r->rating[0] = r->rating[1];
	r->rating[1] = rt;
	for (int i = 0; i < 2; i++)
		if (r->seat[i].m)
			r->seat[i].m->seat = i;
}

/* The opening is over (and archived): tell the colours as the seats hold
 * them, start the clocks. */
static void
opening_over(struct room *r)
{
	proto_msg_t m;
	proto_init(&m, PE_COLOURS, NULL);
	snprintf(m.user, sizeof m.user, "%s", r->seat[0].name);
	snprintf(m.user2, sizeof m.user2, "%s", r->seat[1].name);
	room_event(r, &m);
	r->status = GAME_PLAYING;
	r->nopening = r->pos.nmoves;
	r->turn_since = clock_now_ms();
	gclock_start(&r->clk, seat_to_move(r), r->turn_since);
	arm_flag(r);
}

/* The seat s holds if it is the one the opening waits for, or a refusal. */
static game_err_t
opening_turn(const struct room *r, const struct session *s, int swap2, struct room_act *act)
{
	int seat = room_seat_of(r, s);
	if (seat < 0)
		return GERR_NOT_PLAYER;
	game_err_t e = in_flight(r, act);
	if (e)
		return e;
	if (r->status != GAME_OPENING)
		return refuse(
		    act, room_unfinished(r) ? GERR_PHASE : GERR_OVER, "no opening in progress");
	if (swap2 != (r->spec.opening == OPEN_SWAP2))
		return refuse(act, GERR_PHASE,
		    swap2 ? "this game's opening is not swap2: use OPENING"
			  : "swap2 is played with SWAP2");
	if (seat != swap2_actor(r))
		return GERR_NOT_TURN;
	return GERR_OK;
}

/* The machine's refusal of an act, in the room's terms. */
static game_err_t
opening_refused(opening_err_t oe, const opening_t *o, move_t mv, struct room_act *act)
{
	switch (oe) {
	case OERR_NOT_TURN:
		return GERR_NOT_TURN;
	case OERR_WRONG_STAGE:
		return refuse(act, GERR_PHASE, "not an act of this stage of the opening");
	case OERR_OFF_BOARD:
		return GERR_OFF_BOARD;
	case OERR_OCCUPIED:
		act->legal = LEGAL_OCCUPIED;
		return refuse(act, GERR_ILLEGAL, legality_name(LEGAL_OCCUPIED));
	case OERR_OUTSIDE_AREA:
		return refuse(act, GERR_OUTSIDE_AREA, "this stage allows no stone there");
	case OERR_ILLEGAL:
		act->legal = pos_check(&o->pos, mv);
		return refuse(act, GERR_ILLEGAL, legality_name(act->legal));
	case OERR_WRONG_COUNT:
		return refuse(act, GERR_WRONG_COUNT, "not the number of offers this stage takes");
	case OERR_DUPLICATE:
		return refuse(act, GERR_SYMMETRIC, "the same point offered twice");
	case OERR_SYMMETRIC:
		return refuse(
		    act, GERR_SYMMETRIC, "two offers are the same by the board's symmetry");
	case OERR_NOT_OFFERED:
		return refuse(act, GERR_NOT_OFFERED, "that fifth move was not offered");
	default:
		return refuse(act, GERR_ARGUMENT, opening_err_name(oe));
	}
}

/* An act with no stone is stored: the machine takes it, the seats follow
 * the colours (seat 0 holds black), and the next stage or the end is said. */
static void
acted(struct room *r, const opening_act_t *a, const char *log)
{
	int black = r->open.black;
	opening_apply(&r->open, r->open.actor, a); /* tried on a copy first */
	snprintf(r->olog, sizeof r->olog, "%s", log);
	if (r->open.black != black)
		swap_seats(r);
	if (opening_done(&r->open))
		opening_over(r);
	else
		send_stage(r);
}

/* An opening's act that places no stone (trial: the machine after it):
 * stored with the log and the seats' names as the colours will stand, then
 * acted. */
static game_err_t
act_stored(struct room *r, const opening_t *trial, const opening_act_t *a, struct room_act *act)
{
	char log[OPENING_LOG_MAX];
	snprintf(log, sizeof log, "%s", r->olog);
	if (opening_log_append(log, sizeof log, r->pos.nmoves, a, r->spec.size) != 0)
		return refuse(act, GERR_ARGUMENT, "the opening's record is full");
	int swap = trial->black != r->open.black;
	const char *b = r->seat[swap ? 1 : 0].name, *w = r->seat[swap ? 0 : 1].name;
	int plies = opening_done(trial) ? r->pos.nmoves : -1;
	if (r->game_id && archive_writes_async(r->srv)) {
		struct pending *p = calloc(1, sizeof *p);
		if (!p ||
		    wait_for(r,
			archive_colours_async(r->srv, r->game_id, b, w, plies, log, write_done, r),
			p) != 0)
			return store_refused(r, act);
		p->colours = 1;
		p->oact = *a;
		snprintf(p->olog, sizeof p->olog, "%s", log);
		return GERR_PENDING;
	}
	if (archive_colours(r->srv, r->game_id, b, w, plies, log) != 0)
		return store_refused(r, act);
	acted(r, a, log);
	act->seq = r->seq;
	return GERR_OK;
}

/* Opening stones (checked on trial, the machine after them), stored as the
 * game's moves; then the stage moves on (stones_put). */
static game_err_t
stones_stored(struct room *r, const opening_t *trial, const move_t *mv, int n, struct room_act *act)
{
	if (trial->pos.outcome.kind != RESULT_ONGOING)
		return refuse(act, GERR_ARGUMENT, "opening stones may not end the game");
	uint32_t seq;
	int rc = play(r, mv, n, NULL, clock_now_ms(), &seq, 1); /* all or nothing */
	if (rc < 0)
		return store_refused(r, act);
	if (rc > 0)
		return GERR_PENDING;
	stones_put(r);
	act->seq = r->seq;
	return GERR_OK;
}

game_err_t
room_swap2_put(
    struct room *r, struct session *s, const char *const *moves, int n, struct room_act *act)
{
	act_init(act);
	game_err_t e = opening_turn(r, s, 1, act);
	if (e)
		return e;
	game_stage_t stage = swap2_stage(r);
	int want = stage == SWAP2_PUT3 ? 3 : stage == SWAP2_CHOOSE ? 2 : 0;
	if (want == 0)
		return refuse(act, GERR_PHASE, "choose black or white");
	if (n != want)
		return refuse(act, GERR_ARGUMENT,
		    want == 3 ? "put three stones: black, white, black"
			      : "put two stones: white, black");
	/* check them all on a copy of the machine first: all or nothing */
	opening_t trial = r->open;
	move_t mv[3];
	for (int i = 0; i < want; i++) {
		if (notation_parse(moves[i], r->spec.size, &mv[i]) != 0)
			return GERR_OFF_BOARD;
		opening_err_t oe = opening_place(&trial, trial.actor, mv[i]);
		if (oe != OERR_OK) {
			/* the rules core's reason, as before the machine */
			legality_t l = pos_check(&trial.pos, mv[i]);
			if (l == LEGAL_OK)
				return refuse(act, GERR_ARGUMENT, opening_err_name(oe));
			act->legal = l;
			return refuse(act, GERR_ILLEGAL, legality_name(l));
		}
		if (trial.pos.outcome.kind != RESULT_ONGOING)
			break;
	}
	return stones_stored(r, &trial, mv, want, act);
}

game_err_t
room_swap2_choose(struct room *r, struct session *s, stone_t colour, struct room_act *act)
{
	act_init(act);
	game_err_t e = opening_turn(r, s, 1, act);
	if (e)
		return e;
	if (swap2_stage(r) == SWAP2_PUT3)
		return refuse(act, GERR_PHASE, "put three stones first");
	/* the actor takes the colour it names (anything but black is white) */
	opening_act_t a;
	memset(&a, 0, sizeof a);
	a.kind = OACT_COLOUR;
	a.arg = colour == STONE_BLACK ? STONE_BLACK : STONE_WHITE;
	opening_t trial = r->open;
	opening_apply(&trial, trial.actor, &a);
	return act_stored(r, &trial, &a, act);
}

const opening_t *
room_opening(const struct room *r)
{
	return r->status == GAME_OPENING ? &r->open : NULL;
}

const char *
room_opening_log(const struct room *r)
{
	return r->olog;
}

game_err_t
room_opening_act(struct room *r, struct session *s, const opening_act_t *a, struct room_act *act)
{
	act_init(act);
	game_err_t e = opening_turn(r, s, 0, act);
	if (e)
		return e;
	opening_t trial = r->open;
	opening_err_t oe = opening_apply(&trial, trial.actor, a);
	if (oe != OERR_OK)
		return opening_refused(oe, &r->open, a->moves[0], act);
	if (opening_act_stone(a))
		return stones_stored(r, &trial, a->moves, 1, act);
	return act_stored(r, &trial, a, act);
}

game_err_t
room_resign(struct room *r, struct session *s, struct room_act *act)
{
	act_init(act);
	int seat = room_seat_of(r, s);
	if (seat < 0)
		return GERR_NOT_PLAYER;
	if (!room_unfinished(r))
		return GERR_OVER;
	int rc = room_end(r, seat ? GAME_BLACK_WINS : GAME_WHITE_WINS, BY_RESIGN);
	if (rc < 0)
		return store_refused(r, act);
	if (rc > 0)
		return GERR_PENDING;
	act->seq = r->seq;
	return GERR_OK;
}

/* Plies an undo for seat takes back so seat is to move again, or 0. */
static int
undo_plies(const struct room *r, int seat)
{
	int plies = seat_to_move(r) == seat ? 2 : 1;
	return r->pos.nmoves - r->nopening >= plies ? plies : 0;
}

game_err_t
room_offer(struct room *r, struct session *s, game_offer_t kind, struct room_act *act)
{
	act_init(act);
	int seat = room_seat_of(r, s);
	if (seat < 0)
		return GERR_NOT_PLAYER;
	if (kind == ASK_REMATCH && r->tpair) {
		act->why = "a tournament's game has no rematch";
		return GERR_PHASE;
	}
	if (kind == ASK_REMATCH) {
		if (r->status != GAME_OVER)
			return refuse(act, GERR_PHASE, "rematch is offered after the game");
		struct session *o = seated(r, 1 - seat);
		if (!o || !r->reg->members->present(o))
			return refuse(act, GERR_PHASE, "the opponent has left");
		if (r->reg->members->game(s) || r->reg->members->game(o) ||
		    r->reg->members->seeking(s) || r->reg->members->seeking(o))
			return refuse(act, GERR_BUSY, "a player is busy");
		if (r->reg->members->busy(s) || r->reg->members->busy(o))
			return refuse(act, GERR_BUSY, BUSY_WAITING);
	} else {
		if (r->status == GAME_OPENING)
			return refuse(act, GERR_PHASE, "not during the opening");
		if (r->status != GAME_PLAYING)
			return GERR_OVER;
		if (kind == ASK_UNDO && !undo_plies(r, seat))
			return refuse(act, GERR_PHASE, "nothing to take back");
	}
	if (r->offers[kind].id)
		return GERR_OFFER_PENDING;
	r->offers[kind].id = ++r->next_offer;
	r->offers[kind].from = seat;
	act->offer = r->offers[kind].id;
	proto_msg_t m;
	proto_init(&m, PE_OFFER, NULL);
	m.ident = act->offer;
	m.offer = wire_offer(kind);
	snprintf(m.user, sizeof m.user, "%s", r->reg->members->name(s));
	room_event(r, &m);
	act->seq = r->seq;
	return GERR_OK;
}

/* Takes back plies that the archive has already dropped. */
static void
do_undo(struct room *r, int plies, int64_t now)
{
	for (int i = 0; i < plies; i++)
		pos_undo(&r->pos);
	r->turn_since = now;
	gclock_start(&r->clk, seat_to_move(r), now);
	proto_msg_t m;
	proto_init(&m, PE_UNDO, NULL);
	m.plies = plies;
	clocks_into(r, &m, now);
	room_event(r, &m);
	arm_flag(r);
}

game_err_t
room_answer(struct room *r, struct session *s, uint32_t id, int accept, struct room_act *act)
{
	act_init(act);
	int seat = room_seat_of(r, s);
	if (seat < 0)
		return GERR_NOT_PLAYER;
	int k;
	for (k = 0; k < ASK_KINDS; k++)
		if (r->offers[k].id == id)
			break;
	if (k == ASK_KINDS || (accept && r->offers[k].from == seat))
		return GERR_NO_OFFER;
	if (!accept) {
		end_offers(r, 1u << k, r->offers[k].from == seat ? END_WITHDRAWN : END_DECLINED);
		act->seq = r->seq;
		return GERR_OK;
	}
	int from = r->offers[k].from;
	if (k == ASK_REMATCH) {
		/* as for the offer: a seek left open would pair into a second game */
		struct session *o = seated(r, from);
		if (!o || !r->reg->members->present(o) || r->reg->members->game(o) ||
		    r->reg->members->game(s))
			return refuse(act, GERR_BUSY, "a player is playing elsewhere");
		if (r->reg->members->seeking(o) || r->reg->members->seeking(s))
			return refuse(act, GERR_BUSY, "a player is seeking: CANCEL first");
		/* a friend's JOIN would start a second game beside this one */
		if (r->reg->members->busy(o) || r->reg->members->busy(s))
			return refuse(act, GERR_BUSY, BUSY_WAITING);
	}
	int plies = k == ASK_UNDO ? undo_plies(r, from) : 0;
	/* the store first: a refusal changes nothing */
	if (k == ASK_DRAW) {
		int rc = end_accepted(r, GAME_DRAWN, BY_DRAW_AGREED, 1u << k);
		if (rc < 0)
			return store_refused(r, act);
		if (rc > 0)
			return GERR_PENDING;
	} else if (k == ASK_UNDO && r->game_id && archive_writes_async(r->srv)) {
		struct pending *p = calloc(1, sizeof *p);
		if (!p ||
		    wait_for(r,
			archive_truncate_async(
			    r->srv, r->game_id, r->pos.nmoves - plies, write_done, r),
			p) != 0)
			return store_refused(r, act);
		p->undo = plies;
		p->accepted = 1u << k;
		return GERR_PENDING;
	} else if (k == ASK_UNDO) {
		if (archive_truncate(r->srv, r->game_id, r->pos.nmoves - plies) != 0)
			return store_refused(r, act);
		undone(r, plies, 1u << k, clock_now_ms());
	} else {
		/* the new game's row first; a refusal leaves the offer open */
		struct start st = { -2, 1, NULL, NULL };
		swap_seats(r);
		return begin_game(r, &st, act);
	}
	act->seq = r->seq;
	return GERR_OK;
}

/* The undo is stored: the offer accepted, the plies taken back. */
static void
undone(struct room *r, int plies, unsigned accepted, int64_t now)
{
	end_offers(r, accepted, END_ACCEPTED);
	if (r->pos.nmoves >= 2)
		r->moved_both = 1; /* the undo must not make ABORT early again */
	do_undo(r, plies, now);
	end_offers(r, OFFERS_GAME, END_WITHDRAWN);
}

game_err_t
room_abort(struct room *r, struct session *s, struct room_act *act)
{
	act_init(act);
	if (room_seat_of(r, s) < 0)
		return GERR_NOT_PLAYER;
	if (!room_unfinished(r))
		return GERR_OVER;
	if (r->tpair) {
		act->why = "a tournament's game is played or forfeited, never aborted";
		return GERR_TOO_LATE;
	}
	if (r->status == GAME_PLAYING &&
	    (r->spec.opening == OPEN_SWAP2 || r->pos.nmoves >= 2 || r->moved_both))
		return GERR_TOO_LATE;
	int rc = room_end(r, GAME_NO_RESULT, BY_ABORTED);
	if (rc < 0)
		return store_refused(r, act);
	if (rc > 0)
		return GERR_PENDING;
	act->seq = r->seq;
	return GERR_OK;
}

game_err_t
room_claim(struct room *r, struct session *s, struct room_act *act)
{
	act_init(act);
	int seat = room_seat_of(r, s);
	if (seat < 0)
		return GERR_NOT_PLAYER;
	if (!room_unfinished(r))
		return GERR_OVER;
	struct seat *o = &r->seat[1 - seat];
	if (!o->gone || clock_now_ms() < o->deadline)
		return GERR_NO_CLAIM;
	int rc = never_came(r, 1 - seat)
	    ? room_end(r, GAME_NO_RESULT, BY_ABORTED)
	    : room_end(r, seat ? GAME_WHITE_WINS : GAME_BLACK_WINS, BY_ABANDONED);
	if (rc < 0)
		return store_refused(r, act);
	if (rc > 0)
		return GERR_PENDING;
	act->seq = r->seq;
	return GERR_OK;
}

game_err_t
room_say(struct room *r, struct session *s, const char *text, struct room_act *act)
{
	act_init(act);
	if (!member_of(r, s))
		return GERR_NOT_IN_ROOM;
	proto_msg_t m;
	proto_init(&m, PE_SAY, NULL);
	snprintf(m.user, sizeof m.user, "%s", r->reg->members->name(s));
	snprintf(m.text, sizeof m.text, "%s", text);
	/* kept for the snapshot; without memory for it the line is only said */
	if (!r->chat)
		r->chat = calloc(ROOM_CHAT_KEPT, sizeof *r->chat);
	if (r->chat) {
		struct chatline *l = &r->chat[r->nchat % ROOM_CHAT_KEPT];
		snprintf(l->user, sizeof l->user, "%s", m.user);
		snprintf(l->text, sizeof l->text, "%s", m.text);
		if (++r->nchat >= 2 * ROOM_CHAT_KEPT)
			r->nchat -= ROOM_CHAT_KEPT; /* the same slot, no overflow */
	}
	room_event(r, &m);
	act->seq = r->seq;
	return GERR_OK;
}

void
room_think(
    struct room *r, struct session *bot, int depth, const move_t *moves, const int *scores, int n)
{
	proto_msg_t m;
	proto_init(&m, PE_THINK, NULL);
	snprintf(m.user, sizeof m.user, "%s", r->reg->members->name(bot));
	m.depth = depth;
	for (int i = 0; i < n && m.ncands < PROTO_CANDS_MAX; i++) {
		notation_format(moves[i], r->spec.size, m.cands[m.ncands].move);
		m.cands[m.ncands++].score = scores[i];
	}
	if (m.ncands > 0)
		room_event(r, &m);
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

/* Seats s (a player joining now) at seat; -1 when out of memory. */
static int
sit(struct room *r, int seat, struct session *s)
{
	struct seat *st = &r->seat[seat];
	if (!(st->m = add_member(r, s, seat)))
		return -1;
	snprintf(st->name, sizeof st->name, "%s", r->reg->members->name(s));
	st->player = r->reg->members->player(s);
	st->bot = r->reg->members->bot(s);
	st->gone = 0;
	return 0;
}

/* Undoes sit: the seat is free again. */
static void
unsit(struct room *r, int seat)
{
	if (r->seat[seat].m) /* else it left meanwhile */
		drop_member(r, r->seat[seat].m);
	memset(r->seat[seat].name, 0, sizeof r->seat[seat].name);
}

/* Whether the first of two colour wishes puts its player on black: the
 * first wish that is not "any" decides, else a coin. */
static int
first_is_black(game_wish_t first, game_wish_t second)
{
	if (first != WISH_ANY)
		return first == WISH_BLACK;
	if (second != WISH_ANY)
		return second == WISH_WHITE;
	return random_below(2);
}

game_err_t
room_open(struct room *r, struct session *creator)
{
	int seat = r->spec.colour == WISH_WHITE ? 1 : 0;
	if (sit(r, seat, creator))
		return GERR_NOMEM;
	r->creator = seat;
	return GERR_OK;
}

struct session *
room_creator(const struct room *r)
{
	if (r->creator < 0 || r->status != GAME_WAITING || !r->seat[r->creator].m)
		return NULL;
	return r->seat[r->creator].m->sess;
}

/* Whether the waiting private room's creator is away (the room waits for
 * them, away-keep). */
static int
creator_away(const struct room *r)
{
	return room_creator(r) && r->seat[r->creator].gone;
}

/* The private room closes before its game: every member hears why
 * (* CLOSED) and is let go, and its code is dead. */
static void
close_waiting(struct room *r, const char *why)
{
	proto_msg_t m;
	proto_init(&m, PE_CLOSED, NULL);
	snprintf(m.word, sizeof m.word, "%s", why);
	room_event(r, &m);
	r->code[0] = '\0';
	r->creator = -1;
	for (int i = 0; i < 2; i++) {
		r->seat[i].gone = 0;
		evtimer_del(r->seat[i].grace_ev);
	}
	log_info(&r->srv->log, "room %s: closed before its game (%s)", r->id, why);
	struct member *mb;
	while ((mb = TAILQ_FIRST(&r->members)) != NULL) {
		struct session *s = mb->sess;
		drop_member(r, mb);
		r->reg->members->idle(s);
	}
	room_check(r);
}

/* The game of a private room whose creator was away when the friend took
 * the free seat (room_join) starts now that both are here: colours as
 * room_join draws them. */
static void
start_joined(struct room *r)
{
	int creator = r->creator;
	struct start st = { 1 - creator, 0, NULL, NULL };
	st.swap = first_is_black(r->spec.colour, WISH_ANY) != (creator == 0);
	if (st.swap)
		swap_seats(r);
	begin_game(r, &st, NULL);
}

int
room_joinable(const struct room *r)
{
	int creator = r->seat[0].m ? 0 : 1;
	return r->status == GAME_WAITING && r->seat[creator].m && !r->seat[1 - creator].name[0];
}

game_err_t
room_join(struct room *r, struct session *s, room_started_fn fn, void *arg)
{
	struct start st = { -2, 0, fn, arg };
	if (!room_joinable(r))
		return started(r, &st, GERR_ROOM_FULL, 0, NULL);
	int creator = r->seat[0].m ? 0 : 1;
	if (sit(r, 1 - creator, s))
		return started(r, &st, GERR_NOMEM, 0, NULL);
	if (creator_away(r)) {
		/* the seat is the friend's; the game starts when the creator is
		 * back (room_back), or the room closes at its deadline */
		presence(r, r->reg->members->name(s), PRES_JOINED, 0);
		if (fn)
			fn(arg, r, GERR_OK);
		return GERR_OK;
	}
	st.joined = 1 - creator;
	st.swap = first_is_black(r->spec.colour, WISH_ANY) != (creator == 0);
	if (st.swap)
		swap_seats(r);
	return begin_game(r, &st, NULL);
}

game_err_t
room_pair(struct room *r, struct session *a, game_wish_t a_wish, struct session *b,
    game_wish_t b_wish, room_started_fn fn, void *arg)
{
	struct start st = { -2, 0, fn, arg };
	int a_seat = first_is_black(a_wish, b_wish) ? 0 : 1;
	if (sit(r, a_seat, a))
		return started(r, &st, GERR_NOMEM, 0, NULL);
	if (sit(r, 1 - a_seat, b)) {
		unsit(r, a_seat);
		return started(r, &st, GERR_NOMEM, 0, NULL);
	}
	st.joined = -1;
	return begin_game(r, &st, NULL);
}

game_err_t
room_watch(struct room *r, struct session *s)
{
	if (member_of(r, s))
		return GERR_OK;
	if (r->reg->members->full(s))
		return GERR_BUSY; /* watching is never worth leaving another room */
	if (!add_member(r, s, -1))
		return GERR_NOMEM;
	r->nwatch++;
	alone_check(r);
	presence(r, r->reg->members->name(s), PRES_JOINED, 0);
	return GERR_OK;
}

void
room_leave(struct room *r, struct session *s)
{
	struct member *m = member_of(r, s);
	if (!m)
		return;
	int seat = m->seat;
	if (seat >= 0) {
		if (room_unfinished(r))
			room_end_anyway(r, seat ? GAME_BLACK_WINS : GAME_WHITE_WINS, BY_RESIGN);
		end_offers(r, 1u << ASK_REMATCH, END_EXPIRED);
		r->seat[seat].gone = 0;
		evtimer_del(r->seat[seat].grace_ev);
		/* the creator closes it, for everyone in it: a friend seated
		 * while the creator was away, those who came by its code */
		if (room_creator(r) == s && !(r->pending && r->pending->start)) {
			drop_member(r, m);
			close_waiting(r, "left");
			return;
		}
		/* the creator closed it (not a joiner whose start is in flight) */
		if (r->status == GAME_WAITING && !r->seat[1 - seat].m)
			r->code[0] = '\0';
	}
	drop_member(r, m);
	/* a pairing or a JOIN whose start is in flight was never said */
	if (!(r->pending && r->pending->start && r->status == GAME_WAITING))
		presence(r, r->reg->members->name(s), PRES_LEFT, 0);
	room_check(r);
}

void
room_gone(struct room *r, struct session *s)
{
	int seat = room_seat_of(r, s);
	if (seat >= 0 && room_creator(r) == s && !r->pending) {
		/* its private room waits for it (away-keep), for a friend to come */
		int64_t wait = (int64_t)r->srv->cfg.away_keep_s * 1000;
		start_grace(r, seat, clock_now_ms(), wait);
		presence(r, r->reg->members->name(s), PRES_GONE, wait);
		return;
	}
	if (seat < 0 || !room_unfinished(r)) {
		room_leave(r, s);
		return;
	}
	int64_t g = grace_ms(r);
	start_grace(r, seat, clock_now_ms(), g);
	presence(r, r->reg->members->name(s), PRES_GONE, g);
}

void
room_back(struct room *r, struct session *s)
{
	int seat = room_seat_of(r, s);
	if (seat < 0 || !r->seat[seat].gone)
		return;
	r->seat[seat].gone = 0;
	evtimer_del(r->seat[seat].grace_ev);
	presence(r, r->reg->members->name(s), PRES_BACK, 0);
	/* a friend took the free seat meanwhile: their game starts now */
	if (room_creator(r) == s && r->seat[1 - seat].m && !r->pending)
		start_joined(r);
}

/* Whether seat's player was seated here for another node's player who
 * has never come (session_await: the RESUME with its token): he may never
 * have heard of the game (the * MOVED or the claim's answer lost). */
static int
never_came(const struct room *r, int seat)
{
	const struct seat *st = &r->seat[seat];
	return st->gone && st->m && st->m->sess && r->reg->members->awaited(st->m->sess);
}

/* Whether seat i is held by a person: a bot's seat never is (nor is an
 * empty one), so a bot is never "a person away". */
static int
person(const struct room *r, int i)
{
	return r->seat[i].name[0] && r->seat[i].player != PLAYER_BOT;
}

/* The grace of a seat ran out. When every seat held by a person is away
 * past its own grace (the last one's deadline: who went last may come
 * back until then), the game ends with no result, abandoned: both
 * players gone, or the one person of a game against a bot. With one who
 * never came (and the other here), it ends aborted (unrated), so that
 * nobody wins or loses a game he never knew of. */
static void
grace_cb(evutil_socket_t fd, short what, void *arg)
{
	struct room *r = arg;
	(void)fd;
	(void)what;
	if (creator_away(r)) { /* nobody came back to the waiting room */
		close_waiting(r, "away");
		return;
	}
	if (!room_unfinished(r))
		return;
	int persons = 0, away = 0, first = -1;
	for (int i = 0; i < 2; i++) {
		if (!person(r, i))
			continue;
		persons++;
		if (!r->seat[i].gone)
			continue;
		away++;
		if (first < 0 || r->seat[i].deadline > r->seat[first].deadline)
			first = i;
	}
	game_reason_t why = BY_ABANDONED;
	if (persons == 0 || away < persons) {
		if ((first = never_came(r, 0) ? 0 : never_came(r, 1) ? 1 : -1) < 0)
			return;
		why = BY_ABORTED;
	}
	int64_t now = clock_now_ms();
	if (r->pending) { /* after the commit in flight */
		struct timeval soon = { 0, 100 * 1000 };
		evtimer_add(r->seat[first].grace_ev, &soon);
		return;
	}
	int64_t left = r->seat[first].deadline - now;
	if (left <= 0) {
		end_or_retry(r, r->seat[first].grace_ev, GAME_NO_RESULT, why);
		return;
	}
	/* libevent may wake us a hair before our millisecond clock says so */
	struct timeval tv = { (time_t)(left / 1000), (suseconds_t)(left % 1000) * 1000 + 500 };
	evtimer_add(r->seat[first].grace_ev, &tv);
}

/* Whether r is a game with no person seated (two bots) that nobody
 * watches, here or on another node; a tournament's game is played out. */
static int
alone(const struct room *r)
{
	return room_unfinished(r) && !r->tpair && !person(r, 0) && !person(r, 1) &&
	    r->seat[0].name[0] && r->seat[1].name[0] && r->nwatch + r->far_watch == 0;
}

/* A game between two bots that nobody watches ends after bot-alone
 * seconds (from when the last spectator left, or from its start or
 * restore); a spectator who comes stops the count. */
static void
alone_check(struct room *r)
{
	if (!alone(r)) {
		evtimer_del(r->alone_ev);
		return;
	}
	if (evtimer_pending(r->alone_ev, NULL))
		return;
	struct timeval tv = { (time_t)r->srv->cfg.bot_alone_s, 0 };
	evtimer_add(r->alone_ev, &tv);
}

static void
alone_cb(evutil_socket_t fd, short what, void *arg)
{
	struct room *r = arg;
	(void)fd;
	(void)what;
	if (!alone(r))
		return;
	if (r->pending) { /* after the commit in flight (a bot's move) */
		struct timeval soon = { 0, 100 * 1000 };
		evtimer_add(r->alone_ev, &soon);
		return;
	}
	log_info(&r->srv->log, "room %s: two bots and nobody watching for %d s: ended", r->id,
	    r->srv->cfg.bot_alone_s);
	end_or_retry(r, r->alone_ev, GAME_NO_RESULT, BY_ABANDONED);
}

void
room_info(const struct room *r, proto_msg_t *m)
{
	proto_init(m, PD_ROOM, NULL);
	snprintf(m->room, sizeof m->room, "%s", r->id);
	m->status = wire_status(r->status);
	m->rule = r->spec.rule;
	m->size = r->spec.size;
	m->tc_base = r->spec.tc_base;
	m->tc_inc = r->spec.tc_inc;
	m->opening = wire_opening(r->spec.opening);
	m->rated = r->spec.rated;
	snprintf(m->user, sizeof m->user, "%s", r->seat[0].name);
	snprintf(m->user2, sizeof m->user2, "%s", r->seat[1].name);
	m->count = r->nwatch + r->far_watch;
	m->count2 = r->pos.nmoves;
}

void
room_snapshot(const struct room *r, void (*emit)(void *arg, const proto_msg_t *m), void *arg)
{
	int64_t now = clock_now_ms();
	proto_msg_t m;
	room_info(r, &m);
	emit(arg, &m);

	proto_init(&m, PD_CLOCK, NULL);
	snprintf(m.room, sizeof m.room, "%s", r->id);
	clocks_into(r, &m, now);
	m.side = r->status != GAME_PLAYING        ? SIDE_NONE
	    : pos_to_move(&r->pos) == STONE_BLACK ? SIDE_BLACK
						  : SIDE_WHITE;
	emit(arg, &m);

	for (int i = 0; i < 2; i++) {
		const struct seat *st = &r->seat[i];
		if (!st->name[0])
			continue;
		proto_init(&m, PD_SEAT, NULL);
		snprintf(m.room, sizeof m.room, "%s", r->id);
		m.side = i ? SIDE_WHITE : SIDE_BLACK;
		snprintf(m.user, sizeof m.user, "%s", st->name);
		m.presence = (st->gone || !st->m || !r->reg->members->present(st->m->sess))
		    ? PRES_GONE
		    : PRES_HERE;
		m.ms = st->gone && st->deadline > now ? st->deadline - now : 0;
		emit(arg, &m);
	}
	if (r->rated_known && r->seat[0].name[0] && r->seat[1].name[0]) {
		proto_init(&m, PD_RATINGS, NULL);
		ratings_into(r, &m);
		emit(arg, &m);
		proto_init(&m, PD_KINDS, NULL);
		kinds_into(r, &m);
		emit(arg, &m);
	}
	/* a private room's code, for its members (only they see its snapshot) */
	if (r->private_room && r->code[0]) {
		proto_init(&m, PD_CODE, NULL);
		snprintf(m.room, sizeof m.room, "%s", r->id);
		snprintf(m.code, sizeof m.code, "%s", r->code);
		emit(arg, &m);
	}

	int i = 0;
	do {
		proto_init(&m, PD_MOVES, NULL);
		snprintf(m.room, sizeof m.room, "%s", r->id);
		m.depth = i;
		for (; i < r->pos.nmoves && m.nmoves < PROTO_LIST_MAX; i++)
			notation_format(r->pos.moves[i], r->spec.size, m.moves[m.nmoves++]);
		emit(arg, &m);
	} while (i < r->pos.nmoves);

	if (r->status == GAME_OPENING && r->spec.opening != OPEN_SWAP2) {
		proto_init(&m, PD_OPENING, NULL);
		opening_into(r, &m);
		emit(arg, &m);
	} else if (r->status == GAME_OPENING) {
		proto_init(&m, PD_SWAP2, NULL);
		snprintf(m.room, sizeof m.room, "%s", r->id);
		m.stage = wire_stage(swap2_stage(r));
		snprintf(m.user, sizeof m.user, "%s", r->seat[swap2_actor(r)].name);
		emit(arg, &m);
	}
	for (int k = 0; k < ASK_KINDS; k++) {
		if (!r->offers[k].id)
			continue;
		proto_init(&m, PD_OFFER, NULL);
		snprintf(m.room, sizeof m.room, "%s", r->id);
		m.ident = r->offers[k].id;
		m.offer = wire_offer((game_offer_t)k);
		snprintf(m.user, sizeof m.user, "%s", r->seat[r->offers[k].from].name);
		emit(arg, &m);
	}
	if (r->status == GAME_OVER) {
		proto_init(&m, PD_RESULT, NULL);
		snprintf(m.room, sizeof m.room, "%s", r->id);
		m.result = wire_result(r->result);
		m.reason = wire_reason(r->reason);
		for (int j = 0; j < r->ncells; j++)
			notation_format(r->cells[j], r->spec.size, m.moves[m.nmoves++]);
		emit(arg, &m);
	}
	/* the last lines of chat, oldest first (the `chatlog` capability) */
	int kept = r->nchat < ROOM_CHAT_KEPT ? r->nchat : ROOM_CHAT_KEPT;
	for (int k = r->nchat - kept; r->chat && k < r->nchat; k++) {
		const struct chatline *l = &r->chat[k % ROOM_CHAT_KEPT];
		proto_init(&m, PD_SAY, NULL);
		snprintf(m.room, sizeof m.room, "%s", r->id);
		snprintf(m.user, sizeof m.user, "%s", l->user);
		snprintf(m.text, sizeof m.text, "%s", l->text);
		emit(arg, &m);
	}
}
