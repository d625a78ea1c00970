# tests/tui/tmux.sh — driving cudalings-tui in tmux, on top of tests/lib.sh (which it sources, with
# tests/proc.sh): a pane of a given size, keys, the screen, golden screens. Sourced by the scripts
# that test the workbook; $work is their scratch folder (tests/lib.sh's $tmp), the tmux server dies
# with the script.
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
source "$repo/tests/proc.sh"
work=$tmp
tui=${CUDALINGS_TUI:-$repo/build/cudalings-tui}
# the size the next start() opens, WIDTHxHEIGHT; the golden screens of each size live apart
size=80x24
golden_root=$repo/tests/tui/golden

[ -x "$tui" ] || { echo "$0: $tui is not built (make build/cudalings-tui)" >&2; exit 1; }
command -v tmux >/dev/null || { echo "$0: tmux is needed (apt-get install tmux)" >&2; exit 1; }

session=0
T() { tmux -S "$work/tmux.$session.sock" "$@"; }
when_finished 'T kill-server 2>/dev/null'

# start DIR ENV...: run the TUI (or $prog) in DIR in a fresh pane of $size; the
# shell says how it exited, and stays, so that the screen after it can be read.
start() {
	local dir=$1
	shift
	# a server of its own each time: a dying one cannot take the new session down
	T kill-server 2>/dev/null || true
	session=$((session + 1))
	T -f /dev/null new-session -d -s tui -x "${size%x*}" -y "${size#*x}" -c "$dir" \
		"env TERM=screen LC_ALL=C.UTF-8 NO_COLOR=1 $* '${prog:-$tui}'; echo \"[exited \$?]\"; exec sleep 600"
	T set-option -g status off
}

screen() { T capture-pane -p -t tui | sed 's/[[:space:]]*$//'; }

keys() { T send-keys -t tui "$@"; }

shows() { screen | grep -qF -- "$1"; }

# wait_for TEXT [SECONDS]: until the screen shows TEXT (60 s unless told: a bound costs nothing when the
# screen comes, and a loaded machine may take seconds to draw it)
wait_for() {
	wait_until "${2:-60}" shows "$1" && return 0
	bad "the screen never showed '$1':" "$(screen)"
	return 1
}

# resize WIDTHxHEIGHT: the pane becomes that size (and $size with it)
resize() {
	size=$1
	T resize-window -t tui -x "${size%x*}" -y "${size#*x}"
}

# uncut NAME FILE: nothing a student must read whole is cut on the screen in FILE: the title bar and the
# bottom line (messages, questions) hold no "…" (a grading's own "name… Ns" aside), and a verdict's
# headline (" ✓ …", " ✗ …") stays clear of the right edge, where the page would clip it
uncut() {
	local LC_ALL=C.UTF-8 cols=${size%x*} rows=${size#*x} n=0 line
	while IFS= read -r line; do
		n=$((n + 1))
		if [ "$n" = 1 ] || [ "$n" = "$rows" ]; then
			line=$(sed -E 's/(grading|running) [a-z_]+… Ns \*//' <<<"$line")
			[[ $line == *…* ]] || continue
		elif [[ $line =~ ^\ [✓✗]\  ]]; then
			[[ $line == *…* ]] || [ ${#line} -ge $((cols - 1)) ] || continue
		else
			continue
		fi
		bad "screen $1 at $size cuts line $n: '$line'"
	done <"$2"
}

# golden NAME: compare the screen with tests/tui/golden/$size/NAME.txt
# (UPDATE_GOLDEN=1 writes it instead).  Durations are masked: the seconds a
# grading has run, and how long one took.  The screen is polled until it is
# the golden one (60 s at most): a screen that a loaded machine has drawn in
# part, or not yet redrawn after a key, is no failure while it is still coming.
golden() {
	local golden_dir=$golden_root/$size
	local file=$golden_dir/$1.txt i
	normal() {
		screen | sed -e "s|$work|WORK|g" \
			-e 's/\(grading\|running\) \([a-z_]*\)… [0-9]*s ./\1 \2… Ns */' \
			-e 's/graded in [0-9]*\.[0-9] s/graded in N.N s/g'
	}
	is_golden() { normal >"$work/screen.txt" && cmp -s "$file" "$work/screen.txt"; }
	if [ -n "${UPDATE_GOLDEN:-}" ]; then
		# the screen once it has settled: the same twice, 0.2 s apart
		normal >"$work/screen.txt"
		for i in $(seq 25); do
			sleep 0.2
			normal >"$work/again.txt"
			cmp -s "$work/screen.txt" "$work/again.txt" && break
			mv "$work/again.txt" "$work/screen.txt"
		done
	else
		wait_until 60 is_golden
	fi
	uncut "$1" "$work/screen.txt"
	# what a student copies off the screen must compile: no space that is not a space
	if grep -q $'\xc2\xa0' "$work/screen.txt"; then
		bad "screen $1 has a no-break space"
	fi
	if [ -n "${UPDATE_GOLDEN:-}" ]; then
		mkdir -p "$golden_dir"
		cp "$work/screen.txt" "$file"
		echo "  wrote $file"
	elif ! diff -u "$file" "$work/screen.txt" > "$work/diff.txt" 2>&1; then
		bad "screen $1 differs from $file:" "$(cat "$work/diff.txt")"
	else
		ok "$1"
	fi
}
