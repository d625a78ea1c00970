#!/usr/bin/env bash
# tests/report.sh LOGS SUITE...: every suite's output, whole and in order, with
# its status and what it took (wall clock, and CPU, which a busy machine
# affects less), then a table of them, then the end of each failed suite's
# output once more; exits 1 when any suite failed or did not run. A suite
# that exited 77 was skipped, and said why: it is counted apart, as neither
# passed nor failed. TEST_TIER names the tier in its lines (make test).
set -u
logs=$1
shift
failed=() skipped=() total_cpu=0
for suite in "$@"; do
	id=${suite//\//_}
	if ! read -r status wall user sys 2>/dev/null <"$logs/$id.result"; then
		status=missing wall=0 user=0 sys=0
	fi
	echo "== $suite"
	[ -f "$logs/$id.log" ] && cat "$logs/$id.log"
	case $status in
	0) ;;
	77) skipped+=("$suite") ;;
	*) failed+=("$suite") ;;
	esac
done
echo
echo "== ${TEST_TIER:-make test}: each suite's time (wall, and CPU = user + sys)"
for suite in "$@"; do
	id=${suite//\//_}
	read -r status wall user sys 2>/dev/null <"$logs/$id.result" || status=missing wall=0 user=0 sys=0
	cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.1f", u + s }')
	total_cpu=$(awk -v t="$total_cpu" -v c="$cpu" 'BEGIN { printf "%.1f", t + c }')
	printf '  %-34s %7.1f s  %7.1f s cpu  %s\n' "$suite" "$wall" "$cpu" "$(case $status in 0) echo ok ;; 77) echo skipped ;; *) echo "FAILED ($status)" ;; esac)"
done
printf '  %-34s %7s    %7.1f s cpu\n' "all suites" "" "$total_cpu"
if [ ${#failed[@]} -gt 0 ]; then
	# again at the end, where a log cut to its tail (CI's) still shows why
	for suite in "${failed[@]}"; do
		echo "== $suite failed; the end of its output (all of it is above, and in $logs/${suite//\//_}.log):"
		tail -n 40 "$logs/${suite//\//_}.log" 2>/dev/null
	done
	echo "${TEST_TIER:-make test}: ${#failed[@]} suite(s) failed: ${failed[*]}"
	exit 1
fi
if [ ${#skipped[@]} -gt 0 ]; then
	echo "${TEST_TIER:-make test}: all $(($# - ${#skipped[@]})) suites passed; ${#skipped[@]} skipped (their output says why): ${skipped[*]}"
else
	echo "${TEST_TIER:-make test}: all $# suites passed"
fi
