#!/bin/sh
# bin/tune: self-play writes well-formed samples of quiet positions, and the
# fit lowers the error of the result prediction below the current values'
# on the samples it fits.
set -eu
fail() { echo "FAIL: $*"; exit 1; }
tune=${BINDIR:-bin}/tune
[ -x "$tune" ] || fail "build bin/tune first"

tmp=$(mktemp -d /tmp/gomoku-tune-XXXXXX)
trap 'rm -rf "$tmp"' EXIT INT TERM

"$tune" gen 10 3000 1 "$tmp/s" || fail "gen failed"
n=$(wc -l < "$tmp/s")
[ "$n" -ge 100 ] || fail "only $n samples from 10 games"
# result, current value, then 2 x (10 line patterns + 11 classes)
bad=$(awk 'NF != 44 || ($1 != "0.0" && $1 != "0.5" && $1 != "1.0")' "$tmp/s" | wc -l)
[ "$bad" -eq 0 ] || fail "$bad malformed samples"
# quiet positions only: no open-four cell (class 9) for either side
loud=$(awk '$(3 + 10 + 9) != 0 || $(3 + 21 + 10 + 9) != 0' "$tmp/s" | wc -l)
[ "$loud" -eq 0 ] || fail "$loud samples with an open three on the board"

"$tune" fit -i 300 "$tmp/s" > "$tmp/fit" || fail "fit failed"
cur=$(sed -n 's/.*current values: all \([0-9.]*\),.*/\1/p' "$tmp/fit")
new=$(sed -n 's/.*fitted values: train \([0-9.]*\),.*/\1/p' "$tmp/fit")
[ -n "$cur" ] && [ -n "$new" ] || fail "no error figures: $(cat "$tmp/fit")"
awk -v c="$cur" -v n="$new" 'BEGIN { exit !(n < c) }' || fail "fit did not lower the error: $cur -> $new"
[ "$(grep -c '^pattern.c val\[\]:\( -\{0,1\}[0-9]*\)\{10\}$' "$tmp/fit")" -eq 1 ] || fail "no val[] line"
[ "$(grep -c '^pattern.c bonus\[\]:\( -\{0,1\}[0-9]*\)\{11\}$' "$tmp/fit")" -eq 1 ] || fail "no bonus[] line"
"$tune" fit "$tmp/missing" 2> /dev/null && fail "fit of a missing file succeeded"
"$tune" bogus 2> /dev/null && fail "an unknown command succeeded"
echo "tune: $n samples, error $cur -> $new"
