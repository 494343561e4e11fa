#!/bin/sh
# mk/deps.sh for a VPS: --runtime asks for exactly the Debian packages whose
# libraries the installed programs load (ldd, dpkg -S), nothing to build or
# test with; apt-get is told to wait for the dpkg lock, a lock held by
# another apt run is waited for, and a timeout ends in a clear message.
# apt-get, id and dpkg-query are stand-ins here: nothing is installed.
set -eu
fail() { echo "FAIL: $*"; exit 1; }
command -v dpkg > /dev/null || fail "dpkg is missing (Debian only)"
BINDIR=${BINDIR:-bin}

tmp=$(mktemp -d /tmp/gomokud-deps-XXXXXX)
trap 'rm -rf "$tmp"' EXIT INT TERM

# 1. the list against what the binaries load (a gomokud built WITH_CLUSTER=0
# loads no hiredis: the list is the default build's, so it is left out here)
sh mk/deps.sh --list-runtime | sort > "$tmp/listed"
cp "$tmp/listed" "$tmp/listed.all"
if [ "${WITH_CLUSTER:-1}" = 0 ]; then
	grep -vx 'libhiredis[0-9.]*' "$tmp/listed" > "$tmp/listed.nc" || true
	mv "$tmp/listed.nc" "$tmp/listed"
fi
for b in gomokud gomoku pbrain-gomoku gomoku-bot; do
	[ -x "$BINDIR/$b" ] || fail "$BINDIR/$b is not built"
	ldd "$BINDIR/$b" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }'
done | sort -u | while read -r lib; do
	pkg=$(dpkg -S "$lib" 2>/dev/null || dpkg -S "$(readlink -f "$lib")") || fail "no package holds $lib"
	echo "${pkg%%:*}"
done > "$tmp/pkgs"
# libc6 and libgcc-s1 are on every Debian system, the sanitizer runtimes
# only in the sanitizer builds (make test SANITIZE=...); -levent_pthreads is
# on every link line, but gcc's --as-needed drops it (clang keeps it)
{
	grep -vxE 'libc6|libgcc-s1|libstdc\+\+6|lib(a|ub|t|l)san[0-9]+' "$tmp/pkgs"
	echo libevent-pthreads-2.1-7
} | sort -u > "$tmp/linked"
# a listed package brings what it depends on (libpq5 its Kerberos, LDAP
# and TLS libraries): those are loaded without being listed
cp "$tmp/listed" "$tmp/closure"
while :; do
	dpkg-query -W -f='${Depends}\n' $(cat "$tmp/closure") 2>/dev/null | tr ',|' '\n\n' |
	    sed 's/([^)]*)//; s/:any//; s/^ *//; s/ *$//' | grep -v '^$' | cat - "$tmp/closure" |
	    sort -u > "$tmp/closure.next"
	cmp -s "$tmp/closure" "$tmp/closure.next" && break
	mv "$tmp/closure.next" "$tmp/closure"
done
comm -23 "$tmp/linked" "$tmp/closure" > "$tmp/missing"
comm -13 "$tmp/linked" "$tmp/listed" > "$tmp/extra"
[ ! -s "$tmp/missing" ] && [ ! -s "$tmp/extra" ] || {
	sed 's/^/- /' "$tmp/missing"
	sed 's/^/+ /' "$tmp/extra"
	fail "mk/deps.sh --list-runtime differs from the packages of the libraries the programs load (- loaded, not listed nor brought by a listed package; + listed, not loaded)"
}
echo "runtime list: the $(wc -l < "$tmp/listed") packages whose libraries gomokud, gomoku, pbrain-gomoku and gomoku-bot load"

# stand-ins: root, nothing installed (DPKG_ALL=ii: everything), and an
# apt-get that logs its arguments and fails on a lock LOCKED_RUNS times
mkdir "$tmp/bin"
cat > "$tmp/bin/id" <<'S'
#!/bin/sh
echo "${FAKE_UID:-0}"
S
cat > "$tmp/bin/dpkg-query" <<'S'
#!/bin/sh
printf '%s' "${DPKG_ALL:-un}"
S
cat > "$tmp/bin/apt-get" <<'S'
#!/bin/sh
echo "$*" >> "$APT_LOG"
n=$(cat "$APT_COUNT" 2>/dev/null || echo 0)
echo $((n + 1)) > "$APT_COUNT"
if [ "$n" -lt "${LOCKED_RUNS:-0}" ]; then
	echo "E: Could not get lock /var/lib/apt/lists/lock. It is held by process 4242 (unattended-upgr)" >&2
	echo "E: Unable to lock directory /var/lib/apt/lists/" >&2
	exit 100
fi
exit 0
S
chmod +x "$tmp/bin/"*
export APT_LOG="$tmp/apt.log" APT_COUNT="$tmp/apt.count"
run() {
	rm -f "$APT_LOG" "$APT_COUNT"
	PATH="$tmp/bin:$PATH" sh mk/deps.sh "$@" > "$tmp/out" 2>&1
}

# 2. --runtime installs just those packages, telling apt-get to wait for the lock
run --runtime || { cat "$tmp/out"; fail "deps.sh --runtime failed"; }
grep -q '^-o DPkg::Lock::Timeout=[1-9][0-9]* update' "$APT_LOG" || { cat "$APT_LOG"; fail "apt-get update without a lock timeout"; }
inst=$(grep ' install ' "$APT_LOG") || { cat "$APT_LOG"; fail "no apt-get install"; }
case "$inst" in "-o DPkg::Lock::Timeout="[1-9]*) ;; *) fail "apt-get install without a lock timeout: $inst" ;; esac
printf '%s\n' $inst | grep -v '^-' | grep -vxE 'o|DPkg::Lock::Timeout=[0-9]+|install' | sort > "$tmp/asked"
diff -u "$tmp/listed.all" "$tmp/asked" || fail "--runtime asked apt-get for other packages (- listed, + asked)"
echo "--runtime: apt-get install -o DPkg::Lock::Timeout=N of exactly those packages"

DPKG_ALL="ii " run --runtime || { cat "$tmp/out"; fail "deps.sh --runtime failed with everything installed"; }
[ ! -e "$APT_LOG" ] || fail "--runtime ran apt-get with everything installed"
grep -q 'everything is installed' "$tmp/out" || { cat "$tmp/out"; fail "no word that everything is installed"; }
FAKE_UID=1000 run --runtime && fail "--runtime as a user succeeded without installing"
grep -q 'DPkg::Lock::Timeout=.*install.*libsqlite3-0' "$tmp/out" || { cat "$tmp/out"; fail "a user is not shown the command"; }
echo "--runtime: silent about apt-get when all is there, prints the command for a user"

# 3. a lock held by another apt run: waited for, then given up on clearly
LOCKED_RUNS=2 DEPS_LOCK_TIMEOUT=30 run --runtime || { cat "$tmp/out"; fail "a lock released after 2 tries was not waited for"; }
[ "$(grep -c ' update' "$APT_LOG")" -eq 3 ] || { cat "$APT_LOG"; fail "apt-get update was not tried again after the lock"; }
grep -q ' install ' "$APT_LOG" || fail "no install after the lock was released"
grep -q 'waiting up to 30 s' "$tmp/out" || { cat "$tmp/out"; fail "no word of the wait"; }
echo "lock: a lock held for two tries is waited for, saying so"

start=$(date +%s)
LOCKED_RUNS=1000 DEPS_LOCK_TIMEOUT=3 run --runtime && fail "a lock never released did not fail"
took=$(($(date +%s) - start))
[ "$took" -ge 3 ] && [ "$took" -le 12 ] || fail "gave up on the lock after ${took}s, not about 3"
grep -q 'gave up after 3 s: another apt or dpkg run (unattended-upgrades?) still holds the package lock' "$tmp/out" ||
	{ cat "$tmp/out"; fail "no clear message on the lock timeout"; }
grep -q ' install ' "$APT_LOG" && fail "installed in spite of the lock"
echo "lock: a lock never released ends after DEPS_LOCK_TIMEOUT (${took}s) with a clear message"
