/* tls.c: OpenSSL server context and certificate generation. */
#include "daemon/tls.h"
#include "proto/keyprint.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <arpa/inet.h>

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509v3.h>

static void
ssl_err(char *err, size_t errlen, const char *what)
{
	char buf[256];
	unsigned long e = ERR_get_error();
	ERR_error_string_n(e, buf, sizeof buf);
	snprintf(err, errlen, "%s: %s", what, e ? buf : "failed");
	ERR_clear_error();
}

/* ALPN: gomoku/1 (the line protocol) or http/1.1 (a browser: HTTP and
 * WebSocket), the former first; a client that offers neither (or no ALPN,
 * as openssl s_client) gets no answer and speaks lines. */
static int
alpn_cb(SSL *s, const unsigned char **out, unsigned char *outlen, const unsigned char *in,
    unsigned inlen, void *arg)
{
	static const unsigned char ours[] = "\x08gomoku/1\x08http/1.1";
	unsigned char *sel;
	(void)s;
	(void)arg;
	if (SSL_select_next_proto(&sel, outlen, ours, sizeof ours - 1, in, inlen) !=
	    OPENSSL_NPN_NEGOTIATED)
		return SSL_TLSEXT_ERR_NOACK;
	*out = sel;
	return SSL_TLSEXT_ERR_OK;
}

SSL_CTX *
tls_server_ctx(const char *cert, const char *key, char *err, size_t errlen)
{
	SSL_CTX *ctx = SSL_CTX_new(TLS_server_method());
	if (!ctx) {
		ssl_err(err, errlen, "SSL_CTX_new");
		return NULL;
	}
	SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
	SSL_CTX_set_options(ctx, SSL_OP_NO_RENEGOTIATION | SSL_OP_CIPHER_SERVER_PREFERENCE);
	/* idle connections give their read/write buffers back */
	SSL_CTX_set_mode(ctx, SSL_MODE_RELEASE_BUFFERS);
	/* one session ticket a handshake (stateless: no cache on the server),
	 * so a client coming back resumes instead of a full handshake; the
	 * keys are OpenSSL's own per context unless tls-ticket-keys gives
	 * shared ones (tickets.h) */
	SSL_CTX_set_num_tickets(ctx, 1);
	SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_OFF);
	SSL_CTX_set_alpn_select_cb(ctx, alpn_cb, NULL);
	if (SSL_CTX_use_certificate_chain_file(ctx, cert) != 1) {
		ssl_err(err, errlen, cert);
		goto fail;
	}
	if (SSL_CTX_use_PrivateKey_file(ctx, key, SSL_FILETYPE_PEM) != 1) {
		ssl_err(err, errlen, key);
		goto fail;
	}
	if (SSL_CTX_check_private_key(ctx) != 1) {
		ssl_err(err, errlen, "key does not match certificate");
		goto fail;
	}
	return ctx;
fail:
	SSL_CTX_free(ctx);
	return NULL;
}

static int
write_pem(const char *path, int mode, EVP_PKEY *pk, X509 *x)
{
	int fd;
	FILE *f;
	unlink(path);
	if ((fd = open(path, O_WRONLY | O_CREAT | O_EXCL, mode)) < 0)
		return -1;
	if (!(f = fdopen(fd, "w"))) {
		close(fd);
		return -1;
	}
	int ok = pk ? PEM_write_PrivateKey(f, pk, NULL, NULL, 0, NULL, NULL) : PEM_write_X509(f, x);
	return (fclose(f) == 0 && ok == 1) ? 0 : -1;
}

/* Adds "DNS:host" or "IP:host" to the list unless it is there or a wildcard. */
static int
san_add(char *out, size_t len, const char *host)
{
	unsigned char addr[16];
	char item[160];
	int ip = inet_pton(AF_INET, host, addr) == 1 || inet_pton(AF_INET6, host, addr) == 1;
	if (!host[0] || strcmp(host, "*") == 0 || strcmp(host, "0.0.0.0") == 0 ||
	    strcmp(host, "::") == 0)
		return 0;
	snprintf(item, sizeof item, "%s:%s", ip ? "IP" : "DNS", host);
	size_t n = strlen(item), have = strlen(out);
	for (const char *p = out; (p = strstr(p, item)) != NULL; p += n)
		if ((p == out || p[-1] == ',') && (p[n] == ',' || p[n] == '\0'))
			return 0;
	if (have + 1 + n + 1 > len)
		return -1;
	snprintf(out + have, len - have, "%s%s", have ? "," : "", item);
	return 0;
}

int
tls_san_list(const char *name, const char (*listen)[128], int nlisten, char *out, size_t len)
{
	out[0] = '\0';
	int rc = san_add(out, len, "localhost") | san_add(out, len, "127.0.0.1") |
	    san_add(out, len, "::1") | san_add(out, len, name ? name : "");
	for (int i = 0; i < nlisten; i++) {
		char host[128];
		const char *l = listen[i];
		const char *end = l[0] == '[' ? strchr(l, ']') : strrchr(l, ':');
		if (!end)
			continue;
		if (l[0] == '[')
			l++;
		snprintf(host, sizeof host, "%.*s", (int)(end - l), l);
		rc |= san_add(out, len, host);
	}
	return rc;
}

/* The first certificate of a PEM file, or NULL. */
static X509 *
read_cert(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	X509 *x = PEM_read_X509(f, NULL, NULL, NULL);
	fclose(f);
	return x;
}

/* Whether the certificate at path holds every name of sans. */
static int
covers(const char *path, const char *sans)
{
	X509 *x = read_cert(path);
	if (!x)
		return 0;
	char list[1024], *save = NULL;
	snprintf(list, sizeof list, "%s", sans);
	int ok = 1;
	for (char *t = strtok_r(list, ",", &save); t && ok; t = strtok_r(NULL, ",", &save))
		ok = strncmp(t, "IP:", 3) == 0 ? X509_check_ip_asc(x, t + 3, 0) == 1
					       : X509_check_host(x, t + 4, 0, 0, NULL) == 1;
	X509_free(x);
	ERR_clear_error();
	return ok;
}

static EVP_PKEY *
read_key(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	EVP_PKEY *pk = PEM_read_PrivateKey(f, NULL, NULL, NULL);
	fclose(f);
	return pk;
}

int
tls_selfsigned(const char *dir, const char *sans, char *cert, char *key, size_t pathlen, char *err,
    size_t errlen)
{
	snprintf(cert, pathlen, "%s/cert.pem", dir);
	snprintf(key, pathlen, "%s/key.pem", dir);
	int reissue = access(cert, R_OK) == 0 && access(key, R_OK) == 0;
	if (reissue && covers(cert, sans))
		return 0;
	if (!reissue && mkdir(dir, 0700) != 0 && errno != EEXIST) {
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		return -1;
	}
	int rc = -1;
	EVP_PKEY *pk = reissue ? read_key(key) : EVP_EC_gen("P-256");
	X509 *x = X509_new();
	if (!pk || !x) {
		ssl_err(err, errlen, reissue ? key : "key generation");
		goto out;
	}
	X509_set_version(x, 2);
	unsigned char serial[8];
	if (RAND_bytes(serial, sizeof serial) != 1) {
		ssl_err(err, errlen, "RAND_bytes");
		goto out;
	}
	serial[0] &= 0x7f;
	BIGNUM *bn = BN_bin2bn(serial, sizeof serial, NULL);
	BN_to_ASN1_INTEGER(bn, X509_get_serialNumber(x));
	BN_free(bn);
	X509_gmtime_adj(X509_getm_notBefore(x), -3600);
	X509_gmtime_adj(X509_getm_notAfter(x), 10L * 365 * 24 * 3600);
	X509_set_pubkey(x, pk);
	X509_NAME *name = X509_get_subject_name(x);
	X509_NAME_add_entry_by_txt(
	    name, "CN", MBSTRING_ASC, (const unsigned char *)"localhost", -1, -1, 0);
	X509_NAME_add_entry_by_txt(
	    name, "O", MBSTRING_ASC, (const unsigned char *)"gomokud self-signed", -1, -1, 0);
	X509_set_issuer_name(x, name);
	X509V3_CTX v3;
	X509V3_set_ctx_nodb(&v3);
	X509V3_set_ctx(&v3, x, x, NULL, NULL, 0);
	X509_EXTENSION *ext = X509V3_EXT_conf_nid(NULL, &v3, NID_subject_alt_name, sans);
	if (!ext) {
		ssl_err(err, errlen, "subjectAltName");
		goto out;
	}
	X509_add_ext(x, ext, -1);
	X509_EXTENSION_free(ext);
	if (X509_sign(x, pk, EVP_sha256()) == 0) {
		ssl_err(err, errlen, "X509_sign");
		goto out;
	}
	if ((!reissue && write_pem(key, 0600, pk, NULL)) || write_pem(cert, 0644, NULL, x)) {
		snprintf(err, errlen, "writing %s: %s", dir, strerror(errno));
		goto out;
	}
	rc = 1;
out:
	X509_free(x);
	EVP_PKEY_free(pk);
	return rc;
}

int
tls_key_fingerprint(const char *cert, char *out, size_t len)
{
	X509 *x = read_cert(cert);
	if (!x)
		return -1;
	int rc = keyprint(x, out, len);
	X509_free(x);
	return rc;
}

int
tls_fingerprint(const char *cert, char *out, size_t len)
{
	X509 *x = read_cert(cert);
	if (!x)
		return -1;
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned n = 0;
	int ok = X509_digest(x, EVP_sha256(), md, &n);
	X509_free(x);
	if (!ok || len < n * 3)
		return -1;
	for (unsigned i = 0; i < n; i++)
		snprintf(out + i * 3, len - i * 3, "%02X%s", md[i], i + 1 < n ? ":" : "");
	return 0;
}
