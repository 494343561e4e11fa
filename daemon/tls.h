/* tls.h: the server's OpenSSL context and its self-signed certificate. */
#ifndef GOMOKUD_TLS_H
#define GOMOKUD_TLS_H

#include <stddef.h>

#include <openssl/ssl.h>

/* A server context (TLS 1.2 minimum) from PEM files; NULL with err. */
SSL_CTX *tls_server_ctx(const char *cert, const char *key, char *err, size_t errlen);
/* Makes sure dir/cert.pem and dir/key.pem exist, generating a self-signed
 * P-256 certificate for "localhost" when they do not. Writes their paths.
 * Returns 1 when it generated them, 0 when they were there, -1 on error. */
int tls_selfsigned(
    const char *dir, char *cert, char *key, size_t pathlen, char *err, size_t errlen);
/* SHA-256 fingerprint of a PEM certificate as "AB:CD:..." (needs 96 bytes). */
int tls_fingerprint(const char *cert, char *out, size_t len);

#endif
