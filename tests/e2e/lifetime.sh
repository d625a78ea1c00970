#!/usr/bin/env bash
# Nothing a grading starts outlives the grader: killed with SIGKILL, SIGTERM
# or SIGINT in the middle of a case (a kernel that never ends), its runner is
# gone a moment later. Polls for up to 5 s; no timing is asserted beyond that.
set -u
cd "$(dirname "$0")/../.."
source tests/proc.sh
g=build/cudalings
passed=0 failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/endless.cu" <<'CU'
#include "cudalings/col_sums.h"
__global__ void spin(float *s) { volatile float x = 0; for (;;) x += 1; s[0] = x; }
void col_sums_launch(const float *a, float *s, int rows, int cols) { spin<<<1, 1>>>(s); }
CU
# this test's runner: the one loading the object built from endless.cu (other suites of make test may
# grade col_sums at the same time), found by the #line its rewritten source starts with
runners() {
	local src
	src=$(grep -lF "\"$tmp/endless.cu\"" build/sim/sub/col_sums-*/col_sums.sim.cpp 2>/dev/null | head -1)
	[ -n "$src" ] && proc_find "runner/col_sums .*--student $PWD/${src%/*}/" || true
}
for sig in KILL TERM INT; do
	# a background job starts with SIGINT ignored; a student's Ctrl-C reaches a grader that is not
	python3 -c 'import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execvp(sys.argv[1], sys.argv[1:])' \
		$g grade col_sums --file "$tmp/endless.cu" --backend sim >/dev/null 2>&1 &
	grader=$!
	# wait until its runner is running the case
	for _ in $(seq 100); do [ -n "$(runners)" ] && break; sleep 0.1; done
	if [ -z "$(runners)" ]; then
		echo "  BAD  SIG$sig: the runner never started"
		failed=$((failed + 1))
		kill -9 $grader 2>/dev/null
		continue
	fi
	kill -$sig $grader
	for _ in $(seq 50); do [ -z "$(runners)" ] && break; sleep 0.1; done
	if [ -z "$(runners)" ]; then
		echo "  ok   SIG$sig to the grader in mid-case: no runner left"
		passed=$((passed + 1))
	else
		echo "  BAD  SIG$sig to the grader in mid-case: a runner outlived it: $(runners)"
		kill -9 $(runners) 2>/dev/null
		failed=$((failed + 1))
	fi
	wait $grader 2>/dev/null || true
done
echo "lifetime: $passed passed, $failed failed"
[ "$failed" = 0 ]
