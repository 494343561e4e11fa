#!/bin/sh
# make bench-cluster: tests/load/cluster (three nodes, one Redis) on a
# PostgreSQL server of its own (tests/pg/pg.sh, 127.0.0.1, stopped at the
# end by its pid). Figures only, never pass/fail. Arguments go to cluster.
set -eu
here=$(dirname "$0")
O=${O:-build/default-cc}
BINDIR=${BINDIR:-bin}
tmp=$(mktemp -d /tmp/gomokud-clbench.XXXXXX)
chmod 711 "$tmp"
trap 'sh "$here/../pg/pg.sh" stop "$tmp/pg"; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM
port=$(sh "$here/../pg/pg.sh" start "$tmp/pg")
sh "$here/../pg/pg.sh" createdb "$tmp/pg" bench_cluster
echo "PostgreSQL on 127.0.0.1:$port"
GOMOKU_PG_BENCH_URL="postgresql://postgres@127.0.0.1:$port/bench_cluster" \
    "$O/tests/load/cluster" -b "$BINDIR/gomokud" "$@"
