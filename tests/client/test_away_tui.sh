#!/bin/sh
# A private room outlives its creator's client (issue 43, item 1): in tmux
# on a local gomokud, carol creates a room and quits her client (as a phone
# switches apps); dave joins by the code meanwhile and is told carol is
# away; carol starts her client again, which takes her seat back (from
# the state it keeps per server), and the game starts for both. Before
# that, erin seeks and quits; her next client takes her session back
# (RESUME <token> -) with its seek. Skips (saying so) when
# bin/gomokud is absent.
. tests/client/lib.sh
echo "checks: a waiting private room survives its creator's client quitting; the friend joins meanwhile; the game starts when the creator is back"
[ -x "$GOMOKUD" ] || { echo "SKIP: $GOMOKUD is not built"; exit 0; }
command -v tmux >/dev/null || { echo "SKIP: tmux is not installed"; exit 0; }
tmux_server away

# no bot takes erin's seek while she is away
printf 'bot-fallback 600\n' >"$T/gomokud.conf"
gomokud_start --config "$T/gomokud.conf"

client() { # client NAME: the terminal client as NAME in tmux session NAME
	$TM new-session -d -s "$1" -x 80 -y 24 \
	    "LANG=C.UTF-8 $GOMOKU --ca $T/state/cert.pem --name $1 127.0.0.1:$DPORT 2>$T/$1.err; printf '\\nEXIT=%s\\n' \$?; sleep 60"
}
# erin seeks and quits: her next client takes the session back with its
# seek (RESUME <token> -, = SEEK)
client erin
step "erin signs in" erin "Signed in as erin"
keys erin Enter
step "erin is seeking" erin "Seeking an opponent"
keys erin C-c
wait_for erin "Quit gomoku? (y/n)" && keys erin y
exited "erin's client quits" erin 0
$TM kill-session -t "=erin:"
client erin
step "erin's client takes her session back" erin "Signed in again as erin"
step "erin's seek is hers again" erin "Seeking an opponent"

client carol
client dave
step "carol signs in" carol "Signed in as carol"
step "dave signs in" dave "Signed in as dave"
# "Create a private room" is lobby row 1, "Join by code" row 2
keys carol Down Enter
step "carol's room is created" carol "invite code: "
CODE=$(screen carol | sed -n 's/.*invite code: \([A-Za-z0-9]*\).*/\1/p' | head -1)
check "an invite code is shown ($CODE)" [ -n "$CODE" ]

# carol's client quits: her room waits for her
keys carol C-c
wait_for carol "Quit gomoku? (y/n)" && keys carol y
exited "carol's client quits" carol 0
$TM kill-session -t "=carol:"

keys dave Down Down Enter
step "dave is asked for a code" dave "invite code or share link> _"
keys dave "$CODE" Enter
step "dave joined the room and is told carol is away" dave "Waiting for carol to return"
check "the game has not started without carol" sh -c "! $TM capture-pane -p -t =dave: | grep -q 'Game started'"

# carol is back: her client takes the session back, the game starts
client carol
step "carol's client takes her seat back" carol "Back in room"
step "carol's game started" carol "Game started: "
step "dave's game started" dave "Game started: "
check "the server took carol's session back (its log)" grep -q ": carol resumed" "$T/d.log"

for s in carol dave erin; do
	keys $s C-c
	wait_for $s "Quit gomoku? (y/n)" && keys $s y
	step "client $s quits cleanly" $s "EXIT=0"
done
finish
