# tests/: unit tests of the rules core (cmocka).
CMOCKA_CFLAGS = $(call pc,--cflags,cmocka)
CMOCKA_LIBS = $(call pc,--libs,cmocka)

# Tests read ../shared (beside the checkout) when it is there.
$(O)/tests/unit/%.o: MOD_CFLAGS = $(CMOCKA_CFLAGS)

$(O)/tests/unit/test_rules: $(O)/tests/unit/test_rules.o $(ENGINE_LIB)
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(CMOCKA_LIBS) $(LDLIBS_ALL)

TESTS += $(O)/tests/unit/test_rules
