#!/usr/bin/env bash
# The student's compile on the simulator reads cudasim.h precompiled
# (harness/runner.mk's SIM_PCH_DIR, made by sim/sim.mk): g++ takes a
# precompiled header only when its flags match the compile's, and falls
# back to the header without a word otherwise, so a flag added to one side
# alone would quietly cost every grading a third of its compile. The
# compile's own command line, run again with -H, must name the .gch first.
set -u
cd "$(dirname "$0")/../.."
source tests/lib.sh
{ cat solutions/col_sums.cu; echo "// pch $$ $(date +%N)"; } >"$tmp/col_sums.cu"
build/cudalings grade col_sums --file "$tmp/col_sums.cu" --backend sim >"$tmp/grade.log" 2>&1 ||
	{ echo "pch: FAIL: the solution did not pass: $(cat "$tmp/grade.log")"; exit 1; }
# this grading's build folder, found by the #line its rewritten source starts with: the newest of them all may
# be another suite's, graded beside this one, whose file is gone by the time its command is run again here
src=$(grep -lF "\"$tmp/col_sums.cu\"" build/sim/sub/col_sums-*/col_sums.sim.cpp 2>/dev/null | head -1)
cmdfile=${src%/*}/col_sums.o.cmd
[ -n "$src" ] && [ -f "$cmdfile" ] || { echo "pch: FAIL: no build folder for $tmp/col_sums.cu"; exit 1; }
# the command as the grader ran it (one word per argument, none with a space), its object elsewhere; where
# nvcc is installed the cache's key goes on with nvcc's front-end command, which is not the compile's
read -r -a words <"$cmdfile"
cmd=()
for w in "${words[@]}"; do
	[ "${w##*/}" = nvcc ] && break
	cmd+=("$w")
done
for i in "${!cmd[@]}"; do [ "${cmd[$i]}" = -o ] && cmd[$((i + 1))]=$tmp/again.o; done
first=$("${cmd[@]}" -H 2>&1 | head -1)
if [ "$first" = "! $(sh tools/runner-flags.sh SIM_PCH_DIR)/cudasim.h.gch" ]; then
	echo "pch: 1 passed, 0 failed"
else
	echo "pch: FAIL: the student's compile did not use the precompiled cudasim.h; g++ -H says: $first"
	exit 1
fi
