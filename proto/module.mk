# proto/: the wire protocol library (PROTOCOL.md), linked by the daemon and
# the client, with its unit tests and libFuzzer target.
PROTO_SRCS := proto/proto.c
PROTO_LIB := $(O)/libproto.a
# The key fingerprint both sides spell (keyprint.h), on OpenSSL; the
# fuzzers build only the parser.
$(O)/proto/keyprint.o: MOD_CFLAGS = $(call pc,--cflags,openssl)

$(PROTO_LIB): $(PROTO_SRCS:%.c=$(O)/%.o) $(O)/proto/keyprint.o
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(O)/tests/unit/test_proto: $(O)/tests/unit/test_proto.o $(PROTO_LIB) $(RULES_LIB)
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(call pc,--libs,cmocka) $(LDLIBS_ALL)

TESTS += $(O)/tests/unit/test_proto

# libFuzzer needs clang whatever CC is; it builds into its own directory.
FUZZ_CC ?= clang
FUZZ_DIR := build/fuzz
FUZZ_FLAGS := -std=c11 -g -O1 -D_DEFAULT_SOURCE -I. -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
FUZZERS += proto

$(FUZZ_DIR)/fuzz_proto: tests/fuzz/fuzz_proto.c $(PROTO_SRCS) $(RULES_SRCS) proto/proto.h rules/rules.h
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ tests/fuzz/fuzz_proto.c $(PROTO_SRCS) $(RULES_SRCS)

.PHONY: fuzz-proto
fuzz-proto: $(FUZZ_DIR)/fuzz_proto
	@mkdir -p $(FUZZ_DIR)/corpus-proto
	$(FUZZ_DIR)/fuzz_proto -max_total_time=$(FUZZ_SECONDS) -max_len=600 \
	    $(FUZZ_DIR)/corpus-proto tests/fuzz/corpus/proto
