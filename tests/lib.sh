# tests/lib.sh — what every test script shares (git's t/test-lib.sh is the model): a scratch folder,
# counted checks, polls with a bound instead of fixed sleeps, and how a script ends. Source it from
# wherever the script runs; it changes no folder. The scripts that look for processes source
# tests/proc.sh after it; tests/tui/tmux.sh drives the workbook in tmux on top of it.
#   $repo                          the checkout's root
#   $tmp                           a scratch folder, removed at exit
#   when_finished CMD              CMD (a shell string) runs at exit, the last one given first
#   ok [WHAT]                      a check passed ("  ok   WHAT" said where WHAT is given)
#   bad WHAT [DETAIL]              a check failed: "FAIL: WHAT", then DETAIL
#   check WHAT CONDITION           CONDITION (a shell string) holds: ok, else bad WHAT
#   ok_if STATUS WHAT [DETAIL]     STATUS (a command's, as $?) is 0: ok, else bad WHAT DETAIL
#   expect STATUS PATTERN -- CMD…  CMD exits STATUS and prints (stdout or stderr) a line matching
#                                  PATTERN (grep -E; "" matches anything)
#   must_fail CMD…                 CMD ran and failed by itself: status 1 to 125, neither killed by a
#                                  signal nor not found (git's test_must_fail); a condition, not a check
#   wait_until SECONDS [!] CMD…    CMD, polled every 0.1 s, succeeded (with !: failed) within SECONDS,
#                                  the last try after them: the way to wait before checking that
#                                  something is gone, where a fixed sleep would guess
#   prints_nothing CMD…            CMD prints nothing (a condition, for wait_until)
#   finish NAME                    "NAME: N passed, M failed", and the script's status
#   gpu_build TARGET…              make on a GPU machine, with Debian's libraries carried in .gpu/
# A check never times anything: a busy machine may be slow, and only a bound makes a poll end.

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
passed=0 failed=0
tmp=$(mktemp -d) || exit 1
finishers=() gpu_make_flags=()

when_finished() { finishers+=("$1"); }

run_finishers() {
	local i
	for ((i = ${#finishers[@]} - 1; i >= 0; i--)); do
		eval "${finishers[i]}"
	done
	# a test may leave read-only folders behind (a class's submissions, a dist tree)
	chmod -R u+w "$tmp" 2>/dev/null
	rm -rf "$tmp"
}
trap run_finishers EXIT

ok() {
	passed=$((passed + 1))
	[ $# = 0 ] || printf '  ok   %s\n' "$*"
	return 0
}

bad() {
	failed=$((failed + 1))
	printf 'FAIL: %s\n' "$1"
	[ -z "${2:-}" ] || printf '%s\n' "$2"
	return 0
}

check() {
	if eval "$2"; then
		ok
	else
		bad "$1"
	fi
}

ok_if() {
	if [ "$1" = 0 ]; then
		ok
	else
		bad "$2" "${3:-}"
	fi
}

expect() {
	local want=$1 pattern=$2 out status
	shift 3
	out=$("$@" 2>&1)
	status=$?
	if [ "$status" = "$want" ] && grep -qE -- "$pattern" <<<"$out"; then
		ok
	else
		bad "$* — wanted status $want and /$pattern/, got $status:" "$out"
	fi
}

must_fail() {
	"$@"
	local status=$?
	if [ "$status" -gt 128 ]; then
		echo "must_fail: $1 was killed by signal $((status - 128))" >&2
	elif [ "$status" = 126 ] || [ "$status" = 127 ]; then
		echo "must_fail: $1 did not run (status $status)" >&2
	fi
	[ "$status" -ge 1 ] && [ "$status" -le 125 ]
}

wait_until() {
	local tries=$(($1 * 10)) want=0 status
	shift
	[ "$1" != "!" ] || { want=1; shift; }
	while :; do
		"$@"
		status=$?
		[ "$want" = 0 ] && [ "$status" = 0 ] && return 0
		[ "$want" = 1 ] && [ "$status" != 0 ] && return 0
		[ "$tries" -gt 0 ] || return 1
		tries=$((tries - 1))
		sleep 0.1
	done
}

prints_nothing() { [ -z "$("$@")" ]; }

finish() {
	echo "$1: $passed passed, $failed failed"
	[ "$failed" = 0 ]
}

# A GPU machine may lack Debian's cJSON, md4c and libseccomp, and reach no package registry: carry a
# copy unpacked from Debian's packages in .gpu/root (ignored by git), as
#   mkdir -p .gpu && cd .gpu && apt-get download libcjson1 libcjson-dev && for f in *.deb; do dpkg -x "$f" root; done
# gpu_env points the build and the programs at it, when it is there; gpu_build makes TARGETs with it.
gpu_env() {
	export CUDALINGS_ROOT=$PWD
	# the libraries come from .gpu/, not from a package registry the machine cannot reach
	export CUDALINGS_SKIP_DEPS=1
	local lib=$PWD/.gpu/root/usr/lib/x86_64-linux-gnu
	[ -d .gpu/root/usr/include/cjson ] || return 0
	[[ ":${LD_LIBRARY_PATH:-}:" == *":$lib:"* ]] || export LD_LIBRARY_PATH=$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
	gpu_make_flags=(CPPFLAGS="-I.gpu/root/usr/include" LDFLAGS="-L.gpu/root/usr/lib/x86_64-linux-gnu")
}

gpu_build() {
	gpu_env
	make -s -j"$(nproc)" "${gpu_make_flags[@]}" "$@"
}
