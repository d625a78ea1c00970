#!/usr/bin/env bash
# Submissions that try to crash, hang, flood or fool the grader, and
# legitimate fast kernels that it must pass. Each names its exercise, the
# stage it must fail at (or "pass") and a piece of the message the student
# must see:
#   // exercise: NAME    // expect: STAGE    // message: TEXT    [// sim-only | // gpu-only]
#   [// nvcc: rejects]   nvcc's front end refuses it (on the simulator too, where
#                        nvcc is installed); without nvcc it is skipped, and said so
# and, where a GPU gives another verdict than the simulator (a launcher whose calls change from one call to
# the next: on a GPU the grader replays each case's first calls), what the GPU must give, with `|` between
# alternatives any of which will do:
#   // gpu-expect: STAGE[|STAGE…]    // gpu-message: TEXT[|TEXT…]
# BACKEND=gpu|sim picks the backend (default: what the grader picks).
# JOBS=N grades N files at once (default 2; 1 on a GPU, whose timings two
# gradings at once would spoil); the results print in file order. Files
# given as arguments are graded instead of all of tests/adversarial/.
set -u
cd "$(dirname "$0")/../.."
export g=build/cudalings backend=${BACKEND:-}
on_gpu=false
if [ "$backend" = gpu ] || { [ -z "$backend" ] && { [ -e /dev/nvidiactl ] || [ -e /dev/nvidia0 ]; }; }; then
	on_gpu=true
fi
export on_gpu
nvcc=${CUDALINGS_NVCC:-$(command -v nvcc || { [ -x /usr/local/cuda/bin/nvcc ] && echo /usr/local/cuda/bin/nvcc; })}
export nvcc
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export out

# One file: its line of the report in $out/NAME.line, and "ok", "bad" or "skip" as its first word
# (a skip is said only where its reason is worth a line).
grade_one() {
	f=$1
	field() { sed -n "s|^// $1: \(.*\)|\1|p" "$f" | head -1; }
	exercise=$(field exercise) expect=$(field expect) message=$(field message)
	if $on_gpu && [ -n "$(field gpu-expect)" ]; then
		expect=$(field gpu-expect) message=$(field gpu-message)
	fi
	report=$out/$(basename "$f").line
	# a race a GPU may hide is the simulator's to catch; a timing trick, the GPU's
	if { $on_gpu && grep -q '^// sim-only' "$f"; } || { ! $on_gpu && grep -q '^// gpu-only' "$f"; }; then
		echo skip >"$report"
		return
	fi
	if grep -q '^// nvcc: rejects' "$f" && [ -z "$nvcc" ]; then
		printf 'skip %-44s only nvcc refuses it, and no nvcc is installed\n' "$f" >"$report"
		return
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
	# alternatives only where the GPU's expectation names them (no plain message holds a '|')
	local expected=false said=false
	case "|$expect|" in *"|$got|"*) expected=true ;; esac
	[ -n "$message" ] || said=true
	IFS='|' read -ra texts <<<"$message"
	for text in "${texts[@]}"; do grep -qF -- "$text" <<<"$verdict" && said=true; done
	if $expected && $said && { [ "$got" = pass ] || [ "$status" = 1 ]; }; then
		printf 'ok   %-44s %-12s %ss\n' "$f" "$got" "$(($(date +%s) - t0))" >"$report"
	else
		printf 'bad  %s: expected %s with "%s", got %s (exit %s):\n%s\n' "$f" "$expect" "$message" "$got" "$status" \
			"$(tail -n +2 <<<"$verdict" | head -8)" >"$report"
	fi
}
export -f grade_one

t0=$(date +%s)
files=("$@")
[ ${#files[@]} -gt 0 ] || files=(tests/adversarial/*.cu)
jobs=${JOBS:-$($on_gpu && echo 1 || echo 2)}
printf '%s\n' "${files[@]}" | xargs -P "$jobs" -I{} bash -c 'grade_one "$1"' _ {}
passed=0 failed=0 skipped=0
for f in "${files[@]}"; do
	line=$(cat "$out/$(basename "$f").line" 2>/dev/null || echo "bad  $f: no result")
	case $line in
	skip*) skipped=$((skipped + 1)); [ "$line" = skip ] || echo "  $line" ;;
	ok*) passed=$((passed + 1)); echo "  $line" ;;
	*) failed=$((failed + 1)); echo "  ${line/#bad /BAD}" ;;
	esac
done
echo "adversarial: $passed passed, $failed failed${skipped:+, $skipped skipped} in $(($(date +%s) - t0)) s"
[ "$failed" = 0 ]
