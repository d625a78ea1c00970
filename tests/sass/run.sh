#!/usr/bin/env bash
# The machine code listing of `cudalings grade --sass`: nvcc builds the file
# for one architecture (no GPU needed); each instruction must sit under the
# source line it came from (a shuffle under the helper that makes it, a
# float4 load as a 128-bit LDG), the text must keep to 80 columns, and a
# missing nvcc or a bad --arch are said with their exit status. SASS needs
# nvdisasm; where it is missing, the listing must say so and still show PTX.
set -u
cd "$(dirname "$0")/../.."
g=$PWD/build/cudalings
backend=${1:-sim}
source tests/lib.sh
nvcc=${CUDALINGS_NVCC:-$(command -v nvcc || { [ -x /usr/local/cuda/bin/nvcc ] && echo /usr/local/cuda/bin/nvcc; })}
if [ -z "$nvcc" ]; then
	echo "sass: no nvcc here: only its absence is checked"
	out=$("$g" grade transpose --file tests/lines/transpose_two_ways.cu --sass 2>&1)
	status=$?
	[ "$status" = 3 ] && grep -q "nvcc is not on PATH" <<<"$out" && { echo "sass: 1 passed, 0 failed"; exit 0; }
	printf 'FAIL: --sass without nvcc: status %s\n%s\n' "$status" "$out"
	exit 1
fi
sass=0
{ [ -n "${CUDALINGS_NVDISASM:-}" ] || [ -x "$(dirname "$nvcc")/nvdisasm" ] || command -v nvdisasm >/dev/null; } && sass=1

# listing FILE RULES...: the JSON and the text listing of FILE, checked by check.py
listing() {
	local f=$1 ex
	shift
	ex=$(sed -n 's|.*#include "cudalings/\(.*\)\.h".*|\1|p' "$f" | head -1)
	"$g" grade "$ex" --file "$f" --backend "$backend" --sass --json >"$tmp/r.json" 2>"$tmp/err"
	NO_COLOR=1 "$g" grade "$ex" --file "$f" --backend "$backend" --sass >"$tmp/r.txt" 2>>"$tmp/err"
	if python3 tests/sass/check.py "$tmp/r.json" "$tmp/r.txt" "$sass" "$@"; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		cat "$tmp/err"
	fi
}
listing tests/lines/transpose_two_ways.cu "16:ptx:ld\.global\.f32" "17:ptx:st\.global\.f32" \
	"26:ptx:st\.shared\.f32" "32:ptx:ld\.shared\.f32" "16:sass:^LDG\.E  NOTE=global load" \
	"17:sass:^STG\.E  NOTE=global store" "27:sass:^BAR\.SYNC NOTE=barrier" "32:sass:^LDS NOTE=shared load"
listing tests/adversarial/fast_sum_reduction_shuffles.cu "11:ptx:shfl\.sync\.down" "11:sass:^SHFL\.DOWN NOTE=warp shuffle"
listing tests/adversarial/fast_matrix_add_float4.cu "10:ptx:ld\.global\.v4\.f32" "11:ptx:st\.global\.v4\.f32" \
	"10:sass:LDG\.E\.128 NOTE=global load, 128-bit" "11:sass:STG\.E\.128 NOTE=global store, 128-bit"
listing tests/sass/local_array.cu "14:sass:^STL NOTE=local memory store" "16:sass:^LDL NOTE=local memory load"

# the heat map's figures sit beside the lines they measured (the simulator measures every grading)
if [ "$backend" = sim ]; then
	"$g" grade transpose --file tests/lines/transpose_two_ways.cu --sass --json >"$tmp/r.json" 2>/dev/null
	if python3 -c '
import json, sys
m = json.load(open(sys.argv[1]))["machine_code"]
lines = {l["line"]: l for k in m["kernels"] for l in k["lines"]}
ok = lines[17]["hot"] and "32.0 sectors/req" in lines[17]["figures"] and not lines[16]["hot"]
sys.exit(0 if ok else 1)' "$tmp/r.json"; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		echo "FAIL: the listing does not carry the heat map's figures beside line 17"
	fi
fi

f=tests/lines/transpose_two_ways.cu
expect 0 "machine code of .* for sm_80" -- "$g" sass transpose --file tests/adversarial/fast_transpose_swizzled.cu \
	--arch sm_80
expect 2 "--arch takes a GPU architecture such as sm_90 or sm_80, not 'volta'" -- "$g" grade transpose --file "$f" \
	--sass --arch volta
expect 3 "--sass: the machine code needs the CUDA compiler, and nvcc is not on PATH" -- \
	env CUDALINGS_NVCC=/nonexistent/nvcc "$g" grade transpose --file "$f" --sass
expect 3 "nvcc is not on PATH" -- env CUDALINGS_NVCC=/nonexistent/nvcc "$g" sass transpose --file "$f"
expect 0 "SASS needs nvdisasm" -- env CUDALINGS_NVDISASM=/nonexistent/nvdisasm "$g" sass transpose \
	--file tests/adversarial/fast_transpose_swizzled.cu
# the listing alone, as the workbook's `a` asks for it: no grading, at a width
expect 0 "no heat map beside the lines: cudalings grade --sass measures them" -- "$g" sass transpose --file "$f" --width 70
out=$(NO_COLOR=1 "$g" sass transpose --file "$f" --width 64 2>&1)
python3 -c 'import sys; sys.exit(any(len(l) > 64 for l in sys.argv[1].splitlines()) or "kernel tiled" not in sys.argv[1])' "$out"
if [ $? = 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); printf 'FAIL: sass --width 64:\n%s\n' "$out"; fi
expect 2 "--width takes the columns of the listing, 60 to 1000, not '20'" -- "$g" sass transpose --file "$f" --width 20
printf '#include "cudalings/transpose.h"\nvoid transpose_launch(const float *in, float *out, int r, int c) { oops; }\n' \
	>"$tmp/odd name.cu"
expect 1 "odd name.cu\(2\): error: identifier \"oops\" is undefined" -- "$g" sass transpose --file "$tmp/odd name.cu"
expect 2 "there is no exercise 'nosuch'" -- "$g" sass nosuch
expect 2 "say which exercise" -- "$g" sass
echo "sass ($backend$([ $sass = 1 ] || echo ', PTX only: no nvdisasm here')): $passed passed, $failed failed"
[ "$failed" = 0 ]
