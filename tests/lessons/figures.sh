#!/usr/bin/env bash
# A lesson's measured tables agree with the bench files they cite, and every
# bench file a lesson names is there (tools/lesson-figures.py). Then, in a
# copy, a figure changed in a bench file and a bench file removed must each
# be caught. Ends with "figures: N passed, M failed".
set -u
cd "$(dirname "$0")/../.."
passed=0 failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# expect STATUS PATTERN -- command...
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
expect 0 "0 problems" -- python3 tools/lesson-figures.py
mkdir -p "$tmp/tools"
cp -r slides bench "$tmp/"
cp tools/lesson-figures.py "$tmp/tools/"
source=$(python3 tools/lesson-figures.py --cited | head -1)
# a figure of the first cited table changed in the bench file: the lesson no longer agrees
python3 - "$tmp/$source" <<'PY'
import re, sys
p = sys.argv[1]; s = open(p).read()
open(p, "w").write(re.sub(r"\| (\d+)\.(\d) \|", lambda m: "| %s.%d |" % (m.group(1), (int(m.group(2)) + 1) % 10), s, count=1))
PY
expect 1 "differs from the bench file" -- python3 "$tmp/tools/lesson-figures.py"
expect 0 "wrote slides/" -- python3 "$tmp/tools/lesson-figures.py" --write
expect 0 "0 problems" -- python3 "$tmp/tools/lesson-figures.py"
rm "$tmp/$source"
expect 1 "missing" -- python3 "$tmp/tools/lesson-figures.py"
echo "figures: $passed passed, $failed failed"
[ "$failed" = 0 ]
