#!/usr/bin/env bash
# The tier's stability: each exercise's gold file graded N times in a row on
# the GPU (default 10; bench/tier_stability.sh [N] [EXERCISE…], transpose,
# sliding_average and matrix_add by default). Prints a markdown table per
# exercise: each grading's median, the gold's median in the same rounds, the
# noise the tier allows (grader/engine/verdict.c: verdict_tier; the interval counted for both medians), the tier given,
# and the tier the rule before it would have given (gold only at or under
# the gold's median). A measurement, not a test.
set -u
cd "$(dirname "$0")/.."
n=${1:-10}
shift $(($# > 0 ? 1 : 0))
names=("$@")
[ ${#names[@]} -gt 0 ] || names=(transpose sliding_average matrix_add)
g=build/cudalings
for name in "${names[@]}"; do
	echo "### $name: solutions/gold/$name.cu graded $n times"
	echo
	echo "| # | median µs | gold µs | ratio (95% interval) | noise allowed | tier | tier by the old rule |"
	echo "|---:|---:|---:|---|---:|---|---|"
	for i in $(seq "$n"); do
		$g grade "$name" --file "solutions/gold/$name.cu" --backend gpu --json 2>/dev/null |
			python3 -c '
import json, sys
i = sys.argv[1]
try:
    r = json.load(sys.stdin)
except Exception:
    print("| %s | no JSON | | | | | |" % i); sys.exit()
t = r.get("timing") or {}
us, gold = t.get("median_us", 0), t.get("gold_us", 0)
ratio, lo, hi = t.get("ratio", 0), t.get("ratio_lo", 0), t.get("ratio_hi", 0)
noise = 2 * max(0.01, ratio / lo - 1 if 0 < lo < ratio else 0, hi / ratio - 1 if ratio > 0 and hi > ratio else 0)
old = "gold" if gold and us <= gold else "near_gold" if gold and us <= 1.1 * gold else "pass"
print("| %s | %.1f | %.1f | %.3f (%.3f-%.3f) | %.1f%% | %s | %s |" % (i, us, gold, ratio, lo, hi, 100 * noise,
      r.get("tier") or r["verdict"] + " at " + str(r["stage"]), old))' "$i"
	done
	echo
done
