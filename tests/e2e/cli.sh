#!/usr/bin/env bash
# The command line's answers to bad input: a clear message and the contract's
# exit status (2 usage, 3 environment), never a crash. Needs no GPU.
set -u
cd "$(dirname "$0")/../.."
source tests/workbook-copy.sh
g=$PWD/build/cudalings
source tests/lib.sh

expect 2 "there is no exercise 'nosuch'" -- $g grade nosuch
expect 2 "the exercises are: .*col_sums .*matrix_add" -- $g grade nosuch
expect 2 "did you mean 'transpose'" -- $g grade transpos
expect 2 "not an exercise name" -- $g grade ../../etc/passwd
expect 2 "say which exercise" -- $g grade
expect 2 "one too many" -- $g grade col_sums matmul
expect 2 "unknown option '--fast'" -- $g grade col_sums --fast
expect 2 "'--file' needs a value" -- $g grade col_sums --file
# the simulator's CPU limits may be lowered (make test does), never raised
expect 0 "CUDALINGS_SIM_CPU_LIMIT is '30', not seconds from 1 to below 20: the usual limits hold" -- \
	env CUDALINGS_SIM_CPU_LIMIT=30 $g grade col_sums --file solutions/col_sums.cu --backend sim
expect 2 "cannot read '/no/such.cu'" -- $g grade col_sums --file /no/such.cu
expect 2 "is a directory" -- $g grade col_sums --file "$tmp"
: >"$tmp/empty.cu"
expect 2 "is empty" -- $g grade col_sums --file "$tmp/empty.cu"
head -c 1100000 /dev/zero | tr '\0' 'x' >"$tmp/huge.cu"
expect 2 "at most 1 MB" -- $g grade col_sums --file "$tmp/huge.cu"
printf 'int x;\0\1\2' >"$tmp/binary.cu"
expect 2 "not a text file" -- $g grade col_sums --file "$tmp/binary.cu"
expect 2 "'gpu' or 'sim', not 'tpu'" -- $g grade col_sums --backend tpu
expect 2 "not a cudalings command" -- $g frobnicate
expect 2 "did you mean 'batch'" -- $g bacth
expect 0 "usage: cudalings" -- $g --help
expect 0 "col_sums +exercise" -- $g list
expect 0 '"name":	"matmul"' -- $g list --json
if ! [ -e /dev/nvidiactl ] && ! [ -e /dev/nvidia0 ]; then
	expect 3 "no NVIDIA GPU found" -- $g grade col_sums --backend gpu
fi
expect 0 "" -- $g starters --check
expect 0 "__global__ void col_sums_kernel" -- $g starter col_sums

# the verdict's line names the first diagnosis, not the case summary's guess (an untransposed tile also
# reads the unloaded edge of its tile: "copied from __shared__ memory that no thread stored to")
out=$($g grade transpose --file tests/mistakes/transpose/untransposed_tile.cu --backend sim 2>&1)
if grep -q "copied from __shared__" <<<"$out" &&
	grep -qE "^FAIL  at correctness: case [0-9x]+: each 32×32 tile of out holds the right values" <<<"$out" &&
	! grep "^FAIL" <<<"$out" | grep -q "copied from __shared__"; then
	passed=$((passed + 1))
else
	failed=$((failed + 1))
	printf 'FAIL: the untransposed tile'"'"'s verdict line does not name its diagnosis:\n%s\n' "$out"
fi

# reset keeps the student's work: in a copy of the workbook, never the repo's own files
mkdir -p "$tmp/book"
workbook_files "$PWD" | xargs -0 cp --parents -t "$tmp/book"
echo "// my own work" >>"$tmp/book/exercises/matmul.cu"
expect 0 "your version is in .cudalings/backup/matmul-" -- env CUDALINGS_ROOT="$tmp/book" $g reset matmul
if grep -q "my own work" "$tmp"/book/.cudalings/backup/matmul-*.cu && ! grep -q "my own work" "$tmp/book/exercises/matmul.cu"; then
	passed=$((passed + 1))
else
	failed=$((failed + 1))
	echo "FAIL: reset lost the student's file or did not restore the starter"
fi

# hints, where the student stands and the solution, from the command line: the one progress state the
# workbook keeps, and its rules (hints one at a time, per failure; the solution asked for before a pass)
book() { env CUDALINGS_ROOT="$tmp/book" "$@" </dev/null; }
expect 0 "^hint 1 of 3: Does every column get exactly one thread" -- book $g hint col_sums
expect 0 "^hint 2 of 3: A thread's column" -- book $g hint col_sums
expect 0 '"correctness": 2' -- python3 -m json.tool "$tmp/book/.cudalings/state.json"
expect 2 "hints come one at a time: you have seen 0 of 3; 'cudalings hint matrix_add' shows hint 1" -- \
	book $g hint matrix_add 3
expect 2 "col_sums has 3 hints for where it fails, not 4" -- book $g hint col_sums 4
expect 2 "the hint's number is 1, 2, 3…, not 'x'" -- book $g hint col_sums x
expect 2 "'coalescing' is a demo" -- book $g hint coalescing
# a grading that failed with a diagnosis: its own hints, counted apart from the first try's
mkdir -p "$tmp/book/.cudalings/reports"
echo '{"exercise": "col_sums", "verdict": "fail", "stage": "run", "diagnostics": [{"kind": "out_of_bounds"}]}' \
	>"$tmp/book/.cudalings/reports/col_sums.json"
expect 0 "^hint 1 of 3: Which thread touches memory past the end" -- book $g hint col_sums
expect 0 "^ *[0-9]+  col_sums +exercise +not started" -- book $g status
expect 0 "0 of 12 exercises done" -- book $g status
expect 0 " 1  coalescing +demo +not read" -- book $g status
expect 2 "you have not passed col_sums yet: 'cudalings solution col_sums --yes' shows it anyway" -- \
	book $g solution col_sums
expect 0 "int col = blockIdx.x \* blockDim.x \+ threadIdx.x;" -- book $g solution col_sums --yes
expect 0 "^    // give each thread its own column" -- book $g solution col_sums --yes
python3 - "$tmp/book/.cudalings/state.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
s["items"]["col_sums"]["status"] = "correct_on_sim"
json.dump(s, open(sys.argv[1], "w"))
PY
expect 0 "^ *[0-9]+  col_sums +exercise +correct on the simulator" -- book $g status
expect 0 "1 of 12 exercises done \(0 on a GPU\)" -- book $g status
echo "// my own col_sums" >>"$tmp/book/exercises/col_sums.cu"
expect 0 "exercises/col_sums.cu is the solution now; your version is in .cudalings/backup/col_sums-" -- \
	book $g solution col_sums --use
if grep -q "my own col_sums" "$tmp"/book/.cudalings/backup/col_sums-*.cu && ! grep -q "BEGIN SOLUTION" \
	"$tmp/book/exercises/col_sums.cu" && grep -q "int col = blockIdx.x" "$tmp/book/exercises/col_sums.cu"; then
	passed=$((passed + 1))
else
	failed=$((failed + 1))
	echo "FAIL: solution --use lost the student's file or wrote the solution with its markers"
fi
: >"$tmp/book/exercises/matrix_add.cu"
expect 2 "make reset EX=matrix_add puts the starter back" -- book $g grade matrix_add
rm "$tmp/book/exercises/matrix_add.cu"
expect 2 "make reset EX=matrix_add puts the starter back" -- book $g grade matrix_add
echo '{"items": [' >"$tmp/book/workbook.json"
expect 2 "workbook.json:[0-9]+: not valid JSON" -- env CUDALINGS_ROOT="$tmp/book" $g list
expect 2 "no workbook.json there" -- env CUDALINGS_ROOT=/nonexistent $g list

# workbook.json is checked on load: every mistake named, with its item and key
bad_book() {
	mkdir -p "$tmp/bad"
	printf '%s\n' "$1" >"$tmp/bad/workbook.json"
	expect 2 "$2" -- env CUDALINGS_ROOT="$tmp/bad" $g list
}
bad_book '[]' "the top level must be an object"
bad_book '{"version": 1, "items": []}' '"items" must list'
bad_book '{"version": 7, "items": [{"name": "a", "kind": "lesson"}]}' '"version" must be 1'
bad_book '{"items": [{"name": "a", "kind": "lesson", "titel": "x"}]}' "a: unknown key 'titel': did you mean 'title'"
bad_book '{"items": [{"name": "a", "threshhold_ratio": 2}]}' "did you mean 'threshold_ratio'"
bad_book '{"items": [{"name": "a", "kind": "lesson", "hints": [{"when": "racee", "text": "x"}]}]}' \
	"a: hint 1: unknown \"when\" 'racee': did you mean 'race'"
bad_book '{"items": [{"name": "a", "kind": "lesson", "title": 3}]}' '"title" must be a string'
bad_book '{"items": [{"name": "a", "kind": "lesson"}, {"name": "a", "kind": "lesson"}]}' "listed twice"
demo='"name": "d", "kind": "demo", "launcher": "void d_launch(float *out, int n)", "dims": ["n"]'
bad_book "{\"items\": [{$demo, \"cases\": [[4]], \"timed\": [4], \"timing_ways\": 1}]}" \
	'd: "timing_ways" must be true or false'
bad_book "{\"items\": [{$demo, \"cases\": [[1], [4]], \"timed\": [4], \"timing_ways\": true}]}" \
	'd: "timing_ways" is for a demo whose first case is its "timed" size'
bad_book "{\"items\": [{$demo, \"cases\": [[4]], \"timed\": [4], \"budgets_on_gpu\": \"yes\"}]}" \
	'd: "budgets_on_gpu" must be true or false'
bad_book "{\"items\": [{$demo, \"cases\": [[4]], \"timed\": [4], \"budgets_on_gpu\": true}]}" \
	'd: "budgets_on_gpu" needs "budgets" to judge'
bad_book "{\"items\": [{$demo, \"cases\": [[4]], \"check\": \"e\"}]}" \
	"d: \"check\" names 'e', which is not an exercise or demo listed before it"
other='"name": "e", "kind": "demo", "launcher": "void e_launch(const float *in, float *out, int n)", "dims": ["n"]'
bad_book "{\"items\": [{$demo, \"cases\": [[4]]}, {$other, \"cases\": [[4]], \"check\": \"d\"}]}" \
	"e: \"check\" 'd' needs the same launcher parameters and sizes as 'd' has"

# a grid-wide sync runs under a cooperative launch only: under <<<>>> the simulator says so, as a GPU would hang
cat >"$tmp/grid_sync.cu" <<'CU'
#include <cooperative_groups.h>
#include "cudalings/col_sums.h"
namespace cg = cooperative_groups;
__global__ void sums(const float *a, float *s, int rows, int cols)
{
    cg::grid_group grid = cg::this_grid();
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    grid.sync();
    if (c < cols) {
        float t = 0;
        for (int r = 0; r < rows; r++)
            t += a[(size_t)r * cols + c];
        s[c] = t;
    }
}
void col_sums_launch(const float *a, float *s, int rows, int cols) { sums<<<(cols + 255) / 256, 256>>>(a, s, rows, cols); }
CU
expect 1 "a grid-wide sync needs a cooperative launch" -- \
	$g grade col_sums --file "$tmp/grid_sync.cu" --backend sim
# what the simulator cannot run is said so, with no verdict (exit 3), never a misleading compile error
# (CUB's block and warp reductions it runs; a block scan it has not)
{ echo '#include <cub/cub.cuh>'; echo 'typedef cub::BlockScan<float, 256> scan;'; cat "$tmp/grid_sync.cu"; } >"$tmp/cub.cu"
expect 3 "the simulator cannot run CUB beyond its block and warp reductions, loads and stores: grade this on a GPU" -- $g grade col_sums --file "$tmp/cub.cu" --backend sim
# while a block's groups and tiles it runs
sed -e 's/cg::grid_group grid = cg::this_grid();/cg::thread_block block = cg::this_thread_block();/' \
	-e 's/grid.sync();/block.sync();/' "$tmp/grid_sync.cu" >"$tmp/block_sync.cu"
expect 0 "PASS" -- $g grade col_sums --file "$tmp/block_sync.cu" --backend sim
# and a launch it cannot make: a kernel given by a pointer of no type
cat >"$tmp/untyped.cu" <<'CU'
#include "cudalings/col_sums.h"
__global__ void sums(const float *a, float *s, int rows, int cols) { s[0] = a[0] + rows + cols; }
void col_sums_launch(const float *a, float *s, int rows, int cols)
{
    const void *fn = (const void *)sums;
    void *args[] = { &a, &s, &rows, &cols };
    cudaLaunchKernel(fn, dim3(1), dim3(1), args, 0, 0);
}
CU
expect 3 "the simulator cannot launch a kernel given by a pointer of no type" -- \
	$g grade col_sums --file "$tmp/untyped.cu" --backend sim
# and a file nvcc accepts that the simulator cannot compile (an intrinsic it lacks) is its limit, said so
# (without nvcc nothing tells the two apart, and the compile fails)
if command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ]; then
	sed 's/s\[c\] = t;/s[c] = __fadd_rz(t, 0.0f);/' "$tmp/block_sync.cu" >"$tmp/lacks.cu"
	expect 3 "the simulator cannot compile this file, which nvcc accepts" -- \
		$g grade col_sums --file "$tmp/lacks.cu" --backend sim
fi

# a batch's --out and options, checked before anything is graded
mkdir -p "$tmp/class"
cp solutions/col_sums.cu "$tmp/class/=HYPERLINK(x).cu"
expect 2 "--out is empty" -- $g batch col_sums "$tmp/class" --out ""
expect 2 "is the root folder" -- $g batch col_sums "$tmp/class" --out /
expect 2 "inside the submissions folder" -- $g batch col_sums "$tmp/class" --out "$tmp/class/results"
expect 2 "takes seconds" -- $g batch col_sums "$tmp/class" --out "$tmp/out" --timeout nan
expect 2 "needs a value" -- $g batch col_sums "$tmp/class" --out
expect 2 "needs a GPU" -- $g grade col_sums --backend sim --profile
expect 0 "1 submission" -- $g batch col_sums "$tmp/class" --out "$tmp/out" --backend sim
# a row the grader itself failed on is graded again when the batch is run again; a verdict is kept
python3 - "$tmp/out/=HYPERLINK(x).json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1])); r["stage"] = "error"; r["verdict"] = "fail"; r["batch"]["final"] = False
json.dump(r, open(sys.argv[1], "w"))
PY
expect 0 "1 of them again: the grader gave no verdict on it last time" -- $g batch col_sums "$tmp/class" --out "$tmp/out" --backend sim
expect 0 "0 graded now, 1 from an earlier run" -- $g batch col_sums "$tmp/class" --out "$tmp/out" --backend sim
# odd submissions: said, graded or recorded, never a hang or a stop (the bound on a hang: far past three
# compiles and their cases on a loaded machine)
mkdir -p "$tmp/odd"
cp solutions/col_sums.cu "$tmp/odd/BOB.CU"
cp solutions/col_sums.cu "$tmp/odd/.hidden.cu"
echo notes >"$tmp/odd/notes.txt"
mkfifo "$tmp/odd/fifo.cu"
long=$(printf 'x%.0s' $(seq 250))
cp solutions/col_sums.cu "$tmp/odd/$long.cu"
expect 0 "'notes.txt' is not a .cu file" -- timeout 900 $g batch col_sums "$tmp/odd" --out "$tmp/odd-out" --backend sim
expect 0 "^BOB,pass" -- cat "$tmp/odd-out/gradebook.csv"
expect 0 "^fifo,fail,submission,.*not a regular file" -- cat "$tmp/odd-out/gradebook.csv"
expect 0 "^$long,pass" -- cat "$tmp/odd-out/gradebook.csv"
expect 0 "0 graded now, 5 from an earlier run" -- timeout 900 $g batch col_sums "$tmp/odd" --out "$tmp/odd-out" --backend sim
expect 2 "not a regular file" -- timeout 60 $g grade col_sums --file "$tmp/odd/fifo.cu"

# one batch at a time per out folder
exec 9>"$tmp/out/.lock"
flock -n 9
expect 2 "another batch is writing to" -- $g batch col_sums "$tmp/class" --out "$tmp/out" --backend sim
exec 9>&-
# a cell a spreadsheet would run as a formula is kept as text
expect 0 "^'=HYPERLINK" -- cat "$tmp/out/gradebook.csv"

# make's targets quote what they are given, and refuse names that are not names
cp solutions/col_sums.cu "$tmp/my solution, 'quoted'.cu"
expect 0 "PASS" -- make -s grade EX=col_sums FILE="$tmp/my solution, 'quoted'.cu" BACKEND=sim
expect 2 "is not an exercise's name" -- make -s grade "EX=col_sums; touch $tmp/ran"
expect 2 "say which exercise|is not an exercise's name" -- make -s reset "EX=\$(touch $tmp/ran)"
expect 2 "say which exercise" -- make -s grade
[ ! -e "$tmp/ran" ] && passed=$((passed + 1)) || { failed=$((failed + 1)); echo "FAIL: a make variable ran as a command"; }

# a second grading of a file while one is under way builds in a folder of its own, removed after
cp solutions/col_sums.cu "$tmp/twice.cu"
expect 0 "PASS" -- $g grade col_sums --file "$tmp/twice.cu" --backend sim
# its folder, found by the #line its rewritten source starts with (other suites may grade col_sums meanwhile)
held=$(grep -lF "\"$tmp/twice.cu\"" build/sim/sub/col_sums-*/col_sums.sim.cpp | head -1)
held=${held%/*}
# to the nanosecond, with its inode: a build into the held folder shows, however soon it comes
before=$(stat -c '%y %i %s' "$held"/col_sums.so) || bad "no object built for $tmp/twice.cu"
exec 8>"$held/.lock"
flock -n 8
echo "// edited while the first grading runs" >>"$tmp/twice.cu"
expect 0 "PASS" -- $g grade col_sums --file "$tmp/twice.cu" --backend sim
exec 8>&-
if [ "$(stat -c '%y %i %s' "$held"/col_sums.so)" != "$before" ]; then
	failed=$((failed + 1)) && echo "FAIL: the second grading built into the folder the first one holds"
elif ls -d "$held".* >/dev/null 2>&1; then
	failed=$((failed + 1)) && echo "FAIL: a private build folder was left behind"
else
	passed=$((passed + 1))
fi

# a demo on the simulator shows its variants' memory figures side by side
expect 0 "naive_transpose.cu +correct +4.0/32.0" -- $g run naive_transpose --backend sim
expect 0 "coalesced_writes.cu +correct +32.0/4.0" -- $g run naive_transpose --backend sim
# at a width (the workbook's page): every line within it, what a variant shows under its row, and the
# figure columns that do not fit left out in their stated order, said so
$g run naive_transpose --backend sim --width 60 >"$tmp/demo-60.txt" 2>&1
within() { local LC_ALL=C.UTF-8 line; while IFS= read -r line; do [ ${#line} -le "$1" ] || return 1; done <"$2"; }
if within 60 "$tmp/demo-60.txt" &&
	grep -q "^  (left out at 60 columns: reads/out)$" "$tmp/demo-60.txt" &&
	grep -qE "^  coalesced_writes.cu +correct +32.0/4.0 +-$" "$tmp/demo-60.txt" &&
	grep -qE "^      the other way round" "$tmp/demo-60.txt"; then
	passed=$((passed + 1))
else
	failed=$((failed + 1))
	echo "FAIL: cudalings run --width 60 is not laid out at 60 columns:" && cat "$tmp/demo-60.txt"
fi
expect 2 "--width takes the columns of the table, 40 to 1000, not '7'" -- $g run naive_transpose --width 7

# the simulator's settings are the grader's: the student's shell cannot turn a check off
expect 1 "two blocks write the same" -- env CUDASIM_ORDER_CHECK=0 CUDASIM_TIMEOUT=0 $g grade col_sums \
	--file tests/mistakes/col_sums/rows_split_without_atomics.cu --backend sim

echo "cli: $passed passed, $failed failed"
[ "$failed" = 0 ]
