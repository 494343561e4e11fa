# engine/: the AI (search, evaluation, solvers) as a static library on top of
# the rules core (rules/); engine/tools/ holds the programs built on it: the
# Gomocup brain (bin/pbrain-gomoku), the match tool (bin/arena) and the
# evaluation tuner (bin/tune).
ENGINE_SRCS := engine/pattern.c engine/board.c engine/eval.c \
	engine/movegen.c engine/vcf.c engine/tt.c engine/timeman.c engine/skill.c \
	engine/search.c engine/openbot.c engine/review.c engine/puzzle.c engine/winchance.c
ENGINE_LIB := $(O)/libengine.a

$(ENGINE_LIB): $(ENGINE_SRCS:%.c=$(O)/%.o)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

# Unit tests of the AI (cmocka); the pattern rule for tests/unit objects
# comes from tests/module.mk.
$(O)/tests/unit/test_engine: $(O)/tests/unit/test_engine.o $(ENGINE_LIB) $(RULES_LIB)
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(CMOCKA_LIBS) $(LDLIBS_ALL)

TESTS += $(O)/tests/unit/test_engine

# The opening rules played by the engine (engine/openbot.h, issue 46):
# self-play of every rule.
$(O)/tests/unit/test_openbot: $(O)/tests/unit/test_openbot.o $(ENGINE_LIB) $(RULES_LIB)
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(CMOCKA_LIBS) $(LDLIBS_ALL)

TESTS += $(O)/tests/unit/test_openbot

# A finished game gone through by the engine (engine/review.h, issue 47):
# missed wins, blunders and the turning point of games made for them.
$(O)/tests/unit/test_review: $(O)/tests/unit/test_review.o $(ENGINE_LIB) $(RULES_LIB)
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(CMOCKA_LIBS) $(LDLIBS_ALL)

TESTS += $(O)/tests/unit/test_review

# Puzzles (engine/puzzle.h, issue 47): VCF and VCT wins proven, and each
# move of whoever solves them judged, on positions made for them.
$(O)/tests/unit/test_puzzle: $(O)/tests/unit/test_puzzle.o $(ENGINE_LIB) $(RULES_LIB)
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(CMOCKA_LIBS) $(LDLIBS_ALL)

TESTS += $(O)/tests/unit/test_puzzle

# The Gomocup brain.
$(BINDIR)/pbrain-gomoku: $(O)/engine/tools/pbrain.o $(ENGINE_LIB) $(RULES_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(LDLIBS_ALL)

BINS += $(BINDIR)/pbrain-gomoku

# The brain's protocol, driven through pipes.
$(O)/tests/unit/test_pbrain.o: MOD_CFLAGS = $(CMOCKA_CFLAGS) -DPBRAIN='"$(BINDIR)/pbrain-gomoku"'
$(O)/tests/unit/test_pbrain: $(O)/tests/unit/test_pbrain.o | $(BINDIR)/pbrain-gomoku
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(CMOCKA_LIBS) $(LDLIBS_ALL)

TESTS += $(O)/tests/unit/test_pbrain

# The match tool: any two Gomocup brains, colours swapped, time enforced.
$(BINDIR)/arena: $(O)/engine/tools/arena.o $(ENGINE_LIB) $(RULES_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(LDLIBS_ALL)

BINS += $(BINDIR)/arena

# The win chance's fit (engine/winchance.h, issue 47): engine-vs-engine
# games at a fixed budget, K of the logistic by maximum likelihood, the
# calibration and the falls of the mover's chance. make winfit refits as
# docs/review.md says (about an hour on one core).
$(BINDIR)/winfit: $(O)/engine/tools/winfit.o $(O)/engine/tools/book.o $(ENGINE_LIB) $(RULES_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(LDLIBS_ALL)

BINS += $(BINDIR)/winfit
WINFIT_BOOK := tests/engine/openings-freestyle.txt
WINFIT_ARGS ?= -B $(WINFIT_BOOK) -g 400 -n 300000 -o 1
.PHONY: winfit winfit-weak
winfit: $(BINDIR)/winfit
	@mkdir -p $(O)/winfit
	$(BINDIR)/winfit $(WINFIT_ARGS) -w $(O)/winfit/selfplay.txt
# The falls of the mover's chance in games of a weaker level against the
# budget's engine (the blunder threshold), judged with WINFIT_K (the K of
# engine/winchance.h): about half an hour.
WINFIT_K ?= 888
winfit-weak: $(BINDIR)/winfit
	@mkdir -p $(O)/winfit
	$(BINDIR)/winfit -B $(WINFIT_BOOK) -g 60 -n 300000 -o 1 -W 7 -K $(WINFIT_K) \
	    -w $(O)/winfit/weak7.txt
	$(BINDIR)/winfit -B $(WINFIT_BOOK) -g 40 -n 300000 -o 1 -W 4 -K $(WINFIT_K) \
	    -w $(O)/winfit/weak4.txt
	$(BINDIR)/winfit -B $(WINFIT_BOOK) -g 40 -n 300000 -o 2 -K $(WINFIT_K) \
	    -w $(O)/winfit/selfplay2.txt

# The review's figures (issue 47, docs/review.md "The review's figures"):
# puzzles per 1,000 self-play games, the marks a review at 8 times the
# nodes does not confirm, and the nodes a review-ms search reaches here.
# make reviewfig runs the recorded experiment (25 to 40 minutes of one core
# here; the timed searches' figures depend on the machine's load).
$(BINDIR)/reviewfig: $(O)/engine/tools/reviewfig.o $(O)/engine/tools/book.o $(ENGINE_LIB) $(RULES_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(LDLIBS_ALL)

BINS += $(BINDIR)/reviewfig
REVIEWFIG_ARGS ?= -B $(WINFIT_BOOK) -g 200 -n 175000 -x 8 -D 40 -q 4 -o 1
.PHONY: reviewfig
reviewfig: $(BINDIR)/reviewfig
	@mkdir -p $(O)/reviewfig
	$(BINDIR)/reviewfig $(REVIEWFIG_ARGS) -w $(O)/reviewfig/games.txt

# The evaluation tuner: self-play samples and a logistic fit of the weights;
# positions labelled by deeper searches and the fit of the learned table.
$(BINDIR)/tune: $(O)/engine/tools/tune.o $(O)/engine/tools/tune_shapes.o $(ENGINE_LIB) \
    $(RULES_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(LDLIBS_ALL)

BINS += $(BINDIR)/tune

# make bench-engine: nodes/s, time to depth, puzzle solve rate.
$(O)/tests/engine/bench_engine: $(O)/tests/engine/bench_engine.o $(ENGINE_LIB) $(RULES_LIB)
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(LDLIBS_ALL)

BENCHES += engine
BENCH_BINS += $(O)/tests/engine/bench_engine
.PHONY: bench-engine
bench-engine: $(O)/tests/engine/bench_engine
	$(O)/tests/engine/bench_engine
	$(O)/tests/engine/bench_engine vct

# make bench-sparring: level 10 against each sparring brain (node) over the
# vetted opening book, every opening with both colours, 1 s a move: about
# seven minutes a brain. Not part of `make bench`, for its length.
SPARRING ?= s003 s000 s001 s002 s004
SPARRING_BOOK := tests/engine/openings-freestyle.txt
.PHONY: bench-sparring
bench-sparring: $(BINDIR)/arena $(BINDIR)/pbrain-gomoku
	@command -v node > /dev/null || { echo "bench-sparring: needs node (apt-get install nodejs)"; exit 1; }
	@sh tests/shared.sh sparring/seedbrain.js; rc=$$?; [ $$rc -ne 2 ] || exit 0; [ $$rc -eq 0 ] || exit 1; \
	n=$$(grep -c '^[0-9]' $(SPARRING_BOOK)); for b in $(SPARRING); do \
		$(BINDIR)/arena -B $(SPARRING_BOOK) -j 2 -g $$((2 * n)) -t 1000 -v \
		    $(BINDIR)/pbrain-gomoku "node $(SHARED_DIR)/sparring/seedbrain.js $$b" || exit 1; \
	done

# The arena's openings and its enforcement, with real brains.
TESTS += tests/engine/test_arena.sh
# The tuner's samples and fit.
TESTS += tests/engine/test_tune.sh
# The win chance's fitting tool: its raw file, its determinism and -i.
TESTS += tests/engine/test_winfit.sh
# The review's figures tool: a tiny run's output, its determinism and -i.
TESTS += tests/engine/test_reviewfig.sh

# make windows: bin/pbrain-gomoku.exe, the brain for Piskvork on Windows, one
# static executable cross-compiled with mingw-w64 (sh mk/deps.sh --windows;
# its POSIX-threads compiler, for pthreads). make check-windows plays a few
# moves with it under wine. Neither is part of make test: mingw-w64 and wine
# are not among the build's packages.
WINCC ?= x86_64-w64-mingw32-gcc-posix
.PHONY: windows check-windows
windows: $(BINDIR)/pbrain-gomoku.exe
$(BINDIR)/pbrain-gomoku.exe: $(RULES_SRCS) $(ENGINE_SRCS) engine/tools/pbrain.c
	@command -v $(WINCC) > /dev/null || { echo "windows: needs $(WINCC) (sh mk/deps.sh --windows)"; exit 1; }
	@mkdir -p $(dir $@)
	$(WINCC) -std=c11 -O2 $(WARN) -I. -o $@ $^ -static -lpthread -lm
check-windows: $(BINDIR)/pbrain-gomoku.exe
	sh tests/engine/windows_smoke.sh $(BINDIR)/pbrain-gomoku.exe
