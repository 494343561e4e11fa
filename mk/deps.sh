#!/bin/sh
# Installs the Debian packages gomokud needs to build and test.
#   mk/deps.sh              install what is missing (as root) or print the command
#   mk/deps.sh --if-missing the same, but silent when nothing is missing
#   --with-clang            also clang and its sanitizer/fuzzer runtime (CI)
#   --runtime               only what the installed programs need to run, for
#                           a VPS that runs binaries built elsewhere: the shared
#                           libraries, no -dev packages, compilers or test tools
#   --list-runtime          print those runtime packages and exit
#   --anchors               also g++ and cmake, for engine/tools/anchors.sh
#                           (the classical engines the AI is measured against)
#   --windows               also mingw-w64, for make windows (the Gomocup
#                           brain for Windows), and wine to try it here
# Another apt run (unattended-upgrades on a fresh VPS, say) holding the
# package lock is waited for, up to DEPS_LOCK_TIMEOUT seconds (default 300).
set -eu
quiet=0
clang=0
runtime=0
anchors=0
windows=0
for a in "$@"; do
	case "$a" in
	--if-missing) quiet=1 ;;
	--with-clang) clang=1 ;;
	--runtime) runtime=1 ;;
	--list-runtime) runtime=2 ;;
	--anchors) anchors=1 ;;
	--windows) windows=1 ;;
	*)
		echo "usage: mk/deps.sh [--if-missing] [--with-clang] [--anchors] [--windows] [--runtime | --list-runtime]" >&2
		exit 2
		;;
	esac
done
lock_timeout=${DEPS_LOCK_TIMEOUT:-300}
case "$lock_timeout" in '' | *[!0-9]*) echo "deps: DEPS_LOCK_TIMEOUT must be seconds" >&2; exit 2 ;; esac

# What bin/gomokud, bin/gomoku, bin/pbrain-gomoku and bin/gomoku-bot load on Debian 12 (ldd,
# then dpkg -S; tests/systemd/test_deps.sh checks the list against the
# binaries): libevent with its OpenSSL and pthreads layers (the last is
# linked, but dropped by gcc's --as-needed; clang keeps it), OpenSSL,
# SQLite, libpq for a PostgreSQL store (libpq5 brings its own Kerberos,
# LDAP and TLS libraries), ncursesw for the client, wslay and http-parser
# for the web board, hiredis for a cluster's Redis, libseccomp for a brain's
# sandbox (bot/sandbox.h). libc6 and libgcc-s1 are
# always there.
RUNTIME_PKGS="libevent-2.1-7 libevent-core-2.1-7 libevent-openssl-2.1-7 libevent-pthreads-2.1-7
libssl3 libsqlite3-0 libpq5 libncursesw6 libtinfo6 libwslay1 libhttp-parser2.9 libhiredis0.14
libseccomp2"
if [ $runtime -eq 2 ]; then
	printf '%s\n' $RUNTIME_PKGS
	exit 0
fi

# pkg-config module or command -> Debian package
need=""
chk_pc() { pkg-config --exists "$1" 2>/dev/null || need="$need $2"; }
chk_cmd() { command -v "$1" >/dev/null 2>&1 || need="$need $2"; }
chk_pkg() {
	case "$(dpkg-query -W -f='${db:Status-Abbrev}' "$1" 2>/dev/null)" in
	ii*) ;;
	*) need="$need $1" ;;
	esac
}

if [ $runtime -eq 1 ]; then
	for p in $RUNTIME_PKGS; do chk_pkg "$p"; done
else
	chk_cmd pkg-config pkg-config
	chk_cmd cc gcc
	chk_cmd make make
	if command -v pkg-config >/dev/null 2>&1; then
		chk_pc libevent libevent-dev
		chk_pc libevent_openssl libevent-dev
		chk_pc libevent_pthreads libevent-dev
		chk_pc openssl libssl-dev
		chk_pc sqlite3 libsqlite3-dev
		chk_pc libpq libpq-dev
		chk_pc ncursesw libncurses-dev
		chk_pc cmocka libcmocka-dev
		chk_pc hiredis libhiredis-dev
		chk_pc libseccomp libseccomp-dev
		# zlib gzips the web board's files at build time (mk/embed.c) and
		# tests/daemon/test_gzip unzips them; gomokud does not link it
		chk_pc zlib zlib1g-dev
	else
		need="$need libevent-dev libssl-dev libsqlite3-dev libpq-dev libncurses-dev libcmocka-dev libhiredis-dev libseccomp-dev zlib1g-dev"
	fi
	# WebSocket framing and HTTP requests (issue 24): Debian 12 ships no .pc
	# file for either, so their headers say whether they are there
	chk_file() { [ -e "$1" ] || need="$need $2"; }
	chk_file /usr/include/wslay/wslay.h libwslay-dev
	chk_file /usr/include/http_parser.h libhttp-parser-dev
	chk_cmd openssl openssl
	# the web board's tests: node for the parser test, Chromium driven by
	# puppeteer-core (npm ci below)
	chk_cmd node nodejs
	chk_cmd npm npm
	chk_cmd chromium chromium
	chk_cmd tmux tmux
	# the message catalogs (issue 42): msgfmt, xgettext and msgcmp build
	# and check po/; the Chinese client test needs the zh_CN.UTF-8 locale
	# (generated below) and browser screenshots a CJK font
	chk_cmd msgfmt gettext
	chk_cmd xgettext gettext
	chk_pkg locales
	chk_pkg fonts-noto-cjk
	# tests/i18n/test_catalogs.sh fetches the served catalogs
	chk_cmd curl curl
	chk_cmd systemd-analyze systemd
	# tests only: tests/systemd/test_unit_engines.sh boots systemd in a
	# container to run gomokud.service as installed
	chk_cmd systemd-nspawn systemd-container
	chk_cmd man man-db
	chk_cmd groff groff-base
	# tests only: tests/daemon/test_front runs gomokud behind it (in
	# /usr/sbin, off a user's PATH: asked of dpkg)
	chk_pkg haproxy
	# tests only: tests/daemon/test_cluster starts its own Redis
	chk_cmd redis-server redis-server
	# tests only: tests/pg/test_pg.sh starts its own PostgreSQL server (in
	# /usr/lib/postgresql/N/bin: asked of dpkg); psql makes its databases
	chk_pkg postgresql
	if [ $clang -eq 1 ]; then
		chk_cmd clang clang
		chk_cmd clang-format clang-format
		# libFuzzer and the sanitizer runtimes for the clang that Debian 12 ships
		[ -n "$(ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a 2>/dev/null)" ] ||
			need="$need libclang-rt-14-dev"
	fi
	if [ $anchors -eq 1 ]; then
		chk_cmd g++ g++
		chk_cmd cmake cmake
	fi
	if [ $windows -eq 1 ]; then
		chk_cmd x86_64-w64-mingw32-gcc mingw-w64
		chk_cmd wine wine
	fi
fi

# puppeteer-core for the browser tests, exactly as tests/browser/package-lock.json
# pins it (npm ci), when it is missing or older than the lock file.
npm_ci() {
	[ $runtime -eq 0 ] || return 0
	b="$(dirname "$0")/../tests/browser"
	if [ ! -d "$b/node_modules/puppeteer-core" ] || [ "$b/package-lock.json" -nt "$b/node_modules" ]; then
		command -v npm >/dev/null 2>&1 || return 0
		echo "deps: npm ci in tests/browser (puppeteer-core)"
		(cd "$b" && npm ci --no-audit --no-fund --loglevel=error) && touch "$b/node_modules"
	fi
}

# The locales the tests run the client in, generated when missing:
# zh_CN.UTF-8 (tests/client/test_tui_zh.sh). locales must be installed.
LOCALES="zh_CN.UTF-8"
gen_locales() {
	[ $runtime -eq 0 ] || return 0
	missing=""
	for l in $LOCALES; do
		want=$(echo "$l" | tr 'A-Z' 'a-z' | sed 's/utf-8$/utf8/')
		locale -a 2>/dev/null | tr 'A-Z' 'a-z' | grep -qx "$want" || missing="$missing $l"
	done
	[ -n "$missing" ] || return 0
	if [ "$(id -u)" -ne 0 ] || [ ! -f /etc/locale.gen ]; then
		echo "deps: missing locales:$missing; as root, uncomment them in /etc/locale.gen and run locale-gen"
		return 1
	fi
	echo "deps: generating the locales$missing"
	for l in $missing; do
		if grep -q "^# *$l UTF-8" /etc/locale.gen; then
			sed -i "s/^# *$l UTF-8/$l UTF-8/" /etc/locale.gen
		elif ! grep -q "^$l UTF-8" /etc/locale.gen; then
			echo "$l UTF-8" >> /etc/locale.gen
		fi
	done
	locale-gen > /dev/null
}

# unique, in order
pkgs=$(printf '%s\n' $need | awk 'NF && !seen[$0]++' | tr '\n' ' ')
if [ -z "$pkgs" ]; then
	npm_ci
	gen_locales
	[ $quiet -eq 1 ] || echo "deps: everything is installed"
	exit 0
fi
lock="-o DPkg::Lock::Timeout=$lock_timeout"
cmd="apt-get $lock install -y --no-install-recommends $pkgs"
if [ "$(id -u)" -ne 0 ]; then
	echo "deps: missing packages; run as root:"
	echo "  apt-get $lock update && $cmd"
	exit 1
fi

# apt_get ARGS...: apt-get waiting for the package lock. DPkg::Lock::Timeout
# makes it wait for dpkg's lock; apt-get update's lock on the package lists
# it does not wait for, so a run that failed on a lock is tried again every
# 2 s until the timeout, which ends in a message saying what holds it up.
apt_get() {
	start=$(date +%s)
	said=0
	err=$(mktemp)
	while :; do
		# shellcheck disable=SC2086
		if apt-get $lock "$@" 2> "$err"; then
			cat "$err" >&2
			rm -f "$err"
			return 0
		fi
		if ! grep -qE 'Could not get lock|Unable to (lock|acquire)' "$err"; then
			cat "$err" >&2
			rm -f "$err"
			return 1
		fi
		if [ $(($(date +%s) - start)) -ge "$lock_timeout" ]; then
			cat "$err" >&2
			rm -f "$err"
			echo "deps: gave up after ${lock_timeout} s: another apt or dpkg run (unattended-upgrades?)" \
			    "still holds the package lock. Let it finish (ps -C apt-get,apt,dpkg,unattended-upgr)," \
			    "then run this again, or wait longer with DEPS_LOCK_TIMEOUT=seconds." >&2
			return 1
		fi
		if [ $said -eq 0 ]; then
			echo "deps: another apt or dpkg run holds the package lock; waiting up to ${lock_timeout} s"
			said=1
		fi
		sleep 2
	done
}

echo "deps: installing $pkgs"
export DEBIAN_FRONTEND=noninteractive
apt_get update -qq
# shellcheck disable=SC2086
apt_get install -y -qq --no-install-recommends $pkgs
npm_ci
gen_locales
