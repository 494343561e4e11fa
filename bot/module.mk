# bot/: gomoku-bot (issue 49), which seats any Gomocup brain at a gomokud's
# tables: its brain driver (bot/brain.h: one brain process per game on a
# libevent loop, over the rules core), its config file (conf.h), challenge
# filters (filter.h), TLS connection (conn.h) and the program
# (gomoku-bot.c). gomoku-bot(1) is bot/gomoku-bot.1. The brain's sandbox
# (sandbox.h: seccomp through libseccomp, and Landlock) is entered by the
# brain's process before it runs the brain.
BOT_PKGS := libevent libevent_openssl openssl libseccomp
BOT_OBJS := $(O)/bot/brain.o $(O)/bot/sandbox.o
BOT_PROG_OBJS := $(O)/bot/gomoku-bot.o $(O)/bot/conf.o $(O)/bot/filter.o $(O)/bot/conn.o

$(BOT_OBJS) $(BOT_PROG_OBJS): MOD_CFLAGS = $(call pc,--cflags,$(BOT_PKGS))

# proto/module.mk is read after this file, so its library is named here.
$(BINDIR)/gomoku-bot: $(BOT_PROG_OBJS) $(BOT_OBJS) $(O)/libproto.a $(RULES_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(call pc,--libs,$(BOT_PKGS)) $(LDLIBS_ALL)

BINS += $(BINDIR)/gomoku-bot
