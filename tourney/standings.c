/*
 * standings.c: points, tie-breaks and ranks (standings.h).
 *
 * FIDE Handbook C.07, Tie-Break Regulations (2023), as followed here:
 *   - 8.1 Buchholz: the sum of the scores of a player's opponents.
 *   - 9.1 Sonneborn-Berger: the sum, over the player's games, of each
 *     opponent's score times the points the player scored against them.
 *   - 7.1 Number of wins: games won, unplayed wins included (byes of a round
 *     robin are no games here, so none are counted).
 *   - 14.1 Cut-1: the least significant value is cut; 14.3 Median1: the
 *     least and then the most significant values are cut.
 *   - 16 Unplayed rounds in Swiss tournaments. 16.2 sorts them: those the
 *     player was there for (a pairing-allocated bye, a forfeit win) and
 *     the voluntarily unplayed rounds (VUR, 16.2.5: a forfeit loss, both
 *     forfeiting, no game at all). 16.3: an opponent's score counts their
 *     unplayed rounds as scored, except that (16.3.2) the VURs without an
 *     opponent after the last round the opponent was there for (a
 *     withdrawal) are evaluated as draws. 16.4: each of a player's own unplayed rounds
 *     counts as a game against a dummy opponent with the player's own
 *     points, the result being what the player scored that round. 16.5:
 *     Cut-1 and Median1 cut a VUR before any other value.
 * A round robin's unplayed games are counted as played against their
 * scheduled opponent, with no dummy, and its byes (the Berger dummy's
 * games) are no games at all.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "tourney/arena.h"
#include "tourney/standings.h"

/* What the walk through a player's rounds gathers. */
struct acc {
	int there; /* the last round not voluntarily unplayed (16.2) */
	int games; /* games (byes included) in the rounds counted */
	int late;  /* of them, those after `there` */
	int adj;   /* points as an opponent's score (16.3) */
	int lo;    /* the lowest Buchholz value */
	int hi1;   /* the highest */
	int hi2;   /* the second highest (a second instance of hi1 too) */
	int nval;  /* Buchholz values counted */
	int vur;   /* voluntarily unplayed rounds */
};

/* The points p scored in g, a finished game or bye with p in it. */
static int
got(const struct tourney_game *g, int p)
{
	return tourney_points(g, p);
}

/* Whether g, finished, is a voluntarily unplayed round for p (16.2): not
 * played and not won. */
static int
voluntary(const struct tourney_game *g, int p)
{
	return !tourney_played(g) && got(g, p) == 0;
}

static void
add_value(struct acc *a, struct standing *s, int v, int vur)
{
	s->buchholz += v;
	a->nval++;
	a->vur += vur;
	if (v < a->lo)
		a->lo = v;
	if (v > a->hi1) {
		a->hi2 = a->hi1;
		a->hi1 = v;
	} else if (v > a->hi2) {
		a->hi2 = v;
	}
}

static int
valid(const struct tourney_game *g, int n, enum standings_kind kind)
{
	if (g->result < TR_PENDING || g->result > TR_BYE)
		return 0;
	if (g->first < 0 || g->first >= n)
		return 0;
	if (kind != STANDINGS_ARENA && g->round < 1)
		return 0;
	if (g->result == TR_BYE)
		return g->second == TOURNEY_BYE;
	return g->second >= 0 && g->second < n && g->second != g->first;
}

/* Buchholz, its cuts and Sonneborn-Berger of a Swiss (16.3 to 16.5). */
static int
swiss(const struct tourney_game *games, int ngames, int n, int rounds, struct acc *acc,
    struct standing *out)
{
	for (int i = 0; i < ngames; i++) {
		const struct tourney_game *g = &games[i];
		if (g->result == TR_PENDING || g->round > rounds)
			continue;
		for (int side = 0; side < 2; side++) {
			int p = side ? g->second : g->first;
			if (p == TOURNEY_BYE)
				continue;
			if (g->round > acc[p].there)
				acc[p].late++;
		}
	}
	for (int p = 0; p < n; p++) {
		struct acc *a = &acc[p];
		if (a->games > rounds)
			return -1; /* more games than rounds */
		a->adj = out[p].points + 1 * (rounds - a->there - a->late);
		a->lo = INT_MAX;
		a->hi1 = a->hi2 = INT_MIN;
	}
	for (int i = 0; i < ngames; i++) {
		const struct tourney_game *g = &games[i];
		if (g->result == TR_PENDING || g->round > rounds)
			continue;
		for (int side = 0; side < 2; side++) {
			int p = side ? g->second : g->first, q = side ? g->first : g->second;
			if (p == TOURNEY_BYE)
				continue;
			int r = got(g, p);
			if (tourney_played(g)) {
				add_value(&acc[p], &out[p], acc[q].adj, 0);
				out[p].sb += acc[q].adj * r;
			} else { /* 16.4: the dummy has p's own points */
				add_value(&acc[p], &out[p], out[p].points, voluntary(g, p));
				out[p].sb += out[p].points * r;
			}
		}
	}
	for (int p = 0; p < n; p++) {
		struct acc *a = &acc[p];
		struct standing *s = &out[p];
		for (int k = a->games; k < rounds; k++) /* no game: a VUR, 16.4 */
			add_value(a, s, s->points, 1);
		if (a->nval < 1)
			continue;
		int low = a->vur ? s->points : a->lo; /* 16.5: a VUR first */
		s->bh_cut1 = s->buchholz - low;
		if (a->nval >= 2)
			s->bh_median = s->bh_cut1 - (low == a->hi1 ? a->hi2 : a->hi1);
	}
	return 0;
}

/* Whether a and b differ, and which is better: < 0 when a ranks above b,
 * > 0 below, 0 equal on every criterion of the kind. */
static int
order(enum standings_kind kind, const struct standing *a, const struct standing *b)
{
	int ka[5], kb[5], nk = 0;
#define KEY(field)                   \
	do {                         \
		ka[nk] = a->field;   \
		kb[nk++] = b->field; \
	} while (0)
	KEY(points);
	switch (kind) {
	case STANDINGS_SWISS:
		KEY(bh_cut1);
		KEY(buchholz);
		KEY(bh_median);
		KEY(sb);
		break;
	case STANDINGS_ROUNDROBIN:
		KEY(sb);
		KEY(wins);
		break;
	default:
		KEY(rating);
		break;
	}
#undef KEY
	for (int i = 0; i < nk; i++)
		if (ka[i] != kb[i])
			return ka[i] > kb[i] ? -1 : 1;
	return 0;
}

static int
by_index(const struct standing *a, const struct standing *b)
{
	return (a->player > b->player) - (a->player < b->player);
}

static int
cmp_swiss(const void *a, const void *b)
{
	int c = order(STANDINGS_SWISS, a, b);
	return c ? c : by_index(a, b);
}

static int
cmp_rr(const void *a, const void *b)
{
	int c = order(STANDINGS_ROUNDROBIN, a, b);
	return c ? c : by_index(a, b);
}

static int
cmp_arena(const void *a, const void *b)
{
	int c = order(STANDINGS_ARENA, a, b);
	return c ? c : by_index(a, b);
}

int
standings(enum standings_kind kind, const struct tourney_player *players, int n,
    const struct tourney_game *games, int ngames, int rounds, struct standing *out)
{
	struct acc acc[TOURNEY_PLAYERS_MAX];
	if (n < 1 || n > TOURNEY_PLAYERS_MAX || !players || !out || ngames < 0 ||
	    (ngames && !games) || rounds < 0 || rounds > TOURNEY_ROUNDS_MAX)
		return -1;
	if (kind != STANDINGS_SWISS && kind != STANDINGS_ROUNDROBIN && kind != STANDINGS_ARENA)
		return -1;
	memset(out, 0, sizeof(*out) * (size_t)n);
	memset(acc, 0, sizeof(acc[0]) * (size_t)n);
	int last = 0;
	for (int i = 0; i < ngames; i++) {
		if (!valid(&games[i], n, kind))
			return -1;
		if (games[i].result != TR_PENDING && games[i].round > last)
			last = games[i].round;
	}
	if (kind != STANDINGS_ARENA && rounds == 0)
		rounds = last > TOURNEY_ROUNDS_MAX ? TOURNEY_ROUNDS_MAX : last;
	for (int p = 0; p < n; p++) {
		out[p].player = p;
		out[p].rating = players[p].rating;
	}

	for (int i = 0; i < ngames; i++) {
		const struct tourney_game *g = &games[i];
		if (g->result == TR_PENDING)
			continue;
		if (kind != STANDINGS_ARENA && g->round > rounds)
			continue;
		if (kind == STANDINGS_ROUNDROBIN && g->result == TR_BYE)
			continue; /* the dummy's game: no game */
		for (int side = 0; side < 2; side++) {
			int p = side ? g->second : g->first;
			if (p == TOURNEY_BYE)
				continue;
			int r = got(g, p);
			out[p].points += r;
			out[p].wins += r == 2 && g->result != TR_BYE;
			acc[p].games++;
			if (!voluntary(g, p) && g->round > acc[p].there)
				acc[p].there = g->round;
		}
	}

	int (*cmp)(const void *, const void *) = cmp_arena;
	if (kind == STANDINGS_SWISS) {
		if (swiss(games, ngames, n, rounds, acc, out) < 0)
			return -1;
		cmp = cmp_swiss;
	} else if (kind == STANDINGS_ROUNDROBIN) {
		for (int i = 0; i < ngames; i++) {
			const struct tourney_game *g = &games[i];
			if (g->result == TR_PENDING || g->result == TR_BYE || g->round > rounds)
				continue;
			out[g->first].sb += out[g->second].points * got(g, g->first);
			out[g->second].sb += out[g->first].points * got(g, g->second);
		}
		cmp = cmp_rr;
	} else { /* arena.h's points, fire and all */
		int pts[TOURNEY_PLAYERS_MAX];
		if (arena_scores(games, ngames, n, pts, NULL) < 0)
			return -1;
		for (int p = 0; p < n; p++)
			out[p].points = pts[p];
	}

	qsort(out, (size_t)n, sizeof(*out), cmp);
	for (int i = 0; i < n; i++) {
		if (i > 0 && order(kind, &out[i - 1], &out[i]) == 0) {
			out[i].rank = out[i - 1].rank;
			out[i].shared = out[i - 1].shared = 1;
		} else {
			out[i].rank = i + 1;
		}
	}
	return n;
}
