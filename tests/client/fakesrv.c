/*
 * fakesrv: a scripted TLS server for the client's tests. It listens on
 * 127.0.0.1 on an ephemeral port, prints the port on stdout, then follows
 * a script, one command a line:
 *
 *   cert CERT KEY   certificate for the next accept
 *   accept          wait for a connection and do the TLS handshake
 *   send TEXT       send TEXT and a LF
 *   trysend TEXT    the same, but the peer may already be gone
 *   raw TEXT        send TEXT without a LF (C escapes \n \xNN allowed)
 *   long N          send a line of N 'x' and a LF
 *   expect PREFIX   read a line; fail unless it starts with PREFIX
 *   skip PREFIX     read lines until one starts with PREFIX
 *   eof             read until the client closes (lines are ignored)
 *   await PATH      wait until file PATH exists (the test made it: it saw
 *                   what it waited for on the screen), 30 s at most
 *   close           TLS close_notify and close
 *   drop            close the socket without TLS shutdown
 *   # ...           comment
 *
 * Every line read is logged on stderr. Exits 0 when the script ran to the
 * end, 1 at the first failure. Reads time out after 30 s so a test
 * never hangs.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/ssl.h>

typedef struct {
	SSL_CTX *ctx;
	SSL *ssl;
	int fd;
	char buf[8192];
	size_t have;
} conn_t;

static int
die(const char *what, const char *detail)
{
	fprintf(stderr, "fakesrv: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
	ERR_print_errors_fp(stderr);
	return 1;
}

/* Reads one line into out (without LF). 1 line, 0 EOF, -1 error. */
static int
read_line(conn_t *c, char *out, size_t len)
{
	for (;;) {
		char *nl = memchr(c->buf, '\n', c->have);
		if (nl) {
			size_t n = (size_t)(nl - c->buf);
			snprintf(out, len, "%.*s", (int)n, c->buf);
			memmove(c->buf, nl + 1, c->have - n - 1);
			c->have -= n + 1;
			return 1;
		}
		if (c->have == sizeof c->buf)
			return -1;
		int r = SSL_read(c->ssl, c->buf + c->have, (int)(sizeof c->buf - c->have));
		if (r <= 0) {
			int e = SSL_get_error(c->ssl, r);
			return e == SSL_ERROR_ZERO_RETURN || e == SSL_ERROR_SYSCALL ? 0 : -1;
		}
		c->have += (size_t)r;
	}
}

static int
put(conn_t *c, const char *s, size_t n)
{
	return c->ssl && SSL_write(c->ssl, s, (int)n) == (int)n ? 0 : -1;
}

static size_t
unescape(const char *s, char *out)
{
	size_t n = 0;
	while (*s) {
		if (s[0] == '\\' && s[1] == 'n') {
			out[n++] = '\n';
			s += 2;
		} else if (s[0] == '\\' && s[1] == 'x' && s[2] && s[3]) {
			char hex[3] = { s[2], s[3], 0 };
			out[n++] = (char)strtol(hex, NULL, 16);
			s += 4;
		} else {
			out[n++] = *s++;
		}
	}
	return n;
}

static void
end_conn(conn_t *c, int clean)
{
	if (c->ssl) {
		if (clean)
			SSL_shutdown(c->ssl);
		SSL_free(c->ssl);
		c->ssl = NULL;
	}
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	c->have = 0;
}

int
main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: fakesrv SCRIPT\n");
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	alarm(120); /* never outlive a broken test */
	FILE *script = fopen(argv[1], "r");
	if (!script)
		return die("cannot open the script", argv[1]);
	int lfd = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in sa = { 0 };
	sa.sin_family = AF_INET;
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	socklen_t sl = sizeof sa;
	if (lfd < 0 || bind(lfd, (struct sockaddr *)&sa, sizeof sa) != 0 || listen(lfd, 4) != 0 ||
	    getsockname(lfd, (struct sockaddr *)&sa, &sl) != 0)
		return die("cannot listen", NULL);
	printf("%d\n", ntohs(sa.sin_port));
	fflush(stdout);

	conn_t c = { .fd = -1 };
	char cmd[4096], line[8192];
	int lineno = 0;
	while (fgets(cmd, sizeof cmd, script)) {
		lineno++;
		cmd[strcspn(cmd, "\n")] = '\0';
		char *arg = strchr(cmd, ' ');
		if (arg)
			*arg++ = '\0';
		else
			arg = cmd + strlen(cmd);
		if (!cmd[0] || cmd[0] == '#')
			continue;
		char at[64];
		snprintf(at, sizeof at, "script line %d (%s)", lineno, cmd);
		if (!strcmp(cmd, "cert")) {
			char certf[1024], keyf[1024];
			if (sscanf(arg, "%1023s %1023s", certf, keyf) != 2)
				return die(at, "needs CERT KEY");
			if (c.ctx)
				SSL_CTX_free(c.ctx);
			c.ctx = SSL_CTX_new(TLS_server_method());
			if (!c.ctx || SSL_CTX_use_certificate_chain_file(c.ctx, certf) != 1 ||
			    SSL_CTX_use_PrivateKey_file(c.ctx, keyf, SSL_FILETYPE_PEM) != 1)
				return die(at, "cannot load the certificate");
			SSL_CTX_set_options(c.ctx, SSL_OP_IGNORE_UNEXPECTED_EOF);
		} else if (!strcmp(cmd, "accept")) {
			end_conn(&c, 1);
			c.fd = accept(lfd, NULL, NULL);
			if (c.fd < 0 || !c.ctx)
				return die(at, "accept failed or no cert");
			struct timeval tv = { 30, 0 };
			setsockopt(c.fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
			c.ssl = SSL_new(c.ctx);
			SSL_set_fd(c.ssl, c.fd);
			if (SSL_accept(c.ssl) != 1)
				return die(at, "TLS handshake failed");
			fprintf(stderr, "fakesrv: client connected\n");
		} else if (!strcmp(cmd, "send") || !strcmp(cmd, "trysend")) {
			char out[8192];
			size_t n = (size_t)snprintf(out, sizeof out, "%s\n", arg);
			if (put(&c, out, n) && !strcmp(cmd, "send"))
				return die(at, "write failed");
		} else if (!strcmp(cmd, "raw")) {
			char out[4096];
			size_t n = unescape(arg, out);
			if (put(&c, out, n))
				return die(at, "write failed");
		} else if (!strcmp(cmd, "long")) {
			size_t n = (size_t)atoi(arg);
			char *out = malloc(n + 1);
			memset(out, 'x', n);
			out[n] = '\n';
			int r = put(&c, out, n + 1);
			free(out);
			if (r)
				return die(at, "write failed");
		} else if (!strcmp(cmd, "expect") || !strcmp(cmd, "skip")) {
			for (;;) {
				int r = read_line(&c, line, sizeof line);
				if (r <= 0)
					return die(at,
					    r == 0 ? "the client closed the connection"
						   : "read failed");
				fprintf(stderr, "fakesrv: got: %s\n", line);
				if (!strncmp(line, arg, strlen(arg)))
					break;
				if (!strcmp(cmd, "expect")) {
					fprintf(stderr, "fakesrv: expected: %s\n", arg);
					return die(at, "unexpected line");
				}
			}
		} else if (!strcmp(cmd, "eof")) {
			int r;
			while ((r = read_line(&c, line, sizeof line)) > 0)
				fprintf(stderr, "fakesrv: got: %s\n", line);
			if (r < 0)
				return die(at, "read failed or timed out waiting for the close");
		} else if (!strcmp(cmd, "await")) {
			int tries = 0;
			while (access(arg, F_OK) != 0) {
				if (++tries > 600)
					return die(at, "the file did not come");
				usleep(50000);
			}
		} else if (!strcmp(cmd, "close")) {
			end_conn(&c, 1);
		} else if (!strcmp(cmd, "drop")) {
			end_conn(&c, 0);
		} else {
			return die(at, "unknown command");
		}
	}
	end_conn(&c, 1);
	if (c.ctx)
		SSL_CTX_free(c.ctx);
	fclose(script);
	close(lfd);
	fprintf(stderr, "fakesrv: script done\n");
	return 0;
}
