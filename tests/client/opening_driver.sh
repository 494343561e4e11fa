# tests/client/opening_driver.sh: sourced by the opening rules' tests on
# the real daemon (issue 46). A player in tmux (80x24, --ascii, 15x15)
# acts on what its own screen says, as a person would: the status line's
# instruction for the opening's stage (place a stone in the area named,
# take a colour, declare, offer fifth moves, choose one of those drawn as
# 5, Taraguchi's branch), then "Your move" until the game is over. It knows
# no rule: the points it tries come from the area's words, and a point the
# server refuses is not tried again. Needs lib.sh's TM, keys and screen.

# The lobby's selected row on session OD_LOBBY, as the keys moved it
# (Up/Down wrap at 15 rows).
OD_SEL=0
od_sel() {
	while [ $OD_SEL -ne "$1" ]; do
		keys "$OD_LOBBY" Down
		OD_SEL=$(((OD_SEL + 1) % 15))
	done
}
# od_setting ROW LABEL VALUE: Right on row ROW until it shows < VALUE >
od_setting() {
	od_sel "$1"
	od_i=0
	while ! screen "$OD_LOBBY" | grep -q -- "$2 *< $3 >"; do
		od_i=$((od_i + 1))
		[ $od_i -gt 10 ] && { screen "$OD_LOBBY"; return 1; }
		keys "$OD_LOBBY" Right
		sleep 0.2
	done
}

# The screen of session S in a file, for the lookups of one turn.
od_snap() { $TM capture-pane -p -t "=$1:" >"$T/od.$1"; }
# The character at point P (h8, c15) on session S's last snapshot, or "".
od_cell() {
	od_x=$(printf '%s' "$2" | cut -c1)
	od_r=$(printf '%s' "$2" | cut -c2-)
	od_x=$(($(printf '%d' "'$od_x") - 97))
	sed -n "$((18 - od_r))p" "$T/od.$1" | cut -c$((4 + 2 * od_x))
}
od_free() { case "$(od_cell "$1" "$2")" in . | +) return 0 ;; *) return 1 ;; esac; }
# Every point, nearest the centre (h8) first: "d point" lines, d the
# distance in the larger of the two directions.
od_all() {
	awk 'BEGIN { for (y = 1; y <= 15; y++) for (x = 0; x < 15; x++) {
		dx = x - 7; dy = y - 8; if (dx < 0) dx = -dx; if (dy < 0) dy = -dy
		printf "%d %c%d\n", (dx > dy ? dx : dy), 97 + x, y } }' | sort -n -s -k1,1
}
# The points of an area as the status line names it.
od_area() {
	case "$1" in
	centre) echo h8 ;;
	in3) od_all | awk '$1 <= 1 { print $2 }' ;;
	in5) od_all | awk '$1 <= 2 { print $2 }' ;;
	in7) od_all | awk '$1 <= 3 { print $2 }' ;;
	in9) od_all | awk '$1 <= 4 { print $2 }' ;;
	out5) od_all | awk '$1 > 2 { print $2 }' ;;
	out7) od_all | awk '$1 > 3 { print $2 }' ;;
	*) od_all | awk '$1 >= 5 { print $2 }' ;;
	esac
}
# Points no symmetry of the board maps onto each other (each has its own
# pair of distances from the centre): fifth-move offers.
OD_OFFERS="a1 b1 c1 d1 e1 f1 g1 h1 b2 c2 d2 e2 f2 g2 h2"
# The game proper: black builds c15 down to c11, white stays apart.
OD_BLACK="c15 c14 c13 c12 c11 c10 c9"
OD_WHITE="m13 m11 m9 m7 m5 m3 o15 o1"

# A point of LIST free on S's screen and not tried yet in this game.
od_pick() {
	for od_p in $2; do
		case " $(cat "$T/od.$1.tried" 2>/dev/null) " in *" $od_p "*) continue ;; esac
		od_free "$1" "$od_p" && { echo "$od_p"; return 0; }
	done
	return 1
}
# Types point P on S and presses Enter; P is not tried again.
od_play() {
	printf ' %s' "$2" >>"$T/od.$1.tried"
	keys "$1" "$(printf '%s' "$2" | cut -c1)" && keys "$1" -l "$(printf '%s' "$2" | cut -c2-)"
	keys "$1" Enter
}
# A new game: every point may be tried again.
od_reset() { : >"$T/od.$1.tried"; }

# One look at session S's screen, and the act it asks for; 0 when S acted
# or waits for the other, 1 when S's game is over.
od_turn() {
	od_snap "$1"
	grep -q "Game over" "$T/od.$1" && return 1
	od_status=$(sed -n 23p "$T/od.$1")
	case "$od_status" in
	*"place the next stone"*", then Enter"*)
		case "$od_status" in
		*"on the centre point"*) od_a=centre ;;
		*"outside the central 5x5"*) od_a=out5 ;;
		*"outside the central 7x7"*) od_a=out7 ;;
		*"central 3x3"*) od_a=in3 ;;
		*"central 5x5"*) od_a=in5 ;;
		*"central 7x7"*) od_a=in7 ;;
		*"central 9x9"*) od_a=in9 ;;
		*) od_a=any ;;
		esac
		od_p=$(od_pick "$1" "$(od_area $od_a)") && od_play "$1" "$od_p"
		;;
	*"B takes black, W takes white"*) keys "$1" B ;;
	*"how many fifth moves will black offer"*) keys "$1" 2 Enter ;;
	*"Enter marks or unmarks a point"*)
		od_n=$(printf '%s' "$od_status" | sed -n 's/.*offer \([0-9]*\) fifth moves.*/\1/p')
		od_i=0
		for od_p in $OD_OFFERS; do
			[ "$od_i" -ge "$od_n" ] && break
			od_free "$1" "$od_p" || continue
			od_play "$1" "$od_p"
			od_i=$((od_i + 1))
		done
		keys "$1" S
		;;
	*"offered fifth moves (marked 5)"*)
		for od_p in $(od_all | awk '{ print $2 }'); do
			[ "$(od_cell "$1" "$od_p")" = 5 ] && { od_play "$1" "$od_p"; break; }
		done
		;;
	*"O for one"*) keys "$1" T ;;
	*)
		# swap2 (its own lines, the panel says the stage), then the game
		# proper: the panel says whose move it is
		if grep -q "Swap2: you to place 3 stones" "$T/od.$1"; then
			for od_p in $(od_area any | head -3); do od_play "$1" "$od_p"; done
		elif grep -q "Swap2: you to place 2 stones" "$T/od.$1"; then
			for od_p in $(od_area any | head -8 | tail -2); do od_play "$1" "$od_p"; done
		elif grep -q "Swap2: you to choose a colour" "$T/od.$1"; then
			keys "$1" B
		elif grep -q "Your move (black)" "$T/od.$1"; then
			od_p=$(od_pick "$1" "$OD_BLACK $(od_all | awk '{ print $2 }')") &&
			    od_play "$1" "$od_p"
		elif grep -q "Your move (white)" "$T/od.$1"; then
			od_p=$(od_pick "$1" "$OD_WHITE $(od_all | awk '{ print $2 }')") &&
			    od_play "$1" "$od_p"
		else
			return 0
		fi
		;;
	esac
	sleep 0.4 # the server's answer comes before the next look
	return 0
}

# od_game S1 [S2]: drives the sessions until each one's game is over
# (at most 200 looks each); fails, showing the screens, if one never ends.
od_game() {
	for od_s in "$@"; do od_reset "$od_s"; done
	od_k=0
	while [ $od_k -lt 200 ]; do
		od_live=0
		for od_s in "$@"; do
			od_turn "$od_s" && od_live=1
		done
		[ $od_live = 0 ] && return 0
		od_k=$((od_k + 1))
		sleep 0.1
	done
	for od_s in "$@"; do
		echo "--- screen $od_s: the game did not end"
		screen "$od_s"
	done
	return 1
}
