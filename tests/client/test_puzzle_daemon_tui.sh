#!/bin/sh
# The puzzle mode (PROTOCOL.md 5.20, issue 47) on the real gomokud, its
# solvers on a bot worker and its SQLite store. Two script clients play a
# public game where white answers black's open three h8-j8 with its own
# (c3-e3) and black plays elsewhere, and white makes its open four; black
# resigns and the game is reviewed (REVIEW): the missed win becomes a
# puzzle, its first move either end of the three. A
# new account in tmux presses z: the puzzle opens (its number, rating,
# class and plies as the daemon logged it). Its kept solution is read by a
# guest's script client (a wrong move fails and shows it; a guest's try is
# neither kept nor rated), and the account plays it: each move judged and
# the defence's reply on the board, until solved, with its new puzzle
# rating, provisional, above 1500. R tries it again with the other end of
# the three, a proven win that is not the kept first move: solved, not
# rated, and the screen says why. Then the game of
# tests/daemon/test_puzzles.c (black misses a double four at move 13, and
# earlier wins) is played and reviewed; N opens one of its puzzles: a
# quiet move fails it, rated down from the last rating with the change,
# and ] steps the solution. Prints how long the test took.
. tests/client/lib.sh
echo "checks: a puzzle on a real gomokud: a game with a missed win reviewed, z opens its puzzle, its solution played to solved and rated; R again with another winning first move, unrated; N and a failed try, rated down, its solution stepped"
[ -x "$GOMOKUD" ] || { echo "FAIL - $GOMOKUD is not built"; exit 1; }
command -v tmux >/dev/null || { echo "FAIL - tmux is not installed (make deps)"; exit 1; }
tmux_server pzd
started=$(date +%s)
printf 'review-ms 150\nbot-threads 1\n' >"$T/d.conf"
gomokud_start --config "$T/d.conf"
run() { timeout 30 "$GOMOKU" --script --ca "$T/state/cert.pem" "$@" "127.0.0.1:$DPORT"; }
# until_seen FILE PATTERN [COUNT]: PATTERN's lines in FILE reach COUNT (1)
until_seen() {
	u_i=0
	while [ "$(grep -c -- "$2" "$1")" -lt "${3:-1}" ]; do
		u_i=$((u_i + 1))
		if [ $u_i -gt 300 ]; then
			echo "--- $1 while waiting for ${3:-1} of: $2"
			cat "$1"
			return 1
		fi
		sleep 0.1
	done
}

# play_game NAME MOVES...: two script clients (NAME's b and w guests), fed
# through FIFOs, play MOVES in a public game, each line once the last had
# its answer; black resigns and asks for the review; GAME is its id once
# reviewed and its missed wins are puzzles
play_game() {
	pg=$1
	shift
	mkfifo "$T/$pg-b.in" "$T/$pg-w.in"
	run --name "${pg}b" <"$T/$pg-b.in" >"$T/$pg-b.out" 2>&1 &
	BPID=$!
	exec 3>"$T/$pg-b.in"
	run --name "${pg}w" <"$T/$pg-w.in" >"$T/$pg-w.out" 2>&1 &
	WPID=$!
	exec 4>"$T/$pg-w.in"
	echo "SEEK freestyle 15 none black casual none" >&3
	until_seen "$T/$pg-b.out" "^OK SEEK"
	echo "SEEK freestyle 15 none white casual none" >&4
	check "$pg: two guests are paired" until_seen "$T/$pg-b.out" "^\* START "
	ROOM=$(sed -n 's/^\* START \([^ ]*\) .*/\1/p' "$T/$pg-b.out")
	n=0
	for mv in "$@"; do
		n=$((n + 1))
		if [ $((n % 2)) -eq 1 ]; then
			echo "MOVE $ROOM $mv" >&3
			until_seen "$T/$pg-b.out" "^OK MOVE" $(((n + 1) / 2)) || break
		else
			echo "MOVE $ROOM $mv" >&4
			until_seen "$T/$pg-w.out" "^OK MOVE" $((n / 2)) || break
		fi
	done
	check "$pg: the game's $# moves were played" [ "$n" -eq $# ]
	echo "RESIGN $ROOM" >&3
	check "$pg: black resigns" until_seen "$T/$pg-w.out" "^\* OVER"
	echo "HISTORY" >&3
	until_seen "$T/$pg-b.out" "^OK HISTORY"
	GAME=$(sed -n 's/^= GAME \([0-9]*\) .*/\1/p' "$T/$pg-b.out" | head -1)
	echo "REVIEW $GAME" >&3
	echo "!wait REVIEWED" >&3
	check "$pg: the game is reviewed" until_seen "$T/$pg-b.out" "^\* REVIEWED $GAME ok"
	exec 3>&- 4>&-
	wait "$BPID" "$WPID"
	check "$pg: its missed wins become puzzles" until_seen "$T/d.log" "made from game $GAME,"
	sleep 1 # all of them
	echo "     (the daemon made $(grep -c "made from game $GAME," "$T/d.log") puzzles of game $GAME)"
}

# an open three (h8-j8) white leaves open for its own (c3-e3), and black
# plays o15; white's open four: one puzzle, whose first move may be
# either end of black's three, g8 or k8
play_game three h8 c3 i8 d3 j8 e3 o15 f3
GAME1=$GAME
check "the open three's game makes one puzzle" [ "$(grep -c "made from game $GAME1," "$T/d.log")" -eq 1 ]

# the account solves the puzzle z opens
$TM new-session -d -s ann -x 80 -y 24 \
    "GOMOKU_PASSWORD=s3cret-pass LANG=C.UTF-8 $GOMOKU --ca $T/state/cert.pem --register ann 127.0.0.1:$DPORT 2>$T/ann.err; printf '\\nEXIT=%s\\n' \$?; sleep 60"
step "ann signs in" ann "Signed in as ann"
step "the lobby names the puzzle keys" ann "Puzzles: z the next one for you, d the daily one"
keys ann z
step "z opens a puzzle" ann ", rated 1500"
P=$(screen ann | sed -n 's/.*Puzzle \([0-9]*\), rated.*/\1/p' | head -1)
# the daemon's log line: "puzzle P made from game G, move M (vcf, N plies)"
LOGGED=$(grep "info puzzle $P made from game $GAME1," "$T/d.log")
check "it is one of the game's ($P)" [ -n "$LOGGED" ]
CLASS=$(echo "$LOGGED" | sed -n 's/.*(\([a-z]*\), [0-9]* plies).*/\1/p')
PLIES=$(echo "$LOGGED" | sed -n 's/.*, \([0-9]*\) plies).*/\1/p')
case $CLASS in vcf) WORDS="VCF: win by fours" ;; *) WORDS="VCT: win by fours and threes" ;; esac
check "its class as logged ($CLASS)" wait_for ann "$WORDS"
check "its plies as logged ($PLIES)" wait_for ann "to move: five within $PLIES plies"
# its kept solution, from a guest's failed try (o1 wins nothing here)
printf 'PUZZLE %s\nSOLVE %s o1\n' "$P" "$P" | run --name peek >"$T/peek.out" 2>&1
LINE=$(sed -n "s/^OK SOLVE $P failed - - \\([a-o0-9,]*\\)\$/\\1/p" "$T/peek.out")
check "a guest's failed try shows the solution, unrated" [ -n "$LINE" ]
[ -n "$LINE" ] || cat "$T/peek.out"
# play it: the attacker's moves of the line; where the defence blocks
# otherwise (a double four's other point) the line's block is the five
# shellcheck disable=SC2046
set -- $(echo "$LINE" | tr ',' ' ')
solved=
while [ $# -gt 0 ]; do
	mv=$1
	shift
	keys ann "$(printf '%s' "$mv" | cut -c1)" "$(printf '%s' "$mv" | cut -c2-)" Enter
	i=0
	while ! screen ann | grep -qF -e "$mv holds; the defence answers" -e "Solved: $mv makes five!" -e "Failed"; do
		i=$((i + 1))
		[ $i -gt 300 ] && break
		sleep 0.1
	done
	if screen ann | grep -qF "Solved: $mv makes five!"; then
		solved=$mv
		break
	fi
	reply=$(screen ann | sed -n "s/.*$mv holds; the defence answers \\([a-o][0-9]*\\)\\. Your move.*/\\1/p")
	check "$mv holds, the defence answers ($reply), both in the play listed" wait_for ann "$mv $reply"
	[ -n "$reply" ] || break
	if [ $# -gt 0 ] && [ "$reply" != "$1" ]; then
		set -- "$1" # the defence blocked the other point: the line's is five
	else
		[ $# -gt 0 ] && shift
	fi
done
check "the solution played to five: solved" wait_for ann "Solved!"
check "the status line names the five ($solved)" [ -n "$solved" ]
RATING=$(screen ann | sed -n 's/.*Your puzzle rating: ~\([0-9]*\).*/\1/p' | head -1)
check "a first try: rated, provisional, above 1500 ($RATING)" [ "${RATING:-0}" -gt 1500 ]
keys ann R
step "R opens it again" ann "Puzzle $P again: "
# the other end of the open three, not the kept solution's first move: a
# proven win all the same; then the open four's end the defence left
case $LINE in
g8,*) ALT=k8 ENDS="g8 l8" ;;
k8,*) ALT=g8 ENDS="f8 k8" ;;
*) ALT= ;;
esac
check "the kept solution starts at an end of the three ($LINE)" [ -n "$ALT" ]
keys ann "$(printf '%s' "$ALT" | cut -c1)" "$(printf '%s' "$ALT" | cut -c2-)" Enter
step "$ALT, not the kept first move, holds" ann "$ALT holds; the defence answers"
reply=$(screen ann | sed -n "s/.*$ALT holds; the defence answers \\([a-o][0-9]*\\)\\. Your move.*/\\1/p")
five=
for e in $ENDS; do [ "$e" != "$reply" ] && [ -z "$five" ] && five=$e; done
keys ann "$(printf '%s' "$five" | cut -c1)" "$(printf '%s' "$five" | cut -c2-)" Enter
step "then $five (the defence took $reply): five" ann "Solved: $five makes five!"
step "solved again" ann "Solved!"
check "a second try is not rated, and the screen says why" wait_for ann "Not rated: you had tried this puzzle before;"
# the game with missed wins, played while ann looks at the puzzle
play_game miss h8 g8 i8 k12 j8 c3 k9 d3 k10 e3 k11 o15 n2 f3
keys ann N
step "N: another puzzle, not tried yet" ann "Puzzle $(grep "made from game $GAME," "$T/d.log" | sed -n 's/.*info puzzle \([0-9]*\) made.*/\1/p' | grep -vx "$P" | head -1)"
Q=$(screen ann | sed -n 's/.*Puzzle \([0-9]*\), rated.*/\1/p' | head -1)
check "it is not the one solved ($Q)" [ "$Q" != "$P" ]
keys ann o 1 Enter
step "a quiet move fails it" ann "Failed: the win is gone"
AFTER=$(screen ann | sed -n 's/.*Your puzzle rating: ~\{0,1\}\([0-9]*\) (-\([0-9]*\)).*/\1 \2/p' | head -1)
# shellcheck disable=SC2086
set -- $AFTER
check "rated down, with the change from $RATING (${1:-?}, -${2:-?})" [ $# -eq 2 ] && [ $(($1 + $2)) -eq "$RATING" ]
check "its solution listed" wait_for ann "The solution: "
keys ann ']'
step "] puts its first stone on the board" ann "]/[ step it: 1 of "
keys ann Q
step "Q: back to the lobby" ann "Quick match"
keys ann q y
exited "ann quits" ann 0
check "the daemon is still up" kill -0 "$DPID"
echo "the whole test took $(( $(date +%s) - started ))s"
finish
