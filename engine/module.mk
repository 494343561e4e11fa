# engine/: the rules core and (later) the AI, as one static library.
ENGINE_SRCS := engine/rules.c
ENGINE_LIB := $(O)/libengine.a

$(ENGINE_LIB): $(ENGINE_SRCS:%.c=$(O)/%.o)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^
