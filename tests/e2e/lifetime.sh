#!/usr/bin/env bash
# Nothing a grading starts outlives the grader: killed with SIGKILL, SIGTERM
# or SIGINT in the middle of a case (a kernel that never ends), its runner is
# gone a moment later; killed with SIGKILL in the middle of a compile that
# never ends (grading and batch), no compiler or helper of it is left. A
# compile that never ends is stopped at the limit, and said so. Polls with
# generous bounds (a loaded machine is slow); no timing is asserted.
set -u
cd "$(dirname "$0")/../.."
source tests/lib.sh
source tests/proc.sh
g=build/cudalings
cat >"$tmp/endless.cu" <<'CU'
#include "cudalings/col_sums.h"
__global__ void spin(float *s) { volatile float x = 0; for (;;) x += 1; s[0] = x; }
void col_sums_launch(const float *a, float *s, int rows, int cols) { spin<<<1, 1>>>(s); }
CU
for sig in KILL TERM INT; do
	# a background job starts with SIGINT ignored; a student's Ctrl-C reaches a grader that is not
	python3 -c 'import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execvp(sys.argv[1], sys.argv[1:])' \
		$g grade col_sums --file "$tmp/endless.cu" --backend sim >/dev/null 2>&1 &
	grader=$!
	# wait until its runner is running the case (a compile first: seconds, many on a loaded machine)
	if ! wait_until 120 proc_sim_runners col_sums "$tmp/endless.cu" >/dev/null; then
		bad "SIG$sig: the runner never started"
		kill -9 $grader 2>/dev/null
		continue
	fi
	kill -$sig $grader
	proc_none_left "SIG$sig to the grader in mid-case" proc_sim_runners col_sums "$tmp/endless.cu" 2>/dev/null
	wait $grader 2>/dev/null || true
done
# A compile that never ends: the file includes a FIFO nobody writes, so the preprocessors of g++ and of
# nvcc's front end (cc1plus, grandchildren of the grader) wait in open() for ever. The grader and all
# it starts carry a mark in their environment, so every process of this test is found in /proc
# (procps may be missing on a bare machine), whatever became of its parent.
mkdir -p "$tmp/fifo" "$tmp/class"
mkfifo "$tmp/fifo/never.h"
printf '#include "cudalings/col_sums.h"\n#include "%s/fifo/never.h"\n%s\n' "$tmp" \
	'void col_sums_launch(const float *a, float *s, int rows, int cols) {}' >"$tmp/class/hangs.cu"
mark="lifetime-$$-$RANDOM"
# kill -9 whatever "$@" starts once a compiler's helper (cc1plus, cicc, cudafe++: a grandchild of the
# grader) waits: nothing it started may be left
kill_mid_compile() {
	local what=$1 starter
	shift
	env CUDALINGS_LIFETIME_MARK="$mark" "$@" >/dev/null 2>&1 &
	starter=$!
	if ! wait_until 120 proc_compiling "$mark"; then
		bad "$what: no compiler's helper ever waited on the FIFO"
	else
		kill -9 "$starter"
		# (bash's word on its killed job, said wherever the shell next looks, is no news here)
		proc_none_left "kill -9 of $what mid-compile" proc_marked "$mark" 2>/dev/null
	fi
	{ wait "$starter"; } 2>/dev/null
}
kill_mid_compile "a grading" $g grade col_sums --file "$tmp/class/hangs.cu" --backend sim
kill_mid_compile "a batch" $g batch col_sums "$tmp/class" --out "$tmp/batch" --backend sim

# stopped at the compile limit (lowered for the test), and the verdict's first line says so
json=$(env CUDALINGS_COMPILE_LIMIT=2 $g grade col_sums --file "$tmp/class/hangs.cu" --backend sim --json 2>/dev/null)
if python3 -c '
import json, sys
r = json.loads(sys.argv[1])
assert r["stage"] == "compile" and "the compiler ran past its 2 s limit" in r["message"].split("\n")[0], r["message"]
assert r["diagnostics"][0]["kind"] == "compile_time", r["diagnostics"]' "$json"; then
	ok "a compile that never ends: stopped at the limit, and the verdict says the compiler ran too long"
else
	bad "a compile that never ends: $(head -c 300 <<<"$json")"
fi
kill -9 $(proc_marked "$mark") 2>/dev/null

finish lifetime
