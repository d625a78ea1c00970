#!/usr/bin/env bash
# Submissions that try to crash, hang, flood or fool the grader. Each names
# its exercise, the stage it must fail at (or "pass" for a flood that is
# otherwise correct) and a piece of the message the student must see:
#   // exercise: NAME    // expect: STAGE    // message: TEXT    [// sim-only | // gpu-only]
# BACKEND=gpu|sim picks the backend (default: what the grader picks).
set -u
cd "$(dirname "$0")/../.."
g=build/cudalings
backend=${BACKEND:-}
passed=0 failed=0 skipped=0
for f in tests/adversarial/*.cu; do
	field() { sed -n "s|^// $1: \(.*\)|\1|p" "$f" | head -1; }
	exercise=$(field exercise) expect=$(field expect) message=$(field message)
	on_gpu=false
	if [ "$backend" = gpu ] || { [ -z "$backend" ] && { [ -e /dev/nvidiactl ] || [ -e /dev/nvidia0 ]; }; }; then
		on_gpu=true
	fi
	# a race a GPU may hide is the simulator's to catch; a timing trick, the GPU's
	if { $on_gpu && grep -q '^// sim-only' "$f"; } || { ! $on_gpu && grep -q '^// gpu-only' "$f"; }; then
		skipped=$((skipped + 1))
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
print(r["message"] + "\n" + "\n".join(c["message"] for c in r["cases"]) + "\n" + r.get("compile_output", ""))' "$json")
	got=$(head -1 <<<"$verdict")
	if [ "$got" = "$expect" ] && grep -qF -- "$message" <<<"$verdict" && { [ "$expect" = pass ] || [ "$status" = 1 ]; }; then
		passed=$((passed + 1))
		printf '  ok   %-44s %-12s %ss\n' "$f" "$got" "$(($(date +%s) - t0))"
	else
		failed=$((failed + 1))
		printf '  BAD  %s: expected %s with "%s", got %s (exit %s):\n%s\n' "$f" "$expect" "$message" "$got" "$status" "$(tail -n +2 <<<"$verdict" | head -8)"
	fi
done
echo "adversarial: $passed passed, $failed failed${skipped:+, $skipped skipped}"
[ "$failed" = 0 ]
