#!/bin/sh
# Runs every test program given on the command line, each with its own output,
# and closes with one summary line: "tests: N passed, N failed".
# A test program passes when it exits 0. Set TEST_FILTER to a substring to run
# only the matching programs, TEST_SKIP to substrings (space-separated) of
# programs to leave out, saying so. A script that runs several programs
# itself names them on a line "# runs: name ..."; it runs when one of them
# matches, and narrows itself to those (tests/pg/test_pg.sh). NOT_BUILT
# names tests this build does not have (make WITH_CLUSTER=0): each is said,
# and the summary counts them.
set -u
pass=0
fail=0
failed=""
for t in "$@"; do
	case "$t" in
	*"${TEST_FILTER:-}"*) ;;
	*.sh)
		inner=$(sed -n 's/^# runs: //p' "$t")
		case "$inner" in *"$TEST_FILTER"*) ;; *) continue ;; esac
		;;
	*) continue ;;
	esac
	skip=""
	for k in ${TEST_SKIP:-}; do
		case "$t" in *"$k"*) skip=$k ;; esac
	done
	if [ -n "$skip" ]; then
		echo "=== skip $t (TEST_SKIP $skip)"
		continue
	fi
	echo "=== $t"
	start=$(date +%s)
	case "$t" in /*) cmd=$t ;; *) cmd=./$t ;; esac
	if "$cmd"; then
		pass=$((pass + 1))
		echo "=== ok   $t ($(( $(date +%s) - start ))s)"
	else
		fail=$((fail + 1))
		failed="$failed $t"
		echo "=== FAIL $t ($(( $(date +%s) - start ))s)"
	fi
done
[ -z "$failed" ] || echo "failed:$failed"
nb=0
for t in ${NOT_BUILT:-}; do
	echo "=== not built $t (WITH_CLUSTER=0)"
	nb=$((nb + 1))
done
if [ "$nb" -gt 0 ]; then
	echo "tests: $pass passed, $fail failed, $nb not built"
else
	echo "tests: $pass passed, $fail failed"
fi
[ "$fail" -eq 0 ]
