# tourney/: the tournaments' pure parts (issue 48): pairings (Swiss by the
# Dutch system, round robins by Berger tables, arenas) and standings with
# their tie-breaks, over the records of tourney.h. It links nothing; the
# daemon links it.
TOURNEY_SRCS := tourney/swiss.c
TOURNEY_LIB := $(O)/libtourney.a

$(TOURNEY_LIB): $(TOURNEY_SRCS:%.c=$(O)/%.o)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

# Round robins by Berger tables, arenas, standings with their tie-breaks.
# The library's rule above read TOURNEY_SRCS while it was empty, so each
# object is named to it again here.
TOURNEY_SRCS += tourney/roundrobin.c
$(TOURNEY_LIB): $(O)/tourney/roundrobin.o
TOURNEY_SRCS += tourney/arena.c
$(TOURNEY_LIB): $(O)/tourney/arena.o
TOURNEY_SRCS += tourney/standings.c
$(TOURNEY_LIB): $(O)/tourney/standings.o
