#!/bin/sh
# The core reaches other nodes only through world.h (issue 40), checked on
# the objects of the build $O, not on names: no core object (daemon/*.o
# but the composition root, main.o and server.o) leaves undefined a symbol
# that an object of daemon/cluster/ defines, so a renamed function cannot
# pass. A build without the cluster (WITH_CLUSTER=0) has no cluster
# objects: there gomokud must link no hiredis and refuse a configured
# cluster at start with a clear message.
set -u
cd "$(dirname "$0")/.."
O=${O:-build/default-cc}
BINDIR=${BINDIR:-bin}
bad=0
root="daemon/main.c daemon/server.c"

core_objs=""
for f in $(git ls-files 'daemon/*.c'); do
	case " $root " in *" $f "*) continue ;; esac
	case "$f" in daemon/cluster/*) continue ;; esac
	o=$O/${f%.c}.o
	if [ ! -f "$o" ]; then
		echo "world: FAIL: $o missing (build first)"
		exit 1
	fi
	core_objs="$core_objs $o"
done
cluster_objs=""
for f in $(git ls-files 'daemon/cluster/*.c'); do
	[ "$f" = daemon/cluster/off.c ] && continue
	[ -f "$O/${f%.c}.o" ] && cluster_objs="$cluster_objs $O/${f%.c}.o"
done

if [ -n "$cluster_objs" ]; then
	defs=$(nm --defined-only -g $cluster_objs | awk 'NF == 3 { print $3 }' | sort -u)
	ndefs=$(echo "$defs" | grep -c .)
	hits=$(for o in $core_objs; do
		nm -u "$o" | awk -v o="$o" '{ print $NF, o }'
	done | sort | join - "$(printf '%s\n' "$defs" > "${TMPDIR:-/tmp}/world.$$"; echo "${TMPDIR:-/tmp}/world.$$")")
	rm -f "${TMPDIR:-/tmp}/world.$$"
	if [ "$ndefs" -lt 20 ]; then
		echo "world: FAIL: only $ndefs symbols defined by the cluster's objects: not the cluster?"
		bad=1
	elif [ -n "$hits" ]; then
		echo "world: FAIL: core objects use symbols of the cluster's:"
		echo "$hits" | sed 's/^/  /'
		bad=1
	else
		echo "world: $(echo $core_objs | wc -w) core objects use none of the $ndefs symbols the cluster's $(echo $cluster_objs | wc -w) objects define"
	fi
	# and the core links without them: every symbol the core and the root
	# need from the daemon is defined by the core, the root or off.o's door
else
	bin=$BINDIR/gomokud
	if nm -u "$bin" 2>/dev/null | grep -qi redis || ldd "$bin" 2>/dev/null | grep -q hiredis; then
		echo "world: FAIL: $bin (WITH_CLUSTER=0) links hiredis"
		bad=1
	fi
	tmp=$(mktemp -d /tmp/gomokud-test.XXXXXX)
	printf 'listen 127.0.0.1:0\ncluster redis://127.0.0.1:6379\nnode-name a\nadvertise 127.0.0.1:1\n' > "$tmp/conf"
	"$bin" --config "$tmp/conf" --state-dir "$tmp/state" > "$tmp/out" 2>&1 &
	pid=$!
	i=0
	while kill -0 "$pid" 2>/dev/null && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	if kill -0 "$pid" 2>/dev/null; then
		kill "$pid"
		echo "world: FAIL: a gomokud without the cluster started with one configured"
		bad=1
	elif ! grep -q "built without cluster support" "$tmp/out"; then
		echo "world: FAIL: no clear message for a configured cluster:"
		sed 's/^/  /' "$tmp/out"
		bad=1
	else
		echo "world: WITH_CLUSTER=0: no hiredis, and a configured cluster is refused: $(grep -o 'built without.*' "$tmp/out" | head -1)"
	fi
	rm -rf "$tmp"
fi
exit $bad
