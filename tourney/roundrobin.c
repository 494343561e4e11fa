/*
 * roundrobin.c: the Berger tables (roundrobin.h).
 *
 * For N players (n, or n+1 with the dummy), N even, round r of the table:
 * the last player N meets a = 1 + ((r-1) * N/2) mod (N-1), being second in
 * the odd rounds and first in the even ones; then for k = 1..N/2-1 the
 * player a+k (first) meets a-k (second), both counted mod N-1 in 1..N-1.
 * That is the table FIDE prints (C.05 Annex 1): for N = 4 the rounds
 * 1-4 2-3 / 4-3 1-2 / 2-4 3-1.
 */
#include "tourney/roundrobin.h"

int
rr_rounds(int n)
{
	if (n < 2 || n > TOURNEY_PLAYERS_MAX)
		return -1;
	int r = n % 2 ? n : n - 1;
	return r > TOURNEY_ROUNDS_MAX ? -1 : r;
}

/* The Berger number k (any integer) brought into 1..m. */
static int
wrap(int k, int m)
{
	return ((k - 1) % m + m) % m + 1;
}

int
rr_round(int n, int round, struct tourney_game *out, int outmax)
{
	int rounds = rr_rounds(n);
	if (rounds < 0 || round < 1 || round > 2 * rounds || !out)
		return -1;
	int games = (n + 1) / 2;
	if (outmax < games)
		return -1;
	int big = n % 2 ? n + 1 : n; /* N, the dummy when n is odd */
	int swap = round > rounds;
	int r = swap ? round - rounds : round;
	int a = 1 + (r - 1) * (big / 2) % (big - 1);
	for (int k = 0; k < big / 2; k++) {
		int f, s; /* Berger numbers, first and second */
		if (k == 0) {
			f = r % 2 ? a : big;
			s = r % 2 ? big : a;
		} else {
			f = wrap(a + k, big - 1);
			s = wrap(a - k, big - 1);
		}
		if (swap) {
			int t = f;
			f = s;
			s = t;
		}
		struct tourney_game *g = &out[k];
		g->round = round;
		if (f > n || s > n) { /* the dummy's game: the other one's bye */
			g->first = (f > n ? s : f) - 1;
			g->second = TOURNEY_BYE;
			g->result = TR_BYE;
		} else {
			g->first = f - 1;
			g->second = s - 1;
			g->result = TR_PENDING;
		}
	}
	return games;
}
