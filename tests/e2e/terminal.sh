#!/usr/bin/env bash
# make grade at a terminal (a pseudo-terminal, tests/e2e/pty_run.py): the progress line rewritten in
# place, then the verdict with make's exit status the grader's and no line of make's own; Ctrl-C in
# mid-case says "interrupted", ends with status 130 and leaves no process or half-made file behind.
# Without a terminal, no control codes. Needs no GPU; nothing timed is asserted.
set -u
cd "$(dirname "$0")/../.."
source tests/lib.sh
source tests/proc.sh
pty=tests/e2e/pty_run.py
# a student's make, not a sub-make of make test's: no jobserver to find, no "make[1]:" in its words
unset MAKEFLAGS MFLAGS MAKELEVEL
# a student's terminal, whatever this test was started from (make test in a bare root runs with TERM=dumb,
# under which the grader rightly draws no progress line)
export BACKEND=sim NO_COLOR=1 TERM=xterm

# check_output WHAT STATUS WANT_STATUS OUTPUT REGEX...: the status, and each REGEX (a leading ! wants no match)
check_output() {
	local what=$1 status=$2 want=$3 out=$4 bad=""
	shift 4
	[ "$status" = "$want" ] || bad="status $status, not $want"
	for re in "$@"; do
		if [ "${re#!}" != "$re" ]; then
			grep -qaE -- "${re#!}" <<<"$out" && bad="$bad; /${re#!}/ is there"
		else
			grep -qaE -- "$re" <<<"$out" || bad="$bad; no /$re/"
		fi
	done
	if [ -z "$bad" ]; then
		ok "$what"
	else
		bad "$what: $bad" "$(cat -v <<<"$out" | tail -c 3000)"
	fi
}

cat >"$tmp/endless.cu" <<'CU'
#include "cudalings/col_sums.h"
__global__ void spin(float *s) { volatile float x = 0; for (;;) x += 1; s[0] = x; }
void col_sums_launch(const float *a, float *s, int rows, int cols) { spin<<<1, 1>>>(s); }
CU
cat >"$tmp/zero.cu" <<'CU'
#include "cudalings/col_sums.h"
__global__ void zero(float *s, int cols) { int c = blockIdx.x * blockDim.x + threadIdx.x; if (c < cols) s[c] = 0; }
void col_sums_launch(const float *a, float *s, int rows, int cols) { zero<<<(cols + 255) / 256, 256>>>(s, cols); }
CU
esc=$'\033'

out=$(python3 $pty -- make --no-print-directory grade EX=col_sums FILE=solutions/col_sums.cu)
check_output "a pass: status 0, the stages and the cases on one line, then the verdict" $? 0 "$out" \
	"compiling solutions/col_sums.cu…" "${esc}\[K  running 8 cases: case 8 of 8, [0-9]+x[0-9]+…" \
	"PASS  all 8 cases correct" "!make(\[[0-9]+\])?: "
# every case line the report prints is counted in its verdict, and the JSON has as many
lines=$(grep -c '^  case ' <<<"$(tr -d '\r' <<<"$out" | sed "s/.*${esc}\[K//")")
check_output "the verdict counts the case lines it prints" "$lines" 8 "$out"

out=$(python3 $pty -- make --no-print-directory grade EX=col_sums FILE="$tmp/zero.cu")
check_output "a fail: make exits 1 as the grader does, with no line of make's own" $? 1 "$out" \
	"FAIL  at correctness" "more hints, one at a time: build/cudalings hint col_sums" "!make(\[[0-9]+\])?: " "!Error 1"

out=$(python3 $pty -- make --no-print-directory grade EX=nosuch)
check_output "a usage error: make exits 2, the grader's message only" $? 2 "$out" "there is no exercise 'nosuch'" \
	"!make(\[[0-9]+\])?: \*\*\*"

out=$(python3 $pty --interrupt-on 'case 1 of 8' -- make --no-print-directory grade EX=col_sums FILE="$tmp/endless.cu")
status=$?
check_output "Ctrl-C in mid-case: interrupted, status 130, no line of make's" "$status" 130 "$out" "${esc}\[Kinterrupted" \
	"!make(\[[0-9]+\])?: " "!FAIL"
# the runner of this grading: the one loading the object built from endless.cu
proc_none_left "Ctrl-C" proc_sim_runners col_sums "$tmp/endless.cu"
# a Ctrl-C while the object is being built leaves no half-made file. Only this file's build folder is looked
# at, found by the #line its rewritten source starts with: it is keyed by the file's path, so no other grading
# builds there, while other suites beside this one leave files named NAME.tmp-PID elsewhere under build/ (a
# batch killed with -9 in mid-build, a rewritten header kept beside its source)
src=$(grep -lF "\"$tmp/endless.cu\"" build/sim/sub/col_sums-*/col_sums.sim.cpp 2>/dev/null | head -1)
dir=${src%/*}
[ -n "$src" ] || bad "no build folder for $tmp/endless.cu"
touch "$tmp/endless.cu"
out=$(python3 $pty --interrupt-on 'compiling' -- build/cudalings grade col_sums --file "$tmp/endless.cu")
check_output "Ctrl-C while compiling: interrupted, status 130" $? 130 "$out" "interrupted"
# the grader has ended (pty_run.py waited for it), and removed what it had half made before it did (in the
# folder, or in the one of its own, FOLDER.PID, it builds in where another grading holds the folder)
check_output "Ctrl-C while compiling: no half-made file in $dir" "$([ -n "$dir" ] && find "$dir" "$dir".* -name '*.tmp-*' 2>/dev/null)" "" ""

# no terminal: the same verdict, no control code, the status still the grader's
out=$(make --no-print-directory grade EX=col_sums FILE="$tmp/nosuch.cu" 2>&1)
check_output "no terminal, a bad file: status 2, no make line" $? 2 "$out" "cannot read" "!make(\[[0-9]+\])?: \*\*\*"
out=$(make --no-print-directory grade EX=col_sums FILE=solutions/col_sums.cu 2>&1)
check_output "no terminal: no control codes" $? 0 "$out" "PASS  all 8 cases" "!$esc"

finish terminal
