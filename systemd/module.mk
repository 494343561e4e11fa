# systemd/: the service unit, and `make install` (PREFIX, DESTDIR).
PREFIX ?= /usr/local
SYSCONFDIR ?= $(if $(filter /usr,$(PREFIX)),/etc,$(PREFIX)/etc)
UNITDIR ?= $(PREFIX)/lib/systemd/system
MANDIR ?= $(PREFIX)/share/man

INSTALL_MAN := $(wildcard man/*.[158] client/*.1)

.PHONY: install
install: $(BINS)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(UNITDIR) $(DESTDIR)$(SYSCONFDIR)/gomokud
	install -m 755 $(BINS) $(DESTDIR)$(PREFIX)/bin/
	sed -e 's|@BINDIR@|$(PREFIX)/bin|g' -e 's|@SYSCONFDIR@|$(SYSCONFDIR)|g' \
	    systemd/gomokud.service.in > $(DESTDIR)$(UNITDIR)/gomokud.service
	chmod 644 $(DESTDIR)$(UNITDIR)/gomokud.service
	install -m 644 systemd/gomokud.conf $(DESTDIR)$(SYSCONFDIR)/gomokud/gomokud.conf.example
	[ -e $(DESTDIR)$(SYSCONFDIR)/gomokud/gomokud.conf ] || \
	    install -m 644 systemd/gomokud.conf $(DESTDIR)$(SYSCONFDIR)/gomokud/gomokud.conf
	for m in $(INSTALL_MAN); do \
	    s=$${m##*.}; install -d $(DESTDIR)$(MANDIR)/man$$s && \
	    install -m 644 $$m $(DESTDIR)$(MANDIR)/man$$s/; done

TESTS += tests/systemd/test_unit.sh
