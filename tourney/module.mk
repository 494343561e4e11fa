# tourney/: the tournaments' pure parts (issue 48): pairings (Swiss by the
# Dutch system, round robins by Berger tables, arenas), standings with
# their tie-breaks, and a league's Bayesian Elo (issue 49), over the records
# of tourney.h. It links nothing; the
# daemon links it.
TOURNEY_SRCS := tourney/swiss.c tourney/roundrobin.c tourney/arena.c tourney/standings.c \
    tourney/elo.c tourney/ltable.c
TOURNEY_LIB := $(O)/libtourney.a

$(TOURNEY_LIB): $(TOURNEY_SRCS:%.c=$(O)/%.o)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^
