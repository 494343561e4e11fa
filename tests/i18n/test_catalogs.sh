#!/bin/sh
# The message catalogs (issue 42, docs/i18n.md): a key missing anywhere
# fails. Each catalog of po/LINGUAS compiles (msgfmt --check: the printf
# directives match the English); the template holds exactly the messages
# the sources mark; every catalog translates every key of the template;
# and the daemon serves each catalog as JSON beside the web board, with
# every key.
set -u
cd "$(dirname "$0")/../.."
O=${O:-build/default-cc}
BINDIR=${BINDIR:-bin}
PO2JSON=$O/mk/po2json
fails=0
ok() { echo "ok   - $1"; }
bad() { echo "FAIL - $1"; fails=$((fails + 1)); }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/test-catalogs.XXXXXX")
DPID=
trap '[ -n "$DPID" ] && kill "$DPID" 2>/dev/null; rm -rf "$tmp"' EXIT INT TERM
for t in msgfmt msgcmp xgettext curl node; do
	command -v $t > /dev/null || { echo "FAIL - no $t (make deps)"; exit 1; }
done

langs=$(sed 's/#.*//' po/LINGUAS)
for l in $langs; do
	if [ -f "po/$l.po" ]; then
		ok "po/LINGUAS names $l, and po/$l.po is there"
	else
		bad "po/LINGUAS names $l, but there is no po/$l.po"
	fi
done
for f in po/*.po; do
	l=$(basename "$f" .po)
	echo " $langs " | tr '\n' ' ' | grep -q " $l " || bad "$f is not named in po/LINGUAS"
	if msgfmt --check -o /dev/null "$f" 2> "$tmp/fmt"; then
		ok "$f compiles, its directives matching the English (msgfmt --check)"
	else
		cat "$tmp/fmt"
		bad "$f does not pass msgfmt --check"
	fi
done

# the template against what the sources mark now: same keys, same English
make --no-print-directory -s -C . XGETTEXT_OUT="$tmp/now.pot" po-extract > /dev/null 2>&1 ||
	{ echo "FAIL - make po-extract"; exit 1; }
if msgcmp --use-untranslated po/gomoku.pot "$tmp/now.pot" 2> "$tmp/cmp1" &&
    msgcmp --use-untranslated "$tmp/now.pot" po/gomoku.pot 2> "$tmp/cmp2"; then
	ok "po/gomoku.pot holds exactly the messages client/*.c and client/web mark"
else
	cat "$tmp/cmp1" "$tmp/cmp2"
	bad "po/gomoku.pot is not what the sources mark: run make po, then translate"
fi

# one English a key: a key both clients use, written with two Englishes,
# would be two messages, and the JSON catalog would keep one of them
dups=$(sed -n 's/^msgctxt //p' po/gomoku.pot | sort | uniq -d)
if [ -z "$dups" ]; then
	ok "every key of the template has one English"
else
	bad "keys with more than one English (the C and web sources differ): $dups"
fi

# every key in every catalog, translated, not fuzzy, with the template's English
# shellcheck disable=SC2086
if $PO2JSON check po/gomoku.pot $(for l in $langs; do echo "po/$l.po"; done) > "$tmp/check" 2>&1; then
	sed 's/^/  /' "$tmp/check"
	ok "every catalog translates every key of the template"
else
	cat "$tmp/check"
	bad "a catalog misses keys (above)"
fi

# the protocol's words all have their messages (client/i18n.c's tables)
for code in $(sed -n 's/^| \([0-9][0-9][0-9]\) | `[a-z-]*` |.*/\1/p' proto/PROTOCOL.md); do
	grep -q "^msgctxt \"err\\.$code\"" po/gomoku.pot || bad "error code $code has no message (err.$code)"
done
for r in five resign time forbidden draw-agreed board-full abandoned aborted; do
	grep -q "^msgctxt \"reason\\.$r\"" po/gomoku.pot || bad "the reason $r has no message"
done
ok "every error code of PROTOCOL.md and every game-end reason has a message"

# served: GET the catalogs beside the web board from a running daemon
GOMOKUD=$BINDIR/gomokud
"$GOMOKUD" --listen 127.0.0.1:0 --state-dir "$tmp/state" --log-level info > "$tmp/d.log" 2>&1 &
DPID=$!
. tests/gomokud.sh
port=$(gomokud_port "$tmp/d.log")
[ -n "$port" ] || { cat "$tmp/d.log"; echo "FAIL - gomokud did not start"; exit 1; }
base=https://127.0.0.1:$port
prefix=$(curl -sk "$base/" | sed -n 's|.*"\(/s/[0-9a-f]*/\)[a-z]*\.js".*|\1|p' | head -1)
[ -n "$prefix" ] || bad "index.html names no /s/<hash>/ script"
sed -n 's/^msgctxt "\(.*\)"$/\1/p' po/gomoku.pot > "$tmp/keys"
for l in $langs; do
	code=$(curl -sk -o "$tmp/$l.json" -w '%{http_code} %{content_type}' "$base${prefix}i18n/$l.json")
	if node -e '
		const fs = require("fs");
		const [file, keysFile, lang] = process.argv.slice(1);
		const cat = JSON.parse(fs.readFileSync(file, "utf8"));
		const keys = fs.readFileSync(keysFile, "utf8").split("\n").filter(Boolean);
		const missing = keys.filter((k) => typeof cat[k] !== "string" || !cat[k]);
		if (missing.length) { console.log(lang + " lacks: " + missing.join(" ")); process.exit(1); }
		if (lang === "zh_CN" && cat["reason.resign"] !== "认输") { console.log("reason.resign: " + cat["reason.resign"]); process.exit(1); }
		' "$tmp/$l.json" "$tmp/keys" "$l" && [ "$code" = "200 application/json" ]; then
		ok "GET ${prefix}i18n/$l.json: valid JSON with all $(wc -l < "$tmp/keys") keys ($code)"
	else
		bad "GET ${prefix}i18n/$l.json: $code, not JSON with every key"
	fi
done
curl -sk -o "$tmp/langs.json" "$base${prefix}i18n/languages.json"
if node -e '
	const l = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
	const want = process.argv[2].split(/\s+/).filter(Boolean);
	if (want.some((c) => !l[c]) || Object.keys(l).length !== want.length) process.exit(1);
	' "$tmp/langs.json" "$langs"; then
	ok "GET ${prefix}i18n/languages.json names each language of po/LINGUAS by its own name"
else
	bad "i18n/languages.json does not list po/LINGUAS"
fi
[ $fails -eq 0 ]
