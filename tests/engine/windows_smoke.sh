#!/bin/sh
# tests/engine/windows_smoke.sh EXE: the Windows brain under wine (in a
# throwaway prefix) answers ABOUT, plays a first move and a reply with two
# threads under max_memory, and exits on END. Run by make check-windows.
set -eu
fail() { echo "FAIL: $*"; exit 1; }
exe=${1:?usage: windows_smoke.sh EXE}
command -v wine > /dev/null || fail "needs wine (sh mk/deps.sh --windows)"
[ -f "$exe" ] || fail "$exe not built (make windows)"
tmp=$(mktemp -d /tmp/gomoku-wine-XXXXXX)
trap 'rm -rf "$tmp"' EXIT INT TERM
out=$(printf 'ABOUT\nSTART 15\nINFO max_memory 70000000\nINFO thread_num 2\nINFO timeout_turn 500\nBEGIN\nTURN 8,8\nEND\n' |
	WINEPREFIX="$tmp" WINEDEBUG=-all timeout 300 wine "$exe" 2> "$tmp/err" | tr -d '\r' | grep -v '^MESSAGE') ||
	fail "wine run failed: $(tail -5 "$tmp/err")"
echo "$out"
echo "$out" | grep -q '^name="gomokud"' || fail "no ABOUT answer"
[ "$(echo "$out" | grep -c '^OK$')" -eq 1 ] || fail "no OK to START"
moves=$(echo "$out" | grep -E '^[0-9]+,[0-9]+$') || fail "no moves"
[ "$(echo "$moves" | wc -l)" -eq 2 ] || fail "expected two moves, got: $moves"
echo "$moves" | grep -qx '8,8' && fail "played the occupied 8,8"
echo "windows brain: ABOUT, START, two moves under wine"
