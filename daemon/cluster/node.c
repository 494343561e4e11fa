/* node.c: a cluster node put together (cluster_new, cluster_stop,
 * cluster_release: cluster.h). It makes each concern's state, sets the
 * parts (internal.h) through which the lower files hand up what they hear,
 * and starts the link. Only this file and attach.c name every concern;
 * the others call only files below them. */
#include <sys/socket.h>

#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/event.h>

#include "daemon/cluster/clusterlobby.h"
#include "daemon/cluster/engines.h"
#include "daemon/cluster/internal.h"
#include "daemon/cluster/jobs.h"
#include "daemon/cluster/lease.h"
#include "daemon/cluster/link.h"
#include "daemon/cluster/presence.h"
#include "daemon/cluster/tell.h"
#include "daemon/cluster/tlease.h"
#include "daemon/cluster/watch.h"
#include "daemon/core.h"

static void
down(struct cluster *cl)
{
	jobs_down(cl);
	engines_down(cl);
	watch_down(cl);
	presence_forget(cl);
}

static void
jobs_up(struct cluster *cl)
{
	jobs_read(cl);
}

static void
lobby(struct cluster *cl, const struct cmsg *m)
{
	clobby_got(cl->lobby, m->node, m->body, m->bodylen);
}

static void
tourney(struct cluster *cl, const struct cmsg *m)
{
	tlease_got(cl->tlease, m);
}

static void
tick(struct cluster *cl, int64_t now)
{
	presence_tick(cl, now);
	watch_tick(cl, now);
	clobby_tick(cl->lobby, now);
	jobs_tick(cl);
	engines_tick(cl, now);
	tlease_tick(cl->tlease, now);
}

static void
seek_lines(struct cluster *cl, void (*fn)(void *arg, const proto_msg_t *m), void *arg)
{
	clobby_presence(cl->lobby, fn, arg);
}

static const struct cluster_parts parts = {
	.down = down,
	.resubscribe = watch_resubscribe,
	.subscribed = watch_subscribed,
	.jobs_up = jobs_up,
	.cmd_up = jobs_group,
	.presence = presence_got,
	.tell = tell_got,
	.watch = watch_got,
	.result = jobs_result,
	.lobby = lobby,
	.tourney = tourney,
	.engine = engines_got,
	.tick = tick,
	.watched = cluster_watched,
	.seek_lines = seek_lines,
	.adopted = cluster_relay,
};

struct cluster *
cluster_new(struct server *srv, char *err, size_t errlen)
{
	const struct config *cfg = &srv->cfg;
	struct addrinfo hints = { 0 }, *res = NULL;
	err[0] = '\0';
	if (!cfg->cluster_host[0])
		return NULL;
	struct cluster *cl = calloc(1, sizeof *cl);
	if (!cl) {
		snprintf(err, errlen, "cluster: out of memory");
		return NULL;
	}
	cl->srv = srv;
	cl->parts = parts;
	/* resolved once, here, so the loop never waits for a name */
	hints.ai_socktype = SOCK_STREAM;
	int rc = getaddrinfo(cfg->cluster_host, NULL, &hints, &res);
	if (rc != 0 || !res ||
	    getnameinfo(res->ai_addr, res->ai_addrlen, cl->ip, sizeof cl->ip, NULL, 0,
		NI_NUMERICHOST) != 0) {
		snprintf(err, errlen, "cluster: cannot resolve %s: %s", cfg->cluster_host,
		    rc ? gai_strerror(rc) : "no address");
		if (res)
			freeaddrinfo(res);
		free(cl);
		return NULL;
	}
	freeaddrinfo(res);
	cl->port = cfg->cluster_port;
	snprintf(cl->node, sizeof cl->node, "%s", cfg->node_name);
	snprintf(cl->addr, sizeof cl->addr, "%s", cfg->advertise);
	snprintf(cl->chan_node, sizeof cl->chan_node, "gomoku:node:%s", cl->node);
	LIST_INIT(&cl->rrooms);
	LIST_INIT(&cl->relays);
	jobs_init(cl);
	if (engines_init(cl) != 0 || !(cl->lobby = clobby_new(srv, cl))) {
		snprintf(err, errlen, "cluster: out of memory");
		engines_stop(cl);
		jobs_stop(cl);
		free(cl);
		return NULL;
	}
	cl->lease = lease_new(srv, cl);
	cl->tlease = tlease_new(srv, cl);
	if (link_start(cl) != 0) {
		snprintf(err, errlen, "cluster: cannot start its timer");
		clobby_free(cl->lobby);
		lease_free(cl->lease);
		tlease_free(cl->tlease);
		engines_stop(cl);
		jobs_stop(cl);
		free(cl);
		return NULL;
	}
	return cl;
}

void
cluster_stop(struct cluster *cl)
{
	clobby_free(cl->lobby);
	cl->lobby = NULL;
	engines_stop(cl);
	jobs_stop(cl);
	watch_stop(cl);
	link_stop(cl);
	presence_forget(cl);
}

void
cluster_release(struct cluster *cl)
{
	lease_free(cl->lease);
	tlease_free(cl->tlease);
	free(cl);
}

struct clobby *
cluster_lobby(const struct cluster *cl)
{
	return cl->lobby;
}

struct tlease *
cluster_tlease(const struct cluster *cl)
{
	return cl->tlease;
}
