#!/bin/sh
# The terminal UI in tmux against a scripted TLS server: lobby quick match,
# a typed move, a mouse click, the bot's preview and reason, an undo offer
# (made and accepted) and a draw offer declined, said with who, chat, the
# resign question, a hostile line on the status line, a dropped connection
# resumed on its own (its snapshot's kept chat added once), the winning
# line, help (scrolled on a short terminal), a resize, and the terminal
# restored on quit and on SIGINT and a crash; history with a replay and
# watching a public game.
# Keys go in with send-keys, the screen comes out of capture-pane.
. tests/client/lib.sh
echo "checks: the ncurses client in tmux: a scripted game (keys, mouse, offers, chat, resume, resize), history replay, watching, a bot thinking, login, SIGINT and crash restore the terminal"
command -v tmux >/dev/null || { echo "SKIP: tmux is not installed"; exit 0; }
gencert a
tmux_server test
S=t

screen() { $TM capture-pane -p -t =$S:; }
# wait_for TEXT: polls the screen (up to 20 s, only so that a broken
# client cannot hang the test).
wait_for() {
	i=0
	while ! screen | grep -q -F -- "$1"; do
		i=$((i + 1))
		if [ $i -gt 200 ]; then
			echo "--- screen while waiting for: $1"
			screen
			return 1
		fi
		sleep 0.1
	done
}
keys() { $TM send-keys -t =$S: "$@"; }
# wait_line N TEXT: polls until screen line N holds TEXT (20 s at most)
wait_line() {
	i=0
	while ! screen | sed -n "$1p" | grep -q -F -- "$2"; do
		i=$((i + 1))
		[ $i -gt 200 ] && { screen; return 1; }
		sleep 0.1
	done
}
step() { # step WHAT TEXT: waits for TEXT and reports
	check "$1" wait_for "$2"
}

TOKEN=3kQ9fZ0aLm2Xw8pR7tYc1bN4
cat >"$T/tui.srv" <<EOS
cert $T/a.pem $T/a.key
accept
send * SERVER fake 0.1 1 chat resume
expect HELLO 1
send OK HELLO 1
expect GUEST alice
send OK GUEST alice $TOKEN
expect SEEK freestyle 15 300+5 any casual none
send * START r1 1 alice bob freestyle 15 60+1 none casual 60000 60000
send OK SEEK 1
expect MOVE r1 h8
send * MOVE r1 2 black h8 59000 60000
send OK MOVE r1 2
send * THINK r1 3 bob 7 i9:35,g7:-4
send * MOVE r1 4 white i9 59000 58000 positional
expect MOVE r1 j10
send * MOVE r1 5 black j10 57000 58000
send OK MOVE r1 5
expect OFFER r1 undo
send * OFFER r1 6 1 undo alice
send OK OFFER r1 1
send * OFFEREND r1 7 1 accepted
send * UNDO r1 8 1 57000 58000
send * OFFER r1 9 2 draw bob
expect DECLINE r1 2
send * OFFEREND r1 10 2 declined
send OK DECLINE r1 2
expect SAY r1 good game
send * SAY r1 11 alice good game
send OK SAY r1
send * TELL bob 你好 wide characters take two columns each 你好你好你好你好你好
send \x01\x1b[2J garbage
drop
accept
send * SERVER fake 0.1 1 chat resume
expect HELLO 1
send OK HELLO 1
expect RESUME $TOKEN r1 11
send * PRESENCE r1 12 alice back 0
send = ROOM r1 playing freestyle 15 60+1 none casual alice bob 0 2
send = CLOCK r1 50000 50000 black
send = SEAT r1 black alice here 0
send = SEAT r1 white bob here 0
send = MOVES r1 0 h8,i9
send = SAY r1 alice good game
send = SAY r1 bob well played
send OK RESUME r1 12
send * PRESENCE r1 13 bob gone 60000
expect MOVE r1 k11
send * MOVE r1 14 black k11 49000 50000
send * OVER r1 15 black five h8,i9,j10,k11,l12
send OK MOVE r1 14
expect QUIT
send OK QUIT
close
EOS
startsrv "$T/tui.srv"
$TM new-session -d -s $S -x 80 -y 24 \
    "LANG=C.UTF-8 $GOMOKU --insecure --name alice 127.0.0.1:$PORT 2>$T/tui.err; printf '\\nEXIT=%s\\n' \$?; sleep 60"

step "lobby appears after sign-in" "Signed in as alice"
step "lobby offers a quick match" "Quick match"
keys Enter
step "quick match starts a game" "Game started: alice (black) vs bob (white)"
step "80x24: the board's bottom coordinates fit" "   a b c d e f g h i j k l m n o"
step "clocks are shown" "01:00"
keys h 8 Enter
step "the bot's reason is shown, in words" "bob played i9: a positional move"
check "the typed move is on the board" sh -c "$TM capture-pane -p -t =$S: | grep -q '^ 8 · · · · · · · ● '"
check "the last move is marked" sh -c "$TM capture-pane -p -t =$S: | grep -q '^ 9 · · · · · · · ·\[○\]'"
step "the move list is shown" "1.h8 i9"
# left click on j10: row 2 + (15 - 10) = 7, column 3 + 2 * 9 = 21 (X10 mouse encoding)
keys -H 1b 5b 4d 20 36 28
step "a mouse click played j10" "2.j10"
check "the cursor's point is shown" wait_for "cursor j10"
keys U
step "my undo offer is shown" "* alice offers undo"
step "the accepted undo is in the chat pane, with who" "bob accepted the undo: 1 move"
step "bob's draw offer asks me" "bob offers draw: A accept, X decline"
keys X
step "declining ends the offer, said with who" "alice declined the draw"
keys Tab
step "Tab opens the chat line" "say> _"
keys -l "good game"
keys Enter
step "chat goes out and comes back" "alice: good game"
step "a private message with wide characters is shown" "[bob] 你好 wide"
[ -n "${SHOWWIDE:-}" ] && screen
check "wide characters are wrapped inside the panel" sh -c "$TM capture-pane -p -t =$S: | grep -q '^  *each 你好你好你好你好你好$'"
check "wide characters do not spill onto the input line" sh -c "$TM capture-pane -p -t =$S: | sed -n 22p | grep -q '^cursor [a-o][0-9]* *\$'"
keys R
step "resign asks for confirmation" "Resign this game? (y/n)"
keys n
step "a hostile line is named on the status line, or the drop is" "reconnecting"
check "the screen is not corrupted by the garbage line" sh -c "$TM capture-pane -p -t =$S: | grep -q '^ 8 · · · · · · · ● '"
step "after the drop the client resumes by itself" "Back in room r1"
check "the resumed board is the server's snapshot" sh -c "$TM capture-pane -p -t =$S: | grep -q 'Moves (2):'"
step "the snapshot's kept chat adds the line said while away (chatlog)" "bob: well played"
check "a kept line already shown is not said twice" sh -c "[ \"\$($TM capture-pane -p -t =$S: | grep -c 'alice: good game')\" = 1 ]"
step "an opponent gone away is shown with the claim key and the grace countdown" "bob is away: C claims the game in "
check "the countdown counts down from the grace the server gave" sh -c "$TM capture-pane -p -t =$S: | grep -Eq 'C claims the game in (60|59|58|57|56|55)s'"
check "the away player is marked in the panel" wait_for "bob (away)"
keys k 1 1 Enter
step "a move after the resume" "Game over: alice wins (five)"
keys '?'
step "help shows the keys" "mouse click         play the point clicked"
keys Space
step "any key leaves help" "Moves (3):"
# a terminal with room for the board but not all the help: it scrolls
$TM resize-window -t =$S: -x 80 -y 21
check "at 80x21 the game is still drawn" wait_for "Moves (3):"
keys '?'
step "the help at 21 rows says how to scroll" "Up/Down or j/k scroll the keys"
check "its first lines are shown, its last not yet" sh -c "screen() { $TM capture-pane -p -t =$S:; }; screen | grep -q 'In a game' && ! screen | grep -q 'Tournaments (T)'"
keys NPage
step "PgDn scrolls to the help's last line" "Tournaments (T): c new"
check "its first line scrolled away" sh -c "! $TM capture-pane -p -t =$S: | grep -q 'In a game'"
keys Space
step "another key leaves the scrolled help" "Moves (3):"
$TM resize-window -t =$S: -x 100 -y 30
check "after a resize the key line is on the new last row" wait_line 30 "Tab:chat"
keys C-c
step "quitting asks" "Quit gomoku? (y/n)"
keys y
step "quit ends with status 0" "EXIT=0"
check "the terminal left the alternate screen" [ "$($TM display -p -t =$S: '#{alternate_on}')" = 0 ]
check "the server saw the whole script" waitsrv
$TM kill-session -t =$S:

# SIGINT: the terminal is restored and the client ends by itself.
cat >"$T/int.srv" <<EOS
cert $T/a.pem $T/a.key
accept
send * SERVER fake 0.1 1 chat
expect HELLO 1
send OK HELLO 1
expect GUEST
send OK GUEST guest1 $TOKEN
eof
EOS
# History with a move-by-move replay, watching a public game, a bot game
# with its thinking on the board, then SIGINT: the terminal is restored
# and the client ends by itself.
cat >"$T/lobby.srv" <<EOS
cert $T/a.pem $T/a.key
accept
send * SERVER fake 0.1 1 chat history
expect HELLO 1
send OK HELLO 1
expect GUEST
send OK GUEST guest1 $TOKEN
expect HISTORY
send = GAME 17 freestyle 15 ann ben black five 9 1796000000
send = GAME 16 renju 15 ben ann white resign 30 1795000000
send OK HISTORY 2 2
expect EXPORT 17
send = RECORD rule freestyle
send = RECORD size 15
send = RECORD moves h8 a1 i8 a2 j8 a3 k8 a4 l8
send = RECORD black ann 1500
send OK EXPORT 17 text
expect ROOMS
send = ROOM r7 playing renju 15 600+10 none rated cat dan 2 3
send OK ROOMS 1
expect WATCH r7
send = ROOM r7 playing renju 15 600+10 none rated cat dan 3 8
send = CLOCK r7 500000 400000 black
send = SEAT r7 black cat here 0
send = SEAT r7 white dan here 0
send = MOVES r7 0 h8,a1,i8,a3,j9,a5,j10,a7
send OK WATCH r7 12
expect LEAVE r7
send OK LEAVE r7
expect BOT play 3 freestyle 15 300+5 any none
send * START r9 1 guest1 bot3 freestyle 15 300+5 none casual 300000 300000
send OK BOT r9
expect MOVE r9 h8
send * MOVE r9 2 black h8 300000 300000
send OK MOVE r9 2
send * THINK r9 3 bot3 6 i9:20,g7:5
eof
EOS
startsrv "$T/lobby.srv"
$TM new-session -d -s $S -x 80 -y 24 \
    "sh -c 'echo \$\$ >$T/pid; exec $GOMOKU --insecure --ascii 127.0.0.1:$PORT'; printf '\\nEXIT=%s\\n' \$?; sleep 60"
step "ascii client reaches the lobby" "Signed in as guest1"
for k in 1 2 3 4 5; do keys Down; done
keys Enter
step "history lists finished games" "#17     freestyle 15  ann vs ben  black by five, 9 moves"
keys Enter
step "a game opens in the replay" "Move 0 of 9"
keys Right Right Right
step "Right steps through the replay" "Move 3 of 9"
check "the replayed board has the first three stones (ASCII)" sh -c "$TM capture-pane -p -t =$S: | grep -q '^ 8 \. \. \. \. \. \. \.  *X *\[X\]'"
keys End
step "End shows the final five" "Black made five"
keys Escape
step "Esc goes back to the list" "#16"
keys Escape
step "and again to the lobby" "Quick match"
keys Up Up
step "watch is selected" "Watch a game"
keys Enter
step "public games are listed" "r7     playing  renju     15 600+10   cat vs dan  3 moves  2 watching"
keys Enter
step "watching shows the game" "Moves (8):"
check "a spectator is not offered the playing keys" sh -c "$TM capture-pane -p -t =$S: | tail -1 | grep -q '^P:profile  Tab:chat  ?:help  Q:leave'"
check "the watched clocks come from the snapshot" sh -c "$TM capture-pane -p -t =$S: | grep -q 'dan .*06:40'"
# renju, black to move: j8 would make two open threes, shown as x
check "a renju forbidden point is marked for black" sh -c "$TM capture-pane -p -t =$S: | grep -q '^ 8 \. \. \. \. \. \. \. X X x \.'"
keys Q
step "a spectator leaves without being asked" "Left the room"
# the lobby on a terminal as short as a game allows (80x21): all of it
$TM resize-window -t =$S: -x 80 -y 21
check "at 80x21 the lobby's last setting is shown" wait_for "Bot level"
check "the lobby's server line is shown, its first item on row 2" sh -c "$TM capture-pane -p -t =$S: | grep -q 'Server: ' && $TM capture-pane -p -t =$S: | sed -n 2p | grep -q 'Quick match'"
$TM resize-window -t =$S: -x 80 -y 24
check "at 80x24 the lobby has its blank rows again" wait_line 3 "Quick match"
keys Down Enter
step "a bot game starts from the lobby" "guest1 (black) vs bot3 (white)"
keys h 8 Enter
step "the bot's thinking is shown" "bot3 thinks: depth 6, best i9 (black -0.2)"
check "its best candidate is marked 1 on the board" sh -c "$TM capture-pane -p -t =$S: | grep -q '^ 9 \. \. \. \. \. \. \. \. 1 \.'"
check "its second candidate is marked 2" sh -c "$TM capture-pane -p -t =$S: | grep -q '^ 7 \. \. \. \. \. \. 2 \.'"
kill -INT "$(cat "$T/pid")"
step "SIGINT ends the client" "EXIT=130"
check "after SIGINT the terminal left the alternate screen" [ "$($TM display -p -t =$S: '#{alternate_on}')" = 0 ]
check "the server saw the client go" waitsrv
$TM kill-session -t =$S:

# An account: --login with the password from the environment; ratings
# asked for because the server has accounts. Then a crash (SIGABRT) still
# takes the terminal off the alternate screen.
cat >"$T/login.srv" <<EOS
cert $T/a.pem $T/a.key
accept
send * SERVER fake 0.1 1 chat resume accounts
expect HELLO 1
send OK HELLO 1
expect LOGIN carol s3cr3t!pw
send ERR 413 bad-credentials
expect GUEST
send OK GUEST guest7 $TOKEN
expect SEEK
send * START r5 1 guest7 dan renju 15 600+10 none rated 600000 600000
send OK SEEK 4
expect STATS guest7
send OK STATS 0
expect STATS dan
send = STAT dan renju 1712 45 established 30 12 2
send = STAT dan freestyle 1500 45 established 3 1 0
send OK STATS 2
eof
EOS
startsrv "$T/login.srv"
$TM new-session -d -s $S -x 80 -y 24 \
    "sh -c 'echo \$\$ >$T/pid; LC_ALL=C GOMOKU_PASSWORD=s3cr3t!pw exec $GOMOKU --insecure --mono --login carol 127.0.0.1:$PORT'; printf '\\nEXIT=%s\\n' \$?; sleep 60"
step "a refused login is shown as a sentence, and the client plays as a guest" "Wrong name or password; playing as guest guest7"
keys Enter
step "the opponent's rating is shown (server with accounts)" "dan 1712"
[ -n "${SHOWWIDE:-}" ] && screen
check "a C locale falls back to the ASCII board" sh -c "$TM capture-pane -p -t =$S: | grep -q '^15 \. \. \.'"
kill -ABRT "$(cat "$T/pid")"
step "SIGABRT ends the client" "EXIT=134"
check "after a crash the terminal left the alternate screen" [ "$($TM display -p -t =$S: '#{alternate_on}')" = 0 ]
check "the server saw the client go" waitsrv
finish
