# Shared by the lessons' test scripts: a scratch folder, and expect().
# Source it after `cd` to the workbook; end with `finish NAME`.
passed=0 failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# expect STATUS PATTERN -- command...: the command exits STATUS and prints a line matching PATTERN
expect() {
	local want=$1 pattern=$2 out status
	shift 3
	out=$("$@" 2>&1)
	status=$?
	if [ "$status" = "$want" ] && grep -qE -- "$pattern" <<<"$out"; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		printf 'FAIL: %s\n  wanted status %s and /%s/, got %s:\n%s\n' "$*" "$want" "$pattern" "$status" "$out"
	fi
}

# finish NAME: the closing line, and the status
finish() {
	echo "$1: $passed passed, $failed failed"
	[ "$failed" = 0 ]
}
