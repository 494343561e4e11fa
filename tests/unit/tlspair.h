/* tlspair.h: a real TLS link inside one process, for the tests of the
 * daemon's TLS stream (test_tlsio) and its WebSocket fuzzer (fuzz_ws): a
 * server context with a P-256 key and a self-signed certificate made in
 * memory, a client context that verifies nothing, and a non-blocking
 * socket pair to run them on. */
#ifndef GOMOKUD_TESTS_TLSPAIR_H
#define GOMOKUD_TESTS_TLSPAIR_H

#include <openssl/ssl.h>

/* The two contexts, made on the first call and kept; 0, or -1. */
int tlspair_contexts(SSL_CTX **server, SSL_CTX **client);
/* A connected AF_UNIX stream pair, both ends non-blocking; 0, or -1. */
int tlspair_sockets(int sv[2]);

#endif
