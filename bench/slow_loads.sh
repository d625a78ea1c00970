#!/usr/bin/env bash
# The slow-kernel diagnosis from the machine code, on a GPU: the coarse transpose whose loops step by
# blockDim.y (bench/slow_loads/step_of_blockdim_y.cu) against the solution, each graded on the GPU
# backend; the table (verdict, ratio to the reference, the loads per thread Nsight Compute counted, the
# diagnosis) goes to OUT/slow-loads.md, each grading's JSON and the variant's SASS beside it.
# usage, from the repository's root on a GPU machine: bash bench/slow_loads.sh OUT
set -u
out=${1:?usage: bench/slow_loads.sh OUT}
mkdir -p "$out"
. tests/lib.sh
gpu_build build/cudalings || exit 1
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
for f in solutions/transpose_coarse.cu bench/slow_loads/step_of_blockdim_y.cu; do
	name=$(basename "$f" .cu)
	start=$(date +%s%N)
	build/cudalings grade transpose_coarse --file "$f" --backend gpu --json >"$out/$name.json" 2>"$out/$name.err"
	echo "$name: status $?, $(( ($(date +%s%N) - start) / 1000000 )) ms"
done
build/cudalings sass transpose_coarse --file bench/slow_loads/step_of_blockdim_y.cu >"$out/step_of_blockdim_y.sass.txt" 2>&1
python3 - "$out" "$gpu" <<'PY' >"$out/slow-loads.md"
import json, sys, datetime
out, gpu = sys.argv[1], sys.argv[2]
print(f"# The slow-kernel diagnosis from the machine code ({gpu})\n")
print(f"`bash bench/slow_loads.sh OUT` on {gpu}, {datetime.date.today()}.\n")
print("| file | verdict | µs | × reference | loads per thread (Nsight Compute) |")
print("|---|---|---|---|---|")
diags = []
for name in ("transpose_coarse", "step_of_blockdim_y"):
    j = json.load(open(f"{out}/{name}.json"))
    t = j.get("timing") or {}
    f = {x.get("name"): x.get("value") for x in (j.get("figures") or [])} if isinstance(j.get("figures"), list) else (j.get("figures") or {})
    print(f"| {name}.cu | {j['verdict']} at {j['stage']} | {t.get('median_us', '')} | {t.get('ratio', '')} | {f.get('global_reads_per_thread', '')} |")
    diags += [(name, d["kind"], d["message"]) for d in j.get("diagnostics", [])]
print()
for name, kind, message in diags:
    print(f"- {name}: `{kind}`: {message}")
PY
cat "$out/slow-loads.md"
