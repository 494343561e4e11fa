#!/bin/sh
# The daemon's include and call cycles (issue 40), printed one a line, and
# a failure when one passes through the cluster (daemon/cluster/): the
# core reaches other nodes only through world.h, so no cycle may hold a
# cluster file. A file is named without its extension (daemon/room is
# room.c with room.h). Includes: what each daemon file includes of the
# daemon, as written. Calls: file A calls file B when A's object leaves a
# symbol undefined that B's object defines (nm), in the build $O; calls
# through a function table (world.h, sink.h, transport.h) are no edges,
# which is the point of those tables. Prints the files of each cycle.
set -u
cd "$(dirname "$0")/.."
O=${O:-build/default-cc}
bad=0

# daemon/x.c and daemon/x.h are one node, daemon/x
inc_edges() {
	for f in $(git ls-files 'daemon/*.c' 'daemon/*.h'); do
		from=${f%.*}
		sed -n 's|^#include "\(daemon/[a-z_/]*\)\.h".*|\1|p' "$f" | sed "s|^|$from |"
	done
}

call_edges() {
	for f in $(git ls-files 'daemon/*.c'); do
		o=$O/${f%.c}.o
		[ -f "$o" ] || continue # not in this build (off.c, or the cluster's)
		n=${o#"$O"/}
		n=${n%.o}
		nm --defined-only -g "$o" 2>/dev/null | awk -v n="$n" 'NF == 3 && $2 ~ /[TDBR]/ { print "D", n, $3 }'
		nm -u "$o" 2>/dev/null | awk -v n="$n" '{ print "U", n, $NF }'
	done | awk '$1 == "D" { def[$3] = $2; next } { use[++k] = $2 " " $3 }
		END { for (i = 1; i <= k; i++) { split(use[i], a, " ");
			if (a[2] in def && def[a[2]] != a[1]) print a[1], def[a[2]] } }' | sort -u
}

report() { # what, cycles on stdin
	what=$1
	n=0
	while IFS= read -r line; do
		n=$((n + 1))
		echo "$what cycle $n ($(echo "$line" | wc -w) files): $line"
		case " $line" in
		*" daemon/cluster/"*)
			echo "  FAIL: this cycle passes through the cluster"
			bad=1
			;;
		esac
	done
	[ "$n" -gt 0 ] || echo "$what: no cycle"
}

inc_edges | awk -f mk/scc.awk > "${TMPDIR:-/tmp}/cycles.inc.$$"
report include < "${TMPDIR:-/tmp}/cycles.inc.$$"
if [ -f "$O/daemon/server.o" ]; then
	call_edges | awk -f mk/scc.awk > "${TMPDIR:-/tmp}/cycles.call.$$"
	report call < "${TMPDIR:-/tmp}/cycles.call.$$"
else
	echo "call: FAIL: no daemon objects under $O (build first)"
	bad=1
fi
rm -f "${TMPDIR:-/tmp}/cycles.inc.$$" "${TMPDIR:-/tmp}/cycles.call.$$"
[ $bad -eq 0 ] && echo "cycles: none passes through the cluster"
exit $bad
