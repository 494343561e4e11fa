#!/bin/sh
# The opening rules against the server's bot (issue 46): a terminal client
# in tmux plays a whole game under each opening rule with a bot, from the
# lobby's "Play a bot" with the rule and opening set: none, swap2, swap,
# pro and long pro on freestyle 15x15; none, RIF, Yamaguchi, Soosõrv-8 and
# Taraguchi-10 on renju. The player acts on what its screen says
# (tests/client/opening_driver.sh); the bot acts for itself. The bot's
# seat is marked "[BOT]" beside its name (the room's * KINDS, issue 49),
# hana's is not.
# A BOT play the server refuses (501: its bots do not play that opening)
# fails that rule's game, and the next rule is played.
# GOMOKU_TEST_PORT picks the daemon's port (default: any free one).
. tests/client/lib.sh
. tests/client/opening_driver.sh
echo "checks: a terminal client plays a whole game against the server's bot under each opening rule on a real gomokud"
[ -x "$GOMOKUD" ] || { echo "SKIP: $GOMOKUD is not built"; exit 0; }
command -v tmux >/dev/null || { echo "FAIL - tmux is not installed (make deps)"; exit 1; }
tmux_server obot

"$GOMOKUD" --listen "127.0.0.1:${GOMOKU_TEST_PORT:-0}" --state-dir "$T/state" --log-level info \
    >"$T/d.log" 2>&1 &
DPID=$!
DPORT=$(gomokud_port "$T/d.log")
[ -n "$DPORT" ] || { echo "FAIL - gomokud did not start"; cat "$T/d.log"; exit 1; }

$TM new-session -d -s h -x 80 -y 24 \
    "LANG=C.UTF-8 $GOMOKU --ascii --ca $T/state/cert.pem --name hana 127.0.0.1:$DPORT 2>$T/h.err; printf '\\nEXIT=%s\\n' \$?; sleep 60"
step "hana signs in" h "Signed in as hana"

# the lobby's settings are h's (opening_driver.sh: od_setting)
OD_LOBBY=h
# the bot's level: the lowest, for a short game (row 14, Right cycles)
od_setting 14 "Bot level" 1

# game RULE LABEL: hana plays the bot under them to the end
game() {
	check "$1 / $2: the lobby offers it" od_setting 8 Rule "$1"
	check "$1 / $2: the opening is set" od_setting 13 Opening "$2"
	od_sel 4
	keys h Enter
	if ! wait_for h "room r"; then
		# refused: say why (a 501 names the bots), and go on with the next
		check "$1 / $2: the game with the bot starts (not refused)" false
		return
	fi
	check "$1 / $2: the bot's seat is marked [BOT]" wait_for h " [BOT]"
	check "$1 / $2: beside the bot's name, not hana's" \
	    sh -c "$TM capture-pane -p -t =h: | grep -Eq '[XO] [> ]bot[0-9]+ \[BOT\]' && ! $TM capture-pane -p -t =h: | grep -q 'hana.*\[BOT\]'"
	check "$1 / $2: a whole game is played to its end" od_game h
	check "$1 / $2: it ended with a five" wait_for h "wins by five"
	keys h Q
	step "$1 / $2: back in the lobby" h "Quick match"
}

game freestyle none
game freestyle swap2
game freestyle swap
game freestyle pro
game freestyle "long pro"
game renju none
game renju RIF
game renju Yamaguchi
game renju Soosõrv-8
game renju Taraguchi-10
finish
