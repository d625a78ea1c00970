#!/usr/bin/env bash
# tests/bare/gradescope.sh — the Gradescope autograder on a stock image: a
# bare Debian bookworm root (tests/bare/root.sh) gets the bundle that
# tools/gradescope.sh makes, as /autograder/source; its setup.sh runs there
# as Gradescope runs it, as root and without CUDALINGS_SKIP_APT, so it must
# install every package it needs itself; then run_autograder grades the
# solution (full score) and a wrong file (not), and results.json says so.
#
# Needs root, the network, debootstrap and build/cudalings (make); without
# the first three it says why it is skipped and exits 0. Heavy (a root, the
# packages, a build): run by .ci/run, not by make test. BARE_LIMIT (seconds,
# default 1500) bounds it.
set -u
cd "$(dirname "$0")/../.."
source tests/lib.sh
limit=${BARE_LIMIT:-1500}
name=${BARE_EXERCISE:-col_sums}
. tests/bare/root.sh
bare_skip_unless_able
[ -x build/cudalings ] || { echo "bare-gradescope: build/cudalings is not built (make)"; exit 1; }

bare_limited "$0" bare-gradescope

echo "== a bookworm root (debootstrap --variant=minbase, from $bare_mirror)"
t0=$(date +%s)
bare_make_root && ok "debootstrap ($(($(date +%s) - t0)) s)" || { bad "debootstrap failed"; exit 1; }
inside "! command -v cc && ! command -v python3 && ! dpkg -s libseccomp-dev" >/dev/null 2>&1 &&
	ok "the root has no compiler, no python3, no libseccomp-dev: bare" || bad "the root is not bare"

echo "== the bundle (tools/gradescope.sh $name), unpacked as Gradescope does"
export DIST_GPU_ARCHS=${DIST_GPU_ARCHS:-90}
if tools/gradescope.sh "$name" "$work/gs" >"$work/bundle.log" 2>&1; then
	ok "tools/gradescope.sh $name"
else
	tail -20 "$work/bundle.log"
	bad "tools/gradescope.sh failed"
	exit 1
fi
mkdir -p "$root/autograder/source" "$root/autograder/submission"
python3 -m zipfile -e "$work/gs/$name.zip" "$root/autograder/source"

echo "== setup.sh, as Gradescope builds the image (no CUDALINGS_SKIP_APT)"
t0=$(date +%s)
if inside "bash /autograder/source/setup.sh" >"$work/setup.log" 2>&1; then
	ok "setup.sh installed what it needs and built the grader ($(($(date +%s) - t0)) s)"
else
	tail -30 "$work/setup.log"
	bad "setup.sh failed on a stock image"
fi
inside "dpkg -s libseccomp-dev libcjson-dev python3" >/dev/null 2>&1 && ok "libseccomp-dev, libcjson-dev and python3 installed" ||
	bad "setup.sh did not install libseccomp-dev, libcjson-dev and python3"
[ ! -e "$root/autograder/source/cudalings/solutions/$name.cu" ] && ok "setup.sh deleted the solution" || bad "setup.sh left the solution"

# graded SUBMISSION WANT: run_autograder on it; WANT "full" or "partial" for its results.json's score
graded() {
	rm -rf "$root/autograder/submission" "$root/autograder/results"
	mkdir -p "$root/autograder/submission"
	cp "$1" "$root/autograder/submission/$name.cu"
	inside "bash /autograder/source/run_autograder" >"$work/run.log" 2>&1
	if python3 - "$root/autograder/results/results.json" "$2" <<'PY'; then ok "$2 score for $(basename "$1")"; else tail -20 "$work/run.log"; bad "results.json of $1"; fi
import json, sys
r = json.load(open(sys.argv[1]))
full = sum(t["max_score"] for t in r["tests"])
assert full > 0, r
assert (r["score"] == full) == (sys.argv[2] == "full"), (r["score"], full, r.get("output"))
assert "/autograder" not in json.dumps(r), "a path of the image in the results"
PY
}
echo "== run_autograder"
graded "$repo/solutions/$name.cu" full
build/cudalings starter "$name" >"$work/starter.cu"
graded "$work/starter.cu" partial

finish bare-gradescope
