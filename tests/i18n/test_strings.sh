#!/bin/sh
# No literal a player reads outside the catalogs (issue 42): the lint
# (tests/i18n/lint_strings.sh) passes on the terminal client's sources and
# on the web board's (client/web/*.js, index.html), and fails, naming it,
# on a sentence planted in a copy of one.
set -u
cd "$(dirname "$0")/../.."
lint=tests/i18n/lint_strings.sh
fails=0
ok() { echo "ok   - $1"; }
bad() { echo "FAIL - $1"; fails=$((fails + 1)); }

# Files of client/ not linted yet (none now: client/model.c's status and
# chat lines came to the catalogs last).
PENDING=""
C_SRCS=$(for f in client/*.c; do
	case " $PENDING " in *" $f "*) ;; *) echo "$f" ;; esac
done)
# The web board: its scripts (t(key, English) and N) and index.html
# (data-t). WEB_LINT=0 leaves it out.
WEB_LINT=${WEB_LINT:-1}
WEB_SRCS="client/web/*.js client/web/index.html"

# shellcheck disable=SC2086
if out=$(sh $lint $C_SRCS 2>&1); then
	ok "no literal for people outside the catalogs in $(echo $C_SRCS | wc -w) files of client/"
else
	echo "$out"
	bad "the terminal client has literals for people outside the catalogs"
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/test-strings.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
cp client/tui.c "$tmp/tui.c"
printf '%s\n' 'static void planted(void) { mvaddstr(0, 0, "Game over, you " "lost"); }' >> "$tmp/tui.c"
printf '%s\n' 'static const char *planted_zh = "你输了";' >> "$tmp/tui.c"
out=$(sh $lint "$tmp/tui.c" 2>&1)
rc=$?
if [ $rc -eq 1 ] && echo "$out" | grep -qF '"Game over, you lost"'; then
	ok "a planted English sentence fails the lint, named"
else
	echo "$out"
	bad "the lint missed a planted English sentence (exit $rc)"
fi
if echo "$out" | grep -qF '"你输了"'; then
	ok "a planted Chinese sentence fails the lint, named"
else
	bad "the lint missed a planted Chinese sentence"
fi
if [ "$(echo "$out" | grep -c '^  ')" -eq 2 ]; then
	ok "nothing else in the copy is named"
else
	echo "$out"
	bad "the lint named more than the planted literals"
fi

if [ "$WEB_LINT" = 1 ]; then
	# shellcheck disable=SC2086
	if out=$(sh $lint --js $WEB_SRCS 2>&1); then
		ok "no literal for people outside the catalogs in client/web ($(echo $WEB_SRCS | wc -w) files)"
	else
		echo "$out"
		bad "the web board has literals for people outside the catalogs"
	fi
	# planted: a string, a template literal, Chinese, and a text of the page
	mkdir -p "$tmp/web/client/web"
	cp client/web/app.js client/web/index.html "$tmp/web/client/web/"
	cat >> "$tmp/web/client/web/app.js" <<'JS'
function planted(who) {
  toast('Your opponent resigned');
  status(`${who} left the game`);
  return '对手认输了';
}
JS
	sed -i 's|<h2 data-t="web.who">Who is online</h2>|&<p>Welcome to the server</p>|' "$tmp/web/client/web/index.html"
	out=$(cd "$tmp/web" && sh "$OLDPWD/$lint" --js client/web/app.js client/web/index.html 2>&1)
	rc=$?
	for want in '"Your opponent resigned"' '"%s left the game"' '"对手认输了"' 'client/web/index.html:[0-9]*: "Welcome to the server"'; do
		if [ $rc -eq 1 ] && echo "$out" | grep -q "$want"; then
			ok "a planted web literal fails the lint, named: $want"
		else
			echo "$out"
			bad "the lint missed a planted web literal: $want (exit $rc)"
		fi
	done
	if [ "$(echo "$out" | grep -c '^  ')" -eq 4 ]; then
		ok "nothing else in the web copies is named"
	else
		echo "$out"
		bad "the lint named more than the planted web literals"
	fi
else
	echo "skip - client/web: WEB_LINT=0"
fi
[ $fails -eq 0 ]
