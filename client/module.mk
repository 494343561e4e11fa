# client/: gomoku, the terminal client (issue 8): TLS connection with
# pinning, a model rebuilt from the server's lines, the ncurses UI and a
# script mode. Its tests live in tests/unit/test_client_* and tests/client/.
CLIENT_PKGS := ncursesw libevent libevent_openssl openssl
CLIENT_SRCS := client/model.c
CLIENT_LIB := $(O)/libclient.a

$(O)/client/%.o: MOD_CFLAGS = $(call pc,--cflags,$(CLIENT_PKGS))

$(CLIENT_LIB): $(CLIENT_SRCS:%.c=$(O)/%.o)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(O)/tests/unit/test_client_model: $(O)/tests/unit/test_client_model.o $(CLIENT_LIB) $(PROTO_LIB) $(ENGINE_LIB)
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(call pc,--libs,cmocka) $(LDLIBS_ALL)

TESTS += $(O)/tests/unit/test_client_model
