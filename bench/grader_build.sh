#!/usr/bin/env bash
# The grader's own build of an exercise's side, against Make doing the same check: on a built tree, the
# CPU and wall time of (1) `cudalings prepare` finding every exercise's runner and judge up to date,
# (2) `make -q` over one exercise's runner and judge (a makefile of their objects, each object's .d
# included: what a generated makefile would at least cost) and (3) `make -q` over the project's Makefile.
# Prints a markdown table. A measurement, not a test. Usage: bench/grader_build.sh [EXERCISE] [RUNS]
set -u
cd "$(dirname "$0")/.."
ex=${1:-col_sums} runs=${2:-10}
b=$(sh tools/runner-flags.sh BUILD_DIR)
make -s all prepare >/dev/null || exit 3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
link_objects() { tr ' ' '\n' <"$1" | grep '\.o$'; }
{
	echo "OBJS := $(link_objects "$b/sim/runner/$ex.cmd" | tr '\n' ' ')"
	echo "JOBJS := $(link_objects "$b/judge/$ex.cmd" | tr '\n' ' ')"
	echo 'all: '"$b/sim/runner/$ex $b/judge/$ex"
	# each object's .d names the grader's temporary file as its target: here, the object
	for o in $(link_objects "$b/sim/runner/$ex.cmd") $(link_objects "$b/judge/$ex.cmd"); do
		[ -f "$o.d" ] && sed "1s|^[^:]*:|$o:|" "$o.d" >"$tmp/$(echo "$o" | tr / _).d"
	done
	echo "-include $tmp/*.d"
	echo "$b/sim/runner/$ex: \$(OBJS) ; @echo relink \$@"
	echo "$b/judge/$ex: \$(JOBJS) ; @echo relink \$@"
} >"$tmp/one.mk"
make -q -f "$tmp/one.mk" || { echo "$tmp/one.mk: make -q finds something to do: not a built tree" >&2; exit 3; }
n=$(build/cudalings list --json | python3 -c 'import json,sys; print(sum(i["kind"]=="exercise" for i in json.load(sys.stdin)["items"]))')
# measure LABEL PER COMMAND...: RUNS runs; wall and CPU (user + sys, children included) per PER
measure() {
	local label=$1 per=$2
	shift 2
	local t
	t=$( { TIMEFORMAT='%R %U %S'; time (for _ in $(seq "$runs"); do "$@" >/dev/null 2>&1; done); } 2>&1 | tail -1)
	echo "$t" | awk -v l="$label" -v n="$((runs * per))" '{ printf "| %s | %.1f | %.2f |\n", l, 1000 * $1 / n, 1000 * ($2 + $3) / n }'
}
echo "## The grader's build check against make -q, $(date -u +%Y-%m-%d), $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg)"
echo
echo "| what (per exercise, up to date) | wall ms | CPU ms |"
echo "|---|---:|---:|"
measure "cudalings prepare --jobs 1 (all $n exercises, per exercise)" "$n" build/cudalings prepare --quiet --jobs 1
measure "make -q over $ex's runner and judge (their objects and .d files)" 1 make -q -f "$tmp/one.mk"
measure "make -q over the project's Makefile" 1 make -q
