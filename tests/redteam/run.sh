#!/usr/bin/env bash
# An outside judge's submissions (with files as arguments: those alone), kept out of `make test`:
# legitimate fast kernels, cheats and honest mistakes for every graded exercise; REPORT.md says what
# they found. tests/submissions.sh grades them, and says what each file declares and its settings:
#   bash tests/redteam/run.sh [FILE…]      on the backend the grader picks
#   BACKEND=gpu bash tests/redteam/run.sh  on the GPU
#   NVCC=1 bash tests/redteam/run.sh       only compile each file with nvcc -arch=sm_90
export SUITE=redteam
exec bash "$(dirname "$0")/../submissions.sh" "${@:-$(dirname "$0")}"
