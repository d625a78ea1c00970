#!/usr/bin/env bash
# The student copy (make dist) checks itself: every exercise's starter fails
# against the reference that ships compiled in shipped/, every demo's variants
# compute the right result, every lesson is there (cudalings check), and no
# exercise offers a solution it does not have. Run by `make test` in the copy.
set -u
cd "$(dirname "$0")/.."
[ -d shipped/starters ] || { echo "student-copy: not a student copy (no shipped/): nothing to check"; exit 1; }
failed=0
if ! build/cudalings check >build/student-copy.log 2>&1 || ! grep -q "the workbook is consistent" build/student-copy.log; then
	cat build/student-copy.log
	echo "FAIL: cudalings check"
	failed=1
fi
build/cudalings list --json | python3 -c '
import json, sys
for i in json.load(sys.stdin)["items"]:
    if i["kind"] == "exercise" and i["has_solution"]:
        sys.exit("FAIL: %s offers a solution the copy does not ship" % i["name"])' || failed=1
echo "student-copy: $([ $failed = 0 ] && echo "the copy is consistent" || echo "problems above")"
exit $failed
