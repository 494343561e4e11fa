#!/bin/sh
# The service unit as `make install` writes it: systemd-analyze verify is
# clean, systemd-analyze security rates its exposure 2.0 or better, and the
# certificate renewal documented for it matches how it loads the certificate,
# and the docs quote the exposure it measures.
set -eu
fail() { echo "FAIL: $*"; exit 1; }
command -v systemd-analyze >/dev/null || fail "systemd-analyze is missing (make deps installs systemd)"

root=$(mktemp -d /tmp/gomokud-install-XXXXXX)
trap 'rm -rf "$root"' EXIT INT TERM
# Install into a scratch root; PREFIX is where the binaries will be looked
# for, so point it at the scratch copy to let verify find ExecStart.
make --no-print-directory -s install DESTDIR= PREFIX="$root/usr" SYSCONFDIR="$root/etc" \
    UNITDIR="$root/unit" >/dev/null
unit="$root/unit/gomokud.service"
[ -f "$unit" ] || fail "make install wrote no unit"
[ -x "$root/usr/bin/gomokud" ] || fail "make install did not install gomokud"
[ -f "$root/etc/gomokud/gomokud.conf.example" ] || fail "no example config installed"
[ -f "$root/etc/gomokud/gomokud.conf" ] || fail "no config installed"
# a second install keeps the admin's config
echo "# mine" >> "$root/etc/gomokud/gomokud.conf"
make --no-print-directory -s install DESTDIR= PREFIX="$root/usr" SYSCONFDIR="$root/etc" \
    UNITDIR="$root/unit" >/dev/null
grep -q "^# mine" "$root/etc/gomokud/gomokud.conf" || fail "install overwrote the config"
grep -q "^ExecStart=$root/usr/bin/gomokud --config $root/etc/gomokud/gomokud.conf" "$unit" ||
	fail "ExecStart does not name the installed paths"
grep -q '@[A-Z]*@' "$unit" && fail "unsubstituted @...@ left in the unit"
echo "install: binaries, unit and example config under PREFIX, paths filled in"

[ -f "$root/usr/share/man/man8/gomokud.8" ] && [ -f "$root/usr/share/man/man5/gomokud.conf.5" ] ||
	fail "man pages not installed"
for m in "$root"/usr/share/man/man*/*; do
	w=$(groff -man -Tutf8 -ww -z "$m" 2>&1) || fail "groff failed on $m"
	[ -z "$w" ] || { echo "$w"; fail "groff warns about $m"; }
done
echo "man pages: installed, and groff -ww finds nothing to warn about"

# verify checks the syntax, the directives, that ExecStart exists and that
# the Documentation= man pages are there (from the scratch install).
out=$(MANPATH="$root/usr/share/man" systemd-analyze verify "$unit" 2>&1) ||
	{ echo "$out"; fail "verify failed"; }
[ -z "$out" ] || { echo "$out"; fail "verify printed warnings"; }
echo "verify: clean"

# Renewal: LoadCredential= copies the certificate when the service starts and
# never while it runs, so a reload serves the old one; wherever a certbot
# deploy hook is documented for this unit it must restart it.
if grep -q '^LoadCredential=tls\.crt:' "$unit"; then
	hook='--deploy-hook "systemctl try-restart gomokud"'
	for f in docs/operations.md systemd/README.md "$unit"; do
		grep -qF -- "$hook" "$f" || fail "$f does not give the deploy hook $hook"
	done
	grep -qF 'try-restart gomokud' man/gomokud.8.in || fail "gomokud(8) does not name the restart"
	if grep -n 'deploy-hook "systemctl reload' docs/operations.md systemd/README.md man/* "$unit"; then
		fail "a deploy hook reloads, which does not refresh LoadCredential= copies"
	fi
	echo "renewal: the unit loads credentials, and every deploy hook documented restarts it"
fi

out=$(systemd-analyze security --offline=yes "$unit" 2>&1)
score=$(printf '%s\n' "$out" | sed -n 's/.*Overall exposure level for gomokud.service: \([0-9.]*\).*/\1/p')
[ -n "$score" ] || { echo "$out"; fail "no exposure score"; }
awk -v s="$score" 'BEGIN { exit !(s <= 2.0) }' || fail "exposure $score is above 2.0"
echo "security: exposure $score (2.0 or better required)"

# The docs quote the figure measured here, so it cannot drift from the unit.
for f in docs/operations.md systemd/README.md; do
	quoted=$(tr '\n' ' ' < "$f" | grep -o '`systemd-analyze security` rates[a-z ]* [0-9][0-9.]*' |
		grep -o '[0-9][0-9.]*$') || true
	[ -n "$quoted" ] || fail "$f quotes no \`systemd-analyze security\` rating"
	for q in $quoted; do
		[ "$q" = "$score" ] || fail "$f says systemd-analyze security rates the unit $q; it measures $score"
	done
done
echo "security: docs/operations.md and systemd/README.md quote $score, as measured"

# A hosted engine's brain enters its sandbox (bot/sandbox.c) inside the
# unit's own syscall filter: every call it makes for that must be allowed
# by the unit's SystemCallFilter lines (groups expanded, nested ones too)
# and by none of its ~ lines, or each brain would die at its start.
expand() { # the syscalls of a filter item (a group, recursively, or a name)
	case "$1" in
	@*) systemd-analyze syscall-filter "$1" | sed -n 's/^    \([@a-z0-9_]*\)$/\1/p' |
		while read -r x; do expand "$x"; done ;;
	*) echo "$1" ;;
	esac
}
allow=$(sed -n 's/^SystemCallFilter=\([^~].*\)/\1/p' "$unit" | tr ' ' '\n' | while read -r i; do expand "$i"; done | sort -u)
deny=$(sed -n 's/^SystemCallFilter=~\(.*\)/\1/p' "$unit" | tr ' ' '\n' | while read -r i; do expand "$i"; done | sort -u)
for sc in seccomp prctl landlock_create_ruleset landlock_add_rule landlock_restrict_self execve; do
	echo "$allow" | grep -qx "$sc" || fail "the unit's SystemCallFilter does not allow $sc, which a brain's sandbox needs"
	echo "$deny" | grep -qx "$sc" && fail "the unit's SystemCallFilter=~ takes away $sc, which a brain's sandbox needs"
done
echo "syscalls: the unit lets a brain build its sandbox (seccomp, prctl, landlock_*)"
