#!/bin/sh
# engine/tools/build-old.sh COMMIT [OUTDIR]: builds bin/pbrain-gomoku as it was at
# COMMIT (from a clean export, the working tree untouched) into OUTDIR
# (default build/old) and prints its path, for arena matches against
# earlier versions:
#   bin/arena -g 40 -t 1000 bin/pbrain-gomoku "$(engine/tools/build-old.sh HEAD~3)"
set -eu
commit=${1:?usage: engine/tools/build-old.sh COMMIT [OUTDIR]}
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${2:-$root/build/old}
sha=$(git -C "$root" rev-parse --short "$commit")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git -C "$root" archive "$sha" | tar -x -C "$tmp"
make -C "$tmp" --no-print-directory bin/pbrain-gomoku >/dev/null
mkdir -p "$out"
cp "$tmp/bin/pbrain-gomoku" "$out/pbrain-gomoku-$sha"
echo "$out/pbrain-gomoku-$sha"
