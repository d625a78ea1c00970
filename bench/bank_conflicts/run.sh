#!/usr/bin/env bash
# Build and run transpose_padding.cu on a GPU machine; with OUT set, also
# writes $OUT/bank-conflicts.md. A measurement, not a test.
set -eu
cd "$(dirname "$0")/../.."
export PATH=$PATH:/usr/local/cuda/bin
mkdir -p build/bench
nvcc -std=c++17 -O3 -o build/bench/transpose_padding bench/bank_conflicts/transpose_padding.cu
table=$(build/bench/transpose_padding)
out="## Bank conflicts in the tiled transpose, $(date -u +%Y-%m-%d)

\`bench/bank_conflicts/run.sh\`: the same kernel but for the tile's padding.

$table"
[ -n "${OUT:-}" ] && printf '%s\n' "$out" >"$OUT/bank-conflicts.md"
printf '%s\n' "$out"
