#!/usr/bin/env bash
# tests/bare/run.sh — a bare machine: a clean Debian bookworm root
# (debootstrap --variant=minbase, with make added: the one thing a student
# must have to type the README's commands) gets this checkout, and the two
# commands' set-up runs there as root, as a student's first `make tui` and
# `make test` would: tools/deps.sh installs what is missing, then the build.
# `make tui` goes as far as the screen, which needs a terminal (the test has
# none); `make test` runs its Criterion programs (its scripts need tmux and
# the rest of the test machine). Checked: neither command's first words are a
# compiler's error, both install and build, the unit tests pass.
#
# Needs root, the network and debootstrap (tools/deps.sh bare installs it);
# without them it says why it is skipped and exits 0. Run by .ci/run, not by
# make test. BARE_LIMIT (seconds, default 1500) bounds the whole test;
# BARE_MIRROR picks the Debian mirror. The root is tests/bare/root.sh's.
set -u
cd "$(dirname "$0")/../.."
repo=$PWD
limit=${BARE_LIMIT:-1500}
passed=0 failed=0
ok() { passed=$((passed + 1)); echo "  ok   $*"; }
bad() { failed=$((failed + 1)); echo "  BAD  $*"; }
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
git ls-files -z -co --exclude-standard | tar --null -T - -cf - | tar -xf - -C "$root/home/student/cudalings"
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

echo "== make test (its Criterion programs; the scripts need the test machine)"
student_runs test "make test TEST_SCRIPTS= TEST_JOBS=2"
if [ "$status" = 0 ] && grep -q "make test: all .* suites passed" "$work/test.log"; then
	ok "make test installed the test packages, built and passed its programs ($took s)"
else
	tail -40 "$work/test.log"
	bad "make test in the bare root ended with status $status"
fi
echo "bare: $passed passed, $failed failed"
[ "$failed" = 0 ]
