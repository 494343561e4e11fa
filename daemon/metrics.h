/*
 * metrics.h: the daemon's counters and histograms, and the Prometheus text
 * exposition (format 0.0.4) of them on GET /metrics over plain HTTP
 * (metrics-listen, off by default). One owner, struct server; the verbs
 * below are plain integer increments on the loop thread, and a histogram is
 * a fixed array of buckets. Gauges (connections, sessions, rooms, games,
 * bot jobs) are not kept here: the server counts them from their owners
 * when a scrape asks (metrics_collect_fn).
 */
#ifndef GOMOKUD_METRICS_H
#define GOMOKUD_METRICS_H

#include <stddef.h>
#include <stdint.h>

#include "daemon/game.h"
#include "rules/rules.h"

struct event_base;
struct evbuffer;
struct metrics;

/* The histograms, observed in microseconds (exposed in seconds). */
enum metric_hist {
	METRIC_RELAY,           /* a MOVE line's arrival to its * MOVE handed to every sink */
	METRIC_STORE_COMMIT,    /* the archive's transaction of a move */
	METRIC_BOT_SEARCH,      /* a bot's search, as the engine timed it */
	METRIC_REVIEW_WAIT,     /* a review's position: asked to answered, less its search */
	METRIC_REVIEW,          /* a review: asked to stored (or failed) */
	METRIC_TOURNEY_PAIRING, /* a tournament's round or arena wave paired, on the loop */
	METRIC_NHIST
};

/* The rate buckets a refused line or chat counts in. */
enum metric_rate { METRIC_RATE_LINES, METRIC_RATE_CHAT, METRIC_NRATE };

enum { METRICS_TRANSPORTS = 4, METRICS_ENGINES = 8, METRICS_ENGINE_NAME = 16 };

/* A hosted engine's brains on this node, as their owner counted them
 * (hosted.h's hosted_stats): counters since the start, and a gauge. */
struct metrics_engine {
	char name[METRICS_ENGINE_NAME + 1];
	uint64_t moves, failures, forfeits;
	int brains;
};

/* What a scrape counts from the owners of the state, at that moment. */
struct metrics_gauges {
	const char *transport[METRICS_TRANSPORTS];
	int conns[METRICS_TRANSPORTS];
	int ntransports;
	int sessions, rooms, games;
	int bot_queued, bot_running;
	int store_queued, store_running; /* the PostgreSQL store thread's jobs */
	int reviews;                     /* under way on this node */
	struct metrics_engine engine[METRICS_ENGINES];
	int nengines;
};
typedef void (*metrics_collect_fn)(void *arg, struct metrics_gauges *g);

struct metrics *metrics_new(void);
void metrics_free(struct metrics *m);

/* Monotonic time in microseconds (for metrics_observe). */
int64_t metrics_now_us(void);

/* A connection of that transport (its ops' name) finished its handshake. */
void metrics_handshake(struct metrics *m, const char *transport);
void metrics_game_started(struct metrics *m, rule_t rule);
void metrics_game_finished(struct metrics *m, rule_t rule, game_reason_t reason);
/* A line arrived / was dealt with (conn_input): moves relayed in between
 * observe the relay latency from the line's arrival. */
void metrics_line_begin(struct metrics *m);
void metrics_line_end(struct metrics *m);
/* When the line being dealt with arrived (0: none), and the same set again
 * while a write that waited for its commit goes out (the moves it relays
 * count from their line's arrival, not the commit's). */
int64_t metrics_line_at(const struct metrics *m);
void metrics_line_set(struct metrics *m, int64_t at_us);
/* n * MOVE events were handed to every member's sink. */
void metrics_moves_relayed(struct metrics *m, int n);
void metrics_observe(struct metrics *m, enum metric_hist h, int64_t us);
/* The store thread ran n writes queued together (1: one alone; more: one
 * group transaction, archive.c). */
void metrics_store_batch(struct metrics *m, int n);
/* A bot search ended (not cancelled), the engine's time in ms (-1: it
 * found no move, and is not timed). */
void metrics_bot_done(struct metrics *m, int time_ms);
/* A hosted engine's brain here played a move for another node's game
 * (a worker serving the engine, bot-serve). Past METRICS_ENGINES names,
 * the last one's count takes them. */
void metrics_engine_served(struct metrics *m, const char *engine);
/* A review ended, stored (ok) or failed, us after it was asked. */
void metrics_review_done(struct metrics *m, int ok, int64_t us);
void metrics_rate_limited(struct metrics *m, enum metric_rate bucket);
/* An error reply (4xx or 5xx) was sent. */
void metrics_error(struct metrics *m, int code);
/* Protocol bytes (lines with their LF) in from and out to connections. */
void metrics_bytes_in(struct metrics *m, size_t n);
void metrics_bytes_out(struct metrics *m, size_t n);

/* Connections of transport open now (from a collect function). */
void metrics_gauge_conn(struct metrics_gauges *g, const char *transport);

/* The exposition text into out. */
void metrics_render(struct metrics *m, const struct metrics_gauges *g, struct evbuffer *out);

/* The metrics listener's bounds: at most METRICS_MAX_CONNS connections at
 * once (more wait in the listen backlog: accepting pauses at the cap), and
 * each is closed METRICS_DEADLINE_S seconds after its accept, whatever it
 * sends. Out of descriptors, accepting pauses a second at a time, with one
 * log line per episode. */
enum { METRICS_MAX_CONNS = 8, METRICS_DEADLINE_S = 5 };

struct logger;

/* Serves GET /metrics on fd, a bound socket (listened on here, and from
 * then on m's: metrics_free closes it, as a failure does), on base;
 * collect fills the gauges of each scrape; log gets the pauses. 0, or -1
 * with err. */
int metrics_serve(struct metrics *m, struct event_base *base, int fd, metrics_collect_fn collect,
    void *arg, const struct logger *log, char *err, size_t errlen);

#endif
