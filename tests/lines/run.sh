#!/usr/bin/env bash
# The heat map of `cudalings grade --lines` on the simulator: each fixture
# marks its costly lines ("heat: hot"); the report must mark those and no
# other, in its JSON and in its text. Two legitimate fast kernels of
# tests/adversarial/ (float4, shuffles) must have no hot line at all.
# tests/gpu/run.sh runs the same files on a GPU (`run.sh gpu`), where the
# figures come from Nsight Compute.
set -u
cd "$(dirname "$0")/../.."
g=$PWD/build/cudalings
backend=${1:-sim}
source tests/lib.sh
for f in tests/lines/*.cu tests/adversarial/fast_matrix_add_float4.cu tests/adversarial/fast_sum_reduction_shuffles.cu; do
	ex=$(sed -n 's|.*#include "cudalings/\(.*\)\.h".*|\1|p' "$f" | head -1)
	"$g" grade "$ex" --file "$f" --backend "$backend" --lines --json >"$tmp/report.json" 2>"$tmp/err"
	NO_COLOR=1 "$g" grade "$ex" --file "$f" --backend "$backend" --lines >"$tmp/report.txt" 2>>"$tmp/err"
	if python3 tests/lines/check.py "$f" "$tmp/report.json" "$tmp/report.txt"; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		sed -n '/^per line/,$p' "$tmp/report.txt"
		cat "$tmp/err"
	fi
done
# nothing to show is said, not left blank
printf '#include "cudalings/transpose.h"\nvoid transpose_launch(const float *in, float *out, int rows, int cols) { oops }\n' >"$tmp/broken.cu"
out=$("$g" grade transpose --file "$tmp/broken.cu" --backend "$backend" --lines 2>&1)
if grep -q "^per line: not measured: the file did not compile" <<<"$out"; then
	passed=$((passed + 1))
else
	failed=$((failed + 1))
	printf 'FAIL: a file that does not compile: no "not measured" line:\n%s\n' "$out"
fi
echo "heat map ($backend): $passed passed, $failed failed"
[ "$failed" = 0 ]
