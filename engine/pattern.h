/*
 * pattern.h: shared read-only pattern tables.
 *
 * A line key describes the ten cells around a cell in one direction (five
 * each side, 2 bits each: 0 empty, 1 black, 2 white, 3 off the board).
 * Slot s (0..9) holds offset s-5 for s < 5 and s-4 for s >= 5, at bits 2s.
 * The line pattern says what the line becomes if a colour plays the centre.
 * The threat class combines the four line patterns of a cell.
 */
#ifndef GOMOKU_PATTERN_H
#define GOMOKU_PATTERN_H

#include <stdint.h>

enum {
	KEY_BITS = 20,
	KEY_COUNT = 1 << KEY_BITS,
	/* freestyle's key leaves out the outermost cell each side */
	FREE_KEY_SHIFT = 2,
	FREE_KEY_COUNT = 1 << (KEY_BITS - 4),
};

/* Line patterns, weakest first. */
enum {
	LP_DEAD = 0, /* no five possible through the centre */
	LP_B1,       /* alive, nothing more */
	LP_B2,       /* two moves from a four */
	LP_F2,       /* two moves from an open four */
	LP_B3,       /* one move from a four */
	LP_F3,       /* one move from an open four: an open three */
	LP_B4,       /* a four: one point makes five */
	LP_F4,       /* two or more points make five */
	LP_F5,       /* five */
	LP_OL,       /* overline under an exact-five rule */
	LP_COUNT
};

/* Threat classes of a cell for one colour: what playing there makes. */
enum {
	T_NONE = 0,
	T_LOW,  /* a two or a closed three */
	T_LOW2, /* two or more of those */
	T_F3,   /* an open three */
	T_F3P,  /* an open three plus a two or closed three */
	T_B4,   /* a four */
	T_B4P,  /* a four plus a two or closed three */
	T_F3X2, /* two open threes */
	T_B4F3, /* four and open three */
	T_F4,   /* open four or two fours: wins unless met by a five */
	T_FIVE,
	T_COUNT
};

enum {
	/* combinations of four line patterns as a sorted multiset:
	 * C(LP_COUNT + 3, 4) */
	SHAPE_COUNT = 715,
	COMBO_COUNT = LP_COUNT * LP_COUNT * LP_COUNT * LP_COUNT,
};

/* The learned table's entry for one combination (shapes.h), by rule. */
typedef struct {
	int16_t val[2]; /* the cell's value for its colour: [0] that colour to
	                   move, [1] the other; SHAPE_RES times finer */
	int32_t pol[2]; /* move ordering: [0] playing it (attack), [1]
	                   taking it from the other colour (defence) */
} shape_t;

typedef struct {
	uint8_t cls;     /* T_* */
	uint8_t suspect; /* renju black: may be forbidden, ask the rules core */
	int16_t score;   /* static value of the cell for its colour */
} combo_t;

/* Initialises the tables once (thread-safe); cheap after the first call. */
void pattern_init(void);
/* Line patterns of both colours by key for a rule (rule_t): black's in the
 * low byte, white's in the high one, at tab[(key >> shift) & mask]. */
typedef struct {
	const uint16_t *tab;
	unsigned shift;
	uint32_t mask;
} pattern_lines_t;
pattern_lines_t pattern_lines(int rule);

static inline uint16_t
pattern_line(const pattern_lines_t *t, uint32_t key)
{
	return t->tab[(key >> t->shift) & t->mask];
}
/* Combination of four line patterns. */
const combo_t *pattern_combo(int p0, int p1, int p2, int p3);
/* The whole combination table, indexed by pattern_combo_index, for callers
 * that inline the lookup. */
const combo_t *pattern_combo_table(void);

static inline int
pattern_combo_index(int p0, int p1, int p2, int p3)
{
	return ((p0 * LP_COUNT + p1) * LP_COUNT + p2) * LP_COUNT + p3;
}
/* The shape (0..SHAPE_COUNT) of a combination: its patterns sorted. */
int pattern_shape(int p0, int p1, int p2, int p3);
/* The learned table for a rule, indexed by pattern_combo_index. */
const shape_t *pattern_shape_table(int rule);
/* Pattern of a line given as 11 cells (centre index 5 empty), from scratch:
 * the reference the tables are built from (tests compare against it). */
int pattern_classify(const uint8_t line[11], int colour, int exact);

#endif
