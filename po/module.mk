# po/: the message catalogs, the one source of every text a player reads
# (docs/i18n.md). po/gomoku.pot is the template (`make po` extracts it from
# the sources and merges it into each catalog); po/LINGUAS lists the
# languages. The terminal client reads the compiled .mo files, the web
# board one JSON catalog per language (embedded by daemon/module.mk).
LINGUAS := $(shell sed 's/\#.*//' po/LINGUAS)
PO_FILES := $(LINGUAS:%=po/%.po)
MO_FILES := $(LINGUAS:%=$(O)/locale/%/LC_MESSAGES/gomoku.mo)
I18N_JSON := $(LINGUAS:%=$(O)/gen/i18n/%.json) $(O)/gen/i18n/languages.json
PO2JSON := $(O)/mk/po2json

$(O)/locale/%/LC_MESSAGES/gomoku.mo: po/%.po
	@mkdir -p $(dir $@)
	msgfmt --check -o $@ $<

$(PO2JSON): mk/po2json.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_ALL) $(CFLAGS_ALL) -o $@ $<

$(O)/gen/i18n/%.json: po/%.po $(PO2JSON)
	@mkdir -p $(dir $@)
	$(PO2JSON) json $< > $@.tmp && mv $@.tmp $@

$(O)/gen/i18n/languages.json: $(PO_FILES) po/LINGUAS $(PO2JSON)
	@mkdir -p $(dir $@)
	$(PO2JSON) languages $(PO_FILES) > $@.tmp && mv $@.tmp $@

BINS += $(MO_FILES)

# The keywords that mark a message: in C TR(key, English) and NTR (tables);
# in the web board's JavaScript t(key, English, ...) and N (tables); in
# index.html data-t and data-t-aria-label attributes, which mk/html2js.pl
# turns into t() calls for xgettext.
XGETTEXT := xgettext --from-code=UTF-8 --no-location --sort-output --package-name=gomoku --keyword=
XGETTEXT_C := --language=C --keyword=TR:1c,2 --keyword=NTR:1c,2
XGETTEXT_JS := --language=JavaScript --keyword=t:1c,2 --keyword=N:1c,2
I18N_SRCS = $(sort $(wildcard client/*.c))
I18N_WEB = $(sort $(wildcard client/web/*.js))
I18N_HTML = client/web/index.html

# make po: the template from the sources, merged into every catalog (new
# keys arrive empty, changed English fuzzy: translate them, then make test).
# English is the sources' own text: en.po repeats each msgid, always.
# po-extract writes it to XGETTEXT_OUT (tests/i18n/test_catalogs.sh
# compares it with the template).
XGETTEXT_OUT ?= po/gomoku.pot
.PHONY: po po-extract
po-extract:
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	perl mk/html2js.pl $(I18N_HTML) > "$$tmp/index.html.js" && \
	$(XGETTEXT) $(XGETTEXT_C) -o "$$tmp/all.pot" $(I18N_SRCS) && \
	$(XGETTEXT) $(XGETTEXT_JS) -j -o "$$tmp/all.pot" $(I18N_WEB) "$$tmp/index.html.js" && \
	sed -e '/^"POT-Creation-Date:/d' -e 's/charset=CHARSET/charset=UTF-8/' "$$tmp/all.pot" > $(XGETTEXT_OUT)

po: po-extract
	for l in $(LINGUAS); do \
	    msgmerge --quiet --update --backup=none --no-location --sort-output po/$$l.po po/gomoku.pot || exit 1; \
	done
	msgattrib --no-obsolete --clear-fuzzy --empty --sort-output -o po/en.po po/en.po
	msgen --sort-output -o po/en.po po/en.po

# Every key in every catalog, and every key the sources use in the
# template; the lint of literals outside the catalogs.
I18N_TESTS := tests/i18n/test_catalogs.sh tests/i18n/test_strings.sh
$(I18N_TESTS): $(PO2JSON) $(MO_FILES) $(BINDIR)/gomokud
TESTS += $(I18N_TESTS)
