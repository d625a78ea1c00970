#!/usr/bin/env bash
# nvcc's front end judges a file on the simulator once for what it reads
# (grader/compile/frontend_cache.c): the same file and header in another
# folder are not read by nvcc again (no list of what it read in that
# grading's build folder), and a header beside the file that changes into
# one nvcc refuses (a __device__ function the launcher calls; g++ alone
# would take it) fails at compile with nvcc's message, however often the
# file was accepted before. Without the CUDA toolkit it is skipped.
set -u
cd "$(dirname "$0")/../.."
if ! command -v nvcc >/dev/null && ! [ -x /usr/local/cuda/bin/nvcc ]; then
	echo "frontend_cache: skipped: no nvcc on PATH nor in /usr/local/cuda/bin: the simulator asks nvcc nothing without it"
	exit 77
fi
source tests/lib.sh
g=build/cudalings
# the list nvcc wrote in the build folder of the grading of FILE
listed() { grep -l -F -- "$1" build/sim/sub/col_sums-*/col_sums.o.cmd 2>/dev/null | sed 's/\.cmd$/.fe.d/' | xargs -r ls 2>/dev/null; }

# a solution that takes its block size from a header beside it (this run's own text: no entry from before)
mkdir -p "$tmp/first" "$tmp/second"
sed 's/int threads = 256;/int threads = block_size();/; s|#include "cudalings/col_sums.h"|&\n#include "block.h"|' \
	solutions/col_sums.cu >"$tmp/first/col_sums.cu"
echo "// frontend_cache $$ $(date +%N)" >>"$tmp/first/col_sums.cu"
echo 'static int block_size(void) { return 256; }' >"$tmp/first/block.h"
cp "$tmp/first/col_sums.cu" "$tmp/first/block.h" "$tmp/second/"

expect 0 "^PASS" -- $g grade col_sums --file "$tmp/first/col_sums.cu" --backend sim
check "nvcc read the first file, and listed what it read" '[ -n "$(listed "$tmp/first/col_sums.cu")" ]'
expect 0 "^PASS" -- $g grade col_sums --file "$tmp/second/col_sums.cu" --backend sim
check "nvcc did not read the same file and header in another folder again" '[ -z "$(listed "$tmp/second/col_sums.cu")" ]'

# the header changes into one nvcc refuses: the cache must not answer for it
echo '__device__ int block_size(void) { return 256; }' >"$tmp/second/block.h"
expect 1 "nvcc rejects this file" -- $g grade col_sums --file "$tmp/second/col_sums.cu" --backend sim
expect 1 "calling a __device__ function" -- $g grade col_sums --file "$tmp/second/col_sums.cu" --backend sim
# a file added beside it, which an include could find before another: nvcc reads the file again
cp "$tmp/first/block.h" "$tmp/second/block.h"
echo '#error not this one' >"$tmp/second/notes.h"
rm -f "$(listed "$tmp/second/col_sums.cu")"
expect 0 "^PASS" -- $g grade col_sums --file "$tmp/second/col_sums.cu" --backend sim
check "with a new file in its folder nvcc reads the file again" '[ -n "$(listed "$tmp/second/col_sums.cu")" ]'
finish frontend_cache
