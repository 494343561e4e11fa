# Shared by the client's shell tests: a temporary directory removed on exit,
# certificates, and the scripted TLS server (fakesrv).
set -u
BINDIR=${BINDIR:-bin}
O=${O:-build/default-cc}
GOMOKU=$BINDIR/gomoku
FAKESRV=$O/tests/client/fakesrv
GOMOKUD=$BINDIR/gomokud
T=$(mktemp -d "${TMPDIR:-/tmp}/gomoku-test.XXXXXX")
SRVPID=
DPID=
TM=
# everything a test started goes with it: its tmux server (tmux_server),
# its gomokud (gomokud_start, or DPID set by the test) and fakesrv
cleanup() {
	[ -n "$TM" ] && $TM kill-server 2>/dev/null
	[ -n "$DPID" ] && kill "$DPID" 2>/dev/null
	[ -n "${KEEP:-}" ] && { echo "kept $T"; return; }
	[ -n "$SRVPID" ] && kill "$SRVPID" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT INT TERM
export HOME=$T/home XDG_CONFIG_HOME=$T/config
mkdir -p "$HOME"
failures=0

check() { # check WHAT CMD...: runs CMD, reports
	what=$1
	shift
	if "$@"; then
		echo "ok   - $what"
	else
		echo "FAIL - $what"
		failures=$((failures + 1))
	fi
}

# gencert NAME: a self-signed EC certificate for 127.0.0.1 and localhost.
gencert() {
	openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 \
	    -subj "/CN=localhost" -addext "subjectAltName=IP:127.0.0.1,DNS:localhost" \
	    -keyout "$T/$1.key" -out "$T/$1.pem" 2>/dev/null
}

# startsrv SCRIPT: starts fakesrv in the background; sets PORT and SRVPID.
startsrv() {
	rm -f "$T/port" "$T/srv.log"
	"$FAKESRV" "$1" >"$T/port" 2>"$T/srv.log" &
	SRVPID=$!
	i=0
	while [ ! -s "$T/port" ] && [ $i -lt 200 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	PORT=$(cat "$T/port")
}

# waitsrv: waits for fakesrv to finish its script; its status is returned.
waitsrv() {
	wait "$SRVPID"
	rc=$?
	SRVPID=
	[ $rc -eq 0 ] || { echo "--- fakesrv log"; cat "$T/srv.log"; }
	return $rc
}

. tests/gomokud.sh
# gomokud_start [OPTION...]: the real gomokud on a free loopback port, its
# state in $T/state and its log in $T/d.log; sets DPID and DPORT, or fails
# the test.
gomokud_start() {
	"$GOMOKUD" --listen 127.0.0.1:0 --state-dir "$T/state" --log-level info "$@" \
	    >"$T/d.log" 2>&1 &
	DPID=$!
	DPORT=$(gomokud_port "$T/d.log")
	[ -n "$DPORT" ] || { echo "FAIL - gomokud did not start"; cat "$T/d.log"; exit 1; }
}

# tmux_server NAME: TM, a tmux server of this test's own (killed on exit).
tmux_server() { TM="tmux -L gomoku-$1-$$ -f /dev/null"; }

# Clients in tmux, for the tests that run several ($TM: the tmux command
# with its own socket). "=a:" names session a exactly ("a" alone could
# match a window name).
screen() { $TM capture-pane -p -t "=$1:"; }
wait_for() { # wait_for SESSION TEXT (polls up to 30 s, only against hangs)
	i=0
	while ! screen "$1" | grep -q -F -- "$2"; do
		i=$((i + 1))
		if [ $i -gt 300 ]; then
			echo "--- screen $1 while waiting for: $2"
			screen "$1"
			return 1
		fi
		sleep 0.1
	done
}
step() { check "$1" wait_for "$2" "$3"; }
# exited WHAT SESSION CODE: the client's shell printed EXIT=CODE. Wrapped
# lines are joined (-J): a shell's "Killed" message can leave the cursor
# near the right edge, and EXIT= then wraps.
exited() {
	e_i=0
	while ! $TM capture-pane -p -J -t "=$2:" | grep -q -F -- "EXIT=$3"; do
		e_i=$((e_i + 1))
		if [ $e_i -gt 300 ]; then
			echo "--- screen $2 while waiting for: EXIT=$3"
			screen "$2"
			check "$1" false
			return
		fi
		sleep 0.1
	done
	check "$1" true
}
keys() { k_s=$1; shift; $TM send-keys -t "=$k_s:" "$@"; }

finish() {
	if [ "$failures" -ne 0 ]; then
		echo "$failures check(s) failed"
		exit 1
	fi
	exit 0
}
