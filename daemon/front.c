/* front.c: the PROXY protocol header before TLS, on connections from the
 * configured fronts (see front.h). */
#include "daemon/front.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/queue.h>
#include <unistd.h>

#include <event2/event.h>

#include "daemon/cidr.h"
#include "daemon/clock.h"
#include "daemon/config.h"
#include "daemon/log.h"
#include "daemon/proxyhdr.h"

/* One socket from a front whose header is being read. */
struct waiting {
	LIST_ENTRY(waiting) link;
	struct front *f;
	int fd;
	struct event *ev;
	int64_t deadline_ms;
	int local_done; /* a LOCAL header is read: wait for the first byte */
	struct sockaddr_storage addr;
	int addrlen;
	char name[64]; /* the front's address, for the log */
	size_t have, want;
	unsigned char buf[PROXYHDR_MAX];
};

struct front {
	struct event_base *base;
	const struct config *cfg;
	struct logger *log;
	front_ready_fn ready;
	void *arg;
	LIST_HEAD(, waiting) waiting;
	int n;
};

struct front *
front_new(struct event_base *base, const struct config *cfg, struct logger *log,
    front_ready_fn ready, void *arg)
{
	struct front *f = calloc(1, sizeof *f);
	if (!f)
		return NULL;
	f->base = base;
	f->cfg = cfg;
	f->log = log;
	f->ready = ready;
	f->arg = arg;
	LIST_INIT(&f->waiting);
	return f;
}

static void
drop(struct waiting *w, int close_fd)
{
	LIST_REMOVE(w, link);
	w->f->n--;
	event_free(w->ev);
	if (close_fd)
		close(w->fd);
	free(w);
}

void
front_free(struct front *f)
{
	if (!f)
		return;
	while (!LIST_EMPTY(&f->waiting))
		drop(LIST_FIRST(&f->waiting), 1);
	free(f);
}

int
front_waiting(const struct front *f)
{
	return f->n;
}

static int
is_front(const struct config *cfg, const struct sockaddr *sa)
{
	for (int i = 0; i < cfg->nproxy_from; i++)
		if (cidr_match(&cfg->proxy_from[i], sa))
			return 1;
	return 0;
}

/* Waits for more bytes until the deadline. */
static void
rearm(struct waiting *w)
{
	int64_t left = w->deadline_ms - clock_now_ms();
	struct timeval tv = { 0, 0 };
	if (left > 0) {
		tv.tv_sec = (time_t)(left / 1000);
		tv.tv_usec = (suseconds_t)(left % 1000 * 1000);
	}
	event_add(w->ev, &tv);
}

/* The socket goes on as the client's (or the front's, for LOCAL). */
static void
hand_on(struct waiting *w, const struct sockaddr *sa, int salen)
{
	struct front *f = w->f;
	int fd = w->fd;
	struct sockaddr_storage ss;
	memcpy(&ss, sa, (size_t)salen);
	drop(w, 0);
	f->ready(f->arg, fd, (const struct sockaddr *)&ss, salen);
}

/* After a LOCAL header: a health check that closes is done with; a byte
 * means a TLS client (an SSL health check) and the socket goes on. */
static void
after_local(struct waiting *w)
{
	unsigned char b;
	ssize_t r = recv(w->fd, &b, 1, MSG_PEEK);
	if (r == 1) {
		hand_on(w, (const struct sockaddr *)&w->addr, w->addrlen);
	} else if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) {
		rearm(w);
	} else {
		log_debug(w->f->log, "front %s: health check (LOCAL), closed", w->name);
		drop(w, 1);
	}
}

static void
read_cb(evutil_socket_t fd, short what, void *arg)
{
	struct waiting *w = arg;
	struct logger *log = w->f->log;
	char err[120];
	(void)fd;
	if (what & EV_TIMEOUT) {
		if (w->local_done)
			log_debug(log, "front %s: LOCAL and then silence; closed", w->name);
		else
			log_warn(log,
			    "front %s: no whole PROXY header within %d s (%zu bytes); closed",
			    w->name, w->f->cfg->handshake_s, w->have);
		drop(w, 1);
		return;
	}
	if (w->local_done) {
		after_local(w);
		return;
	}
	/* never past the header: what follows is the client's TLS */
	ssize_t r = recv(w->fd, w->buf + w->have, w->want - w->have, 0);
	if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) {
		rearm(w);
		return;
	}
	if (r <= 0) {
		/* a front's check may connect and close before a byte: no noise */
		if (w->have == 0)
			log_debug(log, "front %s: closed before a PROXY header", w->name);
		else
			log_warn(log, "front %s: closed inside the PROXY header (%zu of %zu bytes)",
			    w->name, w->have, w->want);
		drop(w, 1);
		return;
	}
	w->have += (size_t)r;
	struct proxyhdr h;
	int len = proxyhdr_parse(w->buf, w->have, &h, err, sizeof err);
	if (len < 0) {
		log_warn(log, "front %s: bad PROXY header: %s; closed", w->name, err);
		drop(w, 1);
		return;
	}
	if (w->have < (size_t)len) {
		w->want = (size_t)len;
		rearm(w);
		return;
	}
	if (h.local) {
		w->local_done = 1;
		after_local(w);
		return;
	}
	char client[64];
	cidr_addr_name((const struct sockaddr *)&h.src, client, sizeof client);
	log_debug(log, "front %s: PROXY for %s", w->name, client);
	hand_on(w, (const struct sockaddr *)&h.src, (int)h.srclen);
}

int
front_accept(struct front *f, int fd, const struct sockaddr *sa, int salen)
{
	if (!is_front(f->cfg, sa))
		return 0;
	struct waiting *w = calloc(1, sizeof *w);
	if (w)
		w->ev = event_new(f->base, fd, EV_READ, read_cb, w);
	if (!w || !w->ev || f->n >= f->cfg->max_conns) {
		char name[64];
		cidr_addr_name(sa, name, sizeof name);
		log_warn(f->log, "front %s: refused, %s", name,
		    w && w->ev ? "too many headers awaited" : "out of memory");
		if (w && w->ev)
			event_free(w->ev);
		free(w);
		close(fd);
		return 1;
	}
	w->f = f;
	w->fd = fd;
	memcpy(&w->addr, sa, (size_t)salen < sizeof w->addr ? (size_t)salen : sizeof w->addr);
	w->addrlen = salen;
	cidr_addr_name(sa, w->name, sizeof w->name);
	w->want = PROXYHDR_FIXED;
	w->deadline_ms = clock_now_ms() + (int64_t)f->cfg->handshake_s * 1000;
	LIST_INSERT_HEAD(&f->waiting, w, link);
	f->n++;
	rearm(w);
	return 1;
}
