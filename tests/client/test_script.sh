#!/bin/sh
# Script mode against a scripted TLS server: the client says HELLO and
# GUEST itself, sends each stdin request in canonical form and waits for its
# reply, waits for events with "!wait", refuses invalid requests locally,
# and ends with QUIT. A hostile server (garbage, unknown events, an overlong
# line, a connection dropped mid-line) gets a clear message and a clean
# exit, never a crash.
. tests/client/lib.sh
echo "checks: script mode requests/replies/!wait; hostile server lines; overlong line; drop mid-line"
gencert a

cat >"$T/play.srv" <<EOS
cert $T/a.pem $T/a.key
accept
send * SERVER fake 0.1 1 chat resume
expect HELLO 1 gomoku/
send OK HELLO 1
expect GUEST alice
send OK GUEST alice 3kQ9fZ0aLm2Xw8pR7tYc1bN4
expect #s1 SEEK freestyle 15 60+1 black casual none
send OK #s1 SEEK 1
send * START r1 1 alice bob freestyle 15 60+1 none casual 60000 60000
expect MOVE r1 h8
send * MOVE r1 2 black h8 59800 60000
send OK MOVE r1 2
expect SAY r1 hello there
send * FROB r1 3 something new
raw \x01\xff\xfegarbage\x7f\n
send * SAY r1 3 alice hello there
send OK SAY r1
expect QUIT
send OK QUIT
close
EOS
startsrv "$T/play.srv"
printf '#s1 seek freestyle 15 60+1 black casual none\n!wait START\nMOVE r1 z99\nmove   r1 h8\nSAY r1 hello there\n' |
    $GOMOKU --insecure --name alice 127.0.0.1:$PORT >"$T/out1" 2>"$T/err1"
rc=$?
check "a scripted session ends cleanly (exit 0, got $rc)" [ $rc -eq 0 ]
check "server's script was followed (canonical requests, in order)" waitsrv
check "server lines are printed in order" sh -c "grep -an . '$T/out1' | grep -q '^8:\* SAY r1 3 alice hello there'"
check "unreadable lines are not echoed to stdout" sh -c "! grep -q -e FROB -e garbage '$T/out1'"
check "the START event was seen before MOVE was sent" grep -q "^\* START r1 1" "$T/out1"
check "an invalid request is not sent and is reported" grep -q "not sent, not a valid request.*MOVE r1 z99" "$T/err1"
check "garbage from the server is reported, not fatal" grep -q "unreadable line from the server" "$T/err1"
check "an unknown event is reported, not fatal" grep -q "unreadable line from the server (unknown" "$T/err1"

# An overlong line: the client disconnects with a clear message.
cat >"$T/long.srv" <<EOS
cert $T/a.pem $T/a.key
accept
send * SERVER fake 0.1 1 chat
expect HELLO 1
send OK HELLO 1
long 5000
eof
EOS
startsrv "$T/long.srv"
# stdin stays open (a FIFO we hold) so the client does not QUIT first
mkfifo "$T/in"
$GOMOKU --insecure 127.0.0.1:$PORT <"$T/in" >"$T/out" 2>"$T/err" &
cpid=$!
exec 3>"$T/in"
wait $cpid
rc=$?
exec 3>&-
check "an overlong line ends the session with status 1 (got $rc)" [ $rc -eq 1 ]
check "the overlong line is named" grep -q "line over 512 bytes" "$T/err"
check "server saw the client close" waitsrv

# A connection dropped in the middle of a line.
cat >"$T/drop.srv" <<EOS
cert $T/a.pem $T/a.key
accept
send * SERVER fake 0.1 1 chat
expect HELLO 1
send OK HELLO 1
raw * MOVE r1 2 bla
drop
EOS
startsrv "$T/drop.srv"
$GOMOKU --insecure 127.0.0.1:$PORT <"$T/in" >"$T/out" 2>"$T/err" &
cpid=$!
exec 3>"$T/in"
wait $cpid
rc=$?
exec 3>&-
check "a drop mid-line ends with status 1 (got $rc)" [ $rc -eq 1 ]
check "the drop mid-line is named" grep -q "lost in the middle of a line" "$T/err"
check "server script completed" waitsrv

# A server that completes TLS and then says nothing: a clear error.
cat >"$T/mute.srv" <<EOS
cert $T/a.pem $T/a.key
accept
eof
EOS
startsrv "$T/mute.srv"
$GOMOKU --insecure --timeout 1 127.0.0.1:$PORT </dev/null >"$T/out" 2>"$T/err"
rc=$?
check "a mute server ends the session with status 1 (got $rc)" [ $rc -eq 1 ]
check "the mute server is named" grep -q "sent nothing after the TLS handshake" "$T/err"
check "server saw the client go" waitsrv

# Nobody listening: a clear error, not a hang.
$GOMOKU --insecure 127.0.0.1:$PORT </dev/null >"$T/out" 2>"$T/err"
rc=$?
check "connection refused ends with status 1 (got $rc)" [ $rc -eq 1 ]
check "connection refused is named" grep -q "cannot connect to 127.0.0.1:$PORT" "$T/err"
finish
