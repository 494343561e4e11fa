#!/bin/sh
# The layers of ARCHITECTURE.md, checked on the includes: each directory
# includes only the layers below it, and inside the daemon the rooms know
# neither connections nor bots, the archive knows no room, wire codes stay
# at the edge, and the core reaches other nodes only through world.h (the
# cluster under daemon/cluster/ is named by the composition root alone).
# A rule is checked on what a file reaches through every header it
# includes, headers of headers too (reach), or, where ARCHITECTURE.md says
# so, on its own includes (deny). Fails naming every include that breaks a
# rule: the file, and the header it reaches.
set -u
cd "$(dirname "$0")/.."
bad=0

# includes of project headers in the files matching $1, as "file header"
# (headers in nested folders too: daemon/cluster/attach.h)
incs() {
	for f in $1; do
		[ -f "$f" ] || continue
		sed -n 's|^#include "\([a-z_]*/[a-z_/]*\.h\)".*|\1|p' "$f" | sed "s|^|$f |"
	done
}

# every header each file of $1 reaches through includes, as "file header"
reaches() {
	incs "$(git ls-files '*.c' '*.h')" | awk -v want=" $(echo $1) " '
	{ e[$1] = e[$1] " " $2 }
	END {
		n = split(want, fs, " ")
		for (i = 1; i <= n; i++) {
			f = fs[i]
			split("", seen); nq = 0; q[++nq] = f; head = 1
			while (head <= nq) {
				x = q[head++]; k = split(e[x], a, " ")
				for (j = 1; j <= k; j++)
					if (!(a[j] in seen)) { seen[a[j]] = 1; q[++nq] = a[j]; print f, a[j] }
			}
		}
	}'
}

# reach FILES PATTERN WHY: no file of FILES reaches a header matching PATTERN
reach() {
	hits=$(reaches "$1" | awk -v p="$2" '$2 ~ p')
	if [ -n "$hits" ]; then
		echo "layers: $3:"
		echo "$hits" | sed 's/^/  /'
		bad=1
	fi
}

# deny FILES PATTERN WHY: no file of FILES includes a header matching PATTERN
deny() {
	hits=$(incs "$1" | awk -v p="$2" '$2 ~ p')
	if [ -n "$hits" ]; then
		echo "layers: $3:"
		echo "$hits" | sed 's/^/  /'
		bad=1
	fi
}

# the daemon's core: every daemon file but the composition root and the cluster
core=$(git ls-files 'daemon/*.c' 'daemon/*.h' | grep -v '^daemon/cluster/' |
	grep -vx 'daemon/main.c\|daemon/server.c\|daemon/server.h')

deny "rules/*.c rules/*.h" '^(proto|engine|daemon|client)/' "the rules core includes nothing of ours"
deny "proto/*.c proto/*.h" '^(engine|daemon|client)/' "the protocol library stands on the rules core alone"
deny "engine/*.c engine/*.h engine/tools/*.c" '^(proto|daemon|client)/' "the engine knows no protocol, daemon or client"
deny "tourney/*.c tourney/*.h" '^(rules|proto|engine|daemon|client)/' "the tournaments' pure parts include nothing of ours"
deny "client/*.c client/*.h" '^(engine|daemon)/' "the client renders what the server says: no search, no daemon"
deny "bot/*.c bot/*.h" '^(engine|daemon|client|tourney)/' \
	"gomoku-bot drives any brain over the rules core and the protocol: no engine, daemon or client of ours"
reach "daemon/room.c daemon/room.h" '^daemon/(conn|botplay|bots|tlsline|wsline|http|transport|cmd|account|session|lobby|challenge)\.h$' \
	"a room hands events to sinks and knows its members through room_members: no connection, transport, bot or session"
deny "daemon/archive.c daemon/archive.h daemon/store.c daemon/store.h daemon/export.c" \
	'^daemon/(room|session|conn|botplay|cmd)\.h$' "the archive and the store get values, never rooms or sessions"
deny "daemon/game.c daemon/game.h" '^proto/|^daemon/(room|session|conn|wire|cmd|lobby|archive|store)\.h$' \
	"the game domain has no wire codes and no tables"
deny "daemon/lobby.c daemon/session.c daemon/archive.c daemon/restore.c daemon/store.c daemon/admin.c" \
	'^daemon/(wire|cmd)\.h$' "wire codes stay at the edge: the commands and the rooms' event lines"
deny "daemon/admin.c daemon/admin.h" '^daemon/(control|cmd|room)\.h$' \
	"the admin verbs serve both front ends (control socket, protocol) and know neither, nor a room"
deny "ctl/*.c ctl/*.h" '^(rules/rules\.h|proto/|engine/|daemon/|client/)' \
	"gomokuctl speaks the control socket's lines and links nothing of ours (the one version string is a header)"
deny "daemon/transport.h daemon/tlsline.c daemon/tlsline.h daemon/wsline.c daemon/wsline.h daemon/http.c daemon/http.h" \
	'^daemon/(room|session|cmd|lobby|conn|server)\.h$' \
	"a transport moves lines for its connection and knows nothing above it"

reach "$core" '^daemon/cluster/' \
	"the core reaches other nodes through world.h, never a header of the cluster's"
deny "$(git ls-files 'daemon/*.c' 'daemon/*.h' | grep -vx 'daemon/server.c\|daemon/cluster/attach.c\|daemon/cluster/off.c')" \
	'^daemon/cluster/attach\.h$' "only the composition root (server.c) attaches the cluster"
deny "$(git ls-files 'daemon/*.c' 'daemon/*.h' 'daemon/cluster/*' | grep -vx 'daemon/main.c\|daemon/server.c')" \
	'^daemon/server\.h$' "server.h is the composition root's, for main.c: the core shares core.h"
reach "daemon/world.h daemon/world.c daemon/roomid.h daemon/roomid.c daemon/gc.h daemon/gc.c \
	daemon/addrcount.h daemon/addrcount.c daemon/loginlimit.h daemon/loginlimit.c" \
	'^daemon/(core|conn|session|room|lobby|challenge|cmd|server)\.h$|^daemon/cluster/' \
	"world.h, roomid, gc, addrcount and loginlimit are leaves: they know no owner of the core"

[ $bad -eq 0 ] && echo "layers: every include keeps to its layer"
exit $bad
