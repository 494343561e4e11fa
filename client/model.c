/*
 * model.c: the client's picture of the server, built from parsed lines.
 */
#include "client/model.h"

#include "client/i18n.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static void
copy(char *dst, size_t n, const char *src)
{
	snprintf(dst, n, "%s", src);
}
#define COPY(dst, src) copy(dst, sizeof(dst), src)

static void review_clear(model_t *m, model_review_t state);

void
model_init(model_t *m)
{
	memset(m, 0, sizeof *m);
	pos_init(&m->pos, RULE_FREESTYLE, RULES_DEFAULT_SIZE);
	m->bms = m->wms = -1;
	m->think_ply = -1;
	m->guest = -1;
	m->nobots = -1;
	m->puzzle_mine.value = -1;
	review_clear(m, REVIEW_NONE);
}

void
model_status(model_t *m, int error, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(m->status_text, sizeof m->status_text, fmt, ap);
	va_end(ap);
	m->status_error = error;
}

void
model_chat(model_t *m, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(m->chat[m->chat_total % MODEL_CHAT_MAX], MODEL_CHAT_LEN, fmt, ap);
	va_end(ap);
	m->chat_total++;
}

const char *
model_chat_line(const model_t *m, int n)
{
	if (n < 0 || n >= m->chat_total || n >= MODEL_CHAT_MAX)
		return NULL;
	return m->chat[(m->chat_total - 1 - n) % MODEL_CHAT_MAX];
}

/* The review held forgets its evals and marks; state says what is known. */
static void
review_clear(model_t *m, model_review_t state)
{
	m->review = state;
	m->review_done = m->review_total = 0;
	m->review_plies = 0;
	m->nevals = 0;
	m->nmarks = 0;
	for (int i = 0; i < MODEL_EVALS_MAX; i++)
		m->evals[i] = -1;
}

void
model_sent(model_t *m, proto_id_t req)
{
	if (m->npending < MODEL_PENDING_MAX)
		m->pending[m->npending++] = req;
	if (req == PR_ROOMS)
		m->nrooms = 0;
	else if (req == PR_WHO)
		m->users_fresh = 1; /* the old list shows until the new one comes */
	else if (req == PR_SEEKS)
		m->seeks_fresh = 1;
	else if (req == PR_HISTORY)
		m->ngames = 0;
	else if (req == PR_STATS)
		m->nstats = 0, m->stats_ready = 0;
	else if (req == PR_TOP || req == PR_TOPBOTS)
		m->ntop = 0, m->top_ready = 0;
	else if (req == PR_EXPORT)
		m->record_len = 0, m->record[0] = '\0', m->record_ready = 0;
	else if (req == PR_MARKS && m->review_id)
		review_clear(m, REVIEW_LOADING);
	else if (req == PR_TLIST)
		m->tlist_fresh = 1, m->tlist_ready = 0; /* the old list shows until the new one */
	else if (req == PR_LEAGUES)
		m->leagues_fresh = 1; /* the old list and table show until the new ones */
	else if (req == PR_LEAGUE)
		m->lratings_fresh = 1, m->league_refused = 0;
}

void
model_puzzle_sent(model_t *m, const proto_msg_t *req)
{
	if (req->id == PR_PUZZLE) {
		COPY(m->puzzle_ask, req->word);
	} else if (req->id == PR_SOLVE && req->ident == m->puzzle_id && m->puzzle == PUZZLE_OPEN) {
		/* the reply does not repeat it: kept to be placed then */
		COPY(m->puzzle_try, req->move);
		m->puzzle = PUZZLE_JUDGING;
		model_status(m, 0, TR("model.puzzle_judging", "%s: the solvers are judging it..."),
		    req->move);
	}
}

void
model_disconnected(model_t *m)
{
	if (m->puzzle == PUZZLE_JUDGING) /* its judgement went with the connection */
		m->puzzle = PUZZLE_OPEN;
	m->npending = 0;
	m->snapshot = 0;
	m->hello_done = 0;
}

static proto_id_t
pending_head(const model_t *m)
{
	return m->npending ? m->pending[0] : PM_NONE;
}

static void
pending_pop(model_t *m)
{
	if (m->npending) {
		memmove(
		    m->pending, m->pending + 1, (size_t)(m->npending - 1) * sizeof m->pending[0]);
		m->npending--;
	}
}

int64_t
model_clock(const model_t *m, stone_t side, int64_t now_ms)
{
	int64_t ms = side == STONE_BLACK ? m->bms : m->wms;
	if (ms < 0)
		return -1;
	if (m->in_room && model_turn(m) == side) {
		ms -= now_ms - m->clock_at;
		if (ms < 0)
			ms = 0;
	}
	return ms;
}

stone_t
model_turn(const model_t *m)
{
	if (!m->in_room || m->over || m->swap2 || m->status != ROOM_PLAYING)
		return STONE_EMPTY;
	return pos_to_move(&m->pos);
}

stone_t
model_my_side(const model_t *m)
{
	if (!m->in_room || !m->me[0])
		return STONE_EMPTY;
	if (strcmp(m->me, m->black) == 0)
		return STONE_BLACK;
	if (strcmp(m->me, m->white) == 0)
		return STONE_WHITE;
	return STONE_EMPTY;
}

void
model_score_text(const model_t *m, int32_t score, int ply, char *buf, size_t len)
{
	stone_t mover = ply % 2 ? STONE_WHITE : STONE_BLACK;
	stone_t side = model_my_side(m) != STONE_EMPTY ? model_my_side(m) : mover;
	int32_t s = side == mover ? score : -score;
	int32_t a = s < 0 ? -s : s;
	if (a >= PROTO_SCORE_WIN - 1000) {
		int plies = PROTO_SCORE_WIN - a;
		stone_t winner = s > 0 ? side : (side == STONE_BLACK ? STONE_WHITE : STONE_BLACK);
		/* a win in n plies by the side to move is (n + 1) / 2 of its moves */
		int moves = winner == mover ? plies / 2 + 1 : (plies + 1) / 2;
		snprintf(buf, len, TR("web.score.win", "%s wins in %d moves"),
		    i18n_colour(winner == STONE_BLACK ? COLOUR_BLACK : COLOUR_WHITE),
		    moves < 1 ? 1 : moves);
		return;
	}
	char v[16];
	snprintf(v, sizeof v, "%+.1f", s / 100.0);
	snprintf(buf, len, TR("web.score", "%s %s"),
	    i18n_colour(side == STONE_BLACK ? COLOUR_BLACK : COLOUR_WHITE), v);
}

int
model_percent(int permille)
{
	if (permille <= 0)
		return 0;
	if (permille >= PROTO_CHANCE_MAX)
		return 100;
	/* rounded, but only a proven result is 0 or 100 */
	int p = (permille + 5) / 10;
	return p < 1 ? 1 : p > 99 ? 99 : p;
}

void
model_chance_text(int permille, char *buf, size_t len)
{
	if (permille < 0)
		snprintf(buf, len, "%s", "");
	else if (permille >= PROTO_CHANCE_MAX)
		snprintf(buf, len, "%s", TR("review.forced_black", "Black has a forced win"));
	else if (permille == 0)
		snprintf(buf, len, "%s", TR("review.forced_white", "White has a forced win"));
	else
		snprintf(buf, len, TR("review.chance", "Black's win chance: %d%%"),
		    model_percent(permille));
}

/* The engine's reason word for a better move, said of side ("white wins
 * by fours"). */
static void
mark_reason(const char *word, const char *side, char *buf, size_t len)
{
	static const struct {
		const char *word, *key, *en;
	} reasons[] = {
		{ "five", NTR("mark.reason.five", "%s makes five") },
		{ "open-four", NTR("mark.reason.open-four", "%s makes an open four") },
		{ "four-three", NTR("mark.reason.four-three", "%s makes a four-three") },
		{ "vcf", NTR("mark.reason.vcf", "%s wins by fours") },
		{ "vct", NTR("mark.reason.vct", "%s wins by threats") },
		{ "block-five", NTR("mark.reason.block-five", "%s blocks the four") },
		{ "block-open-three",
		    NTR("mark.reason.block-open-three", "%s answers the open three") },
		{ "positional", NTR("mark.reason.positional", "%s plays for position") },
	};
	for (size_t i = 0; i < sizeof reasons / sizeof reasons[0]; i++)
		if (strcmp(reasons[i].word, word) == 0) {
			snprintf(buf, len, i18n_tr(reasons[i].key, reasons[i].en), side);
			return;
		}
	snprintf(buf, len, TR("mark.reason.other", "%s plays the engine's move"), side);
}

void
model_mark_text(const model_mark_t *mk, const char *arrow, char *buf, size_t len)
{
	static const char *const kinds[][2] = {
		{ NTR("mark.kind.missed-win", "missed win") },
		{ NTR("mark.kind.blunder", "blunder") },
		{ NTR("mark.kind.turning", "turning point") },
	};
	const char *side = i18n_colour(mk->side == SIDE_WHITE ? COLOUR_WHITE : COLOUR_BLACK);
	const char *kind = (unsigned)mk->kind < 3 ? i18n_tr(kinds[mk->kind][0], kinds[mk->kind][1])
						  : "?";
	char change[64], head[256], why[160], line[PROTO_LIST_MAX * (PROTO_MOVE_MAX + 1) + 1];
	snprintf(change, sizeof change, "%d%% %s %d%%", model_percent(mk->before), arrow,
	    model_percent(mk->after));
	snprintf(head, sizeof head, TR("mark.head", "Move %d, %s: %s (%s)"), mk->ply, side, kind,
	    change);
	if (!mk->better[0]) {
		snprintf(buf, len, "%s", head);
		return;
	}
	mark_reason(mk->reason, side, why, sizeof why);
	size_t n = 0;
	line[0] = '\0';
	for (int i = 0; i < mk->nline && n + PROTO_MOVE_MAX + 2 < sizeof line; i++)
		n += (size_t)snprintf(line + n, sizeof line - n, "%s%s", i ? " " : "", mk->line[i]);
	int same = strcmp(mk->better, mk->played) == 0; /* the engine would have played it too */
	if (same && mk->nline > 1)
		snprintf(buf, len, TR("mark.same_line", "%s. The engine agrees: %s: %s"), head, why,
		    line);
	else if (same)
		snprintf(buf, len, TR("mark.same", "%s. The engine agrees: %s"), head, why);
	else if (mk->nline > 1)
		snprintf(buf, len, TR("mark.better_line", "%s. Better %s: %s: %s"), head,
		    mk->better, why, line);
	else
		snprintf(buf, len, TR("mark.better", "%s. Better %s: %s"), head, mk->better, why);
}

int
model_graph_column(int n, int ncols, int p)
{
	if (n <= 0 || ncols <= 0 || p < 0 || p >= n)
		return -1;
	/* column c covers the positions [c * n / ncols, (c + 1) * n / ncols) */
	int c = (int)((int64_t)p * ncols / n);
	while (c > 0 && (int64_t)c * n / ncols > p)
		c--;
	while (c + 1 < ncols && (int64_t)(c + 1) * n / ncols <= p)
		c++;
	return c;
}

int
model_graph(const int16_t *evals, int n, int width, signed char *levels)
{
	if (n <= 0 || width <= 0)
		return 0;
	int ncols = n < width ? n : width;
	for (int c = 0; c < ncols; c++) {
		int from = (int)((int64_t)c * n / ncols), to = (int)((int64_t)(c + 1) * n / ncols);
		long sum = 0;
		int known = 0;
		for (int p = from; p < to; p++)
			if (evals[p] >= 0) {
				sum += evals[p];
				known++;
			}
		/* 0..1000 onto eight heights, rounded: 0 and 1000 the ends */
		levels[c] = known ? (signed char)((sum * 7 + known * 500L) / (known * 1000L)) : -1;
	}
	return ncols;
}

int
model_has_cap(const model_t *m, const char *cap)
{
	size_t n = strlen(cap);
	for (const char *p = m->caps; (p = strstr(p, cap)) != NULL; p += n)
		if ((p == m->caps || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
			return 1;
	return 0;
}

int
model_engines(const model_t *m, char names[][PROTO_ENGINE_MAX + 1], int max)
{
	const char *p = m->caps;
	int n = 0;
	while ((p = strstr(p, "engines=")) && (p != m->caps && p[-1] != ' '))
		p += 8;
	if (!p)
		return 0;
	for (p += 8; *p && *p != ' ' && n < max;) {
		size_t len = strcspn(p, ", ");
		int ok = len >= 1 && len <= PROTO_ENGINE_MAX && p[0] >= 'a' && p[0] <= 'z';
		for (size_t i = 0; ok && i < len; i++)
			ok = (p[i] >= 'a' && p[i] <= 'z') || (p[i] >= '0' && p[i] <= '9');
		if (ok) {
			memcpy(names[n], p, len);
			names[n++][len] = '\0';
		}
		p += len + (p[len] == ',');
	}
	return n;
}

long
model_cap_value(const model_t *m, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = m->caps; (p = strstr(p, name)) != NULL; p += n)
		if ((p == m->caps || p[-1] == ' ') && p[n] == '=')
			return strtol(p + n + 1, NULL, 10);
	return 0;
}

int
model_is_win_cell(const model_t *m, move_t mv)
{
	for (int i = 0; i < m->ncells; i++)
		if (m->cells[i] == mv)
			return 1;
	return 0;
}

int
model_cand_rank(const model_t *m, move_t mv)
{
	if (m->think_ply != m->pos.nmoves || m->over)
		return 0;
	for (int i = 0; i < m->ncands; i++)
		if (m->cands[i] == mv)
			return i + 1;
	return 0;
}

const model_offer_t *
model_offer_to_me(const model_t *m)
{
	for (int i = 0; i < m->noffers; i++)
		if (strcmp(m->offers[i].from, m->me) != 0)
			return &m->offers[i];
	return NULL;
}

/* The opening stage ended (* COLOURS, the end, a new game); the renju
 * opening's name stays for the game. */
static void
opening_clear(model_t *m)
{
	m->op = 0;
	m->op_user[0] = '\0';
	m->op_count = 0;
	m->op_nfifths = 0;
	m->op_area = OAREA_WIRE_NONE;
}

/* * OPENING or = OPENING: the stage, who acts, where, the offers. */
static void
opening_set(model_t *m, const proto_msg_t *x)
{
	m->op = 1;
	m->op_stage = x->ostage;
	COPY(m->op_user, x->user);
	m->op_side = x->side;
	m->op_area = x->oarea;
	m->op_count = (int)x->count;
	if (x->canon != PROTO_CANON_NONE)
		m->op_canon = x->canon;
	m->op_nfifths = 0;
	for (int i = 0; i < x->nmoves && m->op_nfifths < MODEL_FIFTHS_MAX; i++) {
		move_t c;
		if (notation_parse(x->moves[i], m->pos.size, &c) == 0)
			m->op_fifths[m->op_nfifths++] = c;
	}
}

int
model_opening_mine(const model_t *m)
{
	return m->in_room && m->op && !m->over && m->me[0] && strcmp(m->op_user, m->me) == 0;
}

int
model_is_fifth(const model_t *m, move_t mv)
{
	if (!m->in_room || !m->op)
		return 0;
	for (int i = 0; i < m->op_nfifths; i++)
		if (m->op_fifths[i] == mv)
			return 1;
	return 0;
}

int
model_in_area(const model_t *m, move_t mv)
{
	if (!m->in_room || !m->op || m->over || mv < 0 || mv >= RULES_CELLS ||
	    rules_x(mv) >= m->pos.size || rules_y(mv) >= m->pos.size ||
	    m->pos.cell[mv] != STONE_EMPTY)
		return 0;
	/* the squares about the centre point, as the token names them */
	int c = m->pos.size / 2, dx = abs(rules_x(mv) - c), dy = abs(rules_y(mv) - c);
	int d = dx > dy ? dx : dy;
	switch (m->op_area) {
	case OAREA_WIRE_ANY:
		return 1;
	case OAREA_WIRE_CENTRE:
		return d == 0;
	case OAREA_WIRE_IN3:
		return d <= 1;
	case OAREA_WIRE_IN5:
		return d <= 2;
	case OAREA_WIRE_IN7:
		return d <= 3;
	case OAREA_WIRE_IN9:
		return d <= 4;
	case OAREA_WIRE_OUT5:
		return d > 2;
	case OAREA_WIRE_OUT7:
		return d > 3;
	case OAREA_WIRE_OFFERS:
		return model_is_fifth(m, mv);
	default:
		return 0;
	}
}

void
model_opening_text(const model_t *m, char *buf, size_t len)
{
	if (!len)
		return;
	buf[0] = '\0';
	if (!m->in_room || !m->op || m->over)
		return;
	int mine = model_opening_mine(m);
	const char *rule = i18n_opening(m->opening);
	const char *who = m->op_user[0] ? m->op_user : "?";
	const char *holds = i18n_colour(m->op_side == SIDE_WHITE ? COLOUR_WHITE : COLOUR_BLACK);
	const char *next = i18n_colour(
	    pos_to_move(&m->pos) == STONE_WHITE ? COLOUR_WHITE : COLOUR_BLACK);
	const char *where = i18n_oarea(m->op_area);
	char what[MODEL_STATUS_LEN];
	switch (m->op_stage) {
	case OSTAGE_WIRE_PLACE:
		if (mine)
			snprintf(what, sizeof what,
			    TR("op.place_you", "%s: place the next stone (%s) %s, then Enter"),
			    rule, next, where);
		else
			snprintf(what, sizeof what,
			    TR("op.place", "%s: %s places the next stone (%s) %s"), rule, who, next,
			    where);
		break;
	case OSTAGE_WIRE_SWAP:
		if (mine)
			snprintf(what, sizeof what,
			    TR("op.swap_you", "%s: you hold %s now; B takes black, W takes white"),
			    rule, holds);
		else
			snprintf(what, sizeof what,
			    TR("op.swap", "%s: %s (holding %s now) chooses a colour"), rule, who,
			    holds);
		break;
	case OSTAGE_WIRE_DECLARE:
		if (mine)
			snprintf(what, sizeof what,
			    TR("op.declare_you",
				"%s: how many fifth moves will black offer (1 to %d)? Type it, "
				"Enter sends"),
			    rule, m->op_count);
		else
			snprintf(what, sizeof what,
			    TR("op.declare", "%s: %s declares how many fifth moves black offers"),
			    rule, who);
		break;
	case OSTAGE_WIRE_OFFER:
		if (mine)
			snprintf(what, sizeof what,
			    TR("op.offer_you",
				"%s: offer %d fifth moves; Enter marks or unmarks a point, S sends "
				"them, Esc clears"),
			    rule, m->op_count);
		else
			snprintf(what, sizeof what, TR("op.offer", "%s: %s offers %d fifth moves"),
			    rule, who, m->op_count);
		break;
	case OSTAGE_WIRE_CHOOSE:
		if (mine)
			snprintf(what, sizeof what,
			    TR("op.choose_you",
				"%s: choose one of the %d offered fifth moves (marked 5), then "
				"Enter"),
			    rule, m->op_nfifths);
		else
			snprintf(what, sizeof what,
			    TR("op.choose", "%s: %s chooses one of the %d offered fifth moves"),
			    rule, who, m->op_nfifths);
		break;
	case OSTAGE_WIRE_BRANCH:
		if (mine)
			snprintf(what, sizeof what,
			    TR("op.branch_you",
				"%s: O for one (you place the 5th in the central 9x9), T for ten "
				"(you offer ten fifth moves)"),
			    rule);
		else
			snprintf(what, sizeof what,
			    TR("op.branch", "%s: %s chooses the branch, one or ten"), rule, who);
		break;
	default:
		snprintf(what, sizeof what, TR("op.other", "%s: %s to act"), rule, who);
		break;
	}
	if (m->op_canon != PROTO_CANON_NONE) {
		char name[64];
		snprintf(buf, len, TR("op.with_canon", "%s [%s]"), what,
		    i18n_canon(m->op_canon, name, sizeof name));
	} else {
		snprintf(buf, len, "%s", what);
	}
}

static void
set_clocks(model_t *m, int64_t b, int64_t w, int64_t now)
{
	m->bms = b;
	m->wms = w;
	m->clock_at = now;
}

/* A fresh game in room r: empty board, no result, no offers. */
static void
new_game(model_t *m, const char *room, rule_t rule, int size)
{
	if (strcmp(room, m->room) != 0)
		m->chat_total = 0;
	COPY(m->room, room);
	m->in_room = 1;
	if (pos_init(&m->pos, rule, size) != 0)
		pos_init(&m->pos, RULE_FREESTYLE, RULES_DEFAULT_SIZE);
	m->over = 0;
	m->ncells = 0;
	m->noffers = m->nlapsed = 0;
	m->undo_by[0] = '\0';
	m->swap2 = 0;
	opening_clear(m);
	m->op_canon = PROTO_CANON_NONE;
	m->think_ply = -1;
	m->ncands = 0;
	m->reason_text[0] = '\0';
	m->gone[0] = m->gone[1] = 0;
}

/* Places a move the server announced. -1 when it cannot be on our board. */
static int
place(model_t *m, const char *mv, int side)
{
	move_t c;
	if (notation_parse(mv, m->pos.size, &c) != 0 || m->pos.cell[c] != STONE_EMPTY)
		return -1;
	if (side >= 0 && (stone_t)(side + 1) != pos_to_move(&m->pos))
		return -1;
	pos_place(&m->pos, c);
	return 0;
}

/* Offers a move, an undo or the end of the game cleared: their OFFEREND
 * comes after, and names them by id alone. */
static void
clear_offers(model_t *m)
{
	memcpy(m->lapsed, m->offers, sizeof m->offers);
	m->nlapsed = m->noffers;
	m->noffers = 0;
}

static void
set_result(model_t *m, proto_result_t res, proto_reason_t why, int n,
    const char (*cells)[PROTO_MOVE_MAX + 1])
{
	m->over = 1;
	m->status = ROOM_OVER;
	opening_clear(m);
	m->result = res;
	m->reason = why;
	m->ncells = 0;
	clear_offers(m);
	for (int i = 0; i < n && m->ncells < RULES_MAX_SIZE; i++) {
		move_t c;
		if (notation_parse(cells[i], m->pos.size, &c) == 0)
			m->cells[m->ncells++] = c;
	}
}

static void
offer_add(model_t *m, int64_t id, proto_offer_t kind, const char *from)
{
	if (m->noffers == MODEL_OFFERS_MAX) { /* drop the oldest */
		memmove(m->offers, m->offers + 1, sizeof m->offers[0] * (MODEL_OFFERS_MAX - 1));
		m->noffers--;
	}
	model_offer_t *o = &m->offers[m->noffers++];
	o->id = id;
	o->kind = kind;
	COPY(o->from, from);
}

static void
offer_del(model_t *m, int64_t id)
{
	for (int i = 0; i < m->noffers; i++)
		if (m->offers[i].id == id) {
			memmove(&m->offers[i], &m->offers[i + 1],
			    sizeof m->offers[0] * (size_t)(m->noffers - i - 1));
			m->noffers--;
			return;
		}
}

/* The last offer's fate, in the chat as a notice. */
static void __attribute__((format(printf, 2, 3))) fate(model_t *m, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(m->fate, sizeof m->fate, fmt, ap);
	va_end(ap);
	model_chat(m, "* %s", m->fate);
}

/* * OFFEREND: who answered the offer, and how, in words (the same as the
 * web board's, words.js offerFate). An accepted undo is said with its
 * count when its UNDO comes. */
static void
offer_ended(model_t *m, int64_t id, proto_end_t end)
{
	model_offer_t o;
	int found = 0;
	for (int i = 0; i < m->noffers && !found; i++)
		if (m->offers[i].id == id)
			o = m->offers[i], found = 1;
	for (int i = 0; i < m->nlapsed && !found; i++)
		if (m->lapsed[i].id == id)
			o = m->lapsed[i], found = 1;
	offer_del(m, id);
	if (!found) { /* from before what we saw: the id is all there is */
		model_chat(
		    m, TR("model.offer_end", "* Offer %lld %s"), (long long)id, i18n_end(end));
		return;
	}
	/* the answer is the other player's; a withdrawal or expiry the offerer's */
	const char *other = strcmp(o.from, m->black) == 0 ? m->white : m->black;
	const char *what = i18n_offer(o.kind);
	switch (end) {
	case END_ACCEPTED:
		if (o.kind == OFFER_UNDO)
			COPY(m->undo_by, other);
		else
			fate(m, TR("fate.accepted", "%s accepted the %s"), other, what);
		break;
	case END_DECLINED:
		fate(m, TR("fate.declined", "%s declined the %s"), other, what);
		break;
	case END_WITHDRAWN:
		fate(m, TR("fate.withdrawn", "%s's %s offer was withdrawn"), o.from, what);
		break;
	case END_EXPIRED:
	default:
		fate(m, TR("fate.expired", "%s's %s offer expired"), o.from, what);
		break;
	}
}

/* A snapshot's kept chat after what the chat pane shows: the lines it
 * already has (a resync in the same run) are not said twice. The longest
 * run of its newest said lines that starts the kept ones is skipped. */
static void
merge_kept(model_t *m)
{
	const char *said[MODEL_CHAT_MAX];
	int n = 0;
	for (int i = m->chat_total < MODEL_CHAT_MAX ? m->chat_total : MODEL_CHAT_MAX; i-- > 0;) {
		const char *l = model_chat_line(m, i);
		if (l && l[0] != '*' && l[0] != '[') /* a player's line, not a notice */
			said[n++] = l;
	}
	int j = n < m->nkept ? n : m->nkept;
	for (; j > 0; j--) {
		int k = 0;
		while (k < j && strcmp(said[n - j + k], m->kept[k]) == 0)
			k++;
		if (k == j)
			break;
	}
	for (int k = j; k < m->nkept; k++)
		model_chat(m, "%s", m->kept[k]);
	m->nkept = 0;
}

static void
describe_result(model_t *m)
{
	const char *who = m->result == RES_BLACK ? m->black : m->white;
	if (m->result == RES_DRAW)
		model_status(
		    m, 0, TR("model.over_draw", "Game over: draw (%s)"), i18n_reason(m->reason));
	else if (m->result == RES_NONE)
		model_status(m, 0, TR("model.over_none", "Game over: no result (%s)"),
		    i18n_reason(m->reason));
	else
		model_status(m, 0, TR("model.over_win", "Game over: %s (%s) wins by %s"),
		    who[0] ? who : "?", i18n_result(m->result), i18n_reason(m->reason));
	model_chat(m, "* %s", m->status_text);
}

/* Both players' ratings as a RATINGS line says them (`ratings`): 0 for
 * one who has none ("-"). */
static void
set_ratings(model_t *m, const proto_msg_t *x)
{
	for (int s = 0; s < 2; s++) {
		m->rating[s] = x->ratings[s].value > 0 ? (int)x->ratings[s].value : 0;
		m->provisional[s] = m->rating[s] && x->ratings[s].provisional;
		m->rating_before[s] = 0;
	}
}

int
model_is_bot(const model_t *m, const char *name)
{
	for (int i = 0; i < m->nbots; i++)
		if (strcasecmp(m->bots[i], name) == 0)
			return 1;
	return 0;
}

/* The server's word on whether name is a bot. */
static void
bot_mark(model_t *m, const char *name, int bot)
{
	if (!name[0] || strcmp(name, "-") == 0)
		return;
	for (int i = 0; i < m->nbots; i++)
		if (strcasecmp(m->bots[i], name) == 0) {
			if (!bot) { /* the last one takes its place */
				memmove(m->bots[i], m->bots[m->nbots - 1], sizeof m->bots[i]);
				m->nbots--;
				m->bots_next = 0;
			}
			return;
		}
	if (!bot)
		return;
	if (m->nbots < MODEL_BOTS_MAX) {
		COPY(m->bots[m->nbots], name);
		m->nbots++;
		return;
	}
	COPY(m->bots[m->bots_next], name);
	m->bots_next = (m->bots_next + 1) % MODEL_BOTS_MAX;
}

/* A KINDS line's word on both players (the event, or a snapshot's). */
static void
kinds_mark(model_t *m, const proto_msg_t *x)
{
	bot_mark(m, x->user, x->kind == FALLBACK_BOT);
	bot_mark(m, x->user2, x->kind2 == FALLBACK_BOT);
}

/* Data lines of a snapshot (STATE, WATCH, RESUME). */
static model_rc_t
apply_snapshot(model_t *m, const proto_msg_t *x, int64_t now)
{
	if (x->id == PD_ROOM) {
		new_game(m, x->room, x->rule, x->size);
		m->snapshot = 1;
		m->nkept = 0;
		m->status = x->status;
		m->tc_base = x->tc_base;
		m->tc_inc = x->tc_inc;
		m->opening = x->opening;
		m->rated = x->rated;
		COPY(m->black, x->user);
		COPY(m->white, x->user2);
		m->spectators = x->count;
		return MODEL_OK;
	}
	if (x->id == PD_SEEK && pending_head(m) == PR_RESUME) {
		/* RESUME <token> -: the seek the session kept while away (the
		 * server sends only the session's own) */
		m->seek_id = x->ident;
		model_status(m, 0, "%s", TR("model.seeking", "Seeking an opponent..."));
		return MODEL_OK;
	}
	if (!m->snapshot || strcmp(x->room, m->room) != 0)
		return MODEL_RESYNC;
	switch (x->id) {
	case PD_CODE: /* a private room's code, shown with it again */
		COPY(m->invite, x->code);
		break;
	case PD_CLOCK:
		set_clocks(m, x->bms, x->wms, now);
		break;
	case PD_SEAT:
		if (x->side != SIDE_NONE) {
			m->gone[x->side] = x->presence == PRES_GONE;
			m->gone_until[x->side] = now + x->ms;
			if (x->side == SIDE_BLACK)
				COPY(m->black, x->user);
			else
				COPY(m->white, x->user);
		}
		break;
	case PD_RATINGS:
		set_ratings(m, x);
		break;
	case PD_KINDS:
		kinds_mark(m, x);
		break;
	case PD_MOVES:
		if (x->depth != m->pos.nmoves)
			return MODEL_RESYNC;
		for (int i = 0; i < x->nmoves; i++)
			if (place(m, x->moves[i], -1) != 0)
				return MODEL_RESYNC;
		break;
	case PD_SWAP2:
		m->swap2 = 1;
		m->swap2_stage = x->stage;
		COPY(m->swap2_user, x->user);
		break;
	case PD_OPENING:
		opening_set(m, x);
		break;
	case PD_OFFER:
		offer_add(m, x->ident, x->offer, x->user);
		break;
	case PD_RESULT:
		set_result(m, x->result, x->reason, x->nmoves, x->moves);
		break;
	case PD_SAY: /* said into the chat once the snapshot is whole */
		if (m->nkept < MODEL_KEPT_MAX)
			snprintf(m->kept[m->nkept++], MODEL_CHAT_LEN, "%s: %s", x->user, x->text);
		break;
	default:
		break;
	}
	return MODEL_OK;
}

/* --- tournaments (`tournaments`, PROTOCOL.md 5.21) --- */

/* src cut to at most n - 1 bytes, never inside a UTF-8 character. */
static void
copy_cut(char *dst, size_t n, const char *src)
{
	size_t len = strlen(src);
	if (len >= n) {
		len = n - 1;
		while (len > 0 && ((unsigned char)src[len] & 0xC0) == 0x80)
			len--;
	}
	memcpy(dst, src, len);
	dst[len] = '\0';
}

/* A = TOURNEY or * TOURNEY line as kept. */
static void
tourney_from(model_tourney_t *t, const proto_msg_t *x)
{
	t->id = x->ident;
	t->kind = x->tkind;
	t->state = x->tstate;
	t->rule = x->rule;
	t->size = x->size;
	t->tc_base = x->tc_base;
	t->tc_inc = x->tc_inc;
	t->opening = x->opening;
	t->rated = x->rated;
	t->entrants = x->entrants;
	t->start = x->when;
	t->length = (int)x->count;
	t->round = (int)x->round;
	t->rounds = (int)x->rounds;
	t->players = (int)x->count2;
	COPY(t->creator, x->user);
	copy_cut(t->name, sizeof t->name, x->text);
}

static void
tplayer_from(model_tplayer_t *p, const proto_msg_t *x)
{
	p->rank = (int)x->rank;
	COPY(p->user, x->user);
	p->rating = (int)x->ratings[0].value;
	p->points = (int)x->points;
	p->ntb = x->nvals < MODEL_TIEBREAKS_MAX ? x->nvals : MODEL_TIEBREAKS_MAX;
	for (int i = 0; i < p->ntb; i++)
		p->tb[i] = x->vals[i];
	p->played = (int)x->played;
	p->status = x->tstatus;
	p->streak = (int)x->streak;
}

static void
tgame_from(model_tgame_t *g, const proto_msg_t *x)
{
	g->round = (int)x->round;
	g->board = (int)x->count;
	COPY(g->room, x->room);
	COPY(g->first, x->user);
	COPY(g->second, x->user2);
	g->result = x->tresult;
}

/* The event shown: its snapshot starts (= TOURNEY of a TWATCH). */
static void
tourney_open(model_t *m, const proto_msg_t *x)
{
	tourney_from(&m->tourney, x);
	m->tourney_ready = 0;
	m->tourney_resync = 0;
	m->ntplayers = 0;
	m->ntgames = 0;
}

/* Standing i moved: back into rank order, after those of its rank. */
static void
tplayer_sort(model_t *m, int i)
{
	model_tplayer_t p = m->tplayers[i];
	memmove(&m->tplayers[i], &m->tplayers[i + 1],
	    (size_t)(m->ntplayers - i - 1) * sizeof m->tplayers[0]);
	m->ntplayers--;
	int at = m->ntplayers;
	while (at > 0 && m->tplayers[at - 1].rank > p.rank)
		at--;
	memmove(&m->tplayers[at + 1], &m->tplayers[at],
	    (size_t)(m->ntplayers - at) * sizeof m->tplayers[0]);
	m->tplayers[at] = p;
	m->ntplayers++;
}

/* A player's line, new or changed (* TPLAYER): a new rank puts it after
 * the others of that rank; the lowest ranked goes when the table is
 * full. */
static void
tplayer_put(model_t *m, const proto_msg_t *x)
{
	int i = model_tourney_player(m, x->user);
	if (i >= 0 && m->tplayers[i].rank == x->rank) {
		tplayer_from(&m->tplayers[i], x); /* in its place among its equals */
		return;
	}
	if (i < 0) {
		if (m->ntplayers == MODEL_TPLAYERS_MAX) {
			if (m->tplayers[m->ntplayers - 1].rank <= x->rank)
				return;
			m->ntplayers--;
		}
		i = m->ntplayers++;
	}
	tplayer_from(&m->tplayers[i], x);
	tplayer_sort(m, i);
}

/* A pairing, new or with its room or result (* TGAME). A Swiss's or a
 * round robin's new round replaces the last one's; an arena keeps its
 * games, the oldest finished going when the list is full. */
static void
tgame_put(model_t *m, const proto_msg_t *x)
{
	int i, arena = m->tourney.kind == TKIND_ARENA;
	for (i = 0; i < m->ntgames; i++)
		if (m->tgames[i].round == x->round && m->tgames[i].board == x->count)
			break;
	if (i == m->ntgames) {
		if (!arena) {
			for (int k = 0; k < m->ntgames; k++)
				if (m->tgames[k].round > x->round)
					return; /* an older round's, late */
			if (m->ntgames && m->tgames[0].round < x->round)
				m->ntgames = 0;
		}
		if (m->ntgames == MODEL_TGAMES_MAX) {
			int old = 0;
			for (int k = 0; k < m->ntgames; k++)
				if (m->tgames[k].result != TRES_PENDING) {
					old = k;
					break;
				}
			memmove(&m->tgames[old], &m->tgames[old + 1],
			    (size_t)(m->ntgames - old - 1) * sizeof m->tgames[0]);
			m->ntgames--;
		}
		i = m->ntgames++;
		if (!arena) /* in board order */
			for (; i > 0 && m->tgames[i - 1].board > x->count; i--)
				m->tgames[i] = m->tgames[i - 1];
	}
	tgame_from(&m->tgames[i], x);
}

/* The name to say for an event: its own, else its kind's. */
static const char *
tourney_title(const model_tourney_t *t)
{
	return t->name[0] ? t->name : i18n_tkind(t->kind);
}

/* * START of a game of the event followed (its first player black, its
 * second white, not started yet): the pairing's room is this one (its *
 * TGAME says so next), and the chat says which pairing it is. */
static void
tourney_started(model_t *m, const proto_msg_t *x)
{
	for (int i = m->ntgames; m->tourney.id && i-- > 0;) {
		model_tgame_t *g = &m->tgames[i];
		if (g->result != TRES_PENDING || strcasecmp(g->first, x->user) != 0 ||
		    strcasecmp(g->second, x->user2) != 0 ||
		    (g->room[0] && strcmp(g->room, x->room)))
			continue;
		COPY(g->room, x->room);
		if (m->tourney.kind == TKIND_ARENA) /* its rounds are pairing waves */
			model_chat(m, TR("model.tourney_arena_game", "* %s: your next game"),
			    tourney_title(&m->tourney));
		else
			model_chat(m, TR("model.tourney_game", "* %s, round %d, board %d"),
			    tourney_title(&m->tourney), g->round, g->board);
		return;
	}
}

/* * TOURNEY: the list's line, and the event shown; a change of state
 * said on the status line. */
static void
tourney_event(model_t *m, const proto_msg_t *x)
{
	/* the event of the league shown ended: its table is asked again */
	int lg = m->league[0] ? model_league_index(m, m->league) : -1;
	if (x->tstate == TSTATE_OVER && lg >= 0 && m->leagues[lg].tourney == x->ident)
		m->league_stale = 1;
	for (int i = 0; i < m->ntourneys; i++)
		if (m->tourneys[i].id == x->ident)
			tourney_from(&m->tourneys[i], x);
	if (!m->tourney.id || x->ident != m->tourney.id)
		return;
	proto_tstate_t was = m->tourney.state;
	tourney_from(&m->tourney, x);
	if (x->tstate == TSTATE_SOON && m->tourney.players < m->ntplayers)
		m->tourney_resync = 1; /* someone left before the start: who? */
	if (was == x->tstate)
		return;
	const char *name = tourney_title(&m->tourney);
	if (x->tstate == TSTATE_RUNNING)
		model_status(m, 0, TR("model.tourney_started", "%s has started"), name);
	else if (x->tstate == TSTATE_OVER)
		model_status(m, 0, TR("model.tourney_over", "%s is over"), name);
	else if (x->tstate == TSTATE_CANCELLED)
		model_status(m, 0, TR("model.tourney_cancelled", "%s was cancelled"), name);
}

/* A LEAGUE line as kept. */
static void
league_from(model_league_t *l, const proto_msg_t *x)
{
	COPY(l->name, x->word);
	l->rule = x->rule;
	l->size = x->size;
	l->tc_base = x->tc_base;
	l->tc_inc = x->tc_inc;
	l->players = (int)x->count;
	l->games = (int)x->count2;
	l->tourney = x->ident > 0 ? x->ident : -1;
	l->next = x->when >= 0 ? x->when : -1;
}

int
model_league_index(const model_t *m, const char *name)
{
	for (int i = 0; i < m->nleagues; i++)
		if (strcmp(m->leagues[i].name, name) == 0)
			return i;
	return -1;
}

void
model_elo_text(int elo, char *buf, size_t len)
{
	snprintf(buf, len, elo > 0 ? "+%d" : "%d", elo);
}

void
model_elo_bar(int minus, int plus, int ascii, char *buf, size_t len)
{
	if (minus == plus)
		snprintf(buf, len, "%s%d", ascii ? "+-" : "\xc2\xb1", plus);
	else
		snprintf(buf, len, "+%d/-%d", plus, minus);
}

int
model_tourney_rounds(const model_tourney_t *t)
{
	return t->kind == TKIND_ARENA ? 0 : t->rounds; /* the server's count */
}

/* n in units of 1/den (2 or 4) as a decimal: "2", "2.5", "6.25". */
static void
fraction(int n, int den, char *buf, size_t len)
{
	int neg = n < 0, a = neg ? -n : n;
	int whole = a / den, part = a % den * (100 / den);
	if (part == 0)
		snprintf(buf, len, "%s%d", neg ? "-" : "", whole);
	else if (part % 10 == 0)
		snprintf(buf, len, "%s%d.%d", neg ? "-" : "", whole, part / 10);
	else
		snprintf(buf, len, "%s%d.%02d", neg ? "-" : "", whole, part);
}

void
model_tourney_points(proto_tkind_t kind, int points, char *buf, size_t len)
{
	if (kind == TKIND_ARENA)
		snprintf(buf, len, "%d", points);
	else
		fraction(points, 2, buf, len);
}

void
model_tourney_tiebreak(proto_tkind_t kind, int i, int value, char *buf, size_t len)
{
	if ((kind == TKIND_SWISS && i == 3) || (kind == TKIND_ROBIN && i == 0))
		fraction(value, 4, buf, len); /* Sonneborn-Berger */
	else if (kind == TKIND_SWISS)
		fraction(value, 2, buf, len); /* the Buchholz family */
	else
		snprintf(buf, len, "%d", value); /* wins; an arena's rating */
}

const char *
model_tourney_tiebreak_name(proto_tkind_t kind, int i)
{
	static const char *const swiss[][2] = { { NTR("tb.bh1", "BH-1") }, { NTR("tb.bh", "BH") },
		{ NTR("tb.mbh", "BH-med") }, { NTR("tb.sb", "SB") } };
	static const char *const robin[][2] = { { NTR("tb.sb", "SB") },
		{ NTR("tb.wins", "Wins") } };
	static const char *const arena[][2] = { { NTR("tb.rating", "Rating") } };
	if (kind == TKIND_SWISS && i >= 0 && i < 4)
		return i18n_tr(swiss[i][0], swiss[i][1]);
	if (kind == TKIND_ROBIN && i >= 0 && i < 2)
		return i18n_tr(robin[i][0], robin[i][1]);
	if (kind == TKIND_ARENA && i == 0)
		return i18n_tr(arena[0][0], arena[0][1]);
	return NULL;
}

void
model_tourney_rank(const model_t *m, int i, char *buf, size_t len)
{
	int shared = 0;
	if (i < 0 || i >= m->ntplayers) {
		snprintf(buf, len, "-");
		return;
	}
	for (int k = 0; k < m->ntplayers; k++)
		shared |= k != i && m->tplayers[k].rank == m->tplayers[i].rank;
	snprintf(buf, len, "%d%s", m->tplayers[i].rank, shared ? "=" : "");
}

int
model_tourney_player(const model_t *m, const char *name)
{
	for (int i = 0; i < m->ntplayers; i++)
		if (strcasecmp(m->tplayers[i].user, name) == 0)
			return i;
	return -1;
}

int
model_tourney_in(const model_t *m)
{
	int i = m->me[0] ? model_tourney_player(m, m->me) : -1;
	return i >= 0 && m->tplayers[i].status != TSTATUS_WITHDRAWN;
}

int
model_tourney_mine(const model_t *m)
{
	if (!m->me[0])
		return -1;
	for (int i = m->ntgames; i-- > 0;)
		if (strcasecmp(m->tgames[i].first, m->me) == 0 ||
		    (m->tgames[i].second[0] && strcasecmp(m->tgames[i].second, m->me) == 0))
			return i;
	return -1;
}

int
model_tourney_room(const model_t *m, const char *room)
{
	if (!m->tourney.id || !room[0])
		return 0;
	for (int i = 0; i < m->ntgames; i++)
		if (strcmp(m->tgames[i].room, room) == 0)
			return 1;
	return 0;
}

int
model_tourney_my_game(const model_t *m)
{
	if (!m->tourney.id || !m->in_room || !m->room[0] || !m->me[0])
		return 0;
	for (int i = 0; i < m->ntgames; i++)
		if (strcmp(m->tgames[i].room, m->room) == 0 &&
		    (strcasecmp(m->tgames[i].first, m->me) == 0 ||
			strcasecmp(m->tgames[i].second, m->me) == 0))
			return 1;
	return 0;
}

/* Seconds as a countdown: "4:05", "1:02:03", "2d 03:04". */
static void
duration(int64_t s, char *buf, size_t len)
{
	if (s < 0)
		s = 0;
	if (s >= 86400)
		snprintf(buf, len, TR("tourney.days", "%dd %02d:%02d"), (int)(s / 86400),
		    (int)(s / 3600 % 24), (int)(s / 60 % 60));
	else if (s >= 3600)
		snprintf(
		    buf, len, "%d:%02d:%02d", (int)(s / 3600), (int)(s / 60 % 60), (int)(s % 60));
	else
		snprintf(buf, len, "%d:%02d", (int)(s / 60), (int)(s % 60));
}

void
model_tourney_when(const model_tourney_t *t, int64_t now, char *buf, size_t len)
{
	char d[32];
	buf[0] = '\0';
	if (t->state == TSTATE_SOON) {
		if (t->start <= now) {
			snprintf(buf, len, "%s", TR("tourney.starting", "starting now"));
			return;
		}
		duration(t->start - now, d, sizeof d);
		snprintf(buf, len, TR("tourney.starts_in", "starts in %s"), d);
	} else if (t->state == TSTATE_RUNNING && t->kind == TKIND_ARENA) {
		int64_t end = t->start + (int64_t)t->length * 60;
		if (end <= now) {
			snprintf(buf, len, "%s", TR("tourney.ending", "last games"));
			return;
		}
		duration(end - now, d, sizeof d);
		snprintf(buf, len, TR("tourney.left", "%s left"), d);
	}
}

void
model_tourney_state_text(const model_tourney_t *t, int64_t now, char *buf, size_t len)
{
	int n = model_tourney_rounds(t);
	if (t->state == TSTATE_SOON || (t->state == TSTATE_RUNNING && t->kind == TKIND_ARENA))
		model_tourney_when(t, now, buf, len);
	else if (t->state == TSTATE_RUNNING && n > 0 && t->round > 0)
		snprintf(buf, len, TR("tourney.round_of", "round %d of %d"), t->round, n);
	else
		snprintf(buf, len, "%s", i18n_tstate(t->state));
}

void
model_tgame_text(const model_tgame_t *g, char *buf, size_t len)
{
	switch (g->result) {
	case TRES_PENDING:
		snprintf(buf, len, "%s",
		    g->room[0] ? TR("tresult.playing", "playing")
			       : TR("tresult.starting", "about to start"));
		break;
	case TRES_FIRST:
	case TRES_SECOND:
		snprintf(buf, len, TR("tresult.won", "%s won"),
		    g->result == TRES_FIRST ? g->first : g->second);
		break;
	case TRES_DRAW:
		snprintf(buf, len, "%s", TR("tresult.draw", "draw"));
		break;
	case TRES_FIRST_FORFEIT:
	case TRES_SECOND_FORFEIT:
		snprintf(buf, len, TR("tresult.forfeit", "%s forfeited"),
		    g->result == TRES_FIRST_FORFEIT ? g->first : g->second);
		break;
	case TRES_BOTH_FORFEIT:
		snprintf(buf, len, "%s", TR("tresult.both_forfeit", "both forfeited"));
		break;
	case TRES_BYE:
		snprintf(buf, len, "%s", TR("tresult.bye", "bye"));
		break;
	}
}

/* My result in pairing g, in words: "you won against bob". */
static void
my_result(const model_t *m, const model_tgame_t *g, char *buf, size_t len)
{
	int first = strcasecmp(g->first, m->me) == 0;
	const char *opp = first ? g->second : g->first;
	int won = (g->result == TRES_FIRST || g->result == TRES_SECOND_FORFEIT) ? first
	    : (g->result == TRES_SECOND || g->result == TRES_FIRST_FORFEIT)     ? !first
										: -1;
	int forfeit = g->result == TRES_FIRST_FORFEIT || g->result == TRES_SECOND_FORFEIT;
	if (g->result == TRES_DRAW)
		snprintf(buf, len, TR("tourney.you_drew", "a draw with %s"), opp);
	else if (g->result == TRES_BOTH_FORFEIT)
		snprintf(buf, len,
		    TR("tourney.you_both_forfeit", "neither you nor %s came: a loss"), opp);
	else if (won == 1 && forfeit)
		snprintf(buf, len, TR("tourney.you_won_forfeit", "you won: %s forfeited"), opp);
	else if (won == 1)
		snprintf(buf, len, TR("tourney.you_won", "you won against %s"), opp);
	else if (forfeit)
		snprintf(
		    buf, len, TR("tourney.you_lost_forfeit", "you lost by forfeit to %s"), opp);
	else
		snprintf(buf, len, TR("tourney.you_lost", "you lost to %s"), opp);
}

void
model_tourney_next_text(const model_t *m, int64_t now, char *buf, size_t len)
{
	const model_tourney_t *t = &m->tourney;
	int me = m->me[0] ? model_tourney_player(m, m->me) : -1;
	int open = t->state == TSTATE_SOON ||
	    (t->state == TSTATE_RUNNING && t->kind == TKIND_ARENA &&
		t->start + (int64_t)t->length * 60 > now);
	char res[200];
	buf[0] = '\0';
	if (!t->id)
		return;
	if (t->state == TSTATE_CANCELLED) {
		snprintf(buf, len, "%s", TR("tourney.next_cancelled", "It was cancelled."));
	} else if (t->state == TSTATE_OVER) {
		if (me >= 0) {
			char r[16];
			model_tourney_rank(m, me, r, sizeof r);
			snprintf(buf, len,
			    TR("tourney.next_over", "It is over: you finished %s of %d."), r,
			    m->ntplayers);
		} else
			snprintf(buf, len, "%s", TR("tourney.next_over_out", "It is over."));
	} else if (me < 0) {
		snprintf(buf, len, "%s",
		    open ? TR("tourney.next_out", "You are not in it: J joins.")
			 : TR("tourney.next_closed",
			       "You are not in it; it takes no new players now."));
	} else if (m->tplayers[me].status == TSTATUS_WITHDRAWN) {
		snprintf(buf, len, "%s",
		    t->kind == TKIND_ARENA && open
			? TR("tourney.next_left_arena", "You left it: J joins again.")
			: TR("tourney.next_left", "You left it: you are paired no more."));
	} else if (t->state == TSTATE_SOON) {
		snprintf(buf, len, "%s",
		    t->kind == TKIND_ARENA
			? TR("tourney.next_soon_arena",
			      "You are in: you are paired as it starts. L leaves.")
			: TR("tourney.next_soon",
			      "You are in: round 1 is paired as it starts. L leaves."));
	} else {
		int i = model_tourney_mine(m);
		const model_tgame_t *g = i >= 0 ? &m->tgames[i] : NULL;
		if (!g || (t->kind == TKIND_ARENA && g->result != TRES_PENDING)) {
			if (g) {
				my_result(m, g, res, sizeof res);
				snprintf(buf, len,
				    TR("tourney.next_arena_after",
					"Your last game: %s. Waiting for your next opponent..."),
				    res);
			} else {
				snprintf(buf, len, "%s",
				    TR("tourney.next_wait", "Waiting for your pairing..."));
			}
		} else if (g->result == TRES_BYE) {
			snprintf(buf, len,
			    TR("tourney.next_bye",
				"Round %d: you have the bye (a win without a game)."),
			    g->round);
		} else if (g->result == TRES_PENDING) {
			int first = strcasecmp(g->first, m->me) == 0;
			const char *colour = i18n_colour(first ? COLOUR_BLACK : COLOUR_WHITE);
			snprintf(buf, len,
			    g->room[0]
				? TR("tourney.next_playing",
				      "Round %d: you (%s) against %s, under way. Enter shows it.")
				: TR("tourney.next_pairing",
				      "Round %d: you (%s) against %s; the game starts now."),
			    g->round, colour, first ? g->second : g->first);
		} else {
			my_result(m, g, res, sizeof res);
			int n = model_tourney_rounds(t);
			if (n > 0 && g->round >= n)
				snprintf(buf, len,
				    TR("tourney.next_done_last",
					"Round %d: %s. That was the last round."),
				    g->round, res);
			else
				snprintf(buf, len,
				    TR("tourney.next_done",
					"Round %d: %s. The next round is paired when this one "
					"ends."),
				    g->round, res);
		}
	}
}

static void stat_into(model_stat_t *s, const proto_msg_t *x);

static model_rc_t
apply_data(model_t *m, const proto_msg_t *x, int64_t now)
{
	proto_id_t head = pending_head(m);
	switch (head) {
	case PR_STATE:
	case PR_WATCH:
	case PR_RESUME:
		return apply_snapshot(m, x, now);
	case PR_ROOMS:
		if (x->id == PD_ROOM && m->nrooms < MODEL_ROOMS_MAX) {
			model_room_t *r = &m->rooms[m->nrooms++];
			COPY(r->room, x->room);
			r->status = x->status;
			r->rule = x->rule;
			r->size = x->size;
			r->tc_base = x->tc_base;
			r->tc_inc = x->tc_inc;
			COPY(r->black, x->user);
			COPY(r->white, x->user2);
			r->spectators = x->count;
			r->nmoves = x->count2;
		}
		return MODEL_OK;
	case PR_WHO:
		if (x->id == PD_BOT) /* the next = USER lines are a bot's */
			bot_mark(m, x->user, 1);
		if (x->id == PD_USER) {
			if (m->users_fresh)
				m->nusers = m->users_fresh = 0;
			if (m->nusers < MODEL_LOBBY_MAX) {
				COPY(m->users[m->nusers].name, x->user);
				m->users[m->nusers++].state = x->ustate;
			}
		}
		return MODEL_OK;
	case PR_SEEKS:
		if (x->id == PD_SEEK) {
			if (m->seeks_fresh)
				m->nseeks = m->seeks_fresh = 0;
			if (m->nseeks < MODEL_LOBBY_MAX) {
				m->seeks[m->nseeks].id = x->ident;
				COPY(m->seeks[m->nseeks].user, x->user);
				m->seeks[m->nseeks].rule = x->rule;
				m->seeks[m->nseeks].size = x->size;
				m->seeks[m->nseeks].tc_base = x->tc_base;
				m->seeks[m->nseeks++].tc_inc = x->tc_inc;
			}
		}
		return MODEL_OK;
	case PR_HISTORY:
		if (x->id == PD_GAME && m->ngames < MODEL_GAMES_MAX) {
			model_game_t *g = &m->games[m->ngames++];
			g->id = x->ident;
			g->rule = x->rule;
			g->size = x->size;
			COPY(g->black, x->user);
			COPY(g->white, x->user2);
			g->result = x->result;
			g->reason = x->reason;
			g->plies = (int)x->depth;
		}
		return MODEL_OK;
	case PR_SETTINGS:
		if (x->id == PD_SET && strcmp(x->word, "bot-challenges") == 0)
			m->nobots = strcmp(x->word2, "no") == 0;
		return MODEL_OK;
	case PR_TOP:
	case PR_TOPBOTS: /* the bot accounts' own: each one a bot */
		if (x->id == PD_STAT && m->ntop < MODEL_TOP_MAX) {
			stat_into(&m->top[m->ntop++], x);
			if (head == PR_TOPBOTS)
				bot_mark(m, x->user, 1);
		}
		return MODEL_OK;
	case PR_STATS:
		if (x->id == PD_BOT) /* a bot account's STATS says so first */
			bot_mark(m, x->user, 1);
		if (x->id == PD_STAT && m->nstats < MODEL_STATS_MAX)
			stat_into(&m->stats[m->nstats++], x);
		if (x->id == PD_STAT && m->in_room && x->rule == (rule_t)m->pos.rule)
			for (int s = 0; s < 2; s++)
				if (strcmp(x->user, s ? m->white : m->black) == 0) {
					m->rating[s] = (int)x->rating;
					m->provisional[s] = x->provisional == RATING_PROVISIONAL;
					if (m->over && m->rating_before[s])
						model_chat(m,
						    TR("model.rating",
							"* %s's rating: %d -> %d (%+d)"),
						    x->user, m->rating_before[s], m->rating[s],
						    m->rating[s] - m->rating_before[s]);
				}
		return MODEL_OK;
	case PR_MARKS:
		if (x->ident != m->review_id)
			return MODEL_OK; /* another game's: not the one replayed */
		if (x->id == PD_EVAL) {
			for (int i = 0; i < x->nvals; i++) {
				int64_t at = x->depth + i;
				if (at < 0 || at >= MODEL_EVALS_MAX)
					break;
				m->evals[at] = x->vals[i];
				if (at + 1 > m->nevals)
					m->nevals = (int)at + 1;
			}
		} else if (x->id == PD_MARK && m->nmarks < MODEL_MARKS_MAX) {
			model_mark_t *k = &m->marks[m->nmarks++];
			k->kind = x->mark;
			k->side = x->side;
			k->ply = (int)x->plies;
			COPY(k->played, x->move);
			COPY(k->better, x->move2);
			k->before = (int)x->before;
			k->after = (int)x->after;
			COPY(k->reason, x->word);
			k->nline = 0;
			for (int i = 0; i < x->nmoves && i < PROTO_LIST_MAX; i++)
				COPY(k->line[k->nline++], x->moves[i]);
		}
		return MODEL_OK;
	case PR_TLIST:
		if (x->id == PD_TOURNEY) {
			if (m->tlist_fresh)
				m->ntourneys = m->tlist_fresh = 0;
			if (m->ntourneys < MODEL_TOURNEYS_MAX)
				tourney_from(&m->tourneys[m->ntourneys++], x);
		}
		return MODEL_OK;
	case PR_LEAGUES:
		if (x->id == PD_LEAGUE) {
			if (m->leagues_fresh)
				m->nleagues = m->leagues_fresh = 0;
			if (m->nleagues < MODEL_LEAGUES_MAX)
				league_from(&m->leagues[m->nleagues++], x);
		}
		return MODEL_OK;
	case PR_LEAGUE:
		/* its table, best first: every player a bot (an engine, a bot
		 * account) */
		if (x->id == PD_LRATING) {
			if (m->lratings_fresh) {
				m->nlratings = m->lratings_fresh = 0;
				COPY(m->league, x->word);
			}
			if (strcmp(m->league, x->word) == 0 && m->nlratings < MODEL_LRATINGS_MAX) {
				model_lrating_t *r = &m->lratings[m->nlratings++];
				r->rank = (int)x->rank;
				COPY(r->player, x->user);
				r->elo = (int)x->elo;
				r->minus = (int)x->after;
				r->plus = (int)x->after2;
				r->games = (int)x->played;
				r->points = (int)x->points;
				r->draws = (int)x->draws;
				bot_mark(m, x->user, 1);
			}
		}
		return MODEL_OK;
	case PR_TWATCH:
		/* the event's line, its standings best first, its pairings */
		if (x->id == PD_TOURNEY)
			tourney_open(m, x);
		else if (x->id == PD_TPLAYER && x->ident == m->tourney.id &&
		    m->ntplayers < MODEL_TPLAYERS_MAX)
			tplayer_from(&m->tplayers[m->ntplayers++], x);
		else if (x->id == PD_TGAME && x->ident == m->tourney.id)
			tgame_put(m, x);
		return MODEL_OK;
	case PR_EXPORT:
		if (x->id == PD_RECORD) {
			size_t n = strlen(x->text);
			if (m->record_len + n + 2 < sizeof m->record) {
				memcpy(m->record + m->record_len, x->text, n);
				m->record_len += n;
				m->record[m->record_len++] = '\n';
				m->record[m->record_len] = '\0';
			}
		}
		return MODEL_OK;
	default:
		/* A data line that answers nothing we asked: ignore it. */
		return MODEL_OK;
	}
}

/* A STAT line as kept for a profile or the leaderboard. */
static void
stat_into(model_stat_t *s, const proto_msg_t *x)
{
	COPY(s->user, x->user);
	s->rule = x->rule;
	s->rating = (int)x->rating;
	s->provisional = x->provisional == RATING_PROVISIONAL;
	s->wins = (int)x->wins;
	s->losses = (int)x->losses;
	s->draws = (int)x->draws;
}

/* Places mv (notation) on the puzzle's board; 0, or -1 when it is not
 * an empty point of it. */
static int
puzzle_place(model_t *m, const char *mv)
{
	move_t c;
	if (notation_parse(mv, m->puzzle_pos.size, &c) != 0 || m->puzzle_pos.cell[c] != STONE_EMPTY)
		return -1;
	pos_place(&m->puzzle_pos, c);
	return 0;
}

stone_t
model_puzzle_side(const model_t *m)
{
	return m->puzzle_start % 2 ? STONE_WHITE : STONE_BLACK;
}

static const char *
side_word(stone_t s)
{
	return i18n_colour(s == STONE_WHITE ? COLOUR_WHITE : COLOUR_BLACK);
}

/* OK PUZZLE: the puzzle opened, from its position; the same id again is
 * a retry. */
static void
puzzle_open(model_t *m, const proto_msg_t *x)
{
	position_t p;
	if (pos_init(&p, x->rule, x->size) != 0)
		return;
	for (int i = 0; i < x->nmoves; i++) {
		move_t c;
		if (notation_parse(x->moves[i], p.size, &c) != 0 || p.cell[c] != STONE_EMPTY) {
			model_status(m, 1, "%s",
			    TR("model.puzzle_unreadable",
				"The server sent a puzzle that cannot be read"));
			return;
		}
		pos_place(&p, c);
	}
	int again = m->puzzle != PUZZLE_NONE && m->puzzle_id == x->ident;
	m->puzzle = PUZZLE_OPEN;
	m->puzzle_id = x->ident;
	m->puzzle_class = x->pclass;
	m->puzzle_plies = (int)x->depth;
	m->puzzle_rating = (int)x->rating;
	m->puzzle_pos = p;
	m->puzzle_start = p.nmoves;
	m->puzzle_try[0] = '\0';
	m->puzzle_mine.value = -1;
	m->puzzle_mine.provisional = 0;
	m->puzzle_before = 0;
	m->puzzle_nline = 0;
	model_status(m, 0,
	    again ? TR("model.puzzle_again", "Puzzle %lld again: %s to move and win")
		  : TR("model.puzzle_open", "Puzzle %lld: %s to move and win"),
	    (long long)x->ident, side_word(model_puzzle_side(m)));
}

/* OK SOLVE: the move judged; the reply placed, or the end with the
 * rating after it (and, failed, the kept solution). */
static void
puzzle_solve(model_t *m, const proto_msg_t *x)
{
	if (x->ident != m->puzzle_id || m->puzzle != PUZZLE_JUDGING)
		return;
	char mv[PROTO_MOVE_MAX + 1];
	COPY(mv, m->puzzle_try);
	m->puzzle_try[0] = '\0';
	puzzle_place(m, mv);
	if (x->solve == SOLVE_MORE) {
		puzzle_place(m, x->move2);
		m->puzzle = PUZZLE_OPEN;
		model_status(m, 0,
		    TR("model.puzzle_more", "%s holds; the defence answers %s. Your move"), mv,
		    x->move2);
		return;
	}
	m->puzzle = x->solve == SOLVE_SOLVED ? PUZZLE_SOLVED : PUZZLE_FAILED;
	m->puzzle_mine = x->ratings[0];
	m->puzzle_before = 0;
	if (x->ratings[0].value >= 0) {
		m->puzzle_before = m->puzzle_known;
		m->puzzle_known = (int)x->ratings[0].value;
	}
	m->puzzle_nline = 0;
	for (int i = 0; x->solve == SOLVE_FAILED && i < x->nmoves && i < PROTO_LIST_MAX; i++)
		COPY(m->puzzle_line[m->puzzle_nline++], x->moves[i]);
	if (m->puzzle == PUZZLE_SOLVED)
		model_status(m, 0, TR("model.puzzle_solved", "Solved: %s makes five!"), mv);
	else if (m->puzzle_class == PCLASS_VCF)
		model_status(m, 1,
		    TR("model.puzzle_failed_vcf",
			"Failed: after %s the win by fours is gone (each move must be a four); ] "
			"steps the solution"),
		    mv);
	else
		model_status(m, 1,
		    TR("model.puzzle_failed",
			"Failed: after %s the win is gone; ] steps the solution"),
		    mv);
}

void
model_puzzle_rating_text(const model_t *m, char *buf, size_t len)
{
	if (m->puzzle != PUZZLE_SOLVED && m->puzzle != PUZZLE_FAILED) {
		snprintf(buf, len, "%s", "");
		return;
	}
	if (m->puzzle_mine.value >= 0 && m->puzzle_before > 0) {
		/* "~": still provisional, as the game ratings show it */
		snprintf(buf, len, TR("puzzle.rating_change", "Your puzzle rating: %s%lld (%+d)"),
		    m->puzzle_mine.provisional ? "~" : "", (long long)m->puzzle_mine.value,
		    (int)m->puzzle_mine.value - m->puzzle_before);
	} else if (m->puzzle_mine.value >= 0) {
		snprintf(buf, len, TR("puzzle.rating", "Your puzzle rating: %s%lld"),
		    m->puzzle_mine.provisional ? "~" : "", (long long)m->puzzle_mine.value);
	} else if (m->guest == 1) {
		snprintf(buf, len, "%s",
		    TR("puzzle.unrated_guest",
			"Not rated: a guest has no puzzle rating (an account has one)"));
	} else if (m->guest == 0) {
		snprintf(buf, len, "%s",
		    TR("puzzle.unrated_again",
			"Not rated: you had tried this puzzle before; only a first try is rated"));
	} else {
		snprintf(buf, len, "%s",
		    TR("puzzle.unrated", "Not rated: only an account's first try of a puzzle is"));
	}
}

/* The catalog's sentence for code (i18n.c has one for every code). */
const char *
model_error_text(proto_id_t req, int code)
{
	if (req == PR_LOGIN && code == ERR_NAME_TAKEN)
		return TR("model.err.login_412", "A guest uses that account's name right now");
	if (req == PR_REVIEW || req == PR_MARKS) {
		/* the review's own words for the codes it shares with ANALYSE */
		if (code == ERR_IN_GAME)
			return TR("model.err.review_452",
			    "No review while you play a game, nor of a game not finished");
		if (code == ERR_OVER_LIMIT)
			return TR("model.err.review_453",
			    "You have used this hour's reviews; try again later");
		if (code == ERR_ARGUMENT)
			return TR("model.err.review_402",
			    "The server has no finished game of that number");
		if (code == ERR_SERVER_BUSY)
			return TR("model.err.review_506",
			    "The engine is reviewing as many games as it can; try again shortly");
	}
	if (req == PR_PUZZLE || req == PR_SOLVE) {
		/* the puzzles' own words (PROTOCOL.md 5.20's table) */
		if (code == ERR_ARGUMENT)
			return TR("model.err.puzzle_402", "There is no puzzle of that number");
		if (code == ERR_NO_PUZZLE)
			return TR("model.err.puzzle_456",
			    "No puzzle yet: puzzles are made from the missed wins of reviewed "
			    "public "
			    "games");
		if (code == ERR_PHASE)
			return TR("model.err.puzzle_441",
			    "That puzzle is not open on this connection any more; R opens it "
			    "again");
		if (code == ERR_IN_GAME)
			return TR("model.err.puzzle_452",
			    "No puzzles while you play a game; finish it first");
		if (code == ERR_SERVER_BUSY)
			return TR(
			    "model.err.puzzle_506", "The solvers are all busy; try again shortly");
	}
	if (req == PR_TCREATE) {
		/* PROTOCOL.md 5.21's table: who may create, and what */
		if (code == ERR_ACCOUNT_ONLY)
			return TR("model.err.tcreate_417",
			    "Only accounts create tournaments: register or log in");
		if (code == ERR_ARGUMENT)
			return TR("model.err.tcreate_402",
			    "That tournament cannot be made: it needs a clock, a start from 5 "
			    "seconds to a week, a length in range and a name of at most 120 bytes");
		if (code == ERR_OVER_LIMIT)
			return TR("model.err.tcreate_453",
			    "You have as many tournaments not yet over as you may");
	}
	if (req == PR_TBOT) {
		if (code == ERR_NOT_ADMIN)
			return TR("model.err.tbot_416", "Only its creator or an admin adds bots");
		if (code == ERR_NOT_ELIGIBLE)
			return TR("model.err.tbot_459", "This tournament is for people: no bots");
		if (code == ERR_TOURNEY_CLOSED)
			return TR("model.err.tbot_458",
			    "No bot now: it started, is over or full, or has that level");
	}
	if (req == PR_TCANCEL) {
		if (code == ERR_NOT_ADMIN)
			return TR(
			    "model.err.tcancel_416", "Only its creator or an admin cancels it");
		if (code == ERR_TOURNEY_CLOSED)
			return TR("model.err.tcancel_458",
			    "Too late to cancel: it has started (only an admin may cancel it now) "
			    "or it is over");
	}
	if (req == PR_TJOIN || req == PR_TLEAVE || req == PR_TWATCH) {
		/* the tournaments' own words (PROTOCOL.md 5.21's table) */
		if (code == ERR_TOURNEY_CLOSED)
			return req == PR_TJOIN
			    ? TR("model.err.tjoin_458",
				  "Too late to join: it has started, it is over or it is full")
			    : TR("model.err.tleave_458", "It is over: there is nothing to leave");
		if (code == ERR_NOT_ELIGIBLE)
			return TR("model.err.tjoin_459",
			    "Not open to you: a rated tournament takes accounts, a bots' one no "
			    "people");
		if (code == ERR_NOT_PLAYER)
			return TR("model.err.tleave_430", "You are not playing in it");
		if (code == ERR_ACCOUNT_ONLY)
			return TR("model.err.tjoin_417",
			    "A rated tournament needs an account: register or log in");
	}
	if (code == ERR_OUTSIDE_AREA && req >= PR_OPENING_PLACE && req <= PR_OPENING_BRANCH)
		return TR("model.err.opening_437",
		    "Not there: this stage of the opening allows only the shaded points");
	return i18n_error(code);
}

/* The status line for an error reply to head. */
static void
describe_error(model_t *m, proto_id_t head, const proto_msg_t *x, int64_t now)
{
	const char *text = model_error_text(head, (int)x->ecode);
	int opp = model_my_side(m) == STONE_BLACK ? 1 : 0;
	if (x->ecode == ERR_NO_CLAIM && m->in_room && m->gone[opp] && m->gone_until[opp] > now)
		model_status(m, 1,
		    TR("model.claim_in", "You can claim the game in %llds, when %s's grace ends"),
		    (long long)(m->gone_until[opp] - now + 999) / 1000, opp ? m->white : m->black);
	else if (text)
		/* the server's words add the detail (which name, which rule) */
		model_status(
		    m, 1, "%s%s%s%s", text, x->text[0] ? " (" : "", x->text, x->text[0] ? ")" : "");
	else /* not reached: every code has a sentence */
		model_status(m, 1, "%lld %s%s%s", (long long)x->ecode, x->word,
		    x->text[0] ? ": " : "", x->text);
}

static model_rc_t
apply_reply(model_t *m, const proto_msg_t *x, int64_t now)
{
	proto_id_t head = pending_head(m);
	pending_pop(m);
	if (head == PR_STATS)
		m->stats_ready = 1; /* an ERR too: a name without ratings (421) */
	if (head == PR_TOP || head == PR_TOPBOTS)
		m->top_ready = 1;
	if (x->id == PX_ERR) {
		if (head == PR_LEAGUE) /* the table shown stays; the status says why */
			m->league_refused = 1, m->lratings_fresh = 0;
		if (head == PR_STATS)
			return MODEL_OK; /* ratings are optional: no error shown */
		if (head == PR_STATE || head == PR_WATCH || head == PR_RESUME)
			m->snapshot = 0;
		if (head == PR_MARKS && x->ecode == ERR_NOT_REVIEWED) {
			/* no review yet: not a fault, a hint */
			review_clear(m, REVIEW_ABSENT);
			model_status(m, 0, "%s",
			    TR("model.review_absent",
				"This game has not been reviewed yet; r asks the engine for a "
				"review"));
			return MODEL_OK;
		}
		if (head == PR_MARKS)
			review_clear(m, REVIEW_REFUSED);
		if (head == PR_SOLVE && m->puzzle == PUZZLE_JUDGING) {
			/* the move refused (432-436): the same position, the player's move
			 * again; 441: the server has no such puzzle open for us */
			m->puzzle = x->ecode == ERR_PHASE ? PUZZLE_GONE : PUZZLE_OPEN;
			m->puzzle_try[0] = '\0';
		}
		if (head == PR_PUZZLE && x->ecode == ERR_NO_PUZZLE &&
		    strcmp(m->puzzle_ask, "next") == 0) {
			model_status(m, 1, "%s",
			    TR("model.err.puzzle_456_next",
				"No puzzle left for you: you have tried every one, or none has "
				"been "
				"made yet"));
			return MODEL_OK;
		}
		describe_error(m, head, x, now);
		if (proto_err_fatal((int)x->ecode))
			return MODEL_FATAL;
		return MODEL_OK;
	}
	switch (x->id) {
	case PO_HELLO:
		m->hello_done = 1;
		break;
	case PO_GUEST:
	case PO_LOGIN:
	case PO_REGISTER:
	case PO_AUTH:
		/* an account now: a guest this connection was went, its seek too */
		if (x->id != PO_GUEST)
			m->seek_id = 0;
		m->guest = x->id == PO_GUEST;
		m->nobots = -1; /* this name's: asked again */
		COPY(m->me, x->user);
		COPY(m->token, x->token);
		model_status(m, 0, TR("model.signed_in", "Signed in as %s"), m->me);
		break;
	case PO_LOGOUT:
		m->me[0] = m->token[0] = '\0';
		m->nobots = -1;
		break;
	case PO_SET: /* as the server keeps it now (PROTOCOL.md 5.22) */
		if (strcmp(x->word, "bot-challenges") == 0) {
			m->nobots = strcmp(x->word2, "no") == 0;
			model_status(m, 0, "%s",
			    m->nobots ? TR("model.nobots", "Challenges from bots are refused now")
				      : TR("model.bots", "Challenges from bots reach you now"));
		}
		break;
	case PO_SEEK:
		if (m->seek_started) {
			m->seek_started = 0; /* already paired */
			break;
		}
		m->seek_id = x->ident;
		m->seek_since = now;
		model_status(m, 0, "%s", TR("model.seeking", "Seeking an opponent..."));
		break;
	case PO_CANCEL:
		m->seek_id = 0;
		model_status(m, 0, "%s", TR("model.seek_cancelled", "Seek cancelled"));
		break;
	case PO_CREATE:
		COPY(m->invite, x->code);
		if (!m->in_room || strcmp(m->room, x->room) != 0) {
			new_game(m, x->room, m->pos.rule, m->pos.size);
			m->status = ROOM_WAITING;
			m->black[0] = m->white[0] = '\0';
		}
		model_status(m, 0, TR("model.created", "Room %s created; invite code: %s"), x->room,
		    x->code);
		break;
	case PO_STATE:
	case PO_WATCH:
	case PO_RESUME:
		m->snapshot = 0;
		if (x->room[0] && strcmp(x->room, m->room) == 0) { /* RESUME -: no room */
			m->seq = x->seq;
			m->in_room = 1;
			merge_kept(m);
		}
		m->nkept = 0;
		if (m->over)
			describe_result(m);
		break;
	case PO_LEAVE:
		if (strcmp(x->room, m->room) == 0)
			m->in_room = 0;
		break;
	case PO_ROOMS:
		break;
	case PO_WHO:
		if (m->users_fresh)
			m->nusers = m->users_fresh = 0;
		break;
	case PO_SEEKS:
		if (m->seeks_fresh)
			m->nseeks = m->seeks_fresh = 0;
		m->seeks_total = x->count2 ? x->count2 : m->nseeks; /* none from an old server */
		break;
	case PO_CHALLENGE:
		model_status(m, 0, "%s",
		    TR("model.challenge_sent", "Challenge sent; waiting for the answer (60 s)"));
		break;
	case PO_HISTORY:
		m->games_total = x->count2;
		break;
	case PO_EXPORT:
		m->record_ready = 1;
		/* the game replayed now: its review is asked afresh (MARKS) */
		m->review_id = x->ident;
		review_clear(m, REVIEW_NONE);
		break;
	case PO_MARKS:
		if (x->ident != m->review_id)
			break;
		m->review = REVIEW_READY;
		m->review_plies = (int)x->depth;
		model_status(m, 0,
		    m->nmarks == 1 ? TR("model.review_ready_1", "The engine's review: %d mark")
				   : TR("model.review_ready", "The engine's review: %d marks"),
		    m->nmarks);
		break;
	case PO_PUZZLE:
		puzzle_open(m, x);
		break;
	case PO_SOLVE:
		puzzle_solve(m, x);
		break;
	case PO_TLIST:
		if (m->tlist_fresh)
			m->ntourneys = m->tlist_fresh = 0;
		m->tlist_ready = 1;
		break;
	case PO_TWATCH:
		if (x->ident == m->tourney.id)
			m->tourney_ready = 1;
		break;
	case PO_LEAGUES:
		if (m->leagues_fresh)
			m->nleagues = m->leagues_fresh = 0;
		m->leagues_ready = 1;
		break;
	case PO_LEAGUE:
		if (m->lratings_fresh) /* no rated games yet: an empty table */
			m->nlratings = m->lratings_fresh = 0;
		COPY(m->league, x->word);
		m->league_stale = 0;
		break;
	case PO_TUNWATCH:
		if (x->ident == m->tourney.id) {
			memset(&m->tourney, 0, sizeof m->tourney);
			m->tourney_ready = m->tourney_resync = 0;
			m->ntplayers = m->ntgames = 0;
		}
		break;
	case PO_TCREATE:
		model_status(m, 0, TR("model.tcreated", "Tournament %lld created; you follow it"),
		    (long long)x->ident);
		break;
	case PO_TBOT:
		model_status(m, 0, TR("model.tbot", "%s joined %s"), x->user,
		    x->ident == m->tourney.id ? tourney_title(&m->tourney) : "");
		break;
	case PO_TCANCEL:
		model_status(
		    m, 0, TR("model.tcancelled", "Tournament %lld cancelled"), (long long)x->ident);
		break;
	case PO_TJOIN:
		model_status(m, 0,
		    x->ident == m->tourney.id && m->tourney.state == TSTATE_SOON
			? TR("model.tjoined_soon", "You joined %s; your games start by themselves")
			: TR("model.tjoined", "You joined %s"),
		    x->ident == m->tourney.id ? tourney_title(&m->tourney) : "");
		break;
	case PO_TLEAVE:
		if (x->ident == m->tourney.id && m->tourney.state == TSTATE_SOON) {
			/* out before the start: off the standings */
			int i = model_tourney_player(m, m->me);
			if (i >= 0) {
				memmove(&m->tplayers[i], &m->tplayers[i + 1],
				    (size_t)(m->ntplayers - i - 1) * sizeof m->tplayers[0]);
				m->ntplayers--;
			}
		}
		model_status(m, 0, TR("model.tleft", "You left %s"),
		    x->ident == m->tourney.id ? tourney_title(&m->tourney) : "");
		break;
	case PO_REVIEW:
		if (x->ident != m->review_id || m->review == REVIEW_READY)
			break;
		m->review = REVIEW_RUNNING;
		m->review_done = m->review_total = 0;
		model_status(m, 0, "%s",
		    TR("model.review_asked", "Review asked; waiting for the engine..."));
		break;
	default:
		break;
	}
	return MODEL_OK;
}

/* * REVIEWING and * REVIEWED: the review of the game replayed, as it goes. */
static void
review_event(model_t *m, const proto_msg_t *x)
{
	if (x->ident != m->review_id || m->review == REVIEW_READY)
		return;
	if (x->id == PE_REVIEWING) {
		m->review = REVIEW_RUNNING;
		m->review_done = (int)x->count;
		m->review_total = (int)x->count2;
		model_status(m, 0,
		    TR("model.reviewing", "Reviewing: %d of %d positions searched..."),
		    m->review_done, m->review_total);
	} else if (x->reviewed == REVIEWED_OK) {
		/* the session fetches it (MARKS) */
		m->review_done = m->review_total;
		model_status(
		    m, 0, "%s", TR("model.reviewed", "The review is ready; reading its marks..."));
	} else {
		m->review = REVIEW_FAILED;
		model_status(m, 1, "%s",
		    TR("model.review_failed",
			"The engine could not review this game; r asks again"));
	}
}

/* A move's reason, as MOVE carries it ("vcf 5": a word, then detail), in
 * words: "bob played k11: wins by continuous fours (5)". */
static void
bot_reason(model_t *m, const char *who, const char *move, const char *text)
{
	char words[128];
	snprintf(m->reason_text, sizeof m->reason_text, TR("model.bot_why", "%s played %s: %s"),
	    who, move, i18n_botwhy_text(text, words, sizeof words));
}

/* Room events: the sequence number must follow on from the last one. */
static model_rc_t
apply_room_event(model_t *m, const proto_msg_t *x, int64_t now)
{
	if (x->id == PE_START) {
		m->seek_id = 0;
		m->seek_started = pending_head(m) == PR_SEEK;
		m->rating[0] = m->rating[1] = 0;
		m->rating_before[0] = m->rating_before[1] = 0;
		int rematch = m->in_room && m->over && strcmp(m->room, x->room) == 0;
		new_game(m, x->room, x->rule, x->size);
		m->seq = x->seq;
		/* an opening rule plays its stages first (SWAP2 or OPENING lines) */
		m->status = x->opening != OPENING_NONE ? ROOM_OPENING : ROOM_PLAYING;
		m->tc_base = x->tc_base;
		m->tc_inc = x->tc_inc;
		m->opening = x->opening;
		m->rated = x->rated;
		COPY(m->black, x->user);
		COPY(m->white, x->user2);
		set_clocks(m, x->bms, x->wms, now);
		model_status(m, 0,
		    rematch
			? TR("model.rematch", "Rematch: %s (black) vs %s (white), %s %dx%d")
			: TR("model.started", "Game started: %s (black) vs %s (white), %s %dx%d"),
		    m->black, m->white, i18n_rule(x->rule), x->size, x->size);
		model_chat(m, "* %s", m->status_text);
		tourney_started(m, x);
		return MODEL_OK;
	}
	if (!m->in_room || strcmp(x->room, m->room) != 0)
		return MODEL_OK; /* another room's event: not shown */
	if (m->snapshot)
		return MODEL_OK; /* the snapshot being read already includes it */
	if (x->seq != m->seq + 1)
		return MODEL_RESYNC;
	m->seq = x->seq;
	switch (x->id) {
	case PE_SWAP2:
		m->think_ply = -1; /* a preview of the opening's stones is stale now */
		m->swap2 = 1;
		m->status = ROOM_OPENING;
		m->swap2_stage = x->stage;
		COPY(m->swap2_user, x->user);
		break;
	case PE_OPENING:
		m->think_ply = -1;
		m->status = ROOM_OPENING;
		opening_set(m, x);
		if (m->status_error) /* a refused act is behind: the new stage's words show */
			m->status_text[0] = '\0';
		break;
	case PE_COLOURS:
		m->think_ply = -1;
		m->swap2 = 0;
		opening_clear(m);
		m->status = ROOM_PLAYING;
		if (strcmp(x->user, m->white) == 0 && strcmp(x->user2, m->black) == 0) {
			/* the ratings go with the players */
			int r = m->rating[0], p = m->provisional[0];
			m->rating[0] = m->rating[1];
			m->provisional[0] = m->provisional[1];
			m->rating[1] = r;
			m->provisional[1] = p;
		}
		COPY(m->black, x->user);
		COPY(m->white, x->user2);
		m->clock_at = now;
		model_chat(
		    m, TR("model.colours", "* Colours: %s black, %s white"), m->black, m->white);
		break;
	case PE_MOVE: {
		int bot_moved = m->think_ply == m->pos.nmoves && m->ncands;
		if (place(m, x->move, x->side) != 0) {
			model_status(m, 1,
			    TR("model.impossible",
				"Server sent an impossible move %s for %s; resyncing"),
			    x->move,
			    x->side == SIDE_BLACK ? i18n_colour(COLOUR_BLACK)
						  : i18n_colour(COLOUR_WHITE));
			return MODEL_RESYNC;
		}
		if (x->text[0])
			bot_reason(
			    m, x->side == SIDE_BLACK ? m->black : m->white, x->move, x->text);
		else if (bot_moved) {
			char score[64] = "";
			if (m->cands[0] == m->pos.moves[m->pos.nmoves - 1])
				model_score_text(
				    m, m->scores[0], m->pos.nmoves - 1, score, sizeof score);
			snprintf(m->reason_text, sizeof m->reason_text,
			    TR("model.bot_played", "%s played %s (depth %d, %s)"), m->think_bot,
			    x->move, m->think_depth, score);
		}
		set_clocks(m, x->bms, x->wms, now);
		clear_offers(m); /* pending draw/undo offers end with a move */
		if (m->status_error)
			m->status_text[0] = '\0';
		break;
	}
	case PE_UNDO:
		for (int i = 0; i < x->plies; i++)
			if (pos_undo(&m->pos) == MOVE_NONE)
				return MODEL_RESYNC;
		set_clocks(m, x->bms, x->wms, now);
		clear_offers(m);
		m->think_ply = -1;
		if (m->undo_by[0]) /* the accepted offer says it, with the count */
			fate(m,
			    x->plies == 1
				? TR("fate.undone_1", "%s accepted the undo: %d move taken back")
				: TR("fate.undone", "%s accepted the undo: %d moves taken back"),
			    m->undo_by, (int)x->plies);
		else
			model_chat(m,
			    x->plies == 1 ? TR("model.undone_1", "* %d move taken back")
					  : TR("model.undone", "* %d moves taken back"),
			    (int)x->plies);
		m->undo_by[0] = '\0';
		break;
	case PE_OFFER:
		offer_add(m, x->ident, x->offer, x->user);
		model_chat(m, TR("model.offers", "* %s offers %s"), x->user, i18n_offer(x->offer));
		break;
	case PE_OFFEREND:
		offer_ended(m, x->ident, x->end);
		break;
	case PE_SAY:
		model_chat(m, "%s: %s", x->user, x->text);
		break;
	case PE_PRESENCE: {
		int side = strcmp(x->user, m->black) == 0 ? 0
		    : strcmp(x->user, m->white) == 0      ? 1
							  : -1;
		if (side >= 0 && (x->presence == PRES_GONE || x->presence == PRES_BACK)) {
			m->gone[side] = x->presence == PRES_GONE;
			m->gone_until[side] = now + x->ms;
		}
		if (x->presence == PRES_JOINED && side < 0)
			m->spectators++;
		else if (x->presence == PRES_LEFT && side < 0 && m->spectators > 0)
			m->spectators--;
		if (x->presence == PRES_GONE)
			model_chat(m, TR("model.gone", "* %s went away (%llds to come back)"),
			    x->user, (long long)(x->ms / 1000));
		else
			model_chat(m, "* %s %s", x->user, i18n_presence(x->presence));
		break;
	}
	case PE_CLOSED:
		m->in_room = 0;
		m->invite[0] = '\0';
		model_status(m, 1, "%s",
		    strcmp(x->word, "away") == 0
			? TR("model.closed_away",
			      "The room closed: its creator did not come back in time")
			: TR("model.closed", "The room closed: its creator left it"));
		model_chat(m, "* %s", m->status_text);
		break;
	case PE_THINK:
		COPY(m->think_bot, x->user);
		m->think_ply = m->pos.nmoves;
		m->think_depth = (int)x->depth;
		m->ncands = 0;
		for (int i = 0; i < x->ncands; i++) {
			move_t c;
			if (notation_parse(x->cands[i].move, m->pos.size, &c) == 0) {
				m->cands[m->ncands] = c;
				m->scores[m->ncands++] = x->cands[i].score;
			}
		}
		break;
	case PE_OVER:
		set_result(m, x->result, x->reason, x->nmoves, x->moves);
		if (x->reason == REASON_TIME && x->result == RES_BLACK)
			m->wms = 0; /* the flag fell: the loser's clock ran out */
		else if (x->reason == REASON_TIME && x->result == RES_WHITE)
			m->bms = 0;
		/* the ratings fetched next show the change; a server with
		 * `ratings` says it itself (* RATED) */
		if (m->rated && !model_has_cap(m, "ratings"))
			for (int i = 0; i < 2; i++)
				m->rating_before[i] = m->rating[i];
		describe_result(m);
		break;
	case PE_RATINGS:
		set_ratings(m, x);
		break;
	case PE_KINDS: /* after START and RATINGS (`botaccounts`) */
		kinds_mark(m, x);
		break;
	case PE_RATED: {
		const int64_t before[2] = { x->before, x->before2 },
			      after[2] = { x->after, x->after2 };
		for (int s = 0; s < 2; s++) {
			m->rating_before[s] = (int)before[s];
			m->rating[s] = (int)after[s];
			model_chat(m, TR("model.rating", "* %s's rating: %d -> %d (%+d)"),
			    s ? m->white : m->black, m->rating_before[s], m->rating[s],
			    m->rating[s] - m->rating_before[s]);
		}
		break;
	}
	default:
		break;
	}
	return MODEL_OK;
}

model_rc_t
model_apply(model_t *m, const proto_msg_t *x, int64_t now)
{
	switch (proto_kind(x->id)) {
	case PK_OK:
	case PK_ERR:
		return apply_reply(m, x, now);
	case PK_DATA:
		return apply_data(m, x, now);
	case PK_EVENT:
		break;
	case PK_REQ:
		return MODEL_OK;
	}
	switch (x->id) {
	case PE_SERVER:
		snprintf(m->server, sizeof m->server, "%s %s", x->word, x->word2);
		COPY(m->caps, x->text);
		return MODEL_OK;
	case PE_TELL:
		model_chat(m, "[%s] %s", x->user, x->text);
		return MODEL_OK;
	case PE_MOTD: /* the server's notices, in the chat pane (issue 22) */
		model_chat(m, TR("model.motd", "[motd] %s"), x->text);
		return MODEL_OK;
	case PE_ANNOUNCE:
		model_chat(m, TR("model.server", "[server] %s"), x->text);
		model_status(m, 0, TR("model.announce", "Server: %s"), x->text);
		return MODEL_OK;
	case PE_KICKED:
		model_status(m, 1, TR("model.kicked", "Disconnected by the server: %s"), x->text);
		return MODEL_OK;
	case PE_CHALLENGE: {
		char tc[24], op[80] = "";
		if (x->opening != OPENING_NONE) /* the opening rule the game would play */
			snprintf(op, sizeof op, TR("model.opening_suffix", ", opening %s"),
			    i18n_opening(x->opening));
		if (x->tc_base)
			snprintf(tc, sizeof tc, "%d+%d", x->tc_base, x->tc_inc);
		else
			snprintf(tc, sizeof tc, "%s", TR("model.no_clock", "no clock"));
		m->challenge_id = x->ident;
		COPY(m->challenge_from, x->user);
		model_status(m, 0,
		    TR("model.challenged",
			"%s challenges you: %s %dx%d, %s, %s%s (%s plays %s). A accepts, X "
			"declines"),
		    x->user, i18n_rule(x->rule), x->size, x->size, tc,
		    x->rated ? TR("game.rated", "rated") : TR("game.casual", "casual"), op, x->user,
		    i18n_colour(x->colour));
		model_chat(m, TR("model.challenged_chat", "* %s challenges you"), x->user);
		return MODEL_OK;
	}
	case PE_CHALLENGEEND:
		if (x->ident == m->challenge_id)
			m->challenge_id = 0;
		model_status(m, 0, TR("model.challenge_end", "Challenge %s"), i18n_end(x->end));
		model_chat(m, "* %s", m->status_text);
		return MODEL_OK;
	case PE_REVIEWING:
	case PE_REVIEWED:
		review_event(m, x);
		return MODEL_OK;
	case PE_TOURNEY:
		tourney_event(m, x);
		return MODEL_OK;
	case PE_TPLAYER:
		if (m->tourney.id && x->ident == m->tourney.id)
			tplayer_put(m, x);
		return MODEL_OK;
	case PE_TGAME:
		if (m->tourney.id && x->ident == m->tourney.id)
			tgame_put(m, x);
		return MODEL_OK;
	case PE_BYE:
	case PE_SEATED:
		return MODEL_OK; /* the session acts on them */
	case PE_SHUTDOWN:
		m->shutdown = 1;
		model_status(m, 1, TR("model.shutdown", "Server shutting down in %llds%s%s"),
		    (long long)(x->ms / 1000), x->text[0] ? ": " : "", x->text);
		return MODEL_OK;
	default:
		return apply_room_event(m, x, now);
	}
}

int
model_record_position(const model_t *m, position_t *p, char *err, size_t errlen)
{
	/* The archive adds keys (black, white, result...) the rules core's
	 * record reader does not know; keep only its own. */
	char core[MODEL_RECORD_MAX];
	size_t n = 0;
	for (const char *s = m->record; *s;) {
		const char *e = strchr(s, '\n');
		size_t len = e ? (size_t)(e - s) : strlen(s);
		if ((!strncmp(s, "rule ", 5) || !strncmp(s, "size ", 5) ||
			!strncmp(s, "moves", 5)) &&
		    n + len + 2 < sizeof core) {
			memcpy(core + n, s, len);
			n += len;
			core[n++] = '\n';
		}
		s += len + (e != NULL);
	}
	core[n] = '\0';
	return record_parse(core, p, err, errlen);
}
