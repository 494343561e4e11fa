/*
 * openbot.c: the opening rules' acts, decided by the engine (openbot.h).
 *
 * Every decision rests on the engine's score of a position ("v", black's
 * view: positive when black is better), and one policy links the number of
 * fifth-move offers to it: black, who offers n fifth moves of which white
 * takes the worst for black, gets about v - STEP * (n - 1) (STEP is
 * OPENBOT_OFFER_STEP).
 *   place: the first three stones of the renju rules are a canonical
 *     opening from the lists below; a stone after which the other player
 *     chooses the colours (swap's and swap2's stones, taraguchi's fifth
 *     in its first branch) is the engine's candidate that leaves the
 *     position closest to even; any other stone is the engine's best move
 *     among the points the stage allows.
 *   colour: the colour the engine's score favours, after the offers still
 *     to come (above); within the level's noise of even, the seed decides.
 *     Swap2's second player, offered to place two stones, does so when the
 *     position is within SWAP2_EVEN of even, else takes the better colour.
 *   declare: the n that makes the game even for black by the policy:
 *     n = 1 + v / STEP, clamped to the range the machine allows. Whoever
 *     declares (yamaguchi's opener, soosorv's white) faces a swap next, so
 *     an even game is what they want.
 *   offer: maximin. The candidates are the engine's multi-PV moves for
 *     black, each scored by the search as black's value after white's best
 *     reply, then the nearby points the stage allows, scored the same way
 *     by a search kept to them; the n best that are pairwise not the same
 *     by symmetry are offered (white takes the worst of them, so the best n
 *     maximise it). Points in index order fill up what no search reached.
 *   choose: a search kept to the offers scores each; the chooser takes the
 *     one worst for black when white, best when black.
 *   branch (taraguchi-10): ten offers only when black's value after them,
 *     v - 9 * STEP, is still not negative; otherwise one fifth move.
 * Each act is checked with opening_apply on a copy before it is returned;
 * if the searches' choice fails (it should not), a plain legal act of the
 * stage is built instead, so a bot never stalls.
 */
#include "engine/openbot.h"

#include <stdlib.h>
#include <string.h>

#include "engine/skill.h"
#include "engine/timeman.h"

enum {
	STEP = OPENBOT_OFFER_STEP,
	SWAP2_EVEN = 25, /* swap2: the colours matter less than this: place two */
	MAX_CAND = 2 * ENGINE_MAX_NBEST,
};

/*
 * The canonical openings a bot opens with (indices into renju_opening()).
 * The renju literature counts some of the 26 as sure wins for black (under
 * the RIF's two offers the swap then hands the game to whoever takes
 * black: Kagetsu, Ugetsu, Kosei, Hogetsu, Ungetsu, Shogetsu...), and a few
 * as white's (Ryusei, Suisei, Myojo). BALANCED keeps the ones commonly
 * reported as playable for both sides; where the offers can be many
 * (yamaguchi, soosorv-8: black declares or faces a declared number) the
 * strong ones are fair too, the number balancing them. Kinsei and Chosei
 * (unclear standing) and white's three are left to the weak levels, 1 to
 * 3, which open with any of the 26. The lists follow the openings'
 * reputation in published play; they are not measured here (self-play of
 * each opening under each rule would be the better source).
 */
static const int8_t balanced[] = { 0 /* D1 Kansei */, 1 /* D2 Keigetsu */, 2 /* D3 Sosei */,
	4 /* D5 Zangetsu */, 8 /* D9 Kyugetsu */, 9 /* D10 Shingetsu */, 10 /* D11 Zuisei */,
	11 /* D12 Sangetsu */, 12 /* D13 Yusei */, 14 /* I2 Kyogetsu */, 16 /* I4 Suigetsu */,
	20 /* I8 Rangetsu */, 21 /* I9 Gingetsu */, 23 /* I11 Shagetsu */, 24 /* I12 Meigetsu */ };
static const int8_t strong[] = { 3 /* D4 Kagetsu */, 5 /* D6 Ugetsu */, 7 /* D8 Shogetsu */,
	15 /* I3 Kosei */, 18 /* I6 Ungetsu */, 19 /* I7 Hogetsu */ };

typedef struct {
	engine_t *e;
	const opening_t *o;
	int actor;
	const openbot_limits_t *l;
	const skill_t *sk;
	int64_t deadline_us; /* 0: no time limit */
	int nsearch;
	const char *why;
} bot_t;

typedef struct {
	move_t m;
	int v; /* black's view */
} cand_t;

static uint32_t
mix(uint32_t x)
{
	x ^= x >> 16;
	x *= 0x7feb352dU;
	x ^= x >> 15;
	x *= 0x846ca68bU;
	x ^= x >> 16;
	return x;
}

/* A number below n from the seed and a salt. */
static int
draw(const bot_t *b, uint32_t salt, int n)
{
	return n > 0
	    ? (int)(mix(b->l->seed * 2654435761U + salt * 40503U + b->o->pos.nmoves) % (uint32_t)n)
	    : 0;
}

/* Searches p (the side to move's turn), kept to only[0..nonly) if only;
 * the time left is shared out as the searches go. 0, or -1: no move. */
static int
run(bot_t *b, const position_t *p, const move_t *only, int nonly, int nbest, engine_result_t *r)
{
	engine_limits_t l = engine_default_limits();

	l.level = b->l->level;
	l.seed = b->l->seed + (uint32_t)b->nsearch * 7919U;
	l.max_depth = b->l->max_depth;
	l.max_nodes = b->l->max_nodes;
	l.eval = b->l->eval;
	l.stop = b->l->stop;
	l.nbest = nbest;
	l.only = only;
	l.nonly = nonly;
	if (b->deadline_us) {
		int64_t left = (b->deadline_us - tm_now_us()) / 1000;
		int ms = left > 2 ? (int)(left / 2) : 1;
		l.soft_ms = l.hard_ms = ms;
	}
	b->nsearch++;
	return engine_search(
	    b->e, (rule_t)p->rule, p->size, p->moves, p->nmoves, &l, NULL, NULL, r);
}

static int
black_view(const position_t *p, int score)
{
	return pos_to_move(p) == STONE_BLACK ? score : -score;
}

/* The engine's score of p, black's view (0 when it finds no move). */
static int
value(bot_t *b, const position_t *p)
{
	engine_result_t r;
	return run(b, p, NULL, 0, 1, &r) == 0 ? black_view(p, r.score) : 0;
}

/* The fifth-move offers still to come after this stage, for the colour
 * decisions: black will get about v - STEP * (n - 1). */
static int
offers_ahead(const opening_t *o)
{
	switch (o->rule) {
	case ORULE_RIF:
		return o->pos.nmoves < 5 ? 2 : 0;
	case ORULE_YAMAGUCHI:
	case ORULE_SOOSORV8:
		return o->pos.nmoves < 5 ? o->declared : 0;
	default:
		return 0;
	}
}

static int
after_offers(int v, int n)
{
	return n > 1 ? v - STEP * (n - 1) : v;
}

/* The act, if the machine takes it. */
static int
accepted(const bot_t *b, const opening_act_t *a)
{
	opening_t copy = *b->o;
	return opening_apply(&copy, b->actor, a) == OERR_OK;
}

static int
is_renju_rule(int r)
{
	return r == ORULE_RIF || r == ORULE_YAMAGUCHI || r == ORULE_SOOSORV8 ||
	    r == ORULE_TARAGUCHI10;
}

/* (x, y) about the centre c by symmetry k of the square. */
static void
sym(int k, int x, int y, int *tx, int *ty)
{
	int a = k & 4 ? y : x, c = k & 4 ? x : y;
	*tx = k & 1 ? -a : a;
	*ty = k & 2 ? -c : c;
}

/* The openings the bot may open with under its rule and level, into
 * out[RENJU_OPENINGS]; the count. */
static int
opening_pool(const bot_t *b, int8_t *out)
{
	int n = 0;

	if (b->l->level <= 3) {
		for (int i = 0; i < RENJU_OPENINGS; i++)
			out[n++] = (int8_t)i;
		return n;
	}
	for (size_t k = 0; k < sizeof balanced; k++)
		out[n++] = balanced[k];
	if (b->o->rule == ORULE_YAMAGUCHI || b->o->rule == ORULE_SOOSORV8)
		for (size_t k = 0; k < sizeof strong; k++)
			out[n++] = strong[k];
	return n;
}

/* The second or third stone of a renju rule: towards a canonical opening
 * of the bot's list. MOVE_NONE when none fits. */
static move_t
canonical_stone(bot_t *b)
{
	const position_t *p = &b->o->pos;
	int c = (p->size - 1) / 2;
	move_t pts[RULES_CELLS], fit[RULES_CELLS];
	int8_t pool[RENJU_OPENINGS];
	int n = opening_area(b->o, pts), nfit = 0, npool = opening_pool(b, pool);

	if (p->nmoves == 1) {
		/* white next to the centre: direct or indirect, as the opening
		 * the seed picks, in one of the 8 orientations */
		const renju_opening_t *ro = renju_opening(pool[draw(b, 1, npool)]);
		int tx, ty;
		sym(draw(b, 2, 8), ro->wx, ro->wy, &tx, &ty);
		move_t m = rules_move(c + tx, c + ty);
		b->why = "canonical";
		return opening_allowed(b->o, m) ? m : MOVE_NONE;
	}
	for (int k = 0; k < n; k++) {
		position_t q = *p;
		if (pos_play(&q, pts[k]) != LEGAL_OK)
			continue;
		int i = renju_opening_find(&q), ok = 0;
		for (int j = 0; j < npool && !ok; j++)
			ok = pool[j] == i;
		if (ok)
			fit[nfit++] = pts[k];
	}
	b->why = "canonical";
	return nfit ? fit[draw(b, 3, nfit)] : MOVE_NONE;
}

/* Whether the stone placed now is followed by the other player's colour
 * choice (so the placer wants an even position). */
static int
balancing_stone(const opening_t *o)
{
	switch (o->rule) {
	case ORULE_SWAP:
		return 1;
	case ORULE_SWAP2:
		return o->pos.nmoves < 5;
	case ORULE_TARAGUCHI10:
		return o->pos.nmoves == 4; /* the fifth of the first branch */
	default:
		return 0;
	}
}

/* The distance from m to the nearest stone of p (99 on an empty board). */
static int
near_stones(const position_t *p, move_t m)
{
	int best = 99;
	for (int i = 0; i < p->nmoves; i++) {
		int dx = abs(rules_x(m) - rules_x(p->moves[i]));
		int dy = abs(rules_y(m) - rules_y(p->moves[i]));
		int d = dx > dy ? dx : dy;
		if (d < best)
			best = d;
	}
	return best;
}

/* The points the stage allows within dist of a stone (every allowed one
 * if the board is empty); the count. */
static int
nearby(const opening_t *o, int dist, move_t *out)
{
	move_t pts[RULES_CELLS];
	int n = opening_area(o, pts), k = 0;
	for (int i = 0; i < n; i++)
		if (o->pos.nmoves == 0 || near_stones(&o->pos, pts[i]) <= dist)
			out[k++] = pts[i];
	return k;
}

static int
by_value_desc(const void *a, const void *b)
{
	const cand_t *x = a, *y = b;
	return (x->v < y->v) - (x->v > y->v);
}

/*
 * Candidate stones of the side to move among the points the stage allows,
 * each with the search's value (black's view), best for the side to move
 * first: the multi-PV of a search kept to the allowed points near the
 * stones (an unrestricted one when the stage allows any point). Returns
 * the count.
 */
static int
candidates(bot_t *b, cand_t *out, int max)
{
	const position_t *p = &b->o->pos;
	move_t pts[RULES_CELLS];
	engine_result_t r;
	int n = nearby(b->o, 2, pts), k = 0;

	if (n == 0)
		n = opening_area(b->o, pts);
	if (n == 0 || run(b, p, pts, n, max < ENGINE_MAX_NBEST ? max : ENGINE_MAX_NBEST, &r) < 0)
		return 0;
	for (int i = 0; i < r.ncand && k < max; i++)
		if (opening_allowed(b->o, r.cand[i].move)) {
			out[k].m = r.cand[i].move;
			out[k++].v = black_view(p, r.cand[i].score);
		}
	return k;
}

/* The stone of a PLACE (or swap2's SWAP_OR_PLACE) stage. */
static move_t
place_stone(bot_t *b)
{
	const opening_t *o = b->o;
	const position_t *p = &o->pos;
	move_t pts[RULES_CELLS], m = MOVE_NONE;
	int n = opening_area(o, pts);

	if (n == 1) {
		b->why = "the only point";
		return pts[0];
	}
	if (is_renju_rule(o->rule) && p->nmoves < 3 && (m = canonical_stone(b)) != MOVE_NONE)
		return m;
	if (p->nmoves == 0) {
		/* an empty board, anywhere: near the centre */
		int c = (p->size - 1) / 2;
		m = rules_move(c - 1 + draw(b, 4, 3), c - 1 + draw(b, 5, 3));
		b->why = "near the centre";
		return opening_allowed(o, m) ? m : pts[n / 2];
	}
	cand_t cand[ENGINE_MAX_NBEST];
	int nc = candidates(b, cand, balancing_stone(o) ? 8 : 1);
	if (nc == 0)
		return MOVE_NONE;
	if (!balancing_stone(o)) {
		b->why = "best move";
		return cand[0].m;
	}
	/* the candidate that leaves the game closest to even; the seed
	 * among those as close within the level's noise */
	int best = 0, noise = b->sk->noise / 4, close[ENGINE_MAX_NBEST], nclose = 0;
	for (int i = 1; i < nc; i++)
		if (abs(cand[i].v) < abs(cand[best].v))
			best = i;
	for (int i = 0; i < nc; i++)
		if (abs(cand[i].v) <= abs(cand[best].v) + noise)
			close[nclose++] = i;
	b->why = "evening move";
	return cand[close[draw(b, 6, nclose)]].m;
}

/* The colour to take: the one the score v (black's view, offers counted)
 * favours; within the level's noise of even, the seed's. */
static stone_t
better_colour(bot_t *b, int v)
{
	int noise = b->sk->noise / 4;
	b->why = "evaluation";
	if (abs(v) <= noise)
		return draw(b, 7, 2) ? STONE_BLACK : STONE_WHITE;
	return v > 0 ? STONE_BLACK : STONE_WHITE;
}

/*
 * The offers: maximin over the candidates. Fills moves[0..n) and returns
 * how many it found (fewer when the searches reached too few points: the
 * caller fills up).
 */
static int
offers(bot_t *b, int n, move_t *moves)
{
	const opening_t *o = b->o;
	const position_t *p = &o->pos;
	cand_t cand[MAX_CAND];
	move_t pts[RULES_CELLS], rest[RULES_CELLS];
	engine_result_t r;
	int nc = 0, k = 0;

	if (pos_to_move(p) != STONE_BLACK)
		return 0;
	nc = candidates(b, cand, ENGINE_MAX_NBEST);
	/* more when symmetry or the search's width left too few: the nearby
	 * points not yet scored, by a second search kept to them */
	int np = nearby(o, 3, pts), nrest = 0;
	for (int i = 0; i < np; i++) {
		int seen = 0;
		for (int j = 0; j < nc && !seen; j++)
			seen = cand[j].m == pts[i];
		if (!seen)
			rest[nrest++] = pts[i];
	}
	if (nrest > 0 && run(b, p, rest, nrest, ENGINE_MAX_NBEST, &r) == 0)
		for (int i = 0; i < r.ncand && nc < MAX_CAND; i++) {
			cand[nc].m = r.cand[i].move;
			cand[nc++].v = black_view(p, r.cand[i].score);
		}
	qsort(cand, (size_t)nc, sizeof cand[0], by_value_desc);
	for (int i = 0; i < nc && k < n; i++) {
		int ok = opening_allowed(o, cand[i].m);
		for (int j = 0; j < k && ok; j++)
			ok = moves[j] != cand[i].m && !opening_symmetric(p, moves[j], cand[i].m);
		if (ok)
			moves[k++] = cand[i].m;
	}
	b->why = "maximin";
	return k;
}

/* Fills moves[k..n) with allowed points in index order, none the same as
 * another by symmetry; the count reached. */
static int
fill_offers(const opening_t *o, move_t *moves, int k, int n)
{
	move_t pts[RULES_CELLS];
	int np = opening_area(o, pts);
	for (int i = 0; i < np && k < n; i++) {
		int ok = 1;
		for (int j = 0; j < k && ok; j++)
			ok = moves[j] != pts[i] && !opening_symmetric(&o->pos, moves[j], pts[i]);
		if (ok)
			moves[k++] = pts[i];
	}
	return k;
}

/* The offered fifth move the chooser takes. */
static move_t
choose(bot_t *b)
{
	const opening_t *o = b->o;
	const position_t *p = &o->pos;
	engine_result_t r;
	int sign = opening_colour_of(o, b->actor) == STONE_BLACK ? 1 : -1;

	b->why = "evaluation";
	if (run(b, p, o->offers, o->noffers, o->noffers, &r) < 0 || r.ncand == 0)
		return o->offers[draw(b, 8, o->noffers)];
	int best = 0;
	for (int i = 1; i < r.ncand; i++)
		if (sign * black_view(p, r.cand[i].score) >
		    sign * black_view(p, r.cand[best].score))
			best = i;
	return r.cand[best].move;
}

/* A plain legal act of the stage, searched for nothing: the fallback. */
static void
plain_act(const bot_t *b, opening_act_t *a)
{
	const opening_t *o = b->o;
	move_t pts[RULES_CELLS];
	int n, lo, hi;

	memset(a, 0, sizeof *a);
	switch (o->stage) {
	case OSTAGE_SWAP:
		a->kind = OACT_COLOUR;
		a->arg = STONE_BLACK;
		break;
	case OSTAGE_DECLARE:
		opening_declare_range(o, &lo, &hi);
		a->kind = OACT_DECLARE;
		a->n = (uint8_t)lo;
		break;
	case OSTAGE_OFFER:
		a->kind = OACT_OFFER;
		a->n = (uint8_t)fill_offers(o, a->moves, 0, o->declared);
		break;
	case OSTAGE_CHOOSE:
		a->kind = OACT_CHOOSE;
		a->moves[0] = o->offers[0];
		break;
	case OSTAGE_BRANCH:
		a->kind = OACT_BRANCH;
		a->arg = OBRANCH_ONE;
		break;
	default: /* PLACE, SWAP_OR_PLACE */
		n = opening_area(o, pts);
		a->kind = OACT_PLACE;
		a->moves[0] = n > 0 ? pts[n / 2] : MOVE_NONE;
		break;
	}
}

/* The searched act of the stage. */
static void
decide(bot_t *b, opening_act_t *a)
{
	const opening_t *o = b->o;
	const position_t *p = &o->pos;
	int v, lo, hi;

	memset(a, 0, sizeof *a);
	switch (o->stage) {
	case OSTAGE_SWAP:
		a->kind = OACT_COLOUR;
		a->arg = (uint8_t)better_colour(b, after_offers(value(b, p), offers_ahead(o)));
		break;
	case OSTAGE_SWAP_OR_PLACE:
		v = value(b, p);
		if (abs(v) > SWAP2_EVEN) {
			a->kind = OACT_COLOUR;
			a->arg = (uint8_t)better_colour(b, v);
			break;
		}
		a->kind = OACT_PLACE;
		a->moves[0] = place_stone(b);
		break;
	case OSTAGE_DECLARE:
		opening_declare_range(o, &lo, &hi);
		v = value(b, p);
		v = 1 + (v > 0 ? v / STEP : 0);
		a->kind = OACT_DECLARE;
		a->n = (uint8_t)(v < lo ? lo : v > hi ? hi : v);
		b->why = "evaluation";
		break;
	case OSTAGE_OFFER:
		a->kind = OACT_OFFER;
		a->n = (uint8_t)offers(b, o->declared, a->moves);
		if (a->n < o->declared)
			a->n = (uint8_t)fill_offers(o, a->moves, a->n, o->declared);
		break;
	case OSTAGE_CHOOSE:
		a->kind = OACT_CHOOSE;
		a->moves[0] = choose(b);
		break;
	case OSTAGE_BRANCH:
		a->kind = OACT_BRANCH;
		v = value(b, p);
		a->arg = after_offers(v, 10) >= 0 ? OBRANCH_TEN : OBRANCH_ONE;
		b->why = "evaluation";
		break;
	default:
		a->kind = OACT_PLACE;
		a->moves[0] = place_stone(b);
		break;
	}
}

openbot_limits_t
openbot_default_limits(void)
{
	openbot_limits_t l;
	memset(&l, 0, sizeof l);
	l.level = 10;
	return l;
}

int
openbot_decide(engine_t *e, const opening_t *o, int actor, const openbot_limits_t *l,
    opening_act_t *out, const char **why)
{
	openbot_limits_t def = openbot_default_limits();
	bot_t b;

	if (opening_done(o) || actor != o->actor)
		return -1;
	memset(&b, 0, sizeof b);
	b.e = e;
	b.o = o;
	b.actor = actor;
	b.l = l ? l : &def;
	b.sk = skill_of(b.l->level);
	b.deadline_us = b.l->soft_ms > 0 ? tm_now_us() + (int64_t)b.l->soft_ms * 1000 : 0;
	decide(&b, out);
	if (!accepted(&b, out)) {
		plain_act(&b, out);
		b.why = "fallback";
		if (!accepted(&b, out)) {
			/* a stone stage with an area the index order missed: any
			 * allowed point (opening_area lists them all) */
			move_t pts[RULES_CELLS];
			int n = opening_area(o, pts);
			for (int i = 0; i < n && !accepted(&b, out); i++)
				out->moves[0] = pts[i];
		}
	}
	if (why)
		*why = b.why ? b.why : "evaluation";
	return 0;
}
