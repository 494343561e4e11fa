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
#     LOAD_ARGS adds to them), its "us per move relayed" for each;
#   redis-server again through the same load tool (`load -R`): G pairs of
#     connections taking turns with SETs, saturated and then paced exactly
#     as the games are, so that the CPU per request and the paced tail have
#     a twin from the same client on the same machine in the same minute;
#   and once more with its append-only file on (`appendfsync no`): each SET
#     written to the file before its reply, as a move is committed before
#     it is relayed, so that both survive a kill -9 and neither waits for
#     the disk (SQLite's WAL at synchronous=NORMAL): the durable twin.
# Then the ratio of the saturated move to the SET, the figure the issue
# targets (at most 2), against both redis figures, and the paced p99 of
# each (the target: under 2 ms, load generator included; the twin
# says what this client and machine allow).
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
for c in redis-server redis-benchmark redis-cli openssl; do
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

# redis-cli on the bench's server
rcli() {
	redis-cli --tls --cacert "$tmp/cert.pem" -h 127.0.0.1 -p "$port" "$@"
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
	"$O/tests/load/load" -R "$port:$rpid" -g "$G" -s "$S" -t "$T" >"$tmp/twin.out" 2>&1 || {
		cat "$tmp/twin.out"
		exit 1
	}
	tsat=$(awk '/saturated.*us per SET answered/ { for (i = 1; i <= NF; i++) if ($i == "us") print $(i - 1) }' "$tmp/twin.out" | head -1)
	trps=$(awk '/saturated.*SETs\/s$/ { print $(NF - 1) }' "$tmp/twin.out" | head -1)
	tp99=$(awk '/paced.*latency/ { for (i = 1; i <= NF; i++) if ($i == "p99") print $(i + 1) }' "$tmp/twin.out" | head -1)
	echo "round $r: redis-server through the load tool: $G pairs: saturated ${trps:-?} SETs/s, CPU ${tsat:-?} us per SET; paced p99 ${tp99:-?} ms"
	rcli CONFIG SET appendfsync no >/dev/null
	rcli CONFIG SET appendonly yes >/dev/null
	"$O/tests/load/load" -R "$port:$rpid" -g "$G" -s "$S" -t "$T" >"$tmp/aof.out" 2>&1 || {
		cat "$tmp/aof.out"
		exit 1
	}
	rcli CONFIG SET appendonly no >/dev/null
	asat=$(awk '/saturated.*us per SET answered/ { for (i = 1; i <= NF; i++) if ($i == "us") print $(i - 1) }' "$tmp/aof.out" | head -1)
	ap99=$(awk '/paced.*latency/ { for (i = 1; i <= NF; i++) if ($i == "p99") print $(i + 1) }' "$tmp/aof.out" | head -1)
	echo "round $r: redis-server with its append-only file: CPU ${asat:-?} us per SET; paced p99 ${ap99:-?} ms"
	ratio=$(awk -v a="${sat:-0}" -v b="$us" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "?" }')
	tratio=$(awk -v a="${sat:-0}" -v b="${tsat:-0}" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "?" }')
	pratio=$(awk -v a="${p99:-0}" -v b="${tp99:-0}" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "?" }')
	aratio=$(awk -v a="${sat:-0}" -v b="${asat:-0}" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "?" }')
	apratio=$(awk -v a="${p99:-0}" -v b="${ap99:-0}" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "?" }')
	echo "round $r: ratio: a relayed move costs ${ratio}x a redis-benchmark SET, ${tratio}x a SET from the same client (target: at most 2), ${aratio}x a durable one; paced p99 ${pratio}x redis-server's, ${apratio}x the durable one's"
	r=$((r + 1))
done
