#!/bin/sh
# bin/arena against real brains: the opening kinds (balanced by default, 3
# stones with -b 0) reach the brains as BOARD, colours alternate, and a brain
# that answers an illegal move or nothing at all loses the game.
set -eu
fail() { echo "FAIL: $*"; exit 1; }
bindir=${BINDIR:-bin}
arena=$bindir/arena
brain="$bindir/pbrain-gomoku -l 1"
[ -x "$arena" ] && [ -x "$bindir/pbrain-gomoku" ] || fail "build bin/arena and bin/pbrain-gomoku first"

tmp=$(mktemp -d /tmp/gomoku-arena-XXXXXX)
trap 'rm -rf "$tmp"' EXIT INT TERM

# A brain that logs what it is told and lets the real brain answer.
cat > "$tmp/logbrain" <<EOF
#!/bin/sh
tee -a "$tmp/told.\$\$" | $brain
EOF
chmod +x "$tmp/logbrain"

# Stones in the first BOARD each brain process received: per game, the
# opening's stones for the brain to move, one more for the other.
board_sizes() {
	for f in "$tmp"/told.*; do
		awk '/^BOARD/ { on = 1; n = 0; next } /^DONE/ { print n; exit } on { n++ }' "$f"
	done | sort -n | tr '\n' ' '
	rm -f "$tmp"/told.*
}

# Default: balanced openings of 4-6 stones (the deep check at 100k nodes,
# not the default 1M: under TSan every million nodes costs many seconds).
"$arena" -d 100000 -g 2 -t 300 "$tmp/logbrain" "$tmp/logbrain" > "$tmp/out" 2>&1 || fail "arena failed: $(cat "$tmp/out")"
grep -q "balanced openings (+-60, +-180 at 100000 nodes)" "$tmp/out" || fail "default is not balanced: $(head -1 "$tmp/out")"
grep -q "brain 1 black" "$tmp/out" && grep -q "brain 1 white" "$tmp/out" || fail "colours not swapped"
grep -q "of 2 (" "$tmp/out" || fail "no result line: $(cat "$tmp/out")"
sizes=$(board_sizes)
set -- $sizes
[ $# -eq 4 ] || fail "want 4 first boards, got '$sizes'"
[ "$1" -ge 4 ] && [ "$1" -le 6 ] && [ "$4" -le 7 ] || fail "balanced openings of '$sizes' stones"
echo "default: balanced openings of $sizes stones, colours swapped"

# -b 0: plain 3-stone openings.
"$arena" -b 0 -g 2 -t 300 "$tmp/logbrain" "$tmp/logbrain" > "$tmp/out" 2>&1 || fail "arena -b 0 failed"
grep -q "3-stone openings" "$tmp/out" || fail "-b 0 header: $(head -1 "$tmp/out")"
sizes=$(board_sizes)
[ "$sizes" = "3 3 4 4 " ] || fail "-b 0 gave first boards of '$sizes' stones, want 3 3 4 4"
echo "-b 0: 3-stone openings"

# An illegal answer and a silent brain each lose every game (3-stone
# openings: a balanced one costs the arena seconds under TSan).
cat > "$tmp/offboard" <<'EOF'
#!/bin/sh
while read -r l; do
	case "$l" in START*) echo OK ;; TURN*|BEGIN|DONE) echo 99,99 ;; esac
done
EOF
cat > "$tmp/silent" <<'EOF'
#!/bin/sh
while read -r l; do
	case "$l" in START*) echo OK ;; esac
done
EOF
chmod +x "$tmp/offboard" "$tmp/silent"
"$arena" -b 0 -g 2 -t 300 "$brain" "$tmp/offboard" > "$tmp/out" 2>&1 || fail "arena vs offboard failed"
grep -q "2 wins, 0 losses" "$tmp/out" || fail "an off-board answer did not lose: $(cat "$tmp/out")"
grep -q "brain 2 answered '99,99'" "$tmp/out" || fail "no reason for the off-board loss"
"$arena" -b 0 -g 2 -t 200 -T 100 "$brain" "$tmp/silent" > "$tmp/out" 2>&1 || fail "arena vs silent failed"
grep -q "2 wins, 0 losses" "$tmp/out" || fail "a silent brain did not lose: $(cat "$tmp/out")"
grep -q "brain 2 timed out" "$tmp/out" || fail "no reason for the timeout"
echo "illegal and missing answers lose the game"

# -B: the book's openings, in order, each twice with colours swapped; a
# third opening wraps round to the first.
cat > "$tmp/book" <<'EOF2'
# two openings
7,7 8,8 7,9    # black, white, black

6,6 6,9 9,6 8,10 5,4
EOF2
"$arena" -v -B "$tmp/book" -g 6 -t 300 "$tmp/logbrain" "$tmp/logbrain" > "$tmp/out" 2>&1 || fail "arena -B failed: $(cat "$tmp/out")"
grep -q "2 openings from $tmp/book" "$tmp/out" || fail "-B header: $(head -1 "$tmp/out")"
grep -q "\[7,7 8,8 7,9 .*\]" "$tmp/out" && grep -q "\[6,6 6,9 9,6 8,10 5,4 .*\]" "$tmp/out" ||
	fail "the book's openings were not played: $(cat "$tmp/out")"
sizes=$(board_sizes)
[ "$sizes" = "3 3 3 3 4 4 4 4 5 5 6 6 " ] || fail "-B gave first boards of '$sizes' stones"
for bad in "7,7 7,7|'7,7': an illegal stone" "7,7 x|'x': not x,y on the board" \
    "7,7 8,8 7,9 8,9 7,10 8,10 7,11 8,11 7,12|'7,12': more stones than the arena takes"; do
	printf '# a comment\n%s\n' "${bad%%|*}" > "$tmp/badbook"
	if "$arena" -B "$tmp/badbook" -g 2 "$brain" "$brain" > "$tmp/out" 2>&1; then
		fail "a book with '${bad%%|*}' was played"
	fi
	grep -qF "badbook:2: ${bad#*|}" "$tmp/out" || fail "'${bad%%|*}' refused with: $(cat "$tmp/out")"
done
echo "-B: the book's openings in order; bad books refused"

# -V vets the book's openings: the first (black has an open four, white to
# move) is rejected at once; the second (quiet) is printed with its scores;
# the third scores -15 for white but -309 or worse after each of white's
# three best replies, so it is rejected by the searches after the replies.
# The status says fewer than asked for passed.
cat > "$tmp/cand" <<'EOF2'
6,7 0,0 7,7 0,14 8,7 14,0 9,7
7,7 8,8 8,6
6,6 7,9 9,6 8,10 6,4
EOF2
status=0
"$arena" -V 3 -B "$tmp/cand" -d 20000 -v > "$tmp/out" 2> "$tmp/err" || status=$?
[ "$status" -eq 1 ] || fail "-V with one of three passing exited $status"
[ "$(grep -c . "$tmp/out")" -eq 1 ] && grep -q "^7,7 8,8 8,6  # 1: [-+][0-9]*; .* .* .*" "$tmp/out" ||
	fail "-V printed: $(cat "$tmp/out" "$tmp/err")"
grep -q "^6,7 0,0 7,7 0,14 8,7 14,0 9,7  # 0 rejected: -2999[0-9];$" "$tmp/err" &&
	grep -q "^6,6 7,9 9,6 8,10 6,4  # 2 rejected: -15; [0-9,]* [-+][0-9]* [0-9,]* [-+][0-9]* [0-9,]* [-+][0-9]*$" "$tmp/err" ||
	fail "-V -v rejected: $(cat "$tmp/err")"
echo "-V: a decided opening rejected, a quiet one kept, one rejected after its replies"

# -E asks both brains about each position and prints their evaluations
# for the side to move: ours from "ev N", Rapfi's form ("Eval +M1", a win in
# one ply, is 29999; "Eval -250") from a brain that speaks it; a forced
# five has no search and so no evaluation ("-"). Positions of any length;
# a bad stone stops it with the line and the reason.
cat > "$tmp/rapfi-like" <<'EOF2'
#!/bin/sh
n=0
while read -r l; do
	case "$l" in
	START*) echo OK ;;
	DONE)
		n=$((n + 1))
		if [ $n -eq 1 ]; then
			echo "MESSAGE Depth 3-5 | Eval +M1 | Time 0ms | H7"
			echo 7,6
		else
			echo "MESSAGE Depth 9-12 | Eval -250 | Time 5ms | A15"
			echo 0,14
		fi ;;
	esac
done
EOF2
chmod +x "$tmp/rapfi-like"
cat > "$tmp/pos" <<'EOF2'
# black to move, with one five point, then a quiet position of 14 stones
7,7 0,0 7,8 0,1 7,9 0,2 7,10 7,11
7,7 8,8 7,8 8,9 6,6 9,9 5,5 10,10 4,4 6,10 11,11 3,3 2,2 12,12  # comment
EOF2
"$arena" -E "$tmp/pos" -t 300 "$brain" "$tmp/rapfi-like" > "$tmp/out" 2>&1 || fail "-E failed: $(cat "$tmp/out")"
grep -q "^ *- 7,6 *29999 7,6 *| 7,7 0,0 7,8 0,1 7,9 0,2 7,10 7,11$" "$tmp/out" &&
	grep -q "^ *-\{0,1\}[0-9][0-9]* [0-9]*,[0-9]* *-250 0,14 *| 7,7 8,8 .* 2,2 12,12$" "$tmp/out" &&
	grep -q "^positions: 2, the same move in 1$" "$tmp/out" || fail "-E printed: $(cat "$tmp/out")"
printf '7,7 8,8\n7,7 7,7\n' > "$tmp/pos"
if "$arena" -E "$tmp/pos" -t 300 "$brain" "$tmp/rapfi-like" > "$tmp/out" 2>&1; then
	fail "-E went on past an illegal stone"
fi
grep -qF "pos:2: '7,7': an illegal stone" "$tmp/out" || fail "-E on a bad stone: $(cat "$tmp/out")"
echo "-E: both brains' evaluations and moves per position; a bad position refused"
