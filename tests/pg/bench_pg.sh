#!/bin/sh
# make bench-pg: what a PostgreSQL store costs a move, beside SQLite in the
# same run, on loopback (tests/pg/pg.sh starts a server of its own and
# stops it at the end). Figures only, never pass/fail:
#   1. one move's commit (bench_store): SQLite on the loop, PostgreSQL as
#      the store thread runs it;
#   2. a move's relay latency through the real daemon (tests/load: MOVE
#      written to * MOVE read by the opponent, store commit included), the
#      same games against gomokud on SQLite, then on PostgreSQL.
# LOAD_ARGS as for make bench-load (default here: a short run).
set -eu
here=$(dirname "$0")
O=${O:-build/default-cc}
BINDIR=${BINDIR:-bin}
args=${PG_LOAD_ARGS:--n 100 -g 100 -s 8 -t 100}
tmp=$(mktemp -d /tmp/gomokud-pgbench.XXXXXX)
chmod 711 "$tmp"
trap 'sh "$here/pg.sh" stop "$tmp/pg"; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM
port=$(sh "$here/pg.sh" start "$tmp/pg")
url="postgresql://postgres@127.0.0.1:$port/"
sh "$here/pg.sh" createdb "$tmp/pg" bench_store
sh "$here/pg.sh" createdb "$tmp/pg" bench_load
echo "PostgreSQL on 127.0.0.1:$port"
GOMOKU_PG_BENCH_URL="${url}bench_store" "$O/tests/bench/bench_store"
echo "--- relay latency, gomokud on SQLite"
# shellcheck disable=SC2086
"$O/tests/load/load" -b "$BINDIR/gomokud" $args
echo "--- relay latency, gomokud on PostgreSQL"
# shellcheck disable=SC2086
"$O/tests/load/load" -b "$BINDIR/gomokud" $args -c "database ${url}bench_load"
