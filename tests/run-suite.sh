#!/usr/bin/env bash
# tests/run-suite.sh LOGS SUITE COMMAND...: one suite of `make test` (a
# Criterion program or a script, SUITE its path), its output kept in
# LOGS/ID.log (ID: SUITE with / made _) and "STATUS WALL USER SYS" (seconds,
# its children's CPU included) in LOGS/ID.result; says one line
# when it ends. A suite that exits 77 was skipped (as automake's test
# harness has it): it printed why. tests/report.sh prints them all, in order, once every suite
# has ended, so suites running side by side never mix their lines.
set -u
logs=$1 suite=$2 id=${2//\//_}
shift 2
mkdir -p "$logs"
rm -f "$logs/$id.result"
TIMEFORMAT='%R %U %S'
# a suite that hangs is stopped, not waited for all of CI's time: far beyond any suite's slowest run,
# loaded machines included (1200 s stopped four suites of a clean clone at a load of 20 to 30,
# bench/make-test.md: the longest take 3 minutes of CPU, beside the other suites on two cores)
limit=${SUITE_LIMIT:-2400}
{ time timeout --kill-after=10 "$limit" "$@" >"$logs/$id.log" 2>&1 </dev/null; } 2>"$logs/$id.time"
status=$?
[ "$status" = 124 ] || [ "$status" = 137 ] && echo "run-suite: $suite was stopped after $limit s: it hung" >>"$logs/$id.log"
read -r wall user sys <"$logs/$id.time"
echo "$status $wall $user $sys" >"$logs/$id.result"
rm -f "$logs/$id.time"
case $status in 0) said=done ;; 77) said=skip ;; *) said=FAIL ;; esac
printf '  %-4s %-34s %6.1f s\n' "$said" "$suite" "$wall"
# the suite's verdict is the report's to give: the other suites go on
exit 0
