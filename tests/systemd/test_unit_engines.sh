#!/bin/sh
# Hosted engines under the shipped unit itself (issue 49): systemd boots in
# a container (systemd-nspawn --volatile=yes: the host's /usr read-only, a
# root of its own in memory, the host's network), gomokud is installed
# there by `make install` (PREFIX=/opt/gomokud, SYSCONFDIR=/etc) and started
# by gomokud.service as installed, with the certificate the unit's
# LoadCredential= lines load. Twice:
# - in a container whose filter refuses Landlock, gomokud offers no engine
#   and its journal says why, as `gomoku-bot --check` does;
# - then, from the host (tests/systemd/unit_engines.c): pbrain-gomoku plays
#   a whole game in the brain's sandbox inside the unit's, its process seen
#   from outside; a brain that probes what it may do (tests/bot/
#   fixture_brain probe-refuse) forfeits, and the server's journal quotes
#   what it found: no socket, no signal to the server, no file written in
#   the server's own state directory, no memory both writable and
#   executable (the unit's MemoryDenyWriteExecute), no user namespace; and
#   gomoku-bot under its example unit plays a challenge out.
# Stops each container by its pid.
set -eu
fail() {
	echo "FAIL: $*"
	exit 1
}
O=${O:-build/default-cc}
BINDIR=${BINDIR:-bin}
command -v systemd-nspawn >/dev/null ||
	fail "systemd-nspawn is missing (make deps installs systemd-container)"
[ "$(id -u)" = 0 ] || fail "systemd-nspawn needs root"
for p in "$O/tests/systemd/unit_engines" "$O/tests/bot/fixture_brain"; do
	[ -x "$p" ] || fail "$p is not built"
done

root=$(mktemp -d /tmp/gomokud-unit-XXXXXX)
ns=""
leader=""
stop() {
	if [ -n "$ns" ] && kill -0 "$ns" 2>/dev/null; then
		kill -TERM "$ns" 2>/dev/null || true # a clean halt of the container
		i=0
		while kill -0 "$ns" 2>/dev/null && [ $i -lt 200 ]; do
			sleep 0.1
			i=$((i + 1))
		done
		kill -KILL "$ns" 2>/dev/null || true
		wait "$ns" 2>/dev/null || true
	fi
	# its pid namespace died with its init; nothing of it may be left
	if [ -n "$leader" ] && kill -0 "$leader" 2>/dev/null; then
		echo "FAIL: the container's init $leader outlived systemd-nspawn"
		kill -KILL "$leader" 2>/dev/null || true
	fi
	rm -rf "$root"
}
trap 'stop' EXIT
trap 'exit 1' INT TERM

make --no-print-directory -s install DESTDIR="$root" PREFIX=/opt/gomokud SYSCONFDIR=/etc \
    UNITDIR=/etc/systemd/system >/dev/null
unit="$root/etc/systemd/system/gomokud.service"
conf="$root/etc/gomokud"
grep -q '^LoadCredential=tls\.crt:/etc/gomokud/tls\.crt$' "$unit" ||
	fail "the unit no longer loads /etc/gomokud/tls.crt; this test must follow it"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 \
    -subj /CN=localhost -keyout "$conf/tls.key" -out "$conf/tls.crt" 2>/dev/null ||
	fail "openssl could not make a certificate"
install -d "$root/opt/gomokud/libexec"
install -m 755 "$O/tests/bot/fixture_brain" "$root/opt/gomokud/libexec/"
port=$("$O/tests/systemd/unit_engines" --free-port) || fail "no free port"
# The installed config's cert and key lines, a loopback listener, and the
# two engines; the probe's file is in the server's state directory, which
# the server's user may write.
{
	grep -E '^(cert|key) ' "$conf/gomokud.conf.example"
	echo "listen 127.0.0.1:$port"
	echo "log-level info"
	echo "engine ours /opt/gomokud/bin/pbrain-gomoku turn-ms=200 memory=256"
	echo "engine probe /opt/gomokud/libexec/fixture_brain probe-refuse 0 /var/lib/gomokud/probe turn-ms=200 memory=256"
} >"$conf/gomokud.conf"
printf '%s\n' "server 127.0.0.1:$port" "name unitbot" "password unused-here" \
    "brain /opt/gomokud/bin/pbrain-gomoku" >"$conf/bot.conf"
grep -q '^cert /run/credentials/gomokud.service/tls.crt$' "$conf/gomokud.conf" ||
	fail "the example config does not read the unit's credentials"

# boot FILTER: systemd in a container with FILTER as its extra
# --system-call-filter, until gomokud.service is active (Type=notify: ready).
# It boots to gomokud.service and D-Bus (for systemd-run --wait) alone,
# not to multi-user.target: the host's installed services (Redis, HAProxy,
# PostgreSQL) must not start in the host's network namespace.
boot() {
	log="$root/nspawn.log"
	systemd-nspawn --quiet --register=no --keep-unit --volatile=yes --directory=/ \
	    --machine=gomokud-test --system-call-filter="$1" \
	    --bind-ro="$root/opt/gomokud:/opt/gomokud" --bind-ro="$root/etc/gomokud:/etc/gomokud" \
	    --bind-ro="$unit:/etc/systemd/system/gomokud.service" \
	    --boot --console=pipe systemd.unit=gomokud.service systemd.wants=dbus.service \
	    </dev/null >"$log" 2>&1 &
	ns=$!
	leader=""
	i=0
	state=""
	while [ $i -lt 300 ]; do
		kill -0 "$ns" 2>/dev/null || { cat "$log"; fail "systemd-nspawn ended"; }
		# the container's init: systemd-nspawn's child that runs systemd
		[ -n "$leader" ] || leader=$(ps -o pid=,comm= --ppid "$ns" | awk '$2 == "systemd" { print $1; exit }')
		if [ -n "$leader" ]; then
			state=$(inside systemctl show gomokud -p ActiveState --value 2>/dev/null) || state=""
			case "$state" in active | failed) break ;; esac
		fi
		sleep 0.1
		i=$((i + 1))
	done
	if [ "$state" != active ]; then
		[ -z "$leader" ] || inside journalctl -u gomokud --no-pager | tail -n 30 || true
		fail "gomokud.service is '$state' in the container after 30 s"
	fi
}
# inside CMD...: CMD in the container's namespaces (its systemctl and
# journal)
inside() { nsenter --target "$leader" --mount --uts --ipc --pid -- "$@"; }
journal() { inside journalctl -u gomokud --no-pager -o cat; }
# halt: the container stopped by its pid, and waited for
halt() {
	kill -TERM "$ns" 2>/dev/null || true
	i=0
	while kill -0 "$ns" 2>/dev/null && [ $i -lt 200 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	kill -0 "$ns" 2>/dev/null && fail "the container did not halt in 20 s"
	wait "$ns" 2>/dev/null || true
	ns=""
}

# First, a container whose own filter refuses Landlock (systemd-nspawn's
# did before its list was given Landlock's calls, as some container
# runtimes' still do): the engines cannot be offered, and the journal says
# why when gomokud starts, not a forfeit in every game.
boot "~landlock_create_ruleset"
why='hosted engines: their brains cannot enter their sandbox here: landlock_create_ruleset: Operation not permitted (refused by a seccomp filter around this process'
journal | grep -qF "$why" || { journal | tail -n 20; fail "the journal does not say: $why"; }
greeting=$("$O/tests/systemd/unit_engines" --greeting "$port") || fail "no greeting"
case "$greeting" in *engines=*) fail "engines offered that cannot run: $greeting" ;; esac
echo "Landlock refused around gomokud: no engines offered, and the journal says why"
# gomoku-bot, started by the container's systemd (under the same filter),
# says so too, at its start
out=$(inside systemd-run --quiet --wait --pipe --property=DynamicUser=yes \
    /opt/gomokud/bin/gomoku-bot --check -c /etc/gomokud/bot.conf 2>&1) &&
	fail "gomoku-bot --check passed where its brain cannot run: $out"
case "$out" in
*"a brain cannot enter its sandbox here: landlock_create_ruleset: Operation not permitted"*) ;;
*) fail "gomoku-bot --check says: $out" ;;
esac
echo "gomoku-bot --check there: $out"
halt

# Then the unit as it runs under a host's systemd, whose own filters have
# Landlock's calls.
boot "landlock_create_ruleset landlock_add_rule landlock_restrict_self"
inside systemctl show gomokud -p User -p DynamicUser -p NoNewPrivileges \
    -p MemoryDenyWriteExecute -p RestrictNamespaces | tr '\n' ' '
echo
echo "systemd in a container started gomokud.service as installed, on 127.0.0.1:$port"

"$O/tests/systemd/unit_engines" "$port" /opt/gomokud/bin/pbrain-gomoku ||
	{ journal | tail -n 30; fail "the games under the unit"; }

want='bot-probe forfeits: refused to move: ERROR probe socket EACCES parent EPERM write EACCES wx EPERM userns EPERM'
i=0
until journal | grep -qF "$want"; do
	i=$((i + 1))
	[ $i -lt 50 ] || {
		journal | grep -F 'probe' | tail -n 5
		fail "the journal does not say: $want"
	}
	sleep 0.1
done
echo "the journal: $want"
inside test ! -e /var/lib/gomokud/probe || fail "the probe wrote in the state directory"
echo "nothing written: the state directory holds no probe file"

# gomoku-bot under its example unit (bot/gomoku-bot.service.example),
# installed as its comment says: the paths changed to this install's, the
# config (the account's password; the server pinned by the fingerprint
# gomokud logged) where LoadCredential= reads it, the token in its
# StateDirectory. A challenge to its account is accepted and played out.
fp=$(journal | sed -n 's/^certificate .* fingerprint \(sha256:[0-9a-f]*\)$/\1/p' | head -n 1)
[ -n "$fp" ] || fail "gomokud logged no certificate fingerprint"
"$O/tests/systemd/unit_engines" --register "$port" unitbot unitbot-pass-1 ||
	fail "could not register the bot's account"
printf '%s\n' "server 127.0.0.1:$port" "pin $fp" "name unitbot" "password unitbot-pass-1" \
    "state-file /var/lib/gomoku-bot/token" "brain /opt/gomokud/bin/pbrain-gomoku" \
    "brain-memory 256" "turn-ms 300" >"$conf/gomoku-bot.conf"
chmod 600 "$conf/gomoku-bot.conf"
botunit="$root/gomoku-bot.service"
sed -e 's|^ExecStart=/usr/local/bin/gomoku-bot |ExecStart=/opt/gomokud/bin/gomoku-bot |' \
    -e 's|^LoadCredential=gomoku-bot.conf:/etc/gomoku-bot/|LoadCredential=gomoku-bot.conf:/etc/gomokud/|' \
    bot/gomoku-bot.service.example >"$botunit"
grep -q '^ExecStart=/opt/gomokud/bin/gomoku-bot -c %d/gomoku-bot.conf$' "$botunit" &&
	grep -q '^LoadCredential=gomoku-bot.conf:/etc/gomokud/gomoku-bot.conf$' "$botunit" ||
	fail "the example unit's ExecStart= or LoadCredential= changed; this test must follow"
inside sh -c 'cat >/etc/systemd/system/gomoku-bot.service' <"$botunit"
inside systemctl daemon-reload
botlog() { inside journalctl -u gomoku-bot --no-pager -o cat | tail -n 20; }
inside systemctl start gomoku-bot || { botlog; fail "gomoku-bot.service did not start"; }
"$O/tests/systemd/unit_engines" --bot "$port" unitbot /opt/gomokud/bin/pbrain-gomoku ||
	{ botlog; fail "the game against gomoku-bot under its unit"; }
inside systemctl is-active --quiet gomoku-bot || { botlog; fail "gomoku-bot.service stopped"; }
inside systemctl is-active --quiet gomokud || fail "gomokud.service is no longer active"
echo "unit engines: passed"
