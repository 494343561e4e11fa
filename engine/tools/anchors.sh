#!/bin/sh
# engine/tools/anchors.sh OUTDIR RAPFI NETWORKS WINE: builds the two classical
# engines the issue measures against, Rapfi (dhbloo/rapfi, with the classical
# model of dhbloo/rapfi-networks) and Wine (jinjiebang/AIWine), as Gomocup
# brains in OUTDIR, and prints the arena command of each:
#   OUTDIR/rapfi/pbrain-rapfi   (config.toml and model220723.bin beside it)
#   OUTDIR/rapfi/pbrain-rapfi-paced   the same, each command passed on 20 ms
#                               late: use this one (see below)
#   OUTDIR/wine/pbrain-wine
# Each source is a work tree or a bare git mirror (as the fetch tool leaves
# them; its HEAD is exported). The sources are opponents only: they are built
# outside the repository and nothing of them is kept in it. Needs g++ and
# cmake (mk/deps.sh --anchors installs them). Then, for example:
#   bin/arena -j 1 -g 40 -t 1000 bin/pbrain-gomoku OUTDIR/rapfi/pbrain-rapfi-paced
set -eu
usage="usage: engine/tools/anchors.sh OUTDIR RAPFI_SRC RAPFI_NETWORKS_SRC WINE_SRC"
out=${1:?$usage}
rapfi=${2:?$usage}
nets=${3:?$usage}
wine=${4:?$usage}
jobs=${JOBS:-2}
mkdir -p "$out"
out=$(cd "$out" && pwd)
src="$out/src"

# tree NAME DIR: a work tree of DIR under $src/NAME (exported if DIR is bare)
tree() {
	if [ -f "$2/HEAD" ] && [ -d "$2/objects" ]; then
		rm -rf "${src:?}/$1"
		mkdir -p "$src/$1"
		git --git-dir="$2" archive HEAD | tar -x -C "$src/$1"
		echo "$src/$1"
	else
		(cd "$2" && pwd)
	fi
}

r=$(tree rapfi "$rapfi")
[ -f "$r/Rapfi/CMakeLists.txt" ] || { echo "anchors: $rapfi: no Rapfi/CMakeLists.txt" >&2; exit 1; }
# the networks repository holds large weight files (often not fetched) that
# the classical model does not need: take only the two files used
if [ -f "$nets/HEAD" ] && [ -d "$nets/objects" ]; then
	rm -rf "${src:?}/networks"
	mkdir -p "$src/networks/classical" "$src/networks/config-example"
	for f in classical/model220723.bin config-example/config.toml; do
		git --git-dir="$nets" show "HEAD:$f" >"$src/networks/$f"
	done
	n="$src/networks"
else
	n=$(cd "$nets" && pwd)
fi
[ -f "$n/classical/model220723.bin" ] || { echo "anchors: $nets: no classical/model220723.bin" >&2; exit 1; }
w=$(tree wine "$wine")
[ -f "$w/src/AIWine.cpp" ] || { echo "anchors: $wine: no src/AIWine.cpp" >&2; exit 1; }

# Rapfi: the classical evaluation only (no network evaluator, no command
# modules); the instruction sets cmake detects on this machine
cmake -S "$r/Rapfi" -B "$out/build-rapfi" -DCMAKE_BUILD_TYPE=Release \
	-DNO_COMMAND_MODULES=ON >"$out/build-rapfi.log" 2>&1 ||
	{ tail -20 "$out/build-rapfi.log" >&2; exit 1; }
cmake --build "$out/build-rapfi" -j "$jobs" >>"$out/build-rapfi.log" 2>&1 ||
	{ tail -20 "$out/build-rapfi.log" >&2; exit 1; }
mkdir -p "$out/rapfi"
cp "$out/build-rapfi/pbrain-rapfi" "$out/rapfi/"
cp "$n/classical/model220723.bin" "$out/rapfi/"
# the example config with the classical model, board coordinates as given
# (x,y, as Piskvork and the arena send them), and the network evaluator's
# sections dropped
awk '
/^\[/ { skip = ($0 ~ /^\[+model\.evaluator/) }
skip { next }
/^binary_file *=/ { print "binary_file = \"model220723.bin\""; next }
/^coord_conversion_mode *=/ { print "coord_conversion_mode = \"none\""; next }
{ print }' "$n/config-example/config.toml" >"$out/rapfi/config.toml"
grep -q '^binary_file = "model220723.bin"' "$out/rapfi/config.toml" ||
	{ echo "anchors: config.toml: no binary_file line to set" >&2; exit 1; }

# Rapfi prints its move before it clears its "thinking" flag and drops a
# command that arrives in between: against a brain that answers at once (a
# forced block), the arena's TURN is lost and Rapfi then reads the move
# ("5,4") as an unknown command and loses the game on an ERROR. The paced
# wrapper passes each line on 20 ms late, which the arena's tolerance covers.
cat >"$out/rapfi/pbrain-rapfi-paced" <<PACED
#!/bin/sh
# pbrain-rapfi with each command passed on 20 ms late (engine/tools/anchors.sh)
cd "$out/rapfi" || exit 1
while IFS= read -r line; do
	sleep 0.02
	printf '%s\n' "\$line"
done | exec ./pbrain-rapfi
PACED
chmod +x "$out/rapfi/pbrain-rapfi-paced"

# Wine: one directory of sources, built directly
mkdir -p "$out/wine"
g++ -std=c++17 -O3 -DNDEBUG -pthread -o "$out/wine/pbrain-wine" "$w"/src/*.cpp \
	>"$out/build-wine.log" 2>&1 || { tail -20 "$out/build-wine.log" >&2; exit 1; }

# a smoke test: each must answer a first move
for b in "$out/rapfi/pbrain-rapfi-paced" "$out/wine/pbrain-wine"; do
	reply=$(printf 'START 15\nINFO timeout_turn 300\nBEGIN\nEND\n' |
		(cd "$(dirname "$b")" && timeout 20 "$b" 2>/dev/null) |
		grep -E '^[0-9]+,[0-9]+' | head -1) || true
	[ -n "$reply" ] || { echo "anchors: $b gave no move" >&2; exit 1; }
	echo "$b"
done
