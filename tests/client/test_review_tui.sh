#!/bin/sh
# The replay's review (PROTOCOL.md 5.19, issue 47) in tmux against a
# scripted server, every line of it as the protocol has it: a game with no
# stored review says how to ask for one; r sends REVIEW, * REVIEWING's
# count shows on the status line; a connection dropped mid-review comes
# back and joins the review again; * REVIEWED ok fetches MARKS; the win
# chance, the graph and the marks show, phrased; n/p go to the marks, ]
# and [ step a mark's line on the board (its stones underlined, the game's
# not) and back; the replay opened again shows the stored review at once;
# a private game's 454 and a failed review in words; the marks in Chinese
# at 80x24, every line whole. (test_review_daemon_tui.sh: the same path on
# the real daemon.)
. tests/client/lib.sh
echo "checks: the replay's review against a scripted server: 455 hint, r and its progress, a drop mid-review joined again, marks phrased, graph, n/p and ]/[ on the board, stored review at once, 454 and a failed review, Chinese at 80x24"
command -v tmux >/dev/null || { echo "FAIL - tmux is not installed (make deps)"; exit 1; }
gencert a
tmux_server review
TOKEN=3kQ9fZ0aLm2Xw8pR7tYc1bN4

# the replay's moves and review, sent twice (the second time at once)
record() {
	cat <<EOS
expect EXPORT 17
send = RECORD rule freestyle
send = RECORD size 15
send = RECORD moves h8 a1 i8 a2 j8 a3 k8 a4 l8
send OK EXPORT 17 text
expect MARKS 17
EOS
}
stored() {
	cat <<EOS
send = EVAL 17 0 500,540,460,700,640,900,960,990,1000,1000
send = MARK 17 turning black 3 i8 i8 460 700 vct i8,a2,j8,a3,k8
send = MARK 17 blunder white 4 a2 g8 300 40 block-open-three g8,a2,f8
send = MARK 17 blunder white 6 a3 k8 100 4 block-open-three k8,g8,k9
send OK MARKS 17 9 3
EOS
}
{
	cat <<EOS
cert $T/a.pem $T/a.key
accept
send * SERVER fake 0.1 1 chat history review
expect HELLO 1
send OK HELLO 1
expect GUEST
send OK GUEST guest1 $TOKEN
expect HISTORY
send = GAME 17 freestyle 15 ann ben black five 9 1796000000
send = GAME 16 freestyle 15 cat dan white resign 12 1795000000
send OK HISTORY 2 2
EOS
	record
	cat <<EOS
send ERR 455 not-reviewed
expect REVIEW 17
send OK REVIEW 17
send * REVIEWING 17 0 10
send * REVIEWING 17 4 10
await $T/seen-progress
drop
accept
send * SERVER fake 0.1 1 chat history review
expect HELLO 1
send OK HELLO 1
expect GUEST guest1
send OK GUEST guest1 $TOKEN
expect REVIEW 17
send OK REVIEW 17
send * REVIEWING 17 7 10
await $T/seen-progress2
send * REVIEWED 17 ok 9 3
expect MARKS 17
EOS
	stored
	record
	stored
	cat <<EOS
expect EXPORT 16
send = RECORD rule freestyle
send = RECORD size 15
send = RECORD moves h8 h9 i8 i9 j8 a1 k8 a2 a14 a3 a13 a4
send OK EXPORT 16 text
expect MARKS 16
send ERR 454 private-game
expect REVIEW 16
send OK REVIEW 16
send * REVIEWED 16 failed 0 0
eof
EOS
} >"$T/review.srv"
startsrv "$T/review.srv"
$TM new-session -d -s v -x 80 -y 24 \
    "LANG=C.UTF-8 $GOMOKU --insecure 127.0.0.1:$PORT 2>$T/v.err; printf '\\nEXIT=%s\\n' \$?; sleep 60"
# board row N (by its label) matches the pattern; with its escapes
row() { screen v | grep "^$(printf '%2d' "$1")[ []" | grep -q -- "$2"; }
# underlined GLYPH: an SGR turning underline on (4, alone or last), then
# only more SGRs before GLYPH ("34m" is blue, not underline)
ESC=$(printf '\033')
underlined() { echo "$ESC\\[([0-9]*;)*4m($ESC\\[[0-9;]*m)*$1"; }
erow() { $TM capture-pane -e -p -t =v: | grep "^$(printf '%2d' "$1")[^0-9]" | grep -Eq -- "$2"; }
no_erow() { ! erow "$@"; }
started=$(date +%s)

step "the client signs in" v "Signed in as guest1"
for _ in 1 2 3 4 5; do keys v Down; done
keys v Enter
step "history lists the games" v "#17     freestyle 15  ann vs ben"
keys v Enter
step "the replay opens" v "Move 0 of 9"
step "no stored review (455): the panel says how to ask" v "r: ask for a review"
check "the status line says it as a hint, not an error" wait_for v "This game has not been reviewed yet; r asks the engine for a review"
check "the key line lists the review's keys" sh -c "$TM capture-pane -p -t =v: | tail -1 | grep -qF 'r review  n/p marks  ]/[ line  Esc back'"
keys v r
step "r asks for a review; its count is on the status line" v "Reviewing: 4 of 10 positions searched..."
check "and on the panel" wait_for v "Reviewing: 4 of 10 positions"
touch "$T/seen-progress"
# the connection drops mid-review: the review goes on at the server, and
# the client, back, joins it again (REVIEW is free then)
step "a drop mid-review: back, the client joins the review again" v "Reviewing: 7 of 10 positions searched..."
touch "$T/seen-progress2"
step "* REVIEWED ok fetches the marks" v "The engine's review: 3 marks"
step "black's win chance in the position shown" v "Black's win chance: 50%"
# the graph: one column a position, black's chance in eighths
check "the graph of the game, a column a position" sh -c "$TM capture-pane -p -t =v: | grep -qF '▅▅▄▆▅▇████'"
check "a mark under each marked move" sh -c "$TM capture-pane -p -t =v: | grep -q '^10 .*   ▲▲ ▲'"
step "the marks are listed, phrased" v "Move 3, black: turning point (46% → 70%)."
check "the current position is reversed on the graph" sh -c "$TM capture-pane -e -p -t =v: | grep -qF '7m▅'"
keys v n n
step "n n: the second mark, the position before its move" v "Move 3 of 9"
step "the chosen mark is whole" v "> Move 4, white: blunder (30% → 4%). Better"
check "its line in words" wait_for v "g8: white answers the open three: g8 a2 f8"
check "the chance of that position" wait_for v "Black's win chance: 70%"
check "g8 is empty before the line is stepped" row 8 '^ 8 · · · · · · · ●\[●\]'
keys v ']'
step "] shows the line's first stone" v "Line: 1 of 3 stones shown"
check "g8 now holds white's stone of the line, the newest in brackets" row 8 '^ 8 · · · · · ·\[○\]● ●'
# the line's stone underlined (blue on a colour terminal), the game's not
check "the line's stone is drawn apart from the game's (underlined)" erow 8 "$(underlined ○)"
check "the game's stones are not underlined" no_erow 8 "$(underlined ●)"
keys v ']'
step "] again: the second stone" v "Line: 2 of 3 stones shown"
check "a2 holds black's stone of the line" row 2 '^ 2\[●\]'
keys v '[' '['
check "[ [ take the line back" sh -c "i=0; while $TM capture-pane -p -t =v: | grep -q 'stones shown'; do i=\$((i+1)); [ \$i -gt 50 ] && exit 1; sleep 0.1; done"
check "g8 is empty again" row 8 '^ 8 · · · · · · · ●\[●\]'
keys v p p
step "p p: round to the last mark" v "> Move 6, white: blunder (10% → 1%). Better"
check "the position before move 6" wait_for v "Move 5 of 9"
keys v Escape
step "Esc: back to the history" v "#16     freestyle 15  cat vs dan"
keys v Enter
step "the replay again: the stored review at once, no r" v "The engine's review: 3 marks"
check "its marks listed" wait_for v "Move 4, white: blunder (30% → 4%)"
keys v Escape Down Enter
step "a private room's game: 454 in words" v "That game was played in a private room you were not in"
keys v r
step "a failed review is said, with what to do" v "The engine could not review this game; r asks again"
check "and on the panel" wait_for v "The review failed; r asks again"
keys v Escape Escape q y
exited "the client quits" v 0
check "the server saw every request in order" waitsrv

# the same stored review in Chinese at 80x24: phrased from the catalog,
# every line whole (a CJK character takes two columns)
if locale -a 2>/dev/null | grep -qix 'zh_CN\.utf-\?8'; then
	{
		cat <<EOS
cert $T/a.pem $T/a.key
accept
send * SERVER fake 0.1 1 chat history review
expect HELLO 1
send OK HELLO 1
expect GUEST
send OK GUEST li $TOKEN
expect HISTORY
send = GAME 17 freestyle 15 ann ben black five 9 1796000000
send OK HISTORY 1 1
EOS
		record
		stored
		echo "eof"
	} >"$T/zh.srv"
	startsrv "$T/zh.srv"
	$TM new-session -d -s z -x 80 -y 24 \
	    "unset LC_ALL LANGUAGE; LANG=zh_CN.UTF-8 $GOMOKU --insecure 127.0.0.1:$PORT 2>$T/z.err; printf '\\nEXIT=%s\\n' \$?; sleep 60"
	step "the client signs in, in Chinese" z "li"
	for _ in 1 2 3 4 5; do keys z Down; done
	keys z Enter
	step "the history in Chinese" z "#17"
	keys z Enter
	step "the stored review's count, in Chinese" z "引擎的复盘分析：3 个标记"
	step "black's chance, in Chinese" z "黑方胜率：50%"
	keys z n n ']'
	step "the chosen mark phrased in Chinese" z "> 第 4 手，白棋：败着（30% → 4%）。更好的是"
	check "its better move, reason and line in Chinese" wait_for z "g8：白棋应对活三：g8 a2 f8"
check "another mark on one line, cut to the panel" wait_for z "  第 3 手，黑棋：转折点（46% → 70%）。引擎也"
	check "the line shown, in Chinese" wait_for z "变化：已显示 1 子，共 3 子"
	check "every line fits 80 columns" sh -c "[ \$($TM capture-pane -p -t =z: | LC_ALL=zh_CN.UTF-8 wc -L) -le 80 ]"
	check "the key line is whole" sh -c "$TM capture-pane -p -t =z: | tail -1 | grep -qF '左/右 前后一手  Home/End 首尾  r 复盘分析  n/p 标记  ]/[ 变化  Esc 返回'"
	keys z Escape Escape q y
	exited "the Chinese client quits" z 0
	check "the server saw its requests" waitsrv
else
	check "a zh_CN.UTF-8 locale (make deps generates it)" false
fi
echo "the review's tmux checks took $(( $(date +%s) - started ))s"
finish
