/*
 * input.c: what each key does on each screen.
 */
#include "client/input.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include <curses.h>

#include "rules/opening.h"

enum {
	K_ESC = 27,
	K_TAB = 9,
	K_ENTER = 10,
	K_CR = 13,
	K_BS = 127,
	K_CTRL_H = 8,
	K_CTRL_L = 12,
	K_CTRL_C = 3
};

static const int sizes[] = { 9, 13, 15, 19, 20 };
static const int tcs[][2] = { { 0, 0 }, { 60, 0 }, { 180, 2 }, { 300, 5 }, { 600, 10 },
	{ 900, 10 } };

static int
cycle(int v, int n, int d)
{
	return ((v + d) % n + n) % n;
}

static int
index_of_size(int s)
{
	for (int i = 0; i < 5; i++)
		if (sizes[i] == s)
			return i;
	return 2;
}

static int
index_of_tc(int b, int inc)
{
	for (int i = 0; i < 6; i++)
		if (tcs[i][0] == b && tcs[i][1] == inc)
			return i;
	return 3;
}

/* Whether the lobby offers opening o with the rule and size shown: with
 * capability `openings`, when the rules core's table says they go
 * together (opening_combination, the server's own); before it, none and
 * swap2 as ever. */
static int
opening_ok(const model_t *m, rule_t rule, int size, proto_opening_t o)
{
	if (!model_has_cap(m, "openings"))
		return o == OPENING_NONE || o == OPENING_SWAP2;
	if (o == OPENING_NONE)
		return 1;
	opening_rule_t r;
	return opening_rule_parse(proto_opening_name(o), &r) == 0 &&
	    opening_combination(r, rule, size) == OERR_OK;
}

static int
opening_fits(const view_t *v, const model_t *m, proto_opening_t o)
{
	return opening_ok(m, v->rule, v->size, o);
}

/* The tournament form's starts (seconds from now; PROTOCOL.md 5.21: 5 s
 * to a week) and an arena's lengths (minutes, 1 to 720). */
static const int tstarts[] = { 10, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 21600, 86400,
	604800 };
static const int tminutes[] = { 5, 10, 15, 20, 30, 45, 60, 90, 120, 180, 360, 720 };
enum {
	NTSTARTS = (int)(sizeof tstarts / sizeof tstarts[0]),
	NTMINUTES = (int)(sizeof tminutes / sizeof tminutes[0])
};

static int
index_in(const int *list, int n, int value, int dflt)
{
	for (int i = 0; i < n; i++)
		if (list[i] == value)
			return i;
	return dflt;
}

/* A length that fits the kind: what the kind's table allows. */
static void
tform_length(tform_t *f, int d)
{
	if (f->kind == TKIND_ARENA)
		f->length =
		    tminutes[cycle(index_in(tminutes, NTMINUTES, f->length, 4 - d), NTMINUTES, d)];
	else if (f->kind == TKIND_SWISS)
		f->length = cycle(f->length - 1 + d, 20, 0) + 1;
	else
		f->length = cycle(f->length - 1 + d, 2, 0) + 1;
}

static void
tform_change(tform_t *f, const model_t *m, int d)
{
	switch (f->sel) {
	case TFORM_KIND:
		f->kind = (proto_tkind_t)cycle((int)f->kind, 3, d);
		f->length = f->kind == TKIND_ARENA ? 30 : f->kind == TKIND_SWISS ? 3 : 1;
		break;
	case TFORM_RULE:
		f->rule = (rule_t)cycle((int)f->rule, 3, d);
		if (!opening_ok(m, f->rule, f->size, f->opening))
			f->opening = OPENING_NONE;
		break;
	case TFORM_SIZE:
		f->size = sizes[cycle(index_of_size(f->size), 5, d)];
		if (!opening_ok(m, f->rule, f->size, f->opening))
			f->opening = OPENING_NONE;
		break;
	case TFORM_TC: { /* a tournament's games have a clock: not tcs[0] */
		int i = cycle(index_of_tc(f->tc_base, f->tc_inc) - 1, 5, d) + 1;
		f->tc_base = tcs[i][0];
		f->tc_inc = tcs[i][1];
		break;
	}
	case TFORM_OPENING: {
		int o = (int)f->opening, n = (int)OPENING_TARAGUCHI10 + 1;
		for (int i = 0; i < n; i++) {
			o = cycle(o, n, d);
			if (opening_ok(m, f->rule, f->size, (proto_opening_t)o))
				break;
		}
		f->opening = (proto_opening_t)o;
		break;
	}
	case TFORM_RATED:
		f->rated = !f->rated;
		break;
	case TFORM_ENTRANTS:
		f->entrants = (proto_entrants_t)cycle((int)f->entrants, 3, d);
		break;
	case TFORM_START:
		f->start = tstarts[cycle(index_in(tstarts, NTSTARTS, f->start, 5), NTSTARTS, d)];
		break;
	case TFORM_LENGTH:
		tform_length(f, d);
		break;
	default:
		break;
	}
}

/* The tournament form: Up/Down a row, Left/Right its value, Enter on the
 * name types it, Enter elsewhere sends TCREATE; Esc back to the list. */
static input_rc_t
tcreate_key(view_t *v, const model_t *m, int key, int fn, proto_msg_t *out)
{
	tform_t *f = &v->tform;
	if (fn && key == KEY_UP)
		f->sel = cycle(f->sel, TFORM_ITEMS, -1);
	else if (fn && key == KEY_DOWN)
		f->sel = cycle(f->sel, TFORM_ITEMS, 1);
	else if (fn && (key == KEY_LEFT || key == KEY_RIGHT))
		tform_change(f, m, key == KEY_LEFT ? -1 : 1);
	else if (!fn && (key == K_ESC || key == 'q'))
		v->screen = SCR_TOURNEYS;
	else if ((!fn && (key == K_ENTER || key == K_CR)) || (fn && key == KEY_ENTER)) {
		if (f->sel == TFORM_NAME) {
			v->input = IN_TNAME;
			snprintf(v->line, sizeof v->line, "%s", f->name);
			return INPUT_REDRAW;
		}
		proto_init(out, PR_TCREATE, NULL);
		out->tkind = f->kind;
		out->rule = f->rule;
		out->size = f->size;
		out->tc_base = f->tc_base;
		out->tc_inc = f->tc_inc;
		out->opening = f->opening;
		out->rated = f->rated;
		out->entrants = f->entrants;
		out->count = f->start;
		out->count2 = f->length;
		snprintf(out->text, sizeof out->text, "%s", f->name);
		return INPUT_SEND;
	} else
		return INPUT_NOTHING;
	return INPUT_REDRAW;
}

static void
change_setting(view_t *v, const model_t *m, int d)
{
	switch (v->lobby_sel) {
	case LOBBY_RULE:
		v->rule = (rule_t)cycle((int)v->rule, 3, d);
		if (!opening_fits(v, m, v->opening))
			v->opening = OPENING_NONE;
		break;
	case LOBBY_SIZE:
		v->size = sizes[cycle(index_of_size(v->size), 5, d)];
		if (!opening_fits(v, m, v->opening))
			v->opening = OPENING_NONE;
		break;
	case LOBBY_TC: {
		int i = cycle(index_of_tc(v->tc_base, v->tc_inc), 6, d);
		v->tc_base = tcs[i][0];
		v->tc_inc = tcs[i][1];
		break;
	}
	case LOBBY_COLOUR:
		v->colour = (proto_colour_t)cycle((int)v->colour, 3, d);
		break;
	case LOBBY_RATED:
		v->rated = !v->rated;
		break;
	case LOBBY_OPENING: {
		int o = (int)v->opening, n = (int)OPENING_TARAGUCHI10 + 1;
		for (int i = 0; i < n; i++) {
			o = cycle(o, n, d);
			if (opening_fits(v, m, (proto_opening_t)o))
				break;
		}
		v->opening = (proto_opening_t)o;
		break;
	}
	case LOBBY_LEVEL: { /* 1..10, then the server's hosted engines */
		char names[MODEL_ENGINES_MAX][PROTO_ENGINE_MAX + 1];
		int ne = model_engines(m, names, MODEL_ENGINES_MAX);
		v->level = cycle(v->level - 1, PROTO_LEVEL_MAX + ne, d) + 1;
		break;
	}
	default:
		break;
	}
}

static void
game_settings(const view_t *v, proto_msg_t *o)
{
	o->rule = v->rule;
	o->size = v->size;
	o->tc_base = v->tc_base;
	o->tc_inc = v->tc_inc;
	o->colour = v->colour;
	o->rated = v->rated;
	o->opening = v->opening;
}

/* TOP (or the bots' TOPBOTS) of the leaderboard's rule, page 1. */
static input_rc_t
ask_top(const view_t *v, proto_msg_t *out)
{
	proto_init(out, v->top_bots ? PR_TOPBOTS : PR_TOP, NULL);
	out->rule = v->top_rule;
	return INPUT_SEND;
}

static input_rc_t open_profile(view_t *v, const char *name, proto_msg_t *out);

/* PUZZLE what (next, daily or an id), on a server with `puzzles`. */
static input_rc_t
ask_puzzle(const model_t *m, const char *what, proto_msg_t *out)
{
	if (!model_has_cap(m, "puzzles"))
		return INPUT_NOTHING;
	proto_init(out, PR_PUZZLE, NULL);
	snprintf(out->word, sizeof out->word, "%s", what);
	return INPUT_SEND;
}

static input_rc_t
lobby_key(view_t *v, const model_t *m, int key, int fn, proto_msg_t *out)
{
	if (fn && key == KEY_UP)
		v->lobby_sel = cycle(v->lobby_sel, LOBBY_ITEMS, -1);
	else if (fn && key == KEY_DOWN)
		v->lobby_sel = cycle(v->lobby_sel, LOBBY_ITEMS, 1);
	else if (fn && (key == KEY_LEFT || key == KEY_RIGHT))
		change_setting(v, m, key == KEY_LEFT ? -1 : 1);
	else if (!fn && key == 'q')
		v->ask = ASK_QUIT;
	else if (!fn && key == 'c') {
		v->input = IN_CHALLENGE;
		v->line[0] = '\0';
	} else if (!fn && key == 'p') {
		v->input = IN_PROFILE;
		v->line[0] = '\0';
	} else if (!fn && key == 'L') {
		v->screen = SCR_TOP;
		v->list_sel = 0;
		return ask_top(v, out);
	} else if (!fn && key == 'B' && m->me[0] && model_has_cap(m, "botaccounts")) {
		/* whether bot accounts' challenges reach me: the other way now */
		proto_init(out, PR_SET, NULL);
		snprintf(out->word, sizeof out->word, "bot-challenges");
		snprintf(out->word2, sizeof out->word2, "%s", m->nobots == 1 ? "yes" : "no");
		return INPUT_SEND;
	} else if (!fn && key == 's' && m->nseeks) {
		v->seek_sel = cycle(v->seek_sel, m->nseeks, 1);
	} else if (!fn && key == 't' && m->nseeks && model_has_cap(m, "take")) {
		/* the selected open seek, as listed: its player's game starts */
		int i = v->seek_sel < m->nseeks ? v->seek_sel : m->nseeks - 1;
		proto_init(out, PR_TAKE, NULL);
		out->ident = m->seeks[i].id;
		snprintf(out->user, sizeof out->user, "%s", m->seeks[i].user);
		return INPUT_SEND;
	} else if (!fn && key == 'C' && m->seek_id) {
		proto_init(out, PR_CANCEL, NULL);
		return INPUT_SEND;
	} else if (!fn && (key == 'z' || key == 'd')) {
		/* a puzzle: the next one for me, or the day's */
		return ask_puzzle(m, key == 'z' ? "next" : "daily", out);
	} else if (!fn && key == 'E' && model_has_cap(m, "league")) {
		/* the engine league: LEAGUES, then the table (the session asks it) */
		v->screen = SCR_LEAGUE;
		v->lscroll = 0;
		proto_init(out, PR_LEAGUES, NULL);
		return INPUT_SEND;
	} else if (!fn && key == 'T' && model_has_cap(m, "tournaments")) {
		v->screen = SCR_TOURNEYS;
		v->list_sel = 0;
		proto_init(out, PR_TLIST, NULL);
		return INPUT_SEND;
	} else if ((!fn && (key == K_ENTER || key == K_CR || key == ' ')) ||
	    (fn && key == KEY_ENTER)) {
		switch (v->lobby_sel) {
		case LOBBY_SEEK:
			proto_init(out, PR_SEEK, NULL);
			game_settings(v, out);
			/* nobody about: a bot takes the seat after the server's wait */
			if (model_has_cap(m, "bots") && !v->rated)
				out->fallback = FALLBACK_BOT;
			return INPUT_SEND;
		case LOBBY_CREATE:
			proto_init(out, PR_CREATE, NULL);
			game_settings(v, out);
			return INPUT_SEND;
		case LOBBY_JOIN:
			v->input = IN_CODE;
			v->line[0] = '\0';
			break;
		case LOBBY_WATCH:
			v->screen = SCR_ROOMS;
			v->list_sel = 0;
			proto_init(out, PR_ROOMS, NULL);
			return INPUT_SEND;
		case LOBBY_BOT: {
			char names[MODEL_ENGINES_MAX][PROTO_ENGINE_MAX + 1];
			int ne = model_engines(m, names, MODEL_ENGINES_MAX);
			proto_init(out, PR_BOT_PLAY, NULL);
			game_settings(v, out);
			if (v->level > PROTO_LEVEL_MAX && v->level - PROTO_LEVEL_MAX <= ne) {
				/* a hosted engine, which plays no opening rule */
				snprintf(out->engine, sizeof out->engine, "%s",
				    names[v->level - PROTO_LEVEL_MAX - 1]);
				out->level = 0;
				out->opening = OPENING_NONE;
			} else
				out->level = v->level > PROTO_LEVEL_MAX ? PROTO_LEVEL_MAX
									: v->level;
			return INPUT_SEND;
		}
		case LOBBY_HISTORY:
			v->screen = SCR_HISTORY;
			v->list_sel = 0;
			v->page = 1;
			proto_init(out, PR_HISTORY, NULL);
			return INPUT_SEND;
		case LOBBY_HELP:
			v->back = v->screen;
			v->screen = SCR_HELP;
			break;
		case LOBBY_QUIT:
			v->ask = ASK_QUIT;
			break;
		default:
			change_setting(v, m, 1);
			break;
		}
	}
	return INPUT_NOTHING;
}

/* The profile of name from now (STATS name; the session asks its
 * HISTORY after it), Esc going back to the screen shown now. */
static input_rc_t
open_profile(view_t *v, const char *name, proto_msg_t *out)
{
	if (v->screen != SCR_PROFILE)
		v->profile_back = v->screen;
	v->screen = SCR_PROFILE;
	snprintf(v->profile, sizeof v->profile, "%s", name);
	proto_init(out, PR_STATS, NULL);
	snprintf(out->user, sizeof out->user, "%s", name);
	return INPUT_SEND;
}

static input_rc_t
send_simple(proto_msg_t *out, proto_id_t id, const model_t *m)
{
	proto_init(out, id, NULL);
	snprintf(out->room, sizeof out->room, "%s", m->room);
	return INPUT_SEND;
}

/* The most fifth moves the declare stage allows (the server's count). */
static int
declare_max(const model_t *m)
{
	return m->op_count > 0 && m->op_count <= 10 ? m->op_count : 10;
}

/* OPENING declare with the number typed, when there is one. */
static input_rc_t
send_declare(view_t *v, const model_t *m, proto_msg_t *out)
{
	if (v->declare < 1 || v->declare > declare_max(m))
		return INPUT_NOTHING;
	send_simple(out, PR_OPENING_DECLARE, m);
	out->declared = v->declare;
	v->declare = 0;
	return INPUT_SEND;
}

/* The fifth-move offers marked, sent all at once (OPENING offer). */
static input_rc_t
send_fifths(view_t *v, const model_t *m, proto_msg_t *out)
{
	if (!model_opening_mine(m) || m->op_stage != OSTAGE_WIRE_OFFER || !v->nfifth)
		return INPUT_NOTHING;
	send_simple(out, PR_OPENING_OFFER, m);
	out->nmoves = v->nfifth;
	for (int i = 0; i < v->nfifth; i++)
		notation_format(v->fifth[i], m->pos.size, out->moves[i]);
	v->nfifth = 0;
	return INPUT_SEND;
}

/* Enter on a board point during an opening rule's stage (`openings`):
 * the stage the server named says what it does; a stage that is not
 * mine takes no point. */
static input_rc_t
opening_point(view_t *v, const model_t *m, move_t c, const char *mv, proto_msg_t *out)
{
	if (!model_opening_mine(m))
		return INPUT_NOTHING;
	switch (m->op_stage) {
	case OSTAGE_WIRE_PLACE:
	case OSTAGE_WIRE_CHOOSE:
		send_simple(out,
		    m->op_stage == OSTAGE_WIRE_PLACE ? PR_OPENING_PLACE : PR_OPENING_CHOOSE, m);
		snprintf(out->move, sizeof out->move, "%s", mv);
		return INPUT_SEND;
	case OSTAGE_WIRE_OFFER:
		/* marks the point, or unmarks it; S sends them all */
		for (int i = 0; i < v->nfifth; i++)
			if (v->fifth[i] == c) {
				memmove(&v->fifth[i], &v->fifth[i + 1],
				    sizeof v->fifth[0] * (size_t)(v->nfifth - i - 1));
				v->nfifth--;
				return INPUT_REDRAW;
			}
		if (m->pos.cell[c] != STONE_EMPTY || v->nfifth >= MODEL_FIFTHS_MAX ||
		    (m->op_count > 0 && v->nfifth >= m->op_count))
			return INPUT_NOTHING;
		v->fifth[v->nfifth++] = c;
		return INPUT_REDRAW;
	case OSTAGE_WIRE_DECLARE:
		return send_declare(v, m, out);
	default:
		return INPUT_NOTHING;
	}
}

/* Enter on a board point: a move, a swap2 stone, or an opening's act. */
static input_rc_t
play_point(view_t *v, const model_t *m, move_t c, proto_msg_t *out)
{
	char mv[4];
	notation_format(c, m->pos.size, mv);
	v->typed[0] = '\0';
	if (m->op || (m->status == ROOM_OPENING && m->opening != OPENING_SWAP2 && !m->over))
		return opening_point(v, m, c, mv, out); /* no MOVE before COLOURS */
	if (m->swap2 && strcmp(m->swap2_user, m->me) == 0 && m->swap2_stage != STAGE_CHOOSE2) {
		int need = m->swap2_stage == STAGE_PUT3 ? 3 : 2;
		for (int i = 0; i < v->nput; i++)
			if (v->put[i] == c)
				return INPUT_NOTHING;
		if (m->pos.cell[c] != STONE_EMPTY)
			return INPUT_NOTHING;
		v->put[v->nput++] = c;
		if (v->nput < need)
			return INPUT_REDRAW;
		send_simple(out, PR_SWAP2, m);
		out->choice = CHOICE_PUT;
		out->nmoves = v->nput;
		for (int i = 0; i < v->nput; i++)
			notation_format(v->put[i], m->pos.size, out->moves[i]);
		v->nput = 0;
		return INPUT_SEND;
	}
	send_simple(out, PR_MOVE, m);
	snprintf(out->move, sizeof out->move, "%s", mv);
	return INPUT_SEND;
}

static void
utf8_append(char *buf, size_t cap, int cp)
{
	char enc[5];
	size_t n;
	if (cp < 0x80) {
		enc[0] = (char)cp;
		n = 1;
	} else if (cp < 0x800) {
		enc[0] = (char)(0xC0 | (cp >> 6));
		enc[1] = (char)(0x80 | (cp & 0x3F));
		n = 2;
	} else if (cp < 0x10000) {
		if (cp >= 0xD800 && cp < 0xE000)
			return;
		enc[0] = (char)(0xE0 | (cp >> 12));
		enc[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		enc[2] = (char)(0x80 | (cp & 0x3F));
		n = 3;
	} else if (cp < 0x110000) {
		enc[0] = (char)(0xF0 | (cp >> 18));
		enc[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
		enc[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
		enc[3] = (char)(0x80 | (cp & 0x3F));
		n = 4;
	} else {
		return;
	}
	size_t len = strlen(buf);
	if (len + n < cap) {
		memcpy(buf + len, enc, n);
		buf[len + n] = '\0';
	}
}

/* A user name as the protocol has it: [A-Za-z][A-Za-z0-9_-]{0,19}. */
static int
name_ok(const char *s, size_t n)
{
	if (n < 1 || n > PROTO_NAME_MAX || !isalpha((unsigned char)s[0]))
		return 0;
	for (size_t i = 1; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_' && s[i] != '-')
			return 0;
	return 1;
}

size_t
input_invite_code(const char *typed, char *code, size_t n)
{
	/* a share link, https://host:port/#join=CODE: the letters and digits
	 * after its last "#join=" */
	const char *at = NULL;
	for (const char *p = strstr(typed, "#join="); p; p = strstr(p + 1, "#join="))
		at = p + 6;
	size_t len = 0;
	for (const char *p = at ? at : typed; *p; p++) {
		/* a link's code ends at its first other character; a code as
		 * typed keeps only its letters and digits */
		if (!isalnum((unsigned char)*p) && at)
			break;
		if (!isalnum((unsigned char)*p))
			continue;
		if (len + 1 < n)
			code[len] = *p;
		len++;
	}
	if (n)
		code[len < n ? len : n - 1] = '\0';
	return len;
}

static input_rc_t
line_key(view_t *v, const model_t *m, int key, int fn, proto_msg_t *out)
{
	size_t len = strlen(v->line);
	char code[PROTO_CODE_MAX + 1] = "";
	if (!fn && key == K_ESC) {
		v->input = IN_NONE;
	} else if ((fn && key == KEY_BACKSPACE) || (!fn && (key == K_BS || key == K_CTRL_H))) {
		while (len && (v->line[len - 1] & 0xC0) == 0x80)
			len--;
		if (len)
			len--;
		v->line[len] = '\0';
	} else if ((!fn && (key == K_ENTER || key == K_CR)) || (fn && key == KEY_ENTER)) {
		input_mode_t mode = v->input;
		if (mode == IN_CODE && len > 0) {
			size_t n = input_invite_code(v->line, code, sizeof code);
			if (n < 6 || n > PROTO_CODE_MAX)
				return INPUT_REDRAW; /* codes have 6 to 32 characters */
		}
		v->input = IN_NONE;
		/* spaces around a chat line would not survive the wire */
		while (len && v->line[len - 1] == ' ')
			v->line[--len] = '\0';
		size_t lead = strspn(v->line, " ");
		memmove(v->line, v->line + lead, len - lead + 1);
		len -= lead;
		if (mode == IN_TNAME) { /* the form's name, kept; "" none */
			snprintf(v->tform.name, sizeof v->tform.name, "%s", v->line);
			v->line[0] = '\0';
			return INPUT_REDRAW;
		}
		if (!len)
			return INPUT_REDRAW;
		const char *sp = strchr(v->line, ' ');
		if (mode == IN_CODE) {
			proto_init(out, PR_JOIN, NULL);
			snprintf(out->code, sizeof out->code, "%s", code);
		} else if (mode == IN_PROFILE) {
			if (!name_ok(v->line, len))
				return INPUT_REDRAW;
			open_profile(v, v->line, out);
		} else if (mode == IN_CHALLENGE) {
			if (!name_ok(v->line, len))
				return INPUT_REDRAW;
			proto_init(out, PR_CHALLENGE, NULL);
			snprintf(out->user, sizeof out->user, "%s", v->line);
			game_settings(v, out);
		} else if (v->line[0] == '@' && sp &&
		    name_ok(v->line + 1, (size_t)(sp - v->line - 1))) {
			/* "@bob hello": a private message */
			proto_init(out, PR_TELL, NULL);
			snprintf(out->user, sizeof out->user, "%.*s", (int)(sp - v->line - 1),
			    v->line + 1);
			snprintf(out->text, sizeof out->text, "%s", sp + strspn(sp, " "));
		} else {
			send_simple(out, PR_SAY, m);
			snprintf(out->text, sizeof out->text, "%s", v->line);
		}
		v->line[0] = '\0';
		return INPUT_SEND;
	} else if (v->input == IN_CODE) {
		/* a code, or a share link pasted whole: the code is taken out
		 * of it at Enter (input_invite_code) */
		if (!fn && key > 0x20 && key < 0x7f)
			utf8_append(v->line, sizeof v->line, key);
	} else if (v->input == IN_CHALLENGE || v->input == IN_PROFILE) {
		if (!fn && key < 0x80 && (isalnum(key) || key == '_' || key == '-'))
			utf8_append(v->line, PROTO_NAME_MAX + 1, key);
	} else if (!fn && key >= 0x20 && key != 0x7f && !(key >= 0x80 && key < 0xa0)) {
		utf8_append(v->line, sizeof v->line, key);
	}
	return INPUT_REDRAW;
}

static void
cursor_to(view_t *v, const model_t *m)
{
	move_t c;
	if (strlen(v->typed) >= 2 && notation_parse(v->typed, m->pos.size, &c) == 0) {
		v->cx = rules_x(c);
		v->cy = rules_y(c);
	}
}

static input_rc_t
game_key(view_t *v, const model_t *m, int key, int fn, proto_msg_t *out)
{
	int n = m->pos.size;
	int dx = 0, dy = 0;
	if (v->cx >= n) /* the board may have shrunk under the cursor */
		v->cx = n - 1;
	if (v->cy >= n)
		v->cy = n - 1;
	if (fn) {
		switch (key) {
		case KEY_LEFT:
			dx = -1;
			break;
		case KEY_RIGHT:
			dx = 1;
			break;
		case KEY_UP:
			dy = -1;
			break;
		case KEY_DOWN:
			dy = 1;
			break;
		case KEY_ENTER:
			return play_point(v, m, rules_move(v->cx, v->cy), out);
		default:
			return INPUT_NOTHING;
		}
		v->typed[0] = '\0';
	} else if (key >= 'a' && key < 'a' + n) {
		/* a column letter starts a typed move; h j k l also move */
		v->typed[0] = (char)key;
		v->typed[1] = '\0';
		if (key == 'h')
			dx = -1;
		else if (key == 'l')
			dx = 1;
		else if (key == 'k')
			dy = -1;
		else if (key == 'j')
			dy = 1;
	} else if (!v->typed[0] && model_opening_mine(m) && m->op_stage == OSTAGE_WIRE_DECLARE &&
	    ((key >= '0' && key <= '9') || key == '+' || key == '=' || key == '-')) {
		/* the number of offers: digits (a second one makes 10), or +/- */
		int max = declare_max(m);
		if (key == '+' || key == '=')
			v->declare = v->declare < max ? v->declare + 1 : max;
		else if (key == '-')
			v->declare = v->declare > 1 ? v->declare - 1 : 1;
		else if (v->declare * 10 + (key - '0') <= max && v->declare * 10 + (key - '0') > 0)
			v->declare = v->declare * 10 + (key - '0');
		else if (key - '0' >= 1 && key - '0' <= max)
			v->declare = key - '0'; /* starts again */
		return INPUT_REDRAW;
	} else if (key >= '0' && key <= '9' && v->typed[0] && strlen(v->typed) < 3) {
		size_t len = strlen(v->typed);
		v->typed[len] = (char)key;
		v->typed[len + 1] = '\0';
		cursor_to(v, m);
		return INPUT_REDRAW;
	} else {
		v->typed[0] = '\0';
		switch (key) {
		case K_ENTER:
		case K_CR:
		case ' ':
			return play_point(v, m, rules_move(v->cx, v->cy), out);
		case K_TAB:
		case '/':
			v->input = IN_CHAT;
			v->line[0] = '\0';
			return INPUT_REDRAW;
		case 'R':
			if (!m->over && model_my_side(m) != STONE_EMPTY)
				v->ask = ASK_RESIGN;
			return INPUT_REDRAW;
		case 'U':
			send_simple(out, PR_OFFER, m);
			out->offer = OFFER_UNDO;
			return INPUT_SEND;
		case 'D':
			send_simple(out, PR_OFFER, m);
			out->offer = OFFER_DRAW;
			return INPUT_SEND;
		case 'E':
			if (m->over || !model_tourney_my_game(m))
				return INPUT_NOTHING;
			/* my tournament game under way: a look at the event, the
			 * game kept (Enter there comes back to it) */
			v->screen = SCR_TOURNEY;
			v->tourney = m->tourney.id;
			v->tscroll = 0;
			return INPUT_REDRAW;
		case 'M':
			if (model_tourney_my_game(m))
				return INPUT_NOTHING; /* no rematch in a tournament (441) */
			send_simple(out, PR_OFFER, m);
			out->offer = OFFER_REMATCH;
			return INPUT_SEND;
		case 'A':
		case 'X': {
			const model_offer_t *o = model_offer_to_me(m);
			if (!o && key == 'X' && m->noffers)
				o = &m->offers[0]; /* withdraw my own */
			if (!o)
				return INPUT_NOTHING;
			send_simple(out, key == 'A' ? PR_ACCEPT : PR_DECLINE, m);
			out->ident = o->id;
			return INPUT_SEND;
		}
		case 'P': {
			/* the opponent's profile; a spectator's: black's */
			const char *who = model_my_side(m) == STONE_BLACK ? m->white : m->black;
			if (!who[0])
				return INPUT_NOTHING;
			return open_profile(v, who, out);
		}
		case 'Z':
			if (model_tourney_my_game(m))
				return INPUT_NOTHING; /* a tournament's game is not aborted (443) */
			return send_simple(out, PR_ABORT, m);
		case 'C':
			return send_simple(out, PR_CLAIM, m);
		case 'B':
		case 'W':
			if (m->op) { /* an opening rule's swap: take a colour */
				if (!model_opening_mine(m) || m->op_stage != OSTAGE_WIRE_SWAP)
					return INPUT_NOTHING;
				send_simple(out, PR_OPENING_COLOUR, m);
				out->take = key == 'B' ? TAKE_BLACK : TAKE_WHITE;
				return INPUT_SEND;
			}
			send_simple(out, PR_SWAP2, m);
			out->choice = key == 'B' ? CHOICE_BLACK : CHOICE_WHITE;
			return INPUT_SEND;
		case 'S':
			return send_fifths(v, m, out);
		case 'O':
		case 'T':
			if (key == 'T' && m->over && model_tourney_room(m, m->room)) {
				/* a tournament's game ended: back to the event, the
				 * finished room left */
				v->screen = SCR_TOURNEY;
				v->tourney = m->tourney.id;
				v->tscroll = 0;
				return send_simple(out, PR_LEAVE, m);
			}
			/* Taraguchi-10's branch: one fifth move, or ten offered */
			if (!model_opening_mine(m) || m->op_stage != OSTAGE_WIRE_BRANCH)
				return INPUT_NOTHING;
			send_simple(out, PR_OPENING_BRANCH, m);
			out->branch = key == 'O' ? BRANCH_ONE : BRANCH_TEN;
			return INPUT_SEND;
		case 'Q':
			if (!m->over && model_my_side(m) != STONE_EMPTY &&
			    m->status != ROOM_WAITING)
				v->ask = ASK_LEAVE;
			else
				return send_simple(out, PR_LEAVE, m);
			return INPUT_REDRAW;
		case K_ESC:
			v->nput = 0;
			v->nfifth = 0;
			v->declare = 0;
			return INPUT_REDRAW;
		default:
			return INPUT_NOTHING;
		}
	}
	v->cx = v->cx + dx < 0 ? 0 : v->cx + dx >= n ? n - 1 : v->cx + dx;
	v->cy = v->cy + dy < 0 ? 0 : v->cy + dy >= n ? n - 1 : v->cy + dy;
	return INPUT_REDRAW;
}

static input_rc_t
list_key(view_t *v, const model_t *m, int key, int fn, proto_msg_t *out)
{
	int n = v->screen == SCR_ROOMS ? m->nrooms : m->ngames;
	if (fn && key == KEY_UP && v->list_sel > 0)
		v->list_sel--;
	else if (fn && key == KEY_DOWN && v->list_sel + 1 < n)
		v->list_sel++;
	else if (!fn && (key == K_ESC || key == 'q'))
		v->screen = SCR_LOBBY;
	else if (!fn && key == 'r' && v->screen == SCR_ROOMS) {
		proto_init(out, PR_ROOMS, NULL);
		return INPUT_SEND;
	} else if (!fn && (key == 'n' || key == 'p') && v->screen == SCR_HISTORY && m->me[0]) {
		/* pages of 20, newest first */
		int last = (int)((m->games_total + 19) / 20);
		int page = v->page + (key == 'n' ? 1 : -1);
		if (page < 1 || page > last)
			return INPUT_NOTHING;
		v->page = page;
		v->list_sel = 0;
		proto_init(out, PR_HISTORY, NULL);
		snprintf(out->user, sizeof out->user, "%s", m->me);
		out->page = page;
		return INPUT_SEND;
	} else if (((!fn && (key == K_ENTER || key == K_CR)) || (fn && key == KEY_ENTER)) &&
	    v->list_sel < n) {
		if (v->screen == SCR_ROOMS) {
			proto_init(out, PR_WATCH, NULL);
			snprintf(out->room, sizeof out->room, "%s", m->rooms[v->list_sel].room);
		} else {
			proto_init(out, PR_EXPORT, NULL);
			out->ident = m->games[v->list_sel].id;
		}
		return INPUT_SEND;
	}
	return INPUT_REDRAW;
}

/* The leaderboard: Left/Right the rule, Up/Down a player, Enter their
 * profile. */
static input_rc_t
top_key(view_t *v, const model_t *m, int key, int fn, proto_msg_t *out)
{
	if (fn && (key == KEY_LEFT || key == KEY_RIGHT)) {
		v->top_rule = (rule_t)(((int)v->top_rule + (key == KEY_LEFT ? 2 : 1)) % 3);
		v->list_sel = 0;
		return ask_top(v, out);
	}
	if (fn && key == KEY_UP && v->list_sel > 0)
		v->list_sel--;
	else if (fn && key == KEY_DOWN && v->list_sel + 1 < m->ntop)
		v->list_sel++;
	else if (!fn && (key == K_ESC || key == 'q'))
		v->screen = SCR_LOBBY;
	else if (!fn && key == 'b' && model_has_cap(m, "botaccounts")) {
		/* the people's leaderboard, or the bot accounts' own */
		v->top_bots = !v->top_bots;
		v->list_sel = 0;
		return ask_top(v, out);
	} else if (((!fn && (key == K_ENTER || key == K_CR)) || (fn && key == KEY_ENTER)) &&
	    v->list_sel < m->ntop)
		return open_profile(v, m->top[v->list_sel].user, out);
	return INPUT_REDRAW;
}

/* The mark of the position replayed now (its move is the next one):
 * the one chosen when it is there, else the first there; -1 none. */
static int
mark_here(const view_t *v, const model_t *m)
{
	if (v->mark_sel >= 0 && v->mark_sel < m->nmarks &&
	    m->marks[v->mark_sel].ply - 1 == v->replay_ply)
		return v->mark_sel;
	for (int i = 0; i < m->nmarks; i++)
		if (m->marks[i].ply - 1 == v->replay_ply)
			return i;
	return -1;
}

/* The replay: Left/Right through the game; with the engine's review
 * (`review`), r asks for it, n/p go to the next/previous mark (the
 * position before its move), ] and [ step that mark's better line on the
 * board stone by stone, and back. */
static input_rc_t
replay_key(view_t *v, const model_t *m, int key, int fn, proto_msg_t *out)
{
	int ply = v->replay_ply;
	if (fn && key == KEY_LEFT && v->replay_ply > 0)
		v->replay_ply--;
	else if (fn && key == KEY_RIGHT && v->replay_ply < v->replay.nmoves)
		v->replay_ply++;
	else if (fn && key == KEY_HOME)
		v->replay_ply = 0;
	else if (fn && key == KEY_END)
		v->replay_ply = v->replay.nmoves;
	else if (!fn && (key == K_ESC || key == 'q'))
		v->screen = SCR_HISTORY;
	else if (!fn && key == 'r') {
		if (!model_has_cap(m, "review") || !m->review_id || m->review == REVIEW_READY ||
		    m->review == REVIEW_RUNNING || m->review == REVIEW_LOADING)
			return INPUT_NOTHING;
		proto_init(out, PR_REVIEW, NULL);
		out->ident = m->review_id;
		return INPUT_SEND;
	} else if (!fn && (key == 'n' || key == 'p')) {
		if (!m->nmarks)
			return INPUT_NOTHING;
		int i = v->mark_sel;
		if (i < 0 || i >= m->nmarks)
			i = key == 'n' ? 0 : m->nmarks - 1;
		else
			i = (i + (key == 'n' ? 1 : m->nmarks - 1)) % m->nmarks;
		v->mark_sel = i;
		v->line_step = 0;
		/* the position before the marked move, within the game replayed */
		int at = m->marks[i].ply - 1;
		v->replay_ply = at < 0 ? 0 : at > v->replay.nmoves ? v->replay.nmoves : at;
		return INPUT_REDRAW;
	} else if (!fn && (key == ']' || key == '[')) {
		int i = mark_here(v, m);
		if (i < 0)
			return INPUT_NOTHING;
		if (i != v->mark_sel) {
			v->mark_sel = i;
			v->line_step = 0;
		}
		if (key == ']' && v->line_step < m->marks[i].nline)
			v->line_step++;
		else if (key == '[' && v->line_step > 0)
			v->line_step--;
		else
			return INPUT_NOTHING;
		return INPUT_REDRAW;
	}
	if (v->replay_ply != ply)
		v->line_step = 0; /* a line is shown on its own position only */
	return INPUT_REDRAW;
}

/* The board's cursor keys as a game has them, on a board of n: the
 * arrows, h j k l, a point typed (its column letter, then its row).
 * Returns 1 when key was one of them, *play set when it plays the point
 * under the cursor (Enter, space); else 0, a point being typed dropped. */
static int
cursor_key(view_t *v, int n, int key, int fn, int *play)
{
	int dx = 0, dy = 0;
	*play = 0;
	if (v->cx >= n)
		v->cx = n - 1;
	if (v->cy >= n)
		v->cy = n - 1;
	if (fn && (key == KEY_LEFT || key == KEY_RIGHT || key == KEY_UP || key == KEY_DOWN)) {
		dx = key == KEY_LEFT ? -1 : key == KEY_RIGHT ? 1 : 0;
		dy = key == KEY_UP ? -1 : key == KEY_DOWN ? 1 : 0;
		v->typed[0] = '\0';
	} else if ((fn && key == KEY_ENTER) ||
	    (!fn && (key == K_ENTER || key == K_CR || key == ' '))) {
		v->typed[0] = '\0';
		*play = 1;
		return 1;
	} else if (!fn && key >= 'a' && key < 'a' + n) {
		v->typed[0] = (char)key;
		v->typed[1] = '\0';
		dx = key == 'h' ? -1 : key == 'l' ? 1 : 0;
		dy = key == 'k' ? -1 : key == 'j' ? 1 : 0;
	} else if (!fn && key >= '0' && key <= '9' && v->typed[0] && strlen(v->typed) < 3) {
		size_t len = strlen(v->typed);
		move_t c;
		v->typed[len] = (char)key;
		v->typed[len + 1] = '\0';
		if (notation_parse(v->typed, n, &c) == 0) {
			v->cx = rules_x(c);
			v->cy = rules_y(c);
		}
		return 1;
	} else {
		v->typed[0] = '\0';
		return 0;
	}
	v->cx = v->cx + dx < 0 ? 0 : v->cx + dx >= n ? n - 1 : v->cx + dx;
	v->cy = v->cy + dy < 0 ? 0 : v->cy + dy >= n ? n - 1 : v->cy + dy;
	return 1;
}

/* SOLVE of point c, while the puzzle waits for the player's move. */
static input_rc_t
puzzle_point(const model_t *m, move_t c, proto_msg_t *out)
{
	if (m->puzzle != PUZZLE_OPEN)
		return INPUT_NOTHING;
	proto_init(out, PR_SOLVE, NULL);
	out->ident = m->puzzle_id;
	notation_format(c, m->puzzle_pos.size, out->move);
	return INPUT_SEND;
}

/* A puzzle (`puzzles`): the cursor and typed points as in a game, Enter
 * plays (SOLVE); N the next puzzle, D the day's, R this one again (a
 * retry); ] and [ step a failed puzzle's solution on its board stone by
 * stone, and back; Q, or Esc, back to the lobby. */
static input_rc_t
puzzle_key(view_t *v, const model_t *m, int key, int fn, proto_msg_t *out)
{
	char id[24];
	if (!fn && (key == 'N' || key == 'D')) {
		v->typed[0] = '\0';
		return ask_puzzle(m, key == 'N' ? "next" : "daily", out);
	}
	if (!fn && key == 'R' && m->puzzle_id) {
		v->typed[0] = '\0';
		snprintf(id, sizeof id, "%lld", (long long)m->puzzle_id);
		return ask_puzzle(m, id, out);
	}
	if (!fn && (key == 'Q' || (key == K_ESC && !v->typed[0]))) {
		v->screen = SCR_LOBBY;
		return INPUT_REDRAW;
	}
	if (!fn && (key == ']' || key == '[')) {
		if (m->puzzle != PUZZLE_FAILED)
			return INPUT_NOTHING;
		if (key == ']' && v->puzzle_step < m->puzzle_nline)
			v->puzzle_step++;
		else if (key == '[' && v->puzzle_step > 0)
			v->puzzle_step--;
		else
			return INPUT_NOTHING;
		return INPUT_REDRAW;
	}
	int play;
	if (!cursor_key(v, m->puzzle_pos.size, key, fn, &play))
		return INPUT_REDRAW; /* Esc drops a point being typed */
	if (play)
		return puzzle_point(m, rules_move(v->cx, v->cy), out);
	return INPUT_REDRAW;
}

/* A tournament request about the event opened. */
static input_rc_t
tourney_req(const view_t *v, proto_id_t id, proto_msg_t *out)
{
	proto_init(out, id, NULL);
	out->ident = v->tourney;
	return INPUT_SEND;
}

/* The tournaments' list: Up/Down, Enter opens one (TWATCH), r asks for
 * the list again, Esc back to the lobby. */
static input_rc_t
tourneys_key(view_t *v, const model_t *m, int key, int fn, proto_msg_t *out)
{
	if (fn && key == KEY_UP && v->list_sel > 0)
		v->list_sel--;
	else if (fn && key == KEY_DOWN && v->list_sel + 1 < m->ntourneys)
		v->list_sel++;
	else if (!fn && (key == K_ESC || key == 'q'))
		v->screen = SCR_LOBBY;
	else if (!fn && key == 'c') {
		v->screen = SCR_TCREATE; /* the server says who may (417, 453) */
		v->tform.sel = 0;
	} else if (!fn && key == 'r') {
		proto_init(out, PR_TLIST, NULL);
		return INPUT_SEND;
	} else if (((!fn && (key == K_ENTER || key == K_CR)) || (fn && key == KEY_ENTER)) &&
	    v->list_sel < m->ntourneys) {
		v->screen = SCR_TOURNEY;
		v->tourney = m->tourneys[v->list_sel].id;
		v->tscroll = 0;
		return tourney_req(v, PR_TWATCH, out);
	}
	return INPUT_REDRAW;
}

/* One tournament: J joins, L leaves (asks first), Enter shows your game
 * under way, Up/Down scroll the standings, Esc back to the list (no more
 * of its news unless you play in it). */
static input_rc_t
tourney_key(view_t *v, const model_t *m, int key, int fn, proto_msg_t *out)
{
	int shown = m->tourney.id && m->tourney.id == v->tourney;
	if (!fn && (key == K_ESC || key == 'q')) {
		v->screen = v->tback == SCR_LEAGUE ? SCR_LEAGUE : SCR_TOURNEYS;
		v->tback = SCR_TOURNEYS;
		if (shown && !model_tourney_in(m))
			return tourney_req(v, PR_TUNWATCH, out);
		return INPUT_REDRAW;
	}
	if (!shown)
		return INPUT_NOTHING;
	if (fn && key == KEY_UP && v->tscroll > 0)
		v->tscroll--;
	else if (fn && key == KEY_DOWN && v->tscroll + 1 < m->ntplayers)
		v->tscroll++;
	else if (!fn && (key == 'J' || key == 'j'))
		return tourney_req(v, PR_TJOIN, out);
	else if (!fn && (key == 'L' || key == 'l') && model_tourney_in(m))
		v->ask = ASK_TLEAVE;
	else if (!fn && key == 'B' && m->tourney.state < TSTATE_OVER)
		v->ask = ASK_TBOT; /* the creator's or an admin's: the server judges */
	else if (!fn && key == 'C' && m->tourney.state < TSTATE_OVER)
		v->ask = ASK_TCANCEL;
	else if ((!fn && (key == K_ENTER || key == K_CR)) || (fn && key == KEY_ENTER)) {
		/* my game under way, when it is the room the client holds */
		int i = model_tourney_mine(m);
		if (i < 0 || m->tgames[i].result != TRES_PENDING || !m->tgames[i].room[0] ||
		    !m->in_room || strcmp(m->room, m->tgames[i].room) != 0)
			return INPUT_NOTHING;
		v->screen = SCR_GAME;
	} else
		return INPUT_NOTHING;
	return INPUT_REDRAW;
}

/* The engine league: Left/Right the other leagues (LEAGUE of the one
 * chosen), Up/Down scroll its table, Enter its current or last event (the
 * tournament's page, Esc there comes back), r asks again, Esc the lobby. */
static input_rc_t
league_key(view_t *v, const model_t *m, int key, int fn, proto_msg_t *out)
{
	int i = v->league[0] ? model_league_index(m, v->league) : -1;
	int shown = m->league[0] && strcmp(m->league, v->league) == 0;
	if (!fn && (key == K_ESC || key == 'q')) {
		v->screen = SCR_LOBBY;
		return INPUT_REDRAW;
	}
	if (!fn && key == 'r') {
		proto_init(out, PR_LEAGUES, NULL);
		return INPUT_SEND;
	}
	if (fn && (key == KEY_LEFT || key == KEY_RIGHT) && m->nleagues > 1) {
		i = cycle(i < 0 ? 0 : i, m->nleagues, key == KEY_LEFT ? -1 : 1);
		snprintf(v->league, sizeof v->league, "%s", m->leagues[i].name);
		v->lscroll = 0;
		proto_init(out, PR_LEAGUE, NULL);
		snprintf(out->word, sizeof out->word, "%s", v->league);
		return INPUT_SEND;
	}
	if (fn && key == KEY_UP && v->lscroll > 0)
		v->lscroll--;
	else if (fn && key == KEY_DOWN && shown && v->lscroll + 1 < m->nlratings)
		v->lscroll++;
	else if (((!fn && (key == K_ENTER || key == K_CR)) || (fn && key == KEY_ENTER)) && i >= 0 &&
	    m->leagues[i].tourney > 0 && model_has_cap(m, "tournaments")) {
		v->screen = SCR_TOURNEY;
		v->tback = SCR_LEAGUE;
		v->tourney = m->leagues[i].tourney;
		v->tscroll = 0;
		return tourney_req(v, PR_TWATCH, out);
	} else
		return INPUT_NOTHING;
	return INPUT_REDRAW;
}

/* A key's scroll of the help: lines down (up if negative), 0 for none. */
static int
help_step(int key, int fn)
{
	if (!fn)
		return key == 'j' ? 1 : key == 'k' ? -1 : 0;
	switch (key) {
	case KEY_DOWN:
		return 1;
	case KEY_UP:
		return -1;
	case KEY_NPAGE:
		return 10;
	case KEY_PPAGE:
		return -10;
	default:
		return 0;
	}
}

input_rc_t
input_key(view_t *v, const model_t *m, int key, int fn, proto_msg_t *out)
{
	if (!fn && key == K_CTRL_L)
		return INPUT_REDRAW;
	if (v->dialog[0]) {
		if (fn && key == KEY_MOUSE)
			return INPUT_NOTHING; /* a key, not a stray click, dismisses it */
		v->dialog[0] = '\0';
		return INPUT_REDRAW;
	}
	if (v->ask) {
		ask_t a = v->ask;
		v->ask = ASK_NONE;
		if (a == ASK_TBOT) { /* a level: 1 to 9, 0 for 10 */
			if (fn || key < '0' || key > '9')
				return INPUT_REDRAW;
			tourney_req(v, PR_TBOT, out);
			out->level = key == '0' ? 10 : key - '0';
			return INPUT_SEND;
		}
		if (fn || (key != 'y' && key != 'Y'))
			return INPUT_REDRAW;
		if (a == ASK_TCANCEL)
			return tourney_req(v, PR_TCANCEL, out);
		if (a == ASK_QUIT)
			return INPUT_QUIT;
		if (a == ASK_TLEAVE)
			return tourney_req(v, PR_TLEAVE, out);
		return send_simple(out, a == ASK_RESIGN ? PR_RESIGN : PR_LEAVE, m);
	}
	if (!fn && key == K_CTRL_C) {
		v->ask = ASK_QUIT;
		return INPUT_REDRAW;
	}
	if (v->input != IN_NONE)
		return line_key(v, m, key, fn, out);
	if (!fn && (key == 'A' || key == 'X') && m->challenge_id && !model_offer_to_me(m) &&
	    (v->screen == SCR_LOBBY || m->over || !m->in_room)) {
		proto_init(out, PR_ANSWER, NULL);
		out->ident = m->challenge_id;
		out->answer = key == 'A' ? ANSWER_ACCEPT : ANSWER_DECLINE;
		return INPUT_SEND;
	}
	if (v->screen == SCR_HELP) {
		/* when it does not fit, Up/Down (j/k, PgUp/PgDn) scroll it */
		int step = help_step(key, fn);
		if (step && v->help_max > 0) {
			v->help_top += step;
			if (v->help_top > v->help_max)
				v->help_top = v->help_max;
			if (v->help_top < 0)
				v->help_top = 0;
			return INPUT_REDRAW;
		}
		v->screen = v->back;
		return INPUT_REDRAW;
	}
	if (!fn && key == '?') {
		v->back = v->screen;
		v->screen = SCR_HELP;
		v->help_top = 0;
		return INPUT_REDRAW;
	}
	switch (v->screen) {
	case SCR_LOBBY:
		return lobby_key(v, m, key, fn, out);
	case SCR_GAME:
		return game_key(v, m, key, fn, out);
	case SCR_ROOMS:
	case SCR_HISTORY:
		return list_key(v, m, key, fn, out);
	case SCR_REPLAY:
		return replay_key(v, m, key, fn, out);
	case SCR_TOP:
		return top_key(v, m, key, fn, out);
	case SCR_PUZZLE:
		return puzzle_key(v, m, key, fn, out);
	case SCR_TOURNEYS:
		return tourneys_key(v, m, key, fn, out);
	case SCR_TOURNEY:
		return tourney_key(v, m, key, fn, out);
	case SCR_TCREATE:
		return tcreate_key(v, m, key, fn, out);
	case SCR_LEAGUE:
		return league_key(v, m, key, fn, out);
	case SCR_PROFILE:
		if (!fn && (key == K_ESC || key == 'q'))
			v->screen = v->profile_back;
		return INPUT_REDRAW;
	case SCR_HELP:
		break;
	}
	return INPUT_NOTHING;
}

input_rc_t
input_click(view_t *v, const model_t *m, int y, int x, proto_msg_t *out)
{
	move_t c;
	int puzzle = v->screen == SCR_PUZZLE;
	if ((v->screen != SCR_GAME && !puzzle) || v->ask || v->input != IN_NONE || v->dialog[0] ||
	    tui_hit(puzzle ? m->puzzle_pos.size : m->pos.size, y, x, &c) != 0)
		return INPUT_NOTHING;
	v->cx = rules_x(c);
	v->cy = rules_y(c);
	return puzzle ? puzzle_point(m, c, out) : play_point(v, m, c, out);
}
