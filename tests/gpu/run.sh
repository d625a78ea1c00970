#!/usr/bin/env bash
# make test-gpu: on a machine with an NVIDIA GPU, grade every solution and
# every gold solution (must pass; the table shows each one's share of the
# hardware's limit and its tier), every starter (must fail), every file in
# solutions/wrong/ (must fail at the stage it declares, the slow variants at
# "performance"), the transpose solution ten times in a row (all must pass),
# the test course of buffers that are not float32 (tests/typed/), every
# demo's variants (all must be correct), the adversarial submissions and
# the valid-syntax corpus (tests/corpus/, built by nvcc and run), and the heat
# map of --lines (tests/gpu/lines.sh). Prints a table; with
# OUT set, also writes it to $OUT/gpu-results.md.
# PARTS picks some of it (a device call is limited to 10 minutes): any of
# "grades typed edits demos adversarial corpus lines", all by default.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
gpu_build build/cudalings || { echo "test-gpu: cannot build the grader"; exit 3; }
g=build/cudalings
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader || { echo "test-gpu: no GPU here"; exit 3; }
nvcc --version | tail -1

results=$(mktemp)
failures=0
# grade NAME FILE EXPECT: one row of the table
grade() {
	local name=$1 file=$2 expect=$3 t0 t1 json got
	t0=$(date +%s.%N)
	json=$($g grade "$name" --file "$file" --backend gpu --json 2>/tmp/grade-stderr)
	local status=$?
	t1=$(date +%s.%N)
	got=$(printf '%s' "$json" | python3 -c '
import json, sys
try:
    r = json.load(sys.stdin)
except Exception:
    print("error"); sys.exit()
print(r["verdict"] if r["verdict"] == "pass" else (r["stage"] or "error"))' 2>/dev/null)
	[ -n "$got" ] || got="error($status)"
	local ok=ok
	if [ "$expect" = fail ]; then [ "$got" != pass ] && [ "$status" = 1 ] || ok=BAD; else [ "$got" = "$expect" ] || ok=BAD; fi
	[ $ok = ok ] || { failures=$((failures + 1)); printf '%s\n' "$json" | head -c 3000; cat /tmp/grade-stderr; }
	printf '%s' "$json" | python3 -c '
import json, sys
name, file, expect, got, ok, t0, t1 = sys.argv[1:8]
secs = float(t1) - float(t0)
try:
    r = json.load(sys.stdin)
except Exception:
    r = {}
t = r.get("timing") or {}
def f(k, fmt):
    # a figure the grading has no value for (no gold solution, no copy timed) is null in the JSON
    return fmt % t[k] if isinstance(t.get(k), (int, float)) else "-"
print("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %.1f |" % (ok, name, file, expect, got,
      f("median_us", "%.1f"), f("reference_us", "%.1f"), f("ratio", "%.2f"), f("gbps", "%.0f"),
      f("copy_gbps", "%.0f"), f("gold_us", "%.1f"), f("limit_pct", "%.0f%%"), r.get("tier") or "-",
      float(secs)))' "$name" "$file" "$expect" "$got" "$ok" "$t0" "$t1" >>"$results" ||
		echo "| $ok | $name | $file | $expect | $got | - | - | - | - | - | - | - | - | - |" >>"$results"
}

# what a wrong file must get on a GPU: its `// gpu-expect: STAGE` where a GPU differs, else its `// expect: STAGE`
wrong_expects() {
	local e
	e=$(sed -n 's|^// gpu-expect: \([a-z]*\).*|\1|p' "$1" | head -1)
	[ -n "$e" ] || e=$(sed -n 's|^// expect: \([a-z]*\).*|\1|p' "$1" | head -1)
	printf '%s\n' "$e"
}

PARTS=${PARTS:-grades typed edits demos adversarial corpus lines}
part() { case " $PARTS " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }
: >/tmp/demos.log >/tmp/adversarial.log >/tmp/corpus.log >/tmp/lines.log

names=$($g list --json | python3 -c 'import json,sys; print(" ".join(i["name"] for i in json.load(sys.stdin)["items"] if i["kind"]=="exercise"))')
part grades || names=
for n in $names; do
	grade "$n" "solutions/$n.cu" pass
	# the gold solution near the hardware's limit: its tier, and its share of the limit in the same rounds
	[ -f "solutions/gold/$n.cu" ] && grade "$n" "solutions/gold/$n.cu" pass
	grade "$n" "exercises/$n.cu" fail
	for w in solutions/wrong/"$n"/*.cu; do
		[ -e "$w" ] || continue
		grep -q '^// sim-only' "$w" && continue # a GPU may hide a race by luck of timing
		grade "$n" "$w" "$(wrong_expects "$w")"
	done
done
# buffers that are not float32: the test course in tests/typed/ (uint8 pixels into uint32 bins with atomics,
# int32 keys and float64 weights), its solutions, starters and wrong variants, the slow one at performance
export CUDALINGS_WORKBOOK=tests/typed/workbook.json
mkdir -p build/test-gpu
part typed && for n in $($g list --json | python3 -c 'import json,sys; print(" ".join(i["name"] for i in json.load(sys.stdin)["items"] if i["kind"]=="exercise"))'); do
	grade "$n" "tests/typed/solutions/$n.cu" pass
	$g starter "$n" >"build/test-gpu/$n.cu" && grade "$n" "build/test-gpu/$n.cu" fail
	for w in tests/typed/solutions/wrong/"$n"/*.cu; do
		[ -e "$w" ] || continue
		grep -q '^// sim-only' "$w" && continue
		grade "$n" "$w" "$(wrong_expects "$w")"
	done
done
unset CUDALINGS_WORKBOOK
# edit -> verdict: a fresh copy of the transpose solution, graded cold and then nine more times
mkdir -p build/test-gpu
part edits && for i in 1 2 3 4 5 6 7 8 9 10; do
	cp solutions/transpose.cu build/test-gpu/transpose_edit.cu
	echo "// edit $i $(date +%N)" >>build/test-gpu/transpose_edit.cu
	grade transpose build/test-gpu/transpose_edit.cu pass
done

part demos && echo "== the demos, each variant against the reference"
part demos && demos=$($g list --json | python3 -c 'import json,sys; print(" ".join(i["name"] for i in json.load(sys.stdin)["items"] if i["kind"]=="demo"))')
for d in ${demos:-}; do
	$g run "$d" --backend gpu | tee -a /tmp/demos.log
	[ "${PIPESTATUS[0]}" = 0 ] || failures=$((failures + 1))
	echo >>/tmp/demos.log
done

if part adversarial; then
	echo "== adversarial submissions on the GPU"
	BACKEND=gpu bash tests/adversarial/run.sh | tee /tmp/adversarial.log
	[ "${PIPESTATUS[0]}" = 0 ] || failures=$((failures + 1))
fi

if part corpus; then
	echo "== valid CUDA syntax (tests/corpus/) compiled by nvcc and run on the GPU"
	BACKEND=gpu bash tests/corpus/run.sh | tee /tmp/corpus.log
	[ "${PIPESTATUS[0]}" = 0 ] || failures=$((failures + 1))
fi

if part lines; then
	echo "== the heat map from Nsight Compute's source counters (tests/gpu/lines.sh)"
	bash tests/gpu/lines.sh | tee /tmp/lines.log
	[ "${PIPESTATUS[0]}" = 0 ] || failures=$((failures + 1))
fi

{
	echo "## make test-gpu on $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1), $(date -u +%Y-%m-%d)"
	[ "$PARTS" = "grades typed edits demos adversarial corpus lines" ] || { echo; echo "parts: $PARTS"; }
	echo
	echo "nvcc: $(nvcc --version | tail -1); seconds = whole grading, edit to verdict (compile, judge, run, timing)"
	echo
	echo "limit = the physical reference's time (a device-to-device copy of the same bytes; cuBLAS SGEMM for the"
	echo "matrix products) over the kernel's, in the same rounds; tier = a pass against solutions/gold/NAME.cu"
	echo
	echo "| | exercise | file | expected | got | µs | reference µs | ratio | GB/s | copy GB/s | gold µs | limit | tier | seconds |"
	echo "|---|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|---:|"
	cat "$results"
	echo
	echo "demos (cudalings run NAME --backend gpu):"
	echo
	sed 's/^/    /' /tmp/demos.log
	echo "adversarial submissions (tests/adversarial/run.sh, BACKEND=gpu):"
	echo
	sed 's/^/    /' /tmp/adversarial.log
	echo
	echo "valid syntax (tests/corpus/run.sh, BACKEND=gpu):"
	echo
	sed 's/^/    /' /tmp/corpus.log
	echo
	echo "heat map (tests/gpu/lines.sh: --lines from Nsight Compute):"
	echo
	sed 's/^/    /' /tmp/lines.log
	echo
	echo "$failures unexpected results"
} | tee "${OUT:-/tmp}/gpu-results.md"
rm -f "$results"
[ "$failures" = 0 ]
