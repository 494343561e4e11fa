# daemon/: gomokud, the TLS game server (libevent + OpenSSL).
# The composition root (main.c, server.c) puts together the core and, when
# built (WITH_CLUSTER=1, the default), the cluster under daemon/cluster/;
# the core reaches other nodes only through world.h (issue 40).
DAEMON_ROOT_SRCS := daemon/main.c daemon/server.c daemon/testhook.c
DAEMON_CORE_SRCS := daemon/conn.c daemon/cmd.c daemon/session.c \
	daemon/lobby.c daemon/room.c daemon/clock.c daemon/tls.c daemon/tickets.c daemon/config.c daemon/log.c \
	daemon/notify.c daemon/store.c daemon/store_sqlite.c daemon/store_pg.c daemon/auth.c daemon/glicko.c daemon/export.c \
	daemon/workq.c daemon/archive.c daemon/account.c daemon/bots.c daemon/botplay.c daemon/hosted.c \
	daemon/game.c daemon/wire.c daemon/restore.c daemon/analysis.c daemon/allowance.c daemon/reviews.c daemon/puzzles.c daemon/tourneys.c daemon/league.c daemon/tlsio.c daemon/tlsline.c daemon/statelock.c \
	daemon/metrics.c daemon/admin.c daemon/control.c daemon/cidr.c \
	daemon/proxyhdr.c daemon/front.c daemon/http.c daemon/wsline.c \
	daemon/challenge.c daemon/world.c daemon/roomid.c daemon/gc.c daemon/addrcount.c daemon/loginlimit.c
CLUSTER_SRCS := daemon/cluster/attach.c daemon/cluster/node.c daemon/cluster/link.c daemon/cluster/presence.c \
	daemon/cluster/roster.c daemon/cluster/watch.c daemon/cluster/jobs.c daemon/cluster/engines.c daemon/cluster/tell.c \
	daemon/cluster/clusterlobby.c daemon/cluster/clustermsg.c daemon/cluster/lease.c \
	daemon/cluster/tlease.c
DAEMON_PKGS := libevent libevent_openssl libevent_pthreads openssl sqlite3 libpq libseccomp
ifeq ($(NOCLUSTER),)
DAEMON_CLUSTER_SRCS := $(CLUSTER_SRCS)
DAEMON_PKGS += hiredis
else
DAEMON_CLUSTER_SRCS := daemon/cluster/off.c
endif
DAEMON_SRCS := $(DAEMON_ROOT_SRCS) $(DAEMON_CORE_SRCS) $(DAEMON_CLUSTER_SRCS)
# Debian 12's libwslay-dev and libhttp-parser-dev ship no pkg-config file:
# their headers are in /usr/include and they link by name (mk/deps.sh checks
# for the headers).
DAEMON_LIBS := -lwslay -lhttp_parser
GOMOKUD := $(BINDIR)/gomokud
# The store (its front and both backends), also linked by its unit test.
STORE_OBJS := $(O)/daemon/store.o $(O)/daemon/store_sqlite.o $(O)/daemon/store_pg.o

$(DAEMON_SRCS:%.c=$(O)/%.o): MOD_CFLAGS = $(call pc,--cflags,$(DAEMON_PKGS))

# The web client (client/web/) embedded in the binary: mk/embed.c writes a C
# table of the files (webfiles.h), with hashed names for all but index.html
# and the service worker sw.js, and a gzip copy of each (zlib) where smaller.
# The message catalogs as JSON (po/module.mk: I18N_JSON) go with them, as
# /s/<hash>/i18n/<lang>.json and i18n/languages.json: a script finds them
# beside itself (new URL("i18n/zh_CN.json", import.meta.url)).
WEB_FILES := $(sort $(notdir $(wildcard client/web/*.html client/web/*.js client/web/*.css \
    client/web/*.svg client/web/*.png client/web/*.webmanifest)))
WEBFILES_C := $(O)/gen/webfiles.c
$(O)/mk/embed: mk/embed.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_ALL) $(CFLAGS_ALL) $(call pc,--cflags,zlib) -o $@ $< $(call pc,--libs,zlib)
$(WEBFILES_C): $(O)/mk/embed $(addprefix client/web/,$(WEB_FILES)) $(I18N_JSON)
	@mkdir -p $(dir $@)
	$(O)/mk/embed $@ client/web $(WEB_FILES) $(foreach f,$(I18N_JSON),i18n/$(notdir $(f))=$(f))
# The PNG icons of the manifest, drawn from favicon.svg by Chromium and
# committed: `make icons` after changing the SVG (mk/icons.mjs).
.PHONY: icons
icons:
	node mk/icons.mjs
$(O)/gen/webfiles.o: $(WEBFILES_C)
	$(CC) $(CPPFLAGS_ALL) $(CFLAGS_ALL) -c -o $@ $<

$(GOMOKUD): $(DAEMON_SRCS:%.c=$(O)/%.o) $(O)/gen/webfiles.o $(BOT_OBJS) $(PROTO_LIB) $(TOURNEY_LIB) $(ENGINE_LIB) $(RULES_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(call pc,--libs,$(DAEMON_PKGS)) $(DAEMON_LIBS) $(LDLIBS_ALL)

BINS += $(GOMOKUD)

# make run: the daemon with its embedded defaults (self-signed certificate and
# state under ./state, 127.0.0.1:5555 and [::1]:5555).
.PHONY: run-main
# make run starts the daemon; the quick start's client is built with it.
# LISTEN=ADDR:PORT (repeatable, space-separated) instead of loopback only:
# make run LISTEN=0.0.0.0:5555 lets a friend on the network in.
run-main: $(GOMOKUD) $(BINDIR)/gomoku
	$(GOMOKUD) --state-dir state $(foreach l,$(LISTEN),--listen $(l))

# Integration tests: the real daemon on a loopback port, real TLS clients.
# A program X that drives it through tests/daemon/tclient.o joins
# TCLIENT_PROGS: the one rule in tests/module.mk links X.o, tclient.o and
# what a line of X's own adds (more objects; after a |, the programs it
# runs besides gomokud).
$(O)/tests/daemon/%.o: MOD_CFLAGS = $(call pc,--cflags,openssl) -DGOMOKUD_BIN='"$(GOMOKUD)"'
TCLIENT_PROGS += $(O)/tests/daemon/test_gomokud $(O)/tests/daemon/test_chaos

# The protocol departures of issue 21, one case each.
TCLIENT_PROGS += $(O)/tests/daemon/test_spec

TESTS += $(O)/tests/daemon/test_gomokud $(O)/tests/daemon/test_chaos $(O)/tests/daemon/test_spec

# POSITION: a position of no game judged by the rules core (issue 47).
TCLIENT_PROGS += $(O)/tests/daemon/test_position
TESTS += $(O)/tests/daemon/test_position

# ANALYSE: the engine's view of a position of no game, its fair play and
# allowances (issue 47).
TCLIENT_PROGS += $(O)/tests/daemon/test_analysis
TESTS += $(O)/tests/daemon/test_analysis

# REVIEW and MARKS: a finished game's engine review, stored with it
# (issue 47); a store that refuses one, on gomokud-faults (below).
$(O)/tests/daemon/test_reviews.o: MOD_CFLAGS = $(call pc,--cflags,openssl) \
    -DGOMOKUD_BIN='"$(GOMOKUD)"' -DGOMOKUD_FAULTS_BIN='"$(GOMOKUD_FAULTS)"'
TCLIENT_PROGS += $(O)/tests/daemon/test_reviews
$(O)/tests/daemon/test_reviews: | $(GOMOKUD_FAULTS)
TESTS += $(O)/tests/daemon/test_reviews

# PUZZLE and SOLVE: puzzles from reviewed games' missed wins (issue 47).
TCLIENT_PROGS += $(O)/tests/daemon/test_puzzles
TESTS += $(O)/tests/daemon/test_puzzles

# Tournaments (issue 48): refusals, a round robin of bots, a Swiss of 7
# against hand-made fixtures, kill -9 mid-round.
$(O)/tests/daemon/test_tourneys.o: MOD_CFLAGS = $(call pc,--cflags,openssl sqlite3) \
    -DGOMOKUD_BIN='"$(GOMOKUD)"'
TCLIENT_PROGS += $(O)/tests/daemon/test_tourneys
$(O)/tests/daemon/test_tourneys: TCLIENT_PKGS = sqlite3
TESTS += $(O)/tests/daemon/test_tourneys
# A 2-minute arena of guests and bots (in one CI pass: .ci/run).
TCLIENT_PROGS += $(O)/tests/daemon/test_tourney_arena
TESTS += $(O)/tests/daemon/test_tourney_arena

# One daemon per state directory (issue 21): a second start is refused while
# the first serves; after kill -9 a restart takes over.
TCLIENT_PROGS += $(O)/tests/daemon/test_lock

TESTS += $(O)/tests/daemon/test_lock

# A renewed certificate reaches new connections (issue 21): by restart under
# the shipped unit's credentials, by SIGHUP when configured by path.
TCLIENT_PROGS += $(O)/tests/daemon/test_renew
$(O)/tests/daemon/test_renew: $(O)/daemon/tls.o $(O)/proto/keyprint.o

TESTS += $(O)/tests/daemon/test_renew

# GET /metrics (metrics-listen): the text format parsed strictly, each series
# moved by exactly what a game, a refusal, a burst and a bot game did.
TCLIENT_PROGS += $(O)/tests/daemon/test_metrics

TESTS += $(O)/tests/daemon/test_metrics

# The metrics and control listeners attacked (issue 41, H4 and M3): out of
# descriptors (a daemon under RLIMIT_NOFILE 40), then the metrics cap and
# its deadline from accept.
$(O)/tests/daemon/test_exhaust.o: MOD_CFLAGS = $(call pc,--cflags,openssl) \
    -DGOMOKUD_BIN='"$(GOMOKUD)"' -DGOMOKUCTL_BIN='"$(GOMOKUCTL)"'
TCLIENT_PROGS += $(O)/tests/daemon/test_exhaust
$(O)/tests/daemon/test_exhaust: | $(BINDIR)/gomokuctl

TESTS += $(O)/tests/daemon/test_exhaust

# gomokuctl and the control socket (issue 22): every command against the
# real daemon, the admin block of docs/operations.md run line by line.
$(O)/tests/daemon/test_ctl.o: MOD_CFLAGS = $(call pc,--cflags,openssl) \
    -DGOMOKUD_BIN='"$(GOMOKUD)"' -DGOMOKUCTL_BIN='"$(GOMOKUCTL)"'
TCLIENT_PROGS += $(O)/tests/daemon/test_ctl
# by name: GOMOKUCTL (ctl/module.mk) is not set yet where this is read
$(O)/tests/daemon/test_ctl: | $(BINDIR)/gomokuctl

TESTS += $(O)/tests/daemon/test_ctl

# Bot accounts (issue 49): bot tokens through gomokuctl, BOTUPGRADE and its
# refusals, the marks (= BOT, * KINDS, = KINDS), a bot account's two games
# at once through a restart, a revoke.
$(O)/tests/daemon/test_botaccounts.o: MOD_CFLAGS = $(call pc,--cflags,openssl) \
    -DGOMOKUD_BIN='"$(GOMOKUD)"' -DGOMOKUCTL_BIN='"$(GOMOKUCTL)"' \
    -DGOMOKU_BOT='"$(BINDIR)/gomoku-bot"' -DPBRAIN='"$(BINDIR)/pbrain-gomoku"'
TCLIENT_PROGS += $(O)/tests/daemon/test_botaccounts
$(O)/tests/daemon/test_botaccounts: | $(BINDIR)/gomokuctl $(BINDIR)/gomoku-bot \
    $(BINDIR)/pbrain-gomoku

TESTS += $(O)/tests/daemon/test_botaccounts

# The engine league (issue 49): three engines' round robin, LEAGUES and
# LEAGUE, a restart, a bot account's opt-in (SET league yes).
$(O)/tests/daemon/test_league.o: MOD_CFLAGS = $(call pc,--cflags,openssl) \
    -DGOMOKUD_BIN='"$(GOMOKUD)"' -DGOMOKUCTL_BIN='"$(GOMOKUCTL)"' \
    -DPBRAIN='"$(BINDIR)/pbrain-gomoku"'
TCLIENT_PROGS += $(O)/tests/daemon/test_league
$(O)/tests/daemon/test_league: | $(BINDIR)/gomokuctl $(BINDIR)/pbrain-gomoku
TESTS += $(O)/tests/daemon/test_league

# Ratings with bot accounts: half a person's change (rate-bot-accounts
# half), none by default, and the bots' own leaderboard (TOPBOTS).
$(O)/tests/daemon/test_botratings.o: MOD_CFLAGS = $(call pc,--cflags,openssl) \
    -DGOMOKUD_BIN='"$(GOMOKUD)"' -DGOMOKUCTL_BIN='"$(GOMOKUCTL)"'
TCLIENT_PROGS += $(O)/tests/daemon/test_botratings
$(O)/tests/daemon/test_botratings: | $(BINDIR)/gomokuctl
TESTS += $(O)/tests/daemon/test_botratings

# Abandoned games end (issue 43, item 5): a bot game its human left, a
# game without clocks both players left, games kept through a kill -9 (one
# between two bots, made in the store with SQLite's library), and a drain
# that finishes.
$(O)/tests/daemon/test_abandon.o: MOD_CFLAGS = $(call pc,--cflags,openssl sqlite3) \
    -DGOMOKUD_BIN='"$(GOMOKUD)"' -DGOMOKUCTL_BIN='"$(GOMOKUCTL)"'
TCLIENT_PROGS += $(O)/tests/daemon/test_abandon
$(O)/tests/daemon/test_abandon: TCLIENT_PKGS = sqlite3
$(O)/tests/daemon/test_abandon: | $(BINDIR)/gomokuctl

TESTS += $(O)/tests/daemon/test_abandon

# Sessions outlive their connection while they hold anything (issue 43,
# item 1): a waiting private room, a seek, a challenge; the cap per address.
TCLIENT_PROGS += $(O)/tests/daemon/test_away

TESTS += $(O)/tests/daemon/test_away

# The game port's HTTP and WebSocket side from a raw client (issue 24).
TCLIENT_PROGS += $(O)/tests/daemon/test_ws
$(O)/tests/daemon/test_ws: $(O)/tests/daemon/wsframe.o $(O)/tests/daemon/httpresp.o

TESTS += $(O)/tests/daemon/test_ws

# The web board's files gzipped and served by Accept-Encoding, with Vary
# and an ETag per encoding; the worker, manifest and icons of an installed
# board (issue 44, items 6 and 7). zlib unzips the copies.
TCLIENT_PROGS += $(O)/tests/daemon/test_gzip
$(O)/tests/daemon/test_gzip: TCLIENT_PKGS = zlib
$(O)/tests/daemon/test_gzip: $(O)/tests/daemon/httpresp.o

TESTS += $(O)/tests/daemon/test_gzip

# TLS session tickets (issue 45): resumed on the node that gave them, on
# any node sharing tls-ticket-keys, not on others; rotation by SIGHUP.
TCLIENT_PROGS += $(O)/tests/daemon/test_tickets

TESTS += $(O)/tests/daemon/test_tickets

# The transports under attack (issue 41): floods bounded by the output cap,
# the handshake's total deadline, bursts, the RFC answers. It reads the
# daemon's allocator (daemon/testhook.h), whose figures sanitizers change:
# the plain gcc pass only, as the browser test.
TCLIENT_PROGS += $(O)/tests/daemon/test_attack
$(O)/tests/daemon/test_attack: $(O)/tests/daemon/wsframe.o
ifeq ($(SANITIZE),)
ifneq ($(filter cc gcc,$(notdir $(CC))),)
TESTS += $(O)/tests/daemon/test_attack
endif
endif
# The same attacks at the probe's sizes, for people to run: 20 s floods from
# ten connections each, the default 10 s handshake-timeout, and a
# ClientHello trickled a byte every 5 s.
ATTACK_SECONDS ?= 20
.PHONY: attack
attack: $(O)/tests/daemon/test_attack $(GOMOKUD)
	ATTACK_SECONDS=$(ATTACK_SECONDS) ATTACK_FULL=1 $(O)/tests/daemon/test_attack

$(O)/tests/daemon/test_config.o: MOD_CFLAGS = $(call pc,--cflags,cmocka)
$(O)/tests/daemon/test_config: $(O)/tests/daemon/test_config.o $(O)/daemon/config.o $(O)/daemon/clock.o $(O)/daemon/log.o \
    $(O)/daemon/roomid.o \
    $(O)/daemon/cidr.o $(PROTO_LIB) $(RULES_LIB)
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(call pc,--libs,cmocka) $(LDLIBS_ALL)

TESTS += $(O)/tests/daemon/test_config

# Load benchmark (make bench): idle connections, moves relayed, latency.
LOAD_ARGS ?= -n 10000 -g 1000 -s 10 -t 200
$(O)/tests/load/%.o: MOD_CFLAGS = $(call pc,--cflags,libevent libevent_openssl openssl)
$(O)/tests/load/load: $(O)/tests/load/load.o $(O)/tests/daemon/tclient.o $(O)/tests/daemon/wsframe.o \
    $(O)/daemon/tlsio.o $(O)/daemon/clock.o $(PROTO_LIB) $(RULES_LIB)
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(call pc,--libs,libevent libevent_openssl openssl) $(LDLIBS_ALL)

BENCHES += load
BENCH_BINS += $(O)/tests/load/load
.PHONY: bench-load
bench-load: $(O)/tests/load/load $(GOMOKUD)
	$(O)/tests/load/load -b $(GOMOKUD) $(LOAD_ARGS)

# A move's relay to a spectator on the room's node and on another node of a
# cluster (issue 26): `make bench-relay`, RELAY_ARGS='-n 4000' for more.
RELAY_ARGS ?= -n 2000
TCLIENT_PROGS += $(O)/tests/load/relay
$(O)/tests/load/relay: $(O)/tests/daemon/redisrun.o

BENCHES += relay
BENCH_BINS += $(O)/tests/load/relay
.PHONY: bench-relay
bench-relay: $(O)/tests/load/relay $(GOMOKUD)
	$(O)/tests/load/relay -b $(GOMOKUD) $(RELAY_ARGS)

# tests/load against three nodes on one PostgreSQL and one Redis (issue 26,
# item 7): `make bench-cluster` (tests/load/bench_cluster.sh starts the
# database; CLUSTER_BENCH_ARGS='-g 100 -s 10' for more).
TCLIENT_PROGS += $(O)/tests/load/cluster
$(O)/tests/load/cluster: $(O)/tests/daemon/redisrun.o

BENCHES += cluster
BENCH_BINS += $(O)/tests/load/cluster
.PHONY: bench-cluster
bench-cluster: $(O)/tests/load/cluster $(O)/tests/load/load $(O)/tests/load/relay $(GOMOKUD)
	O=$(O) BINDIR=$(BINDIR) sh tests/load/bench_cluster.sh $(CLUSTER_BENCH_ARGS)

# A bot move's latency, searched here and on another node (issue 26, bots
# anywhere): `make bench-botlat`, BOTLAT_ARGS='-n 400' for more.
BOTLAT_ARGS ?= -n 200
TCLIENT_PROGS += $(O)/tests/load/botlat
$(O)/tests/load/botlat: $(O)/tests/daemon/redisrun.o

BENCHES += botlat
BENCH_BINS += $(O)/tests/load/botlat
.PHONY: bench-botlat
bench-botlat: $(O)/tests/load/botlat $(GOMOKUD)
	$(O)/tests/load/botlat -b $(GOMOKUD) $(BOTLAT_ARGS)

# The game domain's values on the wire, one by one.
$(O)/tests/unit/test_wire: $(O)/tests/unit/test_wire.o $(O)/daemon/wire.o $(O)/daemon/game.o \
    $(PROTO_LIB) $(RULES_LIB)
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(call pc,--libs,cmocka) $(LDLIBS_ALL)

TESTS += $(O)/tests/unit/test_wire

# The daemon with the store's fault points live (GOMOKUD_FAULT, store.h), for
# the crash tests only: never installed. Only store.o differs from gomokud's.
GOMOKUD_FAULTS := $(O)/tests/daemon/gomokud-faults
$(O)/faults/daemon/store.o: daemon/store.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_ALL) $(CFLAGS_ALL) $(call pc,--cflags,$(DAEMON_PKGS)) -DGOMOKUD_FAULTS -c -o $@ $<

$(GOMOKUD_FAULTS): $(filter-out $(O)/daemon/store.o,$(DAEMON_SRCS:%.c=$(O)/%.o)) \
    $(O)/faults/daemon/store.o $(O)/gen/webfiles.o $(BOT_OBJS) $(PROTO_LIB) $(TOURNEY_LIB) \
    $(ENGINE_LIB) $(RULES_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(call pc,--libs,$(DAEMON_PKGS)) $(DAEMON_LIBS) $(LDLIBS_ALL)

# Every state change is one transaction: killed or refused at each point.
$(O)/tests/daemon/test_crash.o: MOD_CFLAGS = $(call pc,--cflags,openssl) \
    -DGOMOKUD_BIN='"$(GOMOKUD)"' -DGOMOKUD_FAULTS_BIN='"$(GOMOKUD_FAULTS)"'
TCLIENT_PROGS += $(O)/tests/daemon/test_crash
$(O)/tests/daemon/test_crash: | $(GOMOKUD_FAULTS)

TESTS += $(O)/tests/daemon/test_crash

# A bot's answer while its room's write is in flight (a slow end, the
# fault build): the bot waits for the commit.
$(O)/tests/daemon/test_botbusy.o: MOD_CFLAGS = $(call pc,--cflags,openssl) \
    -DGOMOKUD_FAULTS_BIN='"$(GOMOKUD_FAULTS)"'
TCLIENT_PROGS += $(O)/tests/daemon/test_botbusy
$(O)/tests/daemon/test_botbusy: | $(GOMOKUD_FAULTS)

TESTS += $(O)/tests/daemon/test_botbusy

# SQLite's group commit on the loop (issue 45): a refused write alone in
# its group, a kill -9 before a group's COMMIT (the fault build).
$(O)/tests/daemon/test_group.o: MOD_CFLAGS = $(call pc,--cflags,openssl) \
    -DGOMOKUD_BIN='"$(GOMOKUD)"' -DGOMOKUD_FAULTS_BIN='"$(GOMOKUD_FAULTS)"'
TCLIENT_PROGS += $(O)/tests/daemon/test_group
$(O)/tests/daemon/test_group: | $(GOMOKUD_FAULTS)

TESTS += $(O)/tests/daemon/test_group

# Behind the real HAProxy (issue 26, the front): PROXY v2 from proxy-from's
# fronts only; limits, bans and logs by the player's address.
$(O)/tests/daemon/test_front.o: MOD_CFLAGS = $(call pc,--cflags,openssl) \
    -DGOMOKUD_BIN='"$(GOMOKUD)"' -DGOMOKUCTL_BIN='"$(GOMOKUCTL)"'
TCLIENT_PROGS += $(O)/tests/daemon/test_front
$(O)/tests/daemon/test_front: | $(BINDIR)/gomokuctl

TESTS += $(O)/tests/daemon/test_front

# The other nodes' presence under WHO, ROOMS, SEEKS and a named GUEST's
# check (issue 40, item 9): nine simulated nodes of 10,000 users each fed
# to the cluster's presence code, white-box: `make bench-presence`.
ifeq ($(NOCLUSTER),)
$(O)/tests/bench/bench_presence.o: MOD_CFLAGS = $(call pc,--cflags,$(DAEMON_PKGS))
$(O)/tests/bench/bench_presence: $(O)/tests/bench/bench_presence.o \
    $(filter-out $(O)/daemon/main.o,$(DAEMON_SRCS:%.c=$(O)/%.o)) \
    $(O)/gen/webfiles.o $(BOT_OBJS) $(PROTO_LIB) $(TOURNEY_LIB) $(ENGINE_LIB) $(RULES_LIB)
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(call pc,--libs,$(DAEMON_PKGS)) $(DAEMON_LIBS) $(LDLIBS_ALL)

BENCHES += presence
BENCH_BINS += $(O)/tests/bench/bench_presence
.PHONY: bench-presence
bench-presence: $(O)/tests/bench/bench_presence
	$(O)/tests/bench/bench_presence

# A node's presence parsed once (roster.c): every line as proto_parse
# gives it, names found in any case; fast, every pass.
$(O)/tests/unit/test_roster: $(O)/tests/unit/test_roster.o $(O)/daemon/cluster/roster.o \
    $(O)/daemon/cluster/clustermsg.o $(O)/daemon/roomid.o $(PROTO_LIB) $(RULES_LIB)
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(CMOCKA_LIBS) $(LDLIBS_ALL)

TESTS += $(O)/tests/unit/test_roster
else
NOT_BUILT += test_roster
endif

# libFuzzer targets for the browser's side of the game port (issue 41): the
# HTTP request path (http.c, fed in pieces and answered as wsline.c does)
# and the WebSocket frame path (wsline.c itself over tlsio.c on a socket pair).
FUZZ_WEB_LIBS := $(call pc,--libs,libevent libevent_openssl openssl) $(DAEMON_LIBS)
FUZZERS += http ws
$(FUZZ_DIR)/fuzz_http: tests/fuzz/fuzz_http.c daemon/http.c daemon/http.h $(WEBFILES_C)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ tests/fuzz/fuzz_http.c daemon/http.c $(WEBFILES_C) \
	    $(FUZZ_WEB_LIBS)

.PHONY: fuzz-http
fuzz-http: $(FUZZ_DIR)/fuzz_http
	@mkdir -p $(FUZZ_DIR)/corpus-http
	$(FUZZ_DIR)/fuzz_http -max_total_time=$(FUZZ_SECONDS) -max_len=12000 \
	    $(FUZZ_DIR)/corpus-http tests/fuzz/corpus/http

$(FUZZ_DIR)/fuzz_ws: tests/fuzz/fuzz_ws.c daemon/wsline.c daemon/tlsline.c daemon/tlsio.c \
    daemon/clock.c daemon/http.c tests/unit/tlspair.c daemon/wsline.h daemon/tlsline.h \
    daemon/tlsio.h daemon/transport.h daemon/http.h tests/unit/tlspair.h $(WEBFILES_C)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ tests/fuzz/fuzz_ws.c daemon/wsline.c daemon/tlsline.c \
	    daemon/tlsio.c daemon/clock.c daemon/http.c tests/unit/tlspair.c $(WEBFILES_C) \
	    $(FUZZ_WEB_LIBS)

.PHONY: fuzz-ws
fuzz-ws: $(FUZZ_DIR)/fuzz_ws
	@mkdir -p $(FUZZ_DIR)/corpus-ws
	$(FUZZ_DIR)/fuzz_ws -max_total_time=$(FUZZ_SECONDS) -max_len=8192 \
	    $(FUZZ_DIR)/corpus-ws tests/fuzz/corpus/ws
