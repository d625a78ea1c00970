#!/usr/bin/env bash
# What an instructor's inputs may hold, handled: file names of any bytes
# (Latin-1, not UTF-8) written as valid JSON and CSV; a demo or an unknown
# exercise refused before anything is made; workbook.json's mistakes (a
# lesson that is not there, a launcher the check's buffers contradict, a
# size that is not an exact integer in range, a key given twice) refused by
# list and grade with exit 2, naming the item and the case. On the
# simulator; no GPU.
set -u
cd "$(dirname "$0")/../.." && . tests/lib.sh
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

# a deadline: a time it reads, the rows' times said; what it does not read, refused
expect 2 "--deadline takes a time like" -- "$g" batch $ex "$class" --out "$tmp/out" --deadline "next friday"
expect 2 "--submitted goes with --deadline" -- "$g" batch $ex "$class" --out "$tmp/out" --submitted "$tmp/none.csv"
expect 0 "deadline 2000-01-01T00:00:00Z: 2 late \(the gradebook's flags\), by the files' modification times" -- \
	"$g" batch $ex "$class" --out "$tmp/out" --deadline 2000-01-01T00:00Z
tr -d '\r' <"$tmp/out/gradebook.csv" | grep -c ',late$' | grep -qx 2 && ok || bad "two late rows: $(cat "$tmp/out/gradebook.csv")"

# ------------------------------------------------------------ workbook.json's mistakes
book=$tmp/book
mkdir -p "$book"
. "$repo/tests/workbook-copy.sh"
workbook_files "$repo" | tar -C "$repo" --null -T - -cf - | tar -xf - -C "$book"
cp "$book/workbook.json" "$tmp/workbook.orig.json"
# broken KEY VALUE: the workbook with col_sums's KEY set to VALUE (JSON)
broken() {
	python3 - "$tmp/workbook.orig.json" "$book/workbook.json" "$1" "$2" <<'PY'
import json, sys
w = json.load(open(sys.argv[1]))
item = next(i for i in w["items"] if i["name"] == "col_sums")
item[sys.argv[3]] = json.loads(sys.argv[4])
json.dump(w, open(sys.argv[2], "w"), indent=2, ensure_ascii=False)
PY
}
# refused PATTERN: list and grade both stop with exit 2 and say PATTERN
refused() {
	expect 2 "$1" -- env CUDALINGS_ROOT="$book" "$g" list
	expect 2 "$1" -- env CUDALINGS_ROOT="$book" "$g" grade col_sums
}
broken lesson '"slides/nosuch.md"'
refused "col_sums: its lesson 'slides/nosuch.md' is not there"
broken lesson '"../../etc/passwd"'
refused "col_sums: .lesson. '../../etc/passwd' must be a path inside the workbook's folder"
broken launcher '"void col_sums_launch(const double *a, float *sums, int rows, int cols)"'
refused "col_sums: the launcher's parameter 1, 'const double \*a', is float64, but harness/checks/col_sums.cpp declares buffer 1, 'a', as float32"
broken launcher '"void col_sums_launch(const float *a, float *sums, int rows, in cols)"'
refused "col_sums: the launcher's parameter 'in cols' is neither a buffer"
broken launcher '"void col_sums_launch(const float *a, int rows, int cols)"'
refused "col_sums: the launcher takes 1 buffer, but harness/checks/col_sums.cpp declares more \(buffer 2, 'sums', float32\)"
broken cases '[[31.5, 33], [1, 1]]'
refused 'col_sums: case 1 of "cases": size 1, 31.5, is not a whole number'
broken cases '[[1, 1], [3000000000, 2]]'
refused 'col_sums: case 2 of "cases": size 1, 3000000000, is out of range: sizes are 1 to 1073741824'
broken timed '[4096, 0]'
refused 'col_sums: "timed": size 2, 0, is out of range'
# a key given twice: cJSON would read the first and ignore the second
python3 - "$tmp/workbook.orig.json" "$book/workbook.json" <<'PY'
import sys
text = open(sys.argv[1]).read()
at = text.index('"name": "col_sums"')
open(sys.argv[2], "w").write(text[:at] + '"cases": [[1, 1]], ' + text[at:])
PY
refused 'col_sums: "cases" is given twice in one object'
cp "$tmp/workbook.orig.json" "$book/workbook.json"
expect 0 "col_sums" -- env CUDALINGS_ROOT="$book" "$g" list
# a comment that names a buffer is no buffer
sed -i '1i /* once: check_buffer_typed(c, "x", BUFFER_IN, DTYPE_UINT8, 1, 1); */ // check_buffer(c, "y", BUFFER_IN, 1, 1);' \
	"$book/harness/checks/col_sums.cpp"
expect 0 "col_sums" -- env CUDALINGS_ROOT="$book" "$g" list

echo "inputs: $passed passed, $failed failed"
[ "$failed" = 0 ]
