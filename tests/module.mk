# tests/: unit tests of the rules core (cmocka).
CMOCKA_CFLAGS = $(call pc,--cflags,cmocka)
CMOCKA_LIBS = $(call pc,--libs,cmocka)

# Tests read the shared material in $(SHARED_DIR) (tests/shared.h).
$(O)/tests/unit/%.o: MOD_CFLAGS = $(CMOCKA_CFLAGS)

$(O)/tests/unit/test_rules: $(O)/tests/unit/test_rules.o $(RULES_LIB)
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(CMOCKA_LIBS) $(LDLIBS_ALL)

TESTS += $(O)/tests/unit/test_rules

# The opening rules' machines (rules/opening.h, issue 46).
$(O)/tests/unit/test_opening: $(O)/tests/unit/test_opening.o $(RULES_LIB)
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(CMOCKA_LIBS) $(LDLIBS_ALL)

TESTS += $(O)/tests/unit/test_opening

# The Swiss pairing by the Dutch system (tourney/swiss.h, issue 48).
$(O)/tests/unit/test_swiss: $(O)/tests/unit/test_swiss.o $(TOURNEY_LIB)
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(CMOCKA_LIBS) $(LDLIBS_ALL)

TESTS += $(O)/tests/unit/test_swiss

# Accounts, ratings, the store and exports (issue 7): daemon modules that
# stand without the network, tested on their own. Production objects get
# their flags from their own module.mk (daemon/module.mk), never from here:
# they must compile the same whether or not a test is built.
$(O)/tests/unit/test_accounts.o $(O)/tests/unit/test_store.o: \
    MOD_CFLAGS = $(call pc,--cflags,cmocka openssl sqlite3 libpq)

$(O)/tests/unit/test_accounts: $(O)/tests/unit/test_accounts.o $(O)/daemon/auth.o \
    $(O)/daemon/glicko.o
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(CMOCKA_LIBS) $(call pc,--libs,openssl) $(LDLIBS_ALL)

$(O)/tests/unit/test_store: $(O)/tests/unit/test_store.o $(STORE_OBJS) \
    $(O)/daemon/auth.o $(O)/daemon/glicko.o $(O)/daemon/export.o $(O)/daemon/game.o \
    $(PROTO_LIB) $(RULES_LIB)
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(CMOCKA_LIBS) $(call pc,--libs,openssl sqlite3 libpq) $(LDLIBS_ALL)

TESTS += $(O)/tests/unit/test_accounts $(O)/tests/unit/test_store

# systemd's notify protocol (issue 9).
$(O)/tests/unit/test_notify: $(O)/tests/unit/test_notify.o $(O)/daemon/notify.o
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(CMOCKA_LIBS) $(LDLIBS_ALL)

TESTS += $(O)/tests/unit/test_notify

# libFuzzer target for the rules core against a brute-force referee (issue 9).
FUZZERS += rules
$(FUZZ_DIR)/fuzz_rules: tests/fuzz/fuzz_rules.c $(RULES_SRCS) rules/rules.h
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ tests/fuzz/fuzz_rules.c $(RULES_SRCS)

.PHONY: fuzz-rules
fuzz-rules: $(FUZZ_DIR)/fuzz_rules
	@mkdir -p $(FUZZ_DIR)/corpus-rules
	$(FUZZ_DIR)/fuzz_rules -max_total_time=$(FUZZ_SECONDS) -max_len=1024 \
	    $(FUZZ_DIR)/corpus-rules tests/fuzz/corpus/rules

# The opening machines (issue 46): refusals change nothing, and the log the
# store keeps plays every machine back exactly.
FUZZERS += opening
$(FUZZ_DIR)/fuzz_opening: tests/fuzz/fuzz_opening.c $(RULES_SRCS) rules/rules.h rules/opening.h
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ tests/fuzz/fuzz_opening.c $(RULES_SRCS)

.PHONY: fuzz-opening
fuzz-opening: $(FUZZ_DIR)/fuzz_opening
	@mkdir -p $(FUZZ_DIR)/corpus-opening
	$(FUZZ_DIR)/fuzz_opening -max_total_time=$(FUZZ_SECONDS) -max_len=1024 \
	    $(FUZZ_DIR)/corpus-opening

# The review's win chance (engine/winchance.h, issue 47).
$(O)/tests/unit/test_winchance: $(O)/tests/unit/test_winchance.o $(ENGINE_LIB) $(RULES_LIB)
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(CMOCKA_LIBS) $(LDLIBS_ALL)

TESTS += $(O)/tests/unit/test_winchance

# The bot worker pool (issue 6) with the real engine on a libevent loop.
$(O)/tests/unit/test_bots.o: MOD_CFLAGS = $(call pc,--cflags,cmocka libevent)
$(O)/tests/unit/test_bots: $(O)/tests/unit/test_bots.o $(O)/daemon/bots.o $(O)/daemon/workq.o \
    $(O)/daemon/clock.o $(ENGINE_LIB) $(RULES_LIB)
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(CMOCKA_LIBS) $(call pc,--libs,libevent) $(LDLIBS_ALL)

TESTS += $(O)/tests/unit/test_bots

# gomokud speaks systemd's notify protocol (issue 9).
$(O)/tests/systemd/test_notify_daemon: $(O)/tests/systemd/test_notify_daemon.o $(GOMOKUD)
	$(CC) $(LDFLAGS_ALL) -o $@ $< $(LDLIBS_ALL)

TESTS += $(O)/tests/systemd/test_notify_daemon

# The daemon's TLS stream (tlsio.c) over a real TLS link on a socket pair.
$(O)/tests/unit/test_tlsio.o $(O)/tests/unit/tlspair.o: MOD_CFLAGS = \
    $(call pc,--cflags,cmocka libevent openssl)
$(O)/tests/unit/test_tlsio: $(O)/tests/unit/test_tlsio.o $(O)/tests/unit/tlspair.o \
    $(O)/daemon/tlsio.o $(O)/daemon/clock.o
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(CMOCKA_LIBS) $(call pc,--libs,libevent openssl) $(LDLIBS_ALL)

TESTS += $(O)/tests/unit/test_tlsio

# The generic work queue with password checks as the jobs.
$(O)/tests/unit/test_workq.o: MOD_CFLAGS = $(call pc,--cflags,cmocka libevent openssl)
$(O)/tests/unit/test_workq: $(O)/tests/unit/test_workq.o $(O)/daemon/workq.o $(O)/daemon/auth.o
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(CMOCKA_LIBS) $(call pc,--libs,libevent openssl) $(LDLIBS_ALL)

TESTS += $(O)/tests/unit/test_workq

# Games survive kill -9 of the daemon (issue 7).
TCLIENT_PROGS += $(O)/tests/daemon/test_persist

TESTS += $(O)/tests/daemon/test_persist

# The opening rules on the real daemon: every stage, every refusal, and
# kill -9 mid-opening (issue 46).
TCLIENT_PROGS += $(O)/tests/daemon/test_openings

TESTS += $(O)/tests/daemon/test_openings

# Accounts, ratings and the archive on the real daemon (issue 7).
TCLIENT_PROGS += $(O)/tests/daemon/test_accounts

TESTS += $(O)/tests/daemon/test_accounts

# Ratings in view: RATINGS, RATED, the snapshot's line, 417 for guests
# (issue 43, item 7).
TCLIENT_PROGS += $(O)/tests/daemon/test_ratings

TESTS += $(O)/tests/daemon/test_ratings

# Login tokens (REMEMBER, AUTH, LOGOUT) and a guest's sign-in (issue 43).
TCLIENT_PROGS += $(O)/tests/daemon/test_remember

TESTS += $(O)/tests/daemon/test_remember

# A player's journey: takeover, BYE and close_notify, SEEKS, CHALLENGE, the
# certificate's names and fingerprint (issue 25).
TCLIENT_PROGS += $(O)/tests/daemon/test_journey

TESTS += $(O)/tests/daemon/test_journey

# What persistence costs the event loop per move (issue 7): `make bench-store`.
$(O)/tests/bench/bench_store: $(O)/tests/bench/bench_store.o $(STORE_OBJS) \
    $(O)/daemon/auth.o $(O)/daemon/glicko.o
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(call pc,--libs,openssl sqlite3 libpq) $(LDLIBS_ALL)

BENCHES += store
BENCH_BINS += $(O)/tests/bench/bench_store
.PHONY: bench-store
bench-store: $(O)/tests/bench/bench_store
	$(O)/tests/bench/bench_store

# How long engine_stop takes to end a search (engine.h's promise; the unit
# test checks only that it is honoured): `make bench-stop`, figures only.
$(O)/tests/bench/bench_stop: $(O)/tests/bench/bench_stop.o $(ENGINE_LIB) $(RULES_LIB)
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(LDLIBS_ALL)

BENCHES += stop
BENCH_BINS += $(O)/tests/bench/bench_stop
.PHONY: bench-stop
bench-stop: $(O)/tests/bench/bench_stop
	$(O)/tests/bench/bench_stop

# The server's bots at the table (issue 6).
TCLIENT_PROGS += $(O)/tests/daemon/test_bots

TESTS += $(O)/tests/daemon/test_bots

# Hosted engines on the real gomokud: BOT play against one, forfeits.
TCLIENT_PROGS += $(O)/tests/daemon/test_engines
$(O)/tests/daemon/test_engines.o: MOD_CFLAGS = $(call pc,--cflags,openssl) \
    -DGOMOKUD_BIN='"$(GOMOKUD)"' -DPBRAIN='"$(BINDIR)/pbrain-gomoku"' \
    -DFIXTURE='"$(O)/tests/bot/fixture_brain"'
$(O)/tests/daemon/test_engines: | $(BINDIR)/pbrain-gomoku $(O)/tests/bot/fixture_brain
TESTS += $(O)/tests/daemon/test_engines

# Soak and chaos on the real daemon, bounded in time (issue 9): `make soak`,
# SOAK_SECONDS=N for longer. Not part of `make test`.
$(O)/tests/soak/soak.o: MOD_CFLAGS = $(call pc,--cflags,openssl sqlite3) -DGOMOKUD_BIN='"$(GOMOKUD)"'
TCLIENT_PROGS += $(O)/tests/soak/soak
$(O)/tests/soak/soak: TCLIENT_PKGS = sqlite3

# SOAK_MODE=crash: rated games while the daemon is killed with SIGKILL at
# random and started again (tests/soak/crash.c, 600 s by default).
$(O)/tests/soak/crash.o: MOD_CFLAGS = $(call pc,--cflags,openssl sqlite3) -DGOMOKUD_BIN='"$(GOMOKUD)"'
TCLIENT_PROGS += $(O)/tests/soak/crash
$(O)/tests/soak/crash: TCLIENT_PKGS = sqlite3

BENCH_BINS += $(O)/tests/soak/crash
SOAK_MODE ?= load
.PHONY: soak
soak: $(O)/tests/soak/soak $(O)/tests/soak/crash $(GOMOKUD)
	$(O)/tests/soak/$(if $(filter crash,$(SOAK_MODE)),crash,soak)

# The layers of ARCHITECTURE.md, checked on the includes (and what they
# include); the core reaches the cluster by no symbol either (issue 40).
TESTS += tests/test_layers.sh tests/test_world.sh tests/cycles.sh tests/test_quickstart.sh

# The web client's protocol parser against every transcript line of
# PROTOCOL.md, and its model (client/web/model.js, no DOM) on the
# transcripts of tests/model/ that test_client_model reads too (node,
# fast: every pass). test_i18n.mjs: the web's language choice, its
# printf directives and its words for every error code and reason.
TESTS += tests/browser/test_proto.mjs tests/browser/test_model.mjs tests/browser/test_i18n.mjs

# The web board in a real browser (issue 24): slow, so one pass only, the
# plain gcc build; the sanitizer passes test the same daemon C through
# tests/daemon/test_ws. TEST_FILTER=browser make test runs these alone.
# test_pwa.sh: the board installable and offline (issue 44, item 6), its
# service worker over a certificate of the test's own CA; TEST_FILTER=pwa.
ifeq ($(SANITIZE),)
ifneq ($(filter cc gcc,$(notdir $(CC))),)
TESTS += tests/browser/test_browser.sh
TESTS += tests/browser/test_pwa.sh
endif
endif

# Hosted engines under the shipped unit (issue 49): systemd in a container
# (systemd-nspawn) starts gomokud.service as `make install` writes it, and
# unit_engines plays its engines from the host; about 20 s, one pass (the
# gcc one, as the browser's: the sanitizers' brains could not keep to the
# engines' memory). TEST_FILTER=unit_engines.
$(O)/tests/systemd/unit_engines.o: MOD_CFLAGS = $(call pc,--cflags,openssl)
TCLIENT_PROGS += $(O)/tests/systemd/unit_engines
ifeq ($(SANITIZE),)
ifneq ($(filter cc gcc,$(notdir $(CC))),)
TEST_HELPERS += $(O)/tests/systemd/unit_engines $(O)/tests/bot/fixture_brain
TESTS += tests/systemd/test_unit_engines.sh
endif
endif

# The one spelling of a room id (issue 40): every part reads ids there.
$(O)/tests/unit/test_roomid: $(O)/tests/unit/test_roomid.o $(O)/daemon/roomid.o
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(CMOCKA_LIBS) $(LDLIBS_ALL)

TESTS += $(O)/tests/unit/test_roomid

# The failed-login table (issue 41): a flood of new keys keeps the counts.
$(O)/tests/unit/test_loginlimit: $(O)/tests/unit/test_loginlimit.o $(O)/daemon/loginlimit.o
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(CMOCKA_LIBS) $(LDLIBS_ALL)

TESTS += $(O)/tests/unit/test_loginlimit

# The hourly allowances (ANALYSE's, REVIEW's; issue 47).
$(O)/tests/unit/test_allowance: $(O)/tests/unit/test_allowance.o $(O)/daemon/allowance.o
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(CMOCKA_LIBS) $(LDLIBS_ALL)

TESTS += $(O)/tests/unit/test_allowance

# Rooms, sessions, the lobby and challenges linked alone (issue 40): the
# one-node world, no store, and no connection, command, transport or
# cluster object. http.o (with the files it serves) comes with metrics.o,
# whose listener parses its requests with it.
CORE_TEST_OBJS := $(addprefix $(O)/daemon/,room.o session.o lobby.o challenge.o world.o gc.o \
	roomid.o archive.o store.o store_sqlite.o store_pg.o workq.o glicko.o metrics.o http.o \
	wire.o auth.o clock.o log.o game.o config.o cidr.o addrcount.o) $(O)/gen/webfiles.o
$(O)/tests/unit/test_core.o: MOD_CFLAGS = $(call pc,--cflags,cmocka libevent openssl)
$(O)/tests/unit/test_core: $(O)/tests/unit/test_core.o $(CORE_TEST_OBJS) $(PROTO_LIB) $(RULES_LIB)
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(CMOCKA_LIBS) \
	    $(call pc,--libs,libevent libevent_pthreads openssl sqlite3 libpq) -lhttp_parser \
	    $(LDLIBS_ALL)

TESTS += $(O)/tests/unit/test_core

# A build without the cluster (WITH_CLUSTER=0) builds none of its tests:
# tests/run.sh names them as not built in its summary, never silently.
ifneq ($(NOCLUSTER),)
NOT_BUILT += test_clustermsg test_cluster test_cluster_bots test_cluster_engines test_cluster_lobby test_lease test_batch \
    test_cluster_tourney test_cluster_league test_cluster_review withredis
CLUSTER_PASS :=
else
# The messages between cluster nodes (issue 26): parsed and formatted,
# garbage refused; fast, every pass.
$(O)/tests/unit/test_clustermsg: $(O)/tests/unit/test_clustermsg.o \
    $(O)/daemon/cluster/clustermsg.o $(O)/daemon/roomid.o $(PROTO_LIB) $(RULES_LIB)
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(CMOCKA_LIBS) $(LDLIBS_ALL)

TESTS += $(O)/tests/unit/test_clustermsg

# Three nodes on a Redis the test starts (issue 26, the nodes): slow, so one
# pass only, the plain gcc build (as the browser's); CLUSTER_TEST=1 adds it
# to any other build (CI: the ASan+UBSan pass). TEST_FILTER=cluster make
# test runs it (and test_clustermsg) alone.
CLUSTER_PASS := $(CLUSTER_TEST)$(if $(SANITIZE),,$(filter cc gcc,$(notdir $(CC))))
endif
ifneq ($(CLUSTER_PASS),)
$(O)/tests/daemon/test_cluster.o: MOD_CFLAGS = $(call pc,--cflags,openssl) \
    -DGOMOKUD_BIN='"$(GOMOKUD)"' -DGOMOKU_BIN='"$(BINDIR)/gomoku"'
TCLIENT_PROGS += $(O)/tests/daemon/test_cluster
$(O)/tests/daemon/test_cluster: $(O)/tests/daemon/redisrun.o | $(BINDIR)/gomoku

TESTS += $(O)/tests/daemon/test_cluster

# Bots anywhere (issue 26, item 5): a node without workers, two with; the
# same pass as test_cluster.
$(O)/tests/daemon/test_cluster_bots.o: MOD_CFLAGS = $(call pc,--cflags,openssl) \
    -DGOMOKUD_BIN='"$(GOMOKUD)"'
TCLIENT_PROGS += $(O)/tests/daemon/test_cluster_bots
$(O)/tests/daemon/test_cluster_bots: $(O)/tests/daemon/redisrun.o

TESTS += $(O)/tests/daemon/test_cluster_bots

# Hosted engines across nodes (issue 49): a node without engines plays
# another node's; the same pass as test_cluster_bots.
$(O)/tests/daemon/test_cluster_engines.o: MOD_CFLAGS = $(call pc,--cflags,openssl) \
    -DGOMOKUD_BIN='"$(GOMOKUD)"' -DPBRAIN='"$(BINDIR)/pbrain-gomoku"' \
    -DFIXTURE='"$(O)/tests/bot/fixture_brain"' -DGOMOKUCTL_BIN='"$(GOMOKUCTL)"'
TCLIENT_PROGS += $(O)/tests/daemon/test_cluster_engines
$(O)/tests/daemon/test_cluster_engines: $(O)/tests/daemon/redisrun.o | $(BINDIR)/pbrain-gomoku \
    $(O)/tests/bot/fixture_brain $(BINDIR)/gomokuctl

TESTS += $(O)/tests/daemon/test_cluster_engines

# The lobby across nodes (issue 26, item 2): seeks and challenges need the
# shared database, so tests/pg/test_pg.sh runs it (the same pass).
$(O)/tests/daemon/test_cluster_lobby.o: MOD_CFLAGS = $(call pc,--cflags,openssl) \
    -DGOMOKUD_BIN='"$(GOMOKUD)"' -DGOMOKUCTL_BIN='"$(GOMOKUCTL)"'
TCLIENT_PROGS += $(O)/tests/daemon/test_cluster_lobby
$(O)/tests/daemon/test_cluster_lobby: $(O)/tests/daemon/redisrun.o | $(BINDIR)/gomokuctl

TEST_HELPERS += $(O)/tests/daemon/test_cluster_lobby

# A bot's move before the reviews' positions on a cluster's worker (issue
# 47): on one PostgreSQL database, so tests/pg/test_pg.sh runs it, in this
# pass.
$(O)/tests/daemon/test_cluster_review.o: MOD_CFLAGS = $(call pc,--cflags,openssl) \
    -DGOMOKUD_BIN='"$(GOMOKUD)"'
TCLIENT_PROGS += $(O)/tests/daemon/test_cluster_review
$(O)/tests/daemon/test_cluster_review: $(O)/tests/daemon/redisrun.o

TEST_HELPERS += $(O)/tests/daemon/test_cluster_review

# A node dies, the games live (issue 26, item 3): leases and adoption on
# one PostgreSQL database, so tests/pg/test_pg.sh runs it, in this pass.
$(O)/tests/daemon/test_lease.o: MOD_CFLAGS = $(call pc,--cflags,openssl) \
    -DGOMOKUD_BIN='"$(GOMOKUD)"' -DPBRAIN='"$(BINDIR)/pbrain-gomoku"'
TCLIENT_PROGS += $(O)/tests/daemon/test_lease
$(O)/tests/daemon/test_lease: $(O)/tests/daemon/redisrun.o | $(BINDIR)/pbrain-gomoku

TEST_HELPERS += $(O)/tests/daemon/test_lease

# A tournament on two nodes (issue 48, item 3): its runner killed, the
# other takes it over; the shared database, so tests/pg/test_pg.sh runs it.
$(O)/tests/daemon/test_cluster_tourney.o: MOD_CFLAGS = $(call pc,--cflags,openssl) \
    -DGOMOKUD_BIN='"$(GOMOKUD)"'
TCLIENT_PROGS += $(O)/tests/daemon/test_cluster_tourney
$(O)/tests/daemon/test_cluster_tourney: $(O)/tests/daemon/redisrun.o

TEST_HELPERS += $(O)/tests/daemon/test_cluster_tourney

# An engine league on two nodes (issue 49): both try to make its event, the
# database's key lets one; the same table on both. tests/pg/test_pg.sh.
$(O)/tests/daemon/test_cluster_league.o: MOD_CFLAGS = $(call pc,--cflags,openssl) \
    -DGOMOKUD_BIN='"$(GOMOKUD)"'
TCLIENT_PROGS += $(O)/tests/daemon/test_cluster_league
$(O)/tests/daemon/test_cluster_league: $(O)/tests/daemon/redisrun.o

TEST_HELPERS += $(O)/tests/daemon/test_cluster_league

# Group commit on the store thread (issue 45, item 4): a fenced room's
# write in a group, PostgreSQL gone mid-group, and a kill -9 before a
# group's commit (the fault build); tests/pg/test_pg.sh runs it, in this
# pass (a cluster node, on Redis, fences its writes).
$(O)/tests/daemon/test_batch.o: MOD_CFLAGS = $(call pc,--cflags,openssl) \
    -DGOMOKUD_BIN='"$(GOMOKUD)"' -DGOMOKUD_FAULTS_BIN='"$(GOMOKUD_FAULTS)"'
TCLIENT_PROGS += $(O)/tests/daemon/test_batch
$(O)/tests/daemon/test_batch: $(O)/tests/daemon/redisrun.o | $(GOMOKUD_FAULTS)

TEST_HELPERS += $(O)/tests/daemon/test_batch

# The black-box tests against a cluster node (tests/pg/test_pg.sh runs them
# under it, on PostgreSQL and a Redis of its own).
TCLIENT_PROGS += $(O)/tests/daemon/withredis
$(O)/tests/daemon/withredis: $(O)/tests/daemon/redisrun.o

TEST_HELPERS += $(O)/tests/daemon/withredis
endif

# The PROXY protocol v2 header parser (issue 26, the front).
$(O)/tests/unit/test_proxyhdr: $(O)/tests/unit/test_proxyhdr.o $(O)/daemon/proxyhdr.o
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(CMOCKA_LIBS) $(LDLIBS_ALL)

TESTS += $(O)/tests/unit/test_proxyhdr

# The store on PostgreSQL (issue 26): tests/pg/test_pg.sh starts its own
# server and runs the store's tests, the outage test and, in the plain
# build, the daemon's black-box tests against it. test_pgdown runs only
# under it (it needs the server), so it is built, not listed.
TCLIENT_PROGS += $(O)/tests/daemon/test_pgdown
$(O)/tests/daemon/test_pgdown: $(O)/tests/daemon/wsframe.o

TEST_HELPERS += $(O)/tests/daemon/test_pgdown
TESTS += tests/pg/test_pg.sh

# A PostgreSQL store's cost per move beside SQLite's, same run, loopback:
# `make bench-pg` (tests/pg/bench_pg.sh; PG_LOAD_ARGS for the load run).
BENCHES += pg
.PHONY: bench-pg
bench-pg: $(O)/tests/bench/bench_store $(O)/tests/load/load $(GOMOKUD)
	O=$(O) BINDIR=$(BINDIR) sh tests/pg/bench_pg.sh

# A relayed move's CPU beside a redis-server SET's, both over TLS, same
# run (issue 45): `make bench-redis` (tests/load/bench_redis.sh; ROUNDS,
# LOAD_GAMES, LOAD_SECONDS, LOAD_ARGS, REDIS_CONNS, REDIS_SETS).
BENCHES += redis
.PHONY: bench-redis
bench-redis: $(O)/tests/load/load $(GOMOKUD)
	O=$(O) BINDIR=$(BINDIR) sh tests/load/bench_redis.sh

# A review's time at the default review-ms, alone and beside 20 live bot
# games, and the bot moves' wait while 5 reviews run against none (issue
# 47), side by side in one run: `make bench-reviewlat`, REVIEWLAT_ARGS='-B
# old/gomokud -n 2' to put another binary beside this one (figures only).
REVIEWLAT_ARGS ?=
TCLIENT_PROGS += $(O)/tests/load/reviewlat

BENCHES += reviewlat
BENCH_BINS += $(O)/tests/load/reviewlat
.PHONY: bench-reviewlat
bench-reviewlat: $(O)/tests/load/reviewlat $(GOMOKUD)
	$(O)/tests/load/reviewlat -b $(GOMOKUD) $(REVIEWLAT_ARGS)

# The same on a cluster (issue 47): node a without workers, node b's 2
# workers searching every bot move and review position through Redis:
# `make bench-reviewlat-cluster` (the same REVIEWLAT_ARGS).
$(O)/tests/load/reviewlat: $(O)/tests/daemon/redisrun.o
BENCHES += reviewlat-cluster
.PHONY: bench-reviewlat-cluster
bench-reviewlat-cluster: $(O)/tests/load/reviewlat $(GOMOKUD)
	$(O)/tests/load/reviewlat -c -b $(GOMOKUD) $(REVIEWLAT_ARGS)

# An arena of 1,000 simulated guests (issue 48), each game resigned by
# black as it starts so that players are paired again wave after wave:
# the daemon's CPU per game started and each wave's pairing time
# (gomokud_tourney_pairing_seconds): `make bench-arena`, ARENABENCH_ARGS='-n
# 250' for fewer players, '-B old/gomokud' to put another binary beside
# this one (figures only).
ARENABENCH_ARGS ?=
TCLIENT_PROGS += $(O)/tests/load/arenabench

BENCHES += arena
BENCH_BINS += $(O)/tests/load/arenabench
.PHONY: bench-arena
bench-arena: $(O)/tests/load/arenabench $(GOMOKUD)
	$(O)/tests/load/arenabench -b $(GOMOKUD) $(ARENABENCH_ARGS)

# A daemon test stopped by SIGTERM, SIGINT or SIGHUP kills what it started
# and removes its temporary directories (tclient.h, tc_child): every pass.
TCLIENT_PROGS += $(O)/tests/daemon/test_sigclean
$(O)/tests/daemon/test_sigclean: $(O)/tests/daemon/redisrun.o

TESTS += $(O)/tests/daemon/test_sigclean

# gomoku-bot (issue 49) on a real gomokud with pbrain-gomoku as its brain:
# whole games against a test client, the brain killed mid-game, challenges
# declined by the filters and opening rules, and restarts that RESUME.
TCLIENT_PROGS += $(O)/tests/bot/test_gomoku_bot
$(O)/tests/bot/test_gomoku_bot.o: MOD_CFLAGS = $(call pc,--cflags,openssl) \
    -DGOMOKU_BOT='"$(BINDIR)/gomoku-bot"' -DPBRAIN='"$(BINDIR)/pbrain-gomoku"' \
    -DGOMOKUD_BIN='"$(GOMOKUD)"' -DFIXTURE='"$(O)/tests/bot/fixture_brain"'
$(O)/tests/bot/test_gomoku_bot: $(RULES_LIB) | $(BINDIR)/gomoku-bot $(BINDIR)/pbrain-gomoku \
    $(O)/tests/bot/fixture_brain

TESTS += $(O)/tests/bot/test_gomoku_bot

# Tournaments under attack (issue 48): TWATCH floods of unknown and old
# events, a follower that never reads, TJOIN/TLEAVE churn, TCREATE floods.
# It reads the daemon's RSS; CI runs it in the ASan+UBSan pass only
# (.ci/run's ATTACKS).
$(O)/tests/daemon/test_tourney_attack.o: MOD_CFLAGS = $(call pc,--cflags,openssl sqlite3) \
    -DGOMOKUD_BIN='"$(GOMOKUD)"'
TCLIENT_PROGS += $(O)/tests/daemon/test_tourney_attack
$(O)/tests/daemon/test_tourney_attack: TCLIENT_PKGS = sqlite3
TESTS += $(O)/tests/daemon/test_tourney_attack

# The paths people walk in a tournament's game: a second device's LOGIN,
# a dropped connection RESUMEd, a player gone for good (every pass).
$(O)/tests/daemon/test_tourney_paths.o: MOD_CFLAGS = $(call pc,--cflags,openssl) \
    -DGOMOKUD_BIN='"$(GOMOKUD)"'
TCLIENT_PROGS += $(O)/tests/daemon/test_tourney_paths
TESTS += $(O)/tests/daemon/test_tourney_paths

# The one link of every program on tests/daemon/tclient.o (TCLIENT_PROGS,
# from every module.mk read before this one): X.o, tclient.o and the
# objects a line of X's own adds, with OpenSSL and TCLIENT_PKGS (a
# target's own pkg-config modules); gomokud built first, as they start it.
$(TCLIENT_PROGS): %: %.o $(O)/tests/daemon/tclient.o | $(GOMOKUD)
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(call pc,--libs,openssl $(TCLIENT_PKGS)) $(LDLIBS_ALL)

# The tournaments' pure parts (tourney/, issue 48): Berger tables.
$(O)/tests/unit/test_roundrobin: $(O)/tests/unit/test_roundrobin.o $(TOURNEY_LIB)
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(CMOCKA_LIBS) $(LDLIBS_ALL)

TESTS += $(O)/tests/unit/test_roundrobin

# An arena's points (fire) and pairings, with 1,000 waiting timed.
$(O)/tests/unit/test_arena: $(O)/tests/unit/test_arena.o $(TOURNEY_LIB)
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(CMOCKA_LIBS) $(LDLIBS_ALL)

TESTS += $(O)/tests/unit/test_arena

# Standings and tie-breaks, on small tournaments worked by hand.
$(O)/tests/unit/test_standings: $(O)/tests/unit/test_standings.o $(TOURNEY_LIB)
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(CMOCKA_LIBS) $(LDLIBS_ALL)

TESTS += $(O)/tests/unit/test_standings

# A league's Bayesian Elo (tourney/elo.h, issue 49) on results made to measure.
$(O)/tests/unit/test_elo: $(O)/tests/unit/test_elo.o $(TOURNEY_LIB)
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(CMOCKA_LIBS) $(LDLIBS_ALL)

TESTS += $(O)/tests/unit/test_elo

# A league's table (tourney/ltable.h, issue 49): Elo, bars, points, draws.
$(O)/tests/unit/test_ltable: $(O)/tests/unit/test_ltable.o $(TOURNEY_LIB)
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(CMOCKA_LIBS) $(LDLIBS_ALL)

TESTS += $(O)/tests/unit/test_ltable

# gomoku-bot's brain driver (bot/brain.h, issue 49): games of real brains
# (pbrain-gomoku, the sparring s002 of ../shared) through it, and the
# failures with tests/bot/fixture_brain, a brain that misbehaves on purpose.
$(O)/tests/unit/test_brain.o: MOD_CFLAGS = $(call pc,--cflags,cmocka libevent) \
    -DPBRAIN='"$(BINDIR)/pbrain-gomoku"' -DFIXTURE='"$(O)/tests/bot/fixture_brain"'
$(O)/tests/unit/test_brain: $(O)/tests/unit/test_brain.o $(BOT_OBJS) $(RULES_LIB) | \
    $(BINDIR)/pbrain-gomoku $(O)/tests/bot/fixture_brain
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(CMOCKA_LIBS) $(call pc,--libs,libevent libseccomp) $(LDLIBS_ALL)
$(O)/tests/bot/fixture_brain: $(O)/tests/bot/fixture_brain.o
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(LDLIBS_ALL)

TEST_HELPERS += $(O)/tests/bot/fixture_brain
TESTS += $(O)/tests/unit/test_brain

# A brain's sandbox (bot/sandbox.h) on this kernel: what a sandboxed child
# may and may not do, beside a control child without it.
$(O)/tests/unit/test_sandbox: $(O)/tests/unit/test_sandbox.o $(O)/bot/sandbox.o
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(CMOCKA_LIBS) $(call pc,--libs,libseccomp) -lpthread $(LDLIBS_ALL)

TESTS += $(O)/tests/unit/test_sandbox

# The server's hosted engines (daemon/hosted.h, issue 49): games of real
# brains in the sandbox through it, forfeits, limits. The module is in
# gomokud through the config's engine lines and BOT play (test_engines).
$(O)/tests/unit/test_hosted.o: MOD_CFLAGS = $(call pc,--cflags,cmocka libevent) \
    -DPBRAIN='"$(BINDIR)/pbrain-gomoku"' -DFIXTURE='"$(O)/tests/bot/fixture_brain"'
$(O)/tests/unit/test_hosted: $(O)/tests/unit/test_hosted.o $(O)/daemon/hosted.o $(BOT_OBJS) \
    $(RULES_LIB) | $(BINDIR)/pbrain-gomoku $(O)/tests/bot/fixture_brain
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(CMOCKA_LIBS) $(call pc,--libs,libevent libseccomp) $(LDLIBS_ALL)

TESTS += $(O)/tests/unit/test_hosted

# gomoku-bot's config file and challenge filters (bot/conf.h, bot/filter.h).
$(O)/tests/bot/test_bot_conf.o: MOD_CFLAGS = $(CMOCKA_CFLAGS)
$(O)/tests/bot/test_bot_conf: $(O)/tests/bot/test_bot_conf.o $(O)/bot/conf.o $(O)/bot/filter.o \
    $(PROTO_LIB) $(RULES_LIB)
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(CMOCKA_LIBS) $(LDLIBS_ALL)

TESTS += $(O)/tests/bot/test_bot_conf
