#!/usr/bin/env bash
# The student copy's own tests, as a student runs them: the tarball that
# tools/dist.sh makes, unpacked elsewhere, passes `make test` (the unit tests
# that ship, the corpus, and tests/student-copy.sh: `cudalings check` against
# the shipped references). Long (about 75 s of two cores, plus the copy):
# `make test-long` runs it, not `make test`.
set -u
cd "$(dirname "$0")/../.." && . tests/lib.sh

export DIST_GPU_ARCHS=90
expect 0 "dist: .*cudalings.tar.gz" -- tools/dist.sh "$tmp/dist"
mkdir -p "$tmp/student"
expect 0 "" -- tar -C "$tmp/student" -xzf "$tmp/dist/cudalings.tar.gz"
copy=$tmp/student/cudalings
[ ! -e "$copy/solutions/col_sums.cu" ] && ok || bad "the copy holds an exercise's solution"
expect 0 "student-copy: the copy is consistent" -- make -C "$copy" -j2 test
expect 0 "the workbook is consistent" -- env -C "$copy" build/cudalings check col_sums
expect 0 "not in the student copy: shipped/sim/col_sums.o stands in for it" -- env -C "$copy" build/cudalings check col_sums
# a copy that lost a shipped reference says so, and fails
rm "$copy/shipped/sim/col_sums.o"
expect 1 "no shipped/sim/col_sums.o stands in for it" -- env -C "$copy" build/cudalings check col_sums

echo "copy: $passed passed, $failed failed"
[ "$failed" = 0 ]
