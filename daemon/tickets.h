/*
 * tickets.h: TLS session tickets, so that a client coming back (a phone
 * that changed networks, a reload) resumes its TLS session instead of a
 * full handshake. The keys come from a file (tls-ticket-keys) that the
 * nodes behind one front share, so a ticket from one node resumes on any;
 * without one, OpenSSL's own keys, made per context (a node resumes its
 * own tickets until it restarts or reloads).
 *
 * The file: one key a line, 160 hex digits (80 bytes: a 16-byte name, a
 * 32-byte HMAC-SHA256 key, a 32-byte AES-256 key), '#' comments; the first
 * line issues tickets, every line is accepted. Rotate by putting a new key
 * first and dropping the oldest, then SIGHUP each node. It must be the
 * owner's alone (no group or other bits), as a private key.
 */
#ifndef GOMOKUD_TICKETS_H
#define GOMOKUD_TICKETS_H

#include <stddef.h>

#include <openssl/ssl.h>

enum { TICKETS_MAX_KEYS = 4 };

struct tickets;

/* Reads the key file; NULL with err (unreadable, open to others, a bad
 * line, no key, too many). */
struct tickets *tickets_load(const char *path, char *err, size_t errlen);
void tickets_free(struct tickets *t);
/* The context issues and takes tickets with t's keys, and owns t from
 * now on (freed with the context). 0, or -1 (t still the caller's). */
int tickets_attach(SSL_CTX *ctx, struct tickets *t);

#endif
