#!/bin/sh
# make install, install-strip and uninstall into scratch roots (DESTDIR):
# exactly the files an admin needs, every path in the installed unit and
# man pages the PREFIX given, stripped binaries from install-strip, and an
# uninstall that leaves only the admin's own gomokud.conf.
set -eu
fail() { echo "FAIL: $*"; exit 1; }

# a strict umask, as a careful admin has: the modes must not follow it
umask 077
tmp=$(mktemp -d /tmp/gomokud-install-XXXXXX)
trap 'rm -rf "$tmp"' EXIT INT TERM

mk() { make --no-print-directory -s "$@" > "$tmp/make.out" 2>&1 || { cat "$tmp/make.out"; fail "make $*"; }; }

# The files install must put under DESTDIR for PREFIX $1 (SYSCONFDIR $2).
expected() {
	printf '%s\n' "$1/bin/gomokud" "$1/bin/gomokuctl" "$1/bin/gomoku" "$1/bin/pbrain-gomoku" \
	    "$1/bin/gomoku-bot" "$1/share/man/man1/gomoku-bot.1" \
	    "$1/lib/systemd/system/gomokud.service" \
	    "$2/gomokud/gomokud.conf" "$2/gomokud/gomokud.conf.example" \
	    "$1/share/man/man1/gomoku.1" "$1/share/man/man5/gomokud.conf.5" \
	    "$1/share/man/man6/pbrain-gomoku.6" "$1/share/man/man8/gomokud.8" \
	    "$1/share/man/man8/gomokuctl.8" \
	    $(sed -e 's/#.*//' -e '/^ *$/d' po/LINGUAS | sed "s|.*|$1/share/locale/&/LC_MESSAGES/gomoku.mo|") | sort
}
listed() { (cd "$1" && find . ! -type d | sed 's|^\.||' | sort); }

# check PREFIX SYSCONFDIR: install, compare the file list and the paths named.
check() {
	prefix=$1 etc=$2
	root="$tmp/root$(echo "$prefix" | tr / _)"
	mk install DESTDIR="$root" PREFIX="$prefix"
	expected "$prefix" "$etc" > "$tmp/want"
	listed "$root" > "$tmp/got"
	diff -u "$tmp/want" "$tmp/got" || fail "PREFIX=$prefix: installed files differ from the list (- wanted, + got)"
	while read -r f; do
		case "$f" in */bin/*) want=755 ;; *) want=644 ;; esac
		m=$(stat -c %a "$root$f")
		[ "$m" = "$want" ] || fail "PREFIX=$prefix: $f has mode $m, not $want"
	done < "$tmp/want"
	bad=$(find "$root" -mindepth 1 -type d ! -perm 755)
	[ -z "$bad" ] || fail "PREFIX=$prefix: directories not 755: $bad"
	echo "install PREFIX=$prefix: exactly the $(wc -l < "$tmp/want") files listed, programs 755, the rest 644, directories 755"

	docs="$root$prefix/lib/systemd/system/gomokud.service $root$prefix/share/man/man*/*"
	# shellcheck disable=SC2086
	if grep -n '@[A-Z_]*@' $docs; then fail "PREFIX=$prefix: unsubstituted @...@"; fi
	# every /usr, /etc or /opt path they name is under PREFIX or SYSCONFDIR
	# (the bare directories themselves name no installed file: gomoku-bot(1)
	# lists them as what a brain's sandbox may read)
	# shellcheck disable=SC2086
	grep -ohE '/(usr|etc|opt)(/[A-Za-z0-9._-]+)*' $docs | sort -u > "$tmp/paths"
	[ -s "$tmp/paths" ] || fail "PREFIX=$prefix: no path at all in the unit and man pages"
	while read -r p; do
		case "$p" in "$prefix"/* | "$etc"/* | /usr | /etc | /opt) ;; *) fail "PREFIX=$prefix: the unit or a man page names $p" ;; esac
		[ "$prefix" = /usr/local ] || case "$p" in /usr/local/*) fail "PREFIX=$prefix: names $p" ;; esac
	done < "$tmp/paths"
	echo "install PREFIX=$prefix: the $(wc -l < "$tmp/paths") paths in the unit and man pages are all under $prefix or $etc"
	for b in gomokud gomokuctl gomoku pbrain-gomoku; do
		readelf -S "$root$prefix/bin/$b" | grep -q '\.symtab' || fail "install stripped $b"
	done
	# the client finds its catalogs where they were installed (../share/locale)
	if locale -a 2>/dev/null | grep -qix 'zh_CN\.utf-\?8'; then
		LC_ALL= LANGUAGE= LANG=zh_CN.UTF-8 "$root$prefix/bin/gomoku" --help | grep -q '^语言：简体中文' ||
			fail "PREFIX=$prefix: the installed gomoku does not speak Chinese under LANG=zh_CN.UTF-8"
		echo "install PREFIX=$prefix: gomoku finds its catalogs in $prefix/share/locale"
	fi
	# the paths that must be there, as installed
	unit="$root$prefix/lib/systemd/system/gomokud.service"
	grep -q "^ExecStart=$prefix/bin/gomokud --config $etc/gomokud/gomokud.conf " "$unit" ||
		fail "PREFIX=$prefix: ExecStart does not name $prefix/bin and $etc"
	man8="$root$prefix/share/man/man8/gomokud.8"
	for p in "$etc/gomokud/gomokud.conf" "$prefix/lib/systemd/system/gomokud.service" \
	    /var/lib/gomokud; do
		grep -qF -- "$p" "$man8" || fail "PREFIX=$prefix: gomokud(8) does not name $p"
	done
	grep -qF -- "$etc/gomokud/gomokud.conf" "$root$prefix/share/man/man5/gomokud.conf.5" ||
		fail "PREFIX=$prefix: gomokud.conf(5) does not name $etc/gomokud/gomokud.conf"
	echo "install PREFIX=$prefix: ExecStart, gomokud(8) and gomokud.conf(5) name the installed paths"

	# uninstall leaves the admin's config alone, says so, and removes the rest
	echo "# the admin's" >> "$root$etc/gomokud/gomokud.conf"
	make --no-print-directory -s uninstall DESTDIR="$root" PREFIX="$prefix" > "$tmp/un.out" 2>&1 ||
		{ cat "$tmp/un.out"; fail "make uninstall"; }
	printf '%s\n' "$etc/gomokud/gomokud.conf" > "$tmp/want"
	listed "$root" > "$tmp/got"
	diff -u "$tmp/want" "$tmp/got" || fail "PREFIX=$prefix: uninstall left other files (- wanted, + got)"
	grep -q "^# the admin's" "$root$etc/gomokud/gomokud.conf" || fail "uninstall changed the config"
	grep -qF "$etc/gomokud/gomokud.conf" "$tmp/un.out" || { cat "$tmp/un.out"; fail "uninstall does not say it kept the config"; }
	grep -qF /var/lib/gomokud "$tmp/un.out" || { cat "$tmp/un.out"; fail "uninstall does not say it left the state directory"; }
	(cd "$root" && find . -type d | sed 's|^\.||' | sort) > "$tmp/got"
	d=$etc/gomokud
	: > "$tmp/want"
	while [ -n "$d" ]; do echo "$d" >> "$tmp/want"; d=${d%/*}; done
	echo "" >> "$tmp/want"
	sort -o "$tmp/want" "$tmp/want"
	diff -u "$tmp/want" "$tmp/got" || fail "PREFIX=$prefix: uninstall left directories (- wanted, + got)"
	echo "uninstall PREFIX=$prefix: only the admin's gomokud.conf is left, and said so"
}

check /usr/local /usr/local/etc
check /usr /etc
check /opt/gomokud /opt/gomokud/etc

# install-strip: the same files, the binaries without symbols; install's
# keep theirs (the build has -g).
root="$tmp/strip"
mk install-strip DESTDIR="$root" PREFIX=/usr/local
expected /usr/local /usr/local/etc > "$tmp/want"
listed "$root" > "$tmp/got"
diff -u "$tmp/want" "$tmp/got" || fail "install-strip: installed files differ from the list"
for b in gomokud gomokuctl gomoku pbrain-gomoku; do
	f=$root/usr/local/bin/$b
	[ -x "$f" ] || fail "install-strip: $b is not executable"
	readelf -h "$f" > /dev/null 2>&1 || fail "install-strip: $b is not an ELF file"
	if readelf -S "$f" | grep -q '\.symtab'; then fail "install-strip: $b keeps its symbol table"; fi
done
echo "install-strip: the same files, binaries stripped"
