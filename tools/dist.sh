#!/usr/bin/env bash
# tools/dist.sh [OUT] — the student copy of the workbook in OUT/cudalings
# (default build/dist) and OUT/cudalings.tar.gz: everything a student
# needs to read, write and grade the exercises, without the solutions.
#
# The reference kernels the runner links for timing ship as objects in
# shipped/<backend>/NAME.o (grader/compile/build.c uses them when solutions/NAME.cu
# is absent), the gold solutions for the tier in shipped/gpu/gold/NAME.o, the
# starters that `make reset` puts back in shipped/starters/.
# A demo's solution is its lesson, not an answer: demos ship their source.
#
# Needs build/cudalings and the simulator (make dist builds them). With nvcc
# the gpu objects are fat binaries of SASS alone, for every architecture in
# DIST_GPU_ARCHS: no PTX and no line table, which would hand the reference's
# source-level shape (its shared tile, 32 × 33 floats) to anyone with
# `strings`; a GPU newer than the list grades on the simulator, or with a
# copy made for it. The simulator's objects are stripped of debug
# information and local symbols. Without nvcc the copy grades on the
# simulator only, and says so.
#
# tools/dist.sh --list prints the paths the copy holds, one per line, and
# makes nothing (tests/lessons/links.sh checks what the lessons cite).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
list=
if [ "${1:-}" = --list ]; then
	list=1
	shift
fi
out=${1:-build/dist}
archs=${DIST_GPU_ARCHS:-75 80 86 89 90 100 120}
copy=$out/cudalings
g=$root/build/cudalings

die() { echo "dist: $*" >&2; exit 1; }
[ -x "$g" ] || die "build/cudalings is not built (make dist builds it)"
[ -x build/sim/cudasim-rewrite ] || die "the simulator is not built (make dist builds it)"

# the working tree's files as git sees them (new ones too), or every file outside a repository
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	files() { git ls-files -co --exclude-standard -- "$@"; }
else
	files() { find "$@" -type f 2>/dev/null; }
fi
# the files the copy takes as they are: the workbook's sources, the measurements the lessons cite, and
# of tests/ those that grade no solution (make test runs them in the copy, with tests/student-copy.sh)
source_files() {
	{
		files Makefile README.md workbook.json .gitignore slides harness grader common lib sim tui demos \
			tests/tests.mk tests/unit tests/sim/kernels tests/sim/sim_test.h tests/sim/*.c tests/tui/unit \
			tests/tui/fixtures/*.json tests/tui/fixtures/*.txt tests/corpus tests/lib tests/lib.sh tests/student-copy.sh tests/run-suite.sh tests/report.sh \
			tools/deps.sh tools/make-args.sh tools/make-exit.c \
			tools/runner-flags.awk
		python3 tools/lesson-figures.py --cited
	} | while IFS= read -r f; do [ -f "$f" ] && printf '%s\n' "$f"; done
}

# kind and name of every item, from the manifest the grader reads
items=$("$g" list --json | python3 -c '
import json, sys
for item in json.load(sys.stdin)["items"]:
    print(item["kind"], item["name"])')

if command -v nvcc >/dev/null; then
	nvcc=nvcc
elif [ -x /usr/local/cuda/bin/nvcc ]; then
	nvcc=/usr/local/cuda/bin/nvcc
else
	nvcc=
fi
# the grader's flags for a .cu on the GPU, and where a runner's sources find their headers; no line
# table or debug information in what ships (-lineinfo, -G, -g)
nvcc_flags=$(for f in $(sh tools/runner-flags.sh NVCC_FLAGS) $(sh tools/runner-flags.sh RUNNER_INCLUDES); do
	case $f in -lineinfo | -G | -g) ;; *) printf '%s ' "$f" ;; esac
done)

# what the loop below makes for an item: a demo's solution is its lesson, an exercise's stays behind
item_files() {
	case $1 in
	lesson) ;;
	demo) echo "solutions/$2.cu" ;;
	*) printf '%s\n' "shipped/sim/$2.o" "shipped/starters/$2.cu" "exercises/$2.cu" ${nvcc:+"shipped/gpu/$2.o"} ;;
	esac
}

if [ -n "$list" ]; then
	{
		source_files
		while read -r kind name; do item_files "$kind" "$name"; done <<<"$items"
	} | sort -u
	exit 0
fi

rm -rf "$copy" "$out/cudalings.tar.gz"
mkdir -p "$copy"
source_files | tr '\n' '\0' | xargs -0 -r cp --parents -t "$copy"

mkdir -p "$copy/shipped/sim" "$copy/shipped/starters" "$copy/solutions" "$copy/exercises"
[ -n "$nvcc" ] ||
	echo "dist: no nvcc here: the copy carries no GPU reference objects and grades on the simulator only"
gencode=()
for a in $archs; do gencode+=(-gencode "arch=compute_$a,code=sm_$a"); done

# strip_object FILE: no debug information (the source's names and lines), no local symbol a link does not need
strip_object() {
	objcopy --strip-debug --strip-unneeded "$1"
}

# nvcc_object SOURCE DEST: SOURCE compiled for the GPU into DEST. The object is kept in
# build/dist-objects/ and compiled again only when the command changed or a file it read is newer
# than it (its -MD list), as make would: a second copy (tools/gradescope.sh makes one) compiles nothing.
nvcc_object() {
	local kept=build/dist-objects/${1%.cu}.o command dep
	command="$nvcc $nvcc_flags ${gencode[*]} -c $1"
	mkdir -p "$(dirname "$kept")"
	local stale=
	[ -s "$kept" ] && [ "$(cat "$kept.cmd" 2>/dev/null)" = "$command" ] && [ -s "$kept.d" ] || stale=1
	if [ -z "$stale" ]; then
		for dep in $(sed -e 's/^[^:]*://' -e 's/\\$//' "$kept.d"); do
			[ -e "$dep" ] && [ ! "$dep" -nt "$kept" ] || { stale=1; break; }
		done
	fi
	if [ -n "$stale" ]; then
		rm -f "$kept" "$kept.cmd"
		# under a name of its own until whole: two copies made at once must not write one file
		"$nvcc" $nvcc_flags "${gencode[@]}" -MD -MF "$kept.d.$$" -c "$1" -o "$kept.tmp.$$" ||
			{ rm -f "$kept.d.$$" "$kept.tmp.$$"; return 1; }
		mv "$kept.d.$$" "$kept.d"
		mv "$kept.tmp.$$" "$kept"
		printf '%s' "$command" >"$kept.cmd"
	fi
	cp "$kept" "$2"
	strip_object "$2"
}

while read -r kind name; do
	case $kind in
	lesson) continue ;;
	demo)
		cp "solutions/$name.cu" "$copy/solutions/"
		continue ;;
	esac
	# grading the solution builds its simulator object the grader's way, and proves it passes
	if ! "$g" grade "$name" --file "solutions/$name.cu" --backend sim >"$out/$name.log" 2>&1; then
		cat "$out/$name.log" >&2
		die "solutions/$name.cu does not pass on the simulator; no copy is made of a broken workbook"
	fi
	rm -f "$out/$name.log"
	cp "build/sim/ref/$name.raw.o" "$copy/shipped/sim/$name.o"
	strip_object "$copy/shipped/sim/$name.o"
	# the starter, never this tree's exercises/ file, which an instructor may have been editing
	"$g" starter "$name" >"$copy/shipped/starters/$name.cu"
	cp "$copy/shipped/starters/$name.cu" "$copy/exercises/$name.cu"
	if [ -n "$nvcc" ]; then
		mkdir -p "$copy/shipped/gpu"
		# the grader's nvcc flags (harness/runner.mk), with the architectures spelled out
		nvcc_object "solutions/$name.cu" "$copy/shipped/gpu/$name.o" ||
			die "nvcc could not build the GPU reference of $name"
		# the gold solution, timed beside the reference for the verdict's tier
		if [ -f "solutions/gold/$name.cu" ]; then
			mkdir -p "$copy/shipped/gpu/gold"
			nvcc_object "solutions/gold/$name.cu" "$copy/shipped/gpu/gold/$name.o" ||
				die "nvcc could not build the gold solution of $name"
		fi
	fi
	echo "  $name: reference for the simulator${nvcc:+ and for sm_${archs// /, sm_} (SASS only)}"
done <<<"$items"
rmdir "$copy/solutions" 2>/dev/null || true

tar -C "$out" -czf "$out/cudalings.tar.gz" cudalings
echo "dist: $copy and $out/cudalings.tar.gz"
