# What the instructor tests share: they run from the repo's root ($repo),
# in a temporary folder ($tmp) removed at exit, and count their checks.

cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
repo=$PWD
passed=0 failed=0
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

ok() { passed=$((passed + 1)); }
bad() {
	failed=$((failed + 1))
	printf 'FAIL: %s\n' "$*"
}

# expect STATUS PATTERN -- command...: the exit status and a line of output matching PATTERN
expect() {
	local want=$1 pattern=$2
	shift 3
	local out status
	out=$("$@" 2>&1)
	status=$?
	if [ "$status" = "$want" ] && grep -qE -- "$pattern" <<<"$out"; then
		ok
	else
		bad "$* — wanted status $want and /$pattern/, got $status:"
		printf '%s\n' "$out" | head -20
	fi
}
