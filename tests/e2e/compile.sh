#!/usr/bin/env bash
# Every starter and solution compiles with nvcc (for sm_90 where no GPU is
# here), every starter is in sync with its solution, every lesson exists;
# and the runner's GPU sources compile with nvcc (check --compile-only
# compiles them as a GPU's runner build does; only a GPU machine builds
# them otherwise). Without the CUDA toolkit it says so and is skipped
# (exit 77: tests/report.sh counts it apart).
set -u
cd "$(dirname "$0")/../.."
if ! command -v nvcc >/dev/null && ! [ -x /usr/local/cuda/bin/nvcc ]; then
	echo "compile: skipped: no nvcc on PATH nor in /usr/local/cuda/bin: install the CUDA toolkit to check that the exercises compile with it"
	exit 77
fi
export PATH=$PATH:/usr/local/cuda/bin
source tests/lib.sh
if build/cudalings check --compile-only; then
	passed=$((passed + 1))
else
	failed=$((failed + 1))
fi
finish compile
