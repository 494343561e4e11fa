/*
 * export.h: a stored game as text for EXPORT: the rules core's record with
 * the archive's keys, or Piskvork's .psq. Result and reason are the game domain's
 * values the store keeps (game_result_t, game_reason_t in game.h).
 */
#ifndef GOMOKUD_EXPORT_H
#define GOMOKUD_EXPORT_H

#include <stddef.h>

#include "daemon/store.h"

/* Long lists continue on further lines with the same key, so every line
 * fits a protocol line's text. */
enum { EXPORT_MOVES_A_LINE = 50, EXPORT_TIMES_A_LINE = 30, EXPORT_MAX = 16384 };

/* Both return the length written (snprintf semantics) or -1; buf holds lines
 * ending in LF, to be sent one `= RECORD` line each. */
int export_text(const store_game_t *g, const store_move_t *moves, char *buf, size_t len);
int export_psq(const store_game_t *g, const store_move_t *moves, char *buf, size_t len);

#endif
