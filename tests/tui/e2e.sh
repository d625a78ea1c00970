#!/bin/bash
# cudalings-tui end to end, against golden screens: a small fixture workbook
# and a fake grader (tests/tui/fake-cudalings) keep every screen the same
# from run to run.  The student's loop runs at 80x24 and again at 200x60,
# each size with its own golden screens (tests/tui/golden/SIZE/); then, at
# 80x24, resizing, a student copy with no solutions, ASCII, and the ways
# the workbook ends.  UPDATE_GOLDEN=1 rewrites the golden screens.
set -u
source "$(dirname "$0")/tmux.sh"

mkdir -p "$work/edits"
env="CUDALINGS_GRADER='$repo/tests/tui/fake-cudalings' EDITOR='$repo/tests/tui/scripted-editor' EDITS='$work/edits'"

# fresh_workbook DIR: the fixture, as a student gets it
fresh_workbook() {
	rm -rf "$1"
	cp -r "$repo/tests/tui/workbook" "$1"
}

# save FILE TEXT-FILE: replace FILE as an editor that saves by rename does
save() {
	cp "$2" "$1.new"
	mv "$1.new" "$1"
}

loop_at() {
	size=$1
	local wb=$work/wb-$size
	fresh_workbook "$wb"
	echo "== $size: a first visit"
	start "$wb" "$env"
	wait_for "0 of 4 done"
	golden 01-list
	keys Enter
	wait_for "Most kernels"
	golden 02-lesson-intro
	keys q
	wait_for "1 of 4 done"
	keys j Enter
	wait_for "Sum each column"
	golden 03-lesson
	keys G
	wait_for "make grade EX=col_sums"
	golden 04-lesson-end
	echo "== $size: n and p go through the lessons"
	keys n
	wait_for "One thread per row"
	golden 05-lesson-next
	keys p
	wait_for "Sum each column"

	echo "== $size: grade the starter: a failure, then its hints one at a time"
	keys c
	wait_for "fails at correctness"
	golden 06-results-fail
	keys h
	wait_for "1. Which thread adds up column c?"
	golden 07-hint
	keys h h
	wait_for "That was the last hint."
	golden 08-hints-formulas
	echo "== $size: the solution, before a pass: asked first, the question whole"
	keys s
	wait_for "anyway?"
	golden 31-solution-asked
	keys n
	wait_for "That was the last hint."

	echo "== $size: edit (the scripted editor puts the solution in), grade again: a pass"
	echo solution > "$work/edits/next"
	keys e
	wait_for "back from editing"
	check "the editor was run on the exercise" "grep -q 'solution $wb/exercises/col_sums.cu' '$work/edits/log'"
	keys c
	wait_for "is correct on the simulator"
	golden 09-results-pass
	keys q q
	wait_for "2 of 4 done"
	golden 10-list-progress
	keys s
	wait_for "Solution: Column sums"
	golden 11-solution
	check "the solution is shown without its markers" "! screen | grep -q 'SOLUTION\|STARTER'"
	keys q Q
	wait_for "[exited 0]"

	echo "== $size: reopen: the progress is kept"
	check "state.json was written" "grep -q correct_on_sim '$wb/.cudalings/state.json'"
	start "$wb" "$env"
	wait_for "2 of 4 done"
	golden 12-reopen
	keys '?'
	wait_for "Keys"
	golden 13-help
	keys q
	keys k r
	wait_for "graded in an earlier session"
	golden 14-earlier-report
	keys q j
	wait_for "▸ ○  3"

	echo "== $size: a grading that hangs: Esc kills it"
	echo HANG >> "$wb/exercises/row_sums.cu"
	keys c
	wait_for "compiling exercises/row_sums.cu"
	golden 15-progress
	pid=$(cat "$wb/grader.pid")
	keys Escape
	wait_for "grading row_sums cancelled"
	golden 16-cancelled
	hung_grader_gone() { ! kill -0 "$pid" 2>/dev/null || grep -q '^State:.*Z' "/proc/$pid/status"; }
	check "the hung grader is gone" "wait_until 60 hung_grader_gone"

	echo "== $size: a compile error shows its line"
	printf '__global__ void row_sums()\n{\n    int r = 0 SYNTAX\n}\n' > "$wb/exercises/row_sums.cu"
	keys c
	wait_for "fails at compile"
	golden 17-compile

	echo "== $size: on a GPU, a kernel too slow: the timing chart and the limit"
	{ cat "$wb/solutions/row_sums.cu"; echo '// SLOW'; } > "$wb/exercises/row_sums.cu"
	keys c
	wait_for "fails at performance"
	golden 18-timing
	echo "== $size: a pass on a GPU: its tier, and the bar from the reference to the limit"
	{ cat "$wb/solutions/row_sums.cu"; echo '// FAST'; } > "$wb/exercises/row_sums.cu"
	keys c
	wait_for "passed on the GPU"
	keys G
	wait_for "The next: gold's"
	golden 19-gpu-pass

	echo "== $size: watch mode grades on every save (renames too): grading…, then how long it took"
	keys w
	wait_for "watching exercises/row_sums.cu"
	{ cat "$wb/solutions/row_sums.cu"; echo '// WAIT'; } > "$work/saved.cu"
	save "$wb/exercises/row_sums.cu" "$work/saved.cu"
	wait_for "Grading Row sums"
	golden 20-watch-grading
	touch "$wb/release"
	wait_for "Row sums, the slow way round is correct on the simulator"
	golden 21-watch-graded
	keys w
	wait_for "stopped watching"

	echo "== $size: reset to the starter"
	keys R
	wait_for "Reset exercises/row_sums.cu to its starter?"
	golden 32-reset-asked
	keys y
	wait_for ".cudalings/backup/row_sums.cu"
	check "the starter is back" "cmp -s '$wb/starters/row_sums.cu' '$wb/exercises/row_sums.cu'"
	check "the student's version is kept" "cmp -s '$work/saved.cu' '$wb/.cudalings/backup/row_sums.cu'"
	keys q
	wait_for "Row sums, the slow way round"
	wait_for "not started"
	golden 22-after-reset

	echo "== $size: a demo runs its variants"
	keys G c
	wait_for "The run finished."
	golden 23-demo
	keys Q
	wait_for "[exited 0]"
}

loop_at 80x24
loop_at 200x60
size=80x24

echo "== resizing redraws the whole screen: the same as a fresh start at that size"
wb=$work/wb-resize
fresh_workbook "$wb"
start "$wb" "$env"
wait_for "0 of 4 done"
resize 200x60
wait_for "status"
golden 01-list
resize 80x24
wait_for "status"
golden 01-list
keys Enter
wait_for "Most kernels"
resize 200x60
wait_for "Most kernels"
golden 02-lesson-intro
resize 100x30
wait_for "Most kernels"
golden 02-lesson-intro
resize 80x24
wait_for "Most kernels"
golden 02-lesson-intro
echo "== and a page scrolled down stays where it was when the screen is resized back"
keys q / col Enter Enter Space
wait_for "Why not rows?"
golden 30-lesson-scrolled
resize 200x60
wait_for "make grade EX=col_sums"
golden 03-lesson
resize 80x24
wait_for "Why not rows?"
golden 30-lesson-scrolled
keys q
wait_for "▸ ○  2"
resize 100x30
wait_for "Progress"
golden 24-list-resized
keys Q
wait_for "[exited 0]"
size=80x24

echo "== a student copy (tools/dist.sh ships no solutions): no solution is offered"
wb=$work/wb-copy
fresh_workbook "$wb"
rm -r "$wb/solutions"
start "$wb" "$env"
wait_for "0 of 4 done"
keys j c
wait_for "fails at correctness"
keys g
wait_for "? help"
golden 25-copy-results
keys s
wait_for "'s' does nothing here"
keys '?'
wait_for "Keys"
golden 26-copy-help
keys Q
wait_for "[exited 0]"

echo "== a corrupt progress file is set aside, not fatal"
wb=$work/wb-80x24
echo '{"items": {"col_sums": ' > "$wb/.cudalings/state.json"
start "$wb" "$env"
wait_for "started afresh"
golden 27-corrupt-state
check "the bad file is kept" "[ -f '$wb/.cudalings/state.json.corrupt' ]"
keys Q
wait_for "[exited 0]"

echo "== no UTF-8 locale: ASCII, the bars too"
start "$wb" "$env LC_ALL=C LANG=C"
wait_for "0 of 4 done"
keys j Enter
wait_for "Sum each column"
golden 28-ascii-lesson
{ cat "$wb/solutions/row_sums.cu"; echo '// FAST'; } > "$wb/exercises/row_sums.cu"
keys n c
wait_for "passed on the GPU"
keys G
wait_for "The next: gold's"
golden 29-ascii-gpu-pass
keys Q
wait_for "[exited 0]"

echo "== Ctrl-C quits cleanly"
start "$wb" "$env"
wait_for "of 4 done"
keys C-c
wait_for "[exited 130]"

echo "== quitting in mid-grade leaves nothing of the grading running"
for how in Escape q Q C-c; do
	echo HANG > "$wb/exercises/row_sums.cu"
	rm -f "$wb/grader.pid"
	start "$wb" "$env"
	wait_for "of 4 done"
	keys / row_sums Enter c
	wait_for "compiling exercises/row_sums.cu"
	pid=$(cat "$wb/grader.pid")
	case $how in
	q) keys q q ;;	# back to the list, then quit from it
	*) keys "$how" ;;
	esac
	[ "$how" = Escape ] && { wait_for "grading row_sums cancelled"; keys Q; }
	wait_for "[exited"
	check "after $how in mid-grade, the grader ($pid) and its group are gone" "wait_until 60 ! proc_group $pid >/dev/null"
done

echo "== colours, unless NO_COLOR"
start "$wb" "$env NO_COLOR="
wait_for "of 4 done"
coloured() { T capture-pane -e -p -t tui | grep -q $'\e\\[3[0-9]m'; }
check "colour escapes on screen" "wait_until 60 coloured"
echo "== SIGTERM restores the terminal"
kill -TERM "$(proc_children "$(T list-panes -t tui -F '#{pane_pid}')")"
wait_for "[exited 143]"
check "the screen is the shell's again" "! screen | grep -q 'Progress'"

echo "== a fatal error leaves curses first"
start "$work" "$env CUDALINGS_ROOT=/nonexistent"
wait_for "[exited 128]"
check "it says why" "screen | grep -q 'cudalings-tui: fatal: CUDALINGS_ROOT is .*/nonexistent'"
start "$wb" "$env TERM=dumb"
wait_for "[exited 128]"
check "a terminal that cannot move the cursor is refused" "screen | grep -q \"fatal: the terminal type 'dumb' cannot move the cursor\""

finish tui
