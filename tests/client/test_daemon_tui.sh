#!/bin/sh
# Two terminal clients in tmux play a whole game on a local gomokud:
# quick match from the lobby, moves typed and clicked with the mouse, an
# undo offer accepted, chat, and five in a row seen on both screens. One
# client verifies the daemon's certificate with --ca, the other pins it on
# first use. A third client watches from the lobby. Then the two play a
# swap2 opening; the third creates a private room and a fourth joins with
# the invite code shown. Finally every connection is cut (ss -K) and all
# four RESUME by themselves. Skips (saying so) when bin/gomokud is absent.
. tests/client/lib.sh
echo "checks: two clients in tmux play a game on a real gomokud (mouse, undo offer, chat, five); a third watches; a swap2 opening; a private room by invite code; all four cut off and resumed"
[ -x "$GOMOKUD" ] || { echo "SKIP: $GOMOKUD is not built"; exit 0; }
command -v tmux >/dev/null || { echo "SKIP: tmux is not installed"; exit 0; }
tmux_server duo

gomokud_start


$TM new-session -d -s a -x 80 -y 24 \
    "LANG=C.UTF-8 $GOMOKU --ca $T/state/cert.pem --name alice 127.0.0.1:$DPORT 2>$T/a.err; printf '\\nEXIT=%s\\n' \$?; sleep 60"
$TM new-session -d -s b -x 80 -y 24 \
    "LANG=C.UTF-8 $GOMOKU --name bob 127.0.0.1:$DPORT 2>$T/b.err; printf '\\nEXIT=%s\\n' \$?; sleep 60"
$TM new-session -d -s c -x 80 -y 24 \
    "LANG=C.UTF-8 $GOMOKU --ca $T/state/cert.pem --name carol 127.0.0.1:$DPORT 2>$T/c.err; printf '\\nEXIT=%s\\n' \$?; sleep 60"
$TM new-session -d -s d -x 80 -y 24 \
    "LANG=C.UTF-8 $GOMOKU --ca $T/state/cert.pem --name dave 127.0.0.1:$DPORT 2>$T/d.err; printf '\\nEXIT=%s\\n' \$?; sleep 60"
step "alice signs in (CA-verified)" a "Signed in as alice"
step "bob signs in (key pinned on first use)" b "Signed in as bob"
# trust on first use: a dialog that waits for a key shows the very
# fingerprint the daemon logged
FP=$(sed -n 's/.*certificate .* fingerprint \(sha256:[0-9a-f]*\).*/\1/p' "$T/d.log" | head -1)
check "the daemon logs the key's fingerprint in the pinned form" test "${#FP}" -eq 71
step "bob's first-use dialog shows the logged fingerprint" b "$FP"
sleep 1
check "the dialog stays until a key is pressed" sh -c "$TM capture-pane -p -t =b: | grep -q 'press any key'"
check "the pin file holds the same fingerprint" grep -q "^127.0.0.1:$DPORT $FP\$" "$XDG_CONFIG_HOME/gomoku/known_hosts"
keys b Space
check "a key dismisses the dialog" sh -c "i=0; while $TM capture-pane -p -t =b: | grep -q 'press any key'; do i=\$((i+1)); [ \$i -gt 50 ] && exit 1; sleep 0.1; done"
check "bob's pin was written" grep -q "^127.0.0.1:$DPORT sha256:" "$XDG_CONFIG_HOME/gomoku/known_hosts"

# alice wants black: colour is lobby row 11; Right turns any into black;
# four more Downs wrap round to "Quick match".
for k in 1 2 3 4 5 6 7 8 9 10 11; do keys a Down; done
keys a Right
step "alice's colour setting is black" a "< black >"
for k in 1 2 3 4; do keys a Down; done
keys a Enter
step "alice is seeking" a "Seeking an opponent"
keys b Enter
step "bob is paired" b "Game started: alice (black) vs bob (white)"
step "alice is paired and to move" a "Your move (black)"

keys a h 8 Enter
step "bob sees alice's h8" b "1.h8"
# carol watches from the lobby: "Watch a game" is row 3
step "carol is in the lobby" c "Signed in as carol"
keys c Down Down Down Enter
step "carol sees the public game listed" c "alice vs bob"
keys c Enter
step "carol watches the game" c "1.h8"
# bob clicks i9: row 2 + (15 - 9) = 8, column 3 + 2 * 8 = 19 (X10 mouse encoding)
keys b -H 1b 5b 4d 20 34 29
step "alice sees bob's clicked i9" a "1.h8 i9"
keys a i 8 Enter
step "bob sees i8" b "2.i8"
keys b j 1 0 Enter
step "alice sees j10" a "2.i8 j10"
keys b U
step "alice is asked about bob's undo offer" a "bob offers undo: A accept, X decline"
keys a A
step "bob sees his move taken back" b "Moves (3):"
check "alice sees j10 taken back" wait_for a "Moves (3):"
keys b j 9 Enter
step "alice sees j9" a "2.i8 j9"
keys a Tab
keys a -l "good luck bob"
keys a Enter
step "bob reads alice's chat" b "alice: good luck bob"
keys a j 8 Enter
step "j8 arrives" b "3.j8"
keys b k 9 Enter
step "k9 arrives" a "3.j8 k9"
keys a k 8 Enter
step "k8 arrives" b "4.k8"
keys b a 1 Enter
step "a1 arrives" a "4.k8 a1"
keys a l 8 Enter
step "alice sees her five" a "Game over: alice wins (five)"
step "bob sees alice's five" b "Game over: alice wins (five)"
check "the winning stones are on alice's board" sh -c "$TM capture-pane -p -t =a: | grep -q '^ 8 · · · · · · · ● ● ● ●\[●\]'"
# attributes: the five (board row 8, screen line 10) is underlined, white's
# row 9 (line 9) is not
ul="$(printf '\033')\[([0-9]+;)*4(;[0-9]+)*m"
check "the winning five is highlighted" sh -c "$TM capture-pane -e -p -t =a: | sed -n 10p | grep -Eq '$ul'"
check "stones outside the five are not highlighted" sh -c "! $TM capture-pane -e -p -t =a: | sed -n 9p | grep -Eq '$ul'"

step "carol, watching, sees the five too" c "Game over: alice wins (five)"
step "carol sees the chat" c "alice: good luck bob"
[ -n "${CAPTURE:-}" ] && screen a >"$CAPTURE"

# a swap2 game: both leave, pick the swap2 opening (lobby row 13) and seek;
# alice (opener) places three stones, bob takes white and moves
for p in a b; do
	keys $p Q
	step "$p is back in the lobby" $p "Quick match"
	for k in 1 2 3 4 5 6 7 8 9 10 11 12 13; do keys $p Down; done
	keys $p Right
	step "$p picks swap2" $p "< swap2 >"
	for k in 1 2 3 4 5 6 7 8 9 10 11 12 13; do keys $p Up; done
done
keys a Enter
step "alice seeks a swap2 game" a "Seeking an opponent"
keys b Enter
step "alice is asked to place three stones" a "Swap2: you to place 3 stones"
keys a h 8 Enter h 9 Enter i 9 Enter
step "bob sees the three stones and his choice" b "Swap2: you to choose a colour or place 2"
check "bob's board has the opening stones" wait_for b "1.h8 h9 2.i9"
keys b W
step "colours are settled" a "Colours: alice black, bob white"
step "bob, white, moves next" b "Your move (white)"
keys b j 1 0 Enter
step "alice sees bob's first move" a "2.i9 j10"

# a private room: carol creates it (lobby row 1), dave joins with the code
keys c Q
step "carol leaves the finished game" c "Quick match"
keys c Up Up Enter
step "carol's room is created" c "invite code: "
CODE=$(screen c | sed -n 's/.*invite code: \([A-Za-z0-9]*\).*/\1/p' | head -1)
check "an invite code is shown ($CODE)" [ -n "$CODE" ]
# the waiting screen shows the room as the server has it (issue 25)
check "the waiting room's title shows its time control" sh -c "$TM capture-pane -p -t =c: | sed -n 1p | grep -q ' 300+5 '"
check "the creator's seat is shown taken" wait_for c "carol (you)"
check "the code has the server's 22 characters" [ ${#CODE} -eq 22 ]
check "the whole code is on the panel" sh -c "$TM capture-pane -p -t =c: | sed -n 5p | grep -q '$CODE'"
step "dave is in the lobby" d "Signed in as dave"
keys d Down Down Enter
step "dave is asked for the code" d "invite code or share link> _"
keys d -l "$CODE"
keys d Enter
step "dave joined carol's room" d "Game started: "
step "carol's game started" c "Game started: "
# Cut every client's connection at once (ss -K): each reconnects with
# backoff and RESUMEs its seat on its own.
if command -v ss >/dev/null 2>&1 && ss -K -tn "dport = :$DPORT" >/dev/null 2>&1; then
	for p in a b c d; do
		step "$p resumes its seat after the drop" $p "Back in room"
	done
	check "alice's resumed board is the swap2 game" wait_for a "2.i9 j10"
	check "the daemon saw the resumes" grep -q -i "resum" "$T/d.log"
else
	echo "SKIP: ss -K cannot cut connections here; resume is covered by test_tui.sh"
fi

for s in a b c d; do
	keys $s C-c
	wait_for $s "Quit gomoku? (y/n)" && keys $s y
	step "client $s quits cleanly" $s "EXIT=0"
done
check "the first-use warning named the pin" grep -q "The server.s key fingerprint is" "$T/b.err"
check "the CA-verified client gave no warning" [ ! -s "$T/a.err" ]
finish
