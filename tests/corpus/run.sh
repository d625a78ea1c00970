#!/usr/bin/env bash
# Valid CUDA syntax on both backends: every tests/corpus/*.cu is a program
# that checks its own results and prints "ok". On the simulator it runs as
# `make corpus` built it (the rewriter, then g++); where nvcc is installed it
# is also compiled with nvcc, and run where a GPU answers (BACKEND=gpu asks
# for that and fails without one), for sm_90 as the grader compiles for the
# GPUs it is run on. Ends with "corpus: N passed, M failed".
set -u
cd "$(dirname "$0")/../.."
backend=${BACKEND:-sim}
out=build/tests/corpus
source tests/lib.sh
nvcc=${CUDALINGS_NVCC:-$(command -v nvcc || { [ -x /usr/local/cuda/bin/nvcc ] && echo /usr/local/cuda/bin/nvcc; })}
gpu=no
if [ "$backend" = gpu ]; then
	nvidia-smi -L >/dev/null 2>&1 && gpu=yes || { echo "corpus: BACKEND=gpu but no GPU answers"; exit 1; }
	[ -n "$nvcc" ] || { echo "corpus: BACKEND=gpu but no nvcc"; exit 1; }
fi
mkdir -p "$out"
# check NAME WHAT COMMAND...: the command must exit 0 (and print "ok" where it runs the program)
check() {
	local name=$1 what=$2 log
	shift 2
	if log=$("$@" 2>&1) && { [ "$what" = "nvcc compiles" ] || [ "$(tail -1 <<<"$log")" = ok ]; }; then
		passed=$((passed + 1))
		printf '  ok   %-28s %s\n' "$name" "$what"
	else
		failed=$((failed + 1))
		printf '  BAD  %-28s %s\n%s\n' "$name" "$what" "$(head -c 3000 <<<"$log")"
	fi
}
for f in tests/corpus/*.cu; do
	name=$(basename "$f" .cu)
	if [ "$backend" = sim ]; then
		check "$name.cu" "runs on the simulator" "$out/$name.sim"
	fi
	if [ -n "$nvcc" ]; then
		check "$name.cu" "nvcc compiles" "$nvcc" -std=c++17 -O2 -arch=sm_90 -o "$out/$name.gpu" "$f"
		[ "$gpu" = yes ] && check "$name.cu" "runs on the GPU" "$out/$name.gpu"
	fi
done
[ -n "$nvcc" ] || echo "corpus: no nvcc here: compiled on the simulator only"
finish corpus
