/* ltable.c: an engine league's table (see ltable.h). */
#include "tourney/ltable.h"

#include <math.h>
#include <stdlib.h>

#include "tourney/elo.h"

static int
better(const void *a, const void *b)
{
	const struct ltable_row *x = a, *y = b;
	if (x->elo != y->elo)
		return x->elo > y->elo ? -1 : 1;
	if (x->points != y->points)
		return x->points > y->points ? -1 : 1;
	if (x->games != y->games)
		return x->games < y->games ? -1 : 1;
	return x->player - y->player;
}

int
ltable_make(int n, const struct tourney_game *games, int ng, struct ltable_row *rows)
{
	if (n < 1 || n > ELO_PLAYERS_MAX || ng < 0 || (ng && !games) || !rows)
		return -1;
	struct elo_rating *r = calloc((size_t)n, sizeof *r);
	if (!r)
		return -1;
	struct elo_opts o = elo_defaults();
	if (elo_fit(n, games, ng, &o, r, NULL, NULL) != 0) {
		free(r);
		return -1;
	}
	for (int i = 0; i < n; i++) {
		long bar = lround(r[i].err95);
		rows[i] = (struct ltable_row){ .player = i,
			.elo = (int)lround(r[i].elo),
			.minus = bar < 0 ? 0 : (int)bar,
			.plus = bar < 0 ? 0 : (int)bar,
			.games = r[i].games,
			.points = r[i].points };
	}
	for (int k = 0; k < ng; k++)
		if (games[k].result == TR_DRAW && games[k].first >= 0 && games[k].first < n &&
		    games[k].second >= 0 && games[k].second < n) {
			rows[games[k].first].draws++;
			rows[games[k].second].draws++;
		}
	free(r);
	qsort(rows, (size_t)n, sizeof *rows, better);
	return 0;
}
