/* tickets.c: session ticket keys from a shared file (tickets.h). */
#include "daemon/tickets.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>

struct ticket_key {
	unsigned char name[16], hmac[32], aes[32];
};

struct tickets {
	int n;
	struct ticket_key k[TICKETS_MAX_KEYS];
};

/* The keys hang on their SSL_CTX (ex_data, freed with it: a context
 * replaced by a reload lives on while a connection holds it). The index is
 * OpenSSL's, taken once for the process. */
static CRYPTO_ONCE index_once = CRYPTO_ONCE_STATIC_INIT;
static int index_of = -1;

static void
free_keys(void *parent, void *ptr, CRYPTO_EX_DATA *ad, int idx, long argl, void *argp)
{
	(void)parent;
	(void)ad;
	(void)idx;
	(void)argl;
	(void)argp;
	tickets_free(ptr);
}

static void
take_index(void)
{
	index_of = SSL_CTX_get_ex_new_index(0, NULL, NULL, NULL, free_keys);
}

static int
hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* 160 hex digits (and nothing else but blanks) into one key; 0 or -1. */
static int
parse_key(const char *line, struct ticket_key *k)
{
	unsigned char raw[80];
	size_t n = 0;
	for (const char *p = line; *p && *p != '\n'; p++) {
		if (*p == ' ' || *p == '\t' || *p == '\r')
			continue;
		int hi = hexval((unsigned char)p[0]), lo = p[1] ? hexval((unsigned char)p[1]) : -1;
		if (hi < 0 || lo < 0 || n == sizeof raw)
			return -1;
		raw[n++] = (unsigned char)(hi << 4 | lo);
		p++;
	}
	if (n != sizeof raw)
		return -1;
	memcpy(k->name, raw, 16);
	memcpy(k->hmac, raw + 16, 32);
	memcpy(k->aes, raw + 48, 32);
	OPENSSL_cleanse(raw, sizeof raw);
	return 0;
}

struct tickets *
tickets_load(const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	struct stat st;
	if (fstat(fileno(f), &st) != 0 || (st.st_mode & 077)) {
		snprintf(err, errlen, "%s: must be readable by its owner alone (chmod 600)", path);
		fclose(f);
		return NULL;
	}
	struct tickets *t = calloc(1, sizeof *t);
	char line[512];
	int lineno = 0, bad = 0;
	while (t && !bad && fgets(line, sizeof line, f)) {
		lineno++;
		const char *p = line + strspn(line, " \t");
		if (*p == '#' || *p == '\n' || *p == '\r' || *p == '\0')
			continue;
		if (t->n == TICKETS_MAX_KEYS) {
			snprintf(err, errlen, "%s: more than %d keys", path, TICKETS_MAX_KEYS);
			bad = 1;
		} else if (parse_key(p, &t->k[t->n]) != 0) {
			snprintf(err, errlen,
			    "%s:%d: a key is 160 hex digits (openssl rand -hex 80)", path, lineno);
			bad = 1;
		} else {
			t->n++;
		}
	}
	OPENSSL_cleanse(line, sizeof line);
	fclose(f);
	if (!t) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (!bad && t->n == 0) {
		snprintf(err, errlen, "%s: no key", path);
		bad = 1;
	}
	if (bad) {
		tickets_free(t);
		return NULL;
	}
	return t;
}

void
tickets_free(struct tickets *t)
{
	if (t) {
		OPENSSL_cleanse(t, sizeof *t);
		free(t);
	}
}

static int
set_hmac(EVP_MAC_CTX *hctx, unsigned char *key)
{
	OSSL_PARAM params[] = {
		OSSL_PARAM_construct_octet_string(OSSL_MAC_PARAM_KEY, key, 32),
		OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, (char *)"SHA256", 0),
		OSSL_PARAM_construct_end(),
	};
	return EVP_MAC_CTX_set_params(hctx, params);
}

/* OpenSSL's ticket key callback: enc, a new ticket under the first key;
 * else the key named, 1 (the first) or 2 (an older one: a new ticket is
 * issued), or 0 for an unknown name (a full handshake). */
static int
ticket_cb(SSL *s, unsigned char name[16], unsigned char *iv, EVP_CIPHER_CTX *ctx, EVP_MAC_CTX *hctx,
    int enc)
{
	struct tickets *t = SSL_CTX_get_ex_data(SSL_get_SSL_CTX(s), index_of);
	if (!t || t->n == 0)
		return -1;
	if (enc) {
		struct ticket_key *k = &t->k[0];
		memcpy(name, k->name, 16);
		if (RAND_bytes(iv, EVP_MAX_IV_LENGTH) != 1 ||
		    EVP_EncryptInit_ex(ctx, EVP_aes_256_cbc(), NULL, k->aes, iv) != 1 ||
		    set_hmac(hctx, k->hmac) != 1)
			return -1;
		return 1;
	}
	for (int i = 0; i < t->n; i++) {
		struct ticket_key *k = &t->k[i];
		if (memcmp(name, k->name, 16) != 0)
			continue;
		if (EVP_DecryptInit_ex(ctx, EVP_aes_256_cbc(), NULL, k->aes, iv) != 1 ||
		    set_hmac(hctx, k->hmac) != 1)
			return -1;
		return i == 0 ? 1 : 2;
	}
	return 0;
}

int
tickets_attach(SSL_CTX *ctx, struct tickets *t)
{
	if (!CRYPTO_THREAD_run_once(&index_once, take_index) || index_of < 0 ||
	    SSL_CTX_set_tlsext_ticket_key_evp_cb(ctx, ticket_cb) != 1)
		return -1;
	return SSL_CTX_set_ex_data(ctx, index_of, t) == 1 ? 0 : -1; /* ctx owns t now */
}
