/* auth.c: scrypt password hashes, session tokens, name rules (OpenSSL). */
#include "daemon/auth.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>

const auth_cost_t AUTH_COST_DEFAULT = { 14, 8, 1 };

enum { SALT_LEN = 16, KEY_LEN = 32 };

static void
hex(const unsigned char *in, size_t n, char *out)
{
	static const char digits[] = "0123456789abcdef";

	for (size_t i = 0; i < n; i++) {
		out[2 * i] = digits[in[i] >> 4];
		out[2 * i + 1] = digits[in[i] & 15];
	}
	out[2 * n] = '\0';
}

static int
unhex(const char *in, size_t n, unsigned char *out)
{
	for (size_t i = 0; i < n; i++) {
		int v = 0;
		for (int k = 0; k < 2; k++) {
			char c = in[2 * i + k];
			int d = c >= '0' && c <= '9' ? c - '0'
			    : c >= 'a' && c <= 'f'   ? c - 'a' + 10
						     : -1;
			if (d < 0)
				return -1;
			v = v * 16 + d;
		}
		out[i] = (unsigned char)v;
	}
	return in[2 * n] == '\0' || in[2 * n] == '$' ? 0 : -1;
}

static int
derive(const char *password, const unsigned char *salt, const auth_cost_t *c,
    unsigned char key[KEY_LEN])
{
	uint64_t n = (uint64_t)1 << c->log2n;
	/* scrypt needs 128 * r * N bytes; allow that plus room */
	uint64_t maxmem = 128ull * (uint64_t)c->r * n * 2 + (1u << 20);

	return EVP_PBE_scrypt(password, strlen(password), salt, SALT_LEN, n, (uint64_t)c->r,
		   (uint64_t)c->p, maxmem, key, KEY_LEN) == 1
	    ? 0
	    : -1;
}

int
auth_hash_password(const char *password, const auth_cost_t *cost, char out[AUTH_HASH_MAX])
{
	unsigned char salt[SALT_LEN], key[KEY_LEN];
	char salt_hex[2 * SALT_LEN + 1], key_hex[2 * KEY_LEN + 1];

	if (cost->log2n < 1 || cost->log2n > 22 || cost->r < 1 || cost->r > 32 || cost->p < 1 ||
	    cost->p > 16)
		return -1;
	if (RAND_bytes(salt, sizeof salt) != 1 || derive(password, salt, cost, key) != 0)
		return -1;
	hex(salt, sizeof salt, salt_hex);
	hex(key, sizeof key, key_hex);
	OPENSSL_cleanse(key, sizeof key);
	snprintf(out, AUTH_HASH_MAX, "scrypt$%d$%d$%d$%s$%s", cost->log2n, cost->r, cost->p,
	    salt_hex, key_hex);
	return 0;
}

int
auth_verify_password(const char *password, const char *stored)
{
	auth_cost_t c;
	unsigned char salt[SALT_LEN], want[KEY_LEN], got[KEY_LEN];
	int off = 0;

	if (sscanf(stored, "scrypt$%d$%d$%d$%n", &c.log2n, &c.r, &c.p, &off) != 3 || off == 0 ||
	    c.log2n < 1 || c.log2n > 22 || c.r < 1 || c.r > 32 || c.p < 1 || c.p > 16)
		return -1;
	const char *s = stored + off;
	if (strlen(s) != 2 * SALT_LEN + 1 + 2 * KEY_LEN || unhex(s, SALT_LEN, salt) != 0 ||
	    s[2 * SALT_LEN] != '$' || unhex(s + 2 * SALT_LEN + 1, KEY_LEN, want) != 0)
		return -1;
	if (derive(password, salt, &c, got) != 0)
		return -1;
	int same = CRYPTO_memcmp(got, want, KEY_LEN) == 0;
	OPENSSL_cleanse(got, sizeof got);
	return same;
}

void
auth_token_digest(const char *token, char digest[AUTH_DIGEST_LEN + 1])
{
	unsigned char md[32];
	unsigned int n = 0;

	EVP_Digest(token, strlen(token), md, &n, EVP_sha256(), NULL);
	hex(md, sizeof md, digest);
}

int
auth_token_new(char token[AUTH_TOKEN_LEN + 1], char digest[AUTH_DIGEST_LEN + 1])
{
	unsigned char raw[AUTH_TOKEN_LEN / 2];

	if (RAND_bytes(raw, sizeof raw) != 1)
		return -1;
	hex(raw, sizeof raw, token);
	OPENSSL_cleanse(raw, sizeof raw);
	auth_token_digest(token, digest);
	return 0;
}

void
auth_name_key(const char *name, char key[AUTH_NAME_MAX + 1])
{
	size_t i;

	for (i = 0; name[i] != '\0' && i < AUTH_NAME_MAX; i++)
		key[i] = (char)tolower((unsigned char)name[i]);
	key[i] = '\0';
}

/* Names people could mistake for the server, staff, bots or guests. */
static const char *const reserved[] = { "admin", "administrator", "root", "server", "system",
	"gomokud", "moderator", "mod", "staff", "support", "anonymous", "nobody", "null", "bot",
	"guest", NULL };

auth_name_t
auth_name_check(const char *name)
{
	size_t n = strlen(name);
	char key[AUTH_NAME_MAX + 1];

	if (n < AUTH_NAME_MIN || n > AUTH_NAME_MAX)
		return NAME_LENGTH;
	if (!isalpha((unsigned char)name[0]) || ((unsigned char)name[0] & 0x80))
		return NAME_CHARACTERS;
	for (size_t i = 1; i < n; i++) {
		unsigned char c = (unsigned char)name[i];
		if ((c & 0x80) || !(isalnum(c) || c == '_' || c == '-'))
			return NAME_CHARACTERS;
	}
	auth_name_key(name, key);
	for (int i = 0; reserved[i] != NULL; i++)
		if (strcmp(key, reserved[i]) == 0)
			return NAME_RESERVED;
	/* bot and guest names belong to the server: "bot3", "guest17", "bot-x" */
	if ((strncmp(key, "bot", 3) == 0 &&
		(isdigit((unsigned char)key[3]) || key[3] == '-' || key[3] == '_')) ||
	    (strncmp(key, "guest", 5) == 0 &&
		(key[5] == '\0' || isdigit((unsigned char)key[5]) || key[5] == '-' ||
		    key[5] == '_')))
		return NAME_RESERVED;
	return NAME_OK;
}

const char *
auth_name_reason(auth_name_t r)
{
	switch (r) {
	case NAME_OK:
		return "ok";
	case NAME_LENGTH:
		return "names are 3 to 20 characters";
	case NAME_CHARACTERS:
		return "a letter first, then letters, digits, '_' or '-'";
	case NAME_RESERVED:
		return "that name is reserved";
	}
	return "bad name";
}
