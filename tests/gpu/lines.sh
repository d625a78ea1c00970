#!/usr/bin/env bash
# On a GPU machine: the heat map from Nsight Compute's source counters
# (`cudalings grade --lines --backend gpu`) against the marks in tests/lines/
# (the same files `make test` grades on the simulator), and the machine code
# listing built for this GPU. Run alone (`bash tests/gpu/lines.sh`) or by
# tests/gpu/run.sh.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
gpu_build build/cudalings || { echo "lines: cannot build the grader"; exit 3; }
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
command -v ncu >/dev/null || [ -x "$(dirname "$(command -v nvcc)")/ncu" ] || echo "lines: no ncu beside nvcc: the heat map will say so"
status=0
bash tests/lines/run.sh gpu || status=1
# the machine code, built for this GPU, with nvdisasm from its toolkit
bash tests/sass/run.sh gpu || status=1
exit $status
