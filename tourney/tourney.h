/*
 * tourney.h: a tournament's players and games as the pairing and standings
 * modules read them (issue 48). Pure: no I/O, no clock, no daemon; the
 * daemon's tournaments keep these records and ask swiss.h, roundrobin.h,
 * arena.h and standings.h what follows from them.
 *
 * Players are indexes 0..n-1 into the caller's array. "First" is the role
 * the opening rule gives first (the opener under swap2 and the renju
 * opening rules, black otherwise): the colour of a chess pairing system.
 * Points are counted in halves everywhere: a win 2, a draw 1, a loss 0
 * (a Swiss or round robin shows them halved: 1, 1/2, 0; an arena shows
 * them as they are).
 */
#ifndef GOMOKUD_TOURNEY_H
#define GOMOKUD_TOURNEY_H

/* The most players one tournament holds: a 1,000-player arena fits. */
#define TOURNEY_PLAYERS_MAX 2048
/* The most rounds of a Swiss or round robin (a round robin of 64 plays 63). */
#define TOURNEY_ROUNDS_MAX 64

/* The second player of a bye: no one. */
#define TOURNEY_BYE (-1)

enum tourney_result {
	TR_PENDING,        /* not over yet */
	TR_FIRST_WINS,     /* first won over the board */
	TR_SECOND_WINS,    /* second won over the board */
	TR_DRAW,           /* a draw over the board */
	TR_FIRST_FORFEIT,  /* first lost without playing (second scores a win) */
	TR_SECOND_FORFEIT, /* second lost without playing (first scores a win) */
	TR_BOTH_FORFEIT,   /* neither came: both score a loss */
	TR_BYE,            /* first had no opponent (second is TOURNEY_BYE) */
};

struct tourney_game {
	int round;  /* 1, 2, ...; an arena's games are all round 0 */
	int first;  /* player index */
	int second; /* player index, or TOURNEY_BYE */
	enum tourney_result result;
};

struct tourney_player {
	int rating;    /* for the initial order and the arena's pairing */
	int withdrawn; /* takes part in no more pairings (games played still count) */
};

/* Whether g was played over the board (a result, not a forfeit or a bye). */
static inline int
tourney_played(const struct tourney_game *g)
{
	return g->result == TR_FIRST_WINS || g->result == TR_SECOND_WINS || g->result == TR_DRAW;
}

/* The points (in halves) player p scored in game g: 0 when p is not in it
 * or it is pending. A bye scores a win's. */
static inline int
tourney_points(const struct tourney_game *g, int p)
{
	int first = g->first == p, second = g->second == p;
	if (!first && !second)
		return 0;
	switch (g->result) {
	case TR_FIRST_WINS:
	case TR_SECOND_FORFEIT:
	case TR_BYE:
		return first ? 2 : 0;
	case TR_SECOND_WINS:
	case TR_FIRST_FORFEIT:
		return second ? 2 : 0;
	case TR_DRAW:
		return 1;
	default:
		return 0;
	}
}

#endif
