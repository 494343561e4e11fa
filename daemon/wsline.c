/* wsline.c: HTTP, then WebSocket, over a tlsio stream (see wsline.h). */
#include "daemon/wsline.h"

#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>
#include <event2/event.h>
#include <openssl/ssl.h>
#include <wslay/wslay.h>

#include "daemon/config.h"
#include "daemon/http.h"
#include "daemon/tlsio.h"
#include "daemon/transport.h"
#include "proto/proto.h"

enum phase {
	PH_HTTP,    /* answering requests for files */
	PH_WS,      /* a WebSocket: messages are lines */
	PH_CLOSING, /* a last HTTP answer going out, then gone */
};

enum {
	/* A message is a line; one up to this size is refused with 403 (as a
	 * long line is), a longer one closes with 1009 before it is buffered. */
	WS_MSG_MAX = 4 * PROTO_LINE_MAX,
	HTTP_WRITE_S = 10, /* an answer's time to be written */
	/* output over the cap (output-queue-kib) this long, the peer is dropped;
	 * meanwhile nothing of it is read, in either phase */
	OUTQ_HOLD_S = 10,
};

struct wsline {
	struct transport t; /* first: the transport is the wsline */
	struct tlsio *io;
	const struct config *cfg;
	enum phase phase;
	int reading;
	int throttled; /* the output is over the cap: nothing is read */
	int in_recv;   /* inside wslay_event_recv, which must not be entered again */
	int stopped;
	int read_s, write_s; /* the timeouts as set (ws_timeouts) */
	size_t cap;          /* the output cap, bytes */
	const char *ending;  /* the WebSocket is over: why, once its close frame is out */
	struct http_req req;
	struct event *deadline; /* the HTTP request's time cap, or the keep-alive idle one */
	int timing_req;         /* deadline is the current request's, from its first byte */
	struct event *hold;     /* the output has been over the cap since it was armed */
	wslay_event_context_ptr ws;
	struct evbuffer *held; /* messages that came while the connection held */
};

static struct wsline *
wl(struct transport *t)
{
	return (struct wsline *)t;
}

static const struct wsline *
cwl(const struct transport *t)
{
	return (const struct wsline *)t;
}

static void process(struct wsline *w);

/* The timeouts as set, the read (idle) one only while lines go up: a held
 * connection waits for our answer, not the peer's bytes. */
static void
set_timeouts(struct wsline *w)
{
	if (w->read_s || w->write_s) /* else the HTTP phase's, from wsline_new */
		tlsio_timeouts(w->io, w->reading ? w->read_s : 0, w->write_s);
}
static size_t ws_pending(const struct transport *t);

/* The time for the next request to begin (keep-alive idle), or for the one
 * that began to arrive whole (a total from its first byte, which bytes
 * trickling in do not stretch). */
static void
arm_deadline(struct wsline *w, int req)
{
	struct timeval tv = { w->cfg->handshake_s, 0 };
	w->timing_req = req;
	evtimer_add(w->deadline, &tv);
}

/* Whether the output is over the cap. Then the peer is not read (it sends
 * no more requests, pings or closes that would queue more) until it has
 * taken half of it, and is dropped if it stays over for OUTQ_HOLD_S. */
static int
over_cap(struct wsline *w)
{
	if (w->throttled)
		return 1;
	if (ws_pending(&w->t) <= w->cap)
		return 0;
	w->throttled = 1;
	tlsio_reading(w->io, 0);
	struct timeval tv = { OUTQ_HOLD_S, 0 };
	evtimer_add(w->hold, &tv);
	return 1;
}

static void
hold_cb(evutil_socket_t fd, short what, void *arg)
{
	struct wsline *w = arg;
	(void)fd;
	(void)what;
	conn_overfull(w->t.conn);
}

/* An HTTP request's time is up: 408 if it had begun. */
static void
http_timeout(struct wsline *w)
{
	if (w->phase != PH_HTTP)
		return;
	if (w->throttled) { /* not idle: unread, since it does not read its answers */
		conn_overfull(w->t.conn);
		return;
	}
	if (!w->req.started) { /* a kept-alive connection with nothing more to ask */
		conn_lost(w->t.conn, NULL);
		return;
	}
	http_error(tlsio_output(w->io), 408);
	w->phase = PH_CLOSING;
}

static void
deadline_cb(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	http_timeout(arg);
}

/* Hands a line to the connection, or keeps it while the connection holds. */
static void
line_up(struct wsline *w, const char *msg, size_t n)
{
	if (w->stopped)
		return;
	if (n > 0 && msg[n - 1] == '\n') /* a final LF is tolerated, not needed */
		n--;
	if (n > 0 && msg[n - 1] == '\r')
		n--;
	if (!w->reading || evbuffer_get_length(w->held) > 0) {
		uint16_t len = (uint16_t)n;
		evbuffer_add(w->held, &len, sizeof len);
		evbuffer_add(w->held, msg, n);
		return;
	}
	if (n + 1 > PROTO_LINE_MAX) {
		conn_overlong(w->t.conn);
		return;
	}
	conn_input(w->t.conn, msg, n);
}

/* The held lines, while the connection takes them. */
static void
release_held(struct wsline *w)
{
	char buf[WS_MSG_MAX];
	uint16_t len;
	while (w->reading && !w->stopped && evbuffer_get_length(w->held) >= sizeof len) {
		evbuffer_remove(w->held, &len, sizeof len);
		evbuffer_remove(w->held, buf, len);
		if (len + 1 > PROTO_LINE_MAX)
			conn_overlong(w->t.conn);
		else
			conn_input(w->t.conn, buf, len);
	}
}

static ssize_t
ws_recv(wslay_event_context_ptr ctx, uint8_t *buf, size_t len, int flags, void *user)
{
	struct wsline *w = user;
	(void)flags;
	int n = w->reading && !w->stopped && !over_cap(w)
	    ? evbuffer_remove(tlsio_input(w->io), buf, len)
	    : 0;
	if (n <= 0) {
		wslay_event_set_error(ctx, WSLAY_ERR_WOULDBLOCK);
		return -1;
	}
	return n;
}

static ssize_t
ws_send(wslay_event_context_ptr ctx, const uint8_t *data, size_t len, int flags, void *user)
{
	struct wsline *w = user;
	(void)ctx;
	(void)flags;
	if (evbuffer_add(tlsio_output(w->io), data, len)) {
		wslay_event_set_error(ctx, WSLAY_ERR_CALLBACK_FAILURE);
		return -1;
	}
	return (ssize_t)len;
}

static void
ws_msg(wslay_event_context_ptr ctx, const struct wslay_event_on_msg_recv_arg *arg, void *user)
{
	struct wsline *w = user;
	if (arg->opcode == WSLAY_TEXT_FRAME) {
		line_up(w, (const char *)arg->msg, arg->msg_length);
	} else if (arg->opcode == WSLAY_BINARY_FRAME) {
		static const char why[] = "text messages only";
		wslay_event_queue_close(
		    ctx, WSLAY_CODE_UNSUPPORTED_DATA, (const uint8_t *)why, sizeof why - 1);
		wslay_event_shutdown_read(ctx); /* closed once the close frame is out */
	}
	/* ping is answered and close acknowledged by wslay itself */
}

/* A close frame's payload is empty or a 2-byte code and a reason: one of a
 * single byte is a protocol error (RFC 6455 section 5.5.1), answered with
 * 1002 before wslay would echo an empty close. */
static void
ws_frame_start(
    wslay_event_context_ptr ctx, const struct wslay_event_on_frame_recv_start_arg *arg, void *user)
{
	(void)user;
	if (arg->opcode == WSLAY_CONNECTION_CLOSE && arg->payload_length == 1 &&
	    !wslay_event_get_close_sent(ctx)) {
		wslay_event_queue_close(ctx, WSLAY_CODE_PROTOCOL_ERROR, NULL, 0);
		wslay_event_shutdown_read(ctx);
	}
}

static const struct wslay_event_callbacks ws_callbacks = {
	ws_recv,
	ws_send,
	NULL,
	ws_frame_start,
	NULL,
	NULL,
	ws_msg,
};

/* Writes what wslay has queued; says when the WebSocket is over. */
static void
ws_flush(struct wsline *w)
{
	if (w->ending)
		return;
	int failed = wslay_event_send(w->ws) < 0;
	if (!failed && (wslay_event_want_read(w->ws) || wslay_event_want_write(w->ws)))
		return;
	/* a close the peer began ends quietly; one wslay began says why */
	w->ending = wslay_event_get_close_received(w->ws) && !failed ? "" : "WebSocket closed";
	w->reading = 0;
	if (evbuffer_get_length(tlsio_output(w->io)) == 0)
		conn_lost(w->t.conn, w->ending[0] ? w->ending : NULL);
}

/* A GET /ws that passed: 101, then the connection is up. */
static void
upgrade(struct wsline *w)
{
	http_ws_accept(tlsio_output(w->io), &w->req);
	if (wslay_event_context_server_init(&w->ws, &ws_callbacks, w) != 0) {
		conn_lost(w->t.conn, "out of memory");
		return;
	}
	wslay_event_config_set_max_recv_msg_length(w->ws, WS_MSG_MAX);
	w->phase = PH_WS;
	evtimer_del(w->deadline);
	conn_up(w->t.conn); /* the greeting, the idle timeout */
}

/* One whole request (or its error) is in: answer it. */
static void
answer(struct wsline *w)
{
	struct evbuffer *out = tlsio_output(w->io);
	int status = w->req.status;
	if (!status && http_wants_ws(&w->req) &&
	    !(status = http_ws_check(&w->req, w->cfg->web_origins))) {
		upgrade(w); /* a refused one hears 503 after the greeting */
		return;
	}
	if (!status && conn_refused(w->t.conn))
		status = 503; /* over a connection cap: served no file (issue 41, L5) */
	if (status) {
		http_error(out, status);
		w->phase = PH_CLOSING;
		return;
	}
	if (!http_static(out, &w->req, w->cfg->web_origins)) {
		w->phase = PH_CLOSING;
		return;
	}
	http_req_init(&w->req);
	arm_deadline(w, 0);
}

static void
process(struct wsline *w)
{
	struct evbuffer *in = tlsio_input(w->io);
	while (w->phase == PH_HTTP && !w->stopped && evbuffer_get_length(in) > 0 && !over_cap(w)) {
		size_t avail = evbuffer_get_contiguous_space(in);
		const char *p = (const char *)evbuffer_pullup(in, (ssize_t)avail);
		size_t used = http_req_feed(&w->req, p, avail);
		evbuffer_drain(in, used);
		if (w->req.started && !w->timing_req)
			arm_deadline(w, 1);
		if (w->req.status || w->req.complete)
			answer(w);
		else if (used == 0)
			break;
	}
	if (w->phase == PH_CLOSING) /* bytes left unread at the close would reset the answer */
		evbuffer_drain(in, evbuffer_get_length(in));
	if (w->phase == PH_WS && !w->stopped && w->reading && !w->throttled) {
		w->in_recv = 1;
		int rc = wslay_event_recv(w->ws);
		w->in_recv = 0;
		if (rc < 0) {
			conn_lost(w->t.conn, "WebSocket failed");
			return;
		}
		if (!w->stopped)
			ws_flush(w);
	}
	/* held: the frames wait in the input, four lines' worth at most,
	 * while reading goes on only to see the peer's close */
	if (w->phase == PH_WS && !w->stopped && !w->reading &&
	    evbuffer_get_length(in) >= 4 * PROTO_LINE_MAX)
		tlsio_reading(w->io, 0);
}

static void
read_cb(struct tlsio *io, void *arg)
{
	(void)io;
	process(arg);
}

static void
write_cb(struct tlsio *io, void *arg)
{
	struct wsline *w = arg;
	if (w->throttled && ws_pending(&w->t) <= w->cap / 2) { /* the peer reads again */
		w->throttled = 0;
		evtimer_del(w->hold);
		if (w->reading) {
			tlsio_reading(w->io, 1);
			release_held(w); /* lines held meanwhile (ws_reading waits for this) */
			if (w->reading && !w->stopped)
				process(w);
			if (w->stopped)
				return;
		}
	}
	if (tlsio_pending(io) > 0)
		return;
	if (w->phase == PH_CLOSING)
		conn_lost(w->t.conn, NULL);
	else if (w->ending) /* its close frame is out */
		conn_lost(w->t.conn, w->ending[0] ? w->ending : NULL);
	else if (w->phase == PH_WS)
		conn_drained(w->t.conn);
}

static void
event_cb(struct tlsio *io, int what, void *arg)
{
	struct wsline *w = arg;
	(void)io;
	if (what & TLSIO_TIMEOUT) {
		if (w->phase == PH_WS)
			conn_timeout(w->t.conn, (what & TLSIO_WRITING) != 0);
		else
			conn_lost(w->t.conn, NULL); /* an answer that could not be written */
		return;
	}
	if (what & (TLSIO_ERROR | TLSIO_EOF))
		conn_lost(w->t.conn,
		    w->phase == PH_WS && (what & TLSIO_ERROR) ? "connection error" : NULL);
}

static void
ws_send_line(struct transport *t, const char *line, size_t n)
{
	struct wsline *w = wl(t);
	if (w->phase != PH_WS || w->stopped)
		return;
	if (n > 0 && line[n - 1] == '\n')
		n--;
	struct wslay_event_msg m = { WSLAY_TEXT_FRAME, (const uint8_t *)line, n };
	if (wslay_event_queue_msg(w->ws, &m) == 0)
		ws_flush(w);
}

static size_t
ws_pending(const struct transport *t)
{
	const struct wsline *w = cwl(t);
	size_t n = tlsio_pending(w->io);
	return w->ws ? n + wslay_event_get_queued_msg_length(w->ws) : n;
}

static void
ws_reading(struct transport *t, int on)
{
	struct wsline *w = wl(t);
	w->reading = on > 0;
	if (on < 0) {                    /* closing */
		tlsio_reading(w->io, 0); /* the kernel buffers meanwhile */
		return;
	}
	set_timeouts(w);
	if (w->throttled)
		return; /* write_cb reads again once the output is down */
	/* held (0): no message goes up, but reading goes on (process bounds
	 * it), so the peer's close is seen at once */
	tlsio_reading(w->io, 1);
	if (!on) {
		process(w);
		return;
	}
	release_held(w);
	if (w->reading && !w->in_recv) /* released within a line: wslay's loop reads on */
		process(w);
}

static void
ws_timeouts(struct transport *t, int read_s, int write_s)
{
	struct wsline *w = wl(t);
	w->read_s = read_s;
	w->write_s = write_s;
	set_timeouts(w);
}

static const char *
ws_describe(const struct transport *t)
{
	return SSL_get_version(tlsio_ssl(cwl(t)->io));
}

static void
ws_closing(struct transport *t)
{
	struct wsline *w = wl(t);
	if (w->ws && !wslay_event_get_close_sent(w->ws) &&
	    wslay_event_queue_close(w->ws, WSLAY_CODE_NORMAL_CLOSURE, NULL, 0) == 0)
		wslay_event_send(w->ws);
}

static void
ws_stop(struct transport *t)
{
	struct wsline *w = wl(t);
	w->stopped = 1;
	w->reading = 0;
	evtimer_del(w->deadline);
	evtimer_del(w->hold);
	tlsio_stop(w->io);
}

static void
ws_free(struct transport *t)
{
	struct wsline *w = wl(t);
	tlsio_free(w->io);
	if (w->ws)
		wslay_event_context_free(w->ws);
	event_free(w->deadline);
	event_free(w->hold);
	evbuffer_free(w->held);
	free(w);
}

static const struct transport_ops wsline_ops = {
	"ws",
	ws_send_line,
	ws_pending,
	ws_reading,
	ws_timeouts,
	ws_describe,
	ws_closing,
	ws_stop,
	ws_free,
};

struct transport *
wsline_new(struct tlsio *io, struct conn *c, const struct config *cfg)
{
	struct wsline *w = calloc(1, sizeof *w);
	if (!w)
		return NULL;
	w->deadline = evtimer_new(tlsio_event_base(io), deadline_cb, w);
	w->hold = evtimer_new(tlsio_event_base(io), hold_cb, w);
	w->held = evbuffer_new();
	if (!w->deadline || !w->hold || !w->held) {
		if (w->deadline)
			event_free(w->deadline);
		if (w->hold)
			event_free(w->hold);
		if (w->held)
			evbuffer_free(w->held);
		free(w);
		return NULL;
	}
	w->t.ops = &wsline_ops;
	w->t.conn = c;
	w->io = io;
	w->cfg = cfg;
	w->reading = 1;
	w->cap = (size_t)cfg->outq_kib * 1024;
	http_req_init(&w->req);
	arm_deadline(w, 0);
	tlsio_setcb(io, read_cb, write_cb, event_cb, NULL, w);
	/* no read mark: the input is capped by the request's 8 KiB and by
	 * wslay's message cap instead */
	tlsio_read_mark(io, 0);
	/* write_cb comes when the output is down to half the cap (and at
	 * empty): a throttled peer is read again from there */
	tlsio_write_mark(io, w->cap / 2);
	/* HTTP's own deadline stands for the read timeout until the upgrade */
	tlsio_timeouts(io, 0, HTTP_WRITE_S);
	/* a request may already wait in the buffer: look at it late in this turn */
	tlsio_trigger(io);
	return &w->t;
}
