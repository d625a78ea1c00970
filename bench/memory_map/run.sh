#!/usr/bin/env bash
# The figures of the "memory map" lesson and the lessons' claims about
# caches and registers, measured in one run on a GPU machine:
#   bash bench/memory_map/run.sh
# writes bench/memory-map-GPU.md (GPU: h100, h200, … from the device's
# name; a copy in $OUT when OUT is set) with
#   - the sizes the GPU reports and the bandwidth of DRAM, L2 and shared
#     memory (bench/memory_map/hierarchy.cu);
#   - the memory_map demo's aligned and shifted copies and the transposes,
#     timed side by side (bench/gold/gold_bench, from a flushed L2);
#   - Nsight Compute's DRAM bytes, L1 and L2 hit rates, sectors and registers
#     per thread for the demos and solutions the lessons talk about, each
#     variant launched alone (gold_bench --launch), caches flushed by ncu,
#     clocks left alone.
# A measurement, not a test; exits 3 without a GPU or ncu. About 3 minutes.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
gpu_env
if ! command -v nvidia-smi >/dev/null || ! nvidia-smi -L >/dev/null 2>&1; then
	echo "memory_map: no GPU here" >&2
	exit 3
fi
ncu=$(command -v ncu || echo "$(dirname "$(command -v nvcc)")/ncu")
[ -x "$ncu" ] || { echo "memory_map: no ncu beside nvcc" >&2; exit 3; }
out=build/memory-map
mkdir -p "$out"
raw=$tmp

nvcc -std=c++17 -O3 -arch=sm_90 -o "$out/hierarchy" bench/memory_map/hierarchy.cu || exit 1
"$out/hierarchy" >"$raw/hierarchy.md" || exit 1

# the variants the lessons name that are no demo: EXERCISE@LABEL.cu, as bench/gold/build.sh wants
cp solutions/wrong/col_sums/strided_lanes.cu "$raw/col_sums@strided_lanes.cu"
EXERCISES="col_sums tile_transpose transpose sliding_average matmul_naive matmul_registers" \
	DEMOS="coalescing row_sums naive_transpose memory_map" JOBS=$(nproc) OUT_DIR="$out/gold" \
	bash bench/gold/build.sh "$raw/col_sums@strided_lanes.cu" >&2 || exit 1
bench=$out/gold/gold_bench
"$bench" --rounds 20 --only memory_map,naive_transpose,tile_transpose,transpose >"$raw/times.txt" || exit 1

metrics=dram__bytes_read.sum,dram__bytes_write.sum,l1tex__t_sector_hit_rate.pct,lts__t_sector_hit_rate.pct
metrics=$metrics,launch__registers_per_thread,gpu__time_duration.sum,lts__t_sectors_srcunit_tex_op_read.sum
metrics=$metrics,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
n=0
while read -r item label; do
	n=$((n + 1))
	timeout 40 "$ncu" --csv --page raw --print-units base --clock-control none --metrics "$metrics" --log-file "$raw/$n.csv" \
		"$bench" --skip-check --only "$item" --launch "$label" >"$raw/$n.out" 2>&1
	printf '%s %s\n' "$item" "$label" >"$raw/$n.what"
done <<'LIST'
memory_map reference
memory_map misaligned_by_4_bytes
memory_map shifted_by_32_bytes
coalescing reference
coalescing stride_2
coalescing stride_16
row_sums reference
row_sums warp_per_row
col_sums reference
col_sums strided_lanes
naive_transpose reference
naive_transpose coalesced_writes
tile_transpose reference
transpose reference
sliding_average reference
sliding_average gold
matmul_naive reference
matmul_registers reference
matmul_registers gold
LIST

gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
slug=$(python3 -c '
import re, sys
m = re.search(r"NVIDIA (?:GeForce |RTX )*([A-Z]+\d+\w*)", sys.argv[1])
print(m.group(1).lower() if m else "gpu")' "$gpu")
python3 - "$raw" "$gpu" "$(date -u +%Y-%m-%d)" "$(nvcc --version | tail -1)" >"bench/memory-map-$slug.md" <<'PY'
import csv, io, re, sys
from pathlib import Path
raw, gpu, date, nvcc = Path(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
print("# The memory map, and what the caches do, on %s, %s\n" % (gpu, date))
print("`bash bench/memory_map/run.sh` (%s).\n" % nvcc)
print((raw / "hierarchy.md").read_text().replace("## The memory map on", "## Sizes and bandwidths,").rstrip() + "\n")
times = (raw / "times.txt").read_text()
table = times[times.index("| exercise |"):times.rindex("|") + 1] if "| exercise |" in times else "(no timings)"
print("## The memory_map demo and the transposes, timed\n")
print("`gold_bench --rounds 20 --only memory_map,naive_transpose,tile_transpose,transpose`: each variant")
print("from a flushed L2, all in the same rounds, beside a device-to-device copy of the same bytes.\n")
print(table + "\n")
print("## Nsight Compute: bytes, hit rates, registers\n")
print("Each variant launched alone at its timed size (`gold_bench --launch LABEL`) under")
print("`ncu --clock-control none`, which flushes the caches before every kernel; the second")
print("launch's figures. × bytes: DRAM bytes read and written over the fewest the kernel must")
print("move (harness/checks). Sectors/request: global loads, 32-byte sectors per warp request.\n")
cols = ["item", "variant", "kernel", "registers", "DRAM read MB", "DRAM write MB", "× bytes", "L1 hit %",
        "L2 hit %", "L1→L2 read sectors (M)", "sectors/request", "µs"]
print("| " + " | ".join(cols) + " |")
print("|" + "|".join("---" if c in ("item", "variant", "kernel") else "---:" for c in cols) + "|")
def f(v):
    try:
        return float(str(v).replace(",", ""))
    except ValueError:
        return None
for what in sorted(raw.glob("*.what"), key=lambda p: int(p.stem)):
    item, label = what.read_text().split()
    out = (raw / (what.stem + ".out")).read_text()
    m = re.search(r"launched \S+ \S+ (\d+) bytes", out)
    need = float(m.group(1)) if m else None
    text = (raw / (what.stem + ".csv")).read_text() if (raw / (what.stem + ".csv")).exists() else ""
    lines = [l for l in text.splitlines() if l.startswith('"')]
    rows = list(csv.DictReader(io.StringIO("\n".join(lines))))
    rows = [r for r in rows if f(r.get("launch__registers_per_thread")) is not None]
    if not rows:
        print("| %s | %s | (not measured) |%s" % (item, label, " |" * (len(cols) - 3)))
        continue
    # the second launch: the last rows, one per kernel of the launch
    kernels = []
    for r in rows:
        kernels.append(r)
    half = len(kernels) // 2 if len(kernels) % 2 == 0 else len(kernels)
    last = kernels[-half:] if half else kernels
    read = sum(f(r["dram__bytes_read.sum"]) or 0 for r in last)
    write = sum(f(r["dram__bytes_write.sum"]) or 0 for r in last)
    for k, r in enumerate(last):
        name = re.sub(r"\(.*", "", r.get("Kernel Name", "?"))
        ld = f(r["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"]) or 0
        rq = f(r["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"]) or 0
        row = [item, label, "`%s`" % name, "%d" % f(r["launch__registers_per_thread"]),
               "%.1f" % (f(r["dram__bytes_read.sum"]) / 1e6), "%.1f" % (f(r["dram__bytes_write.sum"]) / 1e6),
               "%.2f" % ((read + write) / need) if need and k == 0 else "",
               "%.1f" % f(r["l1tex__t_sector_hit_rate.pct"]), "%.1f" % f(r["lts__t_sector_hit_rate.pct"]),
               "%.1f" % ((f(r["lts__t_sectors_srcunit_tex_op_read.sum"]) or 0) / 1e6),
               "%.2f" % (ld / rq) if rq else "-", "%.1f" % ((f(r["gpu__time_duration.sum"]) or 0) / 1e3)]
        print("| " + " | ".join(row) + " |")
PY
[ -n "${OUT:-}" ] && cp "bench/memory-map-$slug.md" "$OUT/" && cp -r "$raw" "$OUT/raw"
cat "bench/memory-map-$slug.md"
