#!/usr/bin/env bash
# An instructor's walk, end to end on the simulator, in a copy of the
# workbook (CUDALINGS_ROOT), never the repo's own files: scaffold an
# exercise, see it fail until it is written, write it, check it, grade a
# class of 20 submissions (right, wrong, crashing, hanging, not compiling,
# not there) and check every result file; then resume, interrupt and time
# out a batch. Needs no GPU. About 30 s, 20 of them one hanging kernel.
set -u
cd "$(dirname "$0")/../.." && . tests/lib.sh
g=$repo/build/cudalings

# ------------------------------------------------------------ a copy of the workbook
book=$tmp/book
# with the repo's builds: the simulator, and the runners of the exercises it has already
. "$repo/tests/workbook-copy.sh"
. "$repo/tests/proc.sh"
workbook_copy "$repo" "$book"
export CUDALINGS_ROOT=$book
# the grader's build cache names its files from the workbook's folder: work there, as an instructor does
cd "$book"
cp "$book/workbook.json" "$tmp/workbook.before.json"

# ------------------------------------------------------------ scaffold
expect 0 "harness/checks/scale.cpp" -- "$g" new scale
for f in workbook.json solutions/scale.cu harness/checks/scale.cpp slides/scale.md exercises/scale.cu; do
	[ -s "$book/$f" ] && ok || bad "cudalings new did not write $f"
done
# the manifest changes by the entry alone: the rest of the file stays as it was written
if python3 - "$tmp/workbook.before.json" "$book/workbook.json" <<'EOF'; then ok; else bad "workbook.json changed beyond the new entry"; fi
import json, sys
before_text, after_text = open(sys.argv[1]).read(), open(sys.argv[2]).read()
before, after = json.loads(before_text), json.loads(after_text)
assert after["items"][:-1] == before["items"], "the other items changed"
assert after["items"][-1]["name"] == "scale" and after["items"][-1]["kind"] == "exercise"
kept = before_text.rstrip().split("\n")[:-3]  # all but the last item's "}", "]" and "}"
assert after_text.split("\n")[:len(kept)] == kept, "the text of the items before it changed"
EOF
expect 2 "already has 'scale'" -- "$g" new scale
expect 2 "cannot name an exercise" -- "$g" new 2d_scale
expect 2 "cannot name an exercise" -- "$g" new Scale-It
expect 2 "cannot name an exercise" -- "$g" new ../scale
expect 2 "no such item" -- "$g" new other --after nosuch
expect 0 "scale +exercise" -- "$g" list
expect 0 '"name":	"scale"' -- "$g" list --json

# unwritten: the starter fails, and so does the scaffold's solution, and check says which
expect 1 "FAIL +at correctness" -- "$g" grade scale
expect 1 "BAD +solutions/scale.cu +expected pass +got correctness" -- "$g" check scale
expect 1 "ok +build/check/scale.cu +expected fail" -- "$g" check scale

# written: the reference kernel now computes what the check does
sed -i -e 's/    out\[i\] = in\[i\];/    out[i] = 2.0f * in[i];/' -e '/TODO(instructor): the reference kernel/d' \
	-e '/(twice the input), so the solution fails/d' "$book/solutions/scale.cu"
# the scaffold's marks left in what students get (the starter's header, the lesson, the check, the title)
expect 1 "BAD +slides/scale.md:5 still says TODO\(instructor\)" -- "$g" check scale
expect 1 "BAD +exercises/scale.cu:2 still says TODO\(instructor\)" -- "$g" check scale
expect 1 "BAD +workbook.json \(its title\) still says" -- "$g" check scale
sed -i 's/TODO(instructor): //' "$book/solutions/scale.cu" "$book/slides/scale.md" "$book/harness/checks/scale.cpp" \
	"$book/workbook.json"
expect 0 "the workbook is consistent" -- "$g" check scale
expect 0 "ok +solutions/scale.cu +expected pass +got pass" -- "$g" check scale

# cases that all sit on a block edge would let a missing bounds check pass: check warns
cp "$book/workbook.json" "$tmp/workbook.written.json"
python3 -c '
import json, sys
w = json.load(open(sys.argv[1]))
w["items"][-1]["cases"] = [[64], [128]]
json.dump(w, open(sys.argv[1], "w"), indent=2, ensure_ascii=False)' "$book/workbook.json"
expect 0 "warn +no case has a 'n' below 32 or one past a multiple of 32" -- "$g" check scale
cp "$tmp/workbook.written.json" "$book/workbook.json"
if "$g" check scale | grep -q "warn"; then bad "check warns about cases 1, 31, 33, 1000, 4097"; else ok; fi

# ------------------------------------------------------------ a class of 20
class=$tmp/class
mkdir -p "$class"
# sub PATH BODY [THREADS]: a submission whose kernel body is BODY
sub() {
	mkdir -p "$(dirname "$1")"
	cat >"$1" <<EOF
#include "cudalings/scale.h"
__global__ void scale_kernel(const float *in, float *out, int n)
{
$2
}
void scale_launch(const float *in, float *out, int n)
{
    int threads = ${3:-256};
    scale_kernel<<<(n + threads - 1) / threads, threads>>>(in, out, n);
}
EOF
}
right='    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 2.0f * in[i];'
cp "$book/solutions/scale.cu" "$class/r01_ada.cu"
mkdir -p "$class/r02_bob" && cp "$book/solutions/scale.cu" "$class/r02_bob/scale.cu"
sub "$class/r03_cy/scale.cu" "$right" && echo "my notes, not code" >"$class/r03_cy/notes.txt"
sub "$class/r04_dee.cu" '    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        out[i] = in[i] + in[i];' 128
sub "$class/r05_eve.cu" "$right" 1024
sub "$class/r06_fay/my_kernel.cu" "$right" 32
sub "$class/r07_gus, \"the fast one\".cu" "$right" 64
sub "$class/r08_hal/scale.cu" "$right" && sub "$class/r08_hal/scratch.cu" '    return;'
sub "$class/w09_ida.cu" '    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i];'
sub "$class/w10_jon.cu" '    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = 2.0f * in[i];'
sub "$class/w11_kim.cu" '    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n / 2) out[i] = 2.0f * in[i];'
cp "$book/exercises/scale.cu" "$class/w12_lee.cu"
sub "$class/c13_max.cu" '    float *p = nullptr;
    p[threadIdx.x] = in[0];'
printf '#include <stdlib.h>\n#include "cudalings/scale.h"\nvoid scale_launch(const float *in, float *out, int n)\n{\n    abort();\n}\n' >"$class/c14_ned.cu"
sub "$class/h15_oli.cu" '    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (;;) out[i % n] += 1.0f;'
sub "$class/x16_pat.cu" '    int i = blockIdx.x * blockDim.x + threadIdx.x
    out[i] = 2.0f * in[i];'
sed 's/float \*out, int n)/double *out, int n)/' "$class/r05_eve.cu" >"$class/x17_quy.cu"
: >"$class/s18_ray.cu"
mkdir -p "$class/s19_sam" && echo "forgot to attach it" >"$class/s19_sam/README.txt"
sub "$class/s20_tom/a.cu" "$right" && sub "$class/s20_tom/b.cu" "$right"

# student, verdict, stage ("-" for a pass), tab-separated: one name has a comma, quotes and spaces
while read -r student verdict stage; do
	printf '%s\t%s\t%s\n' "${student//+/ }" "$verdict" "$stage"
done >"$tmp/expected" <<'END'
r01_ada pass -
r02_bob pass -
r03_cy pass -
r04_dee pass -
r05_eve pass -
r06_fay pass -
r07_gus,+"the+fast+one" pass -
r08_hal pass -
w09_ida fail correctness
w10_jon fail run
w11_kim fail correctness
w12_lee fail correctness
c13_max fail run
c14_ned fail run
h15_oli fail run
x16_pat fail compile
x17_quy fail compile
s18_ray fail submission
s19_sam fail submission
s20_tom fail submission
END

out=$tmp/out
start=$(date +%s)
# two lanes: the hanging kernel holds one while the other goes on
expect 0 "20 submissions: 20 graded now, 0 from an earlier run" -- "$g" batch scale "$class" --out "$out" --jobs 2
echo "walk: grading the class of 20 took $(($(date +%s) - start)) s"

# every result file, field by field: the grade JSONs, the gradebook, Gradescope's results.json
check_results() {
	# scale's five cases and its timed one (on the simulator, its measured copy)
	python3 "$repo/tests/instructor/check_results.py" "$out" "$tmp/expected" 6 >"$tmp/results.txt" 2>&1
	grep -v '^ok: ' "$tmp/results.txt" | grep -v '^results: 0 failed'
	passed=$((passed + $(grep -c '^ok: ' "$tmp/results.txt")))
	failed=$((failed + $(grep -c '^FAIL: ' "$tmp/results.txt")))
	grep -q '^results: ' "$tmp/results.txt" || bad "check_results.py did not finish"
}
check_results
# a feedback page per student: the verdict, the cases, the diagnosis and the first hint
grep -q '^\*\*Verdict: fail at correctness\*\*' "$out/feedback/w11_kim.md" && grep -q '^- 33: wrong: out\[' "$out/feedback/w11_kim.md" &&
	grep -q '^## A hint' "$out/feedback/w11_kim.md" && ok || bad "feedback/w11_kim.md: $(cat "$out/feedback/w11_kim.md")"
# the hang is the simulator's watchdog's to stop, and the row says so
expect 0 "ran too long and was stopped" -- cat "$out/h15_oli.json"

# resumed: a second run grades only what has no whole result
rm "$out/w09_ida.json" "$out/gradescope/w09_ida/results.json"
printf '{"verdict": "pa' >"$out/w11_kim.json" # as if cut off mid-write
expect 0 "20 submissions: 2 graded now, 18 from an earlier run" -- "$g" batch scale "$class" --out "$out" --jobs 2
check_results

# a resubmission: exactly that student is graded again, and the summary counts the whole class
sub "$class/w09_ida.cu" "$right"
expect 0 "20 submissions: 1 graded now, 19 from an earlier run \(9 pass, " -- "$g" batch scale "$class" --out "$out" --jobs 2
grep -q '^w09_ida,pass,' "$out/gradebook.csv" && ok || bad "w09_ida's resubmission: $(grep '^w09_ida' "$out/gradebook.csv")"
expect 0 "20 submissions: 1 graded now, 19 from an earlier run" -- "$g" batch scale "$class" --out "$out" --regrade r01_ada

# Whether a runner built in the copy still runs.
runners_left() { proc_find "$book/build/sim/sub/" >/dev/null; }

# the hanging kernel must outlast what follows (a time-out, Ctrl-C, a killed grader), which stop it themselves:
# the usual limits, not the lower ones make test sets for the first batch (CUDALINGS_SIM_CPU_LIMIT)
unset CUDALINGS_SIM_CPU_LIMIT

# stopped by --timeout: the row says so, is not final (the next run grades it again), and no runner is left behind;
# 10 s, not less: the exercise's own starter is graded under the same limit first, and takes seconds on a loaded machine
mkdir -p "$tmp/slow"
cp "$class/h15_oli.cu" "$tmp/slow/"
expect 0 "fail at error .*not final" -- "$g" batch scale "$tmp/slow" --out "$tmp/slow-out" --timeout 10
expect 0 "took longer than 10 s" -- cat "$tmp/slow-out/h15_oli.json"
wait_until 60 ! runners_left && ok || bad "a runner outlived its stopped grading"

# interrupted: Ctrl-C stops the gradings and keeps what was done
cp "$class/r01_ada.cu" "$tmp/slow/"
"$g" batch scale "$tmp/slow" --out "$tmp/int-out" --jobs 1 >"$tmp/int.log" 2>&1 &
batch=$!
# the check for runners left behind sees one while it runs
wait_until 120 runners_left && ok || bad "no runner of the hanging kernel seen while the batch runs"
kill -INT "$batch"
wait "$batch"
status=$?
if [ "$status" = 130 ] && grep -q "interrupted" "$tmp/int.log" && ! [ -e "$tmp/int-out/h15_oli.json" ] &&
	wait_until 60 ! runners_left; then
	ok
else
	bad "an interrupted batch: status $status, $(cat "$tmp/int.log")"
fi

# a grader that dies: its row says so, the batch goes on, its runner does not outlive it
"$g" batch scale "$tmp/slow" --out "$tmp/kill-out" --jobs 1 >"$tmp/kill.log" 2>&1 &
batch=$!
grader=
# the grading itself, not its watchdog (a fork of it, named cudalings-watch), once its runner runs
grading_runs() {
	local p
	for p in $(proc_find "grade scale --file h15_oli\.cu"); do
		[ "$(cat "/proc/$p/comm" 2>/dev/null)" = cudalings ] && grader=$p
	done
	[ -n "$grader" ] && runners_left
}
# a loaded machine starts the grading late, after a compile of seconds
wait_until 300 grading_runs || bad "the grading of the hanging kernel was never seen running"
[ -n "$grader" ] && kill -KILL "$grader"
wait "$batch"
status=$?
if [ "$status" = 0 ] && grep -q "killed by signal 9" "$tmp/kill-out/h15_oli.json" &&
	grep -q '"verdict":	"pass"' "$tmp/kill-out/r01_ada.json" && wait_until 60 ! runners_left; then
	ok
else
	bad "a batch whose grader was killed: status $status, $(cat "$tmp/kill.log")"
fi

# results inside the folder of submissions are refused before anything is graded (exit 2)
mkdir -p "$tmp/inside" && cp "$class/r01_ada.cu" "$tmp/inside/"
expect 2 "inside the submissions folder" -- "$g" batch scale "$tmp/inside" --out "$tmp/inside/results"
[ ! -e "$tmp/inside/results" ] && ok || bad "a refused --out was created"

# refused: what batch will not start on
expect 2 "not a folder of submissions" -- "$g" batch scale "$tmp/nowhere" --out "$tmp/x"
expect 2 "needs a value" -- "$g" batch scale "$class" --out
expect 2 "there is no exercise 'scal'" -- "$g" batch scal "$class" --out "$tmp/x"
expect 2 "'coalescing' is a demo" -- "$g" batch coalescing "$class" --out "$tmp/x"
[ ! -e "$tmp/x" ] && ok || bad "a batch refused for its exercise created its out folder"
expect 2 "name the students to grade again" -- "$g" batch scale "$class" --out "$tmp/x" --regrade
expect 2 "one too many .*after --regrade" -- "$g" batch scale "$class" --out "$tmp/x" r01_ada
expect 2 "'r01_ad' has no submission .*did you mean 'r01_ada'" -- "$g" batch scale "$class" --out "$out" --regrade r01_ad
# one student, two submissions: their row says so, and the others are graded
mkdir -p "$tmp/twice/ann" && cp "$class/r01_ada.cu" "$tmp/twice/ann.cu" && cp "$class/r01_ada.cu" "$tmp/twice/ann/"
expect 0 "two submissions have this name \('ann.cu' and 'ann'\)" -- "$g" batch scale "$tmp/twice" --out "$tmp/x"

echo "walk: $passed passed, $failed failed"
[ "$failed" = 0 ]
