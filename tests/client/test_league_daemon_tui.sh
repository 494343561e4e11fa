#!/bin/sh
# The engine league's table (PROTOCOL.md 5.23, issue 49) in the terminal
# client, on the real gomokud and its SQLite store. The daemon runs two
# leagues: main, three of its own bots at low levels (level1, level2,
# level3) on a fast clock, its first round robin starting 5 s after the
# start; and later, whose first event is a day away. ann, a guest in tmux
# at 80x24, sees E on the lobby's line (the server lists `league`) and
# presses it: main's what and event, Right goes to later (no rated games
# yet, its first event counted down), Left back. Enter opens main's event
# in the tournament view ("league main 1", a robin of bots); ann waits
# there until it is over and Esc comes back to the league, which asks the
# table again: three rows, each a bot marked [BOT] with its Elo (signed)
# and its 95% error bar, 2 games each, the points halved summing to 3,
# the league's 3 rated games. Then li, a client in Chinese at 80x24,
# opens the same table: its words in Chinese, the [机器人] marks, the same
# three rows. Prints how long the test took.
. tests/client/lib.sh
echo "checks: the engine league in tmux on a real gomokud: E, the leagues (Left/Right), the event opened and played out, the table of three bots with Elo and error bars after it; the same table in Chinese at 80x24"
[ -x "$GOMOKUD" ] || { echo "FAIL - $GOMOKUD is not built"; exit 1; }
command -v tmux >/dev/null || { echo "FAIL - tmux is not installed (make deps)"; exit 1; }
if ! locale -a 2>/dev/null | grep -qix 'zh_CN\.utf-\?8'; then
	echo "FAIL - no zh_CN.UTF-8 locale (make deps generates it)"
	exit 1
fi
tmux_server lg
started=$(date +%s)
cat >"$T/gomokud.conf" <<CONF
rate-burst 1000
rate-per-second 1000
league main freestyle 15 30+0 members=level1,level2,level3 first=5
league later freestyle 15 60+0 members=level1,level2 first=86400
CONF
gomokud_start --config "$T/gomokud.conf"
# long_wait SESSION TEXT SECONDS: as wait_for, for what takes games to come
long_wait() {
	l_i=0
	while ! screen "$1" | grep -q -F -- "$2"; do
		l_i=$((l_i + 1))
		if [ $l_i -gt $(($3 * 10)) ]; then
			echo "--- screen $1 while waiting for: $2"
			screen "$1"
			return 1
		fi
		sleep 0.1
	done
}
# rows SESSION REGEX: how many lines of the screen match REGEX
rows() { screen "$1" | grep -c -E -- "$2"; }
# has_rows SESSION REGEX N: exactly N lines of the screen match REGEX
has_rows() { [ "$(rows "$1" "$2")" -eq "$3" ]; }
# table SESSION: the league's rows on the screen (ROW)
table() { screen "$1" | grep -E -- "$ROW"; }
ranks() { [ "$(table ann | awk '{print $1}' | tr -d '\n')" = 123 ]; }
points_sum() { [ "$(table ann | awk '{s += $(NF-1)} END {print s}')" = 3 ]; }
elo_sorted() { [ "$(table ann | wc -l)" -eq 3 ] && table ann | awk '{print $4}' | tr -d + | sort -n -r -c; }
wide() { [ "$(screen "$1" | LC_ALL=zh_CN.UTF-8 wc -L)" -le 80 ]; }
named() { screen ann | grep -q 'tournament [0-9]* (Enter)'; }

$TM new-session -d -s ann -x 80 -y 24 \
    "LANG=C.UTF-8 $GOMOKU --ca $T/state/cert.pem --name ann 127.0.0.1:$DPORT 2>$T/ann.err; printf '\\nEXIT=%s\\n' \$?; sleep 60"
step "ann signs in" ann "Signed in as ann"
step "the lobby names the league's key" ann "Tournaments: T  League: E"
keys ann E
step "E: the first league, one of two" ann "< main >  (1 of 2)"
check "what it plays" wait_for ann "freestyle 15x15  30+0  "
check "the error bars explained" wait_for ann "Bayesian Elo, the league's mean at 0"
check "the table's head" has_rows ann '^  # +Player +Elo +Error bar +Games +Score +Draws' 1
check "its key line" sh -c "$TM capture-pane -p -t =ann: | tail -1 | grep -qxF 'Left/Right league  Up/Down scroll  Enter its event  r refresh  Esc back'"
keys ann Right
step "Right: the other league" ann "< later >  (2 of 2)"
check "no rated games there yet" wait_for ann "No rated games in this league yet."
check "its first event a day away, in hours" has_rows ann '^  First event in 2[34]:[0-5][0-9]:[0-5][0-9]$' 1
keys ann Left
step "Left: main again" ann "< main >  (1 of 2)"
# its event is made 5 s before its start: r until the view names it
i=0
while ! named && [ $i -lt 30 ]; do
	keys ann r
	sleep 0.5
	i=$((i + 1))
done
check "main's event is named" named
keys ann Enter
step "Enter opens it in the tournament view" ann "league main 1"
check "a rated robin of bots" wait_for ann "round robin  freestyle 15x15  30+0  rated  bots only"
check "the event is played out" long_wait ann "Now: over" 240
check "its standings: three bots" has_rows ann '^  [123]=? +bot[123] ' 3
keys ann Escape
step "Esc comes back to the league" ann "< main >  (1 of 2)"
check "its 3 rated games" wait_for ann "3 players, 3 rated games"
ROW='^  [123] +bot[123] \[BOT\] +(\+[0-9]+|-[0-9]+|0) +(±[0-9]+|\+[0-9]+/-[0-9]+) +2 +(0|0\.5|1|1\.5|2) +[0-2] *$'
# three rows of the table's form, 2 games each (a table asked while the
# league lagged may count fewer for a moment)
until_rows() {
	r_i=0
	while ! has_rows ann "$ROW" 3; do
		r_i=$((r_i + 1))
		if [ $r_i -gt 100 ]; then
			screen ann
			return 1
		fi
		sleep 0.1
	done
}
check "the table asked again: three rows, each a bot with its Elo, error bar and 2 games" until_rows
check "ranked 1, 2, 3" ranks
check "the points halved sum to 3 (a game each pairing)" points_sum
check "the Elo best first" elo_sorted
table ann | sed 's/^/# /'

# li, in Chinese at 80x24: the same table
$TM new-session -d -s li -x 80 -y 24 \
    "LANG=zh_CN.UTF-8 LC_ALL=zh_CN.UTF-8 $GOMOKU --ca $T/state/cert.pem --name li 127.0.0.1:$DPORT 2>$T/li.err; printf '\\nEXIT=%s\\n' \$?; sleep 60"
step "li signs in (Chinese): the lobby names the key" li "比赛：T  联赛：E"
keys li E
step "E: the league in Chinese" li "< main >（第 1 个，共 2 个）"
check "its words in Chinese" wait_for li "3 名选手，3 局计分对局"
check "the head in Chinese" wait_for li "误差范围"
check "three rows, the bots marked in Chinese" has_rows li '^  [123] +bot[123] \[机器人\] +(\+[0-9]+|-[0-9]+|0) +(±[0-9]+|\+[0-9]+/-[0-9]+) +2 ' 3
check "every line within 80 columns" wide li
check "the error bars explained, whole" wait_for li "贝叶斯 Elo，联赛平均为 0；误差范围为百分之九十五置信区间。"
check "its key line in Chinese, whole" sh -c "$TM capture-pane -p -t =li: | tail -1 | grep -qxF '左/右 联赛  上/下 滚动  Enter 本届比赛  r 刷新  Esc 返回'"
keys li Escape q y
exited "li quits" li 0
keys ann Escape q y
exited "ann quits" ann 0
check "the daemon is still up" kill -0 "$DPID"
echo "the whole test took $(($(date +%s) - started))s"
finish
