#!/usr/bin/env bash
# cudalings new, on a copy of the workbook (CUDALINGS_ROOT): the entry goes
# where --after puts it (first, middle and last item) and nowhere else, and
# an edit that did not happen is never reported as written. Needs no GPU and
# compiles nothing; a few seconds.
set -u
cd "$(dirname "$0")/../.." && . tests/lib.sh
g=$repo/build/cudalings

book=$tmp/book
mkdir -p "$book"
. "$repo/tests/workbook-copy.sh"
workbook_files "$repo" | tar -C "$repo" --null -T - -cf - | tar -xf - -C "$book"
export CUDALINGS_ROOT=$book
cd "$book"
cp workbook.json "$tmp/workbook.orig.json"
names() { python3 -c 'import json,sys; print(" ".join(i["name"] for i in json.load(open(sys.argv[1]))["items"]))' "$1"; }
first=$(names workbook.json | cut -d' ' -f1)
last=$(names workbook.json | awk '{print $NF}')
middle=$(names workbook.json | awk '{print $(int(NF/2))}')

# new NAME AFTER: the entry lands right after AFTER, and every other item is as it was, in order
placed() {
	local name=$1 after=$2
	cp "$tmp/workbook.orig.json" workbook.json
	rm -f "solutions/$name.cu" "exercises/$name.cu" "harness/checks/$name.cpp" "slides/$name.md"
	expect 0 "workbook.json" -- "$g" new "$name" --after "$after"
	if python3 - "$tmp/workbook.orig.json" workbook.json "$name" "$after" <<'PY'; then ok; else bad "new $name --after $after: the entry is not right after $after"; fi
import json, sys
before = [i["name"] for i in json.load(open(sys.argv[1]))["items"]]
after = [i["name"] for i in json.load(open(sys.argv[2]))["items"]]
name, at = sys.argv[3], sys.argv[4]
want = before[:before.index(at) + 1] + [name] + before[before.index(at) + 1:]
assert after == want, (after, want)
PY
	expect 0 "^ *[0-9]+ +$name +exercise" -- "$g" list
}
placed at_first "$first"
placed at_middle "$middle"
placed at_last "$last"

# the scaffold's tolerance is the README's float32 default
python3 -c 'import json,sys; e=[i for i in json.load(open("workbook.json"))["items"] if i["name"]=="at_last"][0]; sys.exit(e["tolerance"]["rtol"] != 1e-5)' &&
	ok || bad "the scaffold's rtol is not 1e-5"

# a matrix exercise (--dims rows,cols): sizes rows and cols, a 2-D grid; it compiles, the starter and the
# unwritten solution fail, and written, check passes it (in a copy with the builds: it grades)
expect 2 "--dims takes 'n' \(a vector\) or 'rows,cols'" -- "$g" new flat --dims rows
book2=$tmp/book2
workbook_copy "$repo" "$book2"
cd "$book2"
export CUDALINGS_ROOT=$book2
expect 0 "workbook.json" -- "$g" new grid2 --dims rows,cols
python3 - <<'PY' && ok || bad "the 2-D entry: $(grep -A3 '"grid2"' workbook.json)"
import json
e = [i for i in json.load(open("workbook.json"))["items"] if i["name"] == "grid2"][0]
assert e["dims"] == ["rows", "cols"] and all(len(c) == 2 for c in e["cases"]) and len(e["timed"]) == 2, e
assert e["launcher"] == "void grid2_launch(const float *in, float *out, int rows, int cols)", e["launcher"]
assert e["tolerance"]["rtol"] == 1e-5
PY
grep -q '^    dim3 threads(32, 8);' solutions/grid2.cu && grep -q '^    dim3 threads(1, 1);' exercises/grid2.cu && ok ||
	bad "the 2-D scaffold's launch: $(grep -n dim3 solutions/grid2.cu exercises/grid2.cu)"
expect 1 "FAIL +at correctness" -- "$g" grade grid2
sed -i -e 's/    out\[i\] = in\[i\];/    out[i] = 2.0f * in[i];/' solutions/grid2.cu
# (status 1: the scaffold's TODO(instructor) marks are still in its lesson and title)
expect 1 "ok +solutions/grid2.cu +expected pass +got pass" -- "$g" check grid2

echo "scaffold: $passed passed, $failed failed"
[ "$failed" = 0 ]
