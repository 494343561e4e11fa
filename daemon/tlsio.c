/* tlsio.c: a TLS stream on a non-blocking socket (see tlsio.h). */
#include "daemon/tlsio.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/queue.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/event.h>
#include <openssl/err.h>

#include "daemon/clock.h"

enum {
	RECORD_MAX = 16384, /* a TLS record's plaintext */
	/* records read in one callback before others get their turn: a peer
	 * that keeps its socket full cannot hold the loop */
	READ_ROUNDS = 4,
};

struct tlsio_base {
	struct event_base *base;
	struct event *flush; /* writes the queued streams late in the turn */
	TAILQ_HEAD(, tlsio) queue;
	int active;
	int waited; /* the flush let the events made active after it go first */
};

struct tlsio {
	struct tlsio_base *b;
	SSL *ssl;
	int fd;
	struct event *rev; /* in the poll set while reading is on */
	struct event *wev; /* in the poll set only while the socket is full */
	struct event *tev; /* the idle timer, kept lazily */
	struct evbuffer *in, *out;
	tlsio_read_fn rcb;
	tlsio_write_fn wcb;
	tlsio_event_fn ecb;
	tlsio_take_fn take;
	void *arg;
	size_t rhigh, wlow;
	int read_s, write_s;
	int64_t last_in_ms; /* the idle timeout counts from here */
	int64_t tev_at_ms;  /* when tev fires, if tev_on */
	TAILQ_ENTRY(tlsio) link;
	int busy; /* inside a callback of ours: a free waits for its end */
	unsigned up : 1, reading : 1, rev_on : 1, wev_on : 1, tev_on : 1, queued : 1, stopped : 1,
	    failed : 1, doomed : 1, triggered : 1, read_wants_write : 1, write_wants_read : 1;
	unsigned long err; /* the first OpenSSL error of a failed link */
};

static void really_free(struct tlsio *io);

static void
enter(struct tlsio *io)
{
	io->busy++;
}

/* Whether io is gone (freed inside the callback just left). */
static int
leave(struct tlsio *io)
{
	if (--io->busy == 0 && io->doomed) {
		really_free(io);
		return 1;
	}
	return 0;
}

/* The read event in the poll set exactly while reading may go on. */
static void
update_rev(struct tlsio *io)
{
	/* a write that waits for the peer's bytes (a key update) reads too */
	int want = !io->stopped && !io->failed &&
	    ((io->reading && !(io->rhigh && evbuffer_get_length(io->in) >= io->rhigh)) ||
		io->write_wants_read);
	if (want == io->rev_on)
		return;
	if (want) {
		event_add(io->rev, NULL);
		/* OpenSSL may hold bytes it took off the socket before reading
		 * stopped: the socket will not say so, so read them now */
		if (io->up && SSL_has_pending(io->ssl))
			event_active(io->rev, EV_READ, 1);
	} else {
		event_del(io->rev);
	}
	io->rev_on = (unsigned)want;
}

static void
wev_arm(struct tlsio *io)
{
	struct timeval tv = { io->write_s, 0 };
	event_add(io->wev, io->write_s > 0 ? &tv : NULL);
	io->wev_on = 1;
}

static void
wev_disarm(struct tlsio *io)
{
	if (io->wev_on)
		event_del(io->wev);
	io->wev_on = 0;
}

static void
unqueue(struct tlsio *io)
{
	if (io->queued)
		TAILQ_REMOVE(&io->b->queue, io, link);
	io->queued = 0;
}

/* The link is over: no more reading or writing, and the owner is told. */
static void
fail(struct tlsio *io, int what)
{
	if (!io->err)
		io->err = ERR_peek_error();
	ERR_clear_error();
	io->failed = 1;
	update_rev(io);
	wev_disarm(io);
	unqueue(io);
	if (io->ecb && !io->stopped)
		io->ecb(io, what, io->arg);
}

/* What a failed SSL call means: -1 to wait (set up), else the event. */
static int
failure(struct tlsio *io, int r, int writing)
{
	int e = SSL_get_error(io->ssl, r);
	int dir = writing ? TLSIO_WRITING : TLSIO_READING;

	switch (e) {
	case SSL_ERROR_WANT_READ:
		if (writing) {
			io->write_wants_read = 1;
			update_rev(io);
		}
		return -1;
	case SSL_ERROR_WANT_WRITE:
		if (!writing)
			io->read_wants_write = 1;
		if (!io->wev_on)
			wev_arm(io);
		return -1;
	case SSL_ERROR_ZERO_RETURN:
		return TLSIO_EOF | dir;
	case SSL_ERROR_SYSCALL:
		/* a peer that just goes (no close_notify) is a close, not a failure:
		 * phones drop links all the time */
		if (ERR_peek_error() == 0 &&
		    (errno == 0 || errno == ECONNRESET || errno == EPIPE || r == 0))
			return TLSIO_EOF | dir;
		return TLSIO_ERROR | dir;
	default:
		return TLSIO_ERROR | dir;
	}
}

static void
queue_flush(struct tlsio *io)
{
	struct tlsio_base *b = io->b;
	if (io->queued || io->wev_on || !io->up || io->stopped || io->failed)
		return;
	io->queued = 1;
	TAILQ_INSERT_TAIL(&b->queue, io, link);
	if (!b->active) {
		b->active = 1;
		event_active(b->flush, EV_WRITE, 1);
	}
}

/* Writes the output, a record of up to 16 KiB at a time, until it is empty
 * or the socket is full (then the write event waits for room). */
static void
do_write(struct tlsio *io)
{
	int wrote = 0, waited = io->write_wants_read;
	size_t n;

	io->write_wants_read = 0;
	while ((n = evbuffer_get_length(io->out)) > 0) {
		int len = (int)(n < RECORD_MAX ? n : RECORD_MAX);
		const unsigned char *p = evbuffer_pullup(io->out, len);
		if (!p) {
			fail(io, TLSIO_ERROR | TLSIO_WRITING);
			return;
		}
		ERR_clear_error();
		errno = 0;
		int r = SSL_write(io->ssl, p, len);
		if (r <= 0) {
			int what = failure(io, r, 1);
			if (what >= 0) {
				fail(io, what);
				return;
			}
			break;
		}
		evbuffer_drain(io->out, (size_t)r);
		wrote = 1;
	}
	if (waited && !io->write_wants_read && !io->failed)
		update_rev(io); /* reading for the write alone is over */
	if (evbuffer_get_length(io->out) == 0)
		wev_disarm(io);
	else if (wrote && io->wev_on)
		wev_arm(io); /* progress: the write timeout starts again */
	if (wrote && io->wcb && !io->stopped && evbuffer_get_length(io->out) <= io->wlow)
		io->wcb(io, io->arg);
}

/* Reads what the peer sent: lines may be taken straight from the record
 * just decrypted; the rest goes to the input, for the read callback. */
static void
do_read(struct tlsio *io)
{
	char buf[RECORD_MAX];

	io->read_wants_write = 0;
	for (int round = 0; io->reading && !io->stopped && !io->failed; round++) {
		if (io->rhigh && evbuffer_get_length(io->in) >= io->rhigh)
			break;
		if (round == READ_ROUNDS) { /* the others' turn; ours comes again */
			if (SSL_has_pending(io->ssl))
				event_active(io->rev, EV_READ, 1);
			break;
		}
		ERR_clear_error();
		errno = 0;
		int r = SSL_read(io->ssl, buf, sizeof buf);
		if (r <= 0) {
			int what = failure(io, r, 0);
			if (what >= 0)
				fail(io, what);
			break;
		}
		io->last_in_ms = clock_now_ms();
		size_t used = 0;
		if (io->take && evbuffer_get_length(io->in) == 0) {
			used = io->take(io, buf, (size_t)r, io->arg);
			if (io->stopped)
				return;
		}
		if (used < (size_t)r) {
			evbuffer_add(io->in, buf + used, (size_t)r - used);
			io->triggered = 0;
			if (io->rcb)
				io->rcb(io, io->arg);
		}
		/* more only when OpenSSL holds some: the socket says when it has
		 * more, and asking it now would mostly be a read for nothing */
		if (!SSL_has_pending(io->ssl))
			break;
	}
	if (io->triggered && !io->stopped) {
		io->triggered = 0;
		if (io->rcb)
			io->rcb(io, io->arg);
	}
	if (!io->stopped)
		update_rev(io);
}

static void
do_handshake(struct tlsio *io)
{
	ERR_clear_error();
	errno = 0;
	int r = SSL_do_handshake(io->ssl);
	if (r != 1) {
		int what = failure(io, r, 0);
		if (what >= 0) /* a peer gone mid-handshake (a scanner) is an EOF */
			fail(io, what);
		return;
	}
	io->up = 1;
	io->read_wants_write = 0;
	wev_disarm(io);
	/* the handshake's record buffers are not kept by an idle connection */
	if (!SSL_has_pending(io->ssl))
		SSL_free_buffers(io->ssl);
	if (io->ecb)
		io->ecb(io, TLSIO_UP, io->arg);
	if (io->stopped || io->failed)
		return;
	if (evbuffer_get_length(io->out) > 0)
		queue_flush(io);
	do_read(io); /* the peer's first bytes may have come with its Finished */
}

static void
rev_cb(evutil_socket_t fd, short what, void *arg)
{
	struct tlsio *io = arg;
	(void)fd;
	(void)what;
	enter(io);
	if (!io->up) {
		do_handshake(io);
	} else {
		if (io->write_wants_read)
			do_write(io);
		if (!io->stopped && !io->failed)
			do_read(io);
	}
	leave(io);
}

static void
wev_cb(evutil_socket_t fd, short what, void *arg)
{
	struct tlsio *io = arg;
	(void)fd;
	enter(io);
	if (what & EV_TIMEOUT) {
		if (io->ecb && !io->stopped)
			io->ecb(io, TLSIO_TIMEOUT | TLSIO_WRITING, io->arg);
	} else if (!io->up) {
		do_handshake(io);
	} else {
		if (io->read_wants_write)
			do_read(io);
		if (!io->stopped && !io->failed)
			do_write(io);
	}
	leave(io);
}

/* The idle timer fires at its deadline, or earlier than the present one
 * (bytes came meanwhile): then it is set again for what is left. */
static void
tev_cb(evutil_socket_t fd, short what, void *arg)
{
	struct tlsio *io = arg;
	(void)fd;
	(void)what;
	io->tev_on = 0;
	if (io->read_s <= 0 || io->stopped || io->failed)
		return;
	int64_t now = clock_now_ms(), at = io->last_in_ms + (int64_t)io->read_s * 1000;
	if (now < at) {
		int64_t ms = at - now;
		struct timeval tv = { (time_t)(ms / 1000), (suseconds_t)(ms % 1000) * 1000 };
		evtimer_add(io->tev, &tv);
		io->tev_on = 1;
		io->tev_at_ms = at;
		return;
	}
	enter(io);
	if (io->ecb)
		io->ecb(io, TLSIO_TIMEOUT | TLSIO_READING, io->arg);
	leave(io);
}

static void
flush_cb(evutil_socket_t fd, short what, void *arg)
{
	struct tlsio_base *b = arg;
	struct tlsio *io;
	(void)fd;
	(void)what;
	/*
	 * Events made active after the flush was (an answer's commit, a bot's
	 * search asked for by the move just committed) run first, once: the
	 * output they queue goes in the same record, and work they hand to
	 * another thread starts before this turn's writes rather than after
	 * them (issue 45: a level-1 bot move 20-40 us slower locally when a
	 * reply's write went ahead of the worker's wake-up).
	 */
	if (!b->waited && event_base_get_num_events(b->base, EVENT_BASE_COUNT_ACTIVE) > 0) {
		b->waited = 1;
		event_active(b->flush, EV_WRITE, 1);
		return;
	}
	b->waited = 0;
	/* streams queued while this runs are written in the same pass */
	while ((io = TAILQ_FIRST(&b->queue)) != NULL) {
		unqueue(io);
		enter(io);
		do_write(io);
		leave(io);
	}
	b->active = 0;
}

/* The consumer took bytes from the input: reading may go on. */
static void
in_cb(struct evbuffer *buf, const struct evbuffer_cb_info *info, void *arg)
{
	struct tlsio *io = arg;
	(void)buf;
	if (info->n_deleted && !io->rev_on && io->rhigh)
		update_rev(io);
}

/* Output was queued: it goes out late in this turn. */
static void
out_cb(struct evbuffer *buf, const struct evbuffer_cb_info *info, void *arg)
{
	(void)buf;
	if (info->n_added)
		queue_flush(arg);
}

struct tlsio_base *
tlsio_base_new(struct event_base *base)
{
	struct tlsio_base *b = calloc(1, sizeof *b);
	if (!b)
		return NULL;
	b->base = base;
	TAILQ_INIT(&b->queue);
	if (!(b->flush = event_new(base, -1, 0, flush_cb, b))) {
		free(b);
		return NULL;
	}
	return b;
}

void
tlsio_base_free(struct tlsio_base *b)
{
	if (!b)
		return;
	event_free(b->flush);
	free(b);
}

struct event_base *
tlsio_base_loop(const struct tlsio_base *b)
{
	return b->base;
}

static struct tlsio *
tlsio_open(struct tlsio_base *b, SSL *ssl, int fd, int server)
{
	struct tlsio *io = calloc(1, sizeof *io);
	if (!io)
		return NULL;
	io->b = b;
	io->fd = fd;
	io->rev = event_new(b->base, fd, EV_READ | EV_PERSIST, rev_cb, io);
	io->wev = event_new(b->base, fd, EV_WRITE | EV_PERSIST, wev_cb, io);
	io->tev = evtimer_new(b->base, tev_cb, io);
	io->in = evbuffer_new();
	io->out = evbuffer_new();
	if (!io->rev || !io->wev || !io->tev || !io->in || !io->out ||
	    !evbuffer_add_cb(io->in, in_cb, io) || !evbuffer_add_cb(io->out, out_cb, io) ||
	    SSL_set_fd(ssl, fd) != 1) {
		io->ssl = NULL; /* still the caller's */
		io->fd = -1;
		really_free(io);
		return NULL;
	}
	io->ssl = ssl;
	/* a peer that goes without close_notify reads as an EOF */
	SSL_set_options(ssl, SSL_OP_IGNORE_UNEXPECTED_EOF);
	SSL_set_mode(ssl, SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
	/* a record's header and body in one read, and any next record too */
	SSL_set_read_ahead(ssl, 1);
	if (server)
		SSL_set_accept_state(ssl);
	else
		SSL_set_connect_state(ssl);
	io->last_in_ms = clock_now_ms();
	io->reading = 1;
	update_rev(io);
	return io;
}

struct tlsio *
tlsio_new(struct tlsio_base *b, SSL *ssl, int fd)
{
	return tlsio_open(b, ssl, fd, 1);
}

struct tlsio *
tlsio_connect(struct tlsio_base *b, SSL *ssl, int fd)
{
	struct tlsio *io = tlsio_open(b, ssl, fd, 0);
	if (io)
		wev_arm(io); /* writable: connected, and the ClientHello goes */
	return io;
}

static void
really_free(struct tlsio *io)
{
	unqueue(io);
	if (io->rev)
		event_free(io->rev);
	if (io->wev)
		event_free(io->wev);
	if (io->tev)
		event_free(io->tev);
	if (io->in)
		evbuffer_free(io->in);
	if (io->out)
		evbuffer_free(io->out);
	if (io->ssl)
		SSL_free(io->ssl);
	if (io->fd >= 0)
		close(io->fd);
	free(io);
}

void
tlsio_free(struct tlsio *io)
{
	if (!io)
		return;
	tlsio_stop(io);
	if (io->busy) {
		io->doomed = 1;
		return;
	}
	really_free(io);
}

void
tlsio_setcb(struct tlsio *io, tlsio_read_fn r, tlsio_write_fn w, tlsio_event_fn e,
    tlsio_take_fn take, void *arg)
{
	io->rcb = r;
	io->wcb = w;
	io->ecb = e;
	io->take = take;
	io->arg = arg;
}

struct evbuffer *
tlsio_input(struct tlsio *io)
{
	return io->in;
}

struct evbuffer *
tlsio_output(struct tlsio *io)
{
	return io->out;
}

size_t
tlsio_pending(const struct tlsio *io)
{
	return evbuffer_get_length(io->out);
}

SSL *
tlsio_ssl(const struct tlsio *io)
{
	return io->ssl;
}

struct event_base *
tlsio_event_base(const struct tlsio *io)
{
	return io->b->base;
}

void
tlsio_reading(struct tlsio *io, int on)
{
	io->reading = on != 0;
	update_rev(io);
}

void
tlsio_read_mark(struct tlsio *io, size_t high)
{
	io->rhigh = high;
	update_rev(io);
}

void
tlsio_write_mark(struct tlsio *io, size_t low)
{
	io->wlow = low;
}

void
tlsio_timeouts(struct tlsio *io, int read_s, int write_s)
{
	io->read_s = read_s;
	if (read_s > 0) {
		/* as a timeout set anew: from now; the timer is moved only when
		 * it would fire late (it fires early and is set again otherwise) */
		io->last_in_ms = clock_now_ms();
		int64_t at = io->last_in_ms + (int64_t)read_s * 1000;
		if (!io->tev_on || io->tev_at_ms > at) {
			struct timeval tv = { read_s, 0 };
			evtimer_add(io->tev, &tv);
			io->tev_on = 1;
			io->tev_at_ms = at;
		}
	}
	if (write_s != io->write_s) {
		io->write_s = write_s;
		if (io->wev_on)
			wev_arm(io);
	}
}

void
tlsio_trigger(struct tlsio *io)
{
	io->triggered = 1;
	event_active(io->rev, EV_READ, 1);
}

void
tlsio_stop(struct tlsio *io)
{
	io->stopped = 1;
	io->rcb = NULL;
	io->wcb = NULL;
	io->ecb = NULL;
	io->take = NULL;
	update_rev(io);
	wev_disarm(io);
	unqueue(io);
	if (io->tev_on)
		evtimer_del(io->tev);
	io->tev_on = 0;
}

void
tlsio_close_notify(struct tlsio *io)
{
	if (io->failed || !io->up)
		return;
	SSL_shutdown(io->ssl);
	ERR_clear_error();
}

const char *
tlsio_error(struct tlsio *io, char *buf, size_t n)
{
	if (!io->err)
		return NULL;
	ERR_error_string_n(io->err, buf, n);
	return buf;
}
