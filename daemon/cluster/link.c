/* link.c: the cluster's Redis link (link.h). Two hiredis
 * connections on the loop through its libevent adapter, one for commands
 * and one for subscriptions, and a third for bot jobs on a node that
 * serves them; a lost one drops them all and forgets what was heard, and
 * the tick connects again after a backoff of 1 to 16 s, subscribes again
 * and republishes. Every message heard goes to its concern (presence,
 * watch, jobs, tell, or the lobby) through the parts node.c set
 * (internal.h): this file calls none of them by name. */
#include "daemon/cluster/link.h"

#include <sys/socket.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/event.h>
#include <hiredis/adapters/libevent.h>
#include <hiredis/hiredis.h>

#include "daemon/clock.h"
#include "daemon/log.h"
#include "daemon/core.h"

enum {
	TICK_MS = 1000,
	BACKOFF_MAX_S = 16,
	DROP_LOG_MS = 10000, /* a dropped message logged at most this often */
};

void
link_room_chan(char out[CHAN_MAX], const char *room)
{
	snprintf(out, CHAN_MAX, "gomoku:room:%s", room);
}

int
cluster_up(const struct cluster *cl)
{
	return cl->cmd_up && cl->sub_up;
}

/* One of the connections is gone: let go of the others, try again later. */
static void
down(struct cluster *cl, const char *why)
{
	if (cl->cmd_up && cl->sub_up)
		log_warn(&cl->srv->log, "cluster: Redis %s:%d lost: %s", cl->ip, cl->port, why);
	else if (!cl->said_down)
		log_warn(&cl->srv->log, "cluster: cannot reach Redis %s:%d (%s); trying again",
		    cl->ip, cl->port, why);
	cl->said_down = 1; /* until it is up again */
	cl->cmd_up = cl->sub_up = cl->jobs_up = 0;
	/* what was heard through Redis is stale now; jobs and watches wait */
	cl->parts.down(cl);
	redisAsyncContext *a = cl->cmd, *b = cl->sub, *j = cl->jobs;
	cl->cmd = cl->sub = cl->jobs = NULL;
	if (a)
		redisAsyncDisconnect(a);
	if (b)
		redisAsyncDisconnect(b);
	if (j)
		redisAsyncDisconnect(j);
	cl->retry_at = clock_now_ms() + (int64_t)cl->backoff_s * 1000;
	cl->backoff_s = cl->backoff_s * 2 > BACKOFF_MAX_S ? BACKOFF_MAX_S : cl->backoff_s * 2;
}

static void
on_connect(const redisAsyncContext *ac, int status)
{
	struct cluster *cl = ac->data;
	if (ac != cl->cmd && ac != cl->sub && ac != cl->jobs)
		return;
	if (status != REDIS_OK) {
		/* hiredis frees ac after this callback */
		if (ac == cl->cmd)
			cl->cmd = NULL;
		else if (ac == cl->sub)
			cl->sub = NULL;
		else
			cl->jobs = NULL;
		down(cl, ac->errstr[0] ? ac->errstr : "cannot connect");
		return;
	}
	if (ac == cl->cmd)
		cl->cmd_up = 1;
	else if (ac == cl->sub) {
		cl->sub_up = 1;
		cl->sub_since = clock_now_ms();
	} else
		cl->jobs_up = 1;
	if (ac == cl->cmd)
		cl->parts.cmd_up(cl);
	if (ac == cl->jobs)
		cl->parts.jobs_up(cl);
	if (cluster_up(cl)) {
		cl->backoff_s = 1;
		cl->said_down = 0;
		log_info(
		    &cl->srv->log, "cluster: node %s on Redis %s:%d", cl->node, cl->ip, cl->port);
	}
}

static void
on_disconnect(const redisAsyncContext *ac, int status)
{
	struct cluster *cl = ac->data;
	(void)status;
	if (ac == cl->cmd)
		cl->cmd = NULL;
	else if (ac == cl->sub)
		cl->sub = NULL;
	else if (ac == cl->jobs)
		cl->jobs = NULL;
	else
		return; /* one we let go of */
	down(cl, ac->errstr[0] ? ac->errstr : "disconnected");
}

static redisAsyncContext *
open_one(struct cluster *cl)
{
	redisAsyncContext *ac = redisAsyncConnect(cl->ip, cl->port);
	if (!ac)
		return NULL;
	if (ac->err) {
		log_warn(&cl->srv->log, "cluster: Redis %s:%d: %s", cl->ip, cl->port, ac->errstr);
		redisAsyncFree(ac);
		return NULL;
	}
	ac->data = cl;
	if (redisLibeventAttach(ac, cl->srv->base) != REDIS_OK) {
		redisAsyncFree(ac);
		return NULL;
	}
	redisAsyncSetConnectCallback(ac, on_connect);
	redisAsyncSetDisconnectCallback(ac, on_disconnect);
	return ac;
}

void
link_ignore(redisAsyncContext *ac, void *reply, void *priv)
{
	(void)ac;
	(void)reply;
	(void)priv;
}

void
link_publish(struct cluster *cl, const char *chan, const char *buf, size_t n, redisCallbackFn *fn,
    void *priv)
{
	if (!cl->cmd_up ||
	    redisAsyncCommand(
		cl->cmd, fn ? fn : link_ignore, priv, "PUBLISH %s %b", chan, buf, n) != REDIS_OK) {
		if (fn)
			fn(NULL, NULL, priv);
	}
}

void
link_to_node(struct cluster *cl, const char *node, const char *buf, size_t n, redisCallbackFn *fn,
    void *priv)
{
	char chan[CHAN_MAX];
	snprintf(chan, sizeof chan, "gomoku:node:%s", node);
	link_publish(cl, chan, buf, n, fn, priv);
}

static void on_message(redisAsyncContext *ac, void *reply, void *priv);

void
link_subscribe(struct cluster *cl, const char *chan)
{
	if (cl->sub)
		redisAsyncCommand(cl->sub, on_message, cl, "SUBSCRIBE %s", chan);
}

void
link_unsubscribe(struct cluster *cl, const char *chan)
{
	if (cl->sub && cl->sub_up)
		redisAsyncCommand(cl->sub, on_message, cl, "UNSUBSCRIBE %s", chan);
}

/* (Re)connects them all and subscribes to what this node listens to. */
static void
start(struct cluster *cl)
{
	if (!(cl->cmd = open_one(cl)) || !(cl->sub = open_one(cl)) ||
	    (cl->serve && !(cl->jobs = open_one(cl)))) {
		down(cl, "cannot connect");
		return;
	}
	link_subscribe(cl, CHAN_PRESENCE);
	link_subscribe(cl, CHAN_TOURNEYS);
	link_subscribe(cl, cl->chan_node);
	cl->parts.resubscribe(cl);
}

/* A message dropped: logged with why, then counted for DROP_LOG_MS and
 * the count logged by the tick, so that a node of another version (its
 * presence every second) or a stranger on Redis cannot fill the log at
 * the rate it publishes. */
static void
dropped(struct cluster *cl, const char *chan, const char *why)
{
	int64_t now = clock_now_ms();
	if (cl->drop_said_at && now - cl->drop_said_at < DROP_LOG_MS) {
		cl->drops_unsaid++;
		return;
	}
	cl->drop_said_at = now;
	log_warn(&cl->srv->log,
	    "cluster: a message on %s dropped: %s (a node of another version? a cluster's "
	    "nodes run one)",
	    chan, why);
}

/* One message from a subscription (or its confirmation), to its concern. */
static void
on_message(redisAsyncContext *ac, void *reply, void *priv)
{
	struct cluster *cl = priv;
	redisReply *r = reply;
	if (ac != cl->sub || !r || r->type != REDIS_REPLY_ARRAY || r->elements != 3 ||
	    r->element[0]->type != REDIS_REPLY_STRING || r->element[1]->type != REDIS_REPLY_STRING)
		return;
	const char *kind = r->element[0]->str, *chan = r->element[1]->str;
	if (strcmp(kind, "subscribe") == 0) {
		if (strncmp(chan, "gomoku:room:", 12) == 0)
			cl->parts.subscribed(cl, chan + 12);
		return;
	}
	if (strcmp(kind, "message") != 0 || r->element[2]->type != REDIS_REPLY_STRING)
		return;
	struct cmsg m;
	const char *why;
	if (cmsg_parse(r->element[2]->str, r->element[2]->len, &m, &why) != 0) {
		dropped(cl, chan, why);
		return;
	}
	int on_room = strncmp(chan, "gomoku:room:", 12) == 0;
	if (on_room && strcmp(chan + 12, m.room) != 0) {
		dropped(cl, chan, "another room's");
		return;
	}
	int mine = strcmp(chan, cl->chan_node) == 0;
	switch (m.kind) {
	case CMSG_PRESENCE:
		if (strcmp(chan, CHAN_PRESENCE) == 0)
			cl->parts.presence(cl, &m);
		break;
	case CMSG_TELL:
		if (mine)
			cl->parts.tell(cl, &m);
		break;
	case CMSG_WATCH:
	case CMSG_WATCHERS:
		if (mine)
			cl->parts.watch(cl, &m);
		break;
	case CMSG_SNAPSHOT:
	case CMSG_EVENT:
		if (on_room)
			cl->parts.watch(cl, &m);
		break;
	case CMSG_RESULT:
		if (mine)
			cl->parts.result(cl, &m);
		break;
	case CMSG_LOBBY:
		if (mine && strcmp(m.node, cl->node) != 0)
			cl->parts.lobby(cl, &m);
		break;
	case CMSG_TOURNEY:
		if (strcmp(chan, CHAN_TOURNEYS) == 0)
			cl->parts.tourney(cl, &m);
		break;
	case CMSG_ENGINE_MOVE:
	case CMSG_ENGINE_WAKE:
	case CMSG_ENGINE_END:
		if (mine)
			cl->parts.engine(cl, &m);
		break;
	case CMSG_JOB: /* jobs come on the stream only */
	case CMSG_ENGINE_JOB:
		dropped(cl, chan, "a bot job (they come on a stream)");
		break;
	}
}

/* What cluster_command's reply goes to. */
struct command {
	cluster_reply_fn *fn;
	void *priv;
};

static void
on_command(redisAsyncContext *ac, void *reply, void *priv)
{
	struct command *k = priv;
	(void)ac;
	k->fn(reply, k->priv);
	free(k);
}

int
cluster_command(struct cluster *cl, cluster_reply_fn *fn, void *priv, int argc, const char **argv,
    const size_t *argvlen)
{
	struct command *k;
	if (!cluster_up(cl) || !(k = malloc(sizeof *k)))
		return -1;
	k->fn = fn;
	k->priv = priv;
	if (redisAsyncCommandArgv(cl->cmd, on_command, k, argc, argv, argvlen) != REDIS_OK) {
		free(k);
		return -1;
	}
	return 0;
}

struct server *
cluster_server(const struct cluster *cl)
{
	return cl->srv;
}

const char *
cluster_node(const struct cluster *cl)
{
	return cl->node;
}

void
cluster_adopted(struct cluster *cl, struct room *r)
{
	cl->parts.adopted(cl, r);
}

int
cluster_send_lobby(struct cluster *cl, const char *node, const char *text)
{
	char buf[PROTO_LINE_MAX + 256];
	int n = cmsg_format_lobby(buf, sizeof buf, cl->node, text);
	if (!cluster_up(cl) || n < 0)
		return -1;
	link_to_node(cl, node, buf, (size_t)n, NULL, NULL);
	return 0;
}

/* The second's work, every concern's in turn. */
static void
tick_cb(evutil_socket_t fd, short what, void *arg)
{
	struct cluster *cl = arg;
	int64_t now = clock_now_ms();
	(void)fd;
	(void)what;
	if (!cl->cmd && !cl->sub && now >= cl->retry_at)
		start(cl);
	if (cl->drops_unsaid && now - cl->drop_said_at >= DROP_LOG_MS) {
		log_warn(&cl->srv->log, "cluster: %u more messages dropped in %d s",
		    cl->drops_unsaid, (int)((now - cl->drop_said_at) / 1000));
		cl->drops_unsaid = 0;
		cl->drop_said_at = now;
	}
	cl->parts.tick(cl, now);
}

int
link_start(struct cluster *cl)
{
	struct timeval every = { TICK_MS / 1000, TICK_MS % 1000 * 1000 };
	if (!(cl->tick = event_new(cl->srv->base, -1, EV_PERSIST, tick_cb, cl)) ||
	    event_add(cl->tick, &every) != 0) {
		if (cl->tick)
			event_free(cl->tick);
		cl->tick = NULL;
		return -1;
	}
	cl->backoff_s = 1;
	start(cl);
	return 0;
}

void
link_stop(struct cluster *cl)
{
	cl->stopped = 1;
	if (cl->tick)
		event_free(cl->tick);
	cl->tick = NULL;
	/* pending replies are called back with NULL; they need cl alive */
	redisAsyncContext *a = cl->cmd, *b = cl->sub, *j = cl->jobs;
	cl->cmd = cl->sub = cl->jobs = NULL;
	cl->cmd_up = cl->sub_up = cl->jobs_up = 0;
	if (a)
		redisAsyncFree(a);
	if (b)
		redisAsyncFree(b);
	if (j)
		redisAsyncFree(j);
}
