#!/bin/sh
# The opening rules in the terminal client (issue 46), in tmux against a
# scripted TLS server that lists `openings`: the lobby's opening setting
# goes into SEEK; a RIF opening's stages, each with its instruction on the
# status line, the allowed area shaded on the board (a background of its
# own in colour, underlined in monochrome), the renju opening's name in the
# title once its stones are down, the offered fifth moves drawn as 5 and
# one chosen; then Soosorv-8's declare and offer (marked points, sent
# together by S) and Taraguchi-10's branch; and the name in Chinese.
# Keys go in with send-keys; each request is checked by the server's
# script (expect), the screen by capture-pane (-e for the attributes).
. tests/client/lib.sh
echo "checks: the opening rules in tmux: lobby opening, RIF stages with instructions, shaded area, offered fifth moves, the renju opening named; declare, offer, branch; Chinese names"
command -v tmux >/dev/null || { echo "FAIL - tmux is not installed (make deps)"; exit 1; }
gencert a
tmux_server opening
S=o

screen() { $TM capture-pane -p -t "=$1:"; }
# the screen with its attributes as escape sequences (SGR)
screen_e() { $TM capture-pane -p -e -t "=$1:"; }
# say TEXT: a chat line (the script waits for it before going on)
say() {
	keys $S Tab
	keys $S -l "$1"
	keys $S Enter
}
# row of board point ROW (15x15): the board's line on the screen, from 1
board_line() { echo $((3 + 15 - $1)); }

TOKEN=3kQ9fZ0aLm2Xw8pR7tYc1bN4
cat >"$T/o.srv" <<EOS
cert $T/a.pem $T/a.key
accept
send * SERVER fake 0.2 1 chat resume swap2 openings
expect HELLO 1
send OK HELLO 1
expect GUEST alice
send OK GUEST alice $TOKEN
expect SEEK renju 15 300+5 any casual rif
send * START r1 1 alice bob renju 15 300+5 rif casual 300000 300000
send OK SEEK 1
send * OPENING r1 2 place alice black centre 0 - -
expect OPENING place r1 h8
send * MOVE r1 3 black h8 300000 300000
send * OPENING r1 4 place alice black in3 0 - -
send OK OPENING r1 4
expect OPENING place r1 h9
send * MOVE r1 5 white h9 300000 300000
send * OPENING r1 6 place alice black in5 0 - -
send OK OPENING r1 6
expect OPENING place r1 i9
send * MOVE r1 7 black i9 300000 300000
send * OPENING r1 8 swap bob white - 0 d4 -
send OK OPENING r1 8
# a chat line from the client paces the script where the test looks
expect SAY r1 next
send * SAY r1 9 alice next
send OK SAY r1
# bob takes black: alice holds white and places the 4th anywhere
send * OPENING r1 10 place alice white any 0 d4 -
expect OPENING place r1 j8
send * MOVE r1 11 white j8 300000 300000
send * OPENING r1 12 offer bob black - 2 d4 -
send OK OPENING r1 12
expect SAY r1 go
send * SAY r1 13 alice go
send OK SAY r1
send * OPENING r1 14 choose alice white offers 2 d4 g7,j10
expect OPENING choose r1 j10
send * MOVE r1 15 black j10 300000 300000
send * COLOURS r1 16 bob alice
send OK OPENING r1 16
expect MOVE r1 a1
send * MOVE r1 17 white a1 300000 300000
send OK MOVE r1 17
send * OVER r1 18 white resign -
expect SAY r1 again
send * SAY r1 19 alice again
send OK SAY r1
send * START r1 20 alice bob renju 15 300+5 soosorv8 casual 300000 300000
send * OPENING r1 21 declare alice white - 8 - -
expect OPENING declare r1 3
send * OPENING r1 22 offer alice black - 3 - -
send OK OPENING r1 22
expect OPENING offer r1 a1,b2,c3
send * OPENING r1 23 choose bob white offers 3 - a1,b2,c3
send OK OPENING r1 23
expect SAY r1 more
send * SAY r1 24 alice more
send OK SAY r1
send * OVER r1 25 white resign -
send * START r1 26 alice bob renju 15 300+5 taraguchi10 casual 300000 300000
send * OPENING r1 27 branch alice black - 0 d4 -
expect OPENING branch r1 ten
send * OPENING r1 28 offer alice black - 10 d4 -
send OK OPENING r1 28
expect QUIT
send OK QUIT
close
EOS
startsrv "$T/o.srv"
$TM new-session -d -s $S -x 80 -y 24 \
    "LANG=C.UTF-8 $GOMOKU --insecure --name alice 127.0.0.1:$PORT 2>$T/o.err; printf '\\nEXIT=%s\\n' \$?; sleep 60"

step "alice is in the lobby" $S "Signed in as alice"
# Rule is row 8 of the lobby (Left: freestyle to renju), Opening row 13
for k in 1 2 3 4 5 6 7 8; do keys $S Down; done
keys $S Left
step "the rule is renju" $S "< renju >"
for k in 1 2 3 4 5; do keys $S Down; done
keys $S Right
step "with openings listed, renju 15x15 offers RIF" $S "< RIF >"
keys $S Down Down Enter
step "the game starts" $S "* Game started: alice (black) vs bob"
step "the first stage says what to do" $S "RIF: place the next stone (black) on the centre point, then Enter"
step "the panel names the stage" $S "RIF: you to place a stone"
step "the keys line is the opening's" $S "S:send O/T:branch"
# the centre point alone has the area's background (green: SGR 42)
check "the centre point is shaded" sh -c "$TM capture-pane -p -e -t =$S: | sed -n $(board_line 8)p | grep -q '42m'"
check "no other row is shaded" sh -c "[ \$($TM capture-pane -p -e -t =$S: | sed -n '3,17p' | grep -c '42m') = 1 ]"
keys $S h 8 Enter
step "the black stone is on h8" $S "1.h8"
step "the second stone goes in the central 3x3" $S "(white) in the central 3x3"
check "three rows of the 3x3 are shaded" sh -c "[ \$($TM capture-pane -p -e -t =$S: | sed -n '3,17p' | grep -c '42m') = 3 ]"
keys $S h 9 Enter
step "the third stone goes in the central 5x5" $S "in the central 5x5"
check "five rows of the 5x5 are shaded" sh -c "[ \$($TM capture-pane -p -e -t =$S: | sed -n '3,17p' | grep -c '42m') = 5 ]"
keys $S i 9 Enter
step "bob's swap is said with the renju opening's name" $S "RIF: bob (holding white now) chooses a colour [D4 Kagetsu 花月]"
check "the title names the opening" sh -c "$TM capture-pane -p -t =$S: | sed -n 1p | grep -q 'RIF  D4 Kagetsu'"
check "nothing is shaded while bob chooses" sh -c "! $TM capture-pane -p -e -t =$S: | sed -n '3,17p' | grep -q '42m'"
say next
step "the 4th goes anywhere, and white is alice's now" $S "RIF: place the next stone (white) anywhere"
keys $S j 8 Enter
step "bob offers two fifth moves" $S "RIF: bob offers 2 fifth moves"
say go
step "alice chooses among the offered fifth moves" $S "choose one of the 2 offered fifth moves (marked 5)"
check "g7 is drawn as an offered 5" sh -c "$TM capture-pane -p -t =$S: | sed -n $(board_line 7)p | grep -q '^ 7 · · · · · · 5 '"
check "j10 is drawn as an offered 5" sh -c "$TM capture-pane -p -t =$S: | sed -n $(board_line 10)p | grep -q '^10 · · · · · · · · · 5 '"
keys $S j 1 0 Enter
step "after COLOURS the game goes on" $S "Colours: bob black, alice white"
step "alice moves as white" $S "Your move (white)"
keys $S a 1 Enter
step "the game ends" $S "Game over"
say again
step "Soosorv-8: alice declares" $S "how many fifth moves will black offer (1 to 8)?"
keys $S 3
step "the number typed is shown on the input line" $S "offers: 3_  (1 to 8; Enter sends, Esc clears)"
keys $S Enter
step "alice offers three" $S "offer 3 fifth moves; Enter marks or unmarks a point"
keys $S a 1 Enter b 2 Enter c 3 Enter
step "the panel counts the marks" $S "3 of 3 marked: S sends, Esc clears"
check "the marks are drawn as 5" sh -c "$TM capture-pane -p -t =$S: | sed -n $(board_line 1)p | grep -q '^ 1 5 '"
keys $S S
step "bob chooses" $S "bob chooses one of the 3 offered fifth moves"
say more
step "Taraguchi-10's branch asks O or T" $S "O for one (you place the 5th in the central 9x9), T for ten"
keys $S T
step "the ten offers follow" $S "offer 10 fifth moves"
keys $S Q
step "leaving asks" $S "Leave this game? (y/n)"
keys $S n C-c
step "quitting asks" $S "Quit gomoku? (y/n)"
keys $S y
step "quit ends with status 0" $S "EXIT=0"
check "the server saw the whole script" waitsrv
$TM kill-session -t "=$S:"

# Monochrome: the area is underlined (SGR 4), not coloured
cat >"$T/m.srv" <<EOS
cert $T/a.pem $T/a.key
accept
send * SERVER fake 0.2 1 chat openings
expect HELLO 1
send OK HELLO 1
expect GUEST
send OK GUEST carol $TOKEN
send * START r2 1 carol dan freestyle 15 none pro casual - -
send * MOVE r2 2 black h8 - -
send * MOVE r2 3 white h9 - -
send * OPENING r2 4 place carol black out5 0 - -
eof
EOS
startsrv "$T/m.srv"
$TM new-session -d -s m -x 80 -y 24 \
    "LANG=C.UTF-8 $GOMOKU --insecure --mono --name carol 127.0.0.1:$PORT 2>$T/m.err; printf '\\nEXIT=%s\\n' \$?; sleep 60"
step "pro: black's second outside the central 5x5" m "pro: place the next stone (black) outside the central 5x5"
check "monochrome: the area is underlined" sh -c "$TM capture-pane -p -e -t =m: | sed -n $(board_line 15)p | grep -q '4m'"
check "monochrome: no colour is used" sh -c "! $TM capture-pane -p -e -t =m: | sed -n '3,17p' | grep -q '42m'"
check "monochrome: every row has points outside the central 5x5 underlined" sh -c "[ \$($TM capture-pane -p -e -t =m: | sed -n '3,17p' | grep -c '4m') = 15 ]"
keys m C-c y
step "the monochrome client quits" m "EXIT=0"
$TM kill-session -t "=m:"
kill "$SRVPID" 2>/dev/null
SRVPID=

# Chinese: the renju opening's name from the catalog
cat >"$T/z.srv" <<EOS
cert $T/a.pem $T/a.key
accept
send * SERVER fake 0.2 1 chat openings
expect HELLO 1
send OK HELLO 1
expect GUEST
send OK GUEST li $TOKEN
send * START r3 1 li wang renju 15 none rif casual - -
send * MOVE r3 2 black h8 - -
send * MOVE r3 3 white h9 - -
send * MOVE r3 4 black i9 - -
send * OPENING r3 5 swap wang white - 0 d4 -
eof
EOS
if locale -a 2>/dev/null | grep -qix 'zh_CN\.utf-\?8'; then
	startsrv "$T/z.srv"
	$TM new-session -d -s z -x 80 -y 24 \
	    "unset LC_ALL LANGUAGE; LANG=zh_CN.UTF-8 $GOMOKU --insecure --name li 127.0.0.1:$PORT 2>$T/z.err; printf '\\nEXIT=%s\\n' \$?; sleep 60"
	step "Chinese: the stage and the opening's name" z "RIF 规则：wang（现执白棋）选色【D4 花月】"
	check "Chinese: the title names 花月" sh -c "$TM capture-pane -p -t =z: | sed -n 1p | grep -q 'D4 花月'"
else
	check "the zh_CN.UTF-8 locale is there (make deps generates it)" false
fi
finish
