/*
 * test_tickets: TLS session tickets (issue 45). A client that comes back
 * with the ticket it was given resumes its TLS session instead of a full
 * handshake: on the same node with OpenSSL's own keys; on another node
 * when both read the same tls-ticket-keys file (TLS 1.3 and 1.2); not on a
 * node with other keys (a full handshake then, the connection still good).
 * Rotation: a new key put first is used for new tickets while the old one
 * still resumes, until it is dropped (SIGHUP). A key file open to others,
 * or with a bad line, stops the daemon from starting.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/rand.h>
#include <openssl/ssl.h>

#include "tests/daemon/check.h"
#include "tests/daemon/tclient.h"

#ifndef GOMOKUD_BIN
#define GOMOKUD_BIN "bin/gomokud"
#endif

/* One visit: connects (offering sess, if any, at TLS version max, 0 for
 * the highest), reads the greeting (the ticket comes before it), and
 * returns the session it was given (the caller frees it), or NULL; resumed
 * says whether the handshake resumed the offered one. */
static SSL_SESSION *
visit(int port, SSL_SESSION *sess, int max, int *resumed)
{
	*resumed = -1;
	SSL_CTX *ctx = SSL_CTX_new(TLS_client_method());
	if (!ctx)
		return NULL;
	if (max)
		SSL_CTX_set_max_proto_version(ctx, max);
	SSL_CTX_set_verify(ctx, SSL_VERIFY_NONE, NULL); /* a self-signed test node */
	SSL *ssl = SSL_new(ctx);
	SSL_SESSION *got = NULL;
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (!ssl || fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof a) != 0)
		goto out;
	SSL_set_fd(ssl, fd);
	if (sess)
		SSL_set_session(ssl, sess);
	if (SSL_connect(ssl) != 1)
		goto out;
	char buf[512];
	size_t n = 0;
	while (n < sizeof buf - 1 && !memchr(buf, '\n', n)) {
		int r = SSL_read(ssl, buf + n, (int)(sizeof buf - 1 - n));
		if (r <= 0)
			goto out;
		n += (size_t)r;
	}
	buf[n] = '\0';
	if (strncmp(buf, "* SERVER ", 9) != 0)
		goto out;
	*resumed = SSL_session_reused(ssl);
	got = SSL_get1_session(ssl);
	SSL_shutdown(ssl);
out:
	if (fd >= 0)
		close(fd);
	SSL_free(ssl);
	SSL_CTX_free(ctx);
	return got;
}

/* A ticket key: 160 hex digits, as `openssl rand -hex 80` writes it. */
static void
new_key(char out[161])
{
	unsigned char raw[80];
	RAND_bytes(raw, sizeof raw);
	for (int i = 0; i < 80; i++)
		sprintf(out + 2 * i, "%02x", raw[i]);
}

static int
write_keys(const char *path, const char *first, const char *second, mode_t mode)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	fprintf(f, "# ticket keys: the first issues, all are taken\n%s\n", first);
	if (second)
		fprintf(f, "%s\n", second);
	fclose(f);
	return chmod(path, mode);
}

/* The session a first visit gets (with a ticket), or NULL. */
static SSL_SESSION *
ticket_from(int port, int max)
{
	int r;
	SSL_SESSION *s = visit(port, NULL, max, &r);
	if (s && !SSL_SESSION_has_ticket(s)) {
		SSL_SESSION_free(s);
		return NULL;
	}
	return s;
}

/* Whether a visit to port with s resumed (0 no, 1 yes, -1 it failed). */
static int
resumes(int port, SSL_SESSION *s, int max)
{
	int r;
	SSL_SESSION *n = visit(port, s, max, &r);
	SSL_SESSION_free(n);
	return r;
}

static void
hup(struct daemon *d, int nth)
{
	kill(d->pid, SIGHUP);
	/* its nth reload: more than nth - 1 such lines in its log */
	CHECK(daemon_wait_log(d, "reloaded configuration", nth - 1, 5000) == 1, "no reload %d (%s)",
	    nth, d->log);
}

static char dir[128];

int
main(void)
{
	tc_verbose = getenv("TC_VERBOSE") != NULL;
	signal(SIGPIPE, SIG_IGN);
	snprintf(dir, sizeof dir, "/tmp/gomokud-tickets.XXXXXX");
	if (!tc_mkdtemp(dir)) {
		printf("FAIL cannot make a temp dir\n");
		return 1;
	}
	char k1[161], k2[161], k3[161], f1[200], f2[200], conf1[300], conf2[300];
	new_key(k1);
	new_key(k2);
	new_key(k3);
	snprintf(f1, sizeof f1, "%s/shared.keys", dir);
	snprintf(f2, sizeof f2, "%s/other.keys", dir);
	if (write_keys(f1, k1, NULL, 0600) || write_keys(f2, k2, NULL, 0600)) {
		printf("FAIL cannot write the key files\n");
		return 1;
	}
	snprintf(conf1, sizeof conf1, "tls-ticket-keys %s\n", f1);
	snprintf(conf2, sizeof conf2, "tls-ticket-keys %s\n", f2);

	/* OpenSSL's own keys: a node resumes its own tickets */
	struct daemon own;
	if (daemon_start(&own, GOMOKUD_BIN, "")) {
		printf("FAIL cannot start %s\n", GOMOKUD_BIN);
		return 1;
	}
	SSL_SESSION *s = ticket_from(own.port, 0);
	CHECK(s != NULL, "no ticket from a node with its own keys");
	CHECK(resumes(own.port, s, 0) == 1, "a node did not resume its own ticket");
	SSL_SESSION_free(s);
	s = ticket_from(own.port, TLS1_2_VERSION);
	CHECK(s != NULL && resumes(own.port, s, TLS1_2_VERSION) == 1, "TLS 1.2: no resumption");
	SSL_SESSION_free(s);
	ok("a client coming back with its ticket resumes on the same node (TLS 1.3 and 1.2)");

	/* two nodes on one key file, a third on another */
	struct daemon a, b, c;
	if (daemon_start(&a, GOMOKUD_BIN, conf1) || daemon_start(&b, GOMOKUD_BIN, conf1) ||
	    daemon_start(&c, GOMOKUD_BIN, conf2)) {
		printf("FAIL cannot start the nodes\n");
		return 1;
	}
	for (int max = 0; max <= 1; max++) {
		int v = max ? TLS1_2_VERSION : 0;
		s = ticket_from(a.port, v);
		CHECK(s != NULL, "no ticket from node a");
		CHECK(resumes(b.port, s, v) == 1, "a's ticket did not resume on b (shared keys%s)",
		    max ? ", TLS 1.2" : "");
		CHECK(resumes(c.port, s, v) == 0, "a's ticket resumed on c, whose keys are others");
		SSL_SESSION_free(s);
	}
	ok("a ticket from one node resumes on another with the same tls-ticket-keys, not on one "
	   "with others (a full handshake there)");

	/* rotation: a new key first on both, the old one still taken ... */
	SSL_SESSION *old = ticket_from(a.port, 0);
	CHECK(old != NULL, "no ticket before the rotation");
	write_keys(f1, k3, k1, 0600);
	hup(&a, 1);
	hup(&b, 1);
	CHECK(resumes(b.port, old, 0) == 1,
	    "the old key no longer resumes after a new one came first");
	SSL_SESSION *fresh = ticket_from(a.port, 0);
	CHECK(fresh != NULL && resumes(b.port, fresh, 0) == 1, "a new ticket did not resume");
	/* ... until it is dropped */
	write_keys(f1, k3, NULL, 0600);
	hup(&a, 2);
	hup(&b, 2);
	CHECK(resumes(b.port, old, 0) == 0, "a dropped key still resumes");
	CHECK(resumes(a.port, fresh, 0) == 1, "the new key's ticket did not resume after the drop");
	SSL_SESSION_free(old);
	SSL_SESSION_free(fresh);
	ok("rotation: a new key put first issues the tickets and the old one still resumes, until "
	   "it is dropped (SIGHUP)");

	/* a key file others may read, or with a bad line: no start */
	char f3[200], conf3[300];
	snprintf(f3, sizeof f3, "%s/open.keys", dir);
	write_keys(f3, k1, NULL, 0644);
	snprintf(conf3, sizeof conf3, "tls-ticket-keys %s\n", f3);
	struct daemon bad;
	CHECK(
	    daemon_start(&bad, GOMOKUD_BIN, conf3) != 0, "a daemon started with keys others read");
	FILE *f = fopen(f3, "w");
	if (f) {
		fprintf(f, "%s\nnot-a-key\n", k1);
		fclose(f);
	}
	chmod(f3, 0600);
	CHECK(daemon_start(&bad, GOMOKUD_BIN, conf3) != 0, "a daemon started with a bad key line");
	ok("a key file open to others, or with a bad line, keeps the daemon from starting");

	struct daemon *all[] = { &own, &a, &b, &c };
	for (int i = 0; i < 4; i++) {
		int st = daemon_stop(all[i], SIGTERM, 5000);
		CHECK(st == 0, "daemon exit status %d (see %s)", st, all[i]->log);
	}
	printf("test_tickets: %s\n", failures ? "FAILED" : "all passed");
	return failures ? 1 : 0;
}
