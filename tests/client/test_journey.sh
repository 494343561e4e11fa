#!/bin/sh
# A player's journey around the game (issue 25), real terminal clients in
# tmux on a real gomokud: the README's script example run as written (and
# the same in gomoku(1)); script mode exiting when the server refuses; a
# guest killed mid-game and started again takes its seat back; an account
# logging in from a second client takes the session over and, killed and
# started again, resumes it; the daemon killed (-9) while one client views a
# finished game and another watches a game, then restarted; a planned
# restart (SIGTERM) announced; challenges declined and accepted; the
# header's time control and rated/casual, the ratings beside the names
# (none for a guest); a rated game lost on time showing 0:00 and both
# rating changes (the server's * RATINGS and * RATED); a profile (P in
# the game, p in the lobby) and the leaderboard per rule (L); quick match
# falling back to a bot. Skips (saying so) when bin/gomokud is absent.
. tests/client/lib.sh
echo "checks: README script example verbatim; script refusal exits; guest and account resume after kill; takeover; daemon kill -9 while viewing a finished game and while watching; SIGTERM restart message; challenge declined and accepted; flag 0:00 and rating change; quick match bot fallback"
[ -x "$GOMOKUD" ] || { echo "SKIP: $GOMOKUD is not built"; exit 0; }
if ! command -v tmux >/dev/null; then
	[ "${GOMOKU_REQUIRE_SHARED:-}" = 1 ] && { echo "FAIL - tmux is not installed"; exit 1; }
	echo "SKIP: tmux is not installed"
	exit 0
fi
tmux_server journey
export XDG_STATE_HOME=$T/statehome

# startd [PORT]: gomokud on 127.0.0.1 (port 0: a free one); sets DPORT,
# DPID; each start logs to its own file, $T/d.log the latest
NSTART=0
startd() {
	NSTART=$((NSTART + 1))
	"$GOMOKUD" --listen "127.0.0.1:${1:-0}" --config "$T/gomokud.conf" >"$T/d$NSTART.log" 2>&1 &
	DPID=$!
	ln -sf "d$NSTART.log" "$T/d.log"
	DPORT=$(gomokud_port "$T/d.log")
	[ -n "$DPORT" ] || { echo "FAIL - gomokud did not start"; cat "$T/d.log"; exit 1; }
}
# a quick match waits 8 s for a human before a bot comes (the last check)
printf 'state-dir %s/state\nlog-level info\ngrace 300\nbot-fallback 8\n' "$T" >"$T/gomokud.conf"
startd 0
SRV=127.0.0.1:$DPORT
mkdir -p "$XDG_CONFIG_HOME/gomoku"
printf '# the server the examples reach\nserver %s\n' "$SRV" >"$XDG_CONFIG_HOME/gomoku/config"

# client SESSION ARGS...: a terminal client in a new tmux session; its pid
# in $T/SESSION.pid, its stderr in $T/SESSION.err; $CENV, if set, is added
# to its environment
client() {
	c_s=$1
	shift
	$TM new-session -d -s "$c_s" -x 80 -y 24 \
	    "sh -c 'echo \$\$ >$T/$c_s.pid; exec env LANG=C.UTF-8 ${CENV:-} $GOMOKU $* 2>$T/$c_s.err'; printf '\\nEXIT=%s\\n' \$?; sleep 60"
}
# script mode with a time limit, only against hangs
run() { timeout 30 "$GOMOKU" "$@"; }

# --- the README's script example, as written, against this daemon
EX=$(grep "^printf 'SEEK" README.md | head -1)
check "the README has the script example" [ -n "$EX" ]
MANEX=$(sed -n '/^printf .SEEK/p' client/gomoku.1 | sed 's/\\en/\\n/g; s/\\-/-/g')
check "gomoku(1) shows the same example" [ "$MANEX" = "$(printf '%s' "$EX" | sed 's|bin/gomoku|gomoku|')" ]
(printf 'SEEK freestyle 15 300+5 any casual none\n!wait START\n' |
    run --name readerbob "$SRV" >"$T/opp.out" 2>"$T/opp.err") &
OPP=$!
sh -c "$EX" >"$T/ex.out" 2>"$T/ex.err"
check "the README example exits 0" [ $? -eq 0 ]
wait $OPP
check "its game started" grep -q '^\* START r[0-9]* [0-9]* ' "$T/ex.out"
check "it signed in as alice and quit" sh -c "grep -q '^OK GUEST alice ' '$T/ex.out' && grep -q '^OK QUIT' '$T/ex.out'"
check "the server said goodbye with a reason" grep -q '^\* BYE quit' "$T/ex.out"
check "the opponent's game started too" grep -q '^\* START ' "$T/opp.out"

# --- --ca with the daemon's own certificate verifies a name it covers
printf 'PING ca\n' | run --ca "$T/state/cert.pem" "localhost:$DPORT" >"$T/ca.out" 2>"$T/ca.err"
check "--ca state/cert.pem verifies localhost:port" grep -q '^OK PING ca' "$T/ca.out"

# --- script mode exits, with 4, when the server refuses
printf 'SEEK freestyle 15 300+5 any casual none\n!wait START\n' | run --name bot1 >"$T/ref.out" 2>"$T/ref.err"
check "a refused --name exits 4 rather than waiting forever" [ $? -eq 4 ]
check "and says why" grep -q "refused the name bot1" "$T/ref.err"
printf 'JOIN nosuchcode1\n!wait START\n' | run --name joiner >"$T/ref2.out" 2>"$T/ref2.err"
check "a !wait after a refused request exits 4" [ $? -eq 4 ]
check "and says why" grep -q "not waiting for START" "$T/ref2.err"

# --- a guest killed mid-game and started again takes its seat back
client ga --name gina "$SRV"
client gb --name hugo "$SRV"
step "gina signs in" ga "Signed in as gina"
keys ga Enter
step "gina seeks" ga "Seeking an opponent"
step "hugo signs in" gb "Signed in as hugo"
check "the lobby lists gina's open seek" wait_for gb "gina freestyle 15 300+5"
check "the lobby lists who is online" wait_for gb "gina                 seeking"
keys gb Enter
step "hugo is paired" gb "Game started: "
step "gina is paired" ga "Game started: "
ROOM=$(screen ga | sed -n 's/.* room \(r[0-9]*\) .*/\1/p' | head -1)
if screen ga | grep -q "Your move"; then G1=ga G2=gb; else G1=gb G2=ga; fi
keys $G1 h 8 Enter
step "the first move arrives" $G2 "1.h8"
SF=$(ls "$XDG_STATE_HOME"/gomoku/session-127.0.0.1_"$DPORT"-gina 2>/dev/null)
check "gina's session is kept in the state directory" [ -n "$SF" ]
check "the state file is private (0600)" [ "$(stat -c %a "$SF" 2>/dev/null)" = 600 ]
kill -9 "$(cat "$T/ga.pid")"
exited "gina's client is gone" ga 137
$TM kill-session -t =ga
client ga --name gina "$SRV"
step "gina, started again, is back in her room" ga "Back in room $ROOM"
check "with the move played" wait_for ga "1.h8"
check "still as gina" wait_for ga "as gina"

# --- smaller things, in gina's game: a lone column letter, a private
# message echoed, a terminal too small, mouse reporting
keys ga l
step "a lone 'l' says it waits for a row" ga "move: l_  (type its row, or Enter plays "
keys ga Escape
keys ga Tab
keys ga -l "@hugo psst"
keys ga Enter
step "hugo gets the private message" gb "[gina] psst"
step "gina sees her own message echoed" ga "[to hugo] psst"
check "the client asked the terminal for mouse reports" [ "$($TM display -p -t =ga: '#{mouse_any_flag}')" = 1 ]
$TM resize-window -t =ga: -x 40 -y 12
step "a 40x12 terminal says it is too small instead of cutting the board" ga "Terminal too small: 40x12"
$TM resize-window -t =ga: -x 80 -y 24
step "at 80x24 the board is back" ga "Moves ("
client nm --no-mouse --name nomouse "$SRV"
step "a --no-mouse client signs in" nm "Signed in as nomouse"
check "--no-mouse leaves the mouse to the terminal" [ "$($TM display -p -t =nm: '#{mouse_any_flag}')" = 0 ]
keys nm q
wait_for nm "(y/n)" && keys nm y

# --- the daemon killed while gina views her finished game and ivan watches
# another one; then restarted on the same port
keys ga R
wait_for ga "(y/n)" && keys ga y
step "gina resigned" ga "Game over:"
client gc --name ivan "$SRV"
client gd --name jane "$SRV"
client ge --name kurt "$SRV"
step "jane signs in" gd "Signed in as jane"
step "kurt signs in" ge "Signed in as kurt"
keys gd Enter
step "jane seeks" gd "Seeking an opponent"
keys ge Enter
step "kurt and jane play" ge "Game started: "
step "ivan signs in" gc "Signed in as ivan"
keys gc Down Down Down Enter
step "ivan sees the game listed" gc "jane"
keys gc Enter
step "ivan watches" gc "Moves (0)"
WROOM=$(screen gc | sed -n 's/.* room \(r[0-9]*\) .*/\1/p' | head -1)
kill -9 "$DPID"
wait "$DPID" 2>/dev/null
startd "$DPORT"
step "gina, viewing a finished game, is told it is gone" ga "Room $ROOM is gone (the server restarted); you are in the lobby"
check "and sees the lobby" wait_for ga "Quick match"
step "ivan, watching, is back in the room" gc "back in room $WROOM"
step "the players resume" gd "Back in room $WROOM"

# --- a planned restart is announced
kill -TERM "$DPID"
wait "$DPID" 2>/dev/null
step "a SIGTERM restart says so" gd "Server restarting, reconnecting"
startd "$DPORT"
step "and the client comes back" gd "Back in room $WROOM"

# --- --register asks for the password twice; every program has --version
client rg --register zed "$SRV"
step "--register asks for a new password" rg "New password for zed:"
keys rg -l "first-pass"
keys rg Enter
step "and again" rg "Same password again for zed:"
keys rg -l "other-pass"
keys rg Enter
step "two different passwords register nothing" rg "EXIT=2"
check "and it says why" grep -q "the passwords differ" "$T/rg.err"
for p in gomoku gomokud pbrain-gomoku; do
	check "$p --version" sh -c "$BINDIR/$p --version | grep -q '^$p 0\.'"
done

# --- accounts: takeover, and resume after a kill
printf 'REGISTER lena pass-of-lena\n' | run "$SRV" >/dev/null 2>&1
printf 'REGISTER mark pass-of-mark\n' | run "$SRV" >/dev/null 2>&1
CENV=GOMOKU_PASSWORD=pass-of-lena client la --login lena "$SRV"
client lb --name nora "$SRV"
step "lena logs in" la "Signed in as lena"
step "nora signs in" lb "Signed in as nora"
keys la Enter
step "lena seeks" la "Seeking an opponent"
keys lb Enter
step "lena plays nora" la "Game started: "
check "the header says the time control and casual" sh -c "$TM capture-pane -p -t =la: | sed -n 1p | grep -Eq ' [0-9]+\+[0-9]+  casual'"
step "lena's rating is beside her name (provisional: ~)" la "lena ~1500 (you)"
check "nora, a guest, has none" sh -c "! $TM capture-pane -p -t =la: | grep -q 'nora ~'"
LROOM=$(screen la | sed -n 's/.* room \(r[0-9]*\) .*/\1/p' | head -1)
CENV=GOMOKU_PASSWORD=pass-of-lena client la2 --login lena "$SRV"
step "a second client of lena's takes the game over" la2 "room $LROOM"
step "the first one is told and stops" la "EXIT=3"
check "it said why" grep -q "went on in another client" "$T/la.err"
kill -9 "$(cat "$T/la2.pid")"
exited "the second client is killed" la2 137
$TM kill-session -t =la2
CENV=GOMOKU_PASSWORD=pass-of-lena client la3 --login lena "$SRV"
step "lena's client, started again, resumes her seat" la3 "Back in room $LROOM"
keys la3 R
wait_for la3 "(y/n)" && keys la3 y
step "lena resigned" la3 "Game over:"
keys la3 Q
step "lena is in the lobby" la3 "Quick match"

# --- challenges: declined, then accepted; the game is lost on time by mark
printf 'LOGIN mark pass-of-mark\nCHALLENGE lena freestyle 15 2+0 black rated none\n!wait CHALLENGEEND\n' |
    run "$SRV" >"$T/mark1.out" 2>"$T/mark1.err" &
MARK=$!
step "lena is challenged" la3 "mark challenges you: freestyle 15x15, 2+0, rated"
keys la3 X
step "lena declined" la3 "Challenge declined"
wait $MARK
check "mark's script saw the decline" grep -q '^\* CHALLENGEEND [0-9]* declined' "$T/mark1.out"
printf 'LOGIN mark pass-of-mark\nCHALLENGE lena freestyle 15 2+0 black rated none\n!wait START\n!wait OVER\n' |
    run "$SRV" >"$T/mark.out" 2>"$T/mark.err" &
MARK=$!
step "lena is challenged again" la3 "mark challenges you"
keys la3 A
step "the challenge game starts" la3 "Game started: mark (black) vs lena"
step "the header says 2+0 and rated" la3 "2+0  rated"
step "both ratings are beside the names" la3 "mark ~1500"
step "mark's flag falls" la3 "Game over: lena wins (time)"
check "the loser's clock reads 00:00" sh -c "$TM capture-pane -p -t =la3: | sed -n 2p | grep -q '00:00\$'"
step "the chat shows lena's rating change" la3 "lena's rating: 1500 -> "
step "and mark's" la3 "mark's rating: 1500 -> "
check "the panel shows the change" sh -c "$TM capture-pane -p -t =la3: | sed -n 3p | grep -Eq 'lena ~?[0-9]+ \(\+[0-9]+\)'"
wait $MARK
check "mark's script saw the start and the end" sh -c "grep -q '^\\* START' '$T/mark.out' && grep -q '^\\* OVER .* white time' '$T/mark.out'"

# --- profiles and the leaderboard: P in the game, p and L in the lobby
keys la3 P
step "P shows the opponent's profile" la3 "profile of mark"
step "with mark's record in freestyle" la3 "0 won, 1 lost, 0 drawn"
step "and the game just played" la3 "mark vs lena"
keys la3 Escape
step "Esc goes back to the game" la3 "Game over: lena wins (time)"
keys la3 Q
step "lena leaves for the lobby" la3 "p profile  L leaderboard  ? help"
keys la3 L
step "L shows the freestyle leaderboard" la3 "leaderboard  < freestyle >"
step "lena, who won, first" la3 " 1. lena"
step "mark second" la3 " 2. mark"
keys la3 Right
step "standard's: nobody yet" la3 "Nobody has played a rated game of this rule yet."
keys la3 b
step "b shows the bot accounts' own (TOPBOTS)" la3 "bots' leaderboard  < standard >"
keys la3 b Left
step "and b the people's again (freestyle's)" la3 " 1. lena"
check "not the bots' now" sh -c "! $TM capture-pane -p -t =la3: | grep -q \"bots' leaderboard\""
keys la3 Escape
keys la3 p
step "p asks whose profile" la3 "whose profile> "
keys la3 lena Enter
step "lena's own profile" la3 "profile of lena"
step "with her win" la3 "1 won, 0 lost, 0 drawn"
keys la3 Escape
step "back in the lobby" la3 "p profile  L leaderboard  ? help"

# --- quick match with nobody about: a bot after the server's wait
client qa --name otto "$SRV"
step "otto signs in" qa "Signed in as otto"
keys qa Enter
step "quick match shows the wait and the bot fallback" qa "a bot plays you if nobody comes"
step "a bot takes the seat" qa "Game started: "
check "the opponent is the server's bot" wait_for qa "bot5"

for s in ga gb gc gd ge la3 lb qa; do
	keys $s C-c
	wait_for $s "Quit gomoku? (y/n)" && keys $s y
	step "client $s quits cleanly" $s "EXIT=0"
done
finish
