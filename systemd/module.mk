# systemd/: the service unit, and `make install`, `install-strip`, `uninstall`
# (PREFIX, DESTDIR, SYSCONFDIR, UNITDIR, MANDIR).
PREFIX ?= /usr/local
SYSCONFDIR ?= $(if $(filter /usr,$(PREFIX)),/etc,$(PREFIX)/etc)
UNITDIR ?= $(PREFIX)/lib/systemd/system
MANDIR ?= $(PREFIX)/share/man

# What an admin runs: the server, its control tool, the client and the
# Gomocup brain. The
# developer tools (arena, tune) stay in the tree.
INSTALL_BINS := $(BINDIR)/gomokud $(BINDIR)/gomokuctl $(BINDIR)/gomoku $(BINDIR)/pbrain-gomoku \
    $(BINDIR)/gomoku-bot
# Man pages, section from the name; .in templates get their paths filled in.
INSTALL_MAN := client/gomoku.1 bot/gomoku-bot.1 man/gomokud.conf.5.in man/pbrain-gomoku.6.in \
    man/gomokud.8.in man/gomokuctl.8.in
INSTALL_STRIP ?=
# The client's message catalogs (po/module.mk), where i18n.c looks for
# them beside an installed gomoku: $(PREFIX)/share/locale/<lang>/LC_MESSAGES.
LOCALEDIR ?= $(PREFIX)/share/locale
mo_path = $(LOCALEDIR)/$(1)/LC_MESSAGES/gomoku.mo

# The paths the unit and the man pages name, as installed.
INSTALL_SUBST = sed -e 's|@BINDIR@|$(PREFIX)/bin|g' -e 's|@SYSCONFDIR@|$(SYSCONFDIR)|g' \
    -e 's|@UNITDIR@|$(UNITDIR)|g'
ETC_DIR = $(SYSCONFDIR)/gomokud
man_name = $(notdir $(1:.in=))
man_path = $(MANDIR)/man$(subst .,,$(suffix $(call man_name,$(1))))/$(call man_name,$(1))
INSTALLED = $(addprefix $(PREFIX)/bin/,$(notdir $(INSTALL_BINS))) $(UNITDIR)/gomokud.service \
    $(ETC_DIR)/gomokud.conf.example $(foreach m,$(INSTALL_MAN),$(call man_path,$(m))) \
    $(foreach l,$(LINGUAS),$(call mo_path,$(l)))

.PHONY: install install-strip uninstall
install: $(INSTALL_BINS) $(MO_FILES)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(UNITDIR) $(DESTDIR)$(ETC_DIR)
	install $(INSTALL_STRIP) -m 755 $(INSTALL_BINS) $(DESTDIR)$(PREFIX)/bin/
	$(INSTALL_SUBST) systemd/gomokud.service.in > $(DESTDIR)$(UNITDIR)/gomokud.service
	chmod 644 $(DESTDIR)$(UNITDIR)/gomokud.service
	install -m 644 systemd/gomokud.conf $(DESTDIR)$(ETC_DIR)/gomokud.conf.example
	[ -e $(DESTDIR)$(ETC_DIR)/gomokud.conf ] || \
	    install -m 644 systemd/gomokud.conf $(DESTDIR)$(ETC_DIR)/gomokud.conf
	$(foreach m,$(INSTALL_MAN),install -d $(dir $(DESTDIR)$(call man_path,$(m))) && \
	    $(INSTALL_SUBST) $(m) > $(DESTDIR)$(call man_path,$(m)) && \
	    chmod 644 $(DESTDIR)$(call man_path,$(m)) &&) true
	$(foreach l,$(LINGUAS),install -d $(DESTDIR)$(dir $(call mo_path,$(l))) && \
	    install -m 644 $(O)/locale/$(l)/LC_MESSAGES/gomoku.mo $(DESTDIR)$(call mo_path,$(l)) &&) true

install-strip:
	@$(MAKE) --no-print-directory install INSTALL_STRIP=-s

# Removes what install put there. The config is the admin's (install only
# ever writes it when none is there) and the state is systemd's
# StateDirectory: both stay. In a staged tree (DESTDIR) the directories left
# empty go too, up to DESTDIR; on the live system only gomokud's own.
uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALLED))
	@if [ -n "$(DESTDIR)" ]; then \
	    for d in $(sort $(dir $(INSTALLED))); do d=$(DESTDIR)$${d%/}; \
	        while [ "$$d" != "$(DESTDIR)" ] && rmdir "$$d" 2>/dev/null; do d=$${d%/*}; done; \
	    done; \
	else rmdir $(ETC_DIR) 2>/dev/null || true; fi
	@if [ -e $(DESTDIR)$(ETC_DIR)/gomokud.conf ]; then \
	    echo "uninstall: kept $(ETC_DIR)/gomokud.conf (yours; remove it by hand)"; fi
	@echo "uninstall: left the state directory /var/lib/gomokud (games, accounts) alone"

TESTS += tests/systemd/test_unit.sh tests/systemd/test_install.sh tests/systemd/test_deps.sh
