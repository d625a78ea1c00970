#!/usr/bin/env python3
"""The simulator against Numba's CUDA simulator, on the same kernels.

    python3 bench/sim/bench.py build/bench/sim/bench-sim [--quick]

Numba's side runs in a child interpreter that has numba (Debian's
python3-numba; NUMBA_ENABLE_CUDASIM=1), ours is bench-sim (bench/sim/kernels.cu,
built with the grader's recipe). Both time one launch and its
synchronisation; ours is the median of several launches, with the order check
(the default) and without it. Prints a Markdown table: bench/sim/RESULTS.md
is its output.
"""
import os
import platform
import shutil
import subprocess
import sys
import time

NUMBA_CHILD = r'''
import os, sys, time
os.environ["NUMBA_ENABLE_CUDASIM"] = "1"
import numpy as np
from numba import cuda, float32

TILE = 32
MM = 16

@cuda.jit
def transpose(src, dst, n):
    # the same conflict-free tile as bench/sim/kernels.cu: 32 x 33 floats
    tile = cuda.shared.array((TILE, TILE + 1), dtype=float32)
    tx, ty = cuda.threadIdx.x, cuda.threadIdx.y
    x = cuda.blockIdx.x * TILE + tx
    y = cuda.blockIdx.y * TILE + ty
    if x < n and y < n:
        tile[ty, tx] = src[y * n + x]
    cuda.syncthreads()
    x = cuda.blockIdx.y * TILE + tx
    y = cuda.blockIdx.x * TILE + ty
    if x < n and y < n:
        dst[y * n + x] = tile[tx, ty]

@cuda.jit
def matmul(a, b, c, n):
    sa = cuda.shared.array((MM, MM), dtype=float32)
    sb = cuda.shared.array((MM, MM), dtype=float32)
    tx, ty = cuda.threadIdx.x, cuda.threadIdx.y
    row = cuda.blockIdx.y * MM + ty
    col = cuda.blockIdx.x * MM + tx
    acc = float32(0.0)
    for t in range((n + MM - 1) // MM):
        ac = t * MM + tx
        br = t * MM + ty
        sa[ty, tx] = a[row * n + ac] if row < n and ac < n else float32(0.0)
        sb[ty, tx] = b[br * n + col] if br < n and col < n else float32(0.0)
        cuda.syncthreads()
        for k in range(MM):
            acc += sa[ty, k] * sb[k, tx]
        cuda.syncthreads()
    if row < n and col < n:
        c[row * n + col] = acc

kind, n = sys.argv[1], int(sys.argv[2])
if kind == "transpose":
    h = np.arange(n * n, dtype=np.float32)
    src, dst = cuda.to_device(h), cuda.device_array(n * n, dtype=np.float32)
    grid = ((n + TILE - 1) // TILE, (n + TILE - 1) // TILE)
    t0 = time.perf_counter()
    transpose[grid, (TILE, TILE)](src, dst, n)
    cuda.synchronize()
    t = time.perf_counter() - t0
    ok = np.array_equal(dst.copy_to_host().reshape(n, n), h.reshape(n, n).T)
else:
    a = (np.arange(n * n) % 7 - 3).astype(np.float32)
    b = (np.arange(n * n) % 5 * 0.5).astype(np.float32)
    da, db, dc = cuda.to_device(a), cuda.to_device(b), cuda.device_array(n * n, dtype=np.float32)
    grid = ((n + MM - 1) // MM, (n + MM - 1) // MM)
    t0 = time.perf_counter()
    matmul[grid, (MM, MM)](da, db, dc, n)
    cuda.synchronize()
    t = time.perf_counter() - t0
    ok = np.allclose(dc.copy_to_host().reshape(n, n), a.reshape(n, n) @ b.reshape(n, n), rtol=1e-4)
print("s=%.3f ok=%d" % (t, ok))
'''

CASES = [
    ("conflict-free transpose 32x33, 128x128", "transpose", 128),
    ("conflict-free transpose 32x33, 256x256", "transpose", 256),
    ("tiled matmul 16x16, 64x64x64", "matmul", 64),
]


def numba_python():
    """An interpreter that can import numba: this one, or Debian's."""
    for py in (sys.executable, "/usr/bin/python3", shutil.which("python3")):
        if py and subprocess.run([py, "-c", "import numba"], capture_output=True).returncode == 0:
            return py
    return None


def parse(out):
    return dict(kv.split("=", 1) for kv in out.split())


def run_numba(py, kind, n):
    out = subprocess.run([py, "-c", NUMBA_CHILD, kind, str(n)], capture_output=True,
                         text=True, check=True).stdout
    v = parse(out)
    return float(v["s"]), v["ok"] == "1"


def run_ours(binary, kind, n, order_check):
    env = dict(os.environ, CUDASIM_ORDER_CHECK="1" if order_check else "0")
    out = subprocess.run([binary, kind, str(n), "9"], capture_output=True, text=True,
                         env=env, check=True).stdout
    v = parse(out)
    return float(v["ms"]), v["ok"] == "1"


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: bench.py build/bench/sim/bench-sim")
    binary = sys.argv[1]
    py = numba_python()
    if not py:
        sys.exit("bench.py: no python3 with numba (apt-get install python3-numba)")
    version = subprocess.run([py, "-c", "import numba; print(numba.__version__)"],
                             capture_output=True, text=True).stdout.strip()

    print("# The simulator against Numba's CUDA simulator")
    print()
    print("`make bench-sim` on %s, %s (%d CPUs), %s; Numba %s with"
          " NUMBA_ENABLE_CUDASIM=1." % (time.strftime("%Y-%m-%d"), platform.machine(),
                                         os.cpu_count(), platform.platform(terse=True), version))
    print("One launch and its synchronisation, compilation excluded; ours is the median of 9"
          " launches, with the order check (the default: every launch runs twice) and without.")
    print()
    print("| kernel | Numba simulator | cudasim | cudasim, no order check | ratio | ratio, no check |")
    print("|---|---:|---:|---:|---:|---:|")
    worst = None
    for name, kind, n in CASES:
        ns, nok = run_numba(py, kind, n)
        ms, ok = run_ours(binary, kind, n, True)
        ms0, ok0 = run_ours(binary, kind, n, False)
        if not (nok and ok and ok0):
            sys.exit("bench.py: a wrong result in %s (numba %s, ours %s/%s)" % (name, nok, ok, ok0))
        ratio = ns * 1e3 / ms
        worst = ratio if worst is None else min(worst, ratio)
        print("| %s | %.2f s | %.2f ms | %.2f ms | %.0fx | %.0fx |"
              % (name, ns, ms, ms0, ratio, ns * 1e3 / ms0))
    per_s = {}
    for check in (True, False):
        env = dict(os.environ, CUDASIM_ORDER_CHECK="1" if check else "0")
        out = subprocess.run([binary, "barriers"], capture_output=True, text=True, env=env,
                             check=True).stdout
        per_s[check] = float(parse(out)["per_s"])
    print()
    print("Barrier crossings on one core (64 blocks of 256 threads, 500 `__syncthreads()` each):"
          " %.1f M/s without the order check, %.1f M/s with it (it runs every launch twice)."
          % (per_s[False] / 1e6, per_s[True] / 1e6))
    print()
    print("Smallest ratio: %.0fx (the target is at least 1000x)." % worst)


if __name__ == "__main__":
    main()
