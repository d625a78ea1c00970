#!/usr/bin/env bash
# Every starter and solution compiles with nvcc (for sm_90 where no GPU is
# here), every starter is in sync with its solution, every lesson exists;
# and the runner's GPU sources compile with nvcc. Without the CUDA toolkit
# it says so and is skipped (exit 77: tests/report.sh counts it apart).
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
# the runner's GPU sources, which only a GPU machine builds otherwise (harness/timing_ways.cu is GPU only,
# harness/runner_sim.cu the simulator's)
flags="$(sh tools/runner-flags.sh NVCC_FLAGS) $(sh tools/runner-flags.sh RUNNER_INCLUDES) -Xcompiler $(sh tools/runner-flags.sh OPENMP)"
for f in harness/runner.cu harness/runner_case.cu harness/runner_rounds.cu harness/runner_timed.cu harness/timing_ways.cu; do
	# shellcheck disable=SC2086 # the flags are words, as harness/runner.mk says
	if nvcc $flags -arch=sm_90 -c "$f" -o "$tmp/$(basename "$f").o"; then
		echo "  ok   $f compiles with nvcc -arch=sm_90"
		passed=$((passed + 1))
	else
		echo "  BAD  $f does not compile with nvcc"
		failed=$((failed + 1))
	fi
done
finish compile
