# client/: gomoku, the terminal client (issue 8): TLS connection with
# pinning, a model rebuilt from the server's lines, the ncurses UI and a
# script mode. Its tests live in tests/unit/test_client_* and tests/client/.
CLIENT_PKGS := ncursesw libevent libevent_openssl openssl
CLIENT_SRCS := client/model.c client/pin.c client/net.c client/script.c client/session.c \
	client/tui.c client/input.c client/state.c client/config.c client/xdg.c client/i18n.c
CLIENT_LIB := $(O)/libclient.a

# I18N_BUILD_DIR: the catalogs (po/module.mk) as the build leaves them,
# from the program's directory, bin/ or $(O)/bin (i18n.c); installed, they
# are in ../share/locale.
$(O)/client/%.o: MOD_CFLAGS = $(call pc,--cflags,$(CLIENT_PKGS)) \
    -DI18N_BUILD_DIR='"$(if $(filter $(O)/bin,$(BINDIR)),../locale,../$(O)/locale)"'

$(CLIENT_LIB): $(CLIENT_SRCS:%.c=$(O)/%.o)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(O)/tests/unit/test_client_model: $(O)/tests/unit/test_client_model.o $(CLIENT_LIB) $(PROTO_LIB) $(RULES_LIB)
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(call pc,--libs,cmocka) $(LDLIBS_ALL)

$(O)/tests/unit/test_client_input.o: MOD_CFLAGS = $(CMOCKA_CFLAGS) $(call pc,--cflags,ncursesw)
$(O)/tests/unit/test_client_input: $(O)/tests/unit/test_client_input.o $(CLIENT_LIB) $(PROTO_LIB) $(RULES_LIB)
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(call pc,--libs,cmocka ncursesw) $(LDLIBS_ALL)

$(O)/tests/unit/test_client_pin: $(O)/tests/unit/test_client_pin.o $(CLIENT_LIB)
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(call pc,--libs,cmocka) $(LDLIBS_ALL)

# The catalogs and the widths: the build's catalogs, read from the top of
# the tree where tests run.
$(O)/tests/unit/test_client_i18n.o: MOD_CFLAGS = $(CMOCKA_CFLAGS) -DTEST_LOCALEDIR='"$(O)/locale"'
$(O)/tests/unit/test_client_i18n: $(O)/tests/unit/test_client_i18n.o $(CLIENT_LIB) $(PROTO_LIB) \
    $(RULES_LIB) | $(MO_FILES)
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(call pc,--libs,cmocka) $(LDLIBS_ALL)

TESTS += $(O)/tests/unit/test_client_model $(O)/tests/unit/test_client_input \
	$(O)/tests/unit/test_client_pin $(O)/tests/unit/test_client_i18n

$(BINDIR)/gomoku: $(O)/client/main.o $(CLIENT_LIB) $(PROTO_LIB) $(RULES_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(call pc,--libs,$(CLIENT_PKGS)) $(LDLIBS_ALL)

BINS += $(BINDIR)/gomoku

# Integration tests: shell scripts against fakesrv, a scripted TLS server.
$(O)/tests/client/fakesrv: $(O)/tests/client/fakesrv.o
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(call pc,--libs,openssl) $(LDLIBS_ALL)

CLIENT_SH_TESTS := tests/client/test_pin.sh tests/client/test_script.sh tests/client/test_tui.sh \
	tests/client/test_daemon_tui.sh tests/client/test_man.sh tests/client/test_journey.sh \
	tests/client/test_tui_zh.sh tests/client/test_link_tui.sh tests/client/test_take_tui.sh \
	tests/client/test_away_tui.sh tests/client/test_opening_tui.sh tests/client/test_review_tui.sh \
	tests/client/test_review_daemon_tui.sh tests/client/test_puzzle_tui.sh \
	tests/client/test_puzzle_daemon_tui.sh tests/client/test_tourney_daemon_tui.sh \
	tests/client/test_botaccount_tui.sh tests/client/test_league_tui.sh \
	tests/client/test_league_daemon_tui.sh
# Whole games under every opening rule in tmux against the daemon, two
# clients and a client against a bot (issue 46): minutes, so one pass only,
# the plain gcc build, as the browser's.
CLIENT_HEAVY_TESTS := tests/client/test_opening_duo_tui.sh tests/client/test_opening_bot_tui.sh
$(CLIENT_SH_TESTS) $(CLIENT_HEAVY_TESTS): $(O)/tests/client/fakesrv $(BINDIR)/gomoku $(MO_FILES)
# issue 49's rated game against gomoku-bot running our brain, with a hosted engine
tests/client/test_botaccount_tui.sh: $(BINDIR)/gomoku-bot $(BINDIR)/gomokuctl $(BINDIR)/pbrain-gomoku
TESTS += $(CLIENT_SH_TESTS)
ifeq ($(SANITIZE),)
ifneq ($(filter cc gcc,$(notdir $(CC))),)
TESTS += $(CLIENT_HEAVY_TESTS)
endif
endif

# libFuzzer target for the model (see proto/module.mk for FUZZ_CC, FUZZ_FLAGS).
FUZZERS += client_model
# (the model words its log lines through the catalogs: i18n.c)
$(FUZZ_DIR)/fuzz_client_model: tests/fuzz/fuzz_client_model.c client/model.c client/model.h \
    client/i18n.c client/i18n.h $(PROTO_SRCS) $(RULES_SRCS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ tests/fuzz/fuzz_client_model.c client/model.c client/i18n.c \
	    $(PROTO_SRCS) $(RULES_SRCS)

.PHONY: fuzz-client_model
fuzz-client_model: $(FUZZ_DIR)/fuzz_client_model
	@mkdir -p $(FUZZ_DIR)/corpus-client_model
	$(FUZZ_DIR)/fuzz_client_model -max_total_time=$(FUZZ_SECONDS) -max_len=4096 \
	    $(FUZZ_DIR)/corpus-client_model tests/fuzz/corpus/client_model

FUZZERS += client_input
$(FUZZ_DIR)/fuzz_client_input: tests/fuzz/fuzz_client_input.c client/input.c client/tui.c client/model.c client/i18n.c client/input.h client/tui.h client/model.h client/i18n.h $(PROTO_SRCS) $(RULES_SRCS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) $(call pc,--cflags,ncursesw) -o $@ tests/fuzz/fuzz_client_input.c \
	    client/input.c client/tui.c client/model.c client/i18n.c $(PROTO_SRCS) $(RULES_SRCS) \
	    $(call pc,--libs,ncursesw)

.PHONY: fuzz-client_input
fuzz-client_input: $(FUZZ_DIR)/fuzz_client_input
	@mkdir -p $(FUZZ_DIR)/corpus-client_input
	$(FUZZ_DIR)/fuzz_client_input -max_total_time=$(FUZZ_SECONDS) -max_len=2048 \
	    $(FUZZ_DIR)/corpus-client_input tests/fuzz/corpus/client_input
