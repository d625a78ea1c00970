#!/usr/bin/env bash
# tests/bare/run.sh — a bare machine: a clean Debian bookworm root
# (debootstrap --variant=minbase, with make added: the one thing a student
# must have to type the README's commands) gets this checkout, and the two
# commands' set-up runs there as root, as a student's first `make tui` and
# `make test` would: tools/deps.sh installs what is missing, then the build.
# `make tui` goes as far as the screen, which needs a terminal (the test has
# none); `make test` (the quick tier) runs twice, each time with the long
# tier's two checks that need nvcc (tests/e2e/compile.sh, the files only nvcc
# refuses): with no CUDA toolkit (they say they are skipped), then with this machine's
# toolkit lent to the root (/usr/local/cuda bound in, read-only: nothing is
# copied), where there is one. Checked: neither command's first words are a
# compiler's error, both install and build, every suite passes.
#
# Needs root, the network and debootstrap (tools/deps.sh bare installs it);
# without them it says why it is skipped and exits 0. Run by .ci/run, not by
# make test. BARE_LIMIT (seconds, default 2400) bounds the whole test;
# BARE_MIRROR picks the Debian mirror. The root is tests/bare/root.sh's.
set -u
cd "$(dirname "$0")/../.."
source tests/lib.sh
source tests/workbook-copy.sh
limit=${BARE_LIMIT:-2400}
. tests/bare/root.sh
bare_skip_unless_able

# the rest runs once, under the time limit, and everything it mounts and makes goes at the end
bare_limited "$0" bare

echo "== a bookworm root (debootstrap --variant=minbase, from $bare_mirror)"
t0=$(date +%s)
if bare_make_root; then
	ok "debootstrap ($(($(date +%s) - t0)) s)"
else
	bad "debootstrap failed"
	echo "bare: $passed passed, $failed failed"
	exit 1
fi
# the checkout as a clone would have it: the files git tracks (and those it would)
mkdir -p "$root/home/student/cudalings"
workbook_files "$repo" | tar --null -T - -cf - | tar -xf - -C "$root/home/student/cudalings"
bare_cwd=/home/student/cudalings

echo "== make, the one thing the student brings"
if inside "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq make" >"$work/make.log" 2>&1; then
	ok "apt-get install make"
else
	tail -5 "$work/make.log"
	bad "apt-get could not install make in the root"
fi
inside "! command -v cc && ! command -v tmux && ! dpkg -s libcjson-dev" >/dev/null 2>&1 &&
	ok "the root has no compiler, no tmux, no cJSON: bare" || bad "the root is not bare"

# a compiler's own error, or make's: what a student must never meet first
raw_error() { grep -qE '(fatal )?error:|No such file or directory|command not found|No rule to make target' <<<"$1"; }
# student_runs NAME COMMAND: the command in the root as a student types it; its output in $work/NAME.log,
# its status in $status, its seconds in $took; checked that its first words are no raw error
student_runs() {
	local t0 first
	t0=$(date +%s)
	inside "$2" >"$work/$1.log" 2>&1
	status=$? took=$(($(date +%s) - t0))
	first=$(sed -n '1p' "$work/$1.log")
	if raw_error "$first"; then bad "$2 begins with a raw error: $first"; else ok "$2 begins with: $first"; fi
}

echo "== make tui"
student_runs tui "make tui </dev/null"
grep -q "installing what it needs from Debian" "$work/tui.log" && ok "make tui installed what was missing" ||
	bad "make tui did not say what it installed"
if [ "$status" != 0 ] && grep -q "cudalings-tui needs a terminal" "$work/tui.log" &&
	inside "test -x build/cudalings && test -x build/cudalings-tui && test -f build/sim/libcudasim.a"; then
	ok "make tui built the grader, the workbook and the simulator, up to the screen ($took s)"
else
	tail -30 "$work/tui.log"
	bad "make tui did not get as far as the screen (status $status)"
fi

# make_test NAME WHAT: the whole make test in the root, its log in $work/NAME.log; it must pass every suite
make_test() {
	student_runs "$1" "make test"
	if [ "$status" = 0 ] && grep -q "make test: all .* suites passed" "$work/$1.log"; then
		ok "make test $2 passed ($took s): $(grep "make test: all" "$work/$1.log")"
	else
		grep -E "^  (FAIL|done|skip) |FAIL|BAD" "$work/$1.log" | tail -40
		tail -30 "$work/$1.log"
		bad "make test $2 ended with status $status ($took s)"
	fi
	# each suite's time, for bench/make-test.md
	sed -n '/^== make test: each suite/,$p' "$work/$1.log"
}

# the long tier's checks that need nvcc (make test-long, which CI runs on its own machine): without a toolkit
# each says it is skipped and why, a skip and not a failure
nvcc_checks() {
	student_runs "$1-compile" "bash tests/e2e/compile.sh"
	compile_status=$status
	student_runs "$1-rejects" "bash tests/adversarial/run.sh tests/adversarial/nvcc_rejects_*.cu"
	rejects_status=$status
}

echo "== make test, with no CUDA toolkit"
make_test test "with no CUDA toolkit"
nvcc_checks test
[ "$compile_status" = 77 ] && grep -q "^compile: skipped: no nvcc" "$work/test-compile.log" &&
	ok "without nvcc, tests/e2e/compile.sh says it is skipped and why" ||
	bad "tests/e2e/compile.sh did not say it was skipped (status $compile_status): $(tail -3 "$work/test-compile.log")"
[ "$rejects_status" = 0 ] && grep -q "only nvcc refuses it, and no nvcc is installed" "$work/test-rejects.log" &&
	ok "without nvcc, the files only nvcc refuses are skipped, and said so" ||
	bad "the files only nvcc refuses, without nvcc (status $rejects_status): $(tail -5 "$work/test-rejects.log")"

echo "== make test again, with this machine's CUDA toolkit lent to the root"
cuda=$(readlink -f /usr/local/cuda 2>/dev/null)
if [ -n "$cuda" ] && [ -x "$cuda/bin/nvcc" ]; then
	t0=$(date +%s)
	mkdir -p "$root/usr/local/cuda"
	# read-only: the root's tests must not be able to change the machine's toolkit
	mount --bind "$cuda" "$root/usr/local/cuda" && ! mount -o remount,bind,ro "$root/usr/local/cuda" &&
		umount "$root/usr/local/cuda"
	if [ "$(findmnt -no OPTIONS "$root/usr/local/cuda" 2>/dev/null | cut -d, -f1)" = ro ]; then
		ok "$cuda bound to the root's /usr/local/cuda, read-only ($(($(date +%s) - t0)) s)"
		make_test test-cuda "with the CUDA toolkit"
		nvcc_checks test-cuda
		[ "$compile_status" = 0 ] && ok "with nvcc, tests/e2e/compile.sh ran and passed" ||
			bad "with nvcc, tests/e2e/compile.sh: status $compile_status: $(tail -5 "$work/test-cuda-compile.log")"
		[ "$rejects_status" = 0 ] && ! grep -q "no nvcc is installed" "$work/test-cuda-rejects.log" &&
			ok "with nvcc, the files only nvcc refuses are refused" ||
			bad "with nvcc, the files only nvcc refuses: status $rejects_status: $(tail -5 "$work/test-cuda-rejects.log")"
	else
		bad "cannot bind $cuda into the root"
	fi
else
	echo "bare: make test with a CUDA toolkit is skipped: this machine has none (/usr/local/cuda/bin/nvcc) to lend the root"
fi
finish bare
