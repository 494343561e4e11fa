#!/bin/sh
# tests/shared.sh FILE...: the rule of tests/shared.h for shell tests and make
# targets. The shared material is in $SHARED_DIR, or ../shared beside the
# checkout. Exits 0 when every FILE (relative to it) is there; otherwise says
# which is absent and exits 2 (skip what needs it), or 1 (fail) when
# GOMOKU_REQUIRE_SHARED is set (not 0), as .ci/run does. In a test or recipe:
#   sh tests/shared.sh renju/forbidden.tsv || { [ $? -eq 2 ] && exit 0; exit 1; }
dir=${SHARED_DIR:-../shared}
for f in "$@"; do
	[ -e "$dir/$f" ] && continue
	case ${GOMOKU_REQUIRE_SHARED:-0} in
	0) echo "$dir/$f absent: skipped (GOMOKU_REQUIRE_SHARED=1 makes it a failure)"; exit 2 ;;
	*) echo "$dir/$f absent: a failure, as GOMOKU_REQUIRE_SHARED is set"; exit 1 ;;
	esac
done
exit 0
