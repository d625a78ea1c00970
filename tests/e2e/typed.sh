#!/usr/bin/env bash
# Buffers that are not float32, end to end on the simulator: a course of its
# own (tests/typed/, found through CUDALINGS_WORKBOOK) whose histogram reads
# uint8 and counts into uint32 bins, and whose key_stats reads int32 and
# float64 and writes both. Solutions pass, starters and wrong variants fail
# with their diagnoses, a check that disagrees with its launcher's types is
# named, and workbook.json refuses a pointer that is no buffer type.
set -u
cd "$(dirname "$0")/../.." && source tests/lib.sh
g=$repo/build/cudalings
export CUDALINGS_WORKBOOK=tests/typed/workbook.json

# every solution passes and every starter and wrong variant fails where it says
expect 0 "the workbook is consistent" -- $g check
expect 0 "histogram +exercise" -- $g list
wrong=tests/typed/solutions/wrong
expect 1 "bins\[0\] is [0-9]+: it was updated .* zero an output before adding into it" -- \
	$g grade histogram --file $wrong/histogram/bins_not_zeroed.cu --backend sim
expect 1 "share|shared-memory word" -- $g grade histogram --file $wrong/histogram/no_atomics.cu --backend sim
expect 1 "totals\[[0-9]+\] is -?[0-9.]+, expected -?[0-9.]+" -- \
	$g grade key_stats --file $wrong/key_stats/totals_in_float.cu --backend sim
expect 1 "counts\[0\] is 0, expected [1-9]" -- \
	$g grade key_stats --file $wrong/key_stats/counts_one_key_over.cu --backend sim

# a uint8 input's elements are bytes: one past its end is element n, not n / 4
sed 's/i < (size_t)n; i +=/i <= (size_t)n; i +=/' tests/typed/solutions/histogram.cu >"$tmp/one_past.cu"
expect 1 "pixels\[31\], one past the end of pixels \(31 elements\)" -- \
	$g grade histogram --file "$tmp/one_past.cu" --backend sim

# a course folder outside the checkout: its check says int32 where the launcher takes unsigned int
cp -r tests/typed "$tmp/course"
sed -i 's/"bins", BUFFER_OUT, DTYPE_UINT32/"bins", BUFFER_OUT, DTYPE_INT32/' "$tmp/course/harness/checks/histogram.cpp"
# (read from the check's source when the workbook loads: a usage error, exit 2, before any compile)
expect 2 "histogram: the launcher's parameter 2, 'unsigned int \*bins', is uint32, but .*harness/checks/histogram.cpp declares buffer 2, 'bins', as int32" -- \
	env CUDALINGS_WORKBOOK="$tmp/course/workbook.json" $g grade histogram --file tests/typed/solutions/histogram.cu --backend sim

# workbook.json: a pointer to no buffer type, a negative tolerance, a file that is not there
cp tests/typed/workbook.json "$tmp/course/workbook.json"
sed -i 's/const unsigned char \*pixels/const short *pixels/' "$tmp/course/workbook.json"
expect 2 "histogram: the launcher's parameter 'const short \*pixels' is not a buffer the harness knows" -- \
	env CUDALINGS_WORKBOOK="$tmp/course/workbook.json" $g list
cp tests/typed/workbook.json "$tmp/course/workbook.json"
sed -i 's/"threshold_ratio": 1.25,/"threshold_ratio": 1.25, "tolerance": { "rtol": -1 },/' "$tmp/course/workbook.json"
expect 2 "histogram: \"tolerance\" is never negative" -- env CUDALINGS_WORKBOOK="$tmp/course/workbook.json" $g list
expect 2 "CUDALINGS_WORKBOOK is '/no/such.json', which is not a workbook.json file" -- \
	env CUDALINGS_WORKBOOK=/no/such.json $g list

# mutants: the histogram's global merge made a plain += is killed on the simulator too (two blocks'
# read-modify-write of one bin), and key_stats' launch bound written <= is equivalent, as workbook.json says
out=$($g check --mutants histogram key_stats 2>&1)
status=$?
if [ "$status" = 0 ] && grep -q "8 mutants of tests/typed/solutions/histogram.cu: 8 killed, 0 equivalent, 0 weak" <<<"$out" &&
	grep -qE "plain_store@27 +atomicAdd made a plain store +killed at correctness \(cross_block_update\)" <<<"$out" &&
	grep -qE "bound_guard@47 +'<' made '<=': passes, equivalent: blocks <= MAX_BLOCKS" <<<"$out"; then
	ok
else
	bad "check --mutants histogram key_stats, got $status:"
	printf '%s\n' "$out" | tail -20
fi
# equivalent_mutants is checked on load, and against the mutants the solution has
cp tests/typed/harness/checks/histogram.cpp tests/typed/harness/checks/key_stats.cpp "$tmp/course/harness/checks/"
cp tests/typed/workbook.json "$tmp/course/workbook.json"
sed -i 's/"bound_guard@47"/"bound_gaurd@47"/' "$tmp/course/workbook.json"
expect 2 "key_stats: equivalent_mutants 1: 'bound_gaurd@47' names no operator: did you mean 'bound_guard'" -- \
	env CUDALINGS_WORKBOOK="$tmp/course/workbook.json" $g list
cp tests/typed/workbook.json "$tmp/course/workbook.json"
sed -i 's/{ "mutant": "bound_guard@47", "why": "[^"]*" }/{ "mutant": "bound_guard@47" }/' "$tmp/course/workbook.json"
expect 2 "key_stats: equivalent_mutants 1 needs a \"why\"" -- env CUDALINGS_WORKBOOK="$tmp/course/workbook.json" $g list
cp tests/typed/workbook.json "$tmp/course/workbook.json"
sed -i 's/{ "mutant": "bound_guard@47", "why": "[^"]*" }/{ "mutant": "plain_store@35", "why": "it is not" }, { "mutant": "plain_store@99", "why": "stale" }/' \
	"$tmp/course/workbook.json"
out=$(env CUDALINGS_WORKBOOK="$tmp/course/workbook.json" $g check --mutants key_stats 2>&1)
status=$?
if [ "$status" = 1 ] && grep -q "calls plain_store@35 equivalent, but the checks kill it" <<<"$out" &&
	grep -q "calls 'plain_store@99' equivalent, but .* has no such mutant" <<<"$out" &&
	grep -q "WEAK mutant bound_guard@47" <<<"$out"; then
	ok
else
	bad "equivalent_mutants that name a killed mutant and no mutant, got $status:"
	printf '%s\n' "$out" | tail -20
fi

echo "typed: $passed passed, $failed failed"
[ "$failed" = 0 ]
