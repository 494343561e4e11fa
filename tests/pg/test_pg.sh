#!/bin/sh
# gomokud on PostgreSQL (issue 26, the store): starts a PostgreSQL server of
# its own (tests/pg/pg.sh: initdb in a temporary directory as the postgres
# user, 127.0.0.1 on a free port), runs against it the store's unit tests
# and the outage test (test_pgdown: the backends paused while logins,
# queries, an undo and a move wait for the store thread, PostgreSQL
# stopped and started mid-game) in every pass, and in the plain gcc build
# (build/default-cc or -gcc, the one pass of the slow tests) also the
# daemon's black-box tests: a kill -9 mid-game and its restart
# (test_persist), rated games and accounts (test_accounts), ratings in
# view and the guests' 417 (test_ratings), login tokens and a guest's
# sign-in (test_remember), the protocol (test_gomokud, test_spec), sessions
# away (test_away), the same seven again against a cluster node
# (tests/daemon/withredis), three cluster nodes sharing one database
# (test_cluster), the lobby across them (test_cluster_lobby) and a killed
# or paused node's game adopted by another (test_lease), and group commit
# on the store thread: a fenced room's write in a group, PostgreSQL gone
# mid-group, a kill -9 before a group's commit (test_batch), and a bot's
# move taken before the reviews' waiting positions by a worker node
# (test_cluster_review). Stops the server by its pid at the end, also on
# failure. A missing PostgreSQL is a
# failure, never a skip. With a TEST_FILTER that does not name this script
# (tests/run.sh: e.g. "cluster"), only the programs it matches run.
# runs: test_store test_pgdown test_persist test_accounts test_ratings test_remember test_gomokud test_spec test_away test_openings test_botbusy test_reviews test_puzzles test_botaccounts test_league test_cluster test_cluster_lobby cluster:test_lease cluster:test_batch cluster:test_cluster_tourney cluster:test_cluster_league cluster:test_cluster_review cluster:test_persist cluster:test_accounts cluster:test_ratings cluster:test_remember cluster:test_gomokud cluster:test_spec cluster:test_away cluster:test_openings
set -u
here=$(dirname "$0")
O=${O:-build/default-cc}
tmp=$(mktemp -d /tmp/gomokud-pg.XXXXXX)
chmod 711 "$tmp" # the server runs as postgres under it
cleanup() {
	sh "$here/pg.sh" stop "$tmp/pg"
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
if ! port=$(sh "$here/pg.sh" start "$tmp/pg"); then
	echo "FAIL pg: cannot start PostgreSQL (make deps installs Debian's postgresql)"
	exit 1
fi
echo "PostgreSQL on 127.0.0.1:$port"
export GOMOKU_PG_URL="postgresql://postgres@127.0.0.1:$port/"
export GOMOKU_PG_CTL="sh $here/pg.sh" GOMOKU_PG_DIR="$tmp/pg"
tests="$O/tests/unit/test_store $O/tests/daemon/test_pgdown"
case "$O" in
*/default-cc | */default-gcc) tests="$tests $O/tests/daemon/test_persist $O/tests/daemon/test_accounts
	$O/tests/daemon/test_ratings $O/tests/daemon/test_remember $O/tests/daemon/test_gomokud
	$O/tests/daemon/test_spec $O/tests/daemon/test_away $O/tests/daemon/test_openings
	$O/tests/daemon/test_botbusy $O/tests/daemon/test_reviews $O/tests/daemon/test_puzzles
	$O/tests/daemon/test_botaccounts $O/tests/daemon/test_league" ;;
esac
# three nodes on one Redis and one database, in the builds whose pass runs
# the cluster's tests (tests/module.mk's CLUSTER_PASS: the plain gcc build,
# and the one CLUSTER_TEST=1 adds; never one built WITH_CLUSTER=0)
if [ -n "${CLUSTER_PASS:-}" ]; then
	tests="$tests $O/tests/daemon/test_cluster $O/tests/daemon/test_cluster_lobby
	$O/tests/daemon/test_lease $O/tests/daemon/test_batch $O/tests/daemon/test_cluster_tourney
	$O/tests/daemon/test_cluster_league
	$O/tests/daemon/test_cluster_review"
fi
# only the programs TEST_FILTER names, when it does not name this script;
# the cluster's tests answer to "cluster" too (TEST_FILTER=cluster make test)
want() {
	case "$1" in *cluster* | *test_lease | *test_batch) set -- "cluster:$1" ;; esac
	case "$0" in *"${TEST_FILTER:-}"*) return 0 ;; esac
	case "$1" in *"$TEST_FILTER"*) return 0 ;; esac
	return 1
}
bad=""
for t in $tests; do
	want "$t" || continue
	echo "--- $t on PostgreSQL"
	"$t" || bad="$bad $(basename "$t")"
done
# the same black-box tests against a cluster node (a Redis of withredis's
# own; each daemon a node of it), as against a lone server
case "$O:${CLUSTER_PASS:-}" in
*/default-cc:?* | */default-gcc:?*)
	for t in test_persist test_accounts test_ratings test_remember test_gomokud test_spec test_away \
		test_openings; do
		want "cluster:$t" || continue
		echo "--- $t on a cluster node (PostgreSQL and Redis)"
		"$O/tests/daemon/withredis" "$O/tests/daemon/$t" || bad="$bad $t(cluster)"
	done
	;;
esac
if [ -n "$bad" ]; then
	echo "FAIL on PostgreSQL:$bad"
	exit 1
fi
echo "on PostgreSQL: every test passed"
