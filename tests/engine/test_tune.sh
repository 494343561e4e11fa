#!/bin/sh
# bin/tune: self-play writes well-formed samples of quiet positions, the
# fit lowers the error of the result prediction below the current values'
# on the samples it fits, and fit -o writes them as engine/weights.h, which
# the engine compiles and scores cells with.
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

mkdir -p "$tmp/engine"
"$tune" fit -i 300 -o "$tmp/engine/weights.h" "$tmp/s" > "$tmp/fit" || fail "fit failed"
cur=$(sed -n 's/.*current values: all \([0-9.]*\),.*/\1/p' "$tmp/fit")
new=$(sed -n 's/.*fitted values: train \([0-9.]*\),.*/\1/p' "$tmp/fit")
[ -n "$cur" ] && [ -n "$new" ] || fail "no error figures: $(cat "$tmp/fit")"
awk -v c="$cur" -v n="$new" 'BEGIN { exit !(n < c) }' || fail "fit did not lower the error: $cur -> $new"
line=$(sed -n 's/^weight_line:\(\( -\{0,1\}[0-9]\{1,\}\)\{10\}\)$/\1/p' "$tmp/fit")
class=$(sed -n 's/^weight_class:\(\( -\{0,1\}[0-9]\{1,\}\)\{11\}\)$/\1/p' "$tmp/fit")
[ -n "$line" ] && [ -n "$class" ] || fail "no weight lines: $(cat "$tmp/fit")"

# fit -o writes the file the engine compiles: the committed engine/weights.h's
# form but for the numbers and what they were fitted to, and the printed weights
w=$tmp/engine/weights.h
[ -s "$w" ] || fail "fit -o wrote no $w"
grep -q '^ \* `bin/tune fit -o engine/weights.h`' "$w" || fail "$w does not say how it was made"
grep -q "^ \*   $tmp/s\$" "$w" || fail "$w does not name its samples"
form() { sed '1,/^ \*\/$/d' "$1" | sed 's/-\{0,1\}[0-9]\{1,\}/N/g'; }
form engine/weights.h > "$tmp/form"
form "$w" | diff "$tmp/form" - > "$tmp/formdiff" || fail "$w differs from engine/weights.h in form: $(cat "$tmp/formdiff")"
got=$(sed -n '/weight_line\[/,/^};/s/.*= \(-\{0,1\}[0-9]*\),$/\1/p' "$w" | tr '\n' ' ')
[ "$got" = "${line# } " ] || fail "line weights written $got, printed $line"
got=$(sed -n '/weight_class\[/,/^};/s/.*= \(-\{0,1\}[0-9]*\),$/\1/p' "$w" | tr '\n' ' ')
[ "$got" = "${class# } " ] || fail "class weights written $got, printed $class"
if command -v clang-format > /dev/null; then
	clang-format --dry-run --Werror --assume-filename=engine/weights.h < "$w" 2> "$tmp/fmt" ||
		fail "$w is not in the tree's style: $(cat "$tmp/fmt")"
fi
# the engine's tables built from it: a cell with an open three and a closed
# three scores their line weights plus the open three-and-more class weight
# (capped at 8000)
cat > "$tmp/probe.c" << 'EOF'
#include "engine/pattern.h"
#include "engine/weights.h"

#include <stdio.h>

int
main(void)
{
	int want = weight_line[LP_F3] + weight_line[LP_B3] + 2 * weight_line[LP_DEAD] +
	    weight_class[T_F3P];
	const combo_t *k;

	pattern_init();
	k = pattern_combo(LP_F3, LP_B3, LP_DEAD, LP_DEAD);
	want = want > 8000 ? 8000 : want;
	printf("%d %d\n", k->score, want);
	return k->score != want || k->cls != T_F3P;
}
EOF
${CC:-cc} -std=c11 -Wall -Wextra -Wpedantic -Wshadow -Werror -D_DEFAULT_SOURCE -I"$tmp" -I. \
	-o "$tmp/probe" "$tmp/probe.c" engine/pattern.c -lpthread 2> "$tmp/cc" ||
	fail "the engine does not compile with $w: $(cat "$tmp/cc")"
"$tmp/probe" > "$tmp/probe.out" || fail "the engine's scores are not $w's: $(cat "$tmp/probe.out")"
"$tune" fit "$tmp/missing" 2> /dev/null && fail "fit of a missing file succeeded"
"$tune" bogus 2> /dev/null && fail "an unknown command succeeded"
echo "tune: $n samples, error $cur -> $new"
