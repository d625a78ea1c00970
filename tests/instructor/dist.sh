#!/usr/bin/env bash
# The student copy (make dist) and the Gradescope autograder, used as a
# student and as Gradescope would: the tarball unpacked elsewhere builds,
# holds no solution, grades a starter (fail) and a right file (pass) on the
# simulator against the shipped reference, and resets an exercise; the
# autograder's setup builds and deletes its solution, and run_autograder
# writes the results.json of a submission. Needs no GPU; with nvcc the GPU
# reference objects are checked too (one architecture, to be quick).
set -u
cd "$(dirname "$0")/../.." && . tests/lib.sh

export DIST_GPU_ARCHS=90
exercises=$(build/cudalings list --json | python3 -c '
import json, sys
print(" ".join(i["name"] for i in json.load(sys.stdin)["items"] if i["kind"] == "exercise"))')

# ------------------------------------------------------------ the student copy
build/cudalings list --json | python3 -c '
import json, sys
for i in json.load(sys.stdin)["items"]:
    assert i["has_solution"] == (i["kind"] != "lesson"), i' && ok || bad "list --json misreports which solutions are here"
expect 0 "dist: .*cudalings.tar.gz" -- tools/dist.sh "$tmp/dist"
mkdir -p "$tmp/student"
expect 0 "" -- tar -C "$tmp/student" -xzf "$tmp/dist/cudalings.tar.gz"
copy=$tmp/student/cudalings
nvcc_here=$(command -v nvcc || command -v /usr/local/cuda/bin/nvcc || true)
for name in $exercises; do
	[ ! -e "$copy/solutions/$name.cu" ] && [ -s "$copy/shipped/sim/$name.o" ] &&
		cmp -s "$copy/exercises/$name.cu" "$copy/shipped/starters/$name.cu" && ok ||
		bad "the copy's $name: a solution, or no shipped reference or starter"
	if [ -n "$nvcc_here" ] && command -v cuobjdump >/dev/null; then
		elf=$(cuobjdump --list-elf "$copy/shipped/gpu/$name.o" 2>&1)
		ptx=$(cuobjdump --list-ptx "$copy/shipped/gpu/$name.o" 2>&1)
		grep -q sm_90 <<<"$elf" && ! grep -q sm_ <<<"$ptx" && ok ||
			bad "shipped/gpu/$name.o is not a fat binary of sm_90 code alone, without PTX: $elf $ptx"
	elif [ -n "$nvcc_here" ]; then
		# no cuobjdump to list its contents: at least the object carries a fat binary
		objdump -h "$copy/shipped/gpu/$name.o" | grep -q '\.nv_fatbin' && ok ||
			bad "shipped/gpu/$name.o carries no fat binary"
	fi
done
# the shipped objects give no answer away: no PTX (".shared .align 4 .b8 _ZZ…E4tile[4224]"), no debug
# information, none of the names the solution gives its shared arrays
for name in $exercises; do
	shared=$(sed -n 's/.*__shared__ *\(volatile *\)\?[a-z0-9_]* *\([A-Za-z_][A-Za-z0-9_]*\) *\[.*/\2/p' "solutions/$name.cu" | sort -u)
	for o in "$copy/shipped/sim/$name.o" "$copy/shipped/gpu/$name.o" "$copy/shipped/gpu/gold/$name.o"; do
		[ -e "$o" ] || continue
		strings -a "$o" >"$tmp/strings"
		if grep -qE '^\s*\.(version|target|visible|entry|shared)\b|\.shared .*\[[0-9]+\]' "$tmp/strings"; then
			bad "${o#"$copy/"} holds PTX: $(grep -E '\.(version|target|shared)' "$tmp/strings" | head -3)"
		elif objdump -h "$o" | grep -q '\.debug_\|\.nv_debug'; then
			bad "${o#"$copy/"} holds debug information"
		elif [ -n "$shared" ] && grep -qwF "$shared" "$tmp/strings"; then
			bad "${o#"$copy/"} names the solution's shared arrays: $(grep -wF "$shared" "$tmp/strings" | head -3)"
		else
			ok
		fi
	done
done
if grep -rl --include='*.cu' "BEGIN SOLUTION" "$copy" >"$tmp/leaks"; then
	bad "the copy holds solutions: $(cat "$tmp/leaks")"
else
	ok
fi
for dir in tests/instructor solutions/wrong; do
	[ ! -e "$copy/$dir" ] && ok || bad "the copy has $dir/, which is the instructor's"
done
# of bench/, only the measurements the lessons cite: no scripts, every cited table there
cited=$(python3 tools/lesson-figures.py --cited | sed 's|^bench/||' | sort | tr '\n' ' ')
[ "$(ls "$copy/bench" 2>/dev/null | sort | tr '\n' ' ')" = "$cited" ] && ok ||
	bad "the copy's bench/ holds $(ls "$copy/bench" | tr '\n' ' '), not the lessons' $cited"
# of tools/, only what the student's make runs: setting up, quoting make's variables, make grade's exit status, reading harness/runner.mk
[ "$(ls "$copy/tools" 2>/dev/null | tr '\n' ' ')" = "deps.sh make-args.sh make-exit.c runner-flags.awk " ] && ok ||
	bad "the copy's tools/ holds $(ls "$copy/tools" | tr '\n' ' '), not just deps.sh, make-args.sh, make-exit.c (make grade's exit status) and runner-flags.awk"

(cd "$copy" && make -s -j2 build/cudalings sim >"$tmp/build.log" 2>&1) && ok ||
	bad "the copy does not build: $(tail -20 "$tmp/build.log")"
cd "$copy"
# a front end offers "show the solution" only where one ships: a demo's source, no exercise's
build/cudalings list --json | python3 -c '
import json, sys
for i in json.load(sys.stdin)["items"]:
    assert i["has_solution"] == (i["kind"] == "demo"), i' && ok || bad "the copy's list --json misreports which solutions ship"
expect 1 "FAIL +at correctness" -- build/cudalings grade col_sums
cp "$repo/solutions/col_sums.cu" "$tmp/my_col_sums.cu"
expect 0 "PASS +all 8 cases correct" -- build/cudalings grade col_sums --file "$tmp/my_col_sums.cu"
# the runner linked the shipped reference: nothing was compiled from a solution
[ ! -e build/sim/ref/col_sums.raw.o ] && [ -e build/sim/ref/col_sums.o ] && ok ||
	bad "the copy built its reference from somewhere other than shipped/sim/col_sums.o"
echo "// my work" >>exercises/col_sums.cu
expect 0 "is the starter again" -- build/cudalings reset col_sums
cmp -s exercises/col_sums.cu shipped/starters/col_sums.cu && ok || bad "reset did not put the starter back"
cd "$repo"

# ------------------------------------------------------------ the Gradescope autograder
expect 0 "gradescope: .*col_sums.zip" -- tools/gradescope.sh col_sums "$tmp/gs"
ag=$tmp/ag
mkdir -p "$ag/source" "$ag/submission"
expect 0 "" -- python3 -m zipfile -e "$tmp/gs/col_sums.zip" "$ag/source"
for f in setup.sh run_autograder cudalings/solutions/col_sums.cu cudalings/Makefile; do
	[ -e "$ag/source/$f" ] && ok || bad "the autograder zip has no $f"
done
expect 0 "PASS" -- env CUDALINGS_SKIP_APT=1 bash "$ag/source/setup.sh"
# after setup no submission can read the solution: its object stands in for it
[ ! -e "$ag/source/cudalings/solutions/col_sums.cu" ] && [ -s "$ag/source/cudalings/shipped/sim/col_sums.o" ] && ok ||
	bad "setup.sh left the solution, or no reference object"

# results SUBMISSION SCORE: grade it as Gradescope does and check results.json
results() {
	rm -rf "$ag/submission" "$ag/results"
	mkdir -p "$ag/submission/src"
	cp "$1" "$ag/submission/src/"
	expect 0 "1 submission: 1 graded now" -- env AUTOGRADER="$ag" bash "$ag/source/run_autograder"
	if python3 - "$ag/results/results.json" "$2" <<'EOF'; then ok; else bad "results.json of $1"; fi
import json, sys
r = json.load(open(sys.argv[1]))
assert r["score"] == float(sys.argv[2]), r["score"]
assert isinstance(r["output"], str) and isinstance(r["execution_time"], (int, float))
assert [t["name"] for t in r["tests"]][0] == "compile" and len(r["tests"]) == 9
for t in r["tests"]:
    assert t["status"] in ("passed", "failed") and t["visibility"] == "visible", t
    assert isinstance(t["output"], str) and t["max_score"] == 1
for e in r["leaderboard"]:
    assert isinstance(e["name"], str) and e["order"] in ("asc", "desc") and "value" in e, e
EOF
}
# compile, the seven cases and the timed one (on the simulator, its measured copy)
results "$repo/solutions/col_sums.cu" 9
build/cudalings starter col_sums >"$tmp/starter.cu"
results "$tmp/starter.cu" 1
# a submission that reaches for the solution where the bundle had it finds nothing there
printf '#include "%s/source/cudalings/solutions/col_sums.cu"\n' "$ag" >"$tmp/peek.cu"
results "$tmp/peek.cu" 0

# an upload of col_sums.cu and sub/col_sums.cu: the one at the top is graded, and nothing else is said wrong
rm -rf "$ag/submission" "$ag/results"
mkdir -p "$ag/submission/sub"
cp "$repo/solutions/col_sums.cu" "$ag/submission/"
cp "$tmp/starter.cu" "$ag/submission/sub/col_sums.cu"
env AUTOGRADER="$ag" bash "$ag/source/run_autograder" >"$tmp/two.log" 2>&1
python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
sys.exit(r["score"] != sum(t["max_score"] for t in r["tests"]))' "$ag/results/results.json" &&
	! grep -qi "cp:" "$tmp/two.log" && ok || bad "an upload of two col_sums.cu: $(cat "$tmp/two.log")"
# an upload that is a link to the solution's place is refused, and says so
rm -rf "$ag/submission" "$ag/results"
mkdir -p "$ag/submission"
ln -s "$repo/solutions/col_sums.cu" "$ag/submission/col_sums.cu"
env AUTOGRADER="$ag" bash "$ag/source/run_autograder" >"$tmp/link.log" 2>&1
python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
sys.exit(not (r["score"] == 0 and "symbolic link" in json.dumps(r)))' "$ag/results/results.json" && ok ||
	bad "an uploaded link: $(cat "$ag/results/results.json")"

echo "dist: $passed passed, $failed failed"
[ "$failed" = 0 ]
