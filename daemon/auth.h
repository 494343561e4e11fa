/*
 * auth.h: passwords, session tokens and names. Nothing here touches the
 * network or the store; callers run the password functions off the event
 * loop, since scrypt is slow on purpose.
 */
#ifndef GOMOKUD_AUTH_H
#define GOMOKUD_AUTH_H

#include <stddef.h>
#include <stdint.h>

enum {
	AUTH_HASH_MAX = 160,  /* a stored password hash, with its NUL */
	AUTH_TOKEN_LEN = 32,  /* characters of a session token (128 bits, hex) */
	AUTH_DIGEST_LEN = 64, /* characters of a token's SHA-256, hex */
	AUTH_NAME_MIN = 3,
	AUTH_NAME_MAX = 20,
};

/* scrypt cost: N = 2^log2n, r, p. */
typedef struct {
	int log2n, r, p;
} auth_cost_t;

/* The production cost: 16 MiB and about 50 ms a hash on one core. */
extern const auth_cost_t AUTH_COST_DEFAULT;

/* Hashes a password with a fresh 16-byte salt into
 * "scrypt$<log2n>$<r>$<p>$<salt hex>$<key hex>". Returns 0 or -1. */
int auth_hash_password(const char *password, const auth_cost_t *cost, char out[AUTH_HASH_MAX]);
/* 1 if password matches stored (compared in constant time), 0 if not,
 * -1 if stored is malformed. */
int auth_verify_password(const char *password, const char *stored);

/* A new random session token (hex, NUL-terminated) and the digest to store. */
int auth_token_new(char token[AUTH_TOKEN_LEN + 1], char digest[AUTH_DIGEST_LEN + 1]);
/* The digest under which a token is stored: tokens are never stored as is. */
void auth_token_digest(const char *token, char digest[AUTH_DIGEST_LEN + 1]);

typedef enum {
	NAME_OK = 0,
	NAME_LENGTH,     /* not 3..20 characters */
	NAME_CHARACTERS, /* a letter first, then letters, digits, '_' or '-' */
	NAME_RESERVED,   /* admin, server, bot names, guest names ... */
} auth_name_t;

/* Whether name may be registered. Uniqueness is case-insensitive: compare
 * auth_name_key()s. */
auth_name_t auth_name_check(const char *name);
const char *auth_name_reason(auth_name_t r);
/* Lower-cased name, the key for case-insensitive uniqueness. */
void auth_name_key(const char *name, char key[AUTH_NAME_MAX + 1]);

#endif
