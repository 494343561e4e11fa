/*
 * rules.h: the one implementation of the game rules (board, moves, five,
 * renju forbidden points, notation, game records). The daemon, the client
 * and the AI all use it. No globals: a position is a plain value that may
 * be copied with assignment or memcpy.
 *
 * Coordinates: x is the column from the left, y the row from the top, both
 * 0-based (the Gomocup convention). A move is the cell index y * RULES_STRIDE
 * + x, so the same index names the same point on any board size.
 * Printed notation "h8": column letter a, b, c, ... from the left and row
 * number 1, 2, 3, ... from the bottom.
 */
#ifndef GOMOKU_RULES_H
#define GOMOKU_RULES_H

#include <stddef.h>
#include <stdint.h>

enum {
	RULES_MIN_SIZE = 5,
	RULES_MAX_SIZE = 20,
	RULES_DEFAULT_SIZE = 15,
	RULES_STRIDE = RULES_MAX_SIZE,
	RULES_CELLS = RULES_MAX_SIZE * RULES_MAX_SIZE,
};

typedef enum {
	RULE_FREESTYLE = 0, /* five or more in a row wins */
	RULE_STANDARD = 1,  /* exactly five wins; an overline does not */
	RULE_RENJU = 2,     /* RIF: black exactly five and forbidden points */
} rule_t;

typedef enum { STONE_EMPTY = 0, STONE_BLACK = 1, STONE_WHITE = 2 } stone_t;

typedef int16_t move_t;
#define MOVE_NONE ((move_t)-1)

/* Why a move may not be played. */
typedef enum {
	LEGAL_OK = 0,
	LEGAL_OFF_BOARD,
	LEGAL_OCCUPIED,
	LEGAL_DOUBLE_THREE, /* renju, black only */
	LEGAL_DOUBLE_FOUR,  /* renju, black only */
	LEGAL_OVERLINE,     /* renju, black only */
	LEGAL_GAME_OVER,    /* the position already has a result */
} legality_t;

typedef enum { RESULT_ONGOING = 0, RESULT_WIN, RESULT_DRAW } result_kind_t;

typedef struct {
	result_kind_t kind;
	stone_t winner; /* RESULT_WIN only */
	int ncells;     /* the winning line, 5 or more cells */
	move_t cells[RULES_MAX_SIZE];
} outcome_t;

typedef struct {
	uint8_t size;
	uint8_t rule; /* rule_t */
	uint16_t nmoves;
	outcome_t outcome;         /* result after the last move */
	uint8_t cell[RULES_CELLS]; /* stone_t, indexed by move_t */
	move_t moves[RULES_CELLS]; /* moves[0] is black's first */
} position_t;

static inline move_t
rules_move(int x, int y)
{
	return (move_t)(y * RULES_STRIDE + x);
}
static inline int
rules_x(move_t m)
{
	return m % RULES_STRIDE;
}
static inline int
rules_y(move_t m)
{
	return m / RULES_STRIDE;
}

/* The image of m by the k-th (0..7) of the 8 symmetries of a square board
 * of side size: k's bit 1 mirrors the columns, bit 2 the rows, bit 4
 * swaps the two (0 is m itself). */
move_t rules_transform(int k, int size, move_t m);

/* Starts an empty board. Returns 0, or -1 for a size or rule out of range. */
int pos_init(position_t *p, rule_t rule, int size);
/* The colour that moves next (black moves first, then they alternate). */
stone_t pos_to_move(const position_t *p);
int pos_on_board(const position_t *p, int x, int y);
/* Whether the side to move may play m, and why not. */
legality_t pos_check(const position_t *p, move_t m);
/* Plays m after pos_check; returns its legality and leaves p unchanged unless
 * it is LEGAL_OK. p->outcome then holds the result. */
legality_t pos_play(position_t *p, move_t m);
/* Takes back the last move; returns it, or MOVE_NONE on an empty board. */
move_t pos_undo(position_t *p);
/* Plays a move without checks (for replaying trusted records and the AI):
 * the cell must be empty and on the board. Updates p->outcome. */
void pos_place(position_t *p, move_t m);

/* Outcome had `colour` just played m (already on the board) under p's rule. */
outcome_t rules_outcome_at(const position_t *p, move_t m, stone_t colour);
/* Renju: whether black playing the empty point m is forbidden, and why
 * (LEGAL_OK when it is not). Exactly five is never forbidden. Callable for
 * any rule; the answer is about renju shapes. */
legality_t renju_forbidden(const position_t *p, move_t m);
/* Renju: every point forbidden to black now, in index order; returns the count.
 * Empty under the other rules. out must hold RULES_CELLS moves. */
int rules_forbidden_points(const position_t *p, move_t *out);

const char *rule_name(rule_t r);            /* "freestyle", "standard", "renju" */
int rule_parse(const char *s, rule_t *out); /* 0 or -1 */
const char *legality_name(legality_t l);    /* "off-board", "double-three", ... */

/* "h8" notation. Parse returns 0 or -1 (syntax or off the board); it reads
 * people's notation, so a column may be upper case ("H8"). Format writes the
 * one canonical form (lower case, what the protocol accepts) in at most 4
 * bytes including the NUL into buf and returns buf. */
int notation_parse(const char *s, int size, move_t *out);
char *notation_format(move_t m, int size, char buf[4]);
/* Gomocup "x,y" (0-based from the top-left). Format needs 8 bytes. */
int notation_parse_xy(const char *s, int size, move_t *out);
char *notation_format_xy(move_t m, char buf[8]);

/* Game record as text:
 *   rule renju
 *   size 15
 *   moves h8 i9 j10
 * record_format returns the length written (snprintf semantics).
 * record_parse checks every move is legal and fills p; on error it returns -1
 * and writes a short reason into err (if non-NULL). Lines with other keys
 * (an archive's players, result, times) are skipped. A long game's moves
 * may continue on further "moves" lines; rule and size appear once. */
int record_format(const position_t *p, char *buf, size_t len);
int record_parse(const char *text, position_t *p, char *err, size_t errlen);

#endif
