#!/bin/sh
# The tournaments view (PROTOCOL.md 5.21, issue 48) on the real gomokud and
# its SQLite store. ann, a guest in tmux at 80x24, presses T in the lobby
# (its key shown only because the server lists `tournaments`): the list
# is empty. carol, a line client with an account, creates a casual Swiss
# of one round starting in 5 s and joins it; r shows it in ann's list with
# its countdown; Enter opens it (not in it: J joins), J joins it: ann is in
# the standings, the countdown runs. At the start the round is paired and
# ann's game opens by itself (* START): the chat names the pairing. They
# play (black h8, then white i9 when carol is black); carol resigns. T
# goes back to the tournament: the pairing with its result in words, the
# standings updated (ann 1 point, carol 0, a game each), the event over and
# ann's place. Then li, a client in Chinese at 80x24, opens the same event:
# its words in Chinese, every line whole within 80 columns. Prints how
# long the test took.
. tests/client/lib.sh
echo "checks: tournaments in tmux on a real gomokud: T, the list and its countdown, J, the pairing and its game, the result and standings after T; the same event in Chinese at 80x24"
[ -x "$GOMOKUD" ] || { echo "FAIL - $GOMOKUD is not built"; exit 1; }
command -v tmux >/dev/null || { echo "FAIL - tmux is not installed (make deps)"; exit 1; }
if ! locale -a 2>/dev/null | grep -qix 'zh_CN\.utf-\?8'; then
	echo "FAIL - no zh_CN.UTF-8 locale (make deps generates it)"
	exit 1
fi
tmux_server trn
started=$(date +%s)
gomokud_start
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
# a line of ann's screen holds all the words given, in that order
row_has() { screen ann | grep -q -- "$1"; }

$TM new-session -d -s ann -x 80 -y 24 \
    "LANG=C.UTF-8 $GOMOKU --ca $T/state/cert.pem --name ann 127.0.0.1:$DPORT 2>$T/ann.err; printf '\\nEXIT=%s\\n' \$?; sleep 60"
step "ann signs in" ann "Signed in as ann"
step "the lobby names the tournaments' key" ann "Tournaments: T"
keys ann T
step "T opens the list of tournaments: none yet" ann "No tournaments now (r asks again)."

# carol: a line client with an account, fed through a FIFO
mkfifo "$T/carol.in"
timeout 90 "$GOMOKU" --script --ca "$T/state/cert.pem" "127.0.0.1:$DPORT" \
    <"$T/carol.in" >"$T/carol.out" 2>&1 &
CPID=$!
exec 3>"$T/carol.in"
echo "REGISTER carol s3cret-pass" >&3
check "carol registers" until_seen "$T/carol.out" "^OK REGISTER carol"
echo "TCREATE swiss freestyle 15 300+0 none casual people 5 1 Test Swiss" >&3
check "carol creates a Swiss starting in 5 s" until_seen "$T/carol.out" "^OK TCREATE "
TID=$(sed -n 's/^OK TCREATE \([0-9]*\).*/\1/p' "$T/carol.out")
echo "TJOIN $TID" >&3
check "carol joins it" until_seen "$T/carol.out" "^OK TJOIN $TID"

keys ann r
step "r: the list shows the event" ann "Test Swiss"
check "its row: kind, rule, time, countdown, players" \
    row_has "$TID *Test Swiss *Swiss *freestyle 15 *300+0 *starts in 0:0[0-9] *1 *\$"
keys ann Enter
step "Enter opens it: its name and creator" ann "Test Swiss  (by carol)"
check "what it plays" wait_for ann "Swiss  freestyle 15x15  300+0  casual  people only"
check "ann is not in it: J joins" wait_for ann "You are not in it: J joins."
check "its key line says J" sh -c "$TM capture-pane -p -t =ann: | tail -1 | grep -qxF 'J join  Up/Down scroll  Esc back  ? help'"
check "the standings list carol" row_has "^  1 *carol *0 *0 *0 *0 *0 *0 *waiting"
keys ann J
step "J joins it" ann "You joined Test Swiss; your games start by themselves"
check "ann is in it now" wait_for ann "You are in: round 1 is paired as it starts. L leaves."
check "the countdown runs" row_has "Now: starts in 0:0[0-9]   Players: 2"
check "ann in the standings, the rank shared" row_has "^  1= *ann "
check "the key line says L and Enter" wait_for ann "L leave  Enter your game  Up/Down scroll"

# the start: round 1 paired, ann's game opens by itself
step "the round starts: ann's game opens" ann "Game started: "
check "the chat names the pairing" wait_for ann "* Test Swiss, round 1, board 1"
check "carol's game started too" until_seen "$T/carol.out" "^\* START "
ROOM=$(sed -n 's/^\* START \([^ ]*\) .*/\1/p' "$T/carol.out" | head -1)
BLACK=$(sed -n 's/^\* START [^ ]* [0-9]* \([^ ]*\) .*/\1/p' "$T/carol.out" | head -1)
if [ "$BLACK" = ann ]; then
	step "ann is black, to move" ann "Your move (black)"
	keys ann h 8 Enter
	check "ann's h8 reaches carol" until_seen "$T/carol.out" "^\* MOVE $ROOM [0-9]* black h8"
else
	echo "MOVE $ROOM h8" >&3
	step "carol's h8 reaches ann" ann "Your move (white)"
	keys ann i 9 Enter
	check "ann's i9 reaches carol" until_seen "$T/carol.out" "^\* MOVE $ROOM [0-9]* white i9"
fi
echo "RESIGN $ROOM" >&3
step "carol resigns: ann wins" ann "Game over: ann wins (resign)"
check "the key line offers T back to the tournament" wait_for ann "T:tournament"
keys ann T
step "T: back to the tournament" ann "Test Swiss  (by carol)"
step "the pairing with its result in words, ann's marked" ann " ann won"
check "the pairing's row: board 1, its players" row_has "^ >  1  \(carol *- ann\|ann *- carol\) .* ann won *\$"
step "the standings updated: ann first, a point, a game" ann "  1    ann "
check "ann's row: 1 point, its tie-breaks, 1 game" row_has "^  1    ann  *1  *0  *0  *0  *0  *1 *\$"
check "carol's row: second, no point, 1 game, BH the halved point of ann" \
    row_has "^  2    carol  *0  *0  *1  *0  *0  *1 *\$"
check "the event is over" wait_for ann "Now: over   Players: 2"
check "ann's place" wait_for ann "It is over: you finished 1 of 2."
exec 3>&-
wait "$CPID"

# the same event in Chinese at 80x24, from the lobby
$TM new-session -d -s li -x 80 -y 24 \
    "unset LC_ALL LANGUAGE; LANG=zh_CN.UTF-8 $GOMOKU --ca $T/state/cert.pem --name li 127.0.0.1:$DPORT 2>$T/li.err; printf '\\nEXIT=%s\\n' \$?; sleep 60"
# the widest line in display columns (a CJK character two) is at most 80
fits() { [ "$(screen li | LC_ALL=zh_CN.UTF-8 wc -L)" -le 80 ]; }
li_has() { screen li | grep -q -- "$1"; }
step "li signs in, in Chinese" li "五子棋  大厅  玩家 li"
check "the lobby names the tournaments' key in Chinese" wait_for li "比赛：T"
check "every lobby line fits 80 columns" fits
keys li T
step "T: the list in Chinese" li "编号"
check "the event's row: Swiss, freestyle, over" li_has "$TID *Test Swiss *瑞士制 *无禁手 15 *300+0 *已结束 *2 *\$"
check "every line of the list fits 80 columns" fits
keys li Enter
step "Enter opens it: its name and creator in Chinese" li "Test Swiss（carol 创建）"
check "what it plays, in Chinese" wait_for li "瑞士制  无禁手 15x15  300+0  不计分  仅限真人"
check "its state and players, in Chinese" wait_for li "现在：已结束   人数：2"
check "the standings' heads in Chinese, in their columns" li_has "^  名次 棋手  *积分   对手-1  对手分  中对手  索伯分  局数  状态"
check "ann first with a point" li_has "^  1    ann  *1  *0  *0  *0  *0  *1 *\$"
check "the result in words" wait_for li "ann 胜"
check "the key line is whole" sh -c "$TM capture-pane -p -t =li: | tail -1 | grep -qxF '上/下 滚动  Esc 返回  ? 帮助'"
check "every line of the event fits 80 columns" fits
keys li Escape
step "Esc: back to the list" li "编号"
keys li Escape q y
exited "li quits" li 0
keys ann Escape Escape q y
exited "ann quits" ann 0
check "the daemon is still up" kill -0 "$DPID"
echo "the whole test took $(($(date +%s) - started))s"
finish
