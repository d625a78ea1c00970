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
source tests/gpu/lib.sh
gpu_build build/cudalings >/dev/null || { echo "cannot build the grader"; exit 3; }
g=build/cudalings
tmp=$(mktemp -d)
trap 'cp "$tmp/workbook.json" workbook.json 2>/dev/null; rm -rf "$tmp"' EXIT
cp workbook.json "$tmp/workbook.json"
names=$(python3 -c 'import json; print(" ".join(i["name"] for i in json.load(open("workbook.json"))["items"] if i.get("budgets_on_gpu")))')
for n in $names; do
	for f in solutions/$n.cu solutions/gold/$n.cu $(grep -l "^// exercise: $n\$" tests/adversarial/*.cu tests/redteam/*.cu tests/mistakes/$n/*.cu 2>/dev/null); do
		[ -f "$f" ] || continue
		expect=$(sed -n 's|^// expect: \(.*\)|\1|p' "$f" | head -1)
		case $f:${expect:-pass} in
		solutions/*) echo "$n $f pass" ;;
		tests/mistakes/*:uncoalesced | tests/mistakes/*:bank_conflicts) echo "$n $f $expect" ;;
		tests/adversarial/*:pass | tests/redteam/*:pass) echo "$n $f pass" ;;
		esac
	done
done >"$tmp/list"
# the instructor's side of each exercise, built once before the clock matters
for n in $names; do $g grade "$n" --backend gpu --no-timing --json >/dev/null 2>&1; done
# 1. correctness and the point, three gradings at a time (--no-timing: the time is make test-gpu's)
i=0
while read -r n f expect; do
	i=$((i + 1))
	echo "$i $n $f $expect"
done <"$tmp/list" | xargs -P 3 -L 1 bash -c 'build/cudalings grade "$1" --file "$2" --backend gpu --no-timing --json >'"$tmp"'/$0.json 2>/dev/null; echo "$1 $2 $3" >'"$tmp"'/$0.what'
summary='
import glob, json, os, sys
tmp = sys.argv[1]
def fig(v):
    return "-" if v is None else "%.1f" % v
rows, bad = [], 0
for w in sorted(glob.glob(tmp + "/*.what"), key=lambda p: int(os.path.basename(p).split(".")[0])):
    n, f, expect = open(w).read().split()
    try:
        r = json.load(open(w[:-5] + ".json"))
    except Exception:
        rows.append("| %s | %s | %s | no JSON | | | | | | |" % (n, f, expect)); bad += 1; continue
    p = r.get("point") or {}
    fg = r.get("figures") or {}
    got = "pass" if r["verdict"] == "pass" else next((d["kind"] for d in r["diagnostics"] if d["kind"] in ("uncoalesced", "bank_conflicts")), r["stage"])
    ok = got == expect and p.get("checked")
    bad += not ok
    point = ("by %s, %s kernel%s" % (p["by"], p.get("kernels"), "" if p.get("kernels") == 1 else "s")) if p.get("checked") else "NOT checked: %s" % p.get("why_not")
    rows.append("| %s | %s | %s | %s%s | %s | %s | %s | %s | %s |" % (n, f, expect, got, "" if ok else " **unexpected**", fig(fg.get("load_sectors_per_request")),
        fig(fg.get("store_sectors_per_request")), fig(fg.get("sectors_per_request")), fig(fg.get("bank_conflicts_per_request")), point))
print("| exercise | file | expected | got | load sectors/req | store sectors/req | sectors/req (judged) | bank conflicts/req | point |")
print("|---|---|---|---|---:|---:|---:|---:|---|")
print("\n".join(rows))
print("\n%d files, %d unexpected" % (len(rows), bad))'
table=$(python3 -c "$summary" "$tmp")
# 2. edit to verdict, timed: the naive transpose turned round, and the solutions, with the point and without
stamp='
import json, sys, time
t0 = float(sys.argv[1]); marks = {}
for line in sys.stdin:
    try:
        e = json.loads(line)
    except Exception:
        continue
    if e.get("event") == "stage":
        marks.setdefault(e["stage"], time.time() - t0)
marks["end"] = time.time() - t0
print(" | ".join("%.2f" % marks[k] if k in marks else "-" for k in ("link", "run", "point", "end")))'
timed="| exercise | file | budgets_on_gpu | grading | compiled s | runner starts s | point starts s | verdict at s | verdict | ratio | message |
|---|---|---|---|---:|---:|---:|---:|---|---:|---|"
grade_timed() { # exercise file label
	for which in first later; do
		{ cat "$2"; echo "// edit $which $(date +%N)"; } >"$tmp/$1.cu"
		t0=$(python3 -c 'import time; print(time.time())')
		cols=$($g grade "$1" --file "$tmp/$1.cu" --backend gpu --progress --json 2>&1 >"$tmp/out.json" | python3 -c "$stamp" "$t0")
		row=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); t=r.get("timing") or {}; print("%s | %s | %s" % (r["verdict"] if r["verdict"] == "pass" else "fail at " + str(r["stage"]), "%.2f" % t["ratio"] if t.get("ratio") else "-", r["message"][:140].replace("|", "/")))' "$tmp/out.json" 2>/dev/null)
		timed="$timed
| $1 | $2 | $3 | $which | $cols | ${row:-error} |"
	done
}
for pass in on off; do
	[ $pass = off ] && sed -i '/"budgets_on_gpu": true,/d' workbook.json
	for n in $names; do
		grade_timed $n solutions/$n.cu $pass
		[ -f tests/mistakes/$n/naive_coalesced_writes.cu ] && grade_timed $n tests/mistakes/$n/naive_coalesced_writes.cu $pass
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
