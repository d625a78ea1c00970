#!/bin/bash
# cudalings-tui end to end, against golden screens: a small fixture workbook
# and a fake grader (tests/tui/fake-cudalings) keep every screen the same
# from run to run.  UPDATE_GOLDEN=1 rewrites tests/tui/golden/.
set -u
source "$(dirname "$0")/lib.sh"

work=$(mktemp -d /tmp/cudalings-tui-e2e.XXXXXX)
trap 'T kill-server 2>/dev/null; rm -rf "$work"' EXIT
wb=$work/wb
cp -r "$repo/tests/tui/fixtures/workbook" "$wb"
mkdir -p "$work/edits"
env="CUDALINGS_GRADER='$repo/tests/tui/fake-cudalings' EDITOR='$repo/tests/tui/scripted-editor' EDITS='$work/edits'"

echo "== a first visit"
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
wait_for "shows up as a wrong answer"
golden 04-lesson-end
keys g
wait_for "Sum each column"

echo "== grade the starter: a failure, then a hint"
keys c
wait_for "fails at correctness"
golden 05-results-fail
keys h
wait_for "1. Every column needs"
golden 06-hint

echo "== edit (the scripted editor puts the solution in), grade again: a pass"
echo solution > "$work/edits/next"
keys e
wait_for "back from editing"
check "the editor was run on the exercise" "grep -q 'solution $wb/exercises/col_sums.cu' '$work/edits/log'"
keys c
wait_for "is correct on the simulator"
golden 07-results-pass
keys q q
wait_for "2 of 4 done"
golden 08-list-progress
keys s
wait_for "Solution: Column sums"
golden 09-solution
keys q Q
wait_for "[exited 0]"

echo "== reopen: the progress is kept"
check "state.json was written" "grep -q correct_on_sim '$wb/.cudalings/state.json'"
start "$wb" "$env"
wait_for "2 of 4 done"
golden 10-reopen
keys '?'
wait_for "Keys"
golden 11-help
keys q
keys k r
wait_for "graded in an earlier session"
golden 11b-earlier-report
keys q j
wait_for "▸ ○  3"

echo "== a grading that hangs: Esc kills it"
echo HANG >> "$wb/exercises/row_sums.cu"
keys c
wait_for "compiling exercises/row_sums.cu"
golden 12-progress
pid=$(cat "$wb/grader.pid")
keys Escape
wait_for "grading row_sums cancelled"
golden 13-cancelled
sleep 0.2
check "the hung grader is gone" "! kill -0 $pid 2>/dev/null || grep -q '^State:.*Z' /proc/$pid/status"

echo "== a compile error shows its line"
printf '__global__ void row_sums()\n{\n    int r = 0 SYNTAX\n}\n' > "$wb/exercises/row_sums.cu"
keys c
wait_for "fails at compile"
golden 14-compile

echo "== on a GPU, a kernel too slow: the timing chart"
{ cat "$wb/solutions/row_sums.cu"; echo '// SLOW'; } > "$wb/exercises/row_sums.cu"
keys c
wait_for "fails at performance"
golden 20-timing

echo "== watch mode grades on every save, renames included"
keys w
wait_for "watching exercises/row_sums.cu"
cp "$wb/solutions/row_sums.cu" "$wb/exercises/.row_sums.cu.new"
mv "$wb/exercises/.row_sums.cu.new" "$wb/exercises/row_sums.cu"
wait_for "Row sums, the slow way round is correct on the simulator"
golden 15-watch
keys w
wait_for "stopped watching"

echo "== reset to the starter"
keys R
wait_for "Reset exercises/row_sums.cu to its starter?"
keys y
wait_for ".cudalings/backup/row_sums.cu"
check "the starter is back" "cmp -s '$wb/starters/row_sums.cu' '$wb/exercises/row_sums.cu'"
check "the student's version is kept" "cmp -s '$wb/solutions/row_sums.cu' '$wb/.cudalings/backup/row_sums.cu'"
keys q
wait_for "Row sums, the slow way round                   not started"
golden 16-after-reset

echo "== a demo runs its variants"
keys G c
wait_for "The run finished."
golden 21-demo
keys q

echo "== search, and a resize"
keys / intro Enter
wait_for "▸ ✓  1"
T resize-window -t tui -x 100 -y 30
wait_for "Progress"
golden 17-resize-100x30
keys Q
wait_for "[exited 0]"

echo "== a corrupt progress file is set aside, not fatal"
echo '{"items": {"col_sums": ' > "$wb/.cudalings/state.json"
start "$wb" "$env"
wait_for "started afresh"
golden 18-corrupt-state
check "the bad file is kept" "[ -f '$wb/.cudalings/state.json.corrupt' ]"
keys Q
wait_for "[exited 0]"

echo "== no UTF-8 locale: ASCII"
start "$wb" "$env LC_ALL=C LANG=C"
wait_for "0 of 4 done"
keys j Enter
wait_for "Sum each column"
golden 19-ascii-lesson
keys Q
wait_for "[exited 0]"

echo "== Ctrl-C quits cleanly"
start "$wb" "$env"
wait_for "0 of 4 done"
keys C-c
wait_for "[exited 130]"

echo "== colours, unless NO_COLOR"
start "$wb" "$env NO_COLOR="
wait_for "0 of 4 done"
check "colour escapes on screen" "T capture-pane -e -p -t tui | grep -q $'\e\\[3[0-9]m'"
echo "== SIGTERM restores the terminal"
kill -TERM "$(T list-panes -t tui -F '#{pane_pid}' | xargs pgrep -P)"
wait_for "[exited 143]"
check "the screen is the shell's again" "! screen | grep -q 'Progress'"

echo "== a fatal error leaves curses first"
start "$work" "$env CUDALINGS_ROOT=/nonexistent"
wait_for "[exited 128]"
check "it says why" "screen | grep -q 'cudalings-tui: fatal: CUDALINGS_ROOT is .*/nonexistent'"
start "$wb" "$env TERM=dumb"
wait_for "[exited 128]"
check "a terminal that cannot move the cursor is refused" "screen | grep -q \"fatal: the terminal type 'dumb' cannot move the cursor\""

finish
