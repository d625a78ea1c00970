#!/usr/bin/env bash
# The exercises whose budgets decide on a GPU too (budgets_on_gpu in
# workbook.json), on a GPU: every solution, gold solution, legitimate file
# (tests/adversarial, tests/redteam: "expect: pass") and memory mistake of
# theirs graded with the figures Nsight Compute measured over one launch of
# the timed case; then what the point costs a grading, edit to verdict,
# against the same grading with budgets_on_gpu taken out. A measurement,
# not a test (tests/gpu/run.sh holds the expectations).
#   bash bench/ncu_budgets.sh   (OUT set: also $OUT/ncu-budgets.md)
set -u
cd "$(dirname "$0")/.."
source bench/ncu_gradings.sh
names=$(python3 -c 'import json; print(" ".join(i["name"] for i in json.load(open("workbook.json"))["items"] if i.get("budgets_on_gpu")))')
for n in $names; do
	for f in solutions/$n.cu solutions/gold/$n.cu $(grep -l "^// exercise: $n\$" tests/adversarial/*.cu tests/redteam/*.cu tests/mistakes/$n/*.cu 2>/dev/null); do
		[ -f "$f" ] || continue
		expect=$(sed -n 's|^// expect: \(.*\)|\1|p' "$f" | head -1)
		diagnosis=$(sed -n 's|^// diagnosis: \(.*\)|\1|p' "$f" | head -1)
		case $f:${expect:-pass}:$diagnosis in
		solutions/*) echo "$n $f pass" ;;
		tests/mistakes/*:uncoalesced | tests/mistakes/*:bank_conflicts) echo "$n $f $diagnosis" ;;
		tests/adversarial/*:pass:* | tests/redteam/*:pass:*) echo "$n $f pass" ;;
		esac
	done
done >"$tmp/list"
# the instructor's side of each exercise, built once before the clock matters
for n in $names; do $g grade "$n" --backend gpu --no-timing --json >/dev/null 2>&1; done
# 1. correctness and the point, three gradings at a time, timed (a --no-timing grading measures no point)
table=$(ncu_verdicts "$tmp/list")
# 2. edit to verdict, timed: the naive transpose turned round, and the solutions, with the point and without
for pass in on off; do
	[ $pass = off ] && budgets_off
	for n in $names; do
		grade_timed $n solutions/$n.cu $pass first later
		[ -f tests/mistakes/$n/naive_coalesced_writes.cu ] && grade_timed $n tests/mistakes/$n/naive_coalesced_writes.cu $pass first later
	done
done
cp "$tmp/workbook.json" workbook.json
device=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)
out="## The exercises' budgets on a GPU, ${device:-no GPU}, $(date -u +%Y-%m-%d), $(ncu --version 2>/dev/null | tail -1)

\`bash bench/ncu_budgets.sh\`. Figures: Nsight Compute's, over the student's kernels in one launch at the
timed size (the harness's own kernels outside the profiler's range); sectors per request against the
fewest the bytes need (4 for a warp's 32 neighbouring floats), loads and stores weighed by the bytes each
asked for, as the simulator counts them; a figure passes up to budget × 1.25 + 0.5.

$table

### Edit to verdict, with the point and without it (timed gradings, one at a time)

$timed"
printf '%s\n' "$out"
[ -n "${OUT:-}" ] && printf '%s\n' "$out" >"$OUT/ncu-budgets.md"
exit 0
