# tests/gomokud.sh: for the shell tests that run the real daemon.
# gomokud_port LOG: waits (10 s at most) until a gomokud started in the
# background with --listen 127.0.0.1:0 logs its port to LOG, and prints it
# (nothing when it never did).
gomokud_port() {
	g_i=0
	while ! grep -q "listening on 127.0.0.1:" "$1" 2>/dev/null && [ $g_i -lt 200 ]; do
		sleep 0.05
		g_i=$((g_i + 1))
	done
	sed -n 's/.*listening on 127\.0\.0\.1:\([0-9]*\).*/\1/p' "$1" | head -1
}
