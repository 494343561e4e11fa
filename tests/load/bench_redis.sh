#!/bin/sh
# make bench-redis (issue 45): what a relayed move costs gomokud's CPU
# beside what a SET costs redis-server's, both over TLS on loopback, in one
# run on one machine, so that the ratio holds however busy the machine is.
# Figures only, never pass/fail. Rounds alternate the two (ROUNDS, 2 by
# default) to show the spread:
#   redis: Debian's redis-server with TLS only (a P-256 certificate made
#     here, no persistence), its CPU (utime + stime from /proc) over
#     `redis-benchmark --tls -c C -n N -t set` (300 connections and 200,000
#     SETs by default: the handshakes count, as the load tool's do), divided
#     by N;
#   gomokud: tests/load's saturated and paced games (G games, S seconds;
#     LOAD_ARGS adds to them), its "us per move relayed" for each.
# Then the ratio of the saturated move to the SET, the figure the issue
# targets (at most 2).
set -eu
here=$(dirname "$0")
O=${O:-build/default-cc}
BINDIR=${BINDIR:-bin}
ROUNDS=${ROUNDS:-2}
C=${REDIS_CONNS:-300}
N=${REDIS_SETS:-200000}
G=${LOAD_GAMES:-300}
S=${LOAD_SECONDS:-5}
T=${LOAD_THINK_MS:-60}
for c in redis-server redis-benchmark openssl; do
	command -v $c >/dev/null || { echo "bench-redis: no $c (make deps installs redis-server and openssl)"; exit 1; }
done
tmp=$(mktemp -d /tmp/gomokud-redisbench.XXXXXX)
rpid=
stop() {
	if [ -n "$rpid" ]; then
		kill "$rpid" 2>/dev/null || true
		wait "$rpid" 2>/dev/null || true
	fi
	rm -rf "$tmp"
}
trap stop EXIT
trap 'exit 1' INT TERM

openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 \
	-subj /CN=127.0.0.1 -keyout "$tmp/key.pem" -out "$tmp/cert.pem" 2>/dev/null

# CPU ticks (utime + stime) of a process so far.
ticks() {
	awk '{ sub(/^.*\) /, ""); print $12 + $13 }' "/proc/$1/stat"
}
hz=$(getconf CLK_TCK)

# A free port is found by trying: redis-server exits when it cannot bind.
start_redis() {
	tries=0
	while :; do
		port=$((20000 + ($$ + tries * 7919) % 30000))
		redis-server --port 0 --tls-port "$port" --bind 127.0.0.1 \
			--tls-cert-file "$tmp/cert.pem" --tls-key-file "$tmp/key.pem" \
			--tls-ca-cert-file "$tmp/cert.pem" --tls-auth-clients no \
			--save '' --appendonly no --dir "$tmp" --maxclients 1000 \
			--logfile "$tmp/redis.log" &
		rpid=$!
		i=0
		while [ $i -lt 50 ]; do
			if grep -q "Ready to accept connections" "$tmp/redis.log" 2>/dev/null; then
				return 0
			fi
			kill -0 "$rpid" 2>/dev/null || break
			sleep 0.1
			i=$((i + 1))
		done
		kill "$rpid" 2>/dev/null || true
		wait "$rpid" 2>/dev/null || true
		rpid=
		: >"$tmp/redis.log"
		tries=$((tries + 1))
		[ $tries -lt 5 ] || { echo "bench-redis: redis-server did not start"; exit 1; }
	done
}

start_redis
echo "redis-server $(redis-server --version | sed 's/.*v=\([^ ]*\).*/\1/') with TLS on 127.0.0.1:$port (pid $rpid)"

r=1
set_us=
while [ $r -le "$ROUNDS" ]; do
	before=$(ticks "$rpid")
	redis-benchmark --tls --cacert "$tmp/cert.pem" -h 127.0.0.1 -p "$port" \
		-c "$C" -n "$N" -t set -q >"$tmp/rb.out" 2>&1
	after=$(ticks "$rpid")
	rps=$(tr '\r' '\n' <"$tmp/rb.out" | awk '/SET:/ { print $2 }' | tail -1)
	us=$(awk -v t=$((after - before)) -v hz="$hz" -v n="$N" 'BEGIN { printf "%.1f", t * 1e6 / hz / n }')
	echo "round $r: redis-server: $N SETs over $C TLS connections: ${rps:-?} SETs/s, CPU ${us} us per SET"
	# shellcheck disable=SC2086
	"$O/tests/load/load" -b "$BINDIR/gomokud" -n 0 -g "$G" -s "$S" -t "$T" ${LOAD_ARGS:-} >"$tmp/load.out" 2>&1 || {
		cat "$tmp/load.out"
		exit 1
	}
	sat=$(awk '/saturated.*us per move relayed/ { for (i = 1; i <= NF; i++) if ($i == "us") print $(i - 1) }' "$tmp/load.out" | head -1)
	paced=$(awk '/paced.*us per move relayed/ { for (i = 1; i <= NF; i++) if ($i == "us") print $(i - 1) }' "$tmp/load.out" | head -1)
	mps=$(awk '/saturated.*moves\/s$/ { print $(NF - 1) }' "$tmp/load.out" | head -1)
	p99=$(awk '/paced.*latency/ { for (i = 1; i <= NF; i++) if ($i == "p99") print $(i + 1) }' "$tmp/load.out" | head -1)
	echo "round $r: gomokud: $G games: saturated ${mps:-?} moves/s, CPU ${sat:-?} us per move relayed; paced ${paced:-?} us per move, p99 ${p99:-?} ms"
	ratio=$(awk -v a="${sat:-0}" -v b="$us" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "?" }')
	echo "round $r: ratio: a relayed move costs ${ratio}x a SET (target: at most 2)"
	r=$((r + 1))
done
