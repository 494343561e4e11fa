#!/bin/sh
# gomoku(1) and `gomoku --help` agree: every option the program lists is
# documented in the man page, and groff has nothing to warn about.
. tests/client/lib.sh
echo "checks: every --option in gomoku --help is in gomoku(1); groff -ww is silent"
$GOMOKU --help >"$T/help" 2>&1
check "--help exits 0" [ $? -eq 0 ]
for o in $(grep -o -- '--[a-z-]*' "$T/help" | sort -u); do
	# the man page writes \-\-name
	m=$(printf '%s' "$o" | sed 's/-/\\\\-/g')
	check "$o is documented" grep -q -- "$m" client/gomoku.1
done
if command -v groff >/dev/null; then
	w=$(groff -man -Tutf8 -ww -z client/gomoku.1 2>&1)
	check "groff -ww has no warnings" [ -z "$w" ]
else
	echo "SKIP: groff is not installed"
fi
$GOMOKU --bogus >/dev/null 2>&1
check "an unknown option is a usage error (2)" [ $? -eq 2 ]
$GOMOKU --insecure --ca x localhost >/dev/null 2>&1
check "--insecure with --ca is refused (2)" [ $? -eq 2 ]
finish
