#!/bin/sh
# Installs the Debian packages gomokud needs to build and test.
#   mk/deps.sh              install what is missing (as root) or print the command
#   mk/deps.sh --if-missing the same, but silent when nothing is missing
#   --with-clang            also clang and its sanitizer/fuzzer runtime (CI)
set -eu
quiet=0
clang=0
for a in "$@"; do
	case "$a" in
	--if-missing) quiet=1 ;;
	--with-clang) clang=1 ;;
	*) echo "usage: mk/deps.sh [--if-missing] [--with-clang]" >&2; exit 2 ;;
	esac
done

# pkg-config module or command -> Debian package
need=""
chk_pc() { pkg-config --exists "$1" 2>/dev/null || need="$need $2"; }
chk_cmd() { command -v "$1" >/dev/null 2>&1 || need="$need $2"; }

chk_cmd pkg-config pkg-config
chk_cmd cc gcc
chk_cmd make make
if command -v pkg-config >/dev/null 2>&1; then
	chk_pc libevent libevent-dev
	chk_pc libevent_openssl libevent-dev
	chk_pc libevent_pthreads libevent-dev
	chk_pc openssl libssl-dev
	chk_pc sqlite3 libsqlite3-dev
	chk_pc ncursesw libncurses-dev
	chk_pc cmocka libcmocka-dev
else
	need="$need libevent-dev libssl-dev libsqlite3-dev libncurses-dev libcmocka-dev"
fi
chk_cmd openssl openssl
chk_cmd tmux tmux
chk_cmd systemd-analyze systemd
chk_cmd man man-db
chk_cmd groff groff-base
if [ $clang -eq 1 ]; then
	chk_cmd clang clang
	chk_cmd clang-format clang-format
	# libFuzzer and the sanitizer runtimes for the clang that Debian 12 ships
	[ -n "$(ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a 2>/dev/null)" ] ||
		need="$need libclang-rt-14-dev"
fi

# unique, in order
pkgs=$(printf '%s\n' $need | awk 'NF && !seen[$0]++' | tr '\n' ' ')
if [ -z "$pkgs" ]; then
	[ $quiet -eq 1 ] || echo "deps: everything is installed"
	exit 0
fi
cmd="apt-get install -y --no-install-recommends $pkgs"
if [ "$(id -u)" -ne 0 ]; then
	echo "deps: missing packages; run as root:"
	echo "  apt-get update && $cmd"
	exit 1
fi
echo "deps: installing $pkgs"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $pkgs
