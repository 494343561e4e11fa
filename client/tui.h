/*
 * tui.h: the ncursesw screens. The renderer reads the model (what the
 * server said) and the view (what the user is doing locally) and draws;
 * it changes neither.
 */
#ifndef GOMOKU_CLIENT_TUI_H
#define GOMOKU_CLIENT_TUI_H

#include <stdint.h>

#include "client/model.h"

typedef enum {
	SCR_LOBBY,
	SCR_GAME,
	SCR_ROOMS,
	SCR_HISTORY,
	SCR_REPLAY,
	SCR_HELP,
	SCR_PROFILE,  /* a player's ratings and recent games (STATS, HISTORY) */
	SCR_TOP,      /* the leaderboard of a rule (TOP) */
	SCR_PUZZLE,   /* a puzzle (PUZZLE, SOLVE) */
	SCR_TOURNEYS, /* the server's tournaments (TLIST) */
	SCR_TOURNEY,  /* one tournament (TWATCH): standings, pairings, your game */
	SCR_TCREATE,  /* a tournament's settings, then TCREATE */
	SCR_LEAGUE,   /* the engine league: the leagues (LEAGUES), one's table (LEAGUE) */
} screen_t;
typedef enum { IN_NONE, IN_CHAT, IN_CODE, IN_CHALLENGE, IN_PROFILE, IN_TNAME } input_mode_t;
typedef enum {
	ASK_NONE,
	ASK_RESIGN,
	ASK_LEAVE,
	ASK_QUIT,
	ASK_TLEAVE,
	ASK_TCANCEL, /* cancel the event shown (TCANCEL) */
	ASK_TBOT     /* the level of the bot to add (TBOT): a digit */
} ask_t;

enum {
	LOBBY_SEEK,
	LOBBY_CREATE,
	LOBBY_JOIN,
	LOBBY_WATCH,
	LOBBY_BOT,
	LOBBY_HISTORY,
	LOBBY_HELP,
	LOBBY_QUIT,
	LOBBY_RULE,
	LOBBY_SIZE,
	LOBBY_TC,
	LOBBY_COLOUR,
	LOBBY_RATED,
	LOBBY_OPENING,
	LOBBY_LEVEL,
	LOBBY_ITEMS
};

/* The rows of the tournament form (SCR_TCREATE), in TCREATE's order. */
enum {
	TFORM_KIND,
	TFORM_RULE,
	TFORM_SIZE,
	TFORM_TC,
	TFORM_OPENING,
	TFORM_RATED,
	TFORM_ENTRANTS,
	TFORM_START,
	TFORM_LENGTH,
	TFORM_NAME,
	TFORM_CREATE,
	TFORM_ITEMS
};

/* The tournament being made: TCREATE's fields (start: seconds; length:
 * an arena's minutes, a Swiss's rounds, a round robin's cycles). */
typedef struct {
	int sel; /* the row chosen */
	proto_tkind_t kind;
	rule_t rule;
	int size, tc_base, tc_inc;
	proto_opening_t opening;
	int rated;
	proto_entrants_t entrants;
	int start, length;
	char name[PROTO_TEXT_MAX + 1];
} tform_t;

typedef struct view {
	screen_t screen, back; /* back: where help returns to */
	/* the help's first line shown, and how far it scrolls at this
	 * terminal's size (tui_help_scroll_max, kept by the session) */
	int help_top, help_max;
	int cx, cy;    /* board cursor (column, row from top) */
	char typed[4]; /* a move being typed ("h1", "h12") */
	input_mode_t input;
	char line[PROTO_TEXT_MAX + 1]; /* the input line being edited */
	ask_t ask;                     /* a yes/no question on screen */
	int lobby_sel, list_sel;
	int seek_sel; /* the open seek t takes (s moves it) */
	int page;     /* history page, from 1 */
	/* the profile shown and the screen it returns to; the leaderboard's rule */
	char profile[PROTO_NAME_MAX + 1];
	screen_t profile_back;
	rule_t top_rule;
	int top_bots; /* the leaderboard shown is the bot accounts' (TOPBOTS) */
	/* settings for SEEK, CREATE and BOT */
	rule_t rule;
	int size, tc_base, tc_inc, rated, level;
	proto_colour_t colour;
	proto_opening_t opening;
	/* swap2 stones being placed before they are sent */
	int nput;
	move_t put[3];
	/* an opening rule's act being prepared: the fifth-move offers marked
	 * (sent together by S), the number typed at a declare stage (0: none) */
	int nfifth;
	move_t fifth[MODEL_FIFTHS_MAX];
	int declare;
	/* replay of a fetched record */
	position_t replay;
	int replay_ply;
	/* its review (the model's marks): the mark chosen (-1 none), and how
	 * many stones of that mark's line are shown on the position before
	 * its move (0: the game's position alone) */
	int mark_sel, line_step;
	/* a failed puzzle: how many stones of its solution are shown on its
	 * position as opened (0: the play as it went) */
	int puzzle_step;
	/* the tournament opened from the list (its id), and the first of its
	 * standings shown (Up/Down scroll them) */
	int64_t tourney;
	int tscroll;
	screen_t tback; /* where Esc from it goes: the list, or the league it came from */
	/* the engine league shown (its name, "" the first listed), and the
	 * first row of its table shown (Up/Down scroll it) */
	char league[PROTO_WORD_MAX + 1];
	int lscroll;
	tform_t tform; /* T, then c: the tournament form */
	/* connection state shown in the title bar */
	int online;
	char conn[160];
	int ascii, mono;
	/* a message that stays on screen until a key is pressed ("" none) */
	char dialog[1024];
} view_t;

void view_init(view_t *v);

/* Starts curses (colours unless mono, mouse reporting if mouse, keypad).
 * 0 or -1. */
int tui_start(int mono, int mouse);
/* Whether the locale can show UTF-8 (else the board falls back to ASCII);
 * valid after tui_start. */
int tui_utf8(void);
/* Restores the terminal; safe to call more than once. */
void tui_stop(void);
/* The size changed: re-read it. */
void tui_resize(void);
void tui_draw(const model_t *m, const view_t *v, int64_t now_ms);
/* How many lines the help scrolls at this terminal's size: its lines less
 * the rows it has (0: it fits). */
int tui_help_scroll_max(void);
/* The board cell at screen row y, column x, for a board of size n;
 * 0 with *mv set, or -1 when outside the board. */
int tui_hit(int n, int y, int x, move_t *mv);

#endif
