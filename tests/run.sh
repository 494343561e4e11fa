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
#
# The background lane: TEST_BACKGROUND names substrings (space-separated, as
# TEST_SKIP) of programs that mostly wait (a clock, sleeps, fsyncs, tmux
# polling) and so can share the machine with the others. Those start first,
# each in the background with its output (stdout and stderr) to a file of
# its own ("=== background NAME" says so); the others then run one after
# another as always. Once they are done, run.sh waits for each background
# program in turn and prints its output whole, then its "=== ok" or
# "=== FAIL" line with its own run time; it counts in the summary, and a
# failing one fails the run, as any other. TEST_FILTER and TEST_SKIP apply
# to them as to the rest. On SIGINT/SIGTERM run.sh stops the background
# programs it started, by pid. Programs put there must not collide with the
# others: their daemons take ephemeral ports and temporary directories of
# their own (tests/daemon/tclient.h, tests/pg/pg.sh, tests/client/lib.sh).
#
# A deadline: each program, in either lane, is stopped after TEST_TIMEOUT
# seconds (default 1200; the longest, the PostgreSQL suite on a loaded
# machine, took 595) with its whole process group, what it started too,
# and fails saying so: a hang costs one program, not the run. Their stdin
# is /dev/null (the group is not the terminal's).
set -u
TEST_TIMEOUT=${TEST_TIMEOUT:-1200}
case "$TEST_TIMEOUT" in '' | *[!0-9]*) echo "run.sh: TEST_TIMEOUT must be seconds" >&2; exit 2 ;; esac
# deadline CMD: CMD under timeout(1), which gives it a process group of its
# own and signals the group: TERM at the deadline (or when timeout itself
# is signalled), KILL 15 s later
deadline() {
	timeout --kill-after=15 "$TEST_TIMEOUT" "$1" </dev/null
}
# overdue CMD STATUS: says so when STATUS is timeout(1)'s for a deadline
overdue() {
	case "$2" in 124 | 137) echo "=== (run.sh: $1 stopped after $TEST_TIMEOUT s, TEST_TIMEOUT: a hang?)" ;; esac
}
pass=0
fail=0
failed=""
bgdir=""
bgpids=""
bgtests=""
stop_bg() {
	for p in $bgpids; do
		kill "$p" 2>/dev/null
	done
	for p in $bgpids; do
		wait "$p" 2>/dev/null
	done
	[ -z "$bgdir" ] || rm -rf "$bgdir"
}
trap 'stop_bg; exit 1' INT TERM
trap '[ -z "$bgdir" ] || rm -rf "$bgdir"' EXIT

# selected NAME: 0 when TEST_FILTER selects the program NAME
selected() {
	case "$1" in
	*"${TEST_FILTER:-}"*) ;;
	*.sh)
		inner=$(sed -n 's/^# runs: //p' "$1")
		case "$inner" in *"$TEST_FILTER"*) ;; *) return 1 ;; esac
		;;
	*) return 1 ;;
	esac
}
# matches NAME WORDS: prints the first of WORDS that is a substring of NAME
matches() {
	m=""
	for k in $2; do
		case "$1" in *"$k"*) m=$k ;; esac
	done
	echo "$m"
}
# bg_run NUMBER CMD: runs CMD (under its deadline, as deadline does), its
# output to $bgdir/NUMBER.out, then writes "status seconds" to
# $bgdir/NUMBER.rc; a TERM or INT stops CMD by timeout's pid
bg_run() {
	s=$(date +%s)
	timeout --kill-after=15 "$TEST_TIMEOUT" "$2" >"$bgdir/$1.out" 2>&1 </dev/null &
	c=$!
	trap 'kill "$c" 2>/dev/null' INT TERM
	wait "$c"
	rc=$?
	# a trapped signal ends the first wait early: the program's own end
	while kill -0 "$c" 2>/dev/null; do
		wait "$c"
		rc=$?
	done
	overdue "$2" "$rc" >>"$bgdir/$1.out"
	echo "$rc $(($(date +%s) - s))" >"$bgdir/$1.rc"
}
result() { # NAME STATUS SECONDS
	if [ "$2" -eq 0 ]; then
		pass=$((pass + 1))
		echo "=== ok   $1 (${3}s)"
	else
		fail=$((fail + 1))
		failed="$failed $1"
		echo "=== FAIL $1 (${3}s)"
	fi
}

# the background lane first
n=0
if [ -n "${TEST_BACKGROUND:-}" ]; then
	for t in "$@"; do
		selected "$t" || continue
		[ -z "$(matches "$t" "${TEST_SKIP:-}")" ] || continue
		[ -n "$(matches "$t" "$TEST_BACKGROUND")" ] || continue
		[ -n "$bgdir" ] || bgdir=$(mktemp -d /tmp/gomoku-run.XXXXXX) || exit 1
		n=$((n + 1))
		case "$t" in /*) cmd=$t ;; *) cmd=./$t ;; esac
		echo "=== background $t (output once the others are done)"
		bg_run "$n" "$cmd" &
		bgpids="$bgpids $!"
		bgtests="$bgtests $t"
	done
fi

for t in "$@"; do
	selected "$t" || continue
	skip=$(matches "$t" "${TEST_SKIP:-}")
	if [ -n "$skip" ]; then
		echo "=== skip $t (TEST_SKIP $skip)"
		continue
	fi
	[ -z "$(matches "$t" "${TEST_BACKGROUND:-}")" ] || continue
	echo "=== $t"
	start=$(date +%s)
	case "$t" in /*) cmd=$t ;; *) cmd=./$t ;; esac
	deadline "$cmd"
	rc=$?
	overdue "$t" $rc
	result "$t" $rc $(($(date +%s) - start))
done

# then the background lane's output, each whole, in the order they started
n=0
for t in $bgtests; do
	n=$((n + 1))
	set -- $bgpids
	shift $((n - 1))
	wait "$1"
	echo "=== $t (in the background)"
	cat "$bgdir/$n.out"
	if read -r rc secs <"$bgdir/$n.rc"; then
		result "$t" "$rc" "$secs"
	else
		echo "(run.sh: no exit status from the background run)"
		result "$t" 1 0
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
