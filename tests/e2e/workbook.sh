#!/usr/bin/env bash
# The whole workbook on the CPU simulator: every solution passes, every
# starter fails, every wrong variant fails at the stage it declares; and the
# mutants of two solutions fail (make check-exercises grades every
# exercise's; these two between them make mutants of every kind but
# plain_store, whose are tests/e2e/typed.sh's: it keeps make test-long's time
# bounded).
set -u
cd "$(dirname "$0")/../.."
mutated="transpose sliding_average"
rest=$(build/cudalings list --json | python3 -c '
import json, sys
skip = set(sys.argv[1].split())
print(" ".join(i["name"] for i in json.load(sys.stdin)["items"] if i["name"] not in skip))' "$mutated")
# the two side by side: this is make test-long's longest suite, and the rest of the suites wait on it at the end
source tests/lib.sh
build/cudalings check --mutants $mutated >"$tmp/mutants" 2>&1 &
mutants_pid=$!
out=$(build/cudalings check $rest 2>&1)
status=$?
wait "$mutants_pid"
mutants_status=$?
mutants=$(cat "$tmp/mutants")
printf '%s\n%s\n' "$out" "$mutants"
echo "workbook: the mutants of $mutated only (make check-exercises grades every exercise's)"
all=$(printf '%s\n%s\n' "$out" "$mutants")
ok=$(grep -c '^  ok ' <<<"$all")
bad=$(grep -cE '^  (BAD|WEAK) ' <<<"$all")
echo "workbook: $ok passed, $bad failed"
[ "$status" = 0 ] && [ "$mutants_status" = 0 ]
