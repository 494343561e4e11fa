#!/bin/sh
# bin/tune: self-play writes well-formed samples of quiet positions, the
# fit lowers the error of the result prediction below the current values'
# on the samples it fits, and fit -o writes them as engine/weights.h, which
# the engine compiles and scores cells with (gen DEEP labels by a deeper
# search, fit -x leaves out the proven ones); label writes positions with a
# deeper search's score and move, shapes fits the learned table to them and
# writes engine/shapes.h, which the engine's tables are built from.
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
bad=$(awk 'NF != 44 || ($1 != 0 && $1 != 0.5 && $1 != 1)' "$tmp/s" | wc -l)
[ "$bad" -eq 0 ] || fail "$bad malformed samples"
# with DEEP, labelled by a deeper search: a probability, exactly 0 or 1 only
# when proven, and fit -x leaves those out
"$tune" gen 4 2000 3 "$tmp/d" 8000 || fail "gen with DEEP failed"
bad=$(awk 'NF != 44 || $1 < 0 || $1 > 1 || ($1 > 0 && $1 < 0.001) || ($1 < 1 && $1 > 0.999)' \
	"$tmp/d" | wc -l)
[ "$bad" -eq 0 ] || fail "$bad malformed deep samples"
soft=$(awk '$1 > 0 && $1 < 1' "$tmp/d" | wc -l)
hard=$(awk '$1 == 0 || $1 == 1' "$tmp/d" | wc -l)
[ "$soft" -ge 5 ] && [ "$hard" -ge 1 ] || fail "$soft searched and $hard proven deep samples"
"$tune" fit -i 10 -x "$tmp/d" "$tmp/d" "$tmp/d" "$tmp/d" "$tmp/d" "$tmp/d" "$tmp/d" \
	"$tmp/d" "$tmp/d" "$tmp/d" "$tmp/d" "$tmp/d" "$tmp/d" "$tmp/d" "$tmp/d" "$tmp/d" \
	"$tmp/d" "$tmp/d" "$tmp/d" "$tmp/d" > "$tmp/dfit" || fail "fit -x failed: $(cat "$tmp/dfit")"
grep -q "^samples $((soft * 20))," "$tmp/dfit" ||
	fail "fit -x read $(sed -n 's/^samples \([0-9]*\),.*/\1/p' "$tmp/dfit"), not the $soft x 20 unproven ($hard proven)"
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
# the learned table: positions labelled by a deeper search (rule, score,
# the deep search's move, the moves), a fit that lowers the training
# errors of the value and of the policy, and shapes.h in the committed
# form, which the engine's tables are built from
"$tune" label 0 3 500 4000 1 "$tmp/l" || fail "label failed"
"$tune" label 2 2 500 4000 1 "$tmp/l" || fail "label of renju failed"
nl=$(wc -l < "$tmp/l")
[ "$nl" -ge 5 ] || fail "only $nl labelled positions from 5 games"
bad=$(awk '($1 != 0 && $1 != 2) || NF != 5 + 2 * $5 || $5 < 1 || $3 < 0 || $3 > 14 || $4 < 0 || $4 > 14' "$tmp/l" | wc -l)
[ "$bad" -eq 0 ] || fail "$bad malformed labels: $(head -3 "$tmp/l")"
awk '$1 == 2' "$tmp/l" | grep -q . || fail "no renju labels"
# a long run stopped (as by timeout) as soon as it has written a line
# leaves whole lines only: each is written out as it is made
"$tune" label 0 100000 500 4000 5 "$tmp/stopped" &
pid=$!
i=0
while [ ! -s "$tmp/stopped" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
kill "$pid"
wait "$pid" 2>/dev/null || true
[ -s "$tmp/stopped" ] || fail "label wrote nothing in 60 s"
bad=$(awk 'NF != 5 + 2 * $5' "$tmp/stopped" | wc -l)
[ "$bad" -eq 0 ] || fail "a stopped label run left a cut line: $(tail -1 "$tmp/stopped")"
"$tune" shapes -i 200 -m 2 -o "$tmp/engine/shapes.h" "$tmp/l" > "$tmp/sfit" || fail "shapes failed"
for what in value policy; do
	l=$(sed -n "s/^freestyle $what [a-z]*: start train \([0-9.]*\) test [0-9.]*, fitted train \([0-9.]*\) .*/\1 \2/p" "$tmp/sfit")
	[ -n "$l" ] || fail "no freestyle $what figures: $(cat "$tmp/sfit")"
	awk -v l="$l" 'BEGIN { split(l, a, " "); exit !(a[2] < a[1]) }' ||
		fail "the $what fit did not lower the training error: $l"
done
grep -q '^standard: 0 positions, the starting table kept' "$tmp/sfit" || fail "standard fitted without samples"
s=$tmp/engine/shapes.h
grep -q '^ \* line patterns, per rule. Generated by `bin/tune shapes -o$' "$s" || fail "$s does not say how it was made"
grep -q "^ \*   $tmp/l\$" "$s" || fail "$s does not name its samples"
form engine/shapes.h > "$tmp/sform"
form "$s" | diff "$tmp/sform" - > "$tmp/sformdiff" || fail "$s differs from engine/shapes.h in form: $(head "$tmp/sformdiff")"
"$tune" shapes -o "$tmp/start.h" /dev/null > /dev/null || fail "shapes of no samples failed"
cmp -s "$tmp/start.h" "$s" && fail "the fit left the starting table as it was"
if command -v clang-format > /dev/null; then
	clang-format --dry-run --Werror --assume-filename=engine/shapes.h < "$s" 2> "$tmp/fmt" ||
		fail "$s is not in the tree's style: $(head "$tmp/fmt")"
fi
# every combination's entry in the engine's table is its shape's row of
# the written file, and standard (no samples) keeps the starting rows
cat > "$tmp/sprobe.c" << 'EOF'
#include "engine/pattern.h"
#include "engine/shapes.h"

#include <stdio.h>

int
main(void)
{
	int bad = 0;

	pattern_init();
	for (int r = 0; r < 3; r++) {
		const shape_t *t = pattern_shape_table(r);
		for (int i = 0; i < COMBO_COUNT; i++) {
			int p[4] = { i % LP_COUNT, i / LP_COUNT % LP_COUNT,
				i / (LP_COUNT * LP_COUNT) % LP_COUNT, i / (LP_COUNT * LP_COUNT * LP_COUNT) };
			const int32_t *w = shape_table[r][pattern_shape(p[0], p[1], p[2], p[3])];
			bad += t[i].val[0] != w[0] || t[i].val[1] != w[1] || t[i].pol[0] != w[2] ||
			    t[i].pol[1] != w[3];
		}
	}
	printf("%d\n", bad);
	return bad != 0;
}
EOF
${CC:-cc} -std=c11 -Wall -Wextra -Wpedantic -Wshadow -Werror -D_DEFAULT_SOURCE -I"$tmp" -I. \
	-o "$tmp/sprobe" "$tmp/sprobe.c" engine/pattern.c -lpthread 2> "$tmp/cc" ||
	fail "the engine does not compile with $s: $(cat "$tmp/cc")"
"$tmp/sprobe" > "$tmp/sprobe.out" || fail "$(cat "$tmp/sprobe.out") combinations are not $s's"
sed -n '/\/\* standard \*\//,/\/\* renju \*\//p' "$tmp/start.h" > "$tmp/std0"
sed -n '/\/\* standard \*\//,/\/\* renju \*\//p' "$s" | cmp -s "$tmp/std0" - || fail "standard's rows changed"
[ -s "$tmp/std0" ] || fail "no standard rows in $tmp/start.h"
"$tune" shapes "$tmp/missing" 2> /dev/null && fail "shapes of a missing file succeeded"
"$tune" fit "$tmp/missing" 2> /dev/null && fail "fit of a missing file succeeded"
"$tune" bogus 2> /dev/null && fail "an unknown command succeeded"
echo "tune: $n samples, error $cur -> $new; $nl labelled positions"
sed -n 's/^freestyle //p' "$tmp/sfit"
