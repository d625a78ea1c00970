#!/usr/bin/env bash
# The figures the lessons cite, measured in one run on a GPU machine:
#   bash bench/lessons_gpu.sh
# grades, on the GPU with timing, every demo's reference and variants and
# each exercise's solution and slower variants (--json) and writes
# bench/lessons-GPU.md (GPU: h100, h200, … from the device's name; a copy
# in $OUT when OUT is set): the demos' times, the exercises' times with
# their physical reference (a copy, or cuBLAS SGEMM for matmul), and the
# "Measure it" demo's ways of timing one kernel. tools/lesson-figures.py
# reads its tables; a lesson cites them with [figure] markers. A
# measurement, not a test; exits 3 without a GPU. About 5 minutes.
set -u
cd "$(dirname "$0")/.."
. tests/lib.sh
if ! command -v nvidia-smi >/dev/null || ! nvidia-smi -L >/dev/null 2>&1; then
	echo "lessons_gpu: no GPU here" >&2
	exit 3
fi
gpu_build build/cudalings sim || exit 3
g=build/cudalings
raw=$tmp

# grade KIND EXERCISE FILE: the JSON verdict, on the GPU with timing, kept in $raw
n=0
grade() {
	n=$((n + 1))
	printf '  %-16s %s\n' "$2" "$3" >&2
	"$g" grade "$2" --file "$3" --backend gpu --json >"$raw/$n.json" 2>"$raw/$n.err"
	if [ $? = 3 ]; then
		cat "$raw/$n.err" >&2
		echo "lessons_gpu: the GPU could not be used" >&2
		exit 3
	fi
	printf '%s %s %s\n' "$1" "$2" "$3" >"$raw/$n.what"
}

items=$("$g" list --json | python3 -c '
import json, sys
for item in json.load(sys.stdin)["items"]:
    print(item["kind"], item["name"])')
while read -r kind name; do
	case $kind in
	demo) files=("solutions/$name.cu" demos/"$name"/*.cu) ;;
	# the slower variants: the wrong files that compute the right thing (a correctness failure has no time)
	exercise) files=("solutions/$name.cu" $(grep -l '^// expect: performance' solutions/wrong/"$name"/*.cu 2>/dev/null)) ;;
	*) continue ;;
	esac
	for f in "${files[@]}"; do
		[ -f "$f" ] && grade "$kind" "$name" "$f"
	done
done <<<"$items"
# legitimate alternatives the lessons talk about
for f in tests/adversarial/fast_col_sums_split_rows.cu tests/adversarial/fast_sliding_average_seven_reads.cu; do
	[ -f "$f" ] && grade exercise "$(sed -n 's|^// exercise: ||p' "$f" | head -1)" "$f"
done

gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
slug=$(python3 -c '
import re, sys
m = re.search(r"NVIDIA (?:GeForce |RTX )*([A-Z]+\d+\w*)", sys.argv[1])
print(m.group(1).lower() if m else "gpu")' "$gpu")
report=$(python3 - "$raw" "$gpu" "$(date -u +%Y-%m-%d)" "$(nvcc --version 2>/dev/null | tail -1)" <<'PY'
import json, sys
from pathlib import Path
raw, gpu, date, nvcc = Path(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]

def num(t, key, fmt):
    v = (t or {}).get(key)
    return fmt % v if isinstance(v, (int, float)) and v > 0 else "-"

demos, exercises, ways, sms = [], [], [], "-"
for what in sorted(raw.glob("*.what"), key=lambda p: int(p.stem)):
    kind, name, path = what.read_text().split()
    try:
        r = json.loads((raw / (what.stem + ".json")).read_text())
    except (OSError, ValueError):
        r = {}
    t = r.get("timing")
    verdict = "pass" if r.get("verdict") == "pass" else (r.get("stage") or "error")
    row = [name, path, verdict, num(t, "median_us", "%.1f"), num(t, "reference_us", "%.1f"),
           num(t, "ratio", "%.2f"), num(t, "gbps", "%.0f"), num(t, "copy_gbps", "%.0f")]
    if kind == "demo":
        # a demo's variants are all correct; what matters is the time
        row[2] = "correct" if verdict in ("pass", "performance") else verdict
        demos.append(row)
    else:
        exercises.append(row + [num(t, "physical_us", "%.1f"), (t or {}).get("physical") or "-",
                                num(t, "gflops", "%.0f")])
    for w in r.get("timing_ways") or []:
        ways.append([name, w["way"], w["how"], "%.1f" % w["us"], "%.1f" % w["low_us"], "%.1f" % w["high_us"],
                     "%d" % w["samples"], "%d" % w["sm_mhz"] if w.get("sm_mhz") else "-"])

def table(headers, rows, numeric):
    out = ["| " + " | ".join(headers) + " |",
           "|" + "|".join("---:" if h in numeric else "---" for h in headers) + "|"]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(out)

right = {w[0]: float(w[3]) for w in ways if w[1] == "right"}
for w in ways:
    w.insert(4, "%.2f" % (float(w[3]) / right[w[0]]) if right.get(w[0]) else "-")
print("## The lessons' figures on %s, %s\n" % (gpu, date))
print("`bash bench/lessons_gpu.sh`: every demo's reference and variants and every exercise's")
print("solution and slower variants, graded with `--backend gpu --json` in one run (%s)." % nvcc)
print("µs: the median of the grader's timed rounds, from a cold L2, beside the reference in")
print("the same rounds; GB/s: the bytes the kernel must move over that time.\n")
print("### Demos\n")
print(table(["demo", "variant", "result", "µs", "reference µs", "× ref", "GB/s", "copy GB/s"], demos,
            {"µs", "reference µs", "× ref", "GB/s", "copy GB/s"}))
print("\n### Exercises\n")
print(table(["exercise", "file", "verdict", "µs", "reference µs", "ratio", "GB/s", "copy GB/s",
             "physical µs", "physical", "GFLOP/s"], exercises,
            {"µs", "reference µs", "ratio", "GB/s", "copy GB/s", "physical µs", "GFLOP/s"}))
print("\n### One kernel timed the right way and the wrong ways (`cudalings run measure_it`)\n")
print(table(["demo", "way", "how", "µs", "× right", "low µs", "high µs", "launches", "SM MHz"], ways,
            {"µs", "× right", "low µs", "high µs", "launches", "SM MHz"}))
PY
)
mkdir -p bench
printf '%s\n' "$report" >"bench/lessons-$slug.md"
[ -n "${OUT:-}" ] && cp "bench/lessons-$slug.md" "$OUT/"
printf '%s\n\nwrote bench/lessons-%s.md\n' "$report" "$slug"
