/* tlspair.c: a real TLS link inside one process (see tlspair.h). */
#include "tests/unit/tlspair.h"

#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <openssl/evp.h>
#include <openssl/x509.h>

static SSL_CTX *made_server, *made_client;

int
tlspair_contexts(SSL_CTX **server, SSL_CTX **client)
{
	if (!made_server) {
		EVP_PKEY *key = EVP_EC_gen("P-256");
		X509 *x = X509_new();
		SSL_CTX *s = SSL_CTX_new(TLS_server_method()),
			*c = SSL_CTX_new(TLS_client_method());
		int ok = key && x && s && c;
		if (ok) {
			ASN1_INTEGER_set(X509_get_serialNumber(x), 1);
			X509_gmtime_adj(X509_getm_notBefore(x), 0);
			X509_gmtime_adj(X509_getm_notAfter(x), 3600);
			X509_set_pubkey(x, key);
			X509_NAME_add_entry_by_txt(X509_get_subject_name(x), "CN", MBSTRING_ASC,
			    (const unsigned char *)"tlspair", -1, -1, 0);
			X509_set_issuer_name(x, X509_get_subject_name(x));
			ok = X509_sign(x, key, EVP_sha256()) > 0 &&
			    SSL_CTX_use_certificate(s, x) == 1 &&
			    SSL_CTX_use_PrivateKey(s, key) == 1;
		}
		X509_free(x);
		EVP_PKEY_free(key);
		if (!ok) {
			SSL_CTX_free(s);
			SSL_CTX_free(c);
			return -1;
		}
		SSL_CTX_set_mode(s, SSL_MODE_RELEASE_BUFFERS); /* as the daemon's (tls.c) */
		made_server = s;
		made_client = c;
	}
	*server = made_server;
	*client = made_client;
	return 0;
}

int
tlspair_sockets(int sv[2])
{
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0)
		return -1;
	if (fcntl(sv[0], F_SETFL, O_NONBLOCK) != 0 || fcntl(sv[1], F_SETFL, O_NONBLOCK) != 0) {
		close(sv[0]);
		close(sv[1]);
		return -1;
	}
	return 0;
}
