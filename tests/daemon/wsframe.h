/* wsframe.h: WebSocket frames as a test client writes and reads them (RFC
 * 6455 section 5), written out by hand on purpose: the tests need frames
 * the daemon's library would never send (fragments, bad opcodes, oversize),
 * and they check the daemon's framing against this independent reading. */
#ifndef GOMOKUD_TEST_WSFRAME_H
#define GOMOKUD_TEST_WSFRAME_H

#include <stddef.h>

enum { WS_CONT = 0, WS_TEXT = 1, WS_BINARY = 2, WS_CLOSE = 8, WS_PING = 9, WS_PONG = 10 };

/* A masked client frame into out (cap at least n + 14); its length. */
size_t wsf_encode(unsigned char *out, int fin, int opcode, const void *payload, size_t n);
/* A server frame at buf: its whole length, 0 while incomplete, -1 when it
 * is not a valid server frame (masked, reserved bits). Sets the fields. */
long wsf_decode(
    const unsigned char *buf, size_t len, int *fin, int *opcode, size_t *off, size_t *plen);

#endif
