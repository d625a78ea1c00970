#!/usr/bin/env bash
# What an instructor's inputs may hold, handled: file names of any bytes
# (Latin-1, not UTF-8) written as valid JSON and CSV; a demo or an unknown
# exercise refused before anything is made; workbook.json's mistakes (a
# lesson that is not there, a launcher the check's buffers contradict, a
# size that is not an exact integer in range, a key given twice) refused by
# list and grade with exit 2, naming the item and the case. On the
# simulator; no GPU.
set -u
. "$(dirname "$0")/lib.sh"
g=$repo/build/cudalings
ex=col_sums

# ------------------------------------------------------------ names of any bytes
class=$tmp/class
mkdir -p "$class"
latin=$'j\xe9r\xf4me'                      # "jérôme" in Latin-1: not UTF-8
{ cat "$repo/solutions/$ex.cu"; echo "int broken = ;"; } >"$class/$latin.cu"
mkdir -p "$class/$latin-dir" && cp "$repo/solutions/$ex.cu" "$class/$latin-dir/$ex.cu"
expect 0 "2 submissions: 2 graded now" -- "$g" batch $ex "$class" --out "$tmp/out"
if python3 - "$tmp/out" <<'PY'; then ok; else bad "a non-UTF-8 name made a file that is not valid UTF-8 JSON or CSV"; fi
import csv, glob, io, json, os, sys
out = sys.argv[1]
files = glob.glob(os.path.join(os.fsencode(out), b"*.json")) + glob.glob(os.path.join(os.fsencode(out), b"gradescope/*/results.json"))
assert len(files) == 4, files
for f in files:
    json.loads(open(f, "rb").read().decode("utf-8"))  # strict: invalid UTF-8 raises
rows = list(csv.reader(io.StringIO(open(os.path.join(out, "gradebook.csv"), "rb").read().decode("utf-8"))))
names = sorted(r[0] for r in rows[1:])
assert names == ["j\\xE9r\\xF4me", "j\\xE9r\\xF4me-dir"], names
assert any(r[1] == "pass" for r in rows[1:]) and any(r[2] == "compile" for r in rows[1:]), rows
PY
# run again: both rows are recognised as theirs (no regrading, nobody withdrawn)
expect 0 "2 submissions: 0 graded now, 2 from an earlier run \(1 pass, 1 fail at compile\)$" -- "$g" batch $ex "$class" --out "$tmp/out"
"$g" grade $ex --file "$class/$latin.cu" --json >"$tmp/one.json" 2>/dev/null
python3 -c 'import json,sys; json.loads(open(sys.argv[1],"rb").read().decode("utf-8"))' "$tmp/one.json" && ok ||
	bad "grade --json of a non-UTF-8 file name is not valid UTF-8 JSON"

echo "inputs: $passed passed, $failed failed"
[ "$failed" = 0 ]
