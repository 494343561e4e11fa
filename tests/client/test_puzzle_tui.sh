#!/bin/sh
# The puzzle mode (PROTOCOL.md 5.20, issue 47) in tmux against a scripted
# server, every line of it as the protocol has it: the lobby names z and
# d; 456 for next and for daily in their words; z opens a puzzle (its
# number and rating, class, plies, whose move, its stones); a taken point
# (432) is refused in words and the move is the player's again; a move
# is judged (the panel says so until the answer), the defence's reply goes
# on the board; a drop mid-puzzle opens it again from its start; solved,
# with the puzzle rating; R tries it again, a failed try is not rated
# (said why) and its solution steps on the board stone by stone, apart
# from the play, and back; N opens a renju puzzle whose forbidden point
# is marked x while black is to move, and refused (434) in words; failed
# and rated with the change; 506, 441, 402, 452 in
# words; Q back to the lobby; a guest's failed puzzle in Chinese at 80x24,
# every line whole. (test_puzzle_daemon_tui.sh: a puzzle on the real
# daemon.)
. tests/client/lib.sh
echo "checks: the puzzle mode against a scripted server: z/d, 456 twice, the board, 432, judging, the reply, a drop, solved and rated, a retry failed and unrated, the solution stepped, a renju 434 and a rated fail, 506/441/402/452, Chinese at 80x24"
command -v tmux >/dev/null || { echo "FAIL - tmux is not installed (make deps)"; exit 1; }
gencert a
tmux_server puzzle
TOKEN=3kQ9fZ0aLm2Xw8pR7tYc1bN4
P17="OK PUZZLE 17 freestyle 15 vct 5 1500 h8,a1,i8,a15,j9,o1,j10,o15"
greet() {
	cat <<EOS
accept
send * SERVER fake 0.1 1 chat accounts puzzles
expect HELLO 1
send OK HELLO 1
expect LOGIN ann
send OK LOGIN ann $TOKEN
EOS
}
{
	echo "cert $T/a.pem $T/a.key"
	greet
	cat <<EOS
expect PUZZLE next
send ERR 456 no-puzzle
expect PUZZLE daily
send ERR 456 no-puzzle
expect PUZZLE next
send $P17
expect SOLVE 17 h8
send ERR 432 occupied
expect SOLVE 17 j8
await $T/seen-judging
send OK SOLVE 17 more j11 - -
await $T/seen-reply
drop
EOS
	greet
	cat <<EOS
expect PUZZLE 17
send $P17
expect SOLVE 17 j8
send OK SOLVE 17 more j11 - -
expect SOLVE 17 k8
send OK SOLVE 17 more g8 - -
expect SOLVE 17 l8
send OK SOLVE 17 solved - 1523? -
expect PUZZLE 17
send $P17
expect SOLVE 17 k8
send OK SOLVE 17 failed - - j8,j11,k8,g8,l8
expect PUZZLE next
send OK PUZZLE 18 renju 15 vcf 3 1480 h8,a1,i8,a2,j9,a3,j10,o15
expect SOLVE 18 j8
send ERR 434 double-three
expect SOLVE 18 k9
send OK SOLVE 18 failed - 1490 g8,f8,k11
expect PUZZLE daily
send ERR 506 server-busy
expect PUZZLE 18
send OK PUZZLE 18 renju 15 vcf 3 1480 h8,a1,i8,a2,j9,a3,j10,o15
expect SOLVE 18 g9
send ERR 441 wrong-phase
expect PUZZLE 18
send ERR 402 bad-argument
expect PUZZLE next
send ERR 452 in-game
eof
EOS
} >"$T/puzzle.srv"
startsrv "$T/puzzle.srv"
$TM new-session -d -s v -x 80 -y 24 \
    "GOMOKU_PASSWORD=s3cret-pass LANG=C.UTF-8 $GOMOKU --insecure --login ann 127.0.0.1:$PORT 2>$T/v.err; printf '\\nEXIT=%s\\n' \$?; sleep 60"
# board row N (by its label) matches the pattern
row() { screen v | grep "^$(printf '%2d' "$1")[ []" | grep -q -- "$2"; }
# underlined GLYPH: an SGR turning underline on, then only more SGRs
ESC=$(printf '\033')
underlined() { echo "$ESC\\[([0-9]*;)*4m($ESC\\[[0-9;]*m)*$1"; }
erow() { $TM capture-pane -e -p -t =v: | grep "^$(printf '%2d' "$1")[^0-9]" | grep -Eq -- "$2"; }
no_erow() { ! erow "$@"; }
keyline() { $TM capture-pane -p -t "=$1:" | tail -1 | grep -qF -- "$2"; }
started=$(date +%s)

step "the client logs in" v "Signed in as ann"
step "the lobby names the puzzle keys" v "Puzzles: z the next one for you, d the daily one"
keys v z
step "z: none left (456), in next's words" v "No puzzle left for you: you have tried every one, or none has been made yet"
keys v d
step "d: none yet (456), in daily's words" v "No puzzle yet: puzzles are made from the missed wins of reviewed public games"
keys v z
step "z opens puzzle 17, its rating" v "Puzzle 17, rated 1500"
check "its class" wait_for v "VCT: win by fours and threes"
check "whose move and the plies" wait_for v "Black to move: five within 5 plies"
check "the player's move" wait_for v "Your move (black): Enter plays"
check "the title names it" wait_for v "puzzle 17  freestyle 15x15"
check "its stones: h8 i8 black on row 8" row 8 '^ 8 · · · · · · · ● ● · · · · · ·'
check "j9 and j10 black, a15 and o15 white" sh -c "$TM capture-pane -p -t =v: | grep -q '^15 ○ .*\[○\]' && $TM capture-pane -p -t =v: | grep -q '^10 · · · · · · · · · ●'"
check "the key line lists the puzzle's keys" keyline v "hjkl/h8 Enter:play  N:next  D:daily  R:retry  Q:lobby  ?:help"
keys v h 8 Enter
step "a taken point (432) in words" v "That point is already taken"
check "the move is the player's again" wait_for v "Your move (black): Enter plays"
keys v j 8 Enter
step "the move is being judged" v "Judging j8..."
touch "$T/seen-judging"
step "the defence's reply is said" v "j8 holds; the defence answers j11. Your move"
check "j8 black on the board" row 8 '^ 8 · · · · · · · ● ● ● · · · · ·'
check "j11 white, the newest, in brackets" row 11 '^11 · · · · · · · · ·\[○\]'
check "the play listed" wait_for v "1.j8 j11"
touch "$T/seen-reply"
# the connection drops: the server forgot the puzzle, the client opens it again
step "back after a drop, the puzzle opens again from its start" v "Puzzle 17 again: black to move and win"
check "j8 is empty again" row 8 '^ 8 · · · · · · · ● ● · · · · · ·'
keys v j 8 Enter
step "j8 again" v "j8 holds; the defence answers j11. Your move"
keys v k 8 Enter
step "k8: the defence answers g8" v "k8 holds; the defence answers g8. Your move"
keys v l 8 Enter
step "l8 makes five: solved" v "Solved!"
check "the status line says it" wait_for v "Solved: l8 makes five!"
check "the puzzle rating after it (provisional)" wait_for v "Your puzzle rating: ~1523"
check "the play: two moves and their replies, then the five" wait_for v "1.j8 j11  2.k8 g8  3.l8"
check "the key line: the puzzle is over, no Enter to play" keyline v "N next  D daily  R retry  Q lobby  ? help"
keys v R
step "R tries it again" v "Puzzle 17 again: black to move and win"
keys v k 8 Enter
step "a wrong move: failed" v "Failed: the win is gone"
check "why it is not rated" wait_for v "Not rated: you had tried this puzzle before;"
check "the solution listed" wait_for v "The solution: j8 j11 k8 g8 l8"
check "and how to step it" wait_for v "] shows it on the board, stone by stone"
check "the status line says what went" wait_for v "Failed: after k8 the win is gone; ] steps the solution"
check "the key line: the solution's keys" keyline v "]/[ solution  N next  D daily  R retry  Q lobby  ? help"
check "the failed move k8 is on the board" row 8 '^ 8 · · · · · · · ● ● ·\[●\]· · · ·'
keys v ']'
step "] the solution's first stone" v "]/[ step it: 1 of 5 stones shown"
check "j8 is the solution's, k8 (the play's) is gone" row 8 '^ 8 · · · · · · · ● ●\[●\]· · · · ·'
check "the solution's stone is drawn apart (underlined)" erow 8 "$(underlined ●)"
check "the puzzle's stones are not" no_erow 15 "$(underlined ○)"
keys v ']' ']'
step "] ] three of five" v "]/[ step it: 3 of 5 stones shown"
check "k8 now the solution's third, in brackets; g8 empty" row 8 '^ 8 · · · · · · · ● ● ●\[●\]· · · ·'
keys v '['
step "[ back one" v "]/[ step it: 2 of 5 stones shown"
keys v N
step "N: the next puzzle, a renju one" v "Puzzle 18, rated 1480"
check "its class" wait_for v "VCF: win by fours"
check "the title names renju" wait_for v "puzzle 18  renju 15x15"
check "black's forbidden point (renju) is marked: j8, a double three" row 8 '^ 8 · · · · · · · ● ● x · · · · ·'
keys v j 8 Enter
step "a forbidden point (434) in words" v "Forbidden for black under renju: a double three"
check "the move is the player's again" wait_for v "Your move (black): Enter plays"
keys v k 9 Enter
step "k9 fails a VCF puzzle: said so" v "Failed: after k9 the win by fours is gone (each move must be a four)"
check "a first try: rated, with the change from 1523" wait_for v "Your puzzle rating: 1490 (-33)"
check "over: no forbidden point marked" row 8 '^ 8 · · · · · · · ● ● · · · · · ·'
keys v D
step "D: every solver busy (506)" v "The solvers are all busy; try again shortly"
keys v R
step "R opens 18 again" v "Puzzle 18 again: black to move and win"
keys v g 9 Enter
step "a puzzle the server no longer has open (441)" v "That puzzle is not open on this connection any more; R opens it again"
check "the panel says it too" wait_for v "Not open on this connection any more: R"
check "the key line: no Enter to play" keyline v "N next  D daily  R retry  Q lobby  ? help"
keys v R
step "no such puzzle (402)" v "There is no puzzle of that number"
keys v N
step "seated in a game (452)" v "No puzzles while you play a game; finish it first"
keys v Q
step "Q: back to the lobby" v "Quick match"
keys v q y
exited "the client quits" v 0
check "the server saw every request in order" waitsrv

# a guest's failed puzzle in Chinese at 80x24: every line whole
if locale -a 2>/dev/null | grep -qix 'zh_CN\.utf-\?8'; then
	cat >"$T/zh.srv" <<EOS
cert $T/a.pem $T/a.key
accept
send * SERVER fake 0.1 1 chat puzzles
expect HELLO 1
send OK HELLO 1
expect GUEST
send OK GUEST li $TOKEN
expect PUZZLE daily
send $P17
expect SOLVE 17 k8
send OK SOLVE 17 failed - - j8,j11,k8,g8,l8
eof
EOS
	startsrv "$T/zh.srv"
	$TM new-session -d -s z -x 80 -y 24 \
	    "unset LC_ALL LANGUAGE; LANG=zh_CN.UTF-8 $GOMOKU --insecure 127.0.0.1:$PORT 2>$T/z.err; printf '\\nEXIT=%s\\n' \$?; sleep 60"
	step "the lobby names the keys, in Chinese" z "习题：z 下一道，d 每日一题"
	keys z d
	step "the daily puzzle, in Chinese" z "习题 17，难度等级分 1500"
	check "its class in Chinese" wait_for z "VCT：以冲四和活三取胜"
	check "whose move and the plies" wait_for z "黑棋先走：5 手之内连成五子"
	check "the key line is whole" keyline z "hjkl/h8 Enter:落子  N:下一题  D:每日一题  R:重做  Q:大厅  ?:帮助"
	keys z k 8 Enter
	step "failed, in Chinese" z "失败：胜机没了"
	check "a guest: not rated, and why" wait_for z "不计分：游客没有解题等级分（账号才有）"
	check "the solution" wait_for z "答案：j8 j11 k8 g8 l8"
	keys z ']'
	step "] in Chinese" z "]/[ 逐步查看：已显示 1 子，共 5 子"
	check "every line fits 80 columns" sh -c "[ \$($TM capture-pane -p -t =z: | LC_ALL=zh_CN.UTF-8 wc -L) -le 80 ]"
	check "the status line is whole" wait_for z "失败：走 k8 之后胜机没了；按 ] 逐步查看答案"
	check "the key line is whole" keyline z "]/[ 答案  N 下一题  D 每日一题  R 重做  Q 大厅  ? 帮助"
	keys z '?'
	step "the help names the puzzle keys, in Chinese" z "习题：Enter 落子；N 下一题，D 每日一题，R 重做；] [ 答案；Q 大厅"
	check "the help's last line still shows at 24 rows" wait_for z "$(LC_ALL=C.UTF-8 sed -n '/msgctxt "help.14"/,/msgstr/s/^msgstr "\(.*\)"/\1/p' po/zh_CN.po)"
	check "every help line fits 80 columns" sh -c "[ \$($TM capture-pane -p -t =z: | LC_ALL=zh_CN.UTF-8 wc -L) -le 80 ]"
	keys z x Q q y
	exited "the Chinese client quits" z 0
	check "the server saw its requests" waitsrv
else
	check "a zh_CN.UTF-8 locale (make deps generates it)" false
fi
echo "the puzzle's tmux checks took $(( $(date +%s) - started ))s"
finish
