/* control.c: the control socket gomokuctl talks to. One request a line
 * ("ban mallory 7d flooding"), answered by "= " data lines and one "OK text"
 * or "ERR text" line. Lines are capped and checked like protocol lines; the
 * peer must be the daemon's user or root. A backup runs on a worker and the
 * connection waits for it; everything else is answered at once. */
#define _GNU_SOURCE /* struct ucred */
#include "daemon/control.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/listener.h>
#include <openssl/crypto.h>

#include "daemon/admin.h"
#include "daemon/archive.h"
#include "daemon/auth.h"
#include "daemon/botplay.h"
#include "daemon/room.h"
#include "daemon/conn.h"
#include "daemon/core.h"
#include "daemon/session.h"
#include "daemon/tourneys.h"

enum {
	CTL_LINE_MAX = PROTO_LINE_MAX, /* as protocol lines, LF included */
	CTL_IDLE_S = 60,
	CTL_ARGS_MAX = 3,
};
#define CTL_BACKUP_OWNER (1ULL << 62) /* workq owners apart from connection ids */

struct ctlconn {
	LIST_ENTRY(ctlconn) link;
	struct control *ctl;
	struct bufferevent *bev;
	uint64_t id;
	char who[STORE_NAME_MAX + 1]; /* the peer's user name, or uidN */
	long uid, pid;
	int64_t job; /* a backup in flight: later lines wait */
	int waiting; /* a moderation write at the store: so do they */
	int closing;
};

struct control {
	struct server *srv;
	control_reload_fn *reload; /* the root's SIGHUP work */
	struct evconnlistener *lev;
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	LIST_HEAD(, ctlconn) conns;
	uint64_t next_id;
	time_t started;
	int reserve;          /* /dev/null, held for an admin when descriptors run out */
	int episode;          /* out of descriptors: logged once until an accept */
	struct event *resume; /* accepting again a second after a pause */
	int made;             /* the socket at path is the one bound here: */
	dev_t dev;            /* its device and inode, so only that one is */
	ino_t ino;            /* unlinked at exit */
};

static void out(struct ctlconn *cc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
out(struct ctlconn *cc, const char *fmt, ...)
{
	va_list ap;
	struct evbuffer *o = bufferevent_get_output(cc->bev);
	va_start(ap, fmt);
	evbuffer_add_vprintf(o, fmt, ap);
	va_end(ap);
	evbuffer_add(o, "\n", 1);
}

/* The reserve descriptor again, when it was handed out and one is free
 * (a control connection's closing gives its own: ctlconn_free). */
static void
reserve_take(struct control *ctl)
{
	if (ctl->reserve < 0)
		ctl->reserve = open("/dev/null", O_RDONLY | O_CLOEXEC);
}

static void
ctlconn_free(struct ctlconn *cc)
{
	if (cc->job)
		workq_cancel(cc->ctl->srv->work, cc->job); /* its done frees the job */
	struct control *ctl = cc->ctl;
	LIST_REMOVE(cc, link);
	int fd = bufferevent_getfd(cc->bev);
	if (ctl->reserve < 0 && fd >= 0) {
		/* The reserve was handed out: this connection's descriptor becomes
		 * it, shut down, so its number is never free for a moment (the
		 * bufferevent may close later than its free, and a listener
		 * resumed meanwhile would take it). */
		shutdown(fd, SHUT_RDWR);
		bufferevent_setfd(cc->bev, -1);
		ctl->reserve = fd;
	}
	bufferevent_free(cc->bev);
	free(cc);
}

/* Answers the refusal of an admin verb, in the words admin_why gives. */
static void
refused(struct ctlconn *cc, struct admin *a, game_err_t e)
{
	const char *why = admin_why(a);
	out(cc, "ERR %s", why ? why : e == GERR_STORE ? "the store refused it" : "refused");
}

/* A verb: argc words after it (argv), rest the text after them. */
typedef void (*verb_fn)(struct ctlconn *cc, int argc, char **argv, const char *rest);

static void
do_status(struct ctlconn *cc, int argc, char **argv, const char *rest)
{
	struct server *srv = cc->ctl->srv;
	int sessions = 0, rooms = 0, games = 0, queued = 0, running = 0;
	struct session *s;
	(void)argc;
	(void)argv;
	(void)rest;
	for (s = sessions_first(srv); s; s = sessions_next(s))
		sessions++;
	for (struct room *r = rooms_first(srv->rooms); r; r = rooms_next(r)) {
		rooms++;
		games += room_unfinished(r);
	}
	if (srv->botplay)
		botplay_load(srv->botplay, &queued, &running);
	long long bytes = -1;
	if (srv->store) {
		char wal[CONFIG_PATH_MAX + 32];
		struct stat sb;
		snprintf(wal, sizeof wal, "%s-wal", store_path(srv->store));
		bytes = stat(store_path(srv->store), &sb) == 0 ? (long long)sb.st_size : 0;
		if (stat(wal, &sb) == 0)
			bytes += (long long)sb.st_size;
	}
	out(cc, "= version %s", GOMOKUD_VERSION);
	out(cc, "= uptime %lld", (long long)(time(NULL) - cc->ctl->started));
	out(cc, "= connections %d", conns_count(srv));
	out(cc, "= sessions %d", sessions);
	out(cc, "= rooms %d", rooms);
	out(cc, "= games %d", games);
	out(cc, "= bots-busy %d", running);
	out(cc, "= bots-queued %d", queued);
	if (bytes >= 0)
		out(cc, "= store-bytes %lld", bytes);
	else
		out(cc, "= store-bytes none");
	out(cc, "= draining %s", admin_draining(srv->admin) ? "yes" : "no");
	out(cc, "OK");
}

static void
node_line(void *arg, const struct world_node *n)
{
	out(arg, "= node %s %s heard-ms %lld users %d engines %s", n->name, n->addr,
	    (long long)n->heard_ms, n->users, n->engines[0] ? n->engines : "-");
}

/* This node, then each other node as last heard (world.h). */
static void
do_nodes(struct ctlconn *cc, int argc, char **argv, const char *rest)
{
	const struct server *srv = cc->ctl->srv;
	(void)argc;
	(void)argv;
	(void)rest;
	if (!srv->cfg.cluster_host[0]) {
		out(cc, "ERR not a node of a cluster (no cluster line in the config)");
		return;
	}
	out(cc, "= node %s %s here", srv->cfg.node_name, srv->cfg.advertise);
	if (world_each_node(&srv->world, node_line, cc) < 0)
		out(cc, "ERR Redis cannot be reached: the other nodes are not heard now");
	else
		out(cc, "OK");
}

static const char *
kind_name(const struct server *srv, const struct session *s)
{
	if (s->kind == SESSION_BOT)
		return "bot";
	if (s->kind == SESSION_GUEST)
		return "guest";
	return admin_is(srv->admin, s) ? "admin" : s->botacct ? "bot-account" : "account";
}

static void
do_who(struct ctlconn *cc, int argc, char **argv, const char *rest)
{
	struct server *srv = cc->ctl->srv;
	struct session *s;
	int n = 0;
	(void)argc;
	(void)argv;
	(void)rest;
	for (s = sessions_first(srv); s; s = sessions_next(s)) {
		const struct room *g = session_game(s);
		const struct room *in = g ? g : s->nrooms ? s->rooms[s->nrooms - 1] : NULL;
		const char *state = g         ? "playing"
		    : s->seek                 ? "seeking"
		    : !in                     ? "idle"
		    : room_seat_of(in, s) < 0 ? "watching"
					      : "seated";
		int games = session_games(s, NULL, 0);
		out(cc, "= %s %s %s %s%s %s", s->name, kind_name(srv, s), state,
		    in ? room_id(in) : "-", games > 1 ? "+" : "",
		    s->conn            ? s->conn->peer
			: s->bot_level ? "-"
				       : "away");
		n++;
	}
	out(cc, "OK %d user%s", n, n == 1 ? "" : "s");
}

static void
do_rooms(struct ctlconn *cc, int argc, char **argv, const char *rest)
{
	struct server *srv = cc->ctl->srv;
	int n = 0;
	(void)argc;
	(void)argv;
	(void)rest;
	for (struct room *r = rooms_first(srv->rooms); r; r = rooms_next(r)) {
		proto_msg_t m;
		char line[PROTO_LINE_MAX];
		room_info(r, &m);
		int len = proto_format(&m, line, sizeof line);
		if (len < 8)
			continue;
		line[len - 1] = '\0'; /* "= ROOM r1 playing ...": the room's fields */
		out(cc, "= %s%s", line + 7, room_private(r) ? " private" : "");
		n++;
	}
	out(cc, "OK %d room%s", n, n == 1 ? "" : "s");
}

static void
do_kick(struct ctlconn *cc, int argc, char **argv, const char *rest)
{
	struct admin *a = cc->ctl->srv->admin;
	(void)argc;
	game_err_t e = admin_kick(a, cc->who, argv[0], rest[0] ? rest : NULL);
	if (e)
		refused(cc, a, e);
	else
		out(cc, "OK kicked %s", argv[0]);
}

static void input(struct ctlconn *cc);

/* A moderation verb's write at the store: its connection (by id: it may
 * go meanwhile) waits for the answer, the loop and everyone else go on. */
struct ctlwrite {
	struct control *ctl;
	uint64_t conn_id;
	struct admin_write *w;
	int async; /* answered from the store thread: input resumes after */
	char ok[STORE_TARGET_MAX + 40];
	int ok_why; /* the OK line ends with admin_why (a ban's "banned until") */
};

/* The write itself, on the store thread (or the loop, SQLite). */
static void
ctl_run(struct store *st, void *arg)
{
	struct ctlwrite *cw = arg;
	admin_write_run(st, cw->w);
}

static void
ctl_stored(void *arg, int cancelled)
{
	struct ctlwrite *cw = arg;
	struct admin *a = cw->ctl->srv->admin;
	game_err_t e = admin_write_end(cw->w); /* kept also when the admin went */
	struct ctlconn *cc;
	LIST_FOREACH (cc, &cw->ctl->conns, link)
		if (cc->id == cw->conn_id)
			break;
	if (cc && !cancelled) {
		cc->waiting = 0;
		if (e)
			refused(cc, a, e);
		else if (cw->ok_why)
			out(cc, "%s %s", cw->ok, admin_why(a));
		else
			out(cc, "%s", cw->ok);
		if (cw->async) {
			bufferevent_enable(cc->bev, EV_READ);
			input(cc);
		}
	}
	free(cw);
}

/* Sends w to the store for cc, then "ok" (and admin_why when ok_why). */
static void
ctl_write(struct ctlconn *cc, struct admin_write *w, game_err_t e, const char *ok, int ok_why)
{
	struct server *srv = cc->ctl->srv;
	struct ctlwrite *cw = w ? calloc(1, sizeof *cw) : NULL;
	if (!w) {
		refused(cc, srv->admin, e);
		return;
	}
	if (!cw) {
		admin_write_free(w);
		out(cc, "ERR out of memory");
		return;
	}
	int async = archive_async(srv);
	cw->ctl = cc->ctl;
	cw->conn_id = cc->id;
	cw->w = w;
	cw->async = async;
	cw->ok_why = ok_why;
	snprintf(cw->ok, sizeof cw->ok, "%s", ok);
	cc->waiting = 1;
	/* with SQLite, ctl_stored has answered (and freed cw) before this returns */
	if (archive_call(srv, ctl_run, ctl_stored, cw) != 0) {
		cc->waiting = 0;
		admin_write_free(w);
		free(cw);
		out(cc, "ERR the database is busy; try again in a moment");
		return;
	}
	if (async && cc->waiting)
		bufferevent_disable(cc->bev, EV_READ);
}

static void
do_ban(struct ctlconn *cc, int argc, char **argv, const char *rest)
{
	struct admin *a = cc->ctl->srv->admin;
	game_err_t e = GERR_OK;
	struct admin_write *w = admin_ban_begin(
	    a, cc->who, argv[0], argc > 1 ? argv[1] : NULL, rest[0] ? rest : NULL, &e);
	char ok[STORE_TARGET_MAX + 8];
	snprintf(ok, sizeof ok, "OK %s", w ? admin_write_target(w) : argv[0]);
	ctl_write(cc, w, e, ok, 1);
}

static void
do_unban(struct ctlconn *cc, int argc, char **argv, const char *rest)
{
	struct admin *a = cc->ctl->srv->admin;
	game_err_t e = GERR_OK;
	(void)argc;
	(void)rest;
	char ok[STORE_TARGET_MAX + 16];
	struct admin_write *w = admin_unban_begin(a, cc->who, argv[0], &e);
	snprintf(ok, sizeof ok, "OK unbanned %s", w ? admin_write_target(w) : argv[0]);
	ctl_write(cc, w, e, ok, 0);
}

static void
do_mute(struct ctlconn *cc, int argc, char **argv, const char *rest)
{
	struct admin *a = cc->ctl->srv->admin;
	game_err_t e = GERR_OK;
	(void)rest;
	char ok[STORE_TARGET_MAX + 16];
	snprintf(ok, sizeof ok, "OK muted %s", argv[0]);
	ctl_write(
	    cc, admin_mute_begin(a, cc->who, argv[0], argc > 1 ? argv[1] : NULL, &e), e, ok, 0);
}

static void
do_unmute(struct ctlconn *cc, int argc, char **argv, const char *rest)
{
	struct admin *a = cc->ctl->srv->admin;
	game_err_t e = GERR_OK;
	(void)argc;
	(void)rest;
	char ok[STORE_TARGET_MAX + 16];
	snprintf(ok, sizeof ok, "OK unmuted %s", argv[0]);
	ctl_write(cc, admin_unmute_begin(a, cc->who, argv[0], &e), e, ok, 0);
}

static void
ban_line(void *arg, const store_sanction_t *x)
{
	struct ctlconn *cc = arg;
	char u[48] = "for good";
	if (x->expires) {
		time_t t = (time_t)x->expires;
		struct tm tm;
		gmtime_r(&t, &tm);
		strftime(u, sizeof u, "until %Y-%m-%d %H:%M UTC", &tm);
	}
	out(cc, "= %s %s %s by %s%s%s", x->kind == STORE_BAN ? "ban" : "mute", x->target, u, x->by,
	    x->reason[0] ? ": " : "", x->reason);
}

struct counted {
	struct ctlconn *cc;
	int n;
};

static void
ban_counted(void *arg, const store_sanction_t *x)
{
	struct counted *k = arg;
	ban_line(k->cc, x);
	k->n++;
}

static void
do_bans(struct ctlconn *cc, int argc, char **argv, const char *rest)
{
	struct counted k = { cc, 0 };
	(void)argc;
	(void)argv;
	(void)rest;
	admin_each(cc->ctl->srv->admin, ban_counted, &k);
	out(cc, "OK %d in force", k.n);
}

static void
do_motd(struct ctlconn *cc, int argc, char **argv, const char *rest)
{
	struct admin *a = cc->ctl->srv->admin;
	(void)argc;
	(void)argv;
	if (!rest[0]) {
		const char *m = admin_motd(a);
		if (m)
			out(cc, "= %s", m);
		out(cc, "OK%s", m ? "" : " no motd");
		return;
	}
	game_err_t e = GERR_OK;
	int clear = strcmp(rest, "-") == 0;
	ctl_write(cc, admin_motd_begin(a, cc->who, rest, &e), e,
	    clear ? "OK motd cleared" : "OK motd set", 0);
}

static void
do_announce(struct ctlconn *cc, int argc, char **argv, const char *rest)
{
	struct admin *a = cc->ctl->srv->admin;
	int n;
	(void)argc;
	(void)argv;
	game_err_t e = admin_announce(a, cc->who, rest, &n);
	if (e)
		refused(cc, a, e);
	else
		out(cc, "OK announced to %d connection%s", n, n == 1 ? "" : "s");
}

static int
games_running(struct server *srv)
{
	int games = 0;
	for (struct room *r = rooms_first(srv->rooms); r; r = rooms_next(r))
		games += room_unfinished(r);
	return games;
}

static void
do_drain(struct ctlconn *cc, int argc, char **argv, const char *rest)
{
	struct server *srv = cc->ctl->srv;
	(void)argc;
	(void)argv;
	(void)rest;
	int games = games_running(srv);
	admin_drain(srv->admin, cc->who, 1);
	admin_drain_check(srv->admin, games);
	out(cc, "OK draining: no new games; %d in progress play on", games);
}

static void
do_undrain(struct ctlconn *cc, int argc, char **argv, const char *rest)
{
	(void)argc;
	(void)argv;
	(void)rest;
	admin_drain(cc->ctl->srv->admin, cc->who, 0);
	out(cc, "OK new games allowed again");
}

static void
do_reload(struct ctlconn *cc, int argc, char **argv, const char *rest)
{
	struct server *srv = cc->ctl->srv;
	(void)argc;
	(void)argv;
	(void)rest;
	log_info(&srv->log, "admin %s: reload", cc->who);
	if (cc->ctl->reload(srv) != 0)
		out(cc, "ERR reload failed; the old settings stay (see the log)");
	else
		out(cc, "OK reloaded configuration and certificate");
}

static void
do_log_level(struct ctlconn *cc, int argc, char **argv, const char *rest)
{
	struct server *srv = cc->ctl->srv;
	(void)argc;
	(void)rest;
	int l = log_level_parse(argv[0]);
	if (l < 0) {
		out(cc, "ERR log level must be error, warn, info or debug");
		return;
	}
	srv->log.level = l;
	log_info(&srv->log, "admin %s: log-level %s", cc->who, argv[0]);
	out(cc, "OK log level %s", argv[0]);
}

/* A backup on a worker: what it needs, and what it found. */
struct backup {
	struct control *ctl;
	uint64_t conn_id;
	char src[CONFIG_PATH_MAX + 16];
	char dst[CONFIG_PATH_MAX];
	int64_t bytes;
	char err[CONFIG_PATH_MAX * 2 + 100];
};

static void
backup_run(workq_job_t *job, void *ctx, void *arg)
{
	struct backup *b = arg;
	(void)ctx;
	b->bytes = store_backup(b->src, b->dst, workq_stop_flag(job), b->err, sizeof b->err);
}

static void
backup_done(int64_t id, int cancelled, void *arg)
{
	struct backup *b = arg;
	struct ctlconn *cc;
	(void)id;
	LIST_FOREACH (cc, &b->ctl->conns, link)
		if (cc->id == b->conn_id)
			break;
	if (cc)
		cc->job = 0;
	if (cc && !cancelled) {
		struct server *srv = b->ctl->srv;
		if (b->bytes < 0) {
			log_warn(&srv->log, "admin %s: backup to %s failed: %s", cc->who, b->dst,
			    b->err);
			out(cc, "ERR %s", b->err);
		} else {
			log_info(&srv->log, "admin %s: backup to %s: %lld bytes", cc->who, b->dst,
			    (long long)b->bytes);
			out(cc, "OK backup %s %lld bytes", b->dst, (long long)b->bytes);
		}
		bufferevent_enable(cc->bev, EV_READ);
		input(cc); /* the lines that waited */
	}
	free(b);
}

/* Whether the absolute path p names the database or a companion file. */
static int
is_store_file(const char *store, const char *p)
{
	static const char *const sfx[] = { "", "-wal", "-shm", "-journal" };
	char real[PATH_MAX], dir[PATH_MAX], rdir[PATH_MAX], asked[2 * PATH_MAX], f[PATH_MAX + 16];
	snprintf(dir, sizeof dir, "%s", p);
	char *slash = strrchr(dir, '/');
	if (!slash)
		return 0;
	*slash = '\0';
	if (!realpath(store, real) || !realpath(dir[0] ? dir : "/", rdir))
		return 0;
	snprintf(asked, sizeof asked, "%s/%s", rdir, slash + 1);
	for (size_t i = 0; i < sizeof sfx / sizeof sfx[0]; i++) {
		snprintf(f, sizeof f, "%s%s", real, sfx[i]);
		if (strcmp(f, asked) == 0)
			return 1;
	}
	return 0;
}

/* Why the backup may not be written to p (an absolute path), or NULL. The
 * copy is renamed over p, so it must never take the place of the daemon's
 * lock file (a second daemon would start beside this one), its control
 * socket, or anything else already in the state directory. */
static const char *
backup_refusal(const struct control *ctl, const char *p)
{
	char dir[PATH_MAX], rdir[PATH_MAX], rstate[PATH_MAX], asked[2 * PATH_MAX];
	char lock[PATH_MAX + 16];
	struct stat sb, own;
	snprintf(dir, sizeof dir, "%s", p);
	char *slash = strrchr(dir, '/');
	if (!slash)
		return NULL;
	*slash = '\0';
	if (!realpath(dir[0] ? dir : "/", rdir))
		return NULL; /* no such directory: the worker says so */
	snprintf(asked, sizeof asked, "%s/%s", rdir, slash + 1);
	if (lstat(asked, &sb) != 0)
		return NULL; /* a new file */
	if (ctl->made && sb.st_dev == ctl->dev && sb.st_ino == ctl->ino)
		return "is the daemon's control socket";
	snprintf(lock, sizeof lock, "%s/gomokud.lock", ctl->srv->cfg.state_dir);
	if (stat(lock, &own) == 0 && sb.st_dev == own.st_dev && sb.st_ino == own.st_ino)
		return "is the daemon's lock file";
	if (!S_ISREG(sb.st_mode))
		return "exists and is not a regular file";
	if (realpath(ctl->srv->cfg.state_dir, rstate) && strcmp(rstate, rdir) == 0)
		return "exists in the state directory";
	return NULL;
}

static void
do_backup(struct ctlconn *cc, int argc, char **argv, const char *rest)
{
	struct server *srv = cc->ctl->srv;
	const char *file = rest; /* the rest of the line: a path may hold spaces */
	(void)argc;
	(void)argv;
	if (!srv->store) {
		out(cc, "ERR no database to back up (database none)");
		return;
	}
	if (!file[0]) {
		out(cc, "ERR usage: backup FILE");
		return;
	}
	if (file[0] != '/' || strlen(file) >= CONFIG_PATH_MAX) {
		out(cc, "ERR the backup file must be an absolute path (gomokuctl makes one)");
		return;
	}
	if (is_store_file(store_path(srv->store), file)) {
		out(cc, "ERR %s is the live database; name another file", file);
		return;
	}
	const char *why = backup_refusal(cc->ctl, file);
	if (why) {
		out(cc, "ERR %s %s; name another file", file, why);
		return;
	}
	struct backup *b = calloc(1, sizeof *b);
	if (!b) {
		out(cc, "ERR out of memory");
		return;
	}
	b->ctl = cc->ctl;
	b->conn_id = cc->id;
	snprintf(b->src, sizeof b->src, "%s", store_path(srv->store));
	snprintf(b->dst, sizeof b->dst, "%s", file);
	int64_t job = workq_submit(
	    srv->work, CTL_BACKUP_OWNER | cc->id, backup_run, backup_done, NULL, b);
	if (job < 0) {
		free(b);
		out(cc, "ERR every worker is busy; try again shortly");
		return;
	}
	log_info(&srv->log, "admin %s: backup to %s started", cc->who, b->dst);
	cc->job = job;
	bufferevent_disable(cc->bev, EV_READ);
}

/* A tournament made for cc's admin: its id said once stored. */
struct ctlmade {
	struct control *ctl;
	uint64_t conn_id;
	int async;
};

static void
ctl_made(void *arg, int64_t id, const char *why)
{
	struct ctlmade *cm = arg;
	struct ctlconn *cc;
	LIST_FOREACH (cc, &cm->ctl->conns, link)
		if (cc->id == cm->conn_id)
			break;
	if (cc) {
		cc->waiting = 0;
		if (id) {
			log_info(&cm->ctl->srv->log, "admin %s: tournament %lld created", cc->who,
			    (long long)id);
			out(cc, "OK tournament %lld", (long long)id);
		} else {
			out(cc, "ERR %s", why);
		}
		if (cm->async) {
			bufferevent_enable(cc->bev, EV_READ);
			input(cc);
		}
	}
	free(cm);
}

struct listing {
	struct ctlconn *cc;
	int n;
};

static void
tourney_line(void *arg, const proto_msg_t *m)
{
	struct listing *l = arg;
	char line[PROTO_LINE_MAX];
	if (proto_format(m, line, sizeof line) > 0) {
		line[strcspn(line, "\n")] = '\0';
		out(l->cc, "%s", line);
		l->n++;
	}
}

/* tourney list | tourney create ARGS (TCREATE's, PROTOCOL.md 5.21) |
 * tourney cancel ID: the server's own events, for an admin. */
static void
do_tourney(struct ctlconn *cc, int argc, char **argv, const char *rest)
{
	struct server *srv = cc->ctl->srv;
	const char *why = "";
	if (!srv->tourneys) {
		out(cc, "ERR this server runs no tournaments (no database)");
		return;
	}
	if (argc == 1 && strcmp(argv[0], "list") == 0 && !rest[0]) {
		struct listing l = { cc, 0 };
		tourneys_each(srv->tourneys, tourney_line, &l);
		out(cc, "OK %d tournament%s", l.n, l.n == 1 ? "" : "s");
		return;
	}
	if (argc == 1 && strcmp(argv[0], "cancel") == 0) {
		char *end;
		long long id = strtoll(rest, &end, 10);
		if (!rest[0] || *end || id <= 0) {
			out(cc, "ERR usage: tourney cancel ID");
			return;
		}
		if (tourneys_cancel(srv->tourneys, id, &why) != 0) {
			out(cc, "ERR %s", why);
			return;
		}
		log_info(&srv->log, "admin %s: tournament %lld cancelled", cc->who, id);
		out(cc, "OK tournament %lld cancelled", id);
		return;
	}
	if (argc == 1 && strcmp(argv[0], "create") == 0) {
		char line[PROTO_LINE_MAX], err[120];
		proto_msg_t m;
		int n = snprintf(line, sizeof line, "TCREATE %s", rest);
		if (n < 0 || (size_t)n >= sizeof line ||
		    proto_parse(line, (size_t)n, PROTO_CLIENT, &m, err, sizeof err) != 0) {
			out(cc,
			    "ERR usage: tourney create KIND RULE SIZE TIME OPENING RATED ENTRANTS "
			    "START LENGTH [NAME] (%s)",
			    n > 0 ? err : "");
			return;
		}
		struct ctlmade *cm = calloc(1, sizeof *cm);
		if (!cm) {
			out(cc, "ERR out of memory");
			return;
		}
		int async = archive_async(srv);
		cm->ctl = cc->ctl;
		cm->conn_id = cc->id;
		cm->async = async;
		cc->waiting = 1;
		/* with SQLite, ctl_made has answered (and freed cm) before this
		 * returns: cm is not read after it */
		if (tourneys_create(srv->tourneys, &m, ctl_made, cm, &why) != 0) {
			cc->waiting = 0;
			free(cm);
			out(cc, "ERR %s", why);
			return;
		}
		if (async && cc->waiting)
			bufferevent_disable(cc->bev, EV_READ);
		return;
	}
	out(cc,
	    "ERR usage: tourney list | tourney create KIND RULE SIZE TIME OPENING RATED "
	    "ENTRANTS START LENGTH [NAME] | tourney cancel ID");
}

/* bot token|revoke|list (PROTOCOL.md 5.22): the store's part on its
 * thread (or the loop, SQLite), the answer on the loop. */
enum { BOT_TOKEN, BOT_REVOKE, BOT_LIST, BOTS_LISTED_MAX = 1000 };
struct ctlbot {
	struct control *ctl;
	uint64_t conn_id;
	int async, op;
	char name[STORE_NAME_MAX + 1];
	char token[AUTH_TOKEN_LEN + 1], digest[AUTH_DIGEST_LEN + 1];
	int64_t now;
	int rc, down;
	char err[256];
	int n; /* BOT_LIST: the bot accounts, up to BOTS_LISTED_MAX of them */
	struct {
		char name[STORE_NAME_MAX + 1];
		int64_t since;
	} bots[BOTS_LISTED_MAX];
};

static void
bot_listed(void *arg, const char *name, int64_t since)
{
	struct ctlbot *b = arg;
	if (b->n < BOTS_LISTED_MAX) {
		snprintf(b->bots[b->n].name, sizeof b->bots[0].name, "%s", name);
		b->bots[b->n].since = since;
	}
	b->n++;
}

static void
bot_run(struct store *st, void *arg)
{
	struct ctlbot *b = arg;
	b->rc = b->op == BOT_TOKEN
	    ? store_bot_token_put(st, b->digest, b->name, b->now, b->now + STORE_BOT_TOKEN_S)
	    : b->op == BOT_REVOKE               ? store_bot_revoke(st, b->name)
	    : store_bots(st, bot_listed, b) < 0 ? -1
						: 0;
	if (b->rc < 0) {
		b->down = store_unavailable(st);
		snprintf(b->err, sizeof b->err, "%s", store_error(st));
	}
}

static void
utc(int64_t when, char *out, size_t cap)
{
	struct tm tm;
	time_t t = (time_t)when;
	gmtime_r(&t, &tm);
	strftime(out, cap, "%Y-%m-%d %H:%M UTC", &tm);
}

/* The account is a person again here: its live session (one a node) is
 * ended as a kick ends it, its seats left to the grace; one away loses
 * its token. How many were ended. */
static int
bot_unmark(struct ctlconn *cc, const char *name)
{
	struct server *srv = cc->ctl->srv;
	int ended = 0, live = 0;
	/* each of its sessions (one a connection, bot-max-conns) */
	for (struct session *s = session_named_first(srv, name); s; s = session_named_next(s)) {
		if (s->kind != SESSION_ACCOUNT)
			continue;
		s->botacct = 0;
		if (s->conn) {
			live++;
		} else {
			session_revoke(s);
			ended++;
		}
	}
	if (live && admin_kick(srv->admin, cc->who, name, "bot account revoked") == GERR_OK)
		ended += live; /* every connected one is kicked */
	return ended;
}

static void
bot_answer(struct ctlconn *cc, struct ctlbot *b)
{
	struct server *srv = cc->ctl->srv;
	char when[40];
	if (b->rc < 0) {
		out(cc, "ERR %s", b->down ? "the database cannot be reached; try again" : b->err);
	} else if (b->rc == STORE_NOT_FOUND) {
		out(cc, "ERR no account %s", b->name);
	} else if (b->op == BOT_TOKEN) {
		utc(b->now + STORE_BOT_TOKEN_S, when, sizeof when);
		log_info(&srv->log, "admin %s: a bot token for %s", cc->who, b->name);
		out(cc, "= %s", b->token);
		out(cc, "OK a bot token for %s: shown once, good once (BOTUPGRADE), until %s",
		    b->name, when);
	} else if (b->op == BOT_REVOKE) {
		int ended = bot_unmark(cc, b->name);
		log_info(&srv->log, "admin %s: %s is no bot account from now", cc->who, b->name);
		out(cc, "OK %s is no bot account from now (%d session%s ended)", b->name, ended,
		    ended == 1 ? "" : "s");
	} else {
		for (int i = 0; i < b->n && i < BOTS_LISTED_MAX; i++) {
			int games = 0; /* over all its sessions */
			for (struct session *s = session_named_first(srv, b->bots[i].name); s;
			     s = session_named_next(s))
				games += session_games(s, NULL, 0);
			utc(b->bots[i].since, when, sizeof when);
			out(cc, "= %s since %s games %d", b->bots[i].name, when, games);
		}
		out(cc, "OK %d bot account%s", b->n, b->n == 1 ? "" : "s");
	}
}

static void
bot_back(void *arg, int cancelled)
{
	struct ctlbot *b = arg;
	struct ctlconn *cc;
	LIST_FOREACH (cc, &b->ctl->conns, link)
		if (cc->id == b->conn_id)
			break;
	if (cc && !cancelled) {
		cc->waiting = 0;
		bot_answer(cc, b);
		if (b->async) {
			bufferevent_enable(cc->bev, EV_READ);
			input(cc);
		}
	} else if (b->op == BOT_REVOKE && !cancelled && b->rc == 0) {
		log_info(&b->ctl->srv->log, "%s is no bot account from now", b->name);
	}
	OPENSSL_cleanse(b->token, sizeof b->token);
	free(b);
}

static void
do_bot(struct ctlconn *cc, int argc, char **argv, const char *rest)
{
	struct server *srv = cc->ctl->srv;
	(void)rest;
	int op = strcmp(argv[0], "token") == 0 ? BOT_TOKEN
	    : strcmp(argv[0], "revoke") == 0   ? BOT_REVOKE
	    : strcmp(argv[0], "list") == 0     ? BOT_LIST
					       : -1;
	if (op < 0 || (op == BOT_LIST) != (argc == 1)) {
		out(cc, "ERR usage: bot token ACCOUNT | bot revoke ACCOUNT | bot list");
		return;
	}
	if (!srv->store) {
		out(cc, "ERR this server keeps no accounts (database none)");
		return;
	}
	if (op != BOT_LIST && auth_name_check(argv[1]) != NAME_OK &&
	    auth_name_check(argv[1]) != NAME_RESERVED) {
		out(cc, "ERR %s is not an account name", argv[1]);
		return;
	}
	struct ctlbot *b = calloc(1, sizeof *b);
	if (!b) {
		out(cc, "ERR out of memory");
		return;
	}
	b->ctl = cc->ctl;
	b->conn_id = cc->id;
	b->async = archive_async(srv);
	b->op = op;
	b->now = (int64_t)time(NULL);
	if (op != BOT_LIST)
		snprintf(b->name, sizeof b->name, "%s", argv[1]);
	if (op == BOT_TOKEN && auth_token_new(b->token, b->digest) != 0) {
		free(b);
		out(cc, "ERR no random token could be made");
		return;
	}
	int async = b->async;
	cc->waiting = 1;
	/* with SQLite, bot_back has answered (and freed b) before this returns */
	if (archive_call(srv, bot_run, bot_back, b) != 0) {
		cc->waiting = 0;
		free(b);
		out(cc, "ERR the database is busy; try again in a moment");
		return;
	}
	if (async && cc->waiting)
		bufferevent_disable(cc->bev, EV_READ);
}

static const struct {
	const char *name;
	int min, max; /* words after the verb; the rest of the line is text */
	verb_fn fn;
	const char *usage;
} verbs[] = {
	{ "status", 0, 0, do_status, "status" },
	{ "nodes", 0, 0, do_nodes, "nodes" },
	{ "who", 0, 0, do_who, "who" },
	{ "rooms", 0, 0, do_rooms, "rooms" },
	{ "kick", 1, 1, do_kick, "kick USER [reason]" },
	{ "ban", 1, 2, do_ban, "ban USER|ADDRESS|CIDR [duration [reason]]" },
	{ "unban", 1, 1, do_unban, "unban USER|ADDRESS|CIDR" },
	{ "bans", 0, 0, do_bans, "bans" },
	{ "mute", 1, 2, do_mute, "mute USER [duration]" },
	{ "unmute", 1, 1, do_unmute, "unmute USER" },
	{ "motd", 0, 0, do_motd, "motd [TEXT|-]" },
	{ "announce", 0, 0, do_announce, "announce TEXT" },
	{ "drain", 0, 0, do_drain, "drain" },
	{ "undrain", 0, 0, do_undrain, "undrain" },
	{ "reload", 0, 0, do_reload, "reload" },
	{ "backup", 0, 0, do_backup, "backup FILE" },
	{ "log-level", 1, 1, do_log_level, "log-level error|warn|info|debug" },
	{ "tourney", 1, 1, do_tourney, "tourney list|create ...|cancel ID" },
	{ "bot", 1, 2, do_bot, "bot token ACCOUNT | bot revoke ACCOUNT | bot list" },
};

/* The verbs whose last words are free text, not more arguments. */
static int
takes_text(verb_fn fn)
{
	return fn == do_kick || fn == do_ban || fn == do_motd || fn == do_announce ||
	    fn == do_backup || fn == do_tourney;
}

static void
run_line(struct ctlconn *cc, char *line, size_t n)
{
	struct server *srv = cc->ctl->srv;
	if (n > 0 && line[n - 1] == '\r')
		line[--n] = '\0';
	if (n + 1 > CTL_LINE_MAX) {
		out(cc, "ERR line too long: at most %d bytes", CTL_LINE_MAX);
		cc->closing = 1;
		return;
	}
	if (memchr(line, '\0', n) || !proto_utf8_ok(line, n)) {
		out(cc, "ERR not a line of UTF-8 text without control characters");
		return;
	}
	char *p = line, *verb, *argv[CTL_ARGS_MAX];
	while (*p == ' ')
		p++;
	verb = p;
	while (*p && *p != ' ')
		p++;
	if (*p)
		*p++ = '\0';
	size_t i;
	for (i = 0; i < sizeof verbs / sizeof verbs[0]; i++)
		if (strcmp(verbs[i].name, verb) == 0)
			break;
	if (i == sizeof verbs / sizeof verbs[0]) {
		out(cc,
		    "ERR unknown command %.40s (status, who, rooms, kick, ban, unban, bans, mute, "
		    "unmute, motd, announce, drain, undrain, reload, backup, log-level, tourney, "
		    "bot)",
		    verb);
		return;
	}
	int argc = 0;
	while (argc < verbs[i].max) {
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		argv[argc++] = p;
		while (*p && *p != ' ')
			p++;
		if (*p)
			*p++ = '\0';
	}
	while (*p == ' ')
		p++;
	if (argc < verbs[i].min || (*p && !takes_text(verbs[i].fn))) {
		out(cc, "ERR usage: %s", verbs[i].usage);
		return;
	}
	log_debug(&srv->log, "control %s (uid %ld, pid %ld): %s", cc->who, cc->uid, cc->pid, verb);
	verbs[i].fn(cc, argc, argv, p);
}

/* Runs the complete lines waiting, unless a backup holds the connection. */
static void
input(struct ctlconn *cc)
{
	struct evbuffer *in = bufferevent_get_input(cc->bev);
	while (!cc->job && !cc->waiting && !cc->closing) {
		size_t n;
		char *line = evbuffer_readln(in, &n, EVBUFFER_EOL_LF);
		if (!line) {
			if (evbuffer_get_length(in) >= CTL_LINE_MAX) {
				out(cc, "ERR line too long: at most %d bytes", CTL_LINE_MAX);
				cc->closing = 1;
			}
			break;
		}
		run_line(cc, line, n);
		free(line);
	}
	if (cc->closing) {
		bufferevent_disable(cc->bev, EV_READ);
		if (evbuffer_get_length(bufferevent_get_output(cc->bev)) == 0)
			ctlconn_free(cc);
	}
}

static void
read_cb(struct bufferevent *bev, void *arg)
{
	(void)bev;
	input(arg);
}

static void
write_cb(struct bufferevent *bev, void *arg)
{
	struct ctlconn *cc = arg;
	(void)bev;
	if (cc->closing)
		ctlconn_free(cc);
}

static void
event_cb(struct bufferevent *bev, short what, void *arg)
{
	struct ctlconn *cc = arg;
	(void)bev;
	(void)what; /* EOF, error or the idle timeout: gone */
	ctlconn_free(cc);
}

/* The peer's name for the log and the store: its user name when that is a
 * plain name, else uidN. */
static void
peer_who(long uid, char *out_who, size_t cap)
{
	struct passwd pw, *res = NULL;
	char buf[1024];
	snprintf(out_who, cap, "uid%ld", uid);
	if (getpwuid_r((uid_t)uid, &pw, buf, sizeof buf, &res) != 0 || !res)
		return;
	size_t n = strlen(pw.pw_name);
	if (n == 0 || n >= cap)
		return;
	for (size_t i = 0; i < n; i++) {
		char ch = pw.pw_name[i];
		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
			(i > 0 && ((ch >= '0' && ch <= '9') || ch == '_' || ch == '-'))))
			return;
	}
	snprintf(out_who, cap, "%s", pw.pw_name);
}

static void
accept_cb(struct evconnlistener *l, evutil_socket_t fd, struct sockaddr *sa, int salen, void *arg)
{
	struct control *ctl = arg;
	struct server *srv = ctl->srv;
	struct ucred cr;
	socklen_t len = sizeof cr;
	(void)l;
	(void)salen;
	if (sa) /* the listener's own accept (not the reserve's): the episode is over */
		ctl->episode = 0;
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &len) != 0 ||
	    !control_peer_allowed((long)cr.uid, (long)geteuid())) {
		static const char no[] = "ERR permission denied: only root and the daemon's user\n";
		long uid = len == sizeof cr ? (long)cr.uid : -1;
		log_warn(&srv->log, "control: refused a connection from uid %ld", uid);
		if (send(fd, no, sizeof no - 1, MSG_NOSIGNAL | MSG_DONTWAIT) < 0)
			log_debug(&srv->log, "control: %s", strerror(errno));
		close(fd);
		return;
	}
	struct ctlconn *cc = calloc(1, sizeof *cc);
	if (!cc || !(cc->bev = bufferevent_socket_new(srv->base, fd, BEV_OPT_CLOSE_ON_FREE))) {
		free(cc);
		close(fd);
		return;
	}
	cc->ctl = ctl;
	cc->id = ++ctl->next_id;
	cc->uid = (long)cr.uid;
	cc->pid = (long)cr.pid;
	peer_who(cc->uid, cc->who, sizeof cc->who);
	LIST_INSERT_HEAD(&ctl->conns, cc, link);
	struct timeval idle = { CTL_IDLE_S, 0 };
	bufferevent_set_timeouts(cc->bev, &idle, &idle);
	bufferevent_setcb(cc->bev, read_cb, write_cb, event_cb, cc);
	bufferevent_enable(cc->bev, EV_READ | EV_WRITE);
}

static void
resume_cb(evutil_socket_t fd, short what, void *arg)
{
	struct control *ctl = arg;
	(void)fd;
	(void)what;
	reserve_take(ctl);
	evconnlistener_enable(ctl->lev);
}

/* Out of descriptors. The admin still gets in: the reserve is closed and
 * its number given to the waiting connection (taken back when a control
 * connection closes). With the reserve in use, accepting pauses a second
 * at a time. One log line per episode, never one per attempt. */
static void
accept_error_cb(struct evconnlistener *l, void *arg)
{
	struct control *ctl = arg;
	int err = EVUTIL_SOCKET_ERROR();
	if (!(err == EMFILE || err == ENFILE || err == ENOBUFS || err == ENOMEM))
		return; /* a peer gone before accept, say */
	if (!ctl->episode) {
		ctl->episode = 1;
		log_warn(&ctl->srv->log,
		    "control: accept: %s; serving the admin on the reserve "
		    "descriptor",
		    strerror(err));
	}
	if (ctl->reserve >= 0) {
		close(ctl->reserve);
		ctl->reserve = -1;
		int fd = accept4(
		    evconnlistener_get_fd(l), NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd >= 0) {
			accept_cb(l, fd, NULL, 0, ctl);
			return;
		}
		reserve_take(ctl);
		if (errno == EAGAIN || errno == EWOULDBLOCK || errno == ECONNABORTED)
			return;
	}
	evconnlistener_disable(l);
	struct timeval tv = { 1, 0 };
	evtimer_add(ctl->resume, &tv);
}

struct control *
control_new(struct server *srv, control_reload_fn *reload, char *err, size_t errlen)
{
	const char *cfg = srv->cfg.control_socket;
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	struct stat sb;
	if (strcmp(cfg, "none") == 0)
		return NULL;
	int n = cfg[0]
	    ? snprintf(sun.sun_path, sizeof sun.sun_path, "%s", cfg)
	    : snprintf(sun.sun_path, sizeof sun.sun_path, "%s/gomokud.ctl", srv->cfg.state_dir);
	if (n < 0 || (size_t)n >= sizeof sun.sun_path) {
		snprintf(err, errlen, "control socket path too long (at most %zu bytes)",
		    sizeof sun.sun_path - 1);
		return NULL;
	}
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		snprintf(err, errlen, "socket: %s", strerror(errno));
		return NULL;
	}
	/* A socket left there is a dead daemon's, unless one answers on it (a
	 * control-socket outside the state directory another daemon uses). */
	if (lstat(sun.sun_path, &sb) == 0) {
		if (!S_ISSOCK(sb.st_mode)) {
			snprintf(err, errlen, "%s exists and is not a socket", sun.sun_path);
			close(fd);
			return NULL;
		}
		int probe = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		int live = probe >= 0 && connect(probe, (struct sockaddr *)&sun, sizeof sun) == 0;
		if (probe >= 0)
			close(probe);
		if (live) {
			snprintf(err, errlen, "%s: another daemon answers on it", sun.sun_path);
			close(fd);
			return NULL;
		}
		unlink(sun.sun_path);
	}
	mode_t old = umask(0177); /* born 0600: no moment when others may connect */
	int rc = bind(fd, (struct sockaddr *)&sun, sizeof sun);
	umask(old);
	if (rc != 0 || chmod(sun.sun_path, 0600) != 0) {
		snprintf(err, errlen, "%s: %s", sun.sun_path, strerror(errno));
		close(fd);
		return NULL;
	}
	struct control *ctl = calloc(1, sizeof *ctl);
	if (!ctl) {
		close(fd);
		unlink(sun.sun_path);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	ctl->srv = srv;
	ctl->reload = reload;
	ctl->reserve = open("/dev/null", O_RDONLY | O_CLOEXEC);
	ctl->started = time(NULL);
	LIST_INIT(&ctl->conns);
	snprintf(ctl->path, sizeof ctl->path, "%s", sun.sun_path);
	/* where backups go under the unit's sandbox: an existing file of the
	 * state directory itself is never replaced (backup_refusal) */
	char bdir[CONFIG_PATH_MAX + 16];
	snprintf(bdir, sizeof bdir, "%s/backups", srv->cfg.state_dir);
	if (mkdir(bdir, 0700) != 0 && errno != EEXIST)
		log_warn(&srv->log, "%s: %s", bdir, strerror(errno));
	if (lstat(ctl->path, &sb) == 0) {
		ctl->made = 1;
		ctl->dev = sb.st_dev;
		ctl->ino = sb.st_ino;
	}
	ctl->lev = evconnlistener_new(
	    srv->base, accept_cb, ctl, LEV_OPT_CLOSE_ON_FREE | LEV_OPT_CLOSE_ON_EXEC, 16, fd);
	if (!ctl->lev || !(ctl->resume = evtimer_new(srv->base, resume_cb, ctl))) {
		snprintf(err, errlen, "%s: cannot listen", ctl->path);
		if (!ctl->lev)
			close(fd);
		control_free(ctl);
		return NULL;
	}
	evconnlistener_set_error_cb(ctl->lev, accept_error_cb);
	return ctl;
}

void
control_free(struct control *ctl)
{
	if (!ctl)
		return;
	while (!LIST_EMPTY(&ctl->conns))
		ctlconn_free(LIST_FIRST(&ctl->conns));
	if (ctl->lev)
		evconnlistener_free(ctl->lev);
	if (ctl->resume)
		event_free(ctl->resume);
	if (ctl->reserve >= 0)
		close(ctl->reserve);
	struct stat sb; /* ours still: another's may have taken the path */
	if (ctl->made && lstat(ctl->path, &sb) == 0 && sb.st_dev == ctl->dev &&
	    sb.st_ino == ctl->ino)
		unlink(ctl->path);
	free(ctl);
}
