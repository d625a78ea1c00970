#!/usr/bin/env bash
# Do the simulator's budgets agree with the hardware? Each file here breaks a
# budget on the simulator (sectors per request, bank conflicts, global reads
# per output) or is a legitimate alternative; it is graded on the GPU with
# timing, so the table shows whether the GPU finds it slow too. A budget that
# fails a kernel the GPU finds fast fails good code. Run on a GPU machine;
# with OUT set also writes $OUT/budgets-vs-gpu.md. A measurement, not a test.
set -u
cd "$(dirname "$0")/.."
. tests/lib.sh
gpu_build build/cudalings sim || exit 3
g=build/cudalings
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
files=(
	"sliding_average tests/adversarial/fast_sliding_average_seven_reads.cu"
	"sliding_average tests/adversarial/fast_sliding_average_shuffles.cu"
	"sliding_average solutions/sliding_average.cu"
	"sliding_average solutions/wrong/sliding_average/chunk_per_thread.cu"
	"transpose tests/mistakes/transpose/tile_without_padding.cu"
	"transpose tests/adversarial/fast_transpose_swizzled.cu"
	"transpose tests/adversarial/fast_transpose_padded_by_8.cu"
	"transpose tests/mistakes/transpose/tile_padded_by_16.cu"
	"transpose solutions/transpose.cu"
	"tile_transpose tests/mistakes/tile_transpose/scattered_writes.cu"
	"matrix_add tests/mistakes/matrix_add/threadidx_x_picks_row.cu"
	"col_sums tests/mistakes/col_sums/lanes_far_apart.cu"
)
table="| exercise | file | simulator | GPU | GPU ratio | GPU µs | reference µs |
|---|---|---|---|---:|---:|---:|"
for entry in "${files[@]}"; do
	set -- $entry
	row=$(python3 - "$1" "$2" "$($g grade "$1" --file "$2" --backend sim --json 2>/dev/null)" \
		"$($g grade "$1" --file "$2" --backend gpu --json 2>/dev/null)" <<'PY'
import json, sys
name, path, sim, gpu = sys.argv[1:5]
def verdict(text):
    try:
        r = json.loads(text)
    except Exception:
        return "error", {}
    kinds = ",".join(d["kind"] for d in r.get("diagnostics", []))
    v = "pass" if r["verdict"] == "pass" else (r["stage"] or "error")
    return v + (" (" + kinds + ")" if kinds else ""), r.get("timing") or {}
s, _ = verdict(sim)
v, t = verdict(gpu)
f = lambda k, fmt: fmt % t[k] if k in t else "-"
print("| %s | %s | %s | %s | %s | %s | %s |" % (name, path, s, v, f("ratio", "%.2f"),
      f("median_us", "%.1f"), f("reference_us", "%.1f")))
PY
)
	echo "$row"
	table="$table
$row"
done
out="## Simulator budgets against GPU timing, $gpu, $(date -u +%Y-%m-%d)

\`bench/budgets_vs_gpu.sh\`: each file graded with \`--backend sim\` and with
\`--backend gpu\` (timed against the reference in the same rounds).

$table"
[ -n "${OUT:-}" ] && printf '%s\n' "$out" >"$OUT/budgets-vs-gpu.md"
printf '%s\n' "$out"
