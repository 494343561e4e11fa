# bot/: gomoku-bot (issue 49), which seats any Gomocup brain at a gomokud's
# tables. So far its brain driver (bot/brain.h): one brain process per
# game on a libevent loop, over the rules core. The program comes later.
BOT_OBJS := $(O)/bot/brain.o

$(BOT_OBJS): MOD_CFLAGS = $(call pc,--cflags,libevent)
