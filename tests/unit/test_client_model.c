/*
 * test_client_model: the client's model rebuilt from real server lines
 * (each goes through proto_parse first), on the transcripts in tests/model
 * (the .txt files): board, clocks, offers, results, snapshots, sequence
 * gaps, the bot's preview, lobby lists. The web board's model runs the same
 * files (tests/browser/test_model.mjs) and asserts the same states; the
 * format is in tests/model/README.md. Keys starting "c." are this model's
 * alone (its sentences, its status line); "web." keys are skipped here.
 * MODEL_DIR names another folder; arguments name transcripts to run.
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "client/i18n.h"
#include "client/model.h"

enum { LINE_MAX_LEN = 1024, FILES_MAX = 64 };

/* A request kind by its name ("STATE"), or PM_NONE. */
static proto_id_t
request_named(const char *name)
{
	for (int id = PR_HELLO; proto_kind((proto_id_t)id) == PK_REQ; id++)
		if (strcmp(proto_name((proto_id_t)id), name) == 0)
			return (proto_id_t)id;
	return PM_NONE;
}

static const char *
stone_name(stone_t s)
{
	return s == STONE_BLACK ? "black" : s == STONE_WHITE ? "white" : "none";
}

static const char *
status_name(proto_status_t s)
{
	static const char *const names[] = { "waiting", "opening", "playing", "over" };
	return (unsigned)s < 4 ? names[s] : "?";
}

static const char *
stage_name(proto_stage_t s)
{
	static const char *const names[] = { "put3", "choose", "put2", "choose2" };
	return (unsigned)s < 4 ? names[s] : "?";
}

static const char *
ostage_name(proto_ostage_t s)
{
	static const char *const names[] = { "place", "swap", "swap-or-place", "declare", "offer",
		"choose", "branch" };
	return (unsigned)s < 7 ? names[s] : "?";
}

static const char *
oarea_name(proto_oarea_t a)
{
	static const char *const names[] = { "-", "any", "centre", "in3", "in5", "in7", "in9",
		"out5", "out7", "offers" };
	return (unsigned)a < 10 ? names[a] : "?";
}

/* A name as the transcripts spell it: "-" for none. */
static const char *
dash(const char *s)
{
	return s[0] ? s : "-";
}

/* The newest chat line starting with prefix, past it; NULL if none. */
static const char *
chat_after(const model_t *m, const char *prefix)
{
	size_t n = strlen(prefix);
	const char *l;
	for (int i = 0; (l = model_chat_line(m, i)) != NULL; i++)
		if (strncmp(l, prefix, n) == 0)
			return l + n;
	return NULL;
}

static int
cell(const model_t *m, const char *mv, move_t *c)
{
	return notation_parse(mv, m->pos.size, c) == 0 ? 0 : -1;
}

/* A side named in a key ("clock.black"): 0 black, 1 white, -1 neither. */
static int
key_side(const char *rest)
{
	return strcmp(rest, "black") == 0 ? 0 : strcmp(rest, "white") == 0 ? 1 : -1;
}

#define SAY(...) (snprintf(out, len, __VA_ARGS__), 0)

/* The value of key in the model at now, as the transcripts spell it
 * (test_model.mjs spells the web model's the same); -1: no such key. */
static int
value_of(const model_t *m, const char *key, int64_t now, char *out, size_t len)
{
	const char *dot = strchr(key, '.');
	const char *rest = dot ? dot + 1 : "";
	size_t head = dot ? (size_t)(dot - key) : strlen(key);
	int side = key_side(rest);
	move_t c;
	char k[32];
	if (head >= sizeof k)
		return -1;
	memcpy(k, key, head);
	k[head] = '\0';

	if (strcmp(k, "server") == 0)
		return SAY("%s", m->server);
	if (strcmp(k, "cap") == 0)
		return SAY("%d", model_has_cap(m, rest));
	if (strcmp(k, "nobots") == 0)
		return SAY("%d", m->nobots);
	if (strcmp(k, "engines") == 0) { /* the hosted engines, comma-joined, or - */
		char names[MODEL_ENGINES_MAX][PROTO_ENGINE_MAX + 1],
		    all[MODEL_ENGINES_MAX * 18] = "";
		int n = model_engines(m, names, MODEL_ENGINES_MAX);
		for (int i = 0; i < n; i++)
			snprintf(all + strlen(all), sizeof all - strlen(all), "%s%s", i ? "," : "",
			    names[i]);
		return SAY("%s", n ? all : "-");
	}
	if (strcmp(k, "me") == 0)
		return SAY("%s", dash(m->me));
	if (strcmp(k, "token") == 0)
		return SAY("%s", dash(m->token));
	if (strcmp(k, "seek") == 0)
		return SAY("%lld", (long long)m->seek_id);
	if (strcmp(k, "pending") == 0)
		return SAY("%d", m->npending);
	if (strcmp(k, "room") == 0)
		return SAY("%s", m->in_room ? m->room : "-");
	if (strcmp(k, "invite") == 0)
		return SAY("%s", dash(m->invite));
	if (strcmp(k, "seq") == 0)
		return SAY("%lld", (long long)m->seq);
	if (strcmp(k, "status") == 0)
		return SAY("%s", m->in_room ? status_name(m->status) : "-");
	if (strcmp(k, "rule") == 0)
		return SAY("%s", m->in_room ? rule_name((rule_t)m->pos.rule) : "-");
	if (strcmp(k, "size") == 0)
		return m->in_room ? SAY("%d", m->pos.size) : SAY("-");
	if (strcmp(k, "black") == 0)
		return SAY("%s", m->in_room ? dash(m->black) : "-");
	if (strcmp(k, "white") == 0)
		return SAY("%s", m->in_room ? dash(m->white) : "-");
	if (strcmp(k, "side") == 0)
		return SAY("%s", stone_name(model_my_side(m)));
	if (strcmp(k, "turn") == 0)
		return SAY("%s", stone_name(model_turn(m)));
	if (strcmp(k, "moves") == 0)
		return SAY("%d", m->in_room ? m->pos.nmoves : 0);
	if (strcmp(k, "stone") == 0 && cell(m, rest, &c) == 0)
		return SAY("%s",
		    m->pos.cell[c] == STONE_EMPTY ? "empty" : stone_name((stone_t)m->pos.cell[c]));
	if (strcmp(k, "clock") == 0 && side >= 0) {
		int64_t ms = model_clock(m, side ? STONE_WHITE : STONE_BLACK, now);
		return ms < 0 ? SAY("-") : SAY("%lld", (long long)ms);
	}
	if (strcmp(k, "grace") == 0 && side >= 0) {
		int64_t left = m->gone[side] ? m->gone_until[side] - now : 0;
		return SAY("%lld", (long long)(left > 0 ? left : 0));
	}
	if (strcmp(k, "gone") == 0 && side >= 0)
		return SAY("%d", m->gone[side]);
	if (strcmp(k, "spectators") == 0)
		return SAY("%lld", (long long)m->spectators);
	if (strcmp(k, "offers") == 0)
		return SAY("%d", m->noffers);
	if (strcmp(k, "offer_to_me") == 0) {
		const model_offer_t *o = model_offer_to_me(m);
		return o ? SAY("%lld %s %s", (long long)o->id, proto_offer_name(o->kind), o->from)
			 : SAY("-");
	}
	if (strcmp(k, "over") == 0)
		return SAY("%d", m->over);
	if (strcmp(k, "result") == 0)
		return SAY("%s", m->over ? proto_result_name(m->result) : "-");
	if (strcmp(k, "reason") == 0)
		return SAY("%s", m->over ? proto_reason_name(m->reason) : "-");
	if (strcmp(k, "cells") == 0)
		return SAY("%d", m->ncells);
	if (strcmp(k, "win") == 0 && cell(m, rest, &c) == 0)
		return SAY("%d", model_is_win_cell(m, c));
	if (strcmp(k, "swap2") == 0)
		return SAY("%d", m->swap2);
	if (strcmp(k, "stage") == 0)
		return SAY("%s", m->swap2 ? stage_name(m->swap2_stage) : "-");
	/* an opening rule's stage (`openings`): op.KEY, area.MV, fifth.MV */
	if (strcmp(k, "op") == 0) {
		if (strcmp(rest, "stage") == 0)
			return SAY("%s", m->op ? ostage_name(m->op_stage) : "-");
		if (strcmp(rest, "user") == 0)
			return SAY("%s", m->op ? dash(m->op_user) : "-");
		if (strcmp(rest, "side") == 0)
			return SAY("%s",
			    !m->op                         ? "-"
				: m->op_side == SIDE_WHITE ? "white"
							   : "black");
		if (strcmp(rest, "area") == 0)
			return SAY("%s", m->op ? oarea_name(m->op_area) : "-");
		if (strcmp(rest, "count") == 0)
			return SAY("%d", m->op_count);
		if (strcmp(rest, "fifths") == 0)
			return SAY("%d", m->op_nfifths);
		if (strcmp(rest, "mine") == 0)
			return SAY("%d", model_opening_mine(m));
		if (strcmp(rest, "canon") == 0) {
			int i = m->op_canon - 1;
			return i < 0 ? SAY("-") : SAY("%c%d", i < 13 ? 'd' : 'i', i % 13 + 1);
		}
		return -1;
	}
	if (strcmp(k, "area") == 0 && cell(m, rest, &c) == 0)
		return SAY("%d", model_in_area(m, c));
	if (strcmp(k, "fifth") == 0 && cell(m, rest, &c) == 0)
		return SAY("%d", model_is_fifth(m, c));
	if (strcmp(k, "cand") == 0 && cell(m, rest, &c) == 0)
		return SAY("%d", model_cand_rank(m, c));
	if (strcmp(k, "rating") == 0 && side >= 0)
		return SAY("%d", m->rating[side]);
	if (strcmp(k, "provisional") == 0 && side >= 0)
		return SAY("%d", m->provisional[side]);
	if (strcmp(k, "rating_before") == 0 && side >= 0)
		return SAY("%d", m->rating_before[side]);
	/* who is a bot (botaccounts): a name the server marked; a seat's player */
	if (strcmp(k, "bot") == 0 && rest[0])
		return SAY("%d", model_is_bot(m, rest));
	if (strcmp(k, "seat_bot") == 0 && side >= 0)
		return SAY("%d", m->in_room && model_is_bot(m, side ? m->white : m->black));
	if (strcmp(k, "challenge") == 0)
		return SAY("%lld", (long long)m->challenge_id);
	if (strcmp(k, "shutdown") == 0)
		return SAY("%d", m->shutdown);
	/* the server's texts, where this model shows them */
	if (strcmp(k, "motd") == 0 || strcmp(k, "announce") == 0) {
		const char *t = chat_after(m, k[0] == 'm' ? "[motd] " : "[server] ");
		return SAY("%s", t ? t : "-");
	}
	if (strcmp(k, "kicked") == 0) {
		static const char pre[] = "Disconnected by the server: ";
		int is = m->status_error && strncmp(m->status_text, pre, sizeof pre - 1) == 0;
		return SAY("%s", is ? m->status_text + sizeof pre - 1 : "-");
	}
	if (strcmp(k, "said") == 0 || strcmp(k, "chats") == 0) {
		/* players' lines, not notices: the newest (said.N: the N-th
		 * newest), or how many */
		long want = dot ? strtol(rest, NULL, 10) : 0, n = 0;
		const char *l;
		for (int i = 0; (l = model_chat_line(m, i)) != NULL; i++)
			if (strncmp(l, "* ", 2) != 0 && l[0] != '[' && n++ == want && k[0] == 's')
				return SAY("%s", l);
		return k[0] == 'c' ? SAY("%ld", n) : SAY("-");
	}
	if (strcmp(k, "fate") == 0)
		return SAY("%s", m->fate[0] ? m->fate : "-");
	if (strcmp(k, "rooms") == 0 || strcmp(k, "games") == 0) {
		int rooms = k[0] == 'r', n = rooms ? m->nrooms : m->ngames;
		if (!dot)
			return SAY("%d", n);
		char *end;
		long i = strtol(rest, &end, 10);
		if (end == rest || *end != '.' || i < 0 || i >= n)
			return -1;
		const char *f = end + 1;
		if (rooms && strcmp(f, "room") == 0)
			return SAY("%s", m->rooms[i].room);
		if (rooms && strcmp(f, "black") == 0)
			return SAY("%s", dash(m->rooms[i].black));
		if (rooms && strcmp(f, "white") == 0)
			return SAY("%s", dash(m->rooms[i].white));
		if (!rooms && strcmp(f, "id") == 0)
			return SAY("%lld", (long long)m->games[i].id);
		return -1;
	}
	if (strcmp(k, "seeks") == 0)
		return SAY("%d", m->nseeks);
	/* the engine league (league): LEAGUES' list, the table shown */
	if (strcmp(k, "leagues") == 0 || strcmp(k, "table") == 0) {
		int leagues = k[0] == 'l', n = leagues ? m->nleagues : m->nlratings;
		if (!dot)
			return SAY("%d", n);
		char *end;
		long i = strtol(rest, &end, 10);
		if (end == rest || *end != '.' || i < 0 || i >= n)
			return -1;
		const char *f = end + 1;
		if (leagues) {
			const model_league_t *l = &m->leagues[i];
			if (strcmp(f, "name") == 0)
				return SAY("%s", l->name);
			if (strcmp(f, "rule") == 0)
				return SAY("%s", rule_name(l->rule));
			if (strcmp(f, "size") == 0)
				return SAY("%d", l->size);
			if (strcmp(f, "players") == 0)
				return SAY("%d", l->players);
			if (strcmp(f, "games") == 0)
				return SAY("%d", l->games);
			if (strcmp(f, "tourney") == 0 || strcmp(f, "next") == 0) {
				int64_t v = f[0] == 't' ? l->tourney : l->next;
				return v < 0 ? SAY("-") : SAY("%lld", (long long)v);
			}
			return -1;
		}
		const model_lrating_t *r = &m->lratings[i];
		if (strcmp(f, "player") == 0)
			return SAY("%s", r->player);
		static const char *const nums[] = { "rank", "elo", "minus", "plus", "games",
			"points", "draws" };
		const int vals[] = { r->rank, r->elo, r->minus, r->plus, r->games, r->points,
			r->draws };
		for (size_t j = 0; j < sizeof nums / sizeof nums[0]; j++)
			if (strcmp(f, nums[j]) == 0)
				return SAY("%d", vals[j]);
		return -1;
	}
	if (strcmp(k, "league") == 0)
		return SAY("%s", dash(m->league));
	if (strcmp(k, "league_stale") == 0)
		return SAY("%d", m->league_stale);
	if (strcmp(k, "seeks_total") == 0)
		return SAY("%lld", (long long)m->seeks_total);
	if (strcmp(k, "record") == 0 && strcmp(rest, "ready") == 0)
		return SAY("%d", m->record_ready);
	if (strcmp(k, "record") == 0 && strcmp(rest, "moves") == 0) {
		position_t p;
		char err[64];
		if (model_record_position(m, &p, err, sizeof err) != 0)
			return SAY("(%s)", err);
		return SAY("%d", p.nmoves);
	}
	/* this model's own: its sentences and its status line */
	if (strcmp(k, "c") == 0) {
		if (strcmp(rest, "status") == 0)
			return SAY("%s", m->status_text);
		if (strcmp(rest, "error") == 0)
			return SAY("%d", m->status_error);
		if (strcmp(rest, "reason") == 0)
			return SAY("%s", m->reason_text);
		/* the review of the game replayed (`review`, section 5.19) */
		if (strcmp(rest, "review") == 0) {
			static const char *const names[] = { "none", "loading", "absent", "running",
				"failed", "ready", "refused" };
			return SAY("%s", (unsigned)m->review < 7 ? names[m->review] : "?");
		}
		if (strcmp(rest, "review_id") == 0)
			return SAY("%lld", (long long)m->review_id);
		if (strcmp(rest, "progress") == 0)
			return SAY("%d/%d", m->review_done, m->review_total);
		if (strcmp(rest, "marks") == 0)
			return SAY("%d", m->nmarks);
		if (strncmp(rest, "mark.", 5) == 0) {
			int i = atoi(rest + 5);
			if (i < 0 || i >= m->nmarks)
				return SAY("-");
			char t[512];
			model_mark_text(&m->marks[i], "->", t, sizeof t);
			return SAY("%s", t);
		}
		if (strcmp(rest, "evals") == 0)
			return SAY("%d", m->nevals);
		if (strncmp(rest, "eval.", 5) == 0) {
			int i = atoi(rest + 5);
			return i >= 0 && i < MODEL_EVALS_MAX ? SAY("%d", m->evals[i]) : SAY("-");
		}
		if (strncmp(rest, "chance.", 7) == 0) {
			int i = atoi(rest + 7);
			char t[128];
			model_chance_text(i >= 0 && i < m->nevals ? m->evals[i] : -1, t, sizeof t);
			return SAY("%s", t[0] ? t : "-");
		}
		if (strncmp(rest, "graph.", 6) == 0) {
			/* the graph in W columns: its heights as digits, "." none */
			signed char lv[MODEL_EVALS_MAX];
			int n = model_graph(m->evals, m->nevals, atoi(rest + 6), lv);
			char g[MODEL_EVALS_MAX + 1];
			for (int i = 0; i < n; i++)
				g[i] = lv[i] < 0 ? '.' : (char)('0' + lv[i]);
			g[n] = '\0';
			return SAY("%s", n ? g : "-");
		}
		/* the puzzle shown (`puzzles`, section 5.20) */
		if (strcmp(rest, "puzzle") == 0) {
			static const char *const names[] = { "none", "open", "judging", "solved",
				"failed", "gone" };
			return SAY("%s", (unsigned)m->puzzle < 6 ? names[m->puzzle] : "?");
		}
		if (strcmp(rest, "puzzle_id") == 0)
			return SAY("%lld", (long long)m->puzzle_id);
		if (strcmp(rest, "pclass") == 0)
			return SAY("%s", i18n_pclass(m->puzzle_class));
		if (strcmp(rest, "pside") == 0)
			return SAY("%s", stone_name(model_puzzle_side(m)));
		if (strcmp(rest, "prule") == 0)
			return SAY(
			    "%s %d", rule_name((rule_t)m->puzzle_pos.rule), m->puzzle_pos.size);
		if (strcmp(rest, "pplies") == 0)
			return SAY("%d", m->puzzle_plies);
		if (strcmp(rest, "prating") == 0)
			return SAY("%d", m->puzzle_rating);
		if (strcmp(rest, "pstart") == 0)
			return SAY("%d", m->puzzle_start);
		if (strcmp(rest, "pmoves") == 0) /* played since the puzzle's position */
			return SAY("%d", m->puzzle_pos.nmoves - m->puzzle_start);
		if (strncmp(rest, "pstone.", 7) == 0 &&
		    notation_parse(rest + 7, m->puzzle_pos.size, &c) == 0)
			return SAY("%s",
			    m->puzzle_pos.cell[c] == STONE_EMPTY
				? "empty"
				: stone_name((stone_t)m->puzzle_pos.cell[c]));
		if (strcmp(rest, "pline") == 0) {
			char t[PROTO_LIST_MAX * (PROTO_MOVE_MAX + 1) + 1] = "";
			size_t n = 0;
			for (int i = 0; i < m->puzzle_nline && n + PROTO_MOVE_MAX + 2 < sizeof t;
			     i++)
				n += (size_t)snprintf(
				    t + n, sizeof t - n, "%s%s", i ? "," : "", m->puzzle_line[i]);
			return SAY("%s", t[0] ? t : "-");
		}
		if (strcmp(rest, "rtext") == 0) {
			char t[256];
			model_puzzle_rating_text(m, t, sizeof t);
			return SAY("%s", t[0] ? t : "-");
		}
		if (strcmp(rest, "optext") == 0) {
			char t[MODEL_STATUS_LEN];
			model_opening_text(m, t, sizeof t);
			return SAY("%s", t[0] ? t : "-");
		}
		/* the tournaments (`tournaments`, section 5.21): c.tlist (the
		 * list's count), c.tlist.I (id, kind, state, name); the event
		 * shown: c.t.id, c.t.state, c.t.round, c.t.rounds, c.t.players,
		 * c.t.ready, c.t.resync, c.t.in, c.t.mine, c.t.here, c.t.when.UNIX,
		 * c.t.text.UNIX (its state for a list), c.t.next.UNIX; its
		 * standings c.t.n, c.t.p.I ("rank user points games status
		 * streak"), c.t.tb.I (its tie-breaks as shown); its pairings
		 * c.t.games, c.t.g.I ("round.board first second room: result") */
		if (strcmp(rest, "lrefused") == 0) /* the last LEAGUE refused */
			return SAY("%d", m->league_refused);
		/* a row of the league's table as the screen shows it: Elo,
		 * its error bar (UTF-8), the points halved */
		if (strncmp(rest, "lrow.", 5) == 0) {
			int i = atoi(rest + 5);
			if (i < 0 || i >= m->nlratings)
				return SAY("-");
			char elo[16], bar[32], pts[16];
			model_elo_text(m->lratings[i].elo, elo, sizeof elo);
			model_elo_bar(
			    m->lratings[i].minus, m->lratings[i].plus, 0, bar, sizeof bar);
			model_tourney_points(TKIND_ROBIN, m->lratings[i].points, pts, sizeof pts);
			return SAY("%s %s %s", elo, bar, pts);
		}
		if (strcmp(rest, "tlist") == 0)
			return SAY("%d", m->ntourneys);
		if (strncmp(rest, "tlist.", 6) == 0) {
			int i = atoi(rest + 6);
			if (i < 0 || i >= m->ntourneys)
				return SAY("-");
			const model_tourney_t *t = &m->tourneys[i];
			return SAY("%lld %s %s %d %s", (long long)t->id, i18n_tkind(t->kind),
			    i18n_tstate(t->state), t->players, dash(t->name));
		}
		if (strncmp(rest, "t.", 2) == 0) {
			const char *f = rest + 2;
			const model_tourney_t *t = &m->tourney;
			char txt[MODEL_STATUS_LEN];
			if (strcmp(f, "id") == 0)
				return SAY("%lld", (long long)t->id);
			if (strcmp(f, "state") == 0)
				return SAY("%s", t->id ? i18n_tstate(t->state) : "-");
			if (strcmp(f, "round") == 0)
				return SAY("%d", t->round);
			if (strcmp(f, "rounds") == 0)
				return SAY("%d", model_tourney_rounds(t));
			if (strcmp(f, "players") == 0)
				return SAY("%d", t->players);
			if (strcmp(f, "name") == 0)
				return SAY("%s", dash(t->name));
			if (strcmp(f, "ready") == 0)
				return SAY("%d", m->tourney_ready);
			if (strcmp(f, "resync") == 0)
				return SAY("%d", m->tourney_resync);
			if (strcmp(f, "in") == 0)
				return SAY("%d", model_tourney_in(m));
			if (strcmp(f, "mine") == 0)
				return SAY("%d", model_tourney_mine(m));
			if (strcmp(f, "here") == 0) /* the room shown is one of its games */
				return SAY("%d", m->in_room && model_tourney_room(m, m->room));
			if (strcmp(f, "n") == 0)
				return SAY("%d", m->ntplayers);
			if (strcmp(f, "games") == 0)
				return SAY("%d", m->ntgames);
			if (strncmp(f, "when.", 5) == 0 || strncmp(f, "text.", 5) == 0 ||
			    strncmp(f, "next.", 5) == 0) {
				int64_t at = strtoll(f + 5, NULL, 10);
				if (f[0] == 'w')
					model_tourney_when(t, at, txt, sizeof txt);
				else if (f[0] == 't')
					model_tourney_state_text(t, at, txt, sizeof txt);
				else
					model_tourney_next_text(m, at, txt, sizeof txt);
				return SAY("%s", txt[0] ? txt : "-");
			}
			if (strncmp(f, "p.", 2) == 0 || strncmp(f, "tb.", 3) == 0) {
				int i = atoi(f + (f[0] == 'p' ? 2 : 3));
				if (i < 0 || i >= m->ntplayers)
					return SAY("-");
				const model_tplayer_t *p = &m->tplayers[i];
				char rank[16], pts[16], tb[16];
				if (f[0] == 'p') {
					model_tourney_rank(m, i, rank, sizeof rank);
					model_tourney_points(t->kind, p->points, pts, sizeof pts);
					return SAY("%s %s %s %d %s %d", rank, p->user, pts,
					    p->played, i18n_tstatus(p->status), p->streak);
				}
				size_t n = 0;
				txt[0] = '\0';
				for (int j = 0; j < p->ntb && n + 20 < sizeof txt; j++) {
					model_tourney_tiebreak(t->kind, j, p->tb[j], tb, sizeof tb);
					n += (size_t)snprintf(txt + n, sizeof txt - n, "%s%s=%s",
					    j ? " " : "", model_tourney_tiebreak_name(t->kind, j),
					    tb);
				}
				return SAY("%s", txt[0] ? txt : "-");
			}
			if (strncmp(f, "g.", 2) == 0) {
				int i = atoi(f + 2);
				if (i < 0 || i >= m->ntgames)
					return SAY("-");
				const model_tgame_t *g = &m->tgames[i];
				model_tgame_text(g, txt, sizeof txt);
				return SAY("%d.%d %s %s %s: %s", g->round, g->board, g->first,
				    dash(g->second), dash(g->room), txt);
			}
			return -1;
		}
		if (strncmp(rest, "chat.", 5) == 0) {
			const char *l = model_chat_line(m, atoi(rest + 5));
			return SAY("%s", l ? l : "-");
		}
	}
	return -1;
}

/* Checks the key=value (or key~=value: contains) pairs of an expect line. */
static void
expect(const model_t *m, const char *where, char *s, int64_t last)
{
	struct {
		char *key, *want;
		int contains;
	} ps[32];
	int n = 0;
	int64_t now = last;
	while (*s) {
		while (*s == ' ')
			s++;
		if (!*s)
			break;
		if (n == 32)
			fail_msg("%s: too many expectations on one line", where);
		char *eq = strchr(s, '=');
		if (!eq)
			fail_msg("%s: want key=value at: %s", where, s);
		ps[n].contains = eq > s && eq[-1] == '~';
		ps[n].key = s;
		eq[-ps[n].contains] = '\0';
		s = eq + 1;
		if (*s == '"') {
			char *q = strchr(s + 1, '"');
			if (!q)
				fail_msg("%s: an unclosed quote", where);
			*q = '\0';
			ps[n].want = s + 1;
			s = q + 1;
		} else {
			ps[n].want = s;
			s += strcspn(s, " ");
			if (*s)
				*s++ = '\0';
		}
		if (strcmp(ps[n].key, "at") == 0)
			now = strtoll(ps[n].want, NULL, 10);
		else
			n++;
	}
	for (int i = 0; i < n; i++) {
		char got[MODEL_STATUS_LEN + 64];
		if (strncmp(ps[i].key, "web.", 4) == 0)
			continue;
		if (value_of(m, ps[i].key, now, got, sizeof got) != 0)
			fail_msg("%s: unknown key %s", where, ps[i].key);
		if (ps[i].contains ? strstr(got, ps[i].want) == NULL : strcmp(got, ps[i].want) != 0)
			fail_msg("%s: %s: got \"%s\", want %s\"%s\"", where, ps[i].key, got,
			    ps[i].contains ? "it to contain " : "", ps[i].want);
	}
}

static void
run_lines(FILE *f, const char *path)
{
	model_t m;
	model_init(&m);
	char line[LINE_MAX_LEN], where[LINE_MAX_LEN + 32];
	int64_t last = 0;
	int ln = 0, said = 0;
	while (fgets(line, sizeof line, f)) {
		ln++;
		line[strcspn(line, "\r\n")] = '\0';
		snprintf(where, sizeof where, "%s:%d", path, ln);
		if (line[0] == '#' && !said) {
			printf("%s: %s\n", path, line + 1 + (line[1] == ' '));
			said = 1;
		}
		if (line[0] == '\0' || line[0] == '#')
			continue;
		char *rest = strchr(line, ' ');
		if (!rest)
			fail_msg("%s: a command without arguments", where);
		*rest++ = '\0';
		if (strcmp(line, "sent") == 0) {
			/* "sent PUZZLE next": the whole request, when it is one, for
			 * what the model keeps of it (a puzzle's word, a SOLVE's move) */
			proto_msg_t r;
			int whole = proto_parse(rest, strlen(rest), PROTO_CLIENT, &r, NULL, 0) == 0;
			rest[strcspn(rest, " ")] = '\0';
			proto_id_t req = request_named(rest);
			if (req == PM_NONE)
				fail_msg("%s: no request %s", where, rest);
			if (!whole && (req == PR_PUZZLE || req == PR_SOLVE))
				fail_msg("%s: want the whole %s request", where, rest);
			model_sent(&m, req);
			if (whole)
				model_puzzle_sent(&m, &r);
		} else if (strcmp(line, "recv") == 0 || strcmp(line, "resync") == 0 ||
		    strcmp(line, "fatal") == 0) {
			char *text;
			last = strtoll(rest, &text, 10);
			if (text == rest || *text != ' ')
				fail_msg("%s: want %s <ms> <line>", where, line);
			text++;
			proto_msg_t x;
			char err[128];
			if (proto_parse(text, strlen(text), PROTO_SERVER, &x, err, sizeof err) != 0)
				fail_msg("%s: the line did not parse: %s (%s)", where, text, err);
			model_rc_t want = strcmp(line, "recv") == 0 ? MODEL_OK
			    : strcmp(line, "resync") == 0           ? MODEL_RESYNC
								    : MODEL_FATAL;
			model_rc_t rc = model_apply(&m, &x, last);
			if (rc != want)
				fail_msg("%s: the model said %d, not %d (%s): %s", where, (int)rc,
				    (int)want, line, text);
		} else if (strcmp(line, "expect") == 0) {
			expect(&m, where, rest, last);
		} else {
			fail_msg("%s: unknown command %s", where, line);
		}
	}
	fclose(f);
}

static void
run_transcript(void **state)
{
	const char *path = *state;
	FILE *f = fopen(path, "r");
	if (!f)
		fail_msg("cannot open %s", path);
	run_lines(f, path);
}

/* Transcripts of this model alone, kept here: the opening rules'
 * stages (`openings`, PROTOCOL.md 5.16), which the web model's test does
 * not read yet. */
static const char rif_game[] =
    "# checks: a RIF opening from its events: stages, who acts, areas, the renju\n"
    "# opening's name, the offered fifth moves, then COLOURS ends it\n"
    "sent HELLO\n"
    "recv 0 * SERVER gomokud 0.2.0 1 swap2 chat resume openings\n"
    "recv 0 OK HELLO 1\n"
    "sent GUEST\n"
    "recv 0 OK GUEST alice 3kQ9fZ0aLm2Xw8pR7tYc1bN4\n"
    "sent SEEK\n"
    "recv 1000 * START r1 1 alice bob renju 15 300+5 rif casual 300000 300000\n"
    "recv 1000 OK SEEK 1\n"
    "expect cap.openings=1 status=opening turn=none op.stage=- c.optext=-\n"
    "expect at=5000 clock.black=300000\n"
    "recv 1000 * OPENING r1 2 place alice black centre 0 - -\n"
    "expect op.stage=place op.user=alice op.side=black op.area=centre op.mine=1\n"
    "expect area.h8=1 area.h9=0 area.a1=0 turn=none op.canon=-\n"
    "expect c.optext=\"RIF: place the next stone (black) on the centre point, then Enter\"\n"
    "sent OPENING\n"
    "recv 2000 * MOVE r1 3 black h8 300000 300000\n"
    "recv 2000 * OPENING r1 4 place alice black in3 0 - -\n"
    "recv 2000 OK OPENING r1 4\n"
    "expect pending=0 stone.h8=black area.h8=0 area.i9=1 area.g7=1 area.j10=0 op.area=in3\n"
    "recv 3000 * MOVE r1 5 white h9 300000 300000\n"
    "recv 3000 * OPENING r1 6 place alice black in5 0 - -\n"
    "expect area.j10=1 area.f6=1 area.k11=0 area.e5=0 area.h9=0\n"
    "recv 4000 * MOVE r1 7 black i9 300000 300000\n"
    "recv 4000 * OPENING r1 8 swap bob white - 0 d4 -\n"
    "expect op.stage=swap op.user=bob op.side=white op.mine=0 op.canon=d4 area.a1=0\n"
    "expect c.optext=\"RIF: bob (holding white now) chooses a colour [D4 Kagetsu 花月]\"\n"
    "# bob took black: alice holds white and places the 4th anywhere\n"
    "recv 5000 * OPENING r1 9 place alice white any 0 d4 -\n"
    "expect op.side=white op.mine=1 area.a1=1 area.h8=0 area.o15=1\n"
    "expect c.optext=\"RIF: place the next stone (white) anywhere, then Enter [D4 Kagetsu 花月]\"\n"
    "recv 6000 * MOVE r1 10 white j8 300000 300000\n"
    "recv 6000 * OPENING r1 11 offer bob black - 2 d4 -\n"
    "expect op.stage=offer op.count=2 op.mine=0 area.a1=0 fifth.g7=0\n"
    "expect c.optext=\"RIF: bob offers 2 fifth moves [D4 Kagetsu 花月]\"\n"
    "recv 7000 * OPENING r1 12 choose alice white offers 2 d4 g7,j10\n"
    "expect op.stage=choose op.fifths=2 fifth.g7=1 fifth.j10=1 fifth.a1=0\n"
    "expect area.g7=1 area.j10=1 area.a1=0 op.mine=1 turn=none\n"
    "expect c.optext~=\"choose one of the 2 offered fifth moves\"\n"
    "recv 8000 * MOVE r1 13 black g7 300000 300000\n"
    "recv 8000 * COLOURS r1 14 bob alice\n"
    "expect op.stage=- op.fifths=0 fifth.j10=0 area.a1=0 status=playing turn=white\n"
    "expect black=bob white=alice side=white op.canon=d4 c.optext=- moves=5\n"
    "# a new game forgets the opening's name\n"
    "recv 9000 * OVER r1 15 black resign -\n"
    "recv 9000 * START r1 16 alice bob renju 15 300+5 yamaguchi casual 300000 300000\n"
    "expect op.canon=- op.stage=- status=opening moves=0\n";

/* Yamaguchi's declare, a snapshot in the middle of the opening, and the end
 * clearing the stage. */
static const char yamaguchi_snapshot[] =
    "# checks: a snapshot mid-opening (= OPENING), Yamaguchi's declare, the end\n"
    "sent HELLO\n"
    "recv 0 * SERVER gomokud 0.2.0 1 swap2 chat resume openings\n"
    "recv 0 OK HELLO 1\n"
    "sent GUEST\n"
    "recv 0 OK GUEST carol 9Xk2fZ0aLm2Xw8pR7tYc1bN4\n"
    "sent WATCH r2\n"
    "recv 0 = ROOM r2 opening renju 15 none yamaguchi casual erin dan 0 3\n"
    "recv 0 = CLOCK r2 - - none\n"
    "recv 0 = MOVES r2 0 h8,i9,j10\n"
    "recv 0 = OPENING r2 declare erin black - 10 i1 -\n"
    "recv 0 OK WATCH r2 6\n"
    "expect status=opening op.stage=declare op.user=erin op.count=10 op.canon=i1 side=none\n"
    "expect op.mine=0 area.a1=0\n"
    "expect c.optext=\"Yamaguchi: erin declares how many fifth moves black offers [I1 Chosei "
    "長星]\"\n"
    "recv 0 * OPENING r2 7 swap dan white - 3 i1 -\n"
    "expect op.stage=swap op.count=3\n"
    "recv 0 * OPENING r2 8 place erin white any 3 i1 -\n"
    "recv 0 * OVER r2 9 white resign -\n"
    "expect over=1 op.stage=- area.a1=0 c.optext=- op.canon=i1\n"
    "# an opening stage in a snapshot of a finished game is not shown\n";

/* Pro: the areas outside the central squares, on a 15x15 freestyle board. */
static const char pro_areas[] =
    "# checks: pro and long pro's outer areas, a stranger's sentence, 437 in words\n"
    "sent HELLO\n"
    "recv 0 * SERVER gomokud 0.2.0 1 swap2 chat resume openings\n"
    "recv 0 OK HELLO 1\n"
    "sent GUEST\n"
    "recv 0 OK GUEST bob 3kQ9fZ0aLm2Xw8pR7tYc1bN4\n"
    "sent BOT\n"
    "recv 0 * START r3 1 bob Bot3 freestyle 15 none pro casual - -\n"
    "recv 0 OK BOT r3\n"
    "recv 0 * OPENING r3 2 place bob black centre 0 - -\n"
    "recv 0 * MOVE r3 3 black h8 - -\n"
    "recv 0 * OPENING r3 4 place Bot3 white any 0 - -\n"
    "expect op.mine=0 c.optext=\"pro: Bot3 places the next stone (white) anywhere\"\n"
    "recv 0 * MOVE r3 5 white h9 - -\n"
    "recv 0 * OPENING r3 6 place bob black out5 0 - -\n"
    "expect area.k11=1 area.j10=0 area.h10=0 area.e8=1 area.f8=0 area.a1=1 area.h9=0\n"
    "sent OPENING\n"
    "recv 0 ERR 437 outside-area\n"
    "expect c.error=1 c.status~=\"allows only the shaded points\"\n"
    "recv 0 * OPENING r3 7 place bob black out7 0 - -\n"
    "expect area.k11=0 area.l12=1 area.d8=1 area.e8=0 op.canon=-\n"
    "recv 0 * MOVE r3 8 black l12 - -\n"
    "recv 0 * COLOURS r3 9 bob Bot3\n"
    "expect status=playing turn=white op.stage=- area.a1=0\n";

/* A replay's review (`review`, PROTOCOL.md 5.19): no stored review (455,
 * a hint, not an error), REVIEW with its progress, the stored review read
 * with MARKS, phrased; another game's lines are not taken for it; a
 * failed review and the errors in words. */
static const char review_flow[] =
    "# checks: a replay's review: 455 a hint, REVIEW's progress, MARKS read and phrased,\n"
    "# the graph, another game's lines ignored, a failed review, errors in words\n"
    "sent HELLO\n"
    "recv 0 * SERVER gomokud 0.2.0 1 chat history review\n"
    "recv 0 OK HELLO 1\n"
    "sent GUEST\n"
    "recv 0 OK GUEST alice 3kQ9fZ0aLm2Xw8pR7tYc1bN4\n"
    "expect c.review=none c.review_id=0 c.marks=0\n"
    "sent EXPORT\n"
    "recv 0 = RECORD rule freestyle\n"
    "recv 0 = RECORD size 15\n"
    "recv 0 = RECORD moves h8 a1 i8 a2 j8 a3 k8 a4 l8\n"
    "recv 0 OK EXPORT 17 text\n"
    "expect c.review=none c.review_id=17 record.moves=9\n"
    "sent MARKS\n"
    "expect c.review=loading\n"
    "recv 0 ERR 455 not-reviewed\n"
    "expect c.review=absent c.error=0 c.status~=\"r asks the engine for a review\" pending=0\n"
    "sent REVIEW\n"
    "recv 0 OK REVIEW 17\n"
    "expect c.review=running c.progress=0/0\n"
    "recv 0 * REVIEWING 17 0 10\n"
    "recv 0 * REVIEWING 99 7 30\n"
    "expect c.progress=0/10\n"
    "recv 0 * REVIEWING 17 4 10\n"
    "expect c.review=running c.progress=4/10 c.status=\"Reviewing: 4 of 10 positions "
    "searched...\"\n"
    "recv 0 * REVIEWED 17 ok 9 3\n"
    "expect c.review=running c.progress=10/10 c.status~=\"The review is ready\"\n"
    "sent MARKS\n"
    "expect c.review=loading c.marks=0 c.evals=0\n"
    "recv 0 = EVAL 17 0 500,540,460,700,640,900,960,990\n"
    "recv 0 = EVAL 99 0 1,1,1\n"
    "recv 0 = EVAL 17 8 1000,1000\n"
    "recv 0 = MARK 17 turning black 3 i8 i8 460 700 vct i8,a2,j8,a3,k8\n"
    "recv 0 = MARK 17 blunder white 4 a2 g8 300 40 block-open-three g8,a2,f8\n"
    "recv 0 = MARK 99 blunder white 2 a1 h9 500 0 vcf h9\n"
    "recv 0 = MARK 17 missed-win white 6 a3 j9 1000 4 vcf j9\n"
    "recv 0 = MARK 17 blunder black 7 k8 - 996 0 - -\n"
    "recv 0 OK MARKS 17 9 4\n"
    "expect c.review=ready c.marks=4 c.evals=10 c.eval.0=500 c.eval.9=1000 c.eval.10=-1\n"
    "expect c.status=\"The engine's review: 4 marks\" c.error=0\n"
    "expect c.mark.0=\"Move 3, black: turning point (46% -> 70%). The engine agrees: black wins by "
    "threats: i8 a2 j8 a3 k8\"\n"
    "expect c.mark.1=\"Move 4, white: blunder (30% -> 4%). Better g8: white answers the open "
    "three: g8 a2 f8\"\n"
    "expect c.mark.2=\"Move 6, white: missed win (100% -> 1%). Better j9: white wins by fours\"\n"
    "expect c.mark.3=\"Move 7, black: blunder (99% -> 0%)\"\n"
    "expect c.chance.0=\"Black's win chance: 50%\" c.chance.9=\"Black has a forced win\"\n"
    "expect c.graph.10=4435467777 c.graph.5=44577 c.graph.3=457 c.graph.1=5\n"
    "# r again: the review is stored, OK REVIEW and REVIEWED change nothing\n"
    "sent REVIEW\n"
    "recv 0 OK REVIEW 17\n"
    "recv 0 * REVIEWED 17 ok 9 4\n"
    "expect c.review=ready c.marks=4\n"
    "# another replay: its review is asked afresh; a failed one, asked again\n"
    "sent EXPORT\n"
    "recv 0 = RECORD moves h8\n"
    "recv 0 OK EXPORT 18 text\n"
    "expect c.review=none c.review_id=18 c.marks=0 c.evals=0 c.graph.10=-\n"
    "sent MARKS\n"
    "recv 0 ERR 455 not-reviewed\n"
    "sent REVIEW\n"
    "recv 0 OK REVIEW 18\n"
    "recv 0 * REVIEWED 18 failed 0 0\n"
    "expect c.review=failed c.error=1 c.status=\"The engine could not review this game; r asks "
    "again\"\n"
    "sent REVIEW\n"
    "recv 0 ERR 453 over-limit next at 21:05\n"
    "expect c.review=failed c.error=1 c.status=\"You have used this hour's reviews; try again "
    "later (next at 21:05)\"\n"
    "sent REVIEW\n"
    "recv 0 ERR 506 server-busy\n"
    "expect c.status~=\"The engine is reviewing as many games as it can\"\n"
    "sent MARKS\n"
    "recv 0 ERR 454 private-game\n"
    "expect c.review=refused c.error=1 c.status=\"That game was played in a private room you were "
    "not in\"\n"
    "sent MARKS\n"
    "recv 0 ERR 452 in-game\n"
    "expect c.status=\"No review while you play a game, nor of a game not finished\"\n"
    "sent REVIEW\n"
    "recv 0 ERR 402 bad-argument\n"
    "expect c.status=\"The server has no finished game of that number\"\n";

/* A puzzle (`puzzles`, PROTOCOL.md 5.20) for an account: 456 in the words
 * of next and of daily, the puzzle's board, a refused move given back,
 * the moves and the defence's replies placed, solved with the rating, a
 * retry from the position as opened and unrated, failed with the kept
 * solution, the rating's change, the refusals in words; another
 * puzzle's reply and a SOLVE after the end change nothing. */
static const char puzzle_flow[] =
    "# checks: a puzzle: 456 for next and for daily, its board, a refused move, the replies,\n"
    "# solved and rated, a retry unrated, failed with the solution, the change, errors in words\n"
    "sent HELLO\n"
    "recv 0 * SERVER gomokud 0.2.0 1 chat accounts puzzles\n"
    "recv 0 OK HELLO 1\n"
    "sent LOGIN\n"
    "recv 0 OK LOGIN ann 3kQ9fZ0aLm2Xw8pR7tYc1bN4\n"
    "expect c.puzzle=none c.puzzle_id=0 c.rtext=-\n"
    "sent PUZZLE next\n"
    "recv 0 ERR 456 no-puzzle\n"
    "expect c.puzzle=none c.error=1 c.status=\"No puzzle left for you: you have tried every one, "
    "or none has been made yet\"\n"
    "sent PUZZLE daily\n"
    "recv 0 ERR 456 no-puzzle\n"
    "expect c.status=\"No puzzle yet: puzzles are made from the missed wins of reviewed public "
    "games\"\n"
    "sent PUZZLE next\n"
    "recv 0 OK PUZZLE 17 freestyle 15 vct 5 1500 h8,a1,i8,a15,j9,o1,j10,o15\n"
    "expect c.puzzle=open c.puzzle_id=17 c.pclass=\"VCT: win by fours and threes\" c.pside=black\n"
    "expect c.prule=\"freestyle 15\" c.pplies=5 c.prating=1500 c.pstart=8 c.pmoves=0\n"
    "expect c.pstone.h8=black c.pstone.a1=white c.pstone.o15=white c.pstone.j8=empty\n"
    "expect c.error=0 c.status=\"Puzzle 17: black to move and win\" c.rtext=-\n"
    "# the game's board is not the puzzle's\n"
    "expect room=- moves=0\n"
    "sent SOLVE 17 h8\n"
    "expect c.puzzle=judging c.status=\"h8: the solvers are judging it...\"\n"
    "recv 0 ERR 432 occupied\n"
    "expect c.puzzle=open c.error=1 c.status=\"That point is already taken\" c.pmoves=0\n"
    "sent SOLVE 17 j8\n"
    "recv 0 OK SOLVE 17 more j11 - -\n"
    "expect c.puzzle=open c.pmoves=2 c.pstone.j8=black c.pstone.j11=white\n"
    "expect c.error=0 c.status=\"j8 holds; the defence answers j11. Your move\"\n"
    "sent SOLVE 17 k8\n"
    "recv 0 OK SOLVE 17 more g8 - -\n"
    "sent SOLVE 17 l8\n"
    "recv 0 OK SOLVE 17 solved - 1523? -\n"
    "expect c.puzzle=solved c.pmoves=5 c.pstone.l8=black c.pstone.g8=white c.pline=-\n"
    "expect c.status=\"Solved: l8 makes five!\" c.rtext=\"Your puzzle rating: ~1523\"\n"
    "# the puzzle ended: a SOLVE is not judged (441 says so, the end stays)\n"
    "sent SOLVE 17 m8\n"
    "expect c.puzzle=solved\n"
    "recv 0 ERR 441 wrong-phase\n"
    "expect c.puzzle=solved c.status=\"That puzzle is not open on this connection any more; R "
    "opens it again\"\n"
    "# a retry: the position as opened; not rated\n"
    "sent PUZZLE 17\n"
    "recv 0 OK PUZZLE 17 freestyle 15 vct 5 1502 h8,a1,i8,a15,j9,o1,j10,o15\n"
    "expect c.puzzle=open c.pmoves=0 c.pstone.j8=empty c.prating=1502 c.rtext=-\n"
    "expect c.status=\"Puzzle 17 again: black to move and win\"\n"
    "sent SOLVE 17 k8\n"
    "recv 0 OK SOLVE 18 more a2 - -\n"
    "expect c.puzzle=judging c.pmoves=0\n"
    "recv 0 OK SOLVE 17 failed - - j8,j11,k8,g8,l8\n"
    "expect c.puzzle=failed c.pmoves=1 c.pstone.k8=black c.pline=j8,j11,k8,g8,l8\n"
    "expect c.rtext=\"Not rated: you had tried this puzzle before; only a first try is rated\"\n"
    "expect c.error=1 c.status=\"Failed: after k8 the win is gone; ] steps the solution\"\n"
    "# a VCF puzzle, white to move, failed on a first try: rated, the change from 1523\n"
    "sent PUZZLE next\n"
    "recv 0 OK PUZZLE 18 renju 15 vcf 3 1480 h8,a1,i8,a2,j8,a3,k9\n"
    "expect c.puzzle=open c.pclass=\"VCF: win by fours\" c.pside=white c.prule=\"renju 15\"\n"
    "expect c.pline=- c.status=\"Puzzle 18: white to move and win\"\n"
    "sent SOLVE 18 a5\n"
    "recv 0 OK SOLVE 18 failed - 1490 a4,g8,a5\n"
    "expect c.puzzle=failed c.rtext=\"Your puzzle rating: 1490 (-33)\" c.pline=a4,g8,a5\n"
    "expect c.status=\"Failed: after a5 the win by fours is gone (each move must be a four); ] "
    "steps the solution\"\n"
    "# the refusals\n"
    "sent PUZZLE 19\n"
    "recv 0 OK PUZZLE 19 freestyle 15 vcf 3 1500 h8,a1,i8,a2,j8,a3\n"
    "sent SOLVE 19 k8\n"
    "recv 0 ERR 441 wrong-phase open it first: PUZZLE <id>\n"
    "expect c.puzzle=gone c.error=1 c.status~=\"not open on this connection any more; R opens it "
    "again\"\n"
    "sent PUZZLE 99999\n"
    "recv 0 ERR 402 bad-argument\n"
    "expect c.puzzle=gone c.puzzle_id=19 c.status=\"There is no puzzle of that number\"\n"
    "sent PUZZLE daily\n"
    "recv 0 ERR 506 server-busy\n"
    "expect c.status=\"The solvers are all busy; try again shortly\"\n"
    "sent PUZZLE next\n"
    "recv 0 ERR 452 in-game\n"
    "expect c.status=\"No puzzles while you play a game; finish it first\"\n"
    "sent PUZZLE 19\n"
    "recv 0 OK PUZZLE 19 freestyle 15 vcf 3 1500 h8,a1,i8,a2,j8,a3\n"
    "sent SOLVE 19 k8\n"
    "recv 0 ERR 506 server-busy\n"
    "expect c.puzzle=open c.status=\"The solvers are all busy; try again shortly\"\n"
    "expect pending=0\n";

/* A guest's puzzle: never rated, and the client says why. */
static const char puzzle_guest[] =
    "# checks: a guest's solved puzzle is not rated, and why\n"
    "sent HELLO\n"
    "recv 0 * SERVER gomokud 0.2.0 1 chat puzzles\n"
    "recv 0 OK HELLO 1\n"
    "sent GUEST\n"
    "recv 0 OK GUEST guest7 3kQ9fZ0aLm2Xw8pR7tYc1bN4\n"
    "sent PUZZLE daily\n"
    "recv 0 OK PUZZLE 4 freestyle 15 vcf 3 1500 h8,a1,i8,a2,j8,a3,k8,o15\n"
    "sent SOLVE 4 l8\n"
    "recv 0 OK SOLVE 4 solved - - -\n"
    "expect c.puzzle=solved c.pstone.l8=black\n"
    "expect c.rtext=\"Not rated: a guest has no puzzle rating (an account has one)\"\n";

/* Tournaments (`tournaments`, PROTOCOL.md 5.21): the list (TLIST), a
 * Swiss's snapshot (TWATCH), a join and the countdown, a player who left
 * before the start (TWATCH again), the rounds with my pairing, its game,
 * the results in words, halved points, tie-breaks in their units, shared
 * ranks, a new round replacing the last, the refusals in words, the end
 * with my place, TUNWATCH. */
static const char tourney_swiss[] =
    "# checks: tournaments: the list, a Swiss's snapshot, join, countdown, a player gone\n"
    "# before the start, my pairings and games, results, halved points, tie-breaks, ranks\n"
    "sent HELLO\n"
    "recv 0 * SERVER gomokud 0.2.0 1 chat accounts tournaments\n"
    "recv 0 OK HELLO 1\n"
    "sent GUEST\n"
    "recv 0 OK GUEST ann 3kQ9fZ0aLm2Xw8pR7tYc1bN4\n"
    "expect cap.tournaments=1 c.tlist=0 c.t.id=0 c.t.state=- c.t.next.0=-\n"
    "sent TLIST\n"
    "recv 0 = TOURNEY 4 swiss soon freestyle 15 300+0 none casual people 1796000600 3 0 3 3 "
    "carol Friday Swiss\n"
    "recv 0 = TOURNEY 7 arena running renju 15 180+2 rif rated both 1796000000 60 12 0 9 -\n"
    "recv 0 = TOURNEY 2 robin over standard 15 60+0 none casual people 1795000000 1 3 3 4 bob\n"
    "recv 0 OK TLIST 3\n"
    "expect pending=0 c.tlist=3 c.tlist.0=\"4 Swiss starting soon 3 Friday Swiss\"\n"
    "expect c.tlist.1=\"7 arena under way 9 -\" c.tlist.2=\"2 round robin over 4 -\"\n"
    "# the list again: the old one shows until the new one comes\n"
    "sent TLIST\n"
    "expect c.tlist=3\n"
    "recv 0 OK TLIST 0\n"
    "expect c.tlist=0\n"
    "sent TWATCH 4\n"
    "recv 0 = TOURNEY 4 swiss soon freestyle 15 300+0 none casual people 1796000600 3 0 3 3 "
    "carol Friday Swiss\n"
    "recv 0 = TPLAYER 4 1 carol 1500 0 0,0,0,0 0 active 0\n"
    "recv 0 = TPLAYER 4 1 dave 1500 0 0,0,0,0 0 active 0\n"
    "recv 0 = TPLAYER 4 1 erin 1500 0 0,0,0,0 0 active 0\n"
    "expect c.t.id=4 c.t.ready=0 c.t.n=3\n"
    "recv 0 OK TWATCH 4\n"
    "expect c.t.ready=1 c.t.name=\"Friday Swiss\" c.t.rounds=3 c.t.in=0 c.t.mine=-1 c.t.games=0\n"
    "expect c.t.p.0=\"1= carol 0 0 waiting 0\" c.t.tb.0=\"BH-1=0 BH=0 BH-med=0 SB=0\"\n"
    "expect c.t.when.1796000596=\"starts in 0:04\" c.t.when.1796000000=\"starts in 10:00\"\n"
    "expect c.t.when.1795992000=\"starts in 2:23:20\" c.t.when.1795800000=\"starts in 2d 07:43\"\n"
    "expect c.t.when.1796000601=\"starting now\" c.t.text.1796000596=\"starts in 0:04\"\n"
    "expect c.t.next.1796000596=\"You are not in it: J joins.\"\n"
    "sent TJOIN 4\n"
    "recv 0 OK TJOIN 4\n"
    "recv 0 * TOURNEY 4 swiss soon freestyle 15 300+0 none casual people 1796000600 3 0 3 4 "
    "carol Friday Swiss\n"
    "recv 0 * TPLAYER 4 1 ann 1500 0 0,0,0,0 0 active 0\n"
    "expect c.t.n=4 c.t.p.3=\"1= ann 0 0 waiting 0\" c.t.in=1 c.t.resync=0 c.error=0\n"
    "expect c.status=\"You joined Friday Swiss; your games start by themselves\"\n"
    "expect c.t.next.1796000596=\"You are in: round 1 is paired as it starts. L leaves.\"\n"
    "# erin leaves before the start: nobody names her, the count drops: TWATCH again\n"
    "recv 0 * TOURNEY 4 swiss soon freestyle 15 300+0 none casual people 1796000600 3 0 3 3 "
    "carol Friday Swiss\n"
    "expect c.t.resync=1 c.t.n=4\n"
    "sent TWATCH 4\n"
    "recv 0 = TOURNEY 4 swiss soon freestyle 15 300+0 none casual people 1796000600 3 0 3 3 "
    "carol Friday Swiss\n"
    "recv 0 = TPLAYER 4 1 carol 1500 0 0,0,0,0 0 active 0\n"
    "recv 0 = TPLAYER 4 1 dave 1500 0 0,0,0,0 0 active 0\n"
    "recv 0 = TPLAYER 4 1 ann 1500 0 0,0,0,0 0 active 0\n"
    "recv 0 OK TWATCH 4\n"
    "expect c.t.resync=0 c.t.n=3 c.t.in=1\n"
    "# another event's lines are not this one's\n"
    "recv 0 * TPLAYER 9 1 zed 1500 0 0,0,0,0 0 active 0\n"
    "recv 0 * TGAME 9 1 1 r3 zed yan pending\n"
    "expect c.t.n=3 c.t.games=0\n"
    "# the start: round 1\n"
    "recv 0 * TOURNEY 4 swiss running freestyle 15 300+0 none casual people 1796000600 3 1 3 3 "
    "carol Friday Swiss\n"
    "expect c.status=\"Friday Swiss has started\" c.t.text.1796000700=\"round 1 of 3\"\n"
    "expect c.t.when.1796000700=-\n";

/* The same Swiss's rounds, watched from its first pairing on. */
static const char tourney_rounds[] =
    "# checks: a Swiss's rounds: my pairing, its room and game, results in words, points\n"
    "# halved, tie-breaks in their units, shared ranks, a new round, refusals, the end\n"
    "sent HELLO\n"
    "recv 0 * SERVER gomokud 0.2.0 1 chat accounts tournaments\n"
    "recv 0 OK HELLO 1\n"
    "sent GUEST\n"
    "recv 0 OK GUEST ann 3kQ9fZ0aLm2Xw8pR7tYc1bN4\n"
    "sent TWATCH 4\n"
    "recv 0 = TOURNEY 4 swiss running freestyle 15 300+0 none casual people 1796000600 3 1 3 3 "
    "carol Friday Swiss\n"
    "recv 0 = TPLAYER 4 1 carol 1500 0 0,0,0,0 0 active 0\n"
    "recv 0 = TPLAYER 4 1 dave 1500 0 0,0,0,0 0 active 0\n"
    "recv 0 = TPLAYER 4 1 ann 1500 0 0,0,0,0 0 active 0\n"
    "recv 0 OK TWATCH 4\n"
    "expect c.t.games=0 c.t.in=1 c.t.next.0=\"Waiting for your pairing...\"\n"
    "# my pairing, then its room, its game\n"
    "recv 0 * TGAME 4 1 1 - carol ann pending\n"
    "recv 0 * TGAME 4 1 2 - dave - bye\n"
    "expect c.t.games=2 c.t.g.0=\"1.1 carol ann -: about to start\" c.t.g.1=\"1.2 dave - -: bye\"\n"
    "expect c.t.mine=0 c.t.next.0=\"Round 1: you (white) against carol; the game starts now.\"\n"
    "# the game's START comes before its pairing's room: the pairing is known by its players\n"
    "recv 1000 * START r7 1 carol ann freestyle 15 300+0 none casual 300000 300000\n"
    "expect room=r7 side=white c.t.here=1 c.chat.0=\"* Friday Swiss, round 1, board 1\"\n"
    "expect c.t.g.0=\"1.1 carol ann r7: playing\"\n"
    "recv 1000 * TGAME 4 1 1 r7 carol ann pending\n"
    "recv 1000 * TPLAYER 4 1 carol 1500 0 0,0,0,0 0 playing 0\n"
    "expect c.t.g.0=\"1.1 carol ann r7: playing\" c.t.p.0=\"1= carol 0 0 playing 0\"\n"
    "expect c.t.next.0=\"Round 1: you (white) against carol, under way. Enter shows it.\"\n"

    "recv 2000 * OVER r7 2 white resign -\n"
    "recv 2000 * TGAME 4 1 1 r7 carol ann second\n"
    "recv 2000 * TGAME 4 1 2 - dave - bye\n"
    "expect c.t.g.0=\"1.1 carol ann r7: ann won\"\n"
    "expect c.t.next.0=\"Round 1: you won against carol. The next round is paired when this one "
    "ends.\"\n"
    "# the standings move: ranks shared and alone, points halved, tie-breaks in their units\n"
    "recv 2000 * TPLAYER 4 1 ann 1500 2 0,0,0,0 1 active 0\n"
    "recv 2000 * TPLAYER 4 1 dave 1500 2 0,0,0,0 1 active 0\n"
    "recv 2000 * TPLAYER 4 3 carol 1500 0 2,2,2,4 1 active 0\n"
    "expect c.t.p.0=\"1= dave 1 1 waiting 0\" c.t.p.1=\"1= ann 1 1 waiting 0\"\n"
    "expect c.t.p.2=\"3 carol 0 1 waiting 0\" c.t.tb.2=\"BH-1=1 BH=1 BH-med=1 SB=1\"\n"
    "# round 2 replaces round 1's pairings; a late line of round 1 is not taken\n"
    "recv 3000 * TOURNEY 4 swiss running freestyle 15 300+0 none casual people 1796000600 3 2 3 3 "
    "carol Friday Swiss\n"
    "recv 3000 * TGAME 4 2 1 - dave ann pending\n"
    "recv 3000 * TGAME 4 2 2 - carol - bye\n"
    "recv 3000 * TGAME 4 1 1 r7 carol ann second\n"
    "expect c.t.games=2 c.t.g.0=\"2.1 dave ann -: about to start\" c.t.mine=0 c.t.here=0\n"
    "expect c.t.text.0=\"round 2 of 3\"\n"
    "recv 4000 * TGAME 4 2 1 r9 dave ann draw\n"
    "recv 4000 * TPLAYER 4 1 ann 1500 3 2,5,1,9 2 active 0\n"
    "recv 4000 * TPLAYER 4 2 dave 1500 3 2,5,1,9 2 active 0\n"
    "expect c.t.g.0=\"2.1 dave ann r9: draw\" c.t.p.0=\"1 ann 1.5 2 waiting 0\"\n"
    "expect c.t.tb.0=\"BH-1=1 BH=2.5 BH-med=0.5 SB=2.25\" c.t.p.1=\"2 dave 1.5 2 waiting 0\"\n"
    "expect c.t.next.0=\"Round 2: a draw with dave. The next round is paired when this one "
    "ends.\"\n";

/* The same Swiss's last round and its end, refusals in words, TUNWATCH. */
static const char tourney_end[] =
    "# checks: a Swiss's last round (a forfeit), the refusals in words, the end with my\n"
    "# place, TUNWATCH, an unknown event; a game of mine not the event's\n"
    "sent HELLO\n"
    "recv 0 * SERVER gomokud 0.2.0 1 chat accounts tournaments\n"
    "recv 0 OK HELLO 1\n"
    "sent GUEST\n"
    "recv 0 OK GUEST ann 3kQ9fZ0aLm2Xw8pR7tYc1bN4\n"
    "sent TWATCH 4\n"
    "recv 0 = TOURNEY 4 swiss running freestyle 15 300+0 none casual people 1796000600 3 2 3 3 "
    "carol Friday Swiss\n"
    "recv 0 = TPLAYER 4 1 ann 1500 3 2,5,1,9 2 active 0\n"
    "recv 0 = TPLAYER 4 2 dave 1500 3 2,5,1,9 2 active 0\n"
    "recv 0 = TPLAYER 4 3 carol 1500 0 2,2,2,4 1 active 0\n"
    "recv 0 = TGAME 4 2 1 r9 dave ann draw\n"
    "recv 0 = TGAME 4 2 2 - carol - bye\n"
    "recv 0 OK TWATCH 4\n"
    "expect c.t.games=2 c.t.mine=0 c.t.p.0=\"1 ann 1.5 2 waiting 0\"\n"
    "# a game of mine, not the event's, says nothing of it\n"
    "recv 500 * START r8 1 ann carol freestyle 15 300+0 none casual 300000 300000\n"
    "expect c.t.here=0 c.chat.0~=\"Game started: ann (black) vs carol\" c.t.g.0~=\"r9\"\n"
    "# the last round: carol did not come\n"
    "recv 5000 * TOURNEY 4 swiss running freestyle 15 300+0 none casual people 1796000600 3 3 3 3 "
    "carol Friday Swiss\n"
    "recv 5000 * TGAME 4 3 1 - ann carol pending\n"
    "expect c.t.next.0=\"Round 3: you (black) against carol; the game starts now.\"\n"
    "recv 5000 * TGAME 4 3 1 - ann carol second-forfeit\n"
    "expect c.t.g.0=\"3.1 ann carol -: carol forfeited\"\n"
    "expect c.t.next.0=\"Round 3: you won: carol forfeited. That was the last round.\"\n"
    "sent TJOIN 4\n"
    "recv 5000 ERR 458 tourney-closed it has started\n"
    "expect c.error=1 c.status=\"Too late to join: it has started, it is over or it is full (it "
    "has started)\"\n"
    "recv 5000 * TPLAYER 4 1 ann 1500 5 2,5,1,9 3 active 0\n"
    "recv 5000 * TOURNEY 4 swiss over freestyle 15 300+0 none casual people 1796000600 3 3 3 3 "
    "carol Friday Swiss\n"
    "expect c.status=\"Friday Swiss is over\" c.t.text.0=\"over\" c.t.p.0=\"1 ann 2.5 3 waiting "
    "0\"\n"
    "expect c.t.next.0=\"It is over: you finished 1 of 3.\"\n"
    "sent TLEAVE 4\n"
    "recv 5000 ERR 458 tourney-closed it is over\n"
    "expect c.status=\"It is over: there is nothing to leave (it is over)\"\n"
    "sent TUNWATCH 4\n"
    "recv 5000 OK TUNWATCH 4\n"
    "expect c.t.id=0 c.t.n=0 c.t.games=0 c.t.state=-\n"
    "sent TWATCH 99\n"
    "recv 5000 ERR 457 no-tourney no tournament with that id\n"
    "expect c.error=1 c.status~=\"There is no such tournament\" c.t.id=0 pending=0\n";

/* An arena (raw points, the fire of a streak, the time left, games kept
 * newest last with my last result), a round robin's rounds by its players
 * and its tie-breaks, a leave before the start, 459 and 430 in words. */
static const char tourney_arena_robin[] =
    "# checks: an arena's points, streak, time left and games; a round robin's rounds and\n"
    "# tie-breaks; leaving before the start; the refusals in words\n"
    "sent HELLO\n"
    "recv 0 * SERVER gomokud 0.2.0 1 chat accounts tournaments\n"
    "recv 0 OK HELLO 1\n"
    "sent GUEST\n"
    "recv 0 OK GUEST ann 3kQ9fZ0aLm2Xw8pR7tYc1bN4\n"
    "sent TWATCH 7\n"
    "recv 0 = TOURNEY 7 arena running renju 15 180+2 rif casual both 1796000000 60 12 0 3 -\n"
    "recv 0 = TPLAYER 7 1 bob 1620 8 1620 4 playing 3\n"
    "recv 0 = TPLAYER 7 2 ann 1500 4 1500 2 active 0\n"
    "recv 0 = TPLAYER 7 3 cy 1400 0 1400 2 playing 0\n"
    "recv 0 = TGAME 7 12 1 r40 bob cy pending\n"
    "recv 0 OK TWATCH 7\n"
    "expect c.t.rounds=0 c.t.p.0=\"1 bob 8 4 playing 3\" c.t.tb.0=\"Rating=1620\"\n"
    "expect c.t.when.1796001000=\"43:20 left\" c.t.text.1796001000=\"43:20 left\"\n"
    "expect c.t.when.1796004000=\"last games\" c.t.mine=-1\n"
    "expect c.t.next.1796001000=\"Waiting for your pairing...\"\n"
    "recv 0 * TGAME 7 13 1 - ann bob pending\n"
    "expect c.t.games=2 c.t.g.1=\"13.1 ann bob -: about to start\" c.t.mine=1\n"
    "recv 0 * START r41 1 ann bob renju 15 180+2 rif casual 180000 180000\n"
    "expect c.t.here=1 c.chat.0=\"* arena: your next game\" c.t.g.1~=\"r41: playing\"\n"
    "recv 0 * TGAME 7 13 1 r41 ann bob first\n"
    "recv 0 * TGAME 7 12 1 r40 bob cy first\n"
    "expect c.t.games=2 c.t.g.0=\"12.1 bob cy r40: bob won\" c.t.g.1=\"13.1 ann bob r41: ann "
    "won\"\n"
    "expect c.t.next.1796001000=\"Your last game: you won against bob. Waiting for your next "
    "opponent...\"\n"
    "recv 0 * TPLAYER 7 2 ann 1500 6 1500 3 active 1\n"
    "recv 0 * TPLAYER 7 1 bob 1620 8 1620 5 active 0\n"
    "expect c.t.p.0=\"1 bob 8 5 waiting 0\" c.t.p.1=\"2 ann 6 3 waiting 1\"\n"
    "# cy climbs past both: the order follows the ranks as each line comes\n"
    "recv 0 * TPLAYER 7 1 cy 1400 10 1400 4 active 2\n"
    "expect c.t.p.0=\"1= bob 8 5 waiting 0\" c.t.p.1=\"1= cy 10 4 waiting 2\"\n"
    "expect c.t.p.2=\"2 ann 6 3 waiting 1\"\n"
    "recv 0 * TPLAYER 7 2 bob 1620 8 1620 5 active 0\n"
    "recv 0 * TPLAYER 7 3 ann 1500 6 1500 3 active 1\n"
    "expect c.t.p.0=\"1 cy 10 4 waiting 2\" c.t.p.1=\"2 bob 8 5 waiting 0\"\n"
    "expect c.t.p.2=\"3 ann 6 3 waiting 1\"\n"
    "sent TLEAVE 7\n"
    "recv 0 OK TLEAVE 7\n"
    "recv 0 * TPLAYER 7 3 ann 1500 6 1500 3 withdrawn 1\n"
    "expect c.t.in=0 c.t.next.1796001000=\"You left it: J joins again.\"\n"
    "expect c.t.next.1796004000=\"You left it: you are paired no more.\"\n"
    "# a round robin of 5 (a bye a round) over two cycles: 10 rounds\n"
    "sent TWATCH 2\n"
    "recv 0 = TOURNEY 2 robin soon standard 15 60+0 none rated people 1796000600 2 0 10 5 bob\n"
    "recv 0 = TPLAYER 2 1 bob 1620 0 0,0 0 active 0\n"
    "recv 0 = TPLAYER 2 1 cy 1400 0 0,0 0 active 0\n"
    "recv 0 = TPLAYER 2 1 ann 1500 0 0,0 0 active 0\n"
    "recv 0 = TPLAYER 2 1 dan 1500 0 0,0 0 active 0\n"
    "recv 0 = TPLAYER 2 1 eve 1500 0 0,0 0 active 0\n"
    "recv 0 OK TWATCH 2\n"
    "expect c.t.id=2 c.t.rounds=10 c.t.n=5 c.t.games=0 c.t.in=1 c.t.text.1796000000=\"starts in "
    "10:00\"\n"
    "recv 0 * TPLAYER 2 1 dan 1500 5 13,3 3 active 0\n"
    "expect c.t.tb.3=\"SB=3.25 Wins=3\" c.t.p.3=\"1= dan 2.5 3 waiting 0\"\n"
    "sent TLEAVE 2\n"
    "recv 0 OK TLEAVE 2\n"
    "expect c.t.n=4 c.t.in=0 c.status=\"You left round robin\"\n"
    "recv 0 * TOURNEY 2 robin soon standard 15 60+0 none rated people 1796000600 2 0 6 4 bob\n"
    "expect c.t.resync=0 c.t.rounds=6\n"
    "sent TJOIN 2\n"
    "recv 0 ERR 459 not-eligible a rated tournament is for accounts\n"
    "expect c.error=1 c.status~=\"Not open to you: a rated tournament takes accounts\"\n"
    "sent TLEAVE 2\n"
    "recv 0 ERR 430 not-a-player you are not playing in it\n"
    "expect c.status=\"You are not playing in it (you are not playing in it)\"\n";

static const struct {
	const char *name, *text;
} inline_transcripts[] = {
	{ "review", review_flow },
	{ "puzzle", puzzle_flow },
	{ "puzzle_guest", puzzle_guest },
	{ "tourney_swiss", tourney_swiss },
	{ "tourney_rounds", tourney_rounds },
	{ "tourney_end", tourney_end },
	{ "tourney_arena_robin", tourney_arena_robin },
	{ "opening_rif", rif_game },
	{ "opening_yamaguchi_snapshot", yamaguchi_snapshot },
	{ "opening_pro_areas", pro_areas },
};
enum { INLINE_N = sizeof inline_transcripts / sizeof inline_transcripts[0] };

static void
run_inline(void **state)
{
	const char *text = *state;
	const char *name = "?";
	for (int i = 0; i < INLINE_N; i++)
		if (inline_transcripts[i].text == text)
			name = inline_transcripts[i].name;
	FILE *f = fmemopen((void *)(uintptr_t)text, strlen(text), "r");
	if (!f)
		fail_msg("fmemopen: %s", name);
	run_lines(f, name);
}

static int
by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int
main(int argc, char **argv)
{
	const char *dir = getenv("MODEL_DIR") ? getenv("MODEL_DIR") : "tests/model";
	static char *paths[FILES_MAX];
	static struct CMUnitTest tests[FILES_MAX + INLINE_N];
	int n = 0;
	if (argc > 1) {
		for (int i = 1; i < argc && n < FILES_MAX; i++)
			paths[n++] = argv[i];
	} else {
		DIR *d = opendir(dir);
		if (!d) {
			fprintf(
			    stderr, "test_client_model: no folder %s (run from the top)\n", dir);
			return 1;
		}
		struct dirent *e;
		while ((e = readdir(d)) != NULL && n < FILES_MAX) {
			size_t len = strlen(e->d_name);
			if (len < 5 || strcmp(e->d_name + len - 4, ".txt") != 0)
				continue;
			size_t sz = strlen(dir) + len + 2;
			paths[n] = malloc(sz);
			if (!paths[n])
				return 1;
			snprintf(paths[n++], sz, "%s/%s", dir, e->d_name);
		}
		closedir(d);
		qsort(paths, (size_t)n, sizeof paths[0], by_name);
	}
	if (n == 0) {
		fprintf(stderr, "test_client_model: no transcripts in %s\n", dir);
		return 1;
	}
	for (int i = 0; i < n; i++) {
		const char *slash = strrchr(paths[i], '/');
		tests[i] = (struct CMUnitTest){ .name = slash ? slash + 1 : paths[i],
			.test_func = run_transcript,
			.initial_state = paths[i] };
	}
	/* the inline ones run with the folder's (not with named files) */
	for (int i = 0; i < INLINE_N && argc <= 1; i++)
		tests[n++] = (struct CMUnitTest){ .name = inline_transcripts[i].name,
			.test_func = run_inline,
			.initial_state = (void *)(uintptr_t)inline_transcripts[i].text };
	return _cmocka_run_group_tests("test_client_model", tests, (size_t)n, NULL, NULL);
}
