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
# BARE_MIRROR picks the Debian mirror.
set -u
cd "$(dirname "$0")/../.."
repo=$PWD
limit=${BARE_LIMIT:-1500}
mirror=${BARE_MIRROR:-http://deb.debian.org/debian}
passed=0 failed=0
ok() { passed=$((passed + 1)); echo "  ok   $*"; }
bad() { failed=$((failed + 1)); echo "  BAD  $*"; }
skip() { echo "bare: skipped: $*"; exit 0; }

[ "$(id -u)" = 0 ] || skip "not root (a chroot and debootstrap need root)"
host=${mirror#*://}
host=${host%%/*}
timeout 10 bash -c "</dev/tcp/$host/80" 2>/dev/null || skip "no network: $host:80 does not answer"
if ! command -v debootstrap >/dev/null; then
	sh tools/deps.sh bare >/dev/null 2>&1 || true
	command -v debootstrap >/dev/null || skip "no debootstrap, and tools/deps.sh bare could not install it"
fi

# the rest runs once, under the time limit, and everything it mounts and makes goes at the end
if [ -z "${BARE_INNER:-}" ]; then
	export BARE_INNER=1
	start=$(date +%s)
	timeout --kill-after=30 "$limit" bash "$0"
	status=$?
	[ "$status" = 124 ] && echo "bare: FAILED: ran past its ${limit} s limit"
	echo "bare: took $(($(date +%s) - start)) s"
	exit "$status"
fi

work=$(mktemp -d /tmp/cudalings-bare.XXXXXX)
root=$work/root
cleanup() {
	for m in "$root/dev/pts" "$root/dev" "$root/proc"; do
		mountpoint -q "$m" 2>/dev/null && umount -l "$m"
	done
	rm -rf --one-file-system "$work"
}
trap cleanup EXIT
trap 'exit 124' TERM

echo "== a bookworm root (debootstrap --variant=minbase, from $mirror)"
t0=$(date +%s)
if debootstrap --variant=minbase bookworm "$root" "$mirror" >"$work/debootstrap.log" 2>&1; then
	ok "debootstrap ($(($(date +%s) - t0)) s)"
else
	tail -20 "$work/debootstrap.log"
	bad "debootstrap failed"
	echo "bare: $passed passed, $failed failed"
	exit 1
fi
cp /etc/resolv.conf "$root/etc/resolv.conf"
mount -t proc proc "$root/proc"
mount --bind /dev "$root/dev"
mount --bind /dev/pts "$root/dev/pts" 2>/dev/null || true
# the checkout as a clone would have it: the files git tracks (and those it would)
mkdir -p "$root/home/student/cudalings"
git ls-files -z -co --exclude-standard | tar --null -T - -cf - | tar -xf - -C "$root/home/student/cudalings"
inside() { chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 \
	TERM=dumb bash -c "cd /home/student/cudalings && $1"; }

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
