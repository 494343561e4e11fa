/*
 * input.h: keys and mouse clicks to requests. Local state (cursor, input
 * line, questions, screens) changes in the view; anything for the server
 * comes back as one request to send.
 */
#ifndef GOMOKU_CLIENT_INPUT_H
#define GOMOKU_CLIENT_INPUT_H

#include "client/model.h"
#include "client/tui.h"

typedef enum { INPUT_NOTHING, INPUT_SEND, INPUT_QUIT, INPUT_REDRAW } input_rc_t;

/* key is a character (a Unicode code point) or, with fn set, a curses
 * KEY_ code. On INPUT_SEND, out holds the request. */
input_rc_t input_key(view_t *v, const model_t *m, int key, int fn, proto_msg_t *out);
/* A left click at screen row y, column x. */
input_rc_t input_click(view_t *v, const model_t *m, int y, int x, proto_msg_t *out);
/* The invite code in what was typed or pasted at the code prompt: a share
 * link's code (the letters and digits after "#join="), else the letters and
 * digits typed. Writes at most n - 1 of them and a NUL to code; returns how
 * many there are. */
size_t input_invite_code(const char *typed, char *code, size_t n);

#endif
