/* server.c: listeners, accept limits, signals, the gc pass and shutdown. */
#include "daemon/server.h"
#include "daemon/notify.h"

#include <time.h>
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <event2/util.h>

#include "daemon/account.h"
#include "daemon/addrcount.h"
#include "daemon/admin.h"
#include "daemon/analysis.h"
#include "daemon/puzzles.h"
#include "daemon/reviews.h"
#include "daemon/archive.h"
#include "daemon/cmd.h"
#include "daemon/control.h"
#include "daemon/front.h"
#include "daemon/gc.h"
#include "daemon/hosted.h"
#include "daemon/botplay.h"
#include "daemon/challenge.h"
#include "daemon/cluster/attach.h"
#include "daemon/conn.h"
#include "daemon/lobby.h"
#include "daemon/metrics.h"
#include "daemon/restore.h"
#include "daemon/room.h"
#include "daemon/session.h"
#include "daemon/statelock.h"
#include "daemon/testhook.h"
#include "daemon/tickets.h"
#include "daemon/tls.h"
#include "daemon/tlsio.h"
#include "daemon/tourneys.h"
#include "daemon/league.h"
#include "daemon/transport.h"

/* The root's own state: what only this file reads. */
struct root {
	struct statelock *statelock; /* this daemon's hold on cfg.state_dir */
	char cert[CONFIG_PATH_MAX], key[CONFIG_PATH_MAX];
	struct evconnlistener *lev[CONFIG_MAX_LISTEN + 1]; /* the last may be web-listen's */
	int nlev;
	int accept_paused;
	int accept_episode; /* out of descriptors: logged once, until an accept */
	struct event *resume_accept_ev;
	struct event *sig_ev[3];
	struct event *drain_ev;
	struct event *watchdog_ev;   /* systemd WatchdogSec= pings, when asked */
	struct event *checkpoint_ev; /* WAL checkpoints, run by a worker */
	int checkpointing;
	struct testhook *testhook; /* the attack tests' figure, when asked */
};

/* The gc pass (gc.h): what is done with goes, at a loop turn of its own. */
static void
gc_pass(void *arg)
{
	struct server *srv = arg;
	/* freeing one thing may queue more: loop until all is quiet */
	for (int more = 1; more;) {
		more = 0;
		if (conns_gc(srv))
			more = 1;
		if (sessions_gc(srv))
			more = 1;
		if (rooms_gc(srv->rooms) > 0)
			more = 1;
	}
	if (srv->draining && conns_count(srv) == 0)
		event_base_loopexit(srv->base, NULL);
	if (srv->admin && admin_draining(srv->admin)) {
		int games = 0;
		for (struct room *r = rooms_first(srv->rooms); r; r = rooms_next(r))
			games += room_unfinished(r) || room_busy(r); /* a start in flight too */
		admin_drain_check(srv->admin, games);
	}
}

static void
resume_accept_cb(evutil_socket_t fd, short what, void *arg)
{
	struct server *srv = arg;
	(void)fd;
	(void)what;
	if (srv->draining)
		return;
	srv->root->accept_paused = 0;
	for (int i = 0; i < srv->root->nlev; i++)
		evconnlistener_enable(srv->root->lev[i]);
}

/* An accept after a pause ends the episode: said once. */
static void
accept_ok(struct server *srv)
{
	if (!srv->root->accept_episode)
		return;
	srv->root->accept_episode = 0;
	log_info(&srv->log, "accepting connections again");
}

static void
accept_cb(struct evconnlistener *l, evutil_socket_t fd, struct sockaddr *sa, int salen, void *arg)
{
	struct server *srv = arg;
	(void)l;
	accept_ok(srv);
	if (!front_accept(srv->front, fd, sa, salen)) /* a front's: after its header */
		conn_accept(srv, fd, sa, salen, 0);
}

/* A front's connection with its PROXY header read: sa is the client's. */
static void
front_ready(void *arg, int fd, const struct sockaddr *sa, int salen)
{
	struct server *srv = arg;
	if (srv->draining) {
		close(fd);
		return;
	}
	conn_accept(srv, fd, sa, salen, 0);
}

/* web-listen: every connection a browser's, whatever its ALPN. Fronts
 * (proxy-from) serve the game port, which has the board too. */
static void
accept_web_cb(
    struct evconnlistener *l, evutil_socket_t fd, struct sockaddr *sa, int salen, void *arg)
{
	(void)l;
	accept_ok(arg);
	conn_accept(arg, fd, sa, salen, 1);
}

/* Out of descriptors (EMFILE): pause accepting for a second instead of
 * spinning on a listener that stays readable, and again each second while
 * it lasts; one log line per episode, not one per retry. */
static void
accept_error_cb(struct evconnlistener *l, void *arg)
{
	struct server *srv = arg;
	int err = EVUTIL_SOCKET_ERROR();
	(void)l;
	if (err == EMFILE || err == ENFILE || err == ENOBUFS || err == ENOMEM) {
		if (!srv->root->accept_paused) {
			if (!srv->root->accept_episode)
				log_warn(&srv->log,
				    "accept: %s; pausing accept, retried each second",
				    strerror(err));
			srv->root->accept_episode = 1;
			srv->root->accept_paused = 1;
			for (int i = 0; i < srv->root->nlev; i++)
				evconnlistener_disable(srv->root->lev[i]);
			struct timeval tv = { 1, 0 };
			evtimer_add(srv->root->resume_accept_ev, &tv);
		}
		return;
	}
	log_warn(&srv->log, "accept: %s", strerror(err));
}

/* "host:port" or "[v6]:port" into a socket address (port 0: any free one). */
static int
parse_listen(const char *spec, struct sockaddr_storage *ss, int *len)
{
	char host[128];
	const char *colon = strrchr(spec, ':');
	if (!colon || (size_t)(colon - spec) >= sizeof host)
		return -1;
	memcpy(host, spec, (size_t)(colon - spec));
	host[colon - spec] = '\0';
	char *end;
	long port = strtol(colon + 1, &end, 10);
	if (*end || end == colon + 1 || port < 0 || port > 65535)
		return -1;
	memset(ss, 0, sizeof *ss);
	size_t hl = strlen(host);
	if (hl >= 2 && host[0] == '[' && host[hl - 1] == ']') {
		struct sockaddr_in6 *a = (struct sockaddr_in6 *)ss;
		host[hl - 1] = '\0';
		if (inet_pton(AF_INET6, host + 1, &a->sin6_addr) != 1)
			return -1;
		a->sin6_family = AF_INET6;
		a->sin6_port = htons((uint16_t)port);
		*len = sizeof *a;
		return 0;
	}
	struct sockaddr_in *a = (struct sockaddr_in *)ss;
	if (strcmp(host, "*") == 0 || host[0] == '\0')
		a->sin_addr.s_addr = htonl(INADDR_ANY);
	else if (strcmp(host, "localhost") == 0)
		a->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	else if (inet_pton(AF_INET, host, &a->sin_addr) != 1)
		return -1;
	a->sin_family = AF_INET;
	a->sin_port = htons((uint16_t)port);
	*len = sizeof *a;
	return 0;
}

/* A bound address as the log names it ("127.0.0.1", "[::1]"): its port. */
static int
bound_name(const struct sockaddr_storage *ss, char *out, size_t len)
{
	char host[INET6_ADDRSTRLEN] = "?";
	if (ss->ss_family == AF_INET6) {
		const struct sockaddr_in6 *a = (const struct sockaddr_in6 *)(const void *)ss;
		inet_ntop(AF_INET6, &a->sin6_addr, host, sizeof host);
		snprintf(out, len, "[%s]", host);
		return ntohs(a->sin6_port);
	}
	const struct sockaddr_in *a = (const struct sockaddr_in *)(const void *)ss;
	inet_ntop(AF_INET, &a->sin_addr, host, sizeof host);
	snprintf(out, len, "%s", host);
	return ntohs(a->sin_port);
}

/* The address a browser opens for the board on a bound socket: a loopback
 * one as localhost (the name the self-signed certificate always holds),
 * any address as the server-name setting or else this host's name, and a
 * given address as itself. */
static void
board_url(
    const struct server *srv, const struct sockaddr_storage *ss, int port, char *out, size_t len)
{
	char host[256];
	int any, loop;
	if (ss->ss_family == AF_INET6) {
		const struct in6_addr *a =
		    &((const struct sockaddr_in6 *)(const void *)ss)->sin6_addr;
		any = IN6_IS_ADDR_UNSPECIFIED(a);
		loop = IN6_IS_ADDR_LOOPBACK(a);
	} else {
		uint32_t a = ntohl(((const struct sockaddr_in *)(const void *)ss)->sin_addr.s_addr);
		any = a == INADDR_ANY;
		loop = (a >> 24) == 127;
	}
	if (loop)
		snprintf(host, sizeof host, "localhost");
	else if (any && srv->cfg.server_name[0])
		snprintf(host, sizeof host, "%s", srv->cfg.server_name);
	else if (!any || gethostname(host, sizeof host) != 0)
		bound_name(ss, host, sizeof host);
	host[sizeof host - 1] = '\0';
	snprintf(out, len, "https://%s:%d/", host, port);
}

/* A bound socket; IPv6 sockets are IPv6-only, so "0.0.0.0:p" and "[::]:p"
 * can both be listed. -1 with errno set. */
static int
bound_socket(const struct sockaddr_storage *ss, int len)
{
	int fd = socket(ss->ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	int one = 1;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	if (ss->ss_family == AF_INET6)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one);
	if (bind(fd, (const struct sockaddr *)ss, (socklen_t)len) != 0) {
		int e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

/* A listener on a bound socket. NULL with errno set. */
static struct evconnlistener *
listen_on(struct server *srv, struct sockaddr_storage *ss, int len, int web)
{
	int fd = bound_socket(ss, len);
	if (fd < 0)
		return NULL;
	struct evconnlistener *l = evconnlistener_new(srv->base, web ? accept_web_cb : accept_cb,
	    srv, LEV_OPT_CLOSE_ON_FREE | LEV_OPT_CLOSE_ON_EXEC, 1024, fd);
	if (!l)
		close(fd);
	return l;
}

static int
load_tls(struct server *srv)
{
	char err[300];
	if (srv->cfg.cert[0]) {
		snprintf(srv->root->cert, sizeof srv->root->cert, "%s", srv->cfg.cert);
		snprintf(srv->root->key, sizeof srv->root->key, "%s",
		    srv->cfg.key[0] ? srv->cfg.key : srv->cfg.cert);
	} else {
		char sans[1024];
		int rc = tls_san_list(srv->cfg.server_name, (const char(*)[128])srv->cfg.listen,
			     srv->cfg.nlisten, sans, sizeof sans)
		    ? (snprintf(err, sizeof err, "too many names for one certificate"), -1)
		    : tls_selfsigned(srv->cfg.state_dir, sans, srv->root->cert, srv->root->key,
			  sizeof srv->root->cert, err, sizeof err);
		if (rc < 0) {
			log_error(&srv->log, "self-signed certificate: %s", err);
			return -1;
		}
		if (rc == 1)
			log_info(&srv->log, "generated a self-signed certificate for %s: %s", sans,
			    srv->root->cert);
	}
	SSL_CTX *ctx = tls_server_ctx(srv->root->cert, srv->root->key, err, sizeof err);
	if (!ctx) {
		log_error(&srv->log, "TLS: %s", err);
		return -1;
	}
	if (srv->cfg.ticket_keys[0]) { /* shared by the nodes: a ticket resumes on any */
		struct tickets *t = tickets_load(srv->cfg.ticket_keys, err, sizeof err);
		if (!t || tickets_attach(ctx, t) != 0) {
			log_error(&srv->log, "tls-ticket-keys: %s", t ? "cannot use them" : err);
			tickets_free(t);
			SSL_CTX_free(ctx);
			return -1;
		}
	}
	/* the pinned form: what the client shows at first use */
	char fpr[100];
	if (tls_key_fingerprint(srv->root->cert, fpr, sizeof fpr) == 0)
		log_info(&srv->log, "certificate %s fingerprint %s", srv->root->cert, fpr);
	if (srv->ssl)
		SSL_CTX_free(srv->ssl); /* live connections keep their own reference */
	srv->ssl = ctx;
	return 0;
}

/* SIGHUP: the config file again (flags still win), then certificate and key.
 * Listen addresses and the state directory (locked, holding the open store)
 * stay as they are. A bad file changes nothing. */
int
server_reload(struct server *srv)
{
	struct config cfg;
	char err[300];
	config_defaults(&cfg);
	if (srv->config_path && config_load(&cfg, srv->config_path, err, sizeof err)) {
		log_error(&srv->log, "reload: %s; keeping the old settings", err);
		return -1;
	}
	memcpy(cfg.listen, srv->cfg.listen, sizeof cfg.listen);
	cfg.nlisten = srv->cfg.nlisten;
	memcpy(cfg.state_dir, srv->cfg.state_dir, sizeof cfg.state_dir);
	memcpy(cfg.metrics_listen, srv->cfg.metrics_listen, sizeof cfg.metrics_listen);
	memcpy(cfg.control_socket, srv->cfg.control_socket, sizeof cfg.control_socket);
	memcpy(cfg.web_listen, srv->cfg.web_listen, sizeof cfg.web_listen);
	/* a node keeps its place in the cluster until it restarts */
	memcpy(cfg.cluster_host, srv->cfg.cluster_host, sizeof cfg.cluster_host);
	cfg.cluster_port = srv->cfg.cluster_port;
	memcpy(cfg.node_name, srv->cfg.node_name, sizeof cfg.node_name);
	memcpy(cfg.advertise, srv->cfg.advertise, sizeof cfg.advertise);
	if (srv->flag_mask & 2)
		cfg.log_level = srv->flags.log_level;
	struct config old = srv->cfg;
	srv->cfg = cfg;
	if (load_tls(srv)) {
		srv->cfg = old;
		log_error(&srv->log, "reload: TLS failed; keeping the old settings");
		return -1;
	}
	srv->log.level = cfg.log_level;
	log_info(&srv->log, "reloaded configuration and certificate");
	return 0;
}

static void
shutdown_drain_cb(evutil_socket_t fd, short what, void *arg)
{
	struct server *srv = arg;
	(void)fd;
	(void)what;
	event_base_loopexit(srv->base, NULL);
}

static void
begin_shutdown(struct server *srv)
{
	if (srv->draining) {
		event_base_loopexit(srv->base, NULL); /* a second signal: now */
		return;
	}
	srv->draining = 1;
	notify_send("STOPPING=1");
	log_info(&srv->log, "shutting down: %d connections, draining for %d ms", conns_count(srv),
	    srv->cfg.drain_ms);
	for (int i = 0; i < srv->root->nlev; i++)
		evconnlistener_disable(srv->root->lev[i]);
	proto_msg_t m;
	proto_init(&m, PE_SHUTDOWN, NULL);
	m.ms = srv->cfg.drain_ms;
	snprintf(m.text, sizeof m.text, "server shutting down");
	struct conn *c, *next;
	for (c = conns_first(srv); c; c = conns_next(c))
		conn_send(c, &m);
	/* with a database, unfinished games wait in it for the restart, where
	 * their players RESUME; without one they end here */
	int kept = rooms_drain(srv->rooms);
	if (kept)
		log_info(&srv->log, "%d game%s in progress kept for the restart", kept,
		    kept == 1 ? "" : "s");
	for (c = conns_first(srv); c; c = next) {
		next = conns_next(c);
		conn_bye(c, "shutdown", "server restarting");
	}
	struct timeval tv = { srv->cfg.drain_ms / 1000, (srv->cfg.drain_ms % 1000) * 1000 };
	evtimer_add(srv->root->drain_ev, &tv);
	gc_soon(srv->gc);
}

static void
signal_cb(evutil_socket_t sig, short what, void *arg)
{
	struct server *srv = arg;
	(void)what;
	if (sig == SIGHUP) {
		log_info(&srv->log, "SIGHUP: reloading");
		notify_send("RELOADING=1");
		server_reload(srv);
		notify_send("READY=1");
	} else {
		log_info(&srv->log, "%s: shutting down", sig == SIGTERM ? "SIGTERM" : "SIGINT");
		begin_shutdown(srv);
	}
}

/* The SQLite store (issue 7): refuse to start on a damaged file rather than
 * start empty; "database none" keeps nothing (benchmarks). */
static int
open_store(struct server *srv)
{
	char path[CONFIG_PATH_MAX + 16], err[600];
	if (strcmp(srv->cfg.database, "none") == 0) {
		log_warn(&srv->log, "database none: accounts, ratings and games are not kept");
		return 0;
	}
	if (srv->cfg.database[0]) {
		snprintf(path, sizeof path, "%s", srv->cfg.database);
	} else {
		if (mkdir(srv->cfg.state_dir, 0700) != 0 && errno != EEXIST) {
			log_error(&srv->log, "state directory %s: %s", srv->cfg.state_dir,
			    strerror(errno));
			return -1;
		}
		snprintf(path, sizeof path, "%s/gomokud.db", srv->cfg.state_dir);
	}
	if (store_open(path, &srv->store, err, sizeof err) != 0) {
		log_error(&srv->log, "database: %s", err);
		return -1;
	}
	char shown[sizeof path];
	store_redacted(path, shown, sizeof shown);
	log_info(&srv->log, "database %s (schema %d)", shown, store_schema_version(srv->store));
	return 0;
}

/* A scrape's gauges, counted from their owners now. */
static void
collect_gauges(void *arg, struct metrics_gauges *g)
{
	struct server *srv = arg;
	struct conn *c;
	for (c = conns_first(srv); c; c = conns_next(c))
		metrics_gauge_conn(g, c->t->ops->name);
	g->sessions = sessions_count(srv);
	for (struct room *r = rooms_first(srv->rooms); r; r = rooms_next(r)) {
		g->rooms++;
		g->games += room_unfinished(r);
	}
	if (srv->botplay)
		botplay_load(srv->botplay, &g->bot_queued, &g->bot_running);
	if (srv->storeq)
		workq_load(srv->storeq, &g->store_queued, &g->store_running);
	if (srv->reviews)
		g->reviews = reviews_running(srv->reviews);
	const hosted_t *h = srv->botplay ? botplay_hosted(srv->botplay) : NULL;
	for (int i = 0; i < hosted_count(h) && g->nengines < METRICS_ENGINES; i++) {
		struct metrics_engine *e = &g->engine[g->nengines++];
		struct hosted_stats st;
		hosted_stats(h, i, &st);
		snprintf(e->name, sizeof e->name, "%s", hosted_name(h, i));
		e->moves = st.moves;
		e->failures = st.failures;
		e->forfeits = st.forfeits;
		e->brains = st.brains;
	}
}

/* GET /metrics on metrics-listen, when set; a socket that cannot be had is
 * logged and the daemon serves its games without it. */
static void
serve_metrics(struct server *srv)
{
	const char *spec = srv->cfg.metrics_listen;
	struct sockaddr_storage ss;
	int len;
	char err[200];
	if (!spec[0])
		return;
	if (parse_listen(spec, &ss, &len)) {
		log_warn(&srv->log, "metrics-listen %s: not host:port; no metrics", spec);
		return;
	}
	int fd = bound_socket(&ss, len);
	if (fd < 0) {
		log_warn(&srv->log, "metrics-listen %s: %s; no metrics", spec, strerror(errno));
		return;
	}
	struct sockaddr_storage bound;
	socklen_t blen = sizeof bound;
	char host[INET6_ADDRSTRLEN] = "?";
	getsockname(fd, (struct sockaddr *)&bound, &blen);
	int port = bound.ss_family == AF_INET6 ? ntohs(((struct sockaddr_in6 *)&bound)->sin6_port)
					       : ntohs(((struct sockaddr_in *)&bound)->sin_port);
	if (bound.ss_family == AF_INET6)
		inet_ntop(AF_INET6, &((struct sockaddr_in6 *)&bound)->sin6_addr, host, sizeof host);
	else
		inet_ntop(AF_INET, &((struct sockaddr_in *)&bound)->sin_addr, host, sizeof host);
	if (metrics_serve(
		srv->metrics, srv->base, fd, collect_gauges, srv, &srv->log, err, sizeof err)) {
		log_warn(&srv->log, "metrics-listen %s: %s; no metrics", spec, err);
		return;
	}
	log_info(&srv->log,
	    bound.ss_family == AF_INET6 ? "metrics on http://[%s]:%d/metrics"
					: "metrics on http://%s:%d/metrics",
	    host, port);
}

/* The store's checkpoints run on a worker, so a commit on the loop never
 * waits for the WAL to be copied and synced. */
enum { CHECKPOINT_OWNER = 0, CHECKPOINT_EVERY_MS = 1000 };

/* On a worker: the store's path was set before the workers started. */
static void
checkpoint_run(workq_job_t *job, void *ctx, void *arg)
{
	struct server *srv = arg;
	(void)job;
	(void)ctx;
	store_checkpoint(store_path(srv->store));
}

static void
checkpoint_done(int64_t id, int cancelled, void *arg)
{
	struct server *srv = arg;
	(void)id;
	(void)cancelled;
	srv->root->checkpointing = 0;
}

static void
checkpoint_cb(evutil_socket_t fd, short what, void *arg)
{
	struct server *srv = arg;
	(void)fd;
	(void)what;
	if (srv->root->checkpointing || !srv->store)
		return;
	if (workq_submit(srv->work, CHECKPOINT_OWNER, checkpoint_run, checkpoint_done, NULL, srv) >
	    0)
		srv->root->checkpointing = 1;
}

/* The world's part of the one clean-up path, through srv->world as it
 * is then (alone again at shutdown). */
static void
world_session_hook(void *arg, struct session *s)
{
	struct server *srv = arg;
	world_session_gone(&srv->world, s);
}

static void
world_away_hook(void *arg, struct session *s)
{
	struct server *srv = arg;
	world_session_away(&srv->world, s);
}

static void
world_back_hook(void *arg, struct session *s)
{
	struct server *srv = arg;
	world_session_back(&srv->world, s);
}

static int
world_holds_hook(void *arg, const struct session *s)
{
	struct server *srv = arg;
	return world_session_holds(&srv->world, s);
}

static void
world_conn_hook(void *arg, struct conn *c)
{
	struct server *srv = arg;
	world_conn_gone(&srv->world, c);
}

static void
reserve_guest(void *arg, const char *name)
{
	session_reserve_name(arg, name);
}

/* One clean-up path: who holds something of a session or a connection
 * hears that it goes, in this order. */
static int
hooks(struct server *srv)
{
	/* the other nodes: claims there end with the connection, challenges
	 * across nodes wait for a player away */
	static const struct session_owner world_owner = {
		.away = world_away_hook,
		.back = world_back_hook,
		.gone = world_session_hook,
		.holds = world_holds_hook,
	};
	return sessions_add_owner(srv, &lobby_owner, srv) ||
	    sessions_add_owner(srv, &challenge_owner, srv) ||
	    sessions_add_owner(srv, &world_owner, srv) || conns_on_gone(srv, cmd_conn_gone, srv) ||
	    conns_on_gone(srv, world_conn_hook, srv);
}

int
server_init(struct server *srv)
{
	char err[CONFIG_PATH_MAX * 2 + 200];
	srv->world = world_alone();
	if (!(srv->root = calloc(1, sizeof *srv->root))) {
		log_error(&srv->log, "out of memory");
		return -1;
	}
	signal(SIGPIPE, SIG_IGN);
	/* One daemon per state directory: before anything in it is read or
	 * written (the self-signed certificate, the store). */
	if (!(srv->root->statelock = statelock_take(srv->cfg.state_dir, err, sizeof err))) {
		log_error(&srv->log, "%s; refusing to start", err);
		return -1;
	}
	srv->base = event_base_new();
	if (!srv->base) {
		log_error(&srv->log, "event_base_new failed");
		return -1;
	}
	if (testhook_start(srv->base, &srv->root->testhook))
		return -1;
	if (!(srv->tlsio = tlsio_base_new(srv->base)) ||
	    !(srv->gc = gc_new(srv->base, gc_pass, srv)) || !(srv->addrs = addrcount_new())) {
		log_error(&srv->log, "out of memory");
		return -1;
	}
	if (!(srv->metrics = metrics_new()) ||
	    !(srv->front = front_new(srv->base, &srv->cfg, &srv->log, front_ready, srv)))
		return -1;
	if (load_tls(srv) || open_store(srv))
		return -1;
	srv->work = workq_new(srv->base, 2, 256, NULL, NULL, NULL, 0);
	if (archive_start(srv) != 0) {
		log_error(&srv->log, "cannot start the store thread");
		return -1;
	}
	if (!srv->work) {
		log_error(&srv->log, "cannot start the worker threads");
		return -1;
	}
	if (srv->store && store_session_expire(srv->store, (int64_t)time(NULL)) != 0)
		log_warn(&srv->log, "database: %s", store_error(srv->store));
	if (!(srv->lobby = lobby_new()) || !(srv->challenges = challenges_new()) ||
	    !(srv->sessions = sessions_new()) || !(srv->conns = conns_new())) {
		log_error(&srv->log, "out of memory");
		return -1;
	}
	/* the guests' tokens outlive a restart (RESUME <token> -): a new guest
	 * must not be given one of their names */
	if (srv->store &&
	    store_session_names(srv->store, (int64_t)time(NULL), reserve_guest, srv) < 0)
		log_warn(&srv->log, "database: %s", store_error(srv->store));
	if (!(srv->rooms = rooms_new(
		  srv->cfg.cluster_host[0] ? srv->cfg.node_name : "r", &session_members)) ||
	    !(srv->botplay = botplay_new(srv)))
		return -1;
	srv->analysis = analysis_new(srv); /* NULL: none (no bots, or turned off) */
	srv->reviews = reviews_new(srv);   /* NULL: none (no bots or store, or turned off) */
	srv->puzzles = srv->reviews ? puzzles_new(srv) : NULL; /* made by reviews */
	if (cmd_start(srv) != 0 || hooks(srv) != 0)
		return -1;
	if (srv->store) {
		struct timeval every = { CHECKPOINT_EVERY_MS / 1000,
			CHECKPOINT_EVERY_MS % 1000 * 1000 };
		srv->root->checkpoint_ev = event_new(srv->base, -1, EV_PERSIST, checkpoint_cb, srv);
		if (store_manual_checkpoints(srv->store) != 0 || !srv->root->checkpoint_ev ||
		    event_add(srv->root->checkpoint_ev, &every) != 0) {
			log_error(&srv->log, "database checkpoints: %s", store_error(srv->store));
			return -1;
		}
	}
	srv->root->resume_accept_ev = evtimer_new(srv->base, resume_accept_cb, srv);
	srv->root->drain_ev = evtimer_new(srv->base, shutdown_drain_cb, srv);
	static const int sigs[3] = { SIGTERM, SIGINT, SIGHUP };
	for (int i = 0; i < 3; i++) {
		srv->root->sig_ev[i] = evsignal_new(srv->base, sigs[i], signal_cb, srv);
		if (!srv->root->sig_ev[i] || evsignal_add(srv->root->sig_ev[i], NULL))
			return -1;
	}
	if (!(srv->admin = admin_new(srv, err, sizeof err))) {
		log_error(&srv->log, "%s", err);
		return -1;
	}
	if (restore_games(srv) < 0)
		return -1;
	/* after the rooms: a tournament's pairings find their restored games */
	srv->tourneys = tourneys_new(srv); /* NULL: none (no store) */
	srv->leagues = leagues_new(srv);   /* NULL: none (no tournaments) */
	if (srv->tourneys && !srv->leagues)
		return -1; /* logged */
	/* the other nodes, when a cluster is configured: the core asks them
	 * through srv->world (world.h) */
	err[0] = '\0';
	if (cluster_attach(srv, &srv->world, err, sizeof err) < 0) {
		log_error(&srv->log, "%s", err);
		return -1;
	}
	/* the game addresses, then web-listen's (the board alone) when set */
	int nspec = srv->cfg.nlisten + (srv->cfg.web_listen[0] != '\0');
	for (int i = 0; i < nspec; i++) {
		struct sockaddr_storage ss;
		int len, web = i == srv->cfg.nlisten;
		const char *spec = web ? srv->cfg.web_listen : srv->cfg.listen[i];
		if (parse_listen(spec, &ss, &len)) {
			log_error(
			    &srv->log, "%s %s: not host:port", web ? "web-listen" : "listen", spec);
			return -1;
		}
		struct evconnlistener *l = listen_on(srv, &ss, len, web);
		if (!l) {
			log_warn(&srv->log, "listen %s: %s", spec, strerror(errno));
			continue;
		}
		evconnlistener_set_error_cb(l, accept_error_cb);
		srv->root->lev[srv->root->nlev++] = l;
		/* the real port, for ":0", and the board's address to say */
		struct sockaddr_storage bound;
		socklen_t blen = sizeof bound;
		char where[INET6_ADDRSTRLEN + 8], url[300];
		getsockname(evconnlistener_get_fd(l), (struct sockaddr *)&bound, &blen);
		int port = bound_name(&bound, where, sizeof where);
		board_url(srv, &bound, port, url, sizeof url);
		if (web)
			log_info(&srv->log, "web board on %s (web-listen %s:%d)", url, where, port);
		else
			log_info(
			    &srv->log, "listening on %s:%d; web board on %s", where, port, url);
	}
	if (srv->root->nlev == 0) {
		log_error(&srv->log, "no address to listen on");
		return -1;
	}
	serve_metrics(srv);
	err[0] = '\0';
	if (!(srv->control = control_new(srv, server_reload, err, sizeof err)) && err[0]) {
		log_error(&srv->log, "control socket: %s", err);
		return -1;
	}
	if (srv->control)
		log_info(&srv->log, "control socket for gomokuctl ready");
	return 0;
}

static void
watchdog_cb(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	(void)arg;
	notify_send("WATCHDOG=1");
}

int
server_run(struct server *srv)
{
	/* Under systemd: listening now, and a watchdog ping at half its period. */
	uint64_t wd = notify_watchdog_usec();
	if (wd > 0) {
		struct timeval tv = { (time_t)(wd / 2 / 1000000), (suseconds_t)(wd / 2 % 1000000) };
		srv->root->watchdog_ev = event_new(srv->base, -1, EV_PERSIST, watchdog_cb, srv);
		if (srv->root->watchdog_ev == NULL || event_add(srv->root->watchdog_ev, &tv) != 0)
			log_warn(&srv->log, "cannot start the systemd watchdog timer");
	}
	if (notify_send("READY=1") < 0)
		log_warn(&srv->log, "systemd notify: %s", strerror(errno));
	log_info(&srv->log, "gomokud %s ready (protocol %d)", GOMOKUD_VERSION, PROTO_VERSION);
	int rc = event_base_dispatch(srv->base);
	log_info(&srv->log, "stopped");
	return rc < 0 ? -1 : 0;
}

void
server_free(struct server *srv)
{
	if (!srv->root) { /* server_init made nothing */
		memset(srv, 0, sizeof *srv);
		return;
	}
	for (int i = 0; i < srv->root->nlev; i++)
		evconnlistener_free(srv->root->lev[i]);
	srv->root->nlev = 0;
	front_free(srv->front);
	srv->front = NULL;
	conns_free(srv);
	/* the other nodes' world first (its relays leave the rooms); the core
	 * finds itself alone from here on */
	struct world far = srv->world;
	srv->world = world_alone();
	world_stop(&far);
	/* the store thread before the rooms its answers go to; a move it
	 * committed but did not deliver is resumed after the restart */
	archive_stop(srv);
	world_release(&far);        /* after the replies of the store (its leases') */
	leagues_free(srv->leagues); /* after the store's answers, before their events */
	srv->leagues = NULL;
	tourneys_free(srv->tourneys); /* after the store's answers, before the rooms */
	srv->tourneys = NULL;
	/* rooms first: a session leaving an unfinished game would resign it,
	 * and a game kept for the restart must stay unfinished */
	rooms_free(srv->rooms);
	srv->rooms = NULL;
	/* the sessions before the owners their hooks tell (seeks, challenges) */
	sessions_free(srv);
	lobby_free(srv);
	challenge_free_all(srv);
	cmd_stop(srv);
	analysis_free(srv->analysis); /* its searches, before the bots' pool */
	srv->analysis = NULL;
	reviews_free(srv->reviews);
	srv->reviews = NULL;
	botplay_free(srv->botplay);
	srv->botplay = NULL;
	addrcount_free(srv->addrs);
	for (int i = 0; i < 3; i++)
		if (srv->root->sig_ev[i])
			event_free(srv->root->sig_ev[i]);
	gc_free(srv->gc);
	if (srv->root->resume_accept_ev)
		event_free(srv->root->resume_accept_ev);
	if (srv->root->drain_ev)
		event_free(srv->root->drain_ev);
	if (srv->root->watchdog_ev)
		event_free(srv->root->watchdog_ev);
	if (srv->root->checkpoint_ev)
		event_free(srv->root->checkpoint_ev);
	srv->root->checkpoint_ev = NULL;
	workq_free(srv->work);
	srv->work = NULL;
	puzzles_free(srv->puzzles); /* after the workers and the store thread */
	srv->puzzles = NULL;
	control_free(srv->control); /* after the workers: a backup's reply names one */
	srv->control = NULL;
	admin_free(srv->admin);
	srv->admin = NULL;
	account_free_limits(srv);
	store_close(srv->store);
	srv->store = NULL;
	/* last: a successor may open the store once we have let go of it */
	statelock_release(srv->root->statelock);
	srv->root->statelock = NULL;
	if (srv->ssl)
		SSL_CTX_free(srv->ssl);
	metrics_free(srv->metrics); /* its listener and connections, before the base */
	srv->metrics = NULL;
	testhook_stop(srv->root->testhook);
	tlsio_base_free(srv->tlsio);
	if (srv->base)
		event_base_free(srv->base);
	free(srv->root);
	memset(srv, 0, sizeof *srv);
}
