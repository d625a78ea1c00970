#!/usr/bin/env bash
# make test-instructor-gpu: on a machine with NVIDIA GPUs, grade a small
# class of transpose submissions with `cudalings batch` on the GPU backend:
# one lane per GPU, timings in the gradebook and on the Gradescope
# leaderboard, the slow variant failing at performance. With OUT set, the
# gradebook and two results.json are copied there.
set -u
cd "$(dirname "$0")/../.." && . tests/lib.sh
gpu_build build/cudalings || exit 3
gpus=$(nvidia-smi -L | grep -c '^GPU ') || { echo "gpu: no GPU here"; exit 3; }

class=$tmp/class
mkdir -p "$class/dee"
for s in ann bob cy; do cp solutions/transpose.cu "$class/$s.cu"; done
cp solutions/wrong/transpose/bank_conflicts.cu "$class/dee/transpose.cu"
build/cudalings starter transpose >"$class/eve.cu"
printf 'void transpose_launch(const float *in, float *out, int rows, int cols) { oops }\n' >"$class/fay.cu"
printf 'ann\tpass\t-\nbob\tpass\t-\ncy\tpass\t-\ndee\tfail\tperformance\neve\tfail\tcorrectness\nfay\tfail\tcompile\n' \
	>"$tmp/expected"

start=$(date +%s)
lanes=$((gpus < 6 ? gpus : 6))
expect 0 "on the gpu backend, $lanes at a time" -- build/cudalings batch transpose "$class" --out "$tmp/out"
echo "gpu: $gpus GPUs, 6 submissions in $(($(date +%s) - start)) s"
# every correctness case, and the timed one
cases=$(python3 -c '
import json
print(next(len(i["cases"]) + 1 for i in json.load(open("workbook.json"))["items"] if i["name"] == "transpose"))')
python3 "$repo/tests/instructor/check_results.py" "$tmp/out" "$tmp/expected" "$cases" >"$tmp/results.txt" 2>&1
grep -v '^ok: ' "$tmp/results.txt"
passed=$((passed + $(grep -c '^ok: ' "$tmp/results.txt")))
failed=$((failed + $(grep -c '^FAIL: ' "$tmp/results.txt")))
if [ -n "${OUT:-}" ]; then
	cp "$tmp/out/gradebook.csv" "$OUT/"
	cp "$tmp/out/gradescope/ann/results.json" "$OUT/ann-results.json"
	cp "$tmp/out/gradescope/dee/results.json" "$OUT/dee-results.json"
fi
cat "$tmp/out/gradebook.csv"
echo "gpu: $passed passed, $failed failed"
[ "$failed" = 0 ]
