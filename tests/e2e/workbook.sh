#!/usr/bin/env bash
# The whole workbook on the CPU simulator: every solution passes, every
# starter fails, every wrong variant fails at the stage it declares.
set -u
cd "$(dirname "$0")/../.."
out=$(build/cudalings check 2>&1)
status=$?
printf '%s\n' "$out"
ok=$(grep -c '^  ok ' <<<"$out")
bad=$(grep -c '^  BAD ' <<<"$out")
echo "workbook: $ok passed, $bad failed"
[ "$status" = 0 ]
