/* config.h: gomokud settings: embedded defaults, then the config file, then
 * command-line flags. See gomokud.conf.example for every key. */
#ifndef GOMOKUD_CONFIG_H
#define GOMOKUD_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#include "daemon/cidr.h"
#include "daemon/roomid.h"

enum {
	CONFIG_MAX_LISTEN = 8,
	CONFIG_MAX_DAILY = 8,   /* tourney-daily lines */
	CONFIG_MAX_ENGINES = 8, /* engine lines (hosted.h) */
	CONFIG_PATH_MAX = 256,
	CONFIG_ADMINS_MAX = 512,
	CONFIG_MAX_FRONTS = 32,
	CONFIG_NODE_MAX = ROOMID_NODE_MAX, /* node-name letters: a room id's (roomid.h) */
	CONFIG_ADVERTISE_MAX = 48,         /* a word of * MOVED */
	CONFIG_BOTS_REMOTE = -1,           /* bot-threads none: the cluster searches */
	CONFIG_REMEMBER_DAYS = 30,         /* remember-days: a login token's life */
	CONFIG_REMEMBER_DAYS_MAX = 3650,
	CONFIG_BOT_GAMES_MAX = 64, /* bot-max-games at most: gomoku-bot's max-games */
	CONFIG_BOT_CONNS_MAX = 64, /* bot-max-conns at most */
	CONFIG_MAX_LEAGUES = 4,    /* league lines (league.h) */
	CONFIG_LEAGUE_NAME_MAX = 20,
	CONFIG_LEAGUE_MEMBERS = 16, /* a round robin's most players */
};

/* One league line (league.h): its name ([a-z0-9_-], a letter first), the
 * games' rule, size and clock, its members ("levelN", or an engine line's
 * name), round robin cycles, hours between starts (in seconds) and the
 * first event's start after the daemon's (seconds). */
struct league_conf {
	char name[CONFIG_LEAGUE_NAME_MAX + 1];
	int rule, size, tc_base, tc_inc;
	char members[CONFIG_LEAGUE_MEMBERS][24];
	int nmembers;
	int cycles;
	int64_t every_s;
	int first_s;
};

struct hosted_engine;

struct config {
	char listen[CONFIG_MAX_LISTEN][128]; /* host:port, [v6]:port */
	int nlisten;
	char state_dir[CONFIG_PATH_MAX];
	char cert[CONFIG_PATH_MAX]; /* "" = self-signed in state_dir */
	char key[CONFIG_PATH_MAX];
	char ticket_keys[CONFIG_PATH_MAX];    /* tls-ticket-keys; "" = OpenSSL's own */
	char database[CONFIG_PATH_MAX];       /* "" = state_dir/gomokud.db; "none" = off */
	char metrics_listen[128];             /* host:port of GET /metrics; "" = off */
	char control_socket[CONFIG_PATH_MAX]; /* gomokuctl's; "" = state_dir/gomokud.ctl */
	char admins[CONFIG_ADMINS_MAX];       /* accounts that may moderate: "alice,bob" */
	char web_origins[512];                /* WebSocket origins allowed besides the served one */
	char web_listen[128];                 /* host:port serving only the web board; "" = off */
	/* fronts whose connections begin with a PROXY v2 header (front.h) */
	struct cidr proxy_from[CONFIG_MAX_FRONTS];
	int nproxy_from;
	char server_name[128]; /* the self-signed certificate names it too */
	/* a cluster (cluster.h): Redis at cluster_host:cluster_port ("": none),
	 * this node's name (its rooms' id prefix) and the host:port players
	 * are sent to (* MOVED) */
	char cluster_host[128];
	int cluster_port;
	char node_name[CONFIG_NODE_MAX + 1];
	char advertise[128];
	int log_level;
	int grace_s;     /* disconnect grace before a claim */
	int idle_s;      /* silence before a connection is closed */
	int handshake_s; /* TLS handshake limit */
	int max_conns;
	int max_per_addr;
	int max_seeks_per_addr; /* open seeks from one address (its unit) */
	int ipv6_prefix;        /* IPv6 addresses count by this prefix: caps, logins, bans */
	int outq_kib;           /* output queue cap per connection */
	int rate_burst;         /* request token bucket */
	int rate_per_s;
	int chat_burst; /* chat lines per chat_window_s */
	int chat_window_s;
	int drain_ms;       /* SIGTERM: time to flush before exit */
	int bot_threads;    /* bot search workers; 0 = one per core, CONFIG_BOTS_REMOTE */
	int bot_serve;      /* in a cluster: search for other nodes' bots too */
	int bot_queue;      /* searches waiting for a worker before BOT says busy */
	int bot_think_ms;   /* a bot's time a move without a clock (its clock caps it) */
	int bot_hash_mb;    /* transposition table per worker */
	int bot_preview_ms; /* at most one THINK a room this often */
	int bot_fallback_s; /* SEEK ... bot: wait this long for a human */
	int bot_fallback_level;
	int bot_alone_s;       /* a game between two bots that nobody watches ends after this */
	int analysis_ms;       /* ANALYSE: the engine's time for a position */
	int analysis_per_hour; /* ANALYSE: an account's requests an hour (a guest's: a third) */
	int review_ms;         /* REVIEW: the engine's time for each position of a game */
	int review_per_hour; /* REVIEW: an account's reviews started an hour (a guest's: a third) */
	int tourney_first_move;  /* s: a tournament game with no stone by then is a forfeit */
	int tourney_players;     /* the most players one tournament takes */
	int tourney_per_account; /* tournaments an account may have not yet over (0: none) */
	/* tourney-daily: "HH:MM" (UTC) and TCREATE's words but the start: an
	 * event the server makes each day, an hour before it starts */
	char tourney_daily[CONFIG_MAX_DAILY][200];
	int ndaily;
	char engines[CONFIG_MAX_ENGINES][CONFIG_PATH_MAX + 128]; /* hosted engines: engine lines */
	int nengines;
	int engine_games;                      /* games against hosted engines at once */
	char leagues[CONFIG_MAX_LEAGUES][300]; /* league lines, as written (config_league) */
	int nleagues;
	int review_queue;      /* REVIEW: reviews under way on this node at once */
	int64_t remember_s;    /* a login token's life (remember-days, in seconds) */
	int rate_bots;         /* 1: rated games against bots move ratings */
	int rate_bot_accounts; /* 1 (half): a person's rated game against a bot account
	                          moves the person's rating by half; 0 (none): no rating */
	int bot_max_games;     /* a bot account's unfinished games at once (issue 49) */
	int bot_max_conns;     /* a bot account's connections at once, a session each */
	int bot_seeks;         /* 1: bot accounts may SEEK and TAKE in the lobby */
	int away_keep_s; /* a session away keeps its waiting private room and its seek this long */
	int max_away_per_addr; /* sessions away holding a room, seek or challenge, per address */
};

void config_defaults(struct config *c);
/* Sets one key; 0 or -1 with a reason in err. */
int config_set(struct config *c, const char *key, const char *val, char *err, size_t errlen);
/* Reads "key value" lines ('#' starts a comment). 0 or -1 with err. A file's
 * listen lines replace the defaults. */
int config_load(struct config *c, const char *path, char *err, size_t errlen);

/* The settings that only make sense together (cluster needs node-name and
 * advertise): 0 or -1 with err. */
int config_check(const struct config *c, char *err, size_t errlen);

/* Whether name is one of c->admins (names compare without regard to case). */
int config_is_admin(const struct config *c, const char *name);

/* One engine line's value, "NAME PATH [ARG...] [key=value...]" (keys:
 * threads, memory in MiB, cpu in seconds a game, turn-ms, swap2 yes|no),
 * parsed into e (hosted.h) in place: line is cut into the strings e
 * points to. 0, or -1 with err. */
int config_engine(char *line, struct hosted_engine *e, char *err, size_t errlen);

/* One league line's value, "NAME RULE SIZE TIME [members=a,b,...]
 * [cycles=1|2] [every=HOURS] [first=SECONDS]", into l; its members must be
 * levels 1..10 or names of c's engine lines (none given: every engine
 * line's). 0, or -1 with err. */
int config_league(
    const char *line, const struct config *c, struct league_conf *l, char *err, size_t errlen);

#endif
