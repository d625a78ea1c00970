#!/usr/bin/env bash
# Where a grading's seconds go, per exercise: the solution graded with
# --progress, each event stamped with the seconds since the command started.
# Columns: until the inspection starts (build of the instructor's side if
# needed, the student's compile beside the judge), until the runner starts
# (the inspection of what the object calls, the link), until its first
# case has passed (the runner's start: the GPU opened, the warm-up, the
# submission loaded, then a case), until the timing starts (the other
# cases), and the end (timing, verdict). The first grading of an exercise
# after `make` and a later one are measured. A measurement, not a test.
#   bash bench/grading_stages.sh [gpu|sim] [NAME…]   (OUT set: also $OUT/grading-stages.md)
# GOLD=1 grades each exercise's gold solution instead (solutions/gold/NAME.cu: what a student's kernel
# near the hardware's limit looks like, often a longer compile).
set -u
cd "$(dirname "$0")/.."
backend=${1:-gpu}
shift $(($# > 0 ? 1 : 0))
g=build/cudalings
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
names="$*"
[ -n "$names" ] || names=$($g list --json | python3 -c 'import json,sys; print(" ".join(i["name"] for i in json.load(sys.stdin)["items"] if i["kind"]=="exercise"))')
stamp() {
	python3 -c '
import sys, time, json
t0 = float(sys.argv[1])
marks = {}
for line in sys.stdin:
    now = time.time() - t0
    try:
        e = json.loads(line)
    except Exception:
        continue
    if e.get("event") == "stage":
        marks.setdefault(e["stage"], now)
    elif e.get("event") == "case" and "first_case" not in marks:
        marks["first_case"] = now
marks["end"] = time.time() - t0
def m(k):
    return "%.2f" % marks[k] if k in marks else "-"
print(" | ".join(m(k) for k in ("link", "run", "first_case", "timing", "end")))' "$1"
}
table="| exercise | grading | compiled s | runner starts s | first case s | timing starts s | verdict at s | verdict |
|---|---|---:|---:|---:|---:|---:|---|"
for n in $names; do
	for which in first later; do
		src=solutions/$n.cu
		[ -n "${GOLD:-}" ] && src=solutions/gold/$n.cu
		[ -f "$src" ] || continue
		{ cat "$src"; echo "// edit $which $(date +%N)"; } >"$tmp/$n.cu"
		t0=$(python3 -c 'import time; print(time.time())')
		cols=$($g grade "$n" --file "$tmp/$n.cu" --backend "$backend" --progress --json 2>&1 >"$tmp/out.json" | stamp "$t0")
		# the verdict, and where the exercise's point is checked on a GPU (budgets_on_gpu) whether it was
		verdict=$(python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
p = r.get("point") or {}
print(r["verdict"] + ("" if not p or p.get("by") == "simulator" else ", point checked" if p.get("checked") else ", point NOT checked"))' "$tmp/out.json" 2>/dev/null)
		table="$table
| $n | $which | $cols | ${verdict:-error} |"
	done
done
device=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)
out="## Grading stages${GOLD:+ of the gold solutions}, $backend backend${device:+, $device}, $(date -u +%Y-%m-%d), $(nproc) cores

$table"
printf '%s\n' "$out"
[ -n "${OUT:-}" ] && printf '%s\n' "$out" >"$OUT/grading-stages.md"
exit 0
