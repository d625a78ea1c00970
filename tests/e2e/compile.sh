#!/usr/bin/env bash
# Every starter and solution compiles with nvcc (for sm_90 where no GPU is
# here), every starter is in sync with its solution, every lesson exists.
set -u
cd "$(dirname "$0")/../.."
if ! command -v nvcc >/dev/null && ! [ -x /usr/local/cuda/bin/nvcc ]; then
	echo "compile: nvcc not found; install the CUDA toolkit to check that the exercises compile"
	exit 1
fi
export PATH=$PATH:/usr/local/cuda/bin
if build/cudalings check --compile-only; then
	echo "compile: 1 passed, 0 failed"
else
	echo "compile: 0 passed, 1 failed"
	exit 1
fi
