/* metrics.c: the counters, the histograms and their Prometheus exposition
 * on a listener of our own: one plain bufferevent per connection, the
 * request parsed by http.c, the reply written here (see metrics.h). */
#include "daemon/metrics.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/listener.h>

#include "daemon/http.h"
#include "daemon/log.h"

enum {
	RULES = RULE_RENJU + 1,
	REASONS = BY_ABORTED + 1,
	CODE_FIRST = 400,
	CODES = 200, /* 400..599 */
	MAX_BUCKETS = 16,
	DISCARD_MAX = 64 * 1024, /* read and dropped after the reply, then reading stops */
};

/* One connection of the metrics listener: its request, then its reply
 * (one buffer, written whole, then the close), and its deadline from
 * accept. */
struct mconn {
	struct mconn *next, **prev;
	struct metrics *m;
	struct bufferevent *bev;
	struct event *deadline;
	struct http_req req;
	int replied;      /* the reply is queued: close once it is out */
	size_t discarded; /* bytes read after it */
};

/* Bucket bounds in microseconds, ascending; +Inf is implied. */
static const int64_t fast_le[] = { 50, 100, 250, 500, 1000, 2500, 5000, 10000, 25000, 50000, 100000,
	250000, 500000, 1000000 };
static const int64_t slow_le[] = { 10000, 50000, 100000, 250000, 500000, 1000000, 2500000, 5000000,
	10000000, 30000000, 60000000 };

struct hist {
	uint64_t count[MAX_BUCKETS + 1]; /* per bucket, the last one +Inf */
	uint64_t total;
	uint64_t sum_us;
};

static const struct {
	const char *name, *help;
	const int64_t *le;
	int n;
} hists[METRIC_NHIST] = {
	[METRIC_RELAY] = { "gomokud_move_relay_seconds",
	    "From a MOVE line's arrival to its event handed to every member's sink.", fast_le,
	    (int)(sizeof fast_le / sizeof fast_le[0]) },
	[METRIC_STORE_COMMIT] = { "gomokud_store_commit_seconds",
	    "The archive's transaction of a move, begin to commit (the store thread's: the "
	    "group's).",
	    fast_le, (int)(sizeof fast_le / sizeof fast_le[0]) },
	[METRIC_BOT_SEARCH] = { "gomokud_bot_search_seconds",
	    "A bot's search, as the engine timed it.", slow_le,
	    (int)(sizeof slow_le / sizeof slow_le[0]) },
	[METRIC_REVIEW_WAIT] = { "gomokud_review_position_wait_seconds",
	    "A review's position, from its job's submission to its answer, less the search's "
	    "own time: the wait for a worker (and a remote one's round trip).",
	    slow_le, (int)(sizeof slow_le / sizeof slow_le[0]) },
	[METRIC_REVIEW] = { "gomokud_review_seconds",
	    "A review, from its start to stored (or failed).", slow_le,
	    (int)(sizeof slow_le / sizeof slow_le[0]) },
	[METRIC_TOURNEY_PAIRING] = { "gomokud_tourney_pairing_seconds",
	    "A tournament's round or arena wave paired: its standings and pairings computed on "
	    "the loop, before they go to the store.",
	    fast_le, (int)(sizeof fast_le / sizeof fast_le[0]) },
};

_Static_assert(sizeof fast_le / sizeof fast_le[0] <= MAX_BUCKETS, "too many buckets");
_Static_assert(sizeof slow_le / sizeof slow_le[0] <= MAX_BUCKETS, "too many buckets");

struct metrics {
	const char *transport[METRICS_TRANSPORTS]; /* names seen, static strings */
	int ntransports;
	uint64_t handshakes[METRICS_TRANSPORTS];
	uint64_t started[RULES];
	uint64_t finished[RULES][REASONS];
	uint64_t moves;
	uint64_t bot_done;
	char served_name[METRICS_ENGINES][METRICS_ENGINE_NAME + 1];
	uint64_t served[METRICS_ENGINES]; /* moves of engines for other nodes */
	int nserved;
	uint64_t reviews[2]; /* failed, ok */
	uint64_t rate[METRIC_NRATE];
	uint64_t errors[CODES];
	uint64_t bytes_in, bytes_out;
	uint64_t store_batches, store_batch_writes;
	int store_batch_max;
	struct hist h[METRIC_NHIST];
	int64_t line_at_us; /* the line being dealt with arrived then; 0: none */

	metrics_collect_fn collect;
	void *collect_arg;
	const struct logger *log;
	struct evconnlistener *lev; /* NULL: not serving */
	struct mconn *conns;        /* open */
	int nconns;
	int emfile;  /* paused: out of descriptors, retried each second */
	int episode; /* logged that; ends at the next accept */
	struct event *resume;
};

static void mconn_free(struct mconn *c);

struct metrics *
metrics_new(void)
{
	return calloc(1, sizeof(struct metrics));
}

void
metrics_free(struct metrics *m)
{
	if (!m)
		return;
	if (m->lev)
		evconnlistener_free(m->lev); /* closes the socket */
	m->lev = NULL;
	while (m->conns)
		mconn_free(m->conns);
	if (m->resume)
		event_free(m->resume);
	free(m);
}

int64_t
metrics_now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* The slot of a transport name: the same pointer, else the same text; a
 * name past the table's room shares the last slot. */
static int
transport_slot(const char **names, int *n, const char *name)
{
	for (int i = 0; i < *n; i++)
		if (names[i] == name || strcmp(names[i], name) == 0)
			return i;
	if (*n == METRICS_TRANSPORTS)
		return METRICS_TRANSPORTS - 1;
	names[*n] = name;
	return (*n)++;
}

void
metrics_handshake(struct metrics *m, const char *transport)
{
	m->handshakes[transport_slot(m->transport, &m->ntransports, transport)]++;
}

void
metrics_game_started(struct metrics *m, rule_t rule)
{
	if ((unsigned)rule < RULES)
		m->started[rule]++;
}

void
metrics_game_finished(struct metrics *m, rule_t rule, game_reason_t reason)
{
	if ((unsigned)rule < RULES && (unsigned)reason < REASONS)
		m->finished[rule][reason]++;
}

void
metrics_line_begin(struct metrics *m)
{
	m->line_at_us = metrics_now_us();
}

void
metrics_line_end(struct metrics *m)
{
	m->line_at_us = 0;
}

int64_t
metrics_line_at(const struct metrics *m)
{
	return m ? m->line_at_us : 0;
}

void
metrics_line_set(struct metrics *m, int64_t at_us)
{
	if (m)
		m->line_at_us = at_us;
}

void
metrics_moves_relayed(struct metrics *m, int n)
{
	m->moves += (uint64_t)n;
	if (m->line_at_us) /* a bot's move has no line */
		metrics_observe(m, METRIC_RELAY, metrics_now_us() - m->line_at_us);
}

void
metrics_observe(struct metrics *m, enum metric_hist h, int64_t us)
{
	struct hist *x = &m->h[h];
	int i = 0;
	if (us < 0)
		us = 0;
	while (i < hists[h].n && us > hists[h].le[i])
		i++;
	x->count[i]++;
	x->total++;
	x->sum_us += (uint64_t)us;
}

void
metrics_bot_done(struct metrics *m, int time_ms)
{
	m->bot_done++;
	if (time_ms >= 0) /* -1: the engine found no move */
		metrics_observe(m, METRIC_BOT_SEARCH, (int64_t)time_ms * 1000);
}

/* The slot of an engine's served moves, made on first use. */
static int
served_slot(struct metrics *m, const char *engine)
{
	for (int i = 0; i < m->nserved; i++)
		if (strcmp(m->served_name[i], engine) == 0)
			return i;
	if (m->nserved == METRICS_ENGINES)
		return METRICS_ENGINES - 1;
	snprintf(m->served_name[m->nserved], sizeof m->served_name[0], "%s", engine);
	return m->nserved++;
}

void
metrics_engine_served(struct metrics *m, const char *engine)
{
	if (engine)
		m->served[served_slot(m, engine)]++;
}

void
metrics_review_done(struct metrics *m, int ok, int64_t us)
{
	m->reviews[ok != 0]++;
	metrics_observe(m, METRIC_REVIEW, us);
}

void
metrics_store_batch(struct metrics *m, int n)
{
	m->store_batches++;
	m->store_batch_writes += (uint64_t)n;
	if (n > m->store_batch_max)
		m->store_batch_max = n;
}

void
metrics_rate_limited(struct metrics *m, enum metric_rate bucket)
{
	m->rate[bucket]++;
}

void
metrics_error(struct metrics *m, int code)
{
	if (code >= CODE_FIRST && code < CODE_FIRST + CODES)
		m->errors[code - CODE_FIRST]++;
}

void
metrics_bytes_in(struct metrics *m, size_t n)
{
	m->bytes_in += n;
}

void
metrics_bytes_out(struct metrics *m, size_t n)
{
	m->bytes_out += n;
}

void
metrics_gauge_conn(struct metrics_gauges *g, const char *transport)
{
	g->conns[transport_slot(g->transport, &g->ntransports, transport)]++;
}

/* Microseconds as seconds, without trailing zeros ("0.00025", "1"). */
static void
seconds(char *out, size_t len, uint64_t us)
{
	int n = snprintf(out, len, "%" PRIu64 ".%06" PRIu64, us / 1000000, us % 1000000);
	while (n > 0 && out[n - 1] == '0')
		out[--n] = '\0';
	if (n > 0 && out[n - 1] == '.')
		out[--n] = '\0';
}

static void
family(struct evbuffer *out, const char *name, const char *type, const char *help)
{
	evbuffer_add_printf(out, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

static void
render_hist(struct evbuffer *out, const struct metrics *m, enum metric_hist h)
{
	const struct hist *x = &m->h[h];
	const char *name = hists[h].name;
	char s[32];
	uint64_t cum = 0;
	family(out, name, "histogram", hists[h].help);
	for (int i = 0; i < hists[h].n; i++) {
		cum += x->count[i];
		seconds(s, sizeof s, (uint64_t)hists[h].le[i]);
		evbuffer_add_printf(out, "%s_bucket{le=\"%s\"} %" PRIu64 "\n", name, s, cum);
	}
	evbuffer_add_printf(out, "%s_bucket{le=\"+Inf\"} %" PRIu64 "\n", name, x->total);
	seconds(s, sizeof s, x->sum_us);
	evbuffer_add_printf(out, "%s_sum %s\n%s_count %" PRIu64 "\n", name, s, name, x->total);
}

static void
gauge(struct evbuffer *out, const char *name, const char *help, int v)
{
	family(out, name, "gauge", help);
	evbuffer_add_printf(out, "%s %d\n", name, v);
}

static void
counter(struct evbuffer *out, const char *name, const char *help, uint64_t v)
{
	family(out, name, "counter", help);
	evbuffer_add_printf(out, "%s %" PRIu64 "\n", name, v);
}

/* The hosted engines' series, one per engine of the config (engine names
 * are [a-z0-9], nothing to escape in a label). */
static void
render_engines(struct evbuffer *out, struct metrics *m, const struct metrics_gauges *g)
{
	static const struct {
		const char *name, *type, *help;
	} fam[] = {
		{ "gomokud_engine_brains", "gauge",
		    "A hosted engine's brain processes alive on this node, one per game." },
		{ "gomokud_engine_moves_total", "counter",
		    "Moves a hosted engine's brains on this node played, for this node's games "
		    "and other nodes'." },
		{ "gomokud_engine_moves_served_total", "counter",
		    "Of those, the moves played for another node's games (bot-serve)." },
		{ "gomokud_engine_failures_total", "counter",
		    "A brain's failures that did not end its game: it crashed, hung past its "
		    "turn or answered wrongly, and was started again from the position." },
		{ "gomokud_engine_forfeits_total", "counter",
		    "Games a hosted engine's brain gave up: failures past the limit, or a board "
		    "it cannot play." },
	};
	for (size_t f = 0; f < sizeof fam / sizeof fam[0]; f++) {
		family(out, fam[f].name, fam[f].type, fam[f].help);
		for (int i = 0; i < g->nengines; i++) {
			const struct metrics_engine *e = &g->engine[i];
			uint64_t served = 0; /* kept here, by name */
			for (int k = 0; k < m->nserved; k++)
				if (strcmp(m->served_name[k], e->name) == 0)
					served = m->served[k];
			const uint64_t v[] = { (uint64_t)e->brains, e->moves, served, e->failures,
				e->forfeits }; /* in fam's order */
			_Static_assert(sizeof v / sizeof v[0] == sizeof fam / sizeof fam[0],
			    "a value a family");
			evbuffer_add_printf(
			    out, "%s{engine=\"%s\"} %" PRIu64 "\n", fam[f].name, e->name, v[f]);
		}
	}
}

void
metrics_render(struct metrics *m, const struct metrics_gauges *g, struct evbuffer *out)
{
	/* every transport either list has seen, so a series stays once it was there */
	const char *names[METRICS_TRANSPORTS * 2];
	int nnames = 0;
	for (int i = 0; i < m->ntransports; i++)
		transport_slot(names, &nnames, m->transport[i]);
	for (int i = 0; i < g->ntransports; i++)
		transport_slot(names, &nnames, g->transport[i]);

	family(out, "gomokud_connections", "gauge", "Connections open, by transport.");
	for (int i = 0; i < nnames; i++) {
		int n = 0;
		for (int j = 0; j < g->ntransports; j++)
			if (strcmp(g->transport[j], names[i]) == 0)
				n += g->conns[j];
		evbuffer_add_printf(out, "gomokud_connections{transport=\"%s\"} %d\n", names[i], n);
	}
	family(out, "gomokud_handshakes_total", "counter",
	    "Connections whose handshake completed, by transport.");
	for (int i = 0; i < nnames; i++) {
		uint64_t n = 0;
		for (int j = 0; j < m->ntransports; j++)
			if (strcmp(m->transport[j], names[i]) == 0)
				n += m->handshakes[j];
		evbuffer_add_printf(
		    out, "gomokud_handshakes_total{transport=\"%s\"} %" PRIu64 "\n", names[i], n);
	}
	gauge(out, "gomokud_sessions", "Sessions (guests, accounts, bots).", g->sessions);
	gauge(out, "gomokud_rooms", "Rooms.", g->rooms);
	gauge(
	    out, "gomokud_games_in_progress", "Games in progress (opening or playing).", g->games);

	family(out, "gomokud_games_started_total", "counter",
	    "Games started by this process, by rule.");
	for (int r = 0; r < RULES; r++)
		evbuffer_add_printf(out, "gomokud_games_started_total{rule=\"%s\"} %" PRIu64 "\n",
		    rule_name((rule_t)r), m->started[r]);
	family(
	    out, "gomokud_games_finished_total", "counter", "Games finished, by rule and reason.");
	for (int r = 0; r < RULES; r++)
		for (int why = 0; why < REASONS; why++)
			evbuffer_add_printf(out,
			    "gomokud_games_finished_total{rule=\"%s\",reason=\"%s\"} %" PRIu64 "\n",
			    rule_name((rule_t)r), game_reason_name((game_reason_t)why),
			    m->finished[r][why]);
	counter(
	    out, "gomokud_moves_relayed_total", "Moves played and sent to their rooms.", m->moves);
	render_hist(out, m, METRIC_RELAY);
	render_hist(out, m, METRIC_STORE_COMMIT);
	counter(out, "gomokud_store_batches_total",
	    "Transactions of game writes (PostgreSQL's store thread, or SQLite's at the end of a "
	    "loop turn): one write alone, or a group of writes queued together.",
	    m->store_batches);
	counter(out, "gomokud_store_batch_jobs_total",
	    "Game writes in those transactions (over gomokud_store_batches_total: writes per "
	    "transaction).",
	    m->store_batch_writes);
	gauge(out, "gomokud_store_batch_jobs_max", "The most game writes one transaction had.",
	    m->store_batch_max);

	gauge(out, "gomokud_store_jobs_queued",
	    "Store jobs (PostgreSQL) waiting for the store thread.", g->store_queued);
	gauge(out, "gomokud_store_jobs_running",
	    "Store jobs (PostgreSQL) the store thread is doing (a group counts as one).",
	    g->store_running);
	gauge(out, "gomokud_bot_jobs_queued", "Bot searches waiting for a worker.", g->bot_queued);
	gauge(out, "gomokud_bot_jobs_running", "Bot searches running.", g->bot_running);
	counter(out, "gomokud_bot_jobs_done_total", "Bot searches finished (not cancelled).",
	    m->bot_done);
	render_hist(out, m, METRIC_BOT_SEARCH);
	render_engines(out, m, g);

	gauge(out, "gomokud_reviews_running",
	    "Reviews under way on this node (at most review-queue; REVIEW is 506 beyond).",
	    g->reviews);
	family(out, "gomokud_reviews_total", "counter", "Reviews ended: stored, or failed.");
	evbuffer_add_printf(
	    out, "gomokud_reviews_total{result=\"ok\"} %" PRIu64 "\n", m->reviews[1]);
	evbuffer_add_printf(
	    out, "gomokud_reviews_total{result=\"failed\"} %" PRIu64 "\n", m->reviews[0]);
	render_hist(out, m, METRIC_REVIEW_WAIT);
	render_hist(out, m, METRIC_REVIEW);
	render_hist(out, m, METRIC_TOURNEY_PAIRING);

	family(out, "gomokud_rate_limited_total", "counter",
	    "Lines refused by a rate bucket (lines: 407; chat: SAY over its burst).");
	evbuffer_add_printf(out, "gomokud_rate_limited_total{bucket=\"lines\"} %" PRIu64 "\n",
	    m->rate[METRIC_RATE_LINES]);
	evbuffer_add_printf(out, "gomokud_rate_limited_total{bucket=\"chat\"} %" PRIu64 "\n",
	    m->rate[METRIC_RATE_CHAT]);
	family(out, "gomokud_error_replies_total", "counter", "Error replies sent, by code.");
	for (int i = 0; i < CODES; i++)
		if (m->errors[i])
			evbuffer_add_printf(out,
			    "gomokud_error_replies_total{code=\"%d\"} %" PRIu64 "\n",
			    CODE_FIRST + i, m->errors[i]);
	counter(out, "gomokud_received_bytes_total",
	    "Protocol bytes received: the lines handed to connections, with their LF.",
	    m->bytes_in);
	counter(out, "gomokud_sent_bytes_total",
	    "Protocol bytes sent: the lines queued on connections, with their LF.", m->bytes_out);
}

/* ---- the listener: our own, one plain bufferevent per connection ---- */

/* Accepting, unless out of descriptors or at the cap. */
static void
listener_update(struct metrics *m)
{
	if (!m->lev)
		return;
	if (m->emfile || m->nconns >= METRICS_MAX_CONNS)
		evconnlistener_disable(m->lev);
	else
		evconnlistener_enable(m->lev);
}

/* Closes a connection (from any of its callbacks, or metrics_free); a
 * listener held at the cap accepts again. */
static void
mconn_free(struct mconn *c)
{
	struct metrics *m = c->m;
	*c->prev = c->next;
	if (c->next)
		c->next->prev = c->prev;
	bufferevent_free(c->bev);
	event_free(c->deadline);
	free(c);
	m->nconns--;
	listener_update(m);
}

/* Whether the request's path (without its query) is /metrics; an absolute
 * URL counts by its path. */
static int
wants_metrics(const struct http_req *r)
{
	struct http_parser_url u;
	http_parser_url_init(&u);
	if (http_parser_parse_url(r->url, r->urllen, r->p.method == HTTP_CONNECT, &u) != 0 ||
	    !(u.field_set & (1 << UF_PATH)))
		return 0;
	return u.field_data[UF_PATH].len == 8 &&
	    memcmp(r->url + u.field_data[UF_PATH].off, "/metrics", 8) == 0;
}

/* The whole reply to the request (or to its error) into out: another
 * path 404, another method 405, else the exposition. */
static void
reply(struct metrics *m, const struct http_req *r, struct evbuffer *out)
{
	int status = r->status;
	if (!status && !wants_metrics(r))
		status = 404;
	if (!status && r->p.method != HTTP_GET && r->p.method != HTTP_HEAD)
		status = 405;
	struct evbuffer *body = status ? NULL : evbuffer_new();
	if (!status && !body)
		status = 500;
	if (status) {
		http_error(out, status); /* Connection: close; 405 with Allow: GET, HEAD */
		return;
	}
	struct metrics_gauges g;
	memset(&g, 0, sizeof g);
	if (m->collect)
		m->collect(m->collect_arg, &g);
	metrics_render(m, &g, body);
	evbuffer_add_printf(out,
	    "HTTP/1.1 200 OK\r\nContent-Type: text/plain; version=0.0.4; charset=utf-8\r\n"
	    "Content-Length: %zu\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n",
	    evbuffer_get_length(body));
	evbuffer_add_buffer(out, body);
	evbuffer_free(body);
}

/* A whole request or its error is in: its reply queued, the only one (a
 * HEAD gets the headers alone). The connection closes once it is out. */
static void
answer(struct mconn *c)
{
	struct evbuffer *whole = evbuffer_new();
	c->replied = 1;
	if (!whole)
		return; /* nothing to say: closed at once */
	reply(c->m, &c->req, whole);
	size_t n = evbuffer_get_length(whole);
	if (c->req.p.method == HTTP_HEAD) {
		struct evbuffer_ptr end = evbuffer_search(whole, "\r\n\r\n", 4, NULL);
		if (end.pos >= 0)
			n = (size_t)end.pos + 4;
	}
	evbuffer_remove_buffer(whole, bufferevent_get_output(c->bev), n);
	evbuffer_free(whole);
}

static void
read_cb(struct bufferevent *bev, void *arg)
{
	struct mconn *c = arg;
	struct evbuffer *in = bufferevent_get_input(bev);
	while (!c->replied && evbuffer_get_length(in) > 0) {
		size_t avail = evbuffer_get_contiguous_space(in);
		const char *p = (const char *)evbuffer_pullup(in, (ssize_t)avail);
		size_t used = http_req_feed(&c->req, p, avail); /* capped: HTTP_HEADERS_MAX */
		evbuffer_drain(in, used);
		if (c->req.status || c->req.complete)
			answer(c);
		else if (used == 0)
			break;
	}
	if (!c->replied)
		return;
	/* bytes left unread at the close would reset the reply: read and drop
	 * them, up to DISCARD_MAX */
	size_t n = evbuffer_get_length(in);
	evbuffer_drain(in, n);
	c->discarded += n;
	if (c->discarded > DISCARD_MAX)
		bufferevent_disable(bev, EV_READ);
	if (evbuffer_get_length(bufferevent_get_output(bev)) == 0)
		mconn_free(c);
}

static void
write_cb(struct bufferevent *bev, void *arg)
{
	struct mconn *c = arg;
	if (c->replied && evbuffer_get_length(bufferevent_get_output(bev)) == 0)
		mconn_free(c);
}

static void
event_cb(struct bufferevent *bev, short what, void *arg)
{
	struct mconn *c = arg;
	/* a peer that shut its side after the request still gets the reply */
	if ((what & BEV_EVENT_EOF) && !(what & BEV_EVENT_ERROR) && c->replied &&
	    evbuffer_get_length(bufferevent_get_output(bev)) > 0) {
		bufferevent_disable(bev, EV_READ);
		return;
	}
	mconn_free(c);
}

/* METRICS_DEADLINE_S from accept, whatever came or went meanwhile. */
static void
deadline_cb(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	mconn_free(arg);
}

static void
accept_cb(struct evconnlistener *l, evutil_socket_t fd, struct sockaddr *sa, int salen, void *arg)
{
	struct metrics *m = arg;
	struct event_base *base = evconnlistener_get_base(l);
	(void)sa;
	(void)salen;
	if (m->episode) {
		m->episode = 0;
		log_info(m->log, "metrics: accepting again");
	}
	struct mconn *c = calloc(1, sizeof *c);
	if (!c || !(c->deadline = evtimer_new(base, deadline_cb, c)) ||
	    !(c->bev = bufferevent_socket_new(base, fd, BEV_OPT_CLOSE_ON_FREE))) {
		if (c && c->deadline)
			event_free(c->deadline);
		free(c);
		close(fd);
		return;
	}
	c->m = m;
	http_req_init(&c->req);
	c->next = m->conns;
	if (c->next)
		c->next->prev = &c->next;
	c->prev = &m->conns;
	m->conns = c;
	m->nconns++;
	struct timeval tv = { METRICS_DEADLINE_S, 0 };
	evtimer_add(c->deadline, &tv);
	bufferevent_setcb(c->bev, read_cb, write_cb, event_cb, c);
	bufferevent_enable(c->bev, EV_READ | EV_WRITE);
	listener_update(m); /* at the cap: the rest wait in the backlog */
}

static void
resume_cb(evutil_socket_t fd, short what, void *arg)
{
	struct metrics *m = arg;
	(void)fd;
	(void)what;
	m->emfile = 0;
	listener_update(m);
}

/* Out of descriptors: pause for a second, one log line per episode
 * (libevent's own would log each attempt, on a listener that stays
 * readable). */
static void
accept_error_cb(struct evconnlistener *l, void *arg)
{
	struct metrics *m = arg;
	int err = EVUTIL_SOCKET_ERROR();
	(void)l;
	if (!(err == EMFILE || err == ENFILE || err == ENOBUFS || err == ENOMEM))
		return; /* a connection reset before accept, say: nothing to do */
	if (!m->episode) {
		m->episode = 1;
		log_warn(m->log, "metrics: accept: %s; pausing accept, retried each second",
		    strerror(err));
	}
	m->emfile = 1;
	listener_update(m);
	struct timeval tv = { 1, 0 };
	evtimer_add(m->resume, &tv);
}

int
metrics_serve(struct metrics *m, struct event_base *base, int fd, metrics_collect_fn collect,
    void *arg, const struct logger *log, char *err, size_t errlen)
{
	if (listen(fd, 16) != 0) {
		snprintf(err, errlen, "listen: %s", strerror(errno));
		close(fd);
		return -1;
	}
	m->collect = collect;
	m->collect_arg = arg;
	m->log = log;
	if (!(m->resume = evtimer_new(base, resume_cb, m))) {
		snprintf(err, errlen, "out of memory");
		close(fd);
		return -1;
	}
	/* backlog 0: listening already; accepted sockets are nonblocking */
	m->lev = evconnlistener_new(
	    base, accept_cb, m, LEV_OPT_CLOSE_ON_FREE | LEV_OPT_CLOSE_ON_EXEC, 0, fd);
	if (!m->lev) {
		snprintf(err, errlen, "cannot accept on the metrics socket");
		close(fd);
		return -1;
	}
	evconnlistener_set_error_cb(m->lev, accept_error_cb);
	return 0;
}
