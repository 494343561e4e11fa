#!/bin/sh
# The layers of ARCHITECTURE.md, checked on the includes: each directory
# includes only the layers below it, and inside the daemon the rooms know
# neither connections nor bots, the archive knows no room, and wire codes
# stay at the edge. Fails naming
# every include that breaks a rule.
set -u
cd "$(dirname "$0")/.."
bad=0

# includes of project headers in the files matching $1, as "file header"
incs() {
	for f in $1; do
		[ -f "$f" ] || continue
		sed -n 's|^#include "\([a-z]*/[a-z_]*\.h\)".*|\1|p' "$f" | sed "s|^|$f |"
	done
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

deny "rules/*.c rules/*.h" '^(proto|engine|daemon|client)/' "the rules core includes nothing of ours"
deny "proto/*.c proto/*.h" '^(engine|daemon|client)/' "the protocol library stands on the rules core alone"
deny "engine/*.c engine/*.h engine/tools/*.c" '^(proto|daemon|client)/' "the engine knows no protocol, daemon or client"
deny "client/*.c client/*.h" '^(engine|daemon)/' "the client renders what the server says: no search, no daemon"
deny "daemon/room.c daemon/room.h" '^daemon/(conn|botplay|bots|tlsline|wsline|http|transport|cmd|account)\.h$' \
	"a room hands events to sinks; it knows no connection, transport or bot"
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

[ $bad -eq 0 ] && echo "layers: every include keeps to its layer"
exit $bad
