#!/usr/bin/env bash
# On a GPU machine: does a kernel reach host memory no CUDA call made
# (tests/gpu/host_memory.cu says, with the driver's attributes), and what
# verdict do the simulator's host-memory cheats (tests/adversarial/, marked
# sim-only) get on the GPU, timing included. A measurement, not a test:
# prints what it saw; with OUT set, also writes it to $OUT/host-memory.txt.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
gpu_build build/cudalings || { echo "host-memory: cannot build the grader"; exit 3; }
{
	nvcc -std=c++17 -arch=sm_90 -o /tmp/host_memory tests/gpu/host_memory.cu && /tmp/host_memory
	for f in tests/adversarial/kernel_writes_host_heap.cu tests/adversarial/kernel_reads_host_static.cu \
		tests/adversarial/kernel_memcpy_host.cu tests/adversarial/kernel_calls_host_through_pointer.cu; do
		exercise=$(sed -n 's|^// exercise: \(.*\)|\1|p' "$f" | head -1)
		build/cudalings grade "$exercise" --file "$f" --backend gpu --json 2>/dev/null | python3 -c '
import json, sys
r = json.load(sys.stdin)
t = r.get("timing") or {}
print("%s: %s at %s: %s%s" % (sys.argv[1], r["verdict"], r["stage"], r["message"][:300],
      " (%.0f us, %.2fx the reference)" % (t["median_us"], t["median_us"] / t["reference_us"]) if t.get("reference_us") else ""))' "$f"
	done
} 2>&1 | tee ${OUT:+"$OUT/host-memory.txt"}
