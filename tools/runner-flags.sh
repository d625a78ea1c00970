#!/bin/sh
# tools/runner-flags.sh NAME — a value of harness/runner.mk (how a runner is
# built), for scripts: `nvcc $(sh tools/runner-flags.sh NVCC_FLAGS) …`.
# Run from the workbook's folder, or with CUDALINGS_ROOT set.
set -eu
file=${CUDALINGS_ROOT:-.}/harness/runner.mk
value=$(sed -n "s/^$1 := //p" "$file")
if [ -z "$value" ]; then
	echo "runner-flags: no '$1' in $file" >&2
	exit 2
fi
printf '%s\n' "$value"
