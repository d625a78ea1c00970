#!/usr/bin/env bash
# Nothing a grading starts outlives the grader: killed with SIGKILL, SIGTERM
# or SIGINT in the middle of a case (a kernel that never ends), its runner is
# gone a moment later; killed with SIGKILL in the middle of a compile that
# never ends (grading and batch), no compiler or helper of it is left. A
# compile that never ends is stopped at the limit, and said so. Polls for up
# to 5 s; no timing is asserted beyond that.
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
# A compile that never ends: the file includes a FIFO nobody writes, so the preprocessors of g++ and of
# nvcc's front end (cc1plus, grandchildren of the grader) wait in open() for ever. The grader and all
# it starts carry a mark in their environment, so every process of this test is found in /proc
# (procps may be missing on a bare machine), whatever became of its parent.
mkdir -p "$tmp/fifo" "$tmp/class"
mkfifo "$tmp/fifo/never.h"
printf '#include "cudalings/col_sums.h"\n#include "%s/fifo/never.h"\n%s\n' "$tmp" \
	'void col_sums_launch(const float *a, float *s, int rows, int cols) {}' >"$tmp/class/hangs.cu"
mark="lifetime-$$-$RANDOM"
marked() {
	local e
	for e in $(grep -lzx "CUDALINGS_LIFETIME_MARK=$mark" /proc/[0-9]*/environ 2>/dev/null); do
		echo "${e//[^0-9]/}"
	done
}
# a marked compiler's helper (cc1plus, cicc, cudafe++) is waiting: a grandchild of the grader
helper_waits() {
	local p
	for p in $(marked); do
		case $(cat "/proc/$p/comm" 2>/dev/null) in cc1plus | cicc | cudafe++) return 0 ;; esac
	done
	return 1
}
# kill -9 whatever "$@" starts once a compiler's helper waits: nothing it started may be left (polled for
# up to 5 s, on a busy machine; the time it took is said)
kill_mid_compile() {
	local what=$1 starter
	shift
	env CUDALINGS_LIFETIME_MARK="$mark" "$@" >/dev/null 2>&1 &
	starter=$!
	for _ in $(seq 300); do helper_waits && break; sleep 0.1; done
	if ! helper_waits; then
		echo "  BAD  $what: no compiler's helper ever waited on the FIFO"
		failed=$((failed + 1))
	else
		kill -9 "$starter"
		t0=$(date +%s%N)
		for _ in $(seq 50); do [ -z "$(marked)" ] && break; sleep 0.1; done
		left=$(marked)
		if [ -z "$left" ]; then
			echo "  ok   kill -9 of $what mid-compile: nothing left after $((($(date +%s%N) - t0) / 1000000)) ms"
			passed=$((passed + 1))
		else
			echo "  BAD  kill -9 of $what mid-compile left:$(for p in $left; do printf ' %s(%s)' "$p" "$(cat /proc/$p/comm 2>/dev/null)"; done)"
			kill -9 $left 2>/dev/null
			failed=$((failed + 1))
		fi
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
	echo "  ok   a compile that never ends: stopped at the limit, and the verdict says the compiler ran too long"
	passed=$((passed + 1))
else
	echo "  BAD  a compile that never ends: $(head -c 300 <<<"$json")"
	failed=$((failed + 1))
fi
[ -z "$(marked)" ] || kill -9 $(marked) 2>/dev/null

echo "lifetime: $passed passed, $failed failed"
[ "$failed" = 0 ]
