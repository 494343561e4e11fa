#!/bin/sh
# engine/tools/league_anchors.sh ANCHORS MINUTES [TIME] [TURN_MS]: issue 49's
# league benchmark (not in CI): a gomokud of its own on loopback hosting
# Rapfi (classical) and Wine as engines, built by engine/tools/anchors.sh
# into ANCHORS, in an engine league with the server's level 10, played for
# MINUTES; then the league's table (Bayesian Elo, 95% bars) as LEAGUE
# prints it, and the events' games. TIME is the games' clock (default
# 10+1), TURN_MS the engines' time a move (default 800): about a second a
# move for all three (level 10 budgets from its clock). Everything it
# starts is stopped by its pid.
set -eu
usage="usage: engine/tools/league_anchors.sh ANCHORS MINUTES [TIME] [TURN_MS]"
anchors=$(cd "${1:?$usage}" && pwd)
minutes=${2:?$usage}
tc=${3:-10+1}
turn=${4:-800}
BINDIR=${BINDIR:-bin}
for b in "$anchors/rapfi/pbrain-rapfi" "$anchors/wine/pbrain-wine" "$BINDIR/gomokud" "$BINDIR/gomoku"; do
	[ -x "$b" ] || { echo "league_anchors: no $b" >&2; exit 1; }
done
tmp=$(mktemp -d /tmp/gomokud-anchors.XXXXXX)
pid=
stop() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	rm -rf "$tmp"
}
trap stop EXIT
trap 'exit 1' INT TERM
cat >"$tmp/gomokud.conf" <<CONF
listen 127.0.0.1:0
state-dir $tmp/state
log-level info
engine rapfi $anchors/rapfi/pbrain-rapfi turn-ms=$turn memory=256
engine wine $anchors/wine/pbrain-wine turn-ms=$turn memory=256
league anchors freestyle 15 $tc members=level10,rapfi,wine cycles=2 every=0.0001 first=6
CONF
"$BINDIR/gomokud" --config "$tmp/gomokud.conf" >"$tmp/log" 2>&1 &
pid=$!
i=0
until port=$(sed -n 's/.*listening on 127\.0\.0\.1:\([0-9]*\).*/\1/p' "$tmp/log" | head -1) && [ -n "$port" ]; do
	i=$((i + 1))
	[ $i -lt 100 ] || { cat "$tmp/log" >&2; exit 1; }
	sleep 0.1
done
echo "gomokud pid $pid on 127.0.0.1:$port: league anchors (level10, rapfi, wine), $tc, engines $turn ms a move, $minutes minutes"
sleep $((minutes * 60))
printf 'LEAGUES\nLEAGUE anchors\n' |
	"$BINDIR/gomoku" --script --name watcher --ca "$tmp/state/cert.pem" "127.0.0.1:$port" 2>&1 |
	grep -E '^(= LEAGUE|= LRATING|OK LEAGUE)'
echo "games over: $(grep -c 'game over' "$tmp/log"); brain failures and forfeits:"
grep -E "hosted engine's game|forfeit" "$tmp/log" | sed 's/^[^ ]* //' | head -10
