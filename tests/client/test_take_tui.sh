#!/bin/sh
# A terminal client takes a listed seek (TAKE, issue 43 item 3): alice seeks
# from the lobby and sees the wait to the bot counted down; her own seek
# is refused in words; bob's lobby lists her seek, selected, and t starts
# their game. Skips (saying so) when bin/gomokud is absent.
. tests/client/lib.sh
echo "checks: the lobby's open seeks, one selected with s and taken with t: both clients in the game"
[ -x "$GOMOKUD" ] || { echo "SKIP: $GOMOKUD is not built"; exit 0; }
command -v tmux >/dev/null || { echo "SKIP: tmux is not installed"; exit 0; }
tmux_server take

# no bot takes alice's seat while bob looks
printf 'bot-fallback 600\n' >"$T/gomokud.conf"
gomokud_start --config "$T/gomokud.conf"

for s in alice bob; do
	$TM new-session -d -s $s -x 80 -y 24 \
	    "LANG=C.UTF-8 $GOMOKU --ca $T/state/cert.pem --name $s 127.0.0.1:$DPORT 2>$T/$s.err; printf '\\nEXIT=%s\\n' \$?; sleep 60"
	step "$s signs in" $s "Signed in as $s"
done
keys alice Enter
step "alice is seeking" alice "Seeking an opponent"
# the greeting's bot-fallback=600, counted down
step "alice sees the wait to the bot counted down" alice "a bot plays you if nobody comes in 59"
step "alice's own seek is listed to her" alice "> alice freestyle"
keys alice t
step "alice cannot take her own seek" alice "your own"
step "bob's lobby lists alice's seek, selected" bob "> alice freestyle"
step "bob's lobby says how to take it" bob "s select  t take"
keys bob t
step "bob is in alice's game" bob "Game started:"
step "alice is in bob's game" alice "Game started:"

for s in alice bob; do
	keys $s C-c
	wait_for $s "Quit gomoku? (y/n)" && keys $s y
	step "client $s quits cleanly" $s "EXIT=0"
done
finish
