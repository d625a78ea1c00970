#!/usr/bin/env bash
# The simulator's controls have one list, harness/runner.mk's SIM_CONTROLS, and
# everything that keeps them from a submission reads it: every control that
# sim/include/cudasim.h declares (a cudasimName function) is on it; the runner
# exports none of them to the student's object (build/sim/student.dynlist,
# sim/sim.mk); the grader's inspection keeps no list of its own (no control's
# name in grader/'s sources, and SIM_CONTROLS read there). And every name of SIM_WRAPS, whose calls the
# grader's link sends to __wrap_NAME, has that function among the runner's exports.
set -u
cd "$(dirname "$0")/../.."
controls=$(sh tools/runner-flags.sh SIM_CONTROLS) || exit 1
bad=0
fail() { echo "  BAD  $*"; bad=$((bad + 1)); }
# a glob of the list (a trailing * names a prefix) that matches the name
on_list() {
	local c
	for c in $controls; do
		# shellcheck disable=SC2254
		case $1 in $c) return 0 ;; esac
	done
	return 1
}

declared=$(grep -o 'CUDASIM_EXTERN_C[^(]*\bcudasim[A-Z][A-Za-z0-9_]*[[:space:]]*(' sim/include/cudasim.h |
	grep -o 'cudasim[A-Z][A-Za-z0-9_]*' | sort -u)
[ -n "$declared" ] || fail "found no cudasimName function in sim/include/cudasim.h: has its form changed?"
for name in $declared; do
	on_list "$name" || fail "sim/include/cudasim.h declares $name, which is not in harness/runner.mk's SIM_CONTROLS"
done

dynlist=build/sim/student.dynlist
if [ ! -s "$dynlist" ]; then
	fail "no $dynlist: build first (make sim)"
else
	exported=$(sed -n 's/^  \([A-Za-z0-9_]*\);$/\1/p' "$dynlist")
	[ -n "$exported" ] || fail "$dynlist exports nothing: has its form changed?"
	for name in $exported; do
		on_list "$name" && fail "$dynlist exports $name, a control of SIM_CONTROLS, to the student's object"
	done
	# every function the grader's --wrap sends elsewhere has its __wrap_ form there, or the student's
	# object would not load
	wraps=$(sh tools/runner-flags.sh SIM_WRAPS) || exit 1
	[ -n "$wraps" ] || fail "harness/runner.mk's SIM_WRAPS is empty"
	for name in $wraps; do
		echo "$exported" | grep -qx "__wrap_$name" || fail "SIM_WRAPS names $name, but $dynlist exports no __wrap_$name"
	done
fi

grep -rqw SIM_CONTROLS grader/ || fail "grader/ does not read SIM_CONTROLS (harness/runner.mk)"
grep -rnE '"(cudasim[A-Z]|cudasim_ctx_|sim_)[A-Za-z0-9_]*\*?"' grader/ | while IFS= read -r hit; do
	echo "  BAD  grader/ names a control itself, not through SIM_CONTROLS: $hit"
done | grep . && bad=$((bad + 1))

echo "controls: $(echo "$declared" | wc -w) declared by cudasim.h, $(echo "$controls" | wc -w) on the list; $bad problems"
[ "$bad" = 0 ]
