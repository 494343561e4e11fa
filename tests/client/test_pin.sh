#!/bin/sh
# Certificate checks of the client against a real TLS peer (fakesrv):
# a self-signed server is pinned on first use with a loud warning, the same
# key is accepted silently, a changed key is refused loudly and the pin file
# is left alone; --ca verifies against a given CA; --insecure skips checks.
. tests/client/lib.sh
echo "checks: TOFU pinning (first use, same key, changed key refused), --ca, --insecure"
gencert a
gencert b

session() { # one handshake-and-quit session in a fakesrv script
	cat <<EOS
accept
send * SERVER fake 0.1 1 chat
expect HELLO 1
send OK HELLO 1
expect QUIT
send OK QUIT
close
EOS
}
{
	echo "cert $T/a.pem $T/a.key"
	session
	session
	echo "cert $T/b.pem $T/b.key"
	echo "accept"
	echo "trysend * SERVER fake 0.1 1 chat"
	echo "eof"
	echo "cert $T/a.pem $T/a.key"
	session
} >"$T/pin.srv"
startsrv "$T/pin.srv"
KH=$XDG_CONFIG_HOME/gomoku/known_hosts

$GOMOKU --script 127.0.0.1:$PORT </dev/null >"$T/out1" 2>"$T/err1"
check "first use connects (exit 0)" [ $? -eq 0 ]
check "first use warns loudly" grep -q "WARNING: first connection to 127.0.0.1:$PORT: its certificate is not signed by a CA you trust" "$T/err1"
check "first use pins the key in \$XDG_CONFIG_HOME/gomoku/known_hosts" grep -q "^127.0.0.1:$PORT sha256:[0-9a-f]\{64\}\$" "$KH"
check "the session ran (server lines printed)" grep -q "^OK QUIT" "$T/out1"
cp "$KH" "$T/kh.before"

$GOMOKU --script 127.0.0.1:$PORT </dev/null >"$T/out2" 2>"$T/err2"
check "same key connects (exit 0)" [ $? -eq 0 ]
check "same key gives no warning" [ ! -s "$T/err2" ]

$GOMOKU --script 127.0.0.1:$PORT </dev/null >"$T/out3" 2>"$T/err3"
rc=$?
check "changed key is refused (exit 3, got $rc)" [ $rc -eq 3 ]
check "changed key gets a loud warning" grep -q "HAS CHANGED" "$T/err3"
check "changed key: no server line was read" [ ! -s "$T/out3" ]
check "changed key leaves the pin file alone" cmp -s "$KH" "$T/kh.before"

$GOMOKU --script --ca "$T/a.pem" 127.0.0.1:$PORT </dev/null >"$T/out4" 2>"$T/err4"
check "--ca with the right CA connects" [ $? -eq 0 ]
check "--ca with the right CA gives no pin warning" [ ! -s "$T/err4" ]
check "server script completed" waitsrv

# --ca with the wrong CA, and --insecure, on a fresh server
{
	echo "cert $T/a.pem $T/a.key"
	echo "accept"
	echo "trysend * SERVER fake 0.1 1 chat"
	echo "eof"
	session
} >"$T/ca.srv"
startsrv "$T/ca.srv"
$GOMOKU --script --ca "$T/b.pem" 127.0.0.1:$PORT </dev/null >"$T/out5" 2>"$T/err5"
rc=$?
check "--ca with a CA that did not sign the server is refused (exit 3, got $rc)" [ $rc -eq 3 ]
check "--ca refusal says why" grep -q "not trusted by --ca" "$T/err5"
rm -f "$KH"
$GOMOKU --script --insecure 127.0.0.1:$PORT </dev/null >"$T/out6" 2>"$T/err6"
check "--insecure connects" [ $? -eq 0 ]
check "--insecure writes no pin" [ ! -e "$KH" ]
check "server script completed" waitsrv
finish
