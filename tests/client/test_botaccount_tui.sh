#!/bin/sh
# Issue 49 in the terminal client, on a real gomokud with rate-bot-accounts
# half and a hosted engine (our brain, as the admin would name Rapfi):
# an account made a bot with gomokuctl's bot token, which gomoku-bot sends
# itself (BOTUPGRADE, from its config's bot-token); gomoku-bot runs
# bin/pbrain-gomoku; a person in the terminal client challenges it to a
# rated game by the lobby's keys (c, the name, the settings below) and
# plays it to its end by keys; the bot's seat is marked [BOT], the game
# ends with a result, and the person's rating moves by half of the bot's
# (both were 1500 with the same deviation, so a whole change would be the
# same size), as the daemon's STATS says too. gomoku-bot is stopped by its
# pid, its brain gone with it. Then the lobby's B: bots' challenges refused
# (the bot's challenge declined unseen), and taken again (shown, declined
# by X); the bot level cycled past 10 to the hosted engine's name, a game
# against it started, its seat marked, resigned. gomoku-bot started
# again does not send its used token.
. tests/client/lib.sh
echo "checks: gomoku-bot (BOTUPGRADE from its config) with our brain plays a whole rated game against a terminal player (challenged by keys): [BOT] seat, result, the person's change half the bot's, as STATS says; gomoku-bot stopped, no brain left; B refuses and takes bots' challenges; the bot level past 10 is the hosted engine; gomoku-bot started again does not resend its used token"
[ -x "$GOMOKUD" ] || { echo "SKIP: $GOMOKUD is not built"; exit 0; }
command -v tmux >/dev/null || { echo "SKIP: tmux is not installed"; exit 0; }
BOT=$BINDIR/gomoku-bot
CTL=$BINDIR/gomokuctl
PBRAIN=$BINDIR/pbrain-gomoku
for b in "$BOT" "$CTL" "$PBRAIN"; do
	[ -x "$b" ] || { echo "FAIL - $b is not built"; exit 1; }
done
tmux_server botacct
BOTPID=
trap '[ -n "$BOTPID" ] && kill "$BOTPID" 2>/dev/null; cleanup' EXIT INT TERM

# the brains' memory (MiB): none in a sanitizer's build (O=build/san-...),
# whose brain maps terabytes of shadow memory at its start and would die
# of any limit before its first line
case $O in
*/san-*) MEM=0 ;;
*) MEM=512 ;;
esac
printf 'rate-bot-accounts half\nengine ours %s/pbrain-gomoku turn-ms=200 memory=%s\nbot-threads 1\n' \
    "$(cd "$BINDIR" && pwd)" "$MEM" >"$T/gomokud.conf"
gomokud_start --config "$T/gomokud.conf"
SRV=127.0.0.1:$DPORT
CA=$T/state/cert.pem
run() { timeout 30 "$GOMOKU" --ca "$CA" "$@"; }

# the bot's account, and its bot token from the admin
printf 'REGISTER robo robo-s3cret\n' | run "$SRV" >"$T/reg.out" 2>&1
check "the bot's account is registered" grep -q '^OK REGISTER robo' "$T/reg.out"
TOKEN=$("$CTL" --state-dir "$T/state" bot token robo | grep -E "^[0-9a-f]{32}$")
check "gomokuctl issues a bot token" [ ${#TOKEN} -eq 32 ]
cat >"$T/bot.conf" <<EOF
server $SRV
ca $CA
name robo
password robo-s3cret
bot-token $TOKEN
state-file $T/bot.token
brain $PBRAIN
brain-memory $MEM
turn-ms 200
rules freestyle
sizes 15
EOF
"$BOT" -c "$T/bot.conf" 2>"$T/bot.log" &
BOTPID=$!
botlog() { # botlog TEXT: waits (up to 30 s) for TEXT in gomoku-bot's log
	b_i=0
	while ! grep -q -F -- "$1" "$T/bot.log"; do
		b_i=$((b_i + 1))
		[ $b_i -gt 300 ] && { echo "--- bot log"; cat "$T/bot.log"; return 1; }
		sleep 0.1
	done
}
check "gomoku-bot sends the config's token: robo is a bot account" botlog "robo is a bot account from now"
check "the token is not in its log" sh -c "! grep -q '$TOKEN' '$T/bot.log'"
[ "$failures" -eq 0 ] || finish # no bot: nothing below can pass

# the person: registered in the terminal client
$TM new-session -d -s a -x 80 -y 24 \
    "GOMOKU_PASSWORD=ann-s3cret LANG=C.UTF-8 $GOMOKU --ca $CA --register ann $SRV 2>$T/a.err; printf '\\nEXIT=%s\\n' \$?; sleep 60"
step "ann signs in" a "Signed in as ann"
# black (row 11) and rated (row 12) by the lobby's keys, then back to row 0
for k in 1 2 3 4 5 6 7 8 9 10 11; do keys a Down; done
keys a Right
step "ann's colour is black" a "< black >"
keys a Down Right
step "ann's games are rated" a "< rated >"
for k in 1 2 3 4 5 6 7 8 9 10 11 12; do keys a Up; done
keys a c
step "c asks whom to challenge" a "challenge whom (with the settings below)> "
keys a -l robo
keys a Enter
step "gomoku-bot accepts: the rated game starts" a "Game started: ann (black) vs robo (white)"
step "the header says rated" a "rated"
step "the bot's seat is marked [BOT]" a "robo [BOT]"
check "ann's own seat is not" sh -c "! $TM capture-pane -p -t =a: | grep -q 'ann \[BOT\]'"
BRAIN=$(ps -o pid= --ppid "$BOTPID" | tr -d ' ' | head -1)
check "gomoku-bot runs a brain for the game" [ -n "$BRAIN" ]

# ann plays poorly, along the board's edges, away from the bot's stones;
# after each move of hers the bot's answer comes (or the end)
over() { screen a | grep -q "Game over:"; }
n=0
played=0
for mv in a1 c1 e1 g1 i1 k1 m1 o1 a3 c3 e3 g3 i3 k3 m3 o3 a15 c15 e15 g15 i15 k15 m15 o15; do
	j=0
	while ! over && ! screen a | grep -q "Moves ($n):"; do
		j=$((j + 1))
		[ $j -gt 300 ] && break
		sleep 0.1
	done
	over && break
	# a point the bot took is skipped (its stone is on it)
	screen a | grep -Eq "[ .]$mv( |\$)" && continue
	keys a "$mv" Enter
	n=$((n + 2))
	played=$((played + 1))
done
step "the game ends with the bot's five" a "Game over: robo wins (five)"
echo "     (ann played $played moves)"
step "the chat says ann's rating change" a "* ann's rating: 1500 -> "
step "and robo's" a "* robo's rating: 1500 -> "
A=$(screen a | sed -n "s/.*\* ann's rating: 1500 -> \([0-9]*\) (\([-+][0-9]*\)).*/\2/p" | head -1)
R=$(screen a | sed -n "s/.*\* robo's rating: 1500 -> \([0-9]*\) (\([-+][0-9]*\)).*/\2/p" | head -1)
ANEW=$(screen a | sed -n "s/.*\* ann's rating: 1500 -> \([0-9]*\).*/\1/p" | head -1)
echo "     (ann ${A:-?}, robo ${R:-?})"
check "ann lost rating, robo gained" sh -c "[ '${A:-0}' -lt 0 ] && [ '${R:-0}' -gt 0 ]"
# halved: |ann's| is half of robo's, give or take the rounding of each
check "ann's change is half of the bot's (rate-bot-accounts half)" \
    sh -c "d=\$(( 2 * (0 - ${A:-0}) - ${R:-0} )); [ \$d -ge -2 ] && [ \$d -le 2 ]"
printf 'STATS ann\n' | run "$SRV" >"$T/stats.out" 2>&1
check "the daemon's STATS has ann's rating as the screen said" \
    grep -q "^= STAT ann freestyle ${ANEW:-x} " "$T/stats.out"
check "the panel shows ann's change" sh -c "$TM capture-pane -p -t =a: | grep -q 'ann ~*$ANEW (${A:-x})'"

# gomoku-bot stopped by its pid: exit 0, its brain gone
kill "$BOTPID"
wait "$BOTPID"
rc=$?
BOTPID=
check "gomoku-bot stops on SIGTERM with 0" [ $rc -eq 0 ]
check "its brain is gone with it" sh -c "! kill -0 ${BRAIN:-0} 2>/dev/null"

# B in the lobby: bots' challenges refused, then taken again
keys a Q
step "ann is in the lobby" a "Quick match"
keys a B
step "B refuses bots' challenges" a "Challenges from bots are refused now"
printf 'LOGIN robo robo-s3cret\nCHALLENGE ann freestyle 15 300+5 any casual none\n!wait CHALLENGEEND\n' |
    run "$SRV" >"$T/ch1.out" 2>&1
check "the bot's challenge is declined at once" grep -q '^\* CHALLENGEEND [0-9]* declined' "$T/ch1.out"
check "ann never saw it" sh -c "! $TM capture-pane -p -t =a: | grep -q 'robo challenges you'"
keys a B
step "B again takes them" a "Challenges from bots reach you now"
printf 'LOGIN robo robo-s3cret\nCHALLENGE ann freestyle 15 300+5 any casual none\n!wait CHALLENGEEND\n' |
    run "$SRV" >"$T/ch2.out" 2>&1 &
CH=$!
step "now the bot's challenge reaches ann" a "robo challenges you"
keys a X
wait $CH
check "ann's X declined it" grep -q '^\* CHALLENGEEND [0-9]* declined' "$T/ch2.out"

# the bot level: 1 to 10, then the hosted engine's name (row 14)
for k in 1 2 3 4 5 6 7 8 9 10 11 12 13 14; do keys a Down; done
for k in 1 2 3 4 5 6 7; do keys a Right; done
step "the level goes to 10" a "< 10 >"
keys a Right
step "past 10: the hosted engine's name" a "< ours >"
keys a Right
step "and round to 1" a "< 1 >"
keys a Left
step "back to the engine" a "< ours >"
for k in 1 2 3 4 5 6 7 8 9 10; do keys a Up; done
keys a Enter
step "a game against the hosted engine starts" a "Game started: ann (black) vs bot-ours (white)"
step "its seat is marked [BOT]" a "bot-ours [BOT]"
keys a R
wait_for a "(y/n)" && keys a y
step "ann resigns it" a "Game over: bot-ours wins (resign)"

# gomoku-bot started again with the same config: the account is a bot
# already, so the used token is not sent (it would be a 413, a failed login)
: >"$T/bot.log"
"$BOT" -c "$T/bot.conf" 2>"$T/bot.log" &
BOTPID=$!
check "started again, gomoku-bot sees the account is a bot already" botlog "robo is a bot account already: bot-token not sent"
check "no bad bot token in the daemon's log" sh -c "! grep -q 'a bad bot token' '$T/d.log'"
kill "$BOTPID"
wait "$BOTPID"
rc=$?
BOTPID=
check "and stops on SIGTERM with 0" [ $rc -eq 0 ]
finish
