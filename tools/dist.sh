#!/usr/bin/env bash
# tools/dist.sh [OUT] — the student copy of the workbook in OUT/cudalings
# (default build/dist) and OUT/cudalings.tar.gz: everything a student
# needs to read, write and grade the exercises, without the solutions.
#
# The reference kernels the runner links for timing ship as objects in
# shipped/<backend>/NAME.o (grader/build.c uses them when solutions/NAME.cu
# is absent), the starters that `make reset` puts back in shipped/starters/.
# A demo's solution is its lesson, not an answer: demos ship their source.
#
# Needs build/cudalings and the simulator (make dist builds them). With nvcc
# the gpu objects are fat binaries: SASS for every architecture in
# DIST_GPU_ARCHS plus PTX of the newest, so they run on any recent GPU.
# Without nvcc the copy grades on the simulator only, and says so.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=${1:-build/dist}
archs=${DIST_GPU_ARCHS:-75 80 86 89 90 100 120}
copy=$out/cudalings
g=$root/build/cudalings

die() { echo "dist: $*" >&2; exit 1; }
[ -x "$g" ] || die "build/cudalings is not built (make dist builds it)"
[ -x build/sim/cudasim-rewrite ] || die "the simulator is not built (make dist builds it)"

rm -rf "$copy" "$out/cudalings.tar.gz"
mkdir -p "$copy"

# the working tree's files as git sees them (new ones too), or every file outside a repository
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	files() { git ls-files -co --exclude-standard -- "$@"; }
else
	files() { find "$@" -type f 2>/dev/null; }
fi
files Makefile README.md workbook.json .gitignore slides harness grader common sim tui demos tests/tests.mk \
	tools/deps.sh tools/make-args.sh |
	while IFS= read -r f; do [ -f "$f" ] && printf '%s\0' "$f"; done |
	xargs -0 -r cp --parents -t "$copy"
# the measurements the lessons cite
python3 tools/lesson-figures.py --cited | while IFS= read -r f; do [ -f "$f" ] && cp --parents -t "$copy" "$f"; done

# kind and name of every item, from the manifest the grader reads
items=$("$g" list --json | python3 -c '
import json, sys
for item in json.load(sys.stdin)["items"]:
    print(item["kind"], item["name"])')

mkdir -p "$copy/shipped/sim" "$copy/shipped/starters" "$copy/solutions" "$copy/exercises"
if command -v nvcc >/dev/null; then
	nvcc=nvcc
elif [ -x /usr/local/cuda/bin/nvcc ]; then
	nvcc=/usr/local/cuda/bin/nvcc
else
	nvcc=
	echo "dist: no nvcc here: the copy carries no GPU reference objects and grades on the simulator only"
fi
gencode=()
for a in $archs; do gencode+=(-gencode "arch=compute_$a,code=sm_$a"); done
newest=${archs##* }
gencode+=(-gencode "arch=compute_$newest,code=compute_$newest")

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
	# the starter, never this tree's exercises/ file, which an instructor may have been editing
	"$g" starter "$name" >"$copy/shipped/starters/$name.cu"
	cp "$copy/shipped/starters/$name.cu" "$copy/exercises/$name.cu"
	if [ -n "$nvcc" ]; then
		mkdir -p "$copy/shipped/gpu"
		# the grader's nvcc flags (NVCC_FLAGS in grader/build.c), with the architectures spelled out
		"$nvcc" -std=c++17 -O3 -lineinfo -Ibuild/gen -Iharness "${gencode[@]}" \
			-c "solutions/$name.cu" -o "$copy/shipped/gpu/$name.o" ||
			die "nvcc could not build the GPU reference of $name"
	fi
	echo "  $name: reference for the simulator${nvcc:+ and for sm_${archs// /, sm_} + PTX}"
done <<<"$items"
rmdir "$copy/solutions" 2>/dev/null || true

tar -C "$out" -czf "$out/cudalings.tar.gz" cudalings
echo "dist: $copy and $out/cudalings.tar.gz"
