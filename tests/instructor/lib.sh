# Helpers the instructor tests share: count checks, say what failed.
# Source it after setting `passed=0 failed=0`.

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
