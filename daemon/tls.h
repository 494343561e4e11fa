/* tls.h: the server's OpenSSL context and its self-signed certificate. */
#ifndef GOMOKUD_TLS_H
#define GOMOKUD_TLS_H

#include <stddef.h>

#include <openssl/ssl.h>

/* A server context (TLS 1.2 minimum) from PEM files; NULL with err. */
SSL_CTX *tls_server_ctx(const char *cert, const char *key, char *err, size_t errlen);
/* Makes sure dir/cert.pem and dir/key.pem exist, generating a self-signed
 * P-256 certificate for the names in sans (tls_san_list) when they do not;
 * a certificate there whose names miss some of sans is issued again for
 * the same key, so pinned clients keep trusting it. Writes their paths.
 * Returns 1 when it generated them, 0 when they were there, -1 on error. */
int tls_selfsigned(const char *dir, const char *sans, char *cert, char *key, size_t pathlen,
    char *err, size_t errlen);
/* The subjectAltName list ("DNS:localhost,IP:127.0.0.1,...") of a
 * self-signed certificate for name (a DNS name or an address; "" for none)
 * and the hosts of the listen addresses, besides localhost. 0, or -1 when
 * it does not fit. */
int tls_san_list(const char *name, const char (*listen)[128], int nlisten, char *out, size_t len);
/* The pinned form of a certificate's public key, "sha256:<hex>", as the
 * client shows and keeps it (needs 72 bytes). 0 or -1. */
int tls_key_fingerprint(const char *cert, char *out, size_t len);
/* SHA-256 fingerprint of a PEM certificate as "AB:CD:..." (needs 96 bytes). */
int tls_fingerprint(const char *cert, char *out, size_t len);

#endif
