#!/usr/bin/env bash
# An outside judge's submissions, kept out of `make test`: legitimate fast
# kernels, cheats and honest mistakes for every graded exercise. Each names
# its exercise, what it must get and a piece of the message a student must
# see; `|` separates alternatives, any of which will do:
#   // exercise: NAME
#   // expect: pass | STAGE[|STAGE…]      (a fail at any of the stages listed)
#   // message: TEXT[|TEXT…]
#   [// sim-only | // gpu-only]           (graded on that backend only)
#   [// nvcc: rejects]                    (nvcc must refuse it: see NVCC=1)
# The message is looked for in the verdict, every case's message, the
# diagnoses, the hint and the compiler's output.
#
#   bash tests/redteam/run.sh [FILE…]               grade on the backend the grader picks
#   BACKEND=gpu bash tests/redteam/run.sh           grade on the GPU
#   NVCC=1 bash tests/redteam/run.sh                only compile each file with nvcc -arch=sm_90
#
# Prints one line per file (ok / BAD / skip) and a summary; exits 1 when any
# file did not get what it expects. `TSV=FILE` also writes file, expected,
# got and exit status, tab-separated, for the report.
set -u
cd "$(dirname "$0")/../.."
g=build/cudalings
backend=${BACKEND:-}
tsv=${TSV:-}
[ -n "$tsv" ] && : >"$tsv"
files=("$@")
[ ${#files[@]} = 0 ] && files=(tests/redteam/*.cu)

on_gpu=false
if [ "$backend" = gpu ] || { [ -z "$backend" ] && { [ -e /dev/nvidiactl ] || [ -e /dev/nvidia0 ]; }; }; then
	on_gpu=true
fi

passed=0 failed=0 skipped=0
for f in "${files[@]}"; do
	field() { sed -n "s|^// $1: \(.*\)|\1|p" "$f" | head -1; }
	exercise=$(field exercise) expect=$(field expect) message=$(field message)
	if [ -n "${NVCC:-}" ]; then
		# nvcc must take every file that is not meant to be refused by nvcc itself
		out=$(${NVCC_BIN:-nvcc} -std=c++17 -arch=sm_90 -Xcompiler -fPIC -c -I "build/gen/public/$exercise" \
			"$f" -o /dev/null 2>&1)
		status=$?
		if grep -q '^// nvcc: rejects' "$f"; then want=1; else want=0; fi
		if { [ $want = 0 ] && [ $status = 0 ]; } || { [ $want = 1 ] && [ $status != 0 ]; }; then
			passed=$((passed + 1))
			printf '  ok   %-62s nvcc %s\n' "$f" "$([ $status = 0 ] && echo accepts || echo rejects)"
		else
			failed=$((failed + 1))
			printf '  BAD  %s: nvcc exit %s\n%s\n' "$f" "$status" "$(head -5 <<<"$out")"
		fi
		continue
	fi
	if { $on_gpu && grep -q '^// sim-only' "$f"; } || { ! $on_gpu && grep -q '^// gpu-only' "$f"; }; then
		skipped=$((skipped + 1))
		printf '  skip %s\n' "$f"
		[ -n "$tsv" ] && printf '%s\t%s\tskipped\t-\n' "$f" "$expect" >>"$tsv"
		continue
	fi
	t0=$(date +%s)
	json=$($g grade "$exercise" --file "$f" ${backend:+--backend "$backend"} --json 2>/dev/null)
	status=$?
	verdict=$(python3 -c '
import json, sys
try:
    r = json.loads(sys.argv[1])
except Exception:
    print("no-json"); sys.exit()
print(r["verdict"] if r["verdict"] == "pass" else (r["stage"] or "error"))
texts = [r.get("message") or ""] + [c.get("message") or "" for c in r.get("cases", [])]
texts += [d.get("message") or "" for d in r.get("diagnostics", [])]
texts += [r.get("hint") or "", r.get("compile_output") or ""]
print("\n".join(t for t in texts if t))' "$json")
	got=$(head -1 <<<"$verdict")
	text=$(tail -n +2 <<<"$verdict")
	stage_ok=false message_ok=false
	IFS='|' read -ra stages <<<"$expect"
	for s in "${stages[@]}"; do
		[ "$got" = "$s" ] && stage_ok=true
	done
	IFS='|' read -ra pieces <<<"$message"
	for p in "${pieces[@]}"; do
		grep -qF -- "$p" <<<"$text" && message_ok=true
	done
	if $stage_ok && $message_ok && { [ "$expect" = pass ] || [ "$status" = 1 ]; }; then
		passed=$((passed + 1))
		printf '  ok   %-62s %-12s %ss\n' "$f" "$got" "$(($(date +%s) - t0))"
	else
		failed=$((failed + 1))
		printf '  BAD  %s: expected %s with "%s", got %s (exit %s):\n%s\n' "$f" "$expect" "$message" "$got" \
			"$status" "$(head -4 <<<"$text" | cut -c1-400)"
	fi
	[ -n "$tsv" ] && printf '%s\t%s\t%s\t%s\n' "$f" "$expect" "$got" "$status" >>"$tsv"
done
echo "redteam: $passed as expected, $failed not, $skipped skipped"
[ "$failed" = 0 ]
