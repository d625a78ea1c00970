# bench/ncu_gradings.sh — what the measurements of the point on a GPU share (bench/ncu_budgets.sh,
# bench/ncu_point_cost.sh), sourced from the repository's root on a GPU machine: the grader built, a
# scratch folder, workbook.json put back at the end however the run ends (they take budgets_on_gpu out
# a while), and
#   ncu_verdicts LIST   each line of LIST ("EXERCISE FILE EXPECTED": pass, uncoalesced or bank_conflicts)
#                       graded three at a time, timed (a --no-timing grading measures no point: it runs
#                       no timed case, bench/point-early-h100.md); prints a Markdown table of the verdicts, the
#                       point's figures and whether it was checked, and "N files, M unexpected"
#   grade_timed EXERCISE FILE LABEL WHICH…  each WHICH (first, later: a label) a timed grading of an
#                       edited copy of FILE; adds a row to $timed: when it compiled, started its runner,
#                       started the point and gave its verdict, in seconds from the command's start
#   budgets_off         budgets_on_gpu taken out of workbook.json (put back at the end)
source tests/lib.sh
gpu_build build/cudalings >/dev/null || { echo "cannot build the grader"; exit 3; }
g=build/cudalings
cp workbook.json "$tmp/workbook.json"
when_finished 'cp "$tmp/workbook.json" workbook.json'
# a run cut short (timeout) still puts workbook.json back
trap 'exit 1' TERM INT

budgets_off() { sed -i '/"budgets_on_gpu": true,/d' workbook.json; }

ncu_verdicts() {
	local v=$tmp/verdicts
	rm -rf "$v" && mkdir -p "$v"
	awk '{ print NR, $0 }' "$1" | xargs -P 3 -L 1 bash -c \
		'timeout 60 build/cudalings grade "$1" --file "$2" --backend gpu --json >'"$v"'/$0.json 2>/dev/null; echo "$1 $2 $3" >'"$v"'/$0.what'
	python3 - "$v" <<'PY'
import glob, json, os, sys
tmp = sys.argv[1]
def fig(v):
    return "-" if v is None or v < 0 else "%.1f" % v
rows, bad = [], 0
for w in sorted(glob.glob(tmp + "/*.what"), key=lambda p: int(os.path.basename(p).split(".")[0])):
    n, f, expect = open(w).read().split()
    try:
        r = json.load(open(w[:-5] + ".json"))
    except Exception:
        rows.append("| %s | %s | %s | no JSON **unexpected** | | | | | | |" % (n, f, expect)); bad += 1; continue
    p, fg = r.get("point") or {}, r.get("figures") or {}
    got = "pass" if r["verdict"] == "pass" else next((d["kind"] for d in r.get("diagnostics", []) if d["kind"] in ("uncoalesced", "bank_conflicts")), "fail at %s" % r.get("stage"))
    # a memory mistake fails at performance with its diagnosis (the verdict names the figure, or the time
    # when the kernel is also too slow)
    ok = got == expect and p.get("checked") and (expect == "pass" or r.get("stage") == "performance")
    bad += not ok
    point = ("by %s, %s kernel(s)" % (p.get("by"), p.get("kernels"))) if p.get("checked") else "NOT checked: %s" % p.get("why_not")
    rows.append("| %s | %s | %s | %s%s | %s | %s | %s | %s | %s | %s |" % (n, f, expect, got, "" if ok else " **unexpected**",
        fig(fg.get("load_sectors_per_request")), fig(fg.get("store_sectors_per_request")), fig(fg.get("sectors_per_request")),
        fig(fg.get("bank_conflicts_per_request")), point, r.get("message", "")[:90].replace("|", "/")))
print("| exercise | file | expected | got | load sectors/req | store sectors/req | sectors/req (judged) | bank conflicts/req | point | message |")
print("|---|---|---|---|---:|---:|---:|---:|---|---|")
print("\n".join(rows))
print("\n%d files, %d unexpected" % (len(rows), bad))
PY
}

# the seconds at which a grading's --progress events said each stage began, and its end
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
timed="| exercise | file | point | grading | compiled s | runner starts s | point starts s | verdict at s | verdict | ratio | point checked | message |
|---|---|---|---|---:|---:|---:|---:|---|---:|---|---|"
grade_timed() {
	local n=$1 f=$2 label=$3 which t0 cols row
	shift 3
	for which in "$@"; do
		{ cat "$f"; echo "// edit $which $(date +%N)"; } >"$tmp/$n.cu"
		t0=$(python3 -c 'import time; print(time.time())')
		cols=$(timeout 60 $g grade "$n" --file "$tmp/$n.cu" --backend gpu --progress --json 2>&1 >"$tmp/out.json" | python3 -c "$stamp" "$t0")
		row=$(python3 -c '
import json, sys
r = json.load(open(sys.argv[1])); t, p = r.get("timing") or {}, r.get("point") or {}
print("%s | %s | %s | %s" % (r["verdict"] if r["verdict"] == "pass" else "fail at " + str(r["stage"]),
      "%.2f" % t["ratio"] if t.get("ratio") else "-", "yes" if p.get("checked") else "no" if p else "-",
      r["message"][:110].replace("|", "/")))' "$tmp/out.json" 2>/dev/null)
		timed="$timed
| $n | $f | $label | $which | $cols | ${row:-error} |"
	done
}
