#!/bin/bash
# A new student's walk through the workbook, with the real grader on the CPU
# simulator (no GPU): open it, read a lesson, edit the exercise (a scripted
# editor), grade, see the failure and a hint, fix it, see it pass and the
# progress bar move, quit, reopen with the progress kept.  It runs in a copy
# of the workbook, so the repo's own exercises/ are never touched.  The
# grader's messages hold random inputs and change as the workbook grows, so
# this walk checks what must be on the screen rather than whole screens.
set -u
source "$(dirname "$0")/tmux.sh"

grader=$repo/build/cudalings
[ -x "$grader" ] || { echo "$0: $grader is not built (make)" >&2; exit 1; }

wb=$work/wb
mkdir -p "$wb" "$work/edits"
# the grader builds into the workbook's build/: the copy starts with the repo's builds (the simulator,
# the runners), so nothing of the walk lands in the repo's build/ and nothing is compiled twice
source "$repo/tests/workbook-copy.sh"
workbook_copy "$repo" "$wb"
[ -x "$wb/build/sim/cudasim-rewrite" ] || { echo "$0: the simulator is not built (make sim)" >&2; exit 1; }
# exercises/ as the solutions make them, never the student's edits in the repo
rm -f "$wb"/exercises/*.cu
(cd "$wb" && "$grader" starters >/dev/null) || { echo "$0: cannot write the starters in the copy" >&2; exit 1; }
env="EDITOR='$repo/tests/tui/scripted-editor' EDITS='$work/edits'"

# the first exercise: its name, its place in the list, the heading of its lesson
read -r first order n heading < <(cd "$wb" && "$grader" list --json | python3 -c '
import json, sys
items = json.load(sys.stdin)["items"]
ex = next(i for i in items if i["kind"] == "exercise")
try:
    heading = next(l[2:].strip() for l in open(ex["lesson"]) if l.startswith("# "))
except (OSError, StopIteration, TypeError):
    heading = ex["title"]
print(ex["name"], ex["order"], len(items), heading)')
repo_sum=$(sha1sum < "$repo/exercises/$first.cu")
row=$(printf '%2d  ' "$order")
echo "walking through $first ($order of $n): '$heading'"

echo "== open the workbook: nothing done; find the first exercise"
start "$wb" "$env"
wait_for "0 of $n done"
keys / "$first" Enter
wait_for "▸ ○ $row"
echo "== read its lesson"
keys Enter
wait_for "$heading"
keys Space G g
wait_for "$heading"
echo "== edit it (a save that changes nothing that matters) and grade: a failure"
echo comment > "$work/edits/next"
keys e
wait_for "back from editing exercises/$first.cu"
t0=$(date +%s.%N)
keys c
wait_for "$first: failing at" 300
t1=$(date +%s.%N)
check "the failure is a verdict, not a grader error" "! screen | grep -q 'could not grade'"
echo "== a hint"
keys h
wait_for "(1 of"
echo "== fix it (the scripted editor puts the solution in) and grade: a pass"
echo solution > "$work/edits/next"
keys e
wait_for "back from editing"
t2=$(date +%s.%N)
keys c
wait_for "is correct on the simulator" 300
t3=$(date +%s.%N)
echo "== the progress bar moves"
keys q q
wait_for "1 of $n done"
wait_for "◐ $row"
keys Q
wait_for "[exited 0]"
check "the progress is in .cudalings/state.json" "grep -q correct_on_sim '$wb/.cudalings/state.json'"

echo "== reopen, as 'cudalings' with no arguments: the progress is kept"
prog=$grader start "$wb" "$env"
wait_for "1 of $n done"
wait_for "◐ $row"
echo "== an edit after grading shows; a make grade in another terminal shows while it is open"
echo "// a later edit" >>"$wb/exercises/$first.cu"
keys j k
wait_for "changed"  # "changed since graded", said short at 80 columns
echo "== its results page says so: the verdict no longer speaks of the file"
keys / "$first" Enter r
wait_for "changed since graded: c grades it again"
check "the changed file's verdict is not called an earlier session's" "wait_until 60 ! shows 'earlier session'"
echo "== w on a file changed since its grading grades it at once, not at the next save"
keys w
wait_for "changed since graded, so graded now"
wait_for "; graded in " 300	# this grading's time: the kept verdict had none
check "the new verdict speaks of the file" "wait_until 60 ! shows 'changed since graded: c grades'"
keys w
wait_for "stopped watching"
keys q
second=$(cd "$wb" && "$grader" list --json | python3 -c '
import json, sys
items = [i for i in json.load(sys.stdin)["items"] if i["kind"] == "exercise"]
print(items[1]["name"], items[1]["order"])')
read -r second second_order <<<"$second"
(cd "$wb" && "$grader" grade "$second" --backend sim >/dev/null 2>&1)
wait_for "failing"
echo "== a grading made beside the workbook is this session's, not an earlier one's"
keys / "$second" Enter r
wait_for "graded at "
check "a grading of seconds ago is not called an earlier session's" "wait_until 60 ! shows 'earlier session'"
keys q
keys Q
wait_for "[exited 0]"

echo "== quitting the workbook in mid-grade leaves nothing of the grading running"
# a kernel that never ends: the grading would run until its own limit (25 s)
cat >"$wb/exercises/col_sums.cu" <<'CU'
#include "cudalings/col_sums.h"
__global__ void spin(float *s) { volatile float x = 0; for (;;) x += 1; s[0] = x; }
void col_sums_launch(const float *a, float *s, int rows, int cols) { spin<<<1, 1>>>(s); }
CU
# what of this grading runs: its grader (in the copy) and its runner
runner() { proc_find "runner/col_sums .*--student $wb/build/sim/sub/col_sums-"; }
grading() {
	local p
	runner
	for p in $(proc_find "grade col_sums --json --progress"); do
		[ "$(readlink "/proc/$p/cwd" 2>/dev/null)" = "$wb" ] && echo "$p"
	done
}
for how in Escape Q C-c hangup; do
	start "$wb" "$env"
	wait_for "of $n done"
	keys / col_sums Enter c
	if ! wait_until 120 runner >/dev/null; then
		bad "the endless kernel's runner started ($how)"
		continue
	fi
	case $how in
	hangup) T kill-server ;;	# the terminal closed: SIGHUP
	Escape) keys Escape; wait_for "grading col_sums cancelled"; keys Q ;;
	*) keys "$how" ;;
	esac
	proc_none_left "$how in mid-grade" grading
done

echo "== a kill -9 of the workbook in mid-compile leaves no compiler behind"
# a compile that never ends: the file includes a FIFO nobody writes, so the graders' preprocessors (cc1plus,
# great-grandchildren of the workbook) wait in open(); every process of it carries a mark in its environment
mkfifo "$work/never.h"
cp "$wb/exercises/col_sums.cu" "$work/endless.cu"
printf '#include "cudalings/col_sums.h"\n#include "%s"\n%s\n' "$work/never.h" \
	'void col_sums_launch(const float *a, float *s, int rows, int cols) {}' >"$wb/exercises/col_sums.cu"
mark="walk-$$-$RANDOM"
start "$wb" "$env CUDALINGS_LIFETIME_MARK=$mark"
wait_for "of $n done"
keys / col_sums Enter c
check "a compiler's helper waits on the FIFO" "wait_until 120 proc_compiling $mark"
ui=$(for p in $(proc_marked "$mark"); do [ "$(cat "/proc/$p/comm" 2>/dev/null)" = cudalings-tui ] && echo "$p"; done)
check "the workbook runs: '$ui'" "[ $(wc -w <<<"$ui") = 1 ]"
kill -9 $ui
proc_none_left "kill -9 of the workbook in mid-compile" proc_marked "$mark"
rm -f "$work/never.h"
cp "$work/endless.cu" "$wb/exercises/col_sums.cu"	# the endless kernel again, for what follows

echo "== the terminal of a make tui closes in mid-grade: nothing is left, and nothing spins meanwhile"
# The window's own command is make tui (as with xterm -e make tui, or ssh -t host make tui): the hangup
# reaches make, the session's leader, and the workbook learns of it only from its terminal.
T kill-server 2>/dev/null || true
session=$((session + 1))
T -f /dev/null new-session -d -s tui -x 80 -y 24 -c "$repo" \
	"env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS TERM=screen LC_ALL=C.UTF-8 NO_COLOR=1 CUDALINGS_ROOT='$wb' $env make --no-print-directory tui"
wait_for "of $n done" 120
keys / col_sums Enter c
check "the endless kernel's runner started under make tui" "wait_until 120 runner >/dev/null"
# make, the workbook, its grading: each one's CPU ticks when the terminal closes, and when last seen
declare -A first_ticks last_ticks last_seen
tick=$(getconf CLK_TCK)
procs=$(proc_tree "$(T list-panes -t tui -F '#{pane_pid}')")
ui=$(for p in $procs; do [[ $(cat "/proc/$p/comm" 2>/dev/null) == @(make|cudalings-tui) ]] && echo "$p"; done)
ui=$(echo $ui)
check "make and the workbook run in the window: $ui" "[ $(wc -w <<<"$ui") = 2 ]"
closed=$(date +%s.%N)
for p in $procs; do
	proc_stat "$p" && first_ticks[$p]=$((proc_fields[11] + proc_fields[12]))
done
# none_running: each of $procs still there is in $left, its ticks and the time it was seen noted
none_running() {
	left=
	for p in $procs; do
		if proc_stat "$p"; then
			left="$left $p"
			last_ticks[$p]=$((proc_fields[11] + proc_fields[12]))
			last_seen[$p]=$(date +%s.%N)
		fi
	done
	[ -z "$left" ]
}
T kill-server
if wait_until 60 none_running; then
	awk -v a="$closed" -v b="$(date +%s.%N)" 'BEGIN { printf "  ok   make tui'"'"'s terminal closed: nothing left %.1f s later\n", b - a }'
else
	check "make tui's terminal closed: still running 60 s later: $(for p in $left; do tr '\0' ' ' </proc/$p/cmdline; echo; done)" false
	kill -9 $left 2>/dev/null
fi
# make or the workbook, living on at least half a second and using a tenth of a core meanwhile, spun: a
# wait costs next to nothing, and a spin beside the endless kernel gets a quarter of a core or more (the endless kernel's
# runner spins by design until it is stopped)
for p in "${!last_seen[@]}"; do
	[ -n "${first_ticks[$p]:-}" ] && [[ " $ui " == *" $p "* ]] || continue
	spun=$(awk -v a="$closed" -v b="${last_seen[$p]}" -v used=$((last_ticks[$p] - first_ticks[$p])) -v hz="$tick" \
		'BEGIN { if (b - a >= 0.5 && used / hz > (b - a) / 10) printf "%.1f s of CPU in %.1f s", used / hz, b - a }')
	check "process $p spun after its terminal closed: $spun" "[ -z '$spun' ]"
done

check "the editor ran twice, on the copy" "[ \$(grep -c '$wb/exercises/$first.cu' '$work/edits/log') = 2 ]"
check "the repo's own exercise is untouched" "[ \"\$(sha1sum < '$repo/exercises/$first.cu')\" = '$repo_sum' ]"
awk -v a="$t0" -v b="$t1" -v c="$t2" -v d="$t3" \
	'BEGIN { printf "grading on the simulator, key to verdict on screen: the starter %.1f s, the fix %.1f s\n", b - a, d - c }'

finish walk
