/*
 * script.c: script mode (see script.h).
 */
#include "client/script.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/event.h>

#include "client/i18n.h"
#include "client/model.h"
#include "client/state.h"
#include "proto/proto.h"

enum { SEEN_MAX = 256 };

typedef struct {
	struct event_base *base;
	net_t *net;
	model_t model;
	const char *guest;
	const char *state_file;
	char kept[256];                  /* what the state file holds (state_sync) */
	int resuming;                    /* a RESUME from the state file is out */
	char token[PROTO_TOKEN_MAX + 1]; /* of the last RESUME asked for */
	char moved[PROTO_ROOM_MAX + 1];  /* the room * MOVED sent us after */
	int signing_in;                  /* the --name GUEST is out */
	int refused;                     /* the last reply to a request from stdin was an ERR */
	struct evbuffer *in;             /* stdin not yet handled */
	struct event *stdin_ev;
	int stdin_eof;
	int quitting, done, rc;
	char wait[PROTO_WORD_MAX + 1]; /* event name waited for, "" if none */
	int nseen;                     /* events not yet waited for */
	proto_id_t seen[SEEN_MAX];
} script_t;

static int64_t
now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void
finish(script_t *s, int rc)
{
	if (s->done)
		return;
	s->done = 1;
	s->rc = rc;
	net_close(s->net);
	event_base_loopexit(s->base, NULL);
}

static void
send_msg(script_t *s, const proto_msg_t *m)
{
	char buf[PROTO_LINE_MAX + 1];
	int n = proto_format(m, buf, sizeof buf);
	if (n < 0 || net_send(s->net, buf, (size_t)n) != 0)
		return;
	model_sent(&s->model, m->id);
	if (m->id == PR_QUIT)
		s->quitting = 1;
}

/* Consumes the first seen event named s->wait; 1 if found. */
static int
take_seen(script_t *s)
{
	for (int i = 0; i < s->nseen; i++)
		if (strcasecmp(proto_name(s->seen[i]), s->wait) == 0) {
			memmove(s->seen, s->seen + i + 1,
			    sizeof s->seen[0] * (size_t)(s->nseen - i - 1));
			s->nseen -= i + 1;
			s->wait[0] = '\0';
			return 1;
		}
	return 0;
}

/* GUEST with the --name, if one was given. */
static void
sign_in(script_t *s)
{
	if (!s->guest)
		return;
	proto_msg_t g;
	proto_init(&g, PR_GUEST, NULL);
	snprintf(g.user, sizeof g.user, "%s", s->guest);
	send_msg(s, &g);
	s->signing_in = 1;
}

static void
handle_input(script_t *s, char *line)
{
	size_t len = strlen(line);
	while (len && (line[len - 1] == '\r' || line[len - 1] == ' '))
		line[--len] = '\0';
	if (!len)
		return;
	if (strncmp(line, "!wait ", 6) == 0) {
		if (s->refused) {
			/* what it waits for cannot come: say so rather than hang */
			fprintf(stderr, "gomoku: ");
			fprintf(stderr,
			    TR("script.nowait",
				"not waiting for %s: the request before it was refused"),
			    line + 6);
			fprintf(stderr, "\n");
			finish(s, 4);
			return;
		}
		snprintf(s->wait, sizeof s->wait, "%s", line + 6);
		take_seen(s);
		return;
	}
	proto_msg_t m;
	char err[160];
	if (proto_parse(line, len, PROTO_CLIENT, &m, err, sizeof err) != 0) {
		fprintf(stderr, "gomoku: ");
		fprintf(stderr, TR("script.invalid", "not sent, not a valid request (%s): %s"), err,
		    line);
		fprintf(stderr, "\n");
		return;
	}
	if (m.id == PR_RESUME) /* kept, should * MOVED send it elsewhere */
		memcpy(s->token, m.token, sizeof s->token);
	send_msg(s, &m);
}

/* Sends stdin lines while nothing is awaited. */
static void
pump(script_t *s)
{
	while (!s->done && !s->quitting && s->model.hello_done && s->model.npending == 0 &&
	    !s->wait[0]) {
		size_t n;
		char *line = evbuffer_readln(s->in, &n, EVBUFFER_EOL_LF);
		if (!line) {
			if (s->stdin_eof) {
				if (evbuffer_get_length(s->in)) { /* last line without LF */
					evbuffer_add(s->in, "\n", 1);
					continue;
				}
				proto_msg_t q;
				proto_init(&q, PR_QUIT, NULL);
				send_msg(s, &q);
			}
			return;
		}
		handle_input(s, line);
		free(line);
	}
}

static void
on_line(void *arg, const char *line, size_t len)
{
	script_t *s = arg;
	proto_msg_t m;
	char err[160];
	if (proto_parse(line, len, PROTO_SERVER, &m, err, sizeof err) != 0) {
		/* not echoed: it may hold terminal escapes */
		char shown[96];
		size_t k = 0;
		for (size_t i = 0; i < len && k < sizeof shown - 4; i++)
			shown[k++] = line[i] >= 0x20 && line[i] < 0x7f ? line[i] : '?';
		shown[k] = '\0';
		fprintf(stderr, "gomoku: ");
		fprintf(stderr,
		    TR("script.unreadable", "unreadable line from the server (%s); ignored: %s%s"),
		    err, shown, k < len ? "..." : "");
		fprintf(stderr, "\n");
		return;
	}
	printf("%.*s\n", (int)len, line);
	fflush(stdout);
	if (model_apply(&s->model, &m, now_ms()) == MODEL_FATAL)
		fprintf(stderr, "gomoku: %s\n", s->model.status_text);
	if (m.id == PE_SERVER && !s->model.hello_done && s->model.npending == 0) {
		proto_msg_t h;
		proto_init(&h, PR_HELLO, NULL);
		h.version = PROTO_VERSION;
		snprintf(h.word, sizeof h.word, "gomoku/0.1");
		send_msg(s, &h);
	} else if (m.id == PE_MOVED) {
		/* the room is played on another node: take the seat back there */
		const char *tok = s->model.token[0] ? s->model.token : s->token;
		if (tok[0] && net_move(s->net, m.word) == 0) {
			fprintf(stderr, "gomoku: ");
			fprintf(stderr, TR("script.moved", "room %s is at %s: reconnecting there"),
			    m.room, m.word);
			fprintf(stderr, "\n");
			memcpy(s->moved, m.room, sizeof s->moved);
			if (tok != s->model.token)
				snprintf(s->model.token, sizeof s->model.token, "%s", tok);
			model_disconnected(&s->model);
			s->resuming = 0;
			return;
		}
	} else if (m.id == PO_HELLO && s->moved[0]) {
		proto_msg_t r;
		proto_init(&r, PR_RESUME, NULL);
		snprintf(r.token, sizeof r.token, "%s", s->model.token);
		memcpy(r.room, s->moved, sizeof r.room);
		s->moved[0] = '\0';
		send_msg(s, &r);
		s->resuming = 1;
	} else if (m.id == PO_HELLO) {
		state_t st;
		if (s->state_file && state_load(s->state_file, &st) == 0 && st.room[0]) {
			proto_msg_t r;
			proto_init(&r, PR_RESUME, NULL);
			snprintf(r.token, sizeof r.token, "%s", st.token);
			snprintf(r.room, sizeof r.room, "%s", st.room);
			snprintf(s->model.me, sizeof s->model.me, "%s", st.name);
			snprintf(s->model.token, sizeof s->model.token, "%s", st.token);
			send_msg(s, &r);
			s->resuming = 1;
		} else {
			sign_in(s);
		}
	} else if (s->resuming && (m.id == PO_RESUME || m.id == PX_ERR)) {
		s->resuming = 0;
		if (m.id == PX_ERR)
			sign_in(s); /* the seat is gone: start over with a name */
	} else if (s->signing_in && (m.id == PO_GUEST || m.id == PX_ERR)) {
		s->signing_in = 0;
		if (m.id == PX_ERR) {
			fprintf(stderr, "gomoku: ");
			fprintf(stderr,
			    TR("script.refused", "the server refused the name %s: %s%s%s%s"),
			    s->guest, i18n_error((int)m.ecode), m.text[0] ? " (" : "", m.text,
			    m.text[0] ? ")" : "");
			fprintf(stderr, "\n");
			finish(s, 4);
			return;
		}
	} else if (proto_kind(m.id) == PK_OK || proto_kind(m.id) == PK_ERR) {
		s->refused = m.id == PX_ERR;
		if (m.id == PO_QUIT) {
			finish(s, 0);
			return;
		}
	}
	state_sync(s->state_file, &s->model, s->kept);
	if (proto_kind(m.id) == PK_EVENT && s->nseen < SEEN_MAX)
		s->seen[s->nseen++] = m.id;
	if (s->wait[0])
		take_seen(s);
	pump(s);
}

static void
on_up(void *arg)
{
	(void)arg;
}

static void
on_down(void *arg, int fatal, const char *why)
{
	script_t *s = arg;
	if (s->quitting && !fatal) {
		finish(s, 0);
		return;
	}
	fprintf(stderr, "gomoku: %s\n", why);
	finish(s, fatal ? 3 : 1);
}

static void
on_notice(void *arg, const char *msg)
{
	(void)arg;
	fprintf(stderr, "gomoku: %s\n", msg);
}

static void
stdin_cb(evutil_socket_t fd, short ev, void *arg)
{
	script_t *s = arg;
	(void)ev;
	int r = evbuffer_read(s->in, fd, 4096);
	if (r <= 0 && !(r < 0 && (errno == EAGAIN || errno == EINTR))) {
		s->stdin_eof = 1;
		event_del(s->stdin_ev);
	}
	pump(s);
}

int
script_run(struct event_base *base, const net_opts_t *o, const char *guest, const char *state_file)
{
	static const net_cbs_t cbs = { on_line, on_up, on_down, on_notice };
	script_t s;
	memset(&s, 0, sizeof s);
	s.base = base;
	s.guest = guest;
	s.state_file = state_file;
	model_init(&s.model);
	s.in = evbuffer_new();
	char err[256];
	s.net = net_new(base, o, &cbs, &s, err, sizeof err);
	if (!s.net || !s.in) {
		fprintf(stderr, "gomoku: %s\n", s.net ? TR("main.nomem", "out of memory") : err);
		net_free(s.net);
		if (s.in)
			evbuffer_free(s.in);
		return 1;
	}
	/* A regular file cannot be polled: read it all now. */
	struct stat st;
	if (fstat(0, &st) == 0 && !S_ISFIFO(st.st_mode) && !S_ISSOCK(st.st_mode) && !isatty(0)) {
		while (evbuffer_read(s.in, 0, 65536) > 0)
			;
		s.stdin_eof = 1;
	} else {
		s.stdin_ev = event_new(base, 0, EV_READ | EV_PERSIST, stdin_cb, &s);
		if (!s.stdin_ev || event_add(s.stdin_ev, NULL) != 0) {
			/* not pollable either (/dev/null under epoll) */
			while (evbuffer_read(s.in, 0, 65536) > 0)
				;
			s.stdin_eof = 1;
		}
	}
	net_connect(s.net);
	if (!s.done)
		event_base_dispatch(base);
	if (s.stdin_ev)
		event_free(s.stdin_ev);
	net_free(s.net);
	evbuffer_free(s.in);
	return s.rc;
}
