#!/bin/sh
# bin/winfit: a short run writes one well-formed line a searched position
# (its game's result on every line of the game, the weak side's colour
# alternating with -W), is the same run again (a fixed budget), and -i
# fits the written file to the K the run printed.
set -eu
fail() { echo "FAIL: $*"; exit 1; }
winfit=${BINDIR:-bin}/winfit
[ -x "$winfit" ] || fail "build bin/winfit first"

tmp=$(mktemp -d /tmp/gomoku-winfit-XXXXXX)
trap 'rm -rf "$tmp"' EXIT INT TERM
book=tests/engine/openings-freestyle.txt

"$winfit" -B $book -g 4 -n 20000 -o 3 -w "$tmp/a" > "$tmp/a.out" || fail "the run failed"
grep -q '^games: 4, positions: ' "$tmp/a.out" || fail "no count of games: $(cat "$tmp/a.out")"
grep -q '^calibration' "$tmp/a.out" || fail "no calibration table"
k=$(sed -n 's/^K: \([0-9.]*\).*/\1/p' "$tmp/a.out")
[ -n "$k" ] || fail "no K: $(cat "$tmp/a.out")"
n=$(grep -vc '^#' "$tmp/a")
[ "$n" -ge 40 ] || fail "only $n positions from 4 games"
bad=$(awk '!/^#/ && (NF != 6 || ($4 != 0 && $4 != 0.5 && $4 != 1) || $5 != 0 ||
	($6 != 0 && $6 != 1) || $3 > 30000 || $3 < -30000)' "$tmp/a" | wc -l)
[ "$bad" -eq 0 ] || fail "$bad malformed lines"
mixed=$(awk '!/^#/ { if (($1 in r) && r[$1] != $4) m++; r[$1] = $4 } END { print m + 0 }' "$tmp/a")
[ "$mixed" -eq 0 ] || fail "a game with two results"

"$winfit" -B $book -g 4 -n 20000 -o 3 -w "$tmp/b" > /dev/null || fail "the second run failed"
grep -v "^#" "$tmp/a" > "$tmp/a.rows"
grep -v "^#" "$tmp/b" > "$tmp/b.rows"
cmp -s "$tmp/a.rows" "$tmp/b.rows" || fail "the same run gave other positions"

"$winfit" -i "$tmp/a" -o 3 > "$tmp/i.out" || fail "-i failed"
ki=$(sed -n 's/^K: \([0-9.]*\).*/\1/p' "$tmp/i.out")
[ "$ki" = "$k" ] || fail "-i fitted K $ki, the run $k"

"$winfit" -B $book -g 2 -n 20000 -W 4 -w "$tmp/w" > /dev/null || fail "the -W run failed"
bad=$(awk '!/^#/ && $5 != $1 % 2 + 1' "$tmp/w" | wc -l)
[ "$bad" -eq 0 ] || fail "the weak side is not black in game 0 and white in game 1"
echo "PASS: test_winfit"
