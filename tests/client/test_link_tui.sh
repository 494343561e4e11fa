#!/bin/sh
# A share link pasted into the terminal client (issue 43, item 10): in tmux
# on a local gomokud, carol creates a private room; dave pastes the link the
# web page would show (https://host:port/#join=CODE) at the code prompt, and
# the client takes the code out of it and joins. A link cut short stays on
# the prompt. A third client started with the link as its argument
# connects to the link's server and watches the room, and watches on after
# every connection is cut (ss -K); kicked, it says why and exits instead
# of reconnecting. Skips (saying so) when bin/gomokud is absent.
. tests/client/lib.sh
echo "checks: a share link pasted at the terminal client's code prompt joins the private room; a link as the argument joins it too"
[ -x "$GOMOKUD" ] || { echo "SKIP: $GOMOKUD is not built"; exit 0; }
command -v tmux >/dev/null || { echo "SKIP: tmux is not installed"; exit 0; }
tmux_server link

gomokud_start

for p in carol dave; do
	$TM new-session -d -s $p -x 80 -y 24 \
	    "LANG=C.UTF-8 $GOMOKU --ca $T/state/cert.pem --name $p 127.0.0.1:$DPORT 2>$T/$p.err; printf '\\nEXIT=%s\\n' \$?; sleep 60"
done
step "carol signs in" carol "Signed in as carol"
step "dave signs in" dave "Signed in as dave"
# "Create a private room" is lobby row 1, "Join by code" row 2
keys carol Down Enter
step "carol's room is created" carol "invite code: "
CODE=$(screen carol | sed -n 's/.*invite code: \([A-Za-z0-9]*\).*/\1/p' | head -1)
check "an invite code is shown ($CODE)" [ -n "$CODE" ]
LINK="https://127.0.0.1:$DPORT/#join=$CODE"

keys dave Down Down Enter
step "dave is asked for a code or a link" dave "invite code or share link> _"
# a link cut short: the line stays open, nothing is sent
CUT="https://127.0.0.1:$DPORT/#join=$(printf %s "$CODE" | cut -c1-4)"
$TM set-buffer -b cut "$CUT"
$TM paste-buffer -b cut -t "=dave:"
keys dave Enter
sleep 0.5
check "a link cut short stays on the prompt" wait_for dave "${CUT}_"
keys dave Escape
# the whole link, pasted as a terminal pastes it
$TM set-buffer -b link "$LINK"
keys dave Enter # "Join by code" is still the row chosen
step "dave is asked again" dave "invite code or share link> _"
$TM paste-buffer -b link -t "=dave:"
step "the pasted link is on dave's prompt" dave "#join=${CODE}_"
keys dave Enter
step "dave joined carol's room by the link" dave "Game started: "
step "carol's game started" carol "Game started: "
# the link as the command-line argument: erin's client connects to the
# link's server and joins its room; both seats are taken, so she watches
$TM new-session -d -s erin -x 80 -y 24 \
    "LANG=C.UTF-8 $GOMOKU --ca $T/state/cert.pem --name erin '$LINK' 2>$T/erin.err; printf '\\nEXIT=%s\\n' \$?; sleep 60"
step "erin, started with the link, watches the room" erin "Chat (1 watching)"
step "erin's board shows carol's game with dave" erin "dave"
check "erin's board shows carol too" wait_for erin "carol"
# every connection cut (ss -K): erin comes back as a new guest, in no room,
# and a stranger may not WATCH a private room, so she JOINs by the code again
if command -v ss >/dev/null 2>&1 && ss -K -tn "dport = :$DPORT" >/dev/null 2>&1; then
	step "erin is back in the room after the drop" erin "Reconnected; back in room"
	step "carol is back in her seat" carol "Back in room"
	step "dave is back in his seat" dave "Back in room"
	# whoever holds black plays h8 (the other's try is refused)
	keys carol h 8 Enter
	keys dave h 8 Enter
	step "erin, watching on, sees the next move" erin "1.h8"
else
	echo "SKIP: ss -K cannot cut connections here"
fi

# a kick: erin's client says why and exits, instead of coming back by
# itself (its token is revoked; a reconnect would only be refused)
"$BINDIR/gomokuctl" --state-dir "$T/state" kick erin "flooding the chat" >/dev/null
exited "erin's client exits instead of reconnecting" erin 3
check "erin's client says she was kicked, and why" grep -q "kicked: flooding the chat" "$T/erin.err"

for s in carol dave; do
	keys $s C-c
	wait_for $s "Quit gomoku? (y/n)" && keys $s y
	step "client $s quits cleanly" $s "EXIT=0"
done
finish
