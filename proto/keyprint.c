/* keyprint.c: see keyprint.h. */
#include "proto/keyprint.h"

#include <stdio.h>

#include <openssl/evp.h>

int
keyprint(X509 *cert, char *out, size_t len)
{
	unsigned char *der = NULL, md[EVP_MAX_MD_SIZE];
	unsigned n = 0;
	int dlen = i2d_X509_PUBKEY(X509_get_X509_PUBKEY(cert), &der);
	int ok = dlen > 0 && EVP_Digest(der, (size_t)dlen, md, &n, EVP_sha256(), NULL);
	OPENSSL_free(der);
	if (!ok || len < 8 + 2 * (size_t)n)
		return -1;
	snprintf(out, len, "sha256:");
	for (unsigned i = 0; i < n; i++)
		snprintf(out + 7 + 2 * i, len - 7 - 2 * i, "%02x", md[i]);
	return 0;
}
