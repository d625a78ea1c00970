#!/usr/bin/env bash
# cudalings batch with the real grader on the simulator, as an instructor
# meets it: every option checked before anything is graded, a batch killed
# with -9 taken over by the next, a live one named with its process, host and
# start, an environment fault (nm gone) stopping it before any row. The state
# machine itself (dying graders, retries, odd files, Slurm's steps) is unit
# tested with a stand-in grader in tests/instructor/batch.c.
set -u
cd "$(dirname "$0")/../.." && . tests/lib.sh
. "$(dirname "$0")/../proc.sh"
g=$repo/build/cudalings
class=$tmp/class
mkdir -p "$class"
for i in 1 2 3; do
	# three files, three compiles: a batch that runs long enough to be killed
	sed "s/int col = /int col = 0 * $i + /" solutions/col_sums.cu >"$class/s$i.cu"
done

# every option is checked first, and a missing value is named
expect 2 "'--out' needs a value" -- "$g" batch col_sums "$class" --out
expect 2 "'--jobs' needs a value" -- "$g" batch col_sums "$class" --out "$tmp/o" --jobs
expect 2 "'--case' needs a value" -- "$g" grade col_sums --case
expect 2 "--jobs takes a number of lanes, 1 to 64, not '0'" -- "$g" batch col_sums "$class" --out "$tmp/o" --jobs 0
expect 2 "not '99999999999'" -- "$g" batch col_sums "$class" --out "$tmp/o" --jobs 99999999999
for t in nan inf -1 0 86401 1e400 5s; do
	expect 2 "--timeout takes seconds" -- "$g" batch col_sums "$class" --out "$tmp/o" --timeout "$t"
done
expect 2 "--tasks goes with --slurm" -- "$g" batch col_sums "$class" --out "$tmp/o" --tasks 4
expect 2 "--partition goes with --slurm" -- "$g" batch col_sums "$class" --out "$tmp/o" --partition gpu
expect 2 "say where the tasks grade" -- "$g" batch col_sums "$class" --out "$tmp/o" --slurm
expect 2 "one GPU per task" -- "$g" batch col_sums "$class" --out "$tmp/o" --slurm --backend gpu --jobs 2
expect 2 "--tasks takes a number of tasks, 1 to 1000" -- "$g" batch col_sums "$class" --out "$tmp/o" --slurm --backend sim --tasks 1001
expect 2 "a Slurm partition's name" -- "$g" batch col_sums "$class" --out "$tmp/o" --slurm --backend sim --partition 'a b'
expect 2 "three steps: give one" -- "$g" batch col_sums "$class" --out "$tmp/o" --slurm --slurm-merge "$tmp" --backend sim
expect 2 "is not a folder --slurm wrote" -- "$g" batch col_sums "$class" --out "$tmp/o" --slurm-task "$tmp/none" --backend sim
expect 2 "--backend is 'gpu' or 'sim'" -- "$g" batch col_sums "$class" --out "$tmp/o" --backend tpu
expect 2 "needs a GPU" -- "$g" grade col_sums --backend sim --sanitize
for seed in -1 0 99999999999999999999 abc ' 7'; do
	expect 2 "--seed takes a number from 1 to 18446744073709551615" -- "$g" grade col_sums --seed "$seed"
done
[ ! -e "$tmp/o/gradebook.csv" ] && ok || bad "a refused batch wrote a gradebook"

# an environment fault stops the batch before anything is recorded
mkdir -p "$tmp/no-nm"
for t in g++ gcc cc c++ cpp as ld objcopy nvcc; do
	p=$(command -v "$t" || true)
	[ -n "$p" ] && ln -s "$p" "$tmp/no-nm/$t"
done
expect 3 "nm or objcopy is not on PATH" -- env PATH="$tmp/no-nm" "$g" batch col_sums "$class" --out "$tmp/env" --backend sim
ls "$tmp/env"/*.json >/dev/null 2>&1 && bad "a row was recorded in a broken environment" || ok

# a live batch is named; one killed with -9 leaves rows that the next one goes on from
"$g" batch col_sums "$class" --out "$tmp/out" --backend sim >"$tmp/first.log" 2>&1 &
first=$!
# it names itself in the lock once it holds it (grader/batch/batch_lock.c writes the record after the flock)
wait_until 60 grep -q '^pid ' "$tmp/out/.lock" 2>/dev/null || bad "the batch never named itself in its lock"
expect 2 "another batch is writing to .*: process $first on $(hostname), started " -- \
	"$g" batch col_sums "$class" --out "$tmp/out" --backend sim
kill -9 "$first"
wait "$first" 2>/dev/null
expect 0 "taking .* over from process $first on $(hostname)" -- "$g" batch col_sums "$class" --out "$tmp/out" --backend sim
expect 0 "^s3,pass,.*,yes" -- cat "$tmp/out/gradebook.csv"
[ ! -s "$tmp/out/.lock" ] && ok || bad "the batch left its record in the lock: $(cat "$tmp/out/.lock")"
# the graders of the killed batch died with it
wait_until 60 ! proc_find "$class/s" >/dev/null && ok || bad "a grading of the killed batch is still running"

finish batch
