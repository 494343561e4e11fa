/*
 * tui.c: ncursesw rendering of the lobby, game, lists, replay and help.
 *
 * Game screen at 80x24 with a 15x15 board:
 *   row 0        title bar
 *   rows 1..17   column letters, the board, column letters
 *   right panel  players and clocks, turn, offer, bot, moves, chat
 *   LINES-3      input line, LINES-2 status line, LINES-1 keys
 */
#include "client/tui.h"

#include "client/i18n.h"

#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include <wchar.h>

#include <curses.h>

enum {
	PAIR_GRID = 1,
	PAIR_BLACK,
	PAIR_WHITE,
	PAIR_WIN,
	PAIR_CAND,
	PAIR_FORBID,
	PAIR_MARK,
	PAIR_ERROR,
	PAIR_TITLE,
	PAIR_AREA,  /* an opening stage's allowed area */
	PAIR_FIFTH, /* an offered fifth move */
};
enum { BOARD_ROW = 2, BOARD_COL = 3 }; /* screen position of cell (0,0) */
/* The lobby's rows at the least: its items from row 1, then its lines
 * at the bottom (a 15x15 game needs as many) */
enum { LOBBY_ROWS_MIN = 1 + LOBBY_ITEMS + 5 };

static void
stop_at_exit(void)
{
	tui_stop();
}

/* A crash must not leave the terminal on the alternate screen with the
 * mouse on: undo what initscr did with plain writes (async-signal-safe),
 * and put the tty back in a cooked mode, then die of the same signal. */
static void
crash_handler(int sig)
{
	static const char reset[] = "\033[?1000l\033[?1006l\033[0m\033[?25h\033[?1049l\r\n";
	ssize_t r = write(STDOUT_FILENO, reset, sizeof reset - 1);
	(void)r;
	struct termios t; /* back to a cooked, echoing mode */
	if (tcgetattr(STDIN_FILENO, &t) == 0) {
		t.c_lflag |= ICANON | ECHO | ECHOE | ISIG | IEXTEN;
		t.c_iflag |= ICRNL | IXON;
		t.c_oflag |= OPOST | ONLCR;
		tcsetattr(STDIN_FILENO, TCSANOW, &t);
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

int
tui_start(int mono, int mouse)
{
	static const int fatal[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
	for (size_t i = 0; i < sizeof fatal / sizeof fatal[0]; i++)
		signal(fatal[i], crash_handler);
	setlocale(LC_ALL, "");
	setlocale(LC_NUMERIC, "C"); /* as i18n_init: the wire's numbers stay C */
	if (!initscr())
		return -1;
	atexit(stop_at_exit);
	raw(); /* ^C arrives as a key; SIGINT from kill still ends cleanly */
	noecho();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	curs_set(0);
	set_escdelay(50);
	mouseinterval(0);
	/* off: the terminal keeps the mouse, to select and copy text */
	if (mouse)
		mousemask(BUTTON1_PRESSED, NULL);
	if (!mono && has_colors()) {
		start_color();
		use_default_colors();
		init_pair(PAIR_GRID, COLOR_BLACK, COLOR_YELLOW);
		init_pair(PAIR_BLACK, COLOR_BLACK, COLOR_YELLOW);
		init_pair(PAIR_WHITE, COLOR_WHITE, COLOR_YELLOW);
		init_pair(PAIR_WIN, COLOR_RED, COLOR_YELLOW);
		init_pair(PAIR_CAND, COLOR_BLUE, COLOR_YELLOW);
		init_pair(PAIR_FORBID, COLOR_RED, COLOR_YELLOW);
		init_pair(PAIR_MARK, COLOR_RED, COLOR_YELLOW);
		init_pair(PAIR_ERROR, COLOR_RED, -1);
		init_pair(PAIR_TITLE, COLOR_BLACK, COLOR_CYAN);
		init_pair(PAIR_AREA, COLOR_BLACK, COLOR_GREEN);
		init_pair(PAIR_FIFTH, COLOR_MAGENTA, COLOR_YELLOW);
	}
	return 0;
}

int
tui_utf8(void)
{
	const char *cs = nl_langinfo(CODESET);
	return cs && (strcmp(cs, "UTF-8") == 0 || strcmp(cs, "utf8") == 0);
}

void
tui_stop(void)
{
	if (stdscr && !isendwin()) {
		mousemask(0, NULL);
		endwin();
	}
}

void
tui_resize(void)
{
	struct winsize ws;
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row && ws.ws_col)
		resizeterm(ws.ws_row, ws.ws_col);
	clear();
}

int
tui_hit(int n, int y, int x, move_t *mv)
{
	int cy = y - BOARD_ROW, cx = (x - BOARD_COL + 1) / 2;
	if (x < BOARD_COL - 1 || cy < 0 || cy >= n || cx < 0 || cx >= n)
		return -1;
	*mv = rules_move(cx, cy);
	return 0;
}

void
view_init(view_t *v)
{
	memset(v, 0, sizeof *v);
	v->screen = SCR_LOBBY;
	v->cx = v->cy = 7;
	v->rule = RULE_FREESTYLE;
	v->size = 15;
	v->tc_base = 300;
	v->tc_inc = 5;
	v->colour = COLOUR_ANY;
	v->level = 3;
	v->opening = OPENING_NONE;
	pos_init(&v->replay, RULE_FREESTYLE, 15);
	v->mark_sel = -1;
	/* a Swiss of 3 rounds at 5+5, starting in 10 minutes */
	v->tform.kind = TKIND_SWISS;
	v->tform.rule = RULE_FREESTYLE;
	v->tform.size = 15;
	v->tform.tc_base = 300;
	v->tform.tc_inc = 5;
	v->tform.opening = OPENING_NONE;
	v->tform.entrants = ENTRANTS_PEOPLE;
	v->tform.start = 600;
	v->tform.length = 3;
}

static int
on(int pair, int mono)
{
	return mono || !has_colors() ? 0 : COLOR_PAIR(pair);
}

static void
put_clip(int y, int x, const char *s, int w)
{
	mvaddnstr(y, x, s, (int)(i18n_fit(s, w) - s));
}

static void
fmt_clock(char *buf, size_t len, int64_t ms)
{
	if (ms < 0) {
		snprintf(buf, len, "--:--");
		return;
	}
	int64_t s = (ms + 999) / 1000;
	if (s >= 3600)
		snprintf(buf, len, "%lld:%02lld:%02lld", (long long)(s / 3600),
		    (long long)(s / 60 % 60), (long long)(s % 60));
	else
		snprintf(buf, len, "%02lld:%02lld", (long long)(s / 60), (long long)(s % 60));
}

static void
fmt_tc(char *buf, size_t len, int base, int inc)
{
	if (base <= 0)
		snprintf(buf, len, "%s", TR("tc.none", "none"));
	else
		snprintf(buf, len, "%d+%d", base, inc);
}

static int
is_star(int n, int x, int y)
{
	if (n < 9)
		return 0;
	int e = n >= 13 ? 3 : 2, c = n / 2;
	int ex = x == e || x == n - 1 - e, ey = y == e || y == n - 1 - e;
	return (ex && ey) || (n % 2 && x == c && y == c);
}

/* Draws position p; m (may be NULL in replay) adds the win cells, the bot's
 * candidates and forbidden points; cursor < 0 hides the cursor. forbidden
 * marks black's forbidden points (renju, black to move) without m: a
 * puzzle's. */
static void
draw_board(const position_t *p, const model_t *m, const view_t *v, int cursor, int forbidden)
{
	int n = p->size, mono = v->mono;
	const char *black = v->ascii ? "X" : "\u25cf", *white = v->ascii ? "O" : "\u25cb";
	const char *empty = v->ascii ? "." : "\u00b7", *star = "+";
	move_t forbid[RULES_CELLS];
	int nforbid = 0;
	if (p->rule == RULE_RENJU &&
	    (m ? model_turn(m) == STONE_BLACK : forbidden && pos_to_move(p) == STONE_BLACK))
		nforbid = rules_forbidden_points(p, forbid);
	move_t last = p->nmoves ? p->moves[p->nmoves - 1] : MOVE_NONE;
	/* an opening stage's area, shaded when it is not the whole board: a
	 * background of its own, underlined on a monochrome terminal */
	int shade = m && m->op && m->op_area != OAREA_WIRE_ANY && m->op_area != OAREA_WIRE_NONE;
	int area_attr = mono || !has_colors() ? A_UNDERLINE : COLOR_PAIR(PAIR_AREA);
	/* my fifth-move offers marked and not yet sent */
	int marking = m && model_opening_mine(m) && m->op_stage == OSTAGE_WIRE_OFFER;
	char lab[8];
	for (int x = 0; x < n; x++) {
		snprintf(lab, sizeof lab, "%c", 'a' + x);
		mvaddstr(BOARD_ROW - 1, BOARD_COL + 2 * x, lab);
		if (BOARD_ROW + n < LINES - 3)
			mvaddstr(BOARD_ROW + n, BOARD_COL + 2 * x, lab);
	}
	for (int y = 0; y < n; y++) {
		snprintf(lab, sizeof lab, "%2d", n - y);
		mvaddstr(BOARD_ROW + y, 0, lab);
		attron(on(PAIR_GRID, mono));
		mvaddstr(BOARD_ROW + y, BOARD_COL - 1, " ");
		for (int x = 0; x < n; x++) {
			move_t c = rules_move(x, y);
			int attr = on(PAIR_GRID, mono);
			const char *s = is_star(n, x, y) ? star : empty;
			int rank = m ? model_cand_rank(m, c) : 0;
			if (p->cell[c] == STONE_BLACK) {
				s = black;
				attr = on(PAIR_BLACK, mono) | A_BOLD;
			} else if (p->cell[c] == STONE_WHITE) {
				s = white;
				attr = on(PAIR_WHITE, mono) | A_BOLD;
			} else if (m && model_is_fifth(m, c)) {
				/* an offered fifth move: "5", to choose from */
				s = "5";
				attr = on(PAIR_FIFTH, mono) | A_BOLD | (mono ? A_UNDERLINE : 0);
			} else if (rank) {
				snprintf(lab, sizeof lab, "%d", rank);
				s = lab;
				attr = on(PAIR_CAND, mono) | A_BOLD;
			} else {
				if (shade && model_in_area(m, c))
					attr = area_attr;
				for (int i = 0; marking && i < v->nfifth; i++)
					if (v->fifth[i] == c) {
						s = "5";
						attr = on(PAIR_CAND, mono) | A_BOLD |
						    (mono ? A_UNDERLINE : 0);
					}
				for (int i = 0; i < nforbid; i++)
					if (forbid[i] == c) {
						s = "x";
						attr = on(PAIR_FORBID, mono);
					}
			}
			if (m && model_is_win_cell(m, c))
				attr = on(PAIR_WIN, mono) | A_BOLD | A_UNDERLINE |
				    (mono ? A_REVERSE : 0);
			if (c == cursor)
				attr |= A_REVERSE;
			attrset(attr);
			mvaddstr(BOARD_ROW + y, BOARD_COL + 2 * x, s);
			/* the gap between two shaded points is shaded: one block */
			attrset(shade && x + 1 < n && model_in_area(m, c) &&
				    model_in_area(m, rules_move(x + 1, y))
				? area_attr
				: on(PAIR_GRID, mono));
			mvaddstr(BOARD_ROW + y, BOARD_COL + 2 * x + 1, " ");
		}
		attrset(A_NORMAL);
	}
	if (last != MOVE_NONE) {
		int y = rules_y(last), x = rules_x(last);
		attrset(on(PAIR_MARK, mono) | A_BOLD);
		mvaddstr(BOARD_ROW + y, BOARD_COL + 2 * x - 1, "[");
		mvaddstr(BOARD_ROW + y, BOARD_COL + 2 * x + 1, "]");
		attrset(A_NORMAL);
	}
	/* swap2 stones placed locally, not yet sent */
	for (int i = 0; i < v->nput; i++) {
		attrset(on(PAIR_CAND, mono) | A_BOLD);
		mvaddstr(BOARD_ROW + rules_y(v->put[i]), BOARD_COL + 2 * rules_x(v->put[i]),
		    (p->nmoves + i) % 2 ? white : black);
		attrset(A_NORMAL);
	}
}

static void
title(const model_t *m, const view_t *v, const char *what)
{
	attrset(on(PAIR_TITLE, v->mono) | A_BOLD);
	mvhline(0, 0, ' ', COLS);
	char left[200];
	int n = snprintf(left, sizeof left, " %s  %s", TR("title.app", "gomoku"), what);
	if (m->me[0] && n > 0 && (size_t)n < sizeof left)
		snprintf(left + n, sizeof left - (size_t)n, TR("title.as", "  as %s"), m->me);
	put_clip(0, 0, left, COLS);
	int w = i18n_cols(v->conn);
	if (w < COLS - i18n_cols(left) - 1)
		mvaddstr(0, COLS - w - 1, v->conn);
	attrset(A_NORMAL);
}

static void
status_lines(const model_t *m, const view_t *v, const char *keys)
{
	move(LINES - 3, 0);
	clrtoeol();
	if (v->input == IN_CHAT || v->input == IN_CODE || v->input == IN_PROFILE ||
	    v->input == IN_TNAME || v->input == IN_CHALLENGE) {
		char buf[PROTO_TEXT_MAX + 64];
		snprintf(buf, sizeof buf, "%s%s_",
		    v->input == IN_CHAT          ? TR("input.say", "say> ")
			: v->input == IN_PROFILE ? TR("input.profile", "whose profile> ")
			: v->input == IN_TNAME   ? TR("input.tname", "tournament name> ")
			: v->input == IN_CHALLENGE
			? TR("input.challenge", "challenge whom (with the settings below)> ")
			: TR("input.code", "invite code or share link> "),
		    v->line);
		/* keep the end of a long line visible */
		put_clip(LINES - 3, 0, COLS > 8 ? i18n_tail(buf, COLS - 1) : buf, COLS);
	} else if (v->typed[0]) {
		char buf[256];
		char mv[4];
		if (strlen(v->typed) == 1)
			/* h j k l move the cursor too: say both */
			snprintf(buf, sizeof buf,
			    TR("input.typed1", "move: %s_  (type its row, or Enter plays %s)"),
			    v->typed,
			    notation_format(rules_move(v->cx, v->cy),
				v->screen == SCR_PUZZLE ? m->puzzle_pos.size : m->pos.size, mv));
		else
			snprintf(buf, sizeof buf, TR("input.typed2", "move: %s  (Enter plays it)"),
			    v->typed);
		put_clip(LINES - 3, 0, buf, COLS);
	} else if (v->screen == SCR_GAME && model_opening_mine(m) &&
	    m->op_stage == OSTAGE_WIRE_DECLARE) {
		/* the number of fifth-move offers being typed */
		char buf[128], n[8] = "";
		if (v->declare)
			snprintf(n, sizeof n, "%d", v->declare);
		snprintf(buf, sizeof buf,
		    TR("input.declare", "offers: %s_  (1 to %d; Enter sends, Esc clears)"), n,
		    m->op_count > 0 ? m->op_count : 10);
		put_clip(LINES - 3, 0, buf, COLS);
	} else if ((v->screen == SCR_GAME && m->in_room && v->cx < m->pos.size &&
		       v->cy < m->pos.size) ||
	    (v->screen == SCR_PUZZLE && m->puzzle == PUZZLE_OPEN && v->cx < m->puzzle_pos.size &&
		v->cy < m->puzzle_pos.size)) {
		char buf[128], mv[4];
		snprintf(buf, sizeof buf, TR("input.cursor", "cursor %s"),
		    notation_format(rules_move(v->cx, v->cy),
			v->screen == SCR_PUZZLE ? m->puzzle_pos.size : m->pos.size, mv));
		attrset(A_DIM);
		mvaddstr(LINES - 3, 0, buf);
		attrset(A_NORMAL);
	}
	move(LINES - 2, 0);
	clrtoeol();
	static const char *const asks[][2] = { { NTR("ask.resign", "Resign this game? (y/n)") },
		{ NTR("ask.leave", "Leave this game? (y/n)") },
		{ NTR("ask.quit", "Quit gomoku? (y/n)") },
		{ NTR("ask.tleave", "Leave this tournament? (y/n)") },
		{ NTR("ask.tcancel", "Cancel this tournament for everyone in it? (y/n)") },
		{ NTR("ask.tbot",
		    "Add the server's bot of which level? (1-9, 0 for 10; other keys: "
		    "none)") } };
	if (v->ask == ASK_TLEAVE && m->tourney.state == TSTATE_RUNNING) {
		/* after the start: what leaving costs (PROTOCOL.md 5.21) */
		attrset(A_BOLD | A_REVERSE);
		put_clip(LINES - 2, 0,
		    m->tourney.kind == TKIND_ARENA
			? TR("ask.tleave_arena",
			      "Leave the arena? You may join again until it ends. (y/n)")
			: TR("ask.tleave_started",
			      "It has started: no more pairings once you leave, no way back. "
			      "Leave? (y/n)"),
		    COLS);
	} else if (v->ask) {
		attrset(A_BOLD | A_REVERSE);
		put_clip(LINES - 2, 0, i18n_tr(asks[v->ask - 1][0], asks[v->ask - 1][1]), COLS);
	} else if (v->screen == SCR_GAME && m->op && !m->over &&
	    !(m->status_error && m->status_text[0])) {
		/* an opening stage: what to do now, and the renju opening */
		char buf[MODEL_STATUS_LEN + 32];
		model_opening_text(m, buf, sizeof buf);
		attrset(model_opening_mine(m) ? A_BOLD : A_NORMAL);
		put_clip(LINES - 2, 0, buf, COLS);
	} else {
		attrset(m->status_error ? on(PAIR_ERROR, v->mono) | A_BOLD : A_NORMAL);
		put_clip(LINES - 2, 0, m->status_text, COLS);
	}
	attrset(A_DIM);
	move(LINES - 1, 0);
	clrtoeol();
	put_clip(LINES - 1, 0, keys, COLS);
	attrset(A_NORMAL);
}

static const char *
name_or(const char *s, const char *dflt)
{
	return s && s[0] ? s : dflt;
}

/* A player's name as the views show it: a bot's with its mark ("bot1
 * [BOT]": a bot account or the server's own, as the server said,
 * `botaccounts`), anyone else's as it is (buf: len bytes for the mark). */
static const char *
shown_name(const model_t *m, const char *name, char *buf, size_t len)
{
	if (!name[0] || strcmp(name, "-") == 0 || !model_is_bot(m, name))
		return name;
	snprintf(buf, len, TR("name.bot", "%s [BOT]"), name);
	return buf;
}

/* name (marked when a bot) padded to at least w display columns. */
static void
pad_player(const model_t *m, char *dst, size_t len, const char *name, int w)
{
	char marked[PROTO_NAME_MAX + 64];
	const char *s = shown_name(m, name, marked, sizeof marked);
	int cols = i18n_cols(s);
	i18n_pad(dst, len, s, cols > w ? cols : w);
}

static void
draw_game(const model_t *m, const view_t *v, int64_t now)
{
	char buf[600], t1[32], t2[32], op[128] = "";
	fmt_tc(t1, sizeof t1, m->tc_base, m->tc_inc);
	/* the opening rule, and the renju opening once its stones are down */
	if (m->opening != OPENING_NONE) {
		char canon[64];
		i18n_canon(m->op_canon, canon, sizeof canon);
		snprintf(
		    op, sizeof op, "%s%s%s", i18n_opening(m->opening), canon[0] ? "  " : "", canon);
	}
	snprintf(buf, sizeof buf, TR("game.title", "room %s  %s %dx%d  %s  %s%s%s"), m->room,
	    i18n_rule((rule_t)m->pos.rule), m->pos.size, m->pos.size, t1,
	    m->rated ? TR("game.rated", "rated") : TR("game.casual", "casual"), op[0] ? "  " : "",
	    op);
	title(m, v, buf);
	int cursor = model_my_side(m) != STONE_EMPTY && !m->over ? rules_move(v->cx, v->cy) : -1;
	if (cursor < 0 && v->screen == SCR_GAME)
		cursor = rules_move(v->cx, v->cy);
	draw_board(&m->pos, m, v, cursor, 0);

	int px = BOARD_COL + 2 * m->pos.size + 2, pw = COLS - px;
	if (pw < 20)
		return;
	stone_t turn = model_turn(m), me = model_my_side(m);
	for (int s = 0; s < 2; s++) {
		stone_t side = s ? STONE_WHITE : STONE_BLACK;
		char marked[PROTO_NAME_MAX + 64];
		const char *who = shown_name(m, s ? m->white : m->black, marked, sizeof marked);
		fmt_clock(t2, sizeof t2, model_clock(m, side, now));
		char rating[32] = "";
		/* "~": still provisional; after a rated game the change too */
		if (m->rating[s] && m->rating_before[s])
			snprintf(rating, sizeof rating, " %s%d (%+d)", m->provisional[s] ? "~" : "",
			    m->rating[s], m->rating[s] - m->rating_before[s]);
		else if (m->rating[s])
			snprintf(rating, sizeof rating, " %s%d", m->provisional[s] ? "~" : "",
			    m->rating[s]);
		snprintf(buf, sizeof buf, "%s %c%s%s%s%s",
		    s ? (v->ascii ? "O" : "\u25cb") : (v->ascii ? "X" : "\u25cf"),
		    turn == side ? '>' : ' ', name_or(who, TR("game.empty_seat", "(empty seat)")),
		    rating, me == side ? TR("game.you", " (you)") : "",
		    m->gone[s] ? TR("game.away", " (away)") : "");
		attrset(turn == side ? A_BOLD : A_NORMAL);
		put_clip(1 + s, px, buf, pw - 9);
		int64_t left = model_clock(m, side, now);
		if (turn == side && left >= 0 && left < 10000) /* short of time */
			attrset(on(PAIR_ERROR, v->mono) | A_BOLD | A_REVERSE);
		mvaddstr(1 + s, COLS - 9, t2);
		attrset(A_NORMAL);
	}
	if (m->over) {
		const char *who = m->result == RES_BLACK ? m->black : m->white;
		if (m->result == RES_DRAW || m->result == RES_NONE)
			snprintf(buf, sizeof buf, TR("game.over_draw", "Game over: %s (%s)"),
			    i18n_result(m->result), i18n_reason(m->reason));
		else
			snprintf(buf, sizeof buf, TR("game.over_win", "Game over: %s wins (%s)"),
			    name_or(who, "?"), i18n_reason(m->reason));
		attrset(A_BOLD);
	} else if (m->swap2) {
		snprintf(buf, sizeof buf, TR("game.swap2", "Swap2: %s to %s"),
		    strcmp(m->swap2_user, m->me) ? m->swap2_user : TR("game.swap2_you", "you"),
		    i18n_stage(m->swap2_stage));
		if (v->nput)
			snprintf(buf + strlen(buf), sizeof buf - strlen(buf),
			    TR("game.swap2_placed", " (%d placed, Esc clears)"), v->nput);
	} else if (m->op) {
		int mine = model_opening_mine(m);
		snprintf(buf, sizeof buf, TR("game.opening", "%s: %s to %s"),
		    i18n_opening(m->opening), mine ? TR("game.swap2_you", "you") : m->op_user,
		    i18n_ostage(m->op_stage));
		if (mine && m->op_stage == OSTAGE_WIRE_OFFER) { /* on its own line */
			char marks[160];
			snprintf(marks, sizeof marks,
			    TR("game.fifths_marked", "%d of %d marked: S sends, Esc clears"),
			    v->nfifth, m->op_count);
			put_clip(4, px, marks, pw);
		}
		if (mine)
			attrset(A_BOLD);
	} else if (m->status == ROOM_WAITING && m->black[0] && m->white[0]) {
		/* both seats taken, the creator away: the game starts when they
		 * are back, or the room closes */
		int away = m->gone[0] ? 0 : 1;
		int64_t left = m->gone_until[away] - now;
		snprintf(buf, sizeof buf,
		    TR("game.waiting_back", "Waiting for %s to return (%llds)"),
		    away ? m->white : m->black, (long long)(left > 0 ? (left + 999) / 1000 : 0));
	} else if (m->status == ROOM_WAITING) {
		snprintf(buf, sizeof buf, "%s",
		    m->invite[0] ? TR("game.waiting_code", "Waiting for an opponent; invite code:")
				 : TR("game.waiting", "Waiting for an opponent"));
		if (m->invite[0]) /* on its own line: 22 characters must show whole */
			put_clip(4, px + 2, m->invite, pw - 2);
	} else if (turn != STONE_EMPTY && turn == me) {
		snprintf(buf, sizeof buf, TR("game.your_move", "Your move (%s)"),
		    i18n_colour(turn == STONE_BLACK ? COLOUR_BLACK : COLOUR_WHITE));
		attrset(A_BOLD);
	} else if (turn != STONE_EMPTY) {
		snprintf(buf, sizeof buf, "%s",
		    turn == STONE_BLACK ? TR("game.black_to_move", "Black to move")
					: TR("game.white_to_move", "White to move"));
	} else {
		buf[0] = '\0';
	}
	put_clip(3, px, buf, pw);
	attrset(A_NORMAL);
	const model_offer_t *o = model_offer_to_me(m);
	int opp = me == STONE_BLACK ? 1 : 0;
	if (me != STONE_EMPTY && !m->over && m->status != ROOM_WAITING && m->gone[opp] && !o) {
		int64_t left = m->gone_until[opp] - now;
		if (left > 0)
			snprintf(buf, sizeof buf,
			    TR("game.away_claim_in", "%s is away: C claims the game in %llds"),
			    opp ? m->white : m->black, (long long)(left + 999) / 1000);
		else
			snprintf(buf, sizeof buf,
			    TR("game.away_claim_now", "%s is away: C claims the game now"),
			    opp ? m->white : m->black);
		put_clip(4, px, buf, pw);
	} else if (o && me != STONE_EMPTY) {
		snprintf(buf, sizeof buf,
		    TR("game.offer_to_me", "%s offers %s: A accept, X decline"), o->from,
		    i18n_offer(o->kind));
		attrset(A_BOLD | A_REVERSE);
		put_clip(4, px, buf, pw);
		attrset(A_NORMAL);
	} else if (m->noffers) {
		snprintf(buf, sizeof buf, TR("game.offer_mine", "%s offered %s (X withdraws)"),
		    m->offers[0].from, i18n_offer(m->offers[0].kind));
		put_clip(4, px, buf, pw);
	}
	if (m->think_ply == m->pos.nmoves && m->ncands && !m->over) {
		char mv[4], score[64];
		model_score_text(m, m->scores[0], m->think_ply, score, sizeof score);
		snprintf(buf, sizeof buf, TR("game.thinks", "%s thinks: depth %d, best %s (%s)"),
		    m->think_bot, m->think_depth, notation_format(m->cands[0], m->pos.size, mv),
		    score);
		put_clip(5, px, buf, pw);
	} else if (m->reason_text[0]) {
		put_clip(5, px, m->reason_text, pw);
	}
	/* the move list, newest lines */
	snprintf(buf, sizeof buf, TR("game.moves", "Moves (%d):"), m->pos.nmoves);
	attrset(A_UNDERLINE);
	put_clip(6, px, buf, pw);
	attrset(A_NORMAL);
	char lines[3][128] = { "", "", "" };
	char cur[128] = "";
	int nl = 0;
	for (int i = 0; i < m->pos.nmoves; i++) {
		char mv[4], item[16];
		notation_format(m->pos.moves[i], m->pos.size, mv);
		if (i % 2 == 0)
			snprintf(item, sizeof item, "%d.%s", i / 2 + 1, mv);
		else
			snprintf(item, sizeof item, " %s", mv);
		if ((int)(strlen(cur) + strlen(item) + 1) > (pw < 120 ? pw : 120) && cur[0]) {
			memmove(lines[0], lines[1], sizeof lines[0] * 2);
			snprintf(lines[2], sizeof lines[2], "%s", cur);
			nl++;
			cur[0] = '\0';
		}
		if (cur[0] && i % 2 == 0)
			strcat(cur, " ");
		strcat(cur, item);
	}
	memmove(lines[0], lines[1], sizeof lines[0] * 2);
	snprintf(lines[2], sizeof lines[2], "%s", cur);
	for (int i = 0; i < 3; i++)
		put_clip(7 + i, px, lines[i], pw);
	/* chat pane */
	int top = 11, bottom = LINES - 4;
	attrset(A_UNDERLINE);
	if (m->spectators)
		snprintf(buf, sizeof buf, TR("game.chat_watching", "Chat (%lld watching)"),
		    (long long)m->spectators);
	else
		snprintf(buf, sizeof buf, "%s", TR("game.chat", "Chat"));
	put_clip(10, px, buf, pw);
	attrset(A_NORMAL);
	/* newest at the bottom, long lines wrapped */
	for (int r = bottom, i = 0; r >= top; i++) {
		const char *l = model_chat_line(m, i);
		if (!l)
			break;
		const char *piece[16];
		int np = 0;
		for (const char *p = l; *p && np < 16;) {
			piece[np++] = p;
			const char *end = i18n_fit(p, pw - 1), *brk = end;
			if (*end) /* break at the last space that fits */
				while (brk > p && *brk != ' ')
					brk--;
			p = *end && brk > p ? brk + 1 : end > p ? end : end + 1;
		}
		for (int k = np - 1; k >= 0 && r >= top; k--, r--) {
			int w = (int)((k + 1 < np ? piece[k + 1] : piece[k] + strlen(piece[k])) -
			    piece[k]);
			char seg[MODEL_CHAT_LEN];
			snprintf(seg, sizeof seg, "%.*s", w, piece[k]);
			put_clip(r, px, seg, pw - 1);
		}
	}
	int tgame = model_tourney_room(m, m->room);
	status_lines(m, v,
	    tgame && m->over
		? TR("keys.over_tourney", "T:tournament  P:profile  Tab:chat  ?:help  Q:leave")
		: me == STONE_EMPTY ? TR("keys.watch2", "P:profile  Tab:chat  ?:help  Q:leave")
		/* my tournament game: no rematch (441), no abort (443) */
		: model_tourney_my_game(m) && !m->op
		? TR("keys.play_tourney",
		      "h8 Enter:play R:resign E:tournament U:undo D:draw A/X:answer Tab:chat "
		      "?:help")
		: m->over
		? TR("keys.over2", "M:rematch  A/X:answer  P:profile  Tab:chat  ?:help  Q:leave")
		: m->op ? TR("keys.opening",
			      "Enter:place/choose/mark B/W:colour 0-9+-:declare S:send O/T:branch "
			      "?:help")
			: TR("keys.play",
			      "hjkl/h8 Enter:play R:resign U:undo D:draw M:rematch A/X:answer "
			      "Tab:chat ?:help"));
}

static const char *const lobby_names[LOBBY_ITEMS][2] = {
	{ NTR("lobby.quick", "Quick match") },
	{ NTR("lobby.create", "Create a private room") },
	{ NTR("lobby.join", "Join a private room by code") },
	{ NTR("lobby.watch", "Watch a game") },
	{ NTR("lobby.bot", "Play a bot") },
	{ NTR("lobby.history", "History and replays") },
	{ NTR("lobby.help", "Help") },
	{ NTR("lobby.quit", "Quit") },
	{ NTR("lobby.rule", "Rule") },
	{ NTR("lobby.size", "Board size") },
	{ NTR("lobby.tc", "Time control") },
	{ NTR("lobby.colour", "Colour") },
	{ NTR("lobby.rated", "Rated") },
	{ NTR("lobby.opening", "Opening") },
	{ NTR("lobby.level", "Bot level") },
};

/* Who is online and the open seeks, in a column from (y, x) when the
 * screen is wide enough. */
static void
draw_lobby_lists(const model_t *m, const view_t *v, int y, int x)
{
	char buf[200], tc[32], name[80];
	int w = COLS - x - 1, bottom = LINES - 5;
	if (w < 20)
		return;
	snprintf(buf, sizeof buf, TR("lobby.online", "Online (%d):"), m->nusers);
	attrset(A_UNDERLINE);
	put_clip(y++, x, buf, w);
	attrset(A_NORMAL);
	for (int i = 0; i < m->nusers && y < bottom - 3 && i < 6; i++) {
		pad_player(m, name, sizeof name, m->users[i].name, 20);
		snprintf(buf, sizeof buf, "%s %s", name, i18n_ustate(m->users[i].state));
		put_clip(y++, x, buf, w);
	}
	y++;
	if (m->seeks_total > m->nseeks)
		snprintf(buf, sizeof buf, TR("lobby.seeks_of", "Open seeks (%d of %lld):"),
		    m->nseeks, (long long)m->seeks_total);
	else
		snprintf(buf, sizeof buf, TR("lobby.seeks", "Open seeks (%d):"), m->nseeks);
	attrset(A_UNDERLINE);
	put_clip(y++, x, buf, w);
	attrset(A_NORMAL);
	int take = model_has_cap(m, "take");
	int sel = v->seek_sel < m->nseeks ? v->seek_sel : m->nseeks - 1;
	for (int i = 0; i < m->nseeks && y < bottom - 1; i++) {
		fmt_tc(tc, sizeof tc, m->seeks[i].tc_base, m->seeks[i].tc_inc);
		snprintf(buf, sizeof buf, "%s%s %s %d %s", take ? (i == sel ? "> " : "  ") : "",
		    m->seeks[i].user, i18n_rule(m->seeks[i].rule), m->seeks[i].size, tc);
		attrset(take && i == sel ? A_REVERSE : A_NORMAL);
		put_clip(y++, x, buf, w);
		attrset(A_NORMAL);
	}
	if (take && m->nseeks)
		put_clip(y, x, TR("lobby.seeks.keys", "s select  t take"), w);
}

static void
draw_lobby(const model_t *m, const view_t *v, int64_t now)
{
	title(m, v, TR("title.lobby", "lobby"));
	char buf[200], tc[32], name[160];
	/* under 24 rows (as short as a game allows, LOBBY_ROWS_MIN), the
	 * blank rows above the items and between them go */
	int top = LINES < 24 ? 1 : 2, gap = LINES < 24 ? 0 : 1;
	for (int i = 0; i < LOBBY_ITEMS; i++) {
		int y = top + i + gap * (i >= LOBBY_RULE);
		if (y >= LINES - 3)
			break;
		switch (i) {
		case LOBBY_RULE:
			snprintf(buf, sizeof buf, "< %s >", i18n_rule(v->rule));
			break;
		case LOBBY_SIZE:
			snprintf(buf, sizeof buf, "< %dx%d >", v->size, v->size);
			break;
		case LOBBY_TC:
			fmt_tc(tc, sizeof tc, v->tc_base, v->tc_inc);
			snprintf(buf, sizeof buf, "< %s >", tc);
			break;
		case LOBBY_COLOUR:
			snprintf(buf, sizeof buf, "< %s >", i18n_colour(v->colour));
			break;
		case LOBBY_RATED:
			snprintf(buf, sizeof buf, "< %s >",
			    v->rated ? TR("game.rated", "rated") : TR("game.casual", "casual"));
			break;
		case LOBBY_OPENING:
			snprintf(buf, sizeof buf, "< %s >", i18n_opening(v->opening));
			break;
		case LOBBY_LEVEL: {
			char names[MODEL_ENGINES_MAX][PROTO_ENGINE_MAX + 1];
			int ne = model_engines(m, names, MODEL_ENGINES_MAX);
			if (v->level > PROTO_LEVEL_MAX && v->level - PROTO_LEVEL_MAX <= ne)
				snprintf(buf, sizeof buf, "< %s >",
				    names[v->level - PROTO_LEVEL_MAX - 1]);
			else
				snprintf(buf, sizeof buf, "< %d >", v->level);
			break;
		}
		default:
			buf[0] = '\0';
			break;
		}
		attrset(i == v->lobby_sel ? A_REVERSE | A_BOLD : A_NORMAL);
		char row[260];
		i18n_pad(name, sizeof name, i18n_tr(lobby_names[i][0], lobby_names[i][1]), 28);
		snprintf(row, sizeof row, " %s %s ", name, buf);
		put_clip(y, 2, row, COLS - 4);
		attrset(A_NORMAL);
	}
	draw_lobby_lists(m, v, top, 48);
	int modes = 2; /* the column after the puzzles' keys */
	if (model_has_cap(m, "puzzles")) {
		const char *pz = TR(
		    "lobby.puzzles", "Puzzles: z the next one for you, d the daily one");
		put_clip(LINES - 5, 2, pz, COLS - 4);
		modes += i18n_cols(pz) + 3;
	}
	if (model_has_cap(m, "tournaments") && modes < COLS - 4) {
		const char *tt = TR("lobby.tourneys", "Tournaments: T");
		put_clip(LINES - 5, modes, tt, COLS - 2 - modes);
		modes += i18n_cols(tt) + 2; /* the league's beside it, at 80 columns too */
	}
	if (model_has_cap(m, "league") && modes < COLS - 4)
		put_clip(LINES - 5, modes, TR("lobby.league", "League: E"), COLS - 2 - modes);
	long wait = m->seek_bot ? model_cap_value(m, "bot-fallback") : 0;
	long long left = wait - (long long)(now - m->seek_since) / 1000;
	if (m->seek_id && wait > 0 && left > 0) /* the server's wait, counted down */
		snprintf(buf, sizeof buf,
		    TR("lobby.seeking_bot_in",
			"Seeking an opponent; a bot plays you if nobody comes in %llds; C cancels"),
		    left);
	else if (m->seek_id)
		snprintf(buf, sizeof buf,
		    m->seek_bot ? TR("lobby.seeking_bot",
				      "Seeking an opponent for %llds (a bot plays you if nobody "
				      "comes); C cancels")
				: TR("lobby.seeking", "Seeking an opponent for %llds; C cancels"),
		    (long long)(now - m->seek_since) / 1000);
	else
		snprintf(buf, sizeof buf, TR("lobby.server", "Server: %s"),
		    name_or(m->server, TR("lobby.connecting", "(connecting)")));
	put_clip(LINES - 4, 2, buf, COLS - 4);
	status_lines(m, v,
	    m->challenge_id
		? TR("keys.challenged",
		      "A accept the challenge  X decline  Up/Down select  Enter go  ? help")
		: TR("keys.lobby3",
		      "Arrows, Enter go  c challenge  C cancel seek  p profile  L leaderboard  ? "
		      "help"));
}

/* A rating as the profile and the leaderboard show it: "~" provisional. */
static void
fmt_rating(char *buf, size_t n, const model_stat_t *s)
{
	snprintf(buf, n, "%s%d", s->provisional ? "~" : "", s->rating);
}

static void
draw_profile(const model_t *m, const view_t *v)
{
	char buf[400], rule[40], r[16], who[PROTO_NAME_MAX + 64], b[PROTO_NAME_MAX + 64],
	    w[PROTO_NAME_MAX + 64];
	snprintf(buf, sizeof buf, TR("title.profile", "profile of %s"),
	    shown_name(m, v->profile, who, sizeof who));
	title(m, v, buf);
	int y = 2, any = 0;
	for (int i = 0; i < m->nstats; i++) {
		const model_stat_t *s = &m->stats[i];
		if (strcasecmp(s->user, v->profile) != 0)
			continue;
		any = 1;
		i18n_pad(rule, sizeof rule, i18n_rule(s->rule), 10);
		fmt_rating(r, sizeof r, s);
		snprintf(buf, sizeof buf, TR("profile.row", " %s %6s   %d won, %d lost, %d drawn"),
		    rule, r, s->wins, s->losses, s->draws);
		put_clip(y++, 2, buf, COLS - 4);
	}
	if (!any)
		put_clip(y++, 2,
		    m->stats_ready
			? TR("profile.unrated", "No ratings: a guest, or a bot not rated.")
			: TR("profile.loading", "Asking the server..."),
		    COLS - 4);
	y++;
	put_clip(y++, 2, TR("profile.games", "Recent games:"), COLS - 4);
	if (!m->ngames)
		put_clip(y++, 2, TR("history.none", "No finished games."), COLS - 4);
	for (int i = 0; i < m->ngames && y < LINES - 3; i++) {
		const model_game_t *g = &m->games[i];
		i18n_pad(rule, sizeof rule, i18n_rule(g->rule), 9);
		snprintf(buf, sizeof buf,
		    TR("history.row", " #%-6lld %s %2d  %s vs %s  %s by %s, %d moves "),
		    (long long)g->id, rule, g->size, shown_name(m, g->black, b, sizeof b),
		    shown_name(m, g->white, w, sizeof w), i18n_result(g->result),
		    i18n_reason(g->reason), g->plies);
		put_clip(y++, 1, buf, COLS - 2);
	}
	status_lines(m, v, TR("keys.profile", "Esc back"));
}

static void
draw_top(const model_t *m, const view_t *v)
{
	char buf[400], name[80], r[16];
	snprintf(buf, sizeof buf,
	    v->top_bots ? TR("title.topbots", "bots' leaderboard  < %s >")
			: TR("title.top", "leaderboard  < %s >"),
	    i18n_rule(v->top_rule));
	title(m, v, buf);
	if (!m->ntop)
		put_clip(2, 2,
		    m->top_ready
			? TR("top.none", "Nobody has played a rated game of this rule yet.")
			: TR("profile.loading", "Asking the server..."),
		    COLS - 4);
	for (int i = 0; i < m->ntop && 2 + i < LINES - 3; i++) {
		const model_stat_t *s = &m->top[i];
		pad_player(m, name, sizeof name, s->user, 20);
		fmt_rating(r, sizeof r, s);
		snprintf(buf, sizeof buf,
		    TR("top.row", " %2d. %s %6s   %d won, %d lost, %d drawn "), i + 1, name, r,
		    s->wins, s->losses, s->draws);
		attrset(i == v->list_sel ? A_REVERSE : A_NORMAL);
		put_clip(2 + i, 1, buf, COLS - 2);
		attrset(A_NORMAL);
	}
	status_lines(m, v,
	    model_has_cap(m, "botaccounts")
		? TR("keys.topbots",
		      "Left/Right rule  b people/bots  Up/Down select  Enter profile  Esc back")
		: TR("keys.top", "Left/Right rule  Up/Down select  Enter profile  Esc back"));
}

static void
draw_rooms(const model_t *m, const view_t *v)
{
	title(m, v, TR("title.rooms", "watch a game"));
	char buf[400], tc[32], room[40], status[40], rule[40], tcp[40], b[PROTO_NAME_MAX + 64],
	    w[PROTO_NAME_MAX + 64];
	if (!m->nrooms)
		put_clip(
		    2, 2, TR("rooms.none", "No public games right now (r refreshes)."), COLS - 4);
	int rows = LINES - 5, first = v->list_sel >= rows ? v->list_sel - rows + 1 : 0;
	for (int i = first; i < m->nrooms && 2 + i - first < LINES - 3; i++) {
		const model_room_t *r = &m->rooms[i];
		fmt_tc(tc, sizeof tc, r->tc_base, r->tc_inc);
		i18n_pad(room, sizeof room, r->room, 6);
		i18n_pad(status, sizeof status, i18n_status(r->status), 8);
		i18n_pad(rule, sizeof rule, i18n_rule(r->rule), 9);
		i18n_pad(tcp, sizeof tcp, tc, 8);
		snprintf(buf, sizeof buf,
		    TR("rooms.row", " %s %s %s %2d %s %s vs %s  %lld moves  %lld watching "), room,
		    status, rule, r->size, tcp, name_or(shown_name(m, r->black, b, sizeof b), "-"),
		    name_or(shown_name(m, r->white, w, sizeof w), "-"), (long long)r->nmoves,
		    (long long)r->spectators);
		attrset(i == v->list_sel ? A_REVERSE : A_NORMAL);
		put_clip(2 + i - first, 1, buf, COLS - 2);
		attrset(A_NORMAL);
	}
	status_lines(m, v, TR("keys.rooms", "Up/Down select  Enter watch  r refresh  Esc back"));
}

static void
draw_history(const model_t *m, const view_t *v)
{
	title(m, v, TR("title.history", "history"));
	char buf[400], rule[40], b[PROTO_NAME_MAX + 64], w[PROTO_NAME_MAX + 64];
	if (!m->ngames)
		put_clip(2, 2, TR("history.none", "No finished games."), COLS - 4);
	int rows = LINES - 5, first = v->list_sel >= rows ? v->list_sel - rows + 1 : 0;
	for (int i = first; i < m->ngames && 2 + i - first < LINES - 3; i++) {
		const model_game_t *g = &m->games[i];
		i18n_pad(rule, sizeof rule, i18n_rule(g->rule), 9);
		snprintf(buf, sizeof buf,
		    TR("history.row", " #%-6lld %s %2d  %s vs %s  %s by %s, %d moves "),
		    (long long)g->id, rule, g->size, shown_name(m, g->black, b, sizeof b),
		    shown_name(m, g->white, w, sizeof w), i18n_result(g->result),
		    i18n_reason(g->reason), g->plies);
		attrset(i == v->list_sel ? A_REVERSE : A_NORMAL);
		put_clip(2 + i - first, 1, buf, COLS - 2);
		attrset(A_NORMAL);
	}
	if (m->games_total > 20) {
		snprintf(buf, sizeof buf,
		    TR("history.page", "page %d of %lld (n next, p previous)"), v->page,
		    (long long)((m->games_total + 19) / 20));
		put_clip(LINES - 4, 2, buf, COLS - 4);
	}
	status_lines(m, v, TR("keys.history", "Up/Down select  Enter replay  n/p page  Esc back"));
}

/* Cuts text into lines of at most w columns, at a space past a line's
 * middle when there is one (CJK text has none: where it stops fitting);
 * returns how many of at most max lines it took. */
static int
wrap(const char *text, int w, char (*out)[512], int max)
{
	int n = 0;
	for (const char *p = text; *p && n < max;) {
		int fits = (int)(i18n_fit(p, w) - p), len = fits;
		if (p[len]) {
			while (len > fits / 2 && p[len] != ' ')
				len--;
			if (p[len] != ' ')
				len = fits;
		}
		if (len <= 0)
			break;
		snprintf(out[n++], 512, "%.*s", len, p);
		p += len;
		while (*p == ' ')
			p++;
	}
	return n;
}

/* The review's words on the replay's panel, from row y down to bottom,
 * width w: the win chance, the graph, where the review stands, the marks. */
static void
draw_review(const model_t *m, const view_t *v, int y, int x, int w, int bottom)
{
	char buf[1024];
	int ply = v->replay_ply;
	if (m->review == REVIEW_READY && ply < m->nevals && m->evals[ply] >= 0) {
		model_chance_text(m->evals[ply], buf, sizeof buf);
		put_clip(y++, x, buf, w);
	}
	int n = m->nevals;
	if (m->review == REVIEW_READY && n > 0 && w >= 8) {
		/* black's chance, one column a position, the one shown reversed;
		 * a mark under each marked move */
		static const char *const blocks[8] = { "\u2581", "\u2582", "\u2583", "\u2584",
			"\u2585", "\u2586", "\u2587", "\u2588" };
		static const char ascii[] = "_.-:=+*#";
		signed char levels[MODEL_EVALS_MAX];
		int ncols = model_graph(m->evals, n, w - 1, levels);
		int at = model_graph_column(n, ncols, ply);
		for (int c = 0; c < ncols; c++) {
			char g[8];
			if (levels[c] < 0)
				snprintf(g, sizeof g, " ");
			else if (v->ascii)
				snprintf(g, sizeof g, "%c", ascii[levels[c]]);
			else
				snprintf(g, sizeof g, "%s", blocks[levels[c]]);
			attrset(c == at ? A_REVERSE | A_BOLD : A_NORMAL);
			mvaddstr(y, x + c, g);
		}
		attrset(A_NORMAL);
		y++;
		int sel = v->mark_sel >= 0 && v->mark_sel < m->nmarks ? m->marks[v->mark_sel].ply
								      : -1;
		for (int i = 0; i < m->nmarks; i++) {
			int c = model_graph_column(n, ncols, m->marks[i].ply);
			if (c < 0)
				continue;
			attrset(m->marks[i].ply == sel ? A_BOLD : A_DIM);
			mvaddstr(y, x + c, v->ascii ? "^" : "\u25b2");
		}
		attrset(A_NORMAL);
		y++;
	}
	switch (m->review) {
	case REVIEW_LOADING:
		snprintf(
		    buf, sizeof buf, "%s", TR("review.loading", "Reading the engine's review..."));
		break;
	case REVIEW_ABSENT:
		snprintf(buf, sizeof buf, "%s", TR("review.absent", "r: ask for a review"));
		break;
	case REVIEW_RUNNING:
		if (m->review_total)
			snprintf(buf, sizeof buf,
			    TR("review.running", "Reviewing: %d of %d positions"), m->review_done,
			    m->review_total);
		else
			snprintf(buf, sizeof buf, "%s", TR("review.waiting", "Reviewing..."));
		break;
	case REVIEW_FAILED:
		snprintf(
		    buf, sizeof buf, "%s", TR("review.failed", "The review failed; r asks again"));
		break;
	case REVIEW_READY:
		if (m->nmarks)
			snprintf(buf, sizeof buf,
			    TR("review.marks", "Marks (%d): n/p go to one, ]/[ step its line"),
			    m->nmarks);
		else
			snprintf(buf, sizeof buf, "%s",
			    TR("review.no_marks", "No marks: no move changed the game much"));
		break;
	default:
		buf[0] = '\0';
		break;
	}
	if (buf[0] && y < bottom) {
		attrset(m->review == REVIEW_FAILED ? on(PAIR_ERROR, v->mono) : 0);
		put_clip(y++, x, buf, w);
		attrset(A_NORMAL);
	}
	int sel = v->mark_sel >= 0 && v->mark_sel < m->nmarks ? v->mark_sel : -1;
	if (sel >= 0 && v->line_step > 0 && m->marks[sel].ply - 1 == ply && y < bottom) {
		snprintf(buf, sizeof buf, TR("review.line", "Line: %d of %d stones shown"),
		    v->line_step, m->marks[sel].nline);
		attrset(A_BOLD);
		put_clip(y++, x, buf, w);
		attrset(A_NORMAL);
	}
	/* the marks: the chosen one whole, the others a line each, from
	 * shortly before the chosen one */
	const char *arrow = v->ascii ? "->" : "\u2192";
	for (int i = sel > 1 ? sel - 1 : 0; i < m->nmarks && y < bottom; i++) {
		char lines[8][512], row[520];
		model_mark_text(&m->marks[i], arrow, buf, sizeof buf);
		if (i != sel) {
			snprintf(row, sizeof row, "  %.500s", buf);
			put_clip(y++, x, row, w);
			continue;
		}
		int room = bottom - y < 8 ? bottom - y : 8;
		int k = wrap(buf, w - 2, lines, room);
		attrset(A_REVERSE);
		for (int j = 0; j < k && y < bottom; j++) {
			snprintf(row, sizeof row, "%s%.500s", j ? "  " : "> ", lines[j]);
			put_clip(y++, x, row, w);
		}
		attrset(A_NORMAL);
	}
}

static void
draw_replay(const model_t *m, const view_t *v)
{
	position_t p;
	pos_init(&p, (rule_t)v->replay.rule, v->replay.size);
	for (int i = 0; i < v->replay_ply && i < v->replay.nmoves; i++)
		pos_place(&p, v->replay.moves[i]);
	char buf[200];
	snprintf(buf, sizeof buf, TR("title.replay", "replay  %s %dx%d"), i18n_rule((rule_t)p.rule),
	    p.size, p.size);
	title(m, v, buf);
	/* a mark's better line, stepped: its stones on the position before
	 * the marked move, drawn apart from the game's */
	int sel = v->mark_sel >= 0 && v->mark_sel < m->nmarks ? v->mark_sel : -1;
	position_t q = p;
	move_t line[PROTO_LIST_MAX];
	int nline = 0;
	if (sel >= 0 && m->marks[sel].ply - 1 == v->replay_ply)
		for (int i = 0; i < v->line_step && i < m->marks[sel].nline; i++) {
			move_t c;
			if (notation_parse(m->marks[sel].line[i], q.size, &c) != 0 ||
			    q.cell[c] != STONE_EMPTY)
				break;
			pos_place(&q, c);
			line[nline++] = c;
		}
	draw_board(&q, NULL, v, -1, 0);
	for (int i = 0; i < nline; i++) {
		int white = (p.nmoves + i) % 2;
		attrset(on(PAIR_CAND, v->mono) | A_BOLD | A_UNDERLINE);
		mvaddstr(BOARD_ROW + rules_y(line[i]), BOARD_COL + 2 * rules_x(line[i]),
		    white ? (v->ascii ? "O" : "\u25cb") : (v->ascii ? "X" : "\u25cf"));
		attrset(A_NORMAL);
	}
	int px = BOARD_COL + 2 * p.size + 2, pw = COLS - px - 1;
	snprintf(
	    buf, sizeof buf, TR("replay.ply", "Move %d of %d"), v->replay_ply, v->replay.nmoves);
	put_clip(2, px, buf, pw);
	if (v->replay_ply) {
		char mv[4];
		snprintf(buf, sizeof buf, TR("replay.last", "Last: %s %s"),
		    i18n_colour(v->replay_ply % 2 ? COLOUR_BLACK : COLOUR_WHITE),
		    notation_format(p.moves[p.nmoves - 1], p.size, mv));
		put_clip(3, px, buf, pw);
	}
	if (p.outcome.kind == RESULT_WIN)
		put_clip(4, px,
		    p.outcome.winner == STONE_BLACK ? TR("replay.black_five", "Black made five")
						    : TR("replay.white_five", "White made five"),
		    pw);
	if (pw >= 16)
		draw_review(m, v, 5, px, pw, LINES - 3);
	status_lines(m, v,
	    model_has_cap(m, "review")
		? TR("keys.replay_review",
		      "Left/Right step  Home/End  r review  n/p marks  ]/[ line  Esc back")
		: TR("keys.replay", "Left/Right step  Home/End first/last  Esc back"));
}

/* A puzzle: its board (a failed one's solution stepped on its position
 * as opened, its stones drawn apart), and on the panel what it is, whose
 * move, the play so far, the end with the rating, and the solution. */
static void
draw_puzzle(const model_t *m, const view_t *v)
{
	const position_t *p = &m->puzzle_pos;
	char buf[1024], lines[6][512];
	snprintf(buf, sizeof buf, TR("title.puzzle", "puzzle %lld  %s %dx%d"),
	    (long long)m->puzzle_id, i18n_rule((rule_t)p->rule), p->size, p->size);
	title(m, v, buf);
	/* the solution, stepped: on the puzzle's position as opened */
	position_t q;
	move_t line[PROTO_LIST_MAX];
	int nline = 0, failed = m->puzzle == PUZZLE_FAILED;
	pos_init(&q, (rule_t)p->rule, p->size);
	for (int i = 0; i < m->puzzle_start && i < p->nmoves; i++)
		pos_place(&q, p->moves[i]);
	for (int i = 0; failed && i < v->puzzle_step && i < m->puzzle_nline; i++) {
		move_t c;
		if (notation_parse(m->puzzle_line[i], q.size, &c) != 0 || q.cell[c] != STONE_EMPTY)
			break;
		pos_place(&q, c);
		line[nline++] = c;
	}
	int cursor = m->puzzle == PUZZLE_OPEN ? rules_move(v->cx, v->cy) : -1;
	draw_board(nline ? &q : p, NULL, v, nline ? -1 : cursor, m->puzzle == PUZZLE_OPEN);
	for (int i = 0; i < nline; i++) {
		int white = (m->puzzle_start + i) % 2;
		attrset(on(PAIR_CAND, v->mono) | A_BOLD | A_UNDERLINE);
		mvaddstr(BOARD_ROW + rules_y(line[i]), BOARD_COL + 2 * rules_x(line[i]),
		    white ? (v->ascii ? "O" : "\u25cb") : (v->ascii ? "X" : "\u25cf"));
		attrset(A_NORMAL);
	}

	int px = BOARD_COL + 2 * p->size + 2, pw = COLS - px - 1, y = 1, bottom = LINES - 3;
	stone_t side = model_puzzle_side(m);
	const char *colour = i18n_colour(side == STONE_WHITE ? COLOUR_WHITE : COLOUR_BLACK);
	snprintf(buf, sizeof buf, TR("puzzle.head", "Puzzle %lld, rated %d"),
	    (long long)m->puzzle_id, m->puzzle_rating);
	attrset(A_BOLD);
	put_clip(y++, px, buf, pw);
	attrset(A_NORMAL);
	put_clip(y++, px, i18n_pclass(m->puzzle_class), pw);
	snprintf(buf, sizeof buf, TR("puzzle.goal", "%s to move: five within %d plies"),
	    side == STONE_WHITE ? TR("puzzle.white", "White") : TR("puzzle.black", "Black"),
	    m->puzzle_plies);
	put_clip(y++, px, buf, pw);
	int attr = A_BOLD;
	switch (m->puzzle) {
	case PUZZLE_OPEN:
		snprintf(
		    buf, sizeof buf, TR("puzzle.your_move", "Your move (%s): Enter plays"), colour);
		break;
	case PUZZLE_JUDGING:
		snprintf(buf, sizeof buf, TR("puzzle.judging", "Judging %s..."), m->puzzle_try);
		attr = A_NORMAL;
		break;
	case PUZZLE_SOLVED:
		snprintf(buf, sizeof buf, "%s", TR("puzzle.solved", "Solved!"));
		break;
	case PUZZLE_FAILED:
		snprintf(buf, sizeof buf, "%s", TR("puzzle.failed", "Failed: the win is gone"));
		attr = on(PAIR_ERROR, v->mono) | A_BOLD;
		break;
	case PUZZLE_GONE:
		snprintf(buf, sizeof buf, "%s",
		    TR("puzzle.gone", "Not open on this connection any more: R opens it again"));
		attr = A_NORMAL;
		break;
	default:
		buf[0] = '\0';
		break;
	}
	y++;
	attrset(attr);
	int k = wrap(buf, pw, lines, 2);
	for (int i = 0; i < k; i++)
		put_clip(y++, px, lines[i], pw);
	attrset(A_NORMAL);
	model_puzzle_rating_text(m, buf, sizeof buf);
	k = wrap(buf, pw, lines, 3);
	for (int i = 0; i < k; i++)
		put_clip(y++, px, lines[i], pw);
	/* the play since the puzzle's position: the player's move numbered,
	 * the defence's reply after it */
	y++;
	snprintf(
	    buf, sizeof buf, TR("puzzle.moves", "Your play (%d):"), p->nmoves - m->puzzle_start);
	attrset(A_UNDERLINE);
	put_clip(y++, px, buf, pw);
	attrset(A_NORMAL);
	size_t n = 0;
	buf[0] = '\0';
	for (int i = m->puzzle_start; i < p->nmoves && n + 16 < sizeof buf; i++) {
		char mv[4];
		notation_format(p->moves[i], p->size, mv);
		int j = i - m->puzzle_start;
		n += (size_t)(j % 2 ? snprintf(buf + n, sizeof buf - n, " %s", mv)
				    : snprintf(buf + n, sizeof buf - n, "%s%d.%s", j ? "  " : "",
					  j / 2 + 1, mv));
	}
	k = wrap(buf, pw, lines, 3);
	for (int i = 0; i < k && y < bottom; i++)
		put_clip(y++, px, lines[i], pw);
	if (failed && m->puzzle_nline && y + 1 < bottom) {
		y++;
		n = 0;
		buf[0] = '\0';
		for (int i = 0; i < m->puzzle_nline && n + 8 < sizeof buf; i++)
			n += (size_t)snprintf(
			    buf + n, sizeof buf - n, "%s%s", i ? " " : "", m->puzzle_line[i]);
		char sol[1100];
		snprintf(sol, sizeof sol, TR("puzzle.solution", "The solution: %s"), buf);
		k = wrap(sol, pw, lines, 3);
		for (int i = 0; i < k && y < bottom; i++)
			put_clip(y++, px, lines[i], pw);
		if (y < bottom) {
			if (v->puzzle_step)
				snprintf(buf, sizeof buf,
				    TR("puzzle.step", "]/[ step it: %d of %d stones shown"), nline,
				    m->puzzle_nline);
			else
				snprintf(buf, sizeof buf, "%s",
				    TR("puzzle.step0", "] shows it on the board, stone by stone"));
			attrset(v->puzzle_step ? A_BOLD : A_NORMAL);
			put_clip(y++, px, buf, pw);
			attrset(A_NORMAL);
		}
	}
	status_lines(m, v,
	    m->puzzle == PUZZLE_FAILED
		? TR("keys.puzzle_failed",
		      "]/[ solution  N next  D daily  R retry  Q lobby  ? help")
		: m->puzzle == PUZZLE_OPEN || m->puzzle == PUZZLE_JUDGING
		? TR("keys.puzzle", "hjkl/h8 Enter:play  N:next  D:daily  R:retry  Q:lobby  ?:help")
		: TR("keys.puzzle_over", "N next  D daily  R retry  Q lobby  ? help"));
}

/* A name (a player's, an event's) in w columns: cut with a "~" when it is longer. */
static void
pad_name(char *dst, size_t len, const char *name, int w)
{
	char cut[256];
	if (i18n_cols(name) <= w) {
		i18n_pad(dst, len, name, w);
		return;
	}
	snprintf(cut, sizeof cut, "%.*s~", (int)(i18n_fit(name, w - 1) - name), name);
	i18n_pad(dst, len, cut, w);
}

/* The server's tournaments (TLIST): one a row, the selected reversed; a
 * soon one's countdown, a running one's round or time left. */
static void
draw_tourneys(const model_t *m, const view_t *v)
{
	title(m, v, TR("title.tourneys", "tournaments"));
	static const char *const heads[][2] = { { NTR("tourneys.col_id", "#") },
		{ NTR("tourneys.col_name", "Name") }, { NTR("tourneys.col_kind", "Kind") },
		{ NTR("tourneys.col_rule", "Rule") }, { NTR("tourneys.col_time", "Time") },
		{ NTR("tourneys.col_state", "State") },
		{ NTR("tourneys.col_players", "Players") } };
	static const int widths[] = { 5, 16, 11, 12, 7, 14, 7 };
	char buf[800], cell[7][200], tc[32], rule[80], state[160], id[24];
	int64_t now = (int64_t)time(NULL);
	size_t n = 0;
	for (int c = 0; c < 7 && n + 200 < sizeof buf; c++) {
		i18n_pad(cell[c], sizeof cell[c], i18n_tr(heads[c][0], heads[c][1]), widths[c]);
		n += (size_t)snprintf(buf + n, sizeof buf - n, " %s", cell[c]);
	}
	attrset(A_UNDERLINE);
	put_clip(2, 0, buf, COLS - 1);
	attrset(A_NORMAL);
	if (!m->ntourneys)
		put_clip(3, 2,
		    m->tlist_ready ? TR("tourneys.none", "No tournaments now (r asks again).")
				   : TR("profile.loading", "Asking the server..."),
		    COLS - 4);
	int rows = LINES - 6, first = v->list_sel >= rows ? v->list_sel - rows + 1 : 0;
	for (int i = first; i < m->ntourneys && 3 + i - first < LINES - 3; i++) {
		const model_tourney_t *t = &m->tourneys[i];
		snprintf(id, sizeof id, "%lld", (long long)t->id);
		fmt_tc(tc, sizeof tc, t->tc_base, t->tc_inc);
		snprintf(rule, sizeof rule, "%s %d", i18n_rule(t->rule), t->size);
		model_tourney_state_text(t, now, state, sizeof state);
		const char *text[6] = { id, t->name[0] ? t->name : i18n_tkind(t->kind),
			i18n_tkind(t->kind), rule, tc, state };
		n = 0;
		for (int c = 0; c < 6 && n + 200 < sizeof buf; c++) {
			if (c == 1)
				pad_name(cell[c], sizeof cell[c], text[c], widths[c]);
			else
				i18n_pad(cell[c], sizeof cell[c], text[c], widths[c]);
			n += (size_t)snprintf(buf + n, sizeof buf - n, " %s", cell[c]);
		}
		snprintf(buf + n, sizeof buf - n, " %4d ", t->players);
		attrset(i == v->list_sel ? A_REVERSE : A_NORMAL);
		put_clip(3 + i - first, 0, buf, COLS - 1);
		attrset(A_NORMAL);
	}
	status_lines(m, v,
	    TR("keys.tourneys2", "Up/Down select  Enter open  c create  r refresh  Esc back"));
}

/* A start from now in words: "in 30 s", "in 5 min", "in 2 h", "in 1 d". */
static void
fmt_tstart(char *buf, size_t len, int s)
{
	if (s < 60)
		snprintf(buf, len, TR("tform.start_s", "in %d s"), s);
	else if (s < 3600)
		snprintf(buf, len, TR("tform.start_min", "in %d min"), s / 60);
	else if (s < 86400)
		snprintf(buf, len, TR("tform.start_h", "in %d h"), s / 3600);
	else
		snprintf(buf, len, TR("tform.start_d", "in %d d"), s / 86400);
}

/* The tournament form (T, then c): its rows as the lobby's settings, the
 * chosen one reversed, Left/Right changing it. */
static void
draw_tcreate(const model_t *m, const view_t *v)
{
	static const char *const names[TFORM_ITEMS][2] = {
		{ NTR("tform.kind", "Kind") },
		{ NTR("lobby.rule", "Rule") },
		{ NTR("lobby.size", "Board size") },
		{ NTR("lobby.tc", "Time control") },
		{ NTR("lobby.opening", "Opening") },
		{ NTR("lobby.rated", "Rated") },
		{ NTR("tform.entrants", "Entrants") },
		{ NTR("tform.start", "Starts") },
		{ NTR("tform.length", "Length") },
		{ NTR("tform.name", "Name") },
		{ NTR("tform.create", "Create it") },
	};
	const tform_t *f = &v->tform;
	char buf[PROTO_TEXT_MAX + 16], name[160], row[PROTO_TEXT_MAX + 200], tc[32];
	title(m, v, TR("title.tcreate", "new tournament"));
	for (int i = 0; i < TFORM_ITEMS; i++) {
		int y = 2 + i + (i == TFORM_CREATE);
		if (y >= LINES - 4)
			break;
		switch (i) {
		case TFORM_KIND:
			snprintf(buf, sizeof buf, "< %s >", i18n_tkind(f->kind));
			break;
		case TFORM_RULE:
			snprintf(buf, sizeof buf, "< %s >", i18n_rule(f->rule));
			break;
		case TFORM_SIZE:
			snprintf(buf, sizeof buf, "< %dx%d >", f->size, f->size);
			break;
		case TFORM_TC:
			fmt_tc(tc, sizeof tc, f->tc_base, f->tc_inc);
			snprintf(buf, sizeof buf, "< %s >", tc);
			break;
		case TFORM_OPENING:
			snprintf(buf, sizeof buf, "< %s >", i18n_opening(f->opening));
			break;
		case TFORM_RATED:
			snprintf(buf, sizeof buf, "< %s >",
			    f->rated ? TR("game.rated", "rated") : TR("game.casual", "casual"));
			break;
		case TFORM_ENTRANTS:
			snprintf(buf, sizeof buf, "< %s >", i18n_entrants(f->entrants));
			break;
		case TFORM_START:
			fmt_tstart(tc, sizeof tc, f->start);
			snprintf(buf, sizeof buf, "< %s >", tc);
			break;
		case TFORM_LENGTH:
			snprintf(name, sizeof name,
			    f->kind == TKIND_ARENA       ? TR("tform.minutes", "%d minutes")
				: f->kind == TKIND_SWISS ? TR("tform.rounds", "%d rounds")
							 : TR("tform.cycles", "%d cycles"),
			    f->length);
			snprintf(buf, sizeof buf, "< %s >", name);
			break;
		case TFORM_NAME:
			snprintf(buf, sizeof buf, "%s",
			    f->name[0] ? f->name : TR("tform.noname", "(none: Enter to type one)"));
			break;
		default:
			buf[0] = '\0';
			break;
		}
		attrset(i == f->sel ? A_REVERSE | A_BOLD : A_NORMAL);
		i18n_pad(name, sizeof name, i18n_tr(names[i][0], names[i][1]), 16);
		snprintf(row, sizeof row, " %s %s ", name, buf);
		put_clip(y, 2, row, COLS - 4);
		attrset(A_NORMAL);
	}
	put_clip(LINES - 5, 2,
	    TR("tform.who", "Accounts create tournaments; the server says what it refuses."),
	    COLS - 4);
	status_lines(m, v,
	    TR("keys.tcreate",
		"Up/Down select  Left/Right change  Enter create (on Name: type it)  "
		"Esc back"));
}

/* One tournament (TWATCH): what it is, where it stands, your next game,
 * the standings (scrolled by Up/Down) and the current pairings. */
static void
draw_tourney(const model_t *m, const view_t *v)
{
	const model_tourney_t *t = &m->tourney;
	char buf[1024], lines[2][512], tc[32], op[96] = "", state[160], cell[200];
	int64_t now = (int64_t)time(NULL);
	snprintf(buf, sizeof buf, TR("title.tourney", "tournament %lld"), (long long)v->tourney);
	title(m, v, buf);
	if (t->id != v->tourney || !t->id) {
		put_clip(2, 2, TR("profile.loading", "Asking the server..."), COLS - 4);
		status_lines(m, v, TR("keys.tourney_wait", "Esc back"));
		return;
	}
	int y = 1, w = COLS - 4;
	/* its name and creator; what it plays */
	if (t->creator[0])
		snprintf(buf, sizeof buf, TR("tourney.name_by", "%s  (by %s)"),
		    t->name[0] ? t->name : i18n_tkind(t->kind), t->creator);
	else
		snprintf(buf, sizeof buf, "%s", t->name[0] ? t->name : i18n_tkind(t->kind));
	attrset(A_BOLD);
	put_clip(y++, 2, buf, w);
	attrset(A_NORMAL);
	fmt_tc(tc, sizeof tc, t->tc_base, t->tc_inc);
	if (t->opening != OPENING_NONE)
		snprintf(op, sizeof op, "  %s", i18n_opening(t->opening));
	snprintf(buf, sizeof buf, "%s  %s %dx%d  %s  %s  %s%s", i18n_tkind(t->kind),
	    i18n_rule(t->rule), t->size, t->size, tc,
	    t->rated ? TR("game.rated", "rated") : TR("game.casual", "casual"),
	    i18n_entrants(t->entrants), op);
	put_clip(y++, 2, buf, w);
	model_tourney_state_text(t, now, state, sizeof state);
	snprintf(buf, sizeof buf, TR("tourney.now", "Now: %s   Players: %d"), state, t->players);
	put_clip(y++, 2, buf, w);
	/* your next game, on two lines at most */
	model_tourney_next_text(m, now, buf, sizeof buf);
	int k = wrap(buf, w, lines, 2);
	attrset(A_BOLD);
	for (int i = 0; i < 2; i++, y++)
		if (i < k)
			put_clip(y, 2, lines[i], w);
	attrset(A_NORMAL);

	/* the standings: rank, player, points, tie-breaks, games, status */
	static const char *const heads[][2] = { { NTR("tourney.col_rank", "#") },
		{ NTR("tourney.col_player", "Player") }, { NTR("tourney.col_points", "Points") },
		{ NTR("tourney.col_games", "Games") }, { NTR("tourney.col_status", "Status") } };
	int ntb = 0;
	while (model_tourney_tiebreak_name(t->kind, ntb))
		ntb++;
	/* the rows under the standings' head: the pairings (a blank line, a
	 * head, a row each) get a third when both do not fit */
	int bottom = LINES - 3, avail = bottom - (y + 1), ng = m->ntgames;
	int need = m->ntplayers ? m->ntplayers : 1;
	if (ng && need + ng + 2 > avail) {
		int third = avail / 3 > 3 ? avail / 3 : 3, rest = avail - need;
		int rows = rest > third ? rest : third;
		ng = ng > rows - 2 ? rows - 2 : ng;
		if (ng < 1)
			ng = 1;
	}
	int stand_rows = avail - (ng ? ng + 2 : 0);
	if (stand_rows < 2)
		stand_rows = 2;
	size_t n = 0;
#define COLUMN(text, width)                                                          \
	do {                                                                         \
		i18n_pad(cell, sizeof cell, (text), (width));                        \
		if (n + sizeof cell < sizeof buf)                                    \
			n += (size_t)snprintf(buf + n, sizeof buf - n, "%s ", cell); \
	} while (0)
	buf[0] = '\0';
	COLUMN(i18n_tr(heads[0][0], heads[0][1]), 4);
	COLUMN(i18n_tr(heads[1][0], heads[1][1]), 14);
	COLUMN(i18n_tr(heads[2][0], heads[2][1]), 6);
	for (int i = 0; i < ntb; i++)
		COLUMN(model_tourney_tiebreak_name(t->kind, i), 7);
	COLUMN(i18n_tr(heads[3][0], heads[3][1]), 5);
	COLUMN(i18n_tr(heads[4][0], heads[4][1]), 10);
	attrset(A_UNDERLINE);
	put_clip(y++, 2, buf, w);
	attrset(A_NORMAL);
	if (!m->ntplayers)
		put_clip(y, 2, TR("tourney.nobody", "Nobody has joined yet."), w);
	/* from the row scrolled to; one row less and "more" when they do not
	 * all fit, my own row always among them */
	int first = v->tscroll < m->ntplayers ? v->tscroll : 0;
	int shown = m->ntplayers - first, more = shown > stand_rows;
	int me = m->me[0] ? model_tourney_player(m, m->me) : -1;
	if (more)
		shown = stand_rows - 1;
	for (int r = 0; r < shown && y < bottom; r++, y++) {
		int i = first + r;
		if (r == shown - 1 && me >= 0 && (me < first || me >= first + shown))
			i = me;
		const model_tplayer_t *p = &m->tplayers[i];
		char rank[16], pts[16], tb[16], games[16], nm[80];
		model_tourney_rank(m, i, rank, sizeof rank);
		model_tourney_points(t->kind, p->points, pts, sizeof pts);
		snprintf(games, sizeof games, "%d", p->played);
		n = 0;
		buf[0] = '\0';
		COLUMN(rank, 4);
		pad_name(nm, sizeof nm, p->user, 14);
		COLUMN(nm, 14);
		COLUMN(pts, 6);
		for (int j = 0; j < ntb; j++) {
			if (j < p->ntb)
				model_tourney_tiebreak(t->kind, j, p->tb[j], tb, sizeof tb);
			else
				snprintf(tb, sizeof tb, "-");
			COLUMN(tb, 7);
		}
		COLUMN(games, 5);
		/* over: nobody waits any more */
		COLUMN(t->state >= TSTATE_OVER && p->status == TSTATUS_ACTIVE
			? ""
			: i18n_tstatus(p->status),
		    10);
		/* an arena's streak: its fire from two wins in a row */
		if (t->kind == TKIND_ARENA && p->streak >= 2 && n + 16 < sizeof buf)
			snprintf(buf + n, sizeof buf - n, "%s%d",
			    v->ascii ? "*" : "\xf0\x9f\x94\xa5", p->streak);
		attrset(i == me ? A_BOLD : A_NORMAL);
		put_clip(y, 2, buf, w);
		attrset(A_NORMAL);
	}
	if (more && y < bottom)
		put_clip(y++, 2, TR("tourney.more", "... (Up/Down scroll)"), w);
#undef COLUMN

	/* the pairings of the round (an arena's games, newest first) */
	if (ng && y + 1 < bottom) {
		y++;
		if (t->kind == TKIND_ARENA)
			snprintf(buf, sizeof buf, "%s",
			    TR("tourney.arena_games", "Games, newest first:"));
		else
			snprintf(buf, sizeof buf, TR("tourney.pairings", "Round %d:"),
			    m->tgames[m->ntgames - 1].round);
		attrset(A_UNDERLINE);
		put_clip(y++, 2, buf, w);
		attrset(A_NORMAL);
		/* ng of them, mine always among them */
		int mine = model_tourney_mine(m);
		for (int c = 0; c < ng && y < bottom; c++, y++) {
			int i = t->kind == TKIND_ARENA ? m->ntgames - 1 - c : c;
			int past = t->kind == TKIND_ARENA ? mine < m->ntgames - ng : mine >= ng;
			if (c == ng - 1 && mine >= 0 && past)
				i = mine;
			const model_tgame_t *g = &m->tgames[i];
			char a[80], b[80], res[200];
			pad_name(a, sizeof a, g->first, 16);
			pad_name(b, sizeof b, g->second, 16);
			model_tgame_text(g, res, sizeof res);
			snprintf(buf, sizeof buf, "%s%3d  %s %s %s  %s", i == mine ? ">" : " ",
			    g->board, a, g->second[0] ? "-" : " ", b, res);
			attrset(i == mine ? A_BOLD : A_NORMAL);
			put_clip(y, 1, buf, w + 1);
			attrset(A_NORMAL);
		}
	}
	const char *keys = t->state >= TSTATE_OVER
	    ? TR("keys.tourney_over", "Up/Down scroll  Esc back  ? help")
	    : model_tourney_in(m)
	    ? TR("keys.tourney_in", "L leave  Enter your game  Up/Down scroll  Esc back  ? help")
	    : TR("keys.tourney_out", "J join  Up/Down scroll  Esc back  ? help");
	if (t->state < TSTATE_OVER && m->me[0] && strcasecmp(t->creator, m->me) == 0) {
		/* its creator's keys too (an admin's work without being shown) */
		snprintf(
		    buf, sizeof buf, "%s  %s", TR("keys.tourney_creator", "B bot  C cancel"), keys);
		status_lines(m, v, buf);
	} else
		status_lines(m, v, keys);
}

/* The engine league (`league`, PROTOCOL.md 5.23): the league shown and
 * how many there are, what it plays, its event; its table best first,
 * Elo around the league's mean 0 with the 95% error bar, every player a
 * bot (marked), from the row scrolled to. */
static void
draw_league(const model_t *m, const view_t *v)
{
	char buf[800], tc[32], cell[200];
	title(m, v, TR("title.league", "engine league"));
	int i = v->league[0] ? model_league_index(m, v->league) : -1;
	int y = 2, w = COLS - 4;
	if (!m->nleagues || i < 0) {
		put_clip(y, 2,
		    m->leagues_ready && !m->nleagues
			? TR("league.none", "This server runs no engine league.")
			: TR("profile.loading", "Asking the server..."),
		    w);
		status_lines(m, v, TR("keys.league_wait", "r refresh  Esc back"));
		return;
	}
	const model_league_t *l = &m->leagues[i];
	if (m->nleagues > 1)
		snprintf(buf, sizeof buf, TR("league.which", "< %s >  (%d of %d)"), l->name, i + 1,
		    m->nleagues);
	else
		snprintf(buf, sizeof buf, "%s", l->name);
	attrset(A_BOLD);
	put_clip(y++, 2, buf, w);
	attrset(A_NORMAL);
	fmt_tc(tc, sizeof tc, l->tc_base, l->tc_inc);
	snprintf(buf, sizeof buf, TR("league.what", "%s %dx%d  %s  %d players, %d rated games"),
	    i18n_rule(l->rule), l->size, l->size, tc, l->players, l->games);
	put_clip(y++, 2, buf, w);
	/* its event: the one under way, or the last and when the next starts */
	int64_t now = (int64_t)time(NULL);
	if (l->next >= 0) {
		/* the countdown as the web's: m:ss, or h:mm:ss from an hour */
		long long left = l->next > now ? (long long)(l->next - now) : 0;
		char when[48];
		if (left >= 3600)
			snprintf(when, sizeof when, "%lld:%02lld:%02lld", left / 3600,
			    left / 60 % 60, left % 60);
		else
			snprintf(when, sizeof when, "%lld:%02lld", left / 60, left % 60);
		if (l->tourney > 0)
			snprintf(buf, sizeof buf,
			    TR("league.next_last",
				"Next event in %s; the latest: tournament %lld (Enter)"),
			    when, (long long)l->tourney);
		else
			snprintf(buf, sizeof buf, TR("league.next", "First event in %s"), when);
	} else if (l->tourney > 0)
		snprintf(buf, sizeof buf,
		    TR("league.running", "An event is under way: tournament %lld (Enter)"),
		    (long long)l->tourney);
	else
		buf[0] = '\0';
	put_clip(y++, 2, buf, w);
	put_clip(y++, 2,
	    TR("league.explain",
		"Bayesian Elo, the league's mean at 0; the error bar: 95 percent confidence."),
	    w);
	y++;
	static const char *const heads[][2] = { { NTR("tourney.col_rank", "#") },
		{ NTR("tourney.col_player", "Player") }, { NTR("league.col_elo", "Elo") },
		{ NTR("league.col_bar", "Error bar") }, { NTR("tourney.col_games", "Games") },
		{ NTR("league.col_score", "Score") }, { NTR("league.col_draws", "Draws") } };
	static const int widths[] = { 3, 16, 5, 9, 5, 5, 5 };
	size_t n = 0;
	buf[0] = '\0';
	for (int c = 0; c < 7 && n + sizeof cell < sizeof buf; c++) {
		i18n_pad(cell, sizeof cell, i18n_tr(heads[c][0], heads[c][1]), widths[c]);
		n += (size_t)snprintf(buf + n, sizeof buf - n, "%s ", cell);
	}
	attrset(A_UNDERLINE);
	put_clip(y++, 2, buf, w);
	attrset(A_NORMAL);
	int shown = m->league[0] && strcmp(m->league, l->name) == 0;
	if (!shown || !m->nlratings) {
		put_clip(y, 2,
		    shown ? TR("league.empty", "No rated games in this league yet.")
			: m->league_refused
			? TR("league.refused",
			      "No table: the server refused it (the line below says why).")
			: TR("profile.loading", "Asking the server..."),
		    w);
		status_lines(m, v,
		    TR("keys.league",
			"Left/Right league  Up/Down scroll  Enter its event  r refresh  Esc back"));
		return;
	}
	int bottom = LINES - 3, first = v->lscroll < m->nlratings ? v->lscroll : 0;
	int rows = m->nlratings - first, more = rows > bottom - y;
	if (more)
		rows = bottom - y - 1;
	for (int r = 0; r < rows && y < bottom; r++, y++) {
		const model_lrating_t *p = &m->lratings[first + r];
		char rank[16], nm[80], elo[16], bar[32], games[16], pts[16], draws[16];
		snprintf(rank, sizeof rank, "%d", p->rank);
		pad_player(m, nm, sizeof nm, p->player, 16);
		pad_name(cell, sizeof cell, nm, 16);
		model_elo_text(p->elo, elo, sizeof elo);
		model_elo_bar(p->minus, p->plus, v->ascii, bar, sizeof bar);
		snprintf(games, sizeof games, "%d", p->games);
		model_tourney_points(TKIND_ROBIN, p->points, pts, sizeof pts);
		snprintf(draws, sizeof draws, "%d", p->draws);
		const char *text[7] = { rank, cell, elo, bar, games, pts, draws };
		n = 0;
		buf[0] = '\0';
		for (int c = 0; c < 7 && n + 200 < sizeof buf; c++) {
			char col[200];
			i18n_pad(col, sizeof col, text[c], widths[c]);
			n += (size_t)snprintf(buf + n, sizeof buf - n, "%s ", col);
		}
		put_clip(y, 2, buf, w);
	}
	if (more && y < bottom)
		put_clip(y++, 2, TR("tourney.more", "... (Up/Down scroll)"), w);
	status_lines(m, v,
	    TR("keys.league",
		"Left/Right league  Up/Down scroll  Enter its event  r refresh  Esc back"));
}

static const char *const help[][2] = {
	{ NTR("help.1", "In a game") },
	{ NTR("help.2", "  arrows or h j k l   move the cursor") },
	{ NTR("help.3", "  Enter or space      play the point under the cursor") },
	{ NTR("help.4", "  mouse click         play the point clicked") },
	{ NTR("help.5", "  h8 then Enter       type a point and play it") },
	{ NTR("help.6", "  R  resign (asks)    U  offer undo       D  offer draw") },
	{ NTR("help.7", "  M  offer rematch    A  accept offer     X  decline or withdraw") },
	{ NTR("help.8", "  Z  abort (early)    C  claim a win (opponent gone)") },
	{ NTR("help.9", "  B / W               swap2: choose black or white") },
	{ NTR(
	    "help.17", "Openings: Enter places a stone, chooses a fifth move or marks an offer;") },
	{ NTR("help.18", "  B / W take a colour; 0-9 or +/- then Enter declare how many offers;") },
	{ NTR("help.19",
	    "  S sends the marked offers, Esc clears;  O / T Taraguchi-10: one or ten") },
	{ NTR("help.10",
	    "  Tab or /            chat (Enter sends, Esc cancels; @bob hi tells bob)") },
	{ NTR("help.11", "  Q  leave the room   ^L redraw           ?  this help") },
	{ NTR("help.12", "Lobby: Up/Down choose, Left/Right change a setting, Enter go.") },
	{ NTR("help.15", "Lobby: s selects the next open seek, t takes it (its game starts).") },
	{ NTR("help.16",
	    "Lobby: p a player's profile, L the leaderboard; in a game P the "
	    "opponent's.") },
	{ NTR("help.13", "Replay: Left/Right step through the game, Esc back.") },
	{ NTR("help.20",
	    "Replay: r the engine's review; n/p next/previous mark; ] [ step its line") },
	{ NTR("help.21",
	    "Lobby: z the next puzzle for you, d the daily puzzle, E the engine league.") },
	{ NTR("help.22",
	    "Puzzle: Enter plays; N next, D daily, R retry; ] [ the solution; Q lobby") },
	{ NTR("help.23",
	    "Tournaments (T): c new, J join, L leave, B bot, C cancel; E/T from its "
	    "game") },
};
enum { HELP_LINES = (int)(sizeof help / sizeof help[0]) };

/* The help's rows: under the title, above its footer. */
static int
help_rows(void)
{
	return LINES - 2 > 1 ? LINES - 2 : 1;
}

int
tui_help_scroll_max(void)
{
	return HELP_LINES > help_rows() ? HELP_LINES - help_rows() : 0;
}

/* The keys, from line v->help_top when they do not fit (22 lines fit at
 * 24 rows; a game needs 21 at 15x15, and a phone's terminal may have
 * fewer); the footer says how to go on. */
static void
draw_help(const model_t *m, const view_t *v)
{
	int rows = help_rows(), max = tui_help_scroll_max(), top = v->help_top;
	if (top > max)
		top = max;
	if (top < 0)
		top = 0;
	title(m, v, TR("title.help", "help"));
	for (int i = 0; i < rows && top + i < HELP_LINES; i++)
		put_clip(1 + i, 2, i18n_tr(help[top + i][0], help[top + i][1]), COLS - 4);
	if (max)
		put_clip(LINES - 1, 2,
		    TR("help.scroll", "Up/Down or j/k scroll the keys; any other key goes back."),
		    COLS - 4);
	else
		put_clip(LINES - 1, 2, TR("help.14", "Press any key to go back."), COLS - 4);
}

/* A boxed message in the middle of the screen, its lines wrapped at
 * spaces, that stays until a key is pressed (the input module clears it). */
static void
draw_dialog(const char *text)
{
	char lines[12][320];
	int n = 0, w = COLS - 2 < 78 ? COLS - 2 : 78;
	for (const char *p = text; *p && n < 10;) {
		int len = (int)strcspn(p, "\n");
		char line[sizeof lines[0]];
		snprintf(line, sizeof line, "%.*s", len, p);
		if (i18n_cols(line) > w - 4) {
			/* what fits in columns, back to a space past its middle (a
			 * line of CJK text has none: cut where it stops fitting) */
			int fits = (int)(i18n_fit(line, w - 4) - line);
			len = fits;
			while (len > fits / 2 && p[len] != ' ')
				len--;
			if (p[len] != ' ')
				len = fits;
		}
		snprintf(lines[n++], sizeof lines[0], "%.*s", len, p);
		p += len;
		while (*p == ' ' || *p == '\n')
			p++;
	}
	snprintf(lines[n++], sizeof lines[0], "%s", "");
	snprintf(lines[n++], sizeof lines[0], "%s", TR("dialog.press", "(press any key)"));
	int top = (LINES - n - 2) / 2, left = (COLS - w) / 2;
	if (top < 0)
		top = 0;
	attron(A_REVERSE);
	for (int i = 0; i < n + 2; i++) {
		mvhline(top + i, left, ' ', w);
		if (i > 0 && i <= n)
			put_clip(top + i, left + 2, lines[i - 1], w - 4);
	}
	attroff(A_REVERSE);
}

void
tui_draw(const model_t *m, const view_t *v, int64_t now)
{
	erase();
	int need_rows = BOARD_ROW + m->pos.size + 4, need_cols = BOARD_COL + 2 * m->pos.size + 24;
	if (v->screen == SCR_PUZZLE)
		need_rows = BOARD_ROW + m->puzzle_pos.size + 4,
		need_cols = BOARD_COL + 2 * m->puzzle_pos.size + 24;
	else if (v->screen == SCR_HELP) /* it scrolls: a title, a line, a footer */
		need_rows = 3, need_cols = 60;
	else if (v->screen == SCR_LOBBY) /* compact under 24 rows */
		need_rows = LOBBY_ROWS_MIN, need_cols = 60;
	else if (v->screen != SCR_GAME && v->screen != SCR_REPLAY)
		need_rows = 24, need_cols = 60;
	if (LINES < need_rows || COLS < need_cols) {
		/* a board cut off would mislead: say what is missing instead */
		char msg[320];
		snprintf(msg, sizeof msg,
		    TR("small.size", "Terminal too small: %dx%d, this screen needs %dx%d."), COLS,
		    LINES, need_cols, need_rows);
		put_clip(0, 0, msg, COLS);
		put_clip(1, 0, TR("small.enlarge", "Enlarge the window (q quits)."), COLS);
		if (v->dialog[0])
			put_clip(3, 0, v->dialog, COLS);
		refresh();
		return;
	}
	switch (v->screen) {
	case SCR_LOBBY:
		draw_lobby(m, v, now);
		break;
	case SCR_GAME:
		draw_game(m, v, now);
		break;
	case SCR_ROOMS:
		draw_rooms(m, v);
		break;
	case SCR_HISTORY:
		draw_history(m, v);
		break;
	case SCR_REPLAY:
		draw_replay(m, v);
		break;
	case SCR_HELP:
		draw_help(m, v);
		break;
	case SCR_PROFILE:
		draw_profile(m, v);
		break;
	case SCR_TOP:
		draw_top(m, v);
		break;
	case SCR_PUZZLE:
		draw_puzzle(m, v);
		break;
	case SCR_TOURNEYS:
		draw_tourneys(m, v);
		break;
	case SCR_TOURNEY:
		draw_tourney(m, v);
		break;
	case SCR_TCREATE:
		draw_tcreate(m, v);
		break;
	case SCR_LEAGUE:
		draw_league(m, v);
		break;
	}
	if (v->dialog[0])
		draw_dialog(v->dialog);
	refresh();
}
