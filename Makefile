# gomokud: top-level build. GNU make, C11.
#
#   make            build everything
#   make test       install missing Debian packages, build, run every test
#   make run        install missing Debian packages, build, start the main job
#   make deps       install (as root) or print the missing Debian packages
#   make install    gomokud, gomokuctl, gomoku, pbrain-gomoku, the unit, config and man
#                   pages under PREFIX (install-strip, uninstall; systemd/module.mk)
#   make bench      benchmarks (figures, never pass/fail)
#   make fuzz       libFuzzer targets for a set time (clang, ASan+UBSan)
#   make check-style  the C style (.clang-format) holds; make style applies it
#
# Variants: SANITIZE=address,undefined or SANITIZE=thread build into their own
# directory under build/ so they never mix objects with the default build.
# WERROR=1 turns warnings into errors (CI sets it). WITH_CLUSTER=0 builds a
# gomokud without the cluster (no hiredis; daemon/cluster/off.c refuses a
# configured one) into a directory of its own, its tests with it.

.DEFAULT_GOAL := all
SHELL := /bin/sh

CC ?= cc
ifeq ($(origin CC),default)
CC := cc
endif

PKGS := libevent libevent_openssl libevent_pthreads openssl sqlite3 ncursesw cmocka

comma := ,
WITH_CLUSTER ?= 1
NOCLUSTER := $(filter 0,$(WITH_CLUSTER))
VARIANT := $(if $(SANITIZE),san-$(subst $(comma),-,$(SANITIZE)),default)-$(notdir $(CC))$(if $(NOCLUSTER),-nocluster)
O := build/$(VARIANT)
# Release binaries land in bin/; sanitizer and WITH_CLUSTER=0 builds keep
# theirs beside their objects.
BINDIR := $(if $(SANITIZE)$(NOCLUSTER),$(O)/bin,bin)

JOBS ?= $(shell nproc 2>/dev/null || echo 2)
OPT ?= -O2
WARN := -Wall -Wextra -Wpedantic -Wshadow
ifeq ($(WERROR),1)
WARN += -Werror
endif
CPPFLAGS_ALL := -D_DEFAULT_SOURCE -I. $(CPPFLAGS)
CFLAGS_ALL := -std=c11 $(OPT) -g $(WARN) -MMD -MP $(CFLAGS)
LDFLAGS_ALL := $(LDFLAGS)
ifneq ($(SANITIZE),)
CFLAGS_ALL += -fsanitize=$(SANITIZE) -fno-omit-frame-pointer
LDFLAGS_ALL += -fsanitize=$(SANITIZE)
ifneq ($(findstring undefined,$(SANITIZE)),)
CFLAGS_ALL += -fno-sanitize-recover=undefined
endif
endif
LDLIBS_ALL := -lpthread -lm

# pkg-config lookups, deferred so `make deps` works before the libraries exist.
pc = $(shell pkg-config $(1) $(2) 2>/dev/null)

# Each module appends to these from its own module.mk:
#   BINS     programs built by `make` (into $(BINDIR))
#   TESTS    test programs run by `make test` (exit 0 = pass)
#   TEST_HELPERS  programs the tests run (built by `make test`, not run by it)
#   BENCHES  names N with a phony target bench-N that `make bench` runs
#   BENCH_BINS  the benchmark programs, built by `make all` so CI compiles
#            them with warnings as errors too
#   FUZZERS  names N with a phony target fuzz-N that `make fuzz` runs
#   NOT_BUILT  tests this build leaves out (WITH_CLUSTER=0): named by
#            tests/run.sh in its summary
BINS :=
NOT_BUILT :=
TESTS :=
TEST_HELPERS :=
BENCHES :=
BENCH_BINS :=
FUZZERS :=
FUZZ_SECONDS ?= 60
# The shared test material (README.md); tests, benchmarks and targets read
# it here, by the rule of tests/shared.h and tests/shared.sh.
SHARED_DIR ?= ../shared
export SHARED_DIR

$(O)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_ALL) $(CFLAGS_ALL) $(MOD_CFLAGS) -c -o $@ $<

include rules/module.mk engine/module.mk tourney/module.mk bot/module.mk
include $(wildcard po/module.mk proto/module.mk daemon/module.mk ctl/module.mk client/module.mk tests/module.mk systemd/module.mk)

.PHONY: all deps deps-auto test check run run-main bench fuzz clean check-style style
all: $(BINS) $(TESTS) $(TEST_HELPERS) $(BENCH_BINS)

deps:
	@sh mk/deps.sh

# Install only when something is missing, so a set-up machine stays quiet.
deps-auto:
	@sh mk/deps.sh --if-missing

test: deps-auto
	@$(MAKE) --no-print-directory -j$(JOBS) $(BINS) $(TESTS) $(TEST_HELPERS)
	@$(MAKE) --no-print-directory check

check: $(BINS) $(TESTS) $(TEST_HELPERS)
	@BINDIR=$(BINDIR) O=$(O) WITH_CLUSTER=$(WITH_CLUSTER) CLUSTER_PASS=$(CLUSTER_PASS) \
	    NOT_BUILT="$(NOT_BUILT)" sh tests/run.sh $(TESTS)

# run-main (daemon/module.mk) builds what it starts.
run: deps-auto
	@$(MAKE) --no-print-directory run-main

bench: deps-auto
	@$(MAKE) --no-print-directory $(BINS) $(addprefix bench-,$(BENCHES))

fuzz: deps-auto
	@$(MAKE) --no-print-directory $(addprefix fuzz-,$(FUZZERS))

# Every C file of the tree, in the one style of .clang-format.
STYLE_SRCS = $(shell git ls-files '*.c' '*.h' 2>/dev/null)
check-style:
	@command -v clang-format > /dev/null || { echo "check-style: needs clang-format (make deps)"; exit 1; }
	@clang-format --dry-run --Werror $(STYLE_SRCS) && echo "style: $(words $(STYLE_SRCS)) files ok"

style:
	clang-format -i $(STYLE_SRCS)

clean:
	rm -rf build bin/*

-include $(shell find build -name '*.d' 2>/dev/null)
