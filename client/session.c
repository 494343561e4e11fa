/*
 * session.c: the interactive client on one event loop: server lines go
 * through proto_parse into the model, keys through input into requests,
 * the screen is redrawn from both. A dropped connection is retried with
 * backoff and the game RESUMEd.
 */
#include "client/session.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wchar.h>

#include <curses.h>
#include <event2/event.h>

#include "client/i18n.h"
#include "client/input.h"
#include "client/model.h"
#include "client/state.h"
#include "client/tui.h"
#include "proto/proto.h"

typedef struct {
	struct event_base *base;
	net_t *net;
	model_t model;
	view_t view;
	const net_opts_t *o;
	const session_opts_t *so;
	struct event *stdin_ev, *tick, *redraw, *sigs[4];
	int quitting, done, rc, dirty, no_retry;
	int registered, login_failed;
	char login_err[MODEL_STATUS_LEN];
	int64_t last_sent, quit_at, lobby_at, tlist_at;
	/* the league's table asked again at league_at (0: not), its event
	 * over here and not yet in the league's line: tries so far */
	int64_t league_at;
	int league_tries;
	int64_t league_ended;               /* the last event a * TOURNEY said is over */
	char name[PROTO_NAME_MAX + 1];      /* the guest name to ask for */
	char kept[256];                     /* what the state file holds (state_sync) */
	int tried_kept;                     /* the kept session was tried (RESUME) */
	int rewatch;                        /* a WATCH of the room shown after a reconnect */
	int joined;                         /* so->join was sent */
	int rejoin;                         /* a JOIN of the room shown after a reconnect */
	char join_room[PROTO_ROOM_MAX + 1]; /* the private room entered by a code: */
	char join_code[PROTO_CODE_MAX + 1]; /* that code */
	char join_sent[PROTO_CODE_MAX + 1]; /* the code of the JOIN awaiting its reply */
	char moved[PROTO_ROOM_MAX + 1];     /* the room * MOVED sent us after: RESUME it */
	int bye_takeover;                   /* the session went on in another client */
	char told[PROTO_TEXT_MAX + 1];      /* the last TELL sent, echoed on its OK */
	char told_to[PROTO_NAME_MAX + 1];
	char notice[4096]; /* shown again on stderr at exit */
	char fatal[4096];
} sess_t;

static int64_t
now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void
draw(sess_t *s)
{
	tui_draw(&s->model, &s->view, now_ms());
	/* the terminal's size is the draw's: the help's keys scroll by it */
	s->view.help_max = tui_help_scroll_max();
}

/* Many lines may arrive in one read: draw once after them. */
static void
want_draw(sess_t *s)
{
	if (!s->dirty) {
		s->dirty = 1;
		event_active(s->redraw, EV_TIMEOUT, 0);
	}
}

static void
redraw_cb(evutil_socket_t fd, short ev, void *arg)
{
	sess_t *s = arg;
	(void)fd;
	(void)ev;
	s->dirty = 0;
	if (!s->done)
		draw(s);
}

static void
finish(sess_t *s, int rc)
{
	if (s->done)
		return;
	s->done = 1;
	s->rc = rc;
	event_base_loopexit(s->base, NULL);
}

static void
send_msg(sess_t *s, const proto_msg_t *m)
{
	char buf[PROTO_LINE_MAX + 1];
	int n = proto_format(m, buf, sizeof buf);
	if (n < 0) {
		model_status(&s->model, 1, "%s",
		    TR("session.invalid", "Cannot send that (a field is invalid)"));
		return;
	}
	if (net_send(s->net, buf, (size_t)n) != 0) {
		model_status(&s->model, 1, "%s",
		    TR("session.offline", "Not connected; wait for the reconnect"));
		return;
	}
	model_sent(&s->model, m->id);
	model_puzzle_sent(&s->model, m);
	s->last_sent = now_ms();
	if (m->id == PR_SEEK)
		s->model.seek_bot = m->fallback == FALLBACK_BOT;
	if (m->id == PR_JOIN)
		snprintf(s->join_sent, sizeof s->join_sent, "%s", m->code);
	if (m->id == PR_TELL) {
		snprintf(s->told, sizeof s->told, "%s", m->text);
		snprintf(s->told_to, sizeof s->told_to, "%s", m->user);
	}
}

/* Asks for the snapshot of room. */
static void
ask_state(sess_t *s, const char *room)
{
	proto_msg_t st;
	proto_init(&st, PR_STATE, NULL);
	snprintf(st.room, sizeof st.room, "%s", room);
	send_msg(s, &st);
}

/* A review request (REVIEW or MARKS) for the game replayed. */
static void
ask_review(sess_t *s, proto_id_t id)
{
	proto_msg_t r;
	proto_init(&r, id, NULL);
	r.ident = s->model.review_id;
	send_msg(s, &r);
}

/* Signed in again after a drop, in a replay: a review under way went on
 * without us, so it is joined again (free: PROTOCOL.md 5.19), and a
 * stored one being read is read again. */
static void
review_again(sess_t *s)
{
	model_t *m = &s->model;
	if (s->view.screen != SCR_REPLAY || !m->review_id || !model_has_cap(m, "review"))
		return;
	if (m->review == REVIEW_RUNNING)
		ask_review(s, PR_REVIEW);
	else if (m->review == REVIEW_LOADING)
		ask_review(s, PR_MARKS);
}

/* Signed in again after a drop, at a puzzle not over: the server forgot
 * it with the connection (SOLVE would be 441), so it is opened again, from
 * its start. */
static void
puzzle_again(sess_t *s)
{
	model_t *m = &s->model;
	if (s->view.screen != SCR_PUZZLE || !m->puzzle_id || m->puzzle != PUZZLE_OPEN ||
	    !model_has_cap(m, "puzzles"))
		return;
	proto_msg_t r;
	proto_init(&r, PR_PUZZLE, NULL);
	snprintf(r.word, sizeof r.word, "%lld", (long long)m->puzzle_id);
	send_msg(s, &r);
}

/* A tournament request about event id. */
static void
ask_tourney(sess_t *s, proto_id_t id, int64_t ident)
{
	proto_msg_t r;
	proto_init(&r, id, NULL);
	r.ident = ident;
	send_msg(s, &r);
}

/* Signed in again after a drop: the server forgot who followed the event
 * shown (or the one played in, not over), so it is followed again, its
 * snapshot afresh. */
static void
tourney_again(sess_t *s)
{
	model_t *m = &s->model;
	if (!model_has_cap(m, "tournaments"))
		return;
	if (s->view.screen == SCR_TOURNEY && s->view.tourney)
		ask_tourney(s, PR_TWATCH, s->view.tourney);
	else if (m->tourney.id && model_tourney_in(m) && m->tourney.state != TSTATE_OVER &&
	    m->tourney.state != TSTATE_CANCELLED)
		ask_tourney(s, PR_TWATCH, m->tourney.id);
	else if (s->view.screen == SCR_TOURNEYS)
		ask_tourney(s, PR_TLIST, 0);
	else if (s->view.screen == SCR_LEAGUE && model_has_cap(m, "league"))
		ask_tourney(s, PR_LEAGUES, 0);
}

/* The table of the league shown (LEAGUE), once LEAGUES listed them: the
 * one chosen while it is listed, else the first. */
static void
ask_league(sess_t *s)
{
	model_t *m = &s->model;
	if (s->view.screen != SCR_LEAGUE || !m->nleagues)
		return;
	if (!s->view.league[0] || model_league_index(m, s->view.league) < 0) {
		snprintf(s->view.league, sizeof s->view.league, "%s", m->leagues[0].name);
		s->view.lscroll = 0;
	}
	proto_msg_t r;
	proto_init(&r, PR_LEAGUE, NULL);
	snprintf(r.word, sizeof r.word, "%s", s->view.league);
	send_msg(s, &r);
	/* its event is over here, but the league still counts it open (the
	 * server reads an event's results every few seconds): again soon */
	const model_league_t *l = &m->leagues[model_league_index(m, s->view.league)];
	int over = l->tourney > 0 &&
	    (l->tourney == s->league_ended ||
		(m->tourney.id == l->tourney && m->tourney.state >= TSTATE_OVER));
	for (int i = 0; i < m->ntourneys && !over; i++)
		over = m->tourneys[i].id == l->tourney && m->tourneys[i].state >= TSTATE_OVER;
	if (over && (l->next < 0 || l->next <= (int64_t)time(NULL)) && s->league_tries < 10) {
		s->league_at = now_ms() + 1000;
		s->league_tries++;
	} else {
		s->league_at = 0;
		s->league_tries = 0;
	}
}

/* Adds text to the chat pane in lines that fit the panel. */
static void
chat_wrapped(model_t *m, const char *text, int width)
{
	char line[MODEL_CHAT_LEN];
	while (*text) {
		int n = (int)strlen(text);
		if (n > width) {
			n = width;
			while (n > width / 2 && text[n] != ' ')
				n--;
		}
		snprintf(line, sizeof line, "%.*s", n, text);
		model_chat(m, "%s", line);
		text += n;
		while (*text == ' ')
			text++;
	}
}

static void
sign_in(sess_t *s)
{
	proto_msg_t r;
	model_t *m = &s->model;
	state_t st;
	int first = !s->tried_kept;
	s->tried_kept = 1; /* later sign-ins resume from the model */
	if (s->moved[0] && m->token[0]) {
		/* * MOVED sent us to the room's node: the seat is there */
		proto_init(&r, PR_RESUME, NULL);
		snprintf(r.token, sizeof r.token, "%s", m->token);
		memcpy(r.room, s->moved, sizeof r.room);
		r.seq = m->seq;
		s->moved[0] = '\0';
	} else if (first && s->so->state_file && state_load(s->so->state_file, &st) == 0 &&
	    st.room[0]) {
		/* a client started again: back to the seat its last run held */
		proto_init(&r, PR_RESUME, NULL);
		snprintf(r.token, sizeof r.token, "%s", st.token);
		snprintf(r.room, sizeof r.room, "%s", st.room);
		snprintf(m->me, sizeof m->me, "%s", st.name);
		snprintf(m->token, sizeof m->token, "%s", st.token);
		model_status(
		    m, 0, TR("session.resuming", "Taking back your seat in room %s..."), st.room);
	} else if (m->token[0] && m->room[0] && !m->over && model_my_side(m) != STONE_EMPTY) {
		proto_init(&r, PR_RESUME, NULL);
		snprintf(r.token, sizeof r.token, "%s", m->token);
		snprintf(r.room, sizeof r.room, "%s", m->room);
		r.seq = m->seq;
	} else if (model_has_cap(m, "away") && !m->in_room &&
	    (m->token[0] ||
		(first && s->so->state_file && state_load(s->so->state_file, &st) == 0 &&
		    st.token[0]))) {
		/* in no room, no seat known: the session, if the server kept it
		 * (its waiting room, seek or challenges come back: * SEATED,
		 * = SEEK); a spectator's comes back as a guest who watches again */
		proto_init(&r, PR_RESUME, NULL);
		if (!m->token[0]) {
			snprintf(m->me, sizeof m->me, "%s", st.name);
			snprintf(m->token, sizeof m->token, "%s", st.token);
		}
		snprintf(r.token, sizeof r.token, "%s", m->token);
	} else if (s->so->login && !s->login_failed) {
		proto_init(&r, s->so->reg && !s->registered ? PR_REGISTER : PR_LOGIN, NULL);
		snprintf(r.user, sizeof r.user, "%s", s->so->login);
		snprintf(r.pass, sizeof r.pass, "%s", s->so->password ? s->so->password : "");
	} else {
		proto_init(&r, PR_GUEST, NULL);
		snprintf(r.user, sizeof r.user, "%s", s->name);
	}
	send_msg(s, &r);
}

/* Ratings of the players shown, where the server keeps accounts and does
 * not say them itself (a server with `ratings` sends * RATINGS, = RATINGS
 * and * RATED). */
static void
ask_ratings(sess_t *s)
{
	if (!model_has_cap(&s->model, "accounts") || model_has_cap(&s->model, "ratings"))
		return;
	for (int i = 0; i < 2; i++) {
		const char *who = i ? s->model.white : s->model.black;
		if (!who[0])
			continue;
		proto_msg_t r;
		proto_init(&r, PR_STATS, NULL);
		snprintf(r.user, sizeof r.user, "%s", who);
		send_msg(s, &r);
	}
}

static void
on_line(void *arg, const char *line, size_t len)
{
	sess_t *s = arg;
	model_t *m = &s->model;
	proto_msg_t x;
	char err[160];
	if (proto_parse(line, len, PROTO_SERVER, &x, err, sizeof err) != 0) {
		model_status(m, 1,
		    TR("session.unreadable", "The server sent an unreadable line (%s); ignored"),
		    err);
		want_draw(s);
		return;
	}
	proto_id_t head = m->npending ? m->pending[0] : PM_NONE;
	int was_in_room = m->in_room;
	model_rc_t rc = model_apply(m, &x, now_ms());
	if (rc == MODEL_FATAL && x.ecode == ERR_VERSION)
		s->no_retry = 1; /* retrying cannot fix a version mismatch */
	/* the admins sent us off (a kick revokes the token; a banned address
	 * is refused at HELLO): coming back is the player's choice, not a loop */
	if (x.id == PE_KICKED || (x.id == PX_ERR && head == PR_HELLO && x.ecode == ERR_BANNED))
		s->no_retry = 1;
	if (rc == MODEL_RESYNC && m->in_room) {
		int asked = 0;
		for (int i = 0; i < m->npending; i++)
			asked |= m->pending[i] == PR_STATE;
		if (!asked) {
			ask_state(s, m->room);
		}
	}
	/* a snapshot may bring another board size: keep the cursor on it */
	if (s->view.cx >= m->pos.size)
		s->view.cx = m->pos.size - 1;
	if (s->view.cy >= m->pos.size)
		s->view.cy = m->pos.size - 1;
	switch (x.id) {
	case PE_SERVER:
		if (!m->hello_done) {
			proto_msg_t h;
			proto_init(&h, PR_HELLO, NULL);
			h.version = PROTO_VERSION;
			snprintf(h.word, sizeof h.word, "gomoku/0.1");
			send_msg(s, &h);
		}
		break;
	case PO_HELLO:
		net_backoff_reset(s->net);
		s->view.online = 1;
		snprintf(s->view.conn, sizeof s->view.conn, "%s", net_where(s->net));
		sign_in(s);
		break;
	case PO_GUEST:
	case PO_LOGIN:
	case PO_REGISTER:
		/* back after a drop, in a room without a seat to resume (watching,
		 * a finished game): see whether the room is still there */
		if (s->view.screen == SCR_GAME && m->in_room && m->room[0] && s->join_code[0] &&
		    strcmp(s->join_room, m->room) == 0) {
			/* a private room, entered by its code: a stranger may not
			 * WATCH it, so the code is asked again */
			proto_msg_t j;
			proto_init(&j, PR_JOIN, NULL);
			snprintf(j.code, sizeof j.code, "%s", s->join_code);
			send_msg(s, &j);
			s->rejoin = 1;
		} else if (s->view.screen == SCR_GAME && m->in_room && m->room[0]) {
			proto_msg_t w;
			proto_init(&w, PR_WATCH, NULL);
			snprintf(w.room, sizeof w.room, "%s", m->room);
			send_msg(s, &w);
			s->rewatch = 1;
		}
		if (s->so->join && !s->joined) {
			/* started with a share link: into its room, once */
			proto_msg_t j;
			proto_init(&j, PR_JOIN, NULL);
			snprintf(j.code, sizeof j.code, "%s", s->so->join);
			send_msg(s, &j);
			s->joined = 1;
		}
		review_again(s);
		puzzle_again(s);
		tourney_again(s);
		if (x.id == PO_REGISTER)
			s->registered = 1; /* reconnects log in */
		if (x.id != PO_GUEST)
			break;
		snprintf(s->name, sizeof s->name, "%s", m->me);
		if (s->login_err[0]) {
			char why[MODEL_STATUS_LEN];
			snprintf(why, sizeof why, "%s", s->login_err);
			model_status(m, 1, TR("session.guest_after", "%.200s; playing as guest %s"),
			    why, m->me);
			s->login_err[0] = '\0';
		}
		break;
	case PO_TELL:
		model_chat(m, TR("chat.told", "[to %s] %s"), s->told_to, s->told);
		break;
	case PO_TCREATE:
		/* the event made: its page (the creator follows it) */
		if (s->view.screen == SCR_TCREATE) {
			s->view.screen = SCR_TOURNEY;
			s->view.tourney = x.ident;
			s->view.tscroll = 0;
		}
		ask_tourney(s, PR_TWATCH, x.ident);
		break;
	case PO_LEAGUES:
		ask_league(s);
		break;
	case PE_TOURNEY:
		if (x.tstate == TSTATE_OVER)
			s->league_ended = x.ident;
		/* the league's event ended: its table afresh */
		if (m->league_stale && s->view.screen == SCR_LEAGUE)
			ask_tourney(s, PR_LEAGUES, 0);
		break;
	case PO_TBOT:
	case PO_TCANCEL:
		/* the standings with the bot, the state cancelled */
		if (s->view.screen == SCR_TOURNEY && s->view.tourney == x.ident)
			ask_tourney(s, PR_TWATCH, x.ident);
		break;
	case PE_MOVED:
		/* the room is played on another node: reconnect there, RESUME */
		if (m->token[0] && net_move(s->net, x.word) == 0) {
			memcpy(s->moved, x.room, sizeof s->moved);
			model_disconnected(m);
			s->view.online = 0;
			model_status(m, 0,
			    TR("session.moved",
				"Room %s is played at %s; taking your seat there..."),
			    x.room, x.word);
			snprintf(s->view.conn, sizeof s->view.conn,
			    TR("conn.connecting", "connecting to %s"), x.word);
		}
		break;
	case PE_SEATED: {
		/* this login (or RESUME <token> -) took the session over: fetch
		 * its game or its waiting room */
		ask_state(s, x.room);
		break;
	}
	case PE_CLOSED:
		if (!m->in_room && s->view.screen == SCR_GAME)
			s->view.screen = SCR_LOBBY;
		break;
	case PE_BYE:
		if (x.word[0] && strcmp(x.word, "takeover") == 0) {
			s->bye_takeover = 1;
			model_status(m, 1, "%s", i18n_bye(x.word));
		} else if (strcmp(x.word, "shutdown") == 0) {
			model_status(m, 1, "%s", i18n_bye(x.word));
		}
		break;
	case PX_ERR:
		if ((head == PR_WATCH && s->rewatch) || (head == PR_JOIN && s->rejoin)) {
			/* the room went with a server restart: say where we are */
			s->rewatch = s->rejoin = 0;
			m->in_room = 0;
			s->view.screen = SCR_LOBBY;
			model_status(m, 1,
			    TR("session.room_gone",
				"Room %s is gone (the server restarted); you are in the lobby"),
			    m->room);
		} else if (head == PR_LEAVE) {
			/* a room the server no longer has is left all the same */
			m->in_room = 0;
			s->view.screen = SCR_LOBBY;
			model_status(m, 0, "%s",
			    TR("session.left_gone", "Left the room (the server no longer has it)"));
		} else if (head == PR_RESUME) {
			/* the seat is gone: start over with a name */
			m->token[0] = '\0';
			m->in_room = 0;
			s->view.screen = SCR_LOBBY;
			proto_msg_t g;
			proto_init(&g, PR_GUEST, NULL);
			snprintf(g.user, sizeof g.user, "%s", s->name);
			send_msg(s, &g);
		} else if (head == PR_LOGIN || head == PR_REGISTER) {
			/* keep the error on the status line; play as a guest */
			snprintf(s->login_err, sizeof s->login_err, "%s", m->status_text);
			s->login_failed = 1;
			proto_msg_t g;
			proto_init(&g, PR_GUEST, NULL);
			send_msg(s, &g);
		} else if (head == PR_GUEST && x.ecode == ERR_NAME_TAKEN && s->name[0]) {
			s->name[0] = '\0';
			proto_msg_t g;
			proto_init(&g, PR_GUEST, NULL);
			send_msg(s, &g);
		}
		break;
	case PE_START:
		s->view.cx = s->view.cy = m->pos.size / 2;
		s->view.nput = 0;
		s->view.screen = SCR_GAME;
		ask_ratings(s);
		break;
	case PO_RESUME:
		if (!x.room[0]) { /* RESUME <token> -: the session, no room named */
			model_status(m, 0, TR("session.back_as", "Signed in again as %s"), m->me);
			net_backoff_reset(s->net);
			review_again(s);
			puzzle_again(s);
			tourney_again(s);
			break;
		}
		model_status(m, 0, TR("session.back", "Back in room %s"), m->room);
		tourney_again(s);
		/* fall through */
	case PO_WATCH:
		if (x.id == PO_WATCH && s->rewatch) {
			s->rewatch = 0;
			model_status(m, 0,
			    TR("session.reconnected", "Reconnected; back in room %s"), m->room);
		}
		/* fall through */
	case PO_STATE:
	case PO_CREATE:
		if (m->in_room && s->view.screen != SCR_HELP)
			s->view.screen = SCR_GAME;
		if (!was_in_room)
			s->view.cx = s->view.cy = m->pos.size / 2;
		if (x.id != PO_CREATE) {
			ask_ratings(s);
		} else {
			/* the room as the server has it: settings, the creator's seat */
			ask_state(s, x.room);
		}
		break;
	case PE_OVER:
		if (m->rated)
			ask_ratings(s); /* the ratings after the game, and the change */
		break;
	case PO_JOIN:
		snprintf(s->join_room, sizeof s->join_room, "%s", x.room);
		memcpy(s->join_code, s->join_sent, sizeof s->join_code);
		if (s->rejoin) {
			/* back after a drop: the room's snapshot, as after a WATCH */
			s->rejoin = 0;
			model_status(m, 0,
			    TR("session.reconnected", "Reconnected; back in room %s"), x.room);
			ask_state(s, x.room);
		} else if (!m->in_room || strcmp(m->room, x.room) != 0) {
			/* both seats were taken: we watch, so fetch the room */
			ask_state(s, x.room);
		}
		break;
	case PO_LEAVE:
		if (s->view.screen == SCR_TOURNEY) /* back to a tournament from its game */
			break;
		s->view.screen = SCR_LOBBY;
		model_status(m, 0, "%s", TR("session.left", "Left the room"));
		break;
	case PO_EXPORT: {
		char e[128];
		if (model_record_position(m, &s->view.replay, e, sizeof e) == 0) {
			s->view.replay_ply = 0;
			s->view.mark_sel = -1;
			s->view.line_step = 0;
			s->view.screen = SCR_REPLAY;
			/* the engine's review, when one is stored: shown at once */
			if (model_has_cap(m, "review") && m->review_id)
				ask_review(s, PR_MARKS);
		} else {
			model_status(
			    m, 1, TR("session.no_replay", "Cannot replay that record: %s"), e);
		}
		break;
	}
	case PO_PUZZLE:
		/* a puzzle opened (next, daily, again): its board, the cursor in
		 * the middle, its solution not shown */
		if (m->puzzle == PUZZLE_OPEN && m->puzzle_id == x.ident) {
			if (s->view.screen != SCR_PUZZLE)
				s->view.cx = s->view.cy = m->puzzle_pos.size / 2;
			s->view.screen = SCR_PUZZLE;
			s->view.puzzle_step = 0;
			s->view.typed[0] = '\0';
		}
		break;
	case PE_REVIEWED:
		if (x.ident == m->review_id && x.reviewed == REVIEWED_OK &&
		    m->review != REVIEW_READY)
			ask_review(s, PR_MARKS);
		break;
	case PO_QUIT:
		finish(s, 0);
		return;
	default:
		break;
	}
	if (m->tourney_resync) {
		/* the event shown lost a player nobody named: its snapshot again */
		m->tourney_resync = 0;
		ask_tourney(s, PR_TWATCH, m->tourney.id);
	}
	state_sync(s->so->state_file, m, s->kept);
	want_draw(s);
}

static void
on_up(void *arg)
{
	sess_t *s = arg;
	snprintf(
	    s->view.conn, sizeof s->view.conn, "%s", TR("conn.greeting", "connected, greeting..."));
	draw(s);
}

static void
on_down(void *arg, int fatal, const char *why)
{
	sess_t *s = arg;
	model_disconnected(&s->model);
	s->view.online = 0;
	if (s->quitting) {
		finish(s, 0);
		return;
	}
	if (fatal || s->no_retry || s->bye_takeover) {
		snprintf(s->fatal, sizeof s->fatal, "%s",
		    s->no_retry || s->bye_takeover ? s->model.status_text : why);
		finish(s, 3);
		return;
	}
	int delay = net_reconnect_later(s->net);
	if (s->model.shutdown)
		model_status(&s->model, 1,
		    TR("session.restart_in", "Server restarting, reconnecting in %ds"), delay);
	else
		model_status(
		    &s->model, 1, TR("session.retry_in", "%s; reconnecting in %ds"), why, delay);
	snprintf(
	    s->view.conn, sizeof s->view.conn, TR("conn.offline", "offline, retry in %ds"), delay);
	draw(s);
}

static void
on_notice(void *arg, const char *msg)
{
	sess_t *s = arg;
	snprintf(s->notice, sizeof s->notice, "%s", msg);
	/* on screen until a key says it was read; kept in the chat pane too */
	snprintf(s->view.dialog, sizeof s->view.dialog, "%s", msg);
	model_status(&s->model, 1, "%s",
	    TR("session.pinned",
		"WARNING: server key pinned on first use (not CA-signed); compare its "
		"fingerprint"));
	char text[sizeof s->view.dialog];
	snprintf(text, sizeof text, "%s", msg);
	for (char *save = NULL, *p = strtok_r(text, "\n", &save); p;
	     p = strtok_r(NULL, "\n", &save))
		chat_wrapped(&s->model, p, 40);
	draw(s);
}

static void
quit(sess_t *s)
{
	if (!s->view.online) {
		finish(s, 0);
		return;
	}
	proto_msg_t q;
	proto_init(&q, PR_QUIT, NULL);
	send_msg(s, &q);
	s->quitting = 1;
	s->quit_at = now_ms();
}

static void
handle_key(sess_t *s, int key, int fn)
{
	proto_msg_t out;
	input_rc_t r;
	screen_t was = s->view.screen; /* the screen before the key */
	if (fn && key == KEY_RESIZE)
		return; /* resizeterm (from SIGWINCH) queued it; the redraw follows */
	if (fn && key == KEY_MOUSE) {
		MEVENT me;
		if (getmouse(&me) != OK || !(me.bstate & BUTTON1_PRESSED))
			return;
		r = input_click(&s->view, &s->model, me.y, me.x, &out);
	} else {
		r = input_key(&s->view, &s->model, key, fn, &out);
	}
	if (r == INPUT_SEND)
		send_msg(s, &out);
	if (r == INPUT_SEND && out.id == PR_TLIST)
		s->tlist_at = now_ms();
	else if (was == SCR_TOURNEY && s->view.screen == SCR_TOURNEYS && s->view.online) {
		/* back from an event: the list as it is now */
		ask_tourney(s, PR_TLIST, 0);
		s->tlist_at = now_ms();
	} else if (was == SCR_TOURNEY && s->view.screen == SCR_LEAGUE && s->view.online)
		ask_tourney(s, PR_LEAGUES, 0); /* back from its event: the table as it is now */
	if (r == INPUT_SEND && out.id == PR_STATS && s->view.screen == SCR_PROFILE) {
		/* a profile: the player's recent games too */
		proto_msg_t h;
		proto_init(&h, PR_HISTORY, NULL);
		snprintf(h.user, sizeof h.user, "%s", out.user);
		send_msg(s, &h);
	} else if (r == INPUT_QUIT)
		quit(s);
	else if (r == INPUT_REDRAW && !fn && key == 12)
		clearok(stdscr, TRUE);
}

static void
stdin_cb(evutil_socket_t fd, short ev, void *arg)
{
	sess_t *s = arg;
	(void)fd;
	(void)ev;
	wint_t ch;
	int r;
	while (!s->done && (r = get_wch(&ch)) != ERR)
		handle_key(s, (int)ch, r == KEY_CODE_YES);
	if (!s->done)
		draw(s);
}

static void
tick_cb(evutil_socket_t fd, short ev, void *arg)
{
	sess_t *s = arg;
	(void)fd;
	(void)ev;
	int64_t now = now_ms();
	if (s->quitting && now - s->quit_at > 3000) {
		finish(s, 0); /* the server did not answer QUIT: leave anyway */
		return;
	}
	/* the lobby's lists of who is online and the open seeks, kept live */
	if (s->view.online && s->view.screen == SCR_LOBBY && s->model.me[0] &&
	    model_has_cap(&s->model, "lobby") && now - s->lobby_at > 3000) {
		s->lobby_at = now;
		proto_msg_t q;
		proto_init(&q, PR_WHO, NULL);
		send_msg(s, &q);
		proto_init(&q, PR_SEEKS, NULL);
		if (model_has_cap(&s->model, "seekpages"))
			q.page = 1; /* the total too; those we could pair with come first */
		send_msg(s, &q);
	}
	if (s->league_at && now >= s->league_at) {
		s->league_at = 0;
		if (s->view.online && s->view.screen == SCR_LEAGUE)
			ask_tourney(s, PR_LEAGUES, 0);
	}
	/* the tournaments' list, kept live (its countdowns tick on the screen) */
	if (s->view.online && s->view.screen == SCR_TOURNEYS && now - s->tlist_at > 5000) {
		s->tlist_at = now;
		ask_tourney(s, PR_TLIST, 0);
	}
	if (s->view.online && now - s->last_sent > 120000) {
		proto_msg_t p;
		proto_init(&p, PR_PING, NULL);
		send_msg(s, &p);
	}
	draw(s);
}

static void
signal_cb(evutil_socket_t sig, short ev, void *arg)
{
	sess_t *s = arg;
	(void)ev;
	if (sig == SIGWINCH) {
		tui_resize();
		draw(s);
		return;
	}
	finish(s, 130);
}

int
session_run(struct event_base *base, const net_opts_t *o, const session_opts_t *so)
{
	static const net_cbs_t cbs = { on_line, on_up, on_down, on_notice };
	static const int signums[4] = { SIGINT, SIGTERM, SIGHUP, SIGWINCH };
	sess_t *s = calloc(1, sizeof *s); /* large: the model keeps chat and records */
	if (!s) {
		fprintf(stderr, "gomoku: %s\n", TR("main.nomem", "out of memory"));
		return 1;
	}
	s->base = base;
	s->o = o;
	s->so = so;
	if (so->name)
		snprintf(s->name, sizeof s->name, "%s", so->name);
	model_init(&s->model);
	view_init(&s->view);
	s->view.ascii = so->ascii;
	s->view.mono = so->mono;
	char err[256];
	s->net = net_new(base, o, &cbs, s, err, sizeof err);
	if (!s->net) {
		fprintf(stderr, "gomoku: %s\n", err);
		free(s);
		return 1;
	}
	if (tui_start(so->mono, so->mouse) != 0) {
		fprintf(stderr, "gomoku: %s\n",
		    TR("session.no_tui", "cannot start the terminal UI (try --script)"));
		net_free(s->net);
		free(s);
		return 1;
	}
	if (!tui_utf8())
		s->view.ascii = 1;
	snprintf(s->view.conn, sizeof s->view.conn, TR("conn.connecting", "connecting to %s"),
	    net_where(s->net));
	s->stdin_ev = event_new(base, 0, EV_READ | EV_PERSIST, stdin_cb, s);
	s->tick = event_new(base, -1, EV_PERSIST, tick_cb, s);
	s->redraw = event_new(base, -1, 0, redraw_cb, s);
	for (int i = 0; i < 4; i++) {
		s->sigs[i] = evsignal_new(base, signums[i], signal_cb, s);
		event_add(s->sigs[i], NULL);
	}
	struct timeval half = { 0, 500000 };
	event_add(s->stdin_ev, NULL);
	event_add(s->tick, &half);
	draw(s);
	net_connect(s->net);
	if (!s->done)
		event_base_dispatch(base);
	tui_stop();
	net_free(s->net);
	event_free(s->stdin_ev);
	event_free(s->tick);
	event_free(s->redraw);
	for (int i = 0; i < 4; i++)
		event_free(s->sigs[i]);
	if (s->notice[0])
		fprintf(stderr, "gomoku: %s\n", s->notice);
	if (s->fatal[0])
		fprintf(stderr, "gomoku: %s\n", s->fatal);
	int rc = s->rc;
	free(s);
	return rc;
}
