#!/bin/sh
# The README's quick start holds (issue 43, item 11): every program it names
# (bin/...) is built by `make run`, and the README's user part stays short.
set -eu
fails=0
fail() { echo "FAIL - $1"; fails=$((fails + 1)); }
quick=$(sed -n '/<!-- quickstart -->/,/<!-- \/quickstart -->/p' README.md)
[ -n "$quick" ] || fail "README.md has no quickstart block"
progs=$(printf '%s\n' "$quick" | grep -o 'bin/[a-z-]*' | sort -u)
[ -n "$progs" ] || fail "the quick start names no program"
# run-main's prerequisites, as make reads them
deps=$(make --no-print-directory -pn run-main 2>/dev/null | sed -n 's/^run-main: *//p' | head -1)
# a variant build (CC=clang, SANITIZE=...) puts them in build/<variant>/bin/
for p in $progs; do
	case " $deps " in
	*" $p "* | *"/$p "*) echo "ok   - make run builds $p" ;;
	*) fail "the quick start names $p, which make run does not build (run-main: $deps)" ;;
	esac
done
# "the user's part comes first and is short": up to the first link list
n=$(wc -l < README.md)
[ "$n" -le 200 ] || fail "README.md has $n lines; its user part belongs first and short (docs/ for the rest)"
echo "ok   - README.md is $n lines"
[ $fails -eq 0 ] && echo "quickstart: passed" || echo "quickstart: FAILED"
exit $fails
