#!/bin/sh
# tools/runner-flags.sh NAME — a value of harness/runner.mk (how a runner is
# built), for scripts: `nvcc $(sh tools/runner-flags.sh NVCC_FLAGS) …`, read
# by tools/runner-flags.awk as the grader reads it ($(BUILD_DIR) expanded).
# Run from the workbook's folder, or with CUDALINGS_ROOT set.
set -eu
exec awk -v name="$1" -f "$(dirname "$0")/runner-flags.awk" "${CUDALINGS_ROOT:-.}/harness/runner.mk"
