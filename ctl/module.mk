# ctl/: gomokuctl, the admin's tool: one request over gomokud's control
# socket (daemon/control.c), its answer printed. It links nothing of ours.
GOMOKUCTL := $(BINDIR)/gomokuctl
# The installed service's state directory (systemd's StateDirectory=).
GOMOKUCTL_STATE_DIR ?= /var/lib/gomokud

$(O)/ctl/gomokuctl.o: MOD_CFLAGS = -DGOMOKUCTL_STATE_DIR='"$(GOMOKUCTL_STATE_DIR)"'
$(GOMOKUCTL): $(O)/ctl/gomokuctl.o
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(LDLIBS_ALL)

BINS += $(GOMOKUCTL)
