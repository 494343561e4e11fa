/* config.c: defaults, the config file and validation. */
#include "daemon/config.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "daemon/hosted.h"
#include "daemon/log.h"
#include "daemon/roomid.h"
#include "proto/proto.h"
#include "rules/rules.h"

void
config_defaults(struct config *c)
{
	memset(c, 0, sizeof *c);
	snprintf(c->listen[0], sizeof c->listen[0], "127.0.0.1:5555");
	snprintf(c->listen[1], sizeof c->listen[1], "[::1]:5555");
	c->nlisten = 2;
	snprintf(c->state_dir, sizeof c->state_dir, "state");
	c->log_level = LOGL_INFO;
	c->grace_s = 60;
	c->idle_s = 300;
	c->handshake_s = 10;
	c->max_conns = 20000;
	c->max_per_addr = 64;
	c->ipv6_prefix = 64;
	c->outq_kib = 256;
	c->rate_burst = 20;
	c->rate_per_s = 10;
	c->chat_burst = 5;
	c->chat_window_s = 10;
	c->drain_ms = 2000;
	c->bot_threads = 0;
	c->bot_serve = 1;
	c->bot_queue = 64;
	c->bot_think_ms = 1000;
	c->bot_hash_mb = 16;
	c->bot_preview_ms = 250;
	c->max_seeks_per_addr = 16;
	c->bot_fallback_s = 20;
	c->bot_fallback_level = 5;
	c->bot_alone_s = 600;
	c->analysis_ms = 1000;
	c->analysis_per_hour = 120;
	c->review_ms = 250;
	c->review_per_hour = 10;
	c->tourney_first_move = 60;
	c->tourney_players = 256;
	c->tourney_per_account = 2;
	c->review_queue = 8;
	c->away_keep_s = 600;
	c->max_away_per_addr = 16;
	c->rate_bots = 0;
	c->bot_max_games = 8;
	c->bot_max_conns = 4;
	c->engine_games = 8;
	c->remember_s = (int64_t)CONFIG_REMEMBER_DAYS * 86400;
}

static const struct {
	const char *key;
	size_t off;
	int lo, hi;
} ints[] = {
	{ "grace", offsetof(struct config, grace_s), 1, 86400 },
	{ "idle-timeout", offsetof(struct config, idle_s), 1, 86400 },
	{ "handshake-timeout", offsetof(struct config, handshake_s), 1, 600 },
	{ "max-connections", offsetof(struct config, max_conns), 1, 1000000 },
	{ "max-per-address", offsetof(struct config, max_per_addr), 1, 1000000 },
	{ "max-seeks-per-address", offsetof(struct config, max_seeks_per_addr), 1, 1000000 },
	{ "ipv6-prefix", offsetof(struct config, ipv6_prefix), 32, 128 },
	{ "output-queue-kib", offsetof(struct config, outq_kib), 16, 896 },
	{ "rate-burst", offsetof(struct config, rate_burst), 1, 100000 },
	{ "rate-per-second", offsetof(struct config, rate_per_s), 1, 100000 },
	{ "chat-burst", offsetof(struct config, chat_burst), 1, 1000 },
	{ "chat-window", offsetof(struct config, chat_window_s), 1, 3600 },
	{ "drain-ms", offsetof(struct config, drain_ms), 0, 60000 },
	{ "bot-threads", offsetof(struct config, bot_threads), 0, 256 },
	{ "bot-queue", offsetof(struct config, bot_queue), 0, 100000 },
	{ "bot-think-ms", offsetof(struct config, bot_think_ms), 10, 600000 },
	{ "bot-hash-mb", offsetof(struct config, bot_hash_mb), 1, 4096 },
	{ "bot-preview-ms", offsetof(struct config, bot_preview_ms), 0, 60000 },
	{ "bot-fallback", offsetof(struct config, bot_fallback_s), 1, 3600 },
	{ "bot-fallback-level", offsetof(struct config, bot_fallback_level), 1, 10 },
	{ "bot-alone", offsetof(struct config, bot_alone_s), 1, 86400 },
	{ "analysis-ms", offsetof(struct config, analysis_ms), 10, 60000 },
	{ "analysis-per-hour", offsetof(struct config, analysis_per_hour), 0, 1000000 },
	{ "review-ms", offsetof(struct config, review_ms), 10, 60000 },
	{ "review-per-hour", offsetof(struct config, review_per_hour), 0, 1000000 },
	{ "review-queue", offsetof(struct config, review_queue), 1, 1000 },
	{ "tourney-first-move", offsetof(struct config, tourney_first_move), 5, 3600 },
	{ "tourney-players", offsetof(struct config, tourney_players), 2, 2048 },
	{ "tourney-per-account", offsetof(struct config, tourney_per_account), 0, 100 },
	{ "away-keep", offsetof(struct config, away_keep_s), 1, 86400 },
	{ "max-away-per-address", offsetof(struct config, max_away_per_addr), 0, 1000000 },
	{ "rate-bots", offsetof(struct config, rate_bots), 0, 1 },
	{ "bot-max-games", offsetof(struct config, bot_max_games), 1, CONFIG_BOT_GAMES_MAX },
	{ "bot-max-conns", offsetof(struct config, bot_max_conns), 1, CONFIG_BOT_CONNS_MAX },
	{ "bot-seeks", offsetof(struct config, bot_seeks), 0, 1 },
	{ "engine-games", offsetof(struct config, engine_games), 1, 256 },
	{ "bot-serve", offsetof(struct config, bot_serve), 0, 1 },
};

static int
set_path(char *dst, const char *val, char *err, size_t errlen)
{
	if (strlen(val) >= CONFIG_PATH_MAX) {
		snprintf(err, errlen, "path too long");
		return -1;
	}
	strcpy(dst, val);
	return 0;
}

/* "alice,bob": account names (a letter, then letters, digits, _ or -). */
static int
set_admins(struct config *c, const char *val, char *err, size_t errlen)
{
	size_t n = strlen(val), len = 0;
	if (n >= sizeof c->admins) {
		snprintf(err, errlen, "admins: list too long");
		return -1;
	}
	for (size_t i = 0; i <= n; i++) {
		unsigned char ch = (unsigned char)val[i];
		if (ch == ',' || ch == '\0') {
			if (len == 0 && n > 0) {
				snprintf(err, errlen, "admins: an empty name in %s", val);
				return -1;
			}
			len = 0;
		} else if ((len == 0 && !isalpha(ch)) || !(isalnum(ch) || ch == '_' || ch == '-') ||
		    ++len > 20) {
			snprintf(err, errlen, "admins: not a list of account names: %s", val);
			return -1;
		}
	}
	strcpy(c->admins, val);
	return 0;
}

/* "10.0.0.5,10.0.1.0/24,2001:db8::7": added to the fronts (each line adds). */
static int
set_fronts(struct config *c, const char *val, char *err, size_t errlen)
{
	char item[INET6_ADDRSTRLEN + 8];
	for (const char *p = val;;) {
		size_t len = strcspn(p, ",");
		if (len == 0 || len >= sizeof item) {
			snprintf(err, errlen, "proxy-from: not a list of addresses or networks: %s",
			    val);
			return -1;
		}
		memcpy(item, p, len);
		item[len] = '\0';
		if (c->nproxy_from >= CONFIG_MAX_FRONTS) {
			snprintf(err, errlen, "proxy-from: more than %d fronts", CONFIG_MAX_FRONTS);
			return -1;
		}
		if (cidr_parse(item, &c->proxy_from[c->nproxy_from]) != 0) {
			snprintf(err, errlen, "proxy-from: not an address or network: %s", item);
			return -1;
		}
		c->nproxy_from++;
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

/* "redis://host:port" ([v6] in brackets): the cluster's Redis. */
static int
set_cluster(struct config *c, const char *val, char *err, size_t errlen)
{
	const char *p = val + strlen("redis://"), *colon;
	if (!val[0]) {
		c->cluster_host[0] = '\0';
		c->cluster_port = 0;
		return 0;
	}
	if (strncmp(val, "redis://", strlen("redis://")) != 0 || !(colon = strrchr(p, ':')) ||
	    colon == p || (size_t)(colon - p) >= sizeof c->cluster_host)
		goto bad;
	char *end;
	errno = 0;
	long port = strtol(colon + 1, &end, 10);
	if (errno || *end || end == colon + 1 || port < 1 || port > 65535)
		goto bad;
	size_t n = (size_t)(colon - p);
	if (p[0] == '[') { /* [::1]:6379 */
		if (n < 3 || p[n - 1] != ']')
			goto bad;
		p++;
		n -= 2;
	}
	if (strcspn(p, "/@?#[] ") < n)
		goto bad;
	memcpy(c->cluster_host, p, n);
	c->cluster_host[n] = '\0';
	c->cluster_port = (int)port;
	return 0;
bad:
	snprintf(err, errlen, "cluster must be redis://host:port: %s", val);
	return -1;
}

/* "30", or a fraction ("0.5": 12 hours): a login token's life, kept in
 * whole seconds, at least one. */
static int
set_remember(struct config *c, const char *val, char *err, size_t errlen)
{
	char *end;
	errno = 0;
	double days = strtod(val, &end);
	if (errno || *end || end == val || !(days > 0) || days > CONFIG_REMEMBER_DAYS_MAX) {
		snprintf(err, errlen, "remember-days must be a number of days over 0, at most %d",
		    CONFIG_REMEMBER_DAYS_MAX);
		return -1;
	}
	int64_t s = (int64_t)(days * 86400);
	c->remember_s = s > 0 ? s : 1;
	return 0;
}

int
config_check(const struct config *c, char *err, size_t errlen)
{
	if (c->cluster_host[0] && (!c->node_name[0] || !c->advertise[0])) {
		snprintf(err, errlen, "cluster needs node-name and advertise");
		return -1;
	}
	if (c->bot_threads == CONFIG_BOTS_REMOTE && !c->cluster_host[0]) {
		snprintf(err, errlen, "bot-threads none needs a cluster (its nodes search)");
		return -1;
	}
	for (int i = 0; i < c->nleagues; i++) {
		struct league_conf l;
		char e[200];
		if (config_league(c->leagues[i], c, &l, e, sizeof e) != 0) {
			snprintf(err, errlen, "league %s: %s", c->leagues[i], e);
			return -1;
		}
		for (int j = 0; j < i; j++) {
			struct league_conf o;
			if (config_league(c->leagues[j], c, &o, e, sizeof e) == 0 &&
			    !strcmp(o.name, l.name)) {
				snprintf(err, errlen, "league %s named twice", l.name);
				return -1;
			}
		}
	}
	return 0;
}

/* Whether c has an engine line named name. */
static int
has_engine(const struct config *c, const char *name)
{
	for (int i = 0; i < c->nengines; i++) {
		size_t n = strlen(name);
		if (!strncmp(c->engines[i], name, n) &&
		    (c->engines[i][n] == ' ' || c->engines[i][n] == '\t'))
			return 1;
	}
	return 0;
}

static int
add_member(struct league_conf *l, const struct config *c, const char *m, char *err, size_t errlen)
{
	int level;
	char tail;
	if (sscanf(m, "level%d%c", &level, &tail) == 1) {
		if (level < 1 || level > 10) {
			snprintf(err, errlen, "levels are level1 to level10: %s", m);
			return -1;
		}
	} else if (!has_engine(c, m)) {
		snprintf(err, errlen, "%s is no level (levelN) nor an engine line's name", m);
		return -1;
	}
	for (int i = 0; i < l->nmembers; i++)
		if (!strcmp(l->members[i], m)) {
			snprintf(err, errlen, "%s named twice", m);
			return -1;
		}
	if (l->nmembers >= CONFIG_LEAGUE_MEMBERS || strlen(m) >= sizeof l->members[0]) {
		snprintf(err, errlen, "at most %d members", CONFIG_LEAGUE_MEMBERS);
		return -1;
	}
	snprintf(l->members[l->nmembers++], sizeof l->members[0], "%s", m);
	return 0;
}

int
config_league(
    const char *line, const struct config *c, struct league_conf *l, char *err, size_t errlen)
{
	char copy[sizeof c->leagues[0]], *save = NULL, *tok;
	int n = 0, named = 0;
	memset(l, 0, sizeof *l);
	l->cycles = 1;
	l->every_s = 24 * 3600;
	l->first_s = 60;
	snprintf(copy, sizeof copy, "%s", line);
	for (tok = strtok_r(copy, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save), n++) {
		char *eq = n >= 4 ? strchr(tok, '=') : NULL, *end;
		if (n == 0) {
			size_t k = strlen(tok);
			int ok = k >= 1 && k <= CONFIG_LEAGUE_NAME_MAX &&
			    isalpha((unsigned char)tok[0]);
			for (size_t i = 0; ok && i < k; i++)
				ok = isalnum((unsigned char)tok[i]) || tok[i] == '_' ||
				    tok[i] == '-';
			if (!ok) {
				snprintf(err, errlen,
				    "a name of letters, digits, _ and -, a letter first, at most "
				    "%d",
				    CONFIG_LEAGUE_NAME_MAX);
				return -1;
			}
			snprintf(l->name, sizeof l->name, "%s", tok);
		} else if (n == 1) {
			rule_t r;
			if (rule_parse(tok, &r) != 0) {
				snprintf(err, errlen, "no rule: %s", tok);
				return -1;
			}
			l->rule = (int)r;
		} else if (n == 2) {
			long v = strtol(tok, &end, 10);
			if (*end || v < RULES_MIN_SIZE || v > RULES_MAX_SIZE) {
				snprintf(err, errlen, "no board size: %s", tok);
				return -1;
			}
			l->size = (int)v;
		} else if (n == 3) {
			if (proto_tc_parse(tok, &l->tc_base, &l->tc_inc) != 0 || l->tc_base <= 0) {
				snprintf(
				    err, errlen, "a time control with a clock (300+5): %s", tok);
				return -1;
			}
		} else if (eq && !strncmp(tok, "members=", 8)) {
			named = 1;
			char *save2 = NULL;
			for (char *m = strtok_r(eq + 1, ",", &save2); m;
			     m = strtok_r(NULL, ",", &save2))
				if (add_member(l, c, m, err, errlen) != 0)
					return -1;
		} else if (eq && !strncmp(tok, "cycles=", 7)) {
			long v = strtol(eq + 1, &end, 10);
			if (*end || (v != 1 && v != 2)) {
				snprintf(err, errlen, "cycles=1 or cycles=2: %s", tok);
				return -1;
			}
			l->cycles = (int)v;
		} else if (eq && !strncmp(tok, "every=", 6)) {
			double h = strtod(eq + 1, &end);
			if (*end || eq[1] == '\0' || !(h > 0) || h > 24 * 366) {
				snprintf(err, errlen,
				    "every=HOURS (above 0, a fraction allowed): %s", tok);
				return -1;
			}
			l->every_s = (int64_t)(h * 3600 + 0.5);
			if (l->every_s < 1)
				l->every_s = 1;
		} else if (eq && !strncmp(tok, "first=", 6)) {
			long v = strtol(eq + 1, &end, 10);
			if (*end || eq[1] == '\0' || v < 0 || v > 7 * 24 * 3600) {
				snprintf(err, errlen, "first=SECONDS (0 to a week): %s", tok);
				return -1;
			}
			l->first_s = (int)v;
		} else {
			snprintf(err, errlen, "not a league's word: %s", tok);
			return -1;
		}
	}
	if (n < 4) {
		snprintf(
		    err, errlen, "NAME RULE SIZE TIME [members=...] [cycles=] [every=] [first=]");
		return -1;
	}
	for (int i = 0; !named && i < c->nengines; i++) {
		char name[HOSTED_NAME_MAX + 1];
		if (sscanf(c->engines[i], "%16s", name) == 1 &&
		    add_member(l, c, name, err, errlen) != 0)
			return -1;
	}
	return 0;
}

int
config_is_admin(const struct config *c, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = c->admins; *p;) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		if (len == n && strncasecmp(p, name, n) == 0)
			return 1;
		p += len + (end ? 1 : 0);
	}
	return 0;
}

/* A hosted engine's name: [a-z][a-z0-9]*, at most HOSTED_NAME_MAX. */
static int
engine_name_ok(const char *s)
{
	size_t n = strlen(s);
	if (n < 1 || n > HOSTED_NAME_MAX || s[0] < 'a' || s[0] > 'z')
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9')))
			return 0;
	return 1;
}

int
config_engine(char *line, struct hosted_engine *e, char *err, size_t errlen)
{
	char *save = NULL, *tok;
	int n = 0, k = 0;
	memset(e, 0, sizeof *e);
	e->sandbox = 1;
	e->mem_bytes = 256L * 1024 * 1024; /* said as max_memory: brains take all of it */
	for (tok = strtok_r(line, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save), n++) {
		char *eq = n >= 2 ? strchr(tok, '=') : NULL;
		if (n == 0) {
			if (!engine_name_ok(tok)) {
				snprintf(err, errlen,
				    "engine: a name of a-z and 0-9, a letter first, "
				    "at most %d: %s",
				    HOSTED_NAME_MAX, tok);
				return -1;
			}
			snprintf(e->name, sizeof e->name, "%s", tok);
			continue;
		}
		if (!eq) {
			if (k >= HOSTED_ARGS_MAX) {
				snprintf(err, errlen, "engine %s: too many arguments", e->name);
				return -1;
			}
			e->argv[k++] = tok;
			continue;
		}
		*eq = '\0';
		const char *v = eq + 1;
		char *end;
		long x = strtol(v, &end, 10);
		int num = *v && !*end && x >= 0;
		if (!strcmp(tok, "threads") && num && x <= 256)
			e->threads = (int)x;
		else if (!strcmp(tok, "memory") && num && x <= 1L << 20)
			e->mem_bytes = x * 1024 * 1024;
		else if (!strcmp(tok, "cpu") && num && x <= 1L << 24)
			e->cpu_seconds = x;
		else if (!strcmp(tok, "turn-ms") && num && x >= 50 && x <= 600000)
			e->turn_ms = (int)x;
		else if (!strcmp(tok, "swap2") && (!strcmp(v, "yes") || !strcmp(v, "no")))
			e->swap2 = !strcmp(v, "yes");
		else {
			snprintf(err, errlen,
			    "engine %s: %s=%s: want threads=N, memory=MiB, cpu=seconds, "
			    "turn-ms=50..600000 or swap2=yes|no",
			    e->name, tok, v);
			return -1;
		}
	}
	if (n < 2 || !e->argv[0]) {
		snprintf(err, errlen, "engine: NAME PATH [ARG...] [key=value...]");
		return -1;
	}
	return 0;
}

int
config_set(struct config *c, const char *key, const char *val, char *err, size_t errlen)
{
	if (strcmp(key, "rate-bot-accounts") == 0) {
		if (strcmp(val, "none") && strcmp(val, "half")) {
			snprintf(err, errlen, "rate-bot-accounts: none or half: %s", val);
			return -1;
		}
		c->rate_bot_accounts = strcmp(val, "half") == 0;
		return 0;
	}
	if (strcmp(key, "engine") == 0) {
		char copy[sizeof c->engines[0]];
		struct hosted_engine e;
		if (c->nengines >= CONFIG_MAX_ENGINES || strlen(val) >= sizeof copy) {
			snprintf(err, errlen, "engine: at most %d lines of at most %zu bytes",
			    CONFIG_MAX_ENGINES, sizeof copy - 1);
			return -1;
		}
		strcpy(copy, val);
		if (config_engine(copy, &e, err, errlen) != 0)
			return -1;
		for (int i = 0; i < c->nengines; i++) {
			char other[sizeof copy];
			struct hosted_engine o;
			strcpy(other, c->engines[i]);
			if (config_engine(other, &o, err, errlen) == 0 && !strcmp(o.name, e.name)) {
				snprintf(err, errlen, "engine %s named twice", e.name);
				return -1;
			}
		}
		strcpy(c->engines[c->nengines++], val);
		return 0;
	}
	if (strcmp(key, "league") == 0) {
		if (c->nleagues >= CONFIG_MAX_LEAGUES || strlen(val) >= sizeof c->leagues[0]) {
			snprintf(err, errlen, "league: at most %d lines of at most %zu bytes",
			    CONFIG_MAX_LEAGUES, sizeof c->leagues[0] - 1);
			return -1;
		}
		strcpy(c->leagues[c->nleagues++], val); /* checked with the engines: config_check */
		return 0;
	}
	if (strcmp(key, "tourney-daily") == 0) {
		unsigned hh, mm;
		int off = 0;
		if (c->ndaily >= CONFIG_MAX_DAILY || strlen(val) >= sizeof c->tourney_daily[0] ||
		    sscanf(val, "%2u:%2u %n", &hh, &mm, &off) != 2 || !off || hh > 23 || mm > 59 ||
		    val[2] != ':' || !val[off]) {
			snprintf(err, errlen,
			    "tourney-daily: HH:MM and a tournament's words (at most %d lines): %s",
			    CONFIG_MAX_DAILY, val);
			return -1;
		}
		strcpy(c->tourney_daily[c->ndaily++], val);
		return 0;
	}
	if (strcmp(key, "listen") == 0) {
		if (c->nlisten >= CONFIG_MAX_LISTEN || strlen(val) >= sizeof c->listen[0] ||
		    !strchr(val, ':')) {
			snprintf(err, errlen, "bad or too many listen addresses: %s", val);
			return -1;
		}
		strcpy(c->listen[c->nlisten++], val);
		return 0;
	}
	if (strcmp(key, "metrics-listen") == 0) {
		if (strlen(val) >= sizeof c->metrics_listen || (val[0] && !strchr(val, ':'))) {
			snprintf(err, errlen, "bad metrics-listen address: %s", val);
			return -1;
		}
		strcpy(c->metrics_listen, val);
		return 0;
	}
	if (strcmp(key, "admins") == 0)
		return set_admins(c, val, err, errlen);
	if (strcmp(key, "proxy-from") == 0)
		return set_fronts(c, val, err, errlen);
	if (strcmp(key, "control-socket") == 0)
		return set_path(c->control_socket, val, err, errlen);
	if (strcmp(key, "web-listen") == 0) {
		if (strlen(val) >= sizeof c->web_listen || (val[0] && !strchr(val, ':'))) {
			snprintf(err, errlen, "bad web-listen address: %s", val);
			return -1;
		}
		strcpy(c->web_listen, val);
		return 0;
	}
	if (strcmp(key, "web-origins") == 0) {
		if (strlen(val) >= sizeof c->web_origins) {
			snprintf(err, errlen, "web-origins too long");
			return -1;
		}
		strcpy(c->web_origins, val);
		return 0;
	}
	if (strcmp(key, "server-name") == 0) {
		size_t n = strspn(val,
		    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
		    "0123456789.-:");
		if (!val[0] || val[n] || n >= sizeof c->server_name) {
			snprintf(
			    err, errlen, "server-name must be a host name or address: %s", val);
			return -1;
		}
		strcpy(c->server_name, val);
		return 0;
	}
	if (strcmp(key, "cluster") == 0)
		return set_cluster(c, val, err, errlen);
	if (strcmp(key, "remember-days") == 0)
		return set_remember(c, val, err, errlen);
	if (strcmp(key, "bot-threads") == 0 && strcmp(val, "none") == 0) {
		c->bot_threads = CONFIG_BOTS_REMOTE;
		return 0;
	}
	if (strcmp(key, "node-name") == 0) {
		if (!roomid_node_ok(val)) {
			snprintf(err, errlen, "node-name must be 1 to %d lower-case letters: %s",
			    CONFIG_NODE_MAX, val);
			return -1;
		}
		strcpy(c->node_name, val);
		return 0;
	}
	if (strcmp(key, "advertise") == 0) {
		const char *colon = strrchr(val, ':');
		size_t n = strspn(val,
		    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
		    "0123456789.-:[]");
		char *end;
		long port = colon ? strtol(colon + 1, &end, 10) : 0;
		if (val[n] || n > CONFIG_ADVERTISE_MAX || !colon || colon == val ||
		    end == colon + 1 || *end || port < 1 || port > 65535) {
			snprintf(err, errlen, "advertise must be host:port: %s", val);
			return -1;
		}
		strcpy(c->advertise, val);
		return 0;
	}
	if (strcmp(key, "state-dir") == 0)
		return set_path(c->state_dir, val, err, errlen);
	if (strcmp(key, "cert") == 0)
		return set_path(c->cert, val, err, errlen);
	if (strcmp(key, "database") == 0)
		return set_path(c->database, val, err, errlen);
	if (strcmp(key, "key") == 0)
		return set_path(c->key, val, err, errlen);
	if (strcmp(key, "tls-ticket-keys") == 0)
		return set_path(c->ticket_keys, val, err, errlen);
	if (strcmp(key, "log-level") == 0) {
		int l = log_level_parse(val);
		if (l < 0) {
			snprintf(err, errlen, "log-level must be error, warn, info or debug");
			return -1;
		}
		c->log_level = l;
		return 0;
	}
	for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++) {
		if (strcmp(key, ints[i].key) != 0)
			continue;
		char *end;
		errno = 0;
		long v = strtol(val, &end, 10);
		if (errno || *end || end == val || v < ints[i].lo || v > ints[i].hi) {
			snprintf(err, errlen, "%s must be a number in %d..%d", key, ints[i].lo,
			    ints[i].hi);
			return -1;
		}
		*(int *)(void *)((char *)c + ints[i].off) = (int)v;
		return 0;
	}
	snprintf(err, errlen, "unknown key %s", key);
	return -1;
}

int
config_load(struct config *c, const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	char line[512], e[200];
	int lineno = 0, listens = 0, dailies = 0, engines = 0, leagues = 0;
	while (fgets(line, sizeof line, f)) {
		lineno++;
		char *hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		char *key = line;
		while (isspace((unsigned char)*key))
			key++;
		if (*key == '\0')
			continue;
		char *val = key;
		while (*val && !isspace((unsigned char)*val))
			val++;
		if (*val)
			*val++ = '\0';
		while (isspace((unsigned char)*val))
			val++;
		char *end = val + strlen(val);
		while (end > val && isspace((unsigned char)end[-1]))
			*--end = '\0';
		if (strcmp(key, "listen") == 0 && listens++ == 0)
			c->nlisten = 0;
		if (strcmp(key, "tourney-daily") == 0 && dailies++ == 0)
			c->ndaily = 0;
		if (strcmp(key, "engine") == 0 && engines++ == 0)
			c->nengines = 0;
		if (strcmp(key, "league") == 0 && leagues++ == 0)
			c->nleagues = 0;
		if (config_set(c, key, val, e, sizeof e)) {
			snprintf(err, errlen, "%s:%d: %s", path, lineno, e);
			fclose(f);
			return -1;
		}
	}
	fclose(f);
	return 0;
}
