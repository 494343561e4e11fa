/*
 * test_tlsio.c: the daemon's TLS stream (daemon/tlsio.c) over a real TLS
 * link on a socket pair (tlspair.c), against a client written with plain
 * OpenSSL calls:
 * - the lines queued in one loop turn leave as one TLS record, also those
 *   queued by an event made active after the first (which runs before the
 *   write);
 * - lines are taken straight from what was read, the rest (a partial line,
 *   or all while the taker holds) waits in the input;
 * - reading stops at the read mark, and once the input is drained goes on
 *   with what OpenSSL already holds, with nothing new from the peer;
 * - output larger than the socket takes waits for room, arrives whole and
 *   in order, and the write callback says when it is down to the low mark;
 * - the idle timeout: not while bytes keep coming, then once they stop;
 * - freeing the stream inside its own callback; close_notify; the peer's
 *   EOF, in the handshake and after it;
 * - a client stream (tlsio_connect, the load tool's) against a server one:
 *   both handshakes end and lines go both ways; a refused connect is an
 *   error.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <errno.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <cmocka.h>
#include <event2/buffer.h>
#include <event2/event.h>
#include <openssl/err.h>

#include "daemon/tlsio.h"
#include "tests/unit/tlspair.h"

struct fix {
	struct event_base *base;
	struct tlsio_base *b;
	struct tlsio *io;
	SSL *cl;
	int sv[2];
	int up, eof, error, timeout, reads, writes;
	int taking; /* take() takes lines while set */
	char taken[4096];
	int free_in_read; /* the read callback frees the stream */
};

static void
on_read(struct tlsio *io, void *arg)
{
	struct fix *f = arg;
	f->reads++;
	if (f->free_in_read) {
		tlsio_free(io);
		f->io = NULL;
	}
}

static void
on_write(struct tlsio *io, void *arg)
{
	struct fix *f = arg;
	(void)io;
	f->writes++;
}

static void
on_event(struct tlsio *io, int what, void *arg)
{
	struct fix *f = arg;
	(void)io;
	if (what & TLSIO_UP)
		f->up = 1;
	if (what & TLSIO_EOF)
		f->eof = 1;
	if (what & TLSIO_ERROR)
		f->error = 1;
	if (what & TLSIO_TIMEOUT)
		f->timeout = what;
}

static size_t
take(struct tlsio *io, const char *p, size_t n, void *arg)
{
	struct fix *f = arg;
	size_t used = 0;
	(void)io;
	while (f->taking && used < n) {
		const char *nl = memchr(p + used, '\n', n - used);
		if (!nl)
			break;
		size_t len = (size_t)(nl - (p + used)) + 1;
		strncat(f->taken, p + used, len);
		used += len;
	}
	return used;
}

/* Turns the loop and the client's handshake until cond or about a second. */
static void
pump(struct fix *f, const int *cond)
{
	for (int i = 0; i < 1000 && !(cond && *cond); i++) {
		if (!SSL_is_init_finished(f->cl)) {
			SSL_do_handshake(f->cl);
			ERR_clear_error();
		}
		event_base_loop(f->base, EVLOOP_NONBLOCK);
		if (!cond && i >= 3)
			return;
		usleep(1000);
	}
}

/* The server's stream on a new socket pair, its handshake begun; the
 * client's context in *c. */
static void
open_stream(struct fix *f, SSL_CTX **c)
{
	SSL_CTX *s;
	memset(f, 0, sizeof *f);
	assert_int_equal(tlspair_contexts(&s, c), 0);
	assert_int_equal(tlspair_sockets(f->sv), 0);
	f->base = event_base_new();
	f->b = tlsio_base_new(f->base);
	assert_non_null(f->b);
	f->io = tlsio_new(f->b, SSL_new(s), f->sv[0]);
	assert_non_null(f->io);
	f->taking = 1;
	tlsio_setcb(f->io, on_read, on_write, on_event, take, f);
}

static int
setup(void **state)
{
	static struct fix f;
	SSL_CTX *c;
	open_stream(&f, &c);
	f.cl = SSL_new(c);
	SSL_set_fd(f.cl, f.sv[1]);
	SSL_set_connect_state(f.cl);
	pump(&f, &f.up);
	assert_true(f.up);
	while (!SSL_is_init_finished(f.cl))
		pump(&f, NULL);
	*state = &f;
	return 0;
}

static int
teardown(void **state)
{
	struct fix *f = *state;
	if (f->io)
		tlsio_free(f->io); /* closes sv[0] */
	SSL_free(f->cl);
	close(f->sv[1]);
	tlsio_base_free(f->b);
	event_base_free(f->base);
	return 0;
}

static void
client_write(struct fix *f, const char *s)
{
	assert_int_equal(SSL_write(f->cl, s, (int)strlen(s)), (int)strlen(s));
}

static void
test_one_record_per_turn(void **state)
{
	struct fix *f = *state;
	struct evbuffer *out = tlsio_output(f->io);
	evbuffer_add(out, "one\n", 4);
	evbuffer_add(out, "two\n", 4);
	evbuffer_add(out, "three\n", 6);
	event_base_loop(f->base, EVLOOP_NONBLOCK);
	assert_int_equal(tlsio_pending(f->io), 0);
	assert_true(f->writes >= 1);
	/* one SSL_read returns one record at most: all three came in it */
	char buf[64];
	int r = 0;
	for (int i = 0; i < 100 && r <= 0; i++) {
		r = SSL_read(f->cl, buf, sizeof buf);
		ERR_clear_error();
		if (r <= 0)
			usleep(1000);
	}
	assert_int_equal(r, 14);
	assert_memory_equal(buf, "one\ntwo\nthree\n", 14);
}

/* An event made active after the turn's first output (a commit's answer,
 * a bot's search handed to a worker) runs before the write, and what it
 * queues goes in the same record. */
struct later {
	struct fix *f;
	size_t pending; /* the stream's unwritten output when it ran */
	int ran;
};

static void
later_cb(evutil_socket_t fd, short what, void *arg)
{
	struct later *l = arg;
	(void)fd;
	(void)what;
	l->ran = 1;
	l->pending = tlsio_pending(l->f->io);
	evbuffer_add(tlsio_output(l->f->io), "move\n", 5);
}

static void
test_later_events_first(void **state)
{
	struct fix *f = *state;
	struct later l = { f, 0, 0 };
	struct event *ev = event_new(f->base, -1, 0, later_cb, &l);
	assert_non_null(ev);
	evbuffer_add(tlsio_output(f->io), "think\n", 6);
	event_active(ev, EV_TIMEOUT, 0); /* after the flush was made active */
	event_base_loop(f->base, EVLOOP_NONBLOCK);
	assert_true(l.ran);
	assert_int_equal(l.pending, 6); /* nothing written before it ran */
	assert_int_equal(tlsio_pending(f->io), 0);
	char buf[64];
	int r = 0;
	for (int i = 0; i < 100 && r <= 0; i++) {
		r = SSL_read(f->cl, buf, sizeof buf);
		ERR_clear_error();
		if (r <= 0)
			usleep(1000);
	}
	assert_int_equal(r, 11); /* one record: both lines */
	assert_memory_equal(buf, "think\nmove\n", 11);
	event_free(ev);
}

static void
test_take_and_input(void **state)
{
	struct fix *f = *state;
	struct evbuffer *in = tlsio_input(f->io);
	client_write(f, "L1\nL2\npart");
	pump(f, &f->reads);
	assert_string_equal(f->taken, "L1\nL2\n");
	assert_int_equal(evbuffer_get_length(in), 4);
	/* held: nothing is taken, all of it waits behind the partial line */
	f->taking = 0;
	f->reads = 0;
	client_write(f, "x\ny\n");
	pump(f, &f->reads);
	assert_string_equal(f->taken, "L1\nL2\n");
	char buf[32] = "";
	evbuffer_remove(in, buf, sizeof buf - 1);
	assert_string_equal(buf, "partx\ny\n");
}

static void
test_read_mark_and_held_records(void **state)
{
	struct fix *f = *state;
	struct evbuffer *in = tlsio_input(f->io);
	char rec[81];
	f->taking = 0;
	tlsio_read_mark(f->io, 100);
	memset(rec, 'r', 80);
	rec[80] = '\0';
	for (int i = 0; i < 3; i++)
		client_write(f, rec); /* three records of 80 bytes */
	usleep(20 * 1000);
	pump(f, NULL);
	pump(f, NULL);
	/* stopped at the mark: two records in, the third left unread */
	assert_int_equal(evbuffer_get_length(in), 160);
	evbuffer_drain(in, 160);
	/* nothing new from the client: the third comes from what the socket or
	 * OpenSSL already holds, once the input is under the mark */
	pump(f, NULL);
	assert_int_equal(evbuffer_get_length(in), 80);
}

static void
test_backpressure(void **state)
{
	struct fix *f = *state;
	enum { BIG = 4 << 20 };
	static char sent[BIG], got[BIG];
	for (size_t i = 0; i < BIG; i++)
		sent[i] = (char)('a' + (i * 7 + i / 1000) % 26);
	tlsio_write_mark(f->io, 0);
	evbuffer_add(tlsio_output(f->io), sent, BIG);
	pump(f, NULL);
	/* the socket is full and the client reads nothing: bytes wait */
	assert_true(tlsio_pending(f->io) > 0);
	f->writes = 0;
	size_t n = 0;
	for (int i = 0; i < 20000 && n < BIG; i++) {
		int r = SSL_read(f->cl, got + n, (int)(BIG - n));
		if (r > 0) {
			n += (size_t)r;
			continue;
		}
		ERR_clear_error();
		event_base_loop(f->base, EVLOOP_NONBLOCK);
	}
	assert_int_equal(n, BIG);
	assert_memory_equal(got, sent, BIG);
	assert_int_equal(tlsio_pending(f->io), 0);
	assert_true(f->writes >= 1); /* told at the low mark (empty) */
	assert_false(f->error || f->eof);
}

static void
test_idle_timeout(void **state)
{
	struct fix *f = *state;
	struct timespec t0, t1;
	tlsio_timeouts(f->io, 1, 0);
	/* a byte every 300 ms for 1.8 s: never idle for a second */
	for (int i = 0; i < 6; i++) {
		client_write(f, "k\n");
		for (int k = 0; k < 30; k++) {
			event_base_loop(f->base, EVLOOP_NONBLOCK);
			usleep(10 * 1000);
		}
	}
	assert_int_equal(f->timeout, 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (int k = 0; k < 300 && !f->timeout; k++) {
		event_base_loop(f->base, EVLOOP_NONBLOCK);
		usleep(10 * 1000);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	assert_int_equal(f->timeout, TLSIO_TIMEOUT | TLSIO_READING);
	double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	assert_true(s < 1.5); /* a second after the last byte, with room for a slow machine */
}

static void
test_free_inside_callback(void **state)
{
	struct fix *f = *state;
	f->taking = 0;
	f->free_in_read = 1;
	client_write(f, "bye\n");
	pump(f, &f->reads);
	assert_null(f->io);
	/* the socket went with the stream: the client reads an EOF */
	char buf[8];
	int r = 1;
	for (int i = 0; i < 100 && r > 0; i++) {
		r = SSL_read(f->cl, buf, sizeof buf);
		if (r <= 0 && SSL_get_error(f->cl, r) == SSL_ERROR_WANT_READ) {
			r = 1;
			usleep(1000);
		}
	}
	ERR_clear_error();
	assert_true(r <= 0);
}

static void
test_close_notify(void **state)
{
	struct fix *f = *state;
	tlsio_close_notify(f->io);
	tlsio_stop(f->io);
	char buf[8];
	int r = -1, e = SSL_ERROR_WANT_READ;
	for (int i = 0; i < 100 && e == SSL_ERROR_WANT_READ; i++) {
		r = SSL_read(f->cl, buf, sizeof buf);
		e = SSL_get_error(f->cl, r);
		usleep(1000);
	}
	assert_int_equal(e, SSL_ERROR_ZERO_RETURN);
}

static void
test_peer_eof(void **state)
{
	struct fix *f = *state;
	shutdown(f->sv[1], SHUT_RDWR); /* gone without close_notify */
	pump(f, &f->eof);
	assert_true(f->eof);
	assert_false(f->error);
}

/* A peer that connects and goes before its handshake ends: an EOF, not a
 * failure (port scanners do it all day). */
static void
test_eof_in_handshake(void **state)
{
	(void)state;
	struct fix g;
	SSL_CTX *c;
	open_stream(&g, &c);
	close(g.sv[1]);
	for (int i = 0; i < 100 && !g.eof && !g.error; i++) {
		event_base_loop(g.base, EVLOOP_NONBLOCK);
		usleep(1000);
	}
	assert_true(g.eof);
	assert_false(g.error);
	assert_false(g.up);
	tlsio_free(g.io);
	tlsio_base_free(g.b);
	event_base_free(g.base);
}

/* Two streams of this file's kind, a client and a server, on one pair. */
static void
test_client_stream(void **state)
{
	(void)state;
	struct fix srv, cli;
	SSL_CTX *c;
	open_stream(&srv, &c);
	memset(&cli, 0, sizeof cli);
	cli.base = srv.base;
	cli.b = srv.b;
	cli.taking = 1;
	cli.io = tlsio_connect(srv.b, SSL_new(c), srv.sv[1]);
	assert_non_null(cli.io);
	tlsio_setcb(cli.io, on_read, on_write, on_event, take, &cli);
	evbuffer_add(tlsio_output(cli.io), "HELLO 1 load\n", 13); /* queued before the handshake */
	for (int i = 0; i < 1000 && !(srv.up && cli.up && srv.taken[0]); i++) {
		event_base_loop(srv.base, EVLOOP_NONBLOCK);
		usleep(1000);
	}
	assert_true(cli.up);
	assert_true(srv.up);
	assert_string_equal(srv.taken, "HELLO 1 load\n");
	evbuffer_add(tlsio_output(srv.io), "* SERVER x\n", 11);
	for (int i = 0; i < 1000 && !cli.taken[0]; i++) {
		event_base_loop(srv.base, EVLOOP_NONBLOCK);
		usleep(1000);
	}
	assert_string_equal(cli.taken, "* SERVER x\n");
	assert_false(srv.error || cli.error);
	tlsio_free(cli.io); /* closes sv[1] */
	tlsio_free(srv.io);
	tlsio_base_free(srv.b);
	event_base_free(srv.base);
}

/* A connect to a port nobody listens on: TLSIO_ERROR, never up. */
static void
test_client_refused(void **state)
{
	(void)state;
	struct fix f;
	SSL_CTX *s, *c;
	memset(&f, 0, sizeof f);
	assert_int_equal(tlspair_contexts(&s, &c), 0);
	f.base = event_base_new();
	f.b = tlsio_base_new(f.base);
	/* a port bound and closed again: free, and nobody listens on it */
	struct sockaddr_in a = { 0 };
	socklen_t alen = sizeof a;
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	int l = socket(AF_INET, SOCK_STREAM, 0);
	assert_int_equal(bind(l, (struct sockaddr *)&a, sizeof a), 0);
	assert_int_equal(getsockname(l, (struct sockaddr *)&a, &alen), 0);
	close(l);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
	assert_true(connect(fd, (struct sockaddr *)&a, sizeof a) == 0 || errno == EINPROGRESS ||
	    errno == ECONNREFUSED);
	f.io = tlsio_connect(f.b, SSL_new(c), fd);
	assert_non_null(f.io);
	tlsio_setcb(f.io, on_read, on_write, on_event, NULL, &f);
	for (int i = 0; i < 1000 && !f.error && !f.eof; i++) {
		event_base_loop(f.base, EVLOOP_NONBLOCK);
		usleep(1000);
	}
	assert_true(f.error);
	assert_false(f.up);
	tlsio_free(f.io);
	tlsio_base_free(f.b);
	event_base_free(f.base);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_one_record_per_turn, setup, teardown),
		cmocka_unit_test_setup_teardown(test_later_events_first, setup, teardown),
		cmocka_unit_test_setup_teardown(test_take_and_input, setup, teardown),
		cmocka_unit_test_setup_teardown(test_read_mark_and_held_records, setup, teardown),
		cmocka_unit_test_setup_teardown(test_backpressure, setup, teardown),
		cmocka_unit_test_setup_teardown(test_idle_timeout, setup, teardown),
		cmocka_unit_test_setup_teardown(test_free_inside_callback, setup, teardown),
		cmocka_unit_test_setup_teardown(test_close_notify, setup, teardown),
		cmocka_unit_test_setup_teardown(test_peer_eof, setup, teardown),
		cmocka_unit_test(test_eof_in_handshake),
		cmocka_unit_test(test_client_stream),
		cmocka_unit_test(test_client_refused),
	};
	signal(SIGPIPE, SIG_IGN); /* as the daemon: a write to a gone peer is an error */
	return cmocka_run_group_tests(tests, NULL, NULL);
}
