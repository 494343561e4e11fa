#!/bin/sh
# lint_strings.sh [--js] FILE...: names every string literal in FILEs that a
# player could read but that does not come from the catalogs (po/,
# docs/i18n.md), and exits 1 if there is one. xgettext reads the sources
# (comments, concatenated literals): every literal is compared with the
# messages marked TR(key, English) or NTR(...) (--js: the web's markers,
# t(key, English) and N(...); its template literals, which xgettext does not
# list, are read by js_templates.pl with each ${...} as %s; an .html file is
# read as mk/html2js.pl writes it, its data-t texts marked). A literal is
# left alone when it is one of those keys or English texts, the message of
# a JavaScript Error (a developer's: the page never shows one), or when it
# cannot be a sentence:
#   - no word of two letters once printf directives and escapes are gone
#     ("%s: %s", "%02lld:%02lld", the board's "X", "\033[?25h")
#   - one lowercase word, a protocol, option or file word ("takeover",
#     "draw-agreed", "known_hosts", "%s.new", a class "stone %s"), or one
#     in capitals ("GOMOKU_LOCALEDIR", "OK%s %s"), once directives are gone
#   - a path, a word with a slash and no space ("../share/locale")
#   - a protocol form of proto.js ("room:room seq:num text?...") or a
#     language code ("zh_CN")
#   - a line of tests/i18n/strings.allow (exact literals, each with why)
# Chinese characters in a literal are a sentence too.
set -u
here=$(dirname "$0")
lang=C
keywords="--keyword=TR:1c,2 --keyword=NTR:1c,2"
js=0
if [ "${1:-}" = --js ]; then
	lang=JavaScript
	keywords="--keyword=t:1c,2 --keyword=N:1c,2 --keyword=Error:1"
	js=1
	shift
fi
[ $# -gt 0 ] || { echo "usage: lint_strings.sh [--js] FILE..." >&2; exit 2; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lint-strings.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
# an HTML page as JavaScript, line for line, under $tmp/h/ (its own path
# said again in the report)
if [ $js = 1 ]; then
	set -- "$@" END
	while [ "$1" != END ]; do
		f=$1
		shift
		case "$f" in
		*.html)
			mkdir -p "$tmp/h/$(dirname "$f")"
			perl "$here/../../mk/html2js.pl" "$f" > "$tmp/h/$f" || exit 2
			set -- "$@" "$tmp/h/$f"
			;;
		*) set -- "$@" "$f" ;;
		esac
	done
	shift
fi
# xgettext's warnings (non-ASCII literals, \r) are for translators: kept
# aside, shown only if it fails
xg() {
	# shellcheck disable=SC2086
	xgettext --from-code=UTF-8 --language=$lang --no-wrap "$@" 2>> "$tmp/xg.err" ||
		{ cat "$tmp/xg.err" >&2; exit 2; }
}
: > "$tmp/marked.po"
: > "$tmp/all.po"
xg --keyword= $keywords -o "$tmp/marked.po" "$@"
xg -a --keyword=_ -o "$tmp/all.po" "$@"
# "file:line<TAB>literal" for the msgctxt and msgid of each entry of a PO
# file (a string over several lines, "" then "...", joined)
literals() {
	awk '
	function put() { if (f) print loc "\t" s; f = 0 }
	/^#: / { put(); loc = $2; next }
	/^msg(ctxt|id) / { put(); s = $0; sub(/^msg[a-z]* "/, "", s); sub(/"$/, "", s); f = 1; next }
	/^"/ && f { s = s substr($0, 2, length($0) - 2); next }
	/^msgstr/ { put() }
	END { put() }
	' "$1"
}
# the keys and English texts of the marked messages, one a line
literals "$tmp/marked.po" | cut -f 2 > "$tmp/known"
sed -e '/^#/d' -e '/^$/d' "$here/strings.allow" >> "$tmp/known"
literals "$tmp/all.po" > "$tmp/all"
[ $js = 0 ] || perl "$here/js_templates.pl" "$@" >> "$tmp/all" || exit 2
awk -F '\t' -v known="$tmp/known" '
	BEGIN { while ((getline k < known) > 0) ok[k] = 1 }
	{
		s = $2
		if (s in ok) next
		t = s
		gsub(/\\[nrt"\\]/, " ", t)
		gsub(/%[-+ #0]*[0-9*]*(\.[0-9*]+)?(hh|h|ll|l|L|z|j|t)?[diouxXeEfgGcsp%]/, " ", t)
		cjk = t ~ /[\344-\351][\200-\277][\200-\277]/
		if (!cjk && t !~ /[A-Za-z][A-Za-z]/) next
		w = s
		gsub(/\\[nrt"\\]/, " ", w)
		gsub(/%[-+ #0]*[0-9*]*(\.[0-9*]+)?(hh|h|ll|l|L|z|j|t)?[diouxXeEfgGcsp%]/, "", w)
		gsub(/^ +| +$/, "", w)
		if (!cjk && w !~ / / && w !~ /[A-Z]/) next
		if (!cjk && w ~ /^[A-Z][A-Z0-9_-]*$/) next
		if (!cjk && s ~ /\// && s !~ / /) next
		if (!cjk && s ~ /:/ && s ~ /^([a-z]+[?]?(:[a-z]+)?[?]?([.][.][.])?( |$))+$/) next
		if (s ~ /^[a-z][a-z]_[A-Z][A-Z]$/) next
		print "  " $1 ": \"" s "\""
		n++
	}
	END { exit n > 0 }
' "$tmp/all" > "$tmp/found"
rc=$?
if [ $rc -ne 0 ]; then
	echo "literals a player reads, outside the catalogs (mark them TR(key, English), make po):"
	sed "s|$tmp/h/||" "$tmp/found"
fi
exit $rc
