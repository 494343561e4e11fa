#!/bin/sh
# The opening rules on the real daemon (issue 46): two terminal clients in
# tmux play a whole game under each opening rule, from alice's challenge
# with the lobby's rule and opening to the end: swap, pro and long pro on
# freestyle 15x15, RIF, Yamaguchi, Soosõrv-8 and Taraguchi-10 on renju.
# Each player acts on what its screen says (tests/client/opening_driver.sh):
# the instruction of each stage, the area named, the fifth moves drawn as 5.
# GOMOKU_TEST_PORT picks the daemon's port (default: any free one).
. tests/client/lib.sh
. tests/client/opening_driver.sh
echo "checks: two terminal clients play a whole game under each opening rule on a real gomokud that lists openings"
[ -x "$GOMOKUD" ] || { echo "SKIP: $GOMOKUD is not built"; exit 0; }
command -v tmux >/dev/null || { echo "FAIL - tmux is not installed (make deps)"; exit 1; }
tmux_server oduo

"$GOMOKUD" --listen "127.0.0.1:${GOMOKU_TEST_PORT:-0}" --state-dir "$T/state" --log-level info \
    >"$T/d.log" 2>&1 &
DPID=$!
DPORT=$(gomokud_port "$T/d.log")
[ -n "$DPORT" ] || { echo "FAIL - gomokud did not start"; cat "$T/d.log"; exit 1; }

for u in alice bob; do
	$TM new-session -d -s $u -x 80 -y 24 \
	    "LANG=C.UTF-8 $GOMOKU --ascii --ca $T/state/cert.pem --name $u 127.0.0.1:$DPORT 2>$T/$u.err; printf '\\nEXIT=%s\\n' \$?; sleep 60"
done
step "alice signs in" alice "Signed in as alice"
step "bob signs in" bob "Signed in as bob"

# the lobby's settings are alice's (opening_driver.sh: od_setting)
OD_LOBBY=alice

# game RULE OPENING LABEL: alice challenges bob with them, both play it out
game() {
	check "$1 / $3: the lobby offers it" od_setting 8 Rule "$1"
	check "$1 / $3: the opening is set" od_setting 13 Opening "$3"
	keys alice c
	keys alice -l bob
	keys alice Enter
	step "$1 / $3: bob is challenged" bob "alice challenges you: $1 15x15"
	keys bob A
	step "$1 / $3: the game starts for alice" alice "room r"
	step "$1 / $3: the stage is shown" alice "$3: "
	check "$1 / $3: a whole game is played to its end" od_game alice bob
	check "$1 / $3: bob sees the end" wait_for bob "Game over"
	check "$1 / $3: the game ended with a five" wait_for alice "wins by five"
	if [ "$1" = renju ]; then
		# the title names the renju opening the first three stones made
		check "$1 / $3: the title names the renju opening" sh -c \
		    "$TM capture-pane -p -t =alice: | sed -n 1p | grep -Eq '$3  [DI][0-9]+ [A-Z][a-z]+'"
	fi
	keys alice Q
	keys bob Q
	step "$1 / $3: alice is back in the lobby" alice "Quick match"
	step "$1 / $3: bob is back in the lobby" bob "Quick match"
}

game freestyle swap swap
game freestyle pro pro
game freestyle longpro "long pro"
game renju rif RIF
game renju yamaguchi Yamaguchi
game renju soosorv8 Soosõrv-8
game renju taraguchi10 Taraguchi-10
finish
