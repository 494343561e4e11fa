/*
 * arena.c: an arena's points and pairings (arena.h).
 */
#include <stdlib.h>
#include <string.h>

#include "tourney/arena.h"

/* What one game did to one of its players: the points before fire, and
 * whether it won over the board (extends the streak), won without playing
 * (leaves it), or neither (ends it). */
enum outcome { O_WIN, O_DRAW, O_LOSS, O_FREE_WIN, O_FREE_LOSS };

static enum outcome
outcome(enum tourney_result r, int first)
{
	switch (r) {
	case TR_FIRST_WINS:
		return first ? O_WIN : O_LOSS;
	case TR_SECOND_WINS:
		return first ? O_LOSS : O_WIN;
	case TR_DRAW:
		return O_DRAW;
	case TR_FIRST_FORFEIT:
		return first ? O_FREE_LOSS : O_FREE_WIN;
	case TR_SECOND_FORFEIT:
		return first ? O_FREE_WIN : O_FREE_LOSS;
	case TR_BYE:
		return O_FREE_WIN;
	default: /* TR_BOTH_FORFEIT */
		return O_FREE_LOSS;
	}
}

/* Scores one outcome for a player with *run wins in a row. */
static int
score(enum outcome o, int *run)
{
	int fire = *run >= 2;
	switch (o) {
	case O_WIN:
		++*run;
		return fire ? 4 : 2;
	case O_DRAW:
		*run = 0;
		return fire ? 2 : 1;
	case O_FREE_WIN:
		return 2;
	default: /* a loss, over the board or not */
		*run = 0;
		return 0;
	}
}

int
arena_scores(const struct tourney_game *games, int ngames, int n, int *points, int *streak)
{
	int run[TOURNEY_PLAYERS_MAX];
	if (n < 1 || n > TOURNEY_PLAYERS_MAX || ngames < 0 || !points || (ngames && !games))
		return -1;
	memset(run, 0, sizeof(int) * (size_t)n);
	memset(points, 0, sizeof(int) * (size_t)n);
	for (int i = 0; i < ngames; i++) {
		const struct tourney_game *g = &games[i];
		if (g->result == TR_PENDING)
			continue;
		if (g->first < 0 || g->first >= n)
			return -1;
		if (g->result == TR_BYE) {
			points[g->first] += score(O_FREE_WIN, &run[g->first]);
			continue;
		}
		if (g->second < 0 || g->second >= n || g->second == g->first)
			return -1;
		points[g->first] += score(outcome(g->result, 1), &run[g->first]);
		points[g->second] += score(outcome(g->result, 0), &run[g->second]);
	}
	if (streak)
		memcpy(streak, run, sizeof(int) * (size_t)n);
	return 0;
}

/* The pairing order: points, rating (highest first), then index. */
static int
by_standing(const void *pa, const void *pb)
{
	const struct arena_waiting *a = pa, *b = pb;
	if (a->points != b->points)
		return a->points > b->points ? -1 : 1;
	if (a->rating != b->rating)
		return a->rating > b->rating ? -1 : 1;
	return (a->player > b->player) - (a->player < b->player);
}

/* Whether a and b would meet again straight after their last game. */
static int
rematch(const struct arena_waiting *a, const struct arena_waiting *b)
{
	return a->last_opponent == b->player || b->last_opponent == a->player;
}

/* Whether a rather than b takes "first": fewer firsts than seconds, then
 * the lower rating, then the lower index. */
static int
takes_first(const struct arena_waiting *a, const struct arena_waiting *b)
{
	int da = a->firsts - a->seconds, db = b->firsts - b->seconds;
	if (da != db)
		return da < db;
	if (a->rating != b->rating)
		return a->rating < b->rating;
	return a->player < b->player;
}

int
arena_pair(const struct arena_waiting *w, int nw, struct tourney_game *out, int outmax)
{
	static const int none = -1;
	struct arena_waiting s[TOURNEY_PLAYERS_MAX];
	int partner[TOURNEY_PLAYERS_MAX];
	unsigned char seen[TOURNEY_PLAYERS_MAX];
	int left[TOURNEY_PLAYERS_MAX], nleft = 0;

	if (nw < 0 || nw > TOURNEY_PLAYERS_MAX || (nw && !w) || outmax < nw / 2 ||
	    (nw >= 2 && !out))
		return -1;
	memset(seen, 0, sizeof seen);
	for (int i = 0; i < nw; i++) {
		int p = w[i].player;
		if (p < 0 || p >= TOURNEY_PLAYERS_MAX || seen[p])
			return -1;
		seen[p] = 1;
		s[i] = w[i];
		partner[i] = none;
	}
	if (nw > 1)
		qsort(s, (size_t)nw, sizeof s[0], by_standing);

	/* The walk: each unpaired player meets the nearest unpaired one below
	 * that is no rematch. */
	for (int i = 0; i < nw; i++) {
		if (partner[i] != none)
			continue;
		for (int j = i + 1; j < nw; j++) {
			if (partner[j] == none && !rematch(&s[i], &s[j])) {
				partner[i] = j;
				partner[j] = i;
				break;
			}
		}
		if (partner[i] == none)
			left[nleft++] = i;
	}

	/* Those left are rematches of each other two by two (the walk would
	 * have paired them otherwise), so at most three: last opponents make
	 * at most one edge a player. Seat two of them by one swap when a pair
	 * allows it, trying the pairs from the bottom. */
	for (int x = 0; x < nleft; x++) {
		for (int y = x + 1; y < nleft; y++) {
			int u = left[x], v = left[y];
			if (partner[u] != none || partner[v] != none)
				continue;
			for (int a = nw - 1; a >= 0; a--) {
				int b = partner[a];
				if (b == none || b < a)
					continue;
				int p = u, q = v; /* a meets p, b meets q */
				if (rematch(&s[a], &s[p]) || rematch(&s[b], &s[q])) {
					p = v;
					q = u;
					if (rematch(&s[a], &s[p]) || rematch(&s[b], &s[q]))
						continue;
				}
				partner[a] = p;
				partner[p] = a;
				partner[b] = q;
				partner[q] = b;
				break;
			}
		}
	}

	int k = 0;
	for (int i = 0; i < nw; i++) {
		int j = partner[i];
		if (j == none || j < i)
			continue;
		int f = takes_first(&s[i], &s[j]) ? i : j;
		out[k].round = 0;
		out[k].first = s[f].player;
		out[k].second = s[f == i ? j : i].player;
		out[k].result = TR_PENDING;
		k++;
	}
	return k;
}
