#!/bin/sh
# bin/reviewfig: a tiny run prints every figure well formed (the marks'
# counts add up, the puzzles' classes add up to those kept, the false
# marks are no more than the marks), writes its games one well-formed line
# each, plays the same games again (a fixed budget), and reviews the
# written games with -i to the same figures. Its puzzles' budget is
# daemon/puzzles.c's. About 8 s of CPU.
set -eu
fail() { echo "FAIL: $*"; exit 1; }
reviewfig=${BINDIR:-bin}/reviewfig
[ -x "$reviewfig" ] || fail "build bin/reviewfig first"

tmp=$(mktemp -d /tmp/gomoku-reviewfig-XXXXXX)
trap 'rm -rf "$tmp"' EXIT INT TERM
book=tests/engine/openings-freestyle.txt
args="-B $book -g 2 -L 6 -p 5000 -o 3"
review="-n 5000 -x 2"

# the figures, less the lines of time and of the machine's speed
figures() {
	grep -v -e '^nodes in' -e '^  every search' -e '^  those that' -e '^    their' \
	    -e '^    and their' -e '^  (the others' -e '^done in' "$1" |
	    sed -e 's/, [0-9]* s$//' -e 's/; made in [0-9]* s$//' -e 's/^reviewfig: .*//'
}

# shellcheck disable=SC2086
"$reviewfig" $args $review -q 1 -m 5 -w "$tmp/games" > "$tmp/a.out" || fail "the run failed"
out=$(cat "$tmp/a.out")
grep -q '^games: 2 (' "$tmp/a.out" || fail "no count of games: $out"
grep -q '^  every search: [0-9]*, median [0-9]*' "$tmp/a.out" || fail "no timed nodes: $out"
grep -q '^review: 2 games at 5000 nodes a position' "$tmp/a.out" || fail "no review: $out"
grep -q '^  per 1,000 games: [0-9]* (95% in \[[0-9]*, [0-9]*\]' "$tmp/a.out" ||
	fail "no puzzles per 1,000 games: $out"
grep -q '^larger review: 2 games at 10000 nodes a position' "$tmp/a.out" ||
	fail "no larger review: $out"

# the marks by kind add up to the review's count, and to the table's
read -r mw bl tp <<EOF
$(sed -n 's/^  marks: \([0-9]*\) missed wins, \([0-9]*\) blunders, \([0-9]*\) turning points$/\1 \2 \3/p' "$tmp/a.out")
EOF
[ -n "$tp" ] || fail "no marks line: $out"
marks=$((mw + bl + tp))
if [ "$tp" -lt 1 ] || [ "$tp" -gt 2 ]; then fail "$tp turning points in 2 games"; fi
read -r shown false larger missed <<EOF
$(awk '/^  kind / { t = 1; next } t && /^  all / { print $2, $3, $8, $9; exit }' "$tmp/a.out")
EOF
[ -n "$missed" ] || fail "no table's total: $out"
[ "$shown" -eq "$marks" ] || fail "the table has $shown default marks, the review $marks"
[ "$false" -le "$shown" ] || fail "$false false marks of $shown"
[ "$missed" -le "$larger" ] || fail "$missed missed marks of the larger review's $larger"
read -r kept wins vcf vct fives unproven past <<EOF
$(sed -n 's/^puzzles ([^)]*): \([0-9]*\) kept of \([0-9]*\) missed wins: \([0-9]*\) VCF ([0-9.]* plies on average), \([0-9]*\) VCT ([0-9.]*); \([0-9]*\) a five in one, \([0-9]*\) not proven, \([0-9]*\) past.*/\1 \2 \3 \4 \5 \6 \7/p' "$tmp/a.out")
EOF
[ -n "$past" ] || fail "the puzzles' line: $out"
[ "$wins" -eq "$mw" ] || fail "$wins missed wins offered, $mw marked"
[ "$kept" -eq $((vcf + vct)) ] || fail "$kept puzzles kept, $vcf VCF and $vct VCT"
[ "$wins" -eq $((kept + fives + unproven + past)) ] || fail "missed wins not accounted for: $out"
# the missed wins by the engine's word and by their plies: all of them, and the kept
sum() { tr ',' '\n' | sed -n 's/.* \([0-9]*\) (\([0-9]*\))$/\1 \2/p' |
	awk '{ a += $1; k += $2 } END { print a + 0, k + 0 }'; }
words=$(sed -n "s/^  the missed wins by the engine's word for its move (kept)://p" "$tmp/a.out" | sum)
[ "$words" = "$wins $kept" ] || fail "the missed wins by word: $words, not $wins $kept"
lens=$(sed -n 's/^  and by the plies of the win its score gave: //p' "$tmp/a.out" | sum)
[ "$lens" = "$wins $kept" ] || fail "the missed wins by plies: $lens, not $wins $kept"
read -r ck nk cu nu <<EOF
$(sed -n 's/^  missed wins the larger review confirms: \([0-9]*\) of the \([0-9]*\) kept as puzzles, \([0-9]*\) of the \([0-9]*\) not proven$/\1 \2 \3 \4/p' "$tmp/a.out")
EOF
[ "$nk" = "$kept" ] || fail "the confirmed missed wins: $nk kept, not $kept"
[ "$nu" = "$unproven" ] || fail "the confirmed missed wins: $nu not proven, not $unproven"
[ "$ck" -le "$nk" ] || fail "$ck of $nk kept confirmed"
[ "$cu" -le "$nu" ] || fail "$cu of $nu not proven confirmed"

# the games file: three games, each legal (-i reads them back below)
n=$(grep -vc '^#' "$tmp/games")
[ "$n" -eq 2 ] || fail "$n games written"
bad=$(awk '!/^#/ && (NF != 4 || $1 != 6 || $2 != 6 ||
	($3 != 0 && $3 != 0.5 && $3 != 1) || $4 !~ /^[0-9]+(,[0-9]+)+$/)' "$tmp/games" | wc -l)
[ "$bad" -eq 0 ] || fail "$bad malformed games"

# the same games again (played only: -T without timed searches)
# shellcheck disable=SC2086
"$reviewfig" $args -q 0 -T -w "$tmp/games2" > /dev/null || fail "the second run failed"
grep -v '^#' "$tmp/games" > "$tmp/a.games"
grep -v '^#' "$tmp/games2" > "$tmp/b.games"
cmp -s "$tmp/a.games" "$tmp/b.games" || fail "the same run played other games"

# shellcheck disable=SC2086
"$reviewfig" -i "$tmp/games" $review -q 0 -o 3 > "$tmp/i.out" || fail "-i failed"
figures "$tmp/a.out" > "$tmp/a.fig"
figures "$tmp/i.out" > "$tmp/i.fig"
cmp -s "$tmp/a.fig" "$tmp/i.fig" || fail "-i gave other figures: $(diff "$tmp/a.fig" "$tmp/i.fig")"

# -R: the blunder judges on the same games, each row well formed; a
# judge with the guards marks no more than the same fall without them,
# a larger fall no more than a smaller one, the guarded judges no blunder
# from a lost position or into a won one, and the deeper review confirms
# no more than a judge marked
"$reviewfig" -R -i "$tmp/games" -n 5000 -D 1 -x 2 > "$tmp/r.out" || fail "-R failed"
# the first table's rows (the judge's words, then 12 numbers)
awk '/^blunders:/ { exit } /^  a fall of/' "$tmp/r.out" > "$tmp/r.first"
rows=$(awk '{ for (i = NF - 11; i <= NF; i++) if ($i !~ /^[0-9.]+$/) exit 1; n++ } END { print n }' \
	"$tmp/r.first") || fail "-R: a row not well formed: $(cat "$tmp/r.out")"
[ "$rows" = 5 ] || fail "-R: $rows judges' rows: $(cat "$tmp/r.out")"
col() { sed -n "${1}p" "$tmp/r.first" | awk -v c="$2" '{ print $(NF - c + 1) }'; }
blunders() { col "$1" 12; }
[ "$(blunders 3)" -le "$(blunders 1)" ] || fail "-R: the guards added blunders"
[ "$(blunders 4)" -le "$(blunders 3)" ] && [ "$(blunders 3)" -le "$(blunders 5)" ] ||
	fail "-R: a larger fall marked more"
for j in 3 4 5; do
	[ "$(col $j 1)" = 0 ] && [ "$(col $j 2)" = 0 ] || fail "-R: judge $j marked a lost or won move"
done
grep -q '^the first 1 games reviewed again at 2 times' "$tmp/r.out" || fail "-R: no deeper review"
awk '/^the first/ { on = 1; next } on && /^blunders:/ { exit } on && /^  a fall of/' "$tmp/r.out" |
	awk '{ n++ } $(NF - 3) < $(NF - 2) { exit 1 } END { if (n != 5) exit 1 }' ||
	fail "-R: the deeper review's rows: $(cat "$tmp/r.out")"

# the tool proves puzzles with the daemon's budget
d=$(sed -n 's/^[[:space:]]*PROVE_NODES = \([0-9]*\),.*/\1/p' daemon/puzzles.c)
t=$(sed -n 's/^enum { PROVE_NODES = \([0-9]*\) };/\1/p' engine/tools/reviewfig.c)
[ -n "$d" ] || fail "no PROVE_NODES in daemon/puzzles.c"
[ "$d" = "$t" ] || fail "PROVE_NODES: daemon/puzzles.c $d, reviewfig $t"
d=$(sed -n 's/^[[:space:]]*PROTO_LIST_MAX = \([0-9]*\),.*/\1/p' proto/proto.h)
t=$(sed -n 's/^enum { LIST_MAX = \([0-9]*\) };/\1/p' engine/tools/reviewfig.c)
[ -n "$d" ] || fail "no PROTO_LIST_MAX in proto/proto.h"
[ "$d" = "$t" ] || fail "a puzzle's moves: proto/proto.h $d, reviewfig $t"
echo "PASS: test_reviewfig"
