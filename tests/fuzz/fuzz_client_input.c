/*
 * fuzz_client_input: any sequence of keys and clicks, on any screen and in
 * any game state the server can put the model in, never crashes the input
 * layer, and every request it produces is one the protocol library can
 * write. Input: a few server lines, a line "--", then key bytes (0xff
 * starts a function key or click given by the next bytes).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <curses.h>

#include "client/input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const int fkeys[] = { KEY_UP, KEY_DOWN, KEY_LEFT, KEY_RIGHT, KEY_ENTER, KEY_BACKSPACE,
	KEY_HOME, KEY_END, KEY_RESIZE };

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static model_t m;
	static view_t v;
	model_init(&m);
	view_init(&v);
	model_sent(&m, PR_GUEST);
	const char *me = "OK GUEST alice 3kQ9fZ0aLm2Xw8pR7tYc1bN4";
	proto_msg_t x;
	if (proto_parse(me, strlen(me), PROTO_SERVER, &x, NULL, 0) == 0)
		model_apply(&m, &x, 0);
	size_t i = 0;
	/* server lines until "--" */
	while (i < size) {
		const uint8_t *nl = memchr(data + i, '\n', size - i);
		size_t len = nl ? (size_t)(nl - (data + i)) : size - i;
		i += len + 1;
		if (len == 2 && data[i - 3] == '-' && data[i - 2] == '-')
			break;
		if (len <= PROTO_LINE_MAX) {
			char line[PROTO_LINE_MAX + 1];
			memcpy(line, data + i - len - 1, len);
			line[len] = '\0';
			if (proto_parse(line, len, PROTO_SERVER, &x, NULL, 0) == 0)
				model_apply(&m, &x, 0);
		}
	}
	if (m.in_room)
		v.screen = SCR_GAME;
	for (; i < size; i++) {
		proto_msg_t out;
		input_rc_t r;
		if (data[i] == 0xff && i + 3 < size) {
			if (data[i + 1] & 1)
				r = input_click(&v, &m, data[i + 2] % 40, data[i + 3] % 100, &out);
			else
				r = input_key(&v, &m,
				    fkeys[data[i + 2] % (sizeof fkeys / sizeof fkeys[0])], 1, &out);
			i += 3;
		} else if (data[i] >= 0xf0 && i + 2 < size) {
			/* a code point beyond ASCII */
			r = input_key(&v, &m, (data[i + 1] << 8 | data[i + 2]) + 0x80, 0, &out);
			i += 2;
		} else {
			r = input_key(&v, &m, data[i], 0, &out);
		}
		if (r == INPUT_SEND) {
			char buf[PROTO_LINE_MAX + 1];
			if (proto_format(&out, buf, sizeof buf) < 0)
				abort(); /* the input layer built an invalid request */
			model_sent(&m, out.id);
		}
		if (r == INPUT_QUIT)
			break;
	}
	return 0;
}
