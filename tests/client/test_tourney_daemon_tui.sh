#!/bin/sh
# The tournaments view (PROTOCOL.md 5.21, issue 48) on the real gomokud and
# its SQLite store. ann, a guest in tmux at 80x24, presses T in the lobby
# (its key shown only because the server lists `tournaments`): the list
# is empty. carol, a line client with an account, creates a casual Swiss
# of one round starting in 5 s and joins it; r shows it in ann's list with
# its countdown; Enter opens it (not in it: J joins), J joins it: ann is in
# the standings, the countdown runs. At the start the round is paired and
# ann's game opens by itself (* START): the chat names the pairing. They
# play (black h8, then white i9 when carol is black): the game's key line
# offers E (the event, the game kept: Enter comes back) and neither
# rematch nor abort, and M and Z send nothing; carol resigns. T
# goes back to the tournament: the pairing with its result in words, the
# standings updated (ann 1 point, carol 0, a game each), the event over and
# ann's place. Then li, a client in Chinese at 80x24, opens the same event:
# its words in Chinese, every line whole within 80 columns, and the
# tournament form (c) in Chinese. Then events are made from the form:
# ann, a guest, is refused (417) in words; dan, an account, makes a
# named round robin for people and bots, adds bot3 (B 3), is refused the
# same level (458), and cancels it (C, y) while ann, who may neither add
# a bot nor cancel it (416 each, in words), sees it cancelled; a name of
# 130 bytes is refused (402), and a people's event takes no bot (459).
# Prints how long the test took.
. tests/client/lib.sh
echo "checks: tournaments in tmux on a real gomokud: T, the list and its countdown, J, the pairing and its game (no rematch nor abort, E and back), the result and standings after T; the same event in Chinese at 80x24; making events (c), bots (B) and cancelling (C) with the server's refusals in words"
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
# a tournament's game: no rematch (441) nor abort (443) on the key line,
# E to the event instead; M and Z send nothing
keyline() { $TM capture-pane -p -t "=$1:" | tail -1; }
step "the game's key line offers E: the tournament" ann "E:tournament U:undo"
check "and neither rematch nor abort" sh -c "! { $TM capture-pane -p -t =ann: | tail -1 | grep -q 'M:rematch\|Z:abort'; }"
keys ann M Z
sleep 0.5
check "M and Z send nothing: carol sees no offer" sh -c "! grep -q '^\* OFFER' '$T/carol.out'"
check "and ann no refusal" sh -c "! { $TM capture-pane -p -t =ann: | grep -q 'Not now: the game is in another phase\|Too late to abort'; }"
keys ann E
step "E during the game: the tournament, the game kept" ann "Test Swiss  (by carol)"
check "its key line says Enter goes to the game" wait_for ann "L leave  Enter your game"
keys ann L
step "L asks first, saying what leaving costs now it has started" ann "It has started: no more pairings once you leave, no way back. Leave? (y/n)"
keys ann n
sleep 0.5
check "n: still in it (carol, who follows it, sees ann not withdrawn)" sh -c "! grep -q '^\* TPLAYER $TID [0-9]* ann .* withdrawn' '$T/carol.out'"
check "and the key line still offers L" wait_for ann "L leave  Enter your game"
keys ann Enter
step "Enter: back to the game" ann "E:tournament U:undo"
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
keys li c
step "c: the tournament form in Chinese" li "新建比赛"
check "its rows in Chinese" li_has "赛制 *< 瑞士制 >"
check "every line of the form fits 80 columns" fits
keys li Escape
step "Esc: the list again" li "编号"
keys li ?
step "? : the help names the tournaments' keys in Chinese" li "比赛（T）：c 新建，J 报名，L 退出，B 机器人，C 取消；局中 E、局后 T 回比赛"
check "every line of the help fits 80 columns" fits
keys li Escape
step "a key: the list again" li "编号"
keys li Escape q y
exited "li quits" li 0
# making events: ann, a guest, is refused in words (417); dan, an account,
# fills the form (a round robin for people and bots, named), adds bots
# (B: a level), is refused a level already in (458), and cancels it (C);
# ann may neither add a bot nor cancel dan's event (416); a people's event
# takes no bot (459); a name over 120 bytes is refused (402)
keys ann Escape
step "Esc: the list, its key line says c creates" ann "Enter open  c create  r refresh"
keys ann c
step "c: the form" ann "new tournament"
check "its rows: the kind, Swiss first" wait_for ann "Kind             < Swiss >"
check "its start" row_has "Starts  *< in 10 min >"
check "its length" row_has "Length  *< 3 rounds >"
keys ann Enter
step "a guest's TCREATE: 417 in words" ann "Only accounts create tournaments: register or log in"
keys ann Escape
$TM new-session -d -s dan -x 80 -y 24 \
    "LANG=C.UTF-8 GOMOKU_PASSWORD=dan-s3cret $GOMOKU --ca $T/state/cert.pem --register dan 127.0.0.1:$DPORT 2>$T/dan.err; printf '\\nEXIT=%s\\n' \$?; sleep 60"
step "dan registers" dan "Signed in as dan"
keys dan T
step "T: the list" dan "c create"
keys dan c
step "c: the form" dan "Kind             < Swiss >"
keys dan Right
step "Right: a round robin, its length in cycles" dan "Length           < 1 cycles >"
keys dan Down Down Down Down Down Down Right Right
step "entrants: people and bots" dan "Entrants         < people and bots >"
keys dan Down Down Down Enter
step "Enter on Name types it" dan "tournament name> _"
keys dan -l "Dan Cup"
keys dan Enter
step "the name kept" dan "Name             Dan Cup"
keys dan Down Enter
step "Create it: the event's page" dan "Dan Cup  (by dan)"
check "what it plays" wait_for dan "round robin  freestyle 15x15  300+5  casual  people and bots"
check "it starts in 10 minutes" wait_for dan "Now: starts in 9:5"
check "the creator's keys: B and C" sh -c "$TM capture-pane -p -t =dan: | tail -1 | grep -q '^B bot  C cancel  J join'"
keys dan B
step "B asks the level" dan "Add the server's bot of which level?"
keys dan 3
step "bot3 is in" dan "bot3 joined Dan Cup"
check "bot3 in the standings" sh -c "$TM capture-pane -p -t =dan: | grep -q '^  1 *bot3 '"
keys dan B 3
step "the same level again: 458 in words" dan "No bot now: it started, is over or full, or has that level"
keys ann r
step "ann's list shows Dan Cup" ann "Dan Cup"
keys ann Enter
step "ann opens it (the events not over listed first)" ann "Dan Cup  (by dan)"
check "not hers: no B or C on the key line" sh -c "$TM capture-pane -p -t =ann: | tail -1 | grep -qxF 'J join  Up/Down scroll  Esc back  ? help'"
keys ann B 2
step "ann's TBOT: 416 in words" ann "Only its creator or an admin adds bots"
keys ann C
step "C asks first" ann "Cancel this tournament for everyone in it? (y/n)"
keys ann y
step "ann's TCANCEL: 416 in words" ann "Only its creator or an admin cancels it"
keys dan C
step "dan's C asks first" dan "Cancel this tournament for everyone in it? (y/n)"
keys dan y
step "cancelled" dan "Now: cancelled"
check "no B or C once cancelled" sh -c "$TM capture-pane -p -t =dan: | tail -1 | grep -qxF 'Up/Down scroll  Esc back  ? help'"
step "ann sees it cancelled too" ann "Now: cancelled"
keys dan Escape c
step "the form again, as it was" dan "Kind             < round robin >"
keys dan Left
step "a Swiss" dan "Kind             < Swiss >"
keys dan Down Down Down Down Down Down Left Left Down Down Down Enter
step "people only; Enter on Name: the name kept, to edit" dan "tournament name> Dan Cup_"
# shellcheck disable=SC2046
keys dan $(yes BSpace | head -7)
keys dan -l "$(printf '%0130d' 0)"
keys dan Enter Down Enter
step "a name of 130 bytes: 402 in words" dan "That tournament cannot be made: it needs a clock"
keys dan Up Enter
# shellcheck disable=SC2046
keys dan $(yes BSpace | head -130)
keys dan -l "Dan People"
keys dan Enter Down Enter
step "a people's event made" dan "Dan People  (by dan)"
keys dan B 1
step "a people's event takes no bot: 459 in words" dan "This tournament is for people: no bots"
keys dan Escape Escape Escape q y
exited "dan quits" dan 0
keys ann Escape Escape q y
exited "ann quits" ann 0
check "the daemon is still up" kill -0 "$DPID"
echo "the whole test took $(($(date +%s) - started))s"
finish
