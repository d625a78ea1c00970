#!/usr/bin/env bash
# Typical mistakes, each with the diagnosis it must get. Every file names its
# exercise, the diagnosis kind that must come first in the grade's
# "diagnostics" (the one the hint is chosen by), a piece of that diagnosis's
# message, and optionally the stage it must fail at:
#   // exercise: NAME    // expect: KIND    // message: TEXT    [// stage: STAGE]
# BACKEND=gpu grades on the GPU, untimed, with --profile where the diagnosis is
# a memory figure and --sanitize otherwise (compute-sanitizer and Nsight
# Compute then make the diagnoses); files marked "// sim-only" (a read of
# unwritten shared memory, which no GPU tool reports) are skipped there. The
# default is the simulator. Ends with "mistakes: N passed, M failed".
set -u
cd "$(dirname "$0")/../.."
g=build/cudalings
backend=${BACKEND:-sim}
passed=0 failed=0 skipped=0
for f in tests/mistakes/*/*.cu; do
	field() { sed -n "s|^// $1: \(.*\)|\1|p" "$f" | head -1; }
	exercise=$(field exercise) expect=$(field expect) message=$(field message) stage=$(field stage)
	tools=()
	if [ "$backend" = gpu ]; then
		if grep -q '^// sim-only' "$f"; then
			skipped=$((skipped + 1))
			continue
		fi
		case $expect in
		bank_conflicts | uncoalesced | global_reads) tools=(--profile --no-timing) ;;
		*) tools=(--sanitize --no-timing) ;;
		esac
	fi
	json=$($g grade "$exercise" --file "$f" --backend "$backend" "${tools[@]}" --json 2>/dev/null)
	status=$?
	got=$(python3 -c '
import json, sys
try:
    r = json.loads(sys.argv[1])
except Exception:
    print("no-json"); sys.exit()
d = r["diagnostics"]
print(d[0]["kind"] if d else "none")
print(r["stage"] or "none")
print("hint" if r["hint"] else "no-hint")
print(d[0]["message"] if d else r["message"])' "$json")
	kind=$(sed -n 1p <<<"$got") got_stage=$(sed -n 2p <<<"$got") hint=$(sed -n 3p <<<"$got") said=$(sed -n 4p <<<"$got")
	if [ "$status" = 1 ] && [ "$kind" = "$expect" ] && grep -qF -- "$message" <<<"$said" &&
		[ "$hint" = hint ] && { [ -z "$stage" ] || [ "$got_stage" = "$stage" ]; }; then
		passed=$((passed + 1))
		printf '  ok   %-52s %s\n' "$f" "$kind"
	else
		failed=$((failed + 1))
		printf '  BAD  %s: expected %s%s with "%s" and a hint, got %s at %s (%s, exit %s):\n    %s\n' "$f" "$expect" \
			"${stage:+ at $stage}" "$message" "$kind" "$got_stage" "$hint" "$status" "$said"
	fi
done
echo "mistakes: $passed passed, $failed failed$([ "$skipped" = 0 ] || echo ", $skipped skipped")"
[ "$failed" = 0 ]
