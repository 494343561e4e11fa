/* book.h: what bin/winfit and bin/reviewfig share for their self-play: an
 * opening book (one opening a line, stones in the protocol's notation,
 * '#' to the end of a line a comment) and the seeded mixer that makes
 * their draws repeatable. */
#ifndef GOMOKU_TOOLS_BOOK_H
#define GOMOKU_TOOLS_BOOK_H

#include <stdint.h>

#include "rules/rules.h"

enum { BOOK_MAX = 1000, OPEN_MAX = 8 };

typedef struct {
	int n;
	int len[BOOK_MAX];
	move_t mv[BOOK_MAX][OPEN_MAX];
} book_t;

/* A hash of three numbers, for draws that depend only on the seed. */
uint32_t book_mix(uint32_t a, uint32_t b, uint32_t c);
/* Reads path's openings for rule and size into b: 0, or -1 said on
 * stderr after prog (no file, a stone illegal or ending the game, too many
 * stones or openings, none at all). */
int book_load(const char *prog, const char *path, rule_t rule, int size, book_t *b);

#endif
