/*
 * test_swiss: tourney/swiss.h, the Dutch system. Each fixture is worked
 * out by hand from the rules (FIDE C.04.1, C.04.2, C.04.3), the working
 * in its comment; players are named by pairing number (1 the top seed,
 * index 0). Then a property test over random events (300 of 2 to 41
 * players, forfeits now and then, withdrawals in a third, and one of
 * 1,000 players): no rematch, at most one bye each and never after a
 * forfeit win, the colour limits outside the last round's topscorers,
 * every player still in paired exactly once, and -1 only where a search
 * of every pairing finds none.
 *
 * Colours: W is first, B second. Scores in points (the records count
 * halves: a win 2). In a pairing "a-b", a has first.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tourney/swiss.h"

#define MAXG 4096

/* An event under test: players 1..n by pairing number, its games. */
struct event {
	int n, rounds, ng;
	struct tourney_player pl[64];
	struct tourney_game g[MAXG];
};

static void
ev_init(struct event *e, int n, int rounds)
{
	memset(e, 0, sizeof *e);
	e->n = n;
	e->rounds = rounds;
}

/* A game of round r between a (first) and b (second), 1-based; b 0: a bye. */
static void
game(struct event *e, int r, int a, int b, enum tourney_result res)
{
	struct tourney_game *g = &e->g[e->ng++];
	g->round = r;
	g->first = a - 1;
	g->second = b ? b - 1 : TOURNEY_BYE;
	g->result = b ? res : TR_BYE;
}

/* Pairs round r into out; the count. */
static int
pair(struct event *e, int r, struct tourney_game *out)
{
	return swiss_pair(e->pl, e->n, e->g, e->ng, r, e->rounds, out, 64);
}

/* out[0..k) holds a-b (1-based, a first) in round r; b 0: a's bye. */
static void
has(const struct tourney_game *out, int k, int r, int a, int b)
{
	for (int i = 0; i < k; i++) {
		if (out[i].first != a - 1)
			continue;
		assert_int_equal(out[i].round, r);
		if (b) {
			assert_int_equal(out[i].second, b - 1);
			assert_int_equal(out[i].result, TR_PENDING);
		} else {
			assert_int_equal(out[i].second, TOURNEY_BYE);
			assert_int_equal(out[i].result, TR_BYE);
		}
		return;
	}
	fail_msg("no game %d-%d", a, b);
}

/* Sets the results of the k pairings in out (res[i] for the game whose
 * first is pairing number first[i]) and adds them to the event. */
static void
play(struct event *e, const struct tourney_game *out, int k, const int *first,
    const enum tourney_result *res, int nres)
{
	for (int i = 0; i < k; i++) {
		struct tourney_game g = out[i];
		for (int j = 0; j < nres; j++)
			if (g.first == first[j] - 1 && g.result != TR_BYE)
				g.result = res[j];
		assert_true(g.result != TR_PENDING);
		e->g[e->ng++] = g;
	}
}

/*
 * Seven players, three rounds, a bye each round.
 *
 * Round 1: one scoregroup of 7; MaxPairs 3, S1 = 1 2 3, S2 = 4 5 6 7; the
 * first candidate 1-4 2-5 3-6 has no colour preference to break, 7 is left
 * and has the bye. Colours by E.5 (no preferences): the higher ranked gets
 * the initial colour (W) when his pairing number is odd: 1-4, 5-2, 3-6.
 * Results: 1 beats 4, 2 beats 5, 3-6 drawn.
 *
 * Round 2: scores 1, 2, 7: 1; 3, 6: 0.5; 4, 5: 0. Preferences (one game:
 * strong): 1 B, 2 W, 3 B, 4 W, 5 B, 6 W; 7 none (a bye has no colour).
 * Bracket {1 2 7}: MaxPairs 1, S1 = 1, S2 = 2 7. 1-2 leaves 7 to float,
 * and 7's bye was a downfloat (C.04.3 1.4.3), so C12 counts one; 1-7
 * leaves 2 (no float in round 1) and grants every preference: perfect.
 * E.1: 7 has none, 1 wants B: 7-1. 2 floats down.
 * Bracket {2 | 3 6}: heterogeneous, M1 = 1, S1 = 2, S2 = 3 6. 2-3 grants
 * both (2 W, 3 B); 6 floats (no float last round): perfect: 2-3.
 * Bracket {6 | 4 5}, the last: 6-4 both want W (C10); 6-5 grants both
 * (6 W, 5 B) and leaves 4, who may have the bye: 6-5, 4 the bye.
 * Results: 7-1 drawn, 2 beats 3, 5 beats 6.
 *
 * Round 3 (the last): scores 2: 2; 1, 7: 1.5; 4, 5: 1; 3, 6: 0.5.
 * Played colours: 1 WB, 2 BW, 3 WB, 4 B, 5 WB, 6 BW, 7 W; preferences
 * 1 W mild, 2 B mild, 3 W mild, 4 W strong, 5 W mild, 6 B mild, 7 B
 * strong. Byes had: 7, 4. No absolute preference, so the topscorers
 * (over 1 point: 2, 1, 7) change nothing.
 * Bracket {2}: alone, floats. Bracket {2 | 1 7}: 2-1 grants both and
 * floats 7, whose round-1 bye is a downfloat two rounds back (C14); 2-7
 * leaves 7's strong B to beat 2's mild B (C10): worse. So 1-2 (E.1), 7
 * floats. Bracket {7 | 4 5}: 7-4 grants both (4 W, 7 B), 5 floats: 4-7.
 * Bracket {5 | 3 6}, the last: 5-3 both want W; 5-6 met in round 2.
 * So 5-3 (E.2 equal, E.3 both WB alike, E.4: 5, higher ranked, gets W),
 * and 6, who has had no bye, has it.
 */
static void
test_seven(void **st)
{
	(void)st;
	static struct event e;
	struct tourney_game out[64];
	ev_init(&e, 7, 3);
	int k = pair(&e, 1, out);
	assert_int_equal(k, 4);
	has(out, k, 1, 1, 4);
	has(out, k, 1, 5, 2);
	has(out, k, 1, 3, 6);
	has(out, k, 1, 7, 0);
	play(&e, out, k, (int[]){ 1, 5, 3 },
	    (enum tourney_result[]){ TR_FIRST_WINS, TR_SECOND_WINS, TR_DRAW }, 3);

	k = pair(&e, 2, out);
	assert_int_equal(k, 4);
	has(out, k, 2, 7, 1);
	has(out, k, 2, 2, 3);
	has(out, k, 2, 6, 5);
	has(out, k, 2, 4, 0);
	play(&e, out, k, (int[]){ 7, 2, 6 },
	    (enum tourney_result[]){ TR_DRAW, TR_FIRST_WINS, TR_SECOND_WINS }, 3);

	k = pair(&e, 3, out);
	assert_int_equal(k, 4);
	has(out, k, 3, 1, 2);
	has(out, k, 3, 4, 7);
	has(out, k, 3, 5, 3);
	has(out, k, 3, 6, 0);
}

/*
 * Eight players: a transposition. Round 1: S1 = 1 2 3 4, S2 = 5 6 7 8:
 * 1-5, 6-2, 3-7, 8-4 (E.5). The higher seeds all win.
 * Round 2, bracket {1 2 3 4}: S1 = 1 2, S2 = 3 4. 1 and 3 had W, so both
 * want B (strong); 2 and 4 both want W: 1-3 2-4 fails two preferences.
 * The next transposition, S2 = 4 3: 1-4 and 2-3 grant all: 4-1, 2-3.
 * Bracket {5 6 7 8} likewise: 5, 7 want W, 6, 8 want B: 5-7 6-8 fails
 * two, 5-8 6-7 none: 5-8, 7-6.
 */
static void
test_transposition(void **st)
{
	(void)st;
	static struct event e;
	struct tourney_game out[64];
	ev_init(&e, 8, 5);
	int k = pair(&e, 1, out);
	assert_int_equal(k, 4);
	has(out, k, 1, 1, 5);
	has(out, k, 1, 6, 2);
	has(out, k, 1, 3, 7);
	has(out, k, 1, 8, 4);
	play(&e, out, k, (int[]){ 1, 6, 3, 8 },
	    (enum tourney_result[]){ TR_FIRST_WINS, TR_SECOND_WINS, TR_FIRST_WINS, TR_SECOND_WINS },
	    4);
	k = pair(&e, 2, out);
	assert_int_equal(k, 4);
	has(out, k, 2, 4, 1);
	has(out, k, 2, 2, 3);
	has(out, k, 2, 5, 8);
	has(out, k, 2, 7, 6);
}

/*
 * An exchange forced by the rematch rule. Four players; the history
 * (given): round 1 1-3 and 4-2, round 2 4-1 and 3-2, all drawn, so all
 * four have 1 point; 1 has met 3 and 4, 2 has met 4 and 3. Colours: 1 WB
 * (mild W), 2 BB (absolute W), 3 BW (mild B), 4 WW (absolute B); 2 and 4
 * want different colours, so C3 bars nothing.
 * Round 3 of 5: S1 = 1 2, S2 = 3 4. Every transposition pairs 1 with 3 or
 * 4, both met. The exchanges, by D.2: one for one, smallest BSN
 * difference first, then the highest BSN out of S1: 2 for 3 (difference
 * 1) gives S1 = 1 3, S2 = 2 4: 1-2 and 3-4, neither met. Colours: 1's
 * mild W against 2's absolute W: the stronger has it (E.2), 2-1; 3's
 * mild B against 4's absolute B: 3-4.
 */
static void
test_exchange(void **st)
{
	(void)st;
	static struct event e;
	struct tourney_game out[64];
	ev_init(&e, 4, 5);
	game(&e, 1, 1, 3, TR_DRAW);
	game(&e, 1, 4, 2, TR_DRAW);
	game(&e, 2, 4, 1, TR_DRAW);
	game(&e, 2, 3, 2, TR_DRAW);
	int k = pair(&e, 3, out);
	assert_int_equal(k, 2);
	has(out, k, 3, 2, 1);
	has(out, k, 3, 3, 4);
}

/*
 * An exchange for colours. Four players, round 1 1-3 and 4-2 (as the
 * system pairs it), both drawn. Round 2: S1 = 1 2, S2 = 3 4; 1-3 is a
 * rematch; 1-4 2-3 is legal but 1 and 4 both want B, 2 and 3 both W (two
 * preferences lost). The exchange 2 for 3: S1 = 1 3, S2 = 2 4: 1-2
 * (1 B, 2 W) and 3-4 (3 W, 4 B) grant all: 2-1, 3-4.
 */
static void
test_exchange_colours(void **st)
{
	(void)st;
	static struct event e;
	struct tourney_game out[64];
	ev_init(&e, 4, 3);
	int k = pair(&e, 1, out);
	assert_int_equal(k, 2);
	has(out, k, 1, 1, 3);
	has(out, k, 1, 4, 2);
	play(&e, out, k, (int[]){ 1, 4 }, (enum tourney_result[]){ TR_DRAW, TR_DRAW }, 2);
	k = pair(&e, 2, out);
	assert_int_equal(k, 2);
	has(out, k, 2, 2, 1);
	has(out, k, 2, 3, 4);
}

/*
 * A downfloater. Six players; round 1 1-4, 5-2, 3-6; 1, 2 and 3 win.
 * Round 2: bracket {1 2 3} is odd: MaxPairs 1, S1 = 1, S2 = 2 3: 1-2
 * (1 had W, 2 had B: 2-1) and 3 floats down. Bracket {3 | 4 5 6}: M1 = 1,
 * S1 = 3, S2 = 4 5 6: 3-4 (3 wants B, 4 wants W: 4-3); the remainder
 * {5 6}: 5 wants B, 6 wants W: 6-5.
 */
static void
test_downfloater(void **st)
{
	(void)st;
	static struct event e;
	struct tourney_game out[64];
	ev_init(&e, 6, 5);
	int k = pair(&e, 1, out);
	assert_int_equal(k, 3);
	has(out, k, 1, 1, 4);
	has(out, k, 1, 5, 2);
	has(out, k, 1, 3, 6);
	play(&e, out, k, (int[]){ 1, 5, 3 },
	    (enum tourney_result[]){ TR_FIRST_WINS, TR_SECOND_WINS, TR_FIRST_WINS }, 3);
	k = pair(&e, 2, out);
	assert_int_equal(k, 3);
	has(out, k, 2, 2, 1);
	has(out, k, 2, 4, 3);
	has(out, k, 2, 6, 5);
}

/*
 * Rematch avoidance, and a forfeit that is no game. Four players, round 1
 * (given) 1-3 and 2-4, both drawn. Round 2: S1 = 1 2, S2 = 3 4; 1-3 is a
 * rematch; the next transposition 1-4 2-3: 1 and 2 had W and want B, 3
 * and 4 want W: 4-1, 3-2.
 * Had both games been forfeits (neither player came: both lose), they
 * were not played: no rematch (C.04.2) and no colour. All on 0, no
 * preferences: 1-3 and 2-4 again, colours by E.5 as in a first round:
 * 1 (odd) W, 2 (even) B: 1-3, 4-2.
 */
static void
test_rematch(void **st)
{
	(void)st;
	static struct event e;
	struct tourney_game out[64];
	ev_init(&e, 4, 3);
	game(&e, 1, 1, 3, TR_DRAW);
	game(&e, 1, 2, 4, TR_DRAW);
	int k = pair(&e, 2, out);
	assert_int_equal(k, 2);
	has(out, k, 2, 4, 1);
	has(out, k, 2, 3, 2);

	ev_init(&e, 4, 3);
	game(&e, 1, 1, 3, TR_BOTH_FORFEIT);
	game(&e, 1, 2, 4, TR_BOTH_FORFEIT);
	k = pair(&e, 2, out);
	assert_int_equal(k, 2);
	has(out, k, 2, 1, 3);
	has(out, k, 2, 4, 2);
}

/*
 * Two players: after a game played, a second round has no legal pairing
 * (C1): -1. After a forfeit (1 wins, 2 did not come) they may meet: 1 is
 * higher (1 point), has no colour (the forfeit counts for none), and an
 * odd pairing number: the initial colour (E.5): 1-2.
 */
static void
test_impossible(void **st)
{
	(void)st;
	static struct event e;
	struct tourney_game out[64];
	ev_init(&e, 2, 2);
	game(&e, 1, 1, 2, TR_DRAW);
	assert_int_equal(pair(&e, 2, out), SWISS_IMPOSSIBLE);
	ev_init(&e, 2, 2);
	game(&e, 1, 1, 2, TR_SECOND_FORFEIT);
	int k = pair(&e, 2, out);
	assert_int_equal(k, 1);
	has(out, k, 2, 1, 2);
}

/*
 * The bye and forfeit wins (C.04.1.d). Three players: round 1 1-2 drawn,
 * 3 the bye; round 2 (given) 2-3 won by 2, 1 the bye. Scores 1: 1.5,
 * 2: 1.5, 3: 1. Round 3: bracket {1 2}: they met, both float; {1 2 | 3},
 * the last: M1 = 1, S1 = 1, limbo 2: 1-3 (1 played W once: strong B; 3
 * played B once: strong W): 3-1, and 2, who has had no bye, has it.
 * Had 2 won round 2 by forfeit, 2-3 was no game, but 2 scored a forfeit
 * win and may not have the bye; 1 and 3 had theirs: no one may, -1.
 */
static void
test_bye_forfeit(void **st)
{
	(void)st;
	static struct event e;
	struct tourney_game out[64];
	ev_init(&e, 3, 3);
	game(&e, 1, 1, 2, TR_DRAW);
	game(&e, 1, 3, 0, TR_BYE);
	game(&e, 2, 2, 3, TR_FIRST_WINS);
	game(&e, 2, 1, 0, TR_BYE);
	int k = pair(&e, 3, out);
	assert_int_equal(k, 2);
	has(out, k, 3, 3, 1);
	has(out, k, 3, 2, 0);

	ev_init(&e, 3, 3);
	game(&e, 1, 1, 2, TR_DRAW);
	game(&e, 1, 3, 0, TR_BYE);
	game(&e, 2, 2, 3, TR_SECOND_FORFEIT);
	game(&e, 2, 1, 0, TR_BYE);
	assert_int_equal(pair(&e, 3, out), SWISS_IMPOSSIBLE);
}

/*
 * The bye where the lowest scoregroup may not have it. Players 1-3 and
 * fillers 4-6 (withdrawn before round 3), a given history: round 1 1-4
 * (1 wins), 2 the bye, 3-5 won by 3 by forfeit; round 2 5-1 (1 wins),
 * 4-2 (4 wins), 6-3 (6 wins). Scores 1: 2, 2: 1, 3: 1; 2 had the bye
 * and 3 a forfeit win: neither may have the bye (C.04.1.d), 1 may.
 * Round 3: {1} floats. {1 | 2 3}, the last: M1 = 1, S1 = 1: 1-2 leaves 3
 * and 1-3 leaves 2 for the bye, neither may; so no MDP paired (M1 lowered
 * to 0): the remainder 2-3, and 1, the floater, has the bye. Colours:
 * 2 and 3 each played B once (strong W); E.3 finds no difference; E.4:
 * 2, higher ranked, has W: 2-3.
 */
static void
test_bye_moves_up(void **st)
{
	(void)st;
	static struct event e;
	struct tourney_game out[64];
	ev_init(&e, 6, 4);
	game(&e, 1, 1, 4, TR_FIRST_WINS);
	game(&e, 1, 2, 0, TR_BYE);
	game(&e, 1, 3, 5, TR_SECOND_FORFEIT);
	game(&e, 2, 5, 1, TR_SECOND_WINS);
	game(&e, 2, 4, 2, TR_FIRST_WINS);
	game(&e, 2, 6, 3, TR_FIRST_WINS);
	for (int i = 3; i < 6; i++)
		e.pl[i].withdrawn = 1;
	int k = pair(&e, 3, out);
	assert_int_equal(k, 2);
	has(out, k, 3, 2, 3);
	has(out, k, 3, 1, 0);
}

/*
 * Colours: no third of a role in a row (C3). Eight players; round 1 as
 * the system pairs it (1-5, 6-2, 3-7, 8-4), round 2 given: 1-7, 5-2, 3-8,
 * 6-4; 1, 2, 3, 4 win both. So 1 and 3 played WW (absolute B), 2 and 4
 * BB (absolute W), all on 2 points; below, 5 BW (mild B), 6 WW (absolute
 * B), 7 BB (absolute W), 8 WB (mild W), on 0.
 * Round 3 of 5: bracket {1 2 3 4}: S1 = 1 2, S2 = 3 4: 1-3 would give one
 * of two absolute B a third W: barred. 1-4 (4-1) and 2-3 (2-3) grant all.
 * Bracket {5 6 7 8}: 5-7 (7 absolute W: 7-5), 6-8 (8-6): all granted.
 */
static void
three_in_a_row(struct event *e, int rounds)
{
	ev_init(e, 8, rounds);
	game(e, 1, 1, 5, TR_FIRST_WINS);
	game(e, 1, 6, 2, TR_SECOND_WINS);
	game(e, 1, 3, 7, TR_FIRST_WINS);
	game(e, 1, 8, 4, TR_SECOND_WINS);
	game(e, 2, 1, 7, TR_FIRST_WINS);
	game(e, 2, 5, 2, TR_SECOND_WINS);
	game(e, 2, 3, 8, TR_FIRST_WINS);
	game(e, 2, 6, 4, TR_SECOND_WINS);
}

static void
test_colour(void **st)
{
	(void)st;
	static struct event e;
	struct tourney_game out[64];
	three_in_a_row(&e, 5);
	int k = pair(&e, 3, out);
	assert_int_equal(k, 4);
	has(out, k, 3, 4, 1);
	has(out, k, 3, 2, 3);
	has(out, k, 3, 7, 5);
	has(out, k, 3, 8, 6);
}

/*
 * The last round's relaxation for topscorers. Four players: round 1 1-2
 * and 3-4, round 2 1-4 and 3-2, 1 and 3 winning all; then 2 and 4
 * withdraw. 1 and 3 both played WW (absolute B) and are the only two
 * left, who have not met.
 * In round 3 of 4 they are not topscorers: C3 bars the game, -1.
 * In round 3 of 3 both have 2 of 2 points (over half): topscorers may
 * meet. E.2: both absolute, colour differences equal (+2); E.3: both
 * WW, nothing to alternate; E.4: 1, higher ranked, gets his B: 3-1.
 */
static void
test_topscorers(void **st)
{
	(void)st;
	static struct event e;
	struct tourney_game out[64];
	for (int rounds = 3; rounds <= 4; rounds++) {
		ev_init(&e, 4, rounds);
		game(&e, 1, 1, 2, TR_FIRST_WINS);
		game(&e, 1, 3, 4, TR_FIRST_WINS);
		game(&e, 2, 1, 4, TR_FIRST_WINS);
		game(&e, 2, 3, 2, TR_FIRST_WINS);
		e.pl[1].withdrawn = e.pl[3].withdrawn = 1;
		int k = pair(&e, 3, out);
		if (rounds == 4) {
			assert_int_equal(k, SWISS_IMPOSSIBLE);
			continue;
		}
		assert_int_equal(k, 1);
		has(out, k, 3, 3, 1);
	}
}

/*
 * An MDP exchange, and the PSD (C6) before colours. Six players and four
 * fillers (7-10, withdrawn before round 4) in a given history:
 * round 1: 7-1 (1 wins), 8-2 (2 wins), 3-9 (3 wins), 4-10 (4 wins), 5-6
 * drawn; round 2: 1-3 (1 wins), 2-5 drawn, 9-4 (4 wins), 6-7 (7 wins);
 * round 3: 1-4 (1 wins), 2-6 (2 wins), 10-3 (3 wins), 5-8 (8 wins).
 * Scores 1: 3, 2: 2.5, 3: 2, 4: 2, 5: 1, 6: 0.5. Colours 1 and 2 BWW
 * (absolute B), 3 and 4 WBB (absolute W), 5 WBW (strong B), 6 BWB
 * (strong W). Met: 1-3, 1-4, 2-5, 2-6, 5-6.
 * Round 4 of 5: {1} floats; {1 | 2}: both absolute B, not topscorers:
 * barred (C3), both float. {1 2 | 3 4}: 1 met both; M1 = 1 (2 can play
 * either), S1 = 1, limbo 2: no candidate. The MDP exchange 1 for 2:
 * S1 = 2, limbo 1: 2-3 (3 absolute W: 3-2), 4 left alone, floats (2-4
 * would float 3, whose round-3 downfloat C12 counts). {1 4 | 5}: M1 = 1,
 * S1 = 1, limbo 4: 1-5, 1's absolute B over 5's strong B (E.2): 5-1;
 * PSD: 1 paired (3 - 1) and 4 a floater (2 - 1 + 1): 2, 2. The exchange
 * 4 for 1 would grant every colour (4-5, then 1-6) but its PSD, 1 a
 * floater (3 - 1 + 1) and 4 paired (1): 3, 1, is higher, and C6 comes
 * before the colours. {4 | 6}, the last: 4-6, 4's absolute W over 6's
 * strong W.
 */
static void
test_mdp_exchange(void **st)
{
	(void)st;
	static struct event e;
	struct tourney_game out[64];
	ev_init(&e, 10, 5);
	game(&e, 1, 7, 1, TR_SECOND_WINS);
	game(&e, 1, 8, 2, TR_SECOND_WINS);
	game(&e, 1, 3, 9, TR_FIRST_WINS);
	game(&e, 1, 4, 10, TR_FIRST_WINS);
	game(&e, 1, 5, 6, TR_DRAW);
	game(&e, 2, 1, 3, TR_FIRST_WINS);
	game(&e, 2, 2, 5, TR_DRAW);
	game(&e, 2, 9, 4, TR_SECOND_WINS);
	game(&e, 2, 6, 7, TR_SECOND_WINS);
	game(&e, 3, 1, 4, TR_FIRST_WINS);
	game(&e, 3, 2, 6, TR_FIRST_WINS);
	game(&e, 3, 10, 3, TR_SECOND_WINS);
	game(&e, 3, 5, 8, TR_SECOND_WINS);
	for (int i = 6; i < 10; i++)
		e.pl[i].withdrawn = 1;
	int k = pair(&e, 4, out);
	assert_int_equal(k, 3);
	has(out, k, 4, 3, 2);
	has(out, k, 4, 5, 1);
	has(out, k, 4, 4, 6);
}

/*
 * E.2 between two topscorers: the wider colour difference has its
 * colour. Players 1 and 2 and fillers 3-9 (withdrawn before round 5);
 * 1 had the bye in round 1, then 3-1, 1-4, 1-5; 2 played 2-6, 2-7, 8-2,
 * 2-9; 1 and 2 won every game. Both have 4 of 4 points and have not met.
 * 1 played B W W (difference +1, last two W: absolute B), 2 W W B W
 * (difference +2: absolute B).
 * Round 5 of 5: topscorers may meet (C3 spares them). E.1 fails, both
 * absolute, so E.2 gives the colour to the wider difference, 2's: 2 has
 * B, 1-2 (E.4 would have given 1, the higher ranked, his B).
 * Round 5 of 6: not the last round, no topscorers: C3 bars it, -1.
 */
static void
test_wider(void **st)
{
	(void)st;
	static struct event e;
	struct tourney_game out[64];
	for (int rounds = 5; rounds <= 6; rounds++) {
		ev_init(&e, 9, rounds);
		game(&e, 1, 1, 0, TR_BYE);
		game(&e, 2, 3, 1, TR_SECOND_WINS);
		game(&e, 3, 1, 4, TR_FIRST_WINS);
		game(&e, 4, 1, 5, TR_FIRST_WINS);
		game(&e, 1, 2, 6, TR_FIRST_WINS);
		game(&e, 2, 2, 7, TR_FIRST_WINS);
		game(&e, 3, 8, 2, TR_SECOND_WINS);
		game(&e, 4, 2, 9, TR_FIRST_WINS);
		for (int i = 2; i < 9; i++)
			e.pl[i].withdrawn = 1;
		int k = pair(&e, 5, out);
		if (rounds == 6) {
			assert_int_equal(k, SWISS_IMPOSSIBLE);
			continue;
		}
		assert_int_equal(k, 1);
		has(out, k, 5, 1, 2);
	}
}

/*
 * Colour allocation by E.3. Two players left (3-6 withdrawn), who have not
 * met; a given history of draws: 1 played B W W B (3-1, 1-4, 1-5, 6-1),
 * 2 played W B W B (2-4, 3-2, 2-6, 5-2). Both have difference 0 and a
 * last B: mild W each; E.1 and E.2 decide nothing. E.3 goes back to the
 * last round they had different colours: the third game back, 1 W and
 * 2 B; so now 1 B, 2 W: 2-1 (where E.4 would have given 1, the higher
 * ranked, his W).
 */
static void
test_alternate(void **st)
{
	(void)st;
	static struct event e;
	struct tourney_game out[64];
	ev_init(&e, 6, 6);
	game(&e, 1, 3, 1, TR_DRAW);
	game(&e, 1, 2, 4, TR_DRAW);
	game(&e, 2, 1, 4, TR_DRAW);
	game(&e, 2, 3, 2, TR_DRAW);
	game(&e, 3, 1, 5, TR_DRAW);
	game(&e, 3, 2, 6, TR_DRAW);
	game(&e, 4, 6, 1, TR_DRAW);
	game(&e, 4, 5, 2, TR_DRAW);
	for (int i = 2; i < 6; i++)
		e.pl[i].withdrawn = 1;
	int k = pair(&e, 5, out);
	assert_int_equal(k, 1);
	has(out, k, 5, 2, 1);
}

/*
 * A withdrawn player is not paired, and keeps his pairing number. Seven
 * players, 4 withdrawn before round 1: six to pair, S1 = 1 2 3, S2 = 5 6
 * 7: 1-5, 2-6, 3-7; E.5 by pairing number: 1 (odd) W, 2 (even) B, 3 W:
 * 1-5, 6-2, 3-7. No bye (even).
 */
static void
test_withdrawn(void **st)
{
	(void)st;
	static struct event e;
	struct tourney_game out[64];
	ev_init(&e, 7, 3);
	e.pl[3].withdrawn = 1;
	int k = pair(&e, 1, out);
	assert_int_equal(k, 3);
	has(out, k, 1, 1, 5);
	has(out, k, 1, 6, 2);
	has(out, k, 1, 3, 7);
}

/* Bad arguments. */
static void
test_einval(void **st)
{
	(void)st;
	static struct event e;
	struct tourney_game out[64];
	ev_init(&e, 4, 3);
	assert_int_equal(swiss_pair(e.pl, 4, e.g, 0, 0, 3, out, 64), SWISS_EINVAL);
	assert_int_equal(swiss_pair(e.pl, 4, e.g, 0, 4, 3, out, 64), SWISS_EINVAL);
	assert_int_equal(swiss_pair(e.pl, 4, e.g, 0, 1, 3, out, 1), SWISS_EINVAL);
	game(&e, 1, 1, 9, TR_DRAW);
	assert_int_equal(swiss_pair(e.pl, 4, e.g, 1, 2, 3, out, 64), SWISS_EINVAL);
	assert_int_equal(swiss_pair(e.pl, 0, e.g, 0, 1, 3, out, 64), 0);
}

/* The property test. */

static unsigned long long rng;

static unsigned
rnd(unsigned n)
{
	rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
	return (unsigned)(rng >> 33) % n;
}

/* What the checks read of an event at a round: per player the played
 * colours (+1 W, -1 B), the score in halves, whether a bye or a forfeit
 * win bars the bye, and who met whom over the board. */
struct past {
	int ncol[2048], score[2048], nobye[2048];
	signed char col[2048][64];
	unsigned char met[1024][1024];
};

static void
past_of(const struct tourney_game *g, int ng, struct past *p)
{
	memset(p, 0, sizeof *p);
	for (int r = 1; r <= 64; r++)
		for (int i = 0; i < ng; i++) {
			if (g[i].round != r)
				continue;
			int a = g[i].first, b = g[i].second;
			p->score[a] += tourney_points(&g[i], a);
			if (g[i].result == TR_BYE || g[i].result == TR_SECOND_FORFEIT)
				p->nobye[a] = 1;
			if (b == TOURNEY_BYE)
				continue;
			p->score[b] += tourney_points(&g[i], b);
			if (g[i].result == TR_FIRST_FORFEIT)
				p->nobye[b] = 1;
			if (!tourney_played(&g[i]))
				continue;
			p->col[a][p->ncol[a]++] = 1;
			p->col[b][p->ncol[b]++] = -1;
			p->met[a][b] = p->met[b][a] = 1;
		}
}

/* Whether p, playing c next, stays within +-2 and off a third in a row. */
static int
colour_ok(const struct past *p, int x, int c)
{
	int cd = c, k = p->ncol[x];
	for (int i = 0; i < k; i++)
		cd += p->col[x][i];
	if (cd > 2 || cd < -2)
		return 0;
	return !(k >= 2 && p->col[x][k - 1] == c && p->col[x][k - 2] == c);
}

/* Whether a and b may meet: not met over the board, and a colour for
 * each within the limits, unless one is a topscorer (top: the round when
 * it is the last, else 0). */
static int
may_meet(const struct past *p, int a, int b, int top)
{
	if (p->met[a][b])
		return 0;
	if (top && (p->score[a] > top - 1 || p->score[b] > top - 1))
		return 1;
	return (colour_ok(p, a, 1) && colour_ok(p, b, -1)) ||
	    (colour_ok(p, a, -1) && colour_ok(p, b, 1));
}

/* Whether the players act[0..na) can all be paired, one with the bye
 * when bye is set: every pairing tried. */
static int
any_pairing(const struct past *p, int *act, int na, int bye, int top)
{
	if (na == 0)
		return !bye;
	int a = act[0];
	if (bye && !p->nobye[a] && any_pairing(p, act + 1, na - 1, 0, top))
		return 1;
	for (int j = 1; j < na; j++) {
		if (!may_meet(p, a, act[j], top))
			continue;
		int rest[16], nr = 0;
		for (int i = 1; i < na; i++)
			if (i != j)
				rest[nr++] = act[i];
		if (any_pairing(p, rest, nr, bye, top))
			return 1;
	}
	return 0;
}

/* Plays a random event of n players over rounds, checking each round. */
static void
random_event(int n, int rounds, int withdraw, struct tourney_game *g, struct past *p)
{
	static struct tourney_player pl[2048];
	struct tourney_game out[1024];
	int ng = 0;
	memset(pl, 0, sizeof pl);
	assert_true(n <= 1024);
	for (int r = 1; r <= rounds; r++) {
		if (withdraw && r > 1 && rnd(4) == 0)
			pl[rnd((unsigned)n)].withdrawn = 1;
		int nact = 0;
		for (int i = 0; i < n; i++)
			nact += !pl[i].withdrawn;
		int k = swiss_pair(pl, n, g, ng, r, rounds, out, 1024);
		past_of(g, ng, p);
		if (k == SWISS_IMPOSSIBLE) {
			/* only where a search of every pairing finds none */
			int act[16], na = 0;
			assert_true(nact <= 16);
			for (int i = 0; i < n; i++)
				if (!pl[i].withdrawn)
					act[na++] = i;
			assert_false(any_pairing(p, act, na, nact % 2, r == rounds ? r : 0));
			return;
		}
		assert_int_equal(k, (nact + 1) / 2);
		int seen[2048] = { 0 }, byes = 0;
		for (int i = 0; i < k; i++) {
			const struct tourney_game *x = &out[i];
			assert_int_equal(x->round, r);
			assert_true(x->first >= 0 && x->first < n && !pl[x->first].withdrawn);
			assert_int_equal(seen[x->first]++, 0);
			if (x->second == TOURNEY_BYE) {
				assert_int_equal(x->result, TR_BYE);
				assert_int_equal(p->nobye[x->first], 0);
				byes++;
				continue;
			}
			assert_int_equal(x->result, TR_PENDING);
			assert_true(x->second >= 0 && x->second < n && !pl[x->second].withdrawn);
			assert_int_equal(seen[x->second]++, 0);
			assert_false(p->met[x->first][x->second]);
			/* topscorers of the last round may pass the limits */
			int top = r == rounds &&
			    (p->score[x->first] > r - 1 || p->score[x->second] > r - 1);
			if (!top) {
				assert_true(colour_ok(p, x->first, 1));
				assert_true(colour_ok(p, x->second, -1));
			}
		}
		assert_int_equal(byes, nact % 2);
		for (int i = 0; i < n; i++)
			assert_int_equal(seen[i], !pl[i].withdrawn);
		/* results: mostly played, now and then a forfeit */
		for (int i = 0; i < k; i++) {
			if (out[i].second != TOURNEY_BYE) {
				unsigned u = rnd(20);
				out[i].result = u < 8 ? TR_FIRST_WINS
				    : u < 15          ? TR_SECOND_WINS
				    : u < 18          ? TR_DRAW
				    : u < 19          ? TR_FIRST_FORFEIT
						      : TR_SECOND_FORFEIT;
			}
			g[ng++] = out[i];
		}
	}
}

static void
test_random(void **st)
{
	(void)st;
	static struct tourney_game g[64 * 1024];
	static struct past p;
	for (unsigned seed = 1; seed <= 300; seed++) {
		rng = seed;
		int n = 2 + (int)rnd(40), rounds = 1 + (int)rnd(9);
		random_event(n, rounds, seed % 3 == 0, g, &p);
	}
}

/* A large event: 1,000 players, 9 rounds, the same checks. */
static void
test_large(void **st)
{
	(void)st;
	static struct tourney_game g[9 * 1024];
	static struct past p;
	rng = 48;
	random_event(1000, 9, 0, g, &p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seven),
		cmocka_unit_test(test_transposition),
		cmocka_unit_test(test_exchange),
		cmocka_unit_test(test_exchange_colours),
		cmocka_unit_test(test_downfloater),
		cmocka_unit_test(test_rematch),
		cmocka_unit_test(test_impossible),
		cmocka_unit_test(test_bye_forfeit),
		cmocka_unit_test(test_bye_moves_up),
		cmocka_unit_test(test_colour),
		cmocka_unit_test(test_topscorers),
		cmocka_unit_test(test_mdp_exchange),
		cmocka_unit_test(test_wider),
		cmocka_unit_test(test_alternate),
		cmocka_unit_test(test_withdrawn),
		cmocka_unit_test(test_einval),
		cmocka_unit_test(test_random),
		cmocka_unit_test(test_large),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
