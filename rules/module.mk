# rules/: the rules core (boards, moves, wins, renju forbidden points,
# notation, game records, the opening rules), the bottom layer: the protocol library, the
# client, the search and the daemon all link it, and it links nothing.
RULES_SRCS := rules/rules.c rules/opening.c
RULES_LIB := $(O)/librules.a

$(RULES_LIB): $(RULES_SRCS:%.c=$(O)/%.o)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^
