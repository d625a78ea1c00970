#!/usr/bin/env bash
# On a machine with an NVIDIA GPU:
#   tests/gpu/diagnostics.sh mistakes  every tests/mistakes file graded on the GPU
#                                      (compute-sanitizer or Nsight Compute must
#                                      make its diagnosis)
#   tests/gpu/diagnostics.sh table     the memory figures of the transposes and
#                                      the coalescing exercises, from the simulator
#                                      and from Nsight Compute, at the same size
#   tests/gpu/diagnostics.sh           both
# With OUT set, the table is also written to $OUT/diagnostics.md.
set -u
cd "$(dirname "$0")/../.."
what=${1:-all}
. tests/lib.sh
gpu_build build/cudalings sim || { echo "diagnostics: cannot build"; exit 3; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || { echo "diagnostics: no GPU here"; exit 3; }
g=build/cudalings
status=0

if [ "$what" != table ]; then
	BACKEND=gpu tests/mistakes/run.sh || status=1
fi
[ "$what" = mistakes ] && exit $status

# exercise, file, size: what Nsight Compute measures in the same run as the grade
rows=(
	"tile_transpose tests/mistakes/tile_transpose/scattered_writes.cu 4096x4096"
	"tile_transpose solutions/tile_transpose.cu 4096x4096"
	"transpose tests/mistakes/transpose/tile_without_padding.cu 4096x4096"
	"transpose solutions/transpose.cu 4096x4096"
	"matrix_add solutions/matrix_add.cu 2048x2048"
	"matrix_add tests/mistakes/matrix_add/threadidx_x_picks_row.cu 2048x2048"
	"col_sums solutions/col_sums.cu 2048x2048"
	"col_sums tests/mistakes/col_sums/lanes_far_apart.cu 2048x2048"
)
table=$(mktemp)
{
	echo "| exercise | file | size | figure | simulator | Nsight Compute | difference |"
	echo "|---|---|---|---|---:|---:|---:|"
} >"$table"
for row in "${rows[@]}"; do
	read -r exercise file size <<<"$row"
	sim=$($g grade "$exercise" --file "$file" --case "$size" --backend sim --json 2>/dev/null)
	gpu=$($g grade "$exercise" --file "$file" --case "$size" --backend gpu --profile --no-timing --json 2>/dev/null)
	[ "$file" = solutions/transpose.cu ] && transpose=$gpu
	python3 - "$exercise" "$file" "$size" "$sim" "$gpu" >>"$table" <<'EOF' || status=1
import json, sys
exercise, path, size, sim, gpu = sys.argv[1:6]
def figures(text):
    try:
        return json.loads(text).get("figures") or {}
    except Exception:
        return {}
s, g = figures(sim), figures(gpu)
bad = False
for name in ("load_sectors_per_request", "store_sectors_per_request", "bank_conflicts_per_request"):
    a, b = s.get(name), g.get(name)
    if a is None and b is None:
        continue
    if a is None or b is None:
        diff, bad = "missing", True
    else:
        # within 10%; near zero, within 0.25: Nsight's bank-conflict counter reads
        # 0.13-0.23 per request on conflict-free tiles (bench/diagnostics.md)
        d = abs(a - b)
        diff = "%+.1f%%" % (100 * (a - b) / b) if b >= 1 else "%+.2f" % (a - b)
        bad |= d > 0.1 * abs(b) and d > 0.25
    fmt = lambda v: "-" if v is None else "%.2f" % v
    print("| %s | %s | %s | %s | %s | %s | %s |" % (exercise, path, size, name, fmt(a), fmt(b), diff))
sys.exit(1 if bad else 0)
EOF
done
gbps_note=$(printf '%s' "${transpose:-{\}}" | python3 -c 'import json,sys; f=json.load(sys.stdin)["figures"] or {}; print("%.0f" % f["dram_gbps"] if f.get("dram_gbps") else "-")' 2>/dev/null)
{
	echo
	echo "Achieved DRAM bandwidth of solutions/transpose.cu at 4096x4096 under Nsight Compute: $gbps_note GB/s."
	echo "$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader), $(nvcc --version | tail -1)"
} >>"$table"
cat "$table"
[ -n "${OUT:-}" ] && cp "$table" "$OUT/diagnostics.md"
rm -f "$table"
exit $status
