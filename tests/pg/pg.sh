#!/bin/sh
# A PostgreSQL server of the tests' own, in a temporary directory, as the
# unprivileged postgres user, listening on 127.0.0.1 only:
#   pg.sh start DIR     initdb (once) and start; prints the port
#   pg.sh stop DIR      stop it by its pid (fast shutdown), waiting for it
#   pg.sh createdb DIR NAME   a database NAME, if there is none yet
#   pg.sh pause DIR / resume DIR   SIGSTOP / SIGCONT its backends (by pid,
#                       the children of its postmaster): queries hang
#                       unanswered, connections stay up
# DIR holds data/, log, pid and port. Binaries: $PG_BIN, else Debian's.
# Prepared transactions are on (a few): test_batch holds rows with them, a
# lock that no session holds and so outlives a fast shutdown.
set -eu
PG_BIN=${PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)}
cmd=${1:-}
dir=${2:-}
[ -n "$cmd" ] && [ -n "$dir" ] || { echo "usage: pg.sh start|stop|createdb DIR [NAME]" >&2; exit 2; }
if [ -z "$PG_BIN" ] || [ ! -x "$PG_BIN/postgres" ]; then
	echo "pg.sh: no PostgreSQL server binaries (make deps installs Debian's postgresql)" >&2
	exit 1
fi
# tests run as root; the server refuses root, so it runs as postgres
priv=""
[ "$(id -u)" -ne 0 ] || priv="setpriv --reuid=postgres --regid=postgres --init-groups --"
as_pg() {
	if [ "$(id -u)" -eq 0 ]; then
		setpriv --reuid=postgres --regid=postgres --init-groups -- "$@"
	else
		"$@"
	fi
}

case "$cmd" in
start)
	mkdir -p "$dir"
	[ "$(id -u)" -ne 0 ] || chown postgres: "$dir"
	if [ ! -d "$dir/data" ]; then
		as_pg "$PG_BIN/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 \
		    --no-instructions >"$dir/initdb.log" 2>&1 ||
		    { cat "$dir/initdb.log" >&2; exit 1; }
	fi
	tries=0
	while :; do
		port=$(cat "$dir/port" 2>/dev/null || echo $((20000 + ($$ + tries * 7919) % 30000)))
		# a plain command, not the function: a backgrounded function runs in
		# a subshell that keeps the caller's $(...) pipe open
		$priv "$PG_BIN/postgres" -D "$dir/data" -p "$port" -c listen_addresses=127.0.0.1 \
		    -c unix_socket_directories="$dir" -c max_connections=200 \
		    -c max_prepared_transactions=10 \
		    </dev/null >>"$dir/log" 2>&1 &
		echo $! >"$dir/pid"
		n=0
		while [ $n -lt 100 ]; do
			# asked on its own socket directory: a server of another
			# test on the same port (ours then fails to bind and
			# exits) is not taken for ours
			if "$PG_BIN/pg_isready" -q -h "$dir" -p "$port"; then
				echo "$port" >"$dir/port"
				echo "$port"
				exit 0
			fi
			kill -0 "$(cat "$dir/pid")" 2>/dev/null || break
			sleep 0.1
			n=$((n + 1))
		done
		kill "$(cat "$dir/pid")" 2>/dev/null || true
		tries=$((tries + 1))
		# a port of our own is kept across restarts; a taken one is not
		[ ! -f "$dir/port" ] && [ $tries -lt 5 ] || { tail -5 "$dir/log" >&2; exit 1; }
	done
	;;
stop)
	pid=$(cat "$dir/pid" 2>/dev/null || true)
	[ -n "$pid" ] || exit 0
	# backends a failed test left paused could not shut down
	for p in $(ps -o pid= --ppid "$pid"); do
		kill -CONT "$p" 2>/dev/null || true
	done
	kill -INT "$pid" 2>/dev/null || exit 0
	# its shutdown checkpoint may take seconds on a busy disk (10 s seen);
	# a postmaster killed before it ends leaves its lock to the next start
	n=0
	while kill -0 "$pid" 2>/dev/null && [ $n -lt 300 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	kill -0 "$pid" 2>/dev/null && kill -KILL "$pid"
	rm -f "$dir/pid"
	;;
pause | resume)
	sig=STOP
	[ "$cmd" = pause ] || sig=CONT
	# a backend that ends between ps and kill (a connection closing) needs
	# no signal: only a live one failing to take it is an error
	for p in $(ps -o pid= --ppid "$(cat "$dir/pid")"); do
		kill -"$sig" "$p" 2>/dev/null || ! kill -0 "$p" 2>/dev/null || exit 1
	done
	;;
createdb)
	name=${3:?a database name}
	port=$(cat "$dir/port")
	exists=$(psql -h 127.0.0.1 -p "$port" -U postgres -d postgres -tAc \
	    "SELECT 1 FROM pg_database WHERE datname = '$name'")
	[ "$exists" = 1 ] || psql -q -h 127.0.0.1 -p "$port" -U postgres -d postgres \
	    -c "CREATE DATABASE $name" >/dev/null
	;;
*)
	echo "usage: pg.sh start|stop|createdb DIR [NAME]" >&2
	exit 2
	;;
esac
