/*
 * keyprint.h: the name of a server's key that people compare, "sha256:"
 * and the hex SHA-256 of the certificate's public key (its DER
 * SubjectPublicKeyInfo). gomokud logs it and the client pins and shows
 * it, so both must spell it the same way: this is that one spelling.
 * It names the key, not the certificate, so a renewed certificate for the
 * same key keeps its pin.
 */
#ifndef GOMOKU_PROTO_KEYPRINT_H
#define GOMOKU_PROTO_KEYPRINT_H

#include <stddef.h>

#include <openssl/x509.h>

enum { KEYPRINT_LEN = 7 + 64 + 1 }; /* "sha256:", 64 hex digits, NUL */

/* Writes cert's key fingerprint into out (at least KEYPRINT_LEN bytes):
 * 0, or -1 when the key cannot be encoded or out is too small. */
int keyprint(X509 *cert, char *out, size_t len);

#endif
