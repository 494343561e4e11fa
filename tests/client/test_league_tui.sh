#!/bin/sh
# The engine league's view (PROTOCOL.md 5.23, issue 49) in tmux against a
# scripted server, every line of it as the protocol has it: E asks
# LEAGUES, then the first league's table; a table of 20 longer than the
# screen: its first 12 rows and "... (Up/Down scroll)", Down scrolls to
# the last row, Up back; Right shows the other league (renju, its event
# under way); Left asks the first again, refused (460): the server's words
# on the status line, the screen says there is no table; its event's
# * TOURNEY over while the view shows small's table asks LEAGUES again,
# the league still counts it open (the server reads results every few
# seconds), so the client asks again a second later and shows the new
# table; Esc back to the lobby. (test_league_daemon_tui.sh: a league on
# the real daemon.)
. tests/client/lib.sh
echo "checks: the league view against a scripted server: E, a table of 20 scrolled, the other league, a refused LEAGUE in words, the event's end asking again until the league has read it"
command -v tmux >/dev/null || { echo "FAIL - tmux is not installed (make deps)"; exit 1; }
gencert a
tmux_server league
TOKEN=3kQ9fZ0aLm2Xw8pR7tYc1bN4
BIG="= LEAGUE big freestyle 15 60+0 20 190 7 1900000000"
SMALL_OPEN="= LEAGUE small renju 15 300+5 3 3 9 -"
SMALL_READ="= LEAGUE small renju 15 300+5 3 6 9 1900000000"
# big's table: 20 players, 19 games each, best first
big_table() {
	i=1
	while [ $i -le 20 ]; do
		echo "send = LRATING big $i p$i $((420 - i * 40)) $((30 + i)) $((30 + i)) 19 $((40 - i * 2)) 1"
		i=$((i + 1))
	done
	echo "send OK LEAGUE big 20"
}
{
	echo "cert $T/a.pem $T/a.key"
	cat <<EOS
accept
send * SERVER fake 0.1 1 chat accounts tournaments league
expect HELLO 1
send OK HELLO 1
expect LOGIN ann
send OK LOGIN ann $TOKEN
expect LEAGUES
send $BIG
send $SMALL_OPEN
send OK LEAGUES 2
expect LEAGUE big
EOS
	big_table
	cat <<EOS
expect LEAGUE small
send = LRATING small 1 rapfi 35 120 110 2 3 1
send = LRATING small 2 bot5 0 100 100 2 2 0
send = LRATING small 3 wine -35 110 120 2 1 1
send OK LEAGUE small 3
expect LEAGUE big
send ERR 460 no-league no league of that name (LEAGUES lists them)
expect LEAGUE small
send = LRATING small 1 rapfi 35 120 110 2 3 1
send = LRATING small 2 bot5 0 100 100 2 2 0
send = LRATING small 3 wine -35 110 120 2 1 1
send OK LEAGUE small 3
await $T/seen-small
send * TOURNEY 9 robin over renju 15 300+5 none rated bots 1796000000 1 3 3 3 - league small 1
expect LEAGUES
send $BIG
send $SMALL_OPEN
send OK LEAGUES 2
expect LEAGUE small
send = LRATING small 1 rapfi 35 120 110 2 3 1
send = LRATING small 2 bot5 0 100 100 2 2 0
send = LRATING small 3 wine -35 110 120 2 1 1
send OK LEAGUE small 3
expect LEAGUES
send $BIG
send $SMALL_READ
send OK LEAGUES 2
expect LEAGUE small
send = LRATING small 1 rapfi 60 90 80 4 6 1
send = LRATING small 2 wine -20 85 85 4 3 1
send = LRATING small 3 bot5 -40 80 90 4 3 0
send OK LEAGUE small 3
eof
EOS
} >"$T/league.srv"
startsrv "$T/league.srv"
$TM new-session -d -s v -x 80 -y 24 \
    "GOMOKU_PASSWORD=s3cret-pass LANG=C.UTF-8 $GOMOKU --insecure --login ann 127.0.0.1:$PORT 2>$T/v.err; printf '\\nEXIT=%s\\n' \$?; sleep 60"
keyline() { $TM capture-pane -p -t "=$1:" | tail -1 | grep -qxF -- "$2"; }
# how many rows of big's table show, and whether rank N's does
nrows() { [ "$(screen v | grep -c -E '^  [0-9]+ +p[0-9]+ ')" -eq "$1" ]; }
ranked() { screen v | grep -q -E "^  $1 +p$1 "; }
not_ranked() { ! ranked "$1"; }
started=$(date +%s)

step "the client logs in" v "Signed in as ann"
step "the lobby names the league's key" v "League: E"
keys v E
step "E: the first league, one of two" v "< big >  (1 of 2)"
check "what it plays" wait_for v "freestyle 15x15  60+0  20 players, 190 rated games"
check "its last event, the next one counted down" sh -c "$TM capture-pane -p -t =v: | grep -q 'Next event in [0-9]*:[0-5][0-9]:[0-5][0-9]; the latest: tournament 7 (Enter)'"
step "the first row: rank, player, Elo, its bar, games, score, draws" v "  1   p1 [BOT]         +380  ±31       19    19    1"
check "a row below the mean" wait_for v "  12  p12 [BOT]        -60   ±42       19    8     1"
check "12 rows fit, then the hint" nrows 12
check "... (Up/Down scroll)" wait_for v "... (Up/Down scroll)"
check "rank 20 not yet shown" not_ranked 20
check "the key line" keyline v "Left/Right league  Up/Down scroll  Enter its event  r refresh  Esc back"
keys v Down Down Down Down Down Down Down Down
step "Down x8: the last row" v "  20  p20 [BOT]        -380  ±50       19    0     1"
check "rank 1 scrolled away" not_ranked 1
check "9 to 20: all the rest fit" nrows 12
keys v Up Up Up Up Up Up Up Up
step "Up x8: the first row again" v "  1   p1 [BOT]         +380  ±31       19    19    1"
keys v Right
step "Right: the other league" v "< small >  (2 of 2)"
check "renju, its event under way" wait_for v "An event is under way: tournament 9 (Enter)"
check "its bars above and below" wait_for v "  1   rapfi [BOT]      +35   +110/-120 2     1.5   1"
check "the bots marked" wait_for v "  3   wine [BOT]       -35   +120/-110 2     0.5   1"
keys v Left
step "Left: big again, refused (460) with the server's words" v "There is no engine league of that name (no league of that name (LEAGUES"
check "the screen says there is no table" wait_for v "No table: the server refused it (the line below says why)."
keys v Right
step "Right: small's table again" v "  1   rapfi [BOT]      +35   +110/-120 2     1.5   1"
check "no refusal on the screen" sh -c "! $TM capture-pane -p -t =v: | grep -q 'No table'"
touch "$T/seen-small"
step "its event over: asked again until the league has read it" v "  2   wine [BOT]       -20   ±85       4     1.5   1"
check "3 players, 6 rated games" wait_for v "renju 15x15  300+5  3 players, 6 rated games"
check "the next event counted down in hours" sh -c "$TM capture-pane -p -t =v: | grep -q 'Next event in [0-9]*:[0-5][0-9]:[0-5][0-9]; the latest: tournament 9 (Enter)'"
keys v Escape
step "Esc: the lobby" v "League: E"
keys v q y
exited "ann quits" v 0
check "the script ran to its end" waitsrv
echo "the whole test took $(($(date +%s) - started))s"
finish
