#!/bin/sh
# lint_strings.sh [--js] FILE...: names every string literal in FILEs that a
# player could read but that does not come from the catalogs (po/,
# docs/i18n.md), and exits 1 if there is one. xgettext reads the sources
# (comments, concatenated literals): every literal is compared with the
# messages marked TR(key, English) or NTR(...) (--js: the web's marker,
# t(key, English)). A literal is left alone when it is one of those keys or
# English texts, or when it cannot be a sentence:
#   - no word of two letters once printf directives and escapes are gone
#     ("%s: %s", "%02lld:%02lld", the board's "X", "\033[?25h")
#   - one lowercase word, a protocol, option or file word ("takeover",
#     "draw-agreed", "known_hosts", "%s.new"), or one in capitals
#     ("GOMOKU_LOCALEDIR")
#   - a path, a word with a slash and no space ("../share/locale")
#   - a line of tests/i18n/strings.allow (exact literals, each with why)
# Chinese characters in a literal are a sentence too.
set -u
here=$(dirname "$0")
lang=C
keywords="--keyword=TR:1c,2 --keyword=NTR:1c,2"
if [ "${1:-}" = --js ]; then
	lang=JavaScript
	keywords="--keyword=t:1c,2"
	shift
fi
[ $# -gt 0 ] || { echo "usage: lint_strings.sh [--js] FILE..." >&2; exit 2; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lint-strings.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
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
		if (!cjk && s !~ / / && s !~ /[A-Z]/) next
		if (!cjk && s ~ /^[A-Z][A-Z0-9_-]*$/) next
		if (!cjk && s ~ /\// && s !~ / /) next
		print "  " $1 ": \"" s "\""
		n++
	}
	END { exit n > 0 }
' "$tmp/all" > "$tmp/found"
rc=$?
if [ $rc -ne 0 ]; then
	echo "literals a player reads, outside the catalogs (mark them TR(key, English), make po):"
	cat "$tmp/found"
fi
exit $rc
