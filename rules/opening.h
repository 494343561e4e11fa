/*
 * opening.h: the opening rules as state machines (issue 46). One machine per
 * rule behind one interface, shared by the daemon, both clients and the
 * engine: it holds the stage and who must act, the colours and the swaps,
 * the declared number of fifth-move offers, the offered fifth moves and the
 * choice, and the stones placed so far (a position_t of the rules core).
 * Every act the rule's text allows is a function; an act the rule does not
 * allow is refused with an opening_err_t and changes nothing. No I/O, no
 * globals: an opening_t is a plain value that may be copied.
 *
 * Players are 0 and 1: player 0 starts the game (the tentative black, the
 * opener of swap and swap2), player 1 is the other. Which one holds black is
 * o->black; it changes with each swap until the machine is done.
 *
 * The 26 canonical renju openings (first black stone on the centre, white
 * next to it, the third stone in the central 5x5) are data here, by name.
 */
#ifndef GOMOKU_OPENING_H
#define GOMOKU_OPENING_H

#include "rules/rules.h"

typedef enum {
	ORULE_NONE = 0,    /* gomoku: no opening; renju: black's first on the centre */
	ORULE_SWAP2,       /* gomoku */
	ORULE_SWAP,        /* gomoku: swap1 */
	ORULE_PRO,         /* gomoku, odd sizes */
	ORULE_LONGPRO,     /* gomoku, odd sizes */
	ORULE_RIF,         /* renju 15x15 */
	ORULE_YAMAGUCHI,   /* renju 15x15 */
	ORULE_TARAGUCHI10, /* renju 15x15 */
	ORULE_SOOSORV8,    /* renju 15x15 */
	ORULE_COUNT,       /* the count */
} opening_rule_t;

/* What the machine waits for. */
typedef enum {
	OSTAGE_PLACE = 0,     /* the actor places the next stone, in the allowed area */
	OSTAGE_SWAP,          /* the actor chooses a colour: swap or stay */
	OSTAGE_SWAP_OR_PLACE, /* swap2 after three stones: choose a colour, or place two */
	OSTAGE_DECLARE,       /* the actor declares the number of fifth-move offers */
	OSTAGE_OFFER,         /* the actor offers that many fifth moves at once */
	OSTAGE_CHOOSE,        /* the actor chooses one of the offered fifth moves */
	OSTAGE_BRANCH,        /* taraguchi-10 after the fourth move */
	OSTAGE_DONE,          /* the opening is over: the main game goes on */
} opening_stage_t;

/* Taraguchi-10's choice after the fourth move. */
typedef enum {
	OBRANCH_ONE = 0, /* one fifth move in the central 9x9, with a swap before and after */
	OBRANCH_TEN = 1, /* ten fifth moves offered anywhere, the other player chooses */
} opening_branch_t;

/* Where the stone of the current stage may go (what a client shades). */
typedef enum {
	OAREA_NONE = 0, /* this stage places no stone */
	OAREA_ANY,      /* any empty point */
	OAREA_CENTRE,   /* the centre point */
	OAREA_IN3,      /* the central 3x3 ... 9x9 */
	OAREA_IN5,
	OAREA_IN7,
	OAREA_IN9,
	OAREA_OUT5,   /* outside the central 5x5 (pro) */
	OAREA_OUT7,   /* outside the central 7x7 (long pro) */
	OAREA_OFFERS, /* one of the offered fifth moves */
	OAREA_COUNT,
} opening_area_t;

/* Why an act was refused. The protocol maps these to its codes later. */
typedef enum {
	OERR_OK = 0,
	OERR_COMBINATION, /* this rule, board size and opening do not go together */
	OERR_ARGUMENT,    /* no such player, colour or branch */
	OERR_WRONG_STAGE, /* not an act of this stage (or the opening is over) */
	OERR_NOT_TURN,    /* the other player must act */
	OERR_OFF_BOARD,
	OERR_OCCUPIED,
	OERR_OUTSIDE_AREA, /* not in the area this stage allows */
	OERR_ILLEGAL,      /* the rules core refused the stone for another reason */
	OERR_WRONG_COUNT,  /* a number of offers out of range, or not the declared one */
	OERR_DUPLICATE,    /* the same point offered twice */
	OERR_SYMMETRIC,    /* two offers are the same by the board's symmetry */
	OERR_NOT_OFFERED,  /* a fifth move that was not offered */
} opening_err_t;

enum {
	OPENING_MAX_OFFERS = 10, /* taraguchi-10's ten; the most any rule here takes */
	RENJU_OPENINGS = 26,
};

typedef struct {
	uint8_t rule;     /* opening_rule_t */
	uint8_t stage;    /* opening_stage_t */
	uint8_t step;     /* where in the rule's script */
	int8_t actor;     /* 0 or 1: who must act; -1 once done */
	int8_t black;     /* 0 or 1: who holds black now */
	uint8_t swaps;    /* colour swaps made */
	int8_t branch;    /* opening_branch_t once chosen, -1 before */
	int8_t canon;     /* the renju opening's index once known, -1 before */
	uint8_t declared; /* the number of fifth moves to offer, 0 before */
	uint8_t noffers;
	move_t offers[OPENING_MAX_OFFERS];
	move_t chosen;  /* the chosen fifth move, MOVE_NONE before */
	position_t pos; /* the stones placed so far (the game's first moves) */
} opening_t;

/* One act of either player, as a value: what the daemon's rooms, the bots
 * and the store's log of an opening pass around. */
typedef enum {
	OACT_PLACE = 0, /* moves[0] */
	OACT_COLOUR,    /* arg: the stone_t the actor takes */
	OACT_DECLARE,   /* n */
	OACT_OFFER,     /* moves[0..n) */
	OACT_CHOOSE,    /* moves[0], one of the offers */
	OACT_BRANCH,    /* arg: opening_branch_t */
	OACT_COUNT,
} opening_act_kind_t;

typedef struct {
	uint8_t kind; /* opening_act_kind_t */
	uint8_t n;    /* DECLARE: the number; OFFER: the moves */
	uint8_t arg;  /* COLOUR, BRANCH */
	move_t moves[OPENING_MAX_OFFERS];
} opening_act_t;

/* Whether a game rule, board size and opening rule go together. */
opening_err_t opening_combination(opening_rule_t orule, rule_t rule, int size);
/* Starts the machine on an empty board; OERR_COMBINATION leaves o unusable. */
opening_err_t opening_init(opening_t *o, opening_rule_t orule, rule_t rule, int size);

/* The acts. player is 0 or 1; each returns OERR_OK or why not (o unchanged). */
opening_err_t opening_place(opening_t *o, int player, move_t m);
/* Swap or stay: the actor takes `colour` (STONE_BLACK or STONE_WHITE). */
opening_err_t opening_choose_colour(opening_t *o, int player, stone_t colour);
opening_err_t opening_declare(opening_t *o, int player, int n);
/* All the offers at once: exactly the declared number, none symmetric. */
opening_err_t opening_offer(opening_t *o, int player, const move_t *moves, int n);
opening_err_t opening_choose_fifth(opening_t *o, int player, move_t m);
opening_err_t opening_branch(opening_t *o, int player, opening_branch_t b);

/* Any act, by its kind: as the act's own function above. */
opening_err_t opening_apply(opening_t *o, int player, const opening_act_t *a);
/* Whether an act places a stone (PLACE, CHOOSE): the stone is the game's
 * next move. */
int opening_act_stone(const opening_act_t *a);

int opening_done(const opening_t *o);
/* Where the current stage's stone may go. */
opening_area_t opening_area_kind(const opening_t *o);
const char *opening_area_name(opening_area_t a); /* "any", "in5", "-" for none, ... */
/* The colour a player holds now (tentative until the opening is done). */
stone_t opening_colour_of(const opening_t *o, int player);
/* The least and most fifth-move offers the actor may declare now (DECLARE
 * stage), or 0 and 0. */
void opening_declare_range(const opening_t *o, int *min, int *max);
/* Where a stone may go now: PLACE, SWAP_OR_PLACE and OFFER stages allow the
 * empty points of their area, CHOOSE the offered moves, DONE every empty
 * point, the other stages none. The list is in index order; out holds
 * RULES_CELLS moves; returns the count. */
int opening_allowed(const opening_t *o, move_t m);
int opening_area(const opening_t *o, move_t *out);

/* Whether a and b are the same point by a symmetry of the stones on p's
 * board (a == b included). */
int opening_symmetric(const position_t *p, move_t a, move_t b);

/* The canonical renju openings. Offsets are from the centre, in board
 * coordinates (x to the right, y down); the table holds one orientation
 * (white above the centre for the direct ones, above and to the right for
 * the indirect ones). */
typedef struct {
	const char *code; /* "D1" ... "D13", "I1" ... "I13" */
	const char *name; /* romaji: "Kansei", ... */
	int8_t wx, wy;    /* the white stone */
	int8_t bx, by;    /* the third stone (black) */
} renju_opening_t;

const renju_opening_t *renju_opening(int i); /* 0 <= i < RENJU_OPENINGS, or NULL */
/* Which canonical opening p's stones are, in any of the 8 orientations:
 * exactly two black stones, one on the centre, and one white; the index,
 * or -1. Any board size with a centre. */
int renju_opening_find(const position_t *p);

/*
 * The log of an opening, as the store keeps it beside the game's moves: the
 * acts that place no stone, each with the number of stones on the board
 * when it was made, as "k:act" separated by spaces; the acts are "cb"/"cw"
 * (the colour taken), "d5" (declared), "oh10,j10" (offered), "bone"/"bten"
 * (branch). The stones themselves are the game's moves. Lowercase ASCII,
 * at most OPENING_LOG_MAX bytes with its NUL.
 */
enum { OPENING_LOG_MAX = 256 };
/* Appends a's entry (a no-stone act) to log, made with `stones` stones on
 * the board; -1 when it would not fit or a places a stone. */
int opening_log_append(char *log, size_t cap, int stones, const opening_act_t *a, int size);
/* Plays an opening back: o fresh from opening_init, then the log's acts
 * and the stones in the order they were made (a stone at the CHOOSE stage
 * is the choice), until the stones run out or the machine is done. *used
 * is the number of stones the opening took (the rest are the game's).
 * OERR_OK, or the first refusal (OERR_ARGUMENT for a log that does not
 * parse, or that has acts left over). */
opening_err_t opening_replay(
    opening_t *o, const char *log, const move_t *stones, int nstones, int *used);

const char *opening_rule_name(opening_rule_t r);            /* "soosorv8", "swap2", "none", ... */
int opening_rule_parse(const char *s, opening_rule_t *out); /* 0 or -1 */
const char *opening_stage_name(opening_stage_t s);          /* "place", "swap", ... */
const char *opening_err_name(opening_err_t e);              /* "not-turn", ... */

#endif
