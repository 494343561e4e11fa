#!/bin/sh
# The terminal client in Chinese (issue 42): under LANG=zh_CN.UTF-8 at
# 80x24 against the real daemon it shows the catalog's Chinese, and every
# line measured in columns (a CJK character takes two) fits whole: the
# lobby, its key line, a game against the server's bot with its panel and
# its key line, the help screen, and the end of the game after resigning.
# The bot is marked "[机器人]" (issue 49) beside its name at its seat, in
# its profile and, for a second client in the lobby, in the Online list,
# each line still whole.
# Fails when the zh_CN.UTF-8 locale is missing (mk/deps.sh generates it).
. tests/client/lib.sh
echo "checks: gomoku under LANG=zh_CN.UTF-8 at 80x24 on a real gomokud: lobby, bot game, help and resignation in Chinese, each line whole"
[ -x "$GOMOKUD" ] || { echo "SKIP: $GOMOKUD is not built"; exit 0; }
command -v tmux >/dev/null || { echo "FAIL - tmux is not installed (make deps)"; exit 1; }
if ! locale -a 2>/dev/null | grep -qix 'zh_CN\.utf-\?8'; then
	echo "FAIL - no zh_CN.UTF-8 locale (make deps generates it)"
	exit 1
fi
tmux_server zh

gomokud_start

# LC_ALL unset so that LANG decides, as on a player's machine
$TM new-session -d -s z -x 80 -y 24 \
    "unset LC_ALL LANGUAGE; LANG=zh_CN.UTF-8 $GOMOKU --ca $T/state/cert.pem --name li 127.0.0.1:$DPORT 2>$T/z.err; printf '\\nEXIT=%s\\n' \$?; sleep 60"

# line N of the screen (from 1) is exactly TEXT, trailing blanks aside
line_is() { screen z | sed -n "${1}p" | sed 's/ *$//' | grep -qxF -- "$2"; }
# a line of the screen is exactly TEXT
has_line() { screen z | sed 's/ *$//' | grep -qxF -- "$1"; }
# the widest line of the screen in display columns is at most 80 (wc -L
# counts a wide character as two in a UTF-8 locale): a wider one would have
# been cut or wrapped
fits() { [ "$(screen z | LC_ALL=zh_CN.UTF-8 wc -L)" -le 80 ]; }

step "the lobby's title is in Chinese" z "五子棋  大厅  玩家 li"
check "the lobby lists its items in Chinese" sh -c "$TM capture-pane -p -t =z: | grep -q '^   快速匹配  '"
check "a setting is padded to its column in display columns" \
    has_line "   规则                         < 无禁手 >"
check "the time control uses 读秒" sh -c "$TM capture-pane -p -t =z: | grep -qF '用时（基本+读秒）'"
check "the lobby's key line is whole at 80 columns" \
    line_is 24 "方向键、Enter 确定  c 挑战  C 取消约战  p 资料  L 排行榜  ? 帮助"
check "the server line is in Chinese" sh -c "$TM capture-pane -p -t =z: | grep -qF '服务器：gomokud'"
check "every lobby line fits 80 columns" fits

# Play a bot: the fifth item; the bot game starts at once.
for k in 1 2 3 4; do keys z Down; done
keys z Enter
step "the game's title names the rule in Chinese" z "房间 "
# the game's settings come with its * START, which may follow the room's
# first screen (under TSan it did): waited for, then checked on the title
step "the game's settings are shown" z "无禁手 15x15  300+5  不计分"
check "the title says casual in Chinese" sh -c "$TM capture-pane -p -t =z: | sed -n 1p | grep -qF '无禁手 15x15  300+5  不计分'"
check "the game's key line is whole at 80 columns" \
    line_is 24 "hjkl/h8 Enter:落子 R:认输 U:悔棋 D:和棋 M:再来一局 A/X:应答 Tab:聊天 ?:帮助"
step "the panel says whose move it is in Chinese" z "轮到"
# the bot's seat (the room's * KINDS) is marked in Chinese; li's is not
BOT=$(screen z | sed -n 's/.* \(bot[0-9]*\) \[机器人\].*/\1/p' | head -1)
check "the bot's seat is marked [机器人] ($BOT)" [ -n "$BOT" ]
check "li's own seat is not marked" sh -c "! $TM capture-pane -p -t =z: | grep -q 'li .*\[机器人\]'"
check "the move list's heading is in Chinese" sh -c "$TM capture-pane -p -t =z: | grep -qF '棋谱（'"
check "the chat pane's heading is in Chinese" sh -c "$TM capture-pane -p -t =z: | grep -qF '聊天'"
check "every game line fits 80 columns" fits

# a second client in the lobby: the Online list marks the bot, its
# state in its column all the same
$TM new-session -d -s w -x 80 -y 24 \
    "unset LC_ALL LANGUAGE; LANG=zh_CN.UTF-8 $GOMOKU --ca $T/state/cert.pem --name wu 127.0.0.1:$DPORT 2>$T/w.err; printf '\\nEXIT=%s\\n' \$?; sleep 60"
step "wu's lobby lists the bot marked [机器人]" w "$BOT [机器人]"
check "the bot's line in the Online list: the state after the marked name" \
    sh -c "$TM capture-pane -p -t =w: | grep -q '$BOT \[机器人\] *对局中'"
check "a person in the Online list is not marked" \
    sh -c "$TM capture-pane -p -t =w: | grep -q ' li  *对局中' && ! $TM capture-pane -p -t =w: | grep -q 'li \[机器人\]'"
check "every line of wu's lobby fits 80 columns" sh -c "[ \$($TM capture-pane -p -t =w: | LC_ALL=zh_CN.UTF-8 wc -L) -le 80 ]"
keys w q
keys w y
exited "wu's client exits 0" w 0

# the opponent's profile (P): its title marks the bot
keys z P
step "the bot's profile is titled with its mark" z "$BOT [机器人] 的资料"
check "every profile line fits 80 columns" fits
keys z Escape
step "back in the game" z "轮到"

keys z '?'
step "the help screen is in Chinese" z "对局中"
check "a help line of three columns is whole" \
    has_line "    M  提议再来一局     A  接受提议         X  拒绝或撤回"
check "the chat help line is whole" \
    has_line "    Tab 或 /            聊天（Enter 发送，Esc 取消；@bob 你好 是私信）"
check "every help line fits 80 columns" fits
keys z Space

keys z R
step "resigning asks in Chinese" z "确定认输吗？(y/n)"
keys z y
step "the end of the game says who won and why, in Chinese" z "获胜（认输）"
check "the finished game's key line is whole" \
    line_is 24 "M:再来一局  A/X:应答  P:资料  Tab:聊天  ?:帮助  Q:离开"

keys z Q
step "back in the lobby" z "五子棋  大厅"
keys z q
step "quitting asks in Chinese" z "退出五子棋吗？(y/n)"
keys z y
exited "the client exits 0" z 0
check "nothing went to stderr" test ! -s "$T/z.err"

# Trust on first use in Chinese: the dialog wraps Chinese text (no spaces
# to break at) inside its box, and the fingerprint stays whole.
$TM new-session -d -s y -x 80 -y 24 \
    "unset LC_ALL LANGUAGE; LANG=zh_CN.UTF-8 $GOMOKU --name wang 127.0.0.1:$DPORT 2>$T/y.err; printf '\\nEXIT=%s\\n' \$?; sleep 60"
FP=$(sed -n 's/.*certificate .* fingerprint \(sha256:[0-9a-f]*\).*/\1/p' "$T/d.log" | head -1)
step "the first-use warning is in Chinese" y "警告：首次连接"
check "the fingerprint is shown whole" sh -c "$TM capture-pane -p -t =y: | grep -qF '$FP'"
check "the dialog says how to go on in Chinese" sh -c "$TM capture-pane -p -t =y: | grep -qF '（按任意键）'"
check "every line of the dialog fits 80 columns" sh -c "[ \$($TM capture-pane -p -t =y: | LC_ALL=zh_CN.UTF-8 wc -L) -le 80 ]"
keys y Space
keys y q
keys y y
exited "the second client exits 0" y 0
finish
